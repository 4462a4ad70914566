package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ufunc4j.Autograd;
import dev.ufunc4j.BroadcastException;
import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.PromotionException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Ops with several results ({@link SeveralResults}): the tensors of one call against the declared
 * scalar method called per element (the record's components), in every layout the dispatcher
 * plans (contiguous, broadcast, strided), with new results and {@code out=} targets; and the
 * refusals, each before anything is written.
 */
class SeveralResultsTest {

  private static final SplittableRandom RANDOM = new SplittableRandom(26);

  /** The layouts each check runs in: its inputs as given, broadcast against each other, strided. */
  private enum Layout {
    CONTIGUOUS,
    BROADCAST,
    STRIDED
  }

  /** Two inputs of {@code n} values each, laid out as {@code layout} says. */
  private static Tensor[] laidOut(Tensor a, Tensor b, Layout layout) {
    long n = a.numel();
    return switch (layout) {
      case CONTIGUOUS -> new Tensor[] {a, b};
      // a as a column against b as a row: the result is n x n, every pair once.
      case BROADCAST -> new Tensor[] {a.reshape(n, 1), b.reshape(1, n)};
      // Every other element of a longer tensor, and every third.
      case STRIDED -> new Tensor[] {
          Tensor.stack(new Tensor[] {a, a}, 1).select(1, 0),
          Tensor.stack(new Tensor[] {b, b, b}, 1).select(1, 2)};
    };
  }

  private static final long[] INTEGRAL_EDGES = {
      0, 1, -1, 2, -2, 7, -7, 127, -128, 255, 32767, -32768, Integer.MAX_VALUE,
      Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE};

  /** Edge values and random ones of {@code d}'s range, narrowed as the dtype holds them. */
  private static long[] integralValues(DType d, int random) {
    long[] v = Arrays.copyOf(INTEGRAL_EDGES, INTEGRAL_EDGES.length + random);
    for (int i = INTEGRAL_EDGES.length; i < v.length; i++) {
      v[i] = RANDOM.nextInt(4) == 0 ? RANDOM.nextLong() : RANDOM.nextLong(-300, 300);
    }
    for (int i = 0; i < v.length; i++) {
      v[i] = Scalars.narrow(d, v[i]);
    }
    return v;
  }

  @ParameterizedTest
  @EnumSource(names = {"INT64", "INT32", "INT16", "INT8", "UINT8"})
  void divmodMatchesItsScalarMethod(DType d) {
    for (Layout layout : Layout.values()) {
      long[] a = integralValues(d, 200);
      long[] b = integralValues(d, 200);
      for (int i = 0; i < b.length; i++) {
        b[i] = b[i] == 0 ? 3 : b[i]; // division by zero: its own test
      }
      Tensor[] in = laidOut(Tensor.of(a, a.length).to(d), Tensor.of(b, b.length).to(d), layout);
      SeveralResultsOps.DivMod r = SeveralResultsOps.divmod(in[0], in[1]);
      assertEquals(d, r.quotient().dtype());
      assertEquals(d, r.remainder().dtype());
      long[] x = in[0].expand(r.quotient().shape()).contiguous().toLongArray();
      long[] y = in[1].expand(r.quotient().shape()).contiguous().toLongArray();
      long[] q = r.quotient().toLongArray();
      long[] m = r.remainder().toLongArray();
      for (int i = 0; i < x.length; i++) {
        SeveralResults.DivMod want = SeveralResults.divmod(x[i], y[i]);
        String at = d + " " + layout + ": divmod(" + x[i] + ", " + y[i] + ")";
        assertEquals(Scalars.narrow(d, want.quotient()), q[i], at);
        assertEquals(Scalars.narrow(d, want.remainder()), m[i], at);
      }
    }
  }

  private static final double[] FLOATING_EDGES = {
      0.0, -0.0, 1, -1, 0.5, -0.5, 2.5, -2.5, 3.75, -1e-3, Math.PI, -Math.PI, 1e5, -123456.75,
      1e30, Double.MIN_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN};

  private static double[] floatingValues(int random) {
    double[] v = Arrays.copyOf(FLOATING_EDGES, FLOATING_EDGES.length + random);
    for (int i = FLOATING_EDGES.length; i < v.length; i++) {
      v[i] = RANDOM.nextDouble(-1000, 1000) * (RANDOM.nextBoolean() ? 1 : 1e-3);
    }
    return v;
  }

  /** {@code x} rounded as a tensor of {@code d} holds it, read back as a double. */
  private static double[] rounded(double[] x, DType d) {
    return Tensor.of(x, x.length).to(d).toDoubleArray();
  }

  /**
   * The component {@code f} of the scalar method at each (rounded) input, computed at the compute
   * precision (float32 for the 16-bit dtypes) and rounded to {@code d}.
   */
  private static double[] expected(double[] x, DType d, Function<Double, Double> f) {
    boolean single = d != DType.FLOAT64;
    double[] want = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      double v = f.apply(x[i]);
      want[i] = single ? (float) v : v;
    }
    return rounded(want, d);
  }

  /** Within {@code ulps} of {@code d}'s (float32's for the 16-bit dtypes: then 1 of d's) ulp. */
  private static void assertClose(double[] want, double[] got, DType d, int ulps, String what) {
    for (int i = 0; i < want.length; i++) {
      if (Double.isNaN(want[i]) || Double.isNaN(got[i])) {
        assertEquals(Double.isNaN(want[i]), Double.isNaN(got[i]), what + " at " + i);
        continue;
      }
      double ulp = switch (d) {
        case FLOAT64 -> Math.ulp(want[i]);
        case FLOAT32 -> Math.ulp((float) want[i]);
        case FLOAT16 -> Math.scalb(Math.ulp((float) want[i]), 13);
        default -> Math.scalb(Math.ulp((float) want[i]), 16);
      };
      assertTrue(Math.abs(want[i] - got[i]) <= ulps * ulp,
          what + " at " + i + ": want " + want[i] + ", got " + got[i]);
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"FLOAT64", "FLOAT32", "FLOAT16", "BFLOAT16"})
  void sincosMatchesItsScalarMethod(DType d) {
    double[] values = floatingValues(300);
    for (Layout layout : List.of(Layout.CONTIGUOUS, Layout.STRIDED)) {
      Tensor t = Tensor.of(values, values.length).to(d);
      Tensor x = layout == Layout.CONTIGUOUS ? t : laidOut(t, t, layout)[0];
      SeveralResultsOps.SinCos r = SeveralResultsOps.sincos(x);
      assertEquals(d, r.sin().dtype());
      assertEquals(d, r.cos().dtype());
      double[] in = x.contiguous().toDoubleArray();
      // docs/vector-math.md: the kernels' sin and cos, and Math's, are each within 1 ulp.
      assertClose(expected(in, d, v -> SeveralResults.sincos(v).sin()), r.sin().toDoubleArray(),
          d, 2, d + " " + layout + " sin");
      assertClose(expected(in, d, v -> SeveralResults.sincos(v).cos()), r.cos().toDoubleArray(),
          d, 2, d + " " + layout + " cos");
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"FLOAT64", "FLOAT32", "FLOAT16"})
  void partsShareOneLocalAndMatchTheScalarMethodBitForBit(DType d) {
    double[] values = rounded(floatingValues(300), d);
    for (Layout layout : List.of(Layout.CONTIGUOUS, Layout.STRIDED)) {
      Tensor t = Tensor.of(values, values.length).to(d);
      Tensor x = layout == Layout.CONTIGUOUS ? t : laidOut(t, t, layout)[0];
      SeveralResultsOps.Parts r = SeveralResultsOps.parts(x);
      assertEquals(DType.BOOL, r.negative().dtype());
      double[] in = x.contiguous().toDoubleArray();
      double[] whole = r.whole().toDoubleArray();
      double[] fraction = r.fraction().toDoubleArray();
      long[] negative = r.negative().toLongArray();
      double[] wantWhole = expected(in, d, v -> SeveralResults.parts(v).whole());
      double[] wantFraction = expected(in, d, v -> SeveralResults.parts(v).fraction());
      for (int i = 0; i < in.length; i++) {
        String at = d + " " + layout + ": parts(" + in[i] + ")";
        // Floor, ceil and x - whole are exact: the same bits, the sign of zero included.
        assertEquals(Double.doubleToLongBits(wantWhole[i]), Double.doubleToLongBits(whole[i]), at);
        assertEquals(Double.doubleToLongBits(wantFraction[i]),
            Double.doubleToLongBits(fraction[i]), at);
        assertEquals(SeveralResults.parts(in[i]).negative() ? 1 : 0, negative[i], at);
      }
    }
  }

  @Test
  void outFormsWriteTheTargetsAndReturnThem() {
    Tensor a = Tensor.of(new long[] {7, -7, 9, 100}, 4).to(DType.INT32);
    Tensor b = Tensor.of(new long[] {2, 2, -4, 7}, 4).to(DType.INT32);
    Tensor q = Tensor.zeros(4).to(DType.INT32);
    Tensor r = Tensor.zeros(4).to(DType.INT64); // a wider target: int32 casts to int64
    SeveralResultsOps.DivMod result = SeveralResultsOps.divmod(a, b, q, r);
    assertSame(q, result.quotient());
    assertSame(r, result.remainder());
    assertArrayEquals(new long[] {3, -3, -2, 14}, q.toLongArray());
    assertArrayEquals(new long[] {1, -1, 1, 2}, r.toLongArray());
    // In place: the first operand is also the quotient's target (the same view).
    SeveralResultsOps.divmod(a, b, a, r);
    assertArrayEquals(new long[] {3, -3, -2, 14}, a.toLongArray());
  }

  @Test
  void numberFormsWrapTheNumber() {
    Tensor a = Tensor.of(new long[] {7, -7}, 2);
    SeveralResultsOps.DivMod r = SeveralResultsOps.divmod(a, 3);
    assertArrayEquals(new long[] {2, -2}, r.quotient().toLongArray());
    assertArrayEquals(new long[] {1, -1}, r.remainder().toLongArray());
    SeveralResultsOps.DivMod s = SeveralResultsOps.divmod(20, a);
    assertArrayEquals(new long[] {2, -2}, s.quotient().toLongArray());
    assertArrayEquals(new long[] {6, 6}, s.remainder().toLongArray());
  }

  @Test
  void theTwinIsARecordOfTensorsNamedAsTheComponents() {
    RecordComponent[] c = SeveralResultsOps.DivMod.class.getRecordComponents();
    assertEquals(List.of("quotient", "remainder"), Arrays.stream(c).map(RecordComponent::getName)
        .toList());
    assertTrue(Arrays.stream(c).allMatch(x -> x.getType() == Tensor.class));
    // No ufunc methods for an op with several results.
    assertThrows(NoSuchFieldException.class, () -> SeveralResultsOps.class.getField("divmod"));
  }

  /** Targets filled with 99, which every refused call must leave as they were. */
  private static Tensor untouched(DType d, long... shape) {
    return Tensor.zeros(shape).add(99).to(d);
  }

  private static void assertUntouched(Tensor... targets) {
    for (Tensor t : targets) {
      for (double v : t.toDoubleArray()) {
        assertEquals(99.0, v);
      }
    }
  }

  @Test
  void refusedTargetsWriteNothing() {
    Tensor a = Tensor.of(new long[] {7, -7, 9}, 3);
    Tensor b = Tensor.of(new long[] {2, 2, 4}, 3);
    Tensor q = untouched(DType.INT64, 3);
    Tensor wrongShape = untouched(DType.INT64, 4);
    BroadcastException shape = assertThrows(BroadcastException.class,
        () -> SeveralResultsOps.divmod(a, b, q, wrongShape));
    assertTrue(shape.getMessage().startsWith("divmod: target for 'remainder' with shape [4]"),
        shape.getMessage());
    assertUntouched(q, wrongShape);

    Tensor narrow = untouched(DType.INT8, 3);
    Tensor q2 = untouched(DType.INT64, 3);
    // The same-kind rule: an int64 result casts into int8 (PyTorch allows it), a float one not.
    Tensor x = Tensor.of(new double[] {0.5, 1, 2}, 3);
    Tensor sin = untouched(DType.FLOAT64, 3);
    Tensor cosInt = untouched(DType.INT64, 3);
    PromotionException cast = assertThrows(PromotionException.class,
        () -> SeveralResultsOps.sincos(x, sin, cosInt));
    assertTrue(cast.getMessage().contains("'cos' can't be cast to the desired output type int64"),
        cast.getMessage());
    assertUntouched(sin, cosInt);

    IllegalArgumentException shared = assertThrows(IllegalArgumentException.class,
        () -> SeveralResultsOps.divmod(a, b, q2, q2));
    assertTrue(shared.getMessage().contains("share memory"), shared.getMessage());
    assertUntouched(q2);

    Tensor longer = untouched(DType.INT64, 4);
    IllegalArgumentException partial = assertThrows(IllegalArgumentException.class,
        () -> SeveralResultsOps.divmod(longer.slice(0, 1, 4, 1), b, longer.slice(0, 0, 3, 1),
            narrow));
    assertTrue(partial.getMessage().contains("'quotient'"), partial.getMessage());
    assertUntouched(longer, narrow);
  }

  @Test
  void integerDivisionByZeroThrowsAsTheSingleResultOpsDoAndWritesNothing() {
    Tensor a = Tensor.of(new long[] {7, -7, 9}, 3);
    Tensor b = Tensor.of(new long[] {2, 0, 4}, 3);
    ArithmeticException fresh = assertThrows(ArithmeticException.class,
        () -> SeveralResultsOps.divmod(a, b));
    assertEquals("divmod: integer division by zero", fresh.getMessage());
    Tensor q = untouched(DType.INT64, 3);
    Tensor r = untouched(DType.INT64, 3);
    assertThrows(ArithmeticException.class, () -> SeveralResultsOps.divmod(a, b, q, r));
    assertUntouched(q, r);
    // Floating operands have no long body to divide: the dispatcher's usual refusal.
    IllegalArgumentException floating = assertThrows(IllegalArgumentException.class,
        () -> SeveralResultsOps.divmod(Tensor.of(new double[] {1}, 1), b.narrow(0, 0, 1)));
    assertTrue(floating.getMessage().startsWith("divmod has no kernel"), floating.getMessage());
  }

  @Test
  void gradientsAreRefusedNamingTheOp() {
    Tensor x = Tensor.of(new double[] {0.5, 1}, 2).requiresGrad(true);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SeveralResultsOps.sincos(x));
    assertTrue(e.getMessage().startsWith("sincos returns several results, which have no"
        + " gradients yet"), e.getMessage());
    try (var _ = Autograd.noGrad()) {
      assertEquals(Math.sin(0.5), SeveralResultsOps.sincos(x).sin().getDouble(0));
    }
  }
}
