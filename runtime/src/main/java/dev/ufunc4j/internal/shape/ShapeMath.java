package dev.ufunc4j.internal.shape;

import java.util.Arrays;

/**
 * Overflow-checked arithmetic on sizes, strides and offsets. Internal API (public for the runtime's
 * packages).
 *
 * <p>A view is memory-safe only if every element address it can form lies inside its storage;
 * {@code long} arithmetic that wraps can turn an address far outside the storage into one inside
 * it ({@code 2 * (2^62 + 1)} wraps to 2). Every product and sum that makes a view's sizes, strides
 * or offset goes through this class, which either gives the exact result or refuses with an {@link
 * IllegalArgumentException} naming the values, as PyTorch refuses with "Storage size calculation
 * overflowed"; {@link #checkView} then proves the view's reach lies inside its storage, so element
 * addresses computed from it cannot wrap either.
 */
public final class ShapeMath {
  private ShapeMath() {}

  /** {@code a * b}, or an {@link IllegalArgumentException} saying what overflowed. */
  public static long multiply(long a, long b, String what) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          what + ": " + a + " * " + b + " overflows a 64-bit integer");
    }
  }

  /** {@code offset + index * stride}: the storage offset of a slice or selected sub-tensor. */
  public static long offset(long offset, long index, long stride, String op) {
    try {
      return Math.addExact(offset, Math.multiplyExact(index, stride));
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          op + ": storage offset " + offset + " + index " + index + " * stride " + stride
              + " overflows a 64-bit integer");
    }
  }

  /**
   * Row-major strides of {@code shape} (a size-0 dimension counts as 1, as in PyTorch), or
   * PyTorch's "Stride calculation overflowed" when they do not fit a long.
   */
  public static long[] contiguousStrides(long[] shape) {
    long[] strides = new long[shape.length];
    long acc = 1;
    try {
      for (int d = shape.length - 1; d >= 0; d--) {
        strides[d] = acc;
        if (d > 0) {
          acc = Math.multiplyExact(acc, Math.max(shape[d], 1));
        }
      }
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "Stride calculation overflowed with sizes=" + Arrays.toString(shape));
    }
    return strides;
  }

  /**
   * Checks that the view {@code (shape, strides, offset)} reaches only elements {@code [0,
   * storageSize)}. An empty view reaches no element and passes whatever its strides and offset (as
   * in PyTorch, whose empty slices keep an offset that may equal the storage size).
   *
   * @param op the method to name in the message (PyTorch's name, e.g. {@code as_strided})
   * @throws IllegalArgumentException when the extent overflows a long or leaves the storage
   */
  public static void checkView(
      String op, long[] shape, long[] strides, long offset, long storageSize) {
    for (long s : shape) {
      if (s == 0) {
        return;
      }
    }
    // The lowest and highest addresses are the corners: every index 0, or size - 1 where the
    // stride is positive (lowest: where it is negative).
    long low = offset;
    long high = offset;
    try {
      for (int d = 0; d < shape.length; d++) {
        long reach = Math.multiplyExact(shape[d] - 1, strides[d]);
        if (reach < 0) {
          low = Math.addExact(low, reach);
        } else {
          high = Math.addExact(high, reach);
        }
      }
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          op + ": storage size calculation overflowed with sizes=" + Arrays.toString(shape)
              + ", strides=" + Arrays.toString(strides) + " and storage offset " + offset
              + " (the view would reach beyond a 64-bit element index; the storage has "
              + storageSize + " elements)");
    }
    if (low < 0 || high >= storageSize) {
      throw new IllegalArgumentException(
          op + ": sizes " + Arrays.toString(shape) + ", strides " + Arrays.toString(strides)
              + " and storage offset " + offset + " reach element " + (low < 0 ? low : high)
              + ", outside a storage of " + storageSize + " elements");
    }
  }

  /**
   * The number of elements of {@code start, start + step, ...} below {@code start + span}: {@code
   * ceil(span / step)} for {@code span >= 0} and {@code step > 0}, without the overflow of {@code
   * (span + step - 1) / step}.
   */
  public static long sliceLength(long span, long step) {
    return span == 0 ? 0 : (span - 1) / step + 1;
  }

  /**
   * The stride of a sliced dimension: {@code stride * step}. A dimension of at most one element
   * never uses its stride to reach an element, so when the product overflows there (a step of
   * {@code Long.MAX_VALUE} takes one element) the old stride is kept instead of refusing.
   */
  public static long slicedStride(long stride, long step, long newSize) {
    try {
      return Math.multiplyExact(stride, step);
    } catch (ArithmeticException e) {
      if (newSize <= 1) {
        return stride;
      }
      throw new IllegalArgumentException(
          "slice: stride " + stride + " * step " + step + " overflows a 64-bit integer");
    }
  }

  /**
   * PyTorch's {@code arange} length {@code ceil((end - start) / step)} for integers, computed
   * without overflow ({@code end - start} may exceed {@code Long.MAX_VALUE}); the caller has
   * checked that {@code step} is nonzero and has the sign of {@code end - start}.
   */
  public static long arangeLength(long start, long end, long step) {
    // |end - start| and |step| as unsigned 64-bit values: both fit, whatever the signs.
    long span = step > 0 ? end - start : start - end;
    long stride = step > 0 ? step : -step; // Long.MIN_VALUE stays 2^63 unsigned
    long n = Long.divideUnsigned(span, stride);
    if (Long.remainderUnsigned(span, stride) != 0) {
      n++;
    }
    if (n < 0) {
      throw new IllegalArgumentException(
          "arange(" + start + ", " + end + ", " + step + ") has " + Long.toUnsignedString(n)
              + " elements, more than 2^63 - 1");
    }
    return n;
  }
}
