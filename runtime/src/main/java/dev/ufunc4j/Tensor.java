package dev.ufunc4j;

import static dev.ufunc4j.internal.Shapes.insert;
import static dev.ufunc4j.internal.Shapes.remove;
import static dev.ufunc4j.internal.Shapes.wrapDim;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.TensorLike;
import dev.ufunc4j.internal.Convert;
import dev.ufunc4j.internal.Copies;
import dev.ufunc4j.internal.Elements;
import dev.ufunc4j.internal.Equality;
import dev.ufunc4j.internal.NativeMemory;
import dev.ufunc4j.internal.ShapeMath;
import dev.ufunc4j.internal.Shapes;
import dev.ufunc4j.internal.TensorInternals;
import dev.ufunc4j.internal.VectorModule;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A strided view of native memory holding elements of one {@link DType}: PyTorch's tensor model.
 *
 * <p>A tensor is a dtype, a shape, strides and an offset (both counted in elements of the dtype; a
 * complex element is one (re, im) pair; stride 0 on broadcast dimensions) over a storage segment.
 * Storage is native, zeroed and 64-byte aligned ({@link NativeMemory}), freed by the GC, or when
 * the enclosing {@link TensorScope} closes. Views ({@link #expand}, {@link #view}, {@link
 * #permute}, {@link #slice}, ...) share storage and never copy; {@link #reshape} and {@link
 * #flatten} copy only when the strides allow no view, as in PyTorch. Tensors are mutable through
 * the setters and through kernels, like PyTorch's; a write through one view is seen by all views of
 * the same storage.
 *
 * <p>The elementwise ops are its methods too: {@code x.add(y)} is {@link Ops#add(Tensor, Tensor)
 * Ops.add(x, y)} and {@code x.addInPlace(y)} is {@code Ops.add(x, y, x)}, for every op of {@link
 * Ops} whose first operand is a tensor (generated with {@code Ops} from the op declarations).
 *
 * <p>Indices may be negative (counting from the end, as in Python). Every method checks its
 * arguments before touching memory and names the offending values in its exception; errors that
 * PyTorch also reports carry PyTorch's text.
 *
 * <p><b>Threads.</b> A tensor that no thread writes may be read by any number of threads at once.
 * A tensor written by one thread (an in-place op such as {@code addInPlace}, an {@code out=}
 * target, a setter, or a write through another view of its storage) must not be read or written
 * by another thread without synchronisation between the two (a lock, {@link Thread#join}, {@link
 * java.util.concurrent.Future#get}: any happens-before edge). The runtime takes no lock on a
 * tensor's memory: threads calling {@code x.addInPlace(y)} on one {@code x} lose updates and
 * readers can see a half-written result, as in PyTorch. Ops on different tensors need nothing.
 */
public final class Tensor extends TensorVocabulary implements TensorLike {
  static {
    // Before anything else: without the Vector API the first op would fail deep in a kernel.
    VectorModule.require();
    // First, so that the runtime's other packages can reach the members below (TensorInternals).
    TensorInternals.install(new InternalAccess());
  }

  private final DType dtype;
  private final long[] shape;
  private final long[] strides;
  private final long offset;
  private final MemorySegment segment;
  private final boolean wrappedNumber;
  private final long numel;
  /** Autograd state ({@link GradGraph}); null while this tensor is in no graph. */
  private volatile GradGraph.Meta autograd;
  /**
   * Writes through any view of this storage ({@link GradGraph.Version}); made on first need, by
   * compare-and-set: two threads making the first views of one tensor at once share one counter.
   */
  private volatile GradGraph.Version version;
  /** For a view made by a view method: its base and how to remake it; null otherwise. */
  private GradGraph.ViewOrigin viewOrigin;

  private static final VarHandle AUTOGRAD;
  private static final VarHandle VERSION;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      AUTOGRAD = lookup.findVarHandle(Tensor.class, "autograd", GradGraph.Meta.class);
      VERSION = lookup.findVarHandle(Tensor.class, "version", GradGraph.Version.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private Tensor(
      MemorySegment segment,
      DType dtype,
      long[] shape,
      long[] strides,
      long offset,
      boolean wrappedNumber) {
    this.segment = segment;
    this.dtype = dtype;
    this.shape = shape;
    this.strides = strides;
    this.offset = offset;
    this.wrappedNumber = wrappedNumber;
    long n = 1;
    for (long s : shape) {
      n *= s; // checkShape already proved the product fits
    }
    this.numel = n;
  }

  // ============================================================================================
  // Descriptors
  // ============================================================================================

  @Override
  public DType dtype() {
    return dtype;
  }

  /** The sizes, outermost first (a copy). */
  public long[] shape() {
    return shape.clone();
  }

  /**
   * The shape as text, {@code [2, 3]} ({@code []} for a zero-dim tensor): what printing {@link
   * #shape()} (a {@code long[]}, which prints as {@code [J@1b6d3586}) would show if Java printed
   * arrays, and the form the runtime's messages use. PyTorch prints {@code torch.Size([2, 3])}.
   *
   * @return the sizes, outermost first, between brackets
   */
  public String shapeString() {
    return Arrays.toString(shape);
  }

  /** Size of dimension {@code dim} (negative counts from the end). */
  public long size(int dim) {
    return shape[wrapDim(dim, shape.length)];
  }

  /** Element strides, outermost first (a copy); 0 on broadcast dimensions. */
  public long[] strides() {
    return strides.clone();
  }

  /** Stride of dimension {@code dim} in elements. */
  public long stride(int dim) {
    return strides[wrapDim(dim, shape.length)];
  }

  /** Offset of this view's first element in its storage, in elements. */
  public long offset() {
    return offset;
  }

  /**
   * The whole storage segment this tensor views (shared by all its views). Element {@code i} of
   * the storage is at byte {@code i * dtype().byteSize()}; this tensor's element at index {@code
   * (i0, i1, ...)} is storage element {@code offset() + i0 * strides()[0] + i1 * strides()[1] +
   * ...}. For kernels and the planner; users read elements through the getters.
   */
  public MemorySegment segment() {
    return segment;
  }

  /** Capacity of the storage in elements. */
  public long storageSize() {
    return segment.byteSize() / dtype.byteSize();
  }

  /** Shape without a copy, for the planner (other packages: TensorInternals); do not modify. */
  long[] shapeRef() {
    return shape;
  }

  /** Strides without a copy, for the planner (other packages: TensorInternals); do not modify. */
  long[] stridesRef() {
    return strides;
  }

  @Override
  public int ndim() {
    return shape.length;
  }

  /** Number of elements (1 for a zero-dim tensor). */
  public long numel() {
    return numel;
  }

  @Override
  public boolean isWrappedNumber() {
    return wrappedNumber;
  }

  /**
   * True when the elements are laid out row-major without gaps (PyTorch's {@code
   * is_contiguous}: dimensions of size 1 may have any stride; an empty tensor is contiguous).
   */
  public boolean isContiguous() {
    return Shapes.isContiguous(shape, strides, numel);
  }

  // ============================================================================================
  // Elementwise ops: generated from Builtins into TensorMethods (x.add(y) is Ops.add(x, y),
  // x.addInPlace(y) is Ops.add(x, y, x)); this tensor is their receiver.
  // ============================================================================================

  @Override
  Tensor self() {
    return this;
  }

  // ============================================================================================
  // Factories
  // ============================================================================================

  /**
   * A tensor of {@code dtype} and {@code shape} with zeroed contents (storage is always zeroed;
   * PyTorch's {@code empty} leaves it undefined).
   */
  public static Tensor empty(DType dtype, long... shape) {
    checkDtype(dtype);
    long[] s = Shapes.checkShape(shape);
    return new Tensor(allocate(dtype, s, true), dtype, s, Shapes.contiguousStrides(s), 0, false);
  }

  /**
   * A tensor of {@code shape} laid out with {@code strides}, which must be a permutation of the
   * contiguous strides of {@code shape} (the planner's layout-following results). Its contents are
   * unspecified: the caller writes every element (a kernel's output).
   */
  static Tensor emptyStrided(DType dtype, long[] shape, long[] strides) {
    return new Tensor(allocate(dtype, shape, false), dtype, shape.clone(), strides.clone(), 0, false);
  }

  /** A C-contiguous tensor whose contents are unspecified: the caller writes every element. */
  static Tensor emptyUninitialized(DType dtype, long[] shape) {
    return new Tensor(
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

  /** A tensor of zeros. */
  public static Tensor zeros(DType dtype, long... shape) {
    return empty(dtype, shape);
  }

  /** A tensor of ones. */
  public static Tensor ones(DType dtype, long... shape) {
    return full(dtype, 1L, shape);
  }

  /** A tensor filled with {@code value} converted to {@code dtype} (complex: imaginary part 0). */
  public static Tensor full(DType dtype, double value, long... shape) {
    Tensor t = empty(dtype, shape);
    Copies.fill(t, dtype.isComplex() ? Convert.fromDouble(dtype.componentType(), value)
        : Convert.fromDouble(dtype, value));
    return t;
  }

  /** A tensor filled with the integer {@code value} converted to {@code dtype}. */
  public static Tensor full(DType dtype, long value, long... shape) {
    Tensor t = empty(dtype, shape);
    Copies.fill(t, dtype.isComplex() ? Convert.fromLong(dtype.componentType(), value, false)
        : Convert.fromLong(dtype, value, false));
    return t;
  }

  /** A tensor filled with {@code value} converted to {@code dtype}. */
  public static Tensor full(DType dtype, boolean value, long... shape) {
    return full(dtype, value ? 1L : 0L, shape);
  }

  /** {@code [0, 1, ..., end - 1]} as INT64 (PyTorch's {@code arange(end)}). */
  public static Tensor arange(long end) {
    return arange(0, end, 1);
  }

  /** {@code start, start + step, ...} up to but excluding {@code end}, as INT64. */
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
      t.segment.setAtIndex(ValueLayout.JAVA_LONG, i, start + i * step);
    }
    return t;
  }

  private static final int ARANGE_CHUNK = 1 << 16;

  /**
   * {@code start + i * step} for {@code i} in {@code [0, ceil((end - start) / step))}, computed in
   * double and converted to {@code dtype}.
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
    for (long from = 0; from < out.numel; from += ARANGE_CHUNK) {
      double[] values = new double[(int) Math.min(ARANGE_CHUNK, out.numel - from)];
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

  /** Uniform values in [0, 1) from a generator seeded with {@code seed}; a floating dtype. */
  public static Tensor rand(long seed, DType dtype, long... shape) {
    requireFloating(dtype, "rand");
    SplittableRandom rng = new SplittableRandom(seed);
    return generated(dtype, shape, rng::nextDouble);
  }

  /** Standard normal values from a generator seeded with {@code seed}; a floating dtype. */
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
    for (long i = 0; i < t.numel; i++) {
      long v = rng.nextLong(low, high);
      Elements.write(t.segment, dtype, i * dtype.byteSize(), Convert.fromLong(dtype, v, false));
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
    for (long i = 0; i < t.numel; i++) {
      Elements.write(
          t.segment, dtype, i * dtype.byteSize(), Convert.fromDouble(dtype, values.getAsDouble()));
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

  /** A BOOL tensor of {@code data} in row-major order; no shape means one dimension. */
  public static Tensor of(boolean[] data, long... shape) {
    Tensor t = fromArray(DType.BOOL, requireData(data).length, shape);
    for (int i = 0; i < data.length; i++) {
      t.segment.set(ValueLayout.JAVA_BYTE, i, data[i] ? (byte) 1 : (byte) 0);
    }
    return t;
  }

  /** An INT8 tensor (use {@code .to(DType.UINT8)} or {@link #of(byte[], DType, long...)}). */
  public static Tensor of(byte[] data, long... shape) {
    Tensor t = fromArray(DType.INT8, requireData(data).length, shape);
    MemorySegment.copy(data, 0, t.segment, ValueLayout.JAVA_BYTE, 0, data.length);
    return t;
  }

  /** An INT16 tensor. */
  public static Tensor of(short[] data, long... shape) {
    Tensor t = fromArray(DType.INT16, requireData(data).length, shape);
    MemorySegment.copy(data, 0, t.segment, ValueLayout.JAVA_SHORT, 0, data.length);
    return t;
  }

  /** A UINT16 tensor (Java's {@code char} is unsigned 16-bit). */
  public static Tensor of(char[] data, long... shape) {
    Tensor t = fromArray(DType.UINT16, requireData(data).length, shape);
    MemorySegment.copy(data, 0, t.segment, ValueLayout.JAVA_CHAR, 0, data.length);
    return t;
  }

  /** An INT32 tensor. */
  public static Tensor of(int[] data, long... shape) {
    Tensor t = fromArray(DType.INT32, requireData(data).length, shape);
    MemorySegment.copy(data, 0, t.segment, ValueLayout.JAVA_INT, 0, data.length);
    return t;
  }

  /** An INT64 tensor. */
  public static Tensor of(long[] data, long... shape) {
    Tensor t = fromArray(DType.INT64, requireData(data).length, shape);
    MemorySegment.copy(data, 0, t.segment, ValueLayout.JAVA_LONG, 0, data.length);
    return t;
  }

  /** A FLOAT32 tensor. */
  public static Tensor of(float[] data, long... shape) {
    Tensor t = fromArray(DType.FLOAT32, requireData(data).length, shape);
    MemorySegment.copy(data, 0, t.segment, ValueLayout.JAVA_FLOAT, 0, data.length);
    return t;
  }

  /** A FLOAT64 tensor. */
  public static Tensor of(double[] data, long... shape) {
    Tensor t = fromArray(DType.FLOAT64, requireData(data).length, shape);
    MemorySegment.copy(data, 0, t.segment, ValueLayout.JAVA_DOUBLE, 0, data.length);
    return t;
  }

  // ---- from nested Java arrays, shape inferred (np.array) ------------------------------------

  /**
   * A FLOAT32 tensor of shape {@code [data.length, data[0].length]}, as {@code np.array(data)}:
   * {@code Tensor.of(new float[][] {{1, 2}, {3, 4}})} is 2×2. The Java type fixes the number of
   * dimensions (an empty {@code new float[0][]} is {@code [0, 0]}). Rows of different lengths (a
   * ragged array) and null rows are refused, naming the row, before anything is allocated.
   */
  public static Tensor of(float[][] data) {
    Nested n = Nested.of(data, 2, "float");
    return of((float[]) n.flat(float.class), n.shape());
  }

  /** A FLOAT32 tensor of shape {@code [d0, d1, d2]}; rules of {@link #of(float[][])}. */
  public static Tensor of(float[][][] data) {
    Nested n = Nested.of(data, 3, "float");
    return of((float[]) n.flat(float.class), n.shape());
  }

  /** A FLOAT64 tensor of shape {@code [d0, d1]}; rules of {@link #of(float[][])}. */
  public static Tensor of(double[][] data) {
    Nested n = Nested.of(data, 2, "double");
    return of((double[]) n.flat(double.class), n.shape());
  }

  /** A FLOAT64 tensor of shape {@code [d0, d1, d2]}; rules of {@link #of(float[][])}. */
  public static Tensor of(double[][][] data) {
    Nested n = Nested.of(data, 3, "double");
    return of((double[]) n.flat(double.class), n.shape());
  }

  /** An INT32 tensor of shape {@code [d0, d1]}; rules of {@link #of(float[][])}. */
  public static Tensor of(int[][] data) {
    Nested n = Nested.of(data, 2, "int");
    return of((int[]) n.flat(int.class), n.shape());
  }

  /** An INT32 tensor of shape {@code [d0, d1, d2]}; rules of {@link #of(float[][])}. */
  public static Tensor of(int[][][] data) {
    Nested n = Nested.of(data, 3, "int");
    return of((int[]) n.flat(int.class), n.shape());
  }

  /** An INT64 tensor of shape {@code [d0, d1]}; rules of {@link #of(float[][])}. */
  public static Tensor of(long[][] data) {
    Nested n = Nested.of(data, 2, "long");
    return of((long[]) n.flat(long.class), n.shape());
  }

  /** An INT64 tensor of shape {@code [d0, d1, d2]}; rules of {@link #of(float[][])}. */
  public static Tensor of(long[][][] data) {
    Nested n = Nested.of(data, 3, "long");
    return of((long[]) n.flat(long.class), n.shape());
  }

  /** A BOOL tensor of shape {@code [d0, d1]}; rules of {@link #of(float[][])}. */
  public static Tensor of(boolean[][] data) {
    Nested n = Nested.of(data, 2, "boolean");
    return of((boolean[]) n.flat(boolean.class), n.shape());
  }

  /** A BOOL tensor of shape {@code [d0, d1, d2]}; rules of {@link #of(float[][])}. */
  public static Tensor of(boolean[][][] data) {
    Nested n = Nested.of(data, 3, "boolean");
    return of((boolean[]) n.flat(boolean.class), n.shape());
  }

  /**
   * A rectangular nested Java array, checked: its shape and its innermost rows in row-major order.
   * Works on {@code Object} through {@link java.lang.reflect.Array} so that one check serves every
   * element type; the copy is one {@link System#arraycopy} per innermost row.
   */
  private record Nested(long[] shape, java.util.List<Object> rows) {
    static Nested of(Object data, int depth, String element) {
      requireData(data);
      long[] shape = new long[depth];
      java.util.List<Object> level = java.util.List.of(data);
      for (int d = 0; d < depth; d++) {
        int expected = -1;
        java.util.List<Object> next = new java.util.ArrayList<>();
        for (int i = 0; i < level.size(); i++) {
          Object row = level.get(i);
          if (row == null) {
            throw new IllegalArgumentException(
                "Tensor.of(" + element + "[]".repeat(depth) + "): " + path(i, shape, d)
                    + " is null");
          }
          int length = java.lang.reflect.Array.getLength(row);
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
              next.add(java.lang.reflect.Array.get(row, j));
            }
          } else {
            next.add(row);
          }
        }
        shape[d] = Math.max(expected, 0);
        if (d + 1 < depth) {
          level = next;
        } else {
          level = java.util.List.copyOf(next);
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
      return new Nested(shape, level);
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
      Object flat = java.lang.reflect.Array.newInstance(type, n);
      int rowLength = (int) shape[shape.length - 1];
      for (int r = 0; r < rows.size(); r++) {
        System.arraycopy(rows.get(r), 0, flat, r * rowLength, rowLength);
      }
      return flat;
    }
  }

  /**
   * {@code data} converted to {@code dtype} by the rules of {@link #to(DType)}: the bytes keep
   * their bits in UINT8, wrap into wider types, ...
   */
  public static Tensor of(byte[] data, DType dtype, long... shape) {
    return of(data, shape).to(checkDtype(dtype));
  }

  /** {@code data} converted to {@code dtype} by the rules of {@link #to(DType)}. */
  public static Tensor of(int[] data, DType dtype, long... shape) {
    return of(data, shape).to(checkDtype(dtype));
  }

  /**
   * {@code data} converted to {@code dtype}; with UINT64 the longs keep their bits (read as
   * unsigned).
   */
  public static Tensor of(long[] data, DType dtype, long... shape) {
    return of(data, shape).to(checkDtype(dtype));
  }

  /**
   * {@code data} converted to {@code dtype}: FLOAT16 and BFLOAT16 round to nearest even; for a
   * complex dtype the values are real parts.
   */
  public static Tensor of(float[] data, DType dtype, long... shape) {
    return of(data, shape).to(checkDtype(dtype));
  }

  /** {@code data} converted to {@code dtype} (through float32 for the 16- and 8-bit floats). */
  public static Tensor of(double[] data, DType dtype, long... shape) {
    return of(data, shape).to(checkDtype(dtype));
  }

  /**
   * A complex tensor from interleaved {@code (re, im)} pairs: COMPLEX64, or COMPLEX32 or COMPLEX128
   * when {@code dtype} says so. {@code shape} counts complex elements (half the array length).
   */
  public static Tensor ofComplex(float[] interleaved, DType dtype, long... shape) {
    requireComplex(dtype);
    Tensor parts = complexParts(of(requireData(interleaved)), interleaved.length);
    return viewAsComplex(parts.to(dtype.componentType()), dtype, shape);
  }

  /** A COMPLEX128 tensor from interleaved {@code (re, im)} pairs. */
  public static Tensor ofComplex(double[] interleaved, long... shape) {
    return ofComplex(interleaved, DType.COMPLEX128, shape);
  }

  /** A complex tensor of {@code dtype} from interleaved {@code (re, im)} double pairs. */
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
    long n = parts.numel / 2;
    long[] s = shape.length == 0 ? new long[] {n} : Shapes.checkShape(shape);
    if (Shapes.numelOf(s) != n) {
      throw new IllegalArgumentException(
          "data has " + n + " complex elements but shape " + Arrays.toString(s) + " needs "
              + Shapes.numelOf(s));
    }
    return new Tensor(parts.segment, complex, s, Shapes.contiguousStrides(s), 0, false);
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

  private static <T> T requireData(T data) {
    if (data == null) {
      throw new IllegalArgumentException("data must not be null");
    }
    return data;
  }

  // ---- zero-dim tensors and wrapped numbers --------------------------------------------------

  /** A zero-dim FLOAT64 tensor (not a wrapped number: it promotes as a zero-dim tensor). */
  public static Tensor scalar(double value) {
    return scalar(value, DType.FLOAT64);
  }

  /** A zero-dim FLOAT32 tensor. */
  public static Tensor scalar(float value) {
    return scalar(value, DType.FLOAT32);
  }

  /** A zero-dim INT64 tensor. */
  public static Tensor scalar(long value) {
    return full(DType.INT64, value);
  }

  /** A zero-dim INT32 tensor. */
  public static Tensor scalar(int value) {
    return full(DType.INT32, (long) value);
  }

  /** A zero-dim BOOL tensor. */
  public static Tensor scalar(boolean value) {
    return full(DType.BOOL, value);
  }

  /** A zero-dim tensor of {@code dtype} holding {@code value} converted by {@link #to}'s rules. */
  public static Tensor scalar(double value, DType dtype) {
    return full(checkDtype(dtype), value);
  }

  /** A zero-dim complex tensor of {@code dtype}. */
  public static Tensor scalarComplex(double re, double im, DType dtype) {
    return ofComplex(new double[] {re, im}, dtype).view(new long[0]);
  }

  // Wrapped numbers are the planner's business (users pass Java numbers to the ops), so these are
  // package-private; Dispatch reaches them through TensorInternals.

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
    return new Tensor(t.segment, t.dtype, t.shape, t.strides, t.offset, true);
  }

  // ============================================================================================
  // Views
  // ============================================================================================

  /**
   * A view with {@code sizes}; a size-1 dimension can grow (stride 0), {@code -1} keeps a size,
   * and new leading dimensions may be added. Never copies. PyTorch's {@code expand}.
   */
  public Tensor expand(long... sizes) {
    Shapes.Geometry g = Shapes.expand(dtype, shape, strides, sizes);
    long[] from = shape;
    long[] to = g.shape();
    return GradGraph.view(this, view(to, g.strides(), offset), "expand",
        grad -> grad.sumToShape(from), t -> t.expand(to));
  }

  /** {@link #expand} to exactly {@code shape} (no {@code -1} needed): PyTorch's {@code broadcast_to}. */
  public Tensor broadcastTo(long... shape) {
    return expand(shape);
  }

  /**
   * A view with {@code shape} (one entry may be {@code -1}, inferred) over the same elements in
   * row-major order; fails when the strides do not allow it (use {@link #reshape}).
   */
  public Tensor view(long... shape) {
    long[] s = Shapes.inferSize(shape, numel);
    long[] st = Shapes.viewStrides(this.shape, this.strides, s);
    if (st == null) {
      throw new IllegalArgumentException(
          "view size is not compatible with input tensor's size and stride (at least one"
              + " dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
    }
    return reshaped(view(s, st, offset));
  }

  /** A view of this tensor's elements in another shape, recorded for autograd. */
  private Tensor reshaped(Tensor result) {
    long[] from = shape;
    long[] to = result.shape;
    return GradGraph.view(this, result, "view", g -> g.reshape(from), t -> t.view(to));
  }

  /** Like {@link #view}, but copies into a contiguous tensor when no view is possible. */
  public Tensor reshape(long... shape) {
    long[] s = Shapes.inferSize(shape, numel);
    long[] st = Shapes.viewStrides(this.shape, this.strides, s);
    if (st != null) {
      return reshaped(view(s, st, offset));
    }
    return copy().view(s);
  }

  /** A view with the dimensions in the order {@code dims} (a permutation of 0..ndim-1). */
  public Tensor permute(int... dims) {
    if (dims == null) {
      throw new IllegalArgumentException("dims must not be null");
    }
    int n = shape.length;
    if (dims.length != n) {
      throw new IllegalArgumentException(
          "permute(sparse_coo): number of dimensions in the tensor input does not match the"
              + " length of the desired ordering of dimensions i.e. input.dim() = " + n
              + " is not equal to len(dims) = " + dims.length);
    }
    long[] s = new long[n];
    long[] st = new long[n];
    boolean[] seen = new boolean[n];
    for (int i = 0; i < n; i++) {
      int d = wrapDim(dims[i], n);
      if (seen[d]) {
        throw new IllegalArgumentException("permute(): duplicate dims are not allowed.");
      }
      seen[d] = true;
      s[i] = shape[d];
      st[i] = strides[d];
    }
    int[] inverse = new int[n];
    for (int i = 0; i < n; i++) {
      inverse[wrapDim(dims[i], n)] = i;
    }
    int[] order = dims.clone();
    return GradGraph.view(this, view(s, st, offset), "permute", g -> g.permute(inverse),
        t -> t.permute(order));
  }

  /** A view with dimensions {@code dim0} and {@code dim1} swapped. */
  public Tensor transpose(int dim0, int dim1) {
    int n = shape.length;
    int a = wrapDim(dim0, n);
    int b = wrapDim(dim1, n);
    long[] s = shape.clone();
    long[] st = strides.clone();
    if (n > 0) {
      s[a] = shape[b];
      s[b] = shape[a];
      st[a] = strides[b];
      st[b] = strides[a];
    }
    return GradGraph.view(this, view(s, st, offset), "transpose", g -> g.transpose(a, b),
        t -> t.transpose(a, b));
  }

  /** The transpose of a matrix; a tensor of fewer than 2 dimensions as it is. */
  public Tensor t() {
    if (shape.length > 2) {
      throw new IllegalArgumentException(
          "t() expects a tensor with <= 2 dimensions, but self is " + shape.length + "D");
    }
    return shape.length < 2 ? reshaped(view(shape, strides, offset)) : transpose(0, 1);
  }

  /**
   * Elements {@code start, start + step, ...} before {@code stop} along {@code dim}, with Python's
   * slicing rules: negative {@code start}/{@code stop} count from the end and both are clamped to
   * the size ({@code Long.MAX_VALUE} means "to the end"); {@code step} must be positive.
   */
  public Tensor slice(int dim, long start, long stop, long step) {
    if (shape.length == 0) {
      throw new IndexOutOfBoundsException("slice() cannot be applied to a 0-dim tensor.");
    }
    int d = wrapDim(dim, shape.length);
    if (step <= 0) {
      throw new IllegalArgumentException("slice step must be positive");
    }
    long size = shape[d];
    long lo = clampSliceBound(start, size);
    long hi = clampSliceBound(stop, size);
    if (hi < lo) {
      hi = lo;
    }
    long[] s = shape.clone();
    long[] st = strides.clone();
    s[d] = ShapeMath.sliceLength(hi - lo, step);
    st[d] = ShapeMath.slicedStride(strides[d], step, s[d]);
    long[] from = shape;
    long end = hi;
    return GradGraph.view(this,
        // PyTorch keeps the offset of an empty slice
        view(s, st, ShapeMath.offset(offset, lo, strides[d], "slice")),
        "slice", g -> GradGraph.scatter(g, from, z -> z.slice(d, lo, end, step)),
        t -> t.slice(d, lo, end, step));
  }

  private static long clampSliceBound(long bound, long size) {
    long b = bound < 0 ? bound + size : bound;
    return Math.max(0, Math.min(b, size));
  }

  /** The sub-tensor at {@code index} of dimension {@code dim}, one dimension fewer. */
  public Tensor select(int dim, long index) {
    if (shape.length == 0) {
      throw new IndexOutOfBoundsException("select() cannot be applied to a 0-dim tensor.");
    }
    int d = wrapDim(dim, shape.length);
    long size = shape[d];
    if (index < -size || index >= size) {
      throw new IndexOutOfBoundsException(
          "select(): index " + index + " out of range for tensor of size "
              + Arrays.toString(shape) + " at dimension " + dim);
    }
    long i = index < 0 ? index + size : index;
    long at = ShapeMath.offset(offset, i, strides[d], "select");
    long[] from = shape;
    return GradGraph.view(this, view(remove(shape, d), remove(strides, d), at),
        "select", g -> GradGraph.scatter(g, from, z -> z.select(d, i)), t -> t.select(d, i));
  }

  /** Elements {@code [start, start + length)} of dimension {@code dim}. */
  public Tensor narrow(int dim, long start, long length) {
    if (shape.length == 0) {
      throw new IndexOutOfBoundsException("narrow() cannot be applied to a 0-dim tensor.");
    }
    int d = wrapDim(dim, shape.length);
    if (length < 0) {
      throw new IllegalArgumentException("narrow(): length must be non-negative.");
    }
    long size = shape[d];
    if (start < -size || start > size) {
      throw new IndexOutOfBoundsException(
          "start out of range (expected to be in range of [" + (-size) + ", " + size
              + "], but got " + start + ")");
    }
    long s0 = start < 0 ? start + size : start;
    if (length > size - s0) {
      throw new IllegalArgumentException(
          "start (" + s0 + ") + length (" + length + ") exceeds dimension size (" + size + ").");
    }
    return slice(d, s0, s0 + length, 1);
  }

  /** A view with a new dimension of size 1 at {@code dim} (in {@code [-ndim-1, ndim]}). */
  public Tensor unsqueeze(int dim) {
    int d = wrapDim(dim, shape.length + 1);
    long stride = d >= shape.length ? 1 : ShapeMath.multiply(shape[d], strides[d], "unsqueeze");
    return GradGraph.view(this, view(insert(shape, d, 1), insert(strides, d, stride), offset),
        "unsqueeze", g -> g.squeeze(d), t -> t.unsqueeze(d));
  }

  /** A view without the dimensions of size 1. */
  public Tensor squeeze() {
    int kept = 0;
    for (long s : shape) {
      if (s != 1) {
        kept++;
      }
    }
    long[] s = new long[kept];
    long[] st = new long[kept];
    for (int i = 0, j = 0; i < shape.length; i++) {
      if (shape[i] != 1) {
        s[j] = shape[i];
        st[j++] = strides[i];
      }
    }
    return reshaped(view(s, st, offset));
  }

  /** A view without dimension {@code dim} if its size is 1; otherwise the same shape. */
  public Tensor squeeze(int dim) {
    int d = wrapDim(dim, shape.length);
    if (shape.length == 0 || shape[d] != 1) {
      return reshaped(view(shape, strides, offset));
    }
    return reshaped(view(remove(shape, d), remove(strides, d), offset));
  }

  /** One dimension holding every element (a view when possible, as {@link #reshape}). */
  public Tensor flatten() {
    return flatten(0, -1);
  }

  /** Dimensions {@code startDim..endDim} merged into one (a view when possible). */
  public Tensor flatten(int startDim, int endDim) {
    int n = shape.length;
    int a = wrapDim(startDim, n);
    int b = wrapDim(endDim, n);
    if (a > b) {
      throw new IllegalArgumentException(
          "flatten() has invalid args: start_dim cannot come after end_dim");
    }
    if (n == 0) {
      return reshape(1);
    }
    if (a == b) {
      return reshaped(view(shape, strides, offset));
    }
    long merged = 1;
    for (int i = a; i <= b; i++) {
      merged = ShapeMath.multiply(merged, shape[i], "flatten");
    }
    long[] s = new long[n - (b - a)];
    System.arraycopy(shape, 0, s, 0, a);
    s[a] = merged;
    System.arraycopy(shape, b + 1, s, a + 1, n - b - 1);
    return reshape(s);
  }

  /**
   * A view with arbitrary non-negative {@code strides} and storage {@code offset} (PyTorch's
   * {@code as_strided}); every element it reaches must lie inside the storage. Differentiable
   * when neither this tensor nor the view reaches one storage element twice (otherwise refused
   * on a tensor that requires grad, in grad mode).
   */
  public Tensor asStrided(long[] shape, long[] strides, long offset) {
    long[] s = Shapes.checkAsStrided(shape, strides, offset, storageSize());
    return GradGraph.asStrided(this, view(s, strides, offset));
  }

  private Tensor view(long[] shape, long[] strides, long offset) {
    ShapeMath.checkView("view", shape, strides, offset, storageSize()); // every view method's net
    Tensor v = new Tensor(segment, dtype, shape.clone(), strides.clone(), offset, false);
    v.version = versionCounter(); // one counter for all views of a storage, as PyTorch's
    return v;
  }

  // ============================================================================================
  // Element access
  // ============================================================================================

  /** The real element at {@code index} as a double (UINT64 read as unsigned). */
  public double getDouble(long... index) {
    long at = elementOffset(index);
    refuseComplex("getDouble", "getReal/getImag");
    return Convert.toDouble(dtype, Elements.read(segment, dtype, at * dtype.byteSize()));
  }

  /**
   * The element at {@code index} converted to INT64 by {@link #to}'s rules (floats truncate;
   * UINT64 gives its bits).
   */
  public long getLong(long... index) {
    long at = elementOffset(index);
    refuseComplex("getLong", "getReal/getImag");
    return Convert.convert(dtype, DType.INT64, Elements.read(segment, dtype, at * dtype.byteSize()));
  }

  /** True when the element at {@code index} is nonzero (NaN is nonzero). */
  public boolean getBoolean(long... index) {
    long at = elementOffset(index);
    if (dtype.isComplex()) {
      return getReal(index) != 0 || getImag(index) != 0;
    }
    return Convert.toBoolean(dtype, Elements.read(segment, dtype, at * dtype.byteSize()));
  }

  /** The real part of the element at {@code index} (the value itself for a real dtype). */
  public double getReal(long... index) {
    long at = elementOffset(index);
    if (!dtype.isComplex()) {
      return Convert.toDouble(dtype, Elements.read(segment, dtype, at * dtype.byteSize()));
    }
    DType c = dtype.componentType();
    return Convert.toDouble(c, Elements.read(segment, c, at * dtype.byteSize()));
  }

  /** The imaginary part of the element at {@code index} (0 for a real dtype). */
  public double getImag(long... index) {
    long at = elementOffset(index);
    if (!dtype.isComplex()) {
      return 0;
    }
    DType c = dtype.componentType();
    return Convert.toDouble(c, Elements.read(segment, c, at * dtype.byteSize() + c.byteSize()));
  }

  /** Stores {@code value} converted to the dtype by {@link #to}'s rules at {@code index}. */
  public void setDouble(double value, long... index) {
    long at = elementOffset(index);
    GradGraph.beforeWrite(this, "setDouble");
    if (dtype.isComplex()) {
      writeComplex(at, value, 0);
    } else {
      Elements.write(segment, dtype, at * dtype.byteSize(), Convert.fromDouble(dtype, value));
    }
  }

  /** Stores the integer {@code value} converted to the dtype at {@code index}. */
  public void setLong(long value, long... index) {
    long at = elementOffset(index);
    GradGraph.beforeWrite(this, "setLong");
    if (dtype.isComplex()) {
      DType c = dtype.componentType();
      Elements.write(segment, c, at * dtype.byteSize(), Convert.fromLong(c, value, false));
      Elements.write(segment, c, at * dtype.byteSize() + c.byteSize(), 0);
    } else {
      Elements.write(segment, dtype, at * dtype.byteSize(), Convert.fromLong(dtype, value, false));
    }
  }

  /** Stores {@code value} (1 or 0) at {@code index}. */
  public void setBoolean(boolean value, long... index) {
    setLong(value ? 1 : 0, index);
  }

  /** Stores a complex value at {@code index}; a real dtype keeps the real part. */
  public void setComplex(double re, double im, long... index) {
    long at = elementOffset(index);
    GradGraph.beforeWrite(this, "setComplex");
    if (dtype.isComplex()) {
      writeComplex(at, re, im);
    } else {
      Elements.write(segment, dtype, at * dtype.byteSize(), Convert.fromDouble(dtype, re));
    }
  }

  private void writeComplex(long at, double re, double im) {
    DType c = dtype.componentType();
    Elements.write(segment, c, at * dtype.byteSize(), Convert.fromDouble(c, re));
    Elements.write(segment, c, at * dtype.byteSize() + c.byteSize(), Convert.fromDouble(c, im));
  }

  private void refuseComplex(String method, String instead) {
    if (dtype.isComplex()) {
      throw new IllegalArgumentException(
          method + " cannot read a " + dtype + " element; use " + instead);
    }
  }

  /** Storage element index of {@code index}, after checking count and bounds. */
  private long elementOffset(long[] index) {
    return Shapes.elementOffset(index, shape, strides, offset);
  }

  // ============================================================================================
  // Copies and conversions
  // ============================================================================================

  /**
   * This tensor converted to {@code dtype} (this tensor itself when the dtype is already {@code
   * dtype}), with PyTorch's conversion results; the rules are in {@link Convert}.
   */
  public Tensor to(DType dtype) {
    checkDtype(dtype);
    if (dtype == this.dtype) {
      return this;
    }
    Tensor out = empty(dtype, shape);
    Copies.copyInto(this, out);
    DType from = this.dtype;
    return GradGraph.copied(this, out, "to", g -> g.to(from));
  }

  /** This tensor if it is contiguous, else a contiguous copy. */
  public Tensor contiguous() {
    return isContiguous() ? this : copy();
  }

  /** A contiguous copy with its own storage. */
  public Tensor copy() {
    Tensor out = empty(dtype, shape);
    Copies.copyInto(this, out);
    return GradGraph.copied(this, out, "copy", g -> g);
  }

  // ---- to Java arrays ------------------------------------------------------------------------

  /** The elements in row-major order as booleans ({@code != 0}). */
  public boolean[] toBooleanArray() {
    Tensor t = arrayable(DType.BOOL);
    boolean[] out = new boolean[(int) numel];
    for (int i = 0; i < out.length; i++) {
      out[i] = t.segment.get(ValueLayout.JAVA_BYTE, (long) i) != 0;
    }
    return out;
  }

  /** The elements in row-major order converted to INT8. */
  public byte[] toByteArray() {
    return arrayable(DType.INT8).segment.asSlice(0, numel).toArray(ValueLayout.JAVA_BYTE);
  }

  /** The elements in row-major order converted to INT16. */
  public short[] toShortArray() {
    return arrayable(DType.INT16).segment.asSlice(0, numel * 2).toArray(ValueLayout.JAVA_SHORT);
  }

  /** The elements in row-major order converted to INT32. */
  public int[] toIntArray() {
    return arrayable(DType.INT32).segment.asSlice(0, numel * 4).toArray(ValueLayout.JAVA_INT);
  }

  /** The elements in row-major order converted to INT64 (UINT64 keeps its bits). */
  public long[] toLongArray() {
    return arrayable(DType.INT64).segment.asSlice(0, numel * 8).toArray(ValueLayout.JAVA_LONG);
  }

  /** The elements in row-major order converted to FLOAT32. */
  public float[] toFloatArray() {
    return arrayable(DType.FLOAT32).segment.asSlice(0, numel * 4).toArray(ValueLayout.JAVA_FLOAT);
  }

  /** The elements in row-major order converted to FLOAT64. */
  public double[] toDoubleArray() {
    return arrayable(DType.FLOAT64).segment.asSlice(0, numel * 8).toArray(ValueLayout.JAVA_DOUBLE);
  }

  /** The elements as interleaved (re, im) doubles, 2 × numel values (imaginary 0 if real). */
  public double[] toComplexArray() {
    checkArrayLength(2 * numel);
    Tensor t = to(DType.COMPLEX128).contiguous();
    return t.segment
        .asSlice(t.offset * 16, numel * 16)
        .toArray(ValueLayout.JAVA_DOUBLE);
  }

  /** A fresh contiguous tensor of {@code target} at offset 0, after the array-size checks. */
  private Tensor arrayable(DType target) {
    checkArrayLength(numel);
    if (dtype.isComplex()) {
      throw new IllegalArgumentException(
          "a " + dtype + " tensor has no real " + target + " array; use toComplexArray()");
    }
    return dtype == target ? copy() : to(target).contiguousAtZero();
  }

  private Tensor contiguousAtZero() {
    return isContiguous() && offset == 0 ? this : copy();
  }

  private static void checkArrayLength(long n) {
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          n + " elements do not fit a Java array; read the tensor in slices");
    }
  }

  // ============================================================================================
  // Comparison helpers
  // ============================================================================================

  /**
   * True when both tensors have the same shape and every pair of elements is equal as values in
   * their common dtype, like {@code torch.equal}: int64 2^24 + 1 equals float32 2^24, NaN equals
   * nothing, -0.0 equals 0.0; integers compare exactly. Compares in place, without converted
   * copies.
   *
   * @throws IllegalArgumentException when {@code other} is null, or the dtypes have no common
   *     dtype (float8 beside another dtype, as in PyTorch)
   */
  public boolean equal(Tensor other) {
    requireOther(other);
    return Arrays.equals(shape, other.shape)
        && Equality.equal(segment, dtype, offset, strides, other.segment, other.dtype, other.offset,
            other.strides, shape);
  }

  /** {@link #allClose(Tensor, double, double, boolean)} with rtol 1e-5, atol 1e-8, NaN unequal. */
  public boolean allClose(Tensor other) {
    return allClose(other, 1e-5, 1e-8, false);
  }

  /**
   * True when the shapes are equal and {@code |a - b| <= atol + rtol * |b|} for every pair
   * (complex: the modulus); infinities must match exactly; NaNs match each other only when {@code
   * equalNan}. Broadcast operands first with {@link #expand}.
   */
  public boolean allClose(Tensor other, double rtol, double atol, boolean equalNan) {
    requireOther(other);
    if (!(rtol >= 0) || !(atol >= 0)) {
      throw new IllegalArgumentException(
          "rtol and atol must be non-negative, got rtol=" + rtol + ", atol=" + atol);
    }
    if (!Arrays.equals(shape, other.shape)) {
      throw new IllegalArgumentException(
          "allClose needs equal shapes, got " + Arrays.toString(shape) + " and "
              + Arrays.toString(other.shape));
    }
    long[] idx = new long[shape.length];
    for (long i = 0; i < numel; i++) {
      unravel(i, idx);
      double ar = getReal(idx);
      double ai = getImag(idx);
      double br = other.getReal(idx);
      double bi = other.getImag(idx);
      boolean aNan = Double.isNaN(ar) || Double.isNaN(ai);
      boolean bNan = Double.isNaN(br) || Double.isNaN(bi);
      if (aNan || bNan) {
        if (!(equalNan && aNan && bNan)) {
          return false;
        }
        continue;
      }
      if (ar == br && ai == bi) {
        continue; // equal infinities included
      }
      double diff = Math.hypot(ar - br, ai - bi);
      if (!(diff <= atol + rtol * Math.hypot(br, bi))) {
        return false;
      }
    }
    return true;
  }

  private static void requireOther(Tensor other) {
    if (other == null) {
      throw new IllegalArgumentException("other tensor must not be null");
    }
  }

  /** Row-major index of flat position {@code i}, written into {@code idx}. */
  void unravel(long i, long[] idx) {
    for (int d = shape.length - 1; d >= 0; d--) {
      long s = shape[d];
      idx[d] = i % s;
      i /= s;
    }
  }

  // ============================================================================================
  // Printing
  // ============================================================================================

  /** PyTorch's printed form: {@code tensor([[1.0000, 2.5000], ...], dtype=torch.float16)}. */
  @Override
  public String toString() {
    return TensorFormat.format(this);
  }

  // ============================================================================================
  // Reductions (docs/reductions.md)
  // ============================================================================================

  /** The sum of all elements, a zero-dim tensor: int64 for bool and integral dtypes. */
  public Tensor sum() {
    return Reductions.sum(this, null, false, null);
  }

  /** The sum over {@code dims} (negative counts from the end; none given: all), dims dropped. */
  public Tensor sum(int... dims) {
    return Reductions.sum(this, dims, false, null);
  }

  /** The sum over {@code dims}, kept as size 1 when {@code keepDim} ({@code torch.sum}). */
  public Tensor sum(int[] dims, boolean keepDim) {
    return Reductions.sum(this, dims, keepDim, null);
  }

  /** The mean of all elements; floating and complex dtypes only, as in PyTorch. */
  public Tensor mean() {
    return Reductions.mean(this, null, false, null);
  }

  /** The mean over {@code dims} (none given: all), dims dropped. */
  public Tensor mean(int... dims) {
    return Reductions.mean(this, dims, false, null);
  }

  /** The mean over {@code dims}, kept as size 1 when {@code keepDim} ({@code torch.mean}). */
  public Tensor mean(int[] dims, boolean keepDim) {
    return Reductions.mean(this, dims, keepDim, null);
  }

  /** The largest element (NaN if any is NaN), of this tensor's dtype. */
  public Tensor amax() {
    return Reductions.amax(this, null, false, null);
  }

  /** The largest element over {@code dims} (none given: all), dims dropped. */
  public Tensor amax(int... dims) {
    return Reductions.amax(this, dims, false, null);
  }

  /** The largest element over {@code dims}, kept as size 1 when {@code keepDim} ({@code torch.amax}). */
  public Tensor amax(int[] dims, boolean keepDim) {
    return Reductions.amax(this, dims, keepDim, null);
  }

  /** The smallest element (NaN if any is NaN), of this tensor's dtype. */
  public Tensor amin() {
    return Reductions.amin(this, null, false, null);
  }

  /** The smallest element over {@code dims} (none given: all), dims dropped. */
  public Tensor amin(int... dims) {
    return Reductions.amin(this, dims, false, null);
  }

  /** The smallest element over {@code dims}, kept as size 1 when {@code keepDim} ({@code torch.amin}). */
  public Tensor amin(int[] dims, boolean keepDim) {
    return Reductions.amin(this, dims, keepDim, null);
  }

  /**
   * This tensor summed to {@code shape} ({@code torch.Tensor.sum_to_size}): over the leading dims
   * broadcasting added and the dims that are 1 in {@code shape}. The gradient of an operand that
   * was broadcast to this tensor's shape. Returns this tensor when nothing is summed.
   *
   * @throws BroadcastException when {@code shape} does not expand to this tensor's shape
   */
  public Tensor sumToShape(long... shape) {
    return Reductions.sumToShape(this, shape);
  }

  // ============================================================================================
  // Autograd (docs/gradients.md; the engine is GradGraph and GradEngine)
  // ============================================================================================

  /**
   * Marks this leaf as requiring gradients (or not): ops on it record how their results were
   * made, and {@link #backward()} adds its gradient into {@link #grad()}. PyTorch's {@code
   * requires_grad_}.
   *
   * @return this tensor
   * @throws IllegalArgumentException for a tensor that is not floating (integral, bool, complex:
   *     "only Tensors of floating point dtype can require gradients")
   * @throws IllegalStateException for a computed (non-leaf) tensor
   */
  public Tensor requiresGrad(boolean requiresGrad) {
    GradGraph.setRequiresGrad(this, requiresGrad);
    return this;
  }

  /** True for a leaf marked with {@link #requiresGrad(boolean)} and for results computed from one. */
  public boolean requiresGrad() {
    return GradGraph.requiresGrad(this);
  }

  /** True unless this tensor was computed by a recorded op (PyTorch's {@code is_leaf}). */
  public boolean isLeaf() {
    GradGraph.Meta m = GradGraph.meta(this);
    return m == null || m.gradFn == null;
  }

  /** The gradient accumulated into this leaf by {@link #backward()}; null before the first. */
  public Tensor grad() {
    return autograd == null ? null : autograd.grad;
  }

  /**
   * Replaces {@link #grad()} (PyTorch's {@code x.grad = ...}); null clears it, as before a new
   * accumulation.
   *
   * @throws IllegalArgumentException for a gradient of another shape or dtype
   */
  public void setGrad(Tensor grad) {
    GradGraph.setGrad(this, grad);
  }

  /**
   * Computes the gradient of this one-element tensor with respect to every leaf it was computed
   * from, and adds it into each leaf's {@link #grad()}. The graph is kept: calling it again adds
   * again.
   *
   * @throws IllegalArgumentException when this tensor has more than one element (pass a
   *     gradient: {@link #backward(Tensor)})
   * @throws IllegalStateException when this tensor does not require grad, or a tensor the backward
   *     needs was modified in place after it was used
   */
  public void backward() {
    GradEngine.backward(this, null);
  }

  /**
   * {@link #backward()} from {@code gradient}, the gradient of some scalar with respect to this
   * tensor (its shape; cast to its dtype): the vector in PyTorch's vector-Jacobian product.
   */
  public void backward(Tensor gradient) {
    if (gradient == null) {
      throw new IllegalArgumentException("backward(): gradient must not be null; for a"
          + " one-element tensor call backward()");
    }
    GradEngine.backward(this, gradient);
  }

  /**
   * A view of the same elements that is in no graph: it does not require gradients and no
   * gradient flows through it (PyTorch's {@code detach}). Writes through either are seen by both.
   */
  public Tensor detach() {
    return view(shape, strides, offset);
  }

  GradGraph.Meta autograd() {
    return autograd;
  }

  /** {@link #autograd()}, made on first need (once, when threads race). */
  GradGraph.Meta autogradMeta() {
    GradGraph.Meta m = autograd;
    if (m == null) {
      GradGraph.Meta made = new GradGraph.Meta();
      m = (GradGraph.Meta) AUTOGRAD.compareAndExchange(this, null, made);
      if (m == null) {
        m = made;
      }
    }
    return m;
  }

  /** The version counter of this storage, made on first need (once, when threads race). */
  GradGraph.Version versionCounter() {
    GradGraph.Version v = version;
    if (v == null) {
      GradGraph.Version made = new GradGraph.Version();
      v = (GradGraph.Version) VERSION.compareAndExchange(this, null, made);
      if (v == null) {
        v = made;
      }
    }
    return v;
  }

  GradGraph.ViewOrigin viewOrigin() {
    return viewOrigin;
  }

  void setViewOrigin(GradGraph.ViewOrigin origin) {
    viewOrigin = origin;
  }

  /** Records a write into this tensor's storage (in-place and out= ops, setters). */
  void bumpVersion() {
    if (version != null) {
      version.bump();
    }
  }

  // ============================================================================================
  // Ufunc reductions and scans (BinaryUfunc; docs/ufuncs.md)
  // ============================================================================================

  /**
   * The running sum along {@code dim} ({@code torch.cumsum}): {@code Ops.add.accumulate(this,
   * dim)}; bool and integral tensors give int64.
   */
  public Tensor cumsum(int dim) {
    return Ops.add.accumulate(this, dim);
  }

  /**
   * The running product along {@code dim} ({@code torch.cumprod}): {@code Ops.mul.accumulate(this,
   * dim)}; bool and integral tensors give int64.
   */
  public Tensor cumprod(int dim) {
    return Ops.mul.accumulate(this, dim);
  }

  /** The product of every element ({@code torch.prod}): zero-dim; int64 for bool and integral. */
  public Tensor prod() {
    return Ops.mul.reduce(this);
  }

  /** The product over {@code dim}, kept as size 1 when {@code keepDim} ({@code torch.prod}). */
  public Tensor prod(int dim, boolean keepDim) {
    return Ops.mul.reduce(this, new int[] {dim}, keepDim);
  }

  /**
   * {@code log(sum(exp(x)))} over {@code dims} (none: all), kept as size 1 when {@code keepDim}
   * ({@code torch.logsumexp}): computed as PyTorch does, shifted by the maximum so that large
   * values do not overflow (an infinite maximum shifts by 0). Bool and integral tensors compute
   * in float32.
   */
  public Tensor logsumexp(int[] dims, boolean keepDim) {
    return Ufuncs.logsumexp(this, dims, keepDim);
  }

  /** Whether any element is nonzero ({@code torch.any}): a zero-dim bool tensor. */
  public Tensor any() {
    return Ops.logicalOr.reduce(this);
  }

  /** Whether any element over {@code dim} is nonzero, as bool ({@code torch.any(dim, keepdim)}). */
  public Tensor any(int dim, boolean keepDim) {
    return Ops.logicalOr.reduce(this, new int[] {dim}, keepDim);
  }

  /** Whether every element is nonzero ({@code torch.all}): a zero-dim bool tensor. */
  public Tensor all() {
    return Ops.logicalAnd.reduce(this);
  }

  /** Whether every element over {@code dim} is nonzero, as bool ({@code torch.all(dim, keepdim)}). */
  public Tensor all(int dim, boolean keepDim) {
    return Ops.logicalAnd.reduce(this, new int[] {dim}, keepDim);
  }

  // ============================================================================================
  // Helpers
  // ============================================================================================

  static DType checkDtype(DType dtype) {
    if (dtype == null) {
      throw new IllegalArgumentException("dtype must not be null");
    }
    return dtype;
  }
}
