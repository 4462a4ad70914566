import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.parallel.Parallel;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BinaryOperator;

/**
 * Nanoseconds per element of the transcendental kernels, out=: on one thread by default (the
 * core's cost, no allocation, no split), or on the thread count given as the argument (with the
 * runtime's split decision); float32 and float64, 64K and 1M elements, the median of 15 samples of
 * about 20 ms per case after warm-up; on one thread in CPU time (see {@link #nsPerElement}). {@code tools/vmath/core_speed.py} times PyTorch the
 * same way; docs/vector-math.md ("Speed") sets them side by side.
 *
 * <pre>
 * java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
 *     -cp runtime/target/classes tools/vmath/CoreSpeed.java [threads [op,... [dtype,... [elements,...]]]]
 * </pre>
 */
public final class CoreSpeed {

  public static void main(String[] args) {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    Parallel.setThreads(threads);
    Map<String, BinaryOperator<Tensor>> ops = new LinkedHashMap<>();
    ops.put("exp", (x, o) -> Ops.exp(x, o));
    ops.put("log", (x, o) -> Ops.log(x, o)); // of |x|, computed before timing
    ops.put("tanh", (x, o) -> Ops.tanh(x, o));
    ops.put("sigmoid", (x, o) -> Ops.sigmoid(x, o));
    ops.put("sin", (x, o) -> Ops.sin(x, o));
    ops.put("cos", (x, o) -> Ops.cos(x, o));
    ops.put("erf", (x, o) -> Ops.erf(x, o));
    ops.put("erfc", (x, o) -> Ops.erfc(x, o)); // a method call per lane, as erf was
    java.util.List<String> only = args.length > 1 ? java.util.List.of(args[1].split(",")) : null;
    ops.keySet().removeIf(k -> only != null && !only.contains(k));
    DType[] dtypes = args.length > 2
        ? Arrays.stream(args[2].split(",")).map(DType::fromName).toArray(DType[]::new)
        : new DType[] {DType.FLOAT32, DType.FLOAT64};
    for (DType dtype : dtypes) {
      int[] sizes = args.length > 3
          ? Arrays.stream(args[3].split(",")).mapToInt(Integer::parseInt).toArray()
          : new int[] {1 << 16, 1 << 20};
      for (int n : sizes) {
        Tensor x = Tensor.randn(1, DType.FLOAT32, n).to(dtype);
        Tensor positive = Ops.abs(x);
        Tensor out = Tensor.empty(dtype, n);
        StringBuilder line = new StringBuilder(dtype.name().toLowerCase() + " " + n);
        for (var e : ops.entrySet()) {
          Tensor in = e.getKey().equals("log") ? positive : x;
          line.append(String.format(" %s %.3f", e.getKey(),
              nsPerElement(e.getValue(), in, out, n)));
        }
        System.out.println(line);
      }
    }
  }

  /**
   * On one thread the time is this thread's CPU time, so that other processes on a shared machine
   * (the machine these were measured on ran ~8 builds at once) do not count; the warm-up lasts 2 s
   * of it and then until the JIT has settled (two samples within 3%, at most 20 s more).
   */
  private static double nsPerElement(BinaryOperator<Tensor> f, Tensor x, Tensor out, int n) {
    boolean cpu = Parallel.threads() == 1;
    int calls = Math.max(1, 20_000_000 / (n / 2)); // about 20 ms at 0.5 ns per element
    long warm = now(cpu) + 2_000_000_000L;
    while (now(cpu) < warm) {
      f.apply(x, out);
    }
    double previous = Double.MAX_VALUE;
    // -Dufunc4j.coreSpeed.settleSeconds shortens the wait on a crowded machine, where the samples
    // may never settle within 3%.
    long settle = Long.getLong("ufunc4j.coreSpeed.settleSeconds", 20) * 1_000_000_000L;
    for (long end = now(cpu) + settle; now(cpu) < end; ) {
      double sample = sample(f, x, out, n, calls, cpu);
      if (Math.abs(sample - previous) < 0.03 * sample) {
        break;
      }
      previous = sample;
    }
    double[] samples = new double[15];
    for (int s = 0; s < samples.length; s++) {
      samples[s] = sample(f, x, out, n, calls, cpu);
    }
    Arrays.sort(samples);
    return samples[samples.length / 2];
  }

  private static double sample(
      BinaryOperator<Tensor> f, Tensor x, Tensor out, int n, int calls, boolean cpu) {
    long t = now(cpu);
    for (int i = 0; i < calls; i++) {
      f.apply(x, out);
    }
    return (now(cpu) - t) / (double) calls / n;
  }

  private static long now(boolean cpu) {
    return cpu ? THREAD_TIME.getCurrentThreadCpuTime() : System.nanoTime();
  }

  private static final java.lang.management.ThreadMXBean THREAD_TIME =
      java.lang.management.ManagementFactory.getThreadMXBean();
}
