package dev.ufunc4j.samples;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What javac accepts, the generated code compiles too, against the real runtime and without a
 * warning (issue 23): bodies as deep as javac compiles, through each emitter, and as many operands
 * as a kernel method takes. javac runs on a thread with the JVM's default stack (1 MB on x64), as
 * build tools run it; the processor's own recursion runs on its own thread.
 */
class LimitsCompileTest {

  private static Compilation compileOnDefaultStack(String dtypes, String members)
      throws InterruptedException {
    Compilation[] compiled = new Compilation[1];
    Throwable[] crash = new Throwable[1];
    Thread javac = new Thread(null, () -> {
      try {
        compiled[0] = GoldenSourcesTest.compile(dtypes, "", members, List.of());
      } catch (Throwable t) {
        crash[0] = t;
      }
    }, "javac", 1 << 20);
    javac.start();
    javac.join();
    if (crash[0] != null) {
      throw new AssertionError("javac crashed", crash[0]);
    }
    return compiled[0];
  }

  /** 1000 nested {@code ?:}: the vector kernels and their backward kernels. */
  @Test
  void thousandNestedConditionals() throws InterruptedException {
    String body = "x";
    for (int i = 0; i < 1000; i++) {
      body = "(x > " + i + ".0 ? " + i + ".0 : " + body + ")";
    }
    Compilation c = compileOnDefaultStack("float32",
        "  @Elementwise\n  static double deep(double x) {\n    return " + body + ";\n  }\n");
    assertThat(c).succeededWithoutWarnings();
  }

  /**
   * A sum of 1000 products: the fused float16 rows (scalar Java), the complex kernels and the
   * float64 vector kernels.
   */
  @Test
  void thousandTermSum() throws InterruptedException {
    String body = String.join(" + ", java.util.Collections.nCopies(1000, "x * y"));
    Compilation c = compileOnDefaultStack("float16,float64,complex64",
        "  @Elementwise\n  static double deep(double x, double y) {\n    return " + body
            + ";\n  }\n");
    assertThat(c).succeededWithoutWarnings();
    assertThat(c.generatedSourceFile("golden.Ops_deep_w32")).isPresent();
  }

  /** 49 operands: the strided loop's 252 parameter slots fit the JVM's 255. */
  @Test
  void fortyNineOperands() throws InterruptedException {
    StringBuilder params = new StringBuilder();
    StringBuilder sum = new StringBuilder();
    for (int i = 0; i < 49; i++) {
      params.append(i == 0 ? "" : ", ").append("double a").append(i);
      sum.append(i == 0 ? "" : " + ").append("a").append(i);
    }
    Compilation c = compileOnDefaultStack("float32,float64",
        "  @Elementwise\n  static double wide(" + params + ") {\n    return " + sum + ";\n  }\n");
    assertThat(c).succeededWithoutWarnings();
  }
}
