package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import org.junit.jupiter.api.Test;

/**
 * {@code Tensor.of} from nested Java arrays against {@code np.array} (shapes and ragged refusals
 * printed by {@code tools/oracle/check_nested_of.py}) and against the flat {@code Tensor.of(data,
 * shape)} (values and dtype); and the random factories' errors, which name their own parameters.
 */
class NestedOfTest {

  @Test
  void shapeIsInferredAndValuesAreRowMajor() {
    Tensor f = Tensor.of(new float[][] {{1, 2, 3}, {4, 5, 6}});
    assertArrayEquals(new long[] {2, 3}, f.shape()); // np: (2, 3)
    assertEquals(DType.FLOAT32, f.dtype());
    assertTrue(f.equal(Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3)));

    Tensor d = Tensor.of(new double[][] {{0.5, 1.5, 2.5}});
    assertArrayEquals(new long[] {1, 3}, d.shape()); // np: (1, 3)
    assertEquals(DType.FLOAT64, d.dtype());
    assertArrayEquals(new double[] {0.5, 1.5, 2.5}, d.toDoubleArray());

    Tensor i = Tensor.of(new int[][][] {{{1}, {2}}, {{3}, {4}}});
    assertArrayEquals(new long[] {2, 2, 1}, i.shape()); // np: (2, 2, 1)
    assertEquals(DType.INT32, i.dtype());
    assertTrue(i.equal(Tensor.of(new int[] {1, 2, 3, 4}, 2, 2, 1)));

    Tensor l = Tensor.of(new long[][] {{Long.MIN_VALUE, 1}, {2, Long.MAX_VALUE}});
    assertEquals(DType.INT64, l.dtype());
    assertArrayEquals(new long[] {Long.MIN_VALUE, 1, 2, Long.MAX_VALUE}, l.toLongArray());

    Tensor b = Tensor.of(new boolean[][][] {{{true, false}}, {{false, true}}});
    assertArrayEquals(new long[] {2, 1, 2}, b.shape());
    assertEquals(DType.BOOL, b.dtype());
    assertArrayEquals(new boolean[] {true, false, false, true}, b.toBooleanArray());

    Tensor f3 = Tensor.of(new float[][][] {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}});
    assertTrue(f3.equal(Tensor.of(new float[] {1, 2, 3, 4, 5, 6, 7, 8}, 2, 2, 2)));
    Tensor d3 = Tensor.of(new double[][][] {{{1, 2, 3}}});
    assertArrayEquals(new long[] {1, 1, 3}, d3.shape());
    Tensor i2 = Tensor.of(new int[][] {{7}, {8}});
    assertArrayEquals(new int[] {7, 8}, i2.toIntArray());
    Tensor l3 = Tensor.of(new long[][][] {{{9}}});
    assertArrayEquals(new long[] {1, 1, 1}, l3.shape());
    Tensor b2 = Tensor.of(new boolean[][] {{true}, {false}});
    assertArrayEquals(new long[] {2, 1}, b2.shape());
  }

  @Test
  void emptyDimensionsFollowTheJavaType() {
    assertArrayEquals(new long[] {2, 0}, Tensor.of(new float[2][0]).shape()); // np: (2, 0)
    assertArrayEquals(new long[] {0, 0}, Tensor.of(new float[0][]).shape());
    assertArrayEquals(new long[] {2, 0, 0}, Tensor.of(new double[2][0][]).shape());
  }

  @Test
  void raggedArraysAreRefusedNamingTheRowAndLengths() {
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> Tensor.of(new float[][] {{1, 2}, {3, 4, 5}}));
    assertEquals(
        "Tensor.of(float[][]): ragged array: data[1] has length 3 but data[0] has length 2;"
            + " every row at one depth needs the same length (NumPy: an inhomogeneous shape after"
            + " 1 dimensions; the detected shape was [2])",
        e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> Tensor.of(new int[][][] {{{1, 2}, {3}}}));
    assertTrue(
        e.getMessage().contains("data[0][1] has length 1 but data[0][0] has length 2"),
        e.getMessage());
    assertTrue(e.getMessage().contains("after 2 dimensions; the detected shape was [1, 2]"));
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Tensor.of(new long[][][] {{{1, 2}}, {{3, 4}, {5, 6}}}));
    assertTrue(
        e.getMessage().contains("data[1] has length 2 but data[0] has length 1"), e.getMessage());
    assertTrue(e.getMessage().contains("after 1 dimensions; the detected shape was [2]"));
    e =
        assertThrows(
            IllegalArgumentException.class, () -> Tensor.of(new double[][] {{1}, null}));
    assertEquals("Tensor.of(double[][]): data[1] is null", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Tensor.of((boolean[][]) null));
    assertEquals("data must not be null", e.getMessage());
  }

  @Test
  void randomFactoriesNameTheirOwnParameters() {
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> Tensor.randint(1, 5, 5, DType.INT32, 2));
    assertEquals("randint needs low < high, got low=5 and high=5", e.getMessage());
  }

  /**
   * Ranges outside the dtype are refused, as {@code torch.randint} does ({@code "from is out of
   * bounds for unsigned char"}, {@code "to - 1 is out of bounds for bool"}: the cases below were
   * each checked against torch 2.13, in randint's own words); the edges are allowed and reached.
   */
  @Test
  void randintRefusesARangeOutsideTheDtype() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> Tensor.randint(1, 0, 300, DType.UINT8, 2));
    assertEquals("randint: high - 1 = 299 (high=300) is out of bounds for uint8, whose values are"
        + " 0 to 255", e.getMessage().replace("torch.", ""));
    e = assertThrows(IllegalArgumentException.class, () -> Tensor.randint(1, -1, 2, DType.BOOL, 2));
    assertEquals("randint: low = -1 is out of bounds for bool, whose values are 0 to 1",
        e.getMessage().replace("torch.", ""));
    e = assertThrows(IllegalArgumentException.class, () -> Tensor.randint(1, 0, 3, DType.BOOL, 2));
    assertTrue(e.getMessage().contains("high - 1 = 2 (high=3) is out of bounds"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Tensor.randint(1, -200, 0, DType.INT8, 2));
    assertTrue(e.getMessage().contains("whose values are -128 to 127"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Tensor.randint(1, -5, 5, DType.UINT64, 2));
    assertTrue(e.getMessage().contains("low = -5 is out of bounds"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Tensor.randint(1, 0, 70000, DType.FLOAT16, 2));
    assertTrue(e.getMessage().contains("high - 1 = 69999 (high=70000)"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Tensor.randint(1, 0, 1L << 40, DType.INT32, 2));
    assertTrue(e.getMessage().contains("whose values are -2147483648 to 2147483647"),
        e.getMessage());
    // Allowed, as in torch: the full ranges of int8, uint8, int16 and bool; int64 up to its max.
    long[] all = Tensor.randint(3, -128, 128, DType.INT8, 4096).to(DType.INT64).toLongArray();
    assertEquals(-128, java.util.Arrays.stream(all).min().orElseThrow());
    assertEquals(127, java.util.Arrays.stream(all).max().orElseThrow());
    Tensor.randint(3, 0, 256, DType.UINT8, 4);
    Tensor.randint(3, -32768, 32768, DType.INT16, 4);
    Tensor.randint(3, 0, Long.MAX_VALUE, DType.INT64, 4);
    Tensor.randint(3, 0, 1 << 25, DType.FLOAT32, 4);
    assertArrayEquals(new long[] {0, 1}, java.util.Arrays.stream(
        Tensor.randint(3, 0, 2, DType.BOOL, 64).to(DType.INT64).toLongArray()).distinct().sorted()
        .toArray());
    e = assertThrows(IllegalArgumentException.class, () -> Tensor.rand(1, DType.INT32, 2));
    assertEquals("rand needs a floating dtype, got " + DType.INT32, e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Tensor.randn(1, DType.INT64, 2));
    assertEquals("randn needs a floating dtype, got " + DType.INT64, e.getMessage());
  }
}
