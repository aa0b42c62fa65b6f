"""Gradients of csrc/eager/grad_more2.c that the table of
test_grad_cases.py cannot hold (tests/data/grad_more2_programs_tf221.json,
written by tools/record_grad_more2_programs.py with TF 2.21):

- TensorListConcat/ConcatV2/Split and TensorArrayConcatV3/SplitV3 take or
  return variant lists / resource arrays: checked through small programs
  (grad_more2_programs.py) whose losses and input gradients equal TF's,
  on the eager tape and through TF_AddGradients in a graph;
- SparseDenseCwiseAdd, SparseSparseMaximum and SparseSparseMinimum: TF
  registers gradients that only raise; tfe's fail with TF_UNIMPLEMENTED;
- TopK (v1): TF 2.21's kernel refuses to run (as tfe's), so the gradient
  is checked in a graph (TF_AddGradients) with TopK's outputs fed, against
  TF's TopKV2 gradient for the same values (TF registers one function for
  both).
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import pytest
from grad_more2_programs import LIST_INPUTS, TA_INPUTS, list_programs, ta_programs

import tfe_py as tf
from tfe_py import ops
from tfe_py._ffi import ffi, lib
from tfe_py.errors import check, status
from tfe_py.graph import GraphTensor

_PATH = os.path.join(os.path.dirname(__file__), "..", "data", "grad_more2_programs_tf221.json")
with open(_PATH) as _fh:
    D: dict[str, Any] = json.load(_fh)

_LISTS = list_programs(ops, tf.constant, tf.float64, "reduction_indices")
_TAS = ta_programs(ops, tf.constant, tf.float32, "reduction_indices")


@pytest.mark.parametrize("name", sorted(D["lists"]))
def test_tensor_list_concat_split(name: str) -> None:
    fn, args = _LISTS[name]
    xs = [tf.constant(LIST_INPUTS[a]) for a in args]
    with tf.GradientTape() as t:
        t.watch(xs)
        loss = fn(*xs)
    grads = t.gradient(loss, xs)
    want = D["lists"][name]
    np.testing.assert_allclose(float(loss.numpy()), want["loss"], rtol=1e-12)
    for g, w in zip(grads, want["grads"], strict=True):
        assert g is not None
        np.testing.assert_allclose(g.numpy(), w, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", sorted(D["tensor_arrays"]))
def test_tensor_array_concat_split(name: str) -> None:
    prog = _TAS[name]
    xs = [tf.constant(TA_INPUTS["x"]), tf.constant(TA_INPUTS["y"])]
    with tf.GradientTape() as t:
        t.watch(xs)
        loss = prog(*xs)
    grads = t.gradient(loss, xs)
    want = D["tensor_arrays"][name]
    np.testing.assert_allclose(float(loss.numpy()), want["loss"], rtol=1e-6)
    for g, w in zip(grads, want["grads"], strict=True):
        assert g is not None
        np.testing.assert_allclose(g.numpy(), w, rtol=1e-6, atol=1e-7)


def _raising_loss(op: str, x: Any) -> Any:
    ind = tf.constant(np.array([[0, 0], [1, 2]], np.int64))
    sh = tf.constant(np.array([2, 3], np.int64))
    if op == "SparseDenseCwiseAdd":
        out = ops.SparseDenseCwiseAdd(sp_indices=ind, sp_values=x, sp_shape=sh,
                                      dense=tf.constant(np.array([1.0, 2.0, 3.0])))
    else:
        out = getattr(ops, op)(a_indices=ind, a_values=x, a_shape=sh, b_indices=ind,
                               b_values=ops.Mul(x=x, y=tf.constant(2.0, dtype="float64")),
                               b_shape=sh)[1]
    return ops.Sum(out, tf.constant(np.array([0], np.int32)))


@pytest.mark.parametrize("op", sorted(D["raising"]))
def test_gradients_tf_only_raises_from(op: str) -> None:
    # TF raises NotImplementedError("Gradient for <op> is not implemented.")
    # (for the two SparseSparse ops its function's signature even fails
    # first, with a TypeError); tfe reports TF_UNIMPLEMENTED with that text
    assert D["raising"][op] is not None
    x = tf.constant(np.array([1.0, 2.0]))
    with tf.GradientTape() as t:
        t.watch(x)
        loss = _raising_loss(op, x)
    with pytest.raises(tf.errors.UnimplementedError,
                       match=f"Gradient for {op} is not implemented."):
        t.gradient(loss, x)


def test_top_k_v1_gradient_in_a_graph() -> None:
    x_val = np.array([[0.5, 2.0, -1.0, 3.5, 1.25], [4.0, -2.0, 0.75, 1.5, 0.0]])
    want = D["topk"]
    with tf.Graph() as g:
        # TopK was removed at GraphDef version 7: only a graph produced
        # before then can hold it (an empty GraphDef of version 6 lowers the
        # graph's producer)
        old = b"\x22\x02\x08\x06"
        buf = lib.TF_NewBufferFromString(old, len(old))
        opts = lib.TF_NewImportGraphDefOptions()
        with status() as s:
            lib.TF_GraphImportGraphDef(g.ptr, buf, opts, s)
            check(s)
        lib.TF_DeleteImportGraphDefOptions(opts)
        lib.TF_DeleteBuffer(buf)
        x = tf.placeholder("float64", shape=x_val.shape)
        v, i = ops.TopK(input=x, k=3)
        w = tf.constant(np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.5]]))
        loss = ops.Sum(ops.Mul(v, w), tf.constant(np.array([0, 1], np.int32)))
        ys = ffi.new("TF_Output[]", 1)
        ys[0].oper = loss.op._ptr
        ys[0].index = loss.value_index
        xs = ffi.new("TF_Output[]", 1)
        xs[0].oper = x.op._ptr
        xs[0].index = x.value_index
        dxs = ffi.new("TF_Output[]", 1)
        with status() as s:
            lib.TF_AddGradients(g.ptr, ys, 1, xs, 1, ffi.NULL, s, dxs)
            check(s)
        dx = GraphTensor(g._wrap_op(dxs[0].oper), dxs[0].index)
    sess = tf.Session(graph=g)
    try:
        # TopK's own kernel refuses to run (TF 2.21's does too): feed its
        # outputs with TopKV2's values for the same input
        idx = np.argsort(-x_val, axis=1)[:, :3].astype(np.int32)
        got = sess.run(dx, feed_dict={x: x_val, v: np.asarray(want["values"]), i: idx})
    finally:
        sess.close()
    np.testing.assert_allclose(np.asarray(got), want["grad"], rtol=1e-12)


def _graph_gradients(make: Any, inputs: list[np.ndarray], dtype: str) -> list[np.ndarray]:
    """TF_AddGradients of the loss of the program make() builds (in the
    graph, constants included) with respect to its inputs (fed through
    placeholders), run in a session."""
    with tf.Graph() as g:
        phs = [tf.placeholder(dtype, shape=a.shape) for a in inputs]
        loss = make()(*phs)
        n = len(phs)
        ys = ffi.new("TF_Output[]", 1)
        ys[0].oper = loss.op._ptr
        ys[0].index = loss.value_index
        xs = ffi.new("TF_Output[]", n)
        for k, ph in enumerate(phs):
            xs[k].oper = ph.op._ptr
            xs[k].index = ph.value_index
        dxs = ffi.new("TF_Output[]", n)
        with status() as s:
            lib.TF_AddGradients(g.ptr, ys, 1, xs, n, ffi.NULL, s, dxs)
            check(s)
        fetch = [GraphTensor(g._wrap_op(dxs[k].oper), dxs[k].index) for k in range(n)]
    sess = tf.Session(graph=g)
    try:
        got = sess.run(fetch, feed_dict=dict(zip(phs, inputs, strict=True)))
    finally:
        sess.close()
    return [np.asarray(v) for v in got]


@pytest.mark.parametrize("name", sorted(D["lists"]))
def test_tensor_list_concat_split_in_a_graph(name: str) -> None:
    args = _LISTS[name][1]
    got = _graph_gradients(
        lambda: list_programs(ops, tf.constant, tf.float64, "reduction_indices")[name][0],
        [LIST_INPUTS[a] for a in args], "float64")
    for g, w in zip(got, D["lists"][name]["grads"], strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", sorted(D["tensor_arrays"]))
def test_tensor_array_concat_split_in_a_graph(name: str) -> None:
    got = _graph_gradients(
        lambda: ta_programs(ops, tf.constant, tf.float32, "reduction_indices")[name],
        [TA_INPUTS["x"], TA_INPUTS["y"]], "float32")
    for g, w in zip(got, D["tensor_arrays"][name]["grads"], strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-7)
