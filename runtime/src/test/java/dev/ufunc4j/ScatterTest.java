package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import org.junit.jupiter.api.Test;

/**
 * The in-place forms of scatter and scatterAdd, their refusals before anything is written, and
 * the gradient where src is larger than index (PyTorch's own backward fails there). The
 * out-of-place forms are checked against PyTorch in VocabGoldenTest (goldens scatter and
 * scatter_add of tools/oracle/gen_vocab.py).
 */
class ScatterTest {

  @Test
  void inPlaceFormsWriteIntoTheTensor() {
    Tensor x = Tensor.of(new float[] {1, 2, 3}, 3);
    Tensor r = x.scatterAddInPlace(0, Tensor.of(new long[] {2, 2, 0}, 3),
        Tensor.of(new float[] {10, 20, 30}, 3));
    assertSame(x, r);
    assertArrayEquals(new float[] {31, 2, 33}, x.toFloatArray());
    x.scatterInPlace(0, Tensor.of(new long[] {1}, 1), Tensor.of(new float[] {-5}, 1));
    assertArrayEquals(new float[] {31, -5, 33}, x.toFloatArray());
  }

  /** A src that is the tensor itself is read as it was before the first write. */
  @Test
  void inPlaceReadsAnOverlappingSrcAsItWas() {
    Tensor x = Tensor.of(new long[] {1, 2, 3}, 3);
    x.scatterInPlace(0, Tensor.of(new long[] {1, 2, 0}, 3), x);
    assertArrayEquals(new long[] {3, 1, 2}, x.toLongArray());
  }

  @Test
  void refusalsWriteNothing() {
    Tensor x = Tensor.of(new float[] {1, 2, 3}, 3);
    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
        () -> x.scatterAddInPlace(0, Tensor.of(new long[] {0, 3}, 2),
            Tensor.of(new float[] {5, 5}, 2)));
    assertEquals("index 3 is out of bounds for dimension 0 with size 3", e.getMessage());
    assertArrayEquals(new float[] {1, 2, 3}, x.toFloatArray());
    assertThrows(IllegalArgumentException.class,
        () -> x.scatterInPlace(0, Tensor.of(new float[] {0}, 1), Tensor.of(new float[] {5}, 1)));
    IllegalArgumentException expanded = assertThrows(IllegalArgumentException.class,
        () -> Tensor.of(new float[] {1}, 1).expand(3).scatterAddInPlace(0,
            Tensor.of(new long[] {0}, 1), Tensor.of(new float[] {5}, 1)));
    assertTrue(expanded.getMessage().contains("stride 0"), expanded.getMessage());
  }

  @Test
  void inPlaceOnALeafThatRequiresGradIsRefused() {
    Tensor x = Tensor.of(new float[] {1, 2, 3}, 3).requiresGrad(true);
    assertThrows(IllegalStateException.class,
        () -> x.scatterAddInPlace(0, Tensor.of(new long[] {0}, 1), Tensor.of(new float[] {1}, 1)));
  }

  /** src [2, 3], index [1, 2]: src's gradient is the gathered one, zeros where index does not reach. */
  @Test
  void srcLargerThanIndexGetsAZeroPaddedGradient() {
    Tensor x = Tensor.zeros(DType.FLOAT32, 2, 2).requiresGrad(true);
    Tensor src = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3).requiresGrad(true);
    Tensor y = x.scatterAdd(1, Tensor.of(new long[] {1, 1}, 1, 2), src);
    assertArrayEquals(new float[] {0, 3, 0, 0}, y.toFloatArray());
    y.mul(Tensor.of(new float[] {1, 10, 100, 1000}, 2, 2)).sum().backward();
    assertArrayEquals(new float[] {10, 10, 0, 0, 0, 0}, src.grad().toFloatArray());
    assertArrayEquals(new float[] {1, 10, 100, 1000}, x.grad().toFloatArray());
  }

  /** Complex var is real: the real parts' variance plus the imaginary parts'. */
  @Test
  void complexVarianceIsReal() {
    Tensor z = Tensor.ofComplex(new float[] {1, 2, 3, -1, -2, 0.5f}, DType.COMPLEX64, 3);
    Tensor v = z.var();
    assertEquals(DType.FLOAT32, v.dtype());
    // re 1, 3, -2: mean 2/3, var 6.3333; im 2, -1, 0.5: mean 0.5, var 2.25
    assertEquals(8.583333f, v.toFloatArray()[0], 1e-5f);
  }
}
