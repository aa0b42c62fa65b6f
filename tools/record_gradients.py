"""Records TF 2.21's gradients of the array, nn and extra math ops into
tests/data/gradients_tf221.json (run with /work/tfvenv/bin/python; the tests
only read the JSON).

Each case calls one raw op with keyword arguments. Inputs marked "diff" are
watched; the loss is sum_k sum(output_k * weight_k) over the listed
outputs, with fixed random weights, and the recorded values are the
gradients of that loss (None where TF gives none)."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import numpy as np

R = np.random.default_rng(17)


def arr(shape: tuple[int, ...], lo: float = -1.5, hi: float = 1.5) -> np.ndarray:
    return R.uniform(lo, hi, shape)


def d(v: Any, dtype: str = "float64") -> dict[str, Any]:
    """A differentiable input."""
    return {"value": np.asarray(v).tolist(), "dtype": dtype, "diff": True}


def dl(vs: list[Any], dtype: str = "float64") -> dict[str, Any]:
    """A list of differentiable inputs."""
    return {"value": [np.asarray(v).tolist() for v in vs], "dtype": dtype, "diff": True,
            "list": True}


def c(v: Any, dtype: str = "int32") -> dict[str, Any]:
    """A constant (not watched) input."""
    return {"value": np.asarray(v).tolist(), "dtype": dtype, "diff": False}


def case(name: str, op: str, inputs: dict[str, Any], attrs: dict[str, Any] | None = None,
         outputs: list[int] | None = None, numeric: bool = True) -> dict[str, Any]:
    return {"name": name, "op": op, "inputs": inputs, "attrs": attrs or {},
            "outputs": outputs if outputs is not None else [0], "numeric": numeric}


def f32(v: Any) -> dict[str, Any]:
    return d(v, "float32")


POS = arr((2, 3), 0.3, 1.4)
TIES = np.array([[1.0, 3.0, 3.0, 0.5], [2.0, 2.0, -1.0, 2.0], [0.0, 0.1, 0.2, 0.3]])
CASES: list[dict[str, Any]] = [
    case("concat_axis1", "ConcatV2", {"values": dl([arr((2, 3)), arr((2, 2))]),
                                      "axis": c(1)}),
    case("concat_neg_axis", "ConcatV2", {"values": dl([arr((2, 3)), arr((1, 3)), arr((3, 3))]),
                                         "axis": c(-2)}),
    case("concat_f32", "ConcatV2", {"values": dl([arr((2, 2)), arr((2, 1))], "float32"),
                                    "axis": c(1, "int64")}, numeric=False),
    case("pack_axis1", "Pack", {"values": dl([arr((2, 3)), arr((2, 3))])}, {"axis": 1}),
    case("unpack_axis1", "Unpack", {"value": d(arr((3, 2, 2)))}, {"num": 2, "axis": 1},
         outputs=[0, 1]),
    case("unpack_one_output", "Unpack", {"value": d(arr((3, 2)))}, {"num": 3, "axis": 0},
         outputs=[1]),
    case("split", "Split", {"axis": c(1), "value": d(arr((2, 6)))}, {"num_split": 3},
         outputs=[0, 2]),
    case("splitv", "SplitV", {"value": d(arr((4, 3))), "size_splits": c([1, 3]),
                              "axis": c(0)}, {"num_split": 2}, outputs=[0, 1]),
    case("gather_axis0", "GatherV2", {"params": d(arr((5, 3))), "indices": c([0, 2, 2, 4]),
                                      "axis": c(0)}),
    case("gather_axis1_2d_indices", "GatherV2",
         {"params": d(arr((2, 4, 3))), "indices": c([[1, 3], [0, 0]]), "axis": c(1)}),
    case("gather_axis_last_i64", "GatherV2",
         {"params": d(arr((2, 4))), "indices": c([3, 3, 1], "int64"), "axis": c(-1, "int64")}),
    case("gather_f32", "GatherV2", {"params": f32(arr((4, 2))), "indices": c([1, 1, 0]),
                                    "axis": c(0)}, numeric=False),
    case("slice", "Slice", {"input": d(arr((4, 5))), "begin": c([1, 2]), "size": c([2, -1])}),
    case("slice_i64", "Slice", {"input": d(arr((3, 4, 2))), "begin": c([0, 1, 1], "int64"),
                                "size": c([3, 2, 1], "int64")}),
    case("strided_slice_neg_stride", "StridedSlice",
         {"input": d(arr((5, 6))), "begin": c([0, 5]), "end": c([5, 0]),
          "strides": c([2, -2])}),
    case("strided_slice_shrink", "StridedSlice",
         {"input": d(arr((3, 4))), "begin": c([1, 0]), "end": c([2, 4]), "strides": c([1, 1])},
         {"shrink_axis_mask": 1}),
    case("strided_slice_masks", "StridedSlice",
         {"input": d(arr((2, 3, 4))), "begin": c([0, 1]), "end": c([0, 3]),
          "strides": c([1, 2])},
         {"ellipsis_mask": 1, "new_axis_mask": 0, "begin_mask": 0, "end_mask": 0}),
    case("strided_slice_new_axis", "StridedSlice",
         {"input": d(arr((3, 4))), "begin": c([0, 0, 1]), "end": c([0, 2, 4]),
          "strides": c([1, 1, 1])}, {"new_axis_mask": 1}),
    case("pad", "Pad", {"input": d(arr((2, 3))), "paddings": c([[1, 0], [2, 1]])}),
    case("padv2", "PadV2", {"input": d(arr((2, 3))), "paddings": c([[0, 2], [1, 1]], "int64"),
                            "constant_values": c(1.5, "float64")}),
    case("mirror_pad_reflect", "MirrorPad",
         {"input": d(arr((3, 4))), "paddings": c([[2, 1], [1, 3]])}, {"mode": "REFLECT"}),
    case("mirror_pad_symmetric", "MirrorPad",
         {"input": d(arr((3, 2))), "paddings": c([[3, 2], [2, 0]])}, {"mode": "SYMMETRIC"}),
    case("tile", "Tile", {"input": d(arr((2, 3))), "multiples": c([2, 3])}),
    case("tile_1d_i64", "Tile", {"input": d(arr((3,))), "multiples": c([2], "int64")}),
    case("select", "Select", {"condition": c([[True, False, True], [False, False, True]], "bool"),
                              "x": d(arr((2, 3))), "y": d(arr((2, 3)))}),
    case("select_vector_cond", "Select", {"condition": c([True, False], "bool"),
                                          "x": d(arr((2, 3))), "y": d(arr((2, 3)))}),
    case("selectv2_broadcast", "SelectV2",
         {"condition": c([[True, False, True]], "bool"), "t": d(arr((2, 3))),
          "e": d(arr(()))}),
    case("reverse", "Reverse", {"tensor": d(arr((2, 3))), "dims": c([True, False], "bool")}),
    case("reversev2", "ReverseV2", {"tensor": d(arr((2, 3, 2))), "axis": c([1, -1])}),
    case("broadcast_to", "BroadcastTo", {"input": d(arr((3, 1))), "shape": c([2, 3, 4])}),
    case("fill", "Fill", {"dims": c([2, 3]), "value": d(arr(()))}),
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
    case("identity_n", "IdentityN", {"input": dl([arr((2,)), arr((3, 1))])}, outputs=[0, 1]),
    case("ensure_shape", "EnsureShape", {"input": d(arr((2, 3)))}, {"shape": [2, 3]}),
    # nn
    case("conv2d_same_stride2", "Conv2D",
         {"input": d(arr((1, 5, 5, 2))), "filter": d(arr((3, 3, 2, 3)))},
         {"strides": [1, 2, 2, 1], "padding": "SAME"}),
    case("conv2d_valid_stride", "Conv2D",
         {"input": d(arr((2, 6, 5, 1))), "filter": d(arr((2, 2, 1, 2)))},
         {"strides": [1, 2, 1, 1], "padding": "VALID"}),
    case("conv2d_explicit", "Conv2D",
         {"input": d(arr((1, 4, 4, 2))), "filter": d(arr((2, 3, 2, 2)))},
         {"strides": [1, 1, 2, 1], "padding": "EXPLICIT",
          "explicit_paddings": [0, 0, 1, 0, 2, 1, 0, 0]}),
    case("conv2d_f32", "Conv2D",
         {"input": f32(arr((1, 4, 4, 1))), "filter": f32(arr((2, 2, 1, 2)))},
         {"strides": [1, 1, 1, 1], "padding": "SAME"}, numeric=False),
    case("depthwise_valid", "DepthwiseConv2dNative",
         {"input": d(arr((1, 5, 5, 2))), "filter": d(arr((3, 3, 2, 2)))},
         {"strides": [1, 1, 1, 1], "padding": "VALID"}),
    case("depthwise_same_stride2", "DepthwiseConv2dNative",
         {"input": d(arr((2, 4, 4, 1))), "filter": d(arr((2, 2, 1, 3)))},
         {"strides": [1, 2, 2, 1], "padding": "SAME"}),
    case("max_pool_valid", "MaxPool", {"input": d(arr((1, 4, 4, 2)))},
         {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1], "padding": "VALID"}),
    case("max_pool_same", "MaxPool", {"input": d(arr((2, 5, 5, 1)))},
         {"ksize": [1, 3, 3, 1], "strides": [1, 1, 1, 1], "padding": "SAME"}),
    case("max_pool_f32", "MaxPool", {"input": f32(arr((1, 3, 3, 1)))},
         {"ksize": [1, 2, 2, 1], "strides": [1, 1, 1, 1], "padding": "VALID"}, numeric=False),
    case("avg_pool_same", "AvgPool", {"value": d(arr((1, 5, 5, 2)))},
         {"ksize": [1, 3, 3, 1], "strides": [1, 2, 2, 1], "padding": "SAME"}),
    case("avg_pool_valid", "AvgPool", {"value": d(arr((2, 4, 4, 1)))},
         {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1], "padding": "VALID"}),
    case("l2_loss", "L2Loss", {"t": d(arr((3, 4)))}),
    case("lrn", "LRN", {"input": f32(arr((1, 2, 2, 5)))},
         {"depth_radius": 2, "bias": 1.0, "alpha": 0.5, "beta": 0.75}),
    # math
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
    case("gather_nd", "GatherNd", {"params": d(arr((3, 4))),
                                   "indices": c([[0, 1], [2, 3], [0, 1]])}),
    case("gather_nd_slices", "GatherNd", {"params": d(arr((3, 2, 2))), "indices": c([[2], [0]],
                                                                                    "int64")}),
    case("scatter_nd", "ScatterNd", {"indices": c([[1], [3], [1]]), "updates": d(arr((3, 2))),
                                     "shape": c([5, 2])}),
    case("reverse_sequence", "ReverseSequence",
         {"input": d(arr((3, 4, 2))), "seq_lengths": c([2, 4, 1], "int64")},
         {"seq_dim": 1, "batch_dim": 0}),
    case("depth_to_space", "DepthToSpace", {"input": d(arr((1, 2, 2, 4)))}, {"block_size": 2}),
    case("space_to_depth", "SpaceToDepth", {"input": d(arr((1, 4, 2, 1)))}, {"block_size": 2}),
    case("space_to_batch_nd", "SpaceToBatchND",
         {"input": d(arr((1, 4, 2, 1))), "block_shape": c([2, 2]),
          "paddings": c([[0, 0], [1, 1]])}),
    case("batch_to_space_nd", "BatchToSpaceND",
         {"input": d(arr((4, 2, 1, 1))), "block_shape": c([2, 2]),
          "crops": c([[0, 1], [0, 0]])}),
    case("max_pool_v2", "MaxPoolV2", {"input": d(arr((1, 4, 4, 1))), "ksize": c([1, 2, 2, 1]),
                                      "strides": c([1, 2, 2, 1])}, {"padding": "VALID"}),
    case("conv2d_backprop_input", "Conv2DBackpropInput",
         {"input_sizes": c([1, 5, 5, 2]), "filter": d(arr((3, 3, 2, 3))),
          "out_backprop": d(arr((1, 3, 3, 3)))},
         {"strides": [1, 2, 2, 1], "padding": "SAME"}),
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
    case("matrix_diag", "MatrixDiag", {"diagonal": d(arr((2, 3)))}),
    case("matrix_diag_part", "MatrixDiagPart", {"input": d(arr((2, 3, 4)))}),
    case("matrix_set_diag", "MatrixSetDiag", {"input": d(arr((3, 2))), "diagonal": d(arr((2,)))}),
    case("tensor_scatter_update", "TensorScatterUpdate",
         {"tensor": d(arr((4, 2))), "indices": c([[1], [3]]), "updates": d(arr((2, 2)))}),
    case("tensor_scatter_add", "TensorScatterAdd",
         {"tensor": d(arr((3, 2))), "indices": c([[0, 1], [2, 0], [0, 1]]),
          "updates": d(arr((3,)))}),
    case("floor_mod", "FloorMod", {"x": d(arr((2, 3), 0.1, 3.0)), "y": d([0.7, -0.9, 1.3])}),
    case("sigmoid_grad", "SigmoidGrad", {"y": d(arr((2, 3), 0.1, 0.9)), "dy": d(arr((2, 3)))}),
    case("relu_grad", "ReluGrad", {"gradients": d(arr((2, 3))),
                                   "features": d([[0.5, -0.3, 1.2], [-1.0, 0.7, -0.2]])}),
    case("relu6_grad", "Relu6Grad", {"gradients": d(arr((2, 3))),
                                     "features": d([[0.5, -0.3, 6.2], [-1.0, 5.7, 3.0]])}),
    case("leaky_relu_grad", "LeakyReluGrad",
         {"gradients": d(arr((2, 3))), "features": d([[0.5, -0.3, 1.2], [-1.0, 0.7, -0.2]])},
         {"alpha": 0.3}),
    case("elu_grad", "EluGrad", {"gradients": d(arr((2, 3))),
                                 "outputs": d([[0.5, -0.3, 1.2], [-0.6, 0.7, -0.2]])}),
    # the same three away from their non-smooth points (x = 0, y = 0)
    case("div_no_nan_smooth", "DivNoNan", {"x": d(arr((2, 3))), "y": d([0.5, 0.8, -1.25])}),
    case("xlogy_smooth", "Xlogy", {"x": d(arr((2, 3))), "y": d(POS[0])}),
    case("xdivy_smooth", "Xdivy", {"x": d(arr((2, 3))), "y": d(POS[1])}),
]


def run_case(tf: Any, cs: dict[str, Any]) -> dict[str, Any]:
    op = getattr(tf.raw_ops, cs["op"])
    kwargs: dict[str, Any] = dict(cs["attrs"])
    watched: list[tuple[str, int | None, Any]] = []
    for name, spec in cs["inputs"].items():
        if spec.get("list"):
            vals = [tf.constant(np.array(v, spec["dtype"])) for v in spec["value"]]
            kwargs[name] = vals
            watched += [(name, i, t) for i, t in enumerate(vals)]
        else:
            t = tf.constant(np.array(spec["value"], spec["dtype"]))
            kwargs[name] = t
            if spec["diff"]:
                watched.append((name, None, t))
    with tf.GradientTape() as tape:
        tape.watch([w[2] for w in watched])
        out = op(**kwargs)
        outs = out if isinstance(out, (list, tuple)) else [out]
        weights = []
        loss = 0.0
        for k in cs["outputs"]:
            w = R.uniform(-1.0, 1.0, tuple(outs[k].shape)).astype(outs[k].dtype.as_numpy_dtype)
            weights.append(w.tolist())
            loss = loss + tf.reduce_sum(outs[k] * w)
    grads = tape.gradient(loss, [w[2] for w in watched])
    res: dict[str, Any] = {}
    for (name, i, _), gr in zip(watched, grads, strict=True):
        if gr is not None:
            gr = tf.convert_to_tensor(gr).numpy().tolist()
        if i is None:
            res[name] = gr
        else:
            res.setdefault(name, []).append(gr)
    out = dict(cs)
    out["weights"] = weights
    out["grads"] = res
    return out


def main() -> None:
    import tensorflow as tf

    recorded = [run_case(tf, cs) for cs in CASES]
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "gradients_tf221.json")
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, "cases": recorded}, f, indent=1)
        f.write("\n")
    print(f"{len(recorded)} cases -> {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
