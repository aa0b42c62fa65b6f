"""The sparse2 op group's CPU kernels (csrc/kernels/cpu/sparse2_*.c) against
TF 2.21's outputs and errors for the same inputs
(tests/data/sparse2_ops_tf221.json, written by tools/record_sparse2_ops.py),
plus a check that every CPU dtype TF registers (that tfe moves) has a
recorded case."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import ops

_PATH = os.path.join(os.path.dirname(__file__), "..", "data", "sparse2_ops_tf221.json")
with open(_PATH) as _f:
    _CASES: list[dict[str, Any]] = json.load(_f)["cases"]

_COMPLEX = ("complex64", "complex128")


def _decode(spec: dict[str, Any]) -> np.ndarray:
    dt = spec["dtype"]
    if dt in _COMPLEX:
        a = np.asarray(spec["value"], np.float64).reshape([*spec["shape"], 2])
        return (a[..., 0] + 1j * a[..., 1]).astype(dt)
    if dt == "string":
        return np.asarray(spec["value"], dtype=object).reshape(spec["shape"]).astype(bytes)
    if dt in ("bfloat16", "float16"):
        return np.asarray(spec["value"], np.float64).reshape(spec["shape"])
    if dt == "uint64":  # recorded as int64 bit patterns
        return np.asarray(spec["value"], np.int64).astype(np.uint64).reshape(spec["shape"])
    return np.asarray(spec["value"], dtype=dt).reshape(spec["shape"])


def _flat(out: Any) -> list[Any]:
    if isinstance(out, (list, tuple)):
        res: list[Any] = []
        for o in out:
            res.extend(_flat(o))
        return res
    return [out]


def _run(cs: dict[str, Any]) -> list[Any]:
    kwargs: dict[str, Any] = dict(cs["attrs"])
    for name, spec in cs["inputs"].items():
        if isinstance(spec, list):
            kwargs[name] = [tf.constant(_decode(x), dtype=x["dtype"]) for x in spec]
        else:
            kwargs[name] = tf.constant(_decode(spec), dtype=spec["dtype"])
    return _flat(getattr(ops, cs["op"])(**kwargs))


def _tol(dt: str) -> tuple[float, float]:
    if dt in ("float16", "bfloat16"):
        return 1e-2, 1e-2
    if dt in ("float32", "complex64"):
        return 2e-6, 2e-6
    return 1e-12, 1e-12


_OK = [c for c in _CASES if "outputs" in c]
_ERR = [c for c in _CASES if "error" in c]


@pytest.mark.parametrize("cs", _OK, ids=[c["name"] for c in _OK])
def test_output_matches_tf(cs: dict[str, Any]) -> None:
    outs = _run(cs)
    assert len(outs) == len(cs["outputs"])
    for got_t, exp_spec in zip(outs, cs["outputs"], strict=True):
        dt = exp_spec["dtype"]
        assert got_t.dtype == getattr(tf, dt), (got_t.dtype, dt)
        got = np.asarray(got_t.numpy())
        exp = _decode(exp_spec)
        assert got.shape == exp.shape
        if dt == "string" or dt == "bool" or dt.startswith(("int", "uint")):
            np.testing.assert_array_equal(got, exp)
        else:
            rtol, atol = _tol(dt)
            np.testing.assert_allclose(got.astype(exp.dtype if dt in _COMPLEX else np.float64),
                                       exp, rtol=rtol, atol=atol)


def _core(msg: str) -> str:
    """TF's message without the eager wrapper ({{function_node ...}} and
    [Op:...])."""
    msg = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", msg)
    msg = re.sub(r"\n\t; NodeDef: .*$", "", msg, flags=re.S)  # attr checks: TF adds the op def
    return re.sub(r"\s*\[Op:[^\]]*\].*$", "", msg, flags=re.S).strip()


@pytest.mark.parametrize("cs", _ERR, ids=[c["name"] for c in _ERR])
def test_error_matches_tf(cs: dict[str, Any]) -> None:
    cls = getattr(tf.errors, cs["error"]["type"])
    with pytest.raises(cls) as info:
        _run(cs)
    assert _core(cs["error"]["message"]) in _core(str(info.value))


# TF's CPU kernel dtypes (tf_kernels.pb) per op that tfe implements (TF's
# resource and variant values are not moved through tfe's sparse tensors).
_REAL = ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
         "uint8", "uint16", "uint32", "uint64")
_NUM = (*_REAL, "complex64", "complex128")
_ALL = (*_NUM, "bool", "string")
_SET = ("int8", "int16", "int32", "int64", "uint8", "uint16", "string")
_CNT_W = ("int32", "int64", "float32", "float64")  # T is int32 and int64 for each
_KERNEL_DTYPES: dict[str, tuple[str, tuple[str, ...]]] = {
    # op: (input holding T, dtypes)
    "SparseConcat": ("values", _ALL),
    "SparseSlice": ("values", _ALL),
    "SparseSliceGrad": ("backprop_val_grad", _NUM),
    "SparseSplit": ("values", _ALL),
    "SparseReduceSumSparse": ("input_values", _NUM),
    "SparseReduceMaxSparse": ("input_values", _REAL),
    "DenseToDenseSetOperation": ("set1", _SET),
    "DenseToSparseSetOperation": ("set1", _SET),
    "SparseToSparseSetOperation": ("set1_values", _SET),
    "SetSize": ("set_values", _SET),
    "SparseCross": ("dense_inputs", ("int64", "string")),
    "DenseCountSparseOutput": ("weights", _CNT_W),
    "SparseCountSparseOutput": ("weights", _CNT_W),
    "RaggedCountSparseOutput": ("weights", _CNT_W),
    "EditDistance": ("hypothesis_values", _ALL),
    "NonMaxSuppression": ("boxes", ("float32",)),
    "NonMaxSuppressionV2": ("boxes", ("float32", "float16")),
    "Copy": ("input", _ALL),
    "CopyHost": ("input", _ALL),
    "DebugIdentity": ("input", _ALL),
    "DebugNanCount": ("input", _REAL),
}


@pytest.mark.parametrize("op", sorted(_KERNEL_DTYPES))
def test_every_tf_dtype_recorded(op: str) -> None:
    arg, dts = _KERNEL_DTYPES[op]
    seen = set()
    for c in _CASES:
        if c["op"] == op and "outputs" in c:
            spec = c["inputs"][arg]
            seen.add((spec[0] if isinstance(spec, list) else spec)["dtype"])
    missing = [d for d in dts if d not in seen]
    assert not missing, missing
