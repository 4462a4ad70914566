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
 * the goldens of {@code tools/oracle/gen_special.py}, is given on each method: within 1 ulp (0.55
 * at most) for every function, because each reconstruction carries double-doubles ({@code DD}:
 * e^x and log with a tail, sin(πx) and cos(πx), the recurrences' sums) and rounds once. The
 * polynomial coefficients come from {@code tools/special/fit.py}, the double-double constants
 * from {@code tools/special/dd_constants.py}.
 */
public final class SpecialMath {

  private SpecialMath() {}

  private static final double PI = Math.PI;
  /** log(sqrt(2 pi)). */
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
    DD c = erfcTail(ax);
    return Math.copySign(oneMinus(1, c), x);
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
   * cancellation: accurate down to its underflow near x = 27.2. Within 1 ulp (0.54 measured).
   *
   * @param x the argument
   * @return erfc(x)
   */
  public static double erfc(double x) {
    if (x >= 0.5) {
      DD c = erfcTail(x);
      return c.hi + c.lo;
    }
    if (x > -0.5) {
      // 1 - erf(x) with erf's head x 2/sqrt(pi) exact (a fused multiply-add's error) and its tail.
      double q = erfSmallTail(x);
      double h = x * TWO_OVER_SQRT_PI_HI;
      return oneMinus(1, new DD(h, Math.fma(x, TWO_OVER_SQRT_PI_HI, -h) + x * q));
    }
    return x == x ? oneMinus(2, erfcTail(-x)) : x;
  }

  /** 2/sqrt(pi) in two parts. */
  private static final double TWO_OVER_SQRT_PI_HI = 1.1283791670955126;
  private static final double TWO_OVER_SQRT_PI_LO = 1.533545961316588e-17;

  /**
   * erf(x) = x P(x^2) for |x| < 1/2, as x 2/sqrt(pi) + x (t Q(t)) with t = x^2 and P = 2/sqrt(pi)
   * + t Q: the constant term in two parts and one final fused rounding keep it within 1 ulp.
   */
  private static double erfSmall(double x) {
    return Math.fma(x, TWO_OVER_SQRT_PI_HI, x * erfSmallTail(x));
  }

  /** erf(x)/x - TWO_OVER_SQRT_PI_HI for |x| < 1/2: TWO_OVER_SQRT_PI_LO + t Q(t). */
  private static double erfSmallTail(double x) {
    double t = x * x;
    return Math.fma(t, horner(ERF_SMALL, t, ERF_SMALL.length - 1), TWO_OVER_SQRT_PI_LO);
  }

  /** {@code a - (c.hi + c.lo)} rounded once (an exact two-sum, then the low parts). */
  private static double oneMinus(double a, DD c) {
    double s = a - c.hi;
    return s + (twoSumError(a, -c.hi, s) - c.lo);
  }

  /**
   * erfc(x) for x >= 1/2 as a double-double: e^(-x^2) H(t) / x, with H(t) = x e^(x^2) erfc(x) in
   * t = (x - 2)/(x + 2) (it lies between 0.31 and 1/sqrt(pi)). Every part is a double-double:
   * x^2 split exactly, e^(-x^2) from {@link #expReduced}, t from the exact x - 2 and x + 2 and a
   * corrected division, H's four lowest Horner steps in double-double arithmetic with its
   * coefficients' low parts (the rest of H is at most 0.03 of it), the product and the quotient;
   * the result is scaled by 2^k last, so it rounds once where it is subnormal too.
   */
  private static DD erfcTail(double x) {
    if (x >= 27.3) {
      return new DD(0, 0); // below half the smallest subnormal
    }
    double sh = x * x;
    double sl = Math.fma(x, x, -sh);
    double k = Math.rint(-sh * INV_LN2);
    DD e = expReduced(k, -sh, -sl); // e^(-x^2) = 2^k e
    double ah = x - 2;
    double al = twoSumError(x, -2, ah);
    double bh = x + 2;
    double bl = twoSumError(x, 2, bh);
    double th = ah / bh;
    double tl = (Math.fma(-th, bh, ah) + (al - th * bl)) / bh;
    int n = ERFCX.length - ERFCX_LO.length;
    double hh = horner(ERFCX, th, n);
    double hl = 0; // doubles, not a DD, across the loop's iterations (no allocation)
    for (int i = n; i < ERFCX.length; i++) {
      DD h = mulAdd(th, tl, hh, hl, ERFCX[i], ERFCX_LO[i - n]);
      hh = h.hi;
      hl = h.lo;
    }
    double mh = e.hi * hh;
    double ml = Math.fma(e.hi, hh, -mh) + (e.hi * hl + e.lo * hh);
    DD q = divideDD(mh, ml, x, 0);
    int scale = (int) k;
    return new DD(Math.scalb(q.hi, scale), Math.scalb(q.lo, scale));
  }

  // ------------------------------------------------------------------------------ gamma family

  /**
   * The natural logarithm of the absolute value of the gamma function, {@code torch.lgamma}:
   * +infinity at the poles (0 and the negative integers) and at ±infinity. Within 1 ulp for {@code x > 0}
   * (0.54 measured, its zeros at 1 and 2 included); for {@code x < 0}, within 1 ulp of max(1, |lgamma|):
   * near the zeros on the negative axis (x ~ -2.457, -2.747, ...) the absolute error is about
   * 2^-60, a large relative one, as in fdlibm and glibc.
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
      DD sin = piTrig(x, false);
      DD xs = multiply(x, 0, sin.hi, sin.lo); // |x sin(πx)|, its sign dropped below
      if (xs.hi < 0) {
        xs = new DD(-xs.hi, -xs.lo);
      }
      DD log = logDD(xs.hi, xs.lo);
      DD total = sum(lgammaPositive(-x), log.hi, log.lo);
      return sum(new DD(LOG_PI_HI, LOG_PI_LO), -total.hi, -total.lo).hi;
    }
    DD l = lgammaPositive(x);
    return l.hi + l.lo;
  }

  /**
   * lgamma(x) for x > 0 as a double-double. Below 3 from lgamma(2 + f) = f P(f) (P's four lowest
   * Horner steps in double-double arithmetic, its low coefficients' parts included) and the
   * logarithms of the recurrence ({@link #logDD}), summed exactly: near the zeros at 1 and 2 the
   * terms cancel, so only the last rounding counts. 3 to 12 by the exact product of the x - k (a
   * double-double); Stirling's series from 12, its leading (x - 1/2)(log x - 1) a double-double.
   */
  private static DD lgammaPositive(double x) {
    if (x < 0.5) {
      // lgamma(x) = lgamma(x + 2) - log(x) - log(1 + x), with lgamma(2 + f) = f P(f).
      double yh = 1 + x;
      DD log1p = logDD(yh, twoSumError(1, x, yh));
      DD log = logDD(x, 0);
      DD t = sum(lgamma2(x), -log1p.hi, -log1p.lo);
      return sum(t, -log.hi, -log.lo);
    }
    if (x < 1.5) {
      DD log = logDD(x, 0); // log1p(f) with f = x - 1 exact
      return sum(lgamma2(x - 1), -log.hi, -log.lo);
    }
    if (x < 3) {
      return lgamma2(x - 2); // x - 2 exact
    }
    if (x < 12) {
      // lgamma(x) = lgamma(2 + f) + log((x - 1)(x - 2)...(2 + f)); every y is exact.
      double y = x;
      double ph = 1;
      double pl = 0;
      while (y >= 3) {
        y -= 1;
        DD product = multiply(ph, pl, y, 0);
        ph = product.hi;
        pl = product.lo;
      }
      DD log = logDD(ph, pl);
      return sum(lgamma2(y - 2), log.hi, log.lo);
    }
    if (x < 0x1p58) {
      // Stirling: (x - 1/2)(log x - 1) + log sqrt(2π) - 1/2 + Σ B2k / (2k (2k-1) x^(2k-1)).
      double r = 1 / x;
      double series = r * horner(STIRLING, r * r);
      DD log = logDD(x, 0);
      double lh = log.hi - 1; // exact (log x is in [2.48, 40.2], 1 a multiple of its ulp)
      DD lead = multiply(x - 0.5, 0, lh, log.lo); // x - 1/2 exact below 2^52
      return sum(lead, (HALF_LOG_TWO_PI - 0.5) + series, 0);
    }
    // x (log x - 1): the rest is below 2^-57 of it.
    DD log = logDD(x, 0);
    double lh = log.hi - 1; // exact
    double ph = x * lh;
    return Double.isInfinite(ph) ? new DD(ph, 0) : multiply(x, 0, lh, log.lo);
  }

  /** lgamma(2 + f) = f P(f) for f in [-1/2, 1] as a double-double (see lgammaPositive). */
  private static DD lgamma2(double f) {
    int n = LGAMMA2.length - LGAMMA2_LO.length;
    double ph = horner(LGAMMA2, f, n);
    double pl = 0;
    for (int i = n; i < LGAMMA2.length; i++) {
      DD p = mulAdd(f, 0, ph, pl, LGAMMA2[i], LGAMMA2_LO[i - n]);
      ph = p.hi;
      pl = p.lo;
    }
    return multiply(f, 0, ph, pl);
  }

  /**
   * The logarithmic derivative of the gamma function, {@code torch.special.digamma}: -infinity at
   * +0 (+infinity at -0), NaN at the negative integers and at -infinity, as PyTorch. Within 1 ulp
   * (0.51 measured) away from its zeros (near the one at 1.4616 and the negative ones, within 0.2
   * ulp of 1: an absolute error of about 2^-60).
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
    if (Math.abs(x) < 0x1p-1000) {
      return -1 / x; // ψ(x) = -1/x - γ + O(x): γ is below 2^-1000 of 1/x (and 1/x may overflow)
    }
    if (x < 0) {
      if (x == Math.rint(x)) {
        return Double.NaN; // a pole (and -infinity)
      }
      // Reflection: ψ(x) = ψ(1 - x) - π cot(πx), 1 - x exact as a double-double.
      double yh = 1 - x;
      DD cot = divideDD(piTrig(x, true), piTrig(x, false));
      DD pc = multiply(PI_HI, PI_LO, cot.hi, cot.lo);
      DD psi = digammaPositive(yh, twoSumError(1, -x, yh));
      return sum(psi, -pc.hi, -pc.lo).hi;
    }
    DD psi = digammaPositive(x, 0);
    return psi.hi + psi.lo;
  }

  /**
   * ψ(xh + xl) for x > 0 as a double-double: ψ(x) = ψ(x + 1) - 1/x until x >= 10, then the
   * asymptotic series log x - 1/(2x) - Σ B2k / (2k x^2k) (to k = 10: the first term left out is
   * below 2^-63 of log 10). x + 1 is kept exact (a double-double), each 1/x and log x are
   * double-doubles, and the terms are summed exactly: the sum cancels near the zero at 1.4616
   * (and for x below 1), so only its last rounding may count.
   */
  private static DD digammaPositive(double xh, double xl) {
    double sh = 0; // the shift, sh + sl
    double sl = 0;
    while (xh < 10) {
      DD q = divideDD(1, 0, xh, xl);
      DD shift = sum(new DD(sh, sl), -q.hi, -q.lo);
      sh = shift.hi;
      sl = shift.lo;
      double y = xh + 1;
      xl += twoSumError(xh, 1, y); // exact: both are multiples of x's last bit, below it
      xh = y;
    }
    DD log = logDD(xh, xl);
    DD half = divideDD(0.5, 0, xh, xl);
    double r2 = 1 / (xh * xh);
    DD total = sum(new DD(sh, sl), log.hi, log.lo);
    total = sum(total, -half.hi, -half.lo);
    return sum(total, -r2 * horner(DIGAMMA_SERIES, r2), 0);
  }

  /**
   * The derivative of digamma, {@code torch.special.polygamma(1, x)} (digamma's gradient in
   * kernels): +infinity at the poles (0 and the negative integers), NaN at -infinity. Within 1
   * ulp (0.50 measured).
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
    if (Math.abs(x) < 0x1p-500) {
      // 1/x^2 (overflowing from 2^-512 down), with 1/x as q + ql: the rest is below 2^-900 of it.
      double q = 1 / x;
      return Math.abs(x) < 0x1p-512 ? Double.POSITIVE_INFINITY
          : Math.fma(q, q, 2 * q * (Math.fma(-q, x, 1) / x));
    }
    if (x < 0) {
      // Reflection: ψ'(x) + ψ'(1 - x) = π^2 / sin^2(πx), 1 - x exact as a double-double.
      DD sin = piTrig(x, false);
      DD s2 = multiply(sin.hi, sin.lo, sin.hi, sin.lo);
      DD reflected = divideDD(new DD(PI_SQUARED_HI, PI_SQUARED_LO), s2);
      double yh = 1 - x;
      DD psi1 = trigammaPositive(yh, twoSumError(1, -x, yh));
      return sum(reflected, -psi1.hi, -psi1.lo).hi;
    }
    DD psi1 = trigammaPositive(x, 0);
    return psi1.hi + psi1.lo;
  }

  /**
   * ψ'(xh + xl) for x > 0 as a double-double: ψ'(x) = ψ'(x + 1) + 1/x^2 until x >= 10, then 1/x
   * + 1/(2x^2) + Σ B2k / x^(2k+1) (to k = 11: the first term left out is below 2^-62 of the
   * result), x + 1 exact, 1/x^2 and the leading terms as double-doubles, summed exactly.
   */
  private static DD trigammaPositive(double xh, double xl) {
    double sh = 0; // the shift, sh + sl
    double sl = 0;
    while (xh < 10) {
      DD x2 = multiply(xh, xl, xh, xl);
      DD q = divideDD(1, 0, x2.hi, x2.lo);
      DD shift = sum(new DD(sh, sl), q.hi, q.lo);
      sh = shift.hi;
      sl = shift.lo;
      double y = xh + 1;
      xl += twoSumError(xh, 1, y); // exact, as in digammaPositive
      xh = y;
    }
    DD r = divideDD(1, 0, xh, xl);
    DD r2 = multiply(r.hi, r.lo, r.hi, r.lo);
    DD total = sum(new DD(sh, sl), r.hi, r.lo);
    total = sum(total, 0.5 * r2.hi, 0.5 * r2.lo);
    return sum(total, r.hi * r2.hi * horner(TRIGAMMA_SERIES, r2.hi), 0);
  }

  // ------------------------------------------------------------------------------ logistic

  /**
   * The logistic sigmoid {@code 1 / (1 + e^-x)}, {@code torch.special.expit}, without overflow.
   * e^(-|x|) is a double-double ({@link #expDD}) and 1 + e^(-|x|) its exact sum, so the one
   * division, corrected by its exact residual, is the only rounding that counts: within 1 ulp.
   *
   * @param x the argument
   * @return expit(x)
   */
  public static double expit(double x) {
    if (!(x <= 40 && x >= -746)) { // and NaN
      // 1 - e^-x rounds to 1 from 40 on (e^-40 < 2^-57); e^x is below 2^-1076 under -746.
      return x > 0 ? 1 : x != x ? x : 0;
    }
    DD e = expDD(-Math.abs(x), 0);
    double sh = 1 + e.hi; // 1 + e exactly, as sh + sl (|1| >= e)
    double sl = (1 - sh) + e.hi + e.lo;
    // expit(x) = 1 / s for x >= 0, e / s below.
    double nh = x >= 0 ? 1 : e.hi;
    double nl = x >= 0 ? 0 : e.lo;
    return divide(nh, nl, sh, sl);
  }

  /**
   * The log-odds {@code log(p / (1 - p))}, {@code torch.special.logit} without {@code eps}: -inf
   * at 0, +inf at 1, NaN outside [0, 1]. The ratio is a double-double (1 - p by an exact sum) and
   * its logarithm too ({@link #logDD}), so the result rounds once and keeps its relative accuracy
   * near 1/2, where it is small: within 1 ulp.
   *
   * @param p the probability
   * @return logit(p)
   */
  public static double logit(double p) {
    if (!(p > 0 && p < 1)) { // 0, 1, NaN and outside: the limits, or NaN
      return StrictMath.log(p / (1 - p));
    }
    double dh = 1 - p; // 1 - p = dh + dl exactly (|1| > p)
    double dl = (1 - dh) - p;
    double qh = p / dh;
    double ql = (Math.fma(-qh, dh, p) - qh * dl) / dh;
    DD l = logDD(qh, ql);
    return l.hi + l.lo;
  }

  /**
   * {@code x log(y)}, 0 where x is 0 (even for a zero or infinite y), NaN where y is NaN: {@code
   * torch.special.xlogy}. log(y) is a double-double ({@link #logDD}) and the product exact before
   * its one rounding: within 1 ulp.
   *
   * @param x the factor
   * @param y the logarithm's argument
   * @return x log(y)
   */
  public static double xlogy(double x, double y) {
    if (y != y) {
      return y;
    }
    if (x == 0) {
      return 0;
    }
    if (!(y > 0 && y < Double.POSITIVE_INFINITY && Math.abs(x) < Double.POSITIVE_INFINITY)) {
      return x * StrictMath.log(y); // the limits (infinities, NaN)
    }
    DD l = logDD(y, 0);
    double ph = x * l.hi;
    if (ph == 0 || Double.isInfinite(ph)) {
      return ph; // y = 1 (x's sign, as PyTorch's x * 0), or an overflow
    }
    return ph + (Math.fma(x, l.hi, -ph) + x * l.lo);
  }

  /**
   * The normalized sinc function {@code sin(πx) / (πx)}, 1 at 0, {@code torch.special.sinc}. The
   * argument of the sine is reduced exactly (sin(πx) depends on x modulo 2), so large x keep their
   * accuracy (PyTorch's {@code sin(π * x)} rounds π x first); sin(πx) and πx are double-doubles
   * and their quotient rounds once: within 1 ulp.
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
    if (Double.isInfinite(px)) {
      return x - x; // NaN at ±infinity; 0 for finite |x| > 2^1021, an integer (sin(πx) = 0)
    }
    DD s = piTrig(x, false);
    if (s.hi == 0) {
      return s.hi / px; // an integer: ±0, the sign of sin(πx)/(πx)
    }
    return divide(s.hi, s.lo, px, Math.fma(PI, x, -px) + PI_LO * x);
  }

  // ------------------------------------------------------------------------------ helpers

  /**
   * A double-double: the value {@code hi + lo}, with |lo| about an ulp of hi at most. The
   * reconstructions of expit, logit, xlogy, sinc and erfc carry one where a single double's
   * rounding would cost their last ulp.
   */
  private record DD(double hi, double lo) {}

  /** 1/ln 2; ln 2 in two parts (fdlibm's: k LN2_HI is exact for |k| < 2^20). */
  private static final double INV_LN2 = 1.4426950408889634;
  private static final double LN2_HI = 6.93147180369123816490e-01;
  private static final double LN2_LO = 1.90821492927058770002e-10;

  /**
   * e^(a + b) as a double-double, for a <= 709 (b a tail below an ulp of a), relative error about
   * 2^-58: {@link #expReduced} scaled by 2^k. Where the result is subnormal, hi is rounded to it.
   */
  private static DD expDD(double a, double b) {
    double k = Math.rint(a * INV_LN2);
    DD e = expReduced(k, a, b);
    return new DD(Math.scalb(e.hi, (int) k), Math.scalb(e.lo, (int) k));
  }

  /**
   * e^(a + b - k ln 2) as a double-double, for |a + b - k ln 2| <= 0.35 (k = rint(a / ln 2)). The
   * argument r = rh + rl is exact to 2^-76 (a - k LN2_HI is exact by Sterbenz's lemma; the rest is
   * an exact sum), e^r = e^rh (1 + rl), and e^rh = 1 + rh + rh^2/2 + rh^3 S(rh) with the first
   * three terms exact (rh^2 by a fused multiply-add) and S the Taylor series to rh^15 (its
   * truncation is below 2^-62), so only the cubic tail, at most 0.007, rounds: about 2^-58 of the
   * result, and an absolute error of about rh^3 2^-53 near 0 (what {@link #logDD}'s correction
   * needs).
   */
  private static DD expReduced(double k, double a, double b) {
    double r1 = Math.fma(-k, LN2_HI, a); // exact
    double r2 = k * LN2_LO; // k LN2_LO is within 2^-75 of k (ln 2 - LN2_HI)
    double rh = r1 - r2;
    double rl = twoSumError(r1, -r2, rh) + b;
    double zh = rh * rh;
    double zl = Math.fma(rh, rh, -zh);
    double tail = rh * zh * horner(EXP_TAYLOR, rh);
    double s1 = 1 + rh; // |1| >= |rh|: fast two-sum
    double e1 = (1 - s1) + rh;
    double half = 0.5 * zh;
    double s2 = s1 + half; // s1 >= 0.7 > half
    double e2 = (s1 - s2) + half;
    double lo = e1 + e2 + (0.5 * zl + tail);
    double hi = s2 + lo;
    lo = (s2 - hi) + lo;
    // e^rh (1 + rl) (rl^2 is below 2^-100), renormalised: rl holds a's tail b, which may be
    // larger than an ulp of the result.
    lo = Math.fma(hi, rl, lo);
    double sum = hi + lo;
    return new DD(sum, (hi - sum) + lo);
  }

  /**
   * log(yh + yl) as a double-double, for yh positive and finite (yl below an ulp of yh): fdlibm's
   * L = log(yh) corrected by one Newton step, log(y) = L + log1p(d) with d = y e^-L - 1, which
   * is about an ulp of L, so log1p(d) = d - d^2/2 to 2^-150. e^-L comes from {@link
   * #expReduced}, and y 2^k scales exactly (it is about e^r, a normal number), so the absolute
   * error is about 2^-58 (2^-53 r^3 near y = 1, where log(y) = L + d keeps its relative
   * accuracy).
   */
  private static DD logDD(double yh, double yl) {
    double l = StrictMath.log(yh);
    double k = Math.rint(-l * INV_LN2);
    DD e = expReduced(k, -l, 0); // e^-L = 2^k e
    double ys = Math.scalb(yh, (int) k);
    double ysl = Math.scalb(yl, (int) k);
    double d = Math.fma(ys, e.hi, -1) + (ys * e.lo + ysl * e.hi);
    return new DD(l, Math.fma(-0.5 * d, d, d));
  }

  /**
   * (nh + nl) / (dh + dl) rounded once: q = nh / dh corrected by its exact residual {@code nh - q
   * dh} (a fused multiply-add) and the low parts, within 0.5 ulp plus about 2^-100 of the result.
   */
  private static double divide(double nh, double nl, double dh, double dl) {
    DD q = divideDD(nh, nl, dh, dl);
    return q.hi + q.lo;
  }

  /** (nh + nl) / (dh + dl) as a double-double: {@link #divide} before its last rounding. */
  private static DD divideDD(double nh, double nl, double dh, double dl) {
    double q = nh / dh;
    double r = Math.fma(-q, dh, nh) + (nl - q * dl);
    return new DD(q, r / dh);
  }

  /** (nh + nl) / (dh + dl) as a double-double, the parts given as double-doubles. */
  private static DD divideDD(DD n, DD d) {
    return divideDD(n.hi, n.lo, d.hi, d.lo);
  }

  /** (ah + al)(bh + bl) as a double-double (the product of the lows dropped). */
  private static DD multiply(double ah, double al, double bh, double bl) {
    double ph = ah * bh;
    double pl = Math.fma(ah, bh, -ph) + (ah * bl + al * bh);
    double hi = ph + pl;
    return new DD(hi, (ph - hi) + pl);
  }

  /** a + (bh + bl) as a double-double: an exact two-sum of the highs, then the lows. */
  private static DD sum(DD a, double bh, double bl) {
    double sh = a.hi + bh;
    double sl = twoSumError(a.hi, bh, sh) + (a.lo + bl);
    double hi = sh + sl;
    return new DD(hi, (sh - hi) + sl);
  }

  /** The rounding error of {@code s = a + b} (Knuth's two-sum: exact, for any order of a, b). */
  private static double twoSumError(double a, double b, double s) {
    double bb = s - a;
    return (a - (s - bb)) + (b - bb);
  }

  /** The Taylor series of (e^r - 1 - r - r^2/2) / r^3: 1/n! for n = 15 down to 3. */
  private static final double[] EXP_TAYLOR = {
      1.0 / 1307674368000L, 1.0 / 87178291200L, 1.0 / 6227020800L, 1.0 / 479001600,
      1.0 / 39916800, 1.0 / 3628800, 1.0 / 362880, 1.0 / 40320, 1.0 / 5040, 1.0 / 720,
      1.0 / 120, 1.0 / 24, 1.0 / 6,
  };

  // Constants from tools/special/dd_constants.py: double-doubles (HI + LO) and Taylor series in
  // z = r^2, highest degree first.
  private static final double PI_HI = 3.141592653589793;
  private static final double PI_LO = 1.2246467991473532e-16;
  private static final double PI_SQUARED_HI = 9.869604401089358;
  private static final double PI_SQUARED_LO = 6.265295508739711e-16;
  private static final double LOG_PI_HI = 1.1447298858494002;
  private static final double LOG_PI_LO = 1.0265951162707826e-17;
  private static final double SINPI_C1_HI = -5.16771278004997;
  private static final double SINPI_C1_LO = 2.2665622825789447e-16;
  private static final double COSPI_C1_HI = -4.934802200544679;
  private static final double COSPI_C1_LO = -3.1326477543698557e-16;
  private static final double[] SINPI = {
      -2.2948428997269873e-08,
      7.952054001475513e-07,
      -2.1915353447830217e-05,
      0.00046630280576761255,
      -0.0073704309457143504,
      0.08214588661112823,
      -0.5992645293207921,
      2.5501640398773455,
  };
  private static final double[] COSPI = {
      3.604730797462501e-09,
      -1.3878952462213771e-07,
      4.303069587032947e-06,
      -0.0001046381049248457,
      0.0019295743094039231,
      -0.02580689139001406,
      0.2353306303588932,
      -1.3352627688545895,
      4.0587121264167685,
  };

  /** sin(πx), reduced exactly: x modulo 2 and then to the nearest quarter. */
  static double sinpi(double x) {
    DD s = piTrig(x, false);
    return s.hi + s.lo;
  }

  /** cos(πx), reduced exactly. */
  static double cospi(double x) {
    DD c = piTrig(x, true);
    return c.hi + c.lo;
  }

  /**
   * sin(πx) or cos(πx) as a double-double: x modulo 2 and then to the nearest quarter turn, both
   * exact, leave r in [-1/4, 1/4], and {@link #sinPiReduced} or {@link #cosPiReduced} of r with
   * the quarter's sign.
   */
  private static DD piTrig(double x, boolean cosine) {
    if (Double.isInfinite(x)) {
      return new DD(Double.NaN, 0);
    }
    if (Math.abs(x) >= 0x1p52) {
      // An integer: sin(πx) = ±0; cos(πx) = ±1 by parity (every double from 2^53 on is even).
      boolean odd = Math.abs(x) < 0x1p53 && (((long) x) & 1) != 0;
      return new DD(cosine ? (odd ? -1 : 1) : Math.copySign(0.0, x), 0);
    }
    double t = x - 2 * Math.rint(0.5 * x); // x modulo 2, in [-1, 1]: exact
    double n = Math.rint(2 * t); // the nearest quarter turn, -2..2
    double r = t - 0.5 * n; // in [-1/4, 1/4]: exact
    int quarter = (((int) n) + (cosine ? 1 : 0)) & 3; // cos(πx) = sin(π(x + 1/2))
    DD v = (quarter & 1) == 0 ? sinPiReduced(r) : cosPiReduced(r);
    return quarter >= 2 ? new DD(-v.hi, -v.lo) : v;
  }

  /**
   * sin(πr) for |r| <= 1/4 as a double-double: r (π + C1 z + z^2 SINPI(z)), z = r^2 exact as
   * zh + zl, the series' tail (at most 0.4% of the result) in doubles and the two leading terms
   * in double-double arithmetic: about 2^-60 of the result.
   */
  private static DD sinPiReduced(double r) {
    double zh = r * r;
    double zl = Math.fma(r, r, -zh);
    DD p = mulAdd(zh, zl, horner(SINPI, zh), 0, SINPI_C1_HI, SINPI_C1_LO);
    p = mulAdd(zh, zl, p.hi, p.lo, PI_HI, PI_LO);
    double h = r * p.hi;
    return new DD(h, Math.fma(r, p.hi, -h) + r * p.lo);
  }

  /** cos(πr) for |r| <= 1/4 as a double-double: 1 + C1 z + z^2 COSPI(z), as {@link #sinPiReduced}. */
  private static DD cosPiReduced(double r) {
    double zh = r * r;
    double zl = Math.fma(r, r, -zh);
    DD p = mulAdd(zh, zl, horner(COSPI, zh), 0, COSPI_C1_HI, COSPI_C1_LO);
    return mulAdd(zh, zl, p.hi, p.lo, 1, 0);
  }

  /** (ah + al)(bh + bl) + (ch + cl) in double-double arithmetic (the products of lows dropped). */
  private static DD mulAdd(double ah, double al, double bh, double bl, double ch, double cl) {
    double ph = ah * bh;
    double pl = Math.fma(ah, bh, -ph) + (ah * bl + al * bh);
    double sh = ph + ch;
    double sl = twoSumError(ph, ch, sh) + (pl + cl);
    double hi = sh + sl;
    return new DD(hi, (sh - hi) + sl);
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

  /** The asymptotic series of digamma, in 1/x^2, highest degree first: B2k / (2k), k = 10..1. */
  private static final double[] DIGAMMA_SERIES = {
      -174611.0 / 6600, 43867.0 / 14364, -3617.0 / 8160, 1.0 / 12, -691.0 / 32760, 1.0 / 132, -1.0 / 240, 1.0 / 252, -1.0 / 120, 1.0 / 12,
  };

  /** The asymptotic series of trigamma after 1/x + 1/(2x^2), in 1/x^2, highest first: B2k. */
  private static final double[] TRIGAMMA_SERIES = {
      854513.0 / 138, -174611.0 / 330, 43867.0 / 798, -3617.0 / 510, 7.0 / 6, -691.0 / 2730, 5.0 / 66, -1.0 / 30, 1.0 / 42, -1.0 / 30, 1.0 / 6,
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
  private static final double[] ERFCX_LO = {
      5.423338213376426e-18,
      -1.1188038811601173e-17,
      -3.2939687190898557e-18,
      -8.552718366196946e-18,
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
  private static final double[] LGAMMA2_LO = {
      1.4629346421712378e-18,
      6.8766764767763375e-18,
      1.52033617636073e-17,
      4.942915152280524e-18,
  };
}
