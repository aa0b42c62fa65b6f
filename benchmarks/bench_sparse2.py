"""Speed of the sparse2 op group's kernels (SparseConcat, SparseSlice,
SparseSplit, SparseReduceSumSparse, SparseCross*, set operations, the
*CountSparseOutput ops, EditDistance, NonMaxSuppressionV2), side by side
with TensorFlow 2.21. See raw_op_bench.py for the method.

Goal (issue 18): no ratio above 1.5.

Usage:  TFE_BENCH_TF_PYTHON=/path/to/python python benchmarks/bench_sparse2.py
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

def _sparse(r, rows, cols, nnz):
    flat = np.sort(r.choice(rows * cols, nnz, replace=False))
    ind = np.stack([flat // cols, flat % cols], 1).astype(np.int64)
    return ind, r.standard_normal(nnz).astype(np.float32), np.array([rows, cols], np.int64)

def make_cases(small):
    r = np.random.default_rng(2118)
    s = 4 if small else 1
    rows, cols, nnz = 4096 // s, 4096, 400_000 // s
    a = _sparse(r, rows, cols, nnz)
    b = _sparse(r, rows, cols, nnz)
    batch = 4096 // s
    # SparseCross inputs: two string columns and one int64 column, 1-3
    # features per row
    def col(kind):
        counts = r.integers(1, 4, batch)
        rix = np.repeat(np.arange(batch), counts)
        cix = np.concatenate([np.arange(c) for c in counts])
        ind = np.stack([rix, cix], 1).astype(np.int64)
        n = len(rix)
        if kind == "str":
            vals = np.array(["f%d" % v for v in r.integers(0, 1000, n)], dtype=object)
        else:
            vals = r.integers(0, 100000, n).astype(np.int64)
        return ind, vals, np.array([batch, 3], np.int64)
    c1, c2, c3 = col("str"), col("str"), col("int")
    cross_in = {"indices": [c1[0], c2[0], c3[0]], "values": [c1[1], c2[1], c3[1]],
                "shapes": [c1[2], c2[2], c3[2]], "dense_inputs": []}
    set1 = r.integers(0, 64, (8192 // s, 32)).astype(np.int64)
    set2 = r.integers(0, 64, (8192 // s, 32)).astype(np.int64)
    counts = r.integers(0, 1000, (2048 // s, 256)).astype(np.int32)
    # EditDistance: 1024 sequences of length ~40 each side
    nseq, slen = 1024 // s, 40
    def seqs():
        ind = np.stack([np.repeat(np.arange(nseq), slen), np.tile(np.arange(slen), nseq)], 1)
        return (ind.astype(np.int64), r.integers(0, 8, nseq * slen).astype(np.int64),
                np.array([nseq, slen], np.int64))
    h, t = seqs(), seqs()
    nb = 5000 // s
    xy = r.uniform(0, 100, (nb, 2)).astype(np.float32)
    wh = r.uniform(1, 10, (nb, 2)).astype(np.float32)
    boxes = np.concatenate([xy, xy + wh], 1)
    scores = r.uniform(0, 1, nb).astype(np.float32)
    return [
        ("SparseConcat 2 x %dx%d nnz=%d dim1" % (rows, cols, nnz), "SparseConcat",
         {"indices": [a[0], b[0]], "values": [a[1], b[1]], "shapes": [a[2], b[2]]},
         {"concat_dim": 1}),
        ("SparseConcat 2 x %dx%d nnz=%d dim0" % (rows, cols, nnz), "SparseConcat",
         {"indices": [a[0], b[0]], "values": [a[1], b[1]], "shapes": [a[2], b[2]]},
         {"concat_dim": 0}),
        ("SparseSlice %dx%d nnz=%d half" % (rows, cols, nnz), "SparseSlice",
         {"indices": a[0], "values": a[1], "shape": a[2],
          "start": np.array([rows // 4, cols // 4], np.int64),
          "size": np.array([rows // 2, cols // 2], np.int64)}, {}),
        ("SparseSplit %dx%d nnz=%d 8 ways dim1" % (rows, cols, nnz), "SparseSplit",
         {"split_dim": np.int64(1), "indices": a[0], "values": a[1], "shape": a[2]},
         {"num_split": 8}),
        ("SparseReduceSumSparse %dx%d nnz=%d axis 1" % (rows, cols, nnz),
         "SparseReduceSumSparse",
         {"input_indices": a[0], "input_values": a[1], "input_shape": a[2],
          "reduction_axes": np.array([1], np.int32)}, {}),
        ("SparseCross hashed 3 cols batch %d" % batch, "SparseCross", cross_in,
         {"hashed_output": True, "num_buckets": 1000, "hash_key": 956888297470,
          "out_type": "int64", "internal_type": "int64"}),
        ("SparseCross strings 2 cols batch %d" % batch, "SparseCross",
         {"indices": [c1[0], c2[0]], "values": [c1[1], c2[1]], "shapes": [c1[2], c2[2]],
          "dense_inputs": []},
         {"hashed_output": False, "num_buckets": 0, "hash_key": 0,
          "out_type": "string", "internal_type": "string"}),
        ("SparseCrossHashed 3 cols batch %d" % batch, "SparseCrossHashed",
         {**cross_in, "num_buckets": np.int64(1000), "strong_hash": np.bool_(False),
          "salt": np.array([1, 2], np.int64)}, {}),
        ("DenseToDenseSetOperation union %dx32 int64" % len(set1), "DenseToDenseSetOperation",
         {"set1": set1, "set2": set2}, {"set_operation": "union"}),
        ("DenseToDenseSetOperation intersection %dx32 int64" % len(set1),
         "DenseToDenseSetOperation", {"set1": set1, "set2": set2},
         {"set_operation": "intersection"}),
        ("DenseCountSparseOutput %dx256 int32" % len(counts), "DenseCountSparseOutput",
         {"values": counts, "weights": np.zeros(0, np.float32)}, {"binary_output": False}),
        ("EditDistance %d pairs of length %d" % (nseq, slen), "EditDistance",
         {"hypothesis_indices": h[0], "hypothesis_values": h[1], "hypothesis_shape": h[2],
          "truth_indices": t[0], "truth_values": t[1], "truth_shape": t[2]},
         {"normalize": True}),
        ("NonMaxSuppressionV2 %d boxes max 200" % nb, "NonMaxSuppressionV2",
         {"boxes": boxes, "scores": scores, "max_output_size": np.int32(200),
          "iou_threshold": np.float32(0.5)}, {}),
    ]
'''

if __name__ == "__main__":
    main(_CASES_SRC, goal=1.5)
