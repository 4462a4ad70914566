package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The gradient of {@link golden.Ops#silu(double)} with respect to {@code x}, derived from the op's body: an op over the incoming gradient and the operands the formula reads, one kernel per floating dtype (1). Per element it computes
 * <pre>{@code
 * final double t = 1.0 / (1.0 + Math.exp(-x));
 * return grad * (t + x * ((1.0 - t) * t));
 * }</pre>
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_silu_grad_x {
  static final ElementwiseOp OP = ElementwiseOp.builder("silu_grad_x", "golden.Ops")
      .tensor("grad")
      .tensor("x")
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(false)
      .cost(4)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32)
      .kernels(Ops_silu_grad_x::kernel)
      .build();

  private Ops_silu_grad_x() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_silu_grad_x_w32.FLOAT32_FLOAT32;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
