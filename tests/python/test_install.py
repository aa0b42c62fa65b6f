"""The installed library is usable from C, as the README shows.

`cmake --install` of the top-level build (made by tools/test_all.sh) into a
temporary prefix; then a small C program is built once through pkg-config
and once through CMake's find_package(tfe), and both run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build"

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
    _run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", str(src), *flags, "-o", str(exe)])
    out = _run([str(exe)], env=dict(os.environ, LD_LIBRARY_PATH=str(libdir))).stdout
    assert out == EXPECTED


def test_cmake_find_package_program_runs(prefix: Path, tmp_path: Path) -> None:
    (tmp_path / "prog.c").write_text(PROGRAM)
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\n"
        "project(uses_tfe C)\n"
        "find_package(tfe REQUIRED)\n"
        "add_executable(prog prog.c)\n"
        "target_link_libraries(prog PRIVATE tfe::tfe)\n"
    )
    build = tmp_path / "build"
    _run(["cmake", "-S", str(tmp_path), "-B", str(build), f"-DCMAKE_PREFIX_PATH={prefix}"])
    _run(["cmake", "--build", str(build)])
    libdir = _libdir(prefix)
    out = _run([str(build / "prog")], env=dict(os.environ, LD_LIBRARY_PATH=str(libdir))).stdout
    assert out == EXPECTED
