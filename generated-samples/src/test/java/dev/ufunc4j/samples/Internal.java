package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Elementwise;
import dev.ufunc4j.annotation.Scalar;

/** Package-private ops: their facade {@code InternalOps} is package-private too. */
final class Internal {

  private Internal() {}

  /** A tensor parameter named {@code out}: the facade's target becomes {@code out_}. */
  @Elementwise
  static double scale(double out, @Scalar double factor) {
    return out * factor;
  }

  /** A nested declaring class: its facade is {@code Internal_NestedOps}. */
  static final class Nested {

    private Nested() {}

    @Elementwise
    static boolean flip(boolean x, @Scalar boolean invert) {
      return x ^ invert;
    }
  }
}
