"""Device plugins and op libraries.

* :func:`load_pluggable_device` loads a TensorFlow PluggableDevice plugin
  (a shared library exporting ``SE_InitPlugin``): its devices appear in
  contexts created afterwards, e.g. ``with ctx.device("MY_DEVICE:0"):``.
* :func:`load_op_library` loads a library of ops and kernels written with
  TensorFlow's ``ops.h`` / ``kernels.h``; its ops are callable at once as
  ``tfe_py.ops.<Name>``.
* :func:`list_physical_devices` lists the devices a new context gets.

Plugins load automatically, as TensorFlow loads
``site-packages/tensorflow-plugins``: the first time a :class:`Context` is
created, every ``*.so`` in the directories of :func:`plugin_directories`
(``tfe_py-plugins/`` next to the ``tfe_py`` package, then the entries of the
``TFE_PLUGIN_PATH`` environment variable, directories or files separated by
``os.pathsep``) is loaded as a device plugin, or, when it has no
``SE_InitPlugin``, as an op library. A plugin that fails to load gives a
:class:`PluginLoadWarning` and does not stop the others;
:func:`autoload_report` tells what happened. Set ``TFE_PLUGIN_AUTOLOAD=0``
to switch this off.
"""

from __future__ import annotations

import json
import os
import threading
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from tfe_py._ffi import ffi, lib
from tfe_py.errors import NotFoundError, OpError, check, status

__all__ = [
    "LoadedPlugin",
    "PhysicalDevice",
    "PluginLoadWarning",
    "autoload_report",
    "describe_kernels",
    "describe_pluggable_devices",
    "device_memory_stats",
    "list_physical_devices",
    "load_op_library",
    "load_pluggable_device",
    "load_plugins",
    "plugin_directories",
    "release_cached_memory",
]

#: Name of the plugin directory next to the package (like tensorflow-plugins).
PLUGIN_DIR_NAME = "tfe_py-plugins"
#: Environment variable with extra plugin directories or files.
PLUGIN_PATH_ENV = "TFE_PLUGIN_PATH"
#: Set to "0" to skip loading plugins on first context creation.
AUTOLOAD_ENV = "TFE_PLUGIN_AUTOLOAD"


class PluginLoadWarning(UserWarning):
    """A plugin found in a plugin directory could not be loaded."""


@dataclass(frozen=True)
class LoadedPlugin:
    """What loading one library registered."""

    path: str
    kind: str  # "device" or "ops"
    ops: tuple[str, ...] = ()
    platforms: tuple[dict[str, Any], ...] = field(default=(), compare=False)


class PhysicalDevice(NamedTuple):
    """A device as ``tf.config.list_physical_devices`` describes it."""

    name: str  # "/physical_device:MY_DEVICE:0"
    device_type: str


_lock = threading.RLock()
_loaded: dict[str, LoadedPlugin] = {}
_autoload_done = False
_autoload_results: list[tuple[str, LoadedPlugin | OpError | OSError]] = []


def _path_bytes(path: str | os.PathLike[str]) -> tuple[str, bytes]:
    text = os.fspath(path)
    if not text:
        raise ValueError("the library path is empty")
    return text, os.fsencode(text)


def _op_names(op_list: Any) -> tuple[str, ...]:
    """Names of the OpDefs in a serialized OpList (a TF_Buffer by value)."""
    data = bytes(ffi.buffer(op_list.data, op_list.length)) if op_list.length else b""
    names: list[str] = []
    pos = 0

    def varint(p: int) -> tuple[int, int]:
        value = shift = 0
        while True:
            b = data[p]
            value |= (b & 0x7F) << shift
            p += 1
            if not b & 0x80:
                return value, p
            shift += 7

    while pos < len(data):
        tag, pos = varint(pos)
        length, pos = varint(pos)
        if tag == (1 << 3 | 2):  # OpList.op
            op = data[pos : pos + length]
            q = 0
            while q < len(op):
                t = op[q]
                q += 1
                n = 0
                shift = 0
                while True:
                    b = op[q]
                    q += 1
                    n |= (b & 0x7F) << shift
                    if not b & 0x80:
                        break
                    shift += 7
                if t == (1 << 3 | 2):  # OpDef.name
                    names.append(op[q : q + n].decode())
                    break
                q += n
        pos += length
    return tuple(names)


def load_pluggable_device(path: str | os.PathLike[str]) -> LoadedPlugin:
    """Loads a PluggableDevice plugin (``SE_InitPlugin``, then
    ``TF_InitKernel``, ``TF_InitGraph`` and ``TF_InitProfiler`` when present).

    Its devices appear in contexts created afterwards. Raises the
    :mod:`tfe_py.errors` exception the loader reports, e.g.
    ``FailedPreconditionError`` naming the struct and field a plugin got
    wrong, ``AlreadyExistsError`` when another library already declared the
    platform, ``NotFoundError`` for a missing file or entry point. Loading
    the same library again initialises nothing and returns its ops again. A
    plugin stays loaded for the life of the process.
    """
    text, raw = _path_bytes(path)
    with _lock, status() as s:
        handle = lib.TF_LoadPluggableDeviceLibrary(raw, s)
    try:
        names = _op_names(lib.TF_GetOpList(handle))
    finally:
        lib.TF_DeletePluggableDeviceLibraryHandle(handle)
    platforms = tuple(p for p in describe_pluggable_devices() if p["path"] == text)
    result = LoadedPlugin(text, "device", names, platforms)
    with _lock:
        _loaded[text] = result
    return result


def load_op_library(path: str | os.PathLike[str]) -> LoadedPlugin:
    """Loads a library of ops and kernels (``TF_LoadLibrary``); the ops it
    defines are returned in ``.ops`` and are callable at once as
    ``tfe_py.ops.<Name>``. Loading the same file again returns the same ops.
    Raises ``NotFoundError`` when the file cannot be loaded."""
    text, raw = _path_bytes(path)
    with _lock, status() as s:
        handle = lib.TF_LoadLibrary(raw, s)
    try:
        names = _op_names(lib.TF_GetOpList(handle))
    finally:
        lib.TF_DeleteLibraryHandle(handle)
    result = LoadedPlugin(text, "ops", names)
    with _lock:
        _loaded.setdefault(text, result)
    return result


def _json_buffer(buf: Any) -> Any:
    try:
        return json.loads(bytes(ffi.buffer(buf.data, buf.length)).decode("utf-8"))
    finally:
        lib.TF_DeleteBuffer(buf)


def describe_pluggable_devices() -> list[dict[str, Any]]:
    """Every loaded PluggableDevice platform as a dict: path, name, type,
    version, struct sizes, flags, devices, kernels registered by its
    ``TF_InitKernel``, graph optimizer, profiler and loader warnings."""
    with status() as s:
        buf = lib.TFE_DescribePluggableDevices(s)
    return list(_json_buffer(buf))


def describe_kernels(device_type: str | None = None) -> list[dict[str, Any]]:
    """Registered kernels (of one device type, or all) as dicts with op,
    device, constraints, host_memory, priority and label."""
    with status() as s:
        buf = lib.TFE_DescribeKernels(device_type.encode() if device_type else ffi.NULL, s)
    return list(_json_buffer(buf))


def device_memory_stats(device: str) -> dict[str, int]:
    """tfe's caching allocator of a PluggableDevice device, and the plugin's
    own statistics when it reports some."""
    out = ffi.new("int64_t[4]")
    plugin = ffi.new("int64_t[2]")
    with status() as s:
        lib.TFE_PluggableDeviceMemoryStats(device.encode(), out + 0, out + 1, out + 2, out + 3, s)
    stats = {
        "bytes_in_use": int(out[0]),
        "bytes_cached": int(out[1]),
        "plugin_allocations": int(out[2]),
        "plugin_deallocations": int(out[3]),
    }
    with status() as s:
        has = lib.TFE_PluggableDevicePluginMemoryStats(device.encode(), plugin + 0, plugin + 1, s)
    if has:
        stats["plugin_bytes_in_use"] = int(plugin[0])
        stats["plugin_num_allocs"] = int(plugin[1])
    return stats


def release_cached_memory(device: str) -> int:
    """Waits for the device's streams and gives every cached block back to
    the plugin; returns the bytes released."""
    with status() as s:
        n = lib.TFE_PluggableDeviceReleaseCachedMemory(device.encode(), s)
    return int(n)


def list_physical_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    """The devices a context created now would have (plugins found in the
    plugin directories are loaded first), optionally of one type."""
    ensure_autoloaded()
    s = lib.TF_NewStatus()
    try:
        opts = lib.TFE_NewContextOptions()
        ctx = lib.TFE_NewContext(opts, s)
        lib.TFE_DeleteContextOptions(opts)
        check(s)
        try:
            devices = lib.TFE_ContextListDevices(ctx, s)
            check(s)
            found: list[PhysicalDevice] = []
            for i in range(lib.TF_DeviceListCount(devices)):
                kind = ffi.string(lib.TF_DeviceListType(devices, i, s)).decode()
                name = ffi.string(lib.TF_DeviceListName(devices, i, s)).decode()
                index = name.rsplit(":", 1)[-1]
                if device_type is None or kind == device_type:
                    found.append(PhysicalDevice(f"/physical_device:{kind}:{index}", kind))
            lib.TF_DeleteDeviceList(devices)
        finally:
            lib.TFE_DeleteContext(ctx)
    finally:
        lib.TF_DeleteStatus(s)
    return found


def plugin_directories() -> list[Path]:
    """Where plugins load from automatically, in order: ``tfe_py-plugins``
    next to the package, then each entry of ``TFE_PLUGIN_PATH``."""
    dirs = [Path(__file__).resolve().parent.parent / PLUGIN_DIR_NAME]
    for entry in os.environ.get(PLUGIN_PATH_ENV, "").split(os.pathsep):
        if entry:
            dirs.append(Path(entry))
    return dirs


def _candidates(entries: list[Path]) -> list[Path]:
    found: list[Path] = []
    for entry in entries:
        if entry.is_dir():
            libs = (p for p in entry.iterdir() if p.suffix == ".so" or ".so." in p.name)
            found.extend(sorted(libs))
        elif entry.is_file():
            found.append(entry)
    return found


def load_plugins(
    paths: list[str | os.PathLike[str]] | None = None,
) -> list[tuple[str, LoadedPlugin | OpError | OSError]]:
    """Loads every plugin file (or every ``*.so`` of each directory) in
    ``paths`` (default: :func:`plugin_directories`); device plugins first
    try ``SE_InitPlugin``, libraries without it load as op libraries.
    Returns (path, result or exception) pairs and warns for failures."""
    entries = plugin_directories() if paths is None else [Path(p) for p in paths]
    results: list[tuple[str, LoadedPlugin | OpError | OSError]] = []
    for path in _candidates(entries):
        text = os.fspath(path)
        if text in _loaded:
            results.append((text, _loaded[text]))
            continue
        try:
            try:
                result: LoadedPlugin | OpError | OSError = load_pluggable_device(text)
            except NotFoundError as e:
                if "SE_InitPlugin" not in str(e):
                    raise
                result = load_op_library(text)
        except (OpError, OSError) as e:
            result = e
            warnings.warn(f"tfe_py: could not load plugin {text}: {e}", PluginLoadWarning, 2)
        results.append((text, result))
    return results


def ensure_autoloaded() -> None:
    """Loads the plugin directories once per process (see module doc)."""
    global _autoload_done
    if _autoload_done:
        return
    with _lock:
        if _autoload_done:
            return
        _autoload_done = True
        if os.environ.get(AUTOLOAD_ENV, "1") == "0":
            return
        _autoload_results.extend(load_plugins())


def autoload_report() -> list[tuple[str, LoadedPlugin | OpError | OSError]]:
    """What automatic loading did: (path, result or exception) pairs."""
    with _lock:
        return list(_autoload_results)
