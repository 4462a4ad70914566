package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.shape.MemoryOverlap;

/**
 * The factories and accessors PyTorch users reach for first: the {@code *Like} family, {@code
 * eye}, {@code item}, {@code fill}. Tensor's public methods delegate here ({@code docs/ops.md}).
 */
final class Factories {
  private Factories() {}

  /** The dtype PyTorch gives a factory call without one: {@code torch.get_default_dtype()}. */
  static final DType DEFAULT_DTYPE = DType.FLOAT32;

  static Tensor like(Tensor x, DType dtype, double value) {
    requireTensor(x, "like");
    return Tensor.full(dtype == null ? x.dtype() : dtype, value, x.shapeRef());
  }

  static Tensor randLike(Tensor x, DType dtype) {
    requireTensor(x, "randLike");
    return Tensor.rand(DefaultGenerator.nextSeed(), dtype == null ? x.dtype() : dtype,
        x.shapeRef());
  }

  /** PyTorch's {@code torch.eye(n, m)}: ones on the main diagonal. */
  static Tensor eye(long n, long m, DType dtype) {
    if (n < 0) {
      throw new IllegalArgumentException("n must be greater or equal to 0, got " + n);
    }
    if (m < 0) {
      throw new IllegalArgumentException("m must be greater or equal to 0, got " + m);
    }
    Tensor t = Tensor.zeros(dtype, n, m);
    long diagonal = Math.min(n, m);
    if (diagonal > 0) {
      // the diagonal of a contiguous [n, m] is one strided view: stride m + 1
      Tensor d = t.asStrided(new long[] {diagonal}, new long[] {m + 1}, 0);
      Copies.copyInto(Tensor.full(dtype, 1L, 1).expand(diagonal), d);
    }
    return t;
  }

  /** The one element of a zero-dim or one-element tensor (PyTorch's {@code item()}). */
  static long[] itemIndex(Tensor x) {
    if (x.numel() != 1) {
      throw new IllegalArgumentException(
          "a Tensor with " + x.numel() + " elements cannot be converted to Scalar");
    }
    return new long[x.ndim()];
  }

  /** PyTorch's {@code fill_}: every element of {@code x} (a view writes through). */
  static Tensor fill(Tensor x, Tensor value) {
    if (value.ndim() != 0) {
      throw new IllegalArgumentException(
          "fill_ only supports 0-dimension value tensor but got tensor with " + value.ndim()
              + " dimensions.");
    }
    // no canCast check: PyTorch's fill_ converts any number to the tensor's dtype (1.5 -> 1)
    if (MemoryOverlap.hasInternalOverlap(x.strided())) {
      throw new IllegalArgumentException(
          "unsupported operation: more than one element of the written-to tensor refers to a"
              + " single memory location. Please clone() the tensor before performing the"
              + " operation.");
    }
    GradGraph.beforeWrite(x, "fill");
    if (x.numel() > 0) {
      Copies.copyInto(value.expand(x.shapeRef()), x);
    }
    return x;
  }

  private static void requireTensor(Tensor x, String method) {
    if (x == null) {
      throw new IllegalArgumentException(method + ": the tensor must not be null");
    }
  }
}
