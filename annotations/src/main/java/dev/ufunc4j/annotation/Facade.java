package dev.ufunc4j.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the facade the processor generates for the {@link Elementwise} methods of the annotated
 * class, which is {@code <Class>Ops} without this annotation ({@code LossesOps} for {@code
 * Losses}; a class named {@code Ops} would get {@code OpsOps}):
 *
 * <pre>
 * &#64;Facade("LossOps")
 * public final class Losses {
 *   &#64;Elementwise
 *   public static double huber(double prediction, double target, &#64;Scalar double delta) { ... }
 * }
 * // LossOps.huber(predictions, targets, 1.0)
 * </pre>
 *
 * <p>The facade is generated in the annotated class's package; its name must be a Java identifier
 * that names no other class of the compilation (a compile error at the value says which).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Facade {
  /** {@return the facade's simple name; empty means {@code <Class>Ops}} */
  String value() default "";

  /** {@return how visible the facade is; by default as visible as the annotated class} */
  Visibility visibility() default Visibility.DECLARING_CLASS;

  /**
   * {@return the simple name of a second generated class, abstract and package-private, that holds
   * the instance forms of the facade's methods over an abstract {@code Tensor self()}: {@code
   * op(rest)} for {@code Facade.op(self(), rest)} and {@code opInPlace(rest)} for {@code
   * Facade.op(self(), rest, self())}, for every op whose first parameter is a promoting tensor
   * operand} A class of the same package that extends it and returns itself from {@code self()} has
   * the ops as methods ({@code x.huber(targets, 1.0)}); the runtime's {@code Tensor} gets its op
   * methods this way. Empty (the default) means none.
   */
  String instanceMethods() default "";

  /**
   * {@return the simple name of a hand-written class of the same package that the facade extends,
   * so that operations of other kinds reach users through the facade's name too: the runtime's
   * {@code Ops} extends {@code OpsBase}, whose static reductions are called as {@code Ops.sum(x)}}
   * It needs a constructor the facade can call (not private). Empty (the default) means {@code
   * Object}.
   */
  String superclass() default "";

  /** The visibility of a generated facade. */
  enum Visibility {
    /**
     * Public when the annotated class and every class enclosing it are public, else
     * package-private.
     */
    DECLARING_CLASS,
    /** Public, even for a package-private class (its ops become public API). */
    PUBLIC,
    /** Package-private. */
    PACKAGE
  }
}
