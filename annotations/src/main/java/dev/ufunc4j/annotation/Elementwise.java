package dev.ufunc4j.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a static scalar method as an elementwise tensor op. The ufunc4j annotation processor
 * expands it into one Vector API kernel per promoted dtype pair and rank, and a facade class
 * {@code <DeclaringClass>Ops} with static methods over tensors (named otherwise with {@link
 * Facade}). The method's javadoc becomes the description of the op's facade methods.
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

  /**
   * The name of the op's methods in the facade; empty means the op's name. Two ops may share one,
   * as long as their methods' parameter types differ: the built-in {@code addScaled} (with a
   * {@code @Scalar alpha}) has the methods {@code add(a, b, alpha)}, beside {@code add}'s {@code
   * add(a, b)}, as PyTorch's {@code add} takes an optional alpha.
   */
  String methodName() default "";

  /**
   * Also generate the methods that take every promoting tensor operand after the first parameter
   * as a Java {@code Number}, all together ({@code clamp(x, 0, 6)}, {@code where(c, 1.0, 0.0)}).
   * Without it, only an op with exactly two promoting operands takes a number, in either one
   * alone ({@code add(t, 2)}, {@code add(2, t)}).
   */
  boolean numbersAfterFirst() default false;
}
