"""TensorList and Optional ops (DT_VARIANT handles) through tfe_py.ops,
compared with numpy and, when TensorFlow is importable, with TensorFlow."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from tfe_py import dtypes, errors, ops
from tfe_py.context import default_context
from tfe_py.eager import EagerTensor, constant

FLOAT = dtypes.from_numpy_dtype(np.float32)


@pytest.fixture(autouse=True)
def _default_exists() -> None:
    default_context()


def f32(x: object) -> EagerTensor:
    return constant(np.asarray(x, dtype=np.float32))


def i32(x: object) -> EagerTensor:
    return constant(np.asarray(x, dtype=np.int32))


def from_tensor(values: np.ndarray) -> EagerTensor:
    return ops.TensorListFromTensor(f32(values), i32(-1))


def stack(handle: EagerTensor) -> np.ndarray:
    return ops.TensorListStack(handle, i32(-1), element_dtype=FLOAT).numpy()


def test_addn_of_lists_then_stack_matches_numpy() -> None:
    a = np.arange(6, dtype=np.float32).reshape(3, 2)
    b = np.linspace(-1.0, 1.0, 6, dtype=np.float32).reshape(3, 2)
    la, lb = from_tensor(a), from_tensor(b)
    assert la.dtype.name == "variant"
    assert la.shape == ()
    total = ops.AddN([la, lb, la])
    np.testing.assert_array_equal(stack(total), a + b + a)
    np.testing.assert_array_equal(stack(ops.ZerosLike(total)), np.zeros_like(a))
    assert int(ops.TensorListLength(total).numpy()) == 3


def test_push_set_get_pop() -> None:
    handle = ops.EmptyTensorList(i32([2]), i32(-1), element_dtype=FLOAT)
    for row in ([1, 2], [3, 4], [5, 6]):
        handle = ops.TensorListPushBack(handle, f32(row))
    handle = ops.TensorListSetItem(handle, i32(1), f32([30, 40]))
    item = ops.TensorListGetItem(handle, i32(1), i32(-1), element_dtype=FLOAT)
    np.testing.assert_array_equal(item.numpy(), [30, 40])
    rest, last = ops.TensorListPopBack(handle, i32(-1), element_dtype=FLOAT)
    np.testing.assert_array_equal(last.numpy(), [5, 6])
    np.testing.assert_array_equal(stack(rest), [[1, 2], [30, 40]])
    shape = ops.TensorListElementShape(handle, shape_type=dtypes.from_numpy_dtype(np.int32))
    np.testing.assert_array_equal(shape.numpy(), [2])


def test_errors_match_tensorflow_wording() -> None:
    handle = ops.TensorListReserve(i32([2]), i32(3), element_dtype=FLOAT)
    with pytest.raises(errors.OpError, match="Trying to access element 5 in a list with 3"):
        ops.TensorListGetItem(handle, i32(5), i32(-1), element_dtype=FLOAT)
    empty = ops.EmptyTensorList(i32(-1), i32(-1), element_dtype=FLOAT)
    with pytest.raises(errors.OpError, match="non-fully-defined element_shape: <unknown>"):
        stack(empty)


def test_variant_handles_do_not_convert_to_numpy() -> None:
    handle = from_tensor(np.ones((2, 2), np.float32))
    with pytest.raises(errors.OpError, match="Cannot convert a Tensor of dtype variant"):
        handle.numpy()
    assert "variant" in repr(handle)
    assert "variant" in str(handle)


def test_optional_round_trip() -> None:
    opt = ops.OptionalFromValue([f32([1, 2])])
    assert bool(ops.OptionalHasValue(opt).numpy())
    (value,) = ops.OptionalGetValue(opt, output_types=[FLOAT], output_shapes=[[2]])
    np.testing.assert_array_equal(value.numpy(), [1, 2])
    assert not bool(ops.OptionalHasValue(ops.OptionalNone()).numpy())


@pytest.mark.skipif(
    importlib.util.find_spec("tensorflow") is None, reason="tensorflow is not installed"
)
def test_same_values_as_tensorflow() -> None:  # pragma: no cover - optional
    tf = pytest.importorskip("tensorflow")
    a = np.arange(6, dtype=np.float32).reshape(3, 2)
    b = np.full((3, 2), 0.5, np.float32)
    raw = tf.raw_ops
    tla = raw.TensorListFromTensor(tensor=a, element_shape=-1)
    tlb = raw.TensorListFromTensor(tensor=b, element_shape=-1)
    want = raw.TensorListStack(
        input_handle=raw.AddN(inputs=[tla, tlb]), element_shape=-1, element_dtype=tf.float32
    ).numpy()
    got = stack(ops.AddN([from_tensor(a), from_tensor(b)]))
    np.testing.assert_array_equal(got, want)


def i64(x: object) -> EagerTensor:
    return constant(np.asarray(x, dtype=np.int64))


# Expected values below were produced by TensorFlow 2.21 (tf.raw_ops) on CPU.


def test_split_then_concat_round_trips() -> None:
    x = np.arange(10, dtype=np.float32).reshape(5, 2)
    handle = ops.TensorListSplit(f32(x), i32([-1, 2]), i64([2, 0, 3]))
    assert int(ops.TensorListLength(handle).numpy()) == 3
    middle = ops.TensorListGetItem(handle, i32(1), i32(-1), element_dtype=FLOAT)
    assert middle.numpy().shape == (0, 2)
    tensor, lengths = ops.TensorListConcatV2(handle, i32(-1), i64([]), element_dtype=FLOAT)
    np.testing.assert_array_equal(tensor.numpy(), x)
    np.testing.assert_array_equal(lengths.numpy(), [2, 0, 3])
    assert lengths.numpy().dtype == np.int64
    tensor, _ = ops.TensorListConcat(handle, element_dtype=FLOAT)
    np.testing.assert_array_equal(tensor.numpy(), x)


def test_concat_uses_leading_dims_for_uninitialised_elements() -> None:
    handle = ops.TensorListReserve(i32([-1, 2]), i32(3), element_dtype=FLOAT)
    handle = ops.TensorListSetItem(handle, i32(1), f32(np.ones((2, 2))))
    tensor, lengths = ops.TensorListConcatV2(handle, i32(-1), i64([1, 5, 3]), element_dtype=FLOAT)
    np.testing.assert_array_equal(tensor.numpy(), [[0, 0], [1, 1], [1, 1], [0, 0], [0, 0], [0, 0]])
    np.testing.assert_array_equal(lengths.numpy(), [1, 2, 3])
    unset = ops.TensorListReserve(i32([-1, 2]), i32(3), element_dtype=FLOAT)
    with pytest.raises(errors.OpError, match="leading_dims has only 1 elements"):
        ops.TensorListConcatV2(unset, i32(-1), i64([1]), element_dtype=FLOAT)


def test_gather_and_scatter_match_tensorflow() -> None:
    a = np.arange(6, dtype=np.float32).reshape(3, 2)
    handle = from_tensor(a)
    got = ops.TensorListGather(handle, i32([2, 0, 2]), i32(-1), element_dtype=FLOAT)
    np.testing.assert_array_equal(got.numpy(), [[4, 5], [0, 1], [4, 5]])
    with pytest.raises(errors.OpError, match="Trying to gather element 3 in a list with 3"):
        ops.TensorListGather(handle, i32([0, 3]), i32(-1), element_dtype=FLOAT)
    scattered = ops.TensorListScatter(f32(a), i32([3, 0, 3]), i32(-1))
    np.testing.assert_array_equal(stack(scattered), [[2, 3], [0, 0], [0, 0], [4, 5]])
    sized = ops.TensorListScatterV2(f32(a), i32([3, 0, 1]), i32(-1), i32(6))
    assert int(ops.TensorListLength(sized).numpy()) == 6
    into = ops.TensorListScatterIntoExistingList(handle, f32([[9, 9], [8, 8]]), i32([2, 0]))
    np.testing.assert_array_equal(stack(into), [[8, 8], [2, 3], [9, 9]])
    np.testing.assert_array_equal(stack(handle), a)


def test_resize_concat_lists_and_push_back_batch() -> None:
    a = np.arange(6, dtype=np.float32).reshape(3, 2)
    la, lb = from_tensor(a), from_tensor(a[:1])
    grown = ops.TensorListResize(la, i32(5))
    np.testing.assert_array_equal(stack(grown), np.concatenate([a, np.zeros((2, 2))]))
    np.testing.assert_array_equal(stack(ops.TensorListResize(la, i32(1))), a[:1])
    joined = ops.TensorListConcatLists(la, lb, element_dtype=FLOAT)
    np.testing.assert_array_equal(stack(joined), np.concatenate([a, a[:1]]))
    batch = ops.Pack([la, lb])
    assert batch.dtype.name == "variant"
    assert batch.shape == (2,)
    pushed = ops.TensorListPushBackBatch(batch, f32([[7, 7], [8, 8]]))
    first, second = ops.Unpack(pushed, num=2)
    np.testing.assert_array_equal(stack(first), [[0, 1], [2, 3], [4, 5], [7, 7]])
    np.testing.assert_array_equal(stack(second), [[0, 1], [8, 8]])
    picked = ops.GatherV2(batch, i32(1), i32(0))
    np.testing.assert_array_equal(stack(picked), a[:1])
    with pytest.raises(errors.OpError, match=r"Expected tensor.shape\[0\] == input_handles.size"):
        ops.TensorListPushBackBatch(batch, f32(np.ones((3, 2))))
    with pytest.raises(errors.OpError, match="TensorListSlice expects size to be non-negative"):
        ops.TensorListResize(la, i32(-1))


def test_expand_dims_and_squeeze_refuse_variants_as_tensorflow() -> None:
    handle = from_tensor(np.ones((2, 2), np.float32))
    with pytest.raises(errors.InvalidArgumentError, match="ExpandDims on Variant not supported"):
        ops.ExpandDims(handle, i32(0))
    batch = ops.Pack([handle])
    with pytest.raises(errors.InvalidArgumentError, match="Squeeze on Variant not supported"):
        ops.Squeeze(batch)
