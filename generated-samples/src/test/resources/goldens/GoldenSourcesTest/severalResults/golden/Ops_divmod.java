package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The op {@code divmod} declared by {@link golden.Ops}: its operands and kernel table (1 entries).
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_divmod {
  static final ElementwiseOp OP = ElementwiseOp.builder("divmod", "golden.Ops")
      .tensor("a")
      .tensor("b")
      .promote(Promote.PROMOTE)
      .predicate(false)
      .result("quotient", false)
      .result("remainder", false)
      .mayThrow(true)
      .entry(DType.INT32, DType.INT32, DType.INT32, DType.INT32, DType.INT32)
      .kernels(Ops_divmod::kernel)
      .build();

  private Ops_divmod() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_divmod_w32.INT32_INT32;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
