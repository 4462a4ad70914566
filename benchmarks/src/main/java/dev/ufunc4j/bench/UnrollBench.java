package dev.ufunc4j.bench;

import static jdk.incubator.vector.VectorOperators.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Whether unrolling the generated contiguous loop pays ({@code docs/tuning.md}, "What was
 * measured"): the processor's float32 {@code silu} row (its body copied from the golden {@code
 * Ops_silu_w32}) and a float32 {@code add} row, the body written once per iteration ({@code unroll
 * = 1}, what the processor emits) or 2 or 4 times, on a row that stays in L1 ({@code n = 4096}) and
 * one that streams from memory ({@code n = 16M}). The silu body is written out in full in every
 * copy, as the processor would emit it: behind a helper method it was not inlined, and the vectors
 * became objects. Run it with {@code -jvmArgsAppend -Xbatch} as well: on a loaded machine C2 may
 * not finish compiling the larger bodies within JMH's warm-up (measured: the 4-times body never).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
public class UnrollBench {
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 32;
  private static final VectorSpecies<Float> FLOATS =
      VectorSpecies.of(float.class, VectorShape.forBitSize(LANES * 32));
  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  @Param({"4096", "16777216"})
  public long n;

  @Param({"1", "2", "4"})
  public int unroll;

  private MemorySegment x;
  private MemorySegment y;
  private MemorySegment out;

  @Setup(Level.Trial)
  public void setUp() {
    Arena arena = Arena.ofAuto();
    x = arena.allocate(n * 4, 64);
    y = arena.allocate(n * 4, 64);
    out = arena.allocate(n * 4, 64);
    java.util.Random r = new java.util.Random(1);
    for (long i = 0; i < n; i++) {
      x.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i, (float) r.nextGaussian());
      y.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i, (float) r.nextGaussian());
    }
  }

  @Benchmark
  public long silu() {
    return switch (unroll) {
      case 1 -> silu1(n, out, 0, x, 0);
      case 2 -> silu2(n, out, 0, x, 0);
      default -> silu4(n, out, 0, x, 0);
    };
  }

  @Benchmark
  public long add() {
    return switch (unroll) {
      case 1 -> add1(n, out, x, y);
      case 2 -> add2(n, out, x, y);
      default -> add4(n, out, x, y);
    };
  }

  private static long add1(long n, MemorySegment o, MemorySegment a, MemorySegment b) {
    long bound = FLOATS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector va = FloatVector.fromMemorySegment(FLOATS, a, i * 4, ORDER);
      FloatVector vb = FloatVector.fromMemorySegment(FLOATS, b, i * 4, ORDER);
      va.add(vb).intoMemorySegment(o, i * 4, ORDER);
    }
    return bound;
  }

  private static long add2(long n, MemorySegment o, MemorySegment a, MemorySegment b) {
    long bound = FLOATS.loopBound(n);
    long unrolled = bound - bound % (2L * LANES);
    for (long u = 0; u < unrolled; u += 2L * LANES) {
      {
        long i = u;
        FloatVector va = FloatVector.fromMemorySegment(FLOATS, a, i * 4, ORDER);
        FloatVector vb = FloatVector.fromMemorySegment(FLOATS, b, i * 4, ORDER);
        va.add(vb).intoMemorySegment(o, i * 4, ORDER);
      }
      {
        long i = u + LANES;
        FloatVector va = FloatVector.fromMemorySegment(FLOATS, a, i * 4, ORDER);
        FloatVector vb = FloatVector.fromMemorySegment(FLOATS, b, i * 4, ORDER);
        va.add(vb).intoMemorySegment(o, i * 4, ORDER);
      }
    }
    for (long i = unrolled; i < bound; i += LANES) {
      FloatVector va = FloatVector.fromMemorySegment(FLOATS, a, i * 4, ORDER);
      FloatVector vb = FloatVector.fromMemorySegment(FLOATS, b, i * 4, ORDER);
      va.add(vb).intoMemorySegment(o, i * 4, ORDER);
    }
    return bound;
  }

  private static long add4(long n, MemorySegment o, MemorySegment a, MemorySegment b) {
    long bound = FLOATS.loopBound(n);
    long unrolled = bound - bound % (4L * LANES);
    for (long u = 0; u < unrolled; u += 4L * LANES) {
      for (int k = 0; k < 4; k++) {
        long i = u + k * LANES;
        FloatVector va = FloatVector.fromMemorySegment(FLOATS, a, i * 4, ORDER);
        FloatVector vb = FloatVector.fromMemorySegment(FLOATS, b, i * 4, ORDER);
        va.add(vb).intoMemorySegment(o, i * 4, ORDER);
      }
    }
    for (long i = unrolled; i < bound; i += LANES) {
      FloatVector va = FloatVector.fromMemorySegment(FLOATS, a, i * 4, ORDER);
      FloatVector vb = FloatVector.fromMemorySegment(FLOATS, b, i * 4, ORDER);
      va.add(vb).intoMemorySegment(o, i * 4, ORDER);
    }
    return bound;
  }

  private static long silu1(
      long n, MemorySegment outData, long outOff, MemorySegment xData, long xOff) {
    long bound = FLOATS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector xi = FloatVector.fromMemorySegment(FLOATS, xData, (xOff + i) * 4, ORDER);
      {
        FloatVector x = xi;
        FloatVector expMagic = x.neg().fma(1.442695f, 1.2582912E7f);
        FloatVector q = expMagic.sub(1.2582912E7f);
        FloatVector expHi = q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), x.neg());
        FloatVector s = expHi.add(q.mul(1.9046542E-9f));
        FloatVector p =
            s.fma(1.9907598E-4f, 0.0013948604f)
                .fma(s, FloatVector.broadcast(FLOATS, 0.008333286f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.04166624f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.16666667f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.5f));
        FloatVector expTail = s.mul(s).fma(p, q.mul(1.9046542E-9f));
        FloatVector expU = expHi.add(expTail).add(1.0f);
        IntVector half = expMagic.reinterpretAsInts().sub(0x4b400000).lanewise(ASHR, 1);
        FloatVector expScaled =
            expU.mul(half.add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats())
                .mul(
                    expMagic
                        .reinterpretAsInts()
                        .sub(0x4b400000)
                        .sub(half)
                        .add(0x7f)
                        .lanewise(LSHL, 23)
                        .reinterpretAsFloats());
        FloatVector expRaw =
            expScaled
                .blend(Float.POSITIVE_INFINITY, x.neg().compare(GT, 100.0f))
                .blend(0.0f, x.neg().compare(LT, -110.0f));
        FloatVector exp = expRaw.blend(Float.NaN, expRaw.compare(NE, expRaw));
        x.div(exp.add(1.0f)).intoMemorySegment(outData, (outOff + i) * 4, ORDER);
      }
    }
    return bound;
  }

  private static long silu2(
      long n, MemorySegment outData, long outOff, MemorySegment xData, long xOff) {
    long bound = FLOATS.loopBound(n);
    long unrolled = bound - bound % (2L * LANES);
    for (long u = 0; u < unrolled; u += 2L * LANES) {
      FloatVector x0 = FloatVector.fromMemorySegment(FLOATS, xData, (xOff + u) * 4, ORDER);
      FloatVector x1 = FloatVector.fromMemorySegment(FLOATS, xData, (xOff + u + LANES) * 4, ORDER);
      {
        FloatVector x = x0;
        FloatVector expMagic = x.neg().fma(1.442695f, 1.2582912E7f);
        FloatVector q = expMagic.sub(1.2582912E7f);
        FloatVector expHi = q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), x.neg());
        FloatVector s = expHi.add(q.mul(1.9046542E-9f));
        FloatVector p =
            s.fma(1.9907598E-4f, 0.0013948604f)
                .fma(s, FloatVector.broadcast(FLOATS, 0.008333286f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.04166624f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.16666667f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.5f));
        FloatVector expTail = s.mul(s).fma(p, q.mul(1.9046542E-9f));
        FloatVector expU = expHi.add(expTail).add(1.0f);
        IntVector half = expMagic.reinterpretAsInts().sub(0x4b400000).lanewise(ASHR, 1);
        FloatVector expScaled =
            expU.mul(half.add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats())
                .mul(
                    expMagic
                        .reinterpretAsInts()
                        .sub(0x4b400000)
                        .sub(half)
                        .add(0x7f)
                        .lanewise(LSHL, 23)
                        .reinterpretAsFloats());
        FloatVector expRaw =
            expScaled
                .blend(Float.POSITIVE_INFINITY, x.neg().compare(GT, 100.0f))
                .blend(0.0f, x.neg().compare(LT, -110.0f));
        FloatVector exp = expRaw.blend(Float.NaN, expRaw.compare(NE, expRaw));
        x.div(exp.add(1.0f)).intoMemorySegment(outData, (outOff + u) * 4, ORDER);
      }
      {
        FloatVector x = x1;
        FloatVector expMagic = x.neg().fma(1.442695f, 1.2582912E7f);
        FloatVector q = expMagic.sub(1.2582912E7f);
        FloatVector expHi = q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), x.neg());
        FloatVector s = expHi.add(q.mul(1.9046542E-9f));
        FloatVector p =
            s.fma(1.9907598E-4f, 0.0013948604f)
                .fma(s, FloatVector.broadcast(FLOATS, 0.008333286f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.04166624f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.16666667f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.5f));
        FloatVector expTail = s.mul(s).fma(p, q.mul(1.9046542E-9f));
        FloatVector expU = expHi.add(expTail).add(1.0f);
        IntVector half = expMagic.reinterpretAsInts().sub(0x4b400000).lanewise(ASHR, 1);
        FloatVector expScaled =
            expU.mul(half.add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats())
                .mul(
                    expMagic
                        .reinterpretAsInts()
                        .sub(0x4b400000)
                        .sub(half)
                        .add(0x7f)
                        .lanewise(LSHL, 23)
                        .reinterpretAsFloats());
        FloatVector expRaw =
            expScaled
                .blend(Float.POSITIVE_INFINITY, x.neg().compare(GT, 100.0f))
                .blend(0.0f, x.neg().compare(LT, -110.0f));
        FloatVector exp = expRaw.blend(Float.NaN, expRaw.compare(NE, expRaw));
        x.div(exp.add(1.0f)).intoMemorySegment(outData, (outOff + u + LANES) * 4, ORDER);
      }
    }
    for (long i = unrolled; i < bound; i += LANES) {
      FloatVector xi = FloatVector.fromMemorySegment(FLOATS, xData, (xOff + i) * 4, ORDER);
      {
        FloatVector x = xi;
        FloatVector expMagic = x.neg().fma(1.442695f, 1.2582912E7f);
        FloatVector q = expMagic.sub(1.2582912E7f);
        FloatVector expHi = q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), x.neg());
        FloatVector s = expHi.add(q.mul(1.9046542E-9f));
        FloatVector p =
            s.fma(1.9907598E-4f, 0.0013948604f)
                .fma(s, FloatVector.broadcast(FLOATS, 0.008333286f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.04166624f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.16666667f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.5f));
        FloatVector expTail = s.mul(s).fma(p, q.mul(1.9046542E-9f));
        FloatVector expU = expHi.add(expTail).add(1.0f);
        IntVector half = expMagic.reinterpretAsInts().sub(0x4b400000).lanewise(ASHR, 1);
        FloatVector expScaled =
            expU.mul(half.add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats())
                .mul(
                    expMagic
                        .reinterpretAsInts()
                        .sub(0x4b400000)
                        .sub(half)
                        .add(0x7f)
                        .lanewise(LSHL, 23)
                        .reinterpretAsFloats());
        FloatVector expRaw =
            expScaled
                .blend(Float.POSITIVE_INFINITY, x.neg().compare(GT, 100.0f))
                .blend(0.0f, x.neg().compare(LT, -110.0f));
        FloatVector exp = expRaw.blend(Float.NaN, expRaw.compare(NE, expRaw));
        x.div(exp.add(1.0f)).intoMemorySegment(outData, (outOff + i) * 4, ORDER);
      }
    }
    return bound;
  }

  private static long silu4(
      long n, MemorySegment outData, long outOff, MemorySegment xData, long xOff) {
    long bound = FLOATS.loopBound(n);
    long unrolled = bound - bound % (4L * LANES);
    for (long u = 0; u < unrolled; u += 4L * LANES) {
      FloatVector x0 = FloatVector.fromMemorySegment(FLOATS, xData, (xOff + u) * 4, ORDER);
      FloatVector x1 = FloatVector.fromMemorySegment(FLOATS, xData, (xOff + u + LANES) * 4, ORDER);
      FloatVector x2 =
          FloatVector.fromMemorySegment(FLOATS, xData, (xOff + u + 2 * LANES) * 4, ORDER);
      FloatVector x3 =
          FloatVector.fromMemorySegment(FLOATS, xData, (xOff + u + 3 * LANES) * 4, ORDER);
      {
        FloatVector x = x0;
        FloatVector expMagic = x.neg().fma(1.442695f, 1.2582912E7f);
        FloatVector q = expMagic.sub(1.2582912E7f);
        FloatVector expHi = q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), x.neg());
        FloatVector s = expHi.add(q.mul(1.9046542E-9f));
        FloatVector p =
            s.fma(1.9907598E-4f, 0.0013948604f)
                .fma(s, FloatVector.broadcast(FLOATS, 0.008333286f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.04166624f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.16666667f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.5f));
        FloatVector expTail = s.mul(s).fma(p, q.mul(1.9046542E-9f));
        FloatVector expU = expHi.add(expTail).add(1.0f);
        IntVector half = expMagic.reinterpretAsInts().sub(0x4b400000).lanewise(ASHR, 1);
        FloatVector expScaled =
            expU.mul(half.add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats())
                .mul(
                    expMagic
                        .reinterpretAsInts()
                        .sub(0x4b400000)
                        .sub(half)
                        .add(0x7f)
                        .lanewise(LSHL, 23)
                        .reinterpretAsFloats());
        FloatVector expRaw =
            expScaled
                .blend(Float.POSITIVE_INFINITY, x.neg().compare(GT, 100.0f))
                .blend(0.0f, x.neg().compare(LT, -110.0f));
        FloatVector exp = expRaw.blend(Float.NaN, expRaw.compare(NE, expRaw));
        x.div(exp.add(1.0f)).intoMemorySegment(outData, (outOff + u) * 4, ORDER);
      }
      {
        FloatVector x = x1;
        FloatVector expMagic = x.neg().fma(1.442695f, 1.2582912E7f);
        FloatVector q = expMagic.sub(1.2582912E7f);
        FloatVector expHi = q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), x.neg());
        FloatVector s = expHi.add(q.mul(1.9046542E-9f));
        FloatVector p =
            s.fma(1.9907598E-4f, 0.0013948604f)
                .fma(s, FloatVector.broadcast(FLOATS, 0.008333286f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.04166624f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.16666667f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.5f));
        FloatVector expTail = s.mul(s).fma(p, q.mul(1.9046542E-9f));
        FloatVector expU = expHi.add(expTail).add(1.0f);
        IntVector half = expMagic.reinterpretAsInts().sub(0x4b400000).lanewise(ASHR, 1);
        FloatVector expScaled =
            expU.mul(half.add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats())
                .mul(
                    expMagic
                        .reinterpretAsInts()
                        .sub(0x4b400000)
                        .sub(half)
                        .add(0x7f)
                        .lanewise(LSHL, 23)
                        .reinterpretAsFloats());
        FloatVector expRaw =
            expScaled
                .blend(Float.POSITIVE_INFINITY, x.neg().compare(GT, 100.0f))
                .blend(0.0f, x.neg().compare(LT, -110.0f));
        FloatVector exp = expRaw.blend(Float.NaN, expRaw.compare(NE, expRaw));
        x.div(exp.add(1.0f)).intoMemorySegment(outData, (outOff + u + LANES) * 4, ORDER);
      }
      {
        FloatVector x = x2;
        FloatVector expMagic = x.neg().fma(1.442695f, 1.2582912E7f);
        FloatVector q = expMagic.sub(1.2582912E7f);
        FloatVector expHi = q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), x.neg());
        FloatVector s = expHi.add(q.mul(1.9046542E-9f));
        FloatVector p =
            s.fma(1.9907598E-4f, 0.0013948604f)
                .fma(s, FloatVector.broadcast(FLOATS, 0.008333286f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.04166624f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.16666667f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.5f));
        FloatVector expTail = s.mul(s).fma(p, q.mul(1.9046542E-9f));
        FloatVector expU = expHi.add(expTail).add(1.0f);
        IntVector half = expMagic.reinterpretAsInts().sub(0x4b400000).lanewise(ASHR, 1);
        FloatVector expScaled =
            expU.mul(half.add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats())
                .mul(
                    expMagic
                        .reinterpretAsInts()
                        .sub(0x4b400000)
                        .sub(half)
                        .add(0x7f)
                        .lanewise(LSHL, 23)
                        .reinterpretAsFloats());
        FloatVector expRaw =
            expScaled
                .blend(Float.POSITIVE_INFINITY, x.neg().compare(GT, 100.0f))
                .blend(0.0f, x.neg().compare(LT, -110.0f));
        FloatVector exp = expRaw.blend(Float.NaN, expRaw.compare(NE, expRaw));
        x.div(exp.add(1.0f)).intoMemorySegment(outData, (outOff + u + 2 * LANES) * 4, ORDER);
      }
      {
        FloatVector x = x3;
        FloatVector expMagic = x.neg().fma(1.442695f, 1.2582912E7f);
        FloatVector q = expMagic.sub(1.2582912E7f);
        FloatVector expHi = q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), x.neg());
        FloatVector s = expHi.add(q.mul(1.9046542E-9f));
        FloatVector p =
            s.fma(1.9907598E-4f, 0.0013948604f)
                .fma(s, FloatVector.broadcast(FLOATS, 0.008333286f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.04166624f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.16666667f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.5f));
        FloatVector expTail = s.mul(s).fma(p, q.mul(1.9046542E-9f));
        FloatVector expU = expHi.add(expTail).add(1.0f);
        IntVector half = expMagic.reinterpretAsInts().sub(0x4b400000).lanewise(ASHR, 1);
        FloatVector expScaled =
            expU.mul(half.add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats())
                .mul(
                    expMagic
                        .reinterpretAsInts()
                        .sub(0x4b400000)
                        .sub(half)
                        .add(0x7f)
                        .lanewise(LSHL, 23)
                        .reinterpretAsFloats());
        FloatVector expRaw =
            expScaled
                .blend(Float.POSITIVE_INFINITY, x.neg().compare(GT, 100.0f))
                .blend(0.0f, x.neg().compare(LT, -110.0f));
        FloatVector exp = expRaw.blend(Float.NaN, expRaw.compare(NE, expRaw));
        x.div(exp.add(1.0f)).intoMemorySegment(outData, (outOff + u + 3 * LANES) * 4, ORDER);
      }
    }
    for (long i = unrolled; i < bound; i += LANES) {
      FloatVector xi = FloatVector.fromMemorySegment(FLOATS, xData, (xOff + i) * 4, ORDER);
      {
        FloatVector x = xi;
        FloatVector expMagic = x.neg().fma(1.442695f, 1.2582912E7f);
        FloatVector q = expMagic.sub(1.2582912E7f);
        FloatVector expHi = q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), x.neg());
        FloatVector s = expHi.add(q.mul(1.9046542E-9f));
        FloatVector p =
            s.fma(1.9907598E-4f, 0.0013948604f)
                .fma(s, FloatVector.broadcast(FLOATS, 0.008333286f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.04166624f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.16666667f))
                .fma(s, FloatVector.broadcast(FLOATS, 0.5f));
        FloatVector expTail = s.mul(s).fma(p, q.mul(1.9046542E-9f));
        FloatVector expU = expHi.add(expTail).add(1.0f);
        IntVector half = expMagic.reinterpretAsInts().sub(0x4b400000).lanewise(ASHR, 1);
        FloatVector expScaled =
            expU.mul(half.add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats())
                .mul(
                    expMagic
                        .reinterpretAsInts()
                        .sub(0x4b400000)
                        .sub(half)
                        .add(0x7f)
                        .lanewise(LSHL, 23)
                        .reinterpretAsFloats());
        FloatVector expRaw =
            expScaled
                .blend(Float.POSITIVE_INFINITY, x.neg().compare(GT, 100.0f))
                .blend(0.0f, x.neg().compare(LT, -110.0f));
        FloatVector exp = expRaw.blend(Float.NaN, expRaw.compare(NE, expRaw));
        x.div(exp.add(1.0f)).intoMemorySegment(outData, (outOff + i) * 4, ORDER);
      }
    }
    return bound;
  }
}
