package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The op {@code split} declared by {@link golden.Ops}: its operands and kernel table (2 entries).
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_split {
  static final ElementwiseOp OP = ElementwiseOp.builder("split", "golden.Ops")
      .tensor("x")
      .scalar("scale", ElementwiseOp.ScalarKind.DOUBLE)
      .promote(Promote.PROMOTE)
      .predicate(false)
      .result("whole", false)
      .result("fraction", false)
      .result("negative", true)
      .mayThrow(false)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.INT32)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32)
      .kernels(Ops_split::kernel)
      .build();

  private Ops_split() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_split_w32min4.INT32_AS_FLOAT32;
      case 1 -> Ops_split_w32min4.FLOAT32;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
