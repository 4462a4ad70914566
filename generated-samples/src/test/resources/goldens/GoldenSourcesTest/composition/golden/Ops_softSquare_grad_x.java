package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The gradient of {@link golden.Ops#softSquare(double, double)} with respect to {@code x}, derived from the op's body: an op over the incoming gradient and the operands the formula reads, one kernel per floating dtype (1). Per element it computes
 * <pre>{@code
 * final double softSign_x = x * scale;
 * final double t1 = 1.0 + Math.abs(softSign_x);
 * final double t = softSign_x / t1;
 * final double square_x = t;
 * final double dSquare_x = scale / t1 - (softSign_x > 0.0 ? scale : softSign_x < 0.0 ? -scale : 0.0) * (t / t1);
 * final double square_s = square_x * square_x;
 * final double dSquare_s = dSquare_x * square_x + square_x * dSquare_x;
 * return grad * (dSquare_s * square_s + square_s * dSquare_s);
 * }</pre>
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_softSquare_grad_x {
  static final ElementwiseOp OP = ElementwiseOp.builder("softSquare_grad_x", "golden.Ops")
      .tensor("grad")
      .tensor("x")
      .scalar("scale", ElementwiseOp.ScalarKind.DOUBLE)
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(false)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32)
      .kernels(Ops_softSquare_grad_x::kernel)
      .build();

  private Ops_softSquare_grad_x() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_softSquare_grad_x_w32.FLOAT32_FLOAT32;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
