"""Random kernels against TF 2.21 bit for bit: seeded stateful ops,
stateless ops, counter-based ops on a resource variable (graph cases),
RandomIndexShuffle and the candidate samplers
(tests/data/coverage_random_tf221.json, written by
tools/record_coverage_random.py), and every CPU dtype TF registers for
them has a recorded case. Every seeded case has seeds of its own."""

from __future__ import annotations

from typing import Any

import pytest
from coverage_common import check_case, check_dtype_coverage, ids, load

_CASES = load("random")
_DTYPE_OPS = [
    ("RandomStandardNormal", "dtype"), ("RandomUniform", "dtype"), ("TruncatedNormal", "dtype"),
    ("RandomGamma", "T"), ("RandomPoissonV2", "R"), ("RandomShuffle", "T"),
    ("ParameterizedTruncatedNormal", "dtype"), ("StatelessRandomNormalV2", "dtype"),
    ("StatelessRandomUniformV2", "dtype"), ("StatelessShuffle", "T"),
    ("StatelessRandomBinomial", "dtype"), ("StatelessRandomPoisson", "dtype"),
    ("RandomIndexShuffle", "dtype"),
]


@pytest.mark.parametrize("cs", _CASES, ids=ids(_CASES))
def test_matches_tf(cs: dict[str, Any]) -> None:
    check_case(cs)


@pytest.mark.parametrize("op,attr", _DTYPE_OPS)
def test_every_tf_dtype_recorded(op: str, attr: str) -> None:
    check_dtype_coverage(_CASES, op, attr)
