"""Speed of the misc18 op group's kernels (TopK, UniqueV2, NthElement,
Inplace*, StridedSliceGrad, MirrorPadGrad, Spence, ...) and of the fake
quantization kernels (issue 18), side by side with TensorFlow 2.21.
See raw_op_bench.py for the method.

Goal (issue 18): no ratio above 1.5.

Usage:  TFE_BENCH_TF_PYTHON=/path/to/python python benchmarks/bench_misc18.py
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

def make_cases(small):
    r = np.random.default_rng(18)
    s = 4 if small else 1
    rows = 1024 // s
    x = r.standard_normal((rows, 1000)).astype(np.float32)
    ids = r.integers(0, 5000, 1_000_000 // s).astype(np.int32)
    big = r.standard_normal((rows, 256, 8)).astype(np.float32)
    img = r.standard_normal((8 // min(s, 2), 64, 64, 32)).astype(np.float32)
    v = r.uniform(0.01, 3.0, 1_000_000 // s).astype(np.float32)
    f = r.uniform(-8.0, 8.0, (rows, 1024)).astype(np.float32)
    return [
        ("TopKV2 %dx1000 k=10 f32" % rows, "TopKV2",
         {"input": x, "k": np.int32(10)}, {}),
        ("TopKV2 %dx1000 k=100 f32" % rows, "TopKV2",
         {"input": x, "k": np.int32(100)}, {}),
        ("UniqueV2 %d int32 (5000 distinct)" % len(ids), "UniqueV2",
         {"x": ids, "axis": np.array([0], np.int64)}, {}),
        ("NthElement %dx1000 n=500 f32" % rows, "NthElement",
         {"input": x, "n": np.int32(500)}, {}),
        ("InplaceAdd 256 of %d rows x1000" % rows, "InplaceAdd",
         {"x": x, "i": np.arange(0, rows, rows // 256, dtype=np.int32)[:256],
          "v": x[:256]}, {}),
        ("InplaceUpdate 256 of %d rows x1000" % rows, "InplaceUpdate",
         {"x": x, "i": np.arange(0, rows, rows // 256, dtype=np.int32)[:256],
          "v": x[:256]}, {}),
        ("StridedSliceGrad [::2, 1:-1, ::-1] of %dx256x8" % rows, "StridedSliceGrad",
         {"shape": np.array(big.shape, np.int32),
          "begin": np.array([0, 1, 0], np.int32), "end": np.array([0, -1, 0], np.int32),
          "strides": np.array([2, 1, -1], np.int32),
          "dy": big[::2, 1:-1, ::-1].copy()},
         {"begin_mask": 5, "end_mask": 5}),
        ("MirrorPadGrad REFLECT 2 of NHWC 64x64x32", "MirrorPadGrad",
         {"input": np.pad(img, ((0, 0), (2, 2), (2, 2), (0, 0)), mode="reflect"),
          "paddings": np.array([[0, 0], [2, 2], [2, 2], [0, 0]], np.int32)},
         {"mode": "REFLECT"}),
        ("Spence %d f32" % len(v), "Spence", {"x": v}, {}),
        ("BiasAddV1 %dx1000" % rows, "BiasAddV1",
         {"value": x, "bias": x[0].copy()}, {}),
        ("DataFormatVecPermute NHWC->NCHW", "DataFormatVecPermute",
         {"x": np.array([8, 64, 64, 32], np.int32)}, {}),
        ("FakeQuantWithMinMaxArgs %dx1024" % rows, "FakeQuantWithMinMaxArgs",
         {"inputs": f}, {"min": -6.0, "max": 6.0}),
        ("FakeQuantWithMinMaxVars %dx1024" % rows, "FakeQuantWithMinMaxVars",
         {"inputs": f, "min": np.float32(-6), "max": np.float32(6)}, {}),
        ("FakeQuantWithMinMaxVarsPerChannel %dx1024" % rows,
         "FakeQuantWithMinMaxVarsPerChannel",
         {"inputs": f, "min": np.full(1024, -6, np.float32),
          "max": np.full(1024, 6, np.float32)}, {}),
        ("FakeQuantWithMinMaxArgsGradient %dx1024" % rows, "FakeQuantWithMinMaxArgsGradient",
         {"gradients": f, "inputs": f}, {"min": -6.0, "max": 6.0}),
    ]
'''


if __name__ == "__main__":
    main(_CASES_SRC, goal=1.5)
