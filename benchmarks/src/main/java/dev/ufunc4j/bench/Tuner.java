package dev.ufunc4j.bench;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.parallel.Parallel;
import dev.ufunc4j.internal.Tunables;
import dev.ufunc4j.kernel.ElementwiseOp;
import dev.ufunc4j.tuning.Fingerprint;
import dev.ufunc4j.tuning.TuningProfile;
import dev.ufunc4j.tuning.TuningProfileException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import jdk.incubator.vector.VectorShape;

/**
 * The tuner (docs/tuning.md): finds every op on the class path through the {@code OpLibrary}
 * service (the built-ins and the user's own), measures the candidates of each knob on a few shape
 * classes in forked JVMs ({@link TunerWorker}: warm-up, samples of a calibrated batch of calls,
 * candidates interleaved within a JVM or across rounds of forks, medians and spread), and writes a
 * tuning profile for this machine.
 *
 * <p>Knobs: {@code vectorBits}, per op and dtypes (the processor's variant: {@code LANES} capped at
 * a smaller vector; measured in JVMs started with {@code -XX:MaxVectorSize}, one thread, CPU time);
 * {@code grain} per op and dtypes (the op's own kernels over {@link TunerWorker#SPLIT_SWEEP}, two
 * threads, wall time) and runtime-wide, the fallback, with {@code threads} (measured on {@code add}
 * of float32 around the split sizes, wall time).
 *
 * <p>Options: {@code --out=<file>} (default {@code tuning.jsonl}; records of other machines already
 * in it are kept), {@code --ops=name,Class.name,...} (default: every op; a bare name that ops of two classes
 * share is refused, naming them to choose from), {@code
 * --dtypes=float32,...} (default float32), {@code --knobs=vectorBits,grain,threads}, {@code
 * --rounds=N}, {@code --quick} (fewer shapes, candidates and samples: about a minute for a few
 * ops). Other modes: {@code --check} prints the tunables the runtime read (with the profile given
 * by {@code -Dufunc4j.tuning}); {@code --verify=<file>} writes a SHA-256 of every selected op's
 * result on fixed inputs, to compare a tuned build with an untuned one bit for bit.
 */
public final class Tuner {
  /** A non-default candidate must beat the default's median by this much, and by its spread. */
  static final double MIN_GAIN = 0.03;

  private final Map<String, String> options;
  private final boolean quick;

  private Tuner(Map<String, String> options) {
    this.options = options;
    this.quick = options.containsKey("quick");
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new LinkedHashMap<>();
    Set<String> known =
        Set.of("out", "ops", "dtypes", "knobs", "rounds", "quick", "check", "verify");
    for (String a : args) {
      for (String word : a.trim().split("\\s+")) { // Maven passes -Dtune.args as one argument
        if (word.isEmpty()) {
          continue;
        }
        if (!word.startsWith("--")) {
          throw new IllegalArgumentException("options start with --, got '" + word + "'");
        }
        int eq = word.indexOf('=');
        String key = eq < 0 ? word.substring(2) : word.substring(2, eq);
        if (!known.contains(key)) {
          throw new IllegalArgumentException(
              "unknown option --" + key + "; known: " + new TreeSet<>(known));
        }
        options.put(key, eq < 0 ? "" : word.substring(eq + 1));
      }
    }
    Tuner t = new Tuner(options);
    if (options.containsKey("check")) {
      t.check();
    } else if (options.containsKey("verify")) {
      t.verify(Path.of(options.get("verify")));
    } else {
      t.tune();
    }
  }

  /** What the runtime read: source, grain and threads (and any warning, on the log). */
  private void check() {
    System.out.println(
        "tunables: source="
            + Tunables.source()
            + " grain="
            + Parallel.grainSize()
            + " threads="
            + Parallel.threads());
    Tunables.opGrains()
        .forEach(
            (op, g) ->
                System.out.println(
                    "op grain: "
                        + op
                        + "="
                        + g
                        + " (in force: "
                        + Parallel.grainFor(g)
                        + ")"));
  }

  /** The ops the options select, by {@code class.name}, with their entries' dtypes. */
  private Map<String, List<List<String>>> selected() {
    Map<String, ElementwiseOp> ops = TunerWorker.ops();
    Set<String> wanted =
        options.containsKey("ops") ? resolve(options.get("ops").split(","), ops.keySet()) : null;
    Set<String> dtypes = Set.of(options.getOrDefault("dtypes", "float32").split(","));
    for (String d : dtypes) {
      DType.fromName(d); // refuse a misspelled dtype by its name
    }
    Map<String, List<List<String>>> out = new LinkedHashMap<>();
    for (Map.Entry<String, ElementwiseOp> e : ops.entrySet()) {
      ElementwiseOp op = e.getValue();
      if (wanted != null && !wanted.contains(e.getKey())) {
        continue;
      }
      for (int i = 0; i < op.entryCount(); i++) {
        List<String> names = new ArrayList<>();
        boolean fits = true;
        DType common = null;
        for (int k = 0; k < op.arity(); k++) {
          DType d = op.entryInputs(i).get(k);
          if (op.isConditionOperand(k)) {
            fits &= d == DType.BOOL;
          } else {
            fits &= dtypes.contains(d.torchName()) && (common == null || common == d);
            common = d;
          }
          names.add(d.torchName());
        }
        if (fits && common != null && op.entryPromoted(i) == common) {
          out.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(names);
        }
      }
    }
    return out;
  }

  /**
   * The full names ({@code package.Class.name}) of the ops {@code words} select: each word is an
   * op's full name, {@code Class.name} or a bare {@code name}, and must select exactly one op. A
   * bare name that two classes declare (the user's {@code gelu} and a bundled sample's) is refused
   * with the qualified names to choose from, rather than tuning both.
   */
  static Set<String> resolve(String[] words, Set<String> all) {
    Set<String> chosen = new LinkedHashSet<>();
    for (String word : words) {
      String w = word.strip();
      List<String> matches = new ArrayList<>();
      for (String full : all) {
        String simple = full.substring(full.lastIndexOf('.') + 1);
        String owner = full.substring(0, full.lastIndexOf('.'));
        String classAndName = owner.substring(owner.lastIndexOf('.') + 1) + "." + simple;
        if (w.equals(full) || w.equals(classAndName) || w.equals(simple)) {
          matches.add(full);
        }
      }
      if (matches.isEmpty()) {
        throw new IllegalArgumentException(
            "--ops: no op '" + w + "' on the class path; ops: " + new TreeSet<>(all));
      }
      if (matches.size() > 1) {
        throw new IllegalArgumentException("--ops: '" + w + "' names " + matches.size()
            + " ops on the class path: " + matches + "; name one as Class.name or by its full"
            + " name (e.g. --ops=" + qualified(matches.get(0)) + ")");
      }
      chosen.add(matches.get(0));
    }
    return chosen;
  }

  /** {@code Class.name} of a full op name. */
  private static String qualified(String full) {
    String owner = full.substring(0, full.lastIndexOf('.'));
    return owner.substring(owner.lastIndexOf('.') + 1) + full.substring(full.lastIndexOf('.'));
  }

  /** One task of a fork: the op call, the runtime settings and the clock. */
  record Task(
      int group, String op, String dtypes, String shape, long grain, int threads, String metric) {
    String line() {
      return group + "\t" + op + "\t" + dtypes + "\t" + shape + "\t" + grain + "\t" + threads + "\t"
          + metric;
    }
  }

  /**
   * The measurements of a run and, per JVM configuration (a fork's extra flag, "" for none), the
   * candidates it runs: their (measurement, candidate) indices and their tasks, in step.
   */
  private static final class Plan {
    final List<Measurement> ms = new ArrayList<>();
    final Map<String, List<int[]>> forks = new LinkedHashMap<>();
    final Map<String, List<Task>> forkTasks = new LinkedHashMap<>();
    private int group;

    /** Adds {@code m}: its candidate {@code c} runs in fork {@code flagOf(c)} as {@code taskOf}. */
    void add(Measurement m, IntFunction<String> flagOf, BiFunction<Integer, Integer, Task> taskOf) {
      ms.add(m);
      group++;
      for (int c = 0; c < m.values.length; c++) {
        String flag = flagOf.apply(c);
        forks.computeIfAbsent(flag, f -> new ArrayList<>()).add(new int[] {ms.size() - 1, c});
        forkTasks.computeIfAbsent(flag, f -> new ArrayList<>()).add(taskOf.apply(group, c));
      }
    }
  }

  /** One measurement: a record's key and its candidates, each a fork flag and a task. */
  static final class Measurement {
    final String op;
    final String declaringClass;
    final List<String> dtypes;
    final String shape;
    final String knob;
    final long[] values; // values[0] is the default
    final List<List<Double>> samples = new ArrayList<>();
    String skipped;

    Measurement(
        String op,
        String declaringClass,
        List<String> dtypes,
        String shape,
        String knob,
        long[] values) {
      this.op = op;
      this.declaringClass = declaringClass;
      this.dtypes = dtypes;
      this.shape = shape;
      this.knob = knob;
      this.values = values;
      for (long v : values) {
        samples.add(new ArrayList<>());
      }
    }
  }

  private void tune() throws Exception {
    int cores = Runtime.getRuntime().availableProcessors();
    int preferred = VectorShape.preferredShape().vectorBitSize();
    Set<String> knobs =
        Set.of(options.getOrDefault("knobs", "vectorBits,grain,threads").split(","));
    for (String k : knobs) {
      if (!TuningProfile.KNOBS.contains(k)) {
        throw new IllegalArgumentException(
            "--knobs: unknown knob '" + k + "'; known: " + new TreeSet<>(TuningProfile.KNOBS));
      }
    }
    String roundsText = options.getOrDefault("rounds", quick ? "2" : "3");
    int rounds;
    try {
      rounds = Integer.parseInt(roundsText);
    } catch (NumberFormatException e) {
      rounds = 0;
    }
    if (rounds < 1) {
      throw new IllegalArgumentException(
          "--rounds must be a whole number of at least 1, got '" + roundsText + "'");
    }
    Path out = Path.of(options.getOrDefault("out", "tuning.jsonl"));
    Plan plan = new Plan();

    if (knobs.contains("vectorBits")) {
      List<Long> bits = new ArrayList<>();
      for (int b = preferred; b >= 128 && bits.size() < (quick ? 2 : 3); b /= 2) {
        bits.add((long) b);
      }
      if (bits.size() < 2) {
        System.out.println(
            "vectorBits: this machine offers one vector size ("
                + preferred
                + " bits): nothing to choose");
      } else {
        List<String> shapes =
            quick
                ? List.of("in_cache", "out_of_cache_1M")
                : List.of(
                    "in_cache", "out_of_cache", "row_broadcast", "column_broadcast", "transposed");
        Map<String, ElementwiseOp> all = TunerWorker.ops();
        for (Map.Entry<String, List<List<String>>> e : selected().entrySet()) {
          ElementwiseOp op = all.get(e.getKey());
          int promoting = 0;
          for (int k = 0; k < op.arity(); k++) {
            promoting += op.isConditionOperand(k) ? 0 : 1;
          }
          for (List<String> dtypes : e.getValue()) {
            for (String shape : shapes) {
              if (!TunerWorker.ShapeClass.of(shape).fits(promoting)) {
                continue;
              }
              long[] values = bits.stream().mapToLong(Long::longValue).toArray();
              Measurement m =
                  new Measurement(
                      op.name(), op.declaringClass(), dtypes, shape, "vectorBits", values);
              plan.add(
                  m,
                  c -> values[c] == preferred ? "" : "-XX:MaxVectorSize=" + values[c] / 8,
                  (group, c) ->
                      new Task(
                          group,
                          e.getKey(),
                          String.join(",", dtypes),
                          shape,
                          Tunables.DEFAULT_GRAIN,
                          1,
                          "cpu"));
            }
          }
        }
      }
    }
    if (knobs.contains("grain") && cores > 1) {
      // Per op and dtypes: the op's own kernels over a sweep of sizes around the split points
      // (TunerWorker.SPLIT_SWEEP), two threads, wall time, the candidates interleaved in one JVM.
      long[] grains =
          java.util.stream.LongStream.of(Tunables.DEFAULT_GRAIN, 32768, 65536, 262144)
              .distinct()
              .toArray();
      Map<String, ElementwiseOp> all = TunerWorker.ops();
      for (Map.Entry<String, List<List<String>>> e : selected().entrySet()) {
        ElementwiseOp op = all.get(e.getKey());
        for (List<String> dtypes : e.getValue()) {
          Measurement m =
              new Measurement(
                  op.name(), op.declaringClass(), dtypes, TunerWorker.SPLIT_SWEEP, "grain", grains);
          plan.add(
              m,
              c -> "",
              (group, c) ->
                  new Task(
                      group,
                      e.getKey(),
                      String.join(",", dtypes),
                      TunerWorker.SPLIT_SWEEP,
                      grains[c],
                      cores,
                      "wall"));
        }
      }
    }
    String add = "dev.ufunc4j.Builtins.add";
    if (knobs.contains("grain") && cores > 1) {
      // The default first (the one to beat), then the others; distinct, whatever the default is.
      long[] grains =
          (quick
                  ? java.util.stream.LongStream.of(Tunables.DEFAULT_GRAIN, 16384, 262144)
                  : java.util.stream.LongStream.of(
                      Tunables.DEFAULT_GRAIN, 16384, 32768, 65536, 131072, 262144))
              .distinct()
              .toArray();
      for (String shape :
          quick
              ? List.of("add_256K", "add_1M")
              : List.of("add_64K", "add_256K", "add_1M", "add_4M")) {
        Measurement m = new Measurement("*", "*", List.of(), shape, "grain", grains);
        plan.add(
            m,
            c -> "",
            (group, c) ->
                new Task(group, add, "float32,float32", sizeShape(shape), grains[c], cores, "wall"));
      }
    }
    if (knobs.contains("threads") && cores > 1) {
      long[] threads = {cores, 1};
      for (String shape : quick ? List.of("add_1M") : List.of("add_1M", "add_4M")) {
        Measurement m = new Measurement("*", "*", List.of(), shape, "threads", threads);
        plan.add(
            m,
            c -> "",
            (group, c) ->
                new Task(
                    group,
                    add,
                    "float32,float32",
                    sizeShape(shape),
                    Tunables.DEFAULT_GRAIN,
                    (int) threads[c],
                    "wall"));
      }
    }
    List<Measurement> ms = plan.ms;
    Map<String, List<int[]>> forks = plan.forks;
    Map<String, List<Task>> forkTasks = plan.forkTasks;
    if (ms.isEmpty()) {
      throw new IllegalArgumentException(
          "nothing to measure: no op with the dtypes asked for, or no knob");
    }
    long warmupMs = quick ? 200 : 500;
    int samples = quick ? 7 : 15;
    long sampleMs = quick ? 2 : 5;
    System.out.printf(
        Locale.ROOT,
        "tuning %d measurements in %d JVM configurations, %d rounds%n",
        ms.size(),
        forks.size(),
        rounds);
    List<String> flags = new ArrayList<>(forks.keySet());
    for (int r = 0; r < rounds; r++) {
      List<String> order = new ArrayList<>(flags);
      if (r % 2 == 1) {
        java.util.Collections.reverse(order);
      }
      for (String flag : order) {
        runFork(flag, forkTasks.get(flag), forks.get(flag), ms, warmupMs, samples, sampleMs);
      }
    }
    writeProfile(out, ms);
  }

  /** The worker's sized shape for a grain or threads measurement: add on float32 vectors. */
  private static String sizeShape(String shape) {
    return switch (shape) {
      case "add_64K" -> "size_65536";
      case "add_256K" -> "size_262144";
      case "add_1M" -> "size_1048576";
      case "add_4M" -> "size_4194304";
      default -> throw new IllegalArgumentException(shape);
    };
  }

  private void runFork(
      String flag,
      List<Task> tasks,
      List<int[]> slots,
      List<Measurement> ms,
      long warmupMs,
      int samples,
      long sampleMs)
      throws Exception {
    Path file = Files.createTempFile("ufunc4j-tune", ".tsv");
    List<String> lines = new ArrayList<>();
    for (Task t : tasks) {
      lines.add(t.line());
    }
    lines.add("budget\t" + warmupMs + "\t" + samples + "\t" + sampleMs);
    Files.write(file, lines, StandardCharsets.UTF_8);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--add-modules=jdk.incubator.vector");
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.add("-XX:+UseParallelGC");
    cmd.add("-Xbatch"); // compile in the foreground: the warm-up ends on compiled code
    cmd.add("-Dufunc4j.tuning=none"); // measure candidates, not a profile already on the class path
    if (!flag.isEmpty()) {
      cmd.add(flag);
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(TunerWorker.class.getName());
    cmd.add(file.toString());
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        String[] f = line.split("\t");
        if (f[0].equals("result")) {
          int[] slot = slots.get(Integer.parseInt(f[1]));
          List<Double> s = ms.get(slot[0]).samples.get(slot[1]);
          for (int i = 2; i < f.length; i++) {
            s.add(Double.parseDouble(f[i]));
          }
        } else if (f[0].equals("skip")) {
          int[] slot = slots.get(Integer.parseInt(f[1]));
          ms.get(slot[0]).skipped = f.length > 2 ? f[2] : "skipped";
        }
      }
    }
    int code = p.waitFor();
    Files.deleteIfExists(file);
    if (code != 0) {
      throw new IllegalStateException(
          "a tuner JVM (" + (flag.isEmpty() ? "default flags" : flag) + ") exited with " + code);
    }
    System.out.printf(
        Locale.ROOT, "  fork %s: %d tasks%n", flag.isEmpty() ? "(default)" : flag, tasks.size());
  }

  private void writeProfile(Path out, List<Measurement> ms) throws IOException {
    Fingerprint here = Tunables.fingerprint();
    String id = here.id();
    List<TuningProfile.Record> records = new ArrayList<>();
    List<Fingerprint> machines = new ArrayList<>();
    machines.add(here);
    if (Files.exists(out)) {
      try {
        TuningProfile old = TuningProfile.read(out);
        for (Fingerprint f : old.machines()) {
          if (!f.id().equals(id)) {
            machines.add(f);
          }
        }
        for (TuningProfile.Record r : old.records()) {
          if (!r.machine().equals(id)) {
            records.add(r);
          }
        }
      } catch (TuningProfileException e) {
        System.out.println("replacing " + out + ", which cannot be read: " + e.getMessage());
      }
    }
    System.out.printf(
        Locale.ROOT,
        "%-40s %-18s %-16s %-10s %12s %12s %7s%n",
        "op",
        "dtypes",
        "shape",
        "knob",
        "default",
        "chosen",
        "gain");
    for (Measurement m : ms) {
      String name =
          m.declaringClass.equals("*")
              ? "*"
              : m.declaringClass.substring(m.declaringClass.lastIndexOf('.') + 1) + "." + m.op;
      if (m.skipped != null || m.samples.stream().anyMatch(List::isEmpty)) {
        System.out.printf(
            Locale.ROOT,
            "%-40s %-18s %-16s skipped: %s%n",
            name,
            String.join(",", m.dtypes),
            m.shape,
            m.skipped);
        continue;
      }
      List<TuningProfile.Timing> timings = new ArrayList<>();
      double[][] sorted = new double[m.values.length][];
      for (int c = 0; c < m.values.length; c++) {
        sorted[c] = m.samples.get(c).stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double[] s = sorted[c];
        timings.add(
            new TuningProfile.Timing(
                m.values[c], quantile(s, 0.5), s[0], s[s.length - 1], s.length));
      }
      int chosen = choose(sorted);
      records.add(
          new TuningProfile.Record(
              m.op, m.declaringClass, m.dtypes, m.shape, id, m.knob, m.values[chosen], timings));
      double gain = 1 - quantile(sorted[chosen], 0.5) / quantile(sorted[0], 0.5);
      System.out.printf(
          Locale.ROOT,
          "%-40s %-18s %-16s %-10s %12s %12s %6.1f%%%n",
          name,
          String.join(",", m.dtypes),
          m.shape,
          m.knob,
          m.values[0] + " " + ns(quantile(sorted[0], 0.5)),
          m.values[chosen] + " " + ns(quantile(sorted[chosen], 0.5)),
          100 * gain);
    }
    new TuningProfile(machines, records).write(out);
    System.out.println(
        "wrote "
            + out.toAbsolutePath()
            + " ("
            + records.size()
            + " records for machine "
            + id
            + "; load average "
            + String.format(
                Locale.ROOT,
                "%.2f",
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                    .getSystemLoadAverage())
            + ")");
  }

  /**
   * The candidate to record: the one with the lowest median, if that median is at least {@link
   * #MIN_GAIN} below the default's and below the default's first quartile (beyond the run's noise);
   * else the default (candidate 0).
   */
  static int choose(double[][] sorted) {
    int best = 0;
    for (int c = 1; c < sorted.length; c++) {
      if (quantile(sorted[c], 0.5) < quantile(sorted[best], 0.5)) {
        best = c;
      }
    }
    double def = quantile(sorted[0], 0.5);
    double cand = quantile(sorted[best], 0.5);
    if (best != 0
        && cand <= def * (1 - MIN_GAIN)
        && quantile(sorted[best], 0.75) < quantile(sorted[0], 0.25)) {
      return best;
    }
    return 0;
  }

  static double quantile(double[] sorted, double q) {
    double pos = q * (sorted.length - 1);
    int lo = (int) Math.floor(pos);
    int hi = Math.min(lo + 1, sorted.length - 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
  }

  private static String ns(double v) {
    return v >= 1e6
        ? String.format(Locale.ROOT, "%.2fms", v / 1e6)
        : v >= 1e3
            ? String.format(Locale.ROOT, "%.1fus", v / 1e3)
            : String.format(Locale.ROOT, "%.0fns", v);
  }

  /** Writes {@code op dtypes shape sha256} for every selected op's result on fixed inputs. */
  private void verify(Path file) throws Exception {
    Map<String, ElementwiseOp> all = TunerWorker.ops();
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, List<List<String>>> e : selected().entrySet()) {
      for (List<String> dtypes : e.getValue()) {
        for (String shape : List.of("in_cache", "out_of_cache_1M", "transposed", "row_broadcast")) {
          ElementwiseOp op = all.get(e.getKey());
          int promoting = 0;
          for (int k = 0; k < op.arity(); k++) {
            promoting += op.isConditionOperand(k) ? 0 : 1;
          }
          if (!TunerWorker.ShapeClass.of(shape).fits(promoting)) {
            continue;
          }
          String d = String.join(",", dtypes);
          try {
            TunerWorker.Call c = TunerWorker.call(all, e.getKey(), d, shape);
            lines.add(e.getKey() + "\t" + d + "\t" + shape + "\t" + sha256(c.out()));
          } catch (RuntimeException ex) {
            lines.add(e.getKey() + "\t" + d + "\t" + shape + "\trefused: " + ex.getMessage());
          }
        }
      }
    }
    Files.write(file, lines, StandardCharsets.UTF_8);
    System.out.println("wrote " + lines.size() + " result hashes to " + file);
  }

  private static String sha256(Tensor t) throws Exception {
    Tensor c = t.contiguous();
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    md.update(Arrays.toString(c.shape()).getBytes(StandardCharsets.UTF_8));
    md.update(c.dtype().torchName().getBytes(StandardCharsets.UTF_8));
    md.update(bytes(c));
    return HexFormat.of().formatHex(md.digest());
  }

  private static byte[] bytes(Tensor c) {
    return c.segment()
        .asSlice(c.offset() * c.dtype().byteSize(), c.numel() * c.dtype().byteSize())
        .toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
  }
}
