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
 * Kernels of the op {@code lerpHalf_grad_a} declared by {@link golden.Ops} whose widest lane type is 32 bits.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_lerpHalf_grad_a_w32 implements ElementwiseKernel {
  static final ElementwiseKernel FLOAT16 = new Ops_lerpHalf_grad_a_w32();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (32 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 32;

  private Ops_lerpHalf_grad_a_w32() {
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    float16(rows, cols, segments, offsets, strides, floatScalars, intScalars);
  }

  /**
   * (float16) promoted to float16, computed in float32, stored as float16.
   */
  private static void float16(long rows, long cols, MemorySegment[] segments, long[] offsets,
      long[] strides, double[] floatScalars, long[] intScalars) {
    MemorySegment outData = segments[0];
    MemorySegment gradData = segments[1];
    float w = (float) floatScalars[0];
    long outStride = strides[1];
    long gradStride = strides[3];
    for (long r = 0; r < rows; r++) {
      long outOff = offsets[0] + r * strides[0];
      long gradOff = offsets[1] + r * strides[2];
      long done = 0;
      if (outStride == 1 && gradStride == 1) {
        done = float16_contiguous(cols, outData, outOff, gradData, gradOff, w);
      }
      if (done < cols) {
        float16_strided(cols - done, outData, outOff + done * outStride, outStride, gradData, gradOff + done * gradStride, gradStride, w);
      }
    }
  }

  private static long float16_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment gradData, long gradOff, float w) {
    short[] halves = HalfChunks.halves();
    for (long chunk = 0; chunk < n; chunk += HalfChunks.CHUNK) {
      int len = (int) Math.min(HalfChunks.CHUNK, n - chunk);
      for (int j = 0; j < len; j++) {
        float grad = Float.float16ToFloat(gradData.getAtIndex(JAVA_SHORT_UNALIGNED, gradOff + chunk + j));
        halves[j] = Float.floatToFloat16(-((grad * (1.0f - w)) / 2.5f));
      }
      HalfChunks.storeHalves(halves, len, outData, outOff + chunk);
    }
    return n;
  }

  private static void float16_strided(long n, MemorySegment outData, long outOff, long outStride,
      MemorySegment gradData, long gradOff, long gradStride, float w) {
    MemorySegment[] blocks = LaneScratch.blocks(2, LANES * 2);
    MemorySegment outLanes = blocks[0];
    MemorySegment gradLanes = blocks[1];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        gradLanes.setAtIndex(JAVA_SHORT_UNALIGNED, k, gradData.getAtIndex(JAVA_SHORT_UNALIGNED, gradOff + e * gradStride));
      }
      float16_contiguous(LANES, outLanes, 0, gradLanes, 0, w);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_SHORT_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_SHORT_UNALIGNED, k));
      }
    }
  }
}
