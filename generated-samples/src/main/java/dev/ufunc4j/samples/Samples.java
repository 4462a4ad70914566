package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Elementwise;
import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.annotation.Scalar;

/**
 * Sample ops a user might declare. Each method is also the scalar reference its generated kernels
 * are tested against, for every dtype combination.
 */
public final class Samples {

  private Samples() {}

  /** SiLU; integral inputs compute in float32. */
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

  /** A predicate: BOOL output whatever the operands. */
  @Elementwise
  public static boolean less(double a, double b) {
    return a < b;
  }

  @Elementwise
  public static boolean less(long a, long b) {
    return a < b;
  }

  /** A wrapped scalar, like {@code alpha} in {@code torch.add(a, b, alpha=2)}. */
  @Elementwise
  public static double axpy(double a, double b, @Scalar double alpha) {
    return a + alpha * b;
  }

  @Elementwise
  public static long axpy(long a, long b, @Scalar long alpha) {
    return a + alpha * b;
  }

  @Elementwise
  public static double relu(double x) {
    return x > 0 ? x : 0;
  }

  @Elementwise
  public static long relu(long x) {
    return x > 0 ? x : 0;
  }

  /** A BOOL condition operand that does not join promotion. */
  @Elementwise
  public static double where(boolean condition, double a, double b) {
    return condition ? a : b;
  }

  @Elementwise
  public static long where(boolean condition, long a, long b) {
    return condition ? a : b;
  }

  /** Java division: truncating for integers, throwing on a zero divisor. */
  @Elementwise
  public static double div(double a, double b) {
    return a / b;
  }

  @Elementwise
  public static long div(long a, long b) {
    return a / b;
  }

  /** The division is only evaluated where the divisor is nonzero, as in Java. */
  @Elementwise
  public static long safeRem(long a, long b) {
    return b == 0 ? -1 : a % b;
  }

  /** Shifts and bitwise operators on one operand: narrow lanes suffice. */
  @Elementwise
  public static long mix(long x) {
    final long shifted = (x << 3) ^ (x >> 1);
    return shifted | ~x & 0x55;
  }

  /** A right shift of a sum and an unsigned shift: computed in long lanes. */
  @Elementwise
  public static long shifts(long a, long b) {
    return ((a + b) >> 2) - (a >>> 60) + (b << 62) + Math.min(a * b, 100L) + Math.abs(a - b);
  }

  @Elementwise
  public static boolean logicalXor(boolean a, boolean b) {
    return a ^ b;
  }

  /** Three tensor operands: fused kernels where all share one dtype. */
  @Elementwise
  public static double clamp(double x, double lo, double hi) {
    return Math.min(Math.max(x, lo), hi);
  }

  @Elementwise
  public static long clamp(long x, long lo, long hi) {
    return Math.min(Math.max(x, lo), hi);
  }

  @Elementwise
  public static double floor(double x) {
    return Math.floor(x);
  }

  @Elementwise
  public static double ceil(double x) {
    return Math.ceil(x);
  }

  @Elementwise
  public static double rint(double x) {
    return Math.rint(x);
  }

  @Elementwise
  public static double signs(double x) {
    return Math.signum(x) + Math.copySign(2.0, x) * 4;
  }

  // Bodies made only of + - * /, unary -, == and != are also lifted to complex arithmetic.

  @Elementwise
  public static double mul(double a, double b) {
    return a * b;
  }

  @Elementwise
  public static double neg(double x) {
    return -x;
  }

  /** A mixed expression with a local and a literal: complex kernels compute (2 + 0i) as a complex. */
  @Elementwise
  public static double diffOfSquares(double a, double b) {
    final var sum = a + b;
    return (a - b) * sum / 2;
  }

  /** Complex operands are equal when both components are (never with a NaN component). */
  @Elementwise
  public static boolean equal(double a, double b) {
    return a == b;
  }

  @Elementwise
  public static boolean notEqual(double a, double b) {
    return a != b;
  }

  /** Transcendental functions: not correctly rounded lanewise, so checked within ulps. */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  public static double wave(double x) {
    final var y = Math.sin(x) * Math.cos(x) + Math.tanh(x);
    return y + Math.sqrt(Math.abs(x)) + Math.cbrt(x) + Math.pow(Math.abs(x), 0.5)
        + Math.hypot(x, 3.0) + Math.atan2(x, 2.0) + Math.log1p(Math.abs(x));
  }

  /**
   * The first of -10, -9.5, ..., 9.5 that is greater than x (x itself from 9.5 on, and NaN): 40
   * nested {@code ?:}, a body deeper than the 16 levels the processor puts in one generated
   * statement (docs/processor.md, "Robustness"), so its kernels carry their value through locals.
   */
  @Elementwise
  public static double halfStep(double x) {
    return x < -10.0 ? -10.0
        : x < -9.5 ? -9.5
        : x < -9.0 ? -9.0
        : x < -8.5 ? -8.5
        : x < -8.0 ? -8.0
        : x < -7.5 ? -7.5
        : x < -7.0 ? -7.0
        : x < -6.5 ? -6.5
        : x < -6.0 ? -6.0
        : x < -5.5 ? -5.5
        : x < -5.0 ? -5.0
        : x < -4.5 ? -4.5
        : x < -4.0 ? -4.0
        : x < -3.5 ? -3.5
        : x < -3.0 ? -3.0
        : x < -2.5 ? -2.5
        : x < -2.0 ? -2.0
        : x < -1.5 ? -1.5
        : x < -1.0 ? -1.0
        : x < -0.5 ? -0.5
        : x < 0.0 ? 0.0
        : x < 0.5 ? 0.5
        : x < 1.0 ? 1.0
        : x < 1.5 ? 1.5
        : x < 2.0 ? 2.0
        : x < 2.5 ? 2.5
        : x < 3.0 ? 3.0
        : x < 3.5 ? 3.5
        : x < 4.0 ? 4.0
        : x < 4.5 ? 4.5
        : x < 5.0 ? 5.0
        : x < 5.5 ? 5.5
        : x < 6.0 ? 6.0
        : x < 6.5 ? 6.5
        : x < 7.0 ? 7.0
        : x < 7.5 ? 7.5
        : x < 8.0 ? 8.0
        : x < 8.5 ? 8.5
        : x < 9.0 ? 9.0
        : x < 9.5 ? 9.5
        : x;
  }
}
