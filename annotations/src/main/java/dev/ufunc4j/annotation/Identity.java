package dev.ufunc4j.annotation;

/**
 * The identity element of a binary op, {@code @Elementwise(identity = ...)}: the value {@code e}
 * with {@code op(e, x) == x} for every {@code x}. A reduction over an empty extent gives it (NumPy's
 * {@code ufunc.identity}: {@code np.add.reduce([])} is 0); an op without one ({@link #NONE}) refuses
 * such a reduction, naming the op. It is stored in the dtype of the reduction's result.
 */
public enum Identity {
  /** No identity: reducing an empty extent is refused. */
  NONE,
  /** {@code 0} ({@code false} for bool): {@code add}, {@code logicalOr}, {@code bitwiseOr}. */
  ZERO,
  /** {@code 1} ({@code true} for bool): {@code mul}, {@code logicalAnd}. */
  ONE,
  /**
   * All bits set: {@code -1} for signed integers, the maximum for unsigned ones, {@code true} for
   * bool: {@code bitwiseAnd}. Only for ops with a {@code long} body (a floating dtype has no
   * all-ones value that is an identity of anything).
   */
  MINUS_ONE,
  /**
   * The lowest value: {@code -inf} for floating dtypes, the minimum for integral ones, {@code
   * false} for bool: {@code maximum}.
   */
  LOWEST,
  /**
   * The highest value: {@code +inf} for floating dtypes, the maximum for integral ones, {@code
   * true} for bool: {@code minimum}.
   */
  HIGHEST
}
