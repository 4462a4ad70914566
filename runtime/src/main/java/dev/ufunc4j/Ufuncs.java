package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.shape.Shapes;
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
    Tensor kept;
    try (var _ = Autograd.noGrad()) {
      Tensor in = x.dtype().isIntegral(true) ? x.to(DType.FLOAT32) : x;
      Tensor max = in.amax(dims, true);
      Tensor shift = Ops.where(Ops.eq(Ops.abs(max), Double.POSITIVE_INFINITY), 0.0, max);
      Tensor sum = Ops.exp(Ops.sub(in, shift)).sum(dims, true);
      kept = Ops.add(Ops.log(sum), shift);
    }
    // Not a view of kept: a write into the result must not rewrite kept's (empty) history.
    Tensor result = keepDim ? kept : dropped(x, dims, kept).copy();
    // PyTorch's logsumexp_backward: grad * exp(x - result), one node (the shift cancels).
    return CompositeNode.record(x, result, "logsumexp",
        g -> g.reshape(kept.shape()).mul(Ops.exp(Ops.sub(x, kept))));
  }

  /** {@code kept} with the reduced dims, size 1 now, dropped (amax has checked and wrapped them). */
  private static Tensor dropped(Tensor x, int[] dims, Tensor kept) {
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
    return kept.reshape(Arrays.copyOf(shape, n));
  }
}
