package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;

/**
 * Checks the gradients autograd computes for a function against central finite differences,
 * like {@code torch.autograd.gradcheck}, with its defaults: {@code eps = 1e-6}, {@code atol =
 * 1e-5}, {@code rtol = 1e-3}. Every input that requires gradients is perturbed element by element
 * in float64 (so those inputs must be float64: finite differences with {@code eps = 1e-6} mean
 * nothing in float32); each output element is differentiated with {@link Autograd#grad}. Entry
 * {@code (i, j)} of the two Jacobians must satisfy {@code |analytical - numerical| <= atol + rtol
 * * |numerical|}.
 *
 * <pre>{@code
 * Tensor x = Tensor.randn(1, DType.FLOAT64, 3, 4).requiresGrad(true);
 * GradCheck.check(in -> LossOps.huber(in[0], target, 1.0), x);   // throws if they disagree
 * }</pre>
 *
 * <p>Cost: two forward calls per input element and one backward per output element: use small
 * tensors. Points where the function has a kink within {@code eps} disagree by nature.
 */
public final class GradCheck {

  /** PyTorch's {@code gradcheck} defaults. */
  public static final double EPS = 1e-6;

  /** Absolute tolerance: PyTorch's {@code gradcheck} default. */
  public static final double ATOL = 1e-5;

  /** Relative tolerance: PyTorch's {@code gradcheck} default. */
  public static final double RTOL = 1e-3;

  private GradCheck() {}

  /**
   * {@link #check(Function, double, double, double, Tensor...)} with PyTorch's tolerances.
   *
   * @param function the function of the inputs checked
   * @param inputs the inputs, floating tensors that require grad
   * @return true
   * @throws GradCheckException when an entry of the Jacobians disagrees
   */
  public static boolean check(Function<Tensor[], Tensor> function, Tensor... inputs) {
    return check(function, EPS, ATOL, RTOL, inputs);
  }

  /**
   * Compares the analytical Jacobian of {@code function} (one output tensor, floating) with the
   * numerical one, for each input that requires gradients.
   *
   * @param inputs the inputs, floating tensors that require grad
   * @param eps the smallest value clamped to
   * @param atol the absolute tolerance
   * @param rtol the relative tolerance
   * @param function the computation; it receives {@code inputs} (or perturbed copies) and must
   *     not keep them
   * @return true
   * @throws GradCheckException naming the input, the output element, the input element and both
   *     values of the first entry that disagrees
   * @throws IllegalArgumentException for a null function or input, no input that requires grad, an
   *     input that requires grad and is not float64, a non-positive eps or negative tolerance, or
   *     an output that is not a floating tensor
   */
  public static boolean check(Function<Tensor[], Tensor> function, double eps, double atol,
      double rtol, Tensor... inputs) {
    if (function == null) {
      throw new IllegalArgumentException("GradCheck: function must not be null");
    }
    if (!(eps > 0) || !(atol >= 0) || !(rtol >= 0)) {
      throw new IllegalArgumentException(
          "GradCheck: eps must be positive and atol, rtol non-negative; got eps " + eps
              + ", atol " + atol + ", rtol " + rtol);
    }
    if (inputs == null || inputs.length == 0) {
      throw new IllegalArgumentException("GradCheck: give the function's inputs");
    }
    boolean any = false;
    for (int i = 0; i < inputs.length; i++) {
      Tensor t = inputs[i];
      if (t == null) {
        throw new IllegalArgumentException("GradCheck: input " + i + " is null");
      }
      if (t.requiresGrad()) {
        any = true;
        if (t.dtype() != DType.FLOAT64) {
          throw new IllegalArgumentException(
              "GradCheck: input " + i + " requires grad but is " + t.dtype().torchName()
                  + "; central differences need float64 (x.to(DType.FLOAT64).requiresGrad(true))");
        }
      }
    }
    if (!any) {
      throw new IllegalArgumentException(
          "GradCheck: no input requires grad; mark those to check with requiresGrad(true)");
    }
    Tensor output = function.apply(inputs.clone());
    if (output == null || !output.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException(
          "GradCheck: the function must return a floating tensor, got "
              + (output == null ? "null" : output.dtype().torchName()));
    }
    long outCount = output.numel();
    for (int i = 0; i < inputs.length; i++) {
      if (!inputs[i].requiresGrad()) {
        continue;
      }
      double[][] numerical = numerical(function, inputs, i, eps, outCount);
      double[][] analytical = analytical(output, inputs[i], outCount);
      for (int k = 0; k < outCount; k++) {
        for (int j = 0; j < inputs[i].numel(); j++) {
          double a = analytical[k][j];
          double n = numerical[k][j];
          if (!(Math.abs(a - n) <= atol + rtol * Math.abs(n))) {
            throw new GradCheckException(String.format(Locale.ROOT,
                "Jacobian mismatch for output %d with respect to input %d, at input element %d"
                    + " (index %s) and output element %d (index %s): analytical %s, numerical"
                    + " %s (eps %s, atol %s, rtol %s)%nnumerical:%n%s%nanalytical:%n%s",
                0, i, j, Arrays.toString(unravel(j, inputs[i].shapeRef())), k,
                Arrays.toString(unravel(k, output.shapeRef())), a, n, eps, atol, rtol,
                format(numerical), format(analytical)));
          }
        }
      }
    }
    return true;
  }

  /** {@code [output element][input element]} by central differences of input {@code which}. */
  private static double[][] numerical(Function<Tensor[], Tensor> function, Tensor[] inputs,
      int which, double eps, long outCount) {
    Tensor x = inputs[which];
    int n = Math.toIntExact(x.numel());
    double[][] jacobian = new double[Math.toIntExact(outCount)][n];
    long[] index = new long[x.ndim()];
    try (var _ = Autograd.noGrad()) {
      for (int j = 0; j < n; j++) {
        x.unravel(j, index);
        double value = x.getDouble(index);
        double[] plus = evaluate(function, inputs, which, index, value + eps, outCount);
        double[] minus = evaluate(function, inputs, which, index, value - eps, outCount);
        for (int k = 0; k < outCount; k++) {
          jacobian[k][j] = (plus[k] - minus[k]) / (2 * eps);
        }
      }
    }
    return jacobian;
  }

  /** The function's output (as doubles) with element {@code index} of input {@code which} set. */
  private static double[] evaluate(Function<Tensor[], Tensor> function, Tensor[] inputs,
      int which, long[] index, double value, long outCount) {
    Tensor[] args = inputs.clone();
    Tensor perturbed = inputs[which].copy();
    perturbed.setDouble(value, index);
    args[which] = perturbed;
    Tensor out = function.apply(args);
    if (out.numel() != outCount) {
      throw new IllegalArgumentException(
          "GradCheck: the function's output changed size between calls (" + outCount + " then "
              + out.numel() + ")");
    }
    return out.to(DType.FLOAT64).contiguous().toDoubleArray();
  }

  /** {@code [output element][input element]} by one backward per output element. */
  private static double[][] analytical(Tensor output, Tensor input, long outCount) {
    int n = Math.toIntExact(input.numel());
    double[][] jacobian = new double[Math.toIntExact(outCount)][n];
    long[] index = new long[output.ndim()];
    for (int k = 0; k < outCount; k++) {
      Tensor oneHot = Tensor.zeros(output.dtype(), output.shape());
      output.unravel(k, index);
      oneHot.setDouble(1, index);
      Tensor g = GradEngine.grad(output, oneHot, new Tensor[] {input}, true)[0];
      if (g != null) {
        jacobian[k] = g.to(DType.FLOAT64).contiguous().toDoubleArray();
      }
    }
    return jacobian;
  }

  private static long[] unravel(long i, long[] shape) {
    long[] idx = new long[shape.length];
    for (int d = shape.length - 1; d >= 0; d--) {
      idx[d] = i % shape[d];
      i /= shape[d];
    }
    return idx;
  }

  private static String format(double[][] m) {
    StringBuilder sb = new StringBuilder();
    int rows = Math.min(m.length, 8);
    for (int r = 0; r < rows; r++) {
      sb.append(Arrays.toString(m[r].length > 8 ? Arrays.copyOf(m[r], 8) : m[r]))
          .append(m[r].length > 8 ? " ..." : "").append('\n');
    }
    return sb.append(m.length > rows ? "...\n" : "").toString().stripTrailing();
  }

  /** A Jacobian entry of {@link GradCheck} that disagrees; the message has both Jacobians. */
  public static final class GradCheckException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    GradCheckException(String message) {
      super(message);
    }
  }
}
