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
    case("expm1", "Expm1", {"x": d(arr((2, 3)))}),
    case("lgamma", "Lgamma", {"x": d(POS)}),
    case("digamma", "Digamma", {"x": d(POS)}),
    case("tan", "Tan", {"x": d(arr((2, 3), -1.0, 1.0))}),
    case("asin", "Asin", {"x": d(arr((2, 3), -0.9, 0.9))}),
    case("acos", "Acos", {"x": d(arr((2, 3), -0.9, 0.9))}),
    case("atanh", "Atanh", {"x": d(arr((2, 3), -0.9, 0.9))}),
    case("asinh", "Asinh", {"x": d(arr((2, 3)))}),
    case("acosh", "Acosh", {"x": d(arr((2, 3), 1.2, 3.0))}),
    case("erf", "Erf", {"x": d(arr((2, 3)))}),
    case("erfc", "Erfc", {"x": d(arr((2, 3)))}),
    case("erf_f32", "Erf", {"x": f32(arr((3,)))}, numeric=False),
    case("atan2_broadcast", "Atan2", {"y": d(arr((2, 3))), "x": d(arr((3,)))}),
    case("pow_broadcast", "Pow", {"x": d(POS), "y": d(arr((3,)))}),
    case("pow_nonpositive_base", "Pow", {"x": d([[-1.5, 0.0, 2.0]]), "y": d([2.0, 3.0, 0.5])},
         numeric=False),
    case("sign", "Sign", {"x": d(arr((2, 3)))}),
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
    case("mul_c128_broadcast", "Mul", {"x": c128(R.carr((2, 3))), "y": c128(R.carr((3,)))}),
    case("mul_c64", "Mul", {"x": c64(R.carr((3,))), "y": c64(R.carr((3,)))}),
    case("cast_int_source", "Cast", {"x": d([1, 2, 3], "int32")}, {"DstT": "float64"}),
    case("addn_list", "AddN", {"inputs": dl([arr((2, 2)), arr((2, 2)), arr((2, 2))])}),
]
