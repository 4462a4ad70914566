#!/usr/bin/env python3
"""Writes runtime/src/test/resources/golden/elementwise/<op>.json: results of the built-in
elementwise ops from real PyTorch (and NumPy where PyTorch has no CPU kernel).

Run with the oracle venv: PY=$(tools/oracle/venv.sh); "$PY" tools/oracle/gen_elementwise.py
Deterministic: values come from generators seeded by the op name, torch runs on one thread, and
a rerun gives byte-identical files. (Transcendental results are those of this machine's torch
build and CPU: a CPU with another vector ISA may differ in the last ulp.)

Format (docs/golden-format.md has the full text):

  {"op": "add", "torch": "2.13.0+cpu", "numpy": "2.4.6", "cases": [CASE, ...]}
  CASE   = {"id": "<short unique id>", "source": "torch" | "numpy",
            "args": [ARG, ...],                 positional operands in order
            "kwargs": {"alpha": SCALAR},        omitted when empty
            "inplace": false,                   true: args[0].<op>_(*args[1:]) (a.add_(b))
            "out": null | {"dtype": "float32", "shape": [..]},   out= tensor (zeros)
            "result": TENSOR | null, "error": null | str(exception), "error_type": null | "RuntimeError"}
  ARG    = TENSOR | {"scalar": SCALAR}
  SCALAR = {"bool": true} | {"int": "-5"} | {"float": "0x400c000000000000"}
           int as a decimal string; float as the hex of its IEEE-754 float64 bits
  TENSOR = {"dtype": "int32", "shape": [2, 3], "strides": [1, 2] (only for a non-contiguous
            input; in elements; 0 on expanded dims), "data": ["0x...", ...]}
  data: elements in row-major logical order, each the lower-case zero-padded hex of its raw
  storage bits at the dtype's width (bool "0x01", int8 -1 "0xff", float16 1.0 "0x3c00");
  complex as two entries [re, im] per element. Zero-dim: shape [] and one element. result: the
  dtype, shape and data torch returned (in-place / out=: the target after the call).

Notes on how cases were run:
  - A Python scalar in the first position of a comparison (lt(2, t)) is run as the mirrored
    comparison (gt(t, 2)), as Python's operators do; torch.lt itself refuses a scalar first.
  - maximum/minimum/logical_* have no Python-scalar overloads in torch: those cases record the
    TypeError; their wrapped-scalar semantics are covered only through zero-dim tensors.
  - source "numpy" cases: uint16/uint32/uint64 same-dtype tensors where torch has no CPU kernel;
    ops that torch computes in the default float dtype (div, exp, log, ...) are called with
    dtype=np.float32, matching torch's integer-to-float promotion.
"""
import operator

import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import numpy as np
import torch

import golden_common as G
from golden_common import FLOATS, COMPLEX, FLOAT8, UINTS, STD, EXTRA, make, make_np

OUT = G.ROOT / "runtime/src/test/resources/golden/elementwise"

BINARY = ["add", "sub", "mul", "div", "floor_divide", "remainder", "maximum", "minimum", "pow",
          "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
          "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"]
UNARY = ["logical_not", "bitwise_not", "neg", "abs", "sign", "exp", "log", "sqrt", "sin", "cos",
         "tanh", "sigmoid"]
# Issue 27, item 1: PyTorch's pointwise ops (torch namespace) and the torch.nn.functional
# activations, the latter called through torch._C._nn (which has the out= forms) under the name of
# their Java op (gelu_tanh is gelu(approximate='tanh')).
BINARY += ["atan2", "copysign", "fmod", "hypot", "logaddexp", "logaddexp2", "xlogy", "heaviside"]
UNARY += ["acos", "asin", "atan", "tan", "sinh", "cosh", "asinh", "acosh", "atanh", "deg2rad",
          "rad2deg", "exp2", "expm1", "log10", "log1p", "log2", "logit", "reciprocal", "rsqrt",
          "sinc", "square", "relu", "floor", "ceil", "round", "trunc", "frac", "isnan", "isinf",
          "isfinite", "isposinf", "isneginf", "signbit"]
# Issue 27's leftovers (issue 26 item 3's SpecialMath behind them).
UNARY += ["erf", "erfc", "lgamma", "digamma", "nan_to_num"]
# Issue 27's last leftovers: nextafter (float32 steps in float32); round's decimals are kwargs
# cases of round (ACTIVATION_KWARGS).
BINARY += ["nextafter"]
NN = {"silu": ("silu", {}), "mish": ("mish", {}), "hardswish": ("hardswish", {}),
      "hardsigmoid": ("hardsigmoid", {}), "elu": ("elu", {}), "leaky_relu": ("leaky_relu", {}),
      "softplus": ("softplus", {}), "gelu_tanh": ("gelu", {"approximate": "tanh"}),
      "gelu": ("gelu", {})}
UNARY += list(NN)
CMP = ["eq", "ne", "lt", "le", "gt", "ge"]
MIRROR = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}
INT_TO_FLOAT = {"div", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid",
                "acos", "asin", "atan", "tan", "sinh", "cosh", "asinh", "acosh", "atanh", "deg2rad",
                "rad2deg", "exp2", "expm1", "log10", "log1p", "log2", "logit", "reciprocal", "rsqrt",
                "sinc", "atan2", "copysign", "xlogy", "erf", "erfc", "lgamma", "digamma"}
ZERO_DIV = {"floor_divide", "remainder", "fmod"}
SHIFTS = {"bitwise_left_shift", "bitwise_right_shift"}
BITWISE = {"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not"} | SHIFTS

NP = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
      "floor_divide": np.floor_divide, "remainder": np.remainder, "maximum": np.maximum,
      "minimum": np.minimum, "pow": np.power, "eq": np.equal, "ne": np.not_equal, "lt": np.less,
      "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
      "logical_and": np.logical_and, "logical_or": np.logical_or, "logical_xor": np.logical_xor,
      "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
      "bitwise_left_shift": np.left_shift, "bitwise_right_shift": np.right_shift,
      "logical_not": np.logical_not, "bitwise_not": np.invert, "neg": np.negative,
      "abs": np.absolute, "sign": np.sign, "exp": np.exp, "log": np.log, "sqrt": np.sqrt,
      "sin": np.sin, "cos": np.cos, "tanh": np.tanh, "where": np.where, "clamp": np.clip,
      "fmod": np.fmod, "square": np.square, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc,
      "round": np.round, "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite,
      "isposinf": np.isposinf, "isneginf": np.isneginf, "signbit": np.signbit}
# (no np.heaviside: it returns float64 for unsigned operands, where torch keeps the dtype)


def torch_fn(op):
    """The callable a case runs; Python scalars first in a comparison use the mirror."""
    if op in NN:
        name, fixed = NN[op]
        g = getattr(torch._C._nn, name)
        return lambda *a, **kw: g(*a, **fixed, **kw)
    f = getattr(torch, op)
    if op in CMP:
        g = getattr(torch, MIRROR[op])

        def cmp(a, b, **kw):
            return f(a, b, **kw) if isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor) else g(b, a, **kw)
        return cmp
    return f


def np_fn(op):
    f = NP[op]
    if op in INT_TO_FLOAT:
        return lambda *a: f(*a, dtype=np.float32)
    return f


# ---------------------------------------------------------------- values

def rand_vals(rng, n, k, op=None, role="a"):
    """k random values fit for dtype n (no overflow in ordinary cases) and the op/operand role."""
    if n == "bool":
        v = [bool(x) for x in rng.integers(0, 2, k)]
        if op in ZERO_DIV and role == "b":
            v = [True] * k
        return v
    if n in G.INTS:
        lo, hi = {"uint8": (0, 15), "int8": (-10, 10), "int16": (-100, 100)}.get(n, (0, 1000) if n in UINTS else (-1000, 1000))
        if op == "pow":
            lo, hi = (0, 5) if role == "b" else ((0, 4) if n.startswith("u") else (-4, 4))
        if op in SHIFTS and role == "b":
            lo, hi = 0, min(7, G.bits(n) - 1)
        if op in ("log", "sqrt") and n.startswith("u") is False:
            lo = min(lo, -5)
        v = [int(x) for x in rng.integers(lo, hi + 1, k)]
        if op in ZERO_DIV and role == "b":
            v = [x if x != 0 else 3 for x in v]
        return v
    scale = 3.0 if n in FLOAT8 else 8.0
    if op == "pow" and role == "b":
        return [float(x) for x in rng.choice([-2.0, -1.0, 0.0, 0.5, 1.0, 2.0, 3.0, 2.5], k)]
    v = [round(float(x), 2) for x in rng.uniform(-scale, scale, k)]
    if n in COMPLEX:
        im = [round(float(x), 2) for x in rng.uniform(-scale, scale, k)]
        return [complex(a, b) for a, b in zip(v, im)]
    return v


def float_edges(n):
    fi = torch.finfo(G.tdt(n))
    sub = float(fi.tiny) * 2.0 ** -G.NMANT.get(n, 3)
    return [float("nan"), 0.0, -0.0, float("inf"), float("-inf"), 1.0, -1.0, 2.5, -3.0, 0.5,
            sub, float(fi.tiny), float(fi.max), -float(fi.max), 7.0, -0.75]


def complex_edges():
    nan, inf = float("nan"), float("inf")
    return [complex(0.0, 0.0), complex(-0.0, -0.0), complex(1, 0), complex(0, 1), complex(-1.5, 2),
            complex(nan, 0), complex(inf, 0), complex(0, -inf), complex(3, -4), complex(1e38, 1e38)]


def int_edges(n):
    if n == "bool":
        return [False, True]
    lo, hi = G.irange(n)
    vals = [0, 1, 2, 3, 7, hi, hi - 1, lo, lo + 1]
    if lo < 0:
        vals += [-1, -2, -7]
    return vals


def edges(n):
    if n in COMPLEX:
        return complex_edges()
    if n in FLOATS:
        return float_edges(n)
    return int_edges(n)


def edge_pairs(op, n):
    """(a, b) value pairs for the edge cases of a binary op on dtype n."""
    if op in SHIFTS and n in G.INTS:
        b_vals = [0, 1, 2, G.bits(n) - 1, G.bits(n), G.bits(n) + 1, 2 * G.bits(n)]
        b_vals += [-1, -G.bits(n)] if not n.startswith("u") else []
        lo, hi = G.irange(n)
        b_vals = [b for b in b_vals if lo <= b <= hi]
        a_vals = [1, 5, hi, lo] + ([-1, -5] if lo < 0 else [])
        return [(a, b) for a in a_vals for b in b_vals]
    e = edges(n)
    pairs = [(a, b) for a in e for b in e]
    if n in G.INTS or n == "bool":
        if op in ZERO_DIV:
            pairs = [(a, b) for a, b in pairs if b != 0]
        if op == "pow":
            pairs = [(a, b) for a, b in pairs if b >= 0]
    return pairs


def chunks(seq, k=24):
    return [seq[i:i + k] for i in range(0, len(seq), k)]


# ---------------------------------------------------------------- binary ops

MIXED = [("int32", "float32"), ("uint8", "int8"), ("bool", "int32"), ("int64", "float16"),
         ("bfloat16", "float16"), ("float16", "float32"), ("int8", "uint8"), ("float32", "float64"),
         ("int32", "complex64"), ("float64", "complex64"), ("bool", "float16"), ("uint8", "bfloat16")]


def binary(op):
    R = G.Recorder(op)
    rng = G.rng_for(op)
    fn = torch_fn(op)
    # torch has no Tensor.maximum_ / minimum_: no in-place cases for those ops
    inplace = op + "_" if hasattr(torch.Tensor, op + "_") else None
    no_scalar = op in ("maximum", "minimum", "logical_and", "logical_or", "logical_xor")

    def T(n, shape, role="a", vals=None):
        k = int(np.prod(shape)) if shape else 1
        return make(n, vals if vals is not None else rand_vals(rng, n, k, op, role), shape)

    # same dtype, random: every dtype torch knows (its refusals are recorded)
    for n in STD + EXTRA:
        c = R.torch_case(f"same-{n}", fn, [T(n, [2, 3]), T(n, [2, 3], "b")])
        if n in UINTS and c["error"] is not None and op in NP:
            R.numpy_case(f"np-same-{n}", np_fn(op), [make_np(n, rand_vals(rng, n, 6, op, "a"), [2, 3]),
                                                     make_np(n, rand_vals(rng, n, 6, op, "b"), [2, 3])])
    # same dtype, edge values (NaN, +-0, +-inf, subnormal, max, integer min/max, wraparound)
    for n in STD + UINTS:
        pairs = edge_pairs(op, n)
        for i, ch in enumerate(chunks(pairs)):
            a, b = [p[0] for p in ch], [p[1] for p in ch]
            if n in UINTS:
                c = R.torch_case(f"edge-{n}-{i}", fn, [make(n, a), make(n, b)])
                if c["error"] is not None and op in NP:
                    R.cases.pop()
                    R.numpy_case(f"np-edge-{n}-{i}", np_fn(op), [make_np(n, a), make_np(n, b)])
            else:
                R.torch_case(f"edge-{n}-{i}", fn, [make(n, a), make(n, b)])
    # every ordered pair of distinct standard dtypes
    for x in STD:
        for y in STD:
            if x != y:
                R.torch_case(f"mix-{x}-{y}", fn, [T(x, [4]), T(y, [4], "b")])
    # unsigned 16/32/64 with other dtypes (torch refuses most promotions)
    for u in UINTS:
        for y in ["bool", "uint8", "int32", "float32"]:
            R.torch_case(f"mix-{u}-{y}", fn, [T(u, [3]), T(y, [3], "b")])
            R.torch_case(f"mix-{y}-{u}", fn, [T(y, [3]), T(u, [3], "b")])
    # broadcasting
    shapes = [([3, 1], [1, 4]), ([2, 3], [3]), ([], [2]), ([2], []), ([0, 3], [1, 3]), ([1, 3], [0, 3]),
              ([2, 1, 3, 1], [1, 4, 1, 2]), ([2, 3], [4]), ([0], [2])]
    for n in ["float32", "int32"]:
        for sa, sb in shapes:
            R.torch_case(f"bcast-{n}-{sa}-{sb}".replace(" ", ""), fn, [T(n, sa), T(n, sb, "b")])
    R.torch_case("bcast-int32-float32-[3,1]-[1,4]", fn, [T("int32", [3, 1]), T("float32", [1, 4], "b")])
    R.torch_case("bcast-uint8-int8-[4,1]-[3]", fn, [T("uint8", [4, 1]), T("int8", [3], "b")])
    # non-contiguous inputs: a transposed view, an expanded (stride 0) view
    for n in ["float32", "int32", "float16"]:
        R.torch_case(f"noncontig-T-{n}", fn, [T(n, [3, 2]).t(), T(n, [2, 3], "b")])
        R.torch_case(f"noncontig-TT-{n}", fn, [T(n, [2, 3]), T(n, [3, 2], "b").t()])
        R.torch_case(f"noncontig-expand-{n}", fn, [T(n, [3]).expand(2, 3), T(n, [2, 3], "b")])
    R.torch_case("noncontig-slice-float64", fn, [T("float64", [2, 6])[:, ::2], T("float64", [2, 3], "b")])
    # Python scalars in both positions, zero-dim tensors (the promotion categories)
    scalars = [True, False, 3, -2, 2.5, -0.5]
    if op in SHIFTS:
        scalars = [True, 3, 2.5]
    if op == "pow":
        scalars = [True, 2, 0, 2.5, -1.5]
    if op in ZERO_DIV:
        scalars = [True, 3, -2, 2.5, -0.5]
    if no_scalar:  # torch refuses Python scalars here (TypeError): one case each way records it
        R.torch_case("scalar-int32-3", fn, [T("int32", [4]), 3])
        R.torch_case("scalar-3-int32", fn, [3, T("int32", [4], "b")])
    for n in ([] if no_scalar else ["bool", "uint8", "int8", "int32", "int64", "float16", "bfloat16", "float32", "float64", "complex64"]):
        for s in scalars:
            R.torch_case(f"scalar-{n}-{s}", fn, [T(n, [4]), s])
            R.torch_case(f"scalar-{s}-{n}", fn, [s, T(n, [4], "b")])
    if not no_scalar:
        R.torch_case("scalar-int8-1000", fn, [T("int8", [4]), 1000])
        R.torch_case("scalar-uint8--1", fn, [T("uint8", [4]), -1])
        R.torch_case("scalar-float16-1e5", fn, [T("float16", [4]), 1e5])
        R.torch_case("scalar-float16-0.1", fn, [T("float16", [4]), 0.1])
        R.torch_case("scalar-int64-2^63-1", fn, [T("int64", [4]), 2 ** 63 - 1])
        R.torch_case("scalar-int64-2^64", fn, [T("int64", [4]), 2 ** 64])
    zd = [("int32", "float64"), ("uint8", "int8"), ("float16", "float64"), ("int8", "int64"), ("bool", "int32"),
          ("float32", "complex128"), ("int32", "bool"), ("bfloat16", "float32"), ("int64", "float16"),
          ("uint8", "float32"), ("float16", "complex128")]
    for x, y in zd:
        R.torch_case(f"zerodim-{x}-{y}0", fn, [T(x, [3]), T(y, [], "b")])
        R.torch_case(f"zerodim-{y}0-{x}", fn, [T(y, []), T(x, [3], "b")])
        R.torch_case(f"zerodim-{x}0-{y}0", fn, [T(x, []), T(y, [], "b")])
    for n in [] if no_scalar else ["int32", "float16", "bool"]:
        for s in [2, 2.5, True]:
            R.torch_case(f"zerodim-{n}0-scalar-{s}", fn, [T(n, []), s])
    # alpha
    if op in ("add", "sub"):
        for n, al in [("int32", 2), ("int64", -3), ("uint8", 3), ("float32", 2), ("float16", -3), ("float32", 0.5),
                      ("bfloat16", 0.1), ("float64", -2.5), ("complex64", 0.5), ("int32", 2.5), ("int32", True),
                      ("bool", True), ("bool", 2), ("float32", True), ("int8", 100)]:
            R.torch_case(f"alpha-{n}-{al}", fn, [T(n, [2, 3]), T(n, [2, 3], "b")], {"alpha": al})
        R.torch_case("alpha-int32-float32-2", fn, [T("int32", [3]), T("float32", [3], "b")], {"alpha": 2})
        R.torch_case("alpha-float32-scalar-3", fn, [T("float32", [3]), 1.5], {"alpha": 3})
        R.torch_case("alpha-int32-scalar-3", fn, [T("int32", [3]), 4], {"alpha": -3})
        R.torch_case("alpha-bcast", fn, [T("float32", [3, 1]), T("float32", [4], "b")], {"alpha": 0.25})
    # in-place
    for n in [] if inplace is None else ["float32", "int32", "uint8", "float16", "bfloat16", "bool", "int64", "complex64"]:
        R.torch_case(f"inplace-{n}", fn, [T(n, [2, 3]), T(n, [2, 3], "b")], inplace=inplace)
    for x, y in [("int32", "float32"), ("float32", "int32"), ("float16", "float64"), ("uint8", "int8"),
                 ("int8", "int64"), ("bool", "int32"), ("float32", "complex64"), ("int32", "bool"),
                 ("bfloat16", "float16")]:
        if inplace is not None:
            R.torch_case(f"inplace-{x}-{y}", fn, [T(x, [2, 3]), T(y, [2, 3], "b")], inplace=inplace)
    inplace_cases(R, fn, T, inplace, no_scalar)
    # out=
    for x, y, o in [("float32", "float32", "float64"), ("float32", "float32", "int32"), ("int32", "int32", "float32"),
                    ("int32", "int32", "int8"), ("float32", "float32", "float16"), ("float32", "float32", "complex64"),
                    ("int32", "int32", "bool"), ("float32", "float32", "bool"), ("int32", "float32", "float32"),
                    ("uint8", "int8", "uint8"), ("float64", "float64", "bfloat16"), ("complex64", "complex64", "float32")]:
        R.torch_case(f"out-{x}-{y}-{o}", fn, [T(x, [2, 3]), T(y, [2, 3], "b")], out=(o, [2, 3]))
    R.torch_case("out-bcast", fn, [T("float32", [3, 1]), T("float32", [4], "b")], out=("float32", [3, 4]))
    op_specific_binary(op, R, fn, T)
    bool_scalar_cases(op, R, fn, inplace)
    half_scalar_cases(op, R, fn, inplace)
    return R.cases


def bool_scalar_cases(op, R, fn, inplace):
    """A Python bool beside a tensor (issue 12, item 7): in place (a.add_(True)) and with out=;
    the plain forms are the scalar-<dtype>-True cases above. Explicit values: no draw from the
    op's generator, so the cases before these stay as they were."""
    vals = {"int32": [1, -2, 3], "bool": [True, False, True], "float16": [0.5, -2.0, 3.0],
            "uint8": [0, 7, 255], "float64": [1.5, -0.0, 2.0], "int64": [5, 0, -7]}
    if inplace is not None:
        for n, s in [("int32", True), ("bool", True), ("float16", False), ("uint8", True), ("bool", False)]:
            R.torch_case(f"bool-inplace-{n}-{s}", fn, [make(n, vals[n]), s], inplace=inplace)
    for n, s, o in [("int32", True, "int64"), ("float64", False, "float64"), ("bool", True, "bool"),
                    ("bool", True, "int32"), ("int64", True, "float32")]:
        R.torch_case(f"bool-out-{n}-{s}-{o}", fn, [make(n, vals[n]), s], out=(o, [3]))
        R.torch_case(f"bool-out-{s}-{n}-{o}", fn, [s, make(n, vals[n])], out=(o, [3]))
    R.torch_case("bool-zerodim-int8", fn, [make("int8", [3], []), True])


# Python's operators: a Java number on the left (Ops.mul(1e5, h)) is the Python expression
# 1e5 * h, which PyTorch evaluates as h.__rmul__(1e5) = torch.mul(h, 1e5), and 1e5 / h as
# h.reciprocal() * 1e5; torch.mul(1e5, h) itself rounds the number to float16 first (NaN for h = 0).
OPERATORS = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv,
             "floor_divide": operator.floordiv, "remainder": operator.mod, "pow": operator.pow}


def half_scalar_cases(op, R, fn, inplace):
    """A single value of another dtype beside a float16/bfloat16 tensor (issue 12, item 8).
    PyTorch's mul, div and floor_divide read it as the second operand at float32 precision
    (float16 65504 * 1.0004 is inf, 0.5 * 1e5 is 49984); every op is recorded, so the golden
    test also sees the ops that round it to the tensor's dtype first. A number first is run as
    Python's operator (issue 23, item 6)."""
    f16 = [0.5, 1.0, 3.0, 65504.0, -0.75, 1e-3, 2049.0, 6e-8]
    bf = [0.5, 1.0, 3.0, 3.3e38, -0.75, 1e-3, 257.0, 1e-40]
    big = [1e5, 1.0004, 0.1, 1e-5, 70000, 2049, 3.0000001, -1e-7, 1e39, 2 ** 24 + 1]
    for n, v in [("float16", f16), ("bfloat16", bf)]:
        for s in big:
            R.torch_case(f"half-scalar-{n}-{s}", fn, [make(n, v), s])
        R.torch_case(f"half-scalar-first-{n}-1e5", OPERATORS.get(op, fn), [1e5, make(n, v)])
        R.torch_case(f"half-zerodim-float64-{n}", fn, [make(n, v), make("float64", [1.0004], [])])
        R.torch_case(f"half-zerodim-float32-{n}", fn, [make(n, v), make("float32", [0.1], [])])
        R.torch_case(f"half-zerodim-int64-{n}", fn, [make(n, v), make("int64", [70001], [])])
        R.torch_case(f"half-one-int32-{n}", fn, [make(n, v), make("int32", [70001], [1])])
        R.torch_case(f"half-one-int32-first-{n}", fn, [make("int32", [70001], [1]), make(n, v)])
        R.torch_case(f"half-one-1x1-float64-{n}", fn, [make(n, v).reshape(2, 4), make("float64", [1.0004], [1, 1])])
        R.torch_case(f"half-expanded-int32-{n}", fn, [make(n, v), make("int32", [70001], [1]).expand(8)])
        R.torch_case(f"half-same-dtype-one-{n}", fn, [make(n, v), make(n, [3.0], [1])])
        R.torch_case(f"half-both-zerodim-{n}", fn, [make(n, [0.5], []), 1e5])
        R.torch_case(f"half-out-float32-{n}", fn, [make(n, v), 1.0004], out=("float32", [8]))
        R.torch_case(f"half-out-float64-{n}", fn, [make(n, v), 0.1], out=("float64", [8]))
        if inplace is not None:
            R.torch_case(f"half-inplace-{n}-1e5", fn, [make(n, v), 1e5], inplace=inplace)
            R.torch_case(f"half-inplace-{n}-0.1", fn, [make(n, v), 0.1], inplace=inplace)
        R.torch_case(f"half-strided-{n}", fn, [make(n, v + v)[::2], 1.0004])
    half_operator_cases(op, R, fn)


def half_operator_cases(op, R, fn):
    """A Python number in both orders beside a float16/bfloat16 tensor, run as Python's operators
    (issue 23, item 6): the edge values 0, +-0, inf, nan, subnormals, the largest finite, numbers
    the 16-bit dtype holds and numbers it does not (1e5, 2048 + 1.0004, 0.1, 1/3)."""
    f = OPERATORS.get(op)
    if f is None:
        return
    vals = {"float16": [0.0, -0.0, 2.0, 3.0, 7.0, 0.5, -0.75, 65504.0, -65504.0, 6e-8, 6.1e-5,
                        1e-3, 2049.0, 31.98, float("inf"), float("nan")],
            "bfloat16": [0.0, -0.0, 2.0, 3.0, 7.0, 0.5, -0.75, 3.3e38, -3.3e38, 1e-40, 1.2e-38,
                         1e-3, 257.0, 31.98, float("inf"), float("nan")]}
    numbers = [1e5, 2048 + 1.0004, 1.0004, 0.1, 1 / 3, 65504.0, 70000, 2049, 3.0000001, -1e-7,
               6e-8, 1e-40, 0.0, float("inf"), float("nan"), 1e39, 2.5]
    if op == "pow":
        numbers = [1.0004, 0.1, 1 / 3, 2.5, 0.0, 2049, 3.0000001]
    if op == "floor_divide":
        # 2049 and 2048 + 1.0004 round to 2050 / 2048, where PyTorch's vectorised 16-bit
        # floor_divide rounds a - fmod(a, b) to the 16-bit dtype before dividing (2050 // 3 is
        # 682 in a vector, 683 in its one-element path, which ufunc4j follows; docs/ops.md).
        numbers = [x for x in numbers if x not in (2049, 2048 + 1.0004)]
    for n, v in vals.items():
        for s in numbers:
            R.torch_case(f"half-op-{n}-{s}", f, [make(n, v), s])
            # A number the 16-bit dtype holds keeps torch.div's one rounding in ufunc4j (Python's
            # s / t is t.reciprocal() * s, two roundings); one it does not hold is Python's.
            left = fn if op == "div" and holds(n, s) else f
            R.torch_case(f"half-op-{s}-{n}", left, [s, make(n, v)])


def holds(n, s):
    """Whether dtype n holds the float32 value of the Python number s exactly (nan counts)."""
    f = torch.tensor(s, dtype=torch.float32)
    return bool(torch.isnan(f)) or float(f.to(G.tdt(n))) == float(f)


def inplace_cases(R, fn, T, inplace, no_scalar):
    if inplace is None:
        return
    R.torch_case("inplace-bcast-other", fn, [T("float32", [3, 4]), T("float32", [4], "b")], inplace=inplace)
    R.torch_case("inplace-bcast-target", fn, [T("float32", [3, 1]), T("float32", [1, 4], "b")], inplace=inplace)
    R.torch_case("inplace-expanded-target", fn, [T("float32", [4]).expand(3, 4), T("float32", [3, 4], "b")], inplace=inplace)
    R.torch_case("inplace-transposed-target", fn, [T("float32", [3, 2]).t(), T("float32", [2, 3], "b")], inplace=inplace)
    if not no_scalar:
        R.torch_case("inplace-int32-scalar-2.5", fn, [T("int32", [4]), 2.5], inplace=inplace)
    if not no_scalar:
        R.torch_case("inplace-int32-scalar-3", fn, [T("int32", [4]), 3], inplace=inplace)
    if not no_scalar:
        R.torch_case("inplace-float16-scalar-0.1", fn, [T("float16", [4]), 0.1], inplace=inplace)
    R.torch_case("inplace-int32-zerodim-float64", fn, [T("int32", [4]), T("float64", [], "b")], inplace=inplace)
    R.torch_case("inplace-zerodim-target", fn, [T("float32", []), T("float32", [3], "b")], inplace=inplace)


def op_specific_binary(op, R, fn, T):
    f16, bf = "float16", "bfloat16"
    if op in ("add", "sub", "mul", "div"):
        # float16 / bfloat16 round-to-nearest-even ties and overflow to inf
        if op == "add":
            ties = {f16: ([2048, 2050, 2048, -2048, 1, 65504, 65504, 60000], [1, 1, 3, -1, 2 ** -11, 16, 32, 10000]),
                    bf: ([256, 258, 256, 1, 1, 3.3895313892515355e38, -256, 1024], [1, 1, 3, 2 ** -8, 3 * 2 ** -9, 3e38, -1, 4])}
        elif op == "sub":
            ties = {f16: ([2048, 2052, 2049 - 1, -65504, 1], [-1, -1, -3, 32, -2 ** -11]),
                    bf: ([256, 260, -3.3895313892515355e38, 1], [-1, -2, 3e38, -(2 ** -8)])}
        elif op == "mul":
            ties = {f16: ([1025, 1027, 2049 / 2 + 0.5, 300, 256, 2 ** -14, 2 ** -24], [2, 2, 2, 300, 256, 0.5, 0.5]),
                    bf: ([129, 131, 1e20, 2 ** -126, 2 ** -133], [2, 2, 1e20, 0.5, 0.5])}
        else:
            ties = {f16: ([2049, 2051, 1, 65504, 1, 2 ** -24], [1, 1, 3, 0.5, 0, 2]),
                    bf: ([257, 259, 1, 3e38, -1, 2 ** -133], [1, 1, 3, 0.25, 0, 2])}
        for n, (a, b) in ties.items():
            # the operands are exact in the dtype (ties are made by the op, not by the input cast)
            R.torch_case(f"rne-{n}", fn, [make(n, a), make(n, b)])
            R.torch_case(f"rne-{n}-f32-compute", fn, [make(n, a), make("float32", b)])
    if op in ("add", "sub", "mul"):
        for n, a, b in [("int8", [127, -128, 100], [1, -1, 100]), ("uint8", [255, 0, 200], [1, 1, 100]),
                        ("int16", [32767, -32768, 300], [1, 1, 300]), ("int32", [2 ** 31 - 1, -2 ** 31, 65536], [1, 1, 65536]),
                        ("int64", [2 ** 63 - 1, -2 ** 63, 2 ** 32], [1, 1, 2 ** 32])]:
            R.torch_case(f"wrap-{n}", fn, [make(n, a), make(n, b)])
    if op in ZERO_DIV or op == "div":
        for n in ["int8", "int32", "int64", "uint8", "bool", "int16"]:
            a = [5, -5, 0] if n not in ("uint8", "bool") else [5, 3, 0]
            R.torch_case(f"divzero-{n}", fn, [make(n, a), make(n, [0, 1, 2])])
            R.torch_case(f"divzero-scalar-{n}", fn, [make(n, a), 0])
        for n in ["int32", "int64", "int8"]:
            R.torch_case(f"divzero-inplace-{n}", fn, [make(n, [7, -7, 9, 4]), make(n, [2, 0, 3, 2])], inplace=op + "_")
        for n in ["float32", "float64", "float16", "bfloat16"]:
            R.torch_case(f"divzero-{n}", fn, [make(n, [1, -1, 0, -0.0, float("nan"), float("inf")]), make(n, [0, 0, 0, 0, 0, -0.0])])
            R.torch_case(f"divzero-neg-{n}", fn, [make(n, [1, -1, 0, -0.0, float("nan"), float("inf")]), make(n, [-0.0] * 6)])
    if op in ZERO_DIV:
        for n in ["int8", "int32", "int64"]:
            a = [7, -7, 7, -7, 6, -6, 1, -1, 0]
            b = [2, 2, -2, -2, -3, 3, -5, 5, -3]
            R.torch_case(f"sign-{n}", fn, [make(n, a), make(n, b)])
            lo, _ = G.irange(n)
            R.torch_case(f"min-by-minus1-{n}", fn, [make(n, [lo, lo, lo + 1]), make(n, [-1, 1, -1])])
        for n in FLOATS:
            a = [7, -7, 7, -7, -2.0, 2.0, -0.0, 0.0, 5.5, -5.5, 1.0, -1.0, float("inf"), 3.0, 1e-3]
            b = [2, 2, -2, -2, 2.0, -2.0, 2.0, -2.0, 2.5, 2.5, float("inf"), float("inf"), 2.0, float("-inf"), -1.0]
            R.torch_case(f"sign-{n}", fn, [make(n, a), make(n, b)])
        R.torch_case("sign-scalar-float32--2.0", fn, [make("float32", [-2.0, 2.0, -0.0, 4.0]), 2.0])
        R.torch_case("sign-scalar--2.0-float32", fn, [-2.0, make("float32", [2.0, -2.0, 1.0, -0.0])])
        # Quotients past 2^24 (float32, 16-bit floats) and 2^53 (float64), up to overflow: fmod
        # is exact at any quotient (2147483648 % 3 is 2).
        huge = {
            "float32": ([2147483648.0, -2147483648.0, 1e30, -1e30, 3.4e38, 16777217.0, 1e15, 1.0, -1.0, 1e20, 7e37, 123456789.0],
                        [3.0, 3.0, 7.0, -7.0, 1.1, 3.0, 0.3, 1e-45, 1e-40, -0.1, 3e-38, 0.001]),
            "float64": ([2.0 ** 60, -(2.0 ** 60), 1e300, -1e300, 1.7e308, 2.0 ** 53 + 2, 1e20, 1.0, -1.0, 1e200, 3e-300, 123456789012345678.0],
                        [3.0, 3.0, 7.0, -7.0, 1.1, 3.0, 0.3, 5e-324, 1e-310, -0.1, 7e-320, 0.001]),
            "float16": ([65504.0, -65504.0, 60000.0, 1.0, -1.0, 32768.0, 1000.0, 2.0],
                        [0.001, 0.001, 6e-08, 6e-08, 1.2e-07, -0.0003, 3e-05, 6e-08]),
            "bfloat16": ([3.3e38, -3.3e38, 1e30, 1.0, -1.0, 2147483648.0, 1e20, 7.0],
                         [3.0, 3.0, -7.0, 1e-38, 1e-40, 3.0, 0.3, 1e-30]),
        }
        for n, (a, b) in huge.items():
            R.torch_case(f"huge-quotient-{n}", fn, [make(n, a), make(n, b)])
        R.torch_case("huge-quotient-scalar-float32", fn, [make("float32", [2147483648.0, 1e30, -3e38]), 3.0])
    if op == "pow":
        for n in ["int8", "int32", "int64", "uint8", "int16"]:
            if n != "uint8":
                R.torch_case(f"negexp-{n}", fn, [make(n, [2, 3, 1]), make(n, [1, -1, 2])])
            R.torch_case(f"negexp-scalar-{n}", fn, [make(n, [2, 3, 1]), -1])
            R.torch_case(f"negexp-scalarbase-{n}", fn, [2, make(n, [1, -1, 0] if n != "uint8" else [1, 2, 0])])
            R.torch_case(f"negexp-base1-{n}", fn, [make(n, [1, -1, 1, -1] if n != "uint8" else [1, 1, 1, 1]),
                                                   make(n, [-1, -1, -2, -3] if n != "uint8" else [1, 2, 3, 4])])
        R.torch_case("overflow-int32", fn, [make("int32", [2, 3, -2, 10]), make("int32", [31, 21, 33, 10])])
        R.torch_case("overflow-int8", fn, [make("int8", [2, 3, -2, 10]), make("int8", [7, 5, 8, 3])])
        R.torch_case("float-negbase", fn, [make("float32", [-8, -8, -0.0, -0.0, 0, 0, -1, -1, float("nan"), 1]),
                                           make("float32", [1 / 3, 2, -1, -2, -1, 0, float("inf"), float("-inf"), 0, float("nan")])])
        R.torch_case("scalar-exp-0.5-int32", fn, [make("int32", [4, 9, 2]), 0.5])
        R.torch_case("scalar-exp-2-float16", fn, [make("float16", [300, 256, 2]), 2])
    if op in CMP:
        R.torch_case("nan-float32", fn, [make("float32", [float("nan")] * 3 + [0.0, -0.0]), make("float32", [float("nan"), 1, float("inf"), -0.0, 0.0])])
        R.torch_case("int64-vs-float32-precision", fn, [make("int64", [2 ** 24 + 1, 2 ** 53 + 1]), make("float32", [2 ** 24, 2 ** 24])])
        R.torch_case("int64-vs-scalar-float", fn, [make("int64", [2 ** 53 + 1, 3]), float(2 ** 53)])
        R.torch_case("uint8-vs-scalar-neg", fn, [make("uint8", [0, 255, 1]), -1])
        R.torch_case("complex-order", fn, [make("complex64", [1 + 1j]), make("complex64", [1 + 2j])])
    if op in ("maximum", "minimum"):
        R.torch_case("nan-prop-float32", fn, [make("float32", [float("nan"), 1, float("nan"), -0.0, 0.0]), make("float32", [1, float("nan"), float("nan"), 0.0, -0.0])])
        R.torch_case("nan-prop-float16", fn, [make("float16", [float("nan"), 1, -0.0]), make("float16", [1, float("nan"), 0.0])])
    if op in ("logical_and", "logical_or", "logical_xor"):
        R.torch_case("truthy-float", fn, [make("float32", [float("nan"), -0.0, 0.0, 2.5]), make("float32", [1, 1, 1, 1])])
        R.torch_case("truthy-complex", fn, [make("complex64", [0j, 1j, -0.0 + 0j]), make("complex64", [1, 1, 1])])
    if op in SHIFTS:
        R.torch_case("scalar-shift-int32-40", fn, [make("int32", [1, -1, 5]), 40])
        R.torch_case("scalar-shift-int32--1", fn, [make("int32", [1, -1, 5]), -1])
        R.torch_case("int64-shift-63-64", fn, [make("int64", [1, -1, 2 ** 62]), make("int64", [63, 64, 1])])
        R.torch_case("mixed-int8-int64", fn, [make("int8", [1, -1, 64]), make("int64", [7, 8, 1])])


# ---------------------------------------------------------------- unary ops

UNARY_EXTRA = {
    "exp": [-1000.0, -104.0, -88.0, -20.0, 1e-10, 11.0, 88.7, 89.0, 709.0, 710.0],
    "log": [-1.0, -1e-30, 1e-30, 1e-45, 2.718281828459045, 1e300, 0.999, 1.001],
    "sqrt": [-1.0, -1e-30, 4.0, 2.0, 1e-45, 1e300, 0.25, 1e-320],
    "sin": [3.141592653589793, 1e10, 1e22, 1e300, -1e-30, 1.5707963267948966, 100.0, 6.0],
    "cos": [3.141592653589793, 1e10, 1e22, 1e300, -1e-30, 1.5707963267948966, 100.0, 6.0],
    "tanh": [20.0, -20.0, 1e-10, 0.55, 9.0, -9.5, 100.0, 1e-30],
    "sigmoid": [100.0, -100.0, 20.0, -20.0, 40.0, -40.0, 1e-10, -88.0, -89.0, -745.0],
}


# Extra values per new op: the regions of their piecewise definitions and their singularities.
UNARY_EXTRA.update({
    "acos": [0.5, -0.5, 0.99, -0.99, 1e-10, 1.0000001, -2.0], "asin": [0.5, -0.5, 0.99, -0.99, 1e-10, 1.0000001, -2.0],
    "atan": [1e-10, 0.4375, 0.6, 1.2, 2.4375, 3.0, 1e10, -1e30], "tan": [1.5707963267948966, 3.141592653589793, 1e10, 0.78, -0.1, 100.0, 1e-30],
    "sinh": [1e-10, 0.3, 0.9, 1.1, 20.0, 88.0, 89.5, 710.0, 711.0, -30.0], "cosh": [1e-10, 0.3, 0.9, 1.1, 20.0, 88.0, 89.5, 710.0, 711.0, -30.0],
    "asinh": [1e-10, 0.3, 1.9, 2.1, 1e5, 268435456.0, 3e8, 1e20, 1e300, -1e-30, -50.0],
    "acosh": [0.99, 1.0000001, 1.5, 1.9, 2.1, 1e5, 268435456.0, 3e8, 1e20, 1e300],
    "atanh": [1e-10, 0.3, 0.49, 0.51, 0.9, 0.999999, -0.999, 1.0000001, -2.0],
    "deg2rad": [180.0, 90.0, 1e300, 360.0], "rad2deg": [3.141592653589793, 1e300, 1e-300, 1.5707963267948966],
    "exp2": [-1000.0, -150.0, -126.5, -20.0, 1e-10, 10.0, 127.9, 128.0, 1023.0, 1024.0, 0.3],
    "expm1": [1e-10, -1e-10, 1e-5, -20.0, -40.0, 0.3, 11.0, 88.7, 89.0, 709.0, 710.0],
    "log10": [-1.0, 1e-30, 10.0, 100.0, 1000.0, 1e300, 1e-45, 0.999],
    "log1p": [-1.0, -0.999, -2.0, 1e-10, -1e-10, 1e-30, 0.4, 1e300, 0.999],
    "log2": [-1.0, 1e-30, 4.0, 8.0, 1024.0, 0.25, 1e300, 1e-45, 3.0],
    "logit": [0.25, 0.75, 1e-10, 0.999, 0.1, 0.9, 1e-30, -0.25],
    "erf": [0.5, -0.5, 1.0, 2.0, 3.5, 5.9, 6.0, 1e-30, 0.84375],
    "erfc": [0.5, -0.5, 1.0, 2.0, 5.0, 9.0, 10.0, 26.5, 27.3, -6.0, 1e-30],
    "lgamma": [1.0, 2.0, 0.5, -0.5, -1.0, -2.5, 3.0, 12.0, 1e10, 1e300, 1e-30, 1.0000001, 2.4],
    "digamma": [1.0, 2.0, 0.5, -0.5, -1.0, -2.5, 1.4616321, 12.0, 1e10, 1e-30, 30.0],
    "gelu": [1e-30, 0.5, -0.5, 3.0, -3.0, -6.0, -10.0, 10.0, -40.0],
    "nan_to_num": [3.4028234663852886e38, -3.4028234663852886e38, 65504.0, 1e300],
    "reciprocal": [3.0, 1e-40, 1e38, 1e-310, 1e300, 0.1], "rsqrt": [-1.0, 4.0, 2.0, 1e-45, 1e300, 0.25, 1e-320, 3.0],
    "sinc": [1e-10, -1e-30, 0.5, 1.5, 2.0, 1e10, 1e22, 0.25, 100.5],
    "square": [1e20, 1e-30, 3.0, 1e200], "relu": [1e-45, -1e-45], "frac": [1.5, -1.5, 1e10 + 0.5, 1e300, -0.25],
    "floor": [0.5, -0.5, 1.5, -1.5, 2.5, 1e300, 4503599627370495.5, -0.4],
    "ceil": [0.5, -0.5, 1.5, -1.5, 2.5, 1e300, 4503599627370495.5, -0.4],
    "round": [0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 1e300, 4503599627370495.5, 0.49999999999999994, -0.4],
    "trunc": [0.5, -0.5, 1.5, -1.5, 2.5, 1e300, 4503599627370495.5, -0.4],
    "silu": [20.0, -20.0, 100.0, -100.0, 1e-10, -88.0, -89.0, -745.0],
    "mish": [20.0, -20.0, 88.0, 89.0, 100.0, -100.0, 1e-10, 0.3],
    "hardswish": [-3.0, 3.0, -2.9, 2.9, 1.0, -1e-10], "hardsigmoid": [-3.0, 3.0, -2.9, 2.9, 1.0, -1e-10],
    "elu": [-1e-10, -20.0, -100.0, 1e-10, -0.3], "leaky_relu": [1e-45, -1e-45, -100.0],
    "softplus": [20.0, 20.5, 19.9, -20.0, -100.0, 40.0, 1e-10, -0.3, 100.0],
    "gelu_tanh": [20.0, -20.0, 5.0, -5.0, 1e-10, -0.3, 100.0, -100.0, 1e10],
})

# Keyword arguments of the activations (each a case over the edge values).
ACTIVATION_KWARGS = {
    "elu": [{"alpha": 0.5}, {"alpha": 2.0}],
    "leaky_relu": [{"negative_slope": 0.2}, {"negative_slope": -1.5}],
    "softplus": [{"beta": 2.0, "threshold": 10.0}, {"beta": 0.5, "threshold": 20.0}, {"beta": -1.0, "threshold": 5.0}],
    "logit": [{"eps": 1e-6}, {"eps": 0.25}, {"eps": 0.5}, {"eps": -1.0}],
    "nan_to_num": [{"nan": 1.5, "posinf": 100.0, "neginf": -100.0},
                   {"nan": -0.0, "posinf": 1e300, "neginf": -1e-300}],
    # torch.round(x, decimals=d): rint(x * 10^d) / 10^d (negative d: rint(x / 10^-d) * 10^-d) in
    # the compute dtype; 10^40 overflows float32, 10^400 float64.
    "round": [{"decimals": 1}, {"decimals": 2}, {"decimals": 3}, {"decimals": -1}, {"decimals": -2},
              {"decimals": 0}, {"decimals": 7}, {"decimals": 40}, {"decimals": -40}, {"decimals": 400}],
}
# Values for the keyword cases beyond the edges: decimal halves that are not exact in binary.
KWARGS_EXTRA = {"round": [2.675, 1.005, 123.456, -0.125, 1234.5678, 0.045, 1e-5, 10000000000.5,
                          -7.25, 0.15, 3.14159265, 99.995, -1e20, 5e-324]}


def unary(op):
    R = G.Recorder(op)
    rng = G.rng_for(op)
    fn = torch_fn(op)
    # the activations have no Tensor method (F.silu(x, inplace=True) calls torch._C._nn.silu_)
    # (nor do isnan and its family, nor signbit)
    # (nan_to_num's Java defaults are Ops.nanToNum(x) only: the in-place form takes the arguments)
    inplace = (op + "_" if hasattr(torch.Tensor, op + "_") and op not in NN and op != "nan_to_num"
               else None)

    def T(n, shape, vals=None):
        k = int(np.prod(shape)) if shape else 1
        return make(n, vals if vals is not None else rand_vals(rng, n, k, op), shape)

    for n in STD + EXTRA:
        c = R.torch_case(f"same-{n}", fn, [T(n, [2, 3])])
        if n in UINTS and c["error"] is not None and op in NP:
            R.numpy_case(f"np-same-{n}", np_fn(op), [make_np(n, rand_vals(rng, n, 6, op), [2, 3])])
    for n in STD + UINTS:
        e = edges(n)
        if n in FLOATS:
            e = e + UNARY_EXTRA.get(op, [])
        for i, ch in enumerate(chunks(e)):
            if n in UINTS:
                c = R.torch_case(f"edge-{n}-{i}", fn, [make(n, ch)])
                if c["error"] is not None:
                    R.cases.pop()
                    if op in NP:
                        R.numpy_case(f"np-edge-{n}-{i}", np_fn(op), [make_np(n, ch)])
            else:
                R.torch_case(f"edge-{n}-{i}", fn, [make(n, ch)])
    for n in ["float32", "int32", "float16"]:
        R.torch_case(f"noncontig-T-{n}", fn, [T(n, [3, 2]).t()])
        R.torch_case(f"noncontig-expand-{n}", fn, [T(n, [3]).expand(2, 3)])
    for n in ["float32", "int32", "bool", "float64"]:
        R.torch_case(f"zerodim-{n}", fn, [T(n, [])])
        R.torch_case(f"empty-{n}", fn, [T(n, [0, 3])])
    R.torch_case("rank4-float32", fn, [T("float32", [2, 1, 3, 2])])
    for n in [] if inplace is None else ["float32", "int32", "float16", "bool", "uint8", "int64", "complex64", "bfloat16"]:
        R.torch_case(f"inplace-{n}", fn, [T(n, [2, 3])], inplace=inplace)
    if inplace is not None:
        R.torch_case("inplace-expanded-target", fn, [T("float32", [4]).expand(3, 4)], inplace=inplace)
        R.torch_case("inplace-transposed-target", fn, [T("float32", [3, 2]).t()], inplace=inplace)
    for x, o in [("float32", "float64"), ("float32", "int32"), ("int32", "float32"), ("int32", "int64"),
                 ("int32", "int8"), ("float32", "float16"), ("float32", "bool"), ("bool", "bool"),
                 ("float32", "complex64"), ("complex64", "float32"), ("int32", "bool"), ("uint8", "int8")]:
        c = R.torch_case(f"out-{x}-{o}", fn, [T(x, [2, 3])], out=(o, [2, 3]))
        if c["error"] is not None and "unexpected keyword argument 'out'" in c["error"]:
            R.cases.pop()  # torch has no out= form (relu, isnan, ...); ours is checked elsewhere
    if op == "abs":
        R.torch_case("int-min", fn, [make("int8", [-128, 127, -1])])
        R.torch_case("int64-min", fn, [make("int64", [-2 ** 63, 0, -5])])
    if op == "neg":
        R.torch_case("int-min", fn, [make("int8", [-128, 127, 0])])
        R.torch_case("uint8-wrap", fn, [make("uint8", [0, 1, 255])])
    if op == "sign":
        R.torch_case("zeros-nan", fn, [make("float32", [0.0, -0.0, float("nan"), -float("nan"), 1e-45, -1e-45])])
    if op == "signbit":
        R.torch_case("negative-nan", fn, [make("float32", [-float("nan"), float("nan"), -0.0, 0.0])])
    # the activations' parameters (Java: a Number argument after the tensor, in this order)
    for n in ["float32", "float64", "float16", "bfloat16"]:
        e = float_edges(n) + UNARY_EXTRA.get(op, []) + KWARGS_EXTRA.get(op, [])
        for kw in ACTIVATION_KWARGS.get(op, []):
            R.torch_case(f"kw-{n}-" + "-".join(f"{k}={v}" for k, v in kw.items()), fn, [make(n, e)], kw)
    return R.cases


# ---------------------------------------------------------------- where / clamp

def where():
    R = G.Recorder("where")
    rng = G.rng_for("where")
    fn = torch.where

    def T(n, shape, vals=None):
        k = int(np.prod(shape)) if shape else 1
        return make(n, vals if vals is not None else rand_vals(rng, n, k), shape)

    def C(shape):
        return T("bool", shape)

    for n in STD + EXTRA:
        c = R.torch_case(f"same-{n}", fn, [C([2, 3]), T(n, [2, 3]), T(n, [2, 3])])
        if n in UINTS and c["error"] is not None:
            R.numpy_case(f"np-same-{n}", np.where, [make_np("bool", rand_vals(rng, "bool", 6), [2, 3]),
                                                    make_np(n, rand_vals(rng, n, 6), [2, 3]), make_np(n, rand_vals(rng, n, 6), [2, 3])])
    for n in FLOATS + ["int64", "int8", "complex64"]:
        e = edges(n)[:12]
        R.torch_case(f"edge-{n}", fn, [make("bool", [i % 2 == 0 for i in range(len(e))]), make(n, e), make(n, list(reversed(e)))])
    for x, y in MIXED:
        R.torch_case(f"mix-{x}-{y}", fn, [C([4]), T(x, [4]), T(y, [4])])
        R.torch_case(f"mix-{y}-{x}", fn, [C([4]), T(y, [4]), T(x, [4])])
    for u in UINTS:
        R.torch_case(f"mix-{u}-int32", fn, [C([3]), T(u, [3]), T("int32", [3])])
    for n in ["int32", "float16", "uint8", "bool", "float64", "int64"]:
        for s in [2.5, 2, True, -1]:
            R.torch_case(f"scalar-{n}-{s}", fn, [C([4]), T(n, [4]), s])
            R.torch_case(f"scalar-{s}-{n}", fn, [C([4]), s, T(n, [4])])
    for s, t in [(1.5, 2), (2, 3), (True, 2), (True, False), (1.5, -0.5)]:
        R.torch_case(f"scalar-{s}-{t}", fn, [C([4]), s, t])
    for x, y in [("int32", "float64"), ("float16", "float64"), ("uint8", "int8"), ("int32", "bool")]:
        R.torch_case(f"zerodim-{x}-{y}0", fn, [C([3]), T(x, [3]), T(y, [])])
        R.torch_case(f"zerodim-{x}0-{y}0", fn, [C([3]), T(x, []), T(y, [])])
    R.torch_case("zerodim-all", fn, [C([]), T("float32", []), T("float32", [])])
    for n in ["uint8", "float32", "int32"]:
        R.torch_case(f"cond-{n}", fn, [T(n, [4]), T("float32", [4]), T("float32", [4])])
    for sc, sa, sb in [([3, 1], [1, 4], []), ([4], [3, 1], [1]), ([2, 1, 3], [1, 4, 1], [3]), ([0, 3], [3], [1]),
                       ([3], [4], [3]), ([2, 3], [2, 3], [3, 2])]:
        R.torch_case(f"bcast-{sc}-{sa}-{sb}".replace(" ", ""), fn, [C(sc), T("float32", sa), T("float32", sb)])
    R.torch_case("noncontig-cond-T", fn, [C([3, 2]).t(), T("float32", [2, 3]), T("float32", [2, 3])])
    R.torch_case("noncontig-a-T", fn, [C([2, 3]), T("int32", [3, 2]).t(), T("int32", [2, 3])])
    R.torch_case("noncontig-expand", fn, [C([2, 3]), T("float64", [3]).expand(2, 3), T("float64", [2, 3])])
    for x, o in [("float32", "float64"), ("float32", "int32"), ("int32", "float32"), ("float64", "float16")]:
        R.torch_case(f"out-{x}-{o}", fn, [C([2, 3]), T(x, [2, 3]), T(x, [2, 3])], out=(o, [2, 3]))
    # Python bools (issue 12, item 7): explicit values, no draw from the generator.
    c4 = make("bool", [True, False, False, True])
    for a, b in [(True, 2.5), (-1, False), (False, True)]:
        R.torch_case(f"bool-scalar-{a}-{b}", fn, [c4, a, b])
    R.torch_case("bool-out-True-False-int32", fn, [c4, True, False], out=("int32", [4]))
    R.torch_case("bool-out-True-float16", fn, [c4, True, make("float16", [0.5, 1.5, -2.0, 3.0])], out=("float16", [4]))
    # A number the 16-bit dtype does not hold, in either position (issue 23, item 6): where
    # rounds it to the tensor's dtype first in both.
    for n, v in [("float16", [0.0, 1.0, 65504.0, -2.0]), ("bfloat16", [0.0, 1.0, 3.3e38, -2.0])]:
        for x in [1e5, 1.0004, 0.1, 2048 + 1.0004]:
            R.torch_case(f"half-number-{n}-{x}", fn, [c4, make(n, v), x])
            R.torch_case(f"half-number-{x}-{n}", fn, [c4, x, make(n, v)])
    return R.cases


def clamp():
    R = G.Recorder("clamp")
    rng = G.rng_for("clamp")
    fn = torch.clamp
    inplace = "clamp_"

    def T(n, shape, vals=None):
        k = int(np.prod(shape)) if shape else 1
        return make(n, vals if vals is not None else rand_vals(rng, n, k), shape)

    def lohi(n, shape):
        k = int(np.prod(shape)) if shape else 1
        if n == "bool":
            return make(n, [False] * k, shape), make(n, [True] * k, shape)
        if n in G.INTS:
            lo, hi = {"uint8": (0, 15), "int8": (-10, 10), "int16": (-100, 100)}.get(n, (0, 1000) if n in UINTS else (-1000, 1000))
            mid = (lo + hi) // 2
            a = [int(x) for x in rng.integers(lo, mid + 1, k)]
            b = [int(x) for x in rng.integers(mid, hi + 1, k)]
        else:
            a = [round(float(x), 2) for x in rng.uniform(-6, 0, k)]
            b = [round(float(x), 2) for x in rng.uniform(0, 6, k)]
            if n in COMPLEX:
                a, b = [complex(v, 0) for v in a], [complex(v, 0) for v in b]
        return make(n, a, shape), make(n, b, shape)

    for n in STD + EXTRA:
        lo, hi = lohi(n, [2, 3])
        c = R.torch_case(f"same-{n}", fn, [T(n, [2, 3]), lo, hi])
        if n in UINTS and c["error"] is not None:
            x = make_np(n, rand_vals(rng, n, 6), [2, 3])
            lo_, hi_ = make_np(n, [100] * 6, [2, 3]), make_np(n, [600] * 6, [2, 3])
            R.numpy_case(f"np-same-{n}", np.clip, [x, lo_, hi_])
    nan, inf = float("nan"), float("inf")
    for n in FLOATS:
        x = [nan, 1.0, 1.0, 1.0, -0.0, 0.0, 5.0, -5.0, inf, -inf, 2.0, 0.5]
        lo = [0.0, nan, 0.0, 2.0, 0.0, -0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 1.0]
        hi = [1.0, 2.0, nan, 1.0, 1.0, 1.0, 4.0, 4.0, 4.0, 4.0, 1.0, -1.0]
        R.torch_case(f"edge-{n}", fn, [make(n, x), make(n, lo), make(n, hi)])
    for n in ["int8", "int64", "uint8"]:
        lo_, hi_ = G.irange(n)
        R.torch_case(f"edge-{n}", fn, [make(n, [lo_, hi_, 0, 5, 5]), make(n, [lo_, 0, 1, 7, 3]), make(n, [hi_, 1, 2, 3, 4])])
    for x, lo, hi in [("int32", "float32", "float32"), ("uint8", "int8", "int8"), ("float16", "float32", "float32"),
                      ("int32", "int64", "int32"), ("bfloat16", "float16", "float16"), ("int64", "float16", "float16"),
                      ("float32", "float64", "float64"), ("int32", "bool", "int32"), ("float16", "float64", "float16")]:
        a, b = lohi(lo, [4])
        c, d = lohi(hi, [4])
        R.torch_case(f"mix-{x}-{lo}-{hi}", fn, [T(x, [4]), a, d])
    R.torch_case("mix-float16-zerodim-float64", fn, [T("float16", [4]), make("float64", [-1.0], []), make("float64", [1.0], [])])
    R.torch_case("mix-int32-zerodim-float32", fn, [T("int32", [4]), make("float32", [-1.5], []), make("float32", [100.5], [])])
    for n in ["int32", "float16", "uint8", "float32", "bool"]:
        for lo, hi in [(0.5, 2.5), (-3, 4), (5, -5), (True, True)]:
            R.torch_case(f"scalar-{n}-{lo}-{hi}", fn, [T(n, [4]), lo, hi])
    for sx, sl, sh in [([3, 4], [3, 1], [4]), ([4], [3, 1], []), ([2, 3], [4], [3]), ([1, 4], [3, 1], [1])]:
        lo, _ = lohi("float32", sl)
        _, hi = lohi("float32", sh)
        R.torch_case(f"bcast-{sx}-{sl}-{sh}".replace(" ", ""), fn, [T("float32", sx), lo, hi])
    lo, hi = lohi("float32", [2, 3])
    R.torch_case("noncontig-T", fn, [T("float32", [3, 2]).t(), lo, hi])
    lo, hi = lohi("float32", [2, 3])
    R.torch_case("noncontig-expand-min", fn, [T("float32", [2, 3]), make("float32", [-1.0, 0.0, -2.0]).expand(2, 3), hi])
    for n in ["float32", "int32", "float16"]:
        lo, hi = lohi(n, [2, 3])
        R.torch_case(f"inplace-{n}", fn, [T(n, [2, 3]), lo, hi], inplace=inplace)
    lo, hi = lohi("float32", [2, 3])
    R.torch_case("inplace-int32-float32", fn, [T("int32", [2, 3]), lo, hi], inplace=inplace)
    lo, hi = lohi("float32", [1, 4])
    R.torch_case("inplace-bcast-target", fn, [T("float32", [3, 1]), lo, hi], inplace=inplace)
    lo, hi = lohi("float32", [3, 4])
    R.torch_case("inplace-expanded-target", fn, [T("float32", [4]).expand(3, 4), lo, hi], inplace=inplace)
    for x, o in [("float32", "float64"), ("float32", "int32"), ("int32", "float32")]:
        lo, hi = lohi(x, [2, 3])
        R.torch_case(f"out-{x}-{o}", fn, [T(x, [2, 3]), lo, hi], out=(o, [2, 3]))
    # Python bools (issue 12, item 7): explicit values, no draw from the generator.
    for n, vals in [("int32", [-3, 0, 1, 7]), ("uint8", [0, 1, 2, 255]), ("float32", [-0.5, 0.0, 0.5, 2.0]),
                    ("int64", [-1, 0, 1, 2]), ("bool", [True, False, False, True])]:
        for lo, hi in [(False, True), (True, 5), (-2, True), (0.5, True)]:
            R.torch_case(f"bool-scalar-{n}-{lo}-{hi}", fn, [make(n, vals), lo, hi])
    R.torch_case("bool-inplace-int32-False-True", fn, [make("int32", [-3, 0, 1, 7]), False, True], inplace=inplace)
    R.torch_case("bool-out-int32-True-5-float32", fn, [make("int32", [-3, 0, 1, 7]), True, 5], out=("float32", [4]))
    # Numbers the 16-bit dtype does not hold as either bound (issue 23, item 6): clamp rounds
    # them to the tensor's dtype first.
    for n, v in [("float16", [0.0, 1.0, 1.0009765625, 65504.0, -2.0, 0.0999755859375]),
                 ("bfloat16", [0.0, 1.0, 1.0078125, 3.3e38, -2.0, 0.099609375])]:
        for lo, hi in [(1.0004, 1e5), (0.1, 1.0004), (-1e5, 2048 + 1.0004)]:
            R.torch_case(f"half-number-{n}-{lo}-{hi}", fn, [make(n, v), lo, hi])
    return R.cases


def lerp():
    """torch.lerp(start, end, weight) with a tensor weight (the Java-number weight is not a form
    yet: docs/ops.md); torch refuses operands of different dtypes."""
    R = G.Recorder("lerp")
    rng = G.rng_for("lerp")
    fn = torch.lerp

    def T(n, shape, vals=None):
        k = int(np.prod(shape)) if shape else 1
        return make(n, vals if vals is not None else rand_vals(rng, n, k), shape)

    def W(n, shape):
        k = int(np.prod(shape)) if shape else 1
        return make(n, [float(x) for x in rng.choice([-1.0, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 0.49, 0.51], k)], shape)

    for n in STD + EXTRA:
        R.torch_case(f"same-{n}", fn, [T(n, [2, 3]), T(n, [2, 3]), T(n, [2, 3]) if n not in FLOATS else W(n, [2, 3])])
    nan, inf = float("nan"), float("inf")
    for n in FLOATS:
        a = [0.0, 1.0, -2.0, nan, 0.0, inf, -inf, 1.0, 3.0, -0.0, 1e38, -1e38, 7.0]
        b = [1.0, nan, 5.0, 1.0, inf, inf, 1.0, 1.0, 3.0, 0.0, -1e38, 1e38, -7.5]
        w = [0.5, 0.5, 1.0, 0.0, 0.3, 0.5, 0.7, nan, 0.9, 0.5, 0.5, 0.75, 0.25]
        R.torch_case(f"edge-{n}", fn, [make(n, a), make(n, b), make(n, w)])
        R.torch_case(f"weights-{n}", fn, [T(n, [9]), T(n, [9]), make(n, [-1.0, 0.0, 0.25, 0.49, 0.5, 0.51, 0.75, 1.0, 2.0])])
    for x, y in [("float32", "float64"), ("float16", "float32"), ("int32", "float32")]:
        R.torch_case(f"mix-end-{x}-{y}", fn, [T(x, [3]), T(y, [3]), W(x, [3])])
        R.torch_case(f"mix-weight-{x}-{y}", fn, [T(x, [3]), T(x, [3]), W(y, [3])])
    R.torch_case("zerodim-weight-float64", fn, [T("float32", [3]), T("float32", [3]), make("float64", [0.5], [])])
    for sa, sb, sw in [([3, 1], [1, 4], []), ([2, 3], [3], [2, 1]), ([0, 3], [3], [1])]:
        R.torch_case(f"bcast-{sa}-{sb}-{sw}".replace(" ", ""), fn, [T("float32", sa), T("float32", sb), W("float32", sw)])
    R.torch_case("noncontig-T", fn, [T("float32", [3, 2]).t(), T("float32", [2, 3]), W("float32", [2, 3])])
    for n in ["float32", "float64", "float16"]:
        R.torch_case(f"inplace-{n}", fn, [T(n, [2, 3]), T(n, [2, 3]), W(n, [2, 3])], inplace="lerp_")
    for o in ["float64", "float16"]:
        R.torch_case(f"out-float32-{o}", fn, [T("float32", [2, 3]), T("float32", [2, 3]), W("float32", [2, 3])], out=(o, [2, 3]))
    return R.cases


def main(only):
    """Writes every op's file, or only those named on the command line (torch's last bits have
    moved between builds before: regenerate only what changed, docs/golden-format.md)."""
    G.setup()
    report = []
    total = 0
    jobs = [(op, lambda op=op: binary(op)) for op in BINARY] + [(op, lambda op=op: unary(op)) for op in UNARY]
    jobs += [("where", where), ("clamp", clamp), ("lerp", lerp)]
    unknown = set(only) - {op for op, _ in jobs}
    if unknown:
        raise SystemExit(f"unknown ops {sorted(unknown)}; ops: {[op for op, _ in jobs]}")
    if only:
        jobs = [(op, job) for op, job in jobs if op in only]
    for op, job in jobs:
        cases = job()
        path, size, n = G.write(OUT, op, cases)
        total += size
        errs = sum(c["error"] is not None for c in cases)
        nps = sum(c["source"] == "numpy" for c in cases)
        report.append(f"{op:22s} {n:5d} cases ({errs:4d} errors, {nps:3d} numpy) {size / 1024:8.1f} KiB")
        assert size < 1_600_000, f"{path} too large: {size}"
    print("\n".join(report))
    print(f"{OUT.relative_to(G.ROOT)}: {len(jobs)} files, {total / 1024 / 1024:.2f} MiB")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
