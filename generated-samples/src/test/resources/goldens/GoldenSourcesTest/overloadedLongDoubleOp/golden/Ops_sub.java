package golden;

import dev.ufunc4j.annotation.Promote;
import dev.ufunc4j.dtype.DType;
import dev.ufunc4j.kernel.ElementwiseKernel;
import dev.ufunc4j.kernel.ElementwiseOp;
import javax.annotation.processing.Generated;

/**
 * The op {@code sub} declared by {@link golden.Ops}: its operands and kernel table (9 entries).
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
      .entry(DType.UINT8, DType.UINT8, DType.UINT8, DType.UINT8, DType.UINT8)
      .entry(DType.INT64, DType.INT64, DType.INT64, DType.UINT8, DType.INT64)
      .entry(DType.FLOAT64, DType.FLOAT64, DType.FLOAT64, DType.UINT8, DType.FLOAT64)
      .entry(DType.INT64, DType.INT64, DType.INT64, DType.INT64, DType.UINT8)
      .entry(DType.INT64, DType.INT64, DType.INT64, DType.INT64, DType.INT64)
      .entry(DType.FLOAT64, DType.FLOAT64, DType.FLOAT64, DType.INT64, DType.FLOAT64)
      .entry(DType.FLOAT64, DType.FLOAT64, DType.FLOAT64, DType.FLOAT64, DType.UINT8)
      .entry(DType.FLOAT64, DType.FLOAT64, DType.FLOAT64, DType.FLOAT64, DType.INT64)
      .entry(DType.FLOAT64, DType.FLOAT64, DType.FLOAT64, DType.FLOAT64, DType.FLOAT64)
      .kernels(Ops_sub::kernel)
      .build();

  private Ops_sub() {
  }

  /**
   * The kernel of table entry {@code index}; its class loads on first use.
   */
  private static ElementwiseKernel kernel(int index) {
    return switch (index) {
      case 0 -> Ops_sub_w8f_uint8.UINT8_UINT8;
      case 1 -> Ops_sub_w64min4.UINT8_INT64;
      case 2 -> Ops_sub_w64min4.UINT8_FLOAT64;
      case 3 -> Ops_sub_w64min4.INT64_UINT8;
      case 4 -> Ops_sub_w64f_int64.INT64_INT64;
      case 5 -> Ops_sub_w64.INT64_FLOAT64;
      case 6 -> Ops_sub_w64min4.FLOAT64_UINT8;
      case 7 -> Ops_sub_w64.FLOAT64_INT64;
      case 8 -> Ops_sub_w64f.FLOAT64_FLOAT64;
      default -> throw new IndexOutOfBoundsException("no kernel entry " + index);
    } ;
  }
}
