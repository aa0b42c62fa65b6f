"""Build script for tfe_py.

Metadata lives in pyproject.toml; this file adds what needs code:

* ``cffi_modules`` builds the extension ``tfe_py._tfe_cffi`` from build_ffi.py
  (API mode, out of line).
* ``BuildExtWithLibtfe`` first builds ``libtfe`` with CMake, then ships it
  inside the package as ``tfe_py/libtfe.so.0`` (the library's SONAME, so the
  extension's NEEDED entry resolves to it through ``RPATH=$ORIGIN``), and links
  the extension against that file. The core is never compiled into the
  extension: one process has exactly one tfe runtime.

* ``BuildPyWithHeaders`` copies tfe's public headers (``include/tensorflow``,
  ``include/tsl``, ``include/xla``, ``include/tfe``) into the built package as
  ``tfe_py/include``, so an installed package can build plugins and programs
  (``tfe_py.get_include()``, ``python -m tfe_py config``, the doctor). They
  are copied at build time, never kept twice in git. An editable install
  uses the checkout's ``include/`` instead.

Progress: CMake's output is streamed line by line (``pip install -v`` shows
it as it comes). pip hides a build backend's output unless ``-v`` is given,
so when stdout is not a terminal but the build has one (``/dev/tty``), a
one-line progress indicator ("tfe: [ 42%] Building C object ...") is written
there as well; ``TFE_BUILD_PROGRESS=0`` turns it off.

Environment knobs: ``TFE_CMAKE_ARGS`` (extra CMake configure arguments, e.g.
``-DCMAKE_C_COMPILER_LAUNCHER=ccache``), ``TFE_BUILD_JOBS`` (parallel build
jobs, default 2), ``TFE_PY_CMAKE_BUILD_DIR`` (CMake build directory, default
``<build base>/cmake``), ``TFE_PY_BUILD_BASE`` (setuptools' build folder,
default ``build-py``), ``TFE_BUILD_PROGRESS``.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import IO

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
PACKAGE = "tfe_py"
# The file name the extension's NEEDED entry asks for (libtfe's SONAME).
LIBTFE_NAME = "libtfe.so.0"
# tfe's stand-in for TensorFlow's framework library (cmake/compat.cmake).
COMPAT_TARGET = "tf_framework_compat"
COMPAT_NAME = "libtensorflow_framework.so.2"
# setuptools' build folder (TFE_PY_BUILD_BASE overrides it, e.g. to build a
# wheel without touching the folders of the in-place package).
BUILD_BASE = os.environ.get("TFE_PY_BUILD_BASE") or "build-py"
# The folders of include/ that make up tfe's public headers.
HEADER_DIRS = ("tensorflow", "tsl", "xla", "tfe")


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


class _Progress:
    """A one-line progress indicator on the terminal pip hides output from.

    Writes to ``/dev/tty`` only when stdout is not a terminal itself (pip
    without ``-v`` pipes it) and a controlling terminal exists; otherwise
    it does nothing and the streamed output is all there is.
    """

    _STEP = re.compile(r"^\[\s*(\d+)%\]\s*(.*)$")

    def __init__(self) -> None:
        self.tty: IO[str] | None = None
        if os.environ.get("TFE_BUILD_PROGRESS", "1") == "0" or sys.stdout.isatty():
            return
        try:
            self.tty = open("/dev/tty", "w", encoding="utf-8")
        except OSError:
            self.tty = None

    def show(self, text: str) -> None:
        if self.tty is None:
            return
        m = self._STEP.match(text)
        if m is None:
            return
        line = f"tfe: [{int(m.group(1)):3d}%] {m.group(2)}"[:78]
        try:
            self.tty.write("\r\033[K" + line)
            self.tty.flush()
        except OSError:
            self.tty = None

    def message(self, text: str) -> None:
        if self.tty is not None:
            try:
                self.tty.write("\r\033[K" + text[:78])
                self.tty.flush()
            except OSError:
                self.tty = None

    def close(self) -> None:
        if self.tty is not None:
            try:
                self.tty.write("\r\033[K")
                self.tty.close()
            except OSError:
                pass
            self.tty = None


def _run(cmd: list[str], progress: _Progress | None = None) -> None:
    """Runs cmd, streaming its output line by line (not in one block at the end)."""
    print("+ " + shlex.join(cmd), flush=True)
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        bufsize=1,
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        if progress is not None:
            progress.show(line.rstrip())
    if proc.wait() != 0:
        if progress is not None:
            progress.close()
        raise subprocess.CalledProcessError(proc.returncode, cmd)


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
        progress = _Progress()
        progress.message(f"tfe: configuring libtfe with CMake in {build_dir}")
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
            ],
            progress,
        )
        # One build of both targets: libtfe, and the libtensorflow_framework.so.2
        # that TensorFlow-built plugins need, forwarding to libtfe (see _ship).
        _run(
            [cmake, "--build", str(build_dir), "--target", "tfe", COMPAT_TARGET, "-j", jobs],
            progress,
        )
        progress.message("tfe: libtfe built; compiling the Python extension")
        progress.close()
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


class BuildPyWithHeaders(build_py):
    """build_py that also puts tfe's public headers into the package."""

    def _header_files(self) -> list[tuple[Path, Path]]:
        """(source, destination relative to the package) for every header."""
        pairs = []
        for top in HEADER_DIRS:
            for src in sorted((ROOT / "include" / top).rglob("*")):
                if src.is_file():
                    pairs.append((src, Path("include") / src.relative_to(ROOT / "include")))
        return pairs

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install finds the checkout's include/
        dest_root = Path(self.build_lib) / PACKAGE
        stale = dest_root / "include"
        if stale.exists():
            shutil.rmtree(stale)  # headers removed from include/ must not linger
        for src, rel in self._header_files():
            dest = dest_root / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if getattr(self, "editable_mode", False):
            return outputs
        base = Path(self.build_lib) / PACKAGE
        return [*outputs, *(str(base / rel) for _, rel in self._header_files())]


# pip's build backend and `python setup.py` both run this file as __main__;
# tests import it (as another name) to check the helpers above.
if __name__ == "__main__":
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
        cmdclass={"build_ext": BuildExtWithLibtfe, "build_py": BuildPyWithHeaders},
        options={"build": {"build_base": BUILD_BASE}},
    )
