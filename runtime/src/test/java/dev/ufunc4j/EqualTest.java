package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link Tensor#equal} against {@code torch.equal} (golden/equal.json, made by
 * tools/oracle/gen_equal.py): equal shapes and every pair of elements equal in the operands'
 * common dtype (issue 12, item 10). Also its layouts, and that it stays fast on large tensors.
 */
class EqualTest {

  @SuppressWarnings("unchecked")
  @TestFactory
  Stream<DynamicTest> equalsLikeTorch() {
    Map<String, Object> root = (Map<String, Object>) Json.resource("/golden/equal.json");
    Map<String, Tensor> vectors = new LinkedHashMap<>();
    ((Map<String, Object>) root.get("vectors"))
        .forEach((name, spec) -> vectors.put(name, GoldenTensors.tensor(spec)));
    return ((List<Map<String, Object>>) root.get("cases"))
        .stream()
        .map(
            c -> {
              Tensor a = vectors.get((String) c.get("a"));
              Tensor b = vectors.get((String) c.get("b"));
              String name = c.get("a") + " vs " + c.get("b") + " (" + c.get("source")
                  + (c.containsKey("common") ? ", in " + c.get("common") : "") + ")";
              return DynamicTest.dynamicTest(name, () -> check(c, a, b, name));
            });
  }

  @SuppressWarnings("unchecked")
  private static void check(Map<String, Object> c, Tensor a, Tensor b, String name) {
    if (c.containsKey("error")) {
      // torch: "Promotion for Float8 Types is not supported ..."; ours names the dtypes too.
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.equal(b));
      assertTrue(e.getMessage().contains(a.dtype().toString()), e.getMessage());
      return;
    }
    List<Boolean> same = (List<Boolean>) c.get("same");
    List<Boolean> next = (List<Boolean>) c.get("next");
    for (int i = 0; i < same.size(); i++) {
      assertEquals(same.get(i), element(a, i).equal(element(b, i)), name + " at " + i);
    }
    for (int i = 0; i < next.size(); i++) {
      assertEquals(next.get(i), element(a, i).equal(element(b, i + 1)), name + " at " + i + "/+1");
    }
    boolean whole = (Boolean) c.get("whole");
    assertEquals(whole, a.equal(b), name + " whole");
    // The same elements through other layouts: transposed, and a zero-dim element.
    assertEquals(whole, a.view(4, 4).t().equal(b.view(4, 4).t()), name + " transposed");
    assertEquals(same.get(2), a.select(0, 2).equal(b.select(0, 2)), name + " zero-dim");
  }

  private static Tensor element(Tensor t, int i) {
    return t.slice(0, i, i + 1, 1);
  }

  @Test
  void shapesMustBeEqualNotBroadcastable() {
    Tensor v = Tensor.of(new int[] {1, 1});
    assertFalse(v.equal(Tensor.of(new int[] {1})));
    assertFalse(v.equal(Tensor.of(new int[] {1, 1}, 1, 2)));
    assertFalse(Tensor.of(new int[] {1}).equal(Tensor.scalar(1)));
    assertTrue(Tensor.zeros(DType.INT8, 0, 3).equal(Tensor.zeros(DType.FLOAT64, 0, 3)));
    assertFalse(Tensor.zeros(DType.INT8, 0, 3).equal(Tensor.zeros(DType.INT8, 3, 0)));
    assertThrows(IllegalArgumentException.class, () -> v.equal(null));
  }

  @Test
  void layoutsDoNotMatter() {
    Tensor a = Tensor.rand(3, DType.FLOAT32, 37, 41);
    assertTrue(a.t().equal(a.t().contiguous()));
    assertTrue(a.t().contiguous().equal(a.t()));
    assertTrue(a.slice(1, 1, 41, 3).equal(a.slice(1, 1, 41, 3).contiguous()));
    Tensor row = Tensor.of(new double[] {1, 2, 3});
    assertTrue(row.expand(1000, 3).equal(Tensor.of(new float[] {1, 2, 3}).expand(1000, 3)));
    Tensor changed = a.copy();
    changed.setDouble(-1, 36, 40);
    assertFalse(a.equal(changed));
    assertFalse(a.to(DType.FLOAT64).equal(changed));
  }

  @Test
  void nanEqualsNothingNotEvenItself() {
    Tensor n = Tensor.of(new float[] {1, Float.NaN});
    assertFalse(n.equal(n));
    assertTrue(Tensor.of(new float[] {-0.0f}).equal(Tensor.of(new double[] {0.0})));
    Tensor cn = Tensor.ofComplex(new double[] {1, Double.NaN});
    assertFalse(cn.equal(cn));
  }

  /**
   * 16 M float32 elements compare about as fast as a plain loop reading both (it took 1.7 s and
   * 513 MiB through complex128 copies, about 100 times that loop). Timed against that loop in the
   * same rounds, best of three, so a loaded machine slows both alike.
   */
  @Test
  @Tag("slow") // timing
  void largeTensorsCompareWithoutConvertedCopies() {
    try (var _ = TensorScope.open()) {
      Tensor a = Tensor.rand(1, DType.FLOAT32, 1 << 24);
      Tensor b = a.copy();
      Tensor c = a.to(DType.FLOAT64);
      assertTrue(a.equal(b) && a.equal(c) && scan(a, b) == 0); // warm-up
      long equal = Long.MAX_VALUE;
      long loop = Long.MAX_VALUE;
      for (int round = 0; round < 3; round++) {
        long t0 = System.nanoTime();
        assertTrue(a.equal(b));
        assertTrue(a.equal(c));
        long t1 = System.nanoTime();
        assertEquals(0, scan(a, b));
        assertEquals(0, scan(a, b));
        long t2 = System.nanoTime();
        equal = Math.min(equal, t1 - t0);
        loop = Math.min(loop, t2 - t1);
      }
      assertTrue(
          equal < 10 * loop + 20_000_000L,
          "two 16 M-element equal() calls took " + equal / 1e6 + " ms, two plain loops over the"
              + " same elements " + loop / 1e6 + " ms");
    }
  }

  /** Unequal float32 pairs of two contiguous tensors, counted by the plainest loop. */
  private static long scan(Tensor x, Tensor y) {
    MemorySegment p = x.segment();
    MemorySegment q = y.segment();
    long unequal = 0;
    for (long i = 0; i < x.numel(); i++) {
      if (p.getAtIndex(ValueLayout.JAVA_FLOAT, i) != q.getAtIndex(ValueLayout.JAVA_FLOAT, i)) {
        unequal++;
      }
    }
    return unequal;
  }
}
