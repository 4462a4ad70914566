package dev.ufunc4j.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a static scalar method as an elementwise tensor op. The ufunc4j annotation processor
 * expands it into one Vector API kernel per promoted dtype pair and rank, and a facade class
 * {@code <DeclaringClass>Ops} with static methods over tensors.
 *
 * <p>Overloads of one name are one op: a {@code long} body gives the integral and bool kernels, a
 * {@code double} body the floating ones, an all-{@code boolean} body the logical ones.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Elementwise {
  /** How operand dtypes combine into the compute dtype. */
  Promote promote() default Promote.PROMOTE;

  /** The op's name in the facade and registry; empty means the method's name. */
  String name() default "";
}
