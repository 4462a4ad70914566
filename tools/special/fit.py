#!/usr/bin/env python3
"""Polynomial coefficients for dev.ufunc4j.math.SpecialMath (Chebyshev fits in mpmath).

Each fit approximates g on [a, b] by a polynomial in t (monomial coefficients, highest degree
first, as Horner's rule evaluates them) and prints it as a Java array, with the fit's largest
relative error measured at 2,000 points after rounding the coefficients to double.

    /work/venv-oracle/bin/python tools/special/fit.py

Fits:
  ERFCX     x e^(x^2) erfc(x) in t = (x - 2) / (x + 2), x in [0.5, 27.3] (the scaled tail of erfc;
            the factor x keeps it between 0.31 and 1/sqrt(pi), so its relative error stays small)
  ERF_SMALL erf(x) / x in t = x^2, |x| <= 0.5
  LGAMMA2   lgamma(2 + f) / f in f, f in [-0.5, 1] (lgamma near its zeros at 1 and 2)

ERFCX_LO, LGAMMA2_LO: the rounding errors of the four lowest coefficients (erfc and lgamma evaluate
those steps in double-double arithmetic, so the polynomials keep the fits' 2^-61 and 2^-89
instead of a double's 2^-53).
"""
import random
import mpmath as mp

mp.mp.dps = 40


def erfcx(x):
    return mp.exp(x * x) * mp.erfc(x)


def g_erfcx(t):
    x = 2 * (1 + t) / (1 - t)
    return x * erfcx(x)


def g_erf_small(t):
    if t == 0:
        return 2 / mp.sqrt(mp.pi)
    x = mp.sqrt(t)
    return mp.erf(x) / x


def g_lgamma2(f):
    if f == 0:
        return 1 - mp.euler  # digamma(2)
    return mp.loggamma(2 + f) / f


FITS = [
    ("ERFCX", g_erfcx, (mp.mpf(0.5) - 2) / (mp.mpf(0.5) + 2), (mp.mpf(27.3) - 2) / (mp.mpf(27.3) + 2), 26),
    ("ERF_SMALL", g_erf_small, mp.mpf(0), mp.mpf(0.25), 12),
    ("LGAMMA2", g_lgamma2, mp.mpf(-0.5), mp.mpf(1), 34),
]
# How many of a fit's lowest coefficients also get their low parts printed (NAME_LO).
DOUBLE_DOUBLE = {"ERFCX": 4, "LGAMMA2": 4}


def horner(cs, t):
    p = 0.0
    for c in cs:
        p = p * t + c
    return p


def main():
    rnd = random.Random(1)
    for name, g, a, b, n in FITS:
        poly, _ = mp.chebyfit(g, [a, b], n, error=True)
        cs = [float(c) for c in poly]
        worst = 0.0
        for _ in range(2000):
            t = float(a + (b - a) * rnd.random())
            exact = g(mp.mpf(t))
            worst = max(worst, float(abs((horner(cs, t) - exact) / exact)))
        print(f"  // {name}: degree {n - 1} on [{float(a)!r}, {float(b)!r}], "
              f"max relative error {worst:.3g} in double")
        print(f"  private static final double[] {name} = {{")
        print("\n".join("      " + repr(c) + "," for c in cs))
        print("  };")
        lows = DOUBLE_DOUBLE.get(name, 0)
        if lows:
            print(f"  private static final double[] {name}_LO = {{")
            print("\n".join("      " + repr(float(c - mp.mpf(float(c)))) + ","
                             for c in poly[-lows:]))
            print("  };")


if __name__ == "__main__":
    main()
