package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.Dispatch;
import dev.ufunc4j.kernel.ElementwiseOp;
import dev.ufunc4j.kernel.OpLibrary;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
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
import java.util.ServiceLoader;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The transcendental functions give the same bits in every JIT tier (issue 12, item 5): every
 * built-in op that computes one (exp, log, sin, cos, tanh, sigmoid, pow) and every {@link
 * MathFunctions} op, on fixed inputs in float32, float64 and float16, fingerprinted (SHA-256 of the
 * result bytes) in three fresh JVMs: the interpreter alone ({@code -Xint}, the Vector API's Java
 * fallback), C1 alone ({@code -XX:TieredStopAtLevel=1}) and C2 after warm-up ({@code
 * -XX:-TieredCompilation} with a low compile threshold, so every kernel loop is C2 code within its
 * first calls). All three must agree with each other and with the committed fingerprints, which
 * also pins the bits across machines (each lane's result depends on nothing but its operands).
 *
 * <p>With the Vector API's {@code lanewise(EXP)} and friends, which the kernels used before, the
 * interpreter computes {@code Math.exp} per lane and C2 calls SVML: the fingerprints differ
 * ({@code tools/bench/TranscendentalTiers.java} shows the lanes).
 *
 * <p>Regenerate the fingerprints after an intended change to the functions with {@code mvn -B -ntp
 * -pl generated-samples -am verify -Dufunc4j.updateGoldens=true}.
 */
@Tag("slow") // child JVMs
class ReproducibleBitsTest {

  /** Per dtype: elements per function, enough for hundreds of vector iterations. */
  private static final int N = 4096;

  /** The ops, as "declaringClass.name", that compute a transcendental function. */
  private static final List<String> OPS = List.of(
      "Builtins.exp", "Builtins.log", "Builtins.sin", "Builtins.cos", "Builtins.tanh",
      "Builtins.sigmoid", "Builtins.pow",
      "MathFunctions.exp", "MathFunctions.expm1", "MathFunctions.log", "MathFunctions.log1p",
      "MathFunctions.log10", "MathFunctions.sin", "MathFunctions.cos", "MathFunctions.tan",
      "MathFunctions.asin", "MathFunctions.acos", "MathFunctions.atan", "MathFunctions.sinh",
      "MathFunctions.cosh", "MathFunctions.tanh", "MathFunctions.cbrt", "MathFunctions.pow",
      "MathFunctions.hypot", "MathFunctions.atan2");

  private static final List<DType> DTYPES = List.of(DType.FLOAT32, DType.FLOAT64, DType.FLOAT16);

  private static Map<String, String> interpreted;

  /** Prints the fingerprints, one "op dtype hash" line each: what the child JVMs run. */
  public static void main(String[] args) {
    int calls = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    fingerprints(calls).forEach((key, hash) -> System.out.println(key + " " + hash));
  }

  @BeforeAll
  static void interpreter() throws Exception {
    interpreted = child(List.of("-Xint"), 1);
  }

  @Test
  void c2AgreesWithTheInterpreter() throws Exception {
    // Compile threshold 100 without tiers: C2 compiles each kernel loop (OSR) in its first call;
    // the twelve calls before the fingerprinted one run that code.
    Map<String, String> compiled =
        child(List.of("-XX:-TieredCompilation", "-XX:CompileThreshold=100"), 12);
    assertSame("C2", compiled);
  }

  /**
   * Another machine's vector width and a split op: 128-bit vectors ({@code -XX:MaxVectorSize=16}
   * makes the preferred shape, and so every kernel's lane count, 4 floats instead of this
   * machine's 8 or 16), C2 as above, and every op of the fingerprints split across two threads
   * (a grain of 256 elements).
   */
  @Test
  void narrowVectorsOnTwoThreadsAgreeWithTheInterpreter() throws Exception {
    assertSame("C2 with 128-bit vectors on two threads", child(List.of("-XX:MaxVectorSize=16",
        "-XX:-TieredCompilation", "-XX:CompileThreshold=100", "-Dufunc4j.threads=2",
        "-Dufunc4j.grain=256"), 12));
  }

  @Test
  void c1AgreesWithTheInterpreter() throws Exception {
    assertSame("C1", child(List.of("-XX:TieredStopAtLevel=1"), 3));
  }

  @Test
  void matchesTheCommittedFingerprints() throws IOException {
    Path golden = Path.of(System.getProperty("ufunc4j.goldens", "src/test/resources/goldens"))
        .resolve("ReproducibleBitsTest/fingerprints.txt");
    StringBuilder text = new StringBuilder();
    interpreted.forEach((key, hash) -> text.append(key).append(' ').append(hash).append('\n'));
    if (Boolean.getBoolean("ufunc4j.updateGoldens")) {
      Files.createDirectories(golden.getParent());
      Files.writeString(golden, text.toString(), StandardCharsets.UTF_8);
      return;
    }
    if (!Files.exists(golden)) {
      fail("no fingerprints at " + golden + "; write them with -Dufunc4j.updateGoldens=true");
    }
    assertEquals(Files.readString(golden, StandardCharsets.UTF_8), text.toString(),
        "the functions' bits changed; if intended, regenerate " + golden
            + " with -Dufunc4j.updateGoldens=true");
  }

  private static void assertSame(String tier, Map<String, String> other) {
    List<String> differ = new ArrayList<>();
    interpreted.forEach((key, hash) -> {
      if (!hash.equals(other.get(key))) {
        differ.add(key);
      }
    });
    if (!differ.isEmpty()) {
      fail(tier + " and the interpreter give other bits for " + differ);
    }
    assertEquals(interpreted.keySet(), other.keySet());
  }

  /** Runs {@link #main} in a fresh JVM with {@code flags}; its fingerprints by "op dtype". */
  private static Map<String, String> child(List<String> flags, int calls) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElseThrow());
    command.add("--add-modules=jdk.incubator.vector");
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(flags);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ReproducibleBitsTest.class.getName());
    command.add(Integer.toString(calls));
    java.io.File err = java.io.File.createTempFile("reproducible-bits", ".err");
    err.deleteOnExit();
    Process p = new ProcessBuilder(command).redirectError(err).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    boolean done = p.waitFor(10, TimeUnit.MINUTES);
    String errText = java.nio.file.Files.readString(err.toPath());
    // Into this test's stderr, which Surefire keeps in the reports (docs/testing.md, "Tiers").
    System.err.println("child JVM " + flags + ", stderr:\n" + errText);
    if (!done || p.exitValue() != 0) {
      fail("child JVM " + flags + " failed: " + out + "\nstderr:\n" + errText);
    }
    Map<String, String> result = new LinkedHashMap<>();
    for (String line : out.split("\n")) {
      String[] parts = line.trim().split(" ");
      if (parts.length == 3) {
        result.put(parts[0] + " " + parts[1], parts[2]);
      }
    }
    return result;
  }

  /** Each op on each dtype, called {@code calls} times; the last call's result fingerprinted. */
  static Map<String, String> fingerprints(int calls) {
    Map<String, ElementwiseOp> ops = new LinkedHashMap<>();
    for (OpLibrary lib : ServiceLoader.load(OpLibrary.class)) {
      for (ElementwiseOp op : lib.ops()) {
        String declaring = op.declaringClass();
        ops.put(declaring.substring(declaring.lastIndexOf('.') + 1) + "." + op.name(), op);
      }
    }
    Map<String, String> result = new LinkedHashMap<>();
    for (String name : OPS) {
      ElementwiseOp op = ops.get(name);
      if (op == null) {
        throw new IllegalStateException("no op " + name + " among " + ops.keySet());
      }
      for (DType dtype : DTYPES) {
        Tensor[] inputs = new Tensor[op.arity()];
        for (int k = 0; k < inputs.length; k++) {
          inputs[k] = Tensor.of(inputs(dtype, k), DType.FLOAT64).to(dtype);
        }
        Tensor out = null;
        for (int c = 0; c < calls; c++) {
          out = Dispatch.apply(op, null, inputs);
        }
        result.put(name + " " + dtype, fingerprint(out));
      }
    }
    return result;
  }

  /**
   * The inputs of operand k: edge values (signed zeros, infinities, NaN, subnormals, the largest
   * finite values, the limits of each function's ranges), then random values on a log scale of
   * both signs and uniform ones in [-10, 10]; the second operand holds integers too (pow).
   */
  private static double[] inputs(DType dtype, int k) {
    double[] edges = {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
        Double.MIN_VALUE, -Double.MIN_VALUE, Float.MIN_VALUE, Float.MIN_NORMAL, Double.MIN_NORMAL,
        Double.MAX_VALUE, -Double.MAX_VALUE, Float.MAX_VALUE, 65504, 1, -1, 0.5, -0.5, 2, 3, -3,
        88.72, 89, -103.9, -104, 709.78, 710.5, -745.2, 1e-8, -1e-8, Math.PI / 2, Math.PI, 1e5,
        262144, 1e10, 1e22, -1e300, 0.5493, 0.4375, 0.6875, 0.9999999, 1.0000001, 20, -20};
    double[] x = new double[N];
    SplittableRandom random = new SplittableRandom(31 * dtype.ordinal() + k);
    for (int i = 0; i < N; i++) {
      if (i < edges.length) {
        x[i] = edges[(i + 7 * k) % edges.length];
      } else if (i % 2 == 0) {
        double magnitude = Math.exp(random.nextDouble(Math.log(1e-6), Math.log(1e6)));
        x[i] = random.nextBoolean() ? magnitude : -magnitude;
      } else {
        x[i] = k == 1 && i % 6 == 1 ? random.nextInt(-8, 9) : random.nextDouble(-10, 10);
      }
    }
    return x;
  }

  private static String fingerprint(Tensor t) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      Tensor c = t.contiguous();
      long bytes = c.dtype().byteSize();
      sha.update(c.segment().asSlice(c.offset() * bytes, c.numel() * bytes)
          .toArray(ValueLayout.JAVA_BYTE));
      return HexFormat.of().formatHex(sha.digest(), 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
