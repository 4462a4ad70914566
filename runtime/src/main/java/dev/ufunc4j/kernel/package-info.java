/**
 * The contract between generated kernels and the runtime: {@link
 * dev.ufunc4j.kernel.ElementwiseKernel} loops, {@link dev.ufunc4j.kernel.ElementwiseOp}
 * descriptors and the {@link dev.ufunc4j.kernel.OpLibrary} service that registers them. Public
 * because generated code in users' packages implements it; not meant to be called by users.
 */
package dev.ufunc4j.kernel;
