"""The more18 op group's CPU kernels (csrc/kernels/cpu/more18_kernels.c)
against TF 2.21's outputs and errors for the same inputs
(tests/data/more18_ops_tf221.json, written by tools/record_more18_ops.py),
plus a check that every CPU dtype TF registers has a recorded case.

Inputs {"var": spec} are resource variables (their value after the op is
the last output), {"ref": spec} TF 1 reference variables (their value
after the op is the only output)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from recorded_ops import assert_error, check_outputs, decode, load_cases, split

import tfe_py as tf
from tfe_py import ops

_CASES = load_cases("more18_ops_tf221.json")


def _const(spec: dict[str, Any]) -> Any:
    return tf.constant(decode(spec), dtype=spec["dtype"])


def _run(cs: dict[str, Any]) -> list[Any]:
    kwargs: dict[str, Any] = dict(cs["attrs"])
    var = None
    ref = None
    for name, spec in cs["inputs"].items():
        if isinstance(spec, list):
            kwargs[name] = [_const(x) for x in spec]
        elif "var" in spec:
            var = tf.Variable(_const(spec["var"]))
            kwargs[name] = var.handle
        elif "ref" in spec:
            init = _const(spec["ref"])
            ref = ops.VariableV2(shape=spec["ref"]["shape"], dtype=spec["ref"]["dtype"])
            ref = ops.Assign(ref=ref, value=init)
            kwargs[name] = ref
        else:
            kwargs[name] = _const(spec)
    out = getattr(ops, cs["op"])(**kwargs)
    if ref is not None:
        return [ops.Identity(input=out)]
    outs = [] if out is None else list(out) if isinstance(out, (list, tuple)) else [out]
    if var is not None:
        outs = [o for o in outs if o.dtype != tf.resource]
        outs.append(var.read_value())
    return outs


_OK, _ERR = split(_CASES)


@pytest.mark.parametrize("cs", _OK, ids=[c["name"] for c in _OK])
def test_output_matches_tf(cs: dict[str, Any]) -> None:
    check_outputs(_run(cs), cs["outputs"])


@pytest.mark.parametrize("cs", _ERR, ids=[c["name"] for c in _ERR])
def test_error_matches_tf(cs: dict[str, Any]) -> None:
    assert_error(cs, lambda: _run(cs))


# TF's CPU kernel dtypes (tf_kernels.pb) per op: every one has a recorded
# case (quantized dtypes, which tfe_py cannot make constants of, aside).
_REAL = ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
         "uint8", "uint16", "uint32", "uint64")
_ALL = (*_REAL, "complex64", "complex128", "bool", "string")
_IPT = ("uint8", "int32", "int64", "float16", "float32", "float64", "bfloat16")
_KERNEL_DTYPES: dict[str, tuple[str, ...]] = {
    "TensorStridedSliceUpdate": _ALL,
    "ResourceStridedSliceAssign": _ALL,
    "StridedSliceAssign": _ALL,
    "ResourceGatherNd": _ALL,
    "ImageProjectiveTransformV2": _IPT,
    "ImageProjectiveTransformV3": _IPT,
    "RandomCrop": _REAL,
    "AdjustContrast": ("uint8", "int8", "int16", "int32", "float32", "float64"),
}


@pytest.mark.parametrize("op", sorted(_KERNEL_DTYPES))
def test_every_tf_dtype_recorded(op: str) -> None:
    seen = set()
    for c in _CASES:
        if c["op"] == op:
            first = next(iter(c["inputs"].values()))
            if isinstance(first, list):
                first = first[0]
            first = first.get("var", first.get("ref", first))
            seen.add(first["dtype"])
    missing = [d for d in _KERNEL_DTYPES[op] if d not in seen]
    assert not missing, missing


def test_resource_gather_nd_index_dtypes_recorded() -> None:
    seen = {c["inputs"]["indices"]["dtype"] for c in _CASES if c["op"] == "ResourceGatherNd"}
    assert seen == {"int32", "int64"}
    seen = {c["attrs"].get("out_type", "int32") for c in _CASES if c["op"] == "VariableShape"}
    assert seen == {"int32", "int64"}


def test_resource_gather_nd_wrong_dtype_is_an_error() -> None:
    # TF 2.21 aborts the process here (a CHECK in its tensor accessor);
    # tfe reports InvalidArgument instead.
    v = tf.Variable(np.arange(3.0))
    with pytest.raises(tf.errors.InvalidArgumentError, match="wrong dtype"):
        ops.ResourceGatherNd(resource=v.handle, indices=tf.constant([[0]]), dtype="float32")


@pytest.mark.parametrize("idx_dtype", ["int32", "int64"])
def test_resource_gather_nd_gradient(idx_dtype: str) -> None:
    # loss = sum(w * gather_nd(v, idx)): dloss/dv is w scattered (summed over
    # repeated indices) into v's shape; TF's gradient gives the same values
    # (as IndexedSlices for single-index rows).
    v = tf.Variable(np.arange(24.0).reshape(4, 3, 2))
    idx = np.array([[[1, 2], [0, 0]], [[1, 2], [3, 1]]], idx_dtype)
    w = np.random.default_rng(5).uniform(-1, 1, (2, 2, 2))
    with tf.GradientTape() as tape:
        # a raw op on the handle is no variable read: watched by hand, as in TF
        tape.watch(v)
        y = ops.ResourceGatherNd(resource=v.handle, indices=tf.constant(idx), dtype="float64")
        loss = tf.reduce_sum(y * tf.constant(w))
    (g,) = tape.gradient(loss, [v])
    exp = np.zeros((4, 3, 2))
    for i in range(2):
        for j in range(2):
            exp[tuple(idx[i, j])] += w[i, j]
    np.testing.assert_allclose(np.asarray(tf.convert_to_tensor(g).numpy()), exp, rtol=1e-12)
    rows = np.array([[2], [0], [2]], idx_dtype)
    w2 = np.random.default_rng(6).uniform(-1, 1, (3, 3, 2))
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = ops.ResourceGatherNd(resource=v.handle, indices=tf.constant(rows), dtype="float64")
        loss = tf.reduce_sum(y * tf.constant(w2))
    (g,) = tape.gradient(loss, [v])
    exp = np.zeros((4, 3, 2))
    for i in range(3):
        exp[rows[i, 0]] += w2[i]
    np.testing.assert_allclose(np.asarray(tf.convert_to_tensor(g).numpy()), exp, rtol=1e-12)
