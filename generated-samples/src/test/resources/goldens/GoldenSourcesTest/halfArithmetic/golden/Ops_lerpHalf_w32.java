package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.HalfChunks;
import dev.ufunc4j.kernel.LaneScratch;
import java.lang.foreign.MemorySegment;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.VectorShape;

/**
 * Kernels of the op {@code lerpHalf} declared by {@link golden.Ops} whose widest lane type is 32 bits.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_lerpHalf_w32 implements ElementwiseKernel {
  static final ElementwiseKernel FLOAT16_FLOAT16 = new Ops_lerpHalf_w32();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (32 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 32;

  private Ops_lerpHalf_w32() {
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    float16_float16(rows, cols, segments, offsets, strides, floatScalars, intScalars);
  }

  /**
   * (float16, float16) promoted to float16, computed in float32, stored as float16.
   */
  private static void float16_float16(long rows, long cols, MemorySegment[] segments,
      long[] offsets, long[] strides, double[] floatScalars, long[] intScalars) {
    MemorySegment outData = segments[0];
    MemorySegment aData = segments[1];
    MemorySegment bData = segments[2];
    float w = (float) floatScalars[0];
    long outStride = strides[1];
    long aStride = strides[3];
    long bStride = strides[5];
    for (long r = 0; r < rows; r++) {
      long outOff = offsets[0] + r * strides[0];
      long aOff = offsets[1] + r * strides[2];
      long bOff = offsets[2] + r * strides[4];
      long done = 0;
      if (outStride == 1 && aStride == 1 && bStride == 1) {
        done = float16_float16_contiguous(cols, outData, outOff, aData, aOff, bData, bOff, w);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = float16_float16_splatB(cols, outData, outOff, aData, aOff, bData, bOff, w);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = float16_float16_splatA(cols, outData, outOff, aData, aOff, bData, bOff, w);
      }
      if (done < cols) {
        float16_float16_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride, w);
      }
    }
  }

  private static long float16_float16_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff, float w) {
    short[] halves = HalfChunks.halves();
    for (long chunk = 0; chunk < n; chunk += HalfChunks.CHUNK) {
      int len = (int) Math.min(HalfChunks.CHUNK, n - chunk);
      for (int j = 0; j < len; j++) {
        float a = Float.float16ToFloat(aData.getAtIndex(JAVA_SHORT_UNALIGNED, aOff + chunk + j));
        float b = Float.float16ToFloat(bData.getAtIndex(JAVA_SHORT_UNALIGNED, bOff + chunk + j));
        float d = b - a;
        halves[j] = Float.floatToFloat16((-(a + (w * d))) / 2.5f);
      }
      HalfChunks.storeHalves(halves, len, outData, outOff + chunk);
    }
    return n;
  }

  private static long float16_float16_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff, float w) {
    float b = Float.float16ToFloat(bData.getAtIndex(JAVA_SHORT_UNALIGNED, bOff));
    short[] halves = HalfChunks.halves();
    for (long chunk = 0; chunk < n; chunk += HalfChunks.CHUNK) {
      int len = (int) Math.min(HalfChunks.CHUNK, n - chunk);
      for (int j = 0; j < len; j++) {
        float a = Float.float16ToFloat(aData.getAtIndex(JAVA_SHORT_UNALIGNED, aOff + chunk + j));
        float d = b - a;
        halves[j] = Float.floatToFloat16((-(a + (w * d))) / 2.5f);
      }
      HalfChunks.storeHalves(halves, len, outData, outOff + chunk);
    }
    return n;
  }

  private static long float16_float16_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff, float w) {
    float a = Float.float16ToFloat(aData.getAtIndex(JAVA_SHORT_UNALIGNED, aOff));
    short[] halves = HalfChunks.halves();
    for (long chunk = 0; chunk < n; chunk += HalfChunks.CHUNK) {
      int len = (int) Math.min(HalfChunks.CHUNK, n - chunk);
      for (int j = 0; j < len; j++) {
        float b = Float.float16ToFloat(bData.getAtIndex(JAVA_SHORT_UNALIGNED, bOff + chunk + j));
        float d = b - a;
        halves[j] = Float.floatToFloat16((-(a + (w * d))) / 2.5f);
      }
      HalfChunks.storeHalves(halves, len, outData, outOff + chunk);
    }
    return n;
  }

  private static void float16_float16_strided(long n, MemorySegment outData, long outOff,
      long outStride, MemorySegment aData, long aOff, long aStride, MemorySegment bData, long bOff,
      long bStride, float w) {
    MemorySegment[] blocks = LaneScratch.blocks(3, LANES * 2);
    MemorySegment outLanes = blocks[0];
    MemorySegment aLanes = blocks[1];
    MemorySegment bLanes = blocks[2];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        aLanes.setAtIndex(JAVA_SHORT_UNALIGNED, k, aData.getAtIndex(JAVA_SHORT_UNALIGNED, aOff + e * aStride));
        bLanes.setAtIndex(JAVA_SHORT_UNALIGNED, k, bData.getAtIndex(JAVA_SHORT_UNALIGNED, bOff + e * bStride));
      }
      float16_float16_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0, w);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_SHORT_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_SHORT_UNALIGNED, k));
      }
    }
  }
}
