"""Gradients of the array and nn ops (csrc/eager/grad_array.c, grad_nn.c)
that the table-driven cases of test_grad_cases.py cannot express: ops
without a gradient, PreventGradient's error, raw ops on variable handles,
Gather (v1) and a second derivative."""

from __future__ import annotations

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import ops


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
