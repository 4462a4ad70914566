package dev.ufunc4j.spark;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * What re-blocking costs (docs/scale-out.md, "Operands with different blockings"): {@code
 * x.apply(Ops::add, y)} on cached operands, with {@code y} in {@code x}'s row blocks (zipped, no
 * shuffle: what a refused call makes the user arrange) against {@code y} in other blocks
 * (re-blocked, a shuffle of row ranges); wall time per call, interleaved repeats, medians with
 * min-max, and the shuffle bytes Spark's task metrics report. Runs on the master of {@link
 * SparkTestSession} ({@code -Dufunc4j.spark.master}, with the cluster profile's environment for a
 * {@code local-cluster} one). Arguments: rows (of 256 float32), x's blocks, y's other blocks,
 * repeats.
 */
final class ReblockCost extends SparkTestSession {
  private ReblockCost() {}

  static final AtomicLong SHUFFLE_WRITTEN = new AtomicLong();
  static final AtomicLong SHUFFLE_READ = new AtomicLong();

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 65_536;
    int blocks = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    int other = args.length > 2 ? Integer.parseInt(args[2]) : 6;
    int repeats = args.length > 3 ? Integer.parseInt(args[3]) : 7;
    startSpark();
    sc.sc().addSparkListener(new SparkListener() {
      @Override
      public void onTaskEnd(SparkListenerTaskEnd end) {
        TaskMetrics m = end.taskMetrics();
        if (m != null) {
          SHUFFLE_WRITTEN.addAndGet(m.shuffleWriteMetrics().bytesWritten());
          SHUFFLE_READ.addAndGet(m.shuffleReadMetrics().totalBytesRead());
        }
      }
    });
    Tensor x = Tensor.randn(1, DType.FLOAT32, rows, 256);
    Tensor y = Tensor.randn(2, DType.FLOAT32, rows, 256);
    DistTensor dx = DistTensor.of(sc, x, blocks).materialize();
    DistTensor same = DistTensor.of(sc, y, blocks).materialize();
    DistTensor differ = DistTensor.of(sc, y, other).materialize();
    // the check: the re-blocked call gives the local result
    if (!dx.apply(Ops::add, differ).toTensor().equal(Ops.add(x, y))) {
      throw new AssertionError("re-blocked result differs from the local one");
    }
    List<Double> zipped = new ArrayList<>();
    List<Double> reblocked = new ArrayList<>();
    long[] shuffle = new long[2];
    for (int r = -2; r < repeats; r++) {
      double a = timed(dx, same, null);
      double b = timed(dx, differ, shuffle);
      if (r >= 0) {
        zipped.add(a);
        reblocked.add(b);
      }
    }
    double mib = rows * 256 * 4 / 1048576.0;
    System.out.printf(Locale.ROOT, "master %s, x and y float32 [%d, 256] (%.1f MiB each), cached;"
        + " x in %d blocks, y in %d or %d; %d repeats after 2 warm-up ones; load average %s%n",
        sc.master(), rows, mib, blocks, blocks, other, repeats,
        String.join(" ", Arrays.copyOf(loadAverage(), 3)));
    System.out.printf(Locale.ROOT, "same blocks (zipped)      %s ms, shuffle 0 B%n", stats(zipped));
    System.out.printf(Locale.ROOT, "other blocks (re-blocked) %s ms, shuffle written %.1f MiB,"
        + " read %.1f MiB per call%n", stats(reblocked), shuffle[0] / (repeats + 2) / 1048576.0,
        shuffle[1] / (repeats + 2) / 1048576.0);
    spark.stop();
  }

  /** One call, computed on the executors and not gathered; its shuffle bytes added to {@code acc}. */
  static double timed(DistTensor a, DistTensor b, long[] acc) throws Exception {
    sc.sc().listenerBus().waitUntilEmpty();
    long w = SHUFFLE_WRITTEN.get();
    long rd = SHUFFLE_READ.get();
    long t0 = System.nanoTime();
    a.apply(Ops::add, b).blocks().count();
    double ms = (System.nanoTime() - t0) / 1e6;
    sc.sc().listenerBus().waitUntilEmpty();
    if (acc != null) {
      acc[0] += SHUFFLE_WRITTEN.get() - w;
      acc[1] += SHUFFLE_READ.get() - rd;
    } else if (SHUFFLE_WRITTEN.get() != w) {
      throw new AssertionError("a zipped call shuffled " + (SHUFFLE_WRITTEN.get() - w) + " bytes");
    }
    return ms;
  }

  static String stats(List<Double> ms) {
    List<Double> s = ms.stream().sorted().toList();
    return String.format(Locale.ROOT, "%.1f [%.1f-%.1f]", s.get(s.size() / 2), s.get(0),
        s.get(s.size() - 1));
  }

  static String[] loadAverage() {
    try {
      return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ");
    } catch (java.io.IOException e) {
      return new String[] {"?", "?", "?"};
    }
  }
}
