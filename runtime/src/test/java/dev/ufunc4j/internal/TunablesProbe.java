package dev.ufunc4j.internal;

import dev.ufunc4j.internal.parallel.Parallel;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Run in a child JVM by {@link GrainRangeTest} and {@link ProfileSizeTest} with the system
 * properties under test: prints the tunables the runtime took, then runs ops that split at any
 * grain the runtime takes and checks every element against the scalar arithmetic ({@link
 * #check}). Prints {@code result=ok} or the first wrong element; the parent counts
 * the warnings on standard error.
 */
public final class TunablesProbe {
  private TunablesProbe() {}

  public static void main(String[] args) {
    System.out.println("grain=" + Parallel.grainSize() + " threads=" + Parallel.threads()
        + " source=" + Tunables.source());
    System.out.println("result=" + check());
  }

  /**
   * Ops that split at any grain the runtime takes (threads 2): one contiguous row, {@code out=},
   * in place, a broadcast plan and a tiled one, each element against the scalar arithmetic. "ok", or
   * the first wrong element.
   */
  static String check() {
    int n = 3 * 4096 + 7;
    Tensor x = Tensor.randn(11, DType.FLOAT32, n);
    float[] xs = x.toFloatArray();
    Tensor sum = x.add(x);
    Tensor out = Tensor.full(DType.FLOAT32, -1.0, n);
    Ops.mul(x, x, out);
    Tensor in = x.copy();
    in.addInPlace(x);
    Tensor rows = Ops.sub(x.reshape(n, 1), Tensor.of(new float[] {1, 2}));
    // A transposed operand: the tiled loop (LoopPlan's tileRowBytes, tileCols).
    Tensor a = Tensor.randn(12, DType.FLOAT32, 96, 512);
    Tensor b = Tensor.randn(13, DType.FLOAT32, 512, 96);
    Tensor tiled = Ops.add(a, b.t());
    for (int i = 0; i < 96; i++) {
      for (int j = 0; j < 512; j++) {
        float want = (float) a.getDouble(i, j) + (float) b.getDouble(j, i);
        if ((float) tiled.getDouble(i, j) != want) {
          return "tiled add at " + i + "," + j + ": " + tiled.getDouble(i, j) + ", want " + want;
        }
      }
    }
    for (int i = 0; i < n; i++) {
      float v = xs[i];
      if ((float) sum.getDouble(i) != v + v || (float) in.getDouble(i) != v + v) {
        return "add at " + i + ": " + sum.getDouble(i) + ", in place " + in.getDouble(i)
            + ", want " + (v + v);
      }
      if ((float) out.getDouble(i) != v * v) {
        return "mul out= at " + i + ": " + out.getDouble(i) + ", want " + (v * v);
      }
      if ((float) rows.getDouble(i, 1) != v - 2) {
        return "broadcast sub at " + i + ": " + rows.getDouble(i, 1) + ", want " + (v - 2);
      }
    }
    return "ok";
  }

  /** A child JVM's output: standard output and error together, and its exit status checked. */
  static String run(long timeoutSeconds, String... options)
      throws IOException, InterruptedException {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> cmd = new ArrayList<>(List.of(java, "--add-modules=jdk.incubator.vector",
        "--enable-native-access=ALL-UNNAMED"));
    cmd.addAll(List.of(options));
    if (cmd.stream().noneMatch(o -> o.startsWith("-Dufunc4j.tuning="))) {
      cmd.add("-D" + Tunables.PROPERTY + "=none"); // the build's own profile, if any, is not tested
    }
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"),
        TunablesProbe.class.getName()));
    Path log = Files.createTempFile("probe", ".log");
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(log.toFile()).start();
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor();
        throw new AssertionError("the probe did not finish in " + timeoutSeconds + " s: "
            + Files.readString(log, StandardCharsets.UTF_8));
      }
      String out = Files.readString(log, StandardCharsets.UTF_8);
      // Into this test's stderr, which Surefire keeps in the reports (docs/testing.md, "Tiers").
      System.err.println("child JVM " + List.of(options) + ", stdout and stderr:\n" + out);
      assertEquals(0, p.exitValue(), "probe failed:\n" + out);
      return out;
    } finally {
      Files.deleteIfExists(log);
    }
  }

  static long warnings(String out) {
    return out.lines().filter(l -> l.startsWith("WARNING: ufunc4j")).count();
  }
}
