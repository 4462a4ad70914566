/**
 * The ufunc4j runtime: {@link dev.ufunc4j.Tensor}, the built-in ops ({@link dev.ufunc4j.Ops}),
 * broadcasting and {@code .npy} I/O for users; the kernel SPI ({@link dev.ufunc4j.kernel}) for the
 * code the ufunc4j processor generates in users' projects. {@code dev.ufunc4j.internal} (storage,
 * the loop planner, threads, conversions, view arithmetic) and {@code dev.ufunc4j.demo} are not
 * exported. On the class path the same jar works as before; docs/architecture.md ("Modules").
 */
module dev.ufunc4j.runtime {
  // Tensor implements TensorLike and every op speaks DType: users need the annotations module too.
  requires transitive dev.ufunc4j.annotations;
  // Generated kernels, the runtime's and users', are Vector API code.
  requires transitive jdk.incubator.vector;
  // @Generated marks generated sources, the runtime's and users' (source retention): javac needs
  // java.compiler, the running program does not. Transitive, so users' modules get it too.
  requires static transitive java.compiler;

  exports dev.ufunc4j;
  exports dev.ufunc4j.kernel;

  // Ops generated in any module register as OpLibrary services; the runtime's own built-ins too
  // (the processor also writes META-INF/services for class-path use).
  uses dev.ufunc4j.kernel.OpLibrary;
  provides dev.ufunc4j.kernel.OpLibrary with dev.ufunc4j.BuiltinsOpLibrary;

  // The tunables (internal) check a profile's per-op records against the ops on the class path
  // through this service, which the kernel layer provides: internal never names the SPI above it.
  uses dev.ufunc4j.internal.OpCatalog;
  provides dev.ufunc4j.internal.OpCatalog with dev.ufunc4j.kernel.catalog.ClassPathOps;
}
