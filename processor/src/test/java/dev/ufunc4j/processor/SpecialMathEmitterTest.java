package dev.ufunc4j.processor;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The float32 kernel of {@code SpecialMath.erf} is vector arithmetic (issue 26 item 3, issue 28
 * item 2's erf): no call per lane, and its operations counted as {@link MathEmitterCostTest}
 * counts the cores'. Its bits against {@code SpecialMath.erf(float)}: {@code SpecialMathKernelTest}
 * (generated-samples).
 */
class SpecialMathEmitterTest {

  private static final String SOURCE = """
      package test;

      import dev.ufunc4j.annotation.Elementwise;
      import dev.ufunc4j.math.SpecialMath;

      final class Ops {
        @Elementwise
        static double erfOp(double x) {
          return SpecialMath.erf(x);
        }
      }
      """;

  private static Path dir;

  /** Runs the processor alone (the runtime is not on this module's class path). */
  @BeforeAll
  static void generate() throws Exception {
    dir = Files.createTempDirectory("special-math");
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    JavaFileObject source = com.google.testing.compile.JavaFileObjects.forSourceString("test.Ops",
        SOURCE);
    JavaCompiler.CompilationTask task = compiler.getTask(null, null, d -> { },
        List.of("-proc:only", "-Aufunc4j.dtypes=float32,float64", "-s", dir.toString(),
            "-classpath", System.getProperty("java.class.path")), null, List.of(source));
    task.setProcessors(List.of(new ElementwiseProcessor()));
    task.call();
  }

  /** The contiguous loop's body of the erf kernel for {@code dtype} ({@code width} bits). */
  private static String loop(String dtype, int width) throws Exception {
    String kernel = Files.readString(dir.resolve("test/Ops_erfOp_w" + width + ".java"));
    int method = kernel.indexOf(dtype + "_contiguous(long n");
    assertThat(method).isAtLeast(0);
    int start = kernel.indexOf("for (long i = 0", method);
    int end = kernel.indexOf("intoMemorySegment", start);
    return kernel.substring(start, end);
  }

  @Test
  void float32ErfIsVectorArithmeticOfAtMost40Operations() throws Exception {
    String loop = loop("float32", 32);
    // It called SpecialLanes.lanes(x, SpecialMath::erf): the method once per lane.
    assertThat(loop).doesNotContain("SpecialLanes");
    assertThat(MathEmitterCostTest.operations(loop)).isAtMost(40);
  }

  @Test
  void float64ErfStillCallsTheMethodPerLane() throws Exception {
    // Not vectorised yet: the float64 method's e^(-x^2) is StrictMath.exp (docs/vector-math.md).
    assertThat(loop("float64", 64)).contains("SpecialLanes.lanes(");
  }
}
