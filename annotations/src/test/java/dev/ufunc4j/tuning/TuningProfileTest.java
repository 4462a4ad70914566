package dev.ufunc4j.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TuningProfileTest {
  static final Fingerprint HERE =
      new Fingerprint("Test CPU 9000", "avx avx2 fma", 2, 512, "25.0.3+9-LTS", "0.1.0-SNAPSHOT");
  static final Fingerprint THERE =
      new Fingerprint("Other CPU 1", "avx avx2 fma", 8, 256, "25.0.3+9-LTS", "0.1.0-SNAPSHOT");

  static TuningProfile.Timing t(long value, double median) {
    return new TuningProfile.Timing(value, median, median * 0.9, median * 1.2, 5);
  }

  static TuningProfile sample(Fingerprint f) {
    String m = f.id();
    return new TuningProfile(
        List.of(f),
        List.of(
            new TuningProfile.Record(
                "silu",
                "dev.ufunc4j.samples.Activations",
                List.of("float32"),
                "in_cache",
                m,
                "vectorBits",
                256,
                List.of(t(512, 1000), t(256, 800))),
            new TuningProfile.Record(
                "silu",
                "dev.ufunc4j.samples.Activations",
                List.of("float32"),
                "out_of_cache",
                m,
                "vectorBits",
                256,
                List.of(t(512, 5000), t(256, 4900))),
            new TuningProfile.Record(
                "*",
                "*",
                List.of(),
                "1M",
                m,
                "grain",
                32768,
                List.of(t(65536, 200_000), t(32768, 150_000)))));
  }

  @Test
  void writesAndReadsBackTheSameProfile(@TempDir Path dir) throws Exception {
    TuningProfile p = sample(HERE);
    Path file = dir.resolve("tuning.jsonl");
    p.write(file);
    List<String> lines = Files.readAllLines(file);
    assertEquals("{\"format\":\"ufunc4j-tuning\",\"version\":1}", lines.get(0));
    assertTrue(
        lines.get(1).startsWith("{\"machine\":\"" + HERE.id() + "\",\"cpu\":\"Test CPU 9000\""),
        lines.get(1));
    assertEquals(5, lines.size());
    // Records sorted by class, op, dtypes, shape: the runtime-wide one ("*") first.
    assertTrue(lines.get(2).startsWith("{\"op\":\"*\""), lines.get(2));
    TuningProfile back = TuningProfile.read(file);
    assertEquals(p.machines(), back.machines());
    assertEquals(new java.util.HashSet<>(p.records()), new java.util.HashSet<>(back.records()));
    assertEquals(lines, back.toLines()); // stable: writing what was read gives the same bytes
  }

  @Test
  void selectsTheRecordsOfTheMatchingMachine() {
    List<String> lines = new ArrayList<>(sample(THERE).toLines());
    List<String> mine = sample(HERE).toLines();
    lines.addAll(mine.subList(1, mine.size())); // two profiles concatenated: mergeable
    TuningProfile p = TuningProfile.parse("merged", lines);
    assertEquals(2, p.machines().size());
    TuningProfile.Selection s = p.forMachine(HERE);
    assertNull(s.mismatch());
    assertEquals(3, s.records().size());
    assertTrue(s.records().stream().allMatch(r -> r.machine().equals(HERE.id())));
  }

  @Test
  void choosesWhatMostShapeClassesChose() {
    TuningProfile.Selection s = sample(HERE).forMachine(HERE);
    assertEquals(
        256, s.choose("dev.ufunc4j.samples.Activations.silu", List.of("float32"), "vectorBits", 0));
    assertEquals(32768, s.choose("*.*", List.of(), "grain", 65536));
    assertEquals(
        7, s.choose("dev.ufunc4j.samples.Activations.silu", List.of("float64"), "vectorBits", 7));
    String m = HERE.id();
    TuningProfile.Record a256 =
        new TuningProfile.Record(
            "f",
            "C",
            List.of("float32"),
            "a",
            m,
            "vectorBits",
            256,
            List.of(t(512, 1000), t(256, 700), t(128, 900)));
    TuningProfile.Record b512 =
        new TuningProfile.Record(
            "f",
            "C",
            List.of("float32"),
            "b",
            m,
            "vectorBits",
            512,
            List.of(t(512, 1000), t(256, 1500), t(128, 1600)));
    TuningProfile.Record c128 =
        new TuningProfile.Record(
            "f",
            "C",
            List.of("float32"),
            "c",
            m,
            "vectorBits",
            128,
            List.of(t(512, 1000), t(256, 1500), t(128, 800)));
    TuningProfile.Record d256 =
        new TuningProfile.Record(
            "f",
            "C",
            List.of("float32"),
            "d",
            m,
            "vectorBits",
            256,
            List.of(t(512, 1000), t(256, 700), t(128, 900)));
    // A tie between the default and another value: the default.
    assertEquals(
        512,
        new TuningProfile(List.of(HERE), List.of(a256, b512))
            .forMachine(HERE)
            .choose("C.f", List.of("float32"), "vectorBits", 0));
    // A tie without the default: the first record's.
    assertEquals(
        128,
        new TuningProfile(List.of(HERE), List.of(c128, a256))
            .forMachine(HERE)
            .choose("C.f", List.of("float32"), "vectorBits", 0));
    // A majority.
    assertEquals(
        256,
        new TuningProfile(List.of(HERE), List.of(c128, a256, b512, d256))
            .forMachine(HERE)
            .choose("C.f", List.of("float32"), "vectorBits", 0));
  }

  @Test
  void anotherMachineIsAMismatchNamingTheFields() {
    TuningProfile.Selection s = sample(THERE).forMachine(HERE);
    assertTrue(s.records().isEmpty());
    assertTrue(s.mismatch().contains("recorded on another machine"), s.mismatch());
    assertTrue(
        s.mismatch().contains("cpu: recorded 'Other CPU 1', this machine 'Test CPU 9000'"),
        s.mismatch());
    assertTrue(s.mismatch().contains("cores: recorded 8, this machine 2"), s.mismatch());
    assertTrue(s.mismatch().contains("vectorBits: recorded 256, this machine 512"), s.mismatch());
  }

  @Test
  void unknownVectorBitsIsNotCompared() {
    Fingerprint javac =
        new Fingerprint(HERE.cpu(), HERE.flags(), HERE.cores(), 0, HERE.jdk(), HERE.ufunc4j());
    assertNull(sample(HERE).forMachine(javac).mismatch());
    Fingerprint otherJdk =
        new Fingerprint(HERE.cpu(), HERE.flags(), HERE.cores(), 512, "26", HERE.ufunc4j());
    assertEquals(
        List.of("jdk: recorded '25.0.3+9-LTS', this machine '26'"), otherJdk.differencesFrom(HERE));
  }

  @Test
  void anOlderOrNewerFormatIsToldApart() {
    for (int v : new int[] {0, 2}) {
      TuningProfileException e =
          assertThrows(
              TuningProfileException.class,
              () ->
                  TuningProfile.parse(
                      "old.jsonl",
                      List.of("{\"format\":\"ufunc4j-tuning\",\"version\":" + v + "}")));
      assertTrue(e.otherVersion());
      assertTrue(
          e.getMessage()
              .startsWith(
                  "old.jsonl: format version "
                      + v
                      + " is "
                      + (v == 0 ? "older" : "newer")
                      + " than version 1"),
          e.getMessage());
    }
  }

  @Test
  void corruptProfilesAreRefusedNamingTheLine() {
    List<String> good = sample(HERE).toLines();
    String machine = good.get(1);
    String record = good.get(3);
    Object[][] cases = {
      {List.of(), "empty: no header line"},
      {List.of("not json"), "bad:1: not JSON: column 1"},
      {List.of("[1]"), "bad:1: not JSON: a line must be a JSON object"},
      {List.of("{\"format\":\"other\",\"version\":1}"), "bad:1: the first line must be the header"},
      {
        List.of(good.get(0), record),
        "bad:2: machine '" + HERE.id() + "' is not listed on a line above"
      },
      {
        List.of(good.get(0), machine.replace("\"cores\":2", "\"cores\":3")),
        "bad:2: machine id '" + HERE.id() + "' is not the hash of its fields"
      },
      {
        List.of(
            good.get(0), machine, record.replace("\"knob\":\"vectorBits\"", "\"knob\":\"unroll\"")),
        "bad:3: unknown knob 'unroll'"
      },
      {
        List.of(good.get(0), machine, record.replace("\"chosen\":256", "\"chosen\":128")),
        "bad:3: chosen vectorBits 128 is none of the candidates"
      },
      {
        List.of(good.get(0), machine, record.replace("\"shape\":", "\"shapes\":")),
        "bad:3: record lacks \"shape\""
      },
      {
        List.of(good.get(0), machine, record.replace("\"chosen\":256", "\"chosen\":\"256\"")),
        "bad:3: \"chosen\" must be an integer, found 256"
      },
      {
        List.of(good.get(0), machine, record.substring(0, record.length() / 2)),
        "bad:3: not JSON: column"
      },
      {
        List.of(good.get(0), machine, record.replace("\"min_ns\":900", "\"min_ns\":9000")),
        "bad:3: candidate 512: needs min_ns <= median_ns <= max_ns"
      },
    };
    for (Object[] c : cases) {
      @SuppressWarnings("unchecked")
      List<String> lines = (List<String>) c[0];
      TuningProfileException e =
          assertThrows(
              TuningProfileException.class,
              () -> TuningProfile.parse("bad", lines),
              lines.toString());
      assertFalse(e.otherVersion());
      assertTrue(e.getMessage().contains((String) c[1]), c[1] + " <- " + e.getMessage());
    }
  }

  @Test
  void simdFlagsKeepOnlyVectorFeatures() {
    assertEquals(
        "avx avx2 avx512f fma sse4_2",
        Fingerprint.simdFlags("fpu vme avx2 sse4_2 fma avx512f ht avx"));
    Fingerprint f = Fingerprint.current(0);
    assertEquals(Runtime.getRuntime().availableProcessors(), f.cores());
    assertEquals(Runtime.version().toString(), f.jdk());
    assertFalse(f.ufunc4j().contains("${"), f.ufunc4j());
    assertEquals(12, f.id().length());
  }

  // Issue 23, item 9: a profile is small and read only from a regular file.

  @Test
  void aFileLargerThanAProfileIsRefusedWithItsSize(@TempDir Path dir) throws Exception {
    Path big = dir.resolve("big.jsonl");
    Files.write(big, new byte[TuningProfile.MAX_BYTES + 5]);
    TuningProfileException e =
        assertThrows(TuningProfileException.class, () -> TuningProfile.read(big));
    assertEquals(big + ": 4194309 bytes, larger than a tuning profile may be (4194304 bytes)",
        e.getMessage());
  }

  @Test
  void anEndlessStreamIsReadNoFurtherThanTheLimit() {
    long[] read = new long[1];
    java.io.InputStream endless = new java.io.InputStream() {
      @Override
      public int read() {
        read[0]++;
        return '{';
      }

      @Override
      public int read(byte[] b, int off, int len) {
        java.util.Arrays.fill(b, off, off + len, (byte) '{');
        read[0] += len;
        return len;
      }
    };
    TuningProfileException e = assertThrows(TuningProfileException.class,
        () -> TuningProfile.readLines("endless", endless));
    assertEquals("endless: more than 4194304 bytes, larger than a tuning profile may be (4194304"
        + " bytes)", e.getMessage());
    assertEquals(TuningProfile.MAX_BYTES + 1, read[0]);
  }

  @Test
  void aDirectoryOrAFifoIsRefusedWithoutOpeningIt(@TempDir Path dir) throws Exception {
    TuningProfileException e =
        assertThrows(TuningProfileException.class, () -> TuningProfile.read(dir));
    assertEquals(dir + ": not a regular file (a directory); a tuning profile is read only from a"
        + " regular file", e.getMessage());
    Path fifo = dir.resolve("fifo.jsonl");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
    org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "no mkfifo here");
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
        () -> {
          TuningProfileException f =
              assertThrows(TuningProfileException.class, () -> TuningProfile.read(fifo));
          assertEquals(fifo + ": not a regular file (a FIFO, device or socket); a tuning profile"
              + " is read only from a regular file", f.getMessage());
        });
  }

  @Test
  void aProfileOfTheLimitIsReadAndItsLinesSplitAsBefore(@TempDir Path dir) throws Exception {
    TuningProfile p = new TuningProfile(List.of(), List.of());
    String header = p.toLines().get(0);
    StringBuilder text = new StringBuilder(header).append("\r\n\r");
    while (text.length() < TuningProfile.MAX_BYTES - 1) {
      text.append(' ');
    }
    text.append('\n');
    Path file = dir.resolve("limit.jsonl");
    Files.writeString(file, text);
    assertEquals(TuningProfile.MAX_BYTES, Files.size(file));
    assertEquals(p, TuningProfile.read(file));
  }
}
