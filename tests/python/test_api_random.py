"""tf.random against TensorFlow 2.21's numbers.

The cases (TF-style snippets) live in tools/record_api_random.py, which
recorded TF's results into tests/data/api_random_tf221.json; each snippet
runs here with ``tf`` bound to tfe_py and must give exactly TF's values
(floats to the last bit; they are produced by the same Philox words and
conversions) or raise the same exception class.
"""

from __future__ import annotations

import json
import math
import os
import sys
from typing import Any

import numpy as np
import pytest

import tfe_py
from tfe_py import errors
from tfe_py import random as trandom

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))

import record_api_random  # noqa: E402

with open(os.path.join(HERE, "..", "data", "api_random_tf221.json")) as _f:
    _EXPECTED: dict[str, Any] = json.load(_f)["cases"]


class _TF:
    """tfe_py as the snippets see it: tfe has no tf.Variable yet (the
    autodiff issue adds it), so the raw-op cases get the resource variable
    the Generator uses."""

    raw_ops = tfe_py.ops

    @staticmethod
    def Variable(value: Any, dtype: Any = None) -> Any:
        return trandom._StateVariable(tfe_py.constant(value, dtype))

    def __getattr__(self, name: str) -> Any:
        return getattr(tfe_py, name)


_ERRORS = {
    "InvalidArgumentError": errors.InvalidArgumentError,
    "UnimplementedError": errors.UnimplementedError,
    "ValueError": ValueError,
    "TypeError": TypeError,
}


def _same(got: Any, want: Any, where: str) -> None:
    if "list" in want:
        assert isinstance(got, (list, tuple)), where
        assert len(got) == len(want["list"]), where
        for i, (g, w) in enumerate(zip(got, want["list"], strict=True)):
            _same(g, w, f"{where}[{i}]")
        return
    if "py" in want:
        assert got == want["py"], where
        return
    if "repr" in want:
        assert repr(got) == want["repr"], where
        return
    if "dtype" in want:
        assert got.dtype.name == want["dtype"], where
        arr = got.numpy()
        assert list(arr.shape) == want["shape"], where
        if arr.dtype.kind in "SUO":
            vals = [x.decode() if isinstance(x, bytes) else x for x in arr.ravel().tolist()]
            assert vals == want["values"], where
            return
        if want["dtype"] == "bfloat16" or arr.dtype.kind == "f":
            vals = np.asarray(arr, dtype=np.float64).ravel().tolist()
        else:
            vals = arr.ravel().tolist()
        assert len(vals) == len(want["values"]), where
        for g, w in zip(vals, want["values"], strict=True):
            if isinstance(w, float) and math.isnan(w):
                assert math.isnan(g), where
            else:
                assert g == w, f"{where}: {vals} != {want['values']}"
        return
    raise AssertionError(f"unknown record {want}")


@pytest.mark.parametrize(
    "name,code", record_api_random.CASES, ids=[c[0] for c in record_api_random.CASES]
)
def test_case_matches_tf(name: str, code: str) -> None:
    want = _EXPECTED[name]
    lines = code.split("\n")
    env: dict[str, Any] = {"tf": _TF()}
    if "error" in want:
        with pytest.raises(_ERRORS[want["error"]]):
            exec("\n".join(lines[:-1]), env)
            eval(lines[-1], env)
        return
    exec("\n".join(lines[:-1]), env)
    got = eval(lines[-1], env)
    _same(got, want, name)


def test_get_seed_rules() -> None:
    trandom.set_seed(None)
    assert trandom.get_seed(None) == (None, None)
    assert trandom.get_seed(5) == (trandom.DEFAULT_GRAPH_SEED, 5)
    trandom.set_seed(0)
    # (0, 0) would mean "non-deterministic" to the kernels
    assert trandom.get_seed(0) == (0, 2**31 - 1)
    trandom.set_seed(2**31 + 4)
    s1 = trandom.get_seed(None)[0]
    assert s1 == (2**31 + 4) % (2**31 - 1)
    # the op seed stream is Python's random.Random(global seed)
    import random

    rng = random.Random(2**31 + 4)
    rng.randint(0, 2**31 - 1)
    assert trandom.get_seed(None)[1] == rng.randint(0, 2**31 - 1)
    trandom.set_seed(None)


def test_unseeded_calls_differ() -> None:
    trandom.set_seed(None)
    a = trandom.uniform([8]).numpy()
    b = trandom.uniform([8]).numpy()
    assert not np.array_equal(a, b)
    assert ((a >= 0) & (a < 1)).all()


def test_toplevel_and_experimental_names() -> None:
    assert tfe_py.random.experimental.stateless_split is trandom.split
    assert tfe_py.random.experimental.Generator is trandom.Generator
    assert set(dir(tfe_py.random.experimental)) >= {"index_shuffle", "stateless_fold_in"}


def test_fixed_unigram_sampler_needs_one_source(tmp_path: Any) -> None:
    with pytest.raises(errors.InvalidArgumentError, match="either vocab_file or unigrams"):
        trandom.fixed_unigram_candidate_sampler([[1]], 1, 2, True, 5)
    vocab = tmp_path / "v.txt"
    vocab.write_text("1\n2\n3\n4\n5\n")
    with pytest.raises(errors.InvalidArgumentError, match="only provide one"):
        trandom.fixed_unigram_candidate_sampler(
            [[1]], 1, 2, True, 5, vocab_file=str(vocab), unigrams=[1.0] * 5
        )
    bad = tmp_path / "bad.txt"
    bad.write_text("a,1\nb,zz\n")
    with pytest.raises(errors.InvalidArgumentError, match="Wrong vocabulary format"):
        trandom.fixed_unigram_candidate_sampler([[1]], 1, 2, True, 2, vocab_file=str(bad))


def test_random_shuffle_keeps_rows() -> None:
    x = tfe_py.constant(np.arange(20, dtype=np.float32).reshape(5, 4))
    y = trandom.shuffle(x, seed=3).numpy()
    assert sorted(map(tuple, y.tolist())) == sorted(map(tuple, x.numpy().tolist()))


def test_generator_state_is_three_int64() -> None:
    g = trandom.Generator.from_seed(99)
    assert g.state.numpy().tolist() == [99, 0, 0]
    g.normal([7])
    # 7 outputs move the 128-bit counter on by 7 * 256
    assert g.state.numpy().tolist() == [99 + 7 * 256, 0, 0]


def test_kernel_errors() -> None:
    ops = tfe_py.ops
    with pytest.raises(errors.InvalidArgumentError, match="seed must have shape"):
        ops.StatelessRandomPoisson([2], [1, 2, 3], 1.0, dtype=tfe_py.int32)
    with pytest.raises(errors.InvalidArgumentError, match="must end with broadcasted shape"):
        ops.StatelessRandomPoisson([2], [1, 2], tfe_py.constant([1.0, 2.0, 3.0]),
                                   dtype=tfe_py.int32)
    with pytest.raises(errors.InvalidArgumentError, match="compatible batch dimensions"):
        ops.StatelessRandomBinomial([2], [1, 2], tfe_py.constant([1.0, 2.0]),
                                    tfe_py.constant([0.1, 0.2, 0.3]))
    with pytest.raises(errors.InvalidArgumentError, match="Unsupported algorithm id"):
        ops.StatelessShuffle(tfe_py.constant([1, 2, 3]), tfe_py.constant([1], tfe_py.uint64),
                             tfe_py.constant([1, 2], tfe_py.uint64), 2)
