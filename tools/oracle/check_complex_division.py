#!/usr/bin/env python3
"""Checks which scalar algorithm reproduces this machine's PyTorch complex division bit for bit.

Run with the oracle venv: PY=$(tools/oracle/venv.sh); "$PY" tools/oracle/check_complex_division.py

ufunc4j's complex kernels divide with c10::complex's operator/= (Smith's method, NumPy's
algorithm) with its multiply-adds fused, as PyTorch's x86 build compiles it (see
docs/processor.md, "Complex lifting"). This script evaluates that formula, the unfused one and
the textbook formula in scalar code over seeded random complex64/complex128 operands, divides the
same operands with torch (tensor and wrapped-scalar divisors), and prints how many quotients
differ from torch in any bit. Multiplication ((ac - bd, ad + bc), no FMA) is checked alike.
Expected with torch 2.13.0+cpu (AVX2): 0 mismatches for "smith_fma" and "mul".
"""
from fractions import Fraction

import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import numpy as np
import torch

np.seterr(all="ignore")
torch.set_num_threads(1)


def fma(t, a, b, c):
    """a * b + c rounded once to t (exact rational arithmetic for finite operands)."""
    a, b, c = float(a), float(b), float(c)
    if not all(np.isfinite([a, b, c])):
        return t(a * b + c)
    return t(float(Fraction(a) * Fraction(b) + Fraction(c)))


def smith(t, a, b, c, d, fused):
    f = (lambda x, y, z: fma(t, x, y, z)) if fused else (lambda x, y, z: t(t(x * y) + z))
    if abs(c) >= abs(d):
        if c == 0 and d == 0:
            return a / abs(c), b / abs(d)
        rat = d / c
        scl = t(1) / f(d, rat, c)
        return f(b, rat, a) * scl, f(-a, rat, b) * scl
    rat = c / d
    scl = t(1) / f(c, rat, d)
    return f(a, rat, b) * scl, f(b, rat, -a) * scl


def textbook(t, a, b, c, d):
    den = c * c + d * d
    return (a * c + b * d) / den, (b * c - a * d) / den


def main():
    rng = np.random.default_rng(2)
    n = 20000
    for t, ct in ((np.float32, np.complex64), (np.float64, np.complex128)):
        v = (rng.standard_normal((4, n)) * 10.0 ** rng.integers(-3, 4, (4, n))).astype(t)
        x = torch.from_numpy((v[0] + 1j * v[1]).astype(ct))
        y = torch.from_numpy((v[2] + 1j * v[3]).astype(ct))
        results = {"div": (x / y).numpy(), "div by 2": (x / 2).numpy(), "mul": (x * y).numpy()}
        counts = {}
        for i in range(n):
            a, b, c, d = (t(e) for e in v[:, i])
            candidates = {
                ("div", "smith_fma"): smith(t, a, b, c, d, True),
                ("div", "smith"): smith(t, a, b, c, d, False),
                ("div", "textbook"): textbook(t, a, b, c, d),
                ("div by 2", "smith_fma"): smith(t, a, b, t(2), t(0), True),
                ("mul", "mul"): (a * c - b * d, a * d + b * c),
            }
            for (op, name), (re, im) in candidates.items():
                q = results[op][i]
                same = (re == q.real or (np.isnan(re) and np.isnan(q.real))) and (
                    im == q.imag or (np.isnan(im) and np.isnan(q.imag)))
                counts[(op, name)] = counts.get((op, name), 0) + (0 if same else 1)
        for (op, name), m in counts.items():
            print(f"{np.dtype(ct).name:10} {op:9} {name:10} {m} of {n} differ")


if __name__ == "__main__":
    main()
