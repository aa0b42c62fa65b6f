"""Gradients of an If inside ``@tfe_py.function`` whose taken branch has
stateful ops (grad_func.c "forward values of If / Case"): the If is
rewritten to return its branches' intermediates (as Optionals, as TF's
cond_v2 does) and the gradient reads them, so the branch never runs
again. Values are TF 2.21's (tools/record_grad_func_fwd.py ->
tests/data/grad_func_fwd_tf221.json)."""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import pytest
from grad_func_fwd_programs import W, programs

import tfe_py as tf

_DATA = os.path.join(os.path.dirname(__file__), "..", "data", "grad_func_fwd_tf221.json")
with open(_DATA) as _fh:
    D: dict[str, Any] = json.load(_fh)

_PROGRAMS = programs(tf)


def close(a: Any, b: Any) -> None:
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(k for k in D if k in _PROGRAMS))
def test_program_matches_tf(name: str) -> None:
    want = D[name]
    f, args, v = _PROGRAMS[name]()
    with tf.GradientTape() as tape:
        tape.watch(list(args))
        y = f(*args)
        loss = tf.reduce_sum(y * W)
    grads = tape.gradient(loss, list(args))
    close(y.numpy(), want["y"])
    assert len(grads) == len(want["grads"])
    for g, w in zip(grads, want["grads"], strict=True):
        if w is None:
            assert g is None
        else:
            close(g.numpy(), w)
    if want["v"] is not None:
        # the assignment ran once (the gradient did not run the branch again)
        close(v.numpy(), want["v"])


def test_gradient_twice_from_one_call() -> None:
    """A persistent tape asked twice reads the same saved values."""
    f, args, v = _PROGRAMS["cond_assign_pos"]()
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(list(args))
        loss = tf.reduce_sum(f(*args) * W)
    g1 = tape.gradient(loss, args[0])
    g2 = tape.gradient(loss, args[0])
    close(g1.numpy(), D["cond_assign_pos"]["grads"][0])
    close(g2.numpy(), D["cond_assign_pos"]["grads"][0])
    close(v.numpy(), D["cond_assign_pos"]["v"])


def test_no_tape_call_unchanged() -> None:
    """Without a tape the function runs its own body (one assignment)."""
    f, args, v = _PROGRAMS["cond_assign_pos"]()
    y = f(*args)
    close(y.numpy(), D["cond_assign_pos"]["y"])
    close(v.numpy(), D["cond_assign_pos"]["v"])


def test_second_order_stateless_cond() -> None:
    """Stateless branches keep recomputing: the second order is TF's."""

    @tf.function
    def so(x: Any) -> Any:
        return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.sin(x) * x * x, lambda: x)

    want = D["second_order_stateless_cond"]
    x = tf.constant(np.array([0.5, -1.2, 2.0]))
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = so(x)
        g = t1.gradient(y, x)
    close(y.numpy(), want["y"])
    close(g.numpy(), want["grads"][0])
    close(t2.gradient(g, x).numpy(), want["d2"])


def test_second_order_through_stateful_cond_unimplemented() -> None:
    """The first order uses the saved draw (TF's value); a higher order
    through those saved values is refused, not silently wrong."""
    f, args, _ = _PROGRAMS["cond_random"]()
    with tf.GradientTape() as t2:
        t2.watch(list(args))
        with tf.GradientTape() as t1:
            t1.watch(list(args))
            y = f(*args)
            loss = tf.reduce_sum(y * W)
        g = t1.gradient(loss, args[0])
    # y = r * x + sin(x); the gradient uses that r (a seeded kernel already
    # run in this process draws its next sample: not TF's first one)
    x = np.asarray(args[0].numpy())
    r = (y.numpy() - np.sin(x)) / x
    close(g.numpy(), W * (r + np.cos(x)))
    with pytest.raises(tf.errors.UnimplementedError, match="higher order"):
        t2.gradient(g, args[0])
