package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The gradient of {@link golden.Ops#silu(double)} with respect to {@code x}, derived from the op's body: an op over the incoming gradient and the operands the formula reads, one kernel per floating dtype (2). Per element it computes
 * <pre>{@code
 * final double exp = Math.exp(-x);
 * final double t = 1.0 + exp;
 * return grad * (1.0 / t + exp * (x / t / t));
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
      .entry(DType.FLOAT64, DType.FLOAT64, DType.FLOAT64, DType.FLOAT64, DType.FLOAT64)
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
      case 1 -> Ops_silu_grad_x_w64.FLOAT64_FLOAT64;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
