"""ParseExampleV2, ParseExample and ParseSingleExample
(csrc/kernels/cpu/parse_example.c) against TF 2.21's
outputs and errors for the same serialized tf.train.Examples
(tests/data/parse_example_tf221.json, written by
tools/record_parse_example.py), plus malformed-input checks that need no
recorded data (errors, never crashes)."""

from __future__ import annotations

import base64
import json
import os
import re
from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import ops

_PATH = os.path.join(os.path.dirname(__file__), "..", "data", "parse_example_tf221.json")
with open(_PATH) as _f:
    _CASES: list[dict[str, Any]] = json.load(_f)["cases"]


def _arr(spec: dict[str, Any]) -> np.ndarray:
    if spec["dtype"] == "string":
        return np.asarray([v.encode("latin-1") for v in spec["value"]],
                          dtype=object).reshape(spec["shape"])
    return np.asarray(spec["value"], dtype=spec["dtype"]).reshape(spec["shape"])


def _const(a: np.ndarray, dtype: str) -> Any:
    if dtype == "string":
        return tf.constant(a.astype(bytes) if a.size else np.zeros(a.shape, dtype=bytes),
                           dtype=tf.string)
    return tf.constant(a, dtype=getattr(tf, dtype))


def _strings(xs: list[bytes], scalar: bool = False) -> Any:
    if scalar:
        return tf.constant(xs[0], dtype=tf.string)
    # A list of bytes, not a numpy "S" array (that drops trailing NULs).
    return tf.constant(list(xs), dtype=tf.string) if xs else tf.constant(
        np.zeros([0], bytes), dtype=tf.string)


def _run_v2(cs: dict[str, Any]) -> list[Any]:
    ser = [base64.b64decode(s) for s in cs["serialized"]]
    defaults = [_const(_arr(d[1]), d[1]["dtype"]) for d in cs["dense"]]
    sparse_types = [getattr(tf, t) for _, t in cs["sparse"]]
    shapes = [d[2] for d in cs["dense"]]
    if cs.get("op") == "ParseExample":
        out = ops.ParseExample(
            serialized=_strings(ser), names=_strings([n.encode() for n in cs["names"]]),
            sparse_keys=[tf.constant(k.encode()) for k, _ in cs["sparse"]],
            dense_keys=[tf.constant(d[0].encode()) for d in cs["dense"]],
            dense_defaults=defaults, sparse_types=sparse_types, dense_shapes=shapes)
        return _flatten(out)
    if cs.get("op") == "ParseSingleExample":
        out = ops.ParseSingleExample(
            serialized=_strings(ser, True), dense_defaults=defaults,
            num_sparse=len(cs["sparse"]), sparse_keys=[k for k, _ in cs["sparse"]],
            dense_keys=[d[0] for d in cs["dense"]], sparse_types=sparse_types,
            dense_shapes=shapes)
        return _flatten(out)
    out = ops.ParseExampleV2(
        serialized=_strings(ser, cs["scalar"]),
        names=_strings([n.encode() for n in cs["names"]]),
        sparse_keys=_strings([k.encode() for k, _ in cs["sparse"]]),
        dense_keys=_strings([d[0].encode() for d in cs["dense"]]),
        ragged_keys=_strings([r[0].encode() for r in cs["ragged"]]),
        dense_defaults=[_const(_arr(d[1]), d[1]["dtype"]) for d in cs["dense"]],
        num_sparse=len(cs["sparse"]),
        sparse_types=[getattr(tf, t) for _, t in cs["sparse"]],
        ragged_value_types=[getattr(tf, r[1]) for r in cs["ragged"]],
        ragged_split_types=[getattr(tf, r[2]) for r in cs["ragged"]],
        dense_shapes=[d[2] for d in cs["dense"]])
    return _flatten(out)


def _flatten(out: Any) -> list[Any]:
    flat: list[Any] = []
    for o in (out if isinstance(out, (list, tuple)) else [out]):
        flat.extend(o if isinstance(o, (list, tuple)) else [o])
    return flat


def _core(msg: str) -> str:
    msg = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", msg)
    return re.sub(r"\s*\[Op:[^\]]*\].*$", "", msg, flags=re.S)


_OK = [c for c in _CASES if "outputs" in c]
_ERR = [c for c in _CASES if "error" in c]


@pytest.mark.parametrize("cs", _OK, ids=[c["name"] for c in _OK])
def test_output_matches_tf(cs: dict[str, Any]) -> None:
    outs = _run_v2(cs)
    assert len(outs) == len(cs["outputs"])
    for got_t, exp in zip(outs, cs["outputs"], strict=True):
        assert got_t.dtype == getattr(tf, exp["dtype"]), (got_t.dtype, exp["dtype"])
        got = np.asarray(got_t.numpy())
        want = _arr(exp)
        assert list(got.shape) == exp["shape"]
        if exp["dtype"] == "string":
            assert got.reshape(-1).tolist() == want.reshape(-1).tolist()
        else:
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("cs", _ERR, ids=[c["name"] for c in _ERR])
def test_error_matches_tf(cs: dict[str, Any]) -> None:
    with pytest.raises(tf.errors.OpError) as ei:
        _run_v2(cs)
    assert ei.value.error_code == cs["error"]["code"]
    assert _core(str(ei.value.message)) == _core(cs["error"]["message"])


def _garbage_cases() -> list[bytes]:
    rng = np.random.default_rng(18)
    good = base64.b64decode(_OK[0]["serialized"][0])
    out = [good[:n] for n in range(len(good))]
    for _ in range(200):
        b = bytearray(good)
        for _ in range(3):
            b[int(rng.integers(len(b)))] = int(rng.integers(256))
        out.append(bytes(b))
    out.append(b"\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01")
    return out


def test_malformed_inputs_are_errors_not_crashes() -> None:
    cs = _OK[0]
    assert cs["op"] == "ParseExampleV2"
    n_err = 0
    for blob in _garbage_cases():
        c2 = dict(cs, serialized=[base64.b64encode(blob).decode()], scalar=False)
        try:
            _run_v2(c2)
        except tf.errors.OpError as e:
            assert e.error_code == 3
            n_err += 1
    assert n_err > 0
