import java.util.stream.IntStream;

/**
 * A scalar model of the float32 sin and cos kernels (MathEmitter.trigFloat: the short reduction,
 * the two-sum reduction of the rare lanes, the degree-2 polynomials; the same operations in the
 * same order), run over every float32 of [0, max) (every step-th), with the negative arguments
 * checked for symmetry, against StrictMath: docs/vector-math.md.
 *
 * <pre>
 * java tools/vmath/TrigModel.java sin|cos step max
 * </pre>
 */
public class TrigModel {
  static float[] S = {-0.16666655f, 0.0083321f, -0.00019503829f};
  static float[] C = {0.041666653f, -0.0013887653f, 2.4463703e-05f};
  static final float TWO_OVER_PI = 0.63661975f, MAGIC = 0x1.8p23f;
  static final float P1 = 1.5707964f, P2 = -4.371139e-08f, P3 = -1.7151245e-15f;
  static final float D1 = 1.5707963f, D2 = 7.54979e-08f, D3 = -1.7151245e-15f;
  static float CSQ = 1.6e-13f; // c^2, c = 4e-7
  static float[] SN;
  static boolean useP3 = true, loW = false;

  static float horner(float z, float[] c) {
    int n = c.length - 1;
    float p = Math.fma(z, c[n], c[n - 1]);
    for (int i = n - 2; i >= 0; i--) p = Math.fma(z, p, c[i]);
    return p;
  }

  /** Old precise reduction of signed x: {hi, lo}. */
  static float[] precise(float x, float q) {
    float r1 = Math.fma(-q, P1, x);
    float t = q * P2;
    float head = r1 - t;
    float back = head - r1;
    float sumErr = (r1 - (head - back)) - (t + back);
    float tail = Math.fma(-q, P3, sumErr - Math.fma(q, P2, -t));
    float hi = head + tail;
    float lo = tail - (hi - head);
    return new float[] {hi, lo};
  }

  static int rareCount;

  /** returns result; sets rare flag via array */
  static float trig(float x, boolean cos, boolean[] rareOut) {
    float magic = Math.fma(x, TWO_OVER_PI, MAGIC);
    float q = magic - MAGIC;
    float r1 = Math.fma(-q, D1, x);
    float hi = Math.fma(-q, D2, r1);
    float nlo = Math.fma(q, D2, hi - r1);
    if (useP3) nlo = Math.fma(q, D3, nlo);
    float z = hi * hi;
    float xx = x * x;
    boolean rare = !(Math.min(z, 1f) >= xx * CSQ);
    rareOut[0] = rare;
    if (rare) {
      if (!(Math.abs(x) < 0x1p18f)) return Float.NaN; // strict path
      float[] p = precise(x, q);
      hi = p[0]; nlo = -p[1];
      z = hi * hi;
    }
    float mh = hi * -0.5f;
    float w = Math.fma(mh, hi, 1f);
    float e = Math.fma(mh, hi, 1f - w);
    float sp = horner(z, SN);
    float ts = Math.fma(hi * z, sp, nlo);
    float cp = horner(z, C);
    float tc = Math.fma(z * z, cp, Math.fma(hi, nlo, e));
    float rs = hi - ts, rc = w + tc;
    int qb = Float.floatToRawIntBits(magic) - 0x4b400000;
    if (cos) qb += 1;
    boolean odd = (qb & 1) != 0;
    float r = odd ? rc : rs;
    if ((qb & 2) != 0) r = -r;
    return r;
  }

  static double ulp(double e) {
    double a = Math.abs(e);
    if (a < Float.MIN_NORMAL) return Float.MIN_VALUE;
    return Math.scalb(1.0, Math.getExponent(a) - 23);
  }

  public static void main(String[] a) {
    boolean cos = a[0].equals("cos");
    int step = Integer.parseInt(a[1]);
    float max = Float.parseFloat(a[2]);
    for (int i = 3; i < a.length; i++) {
      if (a[i].equals("noP3")) useP3 = false;
      else if (a[i].equals("loW")) loW = true;
      else if (a[i].startsWith("c=")) { float c = Float.parseFloat(a[i].substring(2)); CSQ = c * c; }
      else if (a[i].startsWith("S=")) S = parse(a[i].substring(2));
      else if (a[i].startsWith("C=")) C = parse(a[i].substring(2));
    }
    SN = new float[S.length]; for (int i = 0; i < S.length; i++) SN[i] = -S[i];
    int hiBits = Float.floatToRawIntBits(max);
    int chunks = 512;
    double[] worst = new double[chunks];
    float[] at = new float[chunks];
    long[] rares = new long[chunks], counts = new long[chunks];
    IntStream.range(0, chunks).parallel().forEach(c -> {
      long from = (long) hiBits * c / chunks, to = (long) hiBits * (c + 1) / chunks;
      double w = 0; float wa = 0; boolean[] rr = new boolean[1];
      for (long b = from; b < to; b += step) {
        float x = Float.intBitsToFloat((int) b);
        float r = trig(x, cos, rr);
        counts[c]++;
        if (rr[0]) rares[c]++;
        double ex = cos ? StrictMath.cos(x) : StrictMath.sin(x);
        double err = Math.abs(r - ex) / ulp(ex);
        if (!(err <= w)) { w = err; wa = x; }
        // negative argument symmetry
        float rn = trig(-x, cos, rr);
        if (Float.floatToRawIntBits(rn) != Float.floatToRawIntBits(cos ? r : -r) ) { w = 1e9; wa = -x; }
      }
      worst[c] = w; at[c] = wa;
    });
    double w = 0; float wa = 0; long rs = 0, n = 0;
    for (int c = 0; c < chunks; c++) { rs += rares[c]; n += counts[c]; if (worst[c] > w) { w = worst[c]; wa = at[c]; } }
    System.out.printf("%s max %.4f ulp at %s; rare %d of %d%n", a[0], w, Float.toString(wa), rs, n);
  }

  static float[] parse(String s) {
    String[] p = s.split(",");
    float[] f = new float[p.length];
    for (int i = 0; i < p.length; i++) f[i] = Float.parseFloat(p[i].trim().replace("f", ""));
    return f;
  }
}
