"""Build script for tfe_py.

Metadata lives in pyproject.toml; this file adds what needs code:

* ``cffi_modules`` builds the extension ``tfe_py._tfe_cffi`` from build_ffi.py
  (API mode, out of line).
* ``BuildExtWithLibtfe`` first builds ``libtfe`` with CMake, then ships it
  inside the package as ``tfe_py/libtfe.so.0`` (the library's SONAME, so the
  extension's NEEDED entry resolves to it through ``RPATH=$ORIGIN``), and links
  the extension against that file. The core is never compiled into the
  extension: one process has exactly one tfe runtime.

Environment knobs: ``TFE_CMAKE_ARGS`` (extra CMake configure arguments),
``TFE_BUILD_JOBS`` (parallel build jobs, default 2), ``TFE_PY_CMAKE_BUILD_DIR``
(CMake build directory, default ``build-py/cmake``).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
PACKAGE = "tfe_py"
# The file name the extension's NEEDED entry asks for (libtfe's SONAME).
LIBTFE_NAME = "libtfe.so.0"
# tfe's stand-in for TensorFlow's framework library (cmake/compat.cmake).
COMPAT_TARGET = "tf_framework_compat"
COMPAT_NAME = "libtensorflow_framework.so.2"
BUILD_BASE = "build-py"


def _read_version(path: Path, pattern: str) -> str:
    m = re.search(pattern, path.read_text(encoding="utf-8"), re.MULTILINE)
    if m is None:
        raise SystemExit(f"setup.py: no version found in {path}")
    return m.group(1)


def package_version() -> str:
    """The package version, checked against the C headers' TFE_VERSION."""
    py = _read_version(ROOT / PACKAGE / "_version.py", r'^__version__\s*=\s*"([^"]+)"')
    c = _read_version(ROOT / "include" / "tfe" / "tfe.h", r'^#define TFE_VERSION "([^"]+)"')
    if py != c:
        raise SystemExit(
            f"setup.py: tfe_py/_version.py says {py} but include/tfe/tfe.h says {c}; "
            "bump both together"
        )
    return py


def _run(cmd: list[str]) -> None:
    print("+ " + shlex.join(cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=ROOT)


def _find_cmake() -> str:
    """The cmake on PATH, after checking that it really runs."""
    cmake = shutil.which("cmake")
    if cmake is None:
        raise SystemExit("setup.py: cmake (>= 3.16) is needed to build libtfe; none on PATH")
    probe = subprocess.run([cmake, "--version"], capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        raise SystemExit(f"setup.py: {cmake} does not run:\n{probe.stderr}")
    return cmake


class BuildExtWithLibtfe(build_ext):
    """build_ext that builds and ships libtfe before compiling the extension."""

    def _cmake_build_dir(self) -> Path:
        configured = os.environ.get("TFE_PY_CMAKE_BUILD_DIR") or f"{BUILD_BASE}/cmake"
        return ROOT / configured  # relative paths are relative to the repository

    def build_libtfe(self) -> Path:
        """Configures and builds the ``tfe`` target; returns the real file."""
        cmake = _find_cmake()
        build_dir = self._cmake_build_dir()
        jobs = os.environ.get("TFE_BUILD_JOBS", "2")
        _run(
            [
                cmake,
                "-S",
                str(ROOT),
                "-B",
                str(build_dir),
                "-DCMAKE_BUILD_TYPE=Release",
                "-DTFE_BUILD_TESTS=OFF",
                *shlex.split(os.environ.get("TFE_CMAKE_ARGS", "")),
            ]
        )
        _run([cmake, "--build", str(build_dir), "--target", "tfe", "-j", jobs])
        # TensorFlow-built plugins need a libtensorflow_framework.so.2 that
        # forwards to libtfe; it is shipped next to libtfe (see _ship).
        _run([cmake, "--build", str(build_dir), "--target", COMPAT_TARGET, "-j", jobs])
        lib = build_dir / LIBTFE_NAME
        if not lib.exists():
            raise SystemExit(f"setup.py: CMake did not produce {lib}")
        return lib.resolve()  # follow libtfe.so.0 -> libtfe.so.0.1.0

    @staticmethod
    def _ship(lib: Path, package_dir: Path) -> Path:
        package_dir.mkdir(parents=True, exist_ok=True)
        dest = package_dir / LIBTFE_NAME
        if dest.is_symlink() or dest.exists():
            dest.unlink()
        shutil.copy2(lib, dest)
        print(f"shipped {lib} as {dest}", flush=True)
        compat = lib.parent / COMPAT_NAME
        if compat.exists():
            compat_dest = package_dir / COMPAT_NAME
            if compat_dest.is_symlink() or compat_dest.exists():
                compat_dest.unlink()
            shutil.copy2(compat.resolve(), compat_dest)
        return dest

    def _libtfe_build_path(self) -> Path:
        return Path(self.build_lib).resolve() / PACKAGE / LIBTFE_NAME

    def run(self) -> None:
        lib = self.build_libtfe()
        # setuptools compiles into build_lib even for in-place builds and
        # copies the result into the source tree afterwards, so the
        # extension links against the copy in build_lib.
        shipped = self._ship(lib, self._libtfe_build_path().parent)
        if self.inplace or getattr(self, "editable_mode", False):
            self._ship(lib, ROOT / PACKAGE)
        for ext in self.extensions:
            ext.extra_link_args = [
                *ext.extra_link_args,
                f"-L{shipped.parent}",
                f"-l:{LIBTFE_NAME}",
                "-Wl,-rpath,$ORIGIN",
            ]
        super().run()

    def get_outputs(self) -> list[str]:
        lib = self._libtfe_build_path()
        return [*super().get_outputs(), str(lib), str(lib.parent / COMPAT_NAME)]


setup(
    version=package_version(),
    cffi_modules=["build_ffi.py:ffibuilder"],
    # PyCapsule helpers for DLPack (cffi cannot make capsules).
    ext_modules=[
        Extension(
            "tfe_py._capsule",
            sources=["tfe_py/_capsule.c"],
            include_dirs=[str(ROOT / "include")],
        )
    ],
    cmdclass={"build_ext": BuildExtWithLibtfe},
    options={"build": {"build_base": BUILD_BASE}},
)
