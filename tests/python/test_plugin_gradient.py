"""A plugin op with a registered gradient (tests/plugins/grad_op_lib.c):
the library defines TfeTestCube, its CPU kernel and its gradient with
TFE_RegisterGradient when loaded; the eager tape, nested tapes and
TF_AddGradients (tfe_py.gradients in a tf.function) all use it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import ops


@pytest.fixture(scope="module")
def cube_lib(build_test_plugin: Callable[[str], Path]) -> None:
    tf.load_op_library(build_test_plugin("grad_op_lib"))
    from tfe_py._ffi import lib

    assert lib.TFE_GradientRegistryLookup(b"TfeTestCube") == 1


def test_eager_gradient(cube_lib: None) -> None:
    x = tf.constant([1.0, -2.0, 0.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = ops.TfeTestCube(x=x)
    np.testing.assert_allclose(y.numpy(), [1.0, -8.0, 0.125])
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [3.0, 12.0, 0.75])


def test_second_derivative(cube_lib: None) -> None:
    x = tf.constant([1.0, -2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = ops.TfeTestCube(x=x)
        dy = inner.gradient(y, x)
    np.testing.assert_allclose(outer.gradient(dy, x).numpy(), [6.0, -12.0])


def test_graph_gradient(cube_lib: None) -> None:
    @tf.function
    def f(x: tf.Tensor) -> tf.Tensor:
        return tf.gradients(ops.TfeTestCube(x=x), x)[0]

    np.testing.assert_allclose(f(tf.constant([2.0, 3.0])).numpy(), [12.0, 27.0])
