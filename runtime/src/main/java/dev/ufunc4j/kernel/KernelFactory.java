package dev.ufunc4j.kernel;

/**
 * Creates the kernel of one table entry of an {@link ElementwiseOp}. Generated as a {@code switch}
 * over entry indices so that a kernel class is loaded only when its dtype combination is first
 * used.
 */
@FunctionalInterface
public interface KernelFactory {

  /**
   * {@return the kernel for entry {@code index} of the op's table}
   *
   * @param index the element's index, one per dimension (negative counts from the end)
   */
  ElementwiseKernel create(int index);
}
