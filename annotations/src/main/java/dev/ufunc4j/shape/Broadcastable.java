package dev.ufunc4j.shape;

import java.util.ArrayList;
import java.util.List;

/**
 * Static shape inference and verification of MLIR's {@code Broadcastable} trait, over shapes with
 * dynamic ({@code ?}) dimensions and unranked shapes. It follows the trait's documentation
 * (mlir/docs/Traits/Broadcastable.md) and its implementation ({@code getBroadcastedShape} and
 * {@code verifyCompatibleOperandBroadcast} in mlir/lib/Dialect/Traits.cpp); see
 * docs/broadcasting.md, "Static shapes", for the tables and where the two differ.
 *
 * <ul>
 *   <li>{@link #inferDim}: {@code (?, ?) → ?}, {@code (?, 1) → ?}, {@code (?, >1) → >1}, {@code
 *       (1, 1) → 1}, {@code (1, >1) → >1}, {@code (>1, >1)} equal, else an error; symmetric. A
 *       static 0 (which the doc's table leaves out) behaves as in Traits.cpp: {@code (0, 0) → 0},
 *       {@code (0, 1) → 0}, {@code (0, ?) → ?}, {@code (0, >1)} an error.
 *   <li>{@link #inferShape}: ranks are equalised by prepending 1s; unranked operands are
 *       discarded; with no ranked operand the result is unranked.
 *   <li>{@link #verify}: a declared result is accepted when it is unranked, or no operand is
 *       ranked, or it has the inferred rank and every dimension is compatible: a {@code ?} result
 *       size accepts anything, two static sizes must be equal (no broadcasting from inferred to
 *       declared: inferred {@code 1} against declared {@code 4} is an error), and an inferred
 *       {@code ?} against a static result size is an error (DESIGN.md and the doc's {@code Verify}
 *       pseudo-code; MLIR's code accepts it since D156698, see docs/broadcasting.md).
 * </ul>
 *
 * <p>Shape contracts written on op declarations, checked by the processor at compile time and by
 * the runtime at call time, are to be built on this class; neither exists yet.
 */
public final class Broadcastable {
  private Broadcastable() {}

  /**
   * {@return the size of a result dimension inferred from the same dimension of two operands (the
   * trait's {@code InferDim}); symmetric}
   *
   * @param dim0 the first operand's dimension
   * @param dim1 the second operand's dimension
   * @throws IncompatibleShapesException when both are static, different, and neither is 1
   * @throws IllegalArgumentException when an argument is null
   */
  public static Dim inferDim(Dim dim0, Dim dim1) {
    if (dim0 == null || dim1 == null) {
      throw new IllegalArgumentException(
          "Broadcastable.inferDim: dimension " + (dim0 == null ? "dim0" : "dim1") + " is null");
    }
    Dim inferred = inferDimOrNull(dim0, dim1);
    if (inferred == null) {
      throw new IncompatibleShapesException(
          "dimensions " + dim0 + " and " + dim1 + " are not broadcast-compatible: two static"
              + " sizes must be equal or one of them 1");
    }
    return inferred;
  }

  /** Traits.cpp {@code getBroadcastedShape} for one dimension pair; null when incompatible. */
  private static Dim inferDimOrNull(Dim dim0, Dim dim1) {
    if (dim0.isDynamic() || dim1.isDynamic()) {
      // A static size > 1 wins over ?, ? wins over 1; (0, ?) is ? as in Traits.cpp.
      if (dim0.isStatic() && dim0.size() > 1) {
        return dim0;
      }
      if (dim1.isStatic() && dim1.size() > 1) {
        return dim1;
      }
      return Dim.DYNAMIC;
    }
    long a = dim0.size();
    long b = dim1.size();
    if (a == b || b == 1) {
      return dim0;
    }
    if (a == 1) {
      return dim1;
    }
    return null;
  }

  /**
   * {@return the result shape the trait infers from {@code operands} ({@code InferResultShape}):
   * unranked operands are discarded; the ranked ones are combined from left to right, each pair
   * aligned at the last dimension with 1s prepended to the shorter; with no ranked operand the
   * result is {@link ShapeType#unranked()}}
   *
   * @param operands the operands' shapes
   * @throws IncompatibleShapesException when two ranked operands have static sizes that do not
   *     broadcast; the message names the dimension, the sizes and the operands
   * @throws IllegalArgumentException when there is no operand (the trait requires one) or an
   *     argument is null
   */
  public static ShapeType inferShape(ShapeType... operands) {
    requireOperands("inferShape", operands);
    List<Dim> inferred = null;
    int firstRanked = -1;
    for (int k = 0; k < operands.length; k++) {
      ShapeType operand = operands[k];
      if (!operand.isRanked()) {
        continue;
      }
      if (inferred == null) {
        inferred = operand.dims();
        firstRanked = k;
        continue;
      }
      inferred = inferPair(inferred, operand.dims(), operands, firstRanked, k);
    }
    return inferred == null ? ShapeType.unranked() : ShapeType.ranked(inferred);
  }

  private static List<Dim> inferPair(
      List<Dim> left, List<Dim> right, ShapeType[] operands, int firstRanked, int k) {
    int rank = Math.max(left.size(), right.size());
    List<Dim> out = new ArrayList<>(rank);
    for (int i = 0; i < rank; i++) {
      int l = i - (rank - left.size());
      int r = i - (rank - right.size());
      Dim dim0 = l >= 0 ? left.get(l) : Dim.of(1);
      Dim dim1 = r >= 0 ? right.get(r) : Dim.of(1);
      Dim inferred = inferDimOrNull(dim0, dim1);
      if (inferred == null) {
        throw new IncompatibleShapesException(
            "operands don't have broadcast-compatible shapes: operand " + k + " "
                + operands[k] + " has size " + dim1 + " where the ranked operands "
                + (k - 1 == firstRanked ? firstRanked : firstRanked + ".." + (k - 1))
                + " before it infer " + ShapeType.ranked(left) + " with size " + dim0
                + " (dimension " + i + " of the inferred shape; static sizes must be equal or"
                + " one of them 1)");
      }
      out.add(inferred);
    }
    return out;
  }

  /**
   * Verifies that {@code result}, the result shape an op declares, is compatible with the shape
   * inferred from {@code operands} (the trait's {@code Verify}). Accepted when {@code result} is
   * unranked or no operand is ranked; otherwise the ranks must match and, dimension by dimension,
   * a dynamic result size is accepted, two static sizes must be equal, and an inferred dynamic
   * size against a static result size is an error.
   *
   * @param result the declared result shape
   * @param operands the operands' shapes
   * @throws IncompatibleShapesException when the operands do not broadcast ({@link #inferShape}'s
   *     message) or the result is not compatible with the inferred shape; the message says MLIR's
   *     {@code result type '4' not broadcast compatible with broadcasted operands's shapes '2'},
   *     then which dimension or rank differs
   * @throws IllegalArgumentException when there is no operand or an argument is null
   */
  public static void verify(ShapeType result, ShapeType... operands) {
    if (result == null) {
      throw new IllegalArgumentException("Broadcastable.verify: the result shape is null");
    }
    requireOperands("verify", operands);
    ShapeType inferred = inferShape(operands);
    if (!result.isRanked() || !inferred.isRanked()) {
      return;
    }
    String mlir =
        "result type '" + result.toMlir() + "' not broadcast compatible with broadcasted"
            + " operands's shapes '" + inferred.toMlir() + "'";
    if (result.rank() != inferred.rank()) {
      throw new IncompatibleShapesException(
          mlir + ": the result has rank " + result.rank() + ", the inferred shape rank "
              + inferred.rank());
    }
    for (int i = 0; i < result.rank(); i++) {
      Dim actual = result.dim(i);
      Dim expected = inferred.dim(i);
      if (actual.isStatic() && expected.isStatic() && actual.size() != expected.size()) {
        throw new IncompatibleShapesException(
            mlir + ": dimension " + i + " is " + actual + " in the result but inferred as "
                + expected);
      }
      if (actual.isStatic() && expected.isDynamic()) {
        throw new IncompatibleShapesException(
            mlir + ": dimension " + i + " is " + actual + " in the result but inferred as ?"
                + " (a dynamic inferred size does not prove a static result size)");
      }
    }
  }

  private static void requireOperands(String method, ShapeType[] operands) {
    if (operands == null) {
      throw new IllegalArgumentException("Broadcastable." + method + ": the operands are null");
    }
    if (operands.length == 0) {
      throw new IllegalArgumentException(
          "Broadcastable." + method + ": no operands; a Broadcastable op has at least one");
    }
    for (int k = 0; k < operands.length; k++) {
      if (operands[k] == null) {
        throw new IllegalArgumentException(
            "Broadcastable." + method + ": operand " + k + " of " + operands.length + " is null");
      }
    }
  }
}
