package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The op {@code safeDiv} declared by {@link golden.Ops}: its operands and kernel table (1 entries).
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_safeDiv {
  static final ElementwiseOp OP = ElementwiseOp.builder("safeDiv", "golden.Ops")
      .tensor("a")
      .tensor("b")
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(true)
      .entry(DType.INT8, DType.INT8, DType.INT8, DType.INT8, DType.INT8)
      .kernels(Ops_safeDiv::kernel)
      .build();

  private Ops_safeDiv() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_safeDiv_w8.INT8_INT8;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
