"""Smoke test of benchmarks/bench_graphs.py (issue 14's graph benchmarks).

Runs every case once, very briefly, against tfe only (no TensorFlow, no
timing claims): the C program compiles against tfe's headers and libtfe,
each case runs, and tfe computes what the numpy reference computes. The
figures themselves are recorded in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
def test_bench_graphs_runs_every_case(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    proc = subprocess.run(
        [
            sys.executable, str(ROOT / "benchmarks" / "bench_graphs.py"), "--no-tf",
            "--rounds", "1", "--min-round-ms", "1", "--json", str(out),
        ],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    figures = json.loads(out.read_text())
    assert set(figures) == {
        "session_run",
        "graph1000",
        "graph1000_16",
        "import10k",
        "function",
        "py_session_run",
    }
    for case, r in figures.items():
        assert "tfe_error" not in r, f"{case}: {r['tfe_error']}"
        assert r["tfe"] > 0, case
        assert "tf" not in r
    g = figures["graph1000"]
    assert float(g["tfe_check"]) == pytest.approx(float(g["numpy_check"]), rel=1e-4)
    assert figures["import10k"]["tfe_check"] == "10000"
    f = figures["function"]
    assert f["tfe_value"] == pytest.approx(f["numpy_value"], rel=1e-6)
    assert figures["py_session_run"]["tfe_value"] == 3.75
    assert "WARNING" not in proc.stdout
