package dev.ufunc4j.processor;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The {@code java.lang.Math} functions an {@code @Elementwise} body may call: those with a Vector
 * API lanewise form (or a short exact lanewise expansion, for floor/ceil/rint/signum/copySign).
 */
enum MathFunction {
  ABS("abs", 1, true),
  MIN("min", 2, true),
  MAX("max", 2, true),
  SQRT("sqrt", 1, false),
  CBRT("cbrt", 1, false),
  EXP("exp", 1, false),
  EXPM1("expm1", 1, false),
  LOG("log", 1, false),
  LOG1P("log1p", 1, false),
  LOG10("log10", 1, false),
  SIN("sin", 1, false),
  COS("cos", 1, false),
  TAN("tan", 1, false),
  ASIN("asin", 1, false),
  ACOS("acos", 1, false),
  ATAN("atan", 1, false),
  SINH("sinh", 1, false),
  COSH("cosh", 1, false),
  TANH("tanh", 1, false),
  POW("pow", 2, false),
  HYPOT("hypot", 2, false),
  ATAN2("atan2", 2, false),
  FMA("fma", 3, false),
  FLOOR("floor", 1, false),
  CEIL("ceil", 1, false),
  RINT("rint", 1, false),
  SIGNUM("signum", 1, false),
  COPY_SIGN("copySign", 2, false),
  TO_RADIANS("toRadians", 1, false),
  TO_DEGREES("toDegrees", 1, false);

  private final String javaName;
  private final int arity;
  private final boolean integral;

  MathFunction(String javaName, int arity, boolean integral) {
    this.javaName = javaName;
    this.arity = arity;
    this.integral = integral;
  }

  String javaName() {
    return javaName;
  }

  int arity() {
    return arity;
  }

  /** True when the function also has a {@code long} form (abs, min, max). */
  boolean hasLongForm() {
    return integral;
  }

  /** The function {@code owner.name} ({@code java.lang.Math}, {@code exp}), if it is one. */
  static Optional<MathFunction> of(String qualifiedOwner, String name) {
    return qualifiedOwner.equals("java.lang.Math") ? byName(name) : Optional.empty();
  }

  static Optional<MathFunction> byName(String name) {
    return Arrays.stream(values()).filter(f -> f.javaName.equals(name)).findFirst();
  }

  /** The list shown in diagnostics. */
  static String supportedList() {
    return Arrays.stream(values())
        .map(f -> "Math." + f.javaName)
        .collect(Collectors.joining(", "));
  }
}
