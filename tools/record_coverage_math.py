"""Records TF 2.21's results of math and bitwise kernels that no other
TF-recorded file named yet (comparisons, rounding, integer division,
ArgMax/ArgMin, Bincount, Bucketize, LinSpace, Igammac, bitwise ops) into
tests/data/coverage_math_tf221.json, every CPU dtype TF registers plus error
cases. Run with /work/tfvenv/bin/python; tests/python/test_coverage_math.py
reads the JSON."""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from record_coverage_common import Cases, record, t, tf_dtypes

C = Cases("math", 2118)
add = C.add
vals = C.vals
NAN, INF = float("nan"), float("inf")


def fvals(dt: str, n: int) -> list[float]:
    """n float samples with NaN, +-inf and signed zeros among them."""
    return [*np.round(C.rng.uniform(-3, 3, n - 6), 2), NAN, INF, -INF, 0.0, -0.0, 2.5]


# ---------------------------------------------------------------- comparisons
for op in ("Greater", "GreaterEqual", "Less", "LessEqual", "NotEqual"):
    for dt in tf_dtypes(op):
        if dt in ("float32", "float64", "float16", "bfloat16"):
            x = np.asarray(fvals(dt, 12)).reshape(3, 4)
            y = np.asarray([0.5, -0.0, NAN, 2.5])
        else:
            x = vals((3, 4), dt, -3, 4)
            y = vals((4,), dt, -3, 4)
        add(f"{op.lower()}_{dt}", op, {"x": t(x, dt), "y": t(y, dt)}, T=dt)
    add(f"{op.lower()}_bcast", op, {"x": t(vals((2, 1, 3), "int32"), "int32"),
                                    "y": t(vals((4, 1), "int32"), "int32")})
    add(f"{op.lower()}_scalar", op, {"x": t(1.5, "float32"), "y": t([1.0, 1.5, 2.0], "float32")})
    add(f"{op.lower()}_err_shape", op, {"x": t(vals((2, 3), "int32"), "int32"),
                                        "y": t(vals((2, 2), "int32"), "int32")})
add("notequal_incompat_false", "NotEqual", {"x": t([1, 2], "int32"), "y": t([1, 2, 3], "int32")},
    {"incompatible_shape_error": False})
add("approxeq_bcast_err", "ApproximateEqual", {"x": t([1.0, 2.0], "float32"),
                                               "y": t([1.0], "float32")})
for dt in tf_dtypes("ApproximateEqual"):
    add(f"approxeq_{dt}", "ApproximateEqual",
        {"x": t([1.0, 2.0, 3.0, NAN, INF, 0.0], dt),
         "y": t([1.000001, 2.1, 2.5, NAN, INF, -1e-6], dt)}, {"tolerance": 0.01}, T=dt)
add("approxeq_default_tol", "ApproximateEqual", {"x": t([1.0, 1.0], "float64"),
                                                 "y": t([1.000001, 1.0001], "float64")})

# ---------------------------------------------------------------- logical
add("logicalnot", "LogicalNot", {"x": t([[True, False], [False, False]], "bool")})
add("logicalor", "LogicalOr", {"x": t([[True, False], [False, False]], "bool"),
                               "y": t([False, True], "bool")})
add("logicalor_err", "LogicalOr", {"x": t([True, False], "bool"), "y": t([True] * 3, "bool")})

# ---------------------------------------------------------------- float predicates, rounding
for op in ("IsFinite", "IsInf", "Floor", "Ceil", "Rint", "Round"):
    for dt in tf_dtypes(op):
        if dt.startswith("int"):
            x = vals((7,), dt)
        else:
            x = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.49, -3.51, 0.0, -0.0, 1e7 + 0.5, NAN, INF,
                 -INF]
            if dt in ("float16", "bfloat16"):
                x[10] = 100.5
        add(f"{op.lower()}_{dt}", op, {"x": t(x, dt)}, T=dt)

# ---------------------------------------------------------------- integer and float division
for op in ("Mod", "TruncateMod", "TruncateDiv"):
    for dt in tf_dtypes(op):
        if dt.startswith("u"):
            x, y = [7, 0, 9, 255 if dt == "uint8" else 1000], [2, 3, 4, 7]
        elif dt.startswith("int"):
            x, y = [7, -7, 7, -7, 0, 5], [2, 2, -2, -2, 3, 5]
        else:
            x = [7.5, -7.5, 7.5, -7.5, 0.0, 1.0, INF, 3.0]
            y = [2.0, 2.0, -2.0, -2.0, 3.0, 0.0, 2.0, INF]
        add(f"{op.lower()}_{dt}", op, {"x": t(x, dt), "y": t(y, dt)}, T=dt)
    idt = "int32"
    add(f"{op.lower()}_zero", op, {"x": t([4, 5], idt), "y": t([1, 0], idt)})
    add(f"{op.lower()}_zero64", op, {"x": t([4, 5], "int64"), "y": t(0, "int64")})
    add(f"{op.lower()}_bcast", op, {"x": t(vals((2, 3), idt), idt), "y": t([3], idt)})
    add(f"{op.lower()}_err_shape", op, {"x": t(vals((2, 3), idt), idt), "y": t([3, 4], idt)})
add("truncatediv_intmin", "TruncateDiv", {"x": t([-2147483648], "int32"), "y": t([-1], "int32")})

# ---------------------------------------------------------------- ArgMax / ArgMin
for op in ("ArgMax", "ArgMin"):
    for dt in tf_dtypes(op):
        x = vals((3, 4), dt)
        add(f"{op.lower()}_{dt}", op, {"input": t(x, dt), "dimension": t(1, "int32")}, T=dt)
    for ot in tf_dtypes(op, "output_type"):
        add(f"{op.lower()}_out_{ot}", op, {"input": t(vals((2, 3, 4), "float32"), "float32"),
                                           "dimension": t(-3, "int64")}, {"output_type": ot})
    add(f"{op.lower()}_ties_nan", op, {"input": t([[1.0, NAN, 3.0, 3.0], [2.0, 2.0, -1.0, -1.0]],
                                                  "float32"), "dimension": t(1, "int32")})
    add(f"{op.lower()}_axis0", op, {"input": t(vals((4, 3), "int64"), "int64"),
                                    "dimension": t(0, "int32")})
    add(f"{op.lower()}_err_axis", op, {"input": t(vals((2, 3), "float32"), "float32"),
                                       "dimension": t(2, "int32")})
    add(f"{op.lower()}_err_empty", op, {"input": t(np.zeros((2, 0)), "float32"),
                                        "dimension": t(1, "int32")})
    add(f"{op.lower()}_err_dimvec", op, {"input": t(vals((2, 3), "float32"), "float32"),
                                         "dimension": t([1], "int32")})
    add(f"{op.lower()}_empty_other", op, {"input": t(np.zeros((0, 3)), "float32"),
                                          "dimension": t(1, "int32")})

# ---------------------------------------------------------------- Bincount / DenseBincount
for dt in tf_dtypes("Bincount"):
    add(f"bincount_{dt}", "Bincount", {"arr": t([1, 1, 3, 0, 7, 3, 3], "int32"),
                                       "size": t(5, "int32"), "weights": t(vals((7,), dt), dt)},
        T=dt)
add("bincount_noweights", "Bincount", {"arr": t([1, 1, 3, 0, 4], "int32"), "size": t(6, "int32"),
                                       "weights": t([], "float32")})
add("bincount_err_neg_size", "Bincount", {"arr": t([1], "int32"), "size": t(-1, "int32"),
                                          "weights": t([], "int32")})
add("bincount_err_neg_val", "Bincount", {"arr": t([1, -2], "int32"), "size": t(3, "int32"),
                                         "weights": t([], "int32")})
add("bincount_err_wlen", "Bincount", {"arr": t([1, 2], "int32"), "size": t(3, "int32"),
                                      "weights": t([1.0], "float32")})
add("bincount_err_size_rank", "Bincount", {"arr": t([1, 2], "int32"), "size": t([3], "int32"),
                                           "weights": t([], "float32")})
for dt in tf_dtypes("DenseBincount"):
    add(f"densebincount_{dt}", "DenseBincount",
        {"input": t([1, 1, 3, 0, 7, 3], "int32"), "size": t(5, "int32"),
         "weights": t(vals((6,), dt), dt)}, T=dt)
for it in ("int32", "int64"):
    add(f"densebincount_2d_{it}", "DenseBincount",
        {"input": t([[1, 1, 3], [0, 4, 4]], it), "size": t(5, it),
         "weights": t([], "float32")})
    add(f"densebincount_binary_{it}", "DenseBincount",
        {"input": t([[1, 1, 3], [0, 4, 4]], it), "size": t(5, it),
         "weights": t([[2.0, 3.0, 4.0], [1.0, 1.0, 1.0]], "float64")}, {"binary_output": True})
add("densebincount_weights2d", "DenseBincount",
    {"input": t([[1, 1, 3], [0, 4, 4]], "int32"), "size": t(5, "int32"),
     "weights": t([[2.0, 3.0, 4.0], [1.0, 1.0, 1.0]], "float32")})
add("densebincount_err_neg", "DenseBincount",
    {"input": t([1, -1], "int32"), "size": t(5, "int32"), "weights": t([], "float32")})
add("densebincount_err_size", "DenseBincount",
    {"input": t([1], "int32"), "size": t(-5, "int32"), "weights": t([], "float32")})
add("densebincount_err_wshape", "DenseBincount",
    {"input": t([1, 2], "int32"), "size": t(5, "int32"), "weights": t([1.0, 2, 3], "float32")})
add("densebincount_err_rank3", "DenseBincount",
    {"input": t([[[1]]], "int32"), "size": t(5, "int32"), "weights": t([], "float32")})

# ---------------------------------------------------------------- Bucketize
for dt in tf_dtypes("Bucketize"):
    x = [-5, 0, 1, 2, 3, 10, 11, 100] if dt.startswith("int") else \
        [-5.0, 0.0, 0.5, 1.0, 2.5, 10.0, 11.0, NAN]
    add(f"bucketize_{dt}", "Bucketize", {"input": t(np.reshape(x, (2, 4)), dt)},
        {"boundaries": [0.0, 1.0, 2.5, 10.0]}, T=dt)
add("bucketize_empty_bounds", "Bucketize", {"input": t([1.0, -1.0], "float32")},
    {"boundaries": []})
add("bucketize_err_unsorted", "Bucketize", {"input": t([1.0], "float32")},
    {"boundaries": [2.0, 1.0]})

# ---------------------------------------------------------------- LinSpace
for dt in tf_dtypes("LinSpace"):
    for it in tf_dtypes("LinSpace", "Tidx"):
        add(f"linspace_{dt}_{it}", "LinSpace", {"start": t(-1.5, dt), "stop": t(2.0, dt),
                                                "num": t(7, it)}, T=dt)
add("linspace_one", "LinSpace", {"start": t(3.0, "float32"), "stop": t(5.0, "float32"),
                                 "num": t(1, "int32")})
add("linspace_desc", "LinSpace", {"start": t(5.0, "float64"), "stop": t(-5.0, "float64"),
                                  "num": t(11, "int32")})
add("linspace_err_num", "LinSpace", {"start": t(0.0, "float32"), "stop": t(1.0, "float32"),
                                     "num": t(0, "int32")})
add("linspace_err_start", "LinSpace", {"start": t([0.0], "float32"), "stop": t(1.0, "float32"),
                                       "num": t(3, "int32")})
add("linspace_err_stop", "LinSpace", {"start": t(0.0, "float32"), "stop": t([1.0], "float32"),
                                      "num": t(3, "int32")})
add("linspace_err_numrank", "LinSpace", {"start": t(0.0, "float32"), "stop": t(1.0, "float32"),
                                         "num": t([3], "int32")})

# ---------------------------------------------------------------- Igammac
for dt in tf_dtypes("Igammac"):
    a = [0.5, 1.0, 2.0, 5.0, 10.0, 0.1, 30.0, 0.0, -1.0, 1.0, NAN, 3.0, 100.0]
    x = [0.5, 2.0, 1.0, 3.0, 12.0, 5.0, 20.0, 1.0, 1.0, -1.0, 1.0, INF, 90.0]
    add(f"igammac_{dt}", "Igammac", {"a": t(a, dt), "x": t(x, dt)}, T=dt)
add("igammac_bcast", "Igammac", {"a": t([[0.5], [2.0]], "float64"),
                                 "x": t([0.1, 1.0, 4.0], "float64")})
add("igammac_err_shape", "Igammac", {"a": t([0.5, 1.0], "float32"),
                                     "x": t([0.1, 1.0, 4.0], "float32")})

# ---------------------------------------------------------------- bitwise
for op in ("BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift"):
    for dt in tf_dtypes(op):
        bits = int(dt.lstrip("uint")) if dt.startswith("u") else int(dt[3:])
        if op in ("LeftShift", "RightShift"):
            x = vals((8,), dt, -100, 100)
            y = [0, 1, 3, bits - 1, bits, bits + 3, -1 if not dt.startswith("u") else 2, 5]
        else:
            x = vals((2, 4), dt, -100, 100)
            y = vals((4,), dt, -100, 100)
        add(f"{op.lower()}_{dt}", op, {"x": t(x, dt), "y": t(y, dt)}, T=dt)
    add(f"{op.lower()}_err_shape", op, {"x": t([1, 2], "int32"), "y": t([1, 2, 3], "int32")})
for op in ("Invert", "PopulationCount"):
    for dt in tf_dtypes(op):
        if dt.startswith("u"):
            x = [0, 1, 5, 100, int(np.iinfo(dt).max)]
        else:
            x = [0, 1, -1, 100, int(np.iinfo(dt).min), int(np.iinfo(dt).max)]
        add(f"{op.lower()}_{dt}", op, {"x": t(x, dt)}, T=dt)

if __name__ == "__main__":
    record(C)
