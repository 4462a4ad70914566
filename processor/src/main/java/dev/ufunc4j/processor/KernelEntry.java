package dev.ufunc4j.processor;

import dev.ufunc4j.dtype.DType;
import java.util.List;
import java.util.Locale;

/**
 * One table entry of an op: the kernel for one combination of operand dtypes.
 *
 * @param operands storage dtype of each tensor parameter, conditions included
 * @param promoted what promotion gives (after the op's Promote mode and wrapped scalars)
 * @param compute the dtype the body computes in: FLOAT32 for FLOAT16/BFLOAT16, COMPLEX64 for
 *     COMPLEX32
 * @param result the stored dtype: BOOL for predicates, else {@code promoted}
 * @param bodyType which overload computes it
 * @param lanes the lane type the body computes in (a complex dtype's component type)
 * @param unsignedLanes integral lanes hold unsigned values (unsigned comparisons, logical {@code >>})
 * @param scalarPromoted true when wrapped scalars raised the dtype above the tensors' promotion
 */
record KernelEntry(
    List<DType> operands,
    DType promoted,
    DType compute,
    DType result,
    ValueType bodyType,
    Lane lanes,
    boolean unsignedLanes,
    boolean scalarPromoted) {

  KernelEntry {
    operands = List.copyOf(operands);
  }

  /**
   * The kernel's name in its class: {@code int8_float32}, {@code int32_as_float32} when a wrapped
   * scalar raised the dtype.
   */
  String kernelName() {
    StringBuilder sb = new StringBuilder();
    for (DType d : operands) {
      sb.append(sb.isEmpty() ? "" : "_").append(d.torchName());
    }
    if (scalarPromoted) {
      sb.append("_as_").append(promoted.torchName());
    }
    return sb.toString();
  }

  /** The body is lifted to complex arithmetic on interleaved (re, im) lanes. */
  boolean complex() {
    return compute.isComplex();
  }

  /** The wide integral mode: a long body computing a narrow dtype in long lanes. */
  boolean wide() {
    return bodyType == ValueType.LONG && lanes == Lane.LONG && compute.byteSize() < 8;
  }

  String describe() {
    return "(" + String.join(", ", operands.stream().map(DType::torchName).toList()) + ")"
        + " promoted to " + promoted.torchName()
        + (compute != promoted ? ", computed in " + compute.torchName() : "")
        + (wide() ? " (in long lanes)" : "")
        + ", stored as " + result.torchName();
  }

  static String lower(DType d) {
    return d.torchName().toLowerCase(Locale.ROOT);
  }
}
