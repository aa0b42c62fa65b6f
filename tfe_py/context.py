"""Eager contexts: the owner of a ``TFE_Context*`` and the per-thread scopes.

A :class:`Context` owns one C context (devices, placement policy, kernel
cache). Ops run in the *current* context of the calling thread: the innermost
``with ctx:`` / ``with ctx.as_default():`` / ``with ctx.device(...):`` block,
or else the process-wide default context, created on first use by
:func:`default_context`.

Lifetime: ``close()`` releases the C context and may be called any number of
times; ``with Context() as ctx:`` closes it when the block ends; ``__del__``
closes it as a last resort. Tensors keep a reference to the context they
were made in, and the C core keeps a closed context alive (as a "zombie")
until its last tensor handle is deleted, so closing a context never
invalidates tensors that still exist.

Device scopes are per thread: ``with ctx.device("CPU:1"):`` makes ops created
by this thread in the block request that device (full or partial names, as
TFE_OpSetDevice accepts them), and constants are copied there.
"""

from __future__ import annotations

import contextlib
import numbers
import threading
from collections.abc import Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any

from tfe_py import errors
from tfe_py._ffi import CData, ffi, lib
from tfe_py.errors import status

if TYPE_CHECKING:
    from tfe_py.executor import Executor

__all__ = [
    "PLACEMENT_POLICIES",
    "Context",
    "config_proto",
    "current_context",
    "current_device",
    "default_context",
    "default_context_exists",
    "default_options",
]

#: Names accepted for ``device_placement_policy`` (values from the C header).
PLACEMENT_POLICIES: dict[str, int] = {
    "explicit": int(lib.TFE_DEVICE_PLACEMENT_EXPLICIT),
    "warn": int(lib.TFE_DEVICE_PLACEMENT_WARN),
    "silent": int(lib.TFE_DEVICE_PLACEMENT_SILENT),
    "silent_for_int32": int(lib.TFE_DEVICE_PLACEMENT_SILENT_FOR_INT32),
}

# The prefix TF gives local devices; TFE_SetLogicalCpuDevices adds devices
# under it.
_LOCAL_PREFIX = b"/job:localhost/replica:0/task:0"


class _ThreadState(threading.local):
    """What the calling thread runs ops in.

    ``ctx`` is the current Context (None: the default one) and ``device`` the
    device scope as bytes (None: no scope). ``scope`` holds both as one
    tuple ``(ctx, cdevice)`` with the device as a C string argument
    (``ffi.NULL`` for none): the generated op wrappers read it with a single
    attribute lookup on every call. ``stack`` remembers what enclosing blocks
    had.
    """

    def __init__(self) -> None:
        self.ctx: Context | None = None
        self.device: bytes | None = None
        self.scope: tuple[Context | None, Any] = (None, ffi.NULL)
        self.stack: list[tuple[Context | None, bytes | None]] = []
        # The innermost default tfe_py.Graph (tfe_py.graph) and the ones it
        # hides; None: ops run eagerly. While a graph is the default,
        # ``scope`` holds a GraphScope instead of a Context.
        self.graph: Any = None
        self.graph_stack: list[Any] = []


class GraphScope:
    """Stands in ``_ThreadState.scope`` for a context while a graph is the
    thread's default (tfe_py.graph): the op wrappers see it and add a node to
    ``graph`` (on ``device``) instead of running the op. Its ``_ptr`` is
    NULL, so a wrapper's direct C call fails at once and the failure path
    hands the call to the graph."""

    __slots__ = ("device", "graph")
    _ptr = ffi.NULL

    def __init__(self, graph: Any, device: bytes | None) -> None:
        self.graph = graph
        self.device = device


#: Per-thread scope state. Read directly by tfe_py._opgen on the hot path.
_state = _ThreadState()

_default_lock = threading.Lock()
_default: Context | None = None


def _policy_value(policy: int | str) -> int:
    if isinstance(policy, str):
        try:
            return PLACEMENT_POLICIES[policy.lower()]
        except KeyError:
            raise ValueError(
                f"unknown device placement policy {policy!r}; "
                f"expected one of {sorted(PLACEMENT_POLICIES)}"
            ) from None
    value = int(policy)
    if value not in PLACEMENT_POLICIES.values():
        raise ValueError(f"unknown device placement policy {policy!r}")
    return value


def _device_bytes(device: str | bytes | None) -> bytes | None:
    if device is None:
        return None
    if isinstance(device, bytes):
        raw = device
    elif isinstance(device, str):
        raw = device.encode("utf-8")
    else:
        raise TypeError(f"a device name must be a str, got {type(device).__name__}")
    if b"\0" in raw:
        raise ValueError("a device name cannot contain NUL bytes")
    return raw or None


class Context:
    """Owns one ``TFE_Context*``.

    Every option is a keyword; the TF names of the eager context's options
    are accepted.

    Args:
        async_: run ops asynchronously (TFE_ContextOptionsSetAsync).
        execution_mode: TF's spelling of the same: "sync" or "async"
            (also the ints 0 and 1 of ``tf.SYNC``/``tf.ASYNC``).
        device_placement_policy: "explicit", "warn", "silent",
            "silent_for_int32" or the TFE_DEVICE_PLACEMENT_* number
            (``device_policy``, TF's Context's name, is the same).
        soft_device_placement: place an op on another device when the one
            requested cannot run it (ConfigProto.allow_soft_placement; the
            C API's default is off, TF's Python context turns it on, and so
            does :func:`default_context`). Changeable later.
        log_device_placement: log the device of every op executed
            (TFE_ContextSetLogDevicePlacement). Changeable later.
        intra_op_parallelism_threads: threads one op may use (0: the
            runtime picks).
        inter_op_parallelism_threads: threads running independent ops (0:
            the runtime picks).
        num_cpu_devices: total number of logical CPU devices (CPU:0 ..
            CPU:n-1), added with TFE_SetLogicalCpuDevices.
        config: a serialized ``tensorflow.ConfigProto`` (or a message
            object with ``SerializeToString``) for
            TFE_ContextOptionsSetConfig; the keywords above are applied
            after it (they win).
    """

    def __init__(
        self,
        *,
        async_: bool | None = None,
        device_placement_policy: int | str | None = None,
        num_cpu_devices: int | None = None,
        config: bytes | None = None,
        soft_device_placement: bool | None = None,
        log_device_placement: bool | None = None,
        intra_op_parallelism_threads: int | None = None,
        inter_op_parallelism_threads: int | None = None,
        execution_mode: int | str | None = None,
        device_policy: int | str | None = None,
    ) -> None:
        # The TFE_Context*, ffi.NULL once closed (the op wrappers pass it to C
        # as is; the C glue reports a NULL context as an error).
        self._ptr: CData = ffi.NULL
        if device_policy is not None:
            # TF's own Context calls it device_policy.
            if device_placement_policy is not None and _policy_value(
                device_placement_policy
            ) != _policy_value(device_policy):
                raise ValueError(
                    f"device_policy={device_policy!r} and "
                    f"device_placement_policy={device_placement_policy!r} disagree"
                )
            device_placement_policy = device_policy
        if config is not None and hasattr(config, "SerializeToString"):
            config = config.SerializeToString()  # a ConfigProto message object
        policy = None if device_placement_policy is None else _policy_value(device_placement_policy)
        if num_cpu_devices is not None and (
            not _is_int(num_cpu_devices) or int(num_cpu_devices) < 1
        ):
            raise ValueError(f"num_cpu_devices must be >= 1, got {num_cpu_devices!r}")
        mode_async = None if execution_mode is None else _execution_mode_is_async(execution_mode)
        if async_ is not None and mode_async is not None and bool(async_) != mode_async:
            raise ValueError(
                f"async_={async_!r} and execution_mode={execution_mode!r} disagree"
            )
        async_ = bool(async_) if async_ is not None else bool(mode_async)
        threads = {
            "intra_op_parallelism_threads": intra_op_parallelism_threads,
            "inter_op_parallelism_threads": inter_op_parallelism_threads,
        }
        for key, value in threads.items():
            if value is not None and not _is_int(value):
                raise TypeError(f"{key} must be an int, got {type(value).__name__}")
        if config is not None and not isinstance(config, (bytes, bytearray, memoryview)):
            raise TypeError(
                f"config must be a serialized ConfigProto (bytes), got {type(config).__name__}"
            )
        extra = config_proto(
            soft_device_placement=soft_device_placement,
            log_device_placement=log_device_placement,
            intra_op_parallelism_threads=intra_op_parallelism_threads,
            inter_op_parallelism_threads=inter_op_parallelism_threads,
        )
        if extra:
            # Later fields win in protobuf, so the keywords override config.
            config = (bytes(config) if config is not None else b"") + extra
        # What the context was made with, for the properties below (the C
        # API has no getters for them).
        # (config already ends with the keywords given, so its last values
        # are the ones in force).
        scalars = _config_scalars(config)
        self._soft = bool(scalars.get(7, 0))
        self._log = bool(scalars.get(8, 0))
        self._intra = _int32(scalars.get(2, 0))
        self._inter = _int32(scalars.get(5, 0))
        # Plugins of the plugin directories load before the first context,
        # as TensorFlow loads tensorflow-plugins (tfe_py.plugins).
        from tfe_py import plugins as _plugins  # imported here: it is slow to import

        _plugins.ensure_autoloaded()
        opts = lib.TFE_NewContextOptions()
        if opts == ffi.NULL:
            raise errors.out_of_memory("TFE_NewContextOptions returned NULL")
        try:
            lib.TFE_ContextOptionsSetAsync(opts, 1 if async_ else 0)
            if policy is not None:
                lib.TFE_ContextOptionsSetDevicePlacementPolicy(opts, policy)
            if config is not None:
                raw = bytes(config)
                with status() as s:
                    lib.TFE_ContextOptionsSetConfig(opts, raw, len(raw), s)
            with status() as s:
                ptr = lib.TFE_NewContext(opts, s)
        finally:
            lib.TFE_DeleteContextOptions(opts)
        if ptr == ffi.NULL:
            raise errors.out_of_memory("TFE_NewContext returned NULL")
        self._ptr = ptr
        self._async = bool(async_)
        try:
            if num_cpu_devices is not None and int(num_cpu_devices) > 1:
                with status() as s:
                    lib.TFE_SetLogicalCpuDevices(ptr, int(num_cpu_devices), _LOCAL_PREFIX, s)
            if self._log:
                with status() as s:
                    lib.TFE_ContextSetLogDevicePlacement(ptr, 1, s)
        except BaseException:
            self.close()
            raise

    # -- lifetime ---------------------------------------------------------

    @property
    def closed(self) -> bool:
        return not self._ptr

    @property
    def ptr(self) -> CData:
        """The underlying ``TFE_Context*`` (borrowed). ValueError once closed."""
        if not self._ptr:
            raise ValueError("the context is closed")
        return self._ptr

    def close(self) -> None:
        """Releases the C context. Safe to call more than once.

        Tensors made in it stay usable: the C core frees the context when
        the last of them is deleted.
        """
        global _default
        ptr, self._ptr = self._ptr, ffi.NULL
        if not ptr:
            return
        if _default is self:
            _default = None
        lib.TFE_DeleteContext(ptr)

    def __enter__(self) -> Context:
        self.ptr  # noqa: B018 - raises ValueError on a closed context
        _push(self, None)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        _pop()
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # nothing sensible to do this late (e.g. at shutdown)
            pass

    def __repr__(self) -> str:
        state = "closed" if not self._ptr else f"{len(self.devices())} devices"
        return f"<tfe_py.Context {state}>"

    # -- scopes -----------------------------------------------------------

    @contextlib.contextmanager
    def as_default(self) -> Iterator[Context]:
        """Makes this context current for the calling thread (without closing it)."""
        self.ptr  # noqa: B018 - raises ValueError on a closed context
        _push(self, None)
        try:
            yield self
        finally:
            _pop()

    @contextlib.contextmanager
    def device(self, name: str | bytes | None) -> Iterator[str | None]:
        """Scope in which this thread's ops (and constants) go to device ``name``.

        Also makes this context current. ``None`` clears an enclosing scope.
        The name is checked when an op or a constant uses it.
        """
        self.ptr  # noqa: B018 - raises ValueError on a closed context
        raw = _device_bytes(name)
        _push(self, raw)
        try:
            yield None if raw is None else raw.decode("utf-8")
        finally:
            _pop()

    # -- queries ----------------------------------------------------------

    def devices(self) -> list[str]:
        """Full names of the context's devices, from TFE_ContextListDevices."""
        ptr = self.ptr
        with status() as s:
            lst = lib.TFE_ContextListDevices(ptr, s)
        try:
            names: list[str] = []
            for i in range(lib.TF_DeviceListCount(lst)):
                with status() as s:
                    raw = lib.TF_DeviceListName(lst, i, s)
                names.append(ffi.string(raw).decode("utf-8"))
            return names
        finally:
            lib.TF_DeleteDeviceList(lst)

    @property
    def is_async(self) -> bool:
        return self._async

    @property
    def execution_mode(self) -> str:
        """"async" or "sync", as the context was created."""
        return "async" if self._async else "sync"

    @property
    def soft_device_placement(self) -> bool:
        """Whether ops fall back to another device when the requested one
        cannot run them (TFE_ContextSetSoftDevicePlacement when set)."""
        return self._soft

    @soft_device_placement.setter
    def soft_device_placement(self, enable: bool) -> None:
        with status() as s:
            lib.TFE_ContextSetSoftDevicePlacement(self.ptr, 1 if enable else 0, s)
        self._soft = bool(enable)

    @property
    def log_device_placement(self) -> bool:
        """Whether the device of each executed op is logged
        (TFE_ContextSetLogDevicePlacement when set)."""
        return self._log

    @log_device_placement.setter
    def log_device_placement(self, enable: bool) -> None:
        with status() as s:
            lib.TFE_ContextSetLogDevicePlacement(self.ptr, 1 if enable else 0, s)
        self._log = bool(enable)

    @property
    def intra_op_parallelism_threads(self) -> int:
        """The intra-op thread count the context was made with (0: default)."""
        return self._intra

    @property
    def inter_op_parallelism_threads(self) -> int:
        """The inter-op thread count the context was made with (0: default)."""
        return self._inter

    @property
    def num_cpu_devices(self) -> int:
        """How many CPU devices the context has (num_cpu_devices or the
        ConfigProto's device_count)."""
        return sum(1 for name in self.devices() if "/device:CPU:" in name)

    @property
    def device_placement_policy(self) -> str:
        """The policy in force for the calling thread, as a name."""
        value = int(lib.TFE_ContextGetDevicePlacementPolicy(self.ptr))
        for key, number in PLACEMENT_POLICIES.items():
            if number == value:
                return key
        return str(value)

    def clear_caches(self) -> None:
        """Drops the context's cached kernels (TFE_ContextClearCaches)."""
        lib.TFE_ContextClearCaches(self.ptr)

    # -- asynchronous execution (tfe_py.executor, docs/ASYNC.md) ------------

    def sync(self) -> None:
        """Waits for every op queued in this context (its default executor
        and the executors threads chose for it) and raises the first error
        among them as a ``tfe_py.errors`` exception (TFE_ContextAsyncWait).
        The error is cleared, so the context accepts ops again. The GIL is
        released while waiting. A no-op for synchronous execution."""
        ptr = self.ptr
        with status() as s:
            lib.TFE_ContextAsyncWait(ptr, s)

    @contextlib.contextmanager
    def executor(self, async_: bool = True, in_flight_limit: int = 0) -> Iterator[Executor]:
        """Runs this thread's ops in this context on a new executor for the block.

        ``with ctx.executor(async_=True) as ex:`` queues the ops of the
        block (at most ``in_flight_limit`` at a time, 0 meaning 32). When
        the block ends the thread goes back to its previous executor, the
        block's ops are waited for, the first error among them is raised
        (unless the block itself raised) and the executor is freed; tensors
        made in the block stay valid.
        """
        from tfe_py.executor import Executor  # import cycle

        ptr = self.ptr
        ex = Executor(async_=async_, in_flight_limit=in_flight_limit)
        previous = lib.TFE_ContextGetExecutorForThread(ptr)
        if previous == ffi.NULL:
            ex.close()
            raise errors.out_of_memory("TFE_ContextGetExecutorForThread returned NULL")
        lib.TFE_ContextSetExecutorForThread(ptr, ex.ptr)
        failed = True
        try:
            yield ex
            failed = False
        finally:
            lib.TFE_ContextSetExecutorForThread(ptr, previous)
            lib.TFE_DeleteExecutor(previous)
            try:
                if not failed and not ex.closed:
                    ex.wait()
            finally:
                ex.close()

    # -- custom devices (tfe_py.custom_device) ----------------------------

    def register_custom_device(self, device: Any, name: str) -> str:
        """Registers a :class:`tfe_py.CustomDevice` as ``name`` (``"CUSTOM:0"``
        or a full device name) in this context; returns the full name."""
        from tfe_py.custom_device import register_custom_device  # import cycle

        return register_custom_device(device, name, self)


def _scope_of(st: _ThreadState) -> tuple[Any, Any]:
    if st.graph is not None:
        return (GraphScope(st.graph, st.device), ffi.NULL)
    return (st.ctx, ffi.NULL if st.device is None else st.device)


def _push(ctx: Context, device: bytes | None) -> None:
    st = _state
    st.stack.append((st.ctx, st.device))
    st.ctx = ctx
    st.device = device
    st.scope = _scope_of(st)


def _pop() -> None:
    st = _state
    st.ctx, st.device = st.stack.pop()
    st.scope = _scope_of(st)


def _push_graph(graph: Any) -> None:
    """Makes ``graph`` the calling thread's default graph (tfe_py.graph)."""
    st = _state
    st.graph_stack.append(st.graph)
    st.graph = graph
    st.scope = _scope_of(st)


def _pop_graph() -> None:
    st = _state
    st.graph = st.graph_stack.pop()
    st.scope = _scope_of(st)


#: The options :func:`default_context` creates the default context with.
#: As TF's Python eager context it has soft device placement on; the
#: ``tf.config`` setters (tfe_py.config) change these before the context
#: exists, as TF's do before its context is initialized.
default_options: dict[str, Any] = {"soft_device_placement": True}


def default_context() -> Context:
    """The process-wide context used when no ``with ctx:`` block is active.

    Created on first use, with :data:`default_options`; if it is closed,
    the next call makes a new one. TF-style code never has to create it.
    """
    global _default
    ctx = _default
    if ctx is not None:
        return ctx
    with _default_lock:
        if _default is None:
            # Keys starting with "_" are tfe_py.config's own bookkeeping.
            options = {k: v for k, v in default_options.items() if not k.startswith("_")}
            _default = Context(**options)
        return _default


def default_context_exists() -> bool:
    """Whether the default context has been created (and not closed):
    TF's "the context is initialized"."""
    return _default is not None


# -- context options as a ConfigProto ------------------------------------


def _is_int(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, numbers.Integral)


def _execution_mode_is_async(mode: int | str) -> bool:
    if isinstance(mode, str) and mode.lower() in ("sync", "async"):
        return mode.lower() == "async"
    if _is_int(mode) and int(mode) in (0, 1):
        return int(mode) == 1
    raise ValueError(f"execution_mode must be 'sync', 'async', 0 or 1, got {mode!r}")


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # negative int32 values: ten bytes, as protobuf
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def config_proto(
    *,
    soft_device_placement: bool | None = None,
    log_device_placement: bool | None = None,
    intra_op_parallelism_threads: int | None = None,
    inter_op_parallelism_threads: int | None = None,
    cpu_device_count: int | None = None,
) -> bytes:
    """A serialized ``tensorflow.ConfigProto`` holding the options given
    (None: left out), for :class:`Context`'s ``config``.

    Fields: device_count (1, {"CPU": n}), intra_op_parallelism_threads (2),
    inter_op_parallelism_threads (5), allow_soft_placement (7),
    log_device_placement (8).
    """
    out = bytearray()
    if cpu_device_count is not None:
        entry = b"\x0a\x03CPU\x10" + _varint(int(cpu_device_count))
        out += b"\x0a" + _varint(len(entry)) + entry
    if intra_op_parallelism_threads is not None:
        out += b"\x10" + _varint(int(intra_op_parallelism_threads))
    if inter_op_parallelism_threads is not None:
        out += b"\x28" + _varint(int(inter_op_parallelism_threads))
    if soft_device_placement is not None:
        out += b"\x38" + _varint(1 if soft_device_placement else 0)
    if log_device_placement is not None:
        out += b"\x40" + _varint(1 if log_device_placement else 0)
    return bytes(out)


def _int32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def _config_scalars(config: bytes | None) -> dict[int, int]:
    # The varint fields of a serialized ConfigProto by number (7
    # allow_soft_placement, 8 log_device_placement, 2/5 the thread counts),
    # the last one winning. Malformed input is left to the C parser.
    found: dict[int, int] = {}
    if not config:
        return found
    data, pos = bytes(config), 0
    try:
        while pos < len(data):
            key, pos = _read_varint(data, pos)
            field, wire = key >> 3, key & 7
            if wire == 0:
                found[field], pos = _read_varint(data, pos)
            elif wire == 2:
                length, pos = _read_varint(data, pos)
                pos += length
            elif wire == 1:
                pos += 8
            elif wire == 5:
                pos += 4
            else:
                break
    except IndexError:
        pass
    return found


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, pos


def current_context() -> Context:
    """The calling thread's current context (the default one outside any scope)."""
    return _state.ctx or default_context()


def current_device() -> str | None:
    """The calling thread's device scope, or None."""
    raw = _state.device
    return None if raw is None else raw.decode("utf-8")
