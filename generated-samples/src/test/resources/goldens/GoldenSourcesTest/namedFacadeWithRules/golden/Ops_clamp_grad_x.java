package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The gradient of {@link golden.Ops#clamp(double, double, double)} with respect to {@code x}, derived from the op's body: an op over the incoming gradient and the operands the formula reads, one kernel per floating dtype (1). Per element it computes
 * <pre>{@code
 * final double max = Math.max(x, lo);
 * return max == hi ? (x == lo ? grad * 0.25 : x < lo ? 0.0 : grad * 0.5) : max > hi ? 0.0 : x == lo ? grad * 0.5 : x < lo ? 0.0 : grad;
 * }</pre>
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_clamp_grad_x {
  static final ElementwiseOp OP = ElementwiseOp.builder("clamp_grad_x", "golden.Ops")
      .tensor("grad")
      .tensor("x")
      .tensor("lo")
      .tensor("hi")
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(false)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32)
      .kernels(Ops_clamp_grad_x::kernel)
      .build();

  private Ops_clamp_grad_x() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_clamp_grad_x_w32.FLOAT32_FLOAT32_FLOAT32_FLOAT32;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
