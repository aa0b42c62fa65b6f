"""Records TF 2.21's losses and gradients for the programs of
tests/python/grad_more2_programs.py (TensorList and TensorArray concat /
split gradients of csrc/eager/grad_more2.c), the TopKV2 gradient the TopK
(v1) check compares with, and what TF does for the gradients it registers
only to raise. Writes tests/data/grad_more2_programs_tf221.json; run with
/work/tfvenv/bin/python (tests/python/test_grad_more2.py only reads it)."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))

from grad_more2_programs import LIST_INPUTS, TA_INPUTS, list_programs, ta_programs  # noqa: E402

TOPK_X = np.array([[0.5, 2.0, -1.0, 3.5, 1.25], [4.0, -2.0, 0.75, 1.5, 0.0]])
TOPK_W = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.5]])


def lst(v: Any) -> Any:
    return np.asarray(v).tolist()


def case_lists(tf: Any) -> dict[str, Any]:
    out = {}
    for name, (fn, args) in list_programs(tf.raw_ops, tf.constant, tf.float64).items():
        xs = [tf.constant(LIST_INPUTS[a]) for a in args]
        with tf.GradientTape() as t:
            t.watch(xs)
            loss = fn(*xs)
        gs = t.gradient(loss, xs)
        out[name] = {"loss": float(loss), "grads": [lst(g) for g in gs]}
    return out


def case_topk(tf: Any) -> dict[str, Any]:
    """TopK v1 does not run in TF 2.21; its registered gradient is TopKV2's,
    so these are the values for the same input, k and upstream weights."""
    x = tf.constant(TOPK_X)
    with tf.GradientTape() as t:
        t.watch(x)
        v, _ = tf.raw_ops.TopKV2(input=x, k=3)
        loss = tf.reduce_sum(v * tf.constant(TOPK_W))
    return {"values": lst(v), "grad": lst(t.gradient(loss, x))}


def case_raising(tf: Any) -> dict[str, Any]:
    """TF's exception class and message for the gradients it registers only
    to raise."""
    ind = tf.constant([[0, 0], [1, 2]], tf.int64)
    sh = tf.constant([2, 3], tf.int64)
    vals = tf.constant([1.0, 2.0], tf.float64)
    res = {}

    def add(x: Any) -> Any:
        return tf.raw_ops.SparseDenseCwiseAdd(sp_indices=ind, sp_values=x, sp_shape=sh,
                                              dense=tf.constant([1.0, 2.0, 3.0], tf.float64))

    def mx(x: Any) -> Any:
        return tf.raw_ops.SparseSparseMaximum(a_indices=ind, a_values=x, a_shape=sh,
                                              b_indices=ind, b_values=x * 2.0, b_shape=sh)[1]

    def mn(x: Any) -> Any:
        return tf.raw_ops.SparseSparseMinimum(a_indices=ind, a_values=x, a_shape=sh,
                                              b_indices=ind, b_values=x * 2.0, b_shape=sh)[1]

    for name, fn in (("SparseDenseCwiseAdd", add), ("SparseSparseMaximum", mx),
                     ("SparseSparseMinimum", mn)):
        try:
            with tf.GradientTape() as t:
                t.watch(vals)
                loss = tf.reduce_sum(fn(vals))
            t.gradient(loss, vals)
            res[name] = None
        except Exception as e:
            res[name] = {"type": type(e).__name__, "message": str(e)}
    return res


def case_tensor_arrays(tf: Any) -> dict[str, Any]:
    """TF's TensorArray gradients need a TF1 graph (its eager tape cannot
    name a gradient source): run last, it turns control flow v2 off."""
    tf.compat.v1.disable_control_flow_v2()
    out = {}
    for name in ta_programs(tf.raw_ops, tf.constant, tf.float32):
        g = tf.Graph()
        with g.as_default():
            prog = ta_programs(tf.raw_ops, tf.constant, tf.float32)[name]
            xs = [tf.constant(TA_INPUTS["x"]), tf.constant(TA_INPUTS["y"])]
            loss = prog(*xs)
            grads = tf.gradients(loss, xs)
            with tf.compat.v1.Session() as sess:
                lv, gv = sess.run([loss, grads])
        out[name] = {"loss": float(lv), "grads": [lst(v) for v in gv]}
    return out


def main() -> None:
    import tensorflow as tf

    assert tf.__version__.startswith("2.21"), tf.__version__
    data = {
        "tf_version": tf.__version__,
        "lists": case_lists(tf),
        "topk": case_topk(tf),
        "raising": case_raising(tf),
        "tensor_arrays": case_tensor_arrays(tf),
    }
    path = os.path.join(HERE, "..", "tests", "data", "grad_more2_programs_tf221.json")
    with open(path, "w") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")
    print(f"wrote {os.path.normpath(path)}", file=sys.stderr)


if __name__ == "__main__":
    main()
