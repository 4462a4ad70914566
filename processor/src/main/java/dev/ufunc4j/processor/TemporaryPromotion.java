package dev.ufunc4j.processor;

import dev.ufunc4j.dtype.DType;

/**
 * TEMPORARY: a copy of the default promotion table until {@code dev.ufunc4j.dtype.Promotion} (issue
 * 2) lands; replace calls of {@link #promoteTypes} by {@code Promotion.promoteTypes} at merge and
 * delete this class.
 *
 * <p>PyTorch's {@code c10::promoteTypes} (bool &lt; integral &lt; floating &lt; complex; u8 + i8 →
 * i16; bf16 + f16 → f32) extended for UINT16/32/64 as DESIGN.md says: unsigned + bool → the
 * unsigned; unsigned + unsigned → the wider; unsigned + signed → the smallest signed type holding
 * both ranges, u64 + signed → FLOAT64; unsigned + floating/complex → that floating/complex type.
 * Float8 types promote with nothing but themselves.
 */
final class TemporaryPromotion {

  private TemporaryPromotion() {}

  /** The promoted dtype, or null where the default policy refuses the pair (float8 mixes). */
  static DType promoteTypes(DType a, DType b) {
    if (a == b) {
      return a;
    }
    if (a.isFloat8() || b.isFloat8()) {
      return null;
    }
    if (a.isComplex() || b.isComplex()) {
      DType ca = a.isComplex() ? a : null;
      DType cb = b.isComplex() ? b : null;
      DType wider = ca == null ? cb : cb == null ? ca : wider(ca, cb);
      DType other = ca == null ? a : cb == null ? b : wider;
      if (other.isFloatingPoint()) {
        // Component precision is the wider of the two; f16 with bf16 components gives f32.
        DType comp = promoteTypes(wider.componentType(), other);
        return comp.toComplex();
      }
      return wider;
    }
    if (a.isFloatingPoint() || b.isFloatingPoint()) {
      if (a.isFloatingPoint() && b.isFloatingPoint()) {
        if (a.byteSize() == 2 && b.byteSize() == 2) {
          return DType.FLOAT32; // float16 with bfloat16
        }
        return a.byteSize() >= b.byteSize() ? a : b;
      }
      return a.isFloatingPoint() ? a : b;
    }
    if (a == DType.BOOL) {
      return b;
    }
    if (b == DType.BOOL) {
      return a;
    }
    boolean ua = a.isUnsigned();
    boolean ub = b.isUnsigned();
    if (ua == ub) {
      return a.byteSize() >= b.byteSize() ? a : b;
    }
    DType unsigned = ua ? a : b;
    DType signed = ua ? b : a;
    if (signed.byteSize() > unsigned.byteSize()) {
      return signed;
    }
    return switch (unsigned) {
      case UINT8 -> DType.INT16;
      case UINT16 -> DType.INT32;
      case UINT32 -> DType.INT64;
      default -> DType.FLOAT64;
    };
  }

  private static DType wider(DType a, DType b) {
    return a.byteSize() >= b.byteSize() ? a : b;
  }
}
