package dev.ufunc4j.samples;

import dev.ufunc4j.dtype.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Scalar reference conversions for the kernel tests, written independently of the generated code:
 * raw storage (a long holding the bits of any dtype) to values and back, as PyTorch casts.
 */
final class Scalars {

  private Scalars() {}

  static long read(MemorySegment s, DType d, long index) {
    return switch (d) {
      case BOOL, UINT8, INT8 -> s.getAtIndex(ValueLayout.JAVA_BYTE, index);
      case INT16, UINT16, FLOAT16, BFLOAT16 -> s.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, index);
      case INT32, UINT32 -> s.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, index);
      case FLOAT32 -> Float.floatToRawIntBits(s.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, index));
      case INT64, UINT64 -> s.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, index);
      case FLOAT64 ->
          Double.doubleToRawLongBits(s.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, index));
      default -> throw new IllegalArgumentException(d.toString());
    };
  }

  static void write(MemorySegment s, DType d, long index, long raw) {
    switch (d) {
      case BOOL, UINT8, INT8 -> s.setAtIndex(ValueLayout.JAVA_BYTE, index, (byte) raw);
      case INT16, UINT16, FLOAT16, BFLOAT16 ->
          s.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, index, (short) raw);
      case INT32, UINT32, FLOAT32 -> s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, index, (int) raw);
      case INT64, UINT64, FLOAT64 -> s.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, index, raw);
      default -> throw new IllegalArgumentException(d.toString());
    }
  }

  /** The exact integer value of integral/bool raw bits (UINT64 as its bit pattern). */
  static long integral(DType d, long raw) {
    return switch (d) {
      case BOOL -> raw != 0 ? 1 : 0;
      case UINT8 -> raw & 0xFF;
      case INT8 -> (byte) raw;
      case INT16 -> (short) raw;
      case UINT16 -> raw & 0xFFFF;
      case INT32 -> (int) raw;
      case UINT32 -> raw & 0xFFFF_FFFFL;
      case INT64, UINT64 -> raw;
      default -> throw new IllegalArgumentException(d.toString());
    };
  }

  /** Narrows a long to an integral dtype's raw bits (Java narrowing; BOOL is nonzero). */
  static long narrow(DType d, long v) {
    return switch (d) {
      case BOOL -> v != 0 ? 1 : 0;
      default -> integral(d, v);
    };
  }

  static float bfloat16ToFloat(long raw) {
    return Float.intBitsToFloat((int) (raw & 0xFFFF) << 16);
  }

  /** PyTorch's round_to_nearest_even; NaN → 0x7FC0. */
  static short floatToBfloat16(float f) {
    if (Float.isNaN(f)) {
      return 0x7FC0;
    }
    int bits = Float.floatToRawIntBits(f);
    return (short) ((bits + (((bits >>> 16) & 1) + 0x7FFF)) >>> 16);
  }

  /** The value of floating raw bits. */
  static double floating(DType d, long raw) {
    return switch (d) {
      case FLOAT16 -> Float.float16ToFloat((short) raw);
      case BFLOAT16 -> bfloat16ToFloat(raw);
      case FLOAT32 -> Float.intBitsToFloat((int) raw);
      case FLOAT64 -> Double.longBitsToDouble(raw);
      default -> throw new IllegalArgumentException(d.toString());
    };
  }

  /** An operand cast to a floating promoted dtype (PyTorch), as a double. */
  static double toFloating(DType d, long raw, DType promoted) {
    if (d.isFloatingPoint()) {
      return floating(d, raw);
    }
    long v = integral(d, raw);
    boolean bigUnsigned = d == DType.UINT64 && v < 0;
    BigDecimal exact = bigUnsigned ? new BigDecimal(new BigInteger(Long.toUnsignedString(v))) : null;
    return switch (promoted) {
      case FLOAT64 -> bigUnsigned ? exact.doubleValue() : (double) v;
      case FLOAT32 -> bigUnsigned ? exact.floatValue() : (float) v;
      case FLOAT16 ->
          Float.float16ToFloat(Float.floatToFloat16(bigUnsigned ? exact.floatValue() : (float) v));
      case BFLOAT16 ->
          bfloat16ToFloat(floatToBfloat16(bigUnsigned ? exact.floatValue() : (float) v));
      default -> throw new IllegalArgumentException(promoted.toString());
    };
  }

  /** A computed floating value stored as the result dtype's raw bits. */
  static long storeFloating(DType result, double v) {
    return switch (result) {
      case FLOAT16 -> Float.floatToFloat16((float) v);
      case BFLOAT16 -> floatToBfloat16((float) v);
      case FLOAT32 -> Float.floatToRawIntBits((float) v);
      case FLOAT64 -> Double.doubleToRawLongBits(v);
      default -> throw new IllegalArgumentException(result.toString());
    };
  }

  /**
   * Distance in units in the last place between two floating raw values of {@code d}; 0 when both
   * are NaN, {@code Long.MAX_VALUE} when only one is.
   */
  static long ulps(DType d, long a, long b) {
    double x = floating(d, a);
    double y = floating(d, b);
    if (Double.isNaN(x) || Double.isNaN(y)) {
      return Double.isNaN(x) && Double.isNaN(y) ? 0 : Long.MAX_VALUE;
    }
    return Math.abs(ordered(d, a) - ordered(d, b));
  }

  private static long ordered(DType d, long raw) {
    int bits = switch (d) {
      case FLOAT16, BFLOAT16 -> 16;
      case FLOAT32 -> 32;
      default -> 64;
    };
    if (bits == 64) {
      return raw < 0 ? Long.MIN_VALUE - raw : raw;
    }
    long mask = (1L << bits) - 1;
    long v = raw & mask;
    long sign = 1L << (bits - 1);
    return (v & sign) != 0 ? -(v & ~sign & mask) : v;
  }

  /** Edge values of a dtype, as raw bits. */
  static long[] edges(DType d) {
    return switch (d) {
      case BOOL -> new long[] {0, 1};
      case UINT8 -> new long[] {0, 1, 2, 3, 7, 127, 128, 200, 254, 255};
      case INT8 -> new long[] {0, 1, -1, 2, -2, 5, 127, -128, 126, -127, 64, -64};
      case INT16 -> new long[] {0, 1, -1, 3, -7, 255, 256, 32767, -32768, 32766, -32767, 1000};
      case UINT16 -> new long[] {0, 1, 2, 255, 256, 32767, 32768, 65534, 65535, 4000};
      case INT32 -> new long[] {0, 1, -1, 3, -9, 65535, 65536, Integer.MAX_VALUE,
          Integer.MIN_VALUE, Integer.MAX_VALUE - 1, Integer.MIN_VALUE + 1, 16777217};
      case UINT32 -> new long[] {0, 1, 2, 65535, 0x7FFF_FFFFL, 0x8000_0000L, 0xFFFF_FFFEL,
          0xFFFF_FFFFL, 16777217};
      case INT64 -> new long[] {0, 1, -1, 3, -11, Long.MAX_VALUE, Long.MIN_VALUE,
          Long.MAX_VALUE - 1, Long.MIN_VALUE + 1, 1L << 53, (1L << 53) + 1, 1L << 32};
      case UINT64 -> new long[] {0, 1, 2, 255, 1L << 32, Long.MAX_VALUE, Long.MIN_VALUE, -1L,
          -2L, (1L << 53) + 1};
      case FLOAT16 -> new long[] {0x0000, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x7E00, 0x0001,
          0x8001, 0x03FF, 0x0400, 0x7BFF, 0xFBFF, 0x3555, 0x4248};
      case BFLOAT16 -> new long[] {0x0000, 0x8000, 0x3F80, 0xBF80, 0x7F80, 0xFF80, 0x7FC0, 0x0001,
          0x8001, 0x007F, 0x0080, 0x7F7F, 0xFF7F, 0x3EAB, 0x4049};
      case FLOAT32 -> floats(0f, -0f, 1f, -1f, 0.5f, -2.5f, 3.5f, Float.MIN_VALUE,
          -Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE,
          Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, 1e-40f, 65504f, 65520f,
          1.0009766f, 1.0014648f, 100f, -30f);
      case FLOAT64 -> doubles(0d, -0d, 1d, -1d, 0.5, -2.5, 3.5, Double.MIN_VALUE,
          -Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, -Double.MAX_VALUE,
          Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, 1e-310, 1e300,
          9007199254740993d, 0.1, 700, -745);
      default -> throw new IllegalArgumentException(d.toString());
    };
  }

  /** A random raw value of {@code d}, spread over magnitudes. */
  static long random(DType d, java.util.Random r) {
    return switch (d) {
      case BOOL -> r.nextInt(2);
      case FLOAT16 -> Float.floatToFloat16((float) (r.nextGaussian() * Math.pow(10, r.nextInt(5) - 2)));
      case BFLOAT16 -> floatToBfloat16((float) (r.nextGaussian() * Math.pow(10, r.nextInt(9) - 4)));
      case FLOAT32 ->
          Float.floatToRawIntBits((float) (r.nextGaussian() * Math.pow(10, r.nextInt(9) - 4)));
      case FLOAT64 -> Double.doubleToRawLongBits(r.nextGaussian() * Math.pow(10, r.nextInt(13) - 6));
      default -> {
        long v = r.nextInt(4) == 0 ? r.nextLong() : r.nextInt(201) - 100;
        yield narrow(d, v);
      }
    };
  }

  private static long[] floats(float... fs) {
    long[] out = new long[fs.length];
    for (int i = 0; i < fs.length; i++) {
      out[i] = Float.floatToRawIntBits(fs[i]);
    }
    return out;
  }

  private static long[] doubles(double... ds) {
    long[] out = new long[ds.length];
    for (int i = 0; i < ds.length; i++) {
      out[i] = Double.doubleToRawLongBits(ds[i]);
    }
    return out;
  }
}
