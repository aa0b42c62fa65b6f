"""Records TF 2.21's results for the grad_support kernels
(csrc/kernels/cpu/grad_support_kernels.c: IgammaGradA,
SparseFillEmptyRowsGrad) into tests/data/grad_support_ops_tf221.json.
Run with /work/tfvenv/bin/python; tests/python/test_grad_support_ops.py only
reads the JSON. Each case runs one raw op eagerly on CPU and keeps its
outputs or its error (TF's exception class name and message), with
record_misc18_ops.py's runner and record_sparse_ops.py's tensor encoding."""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from record_misc18_ops import run_case
from record_sparse_ops import record_main, t

R = np.random.default_rng(20261202)
CASES: list[dict[str, Any]] = []


def add(name: str, op: str, inputs: dict[str, Any], attrs: dict[str, Any] | None = None) -> None:
    CASES.append({"name": name, "op": op, "inputs": inputs, "attrs": attrs or {}})


# ---------------------------------------------------------------- IgammaGradA
# a grid over both evaluation regions (the power series for x <= max(1, a),
# the continued fraction beyond), plus the edges: x = 0, x < 0, a <= 0, NaN,
# inf, tiny and large a, and values where the result underflows to 0.
A_GRID = [1e-3, 0.05, 0.3, 0.5, 0.99, 1.0, 1.5, 2.0, 3.7, 7.5, 12.0, 30.0, 100.0, 450.0]
X_GRID = [1e-6, 0.01, 0.2, 0.5, 0.999, 1.0, 1.001, 1.7, 2.5, 4.0, 9.0, 15.0, 35.0, 120.0, 600.0]
EDGE_A = [1.0, 2.0, -1.0, 0.0, float("nan"), 3.0, 1.0, 0.5, 5.0, 1e-30, 1e6, 2.0, float("inf")]
EDGE_X = [0.0, -0.5, 1.0, 1.0, 1.0, float("inf"), float("nan"), 1e-30, 1e4, 1.0, 1e6, 1e-300,
          2.0]
for dt in ("float32", "float64"):
    ga, gx = np.meshgrid(np.asarray(A_GRID), np.asarray(X_GRID), indexing="ij")
    add(f"igamma_grad_a_grid_{dt}", "IgammaGradA", {"a": t(ga, dt), "x": t(gx, dt)})
    # float32 has no 1e-300: a float32 subnormal-free tiny value instead
    ex = [1e-20 if dt == "float32" and 0 < abs(v) < 1e-38 else v for v in EDGE_X]
    add(f"igamma_grad_a_edges_{dt}", "IgammaGradA", {"a": t(EDGE_A, dt), "x": t(ex, dt)})
    add(f"igamma_grad_a_random_{dt}", "IgammaGradA",
        {"a": t(R.uniform(0.05, 6.0, (4, 5)), dt), "x": t(R.uniform(0.0, 8.0, (4, 5)), dt)})
    # broadcasting: a row of a against a column of x, and a scalar
    add(f"igamma_grad_a_bcast_{dt}", "IgammaGradA",
        {"a": t([0.5, 1.0, 2.0], dt), "x": t([[0.3], [2.0]], dt)})
    add(f"igamma_grad_a_scalar_{dt}", "IgammaGradA", {"a": t(2.5, dt), "x": t([0.5, 3.0, 7.0], dt)})
    add(f"igamma_grad_a_empty_{dt}", "IgammaGradA",
        {"a": t(np.zeros((0, 3)), dt), "x": t([1.0, 2.0, 3.0], dt)})
add("igamma_grad_a_err_shapes", "IgammaGradA",
    {"a": t([0.5, 1.0, 2.0], "float64"), "x": t([0.3, 2.0], "float64")})
add("igamma_grad_a_err_dtype", "IgammaGradA",
    {"a": t([0.5, 1.0], "float64"), "x": t([0.3, 2.0], "float32")})
add("igamma_grad_a_err_int", "IgammaGradA", {"a": t([1, 2], "int32"), "x": t([1, 2], "int32")})

# ---------------------------------------------------------------- SparseFillEmptyRowsGrad
SFER_DTYPES = ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
               "uint8", "uint16", "uint32", "uint64", "complex64", "complex128")


def vals(n: int, dt: str) -> Any:
    if dt.startswith("complex"):
        return R.integers(-4, 5, n) + 1j * R.integers(-4, 5, n)
    if dt.startswith("u"):
        return R.integers(0, 60, n)
    if dt.startswith("int"):
        return R.integers(-30, 60, n)
    return np.round(R.uniform(-2, 2, n), 2)


RIM = "reverse_index_map"
for dt in SFER_DTYPES:
    add(f"sfer_grad_{dt}", "SparseFillEmptyRowsGrad",
        {RIM: t([0, 2, 3, 6], "int64"), "grad_values": t(vals(8, dt), dt)})
# integer sums wrap in the element type, as TF's
add("sfer_grad_int8_wrap", "SparseFillEmptyRowsGrad",
    {RIM: t([0], "int64"), "grad_values": t([1, 100, 100, 100], "int8")})
add("sfer_grad_uint8_wrap", "SparseFillEmptyRowsGrad",
    {RIM: t([3], "int64"), "grad_values": t([200, 100, 7, 1], "uint8")})
add("sfer_grad_half_sum", "SparseFillEmptyRowsGrad",
    {RIM: t([1], "int64"), "grad_values": t([1000.0, 5.0, 0.3, 0.3, 0.3, 1e-3], "float16")})
add("sfer_grad_repeated", "SparseFillEmptyRowsGrad",
    {RIM: t([1, 0, 1], "int64"), "grad_values": t([1.0, 2.0], "float32")})
add("sfer_grad_repeated_partial", "SparseFillEmptyRowsGrad",
    {RIM: t([2, 2], "int64"), "grad_values": t([1.0, 2.0, 4.0, 8.0], "float64")})
add("sfer_grad_no_values", "SparseFillEmptyRowsGrad",
    {RIM: t(np.zeros(0, np.int64), "int64"), "grad_values": t([1.5, 2.0], "float32")})
add("sfer_grad_all_empty", "SparseFillEmptyRowsGrad",
    {RIM: t(np.zeros(0, np.int64), "int64"), "grad_values": t(np.zeros(0), "float64")})
add("sfer_grad_identity", "SparseFillEmptyRowsGrad",
    {RIM: t([0, 1, 2], "int64"), "grad_values": t([1.0, -2.0, 3.0], "float64")})
add("sfer_grad_err_map_rank", "SparseFillEmptyRowsGrad",
    {RIM: t([[0]], "int64"), "grad_values": t([1.0, 2.0], "float32")})
add("sfer_grad_err_map_scalar", "SparseFillEmptyRowsGrad",
    {RIM: t(0, "int64"), "grad_values": t([1.0, 2.0], "float32")})
add("sfer_grad_err_values_rank", "SparseFillEmptyRowsGrad",
    {RIM: t([0], "int64"), "grad_values": t(1.0, "float32")})
add("sfer_grad_err_values_matrix", "SparseFillEmptyRowsGrad",
    {RIM: t([0], "int64"), "grad_values": t([[1.0, 2.0]], "float64")})
add("sfer_grad_err_too_big", "SparseFillEmptyRowsGrad",
    {RIM: t([0, 7], "int64"), "grad_values": t([1.0, 2.0], "float32")})
add("sfer_grad_err_negative", "SparseFillEmptyRowsGrad",
    {RIM: t([0, -1], "int64"), "grad_values": t([1.0, 2.0], "float32")})
add("sfer_grad_err_no_room", "SparseFillEmptyRowsGrad",
    {RIM: t([0], "int64"), "grad_values": t(np.zeros(0), "float32")})
add("sfer_grad_err_bool", "SparseFillEmptyRowsGrad",
    {RIM: t([0], "int64"), "grad_values": t([True], "bool")})


def main() -> None:
    record_main(CASES, "grad_support_ops_tf221.json", run_case)


if __name__ == "__main__":
    main()
