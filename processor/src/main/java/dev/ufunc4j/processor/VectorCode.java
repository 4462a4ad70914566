package dev.ufunc4j.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import dev.ufunc4j.dtype.DType;
import java.util.EnumSet;
import java.util.Set;

/**
 * Writes Vector API statements into one generated method: conversions between dtypes and lane
 * types (bool, unsigned, float16/bfloat16 bit tricks), literals and broadcasts. Records every lane
 * type it touches so the kernel declares exactly the species it uses.
 */
final class VectorCode {

  static final ClassName VECTOR_MASK = ClassName.get(Lane.VECTOR_PACKAGE, "VectorMask");

  final CodeBlock.Builder out;
  final NameAllocator names;
  final Set<Lane> used;
  /** True when this writer names the pair species (complex components, 2 lanes per element). */
  private final boolean pairs;

  VectorCode(CodeBlock.Builder out, NameAllocator names, Set<Lane> used) {
    this(out, names, used, false);
  }

  private VectorCode(CodeBlock.Builder out, NameAllocator names, Set<Lane> used, boolean pairs) {
    this.out = out;
    this.names = names;
    this.used = used;
    this.pairs = pairs;
  }

  /**
   * A writer into the same method whose species are the pair species: vectors of interleaved
   * complex components, twice as many lanes as elements. The same conversions then apply to
   * complex values component by component.
   */
  VectorCode pairs(Set<Lane> usedPairs) {
    return new VectorCode(out, names, usedPairs, true);
  }

  static Set<Lane> newLaneSet() {
    return EnumSet.noneOf(Lane.class);
  }

  String species(Lane lane) {
    used.add(lane);
    return pairs ? lane.pairSpecies() : lane.species;
  }

  static TypeName maskType(Lane lane) {
    return ParameterizedTypeName.get(VECTOR_MASK, lane.boxed());
  }

  /** Declares a local holding {@code v} and returns a value naming it. */
  Value temp(String hint, Value v) {
    return declare(names.newName(hint), v);
  }

  /** Declares a local named exactly {@code name} (already allocated) holding {@code v}. */
  Value declare(String name, Value v) {
    TypeName type = switch (v.kind()) {
      case VECTOR -> v.lane().vector;
      case MASK -> maskType(v.lane());
      case SCALAR -> v.lane().primitive;
      case SCALAR_BOOLEAN -> TypeName.BOOLEAN;
    };
    out.addStatement("$T $N = $L", type, name, v.code());
    return new Value(CodeBlock.of("$N", name), v.lane(), v.kind());
  }

  /** A temp unless {@code v} already is a plain name. */
  Value named(String hint, Value v) {
    return isName(v.code()) ? v : temp(hint, v);
  }

  static boolean isName(CodeBlock code) {
    String s = code.toString();
    return s.matches("[A-Za-z_][A-Za-z0-9_]*");
  }

  // ---------------------------------------------------------------- literals and broadcasts

  static CodeBlock literal(Lane lane, Object value) {
    return switch (lane) {
      case BYTE -> CodeBlock.of("(byte) $L", ((Number) value).longValue());
      case SHORT -> CodeBlock.of("(short) $L", ((Number) value).longValue());
      case INT -> {
        long v = ((Number) value).longValue();
        yield v == (int) v ? CodeBlock.of("$L", v) : CodeBlock.of("(int) $LL", v);
      }
      case LONG -> CodeBlock.of("$LL", ((Number) value).longValue());
      case FLOAT -> floatLiteral((float) ((Number) value).doubleValue());
      case DOUBLE -> doubleLiteral(((Number) value).doubleValue());
    };
  }

  private static CodeBlock floatLiteral(float f) {
    if (Float.isNaN(f)) {
      return CodeBlock.of("Float.NaN");
    }
    if (Float.isInfinite(f)) {
      return CodeBlock.of(f > 0 ? "Float.POSITIVE_INFINITY" : "Float.NEGATIVE_INFINITY");
    }
    return CodeBlock.of("$Lf", Float.toString(f));
  }

  private static CodeBlock doubleLiteral(double d) {
    if (Double.isNaN(d)) {
      return CodeBlock.of("Double.NaN");
    }
    if (Double.isInfinite(d)) {
      return CodeBlock.of(d > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY");
    }
    return CodeBlock.of("$L", Double.toString(d));
  }

  /** {@code v} as a vector (broadcasting a scalar) or mask (from a boolean scalar). */
  Value vector(Value v) {
    return switch (v.kind()) {
      case VECTOR, MASK -> v;
      case SCALAR ->
          Value.vector(
              CodeBlock.of("$T.broadcast($N, $L)", v.lane().vector, species(v.lane()), v.code()),
              v.lane());
      case SCALAR_BOOLEAN ->
          Value.mask(CodeBlock.of("$N.maskAll($L)", species(v.lane()), v.code()), v.lane());
    };
  }

  // ---------------------------------------------------------------- conversions

  /** Lane conversion keeping the lane count; integral widening sign- or zero-extends. */
  Value convert(Value v, Lane to, boolean zeroExtend) {
    Lane from = v.lane();
    if (from == to) {
      return v;
    }
    String op;
    boolean widening = !from.floating && !to.floating && to.bytes > from.bytes;
    if (widening && zeroExtend) {
      op = "ZERO_EXTEND_" + from.letter + "2" + to.letter;
    } else {
      op = from.letter + "2" + to.letter;
    }
    return Value.vector(
        CodeBlock.of("(($T) $L.convertShape($L, $N, 0))", to.vector, vector(v).code(), op,
            species(to)),
        to);
  }

  /** Integral or bool storage lanes to floating lanes, as PyTorch casts them. */
  Value integralToFloating(Value raw, DType from, Lane to) {
    boolean zero = from.isUnsigned() || from == DType.BOOL;
    if (!zero) {
      return convert(raw, to, false);
    }
    return switch (raw.lane()) {
      case BYTE, SHORT -> convert(convert(raw, Lane.INT, true), to, false);
      case INT -> convert(convert(raw, Lane.LONG, true), to, false);
      default -> unsignedLongToFloating(raw, to);
    };
  }

  /** UINT64 bit patterns to floating: halve with a sticky bit where the top bit is set. */
  private Value unsignedLongToFloating(Value raw, Lane to) {
    Value x = named("u64", raw);
    String high = names.newName("high");
    out.addStatement("$T $N = $L.compare(LT, 0L)", maskType(Lane.LONG), high, x.code());
    Value halved = Value.vector(
        CodeBlock.of("$L.blend($L.lanewise(LSHR, 1).or($L.and(1L)), $N)", x.code(), x.code(),
            x.code(), high),
        Lane.LONG);
    Value f = temp("approx", convert(halved, to, false));
    return Value.vector(
        CodeBlock.of("$L.add($L, $N.cast($N))", f.code(), f.code(), high, species(to)), to);
  }

  // The float16 conversions below use no VectorMask and as few lanewise operations as known exact
  // methods allow: a float16 kernel is bound by their count (see docs/processor.md). A select is
  // an arithmetic-shift mask instead: (x + c) >> 31 is all ones exactly where x crosses a
  // threshold, and a ^ ((a ^ b) & m) picks b under it.

  /**
   * FLOAT16 bits (short lanes, or int lanes holding 16 bits) to float lanes, exactly: the
   * magnitude shifted into float position and scaled by 2^112 is right for normal and subnormal
   * halves; exponent 31 (inf, NaN) gets the float's all-ones exponent, keeping the payload.
   */
  Value halfToFloat(Value bits) {
    Value h = temp("half", bits.lane() == Lane.INT ? bits : convert(bits, Lane.INT, true));
    Value mag = temp("halfMagnitude",
        Value.vector(CodeBlock.of("$L.and(0x7FFF).lanewise(LSHL, 13)", h.code()), Lane.INT));
    species(Lane.FLOAT);
    CodeBlock code = CodeBlock.builder()
        .add("$L.reinterpretAsFloats().mul(0x1p112f).reinterpretAsInts()\n", mag.code())
        .add("    .or($L.add(0x70800000).lanewise(ASHR, 31).and(0x7F800000))\n", mag.code())
        .add("    .or($L.and(0x8000).lanewise(LSHL, 16))\n", h.code())
        .add("    .reinterpretAsFloats()")
        .build();
    return temp("halfValue", Value.vector(code, Lane.FLOAT));
  }

  /** BFLOAT16 bits (short lanes) to float lanes. */
  Value bfloat16ToFloat(Value bits) {
    Value h = bits.lane() == Lane.INT ? bits : convert(bits, Lane.INT, true);
    species(Lane.FLOAT);
    return Value.vector(CodeBlock.of("$L.lanewise(LSHL, 16).reinterpretAsFloats()", h.code()),
        Lane.FLOAT);
  }

  /**
   * Float lanes to FLOAT16 bits in int lanes, rounding to nearest even (NaN → 0x7E00): c10's
   * {@code fp16_ieee_from_fp32_value}. Adding 2^(e+15) (at least 2^-14) to 4|f| leaves the
   * rounded half mantissa in the low bits and its exponent above them; values past the half range
   * overflow to infinity on the way.
   */
  Value floatToHalfBits(Value f) {
    Value fv = named("single", vector(f));
    Value bitsV = temp("singleBits",
        Value.vector(CodeBlock.of("$L.reinterpretAsInts()", fv.code()), Lane.INT));
    Value mag = temp("singleAbs",
        Value.vector(CodeBlock.of("$L.and(0x7FFFFFFF)", bitsV.code()), Lane.INT));
    species(Lane.INT);
    Value rounded = temp("halfRounded", Value.vector(CodeBlock.builder()
        .add("$L.and(0x7F800000).max(0x38800000).add(0x07800000).reinterpretAsFloats()\n",
            mag.code())
        .add("    .add($L.reinterpretAsFloats().mul(0x1p112f).mul(0x1p-110f))\n", mag.code())
        .add("    .reinterpretAsInts()")
        .build(), Lane.INT));
    Value finite = temp("halfFinite", Value.vector(
        CodeBlock.of("$L.lanewise(LSHR, 13).and(0x7C00).add($L.and(0xFFF))", rounded.code(),
            rounded.code()),
        Lane.INT));
    CodeBlock code = CodeBlock.builder()
        .add("$L.lanewise(XOR, $L.lanewise(XOR, 0x7E00).and($L.add(0x007FFFFF).lanewise(ASHR, 31)))"
            + "\n", finite.code(), finite.code(), mag.code())
        .add("    .or($L.lanewise(LSHR, 16).and(0x8000))", bitsV.code())
        .build();
    return temp("halfBits", Value.vector(code, Lane.INT));
  }

  /**
   * Float lanes to BFLOAT16 bits in int lanes, rounding to nearest even (NaN → 0x7FC0). One
   * compare + blend stays here: the arithmetic-mask select measured slower for bfloat16 (0.39
   * against 0.30 ns/element for add), whose rounding is only five operations.
   */
  Value floatToBfloat16Bits(Value f) {
    Value fv = named("single", vector(f));
    Value bitsV = temp("singleBits",
        Value.vector(CodeBlock.of("$L.reinterpretAsInts()", fv.code()), Lane.INT));
    CodeBlock code = CodeBlock.of(
        "$L.add($L.lanewise(LSHR, 16).and(1).add(0x7FFF)).lanewise(LSHR, 16)\n"
            + "    .blend(0x7FC0, $L.test(IS_NAN).cast($N))",
        bitsV.code(), bitsV.code(), fv.code(), species(Lane.INT));
    return temp("bfloatBits", Value.vector(code, Lane.INT));
  }

  /**
   * Float lanes with every NaN replaced by the canonical quiet NaN of the same sign ({@code
   * 0x7FC00000}), which {@link Float#floatToFloat16} turns into c10's {@code 0x7E00}: the float16
   * chunks of {@code HalfChunks} round through it.
   */
  Value canonicalNaN(Value f) {
    Value fv = named("single", vector(f));
    return Value.vector(CodeBlock.of(
        "$L.blend($L.reinterpretAsInts().and(0x80000000).or(0x7FC00000).reinterpretAsFloats(),"
            + " $L.test(IS_NAN))",
        fv.code(), fv.code(), fv.code()), Lane.FLOAT);
  }

  /** A mask as 0/1 lanes of its own lane type. */
  Value maskToZeroOne(Value m) {
    Value mask = vector(m);
    Lane l = mask.lane();
    return Value.vector(
        CodeBlock.of("$T.zero($N).blend($L, $L)", l.vector, species(l), literal(l, 1),
            mask.code()),
        l);
  }
}
