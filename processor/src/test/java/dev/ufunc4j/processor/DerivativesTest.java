package dev.ufunc4j.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.math.SpecialMath;
import dev.ufunc4j.processor.Expr.BinaryOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The symbolic derivatives of {@link Derivatives}, checked by evaluating the derived backward body
 * against central differences of the forward body (both interpreted with {@code java.lang.Math}),
 * for every {@link MathFunction} and operator, through locals; and the conventions at kinks, the
 * simplifications and the printed form of a few backward bodies.
 */
class DerivativesTest {

  private static final Expr.Operand X = new Expr.Operand(0, "x", ValueType.DOUBLE);
  private static final Expr.Operand Y = new Expr.Operand(1, "y", ValueType.DOUBLE);
  private static final Expr.Operand Z = new Expr.Operand(2, "z", ValueType.DOUBLE);

  private static Expr lit(double v) {
    return new Expr.Literal(v, ValueType.DOUBLE);
  }

  private static Expr bin(BinaryOp op, Expr a, Expr b) {
    ValueType t = op.isComparison() || op == BinaryOp.AND || op == BinaryOp.OR
        ? ValueType.BOOLEAN : ValueType.DOUBLE;
    return new Expr.Binary(op, a, b, t);
  }

  private static Expr call(MathFunction f, Expr... args) {
    return new Expr.Call(f, List.of(args), ValueType.DOUBLE);
  }

  private static OpModel op(String name, int tensors, Body body) {
    List<OpModel.TensorParam> params = new ArrayList<>();
    for (int i = 0; i < tensors; i++) {
      params.add(new OpModel.TensorParam(List.of("x", "y", "z").get(i), false));
    }
    return new OpModel(name, new OpModel.DeclaringClass("p", "C", "p.C", "p.C"),
        Promote.PROMOTE, params, List.of(), false,
        List.of(new OpModel.Overload(ValueType.DOUBLE, name + "(...)", body)), false);
  }

  private static List<Derivatives.Gradient> gradients(OpModel op) {
    return Derivatives.of(op, Map.of());
  }

  // ---------------------------------------------------------------------------- interpreter

  /** Evaluates {@code body}; {@code operands[i]} is operand {@code i} (a Double or Boolean). */
  static Object eval(Body body, Object[] operands) {
    Map<String, Object> locals = new HashMap<>();
    for (Body.Local l : body.locals()) {
      locals.put(l.name(), eval(l.init(), operands, locals));
    }
    return eval(body.result(), operands, locals);
  }

  private static double d(Object o) {
    return (Double) o;
  }

  private static Object eval(Expr e, Object[] ops, Map<String, Object> locals) {
    return switch (e) {
      case Expr.Operand o -> ops[o.index()];
      case Expr.ScalarRef s -> throw new AssertionError("no scalars here");
      case Expr.LocalRef l -> locals.get(l.name());
      case Expr.Literal l -> l.value();
      case Expr.Unary u -> u.op() == Expr.UnaryOp.NEG
          ? (Object) (-d(eval(u.operand(), ops, locals)))
          : (Object) !(Boolean) eval(u.operand(), ops, locals);
      case Expr.Binary b -> {
        Object l = eval(b.left(), ops, locals);
        Object r = eval(b.right(), ops, locals);
        yield switch (b.op()) {
          case ADD -> d(l) + d(r);
          case SUB -> d(l) - d(r);
          case MUL -> d(l) * d(r);
          case DIV -> d(l) / d(r);
          case REM -> d(l) % d(r);
          case LT -> d(l) < d(r);
          case LE -> d(l) <= d(r);
          case GT -> d(l) > d(r);
          case GE -> d(l) >= d(r);
          case EQ -> d(l) == d(r);
          case NE -> d(l) != d(r);
          case AND -> (Boolean) l && (Boolean) r;
          case OR -> (Boolean) l || (Boolean) r;
          default -> throw new AssertionError(b.op());
        };
      }
      case Expr.OpCall c -> eval(c.value(), ops, locals);
      case Expr.Conditional c -> (Boolean) eval(c.condition(), ops, locals)
          ? eval(c.whenTrue(), ops, locals)
          : eval(c.whenFalse(), ops, locals);
      case Expr.Call c -> {
        double[] a = c.args().stream().mapToDouble(x -> d(eval(x, ops, locals))).toArray();
        yield switch (c.function()) {
          case ABS -> Math.abs(a[0]);
          case MIN -> Math.min(a[0], a[1]);
          case MAX -> Math.max(a[0], a[1]);
          case SQRT -> Math.sqrt(a[0]);
          case CBRT -> Math.cbrt(a[0]);
          case EXP -> Math.exp(a[0]);
          case EXPM1 -> Math.expm1(a[0]);
          case LOG -> Math.log(a[0]);
          case LOG1P -> Math.log1p(a[0]);
          case LOG10 -> Math.log10(a[0]);
          case SIN -> Math.sin(a[0]);
          case COS -> Math.cos(a[0]);
          case TAN -> Math.tan(a[0]);
          case ASIN -> Math.asin(a[0]);
          case ACOS -> Math.acos(a[0]);
          case ATAN -> Math.atan(a[0]);
          case SINH -> Math.sinh(a[0]);
          case COSH -> Math.cosh(a[0]);
          case TANH -> Math.tanh(a[0]);
          case POW -> Math.pow(a[0], a[1]);
          case HYPOT -> Math.hypot(a[0], a[1]);
          case ATAN2 -> Math.atan2(a[0], a[1]);
          case FMA -> Math.fma(a[0], a[1], a[2]);
          case FLOOR -> Math.floor(a[0]);
          case CEIL -> Math.ceil(a[0]);
          case RINT -> Math.rint(a[0]);
          case SIGNUM -> Math.signum(a[0]);
          case COPY_SIGN -> Math.copySign(a[0], a[1]);
          case TO_RADIANS -> Math.toRadians(a[0]);
          case TO_DEGREES -> Math.toDegrees(a[0]);
          case NEXT_UP -> Math.nextUp(a[0]);
          case NEXT_DOWN -> Math.nextDown(a[0]);
          case NEXT_AFTER -> Math.nextAfter(a[0], a[1]);
          case ULP -> Math.ulp(a[0]);
          case GET_EXPONENT -> (double) Math.getExponent(a[0]);
          case SCALB -> Math.scalb(a[0], (int) a[1]);
          case ERF -> SpecialMath.erf(a[0]);
          case ERFC -> SpecialMath.erfc(a[0]);
          case LGAMMA -> SpecialMath.lgamma(a[0]);
          case DIGAMMA -> SpecialMath.digamma(a[0]);
          case TRIGAMMA -> SpecialMath.trigamma(a[0]);
          case EXPIT -> SpecialMath.expit(a[0]);
          case LOGIT -> SpecialMath.logit(a[0]);
          case XLOGY -> SpecialMath.xlogy(a[0], a[1]);
          case SINC -> SpecialMath.sinc(a[0]);
          case IPOW -> (double) SpecialMath.ipow((long) a[0], (long) a[1]);
        };
      }
    };
  }

  /** The backward's value at {@code point} with gradient {@code grad}; 0 for a ZERO gradient. */
  private static double backward(Derivatives.Gradient g, double grad, double... point) {
    return switch (g.kind()) {
      case ZERO -> 0;
      case IDENTITY -> grad;
      case OP -> {
        // Operand 0 is the gradient; the others are the forward operands it reads, by name.
        List<OpModel.TensorParam> params = g.backward().tensors();
        Object[] ops = new Object[params.size()];
        ops[0] = grad;
        for (int i = 1; i < params.size(); i++) {
          ops[i] = point[List.of("x", "y", "z").indexOf(params.get(i).name())];
        }
        yield d(eval(g.backward().overload(ValueType.DOUBLE).orElseThrow().body(), ops));
      }
    };
  }

  private static double forward(Body body, double... point) {
    Object[] ops = new Object[point.length];
    for (int i = 0; i < point.length; i++) {
      ops[i] = point[i];
    }
    return d(eval(body, ops));
  }

  /**
   * Checks every operand's derived gradient against central differences at {@code point}; skips
   * points where the function is not finite or not smooth (the one-sided differences disagree).
   * Returns how many operands were checked.
   */
  private static int checkAt(Body body, List<Derivatives.Gradient> gradients, double... point) {
    int checked = 0;
    for (Derivatives.Gradient g : gradients) {
      int k = g.operand();
      double x = point[k];
      double h = 1e-6 * Math.max(1, Math.abs(x));
      double[] plus = point.clone();
      double[] minus = point.clone();
      plus[k] = x + h;
      minus[k] = x - h;
      double f0 = forward(body, point);
      double fp = forward(body, plus);
      double fm = forward(body, minus);
      if (!Double.isFinite(f0) || !Double.isFinite(fp) || !Double.isFinite(fm)) {
        continue;
      }
      double right = (fp - f0) / h;
      double left = (f0 - fm) / h;
      if (Math.abs(right - left) > 1e-3 * Math.max(1, Math.abs(right))) {
        continue; // a kink or a jump between the samples: not a point to differentiate at
      }
      double numeric = (fp - fm) / (2 * h);
      double analytic = backward(g, 1.0, point);
      double scaled = backward(g, 2.5, point);
      String where = BodyPrinter.print(body) + " at " + java.util.Arrays.toString(point)
          + " d/operand " + k;
      assertTrue(Math.abs(analytic - numeric) <= 1e-5 + 1e-4 * Math.abs(numeric),
          where + ": derived " + analytic + ", central difference " + numeric);
      assertEquals(2.5 * analytic, scaled, 1e-12 * Math.max(1, Math.abs(scaled)), where);
      checked++;
    }
    return checked;
  }

  private static final double[] POINTS = {-2.1, -0.73, -0.31, 0.37, 0.9, 1.7, 2.6};

  // SpecialMath.trigamma's derivative is NaN (no polygamma(2) yet) and ipow is integral only.
  @ParameterizedTest
  @EnumSource(value = MathFunction.class, mode = EnumSource.Mode.EXCLUDE,
      names = {"TRIGAMMA", "IPOW"})
  void everyMathFunctionMatchesCentralDifferencesThroughALocal(MathFunction f) {
    // final double u = 0.8 * x + 0.1 * y; return f(u, y, z): the chain rule through a local, and
    // each argument position.
    Expr u = new Expr.LocalRef("u", ValueType.DOUBLE);
    Expr init = bin(BinaryOp.ADD, bin(BinaryOp.MUL, lit(0.8), X), bin(BinaryOp.MUL, lit(0.1), Y));
    List<Expr> args = new ArrayList<>(List.of(u, Y, Z).subList(0, f.arity()));
    Body body = new Body(List.of(new Body.Local("u", init)),
        new Expr.Call(f, args, ValueType.DOUBLE));
    int tensors = Math.max(2, f.arity());
    List<Derivatives.Gradient> gradients = gradients(op("f", tensors, body));
    int checked = 0;
    for (double a : POINTS) {
      for (double b : POINTS) {
        double[] point = tensors == 2 ? new double[] {a, b} : new double[] {a, b, 0.5 * a - b};
        checked += checkAt(body, gradients, point);
      }
    }
    assertTrue(checked > 20, f + ": only " + checked + " smooth points checked");
  }

  @ParameterizedTest
  @EnumSource(value = BinaryOp.class, names = {"ADD", "SUB", "MUL", "DIV", "REM"})
  void operatorsAndConditionalsMatchCentralDifferences(BinaryOp operator) {
    // final double s = x OP y; return s > 0 ? -s * x : s / (1 + y * y);
    Expr s = new Expr.LocalRef("s", ValueType.DOUBLE);
    Body body = new Body(List.of(new Body.Local("s", bin(operator, X, Y))),
        new Expr.Conditional(bin(BinaryOp.GT, s, lit(0)),
            bin(BinaryOp.MUL, new Expr.Unary(Expr.UnaryOp.NEG, s, ValueType.DOUBLE), X),
            bin(BinaryOp.DIV, s, bin(BinaryOp.ADD, lit(1), bin(BinaryOp.MUL, Y, Y))),
            ValueType.DOUBLE));
    List<Derivatives.Gradient> gradients = gradients(op("f", 2, body));
    int checked = 0;
    for (double a : POINTS) {
      for (double b : POINTS) {
        checked += checkAt(body, gradients, a, b);
      }
    }
    assertTrue(checked > 60, operator + ": only " + checked + " points checked");
  }

  // ---------------------------------------------------------------------------- called ops

  private static Expr neg(Expr e) {
    return new Expr.Unary(Expr.UnaryOp.NEG, e, ValueType.DOUBLE);
  }

  /** {@code 1 / (1 + e^-u)}, sigmoid's body. */
  private static Expr sigmoid(Expr u) {
    return bin(BinaryOp.DIV, lit(1), bin(BinaryOp.ADD, lit(1), call(MathFunction.EXP, neg(u))));
  }

  /**
   * Sigmoid as a called op ({@code Operand(0)} its parameter) that declares PyTorch's
   * {@code sigmoid_backward}, {@code grad * (1 - y) * y}, over the gradient slot
   * {@code Operand(1)}.
   */
  private static final Derivatives.Callee SIGMOID = new Derivatives.Callee("sigmoid", 1,
      returns(sigmoid(new Expr.Operand(0, "p", ValueType.DOUBLE))),
      Map.of(0, new Body(
          List.of(new Body.Local("y", sigmoid(new Expr.Operand(0, "p", ValueType.DOUBLE)))),
          bin(BinaryOp.MUL, bin(BinaryOp.MUL, new Expr.Operand(1, "grad", ValueType.DOUBLE),
                  bin(BinaryOp.SUB, lit(1), new Expr.LocalRef("y", ValueType.DOUBLE))),
              new Expr.LocalRef("y", ValueType.DOUBLE)))));

  /** {@code sigmoid(arg)} as BodyLowering inlines a call to the op: marked. */
  private static Expr sigmoidCall(Expr arg) {
    return new Expr.OpCall(sigmoid(arg), List.of(arg), SIGMOID);
  }

  @Test
  void aCalledOpsDeclaredDerivativeIsUsedForItsPart() {
    // silu(x) = x * sigmoid(x). Far below 0 the derivative of sigmoid's body is inf / inf, NaN;
    // the declared one is 0, as PyTorch's autograd of x * torch.sigmoid(x).
    Body marked = returns(bin(BinaryOp.MUL, X, sigmoidCall(X)));
    Derivatives.Gradient g = gradients(op("silu", 1, marked)).get(0);
    assertEquals(0.0, backward(g, 1.0, -800), "with sigmoid's declared derivative");
    assertTrue(Double.isNaN(backward(gradients(op("silu", 1, marked.unmarked())).get(0), 1.0,
        -800)), "the derivative of sigmoid's body, which the mark replaces");
    // The declared formula's local y is the forward value of the call: one local, t.
    assertEquals("final double t = 1.0 / (1.0 + Math.exp(-x));\n"
            + "return grad * (t + x * ((1.0 - t) * t));",
        BodyPrinter.print(g.backward().overload(ValueType.DOUBLE).orElseThrow().body()));
    int checked = 0;
    for (double x : POINTS) {
      checked += checkAt(marked.unmarked(), List.of(g), x);
    }
    assertEquals(POINTS.length, checked);
  }

  @Test
  void theChainRuleTakesEachArgumentsPartDeclaredOrDerived() {
    // g(a, b) = a * e^b declares only its derivative in a (as 2 * grad * e^b, twice the true
    // one, so that the test sees it is used); f(x, y) = g(x * y, y) + y: the part through a is
    // the declared one times d(x * y), the part through b is derived from g's body.
    Expr.Operand a = new Expr.Operand(0, "a", ValueType.DOUBLE);
    Expr.Operand b = new Expr.Operand(1, "b", ValueType.DOUBLE);
    Expr.Operand slot = new Expr.Operand(2, "grad", ValueType.DOUBLE);
    Derivatives.Callee g = new Derivatives.Callee("g", 2,
        returns(bin(BinaryOp.MUL, a, call(MathFunction.EXP, b))),
        Map.of(0, returns(bin(BinaryOp.MUL, bin(BinaryOp.MUL, lit(2), slot),
            call(MathFunction.EXP, b)))));
    Expr xy = bin(BinaryOp.MUL, X, Y);
    Expr value = bin(BinaryOp.MUL, xy, call(MathFunction.EXP, Y));
    Body marked = returns(bin(BinaryOp.ADD, new Expr.OpCall(value, List.of(xy, Y), g), Y));
    List<Derivatives.Gradient> gradients = gradients(op("f", 2, marked));
    for (double x : POINTS) {
      for (double y : POINTS) {
        double e = Math.exp(y);
        // declared: 2 e^y * d(xy); derived: xy e^y * dy; plus dy.
        assertEquals(2 * e * y, backward(gradients.get(0), 1.0, x, y), 1e-12 * e * 10);
        assertEquals(2 * e * x + x * y * e + 1, backward(gradients.get(1), 1.0, x, y),
            1e-12 * e * 100);
      }
    }
  }

  @Test
  void aMarkedCallInsideACalledOpIsDifferentiatedWithItsDeclaredDerivative() {
    // h(q) = 3 * sigmoid(q), with no derivative of its own, is called by f(x) = h(x - 1): h's
    // part is derived from its template, in which the call to sigmoid is marked; far below 0
    // the result stays 0 (NaN through sigmoid's body).
    Expr.Operand q = new Expr.Operand(0, "q", ValueType.DOUBLE);
    Derivatives.Callee h = new Derivatives.Callee("h", 1,
        returns(bin(BinaryOp.MUL, lit(3), sigmoidCall(q))), Map.of());
    Expr shifted = bin(BinaryOp.SUB, X, lit(1));
    Body marked = returns(new Expr.OpCall(bin(BinaryOp.MUL, lit(3), sigmoidCall(shifted)),
        List.of(shifted), h));
    Derivatives.Gradient g = gradients(op("f", 1, marked)).get(0);
    assertEquals(0.0, backward(g, 1.0, -800));
    int checked = 0;
    for (double x : POINTS) {
      checked += checkAt(marked.unmarked(), List.of(g), x);
    }
    assertEquals(POINTS.length, checked);
  }

  private static String printed(Body body, int operand) {
    Derivatives.Gradient g = gradients(op("f", 2, body)).get(operand);
    return switch (g.kind()) {
      case ZERO -> "ZERO";
      case IDENTITY -> "IDENTITY";
      case OP -> BodyPrinter.print(g.backward().overload(ValueType.DOUBLE).orElseThrow().body());
    };
  }

  private static Body returns(Expr e) {
    return new Body(List.of(), e);
  }

  @Test
  void simplifiesToWhatPyTorchWrites() {
    assertEquals("IDENTITY", printed(returns(bin(BinaryOp.ADD, X, Y)), 0));
    assertEquals("return -grad;", printed(returns(bin(BinaryOp.SUB, X, Y)), 1));
    assertEquals("return grad * y;", printed(returns(bin(BinaryOp.MUL, X, Y)), 0));
    assertEquals("return grad / y;", printed(returns(bin(BinaryOp.DIV, X, Y)), 0));
    // div_tensor_other_backward: -grad * ((self / other) / other)
    assertEquals("return -(grad * (x / y / y));", printed(returns(bin(BinaryOp.DIV, X, Y)), 1));
    assertEquals("return grad / (2.0 * Math.sqrt(x));",
        printed(returns(call(MathFunction.SQRT, X)), 0));
    assertEquals("return grad / x;", printed(returns(call(MathFunction.LOG, X)), 0));
    assertEquals("ZERO", printed(returns(call(MathFunction.FLOOR, X)), 0));
    // fmod: the dividend's gradient passes; the divisor's is -grad * trunc(x / y).
    assertEquals("IDENTITY", printed(returns(bin(BinaryOp.REM, X, Y)), 0));
    assertEquals(
        "return -(x / y < 0.0 ? grad * Math.ceil(x / y) : grad * Math.floor(x / y));",
        printed(returns(bin(BinaryOp.REM, X, Y)), 1));
    assertEquals("ZERO", printed(returns(bin(BinaryOp.MUL, call(MathFunction.SIGNUM, X), Y)), 0));
  }

  @Test
  void masksTheGradientOnTheBranchNotTaken() {
    Body relu = returns(new Expr.Conditional(bin(BinaryOp.GT, X, lit(0)), X, lit(0),
        ValueType.DOUBLE));
    assertEquals("return x > 0.0 ? grad : 0.0;", printed(relu, 0));
    assertEquals("return x > 0.0 ? grad : x < 0.0 ? -grad : 0.0;",
        printed(returns(call(MathFunction.ABS, X)), 0));
  }

  @Test
  void splitsTiesOfMaxAndMinInHalf() {
    Body max = returns(call(MathFunction.MAX, X, Y));
    List<Derivatives.Gradient> g = gradients(op("f", 2, max));
    assertEquals(0.5, backward(g.get(0), 1, 2, 2));
    assertEquals(0.5, backward(g.get(1), 1, 2, 2));
    assertEquals(1.0, backward(g.get(0), 1, 3, 2));
    assertEquals(0.0, backward(g.get(1), 1, 3, 2));
    Body min = returns(call(MathFunction.MIN, X, Y));
    List<Derivatives.Gradient> h = gradients(op("f", 2, min));
    assertEquals(0.5, backward(h.get(1), 1, -1, -1));
    assertEquals(1.0, backward(h.get(1), 1, 3, 2));
    // abs'(0) = 0; pow: 0 in the base where the exponent is 0, in the exponent at a zero base.
    assertEquals(0.0, backward(gradients(op("f", 2, returns(call(MathFunction.ABS, X)))).get(0),
        1, 0, 0));
    List<Derivatives.Gradient> pow = gradients(op("f", 2, returns(call(MathFunction.POW, X, Y))));
    assertEquals(0.0, backward(pow.get(0), 1, 0, 0));
    assertEquals(0.0, backward(pow.get(1), 1, 0, 2));
  }

  @Test
  void namesARepeatedSubexpressionOnce() {
    // sigmoid as 1 / (1 + exp(-x)): exp(-x) appears in the forward and derivative terms.
    Expr e = call(MathFunction.EXP, new Expr.Unary(Expr.UnaryOp.NEG, X, ValueType.DOUBLE));
    Body sigmoid = returns(bin(BinaryOp.DIV, lit(1), bin(BinaryOp.ADD, lit(1), e)));
    String printed = printed(sigmoid, 0);
    assertEquals(1, printed.split("Math.exp", -1).length - 1, printed);
    // Deterministic: the same text on every derivation.
    assertEquals(printed, printed(sigmoid, 0));
  }

  @Test
  void chainsThroughLocalsWithOneDerivativeLocalEach() {
    // gelu (tanh): final double inner = c * (x + 0.044715 * (x * x * x)); return 0.5 * x * (1 +
    // tanh(inner));
    Expr inner = new Expr.LocalRef("inner", ValueType.DOUBLE);
    Expr cube = bin(BinaryOp.MUL, bin(BinaryOp.MUL, X, X), X);
    Body gelu = new Body(
        List.of(new Body.Local("inner", bin(BinaryOp.MUL, lit(0.7978845608028654),
            bin(BinaryOp.ADD, X, bin(BinaryOp.MUL, lit(0.044715), cube))))),
        bin(BinaryOp.MUL, bin(BinaryOp.MUL, lit(0.5), X),
            bin(BinaryOp.ADD, lit(1), call(MathFunction.TANH, inner))));
    String printed = printed(gelu, 0);
    assertTrue(printed.contains("final double dInner = "), printed);
    assertTrue(printed.startsWith("final double inner = "), printed);
    int checked = 0;
    List<Derivatives.Gradient> g = gradients(op("gelu", 2, gelu));
    for (double a : POINTS) {
      checked += checkAt(gelu, g, a, 0);
    }
    assertEquals(POINTS.length * 2, checked);
  }

  @Test
  void everyBackwardOpHasOneKernelPerFloatingDtype() {
    OpModel mul = op("mul", 2, returns(bin(BinaryOp.MUL, X, Y)));
    OpModel backward = gradients(mul).get(0).backward();
    assertEquals("mul_grad_x", backward.name());
    // Only the operands the formula reads: grad * y.
    assertEquals(List.of("grad", "y"),
        backward.tensors().stream().map(OpModel.TensorParam::name).toList());
    List<KernelEntry> entries = Derivatives.entries(backward,
        Set.copyOf(List.of(dev.ufunc4j.dtype.DType.values())));
    assertEquals(4, entries.size());
    for (KernelEntry e : entries) {
      assertEquals(Set.of(e.promoted()), Set.copyOf(e.operands()));
    }
  }

  @Test
  void predicatesAndIntegralOpsHaveNoGradient() {
    OpModel less = new OpModel("less", new OpModel.DeclaringClass("p", "C", "p.C", "p.C"),
        Promote.PROMOTE, List.of(new OpModel.TensorParam("x", false),
            new OpModel.TensorParam("y", false)), List.of(), true,
        List.of(new OpModel.Overload(ValueType.DOUBLE, "less(double, double)",
            returns(bin(BinaryOp.LT, X, Y)))), false);
    assertEquals(List.of(), gradients(less));
    if (!Derivatives.differentiable(less)) {
      return;
    }
    fail("a predicate is not differentiable");
  }
}
