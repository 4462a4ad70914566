package dev.ufunc4j.processor;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lowered body of an {@code @Elementwise} overload: a small typed expression tree. Casts to the
 * body type are gone, literals carry the body's type, and every node is one the kernel generator
 * can express lanewise.
 */
sealed interface Expr {

  ValueType type();

  /** Tensor parameter {@code index} (conditions included), in declaration order. */
  record Operand(int index, String name, ValueType type) implements Expr {}

  /** {@code @Scalar} parameter {@code index}, in declaration order. */
  record ScalarRef(int index, String name, ValueType type) implements Expr {}

  record LocalRef(String name, ValueType type) implements Expr {}

  /** A constant; {@code value} is a Double, Long or Boolean matching {@code type}. */
  record Literal(Object value, ValueType type) implements Expr {
    double doubleValue() {
      return ((Number) value).doubleValue();
    }

    long longValue() {
      return ((Number) value).longValue();
    }
  }

  record Unary(UnaryOp op, Expr operand, ValueType type) implements Expr {}

  record Binary(BinaryOp op, Expr left, Expr right, ValueType type) implements Expr {}

  record Conditional(Expr condition, Expr whenTrue, Expr whenFalse, ValueType type)
      implements Expr {}

  record Call(MathFunction function, List<Expr> args, ValueType type) implements Expr {
    public Call {
      args = List.copyOf(args);
    }
  }

  /**
   * A call to an op that declares a {@code @Derivative}, inlined: {@code value} is the inlined
   * body, which is what the call computes, and {@code args} the call's arguments as {@code value}
   * reads them (each an expression or the local it was bound to). The mark exists so that {@link
   * Derivatives} can apply the chain rule with the called op's declared derivative for its part
   * (docs/gradients.md, "Calls"); it appears only in the bodies {@link BodyLowering} returns and
   * in {@link OpModel.Overload#marked}, never in a body an emitter sees ({@link #unmarked}).
   */
  record OpCall(Expr value, List<Expr> args, Derivatives.Callee callee) implements Expr {
    public OpCall {
      args = List.copyOf(args);
    }

    @Override
    public ValueType type() {
      return value.type();
    }
  }

  /**
   * {@code e} rebuilt with {@code leaf} applied to every leaf (operand, scalar, local, literal):
   * the one substitution that inlining, renumbering and the chain rule through calls share.
   */
  static Expr mapLeaves(Expr e, java.util.function.UnaryOperator<Expr> leaf) {
    return switch (e) {
      case Unary u -> new Unary(u.op(), mapLeaves(u.operand(), leaf), u.type());
      case Binary b ->
          new Binary(b.op(), mapLeaves(b.left(), leaf), mapLeaves(b.right(), leaf), b.type());
      case Conditional c -> new Conditional(mapLeaves(c.condition(), leaf),
          mapLeaves(c.whenTrue(), leaf), mapLeaves(c.whenFalse(), leaf), c.type());
      case Call c -> new Call(c.function(),
          c.args().stream().map(a -> mapLeaves(a, leaf)).toList(), c.type());
      case OpCall c -> new OpCall(mapLeaves(c.value(), leaf),
          c.args().stream().map(a -> mapLeaves(a, leaf)).toList(), c.callee());
      case Operand o -> leaf.apply(o);
      case ScalarRef s -> leaf.apply(s);
      case LocalRef l -> leaf.apply(l);
      case Literal l -> leaf.apply(l);
    };
  }

  /** {@code e} with every {@link OpCall} replaced by its value: what the emitters compile. */
  static Expr unmarked(Expr e) {
    if (!any(e, x -> x instanceof OpCall)) {
      return e;
    }
    return switch (e) {
      case OpCall c -> unmarked(c.value());
      case Unary u -> new Unary(u.op(), unmarked(u.operand()), u.type());
      case Binary b -> new Binary(b.op(), unmarked(b.left()), unmarked(b.right()), b.type());
      case Conditional c -> new Conditional(unmarked(c.condition()), unmarked(c.whenTrue()),
          unmarked(c.whenFalse()), c.type());
      case Call c -> new Call(c.function(), c.args().stream().map(Expr::unmarked).toList(),
          c.type());
      default -> e;
    };
  }

  enum UnaryOp {
    NEG("-"),
    NOT("!"),
    BIT_NOT("~");

    final String symbol;

    UnaryOp(String symbol) {
      this.symbol = symbol;
    }
  }

  enum BinaryOp {
    ADD("+"),
    SUB("-"),
    MUL("*"),
    DIV("/"),
    REM("%"),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">="),
    EQ("=="),
    NE("!="),
    /** {@code &&}: the right side is evaluated only where the left is true. */
    AND("&&"),
    /** {@code ||}: the right side is evaluated only where the left is false. */
    OR("||"),
    BIT_AND("&"),
    BIT_OR("|"),
    BIT_XOR("^"),
    SHL("<<"),
    SHR(">>"),
    USHR(">>>");

    final String symbol;

    BinaryOp(String symbol) {
      this.symbol = symbol;
    }

    boolean isComparison() {
      return this == LT || this == LE || this == GT || this == GE || this == EQ || this == NE;
    }

    boolean isShift() {
      return this == SHL || this == SHR || this == USHR;
    }
  }

  /**
   * How many levels of a body one generated Java expression may nest. javac attributes a nested
   * call with a recursion per level, so a kernel expression as deep as a long body overflowed
   * javac's stack (1000 nested {@code ?:} made a chain of 1000 {@code blend} calls, issue 23). The
   * emitters put the value of every node whose {@link #heights height} is a multiple of this into
   * a local, so each generated statement stays shallow whatever the body's depth; bodies less deep
   * than this generate exactly as before.
   */
  int SPILL_HEIGHT = 16;

  /** Whether the emitters put the value of a node of this height into a local. */
  static boolean spills(int height) {
    return height > 0 && height % SPILL_HEIGHT == 0;
  }

  /**
   * The height of every node of {@code body} (a leaf is 1), by identity: records compare by value,
   * and hashing a deep tree by value would cost its size per lookup.
   */
  static Map<Expr, Integer> heights(Body body) {
    Map<Expr, Integer> heights = new IdentityHashMap<>();
    body.locals().forEach(l -> height(l.init(), heights));
    body.results().forEach(r -> height(r, heights));
    return heights;
  }

  private static int height(Expr e, Map<Expr, Integer> heights) {
    Integer known = heights.get(e);
    if (known != null) {
      return known;
    }
    int below = switch (e) {
      case Unary u -> height(u.operand(), heights);
      case Binary b -> Math.max(height(b.left(), heights), height(b.right(), heights));
      case Conditional c -> Math.max(height(c.condition(), heights),
          Math.max(height(c.whenTrue(), heights), height(c.whenFalse(), heights)));
      case Call c -> c.args().stream().mapToInt(a -> height(a, heights)).max().orElse(0);
      default -> 0;
    };
    heights.put(e, below + 1);
    return below + 1;
  }

  /** Whether {@code e} contains a node that satisfies {@code test}. */
  static boolean any(Expr e, java.util.function.Predicate<Expr> test) {
    if (test.test(e)) {
      return true;
    }
    return switch (e) {
      case Unary u -> any(u.operand(), test);
      case Binary b -> any(b.left(), test) || any(b.right(), test);
      case Conditional c ->
          any(c.condition(), test) || any(c.whenTrue(), test) || any(c.whenFalse(), test);
      case Call c -> c.args().stream().anyMatch(a -> any(a, test));
      // What the call computes: its arguments are in the value, or in locals bound before it.
      case OpCall c -> any(c.value(), test);
      default -> false;
    };
  }
}
