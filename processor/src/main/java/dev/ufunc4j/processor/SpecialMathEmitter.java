package dev.ufunc4j.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import dev.ufunc4j.math.SpecialMathPolynomials;
import java.util.List;

/**
 * Writes the {@code dev.ufunc4j.math.SpecialMath} functions a body may call (issue 26 item 3)
 * into a kernel, with the same bits as the Java methods in every JIT tier and on every machine
 * (docs/vector-math.md, "Special functions").
 *
 * <p>{@code ipow} is a short loop over the exponent's bits written into the kernel (repeated
 * squaring: exact integer arithmetic, so lane by lane it is the method's result). It replaces the
 * 63-step unrolled body {@code Builtins.pow(long, long)} had, which was 11% of the runtime's
 * generated lines (issue 25 item 6).
 *
 * <p>{@code erf} in float lanes is vectorised: {@code SpecialMath.erf(float)}'s polynomials
 * ({@code SpecialMathPolynomials}) with the same fused multiply-adds in the same order, so each
 * lane is that method's result (docs/vector-math.md, "Special functions").
 *
 * <p>The other floating functions call the Java method lane by lane ({@code
 * dev.ufunc4j.kernel.SpecialLanes}): identical bits by construction, at the cost of a call per
 * lane. Float lanes widen to double and round the method's result once, so a float32 kernel of
 * {@code return SpecialMath.erf(x);} gives {@code (float) SpecialMath.erf(x)}. Vectorised forms
 * (the same fused multiply-add polynomials in vector arithmetic) can replace the calls one function
 * at a time; the bit checks in {@code SpecialMathKernelTest} hold them to the method's bits.
 */
final class SpecialMathEmitter {

  static final ClassName SPECIAL_MATH = ClassName.get("dev.ufunc4j.math", "SpecialMath");
  static final ClassName SPECIAL_LANES = ClassName.get("dev.ufunc4j.kernel", "SpecialLanes");

  private final VectorCode code;
  private final Lane lane;
  private final boolean unsigned;

  SpecialMathEmitter(VectorCode code, Lane lane, boolean unsigned) {
    this.code = code;
    this.lane = lane;
    this.unsigned = unsigned;
  }

  /** Writes {@code fn} of the vector arguments and returns its result. */
  Value emit(MathFunction fn, List<Value> args) {
    if (fn == MathFunction.IPOW) {
      return ipow(args.get(0), args.get(1));
    }
    if (!lane.floating) {
      throw new IllegalArgumentException(fn + " needs floating lanes: " + lane);
    }
    if (fn == MathFunction.ERF && lane == Lane.FLOAT) {
      return erfFloat(args.get(0));
    }
    CodeBlock call = args.size() == 1
        ? CodeBlock.of("$T.lanes($L, $T::$L)", SPECIAL_LANES, args.get(0).code(), SPECIAL_MATH,
            fn.javaName())
        : CodeBlock.of("$T.lanes($L, $L, $T::$L)", SPECIAL_LANES, args.get(0).code(),
            args.get(1).code(), SPECIAL_MATH, fn.javaName());
    return code.temp(fn.javaName(), Value.vector(call, lane));
  }

  /**
   * {@code SpecialMath.erf(float)} in vector arithmetic, operation for operation: every lane
   * computes the small region's {@code fma(x, R(x^2), x)} and the large regions' polynomial (its
   * coefficients and centre blended by |x| >= 2.25, the variable clamped at 4), and the result is
   * blended by |x| >= 0.875 (false for NaN: the small form, NaN). Both branches of every lane are
   * computed: with inputs on both sides in most vectors, a branch per vector would save nothing.
   */
  private Value erfFloat(Value x) {
    Value xv = code.named("erfX", x);
    Value abs = code.temp("erfAbs", Value.vector(CodeBlock.of("$L.abs()", xv.code()), lane));
    Value square = code.temp("erfSquare", Value.vector(CodeBlock.of("$L.mul($L)", xv.code(),
        xv.code()), lane));
    Value small = code.temp("erfSmall", Value.vector(CodeBlock.of("$L.fma($L, $L)", xv.code(),
        horner(SpecialMathPolynomials.erfFloatSmall(), null, square.code(), null), xv.code()),
        lane));
    Value far = code.temp("erfFar", Value.mask(CodeBlock.of("$L.compare(GE, $L)", abs.code(),
        floatLiteral(SpecialMathPolynomials.ERF_F_FAR_FROM)), lane));
    // min(|x|, 4) on the bits: one instruction where a floating min is six (C2 on AVX-512); the
    // same value for every number, and NaN lanes take the small form.
    Value u = code.temp("erfU", Value.vector(CodeBlock.of(
        "$L.reinterpretAsInts().min(0x$L).reinterpretAsFloats().sub($L)", abs.code(),
        Integer.toHexString(Float.floatToRawIntBits(SpecialMathPolynomials.ERF_F_CLAMP)),
        blended(SpecialMathPolynomials.ERF_F_NEAR_CENTRE, SpecialMathPolynomials.ERF_F_FAR_CENTRE,
            far)), lane));
    Value large = code.temp("erfLarge", Value.vector(CodeBlock.of(
        "$L\n    .reinterpretAsInts().or($L.reinterpretAsInts().and(0x80000000))"
            + ".reinterpretAsFloats()",
        horner(SpecialMathPolynomials.erfFloatNear(), SpecialMathPolynomials.erfFloatFar(),
            u.code(), far), xv.code()), lane));
    return code.temp("erf", Value.vector(CodeBlock.of("$L.blend($L, $L.compare(GE, $L))",
        small.code(), large.code(), abs.code(),
        floatLiteral(SpecialMathPolynomials.ERF_F_SMALL_BELOW)), lane));
  }

  /**
   * Horner's rule as a chain of fused multiply-adds, {@code c[0]} first: the coefficients are
   * {@code c}'s, or where {@code select} holds {@code d}'s (same degree), per lane.
   */
  private CodeBlock horner(float[] c, float[] d, CodeBlock variable, Value select) {
    CodeBlock.Builder b = CodeBlock.builder().add(coefficient(c, d, 0, select));
    for (int i = 1; i < c.length; i++) {
      b.add("\n    .fma($L, $L)", variable, coefficient(c, d, i, select));
    }
    return b.build();
  }

  private CodeBlock coefficient(float[] c, float[] d, int i, Value select) {
    return d == null ? broadcast(c[i]) : blended(c[i], d[i], select);
  }

  /** {@code a} in every lane, {@code b} where {@code select} holds. */
  private CodeBlock blended(float a, float b, Value select) {
    return CodeBlock.of("$L.blend($L, $L)", broadcast(a), broadcast(b), select.code());
  }

  private CodeBlock broadcast(float f) {
    return CodeBlock.of("$T.broadcast($N, $L)", lane.vector, code.species(lane), floatLiteral(f));
  }

  private static CodeBlock floatLiteral(float f) {
    return VectorCode.literal(Lane.FLOAT, f);
  }

  /**
   * {@code SpecialMath.ipow(a, b)}: while any lane's remaining exponent is non-zero, multiply the
   * result by the base where its low bit is set, square the base, shift the exponent. Products wrap
   * at the lane's width, which is the {@code long} result modulo that width (the lane analysis
   * narrows only where that is the result's width). Negative exponents (signed lanes) give
   * PyTorch's values: 1 for a base of 1, +-1 for -1 by parity, else 0.
   */
  private Value ipow(Value a, Value b) {
    String species = code.species(lane);
    Value base = code.temp("ipowBase", a);
    Value exponent = code.temp("ipowExponent", b);
    CodeBlock one = VectorCode.literal(lane, 1L);
    CodeBlock zero = VectorCode.literal(lane, 0L);
    Value negative = unsigned ? null
        : code.temp("ipowNegative", Value.mask(
            CodeBlock.of("$L.compare(LT, $L)", exponent.code(), zero), lane));
    Value bits = code.temp("ipowBits", Value.vector(negative == null ? exponent.code()
        : CodeBlock.of("$L.blend($L, $L)", exponent.code(), zero, negative.code()), lane));
    Value power = code.temp("ipowPower", base);
    Value result = code.temp("ipowResult",
        Value.vector(CodeBlock.of("$T.broadcast($N, $L)", lane.vector, species, one), lane));
    code.out.beginControlFlow("while ($L.compare(NE, $L).anyTrue())", bits.code(), zero);
    code.out.addStatement("$L = $L.blend($L.mul($L), $L.lanewise(AND, $L).compare(NE, $L))",
        result.code(), result.code(), result.code(), power.code(), bits.code(), one, zero);
    code.out.addStatement("$L = $L.mul($L)", power.code(), power.code(), power.code());
    code.out.addStatement("$L = $L.lanewise(LSHR, 1)", bits.code(), bits.code());
    code.out.endControlFlow();
    if (negative == null) {
      return result;
    }
    CodeBlock minusOne = VectorCode.literal(lane, -1L);
    CodeBlock odd = CodeBlock.of("$L.lanewise(AND, $L).compare(NE, $L)", exponent.code(), one,
        zero);
    CodeBlock negativePower = CodeBlock.of(
        "$T.broadcast($N, $L)\n    .blend($L, $L.compare(EQ, $L))\n"
            + "    .blend($T.broadcast($N, $L).blend($L, $L), $L.compare(EQ, $L))",
        lane.vector, species, zero, one, base.code(), one,
        lane.vector, species, one, minusOne, odd, base.code(), minusOne);
    return code.temp("ipow", Value.vector(CodeBlock.of("$L.blend($L, $L)", result.code(),
        negativePower, negative.code()), lane));
  }
}
