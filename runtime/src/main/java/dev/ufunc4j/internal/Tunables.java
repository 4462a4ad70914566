package dev.ufunc4j.internal;

import dev.ufunc4j.tuning.Fingerprint;
import dev.ufunc4j.tuning.TuningProfile;
import dev.ufunc4j.tuning.TuningProfileException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import jdk.incubator.vector.VectorShape;

/**
 * The runtime's measured thresholds (docs/tuning.md): their defaults, or the values a tuning
 * profile recorded on this machine chose. The profile is the file {@code -Dufunc4j.tuning=<path>}
 * names, else {@value #RESOURCE} on the class path, else none ({@code -Dufunc4j.tuning=none}: none
 * even when the class path has one). A profile that cannot be used (corrupt, of another format
 * version, recorded on another machine) gives one warning on the {@code dev.ufunc4j.tuning} logger
 * and the defaults; the explicit {@code -Dufunc4j.grain} and {@code -Dufunc4j.threads} override
 * either ({@link Parallel}).
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

  /** The runtime-wide records' op and class: {@code "*"}. */
  public static final String ANY = "*";

  private static final String ANY_OP = ANY + "." + ANY;

  private final long grain;
  private final int threads;
  private final String source;

  private Tunables(long grain, int threads, String source) {
    this.grain = grain;
    this.threads = threads;
    this.source = source;
  }

  private static final Tunables CURRENT = loadCurrent();

  /** The grain this JVM started with (before {@code -Dufunc4j.grain}). */
  public static long grain() {
    return CURRENT.grain;
  }

  /** The thread count this JVM started with (before {@code -Dufunc4j.threads}). */
  public static int threads() {
    return CURRENT.threads;
  }

  /** Where the values came from: the profile's name, or {@code "defaults"}. */
  public static String source() {
    return CURRENT.source;
  }

  /** This machine's fingerprint, as the tuner records it. */
  public static Fingerprint fingerprint() {
    return Fingerprint.current(VectorShape.preferredShape().vectorBitSize());
  }

  private static Tunables loadCurrent() {
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
    List<String> lines;
    try (InputStream in = url.openStream()) {
      lines = Arrays.asList(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1));
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
    return new Tunables(DEFAULT_GRAIN, Runtime.getRuntime().availableProcessors(), source);
  }

  /** The tunables of the profile file {@code file} for machine {@code here}. */
  static Tunables fromFile(Path file, Fingerprint here, Consumer<String> warn) {
    try {
      return from(file.toString(), TuningProfile.read(file), here, warn);
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
    try {
      return from(source, TuningProfile.parse(source, lines), here, warn);
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

  private static Tunables from(
      String source, TuningProfile profile, Fingerprint here, Consumer<String> warn) {
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
    if (grain < 1 || threads < 1 || threads > 4096) {
      warn.accept(
          "ufunc4j: ignoring the tuning profile "
              + source
              + ": it chose grain "
              + grain
              + " and threads "
              + threads
              + ", both must be at least 1; using the default tunables");
      return defaults("defaults");
    }
    return new Tunables(grain, (int) threads, source);
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
}
