"""Speed of the optimizer apply kernels and the variable scatter kernels
(issue 18), side by side with TensorFlow 2.21.

Each line times one update of resource variables of 1M float32 elements
(or a scatter of 10k rows into a 100k x 64 table) in tfe and in TF, through
each library's raw ops (eager dispatch included). The variables are made
once per case; every timed call updates them in place, as a training step
does. See raw_op_bench.py for the method.

Goal (issue 18): no ratio above 1.5.

Usage:  TFE_BENCH_TF_PYTHON=/path/to/python python benchmarks/bench_train_apply.py
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
                        shared_name="bench_var_%d" % _count[0])
    raw.AssignVariableOp(resource=h, value=c)
    return h

def apply_case(name, op, nslots, scalars, shape, grad_key="grad"):
    def setup(raw, const):
        r = np.random.default_rng(7)
        arr = lambda: r.uniform(0.1, 1.0, shape).astype(np.float32)
        handles = [var(raw, const, arr()) for _ in range(1 + nslots)]
        keys = ["var", "m", "v", "ms", "mom"][: 1 + nslots] if nslots else ["var"]
        ins = dict(zip(_slot_names[op], handles))
        for k, val in scalars.items():
            ins[k] = const(np.float32(val))
        ins[grad_key] = const(arr())
        return lambda: getattr(raw, op)(**ins)
    return (name, setup)

_slot_names = {
    "ResourceApplyGradientDescent": ["var"],
    "ResourceApplyMomentum": ["var", "accum"],
    "ResourceApplyAdam": ["var", "m", "v"],
    "ResourceApplyRMSProp": ["var", "ms", "mom"],
    "ResourceApplyAdagradV2": ["var", "accum"],
    "ResourceApplyFtrl": ["var", "accum", "linear"],
    "ResourceApplyAdadelta": ["var", "accum", "accum_update"],
}

def scatter_case(name, op, rows, cols, n, extra=None):
    def setup(raw, const):
        r = np.random.default_rng(8)
        h = var(raw, const, r.standard_normal((rows, cols)).astype(np.float32))
        idx = const(r.integers(0, rows, n).astype(np.int32))
        upd = const(r.standard_normal((n, cols)).astype(np.float32))
        if op == "ResourceScatterNdUpdate":
            idx = const(r.integers(0, rows, (n, 1)).astype(np.int32))
            return lambda: raw.ResourceScatterNdUpdate(ref=h, indices=idx, updates=upd)
        return lambda: getattr(raw, op)(resource=h, indices=idx, updates=upd)
    return (name, setup)

def make_cases(small):
    n = 250_000 if small else 1_000_000
    shape = (n // 1000, 1000)
    lr = {"lr": 0.01}
    out = [
        apply_case("ResourceApplyGradientDescent 1M f32", "ResourceApplyGradientDescent",
                   0, {"alpha": 0.01}, shape, "delta"),
        apply_case("ResourceApplyMomentum 1M f32", "ResourceApplyMomentum", 1,
                   {**lr, "momentum": 0.9}, shape),
        apply_case("ResourceApplyAdam 1M f32", "ResourceApplyAdam", 2,
                   {"beta1_power": 0.9, "beta2_power": 0.999, **lr, "beta1": 0.9,
                    "beta2": 0.999, "epsilon": 1e-7}, shape),
        apply_case("ResourceApplyRMSProp 1M f32", "ResourceApplyRMSProp", 2,
                   {**lr, "rho": 0.9, "momentum": 0.0, "epsilon": 1e-7}, shape),
        apply_case("ResourceApplyAdagradV2 1M f32", "ResourceApplyAdagradV2", 1,
                   {**lr, "epsilon": 1e-7}, shape),
        apply_case("ResourceApplyFtrl 1M f32", "ResourceApplyFtrl", 2,
                   {**lr, "l1": 0.01, "l2": 0.01, "lr_power": -0.5}, shape),
        apply_case("ResourceApplyAdadelta 1M f32", "ResourceApplyAdadelta", 2,
                   {**lr, "rho": 0.95, "epsilon": 1e-7}, shape),
    ]
    rows = 25_000 if small else 100_000
    for op in ("ResourceScatterAdd", "ResourceScatterUpdate", "ResourceScatterMax",
               "ResourceScatterNdUpdate"):
        out.append(scatter_case("%s 10k rows into %dx64" % (op, rows), op, rows, 64, 10_000))
    return out
'''


if __name__ == "__main__":
    main(_CASES_SRC, goal=1.5)
