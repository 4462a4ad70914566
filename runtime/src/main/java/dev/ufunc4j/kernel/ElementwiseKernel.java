package dev.ufunc4j.kernel;

import java.lang.foreign.MemorySegment;

/**
 * One generated elementwise loop nest for one combination of operand dtypes. This is the contract
 * between the processor's generated code and the runtime's planner; users do not call it.
 *
 * <p>Operand 0 is the output; operands {@code 1..n} are the op's tensor parameters in declaration
 * order. Offsets and strides count elements of the operand's own dtype (a complex element is one
 * (re, im) pair). The planner has already broadcast (stride 0), reordered and coalesced the
 * dimensions and checked every bound: a kernel does no validation of its own.
 */
public interface ElementwiseKernel {

  /**
   * Runs the loop nest.
   *
   * @param rank number of loop dimensions, at least 1
   * @param shape loop sizes, outermost first; only the first {@code rank} entries are read
   * @param segments storage of each operand, output first
   * @param offsets element offset of each operand's first element
   * @param strides element strides, {@code strides[operand * rank + dim]}
   * @param floatScalars values of the {@code @Scalar} parameters for floating bodies, in order
   * @param intScalars values of the {@code @Scalar} parameters for integral and logical bodies
   */
  void run(
      int rank,
      long[] shape,
      MemorySegment[] segments,
      long[] offsets,
      long[] strides,
      double[] floatScalars,
      long[] intScalars);
}
