#!/usr/bin/env python3
"""Float32 polynomial coefficients for SpecialMath.erf(float) (and its kernel twin).

erf(x) for float32 x, in float32 fused multiply-adds (no exp: every region is a polynomial):

  |x| < 0.875   erf(x) = fma(x, R(x^2), x), R(t) = erf(x)/x - 1 (degree 6 in t)
  0.875..2.25   erf(x) = NEAR(u), u = |x| - 1.5   (degree 11, constant term ~erf(1.5))
  2.25..4       erf(x) = FAR(u),  u = min(|x|, 4) - 3.125 (degree 11; from 3.92 on it rounds to 1)

Fitted by least squares at 3,000 Chebyshev points of each interval (mpmath values), with the
coefficients rounded to float32 one at a time from the lowest degree up and the rest refitted to
what the rounded ones leave: the rounding of the large low-degree coefficients (R's 0.128...,
NEAR's 0.966...) costs no accuracy, which a fit rounded afterwards loses (up to 1.04 ulp).
SpecialMathTest.erfFloatWithin1UlpOfEveryFloat measures the result over every float32 of the
polynomial regions: 0.81 ulp.

    /work/venv-oracle/bin/python tools/special/fit_float.py
"""
import mpmath as mp
import numpy as np

mp.mp.dps = 30
f32 = np.float32


def seqfit(g, a, b, deg, var, npts=3000):
    """Monomial coefficients in var(x), highest degree first, each a float32."""
    k = np.arange(npts)
    xs = (a + b) / 2 + (b - a) / 2 * np.cos(np.pi * (k + 0.5) / npts)
    y = np.array([float(g(mp.mpf(float(x)))) for x in xs])
    v = var(xs)
    coef = []
    res = y.copy()
    for j in range(deg + 1):
        cols = np.stack([v ** i for i in range(j, deg + 1)], 1)
        scale = np.abs(cols).max(0)
        sol = np.linalg.lstsq(cols / scale, res, rcond=None)[0] / scale
        c = f32(sol[0])
        coef.append(c)
        res = res - float(c) * v ** j
    return coef[::-1]


def r_small(x):
    return mp.erf(x) / x - 1 if x != 0 else 2 / mp.sqrt(mp.pi) - 1


FITS = [
    ("ERF_F_SMALL", r_small, 1e-6, 0.875, 6, lambda x: x * x),
    ("ERF_F_NEAR", mp.erf, 0.875, 2.25, 11, lambda x: x - 1.5),
    ("ERF_F_FAR", mp.erf, 2.25, 4.0, 11, lambda x: x - 3.125),
]

if __name__ == "__main__":
    for name, g, a, b, deg, var in FITS:
        c = seqfit(g, a, b, deg, var)
        print("  static final float[] %s = {" % name)
        for v in c:
            print("      %sf," % repr(float(v)) if float(f32(repr(float(v)))) == float(v)
                  else "      %sf," % np.format_float_positional(v, unique=True))
        print("  };")
