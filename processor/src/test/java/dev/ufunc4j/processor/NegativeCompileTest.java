package dev.ufunc4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import java.util.Locale;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One failing compile per unsupported construct: the error carries the stable tag and lands on the
 * offending line of the offending file. Validation precedes generation, so no runtime is needed.
 */
class NegativeCompileTest {

  private static final String HEADER = """
      package test;

      import dev.ufunc4j.annotation.Derivative;
      import dev.ufunc4j.annotation.Elementwise;
      import dev.ufunc4j.annotation.Identity;
      import dev.ufunc4j.annotation.Promote;
      import dev.ufunc4j.annotation.Scalar;

      final class Ops {
        static double counter;
      """;

  private static JavaFileObject source(String members) {
    return JavaFileObjects.forSourceString("test.Ops", HEADER + members + "\n}\n");
  }

  private static Compilation compile(String members) {
    return javac().withProcessors(new ElementwiseProcessor(), new OpLibraryServiceProcessor())
        .compile(source(members));
  }

  private static void assertRefused(String members, String tag, String message, String line) {
    Compilation c = compile(members);
    assertThat(c).failed();
    assertThat(c).hadErrorContaining(tag).inFile(source(members)).onLineContaining(line);
    assertThat(c).hadErrorContaining(message).inFile(source(members)).onLineContaining(line);
  }

  @ParameterizedTest(name = "{1}: {0}")
  @CsvSource(delimiter = '|', textBlock = """
      double f(double x) { double s = 0; for (int i = 0; i < 3; i++) { s += x; } return s; } \
          | UnsupportedStatement | a for loop is not supported | for (int i
      double f(double x) { while (x > 1) { x /= 2; } return x; } \
          | UnsupportedStatement | a while loop is not supported | while (x > 1)
      double f(double x) { if (x > 0) { return x; } return -x; } \
          | UnsupportedStatement | an if statement is not supported | if (x > 0)
      double f(double x) { return Math.random(); } \
          | UnsupportedCall | Math.random is not a function an @Elementwise body may call | Math.random()
      long f(long x, long y) { return Math.floorDivExact(x, y); } \
          | UnsupportedCall | (the nearest that is: Math.floorDiv) | Math.floorDivExact
      double f(double x) { return Math.scalb(x, x > 0 ? 1 : 2); } \
          | UnsupportedCall | Math.scalb's scale factor x > 0 ? 1 : 2 must be a constant int | Math.scalb(x
      long f(long x) { return Math.getExponent(x); } \
          | FloatingInIntegralBody | Math.getExponent is floating-point inside a long body | Math.getExponent(x)
      double f(double x) { return StrictMath.sqrt(x); } \
          | UnsupportedCall | StrictMath.sqrt is not a function an @Elementwise body may call (the nearest that is: Math.sqrt) | StrictMath
      double f(double x) { return com.google.common.math.DoubleMath.log2(x); } \
          | UnknownCall | DoubleMath.log2(...) is declared outside this compilation, so its body cannot be compiled into the kernel: inline it, or make it a static helper in this compilation | DoubleMath.log2
      double f(double x) { return x > 1 ? f(x / 2) : x; } \
          | Recursion | f(...) recurses (f -> f); a called method is inlined | f(x / 2)
      double f(double x) { return g(x); } static double g(double x) { return x < 1 ? x : f(x - 1); } \
          | Recursion | f(...) recurses (f -> g -> f) | : f(x - 1)
      double f(double x) { return new Ops().g(x); } double g(double x) { return x; } \
          | CallNotStatic | g(...) is an instance method; an @Elementwise body may call static methods | new Ops().g(x)
      double f(double x) { return g(2); } static double g(int n) { return n; } \
          | CallTypes | g(...) is g(int) returning double; a method an @Elementwise body calls takes and returns the body's type (double) or boolean | return g(2)
      double f(double x) { return g(x); } static double g(double x) { double s = 0; while (s < x) { s++; } return s; } \
          | CallNotInlined | g(...) cannot be inlined: its body breaks the @Elementwise rules | return g(x)
      double f(double x) { return g(x); } static double g(double x) { double s = 0; while (s < x) { s++; } return s; } \
          | UnsupportedStatement | a while loop is not supported | while (s < x)
      long f(long x) { return g(x); } static long g(long x) { return (long) Math.sqrt(x); } \
          | FloatingInIntegralBody | Math.sqrt(x) is floating-point inside a long body | (long) Math.sqrt(x)
      long f(long x) { return h(x) > 0 ? 1 : 0; } static double h(double x) { return x; } \
          | FloatingInIntegralBody | h(x) is floating-point inside a long body | h(x) > 0
      double f(double x) { return Math.round(x) + 1; } \
          | LongInDoubleBody | Math.round(x) + 1 computes in long (64-bit integer) arithmetic; the body computes in double | Math.round(x) + 1
      double f(double x) { return x + Long.bitCount(5); } \
          | UnsupportedCall | Long.bitCount computes on longs, and this body computes in double | Long.bitCount(5)
      boolean f(boolean a) { return a && Double.isNaN(0.0); } \
          | UnsupportedCall | Double.isNaN takes numbers, and this body computes on booleans | Double.isNaN
      long f(long x) { return Math.round(x); } \
          | FloatingInIntegralBody | Math.round is floating-point inside a long body | Math.round(x)
      long f(long x) { return (long) Math.exp(x); } \
          | FloatingInIntegralBody | Math.exp(x) is floating-point inside a long body | Math.exp(x)
      long f(long x) { return (long) dev.ufunc4j.math.SpecialMath.erf(x); } \
          | FloatingInIntegralBody | is floating-point inside a long body | .erf(x)
      double f(double x) { return dev.ufunc4j.math.SpecialMath.ipow(2, 3); } \
          | UnsupportedCall | SpecialMath.ipow computes on longs, and this body computes in double \
          | .ipow(2, 3)
      long f(long x) { return x + (long) 2.5; } \
          | FloatingInIntegralBody | 2.5 is floating-point inside a long body | 2.5
      double f(double x) { return x + counter; } \
          | FieldAccess | counter reads a field | x + counter
      double f(double x) { return new Double(x); } \
          | Allocation | new Double(x) allocates | new Double
      boolean f(boolean a) { return a && 1.5 > 0.5; } \
          | UnsupportedOperator | operator 1.5 is not supported on boolean operands | 1.5 > 0.5
      double f(double x) { return (float) x; } \
          | UnsupportedCast | cast to float is not supported | (float) x
      long f(long x) { return (int) x; } \
          | UnsupportedCast | cast to int is not supported | (int) x
      double f(double x) { return x * (1 + 2); } \
          | IntArithmetic | (1 + 2) computes in int (32-bit) arithmetic | (1 + 2)
      double f(double x) { return x = 2; } \
          | Assignment | x = 2 assigns | x = 2
      double f(double x) { final int k = 2; return x * k; } \
          | LocalType | local k has type int | final int k
      double f(double x) { final double[] a = {x}; return a[0]; } \
          | LocalType | local a has type double[] | final double[] a
      double f(double x) { return "s".length(); } \
          | UnsupportedCall | String.length is not a function an @Elementwise body may call | "s".length()
      double f(double x) { return x > 0 ? null : x; } \
          | UnsupportedLiteral | literal null is not supported | ? null
      """)
  void refusesBodyConstruct(String body, String tag, String message, String line) {
    assertRefused("  @Elementwise static " + body, "[Elementwise/" + tag + "]", message, line);
  }

  /**
   * A helper whose body breaks the rules, called by two ops: its error is reported once, at the
   * helper, and each call says it cannot be inlined (issue 26).
   */
  @Test
  void reportsABrokenHelperOnce() {
    String members = """
          static double helper(double x) { return x + counter; }
          @Elementwise static double f(double x) { return helper(x); }
          @Elementwise static double g(double x) { return 2 * helper(x); }
        """;
    Compilation c = compile(members);
    assertThat(c).hadErrorCount(3);
    assertThat(c).hadErrorContaining("[Elementwise/FieldAccess] counter reads a field")
        .inFile(source(members)).onLineContaining("x + counter");
    assertThat(c).hadErrorContaining("[Elementwise/CallNotInlined] helper(...) cannot be inlined")
        .inFile(source(members)).onLineContaining("return helper(x)");
    assertThat(c).hadErrorContaining("[Elementwise/CallNotInlined] helper(...) cannot be inlined")
        .inFile(source(members)).onLineContaining("2 * helper(x)");
  }

  @Test
  void refusesInstanceMethod() {
    assertRefused("  @Elementwise double twice(double x) { return 2 * x; }",
        "[Elementwise/NotStatic]", "@Elementwise method twice must be static", "double twice");
  }

  @Test
  void refusesGenericMethod() {
    assertRefused("  @Elementwise static <T> double twice(double x) { return 2 * x; }",
        "[Elementwise/GenericMethod]", "must not declare type parameters", "<T> double twice");
  }

  @Test
  void refusesParameterOfAnotherType() {
    assertRefused("  @Elementwise static double twice(\n      int x) { return 2 * x; }",
        "[Elementwise/ParameterType]", "parameter x has type int", "int x)");
  }

  @Test
  void refusesMixedParameterTypes() {
    assertRefused("  @Elementwise static double scale(double x,\n      long k) { return x; }",
        "[Elementwise/ParameterType]", "parameter k has type long but this body computes in"
            + " double", "long k)");
  }

  @Test
  void refusesReturnType() {
    assertRefused("  @Elementwise static String name(double x) { return \"\"; }",
        "[Elementwise/ReturnType]", "returns java.lang.String", "String name");
  }

  // ---- several results: a record of numbers (issue 26) ---------------------------------------

  /**
   * Each record an op cannot return, refused at the method with what is wrong with the record,
   * and each return that is not {@code new R(...)} of its components, at the returned expression.
   */
  @ParameterizedTest(name = "{1}: {0}")
  @CsvSource(delimiter = '|', textBlock = """
      record Named(String name, double v) {} @Elementwise static Named bad(double x) { return null; } \
          | ResultRecord | returns record Named, which cannot hold its results: component name has type java.lang.String | Named bad(
      record In(double a, double b) {} record Out(In in, double c) {} @Elementwise static Out bad(double x) { return null; } \
          | ResultRecord | component in has type test.Ops.In (a nested record; flatten its components into this one) | Out bad(
      record Empty() {} @Elementwise static Empty bad(double x) { return new Empty(); } \
          | ResultRecord | it has no components | Empty bad(
      record Mixed(double a, long b) {} @Elementwise static Mixed bad(double x) { return null; } \
          | ResultRecord | it mixes double and long components | Mixed bad(
      record Box<T>(double a, double b) {} @Elementwise static Box<String> bad(double x) { return null; } \
          | ResultRecord | it declares type parameters | Box<String> bad(
      record Checked(double a, double b) { Checked { if (a > b) { throw new IllegalArgumentException(); } } } @Elementwise static Checked bad(double x) { return new Checked(x, x); } \
          | ResultRecord | it declares its canonical constructor, which the kernel would not run | Checked bad(
      record Two(double a, double b) {} @Elementwise static Two bad(double x) { final Two t = new Two(x, x); return t; } \
          | LocalType | local t has type test.Ops.Two | final Two t
      record Two(double a, double b) {} @Elementwise static Two bad(double x) { return make(x); } static Two make(double x) { return new Two(x, x); } \
          | RecordReturn | bad returns record Two: end the body with return new Two(...), one expression per component in order (double a, double b); got make(x) | return make(x)
      record Two(double a, double b) {} @Elementwise static Two bad(double x) { return x > 0 ? new Two(x, x) : new Two(-x, x); } \
          | RecordReturn | got x > 0 ? new Two(x, x) : new Two(-x, x) | return x > 0
      record Two(long a, long b) {} @Elementwise static Two bad(long x) { return new Two(x, 1 + 2); } \
          | IntArithmetic | 1 + 2 computes in int (32-bit) arithmetic | new Two(x, 1 + 2)
      record Two(double a, double b) {} @Elementwise static Two bad(double x) { return new Two(x, x + counter); } \
          | FieldAccess | counter reads a field | x + counter
      record Two(double a, double b) {} @Elementwise static double bad(double x) { return sq(x); } @Elementwise static Two sq(double x) { return new Two(x, x); } \
          | CallTypes | sq(...) is sq(double) returning test.Ops.Two | return sq(x)
      record Two(long a, long b) {} @Elementwise(identity = Identity.ZERO) static Two bad(long x, long y) { return new Two(x, y); } \
          | Identity | and several results | Identity.ZERO
      record Two(double a, double b) {} @Elementwise static Two bad(double x) { return new Two(x, x); } @Elementwise static Two bad(long x) { return null; } \
          | ParameterType | parameter x has type long but this body computes in double | Two bad(long x)
      """)
  void refusesAResultRecordItCannotGenerate(String members, String tag, String message,
      String line) {
    assertRefused("  " + members, "[Elementwise/" + tag + "]", message, line);
  }

  /** Two records of one simple name would share the facade's one tensor twin of that name. */
  @Test
  void refusesTwoResultRecordsOfOneSimpleName() {
    assertRefused("""
          static class A { record Pair(double lo, double hi) {} }
          static class B { record Pair(double lo, double hi) {} }
          @Elementwise static A.Pair first(double x) { return new A.Pair(x, 2 * x); }
          @Elementwise static B.Pair second(double x) { return new B.Pair(-x, x); }
        """,
        "[Elementwise/FacadeClash]", "op 'second' returns record test.Ops.B.Pair, and op 'first'"
            + " returns record test.Ops.A.Pair: the facade gives each record a tensor twin of its"
            + " simple name Pair", "B.Pair second(");
  }

  @Test
  void refusesAnOverloadBesideARecordOp() {
    assertRefused("""
          record Two(double a, double b) {}
          @Elementwise static Two two(double x) { return new Two(x, x); }
          @Elementwise static double two(
              double x, double y) { return x; }
        """, "[Elementwise/OverloadConflict]", "an op that returns a record has one overload",
        "double two(");
  }

  @Test
  void refusesADerivativeOfARecordOp() {
    assertRefused("""
          record Two(double a, double b) {}
          @Elementwise static Two two(double x) { return new Two(x, x); }
          @Derivative(op = "two", operand = "x") static double dTwo(double x) { return 1; }
        """, "[Elementwise/DerivativeOp]", "it returns a record (ops with several results have"
            + " no gradients yet)", "static double dTwo");
  }

  @Test
  void refusesOpWithoutTensor() {
    assertRefused("  @Elementwise static double c(@Scalar double a) { return a; }",
        "[Elementwise/NoTensorParameter]", "has no tensor parameter", "double c(");
  }

  @Test
  void refusesOpNameThatIsNotAnIdentifier() {
    assertRefused("  @Elementwise(name = \"log-sum\") static double g(double a) { return a; }",
        "[Elementwise/OpName]", "op name 'log-sum' of method g is not a Java identifier",
        "static double g");
    assertRefused("  @Elementwise(name = \"return\") static double g(double a) { return a; }",
        "[Elementwise/OpName]", "op name 'return' of method g", "static double g");
  }

  // ---- @Elementwise(identity, associative) ---------------------------------------------------

  @Test
  void refusesAnIdentityOnAUnaryOpAtTheValue() {
    assertRefused("""
          @Elementwise(
              identity = Identity.ZERO)
          static double g(double a) { return a; }
        """, "[Elementwise/Identity]", "@Elementwise(identity) of op 'g': it applies to ops with"
            + " exactly two tensor operands and no @Scalar parameter", "identity = Identity.ZERO");
  }

  @Test
  void refusesAssociativeOnAnOpWithAScalarAtTheValue() {
    assertRefused("""
          @Elementwise(
              associative = true)
          static double g(double a, double b, @Scalar double alpha) { return a + alpha * b; }
        """, "[Elementwise/Identity]", "@Elementwise(associative) of op 'g': it applies to ops"
            + " with exactly two tensor operands and no @Scalar parameter (the ufunc methods"
            + " reduce, accumulate, outer, at, reduceAt); g has 2 tensor operands and a @Scalar",
        "associative = true");
  }

  @Test
  void refusesAnIdentityOnAThreeOperandOp() {
    assertRefused("""
          @Elementwise(identity = Identity.ONE,
              associative = false)
          static double g(double a, double b, double c) { return a * b * c; }
        """, "[Elementwise/Identity]", "g has 3 tensor operands", "identity = Identity.ONE");
  }

  @Test
  void refusesMinusOneOnADoubleBody() {
    assertRefused("""
          @Elementwise(associative = true,
              identity = Identity.MINUS_ONE)
          static double g(double a, double b) { return a * b; }
        """, "[Elementwise/Identity]", "@Elementwise(identity) of op 'g': MINUS_ONE means all bits"
            + " set, which a double body cannot hold", "identity = Identity.MINUS_ONE");
  }

  @Test
  void refusesOverloadsWithDifferentIdentities() {
    assertRefused("""
          @Elementwise(identity = Identity.ZERO) static double f(double a, double b) { return a; }
          @Elementwise static long f(long a, long b) { return a; }
        """, "[Elementwise/OverloadConflict]", "overload f(long, long) of op 'f' conflicts with"
            + " f(double, double): they declare different identities", "static long f");
  }

  // ---- @Elementwise(dtypes) ------------------------------------------------------------------

  @Test
  void refusesAnUnknownDtypeNameAtThatName() {
    assertRefused("""
          @Elementwise(dtypes = {
              "float32",
              "flaot64"})
          static double g(double a) { return a; }
        """, "[Elementwise/Dtypes]", "dtypes of op 'g': 'flaot64' names no dtype or category;"
            + " a name is a dtype (float32, float64, int64, bool, ...: bool, uint8", "\"flaot64\"");
  }

  @Test
  void refusesAFloat8DtypeAtThatName() {
    assertRefused("""
          @Elementwise(dtypes = {"float32",
              "float8_e4m3fn"})
          static double g(double a) { return a; }
        """, "[Elementwise/Dtypes]", "'float8_e4m3fn' is a storage-only dtype", "float8_e4m3fn");
  }

  @Test
  void refusesAnEmptyDtypeSet() {
    assertRefused("""
          @Elementwise(dtypes = {})
          static double g(double a) { return a; }
        """, "[Elementwise/Dtypes]", "dtypes of op 'g': the set is empty, so no kernel would be"
            + " generated", "dtypes = {}");
  }

  @Test
  void refusesADtypeSetNoBodyComputes() {
    assertRefused("""
          @Elementwise(dtypes = "integral")
          static double g(double a, double b) { return a + b; }
        """, "[Elementwise/Dtypes]", "none of [uint8, int8, int16, int32, int64, uint16, uint32,"
            + " uint64] is computed by its double body, so no kernel would be generated",
        "\"integral\"");
  }

  @Test
  void refusesOverloadsWithDifferentDtypeSets() {
    assertRefused("""
          @Elementwise(dtypes = "float32") static double f(double a) { return a; }
          @Elementwise static long f(long a) { return a; }
        """, "[Elementwise/OverloadConflict]", "overload f(long) of op 'f' conflicts with"
            + " f(double): they declare different dtypes", "static long f");
  }

  @Test
  void refusesConflictingOverloads() {
    assertRefused("""
          @Elementwise static double f(double a, double b) { return a + b; }
          @Elementwise static long f(long a) { return a; }
        """, "[Elementwise/OverloadConflict]", "overload f(long) of op 'f' conflicts with"
            + " f(double, double): they take different numbers of parameters", "static long f");
  }

  @Test
  void refusesScalarInOneOverloadAndTensorInOther() {
    assertRefused("""
          @Elementwise static double f(double a, @Scalar double b) { return a + b; }
          @Elementwise static long f(long a, long b) { return a; }
        """, "[Elementwise/OverloadConflict]", "parameter 2 is a tensor in one and @Scalar in"
            + " the other", "static long f");
  }

  // ---- @Derivative ------------------------------------------------------------------------

  private static final String OP =
      "  @Elementwise static double f(double x, double y, @Scalar double s) { return x * y; }\n"
          + "  @Elementwise static double w(boolean c, double a) { return c ? a : 0; }\n"
          + "  @Elementwise static boolean less(double a, double b) { return a < b; }\n";

  @ParameterizedTest(name = "{1}: {0}")
  @CsvSource(delimiter = '|', textBlock = """
      @Derivative(op = "g", operand = "x") static double gx(double x) { return 1; } \
          | DerivativeOp | names op 'g', which Ops does not declare; its ops: f, less, w | gx(
      @Derivative(op = "less", operand = "a") static double la(double a, double b) { return 1; } \
          | DerivativeOp | which has no gradient: it is a predicate | la(
      @Derivative(op = "f", operand = "z") static double fz(double x, double y, @Scalar double s) { return 1; } \
          | DerivativeOperand | op 'f' has no tensor parameter 'z'; the floating tensor operands of op 'f' are [x, y] | fz(
      @Derivative(op = "f", operand = "s") static double fs(double x, double y, @Scalar double s) { return 1; } \
          | DerivativeOperand | 's' is @Scalar, which has no gradient | fs(
      @Derivative(op = "w", operand = "c") static double wc(boolean c, double a) { return 1; } \
          | DerivativeOperand | 'c' is a boolean condition, which has no gradient | wc(
      @Derivative(op = "f") static double f0(double x, double y, @Scalar double s) { return 1; } \
          | DerivativeOperand | name the operand | f0(
      @Derivative(op = "f", operand = "x") double fx(double x, double y, @Scalar double s) { return 1; } \
          | DerivativeMethod | @Derivative method fx must be static, return double | fx(
      @Derivative(op = "f", operand = "x") static double fx(double x, double y) { return 1; } \
          | DerivativeParameters | must take the parameters of f(double, double, double) (double, double, @Scalar double) | fx(
      @Derivative(op = "f", operand = "x") static double fx(double x, double y, double s) { return 1; } \
          | DerivativeParameters | parameter s is double where s is @Scalar double | fx(
      @Derivative(op = "f", operand = "x") static double fx(double x, double y, @Scalar double s) { return Math.random(); } \
          | UnsupportedCall | Math.random is not a function an @Elementwise body may call | Math.random()
      """)
  void refusesABadDerivative(String member, String tag, String message, String line) {
    assertRefused(OP + "  " + member, "[Elementwise/" + tag + "]", message, line);
  }

  @Test
  void refusesTwoDerivativesOfOneOperand() {
    assertRefused(OP + """
          @Derivative(op = "f", operand = "x") static double one(double x, double y, @Scalar double s) { return y; }
          @Derivative(op = "f", operand = "x")
          static double two(double x, double y, @Scalar double s) { return y; }
        """, "[Elementwise/DerivativeDuplicate]", "with respect to 'x', which one already"
            + " declares", "double two(");
  }

  @Test
  void refusesAnOpNamedLikeABackwardOp() {
    assertRefused(OP + "  @Elementwise static double f_grad_x(double x) { return x; }\n",
        "[Elementwise/BackwardName]", "op 'f_grad_x' has the name of the generated backward op"
            + " of 'f' with respect to 'x'", "static double f(");
  }

  @Test
  void notesAGradientThatIsZeroEverywhere() {
    String members = "  @Elementwise static double steps(double x, double y) {\n"
        + "    return Math.floor(x) * y; }\n";
    Compilation c = compile(members);
    assertThat(c).hadNoteContaining("[Elementwise/ZeroGradient] the gradient of op 'steps' with"
        + " respect to 'x' is zero wherever it is defined").inFile(source(members))
        .onLineContaining("Math.floor(x)");
    // Declared zero: no note.
    Compilation confirmed = compile(members + "  @Derivative(op = \"steps\", operand = \"x\")"
        + " static double stepsX(double x, double y) { return 0; }\n");
    assertThat(confirmed.notes().stream().map(d -> d.getMessage(Locale.ROOT))
        .filter(m -> m.contains("ZeroGradient")).toList()).isEmpty();
  }

  @Test
  void reportsEveryProblemOfABodyInOneCompile() {
    Compilation c = compile(
        "  @Elementwise static double f(double x) {\n    return Math.random()\n"
            + "        + counter; }");
    assertThat(c).hadErrorCount(2);
    assertThat(c).hadErrorContaining("[Elementwise/UnsupportedCall]").inFile(source(
        "  @Elementwise static double f(double x) {\n    return Math.random()\n"
            + "        + counter; }")).onLineContaining("Math.random()");
    assertThat(c).hadErrorContaining("[Elementwise/FieldAccess]").inFile(source(
        "  @Elementwise static double f(double x) {\n    return Math.random()\n"
            + "        + counter; }")).onLineContaining("+ counter");
  }

  /**
   * What the README's body rules say is allowed (issue 15, item 6): locals need not be {@code
   * final} (nothing can assign them anyway), and an int literal beside a long or double operand
   * ({@code a + 1}) is accepted, because javac types the operation long or double; only an
   * operation whose javac type is int ({@code 1 + 2}, above) is refused.
   */
  @Test
  void acceptsPlainLocalsAndIntLiteralsBesideLongOperands() {
    Compilation c = javac()
        .withProcessors(new ElementwiseProcessor(), new OpLibraryServiceProcessor())
        .withOptions("-Aufunc4j.dtypes=float32,int32")
        .compile(source("""
              @Elementwise
              static long k(long a) {
                long r = a + 1;
                boolean big = r > 100;
                return big ? r * 2 : r - 3 + (a >> 1);
              }
              @Elementwise
              static double d(double x) {
                double r = x / 2 + 1;
                return r * r;
              }
            """));
    List<String> ours = c.diagnostics().stream()
        .map(d -> d.getMessage(Locale.ROOT))
        .filter(m -> m.contains("[Elementwise/") && !m.contains("[Elementwise/Cost]"))
        .toList();
    assertThat(ours).isEmpty();
  }

  /**
   * The whole supported language validates and generates. (The generated kernels themselves
   * compile and run in the generated-samples module: the runtime they implement is not visible
   * here, so this compile fails later, on the generated code's imports only.)
   */
  @Test
  void acceptsTheSupportedLanguage() {
    Compilation c = javac()
        .withProcessors(new ElementwiseProcessor(), new OpLibraryServiceProcessor())
        .withOptions("-Aufunc4j.dtypes=float32,int32")
        .compile(source("""
              static final double HALF = 0.5;
              @Elementwise(promote = Promote.INT_TO_FLOAT)
              static double g(double x, double y, @Scalar double alpha, @Scalar boolean flag) {
                final double t = x * HALF - Math.PI;
                var u = -t + Math.fma(x, y, 1) / Math.hypot(x, 2.0);
                return flag && x > 0 || !(y <= 1e-3) ? (double) u * alpha : Math.max(t, -0.0);
              }
              @Elementwise
              static long h(long a, long b) { return a > 0 ? (a << 2) >>> 1 & ~b : -1 % (b | 1); }
              @Elementwise
              static boolean p(boolean c, long a) { return c != a > 3; }
            """));
    List<String> ours = c.diagnostics().stream()
        .map(d -> d.getMessage(Locale.ROOT))
        .filter(m -> m.contains("[Elementwise/") && !m.contains("[Elementwise/Cost]"))
        .toList();
    assertThat(ours).isEmpty();
    assertThat(c.errors().stream().map(d -> String.valueOf(d.getSource().getName())).distinct()
        .toList()).contains("/SOURCE_OUTPUT/test/Ops_g_w32.java");
  }

  // ---- What javac and the JVM accept (issue 23) ----------------------------------------------

  /** The processor's own diagnostics other than the cost notes. */
  private static List<String> ours(Compilation c) {
    return c.diagnostics().stream()
        .map(d -> d.getMessage(Locale.ROOT))
        .filter(m -> m.contains("[Elementwise/") && !m.contains("[Elementwise/Cost]"))
        .toList();
  }

  /**
   * javac does not show processors the methods of local and anonymous classes; they are found in
   * the source trees and refused at the method, not silently left without kernels.
   */
  @Test
  void refusesMethodsOfLocalAndAnonymousClassesAtTheMethod() {
    String members = """
          @Elementwise(dtypes = "float32")
          static double plain(double x) { return x; }
          static Object m() {
            class Inner {
              @Elementwise
              static double twice(double x) { return 2 * x; }
            }
            return new Object() {
              @dev.ufunc4j.annotation.Elementwise
              static double thrice(double x) { return 3 * x; }
            };
          }
        """;
    Compilation c = compile(members);
    assertThat(c).hadErrorContaining("[Elementwise/EnclosingClass] @Elementwise method twice is in"
            + " a local or anonymous class, which javac does not show annotation processors")
        .inFile(source(members)).onLineContaining("static double twice");
    assertThat(c).hadErrorContaining("@Elementwise method thrice is in a local or anonymous class")
        .inFile(source(members)).onLineContaining("static double thrice");
    assertThat(c).hadErrorContaining("declare it in a top-level or static nested class")
        .inFile(source(members)).onLineContaining("static double twice");
  }

  /** A parameter list {@code double a0, ..., double a<n-1>} and the product of those operands. */
  private static String operands(int n) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n; i++) {
      s.append(i == 0 ? "" : ",\n      ").append("double a").append(i);
    }
    return s.toString();
  }

  private static String product(int n) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n; i++) {
      s.append(i == 0 ? "" : " * ").append("a").append(i);
    }
    return s.toString();
  }

  /**
   * A kernel's strided loop takes 2 JVM parameter slots for its length, 5 for the result and for
   * each operand (segment, offset, stride): 50 operands are 257 slots, over the JVM's 255, which
   * javac refused in the generated file ("too many parameters"). The op is refused at its method.
   */
  @Test
  void refusesMoreOperandsThanAKernelMethodTakes() {
    String members = "  @Elementwise(dtypes = \"float32\")\n  static double wide(\n      "
        + operands(50) + ") {\n    return " + product(50).replace("*", "+") + ";\n  }\n";
    assertRefused(members, "[Elementwise/TooManyOperands]", "op 'wide' has 50 tensor operands:"
        + " the strided loop of its float32 kernels would take 257 JVM parameter slots, over the"
        + " JVM's limit of 255", "static double wide(");
    assertRefused(members, "[Elementwise/TooManyOperands]", "at most 49 tensor operands: split"
        + " the op into smaller ones", "static double wide(");
  }

  /** 49 operands are 252 slots: accepted (the generated kernels compile in that case). */
  @Test
  void acceptsAsManyOperandsAsAKernelMethodTakes() {
    Compilation c = javac()
        .withProcessors(new ElementwiseProcessor(), new OpLibraryServiceProcessor())
        .withOptions("-Aufunc4j.dtypes=float32")
        .compile(source("  @Elementwise\n  static double wide(\n      " + operands(49)
            + ") {\n    return " + product(49).replace("*", "+") + ";\n  }\n"));
    assertThat(ours(c)).isEmpty();
  }

  /**
   * The backward op also takes the incoming gradient: 49 operands that the derivative all reads
   * make a 50-operand backward op, refused at the forward op's method.
   */
  @Test
  void refusesABackwardOpWithMoreOperandsThanAKernelMethodTakes() {
    String members = "  @Elementwise(dtypes = \"float32\")\n  static double wide(\n      "
        + operands(49) + ") {\n    return a0 * " + product(49) + ";\n  }\n";
    assertRefused(members, "[Elementwise/TooManyOperands]", "the backward op 'wide_grad_a0' of op"
        + " 'wide' has 50 tensor operands (the incoming gradient and the 49 operands its"
        + " derivative reads)", "static double wide(");
    assertRefused(members, "[Elementwise/TooManyOperands]", "at most 48 tensor operands when the"
        + " gradient reads them all", "static double wide(");
  }

  /**
   * 1000 nested {@code ?:} (valid Java) made a chain of 1000 {@code blend} calls in one statement
   * of the generated kernel, on which javac's attribution overflowed its stack (a crash of javac,
   * not a diagnostic). Now every 16 levels go into a local: javac attributes the generated kernels
   * on a default-sized stack (they fail here only on the runtime's classes, which this module does
   * not see), and the processor reports nothing.
   */
  @Test
  void generatesDeeplyNestedBodiesAsShallowStatements() throws Exception {
    String body = "x";
    for (int i = 0; i < 1000; i++) {
      body = "(x > " + i + ".0 ? " + i + ".0 : " + body + ")";
    }
    JavaFileObject source =
        source("  @Elementwise\n  static double deep(double x) {\n    return " + body + ";\n  }\n");
    // javac on a thread with a 4 MB stack. Not the JVM's default 1 MB: javac's *parser* needs
    // about that for the user's 1000 nested ?: while it still runs interpreted (a run of this test
    // class alone overflowed in JavacParser.term3, before any processor ran). What the fix is about
    // is the generated code, and the line check below fails on the old processor whatever the stack.
    Compilation[] compiled = new Compilation[1];
    Throwable[] crash = new Throwable[1];
    Thread javacThread = new Thread(null, () -> {
      try {
        compiled[0] = javac()
            .withProcessors(new ElementwiseProcessor(), new OpLibraryServiceProcessor())
            .withOptions("-Aufunc4j.dtypes=float32", "--add-modules", "jdk.incubator.vector",
                "-Xmaxerrs", "100000")
            .compile(source);
      } catch (Throwable t) {
        crash[0] = t;
      }
    }, "javac", 4 << 20);
    javacThread.start();
    javacThread.join();
    if (crash[0] != null) {
      throw new AssertionError("javac crashed on the generated code", crash[0]);
    }
    Compilation c = compiled[0];
    assertThat(ours(c)).isEmpty();
    assertThat(c.errors().stream().map(d -> String.valueOf(d.getSource().getName())).distinct()
        .toList()).contains("/SOURCE_OUTPUT/test/Ops_deep_w32.java");
    // Every generated statement nests at most 16 levels of the body: no line chains more blends.
    // (compile-testing hands out generated files only after a successful compile: read them from
    // a directory, having run the processors alone.)
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("deep");
    javax.tools.JavaCompiler compiler = javax.tools.ToolProvider.getSystemJavaCompiler();
    javax.tools.JavaCompiler.CompilationTask task = compiler.getTask(null, null, d -> { },
        List.of("-proc:only", "-Aufunc4j.dtypes=float32", "-s", dir.toString(), "-classpath",
            System.getProperty("java.class.path")), null, List.of(source));
    task.setProcessors(List.of(new ElementwiseProcessor()));
    task.call();
    String kernel = java.nio.file.Files.readString(dir.resolve("test/Ops_deep_w32.java"));
    assertThat(kernel.lines().mapToInt(l -> l.split("\\.blend\\(", -1).length - 1).max()
        .orElseThrow()).isAtMost(16);
  }

  /**
   * An op of another compilation (a library jar, the built-ins) is refused at the call, naming
   * the op: javac reads its annotations from the class file, but no body to inline.
   */
  @Test
  void anOpOfAnotherCompilationIsRefusedNamingIt() throws Exception {
    java.nio.file.Path library = java.nio.file.Files.createTempDirectory("library");
    javax.tools.JavaCompiler compiler = javax.tools.ToolProvider.getSystemJavaCompiler();
    JavaFileObject lib = JavaFileObjects.forSourceString("lib.Library", """
        package lib;

        import dev.ufunc4j.annotation.Elementwise;

        public final class Library {
          @Elementwise(name = "logistic")
          public static double sigmoid(double x) {
            return 1 / (1 + Math.exp(-x));
          }

          public static double half(double x) {
            return x / 2;
          }
        }
        """);
    // Compiled alone, without the processor: only its class file matters here.
    assertThat(compiler.getTask(null, null, null, List.of("-proc:none", "-d",
        library.toString(), "-classpath", System.getProperty("java.class.path")), null,
        List.of(lib)).call()).isTrue();
    String members = """
        @Elementwise
        static double f(double x) { return x * lib.Library.sigmoid(x); }
        @Elementwise
        static double g(double x) { return lib.Library.half(x); }
        """;
    Compilation c = javac().withProcessors(new ElementwiseProcessor())
        .withClasspath(java.util.stream.Stream.concat(
            java.util.Arrays.stream(System.getProperty("java.class.path")
                .split(java.io.File.pathSeparator)).map(java.io.File::new),
            java.util.stream.Stream.of(library.toFile())).toList())
        .compile(source(members));
    assertThat(c).failed();
    assertThat(c).hadErrorContaining("[Elementwise/ForeignOp] Library.sigmoid is the"
        + " @Elementwise op 'logistic' of lib.Library, which was compiled apart from this code")
        .inFile(source(members)).onLineContaining("lib.Library.sigmoid(x)");
    // A plain method of another compilation keeps its message.
    assertThat(c).hadErrorContaining("[Elementwise/UnknownCall] Library.half(...) is declared"
        + " outside this compilation").inFile(source(members))
        .onLineContaining("lib.Library.half(x)");
  }
}
