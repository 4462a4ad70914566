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
}
