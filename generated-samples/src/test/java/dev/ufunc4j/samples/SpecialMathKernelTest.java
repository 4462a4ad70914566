package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.math.SpecialMath;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The kernels of {@code SpecialMath} calls give the Java methods' bits (issue 26 item 3): float64
 * bit for bit, float32 as the float form ({@code SpecialMath.erf(float)}, vectorised) or {@code
 * (float) SpecialMath.f((double) x)} (the others, lane by lane), on edge values (±0, subnormals of
 * both widths, ±inf, NaN, the poles, logit's 0 and 1, erf's region boundaries) and random inputs
 * over several scales (4,099 elements: full vectors and a tail).
 */
class SpecialMathKernelTest {

  private static final double[] EDGES = {0.0, -0.0, 1, -1, 2, -2, 0.5, -0.5, 0.25, 0.75, 3, 12,
      1e-300, -1e-300, Double.MIN_VALUE, 27.3, -27.3, 1e300, -1e300, 709.8, -745.2, 1.4616321449683622,
      -2.5, 4503599627370496.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN,
      -Double.MIN_VALUE, 1e-310, Float.MIN_VALUE, -Float.MIN_VALUE, 1e-40, Float.MIN_NORMAL, -3,
      -1e10, 0.875, Math.nextDown(0.875f), -0.875, 2.25, Math.nextDown(2.25f), -2.25, 3.9192059,
      4, -4, 4.5, 10.05, -10.05};

  static double[] inputs(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[] x = new double[4099];
    System.arraycopy(EDGES, 0, x, 0, EDGES.length);
    for (int i = EDGES.length; i < x.length; i++) {
      x[i] = switch (i % 4) {
        case 0 -> r.nextDouble(-30, 30);
        case 1 -> r.nextDouble(0, 1);
        case 2 -> Math.copySign(Math.pow(10, r.nextDouble(-300, 300)), r.nextDouble() - 0.5);
        default -> r.nextDouble(-3, 3);
      };
    }
    return x;
  }

  /** A float32 form of a function: {@code SpecialMath.erf(float)}. */
  interface FloatForm {
    float apply(float x);
  }

  private static void checkUnary(String name, Function<Tensor, Tensor> kernel,
      DoubleUnaryOperator scalar) {
    checkUnary(name, kernel, scalar, x -> (float) scalar.applyAsDouble(x));
  }

  private static void checkUnary(String name, Function<Tensor, Tensor> kernel,
      DoubleUnaryOperator scalar, FloatForm floatForm) {
    double[] x = inputs(name.hashCode());
    double[] got = kernel.apply(Tensor.of(x, x.length)).toDoubleArray();
    float[] xf = new float[x.length];
    for (int i = 0; i < x.length; i++) {
      xf[i] = (float) x[i];
    }
    float[] gotF = kernel.apply(Tensor.of(xf, xf.length)).toFloatArray();
    for (int i = 0; i < x.length; i++) {
      assertEquals(Double.doubleToLongBits(scalar.applyAsDouble(x[i])),
          Double.doubleToLongBits(got[i]), name + "(" + x[i] + ") float64");
      assertEquals(Float.floatToIntBits(floatForm.apply(xf[i])),
          Float.floatToIntBits(gotF[i]), name + "(" + xf[i] + ") float32");
    }
  }

  @Test
  void unaryFunctionsGiveTheMethodsBits() {
    checkUnary("erf", SpecialFunctionsOps::erf, SpecialMath::erf, SpecialMath::erf);
    checkUnary("erfc", SpecialFunctionsOps::erfc, SpecialMath::erfc);
    checkUnary("lgamma", SpecialFunctionsOps::lgamma, SpecialMath::lgamma);
    checkUnary("digamma", SpecialFunctionsOps::digamma, SpecialMath::digamma);
    checkUnary("expit", SpecialFunctionsOps::expit, SpecialMath::expit);
    checkUnary("logit", SpecialFunctionsOps::logit, SpecialMath::logit);
    checkUnary("sinc", SpecialFunctionsOps::sinc, SpecialMath::sinc);
  }

  @Test
  void xlogyGivesTheMethodsBits() {
    double[] x = inputs(1);
    double[] y = inputs(2);
    BiFunction<Tensor, Tensor, Tensor> kernel = SpecialFunctionsOps::xlogy;
    DoubleBinaryOperator scalar = SpecialMath::xlogy;
    double[] got = kernel.apply(Tensor.of(x, x.length), Tensor.of(y, y.length)).toDoubleArray();
    for (int i = 0; i < x.length; i++) {
      assertEquals(Double.doubleToLongBits(scalar.applyAsDouble(x[i], y[i])),
          Double.doubleToLongBits(got[i]), "xlogy(" + x[i] + ", " + y[i] + ")");
    }
    float[] xf = new float[x.length];
    float[] yf = new float[y.length];
    for (int i = 0; i < x.length; i++) {
      xf[i] = (float) x[i];
      yf[i] = (float) y[i];
    }
    float[] gotF = kernel.apply(Tensor.of(xf, xf.length), Tensor.of(yf, yf.length))
        .toFloatArray();
    for (int i = 0; i < x.length; i++) {
      assertEquals(Float.floatToIntBits((float) scalar.applyAsDouble(xf[i], yf[i])),
          Float.floatToIntBits(gotF[i]), "float32 xlogy(" + xf[i] + ", " + yf[i] + ")");
    }
  }

  /** The loop over the exponent's bits, in every integer lane width, against the method. */
  @Test
  void ipowIsTheMethodInEveryIntegerWidth() {
    SplittableRandom r = new SplittableRandom(3);
    int n = 1027;
    long[] a = new long[n];
    long[] b = new long[n];
    long[] edgesA = {0, 1, -1, 2, -2, 3, Long.MAX_VALUE, Long.MIN_VALUE};
    long[] edgesB = {0, 1, 2, 63, 64, -1, -2, -3, Long.MAX_VALUE, Long.MIN_VALUE};
    for (int i = 0; i < n; i++) {
      a[i] = i < 80 ? edgesA[i % edgesA.length] : r.nextLong(-40, 40);
      b[i] = i < 80 ? edgesB[i / edgesA.length % edgesB.length] : r.nextLong(-3, 70);
    }
    long[] got = SpecialFunctionsOps.ipow(Tensor.of(a, n), Tensor.of(b, n)).toLongArray();
    int[] ai = new int[n];
    int[] bi = new int[n];
    byte[] ab = new byte[n];
    byte[] bb = new byte[n];
    for (int i = 0; i < n; i++) {
      assertEquals(SpecialMath.ipow(a[i], b[i]), got[i], "ipow(" + a[i] + ", " + b[i] + ")");
      ai[i] = (int) a[i];
      bi[i] = (int) b[i];
      ab[i] = (byte) a[i];
      bb[i] = (byte) b[i];
    }
    int[] gotI = SpecialFunctionsOps.ipow(Tensor.of(ai, n), Tensor.of(bi, n)).toIntArray();
    byte[] gotB = SpecialFunctionsOps.ipow(Tensor.of(ab, n), Tensor.of(bb, n)).toByteArray();
    for (int i = 0; i < n; i++) {
      assertEquals((int) SpecialMath.ipow(ai[i], bi[i]), gotI[i],
          "int32 ipow(" + ai[i] + ", " + bi[i] + ")");
      assertEquals((byte) SpecialMath.ipow(ab[i], bb[i]), gotB[i],
          "int8 ipow(" + ab[i] + ", " + bb[i] + ")");
    }
  }
}
