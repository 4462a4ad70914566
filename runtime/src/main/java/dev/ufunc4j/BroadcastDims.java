package dev.ufunc4j;

import java.util.Arrays;

/**
 * XLA's {@code broadcast_dimensions} of a binary op: which dimensions of the higher-rank operand
 * the lower-rank operand's dimensions line up with. {@code Ops.add(v, m, BroadcastDims.of(0))}
 * with {@code v} of shape {@code [4]} and {@code m} of shape {@code [1, 2]} gives {@code [4, 2]}:
 * {@code v} is first lifted to rank 2 with its dimension 0 at dimension 0 ({@link Broadcast#inDim}),
 * then the two operands broadcast as usual (size-1 dimensions stretch). See
 * docs/broadcasting.md, "Explicit (XLA) broadcasting".
 *
 * <p>The dimensions are non-negative and strictly increasing (XLA's rule; JAX's {@code
 * broadcast_in_dim} also accepts a permutation, which ufunc4j refuses). Whether they fit the
 * operands (one per dimension of the lower-rank operand, each below the higher rank, sizes equal
 * or 1) is checked when they are used. A value: immutable, compared by its dimensions.
 */
public final class BroadcastDims {
  private static final BroadcastDims NONE = new BroadcastDims(new int[0]);

  private final int[] dims;

  private BroadcastDims(int[] dims) {
    this.dims = dims;
  }

  /**
   * {@return the dimensions {@code dims} (copied)}
   *
   * @param dims the dimensions (negative counts from the end)
   * @throws IllegalArgumentException when {@code dims} is null, has a negative entry or is not
   *     strictly increasing
   */
  public static BroadcastDims of(int... dims) {
    requireIncreasing("BroadcastDims.of", dims);
    return dims.length == 0 ? NONE : new BroadcastDims(dims.clone());
  }

  /**
   * No dimensions: for operands of equal rank, or a zero-dim (scalar) operand, which XLA
   * broadcasts without a mapping.
   *
   * @return the empty mapping
   */
  public static BroadcastDims none() {
    return NONE;
  }

  /** {@return the dimensions, a new array} */
  public int[] dims() {
    return dims.clone();
  }

  /** {@return how many dimensions: the rank of the lower-rank operand they fit} */
  public int size() {
    return dims.length;
  }

  /**
   * Dimension {@code i} of the higher-rank operand that the lower-rank one's dimension i maps to.
   *
   * @param i the lower-rank operand's dimension
   * @return the higher-rank operand's dimension it lines up with
   */
  public int get(int i) {
    return dims[i];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BroadcastDims other && Arrays.equals(dims, other.dims);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(dims);
  }

  /** {@code BroadcastDims(0, 2)}. */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("BroadcastDims(");
    for (int i = 0; i < dims.length; i++) {
      s.append(i == 0 ? "" : ", ").append(dims[i]);
    }
    return s.append(')').toString();
  }

  /**
   * Refuses a null array, a negative entry and entries that do not strictly increase, naming
   * {@code who} and the values; shared by {@link #of} and {@link Broadcast#inDim}.
   */
  static void requireIncreasing(String who, int[] dims) {
    if (dims == null) {
      throw new IllegalArgumentException(who + ": the broadcast dimensions are null");
    }
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] < 0) {
        throw new IllegalArgumentException(
            who + ": broadcast dimension " + dims[i] + " (dims[" + i + "]) is negative; dims "
                + Arrays.toString(dims));
      }
      if (i > 0 && dims[i] <= dims[i - 1]) {
        throw new IllegalArgumentException(
            who + ": broadcast dimensions must be strictly increasing, but dims[" + i + "] = "
                + dims[i] + " comes after " + dims[i - 1] + "; dims " + Arrays.toString(dims));
      }
    }
  }
}
