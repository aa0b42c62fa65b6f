"""tfe_py.custom_gradient and tfe_py.recompute_grad (TF's tf.custom_gradient
and tf.recompute_grad) on the C tape's custom records
(TFE_GradientTapeRecordCustom), with the behaviour checked against TF 2.21:
values, several outputs (zeros for an unused one), nested tapes
(higher-order gradients), variables (the ``variables=`` protocol and TF's
errors), exceptions raised by grad_fn, stop_recording / stop_gradient, the
lifetime of the Python closure C holds, and the graph case (a
tfe_py.function trace: the traced grad_fn is the gradient)."""

from __future__ import annotations

import gc
from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import errors
from tfe_py._ffi import lib


@pytest.fixture(autouse=True)
def _collect() -> Any:
    yield
    gc.collect()


def _closures() -> int:
    """How many Python closures C holds (tfe_py.custom_gradient is the
    decorator; the module is reached through importlib)."""
    import importlib

    return len(importlib.import_module("tfe_py.custom_gradient")._closures)


@tf.custom_gradient
def clipped_square(x: Any) -> Any:
    def grad(dy: Any) -> Any:
        return tf.clip_by_value(dy * 2.0 * x, -1.0, 1.0)

    return x * x, grad


@tf.custom_gradient
def cube(x: Any) -> Any:
    def grad(dy: Any) -> Any:
        return dy * 3.0 * x * x

    return x * x * x, grad


def test_clipped_gradient_values() -> None:
    for dtype in (np.float32, np.float64):
        x = tf.constant(np.array([0.25, 2.0, -3.0], dtype))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = clipped_square(x)
            loss = tf.reduce_sum(y)
        np.testing.assert_allclose(y.numpy(), [0.0625, 4.0, 9.0])
        g = tape.gradient(loss, x)
        assert g.dtype == x.dtype
        np.testing.assert_allclose(g.numpy(), [0.5, 1.0, -1.0])


def test_name_is_the_decorator_and_the_module_is_callable() -> None:
    import importlib

    mod = importlib.import_module("tfe_py.custom_gradient")
    assert tf.custom_gradient is mod.custom_gradient
    # `import tfe_py.custom_gradient` may bind the module to the package
    # attribute; it decorates all the same.
    wrapped = mod(lambda x: (x * 2.0, lambda dy: dy * 7.0))
    x = tf.constant([1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = wrapped(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [7.0])
    assert tf.custom_gradient() is tf.custom_gradient  # @custom_gradient() works too


def test_several_outputs_and_zeros_for_an_unused_one() -> None:
    seen: list[Any] = []

    @tf.custom_gradient
    def two(x: Any) -> Any:
        def grad(dy1: Any, dy2: Any) -> Any:
            seen.append(dy2.numpy())
            return dy1 * 10.0 + dy2

        return (x * 1.0, x * 2.0), grad

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        a, b = two(x)
    # TF: the unused output's gradient is zeros.
    np.testing.assert_allclose(tape.gradient(a, x).numpy(), [10.0, 10.0])
    np.testing.assert_array_equal(seen[0], [0.0, 0.0])
    np.testing.assert_allclose(b.numpy(), [2.0, 4.0])


def test_output_used_twice_and_mixed_with_ordinary_ops() -> None:
    x = tf.constant([0.5, 1.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = clipped_square(x)
        loss = tf.reduce_sum(y * y + y + tf.sin(x))
    yv = x.numpy() ** 2
    dy = 2 * yv + 1
    want = np.clip(dy * 2 * x.numpy(), -1, 1) + np.cos(x.numpy())
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), want, rtol=1e-6)


def test_higher_order_gradients() -> None:
    x = tf.constant([0.5, -1.0, 2.0], tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = cube(x)
        g = inner.gradient(y, x)
    np.testing.assert_allclose(g.numpy(), 3 * x.numpy() ** 2)
    np.testing.assert_allclose(outer.gradient(g, x).numpy(), 6 * x.numpy())


def test_hessian_vector_product_through_output_gradients() -> None:
    # The upstream gradient grad_fn receives is itself recorded by the
    # outer tape (same handle): d/dx (dy * 3x^2) with dy = x.
    x = tf.constant([1.0, 2.0], tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = cube(x)
        g = inner.gradient(y, x, output_gradients=x * 1.0)  # x * 3x^2
    np.testing.assert_allclose(g.numpy(), 3 * x.numpy() ** 3)
    np.testing.assert_allclose(outer.gradient(g, x).numpy(), 9 * x.numpy() ** 2)


def test_nested_inputs_and_integer_inputs() -> None:
    @tf.custom_gradient
    def f(pair: Any, n: Any) -> Any:
        a, b = pair

        def grad(dy: Any) -> Any:
            return [dy * 2.0, dy * 3.0], None

        return a * b * tf.cast(n, tf.float32), grad

    a = tf.constant([1.0, 2.0])
    b = tf.constant([3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = f([a, b], tf.constant(2))
    ga, gb = tape.gradient(y, [a, b])
    np.testing.assert_allclose(ga.numpy(), [2.0, 2.0])
    np.testing.assert_allclose(gb.numpy(), [3.0, 3.0])
    np.testing.assert_allclose(y.numpy(), [6.0, 16.0])


def test_variables_protocol() -> None:
    v = tf.Variable([1.0, 2.0, 3.0])
    frozen = tf.Variable([5.0, 5.0, 5.0], trainable=False)
    got: list[Any] = []

    @tf.custom_gradient
    def scale(x: Any) -> Any:
        out = x * v * frozen

        def grad(dy: Any, variables: Any = None) -> Any:
            got.append(variables)
            return dy * 10.0, [dy * 100.0]

        return out, grad

    x = tf.constant([1.0, 1.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scale(x)
    gx, gv = tape.gradient(y, [x, v])
    np.testing.assert_allclose(gx.numpy(), [10.0] * 3)
    np.testing.assert_allclose(gv.numpy(), [100.0] * 3)
    assert len(got[0]) == 1 and got[0][0] is v  # trainable ones only


def test_variables_errors_as_in_tf() -> None:
    v = tf.Variable([1.0, 2.0])

    @tf.custom_gradient
    def novars(x: Any) -> Any:
        return x * v, lambda dy: dy

    x = tf.constant([1.0, 1.0])
    with pytest.raises(TypeError, match="must accept keyword argument 'variables'"):
        with tf.GradientTape() as tape:
            tape.watch(x)
            novars(x)

    @tf.custom_gradient
    def short(x: Any) -> Any:
        def grad(dy: Any, variables: Any = None) -> Any:
            return dy, []

        return x * v, grad

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = short(x)
    with pytest.raises(ValueError, match="Must return gradient for each variable"):
        tape.gradient(y, [x, v])


def test_wrong_number_of_gradients() -> None:
    @tf.custom_gradient
    def wrongn(x: Any) -> Any:
        return x * 1.0, lambda dy: (dy, dy)

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = wrongn(x)
    with pytest.raises(
        ValueError,
        match="custom_gradient function expected to return 1 gradients, but returned 2",
    ):
        tape.gradient(y, x)


def test_grad_fn_exception_is_the_gradient_calls_exception() -> None:
    class Boom(Exception):
        pass

    calls = []

    @tf.custom_gradient
    def bad(x: Any) -> Any:
        def grad(dy: Any) -> Any:
            calls.append(1)
            raise Boom("grad_fn failed")

        return x * 2.0, grad

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = bad(x)
        z = tf.reduce_sum(x * x)
    with pytest.raises(Boom, match="grad_fn failed"):
        tape.gradient(y, x)
    # The tape still works, and nothing stale is left for the next call.
    np.testing.assert_allclose(tape.gradient(z, x).numpy(), [2.0, 4.0])
    with pytest.raises(Boom):
        tape.gradient(y, x)
    assert len(calls) == 2
    # An OpError raised inside grad_fn keeps its class.
    @tf.custom_gradient
    def op_error(x: Any) -> Any:
        def grad(dy: Any) -> Any:
            return tf.reshape(dy, [7])  # InvalidArgumentError from the op

        return x * 2.0, grad

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = op_error(x)
    with pytest.raises(errors.InvalidArgumentError):
        tape.gradient(y, x)


def test_stop_recording_and_stop_gradient() -> None:
    @tf.custom_gradient
    def ident(x: Any) -> Any:
        return tf.identity(x), lambda dy: dy * 5.0

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        with tape.stop_recording():
            a = ident(x)
        b = tf.stop_gradient(ident(x))
        c = ident(tf.stop_gradient(x))
        d = ident(x)
    # As TF: nothing recorded while paused, StopGradient stops it.
    assert tape.gradient(a, x) is None
    assert tape.gradient(b, x) is None
    assert tape.gradient(c, x) is None
    np.testing.assert_allclose(tape.gradient(d, x).numpy(), [5.0, 5.0])

    # grad_fn may use stop_gradient itself.
    @tf.custom_gradient
    def half_stopped(x: Any) -> Any:
        def grad(dy: Any) -> Any:
            return dy * tf.stop_gradient(x) * 2.0

        return x * x, grad

    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = half_stopped(x)
        g = inner.gradient(y, x)
    np.testing.assert_allclose(g.numpy(), [2.0, 4.0])
    assert outer.gradient(g, x) is None


def test_closure_lifetime() -> None:
    gc.collect()
    base = _closures()
    x = tf.constant([1.0, 2.0])
    # No tape: C lets go of the closure at once.
    y = cube(x)
    np.testing.assert_allclose(y.numpy(), [1.0, 8.0])
    assert _closures() == base
    # A non-persistent tape: until it answered.
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = cube(x)
    assert _closures() == base + 1
    tape.gradient(y, x)
    assert _closures() == base
    # A persistent tape: until it is deleted.
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = cube(x)
    tape.gradient(y, x)
    tape.gradient(y, x)
    assert _closures() == base + 1
    del tape
    gc.collect()
    assert _closures() == base


def test_only_the_custom_entry_feeds_the_gradient() -> None:
    # f's own ops are recorded as in TF, but the output handle is new: the
    # gradient flows through grad_fn alone.
    x = tf.constant([3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = cube(x)
        n = lib.TFE_GradientTapeNumRecordedOps(tape._tape)
    assert n == 3  # two Muls and the custom entry
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [27.0])


def test_methods() -> None:
    class Layer:
        def __init__(self, k: float) -> None:
            self.k = k

        @tf.custom_gradient
        def __call__(self, x: Any) -> Any:
            return x * self.k, lambda dy: dy * (self.k + 1.0)

    layer = Layer(2.0)
    x = tf.constant([1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
    np.testing.assert_allclose(y.numpy(), [2.0])
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [3.0])


def test_recompute_grad() -> None:
    v = tf.Variable([0.5, -0.5])

    def block(x: Any) -> Any:
        return tf.sin(x) * tf.exp(x) * v

    fast = tf.recompute_grad(block)
    x = tf.constant([0.3, 1.2])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = fast(x)
        n = lib.TFE_GradientTapeNumRecordedOps(tape._tape)
        y_ref = block(x)
    assert n == 1  # only the custom entry: block's ops ran unrecorded
    np.testing.assert_allclose(y.numpy(), y_ref.numpy())
    gx, gv = tape.gradient(y, [x, v])
    rx, rv = tape.gradient(y_ref, [x, v])
    np.testing.assert_allclose(gx.numpy(), rx.numpy(), rtol=1e-6)
    np.testing.assert_allclose(gv.numpy(), rv.numpy(), rtol=1e-6)


def test_recompute_grad_second_order() -> None:
    f = tf.recompute_grad(lambda x: tf.tanh(x))
    x = tf.constant([0.2, -0.7], tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    t = np.tanh(x.numpy())
    np.testing.assert_allclose(g.numpy(), 1 - t * t)
    h = outer.gradient(g, x)
    np.testing.assert_allclose(h.numpy(), -2 * t * (1 - t * t))


def test_inside_a_function_the_gradient_is_grad_fn() -> None:
    # Traced into the function: an IdentityN whose gradient calls the
    # traced grad_fn (tests/python/test_custom_grad_function.py compares
    # more programs with TF 2.21).
    @tf.function
    def g(x: Any) -> Any:
        return clipped_square(x) + 1.0

    x = tf.constant([0.25, 2.0])
    np.testing.assert_allclose(g(x).numpy(), [1.0625, 5.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = g(x)
    np.testing.assert_allclose(tape.gradient(z, x).numpy(), [0.5, 1.0])


def test_async_context_and_second_order() -> None:
    from tfe_py.context import Context

    with Context(async_=True):
        x = tf.constant(np.linspace(-2.0, 2.0, 257))
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(cube(tf.sin(x)))
            g = inner.gradient(y, x)
        h = outer.gradient(g, x)
        s, c = np.sin(x.numpy()), np.cos(x.numpy())
        np.testing.assert_allclose(g.numpy(), 3 * s * s * c, atol=1e-12)
        np.testing.assert_allclose(h.numpy(), 6 * s * c * c - 3 * s**3, atol=1e-12)


def test_threads_keep_their_own_errors() -> None:
    import threading

    class Boom(Exception):
        pass

    @tf.custom_gradient
    def failing(x: Any) -> Any:
        def grad(dy: Any) -> Any:
            raise Boom("thread-local")

        return x * 1.0, grad

    results: dict[str, list[Any]] = {"ok": [], "boom": [], "other": []}
    lock = threading.Lock()

    def work(fail: bool) -> None:
        for k in range(20):
            x = tf.constant([float(k), 1.0])
            try:
                with tf.GradientTape() as tape:
                    tape.watch(x)
                    y = failing(x) if fail else cube(x)
                g = tape.gradient(y, x)
                with lock:
                    results["ok"].append(np.allclose(g.numpy(), 3 * x.numpy() ** 2))
            except Boom:
                with lock:
                    results["boom"].append(fail)
            except Exception as exc:  # pragma: no cover - a failure path
                with lock:
                    results["other"].append(exc)

    threads = [threading.Thread(target=work, args=(i % 2 == 1,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results["other"] == []
    assert len(results["ok"]) == 40 and all(results["ok"])
    assert len(results["boom"]) == 40 and all(results["boom"])


def test_gradients_given_as_python_values() -> None:
    @tf.custom_gradient
    def f(x: Any) -> Any:
        return x * 2.0, lambda dy: np.array([4.0, 5.0])  # float64 for a float32 input

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
        z = y + x  # the two gradients are summed in x's dtype
    g = tape.gradient(z, x)
    assert g.dtype == tf.float32
    np.testing.assert_allclose(g.numpy(), [5.0, 6.0])
