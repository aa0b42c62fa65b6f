"""Smoke test of benchmarks/bench_python_api.py (issue 16's figures): it runs
without TensorFlow and prints the import time and the tf.add figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_python_api_prints_its_figures(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            sys.executable, str(ROOT / "benchmarks" / "bench_python_api.py"), "--no-tf",
            "--import-runs", "2", "--rounds", "1", "--min-round-ms", "5",
            "--json", str(tmp_path / "fig.json"),
        ],
        capture_output=True, text=True, check=True, timeout=600,
    ).stdout
    assert "tfe_py       median" in out
    assert "tfe_py.ops.AddV2(a, b)" in out
    assert "x the raw call" in out  # tfe_py.add exists and was timed
    assert "TF tf.add(a, b)          skipped" in out
    assert (tmp_path / "fig.json").read_text().startswith("{")
