package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The op {@code greater} declared by {@link golden.Ops}: its operands and kernel table (4 entries).
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_greater {
  static final ElementwiseOp OP = ElementwiseOp.builder("greater", "golden.Ops")
      .tensor("a")
      .tensor("b")
      .promote(Promote.PROMOTE)
      .predicate(true)
      .mayThrow(false)
      .entry(DType.INT16, DType.INT16, DType.BOOL, DType.INT16, DType.INT16)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.BOOL, DType.INT16, DType.FLOAT32)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.BOOL, DType.FLOAT32, DType.INT16)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.BOOL, DType.FLOAT32, DType.FLOAT32)
      .kernels(Ops_greater::kernel)
      .build();

  private Ops_greater() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_greater_w16min4.INT16_INT16;
      case 1 -> Ops_greater_w32min4.INT16_FLOAT32;
      case 2 -> Ops_greater_w32min4.FLOAT32_INT16;
      case 3 -> Ops_greater_w32min4.FLOAT32_FLOAT32;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
