package dev.ufunc4j.processor;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the float32 transcendental cores cost, counted in the code {@link MathEmitter} writes
 * (issue 28, item 2): a vector operation is about a cycle per vector on the machines measured
 * (docs/vector-math.md, "Speed"), so the count is the cost, without timing anything. Their
 * accuracy and their bits are checked elsewhere ({@code tools/vmath/Exhaustive.java}, {@code
 * ReproducibleBitsTest} and {@code KernelConformanceTest} in generated-samples).
 */
class MathEmitterCostTest {

  private static final String SOURCE = """
      package test;

      import dev.ufunc4j.annotation.Elementwise;

      final class Ops {
        @Elementwise
        static double expOp(double x) {
          return Math.exp(x);
        }

        @Elementwise
        static double tanhOp(double x) {
          return Math.tanh(x);
        }

        @Elementwise
        static double logOp(double x) {
          return Math.log(x);
        }

        @Elementwise
        static double sinOp(double x) {
          return Math.sin(x);
        }

        @Elementwise
        static double cosOp(double x) {
          return Math.cos(x);
        }

        @Elementwise
        static double sigmoidOp(double x) {
          return 1 / (1 + Math.exp(-x));
        }
      }
      """;

  private static Path dir;

  @BeforeAll
  static void generate() throws Exception {
    dir = GeneratedKernels.generate(SOURCE, "float32");
  }

  /** The contiguous float32 loop's body of an op's kernel. */
  private static String loop(String op) throws Exception {
    return GeneratedKernels.contiguousLoop(dir, op, "float32", 32);
  }

  private static int count(String code, String regex) {
    Matcher m = Pattern.compile(regex).matcher(code);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  /**
   * Vector operations of the common path: not those of a rare-lane path (an {@code if
   * (rare.anyTrue())} block, or the slow side of {@code rare.anyTrue() ? slow : fast}), which runs
   * for a vector holding a rare lane only.
   */
  static int operations(String loop) {
    String common = commonPath(loop);
    return count(common,
        "\\.(add|sub|mul|div|fma|neg|abs|min|max|blend|compare|lanewise|and|or|not)\\(")
        + 5 * floatingMinMax(common);
  }

  /**
   * The floating {@code min} and {@code max} calls (not those of integer lanes, {@code
   * reinterpretAsInts().min(...)}): C2 writes six instructions for each on AVX-512 (Java's rules
   * for NaN and -0.0: two blends, the minimum, an unordered compare and a masked move), so {@link
   * #operations} counts them six times; an integer min is one instruction.
   */
  static int floatingMinMax(String code) {
    return count(code, "(?<!reinterpretAs(Ints|Longs)\\(\\))\\.(min|max)\\(");
  }

  /** The loop without its rare-lane paths (nested {@code if} blocks included). */
  private static String commonPath(String loop) {
    String common = loop;
    // Innermost blocks first: a block without a nested one, until none is left.
    String block = "(?s)if \\([A-Za-z0-9_]+\\.anyTrue\\(\\)\\) \\{[^{}]*?\\n\\s*}\\n";
    for (String before = null; !common.equals(before); ) {
      before = common;
      common = common.replaceAll(block, "");
    }
    return common.replaceAll("(?s)\\.anyTrue\\(\\)\\s*\\?.*?\\n\\s*:", ".anyTrue() ? :");
  }

  @Test
  void float32TanhTakesAtMost41Operations() throws Exception {
    // The double-word form it replaced took 60 (e^2|x| as a head and a tail, two-summed); the
    // clamp at 9.1 with a floating min, 50 counted as C2 writes it, and 2^q built and multiplied
    // (one more than adding q to the exponent field): 44; and 1 - 2w/(1 + w) with 1 - y's error
    // kept apart, three more than (1 - w)/(1 + w) with both parts as exact pairs.
    assertThat(operations(loop("tanhOp"))).isAtMost(41);
  }

  @Test
  void float32ExpTakesAtMost16Operations() throws Exception {
    // The head-and-tail reduction it replaced took 21; then 18, with 2^q built and multiplied
    // (one more than adding q to the exponent field) and the rare lanes found by a floating
    // comparison and its negation (one more than comparing |x|'s bits).
    assertThat(operations(loop("expOp"))).isAtMost(16);
  }

  @Test
  void float32LogTakesAtMost24OperationsAndNoDivision() throws Exception {
    // fdlibm's form it replaced took 30 and a division (s = f / (2 + f)), which costs about ten.
    String common = commonPath(loop("logOp"));
    assertThat(operations(loop("logOp"))).isAtMost(24);
    assertThat(common).doesNotContain(".div(");
  }

  @Test
  void float32SinTakesAtMost34Operations() throws Exception {
    // The two-sum reduction and both polynomials of degree 3 with their tails took 55; min(z, 1)
    // as a floating min, 39 counted as C2 writes it.
    assertThat(operations(loop("sinOp"))).isAtMost(34);
  }

  @Test
  void float32CosTakesAtMost35Operations() throws Exception {
    // As sin (54, then 40 with a floating min); cos adds one to the quadrant for its sign.
    assertThat(operations(loop("cosOp"))).isAtMost(35);
  }

  @Test
  void float32SigmoidIsOneCoreOfAtMost43OperationsAndOneDivision() throws Exception {
    // It was exp's core (18), a negation, an addition and a division: 2.3 ulp, and 0 where the
    // result is subnormal. The fused core carries e^-|x| and the quotient as exact pairs.
    String common = commonPath(loop("sigmoidOp"));
    assertThat(common).doesNotContain("expFast");
    assertThat(count(common, "\\.div\\(")).isEqualTo(1);
    // 44 with the rare lanes found by a floating comparison and its negation.
    assertThat(operations(loop("sigmoidOp"))).isAtMost(43);
  }

  @Test
  void float32CoresClampWithoutAFloatingMin() throws Exception {
    // tanh clamped |x| at 9.1, sin and cos min(z, 1) in their rare-lane test, with a floating min
    // (six instructions); the same clamps on the bits are one (issue 28, item 2).
    for (String op : List.of("expOp", "tanhOp", "logOp", "sinOp", "cosOp", "sigmoidOp")) {
      assertThat(floatingMinMax(commonPath(loop(op)))).isEqualTo(0);
    }
  }

  @Test
  void expRarePathNamesTheQuotientBitsOnce() throws Exception {
    // It wrote expMagic.reinterpretAsInts().sub(0x4b400000) three times (a review note).
    assertThat(count(loop("expOp"), Pattern.quote("reinterpretAsInts().sub(0x4b400000)")))
        .isEqualTo(1);
  }
}
