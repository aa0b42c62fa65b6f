"""The optimizer apply ops (csrc/kernels/cpu/train_apply_kernels.c) against
TF 2.21: every Apply*, ResourceApply*, SparseApply* and ResourceSparseApply*
op with TF's CPU dtypes, one update from the same slots, scalars and
gradient (tests/data/train_apply_tf221.json, written by
tools/record_train_apply.py), and TF's error codes and messages.

Reference ops (Apply*, SparseApply*) run eagerly in tfe on VariableV2
references (TF itself runs them only in graphs; the recorder used a TF1
session)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import errors, ops

DATA = json.loads((Path(__file__).resolve().parents[1] / "data" / "train_apply_tf221.json")
                  .read_text())
_TOL = {"float32": 2e-6, "float64": 1e-12, "complex64": 2e-6, "half": 3e-3, "bfloat16": 2e-2}


def _dec(v: Any) -> np.ndarray:
    if isinstance(v, dict):
        return np.array(v["re"]) + 1j * np.array(v["im"])
    return np.array(v)


def _tensor(a: np.ndarray, dtype: str) -> Any:
    if dtype in ("half", "bfloat16"):
        return ops.Cast(x=tf.constant(a.astype(np.float32)), DstT=dtype)
    return tf.constant(a.astype(dtype))


def _read(t: Any) -> np.ndarray:
    if t.dtype.name in ("float16", "bfloat16", "half"):
        return ops.Cast(x=t, DstT="float32").numpy().astype(np.float64)
    return t.numpy()


def _slot(a: np.ndarray, dtype: str, resource: bool) -> tuple[Any, Any]:
    """(what the op takes, a reader of the current value)."""
    value = _tensor(a, dtype)
    if resource:
        v = tf.Variable(value)
        return v.handle, lambda: _read(v.read_value())
    ref = ops.VariableV2(shape=list(a.shape), dtype=value.dtype.name)
    ref = ops.Assign(ref=ref, value=value)
    return ref, lambda: _read(ops.Identity(input=ref))


def _run(case: dict[str, Any], dtype: str) -> dict[str, np.ndarray]:
    resource = case["op"].startswith("Resource")
    kwargs: dict[str, Any] = {}
    readers = {}
    for name, val in case["slots"].items():
        kwargs[name], readers[name] = _slot(_dec(val), dtype, resource)
    for name, val in case["inputs"].items():
        a = _dec(val)
        if name == "indices":
            kwargs[name] = tf.constant(a.astype(case.get("index_dtype") or "int32"))
        elif name == "global_step":
            kwargs[name] = tf.constant(a.astype(np.int64))
        else:
            kwargs[name] = _tensor(a, dtype)
    getattr(ops, case["op"])(**kwargs, **case["attrs"])
    return {n: r() for n, r in readers.items()}


def _ids(cases: list[dict[str, Any]]) -> list[str]:
    return [f"{c['op']}-{c['dtype']}-{'-'.join(f'{k}={v}' for k, v in c['attrs'].items())}"
            for c in cases]


@pytest.mark.parametrize("case", DATA["cases"], ids=_ids(DATA["cases"]))
def test_update_matches_tf(case: dict[str, Any]) -> None:
    got = _run(case, case["dtype"])
    tol = _TOL[case["dtype"]]
    for name, exp in case["expected"].items():
        want = _dec(exp)
        # TF rounds every intermediate of half/bfloat16 math to the type;
        # tfe computes in float and rounds once. Where terms cancel, the
        # difference is relative to the largest term, not to the result.
        atol = tol * max(1.0, float(np.abs(want).max())) if case["dtype"] in (
            "half", "bfloat16") else tol
        np.testing.assert_allclose(got[name], want, rtol=tol, atol=atol, err_msg=name)


def _err_ids() -> list[str]:
    return [f"{e['op']}-{e['label']}" for e in DATA["errors"]]


@pytest.mark.parametrize("case", DATA["errors"], ids=_err_ids())
def test_errors_match_tf(case: dict[str, Any]) -> None:
    err = case["error"]
    if case["label"] == "uninitialized":
        h = ops.VarHandleOp(dtype="float32", shape=[2, 3], shared_name="train_apply_uninit")
        kwargs: dict[str, Any] = {}
        for name in ("var", "accum", "accum_update", "gradient_accumulator",
                     "gradient_squared_accumulator", "linear", "m", "v", "vhat", "ms", "mg",
                     "mom"):
            kwargs[name] = h
        spec = next(c for c in DATA["cases"] if c["op"] == case["op"])
        kwargs = {k: v for k, v in kwargs.items() if k in spec["slots"]}
        for name, val in spec["inputs"].items():
            a = _dec(val)
            kwargs[name] = tf.constant(a.astype(np.int64 if name == "global_step" else
                                                (spec.get("index_dtype") or "int32")
                                                if name == "indices" else np.float32))
        with pytest.raises(errors.OpError):
            getattr(ops, case["op"])(**kwargs)
        return
    full = {"op": case["op"], "slots": case["slots"], "inputs": case["inputs"], "attrs": {},
            "index_dtype": "int32"}
    if err is None:
        _run(full, "float32")
        return
    if "crash" in err:
        # TF aborts here (it reads the input unchecked); tfe reports it.
        with pytest.raises(errors.InvalidArgumentError):
            _run(full, "float32")
        return
    with pytest.raises(errors.OpError) as info:
        _run(full, "float32")
    assert info.value.error_code == err["code"]
    assert err["message"] in str(info.value)


def test_every_cpu_apply_op_is_covered() -> None:
    """Every apply op TF registers on CPU has a kernel here and a case."""
    from tfe_py.saved_model import registered_kernel_ops

    have = registered_kernel_ops("CPU")
    assert set(DATA["ops"]) <= have
    assert {c["op"] for c in DATA["cases"]} == set(DATA["ops"])


def test_duplicate_indices_apply_in_order() -> None:
    """Rows named twice are updated twice, one after the other (as TF's CPU
    loop does): plain SGD-like momentum with momentum 0 adds both rows."""
    v = tf.Variable(np.zeros((3, 2), np.float32))
    acc = tf.Variable(np.zeros((3, 2), np.float32))
    ops.ResourceSparseApplyMomentum(
        var=v.handle, accum=acc.handle, lr=tf.constant(1.0), momentum=tf.constant(0.0),
        grad=tf.constant(np.ones((3, 2), np.float32)), indices=tf.constant([1, 1, 2]))
    np.testing.assert_array_equal(v.numpy(), [[0, 0], [-2, -2], [-1, -1]])


def test_reference_op_returns_its_var() -> None:
    ref = ops.VariableV2(shape=[2], dtype="float32")
    ref = ops.Assign(ref=ref, value=tf.constant([1.0, 2.0]))
    out = ops.ApplyGradientDescent(var=ref, alpha=tf.constant(0.5),
                                   delta=tf.constant([2.0, 2.0]))
    np.testing.assert_array_equal(out.numpy(), [0.0, 1.0])
    np.testing.assert_array_equal(ops.Identity(input=ref).numpy(), [0.0, 1.0])
