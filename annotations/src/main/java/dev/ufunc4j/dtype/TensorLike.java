package dev.ufunc4j.dtype;

/**
 * What type promotion needs to know of a tensor operand: its dtype, whether it has dimensions, and
 * whether it is a wrapped Java number (PyTorch's {@code is_wrapped_number}: a Java scalar that a
 * call turned into a zero-dim tensor). The runtime's {@code Tensor} implements it; the annotations
 * module does not depend on the runtime.
 */
public interface TensorLike {

  /** {@return the element type} */
  DType dtype();

  /** {@return number of dimensions; 0 for a zero-dim tensor} */
  int ndim();

  /** {@return true for a zero-dim tensor made from a Java scalar; it promotes like that scalar} */
  default boolean isWrappedNumber() {
    return false;
  }
}
