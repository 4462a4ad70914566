package dev.ufunc4j.math;

/**
 * Special functions for any Java code, which {@code @Elementwise} bodies may also call: {@code
 * erf}, {@code erfc}, {@code lgamma}, {@code digamma}, {@code expit}, {@code logit}, {@code xlogy},
 * {@code sinc} and the integer power {@code ipow} (PyTorch's {@code torch.special} names and
 * values at the special points).
 *
 * <p>The class lives in the annotations jar so that user code, the annotation processor and the
 * runtime all reach it: the processor recognises a call {@code SpecialMath.erf(x)} in a body, and
 * the kernel computes the same bits as this method, in every JIT tier and on every machine
 * (docs/vector-math.md, "Special functions"). For that, the floating functions use only IEEE 754's
 * exactly rounded operations and {@link StrictMath} (fdlibm, the same bits everywhere), never
 * {@link Math}'s intrinsics, whose bits may differ between machines.
 *
 * <p>Accuracy against correctly rounded values (mpmath), measured by {@code SpecialMathTest} over
 * the goldens of {@code tools/oracle/gen_special.py}, is given on each method. The polynomial
 * coefficients come from {@code tools/special/fit.py}.
 */
public final class SpecialMath {

  private SpecialMath() {}

  private static final double PI = Math.PI;
  /** log(pi), log(sqrt(2 pi)). */
  private static final double LOG_PI = 1.1447298858494002;
  private static final double HALF_LOG_TWO_PI = 0.9189385332046728;

  // ------------------------------------------------------------------------------ integer power

  /**
   * {@code a} to the power {@code b} with {@code long} wraparound, by repeated squaring (PyTorch's
   * integer {@code pow}). A negative exponent gives what PyTorch gives for a tensor exponent: 1 for
   * a base of 1, +-1 for -1 (by the exponent's parity), else 0.
   *
   * @param a the base
   * @param b the exponent
   * @return {@code a^b} modulo 2^64, as a signed {@code long}
   */
  public static long ipow(long a, long b) {
    if (b < 0) {
      return a == 1 ? 1 : a == -1 ? ((b & 1) != 0 ? -1 : 1) : 0;
    }
    long result = 1;
    long power = a;
    for (long e = b; e != 0; e >>>= 1) {
      if ((e & 1) != 0) {
        result *= power;
      }
      power *= power;
    }
    return result;
  }

  // ------------------------------------------------------------------------------ erf, erfc

  /**
   * The error function, {@code torch.special.erf}: odd, ±1 at ±infinity. Within 1 ulp.
   *
   * @param x the argument
   * @return erf(x)
   */
  public static double erf(double x) {
    double ax = Math.abs(x);
    if (!(ax >= 0.5)) { // and NaN
      return erfSmall(x);
    }
    return Math.copySign(1 - erfcTail(ax), x);
  }

  /**
   * The error function of a float32, computed in float32 (the form a float32 kernel computes,
   * vectorised, with these bits): {@code fma(x, R(x^2), x)} below |x| = 0.875, then a polynomial
   * in |x| - 1.5 up to 2.25 and one in min(|x|, 4) - 3.125 beyond, each of degree 11 and the sign of
   * x (no exponential: erf rounds to ±1 from |x| = 3.92 on). Within 0.81 ulp of the exact value
   * over every float32 (docs/vector-math.md). {@code (float) erf((double) x)} is correctly rounded
   * more often and about 40 times slower in a kernel; a float argument picks this overload, as
   * {@code Math.abs} does.
   *
   * @param x the argument
   * @return erf(x), a float32
   */
  public static float erf(float x) {
    float ax = Math.abs(x);
    if (!(ax >= SpecialMathPolynomials.ERF_F_SMALL_BELOW)) { // and NaN
      return Math.fma(x, horner(SpecialMathPolynomials.ERF_F_SMALL, x * x), x);
    }
    boolean far = ax >= SpecialMathPolynomials.ERF_F_FAR_FROM;
    float u = Math.min(ax, SpecialMathPolynomials.ERF_F_CLAMP)
        - (far ? SpecialMathPolynomials.ERF_F_FAR_CENTRE : SpecialMathPolynomials.ERF_F_NEAR_CENTRE);
    float p = horner(far ? SpecialMathPolynomials.ERF_F_FAR : SpecialMathPolynomials.ERF_F_NEAR, u);
    return Math.copySign(p, x);
  }

  /**
   * The complementary error function {@code 1 - erf(x)}, {@code torch.special.erfc}, without the
   * cancellation: accurate down to its underflow near x = 27.2. Within 1 ulp (2 in the subnormal
   * range of the result).
   *
   * @param x the argument
   * @return erfc(x)
   */
  public static double erfc(double x) {
    if (x >= 0.5) {
      return erfcTail(x);
    }
    if (x > -0.5) {
      return 1 - erfSmall(x);
    }
    return x == x ? 2 - erfcTail(-x) : x;
  }

  /** 2/sqrt(pi) in two parts. */
  private static final double TWO_OVER_SQRT_PI_HI = 1.1283791670955126;
  private static final double TWO_OVER_SQRT_PI_LO = 1.533545961316588e-17;

  /**
   * erf(x) = x P(x^2) for |x| < 1/2, as x 2/sqrt(pi) + x (t Q(t)) with t = x^2 and P = 2/sqrt(pi)
   * + t Q: the constant term in two parts and one final fused rounding keep it within 1 ulp.
   */
  private static double erfSmall(double x) {
    double t = x * x;
    double q = Math.fma(t, horner(ERF_SMALL, t, ERF_SMALL.length - 1), TWO_OVER_SQRT_PI_LO);
    return Math.fma(x, TWO_OVER_SQRT_PI_HI, x * q);
  }

  /**
   * erfc(x) for x >= 1/2: e^(-x^2) H(t) / x, with H(t) = x e^(x^2) erfc(x) in t = (x - 2)/(x + 2)
   * (it lies between 0.31 and 1/sqrt(pi), so its relative error stays small) and x^2 = hi + lo
   * split exactly, e^(-hi-lo) = e^(-hi) (1 - lo).
   */
  private static double erfcTail(double x) {
    if (x >= 27.3) {
      return 0; // below half the smallest subnormal
    }
    double hi = x * x;
    double lo = Math.fma(x, x, -hi);
    double e = StrictMath.exp(-hi);
    double scale = Math.fma(-e, lo, e);
    return scale * horner(ERFCX, (x - 2) / (x + 2)) / x;
  }

  // ------------------------------------------------------------------------------ gamma family

  /**
   * The natural logarithm of the absolute value of the gamma function, {@code torch.lgamma}:
   * +infinity at the poles (0 and the negative integers) and at ±infinity. Within 1 ulp for
   * {@code x >= 1.5} and {@code x < 0.5} away from the negative zeros; within 3 ulps near the zero
   * at 1 (the difference of two terms); near the zeros on the negative axis (x ~ -2.457, -2.747, ...) the
   * absolute error is about 2^-52, as in fdlibm and glibc.
   *
   * @param x the argument
   * @return log|Γ(x)|
   */
  public static double lgamma(double x) {
    if (x != x) {
      return x;
    }
    if (Double.isInfinite(x)) {
      return Double.POSITIVE_INFINITY;
    }
    if (x <= 0 && x == Math.rint(x)) {
      return Double.POSITIVE_INFINITY; // a pole
    }
    if (Math.abs(x) < 0x1p-60) {
      return -StrictMath.log(Math.abs(x)); // Γ(x) = 1/x - γ + ...: the rest is below an ulp
    }
    if (x < 0) {
      // Γ(x) Γ(-x) = -π / (x sin(πx)): lgamma(x) = log(π / |x sin(πx)|) - lgamma(-x).
      return LOG_PI - StrictMath.log(Math.abs(x * sinpi(x))) - lgammaPositive(-x);
    }
    return lgammaPositive(x);
  }

  private static double lgammaPositive(double x) {
    if (x < 0.5) {
      // lgamma(x) = lgamma(x + 2) - log(x) - log(1 + x), with lgamma(2 + f) = f P(f).
      return (x * horner(LGAMMA2, x) - StrictMath.log1p(x)) - StrictMath.log(x);
    }
    if (x < 1.5) {
      double f = x - 1; // exact
      return f * horner(LGAMMA2, f) - StrictMath.log1p(f);
    }
    if (x < 3) {
      double f = x - 2; // exact
      return f * horner(LGAMMA2, f);
    }
    if (x < 12) {
      // lgamma(x) = lgamma(2 + f) + log((x - 1)(x - 2)...(2 + f)); every y is exact.
      double y = x;
      double product = 1;
      while (y >= 3) {
        y -= 1;
        product *= y;
      }
      double f = y - 2;
      return f * horner(LGAMMA2, f) + StrictMath.log(product);
    }
    if (x < 0x1p58) {
      // Stirling: (x - 1/2)(log x - 1) + log sqrt(2π) - 1/2 + Σ B2k / (2k (2k-1) x^(2k-1)).
      double r = 1 / x;
      double series = r * horner(STIRLING, r * r);
      return (x - 0.5) * (StrictMath.log(x) - 1) + ((HALF_LOG_TWO_PI - 0.5) + series);
    }
    return x * (StrictMath.log(x) - 1);
  }

  /**
   * The logarithmic derivative of the gamma function, {@code torch.special.digamma}: -infinity at
   * +0 (+infinity at -0), NaN at the negative integers and at -infinity, as PyTorch. Within 2 ulps
   * away from its zero near 1.4616 (where the absolute error is about 2^-53).
   *
   * @param x the argument
   * @return ψ(x)
   */
  public static double digamma(double x) {
    if (x != x || x == Double.POSITIVE_INFINITY) {
      return x;
    }
    if (x == 0) {
      return Math.copySign(Double.POSITIVE_INFINITY, -x);
    }
    if (x < 0) {
      if (x == Math.rint(x)) {
        return Double.NaN; // a pole (and -infinity)
      }
      // Reflection: ψ(x) = ψ(1 - x) - π cot(πx).
      return digammaPositive(1 - x) - PI * cospi(x) / sinpi(x);
    }
    return digammaPositive(x);
  }

  private static double digammaPositive(double x) {
    // ψ(x) = ψ(x + 1) - 1/x until x >= 10, then the asymptotic series
    // log x - 1/(2x) - Σ B2k / (2k x^2k).
    double shift = 0;
    while (x < 10) {
      shift -= 1 / x;
      x += 1;
    }
    double r2 = 1 / (x * x);
    return StrictMath.log(x) - 0.5 / x - r2 * horner(DIGAMMA_SERIES, r2) + shift;
  }

  /**
   * The derivative of digamma, {@code torch.special.polygamma(1, x)} (digamma's gradient in
   * kernels): +infinity at the poles (0 and the negative integers), NaN at -infinity. Within 2
   * ulps for x > 0.
   *
   * @param x the argument
   * @return ψ'(x)
   */
  public static double trigamma(double x) {
    if (x != x || x == Double.POSITIVE_INFINITY) {
      return x != x ? x : 0;
    }
    if (x <= 0 && x == Math.rint(x)) {
      return x == Double.NEGATIVE_INFINITY ? Double.NaN : Double.POSITIVE_INFINITY;
    }
    if (x < 0) {
      // Reflection: ψ'(x) + ψ'(1 - x) = π^2 / sin^2(πx).
      double s = sinpi(x);
      return PI * PI / (s * s) - trigammaPositive(1 - x);
    }
    return trigammaPositive(x);
  }

  private static double trigammaPositive(double x) {
    // ψ'(x) = ψ'(x + 1) + 1/x^2 until x >= 10, then 1/x + 1/(2x^2) + Σ B2k / x^(2k+1).
    double shift = 0;
    while (x < 10) {
      shift += 1 / (x * x);
      x += 1;
    }
    double r = 1 / x;
    double r2 = r * r;
    return (r + 0.5 * r2 + r * r2 * horner(TRIGAMMA_SERIES, r2)) + shift;
  }

  // ------------------------------------------------------------------------------ logistic

  /**
   * The logistic sigmoid {@code 1 / (1 + e^-x)}, {@code torch.special.expit}, without overflow.
   * Within 2 ulps.
   *
   * @param x the argument
   * @return expit(x)
   */
  public static double expit(double x) {
    if (x >= 0) {
      return 1 / (1 + StrictMath.exp(-x));
    }
    double e = StrictMath.exp(x);
    return e / (1 + e);
  }

  /**
   * The log-odds {@code log(p / (1 - p))}, {@code torch.special.logit} without {@code eps}: -inf
   * at 0, +inf at 1, NaN outside [0, 1]. Near 1/2, through {@code log1p((2p - 1) / (1 - p))} (2p -
   * 1 is exact there), so the result keeps its relative accuracy at small values. Within 2 ulps.
   *
   * @param p the probability
   * @return logit(p)
   */
  public static double logit(double p) {
    if (p >= 0.25 && p <= 0.75) {
      return StrictMath.log1p((2 * p - 1) / (1 - p));
    }
    return StrictMath.log(p / (1 - p));
  }

  /**
   * {@code x log(y)}, 0 where x is 0 (even for a zero or infinite y), NaN where y is NaN: {@code
   * torch.special.xlogy}. Within 1 ulp plus the rounding of the product.
   *
   * @param x the factor
   * @param y the logarithm's argument
   * @return x log(y)
   */
  public static double xlogy(double x, double y) {
    if (y != y) {
      return y;
    }
    return x == 0 ? 0 : x * StrictMath.log(y);
  }

  /**
   * The normalized sinc function {@code sin(πx) / (πx)}, 1 at 0, {@code torch.special.sinc}. The
   * argument of the sine is reduced exactly (sin(πx) depends on x modulo 2), so large x keep their
   * accuracy (PyTorch's {@code sin(π * x)} rounds π x first). Within 2 ulps.
   *
   * @param x the argument
   * @return sinc(x)
   */
  public static double sinc(double x) {
    if (x == 0) {
      return 1;
    }
    double px = PI * x;
    if (Math.abs(x) < 0x1p-20) {
      return 1 - px * px / 6; // sin(y)/y = 1 - y^2/6 + y^4/120: the next term is below 2^-80
    }
    return sinpi(x) / px;
  }

  // ------------------------------------------------------------------------------ helpers

  /** sin(πx), reduced exactly: x modulo 2 and then to the nearest quarter. */
  static double sinpi(double x) {
    return piTrig(x, false);
  }

  /** cos(πx), reduced exactly. */
  static double cospi(double x) {
    return piTrig(x, true);
  }

  private static double piTrig(double x, boolean cosine) {
    if (Double.isInfinite(x)) {
      return Double.NaN;
    }
    if (Math.abs(x) >= 0x1p52) {
      // An integer: sin(πx) = ±0; cos(πx) = ±1 by parity (every double from 2^53 on is even).
      boolean odd = Math.abs(x) < 0x1p53 && (((long) x) & 1) != 0;
      return cosine ? (odd ? -1 : 1) : Math.copySign(0.0, x);
    }
    double t = x - 2 * Math.rint(0.5 * x); // x modulo 2, in [-1, 1]: exact
    double n = Math.rint(2 * t); // the nearest quarter turn, -2..2
    double r = t - 0.5 * n; // in [-1/4, 1/4]: exact
    double s = StrictMath.sin(PI * r);
    double c = StrictMath.cos(PI * r);
    int quarter = ((int) n) & 3; // 0, 1, 2, 3 (-1 is 3, -2 is 2)
    if (cosine) {
      return switch (quarter) {
        case 0 -> c;
        case 1 -> -s;
        case 2 -> -c;
        default -> s;
      };
    }
    return switch (quarter) {
      case 0 -> s;
      case 1 -> c;
      case 2 -> -s;
      default -> -c;
    };
  }

  /** c[0] t^n + ... + c[n] by Horner's rule with fused multiply-adds. */
  private static double horner(double[] c, double t) {
    return horner(c, t, c.length);
  }

  /** The first {@code n} coefficients of {@code c} only (without its lowest terms). */
  private static double horner(double[] c, double t, int n) {
    double p = c[0];
    for (int i = 1; i < n; i++) {
      p = Math.fma(p, t, c[i]);
    }
    return p;
  }

  /** c[0] t^n + ... + c[n] in float32, by Horner's rule with fused multiply-adds. */
  private static float horner(float[] c, float t) {
    float p = c[0];
    for (int i = 1; i < c.length; i++) {
      p = Math.fma(p, t, c[i]);
    }
    return p;
  }

  /** Stirling's series for lgamma, in 1/x^2, highest degree first: B2k / (2k (2k - 1)). */
  private static final double[] STIRLING = {
      1.0 / 156, -691.0 / 360360, 1.0 / 1188, -1.0 / 1680, 1.0 / 1260, -1.0 / 360, 1.0 / 12,
  };

  /** The asymptotic series of digamma, in 1/x^2, highest degree first: B2k / (2k). */
  private static final double[] DIGAMMA_SERIES = {
      1.0 / 12, -691.0 / 32760, 1.0 / 132, -1.0 / 240, 1.0 / 252, -1.0 / 120, 1.0 / 12,
  };

  /** The asymptotic series of trigamma after 1/x + 1/(2x^2), in 1/x^2, highest first: B2k. */
  private static final double[] TRIGAMMA_SERIES = {
      7.0 / 6, -691.0 / 2730, 5.0 / 66, -1.0 / 30, 1.0 / 42, -1.0 / 30, 1.0 / 6,
  };

  // Polynomial coefficients from tools/special/fit.py, highest degree first.
  private static final double[] ERFCX = {
      1.521606049368399e-08,
      -6.03611600888363e-08,
      3.087152308824299e-09,
      1.7654983590007276e-07,
      3.20015029312114e-08,
      -2.4527056538025613e-07,
      -4.0610186111137895e-07,
      -2.4336286954157773e-07,
      9.728693450839434e-07,
      2.809300507157586e-06,
      1.2707512153032432e-06,
      -8.620096608111856e-06,
      -1.8911507793269566e-05,
      6.225798288238149e-06,
      8.93103009139982e-05,
      8.94211600509894e-05,
      -0.0003143510838253303,
      -0.0007501847895517945,
      0.0011266580014131764,
      0.004784898563735947,
      -0.007515738410979112,
      -0.028976446698188538,
      0.12151493052458959,
      -0.20384429592887787,
      0.1672110104141062,
      0.5107913526210115,
  };
  private static final double[] ERF_SMALL = {
      -1.0958654538847351e-09,
      1.4721521176389801e-08,
      -1.636264690374604e-07,
      1.6462038363970583e-06,
      -1.4925649162903559e-05,
      0.00012055332969230665,
      -0.0008548327023363943,
      0.005223977625441806,
      -0.026866170645131242,
      0.11283791670955126,
      -0.37612638903183754,
      1.1283791670955126,
  };
  private static final double[] LGAMMA2 = {
      8.876581046797233e-14,
      -9.377560539524374e-13,
      4.624220093679229e-12,
      -1.4455486932963034e-11,
      3.372200836417238e-11,
      -6.791586756905105e-11,
      1.3411327901826304e-10,
      -2.740014972343066e-10,
      5.711690666266431e-10,
      -1.1921079018861843e-09,
      2.484582079875631e-09,
      -5.1838585628752076e-09,
      1.083847706660754e-08,
      -2.271092363813537e-08,
      4.769810471609523e-08,
      -1.0043228764038206e-07,
      2.1207185510708672e-07,
      -4.492469143960444e-07,
      9.55141211232925e-07,
      -2.0392157542627095e-06,
      4.374866790146743e-06,
      -9.439488275247914e-06,
      2.0507212775651226e-05,
      -4.492623673813325e-05,
      9.945751278180953e-05,
      -0.0002231547584535794,
      0.0005096695247430423,
      -0.001192753911703261,
      0.0028905103307415234,
      -0.007385551028673986,
      0.020580808427784546,
      -0.0673523010531981,
      0.3224670334241132,
      0.42278433509846713,
  };
}
