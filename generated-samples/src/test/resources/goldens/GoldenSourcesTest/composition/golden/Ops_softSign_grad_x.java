package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The gradient of {@link golden.Ops#softSign(double)} with respect to {@code x}, derived from the op's body: an op over the incoming gradient and the operands the formula reads, one kernel per floating dtype (1). Per element it computes
 * <pre>{@code
 * final double t1 = 1.0 + Math.abs(x);
 * final double t = x / t1 / t1;
 * return grad * (1.0 / t1 - (x > 0.0 ? t : x < 0.0 ? -t : 0.0));
 * }</pre>
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_softSign_grad_x {
  static final ElementwiseOp OP = ElementwiseOp.builder("softSign_grad_x", "golden.Ops")
      .tensor("grad")
      .tensor("x")
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(false)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32)
      .kernels(Ops_softSign_grad_x::kernel)
      .build();

  private Ops_softSign_grad_x() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_softSign_grad_x_w32.FLOAT32_FLOAT32;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
