package dev.ufunc4j;

import java.lang.foreign.MemorySegment;

/**
 * The one copy loop behind the ops that move elements without computing: {@code dst[i0, ..., ik]
 * = src[m0(i0), ..., mk(ik)]}, each dimension with its own index map ({@code null} is the
 * identity). {@code flip} maps {@code i -> n - 1 - i}, {@code roll} {@code i -> (i - s) mod n},
 * {@code repeat}/{@code tile} {@code i -> i mod n}, {@code indexSelect} {@code i -> indices[i]}.
 * Source and destination have the same dtype; the caller checked every index. Rows whose last
 * dimension is unmapped and contiguous on both sides are copied as blocks.
 */
final class IndexMaps {
  private IndexMaps() {}

  static void copy(Tensor src, long[][] maps, Tensor dst) {
    long n = dst.numel();
    if (n == 0) {
      return;
    }
    long[] shape = dst.shapeRef();
    int nd = shape.length;
    if (nd == 0) {
      copyElements(src, src.offset(), dst, dst.offset(), 1, 0, 0);
      return;
    }
    long[] ss = src.stridesRef();
    long[] ds = dst.stridesRef();
    int last = nd - 1;
    long rowLength = shape[last];
    boolean rowMapped = maps[last] != null;
    long[] idx = new long[nd];
    long rows = n / rowLength;
    for (long r = 0; r < rows; r++) {
      long srcAt = src.offset();
      long dstAt = dst.offset();
      for (int k = 0; k < last; k++) {
        long i = idx[k];
        srcAt += (maps[k] == null ? i : maps[k][(int) i]) * ss[k];
        dstAt += i * ds[k];
      }
      if (rowMapped) {
        long[] m = maps[last];
        for (int j = 0; j < rowLength; j++) {
          copyElements(src, srcAt + m[j] * ss[last], dst, dstAt + j * ds[last], 1, 0, 0);
        }
      } else {
        copyElements(src, srcAt, dst, dstAt, rowLength, ss[last], ds[last]);
      }
      for (int k = last - 1; k >= 0; k--) {
        if (++idx[k] < shape[k]) {
          break;
        }
        idx[k] = 0;
      }
    }
  }

  /** {@code count} elements from {@code srcAt} stepping {@code srcStep} to {@code dstAt}. */
  private static void copyElements(
      Tensor src, long srcAt, Tensor dst, long dstAt, long count, long srcStep, long dstStep) {
    int bytes = src.dtype().byteSize();
    MemorySegment from = src.segment();
    MemorySegment to = dst.segment();
    if (count > 1 && srcStep == 1 && dstStep == 1) {
      MemorySegment.copy(from, srcAt * bytes, to, dstAt * bytes, count * bytes);
      return;
    }
    for (long j = 0; j < count; j++) {
      MemorySegment.copy(
          from, (srcAt + j * srcStep) * bytes, to, (dstAt + j * dstStep) * bytes, bytes);
    }
  }

  /** The map {@code i -> i mod size} over {@code length} indices ({@code repeat}, {@code tile}). */
  static long[] modulo(long length, long size) {
    long[] m = new long[Math.toIntExact(length)];
    for (int i = 0; i < m.length; i++) {
      m[i] = i % size;
    }
    return m;
  }
}
