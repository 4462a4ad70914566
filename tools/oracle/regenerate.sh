#!/usr/bin/env bash
# Regenerates every golden test resource from the real systems: runs each tools/oracle/gen_*.py
# with the oracle venv's python (created on first use by venv.sh, from wheels on the machine).
# Deterministic: running it twice gives byte-identical files, so `git diff` shows real changes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
py=$("$here/venv.sh")
shopt -s nullglob
scripts=("$here"/gen_*.py)
[ ${#scripts[@]} -gt 0 ] || { echo "no gen_*.py in $here" >&2; exit 1; }
for script in "${scripts[@]}"; do
  echo "== $(basename "$script")"
  "$py" "$script"
done
