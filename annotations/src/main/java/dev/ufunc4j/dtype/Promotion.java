package dev.ufunc4j.dtype;

/**
 * Type promotion and casting rules, PyTorch's, with the statics in the {@link #DEFAULT} policy.
 *
 * <pre>{@code
 * Promotion.promoteTypes(DType.UINT8, DType.INT8);          // int16
 * Promotion.resultType(int32Tensor, 2.5);                    // float32
 * Promotion.TORCH.promote(DType.UINT16, DType.INT8);         // PromotionException, PyTorch's text
 * Promotion.canCast(DType.FLOAT32, DType.INT32);             // false
 * }</pre>
 *
 * The matrix itself is one table, {@link PromotionTable}; docs/promotion.md explains the policies
 * and how the table is checked against real PyTorch.
 */
public final class Promotion {
  private Promotion() {}

  /** ufunc4j's policy: PyTorch's, extended for uint16/32/64 and strict about float8. */
  public static final PromotionPolicy DEFAULT = PromotionPolicy.DEFAULT;

  /** PyTorch's policy exactly, refusals and error texts included. */
  public static final PromotionPolicy TORCH = PromotionPolicy.TORCH;

  /** The dtype a wrapped Java {@code float} or {@code double} counts as (PyTorch's default). */
  public static final DType DEFAULT_FLOAT = DType.FLOAT32;

  /** The dtype a wrapped complex number promotes as (PyTorch's default complex dtype). */
  public static final DType DEFAULT_COMPLEX = DType.COMPLEX64;

  /**
   * {@link PromotionPolicy#promote} under {@link #DEFAULT}.
   *
   * @param a the first dtype
   * @param b the second dtype
   * @return the promoted dtype
   * @throws PromotionException for float8 with another dtype
   * @throws IllegalArgumentException when either dtype is null
   */
  public static DType promoteTypes(DType a, DType b) {
    return DEFAULT.promote(a, b);
  }

  /**
   * {@link PromotionPolicy#resultType} under {@link #DEFAULT}: the result dtype of an elementwise
   * op over tensors ({@link TensorLike}) and wrapped Java scalars.
   *
   * @param operands the operands: tensors ({@code TensorLike}), Java numbers and booleans
   * @return the result dtype
   */
  public static DType resultType(Object... operands) {
    return DEFAULT.resultType(operands);
  }

  /**
   * {@return PyTorch's same-kind casting rule ({@code c10::canCast}), which in-place and {@code
   * out=} operations check: no complex to non-complex, no floating to integral, nothing but bool to
   * bool} Identical under both policies.
   *
   * @param from the dtype of the value
   * @param to the dtype it would be written as
   * @throws IllegalArgumentException when either dtype is null
   */
  public static boolean canCast(DType from, DType to) {
    if (from == null || to == null) {
      throw new IllegalArgumentException(
          "canCast(" + from + ", " + to + "): dtypes must not be null");
    }
    if (from.isComplex() && !to.isComplex()) {
      return false;
    }
    if (from.isFloatingPoint() && to.isIntegral(false)) {
      return false;
    }
    // bool is its own category, as in promotion: bool_tensor += 5 is refused.
    return from == DType.BOOL || to != DType.BOOL;
  }
}
