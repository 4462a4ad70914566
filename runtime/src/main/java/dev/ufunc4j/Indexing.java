package dev.ufunc4j;

import static dev.ufunc4j.internal.shape.Shapes.wrapDim;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.elements.Convert;
import dev.ufunc4j.internal.elements.Elements;
import dev.ufunc4j.internal.shape.MemoryOverlap;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Indexing by tensors: {@code indexSelect}, {@code gather}, {@code take}, {@code maskedFill},
 * {@code maskedSelect}, {@code nonzero} and {@code where(condition)}, with PyTorch's rules. Index
 * tensors are INT32 or INT64; negative indices count from the end where PyTorch allows them
 * ({@code take}, {@code indexSelect} refuses them as PyTorch's CPU kernel does). Every index is
 * checked before anything is allocated or written, and an error names the index and the size.
 */
final class Indexing {
  private Indexing() {}

  // ---- indexSelect -------------------------------------------------------------------------

  /** PyTorch's {@code index_select(dim, index)}: a copy of the slices {@code index} names. */
  static Tensor indexSelect(Tensor x, int dim, Tensor index) {
    requireIndex(index, "index_select()");
    if (index.ndim() > 1) {
      throw new IndexOutOfBoundsException("index_select(): Index is supposed to be a vector");
    }
    int nd = x.ndim();
    int d = wrapDim(dim, nd);
    long size = nd == 0 ? 1 : x.size(d);
    long[] idx = readIndices(index);
    for (int j = 0; j < idx.length; j++) {
      if (idx[j] < 0 || idx[j] >= size) {
        throw new IndexOutOfBoundsException(
            "index_select(): index " + idx[j] + " (at position " + j
                + ") is out of bounds for dimension " + d + " with size " + size);
      }
    }
    if (nd == 0) {
      Tensor out = x.copy();
      return index.ndim() == 0 ? out : out.reshape(idx.length);
    }
    long[] shape = x.shape();
    shape[d] = idx.length;
    Tensor out = Tensor.empty(x.dtype(), shape);
    long[][] maps = new long[nd][];
    maps[d] = idx;
    IndexMaps.copy(x, maps, out);
    long[] from = x.shape();
    return CompositeNode.record(x, out, "index_select", g -> indexAdd(from, d, idx, g));
  }

  /** Zeros of {@code shape} with slice {@code j} of {@code src} added at {@code idx[j]}. */
  private static Tensor indexAdd(long[] shape, int dim, long[] idx, Tensor src) {
    Tensor acc = Tensor.zeros(src.dtype(), shape);
    for (int j = 0; j < idx.length; j++) {
      Tensor slot = acc.select(dim, idx[j]);
      Ops.add(slot, src.select(dim, j), slot);
    }
    return acc;
  }

  // ---- gather and take ---------------------------------------------------------------------

  /**
   * PyTorch's {@code gather(dim, index)}: {@code out[i][j][k] = x[index[i][j][k]][j][k]} for
   * {@code dim} 0, and so on; {@code index} has {@code x}'s rank and no larger size but in {@code
   * dim}.
   */
  static Tensor gather(Tensor x, int dim, Tensor index) {
    requireIndex(index, "gather()");
    int nd = x.ndim();
    int d = wrapDim(dim, nd);
    if (index.ndim() != nd && !(nd == 0 && index.ndim() <= 1)) {
      throw new IllegalArgumentException(
          "Index tensor must have the same number of dimensions as input tensor");
    }
    long[] ishape = index.shape();
    for (int k = 0; k < index.ndim() && nd > 0; k++) {
      if (k != d && ishape[k] > x.size(k)) {
        throw new IllegalArgumentException(
            "Size does not match at dimension " + k + " expected index " + Arrays.toString(ishape)
                + " to be no larger than self " + Arrays.toString(x.shapeRef())
                + " apart from dimension " + d);
      }
    }
    long size = nd == 0 ? 1 : x.size(d);
    Tensor idx = index.to(DType.INT64).contiguous();
    long n = idx.numel();
    MemorySegment iseg = idx.segment();
    long ibase = idx.offset();
    for (long i = 0; i < n; i++) {
      long v = iseg.get(ValueLayout.JAVA_LONG, (ibase + i) * 8);
      if (v < 0 || v >= size) { // gather counts no index from the end (PyTorch)
        throw new IndexOutOfBoundsException(
            "index " + v + " is out of bounds for dimension " + d + " with size " + size);
      }
    }
    Tensor out = Tensor.empty(x.dtype(), ishape);
    long[] pos = new long[ishape.length];
    long[] xs = x.stridesRef();
    int bytes = x.dtype().byteSize();
    long[] os = out.stridesRef();
    for (long i = 0; i < n; i++) {
      long v = iseg.get(ValueLayout.JAVA_LONG, (ibase + i) * 8);
      long src = x.offset();
      long dst = out.offset();
      for (int k = 0; k < pos.length; k++) {
        src += (k == d ? v : pos[k]) * (nd == 0 ? 0 : xs[k]);
        dst += pos[k] * os[k];
      }
      MemorySegment.copy(x.segment(), src * bytes, out.segment(), dst * bytes, bytes);
      advance(pos, ishape);
    }
    long[] from = x.shape();
    return CompositeNode.record(x, out, "gather", g -> scatterAdd(from, d, idx, g));
  }

  /** Zeros of {@code shape} plus {@code src} added at the positions {@code index} gathered. */
  private static Tensor scatterAdd(long[] shape, int dim, Tensor index, Tensor src) {
    DType t = src.dtype();
    Tensor acc = Tensor.zeros(t, shape);
    Tensor s = src.contiguous();
    long[] ishape = index.shapeRef();
    long[] pos = new long[ishape.length];
    long[] as = acc.stridesRef();
    int bytes = t.byteSize();
    for (long i = 0; i < index.numel(); i++) {
      long v = index.segment().get(ValueLayout.JAVA_LONG, (index.offset() + i) * 8);
      long at = 0;
      for (int k = 0; k < pos.length && shape.length > 0; k++) {
        at += (k == dim ? v : pos[k]) * as[k];
      }
      // one rounding per add, in the dtype, in index order (PyTorch's serial CPU scatter_add)
      double old = Convert.toDouble(t, Elements.read(acc.segment(), t, at * bytes));
      double add = Convert.toDouble(t, Elements.read(s.segment(), t, (s.offset() + i) * bytes));
      Elements.write(acc.segment(), t, at * bytes, Convert.fromDouble(t, old + add));
      advance(pos, ishape);
    }
    return acc;
  }

  // ---- scatter and scatterAdd ----------------------------------------------------------------

  /**
   * PyTorch's {@code scatter(dim, index, src)} ({@code add} false) and {@code scatter_add(dim,
   * index, src)}: a copy of {@code x} with {@code out[index[i][j]][j] = src[i][j]} (or {@code +=})
   * for dim 0, and so on, in index order (a repeated index: the last write wins, or every add
   * counts, each rounded in the dtype as PyTorch's serial CPU loop). {@code index} is INT64 (or
   * INT32, as PyTorch 2.13 accepts) of
   * {@code x}'s rank, no larger than {@code src} and, apart from {@code dim}, than {@code x}.
   * Every check (dtypes, ranks, sizes, each index against {@code x.size(dim)}) precedes the
   * copy; an error names the index and the size. Not through {@code Ops.add.at}: that adds whole
   * slices at one index each, where scatter gives every element its own. Gradients: to {@code x}
   * the gradient (scatter: 0 where written), to {@code src} the gradient gathered at {@code index}
   * (zeros where src is larger than index; PyTorch's own backward fails there).
   */
  static Tensor scatter(Tensor x, int dim, Tensor index, Tensor src, boolean add) {
    return scatter(x, dim, index, src, add, false);
  }

  /**
   * {@link #scatter(Tensor, int, Tensor, Tensor, boolean)} into {@code x} itself when {@code
   * inPlace} ({@code scatter_}, {@code scatter_add_}): refused, before anything is written, where
   * {@code x} requires gradients or is part of the graph (PyTorch's in-place rule) or has a
   * dimension of stride 0; a {@code src} that shares memory with {@code x} is read as it was.
   */
  static Tensor scatter(Tensor x, int dim, Tensor index, Tensor src, boolean add,
      boolean inPlace) {
    String name = (add ? "scatter_add" : "scatter") + (inPlace ? "_" : "");
    if (x == null || index == null || src == null) {
      throw new IllegalArgumentException(name + ": " + (x == null ? "the tensor"
          : index == null ? "the index tensor" : "src") + " must not be null");
    }
    requireIndex(index, name + "()");
    if (x.dtype() != src.dtype()) {
      // PyTorch's text, "scatter()" for scatter_add too
      throw new IllegalArgumentException("scatter(): Expected self.dtype to be equal to src.dtype");
    }
    int nd = x.ndim();
    int d = wrapDim(dim, nd);
    long[] ishape = index.shape();
    if (index.numel() > 0) {
      if (index.ndim() != nd && !(nd <= 1 && index.ndim() <= 1)) {
        throw new IllegalArgumentException(
            "Index tensor must have the same number of dimensions as self tensor");
      }
      if (index.ndim() != src.ndim() && !(src.ndim() <= 1 && index.ndim() <= 1)) {
        throw new IllegalArgumentException(
            "Index tensor must have the same number of dimensions as src tensor");
      }
      for (int k = 0; k < index.ndim(); k++) {
        long srcSize = src.ndim() == 0 ? 1 : src.size(k);
        long selfSize = nd == 0 ? 1 : x.size(k);
        if (ishape[k] > srcSize || (k != d && ishape[k] > selfSize)) {
          throw new IllegalArgumentException("Expected index " + Arrays.toString(ishape)
              + " to be no larger than self " + Arrays.toString(x.shapeRef())
              + " apart from dimension " + d + " and to be no larger size than src "
              + Arrays.toString(src.shapeRef()));
        }
      }
    }
    long size = nd == 0 ? 1 : x.size(d);
    Tensor idx = index.to(DType.INT64).contiguous();
    long n = idx.numel();
    for (long i = 0; i < n; i++) {
      long v = idx.segment().get(ValueLayout.JAVA_LONG, (idx.offset() + i) * 8);
      if (v < 0 || v >= size) { // no index counts from the end (PyTorch)
        throw new IndexOutOfBoundsException(
            "index " + v + " is out of bounds for dimension " + d + " with size " + size);
      }
    }
    if (inPlace) {
      if (MemoryOverlap.hasInternalOverlap(x.strided())) {
        throw new IllegalArgumentException(name + ": the tensor has a dimension of stride 0 (an"
            + " expanded view), so one element would stand for several; write into a copy");
      }
      GradGraph.beforeWrite(x, name);
      Tensor from = MemoryOverlap.overlap(x.strided(), src.strided()) == MemoryOverlap.Status.NONE ? src : src.copy();
      write(x, d, idx, from, add);
      return x;
    }
    Tensor out = x.copy();
    write(out, d, idx, src, add);
    long[] srcShape = src.shape();
    return CompositeNode.record(new Tensor[] {x, src}, out, name, g -> new Tensor[] {
        add ? g : scatterValue(g, d, idx, 0.0),
        gatherInto(g, d, idx, srcShape)});
  }

  /** {@code scatter(dim, index, value)}: {@code value}, converted to x's dtype, as src. */
  static Tensor scatterValue(Tensor x, int dim, Tensor index, double value) {
    return scatterValue(x, dim, index, value, false);
  }

  static Tensor scatterValue(Tensor x, int dim, Tensor index, double value, boolean inPlace) {
    if (x == null || index == null) {
      throw new IllegalArgumentException(
          "scatter: " + (x == null ? "the tensor" : "the index tensor") + " must not be null");
    }
    Tensor src = Tensor.full(x.dtype(), value, index.shape());
    return scatter(x, dim, index, src, false, inPlace);
  }

  /**
   * Writes (or adds) {@code src} into {@code out} at the positions {@code idx} names. The 16-bit
   * floats add in float32 (complex32 in complex64) and round once at the end, as PyTorch's
   * scatter_add accumulates them in its opmath type.
   */
  private static void write(Tensor out, int dim, Tensor idx, Tensor src, boolean add) {
    DType t = out.dtype();
    if (add && (t == DType.FLOAT16 || t == DType.BFLOAT16 || t == DType.COMPLEX32)) {
      DType wide = t.isComplex() ? DType.COMPLEX64 : DType.FLOAT32;
      Tensor acc = Tensor.empty(wide, out.shape());
      Copies.copyInto(out, acc);
      write(acc, dim, idx, src.to(wide), true);
      Copies.copyInto(acc, out);
      return;
    }
    int bytes = t.byteSize();
    long[] ishape = idx.shapeRef();
    long[] pos = new long[ishape.length];
    long[] os = out.stridesRef();
    long[] ss = src.stridesRef();
    boolean sameRank = src.ndim() == pos.length;
    for (long i = 0; i < idx.numel(); i++) {
      long v = idx.segment().get(ValueLayout.JAVA_LONG, (idx.offset() + i) * 8);
      long at = out.offset();
      long from = src.offset();
      for (int k = 0; k < pos.length; k++) {
        if (out.ndim() > 0) {
          at += (k == dim ? v : pos[k]) * os[k];
        }
        if (sameRank) {
          from += pos[k] * ss[k];
        }
      }
      if (add) {
        addInto(t, out.segment(), at * bytes, src.segment(), from * bytes);
      } else {
        MemorySegment.copy(src.segment(), from * bytes, out.segment(), at * bytes, bytes);
      }
      advance(pos, ishape);
    }
  }

  /** One element of {@code src} added into one of {@code out}, rounded once in the dtype. */
  private static void addInto(DType t, MemorySegment out, long at, MemorySegment src, long from) {
    if (t.isComplex()) {
      DType c = t.componentType();
      addInto(c, out, at, src, from);
      addInto(c, out, at + c.byteSize(), src, from + c.byteSize());
      return;
    }
    long a = Elements.read(out, t, at);
    long b = Elements.read(src, t, from);
    long sum;
    if (t == DType.BOOL) {
      sum = (a | b) != 0 ? 1 : 0; // PyTorch adds bools as a logical or
    } else if (t.isIntegral(true)) {
      sum = Convert.fromLong(t, a + b, false); // wraps at the dtype's width
    } else {
      // Double holds a sum of two float32 (or narrower) values closely enough that rounding it
      // to the dtype rounds the exact sum once.
      sum = Convert.fromDouble(t, Convert.toDouble(t, a) + Convert.toDouble(t, b));
    }
    Elements.write(out, t, at, sum);
  }

  /** {@code g} gathered at {@code idx} along {@code dim}, in zeros of {@code shape} (src's). */
  private static Tensor gatherInto(Tensor g, int dim, Tensor idx, long[] shape) {
    Tensor gathered = gather(g, dim, idx);
    if (Arrays.equals(gathered.shapeRef(), shape)) {
      return gathered;
    }
    Tensor acc = Tensor.zeros(g.dtype(), shape);
    Tensor part = acc;
    for (int k = 0; k < shape.length && k < gathered.ndim(); k++) {
      part = part.narrow(k, 0, gathered.size(k));
    }
    Copies.copyInto(gathered.reshape(part.shape()), part);
    return acc;
  }

  /** PyTorch's {@code take(index)}: elements of the flattened tensor, in {@code index}'s shape. */
  static Tensor take(Tensor x, Tensor index) {
    requireIndex(index, "take()");
    long n = x.numel();
    long[] idx = readIndices(index);
    for (long v : idx) {
      if (v < -n || v >= n) {
        throw new IndexOutOfBoundsException(
            "out of range: tried to access index " + v + " on a tensor of " + n + " elements.");
      }
    }
    Tensor flat = x.reshape(-1);
    long[] wrapped = new long[idx.length];
    for (int i = 0; i < idx.length; i++) {
      wrapped[i] = idx[i] < 0 ? idx[i] + n : idx[i];
    }
    Tensor picked = indexSelect(flat, 0, Tensor.of(wrapped));
    return picked.reshape(index.shapeRef());
  }

  // ---- masks -------------------------------------------------------------------------------

  /**
   * PyTorch's {@code masked_fill(mask, value)}: {@code value} where {@code mask} is true, {@code
   * x} elsewhere, with {@code x}'s dtype ({@code value} converted as {@code fill} does) and the
   * broadcast shape of {@code x} and {@code mask}.
   */
  static Tensor maskedFill(Tensor x, Tensor mask, Tensor value) {
    requireMask(mask, "masked_fill_");
    if (value.ndim() != 0) {
      throw new IllegalArgumentException(
          "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
              + value.ndim() + " dimension(s).");
    }
    Tensor v = value.to(x.dtype());
    return Ops.where(mask, v, x);
  }

  /** PyTorch's {@code masked_select(mask)}: the elements where the broadcast mask is true, 1-D. */
  static Tensor maskedSelect(Tensor x, Tensor mask) {
    if (mask != null && mask.dtype() != DType.BOOL) {
      throw new IllegalArgumentException("masked_select: expected BoolTensor for mask");
    }
    requireMask(mask, "masked_select()");
    long[] shape = Broadcast.shapes(x.shapeRef(), mask.shapeRef());
    Tensor xs = x.expand(shape);
    Tensor picked = take(xs.contiguous(), nonzeroFlat(mask.expand(shape)));
    return picked;
  }

  /**
   * PyTorch's {@code nonzero()}: the indices of the nonzero elements, {@code [count, ndim]} INT64,
   * in row-major order.
   */
  static Tensor nonzero(Tensor x) {
    int nd = x.ndim();
    Tensor flat = nonzeroFlat(x);
    long count = flat.numel();
    Tensor out = Tensor.empty(DType.INT64, count, nd);
    long[] shape = x.shapeRef();
    for (long i = 0; i < count; i++) {
      long f = flat.segment().get(ValueLayout.JAVA_LONG, i * 8);
      for (int k = nd - 1; k >= 0; k--) {
        out.segment().set(ValueLayout.JAVA_LONG, (i * nd + k) * 8, f % shape[k]);
        f /= shape[k];
      }
    }
    return out;
  }

  /** PyTorch's one-argument {@code where(condition)}: {@code nonzero(as_tuple=True)}. */
  static Tensor[] whereNonzero(Tensor condition) {
    Tensor nz = nonzero(condition);
    int nd = condition.ndim();
    if (nd == 0) {
      return new Tensor[] {Tensor.zeros(DType.INT64, nz.size(0))};
    }
    Tensor[] out = new Tensor[nd];
    for (int k = 0; k < nd; k++) {
      out[k] = nz.select(1, k).contiguous();
    }
    return out;
  }

  /** Flat (row-major) positions of the nonzero elements of {@code x}, INT64. */
  private static Tensor nonzeroFlat(Tensor x) {
    DType t = x.dtype();
    Tensor c = x.contiguous();
    long n = c.numel();
    int bytes = t.byteSize();
    long[] found = new long[16];
    int count = 0;
    for (long i = 0; i < n; i++) {
      long at = (c.offset() + i) * bytes;
      boolean nonzero;
      if (t.isComplex()) {
        DType ct = t.componentType();
        nonzero = Convert.toBoolean(ct, Elements.read(c.segment(), ct, at))
            || Convert.toBoolean(ct, Elements.read(c.segment(), ct, at + ct.byteSize()));
      } else {
        nonzero = Convert.toBoolean(t, Elements.read(c.segment(), t, at));
      }
      if (nonzero) {
        if (count == found.length) {
          found = Arrays.copyOf(found, Math.toIntExact(Math.min(2L * count, Integer.MAX_VALUE - 8)));
        }
        found[count++] = i;
      }
    }
    return Tensor.of(Arrays.copyOf(found, count));
  }

  // ---- checks and helpers ------------------------------------------------------------------

  private static void requireIndex(Tensor index, String op) {
    if (index == null) {
      throw new IllegalArgumentException(op + ": the index tensor must not be null");
    }
    if (index.dtype() != DType.INT64 && index.dtype() != DType.INT32) {
      throw new IllegalArgumentException(
          op + ": Expected dtype int32 or int64 for index, got " + index.dtype().torchName());
    }
  }

  private static void requireMask(Tensor mask, String op) {
    if (mask == null) {
      throw new IllegalArgumentException(op + ": the mask must not be null");
    }
    if (mask.dtype() != DType.BOOL) {
      throw new IllegalArgumentException(
          op + " only supports boolean masks, but got mask with dtype "
              + mask.dtype().torchName());
    }
  }

  /** The indices of a 0-dim or 1-dim (any shape, for take) integer tensor, row-major. */
  private static long[] readIndices(Tensor index) {
    Tensor i64 = index.to(DType.INT64).contiguous();
    long[] out = new long[Math.toIntExact(i64.numel())];
    MemorySegment.copy(i64.segment(), ValueLayout.JAVA_LONG, i64.offset() * 8, out, 0, out.length);
    return out;
  }

  private static void advance(long[] pos, long[] shape) {
    for (int k = pos.length - 1; k >= 0; k--) {
      if (++pos[k] < shape[k]) {
        return;
      }
      pos[k] = 0;
    }
  }
}
