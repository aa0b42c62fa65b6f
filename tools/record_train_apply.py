"""Records TF 2.21's optimizer apply ops (Apply*, ResourceApply*,
SparseApply*, ResourceSparseApply*) into tests/data/train_apply_tf221.json.

Run with a Python that has TF 2.21 (the tests only read the JSON):

    /work/tfvenv/bin/python tools/record_train_apply.py

Resource ops run eagerly on tf.Variables; reference ops (Apply*,
SparseApply*) need TF1 graphs, so they run in a tf.compat.v1 Session on
reference variables. Each case stores the slots' initial values, the
scalar inputs, the gradient (and indices), and the slots' values after one
update; error cases store TF's code and message."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow.core.framework import op_def_pb2
from tensorflow.python.client import pywrap_tf_session as c_api
from tensorflow.python.framework import kernels

ROOT = Path(__file__).resolve().parents[1]

# Scalar inputs of each optimizer, with the values the cases use.
SCALARS: dict[str, float] = {
    "alpha": 0.1, "lr": 0.05, "l1": 0.03, "l2": 0.2, "l2_shrinkage": 0.1, "lr_power": -0.5,
    "rho": 0.9, "epsilon": 1e-3, "momentum": 0.8, "beta1": 0.9, "beta2": 0.99,
    "beta1_power": 0.9**3, "beta2_power": 0.99**3, "sign_decay": 0.5, "beta": 0.9,
    "logbase": 0.7,
}
# Slot inputs (besides var) and their initial ranges; accumulators are
# positive as the optimizers need.
SLOT_RANGE: dict[str, tuple[float, float]] = {
    "var": (-1.0, 1.0), "accum": (0.1, 1.0), "accum_update": (0.1, 1.0),
    "gradient_accumulator": (-0.5, 0.5), "gradient_squared_accumulator": (0.1, 1.0),
    "linear": (-0.5, 0.5), "m": (-0.5, 0.5), "v": (0.1, 1.0), "vhat": (0.1, 1.0),
    "ms": (0.5, 1.0), "mg": (-0.2, 0.2), "mom": (-0.3, 0.3),
}
GRAD_NAMES = ("grad", "delta")


def op_defs() -> dict[str, Any]:
    buf = c_api.TF_GetAllOpList()
    ol = op_def_pb2.OpList()
    ol.ParseFromString(c_api.TF_GetBuffer(buf))
    return {o.name: o for o in ol.op}


def cpu_types() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for k in kernels.get_all_registered_kernels().kernel:
        if k.device_type != "CPU":
            continue
        for cst in k.constraint:
            if cst.name == "T":
                out.setdefault(k.op, set()).update(
                    tf.dtypes.as_dtype(t).name for t in cst.allowed_values.list.type)
    return out


def enc(a: np.ndarray) -> Any:
    if np.iscomplexobj(a):
        return {"re": a.real.tolist(), "im": a.imag.tolist()}
    return a.astype(np.float64).tolist() if a.dtype.kind == "f" else a.tolist()


def make_inputs(opdef: Any, dtype: str, rng: np.random.Generator, sparse: bool
                ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """(slots, other inputs) for one case."""
    np_dt = np.dtype(dtype) if dtype != "bfloat16" else np.float32
    shape = (4, 3) if sparse else (2, 3)
    slots: dict[str, np.ndarray] = {}
    other: dict[str, np.ndarray] = {}
    for a in opdef.input_arg:
        n = a.name
        if a.is_ref or a.type == tf.resource.as_datatype_enum:
            lo, hi = SLOT_RANGE[n]
            v = rng.uniform(lo, hi, shape)
            if np.dtype(np_dt).kind == "c":
                v = v + 1j * rng.uniform(lo, hi, shape) * 0.5
            slots[n] = v.astype(np_dt)
        elif n in GRAD_NAMES:
            gshape = (3, 3) if sparse else shape
            g = rng.uniform(-1.0, 1.0, gshape)
            if np.dtype(np_dt).kind == "c":
                g = g + 1j * rng.uniform(-1.0, 1.0, gshape)
            other[n] = g.astype(np_dt)
        elif n == "indices":
            other[n] = np.array([2, 0, 2], np.int32)
        elif n == "global_step":
            other[n] = np.array(5, np.int64)
        else:
            other[n] = np.array(SCALARS[n], np_dt)
    return slots, other


def attrs_for(opdef: Any, variant: dict[str, Any]) -> dict[str, Any]:
    names = {a.name for a in opdef.attr}
    return {k: v for k, v in variant.items() if k in names}


def run_resource(name: str, slots: dict[str, np.ndarray], other: dict[str, np.ndarray],
                 dtype: str, attrs: dict[str, Any]) -> dict[str, np.ndarray]:
    tdt = tf.dtypes.as_dtype(dtype)
    vs = {n: tf.Variable(tf.constant(v, tdt)) for n, v in slots.items()}
    kw: dict[str, Any] = {n: v.handle for n, v in vs.items()}
    for n, v in other.items():
        kw[n] = tf.constant(v, tdt if v.dtype.kind in "fc" else None)
    getattr(tf.raw_ops, name)(**kw, **attrs)
    return {n: v.numpy() for n, v in vs.items()}


def run_ref(name: str, slots: dict[str, np.ndarray], other: dict[str, np.ndarray],
            dtype: str, attrs: dict[str, Any]) -> dict[str, np.ndarray]:
    tdt = tf.dtypes.as_dtype(dtype)
    g = tf.Graph()
    with g.as_default():
        vs = {n: tf.compat.v1.Variable(tf.constant(v, tdt), use_resource=False)
              for n, v in slots.items()}
        kw: dict[str, Any] = {n: v._ref() for n, v in vs.items()}
        for n, v in other.items():
            kw[n] = tf.constant(v, tdt if v.dtype.kind in "fc" else None)
        op = getattr(tf.raw_ops, name)(**kw, **attrs)
        init = tf.compat.v1.global_variables_initializer()
        with tf.compat.v1.Session(graph=g) as sess:
            sess.run(init)
            sess.run(op)
            return {n: sess.run(v) for n, v in vs.items()}


def error_of(fn: Any) -> dict[str, Any] | None:
    """TF's error for fn(), None when it succeeds, or {"crash": ...} when TF
    aborts the process (TF CHECK-fails on some unchecked non-scalar inputs;
    tfe reports those as errors). Runs fn in a forked child to survive that."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        res = _error_in_process(fn)
        os.write(w, json.dumps(res).encode())
        os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 65536):
        data += chunk
    os.close(r)
    _, status = os.waitpid(pid, 0)
    if not data:
        return {"crash": f"TF aborted (wait status {status})"}
    return json.loads(data)


def _error_in_process(fn: Any) -> dict[str, Any] | None:
    try:
        fn()
    except tf.errors.OpError as e:
        msg = re.sub(r"^\{\{function_node [^}]*\}\} ", "", e.message.split("\n")[0])
        return {"code": e.error_code, "message": re.sub(r" \[Op:\w+\]( name: )?$", "", msg)}
    return None


def main() -> None:
    defs = op_defs()
    types = cpu_types()
    ops = sorted(n for n in defs if ("Apply" in n and not n.startswith("_")
                                     and n.replace("Resource", "").replace("Sparse", "")
                                     .startswith("Apply")) and n in types)
    rng = np.random.default_rng(7)
    cases: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    for name in ops:
        od = defs[name]
        sparse = "Sparse" in name
        resource = name.startswith("Resource")
        allowed = types[name]
        dtypes = [d for d in ("float32", "float64", "complex64", "half", "bfloat16")
                  if d in allowed]
        # One extra-precision-type case is enough beyond float/double.
        if "complex64" in dtypes and "half" in dtypes:
            dtypes.remove("half")
        if "bfloat16" in dtypes and ("half" in dtypes or "complex64" in dtypes):
            dtypes.remove("bfloat16")
        variants: list[dict[str, Any]] = [{}]
        attr_names = {a.name for a in od.attr}
        if "use_nesterov" in attr_names:
            variants.append({"use_nesterov": True})
        if "update_slots" in attr_names:
            variants.append({"update_slots": False})
        if "multiply_linear_by_lr" in attr_names:
            variants.append({"multiply_linear_by_lr": True})
        for dtype in dtypes:
            for vi, variant in enumerate(variants):
                if vi > 0 and dtype != "float32":
                    continue
                slots, other = make_inputs(od, dtype, rng, sparse)
                if sparse and dtype == "float64":
                    other["indices"] = other["indices"].astype(np.int64)
                attrs = attrs_for(od, variant)
                runner = run_resource if resource else run_ref
                after = runner(name, slots, other, dtype, attrs)
                cases.append({
                    "op": name, "dtype": dtype, "attrs": attrs,
                    "slots": {n: enc(v.astype(np.complex128 if v.dtype.kind == "c"
                                              else np.float64)) for n, v in slots.items()},
                    "inputs": {n: enc(v.astype(np.complex128) if v.dtype.kind == "c" else
                                      (v.astype(np.float64) if v.dtype.kind == "f" else v))
                               for n, v in other.items()},
                    "index_dtype": str(other["indices"].dtype) if "indices" in other else None,
                    "expected": {n: enc(np.asarray(v).astype(
                        np.complex128 if np.asarray(v).dtype.kind == "c" else np.float64))
                        for n, v in after.items()},
                })
        if not resource:
            continue
        # Error cases (eager, float32).
        slots, other = make_inputs(od, "float32", rng, sparse)
        slot_names = list(slots)
        bad: list[tuple[str, dict[str, np.ndarray], dict[str, np.ndarray]]] = []
        if len(slot_names) > 1:
            s2 = dict(slots)
            s2[slot_names[1]] = slots[slot_names[1]][:1]
            bad.append(("slot_shape", s2, other))
        # TF CHECK-fails (aborts) on a non-scalar global_step; tfe reports it.
        for scalar in [n for n in other if other[n].ndim == 0 and n != "global_step"]:
            o2 = dict(other)
            o2[scalar] = np.array([other[scalar]] * 2)
            bad.append((f"scalar_shape_{scalar}", slots, o2))
            # Out-of-domain values (some optimizers check signs).
            o2b = dict(other)
            o2b[scalar] = np.array(0.5 if scalar == "lr_power" else -other[scalar],
                                   other[scalar].dtype)
            bad.append((f"value_{scalar}", slots, o2b))
        gname = next(n for n in other if n in GRAD_NAMES)
        o3 = dict(other)
        o3[gname] = other[gname][:, :2]
        bad.append(("grad_inner_shape", slots, o3))
        if sparse:
            o4 = dict(other)
            o4["indices"] = np.array([1, 7, 0], np.int32)
            bad.append(("index_out_of_range", slots, o4))
            o5 = dict(other)
            o5["indices"] = np.array([1, 0], np.int32)
            bad.append(("indices_grad_mismatch", slots, o5))
            o6 = dict(other)
            o6["indices"] = np.array([[1, 0, 2]], np.int32)
            bad.append(("indices_not_vector", slots, o6))
        else:
            o7 = dict(other)
            o7[gname] = other[gname][:1]
            bad.append(("grad_shape", slots, o7))
        for label, s, o in bad:
            err = error_of(lambda s=s, o=o, name=name: run_resource(name, s, o, "float32", {}))
            errors.append({"op": name, "label": label, "dtype": "float32",
                           "slots": {n: enc(v.astype(np.float64)) for n, v in s.items()},
                           "inputs": {n: enc(v.astype(np.float64) if v.dtype.kind == "f" else v)
                                      for n, v in o.items()},
                           "error": err})
        # An uninitialized variable.
        def uninit(name: str = name, other: dict[str, np.ndarray] = other,
                   od: Any = od) -> None:
            h = tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=[2, 3], shared_name="uninit")
            kw: dict[str, Any] = {}
            for a in od.input_arg:
                if a.type == tf.resource.as_datatype_enum:
                    kw[a.name] = h
            for n, v in other.items():
                kw[n] = tf.constant(v, tf.float32 if v.dtype.kind in "fc" else None)
            getattr(tf.raw_ops, name)(**kw)
        errors.append({"op": name, "label": "uninitialized", "error": error_of(uninit)})
    out = {"tf_version": tf.__version__, "ops": ops, "cases": cases, "errors": errors}
    dest = ROOT / "tests" / "data" / "train_apply_tf221.json"
    dest.write_text(json.dumps(out) + "\n")
    print(f"wrote {dest}: {len(ops)} ops, {len(cases)} cases, {len(errors)} error cases")


if __name__ == "__main__":
    main()
