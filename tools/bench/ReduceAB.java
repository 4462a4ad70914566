import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Compares two builds of a reduction on a busy machine: the side-by-side runner's {@code sum_16M},
 * {@code sum_rows_4096} or {@code sum_cols_4096} case (float32, into an {@code out=} target),
 * computed by two {@code benchmarks.jar} builds loaded in one JVM (a class loader each), their
 * calls alternating one by one (which build goes first swaps every call). Load from other
 * processes then hits both builds alike, where separate JMH runs a minute apart differ by 30% or
 * more at a load of 20 on two cores. Prints the minimum, the 10th percentile and the median of
 * each and the second's ÷ the first's; run it a second time with the jars swapped, since the
 * first build's tensors are allocated first.
 *
 * <p>Run (JDK 25): {@code java --add-modules=jdk.incubator.vector
 * --enable-native-access=ALL-UNNAMED tools/bench/ReduceAB.java before.jar after.jar sum_16M 1
 * 200} (the last three: the case, the threads, the calls per build after a fifth more of warm-up).
 * Used for issue 23 item 12 (docs/reductions.md).
 */
public final class ReduceAB {
  private record Build(String name, Method sum, Object x, int[] dims, Object out) {}

  public static void main(String[] args) throws Exception {
    String caseId = args[2];
    int threads = Integer.parseInt(args[3]);
    int calls = Integer.parseInt(args[4]);
    boolean all = caseId.equals("sum_16M");
    long[] shape = all ? new long[] {16_777_216} : new long[] {4096, 4096};
    int[] dims = caseId.equals("sum_rows_4096") ? new int[] {1} : new int[] {0};
    long[] outShape = all ? new long[] {} : new long[] {4096};
    List<Build> builds = new ArrayList<>();
    for (String jar : List.of(args[0], args[1])) {
      URLClassLoader loader = new URLClassLoader(
          new URL[] {Path.of(jar).toUri().toURL()}, ClassLoader.getPlatformClassLoader());
      Class<?> tensor = loader.loadClass("dev.ufunc4j.Tensor");
      Class<?> dtype = loader.loadClass("dev.ufunc4j.dtype.DType");
      Object f32 = dtype.getField("FLOAT32").get(null);
      Object x = tensor.getMethod("randn", long.class, dtype, long[].class).invoke(null, 7L, f32, shape);
      Object out = tensor.getMethod("zeros", dtype, long[].class).invoke(null, f32, outShape);
      Method sum = loader.loadClass("dev.ufunc4j.Ops")
          .getMethod("sum", tensor, int[].class, boolean.class, tensor);
      loader.loadClass("dev.ufunc4j.internal.parallel.Parallel").getMethod("setThreads", int.class)
          .invoke(null, threads);
      builds.add(new Build(jar, sum, x, dims, out));
    }
    double[][] ms = new double[2][calls];
    for (int c = -calls / 5; c < calls; c++) {
      for (int k = 0; k < 2; k++) {
        int b = (c & 1) == 0 ? k : 1 - k;
        Build build = builds.get(b);
        long t0 = System.nanoTime();
        build.sum.invoke(null, build.x, build.dims, false, build.out);
        long t1 = System.nanoTime();
        if (c >= 0) {
          ms[b][c] = (t1 - t0) / 1e6;
        }
      }
    }
    StringBuilder line = new StringBuilder(caseId + " threads=" + threads);
    double[][] stats = new double[2][];
    for (int b = 0; b < 2; b++) {
      Arrays.sort(ms[b]);
      stats[b] = new double[] {ms[b][0], ms[b][calls / 10], ms[b][calls / 2]};
      line.append(String.format(Locale.ROOT, "  %s min %.3f p10 %.3f median %.3f ms",
          builds.get(b).name, stats[b][0], stats[b][1], stats[b][2]));
    }
    line.append(String.format(Locale.ROOT, "  second/first: min %.3f p10 %.3f median %.3f",
        stats[1][0] / stats[0][0], stats[1][1] / stats[0][1], stats[1][2] / stats[0][2]));
    System.out.println(line);
  }
}
