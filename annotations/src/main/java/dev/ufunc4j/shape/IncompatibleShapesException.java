package dev.ufunc4j.shape;

import java.io.Serial;

/**
 * Shapes that {@link Broadcastable} rejects: operands whose static sizes do not broadcast, or a
 * declared result shape that does not match the inferred one. The message begins with MLIR's
 * words ({@code operands don't have broadcast-compatible shapes}, {@code result type '4' not
 * broadcast compatible with broadcasted operands's shapes '2'}) and names the dimension and sizes.
 */
public final class IncompatibleShapesException extends IllegalArgumentException {
  @Serial private static final long serialVersionUID = 1L;

  /**
   * Shapes that do not broadcast.
   *
   * @param message names the shapes and the dimension that do not broadcast
   */
  public IncompatibleShapesException(String message) {
    super(message);
  }
}
