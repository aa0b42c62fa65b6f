"""The one module that loads tfe's compiled cffi extension.

Everything else in tfe_py imports ``ffi`` and ``lib`` from here. On import
it checks that the Python package, the compiled extension and the libtfe
runtime it loaded all carry the same version, and raises ImportError if
not: a stale build must fail loudly, not misbehave.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any, TypeAlias

from tfe_py._version import __version__

try:
    from tfe_py._tfe_cffi import ffi, lib
except ModuleNotFoundError as exc:  # pragma: no cover - depends on the build state
    raise ImportError(
        "tfe_py: the compiled extension tfe_py._tfe_cffi is not built. Build it "
        "with `pip install --no-build-isolation -e .` or "
        "`python setup.py build_ext --inplace` from the repository root."
    ) from exc
except ImportError as exc:  # pragma: no cover - depends on the build state
    raise ImportError(
        f"tfe_py: the compiled extension or the libtfe it links failed to load: {exc}. "
        "A symbol missing from libtfe means the build is stale or the core "
        "lacks a function its headers declare; rebuild the package."
    ) from exc

#: Type of cffi pointers and structs in annotations (cffi has no stubs).
CData: TypeAlias = Any

__all__ = [
    "EXTENSION_VERSION",
    "RUNTIME_VERSION",
    "CData",
    "check_versions",
    "ffi",
    "lib",
    "runtime_library_path",
]


def _c_str(ptr: CData) -> str:
    if ptr == ffi.NULL:
        return ""
    return ffi.string(ptr).decode("utf-8", "replace")


def check_versions(package: str, extension: str, runtime: str) -> None:
    """Raises ImportError unless the three versions are equal.

    ``package`` is the Python package's ``__version__``, ``extension`` the
    TFE_VERSION compiled into tfe_py._tfe_cffi and ``runtime`` what the loaded
    libtfe reports through TFE_RuntimeVersion().
    """
    if extension != package:
        raise ImportError(
            f"tfe_py {package} found a compiled extension built for tfe {extension}; "
            "rebuild it (`pip install --no-build-isolation -e .`)"
        )
    if runtime != package:
        raise ImportError(
            f"tfe_py {package} loaded libtfe {runtime} ({runtime_library_path()}); "
            "rebuild the package so that it ships a matching libtfe"
        )


def runtime_library_path() -> str | None:
    """Path of the shared object that implements the TF_* functions we call.

    Found with dladdr() on the address of TFE_RuntimeVersion as the extension
    resolved it, so it names the libtfe really in use (normally the
    libtfe.so.0 shipped next to this file).
    """

    class _DlInfo(ctypes.Structure):
        _fields_ = [
            ("dli_fname", ctypes.c_char_p),
            ("dli_fbase", ctypes.c_void_p),
            ("dli_sname", ctypes.c_char_p),
            ("dli_saddr", ctypes.c_void_p),
        ]

    try:
        dladdr = ctypes.CDLL(None).dladdr  # glibc >= 2.34 has it in libc
    except AttributeError:  # pragma: no cover - older C libraries
        dladdr = ctypes.CDLL(ctypes.util.find_library("dl")).dladdr
    dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)]
    dladdr.restype = ctypes.c_int
    addr = int(ffi.cast("uintptr_t", lib.tfe_py_runtime_symbol()))
    info = _DlInfo()
    if dladdr(addr, ctypes.byref(info)) == 0 or not info.dli_fname:
        return None
    return info.dli_fname.decode("utf-8", "replace")


EXTENSION_VERSION: str = _c_str(lib.tfe_py_extension_version())
RUNTIME_VERSION: str = _c_str(lib.TFE_RuntimeVersion())

check_versions(__version__, EXTENSION_VERSION, RUNTIME_VERSION)
