package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Elementwise;

/** An op generated for float32 only ({@code @Elementwise(dtypes)}), for {@link RestrictedTest}. */
final class Restricted {
  private Restricted() {}

  /** Twice {@code a} less {@code b}. */
  @Elementwise(dtypes = "float32")
  static double twiceLess(double a, double b) {
    return 2 * a - b;
  }
}
