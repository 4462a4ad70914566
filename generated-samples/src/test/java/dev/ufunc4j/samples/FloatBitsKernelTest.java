package dev.ufunc4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ufunc4j.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BinaryOperator;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The kernels of the JDK's functions of a float's bits ({@code Math.nextUp nextDown nextAfter ulp
 * getExponent scalb}, issue 26 item 2) give Java's bits: float64 the double method's, float32 the
 * float overload's (a float32 kernel computes in float32). Inputs: every exponent boundary (each
 * power of two and its neighbours, from the subnormals to MAX_VALUE), ±0, ±MIN_VALUE, ±inf, NaN,
 * and random bit patterns (every exponent equally likely), in 4,099 elements (full vectors and a
 * tail); nextAfter on all pairs of the edge values.
 */
class FloatBitsKernelTest {

  static double[] doubles() {
    List<Double> v = new ArrayList<>(List.of(0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE,
        Double.MAX_VALUE, -Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
        Double.NaN, Double.MIN_NORMAL - Double.MIN_VALUE, 0.1, -7.5));
    for (int e = -1074; e <= 1023; e += e < -1000 || e > 1000 || Math.abs(e) < 60 ? 1 : 37) {
      double p = Math.scalb(1.0, e);
      v.addAll(List.of(p, -p, Math.nextUp(p), Math.nextDown(p), -Math.nextDown(p)));
    }
    SplittableRandom r = new SplittableRandom(26);
    while (v.size() < 4099) {
      v.add(Double.longBitsToDouble(r.nextLong()));
    }
    return v.stream().mapToDouble(Double::doubleValue).toArray();
  }

  static float[] floats() {
    List<Float> v = new ArrayList<>(List.of(0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE,
        Float.MAX_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
        Float.NaN, Float.MIN_NORMAL - Float.MIN_VALUE, 0.1f, -7.5f));
    for (int e = -149; e <= 127; e++) {
      float p = Math.scalb(1f, e);
      v.addAll(List.of(p, -p, Math.nextUp(p), Math.nextDown(p), -Math.nextDown(p)));
    }
    SplittableRandom r = new SplittableRandom(27);
    while (v.size() < 4099) {
      v.add(Float.intBitsToFloat(r.nextInt()));
    }
    float[] out = new float[v.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = v.get(i);
    }
    return out;
  }

  /** A NaN compares as NaN (the kernels store one canonical NaN); anything else bit for bit. */
  private static long bits(double d) {
    return Double.doubleToLongBits(d);
  }

  private static int bits(float f) {
    return Float.floatToIntBits(f);
  }

  private static void checkUnary(String name, UnaryOperator<Tensor> kernel,
      DoubleUnaryOperator doubleMethod, UnaryOperator<Float> floatMethod) {
    double[] x = doubles();
    double[] got = kernel.apply(Tensor.of(x, x.length)).toDoubleArray();
    for (int i = 0; i < x.length; i++) {
      assertEquals(bits(doubleMethod.applyAsDouble(x[i])), bits(got[i]),
          name + "(" + x[i] + ") float64");
    }
    float[] xf = floats();
    float[] gotF = kernel.apply(Tensor.of(xf, xf.length)).toFloatArray();
    for (int i = 0; i < xf.length; i++) {
      assertEquals(bits(floatMethod.apply(xf[i])), bits(gotF[i]), name + "(" + xf[i] + ") float32");
    }
  }

  @Test
  void nextUpAndNextDown() {
    checkUnary("nextUp", JdkMathOps::nextUp, Math::nextUp, Math::nextUp);
    checkUnary("nextDown", JdkMathOps::nextDown, Math::nextDown, Math::nextDown);
  }

  @Test
  void ulpAndGetExponent() {
    checkUnary("ulp", JdkMathOps::ulp, Math::ulp, Math::ulp);
    checkUnary("getExponent", JdkMathOps::getExponent, x -> Math.getExponent(x),
        x -> (float) Math.getExponent(x));
  }

  /** Float32: Java's {@code Math.scalb(float, int)}, which rounds {@code x * 2^n} once too. */
  @Test
  void scalbByConstants() {
    checkUnary("scalb3", JdkMathOps::scalb3, x -> Math.scalb(x, 3), x -> Math.scalb(x, 3));
    checkUnary("scalbDown140", JdkMathOps::scalbDown140, x -> Math.scalb(x, -140),
        x -> Math.scalb(x, -140));
    checkUnary("scalbUp200", JdkMathOps::scalbUp200, x -> Math.scalb(x, 200),
        x -> Math.scalb(x, 200));
    checkUnary("scalbDown1080", JdkMathOps::scalbDown1080, x -> Math.scalb(x, -1080),
        x -> Math.scalb(x, -1080));
    checkUnary("scalbUp2000", JdkMathOps::scalbUp2000, x -> Math.scalb(x, 2000),
        x -> Math.scalb(x, 2000));
    checkUnary("scalbMinInt", JdkMathOps::scalbMinInt, x -> Math.scalb(x, Integer.MIN_VALUE),
        x -> Math.scalb(x, Integer.MIN_VALUE));
  }

  /** Every pair of the first 300 edge values (both orders), then random pairs. */
  @Test
  void nextAfterOnAllEdgePairs() {
    checkBinary(JdkMathOps::nextAfter, Math::nextAfter);
  }

  private static void checkBinary(BinaryOperator<Tensor> kernel, DoubleBinaryOperator method) {
    double[] d = doubles();
    int k = 300;
    double[] a = new double[k * k + d.length];
    double[] b = new double[a.length];
    for (int i = 0; i < k * k; i++) {
      a[i] = d[i / k];
      b[i] = d[i % k];
    }
    for (int i = 0; i < d.length; i++) {
      a[k * k + i] = d[i];
      b[k * k + i] = d[(i * 7 + 3) % d.length];
    }
    double[] got = kernel.apply(Tensor.of(a, a.length), Tensor.of(b, b.length)).toDoubleArray();
    for (int i = 0; i < a.length; i++) {
      assertEquals(bits(method.applyAsDouble(a[i], b[i])), bits(got[i]),
          "nextAfter(" + a[i] + ", " + b[i] + ") float64");
    }
    float[] f = floats();
    float[] af = new float[k * k];
    float[] bf = new float[k * k];
    for (int i = 0; i < k * k; i++) {
      af[i] = f[i / k];
      bf[i] = f[i % k];
    }
    float[] gotF = kernel.apply(Tensor.of(af, af.length), Tensor.of(bf, bf.length)).toFloatArray();
    for (int i = 0; i < af.length; i++) {
      assertEquals(bits(Math.nextAfter(af[i], (double) bf[i])), bits(gotF[i]),
          "nextAfter(" + af[i] + ", " + bf[i] + ") float32");
    }
  }
}
