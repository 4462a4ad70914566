package dev.ufunc4j;

import static dev.ufunc4j.internal.shape.Shapes.wrapDim;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.elements.Convert;
import dev.ufunc4j.internal.elements.Elements;
import java.lang.foreign.MemorySegment;

/**
 * The everyday reductions beyond {@code sum}/{@code mean}/{@code amax}/{@code amin}: {@code var},
 * {@code std}, {@code argmax}/{@code argmin}, {@code max}/{@code min} over a dim with their
 * indices, {@code countNonzero} and {@code norm}. {@code var}, {@code std}, {@code countNonzero}
 * and {@code norm} are compositions of recorded ops, so their gradients come from those ops; the
 * index searches are one loop here ({@code docs/ops.md}).
 */
final class Statistics {
  private Statistics() {}

  // ---- var and std ---------------------------------------------------------------------------

  /**
   * PyTorch's {@code var(dim, correction, keepdim)}: {@code sum((x - mean)^2) / (N - correction)}
   * over {@code dims} (null: all), for floating dtypes. {@code N - correction <= 0} gives inf or
   * NaN, as PyTorch does (without its warning).
   */
  static Tensor var(Tensor x, int[] dims, double correction, boolean keepDim) {
    if (x != null && x.dtype().isComplex()) {
      return complexVar(x, dims, correction, keepDim);
    }
    requireFloating(x, "var");
    if (!(correction >= 0) || Double.isInfinite(correction)) {
      throw new IllegalArgumentException(
          "var: correction must be a finite non-negative number, got " + correction);
    }
    int[] over = dims == null ? allDims(x) : dims;
    long n = reducedCount(x, dims);
    Tensor result;
    try (var _ = Autograd.noGrad()) {
      Tensor centred = x.sub(x.mean(over, true));
      result = centred.mul(centred).sum(over, keepDim).div(Math.max(0.0, n - correction));
    }
    return CompositeNode.record(x, result, "var",
        g -> varBackward(g, x, dims, over, n - correction, keepDim));
  }

  /**
   * PyTorch's {@code var_backward}: {@code 2 / (N - correction) * grad * (x - mean)}; over all
   * elements with {@code N - correction <= 0}, {@code grad * (x == mean ? NaN : inf)}. Over dims,
   * PyTorch does not clamp the divisor in the backward (the forward does), and neither do we.
   */
  private static Tensor varBackward(
      Tensor g, Tensor x, int[] dims, int[] over, double dof, boolean keepDim) {
    Tensor mean = x.mean(over, true);
    Tensor grad = keepDim || x.ndim() == 0 ? g : unsqueezeAll(g, over, x.ndim());
    if (dims == null && dof <= 0) {
      Tensor factor = Ops.where(x.eq(mean), Double.NaN, Double.POSITIVE_INFINITY);
      return grad.mul(factor).to(x.dtype());
    }
    return grad.mul(2.0 / dof).mul(x.sub(mean));
  }

  /** {@code g} with size-1 dims put back where {@code dims} were reduced. */
  private static Tensor unsqueezeAll(Tensor g, int[] dims, int ndim) {
    boolean[] reduced = new boolean[ndim];
    for (int d : dims) {
      reduced[wrapDim(d, ndim)] = true;
    }
    Tensor out = g;
    for (int d = 0; d < ndim; d++) {
      if (reduced[d]) {
        out = out.unsqueeze(d);
      }
    }
    return out;
  }

  /**
   * A complex tensor's variance, as PyTorch computes it: {@code sum(|x - mean|^2) / (N -
   * correction)}, real (complex64 gives float32), which is the variance of the real parts plus
   * that of the imaginary parts, each computed as a real variance. Not differentiated yet: a
   * complex input that requires gradients is refused.
   */
  private static Tensor complexVar(Tensor x, int[] dims, double correction, boolean keepDim) {
    if (GradGraph.recording(x)) {
      throw new IllegalArgumentException("var/std of a complex tensor that requires gradients is"
          + " not supported yet (the result would have no gradient); compute it inside"
          + " Autograd.noGrad() or on the real and imaginary parts");
    }
    DType c = x.dtype().componentType();
    // The components as a real view of shape [..., 2]: strides and offset in components.
    long[] shape = java.util.Arrays.copyOf(x.shape(), x.ndim() + 1);
    shape[x.ndim()] = 2;
    long[] strides = new long[x.ndim() + 1];
    for (int k = 0; k < x.ndim(); k++) {
      strides[k] = 2 * x.stride(k);
    }
    strides[x.ndim()] = 1;
    Tensor parts = Tensor.make(x.segment(), c, shape, strides, 2 * x.offset(), false);
    Tensor re = parts.select(x.ndim(), 0);
    Tensor im = parts.select(x.ndim(), 1);
    return var(re, dims, correction, keepDim).add(var(im, dims, correction, keepDim));
  }

  static Tensor std(Tensor x, int[] dims, double correction, boolean keepDim) {
    if (x != null && x.dtype().isComplex()) {
      return var(x, dims, correction, keepDim).sqrt();
    }
    requireFloating(x, "std");
    return var(x, dims, correction, keepDim).sqrt();
  }

  // ---- argmax, argmin, max(dim), min(dim) ------------------------------------------------------

  /**
   * The index of the first largest ({@code max}) or smallest element along {@code dim} (null:
   * of the flattened tensor), as INT64; a NaN counts as larger and smaller than every number, so
   * the first NaN wins (PyTorch's rule).
   */
  static Tensor argExtreme(Tensor x, Integer dim, boolean keepDim, boolean max) {
    String name = max ? "argmax" : "argmin";
    if (x == null) {
      throw new IllegalArgumentException(name + ": the tensor must not be null");
    }
    DType t = x.dtype();
    if (t.isComplex() || t.isFloat8()) {
      throw new IllegalArgumentException(
          name + "(): \"" + name + "_cpu\" not implemented for '" + torchTypeName(t) + "'");
    }
    if (t == DType.BOOL) {
      throw new IllegalArgumentException(name + "(): does not support bool input");
    }
    if (dim == null) {
      if (x.numel() == 0) {
        throw new IllegalArgumentException(
            name + "(): Expected reduction dim to be specified for input.numel() == 0.");
      }
      Tensor flat = x.reshape(-1);
      Tensor r = argExtreme(flat, 0, false, max);
      if (keepDim) {
        long[] ones = new long[x.ndim()];
        java.util.Arrays.fill(ones, 1);
        return r.reshape(ones);
      }
      return r;
    }
    int nd = x.ndim();
    int d = wrapDim(dim, nd);
    long n = nd == 0 ? 1 : x.size(d);
    if (n == 0) {
      throw new IllegalArgumentException(
          name + "(): Expected reduction dim " + d + " to have non-zero size.");
    }
    // the reduced dim last, then one contiguous row per output element
    Tensor moved = nd == 0 ? x.reshape(1) : x.movedim(new int[] {d}, new int[] {nd - 1});
    Tensor rows = moved.contiguous();
    long[] outShape = nd == 0 ? new long[0] : moved.shape();
    if (nd > 0) {
      outShape = java.util.Arrays.copyOf(outShape, nd - 1);
    }
    Tensor out = Tensor.empty(DType.INT64, outShape);
    long count = out.numel();
    MemorySegment seg = rows.segment();
    long base = rows.offset();
    int bytes = t.byteSize();
    boolean floating = t.isFloatingPoint();
    for (long r = 0; r < count; r++) {
      long start = base + r * n;
      long best = 0;
      if (floating) {
        double bestValue = Convert.toDouble(t, Elements.read(seg, t, start * bytes));
        for (long j = 1; j < n && !Double.isNaN(bestValue); j++) {
          double v = Convert.toDouble(t, Elements.read(seg, t, (start + j) * bytes));
          if (Double.isNaN(v) || (max ? v > bestValue : v < bestValue)) {
            best = j;
            bestValue = v;
          }
        }
      } else {
        long bestValue = Elements.read(seg, t, start * bytes);
        boolean unsigned = t == DType.UINT64;
        for (long j = 1; j < n; j++) {
          long v = Elements.read(seg, t, (start + j) * bytes);
          int c = unsigned ? Long.compareUnsigned(v, bestValue) : Long.compare(v, bestValue);
          if (max ? c > 0 : c < 0) {
            best = j;
            bestValue = v;
          }
        }
      }
      out.segment().set(java.lang.foreign.ValueLayout.JAVA_LONG, r * 8, best);
    }
    return keepDim && nd > 0 ? out.unsqueeze(d) : out;
  }

  /**
   * PyTorch's {@code max(dim, keepdim)}/{@code min(dim, keepdim)}: the extreme values and their
   * indices; the values are a gather of {@code x} at the indices, so gradients flow to the
   * selected elements only.
   */
  static ValuesIndices extremeWithIndices(Tensor x, int dim, boolean keepDim, boolean max) {
    Tensor indices = argExtreme(x, dim, true, max);
    if (x.ndim() == 0) {
      return new ValuesIndices(x.copy(), indices.reshape());
    }
    int d = wrapDim(dim, x.ndim());
    Tensor values = Indexing.gather(x, d, indices);
    if (!keepDim) {
      values = values.squeeze(d);
      indices = indices.squeeze(d);
    }
    return new ValuesIndices(values, indices);
  }

  // ---- countNonzero and norm --------------------------------------------------------------------

  /** PyTorch's {@code count_nonzero(dims)}: INT64 counts of elements {@code != 0}. */
  static Tensor countNonzero(Tensor x, int[] dims) {
    Tensor nonzero = x.dtype() == DType.BOOL ? x : x.ne(0);
    return dims == null || dims.length == 0 ? nonzero.sum() : nonzero.sum(dims, false);
  }

  /**
   * PyTorch's {@code linalg.vector_norm(x, ord, dim, keepdim)}: {@code p} = 2 (Euclidean), 1,
   * {@code +-Infinity} (largest/smallest magnitude), 0 (count of nonzeros, as a float) or any other
   * positive or negative number ({@code (sum |x|^p)^(1/p)}). Floating dtypes only.
   */
  static Tensor norm(Tensor x, double p, int[] dims, boolean keepDim) {
    requireFloating(x, "norm");
    if (Double.isNaN(p)) {
      throw new IllegalArgumentException("norm: the order p must be a number, got NaN");
    }
    int[] over = dims == null || dims.length == 0 ? allDims(x) : dims;
    Tensor a = x.abs();
    if (p == Double.POSITIVE_INFINITY || p == Double.NEGATIVE_INFINITY) {
      if (x.numel() == 0) {
        throw new IllegalArgumentException(
            "linalg.vector_norm cannot compute the " + (p > 0 ? "inf" : "-inf")
                + " norm on an empty tensor because the operation does not have an identity");
      }
      return p > 0 ? a.amax(over, keepDim) : a.amin(over, keepDim);
    }
    if (p == 0) {
      // a count: PyTorch records it, and its gradient is zero
      Tensor count;
      try (var _ = Autograd.noGrad()) {
        count = a.ne(0).sum(over, keepDim).to(x.dtype());
      }
      return CompositeNode.record(x, count, "norm", g -> Tensor.zerosLike(x));
    }
    if (p == 1) {
      return a.sum(over, keepDim);
    }
    Tensor norm;
    try (var _ = Autograd.noGrad()) {
      norm = p == 2 ? a.mul(a).sum(over, keepDim).sqrt()
          : a.pow(p).sum(over, keepDim).pow(1.0 / p);
    }
    Tensor result = norm;
    return CompositeNode.record(x, result, "norm", g -> pNormBackward(g, x, result, p, over, keepDim));
  }

  /**
   * PyTorch's {@code norm_backward} for a finite {@code p} other than 0 and 1: {@code grad * x *
   * |x|^(p-2) / norm^(p-1)}, and 0 where the norm is 0 (the kink of the 2-norm at the origin).
   */
  private static Tensor pNormBackward(
      Tensor g, Tensor x, Tensor norm, double p, int[] over, boolean keepDim) {
    Tensor grad = keepDim || x.ndim() == 0 ? g : unsqueezeAll(g, over, x.ndim());
    Tensor n = keepDim || x.ndim() == 0 ? norm : unsqueezeAll(norm, over, x.ndim());
    Tensor scaled = p == 2 ? x.mul(grad).div(n)
        : x.mul(x.abs().pow(p - 2)).mul(grad).div(n.pow(p - 1));
    return Ops.where(n.eq(0), Tensor.scalar(0.0, x.dtype()), scaled);
  }

  // ---- helpers ------------------------------------------------------------------------------

  private static void requireFloating(Tensor x, String name) {
    if (x == null) {
      throw new IllegalArgumentException(name + ": the tensor must not be null");
    }
    DType t = x.dtype();
    if (!t.isFloatingPoint() || t.isFloat8()) {
      throw new IllegalArgumentException(t.isComplex()
          ? name + "(): complex inputs are not supported yet, got " + t.torchName()
          : name.equals("var") || name.equals("std")
              ? "std and var only support floating point and complex dtypes; got " + t.torchName()
              : name + "(): expected a floating point input, got " + t.torchName());
    }
  }

  private static int[] allDims(Tensor x) {
    int[] all = new int[x.ndim()];
    for (int i = 0; i < all.length; i++) {
      all[i] = i;
    }
    return all;
  }

  private static long reducedCount(Tensor x, int[] dims) {
    if (dims == null) {
      return x.numel();
    }
    long n = 1;
    boolean[] seen = new boolean[Math.max(x.ndim(), 1)];
    for (int dim : dims) {
      int d = wrapDim(dim, x.ndim());
      if (seen[d]) {
        throw new IllegalArgumentException(
            "dim " + d + " appears multiple times in the list of dims");
      }
      seen[d] = true;
      n *= x.ndim() == 0 ? 1 : x.size(d);
    }
    return n;
  }

  private static String torchTypeName(DType t) {
    return switch (t) {
      case COMPLEX32 -> "ComplexHalf";
      case COMPLEX64 -> "ComplexFloat";
      case COMPLEX128 -> "ComplexDouble";
      default -> t.torchName();
    };
  }
}
