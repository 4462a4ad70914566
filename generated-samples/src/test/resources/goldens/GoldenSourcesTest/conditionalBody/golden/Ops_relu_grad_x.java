package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The gradient of {@link golden.Ops#relu(double)} with respect to {@code x}, derived from the op's body: an op over the incoming gradient and the operands the formula reads, one kernel per floating dtype (1). Per element it computes
 * <pre>{@code
 * return x > 0.0 ? grad : 0.0;
 * }</pre>
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_relu_grad_x {
  static final ElementwiseOp OP = ElementwiseOp.builder("relu_grad_x", "golden.Ops")
      .tensor("grad")
      .tensor("x")
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(false)
      .entry(DType.BFLOAT16, DType.FLOAT32, DType.BFLOAT16, DType.BFLOAT16, DType.BFLOAT16)
      .kernels(Ops_relu_grad_x::kernel)
      .build();

  private Ops_relu_grad_x() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_relu_grad_x_w32min2.BFLOAT16_BFLOAT16;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
