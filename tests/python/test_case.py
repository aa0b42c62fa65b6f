"""tfe_py.case against TF 2.21's tf.case (nested conds).

Expected values and messages were recorded by running the same programs
with TF 2.21 (outside the tests).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tfe_py as tf

X = np.array([0.5, -1.0, 2.0])
TWICE = [1.0, -2.0, 4.0]
PLUS1 = [1.5, 0.0, 3.0]
NEG = [-0.5, 1.0, -2.0]
NONE_TRUE = "Input error: None of conditions evaluated as True:"
# (a, b) -> (no default, default, default + exclusive); None = an Assert fails
EXPECTED: dict[tuple[bool, bool], tuple[Any, Any, Any]] = {
    (False, False): (None, NEG, NEG),
    (False, True): (PLUS1, PLUS1, PLUS1),
    (True, False): (TWICE, TWICE, TWICE),
    (True, True): (TWICE, TWICE, None),
}


def _np(value: Any) -> Any:
    return np.asarray(value)


def _pairs(x: Any, a: Any, b: Any) -> list[Any]:
    return [(a, lambda: x * 2.0), (b, lambda: x + 1.0)]


@pytest.mark.parametrize("ab", sorted(EXPECTED))
def test_eager(ab: tuple[bool, bool]) -> None:
    x = tf.constant(X)
    a, b = (tf.constant(v) for v in ab)
    plain, with_default, exclusive = EXPECTED[ab]
    if plain is None:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            tf.case(_pairs(x, a, b))
        assert str(info.value).endswith(f"Summarized data: b'{NONE_TRUE}'\nFalse, False")
    else:
        np.testing.assert_allclose(_np(tf.case(_pairs(x, a, b))), plain)
    np.testing.assert_allclose(_np(tf.case(_pairs(x, a, b), default=lambda: -x)), with_default)
    if exclusive is None:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            tf.case(_pairs(x, a, b), default=lambda: -x, exclusive=True)
        assert str(info.value).endswith(
            "Summarized data: b'Input error: exclusive=True: more than 1 conditions (?, ?) "
            "evaluated as True:'\nTrue, True"
        )
    else:
        got = tf.case(_pairs(x, a, b), default=lambda: -x, exclusive=True)
        np.testing.assert_allclose(_np(got), exclusive)


def test_in_function() -> None:
    @tf.function
    def plain(x: Any, a: Any, b: Any) -> Any:
        return tf.case(_pairs(x, a, b))

    @tf.function
    def with_default(x: Any, a: Any, b: Any) -> Any:
        return tf.case(_pairs(x, a, b), default=lambda: -x)

    @tf.function
    def exclusive(x: Any, a: Any, b: Any) -> Any:
        return tf.case(_pairs(x, a, b), default=lambda: -x, exclusive=True)

    x = tf.constant(X)
    for ab, expected in EXPECTED.items():
        a, b = (tf.constant(v) for v in ab)
        for fn, want in zip((plain, with_default, exclusive), expected, strict=True):
            if want is None:
                with pytest.raises(tf.errors.InvalidArgumentError) as info:
                    fn(x, a, b)
                text = str(info.value)
                if fn is plain:
                    assert f"assertion failed: [{NONE_TRUE}] [0 0]" in text
                else:
                    assert (
                        "assertion failed: [Input error: exclusive=True: more than 1 "
                        "conditions (a:0, b:0) evaluated as True:] [1 1]"
                    ) in text
            else:
                np.testing.assert_allclose(_np(fn(x, a, b)), want)


def test_gradient_in_function() -> None:
    @tf.function
    def g(x: Any) -> Any:
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.case(
                [(x[0] > 1.0, lambda: tf.sin(x)), (x[2] > 1.0, lambda: x * x)], default=lambda: x
            )
        return y, t.gradient(y, x)

    y, dx = g(tf.constant(X))
    np.testing.assert_allclose(_np(y), [0.25, 1.0, 4.0])  # TF 2.21
    np.testing.assert_allclose(_np(dx), [1.0, -2.0, 4.0])


def test_single_pair_and_dict() -> None:
    x = tf.constant(X)
    np.testing.assert_allclose(_np(tf.case([(tf.constant(True), lambda: x)])), X)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.case([(tf.constant(False), lambda: x)])
    assert str(info.value).endswith(f"Summarized data: b'{NONE_TRUE}'\nFalse")
    # tensors are unhashable (TF 2.21 too), so a dict of eager predicates
    # cannot even be built
    with pytest.raises(TypeError, match="Tensor is unhashable"):
        tf.case({tf.constant(True): lambda: x}, exclusive=True)


def test_argument_errors() -> None:
    x = tf.constant(X)
    t = tf.constant(True)
    with pytest.raises(TypeError, match=r"^'pred_fn_pairs' must be a list, tuple, or dict\. "):
        tf.case(lambda: x)
    with pytest.raises(TypeError, match=r"^Each entry in 'pred_fn_pairs' must be a 2-tuple\. "):
        tf.case([(t, lambda: x, 1)])
    with pytest.raises(TypeError, match=r"^pred must be a Tensor, got: True$"):
        tf.case([(True, lambda: x)])
    with pytest.raises(ValueError, match=r"not enough values to unpack \(expected 2, got 0\)"):
        tf.case([])
    # TF 2.21 fails here with an AttributeError (an eager tensor's name);
    # tfe raises the TypeError TF means to raise.
    with pytest.raises(TypeError, match=r"^pred must be Tensor of type bool"):
        tf.case([(tf.constant(1), lambda: x)])
