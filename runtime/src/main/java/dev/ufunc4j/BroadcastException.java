package dev.ufunc4j;

import java.io.Serial;

/**
 * Shapes that do not broadcast together. The message is PyTorch's: {@code The size of tensor a (5)
 * must match the size of tensor b (4) at non-singleton dimension 1}.
 */
public final class BroadcastException extends IllegalArgumentException {
  @Serial private static final long serialVersionUID = 1L;

  /**
   * Operands whose shapes do not broadcast.
   *
   * @param message names the operands, their sizes and the dimension, in PyTorch's words
   */
  public BroadcastException(String message) {
    super(message);
  }
}
