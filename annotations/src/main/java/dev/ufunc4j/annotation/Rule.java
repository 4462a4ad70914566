package dev.ufunc4j.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An argument rule of generated facade methods, as PyTorch's meta functions check arguments
 * before a kernel runs: a static, non-private method of the class that declares the ops, which
 * every facade method named {@link #value} calls before it dispatches, when the rule's
 * parameters fit it.
 *
 * <p>Each parameter of the rule names a parameter of the facade method: a tensor operand, a
 * {@link Scalar}, or the target {@code out} (null for methods without one). A tensor operand
 * declared {@code Tensor} receives the operand (a Java number already wrapped, an operand already
 * lifted by broadcast dimensions); declared {@code Number}, it restricts the rule to the methods
 * that take a Java number there, and receives that number as given. Rules run in source order;
 * the generated javadoc of each method carries the description of the rules it calls.
 *
 * <p>What the rule returns decides what it does:
 *
 * <ul>
 *   <li>{@code void}: a check; it throws to refuse the call ({@code sub} of bool tensors);
 *   <li>{@code Tensor}: a non-null result is the call's result, null lets the call go on
 *       ({@code bitwiseNot} of a bool tensor runs {@code logicalNot});
 *   <li>with {@link #scalar} set, the value passed to the kernel for that {@code @Scalar}
 *       (PyTorch's alpha, which takes the category of the operands' dtype instead of promoting
 *       them).
 * </ul>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Rule {
  /**
   * {@return the facade method the rule guards: an op's name, or its {@link
   * Elementwise#methodName}}
   */
  String value();

  /** {@return the {@link Scalar} whose value the rule computes; empty for a check or an answer} */
  String scalar() default "";
}
