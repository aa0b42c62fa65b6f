"""Records TF 2.21's tape gradients through tf.function calls for
tests/python/test_gradients_function.py.

Run with the TF 2.21 python (outside the tests):

    /work/tfvenv/bin/python tools/record_gradients_function.py

Each case is a small float64 program (a function with math, nested
functions, cond and while_loop inside, a Dense layer's variables, a
variable assignment, second order); the test builds the same program with
tfe_py and compares. Writes tests/data/gradients_function_tf221.json.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "python"))
from grad_func_programs import LIST_INPUTS, TA_INPUTS, list_programs, ta_program

X = np.array([0.5, -1.25, 2.0], np.float64)
XM = np.array([[0.5, -1.0, 1.5], [2.0, 0.25, -0.75]], np.float64)
W0 = np.array([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], np.float64)
B0 = np.array([0.05, -0.1], np.float64)
WEIGHTS = np.array([[1.0, -2.0], [0.5, 3.0]], np.float64)


def lst(t: Any) -> Any:
    return np.asarray(t).tolist()


def case_simple() -> Any:
    @tf.function
    def f(x: Any) -> Any:
        return x * x + tf.sin(x)

    x = tf.constant(X)
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    return {"y": lst(y), "dx": lst(t.gradient(y, x))}


def case_nested() -> Any:
    @tf.function
    def inner(x: Any) -> Any:
        return tf.exp(x) * 0.5

    @tf.function
    def outer(x: Any) -> Any:
        return inner(x) * x + inner(x * x)

    x = tf.constant(X)
    with tf.GradientTape() as t:
        t.watch(x)
        y = outer(x)
    return {"y": lst(y), "dx": lst(t.gradient(y, x))}


def case_cond() -> Any:
    @tf.function
    def f(x: Any, s: Any) -> Any:
        return tf.cond(s > 0, lambda: x * x * s, lambda: tf.tanh(x) - s)

    x = tf.constant(X)
    out = {}
    for name, sv in (("pos", 2.0), ("neg", -3.0)):
        s = tf.constant(sv, tf.float64)
        with tf.GradientTape() as t:
            t.watch([x, s])
            y = f(x, s)
        dx, ds = t.gradient(y, [x, s])
        out[name] = {"y": lst(y), "dx": lst(dx), "ds": lst(ds)}
    return out


def case_while() -> Any:
    @tf.function
    def f(x: Any, a: Any) -> Any:
        def body(i: Any, y: Any) -> Any:
            return i + 1, tf.sin(y) * a + x

        _, y = tf.while_loop(lambda i, y: i < 4, body, [tf.constant(0), x])
        return y

    x = tf.constant(X)
    a = tf.constant(1.5, tf.float64)
    with tf.GradientTape() as t:
        t.watch([x, a])
        y = f(x, a)
    dx, da = t.gradient(y, [x, a])
    return {"y": lst(y), "dx": lst(dx), "da": lst(da)}


def case_dense() -> Any:
    w = tf.Variable(W0)
    b = tf.Variable(B0)

    @tf.function
    def layer(x: Any) -> Any:
        return tf.tanh(tf.matmul(x, w) + b)

    x = tf.constant(XM)
    layer(x)  # traced outside the tape
    with tf.GradientTape() as t:
        t.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y * WEIGHTS)
    dx, dw, db = t.gradient(loss, [x, w, b])
    return {"loss": float(loss), "dx": lst(dx), "dw": lst(dw), "db": lst(db)}


def case_assign() -> Any:
    v = tf.Variable(np.zeros(3, np.float64))

    @tf.function
    def f(x: Any) -> Any:
        v.assign_add(x)
        return x * x * 3.0

    x = tf.constant(X)
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    dx = t.gradient(y, x)
    return {"dx": lst(dx), "v": lst(v.numpy())}


def case_second_order() -> Any:
    @tf.function
    def f(x: Any) -> Any:
        return tf.sin(x) * x * x

    x = tf.constant(X)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = f(x)
        g = t1.gradient(y, x)
    return {"dx": lst(g), "d2x": lst(t2.gradient(g, x))}


def case_while_variable() -> Any:
    w = tf.Variable(np.array([1.1, 0.9, -0.7], np.float64))

    @tf.function
    def f(x: Any) -> Any:
        def body(i: Any, y: Any) -> Any:
            return i + 1, y * w + 0.1

        _, y = tf.while_loop(lambda i, y: i < 3, body, [tf.constant(0), x])
        return tf.reduce_sum(y * y)

    x = tf.constant(X)
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    dx, dw = t.gradient(y, [x, w])
    return {"y": float(y), "dx": lst(dx), "dw": lst(dw)}


def case_cond_variable() -> Any:
    v = tf.Variable(np.array([1.5, -0.5, 2.0], np.float64))

    @tf.function
    def f(x: Any, s: Any) -> Any:
        return tf.cond(s > 0, lambda: x * v.read_value(), lambda: x * 2.0)

    x = tf.constant(X)
    out = {}
    for name, sv in (("pos", 1.0), ("neg", -1.0)):
        with tf.GradientTape() as t:
            t.watch(x)
            y = f(x, tf.constant(sv, tf.float64))
        dx, dv = t.gradient(y, [x, v])
        out[name] = {"dx": lst(dx), "dv": None if dv is None else lst(dv)}
    return out


def case_lists() -> Any:
    out = {}
    progs = list_programs(tf.raw_ops, tf.constant, tf.float64)
    for name, (fn, args) in progs.items():
        xs = [tf.constant(LIST_INPUTS[a]) for a in args]
        with tf.GradientTape() as t:
            t.watch(xs)
            loss = fn(*xs)
        gs = t.gradient(loss, xs)
        out[name] = {"loss": float(loss), "grads": [lst(g) for g in gs]}
    return out


def case_tensor_array() -> Any:
    """TF's TensorArray gradients need a TF1 graph (its eager tape cannot
    name a gradient source): run last, it turns control flow v2 off."""
    tf.compat.v1.disable_control_flow_v2()
    g = tf.Graph()
    with g.as_default():
        prog = ta_program(tf.raw_ops, tf.constant, tf.float32)
        xs = [tf.constant(TA_INPUTS["x"]), tf.constant(TA_INPUTS["y"])]
        loss = prog(*xs)
        grads = tf.gradients(loss, xs)
        with tf.compat.v1.Session() as sess:
            lv, gv = sess.run([loss, grads])
    return {"loss": float(lv), "grads": [lst(v) for v in gv]}


def main() -> None:
    data = {
        "x": lst(X),
        "xm": lst(XM),
        "w0": lst(W0),
        "b0": lst(B0),
        "weights": lst(WEIGHTS),
        "simple": case_simple(),
        "nested": case_nested(),
        "cond": case_cond(),
        "while": case_while(),
        "dense": case_dense(),
        "assign": case_assign(),
        "second_order": case_second_order(),
        "while_variable": case_while_variable(),
        "lists": case_lists(),
        "cond_variable": case_cond_variable(),
        "tensor_array": case_tensor_array(),
    }
    path = os.path.join(
        os.path.dirname(__file__), "..", "tests", "data", "gradients_function_tf221.json"
    )
    with open(path, "w") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
