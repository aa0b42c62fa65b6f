"""Array, string, parsing and linalg kernels against TF 2.21's outputs and
errors (tests/data/coverage_array_tf221.json, written by
tools/record_coverage_array.py), and every CPU dtype TF registers for them
has a recorded case."""

from __future__ import annotations

from typing import Any

import pytest
from coverage_common import check_case, check_dtype_coverage, ids, load

_CASES = load("array")
_DTYPE_OPS = [
    ("BroadcastGradientArgs", "T"), ("ConcatOffset", "shape_type"), ("InvertPermutation", "T"),
    ("ListDiff", "T"), ("LowerBound", "T"), ("UpperBound", "T"), ("UniqueWithCounts", "T"),
    ("Size", "out_type"), ("Empty", "dtype"), ("SerializeTensor", "T"),
    ("MatrixLogarithm", "T"), ("ZerosLike", "T"),
]


@pytest.mark.parametrize("cs", _CASES, ids=ids(_CASES))
def test_matches_tf(cs: dict[str, Any]) -> None:
    check_case(cs)


@pytest.mark.parametrize("op,attr", _DTYPE_OPS)
def test_every_tf_dtype_recorded(op: str, attr: str) -> None:
    check_dtype_coverage(_CASES, op, attr)

