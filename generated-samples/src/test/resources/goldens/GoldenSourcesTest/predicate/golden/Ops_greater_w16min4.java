package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.LaneScratch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Kernels of the op {@code greater} declared by {@link golden.Ops} whose widest lane type is 16 bits and that step at least 4 elements.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_greater_w16min4 implements ElementwiseKernel {
  static final ElementwiseKernel INT16_INT16 = new Ops_greater_w16min4();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (16 bits), and at least 4.
   */
  private static final int LANES = Math.max(VectorShape.preferredShape().vectorBitSize() / 16, 4);

  private static final VectorSpecies<Byte> BYTES = VectorSpecies.of(byte.class, VectorShape.forBitSize(LANES * 8));

  private static final VectorSpecies<Short> SHORTS = VectorSpecies.of(short.class, VectorShape.forBitSize(LANES * 16));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_greater_w16min4() {
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    int16_int16(rows, cols, segments, offsets, strides, floatScalars, intScalars);
  }

  /**
   * (int16, int16) promoted to int16, stored as bool.
   */
  private static void int16_int16(long rows, long cols, MemorySegment[] segments, long[] offsets,
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
        done = int16_int16_contiguous(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = int16_int16_splatB(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = int16_int16_splatA(cols, outData, outOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        int16_int16_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long int16_int16_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = SHORTS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      ShortVector a = ShortVector.fromMemorySegment(SHORTS, aData, (aOff + i) * 2, ORDER);
      ShortVector b = ShortVector.fromMemorySegment(SHORTS, bData, (bOff + i) * 2, ORDER);
      VectorMask<Short> result = a.compare(GT, b);
      ByteVector stored = ((ByteVector) ShortVector.zero(SHORTS).blend((short) 1, result).convertShape(S2B, BYTES, 0));
      stored.intoMemorySegment(outData, outOff + i, ORDER);
    }
    return bound;
  }

  private static long int16_int16_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = SHORTS.loopBound(n);
    ShortVector b = ShortVector.broadcast(SHORTS, bData.getAtIndex(JAVA_SHORT_UNALIGNED, bOff));
    for (long i = 0; i < bound; i += LANES) {
      ShortVector a = ShortVector.fromMemorySegment(SHORTS, aData, (aOff + i) * 2, ORDER);
      VectorMask<Short> result = a.compare(GT, b);
      ByteVector stored = ((ByteVector) ShortVector.zero(SHORTS).blend((short) 1, result).convertShape(S2B, BYTES, 0));
      stored.intoMemorySegment(outData, outOff + i, ORDER);
    }
    return bound;
  }

  private static long int16_int16_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = SHORTS.loopBound(n);
    ShortVector a = ShortVector.broadcast(SHORTS, aData.getAtIndex(JAVA_SHORT_UNALIGNED, aOff));
    for (long i = 0; i < bound; i += LANES) {
      ShortVector b = ShortVector.fromMemorySegment(SHORTS, bData, (bOff + i) * 2, ORDER);
      VectorMask<Short> result = a.compare(GT, b);
      ByteVector stored = ((ByteVector) ShortVector.zero(SHORTS).blend((short) 1, result).convertShape(S2B, BYTES, 0));
      stored.intoMemorySegment(outData, outOff + i, ORDER);
    }
    return bound;
  }

  private static void int16_int16_strided(long n, MemorySegment outData, long outOff,
      long outStride, MemorySegment aData, long aOff, long aStride, MemorySegment bData, long bOff,
      long bStride) {
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
      int16_int16_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_BYTE, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_BYTE, k));
      }
    }
  }
}
