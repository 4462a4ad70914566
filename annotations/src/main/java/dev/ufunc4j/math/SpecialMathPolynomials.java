package dev.ufunc4j.math;

/**
 * The polynomial coefficients of {@link SpecialMath}'s vectorised forms, shared with the annotation
 * processor: a kernel evaluates the same polynomials with the same operations in the same order as
 * the Java method, so both give the same bits (docs/vector-math.md, "Special functions"). Not
 * meant for other use; each method returns a fresh copy, highest degree first (Horner's order).
 */
public final class SpecialMathPolynomials {

  private SpecialMathPolynomials() {}

  /** {@code erf(float)}: below this |x|, {@code fma(x, R(x^2), x)}; from it on, NEAR or FAR. */
  public static final float ERF_F_SMALL_BELOW = 0.875f;
  /** {@code erf(float)}: from this |x| on, FAR in {@code min(|x|, ERF_F_CLAMP) - ERF_F_FAR_CENTRE}. */
  public static final float ERF_F_FAR_FROM = 2.25f;
  /** {@code erf(float)}: NEAR's variable is {@code |x| - ERF_F_NEAR_CENTRE}. */
  public static final float ERF_F_NEAR_CENTRE = 1.5f;
  /** {@code erf(float)}: FAR's centre. */
  public static final float ERF_F_FAR_CENTRE = 3.125f;
  /** {@code erf(float)}: |x| is clamped here (erf rounds to 1 from 3.92 on). */
  public static final float ERF_F_CLAMP = 4f;

  /**
   * The small-argument polynomial (tools/special/fit_float.py).
   *
   * @return {@code erf(x)/x - 1} in {@code t = x^2}, for {@code |x| < 0.875}
   */
  public static float[] erfFloatSmall() {
    return ERF_F_SMALL.clone();
  }

  /**
   * The middle polynomial.
   *
   * @return {@code erf(x)} in {@code u = |x| - 1.5}, for {@code 0.875 <= |x| < 2.25}
   */
  public static float[] erfFloatNear() {
    return ERF_F_NEAR.clone();
  }

  /**
   * The large-argument polynomial.
   *
   * @return {@code erf(x)} in {@code u = min(|x|, 4) - 3.125}, for {@code |x| >= 2.25}
   */
  public static float[] erfFloatFar() {
    return ERF_F_FAR.clone();
  }

  // From tools/special/fit_float.py, highest degree first (rounded to float32 lowest degree first).
  static final float[] ERF_F_SMALL = {
      8.433708717348054e-05f,
      -0.0008152223308570683f,
      0.005201275926083326f,
      -0.026859179139137268f,
      0.11283683031797409f,
      -0.37612631916999817f,
      0.12837916612625122f,
  };
  static final float[] ERF_F_NEAR = {
      -2.9601033020298928e-05f,
      -0.00015532088582403958f,
      0.0014862073585391045f,
      -0.002239769557490945f,
      -0.004659631755203009f,
      0.01926991529762745f,
      -0.014879925176501274f,
      -0.044588323682546616f,
      0.13875290751457214f,
      -0.17839622497558594f,
      0.11893027275800705f,
      0.9661051630973816f,
  };
  static final float[] ERF_F_FAR = {
      -6.939178547327174e-06f,
      8.550582606403623e-06f,
      2.585787296993658e-05f,
      -0.00011394984903745353f,
      0.0002663259219843894f,
      -0.00045199968735687435f,
      0.000576991937123239f,
      -0.0005573970265686512f,
      0.0004000171320512891f,
      -0.0002024177520070225f,
      6.475875125033781e-05f,
      0.9999901056289673f,
  };
}
