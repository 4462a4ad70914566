import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Compares two builds of a reduction on a busy machine: both builds in one JVM (a class loader
 * each), their calls alternating one by one (which build goes first swaps every call), so load
 * from other processes hits both alike, where separate JMH runs a minute apart differ by 30% or
 * more at a load of 20 on two cores. Cases, float32: the side-by-side runner's {@code sum_16M},
 * {@code sum_rows_4096} and {@code sum_cols_4096} (into an {@code out=} target), and
 * {@code maximum_reduce_rows} ({@code Ops.maximum.reduce(x, 1)}) and {@code logaddexp_reduce_rows}
 * ({@code ReducerOps.logAddExp.reduce(x, 1)}, needs the generated-samples classes) of
 * [4096, 4096]; issue 24's {@code cumsum_16M} ({@code Ops.add.accumulate} into an {@code out=}
 * target; {@code cumsum_16M_fresh} without), {@code add_outer_4096} (likewise, and {@code
 * _fresh}) and {@code add_at_rows_64} (10^7 values, rows of 64, into [100000, 64] at random
 * rows), as cases.json defines them; unary float32 ops into an {@code out=} target: {@code
 * sigmoid_64K}, {@code exp_1M} ({@code Ops.<op>(x, out)}, x normal random as core_speed.py's);
 * shared kernels (issue 25 item 6): {@code mul_reduce_uint32_rows} ({@code Ops.mul.reduce(x, 1)}
 * of x converted to uint32) and {@code add_uint8_int32_4096} ({@code Ops.add(a, b, out)}, uint8
 * and int32 conversions of x, an int32 target), both [4096, 4096];
 * cases.json's {@code tiny_8} and {@code tiny_4x4} adds as {@code tiny_8_out}, {@code
 * tiny_8_fresh}, {@code tiny_8_scope} (a {@code TensorScope} opened and closed around each call,
 * as OpsBench's scope mode) and likewise for {@code tiny_4x4}, timed in batches of 10,000 calls
 * (the CPU column is then per call, the wall time per batch). Each build is a path list (a {@code benchmarks.jar}, or runtime, annotations and
 * generated-samples jars or class directories, ':'-separated). Prints the minimum, the 10th
 * percentile and the median of each and the second's ÷ the first's, and the calling thread's CPU
 * time per element (10th percentile, median, 90th: with 1 thread all of the work, and less
 * disturbed by the load than the wall time), and the load average; run it a second time with the
 * builds swapped, since the first build's tensors are allocated first.
 *
 * <p>Run (JDK 25): {@code java --add-modules=jdk.incubator.vector
 * --enable-native-access=ALL-UNNAMED -XX:+UseParallelGC tools/bench/UfuncAB.java
 * before.jar after/runtime/target/classes:... sum_16M 1 150} (before, after, the case, the
 * threads, the calls per build after a fifth more of warm-up). Used for issue 23 item 12
 * (docs/reductions.md) and issue 24's generated leaf loop (docs/ufuncs.md, "Generated kernels").
 */
public final class UfuncAB {
  private record Build(String name, Method m, Object target, Object[] args, Method open) {
    Build(String name, Method m, Object target, Object[] args) {
      this(name, m, target, args, null);
    }

    /** One call; inside a TensorScope opened and closed around it when {@code open} is set. */
    void run() throws Exception {
      if (open == null) {
        m.invoke(target, args);
        return;
      }
      try (AutoCloseable scope = (AutoCloseable) open.invoke(null)) {
        m.invoke(target, args);
      }
    }
  }

  /**
   * A case: the first operand's shape, the elements one call counts for the CPU column (the
   * result's; the values' for add.at; 1 for the tiny cases, whose column is then per op), the
   * calls timed as one (the tiny cases: a batch, since one takes less than the clocks' own cost),
   * and the unary op's name for the unary cases.
   */
  private record Case(long[] shape, double elements, int repeat, String unaryOp) {
    Case(long[] shape, double elements) {
      this(shape, elements, 1, null);
    }
  }

  /** Calls per timed batch of the tiny cases. */
  private static final int TINY_BATCH = 10_000;

  /** The cases by id (the unary ones: {@code op_64K}, {@code op_1M}, any op of Ops). */
  private static Case caseOf(String caseId) {
    if (caseId.matches("[a-z0-9]+_(64K|1M)") && !caseId.startsWith("sum_")) {
      String[] parts = caseId.split("_");
      long n = parts[1].equals("1M") ? 1 << 20 : 1 << 16;
      return new Case(new long[] {n}, n, 1, parts[0]);
    }
    long[] square = {4096, 4096};
    Case c = switch (caseId) {
      case "sum_16M", "cumsum_16M", "cumsum_16M_fresh" -> new Case(new long[] {16_777_216}, 16_777_216.0);
      case "sum_rows_4096", "sum_cols_4096", "maximum_reduce_rows", "logaddexp_reduce_rows",
          "mul_reduce_uint32_rows", "add_uint8_int32_4096" -> new Case(square, 4096.0 * 4096);
      case "add_outer_4096", "add_outer_4096_fresh" -> new Case(new long[] {4096}, 4096.0 * 4096);
      case "add_at_rows_64" -> new Case(new long[] {100_000, 64}, 156_250.0 * 64);
      case "tiny_8_out", "tiny_8_fresh", "tiny_8_scope" ->
          new Case(new long[] {8}, 1, TINY_BATCH, null);
      case "tiny_4x4_out", "tiny_4x4_fresh", "tiny_4x4_scope" ->
          new Case(new long[] {4, 4}, 1, TINY_BATCH, null);
      default -> null;
    };
    if (c == null) {
      throw new IllegalArgumentException("unknown case " + caseId);
    }
    return c;
  }

  /** Parallel's class: in internal.parallel since issue 25's layers, in internal before. */
  private static Class<?> parallel(ClassLoader loader) throws ClassNotFoundException {
    try {
      return loader.loadClass("dev.ufunc4j.internal.parallel.Parallel");
    } catch (ClassNotFoundException before) {
      return loader.loadClass("dev.ufunc4j.internal.Parallel");
    }
  }

  public static void main(String[] args) throws Exception {
    String caseId = args[2];
    int threads = Integer.parseInt(args[3]);
    int calls = Integer.parseInt(args[4]);
    Case spec = caseOf(caseId);
    long[] shape = spec.shape();
    boolean all = shape.length == 1 && shape[0] == 16_777_216;
    String unary = spec.unaryOp();
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
      parallel(loader).getMethod("setThreads", int.class).invoke(null, threads);
      Class<?> ufunc = loader.loadClass("dev.ufunc4j.BinaryUfunc");
      Method reduce = ufunc.getMethod("reduce", tensor, int.class);
      if (unary != null) {
        Class<?> ops = loader.loadClass("dev.ufunc4j.Ops");
        Object out = tensor.getMethod("zeros", dtype, long[].class).invoke(null, f32, shape);
        builds.add(new Build(cp, ops.getMethod(unary, tensor, tensor), null,
            new Object[] {x, out}));
        continue;
      }
      builds.add(switch (caseId) {
        case "sum_16M", "sum_rows_4096", "sum_cols_4096" -> {
          Object out = tensor.getMethod("zeros", dtype, long[].class)
              .invoke(null, f32, all ? new long[] {} : new long[] {4096});
          Method sum = loader.loadClass("dev.ufunc4j.Ops")
              .getMethod("sum", tensor, int[].class, boolean.class, tensor);
          int dim = caseId.equals("sum_rows_4096") ? 1 : 0;
          yield new Build(cp, sum, null, new Object[] {x, new int[] {dim}, false, out});
        }
        case "maximum_reduce_rows" -> new Build(cp, reduce,
            loader.loadClass("dev.ufunc4j.Ops").getField("maximum").get(null), new Object[] {x, 1});
        case "logaddexp_reduce_rows" -> new Build(cp, reduce,
            loader.loadClass("dev.ufunc4j.samples.ReducerOps").getField("logAddExp").get(null),
            new Object[] {x, 1});
        // issue 24's scans, at and outer (cases.json's cumsum_16M, add_at_rows_64, add_outer_4096)
        case "cumsum_16M", "cumsum_16M_fresh" -> {
          Object out = caseId.endsWith("fresh") ? null
              : tensor.getMethod("zeros", dtype, long[].class).invoke(null, f32, shape);
          Method accumulate = ufunc.getMethod("accumulate", tensor, int.class, tensor);
          yield new Build(cp, accumulate, loader.loadClass("dev.ufunc4j.Ops").getField("add")
              .get(null), new Object[] {x, 0, out});
        }
        case "add_outer_4096", "add_outer_4096_fresh" -> {
          Object out = caseId.endsWith("fresh") ? null : tensor.getMethod("zeros", dtype,
              long[].class).invoke(null, f32, new long[] {4096, 4096});
          Object y = tensor.getMethod("randn", long.class, dtype, long[].class)
              .invoke(null, 8L, f32, shape);
          Method outer = ufunc.getMethod("outer", tensor, tensor, tensor);
          yield new Build(cp, outer, loader.loadClass("dev.ufunc4j.Ops").getField("add")
              .get(null), new Object[] {x, y, out});
        }
        case "add_at_rows_64" -> {
          // 10^7 values: 156,250 rows of 64 added at random (so repeated) rows, as OpsBench.
          Object values = tensor.getMethod("randn", long.class, dtype, long[].class)
              .invoke(null, 8L, f32, new long[] {156_250, 64});
          java.util.Random random = new java.util.Random(3);
          long[] rows = new long[156_250];
          for (int i = 0; i < rows.length; i++) {
            rows[i] = random.nextLong(100_000);
          }
          Object indices = tensor.getMethod("of", long[].class, long[].class)
              .invoke(null, rows, new long[] {rows.length});
          Method at = ufunc.getMethod("at", tensor, tensor, tensor);
          yield new Build(cp, at, loader.loadClass("dev.ufunc4j.Ops").getField("add").get(null),
              new Object[] {x, indices, values});
        }
        // Shared kernels (issue 25 item 6): uint32's fold loop is int32's (mul's: add.reduce is
        // sum's), (uint8, int32)'s rows are (bool, int32)'s.
        case "mul_reduce_uint32_rows" -> new Build(cp, reduce,
            loader.loadClass("dev.ufunc4j.Ops").getField("mul").get(null), new Object[] {
                tensor.getMethod("to", dtype).invoke(x, dtype.getField("UINT32").get(null)), 1});
        case "add_uint8_int32_4096" -> {
          Object i32 = dtype.getField("INT32").get(null);
          Object a = tensor.getMethod("to", dtype).invoke(x, dtype.getField("UINT8").get(null));
          Object b = tensor.getMethod("to", dtype).invoke(x, i32);
          Object out = tensor.getMethod("zeros", dtype, long[].class).invoke(null, i32, shape);
          yield new Build(cp, loader.loadClass("dev.ufunc4j.Ops").getMethod("add", tensor, tensor,
              tensor), null, new Object[] {a, b, out});
        }
        // cases.json's tiny_8 ([8] + [8]) and tiny_4x4 ([4,4] + [4]), as OpsBench's modes
        case "tiny_8_out", "tiny_8_fresh", "tiny_8_scope", "tiny_4x4_out", "tiny_4x4_fresh",
            "tiny_4x4_scope" -> {
          long[] other = caseId.startsWith("tiny_8") ? shape : new long[] {4};
          Object y = tensor.getMethod("rand", long.class, dtype, long[].class)
              .invoke(null, 2L, f32, other);
          Class<?> ops = loader.loadClass("dev.ufunc4j.Ops");
          if (caseId.endsWith("_out")) {
            Object out = tensor.getMethod("zeros", dtype, long[].class).invoke(null, f32, shape);
            yield new Build(cp, ops.getMethod("add", tensor, tensor, Number.class, tensor), null,
                new Object[] {x, y, 1L, out});
          }
          Method open = caseId.endsWith("_scope")
              ? loader.loadClass("dev.ufunc4j.TensorScope").getMethod("open") : null;
          yield new Build(cp, ops.getMethod("add", tensor, tensor), null, new Object[] {x, y},
              open);
        }
        default -> throw new IllegalArgumentException(caseId);
      });
    }
    double[][] ms = new double[2][calls];
    double[][] cpuNs = new double[2][calls];
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    double elements = spec.elements();
    int repeat = spec.repeat();
    for (int c = -Math.max(2, calls / 5); c < calls; c++) {
      for (int k = 0; k < 2; k++) {
        int b = (c & 1) == 0 ? k : 1 - k;
        Build build = builds.get(b);
        long u0 = mx.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        for (int r = 0; r < repeat; r++) {
          build.run();
        }
        long t1 = System.nanoTime();
        long u1 = mx.getCurrentThreadCpuTime();
        if (c >= 0) {
          ms[b][c] = (t1 - t0) / 1e6;
          cpuNs[b][c] = (u1 - u0) / (elements * repeat);
        }
      }
    }
    StringBuilder line = new StringBuilder(caseId + " threads=" + threads + " load "
        + String.format(Locale.ROOT, "%.1f",
            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
    double[][] stats = new double[2][];
    double[][] cpu = new double[2][];
    for (int b = 0; b < 2; b++) {
      Arrays.sort(ms[b]);
      Arrays.sort(cpuNs[b]);
      stats[b] = new double[] {ms[b][0], ms[b][calls / 10], ms[b][calls / 2]};
      cpu[b] = new double[] {cpuNs[b][calls / 10], cpuNs[b][calls / 2], cpuNs[b][calls * 9 / 10]};
      line.append(String.format(Locale.ROOT, "%n  %s: min %.3f p10 %.3f median %.3f ms;"
              + " this thread's CPU p10 %.3f median %.3f p90 %.3f ns per element",
          builds.get(b).name, stats[b][0], stats[b][1], stats[b][2], cpu[b][0], cpu[b][1],
          cpu[b][2]));
    }
    line.append(String.format(Locale.ROOT, "%n  second/first: min %.3f p10 %.3f median %.3f;"
            + " CPU median %.3f",
        stats[1][0] / stats[0][0], stats[1][1] / stats[0][1], stats[1][2] / stats[0][2],
        cpu[1][1] / cpu[0][1]));
    System.out.println(line);
  }
}
