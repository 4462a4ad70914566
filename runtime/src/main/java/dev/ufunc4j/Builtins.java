package dev.ufunc4j;

import dev.ufunc4j.annotation.Derivative;
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
 *
 * <p>Gradients are derived from the {@code double} bodies by the processor; the {@code @Derivative}
 * methods at the end replace the derived ones where PyTorch's derivatives.yaml decides otherwise
 * (ties, boundaries, removable singularities) or where the derived formula is unstable.
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
   * quotient {@code a / b} is exactly representable). A quotient that overflows (finite {@code a})
   * is the result, as in PyTorch, whose exact fmod leaves {@code (a - fmod) / b} infinite with the
   * quotient's sign (the emulated fmod is infinite there and would flip it).
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
    final boolean overflows =
        Math.abs(quotient) == Double.POSITIVE_INFINITY && Math.abs(a) != Double.POSITIVE_INFINITY;
    return b == 0 || overflows
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

  /**
   * Integral power by repeated squaring, unrolled over the exponent's 63 value bits (a body has
   * no loops): the product wraps at the result's width, as PyTorch's {@code powi}. A negative
   * exponent gives PyTorch's values for a tensor exponent: 1 for a base of 1, +-1 for -1, else 0
   * ({@link Ops#pow} refuses a negative Java number exponent, with PyTorch's message).
   */
  @Elementwise
  static long pow(long a, long b) {
    final long p0 = a;
    final long r0 = (b & 1L) != 0 ? a : 1L;
    final long p1 = p0 * p0;
    final long r1 = (b & (1L << 1)) != 0 ? r0 * p1 : r0;
    final long p2 = p1 * p1;
    final long r2 = (b & (1L << 2)) != 0 ? r1 * p2 : r1;
    final long p3 = p2 * p2;
    final long r3 = (b & (1L << 3)) != 0 ? r2 * p3 : r2;
    final long p4 = p3 * p3;
    final long r4 = (b & (1L << 4)) != 0 ? r3 * p4 : r3;
    final long p5 = p4 * p4;
    final long r5 = (b & (1L << 5)) != 0 ? r4 * p5 : r4;
    final long p6 = p5 * p5;
    final long r6 = (b & (1L << 6)) != 0 ? r5 * p6 : r5;
    final long p7 = p6 * p6;
    final long r7 = (b & (1L << 7)) != 0 ? r6 * p7 : r6;
    final long p8 = p7 * p7;
    final long r8 = (b & (1L << 8)) != 0 ? r7 * p8 : r7;
    final long p9 = p8 * p8;
    final long r9 = (b & (1L << 9)) != 0 ? r8 * p9 : r8;
    final long p10 = p9 * p9;
    final long r10 = (b & (1L << 10)) != 0 ? r9 * p10 : r9;
    final long p11 = p10 * p10;
    final long r11 = (b & (1L << 11)) != 0 ? r10 * p11 : r10;
    final long p12 = p11 * p11;
    final long r12 = (b & (1L << 12)) != 0 ? r11 * p12 : r11;
    final long p13 = p12 * p12;
    final long r13 = (b & (1L << 13)) != 0 ? r12 * p13 : r12;
    final long p14 = p13 * p13;
    final long r14 = (b & (1L << 14)) != 0 ? r13 * p14 : r13;
    final long p15 = p14 * p14;
    final long r15 = (b & (1L << 15)) != 0 ? r14 * p15 : r14;
    final long p16 = p15 * p15;
    final long r16 = (b & (1L << 16)) != 0 ? r15 * p16 : r15;
    final long p17 = p16 * p16;
    final long r17 = (b & (1L << 17)) != 0 ? r16 * p17 : r16;
    final long p18 = p17 * p17;
    final long r18 = (b & (1L << 18)) != 0 ? r17 * p18 : r17;
    final long p19 = p18 * p18;
    final long r19 = (b & (1L << 19)) != 0 ? r18 * p19 : r18;
    final long p20 = p19 * p19;
    final long r20 = (b & (1L << 20)) != 0 ? r19 * p20 : r19;
    final long p21 = p20 * p20;
    final long r21 = (b & (1L << 21)) != 0 ? r20 * p21 : r20;
    final long p22 = p21 * p21;
    final long r22 = (b & (1L << 22)) != 0 ? r21 * p22 : r21;
    final long p23 = p22 * p22;
    final long r23 = (b & (1L << 23)) != 0 ? r22 * p23 : r22;
    final long p24 = p23 * p23;
    final long r24 = (b & (1L << 24)) != 0 ? r23 * p24 : r23;
    final long p25 = p24 * p24;
    final long r25 = (b & (1L << 25)) != 0 ? r24 * p25 : r24;
    final long p26 = p25 * p25;
    final long r26 = (b & (1L << 26)) != 0 ? r25 * p26 : r25;
    final long p27 = p26 * p26;
    final long r27 = (b & (1L << 27)) != 0 ? r26 * p27 : r26;
    final long p28 = p27 * p27;
    final long r28 = (b & (1L << 28)) != 0 ? r27 * p28 : r27;
    final long p29 = p28 * p28;
    final long r29 = (b & (1L << 29)) != 0 ? r28 * p29 : r28;
    final long p30 = p29 * p29;
    final long r30 = (b & (1L << 30)) != 0 ? r29 * p30 : r29;
    final long p31 = p30 * p30;
    final long r31 = (b & (1L << 31)) != 0 ? r30 * p31 : r30;
    final long p32 = p31 * p31;
    final long r32 = (b & (1L << 32)) != 0 ? r31 * p32 : r31;
    final long p33 = p32 * p32;
    final long r33 = (b & (1L << 33)) != 0 ? r32 * p33 : r32;
    final long p34 = p33 * p33;
    final long r34 = (b & (1L << 34)) != 0 ? r33 * p34 : r33;
    final long p35 = p34 * p34;
    final long r35 = (b & (1L << 35)) != 0 ? r34 * p35 : r34;
    final long p36 = p35 * p35;
    final long r36 = (b & (1L << 36)) != 0 ? r35 * p36 : r35;
    final long p37 = p36 * p36;
    final long r37 = (b & (1L << 37)) != 0 ? r36 * p37 : r36;
    final long p38 = p37 * p37;
    final long r38 = (b & (1L << 38)) != 0 ? r37 * p38 : r37;
    final long p39 = p38 * p38;
    final long r39 = (b & (1L << 39)) != 0 ? r38 * p39 : r38;
    final long p40 = p39 * p39;
    final long r40 = (b & (1L << 40)) != 0 ? r39 * p40 : r39;
    final long p41 = p40 * p40;
    final long r41 = (b & (1L << 41)) != 0 ? r40 * p41 : r40;
    final long p42 = p41 * p41;
    final long r42 = (b & (1L << 42)) != 0 ? r41 * p42 : r41;
    final long p43 = p42 * p42;
    final long r43 = (b & (1L << 43)) != 0 ? r42 * p43 : r42;
    final long p44 = p43 * p43;
    final long r44 = (b & (1L << 44)) != 0 ? r43 * p44 : r43;
    final long p45 = p44 * p44;
    final long r45 = (b & (1L << 45)) != 0 ? r44 * p45 : r44;
    final long p46 = p45 * p45;
    final long r46 = (b & (1L << 46)) != 0 ? r45 * p46 : r45;
    final long p47 = p46 * p46;
    final long r47 = (b & (1L << 47)) != 0 ? r46 * p47 : r46;
    final long p48 = p47 * p47;
    final long r48 = (b & (1L << 48)) != 0 ? r47 * p48 : r47;
    final long p49 = p48 * p48;
    final long r49 = (b & (1L << 49)) != 0 ? r48 * p49 : r48;
    final long p50 = p49 * p49;
    final long r50 = (b & (1L << 50)) != 0 ? r49 * p50 : r49;
    final long p51 = p50 * p50;
    final long r51 = (b & (1L << 51)) != 0 ? r50 * p51 : r50;
    final long p52 = p51 * p51;
    final long r52 = (b & (1L << 52)) != 0 ? r51 * p52 : r51;
    final long p53 = p52 * p52;
    final long r53 = (b & (1L << 53)) != 0 ? r52 * p53 : r52;
    final long p54 = p53 * p53;
    final long r54 = (b & (1L << 54)) != 0 ? r53 * p54 : r53;
    final long p55 = p54 * p54;
    final long r55 = (b & (1L << 55)) != 0 ? r54 * p55 : r54;
    final long p56 = p55 * p55;
    final long r56 = (b & (1L << 56)) != 0 ? r55 * p56 : r55;
    final long p57 = p56 * p56;
    final long r57 = (b & (1L << 57)) != 0 ? r56 * p57 : r56;
    final long p58 = p57 * p57;
    final long r58 = (b & (1L << 58)) != 0 ? r57 * p58 : r57;
    final long p59 = p58 * p58;
    final long r59 = (b & (1L << 59)) != 0 ? r58 * p59 : r58;
    final long p60 = p59 * p59;
    final long r60 = (b & (1L << 60)) != 0 ? r59 * p60 : r59;
    final long p61 = p60 * p60;
    final long r61 = (b & (1L << 61)) != 0 ? r60 * p61 : r60;
    final long p62 = p61 * p61;
    final long r62 = (b & (1L << 62)) != 0 ? r61 * p62 : r61;
    return b >= 0 ? r62 : (a == 1 ? 1 : (a == -1 ? ((b & 1L) != 0 ? -1 : 1) : 0));
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

  /** PyTorch: {@code grad}, also where the remainder is zero (the body's copySign has a kink). */
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
}
