"""Gradients through custom devices: ops placed on the parallel device and
on a Python custom device are recorded by the C tape with the handles the
caller sees, their gradient ops run on the same device, and the gradient of
each component equals the gradient computed on one CPU (issue 17, "works
with custom devices")."""

from __future__ import annotations

import gc
from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import ops
from tfe_py.context import Context, default_context
from tfe_py.custom_device import CustomDevice
from tfe_py.eager import constant

LOCAL = "/job:localhost/replica:0/task:0"


@pytest.fixture(autouse=True)
def _default_exists() -> Any:
    default_context()
    yield
    gc.collect()


def _model(x: Any, w: Any, b: Any) -> Any:
    h = ops.Tanh(ops.BiasAdd(ops.MatMul(x, w), b))
    return ops.Sum(h * h + ops.Sigmoid(x @ w), [0, 1])


def _cpu_grads(ctx: Context, x: np.ndarray, w: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
    with ctx.device("CPU:0"):
        xs, ws, bs = constant(x), constant(w), constant(b)
        with tf.GradientTape() as tape:
            tape.watch([xs, ws, bs])
            loss = _model(xs, ws, bs)
        return [g.numpy() for g in tape.gradient(loss, [xs, ws, bs])]


@pytest.mark.parametrize("n", [2, 3])
def test_parallel_device_gradient_per_component(n: int) -> None:
    rng = np.random.default_rng(n)
    xs = [rng.standard_normal((4, 3)) for _ in range(n)]
    w_v = rng.standard_normal((3, 2))
    b_v = rng.standard_normal(2)
    with Context(num_cpu_devices=n) as ctx:
        pd = tf.parallel_device([f"CPU:{i}" for i in range(n)])
        with pd:
            x = pd.pack(xs)
            w = constant(w_v)  # broadcast to every component
            b = constant(b_v)
            with tf.GradientTape() as tape:
                tape.watch([x, w, b])
                loss = _model(x, w, b)
        # The gradient is asked outside the device scope: the tape places
        # the gradient ops of ops that ran on the device there itself.
        grads = tape.gradient(loss, [x, w, b])
        assert all(g.device == pd.name for g in grads)
        for i in range(n):
            want = _cpu_grads(ctx, xs[i], w_v, b_v)
            for g, wv in zip(grads, want, strict=True):
                got = pd.unpack(g)[i]
                assert got.device == pd.components[i]
                np.testing.assert_allclose(got.numpy(), wv, rtol=1e-12, atol=1e-12)


def test_parallel_device_data_parallel_step() -> None:
    # One variable per component, per-component gradients, then an
    # all-reduce: the mean gradient of the two halves of a batch.
    rng = np.random.default_rng(7)
    x_all = rng.standard_normal((8, 3)).astype(np.float32)
    y_all = rng.standard_normal((8, 1)).astype(np.float32)
    w0 = rng.standard_normal((3, 1)).astype(np.float32)
    with Context(num_cpu_devices=2):
        pd = tf.parallel_device(["CPU:0", "CPU:1"])
        var = pd.variable(w0)
        x = pd.pack([x_all[:4], x_all[4:]])
        y = pd.pack([y_all[:4], y_all[4:]])
        with pd:
            with tf.GradientTape() as tape:
                tape.watch(var)
                w = ops.ReadVariableOp(var, dtype=tf.float32)
                err = ops.MatMul(x, w) - y
                loss = ops.Mean(err * err, [0, 1])
            (g,) = tape.gradient(loss, [var])
            mean = pd.all_reduce(g, "Add", "Div")
        parts = [p.numpy() for p in pd.unpack(mean)]
    halves = []
    for xs, ys in ((x_all[:4], y_all[:4]), (x_all[4:], y_all[4:])):
        halves.append(2 * xs.T @ (xs @ w0 - ys) / 4)
    want = (halves[0] + halves[1]) / 2
    for p in parts:
        np.testing.assert_allclose(p, want, rtol=1e-5, atol=1e-6)


def test_parallel_device_second_derivative() -> None:
    xs = [np.array([0.3, -0.8]), np.array([1.1, 0.05])]
    with Context(num_cpu_devices=2):
        pd = tf.parallel_device(["CPU:0", "CPU:1"])
        with pd:
            x = pd.pack(xs)
            with tf.GradientTape() as outer:
                outer.watch(x)
                with tf.GradientTape() as inner:
                    inner.watch(x)
                    y = ops.Tanh(x)
                g = inner.gradient(y, x)
            h = outer.gradient(g, x)
        for i, xv in enumerate(xs):
            t = np.tanh(xv)
            np.testing.assert_allclose(pd.unpack(g)[i].numpy(), 1 - t * t)
            np.testing.assert_allclose(pd.unpack(h)[i].numpy(), -2 * t * (1 - t * t))


def test_custom_gradient_on_the_parallel_device() -> None:
    @tf.custom_gradient
    def clipped_square(x: Any) -> Any:
        def grad(dy: Any) -> Any:
            # Runs under the forward's device scope (the parallel device).
            return tf.clip_by_value(dy * 2.0 * x, -1.5, 1.5)

        return x * x, grad

    xs = [np.array([0.5, 2.0, -3.0]), np.array([-0.25, 0.5, 1.0])]
    with Context(num_cpu_devices=2):
        pd = tf.parallel_device(["CPU:0", "CPU:1"])
        with pd:
            x = pd.pack(xs)
            with tf.GradientTape() as tape:
                tape.watch(x)
                loss = ops.Sum(clipped_square(x), [0])
        g = tape.gradient(loss, x)
        for i, xv in enumerate(xs):
            np.testing.assert_allclose(pd.unpack(g)[i].numpy(), np.clip(2 * xv, -1.5, 1.5))


class Tracer(CustomDevice):
    """A pass-through device (the base class) that logs the ops it runs."""

    def __init__(self) -> None:
        super().__init__()
        self.ops: list[str] = []

    def execute(self, op: Any, inputs: Any) -> Any:
        self.ops.append(op.name)
        return super().execute(op, inputs)


def test_python_custom_device_gradient_ops_run_on_the_device() -> None:
    rng = np.random.default_rng(3)
    x_v = rng.standard_normal((4, 3))
    w_v = rng.standard_normal((3, 2))
    b_v = rng.standard_normal(2)
    ctx = Context()
    tracer = Tracer()
    name = ctx.register_custom_device(tracer, "CUSTOM:0")
    try:
        with ctx.as_default():
            with ctx.device("CUSTOM:0"):
                x, w = constant(x_v), constant(w_v)
            b = constant(b_v)  # a host tensor: the device passes it through
            with tf.GradientTape() as tape:
                tape.watch([x, w, b])
                loss = _model(x, w, b)  # placed on the device by its inputs
            forward = list(tracer.ops)
            assert "MatMul" in forward and loss.device == name
            gx, gw, gb = tape.gradient(loss, [x, w, b])
            backward = tracer.ops[len(forward) :]
            # The gradient ops ran on the device (TanhGrad, MatMul, ...).
            assert "MatMul" in backward and len(backward) > 5
            assert gx.device == name and gw.device == name
            want = _cpu_grads(ctx, x_v, w_v, b_v)
            for got, wv in zip((gx, gw, gb), want, strict=True):
                np.testing.assert_allclose(got.numpy(), wv, rtol=1e-12, atol=1e-12)
            for t in (x, w, b, loss, gx, gw, gb):
                t.close()
    finally:
        ctx.close()


def test_gradient_through_a_copy_off_the_device() -> None:
    # An op placed on the CPU with an input on the custom device copies the
    # input off first; the gradient still reaches the device tensor.
    ctx = Context()
    tracer = Tracer()
    ctx.register_custom_device(tracer, "CUSTOM:0")
    try:
        with ctx.as_default():
            with ctx.device("CUSTOM:0"):
                x = constant(np.array([0.5, -1.0, 2.0]))
            with tf.GradientTape() as tape:
                tape.watch(x)
                with ctx.device("CPU:0"):
                    y = ops.Sum(ops.Sin(x), [0])
            assert tracer.ops == []  # nothing ran on the device
            g = tape.gradient(y, x)
            np.testing.assert_allclose(g.numpy(), np.cos([0.5, -1.0, 2.0]))
            for t in (x, y, g):
                t.close()
    finally:
        ctx.close()
