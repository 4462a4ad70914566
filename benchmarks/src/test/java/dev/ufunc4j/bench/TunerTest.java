package dev.ufunc4j.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.internal.Tunables;
import dev.ufunc4j.tuning.Fingerprint;
import dev.ufunc4j.tuning.TuningProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tuner end to end (forked JVMs on the test's class path), and its choice rule. */
class TunerTest {

  @Test
  void keepsTheDefaultUnlessACandidateIsFasterBeyondTheNoise() {
    double[] def = {100, 101, 102, 103, 104, 105, 106};
    // 10% faster and no overlap of the quartiles: chosen.
    assertEquals(1, Tuner.choose(new double[][] {def, {90, 91, 92, 93, 94, 95, 96}}));
    // 2% faster: within MIN_GAIN.
    assertEquals(0, Tuner.choose(new double[][] {def, {98, 99, 100, 101, 102, 103, 104}}));
    // A faster median but a wide spread reaching over the default's first quartile.
    assertEquals(0, Tuner.choose(new double[][] {def, {50, 60, 70, 80, 200, 300, 400}}));
    // The fastest of several.
    assertEquals(
        2,
        Tuner.choose(
            new double[][] {def, {90, 90, 90, 90, 90, 90, 90}, {50, 50, 50, 50, 50, 50, 50}}));
    assertEquals(103, Tuner.quantile(def, 0.5));
    assertEquals(101.5, Tuner.quantile(def, 0.25));
  }

  @Test
  @Tag("slow") // child JVMs (the tuner forks its workers)
  void writesAProfileOfThisMachineForTheOpsAsked(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("tuning.jsonl");
    // A record of another machine already in the file stays (profiles merge).
    Fingerprint other = new Fingerprint("Elsewhere", "", 64, 256, "25", "0");
    new TuningProfile(
            List.of(other),
            List.of(
                new TuningProfile.Record(
                    "*",
                    "*",
                    List.of(),
                    "add_1M",
                    other.id(),
                    "threads",
                    1,
                    List.of(
                        new TuningProfile.Timing(64, 2, 1, 3, 5),
                        new TuningProfile.Timing(1, 1, 1, 1, 5)))))
        .write(out);
    Tuner.main(new String[] {"--quick --rounds=1 --ops=Samples.mul,Activations.silu,Samples.silu --out=" + out});
    TuningProfile p = TuningProfile.read(out);
    Fingerprint here = Tunables.fingerprint();
    assertEquals(
        Set.of(here.id(), other.id()), Set.of(p.machines().get(0).id(), p.machines().get(1).id()));
    TuningProfile.Selection mine = p.forMachine(here);
    assertEquals(null, mine.mismatch());
    Set<String> keys = new TreeSet<>();
    for (TuningProfile.Record r : mine.records()) {
      keys.add(r.op() + " " + r.dtypes() + " " + r.shape() + " " + r.knob());
      assertTrue(r.candidates().stream().anyMatch(t -> t.value() == r.chosen()), r.toString());
      assertTrue(
          r.candidates().stream().allMatch(t -> t.samples() == 7 && t.medianNs() > 0),
          r.toString());
    }
    Set<String> expected = new TreeSet<>();
    if (Runtime.getRuntime().availableProcessors() > 1) {
      expected.addAll(List.of("* [] add_256K grain", "* [] add_1M grain", "* [] add_1M threads"));
      // The per-op grain: each op's own kernels over the sweep of sizes around the split points.
      expected.add("mul [float32, float32] " + TunerWorker.SPLIT_SWEEP + " grain");
      expected.add("silu [float32] " + TunerWorker.SPLIT_SWEEP + " grain");
    }
    if (jdk.incubator.vector.VectorShape.preferredShape().vectorBitSize() > 128) {
      for (String op : List.of("mul [float32, float32]", "silu [float32]")) {
        expected.add(op + " in_cache vectorBits");
        expected.add(op + " out_of_cache_1M vectorBits");
      }
    }
    // silu: Activations.silu and Samples.silu, one key each here.
    assertEquals(expected, keys);
    assertTrue(
        mine.records().stream()
            .anyMatch(r -> r.declaringClass().equals("dev.ufunc4j.samples.Activations")));
    assertFalse(
        mine.records().stream()
            .anyMatch(
                r -> r.declaringClass().equals("dev.ufunc4j.Builtins") && r.op().equals("mul")),
        "Samples.mul asked, not the built-in mul");
    assertEquals(1, p.forMachine(other).records().size());
  }

  @Test
  void refusesUnknownOptionsOpsAndDtypes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Tuner.main(new String[] {"--fast"}));
    assertTrue(
        e.getMessage().startsWith("unknown option --fast; known: [check, dtypes, knobs, ops, out"),
        e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Tuner.main(new String[] {"--ops=nosuchop", "--quick"}));
    assertTrue(
        e.getMessage().startsWith("--ops: no op 'nosuchop' on the class path"), e.getMessage());
    // Issue 29 item 4: a bare name two classes declare selects neither, naming both.
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Tuner.main(new String[] {"--ops=silu", "--quick"}));
    assertTrue(
        e.getMessage().startsWith("--ops: 'silu' names ")
            && e.getMessage().contains("dev.ufunc4j.samples.Activations.silu")
            && e.getMessage().contains("dev.ufunc4j.samples.Samples.silu"),
        e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> Tuner.main(new String[] {"--dtypes=float31"}));
    assertTrue(e.getMessage().contains("'float31'"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> Tuner.main(new String[] {"--rounds=two"}));
    assertEquals("--rounds must be a whole number of at least 1, got 'two'", e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> Tuner.main(new String[] {"--knobs=unroll"}));
    assertTrue(e.getMessage().startsWith("--knobs: unknown knob 'unroll'"), e.getMessage());
  }

  @Test
  void verifyHashesEqualForTheSameBuild(@TempDir Path dir) throws Exception {
    Path a = dir.resolve("a.tsv");
    Path b = dir.resolve("b.tsv");
    Tuner.main(new String[] {"--ops=Samples.mul,Activations.silu", "--verify=" + a});
    Tuner.main(new String[] {"--ops=Samples.mul,Activations.silu", "--verify=" + b});
    List<String> lines = Files.readAllLines(a);
    assertEquals(lines, Files.readAllLines(b));
    List<String> shapes = new ArrayList<>();
    for (String l : lines) {
      String[] f = l.split("\t");
      assertEquals(64, f[3].length(), l); // a SHA-256, not a refusal
      shapes.add(f[0].substring(f[0].lastIndexOf('.') + 1) + " " + f[2]);
    }
    assertTrue(
        shapes.containsAll(
            List.of(
                "mul in_cache",
                "mul transposed",
                "mul row_broadcast",
                "silu in_cache",
                "silu out_of_cache_1M")),
        shapes.toString());
    assertFalse(shapes.contains("silu row_broadcast"), "a unary op has no broadcast class");
  }

  /**
   * The runtime's reading in a fresh JVM: a profile at {@code META-INF/ufunc4j/tuning.jsonl} on the
   * class path is used; {@code -Dufunc4j.tuning=none} ignores it; {@code -Dufunc4j.grain} overrides
   * it.
   */
  @Test
  @Tag("slow") // child JVMs
  void theRuntimeReadsAProfileOnTheClassPath(@TempDir Path dir) throws Exception {
    Fingerprint here = Tunables.fingerprint();
    Path resource = dir.resolve("META-INF/ufunc4j/tuning.jsonl");
    Files.createDirectories(resource.getParent());
    new TuningProfile(
            List.of(here),
            List.of(
                new TuningProfile.Record(
                    "*",
                    "*",
                    List.of(),
                    "add_1M",
                    here.id(),
                    "threads",
                    1,
                    List.of(
                        new TuningProfile.Timing(here.cores(), 900, 800, 1000, 7),
                        new TuningProfile.Timing(1, 400, 380, 420, 7))),
                new TuningProfile.Record(
                    "*",
                    "*",
                    List.of(),
                    "add_1M",
                    here.id(),
                    "grain",
                    16384,
                    List.of(
                        new TuningProfile.Timing(65536, 900, 800, 1000, 7),
                        new TuningProfile.Timing(16384, 400, 380, 420, 7))),
                // A per-op grain, and one of an op no class on the class path declares (a note).
                opGrain(here, "silu", "dev.ufunc4j.samples.Activations", 32768),
                opGrain(here, "swish", "dev.ufunc4j.samples.Activations", 65536)))
        .write(resource);
    String cp = dir + java.io.File.pathSeparator + System.getProperty("java.class.path");
    String silu = "op grain: dev.ufunc4j.samples.Activations.silu(float32)=32768";
    assertEquals(
        // a class path directory's profile is read as the file it is (regular files only: issue 23),
        // so the source is its path
        "tunables: source="
            + resource
            + " grain=16384 threads=1\n"
            + silu
            + " (in force: 32768)",
        check(cp));
    assertEquals(
        "tunables: source=defaults grain=" + Tunables.DEFAULT_GRAIN + " threads=" + here.cores(),
        check(cp, "-Dufunc4j.tuning=none"));
    assertEquals(
        "tunables: source="
            + resource
            + " grain=4096 threads=1\n"
            + silu
            + " (in force: 4096)",
        check(cp, "-Dufunc4j.grain=4096"));
  }

  private static TuningProfile.Record opGrain(
      Fingerprint here, String op, String declaringClass, long grain) {
    return new TuningProfile.Record(
        op,
        declaringClass,
        List.of("float32"),
        TunerWorker.SPLIT_SWEEP,
        here.id(),
        "grain",
        grain,
        List.of(
            new TuningProfile.Timing(Tunables.DEFAULT_GRAIN, 900, 800, 1000, 7),
            new TuningProfile.Timing(grain, 400, 380, 420, 7)));
  }

  private static String check(String classPath, String... flags) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--add-modules=jdk.incubator.vector");
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.addAll(List.of(flags));
    cmd.addAll(List.of("-cp", classPath, Tuner.class.getName(), "--check"));
    java.io.File err = java.io.File.createTempFile("tuner-check", ".err");
    err.deleteOnExit();
    Process p = new ProcessBuilder(cmd).redirectError(err).start();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    int exit = p.waitFor();
    String errText = Files.readString(err.toPath());
    // Into this test's stderr, which Surefire keeps in the reports (docs/testing.md, "Tiers").
    System.err.println("child JVM Tuner --check " + List.of(flags) + ", stderr:\n" + errText);
    assertEquals(0, exit, out + "\nstderr:\n" + errText);
    return out.strip();
  }
}
