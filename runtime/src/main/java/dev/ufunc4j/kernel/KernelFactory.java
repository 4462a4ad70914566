package dev.ufunc4j.kernel;

/**
 * Creates the kernel of one table entry of an {@link ElementwiseOp}. Generated as a {@code switch}
 * over entry indices so that a kernel class is loaded only when its dtype combination is first
 * used.
 */
@FunctionalInterface
public interface KernelFactory {

  /** The kernel for entry {@code index} of the op's table. */
  ElementwiseKernel create(int index);
}
