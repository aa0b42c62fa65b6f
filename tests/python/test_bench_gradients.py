"""Smoke test of benchmarks/bench_gradients.py (issue 17's gradient figures).

Runs the benchmark once with tiny sizes against tfe only (no TensorFlow, no
timing claims): the C program compiles against tfe's headers and libtfe and
checks that the tape recorded every op, the MLP step and the chain run
through tfe_py's GradientTape, and the three figures are printed. The
figures themselves are recorded in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
def test_bench_gradients_prints_the_three_figures(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    proc = subprocess.run(
        [
            sys.executable, str(ROOT / "benchmarks" / "bench_gradients.py"), "--no-tf",
            "--rounds", "1", "--tape-ops", "50", "--mlp-steps", "1", "--units", "8",
            "--chain-ops", "12", "--chain-size", "4", "--json", str(out),
        ],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    for tag in ("(a) C tape cost per recorded op", "(b) Python MLP training step",
                "(c) 12-op elementwise chain"):  # fmt: skip
        line = next((ln for ln in lines if ln.startswith(tag)), None)
        assert line is not None, proc.stdout
        assert "MEETS" in line or "MISSES" in line or "skipped" in line, line
    assert any(ln.startswith("(d) forward mode") for ln in lines), proc.stdout
    figures = json.loads(out.read_text())
    tape = figures["tape"]
    assert tape["plain_ns"] > 0 and tape["taped_ns"] > 0
    assert math.isfinite(tape["tape_ns"]) and math.isfinite(tape["tape_total_ns"])
    mlp = figures["tfe"]["mlp"]
    assert mlp["ms"] > 0 and math.isfinite(mlp["first_loss"]) and mlp["first_loss"] > 0
    chain = figures["tfe"]["chain"]
    assert chain["fwd_us"] > 0 and chain["bwd_us"] > 0
    # The chain's gradient is finite and not zero (tanh and sin keep it alive).
    assert math.isfinite(chain["grad_sum"]) and chain["grad_sum"] != 0.0
    jvp = figures["tfe"]["jvp"]
    assert jvp["jvp_us"] > 0 and math.isfinite(jvp["jvp_sum"]) and jvp["jvp_sum"] != 0.0
    assert figures["tf"] == {"error": "skipped"}
