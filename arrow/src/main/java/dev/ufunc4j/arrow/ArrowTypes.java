package dev.ufunc4j.arrow;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.dtype.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The type mapping both interfaces share (docs/arrow.md has the table): a dtype's Arrow C format
 * string, the fixed-shape-tensor extension's metadata, and Arrow's bit-packed booleans.
 */
// Restricted FFM methods (upcalls, reinterpret of C pointers): the module is native code's peer.
@SuppressWarnings("restricted")
final class ArrowTypes {
  private ArrowTypes() {}

  /** The canonical extension's name, in the field's metadata under {@link #EXTENSION_NAME_KEY}. */
  static final String FIXED_SHAPE_TENSOR = "arrow.fixed_shape_tensor";

  static final String EXTENSION_NAME_KEY = "ARROW:extension:name";
  static final String EXTENSION_METADATA_KEY = "ARROW:extension:metadata";

  /** The dtypes with an Arrow type, in DType order; the others are refused by name. */
  static final List<DType> SUPPORTED = List.of(
      DType.BOOL, DType.UINT8, DType.INT8, DType.INT16, DType.INT32, DType.INT64, DType.UINT16,
      DType.UINT32, DType.UINT64, DType.FLOAT16, DType.FLOAT32, DType.FLOAT64);

  /** {@return the C Data Interface format string of {@code dtype}} */
  static String format(DType dtype) {
    return switch (dtype) {
      case BOOL -> "b";
      case INT8 -> "c";
      case UINT8 -> "C";
      case INT16 -> "s";
      case UINT16 -> "S";
      case INT32 -> "i";
      case UINT32 -> "I";
      case INT64 -> "l";
      case UINT64 -> "L";
      case FLOAT16 -> "e";
      case FLOAT32 -> "f";
      case FLOAT64 -> "g";
      default -> throw unsupported(dtype);
    };
  }

  /** {@return the dtype of a primitive format string, or null when it is not one of ours} */
  static DType dtypeOf(String format) {
    for (DType d : SUPPORTED) {
      if (format(d).equals(format)) {
        return d;
      }
    }
    return null;
  }

  static IllegalArgumentException unsupported(DType dtype) {
    return new IllegalArgumentException(
        "Arrow has no type for " + dtype + " tensors; supported: " + SUPPORTED);
  }

  /** Refuses what no Arrow array can hold: a dtype without an Arrow type, a zero-dim tensor. */
  static void checkExportable(Tensor tensor) {
    if (tensor == null) {
      throw new IllegalArgumentException("tensor must not be null");
    }
    format(tensor.dtype());
    if (tensor.ndim() == 0) {
      throw new IllegalArgumentException(
          "a zero-dim tensor has no Arrow array (an array has a length): reshape it to [1]");
    }
  }

  /** {@return the extension metadata JSON for the per-row shape {@code rowShape}} */
  static String tensorMetadata(long[] rowShape) {
    StringBuilder json = new StringBuilder("{\"shape\":[");
    for (int i = 0; i < rowShape.length; i++) {
      json.append(i == 0 ? "" : ",").append(rowShape[i]);
    }
    return json.append("]}").toString();
  }

  /**
   * A fixed-shape-tensor's metadata read: its {@code shape} and {@code permutation} (null when
   * absent). {@code dim_names} is accepted and not kept (a tensor has no dimension names).
   */
  record TensorMetadata(long[] shape, int[] permutation) {
    static TensorMetadata parse(String json) {
      long[] shape = intArray(json, "shape");
      if (shape == null) {
        throw new IllegalArgumentException(
            FIXED_SHAPE_TENSOR + " metadata without a \"shape\": " + json);
      }
      long[] perm = intArray(json, "permutation");
      int[] permutation = null;
      if (perm != null) {
        permutation = new int[perm.length];
        boolean[] seen = new boolean[perm.length];
        for (int i = 0; i < perm.length; i++) {
          if (perm[i] < 0 || perm[i] >= perm.length || seen[(int) perm[i]]) {
            throw new IllegalArgumentException(
                FIXED_SHAPE_TENSOR + " permutation " + Arrays.toString(perm)
                    + " is not a permutation of 0.." + (perm.length - 1));
          }
          seen[(int) perm[i]] = true;
          permutation[i] = (int) perm[i];
        }
        if (perm.length != shape.length) {
          throw new IllegalArgumentException(
              FIXED_SHAPE_TENSOR + " permutation " + Arrays.toString(perm)
                  + " does not match shape " + Arrays.toString(shape));
        }
      }
      return new TensorMetadata(shape, permutation);
    }

    /** The JSON array of integers under {@code key}, or null; a tiny reader for this one form. */
    private static long[] intArray(String json, String key) {
      Matcher m = Pattern.compile("\"" + key + "\"\\s*:\\s*\\[([^\\]]*)\\]").matcher(json);
      if (!m.find()) {
        return null;
      }
      String body = m.group(1).trim();
      if (body.isEmpty()) {
        return new long[0];
      }
      try {
        return Arrays.stream(body.split(",")).mapToLong(s -> Long.parseLong(s.trim())).toArray();
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            FIXED_SHAPE_TENSOR + " metadata's \"" + key + "\" is not a list of integers: " + json);
      }
    }
  }

  /** {@return the bytes of a bit-packed (LSB first) copy of the contiguous bool tensor} */
  static byte[] packBits(Tensor bools) {
    long n = bools.numel();
    if (n > (Integer.MAX_VALUE - 7L) * 8) {
      throw new IllegalArgumentException(
          "a bool tensor of " + n + " elements is too large to pack");
    }
    byte[] bits = new byte[(int) ((n + 7) / 8)];
    MemorySegment seg = bools.segment();
    long base = bools.offset();
    for (long i = 0; i < n; i++) {
      if (seg.get(ValueLayout.JAVA_BYTE, base + i) != 0) {
        bits[(int) (i >>> 3)] |= (byte) (1 << (i & 7));
      }
    }
    return bits;
  }

  /** {@return a new bool tensor of {@code shape} from {@code bits}, from bit {@code bit0} on} */
  static Tensor unpackBits(MemorySegment bits, long bit0, long[] shape) {
    Tensor t = Tensor.zeros(DType.BOOL, shape);
    MemorySegment out = t.segment();
    long n = t.numel();
    for (long i = 0; i < n; i++) {
      long b = bit0 + i;
      if ((bits.get(ValueLayout.JAVA_BYTE, b >>> 3) & (1 << (b & 7))) != 0) {
        out.set(ValueLayout.JAVA_BYTE, i, (byte) 1);
      }
    }
    return t;
  }

  /** {@return the first position in {@code [from, from + count)} whose validity bit is 0, or -1} */
  static long firstNull(MemorySegment validity, long from, long count) {
    for (long i = from; i < from + count; i++) {
      if ((validity.get(ValueLayout.JAVA_BYTE, i >>> 3) & (1 << (i & 7))) == 0) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Refuses a null among slots {@code [from, from + count)} of one nesting level, naming its
   * top-level row ({@code rowElems} slots of this level per row); {@code validity} may be NULL.
   */
  static void checkNoNulls(MemorySegment validity, long nullCount, long from, long count,
      long rowElems, int level, String where) {
    if (nullCount == 0 || count == 0) {
      return;
    }
    if (validity == null || validity.equals(MemorySegment.NULL)) {
      if (nullCount > 0) {
        throw new IllegalArgumentException(
            where + " has null_count " + nullCount + " but no validity bitmap");
      }
      return; // -1 (not computed) without a bitmap: no nulls
    }
    long at = firstNull(validity.reinterpret((from + count + 7) / 8), from, count);
    if (at >= 0) {
      long index = at - from;
      throw new IllegalArgumentException("a tensor has no nulls: row " + (index / rowElems)
          + (level == 0 ? " is null" : " has a null element (position " + (index % rowElems)
              + " of the row, nesting level " + level + ")")
          + " in " + where + "; fill or drop the nulls first");
    }
  }
}
