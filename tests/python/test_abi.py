"""tfe's binary interface against the headers of the tensorflow-cpu 2.21.0
wheel: abi-check, the generated layout test, and a device plugin compiled
against TensorFlow's own headers running in tfe. Runs only where those
headers are at hand: set TF_INCLUDE to the wheel's ``tensorflow/include``
(see tools/gen_abi_asserts.py for how to get it). Without it,
tests/c/test_abi_layout.c still checks the recorded layouts in every
build."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ABI_CHECK = ROOT.parent / "shared" / "tools" / "abi-check"
LAYOUT_TEST = ROOT / "tests" / "c" / "test_abi_layout.c"

# The differences docs/COVERAGE.md lists as deliberate ("ABI exceptions"):
# none since tfe declares TF's TString helpers and its C++-only overload.
EXCEPTIONS: set[str] = set()


def tf_include() -> Path:
    value = os.environ.get("TF_INCLUDE")
    if not value:
        pytest.skip("TF_INCLUDE (the wheel's tensorflow/include) is not set")
    path = Path(value)
    if not (path / "tensorflow" / "c" / "c_api.h").is_file():
        pytest.skip(f"TF_INCLUDE={value} is not TensorFlow's include/ folder")
    if shutil.which(os.environ.get("CLANGXX", "clang++")) is None:
        pytest.skip("clang++ is not installed")
    return path


def test_abi_check_reports_only_the_listed_exceptions() -> None:
    inc = tf_include()
    if not ABI_CHECK.is_file():
        pytest.skip(f"{ABI_CHECK} not found")
    proc = subprocess.run(
        [sys.executable, str(ABI_CHECK), str(inc), str(ROOT / "include")],
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    diffs = [ln for ln in proc.stdout.splitlines() if ln.startswith("DIFF ")]
    unexpected = [
        ln
        for ln in diffs
        if not (m := re.search(r": function (\w+)", ln)) or m.group(1) not in EXCEPTIONS
    ]
    assert unexpected == [], "\n".join(unexpected)
    assert "abi: " in proc.stdout


def test_generated_layout_test_is_current(tmp_path: Path) -> None:
    inc = tf_include()
    out = tmp_path / "test_abi_layout.c"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_abi_asserts.py"), str(inc), "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr
    assert out.read_text() == LAYOUT_TEST.read_text(), (
        "tests/c/test_abi_layout.c is stale: run tools/gen_abi_asserts.py"
    )


def build_with_tf_headers(src: Path, out: Path, inc: Path, cxx: bool = False) -> None:
    """Compiles a plugin against TensorFlow's headers (as C++ when those
    headers are not valid C: tf_file_statistics.h and ops.h are not)."""
    tool = shutil.which("c++" if cxx else "cc") or shutil.which("g++" if cxx else "gcc")
    if tool is None:
        pytest.skip("no C/C++ compiler")
    lang = ["-x", "c++", "-std=c++17"] if cxx else ["-std=c11"]
    cmd = [tool, *lang, "-shared", "-fPIC", "-O1", f"-I{inc}", str(src)]
    proc = subprocess.run(
        [*cmd, "-o", str(out), "-lpthread"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr


def run_child(code: str) -> dict[str, object]:
    """Runs code in a fresh interpreter (plugins stay loaded for the life of
    a process) and returns the JSON object its last line prints."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["TFE_PLUGIN_AUTOLOAD"] = "0"
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def test_op_library_and_filesystem_built_with_tensorflows_headers_run(
    tmp_path: Path,
) -> None:
    inc = tf_include()
    ops_lib = tmp_path / "libtf_built_ops.so"
    fs_lib = tmp_path / "libtf_built_fs.so"
    build_with_tf_headers(ROOT / "tfe_py" / "examples" / "example_op_library.c", ops_lib, inc, True)
    build_with_tf_headers(ROOT / "tests" / "plugins" / "fs_testfs.c", fs_lib, inc, True)
    root = tmp_path / "fsroot"
    (root / "host").mkdir(parents=True)
    result = run_child(
        f"""
        import json, os
        import numpy as np
        import tfe_py
        from tfe_py import io, ops

        os.environ["TFE_TESTFS_ROOT"] = {str(root)!r}
        lib = tfe_py.load_op_library({str(ops_lib)!r})
        out = ops.TfeTestScaleAdd(np.array([1.0, 2.0], np.float32), np.float32(1), scale=3.0)
        io.register_filesystem_plugin({str(fs_lib)!r})
        with io.GFile("testfs://host/a.txt", "w") as f:
            f.write("written through a TF-built plugin")
        with io.GFile("testfs://host/a.txt") as f:
            text = f.read()
        print(json.dumps(dict(ops=list(lib.ops), out=out.numpy().tolist(), text=text,
                              size=io.stat("testfs://host/a.txt").length)))
        """
    )
    assert result["ops"] == ["TfeTestScaleAdd", "TfeTestRowSums"]
    assert result["out"] == [4.0, 7.0]
    assert result["text"] == "written through a TF-built plugin"
    assert result["size"] == len("written through a TF-built plugin")
    assert (root / "host" / "a.txt").is_file()


def test_plugin_built_with_tensorflows_headers_runs(tmp_path: Path) -> None:
    """The example device plugin, compiled against TF's headers (not tfe's),
    loads into tfe, computes, and has its fill functions (the slots TF
    2.21 moved) called rather than emulated."""
    inc = tf_include()
    lib = tmp_path / "libtf_built_device.so"
    build_with_tf_headers(ROOT / "tfe_py" / "examples" / "example_device.c", lib, inc)
    result = run_child(
        f"""
        import json
        import numpy as np
        import tfe_py
        from tfe_py import ops, plugins

        tfe_py.load_pluggable_device({str(lib)!r})
        desc = plugins.describe_pluggable_devices()[0]
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        with tfe_py.default_context().device("MY_DEVICE:0"):
            y = ops.MatMul(x, x.T)
        print(json.dumps(dict(
            se_size=desc["struct_sizes"]["SP_StreamExecutor"],
            emulated=desc["emulated"],
            device=y.device,
            ok=bool(np.allclose(y.numpy(), x @ x.T)),
        )))
        """
    )
    assert result["se_size"] == 288
    assert result["emulated"] == []
    assert str(result["device"]).endswith("device:MY_DEVICE:0")
    assert result["ok"]
