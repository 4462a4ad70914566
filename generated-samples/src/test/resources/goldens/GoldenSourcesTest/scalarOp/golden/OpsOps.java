package golden;

import dev.ufunc4j.BroadcastDims;
import dev.ufunc4j.Dispatch;
import dev.ufunc4j.Tensor;
import javax.annotation.processing.Generated;

/**
 * The {@code @Elementwise} ops of {@link golden.Ops} as static methods. Each broadcasts its tensor operands
 * against each other, promotes them to a common dtype as PyTorch does and returns a new tensor;
 * the form with a last {@code out} tensor writes the result there instead (in place when it is
 * the first operand). Each method names the dtypes it computes.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
public final class OpsOps {
  private OpsOps() {
  }

  /**
   * Applies {@link golden.Ops#scaledAdd(double, double, double)} (floating dtypes),
   * {@link golden.Ops#scaledAdd(long, long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a}, {@code b} and {@code alpha}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * @param a a tensor operand
   * @param b a tensor operand
   * @param alpha a wrapped scalar: {@code Long}/{@code Integer} promotes as a Python int,
   *     {@code Double}/{@code Float} as a Python float
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public static Tensor scaledAdd(Tensor a, Tensor b, Number alpha) {
    return Dispatch.apply(Ops_scaledAdd.OP, null, new Tensor[] {a, b}, new Object[] {alpha});
  }

  /**
   * Applies {@link golden.Ops#scaledAdd(double, double, double)} (floating dtypes),
   * {@link golden.Ops#scaledAdd(long, long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a}, {@code b} and {@code alpha}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * <p>{@code out} must have the broadcast shape, and the result dtype must cast to its dtype
   * (PyTorch's same-kind rule); it may be an operand itself (in place), but must not partially
   * overlap one. Nothing is written when a check fails.
   *
   * @param a a tensor operand
   * @param b a tensor operand
   * @param alpha a wrapped scalar: {@code Long}/{@code Integer} promotes as a Python int,
   *     {@code Double}/{@code Float} as a Python float
   * @param out the target
   * @return {@code out}
   */
  public static Tensor scaledAdd(Tensor a, Tensor b, Number alpha, Tensor out) {
    return Dispatch.apply(Ops_scaledAdd.OP, out, new Tensor[] {a, b}, new Object[] {alpha});
  }

  /**
   * Applies {@link golden.Ops#scaledAdd(double, double, double)} (floating dtypes),
   * {@link golden.Ops#scaledAdd(long, long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a}, {@code b} and {@code alpha}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * @param a a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @param b a tensor operand
   * @param alpha a wrapped scalar: {@code Long}/{@code Integer} promotes as a Python int,
   *     {@code Double}/{@code Float} as a Python float
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public static Tensor scaledAdd(Number a, Tensor b, Number alpha) {
    return Dispatch.apply(Ops_scaledAdd.OP, null,
        new Tensor[] {Dispatch.wrap(Ops_scaledAdd.OP, 0, a), b}, new Object[] {alpha});
  }

  /**
   * Applies {@link golden.Ops#scaledAdd(double, double, double)} (floating dtypes),
   * {@link golden.Ops#scaledAdd(long, long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a}, {@code b} and {@code alpha}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * <p>{@code out} must have the broadcast shape, and the result dtype must cast to its dtype
   * (PyTorch's same-kind rule); it may be an operand itself (in place), but must not partially
   * overlap one. Nothing is written when a check fails.
   *
   * @param a a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @param b a tensor operand
   * @param alpha a wrapped scalar: {@code Long}/{@code Integer} promotes as a Python int,
   *     {@code Double}/{@code Float} as a Python float
   * @param out the target
   * @return {@code out}
   */
  public static Tensor scaledAdd(Number a, Tensor b, Number alpha, Tensor out) {
    return Dispatch.apply(Ops_scaledAdd.OP, out,
        new Tensor[] {Dispatch.wrap(Ops_scaledAdd.OP, 0, a), b}, new Object[] {alpha});
  }

  /**
   * Applies {@link golden.Ops#scaledAdd(double, double, double)} (floating dtypes),
   * {@link golden.Ops#scaledAdd(long, long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a}, {@code b} and {@code alpha}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * @param a a tensor operand
   * @param b a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @param alpha a wrapped scalar: {@code Long}/{@code Integer} promotes as a Python int,
   *     {@code Double}/{@code Float} as a Python float
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public static Tensor scaledAdd(Tensor a, Number b, Number alpha) {
    return Dispatch.apply(Ops_scaledAdd.OP, null,
        new Tensor[] {a, Dispatch.wrap(Ops_scaledAdd.OP, 1, b)}, new Object[] {alpha});
  }

  /**
   * Applies {@link golden.Ops#scaledAdd(double, double, double)} (floating dtypes),
   * {@link golden.Ops#scaledAdd(long, long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a}, {@code b} and {@code alpha}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * <p>{@code out} must have the broadcast shape, and the result dtype must cast to its dtype
   * (PyTorch's same-kind rule); it may be an operand itself (in place), but must not partially
   * overlap one. Nothing is written when a check fails.
   *
   * @param a a tensor operand
   * @param b a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @param alpha a wrapped scalar: {@code Long}/{@code Integer} promotes as a Python int,
   *     {@code Double}/{@code Float} as a Python float
   * @param out the target
   * @return {@code out}
   */
  public static Tensor scaledAdd(Tensor a, Number b, Number alpha, Tensor out) {
    return Dispatch.apply(Ops_scaledAdd.OP, out,
        new Tensor[] {a, Dispatch.wrap(Ops_scaledAdd.OP, 1, b)}, new Object[] {alpha});
  }

  /**
   * Applies {@link golden.Ops#scaledAdd(double, double, double)} (floating dtypes),
   * {@link golden.Ops#scaledAdd(long, long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a}, {@code b} and {@code alpha}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * @param a a Java boolean, wrapped as PyTorch wraps a Python bool (the lowest category: it
   *     never raises a tensor's dtype, and beside bool tensors the result is bool)
   * @param b a tensor operand
   * @param alpha a wrapped scalar: {@code Long}/{@code Integer} promotes as a Python int,
   *     {@code Double}/{@code Float} as a Python float
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public static Tensor scaledAdd(boolean a, Tensor b, Number alpha) {
    return Dispatch.apply(Ops_scaledAdd.OP, null,
        new Tensor[] {Dispatch.wrap(Ops_scaledAdd.OP, 0, a), b}, new Object[] {alpha});
  }

  /**
   * Applies {@link golden.Ops#scaledAdd(double, double, double)} (floating dtypes),
   * {@link golden.Ops#scaledAdd(long, long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a}, {@code b} and {@code alpha}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * <p>{@code out} must have the broadcast shape, and the result dtype must cast to its dtype
   * (PyTorch's same-kind rule); it may be an operand itself (in place), but must not partially
   * overlap one. Nothing is written when a check fails.
   *
   * @param a a Java boolean, wrapped as PyTorch wraps a Python bool (the lowest category: it
   *     never raises a tensor's dtype, and beside bool tensors the result is bool)
   * @param b a tensor operand
   * @param alpha a wrapped scalar: {@code Long}/{@code Integer} promotes as a Python int,
   *     {@code Double}/{@code Float} as a Python float
   * @param out the target
   * @return {@code out}
   */
  public static Tensor scaledAdd(boolean a, Tensor b, Number alpha, Tensor out) {
    return Dispatch.apply(Ops_scaledAdd.OP, out,
        new Tensor[] {Dispatch.wrap(Ops_scaledAdd.OP, 0, a), b}, new Object[] {alpha});
  }

  /**
   * Applies {@link golden.Ops#scaledAdd(double, double, double)} (floating dtypes),
   * {@link golden.Ops#scaledAdd(long, long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a}, {@code b} and {@code alpha}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * @param a a tensor operand
   * @param b a Java boolean, wrapped as PyTorch wraps a Python bool (the lowest category: it
   *     never raises a tensor's dtype, and beside bool tensors the result is bool)
   * @param alpha a wrapped scalar: {@code Long}/{@code Integer} promotes as a Python int,
   *     {@code Double}/{@code Float} as a Python float
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public static Tensor scaledAdd(Tensor a, boolean b, Number alpha) {
    return Dispatch.apply(Ops_scaledAdd.OP, null,
        new Tensor[] {a, Dispatch.wrap(Ops_scaledAdd.OP, 1, b)}, new Object[] {alpha});
  }

  /**
   * Applies {@link golden.Ops#scaledAdd(double, double, double)} (floating dtypes),
   * {@link golden.Ops#scaledAdd(long, long, long)} (integral and bool dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a}, {@code b} and {@code alpha}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * <p>{@code out} must have the broadcast shape, and the result dtype must cast to its dtype
   * (PyTorch's same-kind rule); it may be an operand itself (in place), but must not partially
   * overlap one. Nothing is written when a check fails.
   *
   * @param a a tensor operand
   * @param b a Java boolean, wrapped as PyTorch wraps a Python bool (the lowest category: it
   *     never raises a tensor's dtype, and beside bool tensors the result is bool)
   * @param alpha a wrapped scalar: {@code Long}/{@code Integer} promotes as a Python int,
   *     {@code Double}/{@code Float} as a Python float
   * @param out the target
   * @return {@code out}
   */
  public static Tensor scaledAdd(Tensor a, boolean b, Number alpha, Tensor out) {
    return Dispatch.apply(Ops_scaledAdd.OP, out,
        new Tensor[] {a, Dispatch.wrap(Ops_scaledAdd.OP, 1, b)}, new Object[] {alpha});
  }

  /**
   * {@link #scaledAdd} with XLA's explicit broadcasting: the lower-rank of {@code a} and {@code b} is first
   * lifted to the other's rank, its dimension {@code i} becoming dimension {@code dims.get(i)}
   * ({@link dev.ufunc4j.Broadcast#inDim}, a view), then the operands broadcast as usual. For equal ranks
   * {@code dims} must be empty or the identity.
   *
   * @param a a tensor operand
   * @param b a tensor operand
   * @param alpha a wrapped scalar, as in {@link #scaledAdd}
   * @param dims XLA's {@code broadcast_dimensions} for the lower-rank operand
   * @return a new tensor of the broadcast shape
   */
  public static Tensor scaledAdd(Tensor a, Tensor b, Number alpha, BroadcastDims dims) {
    Tensor[] operands = Dispatch.liftWithDims(Ops_scaledAdd.OP, a, b, dims);
    return Dispatch.apply(Ops_scaledAdd.OP, null, operands, new Object[] {alpha});
  }
}
