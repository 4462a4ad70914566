import java.util.stream.IntStream;

/**
 * The scalar twin of the float32 tanh kernel (MathEmitter.tanhFloat: the same operations in the
 * same order, Math.fma for the fused ones), run over every non-negative float32 from {@code from}
 * on, every step-th bit pattern (tanh is odd and the kernel flips the sign bit, so the negative
 * half gives the same errors), against the double-precision Math.tanh (within a double ulp):
 * docs/vector-math.md, "float32 tanh, exp and sigmoid: integer steps". KernelVsModel checks that
 * the kernel gives these bits.
 *
 * <pre>
 * java tools/vmath/TanhModel.java [step [from]]    # from 0.8: every float of the large branch
 * </pre>
 */
public class TanhModel {
  static final float LOG2E = 1.442695f, LN2_HI = 0.6931472f, LN2_LO = -1.9046542e-09f;
  static final float MAGIC = 0x1.8p23f;
  /** MathEmitter.TANH_WIDE_F and EXP_DIRECT_F. */
  static final float[] T = {-0.33333308f, 0.13332348f, -0.053856123f, 0.021302262f,
      -0.007394366f, 0.0015706435f};
  static final float[] E = {1.0f, 1.0f, 0.4999999f, 0.1666642f, 0.041668225f, 0.008374833f,
      0.0013836825f};

  /** MathEmitter.horner: c[n] z + c[n-1] first, c[0] last. */
  static float horner(float z, float[] c) {
    int n = c.length - 1;
    float p = Math.fma(z, c[n], c[n - 1]);
    for (int i = n - 2; i >= 0; i--) p = Math.fma(p, z, c[i]);
    return p;
  }

  static float tanh(float x) {
    float ax = Math.abs(x);
    float z = ax * ax;
    float small = Math.fma(ax * z, horner(z, T), ax);
    // |x| clamped at 9.1 on the bits: NaN becomes 9.1 (and takes the small branch below).
    float t = Float.intBitsToFloat(Math.min(Float.floatToRawIntBits(ax),
        Float.floatToRawIntBits(9.1f))) * -2f;
    float magic = Math.fma(t, LOG2E, MAGIC);
    float q = magic - MAGIC;
    float r = Math.fma(q, -LN2_LO, Math.fma(q, -LN2_HI, t));
    float u = horner(r, E);
    // u 2^q: q added to u's exponent field (the magic sum's bits shifted by 23 are q's).
    float w = Float.intBitsToFloat(Float.floatToRawIntBits(u) + (Float.floatToRawIntBits(magic) << 23));
    // (1 - w)/(1 + w): numerator -(m + e) and denominator d + dLow exact pairs, the quotient q0
    // corrected by its residual; -1/d so that no negation is needed.
    float m = w - 1;
    float e = w - (m + 1);
    float d = w + 1;
    float dLow = (1 - d) + w;
    float negInv = -1f / d;
    float q0 = m * negInv;
    float res = Math.fma(q0, dLow, Math.fma(q0, d, m) + e);
    float large = Math.fma(res, negInv, q0);
    float v = ax >= 0.8f ? large : small;
    float out = Float.intBitsToFloat(Float.floatToRawIntBits(v)
        ^ (Float.floatToRawIntBits(x) & 0x80000000));
    return out != out ? Float.NaN : out;
  }

  static double ulp(double e) {
    return Math.scalb(1.0, Math.max(Math.getExponent(e), -126) - 23);
  }

  public static void main(String[] a) {
    int step = a.length > 0 ? Integer.parseInt(a[0]) : 1;
    float from = a.length > 1 ? Float.parseFloat(a[1]) : 0f;
    long lo = Float.floatToRawIntBits(from), hi = 0x7f800000L; // up to +inf
    int chunks = 256;
    double[] worst = new double[chunks];
    float[] at = new float[chunks];
    long[] rounded = new long[chunks];
    IntStream.range(0, chunks).parallel().forEach(c -> {
      long f = lo + (hi - lo) * c / chunks, to = lo + (hi - lo) * (c + 1) / chunks;
      double w = 0; float wa = 0; long cr = 0;
      for (long b = f; b < to; b += step) {
        float x = Float.intBitsToFloat((int) b);
        float r = tanh(x);
        double ex = Math.tanh(x);
        if ((float) ex == r) cr++;
        double err = Math.abs(r - ex) / ulp(ex);
        if (err > w) { w = err; wa = x; }
      }
      worst[c] = w; at[c] = wa; rounded[c] = cr;
    });
    double w = 0; float wa = 0; long cr = 0;
    for (int c = 0; c < chunks; c++) {
      if (worst[c] > w) { w = worst[c]; wa = at[c]; }
      cr += rounded[c];
    }
    System.out.printf("inputs %d from %s, max %.4f ulp at %s, correctly rounded %d%n",
        (hi - lo + step - 1) / step, from, w, Float.toString(wa), cr);
    for (float x : new float[] {0f, -0f, 0.8f, -0.8f, 1f, 9.1f, 20f, Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY, Float.NaN}) {
      System.out.printf("  tanh(%s) = %s (Math %s)%n", x, tanh(x), (float) Math.tanh(x));
    }
  }
}
