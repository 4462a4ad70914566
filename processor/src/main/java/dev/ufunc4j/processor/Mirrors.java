package dev.ufunc4j.processor;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Mirrored kernels (issue 25 item 6): an op whose body gives the same value with its two tensor
 * operands swapped ({@code a + b}, {@code a == b}, {@code Math.max(a, b)}, {@code a != 0 && b !=
 * 0}) computes table entry {@code (y, x)} with the rows of entry {@code (x, y)}, the operands
 * swapped. Such an entry's kernel is only a box method ({@link KernelGenerator#mirror}): about a
 * fifth of a kernel's lines, for half of an op's mixed pairs.
 *
 * <p>The fact is derived from the lowered body, not declared, so a declaration cannot claim more
 * than holds: the body is <em>symmetric</em> when it reads the same after swapping operands 0 and
 * 1, up to the operands of {@code + * == != & | ^ && ||}, {@code Math.min} and {@code Math.max}
 * (whose results do not depend on their order, bit for bit, NaN payloads aside: which NaN an
 * addition of two NaNs passes on is up to the hardware and the JIT either way). Anything else is
 * compared as written: PyTorch's {@code maximum}, {@code a != a ? a : (b != b ? b : (a >= b ? a :
 * b))}, is not symmetric (of -0.0 and 0.0 it gives the first), so its floating entries are all
 * generated; its integral body, {@code Math.max(a, b)}, is. Bodies that divide integers are never
 * symmetric (which operand's division by zero throws would change under {@code &&}).
 */
final class Mirrors {

  private Mirrors() {}

  /**
   * The entries of {@code op}'s {@code table} that run rows of {@code sourceOp}'s {@code
   * sourceTable} with the two operands swapped, each with the entry whose rows it runs; in table
   * order. Entry {@code (x, y)} runs {@code (y, x)}'s rows where both compute alike.
   *
   * <ul>
   *   <li>{@code sourceOp == op} (the op's own table): for every pair of entries {@code (x, y)} and
   *       {@code (y, x)} with {@code x} declared before {@code y}, the second runs the first's
   *       rows. Empty unless the op has exactly two tensor operands, no conditions, and the body the
   *       entries compute with is symmetric.
   *   <li>another op: {@code op} is {@code sourceOp} with the operands swapped ({@link #across}),
   *       so every entry whose swapped entry {@code sourceOp} has runs its rows.
   * </ul>
   */
  static Map<KernelEntry, KernelEntry> sources(OpModel op, List<KernelEntry> table,
      OpModel sourceOp, List<KernelEntry> sourceTable) {
    boolean own = sourceOp == op;
    Map<KernelEntry, KernelEntry> mirrors = new LinkedHashMap<>();
    if (own && (op.tensors().size() != 2
        || op.tensors().stream().anyMatch(OpModel.TensorParam::condition)
        || op.hasSeveralResults())) {
      return mirrors;
    }
    Map<List<Object>, KernelEntry> byKey = new HashMap<>();
    for (KernelEntry e : sourceTable) {
      byKey.put(key(e, e.operands().get(0), e.operands().get(1)), e);
    }
    for (KernelEntry e : table) {
      var x = e.operands().get(1);
      var y = e.operands().get(0);
      if (own && x.compareTo(y) >= 0) {
        continue; // the diagonal, and the entries whose mirror is generated
      }
      KernelEntry source = byKey.get(key(e, x, y));
      if (source != null && computesAlike(source, e) && (!own || mirrorable(op, e))) {
        mirrors.put(e, source);
      }
    }
    return mirrors;
  }

  /**
   * The op before {@code op} in {@code models} (the processor's order: by name) that computes
   * {@code op(a, b)} as {@code other(b, a)}: {@code gt} for {@code lt}, {@code ge} for {@code le}. Both
   * take two tensors and nothing else, promote, compute and restrict dtypes alike, and each body
   * of {@code op} reads as the other's of its type with the operands swapped ({@link #canonical}
   * writes {@code x < y} as {@code y > x}). Then every entry of {@code op} whose swapped entry
   * {@code other} has ({@link #sources}) runs that entry's rows.
   */
  static Optional<OpModel> across(OpModel op, List<OpModel> models) {
    if (!plainBinary(op)) {
      return Optional.empty();
    }
    for (OpModel other : models) {
      if (other == op) {
        break;
      }
      if (plainBinary(other) && other.promote() == op.promote()
          && other.predicate() == op.predicate()
          && other.scalarInFloat32() == op.scalarInFloat32()
          && other.dtypes().equals(op.dtypes())
          && other.overloads().size() == op.overloads().size()
          && op.overloads().stream().allMatch(o -> other.overload(o.bodyType())
              .map(p -> swapped(o.body(), p.body())).orElse(false))) {
        return Optional.of(other);
      }
    }
    return Optional.empty();
  }

  /** Two tensors, no condition, scalar or record, no integer division, no fold loops. */
  private static boolean plainBinary(OpModel op) {
    return op.tensors().size() == 2 && op.scalars().isEmpty() && !op.hasSeveralResults()
        && op.tensors().stream().noneMatch(OpModel.TensorParam::condition)
        && !op.associative()
        && op.overloads().stream().noneMatch(o -> o.body().divides());
  }

  /** Whether {@code body} with its operands swapped reads as {@code other}. */
  private static boolean swapped(Body body, Body other) {
    if (body.locals().size() != other.locals().size()
        || body.results().size() != other.results().size()) {
      return false;
    }
    for (int i = 0; i < body.locals().size(); i++) {
      Body.Local l = body.locals().get(i);
      Body.Local o = other.locals().get(i);
      if (!l.name().equals(o.name())
          || !canonical(l.init(), true).equals(canonical(o.init(), false))) {
        return false;
      }
    }
    for (int i = 0; i < body.results().size(); i++) {
      if (!canonical(body.results().get(i), true)
          .equals(canonical(other.results().get(i), false))) {
        return false;
      }
    }
    return true;
  }

  private static List<Object> key(KernelEntry e, Object first, Object second) {
    return List.of(first, second, e.promoted(), e.scalarPromoted());
  }

  private static boolean computesAlike(KernelEntry a, KernelEntry b) {
    return a.compute() == b.compute() && a.result() == b.result()
        && a.bodyType() == b.bodyType() && a.lanes() == b.lanes()
        && a.unsignedLanes() == b.unsignedLanes();
  }

  private static boolean mirrorable(OpModel op, KernelEntry e) {
    Body body = op.overload(e.bodyType()).orElseThrow().body();
    // Complex multiplication and division are computed with fused multiply-adds whose operand
    // order matters: complex entries mirror only bodies of additions and comparisons.
    if (e.complex() && body.any(x -> x instanceof Expr.Binary b
        && (b.op() == Expr.BinaryOp.MUL || b.op() == Expr.BinaryOp.DIV))) {
      return false;
    }
    return symmetric(body);
  }

  /** Whether {@code body} reads the same with tensor operands 0 and 1 swapped (class javadoc). */
  static boolean symmetric(Body body) {
    if (body.divides()) {
      return false;
    }
    for (Body.Local l : body.locals()) {
      if (!canonical(l.init(), false).equals(canonical(l.init(), true))) {
        return false;
      }
    }
    for (Expr r : body.results()) {
      if (!canonical(r, false).equals(canonical(r, true))) {
        return false;
      }
    }
    return true;
  }

  /**
   * A text of {@code e} that is the same for two expressions that compute the same bits:
   * commutative operands sorted, {@code x < y} written {@code y > x} (and {@code <=} as {@code
   * >=}); with {@code swap}, operands 0 and 1 trade places first.
   */
  static String canonical(Expr e, boolean swap) {
    return switch (e) {
      case Expr.Operand o -> "o" + (swap && o.index() < 2 ? 1 - o.index() : o.index())
          + o.type();
      case Expr.ScalarRef s -> "s" + s.index();
      case Expr.LocalRef l -> "l:" + l.name();
      case Expr.Literal l -> "c" + l.type() + ":" + l.value();
      case Expr.Unary u -> u.op() + "(" + canonical(u.operand(), swap) + ")";
      case Expr.Binary b -> binary(b, swap);
      case Expr.Conditional c -> "?(" + canonical(c.condition(), swap) + ","
          + canonical(c.whenTrue(), swap) + "," + canonical(c.whenFalse(), swap) + ")";
      case Expr.Call c -> {
        List<String> args = new java.util.ArrayList<>(
            c.args().stream().map(a -> canonical(a, swap)).toList());
        if (c.function() == MathFunction.MIN || c.function() == MathFunction.MAX) {
          args.sort(null);
        }
        yield c.function() + "(" + String.join(",", args) + ")";
      }
      case Expr.OpCall c -> canonical(c.value(), swap); // (op bodies are unmarked)
    };
  }

  private static String binary(Expr.Binary b, boolean swap) {
    String left = canonical(b.left(), swap);
    String right = canonical(b.right(), swap);
    Expr.BinaryOp op = b.op();
    switch (op) {
      case LT, LE -> {
        // x < y is y > x, for every value (NaN included): one spelling of each.
        String t = left;
        left = right;
        right = t;
        op = op == Expr.BinaryOp.LT ? Expr.BinaryOp.GT : Expr.BinaryOp.GE;
      }
      case ADD, MUL, EQ, NE, BIT_AND, BIT_OR, BIT_XOR, AND, OR -> {
        if (left.compareTo(right) > 0) {
          String t = left;
          left = right;
          right = t;
        }
      }
      default -> { }
    }
    return op + "(" + left + "," + right + ")" + b.type();
  }
}
