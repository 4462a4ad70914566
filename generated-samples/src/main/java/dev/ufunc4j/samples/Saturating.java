package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Elementwise;

/**
 * Saturating 8-bit addition, as in quantised inference and image processing: the exact sum,
 * clamped to the 8-bit range instead of wrapping.
 *
 * <p>A body cannot see the dtype, so the range is in the op's name. The result dtype is the
 * promoted dtype, as for any op: {@code int8 + int8 -> int8} and {@code uint8 + uint8 -> uint8},
 * the cases these ops are for. Wider or mixed inputs ({@code uint8 + int8 -> int16}) still get
 * the exact sum clamped to the op's range, stored in the wider dtype. Floating inputs are refused
 * (there is no {@code double} body). On uint64, {@code Math.min/max} compare unsigned
 * (docs/processor.md): {@code addInt8}'s bound -128 reads as {@code 2^64 - 128}, so every result is
 * 127; {@code addUint8} is right there (up to the wrapping of {@code a + b} past 2^64).
 */
public final class Saturating {

  private Saturating() {}

  /** {@code a + b} clamped to [-128, 127]. */
  @Elementwise
  public static long addInt8(long a, long b) {
    return Math.min(Math.max(a + b, -128L), 127L);
  }

  /** {@code a + b} clamped to [0, 255]. */
  @Elementwise
  public static long addUint8(long a, long b) {
    return Math.min(Math.max(a + b, 0L), 255L);
  }
}
