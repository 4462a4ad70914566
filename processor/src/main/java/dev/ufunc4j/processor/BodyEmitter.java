package dev.ufunc4j.processor;

import com.palantir.javapoet.CodeBlock;
import dev.ufunc4j.processor.Expr.BinaryOp;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Emits a lowered body as Vector API lanewise code in one lane type. Booleans are masks. Integer
 * division runs under a guard mask (the lanes where Java would evaluate it: the taken branch of
 * {@code ?:}, the right side of {@code &&}, the live lanes of a tail) and throws {@link
 * ArithmeticException} when a guarded divisor lane is zero, as Java does.
 */
final class BodyEmitter {

  private final VectorCode code;
  private final Lane lane;
  private final boolean unsigned;
  private final List<Value> operands;
  private final List<Value> scalars;
  private final Map<String, Value> locals = new HashMap<>();
  private Map<Expr, Integer> heights = Map.of();
  /** Locals made to keep statements shallow, for their names. */
  private int parts;

  /**
   * @param operands loaded and converted value of each tensor parameter
   * @param scalars the {@code @Scalar} values (Java scalars of {@code lane}, or booleans)
   */
  BodyEmitter(VectorCode code, Lane lane, boolean unsigned, List<Value> operands,
      List<Value> scalars) {
    this.code = code;
    this.lane = lane;
    this.unsigned = unsigned;
    this.operands = operands;
    this.scalars = scalars;
  }

  /** Emits locals and returns the result; {@code guard} names the live-lane mask or is null. */
  Value emit(Body body, String guard) {
    emitLocals(body, guard);
    return emit(body.result(), guard);
  }

  /** Emits locals, then returns each component of a body with several results, in order. */
  List<Value> emitAll(Body body, String guard) {
    emitLocals(body, guard);
    return body.components().stream().map(c -> emit(c, guard)).toList();
  }

  private void emitLocals(Body body, String guard) {
    heights = Expr.heights(body);
    for (Body.Local l : body.locals()) {
      Value v = emit(l.init(), guard);
      String name = code.names.newName(l.name());
      Value declared = switch (v.kind()) {
        case VECTOR, MASK -> code.temp(name, v);
        default -> code.temp(name, v);
      };
      locals.put(l.name(), declared);
    }
  }

  private Value emit(Expr e, String guard) {
    Value v = switch (e) {
      case Expr.Operand o -> operands.get(o.index());
      case Expr.ScalarRef s -> scalars.get(s.index());
      case Expr.LocalRef l -> locals.get(l.name());
      case Expr.Literal lit ->
          lit.type() == ValueType.BOOLEAN
              ? new Value(CodeBlock.of("$L", lit.value()), lane, Value.Kind.SCALAR_BOOLEAN)
              : new Value(VectorCode.literal(lane, lit.value()), lane, Value.Kind.SCALAR);
      case Expr.Unary u -> unary(u, guard);
      case Expr.Binary b -> binary(b, guard);
      case Expr.Conditional c -> conditional(c, guard);
      case Expr.Call c -> call(c, guard);
      case Expr.OpCall c -> emit(c.value(), guard); // (bodies reach the emitters unmarked)
    };
    // A local every Expr.SPILL_HEIGHT levels keeps each generated statement shallow.
    boolean vectorOrMask = v.kind() == Value.Kind.VECTOR || v.kind() == Value.Kind.MASK;
    return vectorOrMask && Expr.spills(heights.getOrDefault(e, 0))
        ? code.named("part" + ++parts, v)
        : v;
  }

  private static boolean divides(Expr e) {
    return Expr.any(e, x -> x instanceof Expr.Binary b && b.type() == ValueType.LONG
        && (b.op() == BinaryOp.DIV || b.op() == BinaryOp.REM));
  }

  private Value vec(Value v) {
    return code.vector(v);
  }

  private Value v(CodeBlock c) {
    return Value.vector(c, lane);
  }

  private Value m(CodeBlock c) {
    return Value.mask(c, lane);
  }

  private Value unary(Expr.Unary u, String guard) {
    Value x = emit(u.operand(), guard);
    return switch (u.op()) {
      case NEG -> v(CodeBlock.of("$L.neg()", vec(x).code()));
      case BIT_NOT -> v(CodeBlock.of("$L.not()", vec(x).code()));
      case NOT -> m(CodeBlock.of("$L.not()", vec(x).code()));
    };
  }

  /** {@code left.method(right)}, using the scalar overload when the right side is a scalar. */
  private CodeBlock call2(Value left, String method, Value right) {
    return CodeBlock.of("$L.$L($L)", vec(left).code(), method,
        right.kind() == Value.Kind.SCALAR ? right.code() : vec(right).code());
  }

  private CodeBlock lanewise2(Value left, String op, Value right) {
    return CodeBlock.of("$L.lanewise($L, $L)", vec(left).code(), op,
        right.kind() == Value.Kind.SCALAR ? right.code() : vec(right).code());
  }

  private static boolean commutative(BinaryOp op) {
    return switch (op) {
      case ADD, MUL, BIT_AND, BIT_OR, BIT_XOR, EQ, NE -> true;
      default -> false;
    };
  }

  private static BinaryOp mirrored(BinaryOp op) {
    return switch (op) {
      case LT -> BinaryOp.GT;
      case LE -> BinaryOp.GE;
      case GT -> BinaryOp.LT;
      case GE -> BinaryOp.LE;
      default -> op;
    };
  }

  private Value binary(Expr.Binary b, String guard) {
    BinaryOp op = b.op();
    if (b.left().type() == ValueType.BOOLEAN) {
      return logical(b, guard);
    }
    Expr sigmoidOf = lane == Lane.FLOAT ? MathEmitter.sigmoidArgument(b) : null;
    if (sigmoidOf != null) {
      // 1 / (1 + exp(-x)) as one core, within 1 ulp (docs/vector-math.md).
      return new MathEmitter(code, lane).sigmoid(vec(emit(sigmoidOf, guard)));
    }
    Value l = emit(b.left(), guard);
    if ((op == BinaryOp.DIV || op == BinaryOp.REM) && !lane.floating) {
      return integralDivision(op, l, emit(b.right(), guard), guard);
    }
    Value r = emit(b.right(), guard);
    if (op == BinaryOp.REM) {
      // Java's floating %, which is C's fmod: exact at any quotient.
      return new MathEmitter(code, lane).remainder(vec(l), vec(r));
    }
    if (l.kind() == Value.Kind.SCALAR && r.kind() != Value.Kind.SCALAR && !op.isShift()) {
      if (commutative(op) || op.isComparison()) {
        Value t = l;
        l = r;
        r = t;
        op = mirrored(op);
      }
    }
    return switch (op) {
      case ADD -> v(call2(l, "add", r));
      case SUB -> v(call2(l, "sub", r));
      case MUL -> v(call2(l, "mul", r));
      case DIV -> v(call2(l, "div", r));
      case BIT_AND -> v(call2(l, "and", r));
      case BIT_OR -> v(call2(l, "or", r));
      case BIT_XOR -> v(lanewise2(l, "XOR", r));
      case SHL -> v(shift(l, "LSHL", b.right(), r));
      case SHR -> v(shift(l, unsigned ? "LSHR" : "ASHR", b.right(), r));
      case USHR -> v(shift(l, "LSHR", b.right(), r));
      case LT, LE, GT, GE, EQ, NE -> m(CodeBlock.of("$L.compare($L, $L)", vec(l).code(),
          comparison(op), r.kind() == Value.Kind.SCALAR ? r.code() : vec(r).code()));
      default -> throw new IllegalStateException("unexpected " + op);
    };
  }

  private String comparison(BinaryOp op) {
    String u = unsigned && !lane.floating ? "U" : "";
    return switch (op) {
      case LT -> u + "LT";
      case LE -> u + "LE";
      case GT -> u + "GT";
      case GE -> u + "GE";
      case EQ -> "EQ";
      default -> "NE";
    };
  }

  private CodeBlock shift(Value l, String op, Expr countExpr, Value count) {
    if (countExpr instanceof Expr.Literal lit) {
      // Java masks a long shift count by 63; narrow lanes only see counts below their width.
      return CodeBlock.of("$L.lanewise($L, $L)", vec(l).code(), op,
          VectorCode.literal(lane, lit.longValue() & 63));
    }
    return CodeBlock.of("$L.lanewise($L, $L)", vec(l).code(), op, vec(count).code());
  }

  private Value integralDivision(BinaryOp op, Value l, Value r, String guard) {
    Value divisor = code.named("divisor", vec(r));
    if (guard == null) {
      code.out.beginControlFlow("if ($L.compare(EQ, 0).anyTrue())", divisor.code());
    } else {
      code.out.beginControlFlow("if ($L.compare(EQ, 0, $N).anyTrue())", divisor.code(), guard);
    }
    code.out.addStatement("throw new ArithmeticException($S)", "/ by zero");
    code.out.endControlFlow();
    Value dividend = op == BinaryOp.REM ? code.named("dividend", vec(l)) : vec(l);
    CodeBlock quotient = guard == null
        ? CodeBlock.of("$L.lanewise(DIV, $L)", dividend.code(), divisor.code())
        : CodeBlock.of("$L.lanewise(DIV, $L, $N)", dividend.code(), divisor.code(), guard);
    if (op == BinaryOp.DIV) {
      return v(quotient);
    }
    // Java defines a % b as a - (a / b) * b.
    return v(CodeBlock.of("$L.sub($L.mul($L))", dividend.code(), quotient, divisor.code()));
  }

  private Value logical(Expr.Binary b, String guard) {
    Value l = vec(emit(b.left(), guard));
    BinaryOp op = b.op();
    String rightGuard = guard;
    if ((op == BinaryOp.AND || op == BinaryOp.OR) && divides(b.right())) {
      l = code.named("condition", l);
      CodeBlock live = op == BinaryOp.AND ? l.code() : CodeBlock.of("$L.not()", l.code());
      rightGuard = code.temp("live", m(guard == null ? live
          : CodeBlock.of("$L.and($N)", live, guard))).code().toString();
    }
    Value r = vec(emit(b.right(), rightGuard));
    return switch (op) {
      case AND, BIT_AND -> m(CodeBlock.of("$L.and($L)", l.code(), r.code()));
      case OR, BIT_OR -> m(CodeBlock.of("$L.or($L)", l.code(), r.code()));
      case BIT_XOR, NE -> m(CodeBlock.of("$L.xor($L)", l.code(), r.code()));
      case EQ -> m(CodeBlock.of("$L.eq($L)", l.code(), r.code()));
      default -> throw new IllegalStateException("unexpected boolean " + op);
    };
  }

  private Value conditional(Expr.Conditional c, String guard) {
    Value cond = vec(emit(c.condition(), guard));
    boolean guarded = divides(c.whenTrue()) || divides(c.whenFalse());
    boolean maskResult = c.type() == ValueType.BOOLEAN;
    String trueGuard = guard;
    String falseGuard = guard;
    if (guarded || maskResult) {
      cond = code.named("condition", cond);
    }
    if (divides(c.whenTrue())) {
      trueGuard = code.temp("live", m(guard == null ? cond.code()
          : CodeBlock.of("$L.and($N)", cond.code(), guard))).code().toString();
    }
    if (divides(c.whenFalse())) {
      falseGuard = code.temp("live", m(guard == null ? CodeBlock.of("$L.not()", cond.code())
          : CodeBlock.of("$N.andNot($L)", guard, cond.code()))).code().toString();
    }
    Value t = emit(c.whenTrue(), trueGuard);
    Value f = emit(c.whenFalse(), falseGuard);
    if (maskResult) {
      return m(CodeBlock.of("$L.and($L).or($L.andNot($L))", vec(t).code(), cond.code(),
          vec(f).code(), cond.code()));
    }
    return v(CodeBlock.of("$L.blend($L, $L)", vec(f).code(),
        t.kind() == Value.Kind.SCALAR ? t.code() : vec(t).code(), cond.code()));
  }

  private Value call(Expr.Call c, String guard) {
    List<Value> args = c.args().stream().map(a -> emit(a, guard)).toList();
    Value x = args.get(0);
    return switch (c.function()) {
      case ABS -> !lane.floating && unsigned ? vec(x) : v(CodeBlock.of("$L.abs()", vec(x).code()));
      case MIN -> !lane.floating && unsigned
          ? v(lanewise2(x, "UMIN", args.get(1)))
          : v(call2(x, "min", args.get(1)));
      case MAX -> !lane.floating && unsigned
          ? v(lanewise2(x, "UMAX", args.get(1)))
          : v(call2(x, "max", args.get(1)));
      // Correctly rounded in every tier: the Vector API's own operation.
      case SQRT -> v(CodeBlock.of("$L.lanewise(SQRT)", vec(x).code()));
      // Not the Vector API's lanewise(EXP) etc.: their bits change when C2 compiles them.
      case CBRT, EXP, EXPM1, LOG, LOG1P, LOG10, SIN, COS, TAN, ASIN, ACOS, ATAN, SINH, COSH, TANH,
          POW, HYPOT, ATAN2 ->
          new MathEmitter(code, lane).emit(c.function(), args.stream().map(this::vec).toList());
      case FMA -> v(CodeBlock.of("$L.fma($L, $L)", vec(x).code(), vec(args.get(1)).code(),
          vec(args.get(2)).code()));
      case TO_RADIANS -> v(CodeBlock.of("$L.mul($L)", vec(x).code(),
          VectorCode.literal(lane, 0.017453292519943295)));
      case TO_DEGREES -> v(CodeBlock.of("$L.mul($L)", vec(x).code(),
          VectorCode.literal(lane, 57.29577951308232)));
      case RINT -> rint(x);
      case FLOOR -> floor(x);
      case CEIL -> {
        Value negated = v(CodeBlock.of("$L.neg()", vec(x).code()));
        yield v(CodeBlock.of("$L.neg()", floor(negated).code()));
      }
      case SIGNUM -> {
        Value t = code.named("signumOf", vec(x));
        yield v(CodeBlock.of("$T.broadcast($N, $L).blend($L, $L.compare(LT, $L))\n"
                + "    .blend($L, $L.compare(EQ, $L).or($L.test(IS_NAN)))",
            lane.vector, code.species(lane), VectorCode.literal(lane, 1.0),
            VectorCode.literal(lane, -1.0), t.code(), VectorCode.literal(lane, 0.0), t.code(),
            t.code(), VectorCode.literal(lane, 0.0), t.code()));
      }
      case COPY_SIGN -> copySign(vec(x), vec(args.get(1)), true);
      // The JDK's functions of a float's bits (issue 26 item 2); scalb's scale is a constant.
      case NEXT_UP, NEXT_DOWN, NEXT_AFTER, ULP, GET_EXPONENT, SCALB ->
          new FloatBitsEmitter(code, lane).emit(c.function(),
              args.stream().map(this::vec).toList(),
              c.function() == MathFunction.SCALB
                  ? ((Expr.Literal) c.args().get(1)).doubleValue() : 0);
      // SpecialMath (issue 26 item 3): the method's own bits.
      case ERF, ERFC, LGAMMA, DIGAMMA, TRIGAMMA, EXPIT, LOGIT, XLOGY, SINC, IPOW ->
          new SpecialMathEmitter(code, lane, unsigned)
              .emit(c.function(), args.stream().map(this::vec).toList());
    };
  }

  private String bitsMethod() {
    return lane == Lane.FLOAT ? "reinterpretAsInts" : "reinterpretAsLongs";
  }

  private String fromBitsMethod() {
    return lane == Lane.FLOAT ? "reinterpretAsFloats" : "reinterpretAsDoubles";
  }

  private CodeBlock signBit() {
    return lane == Lane.FLOAT ? CodeBlock.of("0x80000000") : CodeBlock.of("0x8000000000000000L");
  }

  /** Magnitude of {@code magnitude} with the sign of {@code sign}, as Math.copySign. */
  private Value copySign(Value magnitude, Value sign, boolean clearMagnitudeSign) {
    CodeBlock mag = clearMagnitudeSign
        ? CodeBlock.of("$L.$L().and($L)", magnitude.code(), bitsMethod(),
            lane == Lane.FLOAT ? "0x7FFFFFFF" : "0x7FFFFFFFFFFFFFFFL")
        : CodeBlock.of("$L.$L()", magnitude.code(), bitsMethod());
    return v(CodeBlock.of("$L.or($L.$L().and($L)).$L()", mag, sign.code(), bitsMethod(),
        signBit(), fromBitsMethod()));
  }

  /** Round half even: adding and subtracting 2^23 (2^52) rounds a smaller magnitude exactly. */
  private Value rint(Value x) {
    Value t = code.named("rintOf", vec(x));
    CodeBlock magic = VectorCode.literal(lane, lane == Lane.FLOAT ? 0x1p23 : 0x1p52);
    Value rounded = code.temp("rounded",
        v(CodeBlock.of("$L.abs().add($L).sub($L)", t.code(), magic, magic)));
    Value signed = copySign(rounded, t, false);
    return code.temp("rinted", v(CodeBlock.of("$L.blend($L, $L.abs().compare(LT, $L))",
        t.code(), signed.code(), t.code(), magic)));
  }

  private Value floor(Value x) {
    Value t = code.named("floorOf", vec(x));
    Value r = rint(t);
    return v(CodeBlock.of("$L.sub($L, $L.compare(GT, $L))", r.code(),
        VectorCode.literal(lane, 1.0), r.code(), t.code()));
  }
}
