"""tf.autodiff.ForwardAccumulator on the C core's forward mode
(include/tfe/forward.h): values against closed forms and TF 2.21's,
nesting with other accumulators and with GradientTape (Hessian-vector
products both ways), variables, and TF's rules and errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tfe_py as tf

# TF 2.21: f(x) = sum(tanh(x) * x * x) at x = [1, 2], v = [1, 0.5], float32;
# H v by forward over reverse and by reverse over forward (same values).
TF_HVP = [2.5633857, 0.9741936]


def _f(x: tf.Tensor) -> tf.Tensor:
    return tf.reduce_sum(tf.tanh(x) * x * x)


def test_elementwise_matmul_reduction_reshape_closed_forms() -> None:
    rng = np.random.default_rng(5)
    xv, wv, tv = rng.standard_normal((2, 3)), rng.standard_normal((3, 4)), \
        rng.standard_normal((2, 3))
    x, w = tf.constant(xv), tf.constant(wv)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(tv)) as acc:
        th = tf.tanh(x)
        m = tf.matmul(x, w)
        r = tf.reshape(tf.nn.relu(m), [4, 2])
        s = tf.reduce_sum(tf.exp(m), axis=1)
        mean = tf.reduce_mean(tf.sigmoid(x))
    np.testing.assert_allclose(acc.jvp(th).numpy(), (1 - np.tanh(xv) ** 2) * tv, rtol=1e-12)
    dm = tv @ wv
    np.testing.assert_allclose(acc.jvp(m).numpy(), dm, rtol=1e-12)
    mv = xv @ wv
    np.testing.assert_allclose(acc.jvp(r).numpy(), ((mv > 0) * dm).reshape(4, 2),
                               rtol=1e-12)
    np.testing.assert_allclose(acc.jvp(s).numpy(), (np.exp(mv) * dm).sum(1), rtol=1e-12)
    sg = 1 / (1 + np.exp(-xv))
    np.testing.assert_allclose(acc.jvp(mean).numpy(), (sg * (1 - sg) * tv).mean(),
                               rtol=1e-12)


def test_through_the_registry_double_vjp() -> None:
    # Maximum and Prod have no forward rule: their gradients serve.
    x = tf.constant([1.0, -2.0, 3.0], tf.float64)
    y = tf.constant([0.5, 0.5, 4.0], tf.float64)
    t = tf.constant([1.0, 2.0, 3.0], tf.float64)
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        m = tf.maximum(x, y)
        p = tf.reduce_prod(x)
    np.testing.assert_allclose(acc.jvp(m).numpy(), [1.0, 0.0, 0.0])
    np.testing.assert_allclose(acc.jvp(p).numpy(), -6.0 * (1 / 1 + 2 / -2 + 3 / 3))


def test_forward_over_reverse_hvp_matches_tf() -> None:
    x = tf.constant([1.0, 2.0])
    v = tf.constant([1.0, 0.5])
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = _f(x)
        g = tape.gradient(y, x)
    np.testing.assert_allclose(acc.jvp(g).numpy(), TF_HVP, rtol=1e-5)


def test_reverse_over_forward_hvp_matches_tf() -> None:
    x = tf.constant([1.0, 2.0])
    v = tf.constant([1.0, 0.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, v) as acc:
            y = _f(x)
        j = acc.jvp(y)
    np.testing.assert_allclose(tape.gradient(j, x).numpy(), TF_HVP, rtol=1e-5)


def test_nested_accumulators() -> None:
    x = tf.constant([1.5, -0.5], tf.float64)
    v1 = tf.constant([1.0, 2.0], tf.float64)
    v2 = tf.constant([3.0, -1.0], tf.float64)
    with tf.autodiff.ForwardAccumulator(x, v1) as outer:
        with tf.autodiff.ForwardAccumulator(x, v2) as inner:
            y = x * x * x
        j = inner.jvp(y)
    xv = x.numpy()
    np.testing.assert_allclose(j.numpy(), 3 * xv**2 * v2.numpy())
    np.testing.assert_allclose(outer.jvp(j).numpy(), 6 * xv * v1.numpy() * v2.numpy())
    # The inner accumulator does not see the outer one's tangent ops (TF).
    assert inner.jvp(outer.jvp(y)) is None


def test_variables_and_structures() -> None:
    v = tf.Variable([1.0, 2.0])
    u = tf.constant([3.0])
    with tf.autodiff.ForwardAccumulator({"v": v, "u": u},
                                        {"v": tf.constant([1.0, 1.0]),
                                         "u": tf.constant([2.0])}) as acc:
        w = v * v + u
    out = acc.jvp({"w": w, "rest": [u]})
    np.testing.assert_allclose(out["w"].numpy(), [4.0, 6.0])
    np.testing.assert_allclose(out["rest"][0].numpy(), [2.0])


def test_reenter_and_recording_rules() -> None:
    x = tf.constant([1.0, 2.0])
    acc = tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0]))
    with acc:
        a = x * 3.0
        with pytest.raises(ValueError, match="already recording"):
            acc.__enter__()
    b = x * 4.0  # outside the block: no tangent
    with acc:
        c = x * 5.0
    np.testing.assert_allclose(acc.jvp(a).numpy(), [3.0, 3.0])
    assert acc.jvp(b) is None
    np.testing.assert_allclose(acc.jvp(c).numpy(), [5.0, 5.0])
    np.testing.assert_allclose(acc.jvp(b, unconnected_gradients="zero").numpy(), [0.0, 0.0])


def test_op_without_gradient_fails_when_it_runs() -> None:
    x = tf.constant([3.0, 5.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])):
        with pytest.raises(tf.errors.UnimplementedError, match="Mod"):
            tf.raw_ops.Mod(x=x, y=tf.constant([2.0, 2.0]))
    # Without a tangent on its inputs, the same op runs.
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])):
        r = tf.raw_ops.Mod(x=tf.constant([3.0]), y=tf.constant([2.0]))
    np.testing.assert_allclose(r.numpy(), [1.0])


def test_through_a_function() -> None:
    # A call of a tf.function goes through the function's gradient.
    @tf.function
    def f(a: tf.Tensor) -> tf.Tensor:
        return tf.exp(a) * a

    x = tf.constant([0.5, -1.0], tf.float64)
    t = tf.constant([1.0, 2.0], tf.float64)
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = f(x)
    xv = x.numpy()
    np.testing.assert_allclose(acc.jvp(y).numpy(), t.numpy() * np.exp(xv) * (1 + xv),
                               rtol=1e-12)


def test_jvp_through_custom_gradient_differentiates_the_forward() -> None:
    # TF 2.21's ForwardAccumulator differentiates the ops custom_gradient's
    # f runs (the custom gradient serves reverse mode only): cos(x) * t for
    # a sin whose grad_fn claims 3x (TF printed [0.8776, 1.0806, 0.4161]
    # for these inputs), while a tape still gets grad_fn's value.
    @tf.custom_gradient
    def f(x: Any) -> Any:
        y = tf.sin(x)

        def grad(dy: Any) -> Any:
            return dy * 3.0 * x

        return y, grad

    xv = np.array([0.5, 1.0, 2.0])
    tv = np.array([1.0, 2.0, -1.0])
    x = tf.constant(xv)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, tf.constant(tv)) as acc:
            y = f(x)
            w = y * 2.0
        loss = tf.reduce_sum(w)
    np.testing.assert_allclose(acc.jvp(y).numpy(), np.cos(xv) * tv, rtol=1e-12)
    np.testing.assert_allclose(acc.jvp(w).numpy(), 2 * np.cos(xv) * tv, rtol=1e-12)
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), 6.0 * xv, rtol=1e-12)
