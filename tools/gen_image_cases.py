"""Records TensorFlow 2.21's results for the image, ragged, linear-algebra
and random ops of issue 15 into tests/data/image_cases.json.

Run once, outside the repo's test runtime, with the TF python:
    /work/tfvenv/bin/python tools/gen_image_cases.py
Each case is {"op", "inputs", "attrs", "check"} plus either "outputs" (dtype,
shape and flat values of every output) or "error" (the exception class and
the first line of TF's message). Inputs are {"dtype", "shape", "values"}
(a list of those for a list input). "check" tells the test how to compare:
"exact", "close" (1e-5 relative), "svd" (singular values close, u/v
checked by reconstruction and orthogonality, as singular vectors are only
defined up to sign/phase) or "shape" (only dtypes and shapes)."""

from __future__ import annotations

import json
import pathlib
import re
import sys
from typing import Any

import numpy as np
import tensorflow as tf

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "image_cases.json"


def enc(a: Any) -> dict[str, Any]:
    t = tf.convert_to_tensor(a)
    dt = t.dtype.name
    arr = np.asarray(t.numpy())
    if dt == "string":
        vals: list[Any] = [v.decode("utf-8") for v in arr.ravel()]
    elif dt in ("complex64", "complex128"):
        vals = [[float(v.real), float(v.imag)] for v in arr.ravel()]
    elif dt == "bool":
        vals = [bool(v) for v in arr.ravel()]
    elif t.dtype.is_integer:
        vals = [int(v) for v in arr.ravel()]
    else:
        vals = [float(v) for v in np.asarray(arr, dtype=np.float64).ravel()]
        vals = [v if np.isfinite(v) else repr(v) for v in vals]
    return {"dtype": dt, "shape": list(arr.shape), "values": vals}


def tfmsg(e: Exception) -> str:
    m = getattr(e, "message", str(e))
    m = re.sub(r"^\{\{function_node [^}]*\}\} ", "", m)
    m = re.sub(r" \[Op:[A-Za-z0-9]+\].*$", "", m, flags=re.S)
    return m.split("\n")[0]


CASES: list[dict[str, Any]] = []


def case(
    op: str, inputs: dict[str, Any], attrs: dict[str, Any] | None = None, check: str = "exact"
) -> None:
    attrs = attrs or {}
    tins = {
        k: ([tf.constant(x) for x in v] if isinstance(v, list) else tf.constant(v))
        for k, v in inputs.items()
    }
    rec: dict[str, Any] = {
        "op": op,
        "inputs": {
            k: ([enc(x) for x in v] if isinstance(v, list) else enc(v)) for k, v in tins.items()
        },
        "attrs": attrs,
        "check": check,
    }
    try:
        res = getattr(tf.raw_ops, op)(**tins, **attrs)
        outs = list(res) if isinstance(res, (list, tuple)) else [res]
        rec["outputs"] = [enc(o) for o in outs]
    except tf.errors.OpError as e:
        rec["error"] = {"class": type(e).__name__, "msg": tfmsg(e)}
    CASES.append(rec)


def f32(x: Any) -> np.ndarray:
    return np.asarray(x, np.float32)


def i64(x: Any) -> np.ndarray:
    return np.asarray(x, np.int64)


def i32(x: Any) -> np.ndarray:
    return np.asarray(x, np.int32)


def ragged() -> None:
    R = "RaggedTensorToTensor"
    rs = {"row_partition_types": ["ROW_SPLITS"]}
    v4 = f32([1, 2, 3, 4])
    d9 = np.float32(9)
    case(
        R,
        {
            "shape": i64(-1),
            "values": v4,
            "default_value": d9,
            "row_partition_tensors": [i64([0, 1, 1, 4])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i64([2, 1]),
            "values": v4,
            "default_value": d9,
            "row_partition_tensors": [i64([0, 1, 1, 4])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i32([4, 5]),
            "values": v4,
            "default_value": d9,
            "row_partition_tensors": [i32([0, 1, 1, 4])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i64([-1, 2]),
            "values": v4,
            "default_value": d9,
            "row_partition_tensors": [i64([0, 3, 3, 4])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i64(-1),
            "values": f32([[1, 2], [3, 4], [5, 6]]),
            "default_value": f32([7, 8]),
            "row_partition_tensors": [i64([0, 1, 3])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i64(-1),
            "values": f32([[1, 2], [3, 4], [5, 6]]),
            "default_value": f32([[7, 8]]),
            "row_partition_tensors": [i64([0, 1, 3])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i64(-1),
            "values": i32([1, 2, 3, 4, 5]),
            "default_value": np.int32(0),
            "row_partition_tensors": [i32([0, 2, 3]), i32([0, 1, 3, 5])],
        },
        {"row_partition_types": ["ROW_SPLITS", "ROW_SPLITS"]},
    )
    case(
        R,
        {
            "shape": i64([2, 1, 1]),
            "values": i32([1, 2, 3, 4, 5]),
            "default_value": np.int32(0),
            "row_partition_tensors": [i32([0, 2, 3]), i32([0, 1, 3, 5])],
        },
        {"row_partition_types": ["ROW_SPLITS", "ROW_SPLITS"]},
    )
    fv = {"row_partition_types": ["FIRST_DIM_SIZE", "VALUE_ROWIDS"]}
    case(
        R,
        {
            "shape": i64(-1),
            "values": v4,
            "default_value": d9,
            "row_partition_tensors": [i64(4), i64([0, 0, 2, 2])],
        },
        fv,
    )
    case(
        R,
        {
            "shape": i64([3, 3]),
            "values": f32([1, 2, 3, 4, 5]),
            "default_value": d9,
            "row_partition_tensors": [i64(5), i64([0, 0, 0, 0, 4])],
        },
        fv,
    )
    case(
        R,
        {
            "shape": i64(-1),
            "values": np.array([b"a", b"bb", b"c"]),
            "default_value": np.array(b"?"),
            "row_partition_tensors": [i64([0, 2, 2, 3])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i64(-1),
            "values": np.array([True, False, True]),
            "default_value": np.array(False),
            "row_partition_tensors": [i64([0, 1, 3])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i64(-1),
            "values": np.array([1 + 2j, 3j], np.complex64),
            "default_value": np.complex64(0),
            "row_partition_tensors": [i64([0, 2])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i64(-1),
            "values": f32([]),
            "default_value": d9,
            "row_partition_tensors": [i64([0, 0, 0])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i64(-1),
            "values": np.zeros((0, 3), np.float16),
            "default_value": np.float16(1),
            "row_partition_tensors": [i64([0, 0])],
        },
        rs,
    )
    # errors
    case(
        R,
        {
            "shape": i64(-1),
            "values": v4,
            "default_value": d9,
            "row_partition_tensors": [i64([0, 0, 2, 2])],
        },
        {"row_partition_types": ["VALUE_ROWIDS"]},
    )
    case(
        R,
        {
            "shape": i64(-1),
            "values": f32([[1, 2], [3, 4], [5, 6]]),
            "default_value": f32([7, 8, 9]),
            "row_partition_tensors": [i64([0, 1, 3])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i64(-1),
            "values": v4,
            "default_value": f32([1]),
            "row_partition_tensors": [i64([0, 1, 4])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i64([2, 3, 4]),
            "values": v4,
            "default_value": d9,
            "row_partition_tensors": [i64([0, 1, 1, 4])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i64(5),
            "values": v4,
            "default_value": d9,
            "row_partition_tensors": [i64([0, 1, 1, 4])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i64([-2, 3]),
            "values": v4,
            "default_value": d9,
            "row_partition_tensors": [i64([0, 1, 1, 4])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i64(-1),
            "values": v4,
            "default_value": d9,
            "row_partition_tensors": [i64(4), i64([-1, 0, 2, 2])],
        },
        fv,
    )
    case(
        R,
        {
            "shape": i64(-1),
            "values": v4,
            "default_value": d9,
            "row_partition_tensors": [i64(2), i64([0, 0, 2, 2])],
        },
        fv,
    )
    case(
        R,
        {
            "shape": i64(-1),
            "values": v4,
            "default_value": d9,
            "row_partition_tensors": [i64([0, 3, 1, 4])],
        },
        rs,
    )
    case(
        R,
        {
            "shape": i64(-1),
            "values": v4,
            "default_value": d9,
            "row_partition_tensors": [i64([0, 1, 1, 4])],
        },
        {"row_partition_types": ["FOO"]},
    )


def nms() -> None:
    boxes = f32(
        [
            [0, 0, 1, 1],
            [0, 0.1, 1, 1.1],
            [0, -0.1, 1, 0.9],
            [0, 10, 1, 11],
            [0, 10.1, 1, 11.1],
            [0, 100, 1, 101],
        ]
    )
    scores = f32([0.9, 0.75, 0.6, 0.95, 0.5, 0.3])
    for dt in (np.float32, np.float16):
        b, s = boxes.astype(dt), scores.astype(dt)
        case(
            "NonMaxSuppressionV3",
            {
                "boxes": b,
                "scores": s,
                "max_output_size": i32(3),
                "iou_threshold": dt(0.5),
                "score_threshold": dt(0.0),
            },
        )
        case(
            "NonMaxSuppressionV3",
            {
                "boxes": b,
                "scores": s,
                "max_output_size": i32(10),
                "iou_threshold": dt(0.5),
                "score_threshold": dt(0.4),
            },
        )
    case(
        "NonMaxSuppressionV3",
        {
            "boxes": boxes.astype(np.float16),
            "scores": scores.astype(np.float16),
            "max_output_size": i32(10),
            "iou_threshold": np.float32(0.5),
            "score_threshold": np.float32(0.0),
        },
    )
    # flipped corners and an empty box
    case(
        "NonMaxSuppressionV3",
        {
            "boxes": f32([[1, 1, 0, 0], [0, 0, 1, 1], [0, 0, 0, 5], [0.5, 0.5, 1.5, 1.5]]),
            "scores": f32([0.5, 0.6, 0.9, 0.4]),
            "max_output_size": i32(4),
            "iou_threshold": np.float32(0.1),
            "score_threshold": np.float32(-1.0),
        },
    )
    case(
        "NonMaxSuppressionV4",
        {
            "boxes": boxes,
            "scores": scores,
            "max_output_size": i32(6),
            "iou_threshold": np.float32(0.5),
            "score_threshold": np.float32(0.0),
        },
        {"pad_to_max_output_size": True},
    )
    case(
        "NonMaxSuppressionV4",
        {
            "boxes": boxes,
            "scores": scores,
            "max_output_size": i32(6),
            "iou_threshold": np.float32(0.5),
            "score_threshold": np.float32(0.0),
        },
    )
    for dt in (np.float32, np.float16):
        case(
            "NonMaxSuppressionV5",
            {
                "boxes": boxes.astype(dt),
                "scores": scores.astype(dt),
                "max_output_size": i32(6),
                "iou_threshold": dt(1.0),
                "score_threshold": dt(0.1),
                "soft_nms_sigma": dt(0.5),
            },
            {"pad_to_max_output_size": True},
            check="close",
        )
    case(
        "NonMaxSuppressionV5",
        {
            "boxes": boxes,
            "scores": scores,
            "max_output_size": i32(4),
            "iou_threshold": np.float32(0.5),
            "score_threshold": np.float32(0.0),
            "soft_nms_sigma": np.float32(0.0),
        },
    )
    case(
        "NonMaxSuppressionV3",
        {
            "boxes": boxes,
            "scores": scores,
            "max_output_size": i32(3),
            "iou_threshold": np.float32(1.5),
            "score_threshold": np.float32(0.0),
        },
    )
    case(
        "NonMaxSuppressionV3",
        {
            "boxes": f32([[0, 0, 1]]),
            "scores": f32([1]),
            "max_output_size": i32(3),
            "iou_threshold": np.float32(0.5),
            "score_threshold": np.float32(0.0),
        },
    )
    case(
        "NonMaxSuppressionV4",
        {
            "boxes": boxes,
            "scores": f32([1, 2]),
            "max_output_size": i32(3),
            "iou_threshold": np.float32(0.5),
            "score_threshold": np.float32(0.0),
        },
    )
    case(
        "NonMaxSuppressionV5",
        {
            "boxes": boxes,
            "scores": scores,
            "max_output_size": i32(-1),
            "iou_threshold": np.float32(0.5),
            "score_threshold": np.float32(0.0),
            "soft_nms_sigma": np.float32(0.0),
        },
    )


def resize() -> None:
    g = np.random.default_rng(7)
    img = np.round(g.uniform(0, 255, (2, 3, 4, 3)), 1).astype(np.float32)
    img2 = np.round(g.uniform(-1, 1, (1, 5, 3, 2)), 2).astype(np.float32)
    for op in ("ResizeBicubic", "ResizeArea"):
        for size in ([7, 9], [2, 3], [4, 5], [1, 1], [3, 8]):
            case(op, {"images": img, "size": i32(size)}, check="close")
        case(op, {"images": img2, "size": i32([8, 4])}, {"align_corners": True}, check="close")
        case(op, {"images": img.astype(np.uint8), "size": i32([6, 3])}, check="close")
        case(op, {"images": img2.astype(np.float16), "size": i32([3, 5])}, check="close")
        case(op, {"images": img2.astype(np.float64), "size": i32([7, 2])}, check="close")
        case(op, {"images": (img * 10).astype(np.int32), "size": i32([5, 7])}, check="close")
        case(op, {"images": img, "size": i32([0, 3])})
        case(op, {"images": img[0], "size": i32([2, 3])})
        case(op, {"images": img, "size": i32([2, 3, 4])})
    for size in ([7, 9], [2, 3], [1, 1], [3, 8]):
        case(
            "ResizeBicubic",
            {"images": img, "size": i32(size)},
            {"half_pixel_centers": True},
            check="close",
        )
    case(
        "ResizeBicubic",
        {"images": img2, "size": i32([8, 4])},
        {"align_corners": True, "half_pixel_centers": True},
    )
    boxes = f32(
        [
            [0, 0, 1, 1],
            [0.1, 0.2, 0.7, 0.9],
            [0.8, 0.9, 0.2, 0.1],
            [-0.5, -0.5, 1.5, 1.5],
            [0.3, 0.3, 0.3, 0.3],
        ]
    )
    bi = i32([0, 1, 0, 1, 0])
    for method in ("bilinear", "nearest"):
        case(
            "CropAndResize",
            {"image": img, "boxes": boxes, "box_ind": bi, "crop_size": i32([3, 4])},
            {"method": method, "extrapolation_value": -1.5},
            check="close",
        )
        case(
            "CropAndResize",
            {
                "image": img.astype(np.uint8),
                "boxes": boxes,
                "box_ind": bi,
                "crop_size": i32([1, 1]),
            },
            {"method": method},
            check="close",
        )
    case(
        "CropAndResize",
        {
            "image": img2.astype(np.float16),
            "boxes": boxes,
            "box_ind": i32([0] * 5),
            "crop_size": i32([4, 2]),
        },
        check="close",
    )
    case(
        "CropAndResize",
        {
            "image": img,
            "boxes": np.zeros((0, 4), np.float32),
            "box_ind": np.zeros((0,), np.int32),
            "crop_size": i32([2, 2]),
        },
    )
    case(
        "CropAndResize",
        {"image": img, "boxes": boxes, "box_ind": i32([0, 1, 2, 0, 0]), "crop_size": i32([2, 2])},
    )
    case(
        "CropAndResize",
        {
            "image": img,
            "boxes": f32([[0, 0, np.nan, 1]]),
            "box_ind": i32([0]),
            "crop_size": i32([2, 2]),
        },
    )
    case("CropAndResize", {"image": img, "boxes": boxes, "box_ind": bi, "crop_size": i32([0, 2])})
    case(
        "CropAndResize",
        {"image": img, "boxes": boxes[:, :3], "box_ind": bi, "crop_size": i32([2, 2])},
    )


def svd() -> None:
    g = np.random.default_rng(11)
    for shape in ((3, 2), (2, 3), (4, 4), (2, 3, 5), (1, 1), (5, 1)):
        a = g.uniform(-1, 1, shape)
        for full in (False, True):
            case("Svd", {"input": a.astype(np.float32)}, {"full_matrices": full}, check="svd")
            case("Svd", {"input": a}, {"full_matrices": full}, check="svd")
    c = g.uniform(-1, 1, (2, 4, 3)) + 1j * g.uniform(-1, 1, (2, 4, 3))
    for full in (False, True):
        case("Svd", {"input": c.astype(np.complex64)}, {"full_matrices": full}, check="svd")
        case("Svd", {"input": c.T.copy()}, {"full_matrices": full}, check="svd")
    case(
        "Svd",
        {"input": g.uniform(-1, 1, (3, 4)).astype(np.float32)},
        {"compute_uv": False},
        check="svd",
    )
    rank1 = np.outer([1.0, 2.0, 3.0], [1.0, -1.0])
    case("Svd", {"input": rank1}, {"full_matrices": True}, check="svd")
    case("Svd", {"input": np.zeros((3, 2))}, {"full_matrices": True}, check="svd")
    case("Svd", {"input": np.zeros((0, 3), np.float32)}, {"full_matrices": True})
    case("Svd", {"input": f32([1, 2, 3])})


def random_ops() -> None:
    key = np.array([0x123456789ABCDEF], np.uint64)
    ctr = np.array([5, 77], np.uint64)
    alg = i32(1)
    for dt, lo, hi in ((np.int32, -5, 7), (np.int64, -(2**40), 2**41), (np.int32, 0, 1)):
        case(
            "StatelessRandomUniformIntV2",
            {
                "shape": i32([3, 5]),
                "key": key,
                "counter": ctr,
                "alg": alg,
                "minval": dt(lo),
                "maxval": dt(hi),
            },
        )
    case(
        "StatelessRandomUniformIntV2",
        {
            "shape": i32([3]),
            "key": key,
            "counter": ctr,
            "alg": alg,
            "minval": np.int32(5),
            "maxval": np.int32(5),
        },
    )
    case(
        "StatelessRandomUniformIntV2",
        {
            "shape": i32([0]),
            "key": key,
            "counter": ctr,
            "alg": alg,
            "minval": np.int32(5),
            "maxval": np.int32(5),
        },
    )
    for dt in ("int32", "int64", "uint32", "uint64"):
        case(
            "StatelessRandomUniformFullIntV2",
            {"shape": i64([7]), "key": key, "counter": ctr, "alg": alg},
            {"dtype": dt},
        )
    for dt in ("float32", "float64", "float16", "bfloat16"):
        case(
            "StatelessTruncatedNormalV2",
            {"shape": i32([3, 3]), "key": key, "counter": ctr, "alg": i32(3)},
            {"dtype": dt},
            check="close",
        )
    case(
        "StatelessTruncatedNormalV2", {"shape": i32([2]), "key": key, "counter": ctr, "alg": i32(2)}
    )
    # V1 stateless ops: a [2] seed
    seed = np.array([12345, -678], np.int64)
    for op in ("StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal"):
        for dt in ("float32", "float64", "float16", "bfloat16"):
            case(op, {"shape": i32([2, 3]), "seed": seed}, {"dtype": dt}, check="close")
    case("StatelessRandomUniform", {"shape": i64([5]), "seed": i32([7, 8])}, check="close")
    case("StatelessRandomNormal", {"shape": i32([2]), "seed": i64([1, 2, 3])})
    case(
        "StatelessRandomUniformInt",
        {"shape": i32([6]), "seed": seed, "minval": np.int64(-10), "maxval": np.int64(10)},
    )
    case(
        "StatelessRandomUniformInt",
        {"shape": i32([2]), "seed": seed, "minval": np.int32(3), "maxval": np.int32(3)},
    )
    for dt in ("int32", "int64", "uint32", "uint64"):
        case("StatelessRandomUniformFullInt", {"shape": i32([5]), "seed": seed}, {"dtype": dt})
    case("StatelessRandomUniformFullInt", {"shape": i32([5]), "seed": np.array([1, 2], np.uint32)})
    case(
        "StatelessMultinomial",
        {
            "logits": f32([[0.0, 1.0, 2.0, -np.inf], [5.0, 5.0, -1.0, 0.0]]),
            "num_samples": i32(7),
            "seed": seed,
        },
    )
    case(
        "StatelessMultinomial",
        {"logits": np.array([[1.0, 3.0]], np.float64), "num_samples": i32(6), "seed": i32([3, 4])},
        {"output_dtype": "int32"},
    )
    case("StatelessMultinomial", {"logits": f32([[1.0]]), "num_samples": i32(2), "seed": i64([1])})
    # stateful ops: a fresh kernel per distinct seed pair (its first call)
    case(
        "RandomUniformInt",
        {"shape": i32([2, 5]), "minval": np.int32(-3), "maxval": np.int32(100)},
        {"seed": 8101, "seed2": 17},
    )
    case(
        "RandomUniformInt",
        {"shape": i64([7]), "minval": np.int64(0), "maxval": np.int64(2**50)},
        {"seed": 8102, "seed2": 18},
    )
    case(
        "RandomUniformInt",
        {"shape": i32([2]), "minval": np.int32(3), "maxval": np.int32(3)},
        {"seed": 8103, "seed2": 19},
    )
    logits = f32([[0.0, 1.0, 2.0, -np.inf], [5.0, 5.0, -1.0, 0.0]])
    case("Multinomial", {"logits": logits, "num_samples": i32(9)}, {"seed": 8104, "seed2": 20})
    case(
        "Multinomial",
        {"logits": logits.astype(np.float64), "num_samples": i32(5)},
        {"seed": 8105, "seed2": 21, "output_dtype": "int32"},
    )
    case(
        "Multinomial",
        {"logits": logits.astype(np.float16), "num_samples": i32(3)},
        {"seed": 8106, "seed2": 22},
    )
    case("Multinomial", {"logits": f32([1, 2]), "num_samples": i32(3)}, {"seed": 8107, "seed2": 23})
    case(
        "Multinomial",
        {"logits": np.zeros((2, 0), np.float32), "num_samples": i32(3)},
        {"seed": 8108, "seed2": 24},
    )


def main() -> int:
    ragged()
    nms()
    resize()
    svd()
    random_ops()
    OUT.write_text(
        json.dumps({"tf_version": tf.__version__, "cases": CASES}, separators=(",", ":")) + "\n"
    )
    print(f"wrote {len(CASES)} cases to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
