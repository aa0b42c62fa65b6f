"""Dtypes added in session 9 to existing CPU kernels (float8, int4/uint4,
quantized and variant elements in data-movement ops; Range in half and
bfloat16; ScatterNd on strings) against TF 2.21's outputs and
errors for the same inputs (tests/data/dtypes_s9_ops_tf221.json, written by
tools/record_dtypes_s9.py). Variant tensors hold TensorLists: they are built
from the recorded values with TensorListFromTensor and read back with
TensorListStack, element by element; an empty variant (null) must fail to
stack, as in TF."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest
from recorded_ops import assert_error, load_cases, split

import tfe_py as tf
from tfe_py import ops

_CASES = load_cases("dtypes_s9_ops_tf221.json")
_OK, _ERR = split(_CASES)
_F8 = ("float8_e4m3fn", "float8_e5m2")
_I4 = ("int4", "uint4")
_QBASE = {"qint8": np.int8, "quint8": np.uint8, "qint16": np.int16, "quint16": np.uint16,
          "qint32": np.int32}


def _f8_values(spec: dict[str, Any]) -> np.ndarray:
    """A recorded float8 tensor's values (from its bit patterns) as float32."""
    bits = np.asarray(spec["value"], np.uint8).reshape(spec["shape"])
    return bits.view(getattr(ml_dtypes, spec["dtype"])).astype(np.float32)


def _make(spec: dict[str, Any]) -> Any:
    dt = spec["dtype"]
    if dt == "variant":
        elems = [ops.TensorListFromTensor(
            tensor=tf.constant(np.reshape(e["value"], e["shape"]).astype(np.float32)),
            element_shape=tf.constant([e["shape"][1]], dtype=tf.int32)) for e in spec["value"]]
        if not spec["shape"]:
            return elems[0]
        return ops.Reshape(tensor=ops.Pack(values=elems), shape=tf.constant(spec["shape"]))
    if dt in _F8:
        # float32 values that float8 holds exactly, cast (Bitcast does not
        # take float8, and numpy's float8_e5m2 claims to be a float kind)
        return ops.Cast(x=tf.constant(_f8_values(spec)), DstT=getattr(tf, dt))
    if dt in _QBASE:  # made from the integers through Bitcast
        a = np.asarray(spec["value"]).astype(_QBASE[dt]).reshape(spec["shape"])
        return ops.Bitcast(input=tf.constant(a), type=getattr(tf, dt))
    if dt in _I4:
        return tf.constant(np.asarray(spec["value"]).astype(getattr(ml_dtypes, dt))
                           .reshape(spec["shape"]))
    if dt == "string":
        return tf.constant(np.asarray(spec["value"], dtype=object).reshape(spec["shape"]))
    return tf.constant(np.asarray(spec["value"]).reshape(spec["shape"]), dtype=dt)


def _run(cs: dict[str, Any]) -> list[Any]:
    kwargs: dict[str, Any] = dict(cs["attrs"])
    for name, spec in cs["inputs"].items():
        kwargs[name] = [_make(s) for s in spec] if isinstance(spec, list) else _make(spec)
    out = getattr(ops, cs["op"])(**kwargs)
    res: list[Any] = []
    for o in out if isinstance(out, (list, tuple)) else [out]:
        res.extend(o if isinstance(o, (list, tuple)) else [o])
    return res


def _check(got: Any, spec: dict[str, Any]) -> None:
    dt = spec["dtype"]
    assert got.dtype == getattr(tf, dt), (got.dtype, dt)
    assert list(got.shape) == spec["shape"]
    if dt == "variant":
        flat = ops.Reshape(tensor=got, shape=tf.constant([-1]))
        for i, want in enumerate(spec["value"]):
            elem = ops.GatherV2(params=flat, indices=tf.constant(i), axis=tf.constant(0))
            if want is None:
                with pytest.raises(tf.errors.OpError):
                    ops.TensorListStack(input_handle=elem, element_shape=tf.constant([-1]),
                                        element_dtype=tf.float32)
                continue
            s = ops.TensorListStack(input_handle=elem, element_shape=tf.constant([-1]),
                                    element_dtype=tf.float32)
            assert list(s.shape) == want["shape"]
            np.testing.assert_array_equal(s.numpy().ravel(), np.asarray(want["value"]))
        return
    if dt in _F8:
        a = np.asarray(ops.Cast(x=got, DstT=tf.float32).numpy())
        np.testing.assert_array_equal(a, _f8_values(spec))
        return
    if dt in _QBASE:
        a = np.asarray(ops.Bitcast(input=got, type=tf.as_dtype(np.dtype(_QBASE[dt]))).numpy())
    else:
        a = np.asarray(got.numpy())
    exp = np.asarray(spec["value"])
    if dt == "string":
        got_s = [b.decode() if isinstance(b, bytes) else str(b) for b in a.ravel()]
        assert got_s == [str(v) for v in exp.ravel()]
    elif dt in ("float32", "float64", "float16", "bfloat16"):
        np.testing.assert_array_equal(a.astype(np.float64).ravel(), exp.ravel())
    else:
        np.testing.assert_array_equal(a.astype(np.int64).ravel(), exp.astype(np.int64).ravel())


@pytest.mark.parametrize("cs", _OK, ids=[c["name"] for c in _OK])
def test_output_matches_tf(cs: dict[str, Any]) -> None:
    outs = _run(cs)
    assert len(outs) == len(cs["outputs"])
    for got, spec in zip(outs, cs["outputs"], strict=True):
        _check(got, spec)


@pytest.mark.parametrize("cs", _ERR, ids=[c["name"] for c in _ERR])
def test_error_matches_tf(cs: dict[str, Any]) -> None:
    assert_error(cs, lambda: _run(cs))


# The dtypes session 9 registered, per op: each has a recorded case.
_ADDED: dict[str, tuple[str, ...]] = {
    "ConcatV2": _F8, "Concat": (*_F8, *_QBASE), "Pack": _F8, "Unpack": _F8, "Slice": _F8,
    "StridedSlice": _F8, "StridedSliceGrad": (*_F8, "variant"), "Split": (*_F8, *_I4),
    "SplitV": (*_F8, *_I4), "Transpose": _F8, "ConjugateTranspose": (*_F8, "variant"),
    "Gather": (*_F8, *_QBASE, "variant"), "GatherV2": _F8, "GatherNd": _F8, "BroadcastTo": _F8,
    "Fill": _I4, "MirrorPad": ("qint8", "quint8", "qint32"),
    "DynamicStitch": ("qint8", "quint8", "qint32", "variant"),
    "ParallelDynamicStitch": ("qint8", "quint8", "qint32", "variant"),
    "SpaceToDepth": ("qint8", "variant"), "DepthToSpace": ("variant",),
    "DynamicPartition": ("variant",), "OneHot": ("variant",), "Roll": ("variant",),
    "StatelessShuffle": ("variant",), "SparseReorder": ("variant",),
    "SparseSlice": ("variant",), "SparseSplit": ("variant",), "SparseConcat": ("variant",),
    "SparseFillEmptyRows": ("variant",), "Range": ("float16", "bfloat16"),
    "ScatterNd": ("string",),
}


def _dtypes_of(cs: dict[str, Any]) -> set[str]:
    seen = set()
    for spec in cs["inputs"].values():
        for s in spec if isinstance(spec, list) else [spec]:
            seen.add(s["dtype"])
    return seen


@pytest.mark.parametrize("op", sorted(_ADDED))
def test_every_added_dtype_recorded(op: str) -> None:
    seen: set[str] = set()
    for c in _CASES:
        if c["op"] == op:
            seen |= _dtypes_of(c)
    missing = [d for d in _ADDED[op] if d not in seen]
    assert not missing, missing
