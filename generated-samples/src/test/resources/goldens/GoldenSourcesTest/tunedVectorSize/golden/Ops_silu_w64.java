package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.LaneScratch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Kernels of the op {@code silu} declared by {@link golden.Ops} whose widest lane type is 64 bits.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_silu_w64 implements ElementwiseKernel {
  static final ElementwiseKernel FLOAT64 = new Ops_silu_w64();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (64 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 64;

  private static final VectorSpecies<Double> DOUBLES = VectorSpecies.of(double.class, VectorShape.forBitSize(LANES * 64));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_silu_w64() {
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    float64(rows, cols, segments, offsets, strides, floatScalars, intScalars);
  }

  /**
   * (float64) promoted to float64, stored as float64.
   */
  private static void float64(long rows, long cols, MemorySegment[] segments, long[] offsets,
      long[] strides, double[] floatScalars, long[] intScalars) {
    MemorySegment outData = segments[0];
    MemorySegment xData = segments[1];
    long outStride = strides[1];
    long xStride = strides[3];
    for (long r = 0; r < rows; r++) {
      long outOff = offsets[0] + r * strides[0];
      long xOff = offsets[1] + r * strides[2];
      long done = 0;
      if (outStride == 1 && xStride == 1) {
        done = float64_contiguous(cols, outData, outOff, xData, xOff);
      }
      if (done < cols) {
        float64_strided(cols - done, outData, outOff + done * outStride, outStride, xData, xOff + done * xStride, xStride);
      }
    }
  }

  private static long float64_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment xData, long xOff) {
    long bound = DOUBLES.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector x = DoubleVector.fromMemorySegment(DOUBLES, xData, (xOff + i) * 8, ORDER);
      DoubleVector expMagic = x.neg().fma(1.4426950408889634, 6.755399441055744E15);
      DoubleVector q = expMagic.sub(6.755399441055744E15);
      DoubleVector expHi = q.fma(DoubleVector.broadcast(DOUBLES, -0.6931471805599453), x.neg());
      DoubleVector s = expHi.add(q.mul(-2.3190468138462996E-17));
      DoubleVector p = s.fma(1.7687684812009611E-9, 2.510520484498542E-8)
              .fma(s, DoubleVector.broadcast(DOUBLES, 2.7567929456757483E-7))
              .fma(s, DoubleVector.broadcast(DOUBLES, 2.7557255436271467E-6))
              .fma(s, DoubleVector.broadcast(DOUBLES, 2.4801574532808893E-5))
              .fma(s, DoubleVector.broadcast(DOUBLES, 1.9841269874785252E-4))
              .fma(s, DoubleVector.broadcast(DOUBLES, 0.0013888888895601244))
              .fma(s, DoubleVector.broadcast(DOUBLES, 0.008333333333326148))
              .fma(s, DoubleVector.broadcast(DOUBLES, 0.04166666666665228))
              .fma(s, DoubleVector.broadcast(DOUBLES, 0.1666666666666667))
              .fma(s, DoubleVector.broadcast(DOUBLES, 0.5000000000000001));
      DoubleVector expTail = s.mul(s).fma(p, q.mul(-2.3190468138462996E-17));
      DoubleVector expU = expHi.add(expTail).add(1.0);
      DoubleVector expFast = expU.reinterpretAsLongs().add(expMagic.reinterpretAsLongs().lanewise(LSHL, 52)).reinterpretAsDoubles();
      VectorMask<Long> expRare = x.neg().reinterpretAsLongs().and(0x7fffffffffffffffL).compare(GT, 0x4086200000000000L);
      DoubleVector expResult = expFast;
      if (expRare.anyTrue()) {
        LongVector expQ = expMagic.reinterpretAsLongs().sub(0x4338000000000000L);
        LongVector expHalfQ = expQ.lanewise(ASHR, 1);
        expResult = expFast.blend(expU.mul(expHalfQ.add(0x3ffL).lanewise(LSHL, 52).reinterpretAsDoubles()).mul(expQ.sub(expHalfQ).add(0x3ffL).lanewise(LSHL, 52).reinterpretAsDoubles()).blend(Double.POSITIVE_INFINITY, x.neg().compare(GT, 710.0)).blend(0.0, x.neg().compare(LT, -746.0)).blend(Double.NaN, x.neg().compare(NE, x.neg())), x.neg().abs().compare(LE, 708.0).not());
      }
      DoubleVector exp = expResult;
      DoubleVector result = x.div(exp.add(1.0));
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static void float64_strided(long n, MemorySegment outData, long outOff, long outStride,
      MemorySegment xData, long xOff, long xStride) {
    MemorySegment[] blocks = LaneScratch.blocks(2, LANES * 8);
    MemorySegment outLanes = blocks[0];
    MemorySegment xLanes = blocks[1];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        xLanes.setAtIndex(JAVA_DOUBLE_UNALIGNED, k, xData.getAtIndex(JAVA_DOUBLE_UNALIGNED, xOff + e * xStride));
      }
      float64_contiguous(LANES, outLanes, 0, xLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_DOUBLE_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_DOUBLE_UNALIGNED, k));
      }
    }
  }
}
