package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.RuntimeContext;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@code add} with transposed, permuted, sliced and broadcast operands (the tiled loop plan, see
 * {@code dev.ufunc4j.internal.loops.Tiling}) equals the op's scalar method {@link Builtins#add(double,
 * double)} applied element by element and rounded once to the result dtype, on one and on two
 * threads, for every element size the tile copy handles.
 */
class TransposedOperandTest {

  private static long[] shapeOf(Tensor a, Tensor b) {
    return Broadcast.shapes(new long[][] {a.shapeRef(), b.shapeRef()});
  }

  /** Builtins.add per element (componentwise for complex), rounded once to {@code dtype}. */
  private static Tensor expected(Tensor a, Tensor b, DType dtype) {
    long[] shape = shapeOf(a, b);
    Tensor x = a.expand(shape);
    Tensor y = b.expand(shape);
    if (dtype.isComplex()) {
      double[] p = x.to(DType.COMPLEX128).toComplexArray();
      double[] q = y.to(DType.COMPLEX128).toComplexArray();
      double[] sum = new double[p.length];
      for (int i = 0; i < p.length; i++) {
        sum[i] = Builtins.add(p[i], q[i]);
      }
      return Tensor.ofComplex(sum, shape).to(dtype);
    }
    if (dtype.isIntegral(true)) {
      double[] p = x.toDoubleArray();
      double[] q = y.toDoubleArray();
      long[] sum = new long[p.length];
      for (int i = 0; i < p.length; i++) {
        sum[i] = Builtins.add((long) p[i], (long) q[i]);
      }
      return Tensor.of(sum, shape).to(dtype);
    }
    double[] p = x.toDoubleArray();
    double[] q = y.toDoubleArray();
    double[] sum = new double[p.length];
    for (int i = 0; i < p.length; i++) {
      sum[i] = Builtins.add(p[i], q[i]);
    }
    return Tensor.of(sum, shape).to(dtype);
  }

  private static Tensor random(long seed, DType dtype, long... shape) {
    if (dtype.isIntegral(true)) {
      // -100..100 wrapped into unsigned and bool dtypes on purpose: drawn as int64, converted.
      return Tensor.randint(seed, -100, 100, DType.INT64, shape).to(dtype);
    }
    if (dtype.isComplex()) {
      long n = 1;
      for (long s : shape) {
        n *= s;
      }
      return Tensor.ofComplex(Tensor.randn(seed, DType.FLOAT64, 2 * n).toDoubleArray(), dtype, shape);
    }
    return Tensor.randn(seed, DType.FLOAT32, shape).to(dtype);
  }

  private static void assertAdds(Tensor a, Tensor b, String what) {
    for (int threads : new int[] {1, 2}) {
      try (var _ = RuntimeContext.use(RuntimeContext.builder().threads(threads).grain(1024).build())) {
        Tensor got = Ops.add(a, b);
        Tensor want = expected(a, b, got.dtype());
        assertTrue(want.equal(got), what + " on " + threads + " threads: " + firstDifference(want, got));
        // Into a C-contiguous out= target: the transposed inputs are staged.
        Tensor out = Tensor.empty(got.dtype(), shapeOf(a, b));
        Ops.add(a, b, out);
        assertTrue(want.equal(out), what + " into out= on " + threads + " threads");
      }
    }
  }

  private static String firstDifference(Tensor want, Tensor got) {
    if (!Arrays.equals(want.shapeRef(), got.shapeRef())) {
      return "shape " + Arrays.toString(got.shapeRef());
    }
    double[] w = want.to(DType.FLOAT64).toDoubleArray();
    double[] g = got.to(DType.FLOAT64).toDoubleArray();
    for (int i = 0; i < w.length; i++) {
      if (Double.compare(w[i], g[i]) != 0) {
        return "flat index " + i + ": want " + w[i] + ", got " + g[i];
      }
    }
    return "complex parts differ";
  }

  @Test
  void contiguousPlusTransposedForEveryElementSize() {
    // 300 x 1100: not divided by the 1024-column tiles, the 8-row strips or the 8x8 blocks.
    for (DType dtype :
        new DType[] {DType.INT8, DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.INT32,
            DType.FLOAT64, DType.COMPLEX64, DType.COMPLEX128}) {
      Tensor a = random(1, dtype, 300, 1100);
      Tensor b = random(2, dtype, 1100, 300).t();
      assertAdds(a, b, dtype + " a + b.T");
    }
  }

  @Test
  void mixedDtypesTransposed() {
    Tensor a = random(3, DType.BFLOAT16, 257, 333).t();
    Tensor b = random(4, DType.FLOAT32, 333, 257);
    assertAdds(a, b, "bfloat16.T + float32");
    assertAdds(b, a, "float32 + bfloat16.T");
  }

  @Test
  void bothInputsTransposedIntoAContiguousTarget() {
    Tensor a = random(5, DType.FLOAT32, 70, 45).t();
    Tensor b = random(6, DType.FLOAT32, 70, 45).t();
    Tensor out = Tensor.empty(DType.FLOAT32, 45, 70);
    Ops.add(a, b, out);
    assertTrue(expected(a, b, DType.FLOAT32).equal(out));
  }

  @Test
  void inPlaceAddOfATransposedOperand() {
    Tensor a = random(7, DType.FLOAT32, 129, 131);
    Tensor b = random(8, DType.FLOAT32, 131, 129).t();
    Tensor want = expected(a, b, DType.FLOAT32);
    Ops.add(a, b, a);
    assertTrue(want.equal(a));
  }

  @Test
  void permutedAndBroadcastOperands() {
    // NCHW + an NHWC tensor viewed as NCHW.
    Tensor x = random(9, DType.FLOAT32, 4, 19, 21, 3).permute(0, 3, 1, 2);
    Tensor y = random(10, DType.FLOAT32, 4, 3, 19, 21);
    assertAdds(y, x, "NCHW + permuted NHWC");
    // A transposed matrix plus a row and a column vector.
    Tensor t = random(11, DType.FLOAT64, 90, 130).t();
    assertAdds(t, random(12, DType.FLOAT64, 90), "transposed + row");
    assertAdds(t, random(13, DType.FLOAT64, 130, 1), "transposed + column");
    // A transposed matrix broadcast along a new leading dimension.
    Tensor m = random(14, DType.FLOAT32, 33, 40).t();
    assertAdds(random(15, DType.FLOAT32, 3, 40, 33), m, "batch + transposed");
  }

  @Test
  void slicedTransposedOperand() {
    // x[:, ::2].T: near stride 2 (the scalar tile copy).
    Tensor x = random(16, DType.FLOAT32, 150, 82).slice(1, 0, 82, 2).t();
    assertEquals(2, x.stridesRef()[0]);
    assertAdds(random(17, DType.FLOAT32, 41, 150), x, "contiguous + x[:, ::2].T");
  }
}
