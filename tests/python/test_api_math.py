"""tf.math (tfe_py/math.py) against TensorFlow 2.21's recorded results.

tests/data/api_math_tf221.json holds, for each case expression of
tools/record_api_math.py, what TF 2.21 returned (value, dtype, shape) or the
error class it raised; each case runs here with ``import tfe_py as tf``.
Special functions (igamma, igammac, zeta, polygamma, betainc) are compared
on grids that include zeros, negatives, infinities and NaN, to float
precision.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tfe_py as tf

DATA = json.loads(
    (Path(__file__).resolve().parent.parent / "data" / "api_math_tf221.json").read_text()
)
CASES: dict[str, Any] = DATA["cases"]


def _decode(v: Any) -> Any:
    if isinstance(v, list):
        return [_decode(x) for x in v]
    if v == "nan":
        return math.nan
    if v == "inf":
        return math.inf
    if v == "-inf":
        return -math.inf
    return v


def _check_tensor(got: Any, want: dict[str, Any], case: str) -> None:
    assert got.dtype.name == want["dtype"], case
    arr = np.asarray(got.numpy())
    assert list(arr.shape) == want["shape"], case
    value = _decode(want["value"])
    if want["dtype"] == "string":
        assert (
            np.asarray(arr.tolist(), dtype=object).tolist()
            == [v.encode() if isinstance(v, str) else v for v in np.asarray(value).ravel()]
            or arr.tolist() == value
            or arr.tolist() == str(value).encode()
        ), case
        return
    if want["dtype"].startswith("complex"):
        exp = np.asarray(value, dtype=np.float64)
        exp = exp[..., 0] + 1j * exp[..., 1] if exp.size else exp.reshape(arr.shape)
    else:
        exp = np.asarray(value, dtype=np.float64 if arr.dtype.kind in "fc" else arr.dtype)
    if arr.dtype.kind in "fc":
        if want["dtype"] in ("float32", "complex64"):
            rtol, atol = 2e-6, 1e-37
        elif want["dtype"] in ("float16", "bfloat16"):
            rtol, atol = 1e-3, 0
        else:
            rtol, atol = 1e-12, 1e-300
        np.testing.assert_allclose(
            arr.astype(np.complex128 if arr.dtype.kind == "c" else np.float64),
            exp,
            rtol=rtol,
            atol=atol,
            equal_nan=True,
            err_msg=case,
        )
    else:
        np.testing.assert_array_equal(arr, exp, err_msg=case)


@pytest.mark.parametrize("case", sorted(CASES))
def test_case(case: str) -> None:
    want = CASES[case]
    if "error" in want:
        with pytest.raises(Exception) as info:
            eval(case, {"tf": tf, "np": np})
        assert type(info.value).__name__ == want["error"], (case, info.value)
        message = want["message"]
        if "{{" not in message and "[Op:" not in message and len(message) < 300:
            # raised by the Python layer (not decorated by TF's runtime)
            assert str(info.value) == message, case
        return
    got = eval(case, {"tf": tf, "np": np})
    if "parts" in want:
        assert len(got) == len(want["parts"]), case
        for g, w in zip(got, want["parts"], strict=True):
            _check_tensor(g, w, case)
    else:
        _check_tensor(got, want, case)


def test_namespace_complete() -> None:
    """Every name of TF 2.21's tf.math exists, and the '=tf.X' ones are the
    same objects at top level."""
    names = json.loads(
        (Path(__file__).resolve().parent.parent / "data" / "tf_api_names.json").read_text()
    )["namespaces"]["math"]
    for name, kind in names.items():
        assert hasattr(tf.math, name), name
        if "=tf." in kind:
            assert getattr(tf, kind.split("=tf.")[1]) is getattr(tf.math, name), name


def test_signatures_match_tensorflow() -> None:
    """Parameter names, order and defaults (dtype defaults print as TF's)."""
    import inspect

    for name, want in DATA["signatures"].items():
        params = inspect.signature(getattr(tf.math, name)).parameters.values()
        got = [
            [p.name, None if p.default is inspect.Parameter.empty else repr(p.default)]
            for p in params
        ]
        assert got == want, name


def test_toplevel_math_ops() -> None:
    for name in ("truncatediv", "truncatemod", "realdiv", "divide", "scalar_mul", "complex"):
        assert getattr(tf, name) is getattr(tf.math, name)


def test_errors_name_missing_op() -> None:
    with pytest.raises(NotImplementedError, match="SobolSample"):
        tf.math.sobol_sample(3, 4)
    # FresnelCos has a kernel now: C(1) = 0.7798934 (as TF 2.21 prints).
    got = tf.math.special.fresnel_cos(tf.constant([1.0])).numpy()
    assert abs(float(got[0]) - 0.7798934) < 1e-6


def test_python_operators_match_functions() -> None:
    a = tf.constant([7, -7])
    b = tf.constant([2, 2])
    assert (a // b).numpy().tolist() == tf.math.floordiv(a, b).numpy().tolist() == [3, -4]
    assert (a % b).numpy().tolist() == tf.math.floormod(a, b).numpy().tolist() == [1, 1]
    assert (a / b).dtype == tf.float64


def test_inside_function_graph() -> None:
    @tf.function
    def f(x: Any) -> Any:
        return tf.reduce_logsumexp(x, axis=1) + tf.math.reduce_std(x)

    x = tf.constant([[0.0, 1.0], [2.0, 3.0]])
    np.testing.assert_allclose(
        f(x).numpy(), tf.reduce_logsumexp(x, axis=1).numpy() + tf.math.reduce_std(x).numpy()
    )


def test_unknown_shapes_in_graphs() -> None:
    """Reductions over all axes and softmax along a non-last axis work when
    the rank is only known when the graph runs."""
    spec = [tf.TensorSpec(shape=None, dtype=tf.float32)]
    x = tf.constant([[1.0, 2.0], [3.0, 5.0]])
    cases = {
        "sum": lambda v: tf.reduce_sum(v),
        "logsumexp": lambda v: tf.reduce_logsumexp(v),
        "softmax0": lambda v: tf.math.softmax(v, axis=0),
        "std": lambda v: tf.math.reduce_std(v),
        "monotonic": lambda v: tf.math.is_non_decreasing(v),
    }
    for name, fn in cases.items():
        got = tf.function(fn, input_signature=spec)(x)
        np.testing.assert_allclose(got.numpy(), fn(x).numpy(), rtol=1e-6, err_msg=name)


def test_add_is_cheap() -> None:
    """tf.add on scalars costs about what the raw op wrapper costs (the
    issue asks for at most 2x; the bound here leaves room for a loaded
    machine). Runs of the two alternate so that load hits both alike."""
    a = tf.constant(1.0)
    b = tf.constant(2.0)
    raw = tf.ops.AddV2

    def run(fn: Any) -> float:
        t0 = time.perf_counter()
        for _ in range(1000):
            fn(a, b)
        return time.perf_counter() - t0

    run(tf.add)
    run(raw)
    best_add = best_raw = math.inf
    for _ in range(20):
        best_raw = min(best_raw, run(raw))
        best_add = min(best_add, run(tf.add))
    assert best_add < 3.0 * best_raw
