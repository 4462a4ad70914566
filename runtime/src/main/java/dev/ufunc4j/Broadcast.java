package dev.ufunc4j;

import java.util.Arrays;

/**
 * Broadcasting rules, PyTorch's (and NumPy's): shapes are aligned at their last dimension; in
 * each dimension the sizes must be equal or one of them 1 (a missing leading dimension counts as
 * 1), and the result takes the size that is not 1. A size of 0 broadcasts with 1 only. See
 * docs/broadcasting.md.
 *
 * <p>Still to come with the runtime's {@code Tensor}: {@code inDim(tensor, outShape, dims...)},
 * XLA's explicit broadcasting (DESIGN.md, "Broadcasting").
 */
public final class Broadcast {
  private Broadcast() {}

  /**
   * The shape that all of {@code shapes} broadcast to; {@code []} for no shapes. The arguments are
   * not modified and the result is a new array.
   *
   * <p>Operands are combined from left to right, as PyTorch's TensorIterator does, so an error
   * names "tensor a" (the broadcast of the operands before) and "tensor b" (the operand that does
   * not fit), and the dimension is counted in the result shape: {@code shapes([2, 5], [4])} throws
   * {@code The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension
   * 1}. With three or more operands the message goes on to say which operand and shapes.
   *
   * @throws BroadcastException when the shapes are incompatible
   * @throws IllegalArgumentException when the array or a shape is null or a size is negative
   */
  public static long[] shapes(long[]... shapes) {
    if (shapes == null) {
      throw new IllegalArgumentException("Broadcast.shapes: the array of shapes is null");
    }
    for (int i = 0; i < shapes.length; i++) {
      requireValidShape(shapes[i], i);
    }
    long[] result = shapes.length == 0 ? new long[0] : shapes[0].clone();
    for (int i = 1; i < shapes.length; i++) {
      result = pair(result, shapes[i], i, shapes.length);
    }
    return result;
  }

  // c10's infer_size_impl: walk from the last dimension, so the rightmost mismatch is reported.
  private static long[] pair(long[] a, long[] b, int operand, int operands) {
    int ndim = Math.max(a.length, b.length);
    long[] out = new long[ndim];
    for (int i = ndim - 1; i >= 0; i--) {
      int offset = ndim - 1 - i;
      int dimA = a.length - 1 - offset;
      int dimB = b.length - 1 - offset;
      long sizeA = dimA >= 0 ? a[dimA] : 1;
      long sizeB = dimB >= 0 ? b[dimB] : 1;
      if (sizeA != sizeB && sizeA != 1 && sizeB != 1) {
        String torch =
            "The size of tensor a ("
                + sizeA
                + ") must match the size of tensor b ("
                + sizeB
                + ") at non-singleton dimension "
                + i;
        throw new BroadcastException(
            operands == 2
                ? torch
                : torch
                    + " (tensor b is operand "
                    + operand
                    + " of "
                    + operands
                    + ", shape "
                    + Arrays.toString(b)
                    + "; tensor a is operands 0.."
                    + (operand - 1)
                    + " broadcast to "
                    + Arrays.toString(a)
                    + ")");
      }
      out[i] = sizeA == 1 ? sizeB : sizeA;
    }
    return out;
  }

  private static void requireValidShape(long[] shape, int operand) {
    if (shape == null) {
      throw new IllegalArgumentException(
          "Broadcast.shapes: shape of operand " + operand + " is null");
    }
    for (int d = 0; d < shape.length; d++) {
      if (shape[d] < 0) {
        throw new IllegalArgumentException(
            "Broadcast.shapes: operand "
                + operand
                + " has negative size "
                + shape[d]
                + " at dimension "
                + d
                + " (shape "
                + Arrays.toString(shape)
                + ")");
      }
    }
  }
}
