package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Derivative;
import dev.ufunc4j.annotation.Elementwise;
import dev.ufunc4j.annotation.Scalar;

/**
 * Ops that call other ops and helper methods: the processor inlines every call, so each op is
 * one fused kernel, and the helpers stay ordinary Java methods. {@code KernelConformanceTest}
 * checks the kernels against these scalar methods, {@code SampleGradientsTest} the derivatives
 * (which flow through the inlined calls, using a called op's {@code @Derivative} for its part)
 * against central differences and PyTorch's autograd.
 */
public final class Composition {

  private Composition() {}

  /** A helper: not an op, inlined where called. */
  static double square(double x) {
    return x * x;
  }

  /** A helper calling a helper, with a local. */
  static double cube(double x) {
    final double s = square(x);
    return s * x;
  }

  /** A helper that answers a condition. */
  static boolean inside(double x, double low, double high) {
    return x >= low && x <= high;
  }

  /** A long helper that divides only where its condition lets it, as Java does. */
  static long quotientOrZero(long a, long b) {
    final long q = a / b;
    return b == 0 ? 0 : q;
  }

  /** The logistic function. */
  @Elementwise
  public static double sigmoid(double x) {
    return 1 / (1 + Math.exp(-x));
  }

  /**
   * PyTorch's {@code sigmoid_backward}, {@code grad * (1 - y) * y}: the derivative of the body,
   * {@code e^-x / (1 + e^-x)^2}, is {@code inf / inf} below -709. The ops calling {@link
   * #sigmoid} use it for the call's part of their gradient.
   */
  @Derivative(op = "sigmoid")
  static double sigmoidGrad(double grad, double x) {
    final double y = sigmoid(x);
    return grad * (1 - y) * y;
  }

  /**
   * SiLU as another op of this class times its input: one kernel, no temporary. Its gradient,
   * {@code grad * (y + x * (1 - y) * y)}, takes {@link #sigmoidGrad} for the call, so it is 0
   * far below 0 as PyTorch's autograd of {@code x * torch.sigmoid(x)}, not NaN.
   */
  @Elementwise
  public static double silu(double x) {
    return x * sigmoid(x);
  }

  /** GELU's tanh approximation over helpers; the argument {@code x / scale} is read twice. */
  @Elementwise
  public static double geluTanh(double x, @Scalar double scale) {
    final double inner = 0.7978845608028654 * (x / scale + 0.044715 * cube(x / scale));
    return 0.5 * x * (1 + Math.tanh(inner));
  }

  /** {@code x} inside [-1, 1], else its square: a boolean helper and two calls. */
  @Elementwise
  public static double clipOrSquare(double x) {
    return inside(x, -1, 1) ? x : square(x);
  }

  /**
   * A call under a condition whose helper divides in a local: the division stays in the branch,
   * so a zero divisor in a lane that does not take it throws nothing, as in Java.
   */
  @Elementwise(dtypes = {"int8", "int32", "int64"})
  public static long safeQuotient(long a, long b) {
    return b != 0 ? quotientOrZero(a, b) + 1 : -1;
  }

  /** An op calling an op whose body is an op call: {@code silu} of a shifted input. */
  @Elementwise
  public static double shiftedSilu(double x, @Scalar double shift) {
    return silu(x - shift);
  }

  /**
   * An op with a declared derivative, called by {@link #softSign2}: the caller's derivative takes
   * {@link #softSignGrad} for each call's part.
   */
  @Elementwise
  public static double softSign(double x) {
    return x / (1 + Math.abs(x));
  }

  @Derivative(op = "softSign")
  static double softSignGrad(double x) {
    final double d = 1 + Math.abs(x);
    return 1 / (d * d);
  }

  @Elementwise
  public static double softSign2(double x, double y) {
    return softSign(x) * softSign(y);
  }
}
