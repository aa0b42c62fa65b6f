"""Eager tensors: :class:`EagerTensor` owns one ``TFE_TensorHandle*``.

``constant(value, dtype=None)`` turns numpy arrays and Python values into
tensors; ``t.numpy()`` gives a read-only, zero-copy numpy view of the
resolved tensor (string tensors give an object array of ``bytes``);
operators map to ops (``+`` is AddV2, ``@`` is MatMul, ...), with a Python
value on the other side converted to the tensor's dtype as TensorFlow does.

Lifetime: ``close()`` deletes the handle and may be called any number of
times; ``with constant(x) as t:`` closes it when the block ends; ``__del__``
closes it as a last resort. A tensor holds a reference to its Context, so the
context outlives it. A numpy view keeps the resolved TF_Tensor (and so the
data) alive on its own, even after the tensor is closed.
"""

from __future__ import annotations

import math
import numbers
import struct
import warnings
from collections.abc import Callable
from types import TracebackType
from typing import Any

import numpy as np
import numpy.typing as npt

from tfe_py import dtypes, errors
from tfe_py._ffi import CData, ffi, lib
from tfe_py.context import Context, _state, default_context
from tfe_py.dtypes import DType, as_dtype
from tfe_py.errors import status
from tfe_py.tensor import Tensor
from tfe_py.tensor_shape import TensorShape

__all__ = ["DType", "EagerTensor", "as_dtype", "constant", "convert_to_tensor"]

_TF_STRING = int(lib.TF_STRING)
_UINT64 = np.dtype(np.uint64)
_TF_BOOL = int(lib.TF_BOOL)

# ---------------------------------------------------------------------------
# Python values -> tensor data


def _is_string_like(arr: np.ndarray) -> bool:
    return arr.dtype.kind in "SU" or (
        arr.dtype.kind == "O" and all(isinstance(v, (bytes, str)) for v in arr.flat)
    )


_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1
_WIDE = float(2**63)  # |x| from here on: an int64 cannot hold it


def _leaves(value: Any) -> Any:
    """The scalars of a nested Python sequence, in order."""
    stack = [iter((value,))]
    while stack:
        for item in stack[-1]:
            if isinstance(item, (list, tuple)):
                stack.append(iter(item))
                break
            yield item
        else:
            stack.pop()


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _out_of_range_error(value: Any, leaf: int, double: bool) -> ValueError:
    if double:
        what = "a value out of range for a double-precision float"
        fits = "a double"
    else:
        what = "out-of-range integer"
        fits = "int64"
    return ValueError(
        f"Can't convert Python sequence with {what} to Tensor: {_short(value)} "
        f"({_short(leaf)} does not fit {fits})"
    )


def _check_python_ints(value: Any) -> None:
    """Refuses Python ints that fit no tensor, by TensorFlow's rule.

    TF converts a Python value by its first scalar. When that is an int it
    reads the elements in order as int32, then int64, and switches to float
    at the first float it meets: an int outside int64 before any float is a
    ValueError (numpy would silently make float64, uint64 or object of it).
    When the first scalar is a float, every int must fit a double.
    """
    leaves = _leaves(value)
    first = next(leaves, None)
    if isinstance(first, bool) or not isinstance(first, (int, float, np.integer, np.floating)):
        return
    if isinstance(first, (int, np.integer)):
        for leaf in (first, *leaves):
            if isinstance(leaf, (float, np.floating)):
                return
            if isinstance(leaf, int) and not _INT64_MIN <= leaf <= _INT64_MAX:
                raise _out_of_range_error(value, leaf, double=False)
        return
    for leaf in leaves:
        if isinstance(leaf, int) and not isinstance(leaf, bool):
            try:
                float(leaf)
            except OverflowError:
                raise _out_of_range_error(value, leaf, double=True) from None


def _may_hold_wide_ints(arr: np.ndarray, value: Any) -> bool:
    """Whether numpy's array of Python value ``value`` may hide an int
    beyond int64 (numpy makes uint64, object or float64 of such values).
    Cheap for the common cases: float64 only matters when the first scalar
    is an int (else TF converts everything to float anyway)."""
    kind = arr.dtype.kind
    if kind in "uO":
        return True
    if kind != "f" or not arr.size:
        return False
    first = value
    while isinstance(first, (list, tuple)) and first:
        first = first[0]
    if isinstance(first, bool) or not isinstance(first, (int, np.integer)):
        return False
    return bool(np.max(np.abs(arr)) >= _WIDE)


def _infer(value: Any) -> tuple[np.ndarray, int]:
    """Array and TF dtype TensorFlow would pick for ``value`` with no dtype.

    numpy arrays and numpy scalars keep their dtype. Python floats become
    float32 and Python ints int32 (int64 when a value does not fit), as in
    ``tf.constant``.
    """
    from_numpy = isinstance(value, (np.ndarray, np.generic))
    arr = np.asarray(value)
    if not from_numpy and _may_hold_wide_ints(arr, value):
        _check_python_ints(value)
    if arr.dtype.kind in "SUO":
        if not from_numpy:  # numpy turns ["a", 1] into strings; TF refuses it
            arr = np.asarray(value, dtype=object)
        if arr.dtype.kind == "O" and not _is_string_like(arr):
            for leaf in _leaves(value):
                if not isinstance(leaf, (str, bytes, numbers.Number, np.generic, np.ndarray)):
                    # TF's message for None, dicts, arbitrary objects.
                    raise ValueError(
                        f"Attempt to convert a value ({leaf!r}) with an unsupported type "
                        f"({type(leaf)!r}) to a Tensor."
                    )
            raise TypeError(f"cannot convert {value!r} to a tensor (unsupported object)")
        return arr, _TF_STRING
    if not from_numpy:
        first = next(_leaves(value), None) if arr.dtype.kind in "fc" else None
        if isinstance(first, (np.ndarray, np.generic)) and first.dtype.kind in "fc":
            # TF takes a list's float dtype from its first element when that
            # is a numpy float ([np.ones(2), ...] is float64, not float32).
            arr = arr.astype(first.dtype)
        elif arr.dtype.kind == "f":
            arr = arr.astype(np.float32)
        elif arr.dtype.kind in "iu":
            info = np.iinfo(np.int32)
            if arr.size == 0 or (arr.min() >= info.min and arr.max() <= info.max):
                arr = arr.astype(np.int32)
            elif arr.dtype.kind == "u" and arr.max() <= np.iinfo(np.int64).max:
                arr = arr.astype(np.int64)
    try:
        return arr, dtypes.from_numpy_dtype(arr.dtype)
    except TypeError:
        raise TypeError(f"cannot convert {value!r} to a tensor (dtype {arr.dtype})") from None


def _cast_error(value: Any, tf_dtype: int) -> TypeError:
    return TypeError(
        f"Cannot convert {_short(value)} to EagerTensor of dtype {dtypes.name(tf_dtype)}"
    )


def _array_for(value: Any, tf_dtype: int) -> np.ndarray:
    """``value`` as an array of ``tf_dtype``, by TensorFlow's rules.

    Python ints convert to any numeric dtype (wrapping around outside an
    integer dtype's range), Python floats to floating and complex dtypes,
    Python bools to bool, integer and float dtypes; numpy values are cast to
    any numeric dtype. Anything else is a TypeError.
    """
    if tf_dtype == _TF_STRING:
        arr = np.asarray(value, dtype=object)
        if not _is_string_like(arr):
            raise _cast_error(value, tf_dtype)
        return arr
    target = dtypes.to_numpy_dtype(tf_dtype)
    src = np.asarray(value)
    kind, want = src.dtype.kind, target.kind
    if want == "V" and dtypes.DType(tf_dtype).is_floating:
        want = "f"  # bfloat16 and the float8 types (ml_dtypes) are floats
    if (
        want in "iu"
        and target != _UINT64
        and not isinstance(value, (np.ndarray, np.generic))
        and _may_hold_wide_ints(src, value)
    ):
        _check_python_ints(value)
    if kind == "O" and want in "fc" and not isinstance(value, (np.ndarray, np.generic)):
        # numpy keeps Python ints beyond int64 as objects; TF turns them into
        # floats like any other number (a double must hold them).
        items = list(src.flat)
        if all(isinstance(x, numbers.Number) and not isinstance(x, bool) for x in items):
            for x in items:
                if isinstance(x, int):
                    try:
                        float(x)
                    except OverflowError:
                        raise _out_of_range_error(value, x, double=True) from None
            src = src.astype(np.complex128 if want == "c" else np.float64)
            kind = src.dtype.kind
    if src.dtype == target:
        return src
    if src.size == 0 and kind in "biufc":
        # No element to check: TF makes an empty tensor of any dtype
        # (tf.constant([], dtype=tf.bool)).
        return src.astype(target)
    ok = False
    if isinstance(value, (np.ndarray, np.generic)):
        # TF casts numpy values to the requested dtype as its Cast op does:
        # floats truncate, integers wrap, complex keeps the real part.
        ok = kind in "biufc" and want in "biufc"
    elif kind == "b":
        # Python bools are 0 and 1 for numpy's integer and float types (not
        # complex, bfloat16 or float8)
        ok = want in "iuf" and target.kind != "V"
    elif kind in "iu":
        # Python ints outside the target's range wrap around, as TF's
        # conversion through int64 and a cast makes them.
        ok = want in "iufc"
    elif kind == "f":
        ok = want in "fc"
    elif kind == "c":
        ok = want == "c"
    if not ok:
        raise _cast_error(value, tf_dtype)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return src.astype(target)


def _string_handle(arr: np.ndarray) -> CData:
    shape = tuple(int(d) for d in arr.shape)
    items = [v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in arr.flat]
    tstring_size = ffi.sizeof("TF_TString")
    dims = ffi.new("int64_t[]", list(shape)) if shape else ffi.NULL
    tensor = lib.TF_AllocateTensor(_TF_STRING, dims, len(shape), tstring_size * len(items))
    if tensor == ffi.NULL:
        raise errors.out_of_memory(f"TF_AllocateTensor failed for a string tensor of shape {shape}")
    try:
        base = ffi.cast("TF_TString*", lib.TF_TensorData(tensor))
        for i, item in enumerate(items):
            lib.TF_StringCopy(base + i, item, len(item))
        with status() as s:
            handle = lib.TFE_NewTensorHandle(tensor, s)
    finally:
        lib.TF_DeleteTensor(tensor)
    return handle


def _pending_error(what: str, s: CData) -> errors.OpError:
    """The exception for ``s``, a status taken from the _fast glue after
    ``what`` failed (NULL: there was none). Does not free ``s``.

    The glue keeps a status for every failure, so NULL means not even that
    could be allocated: out of memory. A status without a message (out of
    memory while storing it) gets one naming ``what``.
    """
    if s == ffi.NULL:
        return errors.error_for(
            errors.RESOURCE_EXHAUSTED, f"{what}: out of memory (no status available)"
        )
    code = int(lib.TF_GetCode(s))
    if code == errors.OK:
        return errors.error_for(errors.INTERNAL, f"{what}: failed, but its status is OK")
    message = ffi.string(lib.TF_Message(s)).decode("utf-8", "replace")
    if not message:
        detail = "out of memory" if code == errors.RESOURCE_EXHAUSTED else errors.code_name(code)
        message = f"{what}: {detail}"
    return errors.error_for(code, message)


def _raise_pending(what: str) -> None:
    """Raises the error the _fast glue kept for this thread."""
    s = lib.tfe_py_take_error()
    try:
        raise _pending_error(what, s)
    finally:
        if s != ffi.NULL:
            lib.TF_DeleteStatus(s)


def _new_handle(arr: np.ndarray, tf_dtype: int) -> CData:
    """A new host handle holding a copy of ``arr`` (already of tf_dtype)."""
    if tf_dtype == _TF_STRING:
        return _string_handle(arr)
    arr = dtypes.native_array(arr)  # byte order, strides, alignment
    shape = arr.shape
    dims = ffi.new("int64_t[]", shape) if shape else ffi.NULL
    data = ffi.from_buffer(arr) if arr.nbytes else ffi.NULL
    h = lib.tfe_py_new_handle(tf_dtype, dims, len(shape), data, arr.nbytes)
    if h == ffi.NULL:
        _raise_pending("creating a tensor")
    return h


# Python scalars skip numpy: packed with struct straight into a new handle.
_SCALAR_FORMATS = {
    "TF_FLOAT": "=f",
    "TF_DOUBLE": "=d",
    "TF_HALF": "=e",
    "TF_INT8": "=b",
    "TF_INT16": "=h",
    "TF_INT32": "=i",
    "TF_INT64": "=q",
    "TF_UINT8": "=B",
    "TF_UINT16": "=H",
    "TF_UINT32": "=I",
    "TF_UINT64": "=Q",
    "TF_BOOL": "=?",
}
_SCALAR_STRUCTS = {int(getattr(lib, k)): struct.Struct(f) for k, f in _SCALAR_FORMATS.items()}
_FLOAT_DTYPES = frozenset(int(getattr(lib, k)) for k in ("TF_FLOAT", "TF_DOUBLE", "TF_HALF"))
_INT_DTYPES = frozenset(
    int(getattr(lib, k)) for k in _SCALAR_FORMATS if k.startswith(("TF_INT", "TF_UINT"))
)
_TF_FLOAT = int(lib.TF_FLOAT)
_TF_INT32 = int(lib.TF_INT32)


def _scalar_handle(value: Any, tf_dtype: int | None) -> tuple[CData, int] | None:
    """(new host handle, dtype) for a Python float/int/bool, or None when the
    value needs the general (numpy) conversion, which also reports errors."""
    kind = value.__class__
    if kind is float:
        if tf_dtype is None:
            tf_dtype = _TF_FLOAT
        elif tf_dtype not in _FLOAT_DTYPES:
            return None
    elif kind is int:
        if tf_dtype is None:
            tf_dtype = _TF_INT32
        elif tf_dtype not in _INT_DTYPES and tf_dtype not in _FLOAT_DTYPES:
            return None
    elif kind is bool:
        if tf_dtype is None:
            tf_dtype = _TF_BOOL
        elif tf_dtype != _TF_BOOL:
            return None
    else:
        return None
    try:
        data = _SCALAR_STRUCTS[tf_dtype].pack(value)
    except (struct.error, OverflowError):
        return None  # out of range for the format: let numpy decide
    h = lib.tfe_py_new_handle(tf_dtype, ffi.NULL, 0, data, len(data))
    if not h:
        _raise_pending("creating a tensor")
    return h, tf_dtype


def _place(handle: CData, ctx: Context, device: bytes | None) -> CData:
    """Copies a fresh host handle to the device scope, if any (consumes it)."""
    if device is None:
        return handle
    try:
        with status() as s:
            moved = lib.TFE_TensorHandleCopyToDevice(handle, ctx.ptr, device, s)
    except errors.InvalidArgumentError as e:
        # With soft placement a constant for a device the context lacks
        # stays on the host, as TF places its constant op (a malformed
        # name is still an error).
        if ctx.soft_device_placement and "unknown device" in e.message:
            return handle
        lib.TFE_DeleteTensorHandle(handle)
        raise
    except BaseException:
        lib.TFE_DeleteTensorHandle(handle)
        raise
    lib.TFE_DeleteTensorHandle(handle)
    return moved


def constant(value: Any, dtype: Any = None) -> EagerTensor:
    """A new tensor holding a copy of ``value``.

    ``value`` is a numpy array or scalar, a Python number/bool/str/bytes, or
    nested lists of those; ``dtype`` anything :func:`as_dtype` accepts. With
    no dtype, numpy values keep theirs, Python floats give float32 and ints
    int32 (as ``tf.constant``). Under ``with ctx.device(...)`` the tensor is
    placed on that device.
    """
    if isinstance(value, EagerTensor):
        if dtype is not None and as_dtype(dtype) != value.dtype:
            raise _cast_error(value, as_dtype(dtype))
        return value
    tf_dtype = None if dtype is None else as_dtype(dtype)
    fast = _scalar_handle(value, tf_dtype)
    if fast is not None:
        handle = fast[0]
    elif tf_dtype is None:
        arr, tf_dtype = _infer(value)
        handle = _new_handle(arr, tf_dtype)
    else:
        handle = _new_handle(_array_for(value, tf_dtype), tf_dtype)
    st = _state
    ctx = st.ctx or default_context()
    return EagerTensor._wrap(_place(handle, ctx, st.device), ctx)


def convert_to_tensor(value: Any, dtype: Any = None) -> EagerTensor:
    """``value`` itself if it is an EagerTensor, else ``constant(value, dtype)``."""
    if isinstance(value, EagerTensor):
        return value
    return constant(value, dtype)


# ---------------------------------------------------------------------------
# Resolved data for numpy


class _ResolvedTensor:
    """Owns a resolved ``TF_Tensor*`` and exposes it to numpy.

    numpy keeps this object as the ``base`` of the array built from its
    ``__array_interface__``, so the TF_Tensor (and the buffer it shares with
    the handle) lives exactly as long as the array and its views.
    """

    def __init__(self, tensor: CData, shape: tuple[int, ...], np_dtype: np.dtype) -> None:
        self._tensor: CData | None = tensor
        data = lib.TF_TensorData(tensor)
        self.address = int(ffi.cast("uintptr_t", data))
        self.__array_interface__ = {
            "version": 3,
            "shape": shape,
            "typestr": dtypes.array_typestr(np_dtype),
            "data": (self.address, True),  # read-only: tensors are immutable
        }

    def __del__(self) -> None:
        tensor, self._tensor = self._tensor, None
        if tensor is not None:
            lib.TF_DeleteTensor(tensor)


def _tensor_shape(tensor: CData) -> tuple[int, ...]:
    return tuple(int(lib.TF_Dim(tensor, i)) for i in range(lib.TF_NumDims(tensor)))


def _strings_to_numpy(tensor: CData, shape: tuple[int, ...]) -> np.ndarray:
    count = math.prod(shape)
    out = np.empty(count, dtype=object)
    if count:
        base = ffi.cast("TF_TString*", lib.TF_TensorData(tensor))
        for i in range(count):
            item = base + i
            out[i] = ffi.buffer(lib.TF_StringGetDataPointer(item), lib.TF_StringGetSize(item))[:]
    return out.reshape(shape)


def _resolve_to_numpy(handle: CData) -> np.ndarray:
    with status() as s:
        tensor = lib.TFE_TensorHandleResolve(handle, s)
    owned = True
    try:
        tf_dtype = int(lib.TF_TensorType(tensor))
        dtypes.check_numpy_convertible(tf_dtype)
        shape = _tensor_shape(tensor)
        if tf_dtype == _TF_STRING:
            arr = _strings_to_numpy(tensor, shape)
            arr.flags.writeable = False
            return arr
        np_dtype = dtypes.to_numpy_dtype(tf_dtype)
        if math.prod(shape) == 0:
            arr = np.empty(shape, dtype=np_dtype)
            arr.flags.writeable = False
            return arr
        holder = _ResolvedTensor(tensor, shape, np_dtype)
        owned = False  # the holder deletes it
        if holder.address % np_dtype.alignment:
            # Misaligned data (never from tfe's allocator): copy it instead.
            raw = ffi.buffer(lib.TF_TensorData(tensor), lib.TF_TensorByteSize(tensor))
            arr = np.frombuffer(raw, dtype=np_dtype).reshape(shape).copy()
            arr.flags.writeable = False
            return arr
        arr = np.asarray(holder)
        if arr.dtype != np_dtype:
            # The array interface names ml_dtypes types (bfloat16, float8,
            # ...) as raw bytes ("V2"): view them as the real type.
            arr = arr.view(np_dtype)
        return arr
    finally:
        if owned:
            lib.TF_DeleteTensor(tensor)


# ---------------------------------------------------------------------------
# EagerTensor


def _closed_error() -> ValueError:
    return ValueError("the tensor is closed")


class EagerTensor(Tensor):
    """Owns one ``TFE_TensorHandle*``; see the module docstring."""

    # _h: the handle (ffi.NULL once closed); _ctx: the owning Context. The other
    # slots are caches filled on first use (unset until then).
    __slots__ = ("__weakref__", "_arr", "_ctx", "_dtype", "_h", "_shape")

    def __init__(self, value: Any, dtype: Any = None) -> None:
        """Same as ``constant(value, dtype)``."""
        other = constant(value, dtype)
        # Steal the new tensor's handle: it is not shared with anyone yet.
        h, other._h = other._h, ffi.NULL
        self._h = h
        self._ctx = other._ctx

    @classmethod
    def _wrap(cls, handle: CData, ctx: Context) -> EagerTensor:
        """Takes ownership of ``handle`` (a non-NULL ``TFE_TensorHandle*``)."""
        t = object.__new__(cls)
        t._h = handle
        t._ctx = ctx
        return t

    @classmethod
    def from_handle(cls, handle: CData, ctx: Context | None = None) -> EagerTensor:
        """Wraps a ``TFE_TensorHandle*`` and takes ownership of it.

        ``ctx`` is the context the handle belongs to (the current one if
        omitted); the tensor keeps it alive.
        """
        if handle == ffi.NULL:
            raise ValueError("from_handle needs a non-NULL TFE_TensorHandle*")
        return cls._wrap(handle, ctx if ctx is not None else (_state.ctx or default_context()))

    # -- lifetime ---------------------------------------------------------

    @property
    def closed(self) -> bool:
        return not self._h

    def close(self) -> None:
        """Deletes the handle. Safe to call more than once.

        numpy arrays obtained before stay valid (they own the data).
        """
        h, self._h = self._h, ffi.NULL
        if h:
            lib.TFE_DeleteTensorHandle(h)
            self._ctx = None
        for cache in ("_arr", "_shape", "_dtype"):  # numpy views keep their own reference
            try:
                delattr(self, cache)
            except AttributeError:
                pass

    def __enter__(self) -> EagerTensor:
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
            h = self._h
        except AttributeError:  # construction failed before _h was set
            return
        if h:
            self._h = ffi.NULL
            try:
                lib.TFE_DeleteTensorHandle(h)
            except Exception:  # interpreter shutdown: nothing sensible left to do
                pass

    # -- handle and metadata ----------------------------------------------

    @property
    def handle(self) -> CData:
        """The underlying ``TFE_TensorHandle*``, still owned by this tensor."""
        h = self._h
        if not h:
            raise _closed_error()
        return h

    @property
    def context(self) -> Context:
        ctx = self._ctx
        if ctx is None:
            raise _closed_error()
        return ctx

    @property
    def dtype(self) -> DType:
        try:
            return self._dtype
        except AttributeError:
            pass
        dt = DType(int(lib.TFE_TensorHandleDataType(self.handle)))
        self._dtype = dt
        return dt

    @property
    def shape(self) -> TensorShape:
        """The dimensions, as a :class:`TensorShape` (a tuple of ints)."""
        try:
            return self._shape
        except AttributeError:
            pass
        h = self.handle
        with status() as s:
            rank = int(lib.TFE_TensorHandleNumDims(h, s))
        dims = []
        for i in range(rank):
            with status() as s:
                dims.append(int(lib.TFE_TensorHandleDim(h, i, s)))
        if any(d < 0 for d in dims):  # unknown dims (custom devices): None, as TF
            dims = [d if d >= 0 else None for d in dims]  # type: ignore[misc]
        shape = TensorShape._known(tuple(dims))
        self._shape = shape
        return shape

    @property
    def size(self) -> int:
        """Number of elements."""
        return math.prod(self.shape)

    @property
    def device(self) -> str:
        """Full name of the device the op that made this tensor ran on."""
        with status() as s:
            raw = lib.TFE_TensorHandleDeviceName(self.handle, s)
        return ffi.string(raw).decode("utf-8")

    @property
    def backing_device(self) -> str:
        """Full name of the device whose memory holds the data."""
        with status() as s:
            raw = lib.TFE_TensorHandleBackingDeviceName(self.handle, s)
        return ffi.string(raw).decode("utf-8")

    # -- data -------------------------------------------------------------

    def _array(self) -> np.ndarray:
        """The value as a read-only ndarray (0-d for scalars), cached."""
        try:
            return self._arr
        except AttributeError:
            pass
        arr = _resolve_to_numpy(self.handle)
        self._arr = arr
        return arr

    def numpy(self) -> Any:
        """The value in numpy: a read-only array viewing the tensor's memory
        without copying (strings: a new object array of bytes), or for a 0-d
        tensor a numpy scalar (``bytes`` for strings), as TensorFlow gives.
        Arrays stay valid after ``close()``. bfloat16 and float8 tensors
        need the ``ml_dtypes`` package (ImportError without it)."""
        arr = self._array()
        return arr[()] if arr.ndim == 0 else arr

    def __array__(self, dtype: npt.DTypeLike = None, copy: bool | None = None) -> np.ndarray:
        arr = self._array()
        if dtype is not None and np.dtype(dtype) != arr.dtype:
            if copy is False:
                raise ValueError(f"converting {arr.dtype} to {np.dtype(dtype)} needs a copy")
            return arr.astype(dtype)
        return arr.copy() if copy else arr

    def cpu(self) -> EagerTensor:
        """A copy of this tensor on CPU:0 (shares memory when already there)."""
        ctx = self._ctx or default_context()
        with status() as s:
            h = lib.TFE_TensorHandleCopyToDevice(self.handle, ctx.ptr, b"CPU:0", s)
        return EagerTensor._wrap(h, ctx)

    def __bool__(self) -> bool:
        return bool(self._array())

    def __float__(self) -> float:
        return float(self._array())

    def __int__(self) -> int:
        return int(self._array())

    def __format__(self, format_spec: str) -> str:
        """``f"{t:.2f}"`` formats the numpy value, as TensorFlow does."""
        return format(self.numpy(), format_spec)

    def __round__(self, ndigits: int | None = None) -> Any:
        """``round(t)`` fails as in TensorFlow, whose tensors only round with
        numpy behaviour enabled (its __round__ then calls ``astype``);
        ``tf.round(t)`` is the op."""
        raise AttributeError(
            "EagerTensor object has no attribute 'astype'. \n        If you are looking for "
            "numpy-related methods, please run the following:\n        "
            "tf.experimental.numpy.experimental_enable_numpy_behavior()\n      "
        )

    def __dlpack__(self, **kwargs: Any) -> object:
        """A DLPack capsule sharing this tensor's memory (see tfe_py.dlpack)."""
        from tfe_py.dlpack import DLPackTensor

        return DLPackTensor(self).__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        from tfe_py.dlpack import DLPackTensor

        return DLPackTensor(self).__dlpack_device__()

    def __index__(self) -> int:
        if not (self.dtype.is_integer or int(self.dtype) == _TF_BOOL):
            raise TypeError(f"a {self.dtype.name} tensor cannot be used as an index")
        if self.shape:
            raise TypeError("only scalar integer tensors can be used as an index")
        return int(self._array())

    def __complex__(self) -> complex:
        return complex(self._array())

    def __len__(self) -> int:
        shape = self.shape
        if not shape:
            raise TypeError("Scalar tensor has no `len()`")
        return shape[0]

    def _numpy_text(self, is_repr: bool) -> str:
        """The value as TensorFlow prints it inside repr/str."""
        if int(self.dtype) == int(lib.TF_VARIANT) or int(self.dtype) == int(lib.TF_RESOURCE):
            return "<unprintable>"
        try:
            arr = self._array()
        except (TypeError, ImportError):  # e.g. bfloat16 without ml_dtypes
            return "<unprintable>"
        if arr.ndim == 0:
            text = repr(arr.item()) if is_repr else str(arr[()])
        else:
            text = repr(arr) if is_repr else str(arr)
        return "\n" + text if "\n" in text else text

    def __repr__(self) -> str:
        if not self._h:
            return "<tf.Tensor (closed)>"
        return (
            f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, "
            f"numpy={self._numpy_text(True)}>"
        )

    def __str__(self) -> str:
        if not self._h:
            return "tf.Tensor(closed)"
        return f"tf.Tensor({self._numpy_text(False)}, shape={self.shape}, dtype={self.dtype.name})"

    def __hash__(self) -> int:
        """Tensors define == elementwise, so they cannot be hashed (as in TF)."""
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def __reduce__(self) -> tuple[Any, ...]:
        return (constant, (np.array(self._array()), int(self.dtype)))


# ---------------------------------------------------------------------------
# Operators. They call the generated op wrappers of tfe_py.ops, looked up
# once, and are attached to EagerTensor below.

_OpFn = Callable[..., Any]


def _op(name: str) -> _OpFn:
    from tfe_py import _opgen

    return _opgen.wrapper(name)


def _install(dunder: str, op_name: str) -> Callable[..., Any]:
    """A placeholder for operator ``dunder`` that, on first use, puts the
    generated wrapper of ``op_name`` itself on the class (``x + y`` then
    costs the same as ``ops.AddV2(x, y)``) and runs it."""

    def method(self: EagerTensor, *other: Any) -> Any:
        fn = _op(op_name)
        setattr(EagerTensor, dunder, fn)
        return fn(self, *other)

    method.__name__ = dunder
    method.__doc__ = f"Runs {op_name}."
    return method


def _reflected(op_name: str) -> Callable[[EagerTensor, Any], Any]:
    fn: list[_OpFn] = []

    def method(self: EagerTensor, other: Any) -> Any:
        if not fn:
            fn.append(_op(op_name))
        return fn[0](other, self)

    method.__name__ = f"r{op_name}"
    method.__doc__ = f"Runs {op_name}(other, self)."
    return method


def _float_for_int(tf_dtype: int) -> int:
    """The dtype TF's true division casts integers to."""
    name = dtypes.name(tf_dtype)
    if name in ("int8", "uint8", "int16", "uint16"):
        return int(lib.TF_FLOAT)
    return int(lib.TF_DOUBLE)


def _truediv(x: Any, y: Any) -> Any:
    """x / y as TF's ``__truediv__``: integers are cast to float first."""
    if not isinstance(x, EagerTensor):
        x = convert_to_tensor(x, y.dtype if isinstance(y, EagerTensor) else None)
    if not isinstance(y, EagerTensor):
        y = constant(y, x.dtype)
    if x.dtype.is_integer:
        cast = _op("Cast")
        target = _float_for_int(int(x.dtype))
        x = cast(x, DstT=target)
        y = cast(y, DstT=target)
    return _op("RealDiv")(x, y)


def _eq(self: EagerTensor, other: Any) -> Any:
    if other is None:
        return False
    # A value with no form of this dtype raises TypeError, as in TF.
    return _op("Equal")(self, other, incompatible_shape_error=False)


def _ne(self: EagerTensor, other: Any) -> Any:
    if other is None:
        return True
    return _op("NotEqual")(self, other, incompatible_shape_error=False)


def _invert(self: EagerTensor) -> Any:
    """~t: LogicalNot for bools, Invert (bitwise) for integers."""
    if int(self.dtype) == _TF_BOOL:
        return _op("LogicalNot")(self)
    return _op("Invert")(self)


def _bitwise(bool_op: str, int_op: str, *, reflected: bool = False) -> Callable[..., Any]:
    """&, |, ^: the logical op for bool tensors, the bitwise one otherwise."""

    def method(self: EagerTensor, other: Any) -> Any:
        fn = _op(bool_op if int(self.dtype) == _TF_BOOL else int_op)
        return fn(other, self) if reflected else fn(self, other)

    method.__name__ = int_op
    return method


def _abs(self: EagerTensor) -> Any:
    """abs(t): ComplexAbs (a real result) for complex tensors, else Abs."""
    if self.dtype.is_complex:
        return _op("ComplexAbs")(self, Tout=self.dtype.real_dtype)
    return _op("Abs")(self)


def _add(reflected: bool) -> Callable[[EagerTensor, Any], Any]:
    """+ as TF's: AddV2, except for strings, which only Add concatenates
    (tried after AddV2 refuses: numbers pay one Python call, no dtype check)."""
    fns: list[_OpFn] = []

    def method(self: EagerTensor, other: Any) -> Any:
        if not fns:
            fns.append(_op("AddV2"))
        x, y = (other, self) if reflected else (self, other)
        try:
            return fns[0](x, y)
        except errors.InvalidArgumentError:
            if int(self.dtype) != int(lib.TF_STRING):
                raise
        except TypeError:
            if reflected:
                raise
            # The other operand has no form of this dtype: TF converts it on
            # its own, and the op then refuses the mismatch with
            # InvalidArgumentError (tf.constant("a") + 1, int32 + 1.5).
            y = convert_to_tensor(other)
            if int(self.dtype) != int(lib.TF_STRING):
                return fns[0](x, y)
        return _op("Add")(x, y)

    method.__name__ = "__radd__" if reflected else "__add__"
    return method


_OPERATORS: dict[str, Any] = {
    "__add__": _add(False),
    "__radd__": _add(True),
    "__sub__": _install("__sub__", "Sub"),
    "__rsub__": _reflected("Sub"),
    "__mul__": _install("__mul__", "Mul"),
    "__rmul__": _reflected("Mul"),
    "__truediv__": lambda self, other: _truediv(self, other),
    "__rtruediv__": lambda self, other: _truediv(other, self),
    "__floordiv__": _install("__floordiv__", "FloorDiv"),
    "__rfloordiv__": _reflected("FloorDiv"),
    "__mod__": _install("__mod__", "FloorMod"),
    "__rmod__": _reflected("FloorMod"),
    "__pow__": _install("__pow__", "Pow"),
    "__rpow__": _reflected("Pow"),
    "__matmul__": _install("__matmul__", "MatMul"),
    "__rmatmul__": _reflected("MatMul"),
    "__lt__": _install("__lt__", "Less"),
    "__le__": _install("__le__", "LessEqual"),
    "__gt__": _install("__gt__", "Greater"),
    "__ge__": _install("__ge__", "GreaterEqual"),
    "__eq__": _eq,
    "__ne__": _ne,
    "__neg__": _install("__neg__", "Neg"),
    "__abs__": _abs,
    "__pos__": lambda self: self,
    "__and__": _bitwise("LogicalAnd", "BitwiseAnd"),
    "__rand__": _bitwise("LogicalAnd", "BitwiseAnd", reflected=True),
    "__or__": _bitwise("LogicalOr", "BitwiseOr"),
    "__ror__": _bitwise("LogicalOr", "BitwiseOr", reflected=True),
    "__xor__": _bitwise("NotEqual", "BitwiseXor"),
    "__rxor__": _bitwise("NotEqual", "BitwiseXor", reflected=True),
    "__invert__": _invert,
}

for _name, _fn in _OPERATORS.items():
    setattr(EagerTensor, _name, _fn)
del _name, _fn
