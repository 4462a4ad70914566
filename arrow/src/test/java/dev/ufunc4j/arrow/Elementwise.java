package dev.ufunc4j.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.util.List;

/** Element-by-element comparison of a tensor with expected values written as text. */
final class Elementwise {
  private Elementwise() {}

  /** The multi-index of C-order position {@code k} in {@code shape}. */
  static long[] index(long k, long[] shape) {
    long[] idx = new long[shape.length];
    for (int d = shape.length - 1; d >= 0; d--) {
      idx[d] = k % shape[d];
      k /= shape[d];
    }
    return idx;
  }

  /**
   * Asserts dtype, shape and every value: integers exactly (uint64 by its bits), floats exactly
   * as the oracle's double, bools as "true"/"false".
   */
  static void assertTensor(String what, Tensor t, DType dtype, long[] shape, List<String> values) {
    assertEquals(dtype, t.dtype(), what + " dtype");
    assertArrayEquals(shape, t.shape(), what + " shape");
    assertEquals(values.size(), t.numel(), what + " numel");
    for (int k = 0; k < values.size(); k++) {
      long[] i = index(k, shape);
      String v = values.get(k);
      String at = what + " element " + k;
      if (dtype == DType.BOOL) {
        assertEquals(Boolean.parseBoolean(v), t.getBoolean(i), at);
      } else if (dtype.isFloatingPoint()) {
        assertEquals(Double.parseDouble(v), t.getDouble(i), at);
      } else {
        long want = v.startsWith("-") ? Long.parseLong(v) : Long.parseUnsignedLong(v);
        assertEquals(want, t.getLong(i), at);
      }
    }
  }
}
