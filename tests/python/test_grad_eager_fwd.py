"""Functional ops run EAGERLY under a tape whose branch / body draws from a
seeded stateful random op it does not return (grad_func.c "eager calls
under a tape"): ``raw_ops.If`` / ``StatelessIf`` / ``While`` /
``StatelessWhile`` run as a forward variant that also returns the values
the gradient needs, so the branch never runs again. They are the programs
of grad_func_fwd_programs.py's cond_random and while_random with the
functional op run eagerly instead of inside a ``tfe_py.function``; the
values are TF 2.21's for those programs (tests/data/grad_func_fwd_tf221.json).
TF 2.21 itself cannot differentiate an eagerly run ``raw_ops.If``
(AttributeError: Tensor.op is undefined when eager execution is enabled),
so its function form is the reference."""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import pytest

import tfe_py as tf

_DATA = os.path.join(os.path.dirname(__file__), "..", "data", "grad_func_fwd_tf221.json")
with open(_DATA) as _fh:
    D: dict[str, Any] = json.load(_fh)

X = np.array([0.5, -1.2, 2.0])
W = np.array([0.3, -1.1, 0.7])
SPEC3 = tf.TensorSpec([3], tf.float64)
SCALAR = tf.TensorSpec([], tf.float64)


def close(a: Any, b: Any) -> None:
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-10, atol=1e-12)


def _if_branches() -> tuple[Any, Any]:
    @tf.function(input_signature=[SPEC3, SCALAR])
    def t_br(x: Any, s: Any) -> Any:
        r = tf.raw_ops.RandomUniform(shape=tf.constant([3]), dtype=tf.float64, seed=7, seed2=3)
        return r * x + tf.sin(x)

    @tf.function(input_signature=[SPEC3, SCALAR])
    def e_br(x: Any, s: Any) -> Any:
        return tf.exp(x) * s

    return t_br.get_concrete_function(), e_br.get_concrete_function()


# Case / StatelessCase: tfe_py's raw op wrappers cannot pass a list of
# functions yet ("unknown attribute kind"); tests/c/test_grad_func_fwd.c
# runs them eagerly through the C API.
@pytest.mark.parametrize("op", ["If", "StatelessIf"])
def test_eager_cond_uses_the_forward_draw(op: str) -> None:
    t_br, e_br = _if_branches()
    x, s = tf.constant(X), tf.constant(2.0, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([x, s])
        y = getattr(tf.raw_ops, op)(
            cond=tf.constant(True), input=[x, s], Tout=[tf.float64],
            then_branch=t_br, else_branch=e_br,
        )[0]  # fmt: skip
        loss = tf.reduce_sum(y * W)
    gx, gs = tape.gradient(loss, [x, s])
    want = D["cond_random"]
    close(y.numpy(), want["y"])
    close(gx.numpy(), want["grads"][0])
    close(gs.numpy(), want["grads"][1])


@pytest.mark.parametrize("op", ["While", "StatelessWhile"])
def test_eager_while_uses_the_forward_draw(op: str) -> None:
    i_spec = tf.TensorSpec([], tf.int32)

    @tf.function(input_signature=[i_spec, SPEC3])
    def cond(i: Any, y: Any) -> Any:
        return i < 1

    @tf.function(input_signature=[i_spec, SPEC3])
    def body(i: Any, y: Any) -> Any:
        r = tf.raw_ops.RandomUniform(shape=tf.constant([3]), dtype=tf.float64, seed=13, seed2=4)
        return i + 1, r * tf.sin(y) + y

    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        outs = getattr(tf.raw_ops, op)(
            input=[tf.constant(0), x], cond=cond.get_concrete_function(),
            body=body.get_concrete_function(),
        )  # fmt: skip
        y = outs[1] * 2.0
        loss = tf.reduce_sum(y * W)
    assert len(outs) == 2  # the op's own outputs only
    want = D["while_random"]
    close(y.numpy(), want["y"])
    close(tape.gradient(loss, x).numpy(), want["grads"][0])


def test_eager_if_assign_then_read_uses_the_forward_value() -> None:
    """cond_assign_pos with the If run eagerly: the branch assigns a variable
    and reads it; the gradient uses the value read (the branch does not run
    again: the variable is assigned once)."""
    v = tf.Variable(np.array([1.0, 2.0, 3.0]))

    @tf.function(input_signature=[SPEC3, SCALAR])
    def t_br(x: Any, s: Any) -> Any:
        v.assign_add(x)
        return v.read_value() * x

    @tf.function(input_signature=[SPEC3, SCALAR])
    def e_br(x: Any, s: Any) -> Any:
        return x * x + 0.0 * v.read_value()  # the same capture as t_br

    tc, ec = t_br.get_concrete_function(), e_br.get_concrete_function()
    x, s = tf.constant(X), tf.constant(1.0, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([x, s])
        y = tf.raw_ops.If(
            cond=tf.constant(True), input=[x, s, *tc.captured_inputs], Tout=[tf.float64],
            then_branch=tc, else_branch=ec,
        )[0]  # fmt: skip
        loss = tf.reduce_sum(y * W)
    gx, gs = tape.gradient(loss, [x, s])
    want = D["cond_assign_pos"]
    close(y.numpy(), want["y"])
    close(gx.numpy(), want["grads"][0])
    assert gs is None and want["grads"][1] is None
    close(v.numpy(), want["v"])


def test_eager_if_without_tape_is_unchanged() -> None:
    """No tape: the If runs as it is (the same forward values)."""
    t_br, e_br = _if_branches()
    x, s = tf.constant(X), tf.constant(2.0, tf.float64)
    y = tf.raw_ops.If(
        cond=tf.constant(True), input=[x, s], Tout=[tf.float64], then_branch=t_br, else_branch=e_br
    )[0]
    close(y.numpy(), D["cond_random"]["y"])
