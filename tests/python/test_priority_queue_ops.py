"""PriorityQueue / PriorityQueueV2 kernels against TF 2.21's recorded op
sequences (tools/record_priority_queue_ops.py ->
tests/data/priority_queue_ops_tf221.json): every value dtype, TF's order
among equal priorities, several value components, the v1 ref form in a
graph, and error cases with TF's classes and messages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from coverage2_seq_common import load, run

_SEQS = load("priority_queue_ops_tf221.json")


@pytest.mark.parametrize("seq", _SEQS, ids=[s["name"] for s in _SEQS])
def test_priority_queue_sequence_matches_tf(seq: dict[str, Any], tmp_path: Path) -> None:
    run(seq, str(tmp_path))
