package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ufunc4j.dtype.DType;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A reduction's bits do not depend on the vector width (issue 23, item 12): the sums, means,
 * row and column sums and maxima of fixed inputs, and the random cases of {@code
 * PropertyFuzzTest.sumsFollowTheDocumentedTree}, fingerprinted in this JVM and in fresh JVMs whose
 * vectors are narrower ({@code -XX:UseAVX=2}: 256 bits, {@code -XX:UseAVX=0}: SSE's 128, on x86;
 * {@code -XX:MaxVectorSize=16} and {@code =8} anywhere), one of them on one thread and one on two
 * with a small grain, so the thread split takes part too. Every fingerprint must match this JVM's.
 *
 * <p>Before the tree was specified in elements a leaf was summed by four vector accumulators of
 * the preferred width, and float32 {@code sum} of 100003 elements differed between the default
 * AVX-512 run and {@code -XX:UseAVX=2}.
 */
@Tag("slow") // child JVMs
class SumBitsAcrossVectorWidthsTest {

  /** Random cases of the property test run here too. */
  private static final int SEEDS = 120;

  /** Prints "lanes floatLanes doubleLanes", then one "case fingerprint" line per case. */
  public static void main(String[] args) {
    System.out.println("lanes " + FloatVector.SPECIES_PREFERRED.length() + " "
        + DoubleVector.SPECIES_PREFERRED.length());
    fingerprints().forEach((key, hash) -> System.out.println(key + " " + hash));
  }

  @Test
  void reductionsHaveTheSameBitsWithEveryVectorWidth() throws Exception {
    Map<String, String> here = fingerprints();
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    List<List<String>> runs = new ArrayList<>();
    if (arch.equals("amd64") || arch.equals("x86_64")) {
      // On a CPU without AVX2 the JVM warns and uses what it has: still a valid comparison.
      runs.add(List.of("-XX:UseAVX=2"));
      runs.add(List.of("-XX:UseAVX=0"));
    }
    runs.add(List.of("-XX:MaxVectorSize=16", "-Dufunc4j.threads=2", "-Dufunc4j.grain=1024"));
    runs.add(List.of("-XX:MaxVectorSize=8", "-Dufunc4j.threads=1"));
    int hereLanes = FloatVector.SPECIES_PREFERRED.length();
    int otherWidths = 0;
    List<String> failures = new ArrayList<>();
    for (List<String> flags : runs) {
      Map<String, String> there = child(flags);
      int lanes = Integer.parseInt(there.remove("lanes").split(" ")[0]);
      System.out.println("[vector widths] " + flags + ": " + lanes + " float lanes (here "
          + hereLanes + "), " + there.size() + " cases");
      otherWidths += lanes != hereLanes ? 1 : 0;
      assertEquals(here.keySet(), there.keySet(), flags.toString());
      here.forEach((key, hash) -> {
        if (!hash.equals(there.get(key))) {
          failures.add(flags + " (" + lanes + " float lanes, here " + hereLanes + "): " + key);
        }
      });
    }
    if (!failures.isEmpty()) {
      fail(failures.size() + " results differ from this JVM's; first ones:\n  "
          + String.join("\n  ", failures.subList(0, Math.min(15, failures.size()))));
    }
    assertTrue(otherWidths > 0, "no child JVM ran with other vectors than " + hereLanes + " lanes");
  }

  /** The fixed cases agree with the documented tree here (so the children agree with it too). */
  @Test
  void theRandomCasesFollowTheDocumentedTreeHere() {
    for (int seed = 0; seed < SEEDS; seed++) {
      DocumentedSumTree.Case c = DocumentedSumTree.Case.draw(new Random(seed));
      assertArrayEquals(c.expectedBits(), c.bitsOf(c.actual()), "seed " + seed + ": " + c);
    }
  }

  /** Runs {@link #main} in a fresh JVM with {@code flags}; its fingerprints by case. */
  private static Map<String, String> child(List<String> flags) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElseThrow());
    command.add("--add-modules=jdk.incubator.vector");
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(flags);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SumBitsAcrossVectorWidthsTest.class.getName());
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    // Into this test's stderr, which Surefire keeps in the reports (docs/testing.md, "Tiers").
    System.err.println("child JVM " + flags + ", stdout and stderr:\n" + out);
    if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
      fail("child JVM " + flags + " failed:\n" + out);
    }
    Map<String, String> result = new LinkedHashMap<>();
    for (String line : out.split("\n")) {
      int space = line.lastIndexOf(' ');
      if (line.startsWith("lanes ")) {
        result.put("lanes", line.substring(6).trim());
      } else if (line.startsWith("case ") && space > 0) {
        result.put(line.substring(0, space), line.substring(space + 1).trim());
      }
    }
    return result;
  }

  /** Every case's result fingerprinted, by "case name". */
  static Map<String, String> fingerprints() {
    Map<String, String> result = new LinkedHashMap<>();
    int[] sizes = {1, 5, 31, 33, 63, 64, 65, 100, 127, 2047, 2048, 2049, 6001, 100_003, (1 << 21) + 5};
    for (DType dtype : List.of(DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16)) {
      for (int n : sizes) {
        Tensor x = data(dtype, n, n);
        result.put("case " + dtype + " sum " + n, fingerprint(x.sum()));
        result.put("case " + dtype + " mean " + n, fingerprint(x.mean()));
      }
      for (int[] s : new int[][] {{37, 1000}, {300, 2049}, {5, 100_003}, {1000, 37}, {2049, 300}}) {
        Tensor m = data(dtype, s[0] * s[1], s[0]).view(s[0], s[1]);
        String name = "case " + dtype + " [" + s[0] + ", " + s[1] + "]";
        result.put(name + " sum(1)", fingerprint(m.sum(1)));
        result.put(name + " sum(0)", fingerprint(m.sum(0)));
        result.put(name + " mean(1)", fingerprint(m.mean(1)));
        result.put(name + " t().sum(1)", fingerprint(m.t().sum(1)));
      }
      // Maxima with NaNs of several payloads among the values: a NaN result is the canonical one.
      Tensor withNaN = data(dtype, 5000, 3).to(DType.FLOAT32);
      float[] v = withNaN.toFloatArray();
      v[17] = Float.intBitsToFloat(0x7fc00011);
      v[4000] = Float.intBitsToFloat(0xffc00022);
      Tensor nans = Tensor.of(v, v.length).to(dtype).view(50, 100);
      result.put("case " + dtype + " NaN amax", fingerprint(nans.amax()));
      result.put("case " + dtype + " NaN amin(1)", fingerprint(nans.amin(1)));
      result.put("case " + dtype + " NaN sum(0)", fingerprint(nans.sum(0)));
    }
    for (int seed = 0; seed < SEEDS; seed++) {
      DocumentedSumTree.Case c = DocumentedSumTree.Case.draw(new Random(seed));
      result.put("case seed " + seed + " " + c, fingerprint(c.actual()));
    }
    return result;
  }

  /** {@code n} values spanning many orders of magnitude (fewer for the 16-bit floats). */
  private static Tensor data(DType dtype, int n, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    boolean half = dtype.byteSize() == 2;
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = random.nextGaussian() * Math.pow(10, half ? random.nextInt(-2, 3) : random.nextInt(-6, 7));
    }
    return Tensor.of(x, n).to(dtype);
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
