"""A C program written for TensorFlow's graph/session C API compiles
unchanged against tfe's headers, links against libtfe and runs as it does
with TensorFlow: it builds a graph, runs it in a session, exports and
imports it.

The program is tests/compile/graph_session_program.c. Compiling needs only
a C compiler; linking and running need a built libtfe that exports the
graph API (the newest of build*/libtfe.so and tfe_py/libtfe.so*, or the
one named by TFE_TEST_LIBTFE).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INCLUDE = REPO / "include"
PROGRAM = REPO / "tests" / "compile" / "graph_session_program.c"
STRICT = ["-Wall", "-Wextra", "-Werror", "-pedantic"]

# What the program prints, in order (the same as with TensorFlow).
EXPECTED = [
    ("version", "yes"),
    ("placeholder", "0"),
    ("set_attr_tensor", "0"),
    ("const", "0"),
    ("add", "0"),
    ("y.op_type", "AddV2"),
    ("y.num_inputs", "2"),
    ("y.output_type", "1"),
    ("set_config", "0"),
    ("new_session", "0"),
    ("session_run", "0"),
    ("y", "3 4 5"),
    ("graph_to_graph_def", "0"),
    ("return_outputs", "1"),
    ("import", "0"),
    ("imported_outputs", "1"),
    ("operations", "3"),
    ("close_session", "0"),
    ("delete_session", "0"),
]


def _cc() -> list[str]:
    cc = shlex.split(os.environ.get("CC") or "cc")
    if shutil.which(cc[0]) is None:
        pytest.skip(f"{cc[0]} is not installed")
    return cc


def _libtfe_with_graph_api() -> Path | None:
    """The libtfe to link against, if one exporting the graph API exists."""
    named = os.environ.get("TFE_TEST_LIBTFE")
    candidates = [Path(named)] if named else []
    if not candidates:
        candidates = [p for p in REPO.glob("build*/libtfe.so") if p.is_file()]
        candidates += [p for p in REPO.glob("tfe_py/libtfe.so*") if p.is_file()]
        candidates.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    nm = shutil.which("nm")
    for lib in candidates:
        if nm is None:
            return lib
        proc = subprocess.run(
            [nm, "-D", str(lib)],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0 or " T TF_NewGraph" not in proc.stdout:
            continue  # not built, or built before the graph API existed
        if named or "__asan_init" not in proc.stdout:
            return lib  # a sanitizer build needs its runtime preloaded: skipped
    return None


@pytest.mark.parametrize("std", ["c99", "c11"])
def test_program_compiles_unchanged(std: str, tmp_path: Path) -> None:
    out = tmp_path / "prog.o"
    cmd = [*_cc(), f"-std={std}", *STRICT, "-I", str(INCLUDE), "-c", str(PROGRAM), "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=120)
    assert proc.returncode == 0, f"{shlex.join(cmd)}\n{proc.stderr}"


def test_program_links_and_runs(tmp_path: Path) -> None:
    lib = _libtfe_with_graph_api()
    if lib is None:
        pytest.skip("no built libtfe exporting the graph API")
    exe = tmp_path / "prog"
    libdir = lib.resolve().parent
    # Link the exact file found (its name may carry a version suffix).
    cmd = [
        *_cc(),
        "-std=c11",
        *STRICT,
        "-I",
        str(INCLUDE),
        str(PROGRAM),
        str(lib.resolve()),
        f"-Wl,-rpath,{libdir}",
        "-o",
        str(exe),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=120)
    assert proc.returncode == 0, f"{shlex.join(cmd)}\n{proc.stderr}"
    env = dict(os.environ, LD_LIBRARY_PATH=str(libdir))
    run = subprocess.run(
        [str(exe)], capture_output=True, text=True, check=False, timeout=60, env=env
    )
    assert run.returncode == 0, run.stdout + run.stderr
    lines = [tuple(line.split(": ", 1)) for line in run.stdout.splitlines()]
    assert lines == EXPECTED
    assert run.stderr == ""


# C++ written against TF's tensorflow/c/eager/dlpack.h, where the functions
# live in namespace tensorflow.
TF_CPP_DLPACK_SOURCE = """
#include <cstring>
#include "tensorflow/c/eager/dlpack.h"

void* export_it(TFE_TensorHandle* h, TF_Status* s) {
  return tensorflow::TFE_HandleToDLPack(h, s);
}
TFE_TensorHandle* import_it(void* dlm, TF_Status* s, TFE_Context* ctx) {
  using namespace tensorflow;
  return TFE_HandleFromDLPack(dlm, s, ctx);
}
void release(void* dlm) { tensorflow::TFE_CallDLManagedTensorDeleter(dlm); }
void* device(TFE_TensorHandle* h, TF_Status* s) {
  return tensorflow::TFE_GetDLDevice(h, s);
}
bool is_dltensor(const char* name) {
  return std::strcmp(name, tensorflow::kDlTensorCapsuleName) == 0;
}
"""


def test_tf_cpp_dlpack_spellings_compile(tmp_path: Path) -> None:
    cxx = shlex.split(os.environ.get("CXX") or "c++")
    if shutil.which(cxx[0]) is None:
        pytest.skip(f"{cxx[0]} is not installed")
    src = tmp_path / "dlpack_user.cc"
    src.write_text(TF_CPP_DLPACK_SOURCE)
    cmd = [
        *cxx,
        "-std=c++17",
        *STRICT,
        "-I",
        str(INCLUDE),
        "-c",
        str(src),
        "-o",
        str(tmp_path / "o.o"),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=120)
    assert proc.returncode == 0, f"{shlex.join(cmd)}\n{proc.stderr}"
