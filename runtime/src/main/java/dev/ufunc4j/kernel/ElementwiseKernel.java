package dev.ufunc4j.kernel;

import dev.ufunc4j.internal.loops.Loops;
import java.lang.foreign.MemorySegment;

/**
 * One generated elementwise loop for one combination of operand dtypes. This is the contract
 * between the processor's generated code and the runtime's planner; users do not call it.
 *
 * <p>Operand 0 is the output; operands {@code 1..n} are the op's tensor parameters in declaration
 * order. Offsets and strides count elements of the operand's own dtype (a complex element is one
 * (re, im) pair). The planner has already broadcast (stride 0), reordered and coalesced the
 * dimensions and checked every bound: a kernel does no validation of its own.
 *
 * <p>A kernel sees a two-dimensional box, as PyTorch's {@code Loops.h} does: {@link #box} runs
 * {@code rows} rows of {@code cols} elements, and the runtime ({@code dev.ufunc4j.internal.loops.Loops})
 * walks every dimension above those two, once for all kernels. Generated kernels implement {@link
 * #box}; {@link #run} is the same loop nest at any rank.
 */
public interface ElementwiseKernel {

  /**
   * Runs a box of {@code rows} × {@code cols} elements: row {@code r} of operand {@code k} starts
   * at element {@code offsets[k] + r * strides[2 * k]} and steps {@code strides[2 * k + 1]} from
   * one element to the next.
   *
   * <p>The default runs {@link #run} over the rank-2 loop {@code (rows, cols)}, whose strides
   * have exactly this layout; it exists so that a class implementing only {@link #run} (a test
   * double) is still a kernel. An implementation must override at least one of the two.
   *
   * @param rows number of rows, at least 1
   * @param cols elements per row, at least 1
   * @param segments storage of each operand, output first
   * @param offsets element offset of each operand's first element
   * @param strides element strides, {@code strides[2 * operand]} from row to row and {@code
   *     strides[2 * operand + 1]} within a row
   * @param floatScalars values of the {@code @Scalar} parameters for floating bodies, in order
   * @param intScalars values of the {@code @Scalar} parameters for integral and logical bodies
   */
  default void box(
      long rows,
      long cols,
      MemorySegment[] segments,
      long[] offsets,
      long[] strides,
      double[] floatScalars,
      long[] intScalars) {
    run(2, new long[] {rows, cols}, segments, offsets, strides, floatScalars, intScalars);
  }

  /**
   * Runs the loop nest of any rank: {@code Loops.run} calls {@link #box} for the two innermost
   * dimensions (a rank-1 loop is one row) at every index of the dimensions above them.
   *
   * @param rank number of loop dimensions, at least 1
   * @param shape loop sizes, outermost first; only the first {@code rank} entries are read
   * @param segments storage of each operand, output first
   * @param offsets element offset of each operand's first element
   * @param strides element strides, {@code strides[operand * rank + dim]}
   * @param floatScalars values of the {@code @Scalar} parameters for floating bodies, in order
   * @param intScalars values of the {@code @Scalar} parameters for integral and logical bodies
   */
  default void run(
      int rank,
      long[] shape,
      MemorySegment[] segments,
      long[] offsets,
      long[] strides,
      double[] floatScalars,
      long[] intScalars) {
    Loops.run(this::box, rank, shape, segments, offsets, strides, floatScalars, intScalars);
  }
}
