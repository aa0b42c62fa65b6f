"""tfe_py.dlpack: zero-copy exchange with NumPy through DLPack capsules and
the ``__dlpack__`` protocol, copies where sharing is impossible, exactly-once
release of the other side's memory, and errors."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable

import numpy as np
import pytest

import tfe_py
from tfe_py import dlpack
from tfe_py._ffi import ffi, lib
from tfe_py.errors import InvalidArgumentError


def _address(t: tfe_py.EagerTensor) -> int:
    return int(ffi.cast("uintptr_t", lib.TFE_TensorHandleDevicePointer(t.handle, ffi.NULL)))


def _aligned(values: np.ndarray, offset: int = 0) -> np.ndarray:
    """A copy of ``values`` whose data starts ``offset`` bytes after a
    64-byte boundary."""
    raw = np.zeros(values.nbytes + 128, dtype=np.uint8)
    start = (-raw.ctypes.data) % 64 + offset
    out = raw[start : start + values.nbytes].view(values.dtype).reshape(values.shape)
    out[...] = values
    return out


@pytest.fixture
def no_leaks(live_count: Callable[[str], int]) -> Callable[[], None]:
    """Call at the end of a test: handles and buffers are back to where
    they were when the test started (garbage of earlier tests is collected
    first, or its later collection would look like a change)."""
    gc.collect()
    before = (live_count("TENSOR_HANDLE"), live_count("TENSOR_BUFFER"))

    def check() -> None:
        gc.collect()
        assert (live_count("TENSOR_HANDLE"), live_count("TENSOR_BUFFER")) == before

    return check


# ---------------------------------------------------------------------------
# NumPy -> tfe


def test_aligned_numpy_array_is_shared(no_leaks: Callable[[], None]) -> None:
    a = _aligned(np.arange(12, dtype=np.float32).reshape(3, 4))
    t = dlpack.from_dlpack(a)
    assert _address(t) == a.ctypes.data
    assert t.shape == (3, 4)
    assert t.dtype == lib.TF_FLOAT
    np.testing.assert_array_equal(t.numpy(), a)
    # The tensor is a normal tensor: ops work on it.
    np.testing.assert_array_equal((t + t).numpy(), a * 2)
    t.close()
    no_leaks()


def test_numpy_array_stays_alive_until_tensor_closes() -> None:
    a = _aligned(np.arange(4, dtype=np.float64))
    base = a.base
    before = sys.getrefcount(base)
    t = dlpack.from_dlpack(a)
    del a
    gc.collect()
    assert sys.getrefcount(base) > before - 1  # the DLPack export holds it
    np.testing.assert_array_equal(t.numpy(), [0, 1, 2, 3])
    t.close()
    gc.collect()
    assert sys.getrefcount(base) == before - 1  # released exactly once


def test_unaligned_array_is_copied() -> None:
    a = _aligned(np.arange(5, dtype=np.float32), offset=4)
    t = dlpack.from_dlpack(a)
    assert _address(t) != a.ctypes.data
    assert _address(t) % 64 == 0
    np.testing.assert_array_equal(t.numpy(), a)


@pytest.mark.parametrize(
    "view",
    [
        lambda a: a.T,
        lambda a: a[:, ::2],
        lambda a: a[::-1],
        lambda a: a[1:, 1:],
        lambda a: np.broadcast_to(a[:1], a.shape),
    ],
    ids=["transpose", "step", "reversed", "offset", "broadcast"],
)
def test_strided_views_are_copied_in_order(view: Callable[[np.ndarray], np.ndarray]) -> None:
    base = np.arange(24, dtype=np.int32).reshape(4, 6)
    v = view(base)
    t = dlpack.from_dlpack(v)
    np.testing.assert_array_equal(t.numpy(), v)
    assert t.shape == v.shape


@pytest.mark.parametrize(
    "dtype",
    [
        np.bool_,
        np.int8,
        np.int16,
        np.int32,
        np.int64,
        np.uint8,
        np.uint16,
        np.uint32,
        np.uint64,
        np.float16,
        np.float32,
        np.float64,
        np.complex64,
        np.complex128,
    ],
)
def test_dtypes_round_trip(dtype: type) -> None:
    a = (np.arange(6) % 3).astype(dtype).reshape(2, 3)
    t = dlpack.from_dlpack(a)
    assert t.dtype.as_numpy_dtype == np.dtype(dtype)
    back = np.from_dlpack(dlpack.DLPackTensor(t))
    assert back.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(back, a)


def test_scalar_and_empty() -> None:
    t = dlpack.from_dlpack(np.array(2.5, dtype=np.float32))
    assert t.shape == ()
    assert float(t) == 2.5
    e = dlpack.from_dlpack(np.zeros((0, 3), np.int64))
    assert e.shape == (0, 3)
    assert np.from_dlpack(dlpack.DLPackTensor(e)).shape == (0, 3)


def test_read_only_array_is_copied() -> None:
    a = np.arange(3.0)
    a.flags.writeable = False
    t = dlpack.from_dlpack(a)
    np.testing.assert_array_equal(t.numpy(), a)


def test_imports_into_the_given_context() -> None:
    with tfe_py.Context() as ctx:
        t = dlpack.from_dlpack(np.ones(2, np.float32), ctx=ctx)
        assert t.context is ctx
        assert t.device.endswith("CPU:0")
        t.close()


# ---------------------------------------------------------------------------
# tfe -> NumPy


def test_tensor_to_numpy_shares_memory(no_leaks: Callable[[], None]) -> None:
    t = tfe_py.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    a = np.from_dlpack(dlpack.DLPackTensor(t))
    assert a.ctypes.data == _address(t)
    np.testing.assert_array_equal(a, [[0, 1, 2], [3, 4, 5]])
    t.close()  # the array keeps the memory
    np.testing.assert_array_equal(a, [[0, 1, 2], [3, 4, 5]])
    del a
    no_leaks()


def test_dlpack_device_and_protocol_arguments() -> None:
    w = dlpack.DLPackTensor(tfe_py.constant([1.0, 2.0]))
    assert w.__dlpack_device__() == (1, 0)
    copied = np.from_dlpack(w, copy=True)
    assert copied.ctypes.data != _address(w.tensor)
    np.testing.assert_array_equal(copied, [1.0, 2.0])
    with pytest.raises(BufferError):
        w.__dlpack__(dl_device=(2, 0))
    with pytest.raises(BufferError):
        w.__dlpack__(stream=1)


def test_capsules(no_leaks: Callable[[], None]) -> None:
    t = tfe_py.constant([1, 2, 3])
    cap = dlpack.to_dlpack(t)
    assert type(cap).__name__ == "PyCapsule"
    assert "dltensor" in repr(cap)
    # A capsule that is never consumed frees the export when collected.
    del cap
    gc.collect()
    cap = dlpack.to_dlpack(t)
    t.close()  # the capsule keeps the memory alive on its own
    t2 = dlpack.from_dlpack(cap)
    assert "used_dltensor" in repr(cap)
    np.testing.assert_array_equal(t2.numpy(), [1, 2, 3])
    with pytest.raises(ValueError, match="consumed only once"):
        dlpack.from_dlpack(cap)
    t2.close()
    del cap
    no_leaks()


def test_to_dlpack_converts_python_values() -> None:
    cap = dlpack.to_dlpack([1.5, 2.5])
    np.testing.assert_array_equal(dlpack.from_dlpack(cap).numpy(), [1.5, 2.5])


# ---------------------------------------------------------------------------
# Errors


def test_string_tensor_cannot_be_exported() -> None:
    t = tfe_py.constant([b"a", b"b"])
    with pytest.raises(InvalidArgumentError, match="DT_STRING"):
        dlpack.to_dlpack(t)
    with pytest.raises(InvalidArgumentError):
        np.from_dlpack(dlpack.DLPackTensor(t))


def test_bad_inputs() -> None:
    with pytest.raises(TypeError, match="__dlpack__"):
        dlpack.from_dlpack(123)

    class OnGpu:
        def __dlpack__(self, **kwargs: object) -> object:
            raise AssertionError("must not be asked for data")

        def __dlpack_device__(self) -> tuple[int, int]:
            return (2, 0)

    with pytest.raises(BufferError, match="CPU"):
        dlpack.from_dlpack(OnGpu())

    class NotACapsule:
        def __dlpack__(self, **kwargs: object) -> object:
            return "nope"

    with pytest.raises(ValueError, match="dltensor"):
        dlpack.from_dlpack(NotACapsule())
