package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Elementwise;

/**
 * Every transcendental {@code java.lang.Math} function a body may call, one op each: the
 * processor writes each as exact vector arithmetic (docs/vector-math.md), so these ops are how the
 * tests reach every function in every floating dtype. {@code KernelConformanceTest} checks them
 * against these scalar methods, {@code ReproducibleBitsTest} checks that their bits do not change
 * with the JIT tier, and {@code tools/vmath/Accuracy.java} measures them against correctly rounded
 * values.
 *
 * <p>Floating operands only (the default {@link dev.ufunc4j.annotation.Promote#PROMOTE}: a
 * {@code double} body has no integral kernels); float16 and bfloat16 compute in float32.
 */
public final class MathFunctions {

  private MathFunctions() {}

  @Elementwise
  public static double exp(double x) {
    return Math.exp(x);
  }

  @Elementwise
  public static double expm1(double x) {
    return Math.expm1(x);
  }

  @Elementwise
  public static double log(double x) {
    return Math.log(x);
  }

  @Elementwise
  public static double log1p(double x) {
    return Math.log1p(x);
  }

  @Elementwise
  public static double log10(double x) {
    return Math.log10(x);
  }

  @Elementwise
  public static double sin(double x) {
    return Math.sin(x);
  }

  @Elementwise
  public static double cos(double x) {
    return Math.cos(x);
  }

  @Elementwise
  public static double tan(double x) {
    return Math.tan(x);
  }

  @Elementwise
  public static double asin(double x) {
    return Math.asin(x);
  }

  @Elementwise
  public static double acos(double x) {
    return Math.acos(x);
  }

  @Elementwise
  public static double atan(double x) {
    return Math.atan(x);
  }

  @Elementwise
  public static double sinh(double x) {
    return Math.sinh(x);
  }

  @Elementwise
  public static double cosh(double x) {
    return Math.cosh(x);
  }

  @Elementwise
  public static double tanh(double x) {
    return Math.tanh(x);
  }

  @Elementwise
  public static double cbrt(double x) {
    return Math.cbrt(x);
  }

  @Elementwise
  public static double pow(double x, double y) {
    return Math.pow(x, y);
  }

  @Elementwise
  public static double hypot(double x, double y) {
    return Math.hypot(x, y);
  }

  @Elementwise
  public static double atan2(double y, double x) {
    return Math.atan2(y, x);
  }
}
