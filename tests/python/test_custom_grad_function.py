"""Gradients through tfe_py.function bodies against TF 2.21: custom
gradients traced into a function (a per-node gradient override in graphs)
and stateful bodies (the gradient uses the forward pass's own values).
Programs: tests/python/custom_grad_function_programs.py; values recorded by
tools/record_custom_grad_function.py into
tests/data/custom_grad_function_tf221.json."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tfe_py as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))
from custom_grad_function_programs import PROGRAMS

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "custom_grad_function_tf221.json").read_text(
        encoding="utf-8"
    )
)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_matches_tf(name: str) -> None:
    want: dict[str, Any] = DATA["programs"][name]
    assert "error" not in want, want
    got = PROGRAMS[name](tf)
    assert sorted(got) == sorted(want)
    for key, value in want.items():
        np.testing.assert_allclose(got[key], np.asarray(value), rtol=1e-12, atol=1e-12,
                                   err_msg=f"{name}: {key}")


def test_tape_inside_a_function_unwatched_source_and_jacobian() -> None:
    @tf.function
    def f(x: Any, z: Any) -> Any:
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(x * z)
        gx, gz = t.gradient(y, [x, z])
        assert gz is None  # z is not watched: None, as TF's tape gives
        return gx

    x = tf.constant([1.0, 2.0])
    z = tf.constant([3.0, -4.0])
    np.testing.assert_array_equal(f(x, z).numpy(), [3.0, -4.0])

    @tf.function
    def zeros(x: Any, z: Any) -> Any:
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(x * z)
        return t.gradient(y, [x, z], unconnected_gradients="zero")

    gx, gz = zeros(x, z)
    np.testing.assert_array_equal(gx.numpy(), [3.0, -4.0])
    np.testing.assert_array_equal(gz.numpy(), [0.0, 0.0])

    @tf.function
    def jac(x: Any) -> Any:
        with tf.GradientTape() as t:
            t.watch(x)
            y = x * x
        return t.jacobian(y, x)

    # One symbolic seeded gradient per target element: TF's values.
    np.testing.assert_array_equal(jac(x).numpy(), [[2.0, 0.0], [0.0, 4.0]])

    @tf.function
    def bjac(x: Any) -> Any:
        with tf.GradientTape() as t:
            t.watch(x)
            y = x * x * 3.0
        return t.batch_jacobian(y, x)

    xb = np.arange(6.0).reshape(2, 3)
    want = np.zeros((2, 3, 3))
    for b in range(2):
        want[b] = np.diag(6.0 * xb[b])
    np.testing.assert_array_equal(bjac(tf.constant(xb)).numpy(), want)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def jac_unknown(x: Any) -> Any:
        with tf.GradientTape() as t:
            t.watch(x)
            y = x * x
        return t.jacobian(y, x)

    with pytest.raises(NotImplementedError, match=r"fully known shape"):
        jac_unknown(x)


def test_custom_gradient_in_a_plain_graph_with_a_session() -> None:
    # TF 1 style: tf.gradients in a tfe_py.Graph, run by a Session (TF's
    # graph-mode custom_gradient gives grad_fn's value there too).
    from tfe_py.session import Session

    @tf.custom_gradient
    def sq(x: Any) -> Any:
        def grad(dy: Any) -> Any:
            return dy * 4.0 * x

        return x * x, grad

    g = tf.Graph()
    with g.as_default():
        x = tf.constant(np.array([1.0, 2.0]))
        y = tf.reduce_sum(sq(x))
        (gx,) = tf.gradients(y, [x])
    np.testing.assert_array_equal(Session(graph=g).run(gx), [4.0, 8.0])
