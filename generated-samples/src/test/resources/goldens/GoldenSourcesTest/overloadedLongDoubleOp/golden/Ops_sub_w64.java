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
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Kernels of the op {@code sub} declared by {@link golden.Ops} whose widest lane type is 64 bits.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_sub_w64 implements ElementwiseKernel {
  static final ElementwiseKernel INT64_FLOAT64 = new Ops_sub_w64(0);

  static final ElementwiseKernel FLOAT64_INT64 = new Ops_sub_w64(1);

  /**
   * Elements per step: a preferred-size vector of the widest lane type (64 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 64;

  private static final VectorSpecies<Long> LONGS = VectorSpecies.of(long.class, VectorShape.forBitSize(LANES * 64));

  private static final VectorSpecies<Double> DOUBLES = VectorSpecies.of(double.class, VectorShape.forBitSize(LANES * 64));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private final int entry;

  private Ops_sub_w64(int entry) {
    this.entry = entry;
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    switch (entry) {
      case 0 -> int64_float64(rows, cols, segments, offsets, strides, floatScalars, intScalars);
      case 1 -> float64_int64(rows, cols, segments, offsets, strides, floatScalars, intScalars);
    }
  }

  /**
   * (int64, float64) promoted to float64, stored as float64.
   */
  private static void int64_float64(long rows, long cols, MemorySegment[] segments, long[] offsets,
      long[] strides, double[] floatScalars, long[] intScalars) {
    MemorySegment outData = segments[0];
    MemorySegment aData = segments[1];
    MemorySegment bData = segments[2];
    long outStride = strides[1];
    long aStride = strides[3];
    long bStride = strides[5];
    for (long r = 0; r < rows; r++) {
      long outOff = offsets[0] + r * strides[0];
      long aOff = offsets[1] + r * strides[2];
      long bOff = offsets[2] + r * strides[4];
      long done = 0;
      if (outStride == 1 && aStride == 1 && bStride == 1) {
        done = int64_float64_contiguous(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = int64_float64_splatB(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = int64_float64_splatA(cols, outData, outOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        int64_float64_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long int64_float64_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = DOUBLES.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector a = ((DoubleVector) LongVector.fromMemorySegment(LONGS, aData, (aOff + i) * 8, ORDER).convertShape(L2D, DOUBLES, 0));
      DoubleVector b = DoubleVector.fromMemorySegment(DOUBLES, bData, (bOff + i) * 8, ORDER);
      DoubleVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long int64_float64_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = DOUBLES.loopBound(n);
    DoubleVector b = DoubleVector.broadcast(DOUBLES, bData.getAtIndex(JAVA_DOUBLE_UNALIGNED, bOff));
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector a = ((DoubleVector) LongVector.fromMemorySegment(LONGS, aData, (aOff + i) * 8, ORDER).convertShape(L2D, DOUBLES, 0));
      DoubleVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long int64_float64_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = DOUBLES.loopBound(n);
    DoubleVector a = ((DoubleVector) LongVector.broadcast(LONGS, aData.getAtIndex(JAVA_LONG_UNALIGNED, aOff)).convertShape(L2D, DOUBLES, 0));
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector b = DoubleVector.fromMemorySegment(DOUBLES, bData, (bOff + i) * 8, ORDER);
      DoubleVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static void int64_float64_strided(long n, MemorySegment outData, long outOff,
      long outStride, MemorySegment aData, long aOff, long aStride, MemorySegment bData, long bOff,
      long bStride) {
    MemorySegment[] blocks = LaneScratch.blocks(3, LANES * 8);
    MemorySegment outLanes = blocks[0];
    MemorySegment aLanes = blocks[1];
    MemorySegment bLanes = blocks[2];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        aLanes.setAtIndex(JAVA_LONG_UNALIGNED, k, aData.getAtIndex(JAVA_LONG_UNALIGNED, aOff + e * aStride));
        bLanes.setAtIndex(JAVA_DOUBLE_UNALIGNED, k, bData.getAtIndex(JAVA_DOUBLE_UNALIGNED, bOff + e * bStride));
      }
      int64_float64_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_DOUBLE_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_DOUBLE_UNALIGNED, k));
      }
    }
  }

  /**
   * (float64, int64) promoted to float64, stored as float64.
   */
  private static void float64_int64(long rows, long cols, MemorySegment[] segments, long[] offsets,
      long[] strides, double[] floatScalars, long[] intScalars) {
    MemorySegment outData = segments[0];
    MemorySegment aData = segments[1];
    MemorySegment bData = segments[2];
    long outStride = strides[1];
    long aStride = strides[3];
    long bStride = strides[5];
    for (long r = 0; r < rows; r++) {
      long outOff = offsets[0] + r * strides[0];
      long aOff = offsets[1] + r * strides[2];
      long bOff = offsets[2] + r * strides[4];
      long done = 0;
      if (outStride == 1 && aStride == 1 && bStride == 1) {
        done = float64_int64_contiguous(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = float64_int64_splatB(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = float64_int64_splatA(cols, outData, outOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        float64_int64_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long float64_int64_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = DOUBLES.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector a = DoubleVector.fromMemorySegment(DOUBLES, aData, (aOff + i) * 8, ORDER);
      DoubleVector b = ((DoubleVector) LongVector.fromMemorySegment(LONGS, bData, (bOff + i) * 8, ORDER).convertShape(L2D, DOUBLES, 0));
      DoubleVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long float64_int64_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = DOUBLES.loopBound(n);
    DoubleVector b = ((DoubleVector) LongVector.broadcast(LONGS, bData.getAtIndex(JAVA_LONG_UNALIGNED, bOff)).convertShape(L2D, DOUBLES, 0));
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector a = DoubleVector.fromMemorySegment(DOUBLES, aData, (aOff + i) * 8, ORDER);
      DoubleVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long float64_int64_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = DOUBLES.loopBound(n);
    DoubleVector a = DoubleVector.broadcast(DOUBLES, aData.getAtIndex(JAVA_DOUBLE_UNALIGNED, aOff));
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector b = ((DoubleVector) LongVector.fromMemorySegment(LONGS, bData, (bOff + i) * 8, ORDER).convertShape(L2D, DOUBLES, 0));
      DoubleVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static void float64_int64_strided(long n, MemorySegment outData, long outOff,
      long outStride, MemorySegment aData, long aOff, long aStride, MemorySegment bData, long bOff,
      long bStride) {
    MemorySegment[] blocks = LaneScratch.blocks(3, LANES * 8);
    MemorySegment outLanes = blocks[0];
    MemorySegment aLanes = blocks[1];
    MemorySegment bLanes = blocks[2];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        aLanes.setAtIndex(JAVA_DOUBLE_UNALIGNED, k, aData.getAtIndex(JAVA_DOUBLE_UNALIGNED, aOff + e * aStride));
        bLanes.setAtIndex(JAVA_LONG_UNALIGNED, k, bData.getAtIndex(JAVA_LONG_UNALIGNED, bOff + e * bStride));
      }
      float64_int64_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_DOUBLE_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_DOUBLE_UNALIGNED, k));
      }
    }
  }
}
