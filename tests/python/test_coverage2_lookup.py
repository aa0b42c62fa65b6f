"""Lookup-table kernels (csrc/kernels/cpu/lookup_*.c) against TF 2.21's
recorded op sequences (tools/record_coverage2_lookup.py ->
tests/data/coverage2_lookup_tf221.json): every CPU key/value dtype pair,
v1 ref-handle forms in graphs, text-file initializers, error cases. Table
exports are compared as multisets (TF's order is its hash map's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from coverage2_seq_common import load, run

_SEQS = load("coverage2_lookup_tf221.json")


@pytest.mark.parametrize("seq", _SEQS, ids=[s["name"] for s in _SEQS])
def test_lookup_sequence_matches_tf(seq: dict[str, Any], tmp_path: Path) -> None:
    run(seq, str(tmp_path))
