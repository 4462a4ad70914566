package dev.ufunc4j.kernel;

import dev.ufunc4j.internal.loops.LoopPlan;
import dev.ufunc4j.internal.loops.Loops;
import dev.ufunc4j.internal.parallel.Parallel;
import dev.ufunc4j.internal.loops.StridedBox;
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
    Parallel.run(
        op.box(entry),
        plan,
        segments,
        offsets,
        floatScalars,
        intScalars,
        Parallel.grainFor(op.tunedGrain(entry), op.cost()));
  }
}
