"""Speed of the kernels that serve gradients (csrc/kernels/cpu/
grad_support_kernels.c: IgammaGradA, SparseFillEmptyRowsGrad), side by
side with TensorFlow 2.21, through each library's raw ops (eager dispatch
included). See raw_op_bench.py for the method.

Goal (issue 18): no ratio above 1.5.

Usage:  TFE_BENCH_TF_PYTHON=/path/to/python python benchmarks/bench_grad_support.py
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
    r = np.random.default_rng(3)
    n = 10_000 if small else 200_000
    cases = []
    for dt in (np.float32, np.float64):
        a = r.uniform(0.1, 8.0, n).astype(dt)
        x = r.uniform(0.0, 10.0, n).astype(dt)
        cases.append(("IgammaGradA %s [%d]" % (np.dtype(dt).name, n), "IgammaGradA",
                      {"a": a, "x": x}, {}))
    a = r.uniform(0.5, 3.0, (1000,)).astype(np.float64)
    x = r.uniform(0.0, 5.0, (n // 1000, 1)).astype(np.float64)
    cases.append(("IgammaGradA float64 broadcast [%d,1]x[1000]" % (n // 1000), "IgammaGradA",
                  {"a": a, "x": x}, {}))
    m = 100_000 if small else 2_000_000
    full = m + m // 4
    rim = np.sort(r.choice(full, m, replace=False)).astype(np.int64)
    for dt in (np.float32, np.float64, np.int64):
        gv = r.uniform(-1, 1, full).astype(dt)
        cases.append(("SparseFillEmptyRowsGrad %s [%d of %d]" % (np.dtype(dt).name, m, full),
                      "SparseFillEmptyRowsGrad", {"reverse_index_map": rim, "grad_values": gv},
                      {}))
    return cases
'''

if __name__ == "__main__":
    main(_CASES_SRC, goal=1.5)
