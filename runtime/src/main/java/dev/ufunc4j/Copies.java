package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.elements.Convert;
import dev.ufunc4j.internal.elements.Elements;
import java.lang.foreign.MemorySegment;

/**
 * Element copies between tensors of any layout, converting the dtype element by element with the
 * rules of {@link Convert} ({@code Tensor.to}, {@code copy()}, and the planner's temporaries), and
 * storage fills. In the public layer because it takes tensors.
 */
final class Copies {
  private Copies() {}

  /**
   * Copies {@code src}'s elements into {@code dst} of the same shape (any layout, no internal
   * overlap), converting the dtype element by element.
   */
  static void copyInto(Tensor src, Tensor dst) {
    long n = src.numel();
    if (n == 0) {
      return;
    }
    DType s = src.dtype();
    if (s == dst.dtype() && src.isContiguous() && dst.isContiguous()) {
      long bs = s.byteSize();
      MemorySegment.copy(
          src.segment(), src.offset() * bs, dst.segment(), dst.offset() * bs, n * bs);
      return;
    }
    long[] shape = src.shapeRef();
    long[] srcStrides = src.stridesRef();
    long[] dstStrides = dst.stridesRef();
    int nd = shape.length;
    long[] idx = new long[nd];
    long srcAt = src.offset();
    long dstAt = dst.offset();
    for (long i = 0; i < n; i++) {
      copyElement(src, srcAt, dst, dstAt);
      for (int k = nd - 1; k >= 0; k--) {
        srcAt += srcStrides[k];
        dstAt += dstStrides[k];
        if (++idx[k] < shape[k]) {
          break;
        }
        srcAt -= srcStrides[k] * shape[k];
        dstAt -= dstStrides[k] * shape[k];
        idx[k] = 0;
      }
    }
  }

  private static void copyElement(Tensor src, long srcAt, Tensor dst, long dstAt) {
    DType s = src.dtype();
    DType d = dst.dtype();
    MemorySegment from = src.segment();
    MemorySegment to = dst.segment();
    long sb = srcAt * s.byteSize();
    long db = dstAt * d.byteSize();
    if (!s.isComplex()) {
      long v = Elements.read(from, s, sb);
      if (d.isComplex()) {
        DType dc = d.componentType();
        Elements.write(to, dc, db, Convert.convert(s, dc, v));
        Elements.write(to, dc, db + dc.byteSize(), 0); // +0.0 in every float format
      } else {
        Elements.write(to, d, db, Convert.convert(s, d, v));
      }
      return;
    }
    DType sc = s.componentType();
    long re = Elements.read(from, sc, sb);
    long im = Elements.read(from, sc, sb + sc.byteSize());
    if (d.isComplex()) {
      DType dc = d.componentType();
      Elements.write(to, dc, db, Convert.convert(sc, dc, re));
      Elements.write(to, dc, db + dc.byteSize(), Convert.convert(sc, dc, im));
    } else if (d == DType.BOOL) {
      boolean nonzero = Convert.toBoolean(sc, re) || Convert.toBoolean(sc, im);
      Elements.write(to, d, db, nonzero ? 1 : 0);
    } else {
      Elements.write(to, d, db, Convert.convert(sc, d, re));
    }
  }

  /**
   * Writes the carrier {@code bits} of one real value into every element of a new contiguous
   * tensor at offset 0 (a complex element gets it as its real part; its imaginary part stays 0).
   */
  static void fill(Tensor t, long bits) {
    long numel = t.numel();
    if (bits == 0 || numel == 0) {
      return; // storage is born zeroed
    }
    DType dtype = t.dtype();
    DType c = dtype.componentType();
    int step = dtype.isComplex() ? 2 : 1;
    long count = numel * step;
    MemorySegment segment = t.segment();
    for (long i = 0; i < count; i += step) {
      Elements.write(segment, c, i * c.byteSize(), bits);
    }
  }
}
