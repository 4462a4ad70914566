import jdk.incubator.vector.*;
import java.lang.foreign.*;
import java.lang.management.*;
import static jdk.incubator.vector.VectorOperators.*;
/**
 * The reduce leaf against bare Vector API loops of the same bodies (docs/ufuncs.md, "Session 12"):
 * in one JVM, calls interleaved, one thread, the calling thread's CPU time per element of 16M
 * float32: a bare four-accumulator loop of {@code maximum}'s generated body, of the same results with two
 * compares, of {@code add}, and {@code Ops.maximum.reduce(x, 1, out)}, {@code Ops.sum(x, 0, out)}. Run (JDK 25):
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
  public static void main(String[] args) {
    long n = 1 << 24; MemorySegment in = Arena.global().allocate(4 * n, 64);
    java.util.SplittableRandom r = new java.util.SplittableRandom(7);
    for (long i = 0; i < n; i++) in.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) r.nextGaussian());
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    dev.ufunc4j.internal.parallel.Parallel.setThreads(1);
    dev.ufunc4j.Tensor x2 = dev.ufunc4j.Tensor.randn(7L, dev.ufunc4j.dtype.DType.FLOAT32, 4096, 4096);
    dev.ufunc4j.Tensor o2 = dev.ufunc4j.Tensor.zeros(dev.ufunc4j.dtype.DType.FLOAT32, 4096);
    dev.ufunc4j.Tensor o0 = dev.ufunc4j.Tensor.zeros(dev.ufunc4j.dtype.DType.FLOAT32);
    dev.ufunc4j.Tensor x1 = x2.reshape(16777216);
    int calls = 60; double[][] t = new double[5][calls]; float sink = 0;
    for (int c = -20; c < calls; c++) for (int k = 0; k < 5; k++) {
      int v = (k + c) % 5; if (v < 0) v += 5; long u0 = mx.getCurrentThreadCpuTime();
      if (v == 3) dev.ufunc4j.Ops.maximum.reduce(x2, 1, o2); else if (v == 4) dev.ufunc4j.Ops.sum(x1, new int[] {0}, false, o0); else
      sink += v == 0 ? gen(in, n) : v == 1 ? two(in, n) : add(in, n);
      long u1 = mx.getCurrentThreadCpuTime(); if (c >= 0) t[v][c] = (u1 - u0) / (double) n; }
    String[] names = {"bare loop, generated max body (3 cmp, 3 blend)", "bare loop, 2 cmp + or + 1 blend (same results)", "bare loop, add", "Ops.maximum.reduce(x, 1, out)", "Ops.sum(x16M, 0, out)"};
    for (int v = 0; v < 5; v++) { java.util.Arrays.sort(t[v]); System.out.printf("%-50s CPU ns/el p10 %.3f med %.3f p90 %.3f%n", names[v], t[v][calls/10], t[v][calls/2], t[v][calls*9/10]); }
    System.out.println("load " + ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage() + " " + (sink == 1 ? "" : ""));
  }
}
