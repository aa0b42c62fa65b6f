"""Graph-mode shape inference of the ops whose rules live in
csrc/ops/shape_infer_rules_s9.c, against TF 2.21's inferred shapes and
shape errors (tests/data/shapes_s9_tf221.json, tools/record_shapes_s9.py)."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

import tfe_py as tf

_DATA = os.path.join(os.path.dirname(__file__), "..", "data", "shapes_s9_tf221.json")
with open(_DATA) as _f:
    _CASES: list[dict[str, Any]] = json.load(_f)["cases"]


def _shape_json(s: Any) -> Any:
    if s.rank is None:
        return None
    return [-1 if d is None else int(d) for d in s.as_list()]


def _build(case: dict[str, Any]) -> list[Any]:
    """Builds the case's op in a fresh graph; returns its output shapes."""
    with tf.Graph().as_default():
        kw: dict[str, Any] = {}
        for name, dt, shape in case["inputs"]:
            kw[name] = tf.placeholder(tf.as_dtype(dt), shape, name=name)
        attrs = dict(case["attrs"])
        if "Tout" in attrs:
            attrs["Tout"] = tf.as_dtype(attrs["Tout"])
        res = getattr(tf.raw_ops, case["op"])(**kw, **attrs)
        first = res[0] if isinstance(res, (list, tuple)) else res
        return [_shape_json(t.shape) for t in first.op.outputs]


@pytest.mark.parametrize("case", _CASES, ids=[c["name"] for c in _CASES])
def test_shapes_match_tf(case: dict[str, Any]) -> None:
    if "error" in case:
        with pytest.raises(tf.errors.InvalidArgumentError) as ei:
            _build(case)
        got = str(ei.value).split(" for '{{node")[0]
        if case["error"].startswith("Attr '"):
            # TF's Python op builder refuses a too-short list attr before
            # any shape function runs (its own wording); tfe refuses it with
            # the C API's NodeDef check, as TF's C API does.
            assert got.startswith("Length for attr '"), got
        else:
            assert got == case["error"]
    else:
        assert _build(case) == case["shapes"]


def test_every_s9_op_is_covered() -> None:
    ops = {c["op"] for c in _CASES}
    for op in ("Eig", "MatrixSolveLs", "QuantizeAndDequantizeV2", "QuantizeAndDequantizeV3",
               "QuantizeAndDequantizeV4", "QuantizeAndDequantizeV4Grad", "BlockLSTM",
               "BlockLSTMV2", "BlockLSTMGrad", "BlockLSTMGradV2", "CTCLoss", "CTCLossV2",
               "SparseMatMul", "SparseSlice", "LSTMBlockCell", "LSTMBlockCellGrad",
               "GRUBlockCell", "GRUBlockCellGrad", "CholeskyGrad", "QuantizeV2", "Dequantize",
               "RequantizationRange", "QuantizeDownAndShrinkRange", "QuantizedRelu",
               "QuantizedRelu6", "Requantize", "NonMaxSuppression", "NonMaxSuppressionV2",
               "SampleDistortedBoundingBox", "CTCGreedyDecoder", "QuantizedMatMul",
               "QuantizedAdd", "QuantizedMul", "QuantizedBiasAdd", "FractionalMaxPool",
               "FractionalAvgPool", "ImageProjectiveTransformV2", "ImageProjectiveTransformV3",
               "QuantizedAvgPool", "QuantizedMaxPool", "QuantizedReshape"):
        assert op in ops, op
