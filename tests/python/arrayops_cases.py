"""Cases for test_ops_arrayops.py: op name, inputs (values and dtype per
input), attributes. The expected results live in ops_arrayops_tf221.json,
one entry per case in this order; they were recorded by running this file
with TensorFlow 2.21 installed:

    python tests/python/arrayops_cases.py  # rewrites the JSON

The test itself needs only numpy and tfe_py.
"""

from __future__ import annotations

import json
import math
import pathlib
import re
from typing import Any

import numpy as np

nan, inf = float("nan"), float("inf")

Inputs = dict[str, tuple[Any, str]]
Case = tuple[str, Inputs, dict[str, Any]]

JSON_PATH = pathlib.Path(__file__).parent / "ops_arrayops_tf221.json"

REAL = [
    "float32",
    "float64",
    "float16",
    "bfloat16",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
]
FLOATS = ["float32", "float64", "float16", "bfloat16"]


def rnd(seed: int, shape: tuple[int, ...], lo: float = -3, hi: float = 3) -> list[Any]:
    return np.random.default_rng(seed).uniform(lo, hi, shape).tolist()


def ints(seed: int, shape: tuple[int, ...], lo: int = -5, hi: int = 6) -> list[Any]:
    return np.random.default_rng(seed).integers(lo, hi, shape).tolist()


def cases() -> list[Case]:
    out: list[Case] = []
    add = out.append
    # gradient markers
    for dt in ["float32", "int32", "bool", "string"]:
        v = {"bool": [True, False], "string": [b"a", b"bc"]}.get(dt, [1, 2])
        add(("StopGradient", {"input": (v, dt)}, {}))
        add(("PreventGradient", {"input": (v, dt)}, {"message": "no"}))
    # numeric checks
    for dt in FLOATS:
        add(("CheckNumerics", {"tensor": ([1.0, -2.5, 0.0], dt)}, {"message": "m"}))
        add(("CheckNumericsV2", {"tensor": ([1.0, 1e30, -0.0], dt)}, {"message": "m"}))
    for v in [
        [1.0, nan],
        [inf, 1.0],
        [-inf, nan, inf],
        [-inf],
        [nan, -inf],
        [inf, nan],
        [-inf, inf],
    ]:
        for op in ["CheckNumerics", "CheckNumericsV2"]:
            add((op, {"tensor": (v, "float32")}, {"message": "bad"}))
    add(("CheckNumericsV2", {"tensor": ([1e5, nan], "float16")}, {"message": ""}))
    add(("CheckNumerics", {"tensor": (np.zeros((0, 2)).tolist(), "float64")}, {"message": "e"}))
    # Diag / DiagPart
    for dt in ["float32", "float64", "float16", "int32", "int64", "complex64", "complex128"]:
        add(("Diag", {"diagonal": ([[1, 2], [3, 4]], dt)}, {}))
        add(("DiagPart", {"input": (np.arange(36).reshape(2, 3, 2, 3).tolist(), dt)}, {}))
    add(("Diag", {"diagonal": ([5], "float32")}, {}))
    add(("Diag", {"diagonal": ([], "float32")}, {}))
    add(("Diag", {"diagonal": (3.0, "float32")}, {}))
    add(("DiagPart", {"input": ([[1, 2], [3, 4]], "float32")}, {}))
    add(("DiagPart", {"input": (np.zeros((0, 0)).tolist(), "float32")}, {}))
    add(("DiagPart", {"input": ([[1, 2, 3], [4, 5, 6]], "float32")}, {}))
    add(("DiagPart", {"input": ([1, 2], "float32")}, {}))
    add(("DiagPart", {"input": (2.0, "float32")}, {}))
    add(("DiagPart", {"input": (np.zeros((2, 3, 2, 4)).tolist(), "float32")}, {}))
    # LinSpace
    for dt in ["float32", "float64"]:
        for a, b, n in [
            (0.0, 1.0, 5),
            (-3.0, 7.3, 11),
            (1.0, 2.0, 1),
            (5.0, -5.0, 7),
            (0.1, 0.7, 3),
        ]:
            add(("LinSpace", {"start": (a, dt), "stop": (b, dt), "num": (n, "int32")}, {}))
    add(
        ("LinSpace", {"start": (0.0, "float32"), "stop": (1.0, "float32"), "num": (4, "int64")}, {})
    )
    add(
        ("LinSpace", {"start": (0.0, "float32"), "stop": (nan, "float32"), "num": (3, "int32")}, {})
    )
    add(
        ("LinSpace", {"start": (1.0, "float32"), "stop": (2.0, "float32"), "num": (0, "int32")}, {})
    )
    add(
        (
            "LinSpace",
            {"start": (1.0, "float32"), "stop": (2.0, "float32"), "num": (-2, "int32")},
            {},
        )
    )
    add(
        (
            "LinSpace",
            {"start": ([1.0], "float32"), "stop": (2.0, "float32"), "num": (3, "int32")},
            {},
        )
    )
    add(
        (
            "LinSpace",
            {"start": (1.0, "float32"), "stop": ([2.0], "float32"), "num": (3, "int32")},
            {},
        )
    )
    add(
        (
            "LinSpace",
            {"start": (1.0, "float32"), "stop": (2.0, "float32"), "num": ([3], "int32")},
            {},
        )
    )
    # PopulationCount
    for dt in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]:
        info = np.iinfo(dt)
        add(
            (
                "PopulationCount",
                {"x": ([0, 1, 7, int(info.max), int(info.min), -1 if info.min < 0 else 255], dt)},
                {},
            )
        )
    # Roll
    m23 = [[1, 2, 3], [4, 5, 6]]
    for shift, axis in [
        (1, 0),
        ([1], [1]),
        ([1, -1, 4], [0, 1, 1]),
        ([-7, 2], [-1, 0]),
        (5, -1),
        ([], []),
    ]:
        add(
            (
                "Roll",
                {"input": (m23, "float32"), "shift": (shift, "int32"), "axis": (axis, "int32")},
                {},
            )
        )
    add(
        (
            "Roll",
            {"input": ([b"a", b"b", b"c"], "string"), "shift": (1, "int64"), "axis": (0, "int64")},
            {},
        )
    )
    add(
        (
            "Roll",
            {"input": ([True, False, False], "bool"), "shift": (-1, "int32"), "axis": (0, "int64")},
            {},
        )
    )
    add(
        (
            "Roll",
            {
                "input": (np.arange(24).reshape(2, 3, 4).tolist(), "int64"),
                "shift": ([1, 2, 3], "int64"),
                "axis": ([0, 1, 2], "int32"),
            },
            {},
        )
    )
    add(
        (
            "Roll",
            {
                "input": (np.zeros((0, 3)).tolist(), "float32"),
                "shift": (1, "int32"),
                "axis": (1, "int32"),
            },
            {},
        )
    )
    add(
        (
            "Roll",
            {"input": ([1, 2, 3], "float32"), "shift": ([1, 2], "int32"), "axis": ([0], "int32")},
            {},
        )
    )
    add(
        (
            "Roll",
            {"input": ([1, 2, 3], "float32"), "shift": ([[1]], "int32"), "axis": ([0], "int32")},
            {},
        )
    )
    add(
        (
            "Roll",
            {"input": ([1, 2, 3], "float32"), "shift": (1, "int32"), "axis": ([[0]], "int32")},
            {},
        )
    )
    add(
        ("Roll", {"input": ([1, 2, 3], "float32"), "shift": (1, "int32"), "axis": (1, "int32")}, {})
    )
    add(
        (
            "Roll",
            {"input": ([1, 2, 3], "float32"), "shift": (1, "int32"), "axis": (-2, "int32")},
            {},
        )
    )
    add(("Roll", {"input": (3.0, "float32"), "shift": (1, "int32"), "axis": (0, "int32")}, {}))
    # LowerBound / UpperBound
    srt = [[1, 2, 2, 2, 5, 9], [0, 0, 1, 1, 1, 3]]
    vals = [[0, 1, 2, 3, 9, 10, 2], [0, 1, 3, 4, -1, 1, 0]]
    for op in ["LowerBound", "UpperBound"]:
        for dt in REAL:
            v = vals if not dt.startswith("uint") else [[max(x, 0) for x in r] for r in vals]
            add((op, {"sorted_inputs": (srt, dt), "values": (v, dt)}, {}))
        add(
            (
                op,
                {"sorted_inputs": (srt, "float32"), "values": (vals, "float32")},
                {"out_type": "int64"},
            )
        )
        add(
            (
                op,
                {
                    "sorted_inputs": ([[1.0, 2.0, nan]], "float32"),
                    "values": ([[nan, 1.5, -0.0]], "float32"),
                },
                {},
            )
        )
        add(
            (
                op,
                {
                    "sorted_inputs": (np.zeros((2, 0)).tolist(), "float32"),
                    "values": ([[1.0], [2.0]], "float32"),
                },
                {},
            )
        )
        add((op, {"sorted_inputs": ([1.0, 2.0], "float32"), "values": ([[1.0]], "float32")}, {}))
        add((op, {"sorted_inputs": ([[1.0, 2.0]], "float32"), "values": ([1.0], "float32")}, {}))
        add(
            (
                op,
                {"sorted_inputs": ([[1.0, 2.0]], "float32"), "values": ([[1.0], [2.0]], "float32")},
                {},
            )
        )
    # Bincount
    arr = [1, 1, 0, 4, 9, 2, 4, 4]
    for dt in ["int32", "int64", "float32", "float64"]:
        add(("Bincount", {"arr": (arr, "int32"), "size": (6, "int32"), "weights": ([], dt)}, {}))
        add(
            (
                "Bincount",
                {
                    "arr": (arr, "int32"),
                    "size": (6, "int32"),
                    "weights": ([1, 2, 3, 4, 5, 6, 7, 8], dt),
                },
                {},
            )
        )
    add(
        (
            "Bincount",
            {
                "arr": ([[1, 2], [2, 0]], "int32"),
                "size": (3, "int32"),
                "weights": ([0.5, 1, 2, 4], "float32"),
            },
            {},
        )
    )
    add(
        (
            "Bincount",
            {"arr": ([1, 2], "int32"), "size": (0, "int32"), "weights": ([], "float32")},
            {},
        )
    )
    add(
        (
            "Bincount",
            {"arr": ([1, -1], "int32"), "size": (3, "int32"), "weights": ([], "float32")},
            {},
        )
    )
    add(
        (
            "Bincount",
            {"arr": ([1, -1], "int32"), "size": (-3, "int32"), "weights": ([], "float32")},
            {},
        )
    )
    add(
        (
            "Bincount",
            {"arr": ([1, 2], "int32"), "size": ([3], "int32"), "weights": ([], "float32")},
            {},
        )
    )
    add(
        (
            "Bincount",
            {"arr": ([1, 2], "int32"), "size": (3, "int32"), "weights": ([1, 2, 3], "float32")},
            {},
        )
    )
    # ListDiff
    for dt in ["int32", "int64", "float32", "uint8", "float16"]:
        add(("ListDiff", {"x": ([1, 2, 3, 4, 2, 6, 1], dt), "y": ([1, 3, 5], dt)}, {}))
    add(
        (
            "ListDiff",
            {"x": ([1, 2, 3], "int32"), "y": ([3, 2, 1, 1], "int32")},
            {"out_idx": "int64"},
        )
    )
    add(("ListDiff", {"x": ([0.0, -0.0, nan, 1.0], "float32"), "y": ([0.0, nan], "float32")}, {}))
    add(
        ("ListDiff", {"x": ([b"a", b"bb", b"", b"a"], "string"), "y": ([b"a", b"c"], "string")}, {})
    )
    add(("ListDiff", {"x": ([], "int32"), "y": ([1], "int32")}, {}))
    add(("ListDiff", {"x": ([1, 2], "int32"), "y": ([], "int32")}, {}))
    add(("ListDiff", {"x": ([[1]], "int32"), "y": ([1], "int32")}, {}))
    add(("ListDiff", {"x": ([1], "int32"), "y": ([[1]], "int32")}, {}))
    # sorted segment reductions
    ids = [0, 0, 1, 3, 3, 3]
    data_f = [[1.5, -2.0], [3.0, 4.0], [-1.0, 0.5], [2.0, 2.0], [0.25, -3.0], [4.0, 1.0]]
    data_i = [[1, -2], [3, 4], [-1, 5], [2, 2], [7, -3], [4, 1]]
    for op in ["SegmentSum", "SegmentMean", "SegmentProd", "SegmentMax", "SegmentMin"]:
        types = REAL + (
            ["complex64", "complex128"]
            if op in ("SegmentSum", "SegmentMean", "SegmentProd")
            else []
        )
        for dt in types:
            d = data_f if dt.startswith(("float", "bfloat", "complex")) else data_i
            if dt.startswith("uint"):
                d = [[abs(x) for x in r] for r in d]
            add((op, {"data": (d, dt), "segment_ids": (ids, "int32")}, {}))
        add(
            (
                op,
                {
                    "data": (rnd(7, (9, 2, 3)), "float32"),
                    "segment_ids": ([0, 0, 0, 2, 2, 5, 5, 5, 5], "int64"),
                },
                {},
            )
        )
        add(
            (
                op,
                {
                    "data": ([1.0, nan, 3.0, 4.0, nan, nan, 1.0, 2.0], "float32"),
                    "segment_ids": ([0, 0, 1, 1, 1, 2, 2, 2], "int32"),
                },
                {},
            )
        )
        add(
            (op, {"data": (np.zeros((0, 2)).tolist(), "float32"), "segment_ids": ([], "int32")}, {})
        )
    add(
        (
            "SegmentMean",
            {"data": ([1, 2, 4, -3, -4, 7], "int32"), "segment_ids": ([0, 0, 0, 2, 2, 2], "int32")},
            {},
        )
    )
    add(("SegmentProd", {"data": ([100, 100, 3], "int8"), "segment_ids": ([0, 0, 1], "int32")}, {}))
    add(("SegmentSum", {"data": ([2147483647, 1], "int32"), "segment_ids": ([0, 0], "int32")}, {}))
    add(
        (
            "SegmentSum",
            {"data": ([1.0, 2.0, 3.0], "float32"), "segment_ids": ([0, 2, 1], "int32")},
            {},
        )
    )
    add(
        ("SegmentSum", {"data": ([1.0, 2.0, 3.0], "float32"), "segment_ids": ([0, 2], "int32")}, {})
    )
    add(
        (
            "SegmentSum",
            {"data": ([1.0, 2.0, 3.0], "float32"), "segment_ids": ([[0, 1, 2]], "int32")},
            {},
        )
    )
    add(
        (
            "SegmentSum",
            {"data": ([1.0, 2.0, 3.0], "float32"), "segment_ids": ([-1, 0, 0], "int32")},
            {},
        )
    )
    add(
        (
            "SegmentSum",
            {"data": ([1.0, 2.0, 3.0], "float32"), "segment_ids": ([-2, -1, -1], "int32")},
            {},
        )
    )
    add(("SegmentMax", {"data": (3.0, "float32"), "segment_ids": ([0], "int32")}, {}))
    # unsorted segment reductions
    uids = [3, 0, -1, 3, 0, 1]
    for op in [
        "UnsortedSegmentSum",
        "UnsortedSegmentProd",
        "UnsortedSegmentMax",
        "UnsortedSegmentMin",
    ]:
        types = REAL + (
            ["complex64", "complex128"]
            if op in ("UnsortedSegmentSum", "UnsortedSegmentProd")
            else []
        )
        for dt in types:
            d = data_f if dt.startswith(("float", "bfloat", "complex")) else data_i
            if dt.startswith("uint"):
                d = [[abs(x) for x in r] for r in d]
            add(
                (
                    op,
                    {"data": (d, dt), "segment_ids": (uids, "int32"), "num_segments": (5, "int32")},
                    {},
                )
            )
        add(
            (
                op,
                {
                    "data": (rnd(8, (3, 4, 2)), "float64"),
                    "segment_ids": ([[0, 1, 2, 0], [1, 1, -5, 2], [0, 2, 2, 2]], "int64"),
                    "num_segments": (4, "int64"),
                },
                {},
            )
        )
        add(
            (
                op,
                {
                    "data": ([1.0, nan, 3.0, 4.0, nan, nan, 1.0, 2.0], "float32"),
                    "segment_ids": ([0, 0, 1, 1, 1, 2, 2, 2], "int32"),
                    "num_segments": (3, "int32"),
                },
                {},
            )
        )
        add(
            (
                op,
                {
                    "data": ([1.0, 2.0], "float32"),
                    "segment_ids": ([0, 1], "int32"),
                    "num_segments": (0, "int32"),
                },
                {},
            )
        )
    add(
        (
            "UnsortedSegmentSum",
            {
                "data": ([1.0, 2.0, 3.0], "float32"),
                "segment_ids": ([2, 0, 2], "int16"),
                "num_segments": (3, "int32"),
            },
            {},
        )
    )
    add(
        (
            "UnsortedSegmentSum",
            {
                "data": ([[1.0, 2.0, 3.0]], "float32"),
                "segment_ids": (1, "int32"),
                "num_segments": (3, "int32"),
            },
            {},
        )
    )
    add(
        (
            "UnsortedSegmentSum",
            {
                "data": ([1.0, 2.0, 3.0], "float32"),
                "segment_ids": ([0, 5, 1], "int32"),
                "num_segments": (3, "int32"),
            },
            {},
        )
    )
    add(
        (
            "UnsortedSegmentSum",
            {
                "data": ([[1.0, 2.0, 3.0]], "float32"),
                "segment_ids": ([[0, 5, 1]], "int32"),
                "num_segments": (3, "int32"),
            },
            {},
        )
    )
    add(
        (
            "UnsortedSegmentSum",
            {
                "data": ([1.0, 2.0, 3.0], "float32"),
                "segment_ids": (5, "int32"),
                "num_segments": (3, "int32"),
            },
            {},
        )
    )
    add(
        (
            "UnsortedSegmentSum",
            {
                "data": ([1.0, 2.0, 3.0], "float32"),
                "segment_ids": ([0, 1], "int32"),
                "num_segments": (3, "int32"),
            },
            {},
        )
    )
    add(
        (
            "UnsortedSegmentSum",
            {
                "data": ([1.0, 2.0, 3.0], "float32"),
                "segment_ids": ([0, 1], "int32"),
                "num_segments": ([3], "int32"),
            },
            {},
        )
    )
    add(
        (
            "UnsortedSegmentSum",
            {
                "data": ([1.0, 2.0, 3.0], "float32"),
                "segment_ids": ([0, 1, 1], "int32"),
                "num_segments": (-1, "int32"),
            },
            {},
        )
    )
    add(
        (
            "UnsortedSegmentMax",
            {
                "data": ([1.0, 2.0, 3.0], "float32"),
                "segment_ids": ([0, 1, 1], "int32"),
                "num_segments": (-1, "int64"),
            },
            {},
        )
    )
    # diagonal bands
    m34 = np.arange(12).reshape(3, 4).tolist()
    b234 = (np.arange(24).reshape(2, 3, 4) - 5).tolist()
    for dt in ["float32", "int32", "bool", "complex64", "float16", "uint8", "bfloat16"]:
        v = [[bool(x % 3) for x in r] for r in m34] if dt == "bool" else m34
        add(("MatrixDiagPart", {"input": (v, dt)}, {}))
        pad = True if dt == "bool" else 9
        add(
            (
                "MatrixDiagPartV3",
                {"input": (v, dt), "k": ([-1, 2], "int32"), "padding_value": (pad, dt)},
                {},
            )
        )
    for k in [0, 2, -2, [-2, 3], [-1, 1], [1, 3], [-2, -1]]:
        for align in ["RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"]:
            add(
                (
                    "MatrixDiagPartV3",
                    {
                        "input": (b234, "float32"),
                        "k": (k, "int32"),
                        "padding_value": (-1, "float32"),
                    },
                    {"align": align},
                )
            )
        add(
            (
                "MatrixDiagPartV2",
                {"input": (b234, "float64"), "k": (k, "int32"), "padding_value": (7, "float64")},
                {},
            )
        )
    tall = np.arange(15).reshape(5, 3).tolist()
    add(
        (
            "MatrixDiagPartV3",
            {"input": (tall, "int64"), "k": ([-4, 1], "int32"), "padding_value": (0, "int64")},
            {},
        )
    )
    add(("MatrixDiagPart", {"input": (np.zeros((2, 0, 3)).tolist(), "float32")}, {}))
    add(
        (
            "MatrixDiagPartV3",
            {
                "input": (np.zeros((2, 0, 3)).tolist(), "float32"),
                "k": (0, "int32"),
                "padding_value": (9, "float32"),
            },
            {},
        )
    )
    add(("MatrixDiagPart", {"input": ([1, 2], "float32")}, {}))
    for k in [[[0]], [0, 1, 2], [], [2, 1], [-3, 1], [-2, 4]]:
        add(
            (
                "MatrixDiagPartV3",
                {"input": (m34, "float32"), "k": (k, "int32"), "padding_value": (0, "float32")},
                {},
            )
        )
    for dt in ["float32", "int32", "complex128", "float16"]:
        add(("MatrixSetDiag", {"input": (b234, dt), "diagonal": ([[1, 2, 3], [4, 5, 6]], dt)}, {}))
    add(
        (
            "MatrixSetDiag",
            {
                "input": ([[True, False], [False, False]], "bool"),
                "diagonal": ([True, True], "bool"),
            },
            {},
        )
    )
    for k, dg in [
        (0, [10, 20, 30]),
        (1, [10, 20, 30]),
        (-1, [10, 20]),
        ([0, 1], [[10, 20, 30], [40, 50, 60]]),
        ([-1, 1], [[1, 2, 3], [4, 5, 6], [7, 8, 9]]),
        ([-2, 0], [[1, 2, 3], [4, 5, 6], [7, 8, 9]]),
        ([1, 3], [[1, 2, 3], [4, 5, 6], [7, 8, 9]]),
    ]:
        for align in ["RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"]:
            add(
                (
                    "MatrixSetDiagV3",
                    {"input": (m34, "float32"), "diagonal": (dg, "float32"), "k": (k, "int32")},
                    {"align": align},
                )
            )
        add(
            (
                "MatrixSetDiagV2",
                {"input": (m34, "int32"), "diagonal": (dg, "int32"), "k": (k, "int32")},
                {},
            )
        )
    add(("MatrixSetDiag", {"input": ([1, 2], "float32"), "diagonal": ([1], "float32")}, {}))
    add(("MatrixSetDiag", {"input": (m34, "float32"), "diagonal": ([1, 2], "float32")}, {}))
    add(("MatrixSetDiag", {"input": (m34, "float32"), "diagonal": ([[1, 2, 3]], "float32")}, {}))
    add(
        (
            "MatrixSetDiagV3",
            {
                "input": (m34, "float32"),
                "diagonal": ([[1, 2, 3]], "float32"),
                "k": ([0, 1], "int32"),
            },
            {},
        )
    )
    add(
        (
            "MatrixSetDiagV3",
            {"input": (m34, "float32"), "diagonal": ([1, 2, 3], "float32"), "k": ([0, 1], "int32")},
            {},
        )
    )
    add(
        (
            "MatrixSetDiagV3",
            {
                "input": (m34, "float32"),
                "diagonal": ([[1, 2, 3], [4, 5, 6]], "float32"),
                "k": ([1, 0], "int32"),
            },
            {},
        )
    )
    add(
        (
            "MatrixSetDiagV3",
            {
                "input": (m34, "float32"),
                "diagonal": ([[1, 2, 3], [4, 5, 6]], "float32"),
                "k": ([-3, 0], "int32"),
            },
            {},
        )
    )
    add(
        (
            "MatrixSetDiagV3",
            {
                "input": (m34, "float32"),
                "diagonal": ([[1, 2, 3], [4, 5, 6]], "float32"),
                "k": ([0, 4], "int32"),
            },
            {},
        )
    )
    add(
        (
            "MatrixSetDiagV3",
            {"input": (m34, "float32"), "diagonal": (1.0, "float32"), "k": (0, "int32")},
            {},
        )
    )
    add(
        (
            "MatrixSetDiagV3",
            {"input": (m34, "float32"), "diagonal": ([1, 2, 3], "float32"), "k": ([], "int32")},
            {},
        )
    )
    add(
        (
            "MatrixSetDiagV3",
            {"input": (m34, "float32"), "diagonal": ([1, 2, 3], "float32"), "k": ([[0]], "int32")},
            {},
        )
    )
    # DepthToSpace / SpaceToDepth
    x = np.arange(2 * 2 * 3 * 8).reshape(2, 2, 3, 8).tolist()
    for dt in ["float32", "int8", "complex64", "bool"]:
        v = [[[[bool(c % 3) for c in w] for w in h] for h in b] for b in x] if dt == "bool" else x
        add(("DepthToSpace", {"input": (v, dt)}, {"block_size": 2}))
    add(
        (
            "DepthToSpace",
            {"input": (np.arange(2 * 9 * 2).reshape(1, 1, 2, 18).tolist(), "int32")},
            {"block_size": 3},
        )
    )
    y = np.arange(2 * 4 * 6 * 3).reshape(2, 4, 6, 3).tolist()
    for dt in ["float32", "uint16", "float64"]:
        add(("SpaceToDepth", {"input": (y, dt)}, {"block_size": 2}))
    add(
        (
            "SpaceToDepth",
            {"input": (np.arange(36).reshape(1, 6, 6, 1).tolist(), "int64")},
            {"block_size": 3},
        )
    )
    add(("DepthToSpace", {"input": ([[[["a", "b", "c", "d"]]]], "string")}, {"block_size": 2}))
    add(
        (
            "SpaceToDepth",
            {"input": ([[[["a"], ["b"]], [["c"], ["d"]]]], "string")},
            {"block_size": 2},
        )
    )
    add(
        ("DepthToSpace", {"input": (np.zeros((1, 2, 2, 3)).tolist(), "float32")}, {"block_size": 2})
    )
    add(("DepthToSpace", {"input": (np.zeros((2, 2, 3)).tolist(), "float32")}, {"block_size": 2}))
    add(
        ("SpaceToDepth", {"input": (np.zeros((1, 3, 2, 4)).tolist(), "float32")}, {"block_size": 2})
    )
    add(
        ("SpaceToDepth", {"input": (np.zeros((1, 2, 3, 4)).tolist(), "float32")}, {"block_size": 2})
    )
    add(("SpaceToDepth", {"input": (np.zeros((2, 2, 3)).tolist(), "float32")}, {"block_size": 2}))
    add(
        ("DepthToSpace", {"input": (np.zeros((0, 2, 2, 4)).tolist(), "float32")}, {"block_size": 2})
    )
    for op in ["DepthToSpace", "SpaceToDepth"]:
        add(
            (
                op,
                {"input": (np.zeros((1, 4, 2, 2)).tolist(), "int32")},
                {"block_size": 2, "data_format": "NCHW"},
            )
        )
    # ReverseSequence
    r3 = np.arange(2 * 5 * 3).reshape(2, 5, 3).tolist()
    for dt in ["float32", "int16", "bool", "complex128"]:
        v = [[[bool(c % 2) for c in w] for w in h] for h in r3] if dt == "bool" else r3
        add(
            (
                "ReverseSequence",
                {"input": (v, dt), "seq_lengths": ([3, 5], "int64")},
                {"seq_dim": 1},
            )
        )
    add(
        (
            "ReverseSequence",
            {"input": (r3, "float32"), "seq_lengths": ([0, 1, 2], "int32")},
            {"seq_dim": 1, "batch_dim": 2},
        )
    )
    add(
        (
            "ReverseSequence",
            {"input": (r3, "float32"), "seq_lengths": ([2, 1, 3, 0, 2], "int32")},
            {"seq_dim": 2, "batch_dim": 1},
        )
    )
    add(
        (
            "ReverseSequence",
            {"input": (r3, "float32"), "seq_lengths": ([1, 1, 2, 0, 2], "int32")},
            {"seq_dim": 0, "batch_dim": 1},
        )
    )
    add(
        (
            "ReverseSequence",
            {
                "input": ([["a", "b", "c"], ["d", "e", "f"]], "string"),
                "seq_lengths": ([2, 3], "int32"),
            },
            {"seq_dim": 1},
        )
    )
    for sl, sd, bd in [
        ([1, 2, 5], 1, 0),
        ([1, 2, -1], 1, 0),
        ([1, 2], 1, 0),
        ([[1, 2, 1]], 1, 0),
        ([1, 2, 1], 0, 0),
        ([1, 2, 1], 2, 0),
        ([1, 2, 1], 1, 3),
        ([1, 2, 1, 1], -1, 1),
        ([1, 2, 1], 1, -1),
    ]:
        add(
            (
                "ReverseSequence",
                {"input": (m34, "float32"), "seq_lengths": (sl, "int32")},
                {"seq_dim": sd, "batch_dim": bd},
            )
        )
    # folding tensor scatters
    base = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]
    idx2 = [[1], [3], [1]]
    upd = [[10, -20, 30], [1, 1, 1], [-5, 50, 0]]
    for op in ["TensorScatterAdd", "TensorScatterSub", "TensorScatterMax", "TensorScatterMin"]:
        types = REAL + (
            ["complex64", "complex128"] if op in ("TensorScatterAdd", "TensorScatterSub") else []
        )
        for dt in types:
            b = base
            u = [[abs(x) for x in r] for r in upd] if dt.startswith("uint") else upd
            add((op, {"tensor": (b, dt), "indices": (idx2, "int32"), "updates": (u, dt)}, {}))
        add(
            (
                op,
                {
                    "tensor": (base, "float32"),
                    "indices": ([[0, 2], [3, 0], [0, 2]], "int64"),
                    "updates": ([5.0, -7.0, 2.0], "float32"),
                },
                {},
            )
        )
        add(
            (
                op,
                {
                    "tensor": (base, "float32"),
                    "indices": ([[[1], [2]], [[0], [0]]], "int32"),
                    "updates": (np.ones((2, 2, 3)).tolist(), "float32"),
                },
                {},
            )
        )
        add(
            (
                op,
                {
                    "tensor": ([1.0, 2.0, nan, 4.0], "float32"),
                    "indices": ([[0], [2], [1]], "int32"),
                    "updates": ([nan, 1.0, nan], "float32"),
                },
                {},
            )
        )
        add(
            (
                op,
                {
                    "tensor": ([1.0, 2.0, 3.0, 4.0], "float32"),
                    "indices": ([[1], [5]], "int32"),
                    "updates": ([1.0, 1.0], "float32"),
                },
                {},
            )
        )
        add(
            (
                op,
                {
                    "tensor": ([1.0, 2.0, 3.0, 4.0], "float32"),
                    "indices": ([[1], [5]], "int32"),
                    "updates": ([1.0, 1.0], "float32"),
                },
                {"bad_indices_policy": "IGNORE"},
            )
        )
    add(
        (
            "TensorScatterAdd",
            {
                "tensor": ([1.0, 2.0, 3.0, 4.0], "float32"),
                "indices": ([[1], [-1]], "int32"),
                "updates": ([1.0, 1.0], "float32"),
            },
            {"bad_indices_policy": "ERROR"},
        )
    )
    add(
        (
            "TensorScatterAdd",
            {
                "tensor": ([1.0, 2.0, 3.0, 4.0], "float32"),
                "indices": ([[1], [3]], "int32"),
                "updates": ([1.0, 1.0], "float32"),
            },
            {"bad_indices_policy": "foo"},
        )
    )
    add(
        (
            "TensorScatterAdd",
            {
                "tensor": (base, "float32"),
                "indices": ([[[1], [9]]], "int32"),
                "updates": (np.ones((1, 2, 3)).tolist(), "float32"),
            },
            {},
        )
    )
    add(
        (
            "TensorScatterAdd",
            {
                "tensor": ([1.0, 2.0, 3.0, 4.0], "float32"),
                "indices": ([[1], [3]], "int32"),
                "updates": ([1.0, 1.0, 1.0], "float32"),
            },
            {},
        )
    )
    add(
        (
            "TensorScatterAdd",
            {
                "tensor": ([1.0, 2.0, 3.0, 4.0], "float32"),
                "indices": ([1, 3], "int32"),
                "updates": ([1.0, 1.0], "float32"),
            },
            {},
        )
    )
    add(
        (
            "TensorScatterAdd",
            {
                "tensor": ([1.0, 2.0, 3.0, 4.0], "float32"),
                "indices": ([1], "int32"),
                "updates": (1.0, "float32"),
            },
            {},
        )
    )
    add(
        (
            "TensorScatterAdd",
            {
                "tensor": ([1.0, 2.0, 3.0, 4.0], "float32"),
                "indices": ([[1, 3]], "int32"),
                "updates": ([1.0], "float32"),
            },
            {},
        )
    )
    add(
        (
            "TensorScatterAdd",
            {
                "tensor": (1.0, "float32"),
                "indices": ([[0]], "int32"),
                "updates": ([1.0], "float32"),
            },
            {},
        )
    )
    add(
        (
            "TensorScatterAdd",
            {
                "tensor": ([1.0, 2.0, 3.0, 4.0], "float32"),
                "indices": (np.zeros((0, 1)).tolist(), "int32"),
                "updates": ([], "float32"),
            },
            {},
        )
    )
    add(
        (
            "TensorScatterAdd",
            {
                "tensor": (base, "float32"),
                "indices": ([[1]], "int32"),
                "updates": ([[1.0, 2.0]], "float32"),
            },
            {},
        )
    )
    add(
        (
            "TensorScatterAdd",
            {
                "tensor": (base, "float32"),
                "indices": ([[1]], "int32"),
                "updates": ([[[1.0, 2.0, 3.0]]], "float32"),
            },
            {},
        )
    )
    add(
        (
            "TensorScatterAdd",
            {
                "tensor": (base, "float32"),
                "indices": ([[1], [2]], "int32"),
                "updates": (1.0, "float32"),
            },
            {},
        )
    )
    add(
        (
            "TensorScatterAdd",
            {
                "tensor": (base, "float32"),
                "indices": (1, "int32"),
                "updates": ([1.0, 2.0, 3.0], "float32"),
            },
            {},
        )
    )
    add(
        (
            "TensorScatterAdd",
            {
                "tensor": (np.zeros((0, 3)).tolist(), "float32"),
                "indices": ([[0]], "int32"),
                "updates": ([[1.0, 2.0, 3.0]], "float32"),
            },
            {},
        )
    )
    add(
        (
            "TensorScatterAdd",
            {
                "tensor": (base, "float32"),
                "indices": (np.zeros((2, 0)).tolist(), "int32"),
                "updates": (np.ones((2, 4, 3)).tolist(), "float32"),
            },
            {},
        )
    )
    # ConjugateTranspose
    c23 = [[1 + 2j, -3j, 4], [0.5 - 1j, 2 + 2j, -1 - 1j]]
    for dt in ["complex64", "complex128"]:
        add(("ConjugateTranspose", {"x": (c23, dt), "perm": ([1, 0], "int32")}, {}))
        add(("ConjugateTranspose", {"x": (c23, dt), "perm": ([0, 1], "int64")}, {}))
    add(
        (
            "ConjugateTranspose",
            {
                "x": (np.arange(24).reshape(2, 3, 4).tolist(), "float32"),
                "perm": ([2, 0, 1], "int32"),
            },
            {},
        )
    )
    add(
        (
            "ConjugateTranspose",
            {"x": ([["a", "b"], ["c", "d"]], "string"), "perm": ([1, 0], "int32")},
            {},
        )
    )
    add(("ConjugateTranspose", {"x": ([[1.0, 2.0]], "float32"), "perm": ([0, 0], "int32")}, {}))
    add(("ConjugateTranspose", {"x": ([[1.0, 2.0]], "float32"), "perm": ([0], "int32")}, {}))
    add(("ConjugateTranspose", {"x": ([[1.0, 2.0]], "float32"), "perm": ([0, 2], "int32")}, {}))
    add(("ConjugateTranspose", {"x": ([[1.0, 2.0]], "float32"), "perm": ([[0, 1]], "int32")}, {}))
    # Cross
    ca = [[1, 2, 3], [-4, 5, 6], [0, 0, 1]]
    cb = [[4, 5, 6], [7, -8, 9], [1, 0, 0]]
    for dt in REAL:
        a = [[abs(x) for x in r] for r in ca] if dt.startswith("uint") else ca
        b = [[abs(x) for x in r] for r in cb] if dt.startswith("uint") else cb
        add(("Cross", {"a": (a, dt), "b": (b, dt)}, {}))
    add(("Cross", {"a": (rnd(11, (2, 2, 3)), "float64"), "b": (rnd(12, (2, 2, 3)), "float64")}, {}))
    add(("Cross", {"a": ([100, 100, 100], "int8"), "b": ([-100, 3, 100], "int8")}, {}))
    add(("Cross", {"a": ([1.0, 2.0], "float32"), "b": ([4.0, 5.0], "float32")}, {}))
    add(("Cross", {"a": ([1.0, 2.0, 3.0], "float32"), "b": ([[4.0, 5.0, 6.0]], "float32")}, {}))
    add(("Cross", {"a": (1.0, "float32"), "b": (2.0, "float32")}, {}))
    # Empty (with init the values are zeros)
    for dt in ["float32", "int64", "bool", "complex64", "string", "float16"]:
        add(("Empty", {"shape": ([2, 3], "int32")}, {"dtype": dt, "init": True}))
    add(("Empty", {"shape": ([0, 4], "int32")}, {"dtype": "float32", "init": True}))
    add(("Empty", {"shape": ([], "int32")}, {"dtype": "float32", "init": True}))
    add(("Empty", {"shape": ([[2, 3]], "int32")}, {"dtype": "float32", "init": True}))
    add(("Empty", {"shape": ([-2, 3], "int32")}, {"dtype": "float32", "init": True}))
    add(("Empty", {"shape": (2, "int32")}, {"dtype": "float32", "init": True}))
    # Bitcast
    add(("Bitcast", {"input": ([1.0, -2.5], "float32")}, {"type": "uint8"}))
    add(("Bitcast", {"input": ([1.0, -2.5], "float32")}, {"type": "int32"}))
    add(("Bitcast", {"input": ([[1.0, -2.5]], "float64")}, {"type": "uint16"}))
    add(("Bitcast", {"input": ([[0, 0, 128, 63], [0, 0, 32, 192]], "uint8")}, {"type": "float32"}))
    add(("Bitcast", {"input": ([[1, 2], [3, 4]], "int32")}, {"type": "int64"}))
    add(("Bitcast", {"input": ([1 + 2j, -3j], "complex64")}, {"type": "float64"}))
    add(("Bitcast", {"input": ([1.5, -2.0], "float16")}, {"type": "int16"}))
    add(("Bitcast", {"input": ([-1, 2], "int8")}, {"type": "uint8"}))
    add(("Bitcast", {"input": (np.zeros((2, 3)).tolist(), "uint8")}, {"type": "float32"}))
    add(("Bitcast", {"input": (0, "uint8")}, {"type": "float32"}))
    add(("Bitcast", {"input": (7, "int32")}, {"type": "int16"}))
    # UniqueWithCounts
    for dt in ["int32", "int64", "float32", "uint8", "float16", "int8"]:
        add(("UniqueWithCounts", {"x": ([4, 1, 1, 2, 4, 4, 7, 8, 8, 1], dt)}, {}))
    add(("UniqueWithCounts", {"x": ([3, 3, 1], "int32")}, {"out_idx": "int64"}))
    add(("UniqueWithCounts", {"x": ([0.0, -0.0, nan, nan, 1.0, 0.0], "float32")}, {}))
    add(("UniqueWithCounts", {"x": ([True, False, True], "bool")}, {}))
    add(("UniqueWithCounts", {"x": (["b", "a", "b", "", "a"], "string")}, {}))
    add(("UniqueWithCounts", {"x": ([], "float32")}, {}))
    add(("UniqueWithCounts", {"x": ([[1]], "int32")}, {}))
    add(("UniqueWithCounts", {"x": (1, "int32")}, {}))
    # DenseBincount
    for dt in ["int32", "int64", "float32", "float64"]:
        add(
            (
                "DenseBincount",
                {"input": ([1, 2, 2, 5, 0], "int32"), "size": (4, "int32"), "weights": ([], dt)},
                {},
            )
        )
        add(
            (
                "DenseBincount",
                {
                    "input": ([[1, 2], [2, 5]], "int64"),
                    "size": (4, "int64"),
                    "weights": ([[1, 2], [3, 4]], dt),
                },
                {},
            )
        )
        add(
            (
                "DenseBincount",
                {
                    "input": ([[1, 2, 2], [2, 5, 3]], "int32"),
                    "size": (4, "int32"),
                    "weights": ([[1, 2, 5], [3, 4, 6]], dt),
                },
                {"binary_output": True},
            )
        )
    add(
        (
            "DenseBincount",
            {"input": (1, "int32"), "size": (4, "int32"), "weights": ([], "float32")},
            {},
        )
    )
    add(
        (
            "DenseBincount",
            {"input": ([1, -2], "int32"), "size": (4, "int32"), "weights": ([], "float32")},
            {},
        )
    )
    add(
        (
            "DenseBincount",
            {"input": ([[1, -2]], "int32"), "size": (4, "int32"), "weights": ([], "float32")},
            {},
        )
    )
    add(
        (
            "DenseBincount",
            {"input": ([1, 2], "int32"), "size": (-4, "int32"), "weights": ([], "float32")},
            {},
        )
    )
    add(
        (
            "DenseBincount",
            {"input": ([1, 2], "int32"), "size": ([4], "int32"), "weights": ([], "float32")},
            {},
        )
    )
    add(
        (
            "DenseBincount",
            {"input": ([1, 2], "int32"), "size": (4, "int32"), "weights": ([1], "float32")},
            {},
        )
    )
    add(
        (
            "DenseBincount",
            {"input": ([[[1, 2]]], "int32"), "size": (4, "int32"), "weights": ([], "float32")},
            {},
        )
    )
    add(
        (
            "DenseBincount",
            {"input": ([[1, 2]], "int32"), "size": (0, "int32"), "weights": ([], "float32")},
            {},
        )
    )
    # SpaceToBatchND / BatchToSpaceND
    sb = np.arange(2 * 4 * 6 * 2).reshape(2, 4, 6, 2).tolist()
    for dt in ["float32", "int64", "float16", "uint8"]:
        add(
            (
                "SpaceToBatchND",
                {
                    "input": (sb, dt),
                    "block_shape": ([2, 3], "int32"),
                    "paddings": ([[0, 0], [0, 0]], "int32"),
                },
                {},
            )
        )
        add(
            (
                "BatchToSpaceND",
                {
                    "input": (sb, dt),
                    "block_shape": ([2, 1], "int64"),
                    "crops": ([[0, 1], [2, 0]], "int32"),
                },
                {},
            )
        )
    add(
        (
            "SpaceToBatchND",
            {
                "input": (sb, "float32"),
                "block_shape": ([2, 2], "int64"),
                "paddings": ([[1, 1], [0, 2]], "int64"),
            },
            {},
        )
    )
    add(
        (
            "SpaceToBatchND",
            {
                "input": (sb, "float32"),
                "block_shape": ([3], "int32"),
                "paddings": ([[1, 1]], "int32"),
            },
            {},
        )
    )
    add(
        (
            "SpaceToBatchND",
            {
                "input": (sb, "float32"),
                "block_shape": ([], "int32"),
                "paddings": (np.zeros((0, 2)).tolist(), "int32"),
            },
            {},
        )
    )
    add(
        (
            "SpaceToBatchND",
            {
                "input": (sb, "float32"),
                "block_shape": ([2, 3, 2], "int32"),
                "paddings": ([[0, 0], [0, 0], [0, 0]], "int32"),
            },
            {},
        )
    )
    add(
        (
            "BatchToSpaceND",
            {
                "input": (np.arange(12 * 2 * 2).reshape(12, 2, 2, 1).tolist(), "int32"),
                "block_shape": ([2, 3], "int32"),
                "crops": ([[0, 1], [1, 1]], "int32"),
            },
            {},
        )
    )
    add(
        (
            "BatchToSpaceND",
            {
                "input": (sb, "float32"),
                "block_shape": ([2, 1], "int32"),
                "crops": ([[0, 8], [0, 0]], "int32"),
            },
            {},
        )
    )
    for op, third, bs, pc in [
        ("SpaceToBatchND", "paddings", [2, 3], [[0, 1], [0, 0]]),
        ("SpaceToBatchND", "paddings", [[2, 3]], [[0, 0], [0, 0]]),
        ("SpaceToBatchND", "paddings", [2, 3], [[0, 0]]),
        ("SpaceToBatchND", "paddings", [2, 3], [0, 0]),
        ("SpaceToBatchND", "paddings", [0, 3], [[0, 0], [0, 0]]),
        ("SpaceToBatchND", "paddings", [2, 3], [[-1, 1], [0, 0]]),
        ("SpaceToBatchND", "paddings", [2, 3, 1, 1], [[0, 0]] * 4),
        ("SpaceToBatchND", "paddings", 2, [[0, 0]]),
        ("BatchToSpaceND", "crops", [3, 1], [[0, 0], [0, 0]]),
        ("BatchToSpaceND", "crops", [2, 1], [[0, 9], [0, 0]]),
        ("BatchToSpaceND", "crops", [2, 1], [[-1, 0], [0, 0]]),
        ("BatchToSpaceND", "crops", [0, 1], [[0, 0], [0, 0]]),
        ("BatchToSpaceND", "crops", [[2, 1]], [[0, 0], [0, 0]]),
        ("BatchToSpaceND", "crops", [2, 1], [[0, 0]]),
        ("BatchToSpaceND", "crops", [2, 1, 1, 1], [[0, 0]] * 4),
    ]:
        add(
            (op, {"input": (sb, "float32"), "block_shape": (bs, "int32"), third: (pc, "int32")}, {})
        )
    # SpaceToBatch / BatchToSpace (4-D, one block size)
    add(
        (
            "SpaceToBatch",
            {"input": (sb, "float32"), "paddings": ([[0, 0], [1, 1]], "int32")},
            {"block_size": 2},
        )
    )
    add(
        (
            "SpaceToBatch",
            {"input": (sb, "int32"), "paddings": ([[1, 1], [0, 0]], "int64")},
            {"block_size": 3},
        )
    )
    add(
        (
            "BatchToSpace",
            {
                "input": (np.arange(8 * 2 * 3).reshape(8, 2, 3, 1).tolist(), "float32"),
                "crops": ([[0, 1], [1, 0]], "int32"),
            },
            {"block_size": 2},
        )
    )
    add(
        (
            "SpaceToBatch",
            {"input": (sb, "float32"), "paddings": ([[0, 1], [0, 0]], "int32")},
            {"block_size": 2},
        )
    )
    add(
        (
            "SpaceToBatch",
            {
                "input": (np.zeros((2, 4, 6)).tolist(), "float32"),
                "paddings": ([[0, 0], [0, 0]], "int32"),
            },
            {"block_size": 2},
        )
    )
    add(
        (
            "SpaceToBatch",
            {"input": (sb, "float32"), "paddings": ([[0, 0]], "int32")},
            {"block_size": 2},
        )
    )
    add(
        (
            "BatchToSpace",
            {"input": (sb, "float32"), "crops": ([[0, 0], [0, 0]], "int32")},
            {"block_size": 2},
        )
    )
    add(
        (
            "BatchToSpace",
            {
                "input": (np.zeros((4, 4, 6)).tolist(), "float32"),
                "crops": ([[0, 1], [0, 0]], "int32"),
            },
            {"block_size": 2},
        )
    )
    add(
        (
            "BatchToSpace",
            {"input": (np.zeros((4, 4, 6, 1)).tolist(), "float32"), "crops": ([[0, 1]], "int32")},
            {"block_size": 2},
        )
    )
    # pass-through and copies
    for op in ["GuaranteeConst", "DebugGradientIdentity", "DeepCopy", "Snapshot"]:
        add((op, {"input" if op != "DeepCopy" else "x": ([[1.5, -2.0]], "float32")}, {}))
        add((op, {"input" if op != "DeepCopy" else "x": ([1, 2, 3], "int64")}, {}))
    add(("DeepCopy", {"x": (["a", "bc"], "string")}, {}))
    add(("Snapshot", {"input": (["a"], "string")}, {}))
    add(("PlaceholderWithDefault", {"input": ([1.0, 2.0], "float32")}, {"shape": [2]}))
    add(("PlaceholderWithDefault", {"input": ([[True]], "bool")}, {"shape": [None, 1]}))
    # UnravelIndex
    for dt in ["int32", "int64"]:
        add(("UnravelIndex", {"indices": ([22, 41, 37, 0], dt), "dims": ([7, 6], dt)}, {}))
        add(("UnravelIndex", {"indices": (1621, dt), "dims": ([6, 7, 8, 9], dt)}, {}))
    add(("UnravelIndex", {"indices": ([-1, -7], "int32"), "dims": ([7, 6], "int32")}, {}))
    add(("UnravelIndex", {"indices": ([0], "int32"), "dims": ([], "int32")}, {}))
    for ind, dims in [
        ([[22, 41], [0, 1]], [7, 6]),
        ([42], [7, 6]),
        ([1], [[7, 6]]),
        ([1], [7, 0]),
        ([1], [7, -6]),
        ([1], []),
        ([], [3]),
    ]:
        add(("UnravelIndex", {"indices": (ind, "int32"), "dims": (dims, "int32")}, {}))
    # Gather (first version)
    g32 = [[1, 2], [3, 4], [5, 6]]
    for dt in ["float32", "int64", "bool", "complex64", "string", "bfloat16"]:
        v = [[bool(x % 2) for x in r] for r in g32] if dt == "bool" else g32
        v = [[str(x) for x in r] for r in g32] if dt == "string" else v
        add(("Gather", {"params": (v, dt), "indices": ([[2, 0], [1, 1]], "int32")}, {}))
    add(("Gather", {"params": (g32, "float32"), "indices": (1, "int64")}, {}))
    add(
        (
            "Gather",
            {"params": (g32, "float32"), "indices": ([1], "int32")},
            {"validate_indices": False},
        )
    )
    add(
        ("Gather", {"params": (np.zeros((0, 2)).tolist(), "float32"), "indices": ([], "int32")}, {})
    )
    add(("Gather", {"params": (g32, "float32"), "indices": ([3], "int32")}, {}))
    add(("Gather", {"params": (g32, "float32"), "indices": ([[0, -1]], "int32")}, {}))
    add(("Gather", {"params": (1.0, "float32"), "indices": ([0], "int32")}, {}))
    add(
        (
            "Gather",
            {"params": (np.zeros((0, 2)).tolist(), "float32"), "indices": ([0], "int32")},
            {},
        )
    )
    add(("Gather", {"params": (g32, "float32"), "indices": (5, "int32")}, {}))
    return out


def make_input(v: Any, dt: str) -> np.ndarray:
    """The numpy array an input is built from (bfloat16 inputs are given as
    float32 values and converted by the caller; strings are bytes)."""
    if dt == "string":
        return np.array(v, dtype=object)
    if dt == "bfloat16":
        return np.array(v, dtype=np.float32)
    with np.errstate(all="ignore"):
        return np.array(v).astype(dt)


def _encode(a: np.ndarray) -> list[Any]:
    """Values as JSON: complex as [re, im] pairs, bytes as latin-1 text."""
    if a.dtype.kind == "c":
        vals: Any = np.stack([a.real.ravel(), a.imag.ravel()], -1).tolist()
    elif a.dtype.kind in "SO":
        vals = [bytes(x).decode("latin-1") for x in a.ravel()]
    else:
        vals = a.astype(np.float64).ravel().tolist() if a.dtype.kind == "f" else a.ravel().tolist()
    return [vals, a.dtype.name, list(a.shape)]


def _record() -> None:  # pragma: no cover - needs TensorFlow
    import tensorflow as tf

    results = []
    for op, ins, attrs in cases():
        kw = {
            k: tf.constant(make_input(v, dt), dtype=tf.as_dtype(dt)) for k, (v, dt) in ins.items()
        }
        at = {
            k: (tf.as_dtype(v) if k in ("out_type", "out_idx", "dtype", "type") else v)
            for k, v in attrs.items()
        }
        try:
            r = getattr(tf.raw_ops, op)(**kw, **at)
            outs = list(r) if isinstance(r, (tuple, list)) else [r]
            enc = []
            for o in outs:
                a = o.numpy()
                if o.dtype == tf.bfloat16:
                    enc.append(
                        [
                            tf.cast(o, tf.float32).numpy().astype(np.float64).ravel().tolist(),
                            "bfloat16",
                            list(a.shape),
                        ]
                    )
                else:
                    enc.append(_encode(a))
            results.append({"ok": enc})
        except tf.errors.OpError as e:
            msg = str(e).split("\n")[0]
            msg = re.sub(r"^\{\{function_node [^}]*\}\} ", "", msg)
            msg = re.sub(r" \[Op:[A-Za-z0-9]+\]( name: )?$", "", msg)
            results.append({"err": type(e).__name__, "msg": msg})
    JSON_PATH.write_text(json.dumps(results, allow_nan=True, separators=(",", ":")) + "\n")
    print(len(results), "cases recorded;", math.fsum(1 for r in results if "err" in r), "errors")


if __name__ == "__main__":  # pragma: no cover
    _record()
