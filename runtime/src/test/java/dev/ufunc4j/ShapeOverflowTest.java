package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import org.junit.jupiter.api.Test;

/**
 * Shape, stride and offset arithmetic that would overflow a {@code long}: refused with a message
 * naming the values, never wrapped into a wrong view or a wrong size (issue 12, items 1 and 4).
 */
class ShapeOverflowTest {

  @Test
  void asStridedRefusesStridesWhoseReachOverflows() {
    Tensor x = Tensor.arange(10).to(DType.FLOAT32);
    long stride = (1L << 62) + 1; // 2 * stride wraps to 2: element 2 of the view would be x[2]
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> x.asStrided(new long[] {3}, new long[] {stride}, 0));
    assertTrue(e.getMessage().contains("overflow"), e.getMessage());
    assertTrue(e.getMessage().contains(Long.toString(stride)), e.getMessage());
    assertEquals(2.0, x.getDouble(2));
  }

  @Test
  void asStridedRefusesAnOffsetPlusReachThatOverflows() {
    Tensor x = Tensor.arange(10).to(DType.FLOAT32);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> x.asStrided(new long[] {2}, new long[] {Long.MAX_VALUE}, 2));
    assertTrue(e.getMessage().contains(Long.toString(Long.MAX_VALUE)), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> x.asStrided(new long[] {2, 2}, new long[] {1L << 62, 1L << 62}, 0));
  }

  @Test
  void asStridedStillAcceptsViewsInsideTheStorage() {
    Tensor x = Tensor.arange(10).to(DType.FLOAT32);
    Tensor v = x.asStrided(new long[] {3, 1}, new long[] {3, Long.MAX_VALUE}, 1);
    assertArrayEquals(new float[] {1, 4, 7}, v.toFloatArray());
    assertEquals(0, x.asStrided(new long[] {0, 5}, new long[] {Long.MAX_VALUE, 1}, 0).numel());
  }
}
