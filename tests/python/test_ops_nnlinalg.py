"""Neural-network ops (BiasAddGrad, MaxPoolGrad, MaxPoolGradV2,
AvgPoolGrad, InTopK, InTopKV2, MaxPoolWithArgmax, LRN, LRNGrad,
ResizeBilinearGrad, ResizeNearestNeighborGrad) and batched dense linear algebra
(MatrixDeterminant, LogMatrixDeterminant, MatrixInverse, Cholesky,
MatrixSolve, MatrixTriangularSolve, Lu, Qr, SelfAdjointEigV2) through tfe_py.ops, against values
recorded from TensorFlow 2.21 (ops_nnlinalg_tf221.json, one entry per case
below, in order: the outputs or the error class and message).

An input is given as a list (it takes the case's dtype) or as a
(values, dtype) pair."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest

from tfe_py import errors, ops
from tfe_py.context import default_context
from tfe_py.eager import constant

nan, inf = float("nan"), float("inf")

Case = tuple[str, str, dict[str, Any], dict[str, Any]]

# Ops whose results go through floating-point arithmetic done in another
# order (or precision) than TF's: compared with a tolerance scaled to the
# dtype and to the size of the values.
APPROX_OPS = {
    "BiasAddGrad",
    "AvgPoolGrad",
    "MatrixDeterminant",
    "LogMatrixDeterminant",
    "MatrixInverse",
    "Cholesky",
    "MatrixSolve",
    "MatrixTriangularSolve",
    "Qr",
    "Lu",
    "SelfAdjointEigV2",
    "LRN",
    "LRNGrad",
}
TOL = {
    "float16": 2e-3,
    "bfloat16": 1e-2,
    "float32": 3e-5,
    "complex64": 3e-5,
    "float64": 1e-11,
    "complex128": 1e-11,
}


@pytest.fixture(autouse=True)
def _default_exists() -> None:
    default_context()


def rnd(seed: int, shape: tuple[int, ...], lo: float = -3, hi: float = 3) -> list[Any]:
    return np.random.default_rng(seed).uniform(lo, hi, shape).tolist()


def rint(seed: int, shape: tuple[int, ...], lo: int = 0, hi: int = 4) -> list[Any]:
    return np.random.default_rng(seed).integers(lo, hi, shape).tolist()


def well_conditioned(seed: int, shape: tuple[int, ...], cplx: bool = False) -> list[Any]:
    g = np.random.default_rng(seed)
    a = g.uniform(-1, 1, shape)
    if cplx:
        a = a + 1j * g.uniform(-1, 1, shape)
    n = shape[-1]
    return (a + n * np.eye(n)).tolist()


def spd(seed: int, shape: tuple[int, ...], cplx: bool = False) -> list[Any]:
    g = np.random.default_rng(seed)
    a = g.uniform(-1, 1, shape)
    if cplx:
        a = a + 1j * g.uniform(-1, 1, shape)
    n = shape[-1]
    m = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)
    return m.tolist()


def pool_cases() -> list[Case]:
    out: list[Case] = []
    x = [
        [
            [[1.0], [1.0], [2.0], [2.0]],
            [[5.0], [nan], [0.0], [3.0]],
            [[2.0], [9.0], [9.0], [1.0]],
            [[0.0], [0.0], [0.0], [0.0]],
        ]
    ]
    g3 = np.arange(1, 10, dtype=np.float64).reshape(1, 3, 3, 1).tolist()
    z3 = np.zeros((1, 3, 3, 1)).tolist()
    v = {"ksize": [1, 2, 2, 1], "strides": [1, 1, 1, 1], "padding": "VALID"}
    for dt in ["float32", "float64", "float16", "bfloat16"]:
        out.append(("MaxPoolGrad", dt, {"orig_input": x, "orig_output": z3, "grad": g3}, v))
    # ties everywhere, several channels and batches, SAME with stride 2
    xi = rint(1, (2, 5, 6, 3))
    for dt in ["float32", "int32", "uint8", "int64", "float16"]:
        for ks, st, pad in [
            ([1, 2, 2, 1], [1, 2, 2, 1], "SAME"),
            ([1, 3, 2, 1], [1, 1, 2, 1], "VALID"),
            ([1, 3, 3, 1], [1, 2, 1, 1], "SAME"),
        ]:
            oh = (5 - ks[1]) // st[1] + 1 if pad == "VALID" else -(-5 // st[1])
            ow = (6 - ks[2]) // st[2] + 1 if pad == "VALID" else -(-6 // st[2])
            g = rint(2, (2, oh, ow, 3), 1, 50)
            out.append(
                (
                    "MaxPoolGrad",
                    dt,
                    {"orig_input": xi, "orig_output": np.zeros((2, oh, ow, 3)).tolist(), "grad": g},
                    {"ksize": ks, "strides": st, "padding": pad},
                )
            )
    # explicit padding, NaNs and -inf in random data
    xr = np.array(rnd(3, (1, 4, 5, 2)))
    xr[0, 0, 0, 0] = nan
    xr[0, 2, 3, 1] = -inf
    xr[0, 1, 1, 0] = nan
    out.append(
        (
            "MaxPoolGrad",
            "float32",
            {
                "orig_input": xr.tolist(),
                "orig_output": np.zeros((1, 4, 2, 2)).tolist(),
                "grad": rnd(4, (1, 4, 2, 2)),
            },
            {
                "ksize": [1, 2, 2, 1],
                "strides": [1, 1, 2, 1],
                "padding": "EXPLICIT",
                "explicit_paddings": [0, 0, 1, 0, 0, 0, 0, 0],
            },
        )
    )
    # integer wrap while accumulating
    out.append(
        (
            "MaxPoolGrad",
            "int8",
            {
                "orig_input": [[[[1], [1]], [[1], [1]]]],
                "orig_output": [[[[0], [0]], [[0], [0]]]],
                "grad": [[[[100], [100]], [[100], [100]]]],
            },
            {"ksize": [1, 2, 2, 1], "strides": [1, 1, 1, 1], "padding": "SAME"},
        )
    )
    out.append(
        (
            "MaxPoolGradV2",
            "float32",
            {
                "orig_input": x,
                "orig_output": z3,
                "grad": g3,
                "ksize": ([1, 2, 2, 1], "int32"),
                "strides": ([1, 1, 1, 1], "int32"),
            },
            {"padding": "VALID"},
        )
    )
    out.append(
        (
            "MaxPoolGradV2",
            "float64",
            {
                "orig_input": xi,
                "orig_output": np.zeros((2, 3, 3, 3)).tolist(),
                "grad": rint(5, (2, 3, 3, 3), 1, 9),
                "ksize": ([[1, 2], [2, 1]], "int32"),
                "strides": ([1, 2, 2, 1], "int32"),
            },
            {"padding": "SAME"},
        )
    )
    # MaxPoolGrad errors
    e = {"orig_input": x, "orig_output": z3, "grad": g3}
    out.append(("MaxPoolGrad", "float32", e, {**v, "data_format": "NCHW"}))
    out.append(("MaxPoolGrad", "float32", {**e, "grad": np.ones((1, 2, 2, 1)).tolist()}, v))
    out.append(("MaxPoolGrad", "float32", {**e, "orig_output": z3[0]}, v))
    out.append(("MaxPoolGrad", "float32", {**e, "orig_input": x[0]}, v))
    out.append(("MaxPoolGrad", "float32", {**e, "grad": g3[0]}, v))
    out.append(("MaxPoolGrad", "float32", e, {**v, "ksize": [2, 2, 2, 1]}))
    out.append(("MaxPoolGrad", "float32", e, {**v, "ksize": [1, 2, 2, 2], "strides": [1, 1, 1, 2]}))
    out.append(("MaxPoolGrad", "float32", e, {**v, "padding": "SAME"}))
    out.append(("MaxPoolGrad", "float32", e, {**v, "strides": [1, 0, 1, 1]}))
    out.append(
        (
            "MaxPoolGrad",
            "float32",
            e,
            {**v, "padding": "EXPLICIT", "explicit_paddings": [1, 0, 0, 0, 0, 0, 0, 0]},
        )
    )
    out.append(
        (
            "MaxPoolGrad",
            "float32",
            e,
            {**v, "padding": "EXPLICIT", "explicit_paddings": [0, 0, -1, 0, 0, 0, 0, 0]},
        )
    )
    out.append(
        (
            "MaxPoolGrad",
            "float32",
            e,
            {**v, "padding": "EXPLICIT", "explicit_paddings": [0, 0, 0, 0]},
        )
    )
    out.append(
        (
            "MaxPoolGradV2",
            "float32",
            {**e, "ksize": ([1, 2, 2], "int32"), "strides": ([1, 1, 1, 1], "int32")},
            {"padding": "VALID"},
        )
    )
    out.append(
        (
            "MaxPoolGradV2",
            "float32",
            {**e, "ksize": ([1, 2, 2, 1], "int32"), "strides": ([1, 1, 1, 1], "int32")},
            {"padding": "VALID", "data_format": "NCHW"},
        )
    )
    # AvgPoolGrad
    for dt in ["float32", "float64", "float16", "bfloat16"]:
        for shp, ks, st, pad in [
            ([1, 3, 3, 1], [1, 2, 2, 1], [1, 2, 2, 1], "SAME"),
            ([2, 5, 4, 3], [1, 3, 2, 1], [1, 1, 2, 1], "VALID"),
            ([2, 5, 4, 3], [1, 3, 3, 1], [1, 2, 1, 1], "SAME"),
        ]:
            if pad == "SAME":
                oh, ow = -(-shp[1] // st[1]), -(-shp[2] // st[2])
            else:
                oh, ow = (shp[1] - ks[1]) // st[1] + 1, (shp[2] - ks[2]) // st[2] + 1
            out.append(
                (
                    "AvgPoolGrad",
                    dt,
                    {"orig_input_shape": (shp, "int32"), "grad": rnd(6, (shp[0], oh, ow, shp[3]))},
                    {"ksize": ks, "strides": st, "padding": pad},
                )
            )
    ga = np.arange(1, 5, dtype=np.float64).reshape(1, 2, 2, 1).tolist()
    av = {"ksize": [1, 2, 2, 1], "strides": [1, 1, 1, 1], "padding": "VALID"}
    out.append(
        ("AvgPoolGrad", "float32", {"orig_input_shape": ([2, 3, 3, 1], "int32"), "grad": ga}, av)
    )
    out.append(
        (
            "AvgPoolGrad",
            "float32",
            {"orig_input_shape": ([1, 3, 3, 1], "int32"), "grad": ga},
            {**av, "ksize": [2, 2, 2, 1]},
        )
    )
    out.append(
        (
            "AvgPoolGrad",
            "float32",
            {"orig_input_shape": ([1, 3, 3, 1], "int32"), "grad": ga},
            {**av, "ksize": [1, 0, 2, 1]},
        )
    )
    out.append(
        (
            "AvgPoolGrad",
            "float32",
            {"orig_input_shape": ([1, 3, 3, 1], "int32"), "grad": ga},
            {**av, "strides": [1, 0, 1, 1]},
        )
    )
    out.append(
        ("AvgPoolGrad", "float32", {"orig_input_shape": ([1, 3, -3, 1], "int32"), "grad": ga}, av)
    )
    out.append(
        (
            "AvgPoolGrad",
            "float32",
            {"orig_input_shape": ([1, 3, 3, 1], "int32"), "grad": ga},
            {**av, "ksize": [1, 2, 2, 2], "strides": [1, 1, 1, 2]},
        )
    )
    return out


def topk_cases() -> list[Case]:
    out: list[Case] = []
    p = [
        [1.0, 2.0, 3.0, 2.0],
        [1.0, nan, 3.0, 0.0],
        [inf, 1.0, 1.0, 0.0],
        [2.0, 2.0, 2.0, 2.0],
        [0.5, -1.0, 4.0, 4.0],
        [-inf, 1.0, 2.0, 3.0],
    ]
    for tdt in ["int32", "int64"]:
        for k in [-1, 0, 1, 2, 3, 4, 5]:
            out.append(
                (
                    "InTopK",
                    "float32",
                    {"predictions": p, "targets": ([1, 0, 0, 3, 3, 2], tdt)},
                    {"k": k},
                )
            )
        out.append(
            (
                "InTopK",
                "float32",
                {"predictions": p, "targets": ([4, -1, 1, 0, 2, 3], tdt)},
                {"k": 2},
            )
        )
        for k in [1, 2, 2**31 - 1] if tdt == "int64" else [1, 2]:
            out.append(
                (
                    "InTopKV2",
                    "float32",
                    {"predictions": p, "targets": ([1, 2, 1, 0, 3, 3], tdt), "k": (k, tdt)},
                    {},
                )
            )
    r = rnd(7, (20, 9))
    out.append(
        (
            "InTopK",
            "float32",
            {"predictions": r, "targets": (rint(8, (20,), 0, 9), "int32")},
            {"k": 3},
        )
    )
    out.append(
        ("InTopK", "float32", {"predictions": np.zeros((0, 3)), "targets": ([], "int32")}, {"k": 1})
    )
    out.append(
        (
            "InTopK",
            "float32",
            {"predictions": np.zeros((2, 0)).tolist(), "targets": ([0, 0], "int32")},
            {"k": 1},
        )
    )
    # errors
    out.append(
        ("InTopK", "float32", {"predictions": [1.0, 2.0], "targets": ([1], "int32")}, {"k": 1})
    )
    out.append(
        ("InTopK", "float32", {"predictions": [[1.0, 2.0]], "targets": ([[1]], "int32")}, {"k": 1})
    )
    out.append(
        ("InTopK", "float32", {"predictions": [[1.0, 2.0]], "targets": ([1, 0], "int32")}, {"k": 1})
    )
    out.append(
        (
            "InTopKV2",
            "float32",
            {"predictions": [[1.0, 2.0]], "targets": ([1], "int32"), "k": ([1], "int32")},
            {},
        )
    )
    return out


def bias_cases() -> list[Case]:
    out: list[Case] = []
    for dt in ["float32", "float64", "float16", "bfloat16"]:
        out.append(("BiasAddGrad", dt, {"out_backprop": rnd(9, (3, 4, 5))}, {}))
        out.append(
            ("BiasAddGrad", dt, {"out_backprop": rnd(10, (2, 3, 4, 5))}, {"data_format": "NCHW"})
        )
    for dt in ["int32", "int8", "uint8", "int64", "uint16", "uint64"]:
        out.append(("BiasAddGrad", dt, {"out_backprop": rint(11, (6, 3, 4), 0, 120)}, {}))
    out.append(
        (
            "BiasAddGrad",
            "complex64",
            {"out_backprop": (np.array(rnd(12, (4, 3))) + 1j * np.array(rnd(13, (4, 3)))).tolist()},
            {},
        )
    )
    out.append(
        (
            "BiasAddGrad",
            "float32",
            {"out_backprop": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]},
            {"data_format": "NCHW"},
        )
    )
    out.append(("BiasAddGrad", "float32", {"out_backprop": np.zeros((0, 3))}, {}))
    out.append(("BiasAddGrad", "float32", {"out_backprop": np.zeros((2, 0))}, {}))
    out.append(("BiasAddGrad", "float32", {"out_backprop": [1.0, 2.0]}, {}))
    out.append(("BiasAddGrad", "float32", {"out_backprop": 1.0}, {}))
    return out


def linalg_cases() -> list[Case]:
    out: list[Case] = []
    cdt = ["complex64", "complex128"]
    for dt in ["float32", "float64", *cdt]:
        c = dt in cdt
        m = well_conditioned(20, (2, 3, 4, 4), c)
        gen = rnd(21, (3, 5, 5))
        if c:
            gen = (np.array(gen) + 1j * np.array(rnd(22, (3, 5, 5)))).tolist()
        for op in ["MatrixDeterminant", "LogMatrixDeterminant"]:
            out.append((op, dt, {"input": m}, {}))
            out.append((op, dt, {"input": gen}, {}))
            out.append((op, dt, {"input": [[1.0, 2.0], [2.0, 4.0]]}, {}))
            out.append((op, dt, {"input": np.zeros((2, 0, 0))}, {}))
        for adj in [False, True]:
            out.append(("MatrixInverse", dt, {"input": m}, {"adjoint": adj}))
            out.append(("MatrixInverse", dt, {"input": gen}, {"adjoint": adj}))
            rhs = rnd(23, (2, 3, 4, 3))
            out.append(("MatrixSolve", dt, {"matrix": m, "rhs": rhs}, {"adjoint": adj}))
        out.append(("Cholesky", dt, {"input": spd(24, (2, 5, 5), c)}, {}))
        out.append(("Cholesky", dt, {"input": spd(25, (1, 1), c)}, {}))
        tri = rnd(26, (2, 4, 4))
        tri = (np.array(tri) + 5 * np.eye(4)).tolist()
        if c:
            tri = (np.array(tri) + 1j * np.array(rnd(27, (2, 4, 4)))).tolist()
        for lower in [True, False]:
            for adj in [False, True]:
                out.append(
                    (
                        "MatrixTriangularSolve",
                        dt,
                        {"matrix": tri, "rhs": rnd(28, (2, 4, 3))},
                        {"lower": lower, "adjoint": adj},
                    )
                )
        out.append(("MatrixTriangularSolve", dt, {"matrix": tri, "rhs": rnd(29, (3, 1, 4, 2))}, {}))
    out.append(("MatrixDeterminant", "float32", {"input": [[1.0, nan], [0.0, 1.0]]}, {}))
    out.append(("LogMatrixDeterminant", "float32", {"input": [[1e30, 0.0], [0.0, -1e30]]}, {}))
    out.append(("LogMatrixDeterminant", "float64", {"input": np.zeros((2, 2)).tolist()}, {}))
    out.append(("MatrixInverse", "float32", {"input": [[1.0, nan], [0.0, 1.0]]}, {}))
    out.append(("MatrixInverse", "float32", {"input": [[nan, 0.0], [0.0, 1.0]]}, {}))
    out.append(("MatrixInverse", "float64", {"input": [[1.0, 2.0], [1.0, 2.0 + 1e-12]]}, {}))
    out.append(("MatrixInverse", "float64", {"input": [[1.0, 2.0], [2.0, 4.0]]}, {}))
    out.append(("MatrixInverse", "float32", {"input": np.zeros((0, 2, 2))}, {}))
    out.append(("Cholesky", "float64", {"input": [[4.0, 0.0], [2.0, nan]]}, {}))
    out.append(
        ("MatrixSolve", "float32", {"matrix": [[1.0, 2.0], [2.0, 4.0]], "rhs": [[1.0], [1.0]]}, {})
    )
    out.append(
        ("MatrixSolve", "float32", {"matrix": np.ones((2, 3)).tolist(), "rhs": [[1.0], [1.0]]}, {})
    )
    out.append(
        (
            "MatrixSolve",
            "float32",
            {"matrix": [[1.0, 2.0], [3.0, 4.0]], "rhs": np.ones((3, 1)).tolist()},
            {},
        )
    )
    out.append(
        ("MatrixSolve", "float32", {"matrix": [[1.0, 2.0], [3.0, 4.0]], "rhs": [1.0, 1.0]}, {})
    )
    out.append(
        (
            "MatrixSolve",
            "float32",
            {"matrix": np.ones((2, 2, 2)).tolist(), "rhs": np.ones((3, 2, 1)).tolist()},
            {},
        )
    )
    out.append(
        ("MatrixSolve", "float32", {"matrix": np.zeros((0, 0)), "rhs": np.zeros((0, 3))}, {})
    )
    out.append(
        (
            "MatrixTriangularSolve",
            "float32",
            {"matrix": [[0.0, 0.0], [1.0, 1.0]], "rhs": [[1.0], [1.0]]},
            {},
        )
    )
    out.append(
        (
            "MatrixTriangularSolve",
            "float32",
            {"matrix": [[1.0, 0.0], [1.0, 1.0]], "rhs": [1.0, 1.0]},
            {},
        )
    )
    out.append(
        (
            "MatrixTriangularSolve",
            "float32",
            {"matrix": [[1.0, 0.0], [1.0, 1.0]], "rhs": np.ones((3, 1)).tolist()},
            {},
        )
    )
    out.append(
        (
            "MatrixTriangularSolve",
            "float32",
            {"matrix": np.ones((2, 3)).tolist(), "rhs": np.ones((2, 1)).tolist()},
            {},
        )
    )
    out.append(
        (
            "MatrixTriangularSolve",
            "float32",
            {"matrix": np.ones((3, 2, 2)).tolist(), "rhs": np.ones((2, 2, 1)).tolist()},
            {},
        )
    )
    for op in ["MatrixDeterminant", "LogMatrixDeterminant", "MatrixInverse", "Cholesky"]:
        out.append((op, "float32", {"input": [1.0, 2.0, 3.0]}, {}))
        out.append((op, "float32", {"input": np.ones((2, 3)).tolist()}, {}))
    return out


def argmax_lrn_cases() -> list[Case]:
    out: list[Case] = []
    x = np.array([1, 1, 2, 2, 5, nan, 0, 3, 2, 9, 9, 1, 0, 0, 0, 0], np.float64).reshape(1, 4, 4, 1)
    xx = np.concatenate([x, 2 * x], 3)
    xb = np.concatenate([x, x[:, ::-1]], 0)
    v = {"ksize": [1, 2, 2, 1], "strides": [1, 1, 1, 1], "padding": "VALID"}
    s2 = {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1], "padding": "SAME"}
    for dt in ["float32", "float64", "float16", "bfloat16"]:
        out.append(("MaxPoolWithArgmax", dt, {"input": x}, v))
    out.append(
        ("MaxPoolWithArgmax", "float32", {"input": xx}, {**s2, "include_batch_in_index": True})
    )
    for tg in ["int32", "int64"]:
        for ib in [False, True]:
            out.append(
                (
                    "MaxPoolWithArgmax",
                    "float32",
                    {"input": xb},
                    {**s2, "include_batch_in_index": ib, "Targmax": tg},
                )
            )
    xi = rint(30, (2, 5, 6, 3), 0, 4)
    for dt in ["int32", "uint8", "int64", "uint64"]:
        out.append(
            (
                "MaxPoolWithArgmax",
                dt,
                {"input": xi},
                {"ksize": [1, 3, 2, 1], "strides": [1, 2, 1, 1], "padding": "SAME"},
            )
        )
    out.append(("MaxPoolWithArgmax", "float32", {"input": np.full((1, 2, 2, 1), -inf)}, s2))
    out.append(
        (
            "MaxPoolWithArgmax",
            "float32",
            {"input": np.ones((1, 2, 2, 1))},
            {**s2, "strides": [1, 2, 2, 2]},
        )
    )
    out.append(
        (
            "MaxPoolWithArgmax",
            "float32",
            {"input": np.ones((1, 2, 2, 1))},
            {**s2, "ksize": [1, 3, 2, 1], "padding": "VALID"},
        )
    )
    # errors
    out.append(("MaxPoolWithArgmax", "float32", {"input": np.ones((2, 2, 1))}, s2))
    out.append(("MaxPoolWithArgmax", "float32", {"input": np.ones((0, 2, 2, 1))}, s2))
    out.append(
        (
            "MaxPoolWithArgmax",
            "float32",
            {"input": np.ones((1, 2, 2, 1))},
            {**s2, "ksize": [1, 2, 0, 1]},
        )
    )
    out.append(
        (
            "MaxPoolWithArgmax",
            "float32",
            {"input": np.ones((1, 2, 2, 1))},
            {**s2, "ksize": [1, 2, 2, 2], "strides": [1, 2, 2, 2]},
        )
    )
    out.append(
        (
            "MaxPoolWithArgmax",
            "float32",
            {"input": np.ones((1, 2, 2, 1))},
            {**s2, "ksize": [1, 1, 1, 2], "strides": [1, 1, 1, 2]},
        )
    )
    out.append(
        (
            "MaxPoolWithArgmax",
            "float32",
            {"input": np.ones((1, 2, 2, 1))},
            {**s2, "strides": [1, 0, 2, 1]},
        )
    )
    d2 = np.arange(8.0).reshape(1, 2, 2, 2)
    out.append(
        (
            "MaxPoolWithArgmax",
            "float32",
            {"input": d2},
            {"ksize": [1, 1, 1, 2], "strides": [1, 1, 1, 2], "padding": "VALID"},
        )
    )
    out.append(
        (
            "MaxPoolWithArgmax",
            "float32",
            {"input": d2},
            {"ksize": [1, 1, 1, 2], "strides": [1, 1, 1, 1], "padding": "VALID"},
        )
    )
    out.append(
        (
            "MaxPoolWithArgmax",
            "float32",
            {"input": np.ones((1, 2, 2, 1))},
            {**s2, "ksize": [2, 2, 2, 1]},
        )
    )
    # LRN
    a = rnd(31, (2, 2, 3, 7))
    for dt in ["float32", "float16"]:
        for attrs in [
            {},
            {"depth_radius": 2, "bias": 1.0, "alpha": 0.5, "beta": 0.75},
            {"depth_radius": 1, "bias": 2.0, "alpha": 0.1, "beta": 1.0},
            {"depth_radius": 0, "bias": 0.5, "alpha": 1.0, "beta": 0.5},
            {"depth_radius": 100, "beta": 0.3},
        ]:
            out.append(("LRN", dt, {"input": a}, attrs))
            out.append(
                (
                    "LRNGrad",
                    dt,
                    {
                        "input_grads": rnd(32, (2, 2, 3, 7)),
                        "input_image": a,
                        "output_image": rnd(33, (2, 2, 3, 7)),
                    },
                    attrs,
                )
            )
    out.append(
        (
            "LRN",
            "float32",
            {"input": [[[[nan, 1.0, -inf, 2.0]], [[1.0, 2.0, 3.0, 4.0]]]]},
            {"depth_radius": 1},
        )
    )
    out.append(
        (
            "LRNGrad",
            "float32",
            {
                "input_grads": [[[[0.0, 1.0, 0.0, 0.0]]]],
                "input_image": [[[[nan, 1.0, 2.0, 3.0]]]],
                "output_image": [[[[nan, 1.0, 2.0, 3.0]]]],
            },
            {"depth_radius": 1},
        )
    )
    out.append(
        (
            "LRNGrad",
            "float32",
            {
                "input_grads": [[[[0.0, 1.0, 0.0, 0.0]]]],
                "input_image": [[[[nan, 1.0, 2.0, 3.0]]]],
                "output_image": [[[[nan, 1.0, 2.0, 3.0]]]],
            },
            {"depth_radius": 2},
        )
    )
    out.append(("LRN", "float32", {"input": np.zeros((1, 1, 1, 0))}, {}))
    out.append(("LRN", "float32", {"input": np.ones((2, 6))}, {}))
    out.append(("LRN", "float32", {"input": np.ones((1, 1, 1, 6))}, {"depth_radius": -1}))
    out.append(("LRN", "float32", {"input": np.ones((1, 1, 1, 6))}, {"depth_radius": 2**31 - 1}))
    out.append(
        (
            "LRNGrad",
            "float32",
            {
                "input_grads": np.ones((1, 1, 1, 6)),
                "input_image": np.ones((1, 1, 1, 6)),
                "output_image": np.ones((1, 1, 1, 5)),
            },
            {},
        )
    )
    out.append(
        (
            "LRNGrad",
            "float32",
            {
                "input_grads": np.ones((1, 1, 6)),
                "input_image": np.ones((1, 1, 6)),
                "output_image": np.ones((1, 1, 6)),
            },
            {},
        )
    )
    out.append(
        (
            "LRNGrad",
            "float32",
            {
                "input_grads": np.ones((1, 1, 1, 6)),
                "input_image": np.ones((1, 1, 1, 6)),
                "output_image": np.ones((1, 1, 1, 6)),
            },
            {"depth_radius": -1},
        )
    )
    return out


def resize_grad_cases() -> list[Case]:
    out: list[Case] = []
    flags = [
        {},
        {"align_corners": True},
        {"half_pixel_centers": True},
    ]
    for dt in ["float32", "float64", "float16", "bfloat16"]:
        for fl in flags:
            for rs, orig in [
                ((2, 5, 7, 3), (2, 3, 4, 3)),
                ((1, 2, 3, 2), (1, 5, 4, 2)),
                ((1, 1, 1, 1), (1, 3, 3, 1)),
            ]:
                out.append(
                    (
                        "ResizeBilinearGrad",
                        dt,
                        {"grads": (rnd(40, rs), "float32"), "original_image": np.zeros(orig)},
                        fl,
                    )
                )
    for dt in ["float32", "float64", "float16", "int32", "uint8", "int8", "bfloat16"]:
        for fl in [*flags, {"align_corners": True, "half_pixel_centers": True}]:
            for rs, size in [
                ((2, 5, 7, 3), [3, 4]),
                ((1, 2, 3, 2), [5, 4]),
                ((1, 3, 3, 1), [1, 1]),
            ]:
                out.append(
                    (
                        "ResizeNearestNeighborGrad",
                        dt,
                        {"grads": rint(41, rs, 0, 100), "size": (size, "int32")},
                        fl,
                    )
                )
    # output takes batch and depth from grads
    out.append(
        (
            "ResizeBilinearGrad",
            "float32",
            {"grads": (rnd(42, (1, 3, 3, 1)), "float32"), "original_image": np.zeros((2, 2, 2, 2))},
            {},
        )
    )
    out.append(
        (
            "ResizeNearestNeighborGrad",
            "float32",
            {"grads": np.zeros((1, 0, 3, 1)), "size": ([2, 2], "int32")},
            {},
        )
    )
    # errors
    g = (np.ones((1, 3, 3, 1)), "float32")
    out.append(
        (
            "ResizeBilinearGrad",
            "float32",
            {"grads": g, "original_image": np.ones((1, 2, 2, 1))},
            {"align_corners": True, "half_pixel_centers": True},
        )
    )
    out.append(
        (
            "ResizeBilinearGrad",
            "float32",
            {"grads": (np.ones((3, 3, 1)), "float32"), "original_image": np.ones((1, 2, 2, 1))},
            {},
        )
    )
    out.append(
        ("ResizeBilinearGrad", "float32", {"grads": g, "original_image": np.ones((2, 2, 1))}, {})
    )
    out.append(
        ("ResizeBilinearGrad", "float32", {"grads": g, "original_image": np.ones((1, 0, 2, 1))}, {})
    )
    out.append(
        (
            "ResizeBilinearGrad",
            "float32",
            {"grads": (np.ones((1, 0, 3, 1)), "float32"), "original_image": np.ones((1, 2, 2, 1))},
            {},
        )
    )
    out.append(
        (
            "ResizeNearestNeighborGrad",
            "float32",
            {"grads": np.ones((3, 3, 1)), "size": ([2, 2], "int32")},
            {},
        )
    )
    out.append(
        ("ResizeNearestNeighborGrad", "float32", {"grads": g[0], "size": ([[2, 2]], "int32")}, {})
    )
    out.append(
        ("ResizeNearestNeighborGrad", "float32", {"grads": g[0], "size": ([2, 2, 2], "int32")}, {})
    )
    out.append(
        ("ResizeNearestNeighborGrad", "float32", {"grads": g[0], "size": ([0, 2], "int32")}, {})
    )
    return out


def half_inverse_cases() -> list[Case]:
    m = well_conditioned(50, (3, 4, 4))
    return [
        ("MatrixInverse", "float16", {"input": m}, {}),
        ("MatrixInverse", "float16", {"input": m}, {"adjoint": True}),
        ("MatrixInverse", "float16", {"input": [[1.0, 2.0], [2.0, 4.0]]}, {}),
    ]


def qr_cases() -> list[Case]:
    out: list[Case] = []
    for dt in ["float32", "float64", "complex64", "complex128", "float16"]:
        c = dt.startswith("complex")
        for shape in [(4, 4), (2, 5, 3), (3, 5), (1, 1)]:
            a = np.array(rnd(60, shape))
            if c:
                a = a + 1j * np.array(rnd(61, shape))
            for full in [False, True]:
                out.append(("Qr", dt, {"input": a.tolist()}, {"full_matrices": full}))
    # columns that need no reflection, a negative pivot, rank deficiency
    out.append(("Qr", "float64", {"input": [[-1.0, 0.0], [0.0, 1.0]]}, {}))
    out.append(
        ("Qr", "float64", {"input": [[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]]}, {"full_matrices": True})
    )
    out.append(("Qr", "float32", {"input": np.zeros((2, 3))}, {}))
    out.append(("Qr", "float32", {"input": np.zeros((0, 3))}, {"full_matrices": True}))
    out.append(("Qr", "float32", {"input": np.zeros((3, 0))}, {"full_matrices": True}))
    out.append(("Qr", "float32", {"input": np.zeros((3, 0))}, {}))
    out.append(("Qr", "float32", {"input": [1.0, 2.0]}, {}))
    return out


def eig_cases() -> list[Case]:
    out: list[Case] = []
    for dt in ["float32", "float64", "complex64", "complex128"]:
        c = dt.startswith("complex")
        for seed, n in [(70, 1), (71, 2), (72, 3), (73, 5), (74, 8)]:
            m = np.array(spd(seed, (2, n, n), c)) - 1.5 * n * np.eye(n)
            out.append(("SelfAdjointEigV2", dt, {"input": m.tolist()}, {}))
            out.append(("SelfAdjointEigV2", dt, {"input": m.tolist()}, {"compute_v": False}))
    out.append(("SelfAdjointEigV2", "float64", {"input": np.eye(3)}, {}))
    out.append(("SelfAdjointEigV2", "float64", {"input": np.zeros((3, 3))}, {}))
    out.append(("SelfAdjointEigV2", "float64", {"input": [[2.0, 99.0], [1.0, 2.0]]}, {}))
    out.append(("SelfAdjointEigV2", "float64", {"input": np.diag([3.0, 1.0, 2.0, 1.0])}, {}))
    out.append(("SelfAdjointEigV2", "float32", {"input": np.zeros((2, 0, 0))}, {}))
    out.append(("SelfAdjointEigV2", "float32", {"input": np.ones((2, 3))}, {}))
    out.append(("SelfAdjointEigV2", "float32", {"input": [[nan, 0.0], [0.0, 1.0]]}, {}))
    return out


def lu_cases() -> list[Case]:
    out: list[Case] = []
    for dt in ["float32", "float64", "complex64", "complex128"]:
        c = dt.startswith("complex")
        for seed, shape in [(80, (4, 4)), (81, (2, 3, 5, 5)), (82, (1, 1))]:
            a = np.array(rnd(seed, shape))
            if c:
                a = a + 1j * np.array(rnd(seed + 10, shape))
            for it in ["int32", "int64"]:
                out.append(("Lu", dt, {"input": a.tolist()}, {"output_idx_type": it}))
    out.append(
        ("Lu", "float64", {"input": [[0.0, 2.0, 1.0], [1.0, 1.0, 1.0], [2.0, 1.0, 0.0]]}, {})
    )
    out.append(("Lu", "float32", {"input": np.zeros((2, 0, 0))}, {}))
    out.append(("Lu", "float32", {"input": [[1.0, 2.0], [2.0, 4.0]]}, {}))
    out.append(("Lu", "float32", {"input": [[nan, 2.0], [3.0, 4.0]]}, {}))
    out.append(("Lu", "float32", {"input": [[1.0, nan], [0.0, 1.0]]}, {}))
    out.append(("Lu", "float32", {"input": np.ones((2, 3))}, {}))
    out.append(("Lu", "float32", {"input": [1.0, 2.0, 3.0]}, {}))
    return out


def cases() -> list[Case]:
    return [
        *bias_cases(),
        *pool_cases(),
        *topk_cases(),
        *linalg_cases(),
        *argmax_lrn_cases(),
        *resize_grad_cases(),
        *half_inverse_cases(),
        *qr_cases(),
        *eig_cases(),
        *lu_cases(),
    ]


CASES = cases()
EXPECTED = json.loads((pathlib.Path(__file__).parent / "ops_nnlinalg_tf221.json").read_text())


def _np(v: Any, dt: str) -> np.ndarray:
    if isinstance(v, tuple):
        v, dt = v
    if dt == "bfloat16":
        return np.array(v, dtype=np.float32)
    return np.array(v, dtype=dt)


def _flat(n: np.ndarray) -> np.ndarray:
    if np.iscomplexobj(n):
        return np.stack([n.real.ravel(), n.imag.ravel()], axis=-1).astype(np.float64)
    return n.astype(np.float64).ravel()


def _make(v: Any, dt: str) -> Any:
    arr = _np(v, dt)
    if not isinstance(v, tuple) and dt == "bfloat16":
        return ops.Cast(x=constant(arr), DstT="bfloat16")
    return constant(arr)


def test_case_table_matches_recording() -> None:
    assert len(CASES) == len(EXPECTED)


def _check(op: str, dt: str, got: Any, want: list[Any], lower_only: bool) -> None:
    want_vals, want_dt, want_shape = want
    if want_dt == "bfloat16":
        got = ops.Cast(x=got, DstT="float32").numpy()
        want_dt = "float32"
    else:
        got = got.numpy()
    assert got.dtype == np.dtype(want_dt)
    assert list(got.shape) == want_shape
    a = _flat(got)
    b = np.asarray(want_vals, dtype=np.float64).reshape(a.shape)
    if lower_only:
        # TF leaves the upper triangle of a failed Cholesky uninitialized.
        n = want_shape[-1]
        mask = np.tril(np.ones((n, n), bool))
        mask = np.broadcast_to(mask, tuple(want_shape)).ravel()
        if got.dtype.kind == "c":
            mask = np.repeat(mask, 2)
        a, b = a[mask], b[mask]
    both_nan = np.isnan(a) & np.isnan(b)
    assert np.array_equal(np.isnan(a), np.isnan(b)), (a, b)
    if op in APPROX_OPS:
        tol = TOL[dt] if dt in TOL else 0.0
        scale = np.max(np.abs(b[np.isfinite(b)]), initial=1.0)
        with np.errstate(invalid="ignore"):
            close = (a == b) | both_nan | (np.abs(a - b) <= tol * scale)
        assert close.all(), (a, b)
    else:
        assert ((a == b) | both_nan).all(), (a, b)


@pytest.mark.parametrize(
    "i", range(len(CASES)), ids=[f"{c[0]}-{c[1]}-{j}" for j, c in enumerate(CASES)]
)
def test_against_tf(i: int) -> None:
    op, dt, ins, attrs = CASES[i]
    exp = EXPECTED[i]
    kw = {k: _make(v, dt) for k, v in ins.items()}
    if "err" in exp:
        with pytest.raises(errors.OpError) as ei:
            getattr(ops, op)(**kw, **attrs)
        assert type(ei.value).__name__ == exp["err"]
        assert str(ei.value).split("\n")[0] == exp["msg"]
        return
    res = getattr(ops, op)(**kw, **attrs)
    outs = list(res) if isinstance(res, (list, tuple)) else [res]
    assert len(outs) == len(exp["ok"])
    failed_chol = op == "Cholesky" and bool(
        np.isnan(np.asarray(exp["ok"][0][0], dtype=np.float64)).any()
    )
    if op == "SelfAdjointEigV2" and attrs.get("compute_v") is False:
        # TF returns an uninitialized scalar for v: only its shape is checked
        assert list(outs[1].numpy().shape) == exp["ok"][1][2]
        outs, exp = outs[:1], {"ok": exp["ok"][:1]}
    for got, want in zip(outs, exp["ok"], strict=True):
        _check(op, dt, got, want, failed_chol)


def test_cholesky_not_positive_definite_gives_nans() -> None:
    # TF fills the lower triangle with NaN (and logs a warning); tfe also
    # zeroes the upper triangle, which TF leaves uninitialized.
    got = ops.Cholesky(input=constant(np.array([[1.0, 2.0], [2.0, 4.0]], np.float32))).numpy()
    assert np.isnan(got[np.tril_indices(2)]).all()
    assert got[0, 1] == 0.0


def test_avg_pool_grad_shape_checks() -> None:
    # TF 2.21's default CPU AvgPoolGrad (oneDNN) aborts the process or reads
    # past the buffer on these; tfe rejects them.
    g = constant(np.ones((1, 2, 2, 1), np.float32))
    kw = {"ksize": [1, 2, 2, 1], "strides": [1, 1, 1, 1], "padding": "VALID"}
    with pytest.raises(errors.InvalidArgumentError):
        ops.AvgPoolGrad(orig_input_shape=constant(np.array([1, 3, 3], np.int32)), grad=g, **kw)
    with pytest.raises(errors.InvalidArgumentError):
        ops.AvgPoolGrad(orig_input_shape=constant(np.array([1, 4, 3, 1], np.int32)), grad=g, **kw)
    with pytest.raises(errors.InvalidArgumentError):
        ops.AvgPoolGrad(orig_input_shape=constant(np.array([1, 3, 3, 2], np.int32)), grad=g, **kw)


def test_no_kernel_for_unregistered_dtypes() -> None:
    # The op definitions allow half, but TF registers no CPU kernel for it.
    with pytest.raises(errors.NotFoundError):
        ops.MatrixDeterminant(input=constant(np.eye(2, dtype=np.float16)))
    with pytest.raises(errors.NotFoundError):
        ops.Cholesky(input=constant(np.eye(2, dtype=np.float16)))
