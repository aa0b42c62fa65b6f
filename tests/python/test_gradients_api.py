"""tf.gradients, tf.hessians, tf.grad_pass_through and tf.no_gradient
(tfe_py/gradients_api.py): graph-mode gradients through TF_AddGradients,
inside a tfe_py.Graph and inside @tfe_py.function."""

from __future__ import annotations

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import ops


def test_eager_mode_refuses_like_tf() -> None:
    with pytest.raises(RuntimeError, match=r"Use tf\.GradientTape instead"):
        tf.gradients(tf.constant(1.0), tf.constant(2.0))


def test_gradients_in_a_function() -> None:
    @tf.function
    def f(x: tf.Tensor, y: tf.Tensor) -> list[tf.Tensor]:
        z = tf.reduce_sum(x * x * y)
        return tf.gradients(z, [x, y])

    x = np.array([1.0, -2.0, 3.0], np.float32)
    y = np.array([0.5, 2.0, -1.0], np.float32)
    gx, gy = f(tf.constant(x), tf.constant(y))
    np.testing.assert_allclose(gx.numpy(), 2 * x * y)
    np.testing.assert_allclose(gy.numpy(), x * x)


def test_grad_ys_and_unconnected() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.constant([1.0, 2.0])
        w = tf.constant([3.0, 4.0])
        y = x * w
        (gx, gw) = tf.gradients(y, [x, w], grad_ys=tf.constant([10.0, 100.0]))
        (none_grad,) = tf.gradients(y, [tf.constant(1.0)])
        (zero_grad,) = tf.gradients(y, [tf.constant([5.0, 5.0, 5.0])],
                                    unconnected_gradients="zero")
        with tf.Session(graph=g) as sess:
            got = sess.run([gx, gw, zero_grad])
    np.testing.assert_allclose(got[0], [30.0, 400.0])
    np.testing.assert_allclose(got[1], [10.0, 200.0])
    assert none_grad is None
    np.testing.assert_array_equal(got[2], [0.0, 0.0, 0.0])


def test_hessians() -> None:
    @tf.function
    def h(x: tf.Tensor) -> tf.Tensor:
        y = tf.reduce_sum(x * x * x) + x[0] * x[1]
        return tf.hessians(y, x)[0]

    x = np.array([1.0, 2.0, -1.0])
    got = h(tf.constant(x)).numpy()
    want = np.diag(6 * x)
    want[0, 1] = want[1, 0] = 1.0
    np.testing.assert_allclose(got, want)


def test_grad_pass_through() -> None:
    x = tf.constant([1.4, -2.6])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.grad_pass_through(tf.round)(x) * tf.constant([2.0, 3.0])
    np.testing.assert_allclose(y.numpy(), [2.0, -9.0])
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 3.0])


def test_no_gradient() -> None:
    with pytest.raises(TypeError):
        tf.no_gradient(3)  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="Registering two gradient"):
        tf.no_gradient("Mul")
    tf.no_gradient("TfePyTestNoGradientOp")
    from tfe_py._ffi import lib

    assert lib.TFE_GradientRegistryLookup(b"TfePyTestNoGradientOp") == 2


def test_register_gradient_is_not_available() -> None:
    with pytest.raises(NotImplementedError, match="TFE_RegisterGradient"):
        tf.RegisterGradient("MyOp")


def test_gradients_in_a_session_graph_match_the_tape() -> None:
    xv = np.array([[0.3, -1.2], [2.0, 0.7]])
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(xv)
        y = tf.reduce_sum(tf.tanh(ops.MatMul(a=x, b=x)))
        (gx,) = tf.gradients(y, x)
        with tf.Session(graph=g) as sess:
            graph_grad = sess.run(gx)
    xe = tf.constant(xv)
    with tf.GradientTape() as tape:
        tape.watch(xe)
        ye = tf.reduce_sum(tf.tanh(ops.MatMul(a=xe, b=xe)))
    np.testing.assert_allclose(graph_grad, tape.gradient(ye, xe).numpy(), rtol=1e-12)


def test_variables_as_operands_inside_a_function() -> None:
    """`x * v`, `v * x` and `v + 1.0` with a Variable inside @tfe_py.function
    read the variable in the traced graph (as TF does), and gradients with
    respect to the variable flow through them."""
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def f(x: tf.Tensor) -> tf.Tensor:
        return x * v + v * x + (v + 1.0)

    x = tf.constant([3.0, 4.0])
    np.testing.assert_allclose(f(x).numpy(), [8.0, 19.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(f(x))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [7.0, 9.0])
