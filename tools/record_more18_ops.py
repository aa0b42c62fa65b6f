"""Records TF 2.21's results for the more18 op group's kernels
(csrc/kernels/cpu/more18_kernels.c) into tests/data/more18_ops_tf221.json.
Run with /work/tfvenv/bin/python; tests/python/test_more18_ops.py only
reads the JSON.

Each case runs one raw op eagerly on CPU and keeps its outputs or its
error (TF's exception class name and message); the tensor encoding is
record_sparse_ops.py's. Two extra input kinds:
- {"var": spec}: a resource variable made from spec, passed as its handle;
  the variable's value after the op is recorded as an extra last output;
- {"ref": spec}: a TF 1 reference variable (the op runs in a v1 graph
  session); the variable's value after the op is the recorded output."""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from record_sparse_ops import COMPLEX, _enc_out, t

R = np.random.default_rng(1818_1818)
FLOATS = ("float32", "float64", "float16", "bfloat16")
INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
REAL = FLOATS + INTS
CPLX = ("complex64", "complex128")
ALL = REAL + CPLX + ("bool", "string")

CASES: list[dict[str, Any]] = []


def add(name: str, op: str, inputs: dict[str, Any], attrs: dict[str, Any] | None = None) -> None:
    CASES.append({"name": name, "op": op, "inputs": inputs, "attrs": attrs or {}})


def vals(shape: tuple[int, ...], dtype: str) -> Any:
    n = int(np.prod(shape))
    if dtype in CPLX:
        v = R.integers(-4, 5, n) + 1j * R.integers(-4, 5, n)
    elif dtype == "string":
        v = np.asarray([f"s{i % 5}" for i in range(n)], dtype=object)
    elif dtype == "bool":
        v = R.integers(0, 2, n).astype(bool)
    elif dtype.startswith("u"):
        v = R.integers(0, 9, n)
    elif dtype.startswith("int"):
        v = R.integers(-5, 9, n)
    else:
        v = np.round(R.uniform(-2, 2, n), 2)
    return np.asarray(v).reshape(shape)


def i32(v: Any) -> dict[str, Any]:
    return t(v, "int32")


# ------------------------------------------------- strided-slice assignment
SS_OPS = (("TensorStridedSliceUpdate", "input", "tssu"),
          ("ResourceStridedSliceAssign", "var", "rssa"),
          ("StridedSliceAssign", "ref", "ssa"))


def ss_in(kind: str, x: Any, dt: str) -> dict[str, Any]:
    return t(x, dt) if kind == "input" else {kind: t(x, dt)}


for op, kind, tag in SS_OPS:
    key = "input" if kind == "input" else "ref"
    for dt in ALL:
        add(f"{tag}_{dt}", op, {key: ss_in(kind, vals((4, 5), dt), dt),
                                "begin": i32([1, 0]), "end": i32([4, 5]), "strides": i32([2, 2]),
                                "value": t(vals((2, 3), dt), dt)})
    base = vals((3, 4, 5), "float32")

    def inp(x: Any = base, dt: str = "float32", kind: str = kind) -> dict[str, Any]:
        return ss_in(kind, x, dt)

    add(f"{tag}_neg_stride", op, {key: inp(), "begin": i32([-1, 3]), "end": i32([0, 0]),
                                  "strides": i32([-1, -2]), "value": t(vals((2, 2, 5), "float32"),
                                                                       "float32")})
    add(f"{tag}_masks", op, {key: inp(), "begin": i32([0, 1, 0]), "end": i32([0, 3, 0]),
                             "strides": i32([1, 1, 1]), "value": t(vals((3, 2), "float32"),
                                                                   "float32")},
        {"begin_mask": 1, "end_mask": 1, "shrink_axis_mask": 4})
    add(f"{tag}_ellipsis_newaxis", op, {key: inp(), "begin": i32([0, 0, 2]),
                                        "end": i32([0, 0, 4]), "strides": i32([1, 1, 1]),
                                        "value": t(vals((3, 4, 1, 2), "float32"), "float32")},
        {"ellipsis_mask": 1, "new_axis_mask": 2})
    add(f"{tag}_broadcast", op, {key: inp(), "begin": i32([0, 1]), "end": i32([3, 3]),
                                 "strides": i32([1, 1]), "value": t(vals((1, 5), "float32"),
                                                                    "float32")})
    add(f"{tag}_broadcast_scalar", op, {key: inp(), "begin": i32([1]), "end": i32([2]),
                                        "strides": i32([1]), "value": t(7.5, "float32")})
    add(f"{tag}_shrink_all", op, {key: inp(), "begin": i32([2, 3, 4]), "end": i32([3, 4, 5]),
                                  "strides": i32([1, 1, 1]), "value": t(9.0, "float32")},
        {"shrink_axis_mask": 7})
    add(f"{tag}_empty", op, {key: inp(), "begin": i32([2]), "end": i32([2]),
                             "strides": i32([1]), "value": t(vals((2, 9), "float32"),
                                                             "float32")})
    add(f"{tag}_int64_idx", op, {key: inp(), "begin": t([0, 1], "int64"),
                                 "end": t([3, 4], "int64"), "strides": t([2, 2], "int64"),
                                 "value": t(vals((2, 2, 5), "float32"), "float32")})
    add(f"{tag}_scalar_lhs", op, {key: inp(np.float32(2.0)), "begin": i32([]), "end": i32([]),
                                  "strides": i32([]), "value": t(3.0, "float32")})
    add(f"{tag}_err_bcast", op, {key: inp(), "begin": i32([0, 0]), "end": i32([2, 4]),
                                 "strides": i32([1, 2]), "value": t(vals((1, 3), "float32"),
                                                                    "float32")})
    add(f"{tag}_err_bcast_rank", op, {key: inp(), "begin": i32([0]), "end": i32([1]),
                                      "strides": i32([1]), "value": t(vals((2, 1, 4, 5),
                                                                           "float32"), "float32")})
    add(f"{tag}_err_stride0", op, {key: inp(), "begin": i32([0]), "end": i32([1]),
                                   "strides": i32([0]), "value": t(1.0, "float32")})
    add(f"{tag}_err_shrink_oob", op, {key: inp(), "begin": i32([5]), "end": i32([6]),
                                      "strides": i32([1]), "value": t(1.0, "float32")},
        {"shrink_axis_mask": 1})
    add(f"{tag}_err_lens", op, {key: inp(), "begin": i32([0, 0]), "end": i32([1]),
                                "strides": i32([1]), "value": t(1.0, "float32")})
    add(f"{tag}_err_dims", op, {key: inp(), "begin": i32([0, 0, 0, 0]),
                                "end": i32([1, 1, 1, 1]), "strides": i32([1, 1, 1, 1]),
                                "value": t(1.0, "float32")})
add("rssa_err_dtype", "ResourceStridedSliceAssign",
    {"ref": {"var": t(vals((3,), "float64"), "float64")}, "begin": i32([0]), "end": i32([1]),
     "strides": i32([1]), "value": t([1.0], "float32")})


# ------------------------------------------------------ ResourceGatherNd
for dt in ALL:
    for ti in ("int32", "int64"):
        add(f"rgnd_{dt}_{ti}", "ResourceGatherNd",
            {"resource": {"var": t(vals((3, 4, 2), dt), dt)},
             "indices": t([[[2, 1], [0, 3]], [[1, 1], [2, 0]]], ti)}, {"dtype": dt})
add("rgnd_full", "ResourceGatherNd", {"resource": {"var": t(vals((3, 4), "float32"), "float32")},
                                      "indices": t([[2, 3], [0, 0], [1, 2]], "int32")},
    {"dtype": "float32"})
add("rgnd_rows", "ResourceGatherNd", {"resource": {"var": t(vals((3, 4), "int64"), "int64")},
                                      "indices": t([[2], [0]], "int64")}, {"dtype": "int64"})
add("rgnd_empty_idx", "ResourceGatherNd",
    {"resource": {"var": t(vals((3, 4), "float32"), "float32")},
     "indices": t(np.zeros((0, 1)), "int32")}, {"dtype": "float32"})
add("rgnd_k0", "ResourceGatherNd", {"resource": {"var": t(vals((2, 3), "float32"), "float32")},
                                    "indices": t(np.zeros((2, 0)), "int32")},
    {"dtype": "float32"})
add("rgnd_err_oob", "ResourceGatherNd",
    {"resource": {"var": t(vals((3, 4), "float32"), "float32")},
     "indices": t([[0, 1], [3, 0]], "int32")}, {"dtype": "float32"})
add("rgnd_err_neg", "ResourceGatherNd",
    {"resource": {"var": t(vals((3, 4), "float32"), "float32")},
     "indices": t([[[0, -1]]], "int64")}, {"dtype": "float32"})
add("rgnd_err_depth", "ResourceGatherNd",
    {"resource": {"var": t(vals((3, 4), "float32"), "float32")},
     "indices": t([[0, 1, 2]], "int32")}, {"dtype": "float32"})
add("rgnd_err_scalar_idx", "ResourceGatherNd",
    {"resource": {"var": t(vals((3, 4), "float32"), "float32")},
     "indices": t(1, "int32")}, {"dtype": "float32"})
add("rgnd_err_scalar_params", "ResourceGatherNd",
    {"resource": {"var": t(1.5, "float32")}, "indices": t([0], "int32")}, {"dtype": "float32"})
# (a dtype attr other than the variable's aborts TF 2.21's process: a CHECK
# failure in its tensor accessor; tfe's InvalidArgument is tested directly)

# ------------------------------------------------------------ VariableShape
for ot in ("int32", "int64"):
    add(f"varshape_{ot}", "VariableShape",
        {"input": {"var": t(vals((2, 0, 3), "float32"), "float32")}}, {"out_type": ot})
add("varshape_scalar", "VariableShape", {"input": {"var": t(2.5, "float64")}})
add("varshape_5d", "VariableShape", {"input": {"var": t(vals((1, 2, 1, 3, 2), "bool"), "bool")}},
    {"out_type": "int64"})


# ---------------------------------------- ImageProjectiveTransformV2 / V3
IPT_DT = ("uint8", "int32", "int64", "float16", "float32", "float64", "bfloat16")


def img(shape: tuple[int, ...], dt: str) -> Any:
    if dt in ("uint8", "int32", "int64"):
        return R.integers(0, 200, int(np.prod(shape))).reshape(shape)
    return np.round(R.uniform(-3, 3, shape), 2)


def rot(theta: float, h: int, w: int, zoom: float = 1.0, tx: float = 0.0,
        ty: float = 0.0) -> list[float]:
    """Keras-style rotation/zoom/translation about the image centre."""
    c, sn = np.cos(theta) / zoom, np.sin(theta) / zoom
    x0 = (w - 1) / 2 - (c * (w - 1) / 2 - sn * (h - 1) / 2) - tx
    y0 = (h - 1) / 2 - (sn * (w - 1) / 2 + c * (h - 1) / 2) - ty
    return [float(c), float(-sn), float(x0), float(sn), float(c), float(y0), 0.0, 0.0]


TR1 = [rot(0.7, 5, 6, 0.8, 0.6, -0.4)]
TR2 = [rot(-0.4, 5, 6, 1.3), [1.1, 0.2, -0.7, -0.1, 0.9, 0.3, 0.02, -0.03]]
for ver in ("V2", "V3"):
    op = f"ImageProjectiveTransform{ver}"
    for dt in IPT_DT:
        for interp in ("NEAREST", "BILINEAR"):
            ins: dict[str, Any] = {"images": t(img((2, 5, 6, 3), dt), dt),
                                   "transforms": t(TR2, "float32"),
                                   "output_shape": i32([5, 6])}
            if ver == "V3":
                ins["fill_value"] = t(7.0, "float32")
            add(f"ipt{ver}_{dt}_{interp}", op, ins,
                {"interpolation": interp, "fill_mode": "CONSTANT"})
    for fm in ("REFLECT", "WRAP", "CONSTANT", "NEAREST"):
        for interp in ("NEAREST", "BILINEAR"):
            for dt in ("float32", "uint8"):
                ins = {"images": t(img((1, 5, 6, 2), dt), dt), "transforms": t(TR1, "float32"),
                       "output_shape": i32([7, 4])}
                if ver == "V3":
                    ins["fill_value"] = t(-1.5, "float32")
                add(f"ipt{ver}_{fm}_{interp}_{dt}", op, ins,
                    {"interpolation": interp, "fill_mode": fm})
    for fm in ("REFLECT", "WRAP", "NEAREST"):
        ins = {"images": t(img((1, 4, 5, 1), "float32"), "float32"),
               "transforms": t([[1.0, 0, -13.3, 0, 1.0, 9.6, 0, 0]], "float32"),
               "output_shape": i32([6, 6])}
        if ver == "V3":
            ins["fill_value"] = t(0.0, "float32")
        add(f"ipt{ver}_far_{fm}", op, ins,
            {"interpolation": "BILINEAR", "fill_mode": fm})
        ins = dict(ins, images=t(img((1, 1, 1, 2), "float32"), "float32"))
        add(f"ipt{ver}_1px_{fm}", op, ins,
            {"interpolation": "NEAREST", "fill_mode": fm})
    base = {"images": t(img((2, 3, 4, 1), "float32"), "float32"),
            "transforms": t([[1.0, 0, 0, 0, 1, 0, 0, 0]], "float32"),
            "output_shape": i32([3, 4])}
    if ver == "V3":
        base["fill_value"] = t(0.0, "float32")
    a = {"interpolation": "BILINEAR"}
    add(f"ipt{ver}_proj_zero", op, dict(base, transforms=t([[1.0, 0, 0, 0, 1, 0, -0.5, 0]],
                                                           "float32")), a)
    add(f"ipt{ver}_err_rank", op, dict(base, images=t(img((3, 4, 1), "float32"), "float32")), a)
    add(f"ipt{ver}_err_tr_rows", op, dict(base, transforms=t(np.zeros((3, 8)), "float32")), a)
    add(f"ipt{ver}_err_tr_cols", op, dict(base, transforms=t(np.zeros((2, 7)), "float32")), a)
    add(f"ipt{ver}_err_tr_rank", op, dict(base, transforms=t(np.zeros((8,)), "float32")), a)
    add(f"ipt{ver}_err_shape_rank", op, dict(base, output_shape=i32([[3, 4]])), a)
    add(f"ipt{ver}_err_shape_len", op, dict(base, output_shape=i32([3, 4, 1])), a)
    add(f"ipt{ver}_err_shape_zero", op, dict(base, output_shape=i32([0, 4])), a)
    if ver == "V3":
        add("iptV3_err_fill", op, dict(base, fill_value=t([1.0], "float32")), a)


# --------------------------------------------------------- AdjustContrast
# (TF 2.21 refuses the deprecated op: every case records its UNIMPLEMENTED)
for dt in ("uint8", "int8", "int16", "int32", "float32", "float64"):
    add(f"adjc_{dt}", "AdjustContrast",
        {"images": t(img((2, 3, 4, 2), dt if dt != "int8" else "int32").astype(
            np.int64 if dt != "float32" and dt != "float64" else np.float64) % 100, dt),
         "contrast_factor": t(1.7, "float32"), "min_value": t(-50.0, "float32"),
         "max_value": t(120.0, "float32")})
add("adjc_5d", "AdjustContrast", {"images": t(img((2, 1, 3, 3, 1), "float32"), "float32"),
                                  "contrast_factor": t(-0.5, "float32"),
                                  "min_value": t(-1.0, "float32"),
                                  "max_value": t(1.0, "float32")})
add("adjc_empty", "AdjustContrast", {"images": t(np.zeros((0, 3, 3)), "float32"),
                                     "contrast_factor": t(2.0, "float32"),
                                     "min_value": t(-1.0, "float32"),
                                     "max_value": t(1.0, "float32")})
add("adjc_err_rank", "AdjustContrast", {"images": t(np.zeros((3, 3)), "float32"),
                                        "contrast_factor": t(2.0, "float32"),
                                        "min_value": t(-1.0, "float32"),
                                        "max_value": t(1.0, "float32")})
for bad in ("contrast_factor", "min_value", "max_value"):
    ins = {"images": t(np.ones((2, 2, 1)), "float32"), "contrast_factor": t(2.0, "float32"),
           "min_value": t(-1.0, "float32"), "max_value": t(1.0, "float32")}
    ins[bad] = t([1.0], "float32")
    add(f"adjc_err_{bad}", "AdjustContrast", ins)


# ------------------------------------------------------------- RandomCrop
# (refused by TF 2.21 as deprecated, whatever the inputs)
for dt in REAL:
    add(f"randcrop_{dt}", "RandomCrop", {"image": t(img((4, 5, 2), "int32") % 50, dt),
                                         "size": t([2, 3], "int64")}, {"seed": 1, "seed2": 2})
add("randcrop_noseed", "RandomCrop", {"image": t(np.zeros((4, 5, 2)), "float32"),
                                      "size": t([2, 3], "int64")})


# ------------------------------------------------------------------ runner
def _tensor(tf: Any, spec: dict[str, Any]) -> Any:
    dt = spec["dtype"]
    v = spec["value"]
    if dt in COMPLEX:
        a = np.asarray(v, np.float64).reshape([*spec["shape"], 2])
        v = a[..., 0] + 1j * a[..., 1]
    elif dt == "string":
        v = np.asarray(v, dtype=object)
    return tf.constant(v, dtype=getattr(tf, dt), shape=spec["shape"])


def _err(e: Exception) -> dict[str, Any]:
    msg = e.message if hasattr(e, "message") else str(e)
    # a graph run's error: keep the kernel's own text (after "Node: '...'")
    m = re.search(r"\nNode: '[^']*'\n(.*?)\n\t \[\[", msg, re.S)
    if m:
        msg = m.group(1)
    return {"error": {"type": type(e).__name__, "message": msg}}


def _run_ref(tf: Any, cs: dict[str, Any]) -> dict[str, Any]:
    g = tf.Graph()
    with g.as_default(), tf.device("/CPU:0"):
        kwargs: dict[str, Any] = dict(cs["attrs"])
        var = None
        for name, spec in cs["inputs"].items():
            if isinstance(spec, dict) and "ref" in spec:
                var = tf.compat.v1.Variable(_tensor(tf, spec["ref"]), use_resource=False)
                kwargs[name] = var._ref()
            else:
                kwargs[name] = _tensor(tf, spec)
        try:
            op = getattr(tf.raw_ops, cs["op"])(**kwargs)
        except (ValueError, TypeError) as e:
            return _err(e)
        with tf.compat.v1.Session(graph=g) as sess:
            sess.run(var.initializer)
            try:
                out = sess.run(op)
            except tf.errors.OpError as e:
                return _err(e)
    return {"outputs": [_enc_out(tf.constant(out, dtype=var.dtype.base_dtype))]}


def run_case(tf: Any, cs: dict[str, Any]) -> dict[str, Any]:
    if any(isinstance(s, dict) and "ref" in s for s in cs["inputs"].values()):
        return _run_ref(tf, cs)
    kwargs: dict[str, Any] = dict(cs["attrs"])
    var = None
    with tf.device("/CPU:0"):
        for name, spec in cs["inputs"].items():
            if isinstance(spec, list):
                kwargs[name] = [_tensor(tf, x) for x in spec]
            elif "var" in spec:
                var = tf.Variable(_tensor(tf, spec["var"]))
                kwargs[name] = var.handle
            else:
                kwargs[name] = _tensor(tf, spec)
        try:
            out = getattr(tf.raw_ops, cs["op"])(**kwargs)
        except (tf.errors.OpError, ValueError, TypeError) as e:
            return _err(e)
    if out is None or (hasattr(out, "op") and out.dtype == tf.resource):
        out = []
    elif not isinstance(out, (list, tuple)):
        out = [out]
    out = list(out)
    if var is not None:
        out.append(var.read_value())
    return {"outputs": [_enc_out(o) for o in out]}


def main() -> None:
    import tensorflow as tf

    assert tf.__version__.startswith("2.21"), tf.__version__
    for cs in CASES:
        cs.update(run_case(tf, cs))
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "more18_ops_tf221.json")
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, "cases": CASES}, f, separators=(",", ":"))
        f.write("\n")
    nerr = sum("error" in c for c in CASES)
    print(f"wrote {len(CASES)} cases ({nerr} errors) to {os.path.normpath(path)}", file=sys.stderr)


if __name__ == "__main__":
    main()
