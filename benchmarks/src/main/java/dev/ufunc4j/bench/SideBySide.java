package dev.ufunc4j.bench;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The side-by-side runner: measures ufunc4j (JMH), NumPy (one thread) and PyTorch (1 and 2
 * threads) on the same cases in the same run, round after round with the systems' order rotated
 * so that machine noise hits all of them alike, plus the STREAM bandwidth probe; then writes
 * {@code benchmarks/RESULTS.md} and a chart of the ratios.
 *
 * <p>Each round also runs ufunc4j's {@code scope} mode on the {@link LoopBench#CASES} (a fresh
 * result inside a {@code TensorScope} opened and closed around each call), and the <em>loop</em>
 * mode on the same cases for all three systems: a naive user loop with every default (thread
 * counts, and the JVM's default collector for ufunc4j), single calls timed, fresh results
 * escaping, collections included ({@link LoopBench}, {@code tools/bench/peers.py --loop}).
 *
 * <p>The <em>tuned</em> column: before the rounds the {@link Tuner} ({@code --quick}) measures
 * the elementwise ops the cases call into {@code benchmarks/target/bench-tuning.jsonl}; each round
 * then runs OpsBench's {@code out} mode once more in JVMs started with {@code -Dufunc4j.tuning=}
 * that profile (system {@code tuned}), and the report sets it beside the default.
 *
 * <p>Options: {@code --rounds=N} (default 3; the Maven profile passes 2: a full run takes
 * about 24 minutes on two cores), {@code --only=id,id}, {@code --quick} (a smoke run
 * with one short iteration per case), {@code --baseline=PATH} (the {@code benchmarks.jar} of an
 * earlier ufunc4j build: its {@code OpsBench} runs as one more system in every round, and the
 * report adds a before/after table, so a change is judged against its predecessor in the same
 * run; build it from a worktree of the old commit with {@code mvn -o -DskipTests package -pl
 * benchmarks -am}), {@code --no-tuned} (no tuner, no tuned column).
 */
public final class SideBySide {
  private static final Gson GSON = new Gson();

  private final Path root;
  private final int rounds;
  private final boolean quick;
  private final List<BenchCase> cases;
  /** The earlier build's benchmarks.jar, or null. */
  private final Path baseline;
  /** Whether to tune and run the tuned column ({@code --no-tuned}: not). */
  private final boolean tuned;
  /** The profile the tuner wrote for this run, once it has. */
  private Path profile;
  /** What the profile chose, for the report (markdown), once the tuner has run. */
  private String tuning;
  /** Samples in ms by key "system|threads|case|mode". */
  private final Map<String, List<Double>> samples = new TreeMap<>();
  private final Map<String, String> peerErrors = new TreeMap<>();
  private String python;

  private SideBySide(
      Path root, int rounds, boolean quick, List<BenchCase> cases, Path baseline, boolean tuned) {
    this.root = root;
    this.rounds = rounds;
    this.quick = quick;
    this.cases = cases;
    this.baseline = baseline;
    this.tuned = tuned;
  }

  public static void main(String[] args) throws Exception {
    int rounds = 3;
    boolean quick = false;
    String only = "";
    Path baseline = null;
    boolean tuned = true;
    // Options come as one Maven property (-Dbench.args), so each is one word: --rounds=N.
    for (String arg : String.join(" ", args).trim().split("\\s+")) {
      if (arg.isEmpty()) {
        continue;
      } else if (arg.startsWith("--rounds=")) {
        rounds = Integer.parseInt(arg.substring("--rounds=".length()));
      } else if (arg.equals("--quick")) {
        quick = true;
      } else if (arg.equals("--no-tuned")) {
        tuned = false;
      } else if (arg.startsWith("--only=")) {
        only = arg.substring("--only=".length());
      } else if (arg.startsWith("--baseline=")) {
        baseline = Path.of(arg.substring("--baseline=".length())).toAbsolutePath();
        if (!Files.isRegularFile(baseline)) {
          throw new IllegalArgumentException("--baseline: no such file " + baseline);
        }
      } else {
        throw new IllegalArgumentException("unknown option '" + arg
            + "'; options: --rounds=N, --quick, --only=id,id, --baseline=path/to/benchmarks.jar,"
            + " --no-tuned");
      }
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds must be at least 1, got " + rounds);
    }
    List<BenchCase> cases = BenchCase.load();
    if (!only.isEmpty()) {
      List<String> ids = Arrays.asList(only.split(","));
      cases = cases.stream().filter(c -> ids.contains(c.id())).toList();
    }
    Path root = Path.of(System.getProperty("ufunc4j.root", ".")).toAbsolutePath().normalize();
    new SideBySide(root, rounds, quick, cases, baseline, tuned).run();
  }

  private void run() throws Exception {
    long start = System.nanoTime();
    log("side-by-side: %d cases, %d round(s)%s", cases.size(), rounds, quick ? ", quick" : "");
    python = pythonWithTorch();
    List<String> systems = new ArrayList<>(List.of("ufunc4j", "numpy", "torch1", "torch2"));
    if (baseline != null) {
      systems.add("before");
    }
    if (tuned && tune()) {
      systems.add("tuned");
    }
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < systems.size(); k++) {
        String system = systems.get((k + r) % systems.size());
        log("round %d/%d: %s (%.0f s elapsed)", r + 1, rounds, system, secondsSince(start));
        switch (system) {
          case "ufunc4j" -> runJmh();
          case "numpy" -> runPeer("numpy", 1);
          case "torch1" -> runPeer("torch", 1);
          case "before" -> runBaseline();
          case "tuned" -> runTuned();
          default -> runPeer("torch", 2);
        }
      }
    }
    Report report = new Report(cases, samples, peerErrors, environment(), tuning);
    Path results = root.resolve("benchmarks/RESULTS.md");
    Path chart = root.resolve("benchmarks/ratios.svg");
    // The hand-written analysis of the misses (profiles, causes) follows the measured tables.
    Path analysis = root.resolve("benchmarks/analysis.md");
    String notes = Files.exists(analysis) ? "\n" + Files.readString(analysis) : "";
    // The spark module's ScaleOutCost, run by the same `mvn -Pbench verify` just before.
    Path scaleOut = root.resolve("spark/target/scale-out.md");
    String spark = Files.exists(scaleOut) ? Files.readString(scaleOut) : "";
    Files.writeString(results, report.markdown() + spark + notes);
    Files.writeString(chart, report.svg());
    log("wrote %s and %s in %.0f s", root.relativize(results), root.relativize(chart), secondsSince(start));
  }

  /** The tuner's names of the elementwise ops the cases call (sum and backward: none). */
  private static final Map<String, String> TUNED_OPS =
      Map.of(
          "add", "Builtins.add",
          "mul", "Builtins.mul",
          "lt", "Builtins.lt",
          "tanh", "Builtins.tanh",
          "silu", "Activations.silu");

  /**
   * The tuned column's profile: the tuner ({@code --quick}, float32, only the ops the cases call)
   * run into {@code benchmarks/target/bench-tuning.jsonl} before the rounds. False when no case
   * calls a tunable op.
   */
  private boolean tune() throws IOException, InterruptedException {
    List<String> ops =
        cases.stream().map(BenchCase::op).filter(TUNED_OPS::containsKey).distinct().sorted()
            .map(TUNED_OPS::get).toList();
    if (ops.isEmpty()) {
      return false;
    }
    long start = System.nanoTime();
    profile = root.resolve("benchmarks/target/bench-tuning.jsonl");
    Files.deleteIfExists(profile);
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"), Tuner.class.getName(),
        "--quick", "--ops=" + String.join(",", ops), "--out=" + profile));
    if (quick) {
      cmd.add("--rounds=1");
    }
    log("tuning %s for the tuned column", String.join(",", ops));
    Process p = new ProcessBuilder(cmd).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("the tuner failed with exit code " + p.exitValue());
    }
    tuning = describeProfile(profile, secondsSince(start));
    return true;
  }

  /** What the profile chose, in words and a table, for RESULTS.md. */
  static String describeProfile(Path file, double seconds) {
    var profile = dev.ufunc4j.tuning.TuningProfile.read(file);
    var mine = profile.forMachine(dev.ufunc4j.internal.Tunables.fingerprint());
    StringBuilder md = new StringBuilder();
    List<String> otherBits = new ArrayList<>();
    int bitsRecords = 0;
    StringBuilder grains = new StringBuilder();
    for (var r : mine.records()) {
      long def = r.candidates().get(0).value();
      String name = r.op().equals("*") ? "runtime-wide" : r.op() + " (" + String.join(",", r.dtypes()) + ")";
      if (r.knob().equals("vectorBits")) {
        bitsRecords++;
        if (r.chosen() != def) {
          otherBits.add(name + " " + r.shape() + ": " + r.chosen());
        }
        continue;
      }
      List<String> cells = new ArrayList<>();
      for (var t : r.candidates()) {
        String c = t.value() + ": " + Report.time(t.medianNs() / 1e6) + " ["
            + Report.time(t.minNs() / 1e6) + "–" + Report.time(t.maxNs() / 1e6) + "]";
        cells.add(t.value() == r.chosen() ? "**" + c + "**" : c);
      }
      grains.append("| ").append(name).append(" | ").append(r.shape()).append(" | ")
          .append(r.knob()).append(" | ").append(def).append(" | ").append(r.chosen())
          .append(" | ").append(String.join("; ", cells)).append(" |\n");
    }
    md.append(String.format(Locale.ROOT,
        "The profile: `Tuner --quick` on the ops the cases call, float32, in this run (%.0f s), "
            + "written to `benchmarks/target/bench-tuning.jsonl`; the tuned column is OpsBench's "
            + "*out* mode run again in JVMs started with `-Dufunc4j.tuning=` that profile, the "
            + "thread count left to it. ", seconds));
    if (otherBits.isEmpty()) {
      md.append("Every `vectorBits` record (").append(bitsRecords)
          .append(") chose the default, so the tuned kernels are byte-identical to these: the ")
          .append("tuned column differs by the runtime tunables only (grain per op, grain, threads).\n\n");
    } else {
      md.append("The tuned column covers the runtime tunables only (grain per op, grain, threads): ")
          .append("the kernels were not rebuilt with the profile, whose `vectorBits` records chose ")
          .append("a non-default size for ").append(String.join("; ", otherBits)).append(".\n\n");
    }
    md.append("| op | shape class | knob | default | chosen | candidates: median [min–max] per call |\n")
        .append("|---|---|---|---|---|---|\n").append(grains);
    return md.toString();
  }

  /**
   * OpsBench's {@code out} mode in JVMs started with the run's profile ({@code -Dufunc4j.tuning}),
   * with the thread count the profile chose (OpsBench's {@code threads=0}); recorded as system
   * {@code tuned} at this machine's processor count, beside the default {@code ufunc4j} one.
   */
  private void runTuned() throws RunnerException {
    String ids = String.join(",", cases.stream().map(BenchCase::id).toList());
    String flags = System.getProperty("ufunc4j.jvmFlags", "--add-modules=jdk.incubator.vector")
        + " -Dufunc4j.tuning=" + profile;
    ChainedOptionsBuilder opts =
        new OptionsBuilder()
            .include(OpsBench.class.getName() + ".run")
            .param("caseId", ids.split(","))
            .param("mode", "out")
            .param("threads", "0")
            .forks(1)
            .jvmArgsAppend(flags.trim().split("\\s+"))
            .warmupIterations(warmupIterations())
            .warmupTime(TimeValue.milliseconds(iterationMs()))
            .measurementIterations(measurementIterations())
            .measurementTime(TimeValue.milliseconds(iterationMs()))
            .timeUnit(TimeUnit.MILLISECONDS)
            .shouldFailOnError(true);
    String cores = Integer.toString(Runtime.getRuntime().availableProcessors());
    for (RunResult rr : new Runner(opts.build()).run()) {
      String key = "tuned|" + cores + "|" + rr.getParams().getParam("caseId") + "|out";
      List<Double> list = samples.computeIfAbsent(key, k -> new ArrayList<>());
      for (IterationResult it : rr.getAggregatedResult().getIterationResults()) {
        list.add(it.getPrimaryResult().getScore());
      }
    }
  }

  /** The cases of the scope and loop modes that this run includes. */
  private List<String> loopCases() {
    List<String> ids = cases.stream().map(BenchCase::id).toList();
    return Arrays.stream(LoopBench.CASES).filter(ids::contains).toList();
  }

  private void runJmh() throws RunnerException {
    String ids = String.join(",", cases.stream().map(BenchCase::id).toList());
    String flags = System.getProperty("ufunc4j.jvmFlags", "--add-modules=jdk.incubator.vector");
    ChainedOptionsBuilder opts =
        new OptionsBuilder()
            .include(OpsBench.class.getName() + ".run")
            .include(StreamBench.class.getName())
            .param("caseId", ids.split(","))
            .param("mode", "out", "fresh")
            .forks(1)
            .jvmArgsAppend(flags.trim().split("\\s+"))
            .warmupIterations(warmupIterations())
            .warmupTime(TimeValue.milliseconds(iterationMs()))
            .measurementIterations(measurementIterations())
            .measurementTime(TimeValue.milliseconds(iterationMs()))
            .timeUnit(TimeUnit.MILLISECONDS)
            .shouldFailOnError(true);
    if (quick) {
      opts.param("elements", "16777216");
    }
    collect(new Runner(opts.build()).run());
    List<String> loop = loopCases();
    if (loop.isEmpty()) {
      return;
    }
    ChainedOptionsBuilder scope =
        new OptionsBuilder()
            .include(OpsBench.class.getName() + ".run")
            .param("caseId", loop.toArray(String[]::new))
            .param("mode", "scope")
            .forks(1)
            .jvmArgsAppend(flags.trim().split("\\s+"))
            .warmupIterations(quick ? 1 : 2)
            .warmupTime(TimeValue.milliseconds(quick ? 50 : 150))
            .measurementIterations(quick ? 1 : 3)
            .measurementTime(TimeValue.milliseconds(quick ? 50 : 150))
            .timeUnit(TimeUnit.MILLISECONDS)
            .shouldFailOnError(true);
    collect(new Runner(scope.build()).run());
    runLoopJmh(flags, loop);
  }

  /**
   * The naive loop on ufunc4j: {@link LoopBench} in JVMs with the defaults a user gets (no
   * collector chosen: the JVM's default), only the flags every Vector API program needs.
   */
  private void runLoopJmh(String flags, List<String> loop) throws RunnerException {
    List<String> userFlags = new ArrayList<>();
    for (String f : flags.trim().split("\\s+")) {
      if (!f.matches("-XX:[+-]Use\\w*GC")) {
        userFlags.add(f);
      }
    }
    ChainedOptionsBuilder opts =
        new OptionsBuilder()
            .include(LoopBench.class.getName())
            .param("caseId", loop.toArray(String[]::new))
            .forks(1)
            .jvmArgsAppend(userFlags.toArray(String[]::new))
            .warmupIterations(1)
            .warmupTime(TimeValue.milliseconds(quick ? 100 : 1000))
            .measurementIterations(quick ? 1 : 2)
            .measurementTime(TimeValue.milliseconds(quick ? 100 : 1000))
            .shouldFailOnError(true);
    Map<String, double[]> stats = new TreeMap<>();
    double timer = Double.MAX_VALUE;
    for (RunResult rr : new Runner(opts.build()).run()) {
      var st = rr.getAggregatedResult().getPrimaryResult().getStatistics();
      double[] v = {st.getPercentile(50) / 1e6, st.getPercentile(90) / 1e6, st.getMean() / 1e6};
      if (rr.getParams().getBenchmark().endsWith(".empty")) {
        timer = Math.min(timer, v[0]);
      } else {
        stats.put(rr.getParams().getParam("caseId"), v);
      }
    }
    String threads = Integer.toString(Runtime.getRuntime().availableProcessors());
    for (var e : stats.entrySet()) {
      double t = timer == Double.MAX_VALUE ? 0 : timer;
      addLoopSample("ufunc4j|" + threads + "|" + e.getKey(), e.getValue(), t, t);
    }
  }

  /**
   * One loop measurement: p50, p90 and mean (ms) less {@code subtract}, the timer's own cost per
   * call, which is recorded too ({@code timer}).
   */
  private void addLoopSample(String base, double[] p50p90mean, double subtract, double timer) {
    String[] names = {"p50", "p90", "mean"};
    for (int i = 0; i < 3; i++) {
      samples.computeIfAbsent(base + "|loop-" + names[i], k -> new ArrayList<>())
          .add(Math.max(0, p50p90mean[i] - subtract));
    }
    samples.computeIfAbsent(base + "|loop-timer", k -> new ArrayList<>()).add(timer);
  }

  private void collect(Collection<RunResult> results) {
    for (RunResult rr : results) {
      BenchmarkResult br = rr.getAggregatedResult();
      var params = rr.getParams();
      String bench = params.getBenchmark();
      String key;
      if (bench.endsWith("StreamBench.copy") || bench.endsWith("StreamBench.add")) {
        String op = bench.substring(bench.lastIndexOf('.') + 1);
        key = "stream|" + params.getParam("threads") + "|" + op + "_" + params.getParam("elements") + "|out";
      } else {
        key = "ufunc4j|" + params.getParam("threads") + "|" + params.getParam("caseId") + "|"
            + params.getParam("mode");
      }
      List<Double> list = samples.computeIfAbsent(key, k -> new ArrayList<>());
      for (IterationResult it : br.getIterationResults()) {
        list.add(it.getPrimaryResult().getScore());
      }
    }
  }

  private int warmupIterations() {
    return quick ? 1 : 2;
  }

  private int measurementIterations() {
    return quick ? 1 : 3;
  }

  private int iterationMs() {
    return quick ? 50 : 150;
  }

  /**
   * Runs the earlier build's {@code OpsBench} in a JVM of its own (its classes must not meet this
   * build's), with this run's JMH settings, over the cases that build knows; its samples are
   * recorded as system {@code before}.
   */
  private void runBaseline() throws IOException, InterruptedException {
    List<String> known = new ArrayList<>();
    try (var jar = new java.util.zip.ZipFile(baseline.toFile())) {
      var entry = jar.getEntry(BenchCase.RESOURCE.substring(1));
      if (entry == null) {
        throw new IllegalStateException(baseline + " has no " + BenchCase.RESOURCE);
      }
      try (var in = new InputStreamReader(jar.getInputStream(entry), StandardCharsets.UTF_8)) {
        GSON.fromJson(in, JsonArray.class)
            .forEach(c -> known.add(c.getAsJsonObject().get("id").getAsString()));
      }
    }
    List<String> ids = cases.stream().map(BenchCase::id).filter(known::contains).toList();
    if (ids.isEmpty()) {
      return;
    }
    Path json = Files.createTempFile("ufunc4j-baseline", ".json");
    String flags = System.getProperty("ufunc4j.jvmFlags", "--add-modules=jdk.incubator.vector");
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", baseline.toString(), OpsBench.class.getName(),
        "-p", "caseId=" + String.join(",", ids), "-f", "1",
        "-wi", Integer.toString(warmupIterations()), "-w", iterationMs() + "ms",
        "-i", Integer.toString(measurementIterations()), "-r", iterationMs() + "ms",
        "-tu", "ms", "-foe", "true", "-rf", "json", "-rff", json.toString(),
        "-jvmArgsAppend", flags.trim()));
    Process p = new ProcessBuilder(cmd).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("the baseline's JMH run failed with exit code " + p.exitValue());
    }
    for (var e : GSON.fromJson(Files.readString(json), JsonArray.class)) {
      JsonObject r = e.getAsJsonObject();
      JsonObject params = r.getAsJsonObject("params");
      String key = "before|" + params.get("threads").getAsString() + "|"
          + params.get("caseId").getAsString() + "|" + params.get("mode").getAsString();
      List<Double> list = samples.computeIfAbsent(key, k -> new ArrayList<>());
      // rawData: one array per fork, one score per measurement iteration.
      r.getAsJsonObject("primaryMetric").getAsJsonArray("rawData")
          .forEach(fork -> fork.getAsJsonArray().forEach(x -> list.add(x.getAsDouble())));
    }
    Files.deleteIfExists(json);
  }

  private void runPeer(String system, int threads) throws IOException, InterruptedException {
    runPeer(system, threads, false);
    if (threads == 1 && !loopCases().isEmpty()) {
      // The naive loop, once per round and system, with the system's default thread count.
      runPeer(system, 0, true);
    }
  }

  private void runPeer(String system, int threads, boolean loop)
      throws IOException, InterruptedException {
    Path casesFile = Files.createTempFile("ufunc4j-cases", ".json");
    try (var in = SideBySide.class.getResourceAsStream(BenchCase.RESOURCE)) {
      Files.write(casesFile, in.readAllBytes());
    }
    List<String> cmd = new ArrayList<>(List.of(
        python, root.resolve("tools/bench/peers.py").toString(),
        "--cases", casesFile.toString(), "--system", system, "--threads", Integer.toString(threads),
        "--samples", quick ? "1" : "3", "--sample-ms", quick ? "30" : "150",
        "--only", String.join(",", loop ? loopCases() : cases.stream().map(BenchCase::id).toList())));
    if (loop) {
      cmd.addAll(List.of("--loop", "--loop-ms", quick ? "200" : "2000"));
    }
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        JsonObject o = GSON.fromJson(line, JsonObject.class);
        String base = system + "|" + o.get("threads").getAsInt() + "|" + o.get("case").getAsString();
        if (o.has("error")) {
          peerErrors.put(base, o.get("error").getAsString());
          continue;
        }
        if (loop) {
          double[] v = {
            o.get("p50").getAsDouble(), o.get("p90").getAsDouble(), o.get("mean").getAsDouble()
          };
          // peers.py has subtracted its timer's cost already.
          addLoopSample(base, v, 0, o.get("timer_ms").getAsDouble());
          continue;
        }
        List<Double> list = samples.computeIfAbsent(base + "|" + o.get("mode").getAsString(), k -> new ArrayList<>());
        o.getAsJsonArray("ms").forEach(e -> list.add(e.getAsDouble()));
      }
    }
    if (p.waitFor() != 0) {
      throw new IllegalStateException(system + " timing script failed with exit code " + p.exitValue());
    }
    Files.deleteIfExists(casesFile);
  }

  private String pythonWithTorch() throws IOException, InterruptedException {
    Process p = new ProcessBuilder("bash", root.resolve("tools/oracle/venv.sh").toString())
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (p.waitFor() != 0 || out.isEmpty()) {
      throw new IllegalStateException("tools/oracle/venv.sh failed: no Python with NumPy and PyTorch");
    }
    return out;
  }

  private Map<String, String> environment() throws IOException, InterruptedException {
    Map<String, String> env = new TreeMap<>();
    env.put("java", Runtime.version().toString());
    env.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
    Path cpuinfo = Path.of("/proc/cpuinfo");
    if (Files.exists(cpuinfo)) {
      Files.readAllLines(cpuinfo).stream().filter(l -> l.startsWith("model name")).findFirst()
          .ifPresent(l -> env.put("cpu", l.substring(l.indexOf(':') + 1).strip()));
    }
    Process p = new ProcessBuilder(python, "-c",
        "import numpy, torch; print(numpy.__version__, torch.__version__)").start();
    String[] v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip().split(" ");
    p.waitFor();
    if (v.length == 2) {
      env.put("numpy", v[0]);
      env.put("torch", v[1]);
    }
    return env;
  }

  private static double secondsSince(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  private static void log(String fmt, Object... args) {
    System.out.println("[bench] " + String.format(Locale.ROOT, fmt, args));
    System.out.flush();
  }
}
