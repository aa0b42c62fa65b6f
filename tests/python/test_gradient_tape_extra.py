"""GradientTape.jacobian / batch_jacobian, tf.stop_gradient and
tf.autodiff.ForwardAccumulator (issue 17): values against TF 2.21's, recorded
by tools/record_gradient_tape_extra.py, plus TF's rules and errors."""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import pytest

import tfe_py as tf

_DATA = os.path.join(os.path.dirname(__file__), "..", "data", "gradient_tape_extra_tf221.json")
with open(_DATA) as _f:
    DATA = json.load(_f)


def _vals(inputs: dict[str, Any]) -> dict[str, Any]:
    return {k: tf.constant(np.asarray(v["value"], v["dtype"])) for k, v in inputs.items()}


def _close(got: Any, want: Any, dtype: str) -> None:
    assert got is not None
    tol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(got.numpy(), np.asarray(want), rtol=tol, atol=tol)


@pytest.mark.parametrize("case", DATA["jacobian"], ids=lambda c: c["name"])
def test_jacobian_matches_tf(case: dict[str, Any]) -> None:
    v = _vals(case["inputs"])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(list(v.values()))
        y = eval(case["expr"], {"tf": tf}, dict(v))
    srcs = [v[s] for s in case["sources"]]
    res = tape.jacobian(y, srcs)
    zero = tape.jacobian(y, srcs, unconnected_gradients="zero")
    for name, got, z, want, shape in zip(
        case["sources"], res, zero, case["result"], case["shapes"], strict=True
    ):
        dtype = case["inputs"][name]["dtype"]
        assert list(z.shape) == shape
        if want is None:
            assert got is None
            assert not np.any(z.numpy())
        else:
            assert list(got.shape) == shape
            _close(got, want, dtype)
            _close(z, want, dtype)


@pytest.mark.parametrize("case", DATA["batch_jacobian"], ids=lambda c: c["name"])
def test_batch_jacobian_matches_tf(case: dict[str, Any]) -> None:
    v = _vals(case["inputs"])
    with tf.GradientTape() as tape:  # non-persistent: one batch_jacobian
        tape.watch(list(v.values()))
        y = eval(case["expr"], {"tf": tf}, dict(v))
    got = tape.batch_jacobian(y, v[case["source"]])
    assert list(got.shape) == case["shape"]
    _close(got, case["result"], case["inputs"][case["source"]]["dtype"])


@pytest.mark.parametrize("case", DATA["jvp"], ids=lambda c: c["name"])
def test_jvp_matches_tf(case: dict[str, Any]) -> None:
    v = _vals(case["inputs"])
    t = _vals(case["tangents"])
    with tf.autodiff.ForwardAccumulator([v[p] for p in case["primals"]],
                                        list(t.values())) as acc:
        y = eval(case["expr"], {"tf": tf}, dict(v))
        inside = acc.jvp(y)
    outside = acc.jvp(y)
    dtype = case["inputs"][case["primals"][0]]["dtype"]
    _close(inside, case["result"], dtype)
    _close(outside, case["result"], dtype)


def test_jvp_against_central_differences() -> None:
    rng = np.random.default_rng(3)
    xv, wv, tx = rng.standard_normal((2, 3)), rng.standard_normal((3, 2)), \
        rng.standard_normal((2, 3))

    def f(xa: np.ndarray) -> np.ndarray:
        return tf.exp(tf.matmul(tf.constant(xa), tf.constant(wv)) * 0.3).numpy()

    x = tf.constant(xv)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(tx)) as acc:
        y = tf.exp(tf.matmul(x, tf.constant(wv)) * 0.3)
    eps = 1e-6
    num = (f(xv + eps * tx) - f(xv - eps * tx)) / (2 * eps)
    np.testing.assert_allclose(acc.jvp(y).numpy(), num, rtol=1e-6, atol=1e-8)


# -- jacobian: TF's tape rules ---------------------------------------------


def test_non_persistent_jacobian_once_inside_or_after() -> None:
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        j = tape.jacobian(y, x)  # inside the block, as TF allows
    np.testing.assert_array_equal(j.numpy(), np.diag([2.0, 4.0, 6.0]))
    with pytest.raises(RuntimeError, match="non-persistent GradientTape can only be used"):
        tape.jacobian(y, x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.jacobian(y, x)
    with pytest.raises(RuntimeError, match="non-persistent"):
        tape.gradient(y, x)


def test_jacobian_structures_and_scalar_target() -> None:
    x = tf.constant([1.0, 2.0, 3.0])
    z = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, z])
        y = x * 2.0
        s = tf.reduce_sum(x * x)
    assert tape.jacobian(y, z) is None
    d = tape.jacobian(y, {"a": x, "b": [z]})
    assert set(d) == {"a", "b"} and d["b"] == [None]
    np.testing.assert_array_equal(d["a"].numpy(), 2.0 * np.eye(3))
    np.testing.assert_array_equal(tape.jacobian(s, x).numpy(), [2.0, 4.0, 6.0])
    # the persistent tape still answers gradients
    np.testing.assert_array_equal(tape.gradient(s, x).numpy(), [2.0, 4.0, 6.0])


def test_hessian_with_nested_tapes_and_variables() -> None:
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            s = tf.reduce_sum(x * x * x)
        g = inner.gradient(s, x)
    np.testing.assert_array_equal(outer.jacobian(g, x).numpy(), np.diag([6.0, 12.0, 18.0]))
    v = tf.Variable([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        y = tf.matmul(v, tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    j = tape.jacobian(y, v)
    assert j.shape == (1, 2, 1, 2)
    np.testing.assert_array_equal(j.numpy().ravel(), [1.0, 3.0, 2.0, 4.0])


def test_batch_jacobian_errors() -> None:
    xb = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xb)
        yb = xb * xb
    with pytest.raises(ValueError, match=r"Shape \(\) must have rank at least 2"):
        tape.batch_jacobian(tf.reduce_sum(yb), xb)
    with pytest.raises(ValueError, match=r"Shape \(3,\) must have rank at least 2"):
        tape.batch_jacobian(yb, tf.constant([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="Need first dimension of target shape"):
        tape.batch_jacobian(yb[:2], xb)
    # the errors did not spend anything: the tape still answers
    assert tape.batch_jacobian(yb, xb).shape == (3, 2, 2)
    other = tf.constant([[1.0], [2.0], [3.0]])
    assert tape.batch_jacobian(yb, other) is None
    z = tape.batch_jacobian(yb, other, unconnected_gradients="zero")
    assert z.shape == (3, 2, 1) and not np.any(z.numpy())


def test_jacobian_bad_arguments() -> None:
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(ValueError, match=r"not tf\.Tensor"):
        tape.jacobian(y, [3.0])
    with pytest.raises(ValueError):
        tape.jacobian(y, x, unconnected_gradients="sometimes")
    with pytest.raises(RuntimeError, match="not been entered"):
        tf.GradientTape().jacobian(y, x)


# -- stop_gradient -----------------------------------------------------------


def test_stop_gradient() -> None:
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.stop_gradient(x * x) + x
        only = tf.stop_gradient(x * x)
    np.testing.assert_array_equal(y.numpy(), [2.0, 6.0, 12.0])
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [1.0, 1.0, 1.0])
    assert tape.gradient(only, x) is None
    np.testing.assert_array_equal(
        tape.gradient(only, x, unconnected_gradients="zero").numpy(), [0.0, 0.0, 0.0]
    )


# -- ForwardAccumulator: rules and errors ------------------------------------


def test_forward_accumulator_rules() -> None:
    assert tf.autodiff.GradientTape is tf.GradientTape
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0, 0.0])) as acc:
        y = x * 2.0
    np.testing.assert_array_equal(acc.jvp(x).numpy(), [1.0, 0.0, 0.0])  # a primal itself
    assert acc.jvp(tf.constant(1.0)) is None
    z = acc.jvp(tf.constant([1.0, 2.0]), unconnected_gradients="zero")
    np.testing.assert_array_equal(z.numpy(), [0.0, 0.0])
    nested = acc.jvp({"a": y, "b": [y * y]})
    np.testing.assert_array_equal(nested["a"].numpy(), [2.0, 0.0, 0.0])
    assert nested["b"] == [None]  # y * y ran after the block: not recorded, as in TF
    v = tf.Variable([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(v, tf.constant([1.0, 1.0])) as acc:
        w = v * v
    np.testing.assert_array_equal(acc.jvp(w).numpy(), [2.0, 4.0])


def test_forward_accumulator_errors() -> None:
    x = tf.constant([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="same nested structure"):
        tf.autodiff.ForwardAccumulator([x], [])
    with pytest.raises(ValueError, match="Tangent shape"):
        tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0]))
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0, 0.0])) as acc:
        y = tf.tanh(x)
        with pytest.raises(TypeError):
            acc.jvp(3.0)
    # Forward mode has its own rule for tanh (tests/python/test_forward_mode.py).
    np.testing.assert_allclose(acc.jvp(y).numpy(), [1 - np.tanh(1.0) ** 2, 0.0, 0.0],
                               rtol=1e-6)
    with pytest.raises(ValueError, match="never entered"):
        tf.autodiff.ForwardAccumulator(x, x).jvp(x)
