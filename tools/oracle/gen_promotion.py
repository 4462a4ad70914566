#!/usr/bin/env python3
"""Writes annotations/src/test/resources/golden/promotion.json from real PyTorch (and NumPy).

Run with the oracle venv: PY=$(tools/oracle/venv.sh); "$PY" tools/oracle/gen_promotion.py
Deterministic: the random cases come from a seeded generator and the output is sorted JSON.

Sections (see docs/promotion.md for the format):
  promote_types    every ordered pair of the 18 dtypes: torch.promote_types result or error text
  can_cast         every ordered pair: torch.can_cast
  result_type      two operands (tensor, zero-dim tensor, Python bool/int/float) in both orders:
                   torch.result_type; three or more operands: an ATen ternary op on empty CPU
                   tensors (torch.addcmul, whose TensorIterator runs ATen's multi-operand rule;
                   meta tensors would take a Python decomposition instead) when all operands are
                   tensors, torch._prims_common.elementwise_dtypes (torch's own reference) when
                   Python scalars take part
  non_associative  every triple (a, b, c) where promote(promote(a, b), c) and
                   promote(a, promote(b, c)) differ (a dtype or an error), computed with torch
  numpy_integer    np.promote_types for the integer pairs that involve uint16/32/64: the oracle
                   for ufunc4j's DEFAULT extension of PyTorch's table
"""
import json
import pathlib
import random

import warnings

import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import numpy as np
import torch
from torch._prims_common import ELEMENTWISE_TYPE_PROMOTION_KIND, elementwise_dtypes

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "annotations/src/test/resources/golden/promotion.json"

# The order of dev.ufunc4j.dtype.DType.
NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
         "float16", "bfloat16", "float32", "float64", "complex32", "complex64", "complex128",
         "float8_e4m3fn", "float8_e5m2"]
DT = {n: getattr(torch, n) for n in NAMES}
# Dtypes for which torch._prims_common is a faithful reference of ATen (it has no notion of
# PyTorch's uint16/32/64 and float8 refusals), used for the cases with Python scalars.
PRIMS_SAFE = [n for n in NAMES if n not in ("uint16", "uint32", "uint64", "float8_e4m3fn", "float8_e5m2")]


def name(dtype):
    return str(dtype).removeprefix("torch.")


def attempt(fn):
    """{'result': ...} or {'error': message, 'error_type': class name} of calling fn."""
    try:
        r = fn()
        return {"result": name(r) if isinstance(r, torch.dtype) else r}
    except Exception as e:  # noqa: BLE001 - the oracle records whatever torch raises
        return {"error": str(e), "error_type": type(e).__name__}


def promote_types():
    return [{"a": a, "b": b, **attempt(lambda: torch.promote_types(DT[a], DT[b]))}
            for a in NAMES for b in NAMES]


def can_cast():
    return [{"from": a, "to": b, "result": torch.can_cast(DT[a], DT[b])} for a in NAMES for b in NAMES]


def operand_value(op):
    """The torch/Python value an operand description stands for. Dimensioned tensors are empty
    (a 0 in the shape), so no kernel loop runs; only their dtype and rank matter."""
    kind = op["kind"]
    if kind == "tensor":
        return torch.empty([1] * (op["ndim"] - 1) + [0], dtype=DT[op["dtype"]])
    if kind == "zerodim":
        return torch.zeros((), dtype=DT[op["dtype"]])
    return op["value"]


SCALARS = [{"kind": "bool", "value": True}, {"kind": "int", "value": 2}, {"kind": "float", "value": 2.5},
           {"kind": "bool", "value": False}, {"kind": "int", "value": -7}, {"kind": "float", "value": -0.5}]


def tensors(names, ndims=(1,)):
    return [{"kind": "tensor", "dtype": n, "ndim": d} for n in names for d in ndims] + \
           [{"kind": "zerodim", "dtype": n} for n in names]


def result_type_binary():
    cases = []
    ts = tensors(NAMES)
    # every pair of tensor operands (dimensioned or zero-dim), in both orders
    for x in ts:
        for y in ts:
            cases.append([x, y])
    # tensor with a Python scalar, both orders
    for x in ts:
        for s in SCALARS[:3]:
            cases.append([x, s])
            cases.append([s, x])
    # two Python scalars
    for s in SCALARS[:3]:
        for t in SCALARS[:3]:
            cases.append([s, t])
    out = []
    for ops in cases:
        vals = [operand_value(o) for o in ops]
        out.append({"operands": ops, "oracle": "torch.result_type",
                    **attempt(lambda: torch.result_type(*vals))})
    return out


def result_type_multi(rng):
    out = []
    # all-tensor triples: ATen's own multi-operand rule through a ternary TensorIterator op
    ts = tensors(NAMES, ndims=(1, 3))
    for _ in range(400):
        ops = [rng.choice(ts) for _ in range(3)]
        vals = [operand_value(o) for o in ops]
        got = attempt(lambda: torch.addcmul(*vals).dtype)
        # A missing CPU kernel ("not implemented for 'Bool'") fails after promotion succeeded
        # and hides the dtype it computed: no oracle for that case.
        if got.get("error_type") != "NotImplementedError":
            out.append({"operands": ops, "oracle": "torch.addcmul", **got})
    # the example: not a pairwise fold
    ex = [{"kind": "tensor", "dtype": "int32", "ndim": 1}, {"kind": "zerodim", "dtype": "float32"},
          {"kind": "zerodim", "dtype": "float64"}]
    out.append({"operands": ex, "oracle": "torch.addcmul",
                **attempt(lambda: torch.addcmul(*[operand_value(o) for o in ex]).dtype)})
    # three to five operands with Python scalars: torch's reference implementation
    ts = tensors(PRIMS_SAFE, ndims=(1, 2))
    pool = ts + SCALARS * 6
    kind = ELEMENTWISE_TYPE_PROMOTION_KIND.DEFAULT
    for _ in range(300):
        ops = [rng.choice(pool) for _ in range(rng.randint(3, 5))]
        vals = [operand_value(o) for o in ops]
        out.append({"operands": ops, "oracle": "torch._prims_common.elementwise_dtypes",
                    **attempt(lambda: elementwise_dtypes(*vals, type_promotion_kind=kind)[1])})
    return out


def non_associative():
    def p(a, b):
        try:
            return name(torch.promote_types(DT[a], DT[b]))
        except RuntimeError:
            return None
    triples = []
    for a in NAMES:
        for b in NAMES:
            for c in NAMES:
                ab, bc = p(a, b), p(b, c)
                left = p(ab, c) if ab else None
                right = p(a, bc) if bc else None
                if left != right:
                    triples.append({"a": a, "b": b, "c": c, "left": left, "right": right})
    return triples


def numpy_integer():
    ints = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64"]
    out = []
    for a in ints:
        for b in ints:
            if {a, b} & {"uint16", "uint32", "uint64"}:
                out.append({"a": a, "b": b, "result": str(np.promote_types(np.dtype(a), np.dtype(b)))})
    return out


def dump(doc):
    """JSON with one case per line: small diffs when torch changes, still readable."""
    lines = ["{"]
    for i, (key, value) in enumerate(doc.items()):
        sep = "," if i < len(doc) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(f" {json.dumps(key)}: [")
            lines += [f"  {json.dumps(v, separators=(',', ':'))}" + ("," if j < len(value) - 1 else "")
                      for j, v in enumerate(value)]
            lines.append(" ]" + sep)
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}{sep}")
    return "\n".join(lines + ["}"]) + "\n"


def main():
    warnings.filterwarnings("ignore", message="ComplexHalf support is experimental")
    rng = random.Random(20240602)
    doc = {
        "generator": "tools/oracle/gen_promotion.py",
        "torch_version": torch.__version__.split("+")[0],
        "numpy_version": np.__version__,
        "default_dtype": name(torch.get_default_dtype()),
        "dtypes": NAMES,
        "promote_types": promote_types(),
        "can_cast": can_cast(),
        "result_type": result_type_binary() + result_type_multi(rng),
        "non_associative": non_associative(),
        "numpy_integer": numpy_integer(),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(dump(doc))
    rt = doc["result_type"]
    print(f"{OUT.relative_to(ROOT)}: {len(doc['promote_types'])} promote_types, {len(doc['can_cast'])} can_cast, "
          f"{len(rt)} result_type ({sum('error' in c for c in rt)} errors), "
          f"{len(doc['non_associative'])} non-associative triples "
          f"({sum(t['left'] is not None and t['right'] is not None for t in doc['non_associative'])} with two dtypes)")


if __name__ == "__main__":
    main()
