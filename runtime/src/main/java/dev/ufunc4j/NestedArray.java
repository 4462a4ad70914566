package dev.ufunc4j;

import dev.ufunc4j.internal.shape.Shapes;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A rectangular nested Java array, checked: its shape and its innermost rows in row-major order.
 * Works on {@code Object} through {@link Array} so that one check serves every
 * element type; the copy is one {@link System#arraycopy} per innermost row.
 */
record NestedArray(long[] shape, List<Object> rows) {
  static NestedArray of(Object data, int depth, String element) {
    TensorFactories.requireData(data);
    long[] shape = new long[depth];
    List<Object> level = List.of(data);
    for (int d = 0; d < depth; d++) {
      int expected = -1;
      List<Object> next = new ArrayList<>();
      for (int i = 0; i < level.size(); i++) {
        Object row = level.get(i);
        if (row == null) {
          throw new IllegalArgumentException(
              "Tensor.of(" + element + "[]".repeat(depth) + "): " + path(i, shape, d)
                  + " is null");
        }
        int length = Array.getLength(row);
        if (expected < 0) {
          expected = length;
        } else if (length != expected) {
          throw new IllegalArgumentException(
              "Tensor.of("
                  + element
                  + "[]".repeat(depth)
                  + "): ragged array: "
                  + path(i, shape, d)
                  + " has length "
                  + length
                  + " but "
                  + path(0, shape, d)
                  + " has length "
                  + expected
                  + "; every row at one depth needs the same length (NumPy: an inhomogeneous"
                  + " shape after "
                  + d
                  + " dimensions; the detected shape was "
                  + Arrays.toString(Arrays.copyOf(shape, d))
                  + ")");
        }
        if (d + 1 < depth) {
          for (int j = 0; j < length; j++) {
            next.add(Array.get(row, j));
          }
        } else {
          next.add(row);
        }
      }
      shape[d] = Math.max(expected, 0);
      if (d + 1 < depth) {
        level = next;
      } else {
        level = List.copyOf(next);
      }
    }
    long numel = 1;
    for (long s : shape) {
      numel *= s; // rows.size() (an int) times one row's length (an int): fits a long
    }
    if (numel > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "Tensor.of(" + element + "[]".repeat(depth) + "): shape " + Arrays.toString(shape)
              + " has " + numel + " elements, more than one Java array holds; use empty() and"
              + " fill slices");
    }
    return new NestedArray(shape, level);
  }

  /** {@code data[i][j]...} for the {@code index}-th array at depth {@code depth}. */
  private static String path(int index, long[] shape, int depth) {
    StringBuilder b = new StringBuilder();
    long rest = index;
    for (int d = depth - 1; d >= 0; d--) {
      b.insert(0, "[" + rest % shape[d] + "]");
      rest /= shape[d];
    }
    return "data" + b;
  }

  /** The elements in row-major order, in a new array of {@code type}. */
  Object flat(Class<?> type) {
    int n = (int) Shapes.numelOf(shape);
    Object flat = Array.newInstance(type, n);
    int rowLength = (int) shape[shape.length - 1];
    for (int r = 0; r < rows.size(); r++) {
      System.arraycopy(rows.get(r), 0, flat, r * rowLength, rowLength);
    }
    return flat;
  }
}
