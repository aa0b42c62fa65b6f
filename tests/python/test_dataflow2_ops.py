"""The dataflow2 kernels (csrc/kernels/cpu/dataflow2_*.c: staging maps,
barriers, conditional accumulators, TensorMap, mutexes, counters, ref
variables, session tensors) against TF 2.21's recorded behaviour
(tools/record_dataflow2_ops.py -> tests/data/dataflow2_ops_tf221.json).

Each recorded case is a sequence of ops on one piece of state, replayed
step by step: eagerly, or (ops with Ref arguments) as one graph whose steps
run one session.run each. Every step must give TF's outputs, or fail with
TF's error class and message."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import numpy as np
import pytest
from recorded_ops import decode

import tfe_py as tf
from tfe_py import errors, ops

_PATH = os.path.join(os.path.dirname(__file__), "..", "data", "dataflow2_ops_tf221.json")
with open(_PATH) as _f:
    _SEQS: list[dict[str, Any]] = json.load(_f)["sequences"]

_COMPLEX = ("complex64", "complex128")


_decode = decode


def _tensor(spec: dict[str, Any]) -> Any:
    return tf.constant(_decode(spec), dtype=getattr(tf, spec["dtype"]))


def _attr(v: Any) -> Any:
    if isinstance(v, dict):
        if "type" in v:
            return getattr(tf, v["type"])
        if "types" in v:
            return [getattr(tf, t) for t in v["types"]]
        if "shape" in v:
            return tf.TensorShape(v["shape"])
        if "shapes" in v:
            return [tf.TensorShape(x) for x in v["shapes"]]
    return v


def _kwargs(step: dict[str, Any], produced: list[list[Any]]) -> dict[str, Any]:
    kw: dict[str, Any] = {}
    for name, spec in step["inputs"].items():
        if isinstance(spec, list):
            kw[name] = [produced[s["ref"][0]][s["ref"][1]] if "ref" in s else _tensor(s)
                        for s in spec]
        elif "ref" in spec:
            kw[name] = produced[spec["ref"][0]][spec["ref"][1]]
        else:
            kw[name] = _tensor(spec)
    for name, v in step["attrs"].items():
        kw[name] = _attr(v)
    return kw


def _flat(r: Any) -> list[Any]:
    if r is None:
        return [None]
    if isinstance(r, (list, tuple)):
        out: list[Any] = []
        for x in r:
            out.extend(_flat(x))
        return out
    return [r]


def _check_value(got: Any, exp: dict[str, Any], where: str) -> None:
    dt = exp["dtype"]
    if dt in ("none", "resource", "variant"):
        return
    g = np.asarray(got.numpy() if hasattr(got, "numpy") else got)
    if dt == "bfloat16" and g.dtype.kind == "V":
        # a session hands bfloat16 back as raw 2-byte values
        g = (g.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    e = _decode(exp)
    assert g.shape == e.shape, where
    if dt in ("float16", "bfloat16", "float32", "float64", *_COMPLEX):
        np.testing.assert_allclose(g.astype(e.dtype), e, rtol=1e-6, atol=1e-6, err_msg=where)
    else:
        np.testing.assert_array_equal(g, e, err_msg=where)


def _unnumbered(msg: str) -> str:
    """Stack names and unnamed queues' names ("_<n>_<node>") carry a
    process-wide counter (TF's and tfe's both), so their number depends on
    what ran before in the process."""
    msg = re.sub(r"'_\d+_", "'_N_", msg)
    return re.sub(r"Stack\[(\w+?)_\d+\]", r"Stack[\1_N]", msg)


def _check_error(exc: BaseException, exp: dict[str, str], where: str) -> None:
    cls = getattr(errors, exp["type"])
    assert isinstance(exc, cls), f"{where}: {type(exc).__name__} {exc}, want {exp}"
    assert _unnumbered(exp["message"]) in _unnumbered(str(exc)), (
        f"{where}: {exc!s} does not contain {exp['message']!r}"
    )


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
        want = [o for o in step["outputs"] if o["dtype"] != "none"]
        got = [o for o in outs if o is not None]
        assert len(got) == len(want), where
        for g, e in zip(got, want, strict=True):
            _check_value(g, e, where)


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
            want = [o for o in step["outputs"] if o["dtype"] != "none"]
            vals = [v for v in vals if v is not None]
            assert len(vals) == len(want), where
            for v, e in zip(vals, want, strict=True):
                _check_value(v, e, where)
    finally:
        sess.close()


@pytest.mark.parametrize("seq", _SEQS, ids=[s["name"] for s in _SEQS])
def test_sequence_matches_tf(seq: dict[str, Any]) -> None:
    if seq["mode"] == "eager":
        _run_eager(seq)
    else:
        _run_graph(seq)


def test_mutex_lock_waits_until_the_lock_tensor_goes() -> None:
    """MutexLock holds the mutex as long as its lock tensor lives: a second
    MutexLock waits, and runs once the first lock is deleted."""
    import gc
    import threading

    m = ops.MutexV2(shared_name="mx_release")
    first = ops.MutexLock(mutex=m)
    got: list[Any] = []
    t = threading.Thread(target=lambda: got.append(ops.MutexLock(mutex=m)), daemon=True)
    t.start()
    t.join(0.3)
    assert t.is_alive() and not got
    del first
    gc.collect()
    t.join(10)
    assert not t.is_alive() and len(got) == 1
    ops.ConsumeMutexLock(mutex_lock=got[0])


def test_session_tensor_ops_in_a_graph_say_they_are_not_implemented() -> None:
    """tfe's sessions keep no session tensors: in a graph the ops fail with
    UNIMPLEMENTED naming themselves (TF would store the tensor)."""
    with tf.Graph() as g:
        h = ops.GetSessionHandle(value=tf.constant([1.0]))
    sess = tf.Session(g)
    try:
        with pytest.raises(errors.UnimplementedError, match="GetSessionHandle"):
            sess.run(h)
    finally:
        sess.close()
