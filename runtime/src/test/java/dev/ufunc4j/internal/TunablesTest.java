package dev.ufunc4j.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.tuning.Fingerprint;
import dev.ufunc4j.tuning.TuningProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime's reading of a tuning profile: the chosen values, or the defaults and one warning.
 */
class TunablesTest {
  private static final Fingerprint HERE = Tunables.fingerprint();
  private static final Fingerprint OTHER =
      new Fingerprint(
          "Some Other CPU",
          HERE.flags(),
          HERE.cores() + 6,
          HERE.vectorBits(),
          HERE.jdk(),
          HERE.ufunc4j());

  private static TuningProfile profile(Fingerprint machine, long grain, long threads) {
    String m = machine.id();
    return new TuningProfile(
        List.of(machine),
        List.of(
            new TuningProfile.Record(
                "*",
                "*",
                List.of(),
                "add_1M",
                m,
                "grain",
                grain,
                List.of(
                    new TuningProfile.Timing(Tunables.DEFAULT_GRAIN, 300_000, 250_000, 400_000, 9),
                    new TuningProfile.Timing(grain, 200_000, 180_000, 260_000, 9))),
            new TuningProfile.Record(
                "*",
                "*",
                List.of(),
                "add_1M",
                m,
                "threads",
                threads,
                List.of(
                    new TuningProfile.Timing(HERE.cores(), 300_000, 250_000, 400_000, 9),
                    new TuningProfile.Timing(threads, 200_000, 180_000, 260_000, 9))),
            // A build-time record of an op that the runtime does not read: ignored here.
            new TuningProfile.Record(
                "silu",
                "dev.ufunc4j.samples.Activations",
                List.of("float32"),
                "in_cache",
                m,
                "vectorBits",
                256,
                List.of(
                    new TuningProfile.Timing(512, 1000, 900, 1100, 9),
                    new TuningProfile.Timing(256, 800, 700, 900, 9)))));
  }

  @Test
  void withoutAProfileTheDefaults() {
    // Unless the build runs the tests with a profile (-Dufunc4j.tuning=<path>, .ci/run), the test
    // JVM has neither -Dufunc4j.tuning nor a profile on the class path.
    org.junit.jupiter.api.Assumptions.assumeTrue(
        System.getProperty(Tunables.PROPERTY, "").isBlank(), "run with a tuning profile");
    assertEquals(Tunables.DEFAULT_GRAIN, Tunables.grain());
    assertEquals(Runtime.getRuntime().availableProcessors(), Tunables.threads());
    assertEquals("defaults", Tunables.source());
    assertEquals(HERE.cores(), Runtime.getRuntime().availableProcessors());
  }

  @Test
  void aProfileOfThisMachineGivesItsChoices(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("tuning.jsonl");
    profile(HERE, 16384, 1).write(file);
    List<String> warnings = new ArrayList<>();
    Tunables t = Tunables.fromFile(file, HERE, warnings::add);
    assertEquals(List.of(), warnings);
    assertEquals(16384, t.grainValue());
    assertEquals(1, t.threadsValue());
    assertEquals(file.toString(), t.sourceValue());
  }

  @Test
  void anotherMachinesProfileWarnsOnceAndGivesTheDefaults() {
    List<String> warnings = new ArrayList<>();
    Tunables t =
        Tunables.fromLines("other.jsonl", profile(OTHER, 16384, 1).toLines(), HERE, warnings::add);
    assertDefaults(t);
    assertEquals(1, warnings.size(), warnings.toString());
    String w = warnings.get(0);
    assertTrue(
        w.startsWith(
            "ufunc4j: ignoring the tuning profile other.jsonl: it was recorded on another machine:"
                + " machine "
                + OTHER.id()
                + " (cpu: recorded 'Some Other CPU', this machine '"
                + HERE.cpu()
                + "'; cores: recorded "
                + (HERE.cores() + 6)
                + ", this machine "
                + HERE.cores()
                + ")"),
        w);
    assertTrue(w.endsWith("using the default tunables (run the tuner on this machine)"), w);
  }

  @Test
  void aCorruptProfileWarnsOnceAndGivesTheDefaults(@TempDir Path dir) throws Exception {
    List<String> lines = new ArrayList<>(profile(HERE, 16384, 1).toLines());
    lines.set(2, lines.get(2).substring(0, 40)); // a truncated record
    Path file = dir.resolve("corrupt.jsonl");
    Files.write(file, lines);
    List<String> warnings = new ArrayList<>();
    assertDefaults(Tunables.fromFile(file, HERE, warnings::add));
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(
        warnings
            .get(0)
            .startsWith(
                "ufunc4j: ignoring the tuning profile that cannot be read: "
                    + file
                    + ":3: not JSON: column 41: "),
        warnings.get(0));
    // A file that is not there, or not text, is the same.
    warnings.clear();
    assertDefaults(Tunables.fromFile(dir.resolve("missing.jsonl"), HERE, warnings::add));
    assertEquals(1, warnings.size());
    assertTrue(warnings.get(0).contains("cannot read the tuning profile"), warnings.get(0));
  }

  @Test
  void anOlderFormatWarnsOnceAndGivesTheDefaults() {
    List<String> lines = new ArrayList<>(profile(HERE, 16384, 1).toLines());
    lines.set(0, "{\"format\":\"ufunc4j-tuning\",\"version\":0}");
    List<String> warnings = new ArrayList<>();
    assertDefaults(Tunables.fromLines("old.jsonl", lines, HERE, warnings::add));
    assertEquals(
        List.of(
            "ufunc4j: ignoring the tuning profile of another format version: old.jsonl: format"
                + " version 0 is older than version 1, the one this ufunc4j reads; run the tuner"
                + " again; using the default tunables"),
        warnings);
  }

  @Test
  void aProfileWithoutRuntimeRecordsKeepsTheDefaults() {
    TuningProfile p = new TuningProfile(List.of(HERE), List.of());
    List<String> warnings = new ArrayList<>();
    Tunables t = Tunables.fromLines("empty.jsonl", p.toLines(), HERE, warnings::add);
    assertEquals(List.of(), warnings);
    assertEquals(Tunables.DEFAULT_GRAIN, t.grainValue());
    assertEquals("empty.jsonl", t.sourceValue());
  }

  private static void assertDefaults(Tunables t) {
    assertEquals(Tunables.DEFAULT_GRAIN, t.grainValue());
    assertEquals(Runtime.getRuntime().availableProcessors(), t.threadsValue());
    assertEquals("defaults", t.sourceValue());
  }
}
