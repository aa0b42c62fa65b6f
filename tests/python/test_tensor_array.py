"""TF 1 TensorArray and stack ops from Python: eagerly through the generated
op wrappers and in a graph run by ``tfe_py.Session`` (values and TF's error
classes and messages)."""

from __future__ import annotations

import numpy as np
import pytest

import tfe_py
from tfe_py import errors, ops


def _new_array(size: int, **attrs: object) -> tuple[object, object]:
    handle, flow = ops.TensorArrayV3(size=np.int32(size), dtype=tfe_py.float32, **attrs)
    return handle, flow


def test_eager_write_gather_and_zeros_for_unwritten() -> None:
    h, f = _new_array(3, element_shape=[2], clear_after_read=False)
    f = ops.TensorArrayWriteV3(
        handle=h, index=np.int32(2), value=np.array([1.0, 2.0], np.float32), flow_in=f
    )
    got = ops.TensorArrayGatherV3(
        handle=h, indices=np.array([2, 0], np.int32), flow_in=f, dtype=tfe_py.float32
    )
    np.testing.assert_array_equal(got.numpy(), [[1.0, 2.0], [0.0, 0.0]])
    size = ops.TensorArraySizeV3(handle=h, flow_in=f)
    assert int(size.numpy()) == 3


def test_eager_errors_are_tf_classes_and_messages() -> None:
    h, f = _new_array(2, tensor_array_name="arr")
    value = np.array([1.0], np.float32)
    f = ops.TensorArrayWriteV3(handle=h, index=np.int32(0), value=value, flow_in=f)
    with pytest.raises(errors.InvalidArgumentError, match="already been written to"):
        ops.TensorArrayWriteV3(handle=h, index=np.int32(0), value=value, flow_in=f)
    with pytest.raises(errors.InvalidArgumentError, match=r"^TensorArray arr_\d+: Tried to write"):
        ops.TensorArrayWriteV3(handle=h, index=np.int32(7), value=value, flow_in=f)
    with pytest.raises(errors.UnimplementedError, match="packing zero-size TensorArrays"):
        h0, f0 = _new_array(0)
        ops.TensorArrayGatherV3(
            handle=h0, indices=np.zeros([0], np.int32), flow_in=f0, dtype=tfe_py.float32
        )


def test_eager_stack_push_pop() -> None:
    st = ops.StackV2(max_size=np.int32(-1), elem_type=tfe_py.float32)
    for v in (1.0, 2.0):
        ops.StackPushV2(handle=st, elem=np.float32(v))
    assert float(ops.StackPopV2(handle=st, elem_type=tfe_py.float32).numpy()) == 2.0
    assert float(ops.StackPopV2(handle=st, elem_type=tfe_py.float32).numpy()) == 1.0
    with pytest.raises(errors.InvalidArgumentError, match=r"is empty when calling Pop\(\)"):
        ops.StackPopV2(handle=st, elem_type=tfe_py.float32)


def test_graph_scatter_then_read_in_a_session() -> None:
    with tfe_py.Graph() as g:
        x = tfe_py.placeholder(tfe_py.float32, [None, 2])
        h, f = ops.TensorArrayV3(size=np.int32(3), dtype=tfe_py.float32)
        f = ops.TensorArrayScatterV3(
            handle=h, indices=np.array([2, 0, 1], np.int32), value=x, flow_in=f
        )
        row = ops.TensorArrayReadV3(handle=h, index=np.int32(0), flow_in=f, dtype=tfe_py.float32)
    sess = tfe_py.Session(g)
    # Every run makes a new array, so the same writes work again.
    for k in range(3):
        feed = np.arange(6, dtype=np.float32).reshape(3, 2) + k
        np.testing.assert_array_equal(sess.run(row, {x: feed}), feed[1])
    with pytest.raises(errors.InvalidArgumentError, match="Expected len"):
        sess.run(row, {x: np.zeros([2, 2], np.float32)})
    sess.close()
