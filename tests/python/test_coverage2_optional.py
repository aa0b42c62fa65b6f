"""Optional kernels (OptionalFromValue, OptionalHasValue, OptionalGetValue,
OptionalNone) against TF 2.21's recorded op sequence
(tools/record_coverage2_optional.py -> tests/data/coverage2_optional_tf221.json),
values and error cases (class and message)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from coverage2_seq_common import load, run

_SEQS = load("coverage2_optional_tf221.json")


@pytest.mark.parametrize("seq", _SEQS, ids=[s["name"] for s in _SEQS])
def test_optional_sequence_matches_tf(seq: dict[str, Any], tmp_path: Path) -> None:
    run(seq, str(tmp_path))
