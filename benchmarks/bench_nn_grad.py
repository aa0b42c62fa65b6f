"""Speed of the nn_grad kernels (issue 18), side by side with TensorFlow.

Each line times one backprop op in tfe (through ``tfe_py.ops``, eager
dispatch included) and the same op in TensorFlow 2.21 on the same inputs
(made from fixed seeds in both processes), best of ``--repeat`` runs, and
prints the ratio tfe / TF (below 1.0: tfe is faster). TensorFlow runs in a
subprocess: the Python named by TFE_BENCH_TF_PYTHON (a Python with
tensorflow installed); without it only tfe's times are printed.

Goal (issue 18): no ratio above 1.5; the convolution and batch-norm lines
at most 1.0.

Usage:  TFE_BENCH_TF_PYTHON=/path/to/python python benchmarks/bench_nn_grad.py
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
    r = np.random.default_rng(11)
    f = lambda *s: r.standard_normal(s).astype(np.float32)
    s = 4 if small else 1
    n = 32 // s
    out = []
    x = f(n, 28, 28, 64)
    dy = f(n, 28, 28, 64)
    c = 64
    sc = (r.uniform(0.5, 1.5, c)).astype(np.float32)
    mean = x.mean(axis=(0, 1, 2)).astype(np.float32)
    var = x.var(axis=(0, 1, 2)).astype(np.float32)
    e = np.zeros(0, np.float32)
    for train in (True, False):
        out.append(("FusedBatchNormGradV3 %dx28x28x64 %s" % (n, "train" if train else "infer"),
                    "FusedBatchNormGradV3",
                    {"y_backprop": dy, "x": x, "scale": sc, "reserve_space_1": mean,
                     "reserve_space_2": var, "reserve_space_3": e},
                    {"is_training": train, "epsilon": 0.001}))
    b = 4 // min(s, 4)
    x3 = f(b, 16, 32, 32, 16)
    dy3 = f(b, 16, 32, 32, 32)
    out.append(("Conv3DBackpropFilterV2 %dx16x32x32x16 3x3x3x16x32" % b, "Conv3DBackpropFilterV2",
                {"input": x3, "filter_sizes": np.array([3, 3, 3, 16, 32], np.int32),
                 "out_backprop": dy3},
                {"strides": [1, 1, 1, 1, 1], "padding": "SAME"}))
    p3 = {"ksize": [1, 2, 2, 2, 1], "strides": [1, 2, 2, 2, 1], "padding": "VALID"}
    y3 = f(b, 8, 16, 16, 16)
    out.append(("MaxPool3DGrad %dx16x32x32x16 k2 s2" % b, "MaxPool3DGrad",
                {"orig_input": x3, "orig_output": y3, "grad": y3}, p3))
    out.append(("MaxPool3DGradGrad same", "MaxPool3DGradGrad",
                {"orig_input": x3, "orig_output": y3, "grad": x3}, p3))
    out.append(("AvgPool3DGrad same", "AvgPool3DGrad",
                {"orig_input_shape": np.array(x3.shape, np.int32), "grad": y3}, p3))
    x2 = f(8 // min(s, 8), 56, 56, 64)
    p2 = {"ksize": [1, 3, 3, 1], "strides": [1, 2, 2, 1], "padding": "SAME"}
    y2 = f(x2.shape[0], 28, 28, 64)
    out.append(("MaxPoolGradGrad %dx56x56x64 k3 s2" % x2.shape[0], "MaxPoolGradGrad",
                {"orig_input": x2, "orig_output": y2, "grad": x2}, p2))
    am = r.integers(0, 56 * 56 * 64, y2.shape).astype(np.int64)
    out.append(("MaxPoolGradWithArgmax same", "MaxPoolGradWithArgmax",
                {"input": x2, "grad": y2, "argmax": am}, p2))
    xd = f(4, 32, 32, 16)
    fd = f(3, 3, 16) * 0.1
    gd = f(4, 32, 32, 16)
    pd = {"strides": [1, 1, 1, 1], "rates": [1, 1, 1, 1], "padding": "SAME"}
    out.append(("Dilation2DBackpropInput 4x32x32x16 3x3", "Dilation2DBackpropInput",
                {"input": xd, "filter": fd, "out_backprop": gd}, pd))
    out.append(("Dilation2DBackpropFilter same", "Dilation2DBackpropFilter",
                {"input": xd, "filter": fd, "out_backprop": gd}, pd))
    return out
'''


if __name__ == "__main__":
    main(_CASES_SRC, goal=1.5)
