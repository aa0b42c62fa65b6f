"""Gradients of csrc/eager/grad_more3.c that the table of
test_grad_cases.py cannot hold (tests/data/grad_more3_tf221.json, written
by tools/record_grad_more3.py with TF 2.21):

- BlockLSTMV2: TF 2.21 registers its BlockLSTM gradient for it, which runs
  BlockLSTMGrad (gates in i,c,f,o order) on weights laid out i,f,c,o, so
  TF's gradient is not the derivative. tfe runs BlockLSTMGradV2; its tape
  and graph (TF_AddGradients) gradients are checked against TF's
  BlockLSTMGradV2 values (which the recorder checked against central
  differences) and against float32 central differences here;
- BlockLSTM/BlockLSTMV2 with seq_len_max below the number of time steps:
  TF leaves the later outputs uninitialized, so the forward check covers
  the valid steps only (the weights of the others are zero);
- a SparseSlice that keeps nothing (zero gradient for every value);
- CTCLoss's second derivative fails with TF's message (its gradient runs
  through PreventGradient, as TF's).
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import pytest
from test_grad_cases import _compare, _graph_grads, _loss, _tape_grads, _tf_grads

import tfe_py as tf
from tfe_py import ops

_PATH = os.path.join(os.path.dirname(__file__), "..", "data", "grad_more3_tf221.json")
with open(_PATH) as _fh:
    D: dict[str, Any] = json.load(_fh)

_LSTM = {cs["name"]: cs for cs in D["lstm"]}


def _value(cs: dict[str, Any], name: str) -> np.ndarray:
    spec = cs["inputs"][name]
    return np.array(spec["value"], spec["dtype"])


def _tensors(cs: dict[str, Any], over: dict[str, np.ndarray] | None = None) -> dict[Any, Any]:
    return {(n, None): tf.constant((over or {}).get(n, _value(cs, n)), dtype=spec["dtype"])
            for n, spec in cs["inputs"].items()}


@pytest.mark.parametrize("name", sorted(_LSTM))
def test_block_lstm_tape(name: str) -> None:
    cs = _LSTM[name]
    _compare(_tape_grads(cs), _tf_grads(cs), cs, "tape")


@pytest.mark.parametrize("name", sorted(_LSTM))
def test_block_lstm_graph(name: str) -> None:
    cs = _LSTM[name]
    theirs = {k: v for k, v in _tf_grads(cs).items() if v is not None}
    _compare(_graph_grads(cs, list(theirs)), theirs, cs, "graph")


@pytest.mark.parametrize("name", sorted(_LSTM))
def test_block_lstm_forward_valid_steps(name: str) -> None:
    cs = _LSTM[name]
    steps = cs["valid_steps"]
    outs = getattr(ops, cs["op"])(**{n: t for (n, _), t in _tensors(cs).items()}, **cs["attrs"])
    for i, (o, rec) in enumerate(zip(outs, cs["forward"], strict=True)):
        got = np.asarray(o.numpy())
        exp = np.array(rec["value"], np.float32)
        np.testing.assert_allclose(got[:steps], exp[:steps], rtol=2e-5, atol=2e-5,
                                   err_msg=f"output {i}")
        # tfe zeroes the steps past seq_len_max (TF leaves them undefined)
        assert not got[steps:].any()


@pytest.mark.parametrize("name", sorted(_LSTM))
def test_block_lstm_central_differences(name: str) -> None:
    # float32 (TF has no float64 kernel), coarse step
    cs = _LSTM[name]
    mine = _tape_grads(cs)

    def loss(over: dict[str, np.ndarray]) -> float:
        total, _ = _loss(cs, _tensors(cs, over))
        return float(total.numpy())

    eps = 1e-2
    assert len(mine) == 8  # every input but seq_len_max
    for (n, _), g in mine.items():
        assert g is not None
        base = _value(cs, n)
        for idx in np.ndindex(base.shape):
            p, m = base.copy(), base.copy()
            p[idx] += eps
            m[idx] -= eps
            num = (loss({n: p}) - loss({n: m})) / (2 * eps)
            assert g[idx] == pytest.approx(num, rel=2e-2, abs=2e-3), (n, idx)


def test_sparse_slice_keeping_nothing() -> None:
    cs = D["sparse_slice_empty"]
    theirs = _tf_grads(cs)
    assert not np.asarray(theirs[("values", None)]).any()
    _compare(_tape_grads(cs), theirs, cs, "tape")
    _compare(_graph_grads(cs, [("values", None)]), theirs, cs, "graph")
    outs = ops.SparseSlice(**{n: t for (n, _), t in _tensors(cs).items()})
    assert outs[0].shape == (0, 2) and outs[1].shape == (0,)
    np.testing.assert_array_equal(outs[2].numpy(), [1, 4])


def test_ctc_loss_second_derivative_fails_as_in_tf() -> None:
    # TF: 'Gradient explicitly disabled. Reason: b"<reason>"' (the bytes repr
    # of the PreventGradient message); tfe carries the same reason
    tf_msg = D["ctc_second_derivative"]
    head, reason = tf_msg.split('Reason: b"', 1)
    reason = reason[:-1]
    x = tf.constant(np.linspace(-1.0, 1.0, 24).reshape(4, 2, 3))
    kw = {"labels_indices": tf.constant(np.array([[0, 0], [1, 0], [1, 1]], np.int64)),
          "labels_values": tf.constant(np.array([0, 1, 0], np.int32)),
          "sequence_length": tf.constant(np.array([4, 3], np.int32))}
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            loss = ops.Sum(ops.CTCLoss(inputs=x, **kw)[0], tf.constant([0]))
        g = inner.gradient(loss, x)
        assert g is not None
        s = ops.Sum(ops.Mul(g, g), tf.constant([0, 1, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError) as err:
        outer.gradient(s, x)
    assert str(err.value).startswith(head + "Reason: " + reason)
