package dev.ufunc4j.processor;

import com.palantir.javapoet.CodeBlock;

/**
 * A value in generated vector code: a vector or a mask of {@code lane}, or a Java scalar of that
 * lane's primitive type (a literal or a {@code @Scalar} parameter) not yet broadcast.
 */
record Value(CodeBlock code, Lane lane, Kind kind) {

  enum Kind {
    VECTOR,
    MASK,
    SCALAR,
    /** A boolean Java scalar: a literal or a {@code @Scalar boolean}. */
    SCALAR_BOOLEAN
  }

  static Value vector(CodeBlock code, Lane lane) {
    return new Value(code, lane, Kind.VECTOR);
  }

  static Value mask(CodeBlock code, Lane lane) {
    return new Value(code, lane, Kind.MASK);
  }

  boolean isBoolean() {
    return kind == Kind.MASK || kind == Kind.SCALAR_BOOLEAN;
  }
}
