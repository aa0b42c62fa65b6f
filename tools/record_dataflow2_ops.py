"""Records TF 2.21's behaviour of the dataflow2 kernels
(csrc/kernels/cpu/dataflow2_*.c): staging maps, barriers, conditional
accumulators, TensorMap, mutexes, counters, ref variables and session
tensors. Each case is a SEQUENCE of ops on one piece of state (a map, a
barrier, an accumulator, ...), run in order; every step keeps its outputs or
its error (TF's exception class and message).

Eager sequences run each step eagerly. Graph sequences (ops with Ref
inputs or outputs, which TF cannot run eagerly) build one graph holding
every step (a step may take an earlier step's output) and run the steps one
`session.run` each, in order, in one session.

Run: /work/tfvenv/bin/python tools/record_dataflow2_ops.py
Writes tests/data/dataflow2_ops_tf221.json (read by
tests/python/test_dataflow2_ops.py)."""

from __future__ import annotations

import json
import os
import re
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "dataflow2_ops_tf221.json")
raw = tf.raw_ops

COMPLEX = ("complex64", "complex128")
ALL_DTYPES = ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
              "uint8", "uint16", "uint32", "uint64", "bool", "complex64", "complex128", "string")


# ----------------------------------------------------------------- encoding

def enc(a: Any, dtype: str) -> dict[str, Any]:
    a = np.asarray(a)
    if dtype in COMPLEX:
        a = np.asarray(a, np.complex128)
        v: Any = np.stack([a.real, a.imag], -1).tolist()
    elif dtype == "string":
        v = np.vectorize(lambda s: s.decode() if isinstance(s, bytes) else str(s),
                         otypes=[object])(a).tolist() if a.size else a.tolist()
    elif dtype in ("bfloat16", "float16", "float32", "float64"):
        v = np.asarray(a, np.float64).tolist()
    elif dtype == "bool":
        v = np.asarray(a, bool).tolist()
    else:
        v = np.asarray(a).astype(np.int64).tolist()
    return {"value": v, "dtype": dtype, "shape": list(np.shape(a))}


def T(v: Any, dtype: str) -> dict[str, Any]:
    """An input tensor spec."""
    if dtype == "string":
        return enc(np.asarray(v, dtype=object), dtype)
    if dtype in COMPLEX:
        return enc(np.asarray(v, np.complex128), dtype)
    return enc(np.asarray(v), dtype)


def REF(step: int, out: int = 0) -> dict[str, Any]:
    """Input: output `out` of step `step` of the same sequence."""
    return {"ref": [step, out]}


def DT(name: str) -> dict[str, Any]:
    return {"type": name}


def DTS(*names: str) -> dict[str, Any]:
    return {"types": list(names)}


def SH(dims: list[int] | None) -> dict[str, Any]:
    return {"shape": dims}


def SHS(*dims: list[int] | None) -> dict[str, Any]:
    return {"shapes": list(dims)}


def dec_tensor(spec: dict[str, Any]) -> Any:
    dt = spec["dtype"]
    if dt in COMPLEX:
        a = np.asarray(spec["value"], np.float64).reshape([*spec["shape"], 2])
        v: Any = a[..., 0] + 1j * a[..., 1]
    elif dt == "string":
        v = np.asarray(spec["value"], dtype=object).reshape(spec["shape"]).astype(bytes)
    else:
        v = np.asarray(spec["value"], np.float64 if dt in ("bfloat16", "float16") else dt)
        v = v.reshape(spec["shape"])
    return tf.constant(v, dtype=getattr(tf, dt))


def dec_attr(v: Any) -> Any:
    if isinstance(v, dict):
        if "type" in v:
            return getattr(tf, v["type"])
        if "types" in v:
            return [getattr(tf, t) for t in v["types"]]
        if "shape" in v:
            return tf.TensorShape(v["shape"])
        if "shapes" in v:
            return [tf.TensorShape(s) for s in v["shapes"]]
    return v


def enc_out(x: Any) -> dict[str, Any]:
    if isinstance(x, tf.Operation) or x is None:
        return {"dtype": "none"}
    dt = x.dtype.name
    if dt in ("resource", "variant"):
        return {"dtype": dt}
    return enc(np.asarray(x), dt)


def core_message(text: str) -> str:
    """The kernel's own message: without the eager wrapper or the graph
    node annotation."""
    lines = [ln for ln in text.split("\n") if ln.strip()]
    for i, ln in enumerate(lines):
        if ln.strip().startswith("[[{{node") and i > 0:
            text = lines[i - 1]
            break
    else:
        text = lines[0] if lines else text
    text = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", text.strip())
    return re.sub(r"\s*\[Op:[^\]]*\].*$", "", text).strip()


# ----------------------------------------------------------------- running

def _inputs(step: dict[str, Any], produced: list[Any]) -> dict[str, Any]:
    kw: dict[str, Any] = {}
    for name, spec in step["inputs"].items():
        if isinstance(spec, list):
            kw[name] = [produced[s["ref"][0]][s["ref"][1]] if "ref" in s else dec_tensor(s)
                        for s in spec]
        elif "ref" in spec:
            kw[name] = produced[spec["ref"][0]][spec["ref"][1]]
        else:
            kw[name] = dec_tensor(spec)
    for name, v in step["attrs"].items():
        kw[name] = dec_attr(v)
    return kw


def _as_list(r: Any) -> list[Any]:
    """The flat outputs (a NoKey take returns (key, [values]))."""
    if isinstance(r, (list, tuple)):
        out: list[Any] = []
        for x in r:
            out.extend(_as_list(x))
        return out
    return [r]


def run_eager(seq: dict[str, Any]) -> None:
    produced: list[Any] = []
    for step in seq["steps"]:
        try:
            r = getattr(raw, step["op"])(**_inputs(step, produced))
            outs = _as_list(r)
            produced.append(outs)
            step["outputs"] = [enc_out(o) for o in outs]
        except tf.errors.OpError as e:
            produced.append([])
            step["error"] = {"type": type(e).__name__, "message": core_message(e.message)}


def run_graph(seq: dict[str, Any]) -> None:
    g = tf.Graph()
    produced: list[Any] = []
    with g.as_default():
        for step in seq["steps"]:
            r = getattr(raw, step["op"])(**_inputs(step, produced))
            produced.append(_as_list(r))
    with tf.compat.v1.Session(graph=g) as sess:
        for step, outs in zip(seq["steps"], produced, strict=True):
            if not step.get("fetch", True):
                continue
            try:
                vals = sess.run(outs)
                step["outputs"] = [enc_out(v if not isinstance(o, tf.Operation) else None)
                                   for o, v in zip(outs, vals, strict=True)]
            except tf.errors.OpError as e:
                step["error"] = {"type": type(e).__name__, "message": core_message(e.message)}


SEQS: list[dict[str, Any]] = []


def seq(name: str, mode: str, steps: list[dict[str, Any]]) -> None:
    SEQS.append({"name": name, "mode": mode, "steps": steps})


def S(op: str, inputs: dict[str, Any] | None = None, attrs: dict[str, Any] | None = None,
      fetch: bool = True) -> dict[str, Any]:
    d: dict[str, Any] = {"op": op, "inputs": inputs or {}, "attrs": attrs or {}}
    if not fetch:
        d["fetch"] = False
    return d


R = np.random.default_rng(1818)


def vals(shape: tuple[int, ...], dtype: str) -> Any:
    n = int(np.prod(shape)) if shape else 1
    if dtype in COMPLEX:
        v: Any = R.integers(-4, 5, n) + 1j * R.integers(-4, 5, n)
    elif dtype == "string":
        v = np.asarray([f"s{i}" for i in range(n)], dtype=object)
    elif dtype == "bool":
        v = R.integers(0, 2, n).astype(bool)
    elif dtype.startswith("u"):
        v = R.integers(0, 9, n)
    elif dtype.startswith("int"):
        v = R.integers(-5, 9, n)
    else:
        v = np.round(R.uniform(-2, 2, n), 2)
    return np.reshape(v, shape)


# ----------------------------------------------------------------- staging maps

def K(v: Any) -> dict[str, Any]:
    return T(v, "int64")


def I(v: Any) -> dict[str, Any]:  # noqa: E743
    return T(v, "int32")


def staging_maps() -> None:
    for ordered in (False, True):
        p = "Ordered" if ordered else ""
        tag = "omap" if ordered else "map"
        # every dtype through stage / peek / unstage
        for dt in ALL_DTYPES:
            sn = f"{tag}_dt_{dt}"
            a = {"dtypes": DTS(dt, "int32"), "shared_name": sn}
            v0 = T(vals((2, 3), dt), dt)
            seq(f"{tag}_dtype_{dt}", "eager", [
                S(p + "MapStage", {"key": K(5), "indices": I([0, 1]),
                                   "values": [v0, I([1, 2])]}, a),
                S(p + "MapSize", {}, a),
                S(p + "MapPeek", {"key": K(5), "indices": I([0, 1])}, a),
                S(p + "MapUnstage", {"key": K(5), "indices": I([0])},
                  {"dtypes": DTS(dt), "shared_name": sn}),
                S(p + "MapSize", {}, a),
                S(p + "MapUnstage", {"key": K(5), "indices": I([1])},
                  {"dtypes": DTS("int32"), "shared_name": sn}),
                S(p + "MapSize", {}, a),
            ])
        def A(sn: str, **kw: Any) -> dict[str, Any]:
            d: dict[str, Any] = {"dtypes": DTS("float32", "int32"), "shared_name": sn}
            d.update(kw)
            return d

        f1 = T(1.5, "float32")
        i2 = T(2, "int32")
        sn = f"{tag}_partial"
        seq(f"{tag}_partial_inserts", "eager", [
            S(p + "MapStage", {"key": K(1), "indices": I([0]), "values": [f1]}, A(sn)),
            S(p + "MapIncompleteSize", {}, A(sn)),
            S(p + "MapSize", {}, A(sn)),
            S(p + "MapStage", {"key": K(1), "indices": I([0]), "values": [f1]}, A(sn)),
            S(p + "MapStage", {"key": K(1), "indices": I([1]), "values": [i2]}, A(sn)),
            S(p + "MapIncompleteSize", {}, A(sn)),
            S(p + "MapSize", {}, A(sn)),
            S(p + "MapUnstage", {"key": K(1), "indices": I([1])},
              {"dtypes": DTS("int32"), "shared_name": sn}),
            S(p + "MapSize", {}, A(sn)),
            S(p + "MapUnstage", {"key": K(1), "indices": I([1])},
              {"dtypes": DTS("int32"), "shared_name": sn}),
            S(p + "MapPeek", {"key": K(1), "indices": I([1])},
              {"dtypes": DTS("int32"), "shared_name": sn}),
            S(p + "MapPeek", {"key": K(1), "indices": I([0])},
              {"dtypes": DTS("float32"), "shared_name": sn}),
            S(p + "MapUnstage", {"key": K(1), "indices": I([0])},
              {"dtypes": DTS("float32"), "shared_name": sn}),
            S(p + "MapSize", {}, A(sn)),
            S(p + "MapStage", {"key": K(2), "indices": I([1]), "values": [i2]}, A(sn)),
            S(p + "MapStage", {"key": K(3), "indices": I([0]), "values": [f1]}, A(sn)),
            S(p + "MapIncompleteSize", {}, A(sn)),
            S(p + "MapClear", {}, A(sn)),
            S(p + "MapIncompleteSize", {}, A(sn)),
            S(p + "MapSize", {}, A(sn)),
        ])
        sn = f"{tag}_errors"
        seq(f"{tag}_errors", "eager", [
            S(p + "MapStage", {"key": K([1, 2]), "indices": I([0, 1]), "values": [f1, i2]}, A(sn)),
            S(p + "MapStage", {"key": K(1), "indices": I([1, 0]), "values": [f1, i2]}, A(sn)),
            S(p + "MapStage", {"key": K(1), "indices": I([0, 0]), "values": [f1, i2]}, A(sn)),
            S(p + "MapStage", {"key": K(1), "indices": I([3]), "values": [f1]}, A(sn)),
            S(p + "MapStage", {"key": K(1), "indices": I([-1]), "values": [f1]}, A(sn)),
            # (an insert with no indices aborts TF's process: not recorded)
            S(p + "MapStage", {"key": K(4), "indices": I([0, 1]), "values": [f1, i2]}, A(sn)),
            S(p + "MapPeek", {"key": K([4]), "indices": I([0])},
              {"dtypes": DTS("float32"), "shared_name": sn}),
            S(p + "MapUnstage", {"key": K([4]), "indices": I([0])},
              {"dtypes": DTS("float32"), "shared_name": sn}),
            S(p + "MapUnstage", {"key": K(4), "indices": I([])},
              {"dtypes": DTS("float32"), "shared_name": sn}),
            S(p + "MapUnstage", {"key": K(4), "indices": I([1, 0])}, A(sn)),
            S(p + "MapUnstage", {"key": K(4), "indices": I([0, 5])}, A(sn)),
            S(p + "MapUnstage", {"key": K(4), "indices": I([-1])},
              {"dtypes": DTS("float32"), "shared_name": sn}),
            S(p + "MapPeek", {"key": K(4), "indices": I([0, 1])},
              {"dtypes": DTS("int32", "int32"), "shared_name": sn}),
            S(p + "MapUnstageNoKey", {"indices": I([])},
              {"dtypes": DTS("float32"), "shared_name": sn}),
            S(p + "MapSize", {}, A(sn)),
            # a complete insert of a key already there is dropped
            S(p + "MapStage", {"key": K(4), "indices": I([0, 1]),
                               "values": [T(9.0, "float32"), T(9, "int32")]}, A(sn)),
            S(p + "MapSize", {}, A(sn)),
            S(p + "MapPeek", {"key": K(4), "indices": I([0, 1])}, A(sn)),
            # as many indices as dtypes: complete, whatever their values
            S(p + "MapStage", {"key": K(6), "indices": I([0, 3]), "values": [f1, i2]}, A(sn)),
            S(p + "MapSize", {}, A(sn)),
            S(p + "MapUnstage", {"key": K(6), "indices": I([0, 1])}, A(sn)),
            # (a NoKey take that fails on an index aborts TF's process)
            S(p + "MapUnstageNoKey", {"indices": I([1])},
              {"dtypes": DTS("int32"), "shared_name": sn}),
            S(p + "MapSize", {}, A(sn)),
        ])
        sn = f"{tag}_mem"
        seq(f"{tag}_memory_limit", "eager", [
            # TF counts only the last value's bytes
            S(p + "MapStage", {"key": K(1), "indices": I([0, 1]),
                               "values": [T([1.0] * 4, "float32"), T([1], "int32")]},
              A(sn, memory_limit=8)),
            S(p + "MapStage", {"key": K(2), "indices": I([0, 1]),
                               "values": [T([1.0], "float32"), T([1] * 4, "int32")]},
              A(sn, memory_limit=8)),
            S(p + "MapStage", {"key": K(3), "indices": I([0]),
                               "values": [T([1.0] * 4, "float32")]}, A(sn, memory_limit=8)),
            S(p + "MapSize", {}, A(sn, memory_limit=8)),
            S(p + "MapUnstage", {"key": K(1), "indices": I([0, 1])}, A(sn, memory_limit=8)),
            S(p + "MapSize", {}, A(sn, memory_limit=8)),
        ])
        sn = f"{tag}_cap"
        seq(f"{tag}_capacity", "eager", [
            S(p + "MapStage", {"key": K(1), "indices": I([0, 1]), "values": [f1, i2]},
              A(sn, capacity=1)),
            # partial inserts are not bounded by capacity
            S(p + "MapStage", {"key": K(2), "indices": I([0]), "values": [f1]}, A(sn, capacity=1)),
            S(p + "MapStage", {"key": K(3), "indices": I([1]), "values": [i2]}, A(sn, capacity=1)),
            S(p + "MapIncompleteSize", {}, A(sn, capacity=1)),
            S(p + "MapSize", {}, A(sn, capacity=1)),
            S(p + "MapUnstageNoKey", {"indices": I([0, 1])}, A(sn, capacity=1)),
            S(p + "MapStage", {"key": K(9), "indices": I([0, 1]), "values": [f1, i2]},
              A(sn, capacity=1)),
            S(p + "MapSize", {}, A(sn, capacity=1)),
        ])
    # ordered: NoKey takes the smallest key
    sn = "omap_order"
    a = {"dtypes": DTS("float32"), "shared_name": sn}
    steps = [S("OrderedMapStage",
               {"key": K(k), "indices": I([0]), "values": [T(float(k), "float32")]}, a)
             for k in (5, -2, 9, 0)]
    steps += [S("OrderedMapUnstageNoKey", {"indices": I([0])}, a) for _ in range(4)]
    steps.append(S("OrderedMapSize", {}, a))
    seq("omap_nokey_order", "eager", steps)


def main() -> None:
    staging_maps()
    for s in SEQS:
        (run_eager if s["mode"] == "eager" else run_graph)(s)
    with open(OUT, "w") as f:
        json.dump({"sequences": SEQS}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
