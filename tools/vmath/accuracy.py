#!/usr/bin/env python3
"""Ulp error of ufunc4j's vector transcendental functions against correctly rounded values.

Reads the files `<function>.<f64|f32>.bin` that `tools/vmath/Accuracy.java` writes (records of
three little-endian float64: x, y, the kernel's result) and computes each function exactly with
mpmath (60 digits), then reports, per function and type, the largest error in units in the last
place of the exact value's binade (a fraction: 0.5 is a correctly rounded result at worst) and how
many results are not the correctly rounded one.

    python3 tools/vmath/accuracy.py DIR [function ...]
"""
import math
import struct
import sys
from pathlib import Path

import mpmath as mp

mp.mp.dps = 60

FUNCTIONS = {
    "exp": lambda x, y: mp.exp(x),
    "expm1": lambda x, y: mp.expm1(x),
    "log": lambda x, y: mp.log(x),
    "log1p": lambda x, y: mp.log1p(x),
    "log10": lambda x, y: mp.log10(x),
    "sin": lambda x, y: mp.sin(x),
    "cos": lambda x, y: mp.cos(x),
    "tan": lambda x, y: mp.tan(x),
    "tanh": lambda x, y: mp.tanh(x),
    "sinh": lambda x, y: mp.sinh(x),
    "cosh": lambda x, y: mp.cosh(x),
    "asin": lambda x, y: mp.asin(x),
    "acos": lambda x, y: mp.acos(x),
    "atan": lambda x, y: mp.atan(x),
    "cbrt": lambda x, y: mp.cbrt(x) if x >= 0 else -mp.cbrt(-x),
    "pow": lambda x, y: mp.power(x, y) if x >= 0 or y != int(y) else (
        mp.power(-x, y) * (-1 if int(y) % 2 else 1)),
    "hypot": lambda x, y: mp.hypot(x, y),
    "atan2": lambda x, y: mp.atan2(x, y),
}

# (precision, smallest normal exponent, largest finite)
FORMATS = {"f64": (53, -1022, sys.float_info.max), "f32": (24, -126, 3.4028234663852886e38)}


def ulp(exact, fmt):
    p, emin, _ = FORMATS[fmt]
    if exact == 0:
        return mp.ldexp(1, emin - p + 1)
    e = max(int(mp.floor(mp.log(abs(exact), 2))), emin)
    return mp.ldexp(1, e - p + 1)


def check(path, fmt, fn):
    data = path.read_bytes()
    n = len(data) // 24
    worst, worst_at, wrong, count = 0.0, None, 0, 0
    for i in range(n):
        x, y, out = struct.unpack_from("<3d", data, 24 * i)
        if math.isnan(x) or math.isnan(y):
            continue
        try:
            exact = FUNCTIONS[fn](mp.mpf(x), mp.mpf(y))
        except (ValueError, ZeroDivisionError):
            continue
        if isinstance(exact, mp.mpc) or not mp.isfinite(exact):
            continue
        _, _, big = FORMATS[fmt]
        if abs(exact) > big or math.isinf(out) or math.isnan(out):
            continue
        err = float(abs(mp.mpf(out) - exact) / ulp(exact, fmt))
        count += 1
        if err > 0.5:
            wrong += 1
        if err > worst:
            worst, worst_at = err, (x, y, out)
    return worst, worst_at, wrong, count


def main():
    d = Path(sys.argv[1])
    only = sys.argv[2:]
    for fn in FUNCTIONS:
        if only and fn not in only:
            continue
        for fmt in ("f32", "f64"):
            path = d / ("%s.%s.bin" % (fn, fmt))
            if not path.exists():
                continue
            worst, at, wrong, count = check(path, fmt, fn)
            print("%-6s %s  max %.3f ulp  not correctly rounded %5.2f%% of %d  worst at %s"
                  % (fn, fmt, worst, 100.0 * wrong / max(count, 1), count, at))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
