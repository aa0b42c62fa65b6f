"""``tf.config``: devices and options of the default eager context.

The functions act on the calling thread's current context: the one of an
enclosing ``with ctx:`` block, else the process-wide default context
(:func:`tfe_py.context.default_context`). As in TF, some options only take
effect before that context exists ("is initialized"): the thread counts,
visible devices and logical device configuration are kept in
``tfe_py.context.default_options`` until the first op creates the context,
and changing them afterwards is TF's RuntimeError. Soft and log device
placement can change at any time.

Devices: ``list_physical_devices`` gives ``PhysicalDevice(name=
'/physical_device:CPU:0', device_type='CPU')`` tuples (plus the devices of
loaded PluggableDevice plugins); ``list_logical_devices`` gives
``LogicalDevice(name='/device:CPU:0', device_type='CPU')`` for the devices
of the context. ``set_logical_device_configuration(cpu, [LogicalDeviceConfiguration()] * n)``
before the first op gives n logical CPUs. Memory growth cannot be set on
CPUs (TF's ValueError); GPUs do not exist in tfe.
"""

from __future__ import annotations

import types
from typing import Any, NamedTuple

from tfe_py import context as _context
from tfe_py.plugins import PhysicalDevice
from tfe_py.plugins import list_physical_devices as _plugin_devices

__all__ = [
    "LogicalDevice",
    "LogicalDeviceConfiguration",
    "PhysicalDevice",
    "experimental",
    "experimental_connect_to_cluster",
    "experimental_connect_to_host",
    "experimental_functions_run_eagerly",
    "experimental_run_functions_eagerly",
    "functions_run_eagerly",
    "get_logical_device_configuration",
    "get_soft_device_placement",
    "get_visible_devices",
    "list_logical_devices",
    "list_physical_devices",
    "optimizer",
    "run_functions_eagerly",
    "set_logical_device_configuration",
    "set_soft_device_placement",
    "set_visible_devices",
    "threading",
]

# Names TensorFlow also exports at the top level (tf.<name>).
TOPLEVEL: frozenset[str] = frozenset()


class LogicalDevice(NamedTuple):
    """A device of the eager context, as ``tf.config.LogicalDevice``."""

    name: str  # "/device:CPU:0"
    device_type: str


class LogicalDeviceConfiguration(NamedTuple):
    """How one logical device is carved out of a physical one
    (``tf.config.LogicalDeviceConfiguration``); tfe's CPUs take no memory
    limit."""

    memory_limit: int | None = None
    experimental_priority: int | None = None
    experimental_device_ordinal: int | None = None


def _explicit_context() -> _context.Context | None:
    """The context the calling thread uses if it exists, else None (the
    default one is not created yet)."""
    ctx = _context._state.ctx
    if ctx is not None:
        return ctx
    if _context.default_context_exists():
        return _context.default_context()
    return None


def _check_device(device: Any) -> PhysicalDevice:
    if not isinstance(device, tuple) or device not in _plugin_devices():
        raise ValueError(f"Unrecognized device: {device!r}")
    return PhysicalDevice(*device)


# -- devices -----------------------------------------------------------------


def list_physical_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    """The physical devices, of ``device_type`` only when given (exact,
    case-sensitive, as in TF): the host CPU and the devices of loaded
    PluggableDevice plugins. Visible-device settings do not hide them."""
    if device_type is not None and not isinstance(device_type, str):
        return []
    return _plugin_devices(device_type)


def _visible() -> list[PhysicalDevice]:
    chosen = _context.default_options.get("_visible_devices")
    return list(chosen) if chosen is not None else _plugin_devices()


def get_visible_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    """The physical devices the runtime may use (all unless
    :func:`set_visible_devices` chose some)."""
    return [d for d in _visible() if device_type is None or d.device_type == device_type]


def set_visible_devices(devices: Any, device_type: str | None = None) -> None:
    """Restricts the runtime to ``devices`` (of ``device_type`` when given;
    the others stay as they are). Only before the context exists (else
    TF's RuntimeError, unless nothing changes). CPUs cannot be hidden in
    tfe: a selection without the CPU keeps it; hiding a PluggableDevice's
    device is NotImplementedError (the C API cannot keep it out)."""
    if isinstance(devices, tuple) and not isinstance(devices, PhysicalDevice) and not devices:
        devices = []
    elif isinstance(devices, PhysicalDevice) or (
        isinstance(devices, tuple) and len(devices) == 2 and isinstance(devices[0], str)
    ):
        devices = [devices]
    chosen = [_check_device(d) for d in devices]
    if device_type is not None:
        kept = [d for d in _visible() if d.device_type != device_type]
        chosen = kept + [d for d in chosen if d.device_type == device_type]
    all_devices = _plugin_devices()
    new = [d for d in all_devices if d in chosen or d.device_type == "CPU"]
    if new == _visible():
        return
    hidden = [d for d in all_devices if d not in new]
    if hidden:
        # The C API has no way to keep a PluggableDevice out of a context.
        raise NotImplementedError(
            f"tf.config.set_visible_devices: tfe cannot hide {hidden[0].name}; "
            "a loaded PluggableDevice's devices are always visible"
        )
    if _context.default_context_exists():
        raise RuntimeError("Visible devices cannot be modified after being initialized")
    _context.default_options["_visible_devices"] = new


def list_logical_devices(device_type: str | None = None) -> list[LogicalDevice]:
    """The devices of the current context (creating the default context if
    needed, as TF initializes its context here), as ``LogicalDevice``."""
    ctx = _context.current_context()
    out = []
    for name in ctx.devices():
        short = name[name.index("/device:"):] if "/device:" in name else name
        kind = short.split(":")[1] if short.startswith("/device:") else ""
        if device_type is None or kind == device_type:
            out.append(LogicalDevice(short, kind))
    return out


def get_logical_device_configuration(device: Any) -> list[LogicalDeviceConfiguration] | None:
    """The logical devices set for physical ``device``, or None."""
    device = _check_device(device)
    configs = _context.default_options.get("_logical_devices", {})
    return configs.get(device)


def set_logical_device_configuration(device: Any, logical_devices: Any) -> None:
    """Splits physical ``device`` into logical devices before the context
    exists: ``[LogicalDeviceConfiguration()] * 2`` on the CPU gives CPU:0
    and CPU:1. After the first op: RuntimeError, as TF. Memory limits on
    CPUs are TF's ValueError; only CPUs can be split in tfe."""
    device = _check_device(device)
    configs = dict(_context.default_options.get("_logical_devices", {}))
    if logical_devices is None:
        new = None
    else:
        new = [LogicalDeviceConfiguration(*c) for c in logical_devices]
        if device.device_type == "CPU" and any(c.memory_limit is not None for c in new):
            raise ValueError(
                "Setting memory limit on CPU virtual devices is currently not supported"
            )
        if device.device_type != "CPU":
            raise ValueError(
                f"tfe can only split CPUs into logical devices, not {device.device_type}"
            )
    if configs.get(device) == new:
        return
    if _context.default_context_exists():
        raise RuntimeError("Virtual devices cannot be modified after being initialized")
    if new is None:
        configs.pop(device, None)
        _context.default_options.pop("num_cpu_devices", None)
    else:
        configs[device] = new
        _context.default_options["num_cpu_devices"] = max(1, len(new))
    _context.default_options["_logical_devices"] = configs


# -- placement ---------------------------------------------------------------


def get_soft_device_placement() -> bool:
    """Whether ops whose device cannot run them move to one that can (True
    by default, as in TF)."""
    ctx = _explicit_context()
    if ctx is not None:
        return ctx.soft_device_placement
    return bool(_context.default_options.get("soft_device_placement", False))


def set_soft_device_placement(enabled: bool) -> None:
    """Turns soft device placement on or off (TFE_ContextSetSoftDevicePlacement)."""
    ctx = _explicit_context()
    if ctx is not None:
        ctx.soft_device_placement = bool(enabled)
    if ctx is None or ctx is _context._default:
        _context.default_options["soft_device_placement"] = bool(enabled)


def get_log_device_placement() -> bool:
    """Whether the device of each executed op is logged."""
    ctx = _explicit_context()
    if ctx is not None:
        return ctx.log_device_placement
    return bool(_context.default_options.get("log_device_placement", False))


def set_log_device_placement(enabled: bool) -> None:
    """Turns logging of op placements on or off (TFE_ContextSetLogDevicePlacement)."""
    ctx = _explicit_context()
    if ctx is not None:
        ctx.log_device_placement = bool(enabled)
    if ctx is None or ctx is _context._default:
        _context.default_options["log_device_placement"] = bool(enabled)


# -- tf.function execution -------------------------------------------------------


def functions_run_eagerly() -> bool:
    """Whether ``tfe_py.function`` runs its Python function eagerly instead
    of tracing it: always False in tfe (see :func:`run_functions_eagerly`)."""
    return False


def run_functions_eagerly(run_eagerly: bool) -> None:
    """``run_functions_eagerly(False)`` (tracing, the default) is accepted;
    True raises NotImplementedError: ``tfe_py.function`` always traces."""
    if run_eagerly:
        raise NotImplementedError(
            "tf.config.run_functions_eagerly(True): tfe_py.function always traces its "
            "Python function into a graph"
        )


experimental_functions_run_eagerly = functions_run_eagerly
experimental_run_functions_eagerly = run_functions_eagerly


# -- tf.config.threading -------------------------------------------------------


def _set_threads(key: str, what: str, num_threads: Any) -> None:
    current = _get_threads(key)
    if _context.default_context_exists():
        if num_threads != current:
            raise RuntimeError(f"{what} parallelism cannot be modified after initialization.")
        return
    if isinstance(num_threads, bool) or not isinstance(num_threads, int):
        raise TypeError(f"num_threads must be an int, got {type(num_threads).__name__}")
    _context.default_options[key] = num_threads


def _get_threads(key: str) -> int:
    ctx = _explicit_context()
    if ctx is not None:
        return int(getattr(ctx, key))
    return int(_context.default_options.get(key) or 0)


def _get_intra() -> int:
    """Threads one op may use (0: the runtime decides)."""
    return _get_threads("intra_op_parallelism_threads")


def _set_intra(num_threads: int) -> None:
    """Sets the intra-op thread count; only before the context exists."""
    _set_threads("intra_op_parallelism_threads", "Intra op", num_threads)


def _get_inter() -> int:
    """Threads that run independent ops (0: the runtime decides)."""
    return _get_threads("inter_op_parallelism_threads")


def _set_inter(num_threads: int) -> None:
    """Sets the inter-op thread count; only before the context exists."""
    _set_threads("inter_op_parallelism_threads", "Inter op", num_threads)


threading = types.SimpleNamespace(
    get_intra_op_parallelism_threads=_get_intra,
    set_intra_op_parallelism_threads=_set_intra,
    get_inter_op_parallelism_threads=_get_inter,
    set_inter_op_parallelism_threads=_set_inter,
)


# -- tf.config.experimental ------------------------------------------------------


def _get_memory_growth(device: Any) -> bool:
    """Memory growth of ``device``: CPUs have none (TF's KeyError for them)."""
    device = _check_device(device)
    raise KeyError(device)


def _set_memory_growth(device: Any, enable: bool) -> None:
    """Memory growth cannot be set on CPUs (TF's ValueError), the only
    memory-owning devices tfe has besides plugins'."""
    device = _check_device(device)
    if device in (_context.default_options.get("_logical_devices") or {}):
        raise ValueError("Cannot set memory growth on device when virtual devices configured")
    raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")


def _get_device_details(device: Any) -> dict[str, Any]:
    """Details of a physical device: {} for CPUs, as in TF."""
    _check_device(device)
    return {}


def _get_memory_info(device: str) -> dict[str, int]:
    """Memory use of ``device``: tfe's CPUs keep no allocator statistics
    (TF's ValueError for a CPU)."""
    raise ValueError(f"Allocator stats not available for device '{device}'")


def _reset_memory_stats(device: str) -> None:
    """Resets the peak memory of ``device``: CPUs keep no statistics
    (TF's ValueError)."""
    raise ValueError(f"Allocator stats not available for device '{device}'")


def _get_device_policy() -> str:
    """The device placement policy of the current context, as TF names it
    ("silent", "explicit", "warn", "silent_for_int32")."""
    ctx = _explicit_context()
    if ctx is not None:
        return ctx.device_placement_policy
    policy = _context.default_options.get("device_placement_policy", "silent")
    return str(policy)


def _set_device_policy(device_policy: str | None) -> None:
    """Sets the placement policy for the calling thread (None: "silent")."""
    from tfe_py._ffi import lib

    if device_policy is None:
        device_policy = "silent"
    if device_policy not in _context.PLACEMENT_POLICIES:
        raise ValueError(
            f"Invalid argument `device_policy`: {device_policy!r}. Please refer to "
            "https://www.tensorflow.org/api_docs/python/tf/config/experimental/set_device_policy"
            " for valid `device_policy` arguments."
        )
    ctx = _explicit_context()
    if ctx is None:
        _context.default_options["device_placement_policy"] = device_policy
        return
    lib.TFE_ContextSetThreadLocalDevicePlacementPolicy(
        ctx.ptr, _context.PLACEMENT_POLICIES[device_policy]
    )


def _get_synchronous_execution() -> bool:
    """Whether ops run synchronously (contexts made with ``async_=False``)."""
    ctx = _explicit_context()
    if ctx is not None:
        return not ctx.is_async
    return not _context.default_options.get("async_", False)


def _set_synchronous_execution(enable: bool) -> None:
    """Chooses synchronous or asynchronous execution for the default
    context; only before it exists in tfe (async contexts are made so)."""
    want_async = not enable
    if _context.default_context_exists():
        if _get_synchronous_execution() == bool(enable):
            return
        raise RuntimeError(
            "tfe chooses synchronous or asynchronous execution when a context is made; "
            "use tfe_py.Context(async_=...) or ctx.executor(async_=...)"
        )
    _context.default_options["async_"] = want_async


def _get_memory_usage(device: str) -> int:
    """Deprecated in TF for get_memory_info; CPUs keep no statistics
    (TF's ValueError)."""
    raise ValueError(f"Allocator stats not available for device '{device}'")


_MLIR_BRIDGE = {"on": False}


def _enable_mlir_bridge() -> None:
    """Accepted: tfe compiles no graphs through MLIR; recorded only."""
    _MLIR_BRIDGE["on"] = True


def _disable_mlir_bridge() -> None:
    """Accepted: tfe compiles no graphs through MLIR; recorded only."""
    _MLIR_BRIDGE["on"] = False


class ClusterDeviceFilters:
    """Device filters of a cluster (``tf.config.experimental.ClusterDeviceFilters``):
    tfe runs one local task and has no cluster to filter."""

    def __init__(self) -> None:
        raise NotImplementedError(
            "tf.config.experimental.ClusterDeviceFilters: tfe has no distributed runtime"
        )


def experimental_connect_to_cluster(
    cluster_spec_or_resolver: Any,
    job_name: str = "localhost",
    task_index: int = 0,
    protocol: str | None = None,
    make_master_device_default: bool = True,
    cluster_device_filters: Any = None,
) -> None:
    """Not supported: tfe has no distributed runtime (one local task)."""
    raise NotImplementedError(
        "tf.config.experimental_connect_to_cluster: tfe has no distributed runtime"
    )


def experimental_connect_to_host(remote_host: Any = None, job_name: str = "worker") -> None:
    """Not supported: tfe has no distributed runtime (one local task)."""
    raise NotImplementedError(
        "tf.config.experimental_connect_to_host: tfe has no distributed runtime"
    )


_DETERMINISM = {"on": False}


def _enable_op_determinism() -> None:
    """Accepted: tfe's CPU kernels give the same result on every run."""
    _DETERMINISM["on"] = True


def _tf32_enabled() -> bool:
    """TensorFloat-32 only exists on GPUs; the setting is kept as in TF."""
    return _TF32["on"]


_TF32 = {"on": True}


def _enable_tf32(enabled: bool) -> None:
    """Kept for ``tensor_float_32_execution_enabled``; no effect on CPUs."""
    _TF32["on"] = bool(enabled)


experimental = types.SimpleNamespace(
    ClusterDeviceFilters=ClusterDeviceFilters,
    LogicalDeviceConfiguration=LogicalDeviceConfiguration,
    disable_mlir_bridge=_disable_mlir_bridge,
    enable_mlir_bridge=_enable_mlir_bridge,
    get_memory_usage=_get_memory_usage,
    VirtualDeviceConfiguration=LogicalDeviceConfiguration,
    enable_op_determinism=_enable_op_determinism,
    enable_tensor_float_32_execution=_enable_tf32,
    get_device_details=_get_device_details,
    get_device_policy=_get_device_policy,
    get_memory_growth=_get_memory_growth,
    get_memory_info=_get_memory_info,
    get_synchronous_execution=_get_synchronous_execution,
    get_virtual_device_configuration=get_logical_device_configuration,
    get_visible_devices=get_visible_devices,
    list_logical_devices=list_logical_devices,
    list_physical_devices=list_physical_devices,
    reset_memory_stats=_reset_memory_stats,
    set_device_policy=_set_device_policy,
    set_memory_growth=_set_memory_growth,
    set_synchronous_execution=_set_synchronous_execution,
    set_virtual_device_configuration=set_logical_device_configuration,
    set_visible_devices=set_visible_devices,
    tensor_float_32_execution_enabled=_tf32_enabled,
)


def _optimizer_options() -> dict[str, Any]:
    """Grappler options: tfe runs eager ops without graph rewrites ({})."""
    return {}


def _set_optimizer_options(options: dict[str, Any]) -> None:
    """Accepted and ignored: tfe has no Grappler rewrites to configure."""
    if not isinstance(options, dict):
        raise TypeError("options must be a dict")


optimizer = types.SimpleNamespace(
    get_experimental_options=_optimizer_options,
    set_experimental_options=_set_optimizer_options,
    get_jit=lambda: "",
    set_jit=lambda enabled: None,
)
