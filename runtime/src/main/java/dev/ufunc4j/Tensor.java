package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.TensorLike;
import dev.ufunc4j.internal.Convert;
import dev.ufunc4j.internal.Elements;
import dev.ufunc4j.internal.NativeMemory;
import java.lang.foreign.MemorySegment;
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
 * <p>Indices may be negative (counting from the end, as in Python). Every method checks its
 * arguments before touching memory and names the offending values in its exception; errors that
 * PyTorch also reports carry PyTorch's text.
 */
public final class Tensor implements TensorLike {

  private final DType dtype;
  private final long[] shape;
  private final long[] strides;
  private final long offset;
  private final MemorySegment segment;
  private final boolean wrappedNumber;
  private final long numel;

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

  /** Shape without a copy, for the planner in this package: callers must not modify it. */
  long[] shapeRef() {
    return shape;
  }

  /** Strides without a copy, for the planner in this package: callers must not modify it. */
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

  // ============================================================================================
  // Elementwise ops (the static forms, with out=, are in Ops). In-place forms write into this
  // tensor: its shape and dtype never change, so the broadcast shape must equal its shape and the
  // result dtype must cast to its dtype (int32.addInPlace(float32) is refused).
  // ============================================================================================

  /** {@link Ops#add(Tensor, Tensor)}. */
  public Tensor add(Tensor other) {
    return Ops.add(this, other);
  }

  /** {@link Ops#add(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor add(Number other) {
    return Ops.add(this, other);
  }

  /** {@link Ops#sub(Tensor, Tensor)}. */
  public Tensor sub(Tensor other) {
    return Ops.sub(this, other);
  }

  /** {@link Ops#sub(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor sub(Number other) {
    return Ops.sub(this, other);
  }

  /** {@link Ops#mul(Tensor, Tensor)}. */
  public Tensor mul(Tensor other) {
    return Ops.mul(this, other);
  }

  /** {@link Ops#mul(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor mul(Number other) {
    return Ops.mul(this, other);
  }

  /** {@link Ops#div(Tensor, Tensor)}. */
  public Tensor div(Tensor other) {
    return Ops.div(this, other);
  }

  /** {@link Ops#div(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor div(Number other) {
    return Ops.div(this, other);
  }

  /** {@link Ops#floorDivide(Tensor, Tensor)}. */
  public Tensor floorDivide(Tensor other) {
    return Ops.floorDivide(this, other);
  }

  /** {@link Ops#floorDivide(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor floorDivide(Number other) {
    return Ops.floorDivide(this, other);
  }

  /** {@link Ops#remainder(Tensor, Tensor)}. */
  public Tensor remainder(Tensor other) {
    return Ops.remainder(this, other);
  }

  /** {@link Ops#remainder(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor remainder(Number other) {
    return Ops.remainder(this, other);
  }

  /** {@link Ops#maximum(Tensor, Tensor)}. */
  public Tensor maximum(Tensor other) {
    return Ops.maximum(this, other);
  }

  /** {@link Ops#maximum(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor maximum(Number other) {
    return Ops.maximum(this, other);
  }

  /** {@link Ops#minimum(Tensor, Tensor)}. */
  public Tensor minimum(Tensor other) {
    return Ops.minimum(this, other);
  }

  /** {@link Ops#minimum(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor minimum(Number other) {
    return Ops.minimum(this, other);
  }

  /** {@link Ops#pow(Tensor, Tensor)}. */
  public Tensor pow(Tensor other) {
    return Ops.pow(this, other);
  }

  /** {@link Ops#pow(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor pow(Number other) {
    return Ops.pow(this, other);
  }

  /** {@link Ops#eq(Tensor, Tensor)}. */
  public Tensor eq(Tensor other) {
    return Ops.eq(this, other);
  }

  /** {@link Ops#eq(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor eq(Number other) {
    return Ops.eq(this, other);
  }

  /** {@link Ops#ne(Tensor, Tensor)}. */
  public Tensor ne(Tensor other) {
    return Ops.ne(this, other);
  }

  /** {@link Ops#ne(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor ne(Number other) {
    return Ops.ne(this, other);
  }

  /** {@link Ops#lt(Tensor, Tensor)}. */
  public Tensor lt(Tensor other) {
    return Ops.lt(this, other);
  }

  /** {@link Ops#lt(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor lt(Number other) {
    return Ops.lt(this, other);
  }

  /** {@link Ops#le(Tensor, Tensor)}. */
  public Tensor le(Tensor other) {
    return Ops.le(this, other);
  }

  /** {@link Ops#le(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor le(Number other) {
    return Ops.le(this, other);
  }

  /** {@link Ops#gt(Tensor, Tensor)}. */
  public Tensor gt(Tensor other) {
    return Ops.gt(this, other);
  }

  /** {@link Ops#gt(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor gt(Number other) {
    return Ops.gt(this, other);
  }

  /** {@link Ops#ge(Tensor, Tensor)}. */
  public Tensor ge(Tensor other) {
    return Ops.ge(this, other);
  }

  /** {@link Ops#ge(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor ge(Number other) {
    return Ops.ge(this, other);
  }

  /** {@link Ops#logicalAnd(Tensor, Tensor)}. */
  public Tensor logicalAnd(Tensor other) {
    return Ops.logicalAnd(this, other);
  }

  /** {@link Ops#logicalAnd(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor logicalAnd(Number other) {
    return Ops.logicalAnd(this, other);
  }

  /** {@link Ops#logicalOr(Tensor, Tensor)}. */
  public Tensor logicalOr(Tensor other) {
    return Ops.logicalOr(this, other);
  }

  /** {@link Ops#logicalOr(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor logicalOr(Number other) {
    return Ops.logicalOr(this, other);
  }

  /** {@link Ops#logicalXor(Tensor, Tensor)}. */
  public Tensor logicalXor(Tensor other) {
    return Ops.logicalXor(this, other);
  }

  /** {@link Ops#logicalXor(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor logicalXor(Number other) {
    return Ops.logicalXor(this, other);
  }

  /** {@link Ops#bitwiseAnd(Tensor, Tensor)}. */
  public Tensor bitwiseAnd(Tensor other) {
    return Ops.bitwiseAnd(this, other);
  }

  /** {@link Ops#bitwiseAnd(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor bitwiseAnd(Number other) {
    return Ops.bitwiseAnd(this, other);
  }

  /** {@link Ops#bitwiseOr(Tensor, Tensor)}. */
  public Tensor bitwiseOr(Tensor other) {
    return Ops.bitwiseOr(this, other);
  }

  /** {@link Ops#bitwiseOr(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor bitwiseOr(Number other) {
    return Ops.bitwiseOr(this, other);
  }

  /** {@link Ops#bitwiseXor(Tensor, Tensor)}. */
  public Tensor bitwiseXor(Tensor other) {
    return Ops.bitwiseXor(this, other);
  }

  /** {@link Ops#bitwiseXor(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor bitwiseXor(Number other) {
    return Ops.bitwiseXor(this, other);
  }

  /** {@link Ops#bitwiseLeftShift(Tensor, Tensor)}. */
  public Tensor bitwiseLeftShift(Tensor other) {
    return Ops.bitwiseLeftShift(this, other);
  }

  /** {@link Ops#bitwiseLeftShift(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor bitwiseLeftShift(Number other) {
    return Ops.bitwiseLeftShift(this, other);
  }

  /** {@link Ops#bitwiseRightShift(Tensor, Tensor)}. */
  public Tensor bitwiseRightShift(Tensor other) {
    return Ops.bitwiseRightShift(this, other);
  }

  /** {@link Ops#bitwiseRightShift(Tensor, Number)}: a Java number promotes as a Python scalar. */
  public Tensor bitwiseRightShift(Number other) {
    return Ops.bitwiseRightShift(this, other);
  }

  /** {@link Ops#add(Tensor, Tensor, Number)}: {@code this + alpha * other}. */
  public Tensor add(Tensor other, Number alpha) {
    return Ops.add(this, other, alpha);
  }

  /** {@link Ops#sub(Tensor, Tensor, Number)}: {@code this - alpha * other}. */
  public Tensor sub(Tensor other, Number alpha) {
    return Ops.sub(this, other, alpha);
  }

  /** {@link Ops#clamp(Tensor, Number, Number)}; a null bound is absent. */
  public Tensor clamp(Number min, Number max) {
    return Ops.clamp(this, min, max);
  }

  /** {@link Ops#clamp(Tensor, Tensor, Tensor)}. */
  public Tensor clamp(Tensor min, Tensor max) {
    return Ops.clamp(this, min, max);
  }

  /** {@link Ops#neg(Tensor)}. */
  public Tensor neg() {
    return Ops.neg(this);
  }

  /** {@link Ops#abs(Tensor)}. */
  public Tensor abs() {
    return Ops.abs(this);
  }

  /** {@link Ops#sign(Tensor)}. */
  public Tensor sign() {
    return Ops.sign(this);
  }

  /** {@link Ops#exp(Tensor)}. */
  public Tensor exp() {
    return Ops.exp(this);
  }

  /** {@link Ops#log(Tensor)}. */
  public Tensor log() {
    return Ops.log(this);
  }

  /** {@link Ops#sqrt(Tensor)}. */
  public Tensor sqrt() {
    return Ops.sqrt(this);
  }

  /** {@link Ops#sin(Tensor)}. */
  public Tensor sin() {
    return Ops.sin(this);
  }

  /** {@link Ops#cos(Tensor)}. */
  public Tensor cos() {
    return Ops.cos(this);
  }

  /** {@link Ops#tanh(Tensor)}. */
  public Tensor tanh() {
    return Ops.tanh(this);
  }

  /** {@link Ops#sigmoid(Tensor)}. */
  public Tensor sigmoid() {
    return Ops.sigmoid(this);
  }

  /** {@link Ops#logicalNot(Tensor)}. */
  public Tensor logicalNot() {
    return Ops.logicalNot(this);
  }

  /** {@link Ops#bitwiseNot(Tensor)}. */
  public Tensor bitwiseNot() {
    return Ops.bitwiseNot(this);
  }

  /** In-place {@link #add(Tensor)}; returns this tensor. */
  public Tensor addInPlace(Tensor other) {
    return Ops.add(this, other, this);
  }

  /** In-place {@link #add(Number)}; returns this tensor. */
  public Tensor addInPlace(Number other) {
    return Ops.add(this, other, this);
  }

  /** In-place {@link #sub(Tensor)}; returns this tensor. */
  public Tensor subInPlace(Tensor other) {
    return Ops.sub(this, other, this);
  }

  /** In-place {@link #sub(Number)}; returns this tensor. */
  public Tensor subInPlace(Number other) {
    return Ops.sub(this, other, this);
  }

  /** In-place {@link #mul(Tensor)}; returns this tensor. */
  public Tensor mulInPlace(Tensor other) {
    return Ops.mul(this, other, this);
  }

  /** In-place {@link #mul(Number)}; returns this tensor. */
  public Tensor mulInPlace(Number other) {
    return Ops.mul(this, other, this);
  }

  /** In-place {@link #div(Tensor)}; returns this tensor. */
  public Tensor divInPlace(Tensor other) {
    return Ops.div(this, other, this);
  }

  /** In-place {@link #div(Number)}; returns this tensor. */
  public Tensor divInPlace(Number other) {
    return Ops.div(this, other, this);
  }

  /** In-place {@link #floorDivide(Tensor)}; returns this tensor. */
  public Tensor floorDivideInPlace(Tensor other) {
    return Ops.floorDivide(this, other, this);
  }

  /** In-place {@link #floorDivide(Number)}; returns this tensor. */
  public Tensor floorDivideInPlace(Number other) {
    return Ops.floorDivide(this, other, this);
  }

  /** In-place {@link #remainder(Tensor)}; returns this tensor. */
  public Tensor remainderInPlace(Tensor other) {
    return Ops.remainder(this, other, this);
  }

  /** In-place {@link #remainder(Number)}; returns this tensor. */
  public Tensor remainderInPlace(Number other) {
    return Ops.remainder(this, other, this);
  }

  /** In-place {@link #maximum(Tensor)}; returns this tensor. */
  public Tensor maximumInPlace(Tensor other) {
    return Ops.maximum(this, other, this);
  }

  /** In-place {@link #maximum(Number)}; returns this tensor. */
  public Tensor maximumInPlace(Number other) {
    return Ops.maximum(this, other, this);
  }

  /** In-place {@link #minimum(Tensor)}; returns this tensor. */
  public Tensor minimumInPlace(Tensor other) {
    return Ops.minimum(this, other, this);
  }

  /** In-place {@link #minimum(Number)}; returns this tensor. */
  public Tensor minimumInPlace(Number other) {
    return Ops.minimum(this, other, this);
  }

  /** In-place {@link #pow(Tensor)}; returns this tensor. */
  public Tensor powInPlace(Tensor other) {
    return Ops.pow(this, other, this);
  }

  /** In-place {@link #pow(Number)}; returns this tensor. */
  public Tensor powInPlace(Number other) {
    return Ops.pow(this, other, this);
  }

  /** In-place {@link #bitwiseAnd(Tensor)}; returns this tensor. */
  public Tensor bitwiseAndInPlace(Tensor other) {
    return Ops.bitwiseAnd(this, other, this);
  }

  /** In-place {@link #bitwiseAnd(Number)}; returns this tensor. */
  public Tensor bitwiseAndInPlace(Number other) {
    return Ops.bitwiseAnd(this, other, this);
  }

  /** In-place {@link #bitwiseOr(Tensor)}; returns this tensor. */
  public Tensor bitwiseOrInPlace(Tensor other) {
    return Ops.bitwiseOr(this, other, this);
  }

  /** In-place {@link #bitwiseOr(Number)}; returns this tensor. */
  public Tensor bitwiseOrInPlace(Number other) {
    return Ops.bitwiseOr(this, other, this);
  }

  /** In-place {@link #bitwiseXor(Tensor)}; returns this tensor. */
  public Tensor bitwiseXorInPlace(Tensor other) {
    return Ops.bitwiseXor(this, other, this);
  }

  /** In-place {@link #bitwiseXor(Number)}; returns this tensor. */
  public Tensor bitwiseXorInPlace(Number other) {
    return Ops.bitwiseXor(this, other, this);
  }

  /** In-place {@link #bitwiseLeftShift(Tensor)}; returns this tensor. */
  public Tensor bitwiseLeftShiftInPlace(Tensor other) {
    return Ops.bitwiseLeftShift(this, other, this);
  }

  /** In-place {@link #bitwiseLeftShift(Number)}; returns this tensor. */
  public Tensor bitwiseLeftShiftInPlace(Number other) {
    return Ops.bitwiseLeftShift(this, other, this);
  }

  /** In-place {@link #bitwiseRightShift(Tensor)}; returns this tensor. */
  public Tensor bitwiseRightShiftInPlace(Tensor other) {
    return Ops.bitwiseRightShift(this, other, this);
  }

  /** In-place {@link #bitwiseRightShift(Number)}; returns this tensor. */
  public Tensor bitwiseRightShiftInPlace(Number other) {
    return Ops.bitwiseRightShift(this, other, this);
  }

  /** In-place {@link #add(Tensor, Number)}: {@code this += alpha * other}. */
  public Tensor addInPlace(Tensor other, Number alpha) {
    return Ops.add(this, other, alpha, this);
  }

  /** In-place {@link #sub(Tensor, Number)}: {@code this -= alpha * other}. */
  public Tensor subInPlace(Tensor other, Number alpha) {
    return Ops.sub(this, other, alpha, this);
  }

  /** In-place {@link #clamp(Number, Number)}. */
  public Tensor clampInPlace(Number min, Number max) {
    return Ops.clamp(this, min, max, this);
  }

  /** In-place {@link #neg()}; returns this tensor. */
  public Tensor negInPlace() {
    return Ops.neg(this, this);
  }

  /** In-place {@link #abs()}; returns this tensor. */
  public Tensor absInPlace() {
    return Ops.abs(this, this);
  }

  /** In-place {@link #sign()}; returns this tensor. */
  public Tensor signInPlace() {
    return Ops.sign(this, this);
  }

  /** In-place {@link #exp()}; returns this tensor. */
  public Tensor expInPlace() {
    return Ops.exp(this, this);
  }

  /** In-place {@link #log()}; returns this tensor. */
  public Tensor logInPlace() {
    return Ops.log(this, this);
  }

  /** In-place {@link #sqrt()}; returns this tensor. */
  public Tensor sqrtInPlace() {
    return Ops.sqrt(this, this);
  }

  /** In-place {@link #sin()}; returns this tensor. */
  public Tensor sinInPlace() {
    return Ops.sin(this, this);
  }

  /** In-place {@link #cos()}; returns this tensor. */
  public Tensor cosInPlace() {
    return Ops.cos(this, this);
  }

  /** In-place {@link #tanh()}; returns this tensor. */
  public Tensor tanhInPlace() {
    return Ops.tanh(this, this);
  }

  /** In-place {@link #sigmoid()}; returns this tensor. */
  public Tensor sigmoidInPlace() {
    return Ops.sigmoid(this, this);
  }

  /** In-place {@link #bitwiseNot()}; returns this tensor. */
  public Tensor bitwiseNotInPlace() {
    return Ops.bitwiseNot(this, this);
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
    long[] s = checkShape(shape);
    return new Tensor(allocate(dtype, s, true), dtype, s, contiguousStrides(s), 0, false);
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
        allocate(dtype, shape, false), dtype, shape.clone(), contiguousStrides(shape), 0, false);
  }

  /** Storage for a dense tensor of {@code shape}, zeroed or not, in the current scope's arena. */
  private static MemorySegment allocate(DType dtype, long[] shape, boolean zeroed) {
    long n = numelOf(shape);
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
    t.fillBits(dtype.isComplex() ? Convert.fromDouble(dtype.componentType(), value)
        : Convert.fromDouble(dtype, value));
    return t;
  }

  /** A tensor filled with the integer {@code value} converted to {@code dtype}. */
  public static Tensor full(DType dtype, long value, long... shape) {
    Tensor t = empty(dtype, shape);
    t.fillBits(dtype.isComplex() ? Convert.fromLong(dtype.componentType(), value, false)
        : Convert.fromLong(dtype, value, false));
    return t;
  }

  /** A tensor filled with {@code value} converted to {@code dtype}. */
  public static Tensor full(DType dtype, boolean value, long... shape) {
    return full(dtype, value ? 1L : 0L, shape);
  }

  /** Writes the real carrier {@code bits} into every element (both parts' real part for complex). */
  private void fillBits(long bits) {
    if (bits == 0 || numel == 0) {
      return; // storage is born zeroed
    }
    DType c = dtype.componentType();
    int step = dtype.isComplex() ? 2 : 1;
    long count = numel * step;
    for (long i = 0; i < count; i += step) {
      Elements.write(segment, c, i * c.byteSize(), bits);
    }
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
    long n = Math.ceilDiv(end - start, step);
    Tensor t = empty(DType.INT64, n);
    for (long i = 0; i < n; i++) {
      t.segment.setAtIndex(ValueLayout.JAVA_LONG, i, start + i * step);
    }
    return t;
  }

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
    long n = (long) count;
    double[] values = new double[Math.toIntExact(n)];
    for (int i = 0; i < values.length; i++) {
      values[i] = start + i * step;
    }
    return of(values).to(dtype);
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

  /** Uniform integers in [low, high) from a generator seeded with {@code seed}. */
  public static Tensor randint(long seed, long low, long high, DType dtype, long... shape) {
    checkDtype(dtype);
    if (low >= high) {
      throw new IllegalArgumentException(
          "random_ expects 'from' to be less than 'to', but got from=" + low + " >= to=" + high);
    }
    if (dtype.isComplex()) {
      throw new IllegalArgumentException("randint is not implemented for " + dtype);
    }
    SplittableRandom rng = new SplittableRandom(seed);
    Tensor t = empty(dtype, shape);
    for (long i = 0; i < t.numel; i++) {
      long v = rng.nextLong(low, high);
      Elements.write(t.segment, dtype, i * dtype.byteSize(), Convert.fromLong(dtype, v, false));
    }
    return t;
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
    long[] s = shape.length == 0 ? new long[] {n} : checkShape(shape);
    if (numelOf(s) != n) {
      throw new IllegalArgumentException(
          "data has " + n + " complex elements but shape " + Arrays.toString(s) + " needs "
              + numelOf(s));
    }
    return new Tensor(parts.segment, complex, s, contiguousStrides(s), 0, false);
  }

  private static void requireComplex(DType dtype) {
    checkDtype(dtype);
    if (!dtype.isComplex()) {
      throw new IllegalArgumentException("ofComplex needs a complex dtype, got " + dtype);
    }
  }

  private static Tensor fromArray(DType dtype, int length, long[] shape) {
    long[] s = shape == null || shape.length == 0 ? new long[] {length} : checkShape(shape);
    long n = numelOf(s);
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

  /**
   * A Java {@code double} as a wrapped number: a zero-dim FLOAT64 tensor that promotes like a
   * Python float in PyTorch (it does not raise a tensor's float dtype: {@code float32 + 2.5} is
   * float32; {@code int32 + 2.5} is the default float dtype).
   */
  public static Tensor wrap(double value) {
    return asWrapped(scalar(value, DType.FLOAT64));
  }

  /** A Java integer as a wrapped number: a zero-dim INT64 tensor that promotes like a Python int. */
  public static Tensor wrap(long value) {
    return asWrapped(full(DType.INT64, value));
  }

  /** A Java {@code boolean} as a wrapped number: a zero-dim BOOL tensor. */
  public static Tensor wrap(boolean value) {
    return asWrapped(full(DType.BOOL, value));
  }

  /** A complex Java scalar as a wrapped number: a zero-dim COMPLEX128 tensor. */
  public static Tensor wrapComplex(double re, double im) {
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
    if (sizes == null) {
      throw new IllegalArgumentException("sizes must not be null");
    }
    int ndim = sizes.length;
    int tdim = shape.length;
    if (ndim < tdim) {
      throw new IllegalArgumentException(
          "expand(torch." + dtype.scalarTypeName() + "Tensor{" + Arrays.toString(shape)
              + "}, size=" + Arrays.toString(sizes) + "): the number of sizes provided (" + ndim
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
        stride = newShape[i + 1] * newStrides[i + 1];
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
    return view(newShape, newStrides, offset);
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
    long[] s = inferSize(shape);
    long[] st = computeStride(this.shape, this.strides, s);
    if (st == null) {
      throw new IllegalArgumentException(
          "view size is not compatible with input tensor's size and stride (at least one"
              + " dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
    }
    return view(s, st, offset);
  }

  /** Like {@link #view}, but copies into a contiguous tensor when no view is possible. */
  public Tensor reshape(long... shape) {
    long[] s = inferSize(shape);
    long[] st = computeStride(this.shape, this.strides, s);
    if (st != null) {
      return view(s, st, offset);
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
    return view(s, st, offset);
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
    return view(s, st, offset);
  }

  /** The transpose of a matrix; a tensor of fewer than 2 dimensions as it is. */
  public Tensor t() {
    if (shape.length > 2) {
      throw new IllegalArgumentException(
          "t() expects a tensor with <= 2 dimensions, but self is " + shape.length + "D");
    }
    return shape.length < 2 ? view(shape, strides, offset) : transpose(0, 1);
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
    s[d] = (hi - lo + step - 1) / step;
    st[d] = strides[d] * step;
    return view(s, st, offset + lo * strides[d]); // PyTorch keeps the offset of an empty slice
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
    return view(remove(shape, d), remove(strides, d), offset + i * strides[d]);
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
    if (s0 + length > size) {
      throw new IllegalArgumentException(
          "start (" + s0 + ") + length (" + length + ") exceeds dimension size (" + size + ").");
    }
    return slice(d, s0, s0 + length, 1);
  }

  /** A view with a new dimension of size 1 at {@code dim} (in {@code [-ndim-1, ndim]}). */
  public Tensor unsqueeze(int dim) {
    int d = wrapDim(dim, shape.length + 1);
    long stride = d >= shape.length ? 1 : shape[d] * strides[d];
    return view(insert(shape, d, 1), insert(strides, d, stride), offset);
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
    return view(s, st, offset);
  }

  /** A view without dimension {@code dim} if its size is 1; otherwise the same shape. */
  public Tensor squeeze(int dim) {
    int d = wrapDim(dim, shape.length);
    if (shape.length == 0 || shape[d] != 1) {
      return view(shape, strides, offset);
    }
    return view(remove(shape, d), remove(strides, d), offset);
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
      return view(shape, strides, offset);
    }
    long merged = 1;
    for (int i = a; i <= b; i++) {
      merged *= shape[i];
    }
    long[] s = new long[n - (b - a)];
    System.arraycopy(shape, 0, s, 0, a);
    s[a] = merged;
    System.arraycopy(shape, b + 1, s, a + 1, n - b - 1);
    return reshape(s);
  }

  /**
   * A view with arbitrary non-negative {@code strides} and storage {@code offset} (PyTorch's
   * {@code as_strided}); every element it reaches must lie inside the storage.
   */
  public Tensor asStrided(long[] shape, long[] strides, long offset) {
    if (shape == null || strides == null) {
      throw new IllegalArgumentException("shape and strides must not be null");
    }
    if (shape.length != strides.length) {
      throw new IllegalArgumentException(
          "mismatch in length of strides and shape: " + Arrays.toString(shape) + " vs "
              + Arrays.toString(strides));
    }
    long[] s = checkShape(shape);
    long last = offset;
    for (int i = 0; i < s.length; i++) {
      if (strides[i] < 0) {
        throw new IllegalArgumentException(
            "as_strided: Negative strides are not supported at the moment, got strides: "
                + Arrays.toString(strides));
      }
      if (s[i] > 0) {
        last += (s[i] - 1) * strides[i];
      }
    }
    if (offset < 0 || (numelOf(s) > 0 && last >= storageSize())) {
      throw new IllegalArgumentException(
          "as_strided: shape " + Arrays.toString(s) + ", strides " + Arrays.toString(strides)
              + " and offset " + offset + " reach element " + last + " of a storage of "
              + storageSize() + " elements");
    }
    return view(s, strides.clone(), offset);
  }

  private Tensor view(long[] shape, long[] strides, long offset) {
    return new Tensor(segment, dtype, shape.clone(), strides.clone(), offset, false);
  }

  /** PyTorch's {@code infer_size}: resolves one {@code -1} and checks the element count. */
  private long[] inferSize(long[] requested) {
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
   * {@code newShape}, or null when dimensions would span two non-contiguous chunks.
   */
  private static long[] computeStride(long[] oldShape, long[] oldStride, long[] newShape) {
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
        newStride[d] = d == n - 1 ? 1 : Math.max(newShape[d + 1], 1) * newStride[d + 1];
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
              && oldStride[tensorD - 1] != tensorNumel * chunkBaseStride)) {
        while (viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] == 1)) {
          newStride[viewD] = viewNumel * chunkBaseStride;
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
    if (dtype.isComplex()) {
      writeComplex(at, value, 0);
    } else {
      Elements.write(segment, dtype, at * dtype.byteSize(), Convert.fromDouble(dtype, value));
    }
  }

  /** Stores the integer {@code value} converted to the dtype at {@code index}. */
  public void setLong(long value, long... index) {
    long at = elementOffset(index);
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
    copyInto(this, out);
    return out;
  }

  /** This tensor if it is contiguous, else a contiguous copy. */
  public Tensor contiguous() {
    return isContiguous() ? this : copy();
  }

  /** A contiguous copy with its own storage. */
  public Tensor copy() {
    Tensor out = empty(dtype, shape);
    copyInto(this, out);
    return out;
  }

  /**
   * Copies {@code src}'s elements into {@code dst} of the same shape (any layout, no internal
   * overlap), converting the dtype element by element.
   */
  static void copyInto(Tensor src, Tensor dst) {
    long n = src.numel;
    if (n == 0) {
      return;
    }
    if (src.dtype == dst.dtype && src.isContiguous() && dst.isContiguous()) {
      long bs = src.dtype.byteSize();
      MemorySegment.copy(src.segment, src.offset * bs, dst.segment, dst.offset * bs, n * bs);
      return;
    }
    int nd = src.shape.length;
    long[] idx = new long[nd];
    long srcAt = src.offset;
    long dstAt = dst.offset;
    for (long i = 0; i < n; i++) {
      copyElement(src, srcAt, dst, dstAt);
      for (int k = nd - 1; k >= 0; k--) {
        srcAt += src.strides[k];
        dstAt += dst.strides[k];
        if (++idx[k] < src.shape[k]) {
          break;
        }
        srcAt -= src.strides[k] * src.shape[k];
        dstAt -= dst.strides[k] * dst.shape[k];
        idx[k] = 0;
      }
    }
  }

  private static void copyElement(Tensor src, long srcAt, Tensor dst, long dstAt) {
    DType s = src.dtype;
    DType d = dst.dtype;
    long sb = srcAt * s.byteSize();
    long db = dstAt * d.byteSize();
    if (!s.isComplex()) {
      long v = Elements.read(src.segment, s, sb);
      if (d.isComplex()) {
        DType dc = d.componentType();
        Elements.write(dst.segment, dc, db, Convert.convert(s, dc, v));
        Elements.write(dst.segment, dc, db + dc.byteSize(), 0); // +0.0 in every float format
      } else {
        Elements.write(dst.segment, d, db, Convert.convert(s, d, v));
      }
      return;
    }
    DType sc = s.componentType();
    long re = Elements.read(src.segment, sc, sb);
    long im = Elements.read(src.segment, sc, sb + sc.byteSize());
    if (d.isComplex()) {
      DType dc = d.componentType();
      Elements.write(dst.segment, dc, db, Convert.convert(sc, dc, re));
      Elements.write(dst.segment, dc, db + dc.byteSize(), Convert.convert(sc, dc, im));
    } else if (d == DType.BOOL) {
      boolean nonzero = Convert.toBoolean(sc, re) || Convert.toBoolean(sc, im);
      Elements.write(dst.segment, d, db, nonzero ? 1 : 0);
    } else {
      Elements.write(dst.segment, d, db, Convert.convert(sc, d, re));
    }
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
   * True when both tensors have the same shape and every pair of elements is equal as values
   * (dtypes may differ; NaN equals nothing), like {@code torch.equal}.
   */
  public boolean equal(Tensor other) {
    requireOther(other);
    if (!Arrays.equals(shape, other.shape)) {
      return false;
    }
    boolean exact = dtype.isIntegral(true) && other.dtype.isIntegral(true);
    Tensor a = exact ? this.to(wideInt(dtype)) : this.to(DType.COMPLEX128);
    Tensor b = exact ? other.to(wideInt(other.dtype)) : other.to(DType.COMPLEX128);
    long[] idx = new long[shape.length];
    for (long i = 0; i < numel; i++) {
      unravel(i, idx);
      if (exact) {
        long x = a.getLong(idx);
        long y = b.getLong(idx);
        boolean xNeg = a.dtype == DType.INT64 && x < 0;
        boolean yNeg = b.dtype == DType.INT64 && y < 0;
        if (x != y || xNeg != yNeg) {
          return false;
        }
      } else if (a.getReal(idx) != b.getReal(idx) || a.getImag(idx) != b.getImag(idx)) {
        return false;
      }
    }
    return true;
  }

  private static DType wideInt(DType t) {
    return t == DType.UINT64 ? DType.UINT64 : DType.INT64;
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
  // Helpers
  // ============================================================================================

  /** PyTorch's {@code maybe_wrap_dim}; a zero-dim tensor accepts dims -1 and 0. */
  static int wrapDim(int dim, int ndim) {
    int n = Math.max(ndim, 1);
    if (dim < -n || dim >= n) {
      throw new IndexOutOfBoundsException(
          "Dimension out of range (expected to be in range of [" + (-n) + ", " + (n - 1)
              + "], but got " + dim + ")");
    }
    return dim < 0 ? dim + n : dim;
  }

  static DType checkDtype(DType dtype) {
    if (dtype == null) {
      throw new IllegalArgumentException("dtype must not be null");
    }
    return dtype;
  }

  /** A copy of {@code shape} after checking sizes are non-negative and the count fits a long. */
  static long[] checkShape(long[] shape) {
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

  static long numelOf(long[] shape) {
    long n = 1;
    for (long s : shape) {
      n *= s;
    }
    return n;
  }

  static long[] contiguousStrides(long[] shape) {
    long[] st = new long[shape.length];
    long acc = 1;
    for (int d = shape.length - 1; d >= 0; d--) {
      st[d] = acc;
      acc *= Math.max(shape[d], 1);
    }
    return st;
  }

  private static long[] remove(long[] a, int i) {
    long[] r = new long[a.length - 1];
    System.arraycopy(a, 0, r, 0, i);
    System.arraycopy(a, i + 1, r, i, a.length - i - 1);
    return r;
  }

  private static long[] insert(long[] a, int i, long v) {
    long[] r = new long[a.length + 1];
    System.arraycopy(a, 0, r, 0, i);
    r[i] = v;
    System.arraycopy(a, i, r, i + 1, a.length - i);
    return r;
  }
}
