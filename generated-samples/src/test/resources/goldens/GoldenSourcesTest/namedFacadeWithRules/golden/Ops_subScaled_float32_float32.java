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
 * The {@link golden.Ops#subScaled(double, double, double)} kernel for (float32, float32) promoted to float32, stored as float32.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_subScaled_float32_float32 implements ElementwiseKernel {
  static final ElementwiseKernel INSTANCE = new Ops_subScaled_float32_float32();

  /**
   * Lanes per step: a preferred-size vector of the widest lane type.
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 32;

  private static final VectorSpecies<Float> FLOATS = VectorSpecies.of(float.class, VectorShape.forBitSize(LANES * 32));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_subScaled_float32_float32() {
  }

  @Override
  public void run(int rank, long[] shape, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    MemorySegment outData = segments[0];
    MemorySegment aData = segments[1];
    MemorySegment bData = segments[2];
    float alpha = (float) floatScalars[0];
    switch (rank) {
      case 1 -> row(shape[0], outData, offsets[0], strides[0], aData, offsets[1], strides[1], bData, offsets[2], strides[2], alpha);
      case 2 -> {
        for (long i0 = 0; i0 < shape[0]; i0++) {
          row(shape[1], outData, offsets[0] + i0 * strides[0], strides[1], aData, offsets[1] + i0 * strides[2], strides[3], bData, offsets[2] + i0 * strides[4], strides[5], alpha);
        }
      }
      case 3 -> {
        for (long i0 = 0; i0 < shape[0]; i0++) {
          for (long i1 = 0; i1 < shape[1]; i1++) {
            row(shape[2], outData, offsets[0] + i0 * strides[0] + i1 * strides[1], strides[2], aData, offsets[1] + i0 * strides[3] + i1 * strides[4], strides[5], bData, offsets[2] + i0 * strides[6] + i1 * strides[7], strides[8], alpha);
          }
        }
      }
      default -> anyRank(rank, shape, offsets, strides, outData, aData, bData, alpha);
    }
  }

  /**
   * Ranks above 3: an odometer over the outer dimensions, one row at a time.
   */
  private static void anyRank(int rank, long[] shape, long[] offsets, long[] strides,
      MemorySegment outData, MemorySegment aData, MemorySegment bData, float alpha) {
    int inner = rank - 1;
    for (int d = 0; d < inner; d++) {
      if (shape[d] == 0) {
        return;
      }
    }
    long outOff = offsets[0];
    long aOff = offsets[1];
    long bOff = offsets[2];
    long[] index = new long[inner];
    while (true) {
      row(shape[inner], outData, outOff, strides[inner], aData, aOff, strides[rank + inner], bData, bOff, strides[2 * rank + inner], alpha);
      int d = inner - 1;
      for (; d >= 0; d--) {
        outOff += strides[d];
        aOff += strides[rank + d];
        bOff += strides[2 * rank + d];
        if (++index[d] < shape[d]) {
          break;
        }
        outOff -= shape[d] * strides[d];
        aOff -= shape[d] * strides[rank + d];
        bOff -= shape[d] * strides[2 * rank + d];
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
      MemorySegment aData, long aOff, long aStride, MemorySegment bData, long bOff, long bStride,
      float alpha) {
    long done = 0;
    if (outStride == 1) {
      if (aStride == 1 && bStride == 1) {
        done = contiguousRow(n, outData, outOff, aData, aOff, bData, bOff, alpha);
      } else if (aStride == 1 && bStride == 0) {
        done = rowSplatB(n, outData, outOff, aData, aOff, bData, bOff, alpha);
      } else if (aStride == 0 && bStride == 1) {
        done = rowSplatA(n, outData, outOff, aData, aOff, bData, bOff, alpha);
      } else if (aStride == 0 && bStride == 0) {
        done = rowSplatAB(n, outData, outOff, aData, aOff, bData, bOff, alpha);
      }
    }
    if (done < n) {
      stridedRow(n - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride, alpha);
    }
  }

  /**
   * Contiguous output, a contiguous, b contiguous; returns how many elements it did (a multiple of LANES).
   */
  private static long contiguousRow(long n, MemorySegment outData, long outOff, MemorySegment aData,
      long aOff, MemorySegment bData, long bOff, float alpha) {
    long bound = FLOATS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector a = FloatVector.fromMemorySegment(FLOATS, aData, (aOff + i) * 4, ORDER);
      FloatVector b = FloatVector.fromMemorySegment(FLOATS, bData, (bOff + i) * 4, ORDER);
      FloatVector result = a.sub(b.mul(alpha));
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  /**
   * Contiguous output, a contiguous, b broadcast (stride 0); returns how many elements it did (a multiple of LANES).
   */
  private static long rowSplatB(long n, MemorySegment outData, long outOff, MemorySegment aData,
      long aOff, MemorySegment bData, long bOff, float alpha) {
    long bound = FLOATS.loopBound(n);
    FloatVector b = FloatVector.broadcast(FLOATS, bData.getAtIndex(JAVA_FLOAT_UNALIGNED, bOff));
    for (long i = 0; i < bound; i += LANES) {
      FloatVector a = FloatVector.fromMemorySegment(FLOATS, aData, (aOff + i) * 4, ORDER);
      FloatVector result = a.sub(b.mul(alpha));
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  /**
   * Contiguous output, a broadcast (stride 0), b contiguous; returns how many elements it did (a multiple of LANES).
   */
  private static long rowSplatA(long n, MemorySegment outData, long outOff, MemorySegment aData,
      long aOff, MemorySegment bData, long bOff, float alpha) {
    long bound = FLOATS.loopBound(n);
    FloatVector a = FloatVector.broadcast(FLOATS, aData.getAtIndex(JAVA_FLOAT_UNALIGNED, aOff));
    for (long i = 0; i < bound; i += LANES) {
      FloatVector b = FloatVector.fromMemorySegment(FLOATS, bData, (bOff + i) * 4, ORDER);
      FloatVector result = a.sub(b.mul(alpha));
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  /**
   * Contiguous output, a broadcast (stride 0), b broadcast (stride 0); returns how many elements it did (a multiple of LANES).
   */
  private static long rowSplatAB(long n, MemorySegment outData, long outOff, MemorySegment aData,
      long aOff, MemorySegment bData, long bOff, float alpha) {
    long bound = FLOATS.loopBound(n);
    FloatVector a = FloatVector.broadcast(FLOATS, aData.getAtIndex(JAVA_FLOAT_UNALIGNED, aOff));
    FloatVector b = FloatVector.broadcast(FLOATS, bData.getAtIndex(JAVA_FLOAT_UNALIGNED, bOff));
    for (long i = 0; i < bound; i += LANES) {
      FloatVector result = a.sub(b.mul(alpha));
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  /**
   * Any strides: lanes are gathered into arrays and scattered back; the last step may be partial.
   */
  private static void stridedRow(long n, MemorySegment outData, long outOff, long outStride,
      MemorySegment aData, long aOff, long aStride, MemorySegment bData, long bOff, long bStride,
      float alpha) {
    float[] outLanes = new float[FLOATS.length()];
    float[] aLanes = new float[FLOATS.length()];
    float[] bLanes = new float[FLOATS.length()];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < count; k++) {
        aLanes[k] = aData.getAtIndex(JAVA_FLOAT_UNALIGNED, aOff + (i + k) * aStride);
        bLanes[k] = bData.getAtIndex(JAVA_FLOAT_UNALIGNED, bOff + (i + k) * bStride);
      }
      FloatVector a = FloatVector.fromArray(FLOATS, aLanes, 0);
      FloatVector b = FloatVector.fromArray(FLOATS, bLanes, 0);
      FloatVector result = a.sub(b.mul(alpha));
      result.intoArray(outLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_FLOAT_UNALIGNED, outOff + (i + k) * outStride, outLanes[k]);
      }
    }
  }
}
