package dev.ufunc4j;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.Promotion;
import dev.ufunc4j.dtype.PromotionException;
import dev.ufunc4j.internal.elements.Convert;
import dev.ufunc4j.kernel.ElementwiseOp;
import dev.ufunc4j.kernel.HalfChunks;
import dev.ufunc4j.kernel.KernelLoops;
import dev.ufunc4j.internal.ErrorTexts;
import dev.ufunc4j.internal.loops.LoopPlan;
import dev.ufunc4j.internal.shape.MemoryOverlap;
import dev.ufunc4j.internal.memory.ScopeMemory;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

/**
 * One application of an op, taken by {@link Dispatch#apply} through its steps in order (PyTorch's
 * {@code TensorIterator}: one object, a fixed sequence of named steps). Each step reads what the
 * steps before it decided and records its own decision in a field.
 *
 * <p><b>The common call.</b> {@link #checkOperands} also notes whether the call is
 * <em>uniform</em>: every operand a dimensioned, contiguous tensor of one dtype and one shape, and
 * no scalars or condition operands. The later steps then take their shortcut — the common dtype is
 * the operands' own ({@code result_type} of equal dtypes), the broadcast shape is their shape, the
 * kernel's operand dtypes come from a shared array, the loop is one contiguous row — and allocate
 * nothing but the result and the kernel's argument arrays. The rules (promotion mode, overlap,
 * output checks, temporaries, the division-by-zero wrap) are written once and apply to both.
 *
 * <p><b>Allocation.</b> The step methods are small and hand everything big (refusal messages, the
 * general path's work, the kernel call) to static methods, so that the JIT inlines the steps into
 * {@link Dispatch#apply} and keeps this object off the heap (escape analysis). That holds while
 * the common call dominates (the {@code tiny_8} benchmark); in a program whose general path is
 * just as hot, C2 compiles some steps on their own and then allocates the object (one per call,
 * 72 bytes; benchmarks/analysis.md).
 */
final class ElementwiseCall {
  /** Operand count up to which the uniform call's unit strides are preallocated. */
  private static final int MAX_UNIFORM_ARITY = 7;


  /** {@code UNIFORM_DTYPES[k][d]}: {@code k} times dtype {@code d}; read-only. */
  private static final DType[][][] UNIFORM_DTYPES =
      new DType[MAX_UNIFORM_ARITY + 1][DType.values().length][];

  private static final double[] NO_FLOATS = {};
  private static final long[] NO_LONGS = {};

  static {
    for (int k = 0; k <= MAX_UNIFORM_ARITY; k++) {
      for (DType d : DType.values()) {
        UNIFORM_DTYPES[k][d.ordinal()] = new DType[k];
        Arrays.fill(UNIFORM_DTYPES[k][d.ordinal()], d);
      }
    }
  }

  // The call's arguments.
  private final ElementwiseOp op;
  private final Tensor out;
  private final Tensor[] inputs;
  private final Object[] scalars;

  // What the steps decide, in step order.
  private boolean uniform;
  private DType common;
  private DType promoted;
  private DType natural;
  private long[] shape;
  private Tensor[] operands;
  private DType[] dtypes;
  private int entry;
  private boolean viaTemporary;
  private boolean scalarInFloat32;
  /** {@code number / tensor} computed as PyTorch's Python operator does: see {@link #run}. */
  private boolean reciprocalTimesNumber;
  private boolean inBlocks;
  private long[] layout;
  private Tensor target;

  ElementwiseCall(ElementwiseOp op, Tensor out, Tensor[] inputs, Object[] scalars) {
    this.op = op;
    this.out = out;
    this.inputs = inputs;
    this.scalars = scalars;
  }

  /**
   * Refuses a null op, the wrong operand counts, null and storage-only (float8) tensors, condition
   * operands that are not BOOL, and scalars that are not Java numbers; notes whether the call is
   * uniform (see the class comment).
   */
  void checkOperands() {
    // The refusals are static methods, so that this step stays small enough to be inlined (see
    // "Allocation" in the class comment).
    if (op == null) {
      throw new IllegalArgumentException("op must not be null");
    }
    int arity = op.arity();
    if (inputs == null || inputs.length != arity) {
      throw wrongCount(op, "tensor operands", op.tensorParams().toString(), inputs);
    }
    int nScalars = op.scalarParams().size();
    if (scalars == null || scalars.length != nScalars) {
      throw wrongCount(op, "scalar arguments", op.scalarParams().toString(), scalars);
    }
    boolean same = nScalars == 0 && arity > 0 && arity <= MAX_UNIFORM_ARITY;
    for (int i = 0; i < arity; i++) {
      Tensor t = inputs[i];
      checkTensor(op, i, t);
      same = same && !op.isConditionOperand(i) && t.dtype() == inputs[0].dtype() && t.ndim() > 0
          && t.isContiguous() && (i == 0 || Arrays.equals(t.shapeRef(), inputs[0].shapeRef()));
    }
    for (int i = 0; i < nScalars; i++) {
      checkScalar(op, i, scalars[i]);
    }
    uniform = same;
  }

  private static IllegalArgumentException wrongCount(
      ElementwiseOp op, String what, String names, Object[] given) {
    int want = what.startsWith("tensor") ? op.arity() : op.scalarParams().size();
    return new IllegalArgumentException(
        op.name() + " takes " + want + " " + what + " " + names + ", got "
            + (given == null ? "null" : Integer.toString(given.length)));
  }

  /** A null tensor, a storage-only (float8) one, or a condition operand that is not BOOL. */
  private static void checkTensor(ElementwiseOp op, int i, Tensor t) {
    if (t == null) {
      throw new IllegalArgumentException(
          op.name() + ": tensor argument '" + op.tensorParams().get(i) + "' must not be null");
    }
    DType d = t.dtype();
    if (d.isFloat8()) {
      throw new IllegalArgumentException(
          op.name() + ": argument '" + op.tensorParams().get(i) + "' has dtype " + d
              + ", which is storage-only: it loads, stores and casts but does no arithmetic;"
              + " convert it first, e.g. .to(DType.FLOAT32)");
    }
    if (op.isConditionOperand(i) && d != DType.BOOL) {
      throw new IllegalArgumentException(
          op.name() + " expected condition to be a boolean tensor, but got a tensor with dtype "
              + d + " (argument '" + op.tensorParams().get(i) + "')");
    }
  }

  /** A {@code @Scalar} value must be a Java boolean or number. */
  private static void checkScalar(ElementwiseOp op, int i, Object s) {
    if (!(s instanceof Boolean || s instanceof Long || s instanceof Integer
        || s instanceof Double || s instanceof Float || s instanceof Short
        || s instanceof Byte)) {
      throw new IllegalArgumentException(
          op.name() + ": scalar argument '" + op.scalarParams().get(i) + "' must be a Java"
              + " boolean, integral or floating number, got "
              + (s == null ? "null" : s.getClass().getName()));
    }
  }

  /**
   * The common dtype over the tensors and the wrapped scalars (PyTorch's {@code result_type};
   * condition operands excluded), then the op's {@link Promote} mode; {@code natural} is what the
   * result holds (BOOL for a predicate).
   */
  void computeTypes() {
    // result_type of dimensioned tensors of one dtype is that dtype
    common = uniform ? inputs[0].dtype() : resultType(op, inputs, scalars);
    promoted =
        op.promote() == Promote.INT_TO_FLOAT && common.isIntegral(true)
            ? Promotion.DEFAULT_FLOAT
            : common;
    natural = op.isPredicate() ? DType.BOOL : promoted;
  }

  private static DType resultType(ElementwiseOp op, Tensor[] inputs, Object[] scalars) {
    Object[] promoting = new Object[inputs.length + scalars.length];
    int n = 0;
    for (int i = 0; i < inputs.length; i++) {
      if (!op.isConditionOperand(i)) {
        promoting[n++] = inputs[i];
      }
    }
    System.arraycopy(scalars, 0, promoting, n, scalars.length);
    n += scalars.length;
    try {
      return Promotion.resultType(n < promoting.length ? Arrays.copyOf(promoting, n) : promoting);
    } catch (PromotionException e) {
      throw new PromotionException(op.name() + ": " + e.getMessage());
    }
  }

  /**
   * A target must not reach one element twice, and may share memory with an input only as exactly
   * the same view ({@link MemoryOverlap}). Checked before the shapes, as PyTorch does.
   */
  void computeMemOverlaps() {
    if (out == null) {
      return;
    }
    if (MemoryOverlap.hasInternalOverlap(out.strided())) {
      throw new IllegalArgumentException(op.name() + ": " + ErrorTexts.INTERNAL_OVERLAP);
    }
    for (int i = 0; i < inputs.length; i++) {
      if (MemoryOverlap.overlap(out.strided(), inputs[i].strided()) == MemoryOverlap.Status.PARTIAL) {
        throw new IllegalArgumentException(
            op.name() + ": " + ErrorTexts.PARTIAL_OVERLAP + " (input '"
                + op.tensorParams().get(i) + "' " + Arrays.toString(inputs[i].shapeRef())
                + " shares memory with the target " + Arrays.toString(out.shapeRef())
                + " without being the same view)");
      }
    }
  }

  /** The broadcast shape of the tensor operands (never modified: it may be an operand's own). */
  void computeShape() {
    shape = uniform ? inputs[0].shapeRef() : broadcastShape(op, inputs);
  }

  /**
   * {@link Broadcast#shapes} of the operands; a refusal names the op and its parameters with their
   * shapes, then gives PyTorch's text ({@code huber: prediction [3] and target [4] do not
   * broadcast: The size of tensor a (3) must match ...}).
   */
  private static long[] broadcastShape(ElementwiseOp op, Tensor[] inputs) {
    long[][] shapes = new long[inputs.length][];
    for (int i = 0; i < inputs.length; i++) {
      shapes[i] = inputs[i].shapeRef();
    }
    try {
      return Broadcast.shapes(shapes);
    } catch (BroadcastException e) {
      StringBuilder sb = new StringBuilder(op.name()).append(": ");
      for (int i = 0; i < shapes.length; i++) {
        if (i > 0) {
          sb.append(i == shapes.length - 1 ? " and " : ", ");
        }
        sb.append(op.tensorParams().get(i)).append(' ').append(Arrays.toString(shapes[i]));
      }
      throw new BroadcastException(sb.append(" do not broadcast: ").append(e.getMessage())
          .toString());
    }
  }

  /**
   * A target keeps its shape (the Array API rule: the broadcast shape must be its shape) and must
   * accept the result dtype (PyTorch's same-kind rule, {@link Promotion#canCast}).
   */
  void checkOutput() {
    if (out == null) {
      return;
    }
    if (!Arrays.equals(out.shapeRef(), shape)) {
      throw new BroadcastException(
          op.name() + ": output with shape " + Arrays.toString(out.shapeRef())
              + " doesn't match the broadcast shape " + Arrays.toString(shape));
    }
    if (!Promotion.canCast(natural, out.dtype())) {
      throw new PromotionException(
          op.name() + ": result type " + natural + " can't be cast to the desired output type "
              + out.dtype());
    }
  }

  /**
   * The kernel's operands and its table entry. Zero-dim operands (wrapped Java numbers included)
   * are PyTorch's CPU scalars: cast to the promoted dtype (float32 for true division of
   * integers), one element each; dimensioned operands keep their dtype, which the kernel converts
   * in registers. Three or more mixed operands without a fused kernel are converted to the common
   * dtype first (the documented slower path). A missing kernel is reported last, as in PyTorch.
   */
  void selectKernel() {
    if (uniform) {
      operands = inputs;
      dtypes = UNIFORM_DTYPES[inputs.length][common.ordinal()];
      entry = op.entryPromotedTo(promoted, dtypes);
    } else {
      operands = inputs.clone();
      dtypes = new DType[operands.length];
      entry = -1;
      if (op.scalarInFloat32() && scalarInFloat32(op, promoted, operands)) {
        // The op runs in float32 into a temporary, which run() rounds once to the 16-bit dtype.
        entry = kernelOperands(op, DType.FLOAT32, DType.FLOAT32, operands, dtypes);
        scalarInFloat32 = entry >= 0;
      }
      if (entry < 0) {
        operands = inputs.clone();
        entry = kernelOperands(op, promoted, common, operands, dtypes);
      }
    }
    if (entry < 0) {
      throw new IllegalArgumentException(noKernel(op, dtypes, promoted));
    }
    reciprocalTimesNumber = !uniform && !scalarInFloat32 && op.scalarInFloat32()
        && builtin(op, "div") && leftNumber(promoted, inputs) != null;
  }

  /** Where the built-in ops are declared: their Python operators' forms apply only to them. */
  private static final String BUILTINS = "dev.ufunc4j.Builtins";

  private static boolean builtin(ElementwiseOp op, String name) {
    return op.name().equals(name) && op.declaringClass().equals(BUILTINS);
  }

  /**
   * The float32 value of the wrapped Java number in the first operand ({@code number op tensor})
   * when the 16-bit common dtype {@code promoted} does not hold it exactly, else null. PyTorch
   * writes {@code number * tensor} as {@code tensor * number} and {@code number / tensor} as {@code
   * tensor.reciprocal() * number} ({@code Tensor.__rmul__}, {@code __rtruediv__}), so its kernels
   * read such a number at float32 precision as they read a second operand; its other ops' left
   * forms ({@code number // tensor}, {@code number - tensor}) round it to the 16-bit dtype first.
   */
  private static Tensor leftNumber(DType promoted, Tensor[] inputs) {
    if ((promoted != DType.FLOAT16 && promoted != DType.BFLOAT16) || inputs.length != 2
        || !inputs[0].isWrappedNumber() || inputs[0].dtype().isComplex()) {
      return null;
    }
    return inexactInFloat32(inputs[0], promoted);
  }

  /**
   * For an op with {@link ElementwiseOp#scalarInFloat32()}: when the common dtype is float16 or
   * bfloat16 and the second operand is a single value (one element, any rank) of another dtype,
   * replaces that operand by its float32 value and returns true — PyTorch's {@code mul}, {@code
   * div} and {@code floor_divide} kernels read such an operand ({@code iter.is_scalar(2)}, its
   * value before the cast to the common dtype) at float32 precision. A value the 16-bit dtype holds
   * exactly gives the same bits either way, so it keeps the usual path (no temporary).
   */
  private static boolean scalarInFloat32(ElementwiseOp op, DType promoted, Tensor[] operands) {
    if ((promoted != DType.FLOAT16 && promoted != DType.BFLOAT16) || operands.length < 2
        || op.isConditionOperand(1)) {
      return false;
    }
    Tensor b = operands[1];
    if (b.numel() == 1 && b.dtype() != promoted && !b.dtype().isComplex()) {
      Tensor inFloat32 = inexactInFloat32(b, promoted);
      operands[1] = inFloat32 != null ? inFloat32 : b;
      return inFloat32 != null;
    }
    // number * tensor is PyTorch's tensor * number (Tensor.__rmul__): the same float32 reading.
    Tensor a = builtin(op, "mul") ? leftNumber(promoted, operands) : null;
    if (a != null) {
      operands[0] = a;
      return true;
    }
    return false;
  }

  /**
   * The single value {@code b} as a one-element float32 tensor when the 16-bit dtype {@code
   * promoted} does not hold it exactly, else null (a value it holds gives the same bits either
   * way, and keeps the direct path).
   */
  private static Tensor inexactInFloat32(Tensor b, DType promoted) {
    Tensor inFloat32 = b.to(DType.FLOAT32); // one correctly rounded conversion, as C++'s cast
    float f = (float) inFloat32.getDouble(new long[b.ndim()]);
    float rounded = promoted == DType.FLOAT16
        ? Float.float16ToFloat(Float.floatToFloat16(f))
        : Float.intBitsToFloat((Short.toUnsignedInt(Convert.floatToBfloat16(f))) << 16);
    return Float.floatToIntBits(rounded) == Float.floatToIntBits(f) ? null : inFloat32;
  }

  /**
   * Casts the zero-dim operands in {@code operands} to {@code promoted} (and, without a fused
   * kernel for three or more mixed operands, every operand to {@code common}), fills {@code
   * dtypes}, and returns the table entry or -1.
   */
  private static int kernelOperands(
      ElementwiseOp op, DType promoted, DType common, Tensor[] operands, DType[] dtypes) {
    for (int i = 0; i < operands.length; i++) {
      if (!op.isConditionOperand(i) && operands[i].ndim() == 0
          && operands[i].dtype() != promoted) {
        operands[i] = operands[i].to(promoted);
      }
      dtypes[i] = operands[i].dtype();
    }
    int entry = op.entryPromotedTo(promoted, dtypes);
    if (entry < 0 && mixed(op, dtypes)) {
      for (int i = 0; i < operands.length; i++) {
        if (!op.isConditionOperand(i)) {
          operands[i] = operands[i].to(common);
          dtypes[i] = common;
        }
      }
      entry = op.entryPromotedTo(promoted, dtypes);
    }
    return entry;
  }

  /**
   * Where the kernel writes: the target itself, or a temporary when the kernel stores another dtype
   * than the target's, or can fail midway (an integral division) while a target must stay
   * untouched. A new result takes the memory order of the inputs (PyTorch's layout propagation);
   * the uniform call's is C-contiguous.
   */
  void allocate() {
    if (reciprocalTimesNumber) {
      return; // run() makes its two results through the ops themselves
    }
    if (scalarInFloat32 && blocksFit(shape, out != null ? out.dtype() : natural, natural)) {
      // No full-size float32 temporary: run() computes block by block through a small one.
      inBlocks = true;
      viaTemporary = true;
      return;
    }
    DType kernelResult = op.entryResult(entry);
    viaTemporary =
        scalarInFloat32
            || kernelResult != (out != null ? out.dtype() : natural)
            || (out != null && op.mayThrow() && op.entryCompute(entry).isIntegral(true));
    if (!viaTemporary) {
      target = out != null ? out : uniform
          ? Tensor.emptyUninitialized(kernelResult, shape)
          : Tensor.emptyStrided(kernelResult, shape, layout());
    } else {
      target = Tensor.emptyStrided(kernelResult, shape, layout());
    }
  }

  /**
   * An op with several results ({@link Dispatch#applyResults}): the steps of {@link
   * Dispatch#apply}, each target checked as {@link #checkOutput} checks one, then one kernel run
   * that writes every component. A target is written directly when it has its component's dtype
   * and the kernel cannot fail midway (an integral division), else through a temporary copied in
   * after the run, so a refused call writes nothing.
   */
  static Tensor[] applyResults(
      ElementwiseOp op, Tensor[] outs, Tensor[] inputs, Object[] scalars) {
    List<String> names = op.resultNames();
    if (names.isEmpty()) {
      throw new IllegalArgumentException(op.name() + " has one result: use Dispatch.apply");
    }
    ElementwiseCall call = new ElementwiseCall(op, null, inputs, scalars);
    call.checkOperands();
    if (outs != null && outs.length != names.size()) {
      throw new IllegalArgumentException(op.name() + " writes " + names.size() + " targets "
          + names + ", got " + outs.length);
    }
    call.computeTypes();
    if (outs != null) {
      checkTargetOverlaps(op, outs, inputs);
    }
    call.computeShape();
    DType[] naturals = new DType[names.size()];
    for (int k = 0; k < naturals.length; k++) {
      naturals[k] = op.isBoolResult(k) ? DType.BOOL : call.promoted;
      if (outs != null) {
        checkTarget(op, names.get(k), outs[k], call.shape, naturals[k]);
      }
    }
    call.selectKernel();
    Tensor[] targets = new Tensor[names.size()];
    boolean[] viaTemporary = new boolean[targets.length];
    boolean mayFail = op.mayThrow() && op.entryCompute(call.entry).isIntegral(true);
    for (int k = 0; k < targets.length; k++) {
      DType stored = op.entryResult(call.entry, k);
      viaTemporary[k] = outs != null && (outs[k].dtype() != stored || mayFail);
      targets[k] = outs != null && !viaTemporary[k]
          ? outs[k]
          : Tensor.emptyStrided(stored, call.shape, call.layout());
    }
    if (targets[0].numel() > 0) {
      try {
        runPlanned(op, call.entry, targets, call.operands, scalars, call.shape);
      } catch (ArithmeticException e) {
        ArithmeticException named =
            new ArithmeticException(op.name() + ": " + ErrorTexts.INTEGER_DIVISION_BY_ZERO);
        named.initCause(e);
        throw named;
      } catch (IllegalStateException | WrongThreadException e) {
        throw scopeError(targets[0], call.operands, e);
      }
    }
    for (int k = 0; k < targets.length; k++) {
      if (viaTemporary[k]) {
        Copies.copyInto(targets[k], outs[k]);
        targets[k] = outs[k];
      }
    }
    return targets;
  }

  /**
   * The targets of an op with several results: none null, none reaching an element twice, none
   * sharing memory with another, and none sharing memory with an input unless it is the same
   * view (in place).
   */
  private static void checkTargetOverlaps(ElementwiseOp op, Tensor[] outs, Tensor[] inputs) {
    List<String> names = op.resultNames();
    for (int k = 0; k < outs.length; k++) {
      if (outs[k] == null) {
        throw new IllegalArgumentException(
            op.name() + ": target for '" + names.get(k) + "' must not be null");
      }
    }
    for (int k = 0; k < outs.length; k++) {
      Tensor out = outs[k];
      if (MemoryOverlap.hasInternalOverlap(out.strided())) {
        throw new IllegalArgumentException(op.name() + ": target for '" + names.get(k) + "': "
            + ErrorTexts.INTERNAL_OVERLAP);
      }
      for (int j = 0; j < k; j++) {
        if (MemoryOverlap.overlap(out.strided(), outs[j].strided()) != MemoryOverlap.Status.NONE) {
          throw new IllegalArgumentException(op.name() + ": the targets for '" + names.get(j)
              + "' and '" + names.get(k) + "' share memory; give each component its own tensor");
        }
      }
      for (int i = 0; i < inputs.length; i++) {
        if (MemoryOverlap.overlap(out.strided(), inputs[i].strided()) == MemoryOverlap.Status.PARTIAL) {
          throw new IllegalArgumentException(
              op.name() + ": " + ErrorTexts.PARTIAL_OVERLAP + " (input '"
                  + op.tensorParams().get(i) + "' " + Arrays.toString(inputs[i].shapeRef())
                  + " shares memory with the target for '" + names.get(k) + "' "
                  + Arrays.toString(out.shapeRef()) + " without being the same view)");
        }
      }
    }
  }

  /** {@link #checkOutput} for the target of one component of an op with several results. */
  private static void checkTarget(
      ElementwiseOp op, String component, Tensor out, long[] shape, DType natural) {
    if (!Arrays.equals(out.shapeRef(), shape)) {
      throw new BroadcastException(
          op.name() + ": target for '" + component + "' with shape "
              + Arrays.toString(out.shapeRef()) + " doesn't match the broadcast shape "
              + Arrays.toString(shape));
    }
    if (!Promotion.canCast(natural, out.dtype())) {
      throw new PromotionException(
          op.name() + ": result type " + natural + " of '" + component + "' can't be cast to the"
              + " desired output type " + out.dtype());
    }
  }

  /**
   * Runs the kernel — one contiguous row for the uniform call, else the loop plan (reordered,
   * coalesced) — in parallel above the grain size, and copies a temporary into place.
   *
   * @return the result: {@code out} when given
   */
  Tensor run() {
    if (reciprocalTimesNumber) {
      // PyTorch's number / tensor (Tensor.__rtruediv__): tensor.reciprocal() * number, the
      // reciprocal rounded to the 16-bit dtype, then mul's float32 reading of the number. Both
      // through the plain op: this is below autograd, which has recorded the division already.
      Tensor reciprocal =
          Dispatch.plain(op, null, new Tensor[] {Tensor.wrap(1.0), inputs[1]}, Dispatch.NO_SCALARS);
      Tensor product = Dispatch.plain(
          Builtins_mul.OP, null, new Tensor[] {reciprocal, inputs[0]}, Dispatch.NO_SCALARS);
      if (out == null) {
        return product;
      }
      Copies.copyInto(product, out);
      return out;
    }
    if (inBlocks) {
      Tensor dest = out != null ? out : Tensor.emptyStrided(natural, shape, layout());
      runRoundedInBlocks(op, entry, operands, scalars, shape, dest);
      return dest;
    }
    if (target.numel() > 0) {
      try {
        if (uniform && target.isContiguous()) {
          runRow(op, entry, target, operands);
        } else {
          runPlanned(op, entry, target, operands, scalars, shape);
        }
      } catch (ArithmeticException e) {
        // An integral kernel divided by zero; PyTorch raises ZeroDivisionError.
        ArithmeticException named =
            new ArithmeticException(op.name() + ": " + ErrorTexts.INTEGER_DIVISION_BY_ZERO);
        named.initCause(e);
        throw named;
      } catch (IllegalStateException | WrongThreadException e) {
        // The JDK refused a closed or another thread's TensorScope segment (before any store:
        // a kernel loads before it stores); say so in TensorScope's words.
        throw scopeError(target, operands, e);
      }
    }
    if (!viaTemporary) {
      return target;
    }
    Tensor dest = out != null ? out : Tensor.emptyStrided(natural, shape, layout());
    if (scalarInFloat32 && target.dtype() != natural && dest.dtype() != natural) {
      // The float32 result is rounded once to the 16-bit dtype, then cast to the target's, as
      // PyTorch stores the op's result before it copies into a wider out=.
      Tensor rounded = Tensor.emptyStrided(natural, shape, layout());
      roundInto(target, rounded);
      target = rounded;
    }
    if (scalarInFloat32 && target.dtype() == DType.FLOAT32) {
      roundInto(target, dest);
    } else {
      Copies.copyInto(target, dest);
    }
    return dest;
  }

  /** Elements per float32 block of {@link #runRoundedInBlocks}: 256 KiB, which stays in cache. */
  private static final long BLOCK = 1 << 16;

  /**
   * Whether the scalar-in-float32 path can run in blocks of rows of the first dimension: the
   * target is the 16-bit dtype itself, the call is larger than one block and one row fits a block.
   */
  private static boolean blocksFit(long[] shape, DType destType, DType natural) {
    if (destType != natural || shape.length == 0) {
      return false;
    }
    long row = 1;
    for (int d = 1; d < shape.length; d++) {
      row *= shape[d];
    }
    return row > 0 && row <= BLOCK && shape[0] * row > BLOCK;
  }

  /**
   * The scalar-in-float32 path without a full-size temporary: rows of the first dimension, a
   * block at a time, are computed in float32 into one small scratch tensor and rounded into {@code
   * dest}. The bits are those of the whole-tensor path (each element is computed and rounded once);
   * a full-size float32 temporary made the call 10 to 80 times slower (fresh pages for every
   * call) where this one costs about one pass more than the 16-bit path.
   */
  private static void runRoundedInBlocks(ElementwiseOp op, int entry, Tensor[] operands,
      Object[] scalars, long[] shape, Tensor dest) {
    long row = 1;
    for (int d = 1; d < shape.length; d++) {
      row *= shape[d];
    }
    long rows = Math.max(1, BLOCK / row);
    long[] blockShape = shape.clone();
    blockShape[0] = Math.min(rows, shape[0]);
    Tensor scratch = Tensor.emptyUninitialized(DType.FLOAT32, blockShape);
    Tensor[] part = new Tensor[operands.length];
    for (long r0 = 0; r0 < shape[0]; r0 += rows) {
      long n = Math.min(rows, shape[0] - r0);
      for (int i = 0; i < operands.length; i++) {
        Tensor t = operands[i];
        // An operand broadcast along the first dimension (missing or of size 1) is whole.
        part[i] = t.ndim() < shape.length || t.size(0) == 1 ? t : t.narrow(0, r0, n);
      }
      long[] partShape = shape.clone();
      partShape[0] = n;
      Tensor block = n == blockShape[0] ? scratch : scratch.narrow(0, 0, n);
      runPlanned(op, entry, block, part, scalars, partShape);
      roundInto(block, dest.narrow(0, r0, n));
    }
  }

  /**
   * Copies a float32 result into a 16-bit float tensor, rounding to nearest even: in chunks through
   * a float array when both are contiguous (C2 vectorizes the conversions, as in {@link
   * HalfChunks}), else element by element ({@link Copies}, the same rounding).
   */
  private static void roundInto(Tensor from, Tensor to) {
    if (!from.isContiguous() || !to.isContiguous()
        || (to.dtype() != DType.FLOAT16 && to.dtype() != DType.BFLOAT16)) {
      Copies.copyInto(from, to);
      return;
    }
    // Through a per-thread float[] chunk: int-indexed array loops, which C2 compiles to vector
    // conversions, where a long-indexed loop over two segments measured 5-10 ns per element.
    float[] chunk = HalfChunks.buffers(1)[0];
    MemorySegment src = from.segment();
    MemorySegment dst = to.segment();
    long s = from.offset() * Float.BYTES;
    long d = to.offset();
    long n = from.numel();
    boolean half = to.dtype() == DType.FLOAT16;
    for (long done = 0; done < n; done += HalfChunks.CHUNK) {
      int len = (int) Math.min(HalfChunks.CHUNK, n - done);
      MemorySegment.copy(src, JAVA_FLOAT_UNALIGNED, s + done * Float.BYTES, chunk, 0, len);
      if (half) {
        HalfChunks.toHalves(chunk, len, dst, d + done);
      } else {
        toBfloat16(chunk, len, dst, d + done);
      }
    }
  }

  /**
   * {@link Convert#floatToBfloat16} of {@code src[j]} into element {@code offset + j}: the same
   * bits (nearest even, NaN as 0x7FC0), without a branch, so that C2 can vectorize the loop.
   */
  private static void toBfloat16(float[] src, int length, MemorySegment dst, long offset) {
    for (int j = 0; j < length; j++) {
      int bits = Float.floatToRawIntBits(src[j]);
      int rounded = (bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16;
      int nan = ((0x7F800000 - (bits & 0x7FFFFFFF)) >> 31); // -1 for NaN, else 0
      short value = (short) (rounded ^ ((rounded ^ 0x7FC0) & nan));
      dst.setAtIndex(JAVA_SHORT_UNALIGNED, offset + j, value);
    }
  }

  private static RuntimeException scopeError(
      Tensor target, Tensor[] operands, RuntimeException e) {
    MemorySegment[] segments = new MemorySegment[operands.length + 1];
    segments[0] = target.segment();
    for (int i = 0; i < operands.length; i++) {
      segments[i + 1] = operands[i].segment();
    }
    return ScopeMemory.explain(segments, e);
  }

  /**
   * The segments a kernel is given: a {@code TensorScope}'s confined segments replaced by
   * unconfined views of the same memory ({@link ScopeMemory#shareable}, which refuses a closed
   * scope's or another thread's segment here, before anything is written). The scope is still
   * checked for every op, at this point; inside the kernel it cannot close (only its own thread,
   * which is running the op, can close it).
   *
   * <p>Why (measured, JDK 25, benchmarks/analysis.md): kernels that see segments of both
   * confined and unconfined sessions are deoptimized again and again. {@code tiny_8} in a scope
   * (an 8-element row, shorter than one 16-lane vector, so the kernel's strided tail runs) took 3
   * to 9 µs per call instead of 0.2: {@code -Xlog:deoptimization} showed the tail loop's C2 code
   * discarded by a {@code profile_predicate} trap and recompiled with the same speculation
   * several times a second, and {@code -XX:-UseProfiledLoopPredicate} made it 0.2 µs. With only
   * unconfined segments reaching kernels, no such trap fires.
   */
  private static MemorySegment[] kernelSegments(MemorySegment[] segments) {
    return ScopeMemory.shareable(segments);
  }

  /**
   * Every operand contiguous, of one shape: one row of {@code numel} elements. Static, as are the
   * other methods the common call reaches that the JIT may not inline (the kernel call makes this
   * one big): a method that receives the call object would make the JIT allocate it.
   */
  private static void runRow(ElementwiseOp op, int entry, Tensor target, Tensor[] operands) {
    int arity = operands.length;
    MemorySegment[] segments = new MemorySegment[arity + 1];
    long[] offsets = new long[arity + 1];
    segments[0] = target.segment();
    offsets[0] = target.offset();
    for (int i = 0; i < arity; i++) {
      segments[i + 1] = operands[i].segment();
      offsets[i + 1] = operands[i].offset();
    }
    segments = kernelSegments(segments);
    KernelLoops.runRow(op, entry, target.numel(), segments, offsets);
  }

  /** Any layout: PyTorch's TensorIterator plan over the broadcast shape. */
  private static void runPlanned(
      ElementwiseOp op,
      int entry,
      Tensor target,
      Tensor[] operands,
      Object[] scalars,
      long[] shape) {
    runPlanned(op, entry, new Tensor[] {target}, operands, scalars, shape);
  }

  /** The same for several targets, which come first in the kernel's operands. */
  private static void runPlanned(
      ElementwiseOp op,
      int entry,
      Tensor[] targets,
      Tensor[] operands,
      Object[] scalars,
      long[] shape) {
    int r = targets.length;
    int n = operands.length + r;
    long[][] strides = new long[n][];
    MemorySegment[] segments = new MemorySegment[n];
    long[] offsets = new long[n];
    int[] elementBytes = new int[n];
    for (int k = 0; k < r; k++) {
      strides[k] = targets[k].stridesRef();
      segments[k] = targets[k].segment();
      offsets[k] = targets[k].offset();
      elementBytes[k] = targets[k].dtype().byteSize();
    }
    for (int i = 0; i < operands.length; i++) {
      strides[i + r] = alignedStrides(operands[i], shape);
      segments[i + r] = operands[i].segment();
      offsets[i + r] = operands[i].offset();
      elementBytes[i + r] = operands[i].dtype().byteSize();
    }
    segments = kernelSegments(segments);
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
    KernelLoops.runPlanned(
        op, entry, shape, strides, elementBytes, segments, offsets, floatScalars, intScalars);
  }

  /** The strides of a new result that follow the inputs' memory order (computed once). */
  private long[] layout() {
    if (layout == null) {
      layout = outputLayout(operands, shape);
    }
    return layout;
  }

  private static long[] outputLayout(Tensor[] operands, long[] shape) {
    long[][] inputStrides = new long[operands.length][];
    for (int i = 0; i < operands.length; i++) {
      inputStrides[i] = alignedStrides(operands[i], shape);
    }
    return LoopPlan.outputStrides(shape, inputStrides);
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

  /** True when the promoting operands do not all have one dtype. */
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

  /** True when a promoting operand's dtype is not among {@code allowed}. */
  private static boolean outside(ElementwiseOp op, DType[] dtypes, List<DType> allowed) {
    for (int i = 0; i < dtypes.length; i++) {
      if (!op.isConditionOperand(i) && !allowed.contains(dtypes[i])) {
        return true;
      }
    }
    return false;
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
    List<DType> allowed = op.dtypes();
    if (!allowed.isEmpty() && (!allowed.contains(promoted) || outside(op, dtypes, allowed))) {
      sb.append(": it is generated for ").append(allowed)
          .append(" only (@Elementwise(dtypes) on its declaration); convert the operands to one of"
              + " those with .to(dtype), or add the dtype there");
    } else if (promoted.isIntegral(true) && !anyIntegral) {
      sb.append(": it has no long overload; declare one, or use @Elementwise(promote ="
          + " Promote.INT_TO_FLOAT)");
    } else if (promoted.isComplex() && !anyComplex) {
      sb.append(": its body is not made only of + - * / and comparisons, so it is not lifted to"
          + " complex");
    }
    return sb.toString();
  }
}
