"""Records TF 2.21's results for the nn_linalg2 kernel group
(csrc/kernels/cpu/nn_linalg2_*.c) into tests/data/nnlin_ops_tf221.json.
Run with /work/tfvenv/bin/python; tests/python/test_nnlin_ops.py only reads
the JSON. Each case runs one raw op eagerly on CPU and keeps its outputs or
its error (TF's exception class name and message). The tensor encoding is
record_sparse_ops.py's. Optional case keys read by the test: "skip" (output
indices not to compare: values TF leaves unset), "eig" (compare
eigenpairs up to order and phase), "rtol" (a looser tolerance where TF
itself rounds through float)."""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from record_sparse_ops import COMPLEX, record_main, run_raw, t

R = np.random.default_rng(2026_18)
CASES: list[dict[str, Any]] = []
TYPE_ATTRS = ("Tout", "dtype")


def add(name: str, op: str, inputs: dict[str, Any], attrs: dict[str, Any] | None = None,
        **extra: Any) -> None:
    CASES.append({"name": name, "op": op, "inputs": inputs, "attrs": attrs or {}, **extra})


def rnd(shape: tuple[int, ...], dtype: str, lo: float = -1.0, hi: float = 1.0) -> Any:
    v = R.uniform(lo, hi, shape)
    if dtype in COMPLEX:
        v = v + 1j * R.uniform(lo, hi, shape)
    if dtype in ("float16", "bfloat16"):
        v = np.round(v, 2)
    return v


# ------------------------------------------------------------ removed ops
REMOVED = {
    "BatchCholesky": ("input", ("float32", "float64")),
    "BatchMatrixDeterminant": ("input", ("float32", "float64", "complex64", "complex128")),
    "BatchMatrixInverse": ("input", ("float32", "float64", "float16")),
    "BatchSelfAdjointEig": ("input", ("float32", "float64")),
    "BatchSelfAdjointEigV2": ("input", ("float32", "float64", "complex64", "complex128")),
    "BatchSvd": ("input", ("float32", "float64", "complex64", "complex128")),
    "BatchMatrixDiag": ("diagonal", ("float32", "int32", "bool", "complex64", "uint8")),
    "BatchMatrixDiagPart": ("input", ("float32", "int64", "bool", "complex128", "bfloat16")),
    "SelfAdjointEig": ("input", ("float32", "float64")),
    "MatrixExponential": ("input", ("float32", "float64", "complex64", "complex128")),
}
for op, (arg, dts) in REMOVED.items():
    for dt in dts:
        v = np.eye(2) if dt != "bool" else np.eye(2, dtype=bool)
        add(f"{op.lower()}_{dt}", op, {arg: t(v, dt)})
for dt in ("float32", "float64", "complex64", "complex128"):
    add(f"batchmatrixsolve_{dt}", "BatchMatrixSolve",
        {"matrix": t(np.eye(2), dt), "rhs": t(np.ones((2, 1)), dt)})
    add(f"batchmatrixtriangularsolve_{dt}", "BatchMatrixTriangularSolve",
        {"matrix": t(np.eye(2), dt), "rhs": t(np.ones((2, 1)), dt)})
for dt in ("float32", "float64"):
    add(f"batchmatrixsolvels_{dt}", "BatchMatrixSolveLs",
        {"matrix": t(np.eye(2), dt), "rhs": t(np.ones((2, 1)), dt),
         "l2_regularizer": t(0.0, "float64")})
    add(f"batchcholeskygrad_{dt}", "BatchCholeskyGrad",
        {"l": t(np.eye(2), dt), "grad": t(np.eye(2), dt)})
for dt in ("float32", "int8", "complex64", "float16"):
    add(f"batchmatrixbandpart_{dt}", "BatchMatrixBandPart",
        {"input": t(np.eye(2), dt), "num_lower": t(0, "int64"), "num_upper": t(0, "int64")})
for dt in ("float32", "bool", "int16", "complex128"):
    add(f"batchmatrixsetdiag_{dt}", "BatchMatrixSetDiag",
        {"input": t(np.eye(2), dt), "diagonal": t(np.ones(2), dt)})
for op in ("BatchNormWithGlobalNormalization",):
    for dt in ("float32", "float64", "float16"):
        x = t(np.ones((1, 1, 1, 2)), dt)
        v = t(np.ones(2), dt)
        add(f"{op.lower()}_{dt}", op, {"t": x, "m": v, "v": v, "beta": v, "gamma": v},
            {"variance_epsilon": 0.001, "scale_after_normalization": True})
        add(f"{op.lower()}grad_{dt}", op + "Grad",
            {"t": x, "m": v, "v": v, "gamma": v, "backprop": x},
            {"variance_epsilon": 0.001, "scale_after_normalization": True})
add("batchcholesky_err_dtype", "BatchCholesky", {"input": t(np.eye(2), "float16")})

# ------------------------------------------------------------ SparseMatMul
for ta in ("float32", "bfloat16"):
    for tb in ("float32", "bfloat16"):
        for tra, trb in ((False, False), (True, False), (False, True), (True, True)):
            a = np.round(rnd((3, 4) if not tra else (4, 3), ta), 2)
            b = np.round(rnd((4, 5) if not trb else (5, 4), tb), 2)
            a[R.uniform(size=a.shape) < 0.4] = 0
            add(f"sparsematmul_{ta}_{tb}_{int(tra)}{int(trb)}", "SparseMatMul",
                {"a": t(a, ta), "b": t(b, tb)},
                {"transpose_a": tra, "transpose_b": trb, "a_is_sparse": True},
                rtol=1e-2 if "bfloat16" in (ta, tb) else 1e-5)
# mostly zeros: the hinted operand goes through tfe's sparse product (a
# 90-column result: a full 64-column block and a tail). Own generator, so
# that the cases after these keep their inputs.
RS = np.random.default_rng(2026_1218)
for tra, trb in ((False, False), (True, False), (False, True), (True, True)):
    for hint in ("a_is_sparse", "b_is_sparse"):
        for dt in ("float32", "bfloat16"):
            a = np.round(RS.uniform(-1, 1, (20, 70) if not tra else (70, 20)), 2)
            b = np.round(RS.uniform(-1, 1, (70, 90) if not trb else (90, 70)), 2)
            sp = a if hint == "a_is_sparse" else b
            sp[RS.uniform(size=sp.shape) < 0.8] = 0
            add(f"sparsematmul_sparse_{hint[0]}_{dt}_{int(tra)}{int(trb)}", "SparseMatMul",
                {"a": t(a, dt), "b": t(b, dt)},
                {"transpose_a": tra, "transpose_b": trb, hint: True},
                rtol=1e-2 if dt == "bfloat16" else 1e-5)
add("sparsematmul_empty_k", "SparseMatMul",
    {"a": t(np.zeros((2, 0)), "float32"), "b": t(np.zeros((0, 3)), "float32")})
add("sparsematmul_err_inner", "SparseMatMul",
    {"a": t(np.ones((2, 3)), "float32"), "b": t(np.ones((4, 3)), "float32")})
add("sparsematmul_err_rank_a", "SparseMatMul",
    {"a": t(np.ones((2, 3, 1)), "float32"), "b": t(np.ones((3, 3)), "float32")})
add("sparsematmul_err_rank_b", "SparseMatMul",
    {"a": t(np.ones((2, 3)), "float32"), "b": t(np.ones((3,)), "float32")})

# ------------------------------------------- SparseSegment*GradV2
for op in ("SparseSegmentSumGradV2", "SparseSegmentMeanGradV2", "SparseSegmentSqrtNGradV2"):
    for dt in ("float32", "float64", "float16", "bfloat16"):
        for ti in ("int32", "int64"):
            for ts in ("int32", "int64"):
                add(f"{op.lower()}_{dt}_{ti}_{ts}", op,
                    {"grad": t(np.round(rnd((3, 2), dt), 2), dt),
                     "indices": t([4, 1, 4, 0, 1], ti),
                     "segment_ids": t([0, 0, 1, 2, 2], ts),
                     "dense_output_dim0": t(6, "int32")})
    lo = op.lower()
    g = t(np.arange(6.0).reshape(3, 2), "float32")
    add(f"{lo}_unsorted_ids", op, {"grad": g, "indices": t([4, 1, 4, 0], "int32"),
                                   "segment_ids": t([0, 0, 2, 1], "int32"),
                                   "dense_output_dim0": t(6, "int32")})
    add(f"{lo}_empty", op, {"grad": g, "indices": t(np.zeros(0), "int32"),
                            "segment_ids": t(np.zeros(0), "int32"),
                            "dense_output_dim0": t(6, "int32")})
    add(f"{lo}_3d", op, {"grad": t(np.arange(12.0).reshape(2, 3, 2), "float64"),
                         "indices": t([2, 2, 5], "int64"), "segment_ids": t([0, 1, 1], "int32"),
                         "dense_output_dim0": t(7, "int32")})
    add(f"{lo}_err_index", op, {"grad": g, "indices": t([4, 1, 7, 0], "int32"),
                                "segment_ids": t([0, 0, 1, 2], "int32"),
                                "dense_output_dim0": t(6, "int32")})
    add(f"{lo}_err_neg_index", op, {"grad": g, "indices": t([4, 1, 4, -1], "int32"),
                                    "segment_ids": t([0, 0, 1, 2], "int32"),
                                    "dense_output_dim0": t(6, "int32")})
    add(f"{lo}_err_nseg", op, {"grad": g, "indices": t([4, 1, 4, 0], "int32"),
                               "segment_ids": t([0, 0, 1, 3], "int32"),
                               "dense_output_dim0": t(6, "int32")})
    add(f"{lo}_err_size", op, {"grad": g, "indices": t([4, 1, 4, 0], "int32"),
                               "segment_ids": t([0, 0, 1], "int32"),
                               "dense_output_dim0": t(6, "int32")})
    add(f"{lo}_err_indices_rank", op, {"grad": g, "indices": t([[4]], "int32"),
                                       "segment_ids": t([0], "int32"),
                                       "dense_output_dim0": t(6, "int32")})
    add(f"{lo}_err_dim0_rank", op, {"grad": g, "indices": t([4], "int32"),
                                    "segment_ids": t([0], "int32"),
                                    "dense_output_dim0": t([6], "int32")})

# ---------------------------------------------------------------- Eig
EIG_OUT = {"float32": "complex64", "float64": "complex128", "complex64": "complex64",
           "complex128": "complex128"}
for dt, to in EIG_OUT.items():
    for n in (1, 2, 3, 5, 8):
        a = rnd((n, n), dt)
        add(f"eig_{dt}_{n}", "Eig", {"input": t(a, dt)}, {"Tout": to}, eig=True)
    add(f"eig_{dt}_batch", "Eig", {"input": t(rnd((2, 3, 4, 4), dt), dt)}, {"Tout": to}, eig=True)
    add(f"eig_{dt}_novec", "Eig", {"input": t(rnd((4, 4), dt), dt)},
        {"Tout": to, "compute_v": False}, eig=True, skip=[1])
add("eig_rotation", "Eig", {"input": t([[0.0, 1.0], [-1.0, 0.0]], "float64")},
    {"Tout": "complex128"}, eig=True)
add("eig_symmetric", "Eig", {"input": t([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]],
                                        "float64")}, {"Tout": "complex128"}, eig=True)
add("eig_triangular", "Eig", {"input": t([[1.0, 2.0, 3.0], [0.0, 4.0, 5.0], [0.0, 0.0, 6.0]],
                                         "float64")}, {"Tout": "complex128"}, eig=True)
add("eig_empty", "Eig", {"input": t(np.zeros((2, 0, 0)), "float64")}, {"Tout": "complex128"})
add("eig_err_square", "Eig", {"input": t(np.ones((1, 3)), "float64")}, {"Tout": "complex128"})
add("eig_err_rank", "Eig", {"input": t(np.ones(3), "float64")}, {"Tout": "complex128"})
add("eig_err_tout", "Eig", {"input": t(np.eye(2), "float64")}, {"Tout": "complex64"})
add("eig_err_nan", "Eig", {"input": t([[np.nan, 2.0], [3.0, 4.0]], "float64")},
    {"Tout": "complex128"})

# ------------------------------------------------- MatrixSolveLs, CholeskyGrad
for dt in ("float32", "float64", "complex64", "complex128"):
    for fast in (True, False):
        for (m, n) in ((4, 2), (3, 3), (2, 4)):
            for l2 in (0.0, 0.5):
                add(f"matrixsolvels_{dt}_{int(fast)}_{m}x{n}_{l2}", "MatrixSolveLs",
                    {"matrix": t(rnd((2, m, n), dt), dt), "rhs": t(rnd((2, m, 3), dt), dt),
                     "l2_regularizer": t(l2, "float64")}, {"fast": fast},
                    rtol=1e-4 if dt in ("float32", "complex64") else 1e-8)
rd = rnd((4, 3), "float64")
rd[:, 2] = rd[:, 0] + rd[:, 1]
add("matrixsolvels_rank_deficient_cod", "MatrixSolveLs",
    {"matrix": t(rd, "float64"), "rhs": t(rnd((4, 2), "float64"), "float64"),
     "l2_regularizer": t(0.0, "float64")}, {"fast": False}, rtol=1e-8)
add("matrixsolvels_zero_cod", "MatrixSolveLs",
    {"matrix": t(np.zeros((3, 2)), "float64"), "rhs": t(rnd((3, 2), "float64"), "float64"),
     "l2_regularizer": t(0.0, "float64")}, {"fast": False})
add("matrixsolvels_empty_rows", "MatrixSolveLs",
    {"matrix": t(np.zeros((0, 2)), "float64"), "rhs": t(np.zeros((0, 3)), "float64"),
     "l2_regularizer": t(0.0, "float64")}, skip=[0])  # TF leaves the result unset
add("matrixsolvels_empty_cols", "MatrixSolveLs",
    {"matrix": t(np.zeros((3, 0)), "float64"), "rhs": t(np.zeros((3, 3)), "float64"),
     "l2_regularizer": t(0.0, "float64")})
add("matrixsolvels_err_rank_deficient", "MatrixSolveLs",
    {"matrix": t(np.zeros((4, 2)), "float64"), "rhs": t(np.ones((4, 3)), "float64"),
     "l2_regularizer": t(0.0, "float64")})
add("matrixsolvels_err_rows", "MatrixSolveLs",
    {"matrix": t(np.ones((4, 2)), "float64"), "rhs": t(np.ones((3, 3)), "float64"),
     "l2_regularizer": t(0.0, "float64")})
add("matrixsolvels_err_l2", "MatrixSolveLs",
    {"matrix": t(np.ones((4, 2)), "float64"), "rhs": t(np.ones((4, 3)), "float64"),
     "l2_regularizer": t([0.0], "float64")})
add("matrixsolvels_err_rank", "MatrixSolveLs",
    {"matrix": t(np.ones(2), "float64"), "rhs": t(np.ones((4, 3)), "float64"),
     "l2_regularizer": t(0.0, "float64")})
for dt in ("float32", "float64"):
    for n in (1, 3, 6):
        a = rnd((2, n, n), "float64")
        spd = a @ np.swapaxes(a, -1, -2) + n * np.eye(n)
        lo = np.linalg.cholesky(spd)
        add(f"choleskygrad_{dt}_{n}", "CholeskyGrad",
            {"l": t(lo, dt), "grad": t(rnd((2, n, n), dt), dt)},
            rtol=1e-4 if dt == "float32" else 1e-9)
add("choleskygrad_empty", "CholeskyGrad",
    {"l": t(np.zeros((2, 0, 0)), "float64"), "grad": t(np.zeros((2, 0, 0)), "float64")})
add("choleskygrad_err_shape", "CholeskyGrad",
    {"l": t(np.eye(3), "float64"), "grad": t(np.ones((2, 3)), "float64")})
add("choleskygrad_err_square", "CholeskyGrad",
    {"l": t(np.ones((2, 3)), "float64"), "grad": t(np.ones((2, 3)), "float64")})
add("choleskygrad_err_rank", "CholeskyGrad",
    {"l": t(np.ones(3), "float64"), "grad": t(np.ones(3), "float64")})

# ----------------------------------------------- SparseBincount, RaggedBincount
BI = np.array([[0, 0], [0, 2], [1, 1], [2, 0], [2, 3], [2, 1]], np.int64)
BV = [1, 3, -1, 5, 0, 1]
for dt in ("int32", "int64", "float32", "float64"):
    for ti in ("int32", "int64"):
        w = np.asarray([2, 1, 3, 4, 5, 6]) if dt.startswith("int") else rnd((6,), dt)
        for binary in (False, True):
            add(f"sparsebincount_{dt}_{ti}_{int(binary)}", "SparseBincount",
                {"indices": t(BI, "int64"), "values": t(BV, ti), "dense_shape": t([3, 4], "int64"),
                 "size": t(4, ti), "weights": t(w, dt)}, {"binary_output": binary})
            add(f"raggedbincount_{dt}_{ti}_{int(binary)}", "RaggedBincount",
                {"splits": t([0, 2, 2, 6], "int64"), "values": t([1, 3, 1, 5, 0, 1], ti),
                 "size": t(4, ti), "weights": t(w, dt)}, {"binary_output": binary})
SB = {"indices": t(BI, "int64"), "values": t(BV, "int32"), "dense_shape": t([3, 4], "int64"),
      "size": t(4, "int32"), "weights": t(np.zeros(0), "float32")}
add("sparsebincount_noweights", "SparseBincount", SB)
add("sparsebincount_1d", "SparseBincount",
    {**SB, "indices": t([[0], [2], [3], [5], [6], [7]], "int64"), "dense_shape": t([8], "int64"),
     "values": t([1, 3, 1, 5, 0, 1], "int32")})
add("sparsebincount_err_1d_negative", "SparseBincount",
    {**SB, "indices": t([[0], [2], [3], [5], [6], [7]], "int64"), "dense_shape": t([8], "int64")})
add("sparsebincount_3d", "SparseBincount",
    {**SB, "indices": t([[0, 0, 0], [1, 1, 0]], "int64"), "values": t([1, 2], "int32"),
     "dense_shape": t([2, 2, 2], "int64")})
add("sparsebincount_size0", "SparseBincount", {**SB, "size": t(0, "int32")})
add("sparsebincount_err_size", "SparseBincount", {**SB, "size": t(-1, "int32")})
add("sparsebincount_err_count", "SparseBincount", {**SB, "values": t([1, 2], "int32")})
add("sparsebincount_err_bounds", "SparseBincount",
    {**SB, "indices": t([[0, 0], [0, 2], [1, 1], [5, 0], [2, 3], [2, 1]], "int64")})
add("sparsebincount_err_size_rank", "SparseBincount", {**SB, "size": t([4], "int32")})
RB = {"splits": t([0, 2, 2, 6], "int64"), "values": t([1, 3, 1, 5, 0, 1], "int64"),
      "size": t(4, "int64"), "weights": t(np.zeros(0), "float64")}
add("raggedbincount_noweights", "RaggedBincount", RB)
add("raggedbincount_unsorted_splits", "RaggedBincount",
    {**RB, "splits": t([0, 3, 2, 6], "int64")})
add("raggedbincount_err_end", "RaggedBincount", {**RB, "splits": t([0, 2, 7], "int64")})
add("raggedbincount_err_start", "RaggedBincount", {**RB, "splits": t([1, 2, 6], "int64")})
add("raggedbincount_err_empty", "RaggedBincount", {**RB, "splits": t(np.zeros(0), "int64")})
add("raggedbincount_err_negative", "RaggedBincount",
    {**RB, "values": t([1, 3, -1, 5, 0, 1], "int64")})
add("raggedbincount_err_size", "RaggedBincount", {**RB, "size": t(-2, "int64")})

# ------------------------------------ FusedPadConv2D, FusedResizeAndPadConv2D
FP = np.array([[0, 0], [1, 2], [2, 1], [0, 0]])
for dt in ("float32", "float64", "float16", "bfloat16"):
    for mode in ("REFLECT", "SYMMETRIC"):
        for padding, strides in (("VALID", [1, 1, 1, 1]), ("SAME", [1, 2, 1, 1])):
            # one image: with several, TF 2.21's fused kernel returns the first
            # image's result for every image (its resize cache is not refilled
            # per image); tfe computes each image.
            x = np.round(rnd((1, 5, 6, 3), dt), 2)
            f = np.round(rnd((3, 2, 3, 4), dt), 2)
            add(f"fusedpadconv2d_{dt}_{mode}_{padding}", "FusedPadConv2D",
                {"input": t(x, dt), "paddings": t(FP, "int32"), "filter": t(f, dt)},
                {"mode": mode, "strides": strides, "padding": padding},
                rtol=5e-2 if dt in ("float16", "bfloat16") else 1e-5)
            if dt == "bfloat16":
                continue
            for align in (False, True):
                add(f"fusedresizeandpadconv2d_{dt}_{mode}_{padding}_{int(align)}",
                    "FusedResizeAndPadConv2D",
                    {"input": t(x, dt), "size": t([7, 4], "int32"),
                     "paddings": t(FP, "int32"), "filter": t(f, dt)},
                    {"mode": mode, "strides": strides, "padding": padding,
                     "resize_align_corners": align},
                    rtol=5e-2 if dt == "float16" else 1e-5)
FX0 = {"input": t(rnd((1, 5, 6, 2), "float32"), "float32"), "paddings": t(FP, "int32"),
       "filter": t(rnd((3, 3, 2, 4), "float32"), "float32")}
FA = {"mode": "REFLECT", "strides": [1, 1, 1, 1], "padding": "VALID"}
add("fusedpadconv2d_err_reflect", "FusedPadConv2D",
    {**FX0, "paddings": t([[0, 0], [5, 2], [2, 1], [0, 0]], "int32")}, FA)
add("fusedpadconv2d_err_symmetric", "FusedPadConv2D",
    {**FX0, "paddings": t([[0, 0], [6, 2], [2, 1], [0, 0]], "int32")}, {**FA, "mode": "SYMMETRIC"})
add("fusedpadconv2d_err_negative", "FusedPadConv2D",
    {**FX0, "paddings": t([[0, 0], [-1, 2], [2, 1], [0, 0]], "int32")}, FA)
add("fusedpadconv2d_err_rows", "FusedPadConv2D", {**FX0, "paddings": t(FP[:3], "int32")}, FA)
add("fusedpadconv2d_err_depth", "FusedPadConv2D",
    {**FX0, "filter": t(np.ones((3, 3, 1, 4)), "float32")}, FA)
add("fusedpadconv2d_err_filter_rank", "FusedPadConv2D",
    {**FX0, "filter": t(np.ones((3, 2, 4)), "float32")}, FA)
add("fusedpadconv2d_err_strides", "FusedPadConv2D", FX0, {**FA, "strides": [2, 1, 1, 1]})
add("fusedpadconv2d_err_strides_len", "FusedPadConv2D", FX0, {**FA, "strides": [1, 1, 1]})
add("fusedpadconv2d_err_empty", "FusedPadConv2D",
    {**FX0, "input": t(np.zeros((1, 0, 6, 2)), "float32")}, FA)
add("fusedpadconv2d_big_filter", "FusedPadConv2D",
    {**FX0, "filter": t(np.ones((9, 9, 2, 4)), "float32")}, FA)
add("fusedresizeandpadconv2d_err_size", "FusedResizeAndPadConv2D",
    {**FX0, "size": t([0, 8], "int32")}, FA)

# ------------------------------------------------------------ Fresnel
FX = [0.0, 1e-8, -1e-3, 0.1, 0.5, -0.9, 1.0, 1.49, 1.5, 1.51, 2.0, -2.5, 3.3, 4.0, 5.5,
      7.0, 10.0, 25.0, -40.0, 100.0, 1e3, np.inf, -np.inf, np.nan]
for op in ("FresnelCos", "FresnelSin"):
    for dt in ("float32", "float64"):
        add(f"{op.lower()}_{dt}", op, {"x": t(np.asarray(FX), dt)}, rtol=1e-6 if
            dt == "float32" else 1e-12)
    add(f"{op.lower()}_2d", op, {"x": t(np.linspace(-6, 6, 24).reshape(4, 6), "float64")},
        rtol=1e-12)

# ------------------------------------------------------------- LSTM/GRU
def lstm_inputs(b: int, i: int, c: int, dt: str, time: int | None = None) -> dict[str, Any]:
    xs = (b, i) if time is None else (time, b, i)
    return {"x": t(rnd(xs, dt), dt), "cs_prev": t(rnd((b, c), dt), dt),
            "h_prev": t(rnd((b, c), dt), dt), "w": t(rnd((i + c, 4 * c), dt, -0.5, 0.5), dt),
            "wci": t(rnd((c,), dt), dt), "wcf": t(rnd((c,), dt), dt), "wco": t(rnd((c,), dt), dt),
            "b": t(rnd((4 * c,), dt), dt)}


for dt in ("float32", "float16"):
    for peep in (False, True):
        for clip in (3.0, 0.0, 0.2):
            add(f"lstmblockcell_{dt}_{int(peep)}_{clip}", "LSTMBlockCell",
                lstm_inputs(3, 4, 5, dt),
                {"forget_bias": 0.7, "cell_clip": clip, "use_peephole": peep})
        inp = lstm_inputs(3, 4, 5, dt)
        for nm in ("i", "cs", "f", "o", "ci", "co"):
            inp[nm] = t(R.uniform(0.05, 0.95, (3, 5)), dt)
        inp["cs_grad"] = t(rnd((3, 5), dt), dt)
        inp["h_grad"] = t(rnd((3, 5), dt), dt)
        add(f"lstmblockcellgrad_{dt}_{int(peep)}", "LSTMBlockCellGrad", inp,
            {"use_peephole": peep})
        for v2 in (False, True):
            op = "BlockLSTMV2" if v2 else "BlockLSTM"
            inp = lstm_inputs(2, 3, 4, dt, time=5)
            attrs: dict[str, Any] = {"cell_clip": 0.5 if v2 else 3.0, "use_peephole": peep}
            if not v2:
                attrs["forget_bias"] = 1.0
            add(f"{op.lower()}_{dt}_{int(peep)}", op,
                {"seq_len_max": t(5, "int64"), **inp}, attrs)
            add(f"{op.lower()}_{dt}_{int(peep)}_short", op,
                {"seq_len_max": t(3, "int64"), **inp}, attrs, skip=[0, 2, 3, 4, 5])
            gop = "BlockLSTMGradV2" if v2 else "BlockLSTMGrad"
            ginp = {"seq_len_max": t(5, "int64"), **inp}
            for nm in ("i", "cs", "f", "o", "ci", "co", "h"):
                ginp[nm] = t(R.uniform(0.05, 0.95, (5, 2, 4)), dt)
            ginp["cs_grad"] = t(rnd((5, 2, 4), dt), dt)
            ginp["h_grad"] = t(rnd((5, 2, 4), dt), dt)
            add(f"{gop.lower()}_{dt}_{int(peep)}", gop, ginp, {"use_peephole": peep},
                rtol=3e-2 if dt == "float16" else 1e-5)
add("lstmblockcell_err_batch", "LSTMBlockCell",
    {**lstm_inputs(3, 4, 5, "float32"), "cs_prev": t(np.ones((2, 5)), "float32")})
add("lstmblockcell_err_w", "LSTMBlockCell",
    {**lstm_inputs(3, 4, 5, "float32"), "w": t(np.ones((8, 20)), "float32")})
add("lstmblockcell_err_b", "LSTMBlockCell",
    {**lstm_inputs(3, 4, 5, "float32"), "b": t(np.ones(19), "float32")})
add("lstmblockcell_err_hprev", "LSTMBlockCell",
    {**lstm_inputs(3, 4, 5, "float32"), "h_prev": t(np.ones((3, 4)), "float32")})
# seq_len_max > timelen aborts TF 2.21 (a CHECK in Tensor::Slice); tfe fails
# with the message TF checks for too late.
add("blocklstm_err_seqlen_rank", "BlockLSTM",
    {"seq_len_max": t([5], "int64"), **lstm_inputs(2, 3, 4, "float32", time=5)})
add("blocklstm_err_x", "BlockLSTM",
    {"seq_len_max": t(5, "int64"), **lstm_inputs(2, 3, 4, "float32")})
add("blocklstm_err_wci", "BlockLSTM",
    {"seq_len_max": t(5, "int64"),
     **{**lstm_inputs(2, 3, 4, "float32", time=5), "wci": t(np.ones(3), "float32")}})
add("blocklstmv2_err_w", "BlockLSTMV2",
    {"seq_len_max": t(5, "int64"),
     **{**lstm_inputs(2, 3, 4, "float32", time=5), "w": t(np.ones((7, 15)), "float32")}})


def gru_inputs(b: int, i: int, c: int) -> dict[str, Any]:
    return {"x": t(rnd((b, i), "float32"), "float32"),
            "h_prev": t(rnd((b, c), "float32"), "float32"),
            "w_ru": t(rnd((i + c, 2 * c), "float32", -0.5, 0.5), "float32"),
            "w_c": t(rnd((i + c, c), "float32", -0.5, 0.5), "float32"),
            "b_ru": t(rnd((2 * c,), "float32"), "float32"),
            "b_c": t(rnd((c,), "float32"), "float32")}


add("grublockcell_float32", "GRUBlockCell", gru_inputs(3, 4, 5))
add("grublockcell_float32_b1", "GRUBlockCell", gru_inputs(1, 2, 3))
gi = gru_inputs(3, 4, 5)
for nm in ("r", "u", "c"):
    gi[nm] = t(R.uniform(0.05, 0.95, (3, 5)), "float32")
gi["d_h"] = t(rnd((3, 5), "float32"), "float32")
add("grublockcellgrad_float32", "GRUBlockCellGrad", gi)
add("grublockcell_err_x", "GRUBlockCell", {**gru_inputs(3, 4, 5), "x": t(np.ones(3), "float32")})
add("grublockcell_err_hprev", "GRUBlockCell",
    {**gru_inputs(3, 4, 5), "h_prev": t(np.ones((2, 5)), "float32")})
add("grublockcell_err_wru", "GRUBlockCell",
    {**gru_inputs(3, 4, 5), "w_ru": t(np.ones((9, 11)), "float32")})
add("grublockcell_err_bc", "GRUBlockCell",
    {**gru_inputs(3, 4, 5), "b_c": t(np.ones(4), "float32")})
add("grublockcellgrad_err_r", "GRUBlockCellGrad", {**gi, "r": t(np.ones((3, 4)), "float32")})

# ---------------------------------------------------------------- CTC
def ctc_labels(seqs: list[list[int]]) -> tuple[Any, Any]:
    idx = [[b, j] for b, s in enumerate(seqs) for j in range(len(s))]
    vals = [v for s in seqs for v in s]
    return t(np.asarray(idx, np.int64).reshape(-1, 2), "int64"), t(vals, "int32")


for dt in ("float32", "float64"):
    li, lv = ctc_labels([[0, 1, 1], [2], [1, 0, 2, 0]])
    logits = rnd((7, 3, 4), dt, -2, 2)
    for coll in (False, True):
        for merge in (True, False):
            add(f"ctcloss_{dt}_{int(coll)}{int(merge)}", "CTCLoss",
                {"inputs": t(logits, dt), "labels_indices": li, "labels_values": lv,
                 "sequence_length": t([7, 5, 6], "int32")},
                {"preprocess_collapse_repeated": coll, "ctc_merge_repeated": merge},
                rtol=1e-5)
    add(f"ctcgreedydecoder_{dt}", "CTCGreedyDecoder",
        {"inputs": t(logits, dt), "sequence_length": t([7, 5, 6], "int32")})
    add(f"ctcgreedydecoder_{dt}_merge", "CTCGreedyDecoder",
        {"inputs": t(logits, dt), "sequence_length": t([7, 0, 6], "int32")},
        {"merge_repeated": True})
    add(f"ctcgreedydecoder_{dt}_blank0", "CTCGreedyDecoder",
        {"inputs": t(logits, dt), "sequence_length": t([7, 5, 6], "int32")},
        {"merge_repeated": True, "blank_index": 0})
li, lv = ctc_labels([[0, 1, 1], [2], [1, 0, 2, 0]])
base = {"inputs": t(rnd((7, 3, 4), "float32"), "float32"), "labels_indices": li,
        "labels_values": lv, "sequence_length": t([7, 5, 6], "int32")}
add("ctcloss_ignore_longer", "CTCLoss",
    {**base, "sequence_length": t([2, 5, 6], "int32")},
    {"ignore_longer_outputs_than_inputs": True}, rtol=1e-5)
add("ctcloss_seq0_ignore", "CTCLoss",
    {**base, "sequence_length": t([0, 5, 6], "int32")},
    {"ignore_longer_outputs_than_inputs": True}, rtol=1e-5)
add("ctcloss_err_not_enough_time", "CTCLoss", {**base, "sequence_length": t([2, 5, 6], "int32")})
add("ctcloss_err_seq_too_long", "CTCLoss", {**base, "sequence_length": t([8, 5, 6], "int32")})
add("ctcloss_err_seq_neg", "CTCLoss", {**base, "sequence_length": t([-1, 5, 6], "int32")})
add("ctcloss_err_rank", "CTCLoss", {**base, "inputs": t(np.ones((7, 3)), "float32")})
add("ctcloss_err_seqlen_len", "CTCLoss", {**base, "sequence_length": t([7, 5], "int32")})
li2, lv2 = ctc_labels([[0, 1], [], [1]])
add("ctcloss_err_empty_label", "CTCLoss", {**base, "labels_indices": li2, "labels_values": lv2})
li3, lv3 = ctc_labels([[0, 3, 1], [2], [1]])
add("ctcloss_err_null_then_label", "CTCLoss",
    {**base, "labels_indices": li3, "labels_values": lv3})
li4, lv4 = ctc_labels([[0, -1], [2], [1]])
add("ctcloss_err_negative_label", "CTCLoss",
    {**base, "labels_indices": li4, "labels_values": lv4})
add("ctcloss_err_unsorted", "CTCLoss",
    {**base, "labels_indices": t([[0, 1], [0, 0], [1, 0], [2, 0]], "int64"),
     "labels_values": t([0, 1, 2, 1], "int32")})
add("ctcloss_err_rows", "CTCLoss", {**base, "labels_values": t([0, 1], "int32")})
add("ctcloss_err_batch0", "CTCLoss",
    {"inputs": t(np.ones((2, 0, 3)), "float32"), "labels_indices": t(np.zeros((0, 2)), "int64"),
     "labels_values": t(np.zeros(0), "int32"), "sequence_length": t(np.zeros(0), "int32")})
add("ctcgreedydecoder_err_rank", "CTCGreedyDecoder",
    {"inputs": t(np.ones((7, 3)), "float32"), "sequence_length": t([7, 5, 6], "int32")})
add("ctcgreedydecoder_err_seqlen", "CTCGreedyDecoder",
    {"inputs": t(np.ones((7, 3, 4)), "float32"), "sequence_length": t([8, 5, 6], "int32")})
add("ctcgreedydecoder_err_batch", "CTCGreedyDecoder",
    {"inputs": t(np.ones((7, 3, 4)), "float32"), "sequence_length": t([7, 5], "int32")})
add("ctcgreedydecoder_err_blank", "CTCGreedyDecoder",
    {"inputs": t(np.ones((7, 3, 4)), "float32"), "sequence_length": t([7, 5, 6], "int32")},
    {"blank_index": 4})


def _tensor(tf: Any, spec: dict[str, Any]) -> Any:
    dt = spec["dtype"]
    v = spec["value"]
    if dt in COMPLEX:
        a = np.asarray(v, np.float64).reshape([*spec["shape"], 2])
        v = a[..., 0] + 1j * a[..., 1]
    return tf.constant(v, dtype=getattr(tf, dt), shape=spec["shape"])


def run_case(tf: Any, cs: dict[str, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = {k: (getattr(tf, v) if k in TYPE_ATTRS else v)
                              for k, v in cs["attrs"].items()}
    for name, spec in cs["inputs"].items():
        kwargs[name] = _tensor(tf, spec)
    return run_raw(tf, cs["op"], kwargs)


def main() -> None:
    record_main(CASES, "nnlin_ops_tf221.json", run_case)


if __name__ == "__main__":
    main()
