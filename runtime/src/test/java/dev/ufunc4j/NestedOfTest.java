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
    e = assertThrows(IllegalArgumentException.class, () -> Tensor.rand(1, DType.INT32, 2));
    assertEquals("rand needs a floating dtype, got " + DType.INT32, e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Tensor.randn(1, DType.INT64, 2));
    assertEquals("randn needs a floating dtype, got " + DType.INT64, e.getMessage());
  }
}
