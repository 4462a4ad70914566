package dev.ufunc4j.processor;

import com.palantir.javapoet.CodeBlock;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the JDK's functions of a float's bits ({@code Math.nextUp nextDown nextAfter ulp
 * getExponent scalb}, issue 26 item 2) into a kernel as vector bit manipulation, with Java's
 * bits: each follows the JDK's own code (the bits reinterpreted as a long, stepped by one, the
 * exponent field read or written), so no lane is computed differently from the method.
 *
 * <p>In float lanes each is the {@code float} overload ({@code Math.nextUp(float)}, float's
 * {@code ulp}), since a float32 kernel computes its body in float32 arithmetic: {@code
 * Math.nextUp(x)} in a float32 kernel is the next float, as {@code torch.nextafter} steps a
 * float32 tensor in float32 (docs/processor.md, "Decisions").
 */
final class FloatBitsEmitter {

  private final VectorCode code;
  private final Lane lane;
  /** The lanes of the floating lane's bits (int for float, long for double). */
  private final Lane bits;

  FloatBitsEmitter(VectorCode code, Lane lane) {
    if (!lane.floating) {
      throw new IllegalArgumentException("float bits need floating lanes: " + lane);
    }
    this.code = code;
    this.lane = lane;
    this.bits = lane == Lane.FLOAT ? Lane.INT : Lane.LONG;
  }

  /**
   * Writes {@code fn} of the vector arguments and returns its result; {@code scale} is {@code
   * Math.scalb}'s constant scale factor (ignored by the others).
   */
  Value emit(MathFunction fn, List<Value> args, double scale) {
    Value x = code.named("bitsOf", args.get(0));
    return switch (fn) {
      case NEXT_UP -> nextUp(x);
      case NEXT_DOWN -> nextDown(x);
      case NEXT_AFTER -> nextAfter(x, code.named("direction", args.get(1)));
      case ULP -> ulp(x);
      case GET_EXPONENT -> getExponent(x);
      case SCALB -> scalb(x, scale);
      default -> throw new IllegalArgumentException("not a float-bits function: " + fn);
    };
  }

  /** {@code toBits(y) + (y >= 0 ? 1 : -1)} for {@code y = x + 0.0} (no -0.0), back as a float. */
  private CodeBlock stepAwayFromZeroMinus(CodeBlock x) {
    Value y = code.temp("stepped", Value.vector(CodeBlock.of("$L.add($L).$L()", x,
        VectorCode.literal(lane, 0.0), bitsMethod()), bits));
    return CodeBlock.of("$L.add($L.lanewise(ASHR, $L).or($L)).$L()", y.code(), y.code(),
        bits.bytes * 8 - 1, VectorCode.literal(bits, 1L), fromBitsMethod());
  }

  /**
   * Java's {@code nextUp}: below +inf, {@code x + 0.0} (so -0.0 steps from +0.0 to MIN_VALUE) one
   * bit pattern up in magnitude for non-negative values, down for negative ones; +inf and NaN
   * stay.
   */
  private Value nextUp(Value x) {
    return code.temp("nextUp", Value.vector(CodeBlock.of("$L.blend($L, $L.compare(LT, $L))",
        x.code(), stepAwayFromZeroMinus(x.code()), x.code(),
        VectorCode.literal(lane, Double.POSITIVE_INFINITY)), lane));
  }

  /** Java's {@code nextDown(x)}, which is {@code -nextUp(-x)} for every x (±0, ±inf, NaN). */
  private Value nextDown(Value x) {
    Value negated = code.temp("negated", Value.vector(CodeBlock.of("$L.neg()", x.code()), lane));
    return code.temp("nextDown",
        Value.vector(CodeBlock.of("$L.neg()", nextUp(negated).code()), lane));
  }

  /**
   * Java's {@code nextAfter(start, direction)}: {@code nextUp(start)} toward a larger direction,
   * {@code nextDown(start)} toward a smaller one, the direction where they are equal (so
   * {@code nextAfter(0.0, -0.0)} is -0.0), and {@code start + direction} (NaN) where unordered.
   */
  private Value nextAfter(Value start, Value direction) {
    Value up = nextUp(start);
    Value down = nextDown(start);
    return code.temp("nextAfter", Value.vector(CodeBlock.of(
        "$L.add($L).blend($L, $L.compare(EQ, $L))\n    .blend($L, $L.compare(LT, $L))"
            + "\n    .blend($L, $L.compare(GT, $L))",
        start.code(), direction.code(), direction.code(), start.code(), direction.code(),
        up.code(), start.code(), direction.code(), down.code(), start.code(), direction.code()),
        lane));
  }

  /**
   * Java's {@code ulp}: 2^(exponent - significand bits), read off the exponent field: that field
   * (the smallest normal's for zeros and subnormals, whose ulp is MIN_VALUE) as a power of two,
   * times 2^-52 (2^-23), exact; +inf for ±inf, and NaN for NaN (Java's {@code abs(NaN)}).
   */
  private Value ulp(Value x) {
    boolean f = lane == Lane.FLOAT;
    CodeBlock exponentMask = VectorCode.literal(bits, f ? 0x7F80_0000L : 0x7FF0_0000_0000_0000L);
    CodeBlock smallestNormal = VectorCode.literal(bits, f ? 1L << 23 : 1L << 52);
    CodeBlock scale = VectorCode.literal(lane, f ? 0x1p-23 : 0x1p-52);
    return code.temp("ulp", Value.vector(CodeBlock.of(
        "$L.$L().and($L).max($L).$L().mul($L)\n    .blend($L.abs(), $L.test(IS_NAN))",
        x.code(), bitsMethod(), exponentMask, smallestNormal, fromBitsMethod(), scale, x.code(),
        x.code()), lane));
  }

  /**
   * Java's {@code getExponent}: the biased exponent field minus the bias (so zeros and subnormals
   * give MIN_EXPONENT - 1, ±inf and NaN MAX_EXPONENT + 1), as a floating value: the field placed
   * in the significand of 2^52 (2^23) and 2^52 + bias subtracted, exactly.
   */
  private Value getExponent(Value x) {
    boolean f = lane == Lane.FLOAT;
    int significandBits = f ? 23 : 52;
    CodeBlock field = VectorCode.literal(bits, f ? 0xFFL : 0x7FFL);
    CodeBlock twoToTheSignificand = VectorCode.literal(bits, f ? 0x4B00_0000L : 0x4330_0000_0000_0000L);
    CodeBlock offset = VectorCode.literal(lane, f ? 0x1p23 + 127 : 0x1p52 + 1023);
    return code.temp("exponent", Value.vector(CodeBlock.of(
        "$L.$L().lanewise(LSHR, $L).and($L).or($L).$L().sub($L)", x.code(), bitsMethod(),
        significandBits, field, twoToTheSignificand, fromBitsMethod(), offset), lane));
  }

  /**
   * Java's {@code scalb(x, n)}: {@code x * 2^n} rounded once, as the JDK's documentation promises.
   * Multiplying by one power of two rounds once when 2^n is a float; otherwise in steps, and
   * only the last step may round: scaling up is exact until it overflows (to the infinity the
   * result is), and scaling down takes the steps of 2^-1022 (2^-126) last, so every earlier
   * product is at least 2^-53 (2^-24) where the result is not zero. The scale is clamped as the
   * JDK clamps it (beyond, every finite result is 0 or infinite).
   */
  private Value scalb(Value x, double scale) {
    boolean f = lane == Lane.FLOAT;
    int maxScale = f ? 278 : 2099;
    long n = (long) Math.max(-maxScale, Math.min(maxScale, scale));
    int up = f ? 127 : 1023;
    int down = f ? 126 : 1022;
    List<Long> steps = new ArrayList<>();
    if (n >= 0) {
      for (long rest = n; rest > 0; rest -= Math.min(rest, up)) {
        steps.add(Math.min(rest, up));
      }
    } else {
      long rest = n;
      while (rest < -down) {
        steps.add((long) -down);
        rest += down;
      }
      steps.addFirst(rest);
    }
    CodeBlock product = x.code();
    for (long step : steps) {
      product = CodeBlock.of("$L.mul($L)", product, VectorCode.literal(lane, Math.scalb(1.0,
          (int) step)));
    }
    return code.temp("scalb", Value.vector(product, lane));
  }

  private String bitsMethod() {
    return lane == Lane.FLOAT ? "reinterpretAsInts" : "reinterpretAsLongs";
  }

  private String fromBitsMethod() {
    return lane == Lane.FLOAT ? "reinterpretAsFloats" : "reinterpretAsDoubles";
  }
}
