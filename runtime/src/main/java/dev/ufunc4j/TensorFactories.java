package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.elements.Convert;
import dev.ufunc4j.internal.elements.Elements;
import dev.ufunc4j.internal.shape.ShapeMath;
import dev.ufunc4j.internal.shape.Shapes;
import dev.ufunc4j.internal.VectorModule;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The ways to make a {@link Tensor}: {@code empty}, {@code zeros}, {@code ones}, {@code full},
 * {@code arange}, {@code linspace}, the seeded {@code rand}, {@code randn} and {@code randint}, the
 * {@code of(...)} overloads from Java arrays (nested arrays: shape inferred, as {@code np.array})
 * and the zero-dim {@code scalar(...)}. Tensor extends this class, so they are called as Tensor's
 * own: {@code Tensor.of(new float[] {1, 2})}, {@code Tensor.zeros(DType.FLOAT32, 2, 3)}.
 *
 * <p>Public only so that these static methods can also be called reflectively through {@code
 * Tensor} from other packages, as for {@link TensorVocabulary}. Not for subclassing: the only
 * constructor is package-private.
 */
public abstract class TensorFactories extends TensorVocabulary {
  static {
    // A factory may be the program's first call, before Tensor (which checks this too) is loaded.
    VectorModule.require();
  }

  TensorFactories() {}

  /**
   * {@return a tensor of {@code dtype} and {@code shape} with zeroed contents (storage is always
   * zeroed; PyTorch's {@code empty} leaves it undefined)}
   *
   * @param dtype the element type
   * @param shape the sizes, outermost first
   */
  public static Tensor empty(DType dtype, long... shape) {
    checkDtype(dtype);
    long[] s = Shapes.checkShape(shape);
    return Tensor.make(allocate(dtype, s, true), dtype, s, Shapes.contiguousStrides(s), 0, false);
  }

  /**
   * A C-contiguous tensor over memory that the runtime did not allocate (a memory-mapped file,
   * another library's buffer: the {@code ufunc4j-arrow} module's imports), without a copy. Element
   * {@code i} in row-major order is at byte {@code i * dtype.byteSize()} of {@code segment}, in the
   * platform's byte order; bool is one byte per element (0 or 1).
   *
   * <p>The tensor and its views hold {@code segment}: its memory lives as long as the segment's
   * scope does, which the caller chooses. A segment of an {@link java.lang.foreign.Arena#ofAuto()
   * automatic} arena (optionally with a cleanup action, {@link MemorySegment#reinterpret(long,
   * java.lang.foreign.Arena, java.util.function.Consumer)}) is freed once no tensor reaches it; one
   * of a closed arena makes every use of the tensor throw {@link IllegalStateException}. A
   * read-only segment is refused: the runtime's worker threads write through views of the same
   * address that would not carry the read-only mode (map a file {@code PRIVATE}, copy-on-write,
   * to share it without writing it back).
   *
   * @param segment the memory, at least {@code numel * dtype.byteSize()} bytes
   * @param dtype the element type
   * @param shape the sizes, outermost first
   * @return a contiguous tensor viewing {@code segment} from its first byte
   * @throws IllegalArgumentException when the segment is read-only or shorter than the shape
   *     needs, or the shape has a negative size
   */
  public static Tensor fromSegment(MemorySegment segment, DType dtype, long... shape) {
    checkDtype(dtype);
    if (segment == null) {
      throw new IllegalArgumentException("segment must not be null");
    }
    if (segment.isReadOnly()) {
      throw new IllegalArgumentException("a tensor cannot view a read-only segment (its writes"
          + " would not be refused): map the file PRIVATE (copy-on-write) or copy the segment");
    }
    long[] s = Shapes.checkShape(shape);
    long n = Shapes.numelOf(s);
    if (n > segment.byteSize() / dtype.byteSize()) {
      throw new IllegalArgumentException(
          "a segment of " + segment.byteSize() + " bytes cannot hold shape " + Arrays.toString(s)
              + " of " + dtype + " (" + n + " elements of " + dtype.byteSize() + " bytes)");
    }
    return Tensor.make(segment, dtype, s, Shapes.contiguousStrides(s), 0, false);
  }

  /**
   * A tensor of {@code shape} laid out with {@code strides}, which must be a permutation of the
   * contiguous strides of {@code shape} (the planner's layout-following results). Its contents are
   * unspecified: the caller writes every element (a kernel's output).
   */
  static Tensor emptyStrided(DType dtype, long[] shape, long[] strides) {
    return Tensor.make(allocate(dtype, shape, false), dtype, shape.clone(), strides.clone(), 0, false);
  }

  /** A C-contiguous tensor whose contents are unspecified: the caller writes every element. */
  static Tensor emptyUninitialized(DType dtype, long[] shape) {
    return Tensor.make(
        allocate(dtype, shape, false), dtype, shape.clone(), Shapes.contiguousStrides(shape), 0,
        false);
  }

  /** Storage for a dense tensor of {@code shape}, zeroed or not, in the current scope's arena. */
  private static MemorySegment allocate(DType dtype, long[] shape, boolean zeroed) {
    long n = Shapes.numelOf(shape);
    long bytes;
    try {
      bytes = Math.multiplyExact(n, (long) dtype.byteSize());
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "shape " + Arrays.toString(shape) + " of " + dtype + " needs more than 2^63 bytes");
    }
    return TensorScope.allocate(bytes, zeroed); // the innermost open scope, else GC-managed
  }

  /**
   * {@return a tensor of zeros}
   *
   * @param dtype the element type
   * @param shape the sizes, outermost first
   */
  public static Tensor zeros(DType dtype, long... shape) {
    return empty(dtype, shape);
  }

  /**
   * {@return a tensor of ones}
   *
   * @param dtype the element type
   * @param shape the sizes, outermost first
   */
  public static Tensor ones(DType dtype, long... shape) {
    return full(dtype, 1L, shape);
  }

  /**
   * {@return a tensor filled with {@code value} converted to {@code dtype} (complex: imaginary part
   * 0)}
   *
   * @param dtype the element type
   * @param value the value
   * @param shape the sizes, outermost first
   */
  public static Tensor full(DType dtype, double value, long... shape) {
    Tensor t = empty(dtype, shape);
    Copies.fill(t, dtype.isComplex() ? Convert.fromDouble(dtype.componentType(), value)
        : Convert.fromDouble(dtype, value));
    return t;
  }

  /**
   * {@return a tensor filled with the integer {@code value} converted to {@code dtype}}
   *
   * @param dtype the element type
   * @param value the value
   * @param shape the sizes, outermost first
   */
  public static Tensor full(DType dtype, long value, long... shape) {
    Tensor t = empty(dtype, shape);
    Copies.fill(t, dtype.isComplex() ? Convert.fromLong(dtype.componentType(), value, false)
        : Convert.fromLong(dtype, value, false));
    return t;
  }

  /**
   * {@return a tensor filled with {@code value} converted to {@code dtype}}
   *
   * @param dtype the element type
   * @param value the value
   * @param shape the sizes, outermost first
   */
  public static Tensor full(DType dtype, boolean value, long... shape) {
    return full(dtype, value ? 1L : 0L, shape);
  }

  /**
   * {@code [0, 1, ..., end - 1]} as INT64 (PyTorch's {@code arange(end)}).
   *
   * @param end the end, excluded
   * @return a new tensor
   */
  public static Tensor arange(long end) {
    return arange(0, end, 1);
  }

  /**
   * {@code start, start + step, ...} up to but excluding {@code end}, as INT64.
   *
   * @param start the first value
   * @param end the end, excluded
   * @param step the difference between consecutive values
   * @return a new tensor
   */
  public static Tensor arange(long start, long end, long step) {
    if (step == 0) {
      throw new IllegalArgumentException("step must be nonzero");
    }
    if ((step > 0 && end < start) || (step < 0 && end > start)) {
      throw new IllegalArgumentException(
          "upper bound and larger bound inconsistent with step sign: start="
              + start + ", end=" + end + ", step=" + step);
    }
    long n = ShapeMath.arangeLength(start, end, step);
    Tensor t = empty(DType.INT64, n);
    for (long i = 0; i < n; i++) {
      t.segment().setAtIndex(ValueLayout.JAVA_LONG, i, start + i * step);
    }
    return t;
  }

  private static final int ARANGE_CHUNK = 1 << 16;

  /**
   * {@code start + i * step} for {@code i} in {@code [0, ceil((end - start) / step))}, computed in
   * double and converted to {@code dtype}.
   *
   * @param start the first value
   * @param end the end, excluded
   * @param step the difference between consecutive values
   * @param dtype the element type
   * @return a new tensor
   */
  public static Tensor arange(double start, double end, double step, DType dtype) {
    checkDtype(dtype);
    if (!Double.isFinite(start) || !Double.isFinite(end)) {
      throw new IllegalArgumentException(
          "unsupported range: " + start + " -> " + end);
    }
    if (step == 0 || Double.isNaN(step)) {
      throw new IllegalArgumentException("step must be nonzero, got " + step);
    }
    if ((step > 0 && end < start) || (step < 0 && end > start)) {
      throw new IllegalArgumentException(
          "upper bound and larger bound inconsistent with step sign: start="
              + start + ", end=" + end + ", step=" + step);
    }
    double count = Math.ceil((end - start) / step);
    if (count >= Long.MAX_VALUE) {
      throw new IllegalArgumentException("arange(" + start + ", " + end + ", " + step
          + ") has too many elements: " + count);
    }
    // Allocated first, so a range too large for memory fails as an allocation (PyTorch: "can't
    // allocate memory"); then filled through float64 chunks with to(dtype)'s conversions.
    Tensor out = empty(dtype, (long) count);
    for (long from = 0; from < out.numel(); from += ARANGE_CHUNK) {
      double[] values = new double[(int) Math.min(ARANGE_CHUNK, out.numel() - from)];
      for (int i = 0; i < values.length; i++) {
        values[i] = start + (from + i) * step;
      }
      Copies.copyInto(of(values), out.slice(0, from, from + values.length, 1));
    }
    return out;
  }

  /**
   * {@code steps} values evenly spaced from {@code start} to {@code end} inclusive, PyTorch's
   * formula (the first half counts up from {@code start}, the second down from {@code end}, so
   * both ends are exact).
   *
   * @param start the first value
   * @param end the end, excluded
   * @param steps the number of values
   * @param dtype the element type
   * @return a new tensor
   */
  public static Tensor linspace(double start, double end, long steps, DType dtype) {
    checkDtype(dtype);
    if (steps < 0 || steps > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "number of steps must be non-negative and fit a Java array, got " + steps);
    }
    double[] values = new double[(int) steps];
    double step = steps > 1 ? (end - start) / (steps - 1) : 0;
    long half = steps / 2;
    for (int i = 0; i < steps; i++) {
      values[i] = i < half ? start + step * i : end - step * (steps - 1 - i);
    }
    return of(values).to(dtype);
  }

  /**
   * Uniform values in [0, 1) from a generator seeded with {@code seed}; a floating dtype.
   *
   * @param seed the generator's seed: the same seed gives the same values
   * @param dtype the element type
   * @param shape the sizes, outermost first
   * @return a new tensor
   */
  public static Tensor rand(long seed, DType dtype, long... shape) {
    requireFloating(dtype, "rand");
    SplittableRandom rng = new SplittableRandom(seed);
    return generated(dtype, shape, rng::nextDouble);
  }

  /**
   * Standard normal values from a generator seeded with {@code seed}; a floating dtype.
   *
   * @param seed the generator's seed: the same seed gives the same values
   * @param dtype the element type
   * @param shape the sizes, outermost first
   * @return a new tensor
   */
  public static Tensor randn(long seed, DType dtype, long... shape) {
    requireFloating(dtype, "randn");
    SplittableRandom rng = new SplittableRandom(seed);
    return generated(dtype, shape, rng::nextGaussian);
  }

  /**
   * Uniform integers in [low, high) from a generator seeded with {@code seed}, as {@code
   * torch.randint(low, high, shape, dtype=dtype)}. As PyTorch, {@code low} and {@code high - 1}
   * must be values of the dtype (bool: 0 and 1; float16: within ±65504), so nothing wraps: to draw
   * a wider range and wrap it, draw int64 and convert ({@code randint(seed, -100, 100, INT64,
   * shape).to(UINT8)}).
   *
   * @param seed the generator's seed: the same seed gives the same values
   * @param low the smallest value drawn
   * @param high the end of the range, excluded
   * @param dtype the element type
   * @param shape the sizes, outermost first
   * @return a new tensor
   * @throws IllegalArgumentException if {@code low >= high}, the dtype is complex, or {@code low} or
   *     {@code high - 1} is out of the dtype's range
   */
  public static Tensor randint(long seed, long low, long high, DType dtype, long... shape) {
    checkDtype(dtype);
    if (low >= high) {
      throw new IllegalArgumentException(
          "randint needs low < high, got low=" + low + " and high=" + high);
    }
    if (dtype.isComplex()) {
      throw new IllegalArgumentException("randint is not implemented for " + dtype);
    }
    checkRandintBound("low", low, low, dtype);
    checkRandintBound("high - 1", high, high - 1, dtype);
    SplittableRandom rng = new SplittableRandom(seed);
    Tensor t = empty(dtype, shape);
    for (long i = 0; i < t.numel(); i++) {
      long v = rng.nextLong(low, high);
      Elements.write(t.segment(), dtype, i * dtype.byteSize(), Convert.fromLong(dtype, v, false));
    }
    return t;
  }

  /**
   * PyTorch's {@code check_from_to_in_range} in randint's words: {@code value} ({@code low}, or
   * {@code high - 1}) must be a value of {@code dtype}. float32, bfloat16 and float64 hold every
   * long in range (rounded, as PyTorch's); float16 holds ±65504.
   */
  private static void checkRandintBound(String name, long given, long value, DType dtype) {
    long min;
    long max;
    if (dtype == DType.BOOL) {
      min = 0;
      max = 1;
    } else if (dtype == DType.FLOAT16) {
      min = -65504;
      max = 65504;
    } else if (dtype == DType.UINT64) {
      min = 0;
      max = Long.MAX_VALUE;
    } else if (dtype.isIntegral(false) && dtype != DType.INT64) {
      int bits = dtype.byteSize() * 8;
      min = dtype.isUnsigned() ? 0 : -(1L << (bits - 1));
      max = dtype.isUnsigned() ? (1L << bits) - 1 : (1L << (bits - 1)) - 1;
    } else {
      return;
    }
    if (value < min || value > max) {
      String range = dtype == DType.UINT64 ? "0 to 18446744073709551615" : min + " to " + max;
      throw new IllegalArgumentException("randint: " + name + " = " + value
          + (name.equals("low") ? "" : " (high=" + given + ")") + " is out of bounds for "
          + dtype + ", whose values are " + range);
    }
  }

  private static Tensor generated(
      DType dtype, long[] shape, java.util.function.DoubleSupplier values) {
    Tensor t = empty(dtype, shape);
    for (long i = 0; i < t.numel(); i++) {
      Elements.write(
          t.segment(), dtype, i * dtype.byteSize(), Convert.fromDouble(dtype, values.getAsDouble()));
    }
    return t;
  }

  private static void requireFloating(DType dtype, String op) {
    checkDtype(dtype);
    if (!dtype.isFloatingPoint()) {
      throw new IllegalArgumentException(
          op + " needs a floating dtype, got " + dtype);
    }
  }

  // ---- from Java arrays ----------------------------------------------------------------------

  /**
   * {@return a BOOL tensor of {@code data} in row-major order; no shape means one dimension}
   *
   * @param data the values, in row-major order
   * @param shape the sizes, outermost first
   */
  public static Tensor of(boolean[] data, long... shape) {
    Tensor t = fromArray(DType.BOOL, requireData(data).length, shape);
    for (int i = 0; i < data.length; i++) {
      t.segment().set(ValueLayout.JAVA_BYTE, i, data[i] ? (byte) 1 : (byte) 0);
    }
    return t;
  }

  /**
   * {@return an INT8 tensor (use {@code .to(DType.UINT8)} or {@link #of(byte[], DType, long...)})}
   *
   * @param data the values, in row-major order
   * @param shape the sizes, outermost first
   */
  public static Tensor of(byte[] data, long... shape) {
    Tensor t = fromArray(DType.INT8, requireData(data).length, shape);
    MemorySegment.copy(data, 0, t.segment(), ValueLayout.JAVA_BYTE, 0, data.length);
    return t;
  }

  /**
   * {@return an INT16 tensor}
   *
   * @param data the values, in row-major order
   * @param shape the sizes, outermost first
   */
  public static Tensor of(short[] data, long... shape) {
    Tensor t = fromArray(DType.INT16, requireData(data).length, shape);
    MemorySegment.copy(data, 0, t.segment(), ValueLayout.JAVA_SHORT, 0, data.length);
    return t;
  }

  /**
   * {@return a UINT16 tensor (Java's {@code char} is unsigned 16-bit)}
   *
   * @param data the values, in row-major order
   * @param shape the sizes, outermost first
   */
  public static Tensor of(char[] data, long... shape) {
    Tensor t = fromArray(DType.UINT16, requireData(data).length, shape);
    MemorySegment.copy(data, 0, t.segment(), ValueLayout.JAVA_CHAR, 0, data.length);
    return t;
  }

  /**
   * {@return an INT32 tensor}
   *
   * @param data the values, in row-major order
   * @param shape the sizes, outermost first
   */
  public static Tensor of(int[] data, long... shape) {
    Tensor t = fromArray(DType.INT32, requireData(data).length, shape);
    MemorySegment.copy(data, 0, t.segment(), ValueLayout.JAVA_INT, 0, data.length);
    return t;
  }

  /**
   * {@return an INT64 tensor}
   *
   * @param data the values, in row-major order
   * @param shape the sizes, outermost first
   */
  public static Tensor of(long[] data, long... shape) {
    Tensor t = fromArray(DType.INT64, requireData(data).length, shape);
    MemorySegment.copy(data, 0, t.segment(), ValueLayout.JAVA_LONG, 0, data.length);
    return t;
  }

  /**
   * {@return a FLOAT32 tensor}
   *
   * @param data the values, in row-major order
   * @param shape the sizes, outermost first
   */
  public static Tensor of(float[] data, long... shape) {
    Tensor t = fromArray(DType.FLOAT32, requireData(data).length, shape);
    MemorySegment.copy(data, 0, t.segment(), ValueLayout.JAVA_FLOAT, 0, data.length);
    return t;
  }

  /**
   * {@return a FLOAT64 tensor}
   *
   * @param data the values, in row-major order
   * @param shape the sizes, outermost first
   */
  public static Tensor of(double[] data, long... shape) {
    Tensor t = fromArray(DType.FLOAT64, requireData(data).length, shape);
    MemorySegment.copy(data, 0, t.segment(), ValueLayout.JAVA_DOUBLE, 0, data.length);
    return t;
  }

  // ---- from nested Java arrays, shape inferred (np.array) ------------------------------------

  /**
   * {@return a FLOAT32 tensor of shape {@code [data.length, data[0].length]}, as {@code
   * np.array(data)}: {@code Tensor.of(new float[][] {{1, 2}, {3, 4}})} is 2×2} The Java type fixes
   * the number of dimensions (an empty {@code new float[0][]} is {@code [0, 0]}). Rows of different
   * lengths (a ragged array) and null rows are refused, naming the row, before anything is
   * allocated.
   *
   * @param data the values, in row-major order
   */
  public static Tensor of(float[][] data) {
    NestedArray n = NestedArray.of(data, 2, "float");
    return of((float[]) n.flat(float.class), n.shape());
  }

  /**
   * {@return a FLOAT32 tensor of shape {@code [d0, d1, d2]}; rules of {@link #of(float[][])}}
   *
   * @param data the values, in row-major order
   */
  public static Tensor of(float[][][] data) {
    NestedArray n = NestedArray.of(data, 3, "float");
    return of((float[]) n.flat(float.class), n.shape());
  }

  /**
   * {@return a FLOAT64 tensor of shape {@code [d0, d1]}; rules of {@link #of(float[][])}}
   *
   * @param data the values, in row-major order
   */
  public static Tensor of(double[][] data) {
    NestedArray n = NestedArray.of(data, 2, "double");
    return of((double[]) n.flat(double.class), n.shape());
  }

  /**
   * {@return a FLOAT64 tensor of shape {@code [d0, d1, d2]}; rules of {@link #of(float[][])}}
   *
   * @param data the values, in row-major order
   */
  public static Tensor of(double[][][] data) {
    NestedArray n = NestedArray.of(data, 3, "double");
    return of((double[]) n.flat(double.class), n.shape());
  }

  /**
   * {@return an INT32 tensor of shape {@code [d0, d1]}; rules of {@link #of(float[][])}}
   *
   * @param data the values, in row-major order
   */
  public static Tensor of(int[][] data) {
    NestedArray n = NestedArray.of(data, 2, "int");
    return of((int[]) n.flat(int.class), n.shape());
  }

  /**
   * {@return an INT32 tensor of shape {@code [d0, d1, d2]}; rules of {@link #of(float[][])}}
   *
   * @param data the values, in row-major order
   */
  public static Tensor of(int[][][] data) {
    NestedArray n = NestedArray.of(data, 3, "int");
    return of((int[]) n.flat(int.class), n.shape());
  }

  /**
   * {@return an INT64 tensor of shape {@code [d0, d1]}; rules of {@link #of(float[][])}}
   *
   * @param data the values, in row-major order
   */
  public static Tensor of(long[][] data) {
    NestedArray n = NestedArray.of(data, 2, "long");
    return of((long[]) n.flat(long.class), n.shape());
  }

  /**
   * {@return an INT64 tensor of shape {@code [d0, d1, d2]}; rules of {@link #of(float[][])}}
   *
   * @param data the values, in row-major order
   */
  public static Tensor of(long[][][] data) {
    NestedArray n = NestedArray.of(data, 3, "long");
    return of((long[]) n.flat(long.class), n.shape());
  }

  /**
   * {@return a BOOL tensor of shape {@code [d0, d1]}; rules of {@link #of(float[][])}}
   *
   * @param data the values, in row-major order
   */
  public static Tensor of(boolean[][] data) {
    NestedArray n = NestedArray.of(data, 2, "boolean");
    return of((boolean[]) n.flat(boolean.class), n.shape());
  }

  /**
   * {@return a BOOL tensor of shape {@code [d0, d1, d2]}; rules of {@link #of(float[][])}}
   *
   * @param data the values, in row-major order
   */
  public static Tensor of(boolean[][][] data) {
    NestedArray n = NestedArray.of(data, 3, "boolean");
    return of((boolean[]) n.flat(boolean.class), n.shape());
  }

  /**
   * {@code data} converted to {@code dtype} by the rules of {@link Tensor#to(DType)}: the bytes keep
   * their bits in UINT8, wrap into wider types, ...
   *
   * @param data the values, in row-major order
   * @param dtype the element type
   * @param shape the sizes, outermost first
   * @return a new tensor
   */
  public static Tensor of(byte[] data, DType dtype, long... shape) {
    return of(data, shape).to(checkDtype(dtype));
  }

  /**
   * {@code data} converted to {@code dtype} by the rules of {@link Tensor#to(DType)}.
   *
   * @param data the values, in row-major order
   * @param dtype the element type
   * @param shape the sizes, outermost first
   * @return a new tensor
   */
  public static Tensor of(int[] data, DType dtype, long... shape) {
    return of(data, shape).to(checkDtype(dtype));
  }

  /**
   * {@code data} converted to {@code dtype}; with UINT64 the longs keep their bits (read as
   * unsigned).
   *
   * @param data the values, in row-major order
   * @param dtype the element type
   * @param shape the sizes, outermost first
   * @return a new tensor
   */
  public static Tensor of(long[] data, DType dtype, long... shape) {
    return of(data, shape).to(checkDtype(dtype));
  }

  /**
   * {@code data} converted to {@code dtype}: FLOAT16 and BFLOAT16 round to nearest even; for a
   * complex dtype the values are real parts.
   *
   * @param data the values, in row-major order
   * @param dtype the element type
   * @param shape the sizes, outermost first
   * @return a new tensor
   */
  public static Tensor of(float[] data, DType dtype, long... shape) {
    return of(data, shape).to(checkDtype(dtype));
  }

  /**
   * {@code data} converted to {@code dtype} (through float32 for the 16- and 8-bit floats).
   *
   * @param data the values, in row-major order
   * @param dtype the element type
   * @param shape the sizes, outermost first
   * @return a new tensor
   */
  public static Tensor of(double[] data, DType dtype, long... shape) {
    return of(data, shape).to(checkDtype(dtype));
  }

  /**
   * {@return a complex tensor from interleaved {@code (re, im)} pairs: COMPLEX64, or COMPLEX32 or
   * COMPLEX128 when {@code dtype} says so} {@code shape} counts complex elements (half the array
   * length).
   *
   * @param interleaved the real and imaginary parts, alternating
   * @param dtype the element type
   * @param shape the sizes, outermost first
   */
  public static Tensor ofComplex(float[] interleaved, DType dtype, long... shape) {
    requireComplex(dtype);
    Tensor parts = complexParts(of(requireData(interleaved)), interleaved.length);
    return viewAsComplex(parts.to(dtype.componentType()), dtype, shape);
  }

  /**
   * {@return a COMPLEX128 tensor from interleaved {@code (re, im)} pairs}
   *
   * @param interleaved the real and imaginary parts, alternating
   * @param shape the sizes, outermost first
   */
  public static Tensor ofComplex(double[] interleaved, long... shape) {
    return ofComplex(interleaved, DType.COMPLEX128, shape);
  }

  /**
   * {@return a complex tensor of {@code dtype} from interleaved {@code (re, im)} double pairs}
   *
   * @param interleaved the real and imaginary parts, alternating
   * @param dtype the element type
   * @param shape the sizes, outermost first
   */
  public static Tensor ofComplex(double[] interleaved, DType dtype, long... shape) {
    requireComplex(dtype);
    Tensor parts = complexParts(of(requireData(interleaved)), interleaved.length);
    return viewAsComplex(parts.to(dtype.componentType()), dtype, shape);
  }

  private static Tensor complexParts(Tensor flat, int length) {
    if (length % 2 != 0) {
      throw new IllegalArgumentException(
          "interleaved complex data needs an even length, got " + length);
    }
    return flat;
  }

  /** Reinterprets a contiguous component tensor of 2n elements as n complex elements. */
  private static Tensor viewAsComplex(Tensor parts, DType complex, long[] shape) {
    long n = parts.numel() / 2;
    long[] s = shape.length == 0 ? new long[] {n} : Shapes.checkShape(shape);
    if (Shapes.numelOf(s) != n) {
      throw new IllegalArgumentException(
          "data has " + n + " complex elements but shape " + Arrays.toString(s) + " needs "
              + Shapes.numelOf(s));
    }
    return Tensor.make(parts.segment(), complex, s, Shapes.contiguousStrides(s), 0, false);
  }

  private static void requireComplex(DType dtype) {
    checkDtype(dtype);
    if (!dtype.isComplex()) {
      throw new IllegalArgumentException("ofComplex needs a complex dtype, got " + dtype);
    }
  }

  private static Tensor fromArray(DType dtype, int length, long[] shape) {
    long[] s =
        shape == null || shape.length == 0 ? new long[] {length} : Shapes.checkShape(shape);
    long n = Shapes.numelOf(s);
    if (n != length) {
      throw new IllegalArgumentException(
          "data has " + length + " elements but shape " + Arrays.toString(s) + " needs " + n);
    }
    return empty(dtype, s);
  }

  static <T> T requireData(T data) {
    if (data == null) {
      throw new IllegalArgumentException("data must not be null");
    }
    return data;
  }

  // ---- zero-dim tensors and wrapped numbers --------------------------------------------------

  /**
   * {@return a zero-dim FLOAT64 tensor (not a wrapped number: it promotes as a zero-dim tensor)}
   *
   * @param value the value
   */
  public static Tensor scalar(double value) {
    return scalar(value, DType.FLOAT64);
  }

  /**
   * {@return a zero-dim FLOAT32 tensor}
   *
   * @param value the value
   */
  public static Tensor scalar(float value) {
    return scalar(value, DType.FLOAT32);
  }

  /**
   * {@return a zero-dim INT64 tensor}
   *
   * @param value the value
   */
  public static Tensor scalar(long value) {
    return full(DType.INT64, value);
  }

  /**
   * {@return a zero-dim INT32 tensor}
   *
   * @param value the value
   */
  public static Tensor scalar(int value) {
    return full(DType.INT32, (long) value);
  }

  /**
   * {@return a zero-dim BOOL tensor}
   *
   * @param value the value
   */
  public static Tensor scalar(boolean value) {
    return full(DType.BOOL, value);
  }

  /**
   * {@return a zero-dim tensor of {@code dtype} holding {@code value} converted by {@link
   * Tensor#to}'s rules}
   *
   * @param value the value
   * @param dtype the element type
   */
  public static Tensor scalar(double value, DType dtype) {
    return full(checkDtype(dtype), value);
  }

  /**
   * {@return a zero-dim complex tensor of {@code dtype}}
   *
   * @param re the real part
   * @param im the imaginary part
   * @param dtype the element type
   */
  public static Tensor scalarComplex(double re, double im, DType dtype) {
    return ofComplex(new double[] {re, im}, dtype).view(new long[0]);
  }

  // Wrapped numbers are the planner's business (users pass Java numbers to the ops), so these are
  // package-private; Dispatch, in this package, calls them.

  /**
   * A Java {@code double} as a wrapped number: a zero-dim FLOAT64 tensor that promotes like a
   * Python float in PyTorch (it does not raise a tensor's float dtype: {@code float32 + 2.5} is
   * float32; {@code int32 + 2.5} is the default float dtype).
   */
  static Tensor wrap(double value) {
    return asWrapped(scalar(value, DType.FLOAT64));
  }

  /** A Java integer as a wrapped number: a zero-dim INT64 tensor that promotes like a Python int. */
  static Tensor wrap(long value) {
    return asWrapped(full(DType.INT64, value));
  }

  /** A Java {@code boolean} as a wrapped number: a zero-dim BOOL tensor. */
  static Tensor wrap(boolean value) {
    return asWrapped(full(DType.BOOL, value));
  }

  /** A complex Java scalar as a wrapped number: a zero-dim COMPLEX128 tensor. */
  static Tensor wrapComplex(double re, double im) {
    return asWrapped(scalarComplex(re, im, DType.COMPLEX128));
  }

  private static Tensor asWrapped(Tensor t) {
    return Tensor.make(t.segment(), t.dtype(), t.shapeRef(), t.stridesRef(), t.offset(), true);
  }

  static DType checkDtype(DType dtype) {
    if (dtype == null) {
      throw new IllegalArgumentException("dtype must not be null");
    }
    return dtype;
  }
}
