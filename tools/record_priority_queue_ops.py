"""Records TF 2.21's PriorityQueue kernels (csrc/kernels/cpu/queue_kernels.c)
as op sequences: PriorityQueueV2 with QueueEnqueue/EnqueueMany/Dequeue/
DequeueMany/DequeueUpTo/Close/IsClosed/Size for every value dtype (the
kernel has no dtype constraint), ties between equal priorities (TF's heap
order), several value components, the v1 PriorityQueue in a graph, and
error cases (missing shapes, shape counts, signatures, element shapes,
closed queues, DequeueUpTo losing a short batch, shared-queue mismatches).

Every sequence's queue has its own capacity, so that eager kernels (cached
by attributes, each keeping the queue it made) never share a queue across
sequences.

Run: /work/tfvenv/bin/python tools/record_priority_queue_ops.py
Writes tests/data/priority_queue_ops_tf221.json
(tests/python/test_priority_queue_ops.py)."""

from __future__ import annotations

from record_coverage2_common import DTS, REF, SHS, Recorder, S, T, vals

R = Recorder()
I32, I64, F32, ST = "int32", "int64", "float32", "string"
DTYPES = ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64", "bool", "complex64", "complex128", "string")

_cap = [100]


def cap() -> int:
    _cap[0] += 1
    return _cap[0]


def per_dtype() -> None:
    for dt in DTYPES:
        ct = {"component_types": DTS(I64, dt)}
        R.seq(f"priority_v2_{dt}", "eager", [
            S("PriorityQueueV2", {}, {"component_types": DTS(dt), "shapes": SHS([2]),
                                      "capacity": cap()}),
            S("QueueEnqueueV2", {"handle": REF(0), "components": [T(3, I64),
                                                                  T(vals((2,), dt), dt)]}),
            S("QueueEnqueueManyV2", {"handle": REF(0), "components": [
                T([1, 3, -7, 2], I64), T(vals((4, 2), dt), dt)]}),
            S("QueueSizeV2", {"handle": REF(0)}),
            S("QueueDequeueV2", {"handle": REF(0)}, ct),
            S("QueueDequeueManyV2", {"handle": REF(0), "n": T(2, I32)}, ct),
            S("QueueIsClosedV2", {"handle": REF(0)}),
            S("QueueCloseV2", {"handle": REF(0)}),
            S("QueueIsClosedV2", {"handle": REF(0)}),
            S("QueueDequeueUpToV2", {"handle": REF(0), "n": T(2, I32)}, ct),
            S("QueueDequeueV2", {"handle": REF(0)}, ct),
            S("QueueEnqueueV2", {"handle": REF(0), "components": [T(1, I64),
                                                                  T(vals((2,), dt), dt)]}),
            S("QueueSizeV2", {"handle": REF(0)}),
        ])


def ties() -> None:
    ct = {"component_types": DTS(I64, I32)}
    pr = [3, 1, 3, 2, 1, 3, 1, 2, 2, 3, 1, 1, 0, 3, 2]
    steps = [
        S("PriorityQueueV2", {}, {"component_types": DTS(I32), "shapes": SHS([]),
                                  "capacity": cap()}),
        S("QueueEnqueueManyV2", {"handle": REF(0), "components": [
            T(pr, I64), T(list(range(15)), I32)]}),
        S("QueueDequeueManyV2", {"handle": REF(0), "n": T(6, I32)}, ct),
    ]
    for i in range(4):
        steps.append(S("QueueEnqueueV2", {"handle": REF(0), "components": [
            T(2, I64), T(100 + i, I32)]}))
    steps += [
        S("QueueDequeueV2", {"handle": REF(0)}, ct),
        S("QueueEnqueueManyV2", {"handle": REF(0), "components": [
            T([2, -(2**63), 2**63 - 1, 0, 2], I64), T([200, 201, 202, 203, 204], I32)]}),
        S("QueueDequeueManyV2", {"handle": REF(0), "n": T(17, I32)}, ct),
        S("QueueDequeueManyV2", {"handle": REF(0), "n": T(0, I32)}, ct),
        S("QueueSizeV2", {"handle": REF(0)}),
    ]
    R.seq("priority_v2_ties", "eager", steps)


def multi_component() -> None:
    ct = {"component_types": DTS(I64, F32, I32, ST)}
    R.seq("priority_v2_three_values", "eager", [
        S("PriorityQueueV2", {}, {"component_types": DTS(F32, I32, ST),
                                  "shapes": SHS([], [2], []), "capacity": cap()}),
        S("QueueEnqueueManyV2", {"handle": REF(0), "components": [
            T([5, 2, 9], I64), T([1.5, 2.5, 3.5], F32), T([[1, 2], [3, 4], [5, 6]], I32),
            T(["a", "b", "c"], ST)]}),
        S("QueueEnqueueV2", {"handle": REF(0), "components": [
            T(4, I64), T(0.5, F32), T([7, 8], I32), T("d", ST)]}),
        S("QueueDequeueUpToV2", {"handle": REF(0), "n": T(3, I32)}, ct),
        S("QueueDequeueV2", {"handle": REF(0)}, ct),
        S("QueueSizeV2", {"handle": REF(0)}),
    ])
    R.seq("priority_v2_priority_only", "eager", [
        S("PriorityQueueV2", {}, {"component_types": DTS(), "shapes": SHS(),
                                  "capacity": cap()}),
        S("PriorityQueueV2", {}, {"component_types": DTS(), "shapes": SHS([]),
                                  "capacity": cap()}),
    ])


def errors() -> None:
    c1 = cap()
    ct = {"component_types": DTS(I64, F32)}
    R.seq("priority_v2_errors", "eager", [
        S("PriorityQueueV2", {}, {"component_types": DTS(F32), "shapes": SHS([2]),
                                  "capacity": c1}),
        # signatures and element shapes
        S("QueueEnqueueV2", {"handle": REF(0), "components": [T(1, I32),
                                                              T([1.0, 2.0], F32)]}),
        S("QueueEnqueueV2", {"handle": REF(0), "components": [T([1, 2], I64),
                                                              T([1.0, 2.0], F32)]}),
        S("QueueEnqueueV2", {"handle": REF(0), "components": [T(1, I64), T([1.0], F32)]}),
        S("QueueEnqueueManyV2", {"handle": REF(0), "components": [
            T([[1, 2]], I64), T([[1.0, 2.0]], F32)]}),
        S("QueueEnqueueManyV2", {"handle": REF(0), "components": [
            T([1], I64), T([[1.0, 2.0], [3.0, 4.0]], F32)]}),
        S("QueueEnqueueV2", {"handle": REF(0), "components": [T([1.0, 2.0], F32)]}),
        S("QueueDequeueV2", {"handle": REF(0)}, {"component_types": DTS(F32)}),
        S("QueueDequeueManyV2", {"handle": REF(0), "n": T(-1, I32)}, ct),
        S("QueueDequeueUpToV2", {"handle": REF(0), "n": T(-2, I32)}, ct),
        # a short closed queue
        S("QueueEnqueueManyV2", {"handle": REF(0), "components": [
            T([5, 4, 6], I64), T([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]], F32)]}),
        S("QueueCloseV2", {"handle": REF(0)}),
        S("QueueDequeueManyV2", {"handle": REF(0), "n": T(5, I32)}, ct),
        S("QueueSizeV2", {"handle": REF(0)}),
        S("QueueDequeueUpToV2", {"handle": REF(0), "n": T(5, I32)}, ct),
        S("QueueSizeV2", {"handle": REF(0)}),
        S("QueueDequeueUpToV2", {"handle": REF(0), "n": T(1, I32)}, ct),
        S("QueueDequeueManyV2", {"handle": REF(0), "n": T(0, I32)}, ct),
        S("QueueCloseV2", {"handle": REF(0)}),
        S("QueueCloseV2", {"handle": REF(0)}, {"cancel_pending_enqueues": True}),
        S("QueueEnqueueManyV2", {"handle": REF(0), "components": [
            T([1], I64), T([[1.0, 2.0]], F32)]}),
        S("QueueIsClosedV2", {"handle": REF(0)}),
    ])
    R.seq("priority_v2_bad_attrs", "eager", [
        S("PriorityQueueV2", {}, {"component_types": DTS(F32), "shapes": SHS(),
                                  "capacity": cap()}),
        S("PriorityQueueV2", {}, {"component_types": DTS(F32), "shapes": SHS([2], [3]),
                                  "capacity": cap()}),
        S("PriorityQueueV2", {}, {"component_types": DTS(F32, I32), "shapes": SHS([2]),
                                  "capacity": cap()}),
        S("PriorityQueueV2", {}, {"component_types": DTS(F32), "shapes": SHS([None]),
                                  "capacity": cap()}),
        S("PriorityQueueV2", {}, {"component_types": DTS(F32), "shapes": SHS(None),
                                  "capacity": cap()}),
        S("PriorityQueueV2", {}, {"component_types": DTS(F32), "shapes": SHS([2]),
                                  "capacity": 2**40}),
    ])
    R.seq("priority_v2_shared", "eager", [
        S("PriorityQueueV2", {}, {"component_types": DTS(I32), "shapes": SHS([]),
                                  "capacity": 7, "shared_name": "pq_shared"}),
        S("QueueEnqueueV2", {"handle": REF(0), "components": [T(9, I64), T(1, I32)]}),
        S("PriorityQueueV2", {}, {"component_types": DTS(I32), "shapes": SHS([]),
                                  "capacity": 7, "shared_name": "pq_shared",
                                  "container": ""}),
        S("QueueSizeV2", {"handle": REF(2)}),
        S("PriorityQueueV2", {}, {"component_types": DTS(F32), "shapes": SHS([]),
                                  "capacity": 7, "shared_name": "pq_shared"}),
        S("PriorityQueueV2", {}, {"component_types": DTS(I32), "shapes": SHS([2]),
                                  "capacity": 7, "shared_name": "pq_shared"}),
        S("PriorityQueueV2", {}, {"component_types": DTS(I32), "shapes": SHS([]),
                                  "capacity": 3, "shared_name": "pq_shared"}),
        S("PriorityQueueV2", {}, {"component_types": DTS(I32), "shapes": SHS(),
                                  "capacity": 7, "shared_name": "pq_shared"}),
        S("FIFOQueueV2", {}, {"component_types": DTS(I64, I32), "shapes": SHS([], []),
                              "capacity": 7, "shared_name": "pq_shared"}),
    ])


def v1_graph() -> None:
    ct = {"component_types": DTS(I64, F32)}
    R.seq("priority_v1_graph", "graph", [
        S("PriorityQueue", {}, {"component_types": DTS(F32), "shapes": SHS([2]),
                                "shared_name": "pq_v1"}, fetch=False),
        S("QueueEnqueue", {"handle": REF(0), "components": [T(4, I64), T([1.0, 2.0], F32)]}),
        S("QueueEnqueueMany", {"handle": REF(0), "components": [
            T([2, 8], I64), T([[3.0, 4.0], [5.0, 6.0]], F32)]}),
        S("QueueSize", {"handle": REF(0)}),
        S("QueueDequeue", {"handle": REF(0)}, ct),
        S("QueueDequeueMany", {"handle": REF(0), "n": T(1, I32)}, ct),
        S("QueueClose", {"handle": REF(0)}),
        S("QueueIsClosed", {"handle": REF(0)}),
        S("QueueDequeueUpTo", {"handle": REF(0), "n": T(1, I32)}, ct),
        S("QueueDequeue", {"handle": REF(0)}, ct),
    ])


if __name__ == "__main__":
    per_dtype()
    ties()
    multi_component()
    errors()
    v1_graph()
    R.write("priority_queue_ops_tf221.json")
