"""Optimizer update kernels (ResourceApplyMomentum, ResourceApplyKerasMomentum,
ResourceApplyAdam) against TF 2.21's results, their errors, and
tfe_py.optimizers (SGD, momentum, Adam) with GradientTape."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import errors, ops
from tfe_py.optimizers import SGD, Adam

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "training_ops_tf221.json").read_text()
)


def _var(values: list[float], dtype: str) -> tf.Variable:
    return tf.Variable(np.array(values, dtype))


@pytest.mark.parametrize("key", sorted(DATA))
def test_kernels_match_tensorflow(key: str) -> None:
    op, dtype, nesterov = key.split("/")
    case = DATA[key]
    grad = tf.constant(np.array(case["grad"], dtype))
    c = lambda x: tf.constant(np.array(x, dtype))  # noqa: E731
    var = _var(case["var"], dtype)
    if op == "ResourceApplyAdam":
        m, v = _var(case["m"], dtype), _var(case["v"], dtype)
        for step in range(1, 4):
            ops.ResourceApplyAdam(var.handle, m.handle, v.handle, c(0.9**step), c(0.999**step),
                                  c(0.01), c(0.9), c(0.999), c(1e-7), grad,
                                  use_nesterov=nesterov == "True")
        pairs = [(var, "out_var"), (m, "out_m"), (v, "out_v")]
    else:
        acc = _var(case["accum"], dtype)
        for _ in range(3):
            getattr(ops, op)(var.handle, acc.handle, c(0.1), grad, c(0.9),
                             use_nesterov=nesterov == "True")
        pairs = [(var, "out_var"), (acc, "out_accum")]
    for variable, name in pairs:
        want = np.array(case[name], dtype)
        if dtype == "float32":
            np.testing.assert_array_equal(variable.numpy(), want)  # TF's bits
        else:
            np.testing.assert_allclose(variable.numpy(), want, rtol=1e-15)


def test_kernel_errors() -> None:
    var = tf.Variable([1.0, 2.0])
    acc = tf.Variable([0.0, 0.0, 0.0])
    one = tf.constant(1.0)
    with pytest.raises(errors.InvalidArgumentError, match="same shape"):
        ops.ResourceApplyKerasMomentum(var.handle, acc.handle, one, tf.constant([1.0, 1.0]), one)
    with pytest.raises(errors.InvalidArgumentError, match="lr is not a scalar"):
        ops.ResourceApplyMomentum(var.handle, var.handle, tf.constant([1.0]),
                                  tf.constant([1.0, 1.0]), one)
    with pytest.raises(errors.InvalidArgumentError, match="does not match"):
        scalars = [tf.constant(1.0, tf.float64)] * 6
        ops.ResourceApplyAdam(var.handle, var.handle, var.handle, *scalars,
                              tf.constant([1.0, 1.0], tf.float64))
    unset = ops.VarHandleOp(dtype=tf.float32, shape=[2], shared_name="never_assigned_optimizer")
    with pytest.raises(errors.OpError):
        ops.ResourceApplyKerasMomentum(unset, unset, one, tf.constant([1.0, 1.0]), one)


def test_sgd_steps() -> None:
    w = tf.Variable([1.0, -2.0])
    SGD(learning_rate=0.5).apply_gradients([(tf.constant([2.0, 2.0]), w)])
    np.testing.assert_array_equal(w.numpy(), [0.0, -3.0])
    # Keras momentum: velocity = m * velocity - lr * g; w += velocity.
    w = tf.Variable([1.0])
    opt = SGD(learning_rate=0.1, momentum=0.9)
    for _ in range(2):
        opt.apply_gradients([(tf.constant([1.0]), w)])
    np.testing.assert_allclose(w.numpy(), [1.0 - 0.1 - (0.9 * 0.1 + 0.1)], rtol=1e-6)
    assert opt.iterations == 2
    opt.apply_gradients([(None, w)])  # no gradient: untouched
    np.testing.assert_allclose(w.numpy(), [1.0 - 0.1 - (0.9 * 0.1 + 0.1)], rtol=1e-6)
    with pytest.raises(ValueError, match="momentum"):
        SGD(momentum=1.5)
    with pytest.raises(TypeError, match="Variable"):
        SGD().apply_gradients([(tf.constant(1.0), tf.constant(1.0))])


@pytest.mark.parametrize("make", [lambda: SGD(0.1, momentum=0.9, nesterov=True),
                                  lambda: Adam(0.1)])
def test_optimizers_minimize_a_quadratic(make: object) -> None:
    target = np.array([3.0, -1.0, 0.5], np.float32)
    w = tf.Variable(np.zeros(3, np.float32))
    opt = make()  # type: ignore[operator]

    def loss() -> tf.Tensor:
        d = w - target
        return ops.Sum(d * d, [0])

    first = float(loss())
    for _ in range(200):
        opt.minimize(loss, [w])
    assert float(loss()) < 1e-3 * first
    np.testing.assert_allclose(w.numpy(), target, atol=2e-2)
