package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The op {@code lerpHalf} declared by {@link golden.Ops}: its operands and kernel table (1 entries).
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_lerpHalf {
  static final ElementwiseOp OP = ElementwiseOp.builder("lerpHalf", "golden.Ops")
      .tensor("a")
      .tensor("b")
      .scalar("w", ElementwiseOp.ScalarKind.DOUBLE)
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(false)
      .backward(0, Ops_lerpHalf_grad_a.OP)
      .backward(1, Ops_lerpHalf_grad_b.OP)
      .entry(DType.FLOAT16, DType.FLOAT32, DType.FLOAT16, DType.FLOAT16, DType.FLOAT16)
      .kernels(Ops_lerpHalf::kernel)
      .build();

  private Ops_lerpHalf() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_lerpHalf_w32.FLOAT16_FLOAT16;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
