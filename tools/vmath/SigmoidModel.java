import java.util.stream.IntStream;

/**
 * The scalar twin of the fused float32 sigmoid kernel (MathEmitter.sigmoidFloat: the same
 * operations in the same order, Math.fma for the fused ones, the rare lanes' block included), run
 * over every float32 bit pattern (or every step-th) against the double-precision sigmoid
 * (1/(1 + e^-x) or e^x/(1 + e^x) with StrictMath.exp: within 2^-27 of a float32 ulp):
 * docs/vector-math.md, "A fused float32 sigmoid". KernelVsModel checks that the kernel gives
 * these bits.
 *
 * <pre>
 * java tools/vmath/SigmoidModel.java [step]
 * </pre>
 */
public class SigmoidModel {
  static final float LOG2E = 1.442695f, LN2_HI = 0.6931472f, LN2_LO = -1.9046542e-09f;
  static final float MAGIC = 0x1.8p23f;
  /** MathEmitter.EXPM1_F with alternating signs: E(-m), e^-m - 1 = -m + m^2 E(-m). */
  static final float[] E_NEG = {0.5f, -0.16666667f, 0.04166624f, -0.008333286f, 0.0013948604f,
      -0.00019907598f};

  /** e^-ax = (uh + ul) 2^-q: {magic, uh, ul}. */
  static float[] expNeg(float ax) {
    float magic = Math.fma(ax, -LOG2E, MAGIC); // 1.5 2^23 - q
    float qn = magic - MAGIC;
    float mh = Math.fma(qn, LN2_HI, ax); // ax - q ln2_hi, exact
    float nml = qn * -LN2_LO; // -(q ln2_lo)... the low part of m, negated
    float m = mh - nml;
    int n = E_NEG.length - 1;
    float p = Math.fma(m, E_NEG[n], E_NEG[n - 1]);
    for (int i = n - 2; i >= 0; i--) p = Math.fma(m, p, E_NEG[i]);
    float tail = Math.fma(m * m, p, nml);
    float a = 1 - mh;
    float aErr = (1 - a) - mh;
    float low = aErr + tail;
    float uh = a + low;
    float ul = (a - uh) + low;
    return new float[] {magic, uh, ul};
  }

  static float pow2Neg(float magic) {
    return Float.intBitsToFloat((Float.floatToRawIntBits(magic) + (127 - 0x4b400000)) << 23);
  }

  static float pow2(int k) {
    return Float.intBitsToFloat((k + 127) << 23);
  }

  static float sigmoid(float x) {
    float ax = Math.abs(x);
    float[] e = expNeg(ax);
    float p2 = pow2Neg(e[0]);
    float wh = e[1] * p2, wl = e[2] * p2;
    float d = 1 + wh;
    float dLow = ((1 - d) + wh) + wl;
    float inv = 1 / d;
    boolean neg = x < 0;
    float n = neg ? e[1] : 1f;
    float nl = neg ? e[2] : 0f;
    float y = n * inv;
    float res = Math.fma(-y, d, n);
    float res2 = Math.fma(-y, dLow, res) + nl;
    float r = Math.fma(res2, inv, y);
    float fast = r * (neg ? p2 : 1f);
    if (!(ax <= 87f)) { // rare: NaN, |x| > 87
      if (x != x) return Float.NaN;
      if (x > 0) return 1f;
      float[] f = expNeg(Math.min(ax, 104f));
      int k = Float.floatToRawIntBits(f[0]) - 0x4b400000; // -q
      int half = k >> 1;
      float ph = pow2(half);
      return (f[1] * ph + f[2] * ph) * pow2(k - half);
    }
    return fast;
  }

  static double exact(float x) {
    if (x >= 0) return 1 / (1 + StrictMath.exp(-(double) x));
    double e = StrictMath.exp(x);
    return e / (1 + e);
  }

  static double ulp(double e) {
    return Math.scalb(1.0, Math.max(Math.getExponent(e), -126) - 23);
  }

  public static void main(String[] a) {
    int step = a.length > 0 ? Integer.parseInt(a[0]) : 1;
    int chunks = 1024;
    double[] worst = new double[chunks];
    float[] at = new float[chunks];
    long[] wrongSpecial = new long[chunks];
    long[] rounded = new long[chunks];
    long total = 1L << 32;
    IntStream.range(0, chunks).parallel().forEach(c -> {
      long from = total * c / chunks, to = total * (c + 1) / chunks;
      double w = 0; float wa = 0; long bad = 0, cr = 0;
      for (long b = from; b < to; b += step) {
        float x = Float.intBitsToFloat((int) b);
        float r = sigmoid(x);
        if (x != x) { if (r == r) bad++; continue; }
        double ex = exact(x);
        if ((float) ex == r) cr++;
        if (ex == 0) { if (r != 0) bad++; continue; }
        double err = Math.abs(r - ex) / ulp(ex);
        if (err > w) { w = err; wa = x; }
      }
      worst[c] = w; at[c] = wa; wrongSpecial[c] = bad; rounded[c] = cr;
    });
    double w = 0; float wa = 0; long bad = 0, cr = 0;
    for (int c = 0; c < chunks; c++) {
      if (worst[c] > w) { w = worst[c]; wa = at[c]; }
      bad += wrongSpecial[c]; cr += rounded[c];
    }
    System.out.printf("inputs %d, max %.4f ulp at %s, correctly rounded %d, wrong NaN/zero %d%n",
        total / step, w, Float.toString(wa), cr, bad);
    for (float x : new float[] {0f, -0f, 1f, -1f, 17f, 20f, -20f, 87f, -87f, -87.5f, -100f,
        -103.9f, -104f, -200f, 88f, 1e30f, -1e30f, Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY, Float.NaN}) {
      System.out.printf("  sigmoid(%s) = %s (exact %s)%n", x, sigmoid(x), (float) exact(x));
    }
  }
}
