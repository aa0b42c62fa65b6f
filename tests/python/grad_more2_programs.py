"""Programs over raw ops for the TensorList / TensorArray concat and split
gradients of csrc/eager/grad_more2.c, shared by
tools/record_grad_more2_programs.py (run on tf.raw_ops under TF 2.21) and
tests/python/test_grad_more2.py (run on tfe_py.ops). Each maps its watched
inputs to a scalar loss."""

from __future__ import annotations

from typing import Any

import numpy as np

LIST_INPUTS = {
    "x": np.array([[0.5, -1.0], [1.5, 2.0], [0.25, -0.75]]),
    "t": np.array([[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25], [2.0, 0.75], [-0.5, 1.25]]),
    "u": np.array([[0.3, -0.4], [1.1, 0.2], [0.7, -0.9], [-1.2, 0.6], [0.8, 0.1]]),
}

W5 = np.array([[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25], [2.0, -1.0], [0.75, 1.5]])


def list_programs(ops: Any, constant: Any, f64: Any, axis_kw: str = "axis") -> dict[str, Any]:
    """ops: tf.raw_ops or tfe_py.ops; axis_kw: Sum's axis keyword there
    ("axis" in raw_ops, the op definition's "reduction_indices" in tfe_py)."""

    def i32(v: Any) -> Any:
        return constant(np.asarray(v, np.int32))

    def i64(v: Any) -> Any:
        return constant(np.asarray(v, np.int64))

    w5 = constant(W5)
    w6 = constant(np.array([1.0, -2.0, 0.5, 3.0, -1.5, 0.25]))

    def s2(t: Any) -> Any:
        return ops.Sum(input=t, **{axis_kw: i32([0, 1])})

    def s1(t: Any) -> Any:
        return ops.Sum(input=t, **{axis_kw: i32([0])})

    def from_t(x: Any) -> Any:
        return ops.TensorListFromTensor(tensor=x, element_shape=i32([2]))

    def split(t: Any, lengths: list[int]) -> Any:
        return ops.TensorListSplit(tensor=t, element_shape=i32([-1, 2]), lengths=i64(lengths))

    def concat_v1(x: Any) -> Any:
        # three [2] elements -> one [6] tensor
        c, _ = ops.TensorListConcat(input_handle=from_t(x), element_dtype=f64, element_shape=[2])
        return s1(ops.Mul(x=c, y=w6))

    def concat_v2(x: Any) -> Any:
        c, _ = ops.TensorListConcatV2(input_handle=from_t(x), element_shape=i32([2]),
                                      leading_dims=i64(np.zeros(0, np.int64)),
                                      element_dtype=f64)
        return s1(ops.Mul(x=ops.Mul(x=c, y=c), y=w6))

    def split_concat(t: Any, u: Any) -> Any:
        # uneven pieces [2, 2] and [3, 2] back into one [5, 2] tensor
        lst = split(ops.Mul(x=t, y=u), [2, 3])
        c, _ = ops.TensorListConcatV2(input_handle=lst, element_shape=i32([-1, 2]),
                                      leading_dims=i64(np.zeros(0, np.int64)),
                                      element_dtype=f64)
        return s2(ops.Mul(x=c, y=w5))

    def split_get_item(t: Any) -> Any:
        lst = split(t, [1, 4])
        it = ops.TensorListGetItem(input_handle=lst, index=i32(1),
                                   element_shape=i32([-1, 2]), element_dtype=f64)
        return s2(ops.Mul(x=ops.Exp(x=it), y=w5[:4]))

    def split_concat_v1(t: Any) -> Any:
        lst = split(t, [3, 0, 2])
        c, _ = ops.TensorListConcat(input_handle=lst, element_dtype=f64, element_shape=[-1, 2])
        return s2(ops.Mul(x=ops.Mul(x=c, y=c), y=w5))

    return {
        "concat_v1": (concat_v1, ["x"]),
        "concat_v2": (concat_v2, ["x"]),
        "split_concat": (split_concat, ["t", "u"]),
        "split_get_item": (split_get_item, ["t"]),
        "split_concat_v1": (split_concat_v1, ["t"]),
    }


TA_INPUTS = {
    "x": np.array([[0.5, -1.0], [1.5, 2.0], [0.25, -0.75], [1.0, 0.5], [-2.0, 0.3]], np.float32),
    "y": np.array([[0.25, 0.75], [-0.5, 1.5], [2.0, 0.1], [0.6, -0.2], [1.2, 0.9]], np.float32),
}


def ta_programs(ops: Any, constant: Any, f32: Any, axis_kw: str = "axis") -> dict[str, Any]:
    """TensorArrayV3 programs through SplitV3 / ConcatV3 (float32)."""

    def i32(v: Any) -> Any:
        return constant(np.asarray(v, np.int32))

    def i64(v: Any) -> Any:
        return constant(np.asarray(v, np.int64))

    w = constant(W5.astype(np.float32))

    def s2(t: Any) -> Any:
        return ops.Sum(input=t, **{axis_kw: i32([0, 1])})

    def new_ta(n: int) -> Any:
        return ops.TensorArrayV3(size=i32(n), dtype=f32, clear_after_read=False)

    def split_concat(x: Any, y: Any) -> Any:
        # split x * y into [2, 2] and [3, 2], read one piece, concat all back
        ta, flow = new_ta(2)
        flow = ops.TensorArraySplitV3(handle=ta, value=ops.Mul(x=x, y=y), lengths=i64([2, 3]),
                                      flow_in=flow)
        r = ops.TensorArrayReadV3(handle=ta, index=i32(1), flow_in=flow, dtype=f32)
        c, _ = ops.TensorArrayConcatV3(handle=ta, flow_in=flow, dtype=f32)
        return ops.AddV2(x=s2(ops.Mul(x=c, y=w)), y=s2(ops.Mul(x=r, y=r)))

    def write_concat(x: Any, y: Any) -> Any:
        # pieces of different lengths written one by one, then concatenated
        ta, flow = new_ta(3)
        flow = ops.TensorArrayWriteV3(handle=ta, index=i32(0), value=x[:2], flow_in=flow)
        flow = ops.TensorArrayWriteV3(handle=ta, index=i32(2), value=ops.Exp(x=y[:1]),
                                      flow_in=flow)
        flow = ops.TensorArrayWriteV3(handle=ta, index=i32(1), value=ops.Mul(x=x[2:4], y=y[2:4]),
                                      flow_in=flow)
        c, _ = ops.TensorArrayConcatV3(handle=ta, flow_in=flow, dtype=f32)
        return s2(ops.Mul(x=ops.Mul(x=c, y=c), y=w))

    def split_gather(x: Any, y: Any) -> Any:
        # equal pieces, read back with a gather
        ta, flow = new_ta(5)
        flow = ops.TensorArraySplitV3(handle=ta, value=ops.AddV2(x=x, y=ops.Exp(x=y)),
                                      lengths=i64([1, 1, 1, 1, 1]), flow_in=flow)
        g = ops.TensorArrayGatherV3(handle=ta, indices=i32([4, 0, 2]), flow_in=flow, dtype=f32,
                                    element_shape=[1, 2])
        return s2(ops.Mul(x=ops.Reshape(tensor=g, shape=i32([3, 2])), y=w[:3]))

    return {
        "split_concat": split_concat,
        "write_concat": write_concat,
        "split_gather": split_gather,
    }
