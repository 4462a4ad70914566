"""Golden cases of PyTorch's everyday vocabulary from real PyTorch: joining and splitting (cat,
stack, split, chunk), reordering (flip, roll, repeat, tile, movedim), indexing by tensors
(index_select, gather, take, masked_fill, masked_select, nonzero, where(condition)), statistics
(var, std, argmax, argmin, max/min over a dim, count_nonzero, vector_norm) and eye, written to
runtime/src/test/resources/golden/vocab/<op>.json.

A case: {"id", "op", "inputs": [TENSOR, ...], "params": {...}, "result": TENSOR | [TENSOR, ...]
| null, "error": null | str, "error_type": null | str, "grad_out": TENSOR | [...] (floating
cases), "grads": [TENSOR | null, ...]}. TENSOR is docs/golden-format.md's encoding. `grads` are
the gradients of the inputs after `backward(grad_out)` on the result(s): the Java test
(VocabGoldenTest) runs the same through ufunc4j's autograd. Results that only move elements, and
indices, match bit for bit; var/std/norm within a few ulps (the two libraries add in different
orders). Deterministic: seeded per op, torch on one thread.
"""
import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import numpy as np
import torch

from golden_common import ROOT, enc_tensor, make, rng_for, setup, write

OUT_DIR = ROOT / "runtime/src/test/resources/golden/vocab"
FLOATING = ("float16", "bfloat16", "float32", "float64")


def values(rng, name, count, special=False):
    if name == "bool":
        vals = list(rng.integers(0, 2, count))
    elif name == "uint8":
        vals = list(rng.integers(0, 200, count))
    elif name.startswith("int"):
        vals = list(rng.integers(-100, 100, count))
    else:
        vals = list(np.round(rng.standard_normal(count) * 10, 3))
    if special and name in FLOATING and count >= 4:
        vals[1] = float("nan")
        vals[2] = -0.0
        vals[3] = float("inf")
    return vals


def tensor(rng, name, shape, special=False):
    count = int(np.prod(shape)) if shape else 1
    return make(name, values(rng, name, count, special), shape)


def index(values_, dtype="int64", shape=None):
    t = torch.tensor(values_, dtype=getattr(torch, dtype))
    return t.reshape(shape) if shape is not None else t


class Recorder:
    def __init__(self, op):
        self.op = op
        self.rng = rng_for(op)
        self.cases = []

    def case(self, fn, inputs, params, grad=True):
        """Runs fn(*inputs) in torch and records result (or error) and, for floating inputs that
        can require grad, the gradients of backward(grad_out)."""
        cid = f"{len(self.cases)}"
        enc_inputs = [enc_tensor(t) for t in inputs]
        case = {"id": cid, "op": self.op, "inputs": enc_inputs, "params": params,
                "result": None, "error": None, "error_type": None}
        diff = [t.dtype.is_floating_point for t in inputs]
        use_grad = grad and any(diff)
        leaves = [t.detach().clone().requires_grad_(d and use_grad) for t, d in zip(inputs, diff)]
        try:
            out = fn(*leaves)
        except Exception as e:  # noqa: BLE001 - the refusal is the golden value
            case["error"] = str(e)
            case["error_type"] = type(e).__name__
            self.cases.append(case)
            return
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        case["result"] = [enc_tensor(o) for o in outs] if isinstance(out, (tuple, list)) \
            else enc_tensor(out)
        if use_grad:
            diffable = [o for o in outs if o.requires_grad]
            if diffable:
                gouts = [make(str(o.dtype).replace("torch.", ""),
                              list(np.round(self.rng.standard_normal(o.numel()), 3)), list(o.shape))
                         for o in diffable]
                torch.autograd.backward(diffable, gouts)
                case["grad_outs"] = [enc_tensor(g) for g in gouts]
                case["grads"] = [enc_tensor(l.grad) if l.grad is not None else None
                                 for l in leaves]
        self.cases.append(case)


def gen_cat(r):
    for dt in ("float32", "int32", "float16", "bool", "float64"):
        a, b = tensor(r.rng, dt, [2, 3]), tensor(r.rng, dt, [2, 4])
        r.case(lambda x, y: torch.cat([x, y], 1), [a, b], {"dim": 1})
        r.case(lambda x, y: torch.cat([x, y], -1), [a, b], {"dim": -1})
        r.case(lambda x, y: torch.cat([x, y], 0), [a, b], {"dim": 0})
    r.case(lambda x, y: torch.cat([x, y], 0),
           [tensor(r.rng, "int32", [2, 3]), tensor(r.rng, "float16", [1, 3])], {"dim": 0})
    r.case(lambda x, y: torch.cat([x, y], 0),
           [tensor(r.rng, "float32", [2, 3]), tensor(r.rng, "float64", [4, 3])], {"dim": 0})
    r.case(lambda x, y, z: torch.cat([x, y, z], 0),
           [tensor(r.rng, "float32", [0]), tensor(r.rng, "float32", [2, 2]),
            tensor(r.rng, "float32", [1, 2])], {"dim": 0})
    r.case(lambda x, y: torch.cat([x, y], 0),
           [tensor(r.rng, "float32", [2, 3]), tensor(r.rng, "float32", [3])], {"dim": 0})
    r.case(lambda x, y: torch.cat([x, y], 2),
           [tensor(r.rng, "float32", [2, 3]), tensor(r.rng, "float32", [2, 3])], {"dim": 2})
    r.case(lambda x, y: torch.cat([x, y], 0),
           [tensor(r.rng, "float32", []), tensor(r.rng, "float32", [])], {"dim": 0})
    t = tensor(r.rng, "float32", [3, 4]).t()
    r.case(lambda x, y: torch.cat([x, y], 1), [t, tensor(r.rng, "float32", [4, 2])], {"dim": 1})


def gen_stack(r):
    for dt in ("float32", "int64"):
        for dim in (0, 1, 2, -1):
            r.case(lambda x, y: torch.stack([x, y], dim),
                   [tensor(r.rng, dt, [2, 3]), tensor(r.rng, dt, [2, 3])], {"dim": dim})
    r.case(lambda x, y: torch.stack([x, y], 0),
           [tensor(r.rng, "float32", [2, 3]), tensor(r.rng, "float32", [2, 4])], {"dim": 0})
    r.case(lambda x, y: torch.stack([x, y], 3),
           [tensor(r.rng, "float32", [2, 3]), tensor(r.rng, "float32", [2, 3])], {"dim": 3})


def gen_split(r):
    for size, dim in ((2, 0), (3, 1), (1, -1), (10, 0), (4, 1)):
        r.case(lambda x: torch.split(x, size, dim), [tensor(r.rng, "float32", [5, 4])],
               {"size": size, "dim": dim})
    r.case(lambda x: torch.split(x, 0, 0), [tensor(r.rng, "float32", [4])], {"size": 0, "dim": 0})
    r.case(lambda x: torch.split(x, 0, 0), [tensor(r.rng, "float32", [0])], {"size": 0, "dim": 0})
    for sizes, dim in (([1, 2, 2], 0), ([4], 1), ([0, 3, 1], 1), ([1, 2], 0)):
        r.case(lambda x: torch.split(x, sizes, dim), [tensor(r.rng, "float64", [5, 4])],
               {"sizes": sizes, "dim": dim})


def gen_chunk(r):
    for n, chunks, dim in ((5, 3, 0), (6, 4, 0), (6, 3, 0), (1, 3, 0), (0, 3, 0), (7, 1, 0),
                           (7, 7, 0), (7, 10, 0)):
        r.case(lambda x: torch.chunk(x, chunks, dim), [tensor(r.rng, "float32", [n, 2])],
               {"chunks": chunks, "dim": dim})
    r.case(lambda x: torch.chunk(x, 0, 0), [tensor(r.rng, "float32", [4])],
           {"chunks": 0, "dim": 0})


def gen_flip(r):
    for dt in ("float32", "int16", "complex64", "bfloat16"):
        x = tensor(r.rng, dt, [2, 3, 4]) if dt != "complex64" else \
            torch.randn(2, 3, 4, dtype=torch.complex64, generator=torch.Generator().manual_seed(1))
        for dims in ([0], [2], [0, 2], [-1, 1], []):
            r.case(lambda t: torch.flip(t, dims), [x], {"dims": dims})
    r.case(lambda t: torch.flip(t, [0, 0]), [tensor(r.rng, "float32", [3])], {"dims": [0, 0]})
    r.case(lambda t: torch.flip(t, [0]), [tensor(r.rng, "float32", [])], {"dims": [0]})
    r.case(lambda t: torch.flip(t, [1]), [tensor(r.rng, "float32", [3, 4]).t()], {"dims": [1]})


def gen_roll(r):
    x = tensor(r.rng, "float32", [3, 5])
    for shifts, dims in (([1], [0]), ([-2], [1]), ([7], [1]), ([1, 2], [0, 1]), ([3], []),
                         ([1, 1], [1, 1]), ([0], [0]), ([1, 2], [0]), ([2], [-1])):
        r.case(lambda t: torch.roll(t, shifts, dims), [x], {"shifts": shifts, "dims": dims})
    r.case(lambda t: torch.roll(t, [1], [0]), [tensor(r.rng, "float32", [0, 3])],
           {"shifts": [1], "dims": [0]})


def gen_repeat(r):
    for shape, reps in (([2, 3], [2, 2]), ([3], [2, 3]), ([2, 3], [1, 1, 2]), ([], [3, 2]),
                        ([2, 1], [0, 2]), ([2, 3], [2]), ([2, 3], [-1, 2])):
        r.case(lambda t: t.repeat(*reps), [tensor(r.rng, "float32", shape)], {"repeats": reps})
    r.case(lambda t: t.repeat(2, 2), [tensor(r.rng, "int32", [2, 2])], {"repeats": [2, 2]})


def gen_tile(r):
    for shape, reps in (([2, 3], [2]), ([3], [2, 3]), ([2, 3], [2, 1, 2]), ([2, 2], [])):
        r.case(lambda t: torch.tile(t, reps), [tensor(r.rng, "float64", shape)], {"dims": reps})


def gen_movedim(r):
    x = tensor(r.rng, "float32", [2, 3, 4])
    for s, d in (([0], [2]), ([2], [0]), ([0, 1], [2, 0]), ([-1], [0]), ([0, 0], [1, 2]),
                 ([0], [0, 1]), ([0, 1], [1, 1])):
        r.case(lambda t: torch.movedim(t, s, d), [x], {"source": s, "destination": d})


def gen_index_select(r):
    x = tensor(r.rng, "float32", [4, 5])
    for dim, idx in ((0, [3, 0, 3]), (1, [4, 4, 1, 0]), (0, []), (1, [2]), (-1, [0, 1])):
        r.case(lambda t, i: torch.index_select(t, dim, i), [x, index(idx)], {"dim": dim})
    r.case(lambda t, i: torch.index_select(t, 1, i), [tensor(r.rng, "int32", [3, 3]),
                                                      index([2, 0], "int32")], {"dim": 1})
    r.case(lambda t, i: torch.index_select(t, 0, i), [x, index([4])], {"dim": 0})
    r.case(lambda t, i: torch.index_select(t, 0, i), [x, index([[1]])], {"dim": 0})


def gen_gather(r):
    x = tensor(r.rng, "float32", [3, 4])
    for dim, idx in ((1, [[0, 3], [1, 1], [3, 2]]), (0, [[2, 0, 1, 1]]), (1, [[-1], [0], [-4]]),
                     (0, [[0, 1, 2, 0], [2, 2, 2, 2], [1, 0, 0, 1]])):
        r.case(lambda t, i: torch.gather(t, dim, i), [x, index(idx)], {"dim": dim})
    r.case(lambda t, i: torch.gather(t, 1, i), [x, index([[4]])], {"dim": 1})
    r.case(lambda t, i: torch.gather(t, 1, i), [x, index([1])], {"dim": 1})
    r.case(lambda t, i: torch.gather(t, 1, i), [x, index([[0]] * 4)], {"dim": 1})
    r.case(lambda t, i: torch.gather(t, 0, i), [tensor(r.rng, "int64", [3, 2]),
                                                index([[2, 1]], "int32")], {"dim": 0})


def gen_scatter(r, add=False):
    """scatter / scatter_add (issue 27): dims 0 and 1, repeated indices, src larger than index,
    a rank-1 and a zero-dim case, integral, bool and complex dtypes, and every refusal: an index
    out of range either way, a non-int64 index, dtypes that differ, ranks and sizes that do not
    fit."""
    fn = torch.scatter_add if add else torch.scatter
    x = tensor(r.rng, "float32", [3, 4])
    for dim, idx, src_shape in ((0, [[0, 1, 2, 0], [2, 0, 0, 1]], [2, 4]),
                                (1, [[3, 0], [1, 1], [2, 2]], [3, 2]),
                                (0, [[1, 1, 1, 1]], [3, 5]),
                                (-1, [[0], [3], [0]], [3, 4]),
                                (1, [[0, 1, 2, 3, 0, 1]], [1, 6])):
        src = tensor(r.rng, "float32", src_shape)
        # A src larger than index: PyTorch's backward fails there (its gather gives index's
        # shape), so that case records the result only; ufunc4j pads the gradient with zeros.
        larger = [len(idx), len(idx[0])] != src_shape
        r.case(lambda t, i, s: fn(t, dim, i, s), [x, index(idx), src], {"dim": dim},
               grad=not larger)
    for dt in ("int64", "int8", "uint8", "bool", "float16", "bfloat16", "float64"):
        t = tensor(r.rng, dt, [5])
        s = tensor(r.rng, dt, [6])
        r.case(lambda t, i, s: fn(t, 0, i, s), [t, index([4, 0, 4, 2, 4, 1]), s], {"dim": 0})
    c = torch.tensor([1 + 2j, -3 + 0.5j, 2 - 1j], dtype=torch.complex64)
    cs = torch.tensor([0.25 - 1j, 4 + 4j], dtype=torch.complex64)
    r.case(lambda t, i, s: fn(t, 0, i, s), [c, index([2, 2]), cs], {"dim": 0})
    r.case(lambda t, i, s: fn(t, 0, i, s), [torch.tensor(2.5), index(0), torch.tensor(1.25)],
           {"dim": 0})
    r.case(lambda t, i, s: fn(t, 0, i, s), [x, index([[0, 3, 1, 0]]), tensor(r.rng, "float32", [1, 4])],
           {"dim": 0})
    r.case(lambda t, i, s: fn(t, 1, i, s), [x, index([[0, -1]]), tensor(r.rng, "float32", [1, 2])],
           {"dim": 1})
    r.case(lambda t, i, s: fn(t, 0, i, s), [x, index([[0, 1]], "int32"),
                                            tensor(r.rng, "float32", [1, 2])], {"dim": 0})
    r.case(lambda t, i, s: fn(t, 0, i, s), [x, index([[0, 1]]), tensor(r.rng, "float64", [1, 2])],
           {"dim": 0})
    r.case(lambda t, i, s: fn(t, 0, i, s), [x, index([0, 1]), tensor(r.rng, "float32", [2])],
           {"dim": 0})
    r.case(lambda t, i, s: fn(t, 0, i, s), [x, index([[0, 1]]), tensor(r.rng, "float32", [1, 1])],
           {"dim": 0})
    r.case(lambda t, i, s: fn(t, 1, i, s), [x, index([[0], [1], [2], [0]]),
                                            tensor(r.rng, "float32", [4, 1])], {"dim": 1})
    if not add:
        r.case(lambda t, i: torch.scatter(t, 1, i, -7.5), [x, index([[0, 2], [1, 1], [3, 3]])],
               {"dim": 1, "value": -7.5})


def gen_take(r):
    x = tensor(r.rng, "float32", [3, 4])
    for idx in ([0, 11, 5, 5], [[1, -1], [-12, 2]], 3, [12]):
        r.case(lambda t, i: torch.take(t, i), [x, index(idx)], {})


def gen_masked_fill(r):
    x = tensor(r.rng, "float32", [3, 4])
    mask = torch.tensor([[True, False, False, True]] * 3)
    r.case(lambda t, m: torch.masked_fill(t, m, 7.5), [x, mask], {"value": 7.5})
    r.case(lambda t, m: torch.masked_fill(t, m, -1.0), [x, torch.tensor([True, False, True, False])],
           {"value": -1.0})
    r.case(lambda t, m: torch.masked_fill(t, m, 2.7),
           [tensor(r.rng, "int32", [2, 2]), torch.tensor([[True, False], [False, True]])],
           {"value": 2.7})
    r.case(lambda t, m: torch.masked_fill(t, m, 1.0), [x, torch.ones(3, 4)], {"value": 1.0})
    r.case(lambda t, m: torch.masked_fill(t, m, 3.0),
           [tensor(r.rng, "float32", [4]), torch.tensor([[True], [False]])], {"value": 3.0})


def gen_masked_select(r):
    x = tensor(r.rng, "float32", [3, 4])
    r.case(lambda t, m: torch.masked_select(t, m), [x, x > 0], {})
    r.case(lambda t, m: torch.masked_select(t, m), [x, torch.tensor([True, False, True, True])], {})
    r.case(lambda t, m: torch.masked_select(t, m), [tensor(r.rng, "int64", [2, 3]),
                                                    torch.zeros(2, 3, dtype=torch.bool)], {})
    r.case(lambda t, m: torch.masked_select(t, m), [x, torch.ones(3, 4)], {})


def gen_nonzero(r):
    for dt, shape in (("float32", [3, 4]), ("int32", [5]), ("bool", [2, 2, 2]),
                      ("float32", []), ("float64", [0, 3])):
        t = tensor(r.rng, dt, shape)
        if dt != "bool" and t.numel() > 2:
            t.view(-1)[::2] = 0
        r.case(lambda u: torch.nonzero(u), [t], {}, grad=False)
    r.case(lambda u: torch.nonzero(u), [torch.tensor(0.0)], {}, grad=False)
    r.case(lambda u: torch.nonzero(u), [torch.tensor([float("nan"), -0.0, 0.0, 1e-45])], {},
           grad=False)


def gen_where1(r):
    t = tensor(r.rng, "int32", [3, 4])
    t.view(-1)[::3] = 0
    r.case(lambda u: torch.where(u), [t], {}, grad=False)
    r.case(lambda u: torch.where(u), [torch.tensor([True, False, True])], {}, grad=False)


def gen_var(r):
    for dt in ("float32", "float64"):
        x = tensor(r.rng, dt, [4, 6])
        for dims, corr, keep in ((None, 1, False), ([0], 1, False), ([1], 0, True),
                                 ([0, 1], 2, False), ([-1], 1, False), ([1], 6, False),
                                 ([1], 7, False)):
            r.case(lambda t: torch.var(t, dim=dims, correction=corr, keepdim=keep), [x],
                   {"dims": dims, "correction": corr, "keepdim": keep})
    r.case(lambda t: torch.var(t), [tensor(r.rng, "float32", [1])],
           {"dims": None, "correction": 1, "keepdim": False})
    r.case(lambda t: torch.var(t), [tensor(r.rng, "int32", [3])],
           {"dims": None, "correction": 1, "keepdim": False})
    r.case(lambda t: torch.var(t, dim=[0]), [tensor(r.rng, "float32", [3, 2], special=True)],
           {"dims": [0], "correction": 1, "keepdim": False})
    # Complex (issue 27): a real result, sum |x - mean|^2 / (N - correction).
    for dt in ("complex64", "complex128"):
        z = torch.randn(4, 3, dtype=getattr(torch, dt), generator=torch.Generator().manual_seed(5))
        for dims, corr, keep in ((None, 1, False), ([0], 1, False), ([1], 0, True)):
            r.case(lambda t: torch.var(t, dim=dims, correction=corr, keepdim=keep), [z],
                   {"dims": dims, "correction": corr, "keepdim": keep})


def gen_std(r):
    x = tensor(r.rng, "float32", [5, 3])
    for dims, corr, keep in ((None, 1, False), ([0], 1, True), ([1], 0, False)):
        r.case(lambda t: torch.std(t, dim=dims, correction=corr, keepdim=keep), [x],
               {"dims": dims, "correction": corr, "keepdim": keep})
    z = torch.randn(5, 3, dtype=torch.complex64, generator=torch.Generator().manual_seed(6))
    for dims, corr, keep in ((None, 1, False), ([0], 1, True)):
        r.case(lambda t: torch.std(t, dim=dims, correction=corr, keepdim=keep), [z],
               {"dims": dims, "correction": corr, "keepdim": keep})


def gen_argmax(r):
    for dt in ("float32", "int64", "uint8", "bool", "float16"):
        x = tensor(r.rng, dt, [4, 5])
        for dim, keep in ((None, False), (0, False), (1, True), (-1, False)):
            r.case(lambda t: torch.argmax(t, dim=dim, keepdim=keep), [x],
                   {"dim": dim, "keepdim": keep}, grad=False)
    ties = torch.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]])
    r.case(lambda t: torch.argmax(t, dim=1), [ties], {"dim": 1, "keepdim": False}, grad=False)
    nans = torch.tensor([1.0, float("nan"), 5.0, float("nan")])
    r.case(lambda t: torch.argmax(t, dim=0), [nans], {"dim": 0, "keepdim": False}, grad=False)
    r.case(lambda t: torch.argmax(t), [torch.zeros(0)], {"dim": None, "keepdim": False}, grad=False)
    r.case(lambda t: torch.argmax(t, dim=1), [torch.zeros(2, 0)], {"dim": 1, "keepdim": False},
           grad=False)
    r.case(lambda t: torch.argmax(t, dim=0), [torch.tensor(2.5)], {"dim": 0, "keepdim": False},
           grad=False)


def gen_argmin(r):
    for dt in ("float64", "int32"):
        x = tensor(r.rng, dt, [3, 4])
        for dim, keep in ((None, False), (0, True), (1, False)):
            r.case(lambda t: torch.argmin(t, dim=dim, keepdim=keep), [x],
                   {"dim": dim, "keepdim": keep}, grad=False)
    nans = torch.tensor([1.0, -float("inf"), float("nan"), -5.0])
    r.case(lambda t: torch.argmin(t, dim=0), [nans], {"dim": 0, "keepdim": False}, grad=False)


def gen_max_dim(r):
    for dt in ("float32", "int32"):
        x = tensor(r.rng, dt, [3, 4])
        for dim, keep in ((0, False), (1, True), (-1, False)):
            r.case(lambda t: torch.max(t, dim=dim, keepdim=keep), [x],
                   {"dim": dim, "keepdim": keep})
    r.case(lambda t: torch.max(t, dim=1), [torch.tensor([[1.0, 4.0, 4.0], [2.0, float("nan"), 9.0]])],
           {"dim": 1, "keepdim": False})


def gen_min_dim(r):
    x = tensor(r.rng, "float64", [3, 4])
    for dim, keep in ((0, False), (1, True)):
        r.case(lambda t: torch.min(t, dim=dim, keepdim=keep), [x], {"dim": dim, "keepdim": keep})


def gen_count_nonzero(r):
    for dt in ("float32", "int32", "bool"):
        t = tensor(r.rng, dt, [3, 4])
        if dt != "bool":
            t.view(-1)[::3] = 0
        for dims in ([], [0], [1], [0, 1]):
            r.case(lambda u: torch.count_nonzero(u, dim=dims), [t], {"dims": dims}, grad=False)


def gen_norm(r):
    x = tensor(r.rng, "float32", [3, 4])
    for p in (2.0, 1.0, float("inf"), float("-inf"), 0.0, 3.0, 0.5, -1.0):
        for dims, keep in ((None, False), ([1], True), ([0], False)):
            # JSON has no infinity: p is written as Java's Double.toString text
            text = {float("inf"): "Infinity", float("-inf"): "-Infinity"}.get(p, repr(p))
            r.case(lambda t: torch.linalg.vector_norm(t, ord=p, dim=dims, keepdim=keep), [x],
                   {"p": text, "dims": dims, "keepdim": keep})
    r.case(lambda t: torch.linalg.vector_norm(t, ord=2), [tensor(r.rng, "float64", [7])],
           {"p": "2.0", "dims": None, "keepdim": False})
    # a zero row: the kink, where PyTorch's norm_backward gives 0
    z = tensor(r.rng, "float32", [3, 4])
    z[1] = 0
    for p, text in ((2.0, "2.0"), (3.0, "3.0")):
        r.case(lambda t: torch.linalg.vector_norm(t, ord=p, dim=[1]), [z],
               {"p": text, "dims": [1], "keepdim": False})
    r.case(lambda t: torch.linalg.vector_norm(t), [torch.zeros(3)],
           {"p": "2.0", "dims": None, "keepdim": False})


def gen_eye(r):
    for n, m, dt in ((3, 3, "float32"), (2, 4, "int64"), (4, 2, "bool"), (0, 3, "float32"),
                     (1, 1, "float16")):
        r.case(lambda: torch.eye(n, m, dtype=getattr(torch, dt)), [], {"n": n, "m": m,
                                                                      "dtype": dt})


GENERATORS = {
    "cat": gen_cat, "stack": gen_stack, "split": gen_split, "chunk": gen_chunk, "flip": gen_flip,
    "roll": gen_roll, "repeat": gen_repeat, "tile": gen_tile, "movedim": gen_movedim,
    "index_select": gen_index_select, "gather": gen_gather, "take": gen_take,
    "scatter": gen_scatter, "scatter_add": lambda r: gen_scatter(r, add=True),
    "masked_fill": gen_masked_fill, "masked_select": gen_masked_select, "nonzero": gen_nonzero,
    "where1": gen_where1, "var": gen_var, "std": gen_std, "argmax": gen_argmax,
    "argmin": gen_argmin, "max_dim": gen_max_dim, "min_dim": gen_min_dim,
    "count_nonzero": gen_count_nonzero, "norm": gen_norm, "eye": gen_eye,
}


def main():
    setup()
    for op, gen in GENERATORS.items():
        r = Recorder(op)
        gen(r)
        path, size, n = write(OUT_DIR, op, r.cases)
        print(f"{path.relative_to(ROOT)}: {n} cases, {size} bytes")


if __name__ == "__main__":
    main()
