"""Records TF 2.21's behaviour of the container ops tfe implements in
csrc/kernels/cpu/containers_kernels.c and tensor_array_kernels.c: the
deprecated v1/v2 TensorArray ops (TF refuses them at the current GraphDef
version) and the TF 1 stack ops (Stack, StackPush, StackPop, StackClose) run
in tf.compat.v1 graphs and sessions.

Run: /work/tfvenv/bin/python tools/record_containers_ops.py
Writes tests/data/containers_ops_tf221.json."""
from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import op_def_library

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "containers_ops_tf221.json")
raw = tf.raw_ops

DEPRECATED_TA = [
    "TensorArray", "TensorArrayV2", "TensorArrayRead", "TensorArrayReadV2",
    "TensorArrayWrite", "TensorArrayWriteV2", "TensorArrayGather", "TensorArrayGatherV2",
    "TensorArrayScatter", "TensorArrayScatterV2", "TensorArrayConcat", "TensorArrayConcatV2",
    "TensorArraySplit", "TensorArraySplitV2", "TensorArraySize", "TensorArraySizeV2",
    "TensorArrayClose", "TensorArrayCloseV2", "TensorArrayGrad", "TensorArrayGradV2",
    "TensorArrayPack", "TensorArrayUnpack",
]


def deprecated_messages() -> dict[str, str]:
    """TF's refusal of each op at the current GraphDef version (the text the
    kernel-creation check and the Python op builder share)."""
    out: dict[str, str] = {}
    g = tf.Graph()
    for name in DEPRECATED_TA:
        op_def = op_def_library.op_def_registry.get(name)
        try:
            op_def_library._CheckOpDeprecation(name, op_def, g.graph_def_versions.producer)
            out[name] = ""
        except NotImplementedError as e:
            out[name] = str(e)
    # One eager run checks that execution fails with the same text.
    try:
        raw.TensorArrayV2(size=3, dtype=tf.float32)
    except tf.errors.UnimplementedError as e:
        assert out["TensorArrayV2"] in e.message, e.message
    return out


def concat_v2_errors() -> list[dict[str, Any]]:
    """TensorArrayConcatV2 is not deprecated, but no op of TF 2.21 can make
    the string-handled array it reads: every call fails (eager: step 0)."""
    out: list[dict[str, Any]] = []
    for h in (["_tensor_arrays", "x"], ["a", "b"], ["a"], "a", [["a", "b"]], [], ["a", "b", "c"]):
        try:
            raw.TensorArrayConcatV2(handle=h, flow_in=0.0, dtype=tf.float32)
            out.append({"handle": h, "ok": True})
        except tf.errors.OpError as e:
            msg = e.message.split("}} ", 1)[-1].rsplit(" [Op:", 1)[0]
            out.append({"handle": h, "code": e.error_code, "message": msg})
    return out


def stack_sequence(dtype: tf.DType, values: list[Any]) -> dict[str, Any]:
    """Pushes values one by one, then pops them all, in one session run each
    (a v1 stack lives in the step container: make and use it in one run)."""
    g = tf.Graph()
    with g.as_default():
        s = raw.Stack(elem_type=dtype, stack_name="st")
        deps = []
        pushed = []
        for v in values:
            with tf.control_dependencies(deps):
                p = raw.StackPush(handle=s, elem=tf.constant(v, dtype=dtype))
            deps = [p]
            pushed.append(p)
        pops = []
        for _ in values:
            with tf.control_dependencies(deps):
                q = raw.StackPop(handle=s, elem_type=dtype)
            deps = [q]
            pops.append(q)
        with tf.compat.v1.Session(graph=g) as sess:
            res = sess.run(pushed + pops)
    enc = (lambda a: [x.decode() for x in np.asarray(a).ravel()]) if dtype == tf.string else (
        lambda a: np.asarray(a).tolist())
    return {
        "dtype": dtype.name,
        "values": values,
        "pushed": [enc(r) for r in res[: len(values)]],
        "popped": [enc(r) for r in res[len(values):]],
    }


def op_message(text: str) -> str:
    """The kernel's own message inside a session error's text (the line
    before the node annotation)."""
    lines = [ln for ln in text.split("\n") if ln.strip()]
    for i, ln in enumerate(lines):
        if ln.strip().startswith("[[{{node"):
            return lines[i - 1].strip()
    return lines[-1].strip()


def stack_error(kind: str) -> dict[str, Any]:
    g = tf.Graph()
    with g.as_default():
        s = raw.Stack(elem_type=tf.float32, stack_name="st")
        if kind == "pop_empty":
            t = raw.StackPop(handle=s, elem_type=tf.float32)
        elif kind == "push_wrong_dtype":
            t = raw.StackPush(handle=s, elem=tf.constant([1], tf.int32))
        elif kind == "push_after_close":
            c = raw.StackClose(handle=s)
            with tf.control_dependencies([c]):
                t = raw.StackPush(handle=s, elem=tf.constant(1.0))
        elif kind == "pop_after_close":
            p = raw.StackPush(handle=s, elem=tf.constant(1.0))
            with tf.control_dependencies([p]):
                c = raw.StackClose(handle=s)
            with tf.control_dependencies([c]):
                t = raw.StackPop(handle=s, elem_type=tf.float32)
        elif kind == "pop_wrong_dtype":
            p = raw.StackPush(handle=s, elem=tf.constant(1.0))
            with tf.control_dependencies([p]):
                t = raw.StackPop(handle=s, elem_type=tf.int32)
        else:
            raise ValueError(kind)
        with tf.compat.v1.Session(graph=g) as sess:
            try:
                sess.run(t)
                return {"kind": kind, "ok": True}
            except tf.errors.OpError as e:
                return {"kind": kind, "code": e.error_code, "message": op_message(e.message)}


STAGE_D = [tf.float32, tf.int32]


def stage_sequence() -> dict[str, Any]:
    """Two Stages, StageSize, StagePeek(1), Unstage, StageSize, StageClear,
    StageSize, ordered by control dependencies in one run."""
    g = tf.Graph()
    with g.as_default():
        a = raw.Stage(values=[tf.constant([1.0, 2.0]), tf.constant(3)], shared_name="s")
        with tf.control_dependencies([a]):
            b = raw.Stage(values=[tf.constant([4.0]), tf.constant(5)], shared_name="s")
        with tf.control_dependencies([b]):
            n = raw.StageSize(shared_name="s", dtypes=STAGE_D)
            p = raw.StagePeek(index=1, shared_name="s", dtypes=STAGE_D)
        with tf.control_dependencies([n, *p]):
            u = raw.Unstage(shared_name="s", dtypes=STAGE_D)
        with tf.control_dependencies(u):
            n2 = raw.StageSize(shared_name="s", dtypes=STAGE_D)
        with tf.control_dependencies([n2]):
            c = raw.StageClear(shared_name="s", dtypes=STAGE_D)
        with tf.control_dependencies([c]):
            n3 = raw.StageSize(shared_name="s", dtypes=STAGE_D)
        with tf.compat.v1.Session(graph=g) as sess:
            r = sess.run([n, p, u, n2, n3])
    return {"size1": int(r[0]), "peek1": [r[1][0].tolist(), int(r[1][1])],
            "unstaged": [r[2][0].tolist(), int(r[2][1])], "size2": int(r[3]), "size3": int(r[4])}


def stage_error(kind: str) -> dict[str, Any]:
    g = tf.Graph()
    with g.as_default():
        if kind == "unstage_count_mismatch":
            a = raw.Stage(values=[tf.constant([1.0, 2.0]), tf.constant(3)], shared_name="s")
            with tf.control_dependencies([a]):
                t = raw.Unstage(shared_name="s", dtypes=[tf.float32])
        elif kind == "over_memory_limit":
            t = raw.Stage(values=[tf.constant([1.0, 2.0, 3.0])], shared_name="s", memory_limit=8)
        elif kind == "peek_index_not_scalar":
            t = raw.StagePeek(index=[0], shared_name="s", dtypes=[tf.float32])
        else:
            assert kind == "unstage_wrong_dtype"
            a = raw.Stage(values=[tf.constant([1.0, 2.0])], shared_name="s")
            with tf.control_dependencies([a]):
                t = raw.Unstage(shared_name="s", dtypes=[tf.int32], name="Unstage")
        with tf.compat.v1.Session(graph=g) as sess:
            try:
                sess.run(t)
                return {"kind": kind, "ok": True}
            except tf.errors.OpError as e:
                lines = [ln.strip() for ln in e.message.split("\n") if ln.strip()]
                msg = next((ln for ln in lines if ln.startswith(("Mismatch", "Attempted", "index",
                                                                 "Output"))), lines[0])
                return {"kind": kind, "code": e.error_code, "message": msg}


def main() -> None:
    data = {
        "deprecated": deprecated_messages(),
        "concat_v2_errors": concat_v2_errors(),
        "stack_sequences": [
            stack_sequence(tf.float32, [[1.0, 2.0], [3.5], [[4.0]]]),
            stack_sequence(tf.int32, [1, 2, 3]),
            stack_sequence(tf.float64, [0.25, -1.5]),
            stack_sequence(tf.int64, [[7, 8]]),
            stack_sequence(tf.string, [["a", "bc"], ["d"]]),
            stack_sequence(tf.bool, [True, [False, True]]),
        ],
        "stage_sequence": stage_sequence(),
        "stage_errors": [
            stage_error(k)
            for k in ("unstage_count_mismatch", "over_memory_limit", "peek_index_not_scalar",
                      "unstage_wrong_dtype")
        ],
        "stack_errors": [
            stack_error(k)
            for k in ("pop_empty", "push_wrong_dtype", "push_after_close",
                      "pop_after_close", "pop_wrong_dtype")
        ],
    }
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
