import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.TensorScope;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.samples.ActivationsOps;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.util.function.UnaryOperator;

/**
 * Warm-up in a new JVM (issue 28, item 5): the time of the first 10,000 scoped calls of a
 * 1K-element float32 op, then of the next 10,000, and when the op reaches its steady state (the
 * first block of 1,000 calls within 20% of the last block's time, of 30 blocks). Wall time and the
 * process's CPU time (every thread: the JIT compilers' too) are printed, since a loaded machine
 * stretches the first and the second tells what the JVM did. Run it once per op in a fresh JVM:
 * {@code add} (Ops.add), {@code silu} (a user's op: generated-samples' Activations.silu) or {@code
 * huber} (the README's quickstart op: compile examples/quickstart with the processor and put its
 * classes on the class path; it is called by reflection so that this file compiles without them).
 *
 * <pre>
 * java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
 *     -cp runtime/target/classes:generated-samples/target/classes tools/bench/WarmUp.java add
 * </pre>
 */
public final class WarmUp {

  public static void main(String[] args) throws ReflectiveOperationException {
    long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
    String op = args.length > 0 ? args[0] : "add";
    var os = (com.sun.management.OperatingSystemMXBean)
        ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long start = System.nanoTime();
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
    Tensor a = Tensor.randn(1, DType.FLOAT32, n);
    Tensor b = Tensor.randn(2, DType.FLOAT32, n);
    UnaryOperator<Tensor> call = switch (op) {
      case "add" -> x -> Ops.add(x, b);
      case "silu" -> ActivationsOps::silu;
      case "huber" -> huber(b);
      default -> throw new IllegalArgumentException("op must be add, silu or huber, got " + op);
    };
    long[] blocks = new long[30];
    long[] cpuAt = new long[blocks.length + 1];
    cpuAt[0] = os.getProcessCpuTime();
    double sink = 0;
    for (int blk = 0; blk < blocks.length; blk++) {
      long t = System.nanoTime();
      for (int i = 0; i < 1000; i++) {
        try (var _ = TensorScope.open()) {
          sink += call.apply(a).numel();
        }
      }
      blocks[blk] = System.nanoTime() - t;
      cpuAt[blk + 1] = os.getProcessCpuTime();
      if (blk == 9 && Boolean.getBoolean("warmup.threads")) {
        threadTimes();
      }
    }
    long first = 0;
    long next = 0;
    for (int i = 0; i < 10; i++) {
      first += blocks[i];
      next += blocks[10 + i];
    }
    long last = blocks[blocks.length - 1];
    int steady = 0;
    long steadyNanos = 0;
    for (int i = 0; i < blocks.length; i++) {
      steadyNanos += blocks[i];
      if (blocks[i] <= last * 1.2) {
        steady = i;
        break;
      }
    }
    System.out.printf(
        "%s %d elements, scoped: first 10,000 calls %.3f s (process CPU %.3f s), next 10,000 %.3f s (CPU"
            + " %.3f s); steady (block within 20%% of the last's %.2f us/call) after %,d calls,"
            + " %.3f s; setup before the first call %.3f s (CPU %.3f s), JVM start to loop %d ms%n",
        op, n, first / 1e9, (cpuAt[10] - cpuAt[0]) / 1e9, next / 1e9, (cpuAt[20] - cpuAt[10]) / 1e9,
        last / 1e3 / 1000, (steady + 1) * 1000, steadyNanos / 1e9,
        (System.nanoTime() - start - sum(blocks)) / 1e9, (cpuAt[0] - cpu0) / 1e9,
        System.currentTimeMillis() - jvmStart - sum(blocks) / 1_000_000);
    if (sink < 0) {
      System.out.println(start);
    }
  }

  /**
   * With {@code -Dwarmup.threads=true}: each thread's CPU time so far (Linux, from /proc), the
   * JIT compiler threads' included, which ThreadMXBean does not list.
   */
  private static void threadTimes() {
    try (var tasks = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/task"))) {
      for (var task : tasks.toList()) {
        String stat = java.nio.file.Files.readString(task.resolve("stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        if (ticks > 0) {
          String name = java.nio.file.Files.readString(task.resolve("comm")).strip();
          System.out.printf("  thread %-20s %5d ms CPU%n", name, ticks * 10);
        }
      }
    } catch (java.io.IOException e) {
      System.out.println("  no /proc: " + e);
    }
  }

  private static long sum(long[] values) {
    long s = 0;
    for (long v : values) {
      s += v;
    }
    return s;
  }

  private static UnaryOperator<Tensor> huber(Tensor target) throws ReflectiveOperationException {
    Method m = Class.forName("com.example.quickstart.LossOps")
        .getMethod("huber", Tensor.class, Tensor.class, Number.class);
    Double delta = 1.0;
    return x -> invoke(m, x, target, delta);
  }

  private static Tensor invoke(Method m, Object... args) {
    try {
      return (Tensor) m.invoke(null, args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }
}
