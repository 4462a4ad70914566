package dev.ufunc4j.internal;

/**
 * Error texts that carry PyTorch's advice, in Java words: the Java call to make instead of
 * PyTorch's ({@code copy()} for {@code clone()}, {@code logicalNot()} for {@code ~}, {@code null}
 * for {@code None}). One place, so that every rule that refuses the same thing says it the same
 * way. The golden tests compare them with PyTorch's texts through the translation table of
 * {@code docs/ops.md} ("Java words in errors"). Internal API.
 */
public final class ErrorTexts {
  private ErrorTexts() {}

  /** An {@code out=} or in-place target that reaches one element twice (an expanded view). */
  public static final String INTERNAL_OVERLAP =
      "unsupported operation: more than one element of the written-to tensor refers to a single"
          + " memory location. Please copy() the tensor before performing the operation.";

  /** An input that shares memory with the target without being the same view. */
  public static final String PARTIAL_OVERLAP =
      "unsupported operation: some elements of the input tensor and the written-to tensor refer"
          + " to a single memory location. Please copy() the tensor before performing the"
          + " operation.";

  /** An integral kernel met a zero divisor (PyTorch raises Python's ZeroDivisionError). */
  public static final String INTEGER_DIVISION_BY_ZERO = "integer division by zero";

  /** {@code sub} of two BOOL tensors. */
  public static final String BOOL_SUB_BOTH =
      "Subtraction (sub()) with two bool tensors is not supported. Use logicalXor() or"
          + " bitwiseXor() instead.";

  /** {@code sub} with one BOOL tensor. */
  public static final String BOOL_SUB_ONE =
      "Subtraction (sub()) with a bool tensor is not supported. If you are trying to invert a"
          + " mask, use logicalNot() instead.";

  /** {@code neg} of a BOOL tensor. */
  public static final String BOOL_NEG =
      "Negation (neg()) on a bool tensor is not supported. If you are trying to invert a mask,"
          + " use logicalNot() instead.";

  /** {@code clamp} without either bound. */
  public static final String CLAMP_NO_BOUND = "At least one of 'min' or 'max' must not be null";
}
