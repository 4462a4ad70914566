package dev.ufunc4j.annotation;

/** How an {@link Elementwise} op chooses the dtype it computes in. */
public enum Promote {
  /** The common dtype of the operands (PyTorch's {@code result_type}); the default. */
  PROMOTE,
  /**
   * As {@link #PROMOTE}, but integral and bool operands compute in the default float dtype
   * (FLOAT32): true division, {@code exp}, {@code sigmoid}.
   */
  INT_TO_FLOAT
}
