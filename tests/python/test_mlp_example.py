"""tfe_py/examples/train_mlp.py: a small MLP trained with GradientTape and
Adam on tfe's C core prints a loss that goes down (issue 17's example)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

from tfe_py.examples import train_mlp

ROOT = Path(__file__).resolve().parents[2]


def test_loss_goes_down() -> None:
    losses = train_mlp.main(steps=120)
    assert losses[0] > 1.0
    assert losses[-1] < 0.02 * losses[0]
    # Mostly downhill: Adam may wobble, but not much.
    assert sum(b > a for a, b in itertools.pairwise(losses)) < len(losses) // 4


def test_runs_as_a_module() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tfe_py.examples.train_mlp"],
        capture_output=True, text=True, check=True, cwd=ROOT, timeout=300,
    )
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith("step")]
    assert lines[0].startswith("step    0") and lines[-1].startswith("step  199")
    assert float(lines[-1].split()[-1]) < float(lines[0].split()[-1]) / 50


def test_matches_tensorflow() -> None:
    """Issue 17: from the same initial weights, the example's loss after
    100 Adam steps equals TF 2.21's (Keras Adam) within 1e-4, and so does
    every loss on the way (TF's curve recorded by tools/record_mlp_example.py)."""
    data = json.loads((ROOT / "tests" / "data" / "mlp_example_tf221.json").read_text())
    theirs = data["losses"]
    assert data["steps"] == 100 and len(theirs) == 101
    mine = train_mlp.main(steps=101)
    assert abs(mine[100] - theirs[100]) < 1e-4
    assert max(abs(a - b) for a, b in zip(mine, theirs, strict=True)) < 1e-4
    assert theirs[100] < theirs[0] / 100
