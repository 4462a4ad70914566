package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Elementwise;

/**
 * An op that makes a reduction's tree visible, for {@link GeneratedTreeGradTest}: declared
 * associative though it is not, so a reduction folds it in the tree of docs/reductions.md, and
 * linear with power-of-two weights, so the gradient of each element is exactly {@code 0.5} to the
 * number of pairs it entered as the first operand times {@code 0.25} to the number it entered as
 * the second: its path through the tree.
 */
final class TreeProbe {
  private TreeProbe() {}

  /** Half of {@code a} plus a quarter of {@code b}. */
  @Elementwise(associative = true, dtypes = {"float32", "float64"})
  static double halfQuarter(double a, double b) {
    return 0.5 * a + 0.25 * b;
  }
}
