package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.memory.NativeMemory;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The storage allocator's reuse of freed blocks and small-block slabs, and the planner's fast path
 * for same-shape contiguous operands: every result is checked against the op's own scalar method
 * ({@link Builtins}), and every refusal leaves the target as it was.
 */
class StorageReuseAndFastPathTest {
  private static final long BIG = 3L << 20; // 3M float32 = 12 MiB: a mapped block

  @Test
  void freedMappedBlockIsReusedAndComesBackZeroed() {
    assumeTrue(NativeMemory.hugePagesAvailable(), "mapped blocks need Linux and native access");
    long address;
    try (var _ = TensorScope.open()) {
      Tensor dirty = Tensor.full(DType.FLOAT32, 7.0, BIG);
      address = dirty.segment().address();
    }
    assertTrue(NativeMemory.cachedBytes() >= BIG * 4, "the freed block is kept for reuse");
    try (var _ = TensorScope.open()) {
      Tensor zeros = Tensor.zeros(DType.FLOAT32, BIG);
      assertEquals(address, zeros.segment().address(), "the same block, not a fresh mapping");
      float[] values = zeros.toFloatArray();
      for (int i = 0; i < values.length; i++) {
        if (values[i] != 0f) {
          throw new AssertionError("element " + i + " of a reused zeros() block is " + values[i]);
        }
      }
    }
  }

  @Test
  void kernelOutputInReusedDirtyBlockIsWrittenEverywhere() {
    assumeTrue(NativeMemory.hugePagesAvailable(), "mapped blocks need Linux and native access");
    // Three dirty blocks go back to the cache; the op's result takes one without zeroing.
    try (var _ = TensorScope.open()) {
      for (int k = 0; k < 3; k++) {
        Tensor.full(DType.FLOAT32, Float.NaN, BIG);
      }
    }
    try (var _ = TensorScope.open()) {
      Tensor a = Tensor.randn(1, DType.FLOAT32, BIG);
      Tensor b = Tensor.randn(2, DType.FLOAT32, BIG);
      float[] sum = a.add(b).toFloatArray(); // the fast path
      float[] x = a.toFloatArray();
      float[] y = b.toFloatArray();
      for (int i = 0; i < sum.length; i++) {
        float expected = (float) Builtins.add(x[i], y[i]);
        if (Float.floatToIntBits(sum[i]) != Float.floatToIntBits(expected)) {
          throw new AssertionError("element " + i + ": " + sum[i] + " != " + expected);
        }
      }
      // The general path (a transposed operand) writes a reused block everywhere too.
      Tensor m = Tensor.randn(3, DType.FLOAT32, 1024, 3072);
      float[] general = m.add(m.t().contiguous().t()).toFloatArray();
      float[] mv = m.toFloatArray();
      for (int i = 0; i < general.length; i++) {
        assertEquals(Float.floatToIntBits((float) Builtins.add(mv[i], mv[i])),
            Float.floatToIntBits(general[i]), "element " + i);
      }
    }
  }

  @Test
  void smallTensorsAreDisjointZeroedAndAligned() {
    Set<Long> starts = new HashSet<>();
    Tensor[] keep = new Tensor[2000];
    for (int i = 0; i < keep.length; i++) {
      Tensor t = Tensor.zeros(DType.FLOAT64, 1 + i * 7 % 2100); // up to 16.8 KB: slab blocks and beyond
      assertEquals(0, t.segment().address() % NativeMemory.ALIGNMENT, "aligned, tensor " + i);
      for (long j = 0; j < t.numel(); j++) {
        assertEquals(0.0, t.getDouble(j), "zeroed, tensor " + i);
      }
      Copies.copyInto(Tensor.full(DType.FLOAT64, (double) i, t.numel()), t);
      assertTrue(starts.add(t.segment().address()), "distinct storage, tensor " + i);
      keep[i] = t;
    }
    for (int i = 0; i < keep.length; i++) {
      for (long j = 0; j < keep[i].numel(); j++) {
        assertEquals(i, keep[i].getDouble(j), "no other tensor wrote into tensor " + i);
      }
    }
  }

  @Test
  void fastPathMatchesScalarMethodForFreshOutAndAliasedTargets() {
    float[] x = {1.5f, -0f, Float.NaN, Float.POSITIVE_INFINITY, 3e38f, -7f, 0.1f, 2f, 5f};
    float[] y = {2.25f, 0f, 1f, Float.NEGATIVE_INFINITY, 3e38f, 7f, 0.2f, -2f, 1e-45f};
    Tensor a = Tensor.of(x, 3, 3);
    Tensor b = Tensor.of(y, 3, 3);
    float[] expected = new float[x.length];
    for (int i = 0; i < x.length; i++) {
      expected[i] = (float) Builtins.add(x[i], y[i]);
    }
    assertArrayEquals(expected, a.add(b).toFloatArray(), 0f);
    Tensor out = Tensor.zeros(DType.FLOAT32, 3, 3);
    assertSame(out, Ops.add(a, b, out));
    assertArrayEquals(expected, out.toFloatArray(), 0f);
    Tensor self = Tensor.of(x.clone(), 3, 3);
    self.addInPlace(b); // exact aliasing of target and first operand
    assertArrayEquals(expected, self.toFloatArray(), 0f);
    // A wider target is a cast on store (the general path): still the scalar method's value.
    Tensor wide = Tensor.zeros(DType.FLOAT64, 3, 3);
    Ops.add(a, b, wide);
    double[] widened = wide.toDoubleArray();
    for (int i = 0; i < x.length; i++) {
      assertEquals(expected[i], widened[i], 0.0);
    }
    // Predicates: bool results.
    Tensor lt = Ops.lt(a, b).reshape(9);
    assertEquals(DType.BOOL, lt.dtype());
    for (int i = 0; i < x.length; i++) {
      assertEquals(Builtins.lt(x[i], y[i]), lt.getBoolean(i), "lt element " + i);
    }
  }

  @Test
  void partiallyOverlappingContiguousTargetIsRefusedUntouched() {
    Tensor storage = Tensor.arange(0, 10, 1).to(DType.FLOAT32);
    Tensor in = storage.narrow(0, 0, 8);
    Tensor out = storage.narrow(0, 1, 8); // same shape, contiguous, shifted by one element
    float[] before = storage.toFloatArray();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Ops.add(in, in, out));
    assertTrue(e.getMessage().contains("some elements of the input tensor and the written-to"
        + " tensor refer to a single memory location"), e.getMessage());
    assertArrayEquals(before, storage.toFloatArray(), 0f);
    // Disjoint views of one storage are fine.
    Tensor lo = storage.narrow(0, 0, 5);
    Tensor hi = storage.narrow(0, 5, 5);
    Ops.add(lo, lo, hi);
    for (int i = 0; i < 5; i++) {
      assertEquals((float) Builtins.add(before[i], before[i]), hi.getDouble(i), 0.0);
    }
  }

  @Test
  void integerDivisionByZeroLeavesSameShapeTargetUntouched() {
    Tensor a = Tensor.of(new int[] {7, 8, 9, 10}, 4);
    Tensor b = Tensor.of(new int[] {1, 2, 0, 5}, 4);
    Tensor out = Tensor.of(new int[] {-1, -2, -3, -4}, 4);
    assertThrows(ArithmeticException.class, () -> Ops.floorDivide(a, b, out));
    assertArrayEquals(new long[] {-1, -2, -3, -4}, out.toLongArray());
  }

  @Test
  void aFailedHugeAllocationLeavesTheAccountingAsItWas() {
    long trigger = NativeMemory.gcTriggerBytes();
    long outstanding = NativeMemory.outstandingBytes();
    for (int k = 0; k < 3; k++) {
      OutOfMemoryError e =
          assertThrows(OutOfMemoryError.class, () -> Tensor.empty(DType.FLOAT32, 1_000_000_000_000_000_000L));
      assertTrue(e.getMessage().contains("4000000000000000000 bytes"), e.getMessage());
    }
    assertEquals(trigger, NativeMemory.gcTriggerBytes(), "the collection threshold");
    // Other tests' tensors may have been returned meanwhile, never more handed out by this one.
    assertTrue(NativeMemory.outstandingBytes() <= outstanding + (1L << 20),
        NativeMemory.outstandingBytes() + " outstanding after, " + outstanding + " before");
  }
}
