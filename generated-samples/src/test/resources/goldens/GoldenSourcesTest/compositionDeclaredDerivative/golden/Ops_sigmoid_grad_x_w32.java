package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.LaneScratch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Kernels of the op {@code sigmoid_grad_x} declared by {@link golden.Ops} whose widest lane type is 32 bits.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_sigmoid_grad_x_w32 implements ElementwiseKernel {
  static final ElementwiseKernel FLOAT32_FLOAT32 = new Ops_sigmoid_grad_x_w32();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (32 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 32;

  private static final VectorSpecies<Float> FLOATS = VectorSpecies.of(float.class, VectorShape.forBitSize(LANES * 32));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_sigmoid_grad_x_w32() {
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
      FloatVector ax = x.abs();
      FloatVector sigmoidMagic = ax.fma(-1.442695f, 1.2582912E7f);
      FloatVector minusQ = sigmoidMagic.sub(1.2582912E7f);
      FloatVector mHi = minusQ.fma(FloatVector.broadcast(FLOATS, 0.6931472f), ax);
      FloatVector minusMLow = minusQ.mul(1.9046542E-9f);
      FloatVector m = mHi.sub(minusMLow);
      FloatVector p = m.fma(-1.9907598E-4f, 0.0013948604f)
              .fma(m, FloatVector.broadcast(FLOATS, -0.008333286f))
              .fma(m, FloatVector.broadcast(FLOATS, 0.04166624f))
              .fma(m, FloatVector.broadcast(FLOATS, -0.16666667f))
              .fma(m, FloatVector.broadcast(FLOATS, 0.5f));
      FloatVector tail = m.mul(m).fma(p, minusMLow);
      FloatVector oneMinusMHi = FloatVector.broadcast(FLOATS, 1.0f).sub(mHi);
      FloatVector low = FloatVector.broadcast(FLOATS, 1.0f).sub(oneMinusMHi).sub(mHi).add(tail);
      FloatVector head = oneMinusMHi.add(low);
      FloatVector headLow = oneMinusMHi.sub(head).add(low);
      FloatVector pow2MinusQ = sigmoidMagic.reinterpretAsInts().add(0xb4c0007f).lanewise(LSHL, 23).reinterpretAsFloats();
      FloatVector w = head.mul(pow2MinusQ);
      FloatVector denominator = w.add(1.0f);
      FloatVector denominatorLow = FloatVector.broadcast(FLOATS, 1.0f).sub(denominator).add(w).add(headLow.mul(pow2MinusQ));
      FloatVector inverse = FloatVector.broadcast(FLOATS, 1.0f).div(denominator);
      VectorMask<Float> negative = x.compare(LT, 0.0f);
      FloatVector numerator = FloatVector.broadcast(FLOATS, 1.0f).blend(head, negative);
      FloatVector numeratorLow = FloatVector.broadcast(FLOATS, 0.0f).blend(headLow, negative);
      FloatVector y = numerator.mul(inverse);
      FloatVector minusY = y.neg();
      FloatVector residual = minusY.fma(denominatorLow, minusY.fma(denominator, numerator)).add(numeratorLow);
      FloatVector quotient = residual.fma(inverse, y);
      FloatVector sigmoidFast = quotient.mul(FloatVector.broadcast(FLOATS, 1.0f).blend(pow2MinusQ, negative));
      VectorMask<Integer> sigmoidRare = ax.reinterpretAsInts().compare(GT, 0x42ae0000);
      FloatVector sigmoidResult = sigmoidFast;
      if (sigmoidRare.anyTrue()) {
        FloatVector axClamped = ax.min(104.0f);
        FloatVector sigmoidMagic_ = axClamped.fma(-1.442695f, 1.2582912E7f);
        FloatVector minusQ_ = sigmoidMagic_.sub(1.2582912E7f);
        FloatVector mHi_ = minusQ_.fma(FloatVector.broadcast(FLOATS, 0.6931472f), axClamped);
        FloatVector minusMLow_ = minusQ_.mul(1.9046542E-9f);
        FloatVector m_ = mHi_.sub(minusMLow_);
        FloatVector p_ = m_.fma(-1.9907598E-4f, 0.0013948604f)
                .fma(m_, FloatVector.broadcast(FLOATS, -0.008333286f))
                .fma(m_, FloatVector.broadcast(FLOATS, 0.04166624f))
                .fma(m_, FloatVector.broadcast(FLOATS, -0.16666667f))
                .fma(m_, FloatVector.broadcast(FLOATS, 0.5f));
        FloatVector tail_ = m_.mul(m_).fma(p_, minusMLow_);
        FloatVector oneMinusMHi_ = FloatVector.broadcast(FLOATS, 1.0f).sub(mHi_);
        FloatVector low_ = FloatVector.broadcast(FLOATS, 1.0f).sub(oneMinusMHi_).sub(mHi_).add(tail_);
        FloatVector head_ = oneMinusMHi_.add(low_);
        FloatVector headLow_ = oneMinusMHi_.sub(head_).add(low_);
        IntVector minusQBits = sigmoidMagic_.reinterpretAsInts().sub(0x4b400000);
        IntVector halfMinusQ = minusQBits.lanewise(ASHR, 1);
        FloatVector pow2Half = halfMinusQ.add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats();
        sigmoidResult = sigmoidFast.blend(head_.mul(pow2Half).add(headLow_.mul(pow2Half)).mul(minusQBits.sub(halfMinusQ).add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats()).blend(1.0f, x.compare(GT, 0.0f)).blend(Float.NaN, x.compare(NE, x)), ax.compare(LE, 87.0f).not());
      }
      FloatVector sigmoid = sigmoidResult;
      FloatVector y__ = sigmoid;
      FloatVector result = grad.mul(FloatVector.broadcast(FLOATS, 1.0f).sub(y__)).mul(y__);
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
      FloatVector ax = x.abs();
      FloatVector sigmoidMagic = ax.fma(-1.442695f, 1.2582912E7f);
      FloatVector minusQ = sigmoidMagic.sub(1.2582912E7f);
      FloatVector mHi = minusQ.fma(FloatVector.broadcast(FLOATS, 0.6931472f), ax);
      FloatVector minusMLow = minusQ.mul(1.9046542E-9f);
      FloatVector m = mHi.sub(minusMLow);
      FloatVector p = m.fma(-1.9907598E-4f, 0.0013948604f)
              .fma(m, FloatVector.broadcast(FLOATS, -0.008333286f))
              .fma(m, FloatVector.broadcast(FLOATS, 0.04166624f))
              .fma(m, FloatVector.broadcast(FLOATS, -0.16666667f))
              .fma(m, FloatVector.broadcast(FLOATS, 0.5f));
      FloatVector tail = m.mul(m).fma(p, minusMLow);
      FloatVector oneMinusMHi = FloatVector.broadcast(FLOATS, 1.0f).sub(mHi);
      FloatVector low = FloatVector.broadcast(FLOATS, 1.0f).sub(oneMinusMHi).sub(mHi).add(tail);
      FloatVector head = oneMinusMHi.add(low);
      FloatVector headLow = oneMinusMHi.sub(head).add(low);
      FloatVector pow2MinusQ = sigmoidMagic.reinterpretAsInts().add(0xb4c0007f).lanewise(LSHL, 23).reinterpretAsFloats();
      FloatVector w = head.mul(pow2MinusQ);
      FloatVector denominator = w.add(1.0f);
      FloatVector denominatorLow = FloatVector.broadcast(FLOATS, 1.0f).sub(denominator).add(w).add(headLow.mul(pow2MinusQ));
      FloatVector inverse = FloatVector.broadcast(FLOATS, 1.0f).div(denominator);
      VectorMask<Float> negative = x.compare(LT, 0.0f);
      FloatVector numerator = FloatVector.broadcast(FLOATS, 1.0f).blend(head, negative);
      FloatVector numeratorLow = FloatVector.broadcast(FLOATS, 0.0f).blend(headLow, negative);
      FloatVector y = numerator.mul(inverse);
      FloatVector minusY = y.neg();
      FloatVector residual = minusY.fma(denominatorLow, minusY.fma(denominator, numerator)).add(numeratorLow);
      FloatVector quotient = residual.fma(inverse, y);
      FloatVector sigmoidFast = quotient.mul(FloatVector.broadcast(FLOATS, 1.0f).blend(pow2MinusQ, negative));
      VectorMask<Integer> sigmoidRare = ax.reinterpretAsInts().compare(GT, 0x42ae0000);
      FloatVector sigmoidResult = sigmoidFast;
      if (sigmoidRare.anyTrue()) {
        FloatVector axClamped = ax.min(104.0f);
        FloatVector sigmoidMagic_ = axClamped.fma(-1.442695f, 1.2582912E7f);
        FloatVector minusQ_ = sigmoidMagic_.sub(1.2582912E7f);
        FloatVector mHi_ = minusQ_.fma(FloatVector.broadcast(FLOATS, 0.6931472f), axClamped);
        FloatVector minusMLow_ = minusQ_.mul(1.9046542E-9f);
        FloatVector m_ = mHi_.sub(minusMLow_);
        FloatVector p_ = m_.fma(-1.9907598E-4f, 0.0013948604f)
                .fma(m_, FloatVector.broadcast(FLOATS, -0.008333286f))
                .fma(m_, FloatVector.broadcast(FLOATS, 0.04166624f))
                .fma(m_, FloatVector.broadcast(FLOATS, -0.16666667f))
                .fma(m_, FloatVector.broadcast(FLOATS, 0.5f));
        FloatVector tail_ = m_.mul(m_).fma(p_, minusMLow_);
        FloatVector oneMinusMHi_ = FloatVector.broadcast(FLOATS, 1.0f).sub(mHi_);
        FloatVector low_ = FloatVector.broadcast(FLOATS, 1.0f).sub(oneMinusMHi_).sub(mHi_).add(tail_);
        FloatVector head_ = oneMinusMHi_.add(low_);
        FloatVector headLow_ = oneMinusMHi_.sub(head_).add(low_);
        IntVector minusQBits = sigmoidMagic_.reinterpretAsInts().sub(0x4b400000);
        IntVector halfMinusQ = minusQBits.lanewise(ASHR, 1);
        FloatVector pow2Half = halfMinusQ.add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats();
        sigmoidResult = sigmoidFast.blend(head_.mul(pow2Half).add(headLow_.mul(pow2Half)).mul(minusQBits.sub(halfMinusQ).add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats()).blend(1.0f, x.compare(GT, 0.0f)).blend(Float.NaN, x.compare(NE, x)), ax.compare(LE, 87.0f).not());
      }
      FloatVector sigmoid = sigmoidResult;
      FloatVector y__ = sigmoid;
      FloatVector result = grad.mul(FloatVector.broadcast(FLOATS, 1.0f).sub(y__)).mul(y__);
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
      FloatVector ax = x.abs();
      FloatVector sigmoidMagic = ax.fma(-1.442695f, 1.2582912E7f);
      FloatVector minusQ = sigmoidMagic.sub(1.2582912E7f);
      FloatVector mHi = minusQ.fma(FloatVector.broadcast(FLOATS, 0.6931472f), ax);
      FloatVector minusMLow = minusQ.mul(1.9046542E-9f);
      FloatVector m = mHi.sub(minusMLow);
      FloatVector p = m.fma(-1.9907598E-4f, 0.0013948604f)
              .fma(m, FloatVector.broadcast(FLOATS, -0.008333286f))
              .fma(m, FloatVector.broadcast(FLOATS, 0.04166624f))
              .fma(m, FloatVector.broadcast(FLOATS, -0.16666667f))
              .fma(m, FloatVector.broadcast(FLOATS, 0.5f));
      FloatVector tail = m.mul(m).fma(p, minusMLow);
      FloatVector oneMinusMHi = FloatVector.broadcast(FLOATS, 1.0f).sub(mHi);
      FloatVector low = FloatVector.broadcast(FLOATS, 1.0f).sub(oneMinusMHi).sub(mHi).add(tail);
      FloatVector head = oneMinusMHi.add(low);
      FloatVector headLow = oneMinusMHi.sub(head).add(low);
      FloatVector pow2MinusQ = sigmoidMagic.reinterpretAsInts().add(0xb4c0007f).lanewise(LSHL, 23).reinterpretAsFloats();
      FloatVector w = head.mul(pow2MinusQ);
      FloatVector denominator = w.add(1.0f);
      FloatVector denominatorLow = FloatVector.broadcast(FLOATS, 1.0f).sub(denominator).add(w).add(headLow.mul(pow2MinusQ));
      FloatVector inverse = FloatVector.broadcast(FLOATS, 1.0f).div(denominator);
      VectorMask<Float> negative = x.compare(LT, 0.0f);
      FloatVector numerator = FloatVector.broadcast(FLOATS, 1.0f).blend(head, negative);
      FloatVector numeratorLow = FloatVector.broadcast(FLOATS, 0.0f).blend(headLow, negative);
      FloatVector y = numerator.mul(inverse);
      FloatVector minusY = y.neg();
      FloatVector residual = minusY.fma(denominatorLow, minusY.fma(denominator, numerator)).add(numeratorLow);
      FloatVector quotient = residual.fma(inverse, y);
      FloatVector sigmoidFast = quotient.mul(FloatVector.broadcast(FLOATS, 1.0f).blend(pow2MinusQ, negative));
      VectorMask<Integer> sigmoidRare = ax.reinterpretAsInts().compare(GT, 0x42ae0000);
      FloatVector sigmoidResult = sigmoidFast;
      if (sigmoidRare.anyTrue()) {
        FloatVector axClamped = ax.min(104.0f);
        FloatVector sigmoidMagic_ = axClamped.fma(-1.442695f, 1.2582912E7f);
        FloatVector minusQ_ = sigmoidMagic_.sub(1.2582912E7f);
        FloatVector mHi_ = minusQ_.fma(FloatVector.broadcast(FLOATS, 0.6931472f), axClamped);
        FloatVector minusMLow_ = minusQ_.mul(1.9046542E-9f);
        FloatVector m_ = mHi_.sub(minusMLow_);
        FloatVector p_ = m_.fma(-1.9907598E-4f, 0.0013948604f)
                .fma(m_, FloatVector.broadcast(FLOATS, -0.008333286f))
                .fma(m_, FloatVector.broadcast(FLOATS, 0.04166624f))
                .fma(m_, FloatVector.broadcast(FLOATS, -0.16666667f))
                .fma(m_, FloatVector.broadcast(FLOATS, 0.5f));
        FloatVector tail_ = m_.mul(m_).fma(p_, minusMLow_);
        FloatVector oneMinusMHi_ = FloatVector.broadcast(FLOATS, 1.0f).sub(mHi_);
        FloatVector low_ = FloatVector.broadcast(FLOATS, 1.0f).sub(oneMinusMHi_).sub(mHi_).add(tail_);
        FloatVector head_ = oneMinusMHi_.add(low_);
        FloatVector headLow_ = oneMinusMHi_.sub(head_).add(low_);
        IntVector minusQBits = sigmoidMagic_.reinterpretAsInts().sub(0x4b400000);
        IntVector halfMinusQ = minusQBits.lanewise(ASHR, 1);
        FloatVector pow2Half = halfMinusQ.add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats();
        sigmoidResult = sigmoidFast.blend(head_.mul(pow2Half).add(headLow_.mul(pow2Half)).mul(minusQBits.sub(halfMinusQ).add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats()).blend(1.0f, x.compare(GT, 0.0f)).blend(Float.NaN, x.compare(NE, x)), ax.compare(LE, 87.0f).not());
      }
      FloatVector sigmoid = sigmoidResult;
      FloatVector y__ = sigmoid;
      FloatVector result = grad.mul(FloatVector.broadcast(FLOATS, 1.0f).sub(y__)).mul(y__);
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
