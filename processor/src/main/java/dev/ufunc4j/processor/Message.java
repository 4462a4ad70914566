package dev.ufunc4j.processor;

import java.util.Locale;

/**
 * Every diagnostic the processor prints, with a stable tag ({@code [Elementwise/UnsupportedCall]})
 * that tests and users can search for. Formats take {@link String#format} arguments.
 */
enum Message {
  NOT_STATIC("NotStatic", "@Elementwise method %s must be static: it is a scalar function"),
  GENERIC_METHOD(
      "GenericMethod", "@Elementwise method %s must not declare type parameters; use double or long"),
  NO_BODY("NoBody", "@Elementwise method %s needs a body: it is the op's scalar definition"),
  BAD_ENCLOSING_CLASS(
      "EnclosingClass",
      "@Elementwise method %s must be declared in a top-level or static nested class"),
  PARAMETER_TYPE(
      "ParameterType",
      "parameter %s has type %s; @Elementwise parameters are double, long or boolean"),
  MIXED_PARAMETER_TYPES(
      "ParameterType",
      "parameter %s has type %s but this body computes in %s; all numeric operands of one"
          + " overload share its type (declare an overload per type instead)"),
  RETURN_TYPE(
      "ReturnType", "@Elementwise method %s returns %s; return double, long or boolean"),
  RESULT_RECORD(
      "ResultRecord",
      "@Elementwise method %s returns record %s, which cannot hold its results: %s; a record of"
          + " results has double, long or boolean components (its numbers all double or all"
          + " long) and the canonical constructor the compiler writes"),
  RECORD_RETURN(
      "RecordReturn",
      "%s returns record %s: end the body with return new %s(...), one expression per component"
          + " in order (%s); got %s"),
  NO_TENSOR_PARAMETER(
      "NoTensorParameter", "@Elementwise method %s has no tensor parameter (all are @Scalar)"),
  OP_NAME(
      "OpName",
      "op name '%s' of method %s is not a Java identifier; the facade declares a static method of"
          + " that name"),
  METHOD_NAME(
      "OpName",
      "method name '%s' of method %s is not a Java identifier; the facade declares methods of that"
          + " name"),
  OVERLOAD_CONFLICT("OverloadConflict", "overload %s of op '%s' conflicts with %s: %s"),
  DTYPES(
      "Dtypes",
      "dtypes of op '%s': %s; a name is a dtype (float32, float64, int64, bool, ...: %s) or a"
          + " category (floating, integral, complex); leave dtypes out for every dtype"),
  UFUNC_ATTRIBUTE("Identity", "@Elementwise(%s) of op '%s': %s"),
  FACADE_NAME("FacadeName", "%s '%s' of %s %s"),
  FACADE_WITHOUT_OPS(
      "FacadeName",
      "@Facade on %s, which declares no valid @Elementwise method to make a facade of"),
  FACADE_CLASH(
      "FacadeClash",
      "%s of op '%s' has the parameter types of %s of op '%s'; give one of them another"
          + " methodName"),
  FACADE_TWIN(
      "FacadeClash",
      "op '%s' returns record %s, and op '%s' returns record %s: the facade gives each record a"
          + " tensor twin of its simple name %s, which would be one class for both; rename one of"
          + " the records"),
  FACADE_RESERVED(
      "FacadeClash",
      "instance method %s of op '%s' would clash with %s; give the op another methodName"),
  RULE_METHOD(
      "Rule", "@Rule method %s must be static and not private: the generated facade calls it"),
  RULE_TARGET(
      "Rule",
      "@Rule method %s guards '%s', which is no facade method of %s; its facade methods: %s"),
  RULE_SCALAR(
      "Rule",
      "@Rule method %s computes scalar '%s', which facade method '%s' does not take; its scalars:"
          + " %s"),
  RULE_PARAMETER("Rule", "parameter %s of @Rule method %s %s"),
  RULE_RETURN(
      "Rule",
      "@Rule method %s returns %s; a rule returns void (a check), Tensor (a non-null result"
          + " answers the call) or, with scalar = \"...\", the value passed for that scalar"),
  RULE_UNUSED(
      "Rule",
      "@Rule method %s fits none of the facade methods named '%s' (a Number parameter fits only"
          + " methods that take a Java number there)"),
  UNSUPPORTED_STATEMENT(
      "UnsupportedStatement",
      "%s is not supported in an @Elementwise body; write final/var locals followed by one return"
          + " (use ?: instead of if, and no loops)"),
  UNSUPPORTED_CALL(
      "UnsupportedCall",
      "%s is not a function an @Elementwise body may call%s; it may call"
          + " %s, and static methods of this compilation whose bodies follow the same rules"),
  UNKNOWN_CALL(
      "UnknownCall",
      "%s is declared outside this compilation, so its body cannot be compiled into the kernel:"
          + " inline it, or make it a static helper in this compilation (an @Elementwise body may"
          + " also call %s)"),
  FOREIGN_OP(
      "ForeignOp",
      "%s is the @Elementwise op '%s' of %s, which was compiled apart from this code: its class"
          + " file keeps the op's kernels but not the body a kernel would inline, so it cannot be"
          + " called from an @Elementwise body; apply the op to tensors before or after this one,"
          + " or copy its body into a static helper of this compilation"),
  SCALB_SCALE(
      "UnsupportedCall",
      "Math.scalb's scale factor %s must be a constant int: each scale compiles to exact"
          + " multiplications by powers of two"),
  BOOLEAN_CALL(
      "UnsupportedCall",
      "%s takes numbers, and this body computes on booleans; declare a double or long overload"),
  INTEGRAL_IN_FLOATING_BODY(
      "UnsupportedCall",
      "%s computes on longs, and this body computes in double; declare a long overload for it"),
  LONG_IN_DOUBLE_BODY(
      "LongInDoubleBody",
      "%s computes in long (64-bit integer) arithmetic; the body computes in double: convert the"
          + " long first, as in (double) Math.round(x) + 1"),
  CALL_NOT_STATIC(
      "CallNotStatic",
      "%s is an instance method; an @Elementwise body may call static methods (inlined into the"
          + " kernel): make it static"),
  RECURSION(
      "Recursion",
      "%s recurses (%s); a called method is inlined into the one kernel, so it may not call"
          + " itself: write the recursion out as a closed form or a fixed number of steps"),
  CALL_TYPES(
      "CallTypes",
      "%s is %s returning %s; a method an @Elementwise body calls takes and returns the body's"
          + " type (%s) or boolean"),
  CALL_NOT_INLINED(
      "CallNotInlined",
      "%s cannot be inlined: its body breaks the @Elementwise rules (see the errors reported"
          + " there), or has none"),
  FLOATING_IN_INTEGRAL_BODY(
      "FloatingInIntegralBody",
      "%s is floating-point inside a long body, which computes with Java long semantics; declare"
          + " a double overload or use promote = Promote.INT_TO_FLOAT"),
  FIELD_ACCESS(
      "FieldAccess",
      "%s reads a field; an @Elementwise body may read only its parameters, its locals and"
          + " compile-time constants (static final primitives, Math.PI)"),
  ALLOCATION(
      "Allocation", "%s allocates; an @Elementwise body is a pure expression over its operands"),
  UNSUPPORTED_EXPRESSION(
      "UnsupportedExpression",
      "%s is not supported in an @Elementwise body; use arithmetic, comparison, logical, bitwise"
          + " and shift operators, ?:, literals, casts to the body type and Math functions"),
  UNSUPPORTED_OPERATOR("UnsupportedOperator", "operator %s is not supported on %s operands: %s"),
  UNSUPPORTED_CAST(
      "UnsupportedCast", "cast to %s is not supported; the body computes in %s (cast to %s only)"),
  INT_ARITHMETIC(
      "IntArithmetic",
      "%s computes in int (32-bit) arithmetic; the body computes in %s: write long literals"
          + " (1L) or cast an operand"),
  UNSUPPORTED_LITERAL(
      "UnsupportedLiteral", "literal %s is not supported; use int, long, double or boolean literals"),
  ASSIGNMENT(
      "Assignment",
      "%s assigns; an @Elementwise body may only declare final/var locals with an initializer"),
  LOCAL_TYPE(
      "LocalType", "local %s has type %s; locals of a %s body have type %s or boolean"),
  DERIVATIVE_METHOD(
      "DerivativeMethod",
      "@Derivative method %s must be static, return double and declare no type parameters; it"
          + " computes the derivative in the @Elementwise body language"),
  DERIVATIVE_OP(
      "DerivativeOp", "@Derivative method %s names op '%s', which %s does not declare; its ops: %s"),
  DERIVATIVE_NOT_DIFFERENTIABLE(
      "DerivativeOp",
      "@Derivative method %s names op '%s', which has no gradient: %s"),
  DERIVATIVE_OPERAND(
      "DerivativeOperand",
      "@Derivative method %s: %s; the floating tensor operands of op '%s' are %s"),
  DERIVATIVE_DUPLICATE(
      "DerivativeDuplicate",
      "@Derivative method %s declares the derivative of op '%s' with respect to '%s', which %s"
          + " already declares"),
  DERIVATIVE_PARAMETERS(
      "DerivativeParameters",
      "@Derivative method %s must take the parameters of %s (%s), optionally preceded by a"
          + " double parameter for the incoming gradient: %s"),
  BACKWARD_NAME(
      "BackwardName",
      "op '%s' has the name of the generated backward op of '%s' with respect to '%s'; rename"
          + " it"),
  ZERO_GRADIENT(
      "ZeroGradient",
      "the gradient of op '%s' with respect to '%s' is zero wherever it is defined: %s reaches"
          + " the result only through %s. Declare a @Derivative for '%s' (returning 0 to"
          + " confirm) to silence this note"),
  COST(
      "Cost",
      "op '%s': %d kernel%s (%d forward, %d backward) in %d generated file%s, %,d lines%s"),
  COST_SUMMARY(
      "Cost",
      "%d op%s: %,d kernel%s in %,d generated file%s, %,d lines (a note per op with"
          + " -Aufunc4j.verbose)"),
  TOO_DEEP(
      "TooDeep",
      "the @Elementwise bodies of %s nest too deeply for the processor (its %d MB stack"
          + " overflowed); split the deepest expression into locals (double r = ...;)"),
  TOO_MANY_OPERANDS(
      "TooManyOperands",
      "%s has %d tensor operands%s: the strided loop of its %s kernels would take %d JVM parameter"
          + " slots, over the JVM's limit of 255 (2, then 5 for the result and for each tensor"
          + " operand, then 2 per double or long @Scalar and 1 per other); %s: split the op into"
          + " smaller ones"),
  LOCAL_CLASS(
      "EnclosingClass",
      "@Elementwise method %s is in a local or anonymous class, which javac does not show"
          + " annotation processors: nothing would be generated for it; declare it in a top-level"
          + " or static nested class"),
  GENERATED_NAME(
      "GeneratedName",
      "%s, which the processor generates for %s (%s), is already a class of this compilation;"
          + " %s"),
  INTERNAL_ERROR(
      "InternalError",
      "internal error of the ufunc4j processor while generating the ops of %s: %s; the other"
          + " classes are generated as usual. Please report it with this trace:%n%s");

  private final String tag;
  private final String format;

  Message(String tag, String format) {
    this.tag = tag;
    this.format = format;
  }

  /** The stable tag in brackets, e.g. {@code [Elementwise/UnsupportedCall]}. */
  String tag() {
    return "[Elementwise/" + tag + "]";
  }

  String format(Object... args) {
    return tag() + " " + String.format(Locale.ROOT, format, args);
  }
}
