package dev.ufunc4j.dtype;

import java.io.Serial;

/**
 * Two dtypes that have no common type under the promotion policy in force: float8 with anything
 * but itself, and under {@link Promotion#TORCH} also uint16/32/64 with anything but themselves and
 * the real floating types. The message names both dtypes, in PyTorch's words under {@code TORCH}.
 */
public final class PromotionException extends IllegalArgumentException {
  @Serial private static final long serialVersionUID = 1L;

  /**
   * A refused promotion.
   *
   * @param message names both dtypes (and, under {@code TORCH}, says it in PyTorch's words)
   */
  public PromotionException(String message) {
    super(message);
  }
}
