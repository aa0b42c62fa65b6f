"""The parallel device from Python.

A parallel device mirrors every op placed on it onto its component devices
(include/tfe/parallel_device.h; docs/CUSTOM_DEVICES.md)::

    ctx = tfe_py.Context(num_cpu_devices=2)
    with ctx, tfe_py.parallel_device(["CPU:0", "CPU:1"]) as pd:
        x = pd.pack([np.ones((2, 3), np.float32), np.zeros((2, 3), np.float32)])
        w = tfe_py.constant(np.eye(3, dtype=np.float32))  # broadcast
        y = tfe_py.ops.MatMul(x, w)                       # runs on both CPUs
        a, b = pd.unpack(y)

Inside ``with pd:`` ops are placed on the parallel device and new constants
are copied onto it (one copy per component). Its tensors cannot be read
directly (``numpy()`` raises UnimplementedError, as in TF): unpack them.

Collective ops run across the components (docs/PARALLEL_DEVICE.md):
``pd.all_reduce(g, "Add", "Div")`` averages a parallel tensor over the
components (CollectiveReduceV2), ``pd.all_gather(x)`` concatenates the
components along axis 0 (CollectiveGatherV2); both give a parallel tensor
whose components are all equal. ``pd.variable(initial)`` makes a resource
variable with TF's "no sharing" name: one variable per component.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from types import TracebackType
from typing import Any

from tfe_py._ffi import CData, ffi, lib
from tfe_py.context import Context, current_context
from tfe_py.custom_device import full_device_name
from tfe_py.eager import EagerTensor, convert_to_tensor
from tfe_py.errors import status

__all__ = ["NO_SHARING", "ParallelDevice", "parallel_device"]

#: TF's shared name for resources that are never shared
#: (``ResourceHandle::ANONYMOUS_NAME``): a VarHandleOp with it makes a new
#: variable every time it runs, so one per component on a parallel device.
NO_SHARING = "cd2c89b7-88b7-44c8-ad83-06c2a9158347"

# Group keys of the parallel devices' collectives; one per device, process
# wide so that two devices never share a group.
_group_keys = itertools.count(1 << 20)
_group_keys_lock = threading.Lock()


def _free_name(ctx: Context) -> str:
    """The first CUSTOM:n that no device of ctx uses."""
    n = 0
    while True:
        name = full_device_name(f"CUSTOM:{n}")
        if not lib.TFE_IsCustomDevice(ctx.ptr, name.encode("utf-8")) and name not in ctx.devices():
            return name
        n += 1


class ParallelDevice:
    """A parallel device registered in a context.

    Args:
        components: the component devices, full or short names
            (``"CPU:1"``); at least one.
        name: the device's name (default: the first free ``CUSTOM:n``).
        ctx: the context (default: the current one).

    The context owns the device: it lives until the context is deleted.
    """

    def __init__(
        self,
        components: Sequence[str],
        *,
        name: str | None = None,
        ctx: Context | None = None,
    ) -> None:
        if isinstance(components, (str, bytes)):
            raise TypeError("components must be a sequence of device names")
        self._ctx = ctx if ctx is not None else current_context()
        self._components = tuple(full_device_name(str(c)) for c in components)
        self._name = full_device_name(name) if name is not None else _free_name(self._ctx)
        self._scopes: list[ExitStack] = []
        with _group_keys_lock:
            self._group_key = next(_group_keys)
        self._instance_keys = itertools.count(1)
        self._instance_lock = threading.Lock()
        raw = [ffi.new("char[]", c.encode("utf-8")) for c in self._components]
        array = ffi.new("const char*[]", raw if raw else [ffi.NULL])
        with status() as s:
            lib.TFE_RegisterParallelDevice(
                self._ctx.ptr, self._name.encode("utf-8"), array, len(raw), s
            )

    @property
    def name(self) -> str:
        """The full name of the parallel device."""
        return self._name

    @property
    def components(self) -> tuple[str, ...]:
        return self._components

    @property
    def context(self) -> Context:
        return self._ctx

    def pack(self, tensors: Sequence[Any]) -> EagerTensor:
        """A parallel tensor whose i-th component is ``tensors[i]`` (copied to
        component device i); one tensor (or array-like) per component."""
        ctx = self._ctx
        with ctx.device(None):  # plain host tensors, whatever the scope
            items = [convert_to_tensor(t) for t in tensors]
        handles = ffi.new("TFE_TensorHandle*[]", [t.handle for t in items] or [ffi.NULL])
        with status() as s:
            h = lib.TFE_ParallelDevicePack(
                ctx.ptr, self._name.encode("utf-8"), handles, len(items), s
            )
        return EagerTensor.from_handle(h, ctx)

    def unpack(self, tensor: EagerTensor) -> list[EagerTensor]:
        """The components of a parallel tensor, one per component device."""
        ctx = self._ctx
        n = len(self._components)
        out = ffi.new("TFE_TensorHandle*[]", n)
        with status() as s:
            lib.TFE_ParallelDeviceUnpack(
                ctx.ptr, self._name.encode("utf-8"), tensor.handle, out, n, s
            )
        return [EagerTensor.from_handle(out[i], ctx) for i in range(n)]

    def device_ids(self) -> EagerTensor:
        """An int64 parallel tensor whose i-th component is i (TF's DeviceID)."""
        ctx = self._ctx
        with status() as s:
            op = lib.TFE_NewOp(ctx.ptr, b"DeviceID", s)
        try:
            with status() as s:
                lib.TFE_OpSetDevice(op, self._name.encode("utf-8"), s)
            out = ffi.new("TFE_TensorHandle*[]", 1)
            count = ffi.new("int*", 1)
            with status() as s:
                lib.TFE_Execute(op, out, count, s)
        finally:
            lib.TFE_DeleteOp(op)
        handle: CData = out[0]
        return EagerTensor.from_handle(handle, ctx)

    # -- collectives ----------------------------------------------------------

    @property
    def group_key(self) -> int:
        """The group key of this device's collectives (all components)."""
        return self._group_key

    def _next_instance_key(self) -> int:
        with self._instance_lock:
            return next(self._instance_keys)

    def all_reduce(
        self,
        tensor: Any,
        merge_op: str = "Add",
        final_op: str = "Id",
        *,
        timeout: float = 0.0,
    ) -> EagerTensor:
        """Elementwise ``merge_op`` ("Add", "Mul", "Min", "Max") of the
        components of ``tensor``, then ``final_op`` ("Id", or "Div" to divide
        by the number of components): CollectiveReduceV2 on every component.
        ``timeout`` (seconds, 0 = tfe's default) bounds the wait for the
        other components."""
        from tfe_py import ops

        with self._ctx.device(self._name):
            return ops.CollectiveReduceV2(
                tensor,
                len(self._components),
                self._group_key,
                self._next_instance_key(),
                [],
                merge_op=merge_op,
                final_op=final_op,
                timeout_seconds=timeout,
            )

    def all_gather(self, tensor: Any, *, timeout: float = 0.0) -> EagerTensor:
        """The components of ``tensor`` concatenated along axis 0, in rank
        order (components sorted by device name): CollectiveGatherV2."""
        from tfe_py import ops

        with self._ctx.device(self._name):
            return ops.CollectiveGatherV2(
                tensor,
                len(self._components),
                self._group_key,
                self._next_instance_key(),
                [],
                timeout_seconds=timeout,
            )

    def variable(self, initial_value: Any) -> EagerTensor:
        """A resource variable per component (TF's no-sharing shared name),
        assigned ``initial_value`` (broadcast, or a parallel tensor). Returns
        the parallel resource handle; read it with ``ReadVariableOp``."""
        from tfe_py import ops

        with self._ctx.device(self._name):
            value = (
                initial_value
                if isinstance(initial_value, EagerTensor) and initial_value.device == self._name
                else convert_to_tensor(initial_value)
            )
            handle: EagerTensor = ops.VarHandleOp(
                dtype=value.dtype, shape=list(value.shape), shared_name=NO_SHARING
            )
            ops.AssignVariableOp(handle, value)
        return handle

    # -- scope --------------------------------------------------------------

    def __enter__(self) -> ParallelDevice:
        stack = ExitStack()
        stack.enter_context(self._ctx.device(self._name))
        self._scopes.append(stack)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._scopes.pop().close()

    def __iter__(self) -> Iterator[str]:
        return iter(self._components)

    def __len__(self) -> int:
        return len(self._components)

    def __repr__(self) -> str:
        return f"<ParallelDevice {self._name} over {list(self._components)}>"


def parallel_device(
    components: Sequence[str], *, name: str | None = None, ctx: Context | None = None
) -> ParallelDevice:
    """Registers a :class:`ParallelDevice`; use it as ``with
    parallel_device([...]) as pd:`` to place ops on it."""
    return ParallelDevice(components, name=name, ctx=ctx)
