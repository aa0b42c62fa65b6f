"""Speed of the dataflow2 kernels (staging maps, conditional accumulators,
TensorMap; csrc/kernels/cpu/dataflow2_*.c) and of the priority queue
(csrc/kernels/cpu/queue_kernels.c), side by side with TensorFlow
2.21. See raw_op_bench.py for the method. Each case is a short program of
eager ops on one piece of state (100 inserts then 100 takes, ...), so the
times include per-op dispatch, as a model using these ops would see them.
Barriers take a Ref handle, which TF cannot run eagerly: not timed here.

Goal (issue 18): no ratio above 1.5.

Usage:  TFE_BENCH_TF_PYTHON=/path/to/python python benchmarks/bench_dataflow.py
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

def _name(p):
    _count[0] += 1
    return "bench_%s_%d" % (p, _count[0])

def map_case(n, elems, ordered):
    op = "Ordered" if ordered else ""
    def setup(raw, const):
        vals = const(np.ones((elems,), np.float32))
        idx = const(np.array([0], np.int32))
        keys = [const(np.int64(i)) for i in range(n)]
        sn = _name("map")
        stage = getattr(raw, op + "MapStage")
        unstage = getattr(raw, op + "MapUnstage")
        dts = [vals.dtype]
        def run():
            for k in keys:
                stage(key=k, indices=idx, values=[vals], dtypes=dts, shared_name=sn)
            for k in keys:
                unstage(key=k, indices=idx, dtypes=dts, shared_name=sn)
        return run
    return ("%sMapStage+MapUnstage %d keys x %d f32" % (op, n, elems), setup)

def map_peek_case(n, elems):
    def setup(raw, const):
        vals = const(np.ones((elems,), np.float32))
        idx = const(np.array([0], np.int32))
        keys = [const(np.int64(i)) for i in range(n)]
        sn = _name("peek")
        dts = [vals.dtype]
        for k in keys:
            raw.MapStage(key=k, indices=idx, values=[vals], dtypes=dts, shared_name=sn)
        def run():
            for k in keys:
                raw.MapPeek(key=k, indices=idx, dtypes=dts, shared_name=sn)
        return run
    return ("MapPeek %d keys of a %d-key map, %d f32" % (n, n, elems), setup)

def accum_case(n, elems):
    def setup(raw, const):
        g = const(np.ones((elems,), np.float32))
        step = const(np.int64(0))
        req = const(np.int32(n))
        h = raw.ResourceConditionalAccumulator(dtype=g.dtype, shape=[elems],
                                               shared_name=_name("acc"))
        def run():
            # (each take advances the global step: reset it so the
            # gradients of local step 0 are not stale)
            raw.ResourceAccumulatorSetGlobalStep(handle=h, new_global_step=step)
            for _ in range(n):
                raw.ResourceAccumulatorApplyGradient(handle=h, local_step=step, gradient=g)
            raw.ResourceAccumulatorTakeGradient(handle=h, num_required=req, dtype=g.dtype)
        return run
    return ("ResourceAccumulator %d applies + take, %d f32" % (n, elems), setup)

def tensor_map_case(n, elems):
    def setup(raw, const):
        v = const(np.ones((elems,), np.float32))
        keys = [const(np.int32(i)) for i in range(n)]
        def run():
            m = raw.EmptyTensorMap()
            for k in keys:
                m = raw.TensorMapInsert(input_handle=m, key=k, value=v)
            for k in keys:
                raw.TensorMapLookup(input_handle=m, key=k, value_dtype=v.dtype)
        return run
    return ("TensorMapInsert+Lookup %d int32 keys, %d f32" % (n, elems), setup)

def priority_queue_case(n, elems):
    def setup(raw, const):
        v = const(np.ones((elems,), np.float32))
        # priorities in a scrambled order, so the heap does real work
        pr = [const(np.int64((i * 7919) % n)) for i in range(n)]
        cnt = const(np.int32(n))
        h = raw.PriorityQueueV2(component_types=[v.dtype], shapes=[[elems]],
                                shared_name=_name("pq"))
        def run():
            for p in pr:
                raw.QueueEnqueueV2(handle=h, components=[p, v])
            raw.QueueDequeueManyV2(handle=h, n=cnt,
                                   component_types=[pr[0].dtype, v.dtype])
        return run
    return ("PriorityQueue %d enqueues + DequeueMany, %d f32" % (n, elems), setup)

def make_cases(small):
    s = 4 if small else 1
    return [
        map_case(100, 256, False),
        map_case(100, 256, True),
        map_case(100, 65536 // s, False),
        map_peek_case(100, 256),
        accum_case(100, 256),
        accum_case(20, 1_000_000 // s),
        tensor_map_case(100, 256),
        priority_queue_case(100, 256),
        priority_queue_case(1000, 16),
    ]
'''

if __name__ == "__main__":
    main(_CASES_SRC, goal=1.5)
