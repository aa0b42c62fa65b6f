"""TensorList / Optional programs over raw ops, shared by
tools/record_gradients_function.py (run on tf.raw_ops under TF 2.21) and
tests/python/test_gradients_function.py (run on tfe_py.ops)."""

from __future__ import annotations

from typing import Any

import numpy as np


def list_programs(ops: Any, constant: Any, f64: Any, axis_kw: str = "axis") -> dict[str, Any]:
    """TensorList / Optional programs over raw ops, shared with the test
    (ops: tf.raw_ops or tfe_py.ops; axis_kw: Sum's axis keyword there,
    "axis" in raw_ops, the op definition's "reduction_indices" in tfe_py).
    Each maps watched inputs to a loss."""
    es = constant(np.array([2], np.int32))
    w = constant(np.array([[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25]]))

    def from_t(x: Any) -> Any:
        return ops.TensorListFromTensor(tensor=x, element_shape=es)

    def stack(lst: Any) -> Any:
        return ops.TensorListStack(input_handle=lst, element_shape=es, element_dtype=f64)

    def s_(t: Any) -> Any:
        return ops.Sum(input=t, **{axis_kw: constant(np.array([0, 1], np.int32))})

    def s1(t: Any) -> Any:
        return ops.Sum(input=t, **{axis_kw: constant(np.array([0], np.int32))})

    def from_stack(x: Any) -> Any:
        return s_(ops.Mul(x=stack(from_t(x)), y=w))

    def get_item(x: Any) -> Any:
        it = ops.TensorListGetItem(
            input_handle=from_t(x), index=constant(np.int32(1)), element_shape=es, element_dtype=f64
        )
        return s1(ops.Mul(x=ops.Mul(x=it, y=it), y=w[0] if hasattr(w, "__getitem__") else w))

    def push_back(a: Any, b: Any) -> Any:
        lst = ops.EmptyTensorList(
            element_shape=es, max_num_elements=constant(np.int32(-1)), element_dtype=f64
        )
        lst = ops.TensorListPushBack(input_handle=lst, tensor=a)
        lst = ops.TensorListPushBack(input_handle=lst, tensor=ops.Exp(x=b))
        lst = ops.TensorListPushBack(input_handle=lst, tensor=a)
        return s_(ops.Mul(x=stack(lst), y=w))

    def pop_back(x: Any) -> Any:
        l2, e = ops.TensorListPopBack(input_handle=from_t(x), element_shape=es, element_dtype=f64)
        return ops.AddV2(x=s1(ops.Mul(x=e, y=e)), y=s_(ops.Mul(x=stack(l2), y=w[:2])))

    def set_item(x: Any, v: Any) -> Any:
        lst = ops.TensorListSetItem(input_handle=from_t(x), index=constant(np.int32(1)), item=v)
        return s_(ops.Mul(x=stack(lst), y=w))

    def gather(x: Any) -> Any:
        g = ops.TensorListGather(
            input_handle=from_t(x),
            indices=constant(np.array([2, 0, 2], np.int32)),
            element_shape=es,
            element_dtype=f64,
        )
        return s_(ops.Mul(x=g, y=w))

    def scatter(x: Any) -> Any:
        lst = ops.TensorListScatterV2(
            tensor=x,
            indices=constant(np.array([2, 0, 1], np.int32)),
            element_shape=es,
            num_elements=constant(np.int32(3)),
        )
        return s_(ops.Mul(x=stack(lst), y=w))

    def scatter_existing(x: Any, t: Any) -> Any:
        lst = ops.TensorListScatterIntoExistingList(
            input_handle=from_t(x), tensor=t, indices=constant(np.array([2], np.int32))
        )
        return s_(ops.Mul(x=stack(lst), y=w))

    def resize(x: Any) -> Any:
        lst = ops.TensorListResize(input_handle=from_t(x), size=constant(np.int32(2)))
        return s_(ops.Mul(x=stack(lst), y=w[:2]))

    def optional(a: Any, b: Any) -> Any:
        opt = ops.OptionalFromValue(components=[a, ops.Exp(x=b)])
        ra, rb = ops.OptionalGetValue(
            optional=opt, output_types=[f64, f64], output_shapes=[[2], [2]]
        )
        return ops.AddV2(x=s1(ops.Mul(x=ra, y=ra)), y=s1(ops.Mul(x=rb, y=ra)))

    def two_uses(x: Any) -> Any:
        # one list feeding two consumers: the tape adds two list gradients
        lst = from_t(x)
        it = ops.TensorListGetItem(
            input_handle=lst, index=constant(np.int32(0)), element_shape=es, element_dtype=f64
        )
        return ops.AddV2(x=s_(ops.Mul(x=stack(lst), y=w)), y=s1(ops.Mul(x=it, y=it)))

    return {
        "two_uses": (two_uses, ["x"]),
        "from_stack": (from_stack, ["x"]),
        "get_item": (get_item, ["x"]),
        "push_back": (push_back, ["a", "b"]),
        "pop_back": (pop_back, ["x"]),
        "set_item": (set_item, ["x", "v"]),
        "gather": (gather, ["x"]),
        "scatter": (scatter, ["x"]),
        "scatter_existing": (scatter_existing, ["x", "t"]),
        "resize": (resize, ["x"]),
        "optional": (optional, ["a", "b"]),
    }


LIST_INPUTS = {
    "x": np.array([[0.5, -1.0], [1.5, 2.0], [0.25, -0.75]]),
    "a": np.array([0.3, -0.4]),
    "b": np.array([1.1, 0.2]),
    "v": np.array([2.5, -3.0]),
    "t": np.array([[9.0, 8.0]]),
}


TA_INPUTS = {
    "x": np.array([0.5, -1.0], np.float32),
    "y": np.array([0.25, 0.75], np.float32),
}


def ta_program(ops: Any, constant: Any, f32: Any, axis_kw: str = "axis") -> Any:
    """Scatters x and writes x * y and exp(y) into a TensorArrayV3, reads
    one back and gathers two: loss = sum(gather * w) + sum(read ** 2)."""

    def i32(v: Any) -> Any:
        return constant(np.asarray(v, np.int32))

    def prog(x: Any, y: Any) -> Any:
        ta, flow = ops.TensorArrayV3(size=i32(3), dtype=f32)
        flow = ops.TensorArrayScatterV3(
            handle=ta,
            indices=i32([0]),
            value=ops.Reshape(tensor=x, shape=i32([1, 2])),
            flow_in=flow,
        )
        flow = ops.TensorArrayWriteV3(handle=ta, index=i32(2), value=ops.Exp(x=y), flow_in=flow)
        flow = ops.TensorArrayWriteV3(
            handle=ta, index=i32(1), value=ops.Mul(x=x, y=y), flow_in=flow
        )
        r0 = ops.TensorArrayReadV3(handle=ta, index=i32(2), flow_in=flow, dtype=f32)
        g = ops.TensorArrayGatherV3(handle=ta, indices=i32([0, 1]), flow_in=flow, dtype=f32)
        w = constant(np.array([[1.0, -2.0], [0.5, 3.0]], np.float32))
        return ops.AddV2(
            x=ops.Sum(input=ops.Mul(x=g, y=w), **{axis_kw: i32([0, 1])}),
            y=ops.Sum(input=ops.Mul(x=r0, y=r0), **{axis_kw: i32([0])}),
        )

    return prog
