#!/usr/bin/env python3
"""Constants of dev.ufunc4j.math.SpecialMath's double-double reconstructions (mpmath, 40 digits).

Prints, as Java, each constant split in two doubles (hi the correctly rounded value, lo the
rounded rest) and the Taylor series of sin(pi r) / r and cos(pi r) in z = r^2 (highest degree
first, the leading coefficients as double-doubles): the series are cut where the next term is
below 2^-62 of the result for |r| <= 1/4.

    /work/venv-oracle/bin/python tools/special/dd_constants.py
"""
import mpmath as mp

mp.mp.dps = 40


def dd(v):
    hi = float(v)
    return hi, float(v - mp.mpf(hi))


def java(name, v):
    hi, lo = dd(v)
    print(f"  private static final double {name}_HI = {hi!r};")
    print(f"  private static final double {name}_LO = {lo!r};")


def series(name, first, count, term):
    # term(n): the coefficient of z^n; z^first .. z^(first + count - 1), highest first.
    print(f"  private static final double[] {name} = {{")
    for n in reversed(range(first, first + count)):
        print(f"      {float(term(n))!r},")
    print("  };")


pi = mp.pi
java("PI", pi)
java("PI_SQUARED", pi ** 2)  # trigamma's reflection
java("LOG_PI", mp.log(pi))  # lgamma's reflection
java("SINPI_C1", -pi ** 3 / 6)  # sin(pi r) / r = pi + C1 z + z^2 SINPI(z)
java("COSPI_C1", -pi ** 2 / 2)  # cos(pi r) = 1 + C1 z + z^2 COSPI(z)
series("SINPI", 2, 8, lambda n: (-1) ** n * pi ** (2 * n + 1) / mp.factorial(2 * n + 1))
series("COSPI", 2, 9, lambda n: (-1) ** n * pi ** (2 * n) / mp.factorial(2 * n))
