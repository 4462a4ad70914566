package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.shape.MemoryOverlap;
import dev.ufunc4j.internal.shape.Shapes;
import dev.ufunc4j.kernel.ElementwiseOp;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

/**
 * Records the autograd graph as ops run (PyTorch's autograd, docs/gradients.md): the per-tensor
 * state ({@link Meta}, {@link Version}, {@link ViewOrigin}), the thread's grad mode, and one
 * recording method per kind of operation that the runtime's entry points call when an operand
 * requires gradients — elementwise ops ({@link Dispatch}), reductions, {@code sumToShape}, views,
 * copies and casts ({@link Tensor}). The recorded {@link GradNode}s are here too; {@link GradEngine} runs them.
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
    return new Autograd.NoGrad(depth, Thread.currentThread());
  }

  /**
   * Runs {@code step} with recording on, whatever this thread's mode: remaking a view's history
   * from its base ({@link #refresh}) records even when the question came from inside {@link
   * #noGrad()} or from the engine, as PyTorch's {@code AutoGradMode(true)} there.
   */
  private static Tensor withGrad(Tensor base, UnaryOperator<Tensor> step) {
    int[] depth = NO_GRAD_DEPTH.get();
    int saved = depth[0];
    depth[0] = 0;
    try {
      return step.apply(base);
    } finally {
      depth[0] = saved;
    }
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
    // Atomic: writes through two views of one storage may run on two threads (PyTorch's counter
    // is atomic too); a lost increment would hide a write from the saved-tensor check.
    private final AtomicInteger value = new AtomicInteger();

    int value() {
      return value.get();
    }

    void bump() {
      value.incrementAndGet();
    }
  }

  /**
   * Where a view came from (PyTorch's {@code ViewInfo}): the tensor that owns the storage (a view
   * of a view has the first one's base) and how to remake the view from it. Every view method
   * gives its result one, whether or not anything requires gradients, because an in-place op on
   * the base, or on another view of it, may later put the view's elements in a graph.
   *
   * <p>When the storage's version moved since the view's history was taken, the history is taken
   * again ({@link #refresh}): {@link #replay} runs on the base with recording on, and the view
   * gets the node that run gives, so gradients flow through the base's current history. An
   * in-place op through the view ({@link #elementwise}) gives the base a {@link CopySlicesNode}.
   */
  static final class ViewOrigin {
    final Tensor base;
    /** The view methods from {@link #base} to the view, in order; run on any tensor shaped as it. */
    final UnaryOperator<Tensor> replay;
    /**
     * Made inside {@link Autograd#noGrad()} from a tensor that required gradients: a later
     * in-place change of the base cannot be attributed (PyTorch's {@code CreationMeta.NO_GRAD_MODE}).
     */
    final boolean madeWithoutGrad;
    /** The storage's version when the view's history was last taken; written under this. */
    private volatile int seen;

    ViewOrigin(Tensor base, UnaryOperator<Tensor> replay, boolean madeWithoutGrad, int seen) {
      this.base = base;
      this.replay = replay;
      this.madeWithoutGrad = madeWithoutGrad;
      this.seen = seen;
    }
  }

  /**
   * The autograd state of {@code t} (null when it has none), with a view's history first taken
   * again from its base if the storage was written since ({@link ViewOrigin}). Every question
   * about a tensor's place in the graph goes through here.
   */
  static Meta meta(Tensor t) {
    ViewOrigin o = t.viewOrigin();
    if (o != null && o.seen != t.versionCounter().value()) {
      refresh(t, o);
    }
    return t.autograd();
  }

  /** PyTorch's {@code VariableHooks::grad_fn} for a view whose storage was written. */
  private static void refresh(Tensor view, ViewOrigin o) {
    Meta m = view.autograd();
    if ((m == null || m.gradFn == null) && !requiresGrad(o.base)) {
      return; // nothing to take: neither the view nor its base is in a graph
    }
    synchronized (o) {
      int now = view.versionCounter().value();
      if (o.seen == now) {
        return;
      }
      if (o.madeWithoutGrad) {
        throw new IllegalStateException(
            "A view was created in no_grad mode and its base or another view of its base has"
                + " been modified inplace with grad mode enabled. Given that this use case is"
                + " ambiguous and error-prone, it is forbidden. You can clarify your code by moving"
                + " both the view and the inplace either both inside the Autograd.noGrad() block"
                + " (if you don't want the inplace to be tracked) or both outside (if you want the"
                + " inplace to be tracked).");
      }
      Meta remade = withGrad(o.base, o.replay).autograd();
      GradNode fn = remade == null ? null : remade.gradFn;
      if (fn != null || m != null) {
        view.autogradMeta().gradFn = fn;
      }
      o.seen = now;
    }
  }

  static boolean requiresGrad(Tensor t) {
    Meta m = meta(t);
    return m != null && (m.leafRequiresGrad || m.gradFn != null);
  }

  static boolean isLeafRequiringGrad(Tensor t) {
    Meta m = meta(t);
    return m != null && m.leafRequiresGrad && m.gradFn == null;
  }

  /** The node the gradient of {@code t} flows to, or null when {@code t} requires none. */
  static GradNode edge(Tensor t) {
    Meta m = meta(t);
    if (m == null) {
      return null;
    }
    if (m.gradFn != null) {
      return m.gradFn;
    }
    if (m.leafRequiresGrad) {
      synchronized (m) { // one accumulator per leaf, also when threads race to make it
        if (m.accumulator == null) {
          m.accumulator = new GradNode.Accumulate(t);
        }
        return m.accumulator;
      }
    }
    return null;
  }

  /**
   * Whether a write into {@code t} changes a graph: {@code t} requires gradients, or is a view of
   * a base that does (a view made inside {@link #noGrad()} does not require them itself).
   */
  private static boolean writesIntoGraph(Tensor t) {
    ViewOrigin o = t.viewOrigin();
    return requiresGrad(t) || o != null && requiresGrad(o.base);
  }

  /** Whether {@code t} may be in a graph: it has autograd state, or a base that may have. */
  private static boolean tracked(Tensor t) {
    return t != null && (t.autograd() != null || t.viewOrigin() != null);
  }

  /** {@link Tensor#requiresGrad(boolean)}. */
  static void setRequiresGrad(Tensor t, boolean requiresGrad) {
    Meta m = meta(t);
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

  /**
   * {@link Tensor#setGrad(Tensor)}: null clears; otherwise the tensor's shape and dtype, in memory
   * of its own (backward adds into it in place).
   */
  static void setGrad(Tensor t, Tensor grad) {
    if (grad != null) {
      if (grad == t) {
        throw new IllegalArgumentException("can't assign Variable as its own grad");
      }
      if (MemoryOverlap.overlap(t.strided(), grad.strided()) != MemoryOverlap.Status.NONE) {
        throw new IllegalArgumentException(
            "assigned grad shares memory with the tensor (a view or detach() of it): backward"
                + " adds into grad() in place and would overwrite the tensor; assign a copy()");
      }
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
      Meta m = t.autogradMeta();
      synchronized (m) { // not in the middle of a backward's accumulate on another thread
        m.grad = grad;
      }
    }
  }

  /**
   * Whether an op with these operands (and {@code out} target, which may be null) is recorded or
   * checked: grad mode is on and some operand requires gradients, or the target is in a graph.
   * Cheap when nothing has autograd state.
   */
  static boolean recording(Tensor out, Tensor[] inputs) {
    return recordsWriteInto(out) || recordingInputs(inputs);
  }

  /**
   * {@link #recording(Tensor, Tensor[])} for an op with several results: {@code outs} holds one
   * target per result (any may be null), or is null for new results.
   */
  static boolean recordingAny(Tensor[] outs, Tensor[] inputs) {
    if (outs != null) {
      for (Tensor out : outs) {
        if (recordsWriteInto(out)) {
          return true;
        }
      }
    }
    return recordingInputs(inputs);
  }

  /** Whether grad mode is on and one of {@code inputs} (null, or holding nulls) requires grad. */
  private static boolean recordingInputs(Tensor[] inputs) {
    if (inputs == null) {
      return false;
    }
    boolean any = false;
    for (Tensor t : inputs) {
      any |= tracked(t);
    }
    if (!any || !enabled()) {
      return false;
    }
    for (Tensor t : inputs) {
      if (t != null && requiresGrad(t)) {
        return true;
      }
    }
    return false;
  }

  /** Whether a write into {@code t} would change a graph: grad mode on, {@code t} in one. */
  private static boolean recordsWriteInto(Tensor t) {
    return tracked(t) && enabled() && writesIntoGraph(t);
  }

  /** {@link #recording} for one input. */
  static boolean recording(Tensor x) {
    return tracked(x) && enabled() && requiresGrad(x);
  }

  static IllegalArgumentException outRefused(String name) {
    return new IllegalArgumentException(
        name + "(): functions with out=... arguments don't support automatic differentiation,"
            + " but one of the arguments requires grad.");
  }

  /**
   * A write into {@code t} through a setter: refused on a tensor that requires gradients while
   * grad mode is on (PyTorch's in-place rule); the version is raised in every case.
   */
  static void beforeWrite(Tensor t, String method) {
    if (recordsWriteInto(t)) {
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
      checkInPlaceThroughView(op.name(), out);
    }
    if (op == null || inputs.length != op.arity()) {
      // The dispatcher reports the misuse, with its message.
      try (var _ = noGrad()) {
        return Dispatch.plain(op, out, inputs, scalars);
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
    ViewOrigin through = out == null ? null : out.viewOrigin();
    GradNode baseEdge = through == null ? null : edge(through.base); // its history before the write
    Tensor result;
    try (var _ = noGrad()) {
      result = Dispatch.plain(op, out, inputs, scalars);
    }
    if (!any || !result.dtype().isFloatingPoint()) {
      return result; // predicates and integral results carry no gradient, as in PyTorch
    }
    ElementwiseNode node = new ElementwiseNode(op, edges, saved, scalars.clone(), shapes, dtypes);
    if (through == null) {
      result.autogradMeta().gradFn = node; // PyTorch's rebase_history; views follow (refresh)
      return result;
    }
    // Written through a view: the write becomes part of the base's history (PyTorch's
    // CopySlices), and the view, like every other view of the base, takes its history from there.
    boolean[] self = new boolean[n];
    for (int i = 0; i < n; i++) {
      self[i] = inputs[i] == out;
    }
    through.base.autogradMeta().gradFn = new CopySlicesNode(through, baseEdge, node, self);
    synchronized (through) {
      through.seen = out.versionCounter().value() - 1; // taken again at the next question
    }
    return result;
  }

  /**
   * The refusals of an in-place op through a view of a base in a graph, PyTorch's: a view of a
   * leaf that requires grad, and a view made inside {@link #noGrad()}.
   */
  private static void checkInPlaceThroughView(String name, Tensor out) {
    ViewOrigin o = out.viewOrigin();
    if (o == null || !requiresGrad(o.base)) {
      return; // nothing of the base to rewrite: the op's node becomes the base's whole history
    }
    if (isLeafRequiringGrad(o.base)) {
      throw new IllegalStateException(
          name + ": a view of a leaf Variable that requires grad is being used in an in-place"
              + " operation; update the leaf inside Autograd.noGrad(), or use the out-of-place op");
    }
    if (o.madeWithoutGrad) {
      throw new IllegalStateException(
          name + ": A view was created in no_grad mode and is being modified inplace with grad"
              + " mode enabled. Given that this use case is ambiguous and error-prone, it is"
              + " forbidden. You can clarify your code by moving both the view and the inplace"
              + " either both inside the Autograd.noGrad() block (if you don't want the inplace to"
              + " be tracked) or both outside (if you want the inplace to be tracked).");
    }
  }

  /**
   * The base's history after an in-place op through one of its views (PyTorch's {@code
   * CopySlices}): the base's gradient passes unchanged outside the view's elements, and inside
   * them goes through the op's node {@code fn}: its gradient for the view's old value (the
   * operands that were the view itself) goes back into those elements, towards the base's old
   * history; its gradients for the other operands go to their own histories.
   */
  static final class CopySlicesNode extends GradNode {
    private final Tensor base;
    private final UnaryOperator<Tensor> region;
    private final ElementwiseNode fn;
    private final boolean[] self;

    CopySlicesNode(ViewOrigin through, GradNode baseEdge, ElementwiseNode fn, boolean[] self) {
      super(edges(baseEdge, fn, self));
      this.base = through.base;
      this.region = through.replay;
      this.fn = fn;
      this.self = self;
    }

    /** The base's old history, then {@code fn}'s edges of the operands other than the view. */
    private static GradNode[] edges(GradNode baseEdge, ElementwiseNode fn, boolean[] self) {
      GradNode[] next = new GradNode[1 + fn.next.length];
      next[0] = baseEdge;
      int k = 1;
      for (int i = 0; i < self.length; i++) {
        if (!self[i]) {
          next[k++] = fn.next[i];
        }
      }
      return Arrays.copyOf(next, k);
    }

    @Override
    String name() {
      return "CopySlices";
    }

    @Override
    Tensor[] apply(Tensor grad) {
      // The gradient laid out as the base is in its storage, so that the view methods that made
      // the view (an asStrided among them) find the same elements in it.
      Tensor storage = Tensor.zeros(grad.dtype(), base.storageSize());
      Tensor result = storage.asStrided(base.shapeRef(), base.strides(), base.offset());
      Copies.copyInto(grad, result);
      Tensor inView = region.apply(result);
      Tensor[] grads = fn.apply(inView.copy());
      Tensor old = null;
      for (int i = 0; i < self.length; i++) {
        if (self[i] && grads[i] != null) {
          old = old == null ? grads[i] : old.add(grads[i]);
        }
      }
      Copies.copyInto(old != null ? old : Tensor.zeros(grad.dtype(), inView.shapeRef()), inView);
      Tensor[] out = new Tensor[next.length];
      out[0] = next[0] == null ? null : result;
      int k = 1;
      for (int i = 0; i < self.length; i++) {
        if (!self[i]) {
          out[k++] = grads[i];
        }
      }
      return out;
    }
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
        Tensor g = partial(op, i, grad, k -> saved[k].get(this), scalars, shapes[i], dtypes[i]);
        grads[i] = fit(g, shapes[i], dtypes[i]);
      }
      return grads;
    }
  }

  /**
   * {@code grad} times the derivative of {@code op} in operand {@code i}, by the op's generated
   * backward op (docs/gradients.md), before {@link #fit}: {@code operand} gives forward operand
   * {@code k} for the backward op's parameters of that name; {@code shape} and {@code dtype} are
   * operand {@code i}'s, for a zero gradient. Also the step of the ufunc methods' chains ({@link
   * UfuncGrad}).
   */
  static Tensor partial(ElementwiseOp op, int i, Tensor grad, IntFunction<Tensor> operand,
      Object[] scalars, long[] shape, DType dtype) {
    return switch (op.gradient(i)) {
      case IDENTITY -> grad;
      case ZERO -> Tensor.zeros(dtype, shape);
      case OP -> {
        ElementwiseOp backward = op.backward(i);
        Tensor[] operands = new Tensor[backward.arity()];
        operands[0] = grad;
        for (int k = 1; k < operands.length; k++) {
          operands[k] = operand.apply(op.tensorParams().indexOf(backward.tensorParams().get(k)));
        }
        yield Dispatch.apply(backward, null, operands, scalars);
      }
      case NONE -> throw new UnsupportedOperationException(
          "the derivative of " + op.name() + " with respect to '" + op.tensorParams().get(i)
              + "' is not implemented (the op has no floating body)");
    };
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
    return record(x, result, new ViewNode("sumToShape", edge(x), g -> g.expand(from)));
  }

  // ============================================================================================
  // Views, copies and casts
  // ============================================================================================

  /**
   * Gives {@code result}, a view of {@code input} ({@code expand}, {@code permute}, ...), its
   * node when {@code input} requires gradients; {@code backward} maps the view's gradient to the
   * input's. Returns {@code result}.
   */
  static Tensor view(Tensor input, Tensor result, String name, UnaryOperator<Tensor> backward,
      UnaryOperator<Tensor> replay) {
    untrackedView(input, result, replay);
    if (!recording(input)) {
      return result;
    }
    return record(input, result, new ViewNode(name, edge(input), backward));
  }

  /**
   * {@link Tensor#asStrided}: {@code result} is the view. Its gradient goes back through the
   * storage (PyTorch's {@code AsStridedBackward} for views without overlap): the view's gradient
   * written at the storage elements it reaches, read back where {@code input}'s elements are.
   */
  static Tensor asStrided(Tensor input, Tensor result) {
    long[] shape = result.shape();
    long[] strides = result.strides();
    long offset = result.offset();
    UnaryOperator<Tensor> replay = t -> t.asStrided(shape, strides, offset);
    if (!recording(input)) {
      return untrackedView(input, result, replay);
    }
    for (Tensor t : new Tensor[] {input, result}) {
      if (!reachesEachElementOnce(t.shapeRef(), t.strides())) {
        throw new UnsupportedOperationException(
            "asStrided is not differentiable in ufunc4j where a view reaches one storage element"
                + " twice: " + (t == input ? "the input" : "the view") + " has shape "
                + Arrays.toString(t.shapeRef()) + " and strides " + Arrays.toString(t.strides())
                + "; call it on detach(), or inside Autograd.noGrad()");
      }
    }
    long size = input.storageSize();
    long[] inShape = input.shape();
    long[] inStrides = input.strides();
    long inOffset = input.offset();
    return view(input, result, "asStrided", g -> {
      Tensor storage = Tensor.zeros(g.dtype(), size);
      Copies.copyInto(g, storage.asStrided(shape, strides, offset));
      return storage.asStrided(inShape, inStrides, inOffset).copy();
    }, replay);
  }

  /**
   * True when no two indices of the geometry reach one storage element: with the dimensions of
   * size above 1 ordered by stride, each stride exceeds the farthest the smaller ones reach (a
   * sufficient test, PyTorch's for {@code as_strided}'s backward).
   */
  static boolean reachesEachElementOnce(long[] shape, long[] strides) {
    long[][] dims = new long[shape.length][];
    int n = 0;
    for (int d = 0; d < shape.length; d++) {
      if (shape[d] == 0) {
        return true;
      }
      if (shape[d] > 1) {
        dims[n++] = new long[] {strides[d], shape[d]};
      }
    }
    Arrays.sort(dims, 0, n, (a, b) -> Long.compare(a[0], b[0]));
    long reach = 0;
    for (int i = 0; i < n; i++) {
      if (dims[i][0] <= reach) {
        return false;
      }
      reach += dims[i][0] * (dims[i][1] - 1);
    }
    return true;
  }

  /**
   * Gives {@code result}, a view of {@code input} made by {@code replay}, its {@link ViewOrigin}
   * (every view method does, through {@link #view}). Returns {@code result}.
   */
  static Tensor untrackedView(Tensor input, Tensor result, UnaryOperator<Tensor> replay) {
    ViewOrigin parent = input.viewOrigin();
    Tensor base = parent == null ? input : parent.base;
    UnaryOperator<Tensor> fromBase =
        parent == null ? replay : t -> replay.apply(parent.replay.apply(t));
    boolean madeWithoutGrad = parent != null && parent.madeWithoutGrad
        || tracked(input) && !enabled() && requiresGrad(input);
    result.setViewOrigin(
        new ViewOrigin(base, fromBase, madeWithoutGrad, result.versionCounter().value()));
    return result;
  }

  /** {@link #view} for a result with storage of its own ({@code copy}, {@code to}). */
  static Tensor copied(Tensor input, Tensor result, String name, UnaryOperator<Tensor> backward) {
    if (!recording(input) || !result.dtype().isFloatingPoint()) {
      return result;
    }
    return record(input, result, new ViewNode(name, edge(input), backward));
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

    ViewNode(String name, GradNode next, UnaryOperator<Tensor> backward) {
      super(new GradNode[] {next});
      this.name = name;
      this.backward = backward;
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
