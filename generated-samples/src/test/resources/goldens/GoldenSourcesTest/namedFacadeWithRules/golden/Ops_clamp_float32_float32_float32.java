package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The {@link golden.Ops#clamp(double, double, double)} kernel for (float32, float32, float32) promoted to float32, stored as float32.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_clamp_float32_float32_float32 implements ElementwiseKernel {
  static final ElementwiseKernel INSTANCE = new Ops_clamp_float32_float32_float32();

  /**
   * Lanes per step: a preferred-size vector of the widest lane type.
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 32;

  private static final VectorSpecies<Float> FLOATS = VectorSpecies.of(float.class, VectorShape.forBitSize(LANES * 32));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_clamp_float32_float32_float32() {
  }

  @Override
  public void run(int rank, long[] shape, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    MemorySegment outData = segments[0];
    MemorySegment xData = segments[1];
    MemorySegment loData = segments[2];
    MemorySegment hiData = segments[3];
    switch (rank) {
      case 1 -> row(shape[0], outData, offsets[0], strides[0], xData, offsets[1], strides[1], loData, offsets[2], strides[2], hiData, offsets[3], strides[3]);
      case 2 -> {
        for (long i0 = 0; i0 < shape[0]; i0++) {
          row(shape[1], outData, offsets[0] + i0 * strides[0], strides[1], xData, offsets[1] + i0 * strides[2], strides[3], loData, offsets[2] + i0 * strides[4], strides[5], hiData, offsets[3] + i0 * strides[6], strides[7]);
        }
      }
      case 3 -> {
        for (long i0 = 0; i0 < shape[0]; i0++) {
          for (long i1 = 0; i1 < shape[1]; i1++) {
            row(shape[2], outData, offsets[0] + i0 * strides[0] + i1 * strides[1], strides[2], xData, offsets[1] + i0 * strides[3] + i1 * strides[4], strides[5], loData, offsets[2] + i0 * strides[6] + i1 * strides[7], strides[8], hiData, offsets[3] + i0 * strides[9] + i1 * strides[10], strides[11]);
          }
        }
      }
      default -> anyRank(rank, shape, offsets, strides, outData, xData, loData, hiData);
    }
  }

  /**
   * Ranks above 3: an odometer over the outer dimensions, one row at a time.
   */
  private static void anyRank(int rank, long[] shape, long[] offsets, long[] strides,
      MemorySegment outData, MemorySegment xData, MemorySegment loData, MemorySegment hiData) {
    int inner = rank - 1;
    for (int d = 0; d < inner; d++) {
      if (shape[d] == 0) {
        return;
      }
    }
    long outOff = offsets[0];
    long xOff = offsets[1];
    long loOff = offsets[2];
    long hiOff = offsets[3];
    long[] index = new long[inner];
    while (true) {
      row(shape[inner], outData, outOff, strides[inner], xData, xOff, strides[rank + inner], loData, loOff, strides[2 * rank + inner], hiData, hiOff, strides[3 * rank + inner]);
      int d = inner - 1;
      for (; d >= 0; d--) {
        outOff += strides[d];
        xOff += strides[rank + d];
        loOff += strides[2 * rank + d];
        hiOff += strides[3 * rank + d];
        if (++index[d] < shape[d]) {
          break;
        }
        outOff -= shape[d] * strides[d];
        xOff -= shape[d] * strides[rank + d];
        loOff -= shape[d] * strides[2 * rank + d];
        hiOff -= shape[d] * strides[3 * rank + d];
        index[d] = 0;
      }
      if (d < 0) {
        return;
      }
    }
  }

  /**
   * One innermost row: the loop for its stride pattern, then the strided loop for whatever is left.
   */
  private static void row(long n, MemorySegment outData, long outOff, long outStride,
      MemorySegment xData, long xOff, long xStride, MemorySegment loData, long loOff, long loStride,
      MemorySegment hiData, long hiOff, long hiStride) {
    long done = 0;
    if (outStride == 1) {
      if (xStride == 1 && loStride == 1 && hiStride == 1) {
        done = contiguousRow(n, outData, outOff, xData, xOff, loData, loOff, hiData, hiOff);
      }
    }
    if (done < n) {
      stridedRow(n - done, outData, outOff + done * outStride, outStride, xData, xOff + done * xStride, xStride, loData, loOff + done * loStride, loStride, hiData, hiOff + done * hiStride, hiStride);
    }
  }

  /**
   * Contiguous output, x contiguous, lo contiguous, hi contiguous; returns how many elements it did (a multiple of LANES).
   */
  private static long contiguousRow(long n, MemorySegment outData, long outOff, MemorySegment xData,
      long xOff, MemorySegment loData, long loOff, MemorySegment hiData, long hiOff) {
    long bound = FLOATS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector x = FloatVector.fromMemorySegment(FLOATS, xData, (xOff + i) * 4, ORDER);
      FloatVector lo = FloatVector.fromMemorySegment(FLOATS, loData, (loOff + i) * 4, ORDER);
      FloatVector hi = FloatVector.fromMemorySegment(FLOATS, hiData, (hiOff + i) * 4, ORDER);
      FloatVector result = x.max(lo).min(hi);
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  /**
   * Any strides: lanes are gathered into arrays and scattered back; the last step may be partial.
   */
  private static void stridedRow(long n, MemorySegment outData, long outOff, long outStride,
      MemorySegment xData, long xOff, long xStride, MemorySegment loData, long loOff, long loStride,
      MemorySegment hiData, long hiOff, long hiStride) {
    float[] outLanes = new float[FLOATS.length()];
    float[] xLanes = new float[FLOATS.length()];
    float[] loLanes = new float[FLOATS.length()];
    float[] hiLanes = new float[FLOATS.length()];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < count; k++) {
        xLanes[k] = xData.getAtIndex(JAVA_FLOAT_UNALIGNED, xOff + (i + k) * xStride);
        loLanes[k] = loData.getAtIndex(JAVA_FLOAT_UNALIGNED, loOff + (i + k) * loStride);
        hiLanes[k] = hiData.getAtIndex(JAVA_FLOAT_UNALIGNED, hiOff + (i + k) * hiStride);
      }
      FloatVector x = FloatVector.fromArray(FLOATS, xLanes, 0);
      FloatVector lo = FloatVector.fromArray(FLOATS, loLanes, 0);
      FloatVector hi = FloatVector.fromArray(FLOATS, hiLanes, 0);
      FloatVector result = x.max(lo).min(hi);
      result.intoArray(outLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_FLOAT_UNALIGNED, outOff + (i + k) * outStride, outLanes[k]);
      }
    }
  }
}
