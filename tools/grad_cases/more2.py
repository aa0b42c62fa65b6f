"""Gradient cases of csrc/eager/grad_more2.c (sparse element-wise ops,
SparseReduceSum, SparseSoftmax, SparseFillEmptyRows, BiasAddV1,
MirrorPadGrad, StridedSliceGrad, NthElement, Spence) and of Igamma/Igammac
(csrc/eager/grad_more.c, registered once the IgammaGradA kernel exists).

Not here (tests/python/test_grad_more2.py): the TensorList/TensorArray
concat/split gradients (variant/resource inputs), the gradients TF only
raises from (SparseDenseCwiseAdd, SparseSparseMaximum/Minimum) and TopK v1
(its kernel refuses to run in TF 2.21, as in tfe).
"""

from __future__ import annotations

from typing import Any

from _common import Rng, c, case, d, f32

R = Rng("more2")
arr = R.arr

IDX = [[0, 1], [0, 3], [1, 0], [2, 2], [2, 3]]  # rows 0 and 2 hold two values
IDX3 = [[0, 0, 1], [0, 1, 0], [0, 1, 2], [1, 0, 2], [1, 1, 1], [1, 1, 2]]
EMPTY_ROWS = [[0, 1], [0, 3], [2, 0], [4, 2]]  # rows 1 and 3 empty


def sp(ind: list[list[int]], shape: list[int], vals: dict[str, Any],
       names: tuple[str, str, str] = ("sp_indices", "sp_values", "sp_shape")) -> dict[str, Any]:
    return {names[0]: c(ind, "int64"), names[1]: vals, names[2]: c(shape, "int64")}


def sdc(name: str, op: str, dense: Any, ind: list[list[int]] = IDX, shape: list[int] | None = None,
        vals: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    return case(name, op, {**sp(ind, shape or [3, 4], vals or d(arr((len(ind),)))),
                           "dense": dense}, **kw)


def srs(name: str, axes: Any, keep: bool, ind: list[list[int]] = IDX,
        shape: list[int] | None = None) -> dict[str, Any]:
    names = ("input_indices", "input_values", "input_shape")
    return case(name, "SparseReduceSum",
                {**sp(ind, shape or [3, 4], d(arr((len(ind),))), names),
                 "reduction_axes": c(axes)}, {"keep_dims": keep})


CASES: list[dict[str, Any]] = [
    # ---- Igamma / Igammac (d/da through IgammaGradA) ----
    case("igamma_broadcast", "Igamma",
         {"a": d(arr((3,), 0.5, 2.5)), "x": d(arr((2, 3), 0.2, 3.0))}),
    case("igamma_series_and_cf", "Igamma",
         {"a": d([0.3, 2.0, 5.0, 1.5, 0.8, 3.0]), "x": d([0.2, 0.9, 4.0, 3.5, 2.5, 9.0])}),
    case("igamma_scalar_x", "Igamma", {"a": d(arr((2, 3), 0.5, 4.0)), "x": d(1.7)}),
    case("igamma_f32", "Igamma", {"a": f32(arr((4,), 0.5, 3.0)), "x": f32(arr((4,), 0.2, 4.0))}),
    case("igammac", "Igammac", {"a": d(arr((2, 3), 0.5, 2.5)), "x": d(arr((2, 3), 0.2, 3.0))}),
    case("igammac_broadcast", "Igammac", {"a": d(1.3), "x": d(arr((2, 2), 0.2, 4.0))}),
    case("igammac_f32", "Igammac", {"a": f32(arr((3,), 0.5, 3.0)), "x": f32(arr((3,), 0.2, 4.0))}),
    # ---- SparseDenseCwiseMul / Div (dense broadcasts to the sparse shape) ----
    sdc("sdc_mul", "SparseDenseCwiseMul", d(arr((3, 4)))),
    sdc("sdc_mul_bcast_row", "SparseDenseCwiseMul", d(arr((4,)))),  # columns repeat
    sdc("sdc_mul_bcast_col", "SparseDenseCwiseMul", d(arr((3, 1)))),
    sdc("sdc_mul_bcast_one", "SparseDenseCwiseMul", d(arr((1, 1)))),
    sdc("sdc_mul_3d", "SparseDenseCwiseMul", d(arr((2, 3))), IDX3, [2, 2, 3]),
    sdc("sdc_mul_f32", "SparseDenseCwiseMul", f32(arr((4,))), vals=f32(arr((5,)))),
    sdc("sdc_div", "SparseDenseCwiseDiv", d(arr((3, 4), 0.5, 2.0))),
    sdc("sdc_div_bcast_row", "SparseDenseCwiseDiv", d(arr((4,), 0.5, 2.0))),
    sdc("sdc_div_bcast_col", "SparseDenseCwiseDiv", d(arr((3, 1), -2.0, -0.5))),
    sdc("sdc_div_3d", "SparseDenseCwiseDiv", d(arr((1, 3), 0.5, 2.0)), IDX3, [2, 2, 3]),
    sdc("sdc_div_f32", "SparseDenseCwiseDiv", f32(arr((3, 4), 0.5, 2.0)), vals=f32(arr((5,)))),
    # ---- SparseReduceSum ----
    srs("srs_axis1", [1], False),
    srs("srs_axis0_keep", [0], True),
    srs("srs_all", [0, 1], False),
    srs("srs_negative_axis", [-1], True),
    srs("srs_scalar_axis", 0, False),
    srs("srs_3d", [0, 2], False, IDX3, [2, 2, 3]),
    srs("srs_3d_keep", [-2], True, IDX3, [2, 2, 3]),
    # ---- SparseSoftmax (along the last dim of each row's values) ----
    case("sparse_softmax", "SparseSoftmax", sp(IDX, [3, 4], d(arr((5,))))),
    case("sparse_softmax_3d", "SparseSoftmax", sp(IDX3, [2, 2, 3], d(arr((6,))))),
    case("sparse_softmax_f32", "SparseSoftmax", sp(IDX, [3, 4], f32(arr((5,))))),
    # ---- SparseFillEmptyRows (values and default value) ----
    case("fill_empty_rows", "SparseFillEmptyRows",
         {"indices": c(EMPTY_ROWS, "int64"), "values": d(arr((4,))),
          "dense_shape": c([5, 4], "int64"), "default_value": d(0.25)}, outputs=[1]),
    case("fill_empty_rows_none_empty", "SparseFillEmptyRows",
         {"indices": c(IDX, "int64"), "values": d(arr((5,))),
          "dense_shape": c([3, 4], "int64"), "default_value": d(-1.0)}, outputs=[1]),
    case("fill_empty_rows_trailing", "SparseFillEmptyRows",
         {"indices": c([[1, 0]], "int64"), "values": d(arr((1,))),
          "dense_shape": c([4, 2], "int64"), "default_value": d(2.0)}, outputs=[1]),
    case("fill_empty_rows_f32", "SparseFillEmptyRows",
         {"indices": c(EMPTY_ROWS, "int64"), "values": f32(arr((4,))),
          "dense_shape": c([5, 4], "int64"), "default_value": f32(0.5)}, outputs=[1]),
    # ---- BiasAddV1 ----
    case("bias_add_v1", "BiasAddV1", {"value": d(arr((2, 3))), "bias": d(arr((3,)))}),
    case("bias_add_v1_4d", "BiasAddV1", {"value": d(arr((2, 2, 1, 3))), "bias": d(arr((3,)))}),
    case("bias_add_v1_f32", "BiasAddV1", {"value": f32(arr((3, 2))), "bias": f32(arr((2,)))}),
    # ---- MirrorPadGrad (linear in its input: its gradient is MirrorPad) ----
    case("mirror_pad_grad_reflect", "MirrorPadGrad",
         {"input": d(arr((7,))), "paddings": c([[2, 1]])}, {"mode": "REFLECT"}),
    case("mirror_pad_grad_symmetric_2d", "MirrorPadGrad",
         {"input": d(arr((6, 5))), "paddings": c([[1, 2], [2, 0]])}, {"mode": "SYMMETRIC"}),
    case("mirror_pad_grad_int64_pads", "MirrorPadGrad",
         {"input": d(arr((5, 4))), "paddings": c([[1, 1], [0, 1]], "int64")}, {"mode": "REFLECT"}),
    # ---- StridedSliceGrad (linear in dy: its gradient is the slice) ----
    case("strided_slice_grad", "StridedSliceGrad",
         {"shape": c([3, 4]), "begin": c([0, 1]), "end": c([3, 4]), "strides": c([2, 1]),
          "dy": d(arr((2, 3)))}),
    case("strided_slice_grad_masks", "StridedSliceGrad",
         {"shape": c([3, 4, 2]), "begin": c([1, 3]), "end": c([2, 0]), "strides": c([1, -1]),
          "dy": d(arr((2, 3, 2)))}, {"begin_mask": 1, "end_mask": 0, "ellipsis_mask": 0,
                                      "new_axis_mask": 0, "shrink_axis_mask": 0}),
    case("strided_slice_grad_shrink_newaxis", "StridedSliceGrad",
         {"shape": c([4, 3], "int64"), "begin": c([1, 0, 0], "int64"),
          "end": c([2, 0, 3], "int64"), "strides": c([1, 1, 2], "int64"),
          "dy": d(arr((1, 2)))}, {"shrink_axis_mask": 1, "new_axis_mask": 2}),
    case("strided_slice_grad_ellipsis", "StridedSliceGrad",
         {"shape": c([2, 3, 4]), "begin": c([0, 1]), "end": c([0, 4]), "strides": c([1, 2]),
          "dy": d(arr((2, 3, 2)))}, {"ellipsis_mask": 1}),
    # ---- NthElement (ties share the gradient) ----
    case("nth_element", "NthElement", {"input": d(R.distinct((3, 5))), "n": c(2)}),
    case("nth_element_reverse", "NthElement", {"input": d(R.distinct((2, 2, 4))), "n": c(0)},
         {"reverse": True}),
    case("nth_element_vector", "NthElement", {"input": d(R.distinct((6,))), "n": c(5)}),
    case("nth_element_ties", "NthElement",
         {"input": d([[1.0, 3.0, 3.0, 0.5], [2.0, 2.0, 2.0, 1.0]]), "n": c(2)}, numeric=False),
    case("nth_element_f32", "NthElement", {"input": f32(R.distinct((2, 4))), "n": c(1)}),
    # ---- Spence ----
    case("spence", "Spence", {"x": d(arr((2, 3), 0.1, 3.0))}),
    case("spence_large", "Spence", {"x": d([5.0, 20.0, 150.0])}),
    # x = 1: TF's gradient is -1 there (the derivative's limit)
    case("spence_at_one", "Spence", {"x": d([1.0, 0.5, 2.0])}, numeric=False),
    case("spence_f32", "Spence", {"x": f32(arr((4,), 0.1, 3.0))}),
]
