package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The op {@code div} declared by {@link golden.Ops}: its operands and kernel table (4 entries).
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_div {
  static final ElementwiseOp OP = ElementwiseOp.builder("div", "golden.Ops")
      .tensor("a")
      .tensor("b")
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(false)
      .backward(0, Ops_div_grad_a.OP)
      .backward(1, Ops_div_grad_b.OP)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32)
      .entry(DType.COMPLEX64, DType.COMPLEX64, DType.COMPLEX64, DType.FLOAT32, DType.COMPLEX64)
      .entry(DType.COMPLEX64, DType.COMPLEX64, DType.COMPLEX64, DType.COMPLEX64, DType.FLOAT32)
      .entry(DType.COMPLEX64, DType.COMPLEX64, DType.COMPLEX64, DType.COMPLEX64, DType.COMPLEX64)
      .kernels(Ops_div::kernel)
      .build();

  private Ops_div() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_div_w32f.FLOAT32_FLOAT32;
      case 1 -> Ops_div_w64min2.FLOAT32_COMPLEX64;
      case 2 -> Ops_div_w64min2.COMPLEX64_FLOAT32;
      case 3 -> Ops_div_w64min2.COMPLEX64_COMPLEX64;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
