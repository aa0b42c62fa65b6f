"""Records TF 2.21's results of array, string, parsing and linalg kernels
that no other TF-recorded file named yet (BroadcastGradientArgs,
ConcatOffset, InvertPermutation, ListDiff, LowerBound/UpperBound,
UniqueWithCounts, Size, ZerosLike, Empty, the identity-like ops, Const and
Placeholder in graphs, StaticRegexReplace, UnicodeScript, SerializeTensor,
MatrixLogarithm) into tests/data/coverage_array_tf221.json. Run with
/work/tfvenv/bin/python; tests/python/test_coverage_array.py reads the JSON."""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from record_coverage_common import Cases, record, ref, t, tf_dtypes

C = Cases("array", 2119)
add = C.add
vals = C.vals

# ---------------------------------------------------------------- BroadcastGradientArgs
for dt in tf_dtypes("BroadcastGradientArgs"):
    for i, (a, b) in enumerate((([2, 3, 4], [3, 1]), ([1], [5, 2]), ([], [2, 2]),
                                ([4, 1, 3], [4, 2, 3]), ([2, 1], [2, 1]), ([0, 1], [1, 4]))):
        add(f"bga_{dt}_{i}", "BroadcastGradientArgs", {"s0": t(a, dt), "s1": t(b, dt)},
            T=dt if i == 0 else None)
add("bga_err", "BroadcastGradientArgs", {"s0": t([2, 3], "int32"), "s1": t([4], "int32")})
add("bga_err_rank", "BroadcastGradientArgs", {"s0": t([[2, 3]], "int32"), "s1": t([3], "int32")})

# ---------------------------------------------------------------- ConcatOffset
for dt in tf_dtypes("ConcatOffset", "shape_type"):
    add(f"concatoffset_{dt}", "ConcatOffset",
        {"concat_dim": t(1, "int32"), "shape": [t([2, 3, 5], dt), t([2, 7, 5], dt),
                                                t([2, 1, 5], dt)]}, T=dt)
add("concatoffset_neg", "ConcatOffset",
    {"concat_dim": t(-1, "int32"), "shape": [t([2, 3], "int32"), t([2, 4], "int32")]})
add("concatoffset_err_dim", "ConcatOffset",
    {"concat_dim": t(2, "int32"), "shape": [t([2, 3], "int32"), t([2, 4], "int32")]})
add("concatoffset_err_mismatch", "ConcatOffset",
    {"concat_dim": t(1, "int32"), "shape": [t([2, 3], "int32"), t([3, 4], "int32")]})
add("concatoffset_err_rank", "ConcatOffset",
    {"concat_dim": t(0, "int32"), "shape": [t([2, 3], "int32"), t([2, 3, 1], "int32")]})

# ---------------------------------------------------------------- InvertPermutation
for dt in tf_dtypes("InvertPermutation"):
    add(f"invperm_{dt}", "InvertPermutation", {"x": t([3, 4, 0, 2, 1], dt)}, T=dt)
add("invperm_empty", "InvertPermutation", {"x": t([], "int32")})
add("invperm_err_dup", "InvertPermutation", {"x": t([0, 0, 1], "int32")})
add("invperm_err_range", "InvertPermutation", {"x": t([0, 3, 1], "int32")})
add("invperm_err_rank", "InvertPermutation", {"x": t([[0]], "int32")})

# ---------------------------------------------------------------- ListDiff
for dt in tf_dtypes("ListDiff"):
    x = vals((8,), dt)
    y = np.asarray(x)[[1, 3]] if dt != "string" else np.asarray(["s1", "zz"], dtype=object)
    add(f"listdiff_{dt}", "ListDiff", {"x": t(x, dt), "y": t(y, dt)}, T=dt)
add("listdiff_idx64", "ListDiff", {"x": t([1, 2, 3, 4], "int32"), "y": t([2, 5], "int32")},
    {"out_idx": "int64"})
add("listdiff_err_rank", "ListDiff", {"x": t([[1, 2]], "int32"), "y": t([2], "int32")})

# ---------------------------------------------------------------- LowerBound / UpperBound
for op in ("LowerBound", "UpperBound"):
    for dt in tf_dtypes(op):
        sv = np.sort(vals((2, 6), dt, 0, 9), axis=1)
        v = vals((2, 4), dt, 0, 10)
        add(f"{op.lower()}_{dt}", op, {"sorted_inputs": t(sv, dt), "values": t(v, dt)}, T=dt)
    add(f"{op.lower()}_out64", op, {"sorted_inputs": t([[1, 2, 2, 5]], "float32"),
                                    "values": t([[2.0, 0.0, 9.0]], "float32")},
        {"out_type": "int64"})
    add(f"{op.lower()}_err_rows", op, {"sorted_inputs": t([[1, 2], [3, 4]], "int32"),
                                       "values": t([[1]], "int32")})
    add(f"{op.lower()}_err_rank", op, {"sorted_inputs": t([1, 2], "int32"),
                                       "values": t([1], "int32")})

# ---------------------------------------------------------------- UniqueWithCounts
for dt in tf_dtypes("UniqueWithCounts"):
    base = np.asarray(vals((3,), dt))
    x = base[[0, 1, 0, 2, 1, 1]] if dt != "bool" else np.asarray([1, 0, 1, 1, 0, 1], bool)
    add(f"uwc_{dt}", "UniqueWithCounts", {"x": t(x, dt)}, T=dt)
add("uwc_idx64", "UniqueWithCounts", {"x": t([4, 2, 4, 7], "int32")}, {"out_idx": "int64"})
add("uwc_err_rank", "UniqueWithCounts", {"x": t([[4, 2]], "int32")})

# ---------------------------------------------------------------- Size, ZerosLike, Empty
for ot in tf_dtypes("Size", "out_type"):
    add(f"size_{ot}", "Size", {"input": t(vals((2, 3, 4), "float32"), "float32")},
        {"out_type": ot}, T=ot)
add("size_scalar", "Size", {"input": t("a", "string")})
add("size_empty", "Size", {"input": t(np.zeros((3, 0)), "bool")})
for dt in tf_dtypes("ZerosLike"):
    if dt == "variant":
        continue
    add(f"zeroslike_{dt}", "ZerosLike", {"x": t(vals((2, 3), dt), dt)}, T=dt)
for dt in tf_dtypes("Empty", "dtype"):
    add(f"empty_{dt}", "Empty", {"shape": t([2, 3], "int32")}, {"dtype": dt, "init": True}, T=dt)
add("empty_noinit", "Empty", {"shape": t([4, 0, 2], "int32")}, {"dtype": "float32"})
add("empty_noinit_shape", "Empty", {"shape": t([3, 2], "int32")}, {"dtype": "float64"},
    check=["shape"])
add("empty_err_neg", "Empty", {"shape": t([2, -1], "int32")}, {"dtype": "float32"})
add("empty_err_rank", "Empty", {"shape": t([[2]], "int32")}, {"dtype": "float32"})

# ---------------------------------------------------------------- identity-like
for op in ("DeepCopy", "GuaranteeConst", "PreventGradient", "StopGradient",
           "DebugGradientIdentity"):
    for dt in ("float32", "int64", "string", "complex128", "bool"):
        add(f"{op.lower()}_{dt}", op, {"x" if op == "DeepCopy" else "input":
                                       t(vals((2, 2), dt), dt)})
add("preventgradient_msg", "PreventGradient", {"input": t([1.0], "float32")},
    {"message": "no grad here"})

# ---------------------------------------------------------------- Const / Placeholder in graphs
C.graph("const_float", [{"op": "Const", "attrs": {"value": {"tensor": t([[1.5, 2.0]], "float32")},
                                                     "dtype": "float32"}}],
        [[[0, 0]]])
C.graph("const_string", [{"op": "Const", "attrs": {"value": {"tensor": t(["ab", "c"], "string")},
                                                      "dtype": "string"}}],
        [[[0, 0]]])
C.graph("placeholder_unfed", [{"op": "Placeholder", "attrs": {"dtype": "float32",
                                                               "shape": [2]}},
                              {"op": "Identity", "inputs": {"input": ref(0)}}], [[[1, 0]]])
C.graph("refidentity", [
    {"op": "VariableV2", "attrs": {"shape": [2], "dtype": "float32"}},
    {"op": "Assign", "inputs": {"ref": ref(0), "value": t([1.0, 2.0], "float32")}},
    {"op": "RefIdentity", "inputs": {"input": ref(1)}},
    {"op": "Identity", "inputs": {"input": ref(2)}},
], [[[3, 0]]])

# ---------------------------------------------------------------- strings, parsing
add("staticregexreplace", "StaticRegexReplace",
    {"input": t(["hello world", "aaa", "", "xaxbx"], "string")},
    {"pattern": "a|o", "rewrite": "<\\0>"})
add("staticregexreplace_first", "StaticRegexReplace",
    {"input": t([["hello world", "aaa"]], "string")},
    {"pattern": "[lo]+", "rewrite": "_", "replace_global": False})
add("staticregexreplace_group", "StaticRegexReplace", {"input": t(["2024-01-31"], "string")},
    {"pattern": r"(\d+)-(\d+)-(\d+)", "rewrite": r"\3/\2/\1"})
add("staticregexreplace_err", "StaticRegexReplace", {"input": t(["x"], "string")},
    {"pattern": "(", "rewrite": "y"})
add("unicodescript", "UnicodeScript",
    {"input": t([65, 0x3b1, 0x416, 0x5d0, 0x627, 0x4e2d, 0x3042, 0x30a2, 0xac00, 0x0e01, 32,
                 48, 0x1F600, -1, 0x110000], "int32")})
add("unicodescript_2d", "UnicodeScript", {"input": t([[0x915, 0x10d0], [0x13a0, 0x1200]],
                                                     "int32")})
for dt in tf_dtypes("SerializeTensor"):
    if dt in ("resource", "variant"):
        continue
    add(f"serializetensor_{dt}", "SerializeTensor", {"tensor": t(vals((2, 2), dt), dt)}, T=dt)
add("serializetensor_scalar", "SerializeTensor", {"tensor": t(3.5, "float64")})
add("serializetensor_empty", "SerializeTensor", {"tensor": t(np.zeros((0, 3)), "int32")})

# ---------------------------------------------------------------- MatrixLogarithm
for dt in tf_dtypes("MatrixLogarithm"):
    m = np.asarray([[2.0, 0.5, 0.0], [0.3, 3.0, 0.1], [0.0, 0.2, 1.5]])
    add(f"matrixlog_{dt}", "MatrixLogarithm", {"input": t(m + 0.25j * np.eye(3), dt)}, T=dt)
    add(f"matrixlog_batch_{dt}", "MatrixLogarithm",
        {"input": t(np.stack([np.eye(2) * 2.0, [[1.0, 1.0], [0.0, 1.0]]]) + 0j, dt)})
add("matrixlog_err_square", "MatrixLogarithm", {"input": t(np.ones((2, 3)) + 0j, "complex64")})
add("matrixlog_err_rank", "MatrixLogarithm", {"input": t(np.ones((3,)) + 0j, "complex64")})
add("matrixlog_empty", "MatrixLogarithm", {"input": t(np.zeros((2, 0, 0)) + 0j, "complex128")})

# ---------------------------------------------------------------- logging
add("timestamp", "Timestamp", {}, check=["shape"])
add("printv2", "PrintV2", {"input": t("coverage print", "string")}, {"output_stream": "stderr"})
add("printv2_err_rank", "PrintV2", {"input": t(["a", "b"], "string")})

if __name__ == "__main__":
    record(C)
