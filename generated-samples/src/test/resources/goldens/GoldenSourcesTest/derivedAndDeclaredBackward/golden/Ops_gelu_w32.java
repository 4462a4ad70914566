package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.LaneScratch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Kernels of the op {@code gelu} declared by {@link golden.Ops} whose widest lane type is 32 bits.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_gelu_w32 implements ElementwiseKernel {
  static final ElementwiseKernel FLOAT32 = new Ops_gelu_w32();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (32 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 32;

  private static final VectorSpecies<Float> FLOATS = VectorSpecies.of(float.class, VectorShape.forBitSize(LANES * 32));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_gelu_w32() {
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    float32(rows, cols, segments, offsets, strides, floatScalars, intScalars);
  }

  /**
   * (float32) promoted to float32, stored as float32.
   */
  private static void float32(long rows, long cols, MemorySegment[] segments, long[] offsets,
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
        done = float32_contiguous(cols, outData, outOff, xData, xOff);
      }
      if (done < cols) {
        float32_strided(cols - done, outData, outOff + done * outStride, outStride, xData, xOff + done * xStride, xStride);
      }
    }
  }

  private static long float32_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment xData, long xOff) {
    long bound = FLOATS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector x = FloatVector.fromMemorySegment(FLOATS, xData, (xOff + i) * 4, ORDER);
      FloatVector inner_ = x.add(x.mul(x).mul(x).mul(0.044715f)).mul(0.7978846f);
      FloatVector ax = inner_.abs();
      FloatVector z = ax.mul(ax);
      FloatVector tanhPoly = z.fma(0.0015706435f, -0.007394366f)
              .fma(z, FloatVector.broadcast(FLOATS, 0.021302262f))
              .fma(z, FloatVector.broadcast(FLOATS, -0.053856123f))
              .fma(z, FloatVector.broadcast(FLOATS, 0.13332348f))
              .fma(z, FloatVector.broadcast(FLOATS, -0.33333308f));
      FloatVector tanhSmall = ax.mul(z).fma(tanhPoly, ax);
      FloatVector minusTwoAx = ax.reinterpretAsInts().min(0x4111999a).reinterpretAsFloats().mul(-2.0f);
      FloatVector expMagic = minusTwoAx.fma(1.442695f, 1.2582912E7f);
      FloatVector q = expMagic.sub(1.2582912E7f);
      FloatVector r_ = q.fma(FloatVector.broadcast(FLOATS, 1.9046542E-9f), q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), minusTwoAx));
      FloatVector expR = r_.fma(0.0013836825f, 0.008374833f)
              .fma(r_, FloatVector.broadcast(FLOATS, 0.041668225f))
              .fma(r_, FloatVector.broadcast(FLOATS, 0.1666642f))
              .fma(r_, FloatVector.broadcast(FLOATS, 0.4999999f))
              .fma(r_, FloatVector.broadcast(FLOATS, 1.0f))
              .fma(r_, FloatVector.broadcast(FLOATS, 1.0f));
      FloatVector w = expR.reinterpretAsInts().add(expMagic.reinterpretAsInts().lanewise(LSHL, 23)).reinterpretAsFloats();
      FloatVector wMinusOne = w.sub(1.0f);
      FloatVector wMinusOneError = w.sub(wMinusOne.add(1.0f));
      FloatVector denominator = w.add(1.0f);
      FloatVector denominatorLow = FloatVector.broadcast(FLOATS, 1.0f).sub(denominator).add(w);
      FloatVector minusInverse = FloatVector.broadcast(FLOATS, -1.0f).div(denominator);
      FloatVector quotient = wMinusOne.mul(minusInverse);
      FloatVector residual = quotient.fma(denominatorLow, quotient.fma(denominator, wMinusOne).add(wMinusOneError));
      FloatVector tanhLarge = residual.fma(minusInverse, quotient);
      FloatVector tanhRaw = tanhSmall.blend(tanhLarge, ax.compare(GE, 0.8f)).reinterpretAsInts().lanewise(XOR, inner_.reinterpretAsInts().and(0x80000000)).reinterpretAsFloats();
      FloatVector tanh = tanhRaw.blend(Float.NaN, tanhRaw.compare(NE, tanhRaw));
      FloatVector result = x.mul(0.5f).mul(tanh.add(1.0f));
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  private static void float32_strided(long n, MemorySegment outData, long outOff, long outStride,
      MemorySegment xData, long xOff, long xStride) {
    MemorySegment[] blocks = LaneScratch.blocks(2, LANES * 4);
    MemorySegment outLanes = blocks[0];
    MemorySegment xLanes = blocks[1];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        xLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, k, xData.getAtIndex(JAVA_FLOAT_UNALIGNED, xOff + e * xStride));
      }
      float32_contiguous(LANES, outLanes, 0, xLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_FLOAT_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_FLOAT_UNALIGNED, k));
      }
    }
  }
}
