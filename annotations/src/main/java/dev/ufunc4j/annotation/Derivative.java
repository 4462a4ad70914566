package dev.ufunc4j.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the derivative of an {@code @Elementwise} op with respect to one of its tensor
 * operands, where the one the processor derives from the op's body is unstable or follows another
 * convention than wanted (JAX's {@code custom_jvp} is the model). The processor otherwise
 * differentiates every {@code double} body symbolically; see docs/gradients.md.
 *
 * <p>The annotated method is a {@code static double} method in the class that declares the op,
 * written in the same language as an {@code @Elementwise} body, in one of two forms:
 *
 * <ul>
 *   <li>the op's parameters (the {@code double} overload's, same types, {@code @Scalar} where the
 *       op has {@code @Scalar}), returning the partial derivative {@code ∂f/∂operand}; the
 *       backward kernel multiplies it by the incoming gradient:
 *       <pre>
 * &#64;Derivative(op = "sigmoid")
 * static double sigmoidGrad(double x) {
 *   final double y = 1 / (1 + Math.exp(-x));
 *   return (1 - y) * y;
 * }
 * </pre>
 *   <li>a leading {@code double} parameter for the incoming gradient, then the op's parameters,
 *       returning the gradient itself, for formulas that use the gradient in their own order
 *       ({@code grad / b} for division, {@code c ? grad : 0} masks):
 *       <pre>
 * &#64;Derivative(op = "div", operand = "a")
 * static double divGradA(double grad, double a, double b) {
 *   return grad / b;
 * }
 * </pre>
 * </ul>
 *
 * <p>The method stays ordinary Java (tests call it); the processor reads its body only.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Derivative {
  /** {@return the op's name: its method's name, or its {@code @Elementwise(name)}} */
  String op();

  /**
   * {@return the name of the tensor parameter this is the derivative with respect to; may be left
   * empty when the op has exactly one floating tensor operand}
   */
  String operand() default "";
}
