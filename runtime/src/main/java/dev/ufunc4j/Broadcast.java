package dev.ufunc4j;

import java.util.Arrays;

/**
 * Broadcasting rules. {@link #shapes} is PyTorch's (and NumPy's) implicit rule: shapes are aligned
 * at their last dimension; in each dimension the sizes must be equal or one of them 1 (a missing
 * leading dimension counts as 1), and the result takes the size that is not 1. A size of 0
 * broadcasts with 1 only. {@link #inDim} is XLA's explicit rule ({@code BroadcastInDim}, JAX's
 * {@code lax.broadcast_in_dim}): the caller says which output dimension each operand dimension
 * becomes. See docs/broadcasting.md.
 */
public final class Broadcast {
  private Broadcast() {}

  /**
   * {@return the shape that all of {@code shapes} broadcast to; {@code []} for no shapes} The
   * arguments are not modified and the result is a new array.
   *
   * <p>Operands are combined from left to right, as PyTorch's TensorIterator does, so an error
   * names "tensor a" (the broadcast of the operands before) and "tensor b" (the operand that does
   * not fit), and the dimension is counted in the result shape: {@code shapes([2, 5], [4])} throws
   * {@code The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension
   * 1}. With three or more operands the message goes on to say which operand and shapes.
   *
   * @param shapes the shapes
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

  /**
   * {@code t} broadcast to {@code outShape}, its dimension {@code i} becoming output dimension
   * {@code dims[i]}: XLA's {@code BroadcastInDim}, JAX's {@code lax.broadcast_in_dim(t, outShape,
   * dims)}. A view: no data is copied, and the new dimensions and the stretched size-1 dimensions
   * have stride 0. {@code inDim(v, [3, 2], 1)} with {@code v = [a, b]} gives {@code [[a, b], [a,
   * b], [a, b]]}; with {@code dims = 0} and {@code v} of shape {@code [3]} it gives the columns.
   *
   * <p>{@code dims} has one entry per dimension of {@code t}, each in {@code [0, outShape.length)},
   * strictly increasing (XLA's rule; JAX also accepts a permutation, ufunc4j does not), and {@code
   * t}'s size in dimension i is 1 or {@code outShape[dims[i]]}.
   *
   * @param t the tensor
   * @param outShape the shape to broadcast to
   * @param dims the dimensions (negative counts from the end)
   * @return the view
   * @throws BroadcastException when a size of {@code t} is neither 1 nor the output size it maps to
   * @throws IllegalArgumentException when an argument is null, a size is negative, the output rank
   *     is lower than {@code t}'s, or {@code dims} does not have the form above
   */
  public static Tensor inDim(Tensor t, long[] outShape, int... dims) {
    if (t == null) {
      throw new IllegalArgumentException("Broadcast.inDim: the tensor is null");
    }
    if (outShape == null) {
      throw new IllegalArgumentException("Broadcast.inDim: the output shape is null");
    }
    for (int d = 0; d < outShape.length; d++) {
      if (outShape[d] < 0) {
        throw new IllegalArgumentException(
            "Broadcast.inDim: the output shape " + Arrays.toString(outShape)
                + " has negative size " + outShape[d] + " at dimension " + d);
      }
    }
    long[] shape = t.shape();
    if (outShape.length < shape.length) {
      throw new IllegalArgumentException(
          "Broadcast.inDim: the output shape " + Arrays.toString(outShape) + " has rank "
              + outShape.length + ", lower than the rank " + shape.length + " of the operand "
              + Arrays.toString(shape));
    }
    requireDims("Broadcast.inDim", dims, shape, "operand", outShape, "output");
    for (int i = 0; i < shape.length; i++) {
      long want = outShape[dims[i]];
      if (shape[i] != want && shape[i] != 1) {
        throw new BroadcastException(
            "Broadcast.inDim: operand dimension " + i + " has size " + shape[i]
                + ", which is neither 1 nor the size " + want + " of output dimension " + dims[i]
                + " (dims[" + i + "]); operand shape " + Arrays.toString(shape)
                + ", output shape " + Arrays.toString(outShape) + ", dims "
                + Arrays.toString(dims));
      }
    }
    long[] strides = new long[outShape.length]; // 0 on the new dimensions
    long[] from = t.strides();
    for (int i = 0; i < shape.length; i++) {
      strides[dims[i]] = shape[i] == outShape[dims[i]] ? from[i] : 0;
    }
    return t.asStrided(outShape, strides, t.offset());
  }

  /**
   * The operands of a binary op with XLA's {@code broadcast_dimensions}, made ready for the
   * ordinary (degenerate-dimension) broadcasting of {@link #shapes}: XLA's {@code
   * InferElementwiseBinaryOpShape} and {@code XlaBuilder::BinaryOp}. With equal ranks the
   * dimensions must be none or the identity and the operands are returned as they are. Otherwise
   * the lower-rank operand, {@code a} or {@code b}, is lifted to the higher rank with {@link
   * #inDim}: its dimension i goes to {@code dims[i]}, where its size must be 1 or the higher-rank
   * operand's size there; the other dimensions take the higher-rank operand's sizes (stride 0).
   * A zero-dim operand needs no dimensions. Nulls are left for the op to name.
   */
  static Tensor[] inDimOperands(String op, Tensor a, Tensor b, BroadcastDims broadcastDims) {
    if (broadcastDims == null) {
      throw new IllegalArgumentException(op + ": the broadcast dimensions are null");
    }
    if (a == null || b == null) {
      return new Tensor[] {a, b};
    }
    int[] dims = broadcastDims.dims();
    long[] shapeA = a.shape();
    long[] shapeB = b.shape();
    if (shapeA.length == shapeB.length) {
      for (int i = 0; i < dims.length; i++) {
        if (dims.length != shapeA.length || dims[i] != i) {
          throw new IllegalArgumentException(
              op + ": broadcast dimensions " + Arrays.toString(dims) + " given for operands of"
                  + " equal rank " + shapeA.length + " (shapes " + Arrays.toString(shapeA)
                  + " and " + Arrays.toString(shapeB) + "); with equal ranks they must be none"
                  + " or the identity");
        }
      }
      return new Tensor[] {a, b};
    }
    boolean liftA = shapeA.length < shapeB.length;
    long[] low = liftA ? shapeA : shapeB;
    long[] high = liftA ? shapeB : shapeA;
    String lowName = "operand " + (liftA ? "a" : "b");
    String highName = "operand " + (liftA ? "b" : "a");
    requireDims(op, dims, low, "lower-rank " + lowName, high, "higher-rank " + highName);
    long[] lifted = high.clone();
    for (int i = 0; i < low.length; i++) {
      long want = high[dims[i]];
      if (low[i] != want && low[i] != 1 && want != 1) {
        throw new BroadcastException(
            op + ": broadcast dimension " + i + " mismatch: " + lowName + " has size " + low[i]
                + " in dimension " + i + ", " + highName + " has size " + want + " in dimension "
                + dims[i] + " (dims[" + i + "]); shapes " + Arrays.toString(shapeA) + " and "
                + Arrays.toString(shapeB) + ", dims " + Arrays.toString(dims));
      }
      lifted[dims[i]] = low[i];
    }
    Tensor up = inDim(liftA ? a : b, lifted, dims);
    return liftA ? new Tensor[] {up, b} : new Tensor[] {a, up};
  }

  /** One dimension per operand dimension, each below the target rank, strictly increasing. */
  private static void requireDims(
      String who, int[] dims, long[] from, String fromName, long[] to, String toName) {
    BroadcastDims.requireIncreasing(who, dims);
    if (dims.length != from.length) {
      throw new IllegalArgumentException(
          who + ": " + dims.length + " broadcast dimensions " + Arrays.toString(dims) + " for "
              + fromName + " of rank " + from.length + " (shape " + Arrays.toString(from)
              + "); there must be one per dimension");
    }
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] >= to.length) {
        throw new IllegalArgumentException(
            who + ": broadcast dimension " + dims[i] + " (dims[" + i + "]) is out of range for "
                + toName + " of rank " + to.length + " (shape " + Arrays.toString(to)
                + "); dims " + Arrays.toString(dims));
      }
    }
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
