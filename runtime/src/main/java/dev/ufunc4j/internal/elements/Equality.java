package dev.ufunc4j.internal.elements;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.Promotion;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * {@code torch.equal}'s element comparison over two strided tensors of the same shape, in place:
 * no converted copies. Internal API (public for {@code Tensor}).
 *
 * <p>The rule, checked against torch.equal by {@code EqualTest}: two elements are equal when their
 * values are equal after conversion to the operands' common dtype ({@link
 * Promotion#promoteTypes}); so int64 2^24 + 1 equals float32 2^24, NaN equals nothing, and -0.0
 * equals 0.0. Float8 beside another dtype has no common dtype and is refused, as by torch. Two
 * integer dtypes compare exactly as values (uint64 2^63 is not int64 -2^63), which is what the
 * common dtype gives wherever PyTorch has one, and NumPy's {@code ==} where it has none.
 *
 * <p>A complex tensor is compared as its real components: the view gains a last dimension of 2
 * (re, im) with stride 1 in component units. Beside a real tensor, the real parts are compared with
 * it and the imaginary parts must all be zero.
 */
public final class Equality {
  private Equality() {}

  /** A strided view of real elements of {@code dtype}; offset and strides in elements. */
  private record View(MemorySegment seg, DType dtype, long offset, long[] strides) {}

  /** How one row of elements is compared; chosen once per call, then a tight loop per kind. */
  private enum Kind {
    FLOAT32, FLOAT64, FLOAT32_FLOAT64, SAME_BITS, BOOL, INTEGERS, CONVERTED
  }

  /**
   * True when every element of tensor a (storage {@code segA}, dtype {@code a}, element offset and
   * strides) equals the element of tensor b at the same index, both of shape {@code shape}.
   *
   * @throws dev.ufunc4j.dtype.PromotionException when the dtypes have no common dtype (float8
   *     beside another dtype)
   */
  public static boolean equal(
      MemorySegment segA, DType a, long offsetA, long[] stridesA,
      MemorySegment segB, DType b, long offsetB, long[] stridesB,
      long[] shape) {
    View x = new View(segA, a, offsetA, stridesA);
    View y = new View(segB, b, offsetB, stridesB);
    boolean integers = a.isIntegral(true) && b.isIntegral(true);
    // Integers compare exactly, in no dtype; others in the common one (refusing float8 mixes).
    DType common = integers ? a : Promotion.promoteTypes(a, b);
    for (long s : shape) {
      if (s == 0) {
        return true;
      }
    }
    if (!common.isComplex()) {
      return compare(x, y, shape, common);
    }
    DType component = common.componentType();
    long[] pairs = append(shape, 2);
    if (a.isComplex() && b.isComplex()) {
      return compare(components(x, 0, true), components(y, 0, true), pairs, component);
    }
    View real = a.isComplex() ? y : x;
    View complex = a.isComplex() ? x : y;
    return compare(real, components(complex, 0, false), shape, component)
        && allZero(components(complex, 1, false), shape);
  }

  /**
   * A complex view as its components: with {@code pairs}, all of them (a last dimension of 2);
   * otherwise only component {@code part} (0 real, 1 imaginary) of each element.
   */
  private static View components(View v, int part, boolean pairs) {
    long[] strides = new long[v.strides.length + (pairs ? 1 : 0)];
    for (int d = 0; d < v.strides.length; d++) {
      strides[d] = 2 * v.strides[d];
    }
    if (pairs) {
      strides[v.strides.length] = 1;
    }
    return new View(v.seg, v.dtype.componentType(), 2 * v.offset + part, strides);
  }

  private static long[] append(long[] shape, long size) {
    long[] s = Arrays.copyOf(shape, shape.length + 1);
    s[shape.length] = size;
    return s;
  }

  /** Every element of {@code x} equals the element of {@code y} at its index, in {@code k}. */
  private static boolean compare(View x, View y, long[] shape, DType k) {
    Kind kind = kindOf(x.dtype, y.dtype, k);
    if (kind == Kind.FLOAT32_FLOAT64 && x.dtype == DType.FLOAT64) {
      return compare(y, x, shape, k); // the float32 operand first, as the loop reads them
    }
    return forEachRow(x, y, shape, (ox, sx, oy, sy, n) -> row(kind, k, x, ox, sx, y, oy, sy, n));
  }

  private static Kind kindOf(DType a, DType b, DType k) {
    if (a.isIntegral(true) && b.isIntegral(true)) {
      return a != b ? Kind.INTEGERS : a == DType.BOOL ? Kind.BOOL : Kind.SAME_BITS;
    }
    if (a == DType.FLOAT32 && b == DType.FLOAT32) {
      return Kind.FLOAT32;
    }
    if (a == DType.FLOAT64 && b == DType.FLOAT64) {
      return Kind.FLOAT64;
    }
    boolean f32f64 = (a == DType.FLOAT32 && b == DType.FLOAT64)
        || (a == DType.FLOAT64 && b == DType.FLOAT32);
    return f32f64 && k == DType.FLOAT64 ? Kind.FLOAT32_FLOAT64 : Kind.CONVERTED;
  }

  /** One row of {@code n} elements of each view, from element offsets with element strides. */
  @FunctionalInterface
  private interface Row {
    boolean equal(long offsetX, long strideX, long offsetY, long strideY, long n);
  }

  /**
   * Runs {@code row} over rows of both views, stopping at the first unequal row. Equality does not
   * depend on the order of the elements, so the dimensions are first ordered by {@code x}'s strides
   * (largest outermost), as PyTorch's TensorIterator does: a transposed pair then reads memory in
   * order, and two views that are contiguous in that order are one row. The shape has no 0.
   */
  private static boolean forEachRow(View x, View y, long[] shape, Row row) {
    int nd = shape.length;
    Integer[] order = new Integer[nd];
    for (int d = 0; d < nd; d++) {
      order[d] = d;
    }
    // Stable: equal strides (size-1 and broadcast dimensions) keep their row-major order.
    Arrays.sort(order, (p, q) -> Long.compare(Math.abs(x.strides[q]), Math.abs(x.strides[p])));
    long[] size = new long[nd];
    long[] stridesX = new long[nd];
    long[] stridesY = new long[nd];
    for (int d = 0; d < nd; d++) {
      size[d] = shape[order[d]];
      stridesX[d] = x.strides[order[d]];
      stridesY[d] = y.strides[order[d]];
    }
    return forEachRowInOrder(
        new View(x.seg, x.dtype, x.offset, stridesX),
        new View(y.seg, y.dtype, y.offset, stridesY),
        size,
        row);
  }

  /** {@link #forEachRow} over the dimensions as they are, outermost first. */
  private static boolean forEachRowInOrder(View x, View y, long[] shape, Row row) {
    int nd = shape.length;
    long numel = 1;
    for (long s : shape) {
      numel *= s;
    }
    if (nd == 0 || (contiguous(shape, x.strides) && contiguous(shape, y.strides))) {
      return row.equal(x.offset, 1, y.offset, 1, numel);
    }
    long len = shape[nd - 1];
    long sx = x.strides[nd - 1];
    long sy = y.strides[nd - 1];
    long[] idx = new long[nd - 1];
    long ox = x.offset;
    long oy = y.offset;
    for (long rows = numel / len; rows > 0; rows--) {
      if (!row.equal(ox, sx, oy, sy, len)) {
        return false;
      }
      for (int d = nd - 2; d >= 0; d--) { // the next row: an odometer over the outer dimensions
        ox += x.strides[d];
        oy += y.strides[d];
        if (++idx[d] < shape[d]) {
          break;
        }
        ox -= x.strides[d] * shape[d];
        oy -= y.strides[d] * shape[d];
        idx[d] = 0;
      }
    }
    return true;
  }

  private static boolean contiguous(long[] shape, long[] strides) {
    long expected = 1;
    for (int d = shape.length - 1; d >= 0; d--) {
      if (shape[d] != 1 && strides[d] != expected) {
        return false;
      }
      expected *= shape[d];
    }
    return true;
  }

  private static boolean row(
      Kind kind, DType k, View x, long ox, long sx, View y, long oy, long sy, long n) {
    MemorySegment a = x.seg;
    MemorySegment b = y.seg;
    switch (kind) {
      case FLOAT32 -> {
        return float32(a, 4 * ox, 4 * sx, b, 4 * oy, 4 * sy, n);
      }
      case FLOAT64 -> {
        return float64(a, 8 * ox, 8 * sx, b, 8 * oy, 8 * sy, n);
      }
      case FLOAT32_FLOAT64 -> { // x float32, y float64: the float widens exactly
        return float32Float64(a, 4 * ox, 4 * sx, b, 8 * oy, 8 * sy, n);
      }
      case SAME_BITS -> {
        int w = x.dtype.byteSize();
        for (long i = 0; i < n; i++) {
          if (bits(a, w, ox + i * sx) != bits(b, w, oy + i * sy)) {
            return false;
          }
        }
      }
      case BOOL -> {
        for (long i = 0; i < n; i++) {
          boolean p = a.get(ValueLayout.JAVA_BYTE, ox + i * sx) != 0;
          boolean q = b.get(ValueLayout.JAVA_BYTE, oy + i * sy) != 0;
          if (p != q) {
            return false;
          }
        }
      }
      case INTEGERS -> {
        DType p = x.dtype;
        DType q = y.dtype;
        for (long i = 0; i < n; i++) {
          long u = Elements.read(a, p, p.byteSize() * (ox + i * sx));
          long v = Elements.read(b, q, q.byteSize() * (oy + i * sy));
          // Equal carriers are equal values, except uint64 bits of 2^63 and up against int64.
          if (u != v || (p == DType.UINT64 && u < 0) != (q == DType.UINT64 && v < 0)) {
            return false;
          }
        }
      }
      case CONVERTED -> {
        DType p = x.dtype;
        DType q = y.dtype;
        for (long i = 0; i < n; i++) {
          long u = Elements.read(a, p, p.byteSize() * (ox + i * sx));
          long v = Elements.read(b, q, q.byteSize() * (oy + i * sy));
          double s = Convert.toDouble(k, Convert.convert(p, k, u));
          double t = Convert.toDouble(k, Convert.convert(q, k, v));
          if (s != t) {
            return false;
          }
        }
      }
    }
    return true;
  }

  // The hot loops, each in its own small method so that the JIT compiles and unrolls it alone.
  // Offsets and steps in bytes; NaN != NaN makes any NaN unequal, and -0.0 == 0.0.

  private static boolean float32(
      MemorySegment a, long at, long stepA, MemorySegment b, long bt, long stepB, long n) {
    for (long i = 0; i < n; i++) {
      if (a.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at + i * stepA)
          != b.get(ValueLayout.JAVA_FLOAT_UNALIGNED, bt + i * stepB)) {
        return false;
      }
    }
    return true;
  }

  private static boolean float64(
      MemorySegment a, long at, long stepA, MemorySegment b, long bt, long stepB, long n) {
    for (long i = 0; i < n; i++) {
      if (a.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at + i * stepA)
          != b.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, bt + i * stepB)) {
        return false;
      }
    }
    return true;
  }

  private static boolean float32Float64(
      MemorySegment a, long at, long stepA, MemorySegment b, long bt, long stepB, long n) {
    for (long i = 0; i < n; i++) {
      if (a.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at + i * stepA)
          != b.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, bt + i * stepB)) {
        return false;
      }
    }
    return true;
  }

  /** The raw bits of the {@code w}-byte element at element index {@code at}. */
  private static long bits(MemorySegment s, int w, long at) {
    return switch (w) {
      case 1 -> s.get(ValueLayout.JAVA_BYTE, at);
      case 2 -> s.get(ValueLayout.JAVA_SHORT_UNALIGNED, 2 * at);
      case 4 -> s.get(ValueLayout.JAVA_INT_UNALIGNED, 4 * at);
      default -> s.get(ValueLayout.JAVA_LONG_UNALIGNED, 8 * at);
    };
  }

  /** Every element of the real view {@code v} is zero (either sign; NaN is not zero). */
  private static boolean allZero(View v, long[] shape) {
    DType t = v.dtype;
    return forEachRow(
        v, v, shape,
        (ox, sx, oy, sy, n) -> {
          for (long i = 0; i < n; i++) {
            if (Convert.toDouble(t, Elements.read(v.seg, t, t.byteSize() * (ox + i * sx))) != 0) {
              return false;
            }
          }
          return true;
        });
  }
}
