package golden;

import dev.ufunc4j.annotation.Identity;
import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The op {@code and} declared by {@link golden.Ops}: its operands and kernel table (1 entries).
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_and {
  static final ElementwiseOp OP = ElementwiseOp.builder("and", "golden.Ops")
      .tensor("a")
      .tensor("b")
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(false)
      .identity(Identity.MINUS_ONE)
      .associative(true)
      .entry(DType.INT32, DType.INT32, DType.INT32, DType.INT32, DType.INT32)
      .kernels(Ops_and::kernel)
      .build();

  private Ops_and() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_and_w32f_int32.INT32_INT32;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
