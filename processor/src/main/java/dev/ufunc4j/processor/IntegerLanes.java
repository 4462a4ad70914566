package dev.ufunc4j.processor;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.processor.Expr.BinaryOp;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Chooses the lanes a {@code long} body computes a dtype in. The contract: the kernel stores
 * exactly {@code narrow(method((long) a, (long) b))}, Java long semantics narrowed to the dtype.
 *
 * <p>Narrow lanes (the dtype's own width) give that for ring operations ({@code + - * & | ^ ~ <<}
 * wrap the same way at any width), but comparisons, division, {@code min/max/abs} and right shifts
 * need operands whose lane value is their true long value ("exact"). Loaded operands, scalars and
 * in-range literals are exact; a sum or product may not be. When some such operation sees an
 * inexact operand the body computes in long lanes instead (values sign- or zero-extended, Java long
 * semantics throughout), then narrows on store.
 *
 * <p>UINT64 computes in long lanes holding the bit pattern: comparisons, min/max are unsigned,
 * {@code >>} is logical; it has no kernels for bodies that divide (no unsigned lanewise division).
 */
final class IntegerLanes {

  private IntegerLanes() {}

  /** The lane type for {@code compute}, or empty when the body cannot compute it. */
  static Optional<Lane> choose(Body body, DType compute, boolean storesBool) {
    if (compute.byteSize() == 8) {
      if (compute == DType.UINT64 && body.divides()) {
        return Optional.empty();
      }
      return Optional.of(Lane.LONG);
    }
    boolean unsigned = compute.isUnsigned() || compute == DType.BOOL;
    Check check = new Check(compute.byteSize() * 8, unsigned);
    for (Body.Local l : body.locals()) {
      check.locals.put(l.name(), check.exact(l.init()));
    }
    boolean narrowOk = true;
    for (Expr result : body.results()) {
      // Every result stored: a record's components each (issue 26).
      boolean exactResult = check.exact(result);
      narrowOk &= !storesBool || result.type() == ValueType.BOOLEAN || exactResult;
    }
    narrowOk &= check.ok;
    return Optional.of(narrowOk ? Lane.storage(compute) : Lane.LONG);
  }

  private static final class Check {
    final int width;
    final boolean unsigned;
    final Map<String, Boolean> locals = new HashMap<>();
    boolean ok = true;

    Check(int width, boolean unsigned) {
      this.width = width;
      this.unsigned = unsigned;
    }

    private boolean require(boolean exact) {
      ok &= exact;
      return exact;
    }

    private boolean fits(long v) {
      if (unsigned) {
        return v >= 0 && v < (1L << width);
      }
      return v >= -(1L << (width - 1)) && v < (1L << (width - 1));
    }

    private boolean smallCount(Expr count) {
      return count instanceof Expr.Literal lit && (lit.longValue() & 63) < width;
    }

    /** Whether {@code e}'s lane value equals its long value; records unmet requirements. */
    boolean exact(Expr e) {
      return switch (e) {
        case Expr.Operand o -> true;
        case Expr.ScalarRef s -> true;
        case Expr.LocalRef l -> locals.getOrDefault(l.name(), false);
        case Expr.Literal lit -> lit.type() != ValueType.LONG || fits(lit.longValue());
        case Expr.Unary u -> switch (u.op()) {
          case NEG -> {
            exact(u.operand());
            yield false;
          }
          case BIT_NOT -> exact(u.operand()) && !unsigned;
          case NOT -> {
            exact(u.operand());
            yield true;
          }
        };
        case Expr.Conditional c -> {
          exact(c.condition());
          boolean t = exact(c.whenTrue());
          boolean f = exact(c.whenFalse());
          yield t && f;
        }
        case Expr.Call c when c.function() == MathFunction.IPOW -> {
          // Wrapping products are exact modulo the lane width (as *); the exponent's value and
          // sign matter, so it must be exact.
          exact(c.args().get(0));
          require(exact(c.args().get(1)));
          yield false;
        }
        case Expr.Call c -> {
          boolean all = true;
          for (Expr a : c.args()) {
            all &= exact(a);
          }
          require(all);
          yield c.function() != MathFunction.ABS || unsigned;
        }
        case Expr.Binary b -> binary(b);
        case Expr.OpCall c -> exact(c.value()); // (bodies reach the emitters unmarked)
      };
    }

    private boolean binary(Expr.Binary b) {
      if (b.left().type() != ValueType.LONG) {
        exact(b.left());
        exact(b.right());
        return true;
      }
      boolean l = exact(b.left());
      boolean r = exact(b.right());
      BinaryOp op = b.op();
      return switch (op) {
        case ADD, SUB, MUL -> false;
        case BIT_AND, BIT_OR, BIT_XOR -> l && r;
        case DIV, REM -> {
          require(l && r && !unsigned);
          yield op == BinaryOp.REM;
        }
        case SHL -> {
          require(smallCount(b.right()));
          yield false;
        }
        case SHR -> {
          require(smallCount(b.right()) && l);
          yield true;
        }
        case USHR -> {
          require(smallCount(b.right()) && l && unsigned);
          yield true;
        }
        default -> {
          // comparisons
          require(l && r);
          yield true;
        }
      };
    }
  }
}
