"""tfe's binary interface against the headers of the tensorflow-cpu 2.21.0
wheel. Runs only where those headers are at hand: set TF_INCLUDE to the
wheel's ``tensorflow/include`` (see tools/gen_abi_asserts.py for how to get
it). Without it, tests/c/test_abi_layout.c still checks the recorded
layouts in every build."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
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
