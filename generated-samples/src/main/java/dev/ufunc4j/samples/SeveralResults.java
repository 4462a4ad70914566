package dev.ufunc4j.samples;

import dev.ufunc4j.annotation.Elementwise;

/**
 * Ops with several results (docs/processor.md, "Several results"): each returns a record of
 * numbers, and one kernel computes the body once per element and writes one tensor per component.
 * The facade {@code SeveralResultsOps} returns the record's tensor twin ({@code
 * SeveralResultsOps.DivMod(Tensor quotient, Tensor remainder)}).
 */
public final class SeveralResults {

  private SeveralResults() {}

  /** A quotient and its remainder. */
  public record DivMod(long quotient, long remainder) {}

  /** The sine and cosine of one angle. */
  public record SinCos(double sin, double cos) {}

  /** A number split into its integral part, its fraction and its sign. */
  public record Parts(double whole, double fraction, boolean negative) {}

  /**
   * Java's {@code a / b} and {@code a % b} (truncating, the remainder with the dividend's sign):
   * an integer division by zero throws, as the integral single-result ops do.
   */
  @Elementwise
  public static DivMod divmod(long a, long b) {
    return new DivMod(a / b, a % b);
  }

  /** {@code Math.sin(x)} and {@code Math.cos(x)}. */
  @Elementwise
  public static SinCos sincos(double x) {
    return new SinCos(Math.sin(x), Math.cos(x));
  }

  /**
   * The integral part of {@code x} (towards zero), what is left, and whether {@code x} is
   * negative: the three components read one shared local.
   */
  @Elementwise
  public static Parts parts(double x) {
    final double whole = x < 0 ? Math.ceil(x) : Math.floor(x);
    return new Parts(whole, x - whole, x < 0);
  }
}
