import java.util.stream.IntStream;

/**
 * A scalar model of the float32 log kernel's common path (MathEmitter.logFloat: the same operations
 * in the same order, Math.fma for the fused ones), run over every positive normal float32 (or every
 * step-th) against StrictMath.log: docs/vector-math.md, "Fewer operations: float32 log, sin and cos".
 *
 * <pre>
 * java tools/vmath/LogModel.java "-0.49999988f, 0.33333325f, ..." [step]   (LOG1P_DIRECT_F)
 * </pre>
 */
public class LogModel {
  static float[] Q;
  static final float LN2_HI = 0.69314575f, LN2_LO = 1.4286068e-06f;

  static float log(float x) {
    int bits = Float.floatToRawIntBits(x) + (0x3f800000 - 0x3f3504f3);
    float f = Float.intBitsToFloat((bits & 0x7fffff) + 0x3f3504f3) - 1f;
    float kf = Float.intBitsToFloat((bits >> 23) + (0x4b400000 - 127)) - 0x1.8p23f;
    float s = Math.fma(kf, LN2_HI, f);
    float e = Math.fma(kf, LN2_HI, -s) + f;
    float f2 = f * f;
    int n = Q.length - 1;
    float p = Math.fma(f, Q[n], Q[n - 1]);
    for (int i = n - 2; i >= 0; i--) p = Math.fma(f, p, Q[i]);
    float c = Math.fma(f2, p, Math.fma(kf, LN2_LO, e));
    return s + c;
  }

  static double ulp(double e) {
    return Math.scalb(1.0, Math.getExponent(e) - 23);
  }

  public static void main(String[] a) {
    String[] cs = a[0].split(",");
    Q = new float[cs.length];
    for (int i = 0; i < cs.length; i++) Q[i] = Float.parseFloat(cs[i].trim().replace("f", ""));
    int step = a.length > 1 ? Integer.parseInt(a[1]) : 1;
    // all positive normal finite floats
    int lo = 0x00800000, hi = 0x7f7fffff;
    int chunks = 256;
    double[] worst = new double[chunks];
    float[] at = new float[chunks];
    long total = (long) hi - lo + 1;
    IntStream.range(0, chunks).parallel().forEach(c -> {
      long from = lo + total * c / chunks, to = lo + total * (c + 1) / chunks;
      double w = 0; float wa = 0;
      for (long b = from; b < to; b += step) {
        float x = Float.intBitsToFloat((int) b);
        double ex = StrictMath.log(x);
        float r = log(x);
        if (ex == 0) { if (r != 0) { w = 1e9; wa = x; } continue; }
        double err = Math.abs(r - ex) / ulp(ex);
        if (err > w) { w = err; wa = x; }
      }
      worst[c] = w; at[c] = wa;
    });
    double w = 0; float wa = 0;
    for (int c = 0; c < chunks; c++) if (worst[c] > w) { w = worst[c]; wa = at[c]; }
    System.out.printf("max %.4f ulp at %s%n", w, Float.toString(wa));
  }
}
