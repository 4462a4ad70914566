package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The rare lanes of the float32 sin and cos kernels (docs/vector-math.md, "Fewer operations:
 * float32 log, sin and cos"): huge arguments (StrictMath lane by lane from 2^18 on, including
 * those where hi^2 and x^2 both overflow: sin(7.117551e26) was wrong when the short reduction's
 * test took them for common lanes), arguments next to a multiple of pi/2 (the two-sum
 * reduction), NaN, infinities and signed zeros, mixed with common lanes in the same vectors.
 */
class TrigRareLanesTest {

  private static float[] inputs() {
    List<Float> xs = new ArrayList<>(List.of(0f, -0f, 1f, -1f, 0.5f, 3f, -100f,
        7.117551e26f, -7.117551e26f, 1e19f, 4.3e19f, 1e30f, Float.MAX_VALUE, -Float.MAX_VALUE,
        0x1p18f, Math.nextDown(0x1p18f), 2.5e6f, 6.5e6f, 1.3e7f, 1e8f,
        Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN,
        // Next to multiples of pi/2 (the closest float32 approaches below 2^18).
        1.5707964f, 4.712389f, 252.8982f, 3.1415927f, 6.2831855f, 102943.7f, 209739.8f));
    // Each value beside common lanes, at every lane position of a vector.
    for (int i = 0; i < 64; i++) {
      xs.add(0.1f * i - 3f);
    }
    float[] a = new float[xs.size() * 3];
    for (int i = 0; i < a.length; i++) {
      a[i] = xs.get((i * 7) % xs.size());
    }
    return a;
  }

  private static void check(String name, UnaryOperator<Tensor> kernel, DoubleUnaryOperator strict) {
    float[] x = inputs();
    float[] r = kernel.apply(Tensor.of(x)).toFloatArray();
    for (int i = 0; i < x.length; i++) {
      double e = strict.applyAsDouble(x[i]);
      String what = name + "(" + x[i] + ") = " + r[i] + ", StrictMath " + e;
      if (Float.isNaN(x[i]) || Float.isInfinite(x[i])) {
        assertEquals(Float.floatToRawIntBits(Float.NaN), Float.floatToRawIntBits(r[i]), what);
      } else if (Math.abs(x[i]) >= 0x1p18f) {
        assertEquals((float) e, r[i], what); // StrictMath lane by lane, rounded once
      } else if (e == 0) {
        assertEquals(Float.floatToRawIntBits((float) e), Float.floatToRawIntBits(r[i]), what);
      } else {
        double ulp = Math.scalb(1.0, Math.getExponent(e) - 23);
        assertTrue(Math.abs(r[i] - e) <= ulp, what);
      }
    }
  }

  @Test
  void sinOfRareLanesIsStrictMathsOrWithinAnUlp() {
    check("sin", Ops::sin, StrictMath::sin);
  }

  @Test
  void cosOfRareLanesIsStrictMathsOrWithinAnUlp() {
    check("cos", Ops::cos, StrictMath::cos);
  }
}
