#!/usr/bin/env python3
"""Golden gradients from real PyTorch autograd (docs/gradients.md), written to
  runtime/src/test/resources/golden/autograd/<group>.json            (built-in ops, reductions,
                                                                      views, casts)
  generated-samples/src/test/resources/golden/autograd/<op>.json     (the sample ops, against
                                                                      torch.nn.functional;
                                                                      composition.json: ops that
                                                                      call ops, as torch composes
                                                                      them)

A case: {"id", "source": "torch", "call": NAME, "args": [ARG, ...], "kwargs": {...},
"requires_grad": [bool per arg], "grad_output": TENSOR | null, "result": TENSOR | null,
"grads": [TENSOR | null per arg], "error": null | str, "error_type": null | str}.
ARG and TENSOR are docs/golden-format.md's encodings (kwargs values may also be int lists, for
dims and shapes). The leaves are the args with requires_grad; the script runs
`out = call(*leaves, **kwargs); out.backward(grad_output)` and records each leaf's .grad (null
for args that do not require grad, and where torch leaves .grad None). grad_output is null when
torch is called with out.backward() on a one-element output.

What the cases cover: every built-in differentiable op on each floating dtype, on broadcast
shapes (leading dims added, dims of size 1 stretched, zero-dim operands, Python numbers), on mixed
dtypes (the gradient comes back in each operand's dtype), and at ties and kinks (maximum and
minimum on equal values, abs and sign at 0, clamp at its bounds, pow at a zero base and a zero
exponent, where); reductions over dims with keepdim (amax/amin with ties); sum_to_size; the
views; casts; in-place ops on a base whose views are used afterwards, and through views; the
ufunc methods (cumsum, cumprod and prod through zeros, logsumexp, amax/amin ties, outer
products, index_add_, reduceat through torch.segment_reduce and NumPy's definition). Deterministic: seeded per group, torch on one thread.
"""
import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import numpy as np
import torch
import torch.nn.functional as F

import golden_common as G
from golden_common import FLOATS, enc_arg, enc_tensor, make

RUNTIME = G.ROOT / "runtime/src/test/resources/golden/autograd"
SAMPLES = G.ROOT / "generated-samples/src/test/resources/golden/autograd"


def enc_kw(v):
    if isinstance(v, (list, tuple)):
        return {"ints": [int(x) for x in v]}
    if isinstance(v, torch.dtype):
        return {"dtype": G.dname(v)}
    return G.enc_scalar(v)


class Cases:
    def __init__(self, group):
        self.group = group
        self.cases = []
        self.ids = {}
        self.rng = G.rng_for("autograd-" + group)

    def values(self, k, lo=-3.0, hi=3.0):
        return [round(float(x), 2) for x in self.rng.uniform(lo, hi, k)]

    def tensor(self, n, shape, lo=-3.0, hi=3.0, values=None):
        k = int(np.prod(shape)) if shape else 1
        if values is None:
            if n == "bool":
                values = [bool(x) for x in self.rng.integers(0, 2, k)]
            elif n in G.INTS:
                values = [int(x) for x in self.rng.integers(-4, 5, k)]
            else:
                values = self.values(k, lo, hi)
        return make(n, values, shape)

    def case(self, cid, call, fn, args, requires=None, kwargs=None, grad_output=True):
        """fn(*leaves, **kwargs).backward(g): args are tensors (leaves where requires says so) or
        Python numbers."""
        kwargs = kwargs or {}
        if requires is None:
            requires = [isinstance(a, torch.Tensor) and a.dtype.is_floating_point for a in args]
        k = self.ids.get(cid, 0)
        self.ids[cid] = k + 1
        c = {"id": cid if k == 0 else f"{cid}.{k}", "source": "torch", "call": call,
             "args": [enc_arg(a) for a in args],
             "kwargs": {key: enc_kw(v) for key, v in kwargs.items()},
             "requires_grad": list(requires)}
        try:
            leaves = [a.detach().clone().requires_grad_(True) if r else a
                      for a, r in zip(args, requires)]
            out = fn(*leaves, **kwargs)
            if grad_output:
                g = make(G.dname(out.dtype), self.values(out.numel(), -2, 2), list(out.shape))
                out.backward(g)
                c["grad_output"] = enc_tensor(g)
            else:
                out.backward()
                c["grad_output"] = None
            c["result"] = enc_tensor(out.detach())
            c["grads"] = [enc_tensor(l.grad) if r and l.grad is not None else None
                          for l, r in zip(leaves, requires)]
            c.update(error=None, error_type=None)
        except Exception as e:  # noqa: BLE001 - the oracle records whatever torch raises
            c.update(grad_output=None, result=None, grads=None, error=str(e),
                     error_type=type(e).__name__)
        self.cases.append(c)

    def write(self, directory):
        return G.write(directory, self.group, self.cases)


# Broadcast shape pairs: equal, a leading dim added, both stretched, 3-D against 2-D, zero-dim.
SHAPES = [([3], [3]), ([2, 3], [3]), ([1, 3], [2, 1]), ([4, 1, 5], [3, 1]), ([], [2, 2]),
          ([2, 2], []), ([], [])]
MIXED = [("float32", "float16"), ("float16", "float32"), ("bfloat16", "float16"),
         ("float64", "float32"), ("float32", "int32"), ("int64", "float64"), ("bfloat16", "float32")]


def positive(name, op):
    """Ops with a restricted domain get operands in it (their kinks are cases of their own)."""
    return op in ("log", "sqrt") or (op == "pow" and name == "a")


def binary(group, fn, call=None, kwargs=None, ties=None, numbers=True):
    C = Cases(group)
    call = call or group
    kwargs = kwargs or {}

    def operand(n, shape, which):
        if group == "pow" and which == "a":
            return C.tensor(n, shape, 0.2, 2.5)
        if group in ("div", "remainder") and which == "b":
            v = C.values(int(np.prod(shape)) if shape else 1, 0.5, 3.0)
            v = [x if i % 2 == 0 else -x for i, x in enumerate(v)]
            return make(n, v, shape)
        return C.tensor(n, shape)

    for n in FLOATS:
        for sa, sb in SHAPES:
            C.case(f"{n}-{sa}-{sb}", call, fn, [operand(n, sa, "a"), operand(n, sb, "b")],
                   kwargs=kwargs)
    for x, y in MIXED:
        C.case(f"mixed-{x}-{y}", call, fn, [operand(x, [2, 3], "a"), operand(y, [3], "b")],
               kwargs=kwargs)
    # One operand requires grad, the other does not; a Python number.
    C.case("one-leaf", call, fn, [operand("float32", [2, 3], "a"), operand("float32", [3], "b")],
           requires=[True, False], kwargs=kwargs)
    if numbers:  # torch.maximum and torch.minimum take no Python numbers
        C.case("number", call, fn, [operand("float32", [2, 3], "a"), 1.5], kwargs=kwargs)
        C.case("number-float64", call, fn, [operand("float64", [4], "a"), 2], kwargs=kwargs)
    if ties is not None:
        for n in FLOATS:
            a, b = ties(n)
            C.case(f"ties-{n}", call, fn, [a, b], kwargs=kwargs)
    return C


def unary(group, fn, kinks=()):
    C = Cases(group)
    lo, hi = (0.1, 4.0) if positive("x", group) else (-3.0, 3.0)
    for n in FLOATS:
        for shape in ([5], [2, 3], []):
            C.case(f"{n}-{shape}", group, fn, [C.tensor(n, shape, lo, hi)])
        C.case(f"{n}-scalar-output", group + ".sum", lambda x: fn(x).sum(),
               [C.tensor(n, [4], lo, hi)], grad_output=False)
        if kinks:
            C.case(f"{n}-kinks", group, fn, [make(n, list(kinks))])
    C.case("transposed", group, fn, [C.tensor("float32", [3, 2], lo, hi).t()])
    return C


def main():
    G.setup()
    groups = []

    def ties_equal(n):
        a = make(n, [1.0, 2.0, -1.5, 0.0, 3.0, -2.0], [2, 3])
        b = make(n, [1.0, 1.0, -1.5, 0.0, 4.0, -2.0], [2, 3])
        return a, b

    groups.append(binary("add", torch.add))
    groups.append(binary("add_alpha", torch.add, call="add", kwargs={"alpha": 2.5}))
    groups.append(binary("sub", torch.sub))
    groups.append(binary("sub_alpha", torch.sub, call="sub", kwargs={"alpha": -0.5}))
    groups.append(binary("mul", torch.mul))
    groups.append(binary("div", torch.div))
    groups.append(binary("remainder", torch.remainder))
    groups.append(binary("maximum", torch.maximum, ties=ties_equal, numbers=False))
    groups.append(binary("minimum", torch.minimum, ties=ties_equal, numbers=False))
    pow_cases = binary("pow", torch.pow)
    for n in FLOATS:
        # A zero base with positive, zero and negative exponents; a zero exponent; a base of 1.
        a = make(n, [0.0, 0.0, 0.0, 2.0, 1.0, 0.5], [6])
        b = make(n, [2.0, 0.0, -1.0, 0.0, 3.0, 2.5], [6])
        pow_cases.case(f"zeros-{n}", "pow", torch.pow, [a, b])
    pow_cases.case("tensor-number", "pow", torch.pow, [pow_cases.tensor("float32", [4], 0.2, 2.5), 3])
    pow_cases.case("number-tensor", "pow", torch.pow, [2.0, pow_cases.tensor("float32", [4])])
    groups.append(pow_cases)

    for op, fn, kinks in [
            ("neg", torch.neg, ()), ("abs", torch.abs, (0.0, -0.0, 1.0, -1.0)),
            ("sign", torch.sign, (0.0, 1.0, -1.0)), ("exp", torch.exp, ()),
            ("log", torch.log, ()), ("sqrt", torch.sqrt, ()), ("sin", torch.sin, ()),
            ("cos", torch.cos, ()), ("tanh", torch.tanh, ()),
            ("sigmoid", torch.sigmoid, (-800.0, -50.0, 0.0, 50.0, 800.0))]:
        groups.append(unary(op, fn, kinks))

    W = Cases("where")
    for n in FLOATS:
        for sa, sb in SHAPES[:5]:
            shape = list(np.broadcast_shapes(tuple(sa), tuple(sb)))
            W.case(f"{n}-{sa}-{sb}", "where", torch.where,
                   [W.tensor("bool", shape), W.tensor(n, sa), W.tensor(n, sb)])
    W.case("mixed", "where", torch.where,
           [W.tensor("bool", [2, 3]), W.tensor("float32", [2, 3]), W.tensor("float16", [3])])
    W.case("number", "where", torch.where, [W.tensor("bool", [4]), W.tensor("float32", [4]), 0.0])
    groups.append(W)

    K = Cases("clamp")
    for n in FLOATS:
        x = make(n, [-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 1.0], [8])
        lo = make(n, [-1.0, -1.0, -1.0, -1.0, 0.5, 0.5, 3.0, 2.0], [8])
        hi = make(n, [1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 1.0, 1.0], [8])
        # Bounds met exactly, a degenerate range, crossed bounds (min > max).
        K.case(f"tensors-{n}", "clamp", torch.clamp, [x, lo, hi])
        K.case(f"numbers-{n}", "clamp", torch.clamp, [x, -1.0, 1.0])
        K.case(f"broadcast-{n}", "clamp", torch.clamp,
               [K.tensor(n, [2, 3]), K.tensor(n, [3], -1.0, 0.0), K.tensor(n, [2, 1], 0.0, 1.0)])
    groups.append(K)

    R = Cases("reductions")
    for op in ("sum", "mean", "amax", "amin"):
        fn = getattr(torch, op)
        for n in FLOATS:
            x = R.tensor(n, [2, 3, 4])
            R.case(f"{op}-all-{n}", op, fn, [x], grad_output=False)
            for dims, keep in (([0], False), ([1], True), ([0, 2], False), ([-1], True),
                               ([0, 1, 2], True)):
                R.case(f"{op}-{dims}-{keep}-{n}", op, fn, [x], kwargs={"dim": dims,
                                                                         "keepdim": keep})
        if op in ("amax", "amin"):
            # Ties: the gradient is shared evenly among the elements equal to the extreme.
            t = make("float32", [1.0, 3.0, 3.0, 2.0, -1.0, -1.0, -1.0, 0.0], [2, 4])
            R.case(f"{op}-ties", op, fn, [t], kwargs={"dim": [1], "keepdim": False})
            R.case(f"{op}-ties-all", op, fn, [t], grad_output=False)
        R.case(f"{op}-zerodim", op, fn, [R.tensor("float32", [])], grad_output=False)
    for shape, size in (([2, 3], [1, 3]), ([2, 3], [2, 1]), ([4, 2, 3], [2, 1]),
                        ([4, 2, 3], [3]), ([2, 3], [2, 3]), ([2, 3], [1, 1])):
        R.case(f"sum_to_size-{shape}-{size}", "sum_to_size",
               lambda x, size: x.sum_to_size(size), [R.tensor("float32", shape)],
               kwargs={"size": size})
    groups.append(R)

    # The ufunc methods (docs/ufuncs.md, docs/gradients.md "Ufunc methods"): cumsum, cumprod and
    # prod through zeros, logsumexp, amax/amin ties (ufunc4j: Ops.maximum/minimum.reduce), outer
    # products (torch.outer, broadcast ops) and index_add_ (ufunc4j: Ops.add.at).
    U = Cases("ufuncs")
    for n in ("float64", "float32"):
        x = U.tensor(n, [3, 5], -1.5, 1.5)
        for d in (0, 1, -1):
            U.case(f"cumsum-{d}-{n}", "cumsum", lambda t, dim: torch.cumsum(t, dim), [x],
                   kwargs={"dim": d})
            U.case(f"cumprod-{d}-{n}", "cumprod", lambda t, dim: torch.cumprod(t, dim), [x],
                   kwargs={"dim": d})
        zeros = make(n, [2.0, 0.0, 3.0, -1.5, 0.5,    # one zero
                         0.0, 1.5, 0.0, 2.0, -1.0,    # two zeros
                         1.5, -2.0, 0.5, 3.0, 0.0],   # a zero at the end
                     [3, 5])
        U.case(f"cumprod-zeros-{n}", "cumprod", lambda t, dim: torch.cumprod(t, dim), [zeros],
               kwargs={"dim": 1})
        U.case(f"prod-zeros-dim-{n}", "prod", lambda t, dim, keepdim: torch.prod(t, dim, keepdim),
               [zeros], kwargs={"dim": 1, "keepdim": False})
        U.case(f"prod-zeros-dim0-{n}", "prod",
               lambda t, dim, keepdim: torch.prod(t, dim, keepdim),
               [zeros], kwargs={"dim": 0, "keepdim": True})
        U.case(f"prod-{n}", "prod", torch.prod, [U.tensor(n, [2, 3], 0.5, 1.5)], grad_output=False)
        U.case(f"prod-one-zero-{n}", "prod", torch.prod,
               [make(n, [2.0, 0.0, 3.0, 1.5, -0.5, 2.0], [2, 3])], grad_output=False)
        U.case(f"prod-two-zeros-{n}", "prod", torch.prod,
               [make(n, [2.0, 0.0, 3.0, 0.0, -0.5, 2.0], [2, 3])], grad_output=False)
        for dims, keep in (([1], False), ([0, 1], True), ([-1], True)):
            U.case(f"logsumexp-{dims}-{keep}-{n}", "logsumexp",
                   lambda t, dim, keepdim: torch.logsumexp(t, dim, keepdim),
                   [U.tensor(n, [3, 4], -20.0, 20.0)], kwargs={"dim": dims, "keepdim": keep})
        ties = make(n, [1.0, 3.0, 3.0, 2.0, 3.0, -1.0, -1.0, -1.0, 0.0, 5.0], [2, 5])
        for op, ufunc in (("amax", "maximum.reduce"), ("amin", "minimum.reduce")):
            fn = getattr(torch, op)
            U.case(f"{op}-ties-{n}", ufunc, lambda t, dim, keepdim, fn=fn: fn(t, dim, keepdim),
                   [ties], kwargs={"dim": [1], "keepdim": False})
            U.case(f"{op}-ties-all-{n}", ufunc, fn, [ties], grad_output=False)
        U.case(f"outer-{n}", "outer", torch.outer, [U.tensor(n, [4]), U.tensor(n, [3])])
        U.case(f"mul-outer-2d-{n}", "mul_outer", lambda a, b: a[:, :, None, None] * b,
               [U.tensor(n, [2, 3]), U.tensor(n, [2, 2])])
        U.case(f"sub-outer-{n}", "sub_outer", lambda a, b: a[:, None] - b,
               [U.tensor(n, [3]), U.tensor(n, [4])])
        U.case(f"div-outer-{n}", "div_outer", lambda a, b: a[:, None] / b,
               [U.tensor(n, [3]), U.tensor(n, [4], 0.5, 2.0)])

        def index_add(x, v, dim, index):
            t = x * 1.0  # a computed target: a leaf that requires grad refuses in-place ops
            t.index_add_(dim, index, v)
            return t

        idx = torch.tensor([0, 2, 0, 3, 2], dtype=torch.int64)
        U.case(f"index_add-0-{n}", "index_add", index_add,
               [U.tensor(n, [4, 3]), U.tensor(n, [5, 3]), 0, idx], requires=[True, True, False,
                                                                          False])
        U.case(f"index_add-1-{n}", "index_add", index_add,
               [U.tensor(n, [3, 4]), U.tensor(n, [3, 5]), 1, idx], requires=[True, True, False,
                                                                          False])
    # After the cases above (the group's random draws stay theirs).
    for n in ("float64", "float32"):
        # reduceAt (NumPy's reduceat; docs/gradients.md): increasing offsets, every segment
        # non-empty, against torch.segment_reduce's own autograd (it reduces along axis 0: dim 1
        # through a transpose); offsets that go back (the result there is x[offsets[i]], so its
        # gradient is the identity at that element) and overlapping segments against torch's
        # autograd of that definition, segment by segment (amax/amin split ties evenly, as
        # segment_reduce does).
        data = U.tensor(n, [7, 3], 0.5, 2.0)
        tied = make(n, [3.0, 1.0, 3.0, 0.5, 0.5, 3.0], [6])  # ties in both segments
        tied2d = make(n, [3.0, 1.0, 3.0, 2.0, 1.0, 3.0, 0.5, 2.0, 0.5, 1.0, 3.0, 2.0], [6, 2])
        for ufunc, red in (("add", "sum"), ("maximum", "max"), ("minimum", "min"),
                           ("mul", "prod")):
            def segment(t, offsets, dim, red=red):
                u = t if dim == 0 else t.t()
                bounds = torch.tensor(offsets + [u.shape[0]], dtype=torch.int64)
                r = torch.segment_reduce(u, red, offsets=bounds, axis=0)
                return r if dim == 0 else r.t()
            U.case(f"{ufunc}-reduceat-segments-{n}", f"{ufunc}.reduceat", segment, [data],
                   kwargs={"offsets": [0, 2, 3, 6], "dim": 0})
            U.case(f"{ufunc}-reduceat-segments-dim1-{n}", f"{ufunc}.reduceat", segment,
                   [U.tensor(n, [2, 7], 0.5, 2.0)], kwargs={"offsets": [0, 4, 5], "dim": 1})

            def numpy_reduceat(t, offsets, dim, red=red):
                size = t.shape[dim]
                parts = []
                for i, start in enumerate(offsets):
                    end = offsets[i + 1] if i + 1 < len(offsets) else size
                    if start >= end:
                        parts.append(t.narrow(dim, start, 1))
                        continue
                    seg = t.narrow(dim, start, end - start)
                    parts.append({"sum": lambda a: a.sum(dim, keepdim=True),
                                  "max": lambda a: a.amax(dim, keepdim=True),
                                  "min": lambda a: a.amin(dim, keepdim=True),
                                  "prod": lambda a: a.prod(dim, keepdim=True)}[red](seg))
                return torch.cat(parts, dim)
            # Ties through the definition (amax/amin split the gradient evenly): torch 2.13's
            # segment_reduce 'min' backward gave tied elements the whole gradient each for some
            # gradients (docs/gradients.md), so it is not the oracle for ties.
            U.case(f"{ufunc}-reduceat-ties-{n}", f"{ufunc}.reduceat", numpy_reduceat, [tied],
                   kwargs={"offsets": [0, 3], "dim": 0})
            U.case(f"{ufunc}-reduceat-ties-2d-{n}", f"{ufunc}.reduceat", numpy_reduceat, [tied2d],
                   kwargs={"offsets": [0, 3], "dim": 0})
            U.case(f"{ufunc}-reduceat-back-{n}", f"{ufunc}.reduceat", numpy_reduceat, [data],
                   kwargs={"offsets": [0, 4, 1, 5, 5, 6], "dim": 0})
            U.case(f"{ufunc}-reduceat-back-dim1-{n}", f"{ufunc}.reduceat", numpy_reduceat,
                   [U.tensor(n, [2, 7], 0.5, 2.0)], kwargs={"offsets": [3, 0, 6, 2], "dim": 1})
    groups.append(U)

    V = Cases("views")
    x = V.tensor("float32", [2, 3, 4])
    view_calls = [
        ("expand", lambda t, size: t.expand(size), [V.tensor("float32", [3, 1])],
         {"size": [2, 3, 4]}),
        ("expand-new-dims", lambda t, size: t.expand(size), [V.tensor("float64", [3])],
         {"size": [2, 4, 3]}),
        ("permute", lambda t, dims: t.permute(dims), [x], {"dims": [2, 0, 1]}),
        ("transpose", lambda t, dim0, dim1: t.transpose(dim0, dim1), [x],
         {"dim0": 0, "dim1": 2}),
        ("t", lambda t: t.t(), [V.tensor("float32", [2, 5])], {}),
        ("reshape", lambda t, shape: t.reshape(shape), [x], {"shape": [4, 6]}),
        ("reshape-copy", lambda t, shape: t.reshape(shape), [x.transpose(0, 2)],
         {"shape": [24]}),
        ("view", lambda t, shape: t.view(shape), [x], {"shape": [6, -1]}),
        ("slice", lambda t, dim, start, stop, step: t[:, start:stop:step], [x],
         {"dim": 1, "start": 0, "stop": 3, "step": 2}),
        ("narrow", lambda t, dim, start, length: t.narrow(dim, start, length), [x],
         {"dim": 2, "start": 1, "length": 2}),
        ("select", lambda t, dim, index: t.select(dim, index), [x], {"dim": 1, "index": -1}),
        ("unsqueeze", lambda t, dim: t.unsqueeze(dim), [x], {"dim": 1}),
        ("squeeze", lambda t: t.squeeze(), [V.tensor("float32", [2, 1, 3, 1])], {}),
        ("squeeze-dim", lambda t, dim: t.squeeze(dim), [V.tensor("float32", [2, 1, 3])],
         {"dim": 1}),
        ("flatten", lambda t: t.flatten(), [x], {}),
        ("to-float64", lambda t: t.to(torch.float64), [V.tensor("float32", [5])], {}),
        ("to-float16", lambda t: t.to(torch.float16), [V.tensor("float32", [5])], {}),
        ("to-bfloat16", lambda t: t.to(torch.bfloat16), [V.tensor("float64", [5])], {}),
        ("copy", lambda t: t.clone(), [V.tensor("float32", [2, 2])], {}),
    ]
    for cid, fn, args, kw in view_calls:
        V.case(cid, cid.split("-")[0] if not cid.startswith("to") else "to", fn, args, kwargs=kw)
    # A chain through several views and ops: the seed's (1, 3) + (2, 1) example and more.
    V.case("chain-broadcast-add", "chain_add", lambda a, b: (a + b).sum(),
           [V.tensor("float32", [1, 3]), V.tensor("float32", [2, 1])], grad_output=False)
    V.case("chain-mlp", "chain_mlp",
           lambda w, x: torch.tanh((w.unsqueeze(0) * x.unsqueeze(2)).sum(1)).mean(),
           [V.tensor("float64", [3, 2]), V.tensor("float64", [4, 3])], grad_output=False)
    groups.append(V)

    # In-place ops and views of one storage (issue 23, docs/gradients.md "Views and in-place
    # ops"): an in-place op on a base whose views are used afterwards (their history is rebased
    # on the base's new one), and in-place ops through a view (the base's history becomes
    # CopySlices). Plain (non-requires-grad) bases are cloned first: the cases write into them.
    I = Cases("inplace")
    f32, f64 = "float32", "float64"

    def base_mul_slice(x, w):
        b = x * 2
        v = b[0:2]
        b.mul_(w)
        return v

    def base_add_transpose(x, w):
        b = x * 1.5
        v = b.t()
        b.add_(w)
        return v * v

    def base_mul_expand(x, w):
        b = (x * 2).unsqueeze(0)
        e = b.expand(4, 3)
        b.mul_(w)
        return e * e

    def base_add_chain(x, w):
        b = x * 2
        v = b.view(2, 2).t()[1]
        b.add_(w)
        return v * v

    def base_twice(x, w):
        b = x * 2
        v = b[1:3]
        b.mul_(w)
        b.add_(w)
        return v

    def base_select_div(x, w):
        b = x.sin()
        r = b.select(0, 1)
        b.div_(w)
        return r

    def base_plain(b, w):
        b = b.clone()
        v = b[0:2]
        b.mul_(w)
        return v

    def view_mul(x, w):
        b = x * 2
        b[0:2].mul_(w)
        return b * b

    def view_chain(x, w):
        b = x * 2
        b.view(2, 2).select(0, 1).mul_(w)
        b.add_(1)
        return b * b

    def view_of_plain(b, w, x):
        b = b.clone()
        b[1:3].add_(w)
        return b * x

    def view_then_view(x, w):
        b = x * 2
        v = b[0:2]
        v.mul_(w)
        return v * b[1:3]

    def view_transpose_div(x, w):
        b = x * 1.0
        b.t().div_(w)
        return b

    def view_from_sibling(x):
        b = x * 2
        b[0:2].add_(b[2:4])  # add saves nothing: mul_ would save the sibling it then writes
        return b * b

    def view_sub_scaled(x, w):
        b = x.sin()
        b[:, 1:3].sub_(w, alpha=0.5)
        return b.exp()

    I.case("base-mul-slice", "base_mul_slice", base_mul_slice,
           [I.tensor(f32, [4]), I.tensor(f32, [4])])
    I.case("base-add-transpose", "base_add_transpose", base_add_transpose,
           [I.tensor(f64, [2, 3]), I.tensor(f64, [3])])
    I.case("base-mul-expand", "base_mul_expand", base_mul_expand,
           [I.tensor(f32, [3]), I.tensor(f32, [1, 3])])
    I.case("base-add-chain", "base_add_chain", base_add_chain,
           [I.tensor(f64, [4]), I.tensor(f64, [4])])
    I.case("base-twice", "base_twice", base_twice, [I.tensor(f32, [4]), I.tensor(f32, [4])])
    I.case("base-select-div", "base_select_div", base_select_div,
           [I.tensor(f64, [2, 3]), I.tensor(f64, [2, 3], 0.5, 3.0)])
    I.case("base-plain", "base_plain", base_plain, [I.tensor(f32, [4]), I.tensor(f32, [4])],
           requires=[False, True])
    I.case("view-mul", "view_mul", view_mul, [I.tensor(f32, [4]), I.tensor(f32, [2])])
    I.case("view-chain", "view_chain", view_chain, [I.tensor(f64, [4]), I.tensor(f64, [2])])
    I.case("view-of-plain", "view_of_plain", view_of_plain,
           [I.tensor(f32, [4]), I.tensor(f32, [2]), I.tensor(f32, [4])],
           requires=[False, True, True])
    I.case("view-then-view", "view_then_view", view_then_view,
           [I.tensor(f64, [4]), I.tensor(f64, [2])])
    I.case("view-transpose-div", "view_transpose_div", view_transpose_div,
           [I.tensor(f64, [2, 3]), I.tensor(f64, [3, 2], 0.5, 3.0)])
    I.case("view-from-sibling", "view_from_sibling", view_from_sibling, [I.tensor(f64, [4])])
    I.case("view-sub-scaled", "view_sub_scaled", view_sub_scaled,
           [I.tensor(f64, [3, 4]), I.tensor(f64, [3, 2])])
    def as_strided_view(x):
        b = x * 1
        v = b.as_strided((2, 2), (1, 3), 1)
        return v * v

    def base_plain_as_strided(b, w):
        b = b.clone()
        v = b.as_strided((2, 2), (1, 2), 1)
        b.mul_(w)
        return v * v

    I.case("as-strided-view", "as_strided_view", as_strided_view, [I.tensor(f64, [6])])
    I.case("base-plain-as-strided", "base_plain_as_strided", base_plain_as_strided,
           [I.tensor(f64, [6]), I.tensor(f64, [6])], requires=[False, True])
    groups.append(I)

    for g in groups:
        path, size, count = g.write(RUNTIME)
        print(f"{path.relative_to(G.ROOT)}: {count} cases, {size} bytes")

    # Sample ops against torch.nn.functional.
    samples = {
        "silu": (lambda x: F.silu(x), []),
        "gelu": (lambda x: F.gelu(x, approximate="tanh"), []),
        "softplus": (lambda x, beta, threshold: F.softplus(x, beta, threshold),
                     [{"beta": 1.0, "threshold": 20.0}, {"beta": 2.0, "threshold": 1.0}]),
        "leaky_relu": (lambda x, negative_slope: F.leaky_relu(x, negative_slope),
                       [{"negative_slope": 0.01}, {"negative_slope": 0.2}]),
        "hardtanh": (lambda x, min_val, max_val: F.hardtanh(x, min_val, max_val),
                     [{"min_val": -1.0, "max_val": 1.0}, {"min_val": -2.0, "max_val": 0.5}]),
    }
    for op, (fn, kwlist) in samples.items():
        C = Cases(op)
        for kw in kwlist or [{}]:
            tag = "-".join(f"{k}={v}" for k, v in kw.items()) or "default"
            for n in FLOATS:
                # Values on a grid that meets the kinks (0, the hardtanh limits) exactly.
                grid = [-3.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0, 0.25, -0.25, 1.5]
                C.case(f"{tag}-grid-{n}", op, fn, [make(n, grid, [3, 4])], kwargs=kw)
                C.case(f"{tag}-random-{n}", op, fn, [C.tensor(n, [2, 5], -6.0, 6.0)], kwargs=kw)
        C.write(SAMPLES)
        print(f"samples {op}: {len(C.cases)} cases")
    # Composition's ops (issue 26): bodies that call other ops, written here as PyTorch composes
    # them. The grid reaches far below 0, where the called sigmoid's declared derivative
    # (torch's sigmoid_backward) stays finite and the derivative of its body is inf / inf.
    C = Cases("composition")
    far = [-800.0, -720.0, -100.0, -30.0, -3.0, -0.5, 0.0, 0.25, 2.0, 30.0, 100.0, 800.0]
    for n in FLOATS:
        C.case(f"sigmoid-{n}", "sigmoid", torch.sigmoid, [make(n, far, [3, 4])])
        C.case(f"silu-{n}", "silu", lambda x: x * torch.sigmoid(x), [make(n, far, [3, 4])])
        C.case(f"shiftedSilu-{n}", "shiftedSilu",
               lambda x, shift: (x - shift) * torch.sigmoid(x - shift),
               [make(n, far, [3, 4]), 2.0])
        C.case(f"softSign2-{n}", "softSign2", lambda x, y: F.softsign(x) * F.softsign(y),
               [C.tensor(n, [2, 3]), C.tensor(n, [3])])
    C.write(SAMPLES)
    print(f"samples composition: {len(C.cases)} cases")
    for op, fn, kwlist in (("lerp", torch.lerp, [0.3, 0.7, -0.5]), ("hypot", torch.hypot, [None])):
        C = Cases(op)
        for w in kwlist:
            for n in FLOATS:
                for sa, sb in SHAPES[:4]:
                    args = [C.tensor(n, sa), C.tensor(n, sb)] + ([] if w is None else [w])
                    C.case(f"w{w}-{n}-{sa}-{sb}", op, fn, args)
        C.write(SAMPLES)
        print(f"samples {op}: {len(C.cases)} cases")


if __name__ == "__main__":
    main()
