"""tfe_py.GradientTape and tfe_py.Variable on the C tape (issue 17, first
part): values against analytic derivatives and central differences, tape
modes and TF's errors, and variables as TF's eager resource variables."""

from __future__ import annotations

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import ops


def test_scalar_polynomial() -> None:
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x * x + 2.0 * x
    assert float(tape.gradient(y, x)) == 29.0  # 3x^2 + 2


def test_broadcasting_against_central_differences() -> None:
    rng = np.random.default_rng(0)
    xv = rng.standard_normal((2, 3))
    yv = rng.standard_normal(3) + 2.0

    def f(xa: np.ndarray, ya: np.ndarray) -> tf.Tensor:
        x, y = tf.constant(xa), tf.constant(ya)
        return ops.Sum(ops.Tanh(x * y) + ops.Exp(x) / y - x, [0, 1])

    x, y = tf.constant(xv), tf.constant(yv)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = ops.Sum(ops.Tanh(x * y) + ops.Exp(x) / y - x, [0, 1])
    gx, gy = tape.gradient(z, [x, y])
    assert gx.shape == (2, 3) and gy.shape == (3,)
    eps = 1e-6
    for arr, grad, which in ((xv, gx.numpy(), 0), (yv, gy.numpy(), 1)):
        for idx in np.ndindex(arr.shape):
            plus, minus = arr.copy(), arr.copy()
            plus[idx] += eps
            minus[idx] -= eps
            if which == 0:
                num = (float(f(plus, yv)) - float(f(minus, yv))) / (2 * eps)
            else:
                num = (float(f(xv, plus)) - float(f(xv, minus))) / (2 * eps)
            assert grad[idx] == pytest.approx(num, rel=1e-5, abs=1e-6)


def test_variables_are_watched_when_read() -> None:
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    w = tf.Variable(np.ones((2, 1), np.float32))
    with tf.GradientTape() as tape:
        loss = ops.Sum(ops.Square(ops.MatMul(v, w)), [0, 1])
    assert float(loss) == 58.0
    gv, gw = tape.gradient(loss, [v, w])
    np.testing.assert_allclose(gv.numpy(), [[6, 6], [14, 14]])
    np.testing.assert_allclose(gw.numpy(), [[48], [68]])
    assert [x.name for x in tape.watched_variables()] == ["Variable:0", "Variable:0"]


def test_not_watching_accessed_variables() -> None:
    v = tf.Variable(2.0)
    frozen = tf.Variable(5.0, trainable=False)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = v * v
    assert tape.gradient(y, v) is None
    with tf.GradientTape() as tape:
        y = v * frozen
    gv, gf = tape.gradient(y, [v, frozen])
    assert float(gv) == 5.0 and gf is None


def test_persistent_and_non_persistent() -> None:
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * x
    assert float(tape.gradient(y, x)) == 4.0
    assert float(tape.gradient(z, x)) == 12.0
    with tf.GradientTape() as once:
        once.watch(x)
        y = x * x
    once.gradient(y, x)
    with pytest.raises(RuntimeError, match="non-persistent GradientTape can only be used"):
        once.gradient(y, x)


def test_second_derivative_with_nested_tapes() -> None:
    x = tf.constant(1.5)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    assert float(dy) == pytest.approx(3 * 1.5**2)
    assert float(d2y) == pytest.approx(6 * 1.5)


def test_stop_recording_reset_and_unconnected() -> None:
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        with tape.stop_recording():
            hidden = x * x
        seen = x * 3.0
    assert tape.gradient(hidden, x) is None
    assert float(tape.gradient(hidden, x, unconnected_gradients="zero")) == 0.0
    assert float(
        tape.gradient(hidden, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    ) == 0.0
    assert float(tape.gradient(seen, x)) == 3.0
    with tf.GradientTape() as tape2:
        tape2.watch(x)
        y = x * x
        tape2.reset()
        tape2.watch(x)
        w = y + x * 5.0  # y was recorded before the reset: only 5x counts
    assert float(tape2.gradient(w, x)) == 5.0
    with tf.GradientTape() as tape3:
        tape3.watch(x)
        y = x * x
        tape3.reset()
    assert tape3.gradient(y, x) is None


def test_output_gradients_structures_and_integers() -> None:
    a, b = tf.constant(1.0), tf.constant(2.0)
    n = tf.constant(3)
    with tf.GradientTape() as tape:
        tape.watch({"a": a, "b": b})
        tape.watch(n)  # integers are not watched, as in TF
        y = a * b
    grads = tape.gradient(y, {"a": a, "b": b, "n": n}, output_gradients=tf.constant(10.0))
    assert float(grads["a"]) == 20.0 and float(grads["b"]) == 10.0 and grads["n"] is None


def test_errors() -> None:
    x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = ops.Snapshot(x)  # TF registers no gradient for Snapshot
    with pytest.raises(LookupError, match="Snapshot"):
        tape.gradient(y, x)
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError, match=r"not tf\.Tensor"):
            tape.watch("not a tensor")
    with pytest.raises(ValueError, match="not a tensor"):
        tape.gradient(1.0, x)
    with pytest.raises(RuntimeError, match="has not been entered"):
        tf.GradientTape().gradient(x, x)


def test_training_loop_reduces_the_loss() -> None:
    rng = np.random.default_rng(1)
    xs = tf.constant(rng.standard_normal((32, 4)).astype(np.float32))
    true_w = rng.standard_normal((4, 1)).astype(np.float32)
    ys = tf.constant(xs.numpy() @ true_w)
    w = tf.Variable(np.zeros((4, 1), np.float32))
    losses = []
    for _ in range(50):
        with tf.GradientTape() as tape:
            err = ops.MatMul(xs, w) - ys
            loss = ops.Sum(err * err, [0, 1]) / 32.0
        (g,) = tape.gradient(loss, [w])
        w.assign_sub(0.1 * g)
        losses.append(float(loss))
    assert losses[-1] < 1e-3 * losses[0]
    np.testing.assert_allclose(w.numpy(), true_w, atol=1e-2)


def test_variable_basics() -> None:
    v = tf.Variable([1.0, 2.0], name="weights")
    assert v.name == "weights:0" and v.dtype == tf.float32 and v.shape == (2,)
    assert v.trainable and isinstance(v.device, str)
    assert repr(v) == (
        "<tf.Variable 'weights:0' shape=(2,) dtype=float32, numpy=array([1., 2.], "
        "dtype=float32)>"
    )
    assert v.assign([3.0, 4.0]) is v
    v.assign_add([1.0, 1.0])
    v.assign_sub(tf.constant([0.5, 0.5]))
    np.testing.assert_array_equal(v.numpy(), [3.5, 4.5])
    np.testing.assert_array_equal(np.asarray(v), [3.5, 4.5])
    np.testing.assert_array_equal((v + 1.0).numpy(), [4.5, 5.5])
    np.testing.assert_array_equal((1.0 + v).numpy(), [4.5, 5.5])
    np.testing.assert_array_equal((tf.constant([1.0, 1.0]) * v).numpy(), [3.5, 4.5])
    assert float(v[1]) == 4.5 and len(v) == 2
    assert v.assign([0.0, 0.0], read_value=False) is None
    with pytest.raises(TypeError, match="unhashable"):
        hash(v)
    assert v.ref().deref() is v
    d = tf.Variable(1, dtype=tf.float64)
    assert d.dtype == tf.float64 and float(d + 1.0) == 2.0
    assert int(tf.Variable(7)) == 7
    assert repr(tf.Variable(1.5)) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.5>"


def test_variable_errors() -> None:
    with pytest.raises(ValueError, match="initial_value must be specified"):
        tf.Variable()
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(ValueError, match="Cannot assign"):
        v.assign([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="requested dtype float32"):
        v.assign(tf.constant([1, 2]))  # TF's convert_to_tensor error
    with pytest.raises(ValueError, match="not compatible"):
        tf.Variable([1.0, 2.0], shape=(3,))
    assert tf.Variable(lambda: tf.constant(2.0)).numpy() == 2.0


def test_mean_and_sum_gradients() -> None:
    xv = np.arange(6, dtype=np.float64).reshape(2, 3)
    x = tf.constant(xv)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        m = ops.Mean(x * x, [1], keep_dims=False)  # per-row mean, shape (2,)
        s = ops.Sum(x, [0])
    np.testing.assert_allclose(tape.gradient(m, x).numpy(), 2 * xv / 3)
    np.testing.assert_allclose(tape.gradient(s, x).numpy(), np.ones((2, 3)))


def _numeric_check(fn: object, *arrays: np.ndarray, rtol: float = 1e-5) -> None:
    """The tape's gradient of sum(fn(*args)) against central differences
    (float64), for every element of every argument."""
    args = [tf.constant(a) for a in arrays]
    with tf.GradientTape() as tape:
        tape.watch(args)
        out = fn(*args)  # type: ignore[operator]
        total = ops.Sum(out, list(range(len(out.shape))))
    grads = tape.gradient(total, args)

    def value(vals: list[np.ndarray]) -> float:
        r = fn(*[tf.constant(v) for v in vals])  # type: ignore[operator]
        return float(np.sum(r.numpy()))

    eps = 1e-6
    for k, a in enumerate(arrays):
        assert grads[k] is not None, f"argument {k} got no gradient"
        g = grads[k].numpy()
        for idx in np.ndindex(a.shape):
            plus = [x.copy() for x in arrays]
            minus = [x.copy() for x in arrays]
            plus[k][idx] += eps
            minus[k][idx] -= eps
            num = (value(plus) - value(minus)) / (2 * eps)
            assert g[idx] == pytest.approx(num, rel=rtol, abs=1e-6), (k, idx)


_R = np.random.default_rng(7)
_X = _R.uniform(0.2, 1.5, (2, 3)) * np.array([1, -1, 1])
_Y = _R.uniform(0.2, 1.5, (3,))


@pytest.mark.parametrize(
    ("name", "fn", "arrays"),
    [
        ("sin", lambda x: ops.Sin(x), (_X,)),
        ("cos", lambda x: ops.Cos(x), (_X,)),
        ("abs", lambda x: ops.Abs(x), (_X,)),
        ("log1p", lambda x: ops.Log1p(ops.Abs(x)), (_X,)),
        ("relu6", lambda x: ops.Relu6(x * 5.0), (_X,)),
        ("elu", lambda x: ops.Elu(x), (_X,)),
        ("selu", lambda x: ops.Selu(x), (_X,)),
        ("softplus", lambda x: ops.Softplus(x), (_X,)),
        ("softsign", lambda x: ops.Softsign(x), (_X,)),
        ("leaky_relu", lambda x: ops.LeakyRelu(x, alpha=0.3), (_X,)),
        ("maximum", lambda x, y: ops.Maximum(x, y), (_X, _Y)),
        ("minimum", lambda x, y: ops.Minimum(x, y), (_X, _Y)),
        ("squared_difference", lambda x, y: ops.SquaredDifference(x, y), (_X, _Y)),
        ("bias_add", lambda x, b: ops.BiasAdd(x, b) * x, (_X, _Y)),
        ("softmax", lambda x: ops.Softmax(x) * ops.Cos(x), (_X,)),
        ("log_softmax", lambda x: ops.LogSoftmax(x) * ops.Cos(x), (_X,)),
        ("transpose", lambda x: ops.Transpose(x, [1, 0]) * tf.constant(_X.T), (_X,)),
        ("expand_squeeze", lambda x: ops.Squeeze(ops.ExpandDims(x, 0)) * x, (_X,)),
        ("pow_mean", lambda x: ops.Mean(x * x, [1]), (_X,)),
        (
            "softmax_xent",
            lambda x, lab: ops.SoftmaxCrossEntropyWithLogits(x, lab)[0],
            (_X, np.abs(_X) / np.abs(_X).sum(axis=1, keepdims=True)),
        ),
    ],
)
def test_gradient_matches_central_differences(name: str, fn: object, arrays: tuple) -> None:
    _numeric_check(fn, *[np.array(a, np.float64) for a in arrays])


def test_sparse_xent_gradient() -> None:
    labels = tf.constant([2, 0])
    _numeric_check(lambda x: ops.SparseSoftmaxCrossEntropyWithLogits(x, labels)[0], _X)
