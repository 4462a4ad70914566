package dev.ufunc4j.internal;

import dev.ufunc4j.internal.parallel.Parallel;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Ops;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.tuning.Fingerprint;
import dev.ufunc4j.tuning.TuningProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Per-op grain records (docs/tuning.md): read per op and dtypes, dropped with a note when the op is
 * gone, refused with one warning when corrupt, and used by the dispatcher: an op with a per-op
 * grain splits at twice that grain, observed by {@link Parallel#splits} (no timing).
 */
class PerOpGrainTest {
  private static final Fingerprint HERE = Tunables.fingerprint();
  private static final String BUILTINS = "dev.ufunc4j.Builtins";
  private static final List<String> F32_F32 = List.of("float32", "float32");

  private static TuningProfile.Record grain(
      String op, String declaringClass, List<String> dtypes, long chosen) {
    return new TuningProfile.Record(
        op,
        declaringClass,
        dtypes,
        "split_64K-512K",
        HERE.id(),
        "grain",
        chosen,
        List.of(
            new TuningProfile.Timing(Tunables.DEFAULT_GRAIN, 300_000, 250_000, 400_000, 9),
            new TuningProfile.Timing(chosen, 200_000, 180_000, 260_000, 9)));
  }

  private static List<String> lines(TuningProfile.Record... records) {
    return new TuningProfile(List.of(HERE), List.of(records)).toLines();
  }

  @Test
  void perOpRecordsGiveThatOpsGrainAndLeaveTheRuntimeWideOne() {
    List<String> warnings = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    Tunables t =
        Tunables.fromLines(
            "ops.jsonl",
            lines(
                grain("mul", BUILTINS, F32_F32, 32768),
                grain("mul", BUILTINS, List.of("float64", "float64"), 65536)),
            HERE,
            warnings::add,
            notes::add,
            op -> true);
    assertEquals(List.of(), warnings);
    assertEquals(List.of(), notes);
    assertEquals(Tunables.DEFAULT_GRAIN, t.grainValue());
    assertEquals(
        Map.of(
            BUILTINS + ".mul(float32,float32)", 32768L,
            BUILTINS + ".mul(float64,float64)", 65536L),
        t.opGrainsValue());
  }

  @Test
  void recordsOfAnOpThatNoLongerExistsAreIgnoredWithANote() {
    List<String> warnings = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    Set<String> onClassPath = Set.of(BUILTINS + ".mul");
    Tunables t =
        Tunables.fromLines(
            "ops.jsonl",
            lines(
                grain("mul", BUILTINS, F32_F32, 32768),
                grain("swish", "golden.Ops", List.of("float32"), 32768),
                grain("swish", "golden.Ops", List.of("float64"), 65536)),
            HERE,
            warnings::add,
            notes::add,
            onClassPath::contains);
    assertEquals(List.of(), warnings);
    assertEquals(
        List.of(
            "ufunc4j: the tuning profile's grain records for op 'swish' are ignored: no golden.Ops"
                + " on the class path declares it"),
        notes);
    assertEquals(Map.of(BUILTINS + ".mul(float32,float32)", 32768L), t.opGrainsValue());
    assertEquals("ops.jsonl", t.sourceValue());
  }

  @Test
  void aCorruptPerOpRecordWarnsOnceAndGivesTheDefaults() {
    List<String> truncated =
        new ArrayList<>(lines(grain("mul", BUILTINS, F32_F32, 32768), grain("sub", BUILTINS, F32_F32, 65536)));
    truncated.set(3, truncated.get(3).substring(0, 50));
    List<String> warnings = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    Tunables t =
        Tunables.fromLines("bad.jsonl", truncated, HERE, warnings::add, notes::add, op -> true);
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(
        warnings.get(0).startsWith("ufunc4j: ignoring the tuning profile that cannot be read: bad.jsonl:4: not JSON: "),
        warnings.get(0));
    assertEquals(Map.of(), t.opGrainsValue());
    assertEquals("defaults", t.sourceValue());

    // A grain of 0 parses (it is one of the record's candidates) but cannot be used.
    warnings.clear();
    t =
        Tunables.fromLines(
            "zero.jsonl",
            lines(grain("mul", BUILTINS, F32_F32, 0)),
            HERE,
            warnings::add,
            notes::add,
            op -> true);
    assertEquals(
        List.of(
            "ufunc4j: ignoring the tuning profile zero.jsonl: it chose grain 0 for op "
                + BUILTINS
                + ".mul(float32,float32), which must be from 1 to 281474976710656; using the default"
                + " tunables"),
        warnings);
    assertEquals(Map.of(), t.opGrainsValue());
    assertEquals(List.of(), notes);
  }

  @Test
  void anOpWithAPerOpGrainSplitsAtTwiceThatGrain() {
    Tunables t =
        Tunables.fromLines(
            "ops.jsonl",
            lines(grain("mul", BUILTINS, F32_F32, 1024)),
            HERE,
            w -> {
              throw new AssertionError(w);
            },
            n -> {
              throw new AssertionError(n);
            },
            op -> true);
    try (var _ = RuntimeContext.use(RuntimeContext.builder().tunables(t).threads(2).build())) {
      assertTrue(Parallel.grainSize() >= 4096, "the runtime-wide grain does not split 4096");
      Tensor a = Tensor.randn(1, DType.FLOAT32, 4096);
      Tensor b = Tensor.randn(2, DType.FLOAT32, 4096);
      float[] x = a.toFloatArray();
      float[] y = b.toFloatArray();
      float[] product = new float[4096];
      for (int i = 0; i < product.length; i++) {
        product[i] = x[i] * y[i];
      }

      // 4096 elements >= 2 x 1024: mul splits (one contiguous row, and a broadcast plan).
      long s0 = Parallel.splits();
      assertArrayEquals(product, Ops.mul(a, b).toFloatArray());
      assertEquals(s0 + 1, Parallel.splits(), "mul of 4096 floats on its grain of 1024");
      Tensor rows = Ops.mul(a.reshape(64, 64), b.reshape(64, 64).narrow(0, 0, 1));
      assertEquals(s0 + 2, Parallel.splits(), "a broadcast mul of 4096 floats");
      assertEquals(64 * 64, rows.numel());

      // Below twice the grain it stays on the caller's thread; add has no per-op grain.
      long s1 = Parallel.splits();
      Ops.mul(a.narrow(0, 0, 2047), b.narrow(0, 0, 2047));
      Ops.add(a, b);
      Ops.mul(a.to(DType.FLOAT64), b.to(DType.FLOAT64)); // float64: no record
      assertEquals(s1, Parallel.splits());

      // An explicit grain (setGrainSize, as -Dufunc4j.grain) replaces the per-op ones.
      try (var _ = RuntimeContext.use(
          RuntimeContext.builder().grain(Tunables.DEFAULT_GRAIN).build())) {
        Ops.mul(a, b);
      }
      assertEquals(s1, Parallel.splits());
    }
  }
}
