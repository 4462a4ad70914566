#!/usr/bin/env python3
"""Writes runtime/src/test/resources/golden/fuzz/<op>.json: a differential-fuzzing corpus of random
cases run on real PyTorch, for every built-in elementwise op (issue 12, "Differential fuzzing").

Run with the oracle venv: PY=$(tools/oracle/venv.sh); "$PY" tools/oracle/gen_fuzz.py
The golden files of gen_elementwise.py are hand-picked; these are drawn at random, so they reach
the combinations nobody thought of:

  - ranks 0 to 4, shapes with 0- and 1-sized dimensions, operands broadcasting against each other
    (and about one case in twenty that does not broadcast, to record PyTorch's refusal);
  - layouts from views: transposed (permuted), sliced with a step, sliced at an offset, expanded
    from size-1 dimensions (stride 0), as well as contiguous;
  - every ordered pair of the standard dtypes for each binary op, where and clamp (each pair once
    per op), every dtype for each unary op;
  - Python scalars (int, float, bool; Java numbers and booleans on the Java side) in either
    position, zero-dim tensors, in-place calls and out= targets of random dtypes;
  - values mixing ordinary ones with the dtype's edges: NaN, +-0, +-inf, subnormals, the largest
    and smallest values, integer min/max.

Same format as the elementwise goldens (docs/golden-format.md); FuzzCorpusTest runs every case
through ElementwiseGoldenTest's comparison (bit for bit, the documented deviations excepted).
Deterministic: one generator seeded per op, torch on one thread; a rerun gives the same cases
(transcendental results may move in the last bit with torch's build and CPU).
"""
import sys

import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import numpy as np
import torch

import golden_common as G
from golden_common import STD, FLOATS, COMPLEX, make

OUT = G.ROOT / "runtime/src/test/resources/golden/fuzz"

BINARY = ["add", "sub", "mul", "div", "floor_divide", "remainder", "maximum", "minimum", "pow",
          "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
          "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"]
UNARY = ["logical_not", "bitwise_not", "neg", "abs", "sign", "exp", "log", "sqrt", "sin", "cos",
         "tanh", "sigmoid"]
# Issue 27's leftovers (SpecialMath behind them).
UNARY += ["erf", "erfc", "lgamma", "digamma", "nan_to_num"]
BINARY += ["nextafter"]
# Unary ops with keyword arguments, run through their torch callable: each case draws its
# keywords from the pool (None: none). gelu's out= form is torch._C._nn's, as gen_elementwise.py.
KW_UNARY = {
    "gelu": (torch._C._nn.gelu, [None]),
    "gelu_tanh": (lambda x, **kw: torch._C._nn.gelu(x, approximate="tanh", **kw), [None]),
    "logit": (torch.logit, [None, {"eps": 1e-6}, {"eps": 0.25}, {"eps": -1.0}]),
    "round": (torch.round, [None, {"decimals": 1}, {"decimals": 2}, {"decimals": -1},
                            {"decimals": 3}, {"decimals": 0}]),
}
CMP = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}
MAX_NUMEL = 24


def torch_fn(op):
    """As gen_elementwise.py: a Python scalar first in a comparison runs as the mirrored one."""
    f = getattr(torch, op)
    if op in CMP:
        g = getattr(torch, CMP[op])

        def cmp(a, b, **kw):
            return f(a, b, **kw) if isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor) else g(b, a, **kw)
        return cmp
    return f


# ---------------------------------------------------------------- values

def edges(n):
    if n == "bool":
        return [False, True]
    if n in FLOATS or n in COMPLEX:
        real = "float32" if n == "complex64" else "float64" if n == "complex128" else n
        fi = torch.finfo(G.tdt(real))
        sub = float(fi.tiny) * 2.0 ** -G.NMANT.get(real, 3)
        e = [float("nan"), 0.0, -0.0, float("inf"), float("-inf"), sub, -sub, float(fi.tiny),
             float(fi.max), -float(fi.max), 1.0, -1.0, 0.5]
        if n in COMPLEX:
            return [complex(a, b) for a in e[:6] for b in (0.0, 1.0, float("nan"))]
        return e
    lo, hi = G.irange(n)
    return [0, 1, -1, lo, hi, lo + 1, hi - 1, 2, 7] if lo < 0 else [0, 1, hi, hi - 1, 2, 7]


def values(rng, n, k, role, op):
    """k values for dtype n: mostly ordinary, some edges; divisors and exponents kept tame where
    PyTorch's integral kernels would raise or loop (division by zero is its own golden case)."""
    out = []
    e = edges(n)
    for _ in range(k):
        if rng.random() < 0.25:
            v = e[int(rng.integers(len(e)))]
        elif n == "bool":
            v = bool(rng.integers(2))
        elif n in COMPLEX:
            v = complex(round(float(rng.uniform(-6, 6)), 2), round(float(rng.uniform(-6, 6)), 2))
        elif n in FLOATS:
            v = round(float(rng.uniform(-6, 6)) * 10.0 ** int(rng.integers(-2, 3)), 3)
        else:
            lo, hi = G.irange(n)
            v = int(rng.integers(max(lo, -300), min(hi, 300) + 1))
        out.append(v)
    if n not in FLOATS and n not in COMPLEX:
        if role == "b" and op in ("floor_divide", "remainder", "div"):
            out = [v if v not in (0, False) else (True if n == "bool" else 3) for v in out]
        if op == "pow":
            out = [v if n == "bool" else (abs(v) % 5 if role == "b" else max(-4, min(4, v))) for v in out]
        if op in ("bitwise_left_shift", "bitwise_right_shift") and role == "b" and n != "bool":
            out = [abs(v) % G.bits(n) for v in out]
    return out


# ---------------------------------------------------------------- shapes and layouts

def random_shape(rng):
    rank = int(rng.integers(0, 5))
    while True:
        shape = [int(rng.choice([0, 1, 1, 2, 2, 3, 4, 5])) for _ in range(rank)]
        if int(np.prod(shape)) <= MAX_NUMEL:
            return shape


def broadcast_partner(rng, shape):
    """A shape that broadcasts with `shape` (fewer leading dims, some set to 1), or about one time
    in twenty one that does not."""
    if shape and rng.random() < 0.05:
        bad = list(shape)
        d = int(rng.integers(len(bad)))
        bad[d] = bad[d] + 2 if bad[d] != 1 else 3
        return bad
    drop = int(rng.integers(0, len(shape) + 1))
    other = [1 if rng.random() < 0.3 else s for s in shape[drop:]]
    if rng.random() < 0.2 and len(other) < 4:
        other = [int(rng.choice([1, 2]))] + other  # a leading dim the other lacks
        if int(np.prod(other)) > MAX_NUMEL:
            other = other[1:]
    return other


def laid_out(rng, n, shape, vals):
    """A tensor of `shape` with `vals` in row-major order, laid out by a random view."""
    k = int(np.prod(shape)) if shape else 1
    kind = rng.choice(["contiguous", "permuted", "stepped", "offset", "expanded"])
    if kind == "permuted" and len(shape) >= 2:
        perm = [int(p) for p in rng.permutation(len(shape))]
        inv = [perm.index(d) for d in range(len(shape))]
        base = make(n, vals, shape).permute(*perm).contiguous()  # dims in perm order, contiguous
        return base.permute(*inv)  # the logical shape again, now strided
    if kind == "stepped" and shape and k > 0:
        d = int(rng.integers(len(shape)))
        wide = list(shape)
        wide[d] *= 2
        t = make(n, [vals[0]] * int(np.prod(wide)), wide)
        idx = [slice(None)] * len(shape)
        idx[d] = slice(0, None, 2)
        view = t[tuple(idx)]
        view.copy_(make(n, vals, shape))
        return view
    if kind == "offset" and shape and k > 0:
        d = int(rng.integers(len(shape)))
        wide = list(shape)
        wide[d] += 1
        t = make(n, [vals[0]] * int(np.prod(wide)), wide)
        idx = [slice(None)] * len(shape)
        idx[d] = slice(1, None)
        view = t[tuple(idx)]
        view.copy_(make(n, vals, shape))
        return view
    if kind == "expanded" and shape and k > 0 and any(s != 1 for s in shape):
        # Expand from size-1 dims: the values repeat along them (stride 0).
        small = [s if rng.random() < 0.5 else 1 for s in shape]
        small_vals = vals[:int(np.prod(small))] if int(np.prod(small)) else []
        return make(n, small_vals, small).expand(*shape)
    return make(n, vals, shape)


def operand(rng, n, shape, role, op):
    k = int(np.prod(shape)) if shape else 1
    return laid_out(rng, n, shape, values(rng, n, k, role, op))


def python_scalar(rng, n, role, op):
    """A Python scalar of the category of dtype n (bool, int or float), sometimes an edge."""
    if n == "bool":
        return bool(rng.integers(2))
    if n in FLOATS or n in COMPLEX:
        pool = [2.5, -0.5, 0.1, 1e5, -3.0, 1.0004, float("inf"), float("nan"), 1e-8, 65504.0, 3.0000001]
        return float(pool[int(rng.integers(len(pool)))])
    pool = [3, -2, 0, 1, 70000, 2 ** 31, -(2 ** 40), 127, 255]
    v = int(pool[int(rng.integers(len(pool)))])
    if role == "b" and op in ("floor_divide", "remainder") and v == 0:
        v = 3
    if op == "pow" and role == "b":
        v = abs(v) % 5
    if op in ("bitwise_left_shift", "bitwise_right_shift") and role == "b":
        v = abs(v) % 8
    return v


def out_dtype(rng):
    return STD[int(rng.integers(len(STD)))]


# ---------------------------------------------------------------- cases

def binary(op):
    R = G.Recorder(op)
    rng = G.rng_for("fuzz-" + op)
    fn = torch_fn(op)
    inplace = op + "_" if hasattr(torch.Tensor, op + "_") else None
    pairs = [(x, y) for x in STD for y in STD]
    for i, (x, y) in enumerate(pairs):
        sa = random_shape(rng)
        sb = broadcast_partner(rng, sa)
        if rng.random() < 0.5:
            sa, sb = sb, sa
        r = rng.random()
        if r < 0.12:
            args = [operand(rng, x, sa, "a", op), python_scalar(rng, y, "b", op)]
        elif r < 0.2:
            args = [python_scalar(rng, x, "a", op), operand(rng, y, sb, "b", op)]
        else:
            args = [operand(rng, x, sa, "a", op), operand(rng, y, sb, "b", op)]
        mode = rng.random()
        if mode < 0.1 and inplace is not None and isinstance(args[0], torch.Tensor):
            R.torch_case(f"fuzz-{i}-{x}-{y}-inplace", fn, args, inplace=inplace)
        elif mode < 0.2:
            shape = list(torch.broadcast_shapes(*[a.shape for a in args if isinstance(a, torch.Tensor)])) \
                if _broadcasts(args) else sa
            R.torch_case(f"fuzz-{i}-{x}-{y}-out", fn, args, out=(out_dtype(rng), shape))
        else:
            R.torch_case(f"fuzz-{i}-{x}-{y}", fn, args)
    return R.cases


def _broadcasts(args):
    try:
        torch.broadcast_shapes(*[a.shape for a in args if isinstance(a, torch.Tensor)])
        return True
    except RuntimeError:
        return False


def unary(op):
    R = G.Recorder(op)
    rng = G.rng_for("fuzz-" + op)
    fn = getattr(torch, op)
    for i in range(5 * len(STD)):
        n = STD[i % len(STD)]
        x = operand(rng, n, random_shape(rng), "a", op)
        mode = rng.random()
        # (nan_to_num's Java defaults are Ops.nanToNum(x) only: no in-place form without arguments)
        if mode < 0.15 and op != "nan_to_num":
            R.torch_case(f"fuzz-{i}-{n}-inplace", fn, [x], inplace=op + "_")
        elif mode < 0.3:
            R.torch_case(f"fuzz-{i}-{n}-out", fn, [x], out=(out_dtype(rng), list(x.shape)))
        else:
            R.torch_case(f"fuzz-{i}-{n}", fn, [x])
    return R.cases


def kw_unary(op):
    """As unary(), with keywords drawn from KW_UNARY's pool; in place where torch has op_."""
    R = G.Recorder(op)
    rng = G.rng_for("fuzz-" + op)
    fn, pool = KW_UNARY[op]
    inplace = op + "_" if hasattr(torch.Tensor, op + "_") else None
    for i in range(5 * len(STD)):
        n = STD[i % len(STD)]
        x = operand(rng, n, random_shape(rng), "a", op)
        kw = pool[int(rng.integers(len(pool)))]
        mode = rng.random()
        if mode < 0.15 and inplace is not None:
            R.torch_case(f"fuzz-{i}-{n}-inplace", fn, [x], kw, inplace=inplace)
        elif mode < 0.3:
            R.torch_case(f"fuzz-{i}-{n}-out", fn, [x], kw, out=(out_dtype(rng), list(x.shape)))
        else:
            R.torch_case(f"fuzz-{i}-{n}", fn, [x], kw)
    return R.cases


def where():
    R = G.Recorder("where")
    rng = G.rng_for("fuzz-where")
    for i, (x, y) in enumerate([(x, y) for x in STD for y in STD]):
        sc = random_shape(rng)
        sa = broadcast_partner(rng, sc)
        sb = broadcast_partner(rng, sc)
        c = operand(rng, "bool", sc, "a", "where")
        a = operand(rng, x, sa, "a", "where") if rng.random() < 0.8 else python_scalar(rng, x, "a", "where")
        b = operand(rng, y, sb, "b", "where") if rng.random() < 0.8 else python_scalar(rng, y, "b", "where")
        if rng.random() < 0.15 and _broadcasts([c, a, b]):
            shape = list(torch.broadcast_shapes(*[t.shape for t in (c, a, b) if isinstance(t, torch.Tensor)]))
            R.torch_case(f"fuzz-{i}-{x}-{y}-out", torch.where, [c, a, b], out=(out_dtype(rng), shape))
        else:
            R.torch_case(f"fuzz-{i}-{x}-{y}", torch.where, [c, a, b])
    return R.cases


def clamp():
    R = G.Recorder("clamp")
    rng = G.rng_for("fuzz-clamp")
    for i, (x, y) in enumerate([(x, y) for x in STD for y in STD]):
        sx = random_shape(rng)
        t = operand(rng, x, sx, "a", "clamp")
        if rng.random() < 0.5:
            lo = operand(rng, y, broadcast_partner(rng, sx), "a", "clamp")
            hi = operand(rng, y, broadcast_partner(rng, sx), "b", "clamp")
        else:
            lo = python_scalar(rng, y, "a", "clamp")
            hi = python_scalar(rng, y, "b", "clamp") if rng.random() < 0.8 else python_scalar(rng, "bool", "b", "clamp")
        if rng.random() < 0.1:
            R.torch_case(f"fuzz-{i}-{x}-{y}-inplace", torch.clamp, [t, lo, hi], inplace="clamp_")
        else:
            R.torch_case(f"fuzz-{i}-{x}-{y}", torch.clamp, [t, lo, hi])
    return R.cases


def main(only):
    """Writes every op's file, or only those named on the command line."""
    G.setup()
    total = 0
    count = 0
    jobs = [(op, lambda op=op: binary(op)) for op in BINARY] + [(op, lambda op=op: unary(op)) for op in UNARY]
    jobs += [(op, lambda op=op: kw_unary(op)) for op in KW_UNARY]
    jobs += [("where", where), ("clamp", clamp)]
    unknown = set(only) - {op for op, _ in jobs}
    if unknown:
        raise SystemExit(f"unknown ops {sorted(unknown)}; ops: {[op for op, _ in jobs]}")
    if only:
        jobs = [(op, job) for op, job in jobs if op in only]
    for op, job in jobs:
        cases = job()
        _, size, n = G.write(OUT, op, cases)
        total += size
        count += n
    print(f"{OUT.relative_to(G.ROOT)}: {len(jobs)} files, {count} cases, {total / 1024 / 1024:.2f} MiB")
    assert total < 4_000_000, "the corpus should stay a few MB"


if __name__ == "__main__":
    main(sys.argv[1:])
