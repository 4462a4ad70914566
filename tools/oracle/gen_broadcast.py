#!/usr/bin/env python3
"""Writes runtime/src/test/resources/golden/broadcast.json from real PyTorch.

Run with the oracle venv: PY=$(tools/oracle/venv.sh); "$PY" tools/oracle/gen_broadcast.py
Deterministic: the random cases come from a seeded generator.

Each case is {"shapes": [[...], ...]} plus either "result" (torch.broadcast_shapes) or "error":
the text of the error of a real elementwise op on those shapes. Two operands: torch.add, whose
TensorIterator gives "The size of tensor a (5) must match the size of tensor b (4) at
non-singleton dimension 1". Three or more: torch.broadcast_tensors, which folds the same binary
rule from left to right ("tensor a" is the broadcast of the operands before "tensor b").
torch.broadcast_shapes words its errors differently ("Attempting to broadcast a dimension of
length ..."); it is kept as "broadcast_shapes_error" for reference only (see
docs/broadcasting.md for why ufunc4j follows the op text).
"""
import json
import pathlib
import random

import pin_cpu  # noqa: F401  (before torch: one instruction set on every host)
import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "runtime/src/test/resources/golden/broadcast.json"

SEEDS = [
    [[3, 1], [1, 4]], [[2, 5], [4]], [[5], [2, 5]], [[2, 5], [4, 1]], [[], [3]], [[], []],
    [[0], [1]], [[0], [0]], [[0], [2]], [[2, 0], [2, 1]], [[1, 0], [3, 1]], [[0, 3], [3]],
    [[2, 0, 3], [1, 3]], [[2, 1], [1, 0]], [[4, 3, 1], [1, 2]], [[1, 2], [4, 3, 1]],
    [[8, 1, 6, 1], [7, 1, 5]], [[5, 4], [1]], [[15, 3, 5], [15, 1, 5]], [[3], [4]],
    [[2, 1], [8, 4, 3]], [[2, 5], [3, 5], [5]], [[1], [2], [3]], [[2, 3], [2, 3], [2, 4]],
    [[1, 1, 1], [1], []], [[3, 1, 1], [1, 4, 1], [1, 1, 5]], [[0, 1], [1, 5], [1, 1]],
    [[6, 5, 4, 3, 2, 1], [1, 2, 3, 4, 5, 6]], [[1, 1, 1, 1, 1, 1], [7]],
]


def tensors(shapes):
    # CPU tensors: meta tensors would run Python meta functions with their own error texts.
    # The shapes are small (at most 7**6 one-byte elements).
    return [torch.empty(s, dtype=torch.uint8) for s in shapes]


def case(shapes):
    c = {"shapes": shapes}
    try:
        c["result"] = list(torch.broadcast_shapes(*[tuple(s) for s in shapes]))
        return c
    except RuntimeError as e:
        c["broadcast_shapes_error"] = str(e)
    try:
        if len(shapes) == 2:
            torch.add(*tensors(shapes))
        else:
            torch.broadcast_tensors(*tensors(shapes))
    except RuntimeError as e:
        c["error"] = str(e)
        return c
    raise AssertionError(f"broadcast_shapes failed but the op did not: {shapes}")


def random_compatible(rng):
    """Operands cut from one output shape: each a suffix, some sizes replaced by 1."""
    rank = rng.randint(0, 6)
    out = [rng.choice([0, 1, 2, 3, 4, 5, 7]) if rng.random() < 0.1 else rng.randint(1, 5) for _ in range(rank)]
    shapes = []
    for _ in range(rng.choice([2, 2, 2, 3, 4])):
        r = rng.randint(0, rank)
        shapes.append([1 if rng.random() < 0.4 else d for d in out[rank - r:]])
    return shapes


def random_incompatible(rng):
    """A compatible set with one size of one operand changed to a different non-1 size."""
    while True:
        shapes = random_compatible(rng)
        candidates = [(i, j) for i, s in enumerate(shapes) for j, d in enumerate(s)]
        if not candidates:
            continue
        i, j = rng.choice(candidates)
        d = shapes[i][j]
        shapes[i][j] = rng.choice([x for x in (0, 2, 3, 4, 6) if x != d])
        try:
            torch.broadcast_shapes(*[tuple(s) for s in shapes])
        except RuntimeError:
            return shapes


def main():
    rng = random.Random(20240603)
    cases = [case(s) for s in SEEDS]
    cases += [case(random_compatible(rng)) for _ in range(250)]
    cases += [case(random_incompatible(rng)) for _ in range(150)]
    doc = {"generator": "tools/oracle/gen_broadcast.py", "torch_version": torch.__version__.split("+")[0]}
    lines = ["{"] + [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in doc.items()] + [' "cases": [']
    lines += [f"  {json.dumps(c, separators=(',', ':'))}" + ("," if i < len(cases) - 1 else "")
              for i, c in enumerate(cases)]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines + [" ]", "}"]) + "\n")
    print(f"{OUT.relative_to(ROOT)}: {len(cases)} cases ({sum('error' in c for c in cases)} incompatible)")


if __name__ == "__main__":
    main()
