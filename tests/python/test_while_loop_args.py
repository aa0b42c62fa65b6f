"""tfe_py.while_loop's TF arguments maximum_iterations and parallel_iterations
(values and the error printed by TF 2.21 for the same programs)."""

from __future__ import annotations

from typing import Any

import pytest

import tfe_py as tf


def test_maximum_iterations_eager() -> None:
    i, x = tf.while_loop(lambda i, x: i < 10, lambda i, x: [i + 1, x * 2.0], [0, 1.0],
                         maximum_iterations=3)
    assert int(i) == 3 and float(x) == 8.0


def test_maximum_iterations_in_a_function() -> None:
    @tf.function
    def f(n: Any) -> Any:
        return tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, x * 2.0), (0, 1.0),
                             maximum_iterations=4, parallel_iterations=1)

    for n, want in ((10, (4, 16.0)), (2, (2, 4.0))):
        i, x = f(tf.constant(n))
        assert (int(i.numpy()), float(x.numpy())) == want


def test_parallel_iterations_must_be_positive() -> None:
    with pytest.raises(TypeError, match=r"'parallel_iterations' must be a positive integer\."):
        tf.while_loop(lambda i: i < 3, lambda i: i + 1, [0], parallel_iterations=0)
