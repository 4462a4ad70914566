package dev.ufunc4j.bench;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.parallel.Parallel;
import dev.ufunc4j.Dispatch;
import dev.ufunc4j.kernel.ElementwiseOp;
import dev.ufunc4j.kernel.OpLibrary;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * One forked JVM of the {@link Tuner}: runs the groups of tasks of a task file and prints, per
 * task, its samples (nanoseconds per call; per sweep for {@link #SPLIT_SWEEP}). A group's tasks (the candidates of one measurement that
 * can change inside a JVM: grain, threads) are interleaved sample by sample, so that machine noise
 * hits them alike; candidates that need another JVM (the vector size) are interleaved by the
 * tuner's rounds of forks.
 *
 * <p>Task file: one task per line, {@code group op dtypes shape grain threads metric} separated by
 * tabs ({@code op} as {@code class.name}, {@code dtypes} comma-separated, {@code metric} {@code
 * cpu} for the calling thread's CPU time or {@code wall}); then a line {@code budget warmupMs
 * samples sampleMs}. Each call is warmed up for at least {@code warmupMs} and 5000 calls (or 20
 * calls and 64M elements) and until two 20 ms chunks agree within 5%, at most ten times {@code
 * warmupMs} (the tuner starts this JVM with {@code -Xbatch}, so compiled code runs as soon as the
 * JIT is done); then it is timed in {@code samples} batches of about {@code sampleMs}. Output
 * lines: {@code result <task> <ns> <ns> ...}, or {@code skip <task> <reason>}.
 */
public final class TunerWorker {
  private TunerWorker() {}

  /** What a task times: one call, or a sweep of calls. */
  interface Timed {
    void run();

    /** Elements one {@link #run} writes. */
    long elements();
  }

  /** One call to time, built once. */
  record Call(ElementwiseOp op, Tensor[] inputs, Object[] scalars, Tensor out) implements Timed {
    @Override
    public void run() {
      Dispatch.apply(op, out, inputs, scalars);
    }

    @Override
    public long elements() {
      return out.numel();
    }
  }

  /**
   * The per-op grain's shape class: calls of the op on contiguous vectors of 64K, 128K, 256K and
   * 512K elements, around the split points of the grain candidates (an op splits at twice its
   * grain), each size repeated so that every size writes the same number of elements (8, 4, 2, 1
   * calls): one sweep writes 2M elements, and a grain that splits the small sizes well is seen as
   * clearly as one that splits the large sizes.
   */
  static final String SPLIT_SWEEP = "split_64K-512K";

  private static final long[] SWEEP_SIZES = {65536, 131072, 262144, 524288};

  /** One sweep of {@link #SPLIT_SWEEP}: each call run its number of times. */
  record Sweep(Call[] calls, int[] repeats) implements Timed {
    @Override
    public void run() {
      for (int i = 0; i < calls.length; i++) {
        for (int r = 0; r < repeats[i]; r++) {
          calls[i].run();
        }
      }
    }

    @Override
    public long elements() {
      long n = 0;
      for (int i = 0; i < calls.length; i++) {
        n += repeats[i] * calls[i].elements();
      }
      return n;
    }
  }

  /** The call, or for {@link #SPLIT_SWEEP} the sweep, of a task. */
  static Timed timed(Map<String, ElementwiseOp> ops, String opName, String dtypes, String shape) {
    if (!shape.equals(SPLIT_SWEEP)) {
      return call(ops, opName, dtypes, shape);
    }
    Call[] calls = new Call[SWEEP_SIZES.length];
    int[] repeats = new int[SWEEP_SIZES.length];
    for (int i = 0; i < calls.length; i++) {
      calls[i] = call(ops, opName, dtypes, "size_" + SWEEP_SIZES[i]);
      repeats[i] = (int) (SWEEP_SIZES[SWEEP_SIZES.length - 1] / SWEEP_SIZES[i]);
    }
    return new Sweep(calls, repeats);
  }

  public static void main(String[] args) throws Exception {
    List<String> lines = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
    String[] budget = lines.get(lines.size() - 1).split("\t");
    long warmupNs = Long.parseLong(budget[1]) * 1_000_000L;
    int samples = Integer.parseInt(budget[2]);
    long sampleNs = Long.parseLong(budget[3]) * 1_000_000L;
    Map<String, ElementwiseOp> ops = ops();
    Map<Integer, List<Integer>> groups = new LinkedHashMap<>();
    List<String[]> tasks = new ArrayList<>();
    for (int i = 0; i < lines.size() - 1; i++) {
      String[] t = lines.get(i).split("\t", -1);
      tasks.add(t);
      groups.computeIfAbsent(Integer.parseInt(t[0]), g -> new ArrayList<>()).add(i);
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (List<Integer> group : groups.values()) {
      List<Integer> ids = new ArrayList<>();
      List<Timed> calls = new ArrayList<>();
      for (int id : group) {
        String[] t = tasks.get(id);
        try {
          calls.add(timed(ops, t[1], t[2], t[3]));
          ids.add(id);
        } catch (RuntimeException e) {
          System.out.println("skip\t" + id + "\t" + e.getMessage().replace('\n', ' '));
        }
      }
      if (ids.isEmpty()) {
        continue;
      }
      int n = ids.size();
      long[] batch = new long[n];
      // Warm-up: until the JIT is done with the call (two chunks in a row within 5% of each other
      // after at least warmupNs, or 10 x warmupNs); the batch is sized so a sample takes sampleNs.
      for (int k = 0; k < n; k++) {
        configure(tasks.get(ids.get(k)));
        batch[k] = warmUp(calls.get(k), warmupNs, sampleNs);
      }
      double[][] result = new double[n][samples];
      for (int s = 0; s < samples; s++) {
        for (int j = 0; j < n; j++) {
          int k = s % 2 == 0 ? j : n - 1 - j; // alternate the order, round by round
          String[] t = tasks.get(ids.get(k));
          configure(t);
          boolean cpu = t[6].equals("cpu");
          Timed c = calls.get(k);
          long t0 = cpu ? mx.getCurrentThreadCpuTime() : System.nanoTime();
          for (long b = 0; b < batch[k]; b++) {
            c.run();
          }
          long t1 = cpu ? mx.getCurrentThreadCpuTime() : System.nanoTime();
          result[k][s] = (double) (t1 - t0) / batch[k];
        }
      }
      for (int k = 0; k < n; k++) {
        StringBuilder sb = new StringBuilder("result\t").append(ids.get(k));
        for (double v : result[k]) {
          sb.append('\t').append(Math.round(v * 10) / 10.0);
        }
        System.out.println(sb);
      }
    }
    System.out.flush();
  }

  /** C2's default {@code Tier4InvocationThreshold}. */
  private static final long MIN_WARMUP_CALLS = 5000;

  /** Elements a large call's warm-up processes at least. */
  private static final long MIN_WARMUP_ELEMENTS = 64L << 20;

  private static long warmUp(Timed call, long warmupNs, long sampleNs) {
    long start = System.nanoTime();
    long chunk = 1;
    long calls = 0;
    double previous = Double.MAX_VALUE;
    while (true) {
      long t0 = System.nanoTime();
      for (long i = 0; i < chunk; i++) {
        call.run();
      }
      long t1 = System.nanoTime();
      calls += chunk;
      double perCall = (double) (t1 - t0) / chunk;
      long elapsed = t1 - start;
      boolean stable = Math.abs(perCall - previous) <= 0.05 * previous;
      // The interpreter is stable too: also past C2's invocation threshold (-Xbatch compiles
      // in the foreground, so a call after it runs compiled code).
      // Past C2's thresholds: invocations, or (a large call) loop iterations: 64M elements are
      // millions of vector steps. Not time: an interpreted call is long and stable too.
      boolean enough =
          calls >= MIN_WARMUP_CALLS
              || (calls >= 20 && calls * call.elements() >= MIN_WARMUP_ELEMENTS);
      if ((stable && elapsed >= warmupNs && enough) || elapsed >= 10 * warmupNs) {
        return Math.max(1, (long) (sampleNs / Math.max(perCall, 1)));
      }
      previous = perCall;
      // Chunks of about 20 ms once the calls are known.
      chunk = Math.max(1, Math.min(chunk * 4, (long) (20_000_000 / Math.max(perCall, 1))));
    }
  }

  private static void configure(String[] t) {
    Parallel.setGrainSize(Long.parseLong(t[4]));
    Parallel.setThreads(Integer.parseInt(t[5]));
  }

  /** Every op the class path registers, by {@code class.name}. */
  static Map<String, ElementwiseOp> ops() {
    Map<String, ElementwiseOp> ops = new LinkedHashMap<>();
    for (OpLibrary lib : ServiceLoader.load(OpLibrary.class)) {
      for (ElementwiseOp op : lib.ops()) {
        ops.put(op.declaringClass() + "." + op.name(), op);
      }
    }
    return ops;
  }

  /** The shape classes the tuner measures: name, output shape, and how inputs are laid out. */
  enum ShapeClass {
    /** 4096 contiguous elements: every operand in L1/L2. */
    IN_CACHE("in_cache"),
    /** 4M contiguous elements (1M in {@code --quick}): streams from memory. */
    OUT_OF_CACHE("out_of_cache"),
    OUT_OF_CACHE_QUICK("out_of_cache_1M"),
    /** (1024, 1024) with the other inputs (1024,): broadcast along rows. */
    ROW_BROADCAST("row_broadcast"),
    /** (1024, 1024) with the other inputs (1024, 1): broadcast along columns. */
    COLUMN_BROADCAST("column_broadcast"),
    /** (1024, 1024) with every input a transposed view: strided, tiled by the planner. */
    TRANSPOSED("transposed");

    final String id;

    ShapeClass(String id) {
      this.id = id;
    }

    static ShapeClass of(String id) {
      for (ShapeClass s : values()) {
        if (s.id.equals(id)) {
          return s;
        }
      }
      throw new IllegalArgumentException("unknown shape class '" + id + "'");
    }

    /** Whether it means something for an op with {@code promoting} promoting tensor operands. */
    boolean fits(int promoting) {
      return promoting >= 2 || (this != ROW_BROADCAST && this != COLUMN_BROADCAST);
    }
  }

  /** Builds the call of {@code opName} over {@code dtypes} on {@code shape}. */
  static Call call(Map<String, ElementwiseOp> ops, String opName, String dtypes, String shape) {
    ElementwiseOp op = ops.get(opName);
    if (op == null) {
      throw new IllegalArgumentException("no op " + opName + " on the class path");
    }
    String[] names = dtypes.isEmpty() ? new String[0] : dtypes.split(",");
    if (names.length != op.arity()) {
      throw new IllegalArgumentException(
          opName + " has " + op.arity() + " tensor operands, not " + names.length);
    }
    Tensor[] inputs = new Tensor[names.length];
    if (shape.startsWith("size_")) { // a contiguous vector of that many elements (grain, threads)
      long n = Long.parseLong(shape.substring("size_".length()));
      for (int i = 0; i < names.length; i++) {
        inputs[i] = operand(i + 1, DType.fromName(names[i]), new long[] {n});
      }
      Object[] scalars = scalars(op);
      return new Call(op, inputs, scalars, Dispatch.apply(op, null, inputs, scalars));
    }
    ShapeClass sc = ShapeClass.of(shape);
    boolean firstFull = true;
    for (int i = 0; i < names.length; i++) {
      DType d = DType.fromName(names[i]);
      long[] s =
          switch (sc) {
            case IN_CACHE -> new long[] {4096};
            case OUT_OF_CACHE -> new long[] {4L << 20};
            case OUT_OF_CACHE_QUICK -> new long[] {1L << 20};
            case TRANSPOSED -> new long[] {1024, 1024};
            case ROW_BROADCAST ->
                firstFull || op.isConditionOperand(i) ? new long[] {1024, 1024} : new long[] {1024};
            case COLUMN_BROADCAST ->
                firstFull || op.isConditionOperand(i)
                    ? new long[] {1024, 1024}
                    : new long[] {1024, 1};
          };
      if (!op.isConditionOperand(i)) {
        firstFull = false;
      }
      Tensor t = operand(i + 1, d, s);
      inputs[i] = sc == ShapeClass.TRANSPOSED ? t.t() : t;
    }
    Object[] scalars = scalars(op);
    Tensor out = Dispatch.apply(op, null, inputs, scalars);
    return new Call(op, inputs, scalars, out);
  }

  /** Fixed arguments for the op's {@code @Scalar} parameters. */
  private static Object[] scalars(ElementwiseOp op) {
    Object[] scalars = new Object[op.scalarKinds().size()];
    for (int i = 0; i < scalars.length; i++) {
      scalars[i] =
          switch (op.scalarKinds().get(i)) {
            case DOUBLE -> 0.5;
            case LONG -> 2L;
            case BOOLEAN -> Boolean.TRUE;
          };
    }
    return scalars;
  }

  /** Deterministic inputs: normal floats, small integers (no zero divisors), 0/1 bools. */
  static Tensor operand(long seed, DType d, long[] shape) {
    if (d == DType.BOOL) {
      return Tensor.randint(seed, 0, 2, DType.BOOL, shape);
    }
    if (d.isIntegral(false)) {
      return Tensor.randint(seed, 1, 100, d, shape);
    }
    if (d.isComplex()) {
      throw new IllegalArgumentException("the tuner does not measure complex dtypes yet");
    }
    return Tensor.randn(seed, DType.FLOAT32, shape).to(d);
  }
}
