"""Speed of the more18 op group's kernels (strided-slice assignment,
ResourceGatherNd, ImageProjectiveTransformV3, ...) side by side with
TensorFlow 2.21. See raw_op_bench.py for the method.

Goal (issue 18): no ratio above 1.5.

Usage:  TFE_BENCH_TF_PYTHON=/path/to/python python benchmarks/bench_more18.py
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

_count = [0]

def var(raw, const, arr):
    c = const(arr)
    _count[0] += 1
    h = raw.VarHandleOp(dtype=c.dtype, shape=list(arr.shape),
                        shared_name="bench18_var_%d" % _count[0])
    raw.AssignVariableOp(resource=h, value=c)
    return h

def rssa_case(name, x, b, e, st, value, masks):
    def setup(raw, const):
        h = var(raw, const, x)
        ins = dict(ref=h, begin=const(np.array(b, np.int32)), end=const(np.array(e, np.int32)),
                   strides=const(np.array(st, np.int32)), value=const(value))
        return lambda: raw.ResourceStridedSliceAssign(**ins, **masks)
    return (name, setup)

def rgnd_case(name, x, idx):
    def setup(raw, const):
        h = var(raw, const, x)
        ic = const(idx)
        return lambda: raw.ResourceGatherNd(resource=h, indices=ic, dtype=x.dtype)
    return (name, setup)

def rot(theta, h, w, zoom):
    c, sn = np.cos(theta) / zoom, np.sin(theta) / zoom
    x0 = (w - 1) / 2 - (c * (w - 1) / 2 - sn * (h - 1) / 2)
    y0 = (h - 1) / 2 - (sn * (w - 1) / 2 + c * (h - 1) / 2)
    return [c, -sn, x0, sn, c, y0, 0.0, 0.0]

def make_cases(small):
    r = np.random.default_rng(1818)
    s = 4 if small else 1
    rows = 1024 // s
    x = r.standard_normal((rows, 256, 8)).astype(np.float32)
    sl = x[::2, 1:-1, ::-1].copy()
    n_img = 16 // s
    img = r.uniform(0, 255, (n_img, 128, 128, 3)).astype(np.float32)
    tr = np.array([rot(0.3 + 0.01 * i, 128, 128, 0.9) for i in range(n_img)], np.float32)
    table = r.standard_normal((1000, 64, 16)).astype(np.float32)
    idx = r.integers(0, [1000, 64], (100_000 // s, 2)).astype(np.int32)
    return [
        ("TensorStridedSliceUpdate [::2, 1:-1, ::-1] of %dx256x8" % rows,
         "TensorStridedSliceUpdate",
         {"input": x, "begin": np.array([0, 1, 0], np.int32),
          "end": np.array([0, -1, 0], np.int32), "strides": np.array([2, 1, -1], np.int32),
          "value": sl}, {"begin_mask": 5, "end_mask": 5}),
        ("TensorStridedSliceUpdate rows 10:20 (broadcast row) of %dx256x8" % rows,
         "TensorStridedSliceUpdate",
         {"input": x, "begin": np.array([10], np.int32), "end": np.array([20], np.int32),
          "strides": np.array([1], np.int32), "value": x[0]}, {}),
        rssa_case("ResourceStridedSliceAssign [::2, 1:-1, ::-1] of %dx256x8" % rows,
                  x, [0, 1, 0], [0, -1, 0], [2, 1, -1], sl, {"begin_mask": 5, "end_mask": 5}),
        rgnd_case("ResourceGatherNd %d rows of 16 from 1000x64x16" % len(idx), table, idx),
        ("ImageProjectiveTransformV3 BILINEAR %dx128x128x3" % n_img,
         "ImageProjectiveTransformV3",
         {"images": img, "transforms": tr, "output_shape": np.array([128, 128], np.int32),
          "fill_value": np.float32(0.0)},
         {"interpolation": "BILINEAR", "fill_mode": "REFLECT"}),
        ("ImageProjectiveTransformV3 NEAREST %dx128x128x3" % n_img,
         "ImageProjectiveTransformV3",
         {"images": img, "transforms": tr, "output_shape": np.array([128, 128], np.int32),
          "fill_value": np.float32(0.0)},
         {"interpolation": "NEAREST", "fill_mode": "CONSTANT"}),
    ]
'''


if __name__ == "__main__":
    main(_CASES_SRC, goal=1.5)
