package dev.ufunc4j.processor;

import java.util.List;

/**
 * A lowered method body: locals in declaration order, then the returned expression; or, for an op
 * with several results ({@code return new DivMod(a / b, a % b);}), the record's components, in its
 * order, and no single {@code result} (null).
 */
record Body(List<Local> locals, Expr result, List<Expr> components) {

  Body {
    locals = List.copyOf(locals);
    components = List.copyOf(components);
  }

  /** A body with one result. */
  Body(List<Local> locals, Expr result) {
    this(locals, result, List.of());
  }

  /** The expressions the body returns: its result, or each component of a record. */
  List<Expr> results() {
    return components.isEmpty() ? List.of(result) : components;
  }

  record Local(String name, Expr init) {}

  /** Whether any local initializer or the result contains a node that satisfies {@code test}. */
  boolean any(java.util.function.Predicate<Expr> test) {
    return locals.stream().anyMatch(l -> Expr.any(l.init(), test))
        || results().stream().anyMatch(r -> Expr.any(r, test));
  }

  /**
   * The body with every {@link Expr.OpCall} mark replaced by the inlined value it carries: the
   * body the emitters compile. The same body when it has no mark.
   */
  Body unmarked() {
    if (!any(e -> e instanceof Expr.OpCall)) {
      return this;
    }
    List<Local> plain = locals.stream().map(l -> new Local(l.name(), Expr.unmarked(l.init())))
        .toList();
    return new Body(plain, result == null ? null : Expr.unmarked(result),
        components.stream().map(Expr::unmarked).toList());
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
