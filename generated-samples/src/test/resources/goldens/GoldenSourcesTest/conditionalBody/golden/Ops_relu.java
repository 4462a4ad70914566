package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The op {@code relu} declared by {@link golden.Ops}: its operands and kernel table (1 entries).
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_relu {
  static final ElementwiseOp OP = ElementwiseOp.builder("relu", "golden.Ops")
      .tensor("x")
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(false)
      .entry(DType.BFLOAT16, DType.FLOAT32, DType.BFLOAT16, DType.BFLOAT16)
      .kernels(Ops_relu::kernel)
      .build();

  private Ops_relu() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_relu_w32min2.BFLOAT16;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
