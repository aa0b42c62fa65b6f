"""Programs differentiating through tf.function bodies: custom gradients
traced into a function and stateful bodies. Shared by
tools/record_custom_grad_function.py (run on TensorFlow 2.21) and
tests/python/test_custom_grad_function.py (run on tfe_py). Each program
takes the module (``tensorflow`` or ``tfe_py``) and returns a dict of
named float64 numpy arrays."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

X0 = np.array([0.5, -1.25, 2.0])
W0 = np.array([1.5, -0.5, 0.25])


def _np(t: Any) -> Any:
    return np.asarray(t.numpy(), dtype=np.float64)


def cg_simple(tf: Any) -> dict[str, Any]:
    @tf.custom_gradient
    def clipped_square(x: Any) -> Any:
        def grad(dy: Any) -> Any:
            return tf.clip_by_value(dy * 2.0 * x, -1.0, 1.0)

        return x * x, grad

    @tf.function
    def f(x: Any, w: Any) -> Any:
        return tf.reduce_sum(clipped_square(x) * w)

    x = tf.constant(X0)
    w = tf.constant(W0)
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = f(x, w)
    gx, gw = tape.gradient(y, [x, w])
    return {"y": _np(y), "gx": _np(gx), "gw": _np(gw)}


def cg_intermediate_and_two_outputs(tf: Any) -> dict[str, Any]:
    @tf.custom_gradient
    def two(x: Any, z: Any) -> Any:
        e = tf.exp(x)

        def grad(de: Any, ds: Any) -> Any:
            return de * e * 0.5 + ds, ds * 3.0

        return (e, tf.sin(z)), grad

    @tf.function
    def f(x: Any, z: Any) -> Any:
        e, s = two(x, z)
        return tf.reduce_sum(e * W0) + tf.reduce_sum(s * s)

    x = tf.constant(X0)
    z = tf.constant(W0)
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = f(x, z)
    gx, gz = tape.gradient(y, [x, z])
    return {"y": _np(y), "gx": _np(gx), "gz": _np(gz)}


def cg_unused_output(tf: Any) -> dict[str, Any]:
    @tf.custom_gradient
    def two(x: Any) -> Any:
        def grad(da: Any, db: Any) -> Any:
            return da * 2.0 + db * 5.0

        return (x * 2.0, x * 3.0), grad

    @tf.function
    def f(x: Any) -> Any:
        a, _ = two(x)
        return tf.reduce_sum(a)

    x = tf.constant(X0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return {"y": _np(y), "gx": _np(tape.gradient(y, x))}


def cg_variables(tf: Any) -> dict[str, Any]:
    v = tf.Variable(np.array([2.0, -1.0, 0.5]))

    @tf.custom_gradient
    def scale(x: Any) -> Any:
        r = x * v

        def grad(dy: Any, variables: Any = None) -> Any:
            assert variables is not None and len(variables) == 1
            return dy * v * 10.0, [dy * x * 100.0]

        return r, grad

    @tf.function
    def f(x: Any) -> Any:
        return tf.reduce_sum(scale(x) * W0)

    x = tf.constant(X0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    gx, gv = tape.gradient(y, [x, v])
    return {"y": _np(y), "gx": _np(gx), "gv": _np(gv)}


def cg_nested(tf: Any) -> dict[str, Any]:
    @tf.custom_gradient
    def inner(x: Any) -> Any:
        def grad(dy: Any) -> Any:
            return dy * 7.0

        return x * x, grad

    @tf.custom_gradient
    def outer(x: Any) -> Any:
        y = inner(x) * 2.0

        def grad(dy: Any) -> Any:
            return dy * 3.0 * x

        return y, grad

    @tf.function
    def g(x: Any) -> Any:
        return inner(x) * x

    @tf.function
    def f(x: Any) -> Any:
        return tf.reduce_sum(outer(x) * W0) + tf.reduce_sum(g(x))

    x = tf.constant(X0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return {"y": _np(y), "gx": _np(tape.gradient(y, x))}


def cg_second_order(tf: Any) -> dict[str, Any]:
    @tf.custom_gradient
    def cube(x: Any) -> Any:
        def grad(dy: Any) -> Any:
            return dy * 3.0 * x * x

        return x * x * x, grad

    @tf.function
    def f(x: Any) -> Any:
        return tf.reduce_sum(cube(x) * W0)

    x = tf.constant(X0)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = f(x)
        g1 = t1.gradient(y, x)
    g2 = t2.gradient(g1, x)
    return {"y": _np(y), "g1": _np(g1), "g2": _np(g2)}


def cg_gradients_inside(tf: Any) -> dict[str, Any]:
    """tf.gradients inside the function (the symbolic gradient of a traced
    custom gradient), and a tape outside differentiating the result."""

    @tf.custom_gradient
    def sq(x: Any) -> Any:
        def grad(dy: Any) -> Any:
            return dy * 4.0 * x * x

        return x * x, grad

    @tf.function
    def f(x: Any) -> Any:
        y = tf.reduce_sum(sq(x) * W0)
        return tf.gradients(y, x)[0]

    x = tf.constant(X0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        g = f(x)
        s = tf.reduce_sum(g)
    return {"g": _np(g), "gg": _np(tape.gradient(s, x))}


def cg_tape_inside_and_outside(tf: Any) -> dict[str, Any]:
    """A GradientTape inside the function (with a variable and a custom
    gradient) and one outside differentiating its result."""
    v = tf.Variable(np.array([1.0, 2.0, 3.0]))

    @tf.custom_gradient
    def sq(x: Any) -> Any:
        def grad(dy: Any) -> Any:
            return dy * 4.0 * x * x

        return x * x, grad

    @tf.function
    def f(x: Any) -> Any:
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(sq(x) * v)
        gx, gv = t.gradient(y, [x, v])
        return gx, gv

    x = tf.constant(X0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        gx, gv = f(x)
        s = tf.reduce_sum(gx * W0)
    return {"gx": _np(gx), "gv": _np(gv), "outer": _np(outer.gradient(s, x))}


def train_step_in_function(tf: Any) -> dict[str, Any]:
    """The usual TF2 training step: a tape inside a function, the update
    applied with assign_sub, three steps."""
    w = tf.Variable(np.array([[0.5, -0.25], [1.0, 0.75], [-0.5, 0.25]]))
    b = tf.Variable(np.array([0.1, -0.2]))
    xs = tf.constant(np.array([[1.0, 2.0, -1.0], [0.5, -1.5, 2.0]]))
    ys = tf.constant(np.array([[1.0, 0.0], [0.0, 1.0]]))

    @tf.function
    def step() -> Any:
        with tf.GradientTape() as tape:
            pred = tf.tanh(tf.matmul(xs, w) + b)
            loss = tf.reduce_sum((pred - ys) * (pred - ys))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(gw * 0.1)
        b.assign_sub(gb * 0.1)
        return loss

    losses = [_np(step()) for _ in range(3)]
    return {"losses": np.array(losses), "w": _np(w.read_value()), "b": _np(b.read_value())}


def recompute_in_function(tf: Any) -> dict[str, Any]:
    def block(x: Any) -> Any:
        return tf.sin(x) * tf.exp(x)

    rblock = tf.recompute_grad(block)

    @tf.function
    def f(x: Any) -> Any:
        return tf.reduce_sum(rblock(x) * W0)

    x = tf.constant(X0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return {"y": _np(y), "gx": _np(tape.gradient(y, x))}


def stateless_random_body(tf: Any) -> dict[str, Any]:
    @tf.function
    def f(x: Any) -> Any:
        r = tf.random.stateless_uniform([3], seed=[7, 11], dtype=tf.float64)
        return tf.reduce_sum(x * r * x), r

    x = tf.constant(X0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y, r = f(x)
    return {"y": _np(y), "r": _np(r), "gx": _np(tape.gradient(y, x))}


def stateful_random_body(tf: Any) -> dict[str, Any]:
    """The gradient uses the random value the forward drew (returned too):
    d(sum(x * r * x))/dx == 2 * r * x. Values vary per run: the test checks
    the relation, the recording only that TF satisfies it."""

    @tf.function
    def f(x: Any) -> Any:
        r = tf.random.uniform([3], dtype=tf.float64)
        return tf.reduce_sum(x * r * x), r

    x = tf.constant(X0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y, r = f(x)
    gx = tape.gradient(y, x)
    return {"rel_err": np.abs(_np(gx) - 2.0 * _np(r) * X0).max(keepdims=True)}


def stateful_random_second_order(tf: Any) -> dict[str, Any]:
    """Second order through a random body: d2(sum(sin(x) * x * r))/dx2 is
    r * (2 cos(x) - x sin(x)) with the r the call drew."""

    @tf.function
    def f(x: Any) -> Any:
        r = tf.random.uniform([3], dtype=tf.float64)
        return tf.reduce_sum(tf.sin(x) * x * r), r

    x = tf.constant(X0)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y, r = f(x)
        g1 = t1.gradient(y, x)
    g2 = t2.gradient(g1, x)
    rv = _np(r)
    e1 = np.abs(_np(g1) - rv * (np.sin(X0) + X0 * np.cos(X0))).max()
    e2 = np.abs(_np(g2) - rv * (2.0 * np.cos(X0) - X0 * np.sin(X0))).max()
    return {"ok": np.array([max(e1, e2) < 1e-12], dtype=np.float64)}


def variable_assigned_after_call(tf: Any) -> dict[str, Any]:
    v = tf.Variable(np.array([2.0, -1.0, 0.5]))

    @tf.function
    def f(x: Any) -> Any:
        return tf.reduce_sum(tf.sin(x * v))

    x = tf.constant(X0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
    v.assign(np.array([-3.0, 0.25, 4.0]))
    gx, gv = tape.gradient(y, [x, v])
    return {"y": _np(y), "gx": _np(gx), "gv": _np(gv)}


def variable_assigned_inside(tf: Any) -> dict[str, Any]:
    v = tf.Variable(np.array([2.0, -1.0, 0.5]))

    @tf.function
    def f(x: Any) -> Any:
        a = v.read_value()
        v.assign_add(np.array([1.0, 1.0, 1.0]))
        return tf.reduce_sum(x * a * x) + tf.reduce_sum(v.read_value() * x)

    x = tf.constant(X0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return {"y": _np(y), "gx": _np(tape.gradient(y, x)), "v": _np(v.read_value())}


def dropout_like_body(tf: Any) -> dict[str, Any]:
    """A stateful random mask inside a function called twice under one
    tape: each call's gradient uses its own mask."""

    @tf.function
    def f(x: Any) -> Any:
        m = tf.cast(tf.random.uniform([3], dtype=tf.float64) > 0.5, tf.float64)
        return x * m * 2.0, m

    x = tf.constant(X0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        a, m1 = f(x)
        b, m2 = f(x)
        y = tf.reduce_sum(a * W0) + tf.reduce_sum(b * b)
    gx = tape.gradient(y, x)
    want = _np(m1) * 2.0 * W0 + 2.0 * (X0 * _np(m2) * 2.0) * _np(m2) * 2.0
    return {"rel_err": np.abs(_np(gx) - want).max(keepdims=True)}


PROGRAMS: dict[str, Callable[[Any], dict[str, Any]]] = {
    f.__name__: f
    for f in [
        cg_simple,
        cg_intermediate_and_two_outputs,
        cg_unused_output,
        cg_variables,
        cg_nested,
        cg_second_order,
        cg_gradients_inside,
        cg_tape_inside_and_outside,
        train_step_in_function,
        recompute_in_function,
        stateless_random_body,
        stateful_random_body,
        stateful_random_second_order,
        variable_assigned_after_call,
        variable_assigned_inside,
        dropout_like_body,
    ]
}
