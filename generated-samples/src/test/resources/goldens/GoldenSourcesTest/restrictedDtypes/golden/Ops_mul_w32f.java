package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.FoldKernel;
import dev.ufunc4j.kernel.LaneScratch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Kernels of the op {@code mul} declared by {@link golden.Ops} whose widest lane type is 32 bits.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_mul_w32f implements ElementwiseKernel, FoldKernel {
  static final ElementwiseKernel FLOAT32_FLOAT32 = new Ops_mul_w32f();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (32 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 32;

  private static final VectorSpecies<Float> FLOATS = VectorSpecies.of(float.class, VectorShape.forBitSize(LANES * 32));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private Ops_mul_w32f() {
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    float32_float32(rows, cols, segments, offsets, strides, floatScalars, intScalars);
  }

  @Override
  public void fold(MemorySegment acc, long accOff, MemorySegment in, long off, long rowStride,
      long rows, int cols) {
    float32_float32_fold(acc, accOff, in, off, rowStride, rows, cols);
  }

  @Override
  public void scan(MemorySegment in, long off, long inRow, MemorySegment out, long outOff,
      long outRow, long rows, int cols) {
    float32_float32_scan(in, off, inRow, out, outOff, outRow, rows, cols);
  }

  @Override
  public double pair(double a, double b) {
    return float32_float32_pair(a, b);
  }

  /**
   * (float32, float32) promoted to float32, stored as float32.
   */
  private static void float32_float32(long rows, long cols, MemorySegment[] segments,
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
        done = float32_float32_contiguous(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = float32_float32_splatB(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = float32_float32_splatA(cols, outData, outOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        float32_float32_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long float32_float32_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = FLOATS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector a = FloatVector.fromMemorySegment(FLOATS, aData, (aOff + i) * 4, ORDER);
      FloatVector b = FloatVector.fromMemorySegment(FLOATS, bData, (bOff + i) * 4, ORDER);
      FloatVector result = a.mul(b);
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  private static long float32_float32_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = FLOATS.loopBound(n);
    FloatVector b = FloatVector.broadcast(FLOATS, bData.getAtIndex(JAVA_FLOAT_UNALIGNED, bOff));
    for (long i = 0; i < bound; i += LANES) {
      FloatVector a = FloatVector.fromMemorySegment(FLOATS, aData, (aOff + i) * 4, ORDER);
      FloatVector result = a.mul(b);
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  private static long float32_float32_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = FLOATS.loopBound(n);
    FloatVector a = FloatVector.broadcast(FLOATS, aData.getAtIndex(JAVA_FLOAT_UNALIGNED, aOff));
    for (long i = 0; i < bound; i += LANES) {
      FloatVector b = FloatVector.fromMemorySegment(FLOATS, bData, (bOff + i) * 4, ORDER);
      FloatVector result = a.mul(b);
      result.intoMemorySegment(outData, (outOff + i) * 4, ORDER);
    }
    return bound;
  }

  private static void float32_float32_strided(long n, MemorySegment outData, long outOff,
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
        aLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, k, aData.getAtIndex(JAVA_FLOAT_UNALIGNED, aOff + e * aStride));
        bLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, k, bData.getAtIndex(JAVA_FLOAT_UNALIGNED, bOff + e * bStride));
      }
      float32_float32_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_FLOAT_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_FLOAT_UNALIGNED, k));
      }
    }
  }

  /**
   * The fold loop of (float32, float32) promoted to float32, stored as float32: see {@code FoldKernel.fold}.
   */
  private static void float32_float32_fold(MemorySegment acc, long accOff, MemorySegment in,
      long off, long rowStride, long rows, int cols) {
    int j = 0;
    for (; j < cols; j += LANES) {
      VectorMask<Float> live_ = FLOATS.indexInRange(j, cols);
      FloatVector a_ = FloatVector.fromMemorySegment(FLOATS, acc, (accOff + j) * 4, ORDER, live_);
      for (long r = 0; r < rows; r++) {
        FloatVector x = FloatVector.fromMemorySegment(FLOATS, in, (off + r * rowStride + j) * 4, ORDER, live_);
        a_ = a_.mul(x);
      }
      a_.intoMemorySegment(acc, (accOff + j) * 4, ORDER, live_);
    }
  }

  /**
   * The scan loop of (float32, float32) promoted to float32, stored as float32: see {@code FoldKernel.scan}.
   */
  private static void float32_float32_scan(MemorySegment in, long off, long inRow,
      MemorySegment out, long outOff_, long outRow, long rows, int cols) {
    if (cols == 1 && inRow == 1 && outRow == 1) {
      float a_ = in.getAtIndex(JAVA_FLOAT_UNALIGNED, off);
      out.setAtIndex(JAVA_FLOAT_UNALIGNED, outOff_, a_);
      long r = 1;
      while (r < rows) {
        int m = (int) Math.min(rows - r, 1048576);
        MemorySegment inBlock = in.asSlice((off + r) * 4, (long) m * 4);
        MemorySegment outBlock = out.asSlice((outOff_ + r) * 4, (long) m * 4);
        for (int k_ = 0; k_ < m; k_++) {
          float x = inBlock.getAtIndex(JAVA_FLOAT_UNALIGNED, k_);
          a_ = a_ * x;
          outBlock.setAtIndex(JAVA_FLOAT_UNALIGNED, k_, a_);
        }
        r += m;
      }
      return;
    }
    for (int j = 0; j < cols; j += LANES) {
      VectorMask<Float> live_ = FLOATS.indexInRange(j, cols);
      FloatVector a__ = FloatVector.fromMemorySegment(FLOATS, in, (off + j) * 4, ORDER, live_);
      a__.intoMemorySegment(out, (outOff_ + j) * 4, ORDER, live_);
      for (long r = 1; r < rows; r++) {
        FloatVector x_ = FloatVector.fromMemorySegment(FLOATS, in, (off + r * inRow + j) * 4, ORDER, live_);
        a__ = a__.mul(x_);
        a__.intoMemorySegment(out, (outOff_ + r * outRow + j) * 4, ORDER, live_);
      }
    }
  }

  /**
   * The pair step of (float32, float32) promoted to float32, stored as float32: see {@code FoldKernel.pair}.
   */
  private static double float32_float32_pair(double first, double second) {
    FloatVector a_ = FloatVector.broadcast(FLOATS, (float) first);
    FloatVector x = FloatVector.broadcast(FLOATS, (float) second);
    a_ = a_.mul(x);
    return a_.lane(0);
  }
}
