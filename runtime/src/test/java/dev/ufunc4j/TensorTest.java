package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.memory.NativeMemory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class TensorTest {

  @Test
  void storageIsNativeZeroedAndAligned() {
    for (long n : new long[] {0, 1, 7, 1000, 3 << 20}) {
      Tensor t = Tensor.zeros(DType.FLOAT32, n);
      assertTrue(t.segment().isNative());
      assertEquals(0, t.segment().address() % NativeMemory.ALIGNMENT, "aligned for n=" + n);
      if (n > 0) {
        assertEquals(0.0, t.getDouble(n - 1));
      }
    }
  }

  @Test
  void scopeFreesDeterministically() {
    Tensor kept;
    Tensor big;
    try (var _ = TensorScope.open()) {
      kept = Tensor.ones(DType.INT32, 4);
      big = Tensor.ones(DType.FLOAT64, 1 << 20); // 8 MiB: the mapped huge-page path
      assertEquals(1, kept.getLong(3));
      assertEquals(1.0, big.getDouble(123_456));
    }
    assertThrows(IllegalStateException.class, () -> kept.getLong(0));
    assertThrows(IllegalStateException.class, () -> big.getDouble(0));
    Tensor outside = Tensor.ones(DType.INT32, 4); // GC-managed again after the scope
    assertEquals(1, outside.getLong(0));
  }

  @Test
  void scopesCloseInnermostFirst() {
    try (TensorScope outer = TensorScope.open()) {
      TensorScope inner = TensorScope.open();
      assertThrows(IllegalStateException.class, outer::close);
      inner.close();
    }
  }

  @Test
  void factoriesFromArraysAndShapes() {
    Tensor t = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
    assertEquals(DType.FLOAT32, t.dtype());
    assertArrayEquals(new long[] {2, 3}, t.shape());
    assertArrayEquals(new long[] {3, 1}, t.strides());
    assertEquals(6.0, t.getDouble(1, 2));
    assertEquals(6.0, t.getDouble(-1, -1));
    assertEquals(DType.BOOL, Tensor.of(new boolean[] {true, false}).dtype());
    assertEquals(DType.UINT16, Tensor.of(new char[] {65535}).dtype());
    assertEquals(65535, Tensor.of(new char[] {65535}).getLong(0));
    assertEquals(255, Tensor.of(new byte[] {-1}, DType.UINT8).getLong(0));
    Tensor h = Tensor.of(new float[] {1.0009765625f + 0x1p-11f}, DType.FLOAT16);
    assertEquals(1.0009765625 + 0.0009765625, h.getDouble(0)); // tie to even (upwards here)
    Tensor c = Tensor.ofComplex(new double[] {1, 2, 3, 4});
    assertEquals(DType.COMPLEX128, c.dtype());
    assertEquals(4.0, c.getImag(1));
    assertArrayEquals(new double[] {1, 2, 3, 4}, c.toComplexArray());
    assertEquals("tensor([0, 1, 2, 3, 4])", Tensor.arange(5).toString());
    assertEquals("tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])",
        Tensor.linspace(0, 1, 5, DType.FLOAT32).toString());
    assertEquals("tensor([0.0000, 0.5000, 1.0000, 1.5000])",
        Tensor.arange(0, 2, 0.5, DType.FLOAT32).toString());
    assertEquals("tensor([[7, 7],\n        [7, 7]], dtype=torch.int8)",
        Tensor.full(DType.INT8, 7L, 2, 2).toString());
    assertTrue(Tensor.rand(1, DType.FLOAT32, 100).equal(Tensor.rand(1, DType.FLOAT32, 100)));
    assertFalse(Tensor.rand(1, DType.FLOAT32, 100).equal(Tensor.rand(2, DType.FLOAT32, 100)));
    long[] ints = Tensor.randint(3, -5, 5, DType.INT64, 1000).toLongArray();
    for (long v : ints) {
      assertTrue(v >= -5 && v < 5);
    }
  }

  @Test
  void zeroDimScalarsAndWrappedNumbers() {
    Tensor s = Tensor.scalar(2.5);
    assertEquals(0, s.ndim());
    assertEquals(1, s.numel());
    assertFalse(s.isWrappedNumber());
    assertEquals(2.5, s.getDouble());
    Tensor w = Tensor.wrap(2.5);
    assertTrue(w.isWrappedNumber());
    assertEquals(DType.FLOAT64, w.dtype());
    assertEquals(DType.INT64, Tensor.wrap(3L).dtype());
    assertEquals(DType.BOOL, Tensor.wrap(true).dtype());
    assertEquals(DType.COMPLEX128, Tensor.wrapComplex(1, 2).dtype());
    assertFalse(w.view(1).isWrappedNumber(), "views of a wrapped number are ordinary tensors");
  }

  @Test
  void viewsShareStorage() {
    Tensor t = Tensor.zeros(DType.INT32, 2, 3);
    Tensor v = t.t().select(0, 2);
    v.setLong(42, 1);
    assertEquals(42, t.getLong(1, 2));
    Tensor e = Tensor.of(new int[] {1, 2, 3}).expand(4, 3);
    assertArrayEquals(new long[] {0, 1}, e.strides());
    assertFalse(e.isContiguous());
    assertTrue(e.contiguous().isContiguous());
    assertArrayEquals(new int[] {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3}, e.toIntArray());
    Tensor a = Tensor.arange(0, 12, 1).view(3, 4);
    Tensor s = a.asStrided(new long[] {2, 2}, new long[] {4, 1}, 5);
    assertEquals("tensor([[ 5,  6],\n        [ 9, 10]])", s.toString());
    assertThrows(IllegalArgumentException.class,
        () -> a.asStrided(new long[] {2, 2}, new long[] {4, 1}, 8));
  }

  @Test
  void badInputNamesTheValues() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> Tensor.of(new float[] {1, 2, 3, 4, 5}, 2, 3));
    assertEquals("data has 5 elements but shape [2, 3] needs 6", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(DType.FLOAT32, 2, -1));
    assertEquals("Trying to create tensor with negative dimension -1: [2, -1]", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Tensor.zeros(DType.FLOAT32, 1L << 40, 1L << 40));
    assertTrue(e.getMessage().contains("2^63"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Tensor.zeros(DType.FLOAT64, 1L << 31, 1L << 31));
    assertTrue(e.getMessage().contains("2^63 bytes"), e.getMessage());
    Tensor t = Tensor.zeros(DType.FLOAT32, 2, 3);
    var ie = assertThrows(IndexOutOfBoundsException.class, () -> t.getDouble(2, 0));
    assertEquals("index 2 is out of bounds for dimension 0 with size 2", ie.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> t.getDouble(1));
    assertTrue(e.getMessage().contains("expected 2 indices"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Tensor.zeros(DType.COMPLEX64, 1).getDouble(0));
    assertTrue(e.getMessage().contains("getReal"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Tensor.zeros(null, 1));
    assertThrows(IllegalArgumentException.class, () -> Tensor.ofComplex(new double[] {1, 2, 3}));
    assertThrows(IllegalArgumentException.class, () -> Tensor.arange(0, 10, -1));
    assertThrows(IllegalArgumentException.class, () -> Tensor.randint(1, 5, 5, DType.INT32, 2));
    assertThrows(IllegalArgumentException.class, () -> t.allClose(Tensor.zeros(DType.FLOAT32, 3)));
  }

  @Test
  @Tag("slow") // 2^31 elements
  void largeTensorsUseLongIndexing() {
    long n = (1L << 31) + 16; // more elements than any Java array holds
    try (var _ = TensorScope.open()) {
      Tensor t = Tensor.zeros(DType.BOOL, n);
      t.setBoolean(true, n - 1);
      assertTrue(t.getBoolean(n - 1));
      assertTrue(t.slice(0, n - 2, n, 1).getBoolean(1));
      assertThrows(IllegalArgumentException.class, t::toBooleanArray);
    }
  }

  @Test
  void comparisonHelpers() {
    Tensor a = Tensor.of(new double[] {1, 2, Double.NaN});
    Tensor b = Tensor.of(new double[] {1, 2 + 1e-9, Double.NaN});
    assertFalse(a.allClose(b));
    assertTrue(a.allClose(b, 1e-5, 1e-8, true));
    assertFalse(a.equal(b));
    assertTrue(Tensor.of(new int[] {1, 2}).equal(Tensor.of(new double[] {1, 2})));
    assertFalse(Tensor.of(new long[] {-1}, DType.UINT64).equal(Tensor.of(new long[] {-1})));
    assertTrue(Tensor.of(new double[] {Double.POSITIVE_INFINITY})
        .allClose(Tensor.of(new float[] {Float.POSITIVE_INFINITY})));
  }
}
