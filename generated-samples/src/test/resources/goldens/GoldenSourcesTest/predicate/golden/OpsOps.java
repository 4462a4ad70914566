package golden;

import dev.ufunc4j.BinaryUfunc;
import dev.ufunc4j.BroadcastDims;
import dev.ufunc4j.Dispatch;
import dev.ufunc4j.Tensor;
import java.lang.invoke.MethodHandles;
import javax.annotation.processing.Generated;

/**
 * The {@code @Elementwise} ops of {@link golden.Ops} as static methods. Each broadcasts its tensor operands
 * against each other, promotes them to a common dtype as PyTorch does and returns a new tensor;
 * the form with a last {@code out} tensor writes the result there instead (in place when it is
 * the first operand). Each method names the dtypes it computes.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
public final class OpsOps {
  /**
   * The ufunc methods of {@code greater}: {@code reduce}, {@code accumulate}, {@code outer},
   * {@code at} and {@code reduceAt}, as NumPy's {@code np.<ufunc>.reduce} and friends
   * (identity {@code NONE}, not associative: left fold; docs/ufuncs.md).
   */
  public static final BinaryUfunc greater = BinaryUfunc.of(MethodHandles.lookup(),
      Ops_greater.class, "greater");

  private OpsOps() {
  }

  /**
   * Applies {@link golden.Ops#greater(double, double)} (floating dtypes),
   * {@link golden.Ops#greater(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. The result is bool.
   *
   * @param a a tensor operand
   * @param b a tensor operand
   * @return a new tensor of the broadcast shape and the dtype bool
   */
  public static Tensor greater(Tensor a, Tensor b) {
    return Dispatch.apply(Ops_greater.OP, null, a, b);
  }

  /**
   * Applies {@link golden.Ops#greater(double, double)} (floating dtypes),
   * {@link golden.Ops#greater(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. The result is bool.
   *
   * <p>{@code out} must have the broadcast shape, and the result dtype must cast to its dtype
   * (PyTorch's same-kind rule); it may be an operand itself (in place), but must not partially
   * overlap one. Nothing is written when a check fails.
   *
   * @param a a tensor operand
   * @param b a tensor operand
   * @param out the target
   * @return {@code out}
   */
  public static Tensor greater(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Ops_greater.OP, out, a, b);
  }

  /**
   * Applies {@link golden.Ops#greater(double, double)} (floating dtypes),
   * {@link golden.Ops#greater(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. The result is bool.
   *
   * @param a a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @param b a tensor operand
   * @return a new tensor of the broadcast shape and the dtype bool
   */
  public static Tensor greater(Number a, Tensor b) {
    return Dispatch.apply(Ops_greater.OP, null, Dispatch.wrap(Ops_greater.OP, 0, a), b);
  }

  /**
   * Applies {@link golden.Ops#greater(double, double)} (floating dtypes),
   * {@link golden.Ops#greater(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. The result is bool.
   *
   * <p>{@code out} must have the broadcast shape, and the result dtype must cast to its dtype
   * (PyTorch's same-kind rule); it may be an operand itself (in place), but must not partially
   * overlap one. Nothing is written when a check fails.
   *
   * @param a a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @param b a tensor operand
   * @param out the target
   * @return {@code out}
   */
  public static Tensor greater(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Ops_greater.OP, out, Dispatch.wrap(Ops_greater.OP, 0, a), b);
  }

  /**
   * Applies {@link golden.Ops#greater(double, double)} (floating dtypes),
   * {@link golden.Ops#greater(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. The result is bool.
   *
   * @param a a tensor operand
   * @param b a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @return a new tensor of the broadcast shape and the dtype bool
   */
  public static Tensor greater(Tensor a, Number b) {
    return Dispatch.apply(Ops_greater.OP, null, a, Dispatch.wrap(Ops_greater.OP, 1, b));
  }

  /**
   * Applies {@link golden.Ops#greater(double, double)} (floating dtypes),
   * {@link golden.Ops#greater(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. The result is bool.
   *
   * <p>{@code out} must have the broadcast shape, and the result dtype must cast to its dtype
   * (PyTorch's same-kind rule); it may be an operand itself (in place), but must not partially
   * overlap one. Nothing is written when a check fails.
   *
   * @param a a tensor operand
   * @param b a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @param out the target
   * @return {@code out}
   */
  public static Tensor greater(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Ops_greater.OP, out, a, Dispatch.wrap(Ops_greater.OP, 1, b));
  }

  /**
   * Applies {@link golden.Ops#greater(double, double)} (floating dtypes),
   * {@link golden.Ops#greater(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. The result is bool.
   *
   * @param a a Java boolean, wrapped as PyTorch wraps a Python bool (the lowest category: it
   *     never raises a tensor's dtype, and beside bool tensors the result is bool)
   * @param b a tensor operand
   * @return a new tensor of the broadcast shape and the dtype bool
   */
  public static Tensor greater(boolean a, Tensor b) {
    return Dispatch.apply(Ops_greater.OP, null, Dispatch.wrap(Ops_greater.OP, 0, a), b);
  }

  /**
   * Applies {@link golden.Ops#greater(double, double)} (floating dtypes),
   * {@link golden.Ops#greater(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. The result is bool.
   *
   * <p>{@code out} must have the broadcast shape, and the result dtype must cast to its dtype
   * (PyTorch's same-kind rule); it may be an operand itself (in place), but must not partially
   * overlap one. Nothing is written when a check fails.
   *
   * @param a a Java boolean, wrapped as PyTorch wraps a Python bool (the lowest category: it
   *     never raises a tensor's dtype, and beside bool tensors the result is bool)
   * @param b a tensor operand
   * @param out the target
   * @return {@code out}
   */
  public static Tensor greater(boolean a, Tensor b, Tensor out) {
    return Dispatch.apply(Ops_greater.OP, out, Dispatch.wrap(Ops_greater.OP, 0, a), b);
  }

  /**
   * Applies {@link golden.Ops#greater(double, double)} (floating dtypes),
   * {@link golden.Ops#greater(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. The result is bool.
   *
   * @param a a tensor operand
   * @param b a Java boolean, wrapped as PyTorch wraps a Python bool (the lowest category: it
   *     never raises a tensor's dtype, and beside bool tensors the result is bool)
   * @return a new tensor of the broadcast shape and the dtype bool
   */
  public static Tensor greater(Tensor a, boolean b) {
    return Dispatch.apply(Ops_greater.OP, null, a, Dispatch.wrap(Ops_greater.OP, 1, b));
  }

  /**
   * Applies {@link golden.Ops#greater(double, double)} (floating dtypes),
   * {@link golden.Ops#greater(long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once. The result is bool.
   *
   * <p>{@code out} must have the broadcast shape, and the result dtype must cast to its dtype
   * (PyTorch's same-kind rule); it may be an operand itself (in place), but must not partially
   * overlap one. Nothing is written when a check fails.
   *
   * @param a a tensor operand
   * @param b a Java boolean, wrapped as PyTorch wraps a Python bool (the lowest category: it
   *     never raises a tensor's dtype, and beside bool tensors the result is bool)
   * @param out the target
   * @return {@code out}
   */
  public static Tensor greater(Tensor a, boolean b, Tensor out) {
    return Dispatch.apply(Ops_greater.OP, out, a, Dispatch.wrap(Ops_greater.OP, 1, b));
  }

  /**
   * {@link #greater} with XLA's explicit broadcasting: the lower-rank of {@code a} and {@code b} is first
   * lifted to the other's rank, its dimension {@code i} becoming dimension {@code dims.get(i)}
   * ({@link dev.ufunc4j.Broadcast#inDim}, a view), then the operands broadcast as usual. For equal ranks
   * {@code dims} must be empty or the identity.
   *
   * @param a a tensor operand
   * @param b a tensor operand
   * @param dims XLA's {@code broadcast_dimensions} for the lower-rank operand
   * @return a new tensor of the broadcast shape
   */
  public static Tensor greater(Tensor a, Tensor b, BroadcastDims dims) {
    Tensor[] operands = Dispatch.liftWithDims(Ops_greater.OP, a, b, dims);
    return Dispatch.apply(Ops_greater.OP, null, operands);
  }
}
