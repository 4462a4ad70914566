package dev.ufunc4j.processor;

import java.util.List;

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
      default -> false;
    };
  }
}
