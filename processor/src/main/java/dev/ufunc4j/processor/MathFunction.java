package dev.ufunc4j.processor;

import java.util.Arrays;
import java.util.Optional;

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
  TO_DEGREES("toDegrees", 1, false),

  // ---- The JDK's functions of a float's bits (issue 26 item 2; FloatBitsEmitter). In float
  // lanes (float32 compute) each is the float overload, as float32 arithmetic computes the rest.
  NEXT_UP("nextUp", 1, false),
  NEXT_DOWN("nextDown", 1, false),
  NEXT_AFTER("nextAfter", 2, false),
  ULP("ulp", 1, false),
  GET_EXPONENT("getExponent", 1, false),
  /** Its scale factor is a constant ({@code BodyLowering} checks): exact steps by powers of 2. */
  SCALB("scalb", 2, false),

  // ---- dev.ufunc4j.math.SpecialMath (issue 26 item 3): the kernel gives the method's bits
  // (SpecialMathEmitter). ipow is the only integral one.
  ERF(Owner.SPECIAL, "erf", 1, false),
  ERFC(Owner.SPECIAL, "erfc", 1, false),
  LGAMMA(Owner.SPECIAL, "lgamma", 1, false),
  DIGAMMA(Owner.SPECIAL, "digamma", 1, false),
  TRIGAMMA(Owner.SPECIAL, "trigamma", 1, false),
  EXPIT(Owner.SPECIAL, "expit", 1, false),
  LOGIT(Owner.SPECIAL, "logit", 1, false),
  XLOGY(Owner.SPECIAL, "xlogy", 2, false),
  SINC(Owner.SPECIAL, "sinc", 1, false),
  IPOW(Owner.SPECIAL, "ipow", 2, true);

  /** The class that declares a function. */
  enum Owner {
    MATH("java.lang.Math", "Math"),
    SPECIAL("dev.ufunc4j.math.SpecialMath", "SpecialMath");

    final String qualifiedName;
    final String simpleName;

    Owner(String qualifiedName, String simpleName) {
      this.qualifiedName = qualifiedName;
      this.simpleName = simpleName;
    }
  }

  private final Owner owner;

  private final String javaName;
  private final int arity;
  private final boolean integral;

  MathFunction(String javaName, int arity, boolean integral) {
    this(Owner.MATH, javaName, arity, integral);
  }

  MathFunction(Owner owner, String javaName, int arity, boolean integral) {
    this.owner = owner;
    this.javaName = javaName;
    this.arity = arity;
    this.integral = integral;
  }

  String javaName() {
    return javaName;
  }

  Owner owner() {
    return owner;
  }

  /** How a body writes the call: {@code Math.exp}, {@code SpecialMath.erf}. */
  String qualifiedCall() {
    return owner.simpleName + "." + javaName;
  }

  /** True for ipow, which has only a {@code long} form. */
  boolean integralOnly() {
    return this == IPOW;
  }

  int arity() {
    return arity;
  }

  /** True when the function also has a {@code long} form (abs, min, max). */
  boolean hasLongForm() {
    return integral;
  }

  /**
   * The function {@code owner.name} ({@code java.lang.Math}, {@code exp}; {@code
   * dev.ufunc4j.math.SpecialMath}, {@code erf}), if it is one.
   */
  static Optional<MathFunction> of(String qualifiedOwner, String name) {
    return owner(qualifiedOwner).flatMap(o -> byName(o, name));
  }

  static Optional<MathFunction> byName(Owner owner, String name) {
    return Arrays.stream(values())
        .filter(f -> f.owner == owner && f.javaName.equals(name))
        .findFirst();
  }

  /** The owner whose qualified name this is, if any. */
  static Optional<Owner> owner(CharSequence qualifiedName) {
    return Arrays.stream(Owner.values())
        .filter(o -> o.qualifiedName.contentEquals(qualifiedName))
        .findFirst();
  }
}
