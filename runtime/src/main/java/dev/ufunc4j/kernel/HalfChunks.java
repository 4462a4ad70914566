package dev.ufunc4j.kernel;

import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * float16 conversions of whole chunks, for generated kernels: their contiguous loops convert each
 * float16 operand's next {@link #CHUNK} elements into a float array, run the float32 body on the
 * arrays with vector loads, and convert the result's chunk back. These scalar loops over {@link
 * Float#float16ToFloat} and {@link Float#floatToFloat16} are what C2's auto-vectorizer turns into
 * the hardware conversions ({@code vcvtph2ps}/{@code vcvtps2ph} with F16C or AVX-512), which the
 * Vector API of JDK 25 has no operator for; the bit tricks they replace cost ~45 lanewise
 * operations per 8 elements (docs/processor.md, "float16 speed", has the numbers).
 *
 * <p>Kernels whose float16 body is plain arithmetic ({@code + - * /}, negation, literals) fuse all of
 * it into one scalar loop instead: converted loads, the body in float and the converted store into
 * this thread's {@link #halves} array, which SuperWord vectorizes as long as the loop stores into an
 * array (a loop that loads from one native segment and stores into another is not vectorized by
 * JDK 25: the two may overlap); {@link #storeHalves} then makes NaNs canonical and copies the chunk
 * out.
 *
 * <p>The arrays are per thread and allocated once: {@link #buffers} and {@link #halves} allocate
 * nothing after a thread's first call.
 */
public final class HalfChunks {
  /** Elements per chunk: the float arrays of a two-input kernel (12 KiB) stay in L1. */
  public static final int CHUNK = 1024;

  private static final ThreadLocal<float[][]> BUFFERS =
      ThreadLocal.withInitial(() -> new float[0][]);

  private static final ThreadLocal<short[]> HALVES =
      ThreadLocal.withInitial(() -> new short[CHUNK]);

  private static final VectorSpecies<Short> SHORTS = ShortVector.SPECIES_PREFERRED;

  private HalfChunks() {}

  /**
   * {@return this thread's array of {@link #CHUNK} float16 bit patterns, for {@link #storeHalves}}
   */
  public static short[] halves() {
    return HALVES.get();
  }

  /**
   * Element {@code offset + j} of {@code dst} = {@code halves[j]} for {@code j < length}, with
   * every NaN replaced by c10's quiet NaN {@code 0x7E00} of the same sign (as the float kernels
   * store); {@code halves} is overwritten with the stored values.
   *
   * @param halves the 16-bit values
   * @param dst where they are stored
   * @param length the number of elements
   * @param offset the storage offset of the first element, in elements
   */
  public static void storeHalves(short[] halves, int length, MemorySegment dst, long offset) {
    int bound = SHORTS.loopBound(length);
    for (int j = 0; j < bound; j += SHORTS.length()) {
      ShortVector h = ShortVector.fromArray(SHORTS, halves, j);
      VectorMask<Short> nan = h.and((short) 0x7FFF).compare(VectorOperators.GT, (short) 0x7C00);
      h.blend(h.or((short) 0x7E00).and((short) 0xFE00), nan).intoArray(halves, j);
    }
    for (int j = bound; j < length; j++) {
      if ((halves[j] & 0x7FFF) > 0x7C00) {
        halves[j] = (short) ((halves[j] & 0x8000) | 0x7E00);
      }
    }
    MemorySegment.copy(halves, 0, dst, JAVA_SHORT_UNALIGNED, offset * 2, length);
  }

  /**
   * {@return this thread's chunk arrays, at least {@code count} of {@link #CHUNK} floats each}
   *
   * @param count how many buffers
   */
  public static float[][] buffers(int count) {
    float[][] b = BUFFERS.get();
    if (b.length < count) {
      float[][] grown = new float[count][];
      for (int k = 0; k < count; k++) {
        grown[k] = k < b.length ? b[k] : new float[CHUNK];
      }
      BUFFERS.set(grown);
      b = grown;
    }
    return b;
  }

  /**
   * {@code dst[j] = float16 element (offset + j) of src}, exactly, for {@code j < length}.
   *
   * @param src the 16-bit values
   * @param dst the floats written
   * @param offset the storage offset of the first element, in elements
   * @param length the number of elements
   */
  public static void toFloats(MemorySegment src, long offset, float[] dst, int length) {
    for (int j = 0; j < length; j++) {
      dst[j] = Float.float16ToFloat(src.getAtIndex(JAVA_SHORT_UNALIGNED, offset + j));
    }
  }

  /**
   * Element {@code offset + j} of {@code dst} = {@code src[j]} rounded to float16 (nearest even),
   * for {@code j < length}. A NaN's payload is truncated: callers pass canonical NaNs
   * ({@code 0x7FC00000} with a sign), which become {@code 0x7E00} with that sign.
   *
   * @param src the floats
   * @param dst the 16-bit values written
   * @param length the number of elements
   * @param offset the storage offset of the first element, in elements
   */
  public static void toHalves(float[] src, int length, MemorySegment dst, long offset) {
    for (int j = 0; j < length; j++) {
      dst.setAtIndex(JAVA_SHORT_UNALIGNED, offset + j, Float.floatToFloat16(src[j]));
    }
  }
}
