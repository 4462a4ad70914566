package dev.ufunc4j.internal.elements;

import dev.ufunc4j.dtype.DType;

/**
 * Scalar conversions between every pair of ufunc4j dtypes, with PyTorch's results; the one place
 * that defines them. Internal API: public so that the runtime's other packages, generated kernels'
 * tests and the dispatcher can call it; not meant for users, and it may change.
 *
 * <p><b>Carrier convention.</b> The dtype-generic methods pass a real element as a {@code long}
 * "bits" value: for BOOL 0 or 1; for signed integers the value, sign-extended; for UINT8, UINT16
 * and UINT32 the value, zero-extended; for UINT64 the 64 bits of the unsigned value; for the
 * floating types the raw IEEE (or float8) bit pattern, zero-extended. A complex element is two
 * such carriers of its {@link DType#componentType() component type}.
 *
 * <p><b>Rules</b> (checked against real PyTorch by {@code tools/oracle/gen_casts.py}):
 *
 * <ul>
 *   <li>to BOOL: {@code != 0} (NaN is true; a complex value is true when either part is nonzero);
 *       from BOOL: 0 or 1.
 *   <li>integer to integer: two's-complement wraparound to the target width.
 *   <li>integer to floating: one correctly rounded conversion to float64 or float32; FLOAT16,
 *       BFLOAT16 and the float8 types go through float32 first, as PyTorch does.
 *   <li>floating to floating: FLOAT64 to FLOAT16/BFLOAT16/float8 also goes through float32
 *       (PyTorch's double rounding, reproduced on purpose); every rounding is to nearest even;
 *       FLOAT16, BFLOAT16 and FLOAT8_E5M2 overflow to infinity; FLOAT8_E4M3FN has no infinity and
 *       saturates to ±448 (infinity included), as PyTorch does; NaN stays NaN.
 *   <li>floating to integer: truncation toward zero where the value fits the target. Where it
 *       does not (NaN, ±inf, out of range) PyTorch's result is platform-defined; ufunc4j follows
 *       Java's cast {@code (T) x}, which is also what Vector API lane conversions produce: NaN
 *       → 0; INT32 and INT64 saturate; INT8, INT16, UINT8, UINT16 convert to int32 first
 *       (saturating) and then wrap; UINT32 converts to int64 first and wraps; UINT64 is exact on
 *       [0, 2^64), saturates above, and wraps negative values through int64 (-1 → 2^64-1).
 *   <li>complex to real: the real part, then the real rule; real to complex: imaginary part 0.
 * </ul>
 */
public final class Convert {
  private Convert() {}

  private static final double TWO_63 = 0x1p63;
  private static final double TWO_64 = 0x1p64;

  // ---- 16-bit floats -------------------------------------------------------------------------

  /** The float value of FLOAT16 bits (exact). */
  public static float halfToFloat(short bits) {
    return Float.float16ToFloat(bits);
  }

  /** FLOAT16 bits of {@code f}, rounded to nearest even, overflowing to infinity. */
  public static short floatToHalf(float f) {
    return Float.floatToFloat16(f);
  }

  /** The float value of BFLOAT16 bits (exact: bfloat16 is the top half of a float32). */
  public static float bfloat16ToFloat(short bits) {
    return Float.intBitsToFloat((bits & 0xFFFF) << 16);
  }

  /**
   * BFLOAT16 bits of {@code f}, rounded to nearest even, overflowing to infinity; NaN becomes the
   * canonical quiet NaN 0x7FC0, as in PyTorch's {@code c10::BFloat16}.
   */
  public static short floatToBfloat16(float f) {
    if (Float.isNaN(f)) {
      return (short) 0x7FC0;
    }
    int bits = Float.floatToRawIntBits(f);
    bits += 0x7FFF + ((bits >>> 16) & 1);
    return (short) (bits >>> 16);
  }

  // ---- 8-bit floats --------------------------------------------------------------------------

  /** The float value of FLOAT8_E4M3FN bits (1 sign, 4 exponent bits with bias 7, 3 mantissa). */
  public static float e4m3fnToFloat(byte bits) {
    int b = bits & 0xFF;
    float sign = (b & 0x80) != 0 ? -1f : 1f;
    int exp = (b >>> 3) & 0xF;
    int mant = b & 7;
    if (exp == 15 && mant == 7) {
      return Float.NaN;
    }
    if (exp == 0) {
      return sign * Math.scalb((float) mant, -9);
    }
    return sign * Math.scalb((float) (8 + mant), exp - 10);
  }

  /**
   * FLOAT8_E4M3FN bits of {@code f}: round to nearest even; the format has no infinity, so
   * magnitudes above 448 (infinity included) saturate to ±448 as in PyTorch; NaN gives 0x7F with
   * the sign of {@code f}.
   */
  public static byte floatToE4m3fn(float f) {
    int sign = (Float.floatToRawIntBits(f) >>> 24) & 0x80;
    if (Float.isNaN(f)) {
      return (byte) (0x7F | sign);
    }
    double a = Math.abs((double) f);
    if (a > 448) {
      return (byte) (0x7E | sign);
    }
    return (byte) (roundMinifloat(a, 3, -6, 7) | sign);
  }

  /** The float value of FLOAT8_E5M2 bits: the top byte of a FLOAT16. */
  public static float e5m2ToFloat(byte bits) {
    return Float.float16ToFloat((short) ((bits & 0xFF) << 8));
  }

  /**
   * FLOAT8_E5M2 bits of {@code f}: round to nearest even (directly, not through FLOAT16, which
   * would round twice), overflowing to infinity; NaN gives 0x7F with the sign of {@code f}.
   */
  public static byte floatToE5m2(float f) {
    int sign = (Float.floatToRawIntBits(f) >>> 24) & 0x80;
    if (Float.isNaN(f)) {
      return (byte) (0x7F | sign);
    }
    double a = Math.abs((double) f);
    int code = Double.isInfinite(a) ? 0x7C : Math.min(roundMinifloat(a, 2, -14, 15), 0x7C);
    return (byte) (code | sign);
  }

  /**
   * Magnitude code of {@code a} (finite, non-negative) in a binary format with {@code mbits}
   * mantissa bits, minimum normal exponent {@code emin} and exponent bias {@code bias}. Scaling by
   * powers of two is exact in double, and {@link Math#rint} rounds half to even; a mantissa carry
   * propagates into the exponent field by plain addition.
   */
  private static int roundMinifloat(double a, int mbits, int emin, int bias) {
    if (a < Math.scalb(1.0, emin)) {
      return (int) Math.rint(Math.scalb(a, mbits - emin));
    }
    int e = Math.getExponent(a);
    int m = (int) Math.rint(Math.scalb(a, mbits - e));
    return ((e + bias) << mbits) + (m - (1 << mbits));
  }

  // ---- unsigned 64-bit -----------------------------------------------------------------------

  /** The double nearest to the unsigned value of {@code bits} (rounded to nearest even). */
  public static double uint64ToDouble(long bits) {
    if (bits >= 0) {
      return bits;
    }
    // Halve with a sticky low bit so the single rounding of the long->double cast stays correct.
    return ((double) ((bits >>> 1) | (bits & 1))) * 2.0;
  }

  /** The float nearest to the unsigned value of {@code bits} (rounded to nearest even). */
  public static float uint64ToFloat(long bits) {
    if (bits >= 0) {
      return bits;
    }
    return ((float) ((bits >>> 1) | (bits & 1))) * 2.0f;
  }

  /**
   * UINT64 bits of {@code d}: truncated toward zero; exact on [0, 2^64); NaN → 0; at or above
   * 2^64 → 2^64-1; negative values through Java's {@code (long)} cast (so -1 → 2^64-1).
   */
  public static long doubleToUint64(double d) {
    if (d >= TWO_64) {
      return -1L;
    }
    if (d >= TWO_63) {
      return ((long) (d - TWO_63)) ^ Long.MIN_VALUE;
    }
    return (long) d;
  }

  // ---- dtype-generic (carrier convention of the class comment) ---------------------------------

  /** The value of a real element as a double (exact except for large 64-bit integers). */
  public static double toDouble(DType from, long bits) {
    return switch (from) {
      case BOOL, UINT8, INT8, INT16, INT32, INT64, UINT16, UINT32 -> (double) bits;
      case UINT64 -> uint64ToDouble(bits);
      case FLOAT16 -> halfToFloat((short) bits);
      case BFLOAT16 -> bfloat16ToFloat((short) bits);
      case FLOAT32 -> Float.intBitsToFloat((int) bits);
      case FLOAT64 -> Double.longBitsToDouble(bits);
      case FLOAT8_E4M3FN -> e4m3fnToFloat((byte) bits);
      case FLOAT8_E5M2 -> e5m2ToFloat((byte) bits);
      case COMPLEX32, COMPLEX64, COMPLEX128 -> throw complexCarrier(from);
    };
  }

  /** True when the real element is nonzero (NaN counts as nonzero). */
  public static boolean toBoolean(DType from, long bits) {
    if (from.isIntegral(true)) {
      return bits != 0;
    }
    return toDouble(from, bits) != 0;
  }

  /** Converts one real element of dtype {@code from} to the carrier of real dtype {@code to}. */
  public static long convert(DType from, DType to, long bits) {
    if (from == to) {
      return bits;
    }
    if (to == DType.BOOL) {
      return toBoolean(from, bits) ? 1 : 0;
    }
    if (from.isIntegral(true)) {
      return fromLong(to, bits, from == DType.UINT64);
    }
    // A float32-or-narrower value is exact in double, so FLOAT32 → FLOAT16 still rounds once.
    return fromDouble(to, toDouble(from, bits));
  }

  /**
   * The carrier of real dtype {@code to} for the integer {@code value} (read as unsigned when
   * {@code unsigned}).
   */
  public static long fromLong(DType to, long value, boolean unsigned) {
    return switch (to) {
      case BOOL -> value != 0 ? 1 : 0;
      case UINT8 -> value & 0xFF;
      case INT8 -> (byte) value;
      case INT16 -> (short) value;
      case UINT16 -> value & 0xFFFF;
      case INT32 -> (int) value;
      case UINT32 -> value & 0xFFFF_FFFFL;
      case INT64, UINT64 -> value;
      case FLOAT64 -> Double.doubleToRawLongBits(unsigned ? uint64ToDouble(value) : (double) value);
      case FLOAT32, FLOAT16, BFLOAT16, FLOAT8_E4M3FN, FLOAT8_E5M2 ->
          fromFloat(to, unsigned ? uint64ToFloat(value) : (float) value);
      case COMPLEX32, COMPLEX64, COMPLEX128 -> throw complexCarrier(to);
    };
  }

  /** The carrier of real dtype {@code to} for the double {@code value}. */
  public static long fromDouble(DType to, double value) {
    return switch (to) {
      case BOOL -> value != 0 ? 1 : 0;
      case UINT8 -> ((int) value) & 0xFF;
      case INT8 -> (byte) value;
      case INT16 -> (short) value;
      case UINT16 -> (char) value;
      case INT32 -> (int) value;
      case UINT32 -> ((long) value) & 0xFFFF_FFFFL;
      case INT64 -> (long) value;
      case UINT64 -> doubleToUint64(value);
      case FLOAT64 -> Double.doubleToRawLongBits(value);
      // PyTorch converts double to the narrow floats through float: round to float first.
      case FLOAT32, FLOAT16, BFLOAT16, FLOAT8_E4M3FN, FLOAT8_E5M2 -> fromFloat(to, (float) value);
      case COMPLEX32, COMPLEX64, COMPLEX128 -> throw complexCarrier(to);
    };
  }

  /** The carrier of a floating dtype {@code to} for the float {@code value}. */
  private static long fromFloat(DType to, float value) {
    return switch (to) {
      case FLOAT32 -> Float.floatToRawIntBits(value) & 0xFFFF_FFFFL;
      case FLOAT16 -> floatToHalf(value) & 0xFFFF;
      case BFLOAT16 -> floatToBfloat16(value) & 0xFFFF;
      case FLOAT8_E4M3FN -> floatToE4m3fn(value) & 0xFF;
      case FLOAT8_E5M2 -> floatToE5m2(value) & 0xFF;
      default -> fromDouble(to, value);
    };
  }

  private static IllegalArgumentException complexCarrier(DType t) {
    return new IllegalArgumentException(
        "dtype " + t + " is complex: convert its " + t.componentType() + " components one by one");
  }
}
