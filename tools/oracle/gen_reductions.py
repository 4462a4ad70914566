"""Golden reductions from real PyTorch: sum, mean, amax, amin over dims (keepdim, out=, errors)
and sum_to_size, written to runtime/src/test/resources/golden/reductions/<op>.json.

A case: {"id", "source": "torch", "x": TENSOR, "dims": null | [int, ...], "keepdim": bool,
"size": [..] (sum_to_size only), "out": null | {"dtype", "shape"}, "result": TENSOR | null,
"error": null | str, "error_type": null | str}. TENSOR is docs/golden-format.md's encoding.
`dims: null` calls the op without a dim (every element); `[]` passes dim=[] (also every element
in PyTorch). The Java test (ReductionGoldenTest) compares integral results and amax/amin bit
for bit, floating sums and means within the pairwise-summation error bound (the two libraries
add in different orders). Deterministic: seeded per op, torch on one thread.
"""
import sys

import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import numpy as np
import torch

from golden_common import (ROOT, STD, UINTS, enc_tensor, make, rng_for, setup, tdt, write)

OUT_DIR = ROOT / "runtime/src/test/resources/golden/reductions"

SHAPES = [[], [0], [1], [5], [3, 4], [2, 3, 4], [2, 0, 3], [1, 3, 1], [37, 129], [1000],
          [2, 1, 5, 3]]
# Dtypes also tried on the larger shapes (many leaves, vector bodies and tails).
LARGE = ["float32", "float64", "float16", "int32"]
DIM_CHOICES = {
    0: [None, [], [0], [-1]],
    1: [None, [], [0], [-1]],
    2: [None, [0], [1], [-1], [0, 1], [1, 0]],
    3: [None, [0], [1], [2], [0, 2], [-1, -2], [0, 1, 2]],
    4: [None, [1], [3], [0, 2], [1, 3], [0, 1, 2, 3]],
}


def values(rng, n, name, count):
    if name == "bool":
        return list(rng.integers(0, 2, count))
    if name in ("uint8",) + tuple(UINTS):
        return list(rng.integers(0, 200, count))
    if name.startswith("int"):
        return list(rng.integers(-100, 100, count))
    if name.startswith("complex"):
        re = rng.standard_normal(count)
        im = rng.standard_normal(count)
        return [complex(a, b) for a, b in zip(re, im)]
    return list(rng.standard_normal(count) * 10)


def tensor(rng, name, shape, special=False):
    count = int(np.prod(shape)) if shape else 1
    vals = values(rng, None, name, count)
    if special and name in ("float16", "bfloat16", "float32", "float64") and count >= 4:
        vals[1] = float("nan") if rng.integers(0, 2) else float("inf")
        vals[2] = -0.0
        vals[3] = 0.0
    return make(name, vals, shape)


def call(op, x, dims, keepdim, out=None):
    f = getattr(torch, op)
    kwargs = {}
    if dims is not None:
        kwargs["dim"] = dims
        kwargs["keepdim"] = keepdim
    if out is not None:
        kwargs["out"] = out
    return f(x, **kwargs)


def case(rec, cid, x, dims, keepdim, op, out=None):
    c = {"id": cid, "source": "torch", "x": enc_tensor(x), "dims": dims, "keepdim": keepdim,
         "out": {"dtype": out[0], "shape": list(out[1])} if out else None}
    try:
        o = torch.zeros(list(out[1]), dtype=tdt(out[0])) if out else None
        r = call(op, x, dims, keepdim, o)
        c.update(result=enc_tensor(r), error=None, error_type=None)
    except Exception as e:  # noqa: BLE001 - the oracle records whatever torch raises
        c.update(result=None, error=str(e), error_type=type(e).__name__)
        ext = extension(op, x, dims, keepdim) if out is None else None
        if ext is not None:
            # ufunc4j extends PyTorch here (docs/reductions.md): the value from NumPy, or from
            # torch on the wider dtype it accumulates in.
            c["extension"] = enc_tensor(ext)
    rec.append(c)


def extension(op, x, dims, keepdim):
    """What ufunc4j computes where PyTorch has no CPU kernel: unsigned amax/amin (NumPy's),
    complex32 sum/mean (torch's complex64 result rounded to complex32)."""
    name = str(x.dtype).removeprefix("torch.")
    if name in UINTS and op in ("amax", "amin"):
        axis = None if dims is None or dims == [] or x.dim() == 0 else tuple(d % x.dim() for d in dims)
        if x.numel() == 0:
            return None
        f = np.amax if op == "amax" else np.amin
        keep = keepdim and axis is not None or (keepdim and dims == [] and x.dim() > 0)
        r = np.asarray(f(x.numpy(), axis=axis, keepdims=keep))
        return torch.from_numpy(r.copy())
    if name == "complex32" and op in ("sum", "mean"):
        return call(op, x.to(torch.complex64), dims, keepdim).to(torch.complex32)
    return None


def gen_op(op):
    rng = rng_for(op)
    cases = []
    dtypes = STD + UINTS + ["complex32", "float8_e4m3fn"]
    for name in dtypes:
        for shape in SHAPES:
            if name in UINTS + ["complex32", "float8_e4m3fn"] and shape not in ([3, 4], []):
                continue
            if shape in ([37, 129], [1000]) and name not in LARGE:
                continue
            for dims in DIM_CHOICES[len(shape)]:
                for keepdim in ([False, True] if dims is not None and shape not in ([37, 129], [1000]) else [False]):
                    x = tensor(rng, name, shape, special=(shape == [3, 4]))
                    case(cases, f"{name}{shape}d{dims}k{int(keepdim)}", x, dims, keepdim, op)
    # Non-contiguous inputs: transposed, sliced, expanded.
    for name in ["float32", "float64", "int32", "float16"]:
        base = tensor(rng, name, [6, 5])
        for label, x in [("T", base.t()), ("slice", base[::2, 1:]), ("expand",
                         tensor(rng, name, [4, 1]).expand(4, 7))]:
            for dims in [None, [0], [1], [0, 1]]:
                case(cases, f"{name}.{label}.d{dims}", x, dims, False, op)
    # Errors: repeated and out-of-range dims.
    x = tensor(rng, "float32", [2, 3])
    case(cases, "repeated", x, [0, 0], False, op)
    case(cases, "repeated.neg", x, [1, -1], False, op)
    case(cases, "range", x, [2], False, op)
    case(cases, "range.neg", x, [-3], False, op)
    case(cases, "scalar.range", tensor(rng, "float32", []), [1], False, op)
    # out=: castable and not, right and wrong shape.
    for od in ["float32", "float64", "int32", "float16"]:
        case(cases, f"out.{od}", x, [0], False, op, out=(od, [3]))
    case(cases, "out.int.in", tensor(rng, "int32", [2, 3]), [1], False, op, out=("int64", [2]))
    # Sums whose float32 result is larger than the float16 range: float32 accumulation.
    big = make("float16", [60000.0] * 8, [8])
    case(cases, "float16.overflow", big, None, False, op)
    return cases


def gen_sum_to_size():
    rng = rng_for("sum_to_size")
    cases = []
    pairs = [([2, 3], [1, 3]), ([2, 3], [3]), ([2, 3], [2, 1]), ([2, 3], [1, 1]), ([2, 3], []),
             ([2, 3], [2, 3]), ([4, 1, 3], [1, 1]), ([4, 2, 3], [2, 1]), ([5, 2, 3], [1, 2, 3]),
             ([2, 3], [3, 2]), ([2, 3], [2, 2, 3]), ([2, 3], [4]), ([0, 3], [1, 3]),
             ([2, 0], [2, 1]), ([3, 1], [3, 1])]
    for name in ["float32", "float64", "int32", "bool", "float16", "complex64", "int8"]:
        for shape, size in pairs:
            x = tensor(rng, name, shape)
            c = {"id": f"{name}{shape}to{size}", "source": "torch", "x": enc_tensor(x),
                 "size": size}
            try:
                r = x.sum_to_size(size)
                c.update(result=enc_tensor(r), error=None, error_type=None)
            except Exception as e:  # noqa: BLE001
                c.update(result=None, error=str(e), error_type=type(e).__name__)
            cases.append(c)
    return cases


def gen_signed_zero():
    """Sums and means of -0.0 elements are +0.0 (every sum starts at +0.0); amax/amin keep -0.0:
    one-element columns, rows, strided and expanded inputs, every float dtype."""
    cases = []
    for name in ["float32", "float64", "float16", "bfloat16"]:
        for shape, dims in (([1, 3], [0]), ([3, 1], [1]), ([5], None), ([1], [0]), ([2, 1, 3], [1]),
                            ([4, 3], [0])):
            x = make(name, [-0.0] * int(np.prod(shape)), shape)
            for op in ("sum", "mean", "amax"):
                case(cases, f"{op}-{name}{shape}d{dims}", x, dims, False, op)
        t = make(name, [-0.0] * 12, [3, 4]).t()
        for op in ("sum", "mean"):
            case(cases, f"{op}-{name}T", t, [1], False, op)
            case(cases, f"{op}-{name}expand", make(name, [-0.0], [1, 1]).expand(1, 6), [0], False, op)
    for c in cases:
        c["op"] = c["id"].split("-")[0]
    return cases


def main():
    setup()
    if sys.argv[1:] == ["sum_signed_zero"]:
        path, size, n = write(OUT_DIR, "sum_signed_zero", gen_signed_zero())
        print(f"{path.relative_to(ROOT)}: {n} cases, {size} bytes")
        return
    for op in ["sum", "mean", "amax", "amin"]:
        path, size, n = write(OUT_DIR, op, gen_op(op))
        print(f"{path.relative_to(ROOT)}: {n} cases, {size} bytes")
    path, size, n = write(OUT_DIR, "sum_to_size", gen_sum_to_size())
    print(f"{path.relative_to(ROOT)}: {n} cases, {size} bytes")
    path, size, n = write(OUT_DIR, "sum_signed_zero", gen_signed_zero())
    print(f"{path.relative_to(ROOT)}: {n} cases, {size} bytes")


if __name__ == "__main__":
    main()
