package dev.ufunc4j;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.Promotion;
import dev.ufunc4j.kernel.ElementwiseOp;

/**
 * Runs an {@link ElementwiseOp} on tensors: promotion, broadcasting, {@code out=} checks, the
 * kernel choice, the loop plan and the threads. Generated facades ({@code <Class>Ops}, and the
 * runtime's own {@code Ops}) call it; users call the facades. Public because generated code in
 * users' packages calls it; it lives here, in the public layer, because it takes and makes
 * {@link Tensor}s (the kernel layer below, {@code dev.ufunc4j.kernel}, knows only strided memory:
 * docs/architecture.md, "Layers").
 *
 * <p>One call is one {@link ElementwiseCall} taken through named steps, PyTorch's {@code
 * TensorIterator::build} in spirit; each step's comment in that class says what it decides:
 *
 * <ol>
 *   <li>{@code checkOperands}: refuse null and storage-only (float8) operands, condition operands
 *       that are not BOOL, and scalars that are not Java numbers;
 *   <li>{@code computeTypes}: the common dtype from PyTorch's {@code result_type} over the tensor
 *       operands and the wrapped scalars (condition operands excluded), then the op's {@link
 *       Promote} mode;
 *   <li>{@code computeMemOverlaps}: a target must not reach one element twice, and may share
 *       memory with an input only as exactly the same view;
 *   <li>{@code computeShape}: the broadcast shape;
 *   <li>{@code checkOutput}: a target must have that shape and accept the result dtype ({@link
 *       Promotion#canCast});
 *   <li>{@code selectKernel}: zero-dim operands (wrapped Java numbers included) are cast to the
 *       promoted dtype, as PyTorch casts CPU scalars; dimensioned operands keep their dtype and are
 *       converted in registers by the kernel; the table entry for those dtypes;
 *   <li>{@code allocate}: the result, or a temporary when the kernel stores another dtype than the
 *       target's or can fail midway (integer division by zero) while a target must stay untouched;
 *   <li>{@code run}: plan (reorder, coalesce) and run, in parallel above the grain size; copy a
 *       temporary into place.
 * </ol>
 *
 * <p>When an operand requires gradients (and grad mode is on), the call first takes autograd's
 * path ({@code dev.ufunc4j.GradGraph}): PyTorch's in-place and {@code out=} rules, the saved
 * operands, then the same steps with recording off, and the result's graph node. A call with a
 * target raises the target's version counter, as every write into an existing tensor does.
 *
 * <p>Every check runs before the first byte is written. The common call — operands dimensioned,
 * contiguous, of one dtype and one shape, no scalars — takes the same steps, each of which then
 * has nothing to compute (the common dtype is the operands' own, the shape theirs, the loop one
 * contiguous row); that is the fast path, measured per call in {@code benchmarks/RESULTS.md}.
 */
public final class Dispatch {
  static final Object[] NO_SCALARS = {};

  private Dispatch() {}

  /**
   * Applies {@code op} to tensor operands.
   *
   * @param op the op
   * @param inputs the tensor operands, in the op's order
   * @param out the target ({@code out=} or in-place), or null for a new result
   * @return the result: {@code out} when given
   */
  public static Tensor apply(ElementwiseOp op, Tensor out, Tensor... inputs) {
    return apply(op, out, inputs, NO_SCALARS);
  }

  /**
   * Applies {@code op} to tensor operands and {@code @Scalar} values ({@link Boolean}, {@link
   * Long}/{@link Integer}, or {@link Double}/{@link Float}; their Java type decides how they
   * promote, as a Python scalar's does in PyTorch).
   *
   * @param op the op
   * @param inputs the tensor operands, in the op's order
   * @param scalars the {@code @Scalar} values, in the op's order
   * @param out the target ({@code out=} or in-place), or null for a new result
   * @return the result: {@code out} when given
   */
  public static Tensor apply(ElementwiseOp op, Tensor out, Tensor[] inputs, Object[] scalars) {
    if (GradGraph.recording(out, inputs)) {
      // Autograd, the layer above the plain op (PyTorch's Autograd dispatch key; docs/gradients.md):
      // its rules and the saved operands, then plain(...), then the result's graph node.
      return GradGraph.elementwise(op, out, inputs, scalars);
    }
    return plain(op, out, inputs, scalars);
  }

  /**
   * The op itself, which knows nothing of gradients: the steps below, and the target's version
   * counter raised after the write (a tensor saved for backward and overwritten since is detected).
   * Autograd calls it once it has recorded what it needs.
   */
  static Tensor plain(ElementwiseOp op, Tensor out, Tensor[] inputs, Object[] scalars) {
    ElementwiseCall call = new ElementwiseCall(op, out, inputs, scalars);
    call.checkOperands();
    call.computeTypes();
    call.computeMemOverlaps();
    call.computeShape();
    call.checkOutput();
    call.selectKernel();
    call.allocate();
    Tensor result = call.run();
    if (out != null) {
      out.bumpVersion();
    }
    return result;
  }

  /**
   * {@link #applyResults(ElementwiseOp, Tensor[], Tensor[], Object[])} without {@code @Scalar}
   * values.
   *
   * @param op the op
   * @param outs one target per component, in order, or null for new results
   * @param inputs the tensor operands, in the op's order
   * @return the tensor of each component, in order: the targets when given
   */
  public static Tensor[] applyResults(ElementwiseOp op, Tensor[] outs, Tensor... inputs) {
    return applyResults(op, outs, inputs, NO_SCALARS);
  }

  /**
   * Applies an op with several results ({@link ElementwiseOp#resultNames()}, an op that returns a
   * record): one kernel computes the body once per element and writes a tensor per component.
   * The steps are {@link #apply}'s; each target is checked as {@code apply} checks its one (shape,
   * {@code canCast} from its component's dtype, overlap with the inputs), and no two targets may
   * share memory; every check runs before anything is written. Such ops have no gradients yet: a
   * call that would record one is refused.
   *
   * @param op the op
   * @param outs one target per component, in order, or null for new results
   * @param inputs the tensor operands, in the op's order
   * @param scalars the {@code @Scalar} values, in the op's order
   * @return the tensor of each component, in order: the targets when given
   */
  public static Tensor[] applyResults(
      ElementwiseOp op, Tensor[] outs, Tensor[] inputs, Object[] scalars) {
    if (op == null) {
      throw new IllegalArgumentException("op must not be null");
    }
    if (GradGraph.recordingAny(outs, inputs)) {
      throw new IllegalArgumentException(op.name() + " returns several results, which have no"
          + " gradients yet; call it on tensors that do not require gradients (detach() them, or"
          + " inside Autograd.noGrad())");
    }
    Tensor[] results = ElementwiseCall.applyResults(op, outs, inputs, scalars);
    if (outs != null) {
      for (Tensor out : outs) {
        out.bumpVersion();
      }
    }
    return results;
  }

  /**
   * {@return the two tensor operands of {@code op} with the lower-rank one lifted by XLA's
   * broadcast dimensions ({@link Broadcast#inDim}), ready for {@link #apply}; the other is returned
   * as it is} Generated facades call it for their {@link BroadcastDims} overloads.
   *
   * @param op the op
   * @param a the first operand
   * @param b the second operand
   * @param dims the dimensions (negative counts from the end)
   * @throws IllegalArgumentException for null dims, or dims that do not fit the operands (the
   *     message names the op, the shapes and the dims)
   */
  public static Tensor[] liftWithDims(ElementwiseOp op, Tensor a, Tensor b, BroadcastDims dims) {
    if (op == null) {
      throw new IllegalArgumentException("op must not be null");
    }
    return Broadcast.inDimOperands(op.name(), a, b, dims);
  }

  /**
   * {@return a Java number given where {@code op} takes tensor operand {@code operand}, as a
   * wrapped number (a zero-dim INT64 tensor for {@link Long}, {@link Integer}, {@link Short},
   * {@link Byte}; a zero-dim FLOAT64 one for {@link Double}, {@link Float}): it promotes as a
   * Python scalar does in PyTorch ({@code int32 tensor + 2.5} is float32)} Generated facades call
   * it for their {@code Number} overloads.
   *
   * @param op the op the value is an operand of
   * @param operand the operand's position, for the error message
   * @param value the value
   * @throws IllegalArgumentException for null or another {@link Number} type, naming the parameter
   */
  public static Tensor wrap(ElementwiseOp op, int operand, Number value) {
    if (value instanceof Long || value instanceof Integer || value instanceof Short
        || value instanceof Byte) {
      return Tensor.wrap(value.longValue());
    }
    if (value instanceof Double || value instanceof Float) {
      return Tensor.wrap(value.doubleValue());
    }
    throw new IllegalArgumentException(
        op.name() + ": number argument '" + op.tensorParams().get(operand) + "' must be a Java"
            + " integral or floating number (Long, Integer, Short, Byte, Double, Float), got "
            + (value == null ? "null" : value.getClass().getName()));
  }

  /**
   * {@return a Java {@code boolean} given where {@code op} takes tensor operand {@code operand}, as
   * a wrapped number: a zero-dim BOOL tensor that promotes as a Python bool does in PyTorch, in the
   * lowest category, so it never raises a tensor's dtype ({@code int8 tensor + true} is int8; two
   * bools stay bool)} Generated facades call it for their {@code boolean} overloads.
   *
   * @param op the op the value is an operand of
   * @param operand the operand's position, for the error message
   * @param value the value
   */
  public static Tensor wrap(ElementwiseOp op, int operand, boolean value) {
    return Tensor.wrap(value);
  }
}
