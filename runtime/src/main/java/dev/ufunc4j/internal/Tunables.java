package dev.ufunc4j.internal;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.tuning.Fingerprint;
import dev.ufunc4j.tuning.TuningProfile;
import dev.ufunc4j.tuning.TuningProfileException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import jdk.incubator.vector.VectorShape;

/**
 * The runtime's measured thresholds (docs/tuning.md): their defaults, or the values a tuning
 * profile recorded on this machine chose. The profile is the file {@code -Dufunc4j.tuning=<path>}
 * names, else {@value #RESOURCE} on the class path, else none ({@code -Dufunc4j.tuning=none}: none
 * even when the class path has one). A profile that cannot be used (corrupt, of another format
 * version, recorded on another machine) gives one warning on the {@code dev.ufunc4j.tuning} logger
 * and the defaults; the explicit {@code -Dufunc4j.grain} and {@code -Dufunc4j.threads} override
 * either ({@link Parallel}).
 *
 * <p>The grain comes in two kinds of record: the runtime-wide one (op and class {@code "*"}), the
 * fallback, and per op and operand dtypes (a compute-bound op splits at smaller sizes than a
 * memory-bound one); {@link #opGrain} gives an op's, which the dispatcher passes to {@link
 * Parallel#grainFor}. Records of an op the class path no longer has are dropped with a note (an
 * {@code INFO} message on the same logger).
 */
public final class Tunables {
  /** System property naming a profile file. */
  public static final String PROPERTY = "ufunc4j.tuning";

  /** The profile's place on the class path. */
  public static final String RESOURCE = "META-INF/ufunc4j/tuning.jsonl";

  /**
   * Elements below which a share is not worth a thread: an op splits at twice this (256K
   * elements). Four times PyTorch's GRAIN_SIZE: on this project's shared two-core machine a
   * 128K-element float32 add (1.5 MiB, inside one core's 2 MiB L2) took 27–29 µs on two threads
   * against 15–16 on one in every run, a 64K one 65 µs against 26 (a worker descheduled while
   * holding a piece), while the team's hand-off itself costs about 2 µs (docs/runtime.md,
   * "Threads").
   */
  public static final long DEFAULT_GRAIN = 131072;

  /**
   * The largest grain the runtime takes: 2^48 elements, more than any tensor memory can hold (2^48
   * bytes are 256 TiB), so a grain this large never splits, and twice it cannot overflow a {@code
   * long} in any split rule. A larger value ({@code -Dufunc4j.grain}, a profile, {@link
   * Parallel#setGrainSize}) is refused (docs/tuning.md, "Ranges").
   */
  public static final long MAX_GRAIN = 1L << 48;

  /** The most threads the runtime takes, from a profile, {@code -Dufunc4j.threads} or a setter. */
  public static final int MAX_THREADS = 4096;

  /** The runtime-wide records' op and class: {@code "*"}. */
  public static final String ANY = "*";

  private static final String ANY_OP = ANY + "." + ANY;

  private final long grain;
  private final int threads;
  private final String source;
  /** Per-op grains by {@link #opKey}: {@code class.op(dtype,dtype)}. */
  private final Map<String, Long> opGrains;

  private Tunables(long grain, int threads, String source, Map<String, Long> opGrains) {
    this.grain = grain;
    this.threads = threads;
    this.source = source;
    this.opGrains = Map.copyOf(opGrains);
  }

  /** The tunables of the current {@link RuntimeContext}; ops cache their grains per instance. */
  private static Tunables current() {
    return RuntimeContext.current().tunables();
  }

  /**
   * The object whose identity says which tunables an op's cached per-op grains came from: when it
   * changes (a context with other tunables, in tests), the op looks its grains up again.
   */
  public static Object generation() {
    return current();
  }

  /**
   * The grain the profile chose for op {@code op} of {@code declaringClass} over {@code dtypes}
   * (its table entry's operand dtypes), or 0 when it has no such record: the op then uses the
   * runtime-wide grain ({@link Parallel#grainFor}).
   */
  public static long opGrain(String declaringClass, String op, List<DType> dtypes) {
    List<String> names = new java.util.ArrayList<>();
    for (DType d : dtypes) {
      names.add(d.torchName());
    }
    return current().opGrains.getOrDefault(opKey(declaringClass + "." + op, names), 0L);
  }

  /**
   * Every per-op grain the runtime read, as {@code class.op(dtype,dtype)} to grain, sorted (the
   * tuner's {@code --check} prints them).
   */
  public static Map<String, Long> opGrains() {
    return new TreeMap<>(current().opGrains);
  }

  private static String opKey(String qualifiedOp, List<String> dtypes) {
    return qualifiedOp + "(" + String.join(",", dtypes) + ")";
  }

  /** The grain this JVM started with (before {@code -Dufunc4j.grain}). */
  public static long grain() {
    return current().grain;
  }

  /** The thread count this JVM started with (before {@code -Dufunc4j.threads}). */
  public static int threads() {
    return current().threads;
  }

  /** Where the values came from: the profile's name, or {@code "defaults"}. */
  public static String source() {
    return current().source;
  }

  /** This machine's fingerprint, as the tuner records it. */
  public static Fingerprint fingerprint() {
    return Fingerprint.current(VectorShape.preferredShape().vectorBitSize());
  }

  /**
   * The value of system property {@code name} when it is an integer from {@code min} to {@code
   * max}; null when it is not set, or (with one warning on the {@code dev.ufunc4j.tuning} logger)
   * when it is not such an integer: the caller then uses its default. Read once, where the
   * runtime reads its tunables ({@link Parallel}).
   */
  public static Long property(String name, long min, long max) {
    String text = System.getProperty(name);
    if (text == null) {
      return null;
    }
    try {
      long v = Long.parseLong(text.strip());
      if (v >= min && v <= max) {
        return v;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    System.getLogger("dev.ufunc4j.tuning").log(System.Logger.Level.WARNING,
        "ufunc4j: ignoring -D" + name + "=" + text + ": it must be an integer from " + min
            + " to " + max + "; using the default");
    return null;
  }

  /** The tunables of the profile the system properties or the class path name (class comment). */
  static Tunables load() {
    System.Logger log = System.getLogger("dev.ufunc4j.tuning");
    Consumer<String> warn = m -> log.log(System.Logger.Level.WARNING, m);
    String path = System.getProperty(PROPERTY);
    if ("none".equals(path)) {
      return defaults("defaults");
    }
    if (path != null && !path.isBlank()) {
      return fromFile(Path.of(path), fingerprint(), warn);
    }
    URL url =
        Thread.currentThread().getContextClassLoader() != null
            ? Thread.currentThread().getContextClassLoader().getResource(RESOURCE)
            : ClassLoader.getSystemResource(RESOURCE);
    if (url == null) {
      return defaults("defaults");
    }
    if ("file".equals(url.getProtocol())) {
      try {
        // A class path directory's file: read as a named file (regular files only).
        return fromFile(Path.of(url.toURI()), fingerprint(), warn);
      } catch (java.net.URISyntaxException | IllegalArgumentException e) {
        // Not a plain path: read it through the URL below.
      }
    }
    List<String> lines;
    try (InputStream in = url.openStream()) {
      lines = TuningProfile.readLines(url.toString(), in); // at most TuningProfile.MAX_BYTES
    } catch (TuningProfileException e) {
      return refused(e, warn);
    } catch (IOException e) {
      warn.accept(
          "ufunc4j: cannot read the tuning profile "
              + url
              + " ("
              + e
              + "); using the default tunables");
      return defaults("defaults");
    }
    return fromLines(url.toString(), lines, fingerprint(), warn);
  }

  static Tunables defaults(String source) {
    return new Tunables(
        DEFAULT_GRAIN, Runtime.getRuntime().availableProcessors(), source, Map.of());
  }

  /** The tunables of the profile file {@code file} for machine {@code here}. */
  static Tunables fromFile(Path file, Fingerprint here, Consumer<String> warn) {
    return fromFile(file, here, warn, noteLogger(), Tunables::onClassPath);
  }

  /**
   * As {@link #fromFile(Path, Fingerprint, Consumer)}; {@code opExists} says whether a qualified op
   * ({@code class.op}) is on the class path, {@code note} receives the notes on records of ops that
   * are not.
   */
  static Tunables fromFile(
      Path file,
      Fingerprint here,
      Consumer<String> warn,
      Consumer<String> note,
      Predicate<String> opExists) {
    try {
      return from(file.toString(), TuningProfile.read(file), here, warn, note, opExists);
    } catch (TuningProfileException e) {
      return refused(e, warn);
    }
  }

  /**
   * The tunables of the profile in {@code lines} for machine {@code here}: the defaults and one
   * call of {@code warn} when it cannot be used.
   */
  static Tunables fromLines(
      String source, List<String> lines, Fingerprint here, Consumer<String> warn) {
    return fromLines(source, lines, here, warn, noteLogger(), Tunables::onClassPath);
  }

  /** As {@link #fromLines(String, List, Fingerprint, Consumer)}, with the op check and notes. */
  static Tunables fromLines(
      String source,
      List<String> lines,
      Fingerprint here,
      Consumer<String> warn,
      Consumer<String> note,
      Predicate<String> opExists) {
    try {
      return from(source, TuningProfile.parse(source, lines), here, warn, note, opExists);
    } catch (TuningProfileException e) {
      return refused(e, warn);
    }
  }

  private static Tunables refused(TuningProfileException e, Consumer<String> warn) {
    warn.accept(
        "ufunc4j: ignoring the tuning profile "
            + (e.otherVersion() ? "of another format version: " : "that cannot be read: ")
            + e.getMessage()
            + "; using the default tunables");
    return defaults("defaults");
  }

  private static Consumer<String> noteLogger() {
    System.Logger log = System.getLogger("dev.ufunc4j.tuning");
    return m -> log.log(System.Logger.Level.INFO, m);
  }

  private static boolean onClassPath(String qualifiedOp) {
    Set<String> ops = ClassPathOps.OPS;
    return ops == null || ops.contains(qualifiedOp);
  }

  /**
   * The qualified ops ({@code class.op}) of every {@code OpLibrary} on the class path, listed when
   * a profile's per-op records are first checked, through the kernel layer's {@link OpCatalog}
   * service; null when they cannot be listed (then the records are kept: they only apply to ops
   * that are called).
   */
  private static final class ClassPathOps {
    private ClassPathOps() {}

    static final Set<String> OPS = list();

    private static Set<String> list() {
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      try {
        for (OpCatalog catalog :
            ServiceLoader.load(OpCatalog.class, loader != null ? loader : Tunables.class.getClassLoader())) {
          return catalog.qualifiedOps();
        }
      } catch (ServiceConfigurationError | RuntimeException e) {
        return null;
      }
      return null;
    }
  }

  private static Tunables from(
      String source,
      TuningProfile profile,
      Fingerprint here,
      Consumer<String> warn,
      Consumer<String> note,
      Predicate<String> opExists) {
    TuningProfile.Selection mine = profile.forMachine(here);
    if (mine.mismatch() != null) {
      warn.accept(
          "ufunc4j: ignoring the tuning profile "
              + source
              + ": "
              + mine.mismatch()
              + "; using the default tunables (run the tuner on this machine)");
      return defaults("defaults");
    }
    Tunables d = defaults(source);
    long grain = mine.choose(ANY_OP, List.of(), "grain", d.grain);
    long threads = mine.choose(ANY_OP, List.of(), "threads", d.threads);
    if (grain < 1 || grain > MAX_GRAIN || threads < 1 || threads > MAX_THREADS) {
      warn.accept(
          "ufunc4j: ignoring the tuning profile "
              + source
              + ": it chose grain "
              + grain
              + " and threads "
              + threads
              + "; the grain must be from 1 to "
              + MAX_GRAIN
              + " and the threads from 1 to "
              + MAX_THREADS
              + "; using the default tunables");
      return defaults("defaults");
    }
    // Per-op grains: one per op and dtypes the records cover (the usual vote over their shapes).
    Set<String> missing = new LinkedHashSet<>();
    Map<String, Long> opGrains = new TreeMap<>();
    for (TuningProfile.Record r : mine.records()) {
      if (!r.knob().equals("grain") || r.op().equals(ANY)) {
        continue;
      }
      if (!opExists.test(r.qualifiedOp())) {
        missing.add(r.qualifiedOp());
        continue;
      }
      long g = mine.choose(r.qualifiedOp(), r.dtypes(), "grain", grain);
      if (g < 1 || g > MAX_GRAIN) {
        warn.accept(
            "ufunc4j: ignoring the tuning profile "
                + source
                + ": it chose grain "
                + g
                + " for op "
                + opKey(r.qualifiedOp(), r.dtypes())
                + ", which must be from 1 to "
                + MAX_GRAIN
                + "; using the default tunables");
        return defaults("defaults");
      }
      opGrains.put(opKey(r.qualifiedOp(), r.dtypes()), g);
    }
    for (String op : missing) {
      int dot = op.lastIndexOf('.');
      note.accept(
          "ufunc4j: the tuning profile's grain records for op '"
              + op.substring(dot + 1)
              + "' are ignored: no "
              + op.substring(0, dot)
              + " on the class path declares it");
    }
    return new Tunables(grain, (int) threads, source, opGrains);
  }

  long grainValue() {
    return grain;
  }

  int threadsValue() {
    return threads;
  }

  String sourceValue() {
    return source;
  }

  Map<String, Long> opGrainsValue() {
    return new TreeMap<>(opGrains);
  }
}
