package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.dtype.Promotion;
import dev.ufunc4j.dtype.PromotionException;
import dev.ufunc4j.kernel.reduce.ReduceLoops;
import dev.ufunc4j.kernel.reduce.ReduceLoops.Kind;
import dev.ufunc4j.kernel.reduce.ReduceLoops.Op;
import dev.ufunc4j.internal.shape.Shapes;
import dev.ufunc4j.kernel.ElementwiseOp;
import dev.ufunc4j.kernel.FoldKernel;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Objects;

/**
 * {@code sum}, {@code mean}, {@code amax}, {@code amin} and {@code sumToShape}: PyTorch's
 * argument rules and dtypes around one set of loops ({@link ReduceLoops}). Decisions and the
 * measured speed are in docs/reductions.md.
 *
 * <p>Dtypes, as PyTorch: {@code sum} of bool and integral tensors is int64; float16 and bfloat16
 * accumulate in float32 and round once; {@code mean} refuses integral and bool tensors and for
 * float16/bfloat16 divides the float32 sum before rounding; {@code amax}/{@code amin} keep the
 * dtype. Extensions (PyTorch has no CPU kernel): unsigned {@code amax}/{@code amin}, complex32
 * {@code sum}/{@code mean} (accumulated in complex64).
 */
final class Reductions {
  private Reductions() {}

  static Tensor sum(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    if (GradGraph.recording(x) || out != null && GradGraph.recording(out)) {
      return GradGraph.reduction(GradGraph.Reduction.SUM, x, dims, keepDim, out);
    }
    checkInput("sum", x);
    if (out != null) {
      // PyTorch: sum(out=o) is sum(dtype=o.dtype): the input is converted first (0.6 sums as 0
      // into an int32 target), then accumulated as that dtype is.
      checkInput("sum", out);
      reducedDims("sum", x, dims);
      return reduce("sum", Op.SUM, converted(x, out.dtype()), dims, keepDim, out.dtype(), out, false);
    }
    DType result = x.dtype().isIntegral(true) ? DType.INT64 : x.dtype();
    return reduce("sum", Op.SUM, x, dims, keepDim, result, null, false);
  }

  /** {@code x} in {@code dtype}, after its dims are checked (a refused call converts nothing). */
  private static Tensor converted(Tensor x, DType dtype) {
    return x.dtype() == dtype ? x : x.to(dtype);
  }

  static Tensor mean(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    if (GradGraph.recording(x) || out != null && GradGraph.recording(out)) {
      return GradGraph.reduction(GradGraph.Reduction.MEAN, x, dims, keepDim, out);
    }
    checkInput("mean", x);
    if (x.dtype().isIntegral(true)) {
      throw new IllegalArgumentException(
          "mean(): could not infer output dtype. Input dtype must be either a floating point or"
              + " complex dtype. Got: " + x.dtype().torchName()
              + " (convert it first, e.g. x.to(DType.FLOAT32).mean())");
    }
    if (out != null) {
      checkInput("mean", out);
      if (!Promotion.canCast(x.dtype(), out.dtype())) {
        throw new PromotionException(
            "mean(): result type " + x.dtype().torchName() + " can't be cast to the desired"
                + " output type " + out.dtype().torchName());
      }
      // As sum: the mean is computed in the target's dtype.
      reducedDims("mean", x, dims);
      // PyTorch's mean_out: the input in the dtype the target accumulates in (float32 for a
      // float16 target), the sum divided there, then rounded once into the target.
      DType work = workDtype(out.dtype(), out.dtype(), Op.SUM);
      return reduce("mean", Op.SUM, converted(x, work), dims, keepDim, out.dtype(), out, true);
    }
    return reduce("mean", Op.SUM, x, dims, keepDim, x.dtype(), null, true);
  }

  static Tensor amax(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    if (GradGraph.recording(x) || out != null && GradGraph.recording(out)) {
      return GradGraph.reduction(GradGraph.Reduction.AMAX, x, dims, keepDim, out);
    }
    return extreme("amax", Op.MAX, x, dims, keepDim, out);
  }

  static Tensor amin(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    if (GradGraph.recording(x) || out != null && GradGraph.recording(out)) {
      return GradGraph.reduction(GradGraph.Reduction.AMIN, x, dims, keepDim, out);
    }
    return extreme("amin", Op.MIN, x, dims, keepDim, out);
  }

  private static Tensor extreme(
      String name, Op op, Tensor x, int[] dims, boolean keepDim, Tensor out) {
    checkInput(name, x);
    if (x.dtype().isComplex()) {
      throw new IllegalArgumentException(
          name + "(): complex tensors have no order; reduce their abs() or real parts instead"
              + " (got " + x.dtype().torchName() + ")");
    }
    if (out != null && out.dtype() != x.dtype()) {
      // PyTorch's amax/amin demand the input's dtype exactly.
      throw new PromotionException(
          name + "(): Expected the dtype for input and out to match, but got "
              + x.dtype().torchName() + " for input's dtype and " + out.dtype().torchName()
              + " for out's dtype.");
    }
    boolean[] reduce = reducedDims(name, x, dims);
    if (x.numel() == 0) {
      if (dims == null || dims.length == 0) {
        throw new IllegalArgumentException(
            name + "(): Expected reduction dim to be specified for input.numel() == 0. Specify"
                + " the reduction dim with the 'dims' argument. (shape "
                + Arrays.toString(x.shape()) + ")");
      }
      for (int given : dims) {
        // PyTorch names the dim as it was given (-1, not its wrapped value).
        if (x.size(Shapes.wrapDim(given, x.ndim())) == 0) {
          throw new IndexOutOfBoundsException(
              name + "(): Expected reduction dim " + given + " to have non-zero size. (shape "
                  + Arrays.toString(x.shape()) + ")");
        }
      }
    }
    return run(name, op, x, reduce, keepDim, x.dtype(), out, false);
  }

  /** {@code sum} and {@code mean}: the reduced dims, then the loops. */
  private static Tensor reduce(
      String name, Op op, Tensor x, int[] dims, boolean keepDim, DType result, Tensor out,
      boolean mean) {
    return run(name, op, x, reducedDims(name, x, dims), keepDim, result, out, mean);
  }

  private static Tensor run(
      String name, Op op, Tensor x, boolean[] reduce, boolean keepDim, DType result, Tensor out,
      boolean mean) {
    long[] shape = x.shape();
    long[] outShape = outputShape(shape, reduce, keepDim);
    if (out != null) {
      if (!Arrays.equals(out.shape(), outShape)) {
        throw new BroadcastException(
            name + "(): out has shape " + Arrays.toString(out.shape()) + " but the result has"
                + " shape " + Arrays.toString(outShape) + " (an out= target keeps its shape)");
      }
      if (!Promotion.canCast(result, out.dtype())) {
        throw new PromotionException(
            name + "(): result type " + result.torchName() + " can't be cast to the desired"
                + " output type " + out.dtype().torchName());
      }
    }
    // The dtype the loops accumulate in, and the input converted to it (a view when it already is).
    DType work = workDtype(result, x.dtype(), op);
    Tensor input = x.dtype() == work ? x : x.to(work);
    Kind kind = Kind.of(work);
    long[] inShape = input.shape();
    long[] inStrides = input.strides();
    long inOffset = input.offset();
    boolean[] flags = reduce;
    long[] accShape = outShape;
    if (work.isComplex()) {
      // A complex element is a (re, im) pair of its component type: one more, kept, dimension.
      inShape = Arrays.copyOf(inShape, inShape.length + 1);
      inShape[inShape.length - 1] = 2;
      inStrides = Arrays.copyOf(inStrides, inStrides.length + 1);
      for (int d = 0; d < inStrides.length - 1; d++) {
        inStrides[d] *= 2;
      }
      inStrides[inStrides.length - 1] = 1;
      inOffset *= 2;
      flags = Arrays.copyOf(reduce, reduce.length + 1);
    }
    Tensor acc = Tensor.empty(work, accShape);
    ReduceLoops.reduce(op, foldOf(op, work), kind, input.segment(), inOffset, inShape, inStrides,
        flags, acc.segment());
    if (mean) {
      long count = 1;
      for (int d = 0; d < shape.length; d++) {
        if (reduce[d]) {
          count *= shape[d];
        }
      }
      divideInPlace(acc, count);
    }
    Tensor value = acc.dtype() == result ? acc : acc.to(result);
    if (out == null) {
      return value;
    }
    Copies.copyInto(value, out);
    out.bumpVersion(); // a write autograd must see (GradGraph.Version)
    return out;
  }

  /**
   * The generated fold loop of the op a reduction in {@code work} is: {@code sum} is {@code add}'s,
   * {@code amax} {@code maximum}'s, {@code amin} {@code minimum}'s (docs/ufuncs.md), of {@code
   * work}'s elements (a complex dtype's components).
   */
  static FoldKernel foldOf(Op op, DType work) {
    DType elements = switch (work) {
      case COMPLEX64 -> DType.FLOAT32;
      case COMPLEX128 -> DType.FLOAT64;
      default -> work;
    };
    ElementwiseOp ufunc = switch (op) {
      case SUM -> Builtins_add.OP;
      case MAX -> Builtins_maximum.OP;
      case MIN -> Builtins_minimum.OP;
      case FOLD -> throw new IllegalArgumentException("no built-in reduction is FOLD");
    };
    return Objects.requireNonNull(ufunc.foldKernel(elements),
        () -> "the fold loop of " + ufunc.name() + " for " + elements);
  }

  /**
   * The accumulation dtype: int64 for a sum of integers or bool and for {@code amax}/{@code amin}
   * of bool, the input's own dtype for those of other integers (exact either way, and no
   * conversion), float32 for the 16-bit floats.
   */
  private static DType workDtype(DType result, DType input, Op op) {
    if (input.isIntegral(true)) {
      return op != Op.SUM && input != DType.BOOL ? input : DType.INT64;
    }
    return switch (result) {
      case FLOAT16, BFLOAT16 -> DType.FLOAT32;
      case COMPLEX32 -> DType.COMPLEX64;
      default -> result;
    };
  }

  /** {@code acc / count} in the accumulation dtype (PyTorch: sum, then {@code div_}). */
  private static void divideInPlace(Tensor acc, long count) {
    // acc is a new C-contiguous float32/float64 tensor, or complex: its values are one run.
    MemorySegment seg = acc.segment();
    long values = acc.numel() * (acc.dtype().isComplex() ? 2 : 1);
    if (acc.dtype() == DType.FLOAT32 || acc.dtype() == DType.COMPLEX64) {
      float divisor = count;
      for (long i = 0; i < values; i++) {
        seg.setAtIndex(ValueLayout.JAVA_FLOAT, i, seg.getAtIndex(ValueLayout.JAVA_FLOAT, i) / divisor);
      }
    } else {
      double divisor = count;
      for (long i = 0; i < values; i++) {
        seg.setAtIndex(ValueLayout.JAVA_DOUBLE, i, seg.getAtIndex(ValueLayout.JAVA_DOUBLE, i) / divisor);
      }
    }
  }

  /**
   * PyTorch's {@code sum_to_size}: sums the leading dims broadcasting added and the dims that are
   * 1 in {@code shape}, keeping them, so that {@code x} becomes {@code shape}: the gradient of an
   * operand that was broadcast to {@code x}'s shape.
   */
  static Tensor sumToShape(Tensor x, long[] shape) {
    if (GradGraph.recording(x)) {
      return GradGraph.sumToShape(x, shape);
    }
    checkInput("sumToShape", x);
    if (shape == null) {
      throw new IllegalArgumentException("sumToShape(): shape must not be null");
    }
    long[] own = x.shape();
    if (!expandable(shape, own)) {
      throw new BroadcastException(
          "sumToShape(): size " + Arrays.toString(shape) + " is not expandable to size "
              + Arrays.toString(own) + ".");
    }
    int lead = own.length - shape.length;
    boolean[] reduce = new boolean[own.length];
    boolean any = false;
    for (int d = 0; d < own.length; d++) {
      reduce[d] = d < lead || (shape[d - lead] == 1 && own[d] != 1);
      any |= reduce[d];
    }
    if (!any) {
      return x;
    }
    DType result = x.dtype().isIntegral(true) ? DType.INT64 : x.dtype();
    if (x.dtype().isFloat8()) {
      throw new IllegalArgumentException(storageOnly("sumToShape", x.dtype()));
    }
    Tensor kept = run("sumToShape", Op.SUM, x, reduce, true, result, null, false);
    return kept.view(shape);
  }

  /** PyTorch's {@code is_expandable_to}: right-aligned, each size equal to the target's or 1. */
  private static boolean expandable(long[] shape, long[] target) {
    if (shape.length > target.length) {
      return false;
    }
    int lead = target.length - shape.length;
    for (int d = 0; d < shape.length; d++) {
      if (shape[d] != 1 && shape[d] != target[lead + d]) {
        return false;
      }
    }
    return true;
  }

  private static void checkInput(String name, Tensor x) {
    if (x == null) {
      throw new IllegalArgumentException(name + "(): the input tensor must not be null");
    }
    if (x.dtype().isFloat8()) {
      throw new IllegalArgumentException(storageOnly(name, x.dtype()));
    }
  }

  private static String storageOnly(String name, DType dtype) {
    return name + "(): " + dtype.torchName() + " is storage-only: it loads, stores and casts but"
        + " does no arithmetic; convert it first, e.g. .to(DType.FLOAT32)";
  }

  /** Which dims to reduce: all for null or empty {@code dims} (PyTorch), each wrapped once. */
  private static boolean[] reducedDims(String name, Tensor x, int[] dims) {
    int ndim = x.ndim();
    boolean[] reduce = new boolean[ndim];
    if (dims == null || dims.length == 0) {
      Arrays.fill(reduce, true);
      return reduce;
    }
    boolean[] seen = new boolean[Math.max(ndim, 1)];
    for (int dim : dims) {
      int d = Shapes.wrapDim(dim, ndim);
      if (seen[d]) {
        throw new IllegalArgumentException(
            name + "(): dim " + d + " appears multiple times in the list of dims "
                + Arrays.toString(dims));
      }
      seen[d] = true;
      if (ndim > 0) {
        reduce[d] = true;
      }
    }
    return reduce;
  }

  private static long[] outputShape(long[] shape, boolean[] reduce, boolean keepDim) {
    long[] out = new long[shape.length];
    int n = 0;
    for (int d = 0; d < shape.length; d++) {
      if (!reduce[d]) {
        out[n++] = shape[d];
      } else if (keepDim) {
        out[n++] = 1;
      }
    }
    return Arrays.copyOf(out, n);
  }
}
