"""Gradient cases: Elementwise math, reductions, scans, matmuls
(csrc/eager/grad_math.c, grad_nn.c, grad_array.c).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from _common import Rng, c, c64, c128, case, d, dl, f32

R = Rng("math")
arr = R.arr
POS = arr((2, 3), 0.3, 1.4)
TIES = np.array([[1.0, 3.0, 3.0, 0.5], [2.0, 2.0, -1.0, 2.0], [0.0, 0.1, 0.2, 0.3]])

CASES: list[dict[str, Any]] = [
    case("max_ties", "Max", {"input": d(TIES), "axis": c([1])}, numeric=False),
    case("max", "Max", {"input": d(arr((3, 4))), "axis": c([1])}),
    case("min_keep", "Min", {"input": d(arr((3, 4))), "axis": c(0)}, {"keep_dims": True}),
    case("min_ties_all", "Min", {"input": d(TIES), "axis": c([0, 1])}, numeric=False),
    case("prod", "Prod", {"input": d(arr((2, 3, 4))), "axis": c([0, 2])}),
    case("prod_zero_keep", "Prod", {"input": d([[1.5, 0.0, 2.0], [0.0, 0.0, 3.0]]),
                                    "axis": c(-1)}, {"keep_dims": True}),
    case("prod_all", "Prod", {"input": d(arr((2, 3))), "axis": c([1, 0])}),
    case("cumsum", "Cumsum", {"x": d(arr((2, 4))), "axis": c(1)}),
    case("cumsum_excl_rev", "Cumsum", {"x": d(arr((3, 2))), "axis": c(0)},
         {"exclusive": True, "reverse": True}),
    case("cumprod", "Cumprod", {"x": d(arr((2, 4), 0.3, 1.5)), "axis": c(1)}),
    case("cumprod_excl", "Cumprod", {"x": d(arr((4,), 0.3, 1.5)), "axis": c(0)},
         {"exclusive": True}),
    case("atan2_broadcast", "Atan2", {"y": d(arr((2, 3))), "x": d(arr((3,)))}),
    case("pow_broadcast", "Pow", {"x": d(POS), "y": d(arr((3,)))}),
    case("pow_nonpositive_base", "Pow", {"x": d([[-1.5, 0.0, 2.0]]), "y": d([2.0, 3.0, 0.5])},
         numeric=False),
    case("div_no_nan", "DivNoNan", {"x": d(arr((2, 3))), "y": d([0.5, 0.0, -1.25])},
         numeric=False),
    case("mul_no_nan", "MulNoNan", {"x": d(arr((2, 3))), "y": d([[0.5, 0.0, -1.25]])}),
    case("xlogy", "Xlogy", {"x": d([[0.0, 1.5, -0.5], [2.0, 0.0, 0.7]]), "y": d(POS[0])},
         numeric=False),
    case("xdivy", "Xdivy", {"x": d([[0.0, 1.5, -0.5], [2.0, 0.0, 0.7]]), "y": d(POS[1])},
         numeric=False),
    case("batch_matmul", "BatchMatMulV2", {"x": d(arr((2, 2, 3))), "y": d(arr((3, 2)))}),
    case("batch_matmul_adj", "BatchMatMulV2", {"x": d(arr((1, 3, 2))), "y": d(arr((2, 4, 3)))},
         {"adj_x": True, "adj_y": True}),
    case("batch_matmul_adj_x", "BatchMatMulV2", {"x": d(arr((2, 3, 2))), "y": d(arr((2, 3, 1)))},
         {"adj_x": True}),
    case("batch_matmul_adj_y", "BatchMatMulV2", {"x": d(arr((2, 2))), "y": d(arr((3, 4, 2)))},
         {"adj_y": True}),
    case("segment_sum", "SegmentSum", {"data": d(arr((4, 2))), "segment_ids": c([0, 0, 1, 3])}),
    case("unsorted_segment_sum", "UnsortedSegmentSum",
         {"data": d(arr((2, 3, 2))), "segment_ids": c([[1, -1, 0], [4, 1, -1]]),
          "num_segments": c(5)}),
    case("clip_by_value", "ClipByValue",
         {"t": d(arr((2, 3))), "clip_value_min": d([[-0.5, -0.1, -2.0], [0.2, -1.0, 0.1]]),
          "clip_value_max": d(0.6)}),
    case("floor_mod", "FloorMod", {"x": d(arr((2, 3), 0.1, 3.0)), "y": d([0.7, -0.9, 1.3])}),
    case("div_no_nan_smooth", "DivNoNan", {"x": d(arr((2, 3))), "y": d([0.5, 0.8, -1.25])}),
    case("xlogy_smooth", "Xlogy", {"x": d(arr((2, 3))), "y": d(POS[0])}),
    case("xdivy_smooth", "Xdivy", {"x": d(arr((2, 3))), "y": d(POS[1])}),
    # complex inputs, integer inputs (no gradient), list inputs
    case("cast_int_source", "Cast", {"x": d([1, 2, 3], "int32")}, {"DstT": "float64"}),
    case("addn_list", "AddN", {"inputs": dl([arr((2, 2)), arr((2, 2)), arr((2, 2))])}),
]

# ---- unary elementwise ops: float64 (numeric), float32, complex where TF
# defines the gradient for complex, float16 for a few
# op -> (float64 range, complex too)
_UNARY: dict[str, tuple[tuple[float, float], bool]] = {
    "Abs": ((0.2, 1.5), False),
    "Neg": ((-1.5, 1.5), True),
    "Exp": ((-1.5, 1.5), True),
    "Log": ((0.2, 2.0), True),
    "Log1p": ((-0.5, 1.5), True),
    "Sin": ((-1.5, 1.5), True),
    "Cos": ((-1.5, 1.5), True),
    "Sqrt": ((0.2, 2.0), True),
    "Rsqrt": ((0.3, 2.0), True),
    "Reciprocal": ((0.3, 2.0), True),
    "Square": ((-1.5, 1.5), True),
    "Tanh": ((-1.5, 1.5), True),
    "Sigmoid": ((-2.0, 2.0), True),
    "Sign": ((0.1, 1.5), True),
    "Tan": ((-1.0, 1.0), True),
    "Asin": ((-0.9, 0.9), True),
    "Acos": ((-0.9, 0.9), True),
    "Atanh": ((-0.9, 0.9), True),
    "Asinh": ((-1.5, 1.5), True),
    "Acosh": ((1.2, 3.0), True),
    "Erf": ((-1.5, 1.5), False),
    "Erfc": ((-1.5, 1.5), False),
    "Expm1": ((-1.5, 1.5), True),
    "Lgamma": ((0.3, 3.0), False),
    "Digamma": ((0.3, 3.0), False),
}
_HALF = ("Exp", "Tanh", "Sigmoid", "Square", "Sqrt")


def _unary() -> list[dict[str, Any]]:
    out = []
    for op, ((lo, hi), cplx) in _UNARY.items():
        low = op.lower()
        out.append(case(f"{low}_f64", op, {"x": d(arr((2, 3), lo, hi))}))
        out.append(case(f"{low}_f32", op, {"x": f32(arr((4,), lo, hi))}))
        if op == "Abs":
            out.append(case("abs_mixed_sign", op, {"x": d([[-1.2, 0.4, -0.3], [0.8, -1.1, 2.0]])}))
        if op == "Sign":
            out.append(case("sign_mixed", op, {"x": d([[-1.2, 0.4, -0.3], [0.8, -1.1, 2.0]])}))
        if cplx:
            z = R.carr((2, 2), 0.3, 1.0) if op in ("Log", "Sqrt", "Rsqrt", "Acosh", "Log1p") \
                else R.carr((2, 2), -0.7, 0.7)
            out.append(case(f"{low}_c128", op, {"x": c128(z)}))
            out.append(case(f"{low}_c64", op, {"x": c64(R.carr((3,), 0.3, 0.9))}))
        if op in _HALF:
            out.append(case(f"{low}_f16", op, {"x": d(arr((3,), max(lo, 0.2), hi), "float16")}))
    return out


# ---- broadcasting binary ops: same shape, each side broadcast, scalar,
# float32, complex where TF defines it
# op -> (x range, y range, complex too)
_BINARY: dict[str, tuple[tuple[float, float], tuple[float, float], bool]] = {
    "Add": ((-1.5, 1.5), (-1.5, 1.5), True),
    "AddV2": ((-1.5, 1.5), (-1.5, 1.5), True),
    "Sub": ((-1.5, 1.5), (-1.5, 1.5), True),
    "Mul": ((-1.5, 1.5), (-1.5, 1.5), True),
    "Div": ((-1.5, 1.5), (0.4, 1.5), True),
    "RealDiv": ((-1.5, 1.5), (0.4, 1.5), True),
    "Maximum": ((-1.5, 1.5), (-1.5, 1.5), False),
    "Minimum": ((-1.5, 1.5), (-1.5, 1.5), False),
    "SquaredDifference": ((-1.5, 1.5), (-1.5, 1.5), True),
    "Pow": ((0.3, 1.5), (-1.5, 1.5), True),
    "Atan2": ((-1.5, 1.5), (0.3, 1.5), False),
    "DivNoNan": ((-1.5, 1.5), (0.4, 1.5), True),
    "MulNoNan": ((-1.5, 1.5), (-1.5, 1.5), True),
    "Xlogy": ((-1.5, 1.5), (0.3, 1.5), True),
    "Xdivy": ((-1.5, 1.5), (0.4, 1.5), True),
    "FloorMod": ((0.1, 3.0), (0.7, 1.3), False),
}


def _binary() -> list[dict[str, Any]]:
    out = []
    for op, ((xl, xh), (yl, yh), cplx) in _BINARY.items():
        low = op.lower()
        a, b = ("y", "x") if op == "Atan2" else ("x", "y")

        def mk(name: str, xs: Any, ys: Any, dt: str = "float64", low: str = low, op: str = op,
               a: str = a, b: str = b) -> dict[str, Any]:
            return case(f"{low}_{name}", op, {a: d(xs, dt), b: d(ys, dt)})

        out.append(mk("same", arr((2, 3), xl, xh), arr((2, 3), yl, yh)))
        out.append(mk("bcast_y_row", arr((2, 3), xl, xh), arr((3,), yl, yh)))
        out.append(mk("bcast_x_col", arr((2, 1), xl, xh), arr((2, 3), yl, yh)))
        out.append(mk("bcast_both", arr((3, 1, 2), xl, xh), arr((4, 1), yl, yh)))
        out.append(mk("scalar_y", arr((2, 2), xl, xh), arr((), yl, yh)))
        out.append(mk("f32_bcast", arr((2, 3), xl, xh), arr((1, 3), yl, yh), "float32"))
        if cplx:
            lo = 0.3 if op in ("Pow", "Xlogy", "Div", "RealDiv", "DivNoNan", "Xdivy") else -1.0
            out.append(mk("c128_bcast", R.carr((2, 3), lo, 1.0), R.carr((3,), 0.3, 1.0),
                          "complex128"))
            out.append(mk("c64", R.carr((2,), lo, 1.0), R.carr((2,), 0.3, 1.0), "complex64"))
    # ties: TF sends the whole gradient to x where x >= y (Maximum), x <= y (Minimum)
    tx = np.array([[1.0, 0.5, -0.25], [2.0, -1.0, 0.0]])
    ty = np.array([[1.0, 0.75, -0.25], [1.0, -1.0, 0.5]])
    out.append(case("maximum_ties", "Maximum", {"x": d(tx), "y": d(ty)}, numeric=False))
    out.append(case("minimum_ties", "Minimum", {"x": d(tx), "y": d(ty)}, numeric=False))
    out.append(case("pow_int_exponent_neg_base", "Pow",
                    {"x": d([-1.5, -0.5, 2.0]), "y": d([2.0, 3.0, 2.0])}, numeric=False))
    return out


# ---- reductions: keep_dims, negative axes, all axes, no axes, int64 axes
def _reductions() -> list[dict[str, Any]]:
    out = []
    for op in ("Sum", "Mean"):
        low = op.lower()
        out += [
            case(f"{low}_axis1", op, {"input": d(arr((2, 3, 4))), "axis": c([1])}),
            case(f"{low}_neg_keep", op, {"input": d(arr((2, 3, 4))), "axis": c([-1, 0])},
                 {"keep_dims": True}),
            case(f"{low}_all", op, {"input": d(arr((3, 2))), "axis": c([0, 1])}),
            case(f"{low}_scalar_axis_i64", op, {"input": d(arr((3, 2))),
                                                "axis": c(-2, "int64")}),
            case(f"{low}_no_axes", op, {"input": d(arr((2, 2))), "axis": c([], "int32")}),
            case(f"{low}_f32_keep", op, {"input": f32(arr((2, 3))), "axis": c([1])},
                 {"keep_dims": True}),
            case(f"{low}_c128", op, {"input": c128(R.carr((2, 3))), "axis": c([0])}),
        ]
    out += [
        case("max_neg_keep", "Max", {"input": d(R.distinct((2, 3, 2))), "axis": c([-1, 1])},
             {"keep_dims": True}),
        case("max_f32", "Max", {"input": f32(R.distinct((2, 3))), "axis": c([0])}),
        case("min_i64_axes", "Min", {"input": d(R.distinct((3, 3))), "axis": c([1], "int64")}),
        case("min_f32_keep", "Min", {"input": f32(R.distinct((2, 4))), "axis": c(-1)},
             {"keep_dims": True}),
        case("prod_neg_axis", "Prod", {"input": d(arr((2, 3))), "axis": c([-1])}),
        case("prod_f32", "Prod", {"input": f32(arr((2, 3), 0.5, 1.5)), "axis": c([0])}),
        case("prod_c128", "Prod", {"input": c128(R.carr((2, 3))), "axis": c([1])}),
        case("cumsum_c128", "Cumsum", {"x": c128(R.carr((3, 2))), "axis": c(0)}),
        case("cumsum_f32_rev", "Cumsum", {"x": f32(arr((2, 3))), "axis": c(-1)},
             {"reverse": True}),
        case("cumprod_c128", "Cumprod", {"x": c128(R.carr((4,), 0.3, 1.0)), "axis": c(0)}),
        case("cumprod_rev_excl", "Cumprod", {"x": d(arr((2, 3), 0.3, 1.5)), "axis": c(-1)},
             {"exclusive": True, "reverse": True}),
    ]
    return out


# ---- matrix products, AddN, Cast
def _products() -> list[dict[str, Any]]:
    out = []
    for ta in (False, True):
        for tb in (False, True):
            sa = (3, 2) if ta else (2, 3)
            sb = (4, 3) if tb else (3, 4)
            out.append(case(f"matmul_t{int(ta)}{int(tb)}", "MatMul",
                            {"a": d(arr(sa)), "b": d(arr(sb))},
                            {"transpose_a": ta, "transpose_b": tb}))
    out += [
        case("matmul_f32", "MatMul", {"a": f32(arr((2, 3))), "b": f32(arr((3, 2)))}),
        case("matmul_c128_tt", "MatMul", {"a": c128(R.carr((3, 2))), "b": c128(R.carr((2, 3)))},
             {"transpose_a": True, "transpose_b": True}),
        case("matmul_c64", "MatMul", {"a": c64(R.carr((2, 2))), "b": c64(R.carr((2, 3)))}),
        case("batch_matmul_c128_adj", "BatchMatMulV2",
             {"x": c128(R.carr((2, 3, 2))), "y": c128(R.carr((1, 3, 2)))},
             {"adj_x": True, "adj_y": False}),
        case("batch_matmul_c128_adj_y", "BatchMatMulV2",
             {"x": c128(R.carr((2, 2))), "y": c128(R.carr((2, 3, 2)))}, {"adj_y": True}),
        case("batch_matmul_f32", "BatchMatMulV2",
             {"x": f32(arr((2, 2, 3))), "y": f32(arr((3, 2)))}),
        case("addn_f32", "AddN", {"inputs": dl([arr((3,)), arr((3,))], "float32")}),
        case("addn_one", "AddN", {"inputs": dl([arr((2, 2))])}),
        case("addn_c128", "AddN", {"inputs": dl([R.carr((2,)), R.carr((2,))], "complex128")}),
        case("cast_f32_to_f64", "Cast", {"x": f32(arr((2, 3)))}, {"DstT": "float64"}),
        case("cast_f64_to_f32", "Cast", {"x": d(arr((2, 3)))}, {"DstT": "float32"},
             numeric=False),
        case("cast_f64_to_c128", "Cast", {"x": d(arr((3,)))}, {"DstT": "complex128"}),
        case("cast_c128_to_c64", "Cast", {"x": c128(R.carr((3,)))}, {"DstT": "complex64"}),
    ]
    return out


# ---- float16, and integer inputs (watched, but TF gives them no gradient)
def _half_and_int() -> list[dict[str, Any]]:
    h = "float16"
    return [
        case("addv2_f16_bcast", "AddV2", {"x": d(arr((2, 3)), h), "y": d(arr((3,)), h)}),
        case("mul_f16_bcast", "Mul", {"x": d(arr((2, 1)), h), "y": d(arr((2, 3)), h)}),
        case("maximum_f16", "Maximum", {"x": d(R.distinct((4,)), h), "y": d(arr((4,)), h)}),
        case("realdiv_f16", "RealDiv", {"x": d(arr((3,)), h), "y": d(arr((3,), 0.5, 1.5), h)}),
        case("sum_f16_keep", "Sum", {"input": d(arr((2, 3)), h), "axis": c([-1])},
             {"keep_dims": True}),
        case("matmul_f16", "MatMul", {"a": d(arr((2, 2)), h), "b": d(arr((2, 3)), h)}),
        case("addv2_int32_sources", "AddV2", {"x": d([1, 2, 3], "int32"), "y": d(4, "int32")}),
        case("cast_int64_source", "Cast", {"x": d([[5, -2]], "int64")},
             {"DstT": "float32"}),
    ]


CASES += _unary() + _binary() + _reductions() + _products() + _half_and_int()
