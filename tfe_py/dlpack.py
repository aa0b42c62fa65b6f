"""Zero-copy exchange of tensors with other array libraries through DLPack.

>>> import numpy as np, tfe_py
>>> from tfe_py import dlpack
>>> t = dlpack.from_dlpack(np.arange(6.0).reshape(2, 3))   # numpy -> tfe
>>> a = np.from_dlpack(dlpack.DLPackTensor(t))               # tfe -> numpy

Both directions share memory when they can (compact host data, 64-byte
aligned for the way into tfe); otherwise tfe copies. Only host (CPU) memory
is exchanged.

Capsules: :func:`to_dlpack` returns a PyCapsule named ``"dltensor"`` that
can be consumed once, by any library's ``from_dlpack``. A consumer renames
it ``"used_dltensor"``; a capsule that is never consumed releases the
tensor when it is garbage collected.

Objects: :class:`DLPackTensor` wraps a tfe tensor in the ``__dlpack__`` /
``__dlpack_device__`` protocol, for consumers such as ``np.from_dlpack``
that take such objects rather than capsules.

Caveat, as with TensorFlow: arrays created by other libraries from a tfe
tensor may be writable, and writing to them changes the tfe tensor, which
tfe otherwise treats as immutable.

Implementation note: cffi cannot create or read PyCapsules, and it releases
the GIL around every call, so it must not call the Python C API; the few
capsule operations live in a tiny CPython extension, ``tfe_py._capsule``
(tfe_py/_capsule.c), built next to the cffi module.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tfe_py import _capsule  # type: ignore[attr-defined]
from tfe_py._ffi import CData, ffi, lib
from tfe_py.context import Context, current_context
from tfe_py.eager import EagerTensor, convert_to_tensor
from tfe_py.errors import status

__all__ = ["DLPackTensor", "from_dlpack", "to_dlpack"]

CAPSULE_NAME = b"dltensor"
USED_CAPSULE_NAME = b"used_dltensor"
KDL_CPU = 1  # DLDeviceType kDLCPU

# ---------------------------------------------------------------------------
# Capsules (tfe_py/_capsule.c). An unconsumed capsule's destructor calls the
# DLManagedTensor's deleter itself.


def _libc_free(address: CData) -> None:
    """free() on memory tfe allocated for the caller (address as uintptr_t)."""
    _capsule.free(int(address))


def _new_capsule(managed: CData) -> object:
    """A "dltensor" capsule owning ``managed`` (a DLManagedTensor*)."""
    address = int(ffi.cast("uintptr_t", managed))
    try:
        return _capsule.new(address)
    except BaseException:
        lib.TFE_CallDLManagedTensorDeleter(managed)
        raise


def _is_capsule(obj: object) -> bool:
    return type(obj).__name__ == "PyCapsule"


# ---------------------------------------------------------------------------
# tfe -> others


def to_dlpack(tensor: Any) -> object:
    """A new ``"dltensor"`` PyCapsule sharing ``tensor``'s memory.

    ``tensor`` is an :class:`~tfe_py.EagerTensor` (anything else is first
    converted with :func:`tfe_py.convert_to_tensor`). The capsule keeps the
    memory alive by itself, so the tensor may be closed afterwards. Pass it
    to one consumer's ``from_dlpack`` (e.g. ``torch.from_dlpack``); an
    unconsumed capsule releases the memory when garbage collected.

    Raises :class:`tfe_py.errors.InvalidArgumentError` for tensors that are
    not in host memory or whose dtype DLPack cannot describe (strings,
    resources, variants, quantized types).
    """
    t = convert_to_tensor(tensor)
    with status() as s:
        managed = lib.TFE_HandleToDLPack(t.handle, s)
    return _new_capsule(managed)


class DLPackTensor:
    """A tfe tensor seen through the DLPack object protocol.

    ``np.from_dlpack(DLPackTensor(t))`` (or any consumer that calls
    ``__dlpack__`` and ``__dlpack_device__``) gets a view of ``t``'s memory
    without a copy. The wrapper keeps ``t`` open while it exists.
    """

    def __init__(self, tensor: Any) -> None:
        self.tensor: EagerTensor = convert_to_tensor(tensor)

    def __dlpack__(
        self,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> object:
        """A ``"dltensor"`` capsule (a pre-1.0 capsule whatever
        ``max_version`` asks, which the protocol allows)."""
        del max_version  # only unversioned capsules are produced
        if stream is not None and stream != -1:
            raise BufferError("tfe tensors live in host memory: stream must be None")
        if dl_device is not None and dl_device[0] != KDL_CPU:
            raise BufferError(f"tfe tensors can only be exported to the CPU, not {dl_device}")
        if copy:
            return to_dlpack(EagerTensor(np.array(self.tensor.numpy(), copy=True)))
        return to_dlpack(self.tensor)

    def __dlpack_device__(self) -> tuple[int, int]:
        with status() as s:
            device = lib.TFE_GetDLDevice(self.tensor.handle, s)
        try:
            d = ffi.cast("DLDevice *", device)
            return (int(d.device_type), int(d.device_id))
        finally:
            _libc_free(ffi.cast("uintptr_t", device))  # TFE_GetDLDevice: free()

    def __repr__(self) -> str:
        return f"DLPackTensor({self.tensor!r})"


# ---------------------------------------------------------------------------
# others -> tfe


def from_dlpack(obj: Any, ctx: Context | None = None) -> EagerTensor:
    """A tfe tensor over the memory of a DLPack capsule or exporter.

    ``obj`` is a ``"dltensor"`` PyCapsule, or any object implementing
    ``__dlpack__`` (NumPy arrays, PyTorch/JAX CPU tensors, ...). The data
    is shared when it is compact and 64-byte aligned, and copied otherwise
    (non-contiguous strides, unaligned start); either way the result is a
    normal tensor of ``ctx`` (the current context by default) and the
    producer's memory is released exactly once, when tfe no longer needs
    it. A capsule is consumed (renamed ``"used_dltensor"``) only when the
    import succeeds.

    Read-only NumPy arrays cannot be exported as pre-1.0 DLPack capsules,
    nor can byte-swapped ones (DLPack has no byte order); they are copied
    instead, byte-swapped data converted to the values it stands for.

    Raises ValueError for a capsule that is not an unused ``"dltensor"``,
    BufferError when the producer's memory is not on the CPU, and
    :class:`tfe_py.errors.InvalidArgumentError` for dtypes tfe cannot hold.
    """
    if ctx is None:
        ctx = current_context()
    if _is_capsule(obj):
        capsule = obj
    elif hasattr(obj, "__dlpack__"):
        if hasattr(obj, "__dlpack_device__"):
            device = tuple(obj.__dlpack_device__())
            if int(device[0]) != KDL_CPU:
                raise BufferError(f"tfe can only import CPU memory; the object is on {device}")
        try:
            capsule = obj.__dlpack__()
        except BufferError:
            # numpy refuses to export read-only and byte-swapped arrays:
            # those are copied (in native byte order) like any other array.
            if isinstance(obj, np.ndarray) and (
                not obj.flags.writeable or obj.dtype.byteorder in ("<", ">")
            ):
                return _wrap(convert_to_tensor(obj), ctx)
            raise
    else:
        raise TypeError(
            f"from_dlpack needs a DLPack capsule or an object with __dlpack__, "
            f"not {type(obj).__name__}"
        )
    if not _capsule.is_live(capsule):
        raise ValueError(
            "expected an unused DLPack capsule named 'dltensor' "
            "(a capsule can be consumed only once)"
        )
    managed = ffi.cast("void *", _capsule.pointer(capsule))
    # Renamed first: on success tfe may run the deleter at once (when it
    # copies), and the capsule's own destructor must not run it again.
    _capsule.mark(capsule, True)
    try:
        with status() as s:
            handle = lib.TFE_HandleFromDLPack(managed, s, ctx.ptr)
    except BaseException:
        _capsule.mark(capsule, False)  # not consumed: still the capsule's
        raise
    return EagerTensor._wrap(handle, ctx)


def _wrap(tensor: EagerTensor, ctx: Context) -> EagerTensor:
    """``tensor`` itself when it belongs to ``ctx``, else a copy there."""
    if tensor.context is ctx:
        return tensor
    with status() as s:
        handle = lib.TFE_TensorHandleCopyToDevice(tensor.handle, ctx.ptr, b"CPU:0", s)
    return EagerTensor._wrap(handle, ctx)
