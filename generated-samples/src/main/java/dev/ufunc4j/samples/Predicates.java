package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Elementwise;
import dev.ufunc4j.annotation.Scalar;

/** Predicates: a {@code boolean} return type gives a BOOL tensor whatever the operands. */
public final class Predicates {

  private Predicates() {}

  /**
   * {@code torch.isclose(a, b, rtol, atol, equal_nan)}: {@code a == b}, or both NaN when {@code
   * equalNan}, or {@code |a - b|} finite and {@code <= atol + rtol |b|}. So equal infinities are
   * close and an infinity is close to nothing else. PyTorch's defaults: rtol 1e-05, atol 1e-08,
   * equal_nan false.
   *
   * <p>Differences from PyTorch: operands of different dtypes promote (torch refuses them);
   * the tolerances are wrapped doubles, so integral operands compare in float32 (exact up to
   * 2^24; torch subtracts them in their own dtype, with wraparound); float16/bfloat16 compute in
   * float32 and round nothing in between, where torch rounds {@code rtol |b|}, the sum and the
   * difference to the 16-bit type.
   */
  @Elementwise
  public static boolean isclose(
      double a, double b, @Scalar double rtol, @Scalar double atol, @Scalar boolean equalNan) {
    final double error = Math.abs(a - b);
    return a == b
        || equalNan && a != a && b != b
        || error - error == 0 && error <= atol + rtol * Math.abs(b);
  }
}
