"""Seeded stateful random ops keep TF 2.21's generator state: shared by
equal eager ops, one per node of each function instantiation / session
graph, continued across calls and While iterations (values recorded by
tools/record_random_state_s9.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from random_state_s9_programs import programs

import tfe_py as tf

DATA = json.loads(
    (Path(__file__).resolve().parent.parent / "data" / "random_state_s9_tf221.json").read_text()
)["programs"]
PROGRAMS = programs(tf)


def test_every_recorded_program_exists() -> None:
    assert sorted(DATA) == sorted(PROGRAMS)


@pytest.mark.parametrize("name", sorted(DATA))
def test_draws_match_tf(name: str) -> None:
    got = PROGRAMS[name]()
    want = DATA[name]
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        np.testing.assert_array_equal(g.astype(np.float64), np.asarray(w), err_msg=f"draw {k}")


def test_function_draws_restart_per_function_not_per_call() -> None:
    # The two functions' first draws agree; a second call continues.
    d = DATA["two_functions"]
    assert d[0] == d[1] and d[2] == d[3] and d[0] != d[2]
