package dev.ufunc4j.internal.elements;

import dev.ufunc4j.internal.memory.ScopeMemory;
import dev.ufunc4j.dtype.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Reads and writes one element of a native segment in the carrier convention of {@link Convert}.
 * Internal API (public for the runtime's packages). Byte offsets, native byte order; the caller has
 * checked the bounds (the segment checks them again).
 */
public final class Elements {
  private Elements() {}

  /**
   * The carrier of the real element of dtype {@code t} at {@code byteOffset}.
   *
   * @throws IllegalStateException for a tensor of a closed TensorScope
   * @throws WrongThreadException for a tensor of another thread's TensorScope
   */
  public static long read(MemorySegment seg, DType t, long byteOffset) {
    try {
      return readChecked(seg, t, byteOffset);
    } catch (IllegalStateException | WrongThreadException e) {
      throw ScopeMemory.explain(seg, e);
    }
  }

  private static long readChecked(MemorySegment seg, DType t, long byteOffset) {
    return switch (t) {
      case BOOL -> seg.get(ValueLayout.JAVA_BYTE, byteOffset) != 0 ? 1 : 0;
      case INT8 -> seg.get(ValueLayout.JAVA_BYTE, byteOffset);
      case UINT8, FLOAT8_E4M3FN, FLOAT8_E5M2 -> seg.get(ValueLayout.JAVA_BYTE, byteOffset) & 0xFF;
      case INT16 -> seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, byteOffset);
      case UINT16, FLOAT16, BFLOAT16 ->
          seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, byteOffset) & 0xFFFF;
      case INT32 -> seg.get(ValueLayout.JAVA_INT_UNALIGNED, byteOffset);
      case UINT32, FLOAT32 -> seg.get(ValueLayout.JAVA_INT_UNALIGNED, byteOffset) & 0xFFFF_FFFFL;
      case INT64, UINT64, FLOAT64 -> seg.get(ValueLayout.JAVA_LONG_UNALIGNED, byteOffset);
      case COMPLEX32, COMPLEX64, COMPLEX128 ->
          throw new IllegalArgumentException("read a complex element as two " + t.componentType());
    };
  }

  /**
   * Stores the carrier {@code bits} of a real element of dtype {@code t} at {@code byteOffset}.
   *
   * @throws IllegalStateException for a tensor of a closed TensorScope
   * @throws WrongThreadException for a tensor of another thread's TensorScope
   */
  public static void write(MemorySegment seg, DType t, long byteOffset, long bits) {
    try {
      writeChecked(seg, t, byteOffset, bits);
    } catch (IllegalStateException | WrongThreadException e) {
      throw ScopeMemory.explain(seg, e);
    }
  }

  private static void writeChecked(MemorySegment seg, DType t, long byteOffset, long bits) {
    switch (t.byteSize()) {
      case 1 -> seg.set(ValueLayout.JAVA_BYTE, byteOffset, (byte) bits);
      case 2 -> seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, byteOffset, (short) bits);
      case 4 -> seg.set(ValueLayout.JAVA_INT_UNALIGNED, byteOffset, (int) bits);
      case 8 -> seg.set(ValueLayout.JAVA_LONG_UNALIGNED, byteOffset, bits);
      default -> throw new IllegalArgumentException("write a complex element as two parts: " + t);
    }
  }
}
