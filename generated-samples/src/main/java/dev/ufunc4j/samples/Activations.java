package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Derivative;
import dev.ufunc4j.annotation.Elementwise;
import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.annotation.Scalar;

/**
 * Activation functions as a Java ML user would declare them, each the formula of its PyTorch
 * counterpart ({@code torch.nn.functional}). The processor generates {@code ActivationsOps}
 * ({@code ActivationsOps.silu(x)}, {@code ActivationsOps.silu(x, out)}, ...).
 *
 * <p>Where these differ from PyTorch on purpose (they are the rules of any {@code @Elementwise}
 * op, not special cases): integral and bool inputs compute in float32 ({@link
 * Promote#INT_TO_FLOAT}, as {@code torch.sigmoid} does) where {@code F.silu} and friends refuse
 * them; {@code @Scalar} arguments join type promotion as Python numbers do in {@code torch.add};
 * and a declaration cannot refuse argument values (see {@link #hardtanh}).
 */
public final class Activations {

  private Activations() {}

  /** {@code sqrt(2 / pi)}, the constant of GELU's tanh approximation. */
  static final double SQRT_2_OVER_PI = 0.7978845608028654;

  /** SiLU (swish): {@code x * sigmoid(x)}, written as PyTorch's kernel computes it. */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  public static double silu(double x) {
    return x / (1 + Math.exp(-x));
  }

  /**
   * GELU, tanh approximation ({@code F.gelu(x, approximate='tanh')}):
   * {@code 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))}, in PyTorch's order of operations.
   */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  public static double gelu(double x) {
    final double inner = SQRT_2_OVER_PI * (x + 0.044715 * (x * x * x));
    return 0.5 * x * (1 + Math.tanh(inner));
  }

  /**
   * Softplus, {@code F.softplus(x, beta, threshold)}: {@code log(1 + exp(beta x)) / beta}, and
   * {@code x} itself where {@code beta x > threshold} (PyTorch's defaults are beta 1, threshold
   * 20; a declaration has no default arguments, so callers pass both).
   */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  public static double softplus(double x, @Scalar double beta, @Scalar double threshold) {
    final double scaled = x * beta;
    return scaled > threshold ? x : Math.log1p(Math.exp(scaled)) / beta;
  }

  /** Leaky ReLU, {@code F.leaky_relu(x, negative_slope)} (PyTorch's default slope: 0.01). */
  @Elementwise(promote = Promote.INT_TO_FLOAT)
  public static double leakyRelu(double x, @Scalar double slope) {
    return x > 0 ? x : x * slope;
  }

  /**
   * Hardtanh, {@code F.hardtanh(x, min_val, max_val)}: {@code x} clamped to {@code [minVal,
   * maxVal]}; NaN stays NaN, as in {@code torch.clamp}.
   *
   * <p>Integral tensors with integral limits stay integral (the {@code long} overload). Unlike
   * {@code F.hardtanh}, floating limits make an integral input floating (the scalars join
   * promotion, as in {@code torch.clamp(int_tensor, -2.0, 3.0)}); {@code minVal > maxVal} gives
   * {@code maxVal} everywhere instead of an error; negative limits on uint8 are allowed. On uint64
   * tensors {@code Math.min/max} compare unsigned (docs/processor.md), so a negative limit reads as
   * {@code 2^64 - |limit|}: use non-negative limits there.
   */
  @Elementwise
  public static double hardtanh(double x, @Scalar double minVal, @Scalar double maxVal) {
    // PyTorch's vectorised clamp (x86 max/min): x is kept unless strictly outside, so -0.0 stays
    // -0.0 at a limit of 0.0 and NaN stays NaN; where Math.max(-0.0, 0.0) would give 0.0.
    final double low = minVal > x ? minVal : x;
    return maxVal < low ? maxVal : low;
  }

  @Elementwise
  public static long hardtanh(long x, @Scalar long minVal, @Scalar long maxVal) {
    return Math.min(Math.max(x, minVal), maxVal);
  }

  /**
   * The gradient of {@link #hardtanh} as {@code F.hardtanh} has it: 1 strictly between the limits,
   * 0 at and beyond them. The derivative of the body would be 1 at the limits (the branch taken
   * there), as {@code torch.clamp}'s is; a {@code @Derivative} states the other convention.
   */
  @Derivative(op = "hardtanh")
  static double hardtanhGrad(double x, @Scalar double minVal, @Scalar double maxVal) {
    return x > minVal && x < maxVal ? 1 : 0;
  }
}
