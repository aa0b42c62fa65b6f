"""Records TF 2.21's results for the misc18 op group's kernels
(csrc/kernels/cpu/misc18_kernels.c) into tests/data/misc18_ops_tf221.json.
Run with /work/tfvenv/bin/python; tests/python/test_misc18_ops.py only
reads the JSON. Each case runs one raw op eagerly on CPU and keeps its
outputs or its error (TF's exception class name and message). The tensor
encoding and the runner are record_sparse_ops.py's."""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from record_sparse_ops import COMPLEX, record_main, run_raw, t

R = np.random.default_rng(1818_18)
FLOATS = ("float32", "float64", "float16", "bfloat16")
INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
REAL = FLOATS + INTS
CPLX = ("complex64", "complex128")
ALL = REAL + CPLX + ("bool", "string")

CASES: list[dict[str, Any]] = []


def add(name: str, op: str, inputs: dict[str, Any], attrs: dict[str, Any] | None = None) -> None:
    CASES.append({"name": name, "op": op, "inputs": inputs, "attrs": attrs or {}})


def vals(shape: tuple[int, ...], dtype: str, distinct: bool = False) -> Any:
    n = int(np.prod(shape))
    if distinct and dtype not in ("bool", "string", *CPLX):
        v = R.permutation(n) + (1 if dtype.startswith("u") else -(n // 3))
        if dtype in FLOATS:
            v = v * 0.5
        return np.asarray(v).reshape(shape)
    if dtype in CPLX:
        v = R.integers(-4, 5, n) + 1j * R.integers(-4, 5, n)
    elif dtype == "string":
        v = np.asarray([f"s{i % 3}" for i in range(n)], dtype=object)
    elif dtype == "bool":
        v = R.integers(0, 2, n).astype(bool)
    elif dtype.startswith("u"):
        v = R.integers(0, 9, n)
    elif dtype.startswith("int"):
        v = R.integers(-5, 9, n)
    else:
        v = np.round(R.uniform(-2, 2, n), 2)
    return np.asarray(v).reshape(shape)


# ---------------------------------------------------------------- TopK (v1)
for dt in REAL:
    add(f"topk_{dt}", "TopK", {"input": t(vals((3, 5), dt, True), dt)}, {"k": 2})
add("topk_unsorted", "TopK", {"input": t(vals((2, 6), "float32", True), "float32")},
    {"k": 3, "sorted": False})
add("topk_k0", "TopK", {"input": t(vals((2, 3), "int32"), "int32")}, {"k": 0})
add("topk_ties", "TopK", {"input": t([[1, 3, 3, 1, 2]], "int32")}, {"k": 3})
add("topk_err_k", "TopK", {"input": t(vals((2, 3), "float32"), "float32")}, {"k": 4})
add("topk_err_scalar", "TopK", {"input": t(1.0, "float32")}, {"k": 0})

# ---------------------------------------------------------------- Inplace*
for op in ("InplaceAdd", "InplaceSub", "InplaceUpdate"):
    for dt in ALL:
        add(f"{op.lower()}_{dt}", op, {"x": t(vals((4, 2), dt), dt), "i": t([3, 1], "int32"),
                                       "v": t(vals((2, 2), dt), dt)})
    add(f"{op.lower()}_dup", op, {"x": t(vals((3,), "float32"), "float32"),
                                  "i": t([0, 0], "int32"), "v": t([1.0, 2.0], "float32")})
    add(f"{op.lower()}_scalar_i", op, {"x": t(vals((3, 2), "float32"), "float32"),
                                       "i": t(2, "int32"), "v": t([[1.0, 2.0]], "float32")})
    add(f"{op.lower()}_err_range", op, {"x": t(vals((3, 2), "float32"), "float32"),
                                        "i": t([3], "int32"), "v": t([[1.0, 2.0]], "float32")})
    add(f"{op.lower()}_err_neg", op, {"x": t(vals((3, 2), "float32"), "float32"),
                                      "i": t([-1], "int32"), "v": t([[1.0, 2.0]], "float32")})
    add(f"{op.lower()}_err_shape", op, {"x": t(vals((3, 2), "float32"), "float32"),
                                        "i": t([1], "int32"), "v": t([[1.0, 2.0, 3.0]], "float32")})
    add(f"{op.lower()}_err_count", op, {"x": t(vals((3, 2), "float32"), "float32"),
                                        "i": t([1, 2], "int32"), "v": t([[1.0, 2.0]], "float32")})
    add(f"{op.lower()}_err_xrank", op, {"x": t(1.0, "float32"),
                                        "i": t([0], "int32"), "v": t([1.0], "float32")})

# ---------------------------------------------------------------- DataFormat*
for dt in ("int32", "int64"):
    add(f"dimmap_{dt}", "DataFormatDimMap", {"x": t([[-4, -3], [-1, 0], [1, 3]], dt)})
    add(f"dimmap_{dt}_ncwh", "DataFormatDimMap", {"x": t([0, 1, 2, 3, -2], dt)},
        {"src_format": "NHWC", "dst_format": "NCWH"})
    add(f"vecperm_{dt}", "DataFormatVecPermute", {"x": t([7, 8, 9, 10], dt)})
    add(f"vecperm_{dt}_2d", "DataFormatVecPermute", {"x": t([[1, 2], [3, 4], [5, 6], [7, 8]], dt)})
    add(f"vecperm_{dt}_back", "DataFormatVecPermute", {"x": t([7, 8, 9, 10], dt)},
        {"src_format": "NCHW", "dst_format": "NHWC"})
add("vecperm_spatial", "DataFormatVecPermute", {"x": t([7, 8], "int32")})
add("vecperm_5d", "DataFormatVecPermute", {"x": t([1, 2, 3, 4, 5], "int32")},
    {"src_format": "NDHWC", "dst_format": "NCDHW"})
add("vecperm_5d_2", "DataFormatVecPermute", {"x": t([1, 2, 3], "int32")},
    {"src_format": "NDHWC", "dst_format": "NCDHW"})
add("dimmap_5d", "DataFormatDimMap", {"x": t([0, 1, 2, 3, 4, -1], "int32")},
    {"src_format": "NDHWC", "dst_format": "NCDHW"})
add("dimmap_err_fmt", "DataFormatDimMap", {"x": t([0], "int32")},
    {"src_format": "NHWC", "dst_format": "NCHWX"})
add("dimmap_err_perm", "DataFormatDimMap", {"x": t([0], "int32")},
    {"src_format": "NHWC", "dst_format": "NCHH"})
add("vecperm_err_size", "DataFormatVecPermute", {"x": t([1, 2, 3], "int32")})
add("vecperm_err_rank", "DataFormatVecPermute", {"x": t([[[1]]], "int32")})
add("vecperm_err_2d", "DataFormatVecPermute", {"x": t([[1, 2, 3], [3, 4, 5]], "int32")})
add("vecperm_err_fmt", "DataFormatVecPermute", {"x": t([1, 2, 3, 4], "int32")},
    {"src_format": "NHWC", "dst_format": "NCH"})

# ---------------------------------------------------------------- NthElement
for dt in REAL:
    add(f"nth_{dt}", "NthElement", {"input": t(vals((3, 5), dt), dt), "n": t(1, "int32")})
add("nth_reverse", "NthElement", {"input": t(vals((2, 3, 4), "float64"), "float64"),
                                  "n": t(0, "int32")}, {"reverse": True})
add("nth_last", "NthElement", {"input": t(vals((6,), "int32"), "int32"), "n": t(5, "int32")})
add("nth_err_n", "NthElement", {"input": t(vals((2, 3), "int32"), "int32"), "n": t(3, "int32")})
add("nth_err_neg", "NthElement", {"input": t(vals((2, 3), "int32"), "int32"), "n": t(-1, "int32")})
add("nth_err_rank", "NthElement", {"input": t(1, "int32"), "n": t(0, "int32")})
add("nth_err_nvec", "NthElement", {"input": t(vals((2, 3), "int32"), "int32"),
                                   "n": t([0], "int32")})

# ---------------------------------------------------------------- TileGrad
for dt in ("float32", "float64", "int32", "complex64"):
    add(f"tilegrad_{dt}", "TileGrad", {"input": t(vals((4, 6), dt), dt),
                                       "multiples": t([2, 3], "int32")})
add("tilegrad_ones", "TileGrad", {"input": t(vals((2, 3), "float32"), "float32"),
                                  "multiples": t([1, 1], "int32")})
add("tilegrad_err_len", "TileGrad", {"input": t(vals((2, 3), "float32"), "float32"),
                                     "multiples": t([1], "int32")})
add("tilegrad_err_mrank", "TileGrad", {"input": t(vals((2, 3), "float32"), "float32"),
                                       "multiples": t([[1, 1]], "int32")})

# ---------------------------------------------------------------- BiasAddV1
for dt in REAL + CPLX:
    add(f"biasaddv1_{dt}", "BiasAddV1", {"value": t(vals((2, 3), dt), dt),
                                         "bias": t(vals((3,), dt), dt)})
add("biasaddv1_4d", "BiasAddV1", {"value": t(vals((2, 2, 2, 3), "float32"), "float32"),
                                  "bias": t(vals((3,), "float32"), "float32")})
add("biasaddv1_err_rank", "BiasAddV1", {"value": t(vals((3,), "float32"), "float32"),
                                        "bias": t(vals((3,), "float32"), "float32")})
add("biasaddv1_err_len", "BiasAddV1", {"value": t(vals((2, 3), "float32"), "float32"),
                                       "bias": t(vals((2,), "float32"), "float32")})

# ---------------------------------------------------------------- UniqueV2 / UniqueWithCountsV2
UQ = (*REAL, "bool", "string")
for op, tag in (("UniqueV2", "uniquev2"), ("UniqueWithCountsV2", "uniquecv2")):
    for dt in UQ:
        base = np.asarray(vals((3,), dt))
        x = base[[0, 1, 0, 2, 1, 1]] if dt != "bool" else np.asarray([1, 0, 1, 1, 0, 1], bool)
        add(f"{tag}_{dt}", op, {"x": t(x, dt), "axis": t([], "int64")})
    for it in ("int32", "int64"):
        add(f"{tag}_idx_{it}", op, {"x": t([4, 2, 4, 7], "int32"), "axis": t([], "int32")},
            {"out_idx": it})
    rows = np.asarray([[1, 2], [3, 4], [1, 2], [5, 6], [3, 4]])
    add(f"{tag}_axis0", op, {"x": t(rows, "int32"), "axis": t([0], "int64")})
    add(f"{tag}_axis1", op, {"x": t(rows.T.copy(), "float32"), "axis": t([1], "int32")})
    add(f"{tag}_axis_neg", op, {"x": t(rows.T.copy(), "int64"), "axis": t([-1], "int64")})
    add(f"{tag}_axis3d", op, {"x": t(np.asarray([[[1, 1, 2], [3, 3, 4]], [[5, 5, 6], [7, 7, 8]]]),
                                     "int32"), "axis": t([2], "int64")}, {"out_idx": "int64"})
    add(f"{tag}_axis_str", op, {"x": t(np.asarray([["a", "b"], ["c", "d"], ["a", "b"]],
                                                  dtype=object), "string"),
                                "axis": t([0], "int64")})
    add(f"{tag}_axis_bool", op, {"x": t(np.asarray([[True, False], [True, False]]), "bool"),
                                 "axis": t([0], "int64")})
    add(f"{tag}_negzero", op, {"x": t([0.0, -0.0, 1.0], "float32"), "axis": t([0], "int64")})
    add(f"{tag}_err_axis_range", op, {"x": t(rows, "int32"), "axis": t([2], "int64")})
    add(f"{tag}_err_axis_2", op, {"x": t(rows, "int32"), "axis": t([0, 1], "int64")})
    add(f"{tag}_err_axis_rank", op, {"x": t(rows, "int32"), "axis": t(0, "int64")})
    add(f"{tag}_err_not_vec", op, {"x": t(rows, "int32"), "axis": t([], "int64")})

# ---------------------------------------------------------------- StridedSliceGrad
SSG = (*REAL, "complex64", "complex128", "bool", "string")
for dt in SSG:
    add(f"ssgrad_{dt}", "StridedSliceGrad",
        {"shape": t([4, 3], "int32"), "begin": t([1, 0], "int32"), "end": t([4, 3], "int32"),
         "strides": t([2, 2], "int32"), "dy": t(vals((2, 2), dt), dt)})
add("ssgrad_masks", "StridedSliceGrad",
    {"shape": t([3, 4, 2], "int64"), "begin": t([1, 3], "int64"), "end": t([0, 0], "int64"),
     "strides": t([1, -1], "int64"), "dy": t(vals((3, 2), "float64"), "float64")},
    {"begin_mask": 1, "end_mask": 3, "shrink_axis_mask": 0, "ellipsis_mask": 0,
     "new_axis_mask": 0})
add("ssgrad_shrink_ellipsis", "StridedSliceGrad",
    {"shape": t([2, 3, 4], "int32"), "begin": t([0, 1], "int32"), "end": t([0, 2], "int32"),
     "strides": t([1, 1], "int32"), "dy": t(vals((2, 3), "float32"), "float32")},
    {"ellipsis_mask": 1, "shrink_axis_mask": 2})
add("ssgrad_newaxis", "StridedSliceGrad",
    {"shape": t([3], "int32"), "begin": t([0, 0], "int32"), "end": t([0, 2], "int32"),
     "strides": t([1, 1], "int32"), "dy": t(vals((1, 2), "float32"), "float32")},
    {"new_axis_mask": 1})
add("ssgrad_err_dy", "StridedSliceGrad",
    {"shape": t([4, 3], "int32"), "begin": t([1, 0], "int32"), "end": t([4, 3], "int32"),
     "strides": t([2, 2], "int32"), "dy": t(vals((2, 3), "float32"), "float32")})
add("ssgrad_err_stride0", "StridedSliceGrad",
    {"shape": t([4], "int32"), "begin": t([1], "int32"), "end": t([4], "int32"),
     "strides": t([0], "int32"), "dy": t(vals((2,), "float32"), "float32")})
add("ssgrad_err_len", "StridedSliceGrad",
    {"shape": t([4], "int32"), "begin": t([1, 2], "int32"), "end": t([4], "int32"),
     "strides": t([1], "int32"), "dy": t(vals((2,), "float32"), "float32")})
add("ssgrad_err_shape_rank", "StridedSliceGrad",
    {"shape": t([[4]], "int32"), "begin": t([1], "int32"), "end": t([4], "int32"),
     "strides": t([1], "int32"), "dy": t(vals((3,), "float32"), "float32")})

# ---------------------------------------------------------------- ParallelConcat
for dt in (*REAL, "complex64", "complex128", "bool", "string"):
    add(f"pconcat_{dt}", "ParallelConcat",
        {"values": [t(vals((1, 2), dt), dt), t(vals((1, 2), dt), dt), t(vals((1, 2), dt), dt)]},
        {"shape": [3, 2]})
add("pconcat_err_shape", "ParallelConcat",
    {"values": [t(vals((1, 2), "float32"), "float32"), t(vals((1, 3), "float32"), "float32")]},
    {"shape": [2, 2]})
add("pconcat_err_first", "ParallelConcat",
    {"values": [t(vals((2, 2), "float32"), "float32")]}, {"shape": [2, 2]})
add("pconcat_err_rank", "ParallelConcat",
    {"values": [t(vals((1, 2), "float32"), "float32")]}, {"shape": [1, 2, 1]})
add("pconcat_wrap", "ParallelConcat",
    {"values": [t(vals((1, 2), "float32"), "float32"), t(vals((1, 2), "float32"), "float32")]},
    {"shape": [1, 2]})

# ---------------------------------------------------------------- MirrorPadGrad
for dt in (*REAL, "complex64", "complex128"):
    add(f"mpgrad_{dt}", "MirrorPadGrad", {"input": t(vals((5, 4), dt), dt),
                                          "paddings": t([[1, 1], [1, 0]], "int32")},
        {"mode": "REFLECT"})
add("mpgrad_sym", "MirrorPadGrad", {"input": t(vals((6, 7), "float64"), "float64"),
                                    "paddings": t([[2, 2], [3, 1]], "int64")},
    {"mode": "SYMMETRIC"})
add("mpgrad_3d", "MirrorPadGrad", {"input": t(vals((4, 3, 5), "float32"), "float32"),
                                   "paddings": t([[1, 1], [0, 0], [2, 0]], "int32")},
    {"mode": "REFLECT"})
add("mpgrad_err_cols", "MirrorPadGrad", {"input": t(vals((5, 4), "float32"), "float32"),
                                         "paddings": t([[1, 2, 0], [1, 0, 0]], "int32")},
    {"mode": "REFLECT"})
add("mpgrad_err_rank", "MirrorPadGrad", {"input": t(vals((5, 4), "float32"), "float32"),
                                         "paddings": t([[1, 2]], "int32")},
    {"mode": "REFLECT"})
add("mpgrad_err_neg", "MirrorPadGrad", {"input": t(vals((5, 4), "float32"), "float32"),
                                        "paddings": t([[1, -1], [0, 0]], "int32")},
    {"mode": "REFLECT"})
add("mpgrad_err_big", "MirrorPadGrad", {"input": t(vals((5, 4), "float32"), "float32"),
                                        "paddings": t([[2, 1], [0, 0]], "int32")},
    {"mode": "REFLECT"})
add("mpgrad_err_big_sym", "MirrorPadGrad", {"input": t(vals((5, 4), "float32"), "float32"),
                                            "paddings": t([[2, 1], [0, 0]], "int32")},
    {"mode": "SYMMETRIC"})
add("mpgrad_err_big_sym2", "MirrorPadGrad", {"input": t(vals((5, 4), "float32"), "float32"),
                                             "paddings": t([[3, 1], [0, 0]], "int32")},
    {"mode": "SYMMETRIC"})

# ---------------------------------------------------------------- Spence
SPX = [0.0, 1e-300, 1e-8, 0.1, 0.4999, 0.5, 0.75, 1.0, 1.0 + 1e-9, 1.3, 1.9999, 2.0, 2.5,
       3.7, 10.0, 123.4, 1e8, 1e300, -0.5, float("inf"), float("nan")]
for dt in ("float32", "float64"):
    add(f"spence_{dt}", "Spence", {"x": t([v for v in SPX if dt == "float64" or v != 1e300],
                                          dt)})


def _tensor(tf: Any, spec: dict[str, Any]) -> Any:
    dt = spec["dtype"]
    v = spec["value"]
    if dt in COMPLEX:
        a = np.asarray(v, np.float64).reshape([*spec["shape"], 2])
        v = a[..., 0] + 1j * a[..., 1]
    elif dt == "string":
        v = np.asarray(v, dtype=object)
    return tf.constant(v, dtype=getattr(tf, dt), shape=spec["shape"])


def run_case(tf: Any, cs: dict[str, Any]) -> dict[str, Any]:
    """record_sparse_ops' runner, with list inputs (a list of tensor specs)."""
    kwargs: dict[str, Any] = dict(cs["attrs"])
    for name, spec in cs["inputs"].items():
        kwargs[name] = ([_tensor(tf, x) for x in spec] if isinstance(spec, list)
                        else _tensor(tf, spec))
    return run_raw(tf, cs["op"], kwargs)


def main() -> None:
    record_main(CASES, "misc18_ops_tf221.json", run_case)


if __name__ == "__main__":
    main()
