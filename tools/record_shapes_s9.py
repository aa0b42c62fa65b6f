"""Records TF 2.21's graph-mode inferred output shapes for the ops whose
shape rules live in csrc/ops/shape_infer_rules_s9.c.

Each case builds one op in a fresh tf.Graph from tf.compat.v1 placeholders of
known, partially known or unknown shape and records every output's shape
(null for unknown rank, -1 for an unknown dim) or TF's error message.

Run: /work/tfvenv/bin/python tools/record_shapes_s9.py
Writes tests/data/shapes_s9_tf221.json.
"""

from __future__ import annotations

import json
import os
from typing import Any

import tensorflow as tf

U = None  # unknown rank

# A case: (name, op, [(input name, dtype, shape or None)...], attrs,
#          {input name: constant value} optional)
Case = tuple[str, str, list[tuple[str, str, Any]], dict[str, Any]]


def c(name: str, op: str, inputs: list[tuple[str, str, Any]], **attrs: Any) -> Case:
    return (name, op, inputs, attrs)


def qdq(v: str, x: Any, mn: Any, mx: Any, **attrs: Any) -> list[Case]:
    ins = [("input", "float32", x), ("input_min", "float32", mn), ("input_max", "float32", mx)]
    if v == "V3":
        ins.append(("num_bits", "int32", []))
    return [
        c(
            f"qdq{v}_{attrs.get('axis', -1)}_{x}_{mn}_{mx}",
            f"QuantizeAndDequantize{v}",
            ins,
            **attrs,
        )
    ]


def lstm_inputs(x: Any, cs: Any, w: Any, b: Any) -> list[tuple[str, str, Any]]:
    return [
        ("seq_len_max", "int64", []),
        ("x", "float32", x),
        ("cs_prev", "float32", cs),
        ("h_prev", "float32", cs),
        ("w", "float32", w),
        ("wci", "float32", [None] if b is not None else None),
        ("wcf", "float32", [None] if b is not None else None),
        ("wco", "float32", [None] if b is not None else None),
        ("b", "float32", b),
    ]


def lstm_grad_inputs(x: Any, cs: Any, w: Any, b: Any) -> list[tuple[str, str, Any]]:
    ins = lstm_inputs(x, cs, w, b)
    t = None if x is None else [x[0], x[1], None]
    for n in ("i", "cs", "f", "o", "ci", "co", "h", "cs_grad", "h_grad"):
        ins.append((n, "float32", t))
    return ins


def cases() -> list[Case]:
    out: list[Case] = []
    # Eig
    for s in ([3, 3], [2, 4, 4], [None, None, 5], [None, 3, None], U, [2, 3], [4]):
        for cv in (True, False):
            out.append(
                c(
                    f"eig_{s}_{cv}",
                    "Eig",
                    [("input", "float32", s)],
                    Tout=tf.complex64,
                    compute_v=cv,
                )
            )
    # MatrixSolveLs
    for m, r, l2 in (
        ([4, 3], [4, 2], []),
        ([2, 5, 3], [2, 5, 1], []),
        ([None, 3], [4, None], []),
        (U, [4, 2], []),
        ([4, 3], U, []),
        ([2, 4, 3], [3, 4, 2], []),
        ([4, 3], [5, 2], []),
        ([4, 3], [4, 2], [1]),
        ([3], [4, 2], []),
        ([2, 4, 3], [4, 2], []),
        ([None, None, 3], [2, None, 7], []),
    ):
        out.append(
            c(
                f"solvels_{m}_{r}_{l2}",
                "MatrixSolveLs",
                [
                    ("matrix", "float64", m),
                    ("rhs", "float64", r),
                    ("l2_regularizer", "float64", l2),
                ],
            )
        )
    # QuantizeAndDequantize V2/V3/V4
    for v in ("V2", "V3", "V4"):
        out += qdq(v, [2, 3], [], [])
        out += qdq(v, U, U, U)
        out += qdq(v, [2, 3], [3], [None], axis=1)
        out += qdq(v, [2, None], [3], U, axis=1)
        out += qdq(v, [2, 3], [4], [4], axis=1)
        out += qdq(v, [2, 3], [2], [3], axis=0)
        out += qdq(v, [2, 3], [3], [3])
        out += qdq(v, [2, 3], [], [], axis=-2)
        out += qdq(v, [2, 3], [3], [3], axis=2)
        out += qdq(v, U, [3], [3], axis=2)
        out += qdq(v, [2, 3], [3], [3], axis=-2)
    out.append(
        c(
            "qdqV3_numbits",
            "QuantizeAndDequantizeV3",
            [
                ("input", "float32", [2]),
                ("input_min", "float32", []),
                ("input_max", "float32", []),
                ("num_bits", "int32", [1]),
            ],
        )
    )
    for x, g, mn, ax in (
        ([2, 3], [2, 3], [4], 1),
        ([2, 3], [2, 3], [2], -2),
        ([2, 3], [2, 3], [2], 2),
        ([2, 3], [2, 3], [], -1),
        ([2, None], [None, 3], [3], 1),
        ([2, 3], [2, 4], [], -1),
        (U, U, U, 0),
        ([2, 3], U, [5], 1),
        ([2, 3], [2, 3], [], -3),
        ([2, 3], [2, 3], [2], -1),
    ):
        out.append(
            c(
                f"qdq4grad_{x}_{g}_{mn}_{ax}",
                "QuantizeAndDequantizeV4Grad",
                [
                    ("gradients", "float32", g),
                    ("input", "float32", x),
                    ("input_min", "float32", mn),
                    ("input_max", "float32", mn),
                ],
                axis=ax,
            )
        )
    # BlockLSTM / V2
    for op in ("BlockLSTM", "BlockLSTMV2"):
        for x, cs, w, b in (
            ([5, 2, 3], [2, 4], [7, 16], [16]),
            ([None, 2, None], [None, None], U, [None]),
            (U, U, U, U),
            ([5, 2, 3], [2, 4], [7, 16], [15]),
            ([5, 2], [2, 4], [7, 16], [16]),
            ([5, 2, 3], [2, 4], [7, 16], [4, 4]),
        ):
            out.append(c(f"{op}_{x}_{cs}_{w}_{b}", op, lstm_inputs(x, cs, w, b)))
        out.append(
            c(
                f"{op}_badseq",
                op,
                [("seq_len_max", "int64", [1]), *lstm_inputs([5, 2, 3], [2, 4], [7, 16], [16])[1:]],
            )
        )
    for op in ("BlockLSTMGrad", "BlockLSTMGradV2"):
        for x, cs, w, b in (
            ([5, 2, 3], [2, 4], [7, 16], [16]),
            ([None, 2, None], [None, None], U, [None]),
            (U, U, U, U),
            ([5, 2], [2, 4], [7, 16], [16]),
            ([5, 2, 3], [2, 4, 1], [7, 16], [16]),
            ([5, 2, 3], [2, 4], [7], [16]),
            ([5, 2, 3], [2, 4], [7, 16], [16, 1]),
        ):
            out.append(
                c(f"{op}_{x}_{cs}_{w}_{b}", op, lstm_grad_inputs(x, cs, w, b), use_peephole=True)
            )
    # CTCLoss / V2
    for op in ("CTCLoss", "CTCLossV2"):
        for lg, li, lv, sl in (
            ([6, 2, 5], [3, 2], [3], [2]),
            ([None, None, 5], [None, 2], [4], [3]),
            (U, U, U, U),
            ([6, 2, 5], [3, 2], [4], [2]),
            ([6, 2, 5], [3, 2], [3], [3]),
            ([6, 2], [3, 2], [3], [2]),
            ([6, 2, 5], [3], [3], [2]),
            ([6, None, 5], U, U, [2]),
        ):
            out.append(
                c(
                    f"{op}_{lg}_{li}_{lv}_{sl}",
                    op,
                    [
                        ("inputs", "float32", lg),
                        ("labels_indices", "int64", li),
                        ("labels_values", "int32", lv),
                        ("sequence_length", "int32", sl),
                    ],
                )
            )
    # SparseMatMul
    for a, b, ta, tb in (
        ([2, 3], [3, 4], False, False),
        ([3, 2], [3, 4], True, False),
        ([2, 3], [4, 3], False, True),
        ([None, 3], [None, None], False, False),
        (U, [3, 4], False, False),
        ([2, 3], [4, 4], False, False),
        ([2, 3, 1], [3, 4], False, False),
        (U, U, True, True),
    ):
        out.append(
            c(
                f"sparsematmul_{a}_{b}_{ta}_{tb}",
                "SparseMatMul",
                [("a", "float32", a), ("b", "float32", b)],
                transpose_a=ta,
                transpose_b=tb,
            )
        )
    # SparseSlice
    for i, v, s in (
        ([4, 2], [4], [2]),
        ([None, 3], [None], [None]),
        (U, U, U),
        ([4, 2], [5], [2]),
        ([4], [4], [2]),
        ([4, 2], [4], [3]),
    ):
        out.append(
            c(
                f"sparseslice_{i}_{v}_{s}",
                "SparseSlice",
                [
                    ("indices", "int64", i),
                    ("values", "float32", v),
                    ("shape", "int64", s),
                    ("start", "int64", s),
                    ("size", "int64", s),
                ],
            )
        )
    out += more_cases()
    out += third_cases()
    out += fourth_cases()
    return out


def more_cases() -> list[Case]:
    """Second batch: LSTM/GRU cells, v1 eig, matrix exponential, Cholesky
    gradient and the quantization helpers."""
    out: list[Case] = []
    f = "float32"
    for x, cs, b in (
        ([2, 3], [2, 4], [16]),
        ([None, 3], [None, None], U),
        (U, U, U),
        ([2, 3, 1], [2, 4], [16]),
        ([2, 3], [4], [16]),
    ):
        ins = [
            ("x", f, x),
            ("cs_prev", f, cs),
            ("h_prev", f, cs),
            ("w", f, [7, 16]),
            ("wci", f, [4]),
            ("wcf", f, [4]),
            ("wco", f, [4]),
            ("b", f, b),
        ]
        out.append(c(f"lstmcell_{x}_{cs}_{b}", "LSTMBlockCell", ins))
        g = [*ins, *[(n, f, cs) for n in ("i", "cs", "f", "o", "ci", "co", "cs_grad", "h_grad")]]
        out.append(c(f"lstmcellgrad_{x}_{cs}_{b}", "LSTMBlockCellGrad", g, use_peephole=True))
    for x, h in (
        ([2, 3], [2, 4]),
        ([None, 3], [None, None]),
        (U, U),
        ([2], [2, 4]),
        ([2, 3], [2, 4, 1]),
    ):
        ins = [
            ("x", f, x),
            ("h_prev", f, h),
            ("w_ru", f, [7, 8]),
            ("w_c", f, [7, 4]),
            ("b_ru", f, [8]),
            ("b_c", f, [4]),
        ]
        out.append(c(f"grucell_{x}_{h}", "GRUBlockCell", ins))
        g = [*ins, *[(n, f, h) for n in ("r", "u", "c", "d_h")]]
        out.append(c(f"grucellgrad_{x}_{h}", "GRUBlockCellGrad", g))
    for s in ([3, 3], [2, 4, 4], [None, None, 5], [None, 3, None], U, [2, 3], [4]):
        out.append(c(f"cholgrad_{s}", "CholeskyGrad", [("l", f, s), ("grad", f, s)]))
    out.append(c("cholgrad_mismatch", "CholeskyGrad", [("l", f, [3, 3]), ("grad", f, [4, 4])]))
    for x, mn, ax in (
        ([2, 3], [], -1),
        (U, U, -1),
        ([2, 3], [3], 1),
        ([2, 3], [4], 1),
        ([2, 3], [3], -1),
        ([2, 3], [], -2),
        ([2, 3], [2], 2),
        (U, [5], 3),
    ):
        ins = [("input", f, x), ("min_range", f, mn), ("max_range", f, mn)]
        out.append(c(f"quantizev2_{x}_{mn}_{ax}", "QuantizeV2", ins, T=tf.quint8, axis=ax))
        dins = [("input", "quint8", x), ("min_range", f, mn), ("max_range", f, mn)]
        out.append(c(f"dequantize_{x}_{mn}_{ax}", "Dequantize", dins, axis=ax))
    for x, mn in (([2, 3], []), (U, U), ([2, None], [1])):
        q = [("input", "qint32", x), ("input_min", f, mn), ("input_max", f, mn)]
        out.append(c(f"requantrange_{x}_{mn}", "RequantizationRange", q))
        out.append(c(f"qdownshrink_{x}_{mn}", "QuantizeDownAndShrinkRange", q, out_type=tf.quint8))
        r = [*q, ("requested_output_min", f, mn), ("requested_output_max", f, mn)]
        out.append(c(f"requantize_{x}_{mn}", "Requantize", r, out_type=tf.quint8))
        qr = [("features", "quint8", x), ("min_features", f, mn), ("max_features", f, mn)]
        out.append(c(f"qrelu_{x}_{mn}", "QuantizedRelu", qr))
        out.append(c(f"qrelu6_{x}_{mn}", "QuantizedRelu6", qr))
    return out


def third_cases() -> list[Case]:
    """Third batch: image/nms helpers, CTC greedy decoding, quantized
    matmul and arithmetic."""
    out: list[Case] = []
    f = "float32"
    for b, sc, mo in (
        ([5, 4], [5], []),
        ([None, 4], [None], []),
        (U, U, U),
        ([5, 3], [5], []),
        ([5, 4], [6], []),
        ([5], [5], []),
        ([5, 4], [5], [1]),
    ):
        ins = [("boxes", f, b), ("scores", f, sc), ("max_output_size", "int32", mo)]
        out.append(c(f"nms_{b}_{sc}_{mo}", "NonMaxSuppressionV2", [*ins, ("iou_threshold", f, [])]))
        out.append(c(f"nmsv1_{b}_{sc}_{mo}", "NonMaxSuppression", ins, iou_threshold=0.5))
    for im, bb in (
        ([4, 5, 3], [1, 2, 4]),
        (U, U),
        ([3], [1, 2, 4]),
        ([3], [1, 2, 3]),
        ([3], [2, 4]),
    ):
        out.append(
            c(
                f"sdbb_{im}_{bb}",
                "SampleDistortedBoundingBox",
                [("image_size", "int32", im), ("bounding_boxes", f, bb)],
            )
        )
    for x, sl in (
        ([6, 2, 5], [2]),
        ([None, None, 5], [3]),
        (U, U),
        ([6, 2], [2]),
        ([6, 2, 5], [3]),
        ([6, 2, 5], [2, 1]),
    ):
        out.append(
            c(
                f"ctcgreedy_{x}_{sl}",
                "CTCGreedyDecoder",
                [("inputs", f, x), ("sequence_length", "int32", sl)],
            )
        )
    for a, b in (([2, 3], [3, 4]), ([None, 3], U), (U, U), ([2, 3], [4, 4]), ([2], [3, 4])):
        q = [
            ("a", "quint8", a),
            ("b", "quint8", b),
            ("min_a", f, []),
            ("max_a", f, []),
            ("min_b", f, []),
            ("max_b", f, []),
        ]
        out.append(c(f"qmatmul_{a}_{b}", "QuantizedMatMul", q))
    for a, b, mn in (
        ([2, 3], [3], []),
        ([2, 1], [1, 4], []),
        (U, [3], []),
        ([2, 3], [4], []),
        ([2, 3], [3], [1]),
    ):
        q = [
            ("x", "quint8", a),
            ("y", "quint8", b),
            ("min_x", f, mn),
            ("max_x", f, []),
            ("min_y", f, []),
            ("max_y", f, []),
        ]
        out.append(c(f"qadd_{a}_{b}_{mn}", "QuantizedAdd", q))
        out.append(c(f"qmul_{a}_{b}_{mn}", "QuantizedMul", q))
    for x, bias in (([2, 3], [3]), (U, U), ([2, 3], [4]), ([3], [3]), ([2, 3], [3, 1])):
        q = [
            ("input", "quint8", x),
            ("bias", "quint8", bias),
            ("min_input", f, []),
            ("max_input", f, []),
            ("min_bias", f, []),
            ("max_bias", f, []),
        ]
        out.append(c(f"qbiasadd_{x}_{bias}", "QuantizedBiasAdd", q, out_type=tf.qint32))
    return out


def fourth_cases() -> list[Case]:
    """Fourth batch: fractional pooling, projective transforms and the
    quantized pooling and reshape."""
    out: list[Case] = []
    f = "float32"
    for x, r in (
        ([1, 10, 9, 3], [1.0, 1.5, 2.0, 1.0]),
        ([None, 7, None, 2], [1.0, 1.44, 1.73, 1.0]),
        (U, [1.0, 2.0, 2.0, 1.0]),
        ([1, 10, 9], [1.0, 1.5, 2.0, 1.0]),
        ([1, 10, 9, 3], [1.0, 2.0, 1.0]),
        ([1, 10, 9, 3], [1.0, 0.5, 2.0, 1.0]),
    ):
        for op in ("FractionalMaxPool", "FractionalAvgPool"):
            out.append(c(f"{op}_{x}_{r}", op, [("value", f, x)], pooling_ratio=r))
    for im, tr, osh in (
        ([2, 5, 6, 3], [2, 8], [2]),
        ([None, 5, 6, None], [1, 8], [2]),
        (U, U, U),
        ([5, 6, 3], [2, 8], [2]),
        ([2, 5, 6, 3], [2, 7], [2]),
        ([2, 5, 6, 3], [2, 8], [3]),
    ):
        ins = [("images", f, im), ("transforms", f, tr), ("output_shape", "int32", osh)]
        out.append(
            c(f"ipt2_{im}_{tr}_{osh}", "ImageProjectiveTransformV2", ins, interpolation="BILINEAR")
        )
        out.append(
            c(
                f"ipt3_{im}_{tr}_{osh}",
                "ImageProjectiveTransformV3",
                [*ins, ("fill_value", f, [])],
                interpolation="BILINEAR",
            )
        )
    for x, mn in (([1, 4, 4, 2], []), (U, []), ([4, 4, 2], []), ([1, 4, 4, 2], [1])):
        q = [("input", "quint8", x), ("min_input", f, mn), ("max_input", f, [])]
        kw = {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1], "padding": "VALID"}
        out.append(c(f"qavgpool_{x}_{mn}", "QuantizedAvgPool", q, **kw))
        out.append(c(f"qmaxpool_{x}_{mn}", "QuantizedMaxPool", q, **kw))
    for x, sh, mn in (([2, 3], [2], []), (U, U, []), ([2, 3], [2, 1], []), ([2, 3], [2], [1])):
        q = [
            ("tensor", "quint8", x),
            ("shape", "int32", sh),
            ("input_min", f, mn),
            ("input_max", f, []),
        ]
        out.append(c(f"qreshape_{x}_{sh}_{mn}", "QuantizedReshape", q))
    return out


def shape_json(s: tf.TensorShape) -> Any:
    if s.rank is None:
        return None
    return [-1 if d is None else int(d) for d in s.as_list()]


def run(case: Case) -> dict[str, Any]:
    name, op, inputs, attrs = case
    g = tf.Graph()
    with g.as_default():
        kw: dict[str, Any] = {}
        for n, dt, shp in inputs:
            kw[n] = tf.compat.v1.placeholder(tf.as_dtype(dt), shp, name=n)
        rec: dict[str, Any] = {
            "name": name,
            "op": op,
            "inputs": [[n, dt, shp] for n, dt, shp in inputs],
            "attrs": {k: (v.name if isinstance(v, tf.DType) else v) for k, v in attrs.items()},
        }
        try:
            res = getattr(tf.raw_ops, op)(**kw, **attrs)
            op_obj = (res[0] if isinstance(res, (list, tuple)) else res).op
            rec["shapes"] = [shape_json(t.shape) for t in op_obj.outputs]
        except (ValueError, tf.errors.OpError) as e:
            msg = str(e)
            rec["error"] = msg.split(" for '{{node")[0]
    return rec


def main() -> None:
    recs = [run(cs) for cs in cases()]
    names = [r["name"] for r in recs]
    assert len(names) == len(set(names)), "duplicate case names"
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "shapes_s9_tf221.json")
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, "cases": recs}, f, indent=1)
        f.write("\n")
    print(len(recs), "cases")


if __name__ == "__main__":
    main()
