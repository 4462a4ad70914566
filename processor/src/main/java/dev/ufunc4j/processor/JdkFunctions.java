package dev.ufunc4j.processor;

import dev.ufunc4j.processor.Expr.BinaryOp;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The JDK's elementwise functions that have no lanewise form of their own ({@code Math.round},
 * {@code Math.floorDiv}, {@code Long.bitCount}, ...): each is written out here in the body
 * language itself, as the JDK (or Hacker's Delight, which the JDK follows) computes it, so the
 * kernel gives Java's bits through the operators the emitters already compile exactly, in every
 * dtype (narrow integer lanes are widened where a right shift or a comparison needs it, as for any
 * body: {@link IntegerLanes}).
 *
 * <p>An expansion reads an argument or an intermediate value more than once; {@link Binder#bind}
 * makes it a local of the body (computed once), so no expansion grows exponentially.
 *
 * <p>Where Java throws and PyTorch defines a result, the kernel gives PyTorch's: {@code
 * Math.clamp(v, lo, hi)} with {@code lo > hi} is {@code hi} (as {@code torch.clamp}), not an
 * {@code IllegalArgumentException}. Integer division by zero throws as {@code /} does.
 */
final class JdkFunctions {

  private JdkFunctions() {}

  /** Makes a value a local of the body, so an expansion can read it more than once. */
  interface Binder {
    Expr bind(Expr value, String name);
  }

  /** One function: the body types it takes, its arity and its expansion. */
  record Function(String shown, Set<ValueType> bodies, int arity, Expansion expansion) {}

  @FunctionalInterface
  interface Expansion {
    Expr expand(List<Expr> args, ValueType type, Binder binder);
  }

  private static final Set<ValueType> DOUBLE = Set.of(ValueType.DOUBLE);
  private static final Set<ValueType> LONG = Set.of(ValueType.LONG);
  private static final Set<ValueType> NUMERIC = Set.of(ValueType.DOUBLE, ValueType.LONG);

  /** By {@code Owner.name}, owner as its simple name in {@code java.lang}. */
  private static final Map<String, Function> TABLE = new LinkedHashMap<>();

  static {
    add("Math.round", DOUBLE, 1, JdkFunctions::round);
    add("Math.clamp", NUMERIC, 3, (a, t, b) ->
        call(MathFunction.MIN, t, a.get(2), call(MathFunction.MAX, t, a.get(0), a.get(1))));
    add("Math.floorDiv", LONG, 2, JdkFunctions::floorDiv);
    add("Math.floorMod", LONG, 2, JdkFunctions::floorMod);
    add("Double.isNaN", DOUBLE, 1, (a, t, b) -> bin(BinaryOp.NE, a.get(0), a.get(0)));
    add("Double.isInfinite", DOUBLE, 1, (a, t, b) ->
        bin(BinaryOp.EQ, call(MathFunction.ABS, t, a.get(0)), lit(Double.POSITIVE_INFINITY)));
    add("Double.isFinite", DOUBLE, 1, (a, t, b) ->
        bin(BinaryOp.LT, call(MathFunction.ABS, t, a.get(0)), lit(Double.POSITIVE_INFINITY)));
    add("Long.bitCount", LONG, 1, (a, t, b) -> bitCount(a.get(0), b));
    add("Long.numberOfTrailingZeros", LONG, 1, (a, t, b) -> {
      Expr x = b.bind(a.get(0), "ntz");
      // The bits below the lowest set bit (all 64 for 0), counted.
      return bitCount(bin(BinaryOp.BIT_AND, not(x), bin(BinaryOp.SUB, x, lit(1L))), b);
    });
    add("Long.numberOfLeadingZeros", LONG, 1, (a, t, b) -> {
      // Smear the highest set bit rightwards; the zeros left are the leading ones.
      Expr x = b.bind(a.get(0), "nlz");
      for (int s = 1; s <= 32; s *= 2) {
        x = b.bind(bin(BinaryOp.BIT_OR, x, bin(BinaryOp.USHR, x, lit(s))), "nlz");
      }
      return bitCount(not(x), b);
    });
    add("Long.rotateLeft", LONG, 2, (a, t, b) -> rotate(a, b, BinaryOp.SHL, BinaryOp.USHR));
    add("Long.rotateRight", LONG, 2, (a, t, b) -> rotate(a, b, BinaryOp.USHR, BinaryOp.SHL));
    add("Long.reverse", LONG, 1, JdkFunctions::reverse);
    add("Long.divideUnsigned", LONG, 2, JdkFunctions::divideUnsigned);
    add("Long.remainderUnsigned", LONG, 2, JdkFunctions::remainderUnsigned);
  }

  private static void add(String name, Set<ValueType> bodies, int arity, Expansion e) {
    TABLE.put(name, new Function(name, bodies, arity, e));
  }

  /** The function {@code owner.name} ({@code java.lang.Math}, {@code round}), if it is one. */
  static Optional<Function> of(String qualifiedOwner, String name) {
    if (!qualifiedOwner.startsWith("java.lang.")) {
      return Optional.empty();
    }
    return Optional.ofNullable(
        TABLE.get(qualifiedOwner.substring("java.lang.".length()) + "." + name));
  }

  /** {@code Math.round, Math.clamp, ...}: for the diagnostics. */
  static List<String> names() {
    return List.copyOf(TABLE.keySet());
  }

  /**
   * Whether {@code owner.name} returns an {@code int} whose value the body may use as its own type
   * ({@code Long.bitCount}, {@code Math.floorMod(long, int)}, {@code Math.clamp(long, int, int)},
   * {@code Math.getExponent}):
   * an int result of these is exact, unlike int arithmetic, which may overflow.
   */
  static boolean intResultIsExact(String qualifiedOwner, String name) {
    // Math.getExponent is a MathFunction (its lanes read the exponent field: FloatBitsEmitter).
    return of(qualifiedOwner, name).isPresent()
        || qualifiedOwner.equals("java.lang.Math") && name.equals("getExponent");
  }

  /**
   * {@code Math.round(x)} as a double: {@code floor(x)}, plus one where the fraction is at least
   * one half (the fraction {@code x - floor(x)} is exact, so 0.49999999999999994 stays 0 where
   * {@code floor(x + 0.5)} gives 1), then Java's saturation to the long range and 0 for NaN. The
   * {@code + 0.0} makes {@code round(-0.0)} the +0.0 that {@code (double) 0L} is.
   */
  private static Expr round(List<Expr> a, ValueType t, Binder b) {
    Expr x = b.bind(a.get(0), "round");
    Expr floor = b.bind(call(MathFunction.FLOOR, t, x), "floor");
    Expr up = bin(BinaryOp.GE, bin(BinaryOp.SUB, x, floor), lit(0.5));
    Expr rounded = new Expr.Conditional(up, bin(BinaryOp.ADD, floor, lit(1.0)),
        bin(BinaryOp.ADD, floor, lit(0.0)), t);
    double limit = 0x1p63; // (double) Long.MAX_VALUE; -limit is Long.MIN_VALUE
    Expr saturated = call(MathFunction.MIN, t, call(MathFunction.MAX, t, rounded, lit(-limit)),
        lit(limit));
    return new Expr.Conditional(bin(BinaryOp.NE, x, x), lit(0.0), saturated, t);
  }

  /** Java's {@code floorDiv}: the quotient, one less where it was rounded up toward zero. */
  private static Expr floorDiv(List<Expr> a, ValueType t, Binder b) {
    Expr x = b.bind(a.get(0), "x");
    Expr y = b.bind(a.get(1), "y");
    Expr q = b.bind(bin(BinaryOp.DIV, x, y), "q");
    Expr inexactNegative = bin(BinaryOp.AND,
        bin(BinaryOp.LT, bin(BinaryOp.BIT_XOR, x, y), lit(0L)),
        bin(BinaryOp.NE, bin(BinaryOp.MUL, q, y), x));
    return new Expr.Conditional(inexactNegative, bin(BinaryOp.SUB, q, lit(1L)), q, t);
  }

  /** Java's {@code floorMod}: the remainder, moved to the divisor's sign. */
  private static Expr floorMod(List<Expr> a, ValueType t, Binder b) {
    Expr x = b.bind(a.get(0), "x");
    Expr y = b.bind(a.get(1), "y");
    Expr r = b.bind(bin(BinaryOp.REM, x, y), "r");
    Expr moves = bin(BinaryOp.AND,
        bin(BinaryOp.LT, bin(BinaryOp.BIT_XOR, x, y), lit(0L)), bin(BinaryOp.NE, r, lit(0L)));
    return new Expr.Conditional(moves, bin(BinaryOp.ADD, r, y), r, t);
  }

  /** Hacker's Delight 5-1: bits counted in pairs, nibbles, bytes, summed by one multiply. */
  private static Expr bitCount(Expr value, Binder b) {
    Expr x = b.bind(value, "bits");
    x = b.bind(bin(BinaryOp.SUB, x,
        bin(BinaryOp.BIT_AND, bin(BinaryOp.USHR, x, lit(1L)), lit(0x5555555555555555L))), "bits");
    x = b.bind(bin(BinaryOp.ADD, bin(BinaryOp.BIT_AND, x, lit(0x3333333333333333L)),
        bin(BinaryOp.BIT_AND, bin(BinaryOp.USHR, x, lit(2L)), lit(0x3333333333333333L))), "bits");
    x = bin(BinaryOp.BIT_AND, bin(BinaryOp.ADD, x, bin(BinaryOp.USHR, x, lit(4L))),
        lit(0x0f0f0f0f0f0f0f0fL));
    return bin(BinaryOp.USHR, bin(BinaryOp.MUL, x, lit(0x0101010101010101L)), lit(56L));
  }

  /** {@code (x << d) | (x >>> -d)}: shift counts are taken mod 64, as Java's rotate does. */
  private static Expr rotate(List<Expr> a, Binder b, BinaryOp first, BinaryOp second) {
    Expr x = b.bind(a.get(0), "rotated");
    Expr d = b.bind(a.get(1), "distance");
    Expr minusD = d instanceof Expr.Literal l
        ? lit(-l.longValue())
        : new Expr.Unary(Expr.UnaryOp.NEG, d, ValueType.LONG);
    return bin(BinaryOp.BIT_OR, bin(first, x, d), bin(second, x, minusD));
  }

  /** Hacker's Delight 7-1: swap adjacent bits, pairs, nibbles, bytes, 16-bit halves, words. */
  private static Expr reverse(List<Expr> a, ValueType t, Binder b) {
    long[] masks = {0x5555555555555555L, 0x3333333333333333L, 0x0f0f0f0f0f0f0f0fL,
        0x00ff00ff00ff00ffL, 0x0000ffff0000ffffL};
    Expr x = b.bind(a.get(0), "reversed");
    for (int i = 0; i < masks.length; i++) {
      long shift = 1L << i;
      x = b.bind(bin(BinaryOp.BIT_OR,
          bin(BinaryOp.SHL, bin(BinaryOp.BIT_AND, x, lit(masks[i])), lit(shift)),
          bin(BinaryOp.BIT_AND, bin(BinaryOp.USHR, x, lit(shift)), lit(masks[i]))), "reversed");
    }
    return bin(BinaryOp.BIT_OR, bin(BinaryOp.SHL, x, lit(32L)), bin(BinaryOp.USHR, x, lit(32L)));
  }

  /**
   * The JDK's {@code Long.divideUnsigned} (Hacker's Delight 9-3): for a divisor below 2^63, the
   * quotient of the halved dividend, doubled, is at most one short; a divisor of 2^63 or more
   * goes once or not at all. Computing the first quotient for every divisor (a local) divides by
   * zero exactly where Java's first branch does, and by nothing else that is zero.
   */
  private static Expr divideUnsigned(List<Expr> a, ValueType t, Binder b) {
    Expr n = b.bind(a.get(0), "dividend");
    Expr d = b.bind(a.get(1), "divisor");
    Expr q = b.bind(
        bin(BinaryOp.SHL, bin(BinaryOp.DIV, bin(BinaryOp.USHR, n, lit(1L)), d), lit(1L)), "q");
    Expr r = b.bind(bin(BinaryOp.SUB, n, bin(BinaryOp.MUL, q, d)), "r");
    Expr small = bin(BinaryOp.ADD, q, bin(BinaryOp.USHR,
        bin(BinaryOp.BIT_OR, r, not(bin(BinaryOp.SUB, r, d))), lit(63L)));
    Expr large = bin(BinaryOp.USHR,
        bin(BinaryOp.BIT_AND, n, not(bin(BinaryOp.SUB, n, d))), lit(63L));
    return new Expr.Conditional(bin(BinaryOp.GE, d, lit(0L)), small, large, t);
  }

  /** The JDK's {@code Long.remainderUnsigned}, the same way. */
  private static Expr remainderUnsigned(List<Expr> a, ValueType t, Binder b) {
    Expr n = b.bind(a.get(0), "dividend");
    Expr d = b.bind(a.get(1), "divisor");
    Expr q = b.bind(
        bin(BinaryOp.SHL, bin(BinaryOp.DIV, bin(BinaryOp.USHR, n, lit(1L)), d), lit(1L)), "q");
    Expr r = b.bind(bin(BinaryOp.SUB, n, bin(BinaryOp.MUL, q, d)), "r");
    Expr small = bin(BinaryOp.SUB, r, bin(BinaryOp.BIT_AND,
        bin(BinaryOp.SHR, not(bin(BinaryOp.SUB, r, d)), lit(63L)), d));
    Expr large = bin(BinaryOp.SUB, n, bin(BinaryOp.BIT_AND, bin(BinaryOp.SHR,
        bin(BinaryOp.BIT_AND, n, not(bin(BinaryOp.SUB, n, d))), lit(63L)), d));
    return new Expr.Conditional(bin(BinaryOp.GE, d, lit(0L)), small, large, t);
  }

  private static Expr bin(BinaryOp op, Expr l, Expr r) {
    ValueType type = op.isComparison() || op == BinaryOp.AND || op == BinaryOp.OR
        ? ValueType.BOOLEAN
        : l.type();
    return new Expr.Binary(op, l, r, type);
  }

  private static Expr not(Expr x) {
    return new Expr.Unary(Expr.UnaryOp.BIT_NOT, x, ValueType.LONG);
  }

  private static Expr call(MathFunction f, ValueType t, Expr... args) {
    return new Expr.Call(f, List.of(args), t);
  }

  private static Expr lit(double v) {
    return new Expr.Literal(v, ValueType.DOUBLE);
  }

  private static Expr lit(long v) {
    return new Expr.Literal(v, ValueType.LONG);
  }
}
