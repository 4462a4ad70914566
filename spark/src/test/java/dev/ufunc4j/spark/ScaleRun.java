package dev.ufunc4j.spark;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.samples.BlendsOps;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The scale test of issue 31 item 5 (docs/scale-out.md, "The scale test"): a float32 table made
 * by Spark SQL ({@code array<float>} rows of {@link #LENGTH} values, not a local tensor) read into
 * a {@link DistTensor} in several blocks per partition, then a user's op with a broadcast operand
 * and a sum ({@code hypot(x, bias).sum()}, hypot from generated-samples), a reduction across the
 * cluster ({@code mean(0)}) and a data-parallel gradient (reverse mode per block, {@code
 * sumBlocks}); per Spark stage its wall time, tasks' run and CPU time, (de)serialization times and
 * bytes (task results, shuffle) from Spark's task metrics; then the same computation on one JVM
 * (ufunc4j's local calls on the same rows, block by block), the results checked against each
 * other, and the cost model's prediction beside the measured times.
 *
 * <p>Arguments: MiB of float32 data (default 64), partitions (default 8), the largest block size
 * ({@link DistTensor#MAX_BLOCK_BYTES}, default {@code 16m}), an output file for the table
 * (optional). The master is {@link SparkTestSession}'s ({@code -Dufunc4j.spark.master}); {@code
 * mvn -Pscale} runs it on {@code local-cluster} (spark/pom.xml). {@code ScaleRunTest} runs it at a
 * small size in every test run, so that the harness keeps working.
 */
final class ScaleRun extends SparkTestSession {
  private ScaleRun() {}

  /** Floats per table row. */
  static final int LENGTH = 64;

  /** The table's element {@code i} of row {@code id}: an integer in [-500, 563], exact in float32. */
  static float value(long id, int i) {
    return (float) (id % 1001 - 500 + i);
  }

  /**
   * The same values as a Spark SQL expression, the array column {@code x}: {@code sequence} and
   * one cast, which Spark compiles into the stage's code (64 separate element expressions made
   * the read several times slower).
   */
  static String arrayExpression() {
    return "cast(sequence(id % 1001 - 500, id % 1001 - 500 + " + (LENGTH - 1)
        + ") AS array<float>) AS x";
  }

  /** The broadcast operand of the user op, and the parameter of the gradient. */
  static Tensor bias() {
    return Ops.div(Tensor.arange(LENGTH).to(DType.FLOAT32), 16.0);
  }

  static Tensor weights() {
    return Ops.div(Ops.sub(Tensor.arange(LENGTH).to(DType.FLOAT32), 32.0), 1024.0);
  }

  /** The gradient of {@code sum((x · w - 1)²)} with respect to w, by reverse mode. */
  static final DistTensor.BlockFn GRADIENT = a -> {
    Tensor w = a[1].detach().requiresGrad(true);
    Tensor r = Ops.sub(Ops.mul(a[0], w).sum(new int[] {1}, false), 1.0f);
    Ops.mul(r, r).sum().backward();
    return w.grad();
  };

  /** One Spark stage as its metrics tell it. */
  record Stage(String step, int id, String name, int tasks, double wallMs, double runMs,
      double cpuMs, double deserializeMs, double serializeMs, double gcMs, long resultBytes,
      long shuffleWritten, long shuffleRead) {}

  /** What one step took: wall time around the call, and its stages. */
  record Step(String name, double wallMs, List<Stage> stages) {
    long shuffleWritten() {
      return stages.stream().mapToLong(Stage::shuffleWritten).sum();
    }

    long resultBytes() {
      return stages.stream().mapToLong(Stage::resultBytes).sum();
    }
  }

  /** The Spark side's results and times. */
  record Distributed(long rows, long[] blockRows, int partitions, Tensor hypotSum, Tensor mean,
      Tensor gradient, List<Step> steps) {}

  /** The one-JVM side's results and times (ms per step). */
  record Local(Tensor hypotSum, Tensor mean, Tensor gradient, double fillMs, double opMs,
      double meanMs, double gradientMs) {}

  /** Collects completed stages under the current step's name. */
  static final class Stages extends SparkListener {
    final List<Stage> done = new ArrayList<>();
    volatile String step = "";

    @Override
    public synchronized void onStageCompleted(SparkListenerStageCompleted event) {
      StageInfo s = event.stageInfo();
      TaskMetrics m = s.taskMetrics();
      double wall = s.completionTime().isDefined() && s.submissionTime().isDefined()
          ? (Long) s.completionTime().get() - (Long) s.submissionTime().get() : Double.NaN;
      done.add(new Stage(step, s.stageId(), s.name().split(" at ")[0], s.numTasks(), wall,
          m.executorRunTime(), m.executorCpuTime() / 1e6, m.executorDeserializeTime(),
          m.resultSerializationTime(), m.jvmGCTime(), m.resultSize(),
          m.shuffleWriteMetrics().bytesWritten(), m.shuffleReadMetrics().totalBytesRead()));
    }

    synchronized List<Stage> take() {
      List<Stage> out = List.copyOf(done);
      done.clear();
      return out;
    }
  }

  /** Runs {@code call} as the step {@code name}: its wall time and stages. */
  static Step step(Stages stages, String name, Runnable call) {
    drain();
    stages.take();
    stages.step = name;
    long t0 = System.nanoTime();
    call.run();
    double ms = (System.nanoTime() - t0) / 1e6;
    drain();
    return new Step(name, ms, stages.take());
  }

  /** Waits until the listener has seen every event so far (the stages of the last step). */
  static void drain() {
    try {
      sc.sc().listenerBus().waitUntilEmpty();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("Spark's listener bus did not drain", e);
    }
  }

  /** The Spark side: {@code mib} MiB of table in {@code partitions}, blocks of {@code maxBlock}. */
  static Distributed distributed(long mib, int partitions, String maxBlock) {
    long rows = mib * 1048576 / (4L * LENGTH);
    Stages stages = new Stages();
    sc.sc().addSparkListener(stages);
    sc.setLocalProperty(DistTensor.MAX_BLOCK_BYTES, maxBlock);
    try {
      Dataset<Row> table = spark.range(0, rows, 1, partitions).selectExpr(arrayExpression());
      DistTensor[] x = new DistTensor[1];
      Tensor[] out = new Tensor[3];
      List<Step> steps = new ArrayList<>();
      steps.add(step(stages, "read the table (fromColumn, cached)",
          () -> x[0] = DistTensor.fromColumn(table, "x")));
      Tensor bias = bias();
      steps.add(step(stages, "user op + broadcast operand + sum: hypot(x, bias).sum()",
          () -> out[0] = x[0].apply(BlendsOps::hypot, bias).sum()));
      steps.add(step(stages, "reduction: x.mean(0)", () -> out[1] = x[0].mean(0)));
      Tensor w = weights();
      steps.add(step(stages, "data-parallel gradient: sumBlocks(grad, x, w)",
          () -> out[2] = DistTensor.sumBlocks(GRADIENT, x[0], w)));
      return new Distributed(rows, x[0].blockRows(), x[0].numPartitions(), out[0], out[1],
          out[2], steps);
    } finally {
      sc.setLocalProperty(DistTensor.MAX_BLOCK_BYTES, null);
      sc.sc().removeSparkListener(stages);
    }
  }

  /**
   * The same computation in this JVM with ufunc4j's local calls, on the same rows block by block
   * (the table's values written in place; the blocks of the distributed run, so each block's
   * partial result is the same): the whole tensor at once would need intermediates of its size
   * each, four times the data for the gradient.
   */
  static Local local(long rows, long[] blockRows) {
    long t0 = System.nanoTime();
    Tensor x = Tensor.empty(DType.FLOAT32, rows, LENGTH);
    MemorySegment seg = x.segment();
    for (long id = 0; id < rows; id++) {
      for (int i = 0; i < LENGTH; i++) {
        seg.setAtIndex(ValueLayout.JAVA_FLOAT, id * LENGTH + i, value(id, i));
      }
    }
    double fill = (System.nanoTime() - t0) / 1e6;
    Tensor bias = bias();
    Tensor w = weights();
    double[] ms = new double[3];
    Tensor[] total = new Tensor[3];
    for (int k = 0; k < 3; k++) {
      long start = 0;
      long t = System.nanoTime();
      for (long r : blockRows) {
        if (r == 0) {
          continue;
        }
        Tensor block = x.narrow(0, start, r);
        Tensor part = switch (k) {
          case 0 -> BlendsOps.hypot(block, bias).sum();
          case 1 -> block.sum(new int[] {0}, false);
          default -> GRADIENT.apply(new Tensor[] {block, w});
        };
        total[k] = total[k] == null ? part : Ops.add(total[k], part);
        start += r;
      }
      if (k == 1) {
        total[1] = Ops.div(total[1], (double) rows);
      }
      ms[k] = (System.nanoTime() - t) / 1e6;
    }
    return new Local(total[0], total[1], total[2], fill, ms[0], ms[1], ms[2]);
  }

  /** Whether the two sides agree (within docs/scale-out.md's reassociation tolerance). */
  static String check(Distributed d, Local l) {
    StringJoiner bad = new StringJoiner("; ");
    if (!d.hypotSum.allClose(l.hypotSum, 1e-4, 1e-4, false)) {
      bad.add("hypot sum " + d.hypotSum + " vs " + l.hypotSum);
    }
    if (!d.mean.allClose(l.mean, 1e-4, 1e-5, false)) {
      bad.add("mean " + d.mean + " vs " + l.mean);
    }
    if (!d.gradient.allClose(l.gradient, 1e-3, 1e-3, false)) {
      bad.add("gradient " + d.gradient + " vs " + l.gradient);
    }
    return bad.length() == 0 ? null : bad.toString();
  }

  /**
   * The cost model of docs/scale-out.md for an elementwise pass over cached blocks, as written:
   * {@code t_job + waves · t_block(b)} with {@code t_block(b) = 2b / B_mem}, B_mem 4.6 GB/s per
   * core and about 5 ms of jobs' own cost per task, on {@code cores} cores.
   */
  static double modelMs(long[] blockRows, int cores) {
    long maxRows = Arrays.stream(blockRows).max().orElse(0);
    double blockBytes = maxRows * 4.0 * LENGTH;
    int waves = (int) Math.ceil(blockRows.length / (double) cores);
    return 5.0 * blockRows.length / cores + waves * 2 * blockBytes / 4.6e9 * 1e3;
  }

  static String table(long mib, Distributed d, Local l, int cores) {
    StringBuilder out = new StringBuilder();
    long maxRows = Arrays.stream(d.blockRows).max().orElse(0);
    out.append(String.format(Locale.ROOT, "master %s, %d MiB float32 [%d, %d] from Spark SQL in %d"
        + " partitions, %d blocks of at most %.1f MiB; load average %s%n%n", sc.master(), mib,
        d.rows, LENGTH, d.partitions, d.blockRows.length, maxRows * 4.0 * LENGTH / 1048576,
        String.join(" ", Arrays.copyOf(ReblockCost.loadAverage(), 3))));
    out.append("| step | stage | tasks | stage wall ms | tasks' run ms | tasks' CPU ms | task"
        + " deserialize ms | result serialize ms | GC ms | task results B | shuffle written B |"
        + " shuffle read B |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Step s : d.steps) {
      out.append(String.format(Locale.ROOT, "| **%s** | (all: %.0f ms wall) | | | | | | | | %d |"
          + " %d | |%n", s.name, s.wallMs, s.resultBytes(), s.shuffleWritten()));
      for (Stage g : s.stages) {
        out.append(String.format(Locale.ROOT, "| | %d %s | %d | %.0f | %.0f | %.0f | %.0f | %.0f |"
            + " %.0f | %d | %d | %d |%n", g.id, g.name, g.tasks, g.wallMs, g.runMs, g.cpuMs,
            g.deserializeMs, g.serializeMs, g.gcMs, g.resultBytes, g.shuffleWritten,
            g.shuffleRead));
      }
    }
    double model = modelMs(d.blockRows, cores);
    out.append(String.format(Locale.ROOT, "%n| step | Spark ms | one JVM ms | ratio |%n|---|---|---|---|%n"
        + "| read the table / fill the local tensor | %.0f | %.0f | %.2f |%n"
        + "| user op + broadcast + sum | %.0f | %.0f | %.2f |%n"
        + "| mean(0) | %.0f | %.0f | %.2f |%n"
        + "| gradient | %.0f | %.0f | %.2f |%n%n",
        d.steps.get(0).wallMs, l.fillMs, d.steps.get(0).wallMs / l.fillMs,
        d.steps.get(1).wallMs, l.opMs, d.steps.get(1).wallMs / l.opMs,
        d.steps.get(2).wallMs, l.meanMs, d.steps.get(2).wallMs / l.meanMs,
        d.steps.get(3).wallMs, l.gradientMs, d.steps.get(3).wallMs / l.gradientMs));
    out.append(String.format(Locale.ROOT, "cost model as written (t_job + waves · 2b/B_mem, %d"
        + " cores): %.0f ms for one elementwise pass; one JVM's block time × waves + 5 ms per"
        + " task: op %.0f ms, mean %.0f ms, gradient %.0f ms%n", cores, model,
        corrected(l.opMs, d.blockRows, cores), corrected(l.meanMs, d.blockRows, cores),
        corrected(l.gradientMs, d.blockRows, cores)));
    return out.toString();
  }

  /**
   * The model with the kernel time measured on one JVM instead of the bandwidth bound: each
   * block costs its share of the one-JVM time, blocks run {@code cores} at a time, plus ~5 ms per
   * task of jobs' own cost.
   */
  static double corrected(double oneJvmMs, long[] blockRows, int cores) {
    int blocks = blockRows.length;
    int waves = (int) Math.ceil(blocks / (double) cores);
    return oneJvmMs / blocks * waves + 5.0 * blocks / cores;
  }

  public static void main(String[] args) throws Exception {
    long mib = args.length > 0 ? Long.parseLong(args[0]) : 64;
    int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    String maxBlock = args.length > 2 ? args[2] : "16m";
    startSpark();
    int cores = sc.sc().defaultParallelism();
    Distributed d = distributed(mib, partitions, maxBlock);
    spark.stop(); // frees the executors' memory before the one-JVM run
    Local l = local(d.rows, d.blockRows);
    String problem = check(d, l);
    String report = table(mib, d, l, cores)
        + (problem == null ? "results agree (within docs/scale-out.md's tolerance)\n"
            : "RESULTS DIFFER: " + problem + "\n");
    System.out.print(report);
    if (args.length > 3) {
      Files.writeString(Path.of(args[3]), report);
    }
    if (problem != null) {
      System.exit(1);
    }
  }
}
