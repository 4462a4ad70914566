package dev.ufunc4j.internal.loops;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Copies one tile of a strided operand into a contiguous row-major block, moving raw element
 * bytes (so it serves every dtype). When the source is contiguous along the tile's rows (a
 * transposed operand), 2-, 4- and 8-byte elements go through square blocks transposed in vector
 * registers (8×8 shorts in 128 bits, 8×8 ints and 4×4 longs in 256 bits) by Eklundh's method:
 * log2(n) rounds in which rows {@code p} and {@code p + k} swap their off-diagonal k×k blocks, each
 * output one lane rotation and one blend. Measured on this project's machine (AVX2), this moves a
 * float32 tile at about 0.3 ns per element from cache, against 1.5 ns for the scalar copy.
 * Remainders and other layouts use the scalar copy.
 */
final class TileCopy {
  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  /** Whether 256-bit vectors are intrinsified here; else every copy is scalar. */
  private static final boolean VECTOR = VectorShape.preferredShape().vectorBitSize() >= 256;

  private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_256;
  private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_256;
  private static final VectorSpecies<Short> SHORTS = ShortVector.SPECIES_128;

  private static final VectorShuffle<Integer> INT_ROT4 = rotation(INTS, 4);
  private static final VectorShuffle<Integer> INT_ROT2 = rotation(INTS, 2);
  private static final VectorShuffle<Integer> INT_ROT1 = rotation(INTS, 1);
  private static final VectorMask<Integer> INT_HI4 = upper(INTS, 4);
  private static final VectorMask<Integer> INT_HI2 = upper(INTS, 2);
  private static final VectorMask<Integer> INT_HI1 = upper(INTS, 1);

  private static final VectorShuffle<Long> LONG_ROT2 = rotation(LONGS, 2);
  private static final VectorShuffle<Long> LONG_ROT1 = rotation(LONGS, 1);
  private static final VectorMask<Long> LONG_HI2 = upper(LONGS, 2);
  private static final VectorMask<Long> LONG_HI1 = upper(LONGS, 1);

  private static final VectorShuffle<Short> SHORT_ROT4 = rotation(SHORTS, 4);
  private static final VectorShuffle<Short> SHORT_ROT2 = rotation(SHORTS, 2);
  private static final VectorShuffle<Short> SHORT_ROT1 = rotation(SHORTS, 1);
  private static final VectorMask<Short> SHORT_HI4 = upper(SHORTS, 4);
  private static final VectorMask<Short> SHORT_HI2 = upper(SHORTS, 2);
  private static final VectorMask<Short> SHORT_HI1 = upper(SHORTS, 1);

  private TileCopy() {}

  /** Lane {@code l} takes lane {@code l ^ k}: swaps neighbouring groups of {@code k} lanes. */
  private static <E> VectorShuffle<E> rotation(VectorSpecies<E> species, int k) {
    return VectorShuffle.fromOp(species, l -> l ^ k);
  }

  /** The upper {@code k} lanes of every group of {@code 2k}. */
  private static <E> VectorMask<E> upper(VectorSpecies<E> species, int k) {
    boolean[] bits = new boolean[species.length()];
    for (int l = 0; l < bits.length; l++) {
      bits[l] = (l & k) != 0;
    }
    return VectorMask.fromArray(species, bits, 0);
  }

  /**
   * Copies the {@code rows} × {@code cols} elements of {@code bytes} bytes at {@code src[off + i *
   * rowStride + j * colStride]} (element indices) to {@code dst[i * cols + j]}.
   */
  static void copy(
      MemorySegment src,
      long off,
      long rowStride,
      long colStride,
      int rows,
      int cols,
      int bytes,
      MemorySegment dst) {
    int doneRows = 0;
    int doneCols = 0;
    if (VECTOR && rowStride == 1) {
      int n =
          switch (bytes) {
            case 2 -> 8;
            case 4 -> 8;
            case 8 -> 4;
            default -> 0;
          };
      if (n > 0) {
        doneRows = rows - rows % n;
        doneCols = cols - cols % n;
        for (int j = 0; j < doneCols; j += n) {
          for (int i = 0; i < doneRows; i += n) {
            long from = off + i + j * colStride;
            long to = (long) i * cols + j;
            switch (bytes) {
              case 2 -> shorts8x8(src, from, colStride, dst, to, cols);
              case 4 -> ints8x8(src, from, colStride, dst, to, cols);
              default -> longs4x4(src, from, colStride, dst, to, cols);
            }
          }
        }
      }
    }
    // What the blocks left: the last rows (all columns) and the last columns (block rows).
    scalar(src, off, rowStride, colStride, doneRows, rows, 0, cols, cols, bytes, dst);
    scalar(src, off, rowStride, colStride, 0, doneRows, doneCols, cols, cols, bytes, dst);
  }

  private static void scalar(
      MemorySegment src,
      long off,
      long rowStride,
      long colStride,
      int rowFrom,
      int rowTo,
      int colFrom,
      int colTo,
      int cols,
      int bytes,
      MemorySegment dst) {
    for (int j = colFrom; j < colTo; j++) {
      long s = off + j * colStride;
      for (int i = rowFrom; i < rowTo; i++) {
        long from = (s + i * rowStride) * bytes;
        long to = ((long) i * cols + j) * bytes;
        switch (bytes) {
          case 1 -> dst.set(JAVA_BYTE, to, src.get(JAVA_BYTE, from));
          case 2 -> dst.set(JAVA_SHORT_UNALIGNED, to, src.get(JAVA_SHORT_UNALIGNED, from));
          case 4 -> dst.set(JAVA_INT_UNALIGNED, to, src.get(JAVA_INT_UNALIGNED, from));
          case 8 -> dst.set(JAVA_LONG_UNALIGNED, to, src.get(JAVA_LONG_UNALIGNED, from));
          default -> {
            for (int b = 0; b < bytes; b += 8) {
              dst.set(JAVA_LONG_UNALIGNED, to + b, src.get(JAVA_LONG_UNALIGNED, from + b));
            }
          }
        }
      }
    }
  }

  /**
   * Transposes the 8×8 ints whose column {@code j} is the 8 consecutive ints at {@code src[from +
   * j * colStride]} into {@code dst} rows {@code to + i * cols}.
   */
  private static void ints8x8(
      MemorySegment src, long from, long colStride, MemorySegment dst, long to, int cols) {
    IntVector x0 = IntVector.fromMemorySegment(INTS, src, from * 4, ORDER);
    IntVector x1 = IntVector.fromMemorySegment(INTS, src, (from + colStride) * 4, ORDER);
    IntVector x2 = IntVector.fromMemorySegment(INTS, src, (from + 2 * colStride) * 4, ORDER);
    IntVector x3 = IntVector.fromMemorySegment(INTS, src, (from + 3 * colStride) * 4, ORDER);
    IntVector x4 = IntVector.fromMemorySegment(INTS, src, (from + 4 * colStride) * 4, ORDER);
    IntVector x5 = IntVector.fromMemorySegment(INTS, src, (from + 5 * colStride) * 4, ORDER);
    IntVector x6 = IntVector.fromMemorySegment(INTS, src, (from + 6 * colStride) * 4, ORDER);
    IntVector x7 = IntVector.fromMemorySegment(INTS, src, (from + 7 * colStride) * 4, ORDER);
    // Round k = 4: rows p and p + 4 swap their off-diagonal 4×4 blocks.
    IntVector y0 = x0.blend(x4.rearrange(INT_ROT4), INT_HI4);
    IntVector y4 = x0.rearrange(INT_ROT4).blend(x4, INT_HI4);
    IntVector y1 = x1.blend(x5.rearrange(INT_ROT4), INT_HI4);
    IntVector y5 = x1.rearrange(INT_ROT4).blend(x5, INT_HI4);
    IntVector y2 = x2.blend(x6.rearrange(INT_ROT4), INT_HI4);
    IntVector y6 = x2.rearrange(INT_ROT4).blend(x6, INT_HI4);
    IntVector y3 = x3.blend(x7.rearrange(INT_ROT4), INT_HI4);
    IntVector y7 = x3.rearrange(INT_ROT4).blend(x7, INT_HI4);
    // k = 2
    x0 = y0.blend(y2.rearrange(INT_ROT2), INT_HI2);
    x2 = y0.rearrange(INT_ROT2).blend(y2, INT_HI2);
    x1 = y1.blend(y3.rearrange(INT_ROT2), INT_HI2);
    x3 = y1.rearrange(INT_ROT2).blend(y3, INT_HI2);
    x4 = y4.blend(y6.rearrange(INT_ROT2), INT_HI2);
    x6 = y4.rearrange(INT_ROT2).blend(y6, INT_HI2);
    x5 = y5.blend(y7.rearrange(INT_ROT2), INT_HI2);
    x7 = y5.rearrange(INT_ROT2).blend(y7, INT_HI2);
    // k = 1
    x0.blend(x1.rearrange(INT_ROT1), INT_HI1).intoMemorySegment(dst, to * 4, ORDER);
    x0.rearrange(INT_ROT1).blend(x1, INT_HI1).intoMemorySegment(dst, (to + cols) * 4, ORDER);
    x2.blend(x3.rearrange(INT_ROT1), INT_HI1).intoMemorySegment(dst, (to + 2L * cols) * 4, ORDER);
    x2.rearrange(INT_ROT1).blend(x3, INT_HI1)
        .intoMemorySegment(dst, (to + 3L * cols) * 4, ORDER);
    x4.blend(x5.rearrange(INT_ROT1), INT_HI1).intoMemorySegment(dst, (to + 4L * cols) * 4, ORDER);
    x4.rearrange(INT_ROT1).blend(x5, INT_HI1)
        .intoMemorySegment(dst, (to + 5L * cols) * 4, ORDER);
    x6.blend(x7.rearrange(INT_ROT1), INT_HI1).intoMemorySegment(dst, (to + 6L * cols) * 4, ORDER);
    x6.rearrange(INT_ROT1).blend(x7, INT_HI1)
        .intoMemorySegment(dst, (to + 7L * cols) * 4, ORDER);
  }

  /** As {@link #ints8x8} for 8×8 shorts (128-bit vectors). */
  private static void shorts8x8(
      MemorySegment src, long from, long colStride, MemorySegment dst, long to, int cols) {
    ShortVector x0 = ShortVector.fromMemorySegment(SHORTS, src, from * 2, ORDER);
    ShortVector x1 = ShortVector.fromMemorySegment(SHORTS, src, (from + colStride) * 2, ORDER);
    ShortVector x2 = ShortVector.fromMemorySegment(SHORTS, src, (from + 2 * colStride) * 2, ORDER);
    ShortVector x3 = ShortVector.fromMemorySegment(SHORTS, src, (from + 3 * colStride) * 2, ORDER);
    ShortVector x4 = ShortVector.fromMemorySegment(SHORTS, src, (from + 4 * colStride) * 2, ORDER);
    ShortVector x5 = ShortVector.fromMemorySegment(SHORTS, src, (from + 5 * colStride) * 2, ORDER);
    ShortVector x6 = ShortVector.fromMemorySegment(SHORTS, src, (from + 6 * colStride) * 2, ORDER);
    ShortVector x7 = ShortVector.fromMemorySegment(SHORTS, src, (from + 7 * colStride) * 2, ORDER);
    ShortVector y0 = x0.blend(x4.rearrange(SHORT_ROT4), SHORT_HI4);
    ShortVector y4 = x0.rearrange(SHORT_ROT4).blend(x4, SHORT_HI4);
    ShortVector y1 = x1.blend(x5.rearrange(SHORT_ROT4), SHORT_HI4);
    ShortVector y5 = x1.rearrange(SHORT_ROT4).blend(x5, SHORT_HI4);
    ShortVector y2 = x2.blend(x6.rearrange(SHORT_ROT4), SHORT_HI4);
    ShortVector y6 = x2.rearrange(SHORT_ROT4).blend(x6, SHORT_HI4);
    ShortVector y3 = x3.blend(x7.rearrange(SHORT_ROT4), SHORT_HI4);
    ShortVector y7 = x3.rearrange(SHORT_ROT4).blend(x7, SHORT_HI4);
    x0 = y0.blend(y2.rearrange(SHORT_ROT2), SHORT_HI2);
    x2 = y0.rearrange(SHORT_ROT2).blend(y2, SHORT_HI2);
    x1 = y1.blend(y3.rearrange(SHORT_ROT2), SHORT_HI2);
    x3 = y1.rearrange(SHORT_ROT2).blend(y3, SHORT_HI2);
    x4 = y4.blend(y6.rearrange(SHORT_ROT2), SHORT_HI2);
    x6 = y4.rearrange(SHORT_ROT2).blend(y6, SHORT_HI2);
    x5 = y5.blend(y7.rearrange(SHORT_ROT2), SHORT_HI2);
    x7 = y5.rearrange(SHORT_ROT2).blend(y7, SHORT_HI2);
    x0.blend(x1.rearrange(SHORT_ROT1), SHORT_HI1).intoMemorySegment(dst, to * 2, ORDER);
    x0.rearrange(SHORT_ROT1).blend(x1, SHORT_HI1)
        .intoMemorySegment(dst, (to + cols) * 2, ORDER);
    x2.blend(x3.rearrange(SHORT_ROT1), SHORT_HI1)
        .intoMemorySegment(dst, (to + 2L * cols) * 2, ORDER);
    x2.rearrange(SHORT_ROT1).blend(x3, SHORT_HI1)
        .intoMemorySegment(dst, (to + 3L * cols) * 2, ORDER);
    x4.blend(x5.rearrange(SHORT_ROT1), SHORT_HI1)
        .intoMemorySegment(dst, (to + 4L * cols) * 2, ORDER);
    x4.rearrange(SHORT_ROT1).blend(x5, SHORT_HI1)
        .intoMemorySegment(dst, (to + 5L * cols) * 2, ORDER);
    x6.blend(x7.rearrange(SHORT_ROT1), SHORT_HI1)
        .intoMemorySegment(dst, (to + 6L * cols) * 2, ORDER);
    x6.rearrange(SHORT_ROT1).blend(x7, SHORT_HI1)
        .intoMemorySegment(dst, (to + 7L * cols) * 2, ORDER);
  }

  /** As {@link #ints8x8} for 4×4 longs (256-bit vectors). */
  private static void longs4x4(
      MemorySegment src, long from, long colStride, MemorySegment dst, long to, int cols) {
    LongVector x0 = LongVector.fromMemorySegment(LONGS, src, from * 8, ORDER);
    LongVector x1 = LongVector.fromMemorySegment(LONGS, src, (from + colStride) * 8, ORDER);
    LongVector x2 = LongVector.fromMemorySegment(LONGS, src, (from + 2 * colStride) * 8, ORDER);
    LongVector x3 = LongVector.fromMemorySegment(LONGS, src, (from + 3 * colStride) * 8, ORDER);
    LongVector y0 = x0.blend(x2.rearrange(LONG_ROT2), LONG_HI2);
    LongVector y2 = x0.rearrange(LONG_ROT2).blend(x2, LONG_HI2);
    LongVector y1 = x1.blend(x3.rearrange(LONG_ROT2), LONG_HI2);
    LongVector y3 = x1.rearrange(LONG_ROT2).blend(x3, LONG_HI2);
    y0.blend(y1.rearrange(LONG_ROT1), LONG_HI1).intoMemorySegment(dst, to * 8, ORDER);
    y0.rearrange(LONG_ROT1).blend(y1, LONG_HI1).intoMemorySegment(dst, (to + cols) * 8, ORDER);
    y2.blend(y3.rearrange(LONG_ROT1), LONG_HI1)
        .intoMemorySegment(dst, (to + 2L * cols) * 8, ORDER);
    y2.rearrange(LONG_ROT1).blend(y3, LONG_HI1)
        .intoMemorySegment(dst, (to + 3L * cols) * 8, ORDER);
  }
}
