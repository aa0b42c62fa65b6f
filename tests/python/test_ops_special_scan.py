"""CumulativeLogsumexp through tfe_py.ops against TF 2.21's outputs and
errors (ops_special_scan_tf221.json, written by
record_ops_special_scan_tf221.py): every attr combination, each axis
(negative ones too), NaN/inf handling, the four dtypes, empty tensors and
TF's axis errors. Float results may differ from TF's in the last bits
(TF's vectorized exp/log1p along non-innermost axes), so they are compared
within a few ulps per step; half and bfloat16 within one ulp of the type."""

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
    (pathlib.Path(__file__).parent / "ops_special_scan_tf221.json").read_text()
)
RTOL = {"float32": 2e-6, "float64": 1e-14, "float16": 2e-3, "bfloat16": 1.6e-2}


@pytest.fixture(autouse=True)
def _default_exists() -> None:
    default_context()


@pytest.mark.parametrize(
    "i", range(len(CASES)), ids=[f"{c['dt']}-{j}" for j, c in enumerate(CASES)]
)
def test_against_tf(i: int) -> None:
    c = CASES[i]
    xa = np.array(c["x"], dtype=np.float64).reshape(c.get("zeros", np.shape(c["x"])))
    if c["dt"] == "bfloat16":  # no numpy bfloat16: cast from float32
        x = ops.Cast(x=constant(xa.astype(np.float32)), DstT="bfloat16")
    else:
        x = constant(xa, dtype=c["dt"])
    axis = constant(np.array(c["axis"], dtype=c.get("axis_dt", "int32")))
    kw = {"exclusive": c.get("exclusive", False), "reverse": c.get("reverse", False)}
    if "err" in c:
        with pytest.raises(errors.OpError) as ei:
            ops.CumulativeLogsumexp(x=x, axis=axis, **kw)
        assert type(ei.value).__name__ == c["err"]
        assert str(ei.value).split("\n")[0] == c["msg"]
        return
    y = ops.CumulativeLogsumexp(x=x, axis=axis, **kw)
    assert y.dtype.name == c["dt"]
    got = np.asarray(ops.Cast(x=y, DstT="float64").numpy()).ravel()
    assert list(y.shape) == c["shape"]
    want = np.array(c["ok"], dtype=np.float64)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    fin = np.isfinite(want)
    assert np.array_equal(got[~fin & ~np.isnan(want)], want[~fin & ~np.isnan(want)])
    np.testing.assert_allclose(got[fin], want[fin], rtol=RTOL[c["dt"]], atol=1e-300)
