"""Math and bitwise kernels against TF 2.21's outputs and errors
(tests/data/coverage_math_tf221.json, written by tools/record_coverage_math.py),
and every CPU dtype TF registers for them has a recorded case."""

from __future__ import annotations

from typing import Any

import pytest
from coverage_common import check_case, check_dtype_coverage, ids, load

_CASES = load("math")
_DTYPE_OPS = [
    ("Greater", "T"), ("GreaterEqual", "T"), ("Less", "T"), ("LessEqual", "T"),
    ("NotEqual", "T"), ("ApproximateEqual", "T"), ("IsFinite", "T"), ("IsInf", "T"),
    ("Floor", "T"), ("Ceil", "T"), ("Rint", "T"), ("Round", "T"), ("Mod", "T"),
    ("TruncateMod", "T"), ("TruncateDiv", "T"), ("ArgMax", "T"), ("ArgMin", "T"),
    ("Bincount", "T"), ("DenseBincount", "T"), ("Bucketize", "T"), ("LinSpace", "T"),
    ("Igammac", "T"), ("BitwiseAnd", "T"), ("BitwiseOr", "T"), ("BitwiseXor", "T"),
    ("LeftShift", "T"), ("RightShift", "T"), ("Invert", "T"), ("PopulationCount", "T"),
]


@pytest.mark.parametrize("cs", _CASES, ids=ids(_CASES))
def test_matches_tf(cs: dict[str, Any]) -> None:
    check_case(cs)


@pytest.mark.parametrize("op,attr", _DTYPE_OPS)
def test_every_tf_dtype_recorded(op: str, attr: str) -> None:
    check_dtype_coverage(_CASES, op, attr)
