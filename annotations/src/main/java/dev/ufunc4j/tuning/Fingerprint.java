package dev.ufunc4j.tuning;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

/**
 * The machine a tuning profile was measured on: what decides which kernel variant and which
 * thresholds win. {@code cpu} is the processor's model name, {@code flags} its SIMD feature flags
 * (sorted), {@code cores} the processors the JVM may use, {@code vectorBits} the Vector API's
 * preferred vector size ({@code 0} where it is unknown: javac's JVM, where the processor runs, has
 * no {@code jdk.incubator.vector}), {@code jdk} the Java runtime version and {@code ufunc4j} the
 * library's version. {@link #id} names it in the profile's records.
 *
 * @param cpu the processor's model name
 * @param flags its SIMD feature flags, sorted
 * @param cores the processors the JVM may use
 * @param vectorBits the Vector API's preferred vector size in bits (0: unknown)
 * @param jdk the Java runtime version
 * @param ufunc4j the library's version
 */
public record Fingerprint(
    String cpu, String flags, int cores, int vectorBits, String jdk, String ufunc4j) {

  /**
   * {@return this machine, with the given Vector API preferred size in bits (0: unknown)}
   *
   * @param vectorBits the Vector API's preferred vector size in bits (0: unknown)
   */
  public static Fingerprint current(int vectorBits) {
    String[] cpu = cpuInfo();
    return new Fingerprint(
        cpu[0],
        cpu[1],
        Runtime.getRuntime().availableProcessors(),
        vectorBits,
        Runtime.version().toString(),
        version());
  }

  /** {@return the ufunc4j version this jar was built as (its Maven version)} */
  public static String version() {
    try (InputStream in = Fingerprint.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  /**
   * Model name and SIMD flags from {@code /proc/cpuinfo} (x86 {@code flags}, Arm {@code Features});
   * elsewhere the architecture name and no flags.
   */
  private static String[] cpuInfo() {
    String model = null;
    String flags = null;
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
        int colon = line.indexOf(':');
        if (colon < 0) {
          continue;
        }
        String key = line.substring(0, colon).trim();
        String value = line.substring(colon + 1).trim();
        if (model == null && (key.equals("model name") || key.equals("CPU part"))) {
          model = value;
        } else if (flags == null && (key.equals("flags") || key.equals("Features"))) {
          flags = simdFlags(value);
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux: fall through to the architecture.
    }
    return new String[] {
      model != null ? model : System.getProperty("os.arch", "unknown"), flags != null ? flags : ""
    };
  }

  /** The flags that change generated vector code: SSE/AVX/FMA/F16C/AMX on x86, SIMD on Arm. */
  static String simdFlags(String all) {
    TreeSet<String> kept = new TreeSet<>();
    for (String f : all.split("\\s+")) {
      if (f.startsWith("sse")
          || f.startsWith("ssse")
          || f.startsWith("avx")
          || f.startsWith("amx")
          || f.equals("fma")
          || f.equals("f16c")
          || f.equals("asimd")
          || f.startsWith("asimd")
          || f.startsWith("sve")
          || f.equals("fphp")) {
        kept.add(f);
      }
    }
    return String.join(" ", kept);
  }

  /**
   * Twelve hex digits of the SHA-256 of the fields: the {@code machine} key of records.
   *
   * @return twelve hex digits naming this machine
   */
  public String id() {
    String canonical =
        String.join(
            "\n", cpu, flags, Integer.toString(cores), Integer.toString(vectorBits), jdk, ufunc4j);
    try {
      byte[] h =
          MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(h, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /**
   * {@return how {@code recorded} differs from this machine, one {@code field: recorded X, this
   * machine Y} per field; empty when it matches} {@code vectorBits} is compared only when both know
   * it.
   *
   * @param recorded the machine a profile was recorded on
   */
  public List<String> differencesFrom(Fingerprint recorded) {
    List<String> d = new ArrayList<>();
    diff(d, "cpu", recorded.cpu, cpu);
    diff(d, "flags", recorded.flags, flags);
    diff(d, "cores", recorded.cores, cores);
    if (recorded.vectorBits != 0 && vectorBits != 0) {
      diff(d, "vectorBits", recorded.vectorBits, vectorBits);
    }
    diff(d, "jdk", recorded.jdk, jdk);
    diff(d, "ufunc4j", recorded.ufunc4j, ufunc4j);
    return d;
  }

  private static void diff(List<String> d, String field, Object recorded, Object here) {
    if (!recorded.equals(here)) {
      d.add(field + ": recorded " + show(recorded) + ", this machine " + show(here));
    }
  }

  private static String show(Object v) {
    return v instanceof String s ? "'" + s + "'" : String.valueOf(v);
  }

  /** The profile's {@code machine} line. */
  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("machine", id());
    m.put("cpu", cpu);
    m.put("flags", flags);
    m.put("cores", cores);
    m.put("vectorBits", vectorBits);
    m.put("jdk", jdk);
    m.put("ufunc4j", ufunc4j);
    return m;
  }
}
