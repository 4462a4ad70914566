package dev.ufunc4j.internal;

import dev.ufunc4j.kernel.ElementwiseKernel;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Runs a {@linkplain LoopPlan#tiled() tiled} plan. The two innermost loop dimensions (rows, then
 * columns) are cut into tiles of {@link LoopPlan#tileRows} × {@link LoopPlan#tileCols}, visited
 * row band by row band; the outer dimensions are walked one index at a time. Each tile is run in
 * strips of {@link #STRIP} rows: every {@linkplain LoopPlan#staged(int) staged} input's strip is
 * copied ({@link TileCopy}, transposing 8×8 blocks in registers) into a contiguous per-thread
 * scratch block, then the kernel runs the strip as a rank-2 loop in which that input has unit
 * strides, so it takes its vector loops.
 *
 * <p>Why this shape (docs/runtime.md, "Transposed operands", has the numbers): a strip of 8 rows
 * reads 8 consecutive elements (32 bytes of float32) from each of {@code tileCols} rows of the
 * transposed operand, and the next strip reads the next 8 from the same cache lines, which a tile
 * of {@code tileCols} lines keeps in L1; the scratch block (8 × 1024 float32 = 32 KiB) stays in
 * L1 too; and the output and the other inputs are read in runs of {@code tileCols} elements,
 * long enough for the hardware prefetchers.
 */
final class Tiling {
  /** Rows per strip: the height of {@link TileCopy}'s register blocks. */
  static final int STRIP = 8;

  /** Per thread: one scratch block per operand index, grown on demand and then reused. */
  private static final ThreadLocal<MemorySegment[]> SCRATCH =
      ThreadLocal.withInitial(() -> new MemorySegment[0]);

  private Tiling() {}

  /**
   * Runs {@code plan}'s kernel over the box {@code shape} (the plan's shape, or a share of its
   * outermost dimension) whose first elements are at {@code offsets}.
   */
  static void run(
      ElementwiseKernel kernel,
      LoopPlan plan,
      long[] shape,
      MemorySegment[] segments,
      long[] offsets,
      double[] floatScalars,
      long[] intScalars) {
    int r = plan.rank;
    int ops = plan.operands;
    long[] st = plan.strides;
    int rowDim = r - 2;
    int colDim = r - 1;
    long rows = shape[rowDim];
    long cols = shape[colDim];
    int tileRows = plan.tileRows;
    int tileCols = plan.tileCols;

    MemorySegment[] stripSegments = segments.clone();
    long[] stripOffsets = new long[ops];
    long[] stripStrides = new long[2 * ops];
    long[] stripShape = new long[2];
    for (int k = 0; k < ops; k++) {
      if (plan.staged(k)) {
        stripSegments[k] = scratch(k, (long) STRIP * tileCols * plan.elementBytes[k]);
        stripStrides[2 * k + 1] = 1;
      } else {
        stripStrides[2 * k] = st[k * r + rowDim];
        stripStrides[2 * k + 1] = st[k * r + colDim];
      }
    }

    long[] base = offsets.clone();
    long[] index = new long[rowDim];
    while (true) {
      for (long band = 0; band < rows; band += tileRows) {
        long bandEnd = Math.min(rows, band + tileRows);
        for (long j = 0; j < cols; j += tileCols) {
          int tc = (int) Math.min(tileCols, cols - j);
          for (long i = band; i < bandEnd; i += STRIP) {
            int tr = (int) Math.min(STRIP, bandEnd - i);
            for (int k = 0; k < ops; k++) {
              long rowStride = st[k * r + rowDim];
              long colStride = st[k * r + colDim];
              long off = base[k] + i * rowStride + j * colStride;
              if (plan.staged(k)) {
                TileCopy.copy(segments[k], off, rowStride, colStride, tr, tc,
                    plan.elementBytes[k], stripSegments[k]);
                stripOffsets[k] = 0;
                stripStrides[2 * k] = tc;
              } else {
                stripOffsets[k] = off;
              }
            }
            stripShape[0] = tr;
            stripShape[1] = tc;
            kernel.run(2, stripShape, stripSegments, stripOffsets, stripStrides, floatScalars,
                intScalars);
          }
        }
      }
      // Next index of the outer dimensions (an odometer), or done.
      int d = rowDim - 1;
      for (; d >= 0; d--) {
        for (int k = 0; k < ops; k++) {
          base[k] += st[k * r + d];
        }
        if (++index[d] < shape[d]) {
          break;
        }
        for (int k = 0; k < ops; k++) {
          base[k] -= shape[d] * st[k * r + d];
        }
        index[d] = 0;
      }
      if (d < 0) {
        return;
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
