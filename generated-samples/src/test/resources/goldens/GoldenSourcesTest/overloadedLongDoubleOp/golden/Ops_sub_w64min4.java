package golden;

import static java.lang.foreign.ValueLayout.*;
import static jdk.incubator.vector.VectorOperators.*;

import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.LaneScratch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import javax.annotation.processing.Generated;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Kernels of the op {@code sub} declared by {@link golden.Ops} whose widest lane type is 64 bits and that step at least 4 elements.
 *
 * <p>Kernel {@code e} (the constant {@code E}) is the method {@code e}: it runs a box of {@code rows}
 * × {@code cols} elements (the runtime walks the dimensions above), each row with {@code
 * e_contiguous} when every operand is contiguous, {@code e_splatX} when input {@code x} is broadcast
 * along it (stride 0) and the others contiguous, and {@code e_strided} for any other strides and for
 * the last {@code cols % LANES} elements.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_sub_w64min4 implements ElementwiseKernel {
  static final ElementwiseKernel UINT8_INT64 = new Ops_sub_w64min4(0);

  static final ElementwiseKernel UINT8_FLOAT64 = new Ops_sub_w64min4(1);

  static final ElementwiseKernel INT64_UINT8 = new Ops_sub_w64min4(2);

  static final ElementwiseKernel FLOAT64_UINT8 = new Ops_sub_w64min4(3);

  /**
   * Elements per step: a preferred-size vector of the widest lane type (64 bits), and at least 4.
   */
  private static final int LANES = Math.max(VectorShape.preferredShape().vectorBitSize() / 64, 4);

  private static final VectorSpecies<Byte> BYTES = VectorSpecies.of(byte.class, VectorShape.forBitSize(Math.max(64, LANES * 8)));

  /**
   * True when LANES byte values fill less than the smallest vector: they travel through memory as one int.
   */
  private static final boolean BYTES_PACKED = LANES * 8 == 32;

  private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, VectorShape.forBitSize(LANES * 32));

  private static final VectorSpecies<Long> LONGS = VectorSpecies.of(long.class, VectorShape.forBitSize(LANES * 64));

  private static final VectorSpecies<Double> DOUBLES = VectorSpecies.of(double.class, VectorShape.forBitSize(LANES * 64));

  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private final int entry;

  private Ops_sub_w64min4(int entry) {
    this.entry = entry;
  }

  @Override
  public void box(long rows, long cols, MemorySegment[] segments, long[] offsets, long[] strides,
      double[] floatScalars, long[] intScalars) {
    switch (entry) {
      case 0 -> uint8_int64(rows, cols, segments, offsets, strides, floatScalars, intScalars);
      case 1 -> uint8_float64(rows, cols, segments, offsets, strides, floatScalars, intScalars);
      case 2 -> int64_uint8(rows, cols, segments, offsets, strides, floatScalars, intScalars);
      case 3 -> float64_uint8(rows, cols, segments, offsets, strides, floatScalars, intScalars);
    }
  }

  /**
   * (uint8, int64) promoted to int64, stored as int64.
   */
  private static void uint8_int64(long rows, long cols, MemorySegment[] segments, long[] offsets,
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
        done = uint8_int64_contiguous(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = uint8_int64_splatB(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = uint8_int64_splatA(cols, outData, outOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        uint8_int64_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long uint8_int64_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = LONGS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      LongVector a = ((LongVector) (BYTES_PACKED
              ? IntVector.broadcast(IntVector.SPECIES_64, aData.get(JAVA_INT_UNALIGNED, aOff + i)).reinterpretAsBytes()
              : ByteVector.fromMemorySegment(BYTES, aData, aOff + i, ORDER)).convertShape(ZERO_EXTEND_B2L, LONGS, 0));
      LongVector b = LongVector.fromMemorySegment(LONGS, bData, (bOff + i) * 8, ORDER);
      LongVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long uint8_int64_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = LONGS.loopBound(n);
    LongVector b = LongVector.broadcast(LONGS, bData.getAtIndex(JAVA_LONG_UNALIGNED, bOff));
    for (long i = 0; i < bound; i += LANES) {
      LongVector a = ((LongVector) (BYTES_PACKED
              ? IntVector.broadcast(IntVector.SPECIES_64, aData.get(JAVA_INT_UNALIGNED, aOff + i)).reinterpretAsBytes()
              : ByteVector.fromMemorySegment(BYTES, aData, aOff + i, ORDER)).convertShape(ZERO_EXTEND_B2L, LONGS, 0));
      LongVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long uint8_int64_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = LONGS.loopBound(n);
    LongVector a = ((LongVector) ByteVector.broadcast(BYTES, aData.getAtIndex(JAVA_BYTE, aOff)).convertShape(ZERO_EXTEND_B2L, LONGS, 0));
    for (long i = 0; i < bound; i += LANES) {
      LongVector b = LongVector.fromMemorySegment(LONGS, bData, (bOff + i) * 8, ORDER);
      LongVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static void uint8_int64_strided(long n, MemorySegment outData, long outOff,
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
        aLanes.setAtIndex(JAVA_BYTE, k, aData.getAtIndex(JAVA_BYTE, aOff + e * aStride));
        bLanes.setAtIndex(JAVA_LONG_UNALIGNED, k, bData.getAtIndex(JAVA_LONG_UNALIGNED, bOff + e * bStride));
      }
      uint8_int64_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_LONG_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_LONG_UNALIGNED, k));
      }
    }
  }

  /**
   * (uint8, float64) promoted to float64, stored as float64.
   */
  private static void uint8_float64(long rows, long cols, MemorySegment[] segments, long[] offsets,
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
        done = uint8_float64_contiguous(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = uint8_float64_splatB(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = uint8_float64_splatA(cols, outData, outOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        uint8_float64_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long uint8_float64_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = DOUBLES.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector a = ((DoubleVector) ((IntVector) (BYTES_PACKED
              ? IntVector.broadcast(IntVector.SPECIES_64, aData.get(JAVA_INT_UNALIGNED, aOff + i)).reinterpretAsBytes()
              : ByteVector.fromMemorySegment(BYTES, aData, aOff + i, ORDER)).convertShape(ZERO_EXTEND_B2I, INTS, 0)).convertShape(I2D, DOUBLES, 0));
      DoubleVector b = DoubleVector.fromMemorySegment(DOUBLES, bData, (bOff + i) * 8, ORDER);
      DoubleVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long uint8_float64_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = DOUBLES.loopBound(n);
    DoubleVector b = DoubleVector.broadcast(DOUBLES, bData.getAtIndex(JAVA_DOUBLE_UNALIGNED, bOff));
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector a = ((DoubleVector) ((IntVector) (BYTES_PACKED
              ? IntVector.broadcast(IntVector.SPECIES_64, aData.get(JAVA_INT_UNALIGNED, aOff + i)).reinterpretAsBytes()
              : ByteVector.fromMemorySegment(BYTES, aData, aOff + i, ORDER)).convertShape(ZERO_EXTEND_B2I, INTS, 0)).convertShape(I2D, DOUBLES, 0));
      DoubleVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long uint8_float64_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = DOUBLES.loopBound(n);
    DoubleVector a = ((DoubleVector) ((IntVector) ByteVector.broadcast(BYTES, aData.getAtIndex(JAVA_BYTE, aOff)).convertShape(ZERO_EXTEND_B2I, INTS, 0)).convertShape(I2D, DOUBLES, 0));
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector b = DoubleVector.fromMemorySegment(DOUBLES, bData, (bOff + i) * 8, ORDER);
      DoubleVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static void uint8_float64_strided(long n, MemorySegment outData, long outOff,
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
        aLanes.setAtIndex(JAVA_BYTE, k, aData.getAtIndex(JAVA_BYTE, aOff + e * aStride));
        bLanes.setAtIndex(JAVA_DOUBLE_UNALIGNED, k, bData.getAtIndex(JAVA_DOUBLE_UNALIGNED, bOff + e * bStride));
      }
      uint8_float64_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_DOUBLE_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_DOUBLE_UNALIGNED, k));
      }
    }
  }

  /**
   * (int64, uint8) promoted to int64, stored as int64.
   */
  private static void int64_uint8(long rows, long cols, MemorySegment[] segments, long[] offsets,
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
        done = int64_uint8_contiguous(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = int64_uint8_splatB(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = int64_uint8_splatA(cols, outData, outOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        int64_uint8_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long int64_uint8_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = LONGS.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      LongVector a = LongVector.fromMemorySegment(LONGS, aData, (aOff + i) * 8, ORDER);
      LongVector b = ((LongVector) (BYTES_PACKED
              ? IntVector.broadcast(IntVector.SPECIES_64, bData.get(JAVA_INT_UNALIGNED, bOff + i)).reinterpretAsBytes()
              : ByteVector.fromMemorySegment(BYTES, bData, bOff + i, ORDER)).convertShape(ZERO_EXTEND_B2L, LONGS, 0));
      LongVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long int64_uint8_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = LONGS.loopBound(n);
    LongVector b = ((LongVector) ByteVector.broadcast(BYTES, bData.getAtIndex(JAVA_BYTE, bOff)).convertShape(ZERO_EXTEND_B2L, LONGS, 0));
    for (long i = 0; i < bound; i += LANES) {
      LongVector a = LongVector.fromMemorySegment(LONGS, aData, (aOff + i) * 8, ORDER);
      LongVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long int64_uint8_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = LONGS.loopBound(n);
    LongVector a = LongVector.broadcast(LONGS, aData.getAtIndex(JAVA_LONG_UNALIGNED, aOff));
    for (long i = 0; i < bound; i += LANES) {
      LongVector b = ((LongVector) (BYTES_PACKED
              ? IntVector.broadcast(IntVector.SPECIES_64, bData.get(JAVA_INT_UNALIGNED, bOff + i)).reinterpretAsBytes()
              : ByteVector.fromMemorySegment(BYTES, bData, bOff + i, ORDER)).convertShape(ZERO_EXTEND_B2L, LONGS, 0));
      LongVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static void int64_uint8_strided(long n, MemorySegment outData, long outOff,
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
        bLanes.setAtIndex(JAVA_BYTE, k, bData.getAtIndex(JAVA_BYTE, bOff + e * bStride));
      }
      int64_uint8_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_LONG_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_LONG_UNALIGNED, k));
      }
    }
  }

  /**
   * (float64, uint8) promoted to float64, stored as float64.
   */
  private static void float64_uint8(long rows, long cols, MemorySegment[] segments, long[] offsets,
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
        done = float64_uint8_contiguous(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 1 && bStride == 0) {
        done = float64_uint8_splatB(cols, outData, outOff, aData, aOff, bData, bOff);
      } else if (outStride == 1 && aStride == 0 && bStride == 1) {
        done = float64_uint8_splatA(cols, outData, outOff, aData, aOff, bData, bOff);
      }
      if (done < cols) {
        float64_uint8_strided(cols - done, outData, outOff + done * outStride, outStride, aData, aOff + done * aStride, aStride, bData, bOff + done * bStride, bStride);
      }
    }
  }

  private static long float64_uint8_contiguous(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = DOUBLES.loopBound(n);
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector a = DoubleVector.fromMemorySegment(DOUBLES, aData, (aOff + i) * 8, ORDER);
      DoubleVector b = ((DoubleVector) ((IntVector) (BYTES_PACKED
              ? IntVector.broadcast(IntVector.SPECIES_64, bData.get(JAVA_INT_UNALIGNED, bOff + i)).reinterpretAsBytes()
              : ByteVector.fromMemorySegment(BYTES, bData, bOff + i, ORDER)).convertShape(ZERO_EXTEND_B2I, INTS, 0)).convertShape(I2D, DOUBLES, 0));
      DoubleVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long float64_uint8_splatB(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = DOUBLES.loopBound(n);
    DoubleVector b = ((DoubleVector) ((IntVector) ByteVector.broadcast(BYTES, bData.getAtIndex(JAVA_BYTE, bOff)).convertShape(ZERO_EXTEND_B2I, INTS, 0)).convertShape(I2D, DOUBLES, 0));
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector a = DoubleVector.fromMemorySegment(DOUBLES, aData, (aOff + i) * 8, ORDER);
      DoubleVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static long float64_uint8_splatA(long n, MemorySegment outData, long outOff,
      MemorySegment aData, long aOff, MemorySegment bData, long bOff) {
    long bound = DOUBLES.loopBound(n);
    DoubleVector a = DoubleVector.broadcast(DOUBLES, aData.getAtIndex(JAVA_DOUBLE_UNALIGNED, aOff));
    for (long i = 0; i < bound; i += LANES) {
      DoubleVector b = ((DoubleVector) ((IntVector) (BYTES_PACKED
              ? IntVector.broadcast(IntVector.SPECIES_64, bData.get(JAVA_INT_UNALIGNED, bOff + i)).reinterpretAsBytes()
              : ByteVector.fromMemorySegment(BYTES, bData, bOff + i, ORDER)).convertShape(ZERO_EXTEND_B2I, INTS, 0)).convertShape(I2D, DOUBLES, 0));
      DoubleVector result = a.sub(b);
      result.intoMemorySegment(outData, (outOff + i) * 8, ORDER);
    }
    return bound;
  }

  private static void float64_uint8_strided(long n, MemorySegment outData, long outOff,
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
        bLanes.setAtIndex(JAVA_BYTE, k, bData.getAtIndex(JAVA_BYTE, bOff + e * bStride));
      }
      float64_uint8_contiguous(LANES, outLanes, 0, aLanes, 0, bLanes, 0);
      for (int k = 0; k < count; k++) {
        outData.setAtIndex(JAVA_DOUBLE_UNALIGNED, outOff + (i + k) * outStride, outLanes.getAtIndex(JAVA_DOUBLE_UNALIGNED, k));
      }
    }
  }
}
