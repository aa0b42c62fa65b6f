"""Records TF 2.21's results for the sparse2 op group's kernels
(csrc/kernels/cpu/sparse2_*.c) into tests/data/sparse2_ops_tf221.json.
Run with /work/tfvenv/bin/python; tests/python/test_sparse2_ops.py only
reads the JSON. Each case runs one raw op eagerly on CPU and keeps its
outputs (list outputs flattened in order) or its error (TF's exception
class name and message). The tensor encoding is record_sparse_ops.py's.
`--show PREFIX` prints the recorded results of the cases whose name starts
with PREFIX instead of writing the file."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from record_sparse_ops import COMPLEX, enc, t, write_cases

R = np.random.default_rng(2118)
FLOATS = ("float32", "float64", "float16", "bfloat16")
INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
REAL = FLOATS + INTS
CPLX = ("complex64", "complex128")
NUM = REAL + CPLX
ALL = (*NUM, "bool", "string")

CASES: list[dict[str, Any]] = []


def add(name: str, op: str, inputs: dict[str, Any], attrs: dict[str, Any] | None = None) -> None:
    CASES.append({"name": name, "op": op, "inputs": inputs, "attrs": attrs or {}})


def vals(n: int, dtype: str) -> Any:
    if dtype in CPLX:
        return R.integers(-4, 5, n) + 1j * R.integers(-4, 5, n)
    if dtype == "string":
        return np.asarray([f"s{int(i)}" for i in R.integers(0, 20, n)], dtype=object)
    if dtype == "bool":
        return R.integers(0, 2, n).astype(bool)
    if dtype.startswith("u"):
        return R.integers(0, 9, n)
    if dtype.startswith("int"):
        return R.integers(-5, 9, n)
    return np.round(R.uniform(-2, 2, n), 2)


def i64(v: Any) -> dict[str, Any]:
    return t(np.asarray(v, np.int64).reshape(np.shape(v)) if np.size(v) else
             np.zeros(np.shape(v), np.int64), "int64")


def sp(ind: Any, dt: str, shape: Any, v: Any = None) -> tuple[Any, Any, Any]:
    ind = np.asarray(ind, np.int64).reshape(-1, len(shape))
    vv = vals(len(ind), dt) if v is None else v
    return i64(ind), t(vv, dt), i64(shape)


# ---------------------------------------------------------------- SparseConcat
A_IND = [[0, 0], [0, 2], [1, 1], [2, 3]]
B_IND = [[0, 1], [2, 0], [2, 2]]
for dt in ALL:
    a = sp(A_IND, dt, [3, 4])
    b = sp(B_IND, dt, [3, 3])
    add(f"concat_{dt}", "SparseConcat",
        {"indices": [a[0], b[0]], "values": [a[1], b[1]], "shapes": [a[2], b[2]]},
        {"concat_dim": 1})
a = sp(A_IND, "float32", [3, 4])
b = sp([[0, 3], [1, 0]], "float32", [2, 4])
c = sp([], "float32", [1, 4])
add("concat_dim0_three", "SparseConcat",
    {"indices": [a[0], c[0], b[0]], "values": [a[1], c[1], b[1]], "shapes": [a[2], c[2], b[2]]},
    {"concat_dim": 0})
a3 = sp([[0, 1, 0], [1, 0, 1], [1, 1, 1]], "int32", [2, 2, 2])
b3 = sp([[0, 0, 0], [1, 1, 0]], "int32", [2, 2, 1])
add("concat_3d_neg", "SparseConcat",
    {"indices": [a3[0], b3[0]], "values": [a3[1], b3[1]], "shapes": [a3[2], b3[2]]},
    {"concat_dim": -1})
add("concat_one", "SparseConcat", {"indices": [a[0]], "values": [a[1]], "shapes": [a[2]]},
    {"concat_dim": 0})
au = sp([[2, 3], [0, 2], [1, 1]], "float64", [3, 4])
add("concat_unsorted", "SparseConcat",
    {"indices": [au[0], au[0]], "values": [au[1], au[1]], "shapes": [au[2], au[2]]},
    {"concat_dim": 1})
add("concat_err_dim", "SparseConcat",
    {"indices": [a[0], b[0]], "values": [a[1], b[1]], "shapes": [a[2], b[2]]},
    {"concat_dim": 2})
add("concat_err_dim_neg", "SparseConcat",
    {"indices": [a[0], b[0]], "values": [a[1], b[1]], "shapes": [a[2], b[2]]},
    {"concat_dim": -3})
add("concat_err_shape", "SparseConcat",
    {"indices": [a[0], b[0]], "values": [a[1], b[1]], "shapes": [a[2], b[2]]},
    {"concat_dim": 1})
add("concat_err_rank", "SparseConcat",
    {"indices": [a[0], a3[0]], "values": [a[1], t([1.0, 2, 3], "float32")],
     "shapes": [a[2], a3[2]]}, {"concat_dim": 0})
add("concat_err_ind_matrix", "SparseConcat",
    {"indices": [a[0], i64([1, 2])], "values": [a[1], b[1]], "shapes": [a[2], b[2]]},
    {"concat_dim": 0})
add("concat_err_val_vector", "SparseConcat",
    {"indices": [a[0], b[0]], "values": [a[1], t([[1.0]], "float32")], "shapes": [a[2], b[2]]},
    {"concat_dim": 0})
add("concat_err_shape_vector", "SparseConcat",
    {"indices": [a[0], b[0]], "values": [a[1], b[1]], "shapes": [a[2], i64([[2, 4]])]},
    {"concat_dim": 0})
add("concat_err_nnz", "SparseConcat",
    {"indices": [a[0], b[0]], "values": [a[1], t([1.0], "float32")], "shapes": [a[2], b[2]]},
    {"concat_dim": 0})
add("concat_err_ind_cols", "SparseConcat",
    {"indices": [a[0], i64([[0, 1, 2]])], "values": [a[1], t([1.0], "float32")],
     "shapes": [a[2], b[2]]}, {"concat_dim": 0})

# ---------------------------------------------------------------- SparseSlice
S_IND = [[0, 0], [0, 3], [1, 1], [1, 4], [2, 2], [3, 0], [3, 5]]
for dt in ALL:
    s = sp(S_IND, dt, [4, 6])
    add(f"slice_{dt}", "SparseSlice", {"indices": s[0], "values": s[1], "shape": s[2],
                                       "start": i64([1, 1]), "size": i64([2, 4])})
s = sp(S_IND, "float32", [4, 6])
add("slice_clip", "SparseSlice", {"indices": s[0], "values": s[1], "shape": s[2],
                                  "start": i64([2, 3]), "size": i64([5, 10])})
add("slice_past_end", "SparseSlice", {"indices": s[0], "values": s[1], "shape": s[2],
                                      "start": i64([5, 0]), "size": i64([1, 1])})
add("slice_empty_size", "SparseSlice", {"indices": s[0], "values": s[1], "shape": s[2],
                                        "start": i64([0, 0]), "size": i64([0, 3])})
add("slice_err_rank", "SparseSlice", {"indices": s[0], "values": s[1], "shape": s[2],
                                      "start": i64([0]), "size": i64([1, 1])})
add("slice_err_size_rank", "SparseSlice", {"indices": s[0], "values": s[1], "shape": s[2],
                                           "start": i64([0, 0]), "size": i64([1])})
add("slice_err_neg_start", "SparseSlice", {"indices": s[0], "values": s[1], "shape": s[2],
                                           "start": i64([-1, 0]), "size": i64([1, 1])})
add("slice_err_neg_size", "SparseSlice", {"indices": s[0], "values": s[1], "shape": s[2],
                                          "start": i64([0, 0]), "size": i64([-1, 1])})
add("slice_err_ind", "SparseSlice", {"indices": i64([1, 2]), "values": s[1], "shape": s[2],
                                     "start": i64([0, 0]), "size": i64([1, 1])})
add("slice_err_vals", "SparseSlice", {"indices": s[0], "values": t([1.0], "float32"),
                                      "shape": s[2], "start": i64([0, 0]), "size": i64([1, 1])})
add("slice_err_oob", "SparseSlice", {"indices": i64([[0, 0], [4, 1]]),
                                     "values": t([1.0, 2.0], "float32"),
                                     "shape": s[2], "start": i64([0, 0]), "size": i64([1, 1])})
add("slice_err_shape", "SparseSlice", {"indices": s[0], "values": s[1], "shape": i64([[4, 6]]),
                                       "start": i64([0, 0]), "size": i64([1, 1])})

# ---------------------------------------------------------------- SparseSliceGrad
for dt in NUM:
    add(f"slicegrad_{dt}", "SparseSliceGrad",
        {"backprop_val_grad": t(vals(3, dt), dt), "input_indices": i64(S_IND),
         "input_start": i64([1, 1]), "output_indices": i64([[0, 0], [0, 3], [1, 1]])})
add("slicegrad_none", "SparseSliceGrad",
    {"backprop_val_grad": t([], "float32"), "input_indices": i64(S_IND),
     "input_start": i64([1, 1]), "output_indices": i64(np.zeros((0, 2)))})
add("slicegrad_err_count", "SparseSliceGrad",
    {"backprop_val_grad": t([1.0, 2.0], "float32"), "input_indices": i64(S_IND),
     "input_start": i64([1, 1]), "output_indices": i64([[0, 0], [0, 3], [1, 1]])})
add("slicegrad_err_missing", "SparseSliceGrad",
    {"backprop_val_grad": t([1.0, 2.0], "float32"), "input_indices": i64(S_IND),
     "input_start": i64([1, 1]), "output_indices": i64([[0, 0], [0, 1]])})
add("slicegrad_err_start", "SparseSliceGrad",
    {"backprop_val_grad": t([1.0], "float32"), "input_indices": i64(S_IND),
     "input_start": i64([1]), "output_indices": i64([[0, 0]])})
add("slicegrad_err_rank", "SparseSliceGrad",
    {"backprop_val_grad": t([[1.0]], "float32"), "input_indices": i64(S_IND),
     "input_start": i64([1, 1]), "output_indices": i64([[0, 0]])})
add("slicegrad_err_cols", "SparseSliceGrad",
    {"backprop_val_grad": t([1.0], "float32"), "input_indices": i64(S_IND),
     "input_start": i64([1, 1]), "output_indices": i64([[0, 0, 0]])})

# ---------------------------------------------------------------- SparseSplit
for dt in ALL:
    s = sp(S_IND, dt, [4, 6])
    add(f"split_{dt}", "SparseSplit", {"split_dim": i64(1), "indices": s[0], "values": s[1],
                                       "shape": s[2]}, {"num_split": 4})
s = sp(S_IND, "int32", [4, 6])
add("split_dim0", "SparseSplit", {"split_dim": i64(0), "indices": s[0], "values": s[1],
                                  "shape": s[2]}, {"num_split": 3})
add("split_neg", "SparseSplit", {"split_dim": i64(-1), "indices": s[0], "values": s[1],
                                 "shape": s[2]}, {"num_split": 2})
add("split_one", "SparseSplit", {"split_dim": i64(0), "indices": s[0], "values": s[1],
                                 "shape": s[2]}, {"num_split": 1})
add("split_err_many", "SparseSplit", {"split_dim": i64(0), "indices": s[0], "values": s[1],
                                      "shape": s[2]}, {"num_split": 5})
add("split_err_dim", "SparseSplit", {"split_dim": i64(2), "indices": s[0], "values": s[1],
                                     "shape": s[2]}, {"num_split": 2})
add("split_err_dim_neg", "SparseSplit", {"split_dim": i64(-3), "indices": s[0],
                                         "values": s[1], "shape": s[2]}, {"num_split": 2})
add("split_err_dim_vec", "SparseSplit", {"split_dim": i64([0]), "indices": s[0],
                                         "values": s[1], "shape": s[2]}, {"num_split": 2})
add("split_err_ind", "SparseSplit", {"split_dim": i64(0), "indices": i64([1, 2]),
                                     "values": s[1], "shape": s[2]}, {"num_split": 2})
add("split_err_vals", "SparseSplit", {"split_dim": i64(0), "indices": s[0],
                                      "values": t([1], "int32"), "shape": s[2]},
    {"num_split": 2})
add("split_err_oob", "SparseSplit", {"split_dim": i64(0), "indices": i64([[0, 0], [0, 7]]),
                                     "values": t([1, 2], "int32"), "shape": s[2]},
    {"num_split": 2})

add("split_unsorted", "SparseSplit", {"split_dim": i64(1), "indices": i64([[1, 0], [0, 2]]),
                                      "values": t([1, 2], "int32"), "shape": s[2]},
    {"num_split": 2})
add("split_repeated", "SparseSplit", {"split_dim": i64(1), "indices": i64([[1, 0], [1, 0]]),
                                      "values": t([1, 2], "int32"), "shape": s[2]},
    {"num_split": 2})
add("split_err_neg_index", "SparseSplit", {"split_dim": i64(1), "indices": i64([[1, -1]]),
                                           "values": t([1], "int32"), "shape": s[2]},
    {"num_split": 2})
add("split_err_shape", "SparseSplit", {"split_dim": i64(0), "indices": s[0], "values": s[1],
                                       "shape": i64([4])}, {"num_split": 2})
add("split_err_shape_mat", "SparseSplit", {"split_dim": i64(0), "indices": s[0],
                                           "values": s[1], "shape": i64([[4, 6]])},
    {"num_split": 2})
add("slice_unsorted", "SparseSlice", {"indices": i64([[3, 0], [1, 1], [2, 2]]),
                                      "values": t([1.0, 2, 3], "float32"), "shape": i64([4, 6]),
                                      "start": i64([1, 0]), "size": i64([3, 3])})
add("slice_err_start_mat", "SparseSlice", {"indices": i64([[3, 0]]),
                                           "values": t([1.0], "float32"), "shape": i64([4, 6]),
                                           "start": i64([[1, 0]]), "size": i64([3, 3])})
add("slicegrad_err_ind", "SparseSliceGrad",
    {"backprop_val_grad": t([1.0], "float32"), "input_indices": i64([1, 2]),
     "input_start": i64([1, 1]), "output_indices": i64([[0, 0]])})
add("slicegrad_err_more", "SparseSliceGrad",
    {"backprop_val_grad": t([1.0, 2.0], "float32"), "input_indices": i64([[1, 1]]),
     "input_start": i64([1, 1]), "output_indices": i64([[0, 0], [0, 1]])})
add("slicegrad_err_start_mat", "SparseSliceGrad",
    {"backprop_val_grad": t([1.0], "float32"), "input_indices": i64([[1, 1]]),
     "input_start": i64([[1, 1]]), "output_indices": i64([[0, 0]])})
add("concat_err_oob_ok", "SparseConcat",
    {"indices": [i64([[5, 9]]), b[0]], "values": [t([1.0], "float32"), b[1]],
     "shapes": [i64([3, 4]), b[2]]}, {"concat_dim": 0})

# ---------------------------------------------------------------- SparseReduce*Sparse
R_IND = [[0, 0, 1], [0, 1, 0], [0, 1, 2], [1, 0, 0], [1, 1, 1], [1, 1, 2]]
for op, dts in (("SparseReduceSumSparse", NUM), ("SparseReduceMaxSparse", REAL)):
    key = "rsum" if "Sum" in op else "rmax"
    for dt in dts:
        s = sp(R_IND, dt, [2, 2, 3])
        add(f"{key}_{dt}", op, {"input_indices": s[0], "input_values": s[1], "input_shape": s[2],
                                "reduction_axes": t([1], "int32")})
    s = sp(R_IND, "float32", [2, 2, 3])
    add(f"{key}_keep", op, {"input_indices": s[0], "input_values": s[1], "input_shape": s[2],
                            "reduction_axes": t([0, -1], "int32")}, {"keep_dims": True})
    add(f"{key}_all", op, {"input_indices": s[0], "input_values": s[1], "input_shape": s[2],
                           "reduction_axes": t([0, 1, 2], "int32")})
    add(f"{key}_none", op, {"input_indices": s[0], "input_values": s[1], "input_shape": s[2],
                            "reduction_axes": t([], "int32")})
    su = sp([[1, 1, 2], [0, 0, 1], [1, 0, 0], [0, 1, 0]], "float64", [2, 2, 3])
    add(f"{key}_unsorted", op, {"input_indices": su[0], "input_values": su[1],
                                "input_shape": su[2], "reduction_axes": t([2], "int32")})
    add(f"{key}_err_axis", op, {"input_indices": s[0], "input_values": s[1],
                                "input_shape": s[2], "reduction_axes": t([3], "int32")})
    add(f"{key}_err_ind", op, {"input_indices": i64([0, 1]), "input_values": s[1],
                               "input_shape": s[2], "reduction_axes": t([0], "int32")})
    add(f"{key}_err_vals", op, {"input_indices": s[0], "input_values": t([1.0], "float32"),
                                "input_shape": s[2], "reduction_axes": t([0], "int32")})
    add(f"{key}_err_shape_mat", op, {"input_indices": s[0], "input_values": s[1],
                                     "input_shape": i64([[2, 2, 3]]),
                                     "reduction_axes": t([0], "int32")})
    add(f"{key}_dups", op, {"input_indices": i64([[0, 1], [0, 1], [1, 0]]),
                            "input_values": t([1.0, 2.0, 3.0], "float32"),
                            "input_shape": i64([2, 2]), "reduction_axes": t([], "int32")})
    add(f"{key}_empty", op, {"input_indices": i64(np.zeros((0, 2))),
                             "input_values": t([], "float32"),
                             "input_shape": i64([2, 2]), "reduction_axes": t([0, 1], "int32")})
    add(f"{key}_err_rank", op, {"input_indices": s[0], "input_values": s[1],
                                "input_shape": i64([2, 2]), "reduction_axes": t([0], "int32")})
add("rmax_nan", "SparseReduceMaxSparse",
    {"input_indices": i64([[0, 0], [0, 1], [1, 0], [1, 1]]),
     "input_values": t([1.0, float("nan"), -2.0, -1.0], "float32"),
     "input_shape": i64([2, 2]), "reduction_axes": t([1], "int32")})


# ---------------------------------------------------------------- sets
SET_T = ("int8", "int16", "int32", "int64", "uint8", "uint16", "string")


def setvals(shape: tuple[int, ...], dt: str) -> Any:
    n = int(np.prod(shape))
    v = R.integers(0, 6, n)
    if dt == "string":
        words = ["", "a", "b", "ab", "ba", "c"]
        return np.asarray([words[i] for i in v], dtype=object).reshape(shape)
    return v.reshape(shape)


SP_IND = [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [3, 0]]
for dt in SET_T:
    for op in ("a-b", "b-a", "intersection", "union"):
        add(f"d2d_{dt}_{op}", "DenseToDenseSetOperation",
            {"set1": t(setvals((3, 5), dt), dt), "set2": t(setvals((3, 4), dt), dt)},
            {"set_operation": op})
    add(f"d2s_{dt}", "DenseToSparseSetOperation",
        {"set1": t(setvals((4, 3), dt), dt), "set2_indices": i64(SP_IND),
         "set2_values": t(setvals((6,), dt), dt), "set2_shape": i64([4, 3])},
        {"set_operation": "union" if dt != "int8" else "a-b"})
    add(f"s2s_{dt}", "SparseToSparseSetOperation",
        {"set1_indices": i64([[0, 0], [1, 0], [1, 1], [3, 2]]),
         "set1_values": t(setvals((4,), dt), dt), "set1_shape": i64([4, 3]),
         "set2_indices": i64(SP_IND), "set2_values": t(setvals((6,), dt), dt),
         "set2_shape": i64([4, 3])}, {"set_operation": "intersection" if dt != "int16" else "b-a"})
    add(f"setsize_{dt}", "SetSize", {"set_indices": i64(SP_IND),
                                     "set_values": t(setvals((6,), dt), dt),
                                     "set_shape": i64([4, 3])})
for op in ("a-b", "b-a", "intersection", "union"):
    add(f"d2s_int32_{op}", "DenseToSparseSetOperation",
        {"set1": t(setvals((4, 3), "int32"), "int32"), "set2_indices": i64(SP_IND),
         "set2_values": t(setvals((6,), "int32"), "int32"), "set2_shape": i64([4, 3])},
        {"set_operation": op})
    add(f"s2s_int64_{op}", "SparseToSparseSetOperation",
        {"set1_indices": i64([[0, 0], [1, 0], [1, 1], [3, 2]]),
         "set1_values": t(setvals((4,), "int64"), "int64"), "set1_shape": i64([4, 3]),
         "set2_indices": i64(SP_IND), "set2_values": t(setvals((6,), "int64"), "int64"),
         "set2_shape": i64([4, 3])}, {"set_operation": op})
add("d2d_3d", "DenseToDenseSetOperation",
    {"set1": t(setvals((2, 2, 3), "int32"), "int32"),
     "set2": t(setvals((2, 2, 2), "int32"), "int32")},
    {"set_operation": "union"})
add("d2d_upper", "DenseToDenseSetOperation",
    {"set1": t(setvals((2, 3), "int32"), "int32"), "set2": t(setvals((2, 3), "int32"), "int32")},
    {"set_operation": "A-B"})
add("d2d_empty_result", "DenseToDenseSetOperation",
    {"set1": t([[1, 2]], "int32"), "set2": t([[2, 1]], "int32")}, {"set_operation": "a-b"})
add("d2d_err_op", "DenseToDenseSetOperation",
    {"set1": t([[1, 2]], "int32"), "set2": t([[2, 1]], "int32")}, {"set_operation": "xor"})
add("d2d_err_rank", "DenseToDenseSetOperation",
    {"set1": t([1, 2], "int32"), "set2": t([2, 1], "int32")}, {"set_operation": "union"})
add("d2d_err_group", "DenseToDenseSetOperation",
    {"set1": t(setvals((2, 3), "int32"), "int32"), "set2": t(setvals((3, 3), "int32"), "int32")},
    {"set_operation": "union"})
add("d2s_err_unsorted", "DenseToSparseSetOperation",
    {"set1": t(setvals((4, 3), "int32"), "int32"), "set2_indices": i64([[1, 0], [0, 0]]),
     "set2_values": t([1, 2], "int32"), "set2_shape": i64([4, 3])}, {"set_operation": "union"})
add("d2s_err_oob", "DenseToSparseSetOperation",
    {"set1": t(setvals((4, 3), "int32"), "int32"), "set2_indices": i64([[0, 0], [5, 0]]),
     "set2_values": t([1, 2], "int32"), "set2_shape": i64([4, 3])}, {"set_operation": "union"})
add("d2s_err_repeat", "DenseToSparseSetOperation",
    {"set1": t(setvals((4, 3), "int32"), "int32"), "set2_indices": i64([[0, 0], [0, 0]]),
     "set2_values": t([1, 2], "int32"), "set2_shape": i64([4, 3])}, {"set_operation": "union"})
add("d2s_err_group", "DenseToSparseSetOperation",
    {"set1": t(setvals((3, 3), "int32"), "int32"), "set2_indices": i64(SP_IND),
     "set2_values": t(setvals((6,), "int32"), "int32"), "set2_shape": i64([4, 3])},
    {"set_operation": "union"})
add("d2s_err_shape_rank", "DenseToSparseSetOperation",
    {"set1": t(setvals((4, 3), "int32"), "int32"), "set2_indices": i64([[0], [1]]),
     "set2_values": t([1, 2], "int32"), "set2_shape": i64([4])}, {"set_operation": "union"})
add("d2s_err_shape_mat", "DenseToSparseSetOperation",
    {"set1": t(setvals((4, 3), "int32"), "int32"), "set2_indices": i64([[0, 0]]),
     "set2_values": t([1], "int32"), "set2_shape": i64([[4, 3]])}, {"set_operation": "union"})
add("d2s_err_nnz", "DenseToSparseSetOperation",
    {"set1": t(setvals((4, 3), "int32"), "int32"), "set2_indices": i64([[0, 0]]),
     "set2_values": t([1, 2], "int32"), "set2_shape": i64([4, 3])}, {"set_operation": "union"})
add("s2s_err_group", "SparseToSparseSetOperation",
    {"set1_indices": i64([[0, 0, 0]]), "set1_values": t([1], "int32"), "set1_shape": i64([2, 2, 2]),
     "set2_indices": i64([[0, 0]]), "set2_values": t([1], "int32"), "set2_shape": i64([2, 2])},
    {"set_operation": "union"})
add("s2s_nonvalidated", "SparseToSparseSetOperation",
    {"set1_indices": i64([[1, 0], [0, 0]]), "set1_values": t([3, 4], "int32"),
     "set1_shape": i64([2, 2]), "set2_indices": i64([[0, 1]]), "set2_values": t([4], "int32"),
     "set2_shape": i64([2, 2])}, {"set_operation": "union", "validate_indices": False})
add("setsize_3d", "SetSize", {"set_indices": i64([[0, 0, 0], [0, 0, 1], [1, 1, 0]]),
                              "set_values": t([5, 5, 1], "int32"), "set_shape": i64([2, 2, 2])})
add("setsize_err_unsorted", "SetSize", {"set_indices": i64([[1, 0], [0, 0]]),
                                        "set_values": t([5, 5], "int32"),
                                        "set_shape": i64([2, 2])})
add("setsize_nonvalidated", "SetSize", {"set_indices": i64([[1, 0], [0, 0], [1, 1]]),
                                        "set_values": t([5, 5, 6], "int32"),
                                        "set_shape": i64([2, 2])}, {"validate_indices": False})
add("setsize_err_rank", "SetSize", {"set_indices": i64([[1], [0]]),
                                    "set_values": t([5, 5], "int32"), "set_shape": i64([2])})
add("setsize_err_oob_nv", "SetSize", {"set_indices": i64([[0, 0], [3, 0]]),
                                      "set_values": t([5, 5], "int32"), "set_shape": i64([2, 2])},
    {"validate_indices": False})
add("setsize_err_oob", "SetSize", {"set_indices": i64([[0, 0], [3, 0]]),
                                   "set_values": t([5, 5], "int32"), "set_shape": i64([2, 2])})
add("setsize_err_neg_shape", "SetSize", {"set_indices": i64([[0, 0]]),
                                         "set_values": t([5], "int32"), "set_shape": i64([2, -2])})


# ---------------------------------------------------------------- SparseCross*
def sv(v: list[Any], dt: str) -> Any:
    return t(np.asarray(v, dtype=object) if dt == "string" else np.asarray(v), dt)


X_S = (i64([[0, 0], [1, 0], [1, 1]]), sv(["a", "b", "c"], "string"), i64([3, 2]))
X_I = (i64([[0, 0], [0, 1], [1, 0], [2, 0]]), sv([11, -7, 3, 1 << 40], "int64"), i64([3, 5]))
X_S2 = (i64([[0, 0], [0, 3], [2, 1]]), sv(["p", "q", "r"], "string"), i64([3, 4]))
X_D = sv([["x", "y"], ["z", ""], ["w", "v"]], "string")
X_DI = sv([[5], [-6], [0]], "int64")


def xin(sparse: list[Any], dense: list[Any]) -> dict[str, Any]:
    return {"indices": [x[0] for x in sparse], "values": [x[1] for x in sparse],
            "shapes": [x[2] for x in sparse], "dense_inputs": dense}


for hashed, nb in ((True, 0), (True, 100), (False, 0)):
    for out_t, int_t in (("int64", "string"), ("string", "string"), ("int64", "int64"),
                         ("string", "int64")):
        if hashed != (out_t == "int64"):
            continue
        ins = xin([X_S, X_S2], [X_D]) if int_t == "string" else xin([X_I], [X_DI])
        add(f"cross_{out_t}_{int_t}_{nb}", "SparseCross", ins,
            {"hashed_output": hashed, "num_buckets": nb, "hash_key": 956888297470,
             "out_type": out_t, "internal_type": int_t})
add("cross_mixed_int_internal", "SparseCross", xin([X_S, X_I], [X_DI]),
    {"hashed_output": True, "num_buckets": 1000, "hash_key": 7, "out_type": "int64",
     "internal_type": "int64"})
add("cross_str_of_ints", "SparseCross", xin([X_I, X_S], [X_DI, X_D]),
    {"hashed_output": False, "num_buckets": 0, "hash_key": 0, "out_type": "string",
     "internal_type": "int64"})
add("cross_dense_only", "SparseCross", xin([], [X_D, X_DI]),
    {"hashed_output": True, "num_buckets": 0, "hash_key": -3, "out_type": "int64",
     "internal_type": "int64"})
add("cross_err_internal", "SparseCross", xin([X_I], [X_D]),
    {"hashed_output": False, "num_buckets": 0, "hash_key": 0, "out_type": "string",
     "internal_type": "string"})
add("cross_err_dense_internal", "SparseCross", xin([X_S], [X_DI]),
    {"hashed_output": False, "num_buckets": 0, "hash_key": 0, "out_type": "string",
     "internal_type": "string"})
add("cross_err_ind", "SparseCross",
    xin([(i64([0, 1]), sv(["a", "b"], "string"), i64([3, 2]))], [X_D]),
    {"hashed_output": False, "num_buckets": 0, "hash_key": 0, "out_type": "string",
     "internal_type": "string"})
add("cross_err_d2", "SparseCross",
    xin([(i64([[0, 1, 0]]), sv(["a"], "string"), i64([3, 2]))], [X_D]),
    {"hashed_output": False, "num_buckets": 0, "hash_key": 0, "out_type": "string",
     "internal_type": "string"})
add("cross_err_nval", "SparseCross",
    xin([(i64([[0, 1]]), sv(["a", "b"], "string"), i64([3, 2]))], [X_D]),
    {"hashed_output": False, "num_buckets": 0, "hash_key": 0, "out_type": "string",
     "internal_type": "string"})
add("cross_err_shape3", "SparseCross",
    xin([(i64([[0, 1]]), sv(["a"], "string"), i64([3, 2, 1]))], [X_D]),
    {"hashed_output": False, "num_buckets": 0, "hash_key": 0, "out_type": "string",
     "internal_type": "string"})
add("cross_err_dense_mat", "SparseCross", xin([X_S], [sv(["a", "b", "c"], "string")]),
    {"hashed_output": False, "num_buckets": 0, "hash_key": 0, "out_type": "string",
     "internal_type": "string"})
add("cross_err_batch", "SparseCross",
    xin([(i64([[0, 1]]), sv(["a"], "string"), i64([4, 2]))], [X_D]),
    {"hashed_output": False, "num_buckets": 0, "hash_key": 0, "out_type": "string",
     "internal_type": "string"})
add("cross_err_batch_dense", "SparseCross", xin([X_S], [sv([["a"]], "string")]),
    {"hashed_output": False, "num_buckets": 0, "hash_key": 0, "out_type": "string",
     "internal_type": "string"})
add("crossv2_basic", "SparseCrossV2", {**xin([X_S, X_I], [X_D, X_DI]), "sep": sv("--", "string")})
add("crossv2_empty_sep", "SparseCrossV2", {**xin([X_I], [X_D]), "sep": sv("", "string")})
add("crossv2_err_sep", "SparseCrossV2", {**xin([X_I], [X_D]), "sep": sv(["a"], "string")})
for strong in (False, True):
    for nb in (0, 17):
        # TF 2.21 crashes (SIGSEGV) on a strong hash of a dense int64 column
        dense = [X_D] if strong else [X_D, X_DI]
        add(f"crosshashed_{int(strong)}_{nb}", "SparseCrossHashed",
            {**xin([X_S, X_I], dense), "num_buckets": i64(nb),
             "strong_hash": t(strong, "bool"), "salt": i64([137, 173])})
add("crosshashed_err_salt", "SparseCrossHashed",
    {**xin([X_I], [X_D]), "num_buckets": i64(0), "strong_hash": t(True, "bool"),
     "salt": i64([1, 2, 3])})


# ---------------------------------------------------------------- *CountSparseOutput
CNT_W = ("int32", "int64", "float32", "float64")
for ti in ("int32", "int64"):
    for w in CNT_W:
        wv = t(np.arange(1, 13).reshape(3, 4) % 5, w)
        add(f"dcount_{ti}_{w}", "DenseCountSparseOutput",
            {"values": t([[1, 3, 1, 7], [0, 9, 2, 2], [5, 5, 5, 5]], ti), "weights": wv},
            {"binary_output": False})
        add(f"scount_{ti}_{w}", "SparseCountSparseOutput",
            {"indices": i64([[0, 0], [0, 2], [1, 1], [2, 0], [2, 3]]),
             "values": t([4, 1, 4, 0, 0], ti), "dense_shape": i64([3, 4]),
             "weights": t([1, 2, 3, 4, 5], w)}, {"binary_output": False})
        add(f"rcount_{ti}_{w}", "RaggedCountSparseOutput",
            {"splits": i64([0, 2, 2, 5]), "values": t([3, 1, 3, 3, 0], ti),
             "weights": t([1, 2, 3, 4, 5], w)}, {"binary_output": False})
add("dcount_1d", "DenseCountSparseOutput",
    {"values": t([1, 3, 1, 7, 9], "int32"), "weights": t([], "float32")},
    {"binary_output": False, "minlength": 12})
add("dcount_binary_max", "DenseCountSparseOutput",
    {"values": t([[1, 3, 1, 7], [0, 1, 2, 2]], "int64"), "weights": t([], "int64")},
    {"binary_output": True, "maxlength": 3})
add("dcount_err_neg", "DenseCountSparseOutput",
    {"values": t([[1, -3]], "int64"), "weights": t([], "int64")}, {"binary_output": False})
add("scount_neg", "SparseCountSparseOutput",
    {"indices": i64([[0, 0], [1, 2]]), "values": t([-4, 4], "int32"),
     "dense_shape": i64([2, 4]), "weights": t([], "int32")}, {"binary_output": False})
add("rcount_neg", "RaggedCountSparseOutput",
    {"splits": i64([0, 1, 2]), "values": t([-3, 3], "int64"), "weights": t([], "float32")},
    {"binary_output": False})
add("scount_err_batch", "SparseCountSparseOutput",
    {"indices": i64([[0, 0], [1, 2]]), "values": t([4, 4], "int32"),
     "dense_shape": i64([0, 4]), "weights": t([], "int32")}, {"binary_output": False})
add("dcount_err_rank", "DenseCountSparseOutput",
    {"values": t([[[1]]], "int32"), "weights": t([], "int32")},
    {"binary_output": False})
add("dcount_err_w", "DenseCountSparseOutput",
    {"values": t([[1, 2]], "int32"), "weights": t([1, 2], "int32")},
    {"binary_output": False})
add("dcount_err_zero", "DenseCountSparseOutput",
    {"values": t(np.zeros((0, 3)), "int32"), "weights": t([], "int32")},
    {"binary_output": False})
add("scount_1d", "SparseCountSparseOutput",
    {"indices": i64([[0], [3], [5]]), "values": t([2, 2, 9], "int64"), "dense_shape": i64([6]),
     "weights": t([], "float64")}, {"binary_output": False})
add("scount_binary", "SparseCountSparseOutput",
    {"indices": i64([[0, 0], [0, 2], [1, 1]]), "values": t([4, 4, 1], "int32"),
     "dense_shape": i64([2, 4]), "weights": t([], "int32")},
    {"binary_output": True, "minlength": 2})
add("scount_err_oob", "SparseCountSparseOutput",
    {"indices": i64([[0, 0], [2, 2]]), "values": t([4, 4], "int32"),
     "dense_shape": i64([2, 4]), "weights": t([], "int32")},
    {"binary_output": False})
add("scount_err_w", "SparseCountSparseOutput",
    {"indices": i64([[0, 0], [1, 2]]), "values": t([4, 4], "int32"),
     "dense_shape": i64([2, 4]), "weights": t([1], "int32")},
    {"binary_output": False})
add("scount_err_nval", "SparseCountSparseOutput",
    {"indices": i64([[0, 0], [1, 2]]), "values": t([4], "int32"),
     "dense_shape": i64([2, 4]), "weights": t([], "int32")},
    {"binary_output": False})
add("scount_err_ndim", "SparseCountSparseOutput",
    {"indices": i64([[0, 0], [1, 2]]), "values": t([4, 1], "int32"),
     "dense_shape": i64([2, 4, 1]), "weights": t([], "int32")},
    {"binary_output": False})
add("scount_err_ind", "SparseCountSparseOutput",
    {"indices": i64([0, 1]), "values": t([4, 1], "int32"),
     "dense_shape": i64([2, 4]), "weights": t([], "int32")},
    {"binary_output": False})
add("rcount_binary", "RaggedCountSparseOutput",
    {"splits": i64([0, 3, 4]), "values": t([3, 3, 8, 1], "int64"), "weights": t([], "float32")},
    {"binary_output": True, "maxlength": 5})
add("rcount_err_start", "RaggedCountSparseOutput",
    {"splits": i64([1, 3, 4]), "values": t([3, 3, 8, 1], "int64"), "weights": t([], "float32")},
    {"binary_output": False})
add("rcount_err_end", "RaggedCountSparseOutput",
    {"splits": i64([0, 3, 5]), "values": t([3, 3, 8, 1], "int64"), "weights": t([], "float32")},
    {"binary_output": False})
add("rcount_err_short", "RaggedCountSparseOutput",
    {"splits": i64([0]), "values": t([], "int64"), "weights": t([], "float32")},
    {"binary_output": False})
add("rcount_err_order", "RaggedCountSparseOutput",
    {"splits": i64([0, 3, 1, 4]), "values": t([3, 3, 8, 1], "int64"), "weights": t([], "float32")},
    {"binary_output": False})
add("rcount_err_w", "RaggedCountSparseOutput",
    {"splits": i64([0, 3, 4]), "values": t([3, 3, 8, 1], "int64"), "weights": t([1.0], "float32")},
    {"binary_output": False})


# ---------------------------------------------------------------- EditDistance
ED_H = [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 0, 2]]
ED_T = [[0, 0, 0], [0, 0, 1], [0, 0, 2], [1, 0, 0], [1, 1, 0], [1, 1, 1]]


def edvals(n: int, dt: str) -> Any:
    v = R.integers(0, 3, n)
    if dt == "string":
        return np.asarray([["a", "b", "c"][i] for i in v], dtype=object)
    if dt == "bool":
        return v.astype(bool)
    if dt in CPLX:
        return v + 1j * (v % 2)
    return v


for dt in ALL:
    for norm in (True, False) if dt in ("float32", "string") else (True,):
        add(f"edit_{dt}_{int(norm)}", "EditDistance",
            {"hypothesis_indices": i64(ED_H), "hypothesis_values": t(edvals(6, dt), dt),
             "hypothesis_shape": i64([2, 1, 3]), "truth_indices": i64(ED_T),
             "truth_values": t(edvals(6, dt), dt), "truth_shape": i64([2, 2, 3])},
            {"normalize": norm})
add("edit_nan", "EditDistance",
    {"hypothesis_indices": i64([[0, 0], [0, 1]]), "hypothesis_values": t([np.nan, 1.0], "float32"),
     "hypothesis_shape": i64([1, 2]), "truth_indices": i64([[0, 0], [0, 1]]),
     "truth_values": t([np.nan, 1.0], "float32"), "truth_shape": i64([1, 2])},
    {"normalize": False})
add("edit_empty", "EditDistance",
    {"hypothesis_indices": i64(np.zeros((0, 2))), "hypothesis_values": t([], "int32"),
     "hypothesis_shape": i64([2, 2]), "truth_indices": i64([[1, 0]]),
     "truth_values": t([3], "int32"), "truth_shape": i64([3, 1])}, {"normalize": True})
add("edit_err_rank", "EditDistance",
    {"hypothesis_indices": i64([[0]]), "hypothesis_values": t([1], "int32"),
     "hypothesis_shape": i64([2]), "truth_indices": i64([[0]]),
     "truth_values": t([3], "int32"), "truth_shape": i64([3])}, {"normalize": True})
add("edit_err_cols", "EditDistance",
    {"hypothesis_indices": i64([[0, 0]]), "hypothesis_values": t([1], "int32"),
     "hypothesis_shape": i64([2, 2, 2]), "truth_indices": i64([[0, 0]]),
     "truth_values": t([3], "int32"), "truth_shape": i64([3, 1])}, {"normalize": True})
add("edit_err_match", "EditDistance",
    {"hypothesis_indices": i64([[0, 0, 0]]), "hypothesis_values": t([1], "int32"),
     "hypothesis_shape": i64([2, 2, 2]), "truth_indices": i64([[0, 0]]),
     "truth_values": t([3], "int32"), "truth_shape": i64([3, 1])}, {"normalize": True})
add("edit_err_ind", "EditDistance",
    {"hypothesis_indices": i64([0, 0]), "hypothesis_values": t([1], "int32"),
     "hypothesis_shape": i64([2, 2]), "truth_indices": i64([[0, 0]]),
     "truth_values": t([3], "int32"), "truth_shape": i64([3, 1])}, {"normalize": True})
add("edit_err_vals", "EditDistance",
    {"hypothesis_indices": i64([[0, 0]]), "hypothesis_values": t([1, 2], "int32"),
     "hypothesis_shape": i64([2, 2]), "truth_indices": i64([[0, 0]]),
     "truth_values": t([3], "int32"), "truth_shape": i64([3, 1])}, {"normalize": True})
add("edit_err_oob", "EditDistance",
    {"hypothesis_indices": i64([[5, 0]]), "hypothesis_values": t([1], "int32"),
     "hypothesis_shape": i64([2, 2]), "truth_indices": i64([[0, 0]]),
     "truth_values": t([3], "int32"), "truth_shape": i64([3, 1])}, {"normalize": True})

# ---------------------------------------------------------------- NonMaxSuppression v1, V2
NMS_B = [[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
         [0, 100, 1, 101]]
NMS_S = [0.9, 0.75, 0.6, 0.95, 0.5, 0.3]
add("nms1_basic", "NonMaxSuppression", {"boxes": t(NMS_B, "float32"), "scores": t(NMS_S, "float32"),
                                        "max_output_size": t(3, "int32")}, {"iou_threshold": 0.5})
add("nms1_default", "NonMaxSuppression", {"boxes": t(NMS_B, "float32"),
                                          "scores": t(NMS_S, "float32"),
                                          "max_output_size": t(10, "int32")})
add("nms1_err_iou", "NonMaxSuppression", {"boxes": t(NMS_B, "float32"),
                                          "scores": t(NMS_S, "float32"),
                                          "max_output_size": t(3, "int32")}, {"iou_threshold": 1.5})
add("nms1_err_max", "NonMaxSuppression", {"boxes": t(NMS_B, "float32"),
                                          "scores": t(NMS_S, "float32"),
                                          "max_output_size": t([3], "int32")})
for dt in ("float32", "float16"):
    for tt in ("float32", "float16"):
        add(f"nms2_{dt}_{tt}", "NonMaxSuppressionV2",
            {"boxes": t(NMS_B, dt), "scores": t(NMS_S, dt), "max_output_size": t(4, "int32"),
             "iou_threshold": t(0.5, tt)})
add("nms2_nan", "NonMaxSuppressionV2",
    {"boxes": t(NMS_B, "float32"), "scores": t([0.9, np.nan, -np.inf, 0.2, 0.1, 0.0], "float32"),
     "max_output_size": t(6, "int32"), "iou_threshold": t(0.5, "float32")})
add("nms2_err_iou", "NonMaxSuppressionV2",
    {"boxes": t(NMS_B, "float32"), "scores": t(NMS_S, "float32"),
     "max_output_size": t(4, "int32"), "iou_threshold": t(-0.5, "float32")})
add("nms2_err_iou_shape", "NonMaxSuppressionV2",
    {"boxes": t(NMS_B, "float32"), "scores": t(NMS_S, "float32"),
     "max_output_size": t(4, "int32"), "iou_threshold": t([0.5], "float32")})
add("nms2_err_boxes", "NonMaxSuppressionV2",
    {"boxes": t([0.0, 0, 1, 1], "float32"), "scores": t([1.0], "float32"),
     "max_output_size": t(4, "int32"), "iou_threshold": t(0.5, "float32")})
add("nms2_err_scores", "NonMaxSuppressionV2",
    {"boxes": t(NMS_B, "float32"), "scores": t([1.0], "float32"),
     "max_output_size": t(4, "int32"), "iou_threshold": t(0.5, "float32")})
add("nms2_err_neg", "NonMaxSuppressionV2",
    {"boxes": t(NMS_B, "float32"), "scores": t(NMS_S, "float32"),
     "max_output_size": t(-1, "int32"), "iou_threshold": t(0.5, "float32")})


# ---------------------------------------------------------------- debug / copy ops
for dt in ALL:
    x = t(vals(6, dt).reshape(2, 3), dt)
    add(f"copy_{dt}", "Copy", {"input": x})
    add(f"copyhost_{dt}", "CopyHost", {"input": x})
    add(f"debugidentity_{dt}", "DebugIdentity", {"input": x}, {"tensor_name": "x:0"})
for dt in REAL:
    v = np.asarray([1.0, np.nan, 2.0, np.nan, np.inf, -1.0]) if dt in FLOATS else vals(6, dt)
    add(f"nancount_{dt}", "DebugNanCount", {"input": t(v, dt)}, {"tensor_name": "x:0"})
add("nancount_empty", "DebugNanCount", {"input": t(np.zeros((0, 3)), "float32")},
    {"tensor_name": "x"})
add("nancount_err_name", "DebugNanCount", {"input": t([1.0], "float32")})
add("debugidentity_err_name", "DebugIdentity", {"input": t([1.0], "float32")})


def _tensor(tf: Any, spec: dict[str, Any]) -> Any:
    dt = spec["dtype"]
    v = spec["value"]
    if dt in COMPLEX:
        a = np.asarray(v, np.float64).reshape([*spec["shape"], 2])
        v = a[..., 0] + 1j * a[..., 1]
    elif dt == "string":
        v = np.asarray(v, dtype=object)
    return tf.constant(v, dtype=getattr(tf, dt), shape=spec["shape"])


def _flat(out: Any) -> list[Any]:
    if isinstance(out, (list, tuple)):
        res: list[Any] = []
        for o in out:
            res.extend(_flat(o))
        return res
    return [out]


def run_case(tf: Any, cs: dict[str, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = dict(cs["attrs"])
    for name, spec in cs["inputs"].items():
        kwargs[name] = ([_tensor(tf, x) for x in spec] if isinstance(spec, list)
                        else _tensor(tf, spec))
    with tf.device("/CPU:0"):
        try:
            out = getattr(tf.raw_ops, cs["op"])(**kwargs)
        except (tf.errors.OpError, ValueError, TypeError) as e:
            msg = e.message if hasattr(e, "message") else str(e)
            return {"error": {"type": type(e).__name__, "message": msg}}
    return {"outputs": [enc(o.numpy(), o.dtype.name) for o in _flat(out)]}


def main() -> None:
    import tensorflow as tf

    assert tf.__version__.startswith("2.21"), tf.__version__
    show = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--show" else None
    for cs in CASES:
        if show is not None and not cs["name"].startswith(show):
            continue
        cs.update(run_case(tf, cs))
        if show is not None:
            print(cs["name"], json.dumps(cs.get("error") or cs["outputs"])[:600])
    if show is not None:
        return
    write_cases(tf, CASES, "sparse2_ops_tf221.json")


if __name__ == "__main__":
    main()
