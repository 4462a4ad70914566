package golden;

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
   * Applies {@link golden.Ops#sigmoid(double)} (floating dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the dtype of {@code x}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * @param x a tensor operand
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public static Tensor sigmoid(Tensor x) {
    return Dispatch.apply(Ops_sigmoid.OP, null, x);
  }

  /**
   * Applies {@link golden.Ops#sigmoid(double)} (floating dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the dtype of {@code x}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * <p>{@code out} must have the broadcast shape, and the result dtype must cast to its dtype
   * (PyTorch's same-kind rule); it may be an operand itself (in place), but must not partially
   * overlap one. Nothing is written when a check fails.
   *
   * @param x a tensor operand
   * @param out the target
   * @return {@code out}
   */
  public static Tensor sigmoid(Tensor x, Tensor out) {
    return Dispatch.apply(Ops_sigmoid.OP, out, x);
  }

  /**
   * Applies {@link golden.Ops#silu(double)} (floating dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the dtype of {@code x}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * @param x a tensor operand
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public static Tensor silu(Tensor x) {
    return Dispatch.apply(Ops_silu.OP, null, x);
  }

  /**
   * Applies {@link golden.Ops#silu(double)} (floating dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the dtype of {@code x}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * <p>{@code out} must have the broadcast shape, and the result dtype must cast to its dtype
   * (PyTorch's same-kind rule); it may be an operand itself (in place), but must not partially
   * overlap one. Nothing is written when a check fails.
   *
   * @param x a tensor operand
   * @param out the target
   * @return {@code out}
   */
  public static Tensor silu(Tensor x, Tensor out) {
    return Dispatch.apply(Ops_silu.OP, out, x);
  }
}
