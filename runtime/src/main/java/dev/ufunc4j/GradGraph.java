package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.Copies;
import dev.ufunc4j.internal.Shapes;
import dev.ufunc4j.kernel.Dispatch;
import dev.ufunc4j.kernel.ElementwiseOp;
import java.util.Arrays;
import java.util.function.UnaryOperator;

/**
 * Records the autograd graph as ops run (PyTorch's autograd, docs/gradients.md): the per-tensor
 * state ({@link Meta}, {@link Version}), the thread's grad mode, and one recording method per
 * kind of operation that the runtime's entry points call when an operand requires gradients —
 * elementwise ops ({@link Dispatch}), reductions, {@code sumToShape}, views, copies and casts
 * ({@link Tensor}). The recorded {@link GradNode}s are here too; {@link GradEngine} runs them.
 *
 * <p>A recording method runs the op itself with recording off (so the op's internal steps, a
 * cast or a view, leave no nodes) and then gives the result its node. Nothing is recorded while
 * {@link Autograd#noGrad()} is open, nor when no operand requires gradients: then the entry
 * points do not call in here at all ({@link #recording}).
 */
final class GradGraph {

  private GradGraph() {}

  // ============================================================================================
  // Grad mode, per thread
  // ============================================================================================

  /** How many {@link Autograd#noGrad()} regions are open on this thread. */
  private static final ThreadLocal<int[]> NO_GRAD_DEPTH = ThreadLocal.withInitial(() -> new int[1]);

  static boolean enabled() {
    return NO_GRAD_DEPTH.get()[0] == 0;
  }

  /** Opens a region that records nothing; {@link NoGrad#close} ends it. */
  static Autograd.NoGrad noGrad() {
    int[] depth = NO_GRAD_DEPTH.get();
    depth[0]++;
    return new Autograd.NoGrad(depth);
  }

  // ============================================================================================
  // Per-tensor state
  // ============================================================================================

  /** The autograd state of one tensor; absent (null) until it requires or receives gradients. */
  static final class Meta {
    /** A leaf the user marked with {@link Tensor#requiresGrad(boolean)}. */
    boolean leafRequiresGrad;
    /** The accumulated gradient of a leaf ({@link Tensor#grad()}). */
    Tensor grad;
    /** The operation that made this tensor; null for a leaf. */
    GradNode gradFn;
    /** The leaf's accumulator node, made on first use. */
    GradNode.Accumulate accumulator;
  }

  /**
   * PyTorch's version counter: shared by all views of one storage, raised by every write into
   * an existing tensor (in-place and {@code out=} ops, setters), so that a saved tensor that was
   * written after it was saved is detected at backward ({@link GradNode.Saved}).
   */
  static final class Version {
    private int value;

    int value() {
      return value;
    }

    void bump() {
      value++;
    }
  }

  static boolean requiresGrad(Tensor t) {
    Meta m = t.autograd();
    return m != null && (m.leafRequiresGrad || m.gradFn != null);
  }

  static boolean isLeafRequiringGrad(Tensor t) {
    Meta m = t.autograd();
    return m != null && m.leafRequiresGrad && m.gradFn == null;
  }

  /** The node the gradient of {@code t} flows to, or null when {@code t} requires none. */
  static GradNode edge(Tensor t) {
    Meta m = t.autograd();
    if (m == null) {
      return null;
    }
    if (m.gradFn != null) {
      return m.gradFn;
    }
    if (m.leafRequiresGrad) {
      if (m.accumulator == null) {
        m.accumulator = new GradNode.Accumulate(t);
      }
      return m.accumulator;
    }
    return null;
  }

  /** {@link Tensor#requiresGrad(boolean)}. */
  static void setRequiresGrad(Tensor t, boolean requiresGrad) {
    Meta m = t.autograd();
    if (m != null && m.gradFn != null) {
      throw new IllegalStateException(
          "you can only change requires_grad flags of leaf tensors; this tensor was computed by "
              + m.gradFn.name() + (requiresGrad ? "" : ". To use a computed tensor where no"
                  + " gradient should flow, take tensor.detach()"));
    }
    if (requiresGrad) {
      DType d = t.dtype();
      if (!d.isFloatingPoint() || d.isFloat8()) {
        throw new IllegalArgumentException(
            "only Tensors of floating point dtype can require gradients; this one is "
                + d.torchName() + (d.isComplex() ? " (complex gradients are not supported)"
                    : d.isFloat8() ? " (storage-only)" : ""));
      }
      t.autogradMeta().leafRequiresGrad = true;
    } else if (m != null) {
      m.leafRequiresGrad = false;
    }
  }

  /** {@link Tensor#setGrad(Tensor)}: null clears; otherwise the tensor's shape and dtype. */
  static void setGrad(Tensor t, Tensor grad) {
    if (grad != null) {
      if (!Arrays.equals(grad.shapeRef(), t.shapeRef())) {
        throw new IllegalArgumentException(
            "assigned grad has shape " + Arrays.toString(grad.shapeRef())
                + ", but the tensor has shape " + Arrays.toString(t.shapeRef()));
      }
      if (grad.dtype() != t.dtype()) {
        throw new IllegalArgumentException(
            "assigned grad has dtype " + grad.dtype().torchName() + ", but the tensor has dtype "
                + t.dtype().torchName());
      }
    }
    if (grad != null || t.autograd() != null) {
      t.autogradMeta().grad = grad;
    }
  }

  /**
   * Whether an op with these operands (and {@code out} target, which may be null) is recorded or
   * checked: grad mode is on and some operand requires gradients. Cheap when none does.
   */
  static boolean recording(Tensor out, Tensor[] inputs) {
    boolean any = out != null && out.autograd() != null;
    if (inputs != null) {
      for (Tensor t : inputs) {
        any |= t != null && t.autograd() != null;
      }
    }
    if (!any || !enabled()) {
      return false;
    }
    if (out != null && requiresGrad(out)) {
      return true;
    }
    if (inputs != null) {
      for (Tensor t : inputs) {
        if (t != null && requiresGrad(t)) {
          return true;
        }
      }
    }
    return false;
  }

  /** {@link #recording} for one input. */
  static boolean recording(Tensor x) {
    return x != null && x.autograd() != null && enabled() && requiresGrad(x);
  }

  private static IllegalArgumentException outRefused(String name) {
    return new IllegalArgumentException(
        name + "(): functions with out=... arguments don't support automatic differentiation,"
            + " but one of the arguments requires grad.");
  }

  /**
   * A write into {@code t} through a setter: refused on a tensor that requires gradients while
   * grad mode is on (PyTorch's in-place rule); the version is raised in every case.
   */
  static void beforeWrite(Tensor t, String method) {
    if (t.autograd() != null && enabled() && requiresGrad(t)) {
      throw new IllegalStateException(method + ": " + (isLeafRequiringGrad(t)
          ? "a leaf tensor that requires grad is being used in an in-place operation;"
              + " write it inside Autograd.noGrad()"
          : "writing into a tensor that is part of the autograd graph is not supported;"
              + " compute a new tensor instead"));
    }
    t.bumpVersion();
  }

  // ============================================================================================
  // Elementwise ops
  // ============================================================================================

  /**
   * {@link Dispatch#apply} with recording: checks the in-place and {@code out=} rules before
   * anything is written, saves what the backward will read, runs the op, and gives the result its
   * node. An in-place op on a tensor the backward reads saves a copy of the old value first.
   */
  static Tensor elementwise(ElementwiseOp op, Tensor out, Tensor[] inputs, Object[] scalars) {
    int n = inputs.length;
    boolean inPlace = false;
    if (out != null) {
      for (Tensor t : inputs) {
        inPlace |= t == out;
      }
      if (!inPlace) {
        throw outRefused(op.name());
      }
      if (isLeafRequiringGrad(out)) {
        throw new IllegalStateException(
            op.name() + ": a leaf tensor that requires grad is being used in an in-place"
                + " operation; update it inside Autograd.noGrad(), or use the out-of-place op");
      }
      Meta m = out.autograd();
      if (m != null && m.gradFn instanceof ViewNode v && v.sharesStorage) {
        throw new IllegalStateException(
            op.name() + ": in-place operations on a view of a tensor that requires grad are not"
                + " supported (the base would not see the write); use the out-of-place op");
      }
    }
    if (op == null || inputs.length != op.arity()) {
      // The dispatcher reports the misuse, with its message.
      try (var _ = noGrad()) {
        return Dispatch.apply(op, out, inputs, scalars);
      }
    }
    GradNode[] edges = new GradNode[n];
    boolean any = false;
    for (int i = 0; i < n; i++) {
      edges[i] = inputs[i] == null ? null : edge(inputs[i]);
      any |= edges[i] != null;
    }
    // What the backward ops read, saved before the op runs (an in-place target as a copy).
    GradNode.Saved[] saved = new GradNode.Saved[n];
    if (any) {
      for (int i = 0; i < n; i++) {
        if (edges[i] == null || op.gradient(i) != ElementwiseOp.Gradient.OP) {
          continue;
        }
        ElementwiseOp backward = op.backward(i);
        for (String param : backward.tensorParams().subList(1, backward.arity())) {
          int k = op.tensorParams().indexOf(param);
          if (saved[k] == null && inputs[k] != null) {
            Tensor value = inputs[k];
            if (value == out) {
              try (var _ = noGrad()) {
                value = value.copy();
              }
            }
            saved[k] = new GradNode.Saved(value);
          }
        }
      }
    }
    long[][] shapes = new long[n][];
    DType[] dtypes = new DType[n];
    for (int i = 0; i < n; i++) {
      if (inputs[i] != null) {
        shapes[i] = inputs[i].shape();
        dtypes[i] = inputs[i].dtype();
      }
    }
    Tensor result;
    try (var _ = noGrad()) {
      result = Dispatch.apply(op, out, inputs, scalars);
    }
    if (!any || !result.dtype().isFloatingPoint()) {
      return result; // predicates and integral results carry no gradient, as in PyTorch
    }
    result.autogradMeta().gradFn =
        new ElementwiseNode(op, edges, saved, scalars.clone(), shapes, dtypes);
    return result;
  }

  /** The backward of one elementwise op: its generated backward ops, then {@link #fit}. */
  static final class ElementwiseNode extends GradNode {
    private final ElementwiseOp op;
    private final GradNode.Saved[] saved;
    private final Object[] scalars;
    private final long[][] shapes;
    private final DType[] dtypes;

    ElementwiseNode(ElementwiseOp op, GradNode[] next, GradNode.Saved[] saved, Object[] scalars,
        long[][] shapes, DType[] dtypes) {
      super(next);
      this.op = op;
      this.saved = saved;
      this.scalars = scalars;
      this.shapes = shapes;
      this.dtypes = dtypes;
    }

    @Override
    String name() {
      return op.name();
    }

    @Override
    Tensor[] apply(Tensor grad) {
      Tensor[] grads = new Tensor[next.length];
      for (int i = 0; i < next.length; i++) {
        if (next[i] == null) {
          continue;
        }
        Tensor g = switch (op.gradient(i)) {
          case IDENTITY -> grad;
          case ZERO -> Tensor.zeros(dtypes[i], shapes[i]);
          case OP -> {
            ElementwiseOp backward = op.backward(i);
            Tensor[] operands = new Tensor[backward.arity()];
            operands[0] = grad;
            for (int k = 1; k < operands.length; k++) {
              operands[k] = saved[op.tensorParams().indexOf(backward.tensorParams().get(k))]
                  .get(this);
            }
            yield Dispatch.apply(backward, null, operands, scalars);
          }
          case NONE -> throw new UnsupportedOperationException(
              "the derivative of " + op.name() + " with respect to '" + op.tensorParams().get(i)
                  + "' is not implemented (the op has no floating body)");
        };
        grads[i] = fit(g, shapes[i], dtypes[i]);
      }
      return grads;
    }
  }

  /**
   * A gradient made the shape and dtype of its input: summed over the dims broadcasting added or
   * stretched ({@code sumToShape}), then cast, as PyTorch's engine does.
   */
  static Tensor fit(Tensor g, long[] shape, DType dtype) {
    Tensor r = Arrays.equals(g.shapeRef(), shape) ? g : g.sumToShape(shape);
    return r.dtype() == dtype ? r : r.to(dtype);
  }

  // ============================================================================================
  // Reductions and sumToShape
  // ============================================================================================

  enum Reduction {
    SUM,
    MEAN,
    AMAX,
    AMIN
  }

  /** A reduction of {@code x} with recording ({@link Reductions} calls it). */
  static Tensor reduction(Reduction kind, Tensor x, int[] dims, boolean keepDim, Tensor out) {
    String name = kind.name().toLowerCase(java.util.Locale.ROOT);
    if (out != null) {
      throw outRefused(name);
    }
    Tensor result;
    try (var _ = noGrad()) {
      result = switch (kind) {
        case SUM -> Reductions.sum(x, dims, keepDim, null);
        case MEAN -> Reductions.mean(x, dims, keepDim, null);
        case AMAX -> Reductions.amax(x, dims, keepDim, null);
        case AMIN -> Reductions.amin(x, dims, keepDim, null);
      };
    }
    boolean[] reduced = new boolean[x.ndim()];
    if (dims == null || dims.length == 0) {
      Arrays.fill(reduced, true);
    } else {
      for (int d : dims) {
        reduced[Shapes.wrapDim(d, x.ndim())] = true;
      }
    }
    long[] kept = x.shape();
    for (int d = 0; d < kept.length; d++) {
      if (reduced[d]) {
        kept[d] = 1;
      }
    }
    boolean extreme = kind == Reduction.AMAX || kind == Reduction.AMIN;
    result.autogradMeta().gradFn = new ReductionNode(kind, edge(x), x.shape(), x.dtype(), kept,
        reduced, extreme ? new GradNode.Saved(x) : null,
        extreme ? new GradNode.Saved(result) : null);
    return result;
  }

  /**
   * The backward of sum, mean, amax and amin: the gradient with the reduced dims restored, then
   * expanded to the input (divided by the count for mean; for amax/amin, shared evenly among the
   * elements equal to the result, as PyTorch's {@code scale_grad_by_count}).
   */
  static final class ReductionNode extends GradNode {
    private final Reduction kind;
    private final long[] shape;
    private final DType dtype;
    private final long[] kept;
    private final boolean[] reduced;
    private final GradNode.Saved input;
    private final GradNode.Saved result;

    ReductionNode(Reduction kind, GradNode next, long[] shape, DType dtype, long[] kept,
        boolean[] reduced, GradNode.Saved input, GradNode.Saved result) {
      super(new GradNode[] {next});
      this.kind = kind;
      this.shape = shape;
      this.dtype = dtype;
      this.kept = kept;
      this.reduced = reduced;
      this.input = input;
      this.result = result;
    }

    @Override
    String name() {
      return kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    Tensor[] apply(Tensor grad) {
      Tensor g = grad.reshape(kept);
      Tensor r = switch (kind) {
        case SUM -> g.expand(shape);
        case MEAN -> {
          long count = 1;
          for (int d = 0; d < shape.length; d++) {
            if (reduced[d]) {
              count *= shape[d];
            }
          }
          yield g.div(count).expand(shape);
        }
        case AMAX, AMIN -> {
          Tensor x = input.get(this);
          Tensor mask = x.eq(result.get(this).reshape(kept));
          int[] dims = new int[shape.length];
          int n = 0;
          for (int d = 0; d < shape.length; d++) {
            if (reduced[d]) {
              dims[n++] = d;
            }
          }
          Tensor count = n == 0 ? mask : mask.sum(Arrays.copyOf(dims, n), true);
          yield g.div(count).mul(mask);
        }
      };
      return new Tensor[] {fit(r, shape, dtype)};
    }
  }

  /** {@link Tensor#sumToShape} with recording; its backward expands the gradient back. */
  static Tensor sumToShape(Tensor x, long[] shape) {
    Tensor result;
    try (var _ = noGrad()) {
      result = Reductions.sumToShape(x, shape);
    }
    if (result == x) {
      return x;
    }
    long[] from = x.shape();
    return record(x, result, new ViewNode("sumToShape", edge(x), g -> g.expand(from), false));
  }

  // ============================================================================================
  // Views, copies and casts
  // ============================================================================================

  /**
   * Gives {@code result}, a view of {@code input} ({@code expand}, {@code permute}, ...), its
   * node when {@code input} requires gradients; {@code backward} maps the view's gradient to the
   * input's. Returns {@code result}.
   */
  static Tensor view(Tensor input, Tensor result, String name, UnaryOperator<Tensor> backward) {
    if (!recording(input)) {
      return result;
    }
    return record(input, result, new ViewNode(name, edge(input), backward, true));
  }

  /** {@link #view} for a result with storage of its own ({@code copy}, {@code to}). */
  static Tensor copied(Tensor input, Tensor result, String name, UnaryOperator<Tensor> backward) {
    if (!recording(input) || !result.dtype().isFloatingPoint()) {
      return result;
    }
    return record(input, result, new ViewNode(name, edge(input), backward, false));
  }

  private static Tensor record(Tensor input, Tensor result, GradNode node) {
    result.autogradMeta().gradFn = node;
    return result;
  }

  /**
   * The backward of a view, a copy or a cast: one function of the gradient ({@code g ->
   * g.sumToShape(shape)} for {@code expand}, the inverse permutation for {@code permute}, ...).
   */
  static final class ViewNode extends GradNode {
    private final String name;
    private final UnaryOperator<Tensor> backward;
    /** True when the result shares the input's storage (in-place ops on it are refused). */
    final boolean sharesStorage;

    ViewNode(String name, GradNode next, UnaryOperator<Tensor> backward, boolean sharesStorage) {
      super(new GradNode[] {next});
      this.name = name;
      this.backward = backward;
      this.sharesStorage = sharesStorage;
    }

    @Override
    String name() {
      return name;
    }

    @Override
    Tensor[] apply(Tensor grad) {
      return new Tensor[] {backward.apply(grad)};
    }
  }

  /**
   * The gradient of a slice-like view ({@code slice}, {@code narrow}, {@code select}): zeros of
   * the input's shape with the gradient written where the view was.
   */
  static Tensor scatter(Tensor grad, long[] shape, UnaryOperator<Tensor> region) {
    Tensor z = Tensor.zeros(grad.dtype(), shape);
    Copies.copyInto(grad, region.apply(z));
    return z;
  }
}
