"""Regression tests for the Python-layer defects of issue 13.

Defect 2: numpy arrays in a byte order other than the machine's were copied
raw, so their tensors held garbage. Every way a numpy array becomes tensor
data now goes through ``tfe_py.dtypes.native_array``; the tests below cover
each entry point, plus strided, reversed, Fortran-ordered and misaligned
arrays.

Defect 8: Python-side failures had the wrong exception class or a message
that named neither the op nor the argument: int attrs beyond int64
(struct.error), ``Split(num_split=-1)`` and ``AddN([])`` ("invalid
arguments" from the dispatch glue), allocation failures (RuntimeError), and
three inputs TF refuses that tfe accepted (``EnsureShape(shape=[-2])``,
Conv2D with a zero-size filter, ``constant([2**63, -1])``).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import tfe_py
from tfe_py import dlpack, dtypes, errors, ops
from tfe_py._ffi import lib
from tfe_py.tensor import RawTensor as Tensor

# The byte order that is NOT this machine's.
SWAPPED = ">" if sys.byteorder == "little" else "<"

NUMERIC_CODES = ["f2", "f4", "f8", "i2", "i4", "i8", "u2", "u4", "u8", "c8", "c16"]


def swapped(values: Any, code: str) -> np.ndarray:
    arr = np.array(values, dtype=SWAPPED + code)
    assert arr.dtype.byteorder == SWAPPED  # really stored the other way round
    return arr


def native(arr: np.ndarray) -> np.ndarray:
    return arr.astype(arr.dtype.newbyteorder("="))


# ---------------------------------------------------------------------------
# Defect 2: byte order, strides, alignment


@pytest.mark.parametrize("code", NUMERIC_CODES)
def test_byteswapped_constant_holds_the_values(code: str) -> None:
    x = swapped([1, 2, 3, 70], code)
    t = tfe_py.constant(x)
    assert t.dtype == dtypes.from_numpy_dtype(x.dtype)
    np.testing.assert_array_equal(t.numpy(), native(x))
    assert t.numpy().dtype.byteorder in ("=", "|")


def test_byteswapped_scalar_and_bool() -> None:
    s = np.array(2.5, dtype=SWAPPED + "f8")
    t = tfe_py.constant(s)
    assert t.shape == ()
    assert float(t) == 2.5
    b = np.array([True, False])  # one byte: no order, passes untouched
    np.testing.assert_array_equal(tfe_py.constant(b).numpy(), b)


def test_byteswapped_op_arguments() -> None:
    x = swapped([1.0, 2.0, 3.0], "f4")
    # Both inputs converted by the op wrapper (the AddV2 case: it
    # gave [1, 2, 3], garbage plus the correctly converted second input).
    np.testing.assert_array_equal(ops.AddV2(x, x).numpy(), [2.0, 4.0, 6.0])
    y = tfe_py.constant(np.array([10.0, 20.0, 30.0], np.float32))
    np.testing.assert_array_equal(ops.AddV2(y, x).numpy(), [11.0, 22.0, 33.0])
    np.testing.assert_array_equal(ops.AddV2(x, y).numpy(), [11.0, 22.0, 33.0])
    np.testing.assert_array_equal((y + x).numpy(), [11.0, 22.0, 33.0])
    # int64 beyond int32: inferred as int64, still converted.
    big = swapped([2**40, -(2**40)], "i8")
    np.testing.assert_array_equal(ops.Neg(big).numpy(), [-(2**40), 2**40])
    # A list input (AddN) and a list of byte-swapped rows.
    np.testing.assert_array_equal(ops.AddN([x, x, x]).numpy(), [3.0, 6.0, 9.0])
    np.testing.assert_array_equal(tfe_py.constant([x, x]).numpy(), [[1, 2, 3], [1, 2, 3]])


def test_byteswapped_tensor_attr_variable_and_tensor_class() -> None:
    x = swapped([1.0, 2.0, 3.0], "f4")
    np.testing.assert_array_equal(ops.Const(value=x, dtype="float32").numpy(), [1, 2, 3])
    h = ops.VarHandleOp(dtype="float32", shape=[3])
    ops.AssignVariableOp(h, x)
    np.testing.assert_array_equal(ops.ReadVariableOp(h, dtype="float32").numpy(), [1, 2, 3])
    with Tensor.from_numpy(x) as t:
        np.testing.assert_array_equal(t.numpy(), [1, 2, 3])


def test_byteswapped_dlpack_import_is_converted() -> None:
    x = swapped([1.0, 2.0, 3.0], "f8")
    # numpy cannot export it through DLPack (no byte order there): copied.
    np.testing.assert_array_equal(dlpack.from_dlpack(x).numpy(), [1.0, 2.0, 3.0])


def _misaligned_f4(values: list[float]) -> np.ndarray:
    raw = np.zeros(len(values) * 4 + 1, np.uint8)
    arr = raw[1:].view(np.float32)
    arr[:] = values
    assert not arr.flags.aligned
    return arr


def _layouts() -> Iterator[tuple[str, np.ndarray]]:
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    yield "strided", base[:, ::2]
    yield "reversed", base[::-1, ::-1]
    yield "fortran", np.asfortranarray(base)
    yield "transposed", base.T
    yield "misaligned", _misaligned_f4([1.0, 2.0, 3.0, 4.0])
    yield "swapped+strided", swapped(np.arange(12.0).reshape(3, 4), "f8")[::2, 1::2]
    yield "swapped+fortran", np.asfortranarray(swapped(np.arange(6).reshape(2, 3), "i4"))


@pytest.mark.parametrize("name", [n for n, _ in _layouts()])
def test_non_contiguous_and_misaligned_arrays(name: str) -> None:
    arr = dict(_layouts())[name]
    want = np.array(arr, dtype=arr.dtype.newbyteorder("="), order="C")
    np.testing.assert_array_equal(tfe_py.constant(arr).numpy(), want)
    np.testing.assert_array_equal(ops.Identity(arr).numpy(), want)
    with Tensor.from_numpy(arr) as t:
        np.testing.assert_array_equal(t.numpy(), want)
    if arr.flags.writeable and arr.dtype.byteorder in ("=", "|"):
        np.testing.assert_array_equal(dlpack.from_dlpack(arr).numpy(), want)


def test_native_array_copies_only_when_needed() -> None:
    a = np.arange(6, dtype=np.int64).reshape(2, 3)
    assert dtypes.native_array(a) is a
    s = np.array(1.5, dtype=np.float64)
    assert dtypes.native_array(s) is s
    out = dtypes.native_array(swapped(1.5, "f8"))
    assert out.shape == () and out.dtype == np.float64 and float(out) == 1.5


# ---------------------------------------------------------------------------
# Defect 8: exception classes and messages


def _raises(cls: type[BaseException], fn: Callable[[], Any], *words: str) -> BaseException:
    with pytest.raises(cls) as info:
        fn()
    text = str(info.value)
    for w in words:
        assert w in text, f"{w!r} not in {text!r}"
    return info.value


@pytest.mark.parametrize("value", [2**63, 2**64, 2**70, -(2**63) - 1])
def test_int_attr_beyond_int64(value: int) -> None:
    x = np.zeros((1, 2, 2, 4), np.float32)
    _raises(
        errors.InvalidArgumentError,
        lambda: ops.DepthToSpace(x, block_size=value),
        "DepthToSpace",
        "block_size",
        str(value),
    )


def test_list_shape_and_float_attrs_out_of_range() -> None:
    x = np.zeros((1, 2, 2, 1), np.float32)
    _raises(
        errors.InvalidArgumentError,
        lambda: ops.MaxPool(x, ksize=[1, 2**64, 1, 1], strides=[1, 1, 1, 1], padding="VALID"),
        "MaxPool",
        "ksize",
    )
    _raises(
        errors.InvalidArgumentError,
        lambda: ops.EnsureShape([1.0], shape=[2**64]),
        "EnsureShape",
        "shape",
    )
    _raises(
        errors.InvalidArgumentError,
        lambda: ops.LeakyRelu([1.0], alpha=10**400),
        "LeakyRelu",
        "alpha",
    )


@pytest.mark.parametrize("num_split", [-1, 0])
def test_split_with_nonpositive_num_split(num_split: int) -> None:
    _raises(
        errors.InvalidArgumentError,
        lambda: ops.Split(0, [1.0, 2.0], num_split=num_split),
        "Split",
        f"Value for attr 'num_split' of {num_split} must be at least minimum 1",
    )


def test_split_with_huge_num_split_is_a_clean_error() -> None:
    _raises(
        errors.InvalidArgumentError,
        lambda: ops.Split(0, [1.0, 2.0], num_split=2**40),
        "num_split",
    )


def test_empty_list_inputs() -> None:
    _raises(
        errors.InvalidArgumentError,
        lambda: ops.AddN([]),
        "AddN",
        "'inputs'",
        "Value for attr 'N' of 0 must be at least minimum 1",
    )
    _raises(
        errors.InvalidArgumentError,
        lambda: ops.ConcatV2([], 0),
        "ConcatV2",
        "Value for attr 'N' of 0 must be at least minimum 2",
    )
    _raises(
        errors.InvalidArgumentError,
        lambda: ops.IdentityN([]),
        "Length for attr 'T' of 0 must be at least minimum 1",
    )
    # An empty list is fine where the minimum allows it.
    assert ops.Unpack(np.zeros((0, 2), np.float32), num=0) == []


def test_shape_attrs_refuse_dims_below_minus_one() -> None:
    _raises(
        errors.InvalidArgumentError,
        lambda: ops.EnsureShape([1.0, 2.0], shape=[-2]),
        "EnsureShape",
        "'shape'",
        "Shape [-2] has dimensions with values below -1",
    )
    _raises(
        errors.InvalidArgumentError,
        lambda: ops.EnsureShape(np.zeros((2, 3), np.float32), shape=[-1, -7]),
        "Shape [?,-7] has dimensions with values below -1",
    )
    # Every shape attr, lists of shapes too.
    _raises(
        errors.InvalidArgumentError,
        lambda: ops.VarHandleOp(dtype="float32", shape=[3, -3]),
        "VarHandleOp",
        "Shape [3,-3]",
    )
    opt = ops.OptionalFromValue([tfe_py.constant([1.0])])
    _raises(
        errors.InvalidArgumentError,
        lambda: ops.OptionalGetValue(opt, output_types=["float32"], output_shapes=[[-5]]),
        "OptionalGetValue",
        "output_shapes",
        "Shape [-5]",
    )
    # -1 stays "unknown".
    assert ops.EnsureShape(np.zeros((2, 3), np.float32), shape=[-1, 3]).shape == (2, 3)


@pytest.mark.parametrize("fshape", [(0, 3, 1, 1), (1, 0, 1, 1), (1, 1, 1, 0)])
def test_conv2d_refuses_a_zero_size_filter(fshape: tuple[int, ...]) -> None:
    x = np.ones((1, 3, 3, 1), np.float32)
    f = np.zeros(fshape, np.float32)
    _raises(
        errors.InvalidArgumentError,
        lambda: ops.Conv2D(x, f, strides=[1, 1, 1, 1], padding="VALID"),
        "filter must not have zero elements",
    )


@pytest.mark.parametrize(
    "value", [[2**63, -1], [2**63], [2**64], 2**63, -(2**63) - 1, [[1], [2**63]], [2**63, 1.5]]
)
def test_constant_refuses_ints_beyond_int64(value: Any) -> None:
    _raises(ValueError, lambda: tfe_py.constant(value), "out-of-range integer")


def test_constant_int_rules_that_stay() -> None:
    assert tfe_py.constant([1, 2**40]).dtype == "int64"
    assert tfe_py.constant([1, 2]).dtype == "int32"
    # A float first (or before the big int): TF converts to float32.
    assert tfe_py.constant([1.5, 2**63]).dtype == "float32"
    assert tfe_py.constant([1, 1.5, 2**63]).dtype == "float32"
    # Asked for a type that holds it.
    assert tfe_py.constant([2**63], dtype="uint64").numpy()[0] == 2**63
    assert tfe_py.constant([2**63, -1], dtype="float32").dtype == "float32"
    # Beyond uint64 (numpy: object arrays) still converts to floats as in TF.
    np.testing.assert_allclose(tfe_py.constant([2**70, 1], dtype="float64").numpy(), [2.0**70, 1])
    assert tfe_py.constant([2**64], dtype="complex64").numpy()[0] == 2.0**64
    _raises(
        ValueError,
        lambda: tfe_py.constant([2**1100, 1], dtype="float64"),
        "out of range for a double-precision",
    )
    _raises(TypeError, lambda: tfe_py.constant([1.5, "a"], dtype="float32"), "Cannot convert")
    _raises(ValueError, lambda: tfe_py.constant([2**63], dtype="int64"), "out-of-range integer")
    _raises(
        ValueError, lambda: tfe_py.constant([1.5, 2**1100]), "out of range for a double-precision"
    )


def test_op_argument_beyond_int64_names_op_and_input() -> None:
    x = tfe_py.constant(np.array([1], np.int64))
    _raises(ValueError, lambda: ops.AddV2(x, 2**63), "AddV2", "input 'y'", "out-of-range")
    _raises(
        ValueError,
        lambda: ops.Const(value=[2**70], dtype="int64"),
        "Const",
        "attr 'value'",
        "out-of-range",
    )


# ---------------------------------------------------------------------------
# Defect 8: allocation failures are ResourceExhaustedError


def _sweep(fn: Callable[[], Any], limit: int = 400) -> tuple[int, set[str]]:
    """Runs fn with allocation n failing, n = 0, 1, ... until it succeeds.
    Returns (failures, messages); any exception but ResourceExhaustedError
    fails the test."""
    messages: set[str] = set()
    for n in range(limit):
        lib.TFE_TestFailAllocationsAfter(n)
        try:
            fn()
        except errors.ResourceExhaustedError as exc:
            messages.add(str(exc))
            continue
        finally:
            lib.TFE_TestFailAllocationsAfter(-1)
        return n, messages
    raise AssertionError(f"still failing after {limit} allocations")


def test_allocation_failures_in_ops_are_resource_exhausted(
    live_count: Callable[[str], int],
) -> None:
    x = tfe_py.constant(np.array([1.0, 2.0, 3.0], np.float32))
    for name in ("AddV2", "Split", "AddN", "Neg"):
        ops.get_op(name)  # definitions loaded outside the sweep
    gc.collect()
    before = {k: live_count(k) for k in ("TENSOR_HANDLE", "STATUS", "OP")}
    cases: list[tuple[str, Callable[[], Any]]] = [
        ("AddV2", lambda: ops.AddV2(x, x)),
        ("AddV2", lambda: ops.AddV2(x, [1.0, 2.0, 3.0])),
        ("Split", lambda: ops.Split(0, x, num_split=3)),
        ("AddN", lambda: ops.AddN([x, x, x])),
        ("Neg", lambda: ops.Neg(x).numpy()),
        ("", lambda: tfe_py.constant([1.0, 2.0])),
        ("", lambda: tfe_py.constant(["a", "bc"])),
    ]
    for op_name, fn in cases:
        failures, messages = _sweep(fn)
        assert failures > 0  # the sweep really failed something
        assert all(m.strip() for m in messages), messages  # never empty
        if op_name:  # the dispatch failures name the op
            assert any(m.startswith(f"{op_name}: ") for m in messages), messages
    gc.collect()
    after = {k: live_count(k) for k in before}
    assert after == before


def test_status_allocation_failure_is_resource_exhausted() -> None:
    lib.TFE_TestFailAllocationsAfter(0)
    try:
        with pytest.raises(errors.ResourceExhaustedError, match="out of memory"):
            with errors.status():
                pass
    finally:
        lib.TFE_TestFailAllocationsAfter(-1)
