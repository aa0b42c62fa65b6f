"""tfe_py.function / cond details checked against TF 2.21.

Expected values were recorded by running the same programs with TF 2.21's
``tensorflow`` in place of ``tfe_py`` (outside the tests).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tfe_py as tf

X = np.array([0.5, -1.0, 2.0])


def _np(value: Any) -> Any:
    return np.asarray(value)


# -- assignments inside a function: TF reads the variable lazily ------------


def test_assign_add_in_function_returns_value_after_write() -> None:
    v = tf.Variable(1.0)

    @tf.function
    def f() -> Any:
        return v.assign_add(2.0)

    assert float(_np(f())) == 3.0  # TF 2.21: 3.0
    assert float(_np(v)) == 3.0


def test_assign_results_are_read_where_used() -> None:
    # TF's assign* in a function return an unread variable: each result is
    # read where it is used (after the writes made before that use).
    w = tf.Variable(1.0)

    @tf.function
    def g() -> Any:
        a = w.assign(5.0)
        b = w.assign_sub(1.0)
        return a, b, w.assign_add(3.0)

    assert [float(_np(t)) for t in g()] == [7.0, 7.0, 7.0]  # TF 2.21

    v = tf.Variable(1.0)

    @tf.function
    def h() -> Any:
        a = v.assign_add(1.0)
        first = a + 0.0
        b = v.assign_add(1.0)
        return first, b + 0.0, a * 10.0

    assert [float(_np(t)) for t in h()] == [2.0, 3.0, 30.0]

    u = tf.Variable(1.0)

    @tf.function
    def k() -> Any:
        a = u.assign_add(2.0)
        b = a * 10.0
        u.assign(0.0)
        return b, a

    assert [float(_np(t)) for t in k()] == [30.0, 0.0]  # TF 2.21

    z = tf.Variable(np.array([1.0, 2.0, 3.0]))

    @tf.function
    def c(x: Any, s: Any) -> Any:
        return tf.cond(s > 0, lambda: z.assign_add(x) * x, lambda: x * x)

    got = c(tf.constant(X), tf.constant(1.0, tf.float64))
    np.testing.assert_allclose(_np(got), [0.75, -1.0, 10.0])  # TF 2.21


# -- operators inside a cond branch ------------------------------------------


def test_operator_with_outer_tensor_first_goes_to_branch_graph() -> None:
    @tf.function
    def f(x: Any, s: Any) -> Any:
        def t() -> Any:
            r = tf.sin(x) + 1.0
            return x * r - x / r

        return tf.cond(s > 0, t, lambda: x - 1.0)

    pos = f(tf.constant(X), tf.constant(1.0, tf.float64))
    neg = f(tf.constant(X), tf.constant(-1.0, tf.float64))
    r = np.sin(X) + 1.0
    np.testing.assert_allclose(_np(pos), X * r - X / r, rtol=1e-12)
    np.testing.assert_allclose(_np(neg), X - 1.0)


def test_eager_plus_graph_tensor_still_goes_to_the_tensor_graph() -> None:
    with tf.Graph().as_default() as g:
        x = tf.constant(X)
    y = x * 2.0  # outside the graph's block: the node goes to x's graph
    assert y.graph is g
    with tf.Session(graph=g) as sess:
        np.testing.assert_allclose(sess.run(y), X * 2.0)


# -- tapes inside a function through cond -------------------------------------


def test_tape_in_function_through_cond() -> None:
    @tf.function
    def g(x: Any) -> Any:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.sin(x) * x, lambda: x * x)
        return tape.gradient(y, x)

    np.testing.assert_allclose(
        _np(g(tf.constant(X))),
        [0.9182168195493894, -1.3817732906760363, 0.0770037537313969],  # TF 2.21
        rtol=1e-12,
    )


def test_tape_in_function_through_stateful_cond() -> None:
    v = tf.Variable(np.array([1.0, 2.0, 3.0]))

    @tf.function
    def g(x: Any) -> Any:
        with tf.GradientTape() as tape:
            tape.watch(x)

            def t() -> Any:
                v.assign_add(x)
                return v.read_value() * x * x

            y = tf.cond(tf.reduce_sum(x) > 0, t, lambda: x * x)
        return y, tape.gradient(y, x)

    y, dx = g(tf.constant(X))
    np.testing.assert_allclose(_np(y), [0.375, 1.0, 20.0])  # TF 2.21
    np.testing.assert_allclose(_np(dx), [1.5, -2.0, 20.0])
    np.testing.assert_allclose(_np(v), [1.5, 1.0, 5.0])


def test_gradients_in_function_through_cond() -> None:
    @tf.function
    def g(x: Any) -> Any:
        y = tf.cond(x[0] > 0, lambda: tf.exp(x) * x, lambda: x)
        return tf.gradients(y, x)[0]

    np.testing.assert_allclose(
        _np(g(tf.constant(X))),
        [2.4730819060501923, 0.0, 22.16716829679195],  # TF 2.21
        rtol=1e-12,
    )


def test_nested_function_with_tape_through_cond() -> None:
    @tf.function
    def inner(x: Any) -> Any:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(x[2] > 0, lambda: tf.sin(x) * x, lambda: x)
        return tape.gradient(y, x)

    @tf.function
    def outer(x: Any) -> Any:
        return inner(x) * 2.0

    expected = [1.8364336390987788, -2.7635465813520725, 0.1540075074627938]  # TF 2.21
    np.testing.assert_allclose(_np(outer(tf.constant(X))), expected, rtol=1e-12)
    # the same function added to a graph run by a Session
    with tf.Graph().as_default() as graph:
        out = inner(tf.constant(X))
    with tf.Session(graph=graph) as sess:
        np.testing.assert_allclose(sess.run(out), np.array(expected) / 2.0, rtol=1e-12)


# -- Session.run of ml_dtypes-backed dtypes -----------------------------------


def test_session_run_returns_ml_dtypes_arrays() -> None:
    ml_dtypes = pytest.importorskip("ml_dtypes")
    with tf.Graph().as_default() as g:
        a = tf.constant([1.5, -2.0, 3.25], dtype=tf.bfloat16)
        sq = a * a
        scalar = tf.constant(2.5, dtype=tf.bfloat16)
        empty = tf.zeros([0, 2], dtype=tf.bfloat16)
        f8 = tf.cast(tf.constant([1.0, 0.5]), tf.float8_e4m3fn)
    with tf.Session(graph=g) as sess:
        got_sq, got_scalar, got_empty, got_f8 = sess.run([sq, scalar, empty, f8])
    # TF 2.21 (compat.v1 Session): ml_dtypes arrays, writable
    assert got_sq.dtype == ml_dtypes.bfloat16
    assert got_sq.flags.writeable
    assert got_sq.astype(np.float32).tolist() == [2.25, 4.0, 10.5625]
    assert got_scalar.dtype == ml_dtypes.bfloat16 and float(got_scalar) == 2.5
    assert got_empty.dtype == ml_dtypes.bfloat16 and got_empty.shape == (0, 2)
    assert got_f8.dtype == ml_dtypes.float8_e4m3fn
    assert got_f8.astype(np.float32).tolist() == [1.0, 0.5]


# -- variable reads in graphs keep the variable's shape -------------------------


def test_variable_read_in_function_has_variable_shape() -> None:
    v = tf.Variable(np.array([1.0, 2.0, 3.0]))
    seen: list[Any] = []

    @tf.function
    def f(x: Any) -> Any:
        seen.append(v.read_value().shape.as_list())

        def body(i: Any, y: Any) -> Any:
            return i + 1, v.assign_add(y) * 1.0

        return tf.while_loop(lambda i, y: i < 2, body, [tf.constant(0), x])[1]

    got = f(tf.constant(X))
    assert seen == [[3]]
    np.testing.assert_allclose(_np(got), [3.0, 2.0, 10.0])  # TF 2.21
