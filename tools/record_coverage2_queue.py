"""Records TF 2.21's data-flow queue, stack, Stage and TensorArray kernels
(csrc/kernels/cpu/queue_kernels.c, containers_kernels.c,
tensor_array_kernels.c) as op sequences: FIFOQueue(V2),
PaddingFIFOQueue(V2), RandomShuffleQueue(V2) with every
QueueEnqueue/EnqueueMany/Dequeue/DequeueMany/DequeueUpTo/Close/IsClosed/Size
op (V2 eagerly, v1 ref forms in graphs), StackV2/StackPushV2/StackPopV2/
StackCloseV2, Stage/StagePeek/StageSize/StageClear, TensorArrayConcatV3 and
TensorArrayGradWithShape, plus error cases. Takes from a seeded
RandomShuffleQueue are compared as multisets (marked "unordered").

Run: /work/tfvenv/bin/python tools/record_coverage2_queue.py
Writes tests/data/coverage2_queue_tf221.json (tests/python/test_coverage2_queue.py)."""

from __future__ import annotations

from typing import Any

from record_coverage2_common import DT, DTS, REF, SHS, Recorder, S, T, vals

R = Recorder()
I32, I64, F32, ST = "int32", "int64", "float32", "string"
DTYPES = ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64", "bool", "complex64", "complex128", "string")


def U(step: dict[str, Any]) -> dict[str, Any]:
    step["unordered"] = True
    return step


def fifo() -> None:
    for dt in DTYPES:
        ct = {"component_types": DTS(dt, I32)}
        R.seq(f"fifo_v2_{dt}", "eager", [
            S("FIFOQueueV2", {}, {**ct, "shapes": SHS([2], []), "capacity": 10}),
            S("QueueEnqueueV2", {"handle": REF(0), "components": [T(vals((2,), dt), dt),
                                                                  T(1, I32)]}),
            S("QueueEnqueueManyV2", {"handle": REF(0), "components": [
                T(vals((3, 2), dt), dt), T([2, 3, 4], I32)]}),
            S("QueueSizeV2", {"handle": REF(0)}),
            S("QueueDequeueV2", {"handle": REF(0)}, ct),
            S("QueueDequeueManyV2", {"handle": REF(0), "n": T(2, I32)}, ct),
            S("QueueIsClosedV2", {"handle": REF(0)}),
            S("QueueCloseV2", {"handle": REF(0)}),
            S("QueueIsClosedV2", {"handle": REF(0)}),
            S("QueueEnqueueV2", {"handle": REF(0), "components": [T(vals((2,), dt), dt),
                                                                  T(1, I32)]}),
            S("QueueDequeueUpToV2", {"handle": REF(0), "n": T(5, I32)}, ct),
            S("QueueDequeueV2", {"handle": REF(0)}, ct),
            S("QueueSizeV2", {"handle": REF(0)}),
        ])
    R.seq("fifo_v2_errors", "eager", [
        S("FIFOQueueV2", {}, {"component_types": DTS(F32), "shapes": SHS([2]), "capacity": 2}),
        S("QueueEnqueueV2", {"handle": REF(0), "components": [T([1.0, 2.0, 3.0], F32)]}),
        S("QueueEnqueueV2", {"handle": REF(0), "components": [T([1, 2], I32)]}),
        S("QueueEnqueueV2", {"handle": REF(0), "components": [T([1.0, 2.0], F32),
                                                              T([1.0, 2.0], F32)]}),
        S("QueueEnqueueManyV2", {"handle": REF(0), "components": [T([[1.0, 2.0, 3.0]], F32)]}),
        S("QueueEnqueueV2", {"handle": REF(0), "components": [T([1.0, 2.0], F32)]}),
        S("QueueDequeueManyV2", {"handle": REF(0), "n": T(-1, I32)},
          {"component_types": DTS(F32)}),
        S("QueueDequeueV2", {"handle": REF(0)}, {"component_types": DTS(I32)}),
        S("QueueDequeueV2", {"handle": REF(0)}, {"component_types": DTS(F32, F32)}),
        S("QueueCloseV2", {"handle": REF(0)}, {"cancel_pending_enqueues": True}),
        S("QueueDequeueManyV2", {"handle": REF(0), "n": T(3, I32)},
          {"component_types": DTS(F32)}),
        S("QueueDequeueV2", {"handle": REF(0)}, {"component_types": DTS(F32)}),
        S("QueueDequeueV2", {"handle": REF(0)}, {"component_types": DTS(F32)}),
        S("QueueDequeueUpToV2", {"handle": REF(0), "n": T(3, I32)},
          {"component_types": DTS(F32)}),
        S("QueueEnqueueV2", {"handle": REF(0), "components": [T([1.0, 2.0], F32)]}),
        S("FIFOQueueV2", {}, {"component_types": DTS(F32)}),
        S("QueueEnqueueV2", {"handle": REF(15), "components": [T([[1.0, 2.0]], F32)]}),
        S("QueueEnqueueV2", {"handle": REF(15), "components": [T([3.0], F32)]}),
        S("QueueDequeueManyV2", {"handle": REF(15), "n": T(1, I32)},
          {"component_types": DTS(F32)}),
        S("QueueDequeueV2", {"handle": REF(15)}, {"component_types": DTS(F32)}),
        S("QueueCloseV2", {"handle": REF(15)}),
        S("QueueDequeueUpToV2", {"handle": REF(15), "n": T(3, I32)},
          {"component_types": DTS(F32)}),
    ])


def padding() -> None:
    for dt in ("float32", "int32", "int64", "string", "bool", "float64", "uint8", "complex64"):
        ct = {"component_types": DTS(dt, I64)}
        R.seq(f"padding_fifo_v2_{dt}", "eager", [
            S("PaddingFIFOQueueV2", {}, {**ct, "shapes": SHS([None], [None, 2])}),
            S("QueueEnqueueV2", {"handle": REF(0), "components": [
                T(vals((1,), dt), dt), T([[1, 2]], I64)]}),
            S("QueueEnqueueV2", {"handle": REF(0), "components": [
                T(vals((3,), dt), dt), T([[1, 2], [3, 4], [5, 6]], I64)]}),
            S("QueueEnqueueManyV2", {"handle": REF(0), "components": [
                T(vals((2, 2), dt), dt), T(vals((2, 1, 2), I64), I64)]}),
            S("QueueSizeV2", {"handle": REF(0)}),
            S("QueueDequeueManyV2", {"handle": REF(0), "n": T(3, I32)}, ct),
            S("QueueCloseV2", {"handle": REF(0)}),
            S("QueueDequeueUpToV2", {"handle": REF(0), "n": T(4, I32)}, ct),
        ])
    R.seq("padding_fifo_errors", "eager", [
        S("PaddingFIFOQueueV2", {}, {"component_types": DTS(F32), "shapes": SHS([None, 2])}),
        S("QueueEnqueueV2", {"handle": REF(0), "components": [T([1.0, 2.0], F32)]}),
        S("QueueEnqueueV2", {"handle": REF(0), "components": [T([[1.0, 2.0, 3.0]], F32)]}),
        S("PaddingFIFOQueueV2", {}, {"component_types": DTS(F32)}),
        S("PaddingFIFOQueueV2", {}, {"component_types": DTS(F32, I32), "shapes": SHS([1])}),
    ])


def shuffle() -> None:
    for dt in ("float32", "int32", "string", "int64", "float64", "bool"):
        ct = {"component_types": DTS(dt)}
        R.seq(f"random_shuffle_v2_{dt}", "eager", [
            S("RandomShuffleQueueV2", {}, {**ct, "shapes": SHS([]), "capacity": 20,
                                           "min_after_dequeue": 2, "seed": 7, "seed2": 3}),
            S("QueueEnqueueManyV2", {"handle": REF(0), "components": [T(vals((8,), dt), dt)]}),
            S("QueueSizeV2", {"handle": REF(0)}),
            U(S("QueueDequeueManyV2", {"handle": REF(0), "n": T(3, I32)}, ct)),
            S("QueueSizeV2", {"handle": REF(0)}),
            S("QueueCloseV2", {"handle": REF(0)}),
            U(S("QueueDequeueUpToV2", {"handle": REF(0), "n": T(10, I32)}, ct)),
            S("QueueDequeueV2", {"handle": REF(0)}, ct),
        ])
    R.seq("random_shuffle_errors", "eager", [
        S("RandomShuffleQueueV2", {}, {"component_types": DTS(F32), "capacity": 2,
                                       "min_after_dequeue": 5}),
        S("RandomShuffleQueueV2", {}, {"component_types": DTS(F32), "shapes": SHS([2])}),
        S("QueueEnqueueV2", {"handle": REF(1), "components": [T([1.0], F32)]}),
        S("QueueCloseV2", {"handle": REF(1)}),
        S("QueueDequeueUpToV2", {"handle": REF(1), "n": T(1, I32)},
          {"component_types": DTS(F32)}),
    ])


def v1_graph() -> None:
    ct = {"component_types": DTS(F32)}
    R.seq("queues_v1_graph", "graph", [
        S("FIFOQueue", {}, {**ct, "shapes": SHS([2]), "shared_name": "q1"}, fetch=False),
        S("QueueEnqueue", {"handle": REF(0), "components": [T([1.0, 2.0], F32)]}),
        S("QueueEnqueueMany", {"handle": REF(0), "components": [T([[3.0, 4.0], [5.0, 6.0]],
                                                                  F32)]}),
        S("QueueSize", {"handle": REF(0)}),
        S("QueueDequeue", {"handle": REF(0)}, ct),
        S("QueueDequeueMany", {"handle": REF(0), "n": T(1, I32)}, ct),
        S("QueueIsClosed", {"handle": REF(0)}),
        S("QueueClose", {"handle": REF(0)}),
        S("QueueIsClosed", {"handle": REF(0)}),
        S("QueueDequeueUpTo", {"handle": REF(0), "n": T(4, I32)}, ct),
        S("QueueDequeue", {"handle": REF(0)}, ct),
        S("PaddingFIFOQueue", {}, {**ct, "shapes": SHS([None]), "shared_name": "q2"},
          fetch=False),
        S("QueueEnqueue", {"handle": REF(11), "components": [T([1.0], F32)]}),
        S("QueueEnqueue", {"handle": REF(11), "components": [T([1.0, 2.0, 3.0], F32)]}),
        S("QueueDequeueMany", {"handle": REF(11), "n": T(2, I32)}, ct),
        S("RandomShuffleQueue", {}, {**ct, "shapes": SHS([]), "seed": 3, "seed2": 4,
                                     "shared_name": "q3"}, fetch=False),
        S("QueueEnqueueMany", {"handle": REF(15), "components": [T([1.0, 2.0, 3.0], F32)]}),
        U(S("QueueDequeueMany", {"handle": REF(15), "n": T(3, I32)}, ct)),
    ])


def stacks_stage_ta() -> None:
    for dt in ("float32", "int32", "string", "float64", "int64", "bool", "complex64", "uint8"):
        et = {"elem_type": DT(dt)}
        R.seq(f"stack_v2_{dt}", "eager", [
            S("StackV2", {"max_size": T(3, I32)}, {**et, "stack_name": "s"}),
            S("StackPushV2", {"handle": REF(0), "elem": T(vals((2,), dt), dt)}),
            S("StackPushV2", {"handle": REF(0), "elem": T(vals((), dt), dt)}),
            S("StackPopV2", {"handle": REF(0)}, et),
            S("StackPopV2", {"handle": REF(0)}, et),
            S("StackPopV2", {"handle": REF(0)}, et),
            S("StackCloseV2", {"handle": REF(0)}),
        ])
    R.seq("stack_v2_errors", "eager", [
        S("StackV2", {"max_size": T(1, I32)}, {"elem_type": DT(F32)}),
        S("StackPushV2", {"handle": REF(0), "elem": T(1.0, F32)}),
        S("StackPushV2", {"handle": REF(0), "elem": T(2.0, F32)}),
        S("StackPushV2", {"handle": REF(0), "elem": T(2, I32)}),
        S("StackPopV2", {"handle": REF(0)}, {"elem_type": DT(I32)}),
        S("StackCloseV2", {"handle": REF(0)}),
        S("StackPopV2", {"handle": REF(0)}, {"elem_type": DT(F32)}),
        S("StackPushV2", {"handle": REF(0), "elem": T(2.0, F32)}),
    ])
    sd = {"dtypes": DTS(F32, I64)}
    R.seq("stage_eager", "eager", [
        S("Stage", {"values": [T([1.0, 2.0], F32), T(3, I64)]}, {"shared_name": "stg"}),
        S("Stage", {"values": [T([4.0], F32), T(5, I64)]}, {"shared_name": "stg"}),
        S("StageSize", {}, {**sd, "shared_name": "stg"}),
        S("StagePeek", {"index": T(1, I32)}, {**sd, "shared_name": "stg"}),
        S("StagePeek", {"index": T(0, I32)}, {**sd, "shared_name": "stg"}),
        S("Unstage", {}, {**sd, "shared_name": "stg"}),
        S("StageSize", {}, {**sd, "shared_name": "stg"}),
        S("StageClear", {}, {**sd, "shared_name": "stg"}),
        S("StageSize", {}, {**sd, "shared_name": "stg"}),
        S("Stage", {"values": [T([1.0], F32)]}, {"shared_name": "stg3", "memory_limit": 2}),
    ])
    R.seq("tensor_array_concat_grad", "eager", [
        S("TensorArrayV3", {"size": T(3, I32)}, {"dtype": DT(F32), "dynamic_size": False,
                                                 "identical_element_shapes": False}),
        S("TensorArrayWriteV3", {"handle": REF(0), "index": T(0, I32),
                                 "value": T([[1.0, 2.0]], F32), "flow_in": REF(0, 1)}),
        S("TensorArrayWriteV3", {"handle": REF(0), "index": T(1, I32),
                                 "value": T([[3.0, 4.0], [5.0, 6.0]], F32),
                                 "flow_in": REF(1)}),
        S("TensorArrayWriteV3", {"handle": REF(0), "index": T(2, I32),
                                 "value": T([[7.0, 8.0]], F32), "flow_in": REF(2)}),
        S("TensorArrayConcatV3", {"handle": REF(0), "flow_in": REF(3)},
          {"dtype": DT(F32), "element_shape_except0": [2]}),
        S("TensorArrayGradWithShape", {"handle": REF(0), "flow_in": REF(3),
                                       "shape_to_prepend": T([2], I32)}, {"source": "g"}),
        S("TensorArraySizeV3", {"handle": REF(5), "flow_in": REF(5, 1)}),
        S("TensorArrayConcatV3", {"handle": REF(0), "flow_in": REF(3)},
          {"dtype": DT(I32)}),
        S("TensorArrayConcatV3", {"handle": REF(0), "flow_in": REF(3)},
          {"dtype": DT(F32), "element_shape_except0": [3]}),
        S("TensorArrayV3", {"size": T(2, I32)}, {"dtype": DT(F32)}),
        S("TensorArrayConcatV3", {"handle": REF(9), "flow_in": REF(9, 1)}, {"dtype": DT(F32)}),
        S("TensorArrayWriteV3", {"handle": REF(9), "index": T(0, I32), "value": T(1.0, F32),
                                 "flow_in": REF(9, 1)}),
        S("TensorArrayWriteV3", {"handle": REF(9), "index": T(1, I32), "value": T(2.0, F32),
                                 "flow_in": REF(11)}),
        S("TensorArrayConcatV3", {"handle": REF(9), "flow_in": REF(12)}, {"dtype": DT(F32)}),
        S("TensorArrayGradWithShape", {"handle": REF(9), "flow_in": REF(12),
                                       "shape_to_prepend": T([[2]], I32)}, {"source": "g"}),
    ])


def main() -> None:
    fifo()
    padding()
    shuffle()
    v1_graph()
    stacks_stage_ta()
    R.write("coverage2_queue_tf221.json")


if __name__ == "__main__":
    main()
