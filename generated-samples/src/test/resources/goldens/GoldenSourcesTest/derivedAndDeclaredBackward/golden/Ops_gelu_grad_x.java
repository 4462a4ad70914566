package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The gradient of {@link golden.Ops#gelu(double)} with respect to {@code x}, derived from the op's body: an op over the incoming gradient and the operands the formula reads, one kernel per floating dtype (1). Per element it computes
 * <pre>{@code
 * final double inner = 0.7978845608028654 * (x + 0.044715 * (x * x * x));
 * final double dInner = 0.7978845608028654 * (1.0 + 0.044715 * ((x + x) * x + x * x));
 * final double tanh = Math.tanh(inner);
 * return grad * (0.5 * (1.0 + tanh) + 0.5 * x * (dInner * (1.0 - tanh * tanh)));
 * }</pre>
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_gelu_grad_x {
  static final ElementwiseOp OP = ElementwiseOp.builder("gelu_grad_x", "golden.Ops")
      .tensor("grad")
      .tensor("x")
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(false)
      .cost(4)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32)
      .kernels(Ops_gelu_grad_x::kernel)
      .build();

  private Ops_gelu_grad_x() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_gelu_grad_x_w32.FLOAT32_FLOAT32;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
