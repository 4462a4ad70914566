package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.RuntimeContext;
import dev.ufunc4j.kernel.ElementwiseOp;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Accuracy and reproducibility of the reductions, against exact references computed here with
 * {@link BigDecimal} (the oracle for adversarial sums no library gets exactly), and their
 * independence from the thread count and the strategy (inner or outer).
 */
class ReductionTest {

  /**
   * Integral reductions and scans run the ops' generated fold loops, as floating ones do (issue
   * 24): every integral dtype's {@code (T, T) -> T} entry of the associative built-ins has them
   * ({@code ReduceLoops} has no integral loop of its own any more). Their results are checked
   * against NumPy in UfuncGoldenTest (integral.json: rows longer than a leaf, whole-range values).
   */
  @Test
  void integralReductionsHaveGeneratedFoldLoops() {
    for (ElementwiseOp op : List.of(Builtins_add.OP, Builtins_mul.OP, Builtins_maximum.OP,
        Builtins_minimum.OP, Builtins_bitwiseAnd.OP, Builtins_bitwiseOr.OP,
        Builtins_bitwiseXor.OP)) {
      for (DType d : List.of(DType.INT8, DType.UINT8, DType.INT16, DType.UINT16, DType.INT32,
          DType.UINT32, DType.INT64, DType.UINT64)) {
        assertNotNull(op.foldKernel(d), op.name() + " has no fold loops for " + d);
      }
    }
    // uint64's amax compares unsigned, through maximum's uint64 loops (ReduceLoops has no sign)
    Tensor u = Tensor.of(new long[] {1, -1, 5}, 3).to(DType.UINT64);
    assertEquals(-1L, u.amax(new int[] {0}, false).getLong());
    assertEquals(1L, u.amin(new int[] {0}, false).getLong());
  }

  /**
   * Views that start at an offset into their storage (narrow, select, a slice of a transpose, a
   * complex column) reduce their own elements: integer-valued data, so every sum is exact and the
   * expected value is plain arithmetic over the view's elements read one by one. The loops ignored
   * the offset before and read from the storage's first element
   * ({@code arange(14).narrow(0, 3, 2).sum()} was 1, not 7).
   */
  @Test
  void reductionsOfViewsWithAnOffsetReadTheirOwnElements() {
    assertEquals(7, Tensor.arange(14).narrow(0, 3, 2).sum().getLong());
    SplittableRandom rng = new SplittableRandom(23);
    for (DType dtype : List.of(DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.INT32, DType.INT64)) {
      Tensor base = Tensor.randint(rng.nextLong(), -50, 50, dtype, 9, 40);
      List<Tensor> views = List.of(
          base.narrow(0, 3, 4),
          base.select(0, 5),
          base.t().slice(0, 7, 31, 3),
          base.narrow(1, 13, 20).narrow(0, 2, 6));
      for (Tensor v : views) {
        double sum = 0;
        double max = Double.NEGATIVE_INFINITY;
        double[] rowSums = new double[(int) v.size(0)];
        long[] idx = new long[v.ndim()];
        for (long e = 0; e < v.numel(); e++) {
          long rest = e;
          for (int d = v.ndim() - 1; d >= 0; d--) {
            idx[d] = rest % v.size(d);
            rest /= v.size(d);
          }
          double x = v.getDouble(idx);
          sum += x;
          max = Math.max(max, x);
          rowSums[(int) idx[0]] += x;
        }
        String what = dtype + " view " + java.util.Arrays.toString(v.shape()) + " at offset "
            + v.offset();
        assertEquals(sum, v.sum().getDouble(), what + ": sum");
        assertEquals(max, v.amax().getDouble(), what + ": amax");
        assertEquals(sum / v.numel(), v.to(DType.FLOAT64).mean().getDouble(), 1e-12, what + ": mean");
        if (v.ndim() == 2) {
          Tensor rows = v.sum(new int[] {1}, false);
          for (int r = 0; r < rowSums.length; r++) {
            assertEquals(rowSums[r], rows.getDouble(r), what + ": row " + r);
          }
        }
      }
    }
    Tensor complex = Tensor.ofComplex(new double[] {1, 2, 3, 4, 5, 6, 7, 8}, 2, 2);
    Tensor column = complex.select(1, 1); // elements 3+4i and 7+8i, offset 1
    assertEquals(10.0, column.sum().getReal());
    assertEquals(12.0, column.sum().getImag());
  }

  /** 1e8 float32 ones: a sequential float32 sum stops at 2^24; pairwise leaves are exact. */
  @Test
  void hundredMillionOnesSumExactly() {
    Tensor ones = Tensor.ones(DType.FLOAT32, 100_000_000L);
    assertEquals(1e8, ones.sum().getDouble(), 0);
    assertEquals(1.0, ones.mean().getDouble(), 0);
  }

  /**
   * The bits of a contiguous float sum are those of the tree docs/reductions.md specifies,
   * computed from that text with scalar adds ({@link DocumentedSumTree}): leaves of 2048 split off
   * in halves at whole leaves; in a leaf, element {@code i} adds into accumulator {@code i mod K}
   * (K = 64 float32 or 32 float64 accumulators, from +0.0), then the accumulators fold in halves.
   * Nothing in it depends on the vector width, so these bits are the same on every machine
   * ({@code SumBitsAcrossVectorWidthsTest} runs this JVM's sums under narrower vectors). Values
   * spanning twelve orders of magnitude make any other order show in the last bits; the sizes
   * take every tail length of a leaf's last block in turn.
   */
  @Test
  void contiguousSumsFollowTheDocumentedTreeBitForBit() {
    SplittableRandom rng = new SplittableRandom(7);
    int[] sizes = {1, 7, 15, 17, 31, 33, 63, 64, 65, 100, 127, 2047, 2048, 2049, 5000, 100_003,
        1 << 20};
    for (int n : sizes) {
      double[] d = new double[n];
      float[] f = new float[n];
      double[] fAsDouble = new double[n];
      for (int i = 0; i < n; i++) {
        d[i] = rng.nextGaussian() * Math.pow(10, rng.nextInt(-6, 7));
        f[i] = (float) d[i];
        fAsDouble[i] = f[i];
      }
      float expectF = (float) DocumentedSumTree.run(fAsDouble, 0, n, 1, true);
      double expectD = DocumentedSumTree.run(d, 0, n, 1, false);
      assertEquals(Float.floatToRawIntBits(expectF),
          Float.floatToRawIntBits((float) Tensor.of(f, n).sum().getDouble()), "float32, n = " + n);
      assertEquals(Double.doubleToRawLongBits(expectD),
          Double.doubleToRawLongBits(Tensor.of(d, n).sum().getDouble()), "float64, n = " + n);
    }
  }

  /**
   * A NaN result is stored as the canonical NaN whatever NaN payloads the input holds
   * (docs/reductions.md): which payload an add or a max passes on is the hardware's and the JIT's
   * choice, so any other NaN could differ between machines. Sums, means and maxima, whole and by
   * rows and columns, float32 and float64.
   */
  @Test
  void nanResultsAreTheCanonicalNaN() {
    double[] d = new double[300];
    for (int i = 0; i < d.length; i++) {
      d[i] = i % 7 - 3;
    }
    float[] f = new float[300];
    for (int i = 0; i < f.length; i++) {
      f[i] = (float) d[i];
    }
    f[5] = Float.intBitsToFloat(0x7fc00011);
    f[250] = Float.intBitsToFloat(0xffc00022);
    d[5] = Double.longBitsToDouble(0x7ff8000000000011L);
    d[250] = Double.longBitsToDouble(0xfff8000000000022L);
    for (Tensor t : List.of(Tensor.of(f, 30, 10), Tensor.of(d, 30, 10))) {
      List<Tensor> results = List.of(t.sum(), t.mean(), t.amax(), t.amin(), t.sum(0), t.sum(1),
          t.amax(0), t.amin(1), t.t().sum(1));
      int nans = 0;
      for (Tensor r : results) {
        Tensor c = r.contiguous();
        for (long i = 0; i < c.numel(); i++) {
          long bits = t.dtype() == DType.FLOAT32
              ? Float.floatToRawIntBits(c.segment().getAtIndex(ValueLayout.JAVA_FLOAT, c.offset() + i))
              : Double.doubleToRawLongBits(c.segment().getAtIndex(ValueLayout.JAVA_DOUBLE, c.offset() + i));
          boolean nan = t.dtype() == DType.FLOAT32
              ? Float.isNaN(Float.intBitsToFloat((int) bits)) : Double.isNaN(Double.longBitsToDouble(bits));
          if (nan) {
            nans++;
            assertEquals(t.dtype() == DType.FLOAT32 ? 0x7fc00000L : 0x7ff8000000000000L, bits,
                t.dtype() + " " + r.shape().length + "-d result, element " + i);
          }
        }
      }
      // Whole: 4; columns 0 and 5: 2 per column result (three of them); rows 0 and 25: 2 per row
      // result (sum(1), amin(1)).
      assertEquals(4 + 2 * 3 + 2 * 2, nans, t.dtype().toString());
    }
  }

  /** Huge and tiny values alternating: the error stays within the pairwise bound of the exact sum. */
  @Test
  void alternatingHugeAndTinyStayWithinThePairwiseBound() {
    int n = 1 << 20;
    float[] v = new float[n];
    SplittableRandom rng = new SplittableRandom(42);
    for (int i = 0; i < n; i++) {
      v[i] = i % 2 == 0 ? (float) (1e8 * (1 + rng.nextDouble())) : (float) rng.nextDouble();
    }
    Tensor t = Tensor.of(v, n);
    BigDecimal exact = BigDecimal.ZERO;
    double absSum = 0;
    for (float f : v) {
      exact = exact.add(new BigDecimal(f));
      absSum += Math.abs(f);
    }
    double got = t.sum().getDouble();
    double error = Math.abs(new BigDecimal(got).subtract(exact).doubleValue());
    double bound = 2 * (20 + 2) * 0x1p-24 * absSum;
    assertTrue(error <= bound, "error " + error + " above the pairwise bound " + bound);
    // And far better than the sequential sum's worst case, which this input reaches.
    double sequential = 0;
    float s = 0;
    for (float f : v) {
      s += f;
    }
    sequential = Math.abs(new BigDecimal(s).subtract(exact).doubleValue());
    assertTrue(error < sequential, "pairwise " + error + " vs sequential " + sequential);
  }

  /** The same bits on one thread and on two, for the inner and the outer strategy alike. */
  @Test
  void bitsDoNotDependOnTheThreadCount() {
    Tensor m = Tensor.randn(7, DType.FLOAT32, 1024, 2048);
    Tensor all1;
    Tensor rows1;
    Tensor cols1;
    try (var _ = RuntimeContext.use(RuntimeContext.builder().threads(1).build())) {
      all1 = m.sum();
      rows1 = m.sum(1);
      cols1 = m.sum(0);
    }
    try (var _ = RuntimeContext.use(RuntimeContext.builder().threads(2).build())) {
      assertEquals(all1.getDouble(), m.sum().getDouble(), 0);
      assertArrayEquals(rows1.toFloatArray(), m.sum(1).toFloatArray());
      assertArrayEquals(cols1.toFloatArray(), m.sum(0).toFloatArray());
    }
    try (var _ = RuntimeContext.use(RuntimeContext.builder().threads(4).build())) {
      assertEquals(all1.getDouble(), m.sum().getDouble(), 0);
    }
  }

  /** A column sum (outer strategy) and the same sum of the transposed copy (inner) agree. */
  @Test
  void outerAndInnerStrategiesAgreeWithFloat64() {
    Tensor m = Tensor.randn(11, DType.FLOAT64, 300, 257);
    Tensor byColumns = m.sum(0);
    Tensor byRows = m.t().contiguous().sum(1);
    double[] a = byColumns.toDoubleArray();
    double[] b = byRows.toDoubleArray();
    for (int j = 0; j < a.length; j++) {
      assertEquals(a[j], b[j], 1e-12 * 300, "column " + j);
    }
    assertArrayEquals(m.amax(0).toDoubleArray(), m.t().contiguous().amax(1).toDoubleArray());
  }

  @Test
  void keepDimAndSumToShapeMakeTheGradientShape() {
    Tensor c = Tensor.ones(DType.FLOAT32, 2, 3);
    assertArrayEquals(new long[] {1, 3}, c.sumToShape(1, 3).shape());
    assertArrayEquals(new float[] {2, 2, 2}, c.sumToShape(1, 3).toFloatArray());
    assertArrayEquals(new long[] {2, 1}, c.sumToShape(2, 1).shape());
    assertArrayEquals(new float[] {3, 3}, c.sumToShape(2, 1).toFloatArray());
    assertSame(c, c.sumToShape(2, 3));
    assertArrayEquals(new long[] {2, 1}, c.sum(new int[] {1}, true).shape());
    BroadcastException e = assertThrows(BroadcastException.class, () -> c.sumToShape(3, 2));
    assertTrue(e.getMessage().contains("size [3, 2] is not expandable to size [2, 3]."));
  }

  @Test
  void refusedCallsLeaveOutUntouchedAndNameTheValues() {
    Tensor x = Tensor.ones(DType.FLOAT32, 2, 3);
    Tensor out = Tensor.full(DType.FLOAT32, 7.0, 3);
    assertThrows(IndexOutOfBoundsException.class, () -> Ops.sum(x, new int[] {2}, false, out));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Ops.sum(x, new int[] {0, -2}, false, out));
    assertTrue(e.getMessage().contains("dim 0 appears multiple times"), e.getMessage());
    assertThrows(BroadcastException.class, () -> Ops.sum(x, new int[] {1}, false, out));
    assertArrayEquals(new float[] {7, 7, 7}, out.toFloatArray());
    assertThrows(IllegalArgumentException.class, () -> Ops.sum(null));
    assertThrows(IllegalArgumentException.class, () -> Tensor.ones(DType.INT32, 3).mean());
  }
}
