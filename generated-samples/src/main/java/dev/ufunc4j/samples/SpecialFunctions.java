package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Elementwise;
import dev.ufunc4j.math.SpecialMath;

/**
 * Every {@link SpecialMath} function a body may call, one op each (issue 26 item 3; trigamma, whose
 * gradient is NaN, only through digamma's gradient): the kernels
 * give the methods' bits, in float64 exactly and in float32 as {@code (float)} of the double
 * result. {@code SpecialMathKernelTest} checks that bit for bit on random and edge inputs;
 * {@code KernelConformanceTest} checks every dtype.
 */
public final class SpecialFunctions {

  private SpecialFunctions() {}

  @Elementwise
  public static double erf(double x) {
    return SpecialMath.erf(x);
  }

  @Elementwise
  public static double erfc(double x) {
    return SpecialMath.erfc(x);
  }

  @Elementwise
  public static double lgamma(double x) {
    return SpecialMath.lgamma(x);
  }

  @Elementwise
  public static double digamma(double x) {
    return SpecialMath.digamma(x);
  }

  @Elementwise
  public static double expit(double x) {
    return SpecialMath.expit(x);
  }

  @Elementwise
  public static double logit(double x) {
    return SpecialMath.logit(x);
  }

  @Elementwise
  public static double xlogy(double x, double y) {
    return SpecialMath.xlogy(x, y);
  }

  @Elementwise
  public static double sinc(double x) {
    return SpecialMath.sinc(x);
  }

  /** The integer power, in every integral dtype (the kernel's loop narrows to the dtype). */
  @Elementwise
  public static long ipow(long a, long b) {
    return SpecialMath.ipow(a, b);
  }
}
