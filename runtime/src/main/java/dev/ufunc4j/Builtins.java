package dev.ufunc4j;

import dev.ufunc4j.annotation.Elementwise;
import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.annotation.Scalar;

/**
 * The built-in op set, declared the way users declare theirs: the processor generates every
 * kernel from these scalar methods, which stay the reference the tests check kernels against.
 * Users call them through {@link Ops} and the {@link Tensor} instance methods, which add PyTorch's
 * argument rules (alpha's type, bool subtraction) around them.
 *
 * <p>{@code long} bodies give the integral and bool kernels with Java integer semantics at the
 * result's width (wraparound); {@code double} bodies the floating ones (float16/bfloat16 compute in
 * float32); bodies of only {@code + - * /} and comparisons are lifted to complex.
 */
final class Builtins {
  private Builtins() {}

  // ---- arithmetic -----------------------------------------------------------------------------

  @Elementwise
  static long add(long a, long b) {
    return a + b;
  }

  @Elementwise
  static double add(double a, double b) {
    return a + b;
  }

  /** {@code a + alpha * b}; alpha is passed in the category of the tensors' result (see Ops). */
  @Elementwise
  static long addScaled(long a, long b, @Scalar long alpha) {
    return a + alpha * b;
  }

  @Elementwise
  static double addScaled(double a, double b, @Scalar double alpha) {
    return Math.fma(alpha, b, a); // one rounding, as PyTorch's vectorised fmadd
  }

  @Elementwise
  static long sub(long a, long b) {
    return a - b;
  }

  @Elementwise
  static double sub(double a, double b) {
    return a - b;
  }

  @Elementwise
  static long subScaled(long a, long b, @Scalar long alpha) {
    return a - alpha * b;
  }

  @Elementwise
  static double subScaled(double a, double b, @Scalar double alpha) {
    return Math.fma(-alpha, b, a);
  }

  @Elementwise
  static long mul(long a, long b) {
    return a * b;
  }

  @Elementwise
  static double mul(double a, double b) {
    return a * b;
  }

  /** True division: integral and bool operands compute in float32, as in PyTorch. */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double div(double a, double b) {
    return a / b;
  }

  /** Python's floor division: rounds the quotient toward negative infinity. */
  @Elementwise
  static long floorDivide(long a, long b) {
    final long q = a / b;
    return (a % b != 0) && ((a ^ b) < 0) ? q - 1 : q;
  }

  /**
   * PyTorch's {@code div_floor_floating}, with {@code fmod} computed as below (exact while the
   * quotient {@code a / b} is exactly representable).
   */
  @Elementwise
  static double floorDivide(double a, double b) {
    final double quotient = a / b;
    final double truncated = quotient < 0 ? Math.ceil(quotient) : Math.floor(quotient);
    // C's fmod, exact while the quotient is: a - b * trunc(a / b) in one rounding (the exact
    // remainder is representable), moved back by |b| when a / b rounded up to the next integer.
    final double rough = Math.fma(-b, truncated, a);
    final double exact = (rough != 0) && ((rough < 0) ^ (a < 0)) ? rough + Math.copySign(b, a) : rough;
    // The sign of a; NaN for an infinite a or a zero b; a itself for an infinite b.
    final double mod =
        Math.abs(b) == Double.POSITIVE_INFINITY && Math.abs(a) != Double.POSITIVE_INFINITY
            ? a
            : Math.copySign(exact, a);
    final double div = (a - mod) / b;
    final double adjusted = (mod != 0) && ((b < 0) ^ (mod < 0)) ? div - 1 : div;
    final double floor = Math.floor(adjusted);
    return b == 0
        ? quotient
        : adjusted == 0
            ? Math.copySign(0.0, quotient)
            : (adjusted - floor > 0.5 ? floor + 1 : floor);
  }

  /** Python's modulo: the result takes the divisor's sign. */
  @Elementwise
  static long remainder(long a, long b) {
    final long r = a % b;
    return (r != 0) && ((r ^ b) < 0) ? r + b : r;
  }

  /** PyTorch's floating remainder: {@code fmod}, then moved into the divisor's sign. */
  @Elementwise
  static double remainder(double a, double b) {
    final double quotient = a / b;
    final double truncated = quotient < 0 ? Math.ceil(quotient) : Math.floor(quotient);
    // C's fmod, exact while the quotient is: a - b * trunc(a / b) in one rounding (the exact
    // remainder is representable), moved back by |b| when a / b rounded up to the next integer.
    final double rough = Math.fma(-b, truncated, a);
    final double exact = (rough != 0) && ((rough < 0) ^ (a < 0)) ? rough + Math.copySign(b, a) : rough;
    // The sign of a; NaN for an infinite a or a zero b; a itself for an infinite b.
    final double mod =
        Math.abs(b) == Double.POSITIVE_INFINITY && Math.abs(a) != Double.POSITIVE_INFINITY
            ? a
            : Math.copySign(exact, a);
    return (mod != 0) && ((b < 0) ^ (mod < 0)) ? mod + b : mod;
  }

  /** NaN-propagating maximum; of two equal values (-0.0 and 0.0) the first, as PyTorch. */
  @Elementwise
  static double maximum(double a, double b) {
    return a != a ? a : (b != b ? b : (a >= b ? a : b));
  }

  @Elementwise
  static long maximum(long a, long b) {
    return Math.max(a, b);
  }

  @Elementwise
  static double minimum(double a, double b) {
    return a != a ? a : (b != b ? b : (a <= b ? a : b));
  }

  @Elementwise
  static long minimum(long a, long b) {
    return Math.min(a, b);
  }

  /** C99's pow (as PyTorch): 1 for a zero exponent or a base of 1, even NaN, and for (-1)^±inf. */
  @Elementwise
  static double pow(double a, double b) {
    return a == 1 || b == 0 || (a == -1 && Math.abs(b) == Double.POSITIVE_INFINITY)
        ? 1.0
        : Math.pow(a, b);
  }

  // ---- comparisons ----------------------------------------------------------------------------

  @Elementwise
  static boolean eq(double a, double b) {
    return a == b;
  }

  @Elementwise
  static boolean eq(long a, long b) {
    return a == b;
  }

  @Elementwise
  static boolean ne(double a, double b) {
    return a != b;
  }

  @Elementwise
  static boolean ne(long a, long b) {
    return a != b;
  }

  @Elementwise
  static boolean lt(double a, double b) {
    return a < b;
  }

  @Elementwise
  static boolean lt(long a, long b) {
    return a < b;
  }

  @Elementwise
  static boolean le(double a, double b) {
    return a <= b;
  }

  @Elementwise
  static boolean le(long a, long b) {
    return a <= b;
  }

  @Elementwise
  static boolean gt(double a, double b) {
    return a > b;
  }

  @Elementwise
  static boolean gt(long a, long b) {
    return a > b;
  }

  @Elementwise
  static boolean ge(double a, double b) {
    return a >= b;
  }

  @Elementwise
  static boolean ge(long a, long b) {
    return a >= b;
  }

  // ---- logical (any dtype; nonzero is true) ---------------------------------------------------

  @Elementwise
  static boolean logicalAnd(double a, double b) {
    return a != 0 && b != 0;
  }

  @Elementwise
  static boolean logicalAnd(long a, long b) {
    return a != 0 && b != 0;
  }

  @Elementwise
  static boolean logicalOr(double a, double b) {
    return a != 0 || b != 0;
  }

  @Elementwise
  static boolean logicalOr(long a, long b) {
    return a != 0 || b != 0;
  }

  @Elementwise
  static boolean logicalXor(double a, double b) {
    return (a != 0) ^ (b != 0);
  }

  @Elementwise
  static boolean logicalXor(long a, long b) {
    return (a != 0) ^ (b != 0);
  }

  @Elementwise
  static boolean logicalNot(double x) {
    return x == 0;
  }

  @Elementwise
  static boolean logicalNot(long x) {
    return x == 0;
  }

  // ---- bitwise (integral and bool) ------------------------------------------------------------

  @Elementwise
  static long bitwiseAnd(long a, long b) {
    return a & b;
  }

  @Elementwise
  static long bitwiseOr(long a, long b) {
    return a | b;
  }

  @Elementwise
  static long bitwiseXor(long a, long b) {
    return a ^ b;
  }

  /** Integral only in effect: on BOOL, {@link Ops#bitwiseNot} runs logicalNot instead. */
  @Elementwise
  static long bitwiseNot(long x) {
    return ~x;
  }

  /** PyTorch's shift: a count below 0 or at least the width shifts everything out. */
  @Elementwise
  static long bitwiseLeftShift(long a, long b) {
    return b < 0 || b >= 64 ? 0 : a << b;
  }

  /** Arithmetic right shift; a count below 0 or at least the width leaves the sign fill. */
  @Elementwise
  static long bitwiseRightShift(long a, long b) {
    return b < 0 || b >= 64 ? (a < 0 ? -1 : 0) : a >> b;
  }

  // ---- unary ----------------------------------------------------------------------------------

  @Elementwise
  static long neg(long x) {
    return -x;
  }

  @Elementwise
  static double neg(double x) {
    return -x;
  }

  @Elementwise
  static long abs(long x) {
    return Math.abs(x);
  }

  @Elementwise
  static double abs(double x) {
    return Math.abs(x);
  }

  /** -1, 0 or 1; NaN gives 0, as PyTorch's {@code (0 < x) - (x < 0)}. */
  @Elementwise
  static double sign(double x) {
    return (x > 0 ? 1.0 : 0.0) - (x < 0 ? 1.0 : 0.0);
  }

  @Elementwise
  static long sign(long x) {
    return x > 0 ? 1 : (x < 0 ? -1 : 0);
  }

  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double exp(double x) {
    return Math.exp(x);
  }

  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double log(double x) {
    return Math.log(x);
  }

  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double sqrt(double x) {
    return Math.sqrt(x);
  }

  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double sin(double x) {
    return Math.sin(x);
  }

  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double cos(double x) {
    return Math.cos(x);
  }

  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double tanh(double x) {
    return Math.tanh(x);
  }

  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double sigmoid(double x) {
    return 1 / (1 + Math.exp(-x));
  }

  // ---- three operands -------------------------------------------------------------------------

  @Elementwise
  static double where(boolean condition, double a, double b) {
    return condition ? a : b;
  }

  @Elementwise
  static long where(boolean condition, long a, long b) {
    return condition ? a : b;
  }

  /** {@code min(max(x, min), max)}: NaN propagates; a lower bound above the upper gives max. */
  @Elementwise
  static double clamp(double x, double min, double max) {
    return Math.min(Math.max(x, min), max);
  }

  @Elementwise
  static long clamp(long x, long min, long max) {
    return Math.min(Math.max(x, min), max);
  }
}
