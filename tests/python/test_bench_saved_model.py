"""Smoke test of benchmarks/bench_saved_model.py (issue 15's SavedModel
benchmarks): the C program compiles against tfe, each tfe case runs once,
briefly, and reports sane figures. No TensorFlow and no timing claims; the
figures are recorded in docs/PERFORMANCE.md."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
def test_bench_saved_model_runs(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    proc = subprocess.run(
        [
            sys.executable, str(ROOT / "benchmarks" / "bench_saved_model.py"), "--no-tf",
            "--rounds", "1", "--min-round-ms", "1", "--repeat", "1", "--json", str(out),
        ],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    figures = json.loads(out.read_text())
    cold = figures["cold"]["tfe"]
    assert cold["wall_ms"] > 0 and 0 < cold["rss_mb"] < 1024
    for case in ("steady_mlp", "steady_cnn"):
        assert figures[case]["tfe"]["us"] > 0
        assert figures[case]["tfe"]["check"] not in (None, "nan")
    assert "skipped" in proc.stdout  # the 100 MB model needs TensorFlow to be written
