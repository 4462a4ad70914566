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

  @Test
  void sliceWithAHugeStepTakesTheFirstElement() {
    // Python and NumPy: list(range(10))[0:10:2**63-1] == [0]; PyTorch 2.13 wraps to zero elements.
    Tensor x = Tensor.arange(10);
    Tensor one = x.slice(0, 0, 10, Long.MAX_VALUE);
    assertArrayEquals(new long[] {1}, one.shape());
    assertArrayEquals(new long[] {0}, one.toLongArray());
    Tensor tail = x.slice(0, Long.MIN_VALUE, Long.MAX_VALUE - 3, Long.MAX_VALUE - 2);
    assertArrayEquals(new long[] {0}, tail.toLongArray());
    assertArrayEquals(new long[] {1}, x.slice(0, 9, Long.MAX_VALUE, Long.MAX_VALUE).shape());
    // A strided dimension: stride * step overflows, but one element needs no stride.
    Tensor row = x.view(5, 2).slice(0, 1, 5, Long.MAX_VALUE);
    assertArrayEquals(new long[] {1, 2}, row.shape());
    assertArrayEquals(new long[] {2, 3}, row.toLongArray());
  }

  @Test
  void narrowPastTheEndIsRefusedWhateverTheLength() {
    Tensor x = Tensor.arange(10);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> x.narrow(0, 5, Long.MAX_VALUE));
    assertEquals(
        "start (5) + length (9223372036854775807) exceeds dimension size (10).", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> x.narrow(0, -3, Long.MAX_VALUE));
    assertEquals(
        "start (7) + length (9223372036854775807) exceeds dimension size (10).", e.getMessage());
    assertArrayEquals(new long[] {5, 6, 7, 8, 9}, x.narrow(0, 5, 5).toLongArray());
  }

  @Test
  void arangeCountsWithoutOverflow() {
    // end - start exceeds Long.MAX_VALUE here; the three values are exact.
    assertArrayEquals(
        new long[] {Long.MIN_VALUE, -1, Long.MAX_VALUE - 1},
        Tensor.arange(Long.MIN_VALUE, Long.MAX_VALUE, Long.MAX_VALUE).toLongArray());
    assertArrayEquals(
        new long[] {5, Long.MIN_VALUE + 5},
        Tensor.arange(5, Long.MIN_VALUE, Long.MIN_VALUE).toLongArray());
    assertArrayEquals(new long[] {0}, Tensor.arange(0, 10, Long.MAX_VALUE).toLongArray());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Tensor.arange(Long.MIN_VALUE, Long.MAX_VALUE, 1));
    assertTrue(e.getMessage().contains("18446744073709551615 elements"), e.getMessage());
    assertTrue(e.getMessage().contains("-9223372036854775808"), e.getMessage());
  }

  @Test
  void floatingArangeTooLargeForMemoryFailsLikeAnAllocation() {
    // PyTorch: "can't allocate memory: you tried to allocate 4000000000000000000 bytes".
    OutOfMemoryError e =
        assertThrows(
            OutOfMemoryError.class, () -> Tensor.arange(0.0, 1e18, 1.0, DType.FLOAT32));
    assertTrue(e.getMessage().contains("4000000000000000000 bytes"), e.getMessage());
    IllegalArgumentException tooMany =
        assertThrows(
            IllegalArgumentException.class, () -> Tensor.arange(0.0, 1e19, 1.0, DType.FLOAT32));
    assertTrue(tooMany.getMessage().contains("1.0E19"), tooMany.getMessage());
  }

  @Test
  void allocationsReportTheirTrueByteCount() {
    OutOfMemoryError e =
        assertThrows(OutOfMemoryError.class, () -> Tensor.zeros(DType.INT8, Long.MAX_VALUE));
    assertTrue(e.getMessage().contains("9223372036854775807 bytes"), e.getMessage());
    assertTrue(!e.getMessage().contains("-"), e.getMessage());
    IllegalArgumentException tooMany =
        assertThrows(
            IllegalArgumentException.class, () -> Tensor.zeros(DType.INT16, Long.MAX_VALUE));
    assertTrue(tooMany.getMessage().contains("9223372036854775807"), tooMany.getMessage());
  }
}
