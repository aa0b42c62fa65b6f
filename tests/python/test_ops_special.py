"""Special-function ops (Bessel I0/I1/K0/K1 plain and scaled, J0/J1/Y0/Y1,
Ndtri, Erfinv, Dawsn, Expint) through tfe_py.ops, against values recorded
from TensorFlow 2.21 and from mpmath (ops_special_tf221.json, written by
record_ops_special_tf221.py).

Each case checks:
- where TF's result is not finite (NaN, +-inf: poles, out-of-domain
  arguments, overflow) or the argument is not finite, tfe returns exactly
  TF's value;
- elsewhere tfe is within a few units in the last place of the true value
  (mpmath at 200 bits, rounded to the dtype; denormal results flush to
  zero as in TF; for J0/J1/Y0/Y1 near their zeros, a few ulps of the
  oscillation's envelope), and within a few ulps of TF's value wherever TF's value
  is the more accurate one. TF's J0/J1/Y0/Y1 (near zeros of the function
  and for large arguments), Erfinv (tiny arguments, and arguments near
  +-1) and Expint (near its zero) lose accuracy; tfe stays close to the
  true value there."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest

from tfe_py import errors, ops
from tfe_py.context import default_context
from tfe_py.eager import constant

CASES: list[dict[str, Any]] = json.loads(
    (pathlib.Path(__file__).parent / "ops_special_tf221.json").read_text()
)

# Largest distance from the true value, in units in the last place of the
# dtype (float16 and float32 results come from a double computation; the
# largest double errors seen over wide random samples are about 10 ulps).
REF_ULPS = {"float64": 12.0, "float32": 1.0, "float16": 1.0}
# BesselI0/I0e/I1/I1e in float32 are evaluated in float as TF's kernel does
# (its Chebyshev expansions), to give TF's digits; TF's own float results
# are up to about 5 ulps from the true value.
REF_ULPS_FLOAT_BESSEL_I = 6.0

# Distance allowed from TF's value, in units in the last place, where TF's
# value is at least as close to the true one as tfe's.
TF_ULPS = 32.0


@pytest.fixture(autouse=True)
def _default_exists() -> None:
    default_context()


def _ulp(v: np.ndarray, dt: str) -> np.ndarray:
    return np.spacing(np.abs(v).astype(dt)).astype(np.float64)


@pytest.mark.parametrize(
    "i", range(len(CASES)), ids=[f"{c['op']}-{c['dtype']}-{j}" for j, c in enumerate(CASES)]
)
def test_against_tf_and_reference(i: int) -> None:
    case = CASES[i]
    op, dt = case["op"], case["dtype"]
    x = constant(np.array(case["x"], dtype=dt))
    if "err" in case:
        with pytest.raises(errors.OpError) as ei:
            getattr(ops, op)(x=x)
        assert type(ei.value).__name__ == case["err"]
        assert str(ei.value).split("\n")[0] == case["msg"]
        return
    got_t = getattr(ops, op)(x=x).numpy()
    assert got_t.dtype == np.dtype(dt)
    assert got_t.shape == (len(case["x"]),)
    got = got_t.astype(np.float64)
    tfv = np.array(case["tf"], dtype=np.float64)
    ref = np.array(case["ref"], dtype=np.float64)
    xin = np.array(case["x"], dtype=np.float64)
    exact = ~np.isfinite(tfv) | ~np.isfinite(xin) | np.isnan(ref)
    for j in np.nonzero(exact)[0]:
        a, b = got[j], tfv[j]
        assert (np.isnan(a) and np.isnan(b)) or a == b, (j, xin[j], a, b)
    m = ~exact
    # the true value
    err = np.abs(got[m] - ref[m])
    ulps = REF_ULPS[dt]
    if dt == "float32" and op.startswith("BesselI"):
        ulps = REF_ULPS_FLOAT_BESSEL_I
    lim = ulps * _ulp(ref[m], dt)
    if op[:7] in ("BesselJ", "BesselY"):
        # these oscillate; near their zeros the error is relative to the
        # envelope sqrt(2 / (pi x)) (capped at 1), not to the value
        env = np.minimum(1.0, np.sqrt(2 / (np.pi * np.maximum(np.abs(xin[m]), 1e-300))))
        lim = np.maximum(lim, 4 * _ulp(env, dt))
    bad = np.nonzero(err > lim)[0]
    assert bad.size == 0, [(xin[m][j], got[m][j], ref[m][j], tfv[m][j]) for j in bad[:5]]
    # TF's value, unless tfe is the closer of the two to the true value
    err_tf = np.abs(got[m] - tfv[m])
    closer = err <= np.abs(tfv[m] - ref[m])
    bad = np.nonzero((err_tf > TF_ULPS * _ulp(tfv[m], dt)) & ~closer)[0]
    assert bad.size == 0, [(xin[m][j], got[m][j], tfv[m][j], ref[m][j]) for j in bad[:5]]


def test_shapes_and_empty() -> None:
    x = constant(np.array([[0.5, 1.0], [2.0, 3.0]], dtype=np.float32))
    y = ops.BesselI0e(x=x).numpy()
    assert y.shape == (2, 2)
    assert y[0, 1] == np.float32(0.46575963)  # TF 2.21's float digits
    e = ops.Dawsn(x=constant(np.zeros((0, 3), dtype=np.float64))).numpy()
    assert e.shape == (0, 3)
    s = ops.Ndtri(x=constant(np.float64(0.975))).numpy()
    assert s.shape == ()
    assert abs(s - 1.959963984540054) < 1e-15
