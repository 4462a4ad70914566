package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.TensorInternals;

/**
 * Tensor's and Broadcast's package-private members for the runtime's other packages (installed by
 * {@link Tensor}'s static initialiser; see {@link TensorInternals}).
 */
final class InternalAccess extends TensorInternals {
  @Override
  public long[] shapeRef(Tensor t) {
    return t.shapeRef();
  }

  @Override
  public long[] stridesRef(Tensor t) {
    return t.stridesRef();
  }

  @Override
  public Tensor emptyStrided(DType dtype, long[] shape, long[] strides) {
    return Tensor.emptyStrided(dtype, shape, strides);
  }

  @Override
  public Tensor emptyUninitialized(DType dtype, long[] shape) {
    return Tensor.emptyUninitialized(dtype, shape);
  }

  @Override
  public Tensor wrap(long value) {
    return Tensor.wrap(value);
  }

  @Override
  public Tensor wrap(double value) {
    return Tensor.wrap(value);
  }

  @Override
  public Tensor[] liftWithDims(String op, Tensor a, Tensor b, BroadcastDims dims) {
    return Broadcast.inDimOperands(op, a, b, dims);
  }
}
