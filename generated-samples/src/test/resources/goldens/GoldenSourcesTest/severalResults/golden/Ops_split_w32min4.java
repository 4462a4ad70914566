package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.LaneScratch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Kernels of the op {@code split} declared by {@link golden.Ops} whose widest lane type is 32 bits and that step at least 4 elements.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_split_w32min4 implements ElementwiseKernel {
  static final ElementwiseKernel INT32_AS_FLOAT32 = new Ops_split_w32min4(0);

  static final ElementwiseKernel FLOAT32 = new Ops_split_w32min4(1);

  /**
   * Elements per step: a preferred-size vector of the widest lane type (32 bits), and at least 4.
   */
  private static final int LANES = Math.max(VectorShape.preferredShape().vectorBitSize() / 32, 4);

  private static final VectorSpecies<Byte> BYTES = VectorSpecies.of(byte.class, VectorShape.forBitSize(Math.max(64, LANES * 8)));

  /**
   * True when LANES byte values fill less than the smallest vector: they travel through memory as one int.
   */
  private static final boolean BYTES_PACKED = LANES * 8 == 32;

  private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, VectorShape.forBitSize(LANES * 32));

  private static final VectorSpecies<Float> FLOATS = VectorSpecies.of(float.class, VectorShape.forBitSize(LANES * 32));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private final int entry;

  private Ops_split_w32min4(int entry) {
    this.entry = entry;
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    switch (entry) {
      case 0 -> int32_as_float32(rows, cols, segments, offsets, strides, floatScalars, intScalars);
      case 1 -> float32(rows, cols, segments, offsets, strides, floatScalars, intScalars);
    }
  }

  /**
   * (int32) promoted to float32, stored as float32.
   */
  private static void int32_as_float32(long rows, long cols, MemorySegment[] segments,
      long[] offsets, long[] strides, double[] floatScalars, long[] intScalars) {
    MemorySegment wholeOutData = segments[0];
    MemorySegment fractionOutData = segments[1];
    MemorySegment negativeOutData = segments[2];
    MemorySegment xData = segments[3];
    float scale = (float) floatScalars[0];
    long wholeOutStride = strides[1];
    long fractionOutStride = strides[3];
    long negativeOutStride = strides[5];
    long xStride = strides[7];
    for (long r = 0; r < rows; r++) {
      long wholeOutOff = offsets[0] + r * strides[0];
      long fractionOutOff = offsets[1] + r * strides[2];
      long negativeOutOff = offsets[2] + r * strides[4];
      long xOff = offsets[3] + r * strides[6];
      long done = 0;
      if (wholeOutStride == 1 && fractionOutStride == 1 && negativeOutStride == 1 && xStride == 1) {
        done = int32_as_float32_contiguous(cols, wholeOutData, wholeOutOff, fractionOutData, fractionOutOff, negativeOutData, negativeOutOff, xData, xOff, scale);
      }
      if (done < cols) {
        int32_as_float32_strided(cols - done, wholeOutData, wholeOutOff + done * wholeOutStride, wholeOutStride, fractionOutData, fractionOutOff + done * fractionOutStride, fractionOutStride, negativeOutData, negativeOutOff + done * negativeOutStride, negativeOutStride, xData, xOff + done * xStride, xStride, scale);
      }
    }
  }

  private static long int32_as_float32_contiguous(long n, MemorySegment wholeOutData,
      long wholeOutOff, MemorySegment fractionOutData, long fractionOutOff,
      MemorySegment negativeOutData, long negativeOutOff, MemorySegment xData, long xOff,
      float scale) {
    long bound = FLOATS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector x = ((FloatVector) IntVector.fromMemorySegment(INTS, xData, (xOff + i) * 4, ORDER).convertShape(I2F, FLOATS, 0));
      FloatVector y_ = x.mul(scale);
      FloatVector floorOf = y_.neg();
      FloatVector rounded = floorOf.abs().add(8388608.0f).sub(8388608.0f);
      FloatVector rinted = floorOf.blend(rounded.reinterpretAsInts().or(floorOf.reinterpretAsInts().and(0x80000000)).reinterpretAsFloats(), floorOf.abs().compare(LT, 8388608.0f));
      FloatVector rounded_ = y_.abs().add(8388608.0f).sub(8388608.0f);
      FloatVector rinted_ = y_.blend(rounded_.reinterpretAsInts().or(y_.reinterpretAsInts().and(0x80000000)).reinterpretAsFloats(), y_.abs().compare(LT, 8388608.0f));
      FloatVector whole_ = rinted_.sub(1.0f, rinted_.compare(GT, y_)).blend(rinted.sub(1.0f, rinted.compare(GT, floorOf)).neg(), y_.compare(LT, 0.0f));
      FloatVector result = whole_;
      result.intoMemorySegment(wholeOutData, (wholeOutOff + i) * 4, ORDER);
      FloatVector result_ = y_.sub(whole_);
      result_.intoMemorySegment(fractionOutData, (fractionOutOff + i) * 4, ORDER);
      VectorMask<Float> result__ = y_.compare(LT, 0.0f);
      ByteVector stored = ((ByteVector) FloatVector.zero(FLOATS).blend(1.0f, result__).convertShape(F2B, BYTES, 0));
      if (BYTES_PACKED) {
        negativeOutData.set(JAVA_INT_UNALIGNED, negativeOutOff + i, stored.reinterpretAsInts().lane(0));
      } else {
        stored.intoMemorySegment(negativeOutData, negativeOutOff + i, ORDER);
      }
    }
    return bound;
  }

  private static void int32_as_float32_strided(long n, MemorySegment wholeOutData, long wholeOutOff,
      long wholeOutStride, MemorySegment fractionOutData, long fractionOutOff,
      long fractionOutStride, MemorySegment negativeOutData, long negativeOutOff,
      long negativeOutStride, MemorySegment xData, long xOff, long xStride, float scale) {
    MemorySegment[] blocks = LaneScratch.blocks(4, LANES * 4);
    MemorySegment wholeOutLanes = blocks[0];
    MemorySegment fractionOutLanes = blocks[1];
    MemorySegment negativeOutLanes = blocks[2];
    MemorySegment xLanes = blocks[3];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        xLanes.setAtIndex(JAVA_INT_UNALIGNED, k, xData.getAtIndex(JAVA_INT_UNALIGNED, xOff + e * xStride));
      }
      int32_as_float32_contiguous(LANES, wholeOutLanes, 0, fractionOutLanes, 0, negativeOutLanes, 0, xLanes, 0, scale);
      for (int k = 0; k < count; k++) {
        wholeOutData.setAtIndex(JAVA_FLOAT_UNALIGNED, wholeOutOff + (i + k) * wholeOutStride, wholeOutLanes.getAtIndex(JAVA_FLOAT_UNALIGNED, k));
        fractionOutData.setAtIndex(JAVA_FLOAT_UNALIGNED, fractionOutOff + (i + k) * fractionOutStride, fractionOutLanes.getAtIndex(JAVA_FLOAT_UNALIGNED, k));
        negativeOutData.setAtIndex(JAVA_BYTE, negativeOutOff + (i + k) * negativeOutStride, negativeOutLanes.getAtIndex(JAVA_BYTE, k));
      }
    }
  }

  /**
   * (float32) promoted to float32, stored as float32.
   */
  private static void float32(long rows, long cols, MemorySegment[] segments, long[] offsets,
      long[] strides, double[] floatScalars, long[] intScalars) {
    MemorySegment wholeOutData = segments[0];
    MemorySegment fractionOutData = segments[1];
    MemorySegment negativeOutData = segments[2];
    MemorySegment xData = segments[3];
    float scale = (float) floatScalars[0];
    long wholeOutStride = strides[1];
    long fractionOutStride = strides[3];
    long negativeOutStride = strides[5];
    long xStride = strides[7];
    for (long r = 0; r < rows; r++) {
      long wholeOutOff = offsets[0] + r * strides[0];
      long fractionOutOff = offsets[1] + r * strides[2];
      long negativeOutOff = offsets[2] + r * strides[4];
      long xOff = offsets[3] + r * strides[6];
      long done = 0;
      if (wholeOutStride == 1 && fractionOutStride == 1 && negativeOutStride == 1 && xStride == 1) {
        done = float32_contiguous(cols, wholeOutData, wholeOutOff, fractionOutData, fractionOutOff, negativeOutData, negativeOutOff, xData, xOff, scale);
      }
      if (done < cols) {
        float32_strided(cols - done, wholeOutData, wholeOutOff + done * wholeOutStride, wholeOutStride, fractionOutData, fractionOutOff + done * fractionOutStride, fractionOutStride, negativeOutData, negativeOutOff + done * negativeOutStride, negativeOutStride, xData, xOff + done * xStride, xStride, scale);
      }
    }
  }

  private static long float32_contiguous(long n, MemorySegment wholeOutData, long wholeOutOff,
      MemorySegment fractionOutData, long fractionOutOff, MemorySegment negativeOutData,
      long negativeOutOff, MemorySegment xData, long xOff, float scale) {
    long bound = FLOATS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      FloatVector x = FloatVector.fromMemorySegment(FLOATS, xData, (xOff + i) * 4, ORDER);
      FloatVector y_ = x.mul(scale);
      FloatVector floorOf = y_.neg();
      FloatVector rounded = floorOf.abs().add(8388608.0f).sub(8388608.0f);
      FloatVector rinted = floorOf.blend(rounded.reinterpretAsInts().or(floorOf.reinterpretAsInts().and(0x80000000)).reinterpretAsFloats(), floorOf.abs().compare(LT, 8388608.0f));
      FloatVector rounded_ = y_.abs().add(8388608.0f).sub(8388608.0f);
      FloatVector rinted_ = y_.blend(rounded_.reinterpretAsInts().or(y_.reinterpretAsInts().and(0x80000000)).reinterpretAsFloats(), y_.abs().compare(LT, 8388608.0f));
      FloatVector whole_ = rinted_.sub(1.0f, rinted_.compare(GT, y_)).blend(rinted.sub(1.0f, rinted.compare(GT, floorOf)).neg(), y_.compare(LT, 0.0f));
      FloatVector result = whole_;
      result.intoMemorySegment(wholeOutData, (wholeOutOff + i) * 4, ORDER);
      FloatVector result_ = y_.sub(whole_);
      result_.intoMemorySegment(fractionOutData, (fractionOutOff + i) * 4, ORDER);
      VectorMask<Float> result__ = y_.compare(LT, 0.0f);
      ByteVector stored = ((ByteVector) FloatVector.zero(FLOATS).blend(1.0f, result__).convertShape(F2B, BYTES, 0));
      if (BYTES_PACKED) {
        negativeOutData.set(JAVA_INT_UNALIGNED, negativeOutOff + i, stored.reinterpretAsInts().lane(0));
      } else {
        stored.intoMemorySegment(negativeOutData, negativeOutOff + i, ORDER);
      }
    }
    return bound;
  }

  private static void float32_strided(long n, MemorySegment wholeOutData, long wholeOutOff,
      long wholeOutStride, MemorySegment fractionOutData, long fractionOutOff,
      long fractionOutStride, MemorySegment negativeOutData, long negativeOutOff,
      long negativeOutStride, MemorySegment xData, long xOff, long xStride, float scale) {
    MemorySegment[] blocks = LaneScratch.blocks(4, LANES * 4);
    MemorySegment wholeOutLanes = blocks[0];
    MemorySegment fractionOutLanes = blocks[1];
    MemorySegment negativeOutLanes = blocks[2];
    MemorySegment xLanes = blocks[3];
    for (long i = 0; i < n; i += LANES) {
      int count = (int) Math.min(LANES, n - i);
      for (int k = 0; k < LANES; k++) {
        long e = i + Math.min(k, count - 1);
        xLanes.setAtIndex(JAVA_FLOAT_UNALIGNED, k, xData.getAtIndex(JAVA_FLOAT_UNALIGNED, xOff + e * xStride));
      }
      float32_contiguous(LANES, wholeOutLanes, 0, fractionOutLanes, 0, negativeOutLanes, 0, xLanes, 0, scale);
      for (int k = 0; k < count; k++) {
        wholeOutData.setAtIndex(JAVA_FLOAT_UNALIGNED, wholeOutOff + (i + k) * wholeOutStride, wholeOutLanes.getAtIndex(JAVA_FLOAT_UNALIGNED, k));
        fractionOutData.setAtIndex(JAVA_FLOAT_UNALIGNED, fractionOutOff + (i + k) * fractionOutStride, fractionOutLanes.getAtIndex(JAVA_FLOAT_UNALIGNED, k));
        negativeOutData.setAtIndex(JAVA_BYTE, negativeOutOff + (i + k) * negativeOutStride, negativeOutLanes.getAtIndex(JAVA_BYTE, k));
      }
    }
  }
}
