package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.annotation.Identity;
import dev.ufunc4j.dtype.DType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.DoubleBinaryOperator;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;

/**
 * A user's ops as ufuncs ({@link Reducers}: the generated {@code ReducerOps.logAddExp} and {@code
 * ReducerOps.ema} fields), against folds of their own scalar methods: the non-associative {@code
 * ema} exactly (its body is plain arithmetic), the associative {@code logAddExp} along
 * docs/ufuncs.md's pairwise tree within the vector math's ulps per step.
 */
class SampleUfuncTest {

  @Test
  void theFieldsDescribeTheDeclarations() {
    assertEquals("logAddExp", ReducerOps.logAddExp.name());
    assertEquals(Identity.LOWEST, ReducerOps.logAddExp.identity());
    assertTrue(ReducerOps.logAddExp.isAssociative());
    assertEquals(Identity.NONE, ReducerOps.ema.identity());
  }

  /**
   * {@code logAddExp.reduce(x, 1)} of a [4096, 4096] took 19 s where the elementwise op over as
   * many elements takes a fraction of a second: its fold loop held the transcendental body five
   * times (the four-vector loop and the masked one), and that method did not run as compiled
   * vector code. Asserted without timing anything: JFR's compilation events must show the JIT's
   * top tier (C2, level 4) compiling the fold loop of the op's float32 fold class, and no
   * compilation of that class's methods failing. The loop runs until that event arrives (or two
   * minutes pass, however loaded the machine).
   */
  @Test
  void logAddExpFoldLoopIsCompiledByTheTopTier() throws Exception {
    String foldClass = Reducers.class.getName() + "_logAddExp_w32f";
    Set<String> topTier = ConcurrentHashMap.newKeySet();
    List<String> failed = new CopyOnWriteArrayList<>();
    try (RecordingStream events = new RecordingStream()) {
      events.enable("jdk.Compilation").withThreshold(Duration.ZERO);
      events.onEvent("jdk.Compilation", e -> {
        RecordedMethod m = e.getValue("method");
        if (m == null || !m.getType().getName().equals(foldClass)) {
          return;
        }
        if (!e.getBoolean("succeded")) {
          failed.add(m.getName() + " at level " + e.getShort("compileLevel"));
        } else if (e.getShort("compileLevel") == 4) {
          topTier.add(m.getName());
        }
      });
      events.startAsync();
      Tensor x = Tensor.randn(3, DType.FLOAT32, 256, 2048);
      long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (!topTier.contains("float32_float32_fold") && failed.isEmpty()
          && System.nanoTime() < deadline) {
        ReducerOps.logAddExp.reduce(x, 1);
        Thread.sleep(1);
      }
    }
    assertEquals(List.of(), failed, "compilations of " + foldClass + " that failed");
    assertTrue(topTier.contains("float32_float32_fold"),
        "no top-tier compilation of " + foldClass + ".float32_float32_fold; compiled there: "
            + topTier);
  }

  @Test
  void emaReduceAndAccumulateAreTheLeftFoldOfItsScalarMethod() {
    Tensor x = Tensor.randn(7, DType.FLOAT64, 11, 3);
    Tensor reduced = ReducerOps.ema.reduce(x, 0);
    Tensor running = ReducerOps.ema.accumulate(x, 0);
    for (int c = 0; c < 3; c++) {
      double acc = x.getDouble(0, c);
      assertEquals(acc, running.getDouble(0, c), 0.0);
      for (int i = 1; i < 11; i++) {
        acc = Reducers.ema(acc, x.getDouble(i, c));
        assertEquals(acc, running.getDouble(i, c), 0.0, "running [" + i + ", " + c + "]");
      }
      assertEquals(acc, reduced.getDouble(c), 0.0);
    }
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ReducerOps.ema.reduce(x)).getMessage().contains("'ema' is not reorderable"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ReducerOps.ema.reduce(Tensor.zeros(DType.FLOAT64, 0))).getMessage()
        .contains("zero-size array to reduction operation ema which has no identity"));
  }

  /**
   * A user's integral associative op ({@code shiftedProduct}) over int8, int32 and int64: reduce
   * (rows longer than a leaf's accumulators, whole, along dim 0 and along a strided view) and
   * accumulate give the left fold of its scalar method, wrapped to the dtype (its arithmetic is
   * exact modulo 2^bits, so any tree gives that fold).
   */
  @Test
  void shiftedProductReduceAndAccumulateAreFoldsOfItsScalarMethod() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(24);
    for (DType dtype : new DType[] {DType.INT8, DType.INT32, DType.INT64}) {
      int bits = 8 * dtype.byteSize();
      long[] values = new long[3 * 700];
      for (int i = 0; i < values.length; i++) {
        values[i] = random.nextLong();
      }
      Tensor x = Tensor.of(values, 3, 700).to(dtype); // wraps, as PyTorch's casts do
      long[] v = x.to(DType.INT64).toLongArray();
      long all = 0; // the identity
      Tensor running = ReducerOps.shiftedProduct.accumulate(x, 1);
      for (int row = 0; row < 3; row++) {
        long acc = v[row * 700];
        assertEquals(acc, running.getLong(row, 0));
        for (int i = 1; i < 700; i++) {
          acc = wrap(Reducers.shiftedProduct(acc, v[row * 700 + i]), bits);
          assertEquals(acc, running.getLong(row, i), dtype + " running [" + row + ", " + i + "]");
        }
        assertEquals(acc, ReducerOps.shiftedProduct.reduce(x, 1).getLong(row), dtype + " row");
        all = wrap(Reducers.shiftedProduct(all, acc), bits);
      }
      assertEquals(all, ReducerOps.shiftedProduct.reduce(x).getLong(), dtype + " all");
      assertEquals(all, ReducerOps.shiftedProduct.reduce(x.t().contiguous().t()).getLong(),
          dtype + " all, column-major");
      for (int c : new int[] {0, 350, 699}) {
        long col = v[c];
        for (int r = 1; r < 3; r++) {
          col = wrap(Reducers.shiftedProduct(col, v[r * 700 + c]), bits);
        }
        assertEquals(col, ReducerOps.shiftedProduct.reduce(x, 0).getLong(c), dtype + " col " + c);
      }
      assertEquals(dtype, ReducerOps.shiftedProduct.reduce(x, 0).dtype());
    }
  }

  /** {@code v} wrapped to a signed integer of {@code bits} bits, as the dtype holds it. */
  private static long wrap(long v, int bits) {
    return v << (64 - bits) >> (64 - bits);
  }

  @Test
  void logAddExpReduceIsTheDocumentedTreeOfItsScalarMethod() {
    for (int n : new int[] {1, 2, 5, 16, 33}) {
      Tensor x = Tensor.randn(n, DType.FLOAT64, 2, n).mul(30);
      Tensor r = ReducerOps.logAddExp.reduce(x, 1);
      for (int row = 0; row < 2; row++) {
        double[] v = x.select(0, row).contiguous().toDoubleArray();
        double want = tree(v, Reducers::logAddExp);
        assertEquals(want, r.getDouble(row), 8 * n * Math.ulp(want), "n = " + n);
        // and it is a logsumexp
        assertEquals(x.select(0, row).logsumexp(new int[] {0}, false).getDouble(),
            r.getDouble(row), 1e-9 * Math.abs(want));
      }
    }
    assertEquals(Double.NEGATIVE_INFINITY,
        ReducerOps.logAddExp.reduce(Tensor.zeros(DType.FLOAT32, 0)).getDouble());
  }

  @Test
  void logAddExpAccumulateOuterAtAndReduceAtFollowTheScalarMethod() {
    Tensor x = Tensor.randn(3, DType.FLOAT64, 6);
    double[] v = x.toDoubleArray();
    Tensor running = ReducerOps.logAddExp.accumulate(x, 0);
    double acc = v[0];
    for (int i = 1; i < 6; i++) {
      acc = Reducers.logAddExp(acc, v[i]);
      assertEquals(acc, running.getDouble(i), 4 * i * Math.ulp(acc));
    }
    Tensor o = ReducerOps.logAddExp.outer(x, x);
    assertEquals(Reducers.logAddExp(v[2], v[4]), o.getDouble(2, 4), 2 * Math.ulp(o.getDouble(2, 4)));
    Tensor t = Tensor.zeros(DType.FLOAT64, 3);
    ReducerOps.logAddExp.at(t, Tensor.of(new int[] {1, 1, 2}, 3), x.narrow(0, 0, 3));
    double t1 = Reducers.logAddExp(Reducers.logAddExp(0, v[0]), v[1]);
    assertEquals(t1, t.getDouble(1), 4 * Math.ulp(t1));
    assertEquals(0.0, t.getDouble(0), 0.0);
    Tensor segments = ReducerOps.logAddExp.reduceAt(x, Tensor.of(new long[] {0, 4}, 2), 0);
    assertEquals(Reducers.logAddExp(v[4], v[5]), segments.getDouble(1),
        2 * Math.ulp(segments.getDouble(1)));
  }

  /** The README's user-op example (there on the quickstart's {@code LossOps}: the same body). */
  @Test
  void readmeExample() {
    Tensor scores = Tensor.of(new float[] {1, 2, 3, 1000, 1000, 1000}, 2, 3);
    Tensor r = ReducerOps.logAddExp.reduce(scores, 1);
    assertEquals(3.4076, r.getDouble(0), 5e-5);
    assertEquals(1001.0986, r.getDouble(1), 5e-4);
    assertEquals(r.getDouble(1), ReducerOps.logAddExp.accumulate(scores, 1).getDouble(1, 2), 1e-3);
    assertEquals(Double.NEGATIVE_INFINITY,
        ReducerOps.logAddExp.reduce(Tensor.zeros(DType.FLOAT32, 0)).getDouble());
  }

  /** docs/ufuncs.md's tree: adjacent pairs per level, odd ones set aside and joined latest first. */
  private static double tree(double[] v, DoubleBinaryOperator op) {
    List<Double> aside = new ArrayList<>();
    double[] level = v;
    while (level.length > 1) {
      int n = level.length;
      if (n % 2 == 1) {
        aside.add(level[n - 1]);
        n--;
      }
      double[] next = new double[n / 2];
      for (int i = 0; i < n / 2; i++) {
        next[i] = op.applyAsDouble(level[2 * i], level[2 * i + 1]);
      }
      level = next;
    }
    double result = level[0];
    for (int i = aside.size() - 1; i >= 0; i--) {
      result = op.applyAsDouble(result, aside.get(i));
    }
    return result;
  }
}
