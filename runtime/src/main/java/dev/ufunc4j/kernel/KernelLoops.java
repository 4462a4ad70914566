package dev.ufunc4j.kernel;

import dev.ufunc4j.internal.loops.LoopPlan;
import dev.ufunc4j.internal.loops.Loops;
import dev.ufunc4j.internal.parallel.Parallel;
import dev.ufunc4j.internal.loops.StridedBox;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Runs one of an op's kernels over strided memory: the last step of every elementwise call, which
 * the dispatcher ({@code dev.ufunc4j.Dispatch}) reaches once it has checked the operands, chosen
 * the table entry and allocated the result. It knows no tensors, only storage, offsets and
 * strides, and it hands the kernel to the loop driver below it ({@code dev.ufunc4j.internal}:
 * the planner, the box walk, the threads) as a plain loop body; docs/architecture.md, "Layers".
 *
 * <p>Users do not call it: the arguments are trusted (every check happened before) and a wrong
 * stride reads or writes outside an operand.
 */
public final class KernelLoops {
  private static final double[] NO_FLOATS = {};
  private static final long[] NO_LONGS = {};

  /** {@code UNIT_STRIDE_COLUMNS[n]}: {@code n} arrays {@code {1}}, as {@link LoopPlan#of} takes. */
  private static final long[][][] UNIT_STRIDE_COLUMNS = new long[17][][];

  static {
    for (int n = 0; n < UNIT_STRIDE_COLUMNS.length; n++) {
      UNIT_STRIDE_COLUMNS[n] = unitStrideColumns(n);
    }
  }

  private KernelLoops() {}

  private static long[][] unitStrideColumns(int operands) {
    long[][] columns = new long[operands][];
    for (int i = 0; i < operands; i++) {
      columns[i] = new long[] {1};
    }
    return columns;
  }

  /**
   * Runs table entry {@code entry} of {@code op} over one contiguous row of {@code n} elements of
   * every operand, in parallel above twice the op's grain.
   *
   * @param op the op
   * @param entry the table entry ({@link ElementwiseOp#entry})
   * @param n elements per operand
   * @param segments storage of each operand, output first (shareable across threads)
   * @param offsets element offset of each operand's first element
   */
  public static void runRow(
      ElementwiseOp op, int entry, long n, MemorySegment[] segments, long[] offsets) {
    StridedBox kernel = op.box(entry);
    long grain;
    if (Parallel.threads() > 1
        && Parallel.atLeastTwoGrains(n, grain = Parallel.grainFor(op.tunedGrain(entry), op.cost()))) {
      int operands = segments.length;
      long[][] columns = operands < UNIT_STRIDE_COLUMNS.length
          ? UNIT_STRIDE_COLUMNS[operands] : unitStrideColumns(operands);
      LoopPlan plan = LoopPlan.of(new long[] {n}, columns);
      Parallel.run(kernel, plan, segments, offsets, NO_FLOATS, NO_LONGS, grain);
    } else {
      Loops.contiguous(kernel, n, segments, offsets, NO_FLOATS, NO_LONGS);
    }
  }

  /**
   * Runs table entry {@code entry} of {@code op} over operands of any layout: PyTorch's
   * TensorIterator plan over the broadcast shape (size-1 dimensions dropped, dimensions sorted and
   * coalesced), in parallel above twice the op's grain.
   *
   * @param op the op
   * @param entry the table entry ({@link ElementwiseOp#entry})
   * @param shape the broadcast shape
   * @param strides each operand's element strides over {@code shape} (0 where it broadcasts),
   *     output first
   * @param elementBytes each operand's element size in bytes
   * @param segments storage of each operand, output first (shareable across threads)
   * @param offsets element offset of each operand's first element
   * @param floatScalars the {@code @Scalar} values for floating bodies
   * @param intScalars the {@code @Scalar} values for integral and logical bodies
   */
  public static void runPlanned(
      ElementwiseOp op,
      int entry,
      long[] shape,
      long[][] strides,
      int[] elementBytes,
      MemorySegment[] segments,
      long[] offsets,
      double[] floatScalars,
      long[] intScalars) {
    LoopPlan plan = LoopPlan.of(shape, strides, elementBytes);
    run(op.box(entry), plan, segments, offsets, floatScalars, intScalars,
        Parallel.grainFor(op.tunedGrain(entry), op.cost()));
  }

  /** {@link #runPlanned}'s loop: a small box of short rows as one row, else {@link Parallel#run}. */
  static void run(
      StridedBox kernel,
      LoopPlan plan,
      MemorySegment[] segments,
      long[] offsets,
      double[] floatScalars,
      long[] intScalars,
      long grain) {
    if (asOneRow(plan)
        && (Parallel.threads() <= 1 || !Parallel.atLeastTwoGrains(plan.numel(), grain))) {
      runAsOneRow(kernel, plan, segments, offsets, floatScalars, intScalars);
    } else {
      Parallel.run(kernel, plan, segments, offsets, floatScalars, intScalars, grain);
    }
  }

  // ============================================================================================
  // Small broadcasts as one row (issue 28, item 6; docs/runtime.md, "Small ops in a scope")
  // ============================================================================================

  /** Loops of at most this many elements are candidates for {@link #runAsOneRow}. */
  static final long ONE_ROW_ELEMENTS = 1024;

  /** Rows up to this many elements are short: the kernel's per-row work outweighs their own. */
  static final long SHORT_ROW = 32;

  /**
   * Whether {@code plan} is a small box of short rows ({@code [4,4] + [4]}) whose output walks it
   * contiguously and whose inputs are each contiguous over it too, or broadcast along one or both
   * of its dimensions. Such a box runs as one contiguous row ({@link #runAsOneRow}) instead of row
   * by row: a generated kernel's row shorter than its vector runs the strided tail, which gathers
   * each row into per-thread lanes ({@code LaneScratch}: a {@code ThreadLocal} lookup and a full
   * vector for every row), and {@code tiny_4x4} cost 2.6 times {@code tiny_8} in every mode for
   * that (measured: docs/runtime.md). Only operands with a zero stride are copied, and an op's
   * targets never have one (a target that overlaps itself is refused before), so whatever the
   * caller's count of targets, none is copied.
   */
  static boolean asOneRow(LoopPlan plan) {
    if (plan.rank != 2 || plan.tiled() || plan.elementBytes == null) {
      return false;
    }
    long rows = plan.shape[0];
    long cols = plan.shape[1];
    if (rows < 2 || cols > SHORT_ROW || rows > ONE_ROW_ELEMENTS / cols) {
      return false;
    }
    long[] s = plan.strides; // rank 2: [2k] from row to row, [2k + 1] within a row
    if (s[0] != cols || s[1] != 1) {
      return false; // the output (operand 0) is not contiguous over the box
    }
    for (int k = 1; k < plan.operands; k++) {
      boolean contiguous = s[2 * k] == cols && s[2 * k + 1] == 1;
      if (!contiguous && s[2 * k] != 0 && s[2 * k + 1] != 0) {
        return false; // strided without broadcasting: a view that may be a target
      }
    }
    return true;
  }

  /**
   * Runs an {@link #asOneRow} plan as one row of {@code rows * cols} elements: contiguous operands
   * as they are, operands broadcast along both dimensions at stride 0, and the others copied
   * first, row by row, into this thread's {@link #gatherBlock}. The kernel computes each element
   * from the same values as row by row, so the bits are the same.
   */
  private static void runAsOneRow(
      StridedBox kernel,
      LoopPlan plan,
      MemorySegment[] segments,
      long[] offsets,
      double[] floatScalars,
      long[] intScalars) {
    int operands = plan.operands;
    long rows = plan.shape[0];
    long cols = plan.shape[1];
    long n = rows * cols;
    long[] s = plan.strides;
    MemorySegment[] rowSegments = segments.clone();
    long[] rowOffsets = offsets.clone();
    // One box of one row, in the box's stride layout: [2k + 1] is 1, or 0 where broadcast.
    long[] rowStrides = new long[2 * operands];
    MemorySegment block = null;
    for (int k = 0; k < operands; k++) {
      long between = s[2 * k];
      long within = s[2 * k + 1];
      if (between == 0 && within == 0) {
        continue; // one value for the whole box: stride 0
      }
      rowStrides[2 * k + 1] = 1;
      if (k == 0 || (between == cols && within == 1)) {
        continue; // contiguous over the box already
      }
      if (block == null) {
        block = gatherBlock((operands - 1) * SLOT_BYTES);
      }
      // Operand k's slot: a multiple of every element size (powers of two up to 16 bytes).
      long at = (k - 1) * SLOT_BYTES;
      int bytes = plan.elementBytes[k];
      gather(segments[k], offsets[k], between, within, rows, cols, bytes, block, at);
      rowSegments[k] = block;
      rowOffsets[k] = at / bytes;
    }
    Loops.run(kernel, 2, new long[] {1, n}, rowStrides, rowStrides, rowSegments, rowOffsets,
        floatScalars, intScalars);
  }

  /** Copies a {@code rows × cols} box of {@code src} to byte {@code at} of {@code dst}, row after row. */
  private static void gather(MemorySegment src, long offset, long between, long within,
      long rows, long cols, int bytes, MemorySegment dst, long at) {
    for (long r = 0; r < rows; r++) {
      long from = offset + r * between;
      long to = at + r * cols * bytes;
      if (within == 1) {
        MemorySegment.copy(src, from * bytes, dst, to, cols * bytes);
      } else {
        for (long c = 0; c < cols; c++) {
          MemorySegment.copy(src, (from + c * within) * bytes, dst, to + c * bytes, bytes);
        }
      }
    }
  }

  /** Bytes of one operand's copy in {@link #gatherBlock}: the most elements, of the widest dtype. */
  private static final long SLOT_BYTES = ONE_ROW_ELEMENTS * 16;

  /**
   * This thread's block for {@link #runAsOneRow}'s copies, at least {@code bytes} long: its own,
   * not {@code LaneScratch}'s, which the kernel's strided tail writes while it reads these.
   * Unconfined ({@code Arena.ofAuto()}, as {@code LaneScratch}'s), so kernels see no other kind of
   * segment than before.
   */
  private static MemorySegment gatherBlock(long bytes) {
    MemorySegment b = GATHER.get();
    if (b.byteSize() < bytes) {
      b = Arena.ofAuto().allocate(bytes, 64);
      GATHER.set(b);
    }
    return b;
  }

  private static final ThreadLocal<MemorySegment> GATHER =
      ThreadLocal.withInitial(() -> MemorySegment.NULL);
}
