"""Gradient cases of csrc/eager/grad_sparse.c."""

from __future__ import annotations

from typing import Any

from _common import Rng, c, c128, case, d

R = Rng("sparse")
arr = R.arr

IDX = [[0, 1], [0, 3], [1, 0], [2, 2], [2, 3]]
IDX_T = [[j, i] for i, j in IDX]
UNSORTED = [[2, 1], [0, 3], [1, 0], [0, 0]]
SEG_IDX = [0, 2, 2, 4, 1]
SEG_IDS = [0, 0, 1, 3, 3]


def stdmm(name: str, adj_a: bool, adj_b: bool, cplx: bool = False) -> dict[str, Any]:
    ind = IDX_T if adj_a else IDX
    shape = [4, 3] if adj_a else [3, 4]
    bshape = (2, 4) if adj_b else (4, 2)
    if cplx:
        vals: dict[str, Any] = c128(R.carr((5,)))
        b: dict[str, Any] = c128(R.carr(bshape))
    else:
        vals = d(arr((5,)))
        b = d(arr(bshape))
    return case(name, "SparseTensorDenseMatMul",
                {"a_indices": c(ind, "int64"), "a_values": vals,
                 "a_shape": c(shape, "int64"), "b": b},
                {"adjoint_a": adj_a, "adjoint_b": adj_b})


CASES: list[dict[str, Any]] = [
    stdmm("stdmm", False, False),
    stdmm("stdmm_adj_a", True, False),
    stdmm("stdmm_adj_b", False, True),
    stdmm("stdmm_adj_ab", True, True),
    stdmm("stdmm_c128", False, False, True),
    stdmm("stdmm_c128_adj_a", True, False, True),
    stdmm("stdmm_c128_adj_b", False, True, True),
    stdmm("stdmm_c128_adj_ab", True, True, True),
    case("stdmm_int32_indices", "SparseTensorDenseMatMul",
         {"a_indices": c(IDX, "int32"), "a_values": d(arr((5,))),
          "a_shape": c([3, 4], "int64"), "b": d(arr((4, 3)))}),
    case("sparse_to_dense", "SparseToDense",
         {"sparse_indices": c([[0, 1], [1, 0], [2, 3]], "int64"),
          "output_shape": c([3, 4], "int64"), "sparse_values": d(arr((3,))),
          "default_value": d(0.5)}),
    # (vector sparse_indices: TF's gradient itself fails there, in GatherNd)
    case("sparse_to_dense_3d", "SparseToDense",
         {"sparse_indices": c([[0, 0, 1], [1, 2, 0]]), "output_shape": c([2, 3, 2]),
          "sparse_values": d(arr((2,))), "default_value": d(-1.0)}),
    case("sparse_tensor_dense_add", "SparseTensorDenseAdd",
         {"a_indices": c([[0, 1], [1, 0], [1, 2]], "int64"), "a_values": d(arr((3,))),
          "a_shape": c([2, 3], "int64"), "b": d(arr((2, 3)))}),
    case("sparse_tensor_dense_add_dup", "SparseTensorDenseAdd",
         {"a_indices": c([[0, 1], [1, 0], [1, 0]]), "a_values": d(arr((3,))),
          "a_shape": c([2, 3]), "b": d(arr((2, 3)))}),
    case("sparse_reorder", "SparseReorder",
         {"input_indices": c(UNSORTED, "int64"), "input_values": d(arr((4,))),
          "input_shape": c([3, 4], "int64")}, outputs=[1]),
    case("sparse_add", "SparseAdd",
         {"a_indices": c([[0, 0], [0, 2], [1, 1]], "int64"), "a_values": d(arr((3,))),
          "a_shape": c([2, 3], "int64"),
          "b_indices": c([[0, 1], [0, 2], [1, 2]], "int64"), "b_values": d(arr((3,))),
          "b_shape": c([2, 3], "int64"), "thresh": c(0.0, "float64")}, outputs=[1]),
    case("sparse_add_thresh", "SparseAdd",
         {"a_indices": c([[0, 0], [0, 2], [1, 1]], "int64"), "a_values": d([1.0, 2.0, 3.0]),
          "a_shape": c([2, 3], "int64"),
          "b_indices": c([[0, 2], [1, 1], [1, 2]], "int64"), "b_values": d([-2.0, -2.5, 0.1]),
          "b_shape": c([2, 3], "int64"), "thresh": c(0.2, "float64")},
         outputs=[1], numeric=False),
]

for _op in ("SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN"):
    _s = _op[len("SparseSegment"):].lower()
    CASES.append(case(f"segment_{_s}", _op,
                      {"data": d(arr((5, 3))), "indices": c(SEG_IDX),
                       "segment_ids": c(SEG_IDS)}))
    CASES.append(case(f"segment_{_s}_num_segments", _op + "WithNumSegments",
                      {"data": d(arr((5, 3))), "indices": c(SEG_IDX, "int64"),
                       "segment_ids": c(SEG_IDS), "num_segments": c(6)}))
    CASES.append(case(f"segment_{_s}_1d_f32", _op,
                      {"data": d(arr((4,)), "float32"), "indices": c([3, 0, 1]),
                       "segment_ids": c([0, 0, 2], "int64")}))
