"""Shared pieces of the tests that replay single raw-op cases recorded from
TF 2.21 (tools/record_<group>_ops.py -> tests/data/<group>_ops_tf221.json,
cases {name, op, inputs, attrs} with TF's "outputs" or its "error" class and
message): decoding recorded tensors, running a case on tfe, comparing the
outputs and TF's error messages."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import ops

DATA = os.path.join(os.path.dirname(__file__), "..", "data")
COMPLEX = ("complex64", "complex128")


def load_cases(name: str) -> list[dict[str, Any]]:
    """The "cases" of tests/data/<name>."""
    with open(os.path.join(DATA, name)) as f:
        cases: list[dict[str, Any]] = json.load(f)["cases"]
    return cases


def split(cases: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(cases with TF's outputs, cases with TF's error)."""
    return [c for c in cases if "outputs" in c], [c for c in cases if "error" in c]


def decode(spec: dict[str, Any]) -> np.ndarray:
    """A recorded tensor {dtype, shape, value}: complex values as [re, im]
    pairs, strings as text, halves as float64, uint64 possibly as int64 bit
    patterns."""
    dt = spec["dtype"]
    if dt in COMPLEX:
        a = np.asarray(spec["value"], np.float64).reshape([*spec["shape"], 2])
        return (a[..., 0] + 1j * a[..., 1]).astype(dt)
    if dt == "string":
        return np.asarray(spec["value"], dtype=object).reshape(spec["shape"]).astype(bytes)
    if dt in ("bfloat16", "float16"):
        return np.asarray(spec["value"], np.float64).reshape(spec["shape"])
    if dt == "uint64":
        flat = np.asarray(spec["value"], dtype=object).ravel()
        return np.asarray([int(v) % 2**64 for v in flat], np.uint64).reshape(spec["shape"])
    return np.asarray(spec["value"], dtype=dt).reshape(spec["shape"])


def flat(out: Any) -> list[Any]:
    """An op's outputs as one flat list (list outputs spliced in)."""
    if isinstance(out, (list, tuple)):
        res: list[Any] = []
        for o in out:
            res.extend(flat(o))
        return res
    return [out]


def run_case(cs: dict[str, Any], type_attrs: Iterable[str] = ()) -> list[Any]:
    """Runs the case's op eagerly on tfe; attrs named in type_attrs hold dtype
    names. Inputs may be lists of tensors."""
    tas = set(type_attrs)
    kwargs: dict[str, Any] = {k: (getattr(tf, v) if k in tas else v)
                              for k, v in cs["attrs"].items()}
    for name, spec in cs["inputs"].items():
        if isinstance(spec, list):
            kwargs[name] = [tf.constant(decode(x), dtype=x["dtype"]) for x in spec]
        else:
            kwargs[name] = tf.constant(decode(spec), dtype=spec["dtype"])
    return flat(getattr(ops, cs["op"])(**kwargs))


def default_tol(dt: str) -> tuple[float, float]:
    """(rtol, atol) for a float or complex dtype."""
    if dt in ("float16", "bfloat16"):
        return 1e-2, 1e-2
    if dt in ("float32", "complex64"):
        return 2e-6, 2e-6
    return 1e-12, 1e-12


def check_outputs(outs: list[Any], specs: list[dict[str, Any]],
                  tol: Callable[[str], tuple[float, float]] = default_tol,
                  skip: Iterable[int] = (), min_tol: float = 0.0,
                  zeros_and_nans: bool = False) -> None:
    """tfe's outputs against TF's: dtypes and shapes always; values exactly
    for integers, bools and strings, within tol(dtype) (at least min_tol)
    otherwise, except outputs in skip. zeros_and_nans: NaN positions and the
    signs of zeros must be TF's too."""
    assert len(outs) == len(specs)
    skipped = set(skip)
    for i, (got_t, spec) in enumerate(zip(outs, specs, strict=True)):
        dt = spec["dtype"]
        assert got_t.dtype == getattr(tf, dt), (got_t.dtype, dt)
        got = np.asarray(got_t.numpy())
        exp = decode(spec)
        assert got.shape == exp.shape
        if i in skipped:
            continue
        if dt in ("string", "bool") or dt.startswith(("int", "uint")):
            np.testing.assert_array_equal(got, exp)
            continue
        rtol, atol = tol(dt)
        rtol, atol = max(rtol, min_tol), max(atol, min_tol)
        np.testing.assert_allclose(got.astype(exp.dtype if dt in COMPLEX else np.float64),
                                   exp, rtol=rtol, atol=atol)
        if zeros_and_nans and dt not in COMPLEX:
            g64 = got.astype(np.float64)
            np.testing.assert_array_equal(np.isnan(g64), np.isnan(exp))
            np.testing.assert_array_equal(np.signbit(g64[g64 == 0]), np.signbit(exp[g64 == 0]))


def core(msg: str) -> str:
    """TF's message without the eager wrapper ({{function_node ...}} and
    [Op:...]), the op def TF appends to attr errors, and the marker that
    protobuf's debug text varies from run to run."""
    msg = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", msg)
    msg = re.sub(r"\n\t; NodeDef: .*$", "", msg, flags=re.S)
    msg = re.sub(r"goo\.gle/debug\w*\s+", "goo.gle/debug ", msg)
    return re.sub(r"\s*\[Op:[^\]]*\].*$", "", msg, flags=re.S).strip()


def assert_error(cs: dict[str, Any], run: Callable[[], Any],
                 adjust: Callable[[str], str] | None = None) -> None:
    """run() fails with TF's error class and a message holding TF's (both as
    core() leaves them; adjust may cut TF's down first)."""
    cls = getattr(tf.errors, cs["error"]["type"])
    with pytest.raises(cls) as info:
        run()
    want = core(cs["error"]["message"])
    if adjust is not None:
        want = adjust(want)
    assert want in core(str(info.value))


def recorded_tests(cases: list[dict[str, Any]]) -> tuple[Callable[..., None],
                                                        Callable[..., None]]:
    """The two standard tests of a case file, to bind at module level:
    test_output_matches_tf, test_error_matches_tf = recorded_tests(cases)."""
    ok, err = split(cases)

    @pytest.mark.parametrize("cs", ok, ids=[c["name"] for c in ok])
    def test_output_matches_tf(cs: dict[str, Any]) -> None:
        check_outputs(run_case(cs), cs["outputs"])

    @pytest.mark.parametrize("cs", err, ids=[c["name"] for c in err])
    def test_error_matches_tf(cs: dict[str, Any]) -> None:
        assert_error(cs, lambda: run_case(cs))

    return test_output_matches_tf, test_error_matches_tf
