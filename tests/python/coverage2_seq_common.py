"""Replays the op sequences recorded by tools/record_coverage2_<area>.py
(the format of tests/data/dataflow2_ops_tf221.json) against tfe: every step
gives TF 2.21's outputs or fails with TF's error class and message.

The placeholder "@TMP@" in inputs and expected values becomes a temporary
directory of the test. A step marked "unordered" (a table export, a take
from a random shuffle queue) is compared as a multiset: its outputs are
sorted together by the rows of the first output before comparing."""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
from test_dataflow2_ops import _check_error, _check_value, _decode, _flat, _kwargs

import tfe_py as tf
from tfe_py import errors, ops

DATA = os.path.join(os.path.dirname(__file__), "..", "data")


def load(name: str) -> list[dict[str, Any]]:
    with open(os.path.join(DATA, name)) as f:
        seqs: list[dict[str, Any]] = json.load(f)["sequences"]
    return seqs


def _np(x: Any) -> np.ndarray:
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def _sorted_rows(outs: list[np.ndarray]) -> list[np.ndarray]:
    if not outs or outs[0].ndim == 0:
        return outs
    order = sorted(range(outs[0].shape[0]),
                   key=lambda i: [repr(np.asarray(o[i]).tolist()) for o in outs])
    return [o[order] if o.ndim else o for o in outs]


def _compare(step: dict[str, Any], got: list[Any], where: str) -> None:
    want = [o for o in step["outputs"] if o["dtype"] != "none"]
    got = [o for o in got if o is not None]
    assert len(got) == len(want), where
    if step.get("unordered"):
        typed = [o for o in want if o["dtype"] not in ("resource", "variant")]
        g = _sorted_rows([_np(x) for x, e in zip(got, want, strict=True)
                          if e["dtype"] not in ("resource", "variant")])
        e = _sorted_rows([_decode(x) for x in typed])
        for gi, ei, spec in zip(g, e, typed, strict=True):
            _check_value(gi, {**spec, "value": ei.tolist() if spec["dtype"] != "string"
                              else [v.decode() for v in ei.ravel()]}, where)
        return
    for x, e in zip(got, want, strict=True):
        _check_value(x, e, where)


def _run_eager(seq: dict[str, Any]) -> None:
    produced: list[list[Any]] = []
    for i, step in enumerate(seq["steps"]):
        where = f"{seq['name']} step {i} {step['op']}"
        try:
            outs = _flat(getattr(ops, step["op"])(**_kwargs(step, produced)))
        except errors.OpError as e:
            produced.append([])
            assert "error" in step, f"{where}: unexpected {type(e).__name__}: {e}"
            _check_error(e, step["error"], where)
            continue
        produced.append(outs)
        assert "outputs" in step, f"{where}: succeeded, TF failed with {step.get('error')}"
        _compare(step, outs, where)


def _run_graph(seq: dict[str, Any]) -> None:
    produced: list[list[Any]] = []
    with tf.Graph() as g:
        for step in seq["steps"]:
            produced.append(_flat(getattr(ops, step["op"])(**_kwargs(step, produced))))
    sess = tf.Session(g)
    try:
        for i, (step, outs) in enumerate(zip(seq["steps"], produced, strict=True)):
            if not step.get("fetch", True):
                continue
            where = f"{seq['name']} step {i} {step['op']}"
            try:
                vals = sess.run([o for o in outs if o is not None])
            except errors.OpError as e:
                assert "error" in step, f"{where}: unexpected {type(e).__name__}: {e}"
                _check_error(e, step["error"], where)
                continue
            assert "outputs" in step, f"{where}: succeeded, TF failed with {step.get('error')}"
            _compare(step, [v for v in vals if v is not None], where)
    finally:
        sess.close()


def run(seq: dict[str, Any], tmp: str) -> None:
    s = json.loads(json.dumps(seq).replace("@TMP@", tmp))
    if s["mode"] == "eager":
        _run_eager(s)
    else:
        _run_graph(s)
