/**
 * What both the processor and the runtime need: the {@code @Elementwise} declaration language
 * ({@link dev.ufunc4j.annotation}), dtypes and the promotion matrix ({@link dev.ufunc4j.dtype}), and
 * static shapes ({@link dev.ufunc4j.shape}), the special functions kernels and user code share
 * ({@link dev.ufunc4j.math.SpecialMath}), and the tuning profile format ({@link
 * dev.ufunc4j.tuning}) the processor, the runtime and the tuner share. Every package is API.
 */
module dev.ufunc4j.annotations {
  exports dev.ufunc4j.annotation;
  exports dev.ufunc4j.dtype;
  exports dev.ufunc4j.math;
  exports dev.ufunc4j.shape;
  exports dev.ufunc4j.tuning;
}
