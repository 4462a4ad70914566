package dev.ufunc4j.samples;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.ufunc4j.processor.ElementwiseProcessor;
import dev.ufunc4j.processor.OpLibraryServiceProcessor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Golden generated sources: one expected file per generated type (and the service file) under
 * {@code src/test/resources/goldens/GoldenSourcesTest/<testMethod>/}. Each case restricts the
 * dtypes ({@code -Aufunc4j.dtypes}) to keep the goldens readable. The generated code must also
 * compile without a warning under {@code -Xlint:all}.
 *
 * <p>Regenerate after an intended change of the output with one command:
 * {@value #REGENERATE}
 */
class GoldenSourcesTest {

  static final String REGENERATE =
      "mvn -B -ntp -pl generated-samples -am verify -Dufunc4j.updateGoldens=true";

  private static final String HEADER = """
      package golden;

      import dev.ufunc4j.Tensor;
      import dev.ufunc4j.annotation.Derivative;
      import dev.ufunc4j.annotation.Elementwise;
      import dev.ufunc4j.annotation.Facade;
      import dev.ufunc4j.annotation.Identity;
      import dev.ufunc4j.annotation.Promote;
      import dev.ufunc4j.annotation.Rule;
      import dev.ufunc4j.annotation.Scalar;

      """;

  private static final String CLASS = """
      public final class Ops {
        private Ops() {}

      """;

  private static Compilation compile(String dtypes, String members) {
    return compile(dtypes, "", members);
  }

  /** @param annotation class annotations of {@code golden.Ops}, or empty */
  private static Compilation compile(String dtypes, String annotation, String members) {
    return compile(dtypes, annotation, members, List.of());
  }

  /** @param options more javac options ({@code -Aufunc4j.tuning=...}) */
  static Compilation compile(String dtypes, String annotation, String members,
      List<String> options) {
    List<String> all = new ArrayList<>(List.of("--add-modules", "jdk.incubator.vector",
        "-Xlint:all,-incubating,-processing", "-Aufunc4j.dtypes=" + dtypes));
    all.addAll(options);
    return javac()
        .withProcessors(new ElementwiseProcessor(), new OpLibraryServiceProcessor())
        .withOptions(all)
        .compile(JavaFileObjects.forSourceString("golden.Ops",
            HEADER + annotation + CLASS + members + "}\n"));
  }

  /** Generated files by relative path (package path for sources, resource path otherwise). */
  static Map<String, String> outputs(Compilation c) {
    Map<String, String> files = new TreeMap<>();
    for (JavaFileObject f : c.generatedFiles()) {
      String name = f.getName().replaceFirst("^/(SOURCE|CLASS)_OUTPUT/", "");
      if (name.endsWith(".class")) {
        continue;
      }
      try {
        files.put(name, f.getCharContent(true).toString());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return files;
  }

  private static void checkGoldens(TestInfo info, String dtypes, String members)
      throws IOException {
    checkGoldens(info, dtypes, "", members);
  }

  private static void checkGoldens(TestInfo info, String dtypes, String annotation,
      String members) throws IOException {
    checkGoldens(info, dtypes, annotation, members, List.of());
  }

  private static void checkGoldens(TestInfo info, String dtypes, String annotation,
      String members, List<String> options) throws IOException {
    Compilation c = compile(dtypes, annotation, members, options);
    assertThat(c).succeededWithoutWarnings();
    Map<String, String> actual = outputs(c);
    String method = info.getTestMethod().orElseThrow().getName();
    Path dir = Path.of(System.getProperty("ufunc4j.goldens", "src/test/resources/goldens"))
        .resolve("GoldenSourcesTest").resolve(method);
    if (Boolean.getBoolean("ufunc4j.updateGoldens")) {
      if (Files.exists(dir)) {
        try (Stream<Path> old = Files.walk(dir)) {
          for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
      }
      for (Map.Entry<String, String> e : actual.entrySet()) {
        Path p = dir.resolve(e.getKey());
        Files.createDirectories(p.getParent());
        Files.writeString(p, e.getValue(), StandardCharsets.UTF_8);
      }
      return;
    }
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, String> e : actual.entrySet()) {
      Path p = dir.resolve(e.getKey());
      if (!Files.exists(p)) {
        problems.add("missing golden " + p);
      } else if (!Files.readString(p, StandardCharsets.UTF_8).equals(e.getValue())) {
        problems.add("generated " + e.getKey() + " differs from golden " + p);
      }
    }
    if (Files.exists(dir)) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path p : files.filter(Files::isRegularFile).toList()) {
          String rel = dir.relativize(p).toString().replace('\\', '/');
          if (!actual.containsKey(rel)) {
            problems.add("golden " + p + " is no longer generated");
          }
        }
      }
    }
    if (!problems.isEmpty()) {
      fail(String.join("\n", problems) + "\nIf the change is intended, regenerate the goldens"
          + " with:\n  " + REGENERATE);
    }
  }

  /**
   * {@code @Elementwise(identity, associative)}: both in the descriptor, and the facade's {@code
   * BinaryUfunc} field of the op's name beside its methods (docs/ufuncs.md).
   */
  @Test
  void ufuncAttributes(TestInfo info) throws IOException {
    checkGoldens(info, "int32", """
          @Elementwise(identity = Identity.MINUS_ONE, associative = true)
          public static long and(long a, long b) {
            return a & b;
          }
        """);
  }

  @Test
  void unaryFloatingOp(TestInfo info) throws IOException {
    checkGoldens(info, "float16,float32,int32", """
          @Elementwise(promote = Promote.INT_TO_FLOAT)
          public static double silu(double x) {
            return x / (1 + Math.exp(-x));
          }
        """);
  }

  /**
   * {@code @Elementwise(dtypes)}: over the full matrix (no {@code -Aufunc4j.dtypes}), only the
   * entries whose operands and promoted dtype are in the set (float32 and int64: four of them), the
   * set in the descriptor, and the backward op's kernel for float32 only.
   */
  @Test
  void restrictedDtypes(TestInfo info) throws IOException {
    checkGoldens(info, "", """
          @Elementwise(dtypes = {"float32", "int64"})
          public static double mul(double a, double b) {
            return a * b;
          }

          @Elementwise(dtypes = {"float32", "int64"})
          public static long mul(long a, long b) {
            return a * b;
          }
        """);
  }

  /**
   * Without {@code -Aufunc4j.verbose} a compilation prints one cost note, a summary, and no note
   * per op (a build of many ops stays quiet).
   */
  @Test
  void costSummaryByDefault() {
    Compilation c = compile("", """
          @Elementwise(dtypes = {"float32", "int64"})
          public static double mul(double a, double b) {
            return a * b;
          }

          @Elementwise(dtypes = {"float32", "int64"})
          public static long mul(long a, long b) {
            return a * b;
          }
        """);
    assertThat(c).succeeded();
    List<String> costNotes = c.notes().stream().map(d -> d.getMessage(java.util.Locale.ROOT))
        .filter(m -> m.contains("[Elementwise/Cost]")).toList();
    assertEquals(1, costNotes.size(), costNotes.toString());
    assertTrue(costNotes.get(0).contains("1 op: 6 kernels in 8 generated files,"),
        costNotes.get(0));
  }

  /**
   * With {@code -Aufunc4j.verbose}, one note per op says what it costs: kernels (forward,
   * backward), generated files and their lines, counted here from the committed goldens of {@link
   * #restrictedDtypes}.
   */
  @Test
  void costNotePerOp() throws IOException {
    Compilation c = compile("", "", """
          @Elementwise(dtypes = {"float32", "int64"})
          public static double mul(double a, double b) {
            return a * b;
          }

          @Elementwise(dtypes = {"float32", "int64"})
          public static long mul(long a, long b) {
            return a * b;
          }
        """, List.of("-Aufunc4j.verbose"));
    assertThat(c).succeeded();
    Path dir = Path.of(System.getProperty("ufunc4j.goldens", "src/test/resources/goldens"))
        .resolve("GoldenSourcesTest/restrictedDtypes/golden");
    long lines = 0;
    int files = 0;
    try (Stream<Path> golden = Files.list(dir)) {
      for (Path p : golden.filter(p -> p.getFileName().toString().startsWith("Ops_mul")).toList()) {
        files++;
        lines += Files.readString(p, StandardCharsets.UTF_8).lines().count();
      }
    }
    assertEquals(8, files); // the int64 entry folds: a class of its own
    assertThat(c).hadNoteContaining(String.format(java.util.Locale.ROOT,
        "[Elementwise/Cost] op 'mul': 6 kernels (4 forward, 2 backward) in 8 generated files,"
            + " %,d lines (dtypes [int64, float32])", lines));
  }

  /**
   * A tuning profile (docs/tuning.md) that chose 256-bit vectors for silu on float32: the float32
   * kernel class caps {@code LANES} at 256 bits; the float64 class, without a record, does not.
   */
  @Test
  void tunedVectorSize(TestInfo info, @TempDir Path dir) throws IOException {
    Path profile = TunedCompileTest.profile(dir, "silu", "float32", 256);
    checkGoldens(info, "float32,float64", "", SILU, List.of("-Aufunc4j.tuning=" + profile));
  }

  static final String SILU = """
        @Elementwise(promote = Promote.INT_TO_FLOAT)
        public static double silu(double x) {
          return x / (1 + Math.exp(-x));
        }
      """;

  @Test
  void promotedBinaryOp(TestInfo info) throws IOException {
    checkGoldens(info, "int32,float32", """
          @Elementwise
          public static double mul(double a, double b) {
            return a * b;
          }
        """);
  }

  @Test
  void overloadedLongDoubleOp(TestInfo info) throws IOException {
    checkGoldens(info, "uint8,int64,float64", """
          @Elementwise
          public static double sub(double a, double b) {
            return a - b;
          }

          @Elementwise
          public static long sub(long a, long b) {
            return a - b;
          }
        """);
  }

  @Test
  void predicate(TestInfo info) throws IOException {
    checkGoldens(info, "float32,int16", """
          @Elementwise
          public static boolean greater(double a, double b) {
            return a > b;
          }

          @Elementwise
          public static boolean greater(long a, long b) {
            return a > b;
          }
        """);
  }

  @Test
  void scalarOp(TestInfo info) throws IOException {
    checkGoldens(info, "int32,float32", """
          @Elementwise
          public static double scaledAdd(double a, double b, @Scalar double alpha) {
            return a + alpha * b;
          }

          @Elementwise
          public static long scaledAdd(long a, long b, @Scalar long alpha) {
            return a + alpha * b;
          }
        """);
  }

  @Test
  void conditionalBody(TestInfo info) throws IOException {
    checkGoldens(info, "int8,bfloat16", """
          @Elementwise
          public static double relu(double x) {
            return x > 0 ? x : 0;
          }

          @Elementwise
          public static long safeDiv(long a, long b) {
            return b == 0 ? 0 : a / b;
          }
        """);
  }

  /**
   * float16 with a body of plain arithmetic (a local, a scalar, a literal, unary minus): the
   * contiguous row is one fused scalar loop over {@code Float.float16ToFloat}/{@code floatToFloat16}
   * into a {@code short[]} chunk (docs/processor.md, "float16 speed"); the splat rows keep the
   * vector body.
   */
  @Test
  void halfArithmetic(TestInfo info) throws IOException {
    checkGoldens(info, "float16", """
          @Elementwise
          public static double lerpHalf(double a, double b, @Scalar double w) {
            final double d = b - a;
            return -(a + w * d) / 2.5;
          }
        """);
  }

  @Test
  void complexLiftedOp(TestInfo info) throws IOException {
    checkGoldens(info, "float32,complex64", """
          @Elementwise
          public static double div(double a, double b) {
            return a / b;
          }
        """);
  }

  /**
   * Backward ops: gelu's derived through a local (one derivative local, a repeated tanh named),
   * hardtanh's declared by a {@code @Derivative}; each descriptor's javadoc shows its formula.
   */
  @Test
  void derivedAndDeclaredBackward(TestInfo info) throws IOException {
    checkGoldens(info, "float32", """
          @Elementwise(promote = Promote.INT_TO_FLOAT)
          public static double gelu(double x) {
            final double inner = 0.7978845608028654 * (x + 0.044715 * (x * x * x));
            return 0.5 * x * (1 + Math.tanh(inner));
          }

          @Elementwise
          public static double hardtanh(double x, @Scalar double minVal, @Scalar double maxVal) {
            final double low = minVal > x ? minVal : x;
            return maxVal < low ? maxVal : low;
          }

          @Derivative(op = "hardtanh")
          static double hardtanhGrad(double x, @Scalar double minVal, @Scalar double maxVal) {
            return x > minVal && x < maxVal ? 1 : 0;
          }
        """);
  }

  /**
   * A body that calls another op and a helper method (issue 26): both inlined, so the op has one
   * fused kernel and no temporaries; the helper's local and the argument it reads twice become
   * locals of the kernel; the derived gradient goes through the inlined calls.
   */
  @Test
  void composition(TestInfo info) throws IOException {
    checkGoldens(info, "float32", """
          static double square(double x) {
            final double s = x * x;
            return s * s;
          }

          @Elementwise
          public static double softSign(double x) {
            return x / (1 + Math.abs(x));
          }

          @Elementwise
          public static double softSquare(double x, @Scalar double scale) {
            return square(softSign(x * scale));
          }
        """);
  }

  /**
   * A call to an op that declares a {@code @Derivative} (issue 26): silu's backward takes
   * sigmoid's declared derivative for the call ({@code (1 - y) * y}), and its forward kernel
   * is the inlined body, as for any call.
   */
  @Test
  void compositionDeclaredDerivative(TestInfo info) throws IOException {
    checkGoldens(info, "float32", """
          @Elementwise
          public static double sigmoid(double x) {
            return 1 / (1 + Math.exp(-x));
          }

          @Derivative(op = "sigmoid")
          static double sigmoidGrad(double grad, double x) {
            final double y = sigmoid(x);
            return grad * (1 - y) * y;
          }

          @Elementwise
          public static double silu(double x) {
            return x * sigmoid(x);
          }
        """);
  }

  /**
   * Ops with several results (issue 26): a record of longs (int32, computed in narrow lanes) and
   * one of doubles with a boolean component, a {@code @Scalar} and shared locals (float32); each
   * gets one kernel
   * writing a tensor per component, the facade the record's tensor twin and one target per
   * component in its {@code out=} forms, and no ufunc field.
   */
  @Test
  void severalResults(TestInfo info) throws IOException {
    checkGoldens(info, "float32,int32", """
          public record DivMod(long quotient, long remainder) {}

          public record Split(double whole, double fraction, boolean negative) {}

          /** Java's quotient and remainder. */
          @Elementwise
          public static DivMod divmod(long a, long b) {
            return new DivMod(a / b, a % b);
          }

          @Elementwise
          public static Split split(double x, @Scalar double scale) {
            final double y = x * scale;
            final double whole = y < 0 ? Math.ceil(y) : Math.floor(y);
            return new Split(whole, y - whole, y < 0);
          }
        """);
  }

  /**
   * A named facade with a class of instance forms, an op whose methods share another op's name,
   * numbers in every operand after the first, and rules: a check that reads a Java number as
   * given, an answer that reads it as a tensor (so it is wrapped first), a scalar's value.
   */
  @Test
  void namedFacadeWithRules(TestInfo info) throws IOException {
    checkGoldens(info, "float32", """
        @Facade(value = "Calc", instanceMethods = "CalcMethods")
        """, """
          /** {@code a - b}, elementwise. */
          @Elementwise
          public static double sub(double a, double b) {
            return a - b;
          }

          /** {@code a - alpha * b}, elementwise. */
          @Elementwise(methodName = "sub")
          public static double subScaled(double a, double b, @Scalar double alpha) {
            return a - alpha * b;
          }

          /** {@code x} within {@code [lo, hi]}. */
          @Elementwise(numbersAfterFirst = true)
          public static double clamp(double x, double lo, double hi) {
            return Math.min(Math.max(x, lo), hi);
          }

          /** A negative Java number {@code b} is refused. */
          @Rule("sub")
          static void refuseNegative(Tensor a, Number b) {
            if (b != null && b.doubleValue() < 0) {
              throw new IllegalArgumentException("sub: b < 0");
            }
          }

          /** An alpha of 1 runs plain {@code sub}. */
          @Rule("sub")
          static Tensor withoutAlpha(Tensor a, Tensor b, Number alpha, Tensor out) {
            return alpha != null && alpha.doubleValue() == 1 ? Calc.sub(a, b, out) : null;
          }

          /** Alpha is passed as a double. */
          @Rule(value = "sub", scalar = "alpha")
          static Object alphaAsDouble(Number alpha) {
            return alpha.doubleValue();
          }
        """);
  }

  /**
   * A kernel class declares only the constants its code names (issue 25 item 6): the classes of
   * {@code lt}, whose kernels only run {@code gt}'s rows with the operands swapped ({@code
   * Mirrors.across}), declare no species at all, and no class declares a species or a packing
   * flag its rows do not read.
   */
  @Test
  void kernelClassesDeclareOnlyTheConstantsTheyUse() {
    Compilation c = compile("uint8,int16,int32,float32,float64", """
          @Elementwise
          public static boolean gt(double a, double b) { return a > b; }
          @Elementwise
          public static boolean gt(long a, long b) { return a > b; }
          @Elementwise
          public static boolean lt(double a, double b) { return a < b; }
          @Elementwise
          public static boolean lt(long a, long b) { return a < b; }
          @Elementwise
          public static double mul(double a, double b) { return a * b; }
          @Elementwise
          public static long mul(long a, long b) { return a * b; }
        """);
    assertThat(c).succeededWithoutWarnings();
    Map<String, String> files = outputs(c);
    Pattern constant = Pattern.compile("private static final [^=]* (\\w+) =");
    int ltClasses = 0;
    for (Map.Entry<String, String> f : files.entrySet()) {
      if (!f.getKey().matches(".*_w\\d+\\w*\\.java")) {
        continue; // not a kernel class
      }
      String code = f.getValue();
      if (f.getKey().contains("Ops_lt_w")) {
        ltClasses++;
        assertThat(code).contains("Ops_gt_w"); // it runs gt's rows
        assertThat(code).doesNotContain("VectorSpecies");
      }
      Matcher m = constant.matcher(code);
      while (m.find()) {
        long uses = Pattern.compile("\\b" + m.group(1) + "\\b").matcher(code).results().count();
        assertTrue(uses > 1, f.getKey() + " declares " + m.group(1) + " and never names it");
      }
    }
    assertTrue(ltClasses > 0, "no kernel class of lt among " + files.keySet());
  }

  /**
   * Entries whose kernels are the same code share one kernel (issue 25 item 6, {@code
   * SharedKernels}): {@code add.reduce} of uint32 is int32's fold loop (two's complement adds
   * alike), and {@code (uint8, int32)} loads and zero-extends bytes as {@code (bool, int32)} does,
   * so their table slots name the first one's constant and have no code of their own. Derived from
   * the code: {@code maximum}'s uint32 entry compares unsigned, so it keeps its own kernel. (That
   * the shared kernels compute each entry's values: {@code KernelConformanceTest}.)
   */
  @Test
  void entriesWithTheSameCodeShareOneKernel() {
    Map<String, String> files = outputs(compile("bool,uint8,int32,uint32", """
          @Elementwise
          public static long add(long a, long b) { return a + b; }
          @Elementwise
          public static long maximum(long a, long b) { return Math.max(a, b); }
        """));
    String add = files.get("golden/Ops_add.java");
    assertThat(add).contains("Ops_add_w32f_int32.INT32_INT32");
    assertThat(add).doesNotContain("UINT32_UINT32");
    assertThat(files).doesNotContainKey("golden/Ops_add_w32f_uint32.java");
    assertThat(files.get("golden/Ops_add_w32f_int32.java"))
        .contains("Also the kernel of (uint32, uint32) promoted to uint32");
    assertThat(add).doesNotContain("UINT8_INT32");
    String w32 = files.get("golden/Ops_add_w32min4.java");
    assertThat(w32).contains("bool_int32_contiguous(");
    assertThat(w32).doesNotContain("uint8_int32_contiguous("); // nor does int32_uint8 call it
    assertThat(w32).contains("Also the kernel of (uint8, int32) promoted to int32");
    assertThat(files.get("golden/Ops_maximum.java"))
        .contains("Ops_maximum_w32f_uint32.UINT32_UINT32");
  }

  /**
   * A kernel that runs another op's rows ({@code lt}'s, running {@code gt}'s with the operands
   * swapped) is shared only with one that runs the same rows: {@code lt}'s float16 and bfloat16
   * entries call {@code gt}'s {@code float16_float16_*} and {@code bfloat16_bfloat16_*}, which
   * differ, though each is named as its own kernel.
   */
  @Test
  void kernelsRunningAnotherOpsRowsShareOnlyTheSameRows() {
    Map<String, String> files = outputs(compile("float16,bfloat16", """
          @Elementwise
          public static boolean gt(double a, double b) { return a > b; }
          @Elementwise
          public static boolean lt(double a, double b) { return a < b; }
        """));
    String lt = files.entrySet().stream().filter(f -> f.getKey().contains("Ops_lt_w"))
        .map(Map.Entry::getValue).reduce("", String::concat);
    assertThat(lt).contains(".float16_float16_contiguous(");
    assertThat(lt).contains(".bfloat16_bfloat16_contiguous(");
  }

  @Test
  void outputIsDeterministic() {
    String members = """
          @Elementwise
          public static double f(double a, double b) { return Math.max(a, b) * 2; }
          @Elementwise
          public static long f(long a, long b) { return a >> 1 | b; }
        """;
    Map<String, String> first = outputs(compile("bool,uint8,int32,float16,float64", members));
    Map<String, String> second = outputs(compile("bool,uint8,int32,float16,float64", members));
    assertEquals(first, second);
    assertThat(first.values().stream().anyMatch(s -> s.matches("(?s).*\\d{4}-\\d{2}-\\d{2}.*")))
        .isFalse();
  }
}
