"""The nn_grad kernels (FusedBatchNormGrad/V2/V3, Conv3DBackpropInput,
Conv3DBackpropFilter/V2, MaxPool3DGrad, MaxPool3DGradGrad, AvgPool3DGrad,
MaxPoolGradGrad/V2, MaxPoolGradWithArgmax, Dilation2DBackpropInput/Filter)
through tfe_py.ops, against TF 2.21's results recorded by
tools/record_nn_grad_kernels.py (tests/data/nn_grad_kernels_tf221.json, one
entry per case of nn_grad_kernel_cases.py: outputs, or error class and
message)."""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import numpy as np
import pytest

from tfe_py import errors, ops
from tfe_py.context import default_context
from tfe_py.eager import constant

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from nn_grad_kernel_cases import CASES

EXPECTED = json.loads(
    (pathlib.Path(__file__).parents[1] / "data" / "nn_grad_kernels_tf221.json").read_text()
)

# Results of floating-point sums taken in another order than TF's.
APPROX_OPS = {
    "FusedBatchNormGrad",
    "FusedBatchNormGradV2",
    "FusedBatchNormGradV3",
    "Conv3DBackpropInput",
    "Conv3DBackpropFilter",
    "Conv3DBackpropFilterV2",
    "AvgPool3DGrad",
    "MaxPool3DGrad",
}
TOL = {"float16": 4e-3, "bfloat16": 2e-2, "float32": 2e-5, "float64": 1e-12}


@pytest.fixture(autouse=True)
def _default_exists() -> None:
    default_context()


def _make(v: Any, dt: str) -> Any:
    if isinstance(v, tuple):
        v, dt = v
    if dt == "bfloat16":
        return ops.Cast(x=constant(np.array(v, dtype=np.float32)), DstT="bfloat16")
    return constant(np.array(v, dtype=dt))


def test_case_table_matches_recording() -> None:
    assert len(CASES) == len(EXPECTED)


def _check(op: str, dt: str, got: Any, want: list[Any]) -> None:
    want_vals, want_dt, want_shape = want
    if want_dt == "bfloat16":
        got = ops.Cast(x=got, DstT="float32").numpy()
        want_dt = "float32"
    else:
        got = got.numpy()
    assert got.dtype == np.dtype(want_dt)
    assert list(got.shape) == want_shape
    a = got.astype(np.float64).ravel()
    b = np.asarray(want_vals, dtype=np.float64).reshape(a.shape)
    if op in APPROX_OPS:
        tol = TOL.get(dt, 0.0)
        scale = np.max(np.abs(b), initial=1.0)
        assert (np.abs(a - b) <= tol * scale).all(), (op, dt, a, b)
    else:
        assert (a == b).all(), (op, dt, a, b)


@pytest.mark.parametrize(
    "i", range(len(CASES)), ids=[f"{c[0]}-{c[1]}-{j}" for j, c in enumerate(CASES)]
)
def test_against_tf(i: int) -> None:
    op, dt, ins, attrs = CASES[i]
    exp = EXPECTED[i]
    kw = {k: _make(v, dt) for k, v in ins.items()}
    if "err" in exp:
        with pytest.raises(errors.OpError) as ei:
            getattr(ops, op)(**kw, **attrs)
        assert type(ei.value).__name__ == exp["err"]
        assert str(ei.value).split("\n")[0] == exp["msg"]
        return
    res = getattr(ops, op)(**kw, **attrs)
    outs = list(res) if isinstance(res, (list, tuple)) else [res]
    assert len(outs) == len(exp["ok"])
    for got, want in zip(outs, exp["ok"], strict=True):
        _check(op, dt, got, want)


def test_avg_pool3d_grad_bad_shapes() -> None:
    # TF 2.21's oneDNN AvgPool3DGrad aborts the process on a 4-element
    # shape and reads a grad of the wrong shape anyway; tfe rejects both.
    g = constant(np.ones((2, 3, 4, 2, 2), np.float32))
    kw: dict[str, Any] = {"ksize": [1, 2, 2, 2, 1], "strides": [1, 1, 1, 1, 1], "padding": "VALID"}
    with pytest.raises(errors.InvalidArgumentError):
        ops.AvgPool3DGrad(orig_input_shape=constant(np.array([2, 4, 5, 3], np.int32)), grad=g, **kw)
    with pytest.raises(errors.InvalidArgumentError, match="Expected out_backprop shape"):
        ops.AvgPool3DGrad(
            orig_input_shape=constant(np.array([2, 4, 5, 3, 2], np.int32)),
            grad=constant(np.ones((2, 4, 5, 3, 2), np.float32)), **kw,
        )


def test_argmax_out_of_range() -> None:
    x = constant(np.zeros((1, 2, 2, 1), np.float32))
    g = constant(np.ones((1, 1, 1, 1), np.float32))
    am = constant(np.array([[[[7]]]], np.int64))
    with pytest.raises(errors.InvalidArgumentError):
        ops.MaxPoolGradWithArgmax(
            input=x, grad=g, argmax=am, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID"
        )
