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
                step["outputs"] = [
                    {"dtype": "none"} if isinstance(o, tf.Operation) or o is None
                    else {"dtype": o.dtype.name} if o.dtype.name in ("resource", "variant")
                    else enc(np.asarray(v), o.dtype.base_dtype.name)
                    for o, v in zip(outs, vals, strict=True)]
            except tf.errors.OpError as e:
                step["error"] = {"type": type(e).__name__, "message": core_message(e.message)}
            cut = step.pop("truncate_message", None)
            if cut is not None and "error" in step:
                assert step["error"]["message"].startswith(cut), step["error"]
                step["error"]["message"] = cut


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


# ----------------------------------------------------------------- barriers

def STR(v: Any) -> dict[str, Any]:
    return T(v, "string")


def barriers() -> None:
    bar_dtypes = [*ALL_DTYPES]
    for dt in bar_dtypes:
        sn = f"bar_{dt}"
        ba = {"component_types": DTS(dt, "int32"), "shapes": SHS([2], []), "shared_name": sn}
        ta = {"component_types": DTS(dt, "int32")}
        seq(f"barrier_dtype_{dt}", "graph", [
            S("Barrier", {}, ba, fetch=False),
            S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["a", "b", "c"]),
                                    "values": T(vals((3, 2), dt), dt)}, {"component_index": 0}),
            S("BarrierIncompleteSize", {"handle": REF(0)}),
            S("BarrierReadySize", {"handle": REF(0)}),
            S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["c"]),
                                    "values": T([7], "int32")}, {"component_index": 1}),
            S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["a", "d"]),
                                    "values": T([8, 9], "int32")}, {"component_index": 1}),
            S("BarrierIncompleteSize", {"handle": REF(0)}),
            S("BarrierReadySize", {"handle": REF(0)}),
            S("BarrierTakeMany", {"handle": REF(0), "num_elements": T(2, "int32")}, ta),
            S("BarrierReadySize", {"handle": REF(0)}),
            S("BarrierTakeMany", {"handle": REF(0), "num_elements": T(0, "int32")}, ta),
        ])
    ba = {"component_types": DTS("float32", "int32"), "shapes": SHS([2], []),
          "shared_name": "bar_err"}
    ta = {"component_types": DTS("float32", "int32")}
    f2 = T([[1.0, 2.0]], "float32")
    seq("barrier_errors", "graph", [
        S("Barrier", {}, ba, fetch=False),
        S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["a"]), "values": f2},
          {"component_index": 2}),
        S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["a"]), "values": T([1], "int32")},
          {"component_index": 0}),
        S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["a"]),
                                "values": T(np.zeros((1, 0)), "float32")},
          {"component_index": 0}),
        S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["a"]), "values": f2},
          {"component_index": 0}),
        S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["b", "a"]),
                                "values": T([[3.0, 4.0], [5.0, 6.0]], "float32")},
          {"component_index": 0}),
        S("BarrierIncompleteSize", {"handle": REF(0)}),
        # wrong shape for a component: the key is lost when it completes
        S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["x"]),
                                "values": T([[1.0, 2.0, 3.0]], "float32")},
          {"component_index": 0}),
        S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["x"]), "values": T([1], "int32")},
          {"component_index": 1}),
        S("BarrierIncompleteSize", {"handle": REF(0)}),
        S("BarrierReadySize", {"handle": REF(0)}),
        S("BarrierTakeMany", {"handle": REF(0), "num_elements": T([1], "int32")}, ta),
        S("BarrierTakeMany", {"handle": REF(0), "num_elements": T(0, "int32")},
          {"component_types": DTS("float32", "float32")}),
        S("BarrierTakeMany", {"handle": REF(0), "num_elements": T(0, "int32")},
          {"component_types": DTS("float32", "int32"), "timeout_ms": 5}),
        S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["b"]), "values": T([4], "int32")},
          {"component_index": 1}),
        S("BarrierClose", {"handle": REF(0)}),
        S("BarrierClose", {"handle": REF(0)}),
        S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["new"]), "values": f2},
          {"component_index": 0}),
        S("BarrierTakeMany", {"handle": REF(0), "num_elements": T(5, "int32")}, ta),
        S("BarrierTakeMany", {"handle": REF(0), "num_elements": T(5, "int32")},
          {"component_types": DTS("float32", "int32"), "allow_small_batch": True}),
        S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["a"]), "values": T([2], "int32")},
          {"component_index": 1}),
        S("BarrierIncompleteSize", {"handle": REF(0)}),
        S("BarrierReadySize", {"handle": REF(0)}),
        S("BarrierTakeMany", {"handle": REF(0), "num_elements": T(1, "int32")}, ta),
        S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["a"]), "values": f2},
          {"component_index": 0}),
        S("BarrierClose", {"handle": REF(0)}, {"cancel_pending_enqueues": True}),
        S("BarrierClose", {"handle": REF(0)}, {"cancel_pending_enqueues": True}),
        S("BarrierTakeMany", {"handle": REF(0), "num_elements": T(1, "int32")}, ta),
    ])
    # closing with nothing incomplete closes the ready queue
    ba = {"component_types": DTS("int32"), "shapes": SHS([]), "shared_name": "bar_q"}
    ta = {"component_types": DTS("int32")}
    seq("barrier_close_ready", "graph", [
        S("Barrier", {}, ba, fetch=False),
        S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["k1", "k2", "k3"]),
                                "values": T([1, 2, 3], "int32")}, {"component_index": 0}),
        S("BarrierInsertMany", {"handle": REF(0), "keys": STR(["k0"]),
                                "values": T([0], "int32")}, {"component_index": 0}),
        S("BarrierClose", {"handle": REF(0)}),
        S("BarrierInsertMany", {"handle": REF(0), "keys": STR([]),
                                "values": T(np.zeros((0,)), "int32")}, {"component_index": 0}),
        S("BarrierTakeMany", {"handle": REF(0), "num_elements": T(1, "int32")}, ta),
        S("BarrierTakeMany", {"handle": REF(0), "num_elements": T(9, "int32")},
          {"component_types": DTS("int32"), "allow_small_batch": True}),
        S("BarrierTakeMany", {"handle": REF(0), "num_elements": T(1, "int32")},
          {"component_types": DTS("int32"), "allow_small_batch": True}),
        S("BarrierTakeMany", {"handle": REF(0), "num_elements": T(0, "int32")}, ta),
    ])
    # attrs TF checks when it builds the kernel, and a shared barrier's check
    seq("barrier_attrs", "graph", [
        S("Barrier", {}, {"component_types": DTS("int32"), "shapes": SHS(),
                          "shared_name": "bar_a"}),
        S("Barrier", {}, {"component_types": DTS("int32"), "shapes": SHS([]), "capacity": 3,
                          "shared_name": "bar_a"}),
        S("Barrier", {}, {"component_types": DTS("int32"), "shapes": SHS([]),
                          "shared_name": "bar_a"}, fetch=False),
        S("BarrierReadySize", {"handle": REF(2)}),
        S("Barrier", {}, {"component_types": DTS("float32"), "shapes": SHS([]),
                          "shared_name": "bar_a"}, fetch=False),
        S("BarrierReadySize", {"handle": REF(4)}),
        S("Barrier", {}, {"component_types": DTS("int32"), "shapes": SHS([3]),
                          "shared_name": "bar_a"}, fetch=False),
        S("BarrierReadySize", {"handle": REF(6)}),
    ])


# ----------------------------------------------------------------- accumulators

def accumulators() -> None:
    for dt in ("float16", "float32", "float64"):
        for red in ("MEAN", "SUM"):
            sn = f"acc_{dt}_{red}"
            ma = {"dtype": DT(dt), "shape": SH([2]), "shared_name": sn, "reduction_type": red}
            g1 = T([1.5, -2.0], dt)
            g2 = T([0.25, 4.0], dt)
            g3 = T([3.0, 3.0], dt)
            # TF 1 (graph, Ref handle)
            seq(f"accum_{dt}_{red}", "graph", [
                S("ConditionalAccumulator", {}, ma, fetch=False),
                S("AccumulatorApplyGradient", {"handle": REF(0), "local_step": T(0, "int64"),
                                               "gradient": g1}),
                S("AccumulatorNumAccumulated", {"handle": REF(0)}),
                S("AccumulatorApplyGradient", {"handle": REF(0), "local_step": T(0, "int64"),
                                               "gradient": g2}),
                S("AccumulatorApplyGradient", {"handle": REF(0), "local_step": T(3, "int64"),
                                               "gradient": g3}),
                S("AccumulatorNumAccumulated", {"handle": REF(0)}),
                S("AccumulatorTakeGradient", {"handle": REF(0), "num_required": T(2, "int32")},
                  {"dtype": DT(dt)}),
                S("AccumulatorNumAccumulated", {"handle": REF(0)}),
                # stale: local_step 0 < global step 1
                S("AccumulatorApplyGradient", {"handle": REF(0), "local_step": T(0, "int64"),
                                               "gradient": g1}),
                S("AccumulatorNumAccumulated", {"handle": REF(0)}),
                S("AccumulatorSetGlobalStep", {"handle": REF(0),
                                               "new_global_step": T(-1, "int64")}),
                S("AccumulatorApplyGradient", {"handle": REF(0), "local_step": T(0, "int64"),
                                               "gradient": g2}),
                S("AccumulatorTakeGradient", {"handle": REF(0), "num_required": T(1, "int32")},
                  {"dtype": DT(dt)}),
            ])
            # Resource forms (eager)
            seq(f"raccum_{dt}_{red}", "eager", [
                S("ResourceConditionalAccumulator", {}, ma),
                S("ResourceAccumulatorApplyGradient", {"handle": REF(0),
                                                       "local_step": T(0, "int64"),
                                                       "gradient": g1}),
                S("ResourceAccumulatorApplyGradient", {"handle": REF(0),
                                                       "local_step": T(0, "int64"),
                                                       "gradient": g3}),
                S("ResourceAccumulatorNumAccumulated", {"handle": REF(0)}),
                S("ResourceAccumulatorTakeGradient", {"handle": REF(0),
                                                      "num_required": T(2, "int32")},
                  {"dtype": DT(dt)}),
                S("ResourceAccumulatorSetGlobalStep", {"handle": REF(0),
                                                       "new_global_step": T(5, "int64")}),
                S("ResourceAccumulatorApplyGradient", {"handle": REF(0),
                                                       "local_step": T(4, "int64"),
                                                       "gradient": g1}),
                S("ResourceAccumulatorApplyGradient", {"handle": REF(0),
                                                       "local_step": T(5, "int64"),
                                                       "gradient": g2}),
                S("ResourceAccumulatorNumAccumulated", {"handle": REF(0)}),
                S("ResourceAccumulatorTakeGradient", {"handle": REF(0),
                                                      "num_required": T(1, "int32")},
                  {"dtype": DT(dt)}),
            ])
    ma = {"dtype": DT("float32"), "shape": SH([None, 2]), "shared_name": "acc_err"}
    seq("accum_errors", "graph", [
        S("ConditionalAccumulator", {}, ma, fetch=False),
        S("AccumulatorApplyGradient", {"handle": REF(0), "local_step": T(0, "int64"),
                                       "gradient": T([1.0, 2.0], "float64")}),
        S("AccumulatorApplyGradient", {"handle": REF(0), "local_step": T(0, "int64"),
                                       "gradient": T([[1.0, 2.0, 3.0]], "float32")}),
        S("AccumulatorApplyGradient", {"handle": REF(0), "local_step": T(0, "int64"),
                                       "gradient": T([[1.0, 2.0]], "float32")}),
        S("AccumulatorApplyGradient", {"handle": REF(0), "local_step": T(0, "int64"),
                                       "gradient": T([[1.0, 2.0], [3.0, 4.0]], "float32")}),
        S("AccumulatorTakeGradient", {"handle": REF(0), "num_required": T(0, "int32")},
          {"dtype": DT("float32")}),
        # (a take whose dtype differs from the accumulator's reports the
        # mismatch and then runs anyway in TF, which ends its process)
        S("AccumulatorTakeGradient", {"handle": REF(0), "num_required": T(1, "int32")},
          {"dtype": DT("float32")}),
    ])
    ma = {"dtype": DT("float32"), "shape": SH([None]), "shared_name": "racc_err"}
    seq("raccum_errors", "eager", [
        S("ResourceConditionalAccumulator", {}, ma),
        # (a gradient of another dtype ends TF's process here)
        S("ResourceAccumulatorApplyGradient", {"handle": REF(0), "local_step": T(0, "int64"),
                                               "gradient": T([[1.0]], "float32")}),
        S("ResourceAccumulatorApplyGradient", {"handle": REF(0), "local_step": T(0, "int64"),
                                               "gradient": T([1.0], "float32")}),
        S("ResourceAccumulatorTakeGradient", {"handle": REF(0), "num_required": T(-3, "int32")},
          {"dtype": DT("float32")}),
        # (a non-scalar local_step, num_required or new_global_step makes TF
        # report the error and then read the tensor as a scalar anyway, which
        # ends its process: not recorded)
        S("ResourceAccumulatorTakeGradient", {"handle": REF(0), "num_required": T(1, "int32")},
          {"dtype": DT("float32")}),
    ])


# ----------------------------------------------------------------- TensorMap

def tensor_maps() -> None:
    for dt in ALL_DTYPES:
        kd = "int64" if dt != "int64" else "int32"
        v1 = T(vals((2, 2), dt), dt)
        v2 = T(vals((3,), dt), dt)
        seq(f"tensor_map_value_{dt}", "eager", [
            S("EmptyTensorMap"),
            S("TensorMapInsert", {"input_handle": REF(0), "key": T(7, kd), "value": v1}),
            S("TensorMapInsert", {"input_handle": REF(1), "key": T(-3, kd), "value": v2}),
            S("TensorMapSize", {"input_handle": REF(2)}),
            S("TensorMapLookup", {"input_handle": REF(2), "key": T(7, kd)},
              {"value_dtype": DT(dt)}),
            S("TensorMapLookup", {"input_handle": REF(2), "key": T(-3, kd)},
              {"value_dtype": DT(dt)}),
            S("TensorMapHasKey", {"input_handle": REF(2), "key": T(7, kd)}),
            S("TensorMapErase", {"input_handle": REF(2), "key": T(7, kd)},
              {"value_dtype": DT(dt)}),
            S("TensorMapHasKey", {"input_handle": REF(7), "key": T(7, kd)}),
            S("TensorMapSize", {"input_handle": REF(7)}),
            S("TensorMapSize", {"input_handle": REF(2)}),
            S("TensorMapStackKeys", {"input_handle": REF(7)}, {"key_dtype": DT(kd)}),
        ])
    for kd in ("float32", "float64", "string", "int32", "bool", "float16", "uint8"):
        k1 = T(vals((), kd), kd)
        seq(f"tensor_map_key_{kd}", "eager", [
            S("EmptyTensorMap"),
            S("TensorMapInsert", {"input_handle": REF(0), "key": k1, "value": T(1.5, "float32")}),
            S("TensorMapInsert", {"input_handle": REF(1), "key": k1, "value": T(2.5, "float32")}),
            S("TensorMapSize", {"input_handle": REF(2)}),
            S("TensorMapLookup", {"input_handle": REF(2), "key": k1},
              {"value_dtype": DT("float32")}),
            S("TensorMapLookup", {"input_handle": REF(1), "key": k1},
              {"value_dtype": DT("float32")}),
            S("TensorMapStackKeys", {"input_handle": REF(2)}, {"key_dtype": DT(kd)}),
        ])
    i32 = T(1, "int32")
    seq("tensor_map_errors", "eager", [
        S("EmptyTensorMap"),
        S("TensorMapInsert", {"input_handle": REF(0), "key": T(1.5, "float32"),
                              "value": T([1, 2], "int32")}),
        S("TensorMapLookup", {"input_handle": REF(1), "key": T(2.5, "float32")},
          {"value_dtype": DT("int32")}),
        S("TensorMapLookup", {"input_handle": REF(1), "key": T([[1, 2], [3, 4]], "int32")},
          {"value_dtype": DT("int32")}),
        S("TensorMapLookup", {"input_handle": REF(1), "key": T(["ab", "c"], "string")},
          {"value_dtype": DT("int32")}),
        S("TensorMapLookup", {"input_handle": REF(1), "key": T(1.5, "float32")},
          {"value_dtype": DT("float32")}),
        S("TensorMapLookup", {"input_handle": REF(1), "key": T(1.5, "float64")},
          {"value_dtype": DT("int32")}),
        S("TensorMapLookup", {"input_handle": REF(1), "key": T(0.1, "float32")},
          {"value_dtype": DT("int32")}),
        S("TensorMapLookup", {"input_handle": REF(1),
                              "key": T([0.1, 1e-7, 123456789.0], "float64")},
          {"value_dtype": DT("int32")}),
        S("TensorMapLookup", {"input_handle": REF(1), "key": T(list(range(150)), "int32")},
          {"value_dtype": DT("int32")}),
        S("TensorMapErase", {"input_handle": REF(1), "key": T(-7, "int64")},
          {"value_dtype": DT("int32")}),
        S("TensorMapStackKeys", {"input_handle": REF(1)}, {"key_dtype": DT("int32")}),
        S("TensorMapStackKeys", {"input_handle": REF(0)}, {"key_dtype": DT("int32")}),
        S("TensorMapInsert", {"input_handle": REF(1), "key": T([1.0, 2.0], "float32"),
                              "value": i32}),
        S("TensorMapStackKeys", {"input_handle": REF(13)}, {"key_dtype": DT("float32")}),
    ])


# ----------------------------------------------------------------- counters

def counters() -> None:
    for dt in ("int32", "int64"):
        seq(f"count_up_to_{dt}", "graph", [
            S("Variable", {}, {"shape": SH([]), "dtype": DT(dt)}, fetch=False),
            S("Assign", {"ref": REF(0), "value": T(5, dt)}),
            S("CountUpTo", {"ref": REF(0)}, {"limit": 7}),
            S("CountUpTo", {"ref": REF(0)}, {"limit": 7}),
            S("CountUpTo", {"ref": REF(0)}, {"limit": 7}),
            S("Identity", {"input": REF(0)}),
        ])
        seq(f"resource_count_up_to_{dt}", "eager", [
            S("VarHandleOp", {}, {"dtype": DT(dt), "shape": SH([]),
                                  "shared_name": f"cnt_{dt}"}),
            S("AssignVariableOp", {"resource": REF(0), "value": T(-2, dt)}),
            S("ResourceCountUpTo", {"resource": REF(0)}, {"limit": 0, "T": DT(dt)}),
            S("ReadVariableOp", {"resource": REF(0)}, {"dtype": DT(dt)}),
            S("ResourceCountUpTo", {"resource": REF(0)}, {"limit": 0, "T": DT(dt)}),
            S("ResourceCountUpTo", {"resource": REF(0)}, {"limit": 0, "T": DT(dt)}),
            S("ReadVariableOp", {"resource": REF(0)}, {"dtype": DT(dt)}),
        ])
    # TF names the variable's node in this message; tfe's kernel sees the
    # reference, not the node that made it: only the text before the name is
    # compared (truncate_message).
    seq("count_up_to_uninitialized", "graph", [
        S("Variable", {}, {"shape": SH([]), "dtype": DT("int32")}, fetch=False),
        dict(S("CountUpTo", {"ref": REF(0)}, {"limit": 7}),
             truncate_message="Attempting to use uninitialized value"),
    ])
    # FakeQueue: a TF 1 handle for a V2 queue, used by TF 1 queue ops
    seq("fake_queue", "graph", [
        S("FIFOQueueV2", {}, {"component_types": DTS("float32"), "shared_name": "fq"},
          fetch=False),
        S("FakeQueue", {"resource": REF(0)}, fetch=False),
        S("QueueEnqueueV2", {"handle": REF(0), "components": [T([1.5, 2.0], "float32")]}),
        S("QueueSize", {"handle": REF(1)}),
        S("QueueDequeue", {"handle": REF(1)}, {"component_types": DTS("float32")}),
        S("QueueSizeV2", {"handle": REF(0)}),
    ])
    seq("resource_count_up_to_errors", "eager", [
        S("VarHandleOp", {}, {"dtype": DT("int32"), "shape": SH([2]),
                              "shared_name": "cnt_err"}),
        S("ResourceCountUpTo", {"resource": REF(0)}, {"limit": 3, "T": DT("int32")}),
        S("AssignVariableOp", {"resource": REF(0), "value": T([1, 2], "int32")}),
        S("ResourceCountUpTo", {"resource": REF(0)}, {"limit": 3, "T": DT("int32")}),
    ])


def sparse_accumulators() -> None:
    for dt in ("float16", "float32", "float64"):
        for red in ("MEAN", "SUM"):
            ma = {"dtype": DT(dt), "shape": SH([4, 2]), "shared_name": f"sacc_{dt}_{red}",
                  "reduction_type": red}
            ap = {"has_known_shape": True}
            i64 = "int64"
            seq(f"sparse_accum_{dt}_{red}", "graph", [
                S("SparseConditionalAccumulator", {}, ma, fetch=False),
                S("SparseAccumulatorApplyGradient",
                  {"handle": REF(0), "local_step": T(0, i64), "gradient_indices": T([0, 2], i64),
                   "gradient_values": T([[1.0, 2.0], [3.0, 4.0]], dt),
                   "gradient_shape": T([4, 2], i64)}, ap),
                S("SparseAccumulatorApplyGradient",
                  {"handle": REF(0), "local_step": T(0, i64), "gradient_indices": T([1, 2, 3], i64),
                   "gradient_values": T([[0.5, 0.5], [1.0, -1.0], [2.0, 2.0]], dt),
                   "gradient_shape": T([4, 2], i64)}, ap),
                S("SparseAccumulatorApplyGradient",
                  {"handle": REF(0), "local_step": T(0, i64), "gradient_indices": T([2], i64),
                   "gradient_values": T([[0.25, 0.25]], dt),
                   "gradient_shape": T([4, 2], i64)}, ap),
                S("AccumulatorNumAccumulated", {"handle": REF(0)}),
                S("SparseAccumulatorTakeGradient", {"handle": REF(0),
                                                    "num_required": T(3, "int32")},
                  {"dtype": DT(dt)}),
                S("AccumulatorNumAccumulated", {"handle": REF(0)}),
                S("SparseAccumulatorApplyGradient",
                  {"handle": REF(0), "local_step": T(0, i64), "gradient_indices": T([2], i64),
                   "gradient_values": T([[0.25, 0.25]], dt),
                   "gradient_shape": T([4, 2], i64)}, ap),
                S("AccumulatorSetGlobalStep", {"handle": REF(0),
                                               "new_global_step": T(0, i64)}),
                S("SparseAccumulatorApplyGradient",
                  {"handle": REF(0), "local_step": T(0, i64), "gradient_indices": T([3, 1], i64),
                   "gradient_values": T([[1.0, 1.0], [2.0, 2.0]], dt),
                   "gradient_shape": T([], i64)}, {"has_known_shape": False}),
                S("SparseAccumulatorTakeGradient", {"handle": REF(0),
                                                    "num_required": T(1, "int32")},
                  {"dtype": DT(dt)}),
            ])
    ma = {"dtype": DT("float32"), "shape": SH([3, 2]), "shared_name": "sacc_err"}
    i64 = "int64"

    def ap(idx: Any, v: Any, shp: Any, known: bool = True, dt: str = "float32") -> dict[str, Any]:
        return S("SparseAccumulatorApplyGradient",
                 {"handle": REF(0), "local_step": T(0, i64), "gradient_indices": T(idx, i64),
                  "gradient_values": T(v, dt), "gradient_shape": T(shp, i64)},
                 {"has_known_shape": known})

    seq("sparse_accum_errors", "graph", [
        S("SparseConditionalAccumulator", {}, ma, fetch=False),
        # (values of another dtype end TF's process)
        ap([0], [[1.0, 2.0]], [3]),
        ap([0], [[1.0, 2.0]], [5, 2]),
        ap([0, 3], [[1.0, 2.0], [1.0, 2.0]], [3, 2]),
        ap([0], [1.0], [3, 2], known=False),
        ap([0], [[1.0, 2.0, 3.0]], [3, 2], known=False),
        ap([0, 1], [[1.0, 2.0]], [3, 2]),
        ap([0], [[1.0, 2.0]], [3, 2]),
        ap([1], [[[1.0, 2.0]]], [3, 2], known=False),
        ap([1], [[1.0, 2.0, 3.0]], [3, 2], known=False),
        S("SparseAccumulatorTakeGradient", {"handle": REF(0), "num_required": T(0, "int32")},
          {"dtype": DT("float32")}),
        S("SparseAccumulatorTakeGradient", {"handle": REF(0), "num_required": T(1, "int32")},
          {"dtype": DT("float32")}),
    ])


# ----------------------------------------------------------------- mutexes

def mutexes() -> None:
    # Each lock is dropped (its tensor deleted) before the next MutexLock of
    # the same mutex: the eager runner keeps every output alive, so each
    # sequence takes one lock per mutex.
    seq("mutex_lock", "eager", [
        S("MutexV2", {}, {"shared_name": "mx1"}),
        S("MutexLock", {"mutex": REF(0)}),
        S("ConsumeMutexLock", {"mutex_lock": REF(1)}),
        S("MutexV2", {}, {"shared_name": "mx2"}),
        S("MutexLock", {"mutex": REF(3)}),
        S("ConsumeMutexLock", {"mutex_lock": REF(4)}),
    ])
    seq("mutex_errors", "eager", [
        S("EmptyTensorMap"),
        S("ConsumeMutexLock", {"mutex_lock": REF(0)}),
    ])


# ----------------------------------------------------------------- session tensors

def session_tensors() -> None:
    # Eager ops have no session state: TF fails all four.
    seq("session_tensor_ops_eager", "eager", [
        S("GetSessionHandle", {"value": T([1.0, 2.0], "float32")}),
        S("GetSessionHandleV2", {"value": T([1, 2], "int32")}),
        S("GetSessionTensor", {"handle": T("abc", "string")}, {"dtype": DT("float32")}),
        S("DeleteSessionTensor", {"handle": T("abc", "string")}),
    ])


def main() -> None:
    staging_maps()
    session_tensors()
    mutexes()
    sparse_accumulators()
    counters()
    tensor_maps()
    barriers()
    accumulators()
    for s in SEQS:
        (run_eager if s["mode"] == "eager" else run_graph)(s)
    with open(OUT, "w") as f:
        json.dump({"sequences": SEQS}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
