"""Shared case format and TF 2.21 runner of the coverage recorders
(tools/record_coverage_<area>.py). Run those with /work/tfvenv/bin/python;
the tests (tests/python/test_coverage_<area>.py, helpers in
tests/python/coverage_common.py) only read the JSON they write.

Two kinds of case:

* an eager case ``{"name", "op", "inputs", "attrs"}`` runs one raw op on
  CPU and keeps its outputs or its error (TF's exception class and message),
  as record_sparse_ops.py does. ``"check"`` (optional) lists per output how
  to compare: ``"value"`` (default), ``"shape"`` (nondeterministic values:
  only dtype and shape) or ``"none"``.
* a graph case ``{"name", "graph": [step, ...], "runs": [[fetch, ...], ...]}``
  builds one TF1 graph from its steps, opens one session and runs it once per
  entry of ``runs`` (state such as variables, queues and tables carries from
  run to run). A step is ``{"op", "inputs", "attrs", "ctrl"}``; an input is a
  tensor spec, ``{"ref": [step, output]}`` or a list of those; ``ctrl`` lists
  steps the node depends on. A fetch ``[step, output]`` is a tensor,
  ``[step]`` runs the node as a target. Each run keeps its outputs or error
  (the kernel's message without the node annotations).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from record_sparse_ops import COMPLEX, enc, t

FLOATS = ("float32", "float64", "float16", "bfloat16")
SINTS = ("int8", "int16", "int32", "int64")
UINTS = ("uint8", "uint16", "uint32", "uint64")
INTS = SINTS + UINTS
REAL = FLOATS + INTS
CPLX = ("complex64", "complex128")
ALL = REAL + CPLX + ("bool", "string")

__all__ = ["ALL", "CPLX", "FLOATS", "INTS", "REAL", "SINTS", "UINTS", "Cases", "ref", "t",
           "tf_dtypes"]


_TF_NAMES = {"float": "float32", "double": "float64", "half": "float16"}


def _op_def_allowed(op: str, attr: str) -> set[str] | None:
    """The allowed values of type attr ``attr`` in op ``op``'s definition
    (data/tf221_ops.txt), None when unrestricted."""
    path = os.path.join(os.path.dirname(__file__), "..", "data", "tf221_ops.txt")
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


def tf_dtypes(op: str, attr: str = "T") -> list[str]:
    """``attr``'s values over TF 2.21's CPU kernels of ``op``
    (data/tf221_cpu_kernels.txt); quantized, resource and variant types
    (no recorded form) left out."""
    out: list[str] = []
    path = os.path.join(os.path.dirname(__file__), "..", "data", "tf221_cpu_kernels.txt")
    with open(path) as f:
        for line in f:
            name, _, cons = line.rstrip("\n").partition("\t")
            if name != op:
                continue
            for kv in cons.split(";"):
                k, _, v = kv.partition("=")
                v = _TF_NAMES.get(v, v)
                if k == attr and not v.startswith(("qint", "quint")) and v not in out:
                    out.append(v)
    allowed = _op_def_allowed(op, attr)
    return [v for v in out if (allowed is None or v in allowed)
            and v not in ("resource", "variant")]


def ref(step: int, out: int = 0) -> dict[str, Any]:
    """A graph step input: output ``out`` of step ``step``."""
    return {"ref": [step, out]}


class Cases:
    """The case list of one area, with sample-value helpers."""

    def __init__(self, area: str, seed: int) -> None:
        self.area = area
        self.cases: list[dict[str, Any]] = []
        self.rng = np.random.default_rng(seed)

    def add(self, name: str, op: str, inputs: dict[str, Any],
            attrs: dict[str, Any] | None = None, check: list[str] | None = None,
            T: str | None = None) -> None:
        """``T``: the dtype a dtype loop covers (the test checks every CPU
        dtype TF registers has one)."""
        cs: dict[str, Any] = {"name": name, "op": op, "inputs": inputs, "attrs": attrs or {}}
        if T:
            cs["T"] = T
        if check:
            cs["check"] = check
        self.cases.append(cs)

    def graph(self, name: str, steps: list[dict[str, Any]], runs: list[list[list[int]]],
              check: dict[str, str] | None = None) -> None:
        """``check`` maps "run.output" to "shape"/"none" for values not compared."""
        for s in steps:
            s.setdefault("inputs", {})
            s.setdefault("attrs", {})
        cs: dict[str, Any] = {"name": name, "graph": steps, "runs": runs}
        if check:
            cs["check"] = check
        self.cases.append(cs)

    def vals(self, shape: tuple[int, ...], dtype: str, lo: int = -5, hi: int = 9) -> Any:
        n = int(np.prod(shape))
        r = self.rng
        if dtype in CPLX:
            v: Any = r.integers(-4, 5, n) + 1j * r.integers(-4, 5, n)
        elif dtype == "string":
            v = np.asarray([f"s{i % 3}" for i in range(n)], dtype=object)
        elif dtype == "bool":
            v = r.integers(0, 2, n).astype(bool)
        elif dtype.startswith("u"):
            v = r.integers(max(lo, 0), hi, n)
        elif dtype.startswith("int"):
            v = r.integers(lo, hi, n)
        else:
            v = np.round(r.uniform(-2, 2, n), 2)
        return np.asarray(v).reshape(shape)


_TMP: list[str] = []  # the scratch directory "{tmp}" stands for while recording


def _sub_tmp(x: Any) -> Any:
    return x.replace("{tmp}", _TMP[0]) if isinstance(x, str) and _TMP else x


def _tensor(tf: Any, spec: dict[str, Any]) -> Any:
    dt = spec["dtype"]
    if "hex" in spec:  # binary strings
        return tf.constant(np.asarray([bytes.fromhex(x) for x in spec["hex"]], dtype=object)
                           .reshape(spec["shape"]), dtype=tf.string)
    v = spec["value"]
    if dt in COMPLEX:
        a = np.asarray(v, np.float64).reshape([*spec["shape"], 2])
        v = a[..., 0] + 1j * a[..., 1]
    elif dt == "string":
        v = np.vectorize(_sub_tmp, otypes=[object])(np.asarray(v, dtype=object)) \
            if np.size(v) else np.asarray(v, dtype=object)
    elif dt == "uint64":
        v = np.asarray(v, np.int64).astype(np.uint64)
    return tf.constant(v, dtype=getattr(tf, dt), shape=spec["shape"])


def _enc_value(a: Any, dt: str) -> dict[str, Any]:
    if dt == "string":
        flat = [x if isinstance(x, bytes) else str(x).encode() for x in np.asarray(a).ravel()]
        if _TMP:
            flat = [x.replace(_TMP[0].encode(), b"{tmp}") for x in flat]
            a = np.asarray(flat, dtype=object).reshape(np.shape(a))
        try:
            for x in flat:
                x.decode()
        except UnicodeDecodeError:  # binary strings: hex text, flat
            return {"hex": [x.hex() for x in flat], "dtype": dt, "shape": list(np.shape(a))}
    return enc(np.asarray(a, dtype=object) if dt == "string" else np.asarray(a), dt)


def _err(tf: Any, e: Exception) -> dict[str, Any]:
    msg = e.message if hasattr(e, "message") else str(e)
    return {"type": type(e).__name__, "message": msg}


def run_eager(tf: Any, cs: dict[str, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = _attrs(tf, cs["attrs"])
    for name, spec in cs["inputs"].items():
        kwargs[name] = ([_tensor(tf, x) for x in spec] if isinstance(spec, list)
                        else _tensor(tf, spec))
    with tf.device("/CPU:0"):
        try:
            out = getattr(tf.raw_ops, cs["op"])(**kwargs)
        except (tf.errors.OpError, ValueError, TypeError) as e:
            return {"error": _err(tf, e)}
    flat = tf.nest.flatten(out) if out is not None else []
    return {"outputs": [_enc_value(o.numpy(), o.dtype.name) for o in flat]}


def _op_of(tf: Any, res: Any) -> Any:
    if isinstance(res, tf.Operation):
        return res
    flat = tf.nest.flatten(res)
    return flat[0].op


def node_message(text: str) -> str:
    """A session error's kernel message: the line before the node annotation
    TF appends (after its "Graph execution error" preamble)."""
    lines = [ln for ln in text.split("\n") if ln.strip()]
    for i, ln in enumerate(lines):
        if ln.strip().startswith("[[{{node") and i > 0:
            return lines[i - 1].strip()
    return lines[-1].strip() if lines else ""


def _attrs(tf: Any, attrs: dict[str, Any]) -> dict[str, Any]:
    """Attr values; ``{"tensor": spec}`` is a tensor attr (a TensorProto)."""
    out = dict(attrs)
    for k, v in attrs.items():
        if isinstance(v, dict) and "tensor" in v:
            sp = v["tensor"]
            vv: Any = sp["value"]
            if sp["dtype"] == "string":
                vv = np.asarray(vv, dtype=object)
            out[k] = tf.make_tensor_proto(vv, dtype=getattr(tf, sp["dtype"]), shape=sp["shape"])
    return out


def run_graph(tf: Any, cs: dict[str, Any]) -> dict[str, Any]:
    g = tf.Graph()
    nodes: list[Any] = []
    with g.as_default(), tf.device("/CPU:0"):
        def inp(spec: Any) -> Any:
            if isinstance(spec, list):
                return [inp(x) for x in spec]
            if "ref" in spec:
                i, k = spec["ref"]
                return nodes[i].outputs[k]
            return _tensor(tf, spec)

        for st in cs["graph"]:
            kwargs = _attrs(tf, st["attrs"])
            for name, spec in st["inputs"].items():
                kwargs[name] = inp(spec)
            with g.control_dependencies([nodes[i] for i in st.get("ctrl", [])]):
                try:
                    res = getattr(tf.raw_ops, st["op"])(**kwargs)
                except Exception as e:  # recorded, not raised
                    return {"build_error": _err(tf, e)}
            nodes.append(_op_of(tf, res))
    results: list[dict[str, Any]] = []
    # Grappler off: its rewrites (constant folding, pruning) can skip the
    # very kernel behaviour a case records
    cfg = tf.compat.v1.ConfigProto()
    cfg.graph_options.rewrite_options.disable_meta_optimizer = True
    cfg.graph_options.optimizer_options.opt_level = -1
    with tf.compat.v1.Session(graph=g, config=cfg) as sess:
        for fetches in cs["runs"]:
            fl = [nodes[f[0]].outputs[f[1]] if len(f) == 2 else nodes[f[0]] for f in fetches]
            try:
                vals = sess.run(fl)
            except tf.errors.OpError as e:
                msg = node_message(e.message)
                if _TMP:
                    msg = msg.replace(_TMP[0], "{tmp}")
                results.append({"error": {"type": type(e).__name__, "message": msg}})
                continue
            outs = []
            for f, v in zip(fetches, vals, strict=True):
                if len(f) == 1:
                    outs.append(None)
                else:
                    outs.append(_enc_value(v, nodes[f[0]].outputs[f[1]].dtype.base_dtype.name))
            results.append({"outputs": outs})
    return {"results": results}


def record(cases: Cases) -> None:
    import tensorflow as tf

    assert tf.__version__.startswith("2.21"), tf.__version__
    tf.random.set_seed(None)
    import tempfile

    for cs in cases.cases:
        if os.environ.get("COVERAGE_VERBOSE"):
            print(cs["name"], file=sys.stderr, flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            _TMP[:] = [tmp]
            cs.update(run_graph(tf, cs) if "graph" in cs else run_eager(tf, cs))
        _TMP.clear()
    names = [c["name"] for c in cases.cases]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, f"duplicate case names {sorted(dup)}"
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data",
                        f"coverage_{cases.area}_tf221.json")
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, "cases": cases.cases}, f, separators=(",", ":"))
        f.write("\n")
    nerr = sum("error" in c for c in cases.cases)
    print(f"wrote {len(cases.cases)} cases ({nerr} eager errors) to {os.path.normpath(path)}",
          file=sys.stderr)
