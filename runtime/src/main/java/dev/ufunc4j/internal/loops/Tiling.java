package dev.ufunc4j.internal.loops;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Runs a {@linkplain LoopPlan#tiled() tiled} plan: {@link #tiled} wraps the kernel so that each
 * box {@link Loops} hands it (the two innermost loop dimensions, rows then columns; {@link Loops}
 * walks the outer ones) is cut into tiles of {@link LoopPlan#tileRows} × {@link
 * LoopPlan#tileCols}, visited row band by row band. Each tile is run in strips of {@link #STRIP}
 * rows: every {@linkplain LoopPlan#staged(int) staged} input's strip is copied ({@link TileCopy},
 * transposing 8×8 blocks in registers) into a contiguous per-thread scratch block, then the
 * kernel runs the strip as a box in which that input has unit strides, so it takes its vector
 * loops.
 *
 * <p>Why this shape (docs/runtime.md, "Transposed operands", has the numbers): a strip of 8 rows
 * reads 8 consecutive elements (32 bytes of float32) from each of {@code tileCols} rows of the
 * transposed operand, and the next strip reads the next 8 from the same cache lines, which a tile
 * of {@code tileCols} lines keeps in L1; the scratch block (8 × 1024 float32 = 32 KiB) stays in
 * L1 too; and the output and the other inputs are read in runs of {@code tileCols} elements,
 * long enough for the hardware prefetchers.
 */
public final class Tiling {
  /** Rows per strip: the height of {@link TileCopy}'s register blocks. */
  public static final int STRIP = 8;

  /** Per thread: one scratch block per operand index, grown on demand and then reused. */
  private static final ThreadLocal<MemorySegment[]> SCRATCH =
      ThreadLocal.withInitial(() -> new MemorySegment[0]);

  private Tiling() {}

  /**
   * {@code kernel} running each box tile by tile as {@code plan} says. One wrapper serves one
   * thread: it keeps the strip's arguments and this thread's scratch blocks.
   */
  public static StridedBox tiled(StridedBox kernel, LoopPlan plan) {
    return new Tiled(kernel, plan);
  }

  private static final class Tiled implements StridedBox {
    private final StridedBox kernel;
    private final LoopPlan plan;
    private final MemorySegment[] stripSegments;
    private final long[] stripOffsets;
    private final long[] stripStrides;

    Tiled(StridedBox kernel, LoopPlan plan) {
      this.kernel = kernel;
      this.plan = plan;
      int ops = plan.operands;
      stripSegments = new MemorySegment[ops];
      stripOffsets = new long[ops];
      stripStrides = new long[2 * ops];
      for (int k = 0; k < ops; k++) {
        if (plan.staged(k)) {
          stripSegments[k] = scratch(k, (long) STRIP * plan.tileCols * plan.elementBytes[k]);
          stripStrides[2 * k + 1] = 1;
        }
      }
    }

    @Override
    public void box(
        long rows,
        long cols,
        MemorySegment[] segments,
        long[] offsets,
        long[] strides,
        double[] floatScalars,
        long[] intScalars) {
      int ops = plan.operands;
      int tileRows = plan.tileRows;
      int tileCols = plan.tileCols;
      for (int k = 0; k < ops; k++) {
        if (!plan.staged(k)) {
          stripSegments[k] = segments[k];
          stripStrides[2 * k] = strides[2 * k];
          stripStrides[2 * k + 1] = strides[2 * k + 1];
        }
      }
      for (long band = 0; band < rows; band += tileRows) {
        long bandEnd = Math.min(rows, band + tileRows);
        for (long j = 0; j < cols; j += tileCols) {
          int tc = (int) Math.min(tileCols, cols - j);
          for (long i = band; i < bandEnd; i += STRIP) {
            int tr = (int) Math.min(STRIP, bandEnd - i);
            for (int k = 0; k < ops; k++) {
              long rowStride = strides[2 * k];
              long colStride = strides[2 * k + 1];
              long off = offsets[k] + i * rowStride + j * colStride;
              if (plan.staged(k)) {
                TileCopy.copy(segments[k], off, rowStride, colStride, tr, tc,
                    plan.elementBytes[k], stripSegments[k]);
                stripOffsets[k] = 0;
                stripStrides[2 * k] = tc;
              } else {
                stripOffsets[k] = off;
              }
            }
            Loops.box(kernel, tr, tc, stripSegments, stripOffsets, stripStrides, floatScalars,
                intScalars);
          }
        }
      }
    }
  }

  /** This thread's scratch block for operand {@code k}, at least {@code bytes} long. */
  private static MemorySegment scratch(int k, long bytes) {
    MemorySegment[] blocks = SCRATCH.get();
    if (k >= blocks.length) {
      blocks = Arrays.copyOf(blocks, k + 1);
      SCRATCH.set(blocks);
    }
    MemorySegment block = blocks[k];
    if (block == null || block.byteSize() < bytes) {
      block = Arena.ofAuto().allocate(bytes, 64);
      blocks[k] = block;
    }
    return block;
  }
}
