"""TensorList kernels (csrc/kernels/cpu/list_kernels.c) against TF 2.21's
recorded op sequences (tools/record_coverage2_list.py ->
tests/data/coverage2_list_tf221.json): all 20 TensorList ops on every CPU
element dtype (stacked, gathered, concatenated tensors, lengths, element
shapes) and TF's error classes and messages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from coverage2_seq_common import load, run

_SEQS = load("coverage2_list_tf221.json")


@pytest.mark.parametrize("seq", _SEQS, ids=[s["name"] for s in _SEQS])
def test_list_sequence_matches_tf(seq: dict[str, Any], tmp_path: Path) -> None:
    run(seq, str(tmp_path))
