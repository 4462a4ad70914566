package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.LaneScratch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Kernels of the op {@code and} declared by {@link golden.Ops} whose widest lane type is 32 bits.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_and_w32 implements ElementwiseKernel {
  static final ElementwiseKernel INT32_INT32 = new Ops_and_w32();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (32 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 32;

  private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, VectorShape.forBitSize(LANES * 32));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_and_w32() {
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    int32_int32(rows, cols, segments, offsets, strides, floatScalars, intScalars);
  }

  /**
   * (int32, int32) promoted to int32, stored as int32.
   */
  private static void int32_int32(long rows, long cols, MemorySegment[] segments, long[] offsets,
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
        done = int32_int32_contiguous(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = int32_int32_splatB(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = int32_int32_splatA(cols, outData, outOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        int32_int32_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long int32_int32_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = INTS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      IntVector a = IntVector.fromMemorySegment(INTS, aData, (aOff + i) * 4, ORDER);
      IntVector b = IntVector.fromMemorySegment(INTS, bData, (bOff + i) * 4, ORDER);
      IntVector result = a.and(b);
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  private static long int32_int32_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = INTS.loopBound(n);
    IntVector b = IntVector.broadcast(INTS, bData.getAtIndex(JAVA_INT_UNALIGNED, bOff));
    for (long i = 0; i < bound; i += LANES) {
      IntVector a = IntVector.fromMemorySegment(INTS, aData, (aOff + i) * 4, ORDER);
      IntVector result = a.and(b);
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  private static long int32_int32_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = INTS.loopBound(n);
    IntVector a = IntVector.broadcast(INTS, aData.getAtIndex(JAVA_INT_UNALIGNED, aOff));
    for (long i = 0; i < bound; i += LANES) {
      IntVector b = IntVector.fromMemorySegment(INTS, bData, (bOff + i) * 4, ORDER);
      IntVector result = a.and(b);
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  private static void int32_int32_strided(long n, MemorySegment outData, long outOff,
      long outStride, MemorySegment aData, long aOff, long aStride, MemorySegment bData, long bOff,
      long bStride) {
    MemorySegment[] blocks = LaneScratch.blocks(3, LANES * 4);
    MemorySegment outLanes = blocks[0];
    MemorySegment aLanes = blocks[1];
    MemorySegment bLanes = blocks[2];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        aLanes.setAtIndex(JAVA_INT_UNALIGNED, k, aData.getAtIndex(JAVA_INT_UNALIGNED, aOff + e * aStride));
        bLanes.setAtIndex(JAVA_INT_UNALIGNED, k, bData.getAtIndex(JAVA_INT_UNALIGNED, bOff + e * bStride));
      }
      int32_int32_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_INT_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_INT_UNALIGNED, k));
      }
    }
  }
}
