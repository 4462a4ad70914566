#!/usr/bin/env python3
"""Goldens for dev.ufunc4j.math.SpecialMath: exact values from mpmath, PyTorch's beside them.

Writes annotations/src/test/resources/goldens/special-math.tsv, one case per line:

    function  x  [y]  exact_hi  exact_lo  torch

every number the hex of its IEEE-754 float64 bits (ipow: decimal longs, exact_lo and torch
empty). exact_hi + exact_lo is the mpmath value at 40 digits as a double-double (exact_hi is the
correctly rounded result), so SpecialMathTest measures the error in ulps of the exact value, not
of its rounding. torch is torch.special's float64 result (torch.lgamma, polygamma(1, x) for
trigamma): the test holds SpecialMath to PyTorch's values wherever PyTorch's result is a special
value (NaN, an infinity or a zero) and reports how far PyTorch itself is from the exact value.

    /work/venv-oracle/bin/python tools/oracle/gen_special.py

Also writes annotations/src/test/resources/goldens/special-math-float32.tsv, the same columns for
float32 arguments (each written as the float64 of the float32; torch is PyTorch's float32 result,
widened): the float64 inputs rounded to float32 plus, per function, 4,000 float32 patterns evenly
spaced in bits over its main range (dense in every binade) and the float forms' region boundaries.
SpecialMathTest measures the float32 forms against it in float32 ulps of the exact value.

Seeded: rerunning gives the same file.
"""
import math
import pathlib
import random
import struct

import mpmath as mp
import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import numpy as np
import torch

mp.mp.dps = 40
ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "annotations/src/test/resources/goldens/special-math.tsv"
OUT32 = ROOT / "annotations/src/test/resources/goldens/special-math-float32.tsv"
INF = float("inf")
NAN = float("nan")


def hx(v):
    return "0x%016x" % struct.unpack("<Q", struct.pack("<d", v))[0]


def sinc(x):
    return mp.mpf(1) if x == 0 else mp.sinpi(x) / (mp.pi * x)


def trigamma(x):
    # mpmath's psi(1, x) does not return for large negative x: the reflection formula, exact.
    if x < 0:
        return mp.pi ** 2 / mp.sinpi(x) ** 2 - mp.psi(1, 1 - x)
    return mp.psi(1, x)


def lgamma(x):
    return mp.re(mp.loggamma(x))


EXACT = {
    "erf": mp.erf,
    "erfc": mp.erfc,
    "lgamma": lgamma,
    "digamma": mp.digamma,
    "trigamma": trigamma,
    "expit": lambda x: 1 / (1 + mp.exp(-x)),
    "logit": lambda p: mp.log(p / (1 - p)),
    "xlogy": lambda x, y: mp.mpf(0) if x == 0 else x * mp.log(y),
    "sinc": sinc,
}

TORCH = {
    "erf": torch.special.erf,
    "erfc": torch.special.erfc,
    "lgamma": torch.lgamma,
    "digamma": torch.special.digamma,
    "trigamma": lambda t: torch.special.polygamma(1, t),
    "expit": torch.special.expit,
    "logit": torch.special.logit,
    "xlogy": torch.special.xlogy,
    "sinc": torch.special.sinc,
}

SPECIALS = [0.0, -0.0, INF, -INF, NAN, 5e-324, -5e-324, 1e-300, -1e-300, 2.2250738585072014e-308]


def exact(fn, args):
    """(hi, lo) of the exact value, or the IEEE special value where the function has one."""
    if any(math.isnan(a) or math.isinf(a) for a in args):
        return None
    try:
        v = EXACT[fn](*[mp.mpf(a) for a in args])
    except (ValueError, ZeroDivisionError):
        return None
    if mp.isnan(v) or mp.isinf(v) or mp.im(v) != 0:
        return None
    v = mp.re(v)
    hi = float(v)
    if math.isinf(hi):
        return (hi, 0.0)
    return (hi, float(v - hi))


def inputs(fn, rng):
    xs = list(SPECIALS)
    if fn in ("erf", "erfc"):
        xs += [s * v for s in (1, -1) for v in (0.25, 0.49999999999999994, 0.5, 1, 2, 5.9, 6,
                                               26.5, 27.2, 27.29, 27.3, 30)]
        xs += [rng.uniform(-8, 8) for _ in range(1500)]
        xs += [rng.uniform(-28, 28) for _ in range(400)]
        xs += [math.copysign(10 ** rng.uniform(-300, 1.3), rng.random() - 0.5) for _ in range(400)]
    elif fn in ("lgamma", "digamma", "trigamma"):
        xs += [1, 2, 3, -1, -2, 0.5, -0.5, -2.5, 1.5, 11.999999999999998, 12, 1e10, 1e300,
               1 + 1e-8, 1 - 1e-8, 2 + 1e-8, 2 - 1e-8, 1.4616321449683622, -2.4570247382208006,
               2 ** 58, 2 ** 52 + 0.5, -(2 ** 52) - 0.5]
        xs += [rng.uniform(0, 15) for _ in range(1500)]
        xs += [10 ** rng.uniform(-300, 300) for _ in range(300)]
        xs += [rng.uniform(-20, 0) for _ in range(400)]
        xs += [rng.uniform(0.5, 3) for _ in range(400)]
    elif fn == "expit":
        xs += [1, -1, 36, 37, -36, -37, 709, 710, -745, -746, 800, -800]
        xs += [rng.uniform(-40, 40) for _ in range(1500)]
        xs += [math.copysign(10 ** rng.uniform(-300, 2.85), rng.random() - 0.5) for _ in range(500)]
    elif fn == "logit":
        xs += [0.5, 0.25, 0.75, 1, -0.1, 1.1, 0.2499999999999999, 0.7500000000000001,
               0.5000000000000001, 0.49999999999999994, 1 - 2 ** -53]
        xs += [rng.random() for _ in range(1500)]
        xs += [10 ** rng.uniform(-300, 0) for _ in range(300)]
        xs += [1 - 10 ** rng.uniform(-16, -1) for _ in range(300)]
    elif fn == "sinc":
        xs += [0.5, -0.5, 1, -1, 1.5, 2, 1e-10, 2 ** -21, 2 ** -20, 2 ** 52, 2 ** 52 + 1, 2 ** 53,
               1e300, 4503599627370495.5]
        xs += [rng.uniform(-10, 10) for _ in range(1500)]
        xs += [math.copysign(10 ** rng.uniform(-10, 15), rng.random() - 0.5) for _ in range(500)]
    return [(x,) for x in xs]


def xlogy_inputs(rng):
    ys = SPECIALS + [1, 2, 0.5, -1]
    xs = [0.0, -0.0, 1, -1, 2.5, INF, NAN]
    pairs = [(x, y) for x in xs for y in ys]
    pairs += [(rng.uniform(-10, 10), 10 ** rng.uniform(-300, 300)) for _ in range(1000)]
    pairs += [(rng.uniform(-10, 10), rng.uniform(0, 3)) for _ in range(500)]
    return pairs


def ipow_rows(rng):
    m = 1 << 64
    cases = [(a, b) for a in (0, 1, -1, 2, -2, 3, 7, -7, 2 ** 32 + 1, 2 ** 63 - 1, -(2 ** 63))
             for b in (0, 1, 2, 3, 62, 63, 64, 65, -1, -2, -3, 2 ** 63 - 1, -(2 ** 63))]
    cases += [(rng.randint(-20, 20), rng.randint(-5, 70)) for _ in range(300)]
    cases += [(rng.randint(-(2 ** 63), 2 ** 63 - 1), rng.randint(0, 2 ** 63 - 1)) for _ in range(200)]
    rows = []
    for a, b in cases:
        if b < 0:
            r = 1 if a == 1 else ((-1 if b % 2 else 1) if a == -1 else 0)
        else:
            r = pow(a, b, m)
            r = r - m if r >= 2 ** 63 else r
        rows.append("ipow\t%d\t%d\t%d" % (a, b, r))
    return rows


# Main range of each unary function for the dense float32 sample (both signs where given).
DENSE32 = {
    "erf": (2 ** -30, 4.5, True), "erfc": (2 ** -30, 10.1, True), "lgamma": (2 ** -30, 40.0, True),
    "digamma": (2 ** -30, 40.0, True), "trigamma": (2 ** -30, 40.0, True),
    "expit": (2 ** -30, 104.0, True), "logit": (2 ** -30, 1.0, False), "sinc": (2 ** -30, 64.0, True),
}
# The float forms' region boundaries and their neighbours.
EDGES32 = [0.875, 2.25, 3.9192059, 4.0, 1.0, 0.5]


def f32(v):
    return float(np.float32(v))


def dense32(lo, hi, both, n=4000):
    a = np.float32(lo).view(np.int32)
    b = np.float32(hi).view(np.int32)
    xs = [float(v) for v in np.linspace(a, b, n // 2 if both else n).astype(np.int32).view(np.float32)]
    return xs + ([-v for v in xs] if both else [])


def float32_rows():
    rows = []
    for fn in EXACT:
        rng = random.Random(fn)
        cases = xlogy_inputs(rng) if fn == "xlogy" else inputs(fn, rng)
        cases = [tuple(f32(a) for a in args) for args in cases]
        if fn in DENSE32:
            cases += [(x,) for x in dense32(*DENSE32[fn])]
            cases += [(f32(s * np.nextafter(np.float32(e), np.float32(d))),) for e in EDGES32
                      for d in (0, 8) for s in (1, -1)]
        seen = set()
        unique = []
        for args in cases:
            key = tuple(hx(a) for a in args)
            if key not in seen:
                seen.add(key)
                unique.append(args)
        print(fn, "float32", len(unique), "cases", flush=True)
        for args in unique:
            t = TORCH[fn](*[torch.tensor(a, dtype=torch.float32) for a in args]).item()
            ex = exact(fn, args)
            ex_cols = ("", "") if ex is None else (hx(ex[0]), hx(ex[1]))
            rows.append("\t".join([fn] + [hx(a) for a in args] + list(ex_cols) + [hx(t)]))
    OUT32.write_text("# function\targs...\texact_hi\texact_lo\ttorch float32 (tools/oracle/gen_special.py)\n"
                     + "\n".join(rows) + "\n")
    print(f"wrote {len(rows)} cases to {OUT32.relative_to(ROOT)}")


def main():
    torch.set_num_threads(1)
    rows = []
    for fn in EXACT:
        rng = random.Random(fn)
        cases = xlogy_inputs(rng) if fn == "xlogy" else inputs(fn, rng)
        print(fn, len(cases), "cases", flush=True)
        for args in cases:
            t = TORCH[fn](*[torch.tensor(a, dtype=torch.float64) for a in args]).item()
            ex = exact(fn, args)
            ex_cols = ("", "") if ex is None else (hx(ex[0]), hx(ex[1]))
            rows.append("\t".join([fn] + [hx(float(a)) for a in args] + list(ex_cols) + [hx(t)]))
    rows += ipow_rows(random.Random("ipow"))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("# function\targs...\texact_hi\texact_lo\ttorch (tools/oracle/gen_special.py)\n"
                   + "\n".join(rows) + "\n")
    print(f"wrote {len(rows)} cases to {OUT.relative_to(ROOT)}")
    float32_rows()


if __name__ == "__main__":
    main()
