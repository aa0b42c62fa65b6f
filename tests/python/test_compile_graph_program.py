"""A C program written for TensorFlow's graph/session C API compiles
unchanged against tfe's headers, links against libtfe and runs without
crashing, reporting TF_UNIMPLEMENTED where tfe has no graph runtime.

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

# What the program prints against tfe, in order (TF prints 0 everywhere).
UNIMPLEMENTED = 12
EXPECTED = [
    ("version", "yes"),
    ("placeholder", str(UNIMPLEMENTED)),
    ("set_attr_tensor", str(UNIMPLEMENTED)),
    ("const", str(UNIMPLEMENTED)),
    ("add", str(UNIMPLEMENTED)),
    ("set_config", "0"),
    ("new_session", str(UNIMPLEMENTED)),
    ("graph_to_graph_def", str(UNIMPLEMENTED)),
    ("return_outputs", "1"),
    ("import", str(UNIMPLEMENTED)),
    ("operations", "0"),
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
            [nm, "-D", "--defined-only", str(lib)],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode == 0 and " TF_NewGraph" in proc.stdout:
            return lib
    return None


@pytest.mark.parametrize("std", ["c99", "c11"])
def test_program_compiles_unchanged(std: str, tmp_path: Path) -> None:
    out = tmp_path / "prog.o"
    cmd = [*_cc(), f"-std={std}", *STRICT, "-I", str(INCLUDE), "-c", str(PROGRAM), "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=120)
    assert proc.returncode == 0, f"{shlex.join(cmd)}\n{proc.stderr}"


def test_program_links_and_reports_unimplemented(tmp_path: Path) -> None:
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
    # The failures name the function that is missing.
    assert "TF_FinishOperation is not implemented in tfe" in run.stderr
    assert "TF_NewSession is not implemented in tfe" in run.stderr
