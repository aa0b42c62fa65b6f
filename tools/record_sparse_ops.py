"""Records TF 2.21's results for the sparse op group's kernels
(csrc/kernels/cpu/sparse_*.c) into tests/data/sparse_ops_tf221.json.
Run with /work/tfvenv/bin/python; tests/python/test_sparse_ops.py only
reads the JSON.

Each case runs one raw op eagerly on CPU and keeps either all of its
outputs or the error (TF's exception class name and message).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np

R = np.random.default_rng(1818)

COMPLEX = ("complex64", "complex128")


def enc(a: np.ndarray, dtype: str) -> dict[str, Any]:
    """A JSON-able tensor: complex values as [re, im] pairs, strings as text."""
    if dtype in COMPLEX:
        a = np.asarray(a, np.complex128)
        v: Any = np.stack([a.real, a.imag], -1).tolist()
    elif dtype == "string":
        v = np.vectorize(lambda s: s.decode() if isinstance(s, bytes) else str(s),
                         otypes=[object])(a).tolist() if a.size else np.asarray(a).tolist()
    elif dtype in ("bfloat16", "float16", "float32", "float64"):
        v = np.asarray(a, np.float64).tolist()
    elif dtype == "bool":
        v = np.asarray(a, bool).tolist()
    else:
        v = np.asarray(a).astype(np.int64).tolist()
    return {"value": v, "dtype": dtype, "shape": list(np.shape(a))}


def t(v: Any, dtype: str) -> dict[str, Any]:
    if dtype == "string":
        a = np.asarray(v, dtype=object)
        return enc(a, dtype)
    if dtype in COMPLEX:
        return enc(np.asarray(v, np.complex128), dtype)
    return enc(np.asarray(v), dtype)


def vals(n: int, dtype: str) -> Any:
    """n sample values of dtype (small integers for integer types)."""
    if dtype in COMPLEX:
        return R.integers(-4, 5, n) + 1j * R.integers(-4, 5, n)
    if dtype == "string":
        return [f"s{i}" for i in range(n)]
    if dtype == "bool":
        return R.integers(0, 2, n).astype(bool)
    if dtype.startswith("u"):
        return R.integers(1, 9, n)
    if dtype.startswith("int") or dtype.startswith("q"):
        return R.integers(-5, 9, n)
    return np.round(R.uniform(-2, 2, n), 2)


CASES: list[dict[str, Any]] = []


def add(name: str, op: str, inputs: dict[str, Any], attrs: dict[str, Any] | None = None) -> None:
    CASES.append({"name": name, "op": op, "inputs": inputs, "attrs": attrs or {}})


FLOATS = ("float32", "float64", "float16", "bfloat16")
INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
REAL = FLOATS + INTS

# ---------------------------------------------------------------- SparseTensorDenseMatMul
IDX = [[0, 1], [0, 3], [1, 0], [2, 2], [2, 3]]
for dt in ("float32", "float64", "float16", "bfloat16", "complex64", "complex128", "int32"):
    for ti in ("int32", "int64"):
        add(f"stdmm_{dt}_{ti}", "SparseTensorDenseMatMul",
            {"a_indices": t(IDX, ti), "a_values": t(vals(5, dt), dt),
             "a_shape": t([3, 4], "int64"), "b": t(np.reshape(vals(8, dt), (4, 2)), dt)})
for adj_a in (False, True):
    for adj_b in (False, True):
        ash = [4, 3] if adj_a else [3, 4]
        ind = [[j, i] for i, j in IDX] if adj_a else IDX
        bsh = (2, 4) if adj_b else (4, 2)
        for dt in ("float64", "complex128"):
            add(f"stdmm_adj_{adj_a:d}{adj_b:d}_{dt}", "SparseTensorDenseMatMul",
                {"a_indices": t(ind, "int64"), "a_values": t(vals(5, dt), dt),
                 "a_shape": t(ash, "int64"), "b": t(np.reshape(vals(8, dt), bsh), dt)},
                {"adjoint_a": adj_a, "adjoint_b": adj_b})
add("stdmm_duplicates_unsorted", "SparseTensorDenseMatMul",
    {"a_indices": t([[2, 1], [0, 0], [2, 1], [1, 3]], "int64"),
     "a_values": t([1.0, 2, 3, 4], "float32"),
     "a_shape": t([3, 4], "int64"), "b": t(np.reshape(vals(12, "float32"), (4, 3)), "float32")})
add("stdmm_empty_nnz", "SparseTensorDenseMatMul",
    {"a_indices": t(np.zeros((0, 2)), "int64"), "a_values": t([], "float32"),
     "a_shape": t([3, 4], "int64"), "b": t(np.ones((4, 2)), "float32")})
add("stdmm_empty_out", "SparseTensorDenseMatMul",
    {"a_indices": t(np.zeros((0, 2)), "int64"), "a_values": t([], "float32"),
     "a_shape": t([0, 4], "int64"), "b": t(np.ones((4, 2)), "float32")})
add("stdmm_err_k_oob", "SparseTensorDenseMatMul",
    {"a_indices": t([[0, 1], [2, 5]], "int64"), "a_values": t([1.0, 2], "float32"),
     "a_shape": t([3, 4], "int64"), "b": t(np.ones((4, 2)), "float32")})
add("stdmm_err_m_oob", "SparseTensorDenseMatMul",
    {"a_indices": t([[0, 1], [3, 3]], "int64"), "a_values": t([1.0, 2], "float32"),
     "a_shape": t([3, 4], "int64"), "b": t(np.ones((4, 2)), "float32")})
add("stdmm_err_neg", "SparseTensorDenseMatMul",
    {"a_indices": t([[0, 1], [-1, 3]], "int32"), "a_values": t([1.0, 2], "float32"),
     "a_shape": t([3, 4], "int64"), "b": t(np.ones((4, 2)), "float32")})
add("stdmm_err_inner", "SparseTensorDenseMatMul",
    {"a_indices": t([[0, 1]], "int64"), "a_values": t([1.0], "float32"),
     "a_shape": t([3, 4], "int64"), "b": t(np.ones((5, 2)), "float32")})
add("stdmm_err_inner_adj", "SparseTensorDenseMatMul",
    {"a_indices": t([[0, 1]], "int64"), "a_values": t([1.0], "float32"),
     "a_shape": t([3, 4], "int64"), "b": t(np.ones((4, 2)), "float32")}, {"adjoint_a": True})
add("stdmm_err_shape_len", "SparseTensorDenseMatMul",
    {"a_indices": t([[0, 1, 0]], "int64"), "a_values": t([1.0], "float32"),
     "a_shape": t([3, 4, 1], "int64"), "b": t(np.ones((4, 2)), "float32")})
add("stdmm_err_values_len", "SparseTensorDenseMatMul",
    {"a_indices": t([[0, 1]], "int64"), "a_values": t([1.0, 2.0], "float32"),
     "a_shape": t([3, 4], "int64"), "b": t(np.ones((4, 2)), "float32")})
add("stdmm_err_indices_cols", "SparseTensorDenseMatMul",
    {"a_indices": t([[0, 1, 1]], "int64"), "a_values": t([1.0], "float32"),
     "a_shape": t([3, 4], "int64"), "b": t(np.ones((4, 2)), "float32")})
add("stdmm_err_b_rank", "SparseTensorDenseMatMul",
    {"a_indices": t([[0, 1]], "int64"), "a_values": t([1.0], "float32"),
     "a_shape": t([3, 4], "int64"), "b": t(np.ones((4,)), "float32")})
add("stdmm_err_indices_rank", "SparseTensorDenseMatMul",
    {"a_indices": t([0, 1], "int64"), "a_values": t([1.0], "float32"),
     "a_shape": t([3, 4], "int64"), "b": t(np.ones((4, 2)), "float32")})
add("stdmm_err_values_rank", "SparseTensorDenseMatMul",
    {"a_indices": t([[0, 1]], "int64"), "a_values": t([[1.0]], "float32"),
     "a_shape": t([3, 4], "int64"), "b": t(np.ones((4, 2)), "float32")})
add("stdmm_err_shape_rank", "SparseTensorDenseMatMul",
    {"a_indices": t([[0, 1]], "int64"), "a_values": t([1.0], "float32"),
     "a_shape": t([[3, 4]], "int64"), "b": t(np.ones((4, 2)), "float32")})

# ---------------------------------------------------------------- SparseToDense
STD_DTYPES = ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
              "uint8", "uint16", "uint32", "uint64", "bool", "complex64", "complex128", "string")
for dt in STD_DTYPES:
    for ti in ("int32", "int64"):
        add(f"s2d_{dt}_{ti}", "SparseToDense",
            {"sparse_indices": t([[0, 1], [1, 0], [2, 3]], ti), "output_shape": t([3, 4], ti),
             "sparse_values": t(vals(3, dt), dt), "default_value": t(vals(1, dt)[0], dt)})
add("s2d_scalar_value", "SparseToDense",
    {"sparse_indices": t([[0, 1], [1, 0]], "int64"), "output_shape": t([2, 3], "int64"),
     "sparse_values": t(7.0, "float32"), "default_value": t(-1.0, "float32")})
add("s2d_vector_indices", "SparseToDense",
    {"sparse_indices": t([1, 3], "int32"), "output_shape": t([5], "int32"),
     "sparse_values": t([7, 8], "int32"), "default_value": t(0, "int32")})
add("s2d_scalar_index", "SparseToDense",
    {"sparse_indices": t(2, "int32"), "output_shape": t([5], "int32"),
     "sparse_values": t(9, "int32"), "default_value": t(1, "int32")})
add("s2d_3d", "SparseToDense",
    {"sparse_indices": t([[0, 0, 1], [1, 2, 0]], "int64"), "output_shape": t([2, 3, 2], "int64"),
     "sparse_values": t([1.5, 2.5], "float64"), "default_value": t(0.0, "float64")})
add("s2d_unsorted_novalidate", "SparseToDense",
    {"sparse_indices": t([[1, 0], [0, 1]], "int64"), "output_shape": t([2, 2], "int64"),
     "sparse_values": t([1.0, 2.0], "float32"), "default_value": t(0.0, "float32")},
    {"validate_indices": False})
add("s2d_err_unsorted", "SparseToDense",
    {"sparse_indices": t([[1, 0], [0, 1]], "int64"), "output_shape": t([2, 2], "int64"),
     "sparse_values": t([1.0, 2.0], "float32"), "default_value": t(0.0, "float32")})
add("s2d_err_repeated", "SparseToDense",
    {"sparse_indices": t([[0, 1], [0, 1]], "int64"), "output_shape": t([2, 2], "int64"),
     "sparse_values": t([1.0, 2.0], "float32"), "default_value": t(0.0, "float32")})
add("s2d_err_oob", "SparseToDense",
    {"sparse_indices": t([[0, 1], [1, 2]], "int64"), "output_shape": t([2, 2], "int64"),
     "sparse_values": t([1.0, 2.0], "float32"), "default_value": t(0.0, "float32")})
add("s2d_err_oob_novalidate", "SparseToDense",
    {"sparse_indices": t([[0, 1], [1, 2]], "int64"), "output_shape": t([2, 2], "int64"),
     "sparse_values": t([1.0, 2.0], "float32"), "default_value": t(0.0, "float32")},
    {"validate_indices": False})
add("s2d_err_neg", "SparseToDense",
    {"sparse_indices": t([[0, 1], [-1, 0]], "int64"), "output_shape": t([2, 2], "int64"),
     "sparse_values": t([1.0, 2.0], "float32"), "default_value": t(0.0, "float32")})
add("s2d_err_values_len", "SparseToDense",
    {"sparse_indices": t([[0, 1], [1, 0]], "int64"), "output_shape": t([2, 2], "int64"),
     "sparse_values": t([1.0, 2.0, 3.0], "float32"), "default_value": t(0.0, "float32")})
add("s2d_err_default_shape", "SparseToDense",
    {"sparse_indices": t([[0, 1]], "int64"), "output_shape": t([2, 2], "int64"),
     "sparse_values": t([1.0], "float32"), "default_value": t([0.0], "float32")})
add("s2d_err_shape_rank", "SparseToDense",
    {"sparse_indices": t([[0, 1]], "int64"), "output_shape": t([[2, 2]], "int64"),
     "sparse_values": t([1.0], "float32"), "default_value": t(0.0, "float32")})
add("s2d_err_indices_cols", "SparseToDense",
    {"sparse_indices": t([[0, 1, 0]], "int64"), "output_shape": t([2, 2], "int64"),
     "sparse_values": t([1.0], "float32"), "default_value": t(0.0, "float32")})
add("s2d_err_indices_rank", "SparseToDense",
    {"sparse_indices": t([[[0, 1]]], "int64"), "output_shape": t([2, 2], "int64"),
     "sparse_values": t([1.0], "float32"), "default_value": t(0.0, "float32")})
add("s2d_err_neg_shape", "SparseToDense",
    {"sparse_indices": t([[0, 1]], "int64"), "output_shape": t([2, -2], "int64"),
     "sparse_values": t([1.0], "float32"), "default_value": t(0.0, "float32")})

# ---------------------------------------------------------------- SparseReorder
REORDER_DTYPES = ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
                  "uint8", "uint16", "uint32", "uint64", "bool", "complex64", "complex128",
                  "string")
for dt in REORDER_DTYPES:
    add(f"reorder_{dt}", "SparseReorder",
        {"input_indices": t([[2, 1], [0, 3], [1, 0], [0, 0]], "int64"),
         "input_values": t(vals(4, dt), dt), "input_shape": t([3, 4], "int64")})
add("reorder_3d_dups", "SparseReorder",
    {"input_indices": t([[1, 0, 1], [0, 2, 0], [1, 0, 0], [0, 2, 0]], "int64"),
     "input_values": t([1.0, 2, 3, 4], "float32"), "input_shape": t([2, 3, 2], "int64")})
add("reorder_empty", "SparseReorder",
    {"input_indices": t(np.zeros((0, 2)), "int64"),
     "input_values": t([], "float32"), "input_shape": t([3, 4], "int64")})
add("reorder_err_oob", "SparseReorder",
    {"input_indices": t([[2, 1], [0, 4]], "int64"),
     "input_values": t([1.0, 2], "float32"), "input_shape": t([3, 4], "int64")})
add("reorder_err_neg", "SparseReorder",
    {"input_indices": t([[2, 1], [-1, 0]], "int64"),
     "input_values": t([1.0, 2], "float32"), "input_shape": t([3, 4], "int64")})
add("reorder_err_values_len", "SparseReorder",
    {"input_indices": t([[2, 1], [0, 0]], "int64"),
     "input_values": t([1.0], "float32"), "input_shape": t([3, 4], "int64")})
add("reorder_err_shape_len", "SparseReorder",
    {"input_indices": t([[2, 1], [0, 0]], "int64"),
     "input_values": t([1.0, 2], "float32"), "input_shape": t([3, 4, 5], "int64")})
add("reorder_err_indices_rank", "SparseReorder",
    {"input_indices": t([2, 1], "int64"),
     "input_values": t([1.0, 2], "float32"), "input_shape": t([3, 4], "int64")})

# ---------------------------------------------------------------- SparseReshape
RS_IDX = [[0, 0, 1], [0, 1, 0], [1, 0, 2], [1, 2, 3]]
add("reshape_basic", "SparseReshape",
    {"input_indices": t(RS_IDX, "int64"), "input_shape": t([2, 3, 4], "int64"),
     "new_shape": t([6, 4], "int64")})
add("reshape_infer", "SparseReshape",
    {"input_indices": t(RS_IDX, "int64"), "input_shape": t([2, 3, 4], "int64"),
     "new_shape": t([4, -1], "int64")})
add("reshape_up_rank", "SparseReshape",
    {"input_indices": t([[1, 5], [0, 2]], "int64"), "input_shape": t([2, 6], "int64"),
     "new_shape": t([2, 2, 3], "int64")})
add("reshape_empty", "SparseReshape",
    {"input_indices": t(np.zeros((0, 2)), "int64"), "input_shape": t([0, 6], "int64"),
     "new_shape": t([3, 0], "int64")})
add("reshape_err_two_infer", "SparseReshape",
    {"input_indices": t(RS_IDX, "int64"), "input_shape": t([2, 3, 4], "int64"),
     "new_shape": t([-1, -1], "int64")})
add("reshape_err_count", "SparseReshape",
    {"input_indices": t(RS_IDX, "int64"), "input_shape": t([2, 3, 4], "int64"),
     "new_shape": t([5, 5], "int64")})
add("reshape_err_infer_div", "SparseReshape",
    {"input_indices": t(RS_IDX, "int64"), "input_shape": t([2, 3, 4], "int64"),
     "new_shape": t([5, -1], "int64")})
add("reshape_err_neg", "SparseReshape",
    {"input_indices": t(RS_IDX, "int64"), "input_shape": t([2, 3, 4], "int64"),
     "new_shape": t([-2, 12], "int64")})
add("reshape_err_rank_mismatch", "SparseReshape",
    {"input_indices": t(RS_IDX, "int64"), "input_shape": t([6, 4], "int64"),
     "new_shape": t([4, 6], "int64")})
add("reshape_err_indices_rank", "SparseReshape",
    {"input_indices": t([1, 2], "int64"), "input_shape": t([6, 4], "int64"),
     "new_shape": t([4, 6], "int64")})

# ---------------------------------------------------------------- SparseTensorDenseAdd
STDA = ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
        "uint16", "uint32", "uint64", "complex64", "complex128")
for dt in STDA:
    for ti in ("int32", "int64"):
        add(f"stda_{dt}_{ti}", "SparseTensorDenseAdd",
            {"a_indices": t([[0, 1], [1, 0], [1, 0]], ti), "a_values": t(vals(3, dt), dt),
             "a_shape": t([2, 3], ti), "b": t(np.reshape(vals(6, dt), (2, 3)), dt)})
add("stda_err_shape", "SparseTensorDenseAdd",
    {"a_indices": t([[0, 1]], "int64"), "a_values": t([1.0], "float32"),
     "a_shape": t([2, 3], "int64"), "b": t(np.ones((3, 2)), "float32")})
add("stda_err_oob", "SparseTensorDenseAdd",
    {"a_indices": t([[0, 3]], "int64"), "a_values": t([1.0], "float32"),
     "a_shape": t([2, 3], "int64"), "b": t(np.ones((2, 3)), "float32")})
add("stda_err_values", "SparseTensorDenseAdd",
    {"a_indices": t([[0, 1]], "int64"), "a_values": t([1.0, 2.0], "float32"),
     "a_shape": t([2, 3], "int64"), "b": t(np.ones((2, 3)), "float32")})
add("stda_err_indices_rank", "SparseTensorDenseAdd",
    {"a_indices": t([0, 1], "int64"), "a_values": t([1.0, 2.0], "float32"),
     "a_shape": t([2, 3], "int64"), "b": t(np.ones((2, 3)), "float32")})
add("stda_err_nd", "SparseTensorDenseAdd",
    {"a_indices": t([[0, 1]], "int64"), "a_values": t([1.0], "float32"),
     "a_shape": t([2, 3], "int64"), "b": t(np.ones((2, 3, 1)), "float32")})

# ---------------------------------------------------------------- SparseDenseCwise*
CW = ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
      "uint16", "uint32", "uint64")
for op in ("SparseDenseCwiseAdd", "SparseDenseCwiseMul", "SparseDenseCwiseDiv"):
    short = op[len("SparseDenseCwise"):].lower()
    for dt in CW:
        add(f"cw{short}_{dt}", op,
            {"sp_indices": t([[0, 1], [1, 0], [1, 2]], "int64"), "sp_values": t(vals(3, dt), dt),
             "sp_shape": t([2, 3], "int64"), "dense": t(vals(3, dt) if short != "div"
                                                       else np.abs(vals(3, dt)) + 1, dt)})
    add(f"cw{short}_bcast_col", op,
        {"sp_indices": t([[0, 1], [1, 0], [1, 2]], "int64"), "sp_values": t([1.0, 2, 3], "float32"),
         "sp_shape": t([2, 3], "int64"), "dense": t([[2.0], [4.0]], "float32")})
    add(f"cw{short}_bcast_scalar", op,
        {"sp_indices": t([[0, 1, 0], [1, 0, 1]], "int64"), "sp_values": t([1.0, 2], "float64"),
         "sp_shape": t([2, 3, 2], "int64"), "dense": t(3.0, "float64")})
    add(f"cw{short}_err_bcast", op,
        {"sp_indices": t([[0, 1], [1, 0]], "int64"), "sp_values": t([1.0, 2], "float32"),
         "sp_shape": t([2, 3], "int64"), "dense": t([[1.0, 2], [3, 4]], "float32")})
    add(f"cw{short}_err_dense_rank", op,
        {"sp_indices": t([[0, 1], [1, 0]], "int64"), "sp_values": t([1.0, 2], "float32"),
         "sp_shape": t([2, 3], "int64"), "dense": t(np.ones((1, 2, 3)), "float32")})
    add(f"cw{short}_err_oob", op,
        {"sp_indices": t([[0, 1], [2, 0]], "int64"), "sp_values": t([1.0, 2], "float32"),
         "sp_shape": t([2, 3], "int64"), "dense": t(np.ones((2, 3)), "float32")})
    add(f"cw{short}_err_values", op,
        {"sp_indices": t([[0, 1], [1, 0]], "int64"), "sp_values": t([1.0], "float32"),
         "sp_shape": t([2, 3], "int64"), "dense": t(np.ones((2, 3)), "float32")})
add("cwdiv_int_by_zero", "SparseDenseCwiseDiv",
    {"sp_indices": t([[0, 1]], "int64"), "sp_values": t([5], "int32"),
     "sp_shape": t([2, 3], "int64"), "dense": t(np.zeros((2, 3)), "int32")})
add("cwdiv_float_by_zero", "SparseDenseCwiseDiv",
    {"sp_indices": t([[0, 1], [1, 1]], "int64"), "sp_values": t([5.0, 0.0], "float32"),
     "sp_shape": t([2, 3], "int64"), "dense": t(np.zeros((2, 3)), "float32")})

# ---------------------------------------------------------------- SparseSegmentSum/Mean/SqrtN
SEG_DATA = np.round(R.uniform(-2, 2, (5, 3)), 3)
for op, dts in (("SparseSegmentSum", REAL), ("SparseSegmentMean", FLOATS),
                ("SparseSegmentSqrtN", FLOATS)):
    short = op[len("SparseSegment"):].lower()
    for dt in dts:
        data = SEG_DATA if dt in FLOATS else np.reshape(vals(15, dt), (5, 3))
        add(f"seg{short}_{dt}", op,
            {"data": t(data, dt), "indices": t([0, 2, 2, 4, 1], "int32"),
             "segment_ids": t([0, 0, 1, 3, 3], "int32")})
        add(f"seg{short}_ns_{dt}", op + "WithNumSegments",
            {"data": t(data, dt), "indices": t([0, 2, 2, 4, 1], "int32"),
             "segment_ids": t([0, 0, 1, 3, 3], "int32"), "num_segments": t(6, "int32")})
    for ti in ("int32", "int64"):
        for ts in ("int32", "int64"):
            add(f"seg{short}_idx_{ti}_{ts}", op,
                {"data": t(SEG_DATA, "float32"), "indices": t([4, 3, 0], ti),
                 "segment_ids": t([0, 1, 1], ts)})
            add(f"seg{short}_ns_idx_{ti}_{ts}", op + "WithNumSegments",
                {"data": t(SEG_DATA, "float32"), "indices": t([4, 3, 0], ti),
                 "segment_ids": t([0, 1, 1], ts), "num_segments": t(3, ts)})
    add(f"seg{short}_1d", op,
        {"data": t([1.0, 2, 3, 4], "float64"), "indices": t([3, 0, 1], "int32"),
         "segment_ids": t([0, 0, 2], "int32")})
    add(f"seg{short}_3d", op,
        {"data": t(np.reshape(np.arange(24.0), (3, 2, 4)), "float32"),
         "indices": t([2, 0], "int64"), "segment_ids": t([1, 1], "int32")})
    add(f"seg{short}_empty", op,
        {"data": t(SEG_DATA, "float32"), "indices": t([], "int32"),
         "segment_ids": t([], "int32")})
    add(f"seg{short}_err_unsorted", op,
        {"data": t(SEG_DATA, "float32"), "indices": t([0, 1, 2], "int32"),
         "segment_ids": t([1, 0, 1], "int32")})
    add(f"seg{short}_err_idx_oob", op,
        {"data": t(SEG_DATA, "float32"), "indices": t([0, 5], "int32"),
         "segment_ids": t([0, 1], "int32")})
    add(f"seg{short}_err_idx_neg", op,
        {"data": t(SEG_DATA, "float32"), "indices": t([0, -1], "int32"),
         "segment_ids": t([0, 1], "int32")})
    add(f"seg{short}_err_seg_neg", op,
        {"data": t(SEG_DATA, "float32"), "indices": t([0, 1], "int32"),
         "segment_ids": t([-1, 0], "int32")})
    add(f"seg{short}_err_len", op,
        {"data": t(SEG_DATA, "float32"), "indices": t([0, 1], "int32"),
         "segment_ids": t([0, 1, 1], "int32")})
    add(f"seg{short}_err_idx_rank", op,
        {"data": t(SEG_DATA, "float32"), "indices": t([[0, 1]], "int32"),
         "segment_ids": t([0, 1], "int32")})
    add(f"seg{short}_err_seg_rank", op,
        {"data": t(SEG_DATA, "float32"), "indices": t([0, 1], "int32"),
         "segment_ids": t([[0, 1]], "int32")})
    add(f"seg{short}_err_scalar_data", op,
        {"data": t(1.0, "float32"), "indices": t([0], "int32"),
         "segment_ids": t([0], "int32")})
    add(f"seg{short}_ns_err_too_big", op + "WithNumSegments",
        {"data": t(SEG_DATA, "float32"), "indices": t([0, 1], "int32"),
         "segment_ids": t([0, 3], "int32"), "num_segments": t(3, "int32")})
    add(f"seg{short}_ns_err_nseg_rank", op + "WithNumSegments",
        {"data": t(SEG_DATA, "float32"), "indices": t([0, 1], "int32"),
         "segment_ids": t([0, 1], "int32"), "num_segments": t([3], "int32")})
    add(f"seg{short}_ns_zero", op + "WithNumSegments",
        {"data": t(SEG_DATA, "float32"), "indices": t([], "int32"),
         "segment_ids": t([], "int32"), "num_segments": t(0, "int32")})
    add(f"seg{short}_ns_unsorted_ok", op + "WithNumSegments",
        {"data": t(SEG_DATA, "float32"), "indices": t([0, 1, 2], "int32"),
         "segment_ids": t([1, 0, 1], "int32"), "num_segments": t(3, "int32")})

# ---------------------------------------------------------------- SparseSegment*Grad
GRAD_IN = np.round(R.uniform(-2, 2, (4, 3)), 3)
for op in ("SparseSegmentSumGrad", "SparseSegmentMeanGrad", "SparseSegmentSqrtNGrad"):
    short = op[len("SparseSegment"):-len("Grad")].lower()
    for dt in FLOATS:
        add(f"seggrad{short}_{dt}", op,
            {"grad": t(GRAD_IN, dt), "indices": t([0, 2, 2, 4, 1], "int32"),
             "segment_ids": t([0, 0, 1, 3, 3], "int32"), "output_dim0": t(6, "int32")})
    for ti in ("int32", "int64"):
        for ts in ("int32", "int64"):
            add(f"seggrad{short}_idx_{ti}_{ts}", op,
                {"grad": t(GRAD_IN, "float64"), "indices": t([4, 3, 0, 3], ti),
                 "segment_ids": t([0, 1, 1, 2], ts), "output_dim0": t(5, "int32")})
    add(f"seggrad{short}_unsorted", op,
        {"grad": t(GRAD_IN, "float32"), "indices": t([1, 0, 1], "int32"),
         "segment_ids": t([2, 0, 2], "int32"), "output_dim0": t(3, "int32")})
    add(f"seggrad{short}_err_seg_oob", op,
        {"grad": t(GRAD_IN, "float32"), "indices": t([0, 1], "int32"),
         "segment_ids": t([0, 4], "int32"), "output_dim0": t(3, "int32")})
    add(f"seggrad{short}_err_idx_oob", op,
        {"grad": t(GRAD_IN, "float32"), "indices": t([0, 3], "int32"),
         "segment_ids": t([0, 1], "int32"), "output_dim0": t(3, "int32")})
    add(f"seggrad{short}_err_idx_neg", op,
        {"grad": t(GRAD_IN, "float32"), "indices": t([0, -1], "int32"),
         "segment_ids": t([0, 1], "int32"), "output_dim0": t(3, "int32")})
    add(f"seggrad{short}_err_len", op,
        {"grad": t(GRAD_IN, "float32"), "indices": t([0, 1], "int32"),
         "segment_ids": t([0, 1, 1], "int32"), "output_dim0": t(3, "int32")})
    add(f"seggrad{short}_err_dim0", op,
        {"grad": t(GRAD_IN, "float32"), "indices": t([0, 1], "int32"),
         "segment_ids": t([0, 1], "int32"), "output_dim0": t([3], "int32")})
    add(f"seggrad{short}_err_idx_rank", op,
        {"grad": t(GRAD_IN, "float32"), "indices": t([[0, 1]], "int32"),
         "segment_ids": t([0, 1], "int32"), "output_dim0": t(3, "int32")})

# ---------------------------------------------------------------- SparseReduceSum / Max
RED_IDX = [[0, 0, 1], [0, 2, 0], [1, 1, 1], [1, 2, 0], [1, 2, 1]]
for op, dts in (("SparseReduceSum", STDA), ("SparseReduceMax", CW)):
    short = op[len("SparseReduce"):].lower()
    for dt in dts:
        add(f"red{short}_{dt}", op,
            {"input_indices": t(RED_IDX, "int64"), "input_values": t(vals(5, dt), dt),
             "input_shape": t([2, 3, 2], "int64"), "reduction_axes": t([1], "int32")})
    for axes, keep in (([0], False), ([2], True), ([-1, 0], False), ([0, 1, 2], False),
                       ([], False), ([0, 2], True), ([1, 1], False)):
        add(f"red{short}_axes_{'_'.join(map(str, axes)).replace('-', 'm')}_{keep:d}", op,
            {"input_indices": t(RED_IDX, "int64"),
             "input_values": t([1.0, -2, 3, 4, -5], "float32"),
             "input_shape": t([2, 3, 2], "int64"), "reduction_axes": t(axes, "int32")},
            {"keep_dims": keep})
    add(f"red{short}_scalar_axis", op,
        {"input_indices": t(RED_IDX, "int64"), "input_values": t([1.0, -2, 3, 4, -5], "float64"),
         "input_shape": t([2, 3, 2], "int64"), "reduction_axes": t(1, "int32")})
    add(f"red{short}_err_axis", op,
        {"input_indices": t(RED_IDX, "int64"), "input_values": t([1.0, -2, 3, 4, -5], "float32"),
         "input_shape": t([2, 3, 2], "int64"), "reduction_axes": t([3], "int32")})
    add(f"red{short}_err_axis_neg", op,
        {"input_indices": t(RED_IDX, "int64"), "input_values": t([1.0, -2, 3, 4, -5], "float32"),
         "input_shape": t([2, 3, 2], "int64"), "reduction_axes": t([-4], "int32")})
    add(f"red{short}_err_values", op,
        {"input_indices": t(RED_IDX, "int64"), "input_values": t([1.0, -2, 3], "float32"),
         "input_shape": t([2, 3, 2], "int64"), "reduction_axes": t([0], "int32")})
    # (an index outside input_shape: TF writes wherever its flat offset
    # points; tfe rejects it, so no recorded case)
    add(f"red{short}_unsorted", op,
        {"input_indices": t([[1, 2, 0], [0, 0, 1]], "int64"),
         "input_values": t([1.0, 2], "float32"),
         "input_shape": t([2, 3, 2], "int64"), "reduction_axes": t([0], "int32")})

# ---------------------------------------------------------------- SparseSoftmax
for dt in ("float32", "float64", "float16"):
    add(f"softmax_{dt}", "SparseSoftmax",
        {"sp_indices": t([[0, 0, 1], [0, 0, 3], [0, 2, 0], [1, 1, 1], [1, 1, 2], [1, 1, 3]],
                         "int64"),
         "sp_values": t(vals(6, dt), dt), "sp_shape": t([2, 3, 4], "int64")})
add("softmax_2d", "SparseSoftmax",
    {"sp_indices": t([[0, 0], [0, 2], [2, 1]], "int64"), "sp_values": t([1.0, 3, 5], "float64"),
     "sp_shape": t([3, 3], "int64")})
add("softmax_err_rank1", "SparseSoftmax",
    {"sp_indices": t([[0], [2]], "int64"), "sp_values": t([1.0, 3], "float64"),
     "sp_shape": t([3], "int64")})
add("softmax_err_values", "SparseSoftmax",
    {"sp_indices": t([[0, 0], [0, 2]], "int64"), "sp_values": t([1.0], "float64"),
     "sp_shape": t([3, 3], "int64")})

# ---------------------------------------------------------------- SparseSparseMaximum / Minimum
for op in ("SparseSparseMaximum", "SparseSparseMinimum"):
    short = op[len("SparseSparse"):].lower()
    for dt in CW:
        add(f"ss{short}_{dt}", op,
            {"a_indices": t([[0, 0], [0, 2], [1, 1]], "int64"), "a_values": t(vals(3, dt), dt),
             "a_shape": t([2, 3], "int64"),
             "b_indices": t([[0, 1], [0, 2], [1, 2]], "int64"), "b_values": t(vals(3, dt), dt),
             "b_shape": t([2, 3], "int64")})
    add(f"ss{short}_neg", op,
        {"a_indices": t([[0, 0], [1, 1]], "int64"), "a_values": t([-1.0, 2.0], "float32"),
         "a_shape": t([2, 3], "int64"),
         "b_indices": t([[0, 2]], "int64"), "b_values": t([-3.0], "float32"),
         "b_shape": t([2, 3], "int64")})
    add(f"ss{short}_empty", op,
        {"a_indices": t(np.zeros((0, 2)), "int64"), "a_values": t([], "float64"),
         "a_shape": t([2, 3], "int64"),
         "b_indices": t([[0, 2]], "int64"), "b_values": t([-3.0], "float64"),
         "b_shape": t([2, 3], "int64")})
    add(f"ss{short}_err_shape", op,
        {"a_indices": t([[0, 0]], "int64"), "a_values": t([1.0], "float32"),
         "a_shape": t([2, 3], "int64"),
         "b_indices": t([[0, 1]], "int64"), "b_values": t([1.0], "float32"),
         "b_shape": t([3, 3], "int64")})
    add(f"ss{short}_err_values", op,
        {"a_indices": t([[0, 0]], "int64"), "a_values": t([1.0, 2], "float32"),
         "a_shape": t([2, 3], "int64"),
         "b_indices": t([[0, 1]], "int64"), "b_values": t([1.0], "float32"),
         "b_shape": t([2, 3], "int64")})
    add(f"ss{short}_err_rank", op,
        {"a_indices": t([[0, 0]], "int64"), "a_values": t([1.0], "float32"),
         "a_shape": t([2, 3], "int64"),
         "b_indices": t([[0, 1, 0]], "int64"), "b_values": t([1.0], "float32"),
         "b_shape": t([2, 3, 1], "int64")})
    add(f"ss{short}_err_indices_rank", op,
        {"a_indices": t([0, 0], "int64"), "a_values": t([1.0], "float32"),
         "a_shape": t([2, 3], "int64"),
         "b_indices": t([[0, 1]], "int64"), "b_values": t([1.0], "float32"),
         "b_shape": t([2, 3], "int64")})
    add(f"ss{short}_err_unsorted", op,
        {"a_indices": t([[1, 0], [0, 0]], "int64"), "a_values": t([1.0, 2.0], "float32"),
         "a_shape": t([2, 3], "int64"),
         "b_indices": t([[0, 1]], "int64"), "b_values": t([1.0], "float32"),
         "b_shape": t([2, 3], "int64")})

# ---------------------------------------------------------------- SparseFillEmptyRows
for dt in REORDER_DTYPES:
    add(f"fill_empty_{dt}", "SparseFillEmptyRows",
        {"indices": t([[1, 0], [1, 3], [3, 2]], "int64"), "values": t(vals(3, dt), dt),
         "dense_shape": t([5, 4], "int64"), "default_value": t(vals(1, dt)[0], dt)})
add("fill_empty_unsorted", "SparseFillEmptyRows",
    {"indices": t([[3, 2], [1, 3], [1, 0], [0, 1]], "int64"),
     "values": t([1.0, 2, 3, 4], "float32"),
     "dense_shape": t([5, 4], "int64"), "default_value": t(-1.0, "float32")})
add("fill_empty_none", "SparseFillEmptyRows",
    {"indices": t(np.zeros((0, 3)), "int64"), "values": t([], "float64"),
     "dense_shape": t([2, 3, 4], "int64"), "default_value": t(7.0, "float64")})
add("fill_empty_full", "SparseFillEmptyRows",
    {"indices": t([[0, 0], [1, 1]], "int64"), "values": t([1, 2], "int32"),
     "dense_shape": t([2, 2], "int64"), "default_value": t(0, "int32")})
add("fill_empty_err_row", "SparseFillEmptyRows",
    {"indices": t([[0, 0], [2, 1]], "int64"), "values": t([1.0, 2], "float32"),
     "dense_shape": t([2, 2], "int64"), "default_value": t(0.0, "float32")})
add("fill_empty_err_neg", "SparseFillEmptyRows",
    {"indices": t([[0, 0], [-1, 1]], "int64"), "values": t([1.0, 2], "float32"),
     "dense_shape": t([2, 2], "int64"), "default_value": t(0.0, "float32")})
add("fill_empty_err_default", "SparseFillEmptyRows",
    {"indices": t([[0, 0]], "int64"), "values": t([1.0], "float32"),
     "dense_shape": t([2, 2], "int64"), "default_value": t([0.0], "float32")})
add("fill_empty_err_values", "SparseFillEmptyRows",
    {"indices": t([[0, 0]], "int64"), "values": t([1.0, 2.0], "float32"),
     "dense_shape": t([2, 2], "int64"), "default_value": t(0.0, "float32")})
add("fill_empty_err_indices", "SparseFillEmptyRows",
    {"indices": t([0, 0], "int64"), "values": t([1.0], "float32"),
     "dense_shape": t([2, 2], "int64"), "default_value": t(0.0, "float32")})
add("fill_empty_err_shape", "SparseFillEmptyRows",
    {"indices": t([[0, 0]], "int64"), "values": t([1.0], "float32"),
     "dense_shape": t([[2, 2]], "int64"), "default_value": t(0.0, "float32")})
add("fill_empty_err_empty_shape", "SparseFillEmptyRows",
    {"indices": t(np.zeros((0, 0)), "int64"), "values": t([], "float32"),
     "dense_shape": t([], "int64"), "default_value": t(0.0, "float32")})

# ---------------------------------------------------------------- SparseAdd / SparseAddGrad
ADD = ("float32", "float64", "int8", "int16", "int32", "int64", "complex64", "complex128")
for dt in ADD:
    add(f"add_{dt}", "SparseAdd",
        {"a_indices": t([[0, 0], [0, 2], [1, 1]], "int64"), "a_values": t(vals(3, dt), dt),
         "a_shape": t([2, 3], "int64"),
         "b_indices": t([[0, 1], [0, 2], [1, 2]], "int64"), "b_values": t(vals(3, dt), dt),
         "b_shape": t([2, 3], "int64"), "thresh": t(0, "float64" if dt in COMPLEX else dt)})
add("add_thresh_cancel", "SparseAdd",
    {"a_indices": t([[0, 0], [0, 2], [1, 1]], "int64"), "a_values": t([1.0, 2, 3], "float32"),
     "a_shape": t([2, 3], "int64"),
     "b_indices": t([[0, 2], [1, 1], [1, 2]], "int64"), "b_values": t([-2.0, -2.5, 0.1], "float32"),
     "b_shape": t([2, 3], "int64"), "thresh": t(0.2, "float32")})
add("add_empty_a", "SparseAdd",
    {"a_indices": t(np.zeros((0, 2)), "int64"), "a_values": t([], "float64"),
     "a_shape": t([2, 3], "int64"),
     "b_indices": t([[0, 1], [1, 2]], "int64"), "b_values": t([1.0, 2], "float64"),
     "b_shape": t([2, 3], "int64"), "thresh": t(0, "float64")})
add("add_err_shape", "SparseAdd",
    {"a_indices": t([[0, 0]], "int64"), "a_values": t([1.0], "float32"),
     "a_shape": t([2, 3], "int64"),
     "b_indices": t([[0, 1]], "int64"), "b_values": t([1.0], "float32"),
     "b_shape": t([3, 3], "int64"), "thresh": t(0, "float32")})
add("add_err_values", "SparseAdd",
    {"a_indices": t([[0, 0]], "int64"), "a_values": t([1.0, 2], "float32"),
     "a_shape": t([2, 3], "int64"),
     "b_indices": t([[0, 1]], "int64"), "b_values": t([1.0], "float32"),
     "b_shape": t([2, 3], "int64"), "thresh": t(0, "float32")})
add("add_err_thresh", "SparseAdd",
    {"a_indices": t([[0, 0]], "int64"), "a_values": t([1.0], "float32"),
     "a_shape": t([2, 3], "int64"),
     "b_indices": t([[0, 1]], "int64"), "b_values": t([1.0], "float32"),
     "b_shape": t([2, 3], "int64"), "thresh": t([0], "float32")})
add("add_err_rank", "SparseAdd",
    {"a_indices": t([[0, 0]], "int64"), "a_values": t([1.0], "float32"),
     "a_shape": t([2, 3], "int64"),
     "b_indices": t([[0, 1, 0]], "int64"), "b_values": t([1.0], "float32"),
     "b_shape": t([2, 3, 1], "int64"), "thresh": t(0, "float32")})
add("add_err_oob", "SparseAdd",
    {"a_indices": t([[0, 3]], "int64"), "a_values": t([1.0], "float32"),
     "a_shape": t([2, 3], "int64"),
     "b_indices": t([[0, 1]], "int64"), "b_values": t([1.0], "float32"),
     "b_shape": t([2, 3], "int64"), "thresh": t(0, "float32")})
for dt in ADD:
    add(f"addgrad_{dt}", "SparseAddGrad",
        {"backprop_val_grad": t(vals(5, dt), dt),
         "a_indices": t([[0, 0], [0, 2], [1, 1]], "int64"),
         "b_indices": t([[0, 1], [0, 2], [1, 2]], "int64"),
         "sum_indices": t([[0, 0], [0, 1], [0, 2], [1, 1], [1, 2]], "int64")})
add("addgrad_err_len", "SparseAddGrad",
    {"backprop_val_grad": t([1.0, 2], "float32"),
     "a_indices": t([[0, 0]], "int64"), "b_indices": t([[0, 1]], "int64"),
     "sum_indices": t([[0, 0], [0, 1], [1, 1]], "int64")})
add("addgrad_err_rank", "SparseAddGrad",
    {"backprop_val_grad": t([1.0, 2], "float32"),
     "a_indices": t([[0, 0]], "int64"), "b_indices": t([[0, 1, 0]], "int64"),
     "sum_indices": t([[0, 0], [0, 1]], "int64")})


def _enc_out(v: Any) -> dict[str, Any]:
    dt = v.dtype.name
    a = v.numpy()
    return enc(a, dt)


def run_raw(tf: Any, op: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    """Runs tf.raw_ops.<op>(**kwargs) on the CPU: {"outputs": [...]} (each
    output encoded), or TF's {"error": {type, message}}."""
    with tf.device("/CPU:0"):
        try:
            out = getattr(tf.raw_ops, op)(**kwargs)
        except (tf.errors.OpError, ValueError, TypeError) as e:
            msg = e.message if hasattr(e, "message") else str(e)
            return {"error": {"type": type(e).__name__, "message": msg}}
    if not isinstance(out, (list, tuple)):
        out = [out]
    return {"outputs": [_enc_out(o) for o in out]}


def run_case(tf: Any, cs: dict[str, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = dict(cs["attrs"])
    for name, spec in cs["inputs"].items():
        dt = spec["dtype"]
        v = spec["value"]
        if dt in COMPLEX:
            a = np.asarray(v, np.float64).reshape([*spec["shape"], 2])
            v = a[..., 0] + 1j * a[..., 1]
        kwargs[name] = tf.constant(np.asarray(v, dtype=object if dt == "string" else None)
                                   if dt == "string" else v,
                                   dtype=getattr(tf, dt), shape=spec["shape"])
    return run_raw(tf, cs["op"], kwargs)


def write_cases(tf: Any, cases: list[dict[str, Any]], json_name: str) -> None:
    """The recorders' common tail: checks that case names are unique and
    writes {"tf_version", "cases"} compactly to tests/data/<json_name>."""
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "duplicate case names"
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data", json_name)
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, "cases": cases}, f, separators=(",", ":"))
        f.write("\n")
    nerr = sum("error" in c for c in cases)
    print(f"wrote {len(cases)} cases ({nerr} errors) to {os.path.normpath(path)}", file=sys.stderr)


def record_main(cases: list[dict[str, Any]], json_name: str,
                run: Callable[[Any, dict[str, Any]], dict[str, Any]]) -> None:
    """Runs every case on TF 2.21 with run(tf, case) (which returns the
    case's "outputs" or "error") and writes them (write_cases)."""
    import tensorflow as tf

    assert tf.__version__.startswith("2.21"), tf.__version__
    for cs in cases:
        cs.update(run(tf, cs))
    write_cases(tf, cases, json_name)


def main() -> None:
    record_main(CASES, "sparse_ops_tf221.json", run_case)


if __name__ == "__main__":
    main()
