package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Elementwise;
import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.annotation.Scalar;

/** Binary combinations of two tensors: scaled sums, interpolation, Euclidean norm. */
public final class Blends {

  private Blends() {}

  /**
   * BLAS's {@code axpby}: {@code alpha a + beta b}. Integral tensors with integral scalars stay
   * integral (wrapping as Java {@code long} arithmetic narrowed to the dtype); a floating scalar
   * makes them float32, as {@code int_tensor * 0.5} does in PyTorch.
   */
  @Elementwise
  public static double axpby(double a, double b, @Scalar double alpha, @Scalar double beta) {
    return alpha * a + beta * b;
  }

  @Elementwise
  public static long axpby(long a, long b, @Scalar long alpha, @Scalar long beta) {
    return alpha * a + beta * b;
  }

  /**
   * Linear interpolation, {@code torch.lerp(start, end, weight)}, with PyTorch's formula: for
   * {@code |weight| < 0.5} it starts from {@code start}, else from {@code end}, so that weight 1
   * gives {@code end} exactly, each side one fused multiply-add, as PyTorch's vectorised float32
   * and float64 kernel ({@code lerp_vec}) computes it. (Torch's float16/bfloat16 path uses {@code
   * end - (end - start) (1 - weight)} instead: same values, but {@code +0.0} where this gives
   * {@code -0.0}, at weight 1 with {@code end == -0.0}.)
   * {@code torch.lerp} refuses integral tensors; here they compute in float32.
   */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  public static double lerp(double start, double end, @Scalar double weight) {
    final double diff = end - start;
    return Math.abs(weight) < 0.5
        ? Math.fma(weight, diff, start)
        : Math.fma(weight - 1, diff, end);
  }

  /** {@code sqrt(a^2 + b^2)} without intermediate overflow, {@code torch.hypot}. */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  public static double hypot(double a, double b) {
    return Math.hypot(a, b);
  }
}
