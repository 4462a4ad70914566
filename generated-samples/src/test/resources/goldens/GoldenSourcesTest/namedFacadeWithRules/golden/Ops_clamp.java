package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The op {@code clamp} declared by {@link golden.Ops}: its operands and kernel table (1 entries).
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_clamp {
  static final ElementwiseOp OP = ElementwiseOp.builder("clamp", "golden.Ops")
      .tensor("x")
      .tensor("lo")
      .tensor("hi")
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(false)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32)
      .kernels(Ops_clamp::kernel)
      .build();

  private Ops_clamp() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_clamp_w32.FLOAT32_FLOAT32_FLOAT32;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
