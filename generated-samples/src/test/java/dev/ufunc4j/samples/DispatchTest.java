package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.BroadcastException;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.PromotionException;
import dev.ufunc4j.Dispatch;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher on generated sample ops: promotion, broadcasting, wrapped scalars and the {@code
 * out=} rules. Expected values come from the ops' own scalar methods.
 */
class DispatchTest {

  @Test
  void broadcastsAndPromotesInRegisters() {
    Tensor a = Tensor.of(new int[] {1, 2, 3}, 3, 1);
    Tensor b = Tensor.of(new float[] {0.5f, 1.5f, -2f, 8f}, 4);
    Tensor r = Dispatch.apply(Samples_add.OP, null, a, b);
    assertEquals(DType.FLOAT32, r.dtype());
    assertArrayEquals(new long[] {3, 4}, r.shape());
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 4; j++) {
        assertEquals(
            (float) Samples.add(a.getLong(i, 0), b.getDouble(j)), r.getDouble(i, j), 0.0);
      }
    }
  }

  @Test
  void wrappedScalarsPromoteAsPythonNumbers() {
    Tensor a = Tensor.of(new int[] {1, 2, 3}, 3);
    // int32 tensor + 2.5 -> float32 (the default float dtype), not float64.
    Tensor r = Dispatch.apply(Samples_add.OP, null, a, Dispatch.wrap(Samples_add.OP, 1, 2.5));
    assertEquals(DType.FLOAT32, r.dtype());
    assertEquals(4.5, r.getDouble(1), 0.0);
    // int32 tensor + Java long stays int32.
    Tensor s = Dispatch.apply(Samples_add.OP, null, a, Dispatch.wrap(Samples_add.OP, 1, 7L));
    assertEquals(DType.INT32, s.dtype());
    assertEquals(10, s.getLong(2));
    // uint8 tensor + int8 zero-dim tensor -> uint8 (zero-dim does not raise the category).
    Tensor u = Tensor.of(new byte[] {(byte) 250, 1}, DType.UINT8, 2);
    Tensor v = Dispatch.apply(Samples_add.OP, null, u, Tensor.scalar(10).to(DType.INT8));
    assertEquals(DType.UINT8, v.dtype());
    assertEquals(4, v.getLong(0)); // 260 wraps in uint8
  }

  @Test
  void scalarParametersJoinPromotion() {
    Tensor a = Tensor.of(new int[] {1, 2}, 2);
    Tensor b = Tensor.of(new int[] {10, 20}, 2);
    Tensor r = Dispatch.apply(Samples_axpy.OP, null, new Tensor[] {a, b}, new Object[] {2L});
    assertEquals(DType.INT32, r.dtype());
    assertEquals(Samples.axpy(2, 20, 2), r.getLong(1));
    Tensor f = Dispatch.apply(Samples_axpy.OP, null, new Tensor[] {a, b}, new Object[] {0.5});
    assertEquals(DType.FLOAT32, f.dtype());
    assertEquals(Samples.axpy(2.0, 20.0, 0.5), f.getDouble(1), 0.0);
  }

  @Test
  void outMustHaveTheBroadcastShapeAndAcceptTheDtype() {
    Tensor a = Tensor.of(new float[] {1, 2, 3}, 3, 1);
    Tensor b = Tensor.of(new float[] {1, 2, 3, 4}, 4);
    Tensor wrongShape = Tensor.zeros(DType.FLOAT32, 3, 1);
    BroadcastException e =
        assertThrows(BroadcastException.class, () -> Dispatch.apply(Samples_add.OP, wrongShape, a, b));
    assertTrue(
        e.getMessage().contains("output with shape [3, 1] doesn't match the broadcast shape [3, 4]"),
        e.getMessage());
    Tensor ints = Tensor.zeros(DType.INT32, 3, 4);
    PromotionException p =
        assertThrows(PromotionException.class, () -> Dispatch.apply(Samples_add.OP, ints, a, b));
    assertTrue(
        p.getMessage().contains(
            "result type float32 can't be cast to the desired output type int32"),
        p.getMessage());
    assertEquals(0, ints.getLong(0, 0));
    // A wider target is fine: computed in float32, stored as float64.
    Tensor wide = Tensor.zeros(DType.FLOAT64, 3, 4);
    assertSame(wide, Dispatch.apply(Samples_add.OP, wide, a, b));
    assertEquals(7.0, wide.getDouble(2, 3), 0.0);
  }

  @Test
  void refusesOverlappingTargetsBeforeWriting() {
    Tensor a = Tensor.of(new float[] {1, 2, 3, 4}, 4);
    Tensor expanded = Tensor.of(new float[] {5}, 1).expand(4);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Dispatch.apply(Samples_add.OP, expanded, a, a));
    assertTrue(e.getMessage().contains("more than one element of the written-to tensor"), e.getMessage());
    assertEquals(5.0, expanded.getDouble(0), 0.0);
    Tensor shifted = a.slice(0, 1, 4, 1);
    Tensor target = a.slice(0, 0, 3, 1);
    assertThrows(
        IllegalArgumentException.class, () -> Dispatch.apply(Samples_add.OP, target, shifted, shifted));
    assertEquals(1.0, a.getDouble(0), 0.0);
    // Exact aliasing is in-place and allowed.
    Dispatch.apply(Samples_add.OP, a, a, a);
    assertEquals(8.0, a.getDouble(3), 0.0);
  }

  @Test
  void integerDivisionByZeroLeavesTheTargetUntouched() {
    Tensor a = Tensor.of(new int[] {10, 20, 30, 40, 50, 60, 70, 80, 90, 100}, 10);
    Tensor b = Tensor.of(new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 0}, 10);
    Tensor before = a.copy();
    ArithmeticException e =
        assertThrows(ArithmeticException.class, () -> Dispatch.apply(Samples_div.OP, a, a, b));
    assertEquals("div: integer division by zero", e.getMessage());
    assertTrue(a.equal(before));
  }

  @Test
  void refusesNullAndFloat8WithTheirNames() {
    Tensor a = Tensor.of(new float[] {1}, 1);
    IllegalArgumentException n =
        assertThrows(IllegalArgumentException.class, () -> Dispatch.apply(Samples_add.OP, null, a, null));
    assertTrue(n.getMessage().contains("'b'"), n.getMessage());
    Tensor f8 = a.to(DType.FLOAT8_E4M3FN);
    IllegalArgumentException f =
        assertThrows(IllegalArgumentException.class, () -> Dispatch.apply(Samples_add.OP, null, a, f8));
    assertTrue(f.getMessage().contains("float8_e4m3fn"), f.getMessage());
  }

  @Test
  void largeOpsSplitAcrossThreadsGiveTheSameResult() {
    int n = 1 << 18;
    float[] x = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = i * 0.25f;
    }
    Tensor a = Tensor.of(x, 512, 512);
    Tensor col = Tensor.of(new float[512], 512, 1);
    Tensor r = Dispatch.apply(Samples_add.OP, null, a, col);
    for (int i = 0; i < n; i += 997) {
      assertEquals(x[i], r.getDouble(i / 512, i % 512), 0.0);
    }
  }
}
