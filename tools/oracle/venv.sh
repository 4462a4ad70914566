#!/usr/bin/env bash
# Creates (once) the Python venv the oracle and benchmark scripts run in: the machine image's
# NumPy through the system site packages, plus PyTorch (CPU), ml_dtypes, JAX (jax + jaxlib, CPU) and
# TensorFlow (CPU; its tf2xla ops are the one runnable client of XLA's binary-op
# broadcast_dimensions), and the Arrow clients the arrow module is tested against (pyarrow,
# Polars, DuckDB: tools/oracle/gen_arrow.py, check_arrow.py) installed from the wheel files that
# ship on the image. Nothing is
# downloaded. Prints the venv's python path. An existing venv missing one of them gets it added.
#
#   PY=$(tools/oracle/venv.sh)   # then: "$PY" tools/oracle/gen_promotion.py
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="${UFUNC4J_VENV:-$root/.venv-oracle}"
py="$venv/bin/python"

if [ -x "$py" ] && "$py" -c 'import torch, numpy, ml_dtypes, jax, tensorflow, pyarrow, polars, duckdb' 2>/dev/null; then
  echo "$py"
  exit 0
fi

# Wheel stores of the machine image; UFUNC4J_WHEELS may name others (colon-separated).
stores="${UFUNC4J_WHEELS:-/opt/wheels:/opt/pypi/files:/opt/pypi-more/files}"
find_wheel() { # $1 = glob of the wheel file name
  local d f
  IFS=: read -ra dirs <<<"$stores"
  for d in "${dirs[@]}"; do
    for f in "$d"/$1; do
      [ -f "$f" ] && { echo "$f"; return 0; }
    done
  done
  return 1
}
torch_whl=$(find_wheel 'torch-*+cpu-cp3*-manylinux*_x86_64.whl' || find_wheel 'torch-*-cp3*-manylinux*_x86_64.whl') || {
  echo "no PyTorch wheel found in $stores" >&2; exit 1; }

[ -x "$py" ] || python3 -m venv --system-site-packages "$venv" >&2
links=()
IFS=: read -ra dirs <<<"$stores"
for d in "${dirs[@]}"; do [ -d "$d" ] && links+=(--find-links "$d"); done
"$py" -m pip install --quiet --no-index "${links[@]}" "$torch_whl" ml_dtypes jax jaxlib tensorflow-cpu \
  pyarrow polars duckdb >&2
"$py" -c 'import torch, numpy, ml_dtypes, jax, tensorflow as tf; print("oracle venv: torch", torch.__version__, "numpy", numpy.__version__, "ml_dtypes", ml_dtypes.__version__, "jax", jax.__version__, "tensorflow", tf.__version__)' >&2
"$py" -c 'import pyarrow, polars, duckdb; print("arrow clients: pyarrow", pyarrow.__version__, "polars", polars.__version__, "duckdb", duckdb.__version__)' >&2
echo "$py"
