package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.HalfChunks;
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
 * Kernels of the op {@code silu} declared by {@link golden.Ops} whose widest lane type is 32 bits.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_silu_w32 implements ElementwiseKernel {
  static final ElementwiseKernel INT32 = new Ops_silu_w32(0);

  static final ElementwiseKernel FLOAT16 = new Ops_silu_w32(1);

  static final ElementwiseKernel FLOAT32 = new Ops_silu_w32(2);

  /**
   * Elements per step: a preferred-size vector of the widest lane type (32 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 32;

  private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, VectorShape.forBitSize(LANES * 32));

  private static final VectorSpecies<Float> FLOATS = VectorSpecies.of(float.class, VectorShape.forBitSize(LANES * 32));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private final int entry;

  private Ops_silu_w32(int entry) {
    this.entry = entry;
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    switch (entry) {
      case 0 -> int32(rows, cols, segments, offsets, strides, floatScalars, intScalars);
      case 1 -> float16(rows, cols, segments, offsets, strides, floatScalars, intScalars);
      case 2 -> float32(rows, cols, segments, offsets, strides, floatScalars, intScalars);
    }
  }

  /**
   * (int32) promoted to float32, stored as float32.
   */
  private static void int32(long rows, long cols, MemorySegment[] segments, long[] offsets,
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
        done = int32_contiguous(cols, outData, outOff, xData, xOff);
      }
      if (done < cols) {
        int32_strided(cols - done, outData, outOff + done * outStride, outStride, xData, xOff + done * xStride, xStride);
      }
    }
  }

  private static long int32_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment xData, long xOff) {
    long bound = FLOATS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector x = ((FloatVector) IntVector.fromMemorySegment(INTS, xData, (xOff + i) * 4, ORDER).convertShape(I2F, FLOATS, 0));
      FloatVector expMagic = x.neg().fma(1.442695f, 1.2582912E7f);
      FloatVector q = expMagic.sub(1.2582912E7f);
      FloatVector expR = q.fma(FloatVector.broadcast(FLOATS, 1.9046542E-9f), q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), x.neg()));
      FloatVector p = expR.fma(1.9907598E-4f, 0.0013948604f)
              .fma(expR, FloatVector.broadcast(FLOATS, 0.008333286f))
              .fma(expR, FloatVector.broadcast(FLOATS, 0.04166624f))
              .fma(expR, FloatVector.broadcast(FLOATS, 0.16666667f))
              .fma(expR, FloatVector.broadcast(FLOATS, 0.5f));
      FloatVector expU = expR.mul(expR).fma(p, expR).add(1.0f);
      FloatVector expFast = expU.reinterpretAsInts().add(expMagic.reinterpretAsInts().lanewise(LSHL, 23)).reinterpretAsFloats();
      VectorMask<Integer> expRare = x.neg().reinterpretAsInts().and(0x7fffffff).compare(GT, 0x42ae0000);
      FloatVector expResult = expFast;
      if (expRare.anyTrue()) {
        IntVector expQ = expMagic.reinterpretAsInts().sub(0x4b400000);
        IntVector expHalfQ = expQ.lanewise(ASHR, 1);
        expResult = expFast.blend(expU.mul(expHalfQ.add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats()).mul(expQ.sub(expHalfQ).add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats()).blend(Float.POSITIVE_INFINITY, x.neg().compare(GT, 100.0f)).blend(0.0f, x.neg().compare(LT, -110.0f)).blend(Float.NaN, x.neg().compare(NE, x.neg())), x.neg().abs().compare(LE, 87.0f).not());
      }
      FloatVector exp = expResult;
      FloatVector result = x.div(exp.add(1.0f));
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  private static void int32_strided(long n, MemorySegment outData, long outOff, long outStride,
      MemorySegment xData, long xOff, long xStride) {
    MemorySegment[] blocks = LaneScratch.blocks(2, LANES * 4);
    MemorySegment outLanes = blocks[0];
    MemorySegment xLanes = blocks[1];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        xLanes.setAtIndex(JAVA_INT_UNALIGNED, k, xData.getAtIndex(JAVA_INT_UNALIGNED, xOff + e * xStride));
      }
      int32_contiguous(LANES, outLanes, 0, xLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_FLOAT_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_FLOAT_UNALIGNED, k));
      }
    }
  }

  /**
   * (float16) promoted to float16, computed in float32, stored as float16.
   */
  private static void float16(long rows, long cols, MemorySegment[] segments, long[] offsets,
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
        done = float16_contiguous(cols, outData, outOff, xData, xOff);
      }
      if (done < cols) {
        float16_strided(cols - done, outData, outOff + done * outStride, outStride, xData, xOff + done * xStride, xStride);
      }
    }
  }

  private static long float16_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment xData, long xOff) {
    long bound = FLOATS.loopBound(n);
    if (bound == 0) {
      return 0;
    }
    float[][] chunks = HalfChunks.buffers(2);
    float[] xFloats = chunks[0];
    float[] outFloats = chunks[1];
    for (long chunk = 0; chunk < bound; chunk += HalfChunks.CHUNK) {
      int len = (int) Math.min(HalfChunks.CHUNK, bound - chunk);
      HalfChunks.toFloats(xData, xOff + chunk, xFloats, len);
      for (int j = 0; j < len; j += LANES) {
        FloatVector x = FloatVector.fromArray(FLOATS, xFloats, j);
        FloatVector expMagic = x.neg().fma(1.442695f, 1.2582912E7f);
        FloatVector q = expMagic.sub(1.2582912E7f);
        FloatVector expR = q.fma(FloatVector.broadcast(FLOATS, 1.9046542E-9f), q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), x.neg()));
        FloatVector p = expR.fma(1.9907598E-4f, 0.0013948604f)
                .fma(expR, FloatVector.broadcast(FLOATS, 0.008333286f))
                .fma(expR, FloatVector.broadcast(FLOATS, 0.04166624f))
                .fma(expR, FloatVector.broadcast(FLOATS, 0.16666667f))
                .fma(expR, FloatVector.broadcast(FLOATS, 0.5f));
        FloatVector expU = expR.mul(expR).fma(p, expR).add(1.0f);
        FloatVector expFast = expU.reinterpretAsInts().add(expMagic.reinterpretAsInts().lanewise(LSHL, 23)).reinterpretAsFloats();
        VectorMask<Integer> expRare = x.neg().reinterpretAsInts().and(0x7fffffff).compare(GT, 0x42ae0000);
        FloatVector expResult = expFast;
        if (expRare.anyTrue()) {
          IntVector expQ = expMagic.reinterpretAsInts().sub(0x4b400000);
          IntVector expHalfQ = expQ.lanewise(ASHR, 1);
          expResult = expFast.blend(expU.mul(expHalfQ.add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats()).mul(expQ.sub(expHalfQ).add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats()).blend(Float.POSITIVE_INFINITY, x.neg().compare(GT, 100.0f)).blend(0.0f, x.neg().compare(LT, -110.0f)).blend(Float.NaN, x.neg().compare(NE, x.neg())), x.neg().abs().compare(LE, 87.0f).not());
        }
        FloatVector exp = expResult;
        FloatVector result = x.div(exp.add(1.0f));
        result.blend(result.reinterpretAsInts().and(0x80000000).or(0x7FC00000).reinterpretAsFloats(), result.test(IS_NAN)).intoArray(outFloats, j);
      }
      HalfChunks.toHalves(outFloats, len, outData, outOff + chunk);
    }
    return bound;
  }

  private static void float16_strided(long n, MemorySegment outData, long outOff, long outStride,
      MemorySegment xData, long xOff, long xStride) {
    MemorySegment[] blocks = LaneScratch.blocks(2, LANES * 2);
    MemorySegment outLanes = blocks[0];
    MemorySegment xLanes = blocks[1];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        xLanes.setAtIndex(JAVA_SHORT_UNALIGNED, k, xData.getAtIndex(JAVA_SHORT_UNALIGNED, xOff + e * xStride));
      }
      float16_contiguous(LANES, outLanes, 0, xLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_SHORT_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_SHORT_UNALIGNED, k));
      }
    }
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
      FloatVector expMagic = x.neg().fma(1.442695f, 1.2582912E7f);
      FloatVector q = expMagic.sub(1.2582912E7f);
      FloatVector expR = q.fma(FloatVector.broadcast(FLOATS, 1.9046542E-9f), q.fma(FloatVector.broadcast(FLOATS, -0.6931472f), x.neg()));
      FloatVector p = expR.fma(1.9907598E-4f, 0.0013948604f)
              .fma(expR, FloatVector.broadcast(FLOATS, 0.008333286f))
              .fma(expR, FloatVector.broadcast(FLOATS, 0.04166624f))
              .fma(expR, FloatVector.broadcast(FLOATS, 0.16666667f))
              .fma(expR, FloatVector.broadcast(FLOATS, 0.5f));
      FloatVector expU = expR.mul(expR).fma(p, expR).add(1.0f);
      FloatVector expFast = expU.reinterpretAsInts().add(expMagic.reinterpretAsInts().lanewise(LSHL, 23)).reinterpretAsFloats();
      VectorMask<Integer> expRare = x.neg().reinterpretAsInts().and(0x7fffffff).compare(GT, 0x42ae0000);
      FloatVector expResult = expFast;
      if (expRare.anyTrue()) {
        IntVector expQ = expMagic.reinterpretAsInts().sub(0x4b400000);
        IntVector expHalfQ = expQ.lanewise(ASHR, 1);
        expResult = expFast.blend(expU.mul(expHalfQ.add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats()).mul(expQ.sub(expHalfQ).add(0x7f).lanewise(LSHL, 23).reinterpretAsFloats()).blend(Float.POSITIVE_INFINITY, x.neg().compare(GT, 100.0f)).blend(0.0f, x.neg().compare(LT, -110.0f)).blend(Float.NaN, x.neg().compare(NE, x.neg())), x.neg().abs().compare(LE, 87.0f).not());
      }
      FloatVector exp = expResult;
      FloatVector result = x.div(exp.add(1.0f));
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
