#!/usr/bin/env python3
"""Golden data for the first hour's small surprises (issue 29 item 7), from real PyTorch, NumPy
and ml_dtypes.

Run with the oracle venv:  PY=$(tools/oracle/venv.sh); "$PY" tools/oracle/gen_first_hour.py
Writes, under runtime/src/test/resources/golden/ (deterministic):

grad_format.json: str(tensor) of tensors that take part in autograd, as PyTorch prints them
  (requires_grad=True on a leaf, grad_fn=<AddBackward0> on a computed tensor, after the dtype).
  Each case names a recipe that GradFormatGoldenTest builds the same way in Java.
npz/savez.npz, npz/savez_compressed.npz: np.savez and np.savez_compressed of ARRAYS (with a
  positional array, which NumPy names arr_0), and npz/arrays.json: each array's name, dtype,
  shape and values, what np.load(path)[name] gives.
npz/bfloat16.npy: a bfloat16 array as ufunc4j writes it (descr 'bfloat16', the name ml_dtypes
  registers with NumPy). This script checks that np.load of it, in a program that imported
  ml_dtypes, is an ml_dtypes.bfloat16 array of the intended values, and that NumPy without
  ml_dtypes refuses it by that name rather than loading raw bytes (run in a child process).
"""
import io
import json
import os
import pathlib
import struct
import subprocess
import sys
import zipfile

import ml_dtypes
import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import numpy as np
import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "runtime/src/test/resources/golden"

A = [1.0, 2.0, 3.0]
B = [10.0, 20.0, 30.0]
M = [[0.5, -1.25, 3.0], [1e3, 2.0, -7.5]]


def leaf(values, dtype=torch.float32):
    return torch.tensor(values, dtype=dtype).requires_grad_(True)


# name -> how PyTorch makes the tensor (GradFormatGoldenTest.build mirrors each one).
RECIPES = {
    "leaf": lambda: leaf(A),
    "leaf_float16": lambda: leaf(A, torch.float16),
    "leaf_float64_2d": lambda: leaf(M, torch.float64),
    "add": lambda: leaf(A) + leaf(B),
    "mul": lambda: leaf(A) * leaf(B),
    "sub": lambda: leaf(A) - leaf(B),
    "exp": lambda: leaf(A).exp(),
    "sigmoid": lambda: leaf(A).sigmoid(),
    "sum": lambda: leaf(A).sum(),
    "expand": lambda: leaf(A).view(3, 1).expand(3, 2),
    "permute": lambda: leaf(M).permute(1, 0),
    "to_float64": lambda: leaf(A).to(torch.float64),
    "float64_2d_mul": lambda: leaf(M, torch.float64) * 2.0,
    "no_grad_add": lambda: no_grad(lambda: leaf(A) + leaf(B)),
    "no_requires_grad": lambda: torch.tensor(A),
}


def no_grad(f):
    with torch.no_grad():
        return f()


def grad_format():
    cases = [{"recipe": name, "str": str(make())} for name, make in RECIPES.items()]
    with open(OUT / "grad_format.json", "w") as f:
        json.dump({"generator": "tools/oracle/gen_first_hour.py", "torch": torch.__version__,
                   "cases": cases}, f, indent=1)
        f.write("\n")
    return len(cases)


ARRAYS = {
    "weights": np.array([[0.5, -1.25, 3.0], [1e3, 2.0, -7.5]], dtype=np.float32),
    "counts": np.arange(6, dtype=np.int64).reshape(3, 2),
    "mask": np.array([True, False, True]),
    "half": np.array([1.5, -0.25], dtype=np.float16),
    "scalar": np.array(2.5, dtype=np.float64),
}
POSITIONAL = np.array([7, 8, 9], dtype=np.int32)  # np.savez names it arr_0


def fixed_zip(path):
    """np.savez stamps each member with the current time; fix it so the file is deterministic."""
    data = path.read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        members = [(i, z.read(i.filename)) for i in z.infolist()]
    with zipfile.ZipFile(path, "w") as out:
        for info, content in members:
            info.date_time = (2026, 1, 1, 0, 0, 0)
            out.writestr(info, content, compress_type=info.compress_type)


def npz():
    d = OUT / "npz"
    d.mkdir(exist_ok=True)
    np.savez(d / "savez.npz", POSITIONAL, **ARRAYS)
    np.savez_compressed(d / "savez_compressed.npz", POSITIONAL, **ARRAYS)
    for name in ("savez.npz", "savez_compressed.npz"):
        fixed_zip(d / name)
        loaded = np.load(d / name)
        assert sorted(loaded.files) == sorted(["arr_0", *ARRAYS]), loaded.files
    arrays = {**ARRAYS, "arr_0": POSITIONAL}
    # In the archive's member order (np.savez puts the named arrays first), as Npy.readNpz keeps.
    order = [m[:-len(".npy")] for m in zipfile.ZipFile(d / "savez.npz").namelist()]
    expected = []
    for name in order:
        a = arrays[name]
        expected.append({"name": name, "dtype": str(a.dtype), "shape": list(a.shape),
                         "values": [repr(float(v)) if a.dtype.kind == "f" else v
                                    for v in a.reshape(-1).tolist()]})
    with open(d / "arrays.json", "w") as f:
        json.dump({"generator": "tools/oracle/gen_first_hour.py", "numpy": np.__version__,
                   "arrays": expected}, f, indent=1)
        f.write("\n")


BF16 = [1.5, -2.0, 3.140625, 0.0, float("inf")]


def bfloat16():
    a = np.array(BF16, dtype=ml_dtypes.bfloat16).reshape(5)
    header = "{'descr': 'bfloat16', 'fortran_order': False, 'shape': (5,), }"
    pad = (10 + len(header) + 1 + 63) // 64 * 64 - 10 - len(header) - 1
    body = (header + " " * pad + "\n").encode("ascii")
    raw = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(body)) + body + a.view("<u2").tobytes()
    path = OUT / "npz" / "bfloat16.npy"
    path.write_bytes(raw)
    back = np.load(path)
    assert back.dtype == np.dtype(ml_dtypes.bfloat16), back.dtype
    assert back.astype(np.float64).tolist() == BF16, back
    plain = subprocess.run(
        [sys.executable, "-c", "import numpy as np, sys; np.load(sys.argv[1])", str(path)],
        capture_output=True, text=True)
    assert plain.returncode != 0 and "bfloat16" in plain.stderr, plain.stderr
    with open(OUT / "npz" / "bfloat16.json", "w") as f:
        json.dump({"generator": "tools/oracle/gen_first_hour.py", "ml_dtypes": ml_dtypes.__version__,
                   "values": [repr(v) for v in BF16],
                   "bits": [int(b) for b in a.view("<u2")]}, f, indent=1)
        f.write("\n")


def main():
    torch.set_num_threads(1)
    n = grad_format()
    npz()
    bfloat16()
    print(f"wrote {n} grad format cases, 2 .npz archives and the bfloat16 .npy", file=sys.stderr)


if __name__ == "__main__":
    main()
