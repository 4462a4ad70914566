import jdk.incubator.vector.*;
import java.lang.foreign.*;
import java.lang.management.*;
import static jdk.incubator.vector.VectorOperators.*;
/**
 * The reduce leaf against bare Vector API loops of the same bodies (docs/ufuncs.md, "Session 12"):
 * in one JVM, calls interleaved, one thread, the calling thread's CPU time per element of 16M
 * float32: a bare four-accumulator loop of {@code maximum}'s generated body, of the same results with two
 * compares, of {@code add}, and {@code Ops.maximum.reduce(x, 1, out)}, {@code Ops.sum(x, 0, out)}, and a bare add in the
 * leaf's shape (2048-element leaves, {@code -DleafN}; {@code -Dauto} for an auto arena's input).
 * Run (JDK 25):
 * {@code java --add-modules=jdk.incubator.vector --enable-native-access=ALL-UNNAMED
 * -XX:+UseParallelGC -cp runtime.jar:annotations.jar tools/bench/LeafVsBare.java}.
 */
public class LeafVsBare {
  static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED; static final int L = S.length();
  static final java.nio.ByteOrder O = java.nio.ByteOrder.nativeOrder();
  // generated body: x.blend(a, a >= x).blend(x, x != x).blend(a, a != a)
  static float gen(MemorySegment in, long n) {
    FloatVector a0 = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY), a1 = a0, a2 = a0, a3 = a0;
    for (long i = 0; i < n; i += 4 * L) {
      FloatVector x = FloatVector.fromMemorySegment(S, in, i * 4, O); a0 = x.blend(a0, a0.compare(GE, x)).blend(x, x.compare(NE, x)).blend(a0, a0.compare(NE, a0));
      x = FloatVector.fromMemorySegment(S, in, (i + L) * 4, O); a1 = x.blend(a1, a1.compare(GE, x)).blend(x, x.compare(NE, x)).blend(a1, a1.compare(NE, a1));
      x = FloatVector.fromMemorySegment(S, in, (i + 2 * L) * 4, O); a2 = x.blend(a2, a2.compare(GE, x)).blend(x, x.compare(NE, x)).blend(a2, a2.compare(NE, a2));
      x = FloatVector.fromMemorySegment(S, in, (i + 3 * L) * 4, O); a3 = x.blend(a3, a3.compare(GE, x)).blend(x, x.compare(NE, x)).blend(a3, a3.compare(NE, a3));
    }
    return a0.add(a1).add(a2).add(a3).reduceLanes(ADD);
  }
  // same results: a kept where a >= x (ordered) or a is NaN; else x (x NaN: a >= x false -> x)
  static float two(MemorySegment in, long n) {
    FloatVector a0 = FloatVector.broadcast(S, Float.NEGATIVE_INFINITY), a1 = a0, a2 = a0, a3 = a0;
    for (long i = 0; i < n; i += 4 * L) {
      FloatVector x = FloatVector.fromMemorySegment(S, in, i * 4, O); a0 = x.blend(a0, a0.compare(GE, x).or(a0.compare(NE, a0)));
      x = FloatVector.fromMemorySegment(S, in, (i + L) * 4, O); a1 = x.blend(a1, a1.compare(GE, x).or(a1.compare(NE, a1)));
      x = FloatVector.fromMemorySegment(S, in, (i + 2 * L) * 4, O); a2 = x.blend(a2, a2.compare(GE, x).or(a2.compare(NE, a2)));
      x = FloatVector.fromMemorySegment(S, in, (i + 3 * L) * 4, O); a3 = x.blend(a3, a3.compare(GE, x).or(a3.compare(NE, a3)));
    }
    return a0.add(a1).add(a2).add(a3).reduceLanes(ADD);
  }
  static float add(MemorySegment in, long n) {
    FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0;
    for (long i = 0; i < n; i += 4 * L) {
      a0 = a0.add(FloatVector.fromMemorySegment(S, in, i * 4, O));
      a1 = a1.add(FloatVector.fromMemorySegment(S, in, (i + L) * 4, O));
      a2 = a2.add(FloatVector.fromMemorySegment(S, in, (i + 2 * L) * 4, O));
      a3 = a3.add(FloatVector.fromMemorySegment(S, in, (i + 3 * L) * 4, O));
    }
    return a0.add(a1).add(a2).add(a3).reduceLanes(ADD);
  }
  static final VectorShuffle<Float>[] ROT = rot();
  @SuppressWarnings("unchecked") static VectorShuffle<Float>[] rot() { int lv = Integer.numberOfTrailingZeros(L); VectorShuffle<Float>[] r = new VectorShuffle[lv];
    for (int k = 0; k < lv; k++) r[k] = S.iotaShuffle(L >> (k + 1), 1, true); return r; }
  // the generated add leaf's shape: per 2048 elements, restart, 31 blocks of four loads at long offsets, halves
  static float leafed(MemorySegment in, long n, MemorySegment park, int leafN) {
    float s = 0;
    for (long off = 0; off < n; off += leafN) {
      FloatVector a0 = FloatVector.fromMemorySegment(S, in, off * 4, O), a1 = FloatVector.fromMemorySegment(S, in, (off + L) * 4, O),
        a2 = FloatVector.fromMemorySegment(S, in, (off + 2 * L) * 4, O), a3 = FloatVector.fromMemorySegment(S, in, (off + 3 * L) * 4, O);
      int blocks = leafN / 64;
      for (int b = 1; b < blocks; b++) { long i = off + (long) b * 64;
        a0 = a0.add(FloatVector.fromMemorySegment(S, in, i * 4, O)); a1 = a1.add(FloatVector.fromMemorySegment(S, in, (i + L) * 4, O));
        a2 = a2.add(FloatVector.fromMemorySegment(S, in, (i + 2 * L) * 4, O)); a3 = a3.add(FloatVector.fromMemorySegment(S, in, (i + 3 * L) * 4, O)); }
      a0 = a0.add(a2); a1 = a1.add(a3); a0 = a0.add(a1);
      for (VectorShuffle<Float> r : ROT) a0 = a0.add(a0.rearrange(r));
      a0.intoMemorySegment(park, 0, O); s += park.get(ValueLayout.JAVA_FLOAT, 0);
    }
    return s;
  }
  public static void main(String[] args) {
    long n = 1 << 24; MemorySegment in = (System.getProperty("auto") != null ? Arena.ofAuto() : Arena.global()).allocate(4 * n, 64);
    java.util.SplittableRandom r = new java.util.SplittableRandom(7);
    for (long i = 0; i < n; i++) in.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) r.nextGaussian());
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    dev.ufunc4j.internal.parallel.Parallel.setThreads(1);
    dev.ufunc4j.Tensor x2 = dev.ufunc4j.Tensor.randn(7L, dev.ufunc4j.dtype.DType.FLOAT32, 4096, 4096);
    dev.ufunc4j.Tensor o2 = dev.ufunc4j.Tensor.zeros(dev.ufunc4j.dtype.DType.FLOAT32, 4096);
    dev.ufunc4j.Tensor o0 = dev.ufunc4j.Tensor.zeros(dev.ufunc4j.dtype.DType.FLOAT32);
    dev.ufunc4j.Tensor x1 = x2.reshape(16777216);
    int calls = 60; double[][] t = new double[6][calls]; MemorySegment park = Arena.global().allocate(256, 64); float sink = 0;
    for (int c = -20; c < calls; c++) for (int k = 0; k < 6; k++) {
      int v = (k + c) % 6; if (v < 0) v += 6; long u0 = mx.getCurrentThreadCpuTime();
      if (v == 5) sink += leafed(in, n, park, Integer.getInteger("leafN", 2048)); else if (v == 3) dev.ufunc4j.Ops.maximum.reduce(x2, 1, o2); else if (v == 4) dev.ufunc4j.Ops.sum(x1, new int[] {0}, false, o0); else
      sink += v == 0 ? gen(in, n) : v == 1 ? two(in, n) : add(in, n);
      long u1 = mx.getCurrentThreadCpuTime(); if (c >= 0) t[v][c] = (u1 - u0) / (double) n; }
    String[] names = {"bare loop, generated max body (3 cmp, 3 blend)", "bare loop, 2 cmp + or + 1 blend (same results)", "bare loop, add", "Ops.maximum.reduce(x, 1, out)", "Ops.sum(x16M, 0, out)", "bare add in 2048-element leaves (the leaf's shape)"};
    for (int v = 0; v < 6; v++) { java.util.Arrays.sort(t[v]); System.out.printf("%-50s CPU ns/el p10 %.3f med %.3f p90 %.3f%n", names[v], t[v][calls/10], t[v][calls/2], t[v][calls*9/10]); }
    System.out.println("load " + ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage() + " " + (sink == 1 ? "" : ""));
  }
}
