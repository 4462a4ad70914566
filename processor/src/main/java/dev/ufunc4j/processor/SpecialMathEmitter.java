package dev.ufunc4j.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
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
 * <p>The floating functions call the Java method lane by lane ({@code
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
    CodeBlock call = args.size() == 1
        ? CodeBlock.of("$T.lanes($L, $T::$L)", SPECIAL_LANES, args.get(0).code(), SPECIAL_MATH,
            fn.javaName())
        : CodeBlock.of("$T.lanes($L, $L, $T::$L)", SPECIAL_LANES, args.get(0).code(),
            args.get(1).code(), SPECIAL_MATH, fn.javaName());
    return code.temp(fn.javaName(), Value.vector(call, lane));
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
