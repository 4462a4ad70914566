package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Elementwise;

/**
 * The JDK's elementwise functions beyond {@code Math}'s lanewise ones, one op each: the processor
 * writes each out in the body language as the JDK computes it (processor {@code JdkFunctions}),
 * so the kernels give Java's bits. {@code KernelConformanceTest} checks every kernel against these
 * scalar methods on edge values (NaN, ±0, ±inf, subnormals, integer MIN and MAX) and random ones.
 * The binary integer ops are generated for a few integer dtypes only, to keep the build small.
 */
public final class JdkMath {

  private JdkMath() {}

  /** {@code Math.round}: half up, saturated to the long range, 0 for NaN. */
  @Elementwise
  public static double round(double x) {
    return Math.round(x);
  }

  /** {@code Math.clamp} to [-1, 1]. */
  @Elementwise
  public static double clampUnit(double x) {
    return Math.clamp(x, -1.0, 1.0);
  }

  /**
   * {@code Math.clamp(long, int, int)}: to the int8 range. On uint64 the bounds compare unsigned,
   * as {@code Math.min/max} do there (docs/processor.md): -128 reads as 2^64 - 128, so every
   * result is 127, as for {@link Saturating#addInt8}.
   */
  @Elementwise
  public static long clampInt8(long x) {
    return Math.clamp(x, -128, 127);
  }

  @Elementwise
  public static boolean isNaN(double x) {
    return Double.isNaN(x);
  }

  @Elementwise
  public static boolean isInfinite(double x) {
    return Double.isInfinite(x);
  }

  @Elementwise
  public static boolean isFinite(double x) {
    return Double.isFinite(x);
  }

  @Elementwise(dtypes = {"int8", "int32", "int64", "uint8"})
  public static long floorDiv(long a, long b) {
    return Math.floorDiv(a, b);
  }

  @Elementwise(dtypes = {"int8", "int32", "int64", "uint8"})
  public static long floorMod(long a, long b) {
    return Math.floorMod(a, b);
  }

  @Elementwise
  public static long bitCount(long x) {
    return Long.bitCount(x);
  }

  @Elementwise
  public static long leadingZeros(long x) {
    return Long.numberOfLeadingZeros(x);
  }

  @Elementwise
  public static long trailingZeros(long x) {
    return Long.numberOfTrailingZeros(x);
  }

  @Elementwise
  public static long rotateLeft13(long x) {
    return Long.rotateLeft(x, 13);
  }

  @Elementwise
  public static long rotateRight70(long x) {
    return Long.rotateRight(x, 70);
  }

  @Elementwise
  public static long reverse(long x) {
    return Long.reverse(x);
  }

  @Elementwise(dtypes = {"int8", "int32", "int64", "uint8"})
  public static long divideUnsigned(long a, long b) {
    return Long.divideUnsigned(a, b);
  }

  @Elementwise(dtypes = {"int8", "int32", "int64", "uint8"})
  public static long remainderUnsigned(long a, long b) {
    return Long.remainderUnsigned(a, b);
  }

  // ---- The functions of a float's bits: in a float32 kernel each is the float overload
  // (Math.nextUp(float), float's ulp), since a float32 kernel computes in float32. Generated for
  // the floating dtypes it is checked in (FloatBitsKernelTest, KernelConformanceTest).

  @Elementwise(dtypes = {"float32", "float64"})
  public static double nextUp(double x) {
    return Math.nextUp(x);
  }

  @Elementwise(dtypes = {"float32", "float64"})
  public static double nextDown(double x) {
    return Math.nextDown(x);
  }

  @Elementwise(dtypes = {"float32", "float64"})
  public static double nextAfter(double start, double direction) {
    return Math.nextAfter(start, direction);
  }

  @Elementwise(dtypes = {"float32", "float64"})
  public static double ulp(double x) {
    return Math.ulp(x);
  }

  /** {@code Math.getExponent}'s int, as the double body's value (exact). */
  @Elementwise(dtypes = {"float32", "float64"})
  public static double getExponent(double x) {
    return Math.getExponent(x);
  }

  /** {@code Math.scalb} by constants: one exact power of two, and the stepped scales. */
  @Elementwise(dtypes = {"float32", "float64"})
  public static double scalb3(double x) {
    return Math.scalb(x, 3);
  }

  @Elementwise(dtypes = {"float32", "float64"})
  public static double scalbDown140(double x) {
    return Math.scalb(x, -140);
  }

  @Elementwise(dtypes = {"float32", "float64"})
  public static double scalbUp200(double x) {
    return Math.scalb(x, 200);
  }

  @Elementwise(dtypes = {"float32", "float64"})
  public static double scalbDown1080(double x) {
    return Math.scalb(x, -1080);
  }

  @Elementwise(dtypes = {"float32", "float64"})
  public static double scalbUp2000(double x) {
    return Math.scalb(x, 2000);
  }

  @Elementwise(dtypes = {"float32", "float64"})
  public static double scalbMinInt(double x) {
    return Math.scalb(x, Integer.MIN_VALUE);
  }
}
