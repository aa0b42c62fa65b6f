"""Queue, stack, Stage and TensorArray kernels against TF 2.21's
recorded op sequences (tools/record_coverage2_queue.py ->
tests/data/coverage2_queue_tf221.json): FIFO / padding / random shuffle
queues (V2 eagerly, v1 ref forms in graphs), StackV2 ops, Stage ops,
TensorArrayConcatV3 and TensorArrayGradWithShape, error cases. Takes from a
seeded RandomShuffleQueue are compared as multisets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from coverage2_seq_common import load, run

_SEQS = load("coverage2_queue_tf221.json")


@pytest.mark.parametrize("seq", _SEQS, ids=[s["name"] for s in _SEQS])
def test_queue_sequence_matches_tf(seq: dict[str, Any], tmp_path: Path) -> None:
    run(seq, str(tmp_path))
