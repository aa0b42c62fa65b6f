"""Maximum/Minimum on float vectors long enough for the vector loops: NaN in
either input gives NaN at that position, everywhere in the vector."""

from __future__ import annotations

import numpy as np
import pytest

import tfe_py
from tfe_py import ops


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op, ref", [("Maximum", np.maximum), ("Minimum", np.minimum)])
def test_nan_propagates_at_every_position(dtype: type, op: str, ref: object) -> None:
    rng = np.random.default_rng(7)
    n = 1027  # not a multiple of any vector width: the tail runs too
    a = rng.standard_normal(n).astype(dtype)
    b = rng.standard_normal(n).astype(dtype)
    a[rng.choice(n, 60, replace=False)] = np.nan
    b[rng.choice(n, 60, replace=False)] = np.nan
    a[:3] = [np.nan, 1.0, np.nan]
    b[:3] = [2.0, np.nan, np.nan]
    fn = getattr(ops, op)
    got = fn(tfe_py.constant(a), tfe_py.constant(b)).numpy()
    want = ref(a, b)  # type: ignore[operator]
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(got[~np.isnan(want)], want[~np.isnan(want)])
    # A scalar second operand takes the same path for every element.
    got_s = fn(tfe_py.constant(a), tfe_py.constant(dtype(0.5))).numpy()
    want_s = ref(a, dtype(0.5))  # type: ignore[operator]
    np.testing.assert_array_equal(np.isnan(got_s), np.isnan(want_s))
    np.testing.assert_array_equal(got_s[~np.isnan(want_s)], want_s[~np.isnan(want_s)])
