"""Stateful kernels (lookup tables, TensorLists, queues, stacks, Stage,
resource and reference variables, checkpoint io, control flow) against
TF 2.21: each case builds the same graph, runs the same sequence of session
runs on one set of resources and compares every fetched value and error
with tests/data/coverage_state_tf221.json (tools/record_coverage_state.py).
``{tmp}`` in recorded strings is a scratch directory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from coverage_common import check_case, ids, load

_CASES = load("state")


@pytest.mark.parametrize("cs", _CASES, ids=ids(_CASES))
def test_matches_tf(cs: dict[str, Any], tmp_path: Path) -> None:
    check_case(cs, tmp=str(tmp_path))
