package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Elementwise;

/**
 * Fusion: {@code relu(x + bias)} in one pass over memory, where PyTorch's eager mode writes the
 * sum to a temporary and reads it back. {@code bias} broadcasts like any operand (a row vector
 * against a matrix of activations).
 */
public final class Fused {

  private Fused() {}

  /** {@code max(x + bias, 0)}; NaN propagates, as {@code torch.relu} does. */
  @Elementwise
  public static double biasRelu(double x, double bias) {
    return Math.max(x + bias, 0.0);
  }

  @Elementwise
  public static long biasRelu(long x, long bias) {
    return Math.max(x + bias, 0L);
  }
}
