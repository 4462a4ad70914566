package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The gradient of {@link golden.Ops#lerpHalf(double, double, double)} with respect to {@code b}, derived from the op's body: an op over the incoming gradient and the operands the formula reads, one kernel per floating dtype (1). Per element it computes
 * <pre>{@code
 * return -(grad * w / 2.5);
 * }</pre>
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_lerpHalf_grad_b {
  static final ElementwiseOp OP = ElementwiseOp.builder("lerpHalf_grad_b", "golden.Ops")
      .tensor("grad")
      .scalar("w", ElementwiseOp.ScalarKind.DOUBLE)
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(false)
      .entry(DType.FLOAT16, DType.FLOAT32, DType.FLOAT16, DType.FLOAT16)
      .kernels(Ops_lerpHalf_grad_b::kernel)
      .build();

  private Ops_lerpHalf_grad_b() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_lerpHalf_grad_b_w32.FLOAT16;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
