package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.FoldKernel;
import dev.ufunc4j.kernel.LaneScratch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorMask;
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
final class Ops_sub_w64f implements ElementwiseKernel, FoldKernel {
  static final ElementwiseKernel FLOAT64_FLOAT64 = new Ops_sub_w64f();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (64 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 64;

  private static final VectorSpecies<Double> DOUBLES = VectorSpecies.of(double.class, VectorShape.forBitSize(LANES * 64));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_sub_w64f() {
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    float64_float64(rows, cols, segments, offsets, strides, floatScalars, intScalars);
  }

  @Override
  public void fold(MemorySegment acc, long accOff, MemorySegment in, long off, long rowStride,
      long rows, int cols) {
    float64_float64_fold(acc, accOff, in, off, rowStride, rows, cols);
  }

  @Override
  public void scan(MemorySegment in, long off, long inRow, MemorySegment out, long outOff,
      long outRow, long rows, int cols) {
    float64_float64_scan(in, off, inRow, out, outOff, outRow, rows, cols);
  }

  @Override
  public double pair(double a, double b) {
    return float64_float64_pair(a, b);
  }

  /**
   * (float64, float64) promoted to float64, stored as float64.
   */
  private static void float64_float64(long rows, long cols, MemorySegment[] segments,
      long[] offsets, long[] strides, double[] floatScalars, long[] intScalars) {
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
        done = float64_float64_contiguous(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = float64_float64_splatB(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = float64_float64_splatA(cols, outData, outOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        float64_float64_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long float64_float64_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = DOUBLES.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector a = DoubleVector.fromMemorySegment(DOUBLES, aData, (aOff + i) * 8, ORDER);
      DoubleVector b = DoubleVector.fromMemorySegment(DOUBLES, bData, (bOff + i) * 8, ORDER);
      DoubleVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long float64_float64_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = DOUBLES.loopBound(n);
    DoubleVector b = DoubleVector.broadcast(DOUBLES, bData.getAtIndex(JAVA_DOUBLE_UNALIGNED, bOff));
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector a = DoubleVector.fromMemorySegment(DOUBLES, aData, (aOff + i) * 8, ORDER);
      DoubleVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long float64_float64_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = DOUBLES.loopBound(n);
    DoubleVector a = DoubleVector.broadcast(DOUBLES, aData.getAtIndex(JAVA_DOUBLE_UNALIGNED, aOff));
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector b = DoubleVector.fromMemorySegment(DOUBLES, bData, (bOff + i) * 8, ORDER);
      DoubleVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static void float64_float64_strided(long n, MemorySegment outData, long outOff,
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
        bLanes.setAtIndex(JAVA_DOUBLE_UNALIGNED, k, bData.getAtIndex(JAVA_DOUBLE_UNALIGNED, bOff + e * bStride));
      }
      float64_float64_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_DOUBLE_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_DOUBLE_UNALIGNED, k));
      }
    }
  }

  /**
   * The fold loop of (float64, float64) promoted to float64, stored as float64: see {@code FoldKernel.fold}.
   */
  private static void float64_float64_fold(MemorySegment acc, long accOff, MemorySegment in,
      long off, long rowStride, long rows, int cols) {
    int j = 0;
    for (; j < cols; j += LANES) {
      VectorMask<Double> live_ = DOUBLES.indexInRange(j, cols);
      DoubleVector a_ = DoubleVector.fromMemorySegment(DOUBLES, acc, (accOff + j) * 8, ORDER, live_);
      for (long r = 0; r < rows; r++) {
        DoubleVector x = DoubleVector.fromMemorySegment(DOUBLES, in, (off + r * rowStride + j) * 8, ORDER, live_);
        a_ = a_.sub(x);
      }
      a_.intoMemorySegment(acc, (accOff + j) * 8, ORDER, live_);
    }
  }

  /**
   * The scan loop of (float64, float64) promoted to float64, stored as float64: see {@code FoldKernel.scan}.
   */
  private static void float64_float64_scan(MemorySegment in, long off, long inRow,
      MemorySegment out, long outOff_, long outRow, long rows, int cols) {
    if (cols == 1 && inRow == 1 && outRow == 1) {
      double a_ = in.getAtIndex(JAVA_DOUBLE_UNALIGNED, off);
      out.setAtIndex(JAVA_DOUBLE_UNALIGNED, outOff_, a_);
      long r = 1;
      while (r < rows) {
        int m = (int) Math.min(rows - r, 1048576);
        MemorySegment inBlock = in.asSlice((off + r) * 8, (long) m * 8);
        MemorySegment outBlock = out.asSlice((outOff_ + r) * 8, (long) m * 8);
        for (int k_ = 0; k_ < m; k_++) {
          double x = inBlock.getAtIndex(JAVA_DOUBLE_UNALIGNED, k_);
          a_ = a_ - x;
          outBlock.setAtIndex(JAVA_DOUBLE_UNALIGNED, k_, a_);
        }
        r += m;
      }
      return;
    }
    for (int j = 0; j < cols; j += LANES) {
      VectorMask<Double> live_ = DOUBLES.indexInRange(j, cols);
      DoubleVector a__ = DoubleVector.fromMemorySegment(DOUBLES, in, (off + j) * 8, ORDER, live_);
      a__.intoMemorySegment(out, (outOff_ + j) * 8, ORDER, live_);
      for (long r = 1; r < rows; r++) {
        DoubleVector x_ = DoubleVector.fromMemorySegment(DOUBLES, in, (off + r * inRow + j) * 8, ORDER, live_);
        a__ = a__.sub(x_);
        a__.intoMemorySegment(out, (outOff_ + r * outRow + j) * 8, ORDER, live_);
      }
    }
  }

  /**
   * The pair step of (float64, float64) promoted to float64, stored as float64: see {@code FoldKernel.pair}.
   */
  private static double float64_float64_pair(double first, double second) {
    DoubleVector a_ = DoubleVector.broadcast(DOUBLES, first);
    DoubleVector x = DoubleVector.broadcast(DOUBLES, second);
    a_ = a_.sub(x);
    return a_.lane(0);
  }
}
