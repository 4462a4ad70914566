import jdk.incubator.vector.*;
import java.lang.management.*;
import static jdk.incubator.vector.VectorOperators.*;

/**
 * The float32 exp and tanh cores before (main 9ec503d) and after issue 28 item 2's fifth step, as
 * the generated loops write them but over float arrays (exp's rare block reduced to a blend: normal
 * inputs never take it), timed interleaved in one JVM: one thread, CPU time, 64K normal inputs,
 * median of 11 samples of 200 calls per round (docs/vector-math.md, "Integer steps and a shorter
 * tanh"). It first checks the new tanh loop against its scalar twin, TanhModel, bit for bit.
 *
 * <pre>
 * java --add-modules jdk.incubator.vector tools/vmath/CoreAB.java
 * </pre>
 */
public class CoreAB {
  static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
  static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

  static void expOld(float[] a, float[] o) {
    for (int i = 0; i < F.loopBound(a.length); i += F.length()) {
      FloatVector x = FloatVector.fromArray(F, a, i);
      FloatVector expMagic = x.fma(1.442695f, 1.2582912E7f);
      FloatVector q = expMagic.sub(1.2582912E7f);
      FloatVector expR = q.fma(FloatVector.broadcast(F, 1.9046542E-9f), q.fma(FloatVector.broadcast(F, -0.6931472f), x));
      FloatVector p = expR.fma(1.9907598E-4f, 0.0013948604f).fma(expR, FloatVector.broadcast(F, 0.008333286f)).fma(expR, FloatVector.broadcast(F, 0.04166624f)).fma(expR, FloatVector.broadcast(F, 0.16666667f)).fma(expR, FloatVector.broadcast(F, 0.5f));
      FloatVector expU = expR.mul(expR).fma(p, expR).add(1.0f);
      FloatVector expFast = expU.mul(expMagic.reinterpretAsInts().add(0xb4c0007f).lanewise(LSHL, 23).reinterpretAsFloats());
      VectorMask<Float> expRare = x.abs().compare(LE, 87.0f).not();
      FloatVector expResult = expFast;
      if (expRare.anyTrue()) {
        expResult = expFast.blend(0f, expRare);
      }
      expResult.intoArray(o, i);
    }
  }
  static void expNew(float[] a, float[] o) {
    for (int i = 0; i < F.loopBound(a.length); i += F.length()) {
      FloatVector x = FloatVector.fromArray(F, a, i);
      FloatVector expMagic = x.fma(1.442695f, 1.2582912E7f);
      FloatVector q = expMagic.sub(1.2582912E7f);
      FloatVector expR = q.fma(FloatVector.broadcast(F, 1.9046542E-9f), q.fma(FloatVector.broadcast(F, -0.6931472f), x));
      FloatVector p = expR.fma(1.9907598E-4f, 0.0013948604f).fma(expR, FloatVector.broadcast(F, 0.008333286f)).fma(expR, FloatVector.broadcast(F, 0.04166624f)).fma(expR, FloatVector.broadcast(F, 0.16666667f)).fma(expR, FloatVector.broadcast(F, 0.5f));
      FloatVector expU = expR.mul(expR).fma(p, expR).add(1.0f);
      FloatVector expFast = expU.reinterpretAsInts().add(expMagic.reinterpretAsInts().lanewise(LSHL, 23)).reinterpretAsFloats();
      VectorMask<Integer> expRare = x.reinterpretAsInts().and(0x7fffffff).compare(GT, 0x42ae0000);
      FloatVector expResult = expFast;
      if (expRare.anyTrue()) {
        expResult = expFast.blend(0f, x.abs().compare(LE, 87.0f).not());
      }
      expResult.intoArray(o, i);
    }
  }
  static void tanhOld(float[] a, float[] o) {
    for (int i = 0; i < F.loopBound(a.length); i += F.length()) {
      FloatVector x = FloatVector.fromArray(F, a, i);
      FloatVector ax = x.abs();
      FloatVector z = ax.mul(ax);
      FloatVector tanhPoly = z.fma(0.0015706435f, -0.007394366f).fma(z, FloatVector.broadcast(F, 0.021302262f)).fma(z, FloatVector.broadcast(F, -0.053856123f)).fma(z, FloatVector.broadcast(F, 0.13332348f)).fma(z, FloatVector.broadcast(F, -0.33333308f));
      FloatVector tanhSmall = ax.mul(z).fma(tanhPoly, ax);
      FloatVector minusTwoAx = ax.min(9.1f).mul(-2.0f);
      FloatVector expMagic = minusTwoAx.fma(1.442695f, 1.2582912E7f);
      FloatVector q = expMagic.sub(1.2582912E7f);
      FloatVector r_ = q.fma(FloatVector.broadcast(F, 1.9046542E-9f), q.fma(FloatVector.broadcast(F, -0.6931472f), minusTwoAx));
      FloatVector expR = r_.fma(0.0013836825f, 0.008374833f).fma(r_, FloatVector.broadcast(F, 0.041668225f)).fma(r_, FloatVector.broadcast(F, 0.1666642f)).fma(r_, FloatVector.broadcast(F, 0.4999999f)).fma(r_, FloatVector.broadcast(F, 1.0f)).fma(r_, FloatVector.broadcast(F, 1.0f));
      FloatVector w = expR.mul(expMagic.reinterpretAsInts().add(0xb4c0007f).lanewise(LSHL, 23).reinterpretAsFloats());
      FloatVector denominator = w.add(1.0f);
      FloatVector denominatorLow = FloatVector.broadcast(F, 1.0f).sub(denominator).add(w);
      FloatVector inverse = FloatVector.broadcast(F, 1.0f).div(denominator);
      FloatVector twoW = w.add(w);
      FloatVector y = twoW.mul(inverse);
      FloatVector residual = y.fma(denominator, twoW.neg()).add(y.mul(denominatorLow));
      FloatVector oneMinusY = FloatVector.broadcast(F, 1.0f).sub(y);
      FloatVector oneMinusYError = FloatVector.broadcast(F, 1.0f).sub(oneMinusY).sub(y);
      FloatVector tanhLarge = oneMinusY.add(residual.fma(inverse, oneMinusYError));
      FloatVector tanhRaw = tanhLarge.blend(tanhSmall, ax.compare(LT, 0.8f)).reinterpretAsInts().lanewise(XOR, x.reinterpretAsInts().and(0x80000000)).reinterpretAsFloats();
      FloatVector tanh = tanhRaw.blend(Float.NaN, tanhRaw.compare(NE, tanhRaw));
      tanh.intoArray(o, i);
    }
  }
  static void tanhNew(float[] a, float[] o) {
    for (int i = 0; i < F.loopBound(a.length); i += F.length()) {
      FloatVector x = FloatVector.fromArray(F, a, i);
      FloatVector ax = x.abs();
      FloatVector z = ax.mul(ax);
      FloatVector tanhPoly = z.fma(0.0015706435f, -0.007394366f).fma(z, FloatVector.broadcast(F, 0.021302262f)).fma(z, FloatVector.broadcast(F, -0.053856123f)).fma(z, FloatVector.broadcast(F, 0.13332348f)).fma(z, FloatVector.broadcast(F, -0.33333308f));
      FloatVector tanhSmall = ax.mul(z).fma(tanhPoly, ax);
      FloatVector minusTwoAx = ax.reinterpretAsInts().min(0x4111999a).reinterpretAsFloats().mul(-2.0f);
      FloatVector expMagic = minusTwoAx.fma(1.442695f, 1.2582912E7f);
      FloatVector q = expMagic.sub(1.2582912E7f);
      FloatVector r_ = q.fma(FloatVector.broadcast(F, 1.9046542E-9f), q.fma(FloatVector.broadcast(F, -0.6931472f), minusTwoAx));
      FloatVector expR = r_.fma(0.0013836825f, 0.008374833f).fma(r_, FloatVector.broadcast(F, 0.041668225f)).fma(r_, FloatVector.broadcast(F, 0.1666642f)).fma(r_, FloatVector.broadcast(F, 0.4999999f)).fma(r_, FloatVector.broadcast(F, 1.0f)).fma(r_, FloatVector.broadcast(F, 1.0f));
      FloatVector w = expR.reinterpretAsInts().add(expMagic.reinterpretAsInts().lanewise(LSHL, 23)).reinterpretAsFloats();
      FloatVector m = w.sub(1.0f);
      FloatVector e = w.sub(m.add(1.0f));
      FloatVector d = w.add(1.0f);
      FloatVector dLow = FloatVector.broadcast(F, 1.0f).sub(d).add(w);
      FloatVector negInv = FloatVector.broadcast(F, -1.0f).div(d);
      FloatVector q0 = m.mul(negInv);
      FloatVector res = q0.fma(dLow, q0.fma(d, m).add(e));
      FloatVector large = res.fma(negInv, q0);
      FloatVector tanhRaw = tanhSmall.blend(large, ax.compare(GE, 0.8f)).reinterpretAsInts().lanewise(XOR, x.reinterpretAsInts().and(0x80000000)).reinterpretAsFloats();
      FloatVector tanh = tanhRaw.blend(Float.NaN, tanhRaw.compare(NE, tanhRaw));
      tanh.intoArray(o, i);
    }
  }
  interface K { void run(float[] a, float[] o); }
  static double time(K k, float[] a, float[] o) {
    long t = MX.getCurrentThreadCpuTime();
    for (int c = 0; c < 200; c++) k.run(a, o);
    return (MX.getCurrentThreadCpuTime() - t) / 200.0 / a.length;
  }
  public static void main(String[] args) {
    int n = 1 << 16;
    float[] a = new float[n], o = new float[n];
    java.util.Random r = new java.util.Random(1);
    for (int i = 0; i < n; i++) a[i] = (float) r.nextGaussian();
    K[] ks = {CoreAB::expOld, CoreAB::expNew, CoreAB::tanhOld, CoreAB::tanhNew};
    for (int w = 0; w < 3000; w++) for (K k : ks) k.run(a, o);
    tanhNew(a, o);
    for (int i = 0; i < n; i++) if (Float.floatToRawIntBits(o[i]) != Float.floatToRawIntBits(TanhModel.tanh(a[i]))) throw new AssertionError("tanh " + a[i]);
    for (int round = 0; round < 5; round++) {
      double[][] s = new double[4][11];
      for (int j = 0; j < 11; j++) for (int k = 0; k < 4; k++) s[k][j] = time(ks[k], a, o);
      for (double[] q : s) java.util.Arrays.sort(q);
      System.out.printf("exp old %.3f new %.3f | tanh old %.3f new %.3f ns/elt (load %.1f)%n", s[0][5], s[1][5], s[2][5], s[3][5], ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }
}
