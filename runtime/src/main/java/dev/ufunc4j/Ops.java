package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.Promotion;
import java.util.function.BinaryOperator;

/**
 * The built-in ops as static methods, named after PyTorch's ({@code floor_divide} is {@link
 * #floorDivide}). Every op takes tensors or Java numbers (a Java number is a wrapped scalar: it
 * promotes as a Python number does in PyTorch, so {@code int32 tensor + 2.5} is float32), and has
 * an {@code out=} form that writes into a given tensor: it must have the broadcast shape and a
 * dtype the result can be cast to, and is left untouched when the call is refused. In-place is
 * {@code out} = the first operand ({@link Tensor#addInPlace} and friends). Every two-tensor op
 * also takes XLA {@link BroadcastDims}: the lower-rank operand is lifted with them before the
 * ordinary broadcasting ({@code add(v, m, BroadcastDims.of(0))} adds the vector {@code v} to each
 * column of {@code m}).
 *
 * <p>The ops are declared as scalar methods in {@code Builtins} and compiled to kernels by the
 * ufunc4j processor; this class adds PyTorch's argument rules around them (alpha's type, bool
 * subtraction and negation).
 */
public final class Ops {
  private Ops() {}

  // ---- add and sub, with PyTorch's alpha ------------------------------------------------------

  /** Elementwise {@code a + b}. */
  public static Tensor add(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_add.OP, null, a, b);
  }

  /** {@link #add(Tensor, Tensor)} into {@code out}. */
  public static Tensor add(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_add.OP, out, a, b);
  }

  public static Tensor add(Tensor a, Number b) {
    return Dispatch.apply(Builtins_add.OP, null, a, Dispatch.wrap(Builtins_add.OP, 1, b));
  }

  public static Tensor add(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_add.OP, out, a, Dispatch.wrap(Builtins_add.OP, 1, b));
  }

  public static Tensor add(Number a, Tensor b) {
    return Dispatch.apply(Builtins_add.OP, null, Dispatch.wrap(Builtins_add.OP, 0, a), b);
  }

  /**
   * {@code a + alpha * b} ({@code torch.add(a, b, alpha=alpha)}); alpha does not change the result
   * dtype, and must be integral for integral operands.
   */
  public static Tensor add(Tensor a, Tensor b, Number alpha) {
    return scaled(Builtins_add.OP, Builtins_addScaled.OP, a, b, alpha, null);
  }

  /** {@link #add(Tensor, Tensor, Number)} into {@code out}. */
  public static Tensor add(Tensor a, Tensor b, Number alpha, Tensor out) {
    return scaled(Builtins_add.OP, Builtins_addScaled.OP, a, b, alpha, out);
  }

  public static Tensor add(Tensor a, Number b, Number alpha) {
    return scaled(Builtins_add.OP, Builtins_addScaled.OP, a, Dispatch.wrap(Builtins_add.OP, 1, b), alpha, null);
  }

  public static Tensor add(Tensor a, Number b, Number alpha, Tensor out) {
    return scaled(Builtins_add.OP, Builtins_addScaled.OP, a, Dispatch.wrap(Builtins_add.OP, 1, b), alpha, out);
  }

  /** Elementwise {@code a - b}; refused for BOOL operands, as in PyTorch. */
  public static Tensor sub(Tensor a, Tensor b) {
    return sub(a, b, 1L, null);
  }

  public static Tensor sub(Tensor a, Tensor b, Tensor out) {
    return sub(a, b, 1L, out);
  }

  public static Tensor sub(Tensor a, Number b) {
    return sub(a, Dispatch.wrap(Builtins_sub.OP, 1, b), 1L, null);
  }

  public static Tensor sub(Tensor a, Number b, Tensor out) {
    return sub(a, Dispatch.wrap(Builtins_sub.OP, 1, b), 1L, out);
  }

  public static Tensor sub(Number a, Tensor b) {
    return sub(Dispatch.wrap(Builtins_sub.OP, 0, a), b, 1L, null);
  }

  /** {@code a - alpha * b} ({@code torch.sub(a, b, alpha=alpha)}). */
  public static Tensor sub(Tensor a, Tensor b, Number alpha) {
    return sub(a, b, alpha, null);
  }

  /** {@link #sub(Tensor, Tensor, Number)} into {@code out}. */
  public static Tensor sub(Tensor a, Tensor b, Number alpha, Tensor out) {
    if (a != null && b != null) {
      boolean boolA = a.dtype() == DType.BOOL;
      boolean boolB = b.dtype() == DType.BOOL;
      if (boolA && boolB) {
        throw new IllegalArgumentException(
            "sub: Subtraction, the `-` operator, with two bool tensors is not supported. Use the"
                + " `^` or `logical_xor()` operator instead.");
      }
      if (boolA || boolB) {
        throw new IllegalArgumentException(
            "sub: Subtraction, the `-` operator, with a bool tensor is not supported. If you are"
                + " trying to invert a mask, use the `~` or `logical_not()` operator instead.");
      }
    }
    return scaled(Builtins_sub.OP, Builtins_subScaled.OP, a, b, alpha, out);
  }

  public static Tensor sub(Tensor a, Number b, Number alpha) {
    return sub(a, Dispatch.wrap(Builtins_sub.OP, 1, b), alpha, null);
  }

  public static Tensor sub(Tensor a, Number b, Number alpha, Tensor out) {
    return sub(a, Dispatch.wrap(Builtins_sub.OP, 1, b), alpha, out);
  }

  /**
   * {@code a op alpha * b} with PyTorch's alpha rules: alpha is checked against the operands'
   * common dtype and passed in that dtype's category, so it never changes the result dtype.
   */
  private static Tensor scaled(
      dev.ufunc4j.kernel.ElementwiseOp plain,
      dev.ufunc4j.kernel.ElementwiseOp withAlpha,
      Tensor a,
      Tensor b,
      Number alpha,
      Tensor out) {
    if (alpha == null) {
      throw new IllegalArgumentException(plain.name() + ": alpha must not be null");
    }
    boolean integralAlpha =
        alpha instanceof Long || alpha instanceof Integer || alpha instanceof Short
            || alpha instanceof Byte;
    if (!integralAlpha && !(alpha instanceof Double || alpha instanceof Float)) {
      throw new IllegalArgumentException(
          plain.name() + ": alpha must be a Java integral or floating number, got "
              + alpha.getClass().getName());
    }
    if (integralAlpha && alpha.longValue() == 1) {
      return Dispatch.apply(plain, out, a, b);
    }
    if (a == null || b == null) {
      return Dispatch.apply(plain, out, a, b); // names the null operand
    }
    DType common = Promotion.resultType(a, b);
    if (!integralAlpha && !(common.isFloatingPoint() || common.isComplex())) {
      throw new IllegalArgumentException(
          plain.name() + ": For integral input tensors, argument alpha must not be a floating"
              + " point number.");
    }
    Object scalar;
    if (common == DType.BOOL) {
      scalar = alpha.longValue() != 0;
    } else if (common.isIntegral(false)) {
      scalar = alpha.longValue();
    } else {
      scalar = alpha.doubleValue();
    }
    return Dispatch.apply(withAlpha, out, new Tensor[] {a, b}, new Object[] {scalar});
  }

  // ---- the other binary and unary ops ---------------------------------------------------------

  /** Elementwise a * b. */
  public static Tensor mul(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_mul.OP, null, a, b);
  }

  /** {@link #mul(Tensor, Tensor)} into {@code out}. */
  public static Tensor mul(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_mul.OP, out, a, b);
  }

  public static Tensor mul(Tensor a, Number b) {
    return Dispatch.apply(Builtins_mul.OP, null, a, Dispatch.wrap(Builtins_mul.OP, 1, b));
  }

  public static Tensor mul(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_mul.OP, out, a, Dispatch.wrap(Builtins_mul.OP, 1, b));
  }

  public static Tensor mul(Number a, Tensor b) {
    return Dispatch.apply(Builtins_mul.OP, null, Dispatch.wrap(Builtins_mul.OP, 0, a), b);
  }

  public static Tensor mul(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_mul.OP, out, Dispatch.wrap(Builtins_mul.OP, 0, a), b);
  }

  /** Elementwise a / b (true division; integral operands compute in float32). */
  public static Tensor div(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_div.OP, null, a, b);
  }

  /** {@link #div(Tensor, Tensor)} into {@code out}. */
  public static Tensor div(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_div.OP, out, a, b);
  }

  public static Tensor div(Tensor a, Number b) {
    return Dispatch.apply(Builtins_div.OP, null, a, Dispatch.wrap(Builtins_div.OP, 1, b));
  }

  public static Tensor div(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_div.OP, out, a, Dispatch.wrap(Builtins_div.OP, 1, b));
  }

  public static Tensor div(Number a, Tensor b) {
    return Dispatch.apply(Builtins_div.OP, null, Dispatch.wrap(Builtins_div.OP, 0, a), b);
  }

  public static Tensor div(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_div.OP, out, Dispatch.wrap(Builtins_div.OP, 0, a), b);
  }

  /** Elementwise the quotient rounded toward negative infinity (Python's //). */
  public static Tensor floorDivide(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_floorDivide.OP, null, a, b);
  }

  /** {@link #floorDivide(Tensor, Tensor)} into {@code out}. */
  public static Tensor floorDivide(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_floorDivide.OP, out, a, b);
  }

  public static Tensor floorDivide(Tensor a, Number b) {
    return Dispatch.apply(Builtins_floorDivide.OP, null, a, Dispatch.wrap(Builtins_floorDivide.OP, 1, b));
  }

  public static Tensor floorDivide(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_floorDivide.OP, out, a, Dispatch.wrap(Builtins_floorDivide.OP, 1, b));
  }

  public static Tensor floorDivide(Number a, Tensor b) {
    return Dispatch.apply(Builtins_floorDivide.OP, null, Dispatch.wrap(Builtins_floorDivide.OP, 0, a), b);
  }

  public static Tensor floorDivide(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_floorDivide.OP, out, Dispatch.wrap(Builtins_floorDivide.OP, 0, a), b);
  }

  /** Elementwise Python's modulo: the result has the divisor's sign. */
  public static Tensor remainder(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_remainder.OP, null, a, b);
  }

  /** {@link #remainder(Tensor, Tensor)} into {@code out}. */
  public static Tensor remainder(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_remainder.OP, out, a, b);
  }

  public static Tensor remainder(Tensor a, Number b) {
    return Dispatch.apply(Builtins_remainder.OP, null, a, Dispatch.wrap(Builtins_remainder.OP, 1, b));
  }

  public static Tensor remainder(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_remainder.OP, out, a, Dispatch.wrap(Builtins_remainder.OP, 1, b));
  }

  public static Tensor remainder(Number a, Tensor b) {
    return Dispatch.apply(Builtins_remainder.OP, null, Dispatch.wrap(Builtins_remainder.OP, 0, a), b);
  }

  public static Tensor remainder(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_remainder.OP, out, Dispatch.wrap(Builtins_remainder.OP, 0, a), b);
  }

  /** Elementwise the larger element; NaN propagates. */
  public static Tensor maximum(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_maximum.OP, null, a, b);
  }

  /** {@link #maximum(Tensor, Tensor)} into {@code out}. */
  public static Tensor maximum(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_maximum.OP, out, a, b);
  }

  public static Tensor maximum(Tensor a, Number b) {
    return Dispatch.apply(Builtins_maximum.OP, null, a, Dispatch.wrap(Builtins_maximum.OP, 1, b));
  }

  public static Tensor maximum(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_maximum.OP, out, a, Dispatch.wrap(Builtins_maximum.OP, 1, b));
  }

  public static Tensor maximum(Number a, Tensor b) {
    return Dispatch.apply(Builtins_maximum.OP, null, Dispatch.wrap(Builtins_maximum.OP, 0, a), b);
  }

  public static Tensor maximum(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_maximum.OP, out, Dispatch.wrap(Builtins_maximum.OP, 0, a), b);
  }

  /** Elementwise the smaller element; NaN propagates. */
  public static Tensor minimum(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_minimum.OP, null, a, b);
  }

  /** {@link #minimum(Tensor, Tensor)} into {@code out}. */
  public static Tensor minimum(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_minimum.OP, out, a, b);
  }

  public static Tensor minimum(Tensor a, Number b) {
    return Dispatch.apply(Builtins_minimum.OP, null, a, Dispatch.wrap(Builtins_minimum.OP, 1, b));
  }

  public static Tensor minimum(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_minimum.OP, out, a, Dispatch.wrap(Builtins_minimum.OP, 1, b));
  }

  public static Tensor minimum(Number a, Tensor b) {
    return Dispatch.apply(Builtins_minimum.OP, null, Dispatch.wrap(Builtins_minimum.OP, 0, a), b);
  }

  public static Tensor minimum(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_minimum.OP, out, Dispatch.wrap(Builtins_minimum.OP, 0, a), b);
  }

  /** Elementwise a raised to the power b (floating dtypes). */
  public static Tensor pow(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_pow.OP, null, a, b);
  }

  /** {@link #pow(Tensor, Tensor)} into {@code out}. */
  public static Tensor pow(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_pow.OP, out, a, b);
  }

  public static Tensor pow(Tensor a, Number b) {
    return pow(a, b, null);
  }

  /** PyTorch refuses an integral tensor to a negative integral power given as a number. */
  public static Tensor pow(Tensor a, Number b, Tensor out) {
    if (a != null && a.dtype().isIntegral(true) && b != null
        && !(b instanceof Double || b instanceof Float) && b.longValue() < 0) {
      throw new IllegalArgumentException(
          "pow: Integers to negative integer powers are not allowed.");
    }
    return Dispatch.apply(Builtins_pow.OP, out, a, Dispatch.wrap(Builtins_pow.OP, 1, b));
  }

  public static Tensor pow(Number a, Tensor b) {
    return Dispatch.apply(Builtins_pow.OP, null, Dispatch.wrap(Builtins_pow.OP, 0, a), b);
  }

  public static Tensor pow(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_pow.OP, out, Dispatch.wrap(Builtins_pow.OP, 0, a), b);
  }

  /** Elementwise a == b, as BOOL. */
  public static Tensor eq(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_eq.OP, null, a, b);
  }

  /** {@link #eq(Tensor, Tensor)} into {@code out}. */
  public static Tensor eq(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_eq.OP, out, a, b);
  }

  public static Tensor eq(Tensor a, Number b) {
    return Dispatch.apply(Builtins_eq.OP, null, a, Dispatch.wrap(Builtins_eq.OP, 1, b));
  }

  public static Tensor eq(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_eq.OP, out, a, Dispatch.wrap(Builtins_eq.OP, 1, b));
  }

  public static Tensor eq(Number a, Tensor b) {
    return Dispatch.apply(Builtins_eq.OP, null, Dispatch.wrap(Builtins_eq.OP, 0, a), b);
  }

  public static Tensor eq(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_eq.OP, out, Dispatch.wrap(Builtins_eq.OP, 0, a), b);
  }

  /** Elementwise a != b, as BOOL. */
  public static Tensor ne(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_ne.OP, null, a, b);
  }

  /** {@link #ne(Tensor, Tensor)} into {@code out}. */
  public static Tensor ne(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_ne.OP, out, a, b);
  }

  public static Tensor ne(Tensor a, Number b) {
    return Dispatch.apply(Builtins_ne.OP, null, a, Dispatch.wrap(Builtins_ne.OP, 1, b));
  }

  public static Tensor ne(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_ne.OP, out, a, Dispatch.wrap(Builtins_ne.OP, 1, b));
  }

  public static Tensor ne(Number a, Tensor b) {
    return Dispatch.apply(Builtins_ne.OP, null, Dispatch.wrap(Builtins_ne.OP, 0, a), b);
  }

  public static Tensor ne(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_ne.OP, out, Dispatch.wrap(Builtins_ne.OP, 0, a), b);
  }

  /** Elementwise a < b, as BOOL. */
  public static Tensor lt(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_lt.OP, null, a, b);
  }

  /** {@link #lt(Tensor, Tensor)} into {@code out}. */
  public static Tensor lt(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_lt.OP, out, a, b);
  }

  public static Tensor lt(Tensor a, Number b) {
    return Dispatch.apply(Builtins_lt.OP, null, a, Dispatch.wrap(Builtins_lt.OP, 1, b));
  }

  public static Tensor lt(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_lt.OP, out, a, Dispatch.wrap(Builtins_lt.OP, 1, b));
  }

  public static Tensor lt(Number a, Tensor b) {
    return Dispatch.apply(Builtins_lt.OP, null, Dispatch.wrap(Builtins_lt.OP, 0, a), b);
  }

  public static Tensor lt(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_lt.OP, out, Dispatch.wrap(Builtins_lt.OP, 0, a), b);
  }

  /** Elementwise a <= b, as BOOL. */
  public static Tensor le(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_le.OP, null, a, b);
  }

  /** {@link #le(Tensor, Tensor)} into {@code out}. */
  public static Tensor le(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_le.OP, out, a, b);
  }

  public static Tensor le(Tensor a, Number b) {
    return Dispatch.apply(Builtins_le.OP, null, a, Dispatch.wrap(Builtins_le.OP, 1, b));
  }

  public static Tensor le(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_le.OP, out, a, Dispatch.wrap(Builtins_le.OP, 1, b));
  }

  public static Tensor le(Number a, Tensor b) {
    return Dispatch.apply(Builtins_le.OP, null, Dispatch.wrap(Builtins_le.OP, 0, a), b);
  }

  public static Tensor le(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_le.OP, out, Dispatch.wrap(Builtins_le.OP, 0, a), b);
  }

  /** Elementwise a > b, as BOOL. */
  public static Tensor gt(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_gt.OP, null, a, b);
  }

  /** {@link #gt(Tensor, Tensor)} into {@code out}. */
  public static Tensor gt(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_gt.OP, out, a, b);
  }

  public static Tensor gt(Tensor a, Number b) {
    return Dispatch.apply(Builtins_gt.OP, null, a, Dispatch.wrap(Builtins_gt.OP, 1, b));
  }

  public static Tensor gt(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_gt.OP, out, a, Dispatch.wrap(Builtins_gt.OP, 1, b));
  }

  public static Tensor gt(Number a, Tensor b) {
    return Dispatch.apply(Builtins_gt.OP, null, Dispatch.wrap(Builtins_gt.OP, 0, a), b);
  }

  public static Tensor gt(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_gt.OP, out, Dispatch.wrap(Builtins_gt.OP, 0, a), b);
  }

  /** Elementwise a >= b, as BOOL. */
  public static Tensor ge(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_ge.OP, null, a, b);
  }

  /** {@link #ge(Tensor, Tensor)} into {@code out}. */
  public static Tensor ge(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_ge.OP, out, a, b);
  }

  public static Tensor ge(Tensor a, Number b) {
    return Dispatch.apply(Builtins_ge.OP, null, a, Dispatch.wrap(Builtins_ge.OP, 1, b));
  }

  public static Tensor ge(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_ge.OP, out, a, Dispatch.wrap(Builtins_ge.OP, 1, b));
  }

  public static Tensor ge(Number a, Tensor b) {
    return Dispatch.apply(Builtins_ge.OP, null, Dispatch.wrap(Builtins_ge.OP, 0, a), b);
  }

  public static Tensor ge(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_ge.OP, out, Dispatch.wrap(Builtins_ge.OP, 0, a), b);
  }

  /** Elementwise both nonzero, as BOOL. */
  public static Tensor logicalAnd(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_logicalAnd.OP, null, a, b);
  }

  /** {@link #logicalAnd(Tensor, Tensor)} into {@code out}. */
  public static Tensor logicalAnd(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_logicalAnd.OP, out, a, b);
  }

  public static Tensor logicalAnd(Tensor a, Number b) {
    return Dispatch.apply(Builtins_logicalAnd.OP, null, a, Dispatch.wrap(Builtins_logicalAnd.OP, 1, b));
  }

  public static Tensor logicalAnd(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_logicalAnd.OP, out, a, Dispatch.wrap(Builtins_logicalAnd.OP, 1, b));
  }

  public static Tensor logicalAnd(Number a, Tensor b) {
    return Dispatch.apply(Builtins_logicalAnd.OP, null, Dispatch.wrap(Builtins_logicalAnd.OP, 0, a), b);
  }

  public static Tensor logicalAnd(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_logicalAnd.OP, out, Dispatch.wrap(Builtins_logicalAnd.OP, 0, a), b);
  }

  /** Elementwise either nonzero, as BOOL. */
  public static Tensor logicalOr(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_logicalOr.OP, null, a, b);
  }

  /** {@link #logicalOr(Tensor, Tensor)} into {@code out}. */
  public static Tensor logicalOr(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_logicalOr.OP, out, a, b);
  }

  public static Tensor logicalOr(Tensor a, Number b) {
    return Dispatch.apply(Builtins_logicalOr.OP, null, a, Dispatch.wrap(Builtins_logicalOr.OP, 1, b));
  }

  public static Tensor logicalOr(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_logicalOr.OP, out, a, Dispatch.wrap(Builtins_logicalOr.OP, 1, b));
  }

  public static Tensor logicalOr(Number a, Tensor b) {
    return Dispatch.apply(Builtins_logicalOr.OP, null, Dispatch.wrap(Builtins_logicalOr.OP, 0, a), b);
  }

  public static Tensor logicalOr(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_logicalOr.OP, out, Dispatch.wrap(Builtins_logicalOr.OP, 0, a), b);
  }

  /** Elementwise exactly one nonzero, as BOOL. */
  public static Tensor logicalXor(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_logicalXor.OP, null, a, b);
  }

  /** {@link #logicalXor(Tensor, Tensor)} into {@code out}. */
  public static Tensor logicalXor(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_logicalXor.OP, out, a, b);
  }

  public static Tensor logicalXor(Tensor a, Number b) {
    return Dispatch.apply(Builtins_logicalXor.OP, null, a, Dispatch.wrap(Builtins_logicalXor.OP, 1, b));
  }

  public static Tensor logicalXor(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_logicalXor.OP, out, a, Dispatch.wrap(Builtins_logicalXor.OP, 1, b));
  }

  public static Tensor logicalXor(Number a, Tensor b) {
    return Dispatch.apply(Builtins_logicalXor.OP, null, Dispatch.wrap(Builtins_logicalXor.OP, 0, a), b);
  }

  public static Tensor logicalXor(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_logicalXor.OP, out, Dispatch.wrap(Builtins_logicalXor.OP, 0, a), b);
  }

  /** Elementwise a & b (integral and bool). */
  public static Tensor bitwiseAnd(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_bitwiseAnd.OP, null, a, b);
  }

  /** {@link #bitwiseAnd(Tensor, Tensor)} into {@code out}. */
  public static Tensor bitwiseAnd(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_bitwiseAnd.OP, out, a, b);
  }

  public static Tensor bitwiseAnd(Tensor a, Number b) {
    return Dispatch.apply(Builtins_bitwiseAnd.OP, null, a, Dispatch.wrap(Builtins_bitwiseAnd.OP, 1, b));
  }

  public static Tensor bitwiseAnd(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_bitwiseAnd.OP, out, a, Dispatch.wrap(Builtins_bitwiseAnd.OP, 1, b));
  }

  public static Tensor bitwiseAnd(Number a, Tensor b) {
    return Dispatch.apply(Builtins_bitwiseAnd.OP, null, Dispatch.wrap(Builtins_bitwiseAnd.OP, 0, a), b);
  }

  public static Tensor bitwiseAnd(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_bitwiseAnd.OP, out, Dispatch.wrap(Builtins_bitwiseAnd.OP, 0, a), b);
  }

  /** Elementwise a | b (integral and bool). */
  public static Tensor bitwiseOr(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_bitwiseOr.OP, null, a, b);
  }

  /** {@link #bitwiseOr(Tensor, Tensor)} into {@code out}. */
  public static Tensor bitwiseOr(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_bitwiseOr.OP, out, a, b);
  }

  public static Tensor bitwiseOr(Tensor a, Number b) {
    return Dispatch.apply(Builtins_bitwiseOr.OP, null, a, Dispatch.wrap(Builtins_bitwiseOr.OP, 1, b));
  }

  public static Tensor bitwiseOr(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_bitwiseOr.OP, out, a, Dispatch.wrap(Builtins_bitwiseOr.OP, 1, b));
  }

  public static Tensor bitwiseOr(Number a, Tensor b) {
    return Dispatch.apply(Builtins_bitwiseOr.OP, null, Dispatch.wrap(Builtins_bitwiseOr.OP, 0, a), b);
  }

  public static Tensor bitwiseOr(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_bitwiseOr.OP, out, Dispatch.wrap(Builtins_bitwiseOr.OP, 0, a), b);
  }

  /** Elementwise a ^ b (integral and bool). */
  public static Tensor bitwiseXor(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_bitwiseXor.OP, null, a, b);
  }

  /** {@link #bitwiseXor(Tensor, Tensor)} into {@code out}. */
  public static Tensor bitwiseXor(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_bitwiseXor.OP, out, a, b);
  }

  public static Tensor bitwiseXor(Tensor a, Number b) {
    return Dispatch.apply(Builtins_bitwiseXor.OP, null, a, Dispatch.wrap(Builtins_bitwiseXor.OP, 1, b));
  }

  public static Tensor bitwiseXor(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_bitwiseXor.OP, out, a, Dispatch.wrap(Builtins_bitwiseXor.OP, 1, b));
  }

  public static Tensor bitwiseXor(Number a, Tensor b) {
    return Dispatch.apply(Builtins_bitwiseXor.OP, null, Dispatch.wrap(Builtins_bitwiseXor.OP, 0, a), b);
  }

  public static Tensor bitwiseXor(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_bitwiseXor.OP, out, Dispatch.wrap(Builtins_bitwiseXor.OP, 0, a), b);
  }

  /** Elementwise a << b; counts outside [0, width) give 0. */
  public static Tensor bitwiseLeftShift(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_bitwiseLeftShift.OP, null, a, b);
  }

  /** {@link #bitwiseLeftShift(Tensor, Tensor)} into {@code out}. */
  public static Tensor bitwiseLeftShift(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_bitwiseLeftShift.OP, out, a, b);
  }

  public static Tensor bitwiseLeftShift(Tensor a, Number b) {
    return Dispatch.apply(Builtins_bitwiseLeftShift.OP, null, a, Dispatch.wrap(Builtins_bitwiseLeftShift.OP, 1, b));
  }

  public static Tensor bitwiseLeftShift(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_bitwiseLeftShift.OP, out, a, Dispatch.wrap(Builtins_bitwiseLeftShift.OP, 1, b));
  }

  public static Tensor bitwiseLeftShift(Number a, Tensor b) {
    return Dispatch.apply(Builtins_bitwiseLeftShift.OP, null, Dispatch.wrap(Builtins_bitwiseLeftShift.OP, 0, a), b);
  }

  public static Tensor bitwiseLeftShift(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_bitwiseLeftShift.OP, out, Dispatch.wrap(Builtins_bitwiseLeftShift.OP, 0, a), b);
  }

  /** Elementwise a >> b (arithmetic); counts outside [0, width) give the sign fill. */
  public static Tensor bitwiseRightShift(Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_bitwiseRightShift.OP, null, a, b);
  }

  /** {@link #bitwiseRightShift(Tensor, Tensor)} into {@code out}. */
  public static Tensor bitwiseRightShift(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_bitwiseRightShift.OP, out, a, b);
  }

  public static Tensor bitwiseRightShift(Tensor a, Number b) {
    return Dispatch.apply(Builtins_bitwiseRightShift.OP, null, a, Dispatch.wrap(Builtins_bitwiseRightShift.OP, 1, b));
  }

  public static Tensor bitwiseRightShift(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Builtins_bitwiseRightShift.OP, out, a, Dispatch.wrap(Builtins_bitwiseRightShift.OP, 1, b));
  }

  public static Tensor bitwiseRightShift(Number a, Tensor b) {
    return Dispatch.apply(Builtins_bitwiseRightShift.OP, null, Dispatch.wrap(Builtins_bitwiseRightShift.OP, 0, a), b);
  }

  public static Tensor bitwiseRightShift(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_bitwiseRightShift.OP, out, Dispatch.wrap(Builtins_bitwiseRightShift.OP, 0, a), b);
  }

  /** Elementwise |x|. */
  public static Tensor abs(Tensor x) {
    return Dispatch.apply(Builtins_abs.OP, null, x);
  }

  /** {@link #abs(Tensor)} into {@code out}. */
  public static Tensor abs(Tensor x, Tensor out) {
    return Dispatch.apply(Builtins_abs.OP, out, x);
  }

  /** Elementwise -1, 0 or 1 (NaN gives 0). */
  public static Tensor sign(Tensor x) {
    return Dispatch.apply(Builtins_sign.OP, null, x);
  }

  /** {@link #sign(Tensor)} into {@code out}. */
  public static Tensor sign(Tensor x, Tensor out) {
    return Dispatch.apply(Builtins_sign.OP, out, x);
  }

  /** Elementwise e^x (integral operands compute in float32). */
  public static Tensor exp(Tensor x) {
    return Dispatch.apply(Builtins_exp.OP, null, x);
  }

  /** {@link #exp(Tensor)} into {@code out}. */
  public static Tensor exp(Tensor x, Tensor out) {
    return Dispatch.apply(Builtins_exp.OP, out, x);
  }

  /** Elementwise the natural logarithm (integral operands compute in float32). */
  public static Tensor log(Tensor x) {
    return Dispatch.apply(Builtins_log.OP, null, x);
  }

  /** {@link #log(Tensor)} into {@code out}. */
  public static Tensor log(Tensor x, Tensor out) {
    return Dispatch.apply(Builtins_log.OP, out, x);
  }

  /** Elementwise the square root (integral operands compute in float32). */
  public static Tensor sqrt(Tensor x) {
    return Dispatch.apply(Builtins_sqrt.OP, null, x);
  }

  /** {@link #sqrt(Tensor)} into {@code out}. */
  public static Tensor sqrt(Tensor x, Tensor out) {
    return Dispatch.apply(Builtins_sqrt.OP, out, x);
  }

  /** Elementwise the sine (integral operands compute in float32). */
  public static Tensor sin(Tensor x) {
    return Dispatch.apply(Builtins_sin.OP, null, x);
  }

  /** {@link #sin(Tensor)} into {@code out}. */
  public static Tensor sin(Tensor x, Tensor out) {
    return Dispatch.apply(Builtins_sin.OP, out, x);
  }

  /** Elementwise the cosine (integral operands compute in float32). */
  public static Tensor cos(Tensor x) {
    return Dispatch.apply(Builtins_cos.OP, null, x);
  }

  /** {@link #cos(Tensor)} into {@code out}. */
  public static Tensor cos(Tensor x, Tensor out) {
    return Dispatch.apply(Builtins_cos.OP, out, x);
  }

  /** Elementwise the hyperbolic tangent (integral operands compute in float32). */
  public static Tensor tanh(Tensor x) {
    return Dispatch.apply(Builtins_tanh.OP, null, x);
  }

  /** {@link #tanh(Tensor)} into {@code out}. */
  public static Tensor tanh(Tensor x, Tensor out) {
    return Dispatch.apply(Builtins_tanh.OP, out, x);
  }

  /** Elementwise 1 / (1 + e^-x) (integral operands compute in float32). */
  public static Tensor sigmoid(Tensor x) {
    return Dispatch.apply(Builtins_sigmoid.OP, null, x);
  }

  /** {@link #sigmoid(Tensor)} into {@code out}. */
  public static Tensor sigmoid(Tensor x, Tensor out) {
    return Dispatch.apply(Builtins_sigmoid.OP, out, x);
  }

  /** Elementwise x == 0, as BOOL. */
  public static Tensor logicalNot(Tensor x) {
    return Dispatch.apply(Builtins_logicalNot.OP, null, x);
  }

  /** {@link #logicalNot(Tensor)} into {@code out}. */
  public static Tensor logicalNot(Tensor x, Tensor out) {
    return Dispatch.apply(Builtins_logicalNot.OP, out, x);
  }


  /** Elementwise {@code -x}; refused for BOOL, as in PyTorch. */
  public static Tensor neg(Tensor x) {
    return neg(x, null);
  }

  /** {@link #neg(Tensor)} into {@code out}. */
  public static Tensor neg(Tensor x, Tensor out) {
    if (x != null && x.dtype() == DType.BOOL) {
      throw new IllegalArgumentException(
          "neg: Negation, the `-` operator, on a bool tensor is not supported. If you are trying"
              + " to invert a mask, use the `~` or `logical_not()` operator instead.");
    }
    return Dispatch.apply(Builtins_neg.OP, out, x);
  }

  /** Elementwise {@code ~x} for integral dtypes; logical not for BOOL, as in PyTorch. */
  public static Tensor bitwiseNot(Tensor x) {
    return bitwiseNot(x, null);
  }

  /** {@link #bitwiseNot(Tensor)} into {@code out}. */
  public static Tensor bitwiseNot(Tensor x, Tensor out) {
    boolean bool = x != null && x.dtype() == DType.BOOL;
    return Dispatch.apply(bool ? Builtins_logicalNot.OP : Builtins_bitwiseNot.OP, out, x);
  }

  // ---- binary ops with XLA broadcast dimensions ----------------------------------------------

  /**
   * Lifts the lower-rank operand with XLA's {@code broadcast_dimensions}, then runs the op's
   * ordinary form, so its own argument rules (bool {@code sub}, ...) still apply. For {@code out=},
   * lift with {@link Broadcast#inDim} and call the op's {@code out=} form.
   */
  private static Tensor withDims(
      String name, BinaryOperator<Tensor> op, Tensor a, Tensor b, BroadcastDims dims) {
    Tensor[] ab = Broadcast.inDimOperands(name, a, b, dims);
    return op.apply(ab[0], ab[1]);
  }

  /** {@link #add(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor add(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("add", Ops::add, a, b, dims);
  }

  /** {@link #sub(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor sub(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("sub", Ops::sub, a, b, dims);
  }

  /** {@link #mul(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor mul(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("mul", Ops::mul, a, b, dims);
  }

  /** {@link #div(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor div(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("div", Ops::div, a, b, dims);
  }

  /** {@link #floorDivide(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor floorDivide(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("floorDivide", Ops::floorDivide, a, b, dims);
  }

  /** {@link #remainder(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor remainder(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("remainder", Ops::remainder, a, b, dims);
  }

  /** {@link #maximum(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor maximum(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("maximum", Ops::maximum, a, b, dims);
  }

  /** {@link #minimum(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor minimum(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("minimum", Ops::minimum, a, b, dims);
  }

  /** {@link #pow(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor pow(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("pow", Ops::pow, a, b, dims);
  }

  /** {@link #eq(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor eq(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("eq", Ops::eq, a, b, dims);
  }

  /** {@link #ne(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor ne(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("ne", Ops::ne, a, b, dims);
  }

  /** {@link #lt(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor lt(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("lt", Ops::lt, a, b, dims);
  }

  /** {@link #le(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor le(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("le", Ops::le, a, b, dims);
  }

  /** {@link #gt(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor gt(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("gt", Ops::gt, a, b, dims);
  }

  /** {@link #ge(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor ge(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("ge", Ops::ge, a, b, dims);
  }

  /** {@link #logicalAnd(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor logicalAnd(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("logicalAnd", Ops::logicalAnd, a, b, dims);
  }

  /** {@link #logicalOr(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor logicalOr(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("logicalOr", Ops::logicalOr, a, b, dims);
  }

  /** {@link #logicalXor(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor logicalXor(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("logicalXor", Ops::logicalXor, a, b, dims);
  }

  /** {@link #bitwiseAnd(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor bitwiseAnd(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("bitwiseAnd", Ops::bitwiseAnd, a, b, dims);
  }

  /** {@link #bitwiseOr(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor bitwiseOr(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("bitwiseOr", Ops::bitwiseOr, a, b, dims);
  }

  /** {@link #bitwiseXor(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor bitwiseXor(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("bitwiseXor", Ops::bitwiseXor, a, b, dims);
  }

  /** {@link #bitwiseLeftShift(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor bitwiseLeftShift(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("bitwiseLeftShift", Ops::bitwiseLeftShift, a, b, dims);
  }

  /** {@link #bitwiseRightShift(Tensor, Tensor)} with XLA {@link BroadcastDims broadcast dimensions}. */
  public static Tensor bitwiseRightShift(Tensor a, Tensor b, BroadcastDims dims) {
    return withDims("bitwiseRightShift", Ops::bitwiseRightShift, a, b, dims);
  }

  // ---- three operands -------------------------------------------------------------------------

  /** {@code condition ? a : b} elementwise; the condition must be BOOL and does not promote. */
  public static Tensor where(Tensor condition, Tensor a, Tensor b) {
    return Dispatch.apply(Builtins_where.OP, null, condition, a, b);
  }

  /** {@link #where(Tensor, Tensor, Tensor)} into {@code out}. */
  public static Tensor where(Tensor condition, Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Builtins_where.OP, out, condition, a, b);
  }

  public static Tensor where(Tensor condition, Tensor a, Number b) {
    return Dispatch.apply(Builtins_where.OP, null, condition, a, Dispatch.wrap(Builtins_where.OP, 2, b));
  }

  public static Tensor where(Tensor condition, Number a, Tensor b) {
    return Dispatch.apply(Builtins_where.OP, null, condition, Dispatch.wrap(Builtins_where.OP, 1, a), b);
  }

  public static Tensor where(Tensor condition, Number a, Number b) {
    return Dispatch.apply(Builtins_where.OP, null, condition, Dispatch.wrap(Builtins_where.OP, 1, a), Dispatch.wrap(Builtins_where.OP, 2, b));
  }

  /** {@code min(max(x, min), max)} elementwise; NaN propagates. */
  public static Tensor clamp(Tensor x, Tensor min, Tensor max) {
    return Dispatch.apply(Builtins_clamp.OP, null, x, min, max);
  }

  /** {@link #clamp(Tensor, Tensor, Tensor)} into {@code out}. */
  public static Tensor clamp(Tensor x, Tensor min, Tensor max, Tensor out) {
    return Dispatch.apply(Builtins_clamp.OP, out, x, min, max);
  }

  /**
   * {@code clamp(x, min, max)} with number bounds; a null bound is absent ({@code clamp(x,
   * min=0)}), but not both.
   */
  public static Tensor clamp(Tensor x, Number min, Number max) {
    return clamp(x, min, max, null);
  }

  /** {@link #clamp(Tensor, Number, Number)} into {@code out}. */
  public static Tensor clamp(Tensor x, Number min, Number max, Tensor out) {
    if (min == null && max == null) {
      throw new IllegalArgumentException("clamp: At least one of 'min' or 'max' must not be None");
    }
    if (min == null) {
      return Dispatch.apply(Builtins_minimum.OP, out, x, Dispatch.wrap(Builtins_minimum.OP, 1, max));
    }
    if (max == null) {
      return Dispatch.apply(Builtins_maximum.OP, out, x, Dispatch.wrap(Builtins_maximum.OP, 1, min));
    }
    return Dispatch.apply(
        Builtins_clamp.OP,
        out,
        x,
        Dispatch.wrap(Builtins_clamp.OP, 1, min),
        Dispatch.wrap(Builtins_clamp.OP, 2, max));
  }

  // ---- reductions (docs/reductions.md) -------------------------------------------------------

  /** {@link Tensor#sum()}: all elements. */
  public static Tensor sum(Tensor x) {
    return Reductions.sum(x, null, false, null);
  }

  /** {@link Tensor#sum(int...)}. */
  public static Tensor sum(Tensor x, int... dims) {
    return Reductions.sum(x, dims, false, null);
  }

  /** {@link Tensor#sum(int[], boolean)}. */
  public static Tensor sum(Tensor x, int[] dims, boolean keepDim) {
    return Reductions.sum(x, dims, keepDim, null);
  }

  /**
   * {@link Tensor#sum(int[], boolean)} into {@code out}, which must have the result's shape and a
   * dtype the result casts to; nothing is written when a check fails.
   */
  public static Tensor sum(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    return Reductions.sum(x, dims, keepDim, requireOut("sum", out));
  }

  /** {@link Tensor#mean()}. */
  public static Tensor mean(Tensor x) {
    return Reductions.mean(x, null, false, null);
  }

  /** {@link Tensor#mean(int...)}. */
  public static Tensor mean(Tensor x, int... dims) {
    return Reductions.mean(x, dims, false, null);
  }

  /** {@link Tensor#mean(int[], boolean)}. */
  public static Tensor mean(Tensor x, int[] dims, boolean keepDim) {
    return Reductions.mean(x, dims, keepDim, null);
  }

  /** {@link Tensor#mean(int[], boolean)} into {@code out} (the result's shape, a castable dtype). */
  public static Tensor mean(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    return Reductions.mean(x, dims, keepDim, requireOut("mean", out));
  }

  /** {@link Tensor#amax()}. */
  public static Tensor amax(Tensor x) {
    return Reductions.amax(x, null, false, null);
  }

  /** {@link Tensor#amax(int...)}. */
  public static Tensor amax(Tensor x, int... dims) {
    return Reductions.amax(x, dims, false, null);
  }

  /** {@link Tensor#amax(int[], boolean)}. */
  public static Tensor amax(Tensor x, int[] dims, boolean keepDim) {
    return Reductions.amax(x, dims, keepDim, null);
  }

  /** {@link Tensor#amax(int[], boolean)} into {@code out} (the result's shape, the input's dtype). */
  public static Tensor amax(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    return Reductions.amax(x, dims, keepDim, requireOut("amax", out));
  }

  /** {@link Tensor#amin()}. */
  public static Tensor amin(Tensor x) {
    return Reductions.amin(x, null, false, null);
  }

  /** {@link Tensor#amin(int...)}. */
  public static Tensor amin(Tensor x, int... dims) {
    return Reductions.amin(x, dims, false, null);
  }

  /** {@link Tensor#amin(int[], boolean)}. */
  public static Tensor amin(Tensor x, int[] dims, boolean keepDim) {
    return Reductions.amin(x, dims, keepDim, null);
  }

  /** {@link Tensor#amin(int[], boolean)} into {@code out} (the result's shape, the input's dtype). */
  public static Tensor amin(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    return Reductions.amin(x, dims, keepDim, requireOut("amin", out));
  }

  /** {@link Tensor#sumToShape(long...)}. */
  public static Tensor sumToShape(Tensor x, long... shape) {
    return Reductions.sumToShape(x, shape);
  }

  private static Tensor requireOut(String name, Tensor out) {
    if (out == null) {
      throw new IllegalArgumentException(name + "(): out must not be null; call the form without out");
    }
    return out;
  }
}
