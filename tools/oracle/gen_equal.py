#!/usr/bin/env python3
"""Golden data for Tensor.equal, from torch.equal (NumPy's == where torch refuses the dtypes).

Run with the oracle venv:  PY=$(tools/oracle/venv.sh); "$PY" tools/oracle/gen_equal.py
Writes runtime/src/test/resources/golden/equal.json (deterministic).

torch.equal(a, b) is true when the shapes are equal and every pair of elements is equal after
promotion to the common dtype (int64 2^24 + 1 equals float32 2^24: the int converts to float32;
NaN equals nothing). To pin that rule element by element, each case holds one vector per dtype of
a dtype pair, built from the same source values, and records torch.equal of single elements:
a[i] with b[i] ("same") and a[i] with b[i + 1] ("next", neighbouring values), plus torch.equal of
the whole vectors. Where torch refuses the pair: float8 with anything but itself is recorded as
the error; uint16/32/64 with other integers get NumPy 2's == (exact integer comparison), with
"source": "numpy"; complex32 (torch has no equal for it) and unsigned with complex get
torch.equal after torch converts both to the complex dtype, which is ufunc4j's common dtype for
them (docs/promotion.md), recorded as "common".

Format (docs/golden-format.md, "equal.json"):
  {"torch": ..., "numpy": ..., "vectors": {dtype: TENSOR, ...}, "cases": [CASE, ...]}
  CASE = {"a": dtype, "b": dtype, "source": "torch" | "numpy", "common": dtype (optional),
          "same": [bool, ...], "next": [bool, ...], "whole": bool}
       | {"a": dtype, "b": dtype, "source": "torch", "error": "<str(exception)>"}
TENSOR is golden_common's encoding (raw bit patterns) of the source values in that dtype.
"""
import json
import math
import sys

import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import numpy as np
import torch

from golden_common import COMPLEX, EXTRA, FLOAT8, INTS, ROOT, STD, enc_tensor, setup, tdt

INF = math.inf
NAN = math.nan
# Neighbouring values where a conversion to a narrower dtype rounds, wraps or saturates.
SOURCE = [0.0, -0.0, 1.0, -1.0, 0.1, 255.0, 256.0, 2.0**24, 2**24 + 1, 65504.0, 70000.0,
          2.0**53, 2**53 + 1, NAN, INF, -INF]
# The integer each source value stands for in an integer dtype (then wrapped to its width).
AS_INT = [0, 0, 1, -1, 0, 255, 256, 2**24, 2**24 + 1, 65504, 70000, 2**53, 2**53 + 1, 0,
          2**63 - 1, -2**63]


def vector(name):
    """The source values in dtype `name`, converted by torch's own rules."""
    if name == "bool":
        return torch.tensor([v != 0 for v in SOURCE], dtype=torch.bool)
    if name in INTS:
        # int64 -> narrower integers wraps; -> uint64 reinterprets, so -2^63 becomes 2^63.
        return torch.tensor(AS_INT, dtype=torch.int64).to(tdt(name))
    if name in COMPLEX:
        # An imaginary part at 0.1, so complex vs real and complex64 vs complex128 differ there.
        im = [0.5 if v == 0.1 else 0.0 for v in SOURCE]
        c = torch.complex(torch.tensor([float(v) for v in SOURCE], dtype=torch.float64),
                          torch.tensor(im, dtype=torch.float64))
        return c.to(tdt(name))
    return torch.tensor([float(v) for v in SOURCE], dtype=torch.float64).to(tdt(name))


def numpy_of(t, name):
    return t.numpy() if name != "bool" else t.numpy().astype(bool)


def main():
    setup()
    names = STD + EXTRA
    cases = []
    for an in names:
        for bn in names:
            a, b = vector(an), vector(bn)
            case = {"a": an, "b": bn}
            n = a.numel()
            try:
                whole = torch.equal(a, b)
                same = [torch.equal(a[i:i + 1], b[i:i + 1]) for i in range(n)]
                nxt = [torch.equal(a[i:i + 1], b[i + 1:i + 2]) for i in range(n - 1)]
                case.update(source="torch", same=same, next=nxt, whole=whole)
            except RuntimeError as e:
                integers = (an in INTS or an == "bool") and (bn in INTS or bn == "bool")
                if an in FLOAT8 or bn in FLOAT8:
                    case.update(source="torch", error=str(e))
                elif an in COMPLEX or bn in COMPLEX:
                    # torch has no complex32 equal and refuses unsigned with complex; ufunc4j's
                    # promotion gives the complex dtype (docs/promotion.md). torch converts both
                    # to it and compares (complex32 widened exactly to complex64 for equal).
                    common = an if an in COMPLEX else bn
                    x = a.to(tdt(common))
                    y = b.to(tdt(common))
                    if common == "complex32":
                        x, y = x.to(torch.complex64), y.to(torch.complex64)
                    same = [torch.equal(x[i:i + 1], y[i:i + 1]) for i in range(n)]
                    nxt = [torch.equal(x[i:i + 1], y[i + 1:i + 2]) for i in range(n - 1)]
                    case.update(source="torch", common=common, same=same, next=nxt,
                                whole=torch.equal(x, y))
                elif integers:
                    x, y = numpy_of(a, an), numpy_of(b, bn)
                    same = [bool(x[i] == y[i]) for i in range(n)]
                    nxt = [bool(x[i] == y[i + 1]) for i in range(n - 1)]
                    case.update(source="numpy", same=same, next=nxt,
                                whole=bool(np.array_equal(x, y)))
                else:
                    raise
            cases.append(case)
    path = ROOT / "runtime" / "src" / "test" / "resources" / "golden" / "equal.json"
    with open(path, "w") as f:
        f.write('{"torch": "%s", "numpy": "%s", "vectors": {\n' % (torch.__version__, np.__version__))
        f.write(",\n".join(json.dumps(n) + ":" + json.dumps(enc_tensor(vector(n)), separators=(",", ":"))
                           for n in names))
        f.write('},\n"cases": [\n')
        f.write(",\n".join(json.dumps(c, separators=(",", ":")) for c in cases))
        f.write("\n]}\n")
    print(f"wrote {len(cases)} equal cases", file=sys.stderr)


if __name__ == "__main__":
    main()
