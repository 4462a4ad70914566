package dev.ufunc4j.processor;

import java.util.stream.Collectors;

/**
 * A lowered body as Java source ({@code final double dInner = ...; return grad * ...;}), with
 * only the parentheses Java needs. The generated backward descriptors show their derived formula
 * this way, so a reader sees what the kernels compute without reading Vector API code.
 */
final class BodyPrinter {

  private BodyPrinter() {}

  /** The locals as {@code final} declarations, then {@code return ...;}, one per line. */
  static String print(Body body) {
    StringBuilder sb = new StringBuilder();
    for (Body.Local l : body.locals()) {
      sb.append("final ").append(l.init().type().javaName()).append(' ').append(l.name())
          .append(" = ").append(print(l.init())).append(";\n");
    }
    return sb.append("return ").append(print(body.result())).append(';').toString();
  }

  static String print(Expr e) {
    return print(e, 0);
  }

  private static final int CONDITIONAL = 2;
  private static final int UNARY = 13;
  private static final int PRIMARY = 14;

  private static int precedence(Expr e) {
    return switch (e) {
      case Expr.Conditional c -> CONDITIONAL;
      case Expr.Binary b -> precedence(b.op());
      case Expr.Unary u -> UNARY;
      case Expr.Literal l when l.value() instanceof Number n && n.doubleValue() < 0 -> UNARY;
      default -> PRIMARY;
    };
  }

  private static int precedence(Expr.BinaryOp op) {
    return switch (op) {
      case MUL, DIV, REM -> 12;
      case ADD, SUB -> 11;
      case SHL, SHR, USHR -> 10;
      case LT, LE, GT, GE -> 9;
      case EQ, NE -> 8;
      case BIT_AND -> 7;
      case BIT_XOR -> 6;
      case BIT_OR -> 5;
      case AND -> 4;
      case OR -> 3;
    };
  }

  /** {@code e}, parenthesized when its precedence is below {@code context}. */
  private static String print(Expr e, int context) {
    String s = switch (e) {
      case Expr.Operand o -> o.name();
      case Expr.ScalarRef r -> r.name();
      case Expr.LocalRef l -> l.name();
      case Expr.Literal l -> literal(l);
      case Expr.Unary u -> u.op().symbol + print(u.operand(), UNARY + 1);
      case Expr.Binary b -> {
        int p = precedence(b.op());
        // Left-associative: an equal-precedence right operand needs parentheses.
        yield print(b.left(), p) + " " + b.op().symbol + " " + print(b.right(), p + 1);
      }
      case Expr.Conditional c -> print(c.condition(), CONDITIONAL + 1) + " ? "
          + print(c.whenTrue(), CONDITIONAL + 1) + " : " + print(c.whenFalse(), CONDITIONAL);
      case Expr.Call c -> c.function().qualifiedCall()
          + c.args().stream().map(BodyPrinter::print).collect(Collectors.joining(", ", "(", ")"));
      case Expr.OpCall c -> print(c.value(), 0); // (printed bodies are unmarked)
    };
    return precedence(e) < context ? "(" + s + ")" : s;
  }

  private static String literal(Expr.Literal l) {
    Object v = l.value();
    return v instanceof Long x ? x + "L" : v.toString();
  }
}
