"""Exactly one tfe runtime per process.

The extension links against the libtfe.so.0 shipped in the package instead of
containing the core, and a plugin loaded with TF_LoadLibrary (not linked to
libtfe itself) resolves its TF_* calls to that same runtime.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import tfe_py
from tfe_py import errors
from tfe_py._ffi import ffi, lib

PACKAGE_DIR = Path(tfe_py.__file__).resolve().parent


def _extension_path() -> Path:
    import tfe_py._tfe_cffi as ext

    return Path(ext.__file__).resolve()


def test_tf_functions_come_from_the_shipped_libtfe():
    used = tfe_py.runtime_library_path()
    assert used is not None
    assert Path(used).resolve() == PACKAGE_DIR / "libtfe.so.0"


@pytest.mark.skipif(shutil.which("readelf") is None, reason="needs binutils' readelf")
def test_extension_needs_libtfe_through_origin():
    out = subprocess.run(
        ["readelf", "-d", str(_extension_path())], capture_output=True, text=True, check=True
    ).stdout
    assert "Shared library: [libtfe.so.0]" in out
    assert "$ORIGIN" in out


@pytest.mark.skipif(shutil.which("nm") is None, reason="needs binutils' nm")
def test_extension_does_not_contain_the_core():
    out = subprocess.run(
        ["nm", "-D", "--defined-only", str(_extension_path())],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    defined = [line.split()[-1] for line in out.splitlines() if line.strip()]
    assert not [name for name in defined if name.startswith(("TF_", "TSL_", "TFE_"))]


def test_plugin_resolves_tf_symbols_to_this_runtime(build_test_plugin, live_count):
    path = build_test_plugin("status_probe_plugin")
    statuses, libraries = live_count("STATUS"), live_count("LIBRARY")

    with errors.status() as s:
        handle = lib.TF_LoadLibrary(str(path).encode(), s)
    assert handle != ffi.NULL
    try:
        # The plugin's constructor made two statuses in *our* runtime and
        # kept one; the one used for the call is freed again.
        assert live_count("STATUS") == statuses + 1
        assert live_count("LIBRARY") == libraries + 1
        assert lib.TF_GetOpList(handle).length == 0

        # Loading it again reuses the mapped library: no constructor runs.
        with errors.status() as s:
            again = lib.TF_LoadLibrary(str(path).encode(), s)
        assert again != ffi.NULL
        lib.TF_DeleteLibraryHandle(again)
        assert live_count("STATUS") == statuses + 1
    finally:
        lib.TF_DeleteLibraryHandle(handle)
    assert live_count("LIBRARY") == libraries


def test_loading_a_missing_library_is_not_found(tmp_path, live_count):
    missing = tmp_path / "no_such_plugin.so"
    statuses, libraries = live_count("STATUS"), live_count("LIBRARY")
    with pytest.raises(errors.NotFoundError) as info:
        with errors.status() as s:
            lib.TF_LoadLibrary(str(missing).encode(), s)
    assert str(missing) in info.value.message
    assert info.value.error_code == errors.NOT_FOUND
    assert live_count("STATUS") == statuses
    assert live_count("LIBRARY") == libraries


def test_loading_an_empty_name_is_invalid_argument():
    with pytest.raises(errors.InvalidArgumentError):
        with errors.status() as s:
            lib.TF_LoadLibrary(b"", s)
