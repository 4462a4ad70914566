package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The op {@code sub} declared by {@link golden.Ops}: its operands and kernel table (1 entries).
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_sub {
  static final ElementwiseOp OP = ElementwiseOp.builder("sub", "golden.Ops")
      .tensor("a")
      .tensor("b")
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(false)
      .backwardIdentity(0)
      .backward(1, Ops_sub_grad_b.OP)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32)
      .kernels(Ops_sub::kernel)
      .build();

  private Ops_sub() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_sub_w32f.FLOAT32_FLOAT32;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
