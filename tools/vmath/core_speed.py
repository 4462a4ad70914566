"""PyTorch's nanoseconds per element for the functions tools/vmath/CoreSpeed.java times, the same
way: one thread (or the count given), out=, float32 and float64, 64K and 1M elements, the median
of 15 samples of about 20 ms after 2 s of warm-up per case (log of |x|, computed before timing); on one
thread in CPU time.

    UFUNC4J_VENV=... $UFUNC4J_VENV/bin/python tools/vmath/core_speed.py [threads]
"""
import sys
import time

import torch

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 1)


# On one thread: this thread's CPU time (PyTorch runs a one-thread op on the caller's thread), as
# CoreSpeed.java, so other processes on a shared machine do not count.
clock = time.thread_time if torch.get_num_threads() == 1 else time.perf_counter


def ns_per_element(f, n):
    end = clock() + 2
    while clock() < end:
        f()
    calls = max(1, 20_000_000 // (n // 2))
    samples = []
    for _ in range(15):
        t = clock()
        for _ in range(calls):
            f()
        samples.append((clock() - t) / calls / n * 1e9)
    samples.sort()
    return samples[len(samples) // 2]


for dtype in (torch.float32, torch.float64):
    for n in (1 << 16, 1 << 20):
        g = torch.Generator().manual_seed(1)
        x = torch.randn(n, generator=g, dtype=torch.float32).to(dtype)
        positive = x.abs()
        out = torch.empty_like(x)
        fns = {
            "exp": lambda: torch.exp(x, out=out),
            "log": lambda: torch.log(positive, out=out),
            "tanh": lambda: torch.tanh(x, out=out),
            "sigmoid": lambda: torch.sigmoid(x, out=out),
            "sin": lambda: torch.sin(x, out=out),
            "cos": lambda: torch.cos(x, out=out),
        }
        print(str(dtype).replace("torch.", ""), n,
              " ".join("%s %.3f" % (k, ns_per_element(f, n)) for k, f in fns.items()),
              flush=True)
