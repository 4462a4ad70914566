#!/usr/bin/env python3
"""Writes generated-samples/src/test/resources/golden/samples/<op>.json: results of the sample
custom ops (issue 6) from real PyTorch, in the same format as gen_elementwise.py (see
docs/golden-format.md).

Run with the oracle venv: PY=$(tools/oracle/venv.sh); "$PY" tools/oracle/gen_samples.py
Deterministic: seeded by op name, one torch thread, byte-identical on rerun.

The ops and how they are called (kwargs are recorded in each case; args positional):
  silu       F.silu(x)
  gelu       F.gelu(x, approximate='tanh')      (always the tanh approximation; the string
                                                 argument is not recorded)
  softplus   F.softplus(x, beta=, threshold=)    kwargs beta, threshold
  leaky_relu F.leaky_relu(x, negative_slope=)   kwargs negative_slope
  hardtanh   F.hardtanh(x, min_val=, max_val=)  kwargs min_val, max_val
  lerp       torch.lerp(a, b, weight)           weight a Python float: args[2] is a scalar
  hypot      torch.hypot(a, b)
  isclose    torch.isclose(a, b, rtol=, atol=, equal_nan=)   kwargs rtol, atol, equal_nan
"""
import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import numpy as np
import torch
import torch.nn.functional as F

import golden_common as G
from golden_common import FLOATS, STD, EXTRA, make

OUT = G.ROOT / "generated-samples/src/test/resources/golden/samples"

NAN, INF = float("nan"), float("inf")


def gelu_tanh(x, **kw):
    return F.gelu(x, approximate="tanh", **kw)


UNARY = {
    "silu": (F.silu, [{}]),
    "gelu": (gelu_tanh, [{}]),
    "softplus": (F.softplus, [{}, {"beta": 2.0, "threshold": 5.0}, {"beta": 0.5, "threshold": 20.0},
                              {"beta": 1.0, "threshold": 1.0}, {"beta": -1.0, "threshold": 20.0}, {"beta": 2, "threshold": 3}]),
    "leaky_relu": (F.leaky_relu, [{}, {"negative_slope": 0.2}, {"negative_slope": -0.5}, {"negative_slope": 1.5},
                                  {"negative_slope": 0}]),
    "hardtanh": (F.hardtanh, [{}, {"min_val": -2.0, "max_val": 3.0}, {"min_val": 0.5, "max_val": 0.25},
                              {"min_val": -2, "max_val": 3}, {"min_val": 0.0, "max_val": 6.0}]),
}
BINARY = {
    "lerp": (torch.lerp, [(0.3,), (0.0,), (1.0,), (0.5,), (-0.5,), (1.5,), (2,)]),
    "hypot": (torch.hypot, [()]),
    "isclose": (torch.isclose, [{}, {"rtol": 0.1, "atol": 0.0}, {"rtol": 0.0, "atol": 0.5},
                                {"rtol": 1e-3, "atol": 1e-3, "equal_nan": True}, {"rtol": 0.0, "atol": 0.0}]),
}


def rand(rng, n, k):
    if n == "bool":
        return [bool(x) for x in rng.integers(0, 2, k)]
    if n in G.INTS:
        lo, hi = {"uint8": (0, 15), "int8": (-10, 10)}.get(n, (0, 1000) if n.startswith("u") else (-100, 100))
        return [int(x) for x in rng.integers(lo, hi + 1, k)]
    v = [round(float(x), 2) for x in rng.uniform(-6, 6, k)]
    if n in G.COMPLEX:
        return [complex(a, round(float(b), 2)) for a, b in zip(v, rng.uniform(-6, 6, k))]
    return v


def edges(n, op):
    if n not in FLOATS:
        return None
    fi = torch.finfo(G.tdt(n))
    sub = float(fi.tiny) * 2.0 ** -G.NMANT[n]
    e = [NAN, 0.0, -0.0, INF, -INF, 1.0, -1.0, sub, -sub, float(fi.tiny), float(fi.max), -float(fi.max),
         20.0, -20.0, 21.0, 5.0, 3.0, -3.0, 0.25, 40.0, -40.0, 100.0, -100.0, 1e-3]
    return e


def unary_op(op):
    fn, kwlist = UNARY[op]
    R = G.Recorder(op)
    rng = G.rng_for(op)

    def T(n, shape):
        k = int(np.prod(shape)) if shape else 1
        return make(n, rand(rng, n, k), shape)

    for kw in kwlist:
        tag = "-".join(f"{k}={v}" for k, v in kw.items()) or "default"
        for n in STD + EXTRA:
            R.torch_case(f"{tag}-{n}", fn, [T(n, [2, 3])], kw)
        for n in FLOATS:
            R.torch_case(f"{tag}-edge-{n}", fn, [make(n, edges(n, op))], kw)
    for n in ["float32", "float16"]:
        R.torch_case(f"noncontig-T-{n}", fn, [T(n, [3, 2]).t()], kwlist[-1])
        R.torch_case(f"noncontig-expand-{n}", fn, [T(n, [3]).expand(2, 3)], kwlist[-1])
    for n in ["float32", "float64"]:
        R.torch_case(f"zerodim-{n}", fn, [T(n, [])], kwlist[-1])
        R.torch_case(f"empty-{n}", fn, [T(n, [0, 3])], kwlist[-1])
        R.torch_case(f"rank4-{n}", fn, [T(n, [2, 1, 3, 2])], kwlist[-1])
    return R.cases


MIXED = [("float16", "float32"), ("float32", "float16"), ("bfloat16", "float16"), ("float32", "float64"),
         ("int32", "float32"), ("float32", "int32"), ("int64", "float16"), ("bool", "float32"), ("uint8", "int8"),
         ("int32", "int64"), ("float64", "complex64"), ("float32", "complex128"), ("bfloat16", "float32")]


def binary_op(op):
    fn, variants = BINARY[op]
    R = G.Recorder(op)
    rng = G.rng_for(op)

    def T(n, shape):
        k = int(np.prod(shape)) if shape else 1
        return make(n, rand(rng, n, k), shape)

    def call(v, a, b):
        """(args, kwargs) for a variant: lerp's weight is a positional scalar, the others kwargs."""
        if isinstance(v, tuple):
            return [a, b, *v], {}
        return [a, b], dict(v)

    for vi, v in enumerate(variants):
        tag = f"v{vi}"
        for n in STD + EXTRA:
            a, b = T(n, [2, 3]), T(n, [2, 3])
            if op == "isclose" and n in FLOATS + ["complex64", "complex128"]:
                b = torch.where(torch.arange(6).reshape(2, 3) % 2 == 0, a, b)  # half the elements equal
            args, kw = call(v, a, b)
            R.torch_case(f"{tag}-{n}", fn, args, kw)
        for n in FLOATS:
            e = edges(n, op)
            ea, eb = e[:12] + e[12:], e[12:] + e[:12]
            if op == "isclose":
                fi = torch.finfo(G.tdt(n))
                ea = [NAN, NAN, INF, INF, -INF, 0.0, -0.0, 1.0, 1.0, 1.0, 100.0, float(fi.max), 1.0, 1.0]
                eb = [NAN, 1.0, INF, -INF, -INF, -0.0, 0.0, 1.0 + float(fi.eps), 1.1, 1.5, 100.5, INF, 0.95, 1.05]
            args, kw = call(v, make(n, ea), make(n, eb))
            R.torch_case(f"{tag}-edge-{n}", fn, args, kw)
    v = variants[0]
    for x, y in MIXED:
        args, kw = call(v, T(x, [4]), T(y, [4]))
        R.torch_case(f"mix-{x}-{y}", fn, args, kw)
    for sa, sb in [([3, 1], [1, 4]), ([2, 3], [3]), ([], [2]), ([2], []), ([0, 3], [1, 3]), ([2, 1, 3, 1], [1, 4, 1, 2]),
                   ([2, 3], [4])]:
        args, kw = call(v, T("float32", sa), T("float32", sb))
        R.torch_case(f"bcast-{sa}-{sb}".replace(" ", ""), fn, args, kw)
    args, kw = call(v, T("float32", [3, 2]).t(), T("float32", [2, 3]))
    R.torch_case("noncontig-T", fn, args, kw)
    args, kw = call(v, T("float16", [3]).expand(2, 3), T("float16", [2, 3]))
    R.torch_case("noncontig-expand", fn, args, kw)
    for x, y in [("float16", "float64"), ("float32", "float64"), ("int32", "float32"), ("float64", "float32")]:
        args, kw = call(v, T(x, [3]), T(y, []))
        R.torch_case(f"zerodim-{x}-{y}0", fn, args, kw)
    if op == "lerp":
        # a tensor weight is the other overload; a scalar weight with integer inputs is refused
        R.torch_case("weight-tensor-float32", fn, [T("float32", [4]), T("float32", [4]), make("float32", [0.0, 0.25, 1.0, 2.0])])
        R.torch_case("weight-large-float16", fn, [make("float16", [1000.0, -60000.0, 0.0]), make("float16", [60000.0, 60000.0, 1.0]), 0.75])
    return R.cases


def main():
    G.setup()
    report, total = [], 0
    jobs = [(op, lambda op=op: unary_op(op)) for op in UNARY] + [(op, lambda op=op: binary_op(op)) for op in BINARY]
    for op, job in jobs:
        cases = job()
        path, size, n = G.write(OUT, op, cases)
        total += size
        errs = sum(c["error"] is not None for c in cases)
        report.append(f"{op:12s} {n:5d} cases ({errs:4d} errors) {size / 1024:8.1f} KiB")
        assert size < 1_600_000, f"{path} too large: {size}"
    print("\n".join(report))
    print(f"{OUT.relative_to(G.ROOT)}: {len(jobs)} files, {total / 1024 / 1024:.2f} MiB")


if __name__ == "__main__":
    main()
