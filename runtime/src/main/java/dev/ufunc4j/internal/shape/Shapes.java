package dev.ufunc4j.internal.shape;

import dev.ufunc4j.dtype.DType;
import java.util.Arrays;

/**
 * The size and stride arithmetic of tensor views, on plain arrays: dimension wrapping, element
 * counts, contiguous strides, and the geometry of {@code expand}, {@code view}/{@code reshape} and
 * {@code asStrided} (PyTorch's {@code WrapDimUtils}, {@code InferSize}, {@code computeStride} and
 * {@code inferExpandGeometry}). Tensor's view methods compute with these and wrap the result;
 * nothing here touches memory. Internal API.
 *
 * <p>Errors carry PyTorch's texts (checked against real PyTorch by {@code ViewGoldenTest}), in
 * Java words where PyTorch names a Python type ({@code docs/ops.md}, "Java words").
 */
public final class Shapes {
  private Shapes() {}

  /** Sizes and strides of a view (its offset is the caller's business). */
  public record Geometry(long[] shape, long[] strides) {}

  /** PyTorch's {@code maybe_wrap_dim}; a zero-dim tensor accepts dims -1 and 0. */
  public static int wrapDim(int dim, int ndim) {
    int n = Math.max(ndim, 1);
    if (dim < -n || dim >= n) {
      throw new IndexOutOfBoundsException(
          "Dimension out of range (expected to be in range of [" + (-n) + ", " + (n - 1)
              + "], but got " + dim + ")");
    }
    return dim < 0 ? dim + n : dim;
  }

  /** A copy of {@code shape} after checking sizes are non-negative and the count fits a long. */
  public static long[] checkShape(long[] shape) {
    if (shape == null) {
      throw new IllegalArgumentException("shape must not be null");
    }
    long n = 1;
    for (long s : shape) {
      if (s < 0) {
        throw new IllegalArgumentException(
            "Trying to create tensor with negative dimension " + s + ": "
                + Arrays.toString(shape));
      }
      n = multiplyChecked(n, s, shape);
    }
    return shape.clone();
  }

  private static long multiplyChecked(long a, long b, long[] shape) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "shape " + Arrays.toString(shape) + " has more than 2^63 - 1 elements");
    }
  }

  /** The element count of a checked shape (1 for zero dims). */
  public static long numelOf(long[] shape) {
    long n = 1;
    for (long s : shape) {
      n *= s;
    }
    return n;
  }

  /** Row-major strides of {@code shape} (a size-0 dimension counts as 1, as in PyTorch). */
  public static long[] contiguousStrides(long[] shape) {
    return ShapeMath.contiguousStrides(shape);
  }

  /**
   * PyTorch's {@code is_contiguous}: row-major without gaps; dimensions of size 1 may have any
   * stride; an empty view is contiguous.
   */
  public static boolean isContiguous(long[] shape, long[] strides, long numel) {
    if (numel == 0) {
      return true;
    }
    long expected = 1;
    for (int d = shape.length - 1; d >= 0; d--) {
      if (shape[d] != 1) {
        if (strides[d] != expected) {
          return false;
        }
        expected *= shape[d];
      }
    }
    return true;
  }

  /** {@code a} without entry {@code i}. */
  public static long[] remove(long[] a, int i) {
    long[] r = new long[a.length - 1];
    System.arraycopy(a, 0, r, 0, i);
    System.arraycopy(a, i + 1, r, i, a.length - i - 1);
    return r;
  }

  /** {@code a} with {@code v} inserted at {@code i}. */
  public static long[] insert(long[] a, int i, long v) {
    long[] r = new long[a.length + 1];
    System.arraycopy(a, 0, r, 0, i);
    r[i] = v;
    System.arraycopy(a, i, r, i + 1, a.length - i);
    return r;
  }

  /**
   * The storage element of {@code index} in a view, after checking the index count and each index
   * against its size (negative indices count from the end).
   */
  public static long elementOffset(long[] index, long[] shape, long[] strides, long offset) {
    if (index == null) {
      throw new IllegalArgumentException("index must not be null");
    }
    if (index.length != shape.length) {
      throw new IllegalArgumentException(
          "expected " + shape.length + " indices for a tensor of shape " + Arrays.toString(shape)
              + ", got " + index.length + ": " + Arrays.toString(index));
    }
    long at = offset;
    for (int d = 0; d < index.length; d++) {
      long i = index[d];
      long size = shape[d];
      if (i < -size || i >= size) {
        throw new IndexOutOfBoundsException(
            "index " + i + " is out of bounds for dimension " + d + " with size " + size);
      }
      at += (i < 0 ? i + size : i) * strides[d];
    }
    return at;
  }

  /**
   * PyTorch's {@code inferExpandGeometry}: the view of {@code shape}/{@code strides} with {@code
   * sizes}; a size-1 dimension can grow (stride 0), {@code -1} keeps a size, and new leading
   * dimensions may be added.
   */
  public static Geometry expand(DType dtype, long[] shape, long[] strides, long[] sizes) {
    if (sizes == null) {
      throw new IllegalArgumentException("sizes must not be null");
    }
    int ndim = sizes.length;
    int tdim = shape.length;
    if (ndim < tdim) {
      throw new IllegalArgumentException(
          "expand(" + dtype + " tensor " + Arrays.toString(shape) + ", size="
              + Arrays.toString(sizes) + "): the number of sizes provided (" + ndim
              + ") must be greater or equal to the number of dimensions in the tensor (" + tdim
              + ")");
    }
    long[] newShape = new long[ndim];
    long[] newStrides = new long[ndim];
    for (int i = ndim - 1; i >= 0; i--) {
      int dim = tdim - (ndim - i);
      long size = dim >= 0 ? shape[dim] : 1;
      long stride;
      if (dim >= 0) {
        stride = strides[dim];
      } else if (i == ndim - 1) {
        stride = 1; // a zero-dim tensor's new innermost dimension
      } else {
        stride = ShapeMath.multiply(newShape[i + 1], newStrides[i + 1], "expand");
      }
      long target = sizes[i];
      if (target == -1) {
        if (dim < 0) {
          throw new IllegalArgumentException(
              "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing"
                  + " dimension " + i);
        }
        target = size;
      }
      if (size != target) {
        if (size != 1) {
          throw new IllegalArgumentException(
              "The expanded size of the tensor (" + target + ") must match the existing size ("
                  + size + ") at non-singleton dimension " + i + ".  Target sizes: "
                  + Arrays.toString(sizes) + ".  Tensor sizes: " + Arrays.toString(shape));
        }
        size = target;
        stride = 0;
      }
      newShape[i] = size;
      newStrides[i] = stride;
    }
    checkShape(newShape);
    return new Geometry(newShape, newStrides);
  }

  /**
   * PyTorch's {@code infer_size}: {@code requested} with its one {@code -1} resolved, after
   * checking it holds {@code numel} elements.
   */
  public static long[] inferSize(long[] requested, long numel) {
    if (requested == null) {
      throw new IllegalArgumentException("shape must not be null");
    }
    long[] s = requested.clone();
    long newSize = 1;
    int inferDim = -1;
    for (int d = 0; d < s.length; d++) {
      if (s[d] == -1) {
        if (inferDim >= 0) {
          throw new IllegalArgumentException("only one dimension can be inferred");
        }
        inferDim = d;
      } else if (s[d] >= 0) {
        newSize = multiplyChecked(newSize, s[d], s);
      } else {
        throw new IllegalArgumentException(
            "invalid shape dimension " + s[d] + " at index " + d + " of shape "
                + Arrays.toString(s));
      }
    }
    if (numel == newSize || (inferDim >= 0 && newSize > 0 && numel % newSize == 0)) {
      if (inferDim >= 0) {
        if (newSize == 0) {
          throw new IllegalArgumentException(
              "cannot reshape tensor of 0 elements into shape " + Arrays.toString(s)
                  + " because the unspecified dimension size -1 can be any value and is"
                  + " ambiguous");
        }
        s[inferDim] = numel / newSize;
      }
      return s;
    }
    throw new IllegalArgumentException(
        "shape '" + Arrays.toString(requested) + "' is invalid for input of size " + numel);
  }

  /**
   * PyTorch's {@code computeStride}: strides that view {@code oldShape}/{@code oldStride} as
   * {@code newShape}, or null when dimensions would span two non-contiguous chunks (then only a
   * copy can have that shape).
   */
  public static long[] viewStrides(long[] oldShape, long[] oldStride, long[] newShape) {
    int n = newShape.length;
    long[] newStride = new long[n];
    if (oldShape.length == 0) {
      Arrays.fill(newStride, 1);
      return newStride;
    }
    long numel = numelOf(oldShape);
    if (numel == 0 && Arrays.equals(oldShape, newShape)) {
      return oldStride.clone();
    }
    if (numel == 0) {
      for (int d = n - 1; d >= 0; d--) {
        newStride[d] =
            d == n - 1 ? 1 : ShapeMath.multiply(Math.max(newShape[d + 1], 1), newStride[d + 1],
                "view");
      }
      return newStride;
    }
    int viewD = n - 1;
    long chunkBaseStride = oldStride[oldStride.length - 1];
    long tensorNumel = 1;
    long viewNumel = 1;
    for (int tensorD = oldShape.length - 1; tensorD >= 0; tensorD--) {
      tensorNumel *= oldShape[tensorD];
      if (tensorD == 0
          || (oldShape[tensorD - 1] != 1
              && oldStride[tensorD - 1]
                  != ShapeMath.multiply(tensorNumel, chunkBaseStride, "view"))) {
        while (viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] == 1)) {
          newStride[viewD] = ShapeMath.multiply(viewNumel, chunkBaseStride, "view");
          viewNumel *= newShape[viewD];
          viewD--;
        }
        if (viewNumel != tensorNumel) {
          return null;
        }
        if (tensorD > 0) {
          chunkBaseStride = oldStride[tensorD - 1];
          tensorNumel = 1;
          viewNumel = 1;
        }
      }
    }
    return viewD == -1 ? newStride : null;
  }

  /**
   * Checks an {@code asStrided} geometry against a storage of {@code storageSize} elements:
   * matching lengths, non-negative strides and offset, and every reachable element inside.
   * Returns the checked copy of {@code shape}.
   */
  public static long[] checkAsStrided(
      long[] shape, long[] strides, long offset, long storageSize) {
    if (shape == null || strides == null) {
      throw new IllegalArgumentException("shape and strides must not be null");
    }
    if (shape.length != strides.length) {
      throw new IllegalArgumentException(
          "mismatch in length of strides and shape: " + Arrays.toString(shape) + " vs "
              + Arrays.toString(strides));
    }
    long[] s = checkShape(shape);
    for (long stride : strides) {
      if (stride < 0) {
        throw new IllegalArgumentException(
            "as_strided: Negative strides are not supported at the moment, got strides: "
                + Arrays.toString(strides));
      }
    }
    if (offset < 0) {
      throw new IllegalArgumentException("as_strided: Tensor: invalid storage offset " + offset);
    }
    ShapeMath.checkView("as_strided", s, strides, offset, storageSize);
    return s;
  }
}
