"""Shared encoding and case recording for gen_elementwise.py and gen_samples.py.

Not a generator itself (regenerate.sh runs gen_*.py only). The JSON format is documented in
docs/golden-format.md and at the top of gen_elementwise.py.
"""
import json
import pathlib
import struct
import warnings
import zlib

import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import numpy as np
import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Dtypes every op is tried on (torch records its own refusal where it has no kernel).
STD = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
       "float64", "complex64", "complex128"]
# Dtypes PyTorch knows but mostly lacks CPU kernels for: tried once per op (result or error).
EXTRA = ["uint16", "uint32", "uint64", "complex32", "float8_e4m3fn", "float8_e5m2"]
UINTS = ["uint16", "uint32", "uint64"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
COMPLEX = ["complex32", "complex64", "complex128"]
FLOAT8 = ["float8_e4m3fn", "float8_e5m2"]
INTS = ["uint8", "int8", "int16", "int32", "int64"] + UINTS
NMANT = {"float16": 10, "bfloat16": 7, "float32": 23, "float64": 52}


def setup():
    """Deterministic, quiet torch: one thread (no reduction-order effects, same code path every
    run), no warnings in the output."""
    torch.set_num_threads(1)
    warnings.filterwarnings("ignore")
    np.seterr(all="ignore")


def tdt(name):
    return getattr(torch, name)


def dname(dtype):
    return str(dtype).removeprefix("torch.")


def is_float(n):
    return n in FLOATS or n in FLOAT8


def bits(n):
    return {"bool": 1, "uint8": 8, "int8": 8, "int16": 16, "int32": 32, "int64": 64,
            "uint16": 16, "uint32": 32, "uint64": 64}[n]


def irange(n):
    """(min, max) of an integer dtype name."""
    if n == "bool":
        return 0, 1
    info = np.iinfo(np.dtype(n))
    return int(info.min), int(info.max)


# ---------------------------------------------------------------- making tensors from values

def make(n, values, shape=None):
    """A torch tensor of dtype name n from a flat list of Python values (bool/int/float/complex)
    in row-major order. Floats are rounded from float64 by torch's own conversion (RNE)."""
    shape = list(shape) if shape is not None else [len(values)]
    if n == "bool":
        t = torch.tensor([bool(v) for v in values], dtype=torch.bool)
    elif n in INTS:
        t = torch.from_numpy(np.array([int(v) for v in values], dtype=np.dtype(n)))
    elif n in COMPLEX:
        t = torch.tensor([complex(v) for v in values], dtype=torch.complex128).to(tdt(n))
    else:
        t = torch.tensor([float(v) for v in values], dtype=torch.float64).to(tdt(n))
    return t.reshape(shape).clone()


def make_np(n, values, shape=None):
    shape = list(shape) if shape is not None else [len(values)]
    return np.array(values, dtype=np.dtype(n)).reshape(shape)


# ---------------------------------------------------------------- encoding

def hexes(raw, width):
    return [f"0x{int.from_bytes(raw[i:i + width], 'little'):0{2 * width}x}" for i in range(0, len(raw), width)]


def enc_tensor(t):
    """TENSOR of a torch tensor or numpy array: dtype, shape, strides (only when not
    contiguous), data as raw bit patterns in row-major logical order."""
    if isinstance(t, np.ndarray):
        a = np.ascontiguousarray(t)
        width = a.dtype.itemsize // (2 if a.dtype.kind == "c" else 1)
        d = {"dtype": str(a.dtype), "shape": list(a.shape)}
        if not t.flags.c_contiguous and t.size > 1:
            d["strides"] = [s // t.dtype.itemsize for s in t.strides]
        d["data"] = hexes(a.tobytes(), width)
        return d
    d = {"dtype": dname(t.dtype), "shape": list(t.shape)}
    if not t.is_contiguous():
        d["strides"] = list(t.stride())
    width = t.element_size() // (2 if t.is_complex() else 1)
    # A fresh 1-D copy: contiguous() keeps the odd stride of a one-element view, which view() refuses.
    flat = torch.empty(t.numel(), dtype=t.dtype).copy_(t.detach().reshape(-1))
    raw = flat.view(torch.uint8).numpy().tobytes() if flat.numel() else b""
    d["data"] = hexes(raw, width)
    return d


def enc_scalar(v):
    if isinstance(v, (bool, np.bool_)):
        return {"bool": bool(v)}
    if isinstance(v, int):
        return {"int": str(v)}
    if isinstance(v, float):
        return {"float": f"0x{struct.unpack('<Q', struct.pack('<d', v))[0]:016x}"}
    raise TypeError(f"no SCALAR encoding for {v!r}")


def enc_arg(a):
    if isinstance(a, (torch.Tensor, np.ndarray)):
        return enc_tensor(a)
    return {"scalar": enc_scalar(a)}


# ---------------------------------------------------------------- recording cases

class Recorder:
    """Collects the cases of one op; ids are made unique with a numeric suffix."""

    def __init__(self, op):
        self.op = op
        self.cases = []
        self.ids = {}

    def _id(self, base):
        k = self.ids.get(base, 0)
        self.ids[base] = k + 1
        return base if k == 0 else f"{base}.{k}"

    def torch_case(self, cid, fn, args, kwargs=None, inplace=None, out=None):
        """Runs fn(*args, **kwargs) (or args[0].<inplace>(*args[1:], **kwargs), or with out=)
        on real torch and records the inputs as they were before the call and the result or
        error. `inplace` is the in-place method name; `out` is (dtype name, shape)."""
        kwargs = kwargs or {}
        case = {"id": self._id(cid), "source": "torch", "args": [enc_arg(a) for a in args]}
        if kwargs:
            case["kwargs"] = {k: enc_scalar(v) for k, v in kwargs.items()}
        case["inplace"] = inplace is not None
        case["out"] = {"dtype": out[0], "shape": list(out[1])} if out else None
        try:
            if inplace is not None:
                r = getattr(args[0], inplace)(*args[1:], **kwargs)
                assert r is args[0]
            elif out is not None:
                o = torch.zeros(list(out[1]), dtype=tdt(out[0]))
                r = fn(*args, **kwargs, out=o)
                assert r is o
            else:
                r = fn(*args, **kwargs)
            case.update(result=enc_tensor(r), error=None, error_type=None)
        except Exception as e:  # noqa: BLE001 - the oracle records whatever torch raises
            case.update(result=None, error=str(e), error_type=type(e).__name__)
        self.cases.append(case)
        return case

    def numpy_case(self, cid, fn, args):
        case = {"id": self._id(cid), "source": "numpy", "args": [enc_arg(a) for a in args],
                "inplace": False, "out": None}
        try:
            r = np.asarray(fn(*args))
            case.update(result=enc_tensor(r), error=None, error_type=None)
        except Exception as e:  # noqa: BLE001
            case.update(result=None, error=str(e), error_type=type(e).__name__)
        self.cases.append(case)
        return case


def rng_for(op, salt=0):
    """A generator seeded from the op name: adding or reordering ops leaves the others alone."""
    return np.random.default_rng(zlib.crc32(op.encode()) + 7919 * salt)


def dump(op, cases):
    """The file text: one case per line (small diffs when torch changes, still readable)."""
    head = {"op": op, "torch": torch.__version__, "numpy": np.__version__}
    lines = ["{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in head.items()) + ', "cases": [']
    lines += [json.dumps(c, separators=(",", ":")) + ("," if i < len(cases) - 1 else "") for i, c in enumerate(cases)]
    return "\n".join(lines + ["]}"]) + "\n"


def write(dirpath, op, cases):
    dirpath.mkdir(parents=True, exist_ok=True)
    path = dirpath / f"{op}.json"
    text = dump(op, cases)
    path.write_text(text)
    return path, len(text.encode()), len(cases)
