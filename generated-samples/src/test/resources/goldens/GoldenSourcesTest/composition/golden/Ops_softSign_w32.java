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
 * Kernels of the op {@code softSign} declared by {@link golden.Ops} whose widest lane type is 32 bits.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_softSign_w32 implements ElementwiseKernel {
  static final ElementwiseKernel FLOAT32 = new Ops_softSign_w32();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (32 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 32;

  private static final VectorSpecies<Float> FLOATS = VectorSpecies.of(float.class, VectorShape.forBitSize(LANES * 32));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_softSign_w32() {
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
      FloatVector result = x.div(x.abs().add(1.0f));
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
