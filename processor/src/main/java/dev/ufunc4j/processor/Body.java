package dev.ufunc4j.processor;

import java.util.List;

/** A lowered method body: locals in declaration order, then the returned expression. */
record Body(List<Local> locals, Expr result) {

  Body {
    locals = List.copyOf(locals);
  }

  record Local(String name, Expr init) {}

  /** Whether any local initializer or the result contains a node that satisfies {@code test}. */
  boolean any(java.util.function.Predicate<Expr> test) {
    return locals.stream().anyMatch(l -> Expr.any(l.init(), test)) || Expr.any(result, test);
  }

  /** Integer division or remainder, which throws on a zero divisor. */
  boolean divides() {
    return any(
        e ->
            e instanceof Expr.Binary b
                && b.type() == ValueType.LONG
                && (b.op() == Expr.BinaryOp.DIV || b.op() == Expr.BinaryOp.REM));
  }
}
