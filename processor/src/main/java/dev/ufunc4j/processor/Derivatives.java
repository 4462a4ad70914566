package dev.ufunc4j.processor;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.processor.Expr.UnaryOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The backward of an op, derived from its lowered {@code double} body by symbolic
 * differentiation: for each floating tensor operand {@code x}, a backward op over the incoming
 * gradient and the forward operands the formula reads ({@code (grad, x1, ..., xn)} at most; the
 * forward op's {@code @Scalar} parameters too) that computes {@code grad * ∂f/∂x}. The backward
 * op is an ordinary {@link OpModel}: the same kernel, kernel-class and descriptor generators turn
 * it into kernels. docs/gradients.md has the rules.
 *
 * <p>How a body is differentiated: forward mode over the body's statements (each local's
 * derivative becomes a local of its own, so the chain rule through locals costs one expression
 * per local), then the incoming gradient multiplies the result's derivative and is pushed into
 * {@code ?:} branches, so that a derivative that is 0 on one branch masks the gradient ({@code c ?
 * grad : 0}, PyTorch's {@code where(c, grad, 0)}) instead of multiplying it by 0. Derived
 * expressions are simplified as they are built ({@code 0 * x}, {@code 1 * x}, {@code x + 0},
 * constant folding), unused locals are dropped and repeated sub-expressions become locals, so
 * that the generated code stays readable.
 *
 * <p>Conventions at non-smooth points, as PyTorch's derivatives.yaml (and JAX where they agree):
 * {@code ?:} differentiates the branch taken; {@code Math.abs} has derivative 0 at 0; {@code
 * Math.max}/{@code Math.min} give each side half on a tie ({@code torch.maximum}); {@code floor},
 * {@code ceil}, {@code rint}, {@code signum} have derivative 0; {@code Math.pow(u, v)} has
 * derivative 0 in {@code u} where {@code v == 0} and 0 in {@code v} where {@code u == 0 && v >=
 * 0} (PyTorch's {@code pow_backward}); {@code u % v} (fmod) has derivative 1 in {@code u} and
 * {@code -trunc(u / v)} in {@code v} (PyTorch's {@code fmod}). Comparisons and boolean values
 * carry no gradient.
 */
final class Derivatives {

  private Derivatives() {}

  /** How the gradient with respect to one tensor operand is computed. */
  enum Kind {
    /** The gradient is zero wherever the op is defined (sign, floor): no kernel. */
    ZERO,
    /** The gradient is the incoming gradient itself (add): no kernel. */
    IDENTITY,
    /** A generated backward op computes it. */
    OP
  }

  /**
   * The gradient with respect to tensor operand {@code operand} (an index into the forward op's
   * tensors, conditions included).
   *
   * @param backward for {@link Kind#OP}: the backward op; else null
   * @param declared true when a {@code @Derivative} method gave it
   */
  record Gradient(int operand, Kind kind, OpModel backward, boolean declared) {}

  /**
   * Whether {@code op} has gradients: a non-predicate op with a {@code double} body and one result
   * (an op with several results has none yet: the runtime refuses it on tensors that require
   * gradients, docs/processor.md "Several results").
   */
  static boolean differentiable(OpModel op) {
    return !op.predicate() && !op.hasSeveralResults()
        && op.overload(ValueType.DOUBLE).isPresent();
  }

  /**
   * The gradient of every floating tensor operand of {@code op}, in operand order; empty when the
   * op is not {@link #differentiable}.
   *
   * @param declared per operand index, a {@code @Derivative} body in backward numbering (operand 0
   *     is the incoming gradient, forward operand {@code j} is {@code j + 1}) whose result is the
   *     gradient itself
   */
  static List<Gradient> of(OpModel op, Map<Integer, Body> declared) {
    if (!differentiable(op)) {
      return List.of();
    }
    OpModel.Overload forward = op.overload(ValueType.DOUBLE).orElseThrow();
    // The marked body: a call to an op that declares a derivative differentiates with it.
    Set<String> taken = names(op, forward.marked());
    String grad = unique("grad", taken);
    taken.add(grad);
    Body shifted = shift(forward.marked());
    List<Gradient> gradients = new ArrayList<>();
    for (int k = 0; k < op.tensors().size(); k++) {
      OpModel.TensorParam param = op.tensors().get(k);
      if (param.condition()) {
        continue;
      }
      Expr.Operand gradRef = new Expr.Operand(0, grad, ValueType.DOUBLE);
      Body custom = declared.get(k);
      Body backward = custom != null
          ? tidy(custom, taken)
          : derive(shifted, k + 1, gradRef, taken);
      Expr result = backward.result();
      Kind kind = Simplify.isZero(result)
          ? Kind.ZERO
          : result.equals(gradRef) ? Kind.IDENTITY : Kind.OP;
      OpModel model = kind != Kind.OP ? null : backwardOp(op, forward, param, grad, backward);
      gradients.add(new Gradient(k, kind, model, custom != null));
    }
    return gradients;
  }

  /** {@code silu_grad_x}: the backward op's name, also its descriptor's and kernels' suffix. */
  static String backwardName(OpModel op, String operand) {
    return op.name() + "_grad_" + operand;
  }

  /**
   * The backward op: operand 0 is the incoming gradient, then only the forward operands its body
   * reads, in their order and with their names (by which the runtime passes them); the forward
   * op's scalars. An operand the formula does not read is not loaded ({@code mul}'s gradient for
   * {@code a} is {@code grad * b}: two operands, and the two-operand kernels' fast loops).
   */
  private static OpModel backwardOp(OpModel op, OpModel.Overload forward,
      OpModel.TensorParam operand, String grad, Body body) {
    Set<Integer> read = new java.util.TreeSet<>(operandsRead(body, body.result()));
    read.remove(0);
    Map<Integer, Integer> renumbered = new HashMap<>();
    renumbered.put(0, 0);
    List<OpModel.TensorParam> tensors = new ArrayList<>();
    tensors.add(new OpModel.TensorParam(grad, false));
    for (int index : read) {
      renumbered.put(index, tensors.size());
      tensors.add(op.tensors().get(index - 1));
    }
    return new OpModel(backwardName(op, operand.name()), op.declaringClass(), Promote.PROMOTE,
        tensors, op.scalars(), false,
        List.of(new OpModel.Overload(ValueType.DOUBLE, forward.javadocSignature(),
            renumber(body, renumbered))),
        false, // its operands share one floating dtype: no 16-bit operand beside a scalar
        op.dtypes()); // and the forward op's restriction
  }

  /**
   * The kernel table of a backward op: one entry per floating dtype in {@code dtypes}, every
   * operand of that dtype (conditions BOOL). Other combinations take the runtime's convert-first
   * path, which keeps the generated code small: 4 kernels per backward op.
   */
  static List<KernelEntry> entries(OpModel backward, Set<DType> dtypes) {
    List<KernelEntry> entries = new ArrayList<>();
    for (DType d : List.of(DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64)) {
      if (!dtypes.contains(d) || !backward.allows(d)) {
        continue;
      }
      List<DType> operands = new ArrayList<>();
      for (OpModel.TensorParam t : backward.tensors()) {
        operands.add(t.condition() ? DType.BOOL : d);
      }
      DType compute = d == DType.FLOAT64 ? DType.FLOAT64 : DType.FLOAT32;
      Lane lanes = d == DType.FLOAT64 ? Lane.DOUBLE : Lane.FLOAT;
      entries.add(new KernelEntry(
          operands, d, compute, d, ValueType.DOUBLE, lanes, false, false));
    }
    return entries;
  }

  // ---------------------------------------------------------------------------- derivation

  /**
   * What the chain rule needs of an op that another op's body calls ({@link Expr.OpCall}): its
   * body and its declared derivatives, both over placeholders for its parameters ({@code
   * Operand(i)} is parameter {@code i} in declaration order, {@code @Scalar} ones included).
   *
   * @param op the called op's name, which prefixes the locals its derivatives add
   * @param parameters how many parameters the called op has
   * @param template the called op's {@code double} body, possibly marked itself
   * @param declared by parameter position, the {@code @Derivative} of that operand as a gradient
   *     body: {@code Operand(parameters)} is the incoming gradient
   */
  record Callee(String op, int parameters, Body template, Map<Integer, Body> declared) {
    Callee {
      declared = Map.copyOf(declared);
    }

    /** The gradient slot of {@link #declared} and {@link #partial}'s bodies. */
    Expr.Operand gradient() {
      return new Expr.Operand(parameters, "grad", ValueType.DOUBLE);
    }

    /**
     * {@code grad * ∂op/∂(parameter i)} over the placeholders: the declared derivative where
     * there is one, else derived from the body.
     */
    Body partial(int i) {
      Body known = declared.get(i);
      if (known != null) {
        return known;
      }
      Set<String> taken = new HashSet<>();
      template.locals().forEach(l -> taken.add(l.name()));
      return derive(template, i, gradient(), taken);
    }
  }

  /**
   * The backward body of {@code body} (already in backward numbering) with respect to operand
   * {@code wrt}: the forward locals it needs, one derivative local per non-trivial local
   * derivative, and {@code grad * d(result)}.
   */
  static Body derive(Body body, int wrt, Expr.Operand grad, Set<String> taken) {
    Map<String, Expr> derivatives = new HashMap<>();
    List<Body.Local> locals = new ArrayList<>();
    // The locals a called op's derivative brings (Differentiator#opCall) join in the order used.
    Differentiator d = new Differentiator(wrt, derivatives, locals, taken);
    for (Body.Local local : body.locals()) {
      locals.add(local);
      if (local.init().type() != ValueType.DOUBLE) {
        continue;
      }
      Expr derivative = d.d(local.init());
      if (trivial(derivative)) {
        derivatives.put(local.name(), derivative);
      } else {
        String name = unique("d" + capitalize(local.name()), taken);
        taken.add(name);
        locals.add(new Body.Local(name, derivative));
        derivatives.put(local.name(), new Expr.LocalRef(name, ValueType.DOUBLE));
      }
    }
    Expr result = Simplify.timesGradient(grad, d.d(body.result()));
    return tidy(new Body(locals, result), taken);
  }

  /** Drops the marks of calls, unused locals, and names repeated sub-expressions. */
  private static Body tidy(Body body, Set<String> taken) {
    Body unmarked = body.unmarked();
    Body tidy = Simplify.commonSubexpressions(Simplify.withoutUnusedLocals(unmarked), taken);
    // Only where a called op's derivative brought locals (a body without marks stays as it was).
    return unmarked == body ? tidy : withoutAliases(tidy);
  }

  /**
   * The body without locals that only rename another ({@code final double y = t;}, where naming
   * a repeated expression replaced a called op's local's initializer): their readers read the
   * other local.
   */
  private static Body withoutAliases(Body body) {
    Map<String, Expr> alias = new HashMap<>();
    java.util.function.UnaryOperator<Expr> leaf =
        e -> e instanceof Expr.LocalRef l && alias.containsKey(l.name()) ? alias.get(l.name()) : e;
    List<Body.Local> locals = new ArrayList<>();
    for (Body.Local l : body.locals()) {
      Expr init = Expr.mapLeaves(l.init(), leaf);
      if (init instanceof Expr.LocalRef) {
        alias.put(l.name(), init);
      } else {
        locals.add(new Body.Local(l.name(), init));
      }
    }
    return alias.isEmpty() ? body : new Body(locals, Expr.mapLeaves(body.result(), leaf));
  }

  private static boolean trivial(Expr e) {
    return e instanceof Expr.Literal || e instanceof Expr.Operand || e instanceof Expr.LocalRef
        || e instanceof Expr.ScalarRef;
  }

  /**
   * Forward-mode derivative of expressions with respect to one operand.
   *
   * @param locals the derivative of each local of the body, by name
   * @param added where the locals of a called op's derivative go, before the expression that
   *     reads them
   * @param taken every name in use (the added locals take new ones)
   */
  private record Differentiator(int wrt, Map<String, Expr> locals, List<Body.Local> added,
      Set<String> taken) {

    Expr d(Expr e) {
      if (e.type() != ValueType.DOUBLE) {
        return Simplify.ZERO;
      }
      return switch (e) {
        case Expr.Operand o -> o.index() == wrt ? Simplify.ONE : Simplify.ZERO;
        case Expr.ScalarRef s -> Simplify.ZERO;
        case Expr.Literal l -> Simplify.ZERO;
        case Expr.LocalRef l -> locals.getOrDefault(l.name(), Simplify.ZERO);
        case Expr.Unary u -> u.op() == UnaryOp.NEG ? Simplify.neg(d(u.operand())) : Simplify.ZERO;
        case Expr.Binary b -> binary(b);
        case Expr.Conditional c -> Simplify.cond(c.condition(), d(c.whenTrue()), d(c.whenFalse()));
        case Expr.Call c -> call(c);
        case Expr.OpCall c -> opCall(c);
      };
    }

    /**
     * The chain rule through a called op: the sum over its arguments of {@code ∂op/∂arg * d(arg)},
     * each part the op's declared derivative where it declares one ({@link Callee#partial}), with
     * {@code d(arg)} in the place of the gradient (for one variable the gradient body is linear
     * in the gradient, so it gives the directional derivative too).
     */
    private Expr opCall(Expr.OpCall c) {
      List<Expr> args = c.args();
      Expr sum = Simplify.ZERO;
      for (int i = 0; i < args.size(); i++) {
        Expr da = d(args.get(i));
        if (!Simplify.isZero(da)) {
          sum = Simplify.add(sum, place(c.callee(), c.callee().partial(i), args, da));
        }
      }
      return sum;
    }

    /**
     * A partial of {@code callee} with the call's arguments and {@code da} in its placeholders;
     * its locals become locals of the body being derived, named after the op.
     */
    private Expr place(Callee callee, Body partial, List<Expr> args, Expr da) {
      Map<String, Expr> renamed = new HashMap<>();
      java.util.function.UnaryOperator<Expr> leaf = x -> switch (x) {
        case Expr.Operand o -> o.index() == callee.parameters() ? da : args.get(o.index());
        case Expr.LocalRef l -> renamed.get(l.name());
        default -> x;
      };
      for (Body.Local l : partial.locals()) {
        Expr init = withoutOnes(Expr.mapLeaves(l.init(), leaf));
        if (trivial(init)) {
          renamed.put(l.name(), init);
        } else {
          String name = unique(callee.op() + capitalize(l.name()), taken);
          taken.add(name);
          added.add(new Body.Local(name, init));
          renamed.put(l.name(), new Expr.LocalRef(name, init.type()));
        }
      }
      return withoutOnes(Expr.mapLeaves(partial.result(), leaf));
    }

    /**
     * {@code e} without multiplications and divisions by the literal 1, which placing a
     * derivative of 1 in a gradient slot makes ({@code grad * y} becomes {@code 1.0 * y}); exact
     * for every value.
     */
    private static Expr withoutOnes(Expr e) {
      return switch (e) {
        case Expr.Binary b when b.op() == Expr.BinaryOp.MUL || b.op() == Expr.BinaryOp.DIV -> {
          Expr l = withoutOnes(b.left());
          Expr r = withoutOnes(b.right());
          yield r.equals(Simplify.ONE) ? l
              : l.equals(Simplify.ONE) && b.op() == Expr.BinaryOp.MUL ? r
              : new Expr.Binary(b.op(), l, r, b.type());
        }
        case Expr.Binary b ->
            new Expr.Binary(b.op(), withoutOnes(b.left()), withoutOnes(b.right()), b.type());
        case Expr.Unary u -> new Expr.Unary(u.op(), withoutOnes(u.operand()), u.type());
        case Expr.Conditional c -> new Expr.Conditional(withoutOnes(c.condition()),
            withoutOnes(c.whenTrue()), withoutOnes(c.whenFalse()), c.type());
        case Expr.Call c ->
            new Expr.Call(c.function(), c.args().stream().map(Differentiator::withoutOnes)
                .toList(), c.type());
        default -> e;
      };
    }

    private Expr binary(Expr.Binary b) {
      Expr u = b.left();
      Expr v = b.right();
      Expr du = d(u);
      Expr dv = d(v);
      return switch (b.op()) {
        case ADD -> Simplify.add(du, dv);
        case SUB -> Simplify.sub(du, dv);
        case MUL -> Simplify.add(Simplify.mul(du, v), Simplify.mul(u, dv));
        // PyTorch's order for the divisor: -(u / v) / v, which neither overflows nor underflows
        // where u / v is finite (u / (v * v) would).
        case DIV -> Simplify.add(Simplify.div(du, v),
            Simplify.mul(dv, Simplify.neg(Simplify.div(Simplify.div(u, v), v))));
        // fmod (Java's % on doubles): PyTorch's fmod backward, grad for the dividend and
        // -grad * trunc(u / v) for the divisor (the quotient rounded, then truncated).
        case REM -> {
          if (Simplify.isZero(dv)) {
            yield du;
          }
          Expr q = Simplify.div(u, v);
          Expr trunc = Simplify.cond(Simplify.lt(q, Simplify.ZERO), call1(MathFunction.CEIL, q),
              call1(MathFunction.FLOOR, q));
          yield Simplify.sub(du, Simplify.mul(dv, trunc));
        }
        default -> Simplify.ZERO;
      };
    }

    /** The chain rule: the sum over arguments of {@code ∂f/∂arg * d(arg)}. */
    private Expr call(Expr.Call c) {
      List<Expr> a = c.args();
      Expr sum = Simplify.ZERO;
      for (int i = 0; i < a.size(); i++) {
        Expr da = d(a.get(i));
        if (!Simplify.isZero(da)) {
          sum = Simplify.add(sum, partialTimes(c.function(), a, i, da));
        }
      }
      return sum;
    }

    /** {@code ∂f/∂args[i] * da}, written as PyTorch writes each function's backward. */
    private static Expr partialTimes(MathFunction f, List<Expr> args, int i, Expr da) {
      Expr u = args.get(0);
      return switch (f) {
        case ABS -> Simplify.cond(Simplify.gt(u, Simplify.ZERO), da,
            Simplify.cond(Simplify.lt(u, Simplify.ZERO), Simplify.neg(da), Simplify.ZERO));
        case MAX, MIN -> {
          // torch.maximum: half to each side on a tie; the other side 0; both sides where a
          // comparison with NaN is false.
          Expr self = args.get(i);
          Expr other = args.get(1 - i);
          Expr loses = f == MathFunction.MAX ? Simplify.lt(self, other) : Simplify.gt(self, other);
          yield Simplify.cond(Simplify.eq(self, other), Simplify.mul(Simplify.HALF, da),
              Simplify.cond(loses, Simplify.ZERO, da));
        }
        case SQRT -> Simplify.div(da, Simplify.mul(Simplify.lit(2), call1(MathFunction.SQRT, u)));
        case CBRT -> {
          Expr cbrt = call1(MathFunction.CBRT, u);
          yield Simplify.div(da, Simplify.mul(Simplify.lit(3), Simplify.mul(cbrt, cbrt)));
        }
        case EXP, EXPM1 -> Simplify.mul(da, call1(MathFunction.EXP, u));
        case LOG -> Simplify.div(da, u);
        case LOG1P -> Simplify.div(da, Simplify.add(Simplify.ONE, u));
        case LOG10 -> Simplify.div(da, Simplify.mul(u, Simplify.lit(Math.log(10))));
        case SIN -> Simplify.mul(da, call1(MathFunction.COS, u));
        case COS -> Simplify.neg(Simplify.mul(da, call1(MathFunction.SIN, u)));
        case TAN -> {
          Expr tan = call1(MathFunction.TAN, u);
          yield Simplify.mul(da, Simplify.add(Simplify.ONE, Simplify.mul(tan, tan)));
        }
        case ASIN, ACOS -> {
          Expr root = call1(MathFunction.SQRT,
              Simplify.sub(Simplify.ONE, Simplify.mul(u, u)));
          Expr q = Simplify.div(da, root);
          yield f == MathFunction.ASIN ? q : Simplify.neg(q);
        }
        case ATAN -> Simplify.div(da, Simplify.add(Simplify.ONE, Simplify.mul(u, u)));
        case SINH -> Simplify.mul(da, call1(MathFunction.COSH, u));
        case COSH -> Simplify.mul(da, call1(MathFunction.SINH, u));
        case TANH -> {
          Expr tanh = call1(MathFunction.TANH, u);
          yield Simplify.mul(da, Simplify.sub(Simplify.ONE, Simplify.mul(tanh, tanh)));
        }
        case POW -> {
          Expr v = args.get(1);
          if (i == 0) {
            // pow_backward_self: 0 where the exponent is 0, else v * u^(v - 1).
            Expr slope = Simplify.mul(v,
                new Expr.Call(MathFunction.POW, List.of(u, Simplify.sub(v, Simplify.ONE)),
                    ValueType.DOUBLE));
            yield Simplify.cond(Simplify.eq(v, Simplify.ZERO), Simplify.ZERO,
                Simplify.mul(da, slope));
          }
          // pow_backward_exponent: 0 where the base is 0 and the exponent non-negative.
          Expr slope = Simplify.mul(new Expr.Call(MathFunction.POW, List.of(u, v),
              ValueType.DOUBLE), call1(MathFunction.LOG, u));
          yield Simplify.cond(Simplify.and(Simplify.eq(u, Simplify.ZERO),
                  Simplify.ge(v, Simplify.ZERO)),
              Simplify.ZERO, Simplify.mul(da, slope));
        }
        case HYPOT -> Simplify.div(Simplify.mul(da, args.get(i)),
            new Expr.Call(MathFunction.HYPOT, args, ValueType.DOUBLE));
        case ATAN2 -> {
          // atan2(y, x): y' = x / (x^2 + y^2), x' = -y / (x^2 + y^2).
          Expr y = args.get(0);
          Expr x = args.get(1);
          Expr norm = Simplify.add(Simplify.mul(y, y), Simplify.mul(x, x));
          yield i == 0
              ? Simplify.div(Simplify.mul(da, x), norm)
              : Simplify.neg(Simplify.div(Simplify.mul(da, y), norm));
        }
        case FMA -> i == 2 ? da : Simplify.mul(da, args.get(1 - i));
        case COPY_SIGN -> {
          if (i == 1) {
            yield Simplify.ZERO; // the sign is a step function of the second argument
          }
          // |magnitude| with the sign of the second argument: 0 at a zero magnitude, as abs.
          Expr sign = new Expr.Call(MathFunction.COPY_SIGN,
              List.of(Simplify.ONE, Simplify.mul(u, args.get(1))), ValueType.DOUBLE);
          yield Simplify.cond(Simplify.eq(u, Simplify.ZERO), Simplify.ZERO,
              Simplify.mul(da, sign));
        }
        case TO_RADIANS -> Simplify.mul(da, Simplify.lit(Math.toRadians(1)));
        case TO_DEGREES -> Simplify.mul(da, Simplify.lit(Math.toDegrees(1)));
        case FLOOR, CEIL, RINT, SIGNUM -> Simplify.ZERO;
        // The float-bits functions (issue 26): a step of one ulp moves the value with its
        // argument (slope 1, as torch.nextafter's gradient for self, 0 for other); ulp and
        // getExponent are step functions; scalb(u, n)' is 2^n, exactly scalb(da, n).
        case NEXT_UP, NEXT_DOWN -> da;
        case NEXT_AFTER -> i == 0 ? da : Simplify.ZERO;
        case ULP, GET_EXPONENT -> Simplify.ZERO;
        case SCALB -> i == 0
            ? new Expr.Call(MathFunction.SCALB, List.of(da, args.get(1)), ValueType.DOUBLE)
            : Simplify.ZERO;
        case ERF, ERFC, LGAMMA, DIGAMMA, EXPIT, LOGIT, XLOGY, SINC, TRIGAMMA, IPOW ->
            specialPartialTimes(f, args, i, da);
      };
    }

    /** {@link #partialTimes} of a {@code SpecialMath} function, as PyTorch's derivatives.yaml. */
    private static Expr specialPartialTimes(MathFunction f, List<Expr> args, int i, Expr da) {
      Expr u = args.get(0);
      return switch (f) {
        case ERF, ERFC -> {
          // 2/sqrt(pi) e^(-u^2), negated for erfc.
          Expr slope = Simplify.mul(Simplify.lit(1.1283791670955126),
              call1(MathFunction.EXP, Simplify.neg(Simplify.mul(u, u))));
          yield f == MathFunction.ERF ? Simplify.mul(da, slope)
              : Simplify.neg(Simplify.mul(da, slope));
        }
        case LGAMMA -> Simplify.mul(da, call1(MathFunction.DIGAMMA, u));
        case DIGAMMA -> Simplify.mul(da, call1(MathFunction.TRIGAMMA, u));
        case EXPIT -> {
          Expr s = call1(MathFunction.EXPIT, u);
          yield Simplify.mul(da, Simplify.mul(Simplify.sub(Simplify.ONE, s), s));
        }
        // logit_backward without eps: 1 / (u (1 - u)).
        case LOGIT -> Simplify.div(da, Simplify.mul(u, Simplify.sub(Simplify.ONE, u)));
        case XLOGY -> i == 0
            // xlogy(x != 0, y): 0 where x is 0, log(y) elsewhere (NaN for a NaN y).
            ? Simplify.mul(da, new Expr.Call(MathFunction.XLOGY, List.of(
                Simplify.cond(Simplify.eq(u, Simplify.ZERO), Simplify.ZERO, Simplify.ONE),
                args.get(1)), ValueType.DOUBLE))
            : Simplify.div(Simplify.mul(da, u), args.get(1));
        case SINC -> {
          // (cos(pi u) - sinc(u)) / u, 0 at u = 0.
          Expr slope = Simplify.div(Simplify.sub(call1(MathFunction.COS,
              Simplify.mul(Simplify.lit(Math.PI), u)), call1(MathFunction.SINC, u)), u);
          yield Simplify.cond(Simplify.eq(u, Simplify.ZERO), Simplify.ZERO,
              Simplify.mul(da, slope));
        }
        // trigamma's derivative (polygamma(2, u)) is not in SpecialMath: NaN, documented in
        // docs/vector-math.md. ipow has only a long form, and long bodies are not differentiated.
        case TRIGAMMA -> Simplify.mul(da, Simplify.lit(Double.NaN));
        case IPOW -> Simplify.ZERO;
        default -> throw new IllegalArgumentException("not a SpecialMath function: " + f);
      };
    }

    private static Expr call1(MathFunction f, Expr u) {
      return new Expr.Call(f, List.of(u), ValueType.DOUBLE);
    }
  }

  // ---------------------------------------------------------------------------- names

  /** Every parameter and local name of the op (backward names must not collide with them). */
  private static Set<String> names(OpModel op, Body body) {
    Set<String> names = new HashSet<>();
    op.tensors().forEach(t -> names.add(t.name()));
    op.scalars().forEach(s -> names.add(s.name()));
    body.locals().forEach(l -> names.add(l.name()));
    return names;
  }

  static String unique(String base, Set<String> taken) {
    if (!taken.contains(base)) {
      return base;
    }
    for (int i = 1; ; i++) {
      if (!taken.contains(base + i)) {
        return base + i;
      }
    }
  }

  private static String capitalize(String s) {
    return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
  }

  /** The body with every operand index raised by one: operand 0 becomes the gradient's slot. */
  static Body shift(Body body) {
    return renumber(body, i -> i + 1);
  }

  /** The body with operand {@code i} renamed to operand {@code to.get(i)}. */
  static Body renumber(Body body, Map<Integer, Integer> to) {
    return renumber(body, to::get);
  }

  private static Body renumber(Body body, java.util.function.IntUnaryOperator to) {
    java.util.function.UnaryOperator<Expr> leaf = e -> e instanceof Expr.Operand o
        ? new Expr.Operand(to.applyAsInt(o.index()), o.name(), o.type())
        : e;
    List<Body.Local> locals = new ArrayList<>();
    for (Body.Local l : body.locals()) {
      locals.add(new Body.Local(l.name(), Expr.mapLeaves(l.init(), leaf)));
    }
    return new Body(locals, Expr.mapLeaves(body.result(), leaf));
  }

  /** The operands {@code e} reads, by index (locals resolved through {@code body}). */
  static Set<Integer> operandsRead(Body body, Expr e) {
    Map<String, Expr> inits = new LinkedHashMap<>();
    body.locals().forEach(l -> inits.put(l.name(), l.init()));
    Set<Integer> read = new HashSet<>();
    collect(e, inits, read, new HashSet<>());
    return read;
  }

  private static void collect(Expr e, Map<String, Expr> inits, Set<Integer> read,
      Set<String> seen) {
    Expr.any(e, x -> {
      if (x instanceof Expr.Operand o) {
        read.add(o.index());
      } else if (x instanceof Expr.LocalRef l && seen.add(l.name())
          && inits.containsKey(l.name())) {
        collect(inits.get(l.name()), inits, read, seen);
      }
      return false;
    });
  }
}
