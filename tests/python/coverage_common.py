"""Runs the TF 2.21-recorded coverage cases (tests/data/coverage_<area>_tf221.json,
written by tools/record_coverage_<area>.py; the format is described in
tools/record_coverage_common.py) through tfe_py and compares with TF's
outputs and errors. Each tests/python/test_coverage_<area>.py parametrizes
``check_case`` over one file's cases."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import errors, ops
from tfe_py.graph import Operation

_COMPLEX = ("complex64", "complex128")
_DATA = os.path.join(os.path.dirname(__file__), "..", "data")


def load(area: str) -> list[dict[str, Any]]:
    with open(os.path.join(_DATA, f"coverage_{area}_tf221.json")) as f:
        cases: list[dict[str, Any]] = json.load(f)["cases"]
    return cases


def decode(spec: dict[str, Any]) -> np.ndarray:
    dt = spec["dtype"]
    if dt in _COMPLEX:
        a = np.asarray(spec["value"], np.float64).reshape([*spec["shape"], 2])
        return (a[..., 0] + 1j * a[..., 1]).astype(dt)
    if dt == "string" and "hex" in spec:
        return np.asarray([bytes.fromhex(x) for x in spec["hex"]],
                          dtype=object).reshape(spec["shape"]).astype(bytes)
    if dt == "string":
        v = spec["value"]
        return np.asarray(v, dtype=object).reshape(spec["shape"]).astype(bytes)
    if dt in ("bfloat16", "float16"):
        return np.asarray(spec["value"], np.float64).reshape(spec["shape"])
    if dt == "uint64":  # recorded as int64 bit patterns
        return np.asarray(spec["value"], np.int64).astype(np.uint64).reshape(spec["shape"])
    return np.asarray(spec["value"], dtype=dt).reshape(spec["shape"])


_TMP: list[str] = []  # the scratch directory "{tmp}" stands for in the current case


def _const(spec: dict[str, Any]) -> Any:
    v = decode(spec)
    if spec["dtype"] == "string" and _TMP and v.size:
        v = np.vectorize(lambda x: x.replace(b"{tmp}", _TMP[0].encode()),
                         otypes=[object])(v).astype(bytes)
    return tf.constant(v, dtype=spec["dtype"])


def _untmp(x: Any) -> Any:
    """``x`` (bytes or text) with the scratch directory written as {tmp}."""
    if not _TMP:
        return x
    if isinstance(x, bytes):
        return x.replace(_TMP[0].encode(), b"{tmp}")
    return str(x).replace(_TMP[0], "{tmp}")


def _tol(dt: str) -> tuple[float, float]:
    if dt in ("float16", "bfloat16"):
        return 1e-2, 1e-2
    if dt in ("float32", "complex64"):
        return 2e-6, 2e-6
    return 1e-12, 1e-12


def compare(got_t: Any, exp_spec: dict[str, Any], how: str = "value", what: str = "") -> None:
    if how == "none":
        return
    dt = exp_spec["dtype"]
    if not isinstance(got_t, np.ndarray):
        gdt = got_t.dtype
        gname = gdt.name if hasattr(gdt, "name") else str(gdt)
        assert gname == dt, (what, gname, dt)
    got = np.asarray(got_t.numpy() if hasattr(got_t, "numpy") else got_t)
    exp = decode(exp_spec)
    assert got.shape == exp.shape, (what, got.shape, exp.shape)
    if how == "shape":
        return
    if dt == "string":
        got = np.vectorize(_untmp, otypes=[object])(got.astype(bytes)) if got.size else got
        np.testing.assert_array_equal(got.astype(bytes), exp, err_msg=what)
    elif dt == "bool" or dt.startswith(("int", "uint")):
        np.testing.assert_array_equal(got, exp, err_msg=what)
    else:
        rtol, atol = _tol(dt)
        np.testing.assert_allclose(got.astype(exp.dtype if dt in _COMPLEX else np.float64),
                                   exp, rtol=rtol, atol=atol, err_msg=what)


def core(msg: str) -> str:
    """TF's message without the eager wrapper ({{function_node ...}} and
    [Op:...]) and the graph node annotations."""
    msg = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", msg)
    msg = msg.split("\n\t [[", 1)[0]
    msg = re.sub(r"'_\d+_", "'_N_", msg)  # queue names carry a process-wide counter
    msg = re.sub(r"Stack\[(\w+?)_\d+\]", r"Stack[\1_N]", msg)  # so do stack names
    return re.sub(r"\s*\[Op:[^\]]*\].*$", "", msg, flags=re.S).strip()


def _attrs(attrs: dict[str, Any]) -> dict[str, Any]:
    """Attr values; ``{"tensor": spec}`` is a tensor attr (made eagerly, so
    also usable while a graph is being built)."""
    out = dict(attrs)
    for k, v in attrs.items():
        if isinstance(v, dict) and "tensor" in v:
            out[k] = _const(v["tensor"])
    return out


def _run_eager(cs: dict[str, Any]) -> list[Any]:
    kwargs: dict[str, Any] = _attrs(cs["attrs"])
    for name, spec in cs["inputs"].items():
        kwargs[name] = [_const(x) for x in spec] if isinstance(spec, list) else _const(spec)
    out = getattr(ops, cs["op"])(**kwargs)
    if out is None:
        return []
    if isinstance(out, (list, tuple)):
        flat: list[Any] = []
        for o in out:
            flat.extend(o if isinstance(o, (list, tuple)) else [o])
        return flat
    return [out]


def _op_of(res: Any) -> Any:
    if isinstance(res, Operation):
        return res
    while isinstance(res, (list, tuple)):
        res = res[0]
    return res.op


def _build_graph(cs: dict[str, Any]) -> tuple[Any, list[Any]]:
    nodes: list[Any] = []
    attrs = [_attrs(st["attrs"]) for st in cs["graph"]]
    with tf.Graph() as g:
        def inp(spec: Any) -> Any:
            if isinstance(spec, list):
                return [inp(x) for x in spec]
            if "ref" in spec:
                i, k = spec["ref"]
                return nodes[i].outputs[k]
            return _const(spec)

        for st, kw in zip(cs["graph"], attrs, strict=True):
            kwargs = dict(kw)
            for name, spec in st["inputs"].items():
                kwargs[name] = inp(spec)
            with g.control_dependencies([nodes[i] for i in st.get("ctrl", [])]):
                res = getattr(ops, st["op"])(**kwargs)
            nodes.append(_op_of(res))
    return g, nodes


def _check_graph(cs: dict[str, Any]) -> None:
    if "build_error" in cs:  # TF refused to add a node
        with pytest.raises((ValueError, TypeError, NotImplementedError, errors.OpError)):
            _build_graph(cs)
        return
    g, nodes = _build_graph(cs)
    checks = cs.get("check", {})
    with tf.Session(g) as sess:
        for r, (fetches, exp) in enumerate(zip(cs["runs"], cs["results"], strict=True)):
            fl = [nodes[f[0]].outputs[f[1]] if len(f) == 2 else nodes[f[0]] for f in fetches]
            if "error" in exp:
                cls = _cls(exp["error"]["type"])
                with pytest.raises(cls) as info:
                    sess.run(fl)
                assert core(exp["error"]["message"]) in _untmp(core(str(info.value))), \
                    f"run {r}"
                continue
            got = sess.run(fl)
            for k, (f, v, e) in enumerate(zip(fetches, got, exp["outputs"], strict=True)):
                if len(f) == 2:
                    compare(np.asarray(v), e, checks.get(f"{r}.{k}", "value"), f"run {r} out {k}")
                    assert str(np.asarray(v).dtype) == str(decode(e).dtype) or \
                        e["dtype"] in ("bfloat16", "float16", "string"), (r, k)


def _cls(name: str) -> Any:
    if name in ("ValueError", "TypeError"):
        return (ValueError, TypeError, errors.InvalidArgumentError)
    return getattr(errors, name)


def check_case(cs: dict[str, Any], tmp: str | None = None) -> None:
    """Runs one recorded case and asserts tfe matches TF's record; ``tmp``
    is the scratch directory that ``{tmp}`` in the case stands for."""
    _TMP[:] = [tmp] if tmp else []
    try:
        _check_case(cs)
    finally:
        _TMP.clear()


def _check_case(cs: dict[str, Any]) -> None:
    if "graph" in cs:
        _check_graph(cs)
        return
    if "error" in cs:
        cls = _cls(cs["error"]["type"])
        with pytest.raises(cls) as info:
            _run_eager(cs)
        assert core(cs["error"]["message"]) in core(str(info.value))
        return
    outs = _run_eager(cs)
    assert len(outs) == len(cs["outputs"])
    checks = cs.get("check", ["value"] * len(outs))
    for k, (got_t, exp_spec) in enumerate(zip(outs, cs["outputs"], strict=True)):
        compare(got_t, exp_spec, checks[k], f"output {k}")


def ids(cases: list[dict[str, Any]]) -> list[str]:
    return [c["name"] for c in cases]


def dtypes_seen(cases: list[dict[str, Any]], op: str) -> set[str]:
    """The dtypes of the first input over ``op``'s eager cases."""
    seen: set[str] = set()
    for c in cases:
        if c.get("op") == op and c["inputs"]:
            first = next(iter(c["inputs"].values()))
            seen.add((first[0] if isinstance(first, list) else first)["dtype"])
    return seen


_TF_NAMES = {"float": "float32", "double": "float64", "half": "float16"}


def _op_def_allowed(op: str, attr: str) -> set[str] | None:
    """The allowed values of type attr ``attr`` in op ``op``'s definition
    (data/tf221_ops.txt), None when unrestricted."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "data", "tf221_ops.txt")
    cur = None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("op: "):
                cur = line[4:]
            elif cur == op and line.startswith(f"attr: {attr}: {{"):
                inner = line.split("{", 1)[1].rstrip("}")
                return {_TF_NAMES.get(v.strip(), v.strip()) for v in inner.split(",")}
    return None


def tf_cpu_dtypes(op: str, attr: str = "T") -> set[str]:
    """The values of ``attr`` over TF 2.21's CPU kernels of ``op``
    (data/tf221_cpu_kernels.txt), quantized types left out."""
    out: set[str] = set()
    path = os.path.join(os.path.dirname(__file__), "..", "..", "data", "tf221_cpu_kernels.txt")
    with open(path) as f:
        for line in f:
            name, _, cons = line.rstrip("\n").partition("\t")
            if name != op:
                continue
            for kv in cons.split(";"):
                k, _, v = kv.partition("=")
                if k == attr and not v.startswith(("qint", "quint")):
                    out.add(_TF_NAMES.get(v, v))
    allowed = _op_def_allowed(op, attr)
    return out if allowed is None else out & allowed


def check_dtype_coverage(cases: list[dict[str, Any]], op: str, attr: str = "T") -> None:
    """Every CPU dtype TF registers for ``op`` has a recorded case (the
    recorder tags dtype-loop cases with ``"T"``); resource and variant
    values have no recorded form and are left out."""
    seen = {c["T"] for c in cases if c.get("op") == op and "T" in c}
    missing = sorted(tf_cpu_dtypes(op, attr) - seen - {"resource", "variant"})
    assert not missing, (op, missing)
