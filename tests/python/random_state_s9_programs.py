"""Programs drawing from seeded stateful random ops (op-level seed and
seed2) in eager mode, in functions, in While/If bodies and in sessions.
Shared by tools/record_random_state_s9.py (run on TensorFlow 2.21) and
tests/python/test_random_state_s9.py (run on tfe_py).

TF keeps such an op's generator in its kernel instance: eager ops with
equal attrs share the context's cached kernel, while every node of a
function instantiation or a session's graph has a generator of its own
that lives as long as the instantiation / session. Each program uses its
own seed2 so that the eager kernel cache does not mix programs.

A program returns a list of 1-D float arrays (every draw, in call order).
TF's While runs iterations in parallel (parallel_iterations=10), so the
order in which iterations draw depends on thread timing there; the
recorder passes parallel_iterations=1 (draws in iteration order), which
is the order tfe's sequential loop gives."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Program = Callable[[], list[np.ndarray]]


def programs(tf: Any, while_kwargs: dict[str, Any] | None = None) -> dict[str, Program]:
    wk = dict(while_kwargs or {})
    session_cls = getattr(tf, "Session", None) or tf.compat.v1.Session
    P: dict[str, Program] = {}

    def ru(seed2: int, n: int = 3, dtype: Any = None) -> Any:
        return tf.raw_ops.RandomUniform(
            shape=[n], dtype=dtype or tf.float32, seed=7, seed2=seed2
        )

    def flat(xs: list[Any]) -> list[np.ndarray]:
        return [np.asarray(x.numpy() if hasattr(x, "numpy") else x).reshape(-1) for x in xs]

    def reg(fn: Program) -> Program:
        P[fn.__name__] = fn
        return fn

    @reg
    def eager_repeat() -> list[np.ndarray]:
        return flat([ru(1), ru(1), ru(1, n=5)])

    @reg
    def two_functions() -> list[np.ndarray]:
        f = tf.function(lambda: ru(2))
        g = tf.function(lambda: ru(2))
        return flat([f(), g(), f(), g(), ru(2)])

    @reg
    def same_function_twice_with_eager() -> list[np.ndarray]:
        f = tf.function(lambda: ru(3))
        return flat([ru(3), f(), ru(3), f(), f()])

    @reg
    def two_nodes_in_one_function() -> list[np.ndarray]:
        f = tf.function(lambda: (ru(4), ru(4) * 2.0))
        a, b = f()
        c, d = f()
        return flat([a, b, c, d])

    @reg
    def while_three_iterations() -> list[np.ndarray]:
        @tf.function
        def w() -> Any:
            z = tf.zeros([3])

            def body(i: Any, a0: Any, a1: Any, a2: Any) -> Any:
                r = ru(5)
                return (
                    i + 1,
                    tf.where(tf.equal(i, 0), r, a0),
                    tf.where(tf.equal(i, 1), r, a1),
                    tf.where(tf.equal(i, 2), r, a2),
                )

            out = tf.while_loop(
                lambda i, a0, a1, a2: i < 3, body, [tf.constant(0), z, z, z], **wk
            )
            return out[1], out[2], out[3]

        return flat([*w(), *w()])

    @reg
    def if_branches() -> list[np.ndarray]:
        @tf.function
        def c(p: Any) -> Any:
            return tf.cond(p, lambda: ru(6), lambda: ru(6) * 10.0)

        t, f = tf.constant(True), tf.constant(False)
        return flat([c(t), c(t), c(f), c(t), c(f)])

    @reg
    def session_run_twice() -> list[np.ndarray]:
        g = tf.Graph()
        with g.as_default():
            r = ru(8)
            r2 = ru(8) + 1.0
        out: list[Any] = []
        with session_cls(graph=g) as s:
            out += [s.run(r), s.run(r), s.run(r2)]
        with session_cls(graph=g) as s:
            out += [s.run(r)]
        return flat(out)

    @reg
    def session_different_fetches() -> list[np.ndarray]:
        # TF keeps a session's stateful kernels across runs whatever they
        # fetch: r continues after a run that fetched r * 2.
        g = tf.Graph()
        with g.as_default():
            r = ru(10)
            q = r * 2.0
            r2 = ru(10)
        with session_cls(graph=g) as s:
            a = s.run(r)
            b, c = s.run([q, r2])
            d = s.run(r)
        return flat([a, b, c, d])

    @reg
    def function_called_twice_inside_a_function() -> list[np.ndarray]:
        f = tf.function(lambda: ru(11))

        @tf.function
        def outer() -> Any:
            return f(), f()

        return flat([*outer(), *outer(), f()])

    @reg
    def other_seeded_ops_in_two_functions() -> list[np.ndarray]:
        def draws() -> Any:
            return (
                tf.raw_ops.RandomStandardNormal(shape=[3], dtype=tf.float32, seed=7, seed2=9),
                tf.raw_ops.TruncatedNormal(shape=[3], dtype=tf.float64, seed=7, seed2=9),
                tf.cast(
                    tf.raw_ops.RandomUniformInt(
                        shape=[4], minval=tf.constant(0), maxval=tf.constant(100), seed=7, seed2=9
                    ),
                    tf.float64,
                ),
                tf.cast(
                    tf.raw_ops.Multinomial(
                        logits=tf.constant([[0.1, 0.5, 1.0, -0.2]]), num_samples=4, seed=7, seed2=9
                    ),
                    tf.float64,
                ),
                tf.raw_ops.RandomGamma(
                    shape=tf.constant([3]), alpha=tf.constant([2.0]), seed=7, seed2=9
                ),
                tf.raw_ops.RandomShuffle(
                    value=tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]), seed=7, seed2=9
                ),
            )

        f = tf.function(draws)
        g = tf.function(draws)
        return flat([*f(), *g(), *f()])

    return P
