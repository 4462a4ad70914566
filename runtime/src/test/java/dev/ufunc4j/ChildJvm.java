package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a probe's {@code main} in a JVM of its own (the memory tests need a fixed heap and a fresh
 * process to measure), and reads the {@code key=value} pairs of the output lines that start with
 * a given word.
 */
final class ChildJvm {
  private ChildJvm() {}

  /**
   * Runs {@code main} with {@code jvmFlags} and {@code args}; asserts that it exits with 0 and
   * returns its whole output.
   */
  static String run(List<String> jvmFlags, Class<?> main, String... args)
      throws IOException, InterruptedException {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> cmd = new ArrayList<>(List.of(
        java, "--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"));
    cmd.addAll(jvmFlags);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    // Into this test's stderr, which Surefire keeps in the reports (docs/testing.md, "Tiers").
    System.err.println("child JVM " + main.getSimpleName() + " " + jvmFlags + ", stdout and"
        + " stderr:\n" + out);
    assertEquals(0, p.waitFor(), main.getSimpleName() + " " + jvmFlags + " failed:\n" + out);
    return out;
  }

  /** The {@code key=value} pairs of each output line that starts with {@code first + "="}. */
  static List<Map<String, Long>> records(String out, String first) {
    List<Map<String, Long>> records = new ArrayList<>();
    out.lines().filter(l -> l.startsWith(first + "=")).forEach(line -> {
      Map<String, Long> values = new HashMap<>();
      for (String kv : line.trim().split(" ")) {
        String[] parts = kv.split("=");
        values.put(parts[0], Long.parseLong(parts[1]));
      }
      records.add(values);
    });
    if (records.isEmpty()) {
      throw new AssertionError("no line starting with " + first + "= in:\n" + out);
    }
    return records;
  }
}
