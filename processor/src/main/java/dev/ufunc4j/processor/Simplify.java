package dev.ufunc4j.processor;

import dev.ufunc4j.processor.Expr.BinaryOp;
import dev.ufunc4j.processor.Expr.UnaryOp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builders of {@code double} expressions that simplify as they build, for derived code: {@code 0 *
 * x} and {@code x + 0} vanish, {@code 1 * x} is {@code x}, constants fold, negations cancel, and
 * {@code ?:} with equal branches is its branch. Symbolic zeros are exact zeros of the derivative
 * (JAX's symbolic zeros): {@code 0 * x} is 0 even where {@code x} is infinite, since the
 * derivative term is absent there, not a product. Plus two passes over whole bodies: unused
 * locals are dropped, and repeated sub-expressions become locals.
 */
final class Simplify {

  static final Expr.Literal ZERO = lit(0);
  static final Expr.Literal ONE = lit(1);
  static final Expr.Literal HALF = lit(0.5);

  private Simplify() {}

  static Expr.Literal lit(double v) {
    return new Expr.Literal(v, ValueType.DOUBLE);
  }

  /** The value of a {@code double} literal, or null. */
  private static Double constant(Expr e) {
    return e instanceof Expr.Literal l && l.type() == ValueType.DOUBLE ? l.doubleValue() : null;
  }

  static boolean isZero(Expr e) {
    Double c = constant(e);
    return c != null && c == 0;
  }

  private static boolean is(Expr e, double value) {
    Double c = constant(e);
    return c != null && c == value;
  }

  static Expr add(Expr a, Expr b) {
    if (isZero(a)) {
      return b;
    }
    if (isZero(b)) {
      return a;
    }
    if (constant(a) != null && constant(b) != null) {
      return lit(constant(a) + constant(b));
    }
    if (b instanceof Expr.Unary u && u.op() == UnaryOp.NEG) {
      return sub(a, u.operand());
    }
    return new Expr.Binary(BinaryOp.ADD, a, b, ValueType.DOUBLE);
  }

  static Expr sub(Expr a, Expr b) {
    if (isZero(b)) {
      return a;
    }
    if (isZero(a)) {
      return neg(b);
    }
    if (constant(a) != null && constant(b) != null) {
      return lit(constant(a) - constant(b));
    }
    if (b instanceof Expr.Unary u && u.op() == UnaryOp.NEG) {
      return add(a, u.operand());
    }
    return new Expr.Binary(BinaryOp.SUB, a, b, ValueType.DOUBLE);
  }

  static Expr mul(Expr a, Expr b) {
    if (isZero(a) || isZero(b)) {
      return ZERO;
    }
    if (is(a, 1)) {
      return b;
    }
    if (is(b, 1)) {
      return a;
    }
    if (is(a, -1)) {
      return neg(b);
    }
    if (is(b, -1)) {
      return neg(a);
    }
    if (constant(a) != null && constant(b) != null) {
      return lit(constant(a) * constant(b));
    }
    if (a instanceof Expr.Unary u && u.op() == UnaryOp.NEG) {
      return neg(mul(u.operand(), b));
    }
    if (b instanceof Expr.Unary u && u.op() == UnaryOp.NEG) {
      return neg(mul(a, u.operand()));
    }
    // A choice between constants (abs', max') selects instead of multiplying: x > 0 ? d : -d.
    if (a instanceof Expr.Conditional c && constantBranches(c)) {
      return cond(c.condition(), mul(c.whenTrue(), b), mul(c.whenFalse(), b));
    }
    if (b instanceof Expr.Conditional c && constantBranches(c)) {
      return cond(c.condition(), mul(a, c.whenTrue()), mul(a, c.whenFalse()));
    }
    return new Expr.Binary(BinaryOp.MUL, a, b, ValueType.DOUBLE);
  }

  private static boolean constantBranches(Expr.Conditional c) {
    return (constant(c.whenTrue()) != null || c.whenTrue() instanceof Expr.Conditional t
            && constantBranches(t))
        && (constant(c.whenFalse()) != null || c.whenFalse() instanceof Expr.Conditional f
            && constantBranches(f));
  }

  static Expr div(Expr a, Expr b) {
    if (isZero(a)) {
      return ZERO;
    }
    if (is(b, 1)) {
      return a;
    }
    if (is(b, -1)) {
      return neg(a);
    }
    if (constant(a) != null && constant(b) != null && constant(b) != 0) {
      return lit(constant(a) / constant(b));
    }
    if (a instanceof Expr.Unary u && u.op() == UnaryOp.NEG) {
      return neg(div(u.operand(), b));
    }
    return new Expr.Binary(BinaryOp.DIV, a, b, ValueType.DOUBLE);
  }

  static Expr neg(Expr a) {
    if (isZero(a)) {
      return ZERO;
    }
    if (constant(a) != null) {
      return lit(-constant(a));
    }
    if (a instanceof Expr.Unary u && u.op() == UnaryOp.NEG) {
      return u.operand();
    }
    return new Expr.Unary(UnaryOp.NEG, a, ValueType.DOUBLE);
  }

  static Expr cond(Expr condition, Expr whenTrue, Expr whenFalse) {
    if (whenTrue.equals(whenFalse) || isZero(whenTrue) && isZero(whenFalse)) {
      return whenTrue;
    }
    if (condition instanceof Expr.Literal l && l.value() instanceof Boolean b) {
      return b ? whenTrue : whenFalse;
    }
    return new Expr.Conditional(condition, whenTrue, whenFalse, whenTrue.type());
  }

  static Expr eq(Expr a, Expr b) {
    return compare(BinaryOp.EQ, a, b);
  }

  static Expr lt(Expr a, Expr b) {
    return compare(BinaryOp.LT, a, b);
  }

  static Expr gt(Expr a, Expr b) {
    return compare(BinaryOp.GT, a, b);
  }

  static Expr ge(Expr a, Expr b) {
    return compare(BinaryOp.GE, a, b);
  }

  private static Expr compare(BinaryOp op, Expr a, Expr b) {
    Double x = constant(a);
    Double y = constant(b);
    if (x != null && y != null) {
      boolean r = switch (op) {
        case EQ -> x.doubleValue() == y.doubleValue();
        case LT -> x < y;
        case GT -> x > y;
        default -> x >= y;
      };
      return new Expr.Literal(r, ValueType.BOOLEAN);
    }
    return new Expr.Binary(op, a, b, ValueType.BOOLEAN);
  }

  static Expr and(Expr a, Expr b) {
    if (a instanceof Expr.Literal l && l.value() instanceof Boolean v) {
      return v ? b : a;
    }
    if (b instanceof Expr.Literal l && l.value() instanceof Boolean v) {
      return v ? a : b;
    }
    return new Expr.Binary(BinaryOp.AND, a, b, ValueType.BOOLEAN);
  }

  /**
   * {@code grad * derivative}, with the gradient pushed into {@code ?:} branches (so a branch
   * whose derivative is 0 gives 0, not {@code grad * 0}) and into the numerator of a quotient
   * ({@code grad / b} rather than {@code grad * (1 / b)}: PyTorch's order, one rounding fewer; not
   * into a quotient of quotients, {@code -(grad * (a / b / b))}, where {@code grad * a} could
   * overflow).
   */
  static Expr timesGradient(Expr grad, Expr derivative) {
    if (derivative instanceof Expr.Conditional c) {
      return cond(c.condition(), timesGradient(grad, c.whenTrue()),
          timesGradient(grad, c.whenFalse()));
    }
    if (derivative instanceof Expr.Unary u && u.op() == UnaryOp.NEG) {
      return neg(timesGradient(grad, u.operand()));
    }
    if (derivative instanceof Expr.Binary b && b.op() == BinaryOp.DIV
        && !(b.left() instanceof Expr.Binary n && n.op() == BinaryOp.DIV)) {
      return div(timesGradient(grad, b.left()), b.right());
    }
    return mul(grad, derivative);
  }

  // ---------------------------------------------------------------------------- whole bodies

  /** {@code body} without the locals its result does not need. */
  static Body withoutUnusedLocals(Body body) {
    Set<String> used = new HashSet<>();
    references(body.result(), used);
    List<Body.Local> kept = new ArrayList<>();
    for (int i = body.locals().size() - 1; i >= 0; i--) {
      Body.Local l = body.locals().get(i);
      if (used.contains(l.name())) {
        kept.add(0, l);
        references(l.init(), used);
      }
    }
    return new Body(kept, body.result());
  }

  private static void references(Expr e, Set<String> names) {
    Expr.any(e, x -> {
      if (x instanceof Expr.LocalRef l) {
        names.add(l.name());
      }
      return false;
    });
  }

  /**
   * Names sub-expressions that occur more than once: the largest first, as a local declared just
   * before its first use. Only calls and expressions of four or more nodes are named (a repeated
   * {@code -x} or {@code x * y} reads better inline). Deterministic: candidates are visited in
   * the order the body is written.
   */
  static Body commonSubexpressions(Body body, Set<String> taken) {
    List<Body.Local> locals = new ArrayList<>(body.locals());
    Expr result = body.result();
    while (true) {
      Map<Expr, Integer> counts = new LinkedHashMap<>();
      for (Body.Local l : locals) {
        count(l.init(), counts);
      }
      count(result, counts);
      Expr best = null;
      for (Map.Entry<Expr, Integer> e : counts.entrySet()) {
        Expr x = e.getKey();
        if (e.getValue() >= 2 && worthNaming(x) && (best == null || size(x) > size(best))) {
          best = x;
        }
      }
      if (best == null) {
        return new Body(locals, result);
      }
      final Expr target = best;
      String name = Derivatives.unique(
          target instanceof Expr.Call c ? c.function().javaName() : "t", taken);
      taken.add(name);
      Expr ref = new Expr.LocalRef(name, target.type());
      int first = locals.size();
      for (int i = 0; i < locals.size(); i++) {
        if (Expr.any(locals.get(i).init(), x -> x.equals(target))) {
          first = i;
          break;
        }
      }
      for (int i = first; i < locals.size(); i++) {
        Body.Local l = locals.get(i);
        locals.set(i, new Body.Local(l.name(), replace(l.init(), target, ref)));
      }
      result = replace(result, target, ref);
      locals.add(first, new Body.Local(name, target));
    }
  }

  private static boolean worthNaming(Expr e) {
    return e instanceof Expr.Call || size(e) >= 4;
  }

  private static void count(Expr e, Map<Expr, Integer> counts) {
    Expr.any(e, x -> {
      if (x instanceof Expr.Unary || x instanceof Expr.Binary || x instanceof Expr.Call
          || x instanceof Expr.Conditional) {
        counts.merge(x, 1, Integer::sum);
      }
      return false;
    });
  }

  static int size(Expr e) {
    int[] n = {0};
    Expr.any(e, x -> {
      n[0]++;
      return false;
    });
    return n[0];
  }

  static Expr replace(Expr e, Expr target, Expr with) {
    if (e.equals(target)) {
      return with;
    }
    return switch (e) {
      case Expr.Unary u -> new Expr.Unary(u.op(), replace(u.operand(), target, with), u.type());
      case Expr.Binary b -> new Expr.Binary(b.op(), replace(b.left(), target, with),
          replace(b.right(), target, with), b.type());
      case Expr.Conditional c -> new Expr.Conditional(replace(c.condition(), target, with),
          replace(c.whenTrue(), target, with), replace(c.whenFalse(), target, with), c.type());
      case Expr.Call c -> new Expr.Call(c.function(),
          c.args().stream().map(a -> replace(a, target, with)).toList(), c.type());
      default -> e;
    };
  }
}
