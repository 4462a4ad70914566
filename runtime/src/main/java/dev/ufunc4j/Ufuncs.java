package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.Shapes;
import java.util.Arrays;

/** Tensor's conveniences built on the ufunc methods that take more than one call (docs/ufuncs.md). */
final class Ufuncs {
  private Ufuncs() {}

  /**
   * PyTorch's {@code logsumexp}: {@code m = amax(x)}, with an infinite {@code m} replaced by 0 (so
   * that {@code -inf} rows give {@code -inf} and {@code +inf} rows {@code +inf}, not NaN), then
   * {@code log(sum(exp(x - m))) + m}. Bool and integral inputs compute in float32, as PyTorch's.
   */
  static Tensor logsumexp(Tensor x, int[] dims, boolean keepDim) {
    if (x == null) {
      throw new IllegalArgumentException("logsumexp(): the input tensor must not be null");
    }
    Tensor in = x.dtype().isIntegral(true) ? x.to(DType.FLOAT32) : x;
    Tensor max = in.amax(dims, true);
    Tensor shift = Ops.where(Ops.eq(Ops.abs(max), Double.POSITIVE_INFINITY), 0.0, max);
    Tensor sum = Ops.exp(Ops.sub(in, shift)).sum(dims, true);
    Tensor result = Ops.add(Ops.log(sum), shift);
    if (keepDim) {
      return result;
    }
    // The reduced dims, size 1 now, are dropped (amax has checked and wrapped them).
    boolean[] reduced = new boolean[x.ndim()];
    Arrays.fill(reduced, dims == null || dims.length == 0);
    if (dims != null) {
      for (int dim : dims) {
        reduced[Shapes.wrapDim(dim, x.ndim())] = x.ndim() > 0;
      }
    }
    long[] shape = new long[x.ndim()];
    int n = 0;
    for (int d = 0; d < x.ndim(); d++) {
      if (!reduced[d]) {
        shape[n++] = x.size(d);
      }
    }
    return result.reshape(Arrays.copyOf(shape, n));
  }
}
