import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

/**
 * The ulp error of the float32 kernels of exp, log, tanh, sigmoid, sin and cos over every one of
 * the 2^32 float32 inputs (docs/vector-math.md, "Accuracy"): each kernel's result against the
 * double-precision {@code Math} function of the same input, in ulps of the exact value's float32
 * binade. The double reference is within one double ulp (2^-29 float32 ulps) of the exact value,
 * so a reported error is exact to about 2^-28 ulp; "correctly rounded" counts the results equal
 * to the reference rounded to float (the reference's own rounding can differ from the exact
 * value's there, in about one input of 2^28).
 *
 * <pre>
 * java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
 *     -cp runtime/target/classes tools/vmath/Exhaustive.java [function,...] [--step=N]
 * </pre>
 *
 * <p>{@code --step=N} checks every N-th bit pattern (a quick look); the default is all of them.
 * Special results (NaN, infinities, zeros) must match the reference exactly (any NaN for NaN).
 * "max ulp" is over the inputs whose exact result is zero or a normal float32 (or beyond);
 * "subnormal ulp" is the largest error among the subnormal exact results, in units of the
 * smallest subnormal (2^-149).
 */
public final class Exhaustive {

  private record Function(String name, UnaryOperator<Tensor> kernel, DoubleUnaryOperator exact) {}

  private static final List<Function> FUNCTIONS = List.of(
      new Function("exp", Ops::exp, Math::exp),
      new Function("log", Ops::log, Math::log),
      new Function("tanh", Ops::tanh, Math::tanh),
      new Function("sigmoid", Ops::sigmoid, x -> 1 / (1 + Math.exp(-x))),
      new Function("sin", Ops::sin, Math::sin),
      new Function("cos", Ops::cos, Math::cos));

  private static final int CHUNK = 1 << 22;

  public static void main(String[] args) {
    List<String> only = new ArrayList<>();
    long step = 1;
    for (String a : args) {
      if (a.startsWith("--step=")) {
        step = Long.parseLong(a.substring("--step=".length()));
      } else {
        only.addAll(List.of(a.split(",")));
      }
    }
    System.out.printf("%-8s %14s %12s %14s %16s %14s %10s%n", "function", "inputs", "max ulp",
        "at input", "correctly rnd", "subnormal ulp", "seconds");
    for (Function f : FUNCTIONS) {
      if (!only.isEmpty() && !only.contains(f.name)) {
        continue;
      }
      run(f, step);
    }
  }

  private static void run(Function f, long step) {
    long start = System.nanoTime();
    float[] in = new float[CHUNK];
    double worst = 0;
    float worstInput = 0;
    double worstSubnormal = 0; // results whose exact value is below Float.MIN_NORMAL
    long inputs = 0;
    long rounded = 0;
    long bits = 0;
    final long end = 1L << 32;
    while (bits < end) {
      int n = 0;
      while (n < CHUNK && bits < end) {
        in[n++] = Float.intBitsToFloat((int) bits);
        bits += step;
      }
      float[] x = n == CHUNK ? in : java.util.Arrays.copyOf(in, n);
      float[] out = f.kernel.apply(Tensor.of(x)).toFloatArray();
      // Per element: its error in ulps, and whether it is the rounded reference.
      double[] err = new double[n];
      boolean[] exact = new boolean[n];
      IntStream.range(0, n).parallel().forEach(i -> {
        double e = f.exact.applyAsDouble(x[i]);
        float r = out[i];
        exact[i] = Float.compare(r, (float) e) == 0 || (Float.isNaN(r) && Double.isNaN(e));
        err[i] = !exact[i] ? error(r, e) : Float.isFinite(r) ? Math.abs(r - e) / ulp(e) : 0;
      });
      for (int i = 0; i < n; i++) {
        if (exact[i]) {
          rounded++;
        }
        double e = Math.abs(f.exact.applyAsDouble(x[i]));
        if (e > 0 && e < Float.MIN_NORMAL) {
          worstSubnormal = Math.max(worstSubnormal, err[i]);
        } else if (err[i] > worst) {
          worst = err[i];
          worstInput = x[i];
        }
      }
      inputs += n;
    }
    System.out.printf("%-8s %14d %12.4f %14s %16d %14.1f %10.1f%n", f.name, inputs, worst,
        Float.toString(worstInput), rounded, worstSubnormal, (System.nanoTime() - start) / 1e9);
  }

  /** The error of a result that is not the rounded reference: infinite if either is special. */
  private static double error(float r, double e) {
    if (Float.isNaN(r) || Double.isNaN(e) || Float.isInfinite(r) || Double.isInfinite(e)
        || Math.abs(e) > Float.MAX_VALUE) {
      return Double.POSITIVE_INFINITY;
    }
    return Math.abs(r - e) / ulp(e);
  }

  /** The float32 ulp of the binade of {@code e} (subnormals: the smallest). */
  private static double ulp(double e) {
    double a = Math.abs(e);
    if (a < Float.MIN_NORMAL) {
      return Float.MIN_VALUE;
    }
    if (!(a <= Float.MAX_VALUE)) {
      return Math.ulp(Float.MAX_VALUE);
    }
    return Math.scalb(1.0, Math.getExponent(a) - 23);
  }
}
