"""Golden ufunc methods from real NumPy and PyTorch, written to
runtime/src/test/resources/golden/ufuncs/<file>.json (docs/golden-format.md, "Ufunc methods").

- numpy.json: every built-in binary op's ufunc methods through NumPy's own (np.add.reduce,
  accumulate, outer, at, reduceat; np.maximum..., np.logical_and..., np.left_shift...) over the
  dtypes bool, int8, uint8, int32, int64, float16, float32, float64 (those the op accepts),
  contiguous, transposed, sliced and expanded inputs, empty extents, edge values (NaN, +-inf,
  +-0, integer wraparound). ufunc4j's result dtype follows PyTorch (int64 for integral add/mul
  reductions and accumulations; the op's (x, x) dtype otherwise); where NumPy's default would
  differ, NumPy is called with that dtype= (still NumPy's loop, in ufunc4j's dtype), and the case
  says so ("dtype_arg").
- integral.json: the associative integral ops' reduce and accumulate over rows of 300 elements
  of int8 to int64 spanning the dtype's range (gen_integral).
- torch.json: Tensor's conveniences against PyTorch: cumsum, cumprod, prod, logsumexp, any, all,
  and index_add_ (Ops.add.at along a dim).

A case: {"id", "source": "numpy" | "torch", "op": ufunc4j's op name, "method", "x": TENSOR,
"b"/"indices"/"values"/"offsets": TENSOR (outer, at, reduceat), "dims": null | [int...],
"dim": int, "keepdim": bool, "result": TENSOR | null, "error": null | str, "compare": "exact" |
"close" | "zeros"}. "close": a floating fold whose order differs between the libraries (add and
mul trees, PyTorch's float64 accumulation of cumsum/cumprod, transcendental pow/logsumexp);
"zeros": exact except that +0 and -0 are equal (maximum/minimum, docs/reductions.md). An "error"
case records NumPy's or PyTorch's refusal; ufunc4j must refuse it too (the Java test checks its
own message). Deterministic: seeded per file, torch on one thread.
"""
import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import numpy as np
import torch

from golden_common import ROOT, make_np, rng_for, setup, write
from golden_common import enc_tensor as enc_torch


def enc_tensor(t):
    """golden_common's encoding, through torch for NumPy arrays: it keeps the shape of a zero-dim
    array and the strides of a view (torch.from_numpy shares them)."""
    if isinstance(t, np.ndarray):
        t = torch.from_numpy(t)
    return enc_torch(t)

OUT_DIR = ROOT / "runtime/src/test/resources/golden/ufuncs"

# ufunc4j op -> (NumPy ufunc, dtypes it accepts here, associative, identity-free in ufunc4j)
OPS = {
    "add": (np.add, "all"),
    "sub": (np.subtract, "num"),
    "mul": (np.multiply, "all"),
    "div": (np.true_divide, "num"),
    "floorDivide": (np.floor_divide, "num"),
    "remainder": (np.remainder, "num"),
    "maximum": (np.maximum, "all"),
    "minimum": (np.minimum, "all"),
    "pow": (np.power, "num"),
    "eq": (np.equal, "all"),
    "ne": (np.not_equal, "all"),
    "lt": (np.less, "all"),
    "logicalAnd": (np.logical_and, "all"),
    "logicalOr": (np.logical_or, "all"),
    "logicalXor": (np.logical_xor, "all"),
    "bitwiseAnd": (np.bitwise_and, "int"),
    "bitwiseOr": (np.bitwise_or, "int"),
    "bitwiseXor": (np.bitwise_xor, "int"),
    "bitwiseLeftShift": (np.left_shift, "intnb"),
    "bitwiseRightShift": (np.right_shift, "intnb"),
}
ASSOCIATIVE = {"add", "mul", "maximum", "minimum", "logicalAnd", "logicalOr", "logicalXor",
               "bitwiseAnd", "bitwiseOr", "bitwiseXor"}
PREDICATES = {"eq", "ne", "lt", "logicalAnd", "logicalOr", "logicalXor"}
DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64"]
FLOATS = ["float16", "float32", "float64"]


def accepts(op, name):
    kind = OPS[op][1]
    if kind == "all":
        return True
    if kind == "num":
        return name != "bool"
    if kind == "int":
        return name not in FLOATS
    return name not in FLOATS and name != "bool"  # shifts


def values(rng, op, name, count, edge=False):
    """Values every library computes the same way: no integer zero divisors, no negative integer
    powers, shifts below the width; floats with NaN/inf/+-0 where edge is asked for."""
    if name == "bool":
        return list(rng.integers(0, 2, count).astype(bool))
    if name in FLOATS:
        if op == "pow":
            return list(rng.uniform(0.5, 1.5, count))
        v = list(np.round(rng.standard_normal(count) * 4, 2))
        if edge and count >= 5:
            v[1], v[2], v[3], v[4] = -0.0, 0.0, float("inf"), float("nan")
        return v
    lo, hi = {"int8": (-9, 10), "uint8": (0, 10), "int32": (-50, 50), "int64": (-50, 50)}[name]
    if op in ("div", "floorDivide", "remainder"):
        v = list(rng.integers(1, 6, count) * rng.choice([-1, 1] if lo < 0 else [1], count))
    elif op == "pow":
        v = list(rng.integers(0, 3, count))
    elif op in ("bitwiseLeftShift", "bitwiseRightShift"):
        v = list(rng.integers(0, 3, count))
    else:
        v = list(rng.integers(lo, hi, count))
    if edge and count >= 3 and name in ("int32", "int64") and op in ("add", "mul", "sub"):
        big = np.iinfo(np.dtype(name)).max
        v[0], v[1] = big, big - 3  # wraps in int64 (int32 sums are int64: no wrap)
    return v


def result_dtype(op, name):
    """ufunc4j's (PyTorch's) dtype of a reduction/accumulation of op over dtype name."""
    if op in ("add", "mul") and (name == "bool" or name.startswith("int") or name == "uint8"):
        return "int64"
    if op in PREDICATES:
        return "bool"
    if op == "div" and name not in FLOATS:
        return "float32"
    return name


def compare_kind(op, name, method):
    if op in ("maximum", "minimum"):
        return "zeros"
    if name in FLOATS and (op in ("add", "mul", "pow") or name == "float16"):
        # float16: NumPy carries some folds in float32 and rounds others per step; ufunc4j
        # carries every fold in float32 (docs/ufuncs.md).
        return "close"
    if op == "remainder":
        return "zeros"  # NumPy's remainder gives +0 where PyTorch's (and ufunc4j's) gives -0
    return "exact"


def via_accumulate(uf, x, axis, keepdims=False, dtype=None):
    """A left fold from NumPy's accumulate: its last element along axis. NumPy 2.4's contiguous
    np.power.reduce of float64 does not compute the left fold its own accumulate (and its reduce of
    the same values in Fortran order) computes, so pow's reductions are taken from accumulate."""
    r = np.take(uf.accumulate(x, axis=axis, dtype=dtype), -1, axis=axis)
    return np.expand_dims(r, axis) if keepdims else r


class Cases:
    def __init__(self):
        self.cases = []
        self.ids = {}

    def add(self, case):
        base = case["id"]
        k = self.ids.get(base, 0)
        self.ids[base] = k + 1
        if k:
            case["id"] = f"{base}.{k}"
        self.cases.append(case)


def run(case, fn):
    try:
        r = fn()
        case.update(result=enc_tensor(np.asarray(r) if not isinstance(r, torch.Tensor) else r),
                    error=None)
    except Exception as e:  # noqa: BLE001 - the oracle records whatever the library raises
        case.update(result=None, error=f"{type(e).__name__}: {e}")
    return case


def numpy_reduce(op, x, dims, keepdim):
    uf = OPS[op][0]
    name = str(x.dtype)
    axis = None if dims is None else tuple(d % max(x.ndim, 1) for d in dims)
    want = result_dtype(op, name)
    dtype_arg = None
    if op in PREDICATES and op.startswith("logical") and name != "bool":
        x = x.astype(bool)  # ufunc4j: an associative predicate reduces the truth values
    elif want != name and not (op in PREDICATES):
        dtype_arg = want
    if op in PREDICATES and not op.startswith("logical") and name != "bool":
        # NumPy refuses (the resolved dtypes are not compatible with reduce), as ufunc4j does.
        return uf.reduce(x, axis=axis, keepdims=keepdim), None
    if op == "pow" and x.size and axis is not None and len(axis) == 1:
        return via_accumulate(uf, x, axis[0], keepdim, dtype_arg), dtype_arg
    if op == "pow" and x.size and x.ndim == 1:
        return via_accumulate(uf, x, 0, keepdim, dtype_arg), dtype_arg
    r = uf.reduce(x, axis=axis, keepdims=keepdim, dtype=dtype_arg)
    return r, dtype_arg


def gen_numpy():
    rng = rng_for("ufuncs-numpy")
    out = Cases()
    shapes = [([5], [None, [0]]), ([3, 4], [None, [0], [1], [-1], [0, 1]]), ([2, 3, 4], [[1], [0, 2]]),
              ([0], [None]), ([2, 0], [[1], [0]]), ([], [None]), ([17], [None])]
    for op in OPS:
        for name in DTYPES:
            if not accepts(op, name):
                continue
            for shape, dim_choices in shapes:
                count = int(np.prod(shape)) if shape else 1
                x = make_np(name, values(rng, op, name, count, edge=(shape == [5])), shape)
                for dims in dim_choices:
                    for keepdim in ([False, True] if dims is not None and len(shape) == 2 else [False]):
                        c = {"id": f"{op}.reduce.{name}{shape}d{dims}k{int(keepdim)}",
                             "source": "numpy", "op": op, "method": "reduce", "x": enc_tensor(x),
                             "dims": dims, "keepdim": keepdim,
                             "compare": compare_kind(op, name, "reduce")}
                        holder = {}

                        def call(x=x, dims=dims, keepdim=keepdim):
                            r, arg = numpy_reduce(op, x, dims, keepdim)
                            holder["arg"] = arg
                            return r
                        run(c, call)
                        if holder.get("arg"):
                            c["dtype_arg"] = holder["arg"]
                        if c["error"] and "zero-size array" in c["error"] and op in ("maximum", "minimum"):
                            # ufunc4j's maximum/minimum have an identity (-inf/+inf, the integral
                            # min/max): the extension's value, from NumPy's finfo/iinfo.
                            c["extension"] = enc_tensor(identity_fill(op, name, x, dims, keepdim))
                        out.add(c)
            # accumulate along each dim of a [3, 4] and a [6]; strided inputs.
            base = make_np(name, values(rng, op, name, 12, edge=True), [3, 4])
            line = make_np(name, values(rng, op, name, 6), [6])
            for label, x in [("c", base), ("T", base.T), ("line", line), ("step", line[::2]),
                             ("expand", np.broadcast_to(line[:1], (4,)))]:
                for dim in range(x.ndim):
                    c = {"id": f"{op}.accumulate.{name}.{label}.{dim}", "source": "numpy",
                         "op": op, "method": "accumulate", "x": enc_tensor(x), "dim": dim,
                         "compare": compare_kind(op, name, "accumulate")}
                    want = result_dtype(op, name)
                    xs = x.astype(bool) if op.startswith("logical") else x
                    arg = want if want != name and not op.startswith("logical") else None
                    if op in PREDICATES and not op.startswith("logical") and name != "bool":
                        arg = None
                        run(c, lambda xs=xs, dim=dim: OPS[op][0].accumulate(xs, axis=dim))
                    else:
                        run(c, lambda xs=xs, dim=dim, arg=arg: OPS[op][0].accumulate(xs, axis=dim, dtype=arg))
                    if arg:
                        c["dtype_arg"] = arg
                    out.add(c)
            # outer: [3] x [2, 2] and a zero-dim b.
            a = make_np(name, values(rng, op, name, 3), [3])
            b = make_np(name, values(rng, op, name, 4), [2, 2])
            for label, bb in [("2x2", b), ("T", b.T), ("0d", make_np(name, values(rng, op, name, 1), []))]:
                c = {"id": f"{op}.outer.{name}.{label}", "source": "numpy", "op": op,
                     "method": "outer", "x": enc_tensor(a), "b": enc_tensor(bb),
                     "compare": "zeros" if op in ("maximum", "minimum") else
                     ("close" if op == "pow" and name in FLOATS else "exact")}
                out.add(run(c, lambda bb=bb: np.asarray(OPS[op][0].outer(a, bb)).astype(
                    torch_like_dtype(op, name, name))))
            # at: repeated and negative indices, into a [4, 3] target along dim 0.
            if op not in PREDICATES and not (op == "div" and name not in FLOATS):
                # (div of integers: NumPy's at casts the float quotient back unsafely; ufunc4j
                # refuses it, PyTorch's in-place rule: float32 can't be cast to int32)
                target = make_np(name, values(rng, op, name, 12), [4, 3])
                idx = np.array([0, 2, 0, -1, 2, 0], dtype=np.int64)
                vals = make_np(name, values(rng, op, name, 18), [6, 3])
                for label, v in [("rows", vals), ("bcast", vals[:, :1]), ("row", vals[0])]:
                    c = {"id": f"{op}.at.{name}.{label}", "source": "numpy", "op": op,
                         "method": "at", "x": enc_tensor(target), "indices": enc_tensor(idx),
                         "values": enc_tensor(v),
                         "compare": "zeros" if op in ("maximum", "minimum") else
                         ("close" if op == "pow" and name in FLOATS else "exact")}

                    def at(v=v):
                        t = target.copy()
                        OPS[op][0].at(t, idx, v)  # values broadcast to target[idx]'s shape
                        return t
                    out.add(run(c, at))
            # reduceat along dim 1 of a [3, 7]: increasing, repeated, decreasing offsets.
            if op not in PREDICATES or op.startswith("logical"):
                x = make_np(name, values(rng, op, name, 21), [3, 7])
                for label, offs in [("inc", [0, 2, 5]), ("rep", [1, 1, 4, 6]), ("dec", [4, 1, 0]),
                                    ("one", [3])]:
                    o = np.array(offs, dtype=np.int32)
                    c = {"id": f"{op}.reduceat.{name}.{label}", "source": "numpy", "op": op,
                         "method": "reduceat", "x": enc_tensor(x), "offsets": enc_tensor(o),
                         "dim": 1, "compare": compare_kind(op, name, "reduceat")}
                    want = result_dtype(op, name)
                    xs = x.astype(bool) if op.startswith("logical") else x
                    arg = want if want != name and not op.startswith("logical") else None
                    if op == "pow":
                        run(c, lambda xs=xs, o=o, arg=arg: reduceat_via_accumulate(xs, o, arg))
                    else:
                        run(c, lambda xs=xs, o=o, arg=arg: OPS[op][0].reduceat(xs, o, axis=1, dtype=arg))
                    if arg:
                        c["dtype_arg"] = arg
                    out.add(c)
    # Refusals: offsets out of range, at indices out of range (nothing written).
    x = make_np("float32", values(rng, "add", "float32", 6), [6])
    out.add(run({"id": "add.reduceat.range", "source": "numpy", "op": "add", "method": "reduceat",
                 "x": enc_tensor(x), "offsets": enc_tensor(np.array([0, 6], dtype=np.int64)),
                 "dim": 0, "compare": "exact"},
                lambda: np.add.reduceat(x, np.array([0, 6]))))
    out.add(run({"id": "add.at.range", "source": "numpy", "op": "add", "method": "at",
                 "x": enc_tensor(x), "indices": enc_tensor(np.array([1, 6], dtype=np.int64)),
                 "values": enc_tensor(np.ones(2, dtype=np.float32)), "compare": "exact"},
                lambda: np.add.at(x.copy(), np.array([1, 6]), np.ones(2, dtype=np.float32))))
    return out.cases


def reduceat_via_accumulate(x, offsets, dtype):
    """np.power.reduceat along axis 1 from accumulate (see via_accumulate)."""
    n = x.shape[1]
    parts = []
    for i, start in enumerate(offsets):
        end = offsets[i + 1] if i + 1 < len(offsets) else n
        if start < end:
            parts.append(via_accumulate(np.power, x[:, start:end], 1, True, dtype))
        else:
            parts.append(x[:, start:start + 1].astype(dtype or x.dtype))
    return np.concatenate(parts, axis=1)


def identity_fill(op, name, x, dims, keepdim):
    """The result ufunc4j gives for maximum/minimum of an empty extent: the declared identity."""
    shape = list(x.shape)
    axes = range(len(shape)) if dims is None else [d % len(shape) for d in dims]
    out_shape = [1 if d in axes else n for d, n in enumerate(shape) if keepdim or d not in axes]
    if name in FLOATS:
        v = -np.inf if op == "maximum" else np.inf
    elif name == "bool":
        v = op != "maximum"
    else:
        info = np.iinfo(np.dtype(name))
        v = info.min if op == "maximum" else info.max
    return np.full(out_shape, v, dtype=np.dtype(name))


def torch_like_dtype(op, a, b):
    """ufunc4j's (PyTorch's) result dtype of op over two tensors of dtype a: NumPy's outer of
    two int8 arrays is int8 already; only div of integers (float32, not NumPy's float64) and the
    integral add/mul of bool (NumPy keeps bool for logical-like add) differ."""
    if op == "div" and a not in FLOATS:
        return np.float32
    if op in PREDICATES:
        return np.bool_
    if op in ("add", "mul") and a == "bool":
        return np.bool_
    return np.dtype(a)


def gen_torch():
    rng = rng_for("ufuncs-torch")
    out = Cases()

    def tensor(name, shape, edge=False):
        count = int(np.prod(shape)) if shape else 1
        return torch.from_numpy(make_np(name, values(rng, "add", name, count, edge), shape).copy())

    def case(cid, method, x, fn, compare, **extra):
        c = {"id": cid, "source": "torch", "op": method, "method": method, "x": enc_tensor(x)}
        c.update(extra)
        c["compare"] = compare
        run(c, fn)
        if method in ("any", "all") and x.dtype == torch.uint8 and c["result"]:
            # torch keeps uint8 for uint8 input (a legacy rule); ufunc4j's is bool throughout.
            c["result"] = enc_tensor(fn().to(torch.bool))
            c["deviation"] = "torch returns uint8 for uint8 input"
        out.add(c)

    for name in DTYPES:
        close = "close" if name in FLOATS else "exact"
        for shape in ([5], [3, 4], [2, 3, 4]):
            x = tensor(name, shape, edge=(shape == [5]))
            for dim in range(len(shape)):
                case(f"cumsum.{name}{shape}.{dim}", "cumsum", x, lambda x=x, d=dim: torch.cumsum(x, d),
                     close, dim=dim)
                case(f"cumprod.{name}{shape}.{dim}", "cumprod", x,
                     lambda x=x, d=dim: torch.cumprod(x, d), close, dim=dim)
                for keep in (False, True):
                    case(f"prod.{name}{shape}.{dim}k{int(keep)}", "prod", x,
                         lambda x=x, d=dim, k=keep: torch.prod(x, d, keepdim=k), close,
                         dim=dim, keepdim=keep)
                    case(f"any.{name}{shape}.{dim}k{int(keep)}", "any", x,
                         lambda x=x, d=dim, k=keep: torch.any(x, d, keepdim=k), "exact",
                         dim=dim, keepdim=keep)
                    case(f"all.{name}{shape}.{dim}k{int(keep)}", "all", x,
                         lambda x=x, d=dim, k=keep: torch.all(x, d, keepdim=k), "exact",
                         dim=dim, keepdim=keep)
            case(f"prod.{name}{shape}", "prod", x, lambda x=x: torch.prod(x), close)
            case(f"any.{name}{shape}", "any", x, lambda x=x: torch.any(x), "exact")
            case(f"all.{name}{shape}", "all", x, lambda x=x: torch.all(x), "exact")
            if name != "bool":
                for dims in ([0], [-1], list(range(len(shape)))):
                    for keep in (False, True):
                        case(f"logsumexp.{name}{shape}.{dims}k{int(keep)}", "logsumexp", x,
                             lambda x=x, d=dims, k=keep: torch.logsumexp(x, d, keepdim=k),
                             "close", dims=dims, keepdim=keep)
        # Empty extents: the identity.
        e = tensor(name, [2, 0])
        case(f"prod.{name}.empty", "prod", e, lambda e=e: torch.prod(e, 1), close, dim=1,
             keepdim=False)
        case(f"cumsum.{name}.empty", "cumsum", e, lambda e=e: torch.cumsum(e, 1), close, dim=1)
        case(f"any.{name}.empty", "any", e, lambda e=e: torch.any(e), "exact")
        case(f"all.{name}.empty", "all", e, lambda e=e: torch.all(e), "exact")
    # logsumexp's shift: rows of -inf, +inf, huge values.
    for name in FLOATS:
        x = torch.tensor([[float("-inf")] * 3, [float("inf"), 1.0, 2.0], [1000.0, 1000.0, -5.0],
                          [float("nan"), 0.0, 1.0]], dtype=getattr(torch, name))
        case(f"logsumexp.{name}.edges", "logsumexp", x,
             lambda x=x: torch.logsumexp(x, [1], keepdim=False), "close", dims=[1], keepdim=False)
    # index_add_ = Ops.add.at along a dim: repeated and negative indices.
    for name in ["int32", "int64", "float32", "float64", "float16"]:
        target = tensor(name, [3, 5])
        idx = torch.tensor([4, 0, 4, -1, 2], dtype=torch.int64)
        src = tensor(name, [3, 5])
        fixed = torch.where(idx < 0, idx + 5, idx)  # torch's index_add_ takes no negative index

        def index_add(target=target, src=src):
            t = target.clone()
            t.index_add_(1, fixed, src)
            return t
        case(f"index_add.{name}", "index_add", target, index_add,
             "close" if name == "float16" else "exact", dim=1, indices=enc_tensor(idx),
             values=enc_tensor(src))
    return out.cases


INTEGRAL_OPS = ["add", "mul", "maximum", "minimum", "bitwiseAnd", "bitwiseOr", "bitwiseXor"]
INTEGRAL_DTYPES = ["int8", "uint8", "int16", "int32", "int64"]


def gen_integral():
    """integral.json: reductions and accumulations of the associative integral ops over rows long
    enough for the generated fold loops' vector leaves (300 elements: more than one leaf's 256
    int8 accumulators), values over the dtype's whole range with both extremes in every row, so
    sums and products wrap in int64 and maximum/minimum meet the limits. Sums and products of
    the narrower dtypes are int64 (PyTorch's promotion; NumPy called with dtype=int64)."""
    rng = rng_for("ufuncs-integral")
    out = Cases()
    for op in INTEGRAL_OPS:
        for name in INTEGRAL_DTYPES:
            info = np.iinfo(np.dtype(name))
            if op == "mul":
                # odd factors, so the wrapped product is not simply 0
                v = rng.integers(-2 if info.min < 0 else 0, 2, 600) * 2 + 1
            else:
                v = rng.integers(int(info.min), int(info.max), 600, endpoint=True)
                v[0], v[1], v[300], v[301] = info.min, info.max, info.max, info.min
            x = make_np(name, list(v), [2, 300])
            arg = result_dtype(op, name)
            arg = arg if arg != name else None
            for dims in [None, [1], [0]]:
                c = {"id": f"{op}.reduce.{name}[2, 300]d{dims}", "source": "numpy", "op": op,
                     "method": "reduce", "x": enc_tensor(x), "dims": dims, "keepdim": False,
                     "compare": "exact"}
                axis = None if dims is None else tuple(dims)
                run(c, lambda x=x, axis=axis: OPS[op][0].reduce(x, axis=axis, dtype=arg))
                if arg:
                    c["dtype_arg"] = arg
                out.add(c)
            c = {"id": f"{op}.accumulate.{name}[2, 300].1", "source": "numpy", "op": op,
                 "method": "accumulate", "x": enc_tensor(x), "dim": 1, "compare": "exact"}
            run(c, lambda x=x: OPS[op][0].accumulate(x, axis=1, dtype=arg))
            if arg:
                c["dtype_arg"] = arg
            out.add(c)
    return out.cases


def main():
    setup()
    for name, cases in [("numpy", gen_numpy()), ("torch", gen_torch()),
                        ("integral", gen_integral())]:
        path, size, n = write(OUT_DIR, name, cases)
        print(f"{path.relative_to(ROOT)}: {n} cases, {size} bytes")


if __name__ == "__main__":
    main()
