"""Gradients of csrc/eager/grad_more.c that the recorded cases
(tests/data/grad_cases/more.json) cannot cover: DebugGradientIdentity
(TF's gradient function fails in eager mode), the not-differentiable ops,
and Igamma/Igammac while the library lacks IgammaGradA's kernel."""

from __future__ import annotations

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import ops
from tfe_py._ffi import lib


def test_debug_gradient_identity_passes_the_gradient() -> None:
    x = tf.constant(np.array([[0.5, -1.0], [2.0, 3.0]]))
    w = np.array([[1.5, -2.0], [0.25, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = ops.DebugGradientIdentity(x)
        loss = ops.Sum(ops.Mul(y, tf.constant(w)), tf.constant([0, 1]))
    np.testing.assert_array_equal(tape.gradient(loss, x).numpy(), w)


# A sample of the ops TF 2.21 marks NotDifferentiable (grad_more.c marks all).
_NOT_DIFFERENTIABLE = [
    "Assign", "AssignAdd", "BitwiseAnd", "BitwiseXor", "Range", "LinSpace", "Invert",
    "StatelessRandomNormal", "StatelessRandomUniformV2", "StatelessTruncatedNormal",
    "LookupTableFindV2", "QueueDequeue", "StringToNumber", "AsString", "Const",
    "TensorArrayV3", "TensorListLength", "VarIsInitializedOp", "Multinomial",
]


@pytest.mark.parametrize("op", _NOT_DIFFERENTIABLE)
def test_marked_not_differentiable(op: str) -> None:
    assert lib.TFE_GradientRegistryLookup(op.encode()) == 2


def test_gradients_stop_at_linspace_as_in_tf() -> None:
    a = tf.constant(np.float64(1.0))
    b = tf.constant(np.float64(2.0))
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = ops.LinSpace(a, b, tf.constant(4))
    assert tape.gradient(y, [a, b]) == [None, None]


def test_stateless_random_normal_stops_gradients() -> None:
    seed = tf.constant(np.array([1, 2], np.int64))
    x = tf.constant(np.float32(2.0))
    with tf.GradientTape() as tape:
        tape.watch(x)
        r = ops.StatelessRandomNormal(tf.constant([3]), seed, dtype=tf.float32)
        y = ops.Mul(r, x)
    g = tape.gradient(y, x)
    np.testing.assert_allclose(g.numpy(), np.sum(r.numpy()), rtol=1e-6)


def test_igamma_without_igamma_grad_a() -> None:
    # grad_more.c registers Igamma's gradient only with IgammaGradA's kernel
    # (its gradient with respect to a); until then there is none at all.
    if lib.TFE_GradientRegistryLookup(b"Igamma") == 1:
        pytest.skip("IgammaGradA is available: the gradient is registered")
    a = tf.constant(np.array([0.5, 1.5]))
    x = tf.constant(np.array([0.7, 2.0]))
    with tf.GradientTape() as tape:
        tape.watch([a, x])
        y = ops.Igamma(a, x)
    with pytest.raises(LookupError, match="Igamma"):
        tape.gradient(y, [a, x])


# TF 2.21's messages (its gradient formats the message attr as Python bytes).
_CHECK_NUMERICS = [
    (ops.CheckNumerics, "it's\n", np.inf,
     "Not a number (NaN) or infinity (Inf) values detected in gradient. "
     "b\"it's\\n\" : Tensor had Inf values"),
    (ops.CheckNumericsV2, "v2", np.inf,
     "Not a number (NaN) or infinity (Inf) values detected in gradient. "
     "b'v2' : Tensor had +Inf values"),
    (ops.CheckNumerics, "mine", np.nan,
     "Not a number (NaN) or infinity (Inf) values detected in gradient. "
     "b'mine' : Tensor had NaN values"),
]


@pytest.mark.parametrize(("op", "message", "bad", "expected"), _CHECK_NUMERICS)
def test_check_numerics_checks_the_gradient(op: object, message: str, bad: float,
                                            expected: str) -> None:
    x = tf.constant(np.array([1.0, 2.0]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = op(x, message=message)  # type: ignore[operator]
    with pytest.raises(tf.errors.InvalidArgumentError) as err:
        tape.gradient(y, x, output_gradients=tf.constant(np.array([bad, 1.0])))
    assert expected in str(err.value)
