#!/usr/bin/env python3
"""Opens an Arrow IPC file and an IPC stream that ufunc4j wrote (ArrowIpcWriteTest) with pyarrow,
Polars and DuckDB, and checks every column against the same columns built here with NumPy (the
oracle): types, shapes and values. Prints "<client> ok" per client and format; exits non-zero on
the first difference.

    "$PY" tools/oracle/check_arrow.py ours.arrow [ours.arrows]
"""
import sys

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.feather as feather

path = sys.argv[1]

# ArrowIpcWriteTest.columns(), built with NumPy.
ints = ["uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64"]
floats = ["float16", "float32", "float64"]
expected = {name: np.arange(4).astype(name) for name in ints + floats}
expected["half"] = np.array([0, 0.5, 1.5, -2], dtype=np.float16)
expected["flags"] = np.array([True, False, False, True])
expected["tensor"] = np.arange(24, dtype=np.float32).reshape(4, 2, 3)
expected["transposed"] = np.arange(16, dtype=np.int64).reshape(4, 4).T
arrow_types = {"float16": pa.float16(), "half": pa.float16(), "float32": pa.float32(),
               "float64": pa.float64(), "flags": pa.bool_()}


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def check(fmt, table, df):
    """pyarrow's table, Polars' frame of one file (fmt: "file" or "stream")."""
    if table.column_names != list(expected):
        fail(f"pyarrow columns {table.column_names} != {list(expected)}")
    for name, want in expected.items():
        col = table.column(name).combine_chunks()
        if want.ndim == 1:
            typ = arrow_types.get(name, pa.from_numpy_dtype(want.dtype))
            if col.type != typ:
                fail(f"pyarrow {name}: type {col.type}, expected {typ}")
            got = col.to_numpy(zero_copy_only=False)
        else:
            if not isinstance(col.type, pa.FixedShapeTensorType):
                fail(f"pyarrow {name}: type {col.type}, expected arrow.fixed_shape_tensor")
            if list(col.type.shape) != list(want.shape[1:]) or col.type.value_type != pa.from_numpy_dtype(want.dtype):
                fail(f"pyarrow {name}: {col.type} for {want.dtype} {want.shape}")
            got = col.to_numpy_ndarray()
        if got.dtype != want.dtype or got.shape != want.shape or not np.array_equal(got, want):
            fail(f"pyarrow {name}: {got!r} != {want!r}")
    print(f"pyarrow {fmt} ok:", len(expected), "columns")

    # Polars (its own IPC reader). A tensor column comes back as its storage, a fixed-size list.
    for name, want in expected.items():
        got = df[name].to_numpy()
        if want.ndim > 1:
            got = np.stack([np.asarray(r) for r in got]).reshape(want.shape)
        if not np.array_equal(got.astype(want.dtype), want) or got.dtype.kind != want.dtype.kind:
            fail(f"polars {name}: {got!r} != {want!r}")
    print(f"polars {fmt} ok:", df.shape)

    # DuckDB: a SQL query over the table (DuckDB scans it through the Arrow C stream interface).
    con = duckdb.connect()
    con.register("ours", table.drop_columns(["float16", "half", "tensor", "transposed"]))
    for name in ints + ["float32", "float64"]:
        got = con.execute(f'SELECT sum("{name}"), count(*) FROM ours').fetchone()
        if got != (6, 4):
            fail(f"duckdb sum/count of {name}: {got}")
    got = con.execute("SELECT count(*) FROM ours WHERE flags").fetchone()[0]
    if got != 2:
        fail(f"duckdb flags: {got}")
    print(f"duckdb {fmt} ok")


# The file, memory-mapped by pyarrow as we read it; the stream with open_stream/read_ipc_stream.
check("file", feather.read_table(path, memory_map=True), pl.read_ipc(path, memory_map=False))
if len(sys.argv) > 2:
    stream = sys.argv[2]
    with pa.ipc.open_stream(stream) as reader:
        check("stream", reader.read_all(), pl.read_ipc_stream(stream))
