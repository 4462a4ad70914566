package dev.ufunc4j;

import static dev.ufunc4j.internal.shape.Shapes.insert;
import static dev.ufunc4j.internal.shape.Shapes.remove;
import static dev.ufunc4j.internal.shape.Shapes.wrapDim;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.TensorLike;
import dev.ufunc4j.internal.elements.Convert;
import dev.ufunc4j.internal.elements.Elements;
import dev.ufunc4j.internal.shape.ShapeMath;
import dev.ufunc4j.internal.shape.Shapes;
import dev.ufunc4j.internal.shape.StridedView;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.function.UnaryOperator;

/**
 * A strided view of native memory holding elements of one {@link DType}: PyTorch's tensor model.
 *
 * <p>A tensor is a dtype, a shape, strides and an offset (both counted in elements of the dtype; a
 * complex element is one (re, im) pair; stride 0 on broadcast dimensions) over a storage segment.
 * Storage is native memory, zeroed and 64-byte aligned, freed by the GC, or when the enclosing
 * {@link TensorScope} closes. Views ({@link #expand}, {@link #view}, {@link
 * #permute}, {@link #slice}, ...) share storage and never copy; {@link #reshape} and {@link
 * #flatten} copy only when the strides allow no view, as in PyTorch. Tensors are mutable through
 * the setters and through kernels, like PyTorch's; a write through one view is seen by all views of
 * the same storage.
 *
 * <p>Tensors are made by the static factories it inherits from {@link TensorFactories} ({@code
 * Tensor.of(new float[] {1, 2})}, {@code Tensor.zeros(DType.FLOAT32, 2, 3)}, {@code arange},
 * {@code rand}, ...); PyTorch's everyday vocabulary beyond the elementwise ops ({@code sum}, {@code
 * cat}, {@code flip}, {@code allClose}, ...) comes from {@link TensorVocabulary}.
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
public final class Tensor extends TensorFactories implements TensorLike {
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

  /** A tensor over {@code segment}; the factories' (TensorFactories) way to the constructor. */
  static Tensor make(
      MemorySegment segment,
      DType dtype,
      long[] shape,
      long[] strides,
      long offset,
      boolean wrappedNumber) {
    return new Tensor(segment, dtype, shape, strides, offset, wrappedNumber);
  }

  // ============================================================================================
  // Descriptors
  // ============================================================================================

  @Override
  public DType dtype() {
    return dtype;
  }

  /** {@return the sizes, outermost first (a copy)} */
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

  /**
   * {@return size of dimension {@code dim} (negative counts from the end)}
   *
   * @param dim the dimension (negative counts from the end)
   */
  public long size(int dim) {
    return shape[wrapDim(dim, shape.length)];
  }

  /** {@return element strides, outermost first (a copy); 0 on broadcast dimensions} */
  public long[] strides() {
    return strides.clone();
  }

  /**
   * {@return stride of dimension {@code dim} in elements}
   *
   * @param dim the dimension (negative counts from the end)
   */
  public long stride(int dim) {
    return strides[wrapDim(dim, shape.length)];
  }

  /** {@return offset of this view's first element in its storage, in elements} */
  public long offset() {
    return offset;
  }

  /**
   * {@return the whole storage segment this tensor views (shared by all its views)} Element {@code
   * i} of the storage is at byte {@code i * dtype().byteSize()}; this tensor's element at index
   * {@code (i0, i1, ...)} is storage element {@code offset() + i0 * strides()[0] + i1 *
   * strides()[1] + ...}. For kernels and the planner; users read elements through the getters.
   */
  public MemorySegment segment() {
    return segment;
  }

  /** {@return capacity of the storage in elements} */
  public long storageSize() {
    return segment.byteSize() / dtype.byteSize();
  }

  /** Shape without a copy, for the planner; do not modify. */
  long[] shapeRef() {
    return shape;
  }

  /** Strides without a copy, for the planner; do not modify. */
  long[] stridesRef() {
    return strides;
  }

  /**
   * This tensor as the inner layers see it (memory, dtype, shape, strides, offset; the arrays are
   * not copied): {@code internal} works on strided views, never on {@code Tensor}.
   */
  StridedView strided() {
    return new StridedView(segment, dtype, shape, strides, offset);
  }

  @Override
  public int ndim() {
    return shape.length;
  }

  /** {@return number of elements (1 for a zero-dim tensor)} */
  public long numel() {
    return numel;
  }

  @Override
  public boolean isWrappedNumber() {
    return wrappedNumber;
  }

  /**
   * {@return true when the elements are laid out row-major without gaps (PyTorch's {@code
   * is_contiguous}: dimensions of size 1 may have any stride; an empty tensor is contiguous)}
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
  // Views
  // ============================================================================================

  /**
   * {@return a view with {@code sizes}; a size-1 dimension can grow (stride 0), {@code -1} keeps a
   * size, and new leading dimensions may be added} Never copies. PyTorch's {@code expand}.
   *
   * @param sizes the sizes, outermost first ({@code -1}: keep the size)
   */
  public Tensor expand(long... sizes) {
    Shapes.Geometry g = Shapes.expand(dtype, shape, strides, sizes);
    long[] from = shape;
    long[] to = g.shape();
    return recordedView("expand", to, g.strides(), offset, grad -> grad.sumToShape(from),
        t -> t.expand(to));
  }

  /**
   * {@link #expand} to exactly {@code shape} (no {@code -1} needed): PyTorch's {@code broadcast_to}.
   *
   * @param shape the sizes, outermost first
   * @return the view
   */
  public Tensor broadcastTo(long... shape) {
    return expand(shape);
  }

  /**
   * {@return a view with {@code shape} (one entry may be {@code -1}, inferred) over the same
   * elements in row-major order; fails when the strides do not allow it (use {@link #reshape})}
   *
   * @param shape the sizes, outermost first
   */
  public Tensor view(long... shape) {
    long[] s = Shapes.inferSize(shape, numel);
    long[] st = Shapes.viewStrides(this.shape, this.strides, s);
    if (st == null) {
      throw new IllegalArgumentException(
          "view size is not compatible with input tensor's size and stride (at least one"
              + " dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
    }
    return reshapedView(s, st, offset);
  }

  /** A view of this tensor's elements in another shape: its gradient is reshaped back. */
  private Tensor reshapedView(long[] shape, long[] strides, long offset) {
    long[] from = this.shape;
    long[] to = shape.clone();
    return recordedView("view", to, strides, offset, g -> g.reshape(from), t -> t.view(to));
  }

  /**
   * Like {@link #view}, but copies into a contiguous tensor when no view is possible.
   *
   * @param shape the sizes, outermost first
   * @return the reshaped tensor, a view when the strides allow
   */
  public Tensor reshape(long... shape) {
    long[] s = Shapes.inferSize(shape, numel);
    long[] st = Shapes.viewStrides(this.shape, this.strides, s);
    if (st != null) {
      return reshapedView(s, st, offset);
    }
    return copy().view(s);
  }

  /**
   * {@return a view with the dimensions in the order {@code dims} (a permutation of 0..ndim-1)}
   *
   * @param dims the dimensions (negative counts from the end)
   */
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
    return recordedView("permute", s, st, offset, g -> g.permute(inverse),
        t -> t.permute(order));
  }

  /**
   * {@return a view with dimensions {@code dim0} and {@code dim1} swapped}
   *
   * @param dim0 one dimension
   * @param dim1 the other dimension
   */
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
    return recordedView("transpose", s, st, offset, g -> g.transpose(a, b),
        t -> t.transpose(a, b));
  }

  /** {@return the transpose of a matrix; a tensor of fewer than 2 dimensions as it is} */
  public Tensor t() {
    if (shape.length > 2) {
      throw new IllegalArgumentException(
          "t() expects a tensor with <= 2 dimensions, but self is " + shape.length + "D");
    }
    return shape.length < 2 ? reshapedView(shape, strides, offset) : transpose(0, 1);
  }

  /**
   * {@return elements {@code start, start + step, ...} before {@code stop} along {@code dim}, with
   * Python's slicing rules: negative {@code start}/{@code stop} count from the end and both are
   * clamped to the size ({@code Long.MAX_VALUE} means "to the end"); {@code step} must be positive}
   *
   * @param dim the dimension (negative counts from the end)
   * @param start the first index (negative counts from the end)
   * @param stop the end, excluded (negative counts from the end)
   * @param step the distance between consecutive indices, positive
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
    // PyTorch keeps the offset of an empty slice
    long at = ShapeMath.offset(offset, lo, strides[d], "slice");
    return recordedView("slice", s, st, at,
        g -> GradGraph.scatter(g, from, z -> z.slice(d, lo, end, step)),
        t -> t.slice(d, lo, end, step));
  }

  private static long clampSliceBound(long bound, long size) {
    long b = bound < 0 ? bound + size : bound;
    return Math.max(0, Math.min(b, size));
  }

  /**
   * {@return the sub-tensor at {@code index} of dimension {@code dim}, one dimension fewer}
   *
   * @param dim the dimension (negative counts from the end)
   * @param index the index along {@code dim} (negative counts from the end)
   */
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
    return recordedView("select", remove(shape, d), remove(strides, d), at,
        g -> GradGraph.scatter(g, from, z -> z.select(d, i)), t -> t.select(d, i));
  }

  /**
   * {@return elements {@code [start, start + length)} of dimension {@code dim}}
   *
   * @param dim the dimension (negative counts from the end)
   * @param start the first index (negative counts from the end)
   * @param length the number of indices
   */
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

  /**
   * {@return a view with a new dimension of size 1 at {@code dim} (in {@code [-ndim-1, ndim]})}
   *
   * @param dim the dimension (negative counts from the end)
   */
  public Tensor unsqueeze(int dim) {
    int d = wrapDim(dim, shape.length + 1);
    long stride = d >= shape.length ? 1 : ShapeMath.multiply(shape[d], strides[d], "unsqueeze");
    return recordedView("unsqueeze", insert(shape, d, 1), insert(strides, d, stride), offset,
        g -> g.squeeze(d), t -> t.unsqueeze(d));
  }

  /** {@return a view without the dimensions of size 1} */
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
    return reshapedView(s, st, offset);
  }

  /**
   * {@return a view without dimension {@code dim} if its size is 1; otherwise the same shape}
   *
   * @param dim the dimension (negative counts from the end)
   */
  public Tensor squeeze(int dim) {
    int d = wrapDim(dim, shape.length);
    if (shape.length == 0 || shape[d] != 1) {
      return reshapedView(shape, strides, offset);
    }
    return reshapedView(remove(shape, d), remove(strides, d), offset);
  }

  /** {@return one dimension holding every element (a view when possible, as {@link #reshape})} */
  public Tensor flatten() {
    return flatten(0, -1);
  }

  /**
   * Dimensions {@code startDim..endDim} merged into one (a view when possible).
   *
   * @param startDim the first dimension merged
   * @param endDim the last dimension merged
   * @return the merged tensor, a view when the strides allow
   */
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
      return reshapedView(shape, strides, offset);
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
   * {@return a view with arbitrary non-negative {@code strides} and storage {@code offset}
   * (PyTorch's {@code as_strided}); every element it reaches must lie inside the storage}
   * Differentiable when neither this tensor nor the view reaches one storage element twice
   * (otherwise refused on a tensor that requires grad, in grad mode).
   *
   * @param shape the sizes, outermost first
   * @param strides the strides in elements, outermost first
   * @param offset the storage offset of the first element, in elements
   */
  public Tensor asStrided(long[] shape, long[] strides, long offset) {
    long[] s = Shapes.checkAsStrided(shape, strides, offset, storageSize());
    return GradGraph.asStrided(this, alias(s, strides, offset));
  }

  /**
   * The one path of every view method but {@link #asStrided} (which GradGraph records its own way)
   * and {@link #detach} (recorded nowhere): the view, recorded for autograd once. {@code backward}
   * maps the view's gradient to this tensor's; {@code replay} remakes the view from this tensor,
   * for when the storage is written in place after (GradGraph.ViewOrigin).
   */
  private Tensor recordedView(String name, long[] shape, long[] strides, long offset,
      UnaryOperator<Tensor> backward, UnaryOperator<Tensor> replay) {
    return GradGraph.view(this, alias(shape, strides, offset), name, backward, replay);
  }

  /** A tensor over this one's storage with another geometry, checked against the storage. */
  private Tensor alias(long[] shape, long[] strides, long offset) {
    ShapeMath.checkView("view", shape, strides, offset, storageSize()); // every view method's net
    Tensor v = new Tensor(segment, dtype, shape.clone(), strides.clone(), offset, false);
    v.version = versionCounter(); // one counter for all views of a storage, as PyTorch's
    return v;
  }

  // ============================================================================================
  // Element access
  // ============================================================================================

  /**
   * {@return the real element at {@code index} as a double (UINT64 read as unsigned)}
   *
   * @param index the element's index, one per dimension (negative counts from the end)
   */
  public double getDouble(long... index) {
    long at = elementOffset(index);
    refuseComplex("getDouble", "getReal/getImag");
    return Convert.toDouble(dtype, Elements.read(segment, dtype, at * dtype.byteSize()));
  }

  /**
   * {@return the element at {@code index} converted to INT64 by {@link #to}'s rules (floats
   * truncate; UINT64 gives its bits)}
   *
   * @param index the element's index, one per dimension (negative counts from the end)
   */
  public long getLong(long... index) {
    long at = elementOffset(index);
    refuseComplex("getLong", "getReal/getImag");
    return Convert.convert(dtype, DType.INT64, Elements.read(segment, dtype, at * dtype.byteSize()));
  }

  /**
   * {@return true when the element at {@code index} is nonzero (NaN is nonzero)}
   *
   * @param index the element's index, one per dimension (negative counts from the end)
   */
  public boolean getBoolean(long... index) {
    long at = elementOffset(index);
    if (dtype.isComplex()) {
      return getReal(index) != 0 || getImag(index) != 0;
    }
    return Convert.toBoolean(dtype, Elements.read(segment, dtype, at * dtype.byteSize()));
  }

  /**
   * {@return the real part of the element at {@code index} (the value itself for a real dtype)}
   *
   * @param index the element's index, one per dimension (negative counts from the end)
   */
  public double getReal(long... index) {
    long at = elementOffset(index);
    if (!dtype.isComplex()) {
      return Convert.toDouble(dtype, Elements.read(segment, dtype, at * dtype.byteSize()));
    }
    DType c = dtype.componentType();
    return Convert.toDouble(c, Elements.read(segment, c, at * dtype.byteSize()));
  }

  /**
   * {@return the imaginary part of the element at {@code index} (0 for a real dtype)}
   *
   * @param index the element's index, one per dimension (negative counts from the end)
   */
  public double getImag(long... index) {
    long at = elementOffset(index);
    if (!dtype.isComplex()) {
      return 0;
    }
    DType c = dtype.componentType();
    return Convert.toDouble(c, Elements.read(segment, c, at * dtype.byteSize() + c.byteSize()));
  }

  /**
   * Stores {@code value} converted to the dtype by {@link #to}'s rules at {@code index}.
   *
   * @param value the value
   * @param index the element's index, one per dimension (negative counts from the end)
   */
  public void setDouble(double value, long... index) {
    long at = elementOffset(index);
    GradGraph.beforeWrite(this, "setDouble");
    if (dtype.isComplex()) {
      writeComplex(at, value, 0);
    } else {
      Elements.write(segment, dtype, at * dtype.byteSize(), Convert.fromDouble(dtype, value));
    }
  }

  /**
   * Stores the integer {@code value} converted to the dtype at {@code index}.
   *
   * @param value the value
   * @param index the element's index, one per dimension (negative counts from the end)
   */
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

  /**
   * Stores {@code value} (1 or 0) at {@code index}.
   *
   * @param value the value
   * @param index the element's index, one per dimension (negative counts from the end)
   */
  public void setBoolean(boolean value, long... index) {
    setLong(value ? 1 : 0, index);
  }

  /**
   * Stores a complex value at {@code index}; a real dtype keeps the real part.
   *
   * @param re the real part
   * @param im the imaginary part
   * @param index the element's index, one per dimension (negative counts from the end)
   */
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

  /** Row-major index of flat position {@code i}, written into {@code idx}. */
  void unravel(long i, long[] idx) {
    for (int d = shape.length - 1; d >= 0; d--) {
      long s = shape[d];
      idx[d] = i % s;
      i /= s;
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
   * {@return this tensor converted to {@code dtype} (this tensor itself when the dtype is already
   * {@code dtype}), with PyTorch's conversion results; the rules are in {@link Convert}}
   *
   * @param dtype the element type
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

  /** {@return this tensor if it is contiguous, else a contiguous copy} */
  public Tensor contiguous() {
    return isContiguous() ? this : copy();
  }

  /** {@return a contiguous copy with its own storage} */
  public Tensor copy() {
    Tensor out = empty(dtype, shape);
    Copies.copyInto(this, out);
    return GradGraph.copied(this, out, "copy", g -> g);
  }

  // ---- to Java arrays ------------------------------------------------------------------------

  /** {@return the elements in row-major order as booleans ({@code != 0})} */
  public boolean[] toBooleanArray() {
    Tensor t = arrayable(DType.BOOL);
    boolean[] out = new boolean[(int) numel];
    for (int i = 0; i < out.length; i++) {
      out[i] = t.segment.get(ValueLayout.JAVA_BYTE, (long) i) != 0;
    }
    return out;
  }

  /** {@return the elements in row-major order converted to INT8} */
  public byte[] toByteArray() {
    return arrayable(DType.INT8).segment.asSlice(0, numel).toArray(ValueLayout.JAVA_BYTE);
  }

  /** {@return the elements in row-major order converted to INT16} */
  public short[] toShortArray() {
    return arrayable(DType.INT16).segment.asSlice(0, numel * 2).toArray(ValueLayout.JAVA_SHORT);
  }

  /** {@return the elements in row-major order converted to INT32} */
  public int[] toIntArray() {
    return arrayable(DType.INT32).segment.asSlice(0, numel * 4).toArray(ValueLayout.JAVA_INT);
  }

  /** {@return the elements in row-major order converted to INT64 (UINT64 keeps its bits)} */
  public long[] toLongArray() {
    return arrayable(DType.INT64).segment.asSlice(0, numel * 8).toArray(ValueLayout.JAVA_LONG);
  }

  /** {@return the elements in row-major order converted to FLOAT32} */
  public float[] toFloatArray() {
    return arrayable(DType.FLOAT32).segment.asSlice(0, numel * 4).toArray(ValueLayout.JAVA_FLOAT);
  }

  /** {@return the elements in row-major order converted to FLOAT64} */
  public double[] toDoubleArray() {
    return arrayable(DType.FLOAT64).segment.asSlice(0, numel * 8).toArray(ValueLayout.JAVA_DOUBLE);
  }

  /**
   * {@return the elements as interleaved (re, im) doubles, 2 × numel values (imaginary 0 if real)}
   */
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
  // Printing
  // ============================================================================================

  /** PyTorch's printed form: {@code tensor([[1.0000, 2.5000], ...], dtype=torch.float16)}. */
  @Override
  public String toString() {
    return TensorFormat.format(this);
  }

  // ============================================================================================
  // Autograd (docs/gradients.md; the engine is GradGraph and GradEngine)
  // ============================================================================================

  /**
   * Marks this leaf as requiring gradients (or not): ops on it record how their results were
   * made, and {@link #backward()} adds its gradient into {@link #grad()}. PyTorch's {@code
   * requires_grad_}.
   *
   * @param requiresGrad whether ops on it record how their results were made
   * @return this tensor
   * @throws IllegalArgumentException for a tensor that is not floating (integral, bool, complex:
   *     "only Tensors of floating point dtype can require gradients")
   * @throws IllegalStateException for a computed (non-leaf) tensor
   */
  public Tensor requiresGrad(boolean requiresGrad) {
    GradGraph.setRequiresGrad(this, requiresGrad);
    return this;
  }

  /**
   * {@return true for a leaf marked with {@link #requiresGrad(boolean)} and for results computed
   * from one}
   */
  public boolean requiresGrad() {
    return GradGraph.requiresGrad(this);
  }

  /** {@return true unless this tensor was computed by a recorded op (PyTorch's {@code is_leaf})} */
  public boolean isLeaf() {
    GradGraph.Meta m = GradGraph.meta(this);
    return m == null || m.gradFn == null;
  }

  /**
   * {@return the gradient accumulated into this leaf by {@link #backward()}; null before the first}
   */
  public Tensor grad() {
    return autograd == null ? null : autograd.grad;
  }

  /**
   * Replaces {@link #grad()} (PyTorch's {@code x.grad = ...}); null clears it, as before a new
   * accumulation.
   *
   * @param grad the new gradient, of this tensor's shape and dtype; null clears it
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
   *
   * @param gradient the gradient of some scalar with respect to this tensor, of its shape
   */
  public void backward(Tensor gradient) {
    if (gradient == null) {
      throw new IllegalArgumentException("backward(): gradient must not be null; for a"
          + " one-element tensor call backward()");
    }
    GradEngine.backward(this, gradient);
  }

  /**
   * {@return a view of the same elements that is in no graph: it does not require gradients and no
   * gradient flows through it (PyTorch's {@code detach})} Writes through either are seen by both.
   */
  public Tensor detach() {
    return alias(shape, strides, offset);
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
}
