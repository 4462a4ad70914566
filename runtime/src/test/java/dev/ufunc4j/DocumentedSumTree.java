package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import java.util.Arrays;
import java.util.Random;

/**
 * The summation tree docs/reductions.md ("Accuracy and reproducibility") specifies, written from
 * that text with scalar adds and nothing of the implementation: no vectors, no lanes. The values
 * are doubles; with {@code asFloat} every addition is a float32 one (the values are then float32
 * values).
 */
final class DocumentedSumTree {
  /** Elements of a leaf of a run. */
  static final int LEAF = 2048;
  /** Rows of a column sum added in sequence. */
  static final int ROW_LEAF = 8;

  private DocumentedSumTree() {}

  /** Accumulators of a contiguous leaf: 256 bytes of them. */
  static int accumulators(boolean asFloat) {
    return asFloat ? 64 : 32;
  }

  static double add(double a, double b, boolean asFloat) {
    return asFloat ? (float) a + (float) b : a + b;
  }

  /**
   * A run of {@code n} elements {@code x[off + i * stride]}: split at {@code max(1, (n / 2048) /
   * 2) * 2048} while longer than a leaf; a contiguous leaf by its accumulators, a strided one in
   * sequence from its first element.
   */
  static double run(double[] x, int off, int n, int stride, boolean asFloat) {
    if (n > LEAF) {
      int mid = Math.max(1, (n / LEAF) / 2) * LEAF;
      return add(run(x, off, mid, stride, asFloat),
          run(x, off + mid * stride, n - mid, stride, asFloat), asFloat);
    }
    if (stride != 1) {
      double s = x[off];
      for (int i = 1; i < n; i++) {
        s = add(s, x[off + i * stride], asFloat);
      }
      return s;
    }
    int k = accumulators(asFloat);
    double[] acc = new double[k]; // all +0.0
    for (int i = 0; i < n; i++) {
      acc[i % k] = add(acc[i % k], x[off + i], asFloat);
    }
    for (int h = k / 2; h >= 1; h /= 2) {
      for (int j = 0; j < h; j++) {
        acc[j] = add(acc[j], acc[j + h], asFloat);
      }
    }
    return acc[0];
  }

  /**
   * Rows {@code [lo, hi)} of an inner-strategy region (row {@code r} is the contiguous run of
   * {@code width} elements at {@code off + r * rowStride}): paired in halves down to single rows.
   */
  static double rows(double[] x, int off, int rowStride, int width, int lo, int hi,
      boolean asFloat) {
    if (hi - lo == 1) {
      return run(x, off + lo * rowStride, width, 1, asFloat);
    }
    int mid = lo + (hi - lo) / 2;
    return add(rows(x, off, rowStride, width, lo, mid, asFloat),
        rows(x, off, rowStride, width, mid, hi, asFloat), asFloat);
  }

  /**
   * A column sum (the outer strategy): reduced elements {@code [lo, hi)}, element {@code r} at
   * {@code x[off + r * stride]}; up to 8 in sequence from the first, more paired in halves.
   */
  static double column(double[] x, int off, int stride, int lo, int hi, boolean asFloat) {
    if (hi - lo <= ROW_LEAF) {
      double s = x[off + lo * stride];
      for (int r = lo + 1; r < hi; r++) {
        s = add(s, x[off + r * stride], asFloat);
      }
      return s;
    }
    int mid = lo + (hi - lo) / 2;
    return add(column(x, off, stride, lo, mid, asFloat), column(x, off, stride, mid, hi, asFloat),
        asFloat);
  }

  /**
   * A random float sum and the bits the documented tree gives it: a contiguous float32, float64
   * or float16 tensor of rank 1 to 3 summed over all its dims (one run), a suffix of them (row
   * sums: the inner strategy), a prefix (column sums: the outer strategy), or the first and last
   * of three (rows of runs, or a column sum when the last has size 1). Sizes reach several leaves;
   * values span twelve orders of magnitude (float16: four), so any other order shows in the bits.
   * Used by {@code PropertyFuzzTest} and, in JVMs with other vector widths, by {@code
   * SumBitsAcrossVectorWidthsTest}.
   */
  record Case(DType dtype, int[] shape, int[] dims, double[] values) {
    private static final DType[] DTYPES = {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16};

    static Case draw(Random r) {
      DType dtype = DTYPES[r.nextInt(DTYPES.length)];
      int[] shape;
      do {
        shape = new int[1 + r.nextInt(3)];
        for (int d = 0; d < shape.length; d++) {
          shape[d] = r.nextInt(5) == 0 ? 1 : 1 + r.nextInt(r.nextInt(3) == 0 ? 5000 : 70);
        }
      } while (count(shape) > 300_000);
      int rank = shape.length;
      int[] dims = switch (rank == 1 ? 0 : r.nextInt(rank == 3 ? 4 : 3)) {
        case 0 -> range(0, rank); // everything
        case 1 -> range(1 + r.nextInt(rank - 1), rank); // a suffix: row sums
        case 2 -> range(0, 1 + r.nextInt(rank - 1)); // a prefix: column sums
        default -> new int[] {0, 2};
      };
      double[] values = new double[(int) count(shape)];
      for (int i = 0; i < values.length; i++) {
        double v = r.nextGaussian();
        if (dtype == DType.FLOAT16) {
          v = Float.float16ToFloat(Float.floatToFloat16((float) (v * Math.pow(10, r.nextInt(-2, 3)))));
        } else {
          v *= Math.pow(10, r.nextInt(-6, 7));
          v = dtype == DType.FLOAT32 ? (float) v : v;
        }
        values[i] = v == 0 ? 1 : v; // no signed zeros: a one-element sum keeps -0.0, a run does not
      }
      return new Case(dtype, shape, dims, values);
    }

    /** The sum as this JVM computes it. */
    Tensor actual() {
      long[] s = Arrays.stream(shape).asLongStream().toArray();
      return Tensor.of(values, s).to(dtype).sum(dims);
    }

    /** The documented tree's result per output element, as raw bits of {@link #dtype}. */
    long[] expectedBits() {
      boolean f = dtype != DType.FLOAT64; // float16 accumulates in float32
      double[] sums;
      int rank = shape.length;
      if (dims.length == rank) {
        sums = new double[] {run(values, 0, values.length, 1, f)};
      } else if (dims[0] != 0) { // suffix
        int width = (int) count(Arrays.copyOfRange(shape, dims[0], rank));
        sums = new double[values.length / width];
        for (int o = 0; o < sums.length; o++) {
          sums[o] = run(values, o * width, width, 1, f);
        }
      } else if (dims[dims.length - 1] == dims.length - 1) { // prefix
        int reduced = (int) count(Arrays.copyOfRange(shape, 0, dims.length));
        int kept = values.length / reduced;
        sums = new double[kept];
        for (int j = 0; j < kept; j++) {
          // Kept dims all of size 1 leave no kept dim: the inner strategy, one contiguous run.
          sums[j] = kept == 1 ? run(values, 0, reduced, 1, f) : column(values, j, kept, 0, reduced, f);
        }
      } else { // dims {0, 2} of three
        int a = shape[0];
        int b = shape[1];
        int c = shape[2];
        sums = new double[b];
        for (int j = 0; j < b; j++) {
          // b == 1: dims 0 and 2 merge into one run; c == 1: a column sum over dim 0.
          sums[j] = b == 1 ? run(values, 0, a * c, 1, f)
              : c == 1 ? column(values, j, b, 0, a, f)
              : rows(values, j * c, b * c, c, 0, a, f);
        }
      }
      return Arrays.stream(sums).mapToLong(this::bits).toArray();
    }

    /** The raw bits of {@code v} in {@link #dtype} ({@code v} is a float for float16: rounded once). */
    long bits(double v) {
      if (dtype == DType.FLOAT64) {
        return Double.doubleToRawLongBits(v);
      }
      return dtype == DType.FLOAT16 ? Float.floatToFloat16((float) v)
          : Float.floatToRawIntBits((float) v);
    }

    /** The bits of every element of a result of this case. */
    long[] bitsOf(Tensor result) {
      double[] got = result.to(DType.FLOAT64).contiguous().toDoubleArray();
      return Arrays.stream(got).mapToLong(this::bits).toArray();
    }

    @Override
    public String toString() {
      return dtype + " " + Arrays.toString(shape) + ".sum" + Arrays.toString(dims);
    }

    private static int[] range(int from, int to) {
      int[] r = new int[to - from];
      Arrays.setAll(r, i -> from + i);
      return r;
    }

    private static long count(int[] shape) {
      long n = 1;
      for (int s : shape) {
        n *= s;
      }
      return n;
    }
  }
}
