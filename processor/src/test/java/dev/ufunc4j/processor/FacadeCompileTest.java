package dev.ufunc4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import java.util.Locale;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * The facade's declarations: {@code @Facade} names (and refusals at the annotation value), method
 * names shared by ops, {@code @Rule}s and their refusals, and that an internal error in one class
 * is reported on that class while the others are still generated. The runtime is not visible here
 * (a one-line {@code dev.ufunc4j.Tensor} stands in for it), so the generated code does not
 * compile: tests that read it only run the processors ({@code -proc:only}); the others look at
 * the processor's own diagnostics.
 */
class FacadeCompileTest {

  private static final String IMPORTS = """
      package test;

      import dev.ufunc4j.Tensor;
      import dev.ufunc4j.annotation.Elementwise;
      import dev.ufunc4j.annotation.Facade;
      import dev.ufunc4j.annotation.Rule;
      import dev.ufunc4j.annotation.Scalar;

      """;

  /** Stands in for the runtime's Tensor, which rule parameters name. */
  private static final JavaFileObject TENSOR = JavaFileObjects.forSourceString(
      "dev.ufunc4j.Tensor", "package dev.ufunc4j;\n\npublic final class Tensor {}\n");

  private static JavaFileObject source(String name, String body) {
    return JavaFileObjects.forSourceString("test." + name, IMPORTS + body);
  }

  private static Compilation compile(List<String> options, JavaFileObject... sources) {
    JavaFileObject[] all = new JavaFileObject[sources.length + 1];
    System.arraycopy(sources, 0, all, 0, sources.length);
    all[sources.length] = TENSOR;
    return javac()
        .withProcessors(new ElementwiseProcessor(), new OpLibraryServiceProcessor())
        .withOptions(options)
        .compile(all);
  }

  private static Compilation compile(JavaFileObject... sources) {
    return compile(List.of("-Aufunc4j.dtypes=float32"), sources);
  }


  /** The processor's own diagnostics (tagged), not javac's about the missing runtime. */
  private static List<String> ours(Compilation c) {
    return c.diagnostics().stream()
        .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
        .map(d -> d.getMessage(Locale.ROOT))
        .filter(m -> m.contains("[Elementwise/"))
        .toList();
  }

  private static void assertRefused(JavaFileObject source, String tag, String message,
      String line) {
    Compilation c = compile(source);
    assertThat(c).failed();
    assertThat(c).hadErrorContaining(tag).inFile(source).onLineContaining(line);
    assertThat(c).hadErrorContaining(message).inFile(source).onLineContaining(line);
  }

  private static final String OP = """
        @Elementwise
        static double huber(double prediction, double target, @Scalar double delta) {
          return prediction - target;
        }
      """;

  /**
   * The generated files javac compiled: it refuses each one (the runtime is absent here), so they
   * are the sources of its errors.
   */
  private static List<String> generatedAndCompiled(Compilation c) {
    return c.errors().stream()
        .map(d -> String.valueOf(d.getSource().getName()))
        .filter(name -> name.startsWith("/SOURCE_OUTPUT/"))
        .distinct()
        .toList();
  }

  private static final List<String> ALL_ERRORS = List.of("-Aufunc4j.dtypes=float32", "-Xmaxerrs",
      "100000");

  @Test
  void facadeTakesTheNameGiven() {
    Compilation c = compile(ALL_ERRORS,
        source("Ops", "@Facade(\"LossOps\")\nfinal class Ops {\n" + OP + "}\n"));
    assertThat(ours(c)).isEmpty();
    assertThat(generatedAndCompiled(c)).contains("/SOURCE_OUTPUT/test/LossOps.java");
    assertThat(generatedAndCompiled(c)).doesNotContain("/SOURCE_OUTPUT/test/OpsOps.java");
  }

  @Test
  void refusesFacadeNameOfAClassOfTheCompilation() {
    assertRefused(source("Ops", "@Facade(\n    \"Ops\")\nfinal class Ops {\n" + OP + "}\n"),
        "[Elementwise/FacadeName]",
        "facade name 'Ops' of test.Ops clashes with test.Ops, a class of this compilation",
        "\"Ops\")");
  }

  /**
   * The default facade name is checked as a given one: a class {@code ClashOps} beside {@code
   * Clash} made javac's Filer throw ({@code [Elementwise/InternalError]} with a FilerException).
   * The refusal is at the class and says how to name the facade; nothing is generated for it.
   */
  @Test
  void refusesADefaultFacadeNameThatAClassHas() {
    JavaFileObject clash = source("Clash", "final class Clash {\n" + OP + "}\n");
    JavaFileObject taken = source("ClashOps", "final class ClashOps {}\n");
    Compilation c = compile(ALL_ERRORS, clash, taken);
    assertThat(c).hadErrorContaining("[Elementwise/FacadeName] default facade name 'ClashOps' of"
            + " test.Clash clashes with test.ClashOps, a class of this compilation; name the"
            + " facade with @Facade(\"...\") on Clash")
        .inFile(clash).onLineContaining("final class Clash {");
    assertThat(ours(c)).hasSize(1);
    assertThat(generatedAndCompiled(c)).isEmpty();
  }

  /**
   * Any other generated name a class of the compilation has is refused at the declaring class
   * before anything is written ({@code Clash_huber} is the op's descriptor class).
   */
  @Test
  void refusesAGeneratedNameThatAClassHas() {
    JavaFileObject clash = source("Clash", "final class Clash {\n" + OP + "}\n");
    JavaFileObject taken = source("Clash_huber", "final class Clash_huber {}\n");
    Compilation c = compile(ALL_ERRORS, clash, taken);
    assertThat(c).hadErrorContaining("[Elementwise/GeneratedName] test.Clash_huber, which the"
            + " processor generates for test.Clash (the descriptor of op 'huber'), is already a"
            + " class of this compilation; rename that class or the op")
        .inFile(clash).onLineContaining("final class Clash {");
    assertThat(ours(c)).hasSize(1);
    assertThat(generatedAndCompiled(c)).isEmpty();
  }

  @Test
  void refusesFacadeNameThatIsNotAnIdentifier() {
    assertRefused(source("Losses", "@Facade(\n    \"Loss-Ops\")\nfinal class Losses {\n" + OP
            + "}\n"),
        "[Elementwise/FacadeName]", "facade name 'Loss-Ops' of test.Losses is not a Java"
            + " identifier", "\"Loss-Ops\")");
  }

  @Test
  void refusesFacadeNameOfTheKernelClasses() {
    assertRefused(source("Losses", "@Facade(\n    \"LossesOpLibrary\")\nfinal class Losses {\n"
            + OP + "}\n"),
        "[Elementwise/FacadeName]", "is the name of a class the processor generates",
        "\"LossesOpLibrary\")");
  }

  @Test
  void refusesInstanceClassNamedAsTheFacade() {
    assertRefused(source("Losses", "@Facade(value = \"LossOps\",\n    instanceMethods ="
            + " \"LossOps\")\nfinal class Losses {\n" + OP + "}\n"),
        "[Elementwise/FacadeName]", "instance class name 'LossOps' of test.Losses is also the"
            + " facade's name", "instanceMethods = \"LossOps\")");
  }

  @Test
  void refusesOneFacadeNameForTwoClasses() {
    JavaFileObject first = source("A", "@Facade(\"Shared\")\nfinal class A {\n" + OP + "}\n");
    JavaFileObject second = source("B", "@Facade(\"Shared\")\nfinal class B {\n" + OP + "}\n");
    Compilation c = compile(first, second);
    assertThat(c).hadErrorContaining("[Elementwise/FacadeName] facade name 'Shared' of test.B is"
        + " already generated for test.A").inFile(second).onLineContaining("@Facade(\"Shared\")");
  }

  @Test
  void refusesFacadeWithoutOps() {
    assertRefused(source("Empty", "@Facade(\"EmptyOps\")\nfinal class Empty {}\n"),
        "[Elementwise/FacadeName]", "@Facade on test.Empty, which declares no valid @Elementwise"
            + " method", "final class Empty");
  }

  @Test
  void opNameRefusalPointsAtTheValue() {
    assertRefused(source("Named", """
            final class Named {
              @Elementwise(
                  name = "log-sum")
              static double g(double a) { return a; }
            }
            """),
        "[Elementwise/OpName]", "op name 'log-sum' of method g is not a Java identifier",
        "name = \"log-sum\"");
  }

  @Test
  void methodNameRefusalPointsAtTheValue() {
    assertRefused(source("Named", """
            final class Named {
              @Elementwise(
                  methodName = "class")
              static double g(double a) { return a; }
            }
            """),
        "[Elementwise/OpName]", "method name 'class' of method g is not a Java identifier",
        "methodName = \"class\"");
  }

  @Test
  void opsSharingAMethodNameNeedDistinctParameterTypes() {
    JavaFileObject ok = source("Shared", """
        final class Shared {
          @Elementwise static double add(double a, double b) { return a + b; }
          @Elementwise(methodName = "add")
          static double addScaled(double a, double b, @Scalar double alpha) { return a + alpha * b; }
        }
        """);
    assertThat(ours(compile(ok))).isEmpty();
    assertRefused(source("Shared", """
            final class Shared {
              @Elementwise static double f(double x) { return x; }
              @Elementwise(methodName = "f")
              static double g(double y) { return -y; }
            }
            """),
        "[Elementwise/FacadeClash]", "f(Tensor) of op 'g' has the parameter types of f(Tensor) of"
            + " op 'f'", "static double g");
  }

  @Test
  void instanceMethodsMayNotClashWithObjects() {
    assertRefused(source("Methods", """
            @Facade(instanceMethods = "TensorMethods")
            final class Methods {
              @Elementwise static double hashCode(double x) { return x; }
            }
            """),
        "[Elementwise/FacadeClash]", "instance method hashCode() of op 'hashCode' would clash with"
            + " Object's hashCode()", "static double hashCode");
  }

  private static final String BINARY = """
        @Elementwise static double sub(double a, double b) { return a - b; }
        @Elementwise(methodName = "sub")
        static double subScaled(double a, double b, @Scalar double alpha) { return a - alpha * b; }
        @Elementwise static double neg(double x) { return -x; }
      """;

  private static JavaFileObject withRule(String rule) {
    return source("Rules", "final class Rules {\n" + BINARY + rule + "}\n");
  }

  @Test
  void acceptsRulesThatFit() {
    // The code they make is in generated-samples' golden sources (GoldenSourcesTest).
    assertThat(ours(compile(withRule("""
          @Rule("sub")
          static void check(Tensor a, Number b) {}
          @Rule("sub")
          static Tensor answer(Tensor a, Tensor b, Number alpha, Tensor out) { return null; }
          @Rule(value = "sub", scalar = "alpha")
          static Object alphaValue(Number alpha) { return alpha; }
        """)))).isEmpty();
  }

  @Test
  void refusesRuleOfAnUnknownMethod() {
    JavaFileObject source = withRule("  @Rule(\n      \"mul\")\n  static void check(Tensor a) {}\n");
    assertRefused(source, "[Elementwise/Rule]", "@Rule method check guards 'mul', which is no"
        + " facade method of test.Rules; its facade methods: neg, sub", "\"mul\")");
  }

  @Test
  void refusesRuleOfAnUnknownScalar() {
    JavaFileObject source = withRule(
        "  @Rule(value = \"sub\",\n      scalar = \"beta\")\n  static Object beta() { return 1; }\n");
    assertRefused(source, "[Elementwise/Rule]", "@Rule method beta computes scalar 'beta', which"
        + " facade method 'sub' does not take; its scalars: alpha", "scalar = \"beta\")");
  }

  @Test
  void refusesRuleParameterThatNamesNothing() {
    assertRefused(withRule("  @Rule(\"sub\")\n  static void check(Tensor a,\n      Tensor c) {}\n"),
        "[Elementwise/Rule]", "parameter c of @Rule method check names no parameter of facade"
            + " method 'sub'; its parameters: a, b, alpha, out", "Tensor c)");
  }

  @Test
  void refusesRuleParameterOfAnotherType() {
    assertRefused(withRule("  @Rule(\"sub\")\n  static void check(\n      double a) {}\n"),
        "[Elementwise/Rule]", "parameter a of @Rule method check is a tensor operand of facade"
            + " method 'sub': declare it Tensor, or Number", "double a)");
  }

  @Test
  void refusesRuleReturningSomethingElse() {
    assertRefused(withRule("  @Rule(\"sub\")\n  static int check(Tensor a) { return 0; }\n"),
        "[Elementwise/Rule]", "@Rule method check returns int; a rule returns void",
        "static int check");
  }

  @Test
  void refusesInstanceRule() {
    assertRefused(withRule("  @Rule(\"sub\")\n  void check(Tensor a) {}\n"),
        "[Elementwise/Rule]", "@Rule method check must be static and not private",
        "void check");
  }

  @Test
  void refusesRuleThatFitsNoMethod() {
    // neg has one operand, so no method takes a Java number for it.
    assertRefused(withRule("  @Rule(\"neg\")\n  static void check(Number x) {}\n"),
        "[Elementwise/Rule]", "@Rule method check fits none of the facade methods named 'neg'",
        "static void check");
  }

  /**
   * An internal error while generating one class is an error on that class, with the trace; the
   * class after it in the round is still generated (no cascade of "cannot find symbol").
   */
  @Test
  void internalErrorInOneClassLeavesTheOthersGenerated() {
    JavaFileObject broken = source("Broken", "final class Broken {\n" + OP + "}\n");
    JavaFileObject fine = source("Fine", "final class Fine {\n" + OP + "}\n");
    List<String> options = new java.util.ArrayList<>(ALL_ERRORS);
    options.add("-Aufunc4j.testing.failOn=test.Broken");
    Compilation c = compile(options, broken, fine);
    assertThat(c).hadErrorContaining("[Elementwise/InternalError] internal error of the ufunc4j"
        + " processor while generating the ops of test.Broken: java.lang.IllegalStateException")
        .inFile(broken).onLineContaining("final class Broken");
    assertThat(c).hadErrorContaining("at dev.ufunc4j.processor.ElementwiseProcessor")
        .inFile(broken).onLineContaining("final class Broken");
    assertThat(ours(c)).hasSize(1);
    List<String> compiled = generatedAndCompiled(c);
    assertThat(compiled).containsAtLeast(
        "/SOURCE_OUTPUT/test/FineOps.java", "/SOURCE_OUTPUT/test/FineOpLibrary.java");
    assertThat(compiled).doesNotContain("/SOURCE_OUTPUT/test/BrokenOps.java");
  }
}
