"""Speed of the sparse op group's kernels (issue 18), side by side with
TensorFlow.

Each line times one op in tfe (through ``tfe_py.ops``, eager dispatch
included) and the same op in TensorFlow 2.21 on the same inputs (made from
fixed seeds in both processes), best of ``--repeat`` runs, and prints the
ratio tfe / TF (below 1.0: tfe is faster). TensorFlow runs in a subprocess:
the Python named by TFE_BENCH_TF_PYTHON (a Python with tensorflow
installed); without it only tfe's times are printed.

Goal (issue 18): SparseTensorDenseMatMul at most 1.0, the others at most 1.5.

Usage:  TFE_BENCH_TF_PYTHON=/path/to/python python benchmarks/bench_sparse.py
            [--repeat N] [--only TEXT] [--small]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# The cases, as source run in both processes: (name, op, inputs, attrs);
# an input is a numpy array (its dtype is the op's).
_CASES_SRC = '''
import numpy as np

def sparse(r, m, k, density):
    nnz = int(m * k * density)
    flat = np.sort(r.choice(m * k, nnz, replace=False))
    return np.stack([flat // k, flat % k], 1).astype(np.int64)

def make_cases(small):
    r = np.random.default_rng(12)
    s = 4 if small else 1
    out = []
    m = 4096 // s
    idx = sparse(r, m, m, 0.01)
    vals = r.standard_normal(len(idx)).astype(np.float32)
    shape = np.array([m, m], np.int64)
    b = r.standard_normal((m, 256)).astype(np.float32)
    for adj_a, adj_b in ((False, False), (True, False), (False, True)):
        bb = b.T.copy() if adj_b else b
        out.append(("SparseTensorDenseMatMul %dx%d 1%% x %dx256 adj %d%d"
                    % (m, m, m, adj_a, adj_b), "SparseTensorDenseMatMul",
                    {"a_indices": idx, "a_values": vals, "a_shape": shape, "b": bb},
                    {"adjoint_a": adj_a, "adjoint_b": adj_b}))
    out.append(("SparseTensorDenseMatMul float64 same", "SparseTensorDenseMatMul",
                {"a_indices": idx, "a_values": vals.astype(np.float64), "a_shape": shape,
                 "b": b.astype(np.float64)}, {}))
    idx2 = sparse(r, 2048 // s, 2048, 0.05)
    out.append(("SparseToDense %dx2048 5%% float32" % (2048 // s), "SparseToDense",
                {"sparse_indices": idx2, "output_shape": np.array([2048 // s, 2048], np.int64),
                 "sparse_values": r.standard_normal(len(idx2)).astype(np.float32),
                 "default_value": np.float32(0)}, {}))
    perm = r.permutation(len(idx2))
    out.append(("SparseReorder %d nnz 2-D shuffled" % len(idx2), "SparseReorder",
                {"input_indices": idx2[perm], "input_values":
                 r.standard_normal(len(idx2)).astype(np.float32),
                 "input_shape": np.array([2048 // s, 2048], np.int64)}, {}))
    rows = 100000 // s
    data = r.standard_normal((rows, 64)).astype(np.float32)
    n = 200000 // s
    ind = r.integers(0, rows, n).astype(np.int32)
    seg = np.sort(r.integers(0, n // 10, n)).astype(np.int32)
    out.append(("SparseSegmentSum %dx64 %d ids" % (rows, n), "SparseSegmentSum",
                {"data": data, "indices": ind, "segment_ids": seg}, {}))
    out.append(("SparseSegmentMean same", "SparseSegmentMean",
                {"data": data, "indices": ind, "segment_ids": seg}, {}))
    return out
'''

_TF_SRC = _CASES_SRC + '''
import json, sys, time
import tensorflow as tf

def main():
    small, repeat, only = sys.argv[1] == "1", int(sys.argv[2]), sys.argv[3]
    res = {}
    for name, op, ins, attrs in make_cases(small):
        if only and only.lower() not in name.lower():
            continue
        t = {k: tf.constant(v) for k, v in ins.items()}
        fn = lambda: getattr(tf.raw_ops, op)(**t, **attrs)
        fn()
        best = 1e9
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t0)
        res[name] = best
    print(json.dumps(res))

main()
'''


def best(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def tf_times(small: bool, repeat: int, only: str) -> dict[str, float] | None:
    py = os.environ.get("TFE_BENCH_TF_PYTHON")
    if not py:
        return None
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    out = subprocess.run([py, "-c", _TF_SRC, "1" if small else "0", str(repeat), only],
                         capture_output=True, text=True, env=env, check=True)
    res: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--only", default="")
    ap.add_argument("--small", action="store_true", help="smaller inputs (a quick check)")
    a = ap.parse_args()
    from tfe_py import ops
    from tfe_py.eager import constant

    ns: dict[str, Any] = {}
    exec(_CASES_SRC, ns)
    cases = [c for c in ns["make_cases"](a.small) if a.only.lower() in c[0].lower()]
    ref = tf_times(a.small, a.repeat, a.only)
    worst = 0.0
    for name, op, ins, attrs in cases:
        t = {k: constant(v) for k, v in ins.items()}
        def fn(op: str = op, t: dict[str, Any] = t, attrs: dict[str, Any] = attrs) -> object:
            return getattr(ops, op)(**t, **attrs)

        s = best(fn, a.repeat)
        if ref is not None and name in ref:
            ratio = s / ref[name]
            worst = max(worst, ratio)
            print(f"{name:<48} tfe {s * 1e3:9.3f} ms   TF {ref[name] * 1e3:9.3f} ms"
                  f"   ratio {ratio:5.2f}")
        else:
            print(f"{name:<48} tfe {s * 1e3:9.3f} ms")
    if ref is not None:
        print(f"worst ratio {worst:.2f}")


if __name__ == "__main__":
    main()
