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
 *
 * <p>The ops are declared as scalar methods in {@code Builtins}, the way users declare theirs: the
 * processor generates every kernel from them, {@code Ops} with every static form and {@code
 * Tensor}'s op methods (through {@code TensorMethods}), and the scalar methods stay the reference
 * the tests check kernels against. PyTorch's argument rules (bool subtraction and negation,
 * alpha's type, negative integer powers, a missing clamp bound) are its {@code @Rule} methods,
 * which the generated methods call before they dispatch. {@code long} bodies give the integral and
 * bool kernels with Java integer semantics at the result's width (wraparound); {@code double}
 * bodies the floating ones (float16/bfloat16 compute in float32); bodies of only {@code + - * /}
 * and comparisons are lifted to complex.
 *
 * <p>Gradients are derived from the {@code double} bodies by the processor; the {@code @Derivative}
 * methods at the end replace the derived ones where PyTorch's derivatives.yaml decides otherwise
 * (ties, boundaries, removable singularities) or where the derived formula is unstable.
 */
@Facade(
    value = "Ops",
    visibility = Facade.Visibility.PUBLIC,
    instanceMethods = "TensorMethods",
    superclass = "OpsBase")
final class Builtins {
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
}
