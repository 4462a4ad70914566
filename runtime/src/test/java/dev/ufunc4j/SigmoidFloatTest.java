package dev.ufunc4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The fused float32 sigmoid (MathEmitter.sigmoidFloat, docs/vector-math.md "A fused float32
 * sigmoid"): within 1 ulp of the exact value, subnormal results included, where the former
 * composed kernel {@code 1 / (1 + exp(-x))} was 2.3 ulp off (at -16.645874) and returned 0 for
 * the subnormal results below -88.72. The exact value is the double-precision sigmoid (within
 * 2^-27 of a float32 ulp). Every float32 is checked by {@code tools/vmath/SigmoidModel.java},
 * the kernel's scalar twin, and {@code KernelVsModel.java} (kernel = twin bit for bit).
 */
class SigmoidFloatTest {

  private static double exact(float x) {
    if (x >= 0) {
      return 1 / (1 + StrictMath.exp(-(double) x));
    }
    double e = StrictMath.exp(x);
    return e / (1 + e);
  }

  /** Edge values, beside common lanes at every lane position, and random bit patterns. */
  private static float[] inputs() {
    float[] edges = {0f, -0f, 1f, -1f, -16.645874f, 16.645874f, 17.32868f, 20f, -20f, 87f, -87f,
        87.00001f, -87.00001f, -87.836914f, -88.72284f, -90f, -100f, -103.27893f, -103.972f,
        -104f, 104f, -1e30f, 1e30f, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE,
        -Float.MIN_VALUE, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN};
    SplittableRandom random = new SplittableRandom(28);
    float[] a = new float[1 << 20];
    for (int i = 0; i < a.length; i++) {
      a[i] = i < edges.length * 17 ? edges[(i * 7) % edges.length]
          : i % 3 == 0 ? Float.intBitsToFloat(random.nextInt())
          : (float) (random.nextDouble() * 240 - 120);
    }
    return a;
  }

  @Test
  void float32SigmoidIsWithinOneUlpOfTheExactValue() {
    float[] x = inputs();
    float[] r = Ops.sigmoid(Tensor.of(x)).toFloatArray();
    for (int i = 0; i < x.length; i++) {
      String what = "sigmoid(" + x[i] + ") = " + r[i];
      if (Float.isNaN(x[i])) {
        assertEquals(Float.floatToRawIntBits(Float.NaN), Float.floatToRawIntBits(r[i]), what);
        continue;
      }
      double e = exact(x[i]);
      if ((float) e == 0 || (float) e == 1) {
        assertEquals((float) e, r[i], what + ", exact " + e); // 0 from -104, 1 from 17.33
        continue;
      }
      double ulp = Math.scalb(1.0, Math.max(Math.getExponent(e), -126) - 23);
      assertTrue(Math.abs(r[i] - e) <= ulp, what + ", exact " + e);
    }
  }
}
