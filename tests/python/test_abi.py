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

# The differences docs/COVERAGE.md lists as deliberate ("ABI exceptions").
EXCEPTIONS = {"TF_align16", "TF_max", "TF_min", "TF_swap32", "TFE_NewTensorHandle"}


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


def test_plugin_built_with_tensorflows_headers_runs(tmp_path: Path) -> None:
    """The example device plugin, compiled against TF's headers (not tfe's),
    loads into tfe, computes, and has its fill functions (the slots TF
    2.21 moved) called rather than emulated."""
    inc = tf_include()
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    lib = tmp_path / "libtf_built_device.so"
    src = ROOT / "tfe_py" / "examples" / "example_device.c"
    cmd = [cc, "-std=c11", "-shared", "-fPIC", "-O1", f"-I{inc}", str(src)]
    build = subprocess.run(
        [*cmd, "-o", str(lib), "-lpthread"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr
    code = f"""
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
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["se_size"] == 288
    assert result["emulated"] == []
    assert result["device"].endswith("device:MY_DEVICE:0")
    assert result["ok"]
