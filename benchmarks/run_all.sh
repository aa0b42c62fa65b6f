#!/usr/bin/env bash
# Every benchmark tfe has, in one run, each measuring tfe side by side with
# its reference (numpy; TensorFlow when a Python with tensorflow is given).
# The figures in docs/PERFORMANCE.md come from this script.
#   usage: benchmarks/run_all.sh [BUILD_DIR]
# Environment: TF_PYTHON=/path/to/python-with-tensorflow (optional). That
# Python also needs cffi and numpy, since it imports tfe_py from this tree.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
PY="${PYTHON:-python3}"
TFPY="${TF_PYTHON:-}"
echo "== C eager dispatch (scalar AddV2), tfe vs TensorFlow's C API"
TF_PYTHON="${TFPY:-$PY}" bash "$ROOT/benchmarks/run_dispatch.sh" "$BUILD" 200000
echo
echo "== Python dispatch, tfe_py vs numpy and tf.raw_ops"
if [ -n "$TFPY" ]; then
  (cd /tmp && PYTHONPATH="$ROOT" "$TFPY" "$ROOT/benchmarks/bench_python_dispatch.py" \
     --number 100000 --rounds 7 2>&1 | grep -v -e '^WARNING' -e '^I0000' -e oneDNN -e 'rebuild TensorFlow')
else
  "$PY" "$ROOT/benchmarks/bench_python_dispatch.py" --number 100000 --rounds 7
fi
echo
echo "== Kernels, tfe vs numpy (Conv2D vs TensorFlow when TF_PYTHON is set)"
TFE_BENCH_TF_PYTHON="$TFPY" "$PY" "$ROOT/benchmarks/bench_kernels.py" --repeat 10
echo
echo "== Files through tfe_py.io.GFile vs Python's open()"
"$PY" "$ROOT/benchmarks/bench_io.py" --size-mb 256 --rounds 3
echo
echo "== Async vs sync eager execution"
bash "$ROOT/benchmarks/run_async.sh" "$BUILD" 1000
echo
echo "== Graphs and sessions (C: TF_SessionRun, 1,000-node graph, 10,000-node import; @function)"
"$PY" "$ROOT/benchmarks/bench_graphs.py" --build "$BUILD" ${TFPY:+--tf-python "$TFPY"}
