package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.fail;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.elements.Elements;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Builds tensors and scalars from the golden JSON of {@code tools/oracle/gen_elementwise.py} and
 * compares results with them (format: {@code docs/golden-format.md}). Elements travel as raw bit
 * patterns, so NaN payloads, -0.0 and float16 ties survive exactly.
 *
 * <p>Public because {@code generated-samples} reads its own golden files with it, through the
 * runtime's test-jar (the one place that decodes the format).
 */
public final class GoldenTensors {
  private GoldenTensors() {}

  @SuppressWarnings("unchecked")
  public static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  public static List<Object> list(Object o) {
    return (List<Object>) o;
  }

  public static long[] longs(Object o) {
    return list(o).stream().mapToLong(x -> ((Number) x).longValue()).toArray();
  }

  public static boolean isScalar(Object arg) {
    return map(arg).containsKey("scalar");
  }

  /** A Python scalar as the Java value the facade receives: Boolean, Long or Double. */
  public static Object scalar(Object spec) {
    Map<String, Object> s = map(map(spec).get("scalar"));
    if (s.containsKey("bool")) {
      return (Boolean) s.get("bool");
    } else if (s.containsKey("int")) {
      return Long.parseLong((String) s.get("int"));
    }
    return Double.longBitsToDouble(Long.parseUnsignedLong(((String) s.get("float")).substring(2), 16));
  }

  /** True when the scalar is an int that does not fit a Java long (torch's 2^64 overflow case). */
  public static boolean isHugeInt(Object spec) {
    Map<String, Object> s = map(map(spec).get("scalar"));
    if (!s.containsKey("int")) {
      return false;
    }
    try {
      Long.parseLong((String) s.get("int"));
      return false;
    } catch (NumberFormatException e) {
      return true;
    }
  }

  public static DType dtype(Map<String, Object> spec) {
    return DType.fromName((String) spec.get("dtype"));
  }

  /** The tensor of a TENSOR spec, laid out with its strides when it has them. */
  public static Tensor tensor(Object specObj) {
    Map<String, Object> spec = map(specObj);
    DType dtype = dtype(spec);
    long[] shape = longs(spec.get("shape"));
    long[] strides = spec.containsKey("strides") ? longs(spec.get("strides")) : contiguous(shape);
    long storage = 1;
    for (int d = 0; d < shape.length; d++) {
      if (shape[d] == 0) {
        storage = 0;
        break;
      }
      storage += (shape[d] - 1) * strides[d];
    }
    Tensor t = Tensor.empty(dtype, storage).asStrided(shape, strides, 0);
    List<Object> data = list(spec.get("data"));
    int parts = dtype.isComplex() ? 2 : 1;
    DType part = dtype.componentType();
    long[] idx = new long[shape.length];
    for (int e = 0; e < t.numel(); e++) {
      long at = 0;
      for (int d = 0; d < shape.length; d++) {
        at += idx[d] * strides[d];
      }
      for (int p = 0; p < parts; p++) {
        long bits = Long.parseUnsignedLong(((String) data.get(e * parts + p)).substring(2), 16);
        Elements.write(t.segment(), part, at * dtype.byteSize() + (long) p * part.byteSize(), bits);
      }
      next(idx, shape);
    }
    return t;
  }

  private static long[] contiguous(long[] shape) {
    long[] s = new long[shape.length];
    long step = 1;
    for (int d = shape.length - 1; d >= 0; d--) {
      s[d] = step;
      step *= shape[d];
    }
    return s;
  }

  private static void next(long[] idx, long[] shape) {
    for (int d = shape.length - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) {
        return;
      }
      idx[d] = 0;
    }
  }

  /**
   * Asserts {@code actual} has the expected dtype, shape and elements. Floating elements match
   * when both are NaN, or bit for bit, or — with {@code ulps > 0}, for transcendental functions
   * whose last bit depends on the vector library — within {@code ulps} units in the last place.
   */
  public static void assertMatches(Object expectedSpec, Tensor actual, int ulps, String context) {
    assertMatches(expectedSpec, actual, ulps, context, index -> false);
  }

  /**
   * As {@link #assertMatches(Object, Tensor, int, String)}, but an element where {@code excused}
   * holds (a documented limitation, decided from the operands at that index) may differ.
   */
  public static void assertMatches(
      Object expectedSpec,
      Tensor actual,
      int ulps,
      String context,
      java.util.function.Predicate<long[]> excused) {
    Map<String, Object> spec = map(expectedSpec);
    DType dtype = dtype(spec);
    long[] shape = longs(spec.get("shape"));
    if (actual.dtype() != dtype || !Arrays.equals(actual.shape(), shape)) {
      fail(context + ": expected " + dtype + Arrays.toString(shape) + ", got " + actual.dtype()
          + Arrays.toString(actual.shape()));
    }
    List<Object> data = list(spec.get("data"));
    int parts = dtype.isComplex() ? 2 : 1;
    DType part = dtype.componentType();
    long[] strides = actual.strides();
    MemorySegment seg = actual.segment();
    long[] idx = new long[shape.length];
    for (int e = 0; e < actual.numel(); e++) {
      long at = actual.offset();
      for (int d = 0; d < shape.length; d++) {
        at += idx[d] * strides[d];
      }
      for (int p = 0; p < parts; p++) {
        long want = Long.parseUnsignedLong(((String) data.get(e * parts + p)).substring(2), 16);
        long got =
            Elements.read(seg, part, at * dtype.byteSize() + (long) p * part.byteSize())
                & mask(part.byteSize());
        if (!sameElement(part, want, got, ulps) && !excused.test(idx.clone())) {
          fail(context + ": element " + Arrays.toString(idx) + (parts == 2 ? (p == 0 ? " re" : " im") : "")
              + " of " + dtype + ": expected 0x" + Long.toHexString(want) + " ("
              + describe(part, want) + "), got 0x" + Long.toHexString(got) + " ("
              + describe(part, got) + ")");
        }
      }
      next(idx, shape);
    }
  }

  private static long mask(int bytes) {
    return bytes == 8 ? -1L : (1L << (8 * bytes)) - 1;
  }

  private static boolean sameElement(DType t, long want, long got, int ulps) {
    if (want == got) {
      return true;
    }
    if (ulps < 0) {
      // Either zero: the caller accepts +0.0 for -0.0 (PyTorch's maximum/minimum of equal zeros
      // depends on whether the element fell in a vector lane or the scalar tail).
      if (t.isFloatingPoint()
          && dev.ufunc4j.internal.elements.Convert.toDouble(t, want) == 0
          && dev.ufunc4j.internal.elements.Convert.toDouble(t, got) == 0) {
        return true;
      }
      ulps = 0;
    }
    if (!t.isFloatingPoint()) {
      return false;
    }
    double w = dev.ufunc4j.internal.elements.Convert.toDouble(t, want);
    double g = dev.ufunc4j.internal.elements.Convert.toDouble(t, got);
    if (Double.isNaN(w) && Double.isNaN(g)) {
      return true;
    }
    if (ulps == 0 || Double.isNaN(w) || Double.isNaN(g) || Double.isInfinite(w) || Double.isInfinite(g)) {
      return false;
    }
    // Distance in units of the dtype's last place, through the ordered integer view of the bits.
    long a = ordered(want, t.byteSize());
    long b = ordered(got, t.byteSize());
    return Math.abs(a - b) <= ulps;
  }

  private static long ordered(long bits, int bytes) {
    int width = 8 * bytes;
    long sign = 1L << (width - 1);
    long magnitude = bits & (sign - 1);
    return (bits & sign) != 0 ? -magnitude : magnitude;
  }

  private static String describe(DType t, long bits) {
    return t.isFloatingPoint()
        ? Double.toString(dev.ufunc4j.internal.elements.Convert.toDouble(t, bits))
        : Long.toString(bits);
  }
}
