package dev.ufunc4j.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a parameter of an {@link Elementwise} method as a wrapped Java scalar (like {@code alpha}
 * in {@code torch.add(a, b, alpha=2)}) rather than a tensor operand.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface Scalar {}
