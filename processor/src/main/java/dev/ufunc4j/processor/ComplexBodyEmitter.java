package dev.ufunc4j.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import dev.ufunc4j.processor.Expr.BinaryOp;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Modifier;

/**
 * Emits a liftable {@code double} body (see {@link #liftable}) as complex arithmetic on interleaved
 * lanes: one vector of a pair species holds {@code LANES} complex elements as (re, im, re, im, ...).
 * Every real (a literal, a {@code @Scalar}, a real tensor operand) is the complex number (x, +0.0),
 * as PyTorch converts it, and every operation is the full complex one: {@code 2 * z} is {@code (2 +
 * 0i) * z}, bit for bit what PyTorch computes for a complex tensor times a wrapped scalar.
 *
 * <p>Multiplication is {@code (ac - bd, ad + bc)} with each product rounded once and no fused
 * multiply-add, as PyTorch's vectorized CPU kernel. Division is c10::complex's operator/ (NumPy's
 * algorithm, Smith's method: it scales by the larger of {@code |c|} and {@code |d|}), with the
 * multiply-adds fused as PyTorch's x86 build compiles them (GCC contracts {@code x + y * z} into an
 * FMA), which makes the results bit-identical to PyTorch 2.13's CPU division:
 *
 * <pre>
 *   |c| >= |d|, both 0:  (a / |c|, b / |d|)
 *   |c| >= |d|:          rat = d / c; scl = 1 / fma(d, rat, c); (fma(b, rat, a) * scl, fma(-a, rat, b) * scl)
 *   otherwise:           rat = c / d; scl = 1 / fma(c, rat, d); (fma(a, rat, b) * scl, fma(b, rat, -a) * scl)
 * </pre>
 *
 * <p>{@code ==} is true when both components are equal (so false with a NaN component), {@code !=}
 * its negation; they give a mask of the real species, one lane per element.
 */
final class ComplexBodyEmitter {

  static final ClassName VECTOR_SHUFFLE = ClassName.get(Lane.VECTOR_PACKAGE, "VectorShuffle");

  /** Constant masks and shuffles of the compute pair species; a kernel declares those it uses. */
  enum Constant {
    /** The real components (even lanes). */
    RE_LANES("$T.fromLong($N, 0x5555555555555555L)"),
    /** The imaginary components (odd lanes). */
    IM_LANES("$T.fromLong($N, 0xAAAAAAAAAAAAAAAAL)"),
    /** (re, im) to (im, re). */
    SWAP("$T.fromOp($N, i -> i ^ 1)"),
    /** (re, im) to (re, re). */
    DUP_RE("$T.fromOp($N, i -> i & ~1)"),
    /** (re, im) to (im, im). */
    DUP_IM("$T.fromOp($N, i -> i | 1)"),
    /** {@code LANES} reals, then zeros, to (x, 0) pairs. */
    WIDEN("$T.fromOp($N, i -> (i & 1) == 0 ? i / 2 : LANES + i / 2)"),
    /** The real lanes first: one lane per element. */
    EVENS("$T.fromOp($N, i -> 2 * i % (2 * LANES))");

    private final String init;

    Constant(String init) {
      this.init = init;
    }

    boolean isMask() {
      return this == RE_LANES || this == IM_LANES;
    }

    FieldSpec field(Lane lane) {
      ClassName raw = isMask() ? VectorCode.VECTOR_MASK : VECTOR_SHUFFLE;
      return FieldSpec.builder(ParameterizedTypeName.get(raw, lane.boxed()), name(),
              Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
          .initializer(init, raw, lane.pairSpecies())
          .build();
    }
  }

  static Set<Constant> newConstantSet() {
    return EnumSet.noneOf(Constant.class);
  }

  /**
   * Whether complex arithmetic can compute {@code op}'s {@code double} overload: tensor and
   * {@code @Scalar} parameters all {@code double}; a body of parameters, literals, locals, {@code +
   * - * /} and unary {@code -}, whose result may be one {@code ==} or {@code !=}. {@code ?:} and
   * {@code Math} calls have no complex meaning here (an order, a branch cut), so they are not.
   */
  static boolean liftable(OpModel op, Body body) {
    if (op.tensors().stream().anyMatch(OpModel.TensorParam::condition)
        || op.scalars().stream().anyMatch(s -> s.type() != ValueType.DOUBLE)) {
      return false;
    }
    if (!body.locals().stream().allMatch(l -> arithmetic(l.init()))) {
      return false;
    }
    Expr result = body.result();
    if (result instanceof Expr.Binary b && (b.op() == BinaryOp.EQ || b.op() == BinaryOp.NE)) {
      return arithmetic(b.left()) && arithmetic(b.right());
    }
    return arithmetic(result);
  }

  private static boolean arithmetic(Expr e) {
    if (e.type() != ValueType.DOUBLE) {
      return false;
    }
    return switch (e) {
      case Expr.Operand o -> true;
      case Expr.ScalarRef s -> true;
      case Expr.LocalRef l -> true;
      case Expr.Literal l -> true;
      case Expr.Unary u -> u.op() == Expr.UnaryOp.NEG && arithmetic(u.operand());
      case Expr.Binary b -> switch (b.op()) {
        case ADD, SUB, MUL, DIV -> arithmetic(b.left()) && arithmetic(b.right());
        default -> false;
      };
      case Expr.Conditional c -> false;
      case Expr.Call c -> false;
      case Expr.OpCall c -> arithmetic(c.value()); // (bodies reach the emitters unmarked)
    };
  }

  private final VectorCode pairs;
  private final VectorCode reals;
  private final Lane lane;
  private final List<Value> operands;
  private final List<Value> scalars;
  private final Set<Constant> constants;
  private final Map<String, Value> locals = new HashMap<>();
  private Map<Expr, Integer> heights = Map.of();
  /** Locals made to keep statements shallow, for their names. */
  private int parts;

  /**
   * @param pairs writes the method's code, naming pair species
   * @param reals the same method, naming the real species (for a comparison's mask)
   * @param lane the component lane type the body computes in
   * @param operands each tensor operand as a pair vector of {@code lane}
   * @param scalars the {@code @Scalar} values, Java scalars of {@code lane}
   * @param constants collects the constants the code uses
   */
  ComplexBodyEmitter(VectorCode pairs, VectorCode reals, Lane lane, List<Value> operands,
      List<Value> scalars, Set<Constant> constants) {
    this.pairs = pairs;
    this.reals = reals;
    this.lane = lane;
    this.operands = operands;
    this.scalars = scalars;
    this.constants = constants;
  }

  /** Emits locals and returns the result: a pair vector, or a real-species mask for a predicate. */
  Value emit(Body body) {
    heights = Expr.heights(body);
    for (Body.Local l : body.locals()) {
      locals.put(l.name(), pairs.temp(l.name(), emit(l.init())));
    }
    return emit(body.result());
  }

  private String constant(Constant c) {
    constants.add(c);
    return c.name();
  }

  private Value v(String format, Object... args) {
    return Value.vector(CodeBlock.of(format, args), lane);
  }

  private Value emit(Expr e) {
    Value v = switch (e) {
      case Expr.Operand o -> operands.get(o.index());
      case Expr.ScalarRef s -> real(scalars.get(s.index()).code());
      case Expr.LocalRef l -> locals.get(l.name());
      case Expr.Literal lit -> real(VectorCode.literal(lane, lit.value()));
      case Expr.Unary u -> v("$L.neg()", emit(u.operand()).code());
      case Expr.Binary b -> binary(b);
      default -> throw new IllegalStateException("not liftable to complex: " + e);
    };
    // A local every Expr.SPILL_HEIGHT levels keeps each generated statement shallow.
    return v.kind() == Value.Kind.VECTOR && Expr.spills(heights.getOrDefault(e, 0))
        ? pairs.named("part" + ++parts, v) : v;
  }

  /** A real Java scalar as (x, +0.0) pairs. */
  private Value real(CodeBlock scalar) {
    return v("$T.broadcast($N, $L).blend($L, $N)", lane.vector, pairs.species(lane), scalar,
        VectorCode.literal(lane, 0), constant(Constant.IM_LANES));
  }

  private Value binary(Expr.Binary b) {
    Value x = emit(b.left());
    Value y = emit(b.right());
    return switch (b.op()) {
      case ADD -> v("$L.add($L)", x.code(), y.code());
      case SUB -> v("$L.sub($L)", x.code(), y.code());
      case MUL -> multiply(x, y);
      case DIV -> divide(x, y);
      case EQ -> equality(x, y, false);
      case NE -> equality(x, y, true);
      default -> throw new IllegalStateException("not liftable to complex: " + b.op());
    };
  }

  /** (a + bi)(c + di) = (ac - bd) + (ad + bc)i: each product rounded once, as c10::complex. */
  private Value multiply(Value x, Value y) {
    Value a = pairs.named("factor", x);
    Value b = pairs.named("factor", y);
    return v("$L.mul($L.rearrange($N))\n    .add($L.rearrange($N).mul($L.rearrange($N))"
            + ".lanewise(NEG, $N))",
        a.code(), b.code(), constant(Constant.DUP_RE), a.code(), constant(Constant.SWAP),
        b.code(), constant(Constant.DUP_IM), constant(Constant.RE_LANES));
  }

  /** c10::complex's operator/ (NumPy's algorithm): see the class comment. */
  private Value divide(Value x, Value y) {
    Value a = pairs.named("dividend", x);
    Value b = pairs.named("divisor", y);
    Value c = pairs.temp("divisorRe", v("$L.rearrange($N)", b.code(), constant(Constant.DUP_RE)));
    Value d = pairs.temp("divisorIm", v("$L.rearrange($N)", b.code(), constant(Constant.DUP_IM)));
    String byC = pairs.names.newName("byC");
    pairs.out.addStatement("$T $N = $L.abs().compare(GE, $L.abs())",
        VectorCode.maskType(lane), byC, c.code(), d.code());
    Value big = pairs.temp("big", v("$L.blend($L, $N)", d.code(), c.code(), byC));
    Value small = pairs.temp("small", v("$L.blend($L, $N)", c.code(), d.code(), byC));
    Value rat = pairs.temp("rat", v("$L.div($L)", small.code(), big.code()));
    Value scl = pairs.temp("scl", v("$T.broadcast($N, $L).div($L.fma($L, $L))", lane.vector,
        pairs.species(lane), VectorCode.literal(lane, 1), small.code(), rat.code(), big.code()));
    // (b, -a): |c| >= |d| gives (fma(b, rat, a), fma(-a, rat, b)), otherwise (fma(a, rat, b),
    // fma(b, rat, -a)); both times scl.
    Value crossed = pairs.temp("crossed", v("$L.rearrange($N).lanewise(NEG, $N)", a.code(),
        constant(Constant.SWAP), constant(Constant.IM_LANES)));
    Value quotient = pairs.temp("quotient", v(
        "$L.fma($L, $L).blend($L.fma($L, $L), $N).mul($L)",
        a.code(), rat.code(), crossed.code(), crossed.code(), rat.code(), a.code(), byC,
        scl.code()));
    // A zero divisor gives (a / |c|, b / |d|): infinities or NaN, as c10::complex.
    return v("$L.blend($L.div($L.abs()), $L.compare(EQ, $L).and($L.compare(EQ, $L)))",
        quotient.code(), a.code(), b.code(), c.code(), VectorCode.literal(lane, 0), d.code(),
        VectorCode.literal(lane, 0));
  }

  /** Both components equal (NaN never is); one real-species mask lane per element. */
  private Value equality(Value x, Value y, boolean negate) {
    Value same = pairs.temp("sameParts", v("$T.zero($N).blend($L, $L.compare(EQ, $L))",
        lane.vector, pairs.species(lane), VectorCode.literal(lane, 1), x.code(), y.code()));
    Value perElement = reals.temp("sameElements", v(
        "(($T) $L.min($L.rearrange($N)).rearrange($N).reinterpretShape($N, 0))",
        lane.vector, same.code(), same.code(), constant(Constant.SWAP),
        constant(Constant.EVENS), reals.species(lane)));
    return Value.mask(CodeBlock.of("$L.compare($L, $L)", perElement.code(),
        negate ? "EQ" : "NE", VectorCode.literal(lane, 0)), lane);
  }
}
