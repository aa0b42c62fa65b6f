"""Checkpoint and file-name kernels against TF 2.21's
recorded op sequences (tools/record_coverage2_io.py ->
tests/data/coverage2_io_tf221.json): SaveV2/RestoreV2, Save/Restore,
SaveSlices/RestoreSlice, MergeV2Checkpoints, MatchingFiles, ShardedFilename,
ShardedFilespec in a temporary directory, restored values and error cases
(class and message)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from coverage2_seq_common import load, run

_SEQS = load("coverage2_io_tf221.json")


@pytest.mark.parametrize("seq", _SEQS, ids=[s["name"] for s in _SEQS])
def test_io_sequence_matches_tf(seq: dict[str, Any], tmp_path: Path) -> None:
    run(seq, str(tmp_path))
