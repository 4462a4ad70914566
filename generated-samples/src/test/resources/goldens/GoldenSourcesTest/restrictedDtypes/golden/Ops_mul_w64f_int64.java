package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.FoldKernel;
import dev.ufunc4j.kernel.LaneScratch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Kernels of the op {@code mul} declared by {@link golden.Ops} whose widest lane type is 64 bits.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_mul_w64f_int64 implements ElementwiseKernel, FoldKernel {
  static final ElementwiseKernel INT64_INT64 = new Ops_mul_w64f_int64();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (64 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 64;

  private static final VectorSpecies<Long> LONGS = VectorSpecies.of(long.class, VectorShape.forBitSize(LANES * 64));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_mul_w64f_int64() {
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    int64_int64(rows, cols, segments, offsets, strides, floatScalars, intScalars);
  }

  @Override
  public void fold(MemorySegment acc, long accOff, MemorySegment in, long off, long rowStride,
      long rows, int cols) {
    int64_int64_fold(acc, accOff, in, off, rowStride, rows, cols);
  }

  @Override
  public void scan(MemorySegment in, long off, long inRow, MemorySegment out, long outOff,
      long outRow, long rows, int cols) {
    int64_int64_scan(in, off, inRow, out, outOff, outRow, rows, cols);
  }

  @Override
  public long pairLong(long a, long b) {
    return int64_int64_pair(a, b);
  }

  /**
   * (int64, int64) promoted to int64, stored as int64.
   */
  private static void int64_int64(long rows, long cols, MemorySegment[] segments, long[] offsets,
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
        done = int64_int64_contiguous(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = int64_int64_splatB(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = int64_int64_splatA(cols, outData, outOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        int64_int64_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long int64_int64_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = LONGS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      LongVector a = LongVector.fromMemorySegment(LONGS, aData, (aOff + i) * 8, ORDER);
      LongVector b = LongVector.fromMemorySegment(LONGS, bData, (bOff + i) * 8, ORDER);
      LongVector result = a.mul(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long int64_int64_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = LONGS.loopBound(n);
    LongVector b = LongVector.broadcast(LONGS, bData.getAtIndex(JAVA_LONG_UNALIGNED, bOff));
    for (long i = 0; i < bound; i += LANES) {
      LongVector a = LongVector.fromMemorySegment(LONGS, aData, (aOff + i) * 8, ORDER);
      LongVector result = a.mul(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long int64_int64_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = LONGS.loopBound(n);
    LongVector a = LongVector.broadcast(LONGS, aData.getAtIndex(JAVA_LONG_UNALIGNED, aOff));
    for (long i = 0; i < bound; i += LANES) {
      LongVector b = LongVector.fromMemorySegment(LONGS, bData, (bOff + i) * 8, ORDER);
      LongVector result = a.mul(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static void int64_int64_strided(long n, MemorySegment outData, long outOff,
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
        bLanes.setAtIndex(JAVA_LONG_UNALIGNED, k, bData.getAtIndex(JAVA_LONG_UNALIGNED, bOff + e * bStride));
      }
      int64_int64_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_LONG_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_LONG_UNALIGNED, k));
      }
    }
  }

  /**
   * The fold loop of (int64, int64) promoted to int64, stored as int64: see {@code FoldKernel.fold}.
   */
  private static void int64_int64_fold(MemorySegment acc, long accOff, MemorySegment in, long off,
      long rowStride, long rows, int cols) {
    int j = 0;
    for (; j < cols; j += LANES) {
      VectorMask<Long> live_ = LONGS.indexInRange(j, cols);
      LongVector a_ = LongVector.fromMemorySegment(LONGS, acc, (accOff + j) * 8, ORDER, live_);
      for (long r = 0; r < rows; r++) {
        LongVector x = LongVector.fromMemorySegment(LONGS, in, (off + r * rowStride + j) * 8, ORDER, live_);
        a_ = a_.mul(x);
      }
      a_.intoMemorySegment(acc, (accOff + j) * 8, ORDER, live_);
    }
  }

  /**
   * The scan loop of (int64, int64) promoted to int64, stored as int64: see {@code FoldKernel.scan}.
   */
  private static void int64_int64_scan(MemorySegment in, long off, long inRow, MemorySegment out,
      long outOff_, long outRow, long rows, int cols) {
    for (int j = 0; j < cols; j += LANES) {
      VectorMask<Long> live_ = LONGS.indexInRange(j, cols);
      LongVector a_ = LongVector.fromMemorySegment(LONGS, in, (off + j) * 8, ORDER, live_);
      a_.intoMemorySegment(out, (outOff_ + j) * 8, ORDER, live_);
      for (long r = 1; r < rows; r++) {
        LongVector x = LongVector.fromMemorySegment(LONGS, in, (off + r * inRow + j) * 8, ORDER, live_);
        a_ = a_.mul(x);
        a_.intoMemorySegment(out, (outOff_ + r * outRow + j) * 8, ORDER, live_);
      }
    }
  }

  /**
   * The pair step of (int64, int64) promoted to int64, stored as int64: see {@code FoldKernel.pair}.
   */
  private static long int64_int64_pair(long first, long second) {
    LongVector a_ = LongVector.broadcast(LONGS, first);
    LongVector x = LongVector.broadcast(LONGS, second);
    a_ = a_.mul(x);
    return a_.lane(0);
  }
}
