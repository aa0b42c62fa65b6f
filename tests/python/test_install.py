"""The installed library is usable from C, as the README shows.

`cmake --install` of the top-level build (made by tools/test_all.sh; the
environment variable TFE_BUILD_DIR names another) into a temporary prefix;
then a small C program is built once through pkg-config and once through
CMake's find_package(tfe), and both run WITHOUT LD_LIBRARY_PATH: tfe.pc and
tfeConfig.cmake give the program an rpath to the prefix, also after the
program itself is installed elsewhere. Also: TFE_BUILD_TESTS defaults to OFF
when tfe is pulled into another project with add_subdirectory.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("TFE_BUILD_DIR") or ROOT / "build")

PROGRAM = r"""
#include <stdio.h>
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"

int main(void) {
  int64_t dims[1] = {3};
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 1, 3 * sizeof(float));
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(o, s);
  printf("TF API %s, %zu bytes, context code %d\n", TF_Version(),
         TF_TensorByteSize(t), (int)TF_GetCode(s));
  TFE_DeleteContext(ctx);
  TFE_DeleteContextOptions(o);
  TF_DeleteTensor(t);
  TF_DeleteStatus(s);
  return 0;
}
"""

EXPECTED = "TF API 2.21.0, 12 bytes, context code 0\n"


def _run(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)  # type: ignore[call-overload]


def _env_without_loader_path() -> dict[str, str]:
    """The environment minus LD_LIBRARY_PATH: the rpath alone must find libtfe."""
    return {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}


def _assert_uses_prefix_lib(exe: Path, libdir: Path) -> None:
    """ldd shows libtfe resolved inside the prefix (not some other copy)."""
    if shutil.which("ldd") is None:
        return
    out = _run(["ldd", str(exe)], env=_env_without_loader_path()).stdout
    line = next((ln for ln in out.splitlines() if "libtfe.so" in ln), "")
    assert "not found" not in line and line, out
    resolved = Path(line.split("=>")[1].split("(")[0].strip()).resolve()
    assert resolved.parent == libdir.resolve(), out


@pytest.fixture(scope="module")
def prefix(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (BUILD / "CMakeCache.txt").exists() or not list(BUILD.glob("libtfe.so*")):
        pytest.skip("no top-level CMake build in build/ (tools/test_all.sh makes one)")
    dest = tmp_path_factory.mktemp("prefix")
    _run(["cmake", "--install", str(BUILD), "--prefix", str(dest)])
    return dest


def _libdir(prefix: Path) -> Path:
    for cand in ("lib", "lib64"):
        if (prefix / cand / "pkgconfig" / "tfe.pc").exists():
            return prefix / cand
    raise AssertionError(f"no tfe.pc under {prefix}")


def test_install_layout(prefix: Path) -> None:
    libdir = _libdir(prefix)
    assert (prefix / "include" / "tensorflow" / "c" / "c_api.h").exists()
    assert (prefix / "include" / "tfe" / "tfe.h").exists()
    assert list(libdir.glob("libtfe.so*"))
    assert (libdir / "libtfe.a").exists()
    assert (libdir / "cmake" / "tfe" / "tfeConfig.cmake").exists()


def test_pkg_config_program_runs(prefix: Path, tmp_path: Path) -> None:
    tool = shutil.which("pkg-config") or shutil.which("pkgconf")
    if tool is None:
        pytest.skip("neither pkg-config nor pkgconf is installed")
    libdir = _libdir(prefix)
    env = dict(os.environ, PKG_CONFIG_PATH=str(libdir / "pkgconfig"))
    flags = _run([tool, "--cflags", "--libs", "tfe"], env=env).stdout.split()
    includes = [Path(f[2:]).resolve() for f in flags if f.startswith("-I")]
    assert (prefix / "include").resolve() in includes
    src = tmp_path / "prog.c"
    src.write_text(PROGRAM)
    exe = tmp_path / "prog"
    assert any(f.startswith("-Wl,-rpath,") for f in flags), flags
    _run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", str(src), *flags, "-o", str(exe)])
    _assert_uses_prefix_lib(exe, libdir)
    out = _run([str(exe)], env=_env_without_loader_path()).stdout
    assert out == EXPECTED


def test_cmake_find_package_program_runs(prefix: Path, tmp_path: Path) -> None:
    (tmp_path / "prog.c").write_text(PROGRAM)
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\n"
        "project(uses_tfe C)\n"
        "find_package(tfe REQUIRED)\n"
        "add_executable(prog prog.c)\n"
        "target_link_libraries(prog PRIVATE tfe::tfe)\n"
        "install(TARGETS prog DESTINATION bin)\n"
    )
    build = tmp_path / "build"
    _run(["cmake", "-S", str(tmp_path), "-B", str(build), f"-DCMAKE_PREFIX_PATH={prefix}"])
    _run(["cmake", "--build", str(build)])
    libdir = _libdir(prefix)
    _assert_uses_prefix_lib(build / "prog", libdir)
    out = _run([str(build / "prog")], env=_env_without_loader_path()).stdout
    assert out == EXPECTED
    # CMake rewrites the rpath when it installs a program; tfe's rpath stays.
    app = tmp_path / "app"
    _run(["cmake", "--install", str(build), "--prefix", str(app)])
    _assert_uses_prefix_lib(app / "bin" / "prog", libdir)
    out = _run([str(app / "bin" / "prog")], env=_env_without_loader_path()).stdout
    assert out == EXPECTED


def test_build_tests_default_off_as_subproject(tmp_path: Path) -> None:
    """tfe added with add_subdirectory: TFE_BUILD_TESTS defaults to OFF (no
    tests/ folder configured); a top-level build defaults to ON."""
    if shutil.which("cmake") is None:
        pytest.skip("cmake is not installed")
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\n"
        "project(parent C)\n"
        f'add_subdirectory("{ROOT.as_posix()}" tfe)\n'
        'message(STATUS "parent sees TFE_BUILD_TESTS=${TFE_BUILD_TESTS}")\n'
    )
    build = tmp_path / "build"
    out = _run(["cmake", "-S", str(tmp_path), "-B", str(build)]).stdout
    assert "parent sees TFE_BUILD_TESTS=OFF" in out, out
    assert not (build / "tfe" / "tests").exists()
    # The same source as the top-level project: ON unless told otherwise.
    top = tmp_path / "top"
    _run(["cmake", "-S", str(ROOT), "-B", str(top)])
    assert "TFE_BUILD_TESTS:BOOL=ON" in (top / "CMakeCache.txt").read_text()
    assert (top / "tests").is_dir()


# ---- building against the Python package (tfe_py.get_include, config) ----


def _config(*args: str) -> str:
    return _run([sys.executable, "-m", "tfe_py", "config", *args], cwd=str(ROOT)).stdout


def test_get_include_and_library_dir() -> None:
    import tfe_py

    inc = Path(tfe_py.get_include())
    for header in ("tensorflow/c/c_api.h", "tensorflow/c/kernels.h", "tfe/tfe.h"):
        assert (inc / header).is_file(), header
    assert (inc / "tsl").is_dir() and (inc / "xla").is_dir()
    libdir = Path(tfe_py.get_library_dir())
    assert (libdir / "libtfe.so.0").exists()
    # The library the process really runs is the one programs would link.
    assert Path(tfe_py.runtime_library_path()).resolve().parent == libdir.resolve()
    assert _config("--include-dir").strip() == str(inc)
    assert _config("--libdir").strip() == str(libdir)


def test_config_flags_build_a_program(tmp_path: Path) -> None:
    flags = shlex.split(_config("--cflags", "--libs"))
    assert flags[0].startswith("-I")
    assert any(f.startswith("-Wl,-rpath,") for f in flags)
    src = tmp_path / "prog.c"
    src.write_text(PROGRAM)
    exe = tmp_path / "prog"
    _run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", str(src), *flags, "-o", str(exe)])
    out = _run([str(exe)], env=_env_without_loader_path()).stdout
    assert out == EXPECTED
    # Without options: everything, labelled; unknown options are usage errors.
    summary = _config()
    assert "include dir:" in summary and "libs:" in summary
    bad = subprocess.run(
        [sys.executable, "-m", "tfe_py", "config", "--nope"], capture_output=True, text=True
    )
    assert bad.returncode == 2


def test_dtype_constants_at_module_level() -> None:
    import numpy as np

    import tfe_py
    from tfe_py import dtypes

    assert tfe_py.float32 == np.float32 and tfe_py.float32 == "float32"
    assert int(tfe_py.int64) == dtypes.from_name("int64")
    assert tfe_py.half is tfe_py.float16 and tfe_py.double is tfe_py.float64
    for value in dtypes.ALL_DTYPES:
        assert getattr(tfe_py, dtypes.name(value)) == value
        assert dtypes.name(value) in tfe_py.__all__
    assert tfe_py.constant(1.0).dtype is tfe_py.float32


# ---- setup.py: streamed CMake output and the progress line ----


def _load_setup_module() -> object:
    import importlib.util

    spec = importlib.util.spec_from_file_location("tfe_setup_under_test", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # setup() runs only as __main__
    return module


def test_setup_streams_output_and_shows_progress(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    mod = _load_setup_module()
    progress = mod._Progress()  # type: ignore[attr-defined]
    fake_tty = io.StringIO()
    progress.tty = fake_tty  # as if pip hid stdout and a terminal existed
    script = (
        "import sys\n"
        "print('-- Configuring done')\n"
        "print('[  7%] Building C object CMakeFiles/tfe_objects.dir/csrc/core/alloc.c.o')\n"
        "print('[100%] Built target tfe')\n"
        "print('to stderr', file=sys.stderr)\n"
    )
    mod._run([sys.executable, "-c", script], progress)  # type: ignore[attr-defined]
    out = capsys.readouterr().out
    # Every line of the child (stderr included) is passed on, in order.
    assert out.index("-- Configuring done") < out.index("[100%] Built target tfe")
    assert "to stderr" in out
    # Only CMake's progress lines reach the terminal line, numbered.
    shown = fake_tty.getvalue()
    assert "tfe: [  7%] Building C object" in shown and "tfe: [100%] Built target tfe" in shown
    assert "Configuring done" not in shown and "to stderr" not in shown
    with pytest.raises(subprocess.CalledProcessError):
        mod._run([sys.executable, "-c", "raise SystemExit(3)"], None)  # type: ignore[attr-defined]
    # Switched off: nothing is written to /dev/tty.
    monkeypatch.setenv("TFE_BUILD_PROGRESS", "0")
    assert mod._Progress().tty is None  # type: ignore[attr-defined]
