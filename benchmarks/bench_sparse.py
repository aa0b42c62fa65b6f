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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raw_op_bench import main

# The cases, as source run in both processes (see raw_op_bench.py).
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


if __name__ == "__main__":
    main(_CASES_SRC, goal=1.5)
