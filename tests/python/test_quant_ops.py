"""The quant op group's kernels (FakeQuantWithMinMaxArgs/Vars/VarsPerChannel
and their gradients) against TF 2.21's outputs and errors for the same
inputs (tests/data/quant_ops_tf221.json, written by
tools/record_quant_ops.py). Outputs must be bit-identical (TF's nudging
and rounding), NaNs and signed zeros included."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from recorded_ops import assert_error, load_cases, split

import tfe_py as tf
from tfe_py import ops

_CASES = load_cases("quant_ops_tf221.json")


def _arr(spec: dict[str, Any]) -> np.ndarray:
    return np.array(spec["value"], spec["dtype"]).reshape(spec["shape"])


def _run(cs: dict[str, Any]) -> list[Any]:
    kwargs: dict[str, Any] = dict(cs["attrs"])
    for name, spec in cs["inputs"].items():
        kwargs[name] = tf.constant(_arr(spec), dtype=spec["dtype"])
    res = getattr(ops, cs["op"])(**kwargs)
    return list(res) if isinstance(res, (list, tuple)) else [res]


_OK, _ERR = split(_CASES)


@pytest.mark.parametrize("cs", _OK, ids=[c["name"] for c in _OK])
def test_output_matches_tf(cs: dict[str, Any]) -> None:
    outs = _run(cs)
    assert len(outs) == len(cs["outputs"])
    for i, (got_t, spec) in enumerate(zip(outs, cs["outputs"], strict=True)):
        got = np.asarray(got_t.numpy())
        exp = _arr(spec)
        assert got.dtype == exp.dtype
        assert got.shape == exp.shape
        np.testing.assert_array_equal(np.isnan(got), np.isnan(exp))
        ok = ~np.isnan(exp)
        if i > 0:
            # backprop_wrt_min/max are sums: TF's Eigen reduction adds in
            # another order, so the last bits may differ
            np.testing.assert_allclose(got[ok], exp[ok], rtol=1e-5, atol=1e-6)
            continue
        # bit-identical (signed zeros too)
        np.testing.assert_array_equal(got[ok].view(np.uint32), exp[ok].view(np.uint32))


@pytest.mark.parametrize("cs", _ERR, ids=[c["name"] for c in _ERR])
def test_error_matches_tf(cs: dict[str, Any]) -> None:
    assert_error(cs, lambda: _run(cs))


def test_per_channel_scalar_input_is_an_error() -> None:
    # TF 2.21 aborts the process here; tfe reports INVALID_ARGUMENT
    m = tf.constant(np.float32([-1.0]))
    x = tf.constant(np.float32(0.5))
    with pytest.raises(tf.errors.InvalidArgumentError):
        ops.FakeQuantWithMinMaxVarsPerChannel(inputs=x, min=m, max=m + 2)
    with pytest.raises(tf.errors.InvalidArgumentError):
        ops.FakeQuantWithMinMaxVarsPerChannelGradient(gradients=x, inputs=x, min=m, max=m + 2)


def test_every_op_has_cases() -> None:
    ops_seen = {c["op"] for c in _OK} & {c["op"] for c in _ERR}
    assert ops_seen == {
        "FakeQuantWithMinMaxArgs",
        "FakeQuantWithMinMaxArgsGradient",
        "FakeQuantWithMinMaxVars",
        "FakeQuantWithMinMaxVarsGradient",
        "FakeQuantWithMinMaxVarsPerChannel",
        "FakeQuantWithMinMaxVarsPerChannelGradient",
    }
