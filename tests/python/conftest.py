"""Shared pytest setup for tfe_py.

The tests import the package from the repository root, so build it in place
first (either command works):

    pip install --no-build-isolation -e .
    python setup.py build_ext --inplace
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

PLUGIN_SOURCES = REPO_ROOT / "tests" / "plugins"
INCLUDE_DIR = REPO_ROOT / "include"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture
def live_count() -> Callable[[str], int]:
    """live_count("STATUS") -> TFE_LiveObjectCount(TFE_OBJ_STATUS)."""

    # Imported here, not at module level, so tests that never touch the
    # extension (header hygiene, coverage tool) run even without a build.
    from tfe_py._ffi import lib

    def count(kind: str) -> int:
        return int(lib.TFE_LiveObjectCount(getattr(lib, "TFE_OBJ_" + kind)))

    return count


@pytest.fixture(scope="session")
def build_test_plugin(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """Compiles tests/plugins/<name>.c into a shared object; returns its path.

    Like the CMake-built plugins, it is NOT linked against libtfe: its TF_*
    references must resolve to the runtime that loads it. Each plugin is
    built once per session, into a fresh directory.
    """
    out_dir = tmp_path_factory.mktemp("plugins")
    built: dict[str, Path] = {}

    def build(name: str) -> Path:
        if name in built:
            return built[name]
        src = PLUGIN_SOURCES / f"{name}.c"
        out = out_dir / f"{name}.so"
        cmd = [
            *shlex.split(os.environ.get("CC") or "cc"),
            "-shared",
            "-fPIC",
            "-Wall",
            "-Wextra",
            "-I",
            str(INCLUDE_DIR),
            str(src),
            "-o",
            str(out),
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            pytest.fail(f"building {src} failed:\n{shlex.join(cmd)}\n{proc.stderr}")
        built[name] = out
        return out

    return build
