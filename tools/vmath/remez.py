#!/usr/bin/env python3
"""Minimax polynomial coefficients for dev.ufunc4j.kernel.VectorMath, by the Remez exchange.

Each fit approximates g(t) by c0 + c1 t + ... + cn t^n on [a, b], minimising the largest
weighted error |w(t) (g(t) - p(t))|, where g and w are chosen so that the weighted error is the
relative error of the function VectorMath evaluates (see FITS). Arithmetic is mpmath at 80
digits. The coefficients are printed as Java literals, rounded to double or float.

    python3 tools/vmath/remez.py            # every fit
    python3 tools/vmath/remez.py expm1_d    # one
    python3 tools/vmath/remez.py --scan sin_d cos_d   # the error of each degree around the chosen

Needs only mpmath (the image's python3 has it).
"""
import sys
import mpmath as mp

mp.mp.dps = 80


def remez(g, w, a, b, n, iterations=40, grid=3000):
    """Coefficients c0..cn minimising max |w (g - p)| on [a, b]; returns (coeffs, max error)."""
    a, b = mp.mpf(a), mp.mpf(b)
    m = n + 2  # reference points
    def off0(x):  # g and w have removable singularities at 0
        return x if x != 0 else mp.mpf("1e-50")

    ref = [off0((a + b) / 2 - (b - a) / 2 * mp.cos(mp.pi * i / (m - 1))) for i in range(m)]
    xs = [off0(a + (b - a) * (1 - mp.cos(mp.pi * i / grid)) / 2) for i in range(grid + 1)]
    gs = [g(x) for x in xs]
    ws = [w(x) for x in xs]
    best = None
    for _ in range(iterations):
        rows = [[w(x) * x ** j for j in range(n + 1)] + [(-1) ** i] for i, x in enumerate(ref)]
        sol = mp.lu_solve(mp.matrix(rows), mp.matrix([w(x) * g(x) for x in ref]))
        c = [sol[j] for j in range(n + 1)]
        level = abs(sol[n + 1])

        def err(x, gx=None, wx=None):
            p = mp.mpf(0)
            for cj in reversed(c):
                p = p * x + cj
            return (w(x) if wx is None else wx) * ((g(x) if gx is None else gx) - p)

        es = [err(x, gx, wx) for x, gx, wx in zip(xs, gs, ws)]
        # Local extrema of the error on the grid (endpoints included), refined by golden section.
        ext = []
        for i in range(len(xs)):
            left = es[i - 1] if i > 0 else None
            right = es[i + 1] if i + 1 < len(xs) else None
            e = es[i]
            if (left is None or abs(e) >= abs(left)) and (right is None or abs(e) >= abs(right)):
                x = xs[i]
                if left is not None and right is not None:
                    lo, hi = xs[i - 1], xs[i + 1]
                    sgn = 1 if e > 0 else -1
                    for _ in range(30):
                        m1 = lo + (hi - lo) * 0.382
                        m2 = lo + (hi - lo) * 0.618
                        if sgn * err(m1) > sgn * err(m2):
                            hi = m2
                        else:
                            lo = m1
                    x = (lo + hi) / 2
                    e = err(x)
                ext.append((x, e))
        # Keep one extremum per run of equal sign (the largest), then the m largest alternating.
        runs = []
        for x, e in ext:
            if runs and (runs[-1][1] > 0) == (e > 0):
                if abs(e) > abs(runs[-1][1]):
                    runs[-1] = (x, e)
            else:
                runs.append((x, e))
        while len(runs) > m:
            # drop the smaller end, or merge the smallest interior pair
            if abs(runs[0][1]) < abs(runs[-1][1]):
                runs.pop(0)
            else:
                runs.pop()
        maxerr = max(abs(e) for e in es)
        best = (c, maxerr)
        if len(runs) < m:
            break
        ref = [x for x, _ in runs]
        if maxerr - level < mp.mpf("1e-4") * maxerr:
            break
    return best


def jdouble(v):
    return repr(float(v))


def jfloat(v):
    import struct
    f = struct.unpack("f", struct.pack("f", float(v)))[0]
    r = repr(f)
    # shortest repr that round-trips through float
    for digits in range(6, 12):
        s = "%.*g" % (digits, f)
        if struct.unpack("f", struct.pack("f", float(s)))[0] == f:
            r = s
            break
    if "e" not in r and "." not in r:
        r += ".0"
    return r + "f"


def near0(f, z):
    """f(z) evaluated with the working precision raised, for removable singularities at 0."""
    with mp.workdps(200):
        return +f(z)


PI4 = mp.pi / 4 * mp.mpf("1.0002")
LN2H = mp.log(2) / 2 * mp.mpf("1.0002")
SLOG = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1) * mp.mpf("1.0002")  # |s| for f in [sqrt2/2-1, sqrt2-1]
EPS = mp.mpf("1e-40")

# name -> (g, w, a, b, degree, kind); the error w (g - p) is the evaluated function's relative error.
FITS = {}


def fit(name, g, w, a, b, deg, kind):
    FITS[name] = (g, w, a, b, deg, kind)


# Degrees: the smallest giving a relative error well below half an ulp (2^-54 double, 2^-25 float),
# as the degree scan of `remez.py --scan NAME` shows.
for kind, dexp, dlog, dsin, dcos, dtanh, dsinh, datan, dasin, dpowlog in [
        ("d", 10, 6, 6, 5, 10, 6, 11, 12, 7), ("f", 5, 3, 3, 3, 4, 3, 5, 5, 3)]:
    # exp(s) = 1 + s + s^2 Q(s), relative to expm1(s) (stricter than exp(s), so exp shares it).
    fit("expm1_" + kind, lambda s: near0(lambda s: (mp.expm1(s) - s) / s ** 2, s),
        lambda s: near0(lambda s: s ** 2 / mp.expm1(s), s), -LN2H, LN2H, dexp, kind)
    # log(1+f) = 2s + s R(z), z = s^2, R = z P(z); relative to 2s.
    fit("log_" + kind, lambda z: near0(lambda z: (2 * mp.atanh(mp.sqrt(z)) / mp.sqrt(z) - 2) / z, z),
        lambda z: z / 2, EPS, SLOG ** 2, dlog, kind)
    # pow's log, in double-word arithmetic: log(1+f) = 2s + s z (2/3 + z W(z)); the error of W,
    # weighted by z^2/2, is relative to log(1+f), which pow needs to about 2^-66 (double).
    fit("powlog_" + kind,
        lambda z: near0(lambda z: ((2 * mp.atanh(mp.sqrt(z)) / mp.sqrt(z) - 2) / z - mp.mpf(2) / 3) / z, z),
        lambda z: z * z / 2, EPS, SLOG ** 2, dpowlog, kind)
    # sin(d) = d + d^3 S(z), relative to sin(d); |d| <= pi/4.
    fit("sin_" + kind, lambda z: near0(lambda z: (mp.sin(mp.sqrt(z)) - mp.sqrt(z)) / z ** 1.5, z),
        lambda z: near0(lambda z: z ** 1.5 / mp.sin(mp.sqrt(z)), z), EPS, PI4 ** 2, dsin, kind)
    # cos(d) = 1 - z/2 + z^2 C(z), relative to cos(d).
    fit("cos_" + kind, lambda z: near0(lambda z: (mp.cos(mp.sqrt(z)) - 1 + z / 2) / z ** 2, z),
        lambda z: z ** 2 / mp.cos(mp.sqrt(z)), EPS, PI4 ** 2, dcos, kind)
    # tanh(x) = x + x^3 T(z) for |x| <= 0.5493 (tanh = 1/2 there), relative to tanh.
    fit("tanh_" + kind, lambda z: near0(lambda z: (mp.tanh(mp.sqrt(z)) - mp.sqrt(z)) / z ** 1.5, z),
        lambda z: near0(lambda z: z ** 1.5 / mp.tanh(mp.sqrt(z)), z), EPS, mp.atanh(0.5) ** 2 * 1.0002,
        dtanh, kind)
    # sinh(x) = x + x^3 H(z) for |x| <= 1.
    fit("sinh_" + kind, lambda z: near0(lambda z: (mp.sinh(mp.sqrt(z)) - mp.sqrt(z)) / z ** 1.5, z),
        lambda z: near0(lambda z: z ** 1.5 / mp.sinh(mp.sqrt(z)), z), EPS, mp.mpf(1.0002), dsinh, kind)
    # atan(t) = t + t^3 A(z) for |t| <= 7/16.
    fit("atan_" + kind, lambda z: near0(lambda z: (mp.atan(mp.sqrt(z)) - mp.sqrt(z)) / z ** 1.5, z),
        lambda z: near0(lambda z: z ** 1.5 / mp.atan(mp.sqrt(z)), z), EPS, (mp.mpf(7) / 16) ** 2 * 1.0002,
        datan, kind)
    # asin(x) = x + x^3 B(z) for |x| <= 1/2.
    fit("asin_" + kind, lambda z: near0(lambda z: (mp.asin(mp.sqrt(z)) - mp.sqrt(z)) / z ** 1.5, z),
        lambda z: near0(lambda z: z ** 1.5 / mp.asin(mp.sqrt(z)), z), EPS, mp.mpf(0.25) * 1.0002,
        dasin, kind)

# float32 tanh (MathEmitter.tanhFloat): the small branch widened to |x| < 0.8, so that the large
# branch's 2w/(1 + w), w = e^-2|x|, is at most 0.34 and its errors shrink accordingly; and e^r
# itself (not expm1) for that w, whose error the division damps.
fit("tanhwide_f", lambda z: near0(lambda z: (mp.tanh(mp.sqrt(z)) - mp.sqrt(z)) / z ** 1.5, z),
    lambda z: near0(lambda z: z ** 1.5 / mp.tanh(mp.sqrt(z)), z), EPS, mp.mpf(0.8) ** 2 * 1.0002, 5, "f")
fit("expdirect_f", lambda r: mp.exp(r), lambda r: 1 / mp.exp(r), -LN2H, LN2H, 6, "f")

# float32 log without a division (MathEmitter.logFloat): log(1 + f) = f + f^2 Q(f) on
# [sqrt2/2 - 1, sqrt2 - 1] itself (not on s = f / (2 + f)), relative to log(1 + f).
fit("log1pdirect_f", lambda f: near0(lambda f: (mp.log1p(f) - f) / f ** 2, f),
    lambda f: near0(lambda f: f ** 2 / mp.log1p(f), f),
    (mp.sqrt(2) / 2 - 1) * mp.mpf("1.0002"), (mp.sqrt(2) - 1) * mp.mpf("1.0002"), 8, "f")
# float32 sin and cos (MathEmitter.trigFloat): degree 2 is enough for a result within 1 ulp.
fit("sinshort_f", *FITS["sin_f"][:4], 2, "f")
fit("cosshort_f", *FITS["cos_f"][:4], 2, "f")

# cbrt's first approximation on the mantissa scaled into [1, 8) (Halley's iteration refines it).
for kind in ("d", "f"):
    fit("cbrt_" + kind, lambda m: mp.cbrt(m), lambda m: 1 / mp.cbrt(m), 1, 8, 3, kind)


def main():
    if sys.argv[1:2] == ["--scan"]:
        for name in sys.argv[2:]:
            g, w, a, b, deg, kind = FITS[name]
            errs = ["degree %d: 2^-%.1f" % (d, -mp.log(remez(g, w, a, b, d)[1], 2))
                    for d in range(max(1, deg - 2), deg + 3)]
            print(name, ", ".join(errs))
        return
    names = sys.argv[1:] or list(FITS)
    for name in names:
        g, w, a, b, deg, kind = FITS[name]
        c, e = remez(g, w, a, b, deg)
        bits = -mp.log(e, 2)
        lit = jdouble if kind == "d" else jfloat
        print("// %s: degree %d on [%s, %s], max relative error 2^-%.1f" % (
            name, deg, mp.nstr(a, 6), mp.nstr(b, 6), bits))
        print("  " + ", ".join(lit(x) for x in c))


if __name__ == "__main__":
    main()
