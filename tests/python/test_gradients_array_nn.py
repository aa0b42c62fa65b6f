"""Gradients of the array, nn and extra math ops (csrc/eager/grad_array.c,
grad_nn.c): the values TF 2.21 gives for the same cases
(tests/data/gradients_tf221.json, written by tools/record_gradients.py), and
float64 central differences of the same loss."""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import ops

_DATA = os.path.join(os.path.dirname(__file__), "..", "data", "gradients_tf221.json")
with open(_DATA) as _f:
    _CASES: list[dict[str, Any]] = json.load(_f)["cases"]


# TF's Python raw-op wrappers rename a few arguments of the op definitions,
# which tfe_py.ops keeps.
_RENAME = {
    "Max": {"axis": "reduction_indices"},
    "Min": {"axis": "reduction_indices"},
    "Prod": {"axis": "reduction_indices"},
    "Select": {"x": "t", "y": "e"},
    "Split": {"axis": "split_dim"},
    "SplitV": {"axis": "split_dim"},
}


def _inputs(cs: dict[str, Any], override: dict[tuple[str, int | None], np.ndarray] | None = None
            ) -> tuple[dict[str, Any], list[tuple[str, int | None, Any]]]:
    """The op's keyword arguments and the watched tensors (name, list
    position, tensor); `override` replaces the values of watched inputs."""
    kwargs: dict[str, Any] = dict(cs["attrs"])
    watched: list[tuple[str, int | None, Any]] = []
    override = override or {}
    for name, spec in cs["inputs"].items():
        if spec.get("list"):
            vals = []
            for i, v in enumerate(spec["value"]):
                a = override.get((name, i), np.array(v, spec["dtype"]))
                vals.append(tf.constant(a))
            kwargs[name] = vals
            watched += [(name, i, t) for i, t in enumerate(vals)]
        else:
            a = override.get((name, None), np.array(spec["value"], spec["dtype"]))
            t = tf.constant(a)
            kwargs[name] = t
            if spec["diff"]:
                watched.append((name, None, t))
    return kwargs, watched


def _loss(cs: dict[str, Any], kwargs: dict[str, Any]) -> Any:
    ren = _RENAME.get(cs["op"], {})
    out = getattr(ops, cs["op"])(**{ren.get(k, k): v for k, v in kwargs.items()})
    outs = out if isinstance(out, (list, tuple)) else [out]
    total = None
    for k, w in zip(cs["outputs"], cs["weights"], strict=True):
        o = outs[k]
        wt = tf.constant(np.array(w, o.numpy().dtype))
        s = ops.Sum(ops.Mul(o, wt), tf.constant(np.arange(len(o.shape), dtype=np.int32)))
        total = s if total is None else ops.AddV2(total, s)
    return total


def _tape_grads(cs: dict[str, Any]) -> dict[tuple[str, int | None], np.ndarray | None]:
    kwargs, watched = _inputs(cs)
    with tf.GradientTape() as tape:
        tape.watch([w[2] for w in watched])
        loss = _loss(cs, kwargs)
    grads = tape.gradient(loss, [w[2] for w in watched])
    pairs = zip(watched, grads, strict=True)
    return {(n, i): (None if g is None else g.numpy()) for (n, i, _), g in pairs}


def _tf_grads(cs: dict[str, Any]) -> dict[tuple[str, int | None], Any]:
    res: dict[tuple[str, int | None], Any] = {}
    for name, g in cs["grads"].items():
        if cs["inputs"][name].get("list"):
            for i, gi in enumerate(g):
                res[(name, i)] = gi
        else:
            res[(name, None)] = g
    return res


@pytest.mark.parametrize("cs", _CASES, ids=[c["name"] for c in _CASES])
def test_matches_tf(cs: dict[str, Any]) -> None:
    mine = _tape_grads(cs)
    theirs = _tf_grads(cs)
    assert set(mine) == set(theirs)
    f32 = any(spec["dtype"] == "float32" for spec in cs["inputs"].values() if spec["diff"])
    tol = 2e-6 if f32 else 1e-12
    for key, expected in theirs.items():
        got = mine[key]
        if expected is None:
            assert got is None, key
            continue
        assert got is not None, f"{key} got no gradient"
        exp = np.array(expected, got.dtype)
        assert got.shape == exp.shape, key
        np.testing.assert_allclose(got, exp, rtol=tol, atol=tol, err_msg=str(key))


_NUMERIC = [c for c in _CASES if c["numeric"]]


@pytest.mark.parametrize("cs", _NUMERIC, ids=[c["name"] for c in _NUMERIC])
def test_central_differences(cs: dict[str, Any]) -> None:
    mine = _tape_grads(cs)
    base: dict[tuple[str, int | None], np.ndarray] = {}
    for name, spec in cs["inputs"].items():
        if spec.get("list"):
            for i, v in enumerate(spec["value"]):
                base[(name, i)] = np.array(v, spec["dtype"])
        elif spec["diff"]:
            base[(name, None)] = np.array(spec["value"], spec["dtype"])
    f32 = any(a.dtype == np.float32 for a in base.values())
    eps, rtol, atol = (1e-2, 2e-2, 2e-3) if f32 else (1e-6, 1e-5, 1e-6)

    def value(over: dict[tuple[str, int | None], np.ndarray]) -> float:
        kwargs, _ = _inputs(cs, over)
        return float(_loss(cs, kwargs).numpy())

    for key, a in base.items():
        g = mine[key]
        assert g is not None, f"{key} got no gradient"
        for idx in np.ndindex(a.shape):
            plus, minus = a.copy(), a.copy()
            plus[idx] += eps
            minus[idx] -= eps
            num = (value({**base, key: plus}) - value({**base, key: minus})) / (2 * eps)
            assert g[idx] == pytest.approx(num, rel=rtol, abs=atol), (key, idx)


def test_snapshot_has_no_gradient_as_in_tf() -> None:
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = ops.Snapshot(x)
    with pytest.raises(LookupError):
        tape.gradient(y, x)


def test_prevent_gradient_is_an_error() -> None:
    # TF raises LookupError with this message; tfe's tape reports the
    # gradient function's INVALID_ARGUMENT status.
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = ops.PreventGradient(x, message="no way")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Gradient explicitly disabled\. Reason: no way"):
        tape.gradient(y, x)


def test_where_and_one_hot_stop_gradients() -> None:
    x = tf.constant([1.0, 0.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        w = ops.Where(x)
    assert tape.gradient(w, x) is None


def test_resource_gather_dense_gradient_to_the_variable() -> None:
    init = np.arange(12.0).reshape(4, 3)
    v = tf.Variable(init)
    idx = np.array([[3, 0], [3, 1]], np.int32)
    w = np.linspace(-1.0, 1.0, 12).reshape(2, 2, 3)
    with tf.GradientTape() as tape:
        # a raw op on the handle is no variable read: watched by hand, as in TF
        tape.watch(v)
        gathered = ops.ResourceGather(v.handle, tf.constant(idx), dtype=tf.float64)
        loss = ops.Sum(ops.Mul(gathered, tf.constant(w)), tf.constant([0, 1, 2]))
    (g,) = tape.gradient(loss, [v])
    expected = np.zeros_like(init)
    np.add.at(expected, idx.ravel(), w.reshape(4, 3))
    np.testing.assert_allclose(g.numpy(), expected, rtol=0, atol=1e-15)


def test_gather_v1_gradient() -> None:
    params = tf.constant(np.arange(6.0).reshape(3, 2))
    with tf.GradientTape() as tape:
        tape.watch(params)
        out = ops.Gather(params, tf.constant([2, 2, 0]))
        loss = ops.Sum(out, tf.constant([0, 1]))
    g = tape.gradient(loss, params)
    np.testing.assert_array_equal(g.numpy(), [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]])


def test_second_derivative_of_sigmoid() -> None:
    xv = np.array([-1.2, 0.3, 0.9])
    x = tf.constant(xv)
    for op, second in (
        (ops.Sigmoid, lambda t: (s := 1 / (1 + np.exp(-t))) * (1 - s) * (1 - 2 * s)),
    ):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = op(x)
            dx = inner.gradient(y, x)
        d2 = outer.gradient(dx, x)
        np.testing.assert_allclose(d2.numpy(), second(xv), rtol=1e-12, atol=1e-14)
