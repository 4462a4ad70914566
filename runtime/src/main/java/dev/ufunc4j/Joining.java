package dev.ufunc4j;

import static dev.ufunc4j.internal.shape.Shapes.wrapDim;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.Promotion;
import java.util.Arrays;
import java.util.List;

/**
 * Joining, splitting and reordering: {@code cat}, {@code stack}, {@code split}, {@code chunk},
 * {@code flip}, {@code roll}, {@code repeat}, {@code tile}, {@code movedim} (PyTorch's names,
 * rules and error texts; {@code docs/ops.md}). {@code split}, {@code chunk} and {@code movedim}
 * return views, as PyTorch does; the others copy. Every check runs before anything is allocated
 * or written.
 */
final class Joining {
  private Joining() {}

  // ---- cat and stack ------------------------------------------------------------------------

  static Tensor cat(List<Tensor> tensors, int dim) {
    if (tensors == null) {
      throw new IllegalArgumentException("cat(): expected a list of Tensors, got null");
    }
    return cat(tensors.toArray(new Tensor[0]), dim);
  }

  /**
   * PyTorch's {@code torch.cat}: the tensors' common dtype ({@code result_type} of the list), sizes
   * equal but in {@code dim}; one-dimensional empty tensors ({@code [0]}) are skipped, as PyTorch's
   * legacy rule does.
   */
  static Tensor cat(Tensor[] tensors, int dim) {
    if (tensors == null || tensors.length == 0) {
      throw new IllegalArgumentException("torch.cat(): expected a non-empty list of Tensors");
    }
    Tensor ref = null;
    DType dtype = null;
    for (int i = 0; i < tensors.length; i++) {
      Tensor t = tensors[i];
      if (t == null) {
        throw new IllegalArgumentException("cat(): tensor " + i + " in the list is null");
      }
      if (t.ndim() == 0) {
        throw new IllegalArgumentException(
            "zero-dimensional tensor (at position " + i + ") cannot be concatenated");
      }
      dtype = dtype == null ? t.dtype() : Promotion.promoteTypes(dtype, t.dtype());
      if (ref == null && !isLegacyEmpty(t)) {
        ref = t;
      }
    }
    if (ref == null) {
      ref = tensors[0]; // every tensor is [0]: the result is [0]
    }
    return catChecked(tensors, ref, dtype, wrapDim(dim, ref.ndim()));
  }

  private static Tensor catChecked(Tensor[] tensors, Tensor ref, DType dtype, int d) {
    long[] shape = ref.shape();
    long total = 0;
    for (int i = 0; i < tensors.length; i++) {
      Tensor t = tensors[i];
      if (isLegacyEmpty(t) && t != ref) {
        continue;
      }
      if (t.ndim() != ref.ndim()) {
        throw new IllegalArgumentException(
            "Tensors must have same number of dimensions: got " + ref.ndim() + " and "
                + t.ndim());
      }
      for (int k = 0; k < shape.length; k++) {
        if (k != d && t.size(k) != shape[k]) {
          throw new IllegalArgumentException(
              "Sizes of tensors must match except in dimension " + d + ". Expected size "
                  + shape[k] + " but got size " + t.size(k) + " for tensor number " + i
                  + " in the list.");
        }
      }
      total = Math.addExact(total, t.size(d));
    }
    shape[d] = total;
    Tensor out = Tensor.empty(dtype, shape);
    long[] starts = new long[tensors.length];
    long at = 0;
    for (int i = 0; i < tensors.length; i++) {
      Tensor t = tensors[i];
      starts[i] = at;
      if (isLegacyEmpty(t) && t != ref) {
        continue;
      }
      Copies.copyInto(t, out.narrow(d, at, t.size(d)));
      at += t.size(d);
    }
    return CompositeNode.record(tensors, out, "cat", g -> {
      Tensor[] grads = new Tensor[tensors.length];
      for (int i = 0; i < tensors.length; i++) {
        Tensor t = tensors[i];
        if (isLegacyEmpty(t) && t != ref) {
          grads[i] = Tensor.zeros(t.dtype(), t.shapeRef());
        } else {
          grads[i] = g.narrow(d, starts[i], t.size(d)).to(t.dtype()).contiguous();
        }
      }
      return grads;
    });
  }

  private static boolean isLegacyEmpty(Tensor t) {
    return t.ndim() == 1 && t.size(0) == 0;
  }

  /** PyTorch's {@code torch.stack}: equal shapes, joined along a new dimension {@code dim}. */
  static Tensor stack(Tensor[] tensors, int dim) {
    if (tensors == null || tensors.length == 0) {
      throw new IllegalArgumentException("stack expects a non-empty TensorList");
    }
    for (int i = 0; i < tensors.length; i++) {
      if (tensors[i] == null) {
        throw new IllegalArgumentException("stack(): tensor " + i + " in the list is null");
      }
      if (!Arrays.equals(tensors[i].shapeRef(), tensors[0].shapeRef())) {
        throw new IllegalArgumentException(
            "stack expects each tensor to be equal size, but got "
                + Arrays.toString(tensors[0].shapeRef()) + " at entry 0 and "
                + Arrays.toString(tensors[i].shapeRef()) + " at entry " + i);
      }
    }
    int d = wrapDim(dim, tensors[0].ndim() + 1);
    Tensor[] lifted = new Tensor[tensors.length];
    for (int i = 0; i < tensors.length; i++) {
      lifted[i] = tensors[i].unsqueeze(d);
    }
    return cat(lifted, d);
  }

  static Tensor stack(List<Tensor> tensors, int dim) {
    if (tensors == null) {
      throw new IllegalArgumentException("stack(): expected a list of Tensors, got null");
    }
    return stack(tensors.toArray(new Tensor[0]), dim);
  }

  // ---- split and chunk (views) ----------------------------------------------------------------

  /** PyTorch's {@code split(split_size, dim)}: pieces of {@code size}, the last one smaller. */
  static Tensor[] split(Tensor x, long size, int dim) {
    if (x.ndim() == 0) {
      throw new IllegalArgumentException("split expects at least a 1-dimensional tensor");
    }
    int d = wrapDim(dim, x.ndim());
    long n = x.size(d);
    if (size < 0 || (size == 0 && n != 0)) {
      throw new IllegalArgumentException(
          "split_size can only be 0 if dimension size is 0, but got dimension size of " + n
              + (size < 0 ? " (split_size " + size + " must be non-negative)" : ""));
    }
    long pieces = size == 0 ? 1 : Math.max(1, (n + size - 1) / size);
    Tensor[] out = new Tensor[Math.toIntExact(pieces)];
    for (int i = 0; i < out.length; i++) {
      long start = i * size;
      out[i] = x.narrow(d, start, Math.min(size, n - start));
    }
    return out;
  }

  /** PyTorch's {@code split(split_sizes, dim)} ({@code split_with_sizes}). */
  static Tensor[] split(Tensor x, long[] sizes, int dim) {
    if (sizes == null) {
      throw new IllegalArgumentException("split_sizes must not be null");
    }
    if (x.ndim() == 0) {
      throw new IllegalArgumentException("split expects at least a 1-dimensional tensor");
    }
    int d = wrapDim(dim, x.ndim());
    long n = x.size(d);
    long sum = 0;
    for (long s : sizes) {
      if (s < 0) {
        throw new IllegalArgumentException(
            "split_with_sizes expects split_sizes have only non-negative entries, but got"
                + " split_sizes=" + Arrays.toString(sizes));
      }
      sum += s;
    }
    if (sum != n) {
      throw new IllegalArgumentException(
          "split_with_sizes expects split_sizes to sum exactly to " + n
              + " (input tensor's size at dimension " + d + "), but got split_sizes="
              + Arrays.toString(sizes));
    }
    Tensor[] out = new Tensor[sizes.length];
    long start = 0;
    for (int i = 0; i < sizes.length; i++) {
      out[i] = x.narrow(d, start, sizes[i]);
      start += sizes[i];
    }
    return out;
  }

  /** PyTorch's {@code chunk}: pieces of {@code ceil(n / chunks)}; may give fewer than asked. */
  static Tensor[] chunk(Tensor x, int chunks, int dim) {
    if (x.ndim() == 0) {
      throw new IllegalArgumentException("chunk expects at least a 1-dimensional tensor");
    }
    if (chunks <= 0) {
      throw new IllegalArgumentException(
          "chunk expects `chunks` to be greater than 0, got: " + chunks);
    }
    int d = wrapDim(dim, x.ndim());
    long n = x.size(d);
    long size = (n + chunks - 1) / chunks;
    if (n == 0) { // PyTorch gives `chunks` empty pieces
      Tensor[] out = new Tensor[chunks];
      for (int i = 0; i < chunks; i++) {
        out[i] = x.narrow(d, 0, 0);
      }
      return out;
    }
    return split(x, size, d);
  }

  // ---- reordering copies ----------------------------------------------------------------------

  /** PyTorch's {@code flip}: a copy with the order of {@code dims} reversed. */
  static Tensor flip(Tensor x, int... dims) {
    if (dims == null) {
      throw new IllegalArgumentException("dims must not be null");
    }
    int nd = x.ndim();
    long[][] maps = new long[Math.max(nd, 0)][];
    boolean[] seen = new boolean[Math.max(nd, 1)];
    for (int dim : dims) {
      int d = wrapDim(dim, nd);
      if (seen[d]) {
        throw new IllegalArgumentException("dim " + d + " appears multiple times in the list of dims");
      }
      seen[d] = true;
      if (nd == 0) {
        continue;
      }
      long n = x.size(d);
      long[] m = new long[mappedLength(n, d)];
      for (int i = 0; i < m.length; i++) {
        m[i] = n - 1 - i;
      }
      maps[d] = m;
    }
    Tensor out = mapped(x, maps, x.shapeRef());
    int[] flipped = dims.clone();
    return CompositeNode.record(x, out, "flip", g -> flip(g, flipped));
  }

  /**
   * PyTorch's {@code roll}: elements shifted by {@code shifts[i]} along {@code dims[i]}, wrapping
   * around; with no dims, the flattened tensor is rolled and the shape restored.
   */
  static Tensor roll(Tensor x, long[] shifts, int[] dims) {
    if (shifts == null || dims == null) {
      throw new IllegalArgumentException("shifts and dims must not be null");
    }
    if (dims.length == 0) {
      if (shifts.length != 1) {
        throw new IllegalArgumentException(
            "shifts and dimensions must align. shifts: " + shifts.length + ", dims:0");
      }
      long[] shape = x.shape();
      return roll(x.flatten(), shifts, new int[] {0}).view(shape);
    }
    if (shifts.length != dims.length) {
      throw new IllegalArgumentException(
          "shifts and dimensions must align. shifts: " + shifts.length + ", dims:"
              + dims.length);
    }
    int nd = x.ndim();
    long[][] maps = new long[nd][];
    long[] total = new long[Math.max(nd, 1)];
    for (int i = 0; i < dims.length; i++) {
      int d = wrapDim(dims[i], nd);
      total[d] += shifts[i];
    }
    for (int d = 0; d < nd; d++) {
      long n = x.size(d);
      if (total[d] == 0 || n == 0) {
        continue;
      }
      long s = Math.floorMod(total[d], n);
      long[] m = new long[mappedLength(n, d)];
      for (int i = 0; i < m.length; i++) {
        m[i] = Math.floorMod(i - s, n);
      }
      maps[d] = m;
    }
    Tensor out = mapped(x, maps, x.shapeRef());
    long[] back = new long[shifts.length];
    for (int i = 0; i < shifts.length; i++) {
      back[i] = -shifts[i];
    }
    int[] dimsCopy = dims.clone();
    return CompositeNode.record(x, out, "roll", g -> roll(g, back, dimsCopy));
  }

  /**
   * PyTorch's {@code repeat}: the tensor tiled {@code repeats[i]} times along dimension {@code
   * i}; {@code repeats} may have more entries than the tensor has dimensions (leading ones are
   * added), never fewer.
   */
  static Tensor repeat(Tensor x, long... repeats) {
    if (repeats == null) {
      throw new IllegalArgumentException("repeats must not be null");
    }
    if (repeats.length < x.ndim()) {
      throw new IllegalArgumentException(
          "Number of dimensions of repeat dims can not be smaller than number of dimensions of"
              + " tensor");
    }
    int nd = repeats.length;
    long[] padded = new long[nd];
    Arrays.fill(padded, 1);
    System.arraycopy(x.shapeRef(), 0, padded, nd - x.ndim(), x.ndim());
    long[] shape = new long[nd];
    for (int d = 0; d < nd; d++) {
      shape[d] = Math.multiplyExact(padded[d], repeats[d]);
    }
    for (long s : shape) {
      if (s < 0) { // PyTorch names the result's shape
        throw new IllegalArgumentException(
            "Trying to create tensor with negative dimension " + s + ": " + Arrays.toString(shape));
      }
    }
    Tensor base = x.reshape(padded);
    long[][] maps = new long[nd][];
    for (int d = 0; d < nd; d++) {
      if (repeats[d] != 1 && shape[d] > 0) {
        maps[d] = IndexMaps.modulo(mappedLength(shape[d], d), padded[d]);
      }
    }
    Tensor out = mapped(base, maps, shape);
    long[] from = x.shape();
    return CompositeNode.record(x, out, "repeat", g -> {
      // [r0 * s0, r1 * s1, ...] -> [r0, s0, r1, s1, ...], summed over the r's
      long[] split = new long[2 * nd];
      int[] sumDims = new int[nd];
      for (int d = 0; d < nd; d++) {
        split[2 * d] = repeats[d];
        split[2 * d + 1] = padded[d];
        sumDims[d] = 2 * d;
      }
      return g.reshape(split).sum(sumDims, false).reshape(from);
    });
  }

  /** PyTorch's {@code tile}: {@link #repeat}, with {@code dims} padded by leading ones. */
  static Tensor tile(Tensor x, long... dims) {
    if (dims == null) {
      throw new IllegalArgumentException("dims must not be null");
    }
    int nd = Math.max(dims.length, x.ndim());
    long[] repeats = new long[nd];
    Arrays.fill(repeats, 1);
    System.arraycopy(dims, 0, repeats, nd - dims.length, dims.length);
    return repeat(x, repeats);
  }

  /** PyTorch's {@code movedim}: a view with {@code source} dims moved to {@code destination}. */
  static Tensor movedim(Tensor x, int[] source, int[] destination) {
    if (source == null || destination == null) {
      throw new IllegalArgumentException("source and destination must not be null");
    }
    if (source.length != destination.length) {
      throw new IllegalArgumentException(
          "movedim: Invalid source or destination dims: source (" + Arrays.toString(source)
              + " dims) should contain the same number of dims as destination ("
              + Arrays.toString(destination) + " dims)");
    }
    int nd = x.ndim();
    int[] order = new int[nd];
    Arrays.fill(order, -1);
    boolean[] used = new boolean[Math.max(nd, 1)];
    boolean[] srcSeen = new boolean[Math.max(nd, 1)];
    for (int i = 0; i < source.length; i++) {
      int s = wrapDim(source[i], nd);
      int t = wrapDim(destination[i], nd);
      if (srcSeen[s]) {
        throw new IllegalArgumentException("movedim: repeated dim in `source` ("
            + Arrays.toString(source) + ")");
      }
      if (used[t]) {
        throw new IllegalArgumentException("movedim: repeated dim in `destination` ("
            + Arrays.toString(destination) + ")");
      }
      srcSeen[s] = true;
      used[t] = true;
      if (nd > 0) {
        order[t] = s;
      }
    }
    int next = 0;
    for (int t = 0; t < nd; t++) {
      if (order[t] >= 0) {
        continue;
      }
      while (srcSeen[next]) {
        next++;
      }
      order[t] = next++;
    }
    return nd == 0 ? x.view(x.shapeRef()) : x.permute(order);
  }

  // ---- helpers ------------------------------------------------------------------------------

  private static Tensor mapped(Tensor x, long[][] maps, long[] shape) {
    Tensor out = Tensor.empty(x.dtype(), shape);
    IndexMaps.copy(x, maps, out);
    return out;
  }

  /** The length of an index map: the JVM's arrays end at 2^31 - 1 entries. */
  private static int mappedLength(long size, int dim) {
    if (size > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "dimension " + dim + " has " + size + " elements; reordering copies support up to "
              + (Integer.MAX_VALUE - 8) + " along one dimension");
    }
    return (int) size;
  }
}
