"""The TF-style corpus (issue 16): every program of tests/tf_corpus/programs,
run with ``import tfe_py as tf`` in place of ``import tensorflow as tf``,
prints exactly what TensorFlow 2.21 printed (tests/tf_corpus/expected).

One test per program; tools/run_tf_corpus.py does the running (the same code
as ``python tools/run_tf_corpus.py``, which prints a summary by area).
"""

from __future__ import annotations

import difflib
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("run_tf_corpus", ROOT / "tools" / "run_tf_corpus.py")
assert _spec is not None and _spec.loader is not None
runner = importlib.util.module_from_spec(_spec)
sys.modules["run_tf_corpus"] = runner
_spec.loader.exec_module(runner)

PROGRAMS = sorted(runner.PROGRAMS.glob("*.py"))


def test_corpus_is_large_enough() -> None:
    # The issue asks for at least 150 programs, each with TF's recorded output.
    assert len(PROGRAMS) >= 150
    missing = [p.stem for p in PROGRAMS if not (runner.EXPECTED / f"{p.stem}.out").exists()]
    assert missing == []


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_prints_tensorflows_output(program: Path) -> None:
    result = runner.run_one(program)
    if not result.passed:
        diff = "\n".join(
            difflib.unified_diff(
                result.expected.splitlines(),
                result.stdout.splitlines(),
                "tensorflow",
                "tfe_py",
                lineterm="",
            )
        )
        pytest.fail(
            f"{program.name}: exit status {result.status} (TF: {result.expected_status})\n"
            f"{diff}\n--- stderr ---\n{result.stderr[-2000:]}"
        )
