"""Programs whose gradients need the forward pass's values: an If inside a
``tf.function`` whose taken branch has a stateful op (a variable
assignment followed by a read, a seeded stateful random op that is not
returned). Shared by tools/record_grad_func_fwd.py (run on TensorFlow
2.21) and tests/python/test_grad_function_fwd.py (run on tfe_py).

Each program maker returns (function, argument tensors, variable or None);
the loss is sum(y * W). Branch-local tensors come first in binary
operators (``r * x``): tfe_py puts an operator's node in the graph of its
first graph operand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

X = np.array([0.5, -1.2, 2.0])
W = np.array([0.3, -1.1, 0.7])


def programs(tf: Any) -> dict[str, Callable[[], tuple[Any, tuple[Any, ...], Any]]]:
    P: dict[str, Callable[[], tuple[Any, tuple[Any, ...], Any]]] = {}

    def cond_assign(sv: float) -> tuple[Any, tuple[Any, ...], Any]:
        v = tf.Variable(np.array([1.0, 2.0, 3.0]))

        @tf.function
        def f(x: Any, s: Any) -> Any:
            def t() -> Any:
                v.assign_add(x)
                return v.read_value() * x

            return tf.cond(s > 0, t, lambda: x * x)

        return f, (tf.constant(X), tf.constant(sv, tf.float64)), v

    P["cond_assign_pos"] = lambda: cond_assign(1.0)
    P["cond_assign_neg"] = lambda: cond_assign(-1.0)

    def cond_random() -> tuple[Any, tuple[Any, ...], Any]:
        @tf.function
        def f(x: Any, s: Any) -> Any:
            def t() -> Any:
                r = tf.raw_ops.RandomUniform(
                    shape=tf.constant([3]), dtype=tf.float64, seed=7, seed2=3
                )
                return r * x + tf.sin(x)

            return tf.cond(s > 0, t, lambda: tf.exp(x) * s)

        return f, (tf.constant(X), tf.constant(2.0, tf.float64)), None

    P["cond_random"] = cond_random

    def cond_random_two_outputs() -> tuple[Any, tuple[Any, ...], Any]:
        @tf.function
        def f(x: Any, s: Any) -> Any:
            def t() -> Any:
                r = tf.raw_ops.RandomStandardNormal(
                    shape=tf.constant([3]), dtype=tf.float64, seed=5, seed2=1
                )
                return r * tf.tanh(x), r * s

            def e() -> Any:
                return x * s, tf.exp(x)

            a, b = tf.cond(s > 0, t, e)
            return a * 2.0 + b

        return f, (tf.constant(X), tf.constant(1.5, tf.float64)), None

    P["cond_random_two_outputs"] = cond_random_two_outputs

    def nested_cond() -> tuple[Any, tuple[Any, ...], Any]:
        @tf.function
        def f(x: Any, s: Any) -> Any:
            def t() -> Any:
                def tt() -> Any:
                    r = tf.raw_ops.RandomUniform(
                        shape=tf.constant([3]), dtype=tf.float64, seed=11, seed2=2
                    )
                    return r * x * s

                return tf.cond(s > 1, tt, lambda: x * 3.0)

            return tf.cond(s > 0, t, lambda: x - s)

        return f, (tf.constant(X), tf.constant(2.5, tf.float64)), None

    P["nested_cond"] = nested_cond

    def cond_assign_then_random() -> tuple[Any, tuple[Any, ...], Any]:
        v = tf.Variable(np.array([0.5, 0.25, -1.0]))

        @tf.function
        def f(x: Any, s: Any) -> Any:
            def t() -> Any:
                v.assign_add(x * s)
                r = tf.raw_ops.RandomUniform(
                    shape=tf.constant([3]), dtype=tf.float64, seed=3, seed2=8
                )
                return v.read_value() * r * x

            y = tf.cond(s > 0, t, lambda: x * s)
            return y * tf.cos(x)

        return f, (tf.constant(X), tf.constant(0.75, tf.float64)), v

    P["cond_assign_then_random"] = cond_assign_then_random

    def while_random() -> tuple[Any, tuple[Any, ...], Any]:
        @tf.function
        def f(x: Any) -> Any:
            def body(i: Any, y: Any) -> Any:
                r = tf.raw_ops.RandomUniform(
                    shape=tf.constant([3]), dtype=tf.float64, seed=13, seed2=4
                )
                return i + 1, r * tf.sin(y) + y

            # one iteration: tfe draws a stateful random op's samples in
            # another order across iterations than TF (a forward difference,
            # not the gradient's); cond_in_while draws in two iterations
            _, y = tf.while_loop(lambda i, y: i < 1, body, [tf.constant(0), x])
            return y * 2.0

        return f, (tf.constant(X),), None

    P["while_random"] = while_random

    def while_assign() -> tuple[Any, tuple[Any, ...], Any]:
        v = tf.Variable(np.array([0.5, -0.25, 1.0]))

        @tf.function
        def f(x: Any, a: Any) -> Any:
            def body(i: Any, y: Any) -> Any:
                v.assign_add(y * 0.5)
                return i + 1, tf.reshape(v.read_value(), [3]) * y * a

            _, y = tf.while_loop(lambda i, y: i < 2, body, [tf.constant(0), x])
            return y

        return f, (tf.constant(X), tf.constant(0.8, tf.float64)), v

    P["while_assign"] = while_assign

    def cond_in_while() -> tuple[Any, tuple[Any, ...], Any]:
        @tf.function
        def f(x: Any) -> Any:
            def body(i: Any, y: Any) -> Any:
                def t() -> Any:
                    r = tf.raw_ops.RandomUniform(
                        shape=tf.constant([3]), dtype=tf.float64, seed=21, seed2=6
                    )
                    return r * tf.tanh(y)

                return i + 1, tf.cond(i > 0, t, lambda: y * 1.5)

            _, y = tf.while_loop(lambda i, y: i < 3, body, [tf.constant(0), x])
            return y

        return f, (tf.constant(X),), None

    P["cond_in_while"] = cond_in_while

    def nested_call_random() -> tuple[Any, tuple[Any, ...], Any]:
        @tf.function
        def inner(x: Any) -> Any:
            r = tf.raw_ops.RandomUniform(shape=tf.constant([3]), dtype=tf.float64, seed=2, seed2=5)
            return r * tf.sin(x)

        @tf.function
        def f(x: Any) -> Any:
            return inner(x) * x

        return f, (tf.constant(X),), None

    P["nested_call_random"] = nested_call_random
    return P
