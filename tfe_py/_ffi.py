"""The one module that loads tfe's compiled cffi extension.

Everything else in tfe_py imports ``ffi`` and ``lib`` from here. On import
it checks that the Python package, the compiled extension and the libtfe
runtime it loaded all carry the same version, and raises ImportError if
not: a stale build must fail loudly, not misbehave.
"""

from __future__ import annotations

import os
from typing import Any, TypeAlias

from tfe_py._version import __version__


def _configure_blas() -> None:
    """Points libtfe at the OpenBLAS of the scipy-openblas32 wheel.

    libtfe looks for a CBLAS when MatMul first runs (TFE_BLAS_LIBRARY, then
    system OpenBLAS/CBLAS, else its built-in GEMM); the Python build brings
    its own through this wheel. An explicit TFE_BLAS_LIBRARY wins.
    """
    if "TFE_BLAS_LIBRARY" in os.environ:
        return
    # find_spec locates the wheel without importing it: its __init__ pulls
    # in importlib.metadata, a third of tfe_py's import time.
    from importlib.util import find_spec

    try:
        spec = find_spec("scipy_openblas32")
    except (ImportError, ValueError):
        return
    if spec is None or not spec.submodule_search_locations:
        return
    path = os.path.join(next(iter(spec.submodule_search_locations)), "lib", "libscipy_openblas.so")
    if os.path.exists(path):
        os.environ["TFE_BLAS_LIBRARY"] = path


_configure_blas()

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

    Found with dladdr() (in the extension's C glue) on the address of
    TFE_RuntimeVersion as the extension resolved it, so it names the libtfe
    really in use (normally the libtfe.so.0 shipped next to this file).
    """
    path = lib.tfe_py_runtime_library_path()
    if path == ffi.NULL:
        return None
    return ffi.string(path).decode("utf-8", "replace")


EXTENSION_VERSION: str = _c_str(lib.tfe_py_extension_version())
RUNTIME_VERSION: str = _c_str(lib.TFE_RuntimeVersion())

check_versions(__version__, EXTENSION_VERSION, RUNTIME_VERSION)
