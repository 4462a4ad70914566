package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * {@link Tensor#fromSegment}: a tensor over foreign memory shares it (reads and writes both ways,
 * through views and ops), lives by the segment's scope, and refuses a segment too short for the
 * shape before making anything.
 */
class TensorFromSegmentTest {

  @Test
  void sharesTheSegmentBothWays() {
    try (Arena arena = Arena.ofShared()) {
      MemorySegment seg = arena.allocate(6 * Float.BYTES, 8);
      for (int i = 0; i < 6; i++) {
        seg.setAtIndex(ValueLayout.JAVA_FLOAT, i, i + 0.5f);
      }
      Tensor t = Tensor.fromSegment(seg, DType.FLOAT32, 2, 3);
      assertArrayEquals(new long[] {2, 3}, t.shape());
      assertTrue(t.isContiguous());
      assertEquals(seg.address(), t.segment().address(), "no copy");
      assertEquals(5.5f, t.getDouble(1, 2));
      // An op reads it (expected: the scalar float sums), an in-place op writes the segment.
      Tensor sum = t.add(t.t().contiguous().t());
      assertEquals(2 * 3.5f, sum.getDouble(1, 0));
      t.addInPlace(1.0);
      assertEquals(1.5f, seg.getAtIndex(ValueLayout.JAVA_FLOAT, 0));
      assertEquals(6.5f, seg.getAtIndex(ValueLayout.JAVA_FLOAT, 5));
    }
  }

  @Test
  void aClosedArenaMakesTheTensorUnusable() {
    Arena arena = Arena.ofShared();
    Tensor t = Tensor.fromSegment(arena.allocate(16, 8), DType.INT64, 2);
    arena.close();
    assertThrows(IllegalStateException.class, () -> t.getDouble(0));
  }

  @Test
  void refusesAReadOnlySegment() {
    // The kernels' worker threads write through MemorySegment.ofAddress views of a confined
    // segment, which drop the read-only mode: such a tensor's writes would go through.
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment seg = arena.allocate(8, 8);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Tensor.fromSegment(seg.asReadOnly(), DType.INT32, 2));
      assertTrue(e.getMessage().startsWith("a tensor cannot view a read-only segment"),
          e.getMessage());
    }
  }

  @Test
  void refusesASegmentShorterThanTheShape() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment seg = arena.allocate(20, 8);
      IllegalArgumentException e = assertThrows(
          IllegalArgumentException.class, () -> Tensor.fromSegment(seg, DType.FLOAT64, 3));
      assertEquals("a segment of 20 bytes cannot hold shape [3] of float64 (3 elements of 8 bytes)",
          e.getMessage());
      assertThrows(IllegalArgumentException.class,
          () -> Tensor.fromSegment(seg, DType.INT8, -1));
      assertThrows(IllegalArgumentException.class,
          () -> Tensor.fromSegment(null, DType.INT8, 1));
    }
  }
}
