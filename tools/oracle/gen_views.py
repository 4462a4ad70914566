#!/usr/bin/env python3
"""Golden data for Tensor views and printing, from real PyTorch.

Run with the oracle venv:  PY=$(tools/oracle/venv.sh); "$PY" tools/oracle/gen_views.py
Writes runtime/src/test/resources/golden/views.json and format.json (deterministic).

views.json: each case starts from torch.arange(numel).reshape(shape) (float32), applies a chain
of ops and records the result's shape, strides, storage offset, whether it shares the input's
storage, and its values in row-major order -- or PyTorch's error type and message.
format.json: str(tensor) for tensors built from given values and dtype, or from arange(numel)
("arange": true) and then expanded to a larger view ("expand": shape). Cases marked
"rule": "ufunc4j-bound" are tensors PyTorch would print with more than MAX_PRINTED elements
(it keeps every index of a dimension of at most 6, so a [2]^20 tensor prints 2^20): for them
the expected text is PyTorch's own _tensor_str_with_formatter output for the first sub-tensor
that fits, wrapped in ufunc4j's documented cut of the outer dimensions (docs/runtime.md,
"Printing"); see ufunc4j_str below.
"""
import json
import math
import os
import sys

import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import numpy as np
import torch

SEED = 7


def apply(x, op, args):
    if op == "expand":
        return x.expand(tuple(args))
    if op == "broadcastTo":
        return torch.broadcast_to(x, tuple(args))
    if op == "view":
        return x.view(tuple(args))
    if op == "reshape":
        return x.reshape(tuple(args))
    if op == "permute":
        return x.permute(tuple(args))
    if op == "transpose":
        return x.transpose(*args)
    if op == "t":
        return x.t()
    if op == "slice":
        dim, start, stop, step = args
        return torch.ops.aten.slice(x, dim, start, stop, step)
    if op == "select":
        return x.select(*args)
    if op == "narrow":
        return x.narrow(*args)
    if op == "unsqueeze":
        return x.unsqueeze(*args)
    if op == "squeeze":
        return x.squeeze(*args)
    if op == "flatten":
        return x.flatten(*args)
    if op == "contiguous":
        return x.contiguous()
    raise ValueError(op)


BIG = 2**62
VIEW_CASES = [
    ([2], [["expand", [2, 3]]]),
    ([2, 1], [["expand", [2, 3]]]),
    ([2, 1], [["expand", [4, 2, 3]]]),
    ([2, 1], [["expand", [-1, 5]]]),
    ([2, 3], [["expand", [3]]]),
    ([2, 3], [["expand", [-1, 2, 3]]]),
    ([2, 3], [["expand", [2, -2]]]),
    ([2, 3], [["expand", [1, -1, -1]]]),
    ([2, 3], [["expand", [2, 0]]]),
    ([1, 0], [["expand", [3, 0]]]),
    ([3], [["expand", [-2, 3]]]),
    ([], [["expand", [2, 3]]]),
    ([], [["expand", []]]),
    ([3, 1], [["transpose", [0, 1]], ["expand", [4, 3]]]),
    ([2, 1], [["broadcastTo", [3, 2, 5]]]),
    ([2, 3], [["broadcastTo", [3]]]),
    ([2, 3], [["view", [3, 2]]]),
    ([2, 3], [["view", [-1]]]),
    ([2, 3], [["view", [1, -1, 1]]]),
    ([2, 3], [["view", [4, 4]]]),
    ([2, 3], [["view", [-1, -1]]]),
    ([2, 3], [["view", [-2, 3]]]),
    ([2, 3], [["view", [0, -1]]]),
    ([0, 3], [["view", [-1, 0]]]),
    ([0, 3], [["view", [3, 0, 1]]]),
    ([2, 3], [["t", []], ["view", [6]]]),
    ([2, 3], [["t", []], ["reshape", [6]]]),
    ([2, 3, 4], [["permute", [1, 0, 2]], ["view", [3, 2, 2, 2]]]),
    ([2, 3, 4], [["permute", [1, 0, 2]], ["view", [6, 4]]]),
    ([2, 3, 4], [["permute", [1, 0, 2]], ["reshape", [6, 4]]]),
    ([4, 6], [["slice", [1, 0, 6, 2]], ["view", [12]]]),
    ([4, 6], [["slice", [1, 0, 6, 2]], ["reshape", [2, 2, 3]]]),
    ([4, 6], [["slice", [0, 1, 3, 1]], ["view", [12]]]),
    ([2, 3], [["reshape", [4, 4]]]),
    ([2, 3], [["permute", [1, 0]]]),
    ([2, 3, 4], [["permute", [2, 0, 1]]]),
    ([2, 3, 4], [["permute", [-1, 0, 1]]]),
    ([2, 3], [["permute", [0]]]),
    ([2, 3], [["permute", [0, 0]]]),
    ([2, 3], [["permute", [0, 2]]]),
    ([], [["permute", []]]),
    ([2, 3, 4], [["transpose", [0, 2]]]),
    ([2, 3], [["transpose", [0, 2]]]),
    ([2, 3], [["transpose", [-1, -2]]]),
    ([2, 3], [["t", []]]),
    ([3], [["t", []]]),
    ([2, 2, 2], [["t", []]]),
    ([5, 4], [["slice", [0, 1, 4, 2]]]),
    ([5, 4], [["slice", [1, -3, BIG, 1]]]),
    ([5, 4], [["slice", [0, -100, 100, 3]]]),
    ([5, 4], [["slice", [0, 4, 2, 1]]]),
    ([5, 4], [["slice", [0, 7, 9, 1]]]),
    ([5, 4], [["slice", [1, 0, 4, 0]]]),
    ([5, 4], [["slice", [1, 0, 4, -1]]]),
    ([5, 4], [["slice", [2, 0, 4, 1]]]),
    ([5, 4], [["slice", [-1, 1, 3, 1]], ["slice", [0, 1, 5, 2]]]),
    ([2, 3], [["select", [0, 1]]]),
    ([2, 3], [["select", [1, -1]]]),
    ([2, 3], [["select", [0, 5]]]),
    ([2, 3], [["select", [1, -4]]]),
    ([2, 3], [["select", [2, 0]]]),
    ([], [["select", [0, 0]]]),
    ([2, 3], [["narrow", [1, 1, 2]]]),
    ([2, 3], [["narrow", [1, -2, 1]]]),
    ([2, 3], [["narrow", [1, 2, 2]]]),
    ([2, 3], [["narrow", [1, -4, 1]]]),
    ([2, 3], [["narrow", [1, 0, -1]]]),
    ([2, 3], [["narrow", [1, 3, 0]]]),
    ([2, 3], [["unsqueeze", [0]]]),
    ([2, 3], [["unsqueeze", [2]]]),
    ([2, 3], [["unsqueeze", [-1]]]),
    ([2, 3], [["unsqueeze", [3]]]),
    ([], [["unsqueeze", [0]]]),
    ([], [["unsqueeze", [1]]]),
    ([4, 6], [["slice", [1, 0, 6, 2]], ["unsqueeze", [1]]]),
    ([1, 2, 1, 3], [["squeeze", []]]),
    ([1, 2, 1, 3], [["squeeze", [2]]]),
    ([1, 2, 1, 3], [["squeeze", [1]]]),
    ([1, 2, 1, 3], [["squeeze", [-4]]]),
    ([2, 3], [["squeeze", [2]]]),
    ([], [["squeeze", [0]]]),
    ([2, 3, 4], [["flatten", []]]),
    ([2, 3, 4], [["flatten", [1, 2]]]),
    ([2, 3, 4], [["flatten", [0, 1]]]),
    ([2, 3, 4], [["flatten", [1, 0]]]),
    ([2, 3, 4], [["flatten", [0, 3]]]),
    ([2, 3, 4], [["transpose", [0, 1]], ["flatten", [1, 2]]]),
    ([2, 3, 4], [["transpose", [0, 1]], ["flatten", [0, 1]]]),
    ([], [["flatten", []]]),
    ([2, 3], [["t", []], ["contiguous", []]]),
    ([2, 1, 3], [["expand", [2, 4, 3]], ["contiguous", []]]),
]

rng = np.random.default_rng(SEED)
FORMAT_CASES = [
    ([1.0, 2.5, -3.25], [3], "float32"),
    ([1.0, 2.0, 3.0], [3], "float32"),
    ([1.0, 2.0, 3.0], [3], "float64"),
    ([0.0, -0.0, 1.0], [3], "float32"),
    ([1.0, 2.5, -3.25, 1e-5], [2, 2], "float16"),
    ([1.0, 1e6, 3.5, math.nan], [4], "float32"),
    ([1e10, 1.0], [2], "float64"),
    ([1e10, 2.0], [2], "float32"),
    ([math.inf, -math.inf, math.nan, 0.0], [4], "float32"),
    ([math.nan, 2.0], [2], "float32"),
    ([0.0, 0.0], [2], "float32"),
    ([0.1, 0.2, 0.125, 0.00015, 1.23456789], [5], "float64"),
    ([1.5, 2.5, 3.5], [3], "bfloat16"),
    ([1.0, 448.0, -0.015625], [3], "float8_e4m3fn"),
    ([3.0, 57344.0], [2], "float8_e5m2"),
    ([1, -2, 300], [3], "int64"),
    ([1, -2, 300], [3], "int32"),
    ([1, 2, 255], [3], "uint8"),
    ([0, 2**64 - 1], [2], "uint64"),
    ([1, 0, 1, 1], [2, 2], "bool"),
    ([2.5], [], "float32"),
    ([7], [], "int64"),
    ([1], [], "bool"),
    ([2.5], [], "float16"),
    ([], [0], "float32"),
    ([], [0], "int64"),
    ([], [0, 3], "float32"),
    ([], [2, 0], "bool"),
    (list(range(24)), [2, 3, 4], "int64"),
    (list(range(24)), [2, 3, 4], "float32"),
    (list(range(30)), [30], "float32"),
    (list(range(1001)), [1001], "int64"),
    (list(range(2000)), [40, 50], "float32"),
    (list(range(1200)), [10, 10, 12], "int32"),
    (list(range(1200)), [2, 600], "float16"),
    ((rng.standard_normal(12) * 100).tolist(), [3, 4], "float32"),
    ((rng.standard_normal(40) * 1000).tolist(), [40], "float64"),
    ((rng.standard_normal(8) * 1e-6).tolist(), [8], "float32"),
    ((rng.integers(-10**12, 10**12, 30)).tolist(), [30], "int64"),
]
COMPLEX_FORMAT_CASES = [
    ([(1.0, 2.0), (-3.5, -0.0), (0.0, 1e-5)], [3], "complex64"),
    ([(1.0, 2.0), (3.0, -4.0)], [2], "complex128"),
    ([(1.0, 2.0), (3.0, -4.0)], [2], "complex32"),
    ([(1.5, math.nan)], [], "complex64"),
    ([(float(i), -float(i) / 3) for i in range(12)], [3, 4], "complex64"),
]


# High-rank and large tensors (issue 12, item 3): (shape, dtype, expand_to). Values are
# arange(numel); expand_to, if any, expands the tensor to a view of that shape.
LARGE_FORMAT_CASES = [
    ([2] * 10, "float32", None),  # 1024 > threshold, summarised, but no dim > 6: all 1024 print
    ([1] * 12, "int64", None),  # rank 12, one element
    ([2, 1, 3, 1, 2, 1, 1, 2, 1], "int32", None),  # rank 9, not summarised
    ([7, 7, 7, 7], "int64", None),  # 2401 elements, 6^4 = 1296 print
    ([7, 7, 7, 2, 2], "float64", None),  # rank 5, 864 print, with the dtype suffix
    ([1], "float32", [1000] * 4),  # 10^12 elements over 4 bytes: 1296 print
    ([7], "int64", [1000, 1000, 7]),
    ([1], "float32", [7] * 5),  # 7776 print: the largest PyTorch text within the bound
    ([8, 8, 8, 8, 8, 2], "float32", None),  # PyTorch: 15552; ufunc4j cuts dim 0: 2592
    ([1], "float32", [4] * 20),  # PyTorch: 4^20; ufunc4j cuts 14 dims: 4096
]

# ufunc4j's bound on printed elements (TensorFormat.MAX_PRINTED).
MAX_PRINTED = 10_000


def ufunc4j_str(t):
    """str(t) as ufunc4j prints it, and whether ufunc4j's bound changed PyTorch's text.

    Within the bound this is PyTorch's str(t). Beyond it, the outermost dimensions are cut to
    their first sub-tensor (followed by "...") until the printed elements fit; the sub-tensor that
    remains is printed by PyTorch's own _tensor_str_with_formatter, summarised, at the indent it
    has inside the whole, with the formatter of its summarised data.
    """
    from torch import _tensor_str as ts
    edge = ts.PRINT_OPTS.edgeitems
    shown = [s if s <= 2 * edge else 2 * edge for s in t.shape]
    if t.numel() <= ts.PRINT_OPTS.threshold or math.prod(shown) <= MAX_PRINTED:
        return str(t), False
    cut = 0
    while math.prod(shown[cut:]) > MAX_PRINTED:
        cut += 1
    assert t.dtype in (torch.float32, torch.float64, torch.int64), "only these are wrapped here"
    inner = t[(0,) * cut]
    indent = len("tensor(")
    formatter = ts._Formatter(ts.get_summarized_data(inner))
    body = ts._tensor_str_with_formatter(inner, indent + cut, True, formatter)
    for d in reversed(range(cut)):
        if t.shape[d] > 1:
            rank = t.dim() - d
            body = "[" + body + "," + "\n" * (rank - 1) + " " * (indent + d + 1) + "...]"
        else:
            body = "[" + body + "]"
    suffixes = [] if t.dtype in (torch.float32, torch.int64) else ["dtype=" + str(t.dtype)]
    return ts._add_suffixes("tensor(" + body, suffixes, indent, force_newline=False), True


def describe(x, base):
    return {
        "shape": list(x.shape),
        "strides": list(x.stride()),
        "offset": x.storage_offset(),
        "view": x.untyped_storage().data_ptr() == base.untyped_storage().data_ptr(),
        "values": [int(v) for v in x.reshape(-1).tolist()],
    }


def main():
    import warnings
    warnings.simplefilter("ignore")
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    out_dir = os.path.join(root, "runtime", "src", "test", "resources", "golden")
    cases = []
    for shape, chain in VIEW_CASES:
        n = math.prod(shape)
        base = torch.arange(n, dtype=torch.float32).reshape(shape)
        case = {"shape": shape, "ops": chain}
        try:
            x = base
            for op, args in chain:
                x = apply(x, op, args)
            case["result"] = describe(x, base)
        except Exception as e:  # noqa: BLE001 - the error text is the golden
            case["error"] = {"type": type(e).__name__, "message": str(e)}
        cases.append(case)
    with open(os.path.join(out_dir, "views.json"), "w") as f:
        f.write('{"torch": "%s", "cases": [\n' % torch.__version__)
        f.write(",\n".join(json.dumps(c, separators=(",", ":")) for c in cases))
        f.write("\n]}\n")

    fmt = []
    for values, shape, dtype in FORMAT_CASES:
        t = torch.tensor(values, dtype=torch.float64).reshape(shape)
        if dtype == "uint64":
            t = torch.tensor(np.array(values, dtype=np.uint64))
        t = t.to(getattr(torch, dtype))
        vals = t.to(torch.float64).reshape(-1).tolist() if dtype != "uint64" else \
            [int(v) for v in np.array(values, dtype=np.uint64).tolist()]
        fmt.append({"dtype": dtype, "shape": shape, "values": [repr(v) for v in vals],
                    "str": str(t)})
    for values, shape, dtype in COMPLEX_FORMAT_CASES:
        t = torch.complex(torch.tensor([v[0] for v in values], dtype=torch.float64),
                          torch.tensor([v[1] for v in values], dtype=torch.float64))
        t = t.reshape(shape).to(getattr(torch, dtype))
        flat = t.to(torch.complex128).reshape(-1)
        vals = []
        for v in flat.tolist():
            vals += [repr(v.real), repr(v.imag)]
        fmt.append({"dtype": dtype, "shape": shape, "values": vals, "str": str(t)})
    for shape, dtype, expand_to in LARGE_FORMAT_CASES:
        t = torch.arange(math.prod(shape), dtype=torch.float64).reshape(shape)
        t = t.to(getattr(torch, dtype))
        case = {"dtype": dtype, "shape": shape, "arange": True}
        if expand_to is not None:
            t = t.expand(expand_to)
            case["expand"] = expand_to
        text, ruled = ufunc4j_str(t)
        if ruled:
            case["rule"] = "ufunc4j-bound"
        case["str"] = text
        fmt.append(case)
    with open(os.path.join(out_dir, "format.json"), "w") as f:
        f.write('{"torch": "%s", "cases": [\n' % torch.__version__)
        f.write(",\n".join(json.dumps(c, separators=(",", ":")) for c in fmt))
        f.write("\n]}\n")
    print(f"wrote {len(cases)} view cases and {len(fmt)} format cases", file=sys.stderr)


if __name__ == "__main__":
    main()
