package golden;

import dev.ufunc4j.Tensor;
import dev.ufunc4j.kernel.Dispatch;
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
   * Applies {@link golden.Ops#softSign(double)} (floating dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the dtype of {@code x}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * @param x a tensor operand
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public static Tensor softSign(Tensor x) {
    return Dispatch.apply(Ops_softSign.OP, null, x);
  }

  /**
   * Applies {@link golden.Ops#softSign(double)} (floating dtypes)
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
  public static Tensor softSign(Tensor x, Tensor out) {
    return Dispatch.apply(Ops_softSign.OP, out, x);
  }

  /**
   * Applies {@link golden.Ops#softSquare(double, double)} (floating dtypes)
   * to each element of the broadcast operands, into a new tensor.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code x} and {@code scale}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * @param x a tensor operand
   * @param scale a wrapped scalar: {@code Long}/{@code Integer} promotes as a Python int,
   *     {@code Double}/{@code Float} as a Python float
   * @return a new tensor of the broadcast shape and the result dtype
   */
  public static Tensor softSquare(Tensor x, Number scale) {
    return Dispatch.apply(Ops_softSquare.OP, null, new Tensor[] {x}, new Object[] {scale});
  }

  /**
   * Applies {@link golden.Ops#softSquare(double, double)} (floating dtypes)
   * to each element of the broadcast operands, writing {@code out}.
   *
   * <p>Promotion ({@code PROMOTE}): computes in the common dtype of {@code x} and {@code scale}
   * (PyTorch's {@code result_type}: dimensioned tensors, then zero-dim tensors, then wrapped numbers);
   * float16 and bfloat16 compute in float32 and round once.
   *
   * <p>{@code out} must have the broadcast shape, and the result dtype must cast to its dtype
   * (PyTorch's same-kind rule); it may be an operand itself (in place), but must not partially
   * overlap one. Nothing is written when a check fails.
   *
   * @param x a tensor operand
   * @param scale a wrapped scalar: {@code Long}/{@code Integer} promotes as a Python int,
   *     {@code Double}/{@code Float} as a Python float
   * @param out the target
   * @return {@code out}
   */
  public static Tensor softSquare(Tensor x, Number scale, Tensor out) {
    return Dispatch.apply(Ops_softSquare.OP, out, new Tensor[] {x}, new Object[] {scale});
  }
}
