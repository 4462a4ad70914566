package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.loops.LoopPlan;
import dev.ufunc4j.internal.RuntimeContext;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Rows whose inputs all broadcast along them ({@code expand}ed views): the runtime computes each
 * row's first element and copies it along ({@link LoopPlan#repeatsRows}); into a target that is
 * strided along the row, the kernel's strided loop takes them. Either way the result equals
 * {@link Builtins#add(double, double)} (or {@link Builtins#floorDivide(long, long)}) applied
 * element by element and rounded once to the result dtype, on one and on two threads.
 */
class RepeatedRowsTest {

  /** Builtins.add per element (componentwise for complex), rounded once to {@code dtype}. */
  private static Tensor expectedSum(Tensor x, Tensor y, DType dtype) {
    long[] shape = x.shapeRef();
    if (dtype.isComplex()) {
      double[] p = x.to(DType.COMPLEX128).toComplexArray();
      double[] q = y.to(DType.COMPLEX128).toComplexArray();
      double[] sum = new double[p.length];
      for (int i = 0; i < p.length; i++) {
        sum[i] = Builtins.add(p[i], q[i]);
      }
      return Tensor.ofComplex(sum, shape).to(dtype);
    }
    double[] p = x.toDoubleArray();
    double[] q = y.toDoubleArray();
    if (dtype.isIntegral(true)) {
      long[] sum = new long[p.length];
      for (int i = 0; i < p.length; i++) {
        sum[i] = Builtins.add((long) p[i], (long) q[i]);
      }
      return Tensor.of(sum, shape).to(dtype);
    }
    double[] sum = new double[p.length];
    for (int i = 0; i < p.length; i++) {
      sum[i] = Builtins.add(p[i], q[i]);
    }
    return Tensor.of(sum, shape).to(dtype);
  }

  private static Tensor random(long seed, DType dtype, long... shape) {
    if (dtype.isIntegral(true)) {
      // -100..100 wrapped into unsigned dtypes on purpose: drawn as int64, converted.
      return Tensor.randint(seed, dtype == DType.BOOL ? 0 : -100, dtype == DType.BOOL ? 2 : 100,
          DType.INT64, shape).to(dtype);
    }
    if (dtype.isComplex()) {
      long n = Arrays.stream(shape).reduce(1, (p, q) -> p * q);
      return Tensor.ofComplex(Tensor.randn(seed, DType.FLOAT64, 2 * n).toDoubleArray(), dtype,
          shape);
    }
    return Tensor.randn(seed, DType.FLOAT32, shape).to(dtype);
  }

  /** The plan the dispatcher makes for {@code out = x + y} (x, y and out of one shape). */
  private static LoopPlan plan(Tensor out, Tensor x, Tensor y) {
    return LoopPlan.of(out.shapeRef(),
        new long[][] {out.stridesRef(), x.stridesRef(), y.stridesRef()},
        new int[] {out.dtype().byteSize(), x.dtype().byteSize(), y.dtype().byteSize()});
  }

  private static void assertAdds(Tensor x, Tensor y, String what) {
    for (int threads : new int[] {1, 2}) {
      try (var _ = RuntimeContext.use(RuntimeContext.builder().threads(threads).grain(64).build())) {
        Tensor got = Ops.add(x, y);
        assertTrue(plan(got, x, y).repeatsRows(), what + ": " + plan(got, x, y));
        Tensor want = expectedSum(x, y, got.dtype());
        assertTrue(want.equal(got), what + " on " + threads + " threads");
        // Into every other element of a wider target: the output steps 2 along the row, so the
        // kernel's strided loop takes the rows.
        long[] shape = got.shapeRef();
        int last = shape.length - 1;
        long[] wide = shape.clone();
        wide[last] = 2 * shape[last];
        Tensor out = Tensor.zeros(got.dtype(), wide).slice(last, 0, wide[last], 2);
        assertFalse(plan(out, x, y).repeatsRows(), what + " into a strided target");
        Ops.add(x, y, out);
        assertTrue(want.equal(out), what + " into a strided target on " + threads + " threads");
      }
    }
  }

  @Test
  void expandedColumnsForEveryElementSize() {
    // 301 columns: not a multiple of any vector length, so the doubling copies end mid-block.
    for (DType dtype : new DType[] {DType.BOOL, DType.INT8, DType.FLOAT16, DType.BFLOAT16,
        DType.INT32, DType.FLOAT32, DType.FLOAT64, DType.COMPLEX64, DType.COMPLEX128}) {
      Tensor x = random(1, dtype, 37, 1).expand(37, 301);
      Tensor y = random(2, dtype, 37, 1).expand(37, 301);
      assertAdds(x, y, dtype + " (37, 1) + (37, 1), both expanded to (37, 301)");
    }
  }

  @Test
  void expandedScalarsAndBatches() {
    Tensor one = random(3, DType.FLOAT32, 1).expand(1000);
    assertAdds(one, random(4, DType.FLOAT32, 1).expand(1000), "two expanded scalars");
    Tensor x = random(5, DType.INT16, 3, 5, 1).expand(3, 5, 70);
    Tensor y = random(6, DType.FLOAT32, 1, 5, 1).expand(3, 5, 70);
    assertAdds(x, y, "int16 (3, 5, 1) + float32 (1, 5, 1), expanded to (3, 5, 70)");
  }

  @Test
  void integerDivisionByZeroInARepeatedRowStillThrows() {
    Tensor a = Tensor.of(new int[] {7, 8, 9}, 3, 1).expand(3, 50);
    Tensor b = Tensor.of(new int[] {2, 0, 3}, 3, 1).expand(3, 50);
    ArithmeticException e = assertThrows(ArithmeticException.class, () -> Ops.floorDivide(a, b));
    assertTrue(e.getMessage().contains("integer division by zero"), e.getMessage());
    Tensor c = Tensor.of(new int[] {2, 1, 3}, 3, 1).expand(3, 50);
    Tensor q = Ops.floorDivide(a, c);
    long[] dividends = {7, 8, 9};
    long[] divisors = {2, 1, 3};
    for (int i = 0; i < 3; i++) {
      long want = Builtins.floorDivide(dividends[i], divisors[i]);
      for (int j = 0; j < 50; j++) {
        assertEquals(want, q.getLong(i, j), "element (" + i + ", " + j + ")");
      }
    }
  }
}
