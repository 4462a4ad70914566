package dev.ufunc4j;

import dev.ufunc4j.annotation.Identity;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.Promotion;
import dev.ufunc4j.dtype.PromotionException;
import dev.ufunc4j.internal.memory.ScopeMemory;
import dev.ufunc4j.internal.parallel.Parallel;
import dev.ufunc4j.internal.shape.MemoryOverlap;
import dev.ufunc4j.kernel.reduce.ReduceLoops;
import dev.ufunc4j.kernel.reduce.ReduceLoops.Kind;
import dev.ufunc4j.internal.shape.Shapes;
import dev.ufunc4j.kernel.ElementwiseOp;
import dev.ufunc4j.kernel.FoldKernel;
import java.io.InvalidObjectException;
import java.io.ObjectStreamException;
import java.io.Serial;
import java.io.Serializable;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The ufunc methods of an op with two tensor operands, NumPy's {@code np.add.reduce} and friends:
 * every facade holds one per such op, as a field with the op's own name beside its methods, so
 * {@code Ops.add.reduce(x, 0)} reads like {@code np.add.reduce(x, 0)} while {@code Ops.add(a, b)}
 * still adds. A user's op {@code @Elementwise static double logAddExp(double a, double b)} in a
 * class with the facade {@code LossOps} has {@code LossOps.logAddExp.reduce(x, 1)}.
 *
 * <ul>
 *   <li>{@link #reduce(Tensor, int[], boolean)}: the op folded over dims;
 *   <li>{@link #accumulate(Tensor, int)}: the running fold along a dim ({@code cumsum});
 *   <li>{@link #outer(Tensor, Tensor)}: the op over every pair of elements;
 *   <li>{@link #at(Tensor, int, Tensor, Tensor)}: in place at indices, repeated indices applied
 *       every time ({@code np.add.at}, {@code index_add_});
 *   <li>{@link #reduceAt(Tensor, Tensor, int)}: reductions over slices between offsets
 *       ({@code np.add.reduceat}).
 * </ul>
 *
 * <p>Dtypes, as PyTorch: a reduction or accumulation of {@code add} or {@code mul} over bool or
 * integral tensors is int64 ({@code torch.sum}, {@code prod}, {@code cumsum}); any other gives the
 * op's result dtype for {@code (x, x)}. When that differs from the input's dtype, the input is cast
 * to it first if it can be (int32 to float32 for {@code div}), or to bool for an associative
 * predicate ({@code logicalAnd}: its truth values, as NumPy's logical reductions); otherwise the
 * call is refused, as NumPy refuses {@code np.equal.reduce} of integers.
 *
 * <p>Order: an associative op ({@code @Elementwise(associative = true)}) reduces each dim in a fixed
 * pairwise tree that does not depend on threads (docs/ufuncs.md describes it), and several dims at
 * once; any other op in a strict left fold {@code op(op(x0, x1), x2) ...} along one dim, and a
 * reduction over more than one dim is refused ("not reorderable", as NumPy). An empty extent
 * reduces to the op's {@link #identity()}, and is refused for an op without one.
 *
 * <p>This first version composes the op's generated elementwise kernels (one call per tree level,
 * per fold step, per index); dedicated reduce and scan kernels are generated in a later step
 * (docs/ufuncs.md, "Not done yet"). {@code add}'s reductions are {@link Tensor#sum}'s, bit for bit.
 * Every check runs before anything is written: a refused call leaves {@code out} and {@code at}'s
 * target as they were.
 *
 * <p>Serializable as a reference to its facade's field (the facade's class and the op's method),
 * resolved again on the receiving side, so that a distributed job ({@code ufunc4j-spark}'s {@code
 * DistTensor.reduce}) can ship {@code Ops.maximum} or a user's {@code LossOps.logAddExp} to its
 * executors: their class path must hold the facade.
 */
public final class BinaryUfunc implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  private static final MethodType APPLY =
      MethodType.methodType(Tensor.class, Tensor.class, Tensor.class, Tensor.class);

  private final transient MethodHandles.Lookup facade;
  /** The op's descriptor class, generated beside the facade. */
  private final Class<?> descriptorClass;
  /** The name of the facade's methods and field for the op. */
  private final String method;
  /** The descriptor and the facade's method, found on first use (see {@link #of}). */
  private transient volatile Resolved resolved;

  private record Resolved(ElementwiseOp op, MethodHandle apply) {}

  private BinaryUfunc(MethodHandles.Lookup facade, Class<?> descriptorClass, String method) {
    this.facade = facade;
    this.descriptorClass = descriptorClass;
    this.method = method;
  }

  /**
   * {@return the ufunc of an op; generated facades call it for their fields} Nothing is looked up
   * here: the descriptor (its {@code OP} field, and with it the kernel table) and the facade's
   * method are found on first use, so a facade's class initialisation stays as cheap as before (its
   * fields would otherwise initialise every binary op's descriptor with the facade and spin a
   * lambda per op: docs/processor.md has the measurement).
   *
   * @param facade the facade's own lookup ({@code MethodHandles.lookup()}), which can see the
   *     package-private descriptor and the facade's method
   * @param descriptorClass the op's descriptor class (its static {@code ElementwiseOp OP}), of an op
   *     with exactly two promoting tensor operands and no scalars
   * @param method the facade's method name: its {@code (Tensor, Tensor, Tensor out)} form applies
   *     the op, so the op's argument rules hold in every ufunc method
   */
  public static BinaryUfunc of(MethodHandles.Lookup facade, Class<?> descriptorClass,
      String method) {
    Objects.requireNonNull(facade, "facade");
    Objects.requireNonNull(descriptorClass, "descriptorClass");
    Objects.requireNonNull(method, "method");
    return new BinaryUfunc(facade, descriptorClass, method);
  }

  private Resolved resolved() {
    Resolved r = resolved;
    if (r == null) {
      synchronized (this) {
        r = resolved;
        if (r == null) {
          r = resolve();
          resolved = r;
        }
      }
    }
    return r;
  }

  private Resolved resolve() {
    ElementwiseOp op;
    MethodHandle apply;
    try {
      op = (ElementwiseOp) facade.findStaticGetter(descriptorClass, "OP", ElementwiseOp.class)
          .invoke();
      apply = facade.findStatic(facade.lookupClass(), method, APPLY);
    } catch (Throwable e) {
      throw new IllegalStateException(
          "BinaryUfunc of " + descriptorClass.getName() + " through " + facade.lookupClass()
              .getName() + "." + method + ": not a generated descriptor and facade method", e);
    }
    if (op.arity() != 2 || op.isConditionOperand(0) || op.isConditionOperand(1)
        || !op.scalarParams().isEmpty()) {
      throw new IllegalStateException(
          "op " + op.name() + " is no binary ufunc: it takes " + op.tensorParams()
              + " and scalars " + op.scalarParams() + " (a ufunc has two tensor operands and no"
              + " scalar)");
    }
    return new Resolved(op, apply);
  }

  ElementwiseOp op() {
    return resolved().op();
  }

  /** The op through its facade method ({@code out} null for a new result). */
  Tensor apply(Tensor a, Tensor b, Tensor out) {
    try {
      return (Tensor) resolved().apply().invokeExact(a, b, out);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException(e); // facade methods throw no checked exceptions
    }
  }

  /** {@return the op's name ({@code "add"})} */
  public String name() {
    return op().name();
  }

  /** {@return the op's identity element: what a reduction of an empty extent gives} */
  public Identity identity() {
    return op().identity();
  }

  /** {@return whether the op is declared associative (pairwise tree, several dims at once)} */
  public boolean isAssociative() {
    return op().isAssociative();
  }

  @Override
  public String toString() {
    return "BinaryUfunc[" + op().name() + " of " + op().declaringClass() + ", identity "
        + op().identity() + (op().isAssociative() ? ", associative]" : "]");
  }

  /**
   * Serialized as its facade's field: {@link Ref}.
   *
   * @return the reference that stands for this ufunc in a stream
   */
  @Serial
  private Object writeReplace() {
    return new Ref(facade.lookupClass().getName(), descriptorClass.getName(), method);
  }

  /**
   * A {@link BinaryUfunc} in a stream: resolved to the facade's public static field that holds the
   * ufunc of {@code method} (found through the thread's context class loader, which Spark's
   * executors set to the job's jars), so the receiver shares the facade's instance.
   *
   * @param facade the facade class's binary name
   * @param descriptor the descriptor class's binary name
   * @param method the op's method and field name
   */
  private record Ref(String facade, String descriptor, String method) implements Serializable {
    @Serial private static final long serialVersionUID = 1L;

    @Serial
    private Object readResolve() throws ObjectStreamException {
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      try {
        Class<?> c = Class.forName(facade, true,
            loader != null ? loader : BinaryUfunc.class.getClassLoader());
        for (Field f : c.getFields()) {
          if (f.getType() == BinaryUfunc.class && Modifier.isStatic(f.getModifiers())
              && f.get(null) instanceof BinaryUfunc u && u.method.equals(method)
              && u.descriptorClass.getName().equals(descriptor)) {
            return u;
          }
        }
      } catch (ReflectiveOperationException | LinkageError e) {
        InvalidObjectException failure = new InvalidObjectException(
            "BinaryUfunc " + method + " of " + facade + ": the facade cannot be loaded here");
        failure.initCause(e);
        throw failure;
      }
      throw new InvalidObjectException(
          "BinaryUfunc " + method + " of " + facade + ": the facade has no public static"
              + " BinaryUfunc field for it");
    }
  }

  // ---- reduce -----------------------------------------------------------------------------------

  /**
   * {@return the op folded over every dim of {@code x}: a zero-dim tensor ({@code np.add.reduce(x,
   * None)})}
   *
   * @param x the tensor
   */
  public Tensor reduce(Tensor x) {
    return reduce(x, null, false, null);
  }

  /**
   * {@return the op folded over every dim of {@code x}, written into the zero-dim {@code out}}
   *
   * @param x the tensor
   * @param out the tensor the result is written into
   */
  public Tensor reduce(Tensor x, Tensor out) {
    return reduce(x, null, false, requireOut(out));
  }

  /**
   * {@return the op folded over {@code dim} (negative counts from the end), which is removed}
   *
   * @param x the tensor
   * @param dim the dimension (negative counts from the end)
   */
  public Tensor reduce(Tensor x, int dim) {
    return reduce(x, new int[] {dim}, false, null);
  }

  /**
   * {@link #reduce(Tensor, int)} written into {@code out}.
   *
   * @param x the tensor
   * @param dim the dimension (negative counts from the end)
   * @param out the tensor the result is written into
   * @return {@code out}
   */
  public Tensor reduce(Tensor x, int dim, Tensor out) {
    return reduce(x, new int[] {dim}, false, requireOut(out));
  }

  /**
   * {@return the op folded over {@code dims} (null or empty: every dim, as {@code torch.sum}), kept
   * as size 1 with {@code keepDim}}
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   */
  public Tensor reduce(Tensor x, int[] dims, boolean keepDim) {
    return reduce(x, dims, keepDim, null);
  }

  /**
   * {@link #reduce(Tensor, int[], boolean)} written into {@code out}, which must have the result's
   * shape and a dtype the result casts to ({@link Promotion#canCast}).
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @param out the tensor the result is written into
   * @return {@code out}, or a new tensor when {@code out} is null
   */
  public Tensor reduce(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    if (GradGraph.recording(x) || out != null && GradGraph.recording(out)) {
      return UfuncGrad.reduce(this, x, dims, keepDim, out); // the same, and its autograd node
    }
    String method = "reduce";
    requireInput(method, "x", x);
    boolean[] reduced = reducedDims(x, dims);
    long[] shape = x.shape();
    long[] outShape = outputShape(shape, reduced, keepDim);
    int count = 0;
    boolean empty = false;
    for (int d = 0; d < reduced.length; d++) {
      if (reduced[d]) {
        count++;
        empty |= shape[d] == 0;
      }
    }
    DType result = foldDtype(method, x.dtype());
    checkOut(method, out, outShape, result);
    if (!op().isAssociative() && count > 1) {
      throw new IllegalArgumentException(
          name() + ".reduce: reduction operation '" + name() + "' is not reorderable, so at most"
              + " one dim may be given (got dims " + describeDims(reduced) + " of shape "
              + Arrays.toString(shape) + "); declare @Elementwise(associative = true) if it is"
              + " associative, or reduce one dim at a time");
    }
    if (empty && op().identity() == Identity.NONE) {
      throw new IllegalArgumentException(
          name() + ".reduce: zero-size array to reduction operation " + name() + " which has no"
              + " identity (dims " + describeDims(reduced) + " of shape " + Arrays.toString(shape)
              + "); declare @Elementwise(identity = ...) on the op, or reduce a non-empty extent");
    }
    Tensor value;
    if (isBuiltin("add")) {
      // add's reductions are sum's, which keeps its bits (float16 accumulates in float32)
      value = Reductions.sum(x, dimsOf(reduced), keepDim, null);
    } else if (Shapes.numelOf(outShape) == 0) {
      value = Tensor.empty(result, outShape);
    } else if (empty) {
      value = identityTensor(result, outShape);
    } else if (op().foldKernel(workDtype(result)) != null && longestReduced(shape, reduced) > 1) {
      value = converted(foldReduce(x, reduced, outShape, workDtype(result)), result);
    } else {
      Tensor w = converted(x, workDtype(result));
      boolean fresh = w != x;
      for (int d = reduced.length - 1; d >= 0; d--) {
        // Highest dim first: the remaining elements keep their row-major order, so an
        // associative op that does not commute still sees its operands in order.
        if (reduced[d] && w.size(d) > 1) {
          w = op().isAssociative() ? tree(w, d) : leftFold(w, d);
          fresh = true;
        }
      }
      value = converted(fresh ? w : w.copy(), result).reshape(outShape);
    }
    return into(value, out);
  }

  /**
   * The dtype {@code reduce(x, dims)} folds in when this op runs the generated tree of
   * docs/reductions.md over every reduced dim at once (an associative op other than {@code add},
   * with a fold loop, a non-empty input and a reduced dim longer than 1), else null. Runs {@code
   * reduce}'s checks of {@code x} and {@code dims} first. The autograd replays that tree ({@code
   * UfuncGrad}).
   */
  DType generatedTreeDtype(Tensor x, int[] dims) {
    requireInput("reduce", "x", x);
    boolean[] reduced = reducedDims(x, dims);
    DType work = workDtype(foldDtype("reduce", x.dtype()));
    long[] shape = x.shape();
    boolean tree = op().isAssociative() && !isBuiltin("add") && Shapes.numelOf(shape) > 0
        && op().foldKernel(work) != null && longestReduced(shape, reduced) > 1;
    return tree ? work : null;
  }

  /**
   * A reduction by the op's generated fold loop ({@code FoldKernel}), in {@code work} (float32,
   * float64 or an integral dtype): an associative op in the tree of docs/reductions.md over every
   * reduced dim at once (sum's tree, in {@code ReduceLoops}); any other op in the strict left fold
   * along its one dim.
   */
  private Tensor foldReduce(Tensor x, boolean[] reduced, long[] outShape, DType work) {
    FoldKernel fold = op().foldKernel(work);
    Kind kind = Kind.of(work);
    Tensor acc = Tensor.empty(work, outShape);
    if (op().isAssociative()) {
      Tensor w = converted(x, work);
      ReduceLoops.reduce(ReduceLoops.Op.FOLD, fold, kind, w.segment(), w.offset(), w.shape(),
          w.strides(), reduced, acc.segment());
      return acc;
    }
    int d = dimsOf(reduced)[0];
    Tensor c = converted(x, work).contiguous();
    long[] shape = c.shape();
    ReduceLoops.leftFold(fold, kind, c.segment(), c.offset(), Shapes.numelOf(Arrays.copyOf(shape, d)),
        shape[d], Shapes.numelOf(Arrays.copyOfRange(shape, d + 1, shape.length)), acc.segment());
    return acc;
  }

  /** The largest size among the reduced dims (1 when none is reduced). */
  private static long longestReduced(long[] shape, boolean[] reduced) {
    long longest = 1;
    for (int d = 0; d < shape.length; d++) {
      if (reduced[d]) {
        longest = Math.max(longest, shape[d]);
      }
    }
    return longest;
  }

  /**
   * The pairwise tree along {@code dim}: per level, adjacent pairs {@code op(w[2i], w[2i+1])} in
   * one call over strided views; a level with an odd count sets its last element aside, and the
   * set-aside elements join at the end, the latest first. The result keeps {@code dim} with size 1.
   */
  private Tensor tree(Tensor w, int dim) {
    List<Tensor> aside = new ArrayList<>();
    long n = w.size(dim);
    while (n > 1) {
      if (n % 2 == 1) {
        aside.add(w.narrow(dim, n - 1, 1));
        n--;
      }
      w = apply(w.slice(dim, 0, n, 2), w.slice(dim, 1, n, 2), null);
      n /= 2;
    }
    for (int i = aside.size() - 1; i >= 0; i--) {
      w = apply(w, aside.get(i), null);
    }
    return w;
  }

  /** The strict left fold along {@code dim}, in place in one accumulator; keeps {@code dim}. */
  private Tensor leftFold(Tensor w, int dim) {
    long n = w.size(dim);
    Tensor acc = apply(w.narrow(dim, 0, 1), w.narrow(dim, 1, 1), null);
    for (long i = 2; i < n; i++) {
      apply(acc, w.narrow(dim, i, 1), acc);
    }
    return acc;
  }

  // ---- accumulate -------------------------------------------------------------------------------

  /**
   * {@return the running fold along {@code dim}: {@code y[0] = x[0]}, {@code y[i] = op(y[i-1],
   * x[i])}, in order whatever the op ({@code np.add.accumulate}, {@code torch.cumsum}); the shape
   * of {@code x}}
   *
   * @param x the tensor
   * @param dim the dimension (negative counts from the end)
   */
  public Tensor accumulate(Tensor x, int dim) {
    return accumulate(x, dim, null);
  }

  /**
   * {@link #accumulate(Tensor, int)} written into {@code out} (the shape of {@code x}).
   *
   * @param x the tensor
   * @param dim the dimension (negative counts from the end)
   * @param out the tensor the result is written into
   * @return {@code out}
   */
  public Tensor accumulate(Tensor x, int dim, Tensor out) {
    if (GradGraph.recording(x) || out != null && GradGraph.recording(out)) {
      return UfuncGrad.accumulate(this, x, dim, out); // the same, and its autograd node
    }
    String method = "accumulate";
    requireInput(method, "x", x);
    int d = Shapes.wrapDim(dim, x.ndim());
    DType result = foldDtype(method, x.dtype());
    checkOut(method, out, x.shape(), result);
    DType work = workDtype(result);
    FoldKernel fold = op().foldKernel(work);
    if (fold != null && x.ndim() > 0 && x.numel() > 0) {
      // The generated scan loop: in order along d, vectorised across the dims after it.
      Tensor c = converted(x, work).contiguous();
      // An out= target that can hold the loop's output as it is (contiguous, of the result dtype
      // the loop computes in, sharing no memory with the input) takes it directly: a new result
      // copied in took a third more time and twice the memory (issue 24's cumsum_16M).
      boolean direct = out != null && out.dtype() == result && result == work
          && out.isContiguous()
          && MemoryOverlap.overlap(c.strided(), out.strided()) == MemoryOverlap.Status.NONE;
      Tensor y = direct ? out : Tensor.empty(work, x.shape());
      long[] shape = x.shape();
      ReduceLoops.scan(fold, Kind.of(work), c.segment(), c.offset(),
          Shapes.numelOf(Arrays.copyOf(shape, d)), shape[d],
          Shapes.numelOf(Arrays.copyOfRange(shape, d + 1, shape.length)), y.segment(),
          y.offset());
      if (direct) {
        out.bumpVersion();
        return out;
      }
      return into(converted(y, result), out);
    }
    Tensor w = converted(x, work);
    Tensor y = Tensor.empty(w.dtype(), x.shape());
    if (x.ndim() == 0 || x.numel() == 0) {
      Copies.copyInto(w, y);
      return into(converted(y, result), out);
    }
    long n = x.size(d);
    Tensor acc = w.narrow(d, 0, 1).copy();
    Copies.copyInto(acc, y.narrow(d, 0, 1));
    for (long i = 1; i < n; i++) {
      apply(acc, w.narrow(d, i, 1), acc);
      Copies.copyInto(acc, y.narrow(d, i, 1));
    }
    return into(converted(y, result), out);
  }

  // ---- outer ------------------------------------------------------------------------------------

  /**
   * {@return the op over every pair: {@code a} reshaped to {@code a.shape + [1] * b.ndim}, then the
   * op with broadcasting, so the result has shape {@code a.shape + b.shape} ({@code
   * np.multiply.outer})}
   *
   * @param a the first operand
   * @param b the second operand
   */
  public Tensor outer(Tensor a, Tensor b) {
    return outer(a, b, null);
  }

  /**
   * {@link #outer(Tensor, Tensor)} into {@code out}, with the op's {@code out=} rules.
   *
   * @param a the first operand
   * @param b the second operand
   * @param out the tensor the result is written into
   * @return {@code out}
   */
  public Tensor outer(Tensor a, Tensor b, Tensor out) {
    requireInput("outer", "a", a);
    requireInput("outer", "b", b);
    long[] shape = Arrays.copyOf(a.shape(), a.ndim() + b.ndim());
    Arrays.fill(shape, a.ndim(), shape.length, 1L);
    return apply(a.reshape(shape), b, out);
  }

  // ---- at -----------------------------------------------------------------------------------------

  /**
   * {@link #at(Tensor, int, Tensor, Tensor)} along dim 0 ({@code np.add.at(target, i, v)}).
   *
   * @param target the tensor written in place
   * @param values the values combined in, one per index (broadcast)
   * @param indices the indices, an integral tensor
   */
  public void at(Tensor target, Tensor indices, Tensor values) {
    at(target, 0, indices, values);
  }

  /**
   * In place and unbuffered: for each {@code i}, {@code target[.., indices[i], ..] =
   * op(target[.., indices[i], ..], values[.., i, ..])} along {@code dim}, in order, so a repeated
   * index is applied every time ({@code np.add.at}, {@code torch.index_add_}). {@code indices} is
   * an int32 or int64 tensor of one dim (or zero-dim: one index, and {@code values} then lacks
   * {@code dim}); negative indices count from the end. {@code values} broadcasts to the selected
   * shape (the target's with {@code dim} of size {@code indices.numel()}), and the op's result must
   * cast to the target's dtype. Every index, the shapes and the dtypes are checked before anything
   * is written.
   *
   * @param target the tensor written in place
   * @param values the values combined in, one per index (broadcast)
   * @param dim the dimension (negative counts from the end)
   * @param indices the indices, an integral tensor
   */
  public void at(Tensor target, int dim, Tensor indices, Tensor values) {
    String method = "at";
    requireInput(method, "target", target);
    requireInput(method, "indices", indices);
    requireInput(method, "values", values);
    if (GradGraph.recording(target, new Tensor[] {values})) {
      UfuncGrad.at(this, target, dim, indices, values); // add.at records; other ops refuse
      return;
    }
    if (MemoryOverlap.hasInternalOverlap(target.strided())) {
      throw new IllegalArgumentException(
          name() + ".at: the target has a dimension of stride 0 (an expanded view), so one"
              + " element would stand for several; give it a tensor of its own");
    }
    if (target.ndim() == 0) {
      throw new IllegalArgumentException(
          name() + ".at: the target is zero-dim; at indexes one of its dims (give it a dim, e.g."
              + " target.view(1))");
    }
    int d = Shapes.wrapDim(dim, target.ndim());
    long[] index = indices(method, indices, target.size(d), d, true);
    boolean single = indices.ndim() == 0;
    long[] selected = target.shape();
    selected[d] = index.length;
    long[] valueShape = single ? Shapes.remove(selected, d) : selected;
    Tensor v;
    try {
      if (!Arrays.equals(Broadcast.shapes(values.shape(), valueShape), valueShape)) {
        throw new BroadcastException("");
      }
      v = values.expand(valueShape);
    } catch (IllegalArgumentException e) {
      throw new BroadcastException(
          name() + ".at: values of shape " + Arrays.toString(values.shape()) + " cannot be"
              + " broadcast to the selected shape " + Arrays.toString(valueShape) + " (the"
              + " target's " + Arrays.toString(target.shape()) + " with dim " + d + " of size "
              + index.length + (single ? ", removed for a zero-dim index" : "") + ")");
    }
    if (single) {
      v = v.unsqueeze(d);
    }
    // The dispatcher's own in-place checks (dtype, target overlap, autograd), on empty views of
    // the same dtypes and strides: refused here, before the first index is written.
    apply(target.narrow(d, 0, 0), v.narrow(d, 0, 0), target.narrow(d, 0, 0));
    if (MemoryOverlap.overlap(target.strided(), v.strided()) != MemoryOverlap.Status.NONE) {
      v = v.copy(); // values read from the target: NumPy reads them as they were, too
    }
    FoldKernel fold = op().foldKernel(target.dtype());
    if (fold != null && v.dtype() == target.dtype() && target.isContiguous() && target.numel() > 0
        && target.numel() / target.size(d) <= Integer.MAX_VALUE) {
      atByFold(fold, target, d, index, v.contiguous());
      return;
    }
    // An op that may fail midway (integer division by zero) works on a copy, so that a failure
    // leaves the target as it was.
    Tensor work = op().mayThrow() ? target.copy() : target;
    for (int i = 0; i < index.length; i++) {
      Tensor slot = work.narrow(d, index[i], 1);
      apply(slot, v.narrow(d, i, 1), slot);
    }
    if (work != target) {
      Copies.copyInto(work, target);
      target.bumpVersion();
    }
  }

  /**
   * {@code at} on a contiguous target of a dtype with fold loops, by the op's generated fold loop:
   * per index in order, each contiguous block of the selected slice folds the matching block of
   * {@code v} (values of the target's dtype, contiguous, with dim {@code d} of size {@code
   * index.length}). One loop call per index and block instead of a dispatched op call.
   *
   * <p>On more than one thread, each share of the team owns a range of the target's positions
   * along {@code d} and goes through all the indices in order, applying those in its range: every
   * element is still combined with its values in index order, so the bits are one thread's, and
   * no two threads write one element. (Each share reads every index; the indices are a sixty-
   * fourth of the values in issue 24's {@code add_at_rows_64}.) Indices crowded into one share's
   * range leave the others idle, no slower than one thread.
   */
  private static void atByFold(FoldKernel fold, Tensor target, int d, long[] index, Tensor v) {
    long[] shape = target.shape();
    long outer = Shapes.numelOf(Arrays.copyOf(shape, d));
    long inner = Shapes.numelOf(Arrays.copyOfRange(shape, d + 1, shape.length));
    long size = shape[d];
    // Unconfined views: a TensorScope's segments are confined to their thread, the team's are not.
    MemorySegment t = ScopeMemory.shareable(target.segment());
    MemorySegment values = ScopeMemory.shareable(v.segment());
    long tOff = target.offset();
    long vOff = v.offset();
    Parallel.RangeTask positions = (from, to) -> {
      for (int i = 0; i < index.length; i++) {
        long at = index[i];
        if (at < from || at >= to) {
          continue;
        }
        for (long o = 0; o < outer; o++) {
          fold.fold(t, tOff + (o * size + at) * inner, values,
              vOff + (o * index.length + i) * inner, 0, 1, (int) inner);
        }
      }
    };
    int threads = Parallel.threads();
    if (threads > 1 && size >= 2
        && Parallel.atLeastTwoGrains(index.length * outer * inner, Parallel.grainSize())) {
      Parallel.forEachShare(threads, size, positions);
    } else {
      positions.run(0, size);
    }
    target.bumpVersion();
  }

  // ---- reduceAt -----------------------------------------------------------------------------------

  /**
   * {@return NumPy's {@code reduceat} along {@code dim}: for each {@code i}, the op reduced over
   * {@code x[offsets[i] : offsets[i+1]]} (the last one to the end), or {@code x[offsets[i]]} where
   * {@code offsets[i] >= offsets[i+1]}} {@code offsets} is a one-dim int32 or int64 tensor of
   * values in {@code [0, x.size(dim))}; the result has {@code x}'s shape with {@code dim} of size
   * {@code offsets.numel()} and the dtype of {@link #reduce(Tensor, int)}.
   *
   * @param offsets the start of each slice along {@code dim}, an integral tensor
   * @param x the tensor
   * @param dim the dimension (negative counts from the end)
   */
  public Tensor reduceAt(Tensor x, Tensor offsets, int dim) {
    return reduceAt(x, offsets, dim, null);
  }

  /**
   * {@link #reduceAt(Tensor, Tensor, int)} written into {@code out}.
   *
   * @param offsets the start of each slice along {@code dim}, an integral tensor
   * @param x the tensor
   * @param dim the dimension (negative counts from the end)
   * @param out the tensor the result is written into
   * @return {@code out}
   */
  public Tensor reduceAt(Tensor x, Tensor offsets, int dim, Tensor out) {
    String method = "reduceAt";
    requireInput(method, "x", x);
    requireInput(method, "offsets", offsets);
    if (GradGraph.recording(x) || out != null && GradGraph.recording(out)) {
      return UfuncGrad.reduceAt(this, x, offsets, dim, out); // the same, and its autograd node
    }
    if (x.ndim() == 0) {
      throw new IllegalArgumentException(
          name() + ".reduceAt: x is zero-dim; reduceAt splits one of its dims");
    }
    int d = Shapes.wrapDim(dim, x.ndim());
    if (offsets.ndim() != 1) {
      throw new IllegalArgumentException(
          name() + ".reduceAt: offsets must have one dim, got shape "
              + Arrays.toString(offsets.shape()));
    }
    long n = x.size(d);
    long[] start = indices(method, offsets, n, d, false);
    DType result = foldDtype(method, x.dtype());
    long[] shape = x.shape();
    shape[d] = start.length;
    checkOut(method, out, shape, result);
    Tensor y = Tensor.empty(result, shape);
    for (int i = 0; i < start.length; i++) {
      long end = i + 1 < start.length ? start[i + 1] : n;
      Tensor part = start[i] < end
          ? reduce(x.narrow(d, start[i], end - start[i]), new int[] {d}, true, null)
          : converted(x.narrow(d, start[i], 1), result);
      Copies.copyInto(part, y.narrow(d, i, 1));
    }
    return into(y, out);
  }

  // ---- shared steps -------------------------------------------------------------------------------

  boolean isBuiltin(String opName) {
    return op().declaringClass().equals(Builtins.class.getName()) && op().name().equals(opName);
  }

  /**
   * The dtype a fold over {@code input} computes and returns (class comment): int64 for {@code
   * add}/{@code mul} of bool and integral inputs, else the op's result for {@code (input, input)},
   * which the input must cast to. The op's own refusals (no kernel, bool {@code sub}) come from an
   * empty call.
   */
  private DType foldDtype(String method, DType input) {
    if ((isBuiltin("add") || isBuiltin("mul")) && input.isIntegral(true)) {
      return DType.INT64;
    }
    DType result = probe(input, input);
    if (result == input) {
      return result;
    }
    boolean truthValues = result == DType.BOOL && op().isPredicate() && op().isAssociative();
    if (!truthValues && !Promotion.canCast(input, result)) {
      throw new PromotionException(
          name() + "." + method + ": the resolved dtypes are not compatible with " + method
              + ": " + name() + "(" + input + ", " + input + ") gives " + result + ", which "
              + input + " cannot be cast to, so the fold cannot carry on in it (NumPy refuses it"
              + " alike); convert the input first, e.g. x.to(DType." + result.name() + ")");
    }
    if (probe(result, result) != result) {
      throw new PromotionException(
          name() + "." + method + ": the resolved dtypes are not compatible with " + method
              + ": " + name() + "(" + result + ", " + result + ") gives "
              + probe(result, result) + ", not " + result);
    }
    return result;
  }

  /**
   * The dtype a fold carries its partial results in: float32 for a float16/bfloat16 result when
   * the op computes float32 itself (rounded once at the end, as NumPy's half reductions and
   * PyTorch's {@code prod}/{@code cumsum} do), else the result dtype.
   */
  private DType workDtype(DType result) {
    if (result == DType.FLOAT16 || result == DType.BFLOAT16) {
      try {
        if (probe(DType.FLOAT32, DType.FLOAT32) == DType.FLOAT32) {
          return DType.FLOAT32;
        }
      } catch (IllegalArgumentException noFloat32Kernel) {
        // an op generated for the 16-bit dtype only: it rounds at every step
      }
    }
    return result;
  }

  /** The op's result dtype for these operand dtypes, from a call over empty tensors. */
  private DType probe(DType a, DType b) {
    return apply(Tensor.empty(a, 0), Tensor.empty(b, 0), null).dtype();
  }

  private static Tensor converted(Tensor x, DType dtype) {
    return x.dtype() == dtype ? x : x.to(dtype);
  }

  /** The identity of the op in {@code dtype}, filling {@code shape}. */
  private Tensor identityTensor(DType dtype, long[] shape) {
    int bits = dtype.byteSize() * 8;
    if (dtype.isComplex() && (op().identity() == Identity.LOWEST
        || op().identity() == Identity.HIGHEST)) {
      throw new IllegalArgumentException(
          name() + ".reduce: identity " + op().identity() + " has no " + dtype + " value: complex"
              + " numbers have no order");
    }
    return switch (op().identity()) {
      case NONE -> throw new IllegalStateException("no identity");
      case ZERO -> Tensor.zeros(dtype, shape);
      case ONE -> Tensor.ones(dtype, shape);
      case MINUS_ONE -> Tensor.full(dtype, -1L, shape);
      case LOWEST -> dtype.isFloatingPoint()
          ? Tensor.full(dtype, Double.NEGATIVE_INFINITY, shape)
          : dtype == DType.BOOL || dtype.isUnsigned() ? Tensor.zeros(dtype, shape)
          : Tensor.full(dtype, -1L << (bits - 1), shape);
      case HIGHEST -> dtype.isFloatingPoint()
          ? Tensor.full(dtype, Double.POSITIVE_INFINITY, shape)
          : dtype == DType.BOOL ? Tensor.ones(dtype, shape)
          : dtype.isUnsigned() ? Tensor.full(dtype, bits == 64 ? -1L : (1L << bits) - 1, shape)
          : Tensor.full(dtype, (1L << (bits - 1)) - 1, shape);
    };
  }

  private void requireInput(String method, String param, Tensor t) {
    if (t == null) {
      throw new IllegalArgumentException(
          name() + "." + method + ": " + param + " must not be null");
    }
  }

  private Tensor requireOut(Tensor out) {
    if (out == null) {
      throw new IllegalArgumentException(
          name() + ": out must not be null (use the method without out for a new result)");
    }
    return out;
  }

  /** An {@code out=} target's shape and dtype, before anything is computed. */
  private void checkOut(String method, Tensor out, long[] shape, DType result) {
    if (out == null) {
      return;
    }
    if (!Arrays.equals(out.shape(), shape)) {
      throw new BroadcastException(
          name() + "." + method + ": out has shape " + Arrays.toString(out.shape()) + " but the"
              + " result has shape " + Arrays.toString(shape) + " (an out= target keeps its"
              + " shape)");
    }
    if (!Promotion.canCast(result, out.dtype())) {
      throw new PromotionException(
          name() + "." + method + ": result type " + result + " can't be cast to the desired"
              + " output type " + out.dtype());
    }
    if (MemoryOverlap.hasInternalOverlap(out.strided())) {
      throw new IllegalArgumentException(
          name() + "." + method + ": out has a dimension of stride 0 (an expanded view), so it"
              + " would receive several results in one element; give it a tensor of its own");
    }
  }

  /** {@code value} as the result: itself, or copied (converted) into {@code out}. */
  private static Tensor into(Tensor value, Tensor out) {
    if (out == null) {
      return value;
    }
    Copies.copyInto(value, out);
    out.bumpVersion();
    return out;
  }

  /**
   * The values of a one-dim (or zero-dim) int32/int64 index tensor, negative ones counted from
   * the end of a dim of {@code size} when {@code negative} (else refused, as NumPy's {@code
   * reduceat}); every one checked before the caller writes anything.
   */
  private long[] indices(String method, Tensor indices, long size, int dim, boolean negative) {
    if (indices.dtype() != DType.INT32 && indices.dtype() != DType.INT64) {
      throw new IllegalArgumentException(
          name() + "." + method + ": indices must be int32 or int64, got " + indices.dtype());
    }
    if (indices.ndim() > 1) {
      throw new IllegalArgumentException(
          name() + "." + method + ": indices must have one dim (or none), got shape "
              + Arrays.toString(indices.shape()));
    }
    long[] values = indices.to(DType.INT64).contiguous().toLongArray();
    for (int i = 0; i < values.length; i++) {
      long v = values[i];
      if (!negative && (v < 0 || v >= size)) {
        throw new IndexOutOfBoundsException(
            name() + "." + method + ": index " + v + " out-of-bounds in " + name() + "."
                + method + " [0, " + size + ") (dim " + dim + ")");
      }
      if (v < -size || v >= size) {
        throw new IndexOutOfBoundsException(
            name() + "." + method + ": index " + v + " is out of bounds for dim " + dim
                + " with size " + size);
      }
      values[i] = v < 0 ? v + size : v;
    }
    return values;
  }

  /** Which dims to reduce: all for null or empty {@code dims}, each wrapped once. */
  private boolean[] reducedDims(Tensor x, int[] dims) {
    int ndim = x.ndim();
    boolean[] reduced = new boolean[ndim];
    if (dims == null || dims.length == 0) {
      Arrays.fill(reduced, true);
      return reduced;
    }
    boolean[] seen = new boolean[Math.max(ndim, 1)];
    for (int dim : dims) {
      int d = Shapes.wrapDim(dim, ndim);
      if (seen[d]) {
        throw new IllegalArgumentException(
            name() + ".reduce: dim " + d + " appears multiple times in the list of dims "
                + Arrays.toString(dims));
      }
      seen[d] = true;
      if (ndim > 0) {
        reduced[d] = true;
      }
    }
    return reduced;
  }

  private static int[] dimsOf(boolean[] reduced) {
    int[] dims = new int[reduced.length];
    int n = 0;
    for (int d = 0; d < reduced.length; d++) {
      if (reduced[d]) {
        dims[n++] = d;
      }
    }
    return Arrays.copyOf(dims, n);
  }

  private static String describeDims(boolean[] reduced) {
    return Arrays.toString(dimsOf(reduced));
  }

  private static long[] outputShape(long[] shape, boolean[] reduced, boolean keepDim) {
    long[] out = new long[shape.length];
    int n = 0;
    for (int d = 0; d < shape.length; d++) {
      if (!reduced[d]) {
        out[n++] = shape[d];
      } else if (keepDim) {
        out[n++] = 1;
      }
    }
    return Arrays.copyOf(out, n);
  }
}
