"""``Tensor``, the base class of every tensor type, and ``RawTensor``, a
minimal owner of a ``TF_Tensor*``.

:class:`Tensor` is what ``isinstance(x, tfe_py.Tensor)`` checks: eager
tensors (:class:`tfe_py.EagerTensor`) and graph tensors
(:class:`tfe_py.GraphTensor`) derive from it. It holds the behaviour both
share, written once in TensorFlow's terms: indexing and slicing through one
StridedSlice op (``t[1:, ::-1, tf.newaxis, ...]``), iteration,
``get_shape()``, ``ndim``, ``ref()``.

:class:`RawTensor` copies numpy data into a tensor allocated by the C core and
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

__all__ = ["RawTensor", "Reference", "Tensor", "newaxis"]


#: ``t[tf.newaxis]`` adds a dimension of size 1 (it is None, as in TensorFlow).
newaxis = None

_INDEX_ERROR = (
    "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
    "tf.int32/tf.int64 tensors are valid indices, got {!r}"
)


class Reference:
    """A hashable stand-in for a tensor (``t.ref()``): equal only to
    references to the same tensor object; ``deref()`` gives it back."""

    __slots__ = ("_obj",)

    def __init__(self, obj: Any) -> None:
        self._obj = obj

    def deref(self) -> Any:
        return self._obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reference) and other._obj is self._obj

    def __hash__(self) -> int:
        return id(self._obj)

    def __repr__(self) -> str:
        return f"<Reference wrapping {self._obj!r}>"


def _is_int_tensor(value: Any) -> bool:
    if not isinstance(value, Tensor):
        return False
    dt = int(value.dtype)
    return dt in (int(lib.TF_INT32), int(lib.TF_INT64)) and value.shape == ()


def _check_index(value: Any) -> None:
    """TypeError unless ``value`` is an int or a scalar int32/int64 tensor."""
    if _is_int_tensor(value):
        return
    if isinstance(value, Tensor) or isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(_INDEX_ERROR.format(value))
    try:
        value.__index__()
    except TypeError:
        raise TypeError(_INDEX_ERROR.format(value)) from None


def _slice_args(spec: Any) -> tuple[list[Any], list[Any], list[Any], dict[str, int]]:
    """begin, end, strides and the five masks of StridedSlice for ``spec``.

    Each item of the index gets one entry: an int (or scalar tensor) shrinks
    its dimension, a slice keeps it (a missing start or stop sets its bit in
    begin_mask / end_mask, so the kernel uses the far end for the step's
    direction), ``...`` and ``None`` set their bits in ellipsis_mask and
    new_axis_mask. Lists are read as tuples, as TensorFlow does.
    """
    items = spec if isinstance(spec, (tuple, list)) else (spec,)
    begin: list[Any] = []
    end: list[Any] = []
    strides: list[Any] = []
    masks = {
        "begin_mask": 0,
        "end_mask": 0,
        "ellipsis_mask": 0,
        "new_axis_mask": 0,
        "shrink_axis_mask": 0,
    }
    for i, item in enumerate(items):
        bit = 1 << i
        if isinstance(item, slice):
            start, stop, step = item.start, item.stop, item.step
            for part in (start, stop, step):
                if part is not None:
                    _check_index(part)
            if start is None:
                start = 0
                masks["begin_mask"] |= bit
            if stop is None:
                stop = 0
                masks["end_mask"] |= bit
            begin.append(start)
            end.append(stop)
            strides.append(1 if step is None else step)
        elif item is Ellipsis:
            masks["ellipsis_mask"] |= bit
            begin.append(0)
            end.append(0)
            strides.append(1)
        elif item is None:
            masks["new_axis_mask"] |= bit
            begin.append(0)
            end.append(0)
            strides.append(1)
        else:
            _check_index(item)
            masks["shrink_axis_mask"] |= bit
            begin.append(item)
            # The kernel takes begin + 1 as the end of a shrunk axis.
            end.append(0 if isinstance(item, Tensor) else int(item) + 1)
            strides.append(1)
    if not items:  # t[()]: the whole tensor
        masks["ellipsis_mask"] = 1
        begin, end, strides = [0], [0], [1]
    return begin, end, strides, masks


def _index_vector(values: list[Any]) -> Any:
    """One int32 (int64 when needed) vector of Python ints and scalar tensors:
    a numpy array when all are ints, else a Pack of them."""
    from tfe_py import _opgen

    if not any(isinstance(v, Tensor) for v in values):
        ints = [int(v) for v in values]
        wide = any(v < -(2**31) or v >= 2**31 for v in ints)
        return np.array(ints, dtype=np.int64 if wide else np.int32)
    dtype = next(v.dtype for v in values if isinstance(v, Tensor))
    np_type = np.int64 if int(dtype) == int(lib.TF_INT64) else np.int32
    items = [v if isinstance(v, Tensor) else np.array(int(v), dtype=np_type) for v in values]
    for v in items:
        if isinstance(v, Tensor) and int(v.dtype) != int(dtype):
            raise TypeError("tensor indices must all have the same dtype (int32 or int64)")
    return _opgen.wrapper("Pack")(items)


class Tensor:
    """Base class of every tensor (eager and graph), as ``tf.Tensor``.

    Subclasses provide ``dtype``, ``shape`` (a :class:`TensorShape`) and the
    operators; this class adds what is written in terms of those.
    """

    __slots__ = ()

    # Make numpy defer to our reflected operators (ndarray + tensor).
    __array_priority__ = 100

    dtype: Any
    shape: Any

    def get_shape(self) -> Any:
        """Same as ``shape``."""
        return self.shape

    @property
    def ndim(self) -> int | None:
        """Number of dimensions (None when unknown)."""
        shape = self.shape
        return None if shape is None else len(shape)

    def ref(self) -> Reference:
        """A hashable reference to this tensor (a dict or set key)."""
        return Reference(self)

    def experimental_ref(self) -> Reference:
        """Old name of :meth:`ref`."""
        return Reference(self)

    def __getitem__(self, spec: Any) -> Any:
        """``t[...]`` with TensorFlow's semantics, as one StridedSlice op."""
        from tfe_py import _opgen

        begin, end, strides, masks = _slice_args(spec)
        return _opgen.wrapper("StridedSlice")(
            self, _index_vector(begin), _index_vector(end), _index_vector(strides), **masks
        )

    def __iter__(self) -> Any:
        """Yields ``t[0]``, ``t[1]``, ...; TypeError at once for scalars."""
        shape = self.shape
        if shape is None or getattr(shape, "rank", len(shape)) is None:
            raise TypeError("Cannot iterate over a tensor with unknown shape.")
        if not shape:
            raise TypeError("Cannot iterate over a scalar tensor.")
        if shape[0] is None:
            raise TypeError("Cannot iterate over a tensor with unknown first dimension.")
        return (self[i] for i in range(shape[0]))


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
            "typestr": dtypes.array_typestr(dtype),
            "data": (_address(data), True),  # read-only
        }

    def __del__(self) -> None:
        ptr, self._ptr = self._ptr, None
        if ptr is not None:
            lib.TF_DeleteTensor(ptr)


class RawTensor:
    """Owns one ``TF_Tensor*``."""

    def __init__(self, ptr: CData) -> None:
        """Takes ownership of ``ptr``, a non-NULL ``TF_Tensor*``."""
        if ptr == ffi.NULL:
            raise ValueError("Tensor needs a non-NULL TF_Tensor*")
        self._ptr: CData | None = ptr

    @classmethod
    def from_numpy(cls, array: npt.ArrayLike) -> RawTensor:
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

    def __enter__(self) -> RawTensor:
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
        arr = np.asarray(_BufferView(ptr, shape, np_dtype))
        # ml_dtypes types come through the array interface as raw bytes
        return arr if arr.dtype == np_dtype else arr.view(np_dtype)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arr = self.numpy()
        if dtype is not None:
            return arr.astype(dtype)
        return arr.copy() if copy else arr

    def __repr__(self) -> str:
        if self._ptr is None:
            return "<Tensor closed>"
        return f"<Tensor dtype={dtypes.name(self.dtype)} shape={self.shape}>"
