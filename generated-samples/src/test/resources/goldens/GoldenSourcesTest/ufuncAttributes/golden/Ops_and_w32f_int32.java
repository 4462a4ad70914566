package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.FoldKernel;
import dev.ufunc4j.kernel.LaneScratch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorShuffle;
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
final class Ops_and_w32f_int32 implements ElementwiseKernel, FoldKernel {
  static final ElementwiseKernel INT32_INT32 = new Ops_and_w32f_int32();

  /**
   * Elements per step: a preferred-size vector of the widest lane type (32 bits).
   */
  private static final int LANES = VectorShape.preferredShape().vectorBitSize() / 32;

  private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, VectorShape.forBitSize(LANES * 32));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  /**
   * The leaf loop's lane rotations, by {@code LANES / 2, ..., 1}: made once per class, not per call.
   */
  private static final VectorShuffle<Integer>[] LEAF_ROTATIONS = FoldKernel.leafRotations(INTS);

  private Ops_and_w32f_int32() {
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    int32_int32(rows, cols, segments, offsets, strides, floatScalars, intScalars);
  }

  @Override
  public void fold(MemorySegment acc, long accOff, MemorySegment in, long off, long rowStride,
      long rows, int cols) {
    int32_int32_fold(acc, accOff, in, off, rowStride, rows, cols);
  }

  @Override
  public void scan(MemorySegment in, long off, long inRow, MemorySegment out, long outOff,
      long outRow, long rows, int cols) {
    int32_int32_scan(in, off, inRow, out, outOff, outRow, rows, cols);
  }

  @Override
  public long pairLong(long a, long b) {
    return int32_int32_pair(a, b);
  }

  @Override
  public boolean leaf(MemorySegment in, long off, int n, int k, MemorySegment park) {
    return int32_int32_leaf(in, off, n, k, park);
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

  /**
   * The fold loop of (int32, int32) promoted to int32, stored as int32: see {@code FoldKernel.fold}.
   */
  private static void int32_int32_fold(MemorySegment acc, long accOff, MemorySegment in, long off,
      long rowStride, long rows, int cols) {
    int j = 0;
    for (; j + 4 * LANES <= cols; j += 4 * LANES) {
      IntVector a0 = IntVector.fromMemorySegment(INTS, acc, (accOff + j + 0 * LANES) * 4, ORDER);
      IntVector a1 = IntVector.fromMemorySegment(INTS, acc, (accOff + j + 1 * LANES) * 4, ORDER);
      IntVector a2 = IntVector.fromMemorySegment(INTS, acc, (accOff + j + 2 * LANES) * 4, ORDER);
      IntVector a3 = IntVector.fromMemorySegment(INTS, acc, (accOff + j + 3 * LANES) * 4, ORDER);
      for (long r = 0; r < rows; r++) {
        long i = off + r * rowStride + j;
        IntVector x = IntVector.fromMemorySegment(INTS, in, (i + 0 * LANES) * 4, ORDER);
        a0 = a0.and(x);
        IntVector x_ = IntVector.fromMemorySegment(INTS, in, (i + 1 * LANES) * 4, ORDER);
        a1 = a1.and(x_);
        IntVector x__ = IntVector.fromMemorySegment(INTS, in, (i + 2 * LANES) * 4, ORDER);
        a2 = a2.and(x__);
        IntVector x___ = IntVector.fromMemorySegment(INTS, in, (i + 3 * LANES) * 4, ORDER);
        a3 = a3.and(x___);
      }
      a0.intoMemorySegment(acc, (accOff + j + 0 * LANES) * 4, ORDER);
      a1.intoMemorySegment(acc, (accOff + j + 1 * LANES) * 4, ORDER);
      a2.intoMemorySegment(acc, (accOff + j + 2 * LANES) * 4, ORDER);
      a3.intoMemorySegment(acc, (accOff + j + 3 * LANES) * 4, ORDER);
    }
    for (; j < cols; j += LANES) {
      VectorMask<Integer> live_ = INTS.indexInRange(j, cols);
      IntVector a_ = IntVector.fromMemorySegment(INTS, acc, (accOff + j) * 4, ORDER, live_);
      for (long r = 0; r < rows; r++) {
        IntVector x____ = IntVector.fromMemorySegment(INTS, in, (off + r * rowStride + j) * 4, ORDER, live_);
        a_ = a_.and(x____);
      }
      a_.intoMemorySegment(acc, (accOff + j) * 4, ORDER, live_);
    }
  }

  /**
   * The leaf loop of (int32, int32) promoted to int32, stored as int32: see {@code FoldKernel.leaf}.
   */
  private static boolean int32_int32_leaf(MemorySegment in, long off, int n, int k,
      MemorySegment park) {
    final int leafK = 64;
    if (k != leafK || 4 * LANES > leafK) {
      return false;
    }
    int blocks = n / leafK;
    int tail = n - blocks * leafK;
    int g = 0;
    IntVector a0 = IntVector.fromMemorySegment(INTS, in, (off + 0 * LANES) * 4, ORDER);
    IntVector a1 = IntVector.fromMemorySegment(INTS, in, (off + 1 * LANES) * 4, ORDER);
    IntVector a2 = IntVector.fromMemorySegment(INTS, in, (off + 2 * LANES) * 4, ORDER);
    IntVector a3 = IntVector.fromMemorySegment(INTS, in, (off + 3 * LANES) * 4, ORDER);
    while (true) {
      long at = off + g;
      for (int b = 1; b < blocks; b++) {
        long i = at + (long) b * leafK;
        IntVector x = IntVector.fromMemorySegment(INTS, in, (i + 0 * LANES) * 4, ORDER);
        a0 = a0.and(x);
        IntVector x_ = IntVector.fromMemorySegment(INTS, in, (i + 1 * LANES) * 4, ORDER);
        a1 = a1.and(x_);
        IntVector x__ = IntVector.fromMemorySegment(INTS, in, (i + 2 * LANES) * 4, ORDER);
        a2 = a2.and(x__);
        IntVector x___ = IntVector.fromMemorySegment(INTS, in, (i + 3 * LANES) * 4, ORDER);
        a3 = a3.and(x___);
      }
      int left = tail - g;
      if (left > 0) {
        long i = at + (long) blocks * leafK;
        if (left > 0 * LANES) {
          a0 = int32_int32_leafTail(a0, in, i, 0 * LANES, left);
        }
        if (left > 1 * LANES) {
          a1 = int32_int32_leafTail(a1, in, i, 1 * LANES, left);
        }
        if (left > 2 * LANES) {
          a2 = int32_int32_leafTail(a2, in, i, 2 * LANES, left);
        }
        if (left > 3 * LANES) {
          a3 = int32_int32_leafTail(a3, in, i, 3 * LANES, left);
        }
      }
      if (g + 4 * LANES >= leafK) {
        break;
      }
      a0.intoMemorySegment(park, (g + 0 * LANES) * 4, ORDER);
      a1.intoMemorySegment(park, (g + 1 * LANES) * 4, ORDER);
      a2.intoMemorySegment(park, (g + 2 * LANES) * 4, ORDER);
      a3.intoMemorySegment(park, (g + 3 * LANES) * 4, ORDER);
      g += 4 * LANES;
      a0 = IntVector.fromMemorySegment(INTS, in, (off + g + 0 * LANES) * 4, ORDER);
      a1 = IntVector.fromMemorySegment(INTS, in, (off + g + 1 * LANES) * 4, ORDER);
      a2 = IntVector.fromMemorySegment(INTS, in, (off + g + 2 * LANES) * 4, ORDER);
      a3 = IntVector.fromMemorySegment(INTS, in, (off + g + 3 * LANES) * 4, ORDER);
    }
    if (4 * LANES < leafK) {
      a0.intoMemorySegment(park, (g + 0 * LANES) * 4, ORDER);
      a1.intoMemorySegment(park, (g + 1 * LANES) * 4, ORDER);
      a2.intoMemorySegment(park, (g + 2 * LANES) * 4, ORDER);
      a3.intoMemorySegment(park, (g + 3 * LANES) * 4, ORDER);
      int32_int32_leafHalves(park, leafK);
      a0 = IntVector.fromMemorySegment(INTS, park, (0 * LANES) * 4, ORDER);
      a1 = IntVector.fromMemorySegment(INTS, park, (1 * LANES) * 4, ORDER);
      a2 = IntVector.fromMemorySegment(INTS, park, (2 * LANES) * 4, ORDER);
      a3 = IntVector.fromMemorySegment(INTS, park, (3 * LANES) * 4, ORDER);
    }
    int32_int32_leafLanes(a0, a1, a2, a3, park);
    return true;
  }

  /**
   * The leaf's tail step of (int32, int32) promoted to int32, stored as int32 (the leaf loop's helper).
   */
  private static IntVector int32_int32_leafTail(IntVector acc, MemorySegment in, long i_, int lane,
      int left) {
    VectorMask<Integer> live_ = INTS.indexInRange(lane, left);
    IntVector r_ = acc;
    IntVector x = IntVector.fromMemorySegment(INTS, in, (i_ + lane) * 4, ORDER, live_);
    r_ = r_.and(x);
    return acc.blend(r_, live_);
  }

  /**
   * The parked halves of (int32, int32) promoted to int32, stored as int32's leaf (the leaf loop's helper).
   */
  private static void int32_int32_leafHalves(MemorySegment park, int leafK) {
    for (int h = leafK / 2; h >= 4 * LANES; h /= 2) {
      for (int j = 0; j < h; j += LANES) {
        IntVector c = IntVector.fromMemorySegment(INTS, park, (j) * 4, ORDER);
        IntVector x = IntVector.fromMemorySegment(INTS, park, (j + h) * 4, ORDER);
        c = c.and(x);
        c.intoMemorySegment(park, j * 4, ORDER);
      }
    }
  }

  /**
   * The last halves of (int32, int32) promoted to int32, stored as int32's leaf (the leaf loop's helper).
   */
  private static void int32_int32_leafLanes(IntVector a0, IntVector a1, IntVector a2, IntVector a3,
      MemorySegment park) {
    IntVector x = a2;
    a0 = a0.and(x);
    IntVector x_ = a3;
    a1 = a1.and(x_);
    IntVector x__ = a1;
    a0 = a0.and(x__);
    for (VectorShuffle<Integer> rotation : LEAF_ROTATIONS) {
      IntVector x___ = a0.rearrange(rotation);
      a0 = a0.and(x___);
    }
    a0.intoMemorySegment(park, 0, ORDER);
  }

  /**
   * The scan loop of (int32, int32) promoted to int32, stored as int32: see {@code FoldKernel.scan}.
   */
  private static void int32_int32_scan(MemorySegment in, long off, long inRow, MemorySegment out,
      long outOff_, long outRow, long rows, int cols) {
    for (int j = 0; j < cols; j += LANES) {
      VectorMask<Integer> live_ = INTS.indexInRange(j, cols);
      IntVector a_ = IntVector.fromMemorySegment(INTS, in, (off + j) * 4, ORDER, live_);
      a_.intoMemorySegment(out, (outOff_ + j) * 4, ORDER, live_);
      for (long r = 1; r < rows; r++) {
        IntVector x = IntVector.fromMemorySegment(INTS, in, (off + r * inRow + j) * 4, ORDER, live_);
        a_ = a_.and(x);
        a_.intoMemorySegment(out, (outOff_ + r * outRow + j) * 4, ORDER, live_);
      }
    }
  }

  /**
   * The pair step of (int32, int32) promoted to int32, stored as int32: see {@code FoldKernel.pair}.
   */
  private static long int32_int32_pair(long first, long second) {
    IntVector a_ = IntVector.broadcast(INTS, (int) first);
    IntVector x = IntVector.broadcast(INTS, (int) second);
    a_ = a_.and(x);
    return a_.lane(0);
  }
}
