package dev.ufunc4j.internal.loops;

import java.lang.foreign.MemorySegment;

/**
 * A loop body over a two-dimensional strided box: what {@link Loops}, {@link Tiling} and {@link
 * Parallel} drive. The kernel layer hands them each op's generated kernel as one ({@code
 * ElementwiseKernel#box} has this signature and meaning); they know nothing else of kernels, so
 * this package does not depend on the SPI above it (docs/architecture.md, "Layers").
 */
@FunctionalInterface
public interface StridedBox {
  /**
   * Runs {@code rows} × {@code cols} elements: row {@code r} of operand {@code k} starts at element
   * {@code offsets[k] + r * strides[2 * k]} and steps {@code strides[2 * k + 1]}; operand 0 is the
   * output.
   *
   * @param rows number of rows, at least 1
   * @param cols elements per row, at least 1
   * @param segments storage of each operand, output first
   * @param offsets element offset of each operand's first element
   * @param strides element strides, row to row then within a row, per operand
   * @param floatScalars the {@code @Scalar} values for floating bodies
   * @param intScalars the {@code @Scalar} values for integral and logical bodies
   */
  void box(
      long rows,
      long cols,
      MemorySegment[] segments,
      long[] offsets,
      long[] strides,
      double[] floatScalars,
      long[] intScalars);
}
