package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Elementwise;
import dev.ufunc4j.annotation.Promote;

/** Sample ops a user might declare; each method is also the scalar reference of its kernels. */
public final class Samples {

  private Samples() {}

  /** SiLU: integral inputs compute in float32. */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  public static double silu(double x) {
    return x / (1 + Math.exp(-x));
  }

  @Elementwise
  public static double add(double a, double b) {
    return a + b;
  }

  @Elementwise
  public static long add(long a, long b) {
    return a + b;
  }
}
