package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.FoldKernel;
import dev.ufunc4j.kernel.LaneScratch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Kernels of the op {@code sub} declared by {@link golden.Ops} whose widest lane type is 8 bits.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_sub_w8f_uint8 implements ElementwiseKernel, FoldKernel {
  static final ElementwiseKernel UINT8_UINT8 = new Ops_sub_w8f_uint8();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (8 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 8;

  private static final VectorSpecies<Byte> BYTES = VectorSpecies.of(byte.class, VectorShape.forBitSize(LANES * 8));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_sub_w8f_uint8() {
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    uint8_uint8(rows, cols, segments, offsets, strides, floatScalars, intScalars);
  }

  @Override
  public void fold(MemorySegment acc, long accOff, MemorySegment in, long off, long rowStride,
      long rows, int cols) {
    uint8_uint8_fold(acc, accOff, in, off, rowStride, rows, cols);
  }

  @Override
  public void scan(MemorySegment in, long off, long inRow, MemorySegment out, long outOff,
      long outRow, long rows, int cols) {
    uint8_uint8_scan(in, off, inRow, out, outOff, outRow, rows, cols);
  }

  @Override
  public long pairLong(long a, long b) {
    return uint8_uint8_pair(a, b);
  }

  /**
   * (uint8, uint8) promoted to uint8, stored as uint8.
   */
  private static void uint8_uint8(long rows, long cols, MemorySegment[] segments, long[] offsets,
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
        done = uint8_uint8_contiguous(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = uint8_uint8_splatB(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = uint8_uint8_splatA(cols, outData, outOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        uint8_uint8_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long uint8_uint8_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = BYTES.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      ByteVector a = ByteVector.fromMemorySegment(BYTES, aData, aOff + i, ORDER);
      ByteVector b = ByteVector.fromMemorySegment(BYTES, bData, bOff + i, ORDER);
      ByteVector result = a.sub(b);
      result.intoMemorySegment(outData, outOff + i, ORDER);
    }
    return bound;
  }

  private static long uint8_uint8_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = BYTES.loopBound(n);
    ByteVector b = ByteVector.broadcast(BYTES, bData.getAtIndex(JAVA_BYTE, bOff));
    for (long i = 0; i < bound; i += LANES) {
      ByteVector a = ByteVector.fromMemorySegment(BYTES, aData, aOff + i, ORDER);
      ByteVector result = a.sub(b);
      result.intoMemorySegment(outData, outOff + i, ORDER);
    }
    return bound;
  }

  private static long uint8_uint8_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = BYTES.loopBound(n);
    ByteVector a = ByteVector.broadcast(BYTES, aData.getAtIndex(JAVA_BYTE, aOff));
    for (long i = 0; i < bound; i += LANES) {
      ByteVector b = ByteVector.fromMemorySegment(BYTES, bData, bOff + i, ORDER);
      ByteVector result = a.sub(b);
      result.intoMemorySegment(outData, outOff + i, ORDER);
    }
    return bound;
  }

  private static void uint8_uint8_strided(long n, MemorySegment outData, long outOff,
      long outStride, MemorySegment aData, long aOff, long aStride, MemorySegment bData, long bOff,
      long bStride) {
    MemorySegment[] blocks = LaneScratch.blocks(3, LANES * 1);
    MemorySegment outLanes = blocks[0];
    MemorySegment aLanes = blocks[1];
    MemorySegment bLanes = blocks[2];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        aLanes.setAtIndex(JAVA_BYTE, k, aData.getAtIndex(JAVA_BYTE, aOff + e * aStride));
        bLanes.setAtIndex(JAVA_BYTE, k, bData.getAtIndex(JAVA_BYTE, bOff + e * bStride));
      }
      uint8_uint8_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_BYTE, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_BYTE, k));
      }
    }
  }

  /**
   * The fold loop of (uint8, uint8) promoted to uint8, stored as uint8: see {@code FoldKernel.fold}.
   */
  private static void uint8_uint8_fold(MemorySegment acc, long accOff, MemorySegment in, long off,
      long rowStride, long rows, int cols) {
    int j = 0;
    for (; j < cols; j += LANES) {
      VectorMask<Byte> live_ = BYTES.indexInRange(j, cols);
      ByteVector a_ = ByteVector.fromMemorySegment(BYTES, acc, (accOff + j) * 1, ORDER, live_);
      for (long r = 0; r < rows; r++) {
        ByteVector x = ByteVector.fromMemorySegment(BYTES, in, (off + r * rowStride + j) * 1, ORDER, live_);
        a_ = a_.sub(x);
      }
      a_.intoMemorySegment(acc, (accOff + j) * 1, ORDER, live_);
    }
  }

  /**
   * The scan loop of (uint8, uint8) promoted to uint8, stored as uint8: see {@code FoldKernel.scan}.
   */
  private static void uint8_uint8_scan(MemorySegment in, long off, long inRow, MemorySegment out,
      long outOff_, long outRow, long rows, int cols) {
    for (int j = 0; j < cols; j += LANES) {
      VectorMask<Byte> live_ = BYTES.indexInRange(j, cols);
      ByteVector a_ = ByteVector.fromMemorySegment(BYTES, in, (off + j) * 1, ORDER, live_);
      a_.intoMemorySegment(out, (outOff_ + j) * 1, ORDER, live_);
      for (long r = 1; r < rows; r++) {
        ByteVector x = ByteVector.fromMemorySegment(BYTES, in, (off + r * inRow + j) * 1, ORDER, live_);
        a_ = a_.sub(x);
        a_.intoMemorySegment(out, (outOff_ + r * outRow + j) * 1, ORDER, live_);
      }
    }
  }

  /**
   * The pair step of (uint8, uint8) promoted to uint8, stored as uint8: see {@code FoldKernel.pair}.
   */
  private static long uint8_uint8_pair(long first, long second) {
    ByteVector a_ = ByteVector.broadcast(BYTES, (byte) first);
    ByteVector x = ByteVector.broadcast(BYTES, (byte) second);
    a_ = a_.sub(x);
    return a_.lane(0);
  }
}
