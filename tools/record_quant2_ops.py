"""Records TF 2.21's results for the quant2 op group's kernels
(csrc/kernels/cpu/quant2_kernels.c: QuantizeV2, Dequantize,
QuantizeAndDequantize*, Requantize*, QuantizeDownAndShrinkRange, ...) into
tests/data/quant2_ops_tf221.json. Run with /work/tfvenv/bin/python;
tests/python/test_quant2_ops.py only reads the JSON. Each case runs one raw
op eagerly on CPU and keeps its outputs or its error (TF's exception class
name and message). The tensor encoding is record_sparse_ops.py's; quantized
tensors are stored as their integer values."""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

# TF's reference kernels: with oneDNN on, eager QuantizeV2/Dequantize are
# rewritten to oneDNN kernels (other rounding, dtypes missing).
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
sys.path.insert(0, os.path.dirname(__file__))
from record_sparse_ops import record_main, run_raw, t

R = np.random.default_rng(18_2)
QTYPES = ("qint8", "quint8", "qint16", "quint16", "qint32")

CASES: list[dict[str, Any]] = []


def add(name: str, op: str, inputs: dict[str, Any], attrs: dict[str, Any] | None = None) -> None:
    if op.startswith("Uniform") and attrs:
        # type attrs inferred from the inputs are not raw-op arguments
        attrs = {k: v for k, v in attrs.items() if k not in ("T", "Tin", "Tlhs", "Trhs")}
    CASES.append({"name": name, "op": op, "inputs": inputs, "attrs": attrs or {}})


def f32(v: Any) -> dict[str, Any]:
    return t(np.asarray(v, np.float32), "float32")


def qrange(dt: str) -> tuple[int, int]:
    bits = {"qint8": 8, "quint8": 8, "qint16": 16, "quint16": 16, "qint32": 32}[dt]
    if dt.startswith("qu"):
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def qvals(shape: tuple[int, ...], dt: str) -> dict[str, Any]:
    lo, hi = qrange(dt)
    n = int(np.prod(shape))
    v = R.integers(lo, hi, n, endpoint=True, dtype=np.int64)
    if n >= 2:
        v[0], v[1] = lo, hi
    return t(v.reshape(shape), dt)


# float inputs with exact halves on a 1/64 grid (rounding ties) and values
# outside the range
XF = np.concatenate([np.arange(-9, 9) / 4.0 + 1 / 128.0, [-3.0, 3.0, 0.0, -0.5, 0.5, 0.25]])
XS = (np.arange(-20, 20) + 0.5) / 64.0

# ---------------------------------------------------------------- QuantizeV2
for dt in QTYPES:
    for mode in ("MIN_COMBINED", "MIN_FIRST", "SCALED"):
        add(f"qv2_{dt}_{mode.lower()}", "QuantizeV2",
            {"input": f32(XF.reshape(2, -1)), "min_range": f32(-2.0), "max_range": f32(1.5)},
            {"T": dt, "mode": mode})
        add(f"qv2_{dt}_{mode.lower()}_pos", "QuantizeV2",
            {"input": f32(XF), "min_range": f32(0.5), "max_range": f32(2.5)},
            {"T": dt, "mode": mode})
        add(f"qv2_{dt}_{mode.lower()}_tiny", "QuantizeV2",
            {"input": f32([0.0, 1e-4, -1e-4, 0.003]), "min_range": f32(0.0),
             "max_range": f32(0.0)}, {"T": dt, "mode": mode})
    add(f"qv2_{dt}_scaled_even", "QuantizeV2",
        {"input": f32(XS), "min_range": f32(-2.0), "max_range": f32(127 / 64)},
        {"T": dt, "mode": "SCALED", "round_mode": "HALF_TO_EVEN"})
    add(f"qv2_{dt}_scaled_narrow", "QuantizeV2",
        {"input": f32(XS), "min_range": f32(-2.0), "max_range": f32(127 / 64)},
        {"T": dt, "mode": "SCALED", "narrow_range": True})
    add(f"qv2_{dt}_scaled_axis", "QuantizeV2",
        {"input": f32(XF[:18].reshape(3, 2, 3)), "min_range": f32([-1.0, -2.0]),
         "max_range": f32([1.0, 0.5])}, {"T": dt, "mode": "SCALED", "axis": 1})
    add(f"qv2_{dt}_combined_axis", "QuantizeV2",
        {"input": f32(XF[:18].reshape(3, 6)), "min_range": f32(np.linspace(-2, 0, 6)),
         "max_range": f32(np.linspace(0.5, 2, 6))}, {"T": dt, "axis": 1})
add("qv2_ensure_min", "QuantizeV2",
    {"input": f32([0.0, 0.5, 1.0]), "min_range": f32(0.5), "max_range": f32(0.5)},
    {"T": "quint8", "ensure_minimum_range": 0.5})
add("qv2_empty", "QuantizeV2",
    {"input": f32(np.zeros((0, 3))), "min_range": f32(-1.0), "max_range": f32(1.0)},
    {"T": "qint8"})
add("qv2_axis0", "QuantizeV2",
    {"input": f32(XF[:6].reshape(2, 3)), "min_range": f32([-1.0, -2.0]),
     "max_range": f32([1.0, 2.0])}, {"T": "qint8", "axis": 0, "mode": "SCALED"})
add("qv2_axis_last", "QuantizeV2",
    {"input": f32(XF[:6].reshape(2, 3)), "min_range": f32([-1.0, -2.0, -3.0]),
     "max_range": f32([1.0, 2.0, 3.0])}, {"T": "quint8", "axis": 1})
add("qv2_err_mode", "QuantizeV2",
    {"input": f32([1.0]), "min_range": f32(0.0), "max_range": f32(1.0)},
    {"T": "quint8", "mode": "BOGUS"})
add("qv2_err_round", "QuantizeV2",
    {"input": f32([1.0]), "min_range": f32(0.0), "max_range": f32(1.0)},
    {"T": "quint8", "round_mode": "BOGUS"})
add("qv2_err_even_mode", "QuantizeV2",
    {"input": f32([1.0]), "min_range": f32(0.0), "max_range": f32(1.0)},
    {"T": "quint8", "round_mode": "HALF_TO_EVEN"})
add("qv2_err_range", "QuantizeV2",
    {"input": f32([1.0]), "min_range": f32(2.0), "max_range": f32(1.0)}, {"T": "quint8"})
add("qv2_err_axis_range", "QuantizeV2",
    {"input": f32([[1.0]]), "min_range": f32([2.0]), "max_range": f32([1.0])},
    {"T": "qint8", "axis": 0, "mode": "SCALED"})
add("qv2_err_axis_big", "QuantizeV2",
    {"input": f32([1.0, 2.0]), "min_range": f32([0.0]), "max_range": f32([1.0])},
    {"T": "quint8", "axis": 1})
add("qv2_err_axis_minfirst", "QuantizeV2",
    {"input": f32([[1.0, 2.0]]), "min_range": f32([0.0, 0.0]), "max_range": f32([1.0, 1.0])},
    {"T": "quint8", "axis": 1, "mode": "MIN_FIRST"})
add("qv2_err_axis_minlen", "QuantizeV2",
    {"input": f32([[1.0, 2.0]]), "min_range": f32([0.0]), "max_range": f32([1.0, 1.0])},
    {"T": "quint8", "axis": 1})
add("qv2_err_axis_maxlen", "QuantizeV2",
    {"input": f32([[1.0, 2.0]]), "min_range": f32([0.0, 0.0]), "max_range": f32([1.0])},
    {"T": "quint8", "axis": 1})
add("qv2_err_axis_minrank", "QuantizeV2",
    {"input": f32([[1.0, 2.0]]), "min_range": f32([[0.0, 0.0]]),
     "max_range": f32([1.0, 1.0])}, {"T": "quint8", "axis": 1})
add("qv2_err_min_vec", "QuantizeV2",
    {"input": f32([1.0, 2.0]), "min_range": f32([0.0, 1.0]), "max_range": f32(1.0)},
    {"T": "quint8"})
add("qv2_err_max_vec", "QuantizeV2",
    {"input": f32([1.0, 2.0]), "min_range": f32(0.0), "max_range": f32([1.0, 2.0])},
    {"T": "quint8"})
add("qv2_err_min_empty", "QuantizeV2",
    {"input": f32([1.0, 2.0]), "min_range": f32(np.zeros(0)), "max_range": f32(1.0)},
    {"T": "quint8"})

# ---------------------------------------------------------------- Dequantize
for dt in QTYPES:
    for out in ("float32", "bfloat16"):
        for mode in ("MIN_COMBINED", "MIN_FIRST", "SCALED"):
            add(f"deq_{dt}_{out}_{mode.lower()}", "Dequantize",
                {"input": qvals((2, 5), dt), "min_range": f32(-1.5), "max_range": f32(2.0)},
                {"mode": mode, "dtype": out})
        add(f"deq_{dt}_{out}_axis", "Dequantize",
            {"input": qvals((2, 3, 2), dt), "min_range": f32([-1.0, -0.5, 0.0]),
             "max_range": f32([1.0, 2.0, 3.0])}, {"axis": 1, "dtype": out})
    add(f"deq_{dt}_scaled_narrow", "Dequantize",
        {"input": qvals((6,), dt), "min_range": f32(-2.0), "max_range": f32(1.0)},
        {"mode": "SCALED", "narrow_range": True})
    add(f"deq_{dt}_scaled_axis", "Dequantize",
        {"input": qvals((3, 2), dt), "min_range": f32([-2.0, -1.0]),
         "max_range": f32([1.0, 3.0])}, {"mode": "SCALED", "axis": 1})
add("deq_equal_range", "Dequantize",
    {"input": qvals((4,), "quint8"), "min_range": f32(0.5), "max_range": f32(0.5)},
    {"mode": "MIN_FIRST"})
add("deq_empty", "Dequantize",
    {"input": qvals((0, 2), "qint8"), "min_range": f32(-1.0), "max_range": f32(1.0)})
add("deq_err_mode", "Dequantize",
    {"input": qvals((2,), "quint8"), "min_range": f32(0.0), "max_range": f32(1.0)},
    {"mode": "BOGUS"})
add("deq_err_bf16_mode", "Dequantize",
    {"input": qvals((2,), "quint8"), "min_range": f32(0.0), "max_range": f32(1.0)},
    {"mode": "SCALED", "dtype": "bfloat16"})
add("deq_err_axis", "Dequantize",
    {"input": qvals((2,), "quint8"), "min_range": f32([0.0]), "max_range": f32([1.0])},
    {"axis": 1})
add("deq_err_minlen", "Dequantize",
    {"input": qvals((2, 3), "quint8"), "min_range": f32([0.0]), "max_range": f32([1.0] * 3)},
    {"axis": 1})
add("deq_err_maxlen", "Dequantize",
    {"input": qvals((2, 3), "quint8"), "min_range": f32([0.0] * 3), "max_range": f32([1.0])},
    {"axis": 1})
add("deq_err_scalar_minlen", "Dequantize",
    {"input": qvals((2, 3), "quint8"), "min_range": f32([0.0, 1.0]), "max_range": f32(1.0)})
add("deq_err_minfirst_axis", "Dequantize",
    {"input": qvals((2, 3), "quint8"), "min_range": f32([0.0] * 3),
     "max_range": f32([1.0] * 3)}, {"axis": 1, "mode": "MIN_FIRST"})

# ---------------------------------------------------------------- QuantizeAndDequantize*
XQ = np.concatenate([(np.arange(-12, 12) + 0.5) / 8.0, [2.7, -3.1, 0.0]])
for ft in ("float32", "float64"):
    x = t(XQ.reshape(3, 9), ft)
    for signed in (True, False):
        sg = "s" if signed else "u"
        add(f"qdq1_{ft}_{sg}", "QuantizeAndDequantize", {"input": x},
            {"signed_input": signed, "num_bits": 4})
        add(f"qdq1_{ft}_{sg}_given", "QuantizeAndDequantize", {"input": x},
            {"signed_input": signed, "num_bits": 3, "range_given": True,
             "input_min": -1.0, "input_max": 1.5})
        for op in ("QuantizeAndDequantizeV2", "QuantizeAndDequantizeV4"):
            tag = op[-2:].lower()
            for rm in ("HALF_TO_EVEN", "HALF_UP"):
                r = "even" if rm == "HALF_TO_EVEN" else "up"
                add(f"qdq{tag}_{ft}_{sg}_{r}", op,
                    {"input": x, "input_min": t(0.0, ft), "input_max": t(0.0, ft)},
                    {"signed_input": signed, "num_bits": 4, "round_mode": rm})
                add(f"qdq{tag}_{ft}_{sg}_{r}_given", op,
                    {"input": x, "input_min": t(-1.0, ft), "input_max": t(1.25, ft)},
                    {"signed_input": signed, "num_bits": 5, "round_mode": rm,
                     "range_given": True})
            add(f"qdq{tag}_{ft}_{sg}_narrow", op,
                {"input": x, "input_min": t(-1.0, ft), "input_max": t(1.0, ft)},
                {"signed_input": signed, "num_bits": 3, "narrow_range": True,
                 "range_given": True})
            add(f"qdq{tag}_{ft}_{sg}_axis", op,
                {"input": x, "input_min": t([-1.0, -0.5, 0.0], ft),
                 "input_max": t([1.0, 2.0, 0.5], ft)},
                {"signed_input": signed, "num_bits": 4, "axis": 0, "range_given": True})
            add(f"qdq{tag}_{ft}_{sg}_axis_auto", op,
                {"input": x, "input_min": t([0.0] * 9, ft), "input_max": t([0.0] * 9, ft)},
                {"signed_input": signed, "num_bits": 4, "axis": 1})
        add(f"qdqv3_{ft}_{sg}", "QuantizeAndDequantizeV3",
            {"input": x, "input_min": t(-1.0, ft), "input_max": t(1.0, ft),
             "num_bits": t(4, "int32")}, {"signed_input": signed})
        add(f"qdqv3_{ft}_{sg}_auto", "QuantizeAndDequantizeV3",
            {"input": x, "input_min": t(0.0, ft), "input_max": t(0.0, ft),
             "num_bits": t(6, "int32")}, {"signed_input": signed, "range_given": False,
                                          "narrow_range": True})
        add(f"qdqv3_{ft}_{sg}_axis", "QuantizeAndDequantizeV3",
            {"input": x, "input_min": t([-1.0, -0.5, -2.0], ft),
             "input_max": t([1.0, 2.0, 0.5], ft), "num_bits": t(3, "int32")},
            {"signed_input": signed, "axis": 0})
    g = t(np.linspace(-1, 1, 27).reshape(3, 9), ft)
    add(f"qdqv4g_{ft}", "QuantizeAndDequantizeV4Grad",
        {"gradients": g, "input": x, "input_min": t(-1.0, ft), "input_max": t(1.0625, ft)})
    add(f"qdqv4g_{ft}_axis", "QuantizeAndDequantizeV4Grad",
        {"gradients": g, "input": x, "input_min": t([-1.0, -0.5, 0.0], ft),
         "input_max": t([1.0, 2.0, 0.5], ft)}, {"axis": 0})
xf = f32(XQ[:6])
g6 = f32(np.linspace(-1, 1, 6))
for op in ("QuantizeAndDequantizeV2", "QuantizeAndDequantizeV4"):
    tag = op[-2:].lower()
    add(f"qdq{tag}_err_bits", op, {"input": xf, "input_min": f32(0.0), "input_max": f32(1.0)},
        {"num_bits": 62})
    add(f"qdq{tag}_err_bits0", op, {"input": xf, "input_min": f32(0.0), "input_max": f32(1.0)},
        {"num_bits": 0, "signed_input": False})
    add(f"qdq{tag}_err_round", op, {"input": xf, "input_min": f32(0.0), "input_max": f32(1.0)},
        {"round_mode": "BOGUS"})
    add(f"qdq{tag}_err_range", op, {"input": xf, "input_min": f32(1.0), "input_max": f32(0.0)},
        {"range_given": True})
    add(f"qdq{tag}_err_axis", op, {"input": xf, "input_min": f32(0.0), "input_max": f32(1.0)},
        {"axis": 1})
    add(f"qdq{tag}_err_axis_neg", op,
        {"input": xf, "input_min": f32(0.0), "input_max": f32(1.0)}, {"axis": -2})
    add(f"qdq{tag}_err_minrank", op,
        {"input": xf, "input_min": f32([0.0]), "input_max": f32(1.0)}, {"range_given": True})
    add(f"qdq{tag}_err_maxrank", op,
        {"input": xf, "input_min": f32(0.0), "input_max": f32([1.0])}, {"range_given": True})
    add(f"qdq{tag}_err_minlen", op,
        {"input": xf, "input_min": f32([0.0, 1.0]), "input_max": f32([1.0] * 6)},
        {"range_given": True, "axis": 0})
    add(f"qdq{tag}_err_maxlen", op,
        {"input": xf, "input_min": f32([0.0] * 6), "input_max": f32([1.0] * 2)},
        {"range_given": True, "axis": 0})
add("qdqv2_err_axis_scalar", "QuantizeAndDequantizeV2",
    {"input": xf, "input_min": f32(0.0), "input_max": f32(1.0)}, {"axis": 0, "range_given": True})
add("qdqv2_err_axis_maxscalar", "QuantizeAndDequantizeV2",
    {"input": xf, "input_min": f32([0.0] * 6), "input_max": f32(1.0)},
    {"axis": 0, "range_given": True})
add("qdqv2_noaxis_vec_auto", "QuantizeAndDequantizeV2",
    {"input": xf, "input_min": f32([5.0]), "input_max": f32([1.0, 2.0])})
add("qdqv3_noaxis_vec", "QuantizeAndDequantizeV3",
    {"input": xf, "input_min": f32([-1.0]), "input_max": f32([1.0]), "num_bits": t(4, "int32")})
add("qdqv3_err_axis_scalar", "QuantizeAndDequantizeV3",
    {"input": xf, "input_min": f32(0.0), "input_max": f32(1.0), "num_bits": t(8, "int32")},
    {"axis": 0})
add("qdqv3_err_axis_maxscalar", "QuantizeAndDequantizeV3",
    {"input": xf, "input_min": f32([0.0] * 6), "input_max": f32(1.0), "num_bits": t(8, "int32")},
    {"axis": 0})
add("qdqv3_err_maxlen", "QuantizeAndDequantizeV3",
    {"input": xf, "input_min": f32([0.0] * 6), "input_max": f32([1.0] * 2),
     "num_bits": t(8, "int32")}, {"axis": 0})
add("qdqv3_err_axis_neg", "QuantizeAndDequantizeV3",
    {"input": xf, "input_min": f32(0.0), "input_max": f32(1.0), "num_bits": t(8, "int32")},
    {"axis": -2})
add("qdqv3_auto_axis_big_range", "QuantizeAndDequantizeV3",
    {"input": xf, "input_min": f32(1.0), "input_max": f32(0.0), "num_bits": t(8, "int32")},
    {"range_given": False})
add("qdqv4g_err_axis_scalar", "QuantizeAndDequantizeV4Grad",
    {"gradients": g6, "input": xf, "input_min": f32(0.0), "input_max": f32([1.0] * 6)},
    {"axis": 0})
add("qdqv4g_err_axis_maxscalar", "QuantizeAndDequantizeV4Grad",
    {"gradients": g6, "input": xf, "input_min": f32([0.0] * 6), "input_max": f32(1.0)},
    {"axis": 0})
add("qdqv2_empty", "QuantizeAndDequantizeV2",
    {"input": f32(np.zeros((0, 2))), "input_min": f32(0.0), "input_max": f32(0.0)})
add("qdq1_err_bits", "QuantizeAndDequantize", {"input": xf}, {"num_bits": 70})
add("qdq1_err_range", "QuantizeAndDequantize", {"input": xf},
    {"range_given": True, "input_min": 1.0, "input_max": 0.0})
add("qdqv3_err_bits", "QuantizeAndDequantizeV3",
    {"input": xf, "input_min": f32(0.0), "input_max": f32(1.0), "num_bits": t(63, "int32")})
add("qdqv3_err_bits_shape", "QuantizeAndDequantizeV3",
    {"input": xf, "input_min": f32(0.0), "input_max": f32(1.0), "num_bits": t([8], "int32")})
add("qdqv3_err_axis", "QuantizeAndDequantizeV3",
    {"input": xf, "input_min": f32(0.0), "input_max": f32(1.0), "num_bits": t(8, "int32")},
    {"axis": 1})
add("qdqv3_err_range", "QuantizeAndDequantizeV3",
    {"input": xf, "input_min": f32(1.0), "input_max": f32(0.0), "num_bits": t(8, "int32")})
add("qdqv3_err_minrank", "QuantizeAndDequantizeV3",
    {"input": xf, "input_min": f32([0.0]), "input_max": f32(1.0), "num_bits": t(8, "int32")})
add("qdqv3_err_minlen", "QuantizeAndDequantizeV3",
    {"input": xf, "input_min": f32([0.0] * 2), "input_max": f32([1.0] * 6),
     "num_bits": t(8, "int32")}, {"axis": 0})
add("qdqv4g_err_shape", "QuantizeAndDequantizeV4Grad",
    {"gradients": f32([1.0]), "input": xf, "input_min": f32(0.0), "input_max": f32(1.0)})
add("qdqv4g_err_axis", "QuantizeAndDequantizeV4Grad",
    {"gradients": g6, "input": xf, "input_min": f32(0.0), "input_max": f32(1.0)}, {"axis": 1})
add("qdqv4g_err_axis_neg", "QuantizeAndDequantizeV4Grad",
    {"gradients": g6, "input": xf, "input_min": f32(0.0), "input_max": f32(1.0)}, {"axis": -3})
add("qdqv4g_err_minrank", "QuantizeAndDequantizeV4Grad",
    {"gradients": g6, "input": xf, "input_min": f32([[0.0]]), "input_max": f32(1.0)})
add("qdqv4g_err_maxrank", "QuantizeAndDequantizeV4Grad",
    {"gradients": g6, "input": xf, "input_min": f32(0.0), "input_max": f32([[1.0]])})
add("qdqv4g_err_minlen", "QuantizeAndDequantizeV4Grad",
    {"gradients": g6, "input": xf, "input_min": f32([0.0]), "input_max": f32([1.0] * 6)},
    {"axis": 0})
add("qdqv4g_err_maxlen", "QuantizeAndDequantizeV4Grad",
    {"gradients": g6, "input": xf, "input_min": f32([0.0] * 6), "input_max": f32([1.0])},
    {"axis": 0})
add("qdqv4g_vec_min_noaxis", "QuantizeAndDequantizeV4Grad",
    {"gradients": g6, "input": xf, "input_min": f32([-0.5, 9.0]), "input_max": f32([1.0])})

# ---------------------------------------------------------------- Requantize & co
Q32 = np.concatenate([R.integers(-(2**31), 2**31 - 1, 10, endpoint=True),
                      [-(2**31), 2**31 - 1, 0, 1, -1, 65536, -65536, 2**20]])
q32 = t(Q32.reshape(2, 9), "qint32")
for out in ("qint8", "quint8"):
    for lo, hi, rlo, rhi in ((-10.0, 10.0, -1.0, 1.0), (-3.5, 7.25, -7.0, 7.0),
                             (0.0, 100.0, 0.0, 25.0), (-1.0, 1.0, -0.0, 0.0)):
        add(f"req_{out}_{lo}_{hi}_{rlo}_{rhi}", "Requantize",
            {"input": q32, "input_min": f32(lo), "input_max": f32(hi),
             "requested_output_min": f32(rlo), "requested_output_max": f32(rhi)},
            {"out_type": out})
for i, (a, b, c, d) in enumerate((([1.0], 1.0, 0.0, 1.0), (0.0, [[1.0]], 0.0, 1.0),
                                   (0.0, 1.0, [0.0], 1.0), (0.0, 1.0, 0.0, [1.0]))):
    add(f"req_err_rank{i}", "Requantize",
        {"input": q32, "input_min": f32(a), "input_max": f32(b),
         "requested_output_min": f32(c), "requested_output_max": f32(d)}, {"out_type": "quint8"})
add("req_err_min_pos", "Requantize",
    {"input": q32, "input_min": f32(-1.0), "input_max": f32(1.0),
     "requested_output_min": f32(0.5), "requested_output_max": f32(1.0)}, {"out_type": "quint8"})
add("req_err_max_lt", "Requantize",
    {"input": q32, "input_min": f32(-1.0), "input_max": f32(1.0),
     "requested_output_min": f32(-0.5), "requested_output_max": f32(-1.0)},
    {"out_type": "quint8"})
for lo, hi in ((-10.0, 10.0), (-3.5, 7.25), (0.0, 2.0), (1.0, 1.0)):
    add(f"reqrange_{lo}_{hi}", "RequantizationRange",
        {"input": q32, "input_min": f32(lo), "input_max": f32(hi)})
    add(f"reqrange_pos_{lo}_{hi}", "RequantizationRange",
        {"input": t([5, 1 << 20, 1 << 28], "qint32"), "input_min": f32(lo),
         "input_max": f32(hi)})
    for out in ("quint8",):
        add(f"qdsr_{out}_{lo}_{hi}", "QuantizeDownAndShrinkRange",
            {"input": q32, "input_min": f32(lo), "input_max": f32(hi)}, {"out_type": out})
        add(f"qdsr_{out}_pos_{lo}_{hi}", "QuantizeDownAndShrinkRange",
            {"input": t([5, 1 << 20, 1 << 28, -(1 << 27)], "qint32"), "input_min": f32(lo),
             "input_max": f32(hi)}, {"out_type": out})
add("reqrange_err_min_empty", "RequantizationRange",
    {"input": q32, "input_min": f32(np.zeros(0)), "input_max": f32(1.0)})
add("reqrange_err_max_empty", "RequantizationRange",
    {"input": q32, "input_min": f32(0.0), "input_max": f32(np.zeros(0))})
add("reqrange_vec", "RequantizationRange",
    {"input": q32, "input_min": f32([-2.0, 5.0]), "input_max": f32([3.0])})
add("qdsr_err_min_empty", "QuantizeDownAndShrinkRange",
    {"input": q32, "input_min": f32(np.zeros(0)), "input_max": f32(1.0)}, {"out_type": "quint8"})
add("qdsr_err_max_empty", "QuantizeDownAndShrinkRange",
    {"input": q32, "input_min": f32(0.0), "input_max": f32(np.zeros(0))}, {"out_type": "quint8"})

Q4 = t(R.integers(-(2**30), 2**30, (2, 2, 2, 3)), "qint32")
for clip in (6.0, 0.001, 1e9):
    add(f"rrpc_{clip}", "RequantizationRangePerChannel",
        {"input": Q4, "input_min": f32([-1.0, -2.0, -0.5]), "input_max": f32([1.0, 4.0, 0.25])},
        {"clip_value_max": clip})
add("rrpc_err_nhwc", "RequantizationRangePerChannel",
    {"input": t(np.abs(Q32[2:8]).reshape(3, 2), "qint32"), "input_min": f32([-1.0, -2.0]),
     "input_max": f32([1.0, 4.0])}, {"clip_value_max": 100.0})
add("rrpc_err_channels", "RequantizationRangePerChannel",
    {"input": Q4, "input_min": f32([-1.0, -2.0]), "input_max": f32([1.0, 4.0])},
    {"clip_value_max": 100.0})
add("rrpc_err_minrank", "RequantizationRangePerChannel",
    {"input": Q4, "input_min": f32([[-1.0, -2.0, 1.0]]), "input_max": f32([1.0, 4.0, 2.0])},
    {"clip_value_max": 100.0})
add("rrpc_nonneg", "RequantizationRangePerChannel",
    {"input": t(np.abs(Q32[2:8]).reshape(1, 3, 1, 2), "qint32"), "input_min": f32([-1.0, -2.0]),
     "input_max": f32([1.0, 4.0])}, {"clip_value_max": 100.0})
add("rrpc_err_minlen", "RequantizationRangePerChannel",
    {"input": Q4, "input_min": f32([-1.0, -2.0]), "input_max": f32([1.0, 4.0, 0.25])},
    {"clip_value_max": 6.0})
add("rrpc_err_maxlen", "RequantizationRangePerChannel",
    {"input": Q4, "input_min": f32([-1.0, -2.0, 1.0]), "input_max": f32([1.0, 4.0])},
    {"clip_value_max": 6.0})
for out in ("qint8", "quint8"):
    for rlo, rhi in ((-1.0, 1.0), (0.0, 2.0), (-0.25, 0.5)):
        add(f"rqpc_{out}_{rlo}_{rhi}", "RequantizePerChannel",
            {"input": Q4, "input_min": f32([-1.0, -2.0, -0.5]),
             "input_max": f32([1.0, 4.0, 0.25]), "requested_output_min": f32(rlo),
             "requested_output_max": f32(rhi)}, {"out_type": out})
add("rqpc_err_rank", "RequantizePerChannel",
    {"input": t(Q32[:6].reshape(2, 3), "qint32"), "input_min": f32([-1.0, -2.0, -0.5]),
     "input_max": f32([1.0, 4.0, 0.25]), "requested_output_min": f32(-1.0),
     "requested_output_max": f32(1.0)}, {"out_type": "qint8"})
add("rqpc_err_minlen", "RequantizePerChannel",
    {"input": Q4, "input_min": f32([-1.0, -2.0]),
     "input_max": f32([1.0, 4.0, 0.25]), "requested_output_min": f32(-1.0),
     "requested_output_max": f32(1.0)}, {"out_type": "qint8"})
add("rqpc_err_maxlen", "RequantizePerChannel",
    {"input": Q4, "input_min": f32([-1.0, -2.0, 3.0]),
     "input_max": f32([1.0, 4.0]), "requested_output_min": f32(-1.0),
     "requested_output_max": f32(1.0)}, {"out_type": "qint8"})

# ---------------------------------------------------------------- Uniform*
i32 = lambda v: t(np.asarray(v, np.int64), "int32")  # noqa: E731
QR = {"qint8": (-128, 127), "quint8": (0, 255), "qint32": (-(2**31), 2**31 - 1)}
XU = np.concatenate([(np.arange(-12, 12) + 0.5) / 4.0, [1e10, -1e10, 0.0, 100.0]]).reshape(4, 7)
for out, (lo, hi) in QR.items():
    add(f"uq_{out}", "UniformQuantize",
        {"input": f32(XU), "scales": f32(0.25), "zero_points": i32(3)},
        {"Tin": "float32", "Tout": out, "quantization_min_val": lo, "quantization_max_val": hi})
    add(f"uq_{out}_axis", "UniformQuantize",
        {"input": f32(XU), "scales": f32([0.5, 0.25, 2.0, 0.1]),
         "zero_points": i32([0, -3, 5, 1])},
        {"Tin": "float32", "Tout": out, "quantization_min_val": lo + 1,
         "quantization_max_val": hi, "quantization_axis": 0})
    add(f"uq_{out}_axis1", "UniformQuantize",
        {"input": f32(XU), "scales": f32(np.linspace(0.1, 2, 7)), "zero_points": i32(range(7))},
        {"Tin": "float32", "Tout": out, "quantization_min_val": lo,
         "quantization_max_val": hi, "quantization_axis": 1})
uq_attrs = {"Tin": "float32", "Tout": "qint8", "quantization_min_val": -128,
            "quantization_max_val": 127}
add("uq_err_zp_shape", "UniformQuantize",
    {"input": f32(XU), "scales": f32(0.25), "zero_points": i32([3])}, uq_attrs)
add("uq_err_axis", "UniformQuantize",
    {"input": f32(XU), "scales": f32(0.25), "zero_points": i32(3)},
    {**uq_attrs, "quantization_axis": 2})
add("uq_err_axis_neg", "UniformQuantize",
    {"input": f32(XU), "scales": f32(0.25), "zero_points": i32(3)},
    {**uq_attrs, "quantization_axis": -2})
add("uq_err_scalar", "UniformQuantize",
    {"input": f32(XU), "scales": f32([0.25]), "zero_points": i32([3])}, uq_attrs)
add("uq_err_axis_len", "UniformQuantize",
    {"input": f32(XU), "scales": f32([0.25] * 3), "zero_points": i32([3] * 3)},
    {**uq_attrs, "quantization_axis": 0})
for tin, (lo, hi) in QR.items():
    qv = R.integers(lo, hi, (3, 5), endpoint=True)
    qv[0, 0], qv[0, 1] = lo, hi
    da = {"Tin": tin, "Tout": "float32", "quantization_min_val": lo, "quantization_max_val": hi}
    add(f"udq_{tin}", "UniformDequantize",
        {"input": t(qv, tin), "scales": f32(0.125), "zero_points": i32(-2)}, da)
    add(f"udq_{tin}_axis", "UniformDequantize",
        {"input": t(qv, tin), "scales": f32([0.5, 0.25, 3.0]), "zero_points": i32([1, 0, -1])},
        {**da, "quantization_axis": 0})
add("udq_err_scale", "UniformDequantize",
    {"input": t([[1, 2]], "qint8"), "scales": f32(0.0), "zero_points": i32(0)},
    {"Tin": "qint8", "Tout": "float32", "quantization_min_val": -128, "quantization_max_val": 127})
QREQ = np.concatenate([R.integers(-(2**31), 2**31 - 1, 10, endpoint=True),
                       [2**31 - 1, -(2**31), 0, 7, -7, 1000, -1000, 123456]]).reshape(3, 6)
for tin, vals in (("qint32", QREQ), ("qint8", R.integers(-128, 127, (3, 6), endpoint=True))):
    base = {"Tin": tin, "Tout": "qint8", "input_quantization_min_val": QR[tin][0],
            "input_quantization_max_val": QR[tin][1], "output_quantization_min_val": -127,
            "output_quantization_max_val": 127}
    for i, (isc, izp, osc, ozp) in enumerate(((0.5, 3, 2.0, -1), (1e-6, 0, 0.37, 5),
                                                (3.0, -5, 0.011, 2), (1.0, 0, 1e-3, 0))):
        add(f"ureq_{tin}_{i}", "UniformRequantize",
            {"input": t(vals, tin), "input_scales": f32(isc), "input_zero_points": i32(izp),
             "output_scales": f32(osc), "output_zero_points": i32(ozp)}, base)
    add(f"ureq_{tin}_in_axis", "UniformRequantize",
        {"input": t(vals, tin), "input_scales": f32([0.5, 1.5, 0.01]),
         "input_zero_points": i32([1, 2, 3]), "output_scales": f32(0.3),
         "output_zero_points": i32(-2)}, {**base, "input_quantization_axis": 0})
    add(f"ureq_{tin}_out_axis", "UniformRequantize",
        {"input": t(vals, tin), "input_scales": f32(0.7),
         "input_zero_points": i32(1), "output_scales": f32(np.linspace(0.1, 3, 6)),
         "output_zero_points": i32(range(6))}, {**base, "output_quantization_axis": 1})
    add(f"ureq_{tin}_both_axis", "UniformRequantize",
        {"input": t(vals, tin), "input_scales": f32([0.5, 1.5, 0.01]),
         "input_zero_points": i32([1, 2, 3]), "output_scales": f32([0.2, 0.3, 0.4]),
         "output_zero_points": i32([0, -1, 1])},
        {**base, "input_quantization_axis": 0, "output_quantization_axis": 0})
rq8 = {"Tin": "qint8", "Tout": "qint8", "input_quantization_min_val": -128,
       "input_quantization_max_val": 127, "output_quantization_min_val": -128,
       "output_quantization_max_val": 127}
q8 = t([[1, 2, 3]], "qint8")
add("ureq_err_axis_mismatch", "UniformRequantize",
    {"input": q8, "input_scales": f32([1.0]), "input_zero_points": i32([0]),
     "output_scales": f32([1.0, 1.0, 1.0]), "output_zero_points": i32([0, 0, 0])},
    {**rq8, "input_quantization_axis": 0, "output_quantization_axis": 1})
add("ureq_err_scale", "UniformRequantize",
    {"input": q8, "input_scales": f32(-1.0), "input_zero_points": i32(0),
     "output_scales": f32(1.0), "output_zero_points": i32(0)}, rq8)
add("ureq_err_axis_neg", "UniformRequantize",
    {"input": q8, "input_scales": f32(1.0), "input_zero_points": i32(0),
     "output_scales": f32(1.0), "output_zero_points": i32(0)},
    {**rq8, "output_quantization_axis": -3})
add("ureq_huge_multiplier", "UniformRequantize",
    {"input": q8, "input_scales": f32(1e30), "input_zero_points": i32(0),
     "output_scales": f32(1e-30), "output_zero_points": i32(0)}, rq8)
add("ureq_tiny_multiplier", "UniformRequantize",
    {"input": q8, "input_scales": f32(1e-30), "input_zero_points": i32(0),
     "output_scales": f32(1e30), "output_zero_points": i32(0)}, rq8)

QA = R.integers(-5000, 5000, (2, 3, 4))
QB = R.integers(-5000, 5000, (3, 4))
ua = {"T": "qint32", "lhs_quantization_min_val": -(2**31), "lhs_quantization_max_val": 2**31 - 1,
      "rhs_quantization_min_val": -(2**31), "rhs_quantization_max_val": 2**31 - 1,
      "output_quantization_min_val": -(2**31), "output_quantization_max_val": 2**31 - 1}
add("uadd_tensor", "UniformQuantizedAdd",
    {"lhs": t(QA, "qint32"), "rhs": t(QB, "qint32"), "lhs_scales": f32(0.5),
     "lhs_zero_points": i32(3), "rhs_scales": f32(0.25), "rhs_zero_points": i32(-2),
     "output_scales": f32(0.75), "output_zero_points": i32(1)}, ua)
add("uadd_scalar_lhs", "UniformQuantizedAdd",
    {"lhs": t(77, "qint32"), "rhs": t(QB, "qint32"), "lhs_scales": f32(0.5),
     "lhs_zero_points": i32(3), "rhs_scales": f32(0.25), "rhs_zero_points": i32(-2),
     "output_scales": f32(0.1), "output_zero_points": i32(1)},
    {**ua, "output_quantization_min_val": -1000, "output_quantization_max_val": 1000})
add("uadd_axis", "UniformQuantizedAdd",
    {"lhs": t(QA, "qint32"), "rhs": t(QB, "qint32"), "lhs_scales": f32([0.5, 0.2, 0.3, 0.4]),
     "lhs_zero_points": i32([3, 0, 1, 2]), "rhs_scales": f32([0.25, 1.0, 2.0, 0.5]),
     "rhs_zero_points": i32([-2, 0, 1, 1]), "output_scales": f32([0.75, 0.1, 0.2, 0.3]),
     "output_zero_points": i32([1, 2, 3, 4])},
    {**ua, "lhs_quantization_axis": 2, "rhs_quantization_axis": 1,
     "output_quantization_axis": 2})
add("uadd_err_shape", "UniformQuantizedAdd",
    {"lhs": t(QA, "qint32"), "rhs": t(QB[:, :3], "qint32"), "lhs_scales": f32(0.5),
     "lhs_zero_points": i32(3), "rhs_scales": f32(0.25), "rhs_zero_points": i32(-2),
     "output_scales": f32(0.75), "output_zero_points": i32(1)}, ua)
add("uadd_err_axis_match", "UniformQuantizedAdd",
    {"lhs": t(QA, "qint32"), "rhs": t(QB, "qint32"), "lhs_scales": f32([0.5] * 3),
     "lhs_zero_points": i32([3] * 3), "rhs_scales": f32(0.25), "rhs_zero_points": i32(-2),
     "output_scales": f32([0.75] * 4), "output_zero_points": i32([1] * 4)},
    {**ua, "lhs_quantization_axis": 1, "output_quantization_axis": 2})
add("uadd_err_scale", "UniformQuantizedAdd",
    {"lhs": t(QA, "qint32"), "rhs": t(QB, "qint32"), "lhs_scales": f32(0.5),
     "lhs_zero_points": i32(3), "rhs_scales": f32(0.0), "rhs_zero_points": i32(-2),
     "output_scales": f32(0.75), "output_zero_points": i32(1)}, ua)
add("uadd_err_axis_attr", "UniformQuantizedAdd",
    {"lhs": t(QA, "qint32"), "rhs": t(QB, "qint32"), "lhs_scales": f32(0.5),
     "lhs_zero_points": i32(3), "rhs_scales": f32(0.25), "rhs_zero_points": i32(-2),
     "output_scales": f32(0.75), "output_zero_points": i32(1)},
    {**ua, "rhs_quantization_axis": -2})
uc = {"T": "qint32", "quantization_min_val": -(2**31), "quantization_max_val": 2**31 - 1}
add("uclip", "UniformQuantizedClipByValue",
    {"operand": t(QB, "qint32"), "min": t(-100, "qint32"), "max": t(2000, "qint32"),
     "scales": f32(0.5), "zero_points": i32(0)}, uc)
add("uclip_axis", "UniformQuantizedClipByValue",
    {"operand": t(QB, "qint32"), "min": t([-100, 0, 5], "qint32"),
     "max": t([2000, 10, 4000], "qint32"), "scales": f32([0.5, 1, 2]),
     "zero_points": i32([0, 1, 2])}, {**uc, "quantization_axis": 0})
add("uclip_err_min", "UniformQuantizedClipByValue",
    {"operand": t(QB, "qint32"), "min": t([-100], "qint32"), "max": t(2000, "qint32"),
     "scales": f32(0.5), "zero_points": i32(0)}, uc)
add("uclip_err_max", "UniformQuantizedClipByValue",
    {"operand": t(QB, "qint32"), "min": t(-100, "qint32"), "max": t([2000], "qint32"),
     "scales": f32(0.5), "zero_points": i32(0)}, uc)

L8 = R.integers(-128, 127, (3, 5), endpoint=True)
R8 = R.integers(-128, 127, (5, 4), endpoint=True)
ud = {"Tin": "qint8", "Tout": "qint32", "lhs_quantization_min_val": -128,
      "lhs_quantization_max_val": 127, "rhs_quantization_min_val": -127,
      "rhs_quantization_max_val": 127, "output_quantization_min_val": -(2**31),
      "output_quantization_max_val": 2**31 - 1}
add("udot", "UniformQuantizedDot",
    {"lhs": t(L8, "qint8"), "rhs": t(R8, "qint8"), "lhs_scales": f32(0.5),
     "lhs_zero_points": i32(2), "rhs_scales": f32(0.25), "rhs_zero_points": i32(-1),
     "output_scales": f32(0.3), "output_zero_points": i32(4)}, ud)
add("udot_clamped", "UniformQuantizedDot",
    {"lhs": t(L8, "qint8"), "rhs": t(R8, "qint8"), "lhs_scales": f32(0.5),
     "lhs_zero_points": i32(2), "rhs_scales": f32(0.25), "rhs_zero_points": i32(-1),
     "output_scales": f32(0.01), "output_zero_points": i32(4)},
    {**ud, "output_quantization_min_val": -1000, "output_quantization_max_val": 1000})
add("udot_big", "UniformQuantizedDot",
    {"lhs": t(np.full((2, 700), 127), "qint8"), "rhs": t(np.full((700, 3), -128), "qint8"),
     "lhs_scales": f32(1.0), "lhs_zero_points": i32(-127), "rhs_scales": f32(1.0),
     "rhs_zero_points": i32(127), "output_scales": f32(1.0), "output_zero_points": i32(0)}, ud)
add("udot_per_channel", "UniformQuantizedDot",
    {"lhs": t(L8, "qint8"), "rhs": t(R8, "qint8"), "lhs_scales": f32(0.5),
     "lhs_zero_points": i32(2), "rhs_scales": f32([0.25, 0.5, 1.0, 2.0]),
     "rhs_zero_points": i32([-1, 0, 1, 2]), "output_scales": f32([0.3, 0.2, 0.1, 0.4]),
     "output_zero_points": i32([4, 3, 2, 1])},
    {**ud, "rhs_quantization_axis": 1, "output_quantization_axis": 1})
add("udot_per_channel_out_scalar", "UniformQuantizedDot",
    {"lhs": t(L8, "qint8"), "rhs": t(R8, "qint8"), "lhs_scales": f32(0.5),
     "lhs_zero_points": i32(2), "rhs_scales": f32([0.25, 0.5, 1.0, 2.0]),
     "rhs_zero_points": i32([-1, 0, 1, 2]), "output_scales": f32(0.3),
     "output_zero_points": i32(4)}, {**ud, "rhs_quantization_axis": 1})
add("udot_err_rank", "UniformQuantizedDot",
    {"lhs": t(L8[0], "qint8"), "rhs": t(R8, "qint8"), "lhs_scales": f32(0.5),
     "lhs_zero_points": i32(2), "rhs_scales": f32(0.25), "rhs_zero_points": i32(-1),
     "output_scales": f32(0.3), "output_zero_points": i32(4)}, ud)
add("udot_err_inner", "UniformQuantizedDot",
    {"lhs": t(L8, "qint8"), "rhs": t(R8[:4], "qint8"), "lhs_scales": f32(0.5),
     "lhs_zero_points": i32(2), "rhs_scales": f32(0.25), "rhs_zero_points": i32(-1),
     "output_scales": f32(0.3), "output_zero_points": i32(4)}, ud)
add("udot_err_lhs_axis", "UniformQuantizedDot",
    {"lhs": t(L8, "qint8"), "rhs": t(R8, "qint8"), "lhs_scales": f32(0.5),
     "lhs_zero_points": i32(2), "rhs_scales": f32(0.25), "rhs_zero_points": i32(-1),
     "output_scales": f32(0.3), "output_zero_points": i32(4)}, {**ud, "lhs_quantization_axis": 0})
add("udot_err_out_per_tensor", "UniformQuantizedDot",
    {"lhs": t(L8, "qint8"), "rhs": t(R8, "qint8"), "lhs_scales": f32(0.5),
     "lhs_zero_points": i32(2), "rhs_scales": f32(0.25), "rhs_zero_points": i32(-1),
     "output_scales": f32([0.3] * 4), "output_zero_points": i32([4] * 4)}, ud)
add("udot_err_lhs_scale", "UniformQuantizedDot",
    {"lhs": t(L8, "qint8"), "rhs": t(R8, "qint8"), "lhs_scales": f32(-0.5),
     "lhs_zero_points": i32(2), "rhs_scales": f32(0.25), "rhs_zero_points": i32(-1),
     "output_scales": f32(0.3), "output_zero_points": i32(4)}, ud)
add("udot_err_lhs_vec", "UniformQuantizedDot",
    {"lhs": t(L8, "qint8"), "rhs": t(R8, "qint8"), "lhs_scales": f32([0.5]),
     "lhs_zero_points": i32([2]), "rhs_scales": f32(0.25), "rhs_zero_points": i32(-1),
     "output_scales": f32(0.3), "output_zero_points": i32(4)}, ud)
LF = np.concatenate([R.uniform(-3, 5, (3, 5)), [[0.0] * 5], [[1.0, 2.0, 0.5, 3.0, 2.0]]])
uh = {"Tlhs": "float32", "Trhs": "qint8", "Tout": "float32", "rhs_quantization_min_val": -128,
      "rhs_quantization_max_val": 127}
add("udoth", "UniformQuantizedDotHybrid",
    {"lhs": f32(LF), "rhs": t(R8, "qint8"), "rhs_scales": f32(0.25),
     "rhs_zero_points": i32(-1)}, uh)
add("udoth_per_channel", "UniformQuantizedDotHybrid",
    {"lhs": f32(LF), "rhs": t(R8, "qint8"), "rhs_scales": f32([0.25, 0.5, 1.0, 2.0]),
     "rhs_zero_points": i32([-1, 0, 1, 2])}, {**uh, "rhs_quantization_axis": 1})
add("udoth_err_axis", "UniformQuantizedDotHybrid",
    {"lhs": f32(LF), "rhs": t(R8, "qint8"), "rhs_scales": f32(0.25),
     "rhs_zero_points": i32(-1)}, {**uh, "rhs_quantization_axis": 0})
add("udoth_err_shape", "UniformQuantizedDotHybrid",
    {"lhs": f32(LF), "rhs": t(R8[:3], "qint8"), "rhs_scales": f32(0.25),
     "rhs_zero_points": i32(-1)}, uh)
add("udoth_err_scale", "UniformQuantizedDotHybrid",
    {"lhs": f32(LF), "rhs": t(R8, "qint8"), "rhs_scales": f32(0.0),
     "rhs_zero_points": i32(-1)}, uh)

# ---------------------------------------------------------------- QuantizedMatMul
QA8 = R.integers(0, 255, (3, 5), endpoint=True)
QB8 = R.integers(0, 255, (5, 4), endpoint=True)
for ta in (False, True):
    for tb in (False, True):
        a = QA8.T if ta else QA8
        b = QB8.T if tb else QB8
        add(f"qmm_{int(ta)}{int(tb)}", "QuantizedMatMul",
            {"a": t(a, "quint8"), "b": t(b, "quint8"), "min_a": f32(-1.0), "max_a": f32(2.0),
             "min_b": f32(-0.5), "max_b": f32(0.75)},
            {"Toutput": "qint32", "transpose_a": ta, "transpose_b": tb})
add("qmm_pos_range", "QuantizedMatMul",
    {"a": t(QA8, "quint8"), "b": t(QB8, "quint8"), "min_a": f32(0.5), "max_a": f32(3.0),
     "min_b": f32(-7.0), "max_b": f32(-1.0)}, {"Toutput": "qint32"})
add("qmm_big", "QuantizedMatMul",
    {"a": t(np.full((2, 300), 255), "quint8"), "b": t(np.full((300, 3), 255), "quint8"),
     "min_a": f32(-10.0), "max_a": f32(0.1), "min_b": f32(-10.0), "max_b": f32(0.1)},
    {"Toutput": "qint32"})
add("qmm_err_range_a", "QuantizedMatMul",
    {"a": t(QA8, "quint8"), "b": t(QB8, "quint8"), "min_a": f32(1.0), "max_a": f32(1.0),
     "min_b": f32(-0.5), "max_b": f32(0.75)}, {"Toutput": "qint32"})
add("qmm_err_range_b", "QuantizedMatMul",
    {"a": t(QA8, "quint8"), "b": t(QB8, "quint8"), "min_a": f32(0.0), "max_a": f32(1.0),
     "min_b": f32(0.5), "max_b": f32(0.25)}, {"Toutput": "qint32"})
add("qmm_err_scalar", "QuantizedMatMul",
    {"a": t(QA8, "quint8"), "b": t(QB8, "quint8"), "min_a": f32([0.0]), "max_a": f32(1.0),
     "min_b": f32(0.5), "max_b": f32(1.25)}, {"Toutput": "qint32"})
add("qmm_err_scalar_maxb", "QuantizedMatMul",
    {"a": t(QA8, "quint8"), "b": t(QB8, "quint8"), "min_a": f32(0.0), "max_a": f32(1.0),
     "min_b": f32(0.5), "max_b": f32([1.25])}, {"Toutput": "qint32"})
add("qmm_err_matrix", "QuantizedMatMul",
    {"a": t(QA8[0], "quint8"), "b": t(QB8, "quint8"), "min_a": f32(0.0), "max_a": f32(1.0),
     "min_b": f32(0.5), "max_b": f32(1.25)}, {"Toutput": "qint32"})
add("qmm_err_matrix_b", "QuantizedMatMul",
    {"a": t(QA8, "quint8"), "b": t(QB8[0], "quint8"), "min_a": f32(0.0), "max_a": f32(1.0),
     "min_b": f32(0.5), "max_b": f32(1.25)}, {"Toutput": "qint32"})
add("qmm_err_inner", "QuantizedMatMul",
    {"a": t(QA8, "quint8"), "b": t(QB8[:4], "quint8"), "min_a": f32(0.0), "max_a": f32(1.0),
     "min_b": f32(0.5), "max_b": f32(1.25)}, {"Toutput": "qint32"})


def _tensor(tf: Any, spec: dict[str, Any]) -> Any:
    return tf.constant(spec["value"], dtype=getattr(tf, spec["dtype"]), shape=spec["shape"])


def run_case(tf: Any, cs: dict[str, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = dict(cs["attrs"])
    for name, spec in cs["inputs"].items():
        kwargs[name] = ([_tensor(tf, x) for x in spec] if isinstance(spec, list)
                        else _tensor(tf, spec))
    for k in ("T", "dtype", "out_type", "Tout", "Tin", "Tlhs", "Trhs", "Toutput"):
        if isinstance(kwargs.get(k), str):
            kwargs[k] = getattr(tf, kwargs[k])
    return run_raw(tf, cs["op"], kwargs)


def main() -> None:
    record_main(CASES, "quant2_ops_tf221.json", run_case)


if __name__ == "__main__":
    main()
