package dev.ufunc4j;

import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.internal.VectorModule;

/**
 * The hand-written part of {@link Ops}: operations that are not elementwise, so not generated from
 * {@code Builtins}. The generated {@code Ops} extends this class, so they are called as {@code
 * Ops.sum(x)} like every other op. Reductions: {@code docs/reductions.md}.
 *
 * <p>Public only so that its methods can also be called reflectively through {@code Ops} from
 * other packages (the JDK refuses a reflective call to a public static method declared in a
 * package-private class); call them as {@code Ops.sum(x)}. Not for subclassing: the only
 * constructor is package-private.
 */
public class OpsBase {
  static {
    // Ops is where a program without tensors yet may start; say what is missing here too.
    VectorModule.require();
  }

  OpsBase() {}

  /**
   * {@code torch.nn.functional.gelu(x, approximate=...)}, PyTorch's spelling of the two forms:
   * {@code "none"} is {@link Ops#gelu(Tensor)} (the erf form, PyTorch's default) and {@code
   * "tanh"} is {@link Ops#geluTanh(Tensor)}.
   *
   * @param x the tensor
   * @param approximate {@code "none"} or {@code "tanh"}
   * @return a new tensor
   * @throws IllegalArgumentException for any other value (PyTorch's message, with the value)
   */
  public static Tensor gelu(Tensor x, String approximate) {
    if ("none".equals(approximate)) {
      return Ops.gelu(x);
    }
    if ("tanh".equals(approximate)) {
      return Ops.geluTanh(x);
    }
    throw new IllegalArgumentException(
        "approximate argument must be either none or tanh. (got " + approximate + ")");
  }

  /**
   * {@code torch.nan_to_num(x)}: NaN becomes 0, +inf and -inf the largest and smallest finite
   * values of x's dtype. Integral and bool tensors are copied unchanged, as PyTorch.
   *
   * @param x the tensor
   * @return a new tensor of x's dtype and shape
   */
  public static Tensor nanToNum(Tensor x) {
    return nanToNum(x, null);
  }

  /**
   * {@link #nanToNum(Tensor)} into {@code out} (null: a new tensor), with PyTorch's rules for
   * {@code out=}.
   *
   * @param x the tensor
   * @param out the target, or null
   * @return {@code out}, or a new tensor
   */
  public static Tensor nanToNum(Tensor x, Tensor out) {
    if (out != null && out.dtype() != x.dtype()) {
      throw new IllegalArgumentException("nan_to_num: dtype of out: "
          + out.dtype().scalarTypeName() + " should be same as input: "
          + x.dtype().scalarTypeName());
    }
    if (x.dtype() == DType.BOOL) {
      // A copy (a Java number beside a bool tensor would promote it to int64): x | x is x.
      return out == null ? x.copy() : Ops.logicalOr(x, x, out);
    }
    double max = switch (x.dtype()) {
      case FLOAT8_E4M3FN -> 448.0;
      case FLOAT8_E5M2 -> 57344.0;
      case FLOAT16 -> 65504.0;
      case BFLOAT16 -> 3.3895313892515355e38;
      case FLOAT32 -> Float.MAX_VALUE;
      case FLOAT64 -> Double.MAX_VALUE;
      default -> Double.NaN;
    };
    if (Double.isNaN(max)) {
      // Nothing to replace in integral and bool tensors; complex is refused by the op itself.
      return out == null ? Ops.nanToNum(x, 0L, 0L, 0L) : Ops.nanToNum(x, 0L, 0L, 0L, out);
    }
    return out == null ? Ops.nanToNum(x, 0.0, max, -max) : Ops.nanToNum(x, 0.0, max, -max, out);
  }

  /**
   * {@link Tensor#sum()}: all elements.
   *
   * @param x the tensor
   * @return the result
   */
  public static Tensor sum(Tensor x) {
    return Reductions.sum(x, null, false, null);
  }

  /**
   * {@link Tensor#sum(int...)}.
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @return the result
   */
  public static Tensor sum(Tensor x, int... dims) {
    return Reductions.sum(x, dims, false, null);
  }

  /**
   * {@link Tensor#sum(int[], boolean)}.
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @return the result
   */
  public static Tensor sum(Tensor x, int[] dims, boolean keepDim) {
    return Reductions.sum(x, dims, keepDim, null);
  }

  /**
   * {@link Tensor#sum(int[], boolean)} into {@code out}, which must have the result's shape and a
   * dtype the result casts to; nothing is written when a check fails.
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @param out the tensor the result is written into
   * @return {@code out}
   */
  public static Tensor sum(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    return Reductions.sum(x, dims, keepDim, requireOut("sum", out));
  }

  /**
   * {@link Tensor#mean()}.
   *
   * @param x the tensor
   * @return the result
   */
  public static Tensor mean(Tensor x) {
    return Reductions.mean(x, null, false, null);
  }

  /**
   * {@link Tensor#mean(int...)}.
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @return the result
   */
  public static Tensor mean(Tensor x, int... dims) {
    return Reductions.mean(x, dims, false, null);
  }

  /**
   * {@link Tensor#mean(int[], boolean)}.
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @return the result
   */
  public static Tensor mean(Tensor x, int[] dims, boolean keepDim) {
    return Reductions.mean(x, dims, keepDim, null);
  }

  /**
   * {@link Tensor#mean(int[], boolean)} into {@code out} (the result's shape, a castable dtype).
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @param out the tensor the result is written into
   * @return {@code out}
   */
  public static Tensor mean(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    return Reductions.mean(x, dims, keepDim, requireOut("mean", out));
  }

  /**
   * {@link Tensor#amax()}.
   *
   * @param x the tensor
   * @return the result
   */
  public static Tensor amax(Tensor x) {
    return Reductions.amax(x, null, false, null);
  }

  /**
   * {@link Tensor#amax(int...)}.
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @return the result
   */
  public static Tensor amax(Tensor x, int... dims) {
    return Reductions.amax(x, dims, false, null);
  }

  /**
   * {@link Tensor#amax(int[], boolean)}.
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @return the result
   */
  public static Tensor amax(Tensor x, int[] dims, boolean keepDim) {
    return Reductions.amax(x, dims, keepDim, null);
  }

  /**
   * {@link Tensor#amax(int[], boolean)} into {@code out} (the result's shape, the input's dtype).
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @param out the tensor the result is written into
   * @return {@code out}
   */
  public static Tensor amax(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    return Reductions.amax(x, dims, keepDim, requireOut("amax", out));
  }

  /**
   * {@link Tensor#amin()}.
   *
   * @param x the tensor
   * @return the result
   */
  public static Tensor amin(Tensor x) {
    return Reductions.amin(x, null, false, null);
  }

  /**
   * {@link Tensor#amin(int...)}.
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @return the result
   */
  public static Tensor amin(Tensor x, int... dims) {
    return Reductions.amin(x, dims, false, null);
  }

  /**
   * {@link Tensor#amin(int[], boolean)}.
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @return the result
   */
  public static Tensor amin(Tensor x, int[] dims, boolean keepDim) {
    return Reductions.amin(x, dims, keepDim, null);
  }

  /**
   * {@link Tensor#amin(int[], boolean)} into {@code out} (the result's shape, the input's dtype).
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @param out the tensor the result is written into
   * @return {@code out}
   */
  public static Tensor amin(Tensor x, int[] dims, boolean keepDim, Tensor out) {
    return Reductions.amin(x, dims, keepDim, requireOut("amin", out));
  }

  /**
   * {@link Tensor#sumToShape(long...)}.
   *
   * @param x the tensor
   * @param shape the sizes, outermost first
   * @return the result
   */
  public static Tensor sumToShape(Tensor x, long... shape) {
    return Reductions.sumToShape(x, shape);
  }

  // ---- the everyday vocabulary (TensorVocabulary has the instance forms; docs/ops.md) ----------

  /**
   * {@link Tensor#cat(Tensor[], int)}: {@code torch.cat}.
   *
   * @param tensors the tensors
   * @param dim the dimension (negative counts from the end)
   * @return the result
   */
  public static Tensor cat(Tensor[] tensors, int dim) {
    return Joining.cat(tensors, dim);
  }

  /**
   * {@link Tensor#cat(java.util.List, int)}.
   *
   * @param tensors the tensors
   * @param dim the dimension (negative counts from the end)
   * @return the result
   */
  public static Tensor cat(java.util.List<Tensor> tensors, int dim) {
    return Joining.cat(tensors, dim);
  }

  /**
   * {@link Tensor#stack(Tensor[], int)}: {@code torch.stack}.
   *
   * @param tensors the tensors
   * @param dim the dimension (negative counts from the end)
   * @return the result
   */
  public static Tensor stack(Tensor[] tensors, int dim) {
    return Joining.stack(tensors, dim);
  }

  /**
   * {@link Tensor#stack(java.util.List, int)}.
   *
   * @param tensors the tensors
   * @param dim the dimension (negative counts from the end)
   * @return the result
   */
  public static Tensor stack(java.util.List<Tensor> tensors, int dim) {
    return Joining.stack(tensors, dim);
  }

  /**
   * {@link Tensor#split(long, int)}: {@code torch.split}.
   *
   * @param x the tensor
   * @param splitSize the size of each part (the last may be smaller)
   * @param dim the dimension (negative counts from the end)
   * @return the result
   */
  public static Tensor[] split(Tensor x, long splitSize, int dim) {
    return Joining.split(x, splitSize, dim);
  }

  /**
   * {@link Tensor#split(long[], int)}.
   *
   * @param x the tensor
   * @param splitSizes the sizes of the parts, summing to the dimension's size
   * @param dim the dimension (negative counts from the end)
   * @return the result
   */
  public static Tensor[] split(Tensor x, long[] splitSizes, int dim) {
    return Joining.split(x, splitSizes, dim);
  }

  /**
   * {@link Tensor#chunk(int, int)}: {@code torch.chunk}.
   *
   * @param x the tensor
   * @param chunks the number of parts
   * @param dim the dimension (negative counts from the end)
   * @return the result
   */
  public static Tensor[] chunk(Tensor x, int chunks, int dim) {
    return Joining.chunk(x, chunks, dim);
  }

  /**
   * {@link Tensor#flip(int...)}: {@code torch.flip}.
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @return the result
   */
  public static Tensor flip(Tensor x, int... dims) {
    return Joining.flip(x, dims);
  }

  /**
   * {@link Tensor#roll(long[], int[])}: {@code torch.roll}.
   *
   * @param x the tensor
   * @param shifts the number of places each dimension rolls
   * @param dims the dimensions (negative counts from the end)
   * @return the result
   */
  public static Tensor roll(Tensor x, long[] shifts, int[] dims) {
    return Joining.roll(x, shifts, dims);
  }

  /**
   * {@link Tensor#tile(long...)}: {@code torch.tile}.
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @return the result
   */
  public static Tensor tile(Tensor x, long... dims) {
    return Joining.tile(x, dims);
  }

  /**
   * {@link Tensor#movedim(int[], int[])}: {@code torch.movedim}.
   *
   * @param source the dimensions moved
   * @param destination where they go
   * @param x the tensor
   * @return the result
   */
  public static Tensor movedim(Tensor x, int[] source, int[] destination) {
    return Joining.movedim(x, source, destination);
  }

  /**
   * {@link Tensor#indexSelect(int, Tensor)}: {@code torch.index_select}.
   *
   * @param x the tensor
   * @param dim the dimension (negative counts from the end)
   * @param index the element's index, one per dimension (negative counts from the end)
   * @return the result
   */
  public static Tensor indexSelect(Tensor x, int dim, Tensor index) {
    return Indexing.indexSelect(x, dim, index);
  }

  /**
   * {@link Tensor#gather(int, Tensor)}: {@code torch.gather}.
   *
   * @param x the tensor
   * @param dim the dimension (negative counts from the end)
   * @param index the element's index, one per dimension (negative counts from the end)
   * @return the result
   */
  public static Tensor gather(Tensor x, int dim, Tensor index) {
    return Indexing.gather(x, dim, index);
  }

  /**
   * {@link Tensor#scatter(int, Tensor, Tensor)}: {@code torch.scatter}.
   *
   * @param x the tensor
   * @param dim the dimension (negative counts from the end)
   * @param index INT64 (or INT32) indices, each in {@code [0, x.size(dim))}
   * @param src the values, of x's dtype
   * @return a new tensor
   */
  public static Tensor scatter(Tensor x, int dim, Tensor index, Tensor src) {
    return Indexing.scatter(x, dim, index, src, false);
  }

  /**
   * {@link Tensor#scatter(int, Tensor, double)}: {@code torch.scatter(x, dim, index, value)}.
   *
   * @param x the tensor
   * @param dim the dimension (negative counts from the end)
   * @param index INT64 (or INT32) indices, each in {@code [0, x.size(dim))}
   * @param value the value written, converted to x's dtype
   * @return a new tensor
   */
  public static Tensor scatter(Tensor x, int dim, Tensor index, double value) {
    return Indexing.scatterValue(x, dim, index, value);
  }

  /**
   * {@link Tensor#scatterAdd(int, Tensor, Tensor)}: {@code torch.scatter_add}.
   *
   * @param x the tensor
   * @param dim the dimension (negative counts from the end)
   * @param index INT64 (or INT32) indices, each in {@code [0, x.size(dim))}
   * @param src the values added, of x's dtype
   * @return a new tensor
   */
  public static Tensor scatterAdd(Tensor x, int dim, Tensor index, Tensor src) {
    return Indexing.scatter(x, dim, index, src, true);
  }

  /**
   * {@link Tensor#take(Tensor)}: {@code torch.take}.
   *
   * @param x the tensor
   * @param index the element's index, one per dimension (negative counts from the end)
   * @return the result
   */
  public static Tensor take(Tensor x, Tensor index) {
    return Indexing.take(x, index);
  }

  /**
   * {@link Tensor#maskedFill(Tensor, double)}: {@code torch.masked_fill}.
   *
   * @param x the tensor
   * @param mask a bool tensor, broadcast to this one's shape
   * @param value the value
   * @return the result
   */
  public static Tensor maskedFill(Tensor x, Tensor mask, double value) {
    return x.maskedFill(mask, value);
  }

  /**
   * {@link Tensor#maskedSelect(Tensor)}: {@code torch.masked_select}.
   *
   * @param x the tensor
   * @param mask a bool tensor, broadcast to this one's shape
   * @return the result
   */
  public static Tensor maskedSelect(Tensor x, Tensor mask) {
    return Indexing.maskedSelect(x, mask);
  }

  /**
   * {@link Tensor#nonzero()}: {@code torch.nonzero}.
   *
   * @param x the tensor
   * @return the result
   */
  public static Tensor nonzero(Tensor x) {
    return Indexing.nonzero(x);
  }

  /**
   * {@return PyTorch's one-argument {@code torch.where(condition)}: one INT64 index tensor per
   * dimension, the coordinates of the nonzero elements ({@code nonzero(as_tuple=True)})}
   *
   * @param condition a bool tensor choosing, elementwise, between the other operands
   */
  public static Tensor[] where(Tensor condition) {
    if (condition == null) {
      throw new IllegalArgumentException("where(): condition must not be null");
    }
    return Indexing.whereNonzero(condition);
  }

  /**
   * {@link Tensor#var(int[], double, boolean)}: {@code torch.var}.
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @param correction the difference between the count and the divisor ({@code 1}: Bessel's correction)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @return the result
   */
  public static Tensor var(Tensor x, int[] dims, double correction, boolean keepDim) {
    return Statistics.var(x, dims, correction, keepDim);
  }

  /**
   * {@link Tensor#std(int[], double, boolean)}: {@code torch.std}.
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @param correction the difference between the count and the divisor ({@code 1}: Bessel's correction)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @return the result
   */
  public static Tensor std(Tensor x, int[] dims, double correction, boolean keepDim) {
    return Statistics.std(x, dims, correction, keepDim);
  }

  /**
   * {@link Tensor#argmax(int, boolean)}: {@code torch.argmax}.
   *
   * @param x the tensor
   * @param dim the dimension (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @return the result
   */
  public static Tensor argmax(Tensor x, int dim, boolean keepDim) {
    return Statistics.argExtreme(x, dim, keepDim, true);
  }

  /**
   * {@link Tensor#argmin(int, boolean)}: {@code torch.argmin}.
   *
   * @param x the tensor
   * @param dim the dimension (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @return the result
   */
  public static Tensor argmin(Tensor x, int dim, boolean keepDim) {
    return Statistics.argExtreme(x, dim, keepDim, false);
  }

  /**
   * {@link Tensor#max(int, boolean)}: {@code torch.max(x, dim)}.
   *
   * @param x the tensor
   * @param dim the dimension (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @return the result
   */
  public static ValuesIndices max(Tensor x, int dim, boolean keepDim) {
    return Statistics.extremeWithIndices(x, dim, keepDim, true);
  }

  /**
   * {@link Tensor#min(int, boolean)}: {@code torch.min(x, dim)}.
   *
   * @param x the tensor
   * @param dim the dimension (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @return the result
   */
  public static ValuesIndices min(Tensor x, int dim, boolean keepDim) {
    return Statistics.extremeWithIndices(x, dim, keepDim, false);
  }

  /**
   * {@link Tensor#countNonzero(int...)}: {@code torch.count_nonzero}.
   *
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @return the result
   */
  public static Tensor countNonzero(Tensor x, int... dims) {
    return Statistics.countNonzero(x, dims);
  }

  /**
   * {@link Tensor#norm(double, int[], boolean)}: {@code torch.linalg.vector_norm}.
   *
   * @param p the order of the norm
   * @param x the tensor
   * @param dims the dimensions (negative counts from the end)
   * @param keepDim whether the reduced dimensions stay, with size 1
   * @return the result
   */
  public static Tensor norm(Tensor x, double p, int[] dims, boolean keepDim) {
    return Statistics.norm(x, p, dims, keepDim);
  }

  private static Tensor requireOut(String name, Tensor out) {
    if (out == null) {
      throw new IllegalArgumentException(name + "(): out must not be null; call the form without out");
    }
    return out;
  }
}
