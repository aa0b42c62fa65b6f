"""tfe_py.switch_case against TF 2.21's tf.switch_case.

Expected values were recorded by running the same programs with TF 2.21
(outside the tests); error messages are TF's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tfe_py as tf

X = np.array([0.5, -1.0, 2.0])
SIN = [0.479425538604203, -0.8414709848078965, 0.9092974268256817]
TWICE = [1.0, -2.0, 4.0]
MINUS1 = [-0.5, -2.0, 1.0]


def _branches(x: Any) -> list[Any]:
    return [lambda: x * 2.0, lambda: tf.sin(x), lambda: x - 1.0]


def _np(value: Any) -> Any:
    return np.asarray(value)


# index -> (without default, with default lambda: x * 0.0), TF 2.21
EAGER = {
    -1: (MINUS1, [0.0, 0.0, 0.0]),
    0: (TWICE, TWICE),
    1: (SIN, SIN),
    2: (MINUS1, MINUS1),
    3: (MINUS1, [0.0, 0.0, 0.0]),
    7: (MINUS1, [0.0, 0.0, 0.0]),
}


@pytest.mark.parametrize("index", sorted(EAGER))
def test_eager(index: int) -> None:
    x = tf.constant(X)
    plain, with_default = EAGER[index]
    got = tf.switch_case(tf.constant(index), _branches(x))
    np.testing.assert_allclose(_np(got), plain, rtol=1e-15)
    got = tf.switch_case(tf.constant(index), _branches(x), default=lambda: x * 0.0)
    np.testing.assert_allclose(_np(got), with_default, rtol=1e-15)


def test_int64_index() -> None:
    x = tf.constant(X)
    got = tf.switch_case(tf.constant(1, tf.int64), _branches(x))
    np.testing.assert_allclose(_np(got), SIN, rtol=1e-15)


# index -> (list of branches, dict with a default), TF 2.21
IN_FUNCTION = {
    -1: (MINUS1, [-0.5, 1.0, -2.0]),
    0: (TWICE, [1.5, 0.0, 3.0]),
    1: (SIN, [0.25, 1.0, 4.0]),
    2: (MINUS1, [-0.5, 1.0, -2.0]),
    3: (MINUS1, [-0.5, 1.0, -2.0]),
}


def test_in_function() -> None:
    @tf.function
    def f(i: Any, x: Any) -> Any:
        return tf.switch_case(i, _branches(x))

    @tf.function
    def fd(i: Any, x: Any) -> Any:
        return tf.switch_case(i, {1: lambda: x * x, 0: lambda: x + 1.0}, default=lambda: -x)

    x = tf.constant(X)
    for index, (plain, with_dict) in IN_FUNCTION.items():
        np.testing.assert_allclose(_np(f(tf.constant(index), x)), plain, rtol=1e-15)
        np.testing.assert_allclose(_np(fd(tf.constant(index), x)), with_dict, rtol=1e-15)


def test_stateful_branches_use_case() -> None:
    v = tf.Variable(np.array([1.0, 2.0, 3.0]))

    @tf.function
    def f(i: Any, x: Any) -> Any:
        def b0() -> Any:
            v.assign_add(x)
            return v.read_value() * x

        return tf.switch_case(i, [(0, b0), (1, lambda: x * 3.0)])

    x = tf.constant(X)
    np.testing.assert_allclose(_np(f(tf.constant(0), x)), [0.75, -1.0, 10.0])
    np.testing.assert_allclose(_np(v), [1.5, 1.0, 5.0])
    np.testing.assert_allclose(_np(f(tf.constant(1), x)), [1.5, -3.0, 6.0])
    np.testing.assert_allclose(_np(v), [1.5, 1.0, 5.0])
    ops = [op.type for op in f.get_concrete_function(tf.constant(0), x).graph.get_operations()]
    assert "Case" in ops and "StatelessCase" not in ops


def test_graph_op_and_structure() -> None:
    @tf.function
    def f(i: Any, x: Any) -> Any:
        return tf.switch_case(i, [lambda: (x, {"k": x * 2.0}), lambda: (x + 1.0, {"k": x})])

    x = tf.constant(X)
    a, d = f(tf.constant(1), x)
    np.testing.assert_allclose(_np(a), [1.5, 0.0, 3.0])  # TF 2.21
    np.testing.assert_allclose(_np(d["k"]), X)
    ops = [op.type for op in f.get_concrete_function(tf.constant(1), x).graph.get_operations()]
    assert "StatelessCase" in ops

    @tf.function
    def shape_of(i: Any, x: Any) -> Any:
        r = tf.switch_case(i, [lambda: x, lambda: tf.concat([x, x], 0)])
        assert r.shape.as_list() == [None]  # the most specific common shape
        return tf.shape(r)

    assert _np(shape_of(tf.constant(1), x)).tolist() == [6]


def test_in_graph_session() -> None:
    with tf.Graph().as_default() as g:
        i = tf.placeholder(tf.int32, [])
        x = tf.constant(X)
        out = tf.switch_case(i, _branches(x))
    with tf.Session(graph=g) as sess:
        for index, (plain, _) in EAGER.items():
            np.testing.assert_allclose(sess.run(out, {i: index}), plain, rtol=1e-15)


def test_gradients() -> None:
    @tf.function
    def g(i: Any, x: Any) -> Any:
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.switch_case(i, [lambda: tf.sin(x) * x, lambda: x * x * x, lambda: tf.exp(x)])
        return y, t.gradient(y, x)

    x = tf.constant(X)
    expected = {  # TF 2.21: (value, gradient)
        0: (
            [0.2397127693021015, 0.8414709848078965, 1.8185948536513634],
            [0.9182168195493894, -1.3817732906760363, 0.0770037537313969],
        ),
        1: ([0.125, -1.0, 8.0], [0.75, 3.0, 12.0]),
        5: (
            [1.6487212707001282, 0.36787944117144233, 7.38905609893065],
            [1.6487212707001282, 0.36787944117144233, 7.38905609893065],
        ),
    }
    for index, (value, grad) in expected.items():
        y, dx = g(tf.constant(index), x)
        np.testing.assert_allclose(_np(y), value, rtol=1e-12)
        np.testing.assert_allclose(_np(dx), grad, rtol=1e-12)

    @tf.function
    def f(i: Any, x: Any) -> Any:
        return tf.switch_case(i, _branches(x))

    outer = {0: [2.0, 2.0, 2.0], 1: [0.8775825618903728, 0.5403023058681398,
                                     -0.4161468365471424], 2: [1.0, 1.0, 1.0]}
    for index, grad in outer.items():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(tf.constant(index), x)
        np.testing.assert_allclose(_np(tape.gradient(y, x)), grad, rtol=1e-12)


def test_argument_errors() -> None:
    x = tf.constant(X)
    one = tf.constant(1)
    cases: list[tuple[Any, Any, type[Exception], str]] = [
        (1, _branches(x), TypeError, "'branch_index' must be a Tensor, got <class 'int'>"),
        (tf.constant(1.0), _branches(x), TypeError,
         "'branch_index' must be an integer Tensor, got <dtype: 'float32'>"),
        (one, [], ValueError, "Must provide at least one item in 'branch_fns'"),
        (one, lambda: x, TypeError, "'branch_fns' must be a list, tuple, or dict"),
        (one, [(0, lambda: x), lambda: x], TypeError,
         "Each entry in 'branch_fns' must be a 2-tuple. Received <function"),
        (one, [("a", lambda: x)], TypeError, "key must be a Python `int`, got <class 'str'>"),
        (one, [(0, 3)], TypeError, "fn for key 0 must be callable."),
        (one, {0: lambda: x, 2: lambda: x}, ValueError,
         "branch indices (keys) must form contiguous range of [0 to 2) but found {0,2}"),
        (one, [(0, lambda: x), (0, lambda: x)], ValueError,
         "branch indices (keys) must form contiguous range of [0 to 2) but found {0,0}"),
    ]
    for index, fns, cls, message in cases:
        with pytest.raises(cls) as info:
            tf.switch_case(index, fns)
        assert str(info.value).startswith(message)


def test_branches_must_agree() -> None:
    head = ("branches[0] and branches[1] arguments to tf.switch_case must have the same "
            "number, type, and overall structure of return values.")

    @tf.function
    def bad_dtype(i: Any, x: Any) -> Any:
        return tf.switch_case(i, [lambda: x, lambda: tf.cast(x, tf.float32)])

    @tf.function
    def bad_structure(i: Any, x: Any) -> Any:
        return tf.switch_case(i, [lambda: x, lambda: (x, x)])

    for fn in (bad_dtype, bad_structure):
        with pytest.raises(TypeError) as info:
            fn(tf.constant(0), tf.constant(X))
        assert str(info.value).startswith(head)


def test_raw_case_ops_eagerly() -> None:
    # list(func) attrs set from an eager op call (TF 2.21: same values; an
    # unknown function name is a NotFoundError there too)
    from tfe_py import ops

    @tf.function
    def b0(x: Any) -> Any:
        return x * 2.0

    @tf.function
    def b1(x: Any) -> Any:
        return x + 1.0

    x = tf.constant([1.0, 2.0])
    fns = [b0.get_concrete_function(x), b1.get_concrete_function(x)]
    for op in (ops.Case, ops.StatelessCase):
        for index, want in ((0, [2.0, 4.0]), (1, [2.0, 3.0]), (5, [2.0, 3.0]), (-1, [2.0, 3.0])):
            got = op(branch_index=tf.constant(index), input=[x], Tout=[tf.float32], branches=fns)
            assert _np(got[0]).tolist() == want
    with pytest.raises(tf.errors.NotFoundError):
        ops.Case(branch_index=tf.constant(0), input=[x], Tout=[tf.float32], branches=["no_such_fn"])
