package dev.ufunc4j.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import java.util.List;

/**
 * Writes the transcendental {@link MathFunction}s into a kernel as exact vector arithmetic, so
 * that a kernel gives the same bits in every JIT tier and on every machine (docs/vector-math.md).
 *
 * <p>The Vector API's {@code lanewise(EXP)} and friends compute {@code Math.exp} lane by lane
 * until C2 compiles the call, and then call the JDK's SVML library, another approximation: the
 * same call gave other bits once warm. Everything written here is an operation IEEE 754 and the
 * Vector API define exactly (add, subtract, multiply, divide, fused multiply-add, square root,
 * compare, blend, integer operations on the bits), so the interpreter's Java fallback and C2's
 * instructions agree bit for bit. The methods are SLEEF's and fdlibm's: an exact Cody-Waite
 * argument reduction with fused multiply-adds, a minimax polynomial ({@code tools/vmath/remez.py}),
 * and a reconstruction that carries the rounding error of its big parts (two-sum, two-product).
 *
 * <p>The code goes inline into the kernel's loop rather than into a runtime method the kernel
 * calls: C2 does not inline a static method of this size into the loop once it has compiled it on
 * its own ("already compiled into a big method", "NodeCountInliningCutoff"), and a call boxes
 * every vector argument, five to ten times slower than the inline code (measured in
 * docs/vector-math.md). Only the rare slow path is a call: sin, cos and tan of huge arguments go
 * lane by lane through {@code dev.ufunc4j.kernel.VectorMath}, which uses {@code StrictMath}.
 *
 * <p>One template serves float and double lanes; constants and polynomial degrees differ by lane.
 * Each function ends by making every NaN the canonical quiet NaN, so NaN lanes have one bit
 * pattern whatever order C2 gives the operands of a commutative operation.
 */
final class MathEmitter {

  static final ClassName VECTOR_MATH = ClassName.get("dev.ufunc4j.kernel", "VectorMath");

  private final VectorCode code;
  private final Lane lane;
  private final boolean single;

  MathEmitter(VectorCode code, Lane lane) {
    if (!lane.floating) {
      throw new IllegalArgumentException("transcendental functions need floating lanes: " + lane);
    }
    this.code = code;
    this.lane = lane;
    this.single = lane == Lane.FLOAT;
  }

  /** True for the functions this class writes (the others stay single Vector API operations). */
  static boolean handles(MathFunction fn) {
    return switch (fn) {
      case EXP, EXPM1, LOG, LOG1P, LOG10, SIN, COS, TAN, ASIN, ACOS, ATAN, SINH, COSH, TANH, POW,
          HYPOT, ATAN2, CBRT -> true;
      default -> false;
    };
  }

  /** Writes {@code fn} of the vector arguments and returns its result (a named vector). */
  Value emit(MathFunction fn, List<Value> args) {
    V x = new V(args.get(0).code(), Kind.FLOATING);
    V y = args.size() > 1 ? new V(args.get(1).code(), Kind.FLOATING) : null;
    String name = fn.javaName();
    V r = switch (fn) {
      case EXP -> exp(x);
      case EXPM1 -> expm1(x);
      case LOG -> log(x);
      case LOG1P -> log1p(x);
      case LOG10 -> log10(x);
      case SIN, COS -> single ? trigFloat(fn == MathFunction.COS, x) : trig(fn, x);
      case TAN -> trig(fn, x);
      case TANH -> tanh(x);
      case SINH -> sinh(x);
      case COSH -> cosh(x);
      case POW -> pow(x, y);
      case HYPOT -> hypot(x, y);
      case ATAN -> atan(x);
      case ATAN2 -> atan2(x, y);
      case ASIN, ACOS -> asinOrAcos(fn == MathFunction.ACOS, x);
      case CBRT -> cbrt(x);
      default -> throw new IllegalArgumentException("not a transcendental function: " + fn);
    };
    if (fn == MathFunction.EXP || fn == MathFunction.LOG
        || single && (fn == MathFunction.SIN || fn == MathFunction.COS)) {
      // Their NaN lanes take the rare-lane path, which writes the canonical NaN itself.
      return let(name, r).value();
    }
    V raw = let(name + "Raw", r);
    return let(name, raw.blend(NAN, raw.cmp("NE", raw))).value();
  }

  /**
   * {@code rare.anyTrue() ? slow : fast}: the slow expression (no named locals, so nothing of it
   * runs otherwise) only for a vector that holds a rare lane. Each lane's result still depends on
   * that lane alone: the slow expression must blend its results into {@code fast} on the lanes of
   * {@code rare} only, and agree with {@code fast} elsewhere.
   */
  private V ifAny(V rare, V slow, V fast) {
    if (rare.kind != Kind.BITS_MASK) {
      rare.require(Kind.MASK);
    }
    return new V(CodeBlock.of("$L.anyTrue()\n    ? $L\n    : $L", rare.code, slow.code,
        fast.code), Kind.FLOATING);
  }

  /**
   * {@code fast}, replaced by {@code slow} for a vector that holds a rare lane, as an {@code if}
   * block: unlike {@link #ifAny}, the slow path may name its parts ({@code let} inside {@code
   * slow} declares them in the block), so each is computed once and only when needed. The same
   * rule holds: {@code slow} must agree with {@code fast} outside the lanes of {@code rare}.
   */
  private V ifAnyBlock(String hint, V rare, V fast, java.util.function.Supplier<V> slow) {
    if (rare.kind != Kind.BITS_MASK) {
      rare.require(Kind.MASK);
    }
    V result = let(hint, fast);
    code.out.beginControlFlow("if ($L.anyTrue())", rare.code);
    V s = slow.get();
    code.out.addStatement("$L = $L", result.code, s.code);
    code.out.endControlFlow();
    return result;
  }

  /**
   * Java's floating {@code a % b} (C's {@code fmod}, exact): {@code a - b trunc(a / b)} in one
   * fused multiply-add, moved back by |b| where {@code a / b} rounded up to the next integer. That
   * is exact while the quotient is below 2^24 (2^53): the rounded quotient is then within one of
   * the true one and both candidate remainders are representable. Lanes with a larger quotient
   * (or an overflowing one) take the exact slow path, Java's {@code %} lane by lane ({@code
   * VectorMath.remainderLanes}).
   */
  Value remainder(Value dividend, Value divisor) {
    V a = let("dividend", new V(dividend.code(), Kind.FLOATING));
    V b = let("divisor", new V(divisor.code(), Kind.FLOATING));
    V quotient = let("quotient", a.div(b));
    // trunc(quotient) below 2^23 (2^52) by the magic-number rounding; above, it is an integer.
    K unit = k(0x1p23, 0x1p52);
    V aq = let("absQuotient", quotient.abs());
    V rounded = let("rounded", aq.add(unit).sub(unit));
    V floor = let("floor", rounded.sub(splat(ZERO).blend(ONE, rounded.cmp("GT", aq)))
        .blend(aq, aq.cmp("GE", unit)));
    V t = let("truncated", flipSign(floor, signBit(quotient)));
    V rough = let("rough", b.neg().fma(t, a));
    // rough's sign differs from a's where a / b rounded up to the next integer: add b back.
    V wrongSide = rough.cmp("NE", ZERO).and(negativeMask(rough).eq(negativeMask(a)).not());
    V exact = let("exact", rough.blend(rough.add(flipSign(b.abs(), signBit(a))), wrongSide));
    // The sign of a (zero results too); NaN for an infinite a or a zero b (rough is NaN there);
    // a itself for an infinite b and a finite a.
    V mod = let("fmod", exact.bits().and(~signMask()).or(signBit(a)).fp()
        .blend(a, b.abs().cmp("EQ", INF).and(a.abs().cmp("LT", INF))));
    // Not where a is infinite or b zero: rough is NaN there, as it should be.
    V slow = let("hugeQuotient", aq.cmp("GE", k(0x1p24, 0x1p53))
        .and(a.abs().cmp("LT", INF)).and(b.cmp("NE", ZERO)));
    return let("remainder", new V(CodeBlock.of(
        "$L.anyTrue()\n    ? $T.remainderLanes($L, $L, $L, $L)\n    : $L", slow.code, VECTOR_MATH,
        a.code, b.code, mod.code, slow.code, mod.code), Kind.FLOATING)).value();
  }

  // ------------------------------------------------------------------------------ constants

  /** A constant of the compute lane: its float value and its double value. */
  record K(double f, double d) implements Arg {}

  /** The same exactly representable constant in both lanes. */
  private static K k(double both) {
    return new K(both, both);
  }

  /** A constant whose float value ({@code f}, exactly a float) differs from its double one. */
  private static K k(double f, double d) {
    if ((float) f != f && !Double.isNaN(f)) {
      throw new IllegalArgumentException(f + " is not a float");
    }
    return new K(f, d);
  }

  private static K neg(K c) {
    return new K(-c.f, -c.d);
  }

  private static final K ZERO = k(0);
  private static final K HALF = k(0.5);
  private static final K ONE = k(1);
  private static final K TWO = k(2);
  private static final K INF = k(Double.POSITIVE_INFINITY);
  private static final K NEG_INF = k(Double.NEGATIVE_INFINITY);
  private static final K NAN = k(Double.NaN);
  private static final K MAX = k(Float.MAX_VALUE, Double.MAX_VALUE);
  private static final K MIN_NORMAL = k(Float.MIN_NORMAL, Double.MIN_NORMAL);

  /** 1.5 * 2^23 (2^52): adding it to a value below 2^22 (2^51) rounds it to an integer. */
  private static final K MAGIC = k(0x1.8p23, 0x1.8p52);

  private static final K LOG2E = k(1.442695f, 1.4426950408889634);
  /** ln 2 in two parts for {@code x - q ln2} with fused multiply-adds (the first is exact). */
  private static final K LN2_HI = k(0.6931472f, 0.6931471805599453);
  private static final K LN2_LO = k(-1.9046542e-09f, 2.3190468138462996e-17);
  /** ln 2 in two parts, the first short enough that {@code k * hi} is exact for any exponent k. */
  private static final K LOG_LN2_HI = k(0.69314575f, 0.6931471805598903);
  private static final K LOG_LN2_LO = k(1.4286068e-06f, 5.497923018708371e-14);
  /** log10(2) in two parts like LOG_LN2, and 1/ln(10) in two. */
  private static final K LOG10_2_HI = k(0.3010254f, 0.30102999566395283);
  private static final K LOG10_2_LO = k(4.605039e-06f, 2.8363394551044964e-14);
  private static final K INV_LN10_HI = k(0.4342945f, 0.4342944819032518);
  private static final K INV_LN10_LO = k(-1.010305e-08f, 1.098319650216765e-17);
  /** 2/3 in two parts (pow's logarithm). */
  private static final K TWO_THIRDS_HI = k(0.6666667f, 0.6666666666666666);
  private static final K TWO_THIRDS_LO = k(-1.9868216e-08f, 3.700743415417188e-17);

  private static final K TWO_OVER_PI = k(0.63661975f, 0.6366197723675814);
  /** pi/2 in three parts of 24 (53) bits: their sum is pi/2 to 72 (159) bits. */
  private static final K PIO2_1 = k(1.5707964f, 1.5707963267948966);
  private static final K PIO2_2 = k(-4.371139e-08f, 6.123233995736766e-17);
  private static final K PIO2_3 = k(-1.7151245e-15f, -1.4973849048591698e-33);
  private static final K PI_HI = k(3.1415927f, 3.141592653589793);
  private static final K PI_LO = k(-8.742278e-08f, 1.2246467991473532e-16);

  /**
   * From this magnitude on sin, cos and tan take the lane-by-lane slow path: the three-part
   * reduction's error grows with the quotient by pi/2 (docs/vector-math.md has the measurements).
   */
  private static final K TRIG_MAX = k(0x1p18, 0x1p28);

  /**
   * float32 sin and cos ({@link #trigFloat}): pi/2 in three parts, the first rounded down so that
   * the second is positive (then {@code x - q part1 - q part2} keeps the sign of a zero x).
   */
  private static final K PIO2_DOWN_1 = k(1.5707963f, Double.NaN);
  private static final K PIO2_DOWN_2 = k(7.54979e-08f, Double.NaN);
  private static final K PIO2_DOWN_3 = k(-1.7151245e-15f, Double.NaN);
  /**
   * The short reduction of {@link #trigFloat} is exact where {@code |hi| >= 4e-7 |x|}: this is
   * (4e-7)^2, compared with {@code hi^2 / x^2}. Other lanes (and NaN, infinities, |x| past about
   * 2^21) take the rare path.
   */
  private static final K TRIG_SHORT_SQUARED = k(1.6e-13f, Double.NaN);

  // Polynomial coefficients, lowest degree first, from tools/vmath/remez.py.
  /** expm1(s) = s + s^2 E(s), |s| <= ln2/2. */
  private static final double[] EXPM1_F = {0.5, 0.16666667f, 0.04166624f, 0.008333286f,
      0.0013948604f, 0.00019907598f};
  private static final double[] EXPM1_D = {0.5000000000000001, 0.1666666666666667,
      0.04166666666665228, 0.008333333333326148, 0.0013888888895601244,
      0.00019841269874785252, 2.4801574532808893e-05, 2.7557255436271467e-06,
      2.7567929456757483e-07, 2.510520484498542e-08, 1.7687684812009611e-09};
  /**
   * EXPM1_F with alternating signs, E(-m): {@code e^-m - 1 = -m + m^2 E(-m)} ({@link
   * #sigmoidFloat}).
   */
  private static final double[] EXPM1_NEG_F = {0.5, -0.16666667f, 0.04166624f, -0.008333286f,
      0.0013948604f, -0.00019907598f};
  /**
   * float32 log(1 + f) = f + f^2 Q(f) for f in [sqrt2/2 - 1, sqrt2 - 1], no division ({@link
   * #logFloat}; {@code tools/vmath/remez.py log1pdirect_f}, 2^-27.8 of log(1 + f)).
   */
  private static final double[] LOG1P_DIRECT_F = {-0.49999988f, 0.33333325f, -0.250016f,
      0.20002091f, -0.16608739f, 0.14179166f, -0.13243131f, 0.12922736f, -0.07644913f};
  /** log(1 + f) = 2s + s z L(z), s = f / (2 + f), z = s^2 (fdlibm's form). */
  private static final double[] LOG_F = {0.6666667f, 0.4000034f, 0.2853603f, 0.23617853f};
  private static final double[] LOG_D = {0.666666666666671, 0.3999999999951894,
      0.28571428729526704, 0.22222199062416226, 0.1818357317025407, 0.15313119652076182,
      0.14810992118950084};
  /** pow's log(1 + f) = 2s + s z (2/3 + z W(z)), each part in double-word arithmetic. */
  private static final double[] POWLOG_F = {0.4, 0.28571716f, 0.2219223f, 0.19363938f};
  private static final double[] POWLOG_D = {0.39999999999999997, 0.2857142857143291,
      0.22222222220354493, 0.1818181854608844, 0.15384577454790124, 0.13335583697562625,
      0.11688586267380191, 0.11883127291470828};
  /** sin(d) = d + d z S(z), cos(d) = 1 - z/2 + z^2 C(z), z = d^2, |d| <= pi/4. */
  private static final double[] SIN_F = {-0.16666667f, 0.008333329f, -0.0001983926f,
      2.7173342e-06f};
  private static final double[] SIN_D = {-0.16666666666666666, 0.008333333333333325,
      -0.00019841269841256178, 2.7557319214400177e-06, -2.5052104898010793e-08,
      1.605835855640314e-10, -7.578064589245613e-13};
  private static final double[] COS_F = {0.041666668f, -0.0013888886f, 2.479991e-05f,
      -2.7237041e-07f};
  private static final double[] COS_D = {0.04166666666666665, -0.0013888888888882833,
      2.4801587294622444e-05, -2.7557315736526204e-07, 2.0875897395950656e-09,
      -1.1367961417458915e-11};
  /**
   * float32 sin(d) = d + d z S(z) and cos(d) = 1 - z/2 + z^2 C(z) of degree 2 for {@link
   * #trigFloat} ({@code remez.py sinshort_f cosshort_f}: 2^-27.2 and 2^-31.8 of the result); the
   * sine's coefficients negated, as {@code trigFloat} subtracts its tail.
   */
  private static final double[] SIN_SHORT_NEGATED_F = {0.16666655f, -0.0083321f, 0.00019503829f};
  private static final double[] COS_SHORT_F = {0.041666653f, -0.0013887653f, 2.4463703e-05f};
  /** tanh(x) = x + x z T(z) for |x| <= atanh(1/2). */
  private static final double[] TANH_F = {-0.33333322f, 0.1333263f, -0.053852376f, 0.02105906f,
      -0.0062437085f};
  private static final double[] TANH_D = {-0.3333333333333332, 0.13333333333329123,
      -0.05396825396487979, 0.021869488410329534, -0.008863232902454315,
      0.0035920942433019273, -0.001455552669154364, 0.0005884696148049744,
      -0.0002334125228524009, 8.332040121949304e-05, -1.9475635005518497e-05};
  /** float32 tanh(x) = x + x z T(z) for |x| < 0.8 ({@link #tanhFloat}). */
  private static final double[] TANH_WIDE_F = {-0.33333308f, 0.13332348f, -0.053856123f,
      0.021302262f, -0.007394366f, 0.0015706435f};
  /** e^r = P(r) for |r| <= ln2/2, relative error 2^-29 before rounding ({@link #tanhFloat}). */
  private static final double[] EXP_DIRECT_F = {1.0f, 1.0f, 0.4999999f, 0.1666642f,
      0.041668225f, 0.008374833f, 0.0013836825f};
  /** sinh(x) = x + x z H(z) for |x| <= 1. */
  private static final double[] SINH_F = {0.16666667f, 0.0083333505f, 0.0001983587f,
      2.8190418e-06f};
  private static final double[] SINH_D = {0.16666666666666669, 0.008333333333333172,
      0.0001984126984142551, 2.7557319156641966e-06, 2.5052123486448022e-08,
      1.6057216342307185e-10, 7.760434425978954e-13};
  /** atan(t) = t + t z A(z) for |t| <= 7/16. */
  private static final double[] ATAN_F = {-0.3333333f, 0.19999859f, -0.14280379f, 0.1102235f,
      -0.08345506f, 0.04468993f};
  private static final double[] ATAN_D = {-0.33333333333333326, 0.19999999999995619,
      -0.14285714285054515, 0.1111111106467494, -0.0909090724649243, 0.07692262036695509,
      -0.06665921543614095, 0.05874084755849688, -0.052000099162015694, 0.04431274027232614,
      -0.03185614088369746, 0.013619477973474523};
  /** asin(x) = x + x z B(z) for |x| <= 1/2. */
  private static final double[] ASIN_F = {0.16666663f, 0.075004295f, 0.0445235f, 0.03180059f,
      0.014330634f, 0.037812907f};
  private static final double[] ASIN_D = {0.16666666666666702, 0.07499999999984468,
      0.0446428571636898, 0.030381943141470143, 0.022372205033310902, 0.017351754628181396,
      0.013979497066200854, 0.011406926296177178, 0.010749411057645895, 0.0037753599051213566,
      0.021643387437442943, -0.02104032830961568, 0.0327287915987232};
  /** cbrt(m) for m in [1, 8), a first approximation (2^-7.6) that Halley's iteration refines. */
  private static final double[] CBRT_F = {0.6816838f, 0.36452827f, -0.04331015f,
      0.0023132225f};
  private static final double[] CBRT_D = {0.6816837975885354, 0.36452825387799614,
      -0.043310148802209666, 0.0023132225491324663};

  // ------------------------------------------------------------------------------ the DSL

  /** An argument of a vector operation: a vector expression or a constant. */
  private sealed interface Arg permits V, K {}

  private enum Kind {
    /** Lanes of the compute type. */
    FLOATING,
    /** The same lanes' bits as int (long) lanes. */
    BITS,
    /** A mask over the compute lanes. */
    MASK,
    /**
     * A mask over the integer lanes of the bits (a comparison of bits): only for {@code
     * anyTrue()}, as in {@link #ifAny}.
     */
    BITS_MASK
  }

  /** A vector expression of generated code; its methods write Vector API calls. */
  private final class V implements Arg {
    final CodeBlock code;
    final Kind kind;

    V(CodeBlock code, Kind kind) {
      this.code = code;
      this.kind = kind;
    }

    private V op(Kind want, Kind result, String format, Object... args) {
      if (kind != want) {
        throw new IllegalStateException(format + " on " + kind);
      }
      Object[] all = new Object[args.length + 1];
      all[0] = code;
      System.arraycopy(args, 0, all, 1, args.length);
      return new V(CodeBlock.of("$L" + format, all), result);
    }

    private V fp(String format, Object... args) {
      return op(Kind.FLOATING, Kind.FLOATING, format, args);
    }

    V add(Arg o) {
      return fp(".add($L)", scalarOrVector(o));
    }

    V sub(Arg o) {
      return fp(".sub($L)", scalarOrVector(o));
    }

    V mul(Arg o) {
      return fp(".mul($L)", scalarOrVector(o));
    }

    V div(Arg o) {
      return fp(".div($L)", scalarOrVector(o));
    }

    V min(Arg o) {
      return fp(".min($L)", scalarOrVector(o));
    }

    V max(Arg o) {
      return fp(".max($L)", scalarOrVector(o));
    }

    /** {@code this * b + c}, one rounding. */
    V fma(Arg b, Arg c) {
      if (b instanceof K && c instanceof K) {
        return fp(".fma($L, $L)", scalarOrVector(b), scalarOrVector(c));
      }
      return fp(".fma($L, $L)", vector(b), vector(c));
    }

    V neg() {
      return fp(".neg()");
    }

    V abs() {
      return fp(".abs()");
    }

    V sqrt() {
      return fp(".lanewise(SQRT)");
    }

    /** This vector with the lanes of {@code mask} replaced by {@code v}. */
    V blend(Arg v, V mask) {
      mask.require(Kind.MASK);
      return fp(".blend($L, $L)", scalarOrVector(v), mask.code);
    }

    /** A comparison mask: {@code op} is a {@code VectorOperators} comparison name. */
    V cmp(String op, Arg o) {
      return op(Kind.FLOATING, Kind.MASK, ".compare($L, $L)", op, scalarOrVector(o));
    }

    /** The lanes' bits as integer lanes. */
    V bits() {
      return op(Kind.FLOATING, Kind.BITS, single ? ".reinterpretAsInts()" : ".reinterpretAsLongs()");
    }

    // Integer lanes.

    V and(long c) {
      return op(Kind.BITS, Kind.BITS, ".and($L)", integer(c));
    }

    V or(long c) {
      return op(Kind.BITS, Kind.BITS, ".or($L)", integer(c));
    }

    V add(long c) {
      return op(Kind.BITS, Kind.BITS, ".add($L)", integer(c));
    }

    V sub(long c) {
      return op(Kind.BITS, Kind.BITS, ".sub($L)", integer(c));
    }

    V mul(long c) {
      return op(Kind.BITS, Kind.BITS, ".mul($L)", integer(c));
    }

    /**
     * The smaller of the integer lanes and {@code c}. On the bits of floats that are {@code >= +0}
     * (and NaN's positive patterns above +inf) it is the floating minimum with the constant's bits
     * for every number, and C2 writes it as one instruction; a floating {@code min} is six on
     * AVX-512 (Java's NaN and -0.0 rules: two blends, the minimum, an unordered compare and a masked
     * move), so a clamp of a non-negative value is written with this (issue 28, item 2).
     */
    V minBits(long c) {
      return op(Kind.BITS, Kind.BITS, ".min($L)", integer(c));
    }

    V addBits(V o) {
      o.require(Kind.BITS);
      return op(Kind.BITS, Kind.BITS, ".add($L)", o.code);
    }

    V subBits(V o) {
      o.require(Kind.BITS);
      return op(Kind.BITS, Kind.BITS, ".sub($L)", o.code);
    }

    V xor(V o) {
      o.require(Kind.BITS);
      return op(Kind.BITS, Kind.BITS, ".lanewise(XOR, $L)", o.code);
    }

    V shl(int n) {
      return op(Kind.BITS, Kind.BITS, ".lanewise(LSHL, $L)", n);
    }

    V ashr(int n) {
      return op(Kind.BITS, Kind.BITS, ".lanewise(ASHR, $L)", n);
    }

    V lshr(int n) {
      return op(Kind.BITS, Kind.BITS, ".lanewise(LSHR, $L)", n);
    }

    /** Integer lanes back to the compute type's lanes (the same bits). */
    V fp() {
      return op(Kind.BITS, Kind.FLOATING,
          single ? ".reinterpretAsFloats()" : ".reinterpretAsDoubles()");
    }

    /** A comparison of the integer lanes with a constant ({@code op} as in {@link #cmp}). */
    V cmpBits(String op, long c) {
      return op(Kind.BITS, Kind.BITS_MASK, ".compare($L, $L)", op, integer(c));
    }

    // Masks.

    /** The union of two masks, or the bitwise or of two integer vectors. */
    V or(V m) {
      m.require(kind);
      return op(kind == Kind.BITS ? Kind.BITS : Kind.MASK, kind, ".or($L)", m.code);
    }

    V and(V m) {
      m.require(Kind.MASK);
      return op(Kind.MASK, Kind.MASK, ".and($L)", m.code);
    }

    V andNot(V m) {
      m.require(Kind.MASK);
      return op(Kind.MASK, Kind.MASK, ".andNot($L)", m.code);
    }

    V eq(V m) {
      m.require(Kind.MASK);
      return op(Kind.MASK, Kind.MASK, ".eq($L)", m.code);
    }

    V not() {
      return op(Kind.MASK, Kind.MASK, ".not()");
    }

    void require(Kind k) {
      if (kind != k) {
        throw new IllegalStateException("expected " + k + ", got " + kind + ": " + code);
      }
    }

    Value value() {
      return switch (kind) {
        case FLOATING -> Value.vector(code, lane);
        case BITS -> Value.vector(code, single ? Lane.INT : Lane.LONG);
        case MASK -> Value.mask(code, lane);
        case BITS_MASK -> Value.mask(code, single ? Lane.INT : Lane.LONG);
      };
    }
  }

  /** Declares a local holding {@code v} (named after {@code hint}) and returns it by name. */
  private V let(String hint, V v) {
    return new V(code.temp(hint, v.value()).code(), v.kind);
  }

  private CodeBlock scalar(K c) {
    return VectorCode.literal(lane, single ? c.f : c.d);
  }

  /** A constant as a scalar (the Vector API methods with scalar overloads take it), or a vector. */
  private CodeBlock scalarOrVector(Arg a) {
    return a instanceof V v ? v.code : scalar((K) a);
  }

  private CodeBlock vector(Arg a) {
    if (a instanceof V v) {
      v.require(Kind.FLOATING);
      return v.code;
    }
    return CodeBlock.of("$T.broadcast($N, $L)", lane.vector, code.species(lane), scalar((K) a));
  }

  private V splat(K c) {
    return new V(vector(c), Kind.FLOATING);
  }

  private CodeBlock integer(long c) {
    return single
        ? CodeBlock.of("0x$L", Integer.toHexString((int) c))
        : CodeBlock.of("0x$LL", Long.toHexString(c));
  }

  /** {@code c[0] + z (c[1] + z (c[2] + ...))}, Horner's rule with fused multiply-adds. */
  private V horner(V z, double[] c) {
    int n = c.length - 1;
    CodeBlock.Builder b = CodeBlock.builder()
        .add("$L.fma($L, $L)", z.code, coefficient(c[n]), coefficient(c[n - 1]));
    for (int i = n - 2; i >= 0; i--) {
      b.add("\n    .fma($L, $L)", z.code, vector(new K(c[i], c[i])));
    }
    return new V(b.build(), Kind.FLOATING);
  }

  private CodeBlock coefficient(double c) {
    return VectorCode.literal(lane, c);
  }

  private double[] poly(double[] f, double[] d) {
    return single ? f : d;
  }

  // Integer facts of the format.

  private int mantissaBits() {
    return single ? 23 : 52;
  }

  private long bias() {
    return single ? 127 : 1023;
  }

  private long magicBits() {
    return single ? 0x4B400000L : 0x4338000000000000L;
  }

  private long signMask() {
    return single ? 0x80000000L : 0x8000000000000000L;
  }

  private long mantissaMask() {
    return single ? 0x007fffffL : 0x000fffffffffffffL;
  }

  /** The bits of sqrt(2)/2 (rounded down): mantissas are reduced to [sqrt(2)/2, sqrt(2)). */
  private long sqrtHalfBits() {
    return single ? 0x3f3504f3L : 0x3fe6a09e667f3bcdL;
  }

  private long oneBits() {
    return single ? 0x3f800000L : 0x3ff0000000000000L;
  }

  // ------------------------------------------------------------------------------ shared parts

  /** 2^k for integer lanes k in the normal exponent range. */
  private V pow2(V k) {
    return k.add(bias()).shl(mantissaBits()).fp();
  }

  /** {@code u * 2^k}, k up to twice the exponent range: two exact steps, one final rounding. */
  private V scale(V u, V k) {
    V half = let("half", k.ashr(1));
    return u.mul(pow2(half)).mul(pow2(k.subBits(half)));
  }

  /** Integer lanes of magnitude below 2^22 (2^51) as floating lanes, exactly. */
  private V toFloating(V k) {
    return k.add(magicBits()).fp().sub(MAGIC);
  }

  /**
   * {@code u 2^q}, q the quotient in a magic sum, by adding q to u's exponent field: the magic
   * sum's bits shifted left by the mantissa's width are exactly q's (its constant's set bits shift
   * out), so two integer operations replace building 2^q and the product (issue 28, item 2). The
   * same bits as the product wherever u and u 2^q are normal numbers, which the callers' common
   * lanes are.
   */
  private V scaleByQuotient(V u, V magic) {
    return u.bits().addBits(magic.bits().shl(mantissaBits())).fp();
  }

  /** The bits of a constant in the lane type. */
  private long bitsOf(K c) {
    return single ? Float.floatToRawIntBits((float) c.f()) : Double.doubleToRawLongBits(c.d());
  }

  /**
   * {@code !(|x| <= limit)}, NaN lanes included, as one comparison of |x|'s bits ({@code absBits})
   * with the limit's: a mask for {@code anyTrue()} only (integer lanes), one operation fewer than
   * the floating comparison and its negation.
   */
  private V absAbove(V absBits, K limit) {
    return absBits.cmpBits("GT", bitsOf(limit));
  }

  /** The lanes' sign bits, the other bits zero. */
  private V signBit(V x) {
    return x.bits().and(signMask());
  }

  /** The mask of lanes whose sign bit is set (-0.0 and NaNs with the bit included). */
  private V negativeMask(V x) {
    return x.bits().lshr(single ? 31 : 63).fp().cmp("NE", ZERO);
  }

  /** {@code v} with its sign bit flipped where {@code bits} has it. */
  private V flipSign(V v, V bits) {
    return v.bits().xor(bits).fp();
  }

  /** The exact error of {@code s = a + b} (two-sum). */
  private V twoSumError(V a, V b, V s) {
    V back = let("back", s.sub(a));
    return a.sub(s.sub(back)).add(b.sub(back));
  }

  /** {@code 1.5 * 2^23 + round(x / ln2)}: the quotient q as the low bits of a float. */
  private V expMagic(V x) {
    return let("expMagic", x.fma(LOG2E, MAGIC));
  }

  private V quotient(V magic) {
    return let("q", magic.sub(MAGIC));
  }

  /** The integer lanes of the quotient in a magic sum. */
  private V quotientBits(V magic) {
    return magic.bits().sub(magicBits());
  }

  /**
   * The part of {@code e^(hi + lo) - 1} after {@code hi}, for {@code |hi + lo| <= ln2/2} and
   * {@code lo} much smaller than {@code hi}: {@code lo + s^2 E(s)} with {@code s = hi + lo}.
   */
  private V expTail(V hi, V lo) {
    V s = let("s", hi.add(lo));
    V p = let("p", horner(s, poly(EXPM1_F, EXPM1_D)));
    return let("expTail", s.mul(s).fma(p, lo));
  }

  /**
   * e^x as a head and a tail before scaling by 2^q: {@code head} is {@code e^(x - q ln2)} rounded,
   * {@code tail} what it lacks, to about twice the precision.
   */
  private record ExpParts(V magic, V head, V tail) {}

  private ExpParts expParts(V x) {
    V magic = expMagic(x);
    V q = quotient(magic);
    V hi = let("expHi", q.fma(neg(LN2_HI), x)); // exact
    V tail = expTail(hi, q.mul(neg(LN2_LO)));
    // v = hi + tail and 1 + v rounded, their rounding errors (two-sum) kept in the low part.
    V v = let("expM1", hi.add(tail));
    V vErr = let("expM1Error", twoSumError(hi, tail, v));
    V head = let("expHead", v.add(ONE));
    V low = let("expLow", head.neg().add(ONE).add(v).add(vErr));
    return new ExpParts(magic, head, low);
  }

  // ------------------------------------------------------------------------------ exp, expm1

  /**
   * {@code u 2^q}. Where |x| <= 87 (708) e^x and 2^q are normal numbers, so one exact product
   * scales u: its bits are the quotient's in the magic sum, moved into the exponent field. Other
   * lanes (subnormal or overflowing results, NaN) take the former exact path for the vectors that
   * hold one: 2^q in two exact steps, the limits, the canonical NaN. Both give the same bits on
   * the common lanes (an exact product either way), so the rare path changes no result.
   */
  private V exp(V x) {
    V magic = expMagic(x);
    V q = quotient(magic);
    V u;
    if (single) {
      // float32 (issue 28): x - q ln2 rounded once (two fused steps, the first exact), then
      // 1 + (r + r^2 E(r)): two operations fewer than the head-and-tail form, 0.9956 ulp at most
      // over every float32 of the common path (docs/vector-math.md).
      V r = let("expR", q.fma(neg(LN2_LO), q.fma(neg(LN2_HI), x)));
      V p = let("p", horner(r, EXPM1_F));
      u = let("expU", r.mul(r).fma(p, r).add(ONE));
    } else {
      V hi = let("expHi", q.fma(neg(LN2_HI), x)); // exact
      V tail = expTail(hi, q.mul(neg(LN2_LO)));
      u = let("expU", hi.add(tail).add(ONE));
    }
    V fast = let("expFast", scaleByQuotient(u, magic));
    K limit = k(87, 708);
    V rare = let("expRare", absAbove(x.bits().and(~signMask()), limit)); // NaN lanes too
    return ifAnyBlock("expResult", rare, fast, () -> {
      // Past these limits the quotient leaves the range the two steps take; the results are inf
      // and 0 well before them. The quotient's bits and their half are named once (in the block,
      // so the common path does not compute them).
      V k = let("expQ", quotientBits(magic));
      V half = let("expHalfQ", k.ashr(1));
      V full = u.mul(pow2(half)).mul(pow2(k.subBits(half)))
          .blend(INF, x.cmp("GT", k(100, 710))).blend(ZERO, x.cmp("LT", k(-110, -746)))
          .blend(NAN, x.cmp("NE", x));
      return fast.blend(full, x.abs().cmp("LE", limit).not());
    });
  }

  /**
   * {@code 2 (2^(q-1) - 1/2 + 2^(q-1) hi + 2^(q-1) tail)}: the first two terms added exactly
   * (two-sum), so only the last rounding is large; no overflow before the result's own.
   */
  private V expm1(V x) {
    V xc = let("expm1Arg", x.max(k(-30, -40)).min(k(89, 710)));
    V magic = expMagic(xc);
    V q = quotient(magic);
    V hi = let("expHi", q.fma(neg(LN2_HI), xc));
    V tail = expTail(hi, q.mul(neg(LN2_LO)));
    V h = let("halfScale", pow2(quotientBits(magic).sub(1)));
    V a = let("a", h.sub(HALF));
    V aErr = let("aError", h.sub(a).sub(HALF)); // exact; nonzero once q passes 24 (53)
    V b = let("b", h.mul(hi));
    V sum = let("sum", a.add(b));
    V err = let("sumError", twoSumError(a, b, sum).add(aErr));
    V r = let("expm1Sum", sum.add(h.fma(tail, err)).mul(TWO));
    // Below 2^-24 (2^-54) the result rounds to x, zeros and subnormals included.
    return r.blend(x, x.abs().cmp("LT", k(0x1p-24, 0x1p-54)));
  }

  // ------------------------------------------------------------------------------ log family

  /** x's mantissa and exponent for a logarithm: {@code x = 2^k (1 + f)}, f in [sqrt2/2-1, sqrt2-1]. */
  private record LogParts(V f, V k) {}

  private LogParts logParts(V x, boolean subnormals) {
    V xs = x;
    V subnormal = null;
    if (subnormals) {
      subnormal = let("subnormal", x.cmp("LT", MIN_NORMAL));
      xs = let("normal", x.blend(x.mul(k(0x1p25, 0x1p60)), subnormal));
    }
    V bits = let("logBits", xs.bits().add(oneBits() - sqrtHalfBits()));
    V f = let("f", bits.and(mantissaMask()).add(sqrtHalfBits()).fp().sub(ONE));
    V k = toFloating(bits.ashr(mantissaBits()).sub(bias()));
    if (subnormals) {
      k = k.sub(splat(ZERO).blend(k(25, 60), subnormal));
    }
    return new LogParts(f, let("exponent", k));
  }

  /**
   * fdlibm's {@code log(1 + f) + k ln2 + c} for a small correction c: {@code k ln2_hi - ((hfsq -
   * (s (hfsq + R) + (k ln2_lo + c))) - f)}, whose only large rounding is the last.
   */
  private V logReduced(LogParts p, V c) {
    V f = p.f;
    V s = let("s", f.div(f.add(TWO)));
    V z = let("z", s.mul(s));
    V r = let("r", horner(z, poly(LOG_F, LOG_D)).mul(z));
    V hfsq = let("hfsq", f.mul(f).mul(HALF));
    V small = let("small",
        s.fma(hfsq.add(r), c == null ? p.k.mul(LOG_LN2_LO) : p.k.fma(LOG_LN2_LO, c)));
    return p.k.mul(LOG_LN2_HI).sub(hfsq.sub(small).sub(f));
  }

  /** A logarithm's special arguments: -inf at zero, NaN below, x itself at +inf and NaN. */
  private V logSpecials(V r, V x) {
    V named = let("logCore", r);
    return named.blend(NEG_INF, x.cmp("EQ", ZERO)).blend(NAN, x.cmp("LT", ZERO))
        .blend(x, x.cmp("GT", MAX).or(x.cmp("NE", x)));
  }

  /**
   * The common lanes (normal positive finite x) need no special case; the vectors that hold a
   * subnormal, zero, negative, infinite or NaN lane scale the subnormals by 2^25 (2^60) first and
   * blend the special results in after, on those lanes only (the same bits as doing it always).
   */
  private V log(V x) {
    if (single) {
      return logFloat(x);
    }
    V rare = let("logRare", x.cmp("GE", MIN_NORMAL).and(x.cmp("LE", MAX)).not()); // NaN too
    V subnormal = x.cmp("LT", MIN_NORMAL);
    V xs = let("normal", ifAny(rare, x.blend(x.mul(k(0x1p25, 0x1p60)), subnormal), x));
    LogParts p = logParts(xs, false);
    V k = let("exponent", ifAny(rare, p.k.sub(splat(ZERO).blend(k(25, 60), subnormal)), p.k));
    V core = let("logCore", logReduced(new LogParts(p.f, k), null));
    // -inf at zero, the canonical NaN below zero and at NaN, +inf at +inf.
    V special = core.blend(NEG_INF, x.cmp("EQ", ZERO))
        .blend(NAN, x.cmp("LT", ZERO).or(x.cmp("NE", x))).blend(x, x.cmp("GT", MAX));
    return ifAny(rare, special, core);
  }

  /**
   * float32 log without a division (issue 28: 24 vector operations instead of about 30 and a
   * division), within 1 ulp over every float32 (docs/vector-math.md). {@code x = 2^k (1 + f)}
   * with f in [sqrt2/2 - 1, sqrt2 - 1] as {@link #logParts} makes it; {@code log(1 + f) = f + f^2
   * Q(f)} ({@code LOG1P_DIRECT_F}, degree 8, Horner's rule with fused multiply-adds). The sum
   * {@code s = k ln2_hi + f} is rounded once (k ln2_hi is exact) and its exact error {@code f -
   * (s - k ln2_hi)} (fast two-sum: |k ln2_hi| > |f| unless k is 0, where s is f) joins {@code k
   * ln2_lo} and {@code f^2 Q(f)}, so only the last addition rounds a large value. The rare lanes
   * (subnormal, zero, negative, infinite, NaN) are as in the float64 {@link #log}: one integer
   * comparison finds them (the bits of a positive normal finite x, moved by 2^31 - 2^23, are
   * exactly the ints below -2^24).
   */
  private V logFloat(V x) {
    V rare = let("logRare", x.bits().add(0x7f800000L).cmpBits("GE", 0xff000000L));
    V subnormal = x.cmp("LT", MIN_NORMAL);
    V xs = let("normal", ifAny(rare, x.blend(x.mul(k(0x1p25, 0x1p60)), subnormal), x));
    V bits = let("logBits", xs.bits().add(oneBits() - sqrtHalfBits()));
    V f = let("f", bits.and(mantissaMask()).add(sqrtHalfBits()).fp().sub(ONE));
    // The exponent as a float: (bits >> 23) - 127 by the magic number, its two integer steps one.
    V k = let("exponent", bits.ashr(mantissaBits()).add(magicBits() - bias()).fp().sub(MAGIC));
    k = let("exponentScaled", ifAny(rare, k.sub(splat(ZERO).blend(k(25, 60), subnormal)), k));
    V sum = let("logSum", k.fma(LOG_LN2_HI, f));
    V sumError = let("logSumError", f.sub(k.fma(neg(LOG_LN2_HI), sum))); // exact
    V tail = let("logTail", f.mul(f).fma(horner(f, LOG1P_DIRECT_F), k.fma(LOG_LN2_LO, sumError)));
    V core = let("logCore", sum.add(tail));
    // -inf at zero, the canonical NaN below zero and at NaN, +inf at +inf.
    V special = core.blend(NEG_INF, x.cmp("EQ", ZERO))
        .blend(NAN, x.cmp("LT", ZERO).or(x.cmp("NE", x))).blend(x, x.cmp("GT", MAX));
    return ifAny(rare, special, core);
  }

  /**
   * {@code log(u)} with {@code u = 1 + x} rounded, plus fdlibm's correction {@code c / u}: c is
   * the exact rounding error of u (two-sum).
   */
  private V log1p(V x) {
    V u = let("u", x.add(ONE));
    V back = let("back", u.sub(x));
    V c = let("c", x.sub(u.sub(back)).add(back.neg().add(ONE)));
    V r = logSpecials(logReduced(logParts(u, false), c.div(u)), u);
    return r.blend(x, x.cmp("EQ", ZERO));
  }

  /**
   * {@code (k log10(2)) + log1p(f) / ln10}: log1p(f) as {@code hi + lo} with {@code hi = f -
   * hfsq}, and the products by 1/ln10 with their exact errors (FreeBSD's e_log10.c, with fma).
   */
  private V log10(V x) {
    LogParts p = logParts(x, true);
    V f = p.f;
    V s = let("s", f.div(f.add(TWO)));
    V z = let("z", s.mul(s));
    V r = let("r", horner(z, poly(LOG_F, LOG_D)).mul(z));
    V hfsq = let("hfsq", f.mul(f).mul(HALF));
    V hi = let("hi", f.sub(hfsq));
    V lo = let("lo", f.sub(hi).sub(hfsq).add(s.mul(hfsq.add(r))));
    V t = let("t", p.k.mul(LOG10_2_HI)); // exact
    V prod = let("prod", hi.mul(INV_LN10_HI));
    V prodErr = let("prodError", hi.fma(INV_LN10_HI, prod.neg()));
    V w = let("w", t.add(prod));
    V small = let("small", twoSumError(t, prod, w).add(prodErr)
        .add(hi.fma(INV_LN10_LO, lo.fma(INV_LN10_HI, p.k.mul(LOG10_2_LO)))));
    return logSpecials(w.add(small), x);
  }

  // ------------------------------------------------------------------------------ sin, cos, tan

  /** |x| - q pi/2 as {@code hi + lo}, |hi| <= pi/4 (slightly more where q rounded the other way). */
  private record Reduced(V ax, V magic, V hi, V lo) {}

  private Reduced reduce(V x) {
    V ax = let("ax", x.abs());
    V magic = let("quadrant", ax.fma(TWO_OVER_PI, MAGIC));
    return reduce(ax, magic);
  }

  /** {@code v - q pi/2} for the quotient q in {@code magic}, as {@link #reduce(V)} describes. */
  private Reduced reduce(V ax, V magic) {
    V q = quotient(magic);
    V r1 = let("r1", q.fma(neg(PIO2_1), ax)); // exact
    // r1 - q pi2 (rounded), with the exact errors of the product (two-product) and the difference
    // (two-sum) moved into the tail.
    V t = let("t", q.mul(PIO2_2));
    V head = let("head", r1.sub(t));
    V back = let("back", head.sub(r1));
    V sumErr = let("sumError", r1.sub(head.sub(back)).sub(t.add(back)));
    V tail = let("tail", q.fma(neg(PIO2_3), sumErr.sub(q.fma(PIO2_2, t.neg()))));
    V hi = let("hi", head.add(tail));
    V lo = let("lo", tail.sub(hi.sub(head)));
    return new Reduced(ax, magic, hi, lo);
  }

  /** The part of {@code sin(hi + lo)} after hi: {@code hi z S(z) + lo (1 - z/2)}. */
  private V sinTail(Reduced r, V z) {
    V p = let("sinPoly", horner(z, poly(SIN_F, SIN_D)));
    return let("sinTail", r.hi.mul(z).fma(p, z.mul(k(-0.5)).fma(r.lo, r.lo)));
  }

  /**
   * The part of {@code cos(hi + lo)} after {@code head = 1 - z/2}: the head's rounding error
   * (exact: fdlibm's {@code (1 - w) - z/2}), z's own rounding error halved, {@code z^2 C(z)} and
   * {@code -hi lo}.
   */
  private V cosTail(Reduced r, V z, V head) {
    V p = let("cosPoly", horner(z, poly(COS_F, COS_D)));
    V headErr = let("headError", head.neg().add(ONE).sub(z.mul(HALF)));
    V small = let("small", r.hi.neg().fma(r.lo, r.hi.fma(r.hi, z.neg()).mul(k(-0.5))));
    return let("cosTail", headErr.add(z.mul(z).fma(p, small)));
  }

  private V trig(MathFunction fn, V x) {
    Reduced r = reduce(x);
    V z = let("z", r.hi.mul(r.hi));
    V st = sinTail(r, z);
    V ch = let("cosHead", z.fma(k(-0.5), ONE));
    V ct = cosTail(r, z, ch);
    V odd = let("odd", r.magic.bits().and(1).fp().cmp("NE", ZERO));
    V result;
    String name = fn.javaName();
    int signShift = single ? 30 : 62;
    if (fn == MathFunction.TAN) {
      // sin/cos, or -cos/sin in odd quadrants: quotients of a head and a tail each.
      V t = let("tanQuotient", divide(r.hi.blend(ch, odd), st.blend(ct, odd), ch.blend(r.hi, odd),
          ct.blend(st, odd)));
      result = flipSign(t.blend(t.neg(), odd), signBit(x));
    } else {
      V s = let("sinReduced", r.hi.add(st));
      V c = let("cosReduced", ch.add(ct));
      if (fn == MathFunction.SIN) {
        // sin(d + q pi/2) is -sin(d) or -cos(d) for q = 2, 3 (mod 4); sin is odd.
        V sign = r.magic.bits().and(2).shl(signShift).xor(signBit(x));
        result = flipSign(s.blend(c, odd), sign);
      } else {
        // cos(d + q pi/2) is -sin(d) or -cos(d) for q = 1, 2 (mod 4).
        result = flipSign(c.blend(s, odd), r.magic.bits().add(1).and(2).shl(signShift));
      }
    }
    V fast = let(name + "Fast", result);
    V huge = let("huge", r.ax.cmp("GE", TRIG_MAX));
    return new V(CodeBlock.of("$L.anyTrue()\n    ? $T.strictLanes($L, $L, $L, $T.$L)\n    : $L",
        huge.code, VECTOR_MATH, x.code, fast.code, huge.code, VECTOR_MATH.nestedClass("Function"),
        fn.name(), fast.code), Kind.FLOATING);
  }

  /**
   * float32 sin and cos in about half the operations of {@link #trig} (issue 28), within 1 ulp
   * over every float32 (docs/vector-math.md). Three differences:
   *
   * <ul>
   *   <li>A short reduction of the signed x: {@code r1 = x - q p1} (exact), {@code hi = r1 - q p2}
   *       rounded, and its error {@code (r1 - hi) - q p2}, exact where {@code |q p2| <= |hi|/2}
   *       (then r1 - hi is exact by Sterbenz's lemma): it is wherever {@code |hi| >= 4e-7 |x|}. The
   *       other lanes (arguments within about 2^-21 |x| of a multiple of pi/2, NaN, infinities,
   *       |x| from 2.5e6 on) are rare: a vector that holds one takes {@link #reduce}'s two-sum
   *       reduction for them, and {@code StrictMath} from 2^18 on, as before.
   *   <li>Both polynomials of degree 2 in z (they were of degree 3: remez.py's error is 2^-27
   *       and 2^-32 of the result).
   *   <li>The low part negated ({@code negLo}) and the sine's tail subtracted, so that no
   *       operation negates anything and a zero x keeps its sign (p1 is pi/2 rounded down, so
   *       {@code q p2} is +0 at q = 0 and {@code -0 - (+0)} stays -0).
   * </ul>
   *
   * <p>The quadrant picks sine or cosine, and the sign, from the quotient's low bits (two's
   * complement, so a negative q works as well).
   */
  private V trigFloat(boolean cos, V x) {
    V magic = let("quadrant", x.fma(TWO_OVER_PI, MAGIC));
    V q = quotient(magic);
    V r1 = let("r1", q.fma(neg(PIO2_DOWN_1), x)); // exact
    V hi = let("hi", q.fma(neg(PIO2_DOWN_2), r1));
    V negLo = let("negLo", q.fma(PIO2_DOWN_3, q.fma(PIO2_DOWN_2, hi.sub(r1))));
    V z = let("z", hi.mul(hi));
    // Not min(z, 1) >= x^2 c^2: NaN lanes are rare too, and so are huge ones, where hi and x^2 may
    // both overflow (inf >= inf) but x^2 c^2 passes 1 from |x| = 2.5e6 on (valid lanes have z <=
    // (pi/4)^2).
    // min(z, 1) on the bits (z >= +0, or NaN where x is infinite or NaN and the comparison fails
    // anyway): one instruction instead of a floating min's six, the same mask.
    V rare = let("trigRare",
        z.bits().minBits(oneBits()).fp().cmp("GE", x.mul(x).mul(TRIG_SHORT_SQUARED)).not());
    code.out.beginControlFlow("if ($L.anyTrue())", rare.code);
    Reduced exact = reduce(x, magic);
    code.out.addStatement("$L = $L", hi.code, hi.blend(exact.hi(), rare).code);
    code.out.addStatement("$L = $L", negLo.code, negLo.blend(exact.lo().neg(), rare).code);
    code.out.addStatement("$L = $L", z.code, hi.mul(hi).code);
    code.out.endControlFlow();
    // sin(hi + lo) = hi + (hi z S(z) + lo); cos(hi + lo) = 1 - hi^2/2 + z^2 C(z) - hi lo, with the
    // head 1 - hi^2/2 rounded once (fma) and its rounding error, (1 - head) - hi^2/2, exact.
    V sinTail = let("sinTail", hi.mul(z).fma(horner(z, SIN_SHORT_NEGATED_F), negLo));
    V minusHalfHi = let("minusHalfHi", hi.mul(k(-0.5)));
    V cosHead = let("cosHead", minusHalfHi.fma(hi, ONE));
    V cosHeadError = let("cosHeadError", minusHalfHi.fma(hi, splat(ONE).sub(cosHead)));
    V cosTail = let("cosTail", z.mul(z).fma(horner(z, COS_SHORT_F), hi.fma(negLo, cosHeadError)));
    // sin(d + q pi/2) is sin d, cos d, -sin d, -cos d for q = 0, 1, 2, 3 (mod 4); cos(d + q pi/2)
    // is sin(d + (q + 1) pi/2).
    V bits = magic.bits();
    V useCos = let("useCos", bits.and(1).fp().cmp(cos ? "EQ" : "NE", ZERO));
    V result = hi.sub(sinTail).blend(cosHead.add(cosTail), useCos);
    V sign = (cos ? bits.add(1) : bits).and(2).shl(30);
    V fast = let(cos ? "cosFast" : "sinFast", flipSign(result, sign));
    return ifAnyBlock(cos ? "cos" : "sin", rare, fast, () -> {
      // From 2^18 on (and at NaN and infinities) StrictMath, lane by lane, as in trig().
      V huge = let("huge", x.abs().cmp("LT", TRIG_MAX).not());
      return ifAnyBlock("strict", huge, fast, () -> {
        V strict = let("strictLanes", new V(CodeBlock.of("$T.strictLanes($L, $L, $L, $T.$L)",
            VECTOR_MATH, x.code, fast.code, huge.code, VECTOR_MATH.nestedClass("Function"),
            cos ? "COS" : "SIN"), Kind.FLOATING));
        return strict.blend(NAN, strict.cmp("NE", strict));
      });
    });
  }

  /**
   * {@code (nh + nl) / (dh + dl)} to about half an ulp: the quotient of the rounded sums, corrected
   * by the exact residual of the division and the sums' rounding errors.
   */
  private V divide(V nh, V nl, V dh, V dl) {
    V n = let("numerator", nh.add(nl));
    V d = let("denominator", dh.add(dl));
    V nErr = let("nError", nl.sub(n.sub(nh)));
    V dErr = let("dError", dl.sub(d.sub(dh)));
    V q = let("quotient", n.div(d));
    V residual = let("residual", q.neg().fma(d, n).add(q.neg().fma(dErr, nErr)));
    return q.add(residual.div(d));
  }

  // ------------------------------------------------------------------------------ hyperbolic

  /** tanh(|x|) below atanh(1/2): {@code ax + ax z T(z)}. */
  private V tanhSmall(V ax) {
    V z = let("z", ax.mul(ax));
    V p = let("tanhPoly", horner(z, poly(TANH_F, TANH_D)));
    return let("tanhSmall", ax.mul(z).fma(p, ax));
  }

  /**
   * {@code 1 - 2 / (e^2|x| + 1)} above atanh(1/2) (no cancellation once the result passes 1/2),
   * with e^2|x| as a head and a tail, and the division corrected by its exact residual.
   */
  private V tanh(V x) {
    if (single) {
      return tanhFloat(x);
    }
    V ax = let("ax", x.abs());
    V small = tanhSmall(ax);
    // tanh(10) and tanh(20) round to 1 in float and double; the clamp keeps q small.
    ExpParts e = expParts(ax.add(ax).min(k(20, 40)));
    V scale = let("scale", pow2(quotientBits(e.magic)));
    V big = let("big", e.head.mul(scale));
    V d = let("denominator", big.add(ONE));
    V dLow = let("denominatorLow", big.sub(d).add(ONE).add(e.tail.mul(scale)));
    V y = let("twoOverD", splat(TWO).div(d));
    V residual = let("residual", y.neg().fma(d, TWO).sub(y.mul(dLow)));
    V large = let("tanhLarge", residual.mul(y).fma(HALF, y).neg().add(ONE));
    V r = large.blend(small, ax.cmp("LT", k(0.54930615f, 0.5493061443340549)));
    return flipSign(r, signBit(x));
  }

  /**
   * float32 tanh in fewer operations than {@link #tanh}'s double-word form (issue 28: 41 vector
   * operations instead of 55), within 1 ulp over every float32 (docs/vector-math.md). Below 0.8:
   * {@code ax + ax z T(z)} ({@code TANH_WIDE_F}: the wider branch needs one coefficient more than
   * double's 0.549, and its product term stays under a fifth of the result, so its rounding
   * errors stay small). From 0.8 on: {@code (1 - w)/(1 + w)} with {@code w = e^-2|x|} (at most
   * 0.2) from a plain polynomial for e^r ({@code EXP_DIRECT_F}, about an ulp): its error reaches
   * the result damped by {@code 2w/(1 + w)^2 <= 0.28}. Numerator and denominator are exact pairs
   * and the quotient is corrected by its residual, so the correcting fused multiply-add is the only
   * large rounding (0.8146 ulp at most over every float32 from 0.8 on, {@code
   * tools/vmath/TanhModel.java}). tanh rounds to 1 from 9.01 on: the clamp at 9.1 keeps 2^q a
   * normal number.
   */
  private V tanhFloat(V x) {
    V ax = let("ax", x.abs());
    V z = let("z", ax.mul(ax));
    V p = let("tanhPoly", horner(z, TANH_WIDE_F));
    V small = let("tanhSmall", ax.mul(z).fma(p, ax));
    // |x| clamped at 9.1 on the bits (one instruction, a floating min is six): NaN lanes become
    // 9.1 here, so they take the small branch below, whose result is NaN.
    V t = let("minusTwoAx", ax.bits().minBits(Float.floatToRawIntBits(9.1f)).fp().mul(k(-2)));
    V magic = expMagic(t);
    V q = quotient(magic);
    V r = let("r", q.fma(neg(LN2_LO), q.fma(neg(LN2_HI), t)));
    V u = let("expR", horner(r, EXP_DIRECT_F));
    V w = let("w", scaleByQuotient(u, magic)); // 2^-27 <= w <= 2^0.5: normal
    // (1 - w)/(1 + w), numerator and denominator as exact pairs: w - 1 = m + e (fast two-sum,
    // |w| <= 1) and 1 + w = d + dLow (d - 1 exact); the quotient q0 = m (-1/d) corrected by its
    // residual q0 (d + dLow) + (m + e), the first product exact by fma, so the correcting fused
    // multiply-add is the one large rounding. -1/d spares the negations.
    V m = let("wMinusOne", w.sub(ONE));
    V e = let("wMinusOneError", w.sub(m.add(ONE)));
    V d = let("denominator", w.add(ONE));
    V dLow = let("denominatorLow", splat(ONE).sub(d).add(w));
    V negInv = let("minusInverse", splat(k(-1)).div(d));
    V q0 = let("quotient", m.mul(negInv));
    V residual = let("residual", q0.fma(dLow, q0.fma(d, m).add(e)));
    V large = let("tanhLarge", residual.fma(negInv, q0));
    return flipSign(small.blend(large, ax.cmp("GE", k(0.8f))), signBit(x));
  }

  /** {@code e^|x| / 2} as a head and a tail: |x| clamped where the results have overflowed. */
  private V[] halfExp(V ax) {
    ExpParts e = expParts(ax.min(k(100, 712)));
    V k = let("halfQ", quotientBits(e.magic).sub(1));
    return new V[] {let("halfHead", scale(e.head, k)), let("halfTail", scale(e.tail, k))};
  }

  /** Below 1: {@code ax + ax z H(z)}; above: {@code h - 1/(4h)} with {@code h = e^|x| / 2}. */
  private V sinh(V x) {
    V ax = let("ax", x.abs());
    V z = let("z", ax.mul(ax));
    V p = let("sinhPoly", horner(z, poly(SINH_F, SINH_D)));
    V small = let("sinhSmall", ax.mul(z).fma(p, ax));
    V[] h = halfExp(ax);
    V large = let("sinhLarge", h[0].add(h[1].sub(splat(k(0.25)).div(h[0]))));
    return flipSign(large.blend(small, ax.cmp("LT", ONE)), signBit(x));
  }

  /** {@code h + 1/(4h)} with {@code h = e^|x| / 2} as a head and a tail. */
  private V cosh(V x) {
    V ax = let("ax", x.abs());
    V[] h = halfExp(ax);
    return h[0].add(h[1].add(splat(k(0.25)).div(h[0])));
  }

  // ------------------------------------------------------------------------------ sigmoid

  /**
   * The argument x of {@code 1 / (1 + Math.exp(-x))} (the sum in either order), the body of the
   * built-in {@code sigmoid} and of users' own, or null: a float-lane kernel writes it as one core
   * ({@link #sigmoid}) instead of exp, an addition and a division (2.3 ulp, 0 for the subnormal
   * results below -88.7).
   */
  static Expr sigmoidArgument(Expr.Binary b) {
    if (b.op() != Expr.BinaryOp.DIV || !isOne(b.left())
        || !(b.right() instanceof Expr.Binary sum) || sum.op() != Expr.BinaryOp.ADD) {
      return null;
    }
    Expr e = isOne(sum.left()) ? sum.right() : isOne(sum.right()) ? sum.left() : null;
    if (e instanceof Expr.Call c && c.function() == MathFunction.EXP
        && c.args().get(0) instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NEG) {
      return u.operand();
    }
    return null;
  }

  private static boolean isOne(Expr e) {
    return e instanceof Expr.Literal l && l.value() instanceof Number && l.doubleValue() == 1;
  }

  /** The fused {@code 1 / (1 + e^-x)} of float lanes ({@link #sigmoidArgument}). */
  Value sigmoid(Value x) {
    if (!single) {
      throw new IllegalArgumentException("the fused sigmoid is written for float lanes: " + lane);
    }
    return let("sigmoid", sigmoidFloat(new V(x.code(), Kind.FLOATING))).value();
  }

  /** {@code e^-ax = (head + low) 2^-q} for {@code ax >= 0}, the pair normalized. */
  private record ExpNeg(V magic, V head, V low) {}

  /**
   * {@code e^-ax} by exp's reduction and polynomial ({@code EXPM1_F}, with the argument's sign
   * folded into the coefficients): {@code m = ax - q ln2} as {@code mHi} (exact) and its low part,
   * {@code e^-m = 1 - mHi + tail}, the sum fast-two-summed twice so that the head and its low part
   * carry e^-m to about 2^-40: the sigmoid of a negative x is e^-ax's quotient, which passes its
   * error on almost undamped.
   */
  private ExpNeg expNegParts(V ax) {
    V magic = let("sigmoidMagic", ax.fma(neg(LOG2E), MAGIC)); // 1.5 2^23 - q
    V qn = let("minusQ", magic.sub(MAGIC));
    V mh = let("mHi", qn.fma(LN2_HI, ax)); // exact (Cody-Waite)
    V nml = let("minusMLow", qn.mul(neg(LN2_LO)));
    V m = let("m", mh.sub(nml));
    V p = let("p", horner(m, EXPM1_NEG_F));
    V tail = let("tail", m.mul(m).fma(p, nml));
    V a = let("oneMinusMHi", splat(ONE).sub(mh));
    V low = let("low", splat(ONE).sub(a).sub(mh).add(tail)); // 1 - a - mHi exact: |mHi| < 1/2
    V head = let("head", a.add(low));
    return new ExpNeg(magic, head, let("headLow", a.sub(head).add(low)));
  }

  /**
   * float32 {@code 1 / (1 + e^-x)} within 1 ulp of the exact value over every float32 (issue 28
   * item 2, docs/vector-math.md: 0.75 ulp, subnormal results included): with {@code w = e^-|x|}
   * (at most 1), {@code 1 / (1 + w)} for x >= 0 and {@code w / (1 + w)} for x < 0, both as a
   * quotient {@code n / d} whose numerator and denominator are carried as exact pairs, corrected
   * by the division's residual, so the correction's fused multiply-add is the one large rounding.
   * For x < 0 the quotient is taken of e^-m (before its 2^-q) and scaled after rounding, exactly.
   * Where |x| <= 87 2^-q is a normal number; the other lanes are rare: 1 above 87, e^x (which the
   * sigmoid equals to 2^-125 there) scaled in two exact steps below -87 (so subnormal results round
   * once; 0 from -104), and NaN. -0.0 gives 1/2. {@code tools/vmath/SigmoidModel.java} is its
   * scalar twin (the same operations in the same order).
   */
  private V sigmoidFloat(V x) {
    V ax = let("ax", x.abs());
    ExpNeg e = expNegParts(ax);
    V p2 = let("pow2MinusQ",
        e.magic.bits().add(bias() - magicBits()).shl(mantissaBits()).fp());
    V w = let("w", e.head.mul(p2));
    V d = let("denominator", w.add(ONE));
    // 1 + w's exact rounding error (d - 1 is exact), then w's low part.
    V dLow = let("denominatorLow", splat(ONE).sub(d).add(w).add(e.low.mul(p2)));
    V inv = let("inverse", splat(ONE).div(d));
    V negative = let("negative", x.cmp("LT", ZERO));
    V n = let("numerator", splat(ONE).blend(e.head, negative));
    V nLow = let("numeratorLow", splat(ZERO).blend(e.low, negative));
    V y = let("y", n.mul(inv));
    V minusY = let("minusY", y.neg());
    // (n + nLow) - y (d + dLow): the division's residual, its first product exact (fma).
    V residual = let("residual", minusY.fma(dLow, minusY.fma(d, n)).add(nLow));
    V quotient = let("quotient", residual.fma(inv, y));
    V fast = let("sigmoidFast", quotient.mul(splat(ONE).blend(p2, negative)));
    V rare = let("sigmoidRare", absAbove(ax.bits(), k(87))); // NaN lanes too
    return ifAnyBlock("sigmoidResult", rare, fast, () -> {
      ExpNeg f = expNegParts(let("axClamped", ax.min(k(104)))); // e^-104 rounds to 0
      V kq = let("minusQBits", quotientBits(f.magic));
      V half = let("halfMinusQ", kq.ashr(1));
      V ph = let("pow2Half", pow2(half));
      V tiny = f.head.mul(ph).add(f.low.mul(ph)).mul(pow2(kq.subBits(half)));
      return fast.blend(tiny.blend(ONE, x.cmp("GT", ZERO)).blend(NAN, x.cmp("NE", x)),
          ax.cmp("LE", k(87)).not());
    });
  }

  // ------------------------------------------------------------------------------ pow

  /**
   * {@code |x|^y = e^(y log|x|)} with log|x| in double-word arithmetic (about 2^-70 relative
   * error in double), so that y log|x| keeps the bits e^ needs; then Java's special cases.
   */
  private V pow(V x, V y) {
    V ax = let("ax", x.abs());
    LogParts p = logParts(ax, true);
    V f = p.f;
    // s = f / (2 + f) as sh + sl.
    V d = let("twoPlusF", f.add(TWO));
    V dLow = let("twoPlusFLow", d.neg().add(TWO).add(f));
    V sh = let("sh", f.div(d));
    V sl = let("sl", sh.neg().fma(d, f).sub(sh.mul(dLow)).div(d));
    // z = s^2 as zh + zl.
    V zh = let("zh", sh.mul(sh));
    V zl = let("zl", sh.fma(sh, zh.neg()).add(sh.add(sh).mul(sl)));
    // u = 2/3 + z W(z) as uh + ul.
    V c = let("c", zh.mul(horner(zh, poly(POWLOG_F, POWLOG_D))));
    V uh = let("uh", c.add(TWO_THIRDS_HI));
    V ul = let("ul", uh.neg().add(TWO_THIRDS_HI).add(c).add(TWO_THIRDS_LO));
    // w = z u, then v = s w, each as a head and a tail.
    V wh = let("wh", zh.mul(uh));
    V wl = let("wl", zh.fma(uh, wh.neg()).add(zh.mul(ul)).add(zl.mul(uh)));
    V vh = let("vh", sh.mul(wh));
    V vl = let("vl", sh.fma(wh, vh.neg()).add(sh.mul(wl)).add(sl.mul(wh)));
    // log(1 + f) = 2s + v, then + k ln2: normalised to lh + ll.
    V s2 = let("s2", sh.add(sh));
    V l1 = let("l1", s2.add(vh));
    V l1Low = let("l1Low", s2.sub(l1).add(vh).add(sl.add(sl)).add(vl));
    V kh = let("kh", p.k.mul(LOG_LN2_HI)); // exact
    V l0 = let("l0", kh.add(l1));
    V l0Low = let("l0Low", twoSumError(kh, l1, l0).add(l1Low).add(p.k.mul(LOG_LN2_LO)));
    V lh = let("lh", l0.add(l0Low));
    V ll = let("ll", l0Low.sub(lh.sub(l0)));
    // y log|x| as ph + pl; e^(ph + pl) with pl joining the reduction's tail.
    V ph = let("ph", y.mul(lh));
    V pl = let("pl", y.fma(lh, ph.neg()).add(y.mul(ll)));
    // Past +-170 (1400) the result has overflowed or underflowed; the clamp keeps q in scale()'s
    // range and pl (perhaps inf - inf there) out of the sum.
    K limit = k(170, 1400);
    V phc = let("phClamped", ph.max(neg(limit)).min(limit));
    V plc = let("plClamped", pl.blend(ZERO, ph.abs().cmp("GE", limit)));
    V magic = expMagic(phc);
    V q = quotient(magic);
    V hi = let("expHi", q.fma(neg(LN2_HI), phc)); // exact
    V tail = expTail(hi, q.fma(neg(LN2_LO), plc));
    V r = let("powCore", scale(hi.add(tail).add(ONE), quotientBits(magic)));
    return powSpecials(r, x, y, ax);
  }

  /** Java's rules for pow's special arguments (Math.pow's javadoc, in order of precedence). */
  private V powSpecials(V core, V x, V y, V ax) {
    V ay = let("ay", y.abs());
    K unit = k(0x1p23, 0x1p52);
    V yInteger = let("yInteger", ay.add(unit).sub(unit).cmp("EQ", ay).or(ay.cmp("GE", unit)));
    V parity = ay.add(unit).blend(ay, ay.cmp("GE", unit)).bits().and(1).fp().cmp("NE", ZERO);
    V yOdd = let("yOdd", parity.and(yInteger).and(ay.cmp("LT", k(0x1p24, 0x1p53))));
    V yPositive = let("yPositive", y.cmp("GT", ZERO));
    V r = core;
    // y = +-inf: inf or 0 as |x| is above or below 1 (and y's sign); NaN at |x| = 1.
    V yInf = let("yInfinite", ay.cmp("EQ", INF));
    V beyond = splat(ZERO).blend(INF, ax.cmp("GT", ONE).eq(yPositive));
    r = let("powInfiniteY", r.blend(beyond, yInf).blend(NAN, yInf.and(ax.cmp("EQ", ONE))));
    // x = +-0 or +-inf: 0 or inf by y's sign.
    V xZero = let("xZero", ax.cmp("EQ", ZERO));
    V edge = splat(INF).blend(ZERO, xZero.eq(yPositive));
    r = let("powEdgeX", r.blend(edge, xZero.or(ax.cmp("EQ", INF))));
    // A negative x (-0 and -inf included) to an odd integer power is negative; a negative finite x
    // to a non-integer power is NaN.
    r = let("powSigned", r.blend(r.neg(), negativeMask(x).and(yOdd)));
    r = r.blend(NAN, x.cmp("LT", ZERO).and(x.cmp("GT", NEG_INF)).andNot(yInteger));
    r = let("powNaN", r.blend(NAN, x.cmp("NE", x).or(y.cmp("NE", y))));
    return r.blend(ONE, y.cmp("EQ", ZERO)).blend(x, y.cmp("EQ", ONE));
  }

  // ------------------------------------------------------------------------------ hypot

  /**
   * {@code sqrt(big^2 + small^2)} on operands scaled by a power of two so the squares neither
   * overflow nor underflow, then Borges' correction {@code h - (h^2 - big^2 - small^2) / 2h} with
   * the squares' exact errors (fma): correctly rounded in all but rare cases.
   */
  private V hypot(V x, V y) {
    V ax = let("ax", x.abs());
    V ay = let("ay", y.abs());
    V big = let("big", ax.max(ay));
    V small = let("small", ax.min(ay));
    V scale = let("scale", splat(ONE).blend(k(0x1p-70, 0x1p-600), big.cmp("GT", k(0x1p50, 0x1p500)))
        .blend(k(0x1p100, 0x1p600), big.cmp("LT", k(0x1p-50, 0x1p-500))));
    V b = let("b", big.mul(scale));
    V s = let("s", small.mul(scale));
    V h = let("h", b.fma(b, s.mul(s)).sqrt());
    V h2 = let("h2", h.mul(h));
    V b2 = let("b2", b.mul(b));
    V delta = let("delta", s.neg().fma(s, h2.sub(b2)).add(h.fma(h, h2.neg()))
        .sub(b.fma(b, b2.neg())));
    V r = let("hypotCorrected", h.sub(delta.div(h.add(h))).div(scale));
    return r.blend(ZERO, big.cmp("EQ", ZERO)).blend(INF, ax.cmp("EQ", INF).or(ay.cmp("EQ", INF)));
  }

  // ------------------------------------------------------------------------------ atan family

  /**
   * atan(n / d) for 0 <= n <= d, plus a constant angle, with fdlibm's reduction: below 7/16
   * directly; then {@code atan(1/2) + atan((2n - d) / (2d + n))}, then {@code pi/4 + atan((n -
   * d) / (n + d))}, each reduced argument one rounding. The constant angle and the sign of the atan
   * term come from {@code swap} (the angle is pi/2 minus it) and {@code xNegative} (pi minus it):
   * the sum is {@code hi + (sign atan(t) + lo)}, one large rounding.
   */
  private V atanReduced(V n, V d, V swap, V xNegative) {
    V t = let("ratio", n.div(d));
    V r1 = let("region1", t.cmp("GE", k(0.4375)));
    V r2 = let("region2", t.cmp("GE", k(0.6875)));
    V num = let("num", n.blend(n.add(n).sub(d), r1).blend(n.sub(d), r2));
    V den = let("den", d.blend(d.add(d).add(n), r1).blend(n.add(d), r2));
    // 0 / 0 (both operands zero) is a zero angle.
    V tr = let("t", num.div(den).blend(ZERO, d.cmp("EQ", ZERO).and(n.cmp("EQ", ZERO))));
    // The quotient's rounding error (its exact residual over den), through atan' = 1/(1 + t^2).
    V trLow = let("tLow", tr.neg().fma(den, num).div(den)
        .blend(ZERO, den.cmp("EQ", INF).or(den.cmp("EQ", ZERO))));
    V z = let("z", tr.mul(tr));
    V p = let("atanPoly", horner(z, poly(ATAN_F, ATAN_D)));
    V a = let("atanTerm", tr.mul(z).fma(p, z.neg().fma(trLow, trLow)).add(tr));
    V negate = xNegative == null ? swap : swap.eq(xNegative).not();
    V signed = let("signedTerm", a.blend(a.neg(), negate));
    V hi = angle(true, r1, r2, swap, xNegative);
    V lo = angle(false, r1, r2, swap, xNegative);
    return hi.add(signed.add(lo));
  }

  /** The base angles 0, atan(1/2), pi/4 of the regions, swapped and reflected, hi or lo part. */
  private V angle(boolean hi, V r1, V r2, V swap, V xNegative) {
    // base, pi/2 - base, pi - base, pi/2 + base for base 0, atan(1/2), pi/4.
    // tools/vmath/constants.py prints these: each angle rounded (hi) and its remainder (lo).
    double[][] f = {
        {0, 0.4636476f, 0.7853982f}, {1.5707964f, 1.1071488f, 0.7853982f},
        {3.1415927f, 2.6779451f, 2.3561945f}, {1.5707964f, 2.0344439f, 2.3561945f}};
    double[][] fLo = {
        {0, 5.0121587e-09f, -2.1855694e-08f}, {-4.371139e-08f, -4.872355e-08f, -2.1855694e-08f},
        {-8.742278e-08f, -9.243494e-08f, -5.9624403e-09f},
        {-4.371139e-08f, 8.0510056e-08f, -5.9624403e-09f}};
    double[][] d = {
        {0, 0.4636476090008061, 0.7853981633974483},
        {1.5707963267948966, 1.1071487177940904, 0.7853981633974483},
        {3.141592653589793, 2.677945044588987, 2.356194490192345},
        {1.5707963267948966, 2.0344439357957027, 2.356194490192345}};
    double[][] dLo = {
        {0, 2.2698777452961687e-17, 3.061616997868383e-17},
        {6.123233995736766e-17, 9.40447137356638e-17, 3.061616997868383e-17},
        {1.2246467991473532e-16, 1.5527705369303147e-16, 9.184850993605148e-17},
        {6.123233995736766e-17, 2.841996617907152e-17, 9.184850993605148e-17}};
    double[][] v = single ? (hi ? f : fLo) : (hi ? d : dLo);
    V[] byCase = new V[xNegative == null ? 2 : 4];
    for (int c = 0; c < byCase.length; c++) {
      byCase[c] = splat(k(v[c][0])).blend(k(v[c][1]), r1).blend(k(v[c][2]), r2);
    }
    V a = byCase[0].blend(byCase[1], swap);
    if (xNegative != null) {
      a = a.blend(byCase[2].blend(byCase[3], swap), xNegative);
    }
    return let(hi ? "angle" : "angleLow", a);
  }

  private V atan(V x) {
    V ax = let("ax", x.abs());
    V swap = let("swap", ax.cmp("GT", ONE));
    V r = atanReduced(ax.blend(ONE, swap), splat(ONE).blend(ax, swap), swap, null);
    return flipSign(r, signBit(x));
  }

  private V atan2(V y, V x) {
    V ay = let("ay", y.abs());
    V ax = let("ax", x.abs());
    V swap = let("swap", ay.cmp("GT", ax));
    // Both infinite: the angle of (1, 1).
    V infinite = let("bothInfinite", ay.cmp("EQ", INF).and(ax.cmp("EQ", INF)));
    V n = let("minor", ay.blend(ax, swap).blend(ONE, infinite));
    V d = let("major", ax.blend(ay, swap).blend(ONE, infinite));
    V r = atanReduced(n, d, swap, let("xNegative", negativeMask(x)));
    return flipSign(r, signBit(y));
  }

  /**
   * Up to 1/2: {@code x + x z B(z)}. Above: {@code pi/2 - 2 asin(sqrt((1 - |x|) / 2))} with the
   * square root's exact error; acos is {@code pi/2 - asin} below 1/2, {@code 2 asin(s)} and {@code
   * pi - 2 asin(s)} above. One polynomial serves both sides.
   */
  private V asinOrAcos(boolean acos, V x) {
    V ax = let("ax", x.abs());
    V big = let("big", ax.cmp("GT", HALF));
    V zb = let("zb", ax.neg().add(ONE).mul(HALF)); // exact above 1/2
    V z = let("z", ax.mul(ax).blend(zb, big));
    V root = let("root", zb.sqrt());
    V rootLow = let("rootLow", root.neg().fma(root, zb).div(root.add(root))
        .blend(ZERO, zb.cmp("EQ", ZERO)));
    V u = let("u", ax.blend(root, big));
    V p = let("asinPoly", horner(z, poly(ASIN_F, ASIN_D)));
    V tail = let("asinTail", u.mul(z).mul(p));
    // 2 asin(root) = 2 root + 2 (rootLow + tail)
    V twice = let("twice", rootLow.add(tail).mul(TWO));
    V root2 = let("root2", root.add(root));
    if (!acos) {
      V small = ax.add(tail);
      V large = differenceFrom(PIO2_1, PIO2_2, root2, twice);
      return flipSign(let("asinAbs", small.blend(large, big)), signBit(x));
    }
    V small = let("acosSmall", differenceFrom(PIO2_1, PIO2_2, x, flipSign(tail, signBit(x))));
    V positive = let("acosPositive", root2.add(twice));
    V negative = let("acosNegative", differenceFrom(PI_HI, PI_LO, root2, twice));
    return small.blend(positive, big).blend(negative, big.and(x.cmp("LT", ZERO)));
  }

  /**
   * {@code (hi + lo) - (a + b)} for a constant {@code hi + lo} at least {@code |a|} and a small b:
   * {@code hi - a} with its exact error (fast two-sum), so only the last rounding is large.
   */
  private V differenceFrom(K hi, K lo, V a, V b) {
    V d = let("difference", splat(hi).sub(a));
    V err = splat(hi).sub(d).sub(a);
    return d.add(err.sub(b.sub(lo)));
  }

  // ------------------------------------------------------------------------------ cbrt

  /**
   * {@code |x| = m 2^(3e)} with m in [1, 8): a polynomial first guess of cbrt(m), one step of
   * Halley's iteration, the guess rounded to a third of the precision (so its square is exact) and
   * fdlibm's last step {@code t + t (m/t^2 - t) / (2t + m/t^2)}, then the exponent e.
   */
  private V cbrt(V x) {
    V ax = let("ax", x.abs());
    V subnormal = let("subnormal", ax.cmp("LT", MIN_NORMAL));
    V normal = let("normal", ax.blend(ax.mul(k(0x1p24, 0x1p54)), subnormal));
    V bits = let("cbrtBits", normal.bits());
    // n = biased exponent + (0 or 2) so that bias + offset is a multiple of 3; n / 3 by multiply.
    long offset = single ? 2 : 0;
    V n = let("biasedExponent", bits.lshr(mantissaBits()).add(offset));
    V third = let("third", n.mul(21846).ashr(16));
    V rem = let("rem", n.subBits(third.mul(3)));
    V m = let("m", bits.and(mantissaMask()).addBits(rem.add(bias()).shl(mantissaBits())).fp());
    V t = let("guess", horner(m, poly(CBRT_F, CBRT_D)));
    V t3 = let("guessCubed", t.mul(t).mul(t));
    t = let("halley", t.mul(t3.add(m.add(m))).div(t3.add(t3).add(m)));
    t = let("rounded", t.bits().add(single ? 0x2000L : 0x80000000L)
        .and(single ? 0xfffff000L : 0xffffffffc0000000L).fp());
    V ratio = let("ratio", m.div(t.mul(t))); // t * t exact
    V step = let("step", ratio.sub(t).div(t.add(t).add(ratio)));
    t = let("root", t.fma(step, t));
    long exponentBias = (bias() + offset) / 3;
    V r = t.mul(pow2(third.sub(exponentBias)))
        .mul(splat(ONE).blend(k(0x1p-8, 0x1p-18), subnormal));
    V special = ax.cmp("EQ", ZERO).or(ax.cmp("EQ", INF)).or(ax.cmp("NE", ax));
    return flipSign(let("cbrtAbs", r.blend(ax, special)), signBit(x));
  }
}
