package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.elements.Convert;
import dev.ufunc4j.internal.elements.Elements;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** {@link Tensor#to} against real PyTorch {@code .to()} (golden/casts.json, gen_casts.py). */
class CastGoldenTest {

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> cases() {
    Map<String, Object> root = (Map<String, Object>) Json.resource("/golden/casts.json");
    return (List<Map<String, Object>>) root.get("cases");
  }

  @TestFactory
  Stream<DynamicTest> everyDtypePairMatchesPyTorch() {
    return cases().stream()
        .map(c -> DynamicTest.dynamicTest(c.get("from") + " -> " + c.get("to"), () -> check(c)));
  }

  @SuppressWarnings("unchecked")
  private static void check(Map<String, Object> c) {
    DType from = DType.fromName((String) c.get("from"));
    DType to = DType.fromName((String) c.get("to"));
    List<String> in = (List<String>) c.get("in");
    assertTrue(!c.containsKey("error"), "PyTorch refused " + from + " -> " + to);
    List<String> out = (List<String>) c.get("out");
    Set<Long> undefined = new HashSet<>();
    for (Object o : (List<Object>) c.getOrDefault("undefined", List.of())) {
      undefined.add((Long) o);
    }
    Tensor src = fromBits(from, in);
    Tensor dst = src.to(to);
    List<String> mismatches = new ArrayList<>();
    for (int i = 0; i < in.size(); i++) {
      if (undefined.contains((long) i)) {
        continue;
      }
      String got = bitsAt(dst, i);
      String want = out.get(i);
      if (!got.equals(want) && !(bothNaN(to, got, want))) {
        mismatches.add("[" + i + "] in=" + in.get(i) + " want=" + want + " got=" + got);
      }
    }
    assertTrue(mismatches.isEmpty(), from + " -> " + to + ": " + mismatches);
  }

  /** The documented rule for results PyTorch leaves platform-defined (Convert's class comment). */
  @Test
  void undefinedFloatToIntegerFollowsJavaCasts() {
    assertEquals(0, Convert.fromDouble(DType.INT32, Double.NaN));
    assertEquals(Integer.MAX_VALUE, Convert.fromDouble(DType.INT32, 3e9));
    assertEquals(Integer.MIN_VALUE, Convert.fromDouble(DType.INT32, Double.NEGATIVE_INFINITY));
    assertEquals(Long.MAX_VALUE, Convert.fromDouble(DType.INT64, 1e20));
    assertEquals(0, Convert.fromDouble(DType.INT64, Double.NaN));
    assertEquals(44, Convert.fromDouble(DType.UINT8, 300.7)); // in int32 range: wraps
    assertEquals(255, Convert.fromDouble(DType.UINT8, 1e20)); // saturates to int32, then wraps
    assertEquals(-1, Convert.fromDouble(DType.INT8, 1e20));
    assertEquals(0xFFFF_FFFFL, Convert.fromDouble(DType.UINT32, 1e20));
    assertEquals(0, Convert.fromDouble(DType.UINT32, 4294967296.0));
    assertEquals(-1L, Convert.fromDouble(DType.UINT64, 1e20)); // 2^64 - 1
    assertEquals(-1L, Convert.fromDouble(DType.UINT64, -1.0)); // as PyTorch
    assertEquals(Long.MIN_VALUE, Convert.fromDouble(DType.UINT64, 0x1p63));
    assertEquals(0, Convert.fromDouble(DType.UINT64, Double.NaN));
    // The same rule applies through Tensor.to and to the real part of complex values.
    Tensor t = Tensor.of(new double[] {Double.NaN, 1e10, -1e10}).to(DType.INT32);
    assertEquals("tensor([          0,  2147483647, -2147483648], dtype=torch.int32)", t.toString());
    assertEquals(0, Tensor.scalarComplex(Double.NaN, 1, DType.COMPLEX64).to(DType.INT16).getLong());
  }

  private static boolean bothNaN(DType to, String got, String want) {
    if (to.isComplex()) {
      String[] g = got.split(":");
      String[] w = want.split(":");
      DType c = to.componentType();
      return (g[0].equals(w[0]) || (isNaN(c, g[0]) && isNaN(c, w[0])))
          && (g[1].equals(w[1]) || (isNaN(c, g[1]) && isNaN(c, w[1])));
    }
    return to.isFloatingPoint() && isNaN(to, got) && isNaN(to, want);
  }

  private static boolean isNaN(DType t, String hex) {
    return Double.isNaN(Convert.toDouble(t, Long.parseUnsignedLong(hex, 16)));
  }

  /** A 1-D tensor of {@code dtype} holding exactly the given bit patterns. */
  static Tensor fromBits(DType dtype, List<String> hex) {
    Tensor t = Tensor.zeros(dtype, hex.size());
    for (int i = 0; i < hex.size(); i++) {
      long at = (long) i * dtype.byteSize();
      if (dtype.isComplex()) {
        String[] parts = hex.get(i).split(":");
        DType c = dtype.componentType();
        Elements.write(t.segment(), c, at, Long.parseUnsignedLong(parts[0], 16));
        Elements.write(t.segment(), c, at + c.byteSize(), Long.parseUnsignedLong(parts[1], 16));
      } else {
        Elements.write(t.segment(), dtype, at, Long.parseUnsignedLong(hex.get(i), 16));
      }
    }
    return t;
  }

  static String bitsAt(Tensor t, long i) {
    DType d = t.dtype();
    long at = (t.offset() + i * t.strides()[0]) * d.byteSize();
    if (d.isComplex()) {
      DType c = d.componentType();
      return hex(c, Elements.read(t.segment(), c, at)) + ":"
          + hex(c, Elements.read(t.segment(), c, at + c.byteSize()));
    }
    return hex(d, Elements.read(t.segment(), d, at));
  }

  private static String hex(DType d, long bits) {
    int digits = 2 * d.byteSize();
    long masked = digits == 16 ? bits : bits & ((1L << (8 * d.byteSize())) - 1);
    String h = Long.toHexString(masked);
    return "0".repeat(Math.max(0, digits - h.length())) + h;
  }
}
