#!/usr/bin/env python3
"""Times the benchmark cases on NumPy or PyTorch, as the side-by-side runner asks.

One call measures one system at one thread count over every case, in both modes ("out": result
preallocated; "fresh": result allocated by the call), and prints one JSON object per line:
  {"system": "torch", "threads": 2, "case": "add_16M", "mode": "out", "ms": [..samples..]}
Each sample is the mean time of one call over a batch sized to take about --sample-ms.

With --loop, it measures what a naive user loop sees instead: the fresh call timed one call at a
time for about --loop-ms, the previous result dropped as the next one replaces it (as `c = a + b`
in a loop does), and prints the per-call median, 90th percentile and mean in ms, with the timer's
own cost per call (an empty call timed the same way) already subtracted and reported as "timer_ms":
  {"system": "numpy", "threads": 1, "case": "add_1M", "mode": "loop", "p50": .., "p90": ..,
   "mean": .., "calls": .., "timer_ms": ..}
--threads 0 leaves the system's default thread count (what a naive user gets).
The case list is the same JSON file the JMH benchmark reads.
"""
import argparse
import json
import sys
import time

import numpy as np


def np_dtype(name):
    if name == "bfloat16":
        import ml_dtypes  # NumPy has no bfloat16; ml_dtypes is what NumPy users use.
        return ml_dtypes.bfloat16
    return np.dtype(name)


def make_np(spec, rng):
    shape = tuple(spec["shape"])
    dt = spec["dtype"]
    if dt.startswith("complex"):
        arr = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    elif dt.startswith("int") or dt.startswith("uint"):
        info = np.iinfo(dt)
        arr = rng.integers(max(info.min, -100), min(info.max, 100), size=shape, dtype=dt)
    else:
        arr = rng.standard_normal(shape).astype(np.float32).astype(np_dtype(dt))
    if spec.get("transpose"):
        arr = arr.T
    return arr


# The ufunc reductions' NumPy counterparts (their PyTorch ones: torch.sum, amax, logsumexp).
NP_REDUCE = {"add_reduce": np.add.reduce, "maximum_reduce": np.maximum.reduce,
             "logaddexp_reduce": np.logaddexp.reduce}


def at_indices(case, rng):
    """add_at's row indices: one per row of b, uniform over a's rows (so repeated)."""
    return rng.integers(0, case["a"]["shape"][0], size=case["b"]["shape"][0], dtype=np.int64)


def numpy_case(case, rng):
    a = make_np(case["a"], rng)
    if case["op"] == "log":
        a = np.abs(a)  # the logarithm of data it is defined on (as OpsBench)
    b = make_np(case["b"], rng) if "b" in case else None
    s = case.get("scalar")
    op = case["op"]
    rhs = b if b is not None else (np.float32(s) if s is not None else None)
    if op == "add_backward":
        raise NotImplementedError("NumPy has no autograd")
    if op == "sum":
        axis = tuple(case["dims"])
        o = np.empty(np.sum(a, axis=axis).shape, dtype=a.dtype)
        return (lambda: np.sum(a, axis=axis)), (lambda: np.sum(a, axis=axis, out=o))
    if op in NP_REDUCE:
        f = NP_REDUCE[op]
        axis = tuple(case["dims"])
        o = np.empty(f(a, axis=axis).shape, dtype=a.dtype)
        return (lambda: f(a, axis=axis)), (lambda: f(a, axis=axis, out=o))
    if op == "cumsum":
        axis = case["dims"][0]
        o = np.empty_like(a)
        return (lambda: np.cumsum(a, axis=axis)), (lambda: np.cumsum(a, axis=axis, out=o))
    if op == "add_outer":
        o = np.empty(a.shape + b.shape, dtype=np.result_type(a, b))
        return (lambda: np.add.outer(a, b)), (lambda: np.add.outer(a, b, out=o))
    if op == "add_at":
        idx = at_indices(case, rng)
        def at():
            np.add.at(a, idx, b)
            return a
        return at, at
    if op == "silu":
        def fresh():
            return a / (1 + np.exp(-a))
        o = np.empty_like(a)
        def out():
            np.negative(a, out=o); np.exp(o, out=o); np.add(o, 1, out=o); np.divide(a, o, out=o)
            return o
        return fresh, out
    if op in ("tanh", "exp", "log", "sin", "cos"):
        f = getattr(np, op)
        o = np.empty_like(a)
        return (lambda: f(a)), (lambda: f(a, out=o))
    if op == "sigmoid":
        # NumPy has no sigmoid: 1 / (1 + exp(-a)), in place for out=.
        def fresh():
            return 1 / (1 + np.exp(-a))
        o = np.empty_like(a)
        def out():
            np.negative(a, out=o); np.exp(o, out=o); np.add(o, 1, out=o); np.reciprocal(o, out=o)
            return o
        return fresh, out
    if op == "erf":
        # NumPy has no erf: a NumPy user takes SciPy's ufunc (absent: no NumPy column).
        try:
            from scipy.special import erf
        except ImportError:
            raise NotImplementedError("NumPy has no erf and SciPy is not installed")
        o = np.empty_like(a)
        return (lambda: erf(a)), (lambda: erf(a, out=o))
    if op == "logaddexp":
        o = np.empty_like(a)
        return (lambda: np.logaddexp(a, b)), (lambda: np.logaddexp(a, b, out=o))
    ufunc = {"add": np.add, "mul": np.multiply, "lt": np.less}[op]
    if s is not None:
        rhs = s  # a Python scalar, as a NumPy user writes a + 2.5
    dtype = np.bool_ if op == "lt" else np.result_type(a, rhs)
    o = np.empty(np.broadcast_shapes(a.shape, np.shape(rhs)), dtype=dtype)
    return (lambda: ufunc(a, rhs)), (lambda: ufunc(a, rhs, out=o))


def torch_case(case, rng, torch):
    def make(spec):
        arr = make_np(dict(spec, transpose=False), rng)
        t = torch.from_numpy(arr.astype(np.float32) if spec["dtype"] == "bfloat16" else arr)
        if spec["dtype"] == "bfloat16":
            t = t.to(torch.bfloat16)
        return t.T if spec.get("transpose") else t
    a = make(case["a"])
    if case["op"] == "log":
        a = a.abs()  # as numpy_case
    b = make(case["b"]) if "b" in case else None
    s = case.get("scalar")
    op = case["op"]
    if op == "add_backward":
        # c = a + b recorded once; each call is c.backward(g). "out" accumulates into the existing
        # .grad tensors, "fresh" clears them first (as ufunc4j's OpsBench does).
        a.requires_grad_(True)
        b.requires_grad_(True)
        c = a + b
        g = torch.from_numpy(rng.standard_normal(tuple(c.shape)).astype(np.float32))

        def backward_out():
            c.backward(g, retain_graph=True)

        def backward_fresh():
            a.grad = None
            b.grad = None
            c.backward(g, retain_graph=True)
        return backward_fresh, backward_out
    if op == "sum" or op == "add_reduce":
        dims = tuple(case["dims"])
        o = torch.empty(torch.sum(a, dims).shape, dtype=a.dtype)
        return (lambda: torch.sum(a, dims)), (lambda: torch.sum(a, dims, out=o))
    if op in ("maximum_reduce", "logaddexp_reduce"):
        f = torch.amax if op == "maximum_reduce" else torch.logsumexp
        dims = list(case["dims"])
        o = torch.empty(f(a, dims).shape, dtype=a.dtype)
        return (lambda: f(a, dims)), (lambda: f(a, dims, out=o))
    if op == "cumsum":
        d = case["dims"][0]
        o = torch.empty_like(a)
        return (lambda: torch.cumsum(a, d)), (lambda: torch.cumsum(a, d, out=o))
    if op == "add_outer":
        o = torch.empty(tuple(a.shape) + tuple(b.shape), dtype=torch.result_type(a, b))
        col = a.reshape(tuple(a.shape) + (1,) * b.dim())
        return (lambda: torch.add(col, b)), (lambda: torch.add(col, b, out=o))
    if op == "add_at":
        idx = torch.from_numpy(at_indices(case, rng))
        def at():
            return a.index_add_(0, idx, b)
        return at, at
    if op == "silu":
        f = torch.nn.functional.silu
        o = torch.empty_like(a)
        return (lambda: f(a)), (lambda: torch._C._nn.silu(a, out=o))
    if op in ("tanh", "exp", "log", "sin", "cos", "sigmoid", "erf"):
        f = getattr(torch, op)
        o = torch.empty_like(a)
        return (lambda: f(a)), (lambda: f(a, out=o))
    if op == "logaddexp":
        o = torch.empty_like(a)
        return (lambda: torch.logaddexp(a, b)), (lambda: torch.logaddexp(a, b, out=o))
    fn = {"add": torch.add, "mul": torch.mul, "lt": torch.lt}[op]
    rhs = b if b is not None else s
    dtype = torch.bool if op == "lt" else torch.result_type(a, rhs)
    o = torch.empty(torch.broadcast_shapes(a.shape, b.shape if b is not None else ()), dtype=dtype)
    return (lambda: fn(a, rhs)), (lambda: fn(a, rhs, out=o))


def measure(fn, samples, sample_ms):
    for _ in range(3):
        fn()
    t0 = time.perf_counter()
    fn()
    once = max(time.perf_counter() - t0, 1e-7)
    batch = max(1, int(sample_ms / 1000.0 / once))
    out = []
    for _ in range(samples):
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        out.append((time.perf_counter() - t0) * 1000.0 / batch)
    return out


def loop(fn, loop_ms):
    """Per-call times (ns) of fn over about loop_ms, after a warm-up; the result of each call
    replaces the previous one, which is freed then, as in a user's loop."""
    clock = time.perf_counter_ns
    end = clock() + int(loop_ms * 0.2e6)
    last = None
    while clock() < end:
        last = fn()
    times = []
    end = clock() + int(loop_ms * 1e6)
    while True:
        t0 = clock()
        last = fn()
        t1 = clock()
        times.append(t1 - t0)
        if t1 > end:
            break
    del last
    return times


def percentile(sorted_xs, q):
    return sorted_xs[min(len(sorted_xs) - 1, int(q * len(sorted_xs)))]


def loop_stats(fn, loop_ms):
    empty = sorted(loop(lambda: None, min(loop_ms, 300)))
    timer = percentile(empty, 0.5)
    xs = sorted(max(0, t - timer) for t in loop(fn, loop_ms))
    return {"p50": percentile(xs, 0.5) / 1e6, "p90": percentile(xs, 0.9) / 1e6,
            "mean": sum(xs) / len(xs) / 1e6, "calls": len(xs), "timer_ms": timer / 1e6}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", required=True)
    ap.add_argument("--system", choices=["numpy", "torch"], required=True)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--samples", type=int, default=3)
    ap.add_argument("--sample-ms", type=float, default=150.0)
    ap.add_argument("--only", default="", help="comma-separated case ids")
    ap.add_argument("--loop", action="store_true", help="naive-loop mode: per-call percentiles")
    ap.add_argument("--loop-ms", type=float, default=2000.0)
    args = ap.parse_args()
    cases = json.load(open(args.cases))
    if args.only:
        keep = set(args.only.split(","))
        cases = [c for c in cases if c["id"] in keep]
    torch = None
    if args.system == "numpy":
        args.threads = 1  # NumPy's ufuncs run on the calling thread
    if args.system == "torch":
        import torch as torch_mod
        torch = torch_mod
        if args.threads > 0:
            torch.set_num_threads(args.threads)
        else:
            args.threads = torch.get_num_threads()
    for case in cases:
        rng = np.random.default_rng(1234)
        try:
            fresh, out = numpy_case(case, rng) if torch is None else torch_case(case, rng, torch)
            if args.loop:
                stats = loop_stats(fresh, args.loop_ms)
                print(json.dumps(dict({"system": args.system, "threads": args.threads,
                                       "case": case["id"], "mode": "loop"}, **stats)), flush=True)
                continue
            for mode, fn in (("out", out), ("fresh", fresh)):
                ms = measure(fn, args.samples, args.sample_ms)
                print(json.dumps({"system": args.system, "threads": args.threads, "case": case["id"],
                                  "mode": mode, "ms": ms}), flush=True)
        except Exception as e:  # a case a system cannot run is reported, not fatal
            print(json.dumps({"system": args.system, "threads": args.threads, "case": case["id"],
                              "error": f"{type(e).__name__}: {e}"}), flush=True)


if __name__ == "__main__":
    sys.exit(main())
