"""The quant2 op group's CPU kernels (csrc/kernels/cpu/quant2_kernels.c:
QuantizeV2, Dequantize, QuantizeAndDequantize*, Requantize*, ...) against
TF 2.21's outputs and errors for the same inputs
(tests/data/quant2_ops_tf221.json, written by tools/record_quant2_ops.py),
plus a check that every CPU dtype TF registers has a recorded case.

Results are compared bit for bit (TF's reference kernels are deterministic
and tfe does the same arithmetic). Quantized tensors go in and out through
Bitcast from/to the integer type of the same width."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from recorded_ops import assert_error, load_cases, split

import tfe_py as tf
from tfe_py import ops

_CASES = load_cases("quant2_ops_tf221.json")

# quantized dtype -> integer dtype of the same layout
_QINT = {"qint8": "int8", "quint8": "uint8", "qint16": "int16", "quint16": "uint16",
         "qint32": "int32"}
_TYPE_ATTRS = ("T", "dtype", "out_type", "Tout", "Tin", "Tinput", "T1", "T2", "Toutput",
               "Tfilter", "Tbias")


def _tensor(spec: dict[str, Any]) -> Any:
    dt = spec["dtype"]
    if dt in _QINT:
        a = np.asarray(spec["value"], np.int64).astype(_QINT[dt]).reshape(spec["shape"])
        return ops.Bitcast(input=tf.constant(a), type=getattr(tf, dt))
    if dt == "bfloat16":
        a = np.asarray(spec["value"], np.float32).reshape(spec["shape"])
        return tf.cast(tf.constant(a), tf.bfloat16)
    return tf.constant(np.asarray(spec["value"], dtype=dt).reshape(spec["shape"]), dtype=dt)


def _run(cs: dict[str, Any]) -> list[Any]:
    kwargs: dict[str, Any] = dict(cs["attrs"])
    for k in _TYPE_ATTRS:
        if isinstance(kwargs.get(k), str):
            kwargs[k] = getattr(tf, kwargs[k])
    for name, spec in cs["inputs"].items():
        kwargs[name] = [_tensor(x) for x in spec] if isinstance(spec, list) else _tensor(spec)
    out = getattr(ops, cs["op"])(**kwargs)
    return list(out) if isinstance(out, (list, tuple)) else [out]


def _values(t: Any) -> np.ndarray:
    name = tf.as_dtype(t.dtype).name
    if name in _QINT:
        return np.asarray(ops.Bitcast(input=t, type=getattr(tf, _QINT[name])).numpy(), np.int64)
    if name == "bfloat16":
        return np.asarray(tf.cast(t, tf.float32).numpy(), np.float64)
    return np.asarray(t.numpy())


_OK, _ERR = split(_CASES)


@pytest.mark.parametrize("cs", _OK, ids=[c["name"] for c in _OK])
def test_output_matches_tf(cs: dict[str, Any]) -> None:
    outs = _run(cs)
    assert len(outs) == len(cs["outputs"])
    for got_t, exp in zip(outs, cs["outputs"], strict=True):
        assert tf.as_dtype(got_t.dtype).name == exp["dtype"]
        got = _values(got_t)
        want = np.asarray(exp["value"], np.float64 if exp["dtype"].startswith(("float", "bfloat"))
                          else np.int64).reshape(exp["shape"])
        assert got.shape == want.shape
        # bit-exact, NaN where TF has NaN
        np.testing.assert_array_equal(got.astype(want.dtype), want)


@pytest.mark.parametrize("cs", _ERR, ids=[c["name"] for c in _ERR])
def test_error_matches_tf(cs: dict[str, Any]) -> None:
    assert_error(cs, lambda: _run(cs),
                 lambda w: w.split("\t")[0].strip()
                 if "is not in the list of allowed values" in w else w)


# TF 2.21's CPU kernels (data/tf221_cpu_kernels.txt): the dtype combinations
# (first type attr, second) each op must have a recorded, passing case for.
_Q = ("qint8", "quint8", "qint16", "quint16", "qint32")
_KERNELS: dict[str, list[tuple[str, ...]]] = {
    "QuantizeV2": [("T", q) for q in _Q],
    "Dequantize": [("input", q, "dtype", o) for q in _Q for o in ("float32", "bfloat16")],
    "QuantizeAndDequantize": [("input", f) for f in ("float32", "float64")],
    "QuantizeAndDequantizeV2": [("input", f) for f in ("float32", "float64")],
    "QuantizeAndDequantizeV3": [("input", f) for f in ("float32", "float64")],
    "QuantizeAndDequantizeV4": [("input", f) for f in ("float32", "float64")],
    "QuantizeAndDequantizeV4Grad": [("input", f) for f in ("float32", "float64")],
    "Requantize": [("out_type", o) for o in ("qint8", "quint8")],
    "RequantizationRange": [("input", "qint32")],
    "RequantizationRangePerChannel": [("input", "qint32")],
    "RequantizePerChannel": [("out_type", o) for o in ("qint8", "quint8")],
    "QuantizeDownAndShrinkRange": [("out_type", "quint8")],
    "QuantizedMatMul": [("a", "quint8")],
    "UniformQuantize": [("Tout", q) for q in ("qint8", "quint8", "qint32")],
    "UniformDequantize": [("input", q) for q in ("qint8", "quint8", "qint32")],
    "UniformRequantize": [("input", q) for q in ("qint8", "qint32")],
    "UniformQuantizedAdd": [("lhs", "qint32")],
    "UniformQuantizedClipByValue": [("operand", "qint32")],
    "UniformQuantizedDot": [("lhs", "qint8")],
    "UniformQuantizedDotHybrid": [("lhs", "float32")],
}


def _combo_of(cs: dict[str, Any], want: tuple[str, ...]) -> tuple[str, ...]:
    got = []
    for i in range(0, len(want), 2):
        key = want[i]
        if key in cs["inputs"]:
            got += [key, cs["inputs"][key]["dtype"]]
        else:
            default = {"dtype": "float32"}.get(key, "")
            got += [key, str(cs["attrs"].get(key, default))]
    return tuple(got)


@pytest.mark.parametrize("op", sorted(_KERNELS))
def test_every_tf_dtype_recorded(op: str) -> None:
    for want in _KERNELS[op]:
        assert any(c["op"] == op and _combo_of(c, want) == want for c in _CASES), want
