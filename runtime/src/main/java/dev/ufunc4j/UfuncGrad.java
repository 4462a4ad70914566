package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.reduce.ReduceLoops;
import dev.ufunc4j.kernel.reduce.ReduceLoops.Kind;
import dev.ufunc4j.internal.shape.Shapes;
import dev.ufunc4j.kernel.ElementwiseOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Autograd of the ufunc methods ({@link BinaryUfunc}; docs/gradients.md, "Ufunc methods"): {@code
 * reduce}, {@code accumulate} and {@code reduceAt} of every differentiable op, and {@code add.at}. {@code outer} needs
 * nothing of its own: it is one elementwise call on a reshaped operand, which records the op's
 * backward with broadcasting and {@code sumToShape} as any call does.
 *
 * <p>The forward runs unrecorded through {@link BinaryUfunc} itself (its kernels, its bits); the
 * result gets one node. Its backward is derived from the op's own backward ops (the generated
 * {@code grad * ∂op/∂a} and {@code grad * ∂op/∂b}), chained through the fold in the order the
 * forward folds, so that it holds for any op a user declares:
 *
 * <ul>
 *   <li>a left fold and an accumulation ({@code y[i] = op(y[i-1], x[i])}): from the last step back,
 *       the carried gradient {@code c} gives {@code x[i]} its {@code ∂b} part and becomes its {@code
 *       ∂a} part for {@code y[i-1]} (plus {@code y[i-1]}'s own incoming gradient in a scan): the
 *       partials of each step multiplied along the scan, with no division, so zeros of {@code
 *       cumprod} and {@code prod} come out exact (PyTorch's {@code prod_safe_zeros_backward} gives
 *       the same values);
 *   <li>an associative op's pairwise tree (docs/ufuncs.md, "Order"): the levels are computed again,
 *       and the gradient goes down them, each level's pairs in one call per operand.
 * </ul>
 *
 * <p>Closed forms where PyTorch's convention differs from the chain: {@code add} is {@code sum}
 * (its node), {@code maximum}/{@code minimum} are {@code amax}/{@code amin}, whose gradient is
 * split evenly among the elements equal to the result (the chain through {@code maximum}'s halving
 * at each tied pair would give a tie of three 1/4, 1/4, 1/2).
 */
final class UfuncGrad {
  private UfuncGrad() {}

  private static final Object[] NO_SCALARS = new Object[0];

  // ---- reduce -----------------------------------------------------------------------------------

  /** {@link BinaryUfunc#reduce(Tensor, int[], boolean, Tensor)} with recording. */
  static Tensor reduce(BinaryUfunc u, Tensor x, int[] dims, boolean keepDim, Tensor out) {
    if (out != null) {
      throw GradGraph.outRefused(u.name() + ".reduce");
    }
    if (u.isBuiltin("add")) {
      return GradGraph.reduction(GradGraph.Reduction.SUM, x, dims, keepDim, null);
    }
    if (!u.isBuiltin("maximum") && !u.isBuiltin("minimum")) {
      DType treeDtype = u.generatedTreeDtype(x, dims); // reduce's checks run here
      if (treeDtype != null) {
        return generatedTreeReduce(u, x, reduced(x, dims), keepDim, treeDtype);
      }
    }
    Tensor result;
    try (var _ = GradGraph.noGrad()) {
      result = u.reduce(x, dims, keepDim, null); // every check, and the forward's own bits
    }
    if (!result.dtype().isFloatingPoint()) {
      return result; // predicates and integral folds carry no gradient
    }
    boolean[] reduced = reduced(x, dims);
    long[] kept = x.shape();
    for (int d = 0; d < kept.length; d++) {
      if (reduced[d]) {
        kept[d] = 1;
      }
    }
    GradNode.Saved input = new GradNode.Saved(x);
    if (u.isBuiltin("maximum") || u.isBuiltin("minimum")) {
      result.autogradMeta().gradFn = new GradGraph.ReductionNode(
          u.isBuiltin("maximum") ? GradGraph.Reduction.AMAX : GradGraph.Reduction.AMIN,
          GradGraph.edge(x), x.shape(), x.dtype(), kept, reduced, input,
          new GradNode.Saved(result));
      return result;
    }
    long[] shape = x.shape();
    DType dtype = x.dtype();
    result.autogradMeta().gradFn = new Node(u.name() + ".reduce", GradGraph.edge(x),
        (node, grad) -> {
          Tensor w = work(input.get(node));
          Tensor g = work(grad).reshape(kept);
          if (w.numel() == 0) {
            return Tensor.zeros(dtype, shape);
          }
          // The forward reduces the highest dim first (BinaryUfunc.reduce): the stages are taken
          // again in that order, and the gradient goes back through them lowest dim first.
          List<Tensor> stages = new ArrayList<>();
          List<Integer> stageDims = new ArrayList<>();
          for (int d = reduced.length - 1; d >= 0; d--) {
            if (reduced[d] && w.size(d) > 1) {
              stages.add(w);
              stageDims.add(d);
              w = u.reduce(w, new int[] {d}, true);
            }
          }
          for (int k = stages.size() - 1; k >= 0; k--) {
            Tensor stage = stages.get(k);
            int d = stageDims.get(k);
            g = u.isAssociative() ? treeBackward(u, stage, d, g) : foldBackward(u, stage, d, g);
          }
          return GradGraph.fit(g.expand(shape), shape, dtype);
        });
    return result;
  }

  /**
   * The reduction of an associative op that runs the generated tree of docs/reductions.md over
   * every reduced dim at once ({@code BinaryUfunc.generatedTreeDtype}), recorded. That tree
   * depends on the layout (contiguous leaves fold in {@code K} accumulators, strided ones in
   * sequence, columns in blocks of rows), so the recorded forward reduces {@code x} laid out with
   * its kept dims first and its reduced dims last, C-contiguous (a copy where {@code x} is not
   * already so; the same call, so the same bits, where it is): each output is then one contiguous
   * run in the reduced dims' row-major order, whose tree the backward replays ({@link
   * #runBackward}).
   */
  private static Tensor generatedTreeReduce(BinaryUfunc u, Tensor x, boolean[] reduced,
      boolean keepDim, DType work) {
    int ndim = reduced.length;
    int[] order = new int[ndim]; // the kept dims, then the reduced ones, each in their order
    List<Long> outShape = new ArrayList<>();
    int k = 0;
    long rows = 1;
    long run = 1;
    for (int d = 0; d < ndim; d++) {
      if (!reduced[d]) {
        order[k++] = d;
        rows *= x.size(d);
        outShape.add(x.size(d));
      } else if (keepDim) {
        outShape.add(1L);
      }
    }
    for (int d = 0; d < ndim; d++) {
      if (reduced[d]) {
        order[k++] = d;
        run *= x.size(d);
      }
    }
    int[] inverse = new int[ndim];
    for (int i = 0; i < ndim; i++) {
      inverse[order[i]] = i;
    }
    long[] canonShape = new long[outShape.size() + 1]; // the output's shape, then the run
    for (int i = 0; i < outShape.size(); i++) {
      canonShape[i] = outShape.get(i);
    }
    canonShape[outShape.size()] = run;
    Tensor result;
    try (var _ = GradGraph.noGrad()) {
      Tensor canon = x.permute(order).contiguous().reshape(canonShape);
      result = u.reduce(canon, new int[] {outShape.size()}, false, null);
    }
    long[] shape = x.shape();
    long[] permuted = new long[ndim];
    for (int i = 0; i < ndim; i++) {
      permuted[i] = shape[order[i]];
    }
    DType dtype = x.dtype();
    long n = run;
    long m = rows;
    GradNode.Saved input = new GradNode.Saved(x);
    result.autogradMeta().gradFn = new Node(u.name() + ".reduce", GradGraph.edge(x),
        (node, grad) -> {
          Tensor w = input.get(node).permute(order).contiguous().reshape(m, n).to(work);
          Tensor g = runBackward(u, w, grad.to(work).reshape(m, 1), ReduceLoops.LEAF,
              ReduceLoops.leafLanes(Kind.of(work)));
          return GradGraph.fit(g.reshape(permuted).permute(inverse), shape, dtype);
        });
    return result;
  }

  /**
   * The gradient of {@code w}'s rows ({@code [m, n]}, each one contiguous run) through the tree the
   * generated fold loops reduce a contiguous run in (docs/reductions.md, {@code
   * ReduceLoops.foldLeaf}), given {@code grad} of the rows' results ({@code [m, 1]}): the run split
   * at {@code max(1, floor(floor(n / leaf) / 2)) * leaf} while longer than {@code leaf}, each
   * leaf's {@code lanes} accumulators starting as its first elements, element {@code i} folded into
   * accumulator {@code i mod lanes} in order, then the halves (skipping accumulators no element
   * reached). The values are computed again by the op's elementwise calls, every whole leaf of
   * every row at once; the pairs above the leaves one call each.
   */
  static Tensor runBackward(BinaryUfunc u, Tensor w, Tensor grad, int leaf, int lanes) {
    long m = w.size(0);
    long n = w.size(1);
    long whole = n / leaf; // leaves of exactly `leaf` elements; a shorter one ends the run
    long tail = n - whole * leaf;
    Leaves full = whole > 0
        ? new Leaves(u, w.narrow(1, 0, whole * leaf).reshape(m, whole, leaf), lanes) : null;
    Leaves last = tail > 0 ? new Leaves(u, w.narrow(1, whole * leaf, tail).reshape(m, 1, tail),
        lanes) : null;
    Tensor[] leafValues = new Tensor[(int) (whole + (tail > 0 ? 1 : 0))];
    for (int j = 0; j < leafValues.length; j++) {
      leafValues[j] = j < whole ? full.value().narrow(1, j, 1).reshape(m, 1)
          : last.value().reshape(m, 1);
    }
    Pairing top = Pairing.of(u, leafValues, 0, n, leaf);
    Tensor[] leafGrads = new Tensor[leafValues.length];
    top.backward(u.op(), grad, leafGrads);
    Tensor gw = Tensor.zeros(grad.dtype(), m, n);
    if (full != null) {
      Tensor g = Tensor.zeros(grad.dtype(), m, whole, 1);
      for (int j = 0; j < whole; j++) {
        Copies.copyInto(leafGrads[j].reshape(m, 1, 1), g.narrow(1, j, 1));
      }
      Copies.copyInto(full.backward(u.op(), g).reshape(m, whole * leaf),
          gw.narrow(1, 0, whole * leaf));
    }
    if (last != null) {
      Copies.copyInto(last.backward(u.op(), leafGrads[(int) whole].reshape(m, 1, 1))
          .reshape(m, tail), gw.narrow(1, whole * leaf, tail));
    }
    return gw;
  }

  /**
   * Leaves of one length {@code l} ({@code [m, leaves, l]}) folded as {@code ReduceLoops.foldLeaf}
   * folds one: the values each step gives, kept for the backward.
   */
  private static final class Leaves {
    private final Tensor x;
    private final int lanes;
    /** The accumulators after each block of {@code lanes} elements (the first block: itself). */
    private final List<Tensor> blocks = new ArrayList<>();
    /** The accumulators before each halving, and how many of them elements reached. */
    private final List<Tensor> halves = new ArrayList<>();
    private final List<Long> reached = new ArrayList<>();
    private final Tensor value;

    Leaves(BinaryUfunc u, Tensor x, int lanes) {
      this.x = x;
      this.lanes = lanes;
      long l = x.size(2);
      long valid = Math.min(l, lanes);
      Tensor acc = x.narrow(2, 0, valid);
      blocks.add(acc);
      for (long at = lanes; at < l; at += lanes) {
        long c = Math.min(lanes, l - at); // a short last block folds into the first accumulators
        Tensor next = acc.copy();
        u.apply(acc.narrow(2, 0, c), x.narrow(2, at, c), next.narrow(2, 0, c));
        acc = next;
        blocks.add(acc);
      }
      for (long h = lanes / 2; h >= 1; h /= 2) {
        if (valid > h) {
          halves.add(acc);
          reached.add(valid);
          Tensor next = acc.narrow(2, 0, h).copy();
          u.apply(acc.narrow(2, 0, valid - h), acc.narrow(2, h, valid - h),
              next.narrow(2, 0, valid - h));
          acc = next;
          valid = h;
        }
      }
      this.value = acc.narrow(2, 0, 1);
    }

    /** The leaves' results, {@code [m, leaves, 1]}. */
    Tensor value() {
      return value;
    }

    /** The gradient of the leaves' elements from that of their results ({@code [m, leaves, 1]}). */
    Tensor backward(ElementwiseOp op, Tensor grad) {
      Tensor g = grad;
      for (int i = halves.size() - 1; i >= 0; i--) {
        Tensor in = halves.get(i);
        long valid = reached.get(i);
        long h = g.size(2);
        long paired = valid - h; // accumulators j < paired took j + h
        Tensor gin = Tensor.zeros(g.dtype(), in.shapeRef());
        Copies.copyInto(g, gin.narrow(2, 0, h));
        Tensor gl = g.narrow(2, 0, paired);
        Tensor a = in.narrow(2, 0, paired);
        Tensor b = in.narrow(2, h, paired);
        Copies.copyInto(partial(op, 0, gl, a, b), gin.narrow(2, 0, paired));
        Copies.copyInto(partial(op, 1, gl, a, b), gin.narrow(2, h, paired));
        g = gin;
      }
      Tensor gx = Tensor.zeros(g.dtype(), x.shapeRef());
      long l = x.size(2);
      for (int t = blocks.size() - 1; t >= 1; t--) {
        long at = (long) t * lanes;
        long c = Math.min(lanes, l - at);
        Tensor gl = g.narrow(2, 0, c);
        Tensor a = blocks.get(t - 1).narrow(2, 0, c);
        Tensor b = x.narrow(2, at, c);
        Copies.copyInto(partial(op, 1, gl, a, b), gx.narrow(2, at, c));
        Tensor carried = g.copy();
        Copies.copyInto(partial(op, 0, gl, a, b), carried.narrow(2, 0, c));
        g = carried;
      }
      Copies.copyInto(g, gx.narrow(2, 0, g.size(2)));
      return gx;
    }
  }

  /**
   * The tree above a run's leaves: elements {@code [lo, lo + n)} split at {@code max(1,
   * floor(floor(n / leaf) / 2)) * leaf} while {@code n > leaf} ({@code ReduceLoops.run}), each
   * pair's operand values kept for the backward.
   */
  private record Pairing(int leafIndex, Pairing left, Pairing right, Tensor a, Tensor b,
      Tensor value) {
    static Pairing of(BinaryUfunc u, Tensor[] leaves, long lo, long n, long leaf) {
      if (n <= leaf) {
        int j = (int) (lo / leaf);
        return new Pairing(j, null, null, null, null, leaves[j]);
      }
      long mid = Math.max(1, (n / leaf) / 2) * leaf;
      Pairing left = of(u, leaves, lo, mid, leaf);
      Pairing right = of(u, leaves, lo + mid, n - mid, leaf);
      return new Pairing(-1, left, right, left.value, right.value,
          u.apply(left.value, right.value, null));
    }

    /** Gives each leaf's result its gradient ({@code into[leafIndex]}) from {@code grad}. */
    void backward(ElementwiseOp op, Tensor grad, Tensor[] into) {
      if (left == null) {
        into[leafIndex] = grad;
        return;
      }
      left.backward(op, partial(op, 0, grad, a, b), into);
      right.backward(op, partial(op, 1, grad, a, b), into);
    }
  }

  /**
   * The gradient through the pairwise tree along {@code dim} that {@code BinaryUfunc.reduce} folds
   * (per level adjacent pairs, an odd level's last element set aside, the set-aside ones joining at
   * the end, the latest first), given {@code grad} of its result ({@code dim} of size 1).
   */
  private static Tensor treeBackward(BinaryUfunc u, Tensor w, int dim, Tensor grad) {
    List<Tensor> levels = new ArrayList<>(); // each level's input, its set-aside element included
    List<Tensor> aside = new ArrayList<>();
    List<Integer> asideLevel = new ArrayList<>();
    Tensor cur = w;
    while (cur.size(dim) > 1) {
      long n = cur.size(dim);
      levels.add(cur);
      if (n % 2 == 1) {
        aside.add(cur.narrow(dim, n - 1, 1));
        asideLevel.add(levels.size() - 1);
        n--;
      }
      cur = u.apply(cur.slice(dim, 0, n, 2), cur.slice(dim, 1, n, 2), null);
    }
    List<Tensor> joined = new ArrayList<>(); // the left operand of each join, in join order
    for (int i = aside.size() - 1; i >= 0; i--) {
      joined.add(cur);
      cur = u.apply(cur, aside.get(i), null);
    }
    ElementwiseOp op = u.op();
    Tensor g = grad;
    Tensor[] asideGrad = new Tensor[aside.size()];
    for (int j = joined.size() - 1; j >= 0; j--) { // the last join first
      int i = aside.size() - 1 - j;
      Tensor a = joined.get(j);
      Tensor b = aside.get(i);
      asideGrad[i] = partial(op, 1, g, a, b);
      g = partial(op, 0, g, a, b);
    }
    for (int level = levels.size() - 1; level >= 0; level--) {
      Tensor in = levels.get(level);
      long n = in.size(dim);
      long pairs = n - n % 2;
      Tensor left = in.slice(dim, 0, pairs, 2);
      Tensor right = in.slice(dim, 1, pairs, 2);
      Tensor gin = Tensor.zeros(g.dtype(), in.shapeRef());
      Copies.copyInto(partial(op, 0, g, left, right).expand(left.shapeRef()),
          gin.slice(dim, 0, pairs, 2));
      Copies.copyInto(partial(op, 1, g, left, right).expand(right.shapeRef()),
          gin.slice(dim, 1, pairs, 2));
      int k = asideLevel.indexOf(level);
      if (k >= 0) {
        Copies.copyInto(asideGrad[k].expand(aside.get(k).shapeRef()), gin.narrow(dim, n - 1, 1));
      }
      g = gin;
    }
    return g;
  }

  /**
   * The gradient through the strict left fold along {@code dim} ({@code y[i] = op(y[i-1], w[i])}),
   * given {@code grad} of its result ({@code dim} of size 1).
   */
  private static Tensor foldBackward(BinaryUfunc u, Tensor w, int dim, Tensor grad) {
    return chain(u, w, dim, grad, null);
  }

  /**
   * The chain through a left fold along {@code dim}: {@code last} is the gradient of the fold's
   * last value, {@code each} (null for a reduction) the gradient of every running value of an
   * accumulation. From the last step back, the carried gradient gives {@code w[i]} its part through
   * the op's second operand and carries on through its first, to {@code y[i-1]}.
   */
  private static Tensor chain(BinaryUfunc u, Tensor w, int dim, Tensor last, Tensor each) {
    ElementwiseOp op = u.op();
    long n = w.size(dim);
    Tensor running = u.accumulate(w, dim); // y[i], the fold's own order and bits
    Tensor gw = Tensor.zeros(last.dtype(), w.shapeRef());
    Tensor c = last;
    for (long i = n - 1; i >= 1; i--) {
      Tensor a = running.narrow(dim, i - 1, 1);
      Tensor b = w.narrow(dim, i, 1);
      Copies.copyInto(partial(op, 1, c, a, b).expand(b.shapeRef()), gw.narrow(dim, i, 1));
      c = partial(op, 0, c, a, b);
      if (each != null) {
        c = c.add(each.narrow(dim, i - 1, 1));
      }
    }
    Copies.copyInto(c.expand(w.narrow(dim, 0, 1).shapeRef()), gw.narrow(dim, 0, 1));
    return gw;
  }

  /** {@code grad} times the op's derivative in operand {@code i} at {@code (a, b)}. */
  private static Tensor partial(ElementwiseOp op, int i, Tensor grad, Tensor a, Tensor b) {
    Tensor operand = i == 0 ? a : b;
    return GradGraph.partial(op, i, grad, k -> k == 0 ? a : b, NO_SCALARS, operand.shape(),
        grad.dtype());
  }

  // ---- accumulate -------------------------------------------------------------------------------

  /** {@link BinaryUfunc#accumulate(Tensor, int, Tensor)} with recording. */
  static Tensor accumulate(BinaryUfunc u, Tensor x, int dim, Tensor out) {
    if (out != null) {
      throw GradGraph.outRefused(u.name() + ".accumulate");
    }
    Tensor result;
    try (var _ = GradGraph.noGrad()) {
      result = u.accumulate(x, dim, null);
    }
    if (!result.dtype().isFloatingPoint()) {
      return result;
    }
    long[] shape = x.shape();
    DType dtype = x.dtype();
    GradNode.Saved input = new GradNode.Saved(x);
    result.autogradMeta().gradFn = new Node(u.name() + ".accumulate", GradGraph.edge(x),
        (node, grad) -> {
          Tensor w = work(input.get(node));
          Tensor g = work(grad);
          if (w.ndim() == 0 || w.numel() == 0) {
            return GradGraph.fit(g, shape, dtype);
          }
          int d = Shapes.wrapDim(dim, w.ndim());
          long n = w.size(d);
          Tensor gw = chain(u, w, d, g.narrow(d, n - 1, 1), g);
          return GradGraph.fit(gw, shape, dtype);
        });
    return result;
  }

  // ---- reduceAt ---------------------------------------------------------------------------------

  /**
   * {@link BinaryUfunc#reduceAt(Tensor, Tensor, int, Tensor)} with recording. Each segment is a
   * recorded {@code reduce} of its slice along {@code dim} (so its node is the one {@code reduce}
   * records: sum's, amax's ties split evenly, the generated tree's, the left fold's chain), and
   * where {@code offsets[i] >= offsets[i+1]} the recorded slice {@code x[offsets[i]]} itself:
   * NumPy's value there, so its gradient is the identity at that element (docs/gradients.md). The
   * result is one node over the segments, whose backward hands each segment its slice of the
   * gradient; segments that overlap (offsets that go back) add up at {@code x}, as any reuse does.
   */
  static Tensor reduceAt(BinaryUfunc u, Tensor x, Tensor offsets, int dim, Tensor out) {
    if (out != null) {
      throw GradGraph.outRefused(u.name() + ".reduceAt");
    }
    Tensor value;
    try (var _ = GradGraph.noGrad()) {
      value = u.reduceAt(x, offsets, dim, null); // every check, and the result's dtype
    }
    if (!value.dtype().isFloatingPoint()) {
      return value; // predicates and integral folds carry no gradient
    }
    int d = Shapes.wrapDim(dim, x.ndim());
    long n = x.size(d);
    long[] start = offsets.to(DType.INT64).contiguous().toLongArray(); // checked: in [0, n)
    Tensor[] parts = new Tensor[start.length];
    GradNode[] edges = new GradNode[start.length];
    for (int i = 0; i < start.length; i++) {
      long end = i + 1 < start.length ? start[i + 1] : n;
      Tensor part = start[i] < end
          ? u.reduce(x.narrow(d, start[i], end - start[i]), new int[] {d}, true)
          : x.narrow(d, start[i], 1);
      parts[i] = part.dtype() == value.dtype() ? part : part.to(value.dtype());
      edges[i] = GradGraph.edge(parts[i]);
    }
    Tensor y = Tensor.empty(value.dtype(), value.shape());
    try (var _ = GradGraph.noGrad()) {
      for (int i = 0; i < parts.length; i++) {
        Copies.copyInto(parts[i], y.narrow(d, i, 1)); // the recorded segments' own values
      }
    }
    y.autogradMeta().gradFn = new Node(u.name() + ".reduceAt", edges, (node, grad) -> {
      Tensor[] g = new Tensor[parts.length];
      for (int i = 0; i < parts.length; i++) {
        g[i] = edges[i] == null ? null
            : GradGraph.fit(grad.narrow(d, i, 1), parts[i].shape(), parts[i].dtype());
      }
      return g;
    });
    return y;
  }

  // ---- at ---------------------------------------------------------------------------------------

  /**
   * {@link BinaryUfunc#at(Tensor, int, Tensor, Tensor)} when the target or the values are in a
   * graph: {@code add.at} records PyTorch's {@code index_add_} backward (the target's gradient
   * passes through; the values' is the gradient gathered at the indices, summed to their shape
   * where they were broadcast); any other op is refused, as is a leaf target that requires grad and
   * a target that is a view (its base's history would have to be rewritten).
   */
  static void at(BinaryUfunc u, Tensor target, int dim, Tensor indices, Tensor values) {
    if (!u.isBuiltin("add")) {
      throw new UnsupportedOperationException(
          u.name() + ".at: the in-place " + u.name() + " at indices is not differentiable in"
              + " ufunc4j (only add.at records, as index_add_); the target or the values require"
              + " grad: call it inside Autograd.noGrad(), on detach()ed tensors, or use the"
              + " out-of-place op");
    }
    if (GradGraph.isLeafRequiringGrad(target)) {
      throw new IllegalStateException(
          "add.at: a leaf tensor that requires grad is being used in an in-place operation;"
              + " update it inside Autograd.noGrad(), or apply add.at to a copy()");
    }
    if (target.viewOrigin() != null) {
      throw new UnsupportedOperationException(
          "add.at: the target is a view of another tensor's elements, and autograd is recording"
              + " (the target, its base or the values require grad); add.at records only on a"
              + " tensor that owns its elements: apply it to the view's base, or to a copy() of"
              + " the view");
    }
    GradNode targetEdge = GradGraph.edge(target); // its history before the write
    GradNode valuesEdge = GradGraph.edge(values);
    long[] valuesShape = values.shape();
    DType valuesDtype = values.dtype();
    try (var _ = GradGraph.noGrad()) {
      u.at(target, dim, indices, values); // every check, then the write
    }
    if (!target.dtype().isFloatingPoint()) {
      return;
    }
    int d = Shapes.wrapDim(dim, target.ndim());
    long size = target.size(d);
    boolean single = indices.ndim() == 0;
    Tensor index;
    try (var _ = GradGraph.noGrad()) {
      Tensor i64 = indices.to(DType.INT64).reshape(-1).copy(); // a copy: later writes can't move it
      index = Ops.where(Ops.lt(i64, 0), Ops.add(i64, size), i64);
    }
    target.autogradMeta().gradFn = new Node("add.at", new GradNode[] {targetEdge, valuesEdge},
        (node, grad) -> {
          Tensor picked = grad.indexSelect(d, index);
          if (single) {
            picked = picked.squeeze(d);
          }
          return new Tensor[] {targetEdge == null ? null : grad,
              valuesEdge == null ? null : GradGraph.fit(picked, valuesShape, valuesDtype)};
        });
  }

  // ---- shared -----------------------------------------------------------------------------------

  /**
   * The dtype the backward works in: float32 for the 16-bit dtypes (the forward carries their
   * folds in float32 too), else the tensor's own.
   */
  private static Tensor work(Tensor t) {
    DType d = t.dtype();
    return d == DType.FLOAT16 || d == DType.BFLOAT16 ? t.to(DType.FLOAT32) : t;
  }

  /** Which dims a reduction over {@code dims} covers (null or empty: all), already checked. */
  private static boolean[] reduced(Tensor x, int[] dims) {
    boolean[] reduced = new boolean[x.ndim()];
    if (dims == null || dims.length == 0) {
      Arrays.fill(reduced, true);
    } else if (x.ndim() > 0) {
      for (int dim : dims) {
        reduced[Shapes.wrapDim(dim, x.ndim())] = true;
      }
    }
    return reduced;
  }

  /** The backward of one ufunc method; {@code backward} maps the result's gradient. */
  private interface Backward {
    Tensor[] apply(Node node, Tensor grad);
  }

  /** One ufunc method's node; saved tensors are read through it (their version checked). */
  private static final class Node extends GradNode {
    private final String name;
    private final Backward backward;

    Node(String name, GradNode[] next, Backward backward) {
      super(next);
      this.name = name;
      this.backward = backward;
    }

    /** A node of one input, whose backward gives that input's gradient. */
    Node(String name, GradNode next, SingleBackward backward) {
      this(name, new GradNode[] {next}, (node, g) -> new Tensor[] {backward.apply(node, g)});
    }

    @Override
    String name() {
      return name;
    }

    @Override
    Tensor[] apply(Tensor grad) {
      return backward.apply(this, grad);
    }
  }

  private interface SingleBackward {
    Tensor apply(Node node, Tensor grad);
  }
}
