package dev.ufunc4j.samples;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.google.testing.compile.Compilation;
import dev.ufunc4j.tuning.Fingerprint;
import dev.ufunc4j.tuning.TuningProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.Diagnostic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor's {@code -Aufunc4j.tuning}: a profile of this machine changes the chosen kernel
 * classes and nothing else, the same way every time; a profile it cannot use (another machine, an
 * older format, a corrupt file) gives one warning and the untuned output; records of an op the
 * class no longer declares get a note. (The tuned golden itself: {@code
 * GoldenSourcesTest.tunedVectorSize}.)
 */
class TunedCompileTest {
  private static final String DTYPES = "float32,float64";

  /**
   * A profile of this machine choosing {@code bits} for {@code op} of golden.Ops on {@code dtype}.
   */
  static Path profile(Path dir, String op, String dtype, long bits) throws IOException {
    return write(dir, Fingerprint.current(512), op, bits, dtype);
  }

  private static Path write(Path dir, Fingerprint machine, String op, long bits, String dtype)
      throws IOException {
    Path file = Files.createTempFile(dir, "tuning", ".jsonl");
    new TuningProfile(
            List.of(machine),
            List.of(
                new TuningProfile.Record(
                    op,
                    "golden.Ops",
                    List.of(dtype),
                    "in_cache",
                    machine.id(),
                    "vectorBits",
                    bits,
                    List.of(
                        new TuningProfile.Timing(512, 1000, 900, 1100, 7),
                        new TuningProfile.Timing(256, bits == 512 ? 1200 : 800, 700, 1300, 7)))))
        .write(file);
    return file;
  }

  private static Compilation compile(Path profile) {
    List<String> options = profile == null ? List.of() : List.of("-Aufunc4j.tuning=" + profile);
    return GoldenSourcesTest.compile(DTYPES, "", GoldenSourcesTest.SILU, options);
  }

  private static List<String> warnings(Compilation c) {
    List<String> w = new ArrayList<>();
    for (Diagnostic<?> d : c.warnings()) {
      w.add(d.getMessage(null));
    }
    return w;
  }

  @Test
  void aProfileChangesOnlyTheChosenClassAndIsDeterministic(@TempDir Path dir) throws IOException {
    Map<String, String> untuned = GoldenSourcesTest.outputs(compile(null));
    Path profile = profile(dir, "silu", "float32", 256);
    Compilation first = compile(profile);
    assertThat(first).succeededWithoutWarnings();
    Map<String, String> tuned = GoldenSourcesTest.outputs(first);
    assertEquals(untuned.keySet(), tuned.keySet());
    for (String file : untuned.keySet()) {
      if (file.equals("golden/Ops_silu_w32.java")) {
        assertNotEquals(untuned.get(file), tuned.get(file));
        assertThat(tuned.get(file))
            .contains("LANES = Math.min(VectorShape.preferredShape().vectorBitSize(), 256) / 32;");
      } else {
        assertEquals(untuned.get(file), tuned.get(file), file);
      }
    }
    assertEquals(tuned, GoldenSourcesTest.outputs(compile(profile)));
    // A record that chose the default changes nothing.
    assertEquals(untuned, GoldenSourcesTest.outputs(compile(profile(dir, "silu", "float32", 512))));
  }

  @Test
  void anotherMachinesProfileWarnsOnceAndChangesNothing(@TempDir Path dir) throws IOException {
    Fingerprint here = Fingerprint.current(512);
    Fingerprint other =
        new Fingerprint(
            "Another CPU", here.flags(), here.cores() + 2, 256, here.jdk(), here.ufunc4j());
    Path profile = write(dir, other, "silu", 256, "float32");
    Compilation c = compile(profile);
    assertThat(c).succeeded();
    List<String> w = warnings(c);
    assertEquals(1, w.size(), w.toString());
    assertThat(w.get(0))
        .startsWith(
            "ufunc4j: ignoring the tuning profile "
                + profile
                + ": it was recorded on another machine: machine "
                + other.id()
                + " (cpu: recorded"
                + " 'Another CPU', this machine '"
                + here.cpu()
                + "'; cores: recorded "
                + (here.cores() + 2)
                + ", this machine "
                + here.cores()
                + ")");
    assertThat(w.get(0)).endsWith("generating the default kernels (run the tuner on this machine)");
    assertEquals(GoldenSourcesTest.outputs(compile(null)), GoldenSourcesTest.outputs(c));
  }

  @Test
  void aCorruptOrOlderProfileWarnsOnceAndChangesNothing(@TempDir Path dir) throws IOException {
    Map<String, String> untuned = GoldenSourcesTest.outputs(compile(null));
    Path profile = profile(dir, "silu", "float32", 256);
    List<String> lines = new ArrayList<>(Files.readAllLines(profile));
    Path corrupt = dir.resolve("corrupt.jsonl");
    Files.write(
        corrupt,
        List.of(lines.get(0), lines.get(1), lines.get(2).replace("\"chosen\":256", "\"chosen\":")));
    Path old = dir.resolve("old.jsonl");
    lines.set(0, "{\"format\":\"ufunc4j-tuning\",\"version\":0}");
    Files.write(old, lines);
    Path missing = dir.resolve("missing.jsonl");
    String[][] cases = {
      {
        corrupt.toString(),
        "ufunc4j: ignoring the tuning profile that cannot be read: "
            + corrupt
            + ":3: not JSON: column "
      },
      {
        old.toString(),
        "ufunc4j: ignoring the tuning profile of another format version: "
            + old
            + ": format version 0 is older than version 1"
      },
      {
        missing.toString(),
        "ufunc4j: ignoring the tuning profile that cannot be read: "
            + missing
            + ": cannot read the tuning profile"
      },
    };
    for (String[] k : cases) {
      Compilation c = compile(Path.of(k[0]));
      assertThat(c).succeeded();
      List<String> w = warnings(c);
      assertEquals(1, w.size(), w.toString());
      assertThat(w.get(0)).startsWith(k[1]);
      assertEquals(untuned, GoldenSourcesTest.outputs(c));
    }
  }

  @Test
  void recordsOfAnOpNoLongerDeclaredGetANote(@TempDir Path dir) throws IOException {
    Path profile = profile(dir, "swish", "float32", 256);
    Compilation c = compile(profile);
    assertThat(c).succeededWithoutWarnings();
    assertThat(c)
        .hadNoteContaining(
            "ufunc4j: the tuning profile's records for op 'swish' are"
                + " ignored: golden.Ops declares no such op");
    assertEquals(GoldenSourcesTest.outputs(compile(null)), GoldenSourcesTest.outputs(c));
  }
}
