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
 * Kernels of the op {@code gelu_grad_x} declared by {@link golden.Ops} whose widest lane type is 32 bits.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_gelu_grad_x_w32 implements ElementwiseKernel {
  static final ElementwiseKernel FLOAT32_FLOAT32 = new Ops_gelu_grad_x_w32();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (32 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 32;

  private static final VectorSpecies<Float> FLOATS = VectorSpecies.of(float.class, VectorShape.forBitSize(LANES * 32));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_gelu_grad_x_w32() {
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    float32_float32(rows, cols, segments, offsets, strides, floatScalars, intScalars);
  }

  /**
   * (float32, float32) promoted to float32, stored as float32.
   */
  private static void float32_float32(long rows, long cols, MemorySegment[] segments,
      long[] offsets, long[] strides, double[] floatScalars, long[] intScalars) {
    MemorySegment outData = segments[0];
    MemorySegment gradData = segments[1];
    MemorySegment xData = segments[2];
    long outStride = strides[1];
    long gradStride = strides[3];
    long xStride = strides[5];
    for (long r = 0; r < rows; r++) {
      long outOff = offsets[0] + r * strides[0];
      long gradOff = offsets[1] + r * strides[2];
      long xOff = offsets[2] + r * strides[4];
      long done = 0;
      if (outStride == 1 && gradStride == 1 && xStride == 1) {
        done = float32_float32_contiguous(cols, outData, outOff, gradData, gradOff, xData, xOff);
      } else if (outStride == 1 && gradStride == 1 && xStride == 0) {
        done = float32_float32_splatX(cols, outData, outOff, gradData, gradOff, xData, xOff);
      } else if (outStride == 1 && gradStride == 0 && xStride == 1) {
        done = float32_float32_splatGrad(cols, outData, outOff, gradData, gradOff, xData, xOff);
      }
      if (done < cols) {
        float32_float32_strided(cols - done, outData, outOff + done * outStride, outStride, gradData, gradOff + done * gradStride, gradStride, xData, xOff + done * xStride, xStride);
      }
    }
  }

  private static long float32_float32_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment gradData, long gradOff, MemorySegment xData, long xOff) {
    long bound = FLOATS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector grad = FloatVector.fromMemorySegment(FLOATS, gradData, (gradOff + i) * 4, ORDER);
      FloatVector x = FloatVector.fromMemorySegment(FLOATS, xData, (xOff + i) * 4, ORDER);
      FloatVector inner_ = x.add(x.mul(x).mul(x).mul(0.044715f)).mul(0.7978846f);
      FloatVector dInner_ = x.add(x).mul(x).add(x.mul(x)).mul(0.044715f).add(1.0f).mul(0.7978846f);
      FloatVector ax = inner_.abs();
      FloatVector z = ax.mul(ax);
      FloatVector tanhPoly = z.fma(-0.0062437085f, 0.02105906f)
              .fma(z, FloatVector.broadcast(FLOATS, -0.053852376f))
              .fma(z, FloatVector.broadcast(FLOATS, 0.1333263f))
              .fma(z, FloatVector.broadcast(FLOATS, -0.33333322f));
      FloatVector tanhSmall = ax.mul(z).fma(tanhPoly, ax);
      FloatVector expMagic = ax.add(ax).min(20.0f).fma(1.442695f, 1.2582912E7f);
      FloatVector q = expMagic.sub(1.2582912E7f);
      FloatVector expHi = q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), ax.add(ax).min(20.0f));
      FloatVector s = expHi.add(q.mul(1.9046542E-9f));
      FloatVector p = s.fma(1.9907598E-4f, 0.0013948604f)
              .fma(s, FloatVector.broadcast(FLOATS, 0.008333286f))
              .fma(s, FloatVector.broadcast(FLOATS, 0.04166624f))
              .fma(s, FloatVector.broadcast(FLOATS, 0.16666667f))
              .fma(s, FloatVector.broadcast(FLOATS, 0.5f));
      FloatVector expTail = s.mul(s).fma(p, q.mul(1.9046542E-9f));
      FloatVector expM1 = expHi.add(expTail);
      FloatVector back = expM1.sub(expHi);
      FloatVector expM1Error = expHi.sub(expM1.sub(back)).add(expTail.sub(back));
      FloatVector expHead = expM1.add(1.0f);
      FloatVector expLow = expHead.neg().add(1.0f).add(expM1).add(expM1Error);
      FloatVector scale = expMagic.reinterpretAsInts().sub(0x4b400000).add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats();
      FloatVector big = expHead.mul(scale);
      FloatVector denominator = big.add(1.0f);
      FloatVector denominatorLow = big.sub(denominator).add(1.0f).add(expLow.mul(scale));
      FloatVector twoOverD = FloatVector.broadcast(FLOATS, 2.0f).div(denominator);
      FloatVector residual = twoOverD.neg().fma(denominator, FloatVector.broadcast(FLOATS, 2.0f)).sub(twoOverD.mul(denominatorLow));
      FloatVector tanhLarge = residual.mul(twoOverD).fma(FloatVector.broadcast(FLOATS, 0.5f), twoOverD).neg().add(1.0f);
      FloatVector tanhRaw = tanhLarge.blend(tanhSmall, ax.compare(LT, 0.54930615f)).reinterpretAsInts().lanewise(XOR, inner_.reinterpretAsInts().and(0x80000000)).reinterpretAsFloats();
      FloatVector tanh = tanhRaw.blend(Float.NaN, tanhRaw.compare(NE, tanhRaw));
      FloatVector tanh__ = tanh;
      FloatVector result = grad.mul(tanh__.add(1.0f).mul(0.5f).add(x.mul(0.5f).mul(dInner_.mul(FloatVector.broadcast(FLOATS, 1.0f).sub(tanh__.mul(tanh__))))));
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  private static long float32_float32_splatX(long n, MemorySegment outData, long outOff,
      MemorySegment gradData, long gradOff, MemorySegment xData, long xOff) {
    long bound = FLOATS.loopBound(n);
    FloatVector x = FloatVector.broadcast(FLOATS, xData.getAtIndex(JAVA_FLOAT_UNALIGNED, xOff));
    for (long i = 0; i < bound; i += LANES) {
      FloatVector grad = FloatVector.fromMemorySegment(FLOATS, gradData, (gradOff + i) * 4, ORDER);
      FloatVector inner_ = x.add(x.mul(x).mul(x).mul(0.044715f)).mul(0.7978846f);
      FloatVector dInner_ = x.add(x).mul(x).add(x.mul(x)).mul(0.044715f).add(1.0f).mul(0.7978846f);
      FloatVector ax = inner_.abs();
      FloatVector z = ax.mul(ax);
      FloatVector tanhPoly = z.fma(-0.0062437085f, 0.02105906f)
              .fma(z, FloatVector.broadcast(FLOATS, -0.053852376f))
              .fma(z, FloatVector.broadcast(FLOATS, 0.1333263f))
              .fma(z, FloatVector.broadcast(FLOATS, -0.33333322f));
      FloatVector tanhSmall = ax.mul(z).fma(tanhPoly, ax);
      FloatVector expMagic = ax.add(ax).min(20.0f).fma(1.442695f, 1.2582912E7f);
      FloatVector q = expMagic.sub(1.2582912E7f);
      FloatVector expHi = q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), ax.add(ax).min(20.0f));
      FloatVector s = expHi.add(q.mul(1.9046542E-9f));
      FloatVector p = s.fma(1.9907598E-4f, 0.0013948604f)
              .fma(s, FloatVector.broadcast(FLOATS, 0.008333286f))
              .fma(s, FloatVector.broadcast(FLOATS, 0.04166624f))
              .fma(s, FloatVector.broadcast(FLOATS, 0.16666667f))
              .fma(s, FloatVector.broadcast(FLOATS, 0.5f));
      FloatVector expTail = s.mul(s).fma(p, q.mul(1.9046542E-9f));
      FloatVector expM1 = expHi.add(expTail);
      FloatVector back = expM1.sub(expHi);
      FloatVector expM1Error = expHi.sub(expM1.sub(back)).add(expTail.sub(back));
      FloatVector expHead = expM1.add(1.0f);
      FloatVector expLow = expHead.neg().add(1.0f).add(expM1).add(expM1Error);
      FloatVector scale = expMagic.reinterpretAsInts().sub(0x4b400000).add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats();
      FloatVector big = expHead.mul(scale);
      FloatVector denominator = big.add(1.0f);
      FloatVector denominatorLow = big.sub(denominator).add(1.0f).add(expLow.mul(scale));
      FloatVector twoOverD = FloatVector.broadcast(FLOATS, 2.0f).div(denominator);
      FloatVector residual = twoOverD.neg().fma(denominator, FloatVector.broadcast(FLOATS, 2.0f)).sub(twoOverD.mul(denominatorLow));
      FloatVector tanhLarge = residual.mul(twoOverD).fma(FloatVector.broadcast(FLOATS, 0.5f), twoOverD).neg().add(1.0f);
      FloatVector tanhRaw = tanhLarge.blend(tanhSmall, ax.compare(LT, 0.54930615f)).reinterpretAsInts().lanewise(XOR, inner_.reinterpretAsInts().and(0x80000000)).reinterpretAsFloats();
      FloatVector tanh = tanhRaw.blend(Float.NaN, tanhRaw.compare(NE, tanhRaw));
      FloatVector tanh__ = tanh;
      FloatVector result = grad.mul(tanh__.add(1.0f).mul(0.5f).add(x.mul(0.5f).mul(dInner_.mul(FloatVector.broadcast(FLOATS, 1.0f).sub(tanh__.mul(tanh__))))));
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  private static long float32_float32_splatGrad(long n, MemorySegment outData, long outOff,
      MemorySegment gradData, long gradOff, MemorySegment xData, long xOff) {
    long bound = FLOATS.loopBound(n);
    FloatVector grad = FloatVector.broadcast(FLOATS, gradData.getAtIndex(JAVA_FLOAT_UNALIGNED, gradOff));
    for (long i = 0; i < bound; i += LANES) {
      FloatVector x = FloatVector.fromMemorySegment(FLOATS, xData, (xOff + i) * 4, ORDER);
      FloatVector inner_ = x.add(x.mul(x).mul(x).mul(0.044715f)).mul(0.7978846f);
      FloatVector dInner_ = x.add(x).mul(x).add(x.mul(x)).mul(0.044715f).add(1.0f).mul(0.7978846f);
      FloatVector ax = inner_.abs();
      FloatVector z = ax.mul(ax);
      FloatVector tanhPoly = z.fma(-0.0062437085f, 0.02105906f)
              .fma(z, FloatVector.broadcast(FLOATS, -0.053852376f))
              .fma(z, FloatVector.broadcast(FLOATS, 0.1333263f))
              .fma(z, FloatVector.broadcast(FLOATS, -0.33333322f));
      FloatVector tanhSmall = ax.mul(z).fma(tanhPoly, ax);
      FloatVector expMagic = ax.add(ax).min(20.0f).fma(1.442695f, 1.2582912E7f);
      FloatVector q = expMagic.sub(1.2582912E7f);
      FloatVector expHi = q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), ax.add(ax).min(20.0f));
      FloatVector s = expHi.add(q.mul(1.9046542E-9f));
      FloatVector p = s.fma(1.9907598E-4f, 0.0013948604f)
              .fma(s, FloatVector.broadcast(FLOATS, 0.008333286f))
              .fma(s, FloatVector.broadcast(FLOATS, 0.04166624f))
              .fma(s, FloatVector.broadcast(FLOATS, 0.16666667f))
              .fma(s, FloatVector.broadcast(FLOATS, 0.5f));
      FloatVector expTail = s.mul(s).fma(p, q.mul(1.9046542E-9f));
      FloatVector expM1 = expHi.add(expTail);
      FloatVector back = expM1.sub(expHi);
      FloatVector expM1Error = expHi.sub(expM1.sub(back)).add(expTail.sub(back));
      FloatVector expHead = expM1.add(1.0f);
      FloatVector expLow = expHead.neg().add(1.0f).add(expM1).add(expM1Error);
      FloatVector scale = expMagic.reinterpretAsInts().sub(0x4b400000).add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats();
      FloatVector big = expHead.mul(scale);
      FloatVector denominator = big.add(1.0f);
      FloatVector denominatorLow = big.sub(denominator).add(1.0f).add(expLow.mul(scale));
      FloatVector twoOverD = FloatVector.broadcast(FLOATS, 2.0f).div(denominator);
      FloatVector residual = twoOverD.neg().fma(denominator, FloatVector.broadcast(FLOATS, 2.0f)).sub(twoOverD.mul(denominatorLow));
      FloatVector tanhLarge = residual.mul(twoOverD).fma(FloatVector.broadcast(FLOATS, 0.5f), twoOverD).neg().add(1.0f);
      FloatVector tanhRaw = tanhLarge.blend(tanhSmall, ax.compare(LT, 0.54930615f)).reinterpretAsInts().lanewise(XOR, inner_.reinterpretAsInts().and(0x80000000)).reinterpretAsFloats();
      FloatVector tanh = tanhRaw.blend(Float.NaN, tanhRaw.compare(NE, tanhRaw));
      FloatVector tanh__ = tanh;
      FloatVector result = grad.mul(tanh__.add(1.0f).mul(0.5f).add(x.mul(0.5f).mul(dInner_.mul(FloatVector.broadcast(FLOATS, 1.0f).sub(tanh__.mul(tanh__))))));
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  private static void float32_float32_strided(long n, MemorySegment outData, long outOff,
      long outStride, MemorySegment gradData, long gradOff, long gradStride, MemorySegment xData,
      long xOff, long xStride) {
    MemorySegment[] blocks = LaneScratch.blocks(3, LANES * 4);
    MemorySegment outLanes = blocks[0];
    MemorySegment gradLanes = blocks[1];
    MemorySegment xLanes = blocks[2];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        gradLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, k, gradData.getAtIndex(JAVA_FLOAT_UNALIGNED, gradOff + e * gradStride));
        xLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, k, xData.getAtIndex(JAVA_FLOAT_UNALIGNED, xOff + e * xStride));
      }
      float32_float32_contiguous(LANES, outLanes, 0, gradLanes, 0, xLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_FLOAT_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_FLOAT_UNALIGNED, k));
      }
    }
  }
}
