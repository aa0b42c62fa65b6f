"""Array and segment ops added from TF 2.21's registry (StopGradient,
PreventGradient, CheckNumerics(V2), Diag, DiagPart, LinSpace,
PopulationCount, Roll, LowerBound, UpperBound, Bincount, ListDiff, the
sorted and unsorted segment reductions) through tfe_py.ops, against values
recorded from TensorFlow 2.21 (ops_arrayops_tf221.json; the cases are in
arrayops_cases.py, which also records them)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from arrayops_cases import JSON_PATH, cases, make_input

from tfe_py import errors, ops
from tfe_py.context import default_context
from tfe_py.eager import EagerTensor, constant

CASES = cases()
EXPECTED = json.loads(JSON_PATH.read_text())


@pytest.fixture(autouse=True)
def _default_exists() -> None:
    default_context()


def _tensor(v: Any, dt: str) -> EagerTensor:
    a = make_input(v, dt)
    if dt == "bfloat16":
        return ops.Cast(constant(a), DstT="bfloat16")
    return constant(a, dt)


def _values(t: EagerTensor) -> tuple[list[Any], str, list[int]]:
    if t.dtype.name == "bfloat16":
        a = ops.Cast(t, DstT="float32").numpy()
        return a.astype(np.float64).ravel().tolist(), "bfloat16", list(a.shape)
    a = t.numpy()
    if a.dtype.kind == "c":
        vals: Any = np.stack([a.real.ravel(), a.imag.ravel()], -1).tolist()
    elif a.dtype.kind in "SO":
        vals = [bytes(x).decode("latin-1") for x in a.ravel()]
    else:
        vals = a.ravel().tolist()
    return vals, a.dtype.name, list(a.shape)


def _same(got: list[Any], want: list[Any]) -> bool:
    if not got and not want:
        return True
    if isinstance(want[0], str):
        return got == want
    a = np.asarray(got, dtype=np.float64).ravel()
    b = np.asarray(want, dtype=np.float64).ravel()
    if a.shape != b.shape or not np.array_equal(np.isnan(a), np.isnan(b)):
        return False
    # exact, signed zeros included
    ok = np.isnan(a) | ((a == b) & (np.signbit(a) == np.signbit(b)))
    return bool(ok.all())


def test_case_table_matches_recording() -> None:
    assert len(CASES) == len(EXPECTED)


@pytest.mark.parametrize("i", range(len(CASES)), ids=[f"{c[0]}-{j}" for j, c in enumerate(CASES)])
def test_against_tf(i: int) -> None:
    op, ins, attrs = CASES[i]
    exp = EXPECTED[i]
    kw = {k: _tensor(v, dt) for k, (v, dt) in ins.items()}
    if "err" in exp:
        with pytest.raises(errors.OpError) as ei:
            getattr(ops, op)(**kw, **attrs)
        assert type(ei.value).__name__ == exp["err"]
        assert str(ei.value).split("\n")[0] == exp["msg"]
        return
    res = getattr(ops, op)(**kw, **attrs)
    outs = list(res) if isinstance(res, tuple) else [res]
    assert len(outs) == len(exp["ok"])
    for got_t, (want_vals, want_dt, want_shape) in zip(outs, exp["ok"], strict=True):
        vals, dt, shape = _values(got_t)
        assert dt == want_dt
        assert shape == want_shape
        assert _same(vals, want_vals), (vals, want_vals)


def test_stop_gradient_shares_input() -> None:
    x = constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(ops.StopGradient(x).numpy(), x.numpy())


def test_concat_first_version() -> None:
    # Concat takes a list input, which the case table does not model; the
    # expected values and messages were recorded from TF 2.21.
    x = constant(np.array([[1, 2], [3, 4], [5, 6]], np.float32))
    want = np.array([[1, 2, 1, 2], [3, 4, 3, 4], [5, 6, 5, 6]], np.float32)
    for dim in (constant(np.int32(1)), constant(np.int32(-1)), constant(np.array([1], np.int32))):
        np.testing.assert_array_equal(ops.Concat(dim, [x, x]).numpy(), want)
    s = constant(np.array(["a", "b"], dtype=object), "string")
    assert ops.Concat(constant(np.int32(0)), [s, s, s]).numpy().tolist() == [b"a", b"b"] * 3
    errs = [
        (2, [x, x], "ConcatOp : Expected concatenating dimensions in the range [-2, 2), but got 2"),
        (
            0,
            [x, constant(np.ones((1, 3), np.float32))],
            "ConcatOp : Dimension 1 in both shapes must be equal: "
            "shape[0] = [3,2] vs. shape[1] = [1,3]",
        ),
        (
            0,
            [x, constant(np.ones(2, np.float32))],
            "ConcatOp : Ranks of all input tensors should match: "
            "shape[0] = [3,2] vs. shape[1] = [2]",
        ),
        (
            0,
            [constant(np.float32(1)), constant(np.float32(2))],
            "ConcatOp : Can't concatenate scalars (use tf.stack instead)",
        ),
        ([[0]], [x, x], "concat_dim tensor should be a scalar integer, but got shape [1,1]"),
    ]
    for dim, vals, msg in errs:
        with pytest.raises(errors.InvalidArgumentError) as ei:
            ops.Concat(constant(np.array(dim, np.int32)), vals)
        assert str(ei.value).split("\n")[0] == msg


def test_no_kernel_for_unregistered_dtypes() -> None:
    # The op definitions allow these but TF 2.21 registers no CPU kernel.
    with pytest.raises(errors.NotFoundError):
        ops.LinSpace(_tensor(0.0, "float16"), _tensor(1.0, "float16"), constant(3))
    with pytest.raises(errors.NotFoundError):
        ops.Diag(_tensor([1.0], "bfloat16"))
