package dev.ufunc4j.processor;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Path;
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

  @BeforeAll
  static void generate() throws Exception {
    dir = GeneratedKernels.generate(SOURCE, "float32,float64");
  }

  /** The contiguous loop's body of the erf kernel for {@code dtype} ({@code width} bits). */
  private static String loop(String dtype, int width) throws Exception {
    return GeneratedKernels.contiguousLoop(dir, "erfOp", dtype, width);
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
    // Not vectorised yet: the float64 method is double-double arithmetic (docs/vector-math.md).
    assertThat(loop("float64", 64)).contains("SpecialLanes.lanes(");
  }
}
