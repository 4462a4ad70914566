#!/usr/bin/env python3
"""Golden data for Tensor.to(dtype): real PyTorch .to() over edge values for every dtype pair.

Run with the oracle venv:  PY=$(tools/oracle/venv.sh); "$PY" tools/oracle/gen_casts.py
Writes runtime/src/test/resources/golden/casts.json (deterministic: seeded, sorted, no dates).

Elements are encoded by bit pattern so NaN payloads and -0.0 survive: a real element is the hex of
its storage bits; a complex element is "re:im", each the hex of one component's bits.
"undefined" lists the indices where PyTorch's result is platform-defined (NaN, infinity or an
out-of-range value converted to an integer type); the Java test checks those against ufunc4j's
documented rule instead (docs/runtime.md).
"""
import json
import math
import os
import sys
import warnings

import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import numpy as np
import torch

SEED = 20240611
DTYPES = [
    "bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex32", "complex64", "complex128",
    "float8_e4m3fn", "float8_e5m2",
]
TORCH = {n: getattr(torch, n) for n in DTYPES}
BITS_VIEW = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}
INT_RANGE = {
    "uint8": (0, 2**8 - 1), "int8": (-2**7, 2**7 - 1), "int16": (-2**15, 2**15 - 1),
    "int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1), "uint16": (0, 2**16 - 1),
    "uint32": (0, 2**32 - 1), "uint64": (0, 2**64 - 1),
}

FLOAT_EDGES = [
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.1, 1 / 3, -0.7, 0.9999999,
    127.0, 127.9, 128.0, 255.0, 255.9, 256.0, -128.0, -129.0, -1.5, 300.7, -300.7,
    32767.0, 32768.0, -32769.0, 65504.0, 65505.0, 65519.99, 65520.0, 65535.0, 65536.0, 70000.0,
    448.0, 449.0, 464.0, 465.0, 480.0, 57344.0, 61439.0, 61440.0, 1e6,
    2.0**-6, 2.0**-7, 2.0**-9, 2.0**-10, 2.0**-14, 2.0**-15, 2.0**-16, 2.0**-17, 2.0**-24,
    3 * 2.0**-26, 2.0**-25, 2.0**-126, 2.0**-133, 2.0**-149, 1e-40, 1e-8, 6e-8,
    3e9, -3e9, 2.0**31, -2.0**31, 2.0**31 - 1, 2.0**32, 2.0**32 - 1, 2.0**53 + 2, 2.0**63, -2.0**63,
    2.0**64, 2.0**64 - 4096, 1e20, -1e20, 3.4e38, 3.4028235e38, 3.5e38, 1e300, -1e300, 5e-324,
    1 + 2.0**-11, 1 + 2.0**-11 + 2.0**-40, 1 + 3 * 2.0**-11, 1 + 2.0**-8 + 2.0**-40, 1 + 2.0**-8,
    1 + 2.0**-24, 1 + 2.0**-24 + 2.0**-50, 16777217.0,
    math.inf, -math.inf, math.nan, -math.nan,
]
INT_EDGES = [
    0, 1, -1, 2, 7, 127, 128, 129, 255, 256, -128, -129, 300, 2049, 4097,
    32767, 32768, -32768, -32769, 65504, 65519, 65520, 65535, 65536,
    2**24 + 1, 2**24 + 2**16 + 1, 2**24 + 3, 2**31 - 1, 2**31, -2**31, -2**31 - 1,
    2**32 - 1, 2**32, 2**53 + 1, 2**62 + 2**39 + 1, 2**63 - 1, -2**63, -2**63 + 1,
]
COMPLEX_EDGES = [
    (0.0, 0.0), (-0.0, -0.0), (1.0, 0.0), (0.0, 1.0), (0.0, -0.0), (-2.5, 3.5), (300.7, -1.0),
    (65520.0, 7.0), (1e20, 1.0), (math.nan, 0.0), (0.0, math.nan), (math.inf, -math.inf),
    (-math.inf, 0.0), (2.0**-24, 2.0**-25), (1 + 2.0**-11 + 2.0**-40, 0.1), (448.0, 1000.0),
    (-1.5, 2.0**31), (255.9, -129.0),
]


def rng_values():
    rng = np.random.default_rng(SEED)
    floats = (rng.standard_normal(16) * 10.0 ** rng.integers(-6, 7, 16)).tolist()
    ints = rng.integers(-2**63, 2**63 - 1, 8, dtype=np.int64).tolist()
    ints += rng.integers(-70000, 70000, 8).tolist()
    return floats, ints


def source_tensor(name, floats, ints):
    if name == "bool":
        return torch.tensor([False, True])
    if name in ("float8_e4m3fn", "float8_e5m2"):
        # every bit pattern
        return torch.arange(256, dtype=torch.int32).to(torch.uint8).view(TORCH[name])
    if name in INT_RANGE:
        wrapped = np.array([v & (2**64 - 1) for v in INT_EDGES + ints], dtype=np.uint64)
        as_i64 = torch.from_numpy(wrapped.view(np.int64).copy())
        if name == "uint64":
            return as_i64.view(torch.uint64)
        return as_i64.to(torch.int64).to(TORCH[name]) if name != "int64" else as_i64
    if name.startswith("complex"):
        re = torch.tensor([c[0] for c in COMPLEX_EDGES] + floats[:8], dtype=torch.float64)
        im = torch.tensor([c[1] for c in COMPLEX_EDGES] + floats[8:], dtype=torch.float64)
        return torch.complex(re, im).to(TORCH[name])
    return torch.tensor(FLOAT_EDGES + floats, dtype=torch.float64).to(TORCH[name])


def encode(t):
    """Hex bit patterns of a 1-D tensor's elements."""
    t = t.contiguous()
    if t.dtype.is_complex:
        size = t.element_size() // 2
        raw = t.view(torch.uint8).view(BITS_VIEW[size]).reshape(-1, 2)
        mask = (1 << (8 * size)) - 1
        return [f"{int(a) & mask:0{2 * size}x}:{int(b) & mask:0{2 * size}x}" for a, b in raw.tolist()]
    size = t.element_size()
    mask = (1 << (8 * size)) - 1
    raw = t.view(BITS_VIEW[size]) if t.dtype != torch.bool else t.to(torch.uint8)
    return [f"{int(v) & mask:0{2 * size}x}" for v in raw.tolist()]


def real_values(t):
    """Real parts as Python floats (for deciding which results are platform-defined)."""
    if t.dtype.is_complex:
        t = t.to(torch.complex128).real
    return t.to(torch.float64).tolist()


def main():
    warnings.simplefilter("ignore")  # ComplexHalf is experimental; complex->real drops imag
    floats, ints = rng_values()
    cases = []
    for src_name in DTYPES:
        src = source_tensor(src_name, floats, ints)
        src_floaty = src.dtype.is_floating_point or src.dtype.is_complex
        for dst_name in DTYPES:
            case = {"from": src_name, "to": dst_name, "in": encode(src)}
            try:
                out = src.to(TORCH[dst_name])
            except Exception as e:  # noqa: BLE001 - record what PyTorch refuses
                case["error"] = f"{type(e).__name__}: {e}".splitlines()[0]
                cases.append(case)
                continue
            case["out"] = encode(out)
            if src_floaty and dst_name in INT_RANGE:
                lo, hi = INT_RANGE[dst_name]
                case["undefined"] = [
                    i for i, v in enumerate(real_values(src))
                    if not math.isfinite(v) or not (lo <= math.trunc(v) <= hi)
                ]
            cases.append(case)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    path = os.path.join(root, "runtime", "src", "test", "resources", "golden", "casts.json")
    with open(path, "w") as f:
        f.write('{"torch": "%s", "seed": %d, "cases": [\n' % (torch.__version__, SEED))
        f.write(",\n".join(json.dumps(c, separators=(",", ":")) for c in cases))
        f.write("\n]}\n")
    print(f"wrote {len(cases)} cast cases to {os.path.relpath(path)}", file=sys.stderr)


if __name__ == "__main__":
    main()
