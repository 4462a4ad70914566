package dev.ufunc4j.dtype;

import java.util.Arrays;

/**
 * A type promotion policy: how two dtypes, and a call's operands, meet in one result dtype.
 *
 * <p>{@link #TORCH} is PyTorch 2.x exactly, refusals and error texts included. {@link #DEFAULT} is
 * the same except where PyTorch refuses: it extends the uint16/uint32/uint64 rows (see {@link
 * PromotionTable} and docs/promotion.md) and it refuses float8 beside any other dtype in {@link
 * #resultType}, where PyTorch lets a float8 operand through some category rules. Both are also
 * reachable as {@link Promotion#DEFAULT} and {@link Promotion#TORCH}.
 */
public enum PromotionPolicy {
  /** ufunc4j's policy: PyTorch's table, extended for uint16/32/64, strict about float8. */
  DEFAULT,
  /** PyTorch's policy exactly, error texts included. */
  TORCH;

  /**
   * {@return the dtype two dtypes promote to ({@code c10::promoteTypes}); commutative}
   *
   * @param a the first operand's dtype
   * @param b the second operand's dtype
   * @throws PromotionException when the policy has no common dtype for {@code a} and {@code b}
   * @throws IllegalArgumentException when either is null
   */
  public DType promote(DType a, DType b) {
    if (a == null || b == null) {
      throw new IllegalArgumentException("promote(" + a + ", " + b + "): dtypes must not be null");
    }
    PromotionTable.Cell cell = PromotionTable.cell(a, b);
    if (cell.result() == null) {
      // PyTorch's text; DEFAULT adds what to do about it.
      String torch =
          "Promotion for Float8 Types is not supported, attempted to promote "
              + a.scalarTypeName()
              + " and "
              + b.scalarTypeName();
      throw new PromotionException(
          this == TORCH
              ? torch
              : torch
                  + " ("
                  + a
                  + ", "
                  + b
                  + "): float8 dtypes are storage-only; convert with to(float32) first");
    }
    if (cell.extension() && this == TORCH) {
      throw new PromotionException(
          "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
              + a.scalarTypeName()
              + " and "
              + b.scalarTypeName());
    }
    return cell.result();
  }

  /**
   * {@return the dtype of an elementwise op's result over these operands, by PyTorch's rule ({@code
   * at::native::result_type}, aten/src/ATen/native/TypeProperties.cpp)}
   *
   * <p>Operands fall into three categories, each promoted within itself: dimensioned tensors,
   * zero-dim tensors, and wrapped numbers (Java scalars, and tensors whose {@link
   * TensorLike#isWrappedNumber()} is set). A wrapped floating number counts as the default float
   * dtype FLOAT32 (a wrapped complex one as COMPLEX64), {@code Boolean} as BOOL, {@code Byte},
   * {@code Short}, {@code Integer} and {@code Long} as INT64. The categories then combine by
   * PyTorch's {@code combine_categories}: a lower category only matters if it is of a higher kind
   * (bool &lt; integral &lt; floating &lt; complex). This is not a pairwise fold: {@code int32[2],
   * float32 0-dim, float64 0-dim} gives FLOAT64.
   *
   * @param operands {@link TensorLike}, {@code Boolean}, {@code Byte}, {@code Short}, {@code
   *     Integer}, {@code Long}, {@code Float} or {@code Double}; at least one
   * @throws PromotionException when two dtypes that must meet have no common dtype
   * @throws IllegalArgumentException naming the operand when one is null or of another class
   */
  public DType resultType(Object... operands) {
    if (operands == null || operands.length == 0) {
      throw new IllegalArgumentException(
          "resultType needs at least one operand, got " + Arrays.toString(operands));
    }
    Operand[] ops = new Operand[operands.length];
    for (int i = 0; i < operands.length; i++) {
      ops[i] = Operand.of(operands[i], i);
    }
    if (this == DEFAULT) {
      refuseMixedFloat8(ops, operands);
    }
    // at::native::ResultTypeState: the running promotion of each category; null = Undefined.
    DType dimResult = null;
    DType zeroResult = null;
    DType wrappedResult = null;
    for (Operand op : ops) {
      switch (op.category()) {
        case DIMENSIONED -> dimResult = promoteSkipUndefined(dimResult, op.dtype());
        case ZERO_DIM -> zeroResult = promoteSkipUndefined(zeroResult, op.dtype());
        case WRAPPED -> wrappedResult = promoteSkipUndefined(wrappedResult, op.dtype());
      }
    }
    return combineCategories(dimResult, combineCategories(zeroResult, wrappedResult));
  }

  private DType promoteSkipUndefined(DType a, DType b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return promote(a, b);
  }

  // at::native::combine_categories, branch for branch: the order of the tests is the rule.
  private DType combineCategories(DType higher, DType lower) {
    if (higher != null && higher.isComplex()) {
      return higher;
    }
    if (lower != null && lower.isComplex()) {
      // A floating higher category keeps its precision: float64 dims + complex64 0-dim -> c128.
      return higher != null && higher.isFloatingPoint() ? toComplex(higher) : lower;
    }
    if (higher != null && higher.isFloatingPoint()) {
      return higher;
    }
    if (higher == DType.BOOL || (lower != null && lower.isFloatingPoint())) {
      return promoteSkipUndefined(higher, lower);
    }
    return higher != null ? higher : lower;
  }

  // c10::toComplexType: unlike DType.toComplex, PyTorch maps bfloat16 to complex64 here.
  private static DType toComplex(DType t) {
    return switch (t) {
      case BFLOAT16 -> DType.COMPLEX64;
      case FLOAT16, FLOAT32, FLOAT64 -> t.toComplex();
      default ->
          throw new PromotionException("Unknown Complex ScalarType for " + t.scalarTypeName());
    };
  }

  // DESIGN: float8 promotes with nothing but itself. PyTorch's category rules let a float8
  // operand pass unpromoted (float8[3] + 2.5 -> float8); DEFAULT refuses that up front.
  private static void refuseMixedFloat8(Operand[] ops, Object[] operands) {
    for (int i = 0; i < ops.length; i++) {
      if (!ops[i].dtype().isFloat8()) {
        continue;
      }
      for (int j = 0; j < ops.length; j++) {
        if (ops[j].dtype() != ops[i].dtype()) {
          throw new PromotionException(
              "float8 dtypes promote with nothing but themselves: operand "
                  + i
                  + " is "
                  + ops[i].dtype()
                  + ", operand "
                  + j
                  + " ("
                  + Operand.describe(operands[j])
                  + ") is "
                  + ops[j].dtype()
                  + "; convert with to(float32) first");
        }
      }
    }
  }

  private enum Category {
    DIMENSIONED,
    ZERO_DIM,
    WRAPPED
  }

  /** An operand as promotion sees it: its (default-mapped) dtype and its category. */
  private record Operand(DType dtype, Category category) {
    private static final String ACCEPTED =
        "expected a TensorLike, Boolean, Byte, Short, Integer, Long, Float or Double";

    static Operand of(Object value, int index) {
      return switch (value) {
        case null ->
            throw new IllegalArgumentException(
                "resultType operand " + index + " is null; " + ACCEPTED);
        case TensorLike t -> ofTensor(t, index);
        case Boolean _ -> new Operand(DType.BOOL, Category.WRAPPED);
        case Byte _, Short _, Integer _, Long _ -> new Operand(DType.INT64, Category.WRAPPED);
        case Float _, Double _ -> new Operand(Promotion.DEFAULT_FLOAT, Category.WRAPPED);
        default ->
            throw new IllegalArgumentException(
                "resultType operand " + index + " is " + describe(value) + "; " + ACCEPTED);
      };
    }

    // at::native::update_result_type_state(const Tensor&, ...), in its order: a wrapped number
    // is mapped to the default dtype of its kind before its dimension decides the category.
    private static Operand ofTensor(TensorLike t, int index) {
      DType dtype = t.dtype();
      int ndim = t.ndim();
      if (dtype == null || ndim < 0) {
        throw new IllegalArgumentException(
            "resultType operand "
                + index
                + " ("
                + describe(t)
                + ") has dtype "
                + dtype
                + " and ndim "
                + ndim
                + "; a tensor needs a dtype and ndim >= 0");
      }
      boolean wrapped = t.isWrappedNumber();
      if (wrapped && dtype.isComplex()) {
        dtype = Promotion.DEFAULT_COMPLEX;
      } else if (wrapped && dtype.isFloatingPoint()) {
        dtype = Promotion.DEFAULT_FLOAT;
      }
      Category category =
          ndim > 0 ? Category.DIMENSIONED : wrapped ? Category.WRAPPED : Category.ZERO_DIM;
      return new Operand(dtype, category);
    }

    static String describe(Object value) {
      return value == null ? "null" : "'" + value + "' of class " + value.getClass().getName();
    }
  }
}
