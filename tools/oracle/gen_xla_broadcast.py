#!/usr/bin/env python3
"""Writes runtime/src/test/resources/golden/xla_broadcast.json from real JAX and real XLA.

Run with the oracle venv: PY=$(tools/oracle/venv.sh); "$PY" tools/oracle/gen_xla_broadcast.py
Deterministic: the random cases come from a seeded generator; elements are small integers.

Two lists of cases (docs/broadcasting.md, "Explicit (XLA) broadcasting"):

"in_dim": jax.lax.broadcast_in_dim(operand, shape, broadcast_dimensions) on an operand holding
0, 1, 2, ... (int32, row-major). {"operand": [...], "shape": [...], "dims": [...]} plus either
"result": the flat row-major elements of the result, or "error": JAX's text. JAX accepts any
duplicate-free dims (a permutation transposes); XLA's BroadcastInDim and ufunc4j require them
strictly increasing, so the Java test expects a refusal there whatever JAX did.

"binary": an XLA binary op with broadcast_dimensions, compiled and run by XLA through TensorFlow's
tf2xla client, the way tensorflow.compiler.tf2xla.python.xla.add(x, y, broadcast_dims) and friends
are built, under tf.function(jit_compile=True): XlaBroadcastHelper lifts the lower-rank operand with
XLA's BroadcastInDim, then the op broadcasts degenerate dimensions). {"op": ufunc4j's Ops name, "dtype",
"a": shape, "b": shape, "dims": [...]} plus "result": {"shape", "values"} (flat row-major) or
"error": the text. Operand a holds 1, 2, 3, ...; b holds ((3 k) mod 7) + 1 for k = 0, 1, ... (for
shifts: k mod 4); bool operands are (k mod 2 == 1) and (k mod 3 == 0).
"""
import json
import os
import pathlib
import random

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from jax import lax  # noqa: E402
from tensorflow.compiler.tf2xla.python import xla as tfxla  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "runtime/src/test/resources/golden/xla_broadcast.json"

# (operand shape, output shape, dims): the XLA and DESIGN examples, zero sizes, and each way to be wrong.
IN_DIM_SEEDS = [
    ([3], [2, 3], [1]),            # XLA broadcasting.md: |7 8 9| over the rows of a (2,3) matrix
    ([3], [3, 3], [1]),            # ... a 3x3 matrix, dimension 1: rows repeat
    ([3], [3, 3], [0]),            # ... dimension 0: columns repeat
    ([3], [2, 3], [0]),            # ... "adding a 2x3 matrix to a 3-element vector, 0 is invalid"
    ([3, 4], [2, 3, 4], [1, 2]),   # ... a 3x4 matrix onto dimensions 1 and 2 of a 2x3x4 cuboid
    ([4], [4, 2], [0]), ([1, 2], [4, 1, 2], [1, 2]), ([2, 1], [2, 3, 4], [0, 2]),
    ([2, 1], [2, 3, 4], [1, 2]), ([2, 3], [2, 3, 4], [0, 1]), ([], [2, 3], []), ([], [], []),
    ([5], [5], [0]), ([1], [4], [0]), ([1, 1], [3, 4], [0, 1]), ([2, 3], [2, 3], [0, 1]),
    ([0], [3, 0], [1]), ([1], [3, 0], [1]), ([0], [3, 1], [1]), ([2], [0, 2], [1]), ([], [0], []),
    ([2, 3], [3, 2], [1, 0]), ([3, 2], [3, 4, 2], [2, 0]), ([2, 2], [2, 2], [1, 0]),  # permutations
    ([2, 3], [2, 3], [0, 0]), ([2], [2, 2], [1, 1]),                                # duplicates
    ([2], [3, 2], [2]), ([2], [3, 2], [-1]), ([2], [3, 2], [0, 1]), ([2], [3], []),
    ([2, 3], [2], [0, 1]), ([2], [3, -1], [1]), ([2, 3], [2, 3, 4], [0]),
]

# Binary-op seeds: (a, b, dims), mostly from XLA's broadcasting.md and shape_inference.cc.
BINARY_SEEDS = [
    ([4], [1, 2], [0]),            # DESIGN / broadcasting.md "Broadcast composition": [4, 2]
    ([1, 2], [4, 3, 1], [1, 2]),   # ... the "more complicated example": [4, 3, 2]
    ([2, 3], [3], [1]), ([3], [2, 3], [1]), ([2, 3], [3], [0]), ([3, 3], [3], [0]),
    ([3, 3], [3], [1]), ([2, 3, 4], [3, 4], [1, 2]), ([2, 3, 4], [2, 3], [0, 1]),
    ([2, 3, 4], [2, 1], [0, 2]), ([2, 3, 4], [2, 1], [1, 2]), ([2, 3, 4], [3], [0]),
    ([4, 3], [3], [0]), ([2, 3], [], []), ([], [2, 3], []), ([], [], []), ([2, 3], [2, 3], []),
    ([2, 3], [2, 3], [0, 1]), ([2, 1], [1, 3], []), ([2, 1], [1, 3], [0, 1]),
    ([3, 2], [2, 3], [0, 1]), ([3], [2, 3], []), ([2, 3], [3], [1, 0]),
    ([2, 3, 4], [3, 4], [2, 1]), ([2, 3, 4], [3, 4], [1, 1]), ([2, 3], [3], [2]),
    ([2, 3], [3], [0, 1]), ([2, 3], [2, 3], [1, 0]), ([2, 3], [], [0]),
    ([0, 3], [3], [1]), ([2, 0], [1], [1]), ([2, 1], [0], [1]), ([2, 3], [0], [1]),
    ([1, 2, 1], [4, 3], [0, 2]), ([5, 1], [1, 5, 1, 2], [1, 2]),
]



def helper_op(fn):
    """A TensorFlow op behind tf2xla's XlaBroadcastHelper, as tf2xla's xla.add and friends are
    built (tensorflow/compiler/tf2xla/python/xla.py, _broadcasting_binary_op). The helper takes
    no bool: bool operands go through it as int32 0/1 and are turned back."""
    def op(x, y, broadcast_dims):
        boolean = x.dtype == tf.bool
        if boolean:
            x, y = tf.cast(x, tf.int32), tf.cast(y, tf.int32)
        x, y = tfxla.gen_xla_ops.xla_broadcast_helper(
            x, y, tf.constant(broadcast_dims, dtype=tf.int64))
        if boolean:
            x, y = tf.cast(x, tf.bool), tf.cast(y, tf.bool)
        return fn(x, y)
    return op


# ufunc4j Ops name -> (TensorFlow op run behind XlaBroadcastHelper, operand dtype)
BINARY_OPS = {
    "add": (tf.math.add, "int32"), "sub": (tf.math.subtract, "int32"),
    "mul": (tf.math.multiply, "int32"), "div": (tf.math.truediv, "float32"),
    "maximum": (tf.math.maximum, "int32"), "minimum": (tf.math.minimum, "int32"),
    "eq": (tf.math.equal, "int32"), "ne": (tf.math.not_equal, "int32"),
    "lt": (tf.math.less, "int32"), "le": (tf.math.less_equal, "int32"),
    "gt": (tf.math.greater, "int32"), "ge": (tf.math.greater_equal, "int32"),
    "bitwiseAnd": (tf.bitwise.bitwise_and, "int32"), "bitwiseOr": (tf.bitwise.bitwise_or, "int32"),
    "bitwiseXor": (tf.bitwise.bitwise_xor, "int32"),
    "bitwiseLeftShift": (tf.bitwise.left_shift, "int32"),
    "bitwiseRightShift": (tf.bitwise.right_shift, "int32"),
    "logicalAnd": (tf.math.logical_and, "bool"), "logicalOr": (tf.math.logical_or, "bool"),
    "logicalXor": (tf.math.logical_xor, "bool"),
}


def operand_a(shape, dtype):
    n = int(np.prod(shape, dtype=np.int64))
    k = np.arange(n)
    if dtype == "bool":
        return (k % 2 == 1).reshape(shape)
    return (k + 1).astype(dtype).reshape(shape)


def operand_b(shape, dtype, op):
    n = int(np.prod(shape, dtype=np.int64))
    k = np.arange(n)
    if dtype == "bool":
        return (k % 3 == 0).reshape(shape)
    if op.startswith("bitwise") and "Shift" in op:
        return (k % 4).astype(dtype).reshape(shape)
    return ((3 * k) % 7 + 1).astype(dtype).reshape(shape)


def first_line(e):
    return str(e).strip().split("\n")[0]


def in_dim_case(operand, shape, dims):
    c = {"operand": operand, "shape": shape, "dims": dims}
    x = np.arange(int(np.prod(operand, dtype=np.int64)), dtype=np.int32).reshape(operand)
    try:
        r = np.asarray(lax.broadcast_in_dim(x, tuple(shape), tuple(dims)))
    except (TypeError, ValueError) as e:
        c["error"] = first_line(e)
        return c
    assert list(r.shape) == shape
    c["result"] = [int(v) for v in r.reshape(-1)]
    return c


def binary_case(op, a, b, dims):
    fn, dtype = BINARY_OPS[op]
    fn = helper_op(fn)
    c = {"op": op, "dtype": dtype, "a": a, "b": b, "dims": dims}
    x, y = operand_a(a, dtype), operand_b(b, dtype, op)
    compiled = tf.function(lambda p, q: fn(p, q, broadcast_dims=dims), jit_compile=True,
                           autograph=False)
    try:
        r = compiled(tf.constant(x), tf.constant(y)).numpy()
    except (tf.errors.InvalidArgumentError, ValueError) as e:
        c["error"] = first_line(e)
        return c
    values = r.reshape(-1).tolist()
    if r.dtype == np.bool_:
        values = [bool(v) for v in values]
    elif r.dtype.kind == "f":
        values = [float(v) for v in values]
    else:
        values = [int(v) for v in values]
    c["result"] = {"shape": list(r.shape), "dtype": str(r.dtype), "values": values}
    return c


def increasing_dims(rng, rank, out_rank):
    return sorted(rng.sample(range(out_rank), rank))


def random_in_dim(rng, valid):
    out_rank = rng.randint(0, 4)
    rank = rng.randint(0, out_rank)
    shape = [rng.choice([0, 1, 2, 3, 4]) if rng.random() < 0.1 else rng.randint(1, 4)
             for _ in range(out_rank)]
    dims = increasing_dims(rng, rank, out_rank)
    operand = [1 if rng.random() < 0.35 else shape[d] for d in dims]
    if not valid and rank > 0:
        i = rng.randrange(rank)
        choice = rng.random()
        if choice < 0.5:
            operand[i] = rng.choice([x for x in (0, 2, 3, 5) if x != shape[dims[i]]])
        elif choice < 0.75 and rank > 1:
            dims = list(reversed(dims))
        else:
            dims[i] = out_rank + rng.randint(0, 1)
    return operand, shape, dims


def random_binary(rng, valid):
    high_rank = rng.randint(1, 4)
    low_rank = rng.randint(0, high_rank - 1)
    high = [rng.choice([1, 2, 3, 4]) for _ in range(high_rank)]
    dims = increasing_dims(rng, low_rank, high_rank)
    low = [1 if rng.random() < 0.3 else high[d] for d in dims]
    if not valid and low_rank > 0:
        i = rng.randrange(low_rank)
        if rng.random() < 0.6:
            bad = [x for x in (2, 3, 5) if x != high[dims[i]]]
            if high[dims[i]] == 1:  # a 1 in the higher-rank operand stretches: put the 1 there
                high[dims[i]] = rng.choice([2, 3])
                bad = [x for x in (2, 3, 5) if x != high[dims[i]]]
            low[i] = rng.choice(bad)
        else:
            dims = list(reversed(dims)) if low_rank > 1 else [high_rank]
    return (low, high, dims) if rng.random() < 0.5 else (high, low, dims)


def main():
    rng = random.Random(20240611)
    in_dim = [in_dim_case(*s) for s in IN_DIM_SEEDS]
    in_dim += [in_dim_case(*random_in_dim(rng, True)) for _ in range(120)]
    in_dim += [in_dim_case(*random_in_dim(rng, False)) for _ in range(60)]

    ops = sorted(BINARY_OPS)
    binary = [binary_case(op, a, b, d) for (a, b, d) in BINARY_SEEDS for op in ("add", "sub")]
    binary += [binary_case(ops[i % len(ops)], a, b, d)
               for i, (a, b, d) in enumerate(BINARY_SEEDS)]
    binary += [binary_case(rng.choice(ops), *random_binary(rng, True)) for _ in range(150)]
    binary += [binary_case(rng.choice(ops), *random_binary(rng, False)) for _ in range(60)]

    doc = {"generator": "tools/oracle/gen_xla_broadcast.py", "jax_version": jax.__version__,
           "tensorflow_version": tf.__version__}
    lines = ["{"] + [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in doc.items()]
    for name, cases, last in (("in_dim", in_dim, False), ("binary", binary, True)):
        lines.append(f' "{name}": [')
        lines += [f"  {json.dumps(c, separators=(',', ':'))}" + ("," if i < len(cases) - 1 else "")
                  for i, c in enumerate(cases)]
        lines.append(" ]" if last else " ],")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines + ["}"]) + "\n")
    print(f"{OUT.relative_to(ROOT)}: {len(in_dim)} broadcast_in_dim cases "
          f"({sum('error' in c for c in in_dim)} errors), {len(binary)} binary cases "
          f"({sum('error' in c for c in binary)} errors)")


if __name__ == "__main__":
    main()
