"""A minimal owner of a ``TF_Tensor*``.

:class:`Tensor` copies numpy data into a tensor allocated by the C core and
hands out zero-copy, read-only numpy views of it. The eager layer will build
TensorHandle-based tensors on top of this; keep this class small.

Lifetime rules: ``close()`` frees the tensor and may be called any number of
times; ``with Tensor.from_numpy(a) as t:`` closes it at the end of the block;
``__del__`` closes it as a last resort. A view returned by ``numpy()`` holds
its own reference to the tensor's data buffer (a second TF_Tensor sharing it,
made with TF_TensorBitcastFrom), so it stays valid after the Tensor is closed
and the buffer is released when the last of them goes.
"""

from __future__ import annotations

import math
from types import TracebackType
from typing import Any

import numpy as np
import numpy.typing as npt

from tfe_py import dtypes, errors
from tfe_py._ffi import CData, ffi, lib
from tfe_py.errors import status

__all__ = ["Tensor"]


def _dims(shape: tuple[int, ...]) -> CData:
    return ffi.new("int64_t[]", list(shape)) if shape else ffi.NULL


def _address(ptr: CData) -> int:
    return int(ffi.cast("uintptr_t", ptr))


class _BufferView:
    """Keeps a tensor's data buffer alive for numpy.

    numpy stores this object as the ``base`` of the array built from its
    ``__array_interface__``, so the buffer lives exactly as long as the
    array (and anything viewing it).
    """

    def __init__(self, source: CData, shape: tuple[int, ...], dtype: np.dtype) -> None:
        self._ptr: CData | None = None
        tf_dtype = int(lib.TF_TensorType(source))
        ptr = lib.TF_AllocateTensor(tf_dtype, ffi.new("int64_t[]", [0]), 1, 0)
        if ptr == ffi.NULL:
            raise errors.out_of_memory("TF_AllocateTensor failed")
        self._ptr = ptr
        with status() as s:
            lib.TF_TensorBitcastFrom(source, tf_dtype, ptr, _dims(shape), len(shape), s)
        need = math.prod(shape) * dtype.itemsize
        have = int(lib.TF_TensorByteSize(ptr))
        if have < need:
            raise ValueError(f"tensor buffer holds {have} bytes but its shape needs {need}")
        data = lib.TF_TensorData(ptr)
        if _address(data) % dtype.alignment:
            raise ValueError("tensor data is not aligned for its dtype")
        self.__array_interface__ = {
            "version": 3,
            "shape": shape,
            "typestr": dtype.str,
            "data": (_address(data), True),  # read-only
        }

    def __del__(self) -> None:
        ptr, self._ptr = self._ptr, None
        if ptr is not None:
            lib.TF_DeleteTensor(ptr)


class Tensor:
    """Owns one ``TF_Tensor*``."""

    def __init__(self, ptr: CData) -> None:
        """Takes ownership of ``ptr``, a non-NULL ``TF_Tensor*``."""
        if ptr == ffi.NULL:
            raise ValueError("Tensor needs a non-NULL TF_Tensor*")
        self._ptr: CData | None = ptr

    @classmethod
    def from_numpy(cls, array: npt.ArrayLike) -> Tensor:
        """A new tensor holding a copy of ``array`` (numeric or bool dtypes)."""
        arr = dtypes.native_array(np.asarray(array))
        tf_dtype = dtypes.from_numpy_dtype(arr.dtype)
        shape = tuple(int(d) for d in arr.shape)
        ptr = lib.TF_AllocateTensor(tf_dtype, _dims(shape), len(shape), arr.nbytes)
        if ptr == ffi.NULL:
            raise errors.out_of_memory(
                f"TF_AllocateTensor failed for shape {shape} ({arr.nbytes} bytes)"
            )
        if arr.nbytes:
            ffi.memmove(lib.TF_TensorData(ptr), ffi.from_buffer(arr), arr.nbytes)
        return cls(ptr)

    # -- lifetime ---------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._ptr is None

    def close(self) -> None:
        """Frees the tensor. Safe to call more than once."""
        ptr, self._ptr = self._ptr, None
        if ptr is not None:
            lib.TF_DeleteTensor(ptr)

    def __enter__(self) -> Tensor:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # nothing sensible to do this late (e.g. at shutdown)
            pass

    # -- access -----------------------------------------------------------

    @property
    def ptr(self) -> CData:
        """The underlying ``TF_Tensor*``, still owned by this object."""
        if self._ptr is None:
            raise ValueError("the tensor is closed")
        return self._ptr

    @property
    def dtype(self) -> int:
        """TF_DataType value (see tfe_py.dtypes)."""
        return int(lib.TF_TensorType(self.ptr))

    @property
    def shape(self) -> tuple[int, ...]:
        ptr = self.ptr
        return tuple(int(lib.TF_Dim(ptr, i)) for i in range(lib.TF_NumDims(ptr)))

    @property
    def num_elements(self) -> int:
        return int(lib.TF_TensorElementCount(self.ptr))

    @property
    def nbytes(self) -> int:
        return int(lib.TF_TensorByteSize(self.ptr))

    def numpy(self) -> np.ndarray:
        """A read-only numpy view of the data, without copying.

        The view keeps the data alive on its own, even after ``close()``.
        """
        ptr = self.ptr
        dtypes.check_numpy_convertible(int(lib.TF_TensorType(ptr)))
        np_dtype = dtypes.to_numpy_dtype(int(lib.TF_TensorType(ptr)))
        shape = self.shape
        if math.prod(shape) == 0:
            empty = np.empty(shape, dtype=np_dtype)
            empty.flags.writeable = False
            return empty
        return np.asarray(_BufferView(ptr, shape, np_dtype))

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arr = self.numpy()
        if dtype is not None:
            return arr.astype(dtype)
        return arr.copy() if copy else arr

    def __repr__(self) -> str:
        if self._ptr is None:
            return "<Tensor closed>"
        return f"<Tensor dtype={dtypes.name(self.dtype)} shape={self.shape}>"
