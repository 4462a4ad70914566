package dev.ufunc4j.internal;

import dev.ufunc4j.internal.parallel.Parallel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.tuning.Fingerprint;
import dev.ufunc4j.tuning.TuningProfile;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every way to set a grain (issue 23, item 2) over the edge values: {@link Parallel#setGrainSize},
 * {@code -Dufunc4j.grain} (in a child JVM), a profile's runtime-wide and per-op records. A grain
 * from 1 to 2^48 is taken and the ops' results equal the scalar arithmetic;
 * any other is refused with its value named (the setter throws; the property and the profile give
 * one warning and the defaults), and the results are still right. A grain of 2^62 used to wrap
 * {@code 2 * grain} negative: every op split into no pieces and wrote nothing.
 */
class GrainRangeTest {
  private static final Fingerprint HERE = Tunables.fingerprint();
  private static final long TWO_31 = 1L << 31;
  /** {@code Tunables.MAX_GRAIN}, as documented (docs/tuning.md, "Ranges"). */
  static final long MAX_GRAIN = 1L << 48;
  static final List<Long> TAKEN = List.of(1L, TWO_31 - 1, TWO_31, MAX_GRAIN);
  static final List<Long> REFUSED =
      List.of(0L, -1L, Long.MIN_VALUE, MAX_GRAIN + 1, 1L << 62, Long.MAX_VALUE);

  @Test
  void theSetterTakesEveryGrainInRangeAndRefusesTheRest() {
    // The setters change the current context: this test's own, dropped at the end.
    try (var _ = RuntimeContext.use(RuntimeContext.builder().threads(2).build())) {
      for (long g : TAKEN) {
        Parallel.setGrainSize(g);
        assertEquals(g, Parallel.grainSize());
        assertEquals("ok", TunablesProbe.check(), "grain " + g);
      }
      Parallel.setGrainSize(1);
      for (long g : REFUSED) {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> Parallel.setGrainSize(g));
        assertEquals("grain size must be from 1 to 281474976710656 elements, got " + g,
            e.getMessage());
        assertEquals(1, Parallel.grainSize(), "a refused grain is not taken");
        assertEquals("ok", TunablesProbe.check(), "after refusing grain " + g);
      }
      for (int t : new int[] {0, -1, 4097, Integer.MAX_VALUE}) {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> Parallel.setThreads(t));
        assertEquals("thread count must be from 1 to 4096, got " + t, e.getMessage());
      }
      assertEquals(2, Parallel.threads());
    }
  }

  private static TuningProfile.Record record(String op, String cls, List<String> dtypes,
      String knob, long chosen) {
    return new TuningProfile.Record(op, cls, dtypes, "split_64K-512K", HERE.id(), knob, chosen,
        List.of(new TuningProfile.Timing(Tunables.DEFAULT_GRAIN, 300_000, 250_000, 400_000, 9),
            new TuningProfile.Timing(chosen, 200_000, 180_000, 260_000, 9)));
  }

  @Test
  void profileGrainsInRangeAreTakenAndTheRestWarnOnce() {
    for (boolean perOp : new boolean[] {false, true}) {
      for (long g : concat(TAKEN, REFUSED)) {
        TuningProfile.Record r = perOp
            ? record("add", "dev.ufunc4j.Builtins", List.of("float32", "float32"), "grain", g)
            : record("*", "*", List.of(), "grain", g);
        List<String> warnings = new ArrayList<>();
        Tunables t = Tunables.fromLines("p.jsonl",
            new TuningProfile(List.of(HERE), List.of(r)).toLines(), HERE, warnings::add,
            note -> { }, op -> true);
        String what = (perOp ? "per-op" : "runtime-wide") + " grain " + g;
        if (TAKEN.contains(g)) {
          assertEquals(List.of(), warnings, what);
          assertEquals(g, perOp ? t.opGrainsValue().get(
              "dev.ufunc4j.Builtins.add(float32,float32)") : t.grainValue(), what);
        } else {
          assertEquals(1, warnings.size(), what + ": " + warnings);
          assertTrue(warnings.get(0).contains("it chose grain " + g), warnings.get(0));
          assertEquals(Tunables.DEFAULT_GRAIN, t.grainValue(), what);
          assertEquals(java.util.Map.of(), t.opGrainsValue(), what);
        }
        try (var _ = RuntimeContext.use(RuntimeContext.builder().tunables(t).threads(2).build())) {
          assertEquals("ok", TunablesProbe.check(), what);
        }
      }
    }
  }

  private static List<Long> concat(List<Long> a, List<Long> b) {
    List<Long> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  @Test
  @Tag("slow") // child JVMs
  void theGrainPropertyInRangeIsTakenAndTheRestWarnOnce() throws Exception {
    List<String> values = new ArrayList<>();
    for (long g : concat(TAKEN, REFUSED)) {
      values.add(Long.toString(g));
    }
    values.add("lots");
    for (String g : values) {
      String out = TunablesProbe.run(120, "-Dufunc4j.grain=" + g, "-Dufunc4j.threads=2");
      assertTrue(out.contains("result=ok"), "-Dufunc4j.grain=" + g + ":\n" + out);
      boolean taken = TAKEN.stream().anyMatch(t -> Long.toString(t).equals(g));
      if (taken) {
        assertEquals(0, TunablesProbe.warnings(out), out);
        assertTrue(out.contains("grain=" + g + " threads=2"), out);
      } else {
        assertEquals(1, TunablesProbe.warnings(out), out);
        assertTrue(out.contains("WARNING: ufunc4j: ignoring -Dufunc4j.grain=" + g
            + ": it must be an integer from 1 to 281474976710656; using the default"), out);
        assertTrue(out.contains("grain=" + Tunables.DEFAULT_GRAIN + " threads=2"), out);
      }
    }
  }

  @Test
  @Tag("slow") // child JVMs
  void theOtherParallelPropertiesAreRangeChecked() throws Exception {
    for (String[] bad : new String[][] {{"threads", "0"}, {"threads", "5000"},
        {"threads", "two"}, {"piecesPerThread", "0"}, {"spinMicros", "-1"},
        {"spinMicros", "9223372036854775807"}, {"tileCols", "0"}, {"tileRowBytes", "-8"}}) {
      String out = TunablesProbe.run(120, "-Dufunc4j." + bad[0] + "=" + bad[1], "-Dufunc4j.grain=1");
      assertTrue(out.contains("result=ok"), bad[0] + "=" + bad[1] + ":\n" + out);
      assertEquals(1, TunablesProbe.warnings(out), out);
      assertTrue(out.contains("ignoring -Dufunc4j." + bad[0] + "=" + bad[1]), out);
    }
  }
}
