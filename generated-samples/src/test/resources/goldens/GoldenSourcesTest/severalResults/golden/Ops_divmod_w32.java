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
 * Kernels of the op {@code divmod} declared by {@link golden.Ops} whose widest lane type is 32 bits.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_divmod_w32 implements ElementwiseKernel {
  static final ElementwiseKernel INT32_INT32 = new Ops_divmod_w32();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (32 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 32;

  private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, VectorShape.forBitSize(LANES * 32));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_divmod_w32() {
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
    MemorySegment quotientOutData = segments[0];
    MemorySegment remainderOutData = segments[1];
    MemorySegment aData = segments[2];
    MemorySegment bData = segments[3];
    long quotientOutStride = strides[1];
    long remainderOutStride = strides[3];
    long aStride = strides[5];
    long bStride = strides[7];
    for (long r = 0; r < rows; r++) {
      long quotientOutOff = offsets[0] + r * strides[0];
      long remainderOutOff = offsets[1] + r * strides[2];
      long aOff = offsets[2] + r * strides[4];
      long bOff = offsets[3] + r * strides[6];
      long done = 0;
      if (quotientOutStride == 1 && remainderOutStride == 1 && aStride == 1 && bStride == 1) {
        done = int32_int32_contiguous(cols, quotientOutData, quotientOutOff, remainderOutData, remainderOutOff, aData, aOff, bData, bOff);
      } else if (quotientOutStride == 1 && remainderOutStride == 1 && aStride == 1 && bStride == 0) {
        done = int32_int32_splatB(cols, quotientOutData, quotientOutOff, remainderOutData, remainderOutOff, aData, aOff, bData, bOff);
      } else if (quotientOutStride == 1 && remainderOutStride == 1 && aStride == 0 && bStride == 1) {
        done = int32_int32_splatA(cols, quotientOutData, quotientOutOff, remainderOutData, remainderOutOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        int32_int32_strided(cols - done, quotientOutData, quotientOutOff + done * quotientOutStride, quotientOutStride, remainderOutData, remainderOutOff + done * remainderOutStride, remainderOutStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long int32_int32_contiguous(long n, MemorySegment quotientOutData,
      long quotientOutOff, MemorySegment remainderOutData, long remainderOutOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = INTS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      IntVector a = IntVector.fromMemorySegment(INTS, aData, (aOff + i) * 4, ORDER);
      IntVector b = IntVector.fromMemorySegment(INTS, bData, (bOff + i) * 4, ORDER);
      if (b.compare(EQ, 0).anyTrue()) {
        throw new ArithmeticException("/ by zero");
      }
      if (b.compare(EQ, 0).anyTrue()) {
        throw new ArithmeticException("/ by zero");
      }
      IntVector result = a.lanewise(DIV, b);
      result.intoMemorySegment(quotientOutData, (quotientOutOff + i) * 4, ORDER);
      IntVector result_ = a.sub(a.lanewise(DIV, b).mul(b));
      result_.intoMemorySegment(remainderOutData, (remainderOutOff + i) * 4, ORDER);
    }
    return bound;
  }

  private static long int32_int32_splatB(long n, MemorySegment quotientOutData, long quotientOutOff,
      MemorySegment remainderOutData, long remainderOutOff, MemorySegment aData, long aOff,
      MemorySegment bData, long bOff) {
    long bound = INTS.loopBound(n);
    IntVector b = IntVector.broadcast(INTS, bData.getAtIndex(JAVA_INT_UNALIGNED, bOff));
    for (long i = 0; i < bound; i += LANES) {
      IntVector a = IntVector.fromMemorySegment(INTS, aData, (aOff + i) * 4, ORDER);
      if (b.compare(EQ, 0).anyTrue()) {
        throw new ArithmeticException("/ by zero");
      }
      if (b.compare(EQ, 0).anyTrue()) {
        throw new ArithmeticException("/ by zero");
      }
      IntVector result = a.lanewise(DIV, b);
      result.intoMemorySegment(quotientOutData, (quotientOutOff + i) * 4, ORDER);
      IntVector result_ = a.sub(a.lanewise(DIV, b).mul(b));
      result_.intoMemorySegment(remainderOutData, (remainderOutOff + i) * 4, ORDER);
    }
    return bound;
  }

  private static long int32_int32_splatA(long n, MemorySegment quotientOutData, long quotientOutOff,
      MemorySegment remainderOutData, long remainderOutOff, MemorySegment aData, long aOff,
      MemorySegment bData, long bOff) {
    long bound = INTS.loopBound(n);
    IntVector a = IntVector.broadcast(INTS, aData.getAtIndex(JAVA_INT_UNALIGNED, aOff));
    for (long i = 0; i < bound; i += LANES) {
      IntVector b = IntVector.fromMemorySegment(INTS, bData, (bOff + i) * 4, ORDER);
      if (b.compare(EQ, 0).anyTrue()) {
        throw new ArithmeticException("/ by zero");
      }
      if (b.compare(EQ, 0).anyTrue()) {
        throw new ArithmeticException("/ by zero");
      }
      IntVector result = a.lanewise(DIV, b);
      result.intoMemorySegment(quotientOutData, (quotientOutOff + i) * 4, ORDER);
      IntVector result_ = a.sub(a.lanewise(DIV, b).mul(b));
      result_.intoMemorySegment(remainderOutData, (remainderOutOff + i) * 4, ORDER);
    }
    return bound;
  }

  private static void int32_int32_strided(long n, MemorySegment quotientOutData,
      long quotientOutOff, long quotientOutStride, MemorySegment remainderOutData,
      long remainderOutOff, long remainderOutStride, MemorySegment aData, long aOff, long aStride,
      MemorySegment bData, long bOff, long bStride) {
    MemorySegment[] blocks = LaneScratch.blocks(4, LANES * 4);
    MemorySegment quotientOutLanes = blocks[0];
    MemorySegment remainderOutLanes = blocks[1];
    MemorySegment aLanes = blocks[2];
    MemorySegment bLanes = blocks[3];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        aLanes.setAtIndex(JAVA_INT_UNALIGNED, k, aData.getAtIndex(JAVA_INT_UNALIGNED, aOff + e * aStride));
        bLanes.setAtIndex(JAVA_INT_UNALIGNED, k, bData.getAtIndex(JAVA_INT_UNALIGNED, bOff + e * bStride));
      }
      int32_int32_contiguous(LANES, quotientOutLanes, 0, remainderOutLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        quotientOutData.setAtIndex(JAVA_INT_UNALIGNED, quotientOutOff + (i + k) * quotientOutStride, quotientOutLanes.getAtIndex(JAVA_INT_UNALIGNED, k));
        remainderOutData.setAtIndex(JAVA_INT_UNALIGNED, remainderOutOff + (i + k) * remainderOutStride, remainderOutLanes.getAtIndex(JAVA_INT_UNALIGNED, k));
      }
    }
  }
}
