#!/usr/bin/env python3
"""Golden Arrow IPC files for the arrow module's tests, written by pyarrow, Polars and DuckDB.

Writes arrow/src/test/resources/arrow/*.arrow (the IPC file format), *.arrows (the IPC stream
format) and expect.json: for each file and column, the
dtype, shape and C-order values (as strings, so that 64-bit integers stay exact) that NumPy
computes for what was written. The Java tests (ArrowIpcGoldenTest) read the files and compare.

    PY=$(UFUNC4J_VENV=/work/venv-oracle tools/oracle/venv.sh); "$PY" tools/oracle/gen_arrow.py
"""
import json
import pathlib

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.feather as feather

OUT = pathlib.Path(__file__).resolve().parents[2] / "arrow/src/test/resources/arrow"
OUT.mkdir(parents=True, exist_ok=True)
expect = {}


def values(a):
    a = np.asarray(a)
    if a.dtype == np.bool_:
        return ["true" if v else "false" for v in a.ravel()]
    if a.dtype.kind == "f":
        return [repr(float(v)) for v in a.ravel()]
    return [str(int(v)) for v in a.ravel()]


def record(file, name, dtype, arr):
    arr = np.asarray(arr)
    expect.setdefault(file, {})[name] = {
        "dtype": dtype, "shape": list(arr.shape), "values": values(arr)}


def write(table, file):
    feather.write_feather(table, OUT / file, compression="uncompressed")


# pyarrow: every primitive type, the canonical tensor extension (plain and permuted), a plain
# fixed-size list.
n = 5
cols = {}
prims = [("int8", pa.int8()), ("int16", pa.int16()), ("int32", pa.int32()), ("int64", pa.int64()),
         ("uint8", pa.uint8()), ("uint16", pa.uint16()), ("uint32", pa.uint32()),
         ("uint64", pa.uint64()), ("float16", pa.float16()), ("float32", pa.float32()),
         ("float64", pa.float64())]
for name, typ in prims:
    dt = np.dtype(name)
    if dt.kind == "f":
        a = (np.arange(n) * 1.25 - 2.5).astype(dt)
        a[-1] = np.finfo(dt).max
    else:
        info = np.iinfo(dt)
        a = np.array([info.min, 0, 1, 7, info.max], dtype=dt)
    cols[name] = pa.array(a, type=typ)
    record("pyarrow.arrow", name, name, a)
b = np.array([True, False, True, True, False, False, True, False, True][:n])
cols["bool"] = pa.array(b)
record("pyarrow.arrow", "bool", "bool", b)
t = np.arange(n * 6, dtype=np.float32).reshape(n, 2, 3) / 4
cols["tensor"] = pa.FixedShapeTensorArray.from_numpy_ndarray(t)
record("pyarrow.arrow", "tensor", "float32", t)
# A permuted tensor: from a Fortran-ordered row layout pyarrow stores the permutation.
tp = np.asfortranarray(np.arange(n * 12, dtype=np.int64).reshape(n, 3, 4)).transpose(0, 2, 1)
perm_type = pa.fixed_shape_tensor(pa.int64(), [3, 4], permutation=[1, 0])
storage = pa.FixedSizeListArray.from_arrays(
    pa.array(np.ascontiguousarray(tp.transpose(0, 2, 1)).ravel()), 12)
cols["permuted"] = pa.ExtensionArray.from_storage(perm_type, storage)
record("pyarrow.arrow", "permuted", "int64",
       cols["permuted"].to_numpy_ndarray())
fl = np.arange(n * 4, dtype=np.float64).reshape(n, 4) - 3
cols["fixed_list"] = pa.FixedSizeListArray.from_arrays(pa.array(fl.ravel()), 4)
record("pyarrow.arrow", "fixed_list", "float64", fl)
write(pa.table(cols), "pyarrow.arrow")
# The same table as an IPC stream (pyarrow.ipc.new_stream: a schema message, a record batch, the
# end-of-stream marker; no magic, no footer).
with pa.ipc.new_stream(str(OUT / "pyarrow.arrows"), pa.table(cols).schema) as w:
    w.write_table(pa.table(cols))
expect["pyarrow.arrows"] = expect["pyarrow.arrow"]

# Two record batches: concatenated on read.
batches = [pa.record_batch({"x": pa.array(np.arange(3, dtype=np.int32) + 10 * k)}) for k in range(2)]
write(pa.Table.from_batches(batches), "batches.arrow")
record("batches.arrow", "x", "int32", np.concatenate([np.arange(3) + 10 * k for k in range(2)]).astype(np.int32))
with pa.ipc.new_stream(str(OUT / "batches.arrows"), batches[0].schema) as w:
    for b in batches:
        w.write_batch(b)
expect["batches.arrows"] = expect["batches.arrow"]

# Refused: a null, an LZ4-compressed file.
feather.write_feather(pa.table({"v": pa.array([1.0, None, 3.0])}), OUT / "nulls.arrow",
                      compression="uncompressed")
feather.write_feather(pa.table({"v": pa.array(np.arange(100, dtype=np.float64))}),
                      OUT / "lz4.arrow", compression="lz4")

# Polars: its own writer; an Array column is a nested fixed-size list.
pa_arr = np.arange(4 * 6, dtype=np.float32).reshape(4, 2, 3) - 5
df = pl.DataFrame({
    "a": pl.Series(np.array([3, -1, 4, -1], dtype=np.int32)),
    "b": pl.Series(np.array([0.5, 1.5, -2.0, 1e300])),
    "m": pl.Series(pa_arr, dtype=pl.Array(pl.Float32, (2, 3))),
    "flag": pl.Series([True, False, False, True]),
})
df.write_ipc(OUT / "polars.arrow", compression="uncompressed")
record("polars.arrow", "a", "int32", np.array([3, -1, 4, -1], dtype=np.int32))
record("polars.arrow", "b", "float64", np.array([0.5, 1.5, -2.0, 1e300]))
record("polars.arrow", "m", "float32", pa_arr)
record("polars.arrow", "flag", "bool", np.array([True, False, False, True]))
df.write_ipc_stream(OUT / "polars.arrows", compression="uncompressed")
expect["polars.arrows"] = expect["polars.arrow"]

# DuckDB: a query's Arrow result (DuckDB's own Arrow export), written by pyarrow.
con = duckdb.connect()
res = con.execute(
    "SELECT i::BIGINT AS i, (i * 0.5)::DOUBLE AS x, [i, i + 1, i + 2]::FLOAT[3] AS v"
    " FROM range(6) t(i) ORDER BY i").to_arrow_table()
write(res, "duckdb.arrow")
i = np.arange(6)
record("duckdb.arrow", "i", "int64", i.astype(np.int64))
record("duckdb.arrow", "x", "float64", i * 0.5)
record("duckdb.arrow", "v", "float32", np.stack([i, i + 1, i + 2], axis=1).astype(np.float32))

(OUT / "expect.json").write_text(json.dumps(expect, indent=1) + "\n")
print("wrote", sorted(p.name for p in OUT.iterdir()))
