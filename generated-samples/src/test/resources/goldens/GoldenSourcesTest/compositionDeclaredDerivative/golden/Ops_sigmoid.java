package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The op {@code sigmoid} declared by {@link golden.Ops}: its operands and kernel table (1 entries).
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_sigmoid {
  static final ElementwiseOp OP = ElementwiseOp.builder("sigmoid", "golden.Ops")
      .tensor("x")
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(false)
      .cost(4)
      .backward(0, Ops_sigmoid_grad_x.OP)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32)
      .kernels(Ops_sigmoid::kernel)
      .build();

  private Ops_sigmoid() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_sigmoid_w32.FLOAT32;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
