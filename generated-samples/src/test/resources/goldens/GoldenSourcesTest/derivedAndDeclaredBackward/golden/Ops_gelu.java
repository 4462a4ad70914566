package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The op {@code gelu} declared by {@link golden.Ops}: its operands and kernel table (1 entries).
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_gelu {
  static final ElementwiseOp OP = ElementwiseOp.builder("gelu", "golden.Ops")
      .tensor("x")
      .promote(Promote.INT_TO_FLOAT)
      .predicate(false)
      .mayThrow(false)
      .cost(4)
      .backward(0, Ops_gelu_grad_x.OP)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32)
      .kernels(Ops_gelu::kernel)
      .build();

  private Ops_gelu() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_gelu_w32.FLOAT32;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
