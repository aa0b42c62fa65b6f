"""Scatter updates of variables (csrc/kernels/cpu/train_scatter_kernels.c)
against TF 2.21: Scatter*, ResourceScatter*, ScatterNd*, ResourceScatterNd*
and ScatterNdNonAliasingAdd, several dtypes, repeated indices, int32/int64
indices, scalar updates, and TF's errors (tests/data/scatter_vars_tf221.json,
written by tools/record_scatter_vars.py).

Where TF misbehaves tfe reports an error instead: TF aborts the process on
an integer division by zero in ScatterDiv, and ResourceScatter* accept
updates whose inner shape does not match the variable (reading past them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import errors, ops

DATA = json.loads((Path(__file__).resolve().parents[1] / "data" / "scatter_vars_tf221.json")
                  .read_text())


def _dec(v: Any, dtype: str, shape: list[int]) -> np.ndarray:
    if isinstance(v, dict):
        a = np.array(v["re"]) + 1j * np.array(v["im"])
    elif dtype == "string":
        a = np.array([s.encode() for s in v], dtype=object)
    else:
        a = np.array(v)
    if dtype == "string":
        return a.reshape(shape)
    np_dt = {"half": np.float32, "bfloat16": np.float32}.get(dtype, dtype)
    return a.astype(np_dt).reshape(shape)


def _tensor(a: np.ndarray, dtype: str) -> Any:
    if dtype in ("half", "bfloat16"):
        return ops.Cast(x=tf.constant(a.astype(np.float32)), DstT=dtype)
    if dtype == "string":
        return tf.constant(a.tolist())
    return tf.constant(a)


def _read(t: Any, dtype: str) -> np.ndarray:
    if dtype in ("half", "bfloat16"):
        return ops.Cast(x=t, DstT="float32").numpy()
    return t.numpy()


def _run(case: dict[str, Any], dtype: str) -> np.ndarray:
    name = case["op"]
    var = _tensor(_dec(case["var"], dtype, case["var_shape"]), dtype)
    upd = _tensor(_dec(case["updates"], dtype, case["updates_shape"]), dtype)
    idx = tf.constant(np.array(case["indices"], case.get("index_dtype", "int32")))
    if name == "ScatterNdNonAliasingAdd":
        return _read(ops.ScatterNdNonAliasingAdd(input=var, indices=idx, updates=upd), dtype)
    if name.startswith("Resource"):
        v = tf.Variable(var)
        key = "ref" if "Nd" in name else "resource"
        getattr(ops, name)(**{key: v.handle}, indices=idx, updates=upd)
        return _read(v.read_value(), dtype)
    ref = ops.VariableV2(shape=case["var_shape"], dtype=var.dtype.name)
    ref = ops.Assign(ref=ref, value=var)
    out = getattr(ops, name)(ref=ref, indices=idx, updates=upd)
    return _read(ops.Identity(input=out), dtype)


_CASES = [c for c in DATA["cases"] if "ok" in c["result"]]


@pytest.mark.parametrize("case", _CASES, ids=[
    f"{c['op']}-{c['dtype']}-{c['label']}-{c['index_dtype']}" for c in _CASES])
def test_matches_tf(case: dict[str, Any]) -> None:
    got = _run(case, case["dtype"])
    want = _dec(case["result"]["ok"], case["dtype"], case["var_shape"])
    if case["dtype"] == "string":
        assert got.tolist() == want.tolist()
    elif case["dtype"] in ("half", "bfloat16"):
        np.testing.assert_allclose(got, want, rtol=1e-2, atol=1e-2)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("case", DATA["errors"], ids=[
    f"{e['op']}-{e['label']}" for e in DATA["errors"]])
def test_errors(case: dict[str, Any]) -> None:
    res = case["result"]
    dtype = case.get("dtype", "float32")
    if "ok" in res:
        if case["label"] == "updates_shape":
            # TF runs with mismatched inner dimensions (reading past the
            # updates); tfe refuses.
            with pytest.raises(errors.InvalidArgumentError):
                _run(case, dtype)
        else:
            np.testing.assert_allclose(_run(case, dtype), _dec(res["ok"], dtype,
                                                              case["var_shape"]))
        return
    with pytest.raises(errors.InvalidArgumentError) as info:
        _run(case, dtype)
    # Graph-mode failures of TF's reference ops were recorded without the
    # kernel's text, and TF's Python refuses some shapes before running:
    # compare the message where TF's kernel produced one.
    if "message" in res and "code" in res and res["message"] != "Graph execution error:":
        assert res["message"] in str(info.value)


def test_every_op_has_cases() -> None:
    from tfe_py.saved_model import registered_kernel_ops

    assert set(DATA["ops"]) <= registered_kernel_ops("CPU")
    assert {c["op"] for c in _CASES} == set(DATA["ops"])


def test_bad_indices_policy_ignore() -> None:
    v = tf.Variable(np.zeros((2, 2), np.float32))
    ops.ResourceScatterNdAdd(ref=v.handle, indices=tf.constant([[0, 0], [5, 5], [1, 1]]),
                             updates=tf.constant([1.0, 2.0, 3.0]), bad_indices_policy="IGNORE")
    np.testing.assert_array_equal(v.numpy(), [[1, 0], [0, 3]])
