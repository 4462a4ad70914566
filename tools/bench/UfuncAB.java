import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Two builds of a reduction in one JVM (a class loader each), calls alternating one by one (who
 * goes first swaps every call), as tools/bench/ReduceAB.java, for sum_16M, sum_rows_4096,
 * maximum_reduce_rows (Ops.maximum.reduce(x, 1)) and logaddexp_reduce_rows
 * (ReducerOps.logAddExp.reduce(x, 1)) of float32 [4096, 4096]. Each build is a path list
 * (runtime, annotations, generated-samples jars or class directories, ':'-separated).
 *
 * <p>Run (JDK 25): {@code java --add-modules=jdk.incubator.vector
 * --enable-native-access=ALL-UNNAMED -XX:+UseParallelGC tools/bench/UfuncAB.java
 * old/runtime.jar:old/annotations.jar:old/samples.jar new/runtime/target/classes:... sum_16M 1
 * 150} (before, after, the case, the threads, the calls per build after a fifth more of
 * warm-up); run it again with the two builds swapped. Used for issue 24's generated leaf loop
 * (docs/ufuncs.md, "Generated kernels").
 */
public final class UfuncAB {
  private record Build(Method m, Object target, Object[] args) {}

  public static void main(String[] args) throws Exception {
    String caseId = args[2];
    int threads = Integer.parseInt(args[3]);
    int calls = Integer.parseInt(args[4]);
    boolean all = caseId.equals("sum_16M");
    long[] shape = all ? new long[] {16_777_216} : new long[] {4096, 4096};
    List<Build> builds = new ArrayList<>();
    for (String cp : List.of(args[0], args[1])) {
      List<URL> urls = new ArrayList<>();
      for (String p : cp.split(":")) {
        urls.add(Path.of(p).toUri().toURL());
      }
      URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]),
          ClassLoader.getPlatformClassLoader());
      Class<?> tensor = loader.loadClass("dev.ufunc4j.Tensor");
      Class<?> dtype = loader.loadClass("dev.ufunc4j.dtype.DType");
      Object f32 = dtype.getField("FLOAT32").get(null);
      Object x = tensor.getMethod("randn", long.class, dtype, long[].class).invoke(null, 7L, f32, shape);
      loader.loadClass("dev.ufunc4j.internal.parallel.Parallel").getMethod("setThreads", int.class)
          .invoke(null, threads);
      Class<?> ufunc = loader.loadClass("dev.ufunc4j.BinaryUfunc");
      Method reduce = ufunc.getMethod("reduce", tensor, int.class);
      builds.add(switch (caseId) {
        case "sum_16M", "sum_rows_4096" -> {
          Object out = tensor.getMethod("zeros", dtype, long[].class)
              .invoke(null, f32, all ? new long[] {} : new long[] {4096});
          Method sum = loader.loadClass("dev.ufunc4j.Ops")
              .getMethod("sum", tensor, int[].class, boolean.class, tensor);
          yield new Build(sum, null, new Object[] {x, new int[] {all ? 0 : 1}, false, out});
        }
        case "maximum_reduce_rows" -> new Build(reduce,
            loader.loadClass("dev.ufunc4j.Ops").getField("maximum").get(null), new Object[] {x, 1});
        case "logaddexp_reduce_rows" -> new Build(reduce,
            loader.loadClass("dev.ufunc4j.samples.ReducerOps").getField("logAddExp").get(null),
            new Object[] {x, 1});
        default -> throw new IllegalArgumentException(caseId);
      });
    }
    double[][] ms = new double[2][calls];
    for (int c = -Math.max(2, calls / 5); c < calls; c++) {
      for (int k = 0; k < 2; k++) {
        int b = (c & 1) == 0 ? k : 1 - k;
        Build build = builds.get(b);
        long t0 = System.nanoTime();
        build.m.invoke(build.target, build.args);
        long t1 = System.nanoTime();
        if (c >= 0) {
          ms[b][c] = (t1 - t0) / 1e6;
        }
      }
    }
    double[] med = new double[2];
    for (int b = 0; b < 2; b++) {
      Arrays.sort(ms[b]);
      med[b] = ms[b][calls / 2];
      System.out.printf(Locale.ROOT, "%s %s: min %.2f p10 %.2f median %.2f ms%n", caseId,
          b == 0 ? "before" : "after", ms[b][0], ms[b][calls / 10], med[b]);
    }
    System.out.printf(Locale.ROOT, "%s after/before median %.2f%n", caseId, med[1] / med[0]);
  }
}
