"""Custom devices written in Python.

A custom device sees every op placed on it: ops explicitly placed there
(``with ctx.device("CUSTOM:0"):``) and ops with an input on it. Subclass
:class:`CustomDevice`, override what you need, and register an instance::

    class Tracer(tfe_py.CustomDevice):
        def __init__(self) -> None:
            super().__init__()
            self.ops: list[str] = []

        def execute(self, op, inputs):
            self.ops.append(op.name)
            return super().execute(op, inputs)  # runs it on the host CPU

    ctx.register_custom_device(Tracer(), "CUSTOM:0")

The base class is a complete pass-through device: its tensors wrap ordinary
host tensors (:meth:`CustomDevice.wrap` / :meth:`CustomDevice.unwrap`),
copies wrap and unwrap, and :meth:`CustomDevice.execute` unwraps the inputs,
runs the op on :attr:`CustomDevice.forward_to` and wraps the outputs.

It is built on TensorFlow's C API for custom devices
(``TFE_RegisterCustomDevice``; see docs/CUSTOM_DEVICES.md): the callbacks are
cffi ``extern "Python"`` functions (tfe_py/cdef_python_callbacks.h). An
exception raised by a method never crosses into C: it is stored in the
callback's TF_Status, and the C call that triggered the callback fails with
it, so the Python caller gets the matching :mod:`tfe_py.errors` exception (an
:class:`~tfe_py.errors.OpError` keeps its class and message; any other
exception becomes :class:`~tfe_py.errors.UnknownError` whose message starts
with the exception's type name).

Lifetime: the C context owns the registration. When the context is deleted
(``Context.close()``) the device's :meth:`CustomDevice.close` runs once.
Tensors on the device keep their payload until their last handle is gone.
"""

from __future__ import annotations

import re
import sys
import threading
import traceback
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from tfe_py import errors
from tfe_py._ffi import CData, ffi, lib
from tfe_py.context import Context, current_context
from tfe_py.eager import EagerTensor, as_dtype, convert_to_tensor
from tfe_py.errors import UnimplementedError, check, set_status_from_exception, status

__all__ = [
    "CustomDevice",
    "CustomDeviceOp",
    "full_device_name",
    "register_custom_device",
    "summarize",
]

_LOCAL_PREFIX = "/job:localhost/replica:0/task:0"
_SHORT_NAME = re.compile(r"^(?:/device:)?([A-Za-z][A-Za-z0-9_]*):(\d+)$")

# C holds these as `void*`: what keeps each Python object alive until C
# lets go of it (delete_device for devices, the deallocator for payloads),
# by the address of its ffi handle.
_device_handles: dict[int, CData] = {}
_payload_handles: dict[int, CData] = {}
# Registered devices by (context address, full name), for the one callback
# without device_info (shall_pin_to_this_device).
_devices_by_name: dict[tuple[int, str], CustomDevice] = {}
_lock = threading.Lock()


def _address(p: CData) -> int:
    return int(ffi.cast("uintptr_t", p))


def _c_str(p: CData) -> str:
    return "" if p == ffi.NULL else ffi.string(p).decode("utf-8", "replace")


def full_device_name(name: str) -> str:
    """``"CUSTOM:0"`` or ``"/device:CUSTOM:0"`` as a full local device name
    (``"/job:localhost/replica:0/task:0/device:CUSTOM:0"``); other names are
    returned unchanged."""
    m = _SHORT_NAME.match(name)
    if m is None:
        return name
    return f"{_LOCAL_PREFIX}/device:{m.group(1)}:{m.group(2)}"


def _report_unraisable(where: str, exc: BaseException) -> None:
    """For callbacks without a status: print, as Python does for __del__."""
    print(f"Exception ignored in tfe_py custom device callback {where}:", file=sys.stderr)
    traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)


# ---------------------------------------------------------------------------
# Tensors: shared handles in, new handles out


def _share(handle: CData, ctx: Context) -> EagerTensor:
    """A new EagerTensor sharing a borrowed handle's value."""
    with status() as s:
        h = lib.TFE_TensorHandleCopySharingTensor(handle, s)
    return EagerTensor.from_handle(h, ctx)


def _give(value: Any, what: str) -> CData:
    """A new handle (owned by C) sharing the value of a returned tensor."""
    if not isinstance(value, EagerTensor):
        raise TypeError(
            f"{what} must return tfe_py.EagerTensor objects, got {type(value).__name__}"
        )
    with status() as s:
        return lib.TFE_TensorHandleCopySharingTensor(value.handle, s)


def _as_tensor(value: Any, ctx: Context) -> EagerTensor:
    """An EagerTensor for an op input; other values become host constants
    (never placed by the caller's device scope)."""
    if isinstance(value, EagerTensor):
        return value
    with ctx.device(None):
        return convert_to_tensor(value)


class _Payload:
    """What a tensor made by :meth:`CustomDevice.wrap` holds."""

    __slots__ = ("shape", "summary", "value")

    def __init__(self, value: Any, shape: tuple[int | None, ...], summary: Any) -> None:
        self.value = value
        self.shape = shape
        self.summary = summary


# ---------------------------------------------------------------------------
# The op a device runs


class CustomDeviceOp:
    """The op a custom device is asked to execute.

    Valid only during the call of :meth:`CustomDevice.execute` (or
    :meth:`CustomDevice.shall_pin_to_this_device`) it was given to.

    Attributes:
        name: the op type, e.g. ``"MatMul"``.
        requested_device: the device the op asked for, ``""`` when it was
            placed here only because of an input.
        num_outputs: how many outputs the caller has room for.
    """

    __slots__ = ("_device", "_op", "name", "num_outputs", "requested_device")

    def __init__(self, op: CData, device: CustomDevice, num_outputs: int) -> None:
        self._op: CData | None = op
        self._device = device
        with status() as s:
            self.name: str = _c_str(lib.TFE_OpGetName(op, s))
        with status() as s:
            self.requested_device: str = _c_str(lib.TFE_OpGetDevice(op, s))
        self.num_outputs: int = num_outputs

    def _ptr(self) -> CData:
        if self._op is None:
            raise ValueError("the op is only valid during the callback it was given to")
        return self._op

    @property
    def context(self) -> Context:
        return self._device.context

    def attrs_proto(self) -> bytes:
        """The op's attributes as a serialized ``tensorflow.NameAttrList``."""
        buf = lib.TF_NewBuffer()
        try:
            with status() as s:
                lib.TFE_OpAttrsSerialize(lib.TFE_OpGetAttrs(self._ptr()), buf, s)
            return bytes(ffi.buffer(buf.data, buf.length))
        finally:
            lib.TF_DeleteBuffer(buf)

    def run(
        self,
        inputs: Sequence[Any],
        *,
        device: str | None = None,
        num_outputs: int | None = None,
    ) -> list[EagerTensor]:
        """Runs an op of the same type with the same attributes on ``inputs``.

        ``device`` is where it runs (``None``: no request, so the runtime
        places it by its inputs). Beware of handing it tensors of this very
        device with no other placement: the op would come back here.
        Returns the outputs (new tensors, owned by the caller).
        """
        ctx = self.context
        room = self.num_outputs if num_outputs is None else int(num_outputs)
        tensors = [_as_tensor(t, ctx) for t in inputs]
        with status() as s:
            op = lib.TFE_NewOp(ctx.ptr, self.name.encode("utf-8"), s)
        try:
            lib.TFE_OpAddAttrs(op, lib.TFE_OpGetAttrs(self._ptr()))
            if device is not None:
                with status() as s:
                    lib.TFE_OpSetDevice(op, full_device_name(device).encode("utf-8"), s)
            for t in tensors:
                with status() as s:
                    lib.TFE_OpAddInput(op, t.handle, s)
            outs = ffi.new("TFE_TensorHandle*[]", max(room, 1))
            count = ffi.new("int*", room)
            with status() as s:
                lib.TFE_Execute(op, outs, count, s)
        finally:
            lib.TFE_DeleteOp(op)
        return [EagerTensor.from_handle(outs[i], ctx) for i in range(count[0])]

    def __repr__(self) -> str:
        return f"<CustomDeviceOp {self.name} requested_device={self.requested_device!r}>"


# ---------------------------------------------------------------------------
# The device


class CustomDevice:
    """Base class of custom devices written in Python; see the module doc.

    Override any of :meth:`execute`, :meth:`copy_to_device`,
    :meth:`copy_from_device`, :meth:`pack`,
    :meth:`shall_pin_to_this_device` and :meth:`close`. An instance can be
    registered once, in one context.
    """

    #: Where the pass-through :meth:`execute` runs ops.
    forward_to: str = "CPU:0"

    # Class-level defaults, so that subclasses that skip __init__ still work.
    _name: str | None = None
    _ctx_ref: weakref.ref[Context] | None = None
    _ctx_address: int = 0
    _state: str = "new"  # "new", "registering", "registered", "deleted"

    def __init__(self) -> None:
        self._name = None
        self._ctx_ref = None
        self._state = "new"

    # -- state ------------------------------------------------------------

    @property
    def name(self) -> str:
        """The full device name (after registration)."""
        if self._name is None:
            raise ValueError("the custom device is not registered")
        return self._name

    @property
    def context(self) -> Context:
        """The Context the device is registered in."""
        ctx = self._ctx_ref() if self._ctx_ref is not None else None
        if ctx is None:
            raise ValueError("the custom device is not registered in a live context")
        return ctx

    @property
    def registered(self) -> bool:
        return self._state == "registered"

    # -- methods to override ------------------------------------------------

    def copy_to_device(self, tensor: EagerTensor) -> EagerTensor:
        """A copy of ``tensor`` (on another device) on this device.

        Default: a tensor wrapping ``tensor``.
        """
        return self.wrap(tensor)

    def copy_from_device(self, tensor: EagerTensor, target_device: str) -> EagerTensor:
        """A copy of ``tensor`` (on this device) on ``target_device``.

        Default: the wrapped tensor, copied to the target.
        """
        value = self.unwrap(tensor)
        if not isinstance(value, EagerTensor):
            raise UnimplementedError(
                f"custom device {self.name}: copy_from_device cannot copy a "
                f"{type(value).__name__} payload; override copy_from_device"
            )
        with status() as s:
            h = lib.TFE_TensorHandleCopyToDevice(
                value.handle, self.context.ptr, target_device.encode("utf-8"), s
            )
        return EagerTensor.from_handle(h, self.context)

    def execute(self, op: CustomDeviceOp, inputs: list[EagerTensor]) -> Any:
        """Runs ``op`` on ``inputs``; returns its outputs (a sequence of
        EagerTensors, one EagerTensor, or None for none).

        ``inputs`` are the op's flat inputs, on this device or elsewhere;
        they are only valid during the call. Default: unwraps the inputs on
        this device, runs the op on :attr:`forward_to` and wraps the outputs.
        """
        plain = [self.unwrap(t) if self.owns(t) else t for t in inputs]
        outs = op.run(plain, device=self.forward_to)
        try:
            return [self.wrap(t) for t in outs]
        finally:
            for t in outs:
                t.close()

    def pack(self, tensors: list[EagerTensor]) -> EagerTensor:
        """For TFE_CreatePackedTensorHandle; only used when overridden."""
        raise UnimplementedError("This custom device does not support packing tensors.")

    def shall_pin_to_this_device(self, op: CustomDeviceOp) -> bool:
        """Whether ``op``, which has an input on this device, runs here even
        when placed elsewhere. Only consulted when overridden (TF's rules
        decide otherwise)."""
        return False

    def close(self) -> None:
        """Called once when the context deletes the device."""

    # -- tensors of this device -------------------------------------------

    def owns(self, tensor: Any) -> bool:
        """Whether ``tensor`` is an EagerTensor on this device."""
        return (
            isinstance(tensor, EagerTensor)
            and self._name is not None
            and not tensor.closed
            and tensor.device == self._name
        )

    def wrap(
        self,
        value: Any,
        *,
        dtype: Any = None,
        shape: Sequence[int | None] | None = None,
        summary: str | Callable[[Any], str] | None = None,
    ) -> EagerTensor:
        """A new tensor on this device holding ``value``.

        An EagerTensor value gives its dtype and shape (and is shared, so
        closing the original later does not matter); for other values give
        ``dtype`` and ``shape`` (``None`` or ``-1`` for an unknown axis).
        ``summary`` (text, or a function of the value returning text) is
        what :func:`summarize` reports.
        """
        ctx = self.context
        if isinstance(value, EagerTensor):
            if dtype is None:
                dtype = value.dtype
            if shape is None:
                shape = value.shape
            value = _share(value.handle, ctx)
        if dtype is None or shape is None:
            raise ValueError("wrap needs dtype and shape for a value that is not an EagerTensor")
        dims = tuple(None if d is None or int(d) < 0 else int(d) for d in shape)
        payload = _Payload(value, dims, summary)
        handle = ffi.new_handle(payload)
        _payload_handles[_address(handle)] = handle
        methods = ffi.new("TFE_CustomDeviceTensorHandle*")
        methods.version = lib.TFE_CUSTOM_DEVICE_VERSION
        methods.num_dims = lib.tfe_py_cdh_num_dims
        methods.dim = lib.tfe_py_cdh_dim
        methods.deallocator = lib.tfe_py_cdh_deallocator
        if summary is not None:
            methods.summarize = lib.tfe_py_cdh_summarize
        # On failure the C side has already called the deallocator.
        with status() as s:
            h = lib.TFE_NewCustomDeviceTensorHandle(
                ctx.ptr, self.name.encode("utf-8"), as_dtype(dtype), handle, methods[0], s
            )
        return EagerTensor.from_handle(h, ctx)

    def unwrap(self, tensor: EagerTensor) -> Any:
        """The value a tensor of this device made by :meth:`wrap` holds."""
        if not self.owns(tensor):
            where = tensor.device if isinstance(tensor, EagerTensor) else type(tensor).__name__
            raise ValueError(f"unwrap: the tensor is not on {self._name} (it is on {where})")
        with status() as s:
            p = lib.TFE_TensorHandleDevicePointer(tensor.handle, s)
        if _address(p) not in _payload_handles:
            raise ValueError("unwrap: the tensor was not made by CustomDevice.wrap")
        payload: _Payload = ffi.from_handle(p)
        return payload.value

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._name or '(unregistered)'}>"

    # -- lifetime (called from delete_device) -------------------------------

    def _deleted(self) -> None:
        with _lock:
            was_registered = self._state == "registered"
            self._state = "deleted" if was_registered else "new"
            if self._name is not None:
                _devices_by_name.pop((self._ctx_address, self._name), None)
            if not was_registered:
                self._name = None
                self._ctx_ref = None
        if was_registered:
            self.close()


def _overrides(device: CustomDevice, method: str) -> bool:
    return getattr(type(device), method) is not getattr(CustomDevice, method)


def register_custom_device(device: CustomDevice, name: str, ctx: Context | None = None) -> str:
    """Registers ``device`` as ``name`` in ``ctx`` (the current context by
    default). ``name`` may be short (``"CUSTOM:0"``); returns the full name.

    Errors come from TFE_RegisterCustomDevice: AlreadyExistsError for a name
    that a physical or custom device already has, InvalidArgumentError for a
    name that is not a device name.
    """
    if not isinstance(device, CustomDevice):
        raise TypeError(f"expected a tfe_py.CustomDevice, got {type(device).__name__}")
    if ctx is None:
        ctx = current_context()
    full = full_device_name(name)
    ptr = ctx.ptr
    with _lock:
        if device._state != "new":
            raise ValueError(f"{device!r} is already registered (a device registers once)")
        device._state = "registering"
        device._name = full
        device._ctx_ref = weakref.ref(ctx)
        device._ctx_address = _address(ptr)
    table = ffi.new("TFE_CustomDevice*")
    table.version = lib.TFE_CUSTOM_DEVICE_VERSION
    table.copy_tensor_to_device = lib.tfe_py_cd_copy_to_device
    table.copy_tensor_from_device = lib.tfe_py_cd_copy_from_device
    table.execute = lib.tfe_py_cd_execute
    table.delete_device = lib.tfe_py_cd_delete_device
    if _overrides(device, "pack"):
        table.pack = lib.tfe_py_cd_pack
    if _overrides(device, "shall_pin_to_this_device"):
        table.shall_pin_to_this_device = lib.tfe_py_cd_shall_pin
    s = lib.TF_NewStatus()
    if s == ffi.NULL:  # before `handle` exists: nothing to release yet
        raise errors.out_of_memory("TF_NewStatus returned NULL registering a custom device")
    handle = ffi.new_handle(device)
    _device_handles[_address(handle)] = handle
    try:
        # The C side owns `handle` from here: delete_device releases it,
        # also when registration fails.
        lib.TFE_RegisterCustomDevice(ptr, table[0], full.encode("utf-8"), handle, s)
        check(s)
    finally:
        lib.TF_DeleteStatus(s)
    with _lock:
        device._state = "registered"
        _devices_by_name[(device._ctx_address, full)] = device
    return full


def summarize(tensor: EagerTensor) -> str:
    """The summary of a custom-device tensor (TFE_CustomDeviceTensorHandleSummarize)."""
    buf = lib.TF_NewBuffer()
    try:
        with status() as s:
            lib.TFE_CustomDeviceTensorHandleSummarize(tensor.handle, buf, s)
        return bytes(ffi.buffer(buf.data, buf.length)).decode("utf-8", "replace")
    finally:
        lib.TF_DeleteBuffer(buf)


# ---------------------------------------------------------------------------
# The callbacks (see tfe_py/cdef_python_callbacks.h). Each catches every
# exception: into the TF_Status when there is one, printed otherwise.


def _device(info: CData) -> CustomDevice:
    dev: CustomDevice = ffi.from_handle(info)
    return dev


@ffi.def_extern()
def tfe_py_cd_copy_to_device(context: CData, tensor: CData, st: CData, info: CData) -> CData:
    try:
        dev = _device(info)
        src = _share(tensor, dev.context)
        try:
            return _give(dev.copy_to_device(src), "copy_to_device")
        finally:
            src.close()
    except BaseException as exc:  # never let an exception reach C
        set_status_from_exception(st, exc)
        return ffi.NULL


@ffi.def_extern()
def tfe_py_cd_copy_from_device(
    context: CData, tensor: CData, target: CData, st: CData, info: CData
) -> CData:
    try:
        dev = _device(info)
        src = _share(tensor, dev.context)
        try:
            return _give(dev.copy_from_device(src, _c_str(target)), "copy_from_device")
        finally:
            src.close()
    except BaseException as exc:
        set_status_from_exception(st, exc)
        return ffi.NULL


def _outputs_of(result: Any) -> list[Any]:
    if result is None:
        return []
    if isinstance(result, EagerTensor):
        return [result]
    return list(result)


@ffi.def_extern()
def tfe_py_cd_execute(
    op: CData, num_outputs: CData, outputs: CData, st: CData, info: CData
) -> None:
    given: list[CData] = []
    try:
        dev = _device(info)
        ctx = dev.context
        room = int(num_outputs[0])
        cop = CustomDeviceOp(op, dev, room)
        inputs: list[EagerTensor] = []
        try:
            with status() as s:
                n = int(lib.TFE_OpGetFlatInputCount(op, s))
            for i in range(n):
                with status() as s:
                    h = lib.TFE_OpGetFlatInput(op, i, s)
                inputs.append(_share(h, ctx))
            results = _outputs_of(dev.execute(cop, inputs))
            if len(results) > room:
                raise ValueError(
                    f"custom device {dev.name}: execute of {cop.name} returned "
                    f"{len(results)} outputs, but the caller has room for {room}"
                )
            for r in results:
                given.append(_give(r, "execute"))
        finally:
            cop._op = None
            for t in inputs:
                t.close()
        for i, h in enumerate(given):
            outputs[i] = h
        num_outputs[0] = len(given)
    except BaseException as exc:
        for h in given:
            lib.TFE_DeleteTensorHandle(h)
        set_status_from_exception(st, exc)


@ffi.def_extern()
def tfe_py_cd_delete_device(info: CData) -> None:
    try:
        dev = _device(info)
        _device_handles.pop(_address(info), None)  # C lets go of it now
        dev._deleted()
    except BaseException as exc:
        _report_unraisable("delete_device", exc)


@ffi.def_extern()
def tfe_py_cd_pack(
    context: CData, handles: CData, num_handles: int, st: CData, info: CData
) -> CData:
    try:
        dev = _device(info)
        tensors = [_share(handles[i], dev.context) for i in range(num_handles)]
        try:
            return _give(dev.pack(tensors), "pack")
        finally:
            for t in tensors:
                t.close()
    except BaseException as exc:
        set_status_from_exception(st, exc)
        return ffi.NULL


def _device_of_inputs(op: CData) -> CustomDevice | None:
    """The Python device one of the op's inputs is on (the callback that
    asks has no device_info)."""
    with status() as s:
        ctx = lib.TFE_OpGetContext(op, s)
    with status() as s:
        n = int(lib.TFE_OpGetFlatInputCount(op, s))
    for i in range(n):
        with status() as s:
            h = lib.TFE_OpGetFlatInput(op, i, s)
        with status() as s:
            name = _c_str(lib.TFE_TensorHandleDeviceName(h, s))
        dev = _devices_by_name.get((_address(ctx), name))
        if dev is not None:
            return dev
    return None


@ffi.def_extern()
def tfe_py_cd_shall_pin(op: CData, st: CData) -> bool:
    try:
        dev = _device_of_inputs(op)
        if dev is None:
            return False
        cop = CustomDeviceOp(op, dev, 0)
        try:
            return bool(dev.shall_pin_to_this_device(cop))
        finally:
            cop._op = None
    except BaseException as exc:
        set_status_from_exception(st, exc)
        return False


def _payload(data: CData) -> _Payload:
    p: _Payload = ffi.from_handle(data)
    return p


@ffi.def_extern()
def tfe_py_cdh_num_dims(data: CData, st: CData) -> int:
    try:
        return len(_payload(data).shape)
    except BaseException as exc:
        set_status_from_exception(st, exc)
        return -1


@ffi.def_extern()
def tfe_py_cdh_dim(data: CData, dim_index: int, st: CData) -> int:
    try:
        d = _payload(data).shape[dim_index]
        return -1 if d is None else d
    except BaseException as exc:
        set_status_from_exception(st, exc)
        return -1


@ffi.def_extern()
def tfe_py_cdh_deallocator(data: CData) -> None:
    try:
        _payload_handles.pop(_address(data), None)
    except BaseException as exc:
        _report_unraisable("deallocator", exc)


@ffi.def_extern()
def tfe_py_cdh_summarize(data: CData, st: CData) -> CData:
    try:
        p = _payload(data)
        text = p.summary(p.value) if callable(p.summary) else p.summary
        raw = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        buf = lib.TF_NewBufferFromString(raw, len(raw))
        if buf == ffi.NULL:
            raise errors.out_of_memory("TF_NewBufferFromString failed")
        return buf
    except BaseException as exc:
        set_status_from_exception(st, exc)
        return ffi.NULL
