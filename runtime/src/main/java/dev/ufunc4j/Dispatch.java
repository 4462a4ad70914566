package dev.ufunc4j;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.Promotion;
import dev.ufunc4j.dtype.PromotionException;
import dev.ufunc4j.internal.LoopPlan;
import dev.ufunc4j.internal.Parallel;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Runs an {@link ElementwiseOp} on tensors: promotion, broadcasting, {@code out=} checks, the
 * kernel choice, the loop plan and the threads. Generated facades ({@code <Class>Ops}) call it;
 * users call the facades.
 *
 * <p>The pipeline, PyTorch's TensorIterator in spirit:
 *
 * <ol>
 *   <li>refuse null and storage-only (float8) operands;
 *   <li>the common dtype from PyTorch's {@code result_type} over the tensor operands and the
 *       wrapped scalars (condition operands excluded), then the op's {@link Promote} mode;
 *   <li>zero-dim operands (wrapped Java numbers included) are cast to the common dtype, as
 *       PyTorch casts CPU scalars; dimensioned operands keep their dtype and are converted in
 *       registers by the kernel;
 *   <li>the broadcast shape; an {@code out=} target must have it, must accept the result dtype
 *       ({@link Promotion#canCast}), must not overlap itself, and may alias an input only exactly;
 *   <li>every check passes before the first byte is written. A kernel that can still fail midway
 *       (integer division by zero) writes into a temporary first when it has a target to protect;
 *   <li>plan (reorder, coalesce) and run, in parallel above the grain size.
 * </ol>
 */
public final class Dispatch {
  private static final Object[] NO_SCALARS = {};

  private Dispatch() {}

  /** Applies {@code op} to tensor operands; {@code out} may be null (a new result). */
  public static Tensor apply(ElementwiseOp op, Tensor out, Tensor... inputs) {
    return apply(op, out, inputs, NO_SCALARS);
  }

  /**
   * Applies {@code op} to tensor operands and {@code @Scalar} values ({@link Boolean}, {@link
   * Long}/{@link Integer}, or {@link Double}/{@link Float}; their Java type decides how they
   * promote, as a Python scalar's does in PyTorch).
   *
   * @param out the target ({@code out=} or in-place), or null for a new result
   * @return the result: {@code out} when given
   */
  public static Tensor apply(ElementwiseOp op, Tensor out, Tensor[] inputs, Object[] scalars) {
    if (GradGraph.recording(out, inputs)) {
      return GradGraph.elementwise(op, out, inputs, scalars); // autograd: records, then runs
    }
    Tensor result = compute(op, out, inputs, scalars);
    if (out != null) {
      out.bumpVersion(); // a write autograd must see (GradGraph.Version)
    }
    return result;
  }

  private static Tensor compute(ElementwiseOp op, Tensor out, Tensor[] inputs, Object[] scalars) {
    Tensor fast = sameShapeContiguous(op, out, inputs, scalars);
    if (fast != null) {
      return fast;
    }
    if (op == null) {
      throw new IllegalArgumentException("op must not be null");
    }
    String name = op.name();
    if (inputs == null || inputs.length != op.arity()) {
      throw new IllegalArgumentException(
          name + " takes " + op.arity() + " tensor operands " + op.tensorParams() + ", got "
              + (inputs == null ? "null" : Integer.toString(inputs.length)));
    }
    int nScalars = op.scalarParams().size();
    if (scalars == null || scalars.length != nScalars) {
      throw new IllegalArgumentException(
          name + " takes " + nScalars + " scalar arguments " + op.scalarParams() + ", got "
              + (scalars == null ? "null" : Integer.toString(scalars.length)));
    }
    for (int i = 0; i < inputs.length; i++) {
      Tensor t = inputs[i];
      if (t == null) {
        throw new IllegalArgumentException(
            name + ": tensor argument '" + op.tensorParams().get(i) + "' must not be null");
      }
      if (t.dtype().isFloat8()) {
        throw new IllegalArgumentException(
            name + ": argument '" + op.tensorParams().get(i) + "' has dtype " + t.dtype()
                + ", which is storage-only: it loads, stores and casts but does no arithmetic;"
                + " convert it first, e.g. .to(DType.FLOAT32)");
      }
      if (op.isConditionOperand(i) && t.dtype() != DType.BOOL) {
        throw new IllegalArgumentException(
            name + " expected condition to be a boolean tensor, but got a tensor with dtype "
                + t.dtype().scalarTypeName() + " (argument '" + op.tensorParams().get(i) + "')");
      }
    }
    for (int i = 0; i < nScalars; i++) {
      Object s = scalars[i];
      if (!(s instanceof Boolean || s instanceof Long || s instanceof Integer
          || s instanceof Double || s instanceof Float || s instanceof Short
          || s instanceof Byte)) {
        throw new IllegalArgumentException(
            name + ": scalar argument '" + op.scalarParams().get(i) + "' must be a Java boolean,"
                + " integral or floating number, got " + (s == null ? "null" : s.getClass().getName()));
      }
    }

    // Common dtype over tensors and wrapped scalars; then the op's mode.
    Object[] promoting = new Object[inputs.length + nScalars];
    int nPromoting = 0;
    for (int i = 0; i < inputs.length; i++) {
      if (!op.isConditionOperand(i)) {
        promoting[nPromoting++] = inputs[i];
      }
    }
    System.arraycopy(scalars, 0, promoting, nPromoting, nScalars);
    nPromoting += nScalars;
    if (nPromoting < promoting.length) {
      promoting = Arrays.copyOf(promoting, nPromoting);
    }
    DType common;
    try {
      common = Promotion.resultType(promoting);
    } catch (PromotionException e) {
      throw new PromotionException(name + ": " + e.getMessage());
    }
    DType promoted =
        op.promote() == Promote.INT_TO_FLOAT && common.isIntegral(true)
            ? Promotion.DEFAULT_FLOAT
            : common;

    // PyTorch's order of checks: memory overlap, then shapes, then the target's dtype, and only
    // then the kernel (a missing kernel is the last thing reported).
    long[][] shapes = new long[inputs.length][];
    for (int i = 0; i < inputs.length; i++) {
      shapes[i] = inputs[i].shapeRef();
    }
    if (out != null) {
      checkOverlap(name, out, inputs);
    }
    long[] shape = Broadcast.shapes(shapes);
    DType natural = op.isPredicate() ? DType.BOOL : promoted;
    if (out != null) {
      checkShapeAndCast(name, out, shape, natural);
    }

    // Zero-dim operands (wrapped Java numbers included) are PyTorch's CPU scalars: cast to the
    // dtype the op promotes to (float32 for true division of integers), one element each.
    // (PyTorch's mul and div read a second scalar operand at float32 precision beside float16
    // tensors; we round it to float16 like every other op: docs/ops.md.)
    DType scalarDtype = promoted;
    Tensor[] operands = inputs.clone();
    DType[] dtypes = new DType[operands.length];
    for (int i = 0; i < operands.length; i++) {
      if (!op.isConditionOperand(i) && operands[i].ndim() == 0 && operands[i].dtype() != scalarDtype) {
        operands[i] = operands[i].to(scalarDtype);
      }
      dtypes[i] = operands[i].dtype();
    }
    int entry = op.entryPromotedTo(promoted, dtypes);
    if (entry < 0 && mixed(op, dtypes)) {
      // Three or more mixed operands: the documented slower path converts them first.
      for (int i = 0; i < operands.length; i++) {
        if (!op.isConditionOperand(i)) {
          operands[i] = operands[i].to(common);
          dtypes[i] = common;
        }
      }
      entry = op.entryPromotedTo(promoted, dtypes);
    }
    if (entry < 0) {
      throw new IllegalArgumentException(noKernel(op, dtypes, promoted));
    }
    DType kernelResult = op.entryResult(entry);

    // A kernel that stores another dtype than the target's, or that can fail midway while a
    // target must stay untouched, writes a temporary that is then copied (and cast).
    DType finalDtype = out != null ? out.dtype() : natural;
    boolean viaTemporary =
        kernelResult != finalDtype
            || (out != null && op.mayThrow() && op.entryCompute(entry).isIntegral(true));
    long[][] inputStrides = new long[operands.length][];
    for (int i = 0; i < operands.length; i++) {
      inputStrides[i] = alignedStrides(operands[i], shape);
    }
    long[] layout = LoopPlan.outputStrides(shape, inputStrides);
    Tensor target =
        out != null && !viaTemporary ? out : Tensor.emptyStrided(kernelResult, shape, layout);
    run(op, entry, target, operands, inputStrides, scalars, shape);
    if (!viaTemporary) {
      return target;
    }
    Tensor dest = out != null ? out : Tensor.emptyStrided(finalDtype, shape, layout);
    Tensor.copyInto(target, dest);
    return dest;
  }

  /**
   * The two tensor operands of {@code op} with the lower-rank one lifted by XLA's broadcast
   * dimensions ({@link Broadcast#inDim}), ready for {@link #apply}; the other is returned as it is.
   * Generated facades call it for their {@link BroadcastDims} overloads.
   *
   * @throws IllegalArgumentException for null dims, or dims that do not fit the operands (the
   *     message names the op, the shapes and the dims)
   */
  public static Tensor[] liftWithDims(ElementwiseOp op, Tensor a, Tensor b, BroadcastDims dims) {
    if (op == null) {
      throw new IllegalArgumentException("op must not be null");
    }
    return Broadcast.inDimOperands(op.name(), a, b, dims);
  }

  /**
   * A Java number given where {@code op} takes tensor operand {@code operand}, as a wrapped number
   * ({@link Tensor#wrap(long)} for {@link Long}, {@link Integer}, {@link Short}, {@link Byte};
   * {@link Tensor#wrap(double)} for {@link Double}, {@link Float}): it promotes as a Python scalar
   * does in PyTorch. Generated facades call it for their {@code Number} overloads.
   *
   * @throws IllegalArgumentException for null or another {@link Number} type, naming the parameter
   */
  public static Tensor wrap(ElementwiseOp op, int operand, Number value) {
    if (value instanceof Long || value instanceof Integer || value instanceof Short
        || value instanceof Byte) {
      return Tensor.wrap(value.longValue());
    }
    if (value instanceof Double || value instanceof Float) {
      return Tensor.wrap(value.doubleValue());
    }
    throw new IllegalArgumentException(
        op.name() + ": number argument '" + op.tensorParams().get(operand) + "' must be a Java"
            + " integral or floating number (Long, Integer, Short, Byte, Double, Float), got "
            + (value == null ? "null" : value.getClass().getName()));
  }

  /**
   * The common call, planned in a few comparisons: every operand a dimensioned, contiguous tensor
   * of one dtype and one shape, no scalars, and a target (if any) of that shape and of the kernel's
   * result dtype that either is an input exactly or shares no memory with them. Then the common
   * dtype is the operands' own (PyTorch's result_type of equal dtypes), nothing broadcasts, and the
   * loop is one contiguous row. Returns null when any of that does not hold, or when the op can
   * fail midway while a target must stay untouched; the general path then decides, and reports
   * every error. Measured per call in benchmarks/RESULTS.md (tiny_8, tiny_4x4).
   */
  private static Tensor sameShapeContiguous(
      ElementwiseOp op, Tensor out, Tensor[] inputs, Object[] scalars) {
    if (op == null || inputs == null || inputs.length == 0 || inputs.length != op.arity()
        || inputs.length >= UNIT_STRIDES.length || scalars == null || scalars.length != 0) {
      return null;
    }
    Tensor first = inputs[0];
    if (first == null) {
      return null;
    }
    DType dtype = first.dtype();
    long[] shape = first.shapeRef();
    if (shape.length == 0 || dtype.isFloat8() || !first.isContiguous()) {
      return null;
    }
    for (int i = 1; i < inputs.length; i++) {
      Tensor t = inputs[i];
      if (t == null || t.dtype() != dtype || op.isConditionOperand(i) || !t.isContiguous()
          || !Arrays.equals(t.shapeRef(), shape)) {
        return null;
      }
    }
    if (op.isConditionOperand(0)) {
      return null;
    }
    DType promoted =
        op.promote() == Promote.INT_TO_FLOAT && dtype.isIntegral(true)
            ? Promotion.DEFAULT_FLOAT
            : dtype;
    DType[] dtypes = new DType[inputs.length];
    Arrays.fill(dtypes, dtype);
    int entry = op.entryPromotedTo(promoted, dtypes);
    if (entry < 0) {
      return null;
    }
    DType result = op.entryResult(entry);
    if (result != (op.isPredicate() ? DType.BOOL : promoted)) {
      return null;
    }
    Tensor target;
    if (out == null) {
      target = Tensor.emptyUninitialized(result, shape);
    } else {
      if (out.dtype() != result || !out.isContiguous() || !Arrays.equals(out.shapeRef(), shape)
          || (op.mayThrow() && op.entryCompute(entry).isIntegral(true))) {
        return null;
      }
      for (Tensor in : inputs) {
        if (!exactlyOrNotAliased(out, in)) {
          return null;
        }
      }
      target = out;
    }
    long n = target.numel();
    if (n == 0) {
      return target;
    }
    int arity = inputs.length;
    MemorySegment[] segments = new MemorySegment[arity + 1];
    long[] offsets = new long[arity + 1];
    segments[0] = target.segment();
    offsets[0] = target.offset();
    for (int i = 0; i < arity; i++) {
      segments[i + 1] = inputs[i].segment();
      offsets[i + 1] = inputs[i].offset();
    }
    long[] strides = UNIT_STRIDES[arity];
    ElementwiseKernel kernel = op.kernel(entry);
    try {
      if (Parallel.threads() > 1 && n >= 2 * Parallel.grainSize()) {
        LoopPlan plan = LoopPlan.of(new long[] {n}, UNIT_STRIDE_COLUMNS[arity]);
        Parallel.run(kernel, plan, segments, offsets, NO_FLOATS, NO_LONGS);
      } else {
        kernel.run(1, new long[] {n}, segments, offsets, strides, NO_FLOATS, NO_LONGS);
      }
    } catch (ArithmeticException e) {
      throw new ArithmeticException(op.name() + ": ZeroDivisionError (" + e.getMessage() + ")");
    }
    return target;
  }

  /** Rank-1 unit strides for the output and {@code k} inputs: {@code UNIT_STRIDES[k]}. */
  private static final long[][] UNIT_STRIDES = new long[8][];

  /** The same, one array per operand, as {@link LoopPlan#of} takes them. */
  private static final long[][][] UNIT_STRIDE_COLUMNS = new long[8][][];

  private static final double[] NO_FLOATS = {};
  private static final long[] NO_LONGS = {};

  static {
    for (int k = 0; k < UNIT_STRIDES.length; k++) {
      UNIT_STRIDES[k] = new long[k + 1];
      Arrays.fill(UNIT_STRIDES[k], 1);
      UNIT_STRIDE_COLUMNS[k] = new long[k + 1][];
      for (int i = 0; i <= k; i++) {
        UNIT_STRIDE_COLUMNS[k][i] = new long[] {1};
      }
    }
  }

  /**
   * For two contiguous tensors of one shape: true when {@code in} is exactly {@code out} (same
   * storage, offset and dtype) or their byte ranges are disjoint.
   */
  private static boolean exactlyOrNotAliased(Tensor out, Tensor in) {
    long outStart = out.segment().address() + out.offset() * out.dtype().byteSize();
    long inStart = in.segment().address() + in.offset() * in.dtype().byteSize();
    if (outStart == inStart && out.dtype() == in.dtype()) {
      return true;
    }
    long outEnd = outStart + out.numel() * out.dtype().byteSize();
    long inEnd = inStart + in.numel() * in.dtype().byteSize();
    return outEnd <= inStart || inEnd <= outStart;
  }

  private static boolean mixed(ElementwiseOp op, DType[] dtypes) {
    DType first = null;
    for (int i = 0; i < dtypes.length; i++) {
      if (op.isConditionOperand(i)) {
        continue;
      }
      if (first == null) {
        first = dtypes[i];
      } else if (dtypes[i] != first) {
        return true;
      }
    }
    return false;
  }

  private static void run(
      ElementwiseOp op,
      int entry,
      Tensor target,
      Tensor[] operands,
      long[][] inputStrides,
      Object[] scalars,
      long[] shape) {
    if (target.numel() == 0) {
      return;
    }
    int n = operands.length + 1;
    long[][] strides = new long[n][];
    MemorySegment[] segments = new MemorySegment[n];
    long[] offsets = new long[n];
    int[] elementBytes = new int[n];
    strides[0] = target.stridesRef();
    segments[0] = target.segment();
    offsets[0] = target.offset();
    elementBytes[0] = target.dtype().byteSize();
    for (int i = 0; i < operands.length; i++) {
      strides[i + 1] = inputStrides[i];
      segments[i + 1] = operands[i].segment();
      offsets[i + 1] = operands[i].offset();
      elementBytes[i + 1] = operands[i].dtype().byteSize();
    }
    LoopPlan plan = LoopPlan.of(shape, strides, elementBytes);
    double[] floatScalars = scalars.length == 0 ? NO_FLOATS : new double[scalars.length];
    long[] intScalars = scalars.length == 0 ? NO_LONGS : new long[scalars.length];
    for (int i = 0; i < scalars.length; i++) {
      Object s = scalars[i];
      if (s instanceof Boolean b) {
        floatScalars[i] = b ? 1 : 0;
        intScalars[i] = b ? 1 : 0;
      } else if (s instanceof Double || s instanceof Float) {
        double d = ((Number) s).doubleValue();
        floatScalars[i] = d;
        intScalars[i] = (long) d;
      } else {
        long l = ((Number) s).longValue();
        floatScalars[i] = l;
        intScalars[i] = l;
      }
    }
    ElementwiseKernel kernel = op.kernel(entry);
    try {
      Parallel.run(kernel, plan, segments, offsets, floatScalars, intScalars);
    } catch (ArithmeticException e) {
      // Integer division by zero; PyTorch raises "ZeroDivisionError".
      throw new ArithmeticException(op.name() + ": ZeroDivisionError (" + e.getMessage() + ")");
    }
  }

  /** The operand's strides against the broadcast {@code shape}: 0 where it is broadcast. */
  private static long[] alignedStrides(Tensor t, long[] shape) {
    long[] own = t.shapeRef();
    long[] ownStrides = t.stridesRef();
    long[] s = new long[shape.length];
    int lead = shape.length - own.length;
    for (int d = 0; d < own.length; d++) {
      s[lead + d] = own[d] == 1 && shape[lead + d] != 1 ? 0 : ownStrides[d];
    }
    return s;
  }

  /** Overlap checks of an {@code out=} / in-place target, before any write; PyTorch's texts. */
  private static void checkOverlap(String name, Tensor out, Tensor[] inputs) {
    if (hasInternalOverlap(out)) {
      throw new IllegalArgumentException(
          name + ": unsupported operation: more than one element of the written-to tensor refers"
              + " to a single memory location. Please clone() the tensor before performing the"
              + " operation.");
    }
    for (Tensor in : inputs) {
      if (partiallyOverlaps(out, in)) {
        throw new IllegalArgumentException(
            name + ": unsupported operation: some elements of the input tensor and the"
                + " written-to tensor refer to a single memory location. Please clone() the"
                + " tensor before performing the operation.");
      }
    }
  }

  /** The target keeps its shape (Array API) and must accept the result dtype (canCast). */
  private static void checkShapeAndCast(String name, Tensor out, long[] shape, DType result) {
    if (!Arrays.equals(out.shapeRef(), shape)) {
      throw new BroadcastException(
          name + ": output with shape " + Arrays.toString(out.shapeRef())
              + " doesn't match the broadcast shape " + Arrays.toString(shape));
    }
    checkCast(name, result, out);
  }

  private static void checkCast(String name, DType result, Tensor out) {
    if (!Promotion.canCast(result, out.dtype())) {
      throw new PromotionException(
          name + ": result type " + result.scalarTypeName()
              + " can't be cast to the desired output type " + out.dtype().scalarTypeName());
    }
  }

  /** A dimension of stride 0 and size above 1 writes one location twice (PyTorch's test). */
  private static boolean hasInternalOverlap(Tensor t) {
    long[] sh = t.shapeRef();
    long[] st = t.stridesRef();
    for (int d = 0; d < sh.length; d++) {
      if (st[d] == 0 && sh[d] > 1) {
        return true;
      }
    }
    return false;
  }

  /**
   * True when {@code in} shares memory with {@code out} without being exactly the same view:
   * their byte extents intersect and the views differ. Exact aliasing ({@code a.add(b, a)}) is
   * safe for an elementwise op, since each element is read before it is written.
   */
  private static boolean partiallyOverlaps(Tensor out, Tensor in) {
    if (in.numel() == 0 || out.numel() == 0) {
      return false;
    }
    long[] o = extent(out);
    long[] i = extent(in);
    if (o[1] <= i[0] || i[1] <= o[0]) {
      return false;
    }
    return !(in.dtype() == out.dtype()
        && in.offset() == out.offset()
        && Arrays.equals(in.shapeRef(), out.shapeRef())
        && Arrays.equals(in.stridesRef(), out.stridesRef()));
  }

  /** [first byte address, one past the last byte address] the view touches. */
  private static long[] extent(Tensor t) {
    long lo = t.offset();
    long hi = t.offset();
    long[] sh = t.shapeRef();
    long[] st = t.stridesRef();
    for (int d = 0; d < sh.length; d++) {
      long span = (sh[d] - 1) * st[d];
      if (span < 0) {
        lo += span;
      } else {
        hi += span;
      }
    }
    long base = t.segment().address();
    int bs = t.dtype().byteSize();
    return new long[] {base + lo * bs, base + (hi + 1) * bs};
  }

  private static String noKernel(ElementwiseOp op, DType[] dtypes, DType promoted) {
    StringBuilder sb = new StringBuilder();
    sb.append(op.name()).append(" has no kernel for operand dtypes ")
        .append(Arrays.toString(dtypes)).append(" (computing in ").append(promoted).append(")");
    boolean anyIntegral = false;
    boolean anyComplex = false;
    for (int e = 0; e < op.entryCount(); e++) {
      anyIntegral |= op.entryCompute(e).isIntegral(true);
      anyComplex |= op.entryCompute(e).isComplex();
    }
    if (promoted.isIntegral(true) && !anyIntegral) {
      sb.append(": it has no long overload; declare one, or use @Elementwise(promote ="
          + " Promote.INT_TO_FLOAT)");
    } else if (promoted.isComplex() && !anyComplex) {
      sb.append(": its body is not made only of + - * / and comparisons, so it is not lifted to"
          + " complex");
    }
    return sb.toString();
  }
}
