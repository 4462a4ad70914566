package golden;

import dev.ufunc4j.Dispatch;
import dev.ufunc4j.Tensor;
import javax.annotation.processing.Generated;

/**
 * Tensor operations for the {@code @Elementwise} methods of {@link golden.Ops}: each method broadcasts its
 * tensor operands, promotes them as PyTorch does and runs the generated kernels through {@link Dispatch}.
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
public final class OpsOps {
  private OpsOps() {
  }

  /**
   * Applies {@link golden.Ops#div(double, double)} (floating dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * @param a a tensor operand
   * @param b a tensor operand
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public static Tensor div(Tensor a, Tensor b) {
    return Dispatch.apply(Ops_div.OP, null, a, b);
  }

  /**
   * Applies {@link golden.Ops#div(double, double)} (floating dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
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
  public static Tensor div(Tensor a, Tensor b, Tensor out) {
    return Dispatch.apply(Ops_div.OP, out, a, b);
  }

  /**
   * Applies {@link golden.Ops#div(double, double)} (floating dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * @param a a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @param b a tensor operand
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public static Tensor div(Number a, Tensor b) {
    return Dispatch.apply(Ops_div.OP, null, Dispatch.wrap(Ops_div.OP, 0, a), b);
  }

  /**
   * Applies {@link golden.Ops#div(double, double)} (floating dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
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
   * @param out the target
   * @return {@code out}
   */
  public static Tensor div(Number a, Tensor b, Tensor out) {
    return Dispatch.apply(Ops_div.OP, out, Dispatch.wrap(Ops_div.OP, 0, a), b);
  }

  /**
   * Applies {@link golden.Ops#div(double, double)} (floating dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * @param a a tensor operand
   * @param b a Java number, wrapped as PyTorch wraps a Python scalar (integral or floating by its
   *     Java type; it does not raise the tensors' dtype within its category)
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public static Tensor div(Tensor a, Number b) {
    return Dispatch.apply(Ops_div.OP, null, a, Dispatch.wrap(Ops_div.OP, 1, b));
  }

  /**
   * Applies {@link golden.Ops#div(double, double)} (floating dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code a} and {@code b}
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
   * @param out the target
   * @return {@code out}
   */
  public static Tensor div(Tensor a, Number b, Tensor out) {
    return Dispatch.apply(Ops_div.OP, out, a, Dispatch.wrap(Ops_div.OP, 1, b));
  }
}
