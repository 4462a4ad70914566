package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A program run without {@code --add-modules jdk.incubator.vector} fails when the runtime is first
 * initialised, naming the flag and where it goes, instead of at the first op with {@code
 * NoClassDefFoundError: jdk/incubator/vector/Vector} inside a kernel. Runs a child JVM (this
 * test's own JDK) with the runtime on the class path, as a user's {@code java -cp} would.
 */
@Tag("slow") // child JVMs
class MissingVectorModuleTest {

  /** The child program: creates a tensor (or touches Ops first), then runs an op. */
  public static final class Probe {
    private Probe() {}

    /** {@code args[0]} is "tensor" (start with a tensor) or "ops" (initialise Ops first). */
    public static void main(String[] args) throws ClassNotFoundException {
      if (args[0].equals("ops")) {
        Class.forName("dev.ufunc4j.Ops");
      }
      Tensor x = Tensor.of(new float[] {1, 2, 3});
      System.out.println("created");
      System.out.println("sum " + Ops.add(x, x));
    }
  }

  private record Run(int exit, String out, String err) {}

  private static Run run(boolean withFlag, String start) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java));
    if (withFlag) {
      command.add("--add-modules");
      command.add("jdk.incubator.vector");
    }
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("-cp");
    command.add(
        String.join(
            File.pathSeparator, location(Tensor.class), location(DType.class), location(Probe.class)));
    command.add(Probe.class.getName());
    command.add(start);
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().remove("JAVA_TOOL_OPTIONS");
    pb.environment().remove("JDK_JAVA_OPTIONS");
    File err = File.createTempFile("ufunc4j-probe", ".err");
    err.deleteOnExit();
    pb.redirectError(err);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the child JVM did not finish");
    String errText = Files.readString(err.toPath());
    // Into this test's stderr, which Surefire keeps in the reports (docs/testing.md, "Tiers").
    System.err.println("child JVM " + (withFlag ? "with" : "without") + " the flag, stderr:\n"
        + errText);
    return new Run(p.exitValue(), out, errText);
  }

  private static String location(Class<?> c) throws Exception {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  @ParameterizedTest
  @ValueSource(strings = {"tensor", "ops"})
  void withoutTheFlagTheFirstUseSaysWhatIsMissingAndWhere(String start) throws Exception {
    Run r = run(false, start);
    assertNotEquals(0, r.exit(), r.out() + r.err());
    // Before any tensor exists, not at the first op.
    assertFalse(r.out().contains("created"), r.out());
    assertTrue(r.err().contains("MissingVectorModuleError"), r.err());
    assertTrue(r.err().contains("Add --add-modules jdk.incubator.vector"), r.err());
    for (String place : List.of("java command line", "exec plugin", "Surefire", "javac")) {
      assertTrue(r.err().contains(place), place + " missing in: " + r.err());
    }
    assertFalse(r.err().contains("jdk/incubator/vector"), r.err());
    assertFalse(r.err().contains("ExceptionInInitializerError"), r.err());
  }

  @Test
  void withTheFlagTheSameProgramRuns() throws Exception {
    Run r = run(true, "tensor");
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("created"), r.out());
    assertTrue(r.out().contains("sum "), r.out());
    assertFalse(r.err().contains("MissingVectorModuleError"), r.err());
  }
}
