package dev.ufunc4j;

import dev.ufunc4j.annotation.Derivative;
import dev.ufunc4j.annotation.Elementwise;
import dev.ufunc4j.annotation.Facade;
import dev.ufunc4j.annotation.Identity;
import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.annotation.Rule;
import dev.ufunc4j.annotation.Scalar;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.Promotion;
import dev.ufunc4j.internal.ErrorTexts;
import dev.ufunc4j.math.SpecialMath;

/**
 * The built-in ops, named after PyTorch's ({@code floor_divide} is {@code floorDivide}). Every op
 * takes tensors, Java numbers or Java booleans (a wrapped scalar: it promotes as a Python number or
 * bool does in PyTorch, so {@code int32 tensor + 2.5} is float32 and {@code int8 tensor + true}
 * int8), and has an {@code out=} form that
 * writes into a given tensor: it must have the broadcast shape and a dtype the result can be cast
 * to, and is left untouched when the call is refused. In place is {@code out} = the first operand
 * ({@link Tensor#addInPlace(Tensor)} and friends). Every two-tensor op also takes XLA {@link
 * BroadcastDims}: the lower-rank operand is lifted with them before the ordinary broadcasting
 * ({@code add(v, m, BroadcastDims.of(0))} adds the vector {@code v} to each column of {@code m}).
 */
@Facade(
    value = "Ops",
    visibility = Facade.Visibility.PUBLIC,
    instanceMethods = "TensorMethods",
    superclass = "OpsBase")
final class Builtins {
  // For readers of this file (the javadoc above is Ops's, for its users): the ops are declared
  // as scalar methods here, the way users declare theirs. The processor generates every kernel
  // from them, Ops with every static form and Tensor's op methods (through TensorMethods), and
  // the scalar methods stay the reference the tests check kernels against. PyTorch's argument
  // rules (bool subtraction and negation, alpha's type, negative integer powers, a missing clamp
  // bound) are its @Rule methods, which the generated methods call before they dispatch. long
  // bodies give the integral and bool kernels with Java integer semantics at the result's width
  // (wraparound); double bodies the floating ones (float16/bfloat16 compute in float32); bodies of
  // only + - * / and comparisons are lifted to complex. Gradients are derived from the double
  // bodies by the processor; the @Derivative methods at the end replace the derived ones where
  // PyTorch's derivatives.yaml decides otherwise (ties, boundaries, removable singularities) or
  // where the derived formula is unstable.

  private Builtins() {}

  // ---- arithmetic -----------------------------------------------------------------------------

  /** {@code a + b}, elementwise. */
  @Elementwise(identity = Identity.ZERO, associative = true)
  static long add(long a, long b) {
    return a + b;
  }

  @Elementwise(identity = Identity.ZERO, associative = true)
  static double add(double a, double b) {
    return a + b;
  }

  /**
   * {@code a + alpha * b} ({@code torch.add(a, b, alpha=alpha)}): alpha does not change the result
   * dtype, and must be integral for integral operands.
   */
  @Elementwise(methodName = "add")
  static long addScaled(long a, long b, @Scalar long alpha) {
    return a + alpha * b;
  }

  @Elementwise(methodName = "add")
  static double addScaled(double a, double b, @Scalar double alpha) {
    return Math.fma(alpha, b, a); // one rounding, as PyTorch's vectorised fmadd
  }

  /** {@code a - b}, elementwise. */
  @Elementwise
  static long sub(long a, long b) {
    return a - b;
  }

  @Elementwise
  static double sub(double a, double b) {
    return a - b;
  }

  /** {@code a - alpha * b} ({@code torch.sub(a, b, alpha=alpha)}), alpha as in {@code add}. */
  @Elementwise(methodName = "sub")
  static long subScaled(long a, long b, @Scalar long alpha) {
    return a - alpha * b;
  }

  @Elementwise(methodName = "sub")
  static double subScaled(double a, double b, @Scalar double alpha) {
    return Math.fma(-alpha, b, a);
  }

  /**
   * {@code a * b}, elementwise. Beside a float16 or bfloat16 tensor, a single-valued {@code b} of
   * another dtype (a Java number) is read at float32 precision, as PyTorch's kernel does: {@code
   * float16 0.5 * 1e5} is 49984, not inf. So is a Java number {@code a}, as in Python's
   * {@code 1e5 * t} (docs/promotion.md).
   */
  @Elementwise(scalarInFloat32 = true, identity = Identity.ONE, associative = true)
  static long mul(long a, long b) {
    return a * b;
  }

  @Elementwise(scalarInFloat32 = true, identity = Identity.ONE, associative = true)
  static double mul(double a, double b) {
    return a * b;
  }

  /**
   * {@code a / b}, elementwise: true division, so integral and bool operands compute in float32,
   * as in PyTorch; a single-valued {@code b} beside float16/bfloat16 is read at float32 precision,
   * as in {@code mul}. A Java number {@code a} the 16-bit dtype does not hold is Python's {@code
   * a / t}: {@code t.reciprocal() * a} (docs/promotion.md).
   */
  @Elementwise(promote = Promote.INT_TO_FLOAT, scalarInFloat32 = true)
  static double div(double a, double b) {
    return a / b;
  }

  /**
   * Python's floor division {@code a // b}: the quotient rounded toward negative infinity. An
   * integral division by zero throws {@code ArithmeticException}, and leaves a target untouched;
   * a single-valued {@code b} beside float16/bfloat16 is read at float32 precision, as in {@code
   * mul}.
   */
  @Elementwise(scalarInFloat32 = true)
  static long floorDivide(long a, long b) {
    final long q = a / b;
    return (a % b != 0) && ((a ^ b) < 0) ? q - 1 : q;
  }

  /**
   * PyTorch's {@code div_floor_floating}: {@code (a - fmod(a, b)) / b}, moved down by one where the
   * remainder's sign differs from b's, then rounded to the nearest integer below; Java's {@code %}
   * is C's {@code fmod}, exact at any quotient.
   */
  @Elementwise(scalarInFloat32 = true)
  static double floorDivide(double a, double b) {
    final double mod = a % b;
    final double div = (a - mod) / b;
    final double adjusted = (mod != 0) && ((b < 0) ^ (mod < 0)) ? div - 1 : div;
    final double floor = Math.floor(adjusted);
    return b == 0
        ? a / b
        : adjusted == 0
            ? Math.copySign(0.0, a / b)
            : (adjusted - floor > 0.5 ? floor + 1 : floor);
  }

  /**
   * Python's modulo {@code a % b}: the result takes the divisor's sign. An integral division by
   * zero throws {@code ArithmeticException}, and leaves a target untouched.
   */
  @Elementwise
  static long remainder(long a, long b) {
    final long r = a % b;
    return (r != 0) && ((r ^ b) < 0) ? r + b : r;
  }

  /** PyTorch's floating remainder: {@code fmod} (Java's {@code %}), moved into the divisor's sign. */
  @Elementwise
  static double remainder(double a, double b) {
    final double mod = a % b;
    return (mod != 0) && ((b < 0) ^ (mod < 0)) ? mod + b : mod;
  }

  /** The larger of {@code a} and {@code b}, elementwise; NaN propagates. */
  @Elementwise(identity = Identity.LOWEST, associative = true)
  static double maximum(double a, double b) {
    // Of two equal values (-0.0 and 0.0) the first, as PyTorch's scalar loop.
    return a != a ? a : (b != b ? b : (a >= b ? a : b));
  }

  @Elementwise(identity = Identity.LOWEST, associative = true)
  static long maximum(long a, long b) {
    return Math.max(a, b);
  }

  /** The smaller of {@code a} and {@code b}, elementwise; NaN propagates. */
  @Elementwise(identity = Identity.HIGHEST, associative = true)
  static double minimum(double a, double b) {
    return a != a ? a : (b != b ? b : (a <= b ? a : b));
  }

  @Elementwise(identity = Identity.HIGHEST, associative = true)
  static long minimum(long a, long b) {
    return Math.min(a, b);
  }

  /**
   * {@code a} to the power {@code b}, elementwise, as C99's pow (and PyTorch): 1 for a zero
   * exponent or a base of 1, even NaN, and for (-1)^±inf. Integral operands multiply exactly,
   * wrapping at the result's width; a negative tensor exponent gives 1 for a base of 1, ±1 for -1,
   * else 0.
   */
  @Elementwise
  static double pow(double a, double b) {
    return a == 1 || b == 0 || (a == -1 && Math.abs(b) == Double.POSITIVE_INFINITY)
        ? 1.0
        : Math.pow(a, b);
  }

  /**
   * Integral power by repeated squaring ({@link SpecialMath#ipow}, a short loop in the kernel
   * rather than the 63 unrolled steps this body once had): the product wraps at the result's
   * width, as PyTorch's {@code powi}. A negative exponent gives PyTorch's values for a tensor
   * exponent: 1 for a base of 1, +-1 for -1, else 0 ({@link Ops#pow} refuses a negative Java
   * number exponent, with PyTorch's message).
   */
  @Elementwise
  static long pow(long a, long b) {
    return SpecialMath.ipow(a, b);
  }

  // ---- comparisons ----------------------------------------------------------------------------

  /** {@code a == b}, elementwise, as bool. */
  @Elementwise
  static boolean eq(double a, double b) {
    return a == b;
  }

  @Elementwise
  static boolean eq(long a, long b) {
    return a == b;
  }

  /** {@code a != b}, elementwise, as bool. */
  @Elementwise
  static boolean ne(double a, double b) {
    return a != b;
  }

  @Elementwise
  static boolean ne(long a, long b) {
    return a != b;
  }

  /** {@code a < b}, elementwise, as bool. */
  @Elementwise
  static boolean lt(double a, double b) {
    return a < b;
  }

  @Elementwise
  static boolean lt(long a, long b) {
    return a < b;
  }

  /** {@code a <= b}, elementwise, as bool. */
  @Elementwise
  static boolean le(double a, double b) {
    return a <= b;
  }

  @Elementwise
  static boolean le(long a, long b) {
    return a <= b;
  }

  /** {@code a > b}, elementwise, as bool. */
  @Elementwise
  static boolean gt(double a, double b) {
    return a > b;
  }

  @Elementwise
  static boolean gt(long a, long b) {
    return a > b;
  }

  /** {@code a >= b}, elementwise, as bool. */
  @Elementwise
  static boolean ge(double a, double b) {
    return a >= b;
  }

  @Elementwise
  static boolean ge(long a, long b) {
    return a >= b;
  }

  // ---- logical (any dtype; nonzero is true) ---------------------------------------------------

  /** Whether both {@code a} and {@code b} are nonzero, elementwise, as bool. */
  @Elementwise(identity = Identity.ONE, associative = true)
  static boolean logicalAnd(double a, double b) {
    return a != 0 && b != 0;
  }

  @Elementwise(identity = Identity.ONE, associative = true)
  static boolean logicalAnd(long a, long b) {
    return a != 0 && b != 0;
  }

  /** Whether {@code a} or {@code b} is nonzero, elementwise, as bool. */
  @Elementwise(identity = Identity.ZERO, associative = true)
  static boolean logicalOr(double a, double b) {
    return a != 0 || b != 0;
  }

  @Elementwise(identity = Identity.ZERO, associative = true)
  static boolean logicalOr(long a, long b) {
    return a != 0 || b != 0;
  }

  /** Whether exactly one of {@code a} and {@code b} is nonzero, elementwise, as bool. */
  @Elementwise(identity = Identity.ZERO, associative = true)
  static boolean logicalXor(double a, double b) {
    return (a != 0) ^ (b != 0);
  }

  @Elementwise(identity = Identity.ZERO, associative = true)
  static boolean logicalXor(long a, long b) {
    return (a != 0) ^ (b != 0);
  }

  /** Whether {@code x} is zero, elementwise, as bool. */
  @Elementwise
  static boolean logicalNot(double x) {
    return x == 0;
  }

  @Elementwise
  static boolean logicalNot(long x) {
    return x == 0;
  }

  // ---- bitwise (integral and bool) ------------------------------------------------------------

  /** {@code a & b}, elementwise (integral and bool dtypes). */
  @Elementwise(identity = Identity.MINUS_ONE, associative = true)
  static long bitwiseAnd(long a, long b) {
    return a & b;
  }

  /** {@code a | b}, elementwise (integral and bool dtypes). */
  @Elementwise(identity = Identity.ZERO, associative = true)
  static long bitwiseOr(long a, long b) {
    return a | b;
  }

  /** {@code a ^ b}, elementwise (integral and bool dtypes). */
  @Elementwise(identity = Identity.ZERO, associative = true)
  static long bitwiseXor(long a, long b) {
    return a ^ b;
  }

  /** {@code ~x}, elementwise (integral dtypes; logical not for bool, as in PyTorch). */
  @Elementwise
  static long bitwiseNot(long x) {
    return ~x;
  }

  /**
   * {@code a << b}, elementwise, as PyTorch: a count below 0 or at least the width shifts
   * everything out.
   */
  @Elementwise
  static long bitwiseLeftShift(long a, long b) {
    return b < 0 || b >= 64 ? 0 : a << b;
  }

  /**
   * {@code a >> b}, elementwise (arithmetic); a count below 0 or at least the width leaves the sign
   * fill.
   */
  @Elementwise
  static long bitwiseRightShift(long a, long b) {
    return b < 0 || b >= 64 ? (a < 0 ? -1 : 0) : a >> b;
  }

  // ---- unary ----------------------------------------------------------------------------------

  /** {@code -x}, elementwise. */
  @Elementwise
  static long neg(long x) {
    return -x;
  }

  @Elementwise
  static double neg(double x) {
    return -x;
  }

  /** {@code |x|}, elementwise. */
  @Elementwise
  static long abs(long x) {
    return Math.abs(x);
  }

  @Elementwise
  static double abs(double x) {
    return Math.abs(x);
  }

  /**
   * -1, 0 or 1 by the sign of {@code x}, elementwise; NaN gives 0, as PyTorch's {@code (0 < x) -
   * (x < 0)}.
   */
  @Elementwise
  static double sign(double x) {
    return (x > 0 ? 1.0 : 0.0) - (x < 0 ? 1.0 : 0.0);
  }

  @Elementwise
  static long sign(long x) {
    return x > 0 ? 1 : (x < 0 ? -1 : 0);
  }

  /** e to the power {@code x}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double exp(double x) {
    return Math.exp(x);
  }

  /** The natural logarithm of {@code x}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double log(double x) {
    return Math.log(x);
  }

  /** The square root of {@code x}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double sqrt(double x) {
    return Math.sqrt(x);
  }

  /** The sine of {@code x}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double sin(double x) {
    return Math.sin(x);
  }

  /** The cosine of {@code x}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double cos(double x) {
    return Math.cos(x);
  }

  /** The hyperbolic tangent of {@code x}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double tanh(double x) {
    return Math.tanh(x);
  }

  /** {@code 1 / (1 + e^-x)}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double sigmoid(double x) {
    return 1 / (1 + Math.exp(-x));
  }

  // ---- three operands -------------------------------------------------------------------------

  /**
   * {@code condition ? a : b}, elementwise; the condition must be bool and does not join
   * promotion.
   */
  @Elementwise(numbersAfterFirst = true)
  static double where(boolean condition, double a, double b) {
    return condition ? a : b;
  }

  @Elementwise(numbersAfterFirst = true)
  static long where(boolean condition, long a, long b) {
    return condition ? a : b;
  }

  /**
   * {@code min(max(x, min), max)}, elementwise: NaN propagates, and a lower bound above the upper
   * one gives the upper one.
   */
  @Elementwise(numbersAfterFirst = true)
  static double clamp(double x, double min, double max) {
    return Math.min(Math.max(x, min), max);
  }

  @Elementwise(numbersAfterFirst = true)
  static long clamp(long x, long min, long max) {
    return Math.min(Math.max(x, min), max);
  }

  // ---- pointwise ops (issue 27, item 1) -------------------------------------------------------
  // PyTorch's elementwise functions whose bodies the declaration language expresses. Float-only
  // ops with INT_TO_FLOAT take integral operands as torch does (computing in float32); ops torch
  // also runs on integers (relu, square, the predicates, the roundings, fmod) have `long`
  // overloads; ops torch refuses for integers (frac, hypot, the activations) have neither, so
  // ufunc4j refuses them too. docs/ops.md lists each with its accuracy.

  /** The arc cosine of {@code x}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double acos(double x) {
    return Math.acos(x);
  }

  /** The arc sine of {@code x}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double asin(double x) {
    return Math.asin(x);
  }

  /** The arc tangent of {@code x}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double atan(double x) {
    return Math.atan(x);
  }

  /** The tangent of {@code x}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double tan(double x) {
    return Math.tan(x);
  }

  /** The hyperbolic sine of {@code x}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double sinh(double x) {
    return Math.sinh(x);
  }

  /** The hyperbolic cosine of {@code x}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double cosh(double x) {
    return Math.cosh(x);
  }

  /**
   * The inverse hyperbolic sine of {@code x}, elementwise: fdlibm's composition of {@code log1p},
   * {@code log} and {@code sqrt} (large arguments through {@code log(|x|) + ln 2}, so {@code x^2}
   * never overflows), odd by the sign of {@code x}.
   */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double asinh(double x) {
    final double a = Math.abs(x);
    final double r =
        a > 268435456.0
            ? Math.log(a) + 0.6931471805599453
            : (a > 2
                ? Math.log(2 * a + 1 / (Math.sqrt(a * a + 1) + a))
                : Math.log1p(a + a * a / (1 + Math.sqrt(1 + a * a))));
    return Math.copySign(r, x);
  }

  /**
   * The inverse hyperbolic cosine of {@code x}, elementwise: fdlibm's composition; NaN below 1.
   */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double acosh(double x) {
    final double t = x - 1;
    return x < 1
        ? Double.NaN
        : (x > 268435456.0
            ? Math.log(x) + 0.6931471805599453
            : (x > 2
                ? Math.log(2 * x - 1 / (x + Math.sqrt(x * x - 1)))
                : Math.log1p(t + Math.sqrt(2 * t + t * t))));
  }

  /**
   * The inverse hyperbolic tangent of {@code x}, elementwise: fdlibm's composition of {@code
   * log1p}; ±inf at ±1, NaN beyond.
   */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double atanh(double x) {
    final double a = Math.abs(x);
    final double r =
        a < 0.5
            ? 0.5 * Math.log1p(2 * a + 2 * a * a / (1 - a))
            : 0.5 * Math.log1p(2 * a / (1 - a));
    return Math.copySign(r, x);
  }

  /** {@code x} degrees in radians, elementwise: {@code x * (pi / 180)}, as PyTorch. */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double deg2rad(double x) {
    return x * 0.017453292519943295;
  }

  /** {@code x} radians in degrees, elementwise: {@code x * (180 / pi)}, as PyTorch. */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double rad2deg(double x) {
    return x * 57.29577951308232;
  }

  /** 2 to the power {@code x}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double exp2(double x) {
    return Math.pow(2.0, x);
  }

  /** {@code e^x - 1}, elementwise, accurate near 0 (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double expm1(double x) {
    return Math.expm1(x);
  }

  /** The base-10 logarithm of {@code x}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double log10(double x) {
    return Math.log10(x);
  }

  /** {@code log(1 + x)}, elementwise, accurate near 0 (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double log1p(double x) {
    return Math.log1p(x);
  }

  /**
   * The base-2 logarithm of {@code x}, elementwise, as {@code log(x) / ln 2}: within 2 ulp (not
   * always exact at powers of two; docs/ops.md).
   */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double log2(double x) {
    return Math.log(x) * 1.4426950408889634;
  }

  /** {@code log(x / (1 - x))}, elementwise: PyTorch's {@code logit} without {@code eps}. */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double logit(double x) {
    return Math.log(x / (1 - x));
  }

  /** The error function, elementwise ({@code torch.erf}; integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double erf(double x) {
    return SpecialMath.erf(x);
  }

  /** {@code 1 - erf(x)} without cancellation, elementwise ({@code torch.erfc}). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double erfc(double x) {
    return SpecialMath.erfc(x);
  }

  /** {@code log|Γ(x)|}, elementwise ({@code torch.lgamma}): +inf at the poles. */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double lgamma(double x) {
    return SpecialMath.lgamma(x);
  }

  /** The digamma function {@code Γ'(x)/Γ(x)}, elementwise ({@code torch.digamma}). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double digamma(double x) {
    return SpecialMath.digamma(x);
  }

  /**
   * {@code logit(x, eps)}: x clamped to [eps, 1 - eps] first, as {@code torch.logit(x, eps)}; a
   * negative eps clamps nothing (PyTorch's rule). NaN stays NaN.
   */
  @Elementwise(methodName = "logit", promote = Promote.INT_TO_FLOAT)
  static double logitEps(double x, @Scalar double eps) {
    final double clamped = eps < 0 ? x : (x < eps ? eps : (x > 1 - eps ? 1 - eps : x));
    return Math.log(clamped / (1 - clamped));
  }

  /**
   * NaN, +inf and -inf replaced by {@code nan}, {@code posinf} and {@code neginf}, elementwise
   * ({@code torch.nan_to_num}); {@code Ops.nanToNum(x)} passes PyTorch's defaults (0 and the
   * dtype's largest finite values).
   */
  @Elementwise(methodName = "nanToNum")
  static double nanToNum(double x, @Scalar double nan, @Scalar double posinf,
      @Scalar double neginf) {
    return x != x ? nan
        : (x == Double.POSITIVE_INFINITY ? posinf : (x == Double.NEGATIVE_INFINITY ? neginf : x));
  }

  /** Integral and bool tensors have nothing to replace: a copy, as PyTorch. */
  @Elementwise(methodName = "nanToNum")
  static long nanToNum(long x, @Scalar long nan, @Scalar long posinf, @Scalar long neginf) {
    return x;
  }

  /** {@code 1 / x}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double reciprocal(double x) {
    return 1 / x;
  }

  /** {@code 1 / sqrt(x)}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double rsqrt(double x) {
    return 1 / Math.sqrt(x);
  }

  /**
   * The normalized sinc {@code sin(pi x) / (pi x)}, 1 at 0, elementwise (integral operands compute
   * in float32).
   */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double sinc(double x) {
    final double px = 3.141592653589793 * x;
    return x == 0 ? 1.0 : Math.sin(px) / px;
  }

  /** {@code x * x}, elementwise. */
  @Elementwise
  static long square(long x) {
    return x * x;
  }

  @Elementwise
  static double square(double x) {
    return x * x;
  }

  /** {@code max(x, 0)}, elementwise; NaN and -0.0 pass through, as PyTorch's {@code clamp_min}. */
  @Elementwise
  static long relu(long x) {
    return x < 0 ? 0 : x;
  }

  @Elementwise
  static double relu(double x) {
    return x < 0 ? 0.0 : x;
  }

  /** The largest integer not above {@code x}, elementwise; integral operands are unchanged. */
  @Elementwise
  static long floor(long x) {
    return x;
  }

  @Elementwise
  static double floor(double x) {
    return Math.floor(x);
  }

  /** The smallest integer not below {@code x}, elementwise; integral operands are unchanged. */
  @Elementwise
  static long ceil(long x) {
    return x;
  }

  @Elementwise
  static double ceil(double x) {
    return Math.ceil(x);
  }

  /**
   * {@code x} rounded to the nearest integer, halves to even ({@code torch.round} without {@code
   * decimals}), elementwise; integral operands are unchanged.
   */
  @Elementwise
  static long round(long x) {
    return x;
  }

  @Elementwise
  static double round(double x) {
    return Math.rint(x);
  }

  /**
   * {@code torch.round(x, decimals=d)}, elementwise, as PyTorch's {@code round_decimals} kernel
   * computes it: {@code rint(x * 10^d) / 10^d}, or {@code rint(x / 10^-d) * 10^-d} for a negative
   * d, in the compute dtype (float32 for float32, float16 and bfloat16; {@code 10^|d|} rounded to
   * it, infinite beyond its range). The facade's {@code decimals} reaches the kernel as {@code
   * scale} (the rule {@link #roundDecimalsScale}): {@code 10^d}, negated for a negative d.
   */
  @Elementwise(methodName = "round", dtypes = "floating")
  static double roundDecimals(double x, @Scalar double decimals) {
    return decimals < 0 ? Math.rint(x / -decimals) * -decimals : Math.rint(x * decimals) / decimals;
  }

  /**
   * The next representable value after {@code a} toward {@code b} ({@code torch.nextafter}),
   * elementwise: {@code Math.nextAfter}, which a float32 kernel computes as its float overload,
   * stepping in float32 as PyTorch does. Generated for float32 and float64 only: a float16 or
   * bfloat16 kernel computes in float32, so its step would round away (docs/ops.md).
   */
  @Elementwise(dtypes = {"float32", "float64"})
  static double nextafter(double a, double b) {
    return Math.nextAfter(a, b);
  }

  /** {@code x} rounded toward zero, elementwise; integral operands are unchanged. */
  @Elementwise
  static long trunc(long x) {
    return x;
  }

  @Elementwise
  static double trunc(double x) {
    return x < 0 ? Math.ceil(x) : Math.floor(x);
  }

  /** The fractional part {@code x - trunc(x)}, elementwise (floating dtypes, as in PyTorch). */
  @Elementwise
  static double frac(double x) {
    return x - (x < 0 ? Math.ceil(x) : Math.floor(x));
  }

  /** Whether {@code x} is NaN, elementwise, as bool. */
  @Elementwise
  static boolean isnan(double x) {
    return x != x;
  }

  @Elementwise
  static boolean isnan(long x) {
    return false;
  }

  /** Whether {@code x} is +inf or -inf, elementwise, as bool. */
  @Elementwise
  static boolean isinf(double x) {
    return Math.abs(x) == Double.POSITIVE_INFINITY;
  }

  @Elementwise
  static boolean isinf(long x) {
    return false;
  }

  /** Whether {@code x} is neither NaN nor infinite, elementwise, as bool. */
  @Elementwise
  static boolean isfinite(double x) {
    return Math.abs(x) < Double.POSITIVE_INFINITY;
  }

  @Elementwise
  static boolean isfinite(long x) {
    return true;
  }

  /** Whether {@code x} is +inf, elementwise, as bool. */
  @Elementwise
  static boolean isposinf(double x) {
    return x == Double.POSITIVE_INFINITY;
  }

  @Elementwise
  static boolean isposinf(long x) {
    return false;
  }

  /** Whether {@code x} is -inf, elementwise, as bool. */
  @Elementwise
  static boolean isneginf(double x) {
    return x == Double.NEGATIVE_INFINITY;
  }

  @Elementwise
  static boolean isneginf(long x) {
    return false;
  }

  /** Whether the sign bit of {@code x} is set (-0.0 and -NaN included), elementwise, as bool. */
  @Elementwise
  static boolean signbit(double x) {
    return Math.copySign(1.0, x) < 0;
  }

  @Elementwise
  static boolean signbit(long x) {
    return x < 0;
  }

  /** The arc tangent of {@code a / b} in the quadrant of {@code (b, a)}, elementwise. */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double atan2(double a, double b) {
    return Math.atan2(a, b);
  }

  /** {@code |a|} with the sign of {@code b}, elementwise (integral operands compute in float32). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double copysign(double a, double b) {
    return Math.copySign(a, b);
  }

  /**
   * C's {@code fmod}: the remainder of {@code a / b} with the dividend's sign (Java's {@code %}),
   * elementwise. An integral division by zero throws {@code ArithmeticException}, and leaves a
   * target untouched.
   */
  @Elementwise
  static long fmod(long a, long b) {
    return a % b;
  }

  @Elementwise
  static double fmod(double a, double b) {
    return a % b;
  }

  /**
   * {@code sqrt(a^2 + b^2)} without overflow or underflow, elementwise. Floating dtypes only, as in
   * PyTorch: an integral or bool operand beside a floating one is converted first (fewer kernels,
   * {@code @Elementwise(dtypes)}), as in {@code logaddexp} and {@code logaddexp2}.
   */
  @Elementwise(dtypes = "floating")
  static double hypot(double a, double b) {
    return Math.hypot(a, b);
  }

  /** {@code log(e^a + e^b)}, elementwise, as PyTorch: the larger plus {@code log1p(e^-|a-b|)}. */
  @Elementwise(dtypes = "floating")
  static double logaddexp(double a, double b) {
    return a == b && Math.abs(a) == Double.POSITIVE_INFINITY
        ? a
        : Math.max(a, b) + Math.log1p(Math.exp(-Math.abs(a - b)));
  }

  /** {@code log2(2^a + 2^b)}, elementwise, as PyTorch: the larger plus {@code log1p(2^-|a-b|) / ln 2}. */
  @Elementwise(dtypes = "floating")
  static double logaddexp2(double a, double b) {
    return a == b && Math.abs(a) == Double.POSITIVE_INFINITY
        ? a
        : Math.max(a, b) + Math.log1p(Math.pow(2.0, -Math.abs(a - b))) * 1.4426950408889634;
  }

  /** {@code a * log(b)}, 0 where {@code a} is 0, NaN where {@code b} is NaN, elementwise. */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  static double xlogy(double a, double b) {
    return b != b ? b : (a == 0 ? 0.0 : a * Math.log(b));
  }

  /** The step function: {@code values} where {@code x} is 0, else 1 above 0 and 0 below. */
  @Elementwise
  static double heaviside(double x, double values) {
    return x == 0 ? values : (x > 0 ? 1.0 : 0.0);
  }

  @Elementwise
  static long heaviside(long x, long values) {
    return x == 0 ? values : (x > 0 ? 1 : 0);
  }

  /**
   * {@code start + weight (end - start)}, elementwise, as PyTorch: from {@code end} backwards when
   * the weight is at least 0.5, so a weight of 1 gives {@code end} exactly (floating dtypes).
   */
  @Elementwise
  static double lerp(double start, double end, double weight) {
    // PyTorch's lerp_vec: one fused multiply-add from the nearer end.
    final boolean small = Math.abs(weight) < 0.5;
    return Math.fma(small ? weight : weight - 1, end - start, small ? start : end);
  }

  // ---- activations (torch.nn.functional): floating dtypes, as in PyTorch -----------------------

  /** {@code x / (1 + e^-x)} ({@code F.silu}), elementwise. */
  @Elementwise
  static double silu(double x) {
    return x / (1 + Math.exp(-x));
  }

  /** {@code x tanh(log1p(e^x))} ({@code F.mish}), elementwise. */
  @Elementwise
  static double mish(double x) {
    return x * Math.tanh(Math.log1p(Math.exp(x)));
  }

  /** {@code min(max(x + 3, 0), 6) / 6} ({@code F.hardsigmoid}), elementwise. */
  @Elementwise
  static double hardsigmoid(double x) {
    return Math.min(Math.max(x + 3, 0.0), 6.0) / 6;
  }

  /** {@code x min(max(x + 3, 0), 6) / 6} ({@code F.hardswish}), elementwise. */
  @Elementwise
  static double hardswish(double x) {
    return x * Math.min(Math.max(x + 3, 0.0), 6.0) / 6;
  }

  /** {@code x} above 0, else {@code e^x - 1} ({@code F.elu} with alpha 1), elementwise. */
  @Elementwise
  static double elu(double x) {
    return x > 0 ? x : Math.expm1(x);
  }

  /** {@code x} above 0, else {@code alpha (e^x - 1)} ({@code F.elu(x, alpha)}), elementwise. */
  @Elementwise(methodName = "elu")
  static double eluAlpha(double x, @Scalar double alpha) {
    return x > 0 ? x : Math.expm1(x) * alpha;
  }

  /** {@code x} above 0, else {@code 0.01 x} ({@code F.leaky_relu}), elementwise. */
  @Elementwise
  static double leakyRelu(double x) {
    return x > 0 ? x : x * 0.01;
  }

  /** {@code x} above 0, else {@code negativeSlope x} ({@code F.leaky_relu(x, negative_slope)}). */
  @Elementwise(methodName = "leakyRelu")
  static double leakyReluSlope(double x, @Scalar double negativeSlope) {
    return x > 0 ? x : x * negativeSlope;
  }

  /**
   * {@code log1p(e^x)}, and {@code x} itself above 20 ({@code F.softplus} with beta 1 and
   * threshold 20), elementwise.
   */
  @Elementwise
  static double softplus(double x) {
    return x > 20 ? x : Math.log1p(Math.exp(x));
  }

  /**
   * {@code log1p(e^(beta x)) / beta}, and {@code x} itself where {@code beta x} is above {@code
   * threshold} ({@code F.softplus(x, beta, threshold)}), elementwise.
   */
  @Elementwise(methodName = "softplus")
  static double softplusBeta(double x, @Scalar double beta, @Scalar double threshold) {
    return x * beta > threshold ? x : Math.log1p(Math.exp(x * beta)) / beta;
  }

  /**
   * {@code F.gelu(x)} (PyTorch's default, {@code approximate='none'}): {@code x (1 + erf(x /
   * sqrt 2)) / 2}, elementwise, written as {@code x erfc(-x / sqrt 2) / 2}: the same function
   * without PyTorch's cancellation in {@code 1 + erf} for negative x (docs/ops.md).
   */
  @Elementwise
  static double gelu(double x) {
    return x * 0.5 * SpecialMath.erfc(x * -0.7071067811865476);
  }

  /**
   * {@code F.gelu(x, approximate='tanh')}: {@code x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) / 2},
   * elementwise, as PyTorch computes it. (The exact, erf form, PyTorch's default, is {@code gelu}.)
   */
  @Elementwise
  static double geluTanh(double x) {
    final double inner = 0.7978845608028654 * (x + 0.044715 * (x * x * x));
    return 0.5 * x * (1 + Math.tanh(inner));
  }

  // ---- PyTorch's argument rules: the generated Ops methods call them before they dispatch -----

  /**
   * Bool operands are refused, as in PyTorch: {@code logicalXor} or {@code bitwiseXor} subtract
   * masks, {@code logicalNot} inverts one.
   */
  @Rule("sub")
  static void refuseBoolSub(Tensor a, Tensor b) {
    if (a == null || b == null) {
      return; // the dispatcher names the null operand
    }
    boolean boolA = a.dtype() == DType.BOOL;
    boolean boolB = b.dtype() == DType.BOOL;
    if (boolA && boolB) {
      throw new IllegalArgumentException("sub: " + ErrorTexts.BOOL_SUB_BOTH);
    }
    if (boolA || boolB) {
      throw new IllegalArgumentException("sub: " + ErrorTexts.BOOL_SUB_ONE);
    }
  }

  /**
   * {@code alpha} must be a Java integral or floating number; an integral 1 runs the op without it
   * (so complex operands, which the alpha kernels do not lift, work with it too).
   */
  @Rule("add")
  static Tensor addWithoutAlpha(Tensor a, Tensor b, Number alpha, Tensor out) {
    return withoutAlpha("add", a, b, alpha) ? Ops.add(a, b, out) : null;
  }

  /** As in {@code add}: an integral alpha of 1 runs the op without it. */
  @Rule("sub")
  static Tensor subWithoutAlpha(Tensor a, Tensor b, Number alpha, Tensor out) {
    return withoutAlpha("sub", a, b, alpha) ? Ops.sub(a, b, out) : null;
  }

  /**
   * {@code alpha} is passed in the category of the operands' common dtype (PyTorch's {@code
   * alpha_check}), so it never changes the result dtype; a floating alpha is refused for integral
   * and bool operands.
   */
  @Rule(value = "add", scalar = "alpha")
  static Object addAlpha(Tensor a, Tensor b, Number alpha) {
    return alphaIn("add", a, b, alpha);
  }

  /**
   * {@code decimals} must be an integer (PyTorch's is an int); the kernel takes {@code 10^|d|}
   * (correctly rounded to double, then to the compute dtype), negated for a negative d.
   */
  @Rule(value = "round", scalar = "decimals")
  static Object roundDecimalsScale(Tensor x, Number decimals) {
    if (x != null && (!x.dtype().isFloatingPoint() || x.dtype().isComplex())) {
      // PyTorch's round_decimals has kernels for the real floating dtypes only (an integral
      // tensor is refused even with decimals=0, where plain round copies it).
      throw new IllegalArgumentException("round: \"round_cpu\" not implemented for '"
          + x.dtype().torchName() + "' (decimals needs a real floating tensor)");
    }
    if (decimals == null || !isIntegral(decimals)) {
      throw new IllegalArgumentException("round: decimals must be a Java integral number, got "
          + (decimals == null ? "null" : decimals + " (" + decimals.getClass().getName() + ")"));
    }
    long d = decimals.longValue();
    long magnitude = d == Long.MIN_VALUE ? 400 : Math.min(Math.abs(d), 400); // 1e400 is inf
    double scale = Double.parseDouble("1e" + magnitude);
    return d < 0 ? -scale : scale;
  }

  /** As in {@code add}: alpha takes the category of the operands' common dtype. */
  @Rule(value = "sub", scalar = "alpha")
  static Object subAlpha(Tensor a, Tensor b, Number alpha) {
    return alphaIn("sub", a, b, alpha);
  }

  /**
   * Refuses a null alpha or another Number type; true when {@code op} runs without alpha: for an
   * integral 1, and for a null operand, which the plain op names.
   */
  private static boolean withoutAlpha(String op, Tensor a, Tensor b, Number alpha) {
    if (alpha == null) {
      throw new IllegalArgumentException(op + ": alpha must not be null");
    }
    boolean integral = isIntegral(alpha);
    if (!integral && !(alpha instanceof Double || alpha instanceof Float)) {
      throw new IllegalArgumentException(op + ": alpha must be a Java integral or floating number,"
          + " got " + alpha.getClass().getName());
    }
    return (integral && alpha.longValue() == 1) || a == null || b == null;
  }

  private static Object alphaIn(String op, Tensor a, Tensor b, Number alpha) {
    DType common = Promotion.resultType(a, b);
    if (!isIntegral(alpha) && !(common.isFloatingPoint() || common.isComplex())) {
      throw new IllegalArgumentException(op + ": For integral input tensors, argument alpha must"
          + " not be a floating point number.");
    }
    if (common == DType.BOOL) {
      return alpha.longValue() != 0;
    }
    return common.isIntegral(false) ? (Object) alpha.longValue() : (Object) alpha.doubleValue();
  }

  private static boolean isIntegral(Number n) {
    return n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte;
  }

  /**
   * A Java integral exponent below 0 is refused for an integral or bool base, as in PyTorch (a
   * tensor exponent is not: see above).
   */
  @Rule("pow")
  static void refuseNegativeIntegerPower(Tensor a, Number b) {
    if (a != null && a.dtype().isIntegral(true) && b != null
        && !(b instanceof Double || b instanceof Float) && b.longValue() < 0) {
      throw new IllegalArgumentException(
          "pow: Integers to negative integer powers are not allowed.");
    }
  }

  /** A bool operand is refused, as in PyTorch: {@code logicalNot} inverts a mask. */
  @Rule("neg")
  static void refuseBoolNeg(Tensor x) {
    if (x != null && x.dtype() == DType.BOOL) {
      throw new IllegalArgumentException("neg: " + ErrorTexts.BOOL_NEG);
    }
  }

  /** A bool operand gets {@link Ops#logicalNot(Tensor)}, as PyTorch's {@code ~} does. */
  @Rule("bitwiseNot")
  static Tensor logicalNotOfBool(Tensor x, Tensor out) {
    return x != null && x.dtype() == DType.BOOL ? Ops.logicalNot(x, out) : null;
  }

  /**
   * A null number bound is absent, but not both: {@code clamp(x, 0, null)} is {@code maximum(x,
   * 0)}, PyTorch's {@code clamp(x, min=0)}.
   */
  @Rule("clamp")
  static Tensor clampToOneBound(Tensor x, Number min, Number max, Tensor out) {
    if (min == null && max == null) {
      throw new IllegalArgumentException("clamp: " + ErrorTexts.CLAMP_NO_BOUND);
    }
    if (min == null) {
      return Ops.minimum(x, max, out);
    }
    return max == null ? Ops.maximum(x, min, out) : null;
  }

  /** Complex operands are refused, as in PyTorch (the body, a product, would lift). */
  @Rule("deg2rad")
  static void refuseComplexDeg2rad(Tensor x) {
    refuseComplex("deg2rad", x, "is not supported for complex tensors.");
  }

  @Rule("rad2deg")
  static void refuseComplexRad2deg(Tensor x) {
    refuseComplex("rad2deg", x, "is not supported for complex tensors.");
  }

  /** Complex operands are refused, as in PyTorch (the body, a comparison, would lift). */
  @Rule("isposinf")
  static void refuseComplexIsposinf(Tensor x) {
    refuseComplex("isposinf", x, "does not support complex inputs.");
  }

  @Rule("isneginf")
  static void refuseComplexIsneginf(Tensor x) {
    refuseComplex("isneginf", x, "does not support complex inputs.");
  }

  /** Refuses a complex {@code x} with PyTorch's text: {@code op: op <why>}. */
  private static void refuseComplex(String op, Tensor x, String why) {
    if (x != null && x.dtype().isComplex()) {
      throw new IllegalArgumentException(op + ": " + op + " " + why);
    }
  }

  /** A bool operand squares as int64, as PyTorch's {@code pow(x, 2)}. */
  @Rule("square")
  static Tensor squareOfBoolAsInt64(Tensor x, Tensor out) {
    return x != null && x.dtype() == DType.BOOL ? Ops.square(x.to(DType.INT64), out) : null;
  }

  /** A bool operand is refused, as in PyTorch (relu is {@code clamp_min(x, 0)} there). */
  @Rule("relu")
  static void refuseBoolRelu(Tensor x) {
    if (x != null && x.dtype() == DType.BOOL) {
      throw new IllegalArgumentException("relu: Boolean inputs not supported for relu");
    }
  }

  /**
   * Complex operands or target, then operands or a target of different dtypes, are refused, as in
   * PyTorch (its heaviside neither promotes nor casts into {@code out}).
   */
  @Rule("heaviside")
  static void refuseMixedHeaviside(Tensor x, Tensor values, Tensor out) {
    if (x == null || values == null) {
      return; // the dispatcher names the null operand
    }
    if (x.dtype().isComplex() || values.dtype().isComplex()
        || (out != null && out.dtype().isComplex())) {
      throw new IllegalArgumentException(
          "heaviside: heaviside is not yet implemented for complex tensors.");
    }
    if (x.dtype() != values.dtype() || (out != null && out.dtype() != x.dtype())) {
      throw new IllegalArgumentException(
          "heaviside: heaviside is not yet implemented for tensors with different dtypes.");
    }
  }

  /**
   * {@code end} and {@code weight} must have {@code start}'s dtype, as in PyTorch; a zero-dim
   * weight may have another (PyTorch reads it as a scalar).
   */
  @Rule("lerp")
  static void refuseMixedLerp(Tensor start, Tensor end, Tensor weight) {
    if (start == null || end == null || weight == null) {
      return; // the dispatcher names the null operand
    }
    for (Tensor t : new Tensor[] {end, weight}) {
      if (t.dtype() != start.dtype() && !(t == weight && weight.ndim() == 0)) {
        throw new IllegalArgumentException("lerp: expected dtype " + start.dtype() + " for `"
            + (t == end ? "end" : "weight") + "` but got dtype " + t.dtype());
      }
    }
  }

  // ---- gradients: where derivatives.yaml differs from the derivative of the body --------------

  /** A step function: zero (JAX's convention; PyTorch has no derivative for floor_divide). */
  @Derivative(op = "floorDivide", operand = "a")
  static double floorDivideGradA(double a, double b) {
    return 0;
  }

  @Derivative(op = "floorDivide", operand = "b")
  static double floorDivideGradB(double a, double b) {
    return 0;
  }

  /** PyTorch: {@code grad} everywhere, also where the body moves the remainder into b's sign. */
  @Derivative(op = "remainder", operand = "a")
  static double remainderGradA(double a, double b) {
    return 1;
  }

  /** PyTorch: {@code -grad * floor_divide(a, b)}. */
  @Derivative(op = "remainder", operand = "b")
  static double remainderGradB(double grad, double a, double b) {
    return -grad * Math.floor(a / b);
  }

  /** torch.maximum: half each on a tie; a NaN operand passes the gradient to both sides. */
  @Derivative(op = "maximum", operand = "a")
  static double maximumGradA(double grad, double a, double b) {
    return a == b ? grad / 2 : (a < b ? 0 : grad);
  }

  @Derivative(op = "maximum", operand = "b")
  static double maximumGradB(double grad, double a, double b) {
    return a == b ? grad / 2 : (a > b ? 0 : grad);
  }

  @Derivative(op = "minimum", operand = "a")
  static double minimumGradA(double grad, double a, double b) {
    return a == b ? grad / 2 : (a > b ? 0 : grad);
  }

  @Derivative(op = "minimum", operand = "b")
  static double minimumGradB(double grad, double a, double b) {
    return a == b ? grad / 2 : (a < b ? 0 : grad);
  }

  /**
   * PyTorch's {@code pow_backward_self}: 0 where the exponent is 0, else {@code b a^(b-1)} (the
   * body's special cases give 1 at a base of 1, whose slope is still {@code b}).
   */
  @Derivative(op = "pow", operand = "a")
  static double powGradA(double grad, double a, double b) {
    return b == 0 ? 0 : grad * (b * Math.pow(a, b - 1));
  }

  /** PyTorch's {@code pow_backward_exponent}: 0 where the base is 0 and the exponent non-negative. */
  @Derivative(op = "pow", operand = "b")
  static double powGradB(double grad, double a, double b) {
    final double result =
        a == 1 || b == 0 || (a == -1 && Math.abs(b) == Double.POSITIVE_INFINITY)
            ? 1.0
            : Math.pow(a, b);
    return a == 0 && b >= 0 ? 0 : grad * (result * Math.log(a));
  }

  /** The derivative of a step function, confirmed (derivatives.yaml: zeros_like). */
  @Derivative(op = "sign")
  static double signGrad(double x) {
    return 0;
  }

  /**
   * PyTorch's {@code sigmoid_backward}, {@code grad (1 - y) y}: the derivative of the body,
   * {@code e^-x / (1 + e^-x)^2}, is inf / inf below x = -709.
   */
  @Derivative(op = "sigmoid")
  static double sigmoidGrad(double grad, double x) {
    final double y = 1 / (1 + Math.exp(-x));
    return grad * (1 - y) * y;
  }

  /** PyTorch's {@code clamp_backward}: the boundaries are inclusive. */
  @Derivative(op = "clamp", operand = "x")
  static double clampGradX(double grad, double x, double min, double max) {
    return x >= min && x <= max ? grad : 0;
  }

  /** PyTorch's {@code clamp_backward_min_max}: below a bound that is under the upper one. */
  @Derivative(op = "clamp", operand = "min")
  static double clampGradMin(double grad, double x, double min, double max) {
    return x < min && min < max ? grad : 0;
  }

  /** Above the upper bound, or everywhere when the bounds cross (then max is the result). */
  @Derivative(op = "clamp", operand = "max")
  static double clampGradMax(double grad, double x, double min, double max) {
    return x > max || max < min ? grad : 0;
  }

  // ---- gradients of the pointwise ops (issue 27, item 1): PyTorch's derivatives.yaml ----------

  /** PyTorch's {@code threshold_backward}: 0 where the result is at most 0 (so 0 at x = 0). */
  @Derivative(op = "relu")
  static double reluGrad(double grad, double x) {
    return x <= 0 ? 0 : grad;
  }

  /** PyTorch's {@code grad * xlogy(a != 0, b)}: 0 at a = 0 (and NaN where b is NaN). */
  @Derivative(op = "xlogy", operand = "a")
  static double xlogyGradA(double grad, double a, double b) {
    return b != b ? b : (a == 0 ? 0 : grad * Math.log(b));
  }

  /** {@code 1 / sqrt(x^2 + 1)}: the body's composition differentiates less stably. */
  @Derivative(op = "asinh")
  static double asinhGrad(double grad, double x) {
    return grad / Math.sqrt(x * x + 1);
  }

  /** {@code 1 / sqrt(x^2 - 1)}, as {@code (x - 1) (x + 1)} (PyTorch's order). */
  @Derivative(op = "acosh")
  static double acoshGrad(double grad, double x) {
    return grad / Math.sqrt((x - 1) * (x + 1));
  }

  /** {@code 1 / (1 - x^2)}. */
  @Derivative(op = "atanh")
  static double atanhGrad(double grad, double x) {
    return grad / (1 - x * x);
  }

  /** PyTorch's {@code logit_backward} without eps: NaN outside [0, 1], else {@code 1 / (x (1 - x))}. */
  @Derivative(op = "logit")
  static double logitGrad(double grad, double x) {
    return x < 0 || x > 1 ? Double.NaN : grad / (x * (1 - x));
  }

  /** {@code 1 / (1 + e^(b - a))}: half at a tie, where the body's max and |a - b| have kinks. */
  @Derivative(op = "logaddexp", operand = "a")
  static double logaddexpGradA(double grad, double a, double b) {
    return grad / (1 + Math.exp(b - a));
  }

  @Derivative(op = "logaddexp", operand = "b")
  static double logaddexpGradB(double grad, double a, double b) {
    return grad / (1 + Math.exp(a - b));
  }

  /** {@code 1 / (1 + 2^(b - a))}, as {@code logaddexp}. */
  @Derivative(op = "logaddexp2", operand = "a")
  static double logaddexp2GradA(double grad, double a, double b) {
    return grad / (1 + Math.pow(2.0, b - a));
  }

  @Derivative(op = "logaddexp2", operand = "b")
  static double logaddexp2GradB(double grad, double a, double b) {
    return grad / (1 + Math.pow(2.0, a - b));
  }

  /** PyTorch's {@code silu_backward}: {@code s (1 + x (1 - s))}, s the sigmoid (stable below -709). */
  @Derivative(op = "silu")
  static double siluGrad(double grad, double x) {
    final double s = 1 / (1 + Math.exp(-x));
    return grad * s * (1 + x * (1 - s));
  }

  /** PyTorch's {@code mish_backward}: {@code t + x s (1 - t^2)}, t = tanh(softplus(x)). */
  @Derivative(op = "mish")
  static double mishGrad(double grad, double x) {
    final double s = 1 / (1 + Math.exp(-x));
    final double t = Math.tanh(Math.log1p(Math.exp(x)));
    return grad * (t + x * s * (1 - t * t));
  }

  /** PyTorch's {@code hardsigmoid_backward}: 1/6 strictly inside (-3, 3), else 0. */
  @Derivative(op = "hardsigmoid")
  static double hardsigmoidGrad(double grad, double x) {
    return x > -3 && x < 3 ? grad / 6 : 0;
  }

  /** PyTorch's {@code hardswish_backward}: 0 below -3, {@code x/3 + 1/2} up to 3, 1 above. */
  @Derivative(op = "hardswish")
  static double hardswishGrad(double grad, double x) {
    return x < -3 ? 0 : (x <= 3 ? grad * (x / 3 + 0.5) : grad);
  }

  /** PyTorch's {@code softplus_backward}: {@code z / (z + 1)}, z = e^x, and 1 above the threshold. */
  @Derivative(op = "softplus")
  static double softplusGrad(double grad, double x) {
    final double z = Math.exp(x);
    return x > 20 ? grad : grad * z / (z + 1);
  }

  @Derivative(op = "softplusBeta", operand = "x")
  static double softplusBetaGrad(
      double grad, double x, @Scalar double beta, @Scalar double threshold) {
    final double z = Math.exp(x * beta);
    return x * beta > threshold ? grad : grad * z / (z + 1);
  }
}
