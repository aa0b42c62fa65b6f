"""Records TF 2.21's results for the dtypes that session 9 added to existing
CPU kernels (issue 18: every dtype TF registers on CPU) into
tests/data/dtypes_s9_ops_tf221.json. Run with /work/tfvenv/bin/python;
tests/python/test_dtypes_s9_ops.py only reads the JSON.

Tensors are {dtype, shape, value}. Dtypes numpy has no plain form for are
stored as integers: float8 types as their bit patterns (one byte each),
int4/uint4 and the quantized types as their integer values. A "variant"
tensor holds TensorLists: each element is the float32 list stacked
({"shape", "value"}) or null for an empty variant (what TF leaves where a
data-movement op writes a "zero" variant). Cases run one raw op eagerly
on CPU and keep its outputs or TF's error (class name and message)."""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from record_sparse_ops import write_cases

F8 = ("float8_e4m3fn", "float8_e5m2")
I4 = ("int4", "uint4")
QUANT = ("qint8", "quint8", "qint16", "quint16", "qint32")

CASES: list[dict[str, Any]] = []


def add(name: str, op: str, inputs: dict[str, Any], attrs: dict[str, Any] | None = None) -> None:
    CASES.append({"name": name, "op": op, "inputs": inputs, "attrs": attrs or {}})


def t(v: Any, dtype: str) -> dict[str, Any]:
    """A plain tensor: floats as float64, everything else as integers (float8
    values are converted to their bit patterns here)."""
    a = np.asarray(v)
    if dtype in F8:
        import ml_dtypes

        bits = np.asarray(a, np.float64).astype(getattr(ml_dtypes, dtype)).view(np.uint8)
        return {"dtype": dtype, "shape": list(a.shape), "value": bits.astype(int).tolist()}
    if dtype in ("float32", "float64", "float16", "bfloat16"):
        return {"dtype": dtype, "shape": list(a.shape), "value": a.astype(float).tolist()}
    return {"dtype": dtype, "shape": list(a.shape), "value": a.astype(np.int64).tolist()}


def lists(shape: tuple[int, ...], seed: int) -> dict[str, Any]:
    """A variant tensor of TensorLists: element i holds a [2, i % 3 + 1]
    float32 tensor of distinct values."""
    n = int(np.prod(shape))
    elems = []
    for i in range(n):
        w = i % 3 + 1
        v = (np.arange(2 * w, dtype=np.float64) + 10 * i + seed).reshape(2, w)
        elems.append({"shape": [2, w], "value": v.ravel().tolist()})
    return {"dtype": "variant", "shape": list(shape), "value": elems}


# ---------------------------------------------- float8 in data-movement ops
X8 = [[1.5, -2.0, 0.25], [3.0, -0.5, 448.0 / 8]]
for dt in F8:
    x = t(X8, dt)
    add(f"concatv2_{dt}", "ConcatV2", {"values": [x, x], "axis": t(1, "int32")})
    add(f"concat_{dt}", "Concat", {"concat_dim": t(0, "int32"), "values": [x, x]})
    add(f"pack_{dt}", "Pack", {"values": [x, x]}, {"axis": 1})
    add(f"unpack_{dt}", "Unpack", {"value": x}, {"num": 3, "axis": 1})
    add(f"slice_{dt}", "Slice", {"input": x, "begin": t([0, 1], "int32"),
                                 "size": t([2, 2], "int32")})
    add(f"stridedslice_{dt}", "StridedSlice",
        {"input": x, "begin": t([1, 2], "int64"), "end": t([-3, -4], "int64"),
         "strides": t([-1, -1], "int64")})
    add(f"stridedslicegrad_{dt}", "StridedSliceGrad",
        {"shape": t([2, 3], "int32"), "begin": t([0, 0], "int32"), "end": t([2, 3], "int32"),
         "strides": t([1, 2], "int32"), "dy": t([[1.5, -2.0], [3.0, 0.25]], dt)})
    add(f"split_{dt}", "Split", {"split_dim": t(1, "int32"), "value": t([[1, 2], [-3, 4]], dt)},
        {"num_split": 2})
    add(f"splitv_{dt}", "SplitV", {"value": x, "size_splits": t([1, -1], "int64"),
                                   "split_dim": t(1, "int32")}, {"num_split": 2})
    add(f"transpose_{dt}", "Transpose", {"x": x, "perm": t([1, 0], "int32")})
    add(f"conjtranspose_{dt}", "ConjugateTranspose", {"x": x, "perm": t([1, 0], "int64")})
    add(f"gather_{dt}", "Gather", {"params": x, "indices": t([1, 0, 1], "int32")})
    add(f"gatherv2_{dt}", "GatherV2", {"params": x, "indices": t([2, 0], "int16"),
                                       "axis": t(1, "int32")})
    add(f"gathernd_{dt}", "GatherNd", {"params": x, "indices": t([[1, 2], [0, 0]], "int64")})
    add(f"broadcastto_{dt}", "BroadcastTo", {"input": t([0.5, -1.0, 2.0], dt),
                                             "shape": t([2, 3], "int32")})
add("gather_float8_err_index", "Gather", {"params": t(X8, "float8_e5m2"),
                                          "indices": t([2], "int32")})
add("concatv2_float8_err_shape", "ConcatV2",
    {"values": [t(X8, "float8_e4m3fn"), t([1.0], "float8_e4m3fn")], "axis": t(0, "int32")})

# ---------------------------------------------- int4 / uint4
for dt in I4:
    v = [1, -3, 7, 2, 0, -8] if dt == "int4" else [1, 3, 15, 2, 0, 8]
    add(f"fill_{dt}_i32", "Fill", {"dims": t([2, 2], "int32"), "value": t(v[1], dt)})
    add(f"fill_{dt}_i64", "Fill", {"dims": t([3], "int64"), "value": t(v[2], dt)})
    add(f"split_{dt}", "Split", {"split_dim": t(0, "int32"), "value": t(v, dt)}, {"num_split": 3})
    for lt in ("int8", "int32", "int64"):
        add(f"splitv_{dt}_{lt}", "SplitV", {"value": t(np.reshape(v, (2, 3)), dt),
                                            "size_splits": t([2, 1], lt),
                                            "split_dim": t(-1, "int32")}, {"num_split": 2})
add("splitv_int4_err_sizes", "SplitV", {"value": t([1, 2, 3], "int4"),
                                        "size_splits": t([2, 2], "int32"),
                                        "split_dim": t(0, "int32")}, {"num_split": 2})

# ---------------------------------------------- quantized types
for dt in QUANT:
    lo = 0 if dt.startswith("qu") else -5
    x = np.arange(lo, lo + 6).reshape(2, 3)
    add(f"concat_{dt}", "Concat", {"concat_dim": t(1, "int32"), "values": [t(x, dt), t(x, dt)]})
    add(f"gather_{dt}", "Gather", {"params": t(x, dt), "indices": t([1, 1, 0], "int64")})
for dt in ("qint8", "quint8", "qint32"):
    lo = 0 if dt.startswith("qu") else -5
    x = np.arange(lo, lo + 6).reshape(2, 3)
    for pt in ("int32", "int64"):
        for mode in ("REFLECT", "SYMMETRIC"):
            add(f"mirrorpad_{dt}_{pt}_{mode.lower()}", "MirrorPad",
                {"input": t(x, dt), "paddings": t([[1, 1], [2, 0]], pt)}, {"mode": mode})
    for op in ("DynamicStitch", "ParallelDynamicStitch"):
        add(f"{op.lower()}_{dt}", op,
            {"indices": [t([0, 2], "int32"), t([[1], [3]], "int32")],
             "data": [t(x[:, :2], dt), t(x[:, 1:].reshape(2, 1, 2), dt)]})
add("mirrorpad_qint8_err_pad", "MirrorPad",
    {"input": t([[1, 2]], "qint8"), "paddings": t([[1, 1], [0, 0]], "int32")}, {"mode": "REFLECT"})
add("spacetodepth_qint8", "SpaceToDepth",
    {"input": t(np.arange(-8, 8).reshape(1, 2, 4, 2), "qint8")}, {"block_size": 2})
add("spacetodepth_qint8_err_block", "SpaceToDepth",
    {"input": t(np.arange(-6, 6).reshape(1, 2, 3, 2), "qint8")}, {"block_size": 2})

# ---------------------------------------------- variant (TensorList elements)
V4 = lists((4,), 0)
V23 = lists((2, 3), 100)
add("conjtranspose_variant", "ConjugateTranspose", {"x": V23, "perm": t([1, 0], "int32")})
add("depthtospace_variant", "DepthToSpace", {"input": lists((1, 1, 2, 4), 0)}, {"block_size": 2})
add("spacetodepth_variant", "SpaceToDepth", {"input": lists((1, 2, 2, 1), 0)}, {"block_size": 2})
add("dynamicpartition_variant", "DynamicPartition",
    {"data": V4, "partitions": t([1, 0, 1, 1], "int32")}, {"num_partitions": 2})
add("dynamicpartition_variant_err", "DynamicPartition",
    {"data": V4, "partitions": t([1, 0, 2, 1], "int32")}, {"num_partitions": 2})
for op in ("DynamicStitch", "ParallelDynamicStitch"):
    add(f"{op.lower()}_variant", op, {"indices": [t([0, 3], "int32"), t([1, 2], "int32")],
                                      "data": [lists((2,), 0), lists((2,), 50)]})
for ti in ("uint8", "int8", "int32", "int64"):
    add(f"onehot_variant_{ti}", "OneHot",
        {"indices": t([0, 2, -1], ti), "depth": t(3, "int32"),
         "on_value": lists((), 7), "off_value": lists((), 70)})
for ts, ta in (("int32", "int32"), ("int64", "int64"), ("int32", "int64"), ("int64", "int32")):
    add(f"roll_variant_{ts}_{ta}", "Roll",
        {"input": V23, "shift": t([1, -1], ts), "axis": t([0, 1], ta)})
add("statelessshuffle_variant_single", "StatelessShuffle",
    {"value": lists((1,), 0), "key": t([1], "uint64"), "counter": t([0, 0], "uint64"),
     "alg": t(1, "int32")})
add("stridedslicegrad_variant", "StridedSliceGrad",
    {"shape": t([4], "int64"), "begin": t([1], "int64"), "end": t([3], "int64"),
     "strides": t([1], "int64"), "dy": lists((2,), 0)})
add("gather_variant", "Gather", {"params": V4, "indices": t([[3, 0], [1, 1]], "int64")})
add("sparsereorder_variant", "SparseReorder",
    {"input_indices": t([[1, 0], [0, 1], [0, 0]], "int64"), "input_values": lists((3,), 0),
     "input_shape": t([2, 2], "int64")})
add("sparseslice_variant", "SparseSlice",
    {"indices": t([[0, 0], [0, 1], [1, 1]], "int64"), "values": lists((3,), 0),
     "shape": t([2, 2], "int64"), "start": t([0, 1], "int64"), "size": t([2, 1], "int64")})
add("sparsesplit_variant", "SparseSplit",
    {"split_dim": t(1, "int64"), "indices": t([[0, 0], [0, 1], [1, 1]], "int64"),
     "values": lists((3,), 0), "shape": t([2, 2], "int64")}, {"num_split": 2})
add("sparseconcat_variant", "SparseConcat",
    {"indices": [t([[0, 0]], "int64"), t([[1, 0], [0, 1]], "int64")],
     "values": [lists((1,), 0), lists((2,), 30)],
     "shapes": [t([2, 1], "int64"), t([2, 2], "int64")]}, {"concat_dim": 1})
add("sparsefillemptyrows_variant", "SparseFillEmptyRows",
    {"indices": t([[0, 0], [2, 1]], "int64"), "values": lists((2,), 0),
     "dense_shape": t([3, 2], "int64"), "default_value": lists((), 90)})

# ---------------------------------------------- Range in half / bfloat16; ScatterNd on strings
for dt in ("float16", "bfloat16"):
    for name, (a, b, c) in {"up": (0.1, 3.3, 0.3), "down": (5.0, -1.25, -0.7),
                            "empty": (1.0, 1.0, 0.5), "long": (-3.0, 40.0, 0.37)}.items():
        add(f"range_{dt}_{name}", "Range", {"start": t(a, "float32"), "limit": t(b, "float32"),
                                            "delta": t(c, "float32")})
        for v in CASES[-1]["inputs"].values():
            v["dtype"] = dt
    add(f"range_{dt}_err_delta", "Range", {"start": t(1.0, dt), "limit": t(2.0, dt),
                                           "delta": t(0.0, dt)})
    add(f"range_{dt}_err_order", "Range", {"start": t(3.0, dt), "limit": t(2.0, dt),
                                           "delta": t(0.5, dt)})
for it in ("int32", "int64"):
    add(f"scatternd_string_{it}", "ScatterNd",
        {"indices": t([[1], [3], [1], [0]], it),
         "updates": {"dtype": "string", "shape": [4, 2], "value": [["a", "bb"], ["c", ""],
                                                                  ["dd", "e"], ["f", "g"]]},
         "shape": t([5, 2], it)})
add("scatternd_string_err_index", "ScatterNd",
    {"indices": t([[5]], "int32"), "updates": {"dtype": "string", "shape": [1], "value": ["a"]},
     "shape": t([5], "int32")})

# ---------------------------------------------- combinations TF registers kernels for but
# the op definitions refuse (so neither TF nor tfe can run them): recorded as TF's errors
# (MaxPool, resizes, CropAndResize with uint32/uint64/bfloat16)
IMG = np.arange(2 * 4 * 4 * 2).reshape(2, 4, 4, 2) * 7 % 53
BOXES = t([[0.0, 0.0, 1.0, 1.0], [0.1, 0.2, 0.8, 0.9]], "float32")
for dt in ("uint32", "uint64"):
    x = t(IMG, dt)
    add(f"maxpool_{dt}", "MaxPool", {"input": x},
        {"ksize": [1, 2, 2, 1], "strides": [1, 2, 1, 1], "padding": "SAME"})
    add(f"maxpoolv2_{dt}", "MaxPoolV2", {"input": x, "ksize": t([1, 3, 2, 1], "int32"),
                                         "strides": t([1, 1, 2, 1], "int32")},
        {"padding": "VALID"})
    size = t([3, 5], "int32")
    add(f"resizebilinear_{dt}", "ResizeBilinear", {"images": x, "size": size},
        {"half_pixel_centers": True})
    add(f"resizenearest_{dt}", "ResizeNearestNeighbor", {"images": x, "size": size},
        {"align_corners": True})
    add(f"resizearea_{dt}", "ResizeArea", {"images": x, "size": size})
    add(f"resizebicubic_{dt}", "ResizeBicubic", {"images": x, "size": size})
    add(f"scaleandtranslate_{dt}", "ScaleAndTranslate",
        {"images": x, "size": size, "scale": t([0.75, 1.25], "float32"),
         "translation": t([0.5, -0.25], "float32")}, {"kernel_type": "triangle"})
add("maxpool_uint32_err_ksize", "MaxPool", {"input": t(IMG, "uint32")},
    {"ksize": [2, 2, 2, 1], "strides": [1, 1, 1, 1], "padding": "VALID"})
for dt in ("uint32", "uint64", "bfloat16"):
    x = t(IMG, dt) if dt != "bfloat16" else t(IMG.astype(float) / 4, "float32")
    if dt == "bfloat16":  # 1/4 steps below 16: exact in bfloat16
        x = {**x, "dtype": "bfloat16"}
    add(f"cropandresize_{dt}", "CropAndResize",
        {"image": x, "boxes": BOXES, "box_ind": t([1, 0], "int32"),
         "crop_size": t([3, 2], "int32")})
    add(f"cropandresizegradboxes_{dt}", "CropAndResizeGradBoxes",
        {"grads": t(np.linspace(-1, 1, 2 * 3 * 2 * 2).reshape(2, 3, 2, 2), "float32"),
         "image": x, "boxes": BOXES, "box_ind": t([1, 0], "int32")})


# ---------------------------------------------- TF side
def _make(tf: Any, spec: dict[str, Any]) -> Any:
    import ml_dtypes

    dt = spec["dtype"]
    if dt == "variant":
        elems = [tf.raw_ops.TensorListFromTensor(
            tensor=tf.constant(np.reshape(e["value"], e["shape"]), tf.float32),
            element_shape=tf.constant([e["shape"][1]], tf.int32)) for e in spec["value"]]
        if not spec["shape"]:
            return elems[0]
        flat = tf.stack(elems) if elems else None
        return tf.reshape(flat, spec["shape"])
    if dt in F8:
        a = np.asarray(spec["value"], np.uint8).view(getattr(ml_dtypes, dt))
        return tf.constant(a.reshape(spec["shape"]))
    if dt in I4:
        return tf.constant(np.asarray(spec["value"]).astype(getattr(ml_dtypes, dt))
                           .reshape(spec["shape"]))
    if dt == "string":
        return tf.constant(np.asarray(spec["value"], dtype=object).reshape(spec["shape"]))
    return tf.constant(np.asarray(spec["value"]).reshape(spec["shape"]), getattr(tf, dt))


def _enc(tf: Any, o: Any) -> dict[str, Any]:
    dt = o.dtype.name
    shape = list(o.shape)
    if dt == "variant":
        flat = tf.reshape(o, [-1])
        elems: list[Any] = []
        for i in range(int(flat.shape[0])):
            try:
                s = tf.raw_ops.TensorListStack(input_handle=flat[i], element_shape=[-1],
                                               element_dtype=tf.float32)
                elems.append({"shape": list(s.shape), "value": s.numpy().ravel().tolist()})
            except tf.errors.OpError:
                elems.append(None)
        return {"dtype": dt, "shape": shape, "value": elems}
    a = o.numpy()
    if dt in F8:
        return {"dtype": dt, "shape": shape, "value": a.view(np.uint8).astype(int).tolist()}
    if dt in QUANT:
        a = tf.bitcast(o, {"qint8": tf.int8, "quint8": tf.uint8, "qint16": tf.int16,
                           "quint16": tf.uint16, "qint32": tf.int32}[dt]).numpy()
    if dt in ("float32", "float64", "float16", "bfloat16"):
        return {"dtype": dt, "shape": shape, "value": a.astype(float).tolist()}
    if dt == "string":
        return {"dtype": dt, "shape": shape,
                "value": np.vectorize(lambda b: b.decode(), otypes=[object])(a).tolist()
                if a.size else a.tolist()}
    return {"dtype": dt, "shape": shape, "value": np.asarray(a).astype(np.int64).tolist()}


def run_case(tf: Any, cs: dict[str, Any]) -> dict[str, Any]:
    with tf.device("/CPU:0"):
        kwargs: dict[str, Any] = dict(cs["attrs"])
        for name, spec in cs["inputs"].items():
            kwargs[name] = ([_make(tf, s) for s in spec] if isinstance(spec, list)
                            else _make(tf, spec))
        if cs["op"] in ("Split", "SplitV"):  # TF's Python binding: split_dim is "axis"
            kwargs["axis"] = kwargs.pop("split_dim")
        try:
            out = getattr(tf.raw_ops, cs["op"])(**kwargs)
        except (tf.errors.OpError, ValueError, TypeError) as e:
            msg = e.message if hasattr(e, "message") else str(e)
            return {"error": {"type": type(e).__name__, "message": msg}}
        return {"outputs": [_enc(tf, o) for o in _flat(out)]}


def _flat(out: Any) -> list[Any]:
    """An op's outputs as one flat list (list outputs spliced in)."""
    if isinstance(out, (list, tuple)):
        res: list[Any] = []
        for o in out:
            res.extend(_flat(o))
        return res
    return [out]


def main() -> None:
    import tensorflow as tf

    assert tf.__version__.startswith("2.21"), tf.__version__
    for cs in CASES:
        cs.update(run_case(tf, cs))
    write_cases(tf, CASES, "dtypes_s9_ops_tf221.json")


if __name__ == "__main__":
    main()
