package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The op {@code mul} declared by {@link golden.Ops}: its operands and kernel table (4 entries).
 */
@Generated("dev.ufunc4j.processor.ElementwiseProcessor")
final class Ops_mul {
  static final ElementwiseOp OP = ElementwiseOp.builder("mul", "golden.Ops")
      .tensor("a")
      .tensor("b")
      .promote(Promote.PROMOTE)
      .predicate(false)
      .mayThrow(false)
      .dtypes(DType.INT64, DType.FLOAT32)
      .backward(0, Ops_mul_grad_a.OP)
      .backward(1, Ops_mul_grad_b.OP)
      .entry(DType.INT64, DType.INT64, DType.INT64, DType.INT64, DType.INT64)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.INT64, DType.FLOAT32)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.INT64)
      .entry(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32)
      .kernels(Ops_mul::kernel)
      .build();

  private Ops_mul() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_mul_w64f_int64.INT64_INT64;
      case 1 -> Ops_mul_w64.INT64_FLOAT32;
      case 2 -> Ops_mul_w64.FLOAT32_INT64;
      case 3 -> Ops_mul_w32f.FLOAT32_FLOAT32;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
