"""Records TF 2.21's scatter ops on variables (Scatter*, ResourceScatter*,
ScatterNd*, ResourceScatterNd*) and ScatterNdNonAliasingAdd into
tests/data/scatter_vars_tf221.json. Run with a Python that has TF 2.21:

    /work/tfvenv/bin/python tools/record_scatter_vars.py

Reference ops run in a tf.compat.v1 Session on reference variables,
resource ops eagerly; each error case runs in a forked child, since TF
aborts the process on some inputs (recorded as "crash")."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np
import tensorflow as tf

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("Add", "Sub", "Mul", "Div", "Max", "Min", "Update")
ND_KINDS = ("Add", "Sub", "Max", "Min", "Update")


def op_names() -> list[str]:
    names = [f"Scatter{k}" for k in KINDS] + [f"ResourceScatter{k}" for k in KINDS]
    names += [f"ScatterNd{k}" for k in ND_KINDS] + [f"ResourceScatterNd{k}" for k in ND_KINDS]
    return [*names, "ScatterNdNonAliasingAdd"]


def enc(a: np.ndarray) -> Any:
    a = np.asarray(a)
    if a.dtype.kind == "c":
        return {"re": a.real.tolist(), "im": a.imag.tolist()}
    if a.dtype.kind in "SUO":
        return [x.decode() if isinstance(x, bytes) else str(x) for x in a.ravel().tolist()]
    if a.dtype.kind == "f":
        return a.astype(np.float64).tolist()
    return a.tolist()


def values(dtype: str, shape: tuple[int, ...], rng: np.random.Generator, lo: float = -3,
           hi: float = 3) -> np.ndarray:
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype == "string":
        return np.array([f"s{int(v)}" for v in rng.integers(0, 100, int(np.prod(shape)))],
                        dtype=object).reshape(shape)
    if dtype.startswith("int") or dtype.startswith("uint"):
        lo2 = 1 if lo > 0 else (0 if dtype.startswith("uint") else -9)
        return rng.integers(lo2, 9, shape).astype(dtype)
    v = rng.uniform(lo, hi, shape)
    if dtype.startswith("complex"):
        v = v + 1j * rng.uniform(lo, hi, shape)
    return v.astype(np.float32 if dtype in ("half", "bfloat16") else dtype)


def tfc(a: np.ndarray, dtype: str) -> Any:
    return tf.constant(a, tf.dtypes.as_dtype(dtype) if dtype != "string" else tf.string)


def run(name: str, var: np.ndarray, idx: np.ndarray, upd: np.ndarray, dtype: str) -> np.ndarray:
    if name == "ScatterNdNonAliasingAdd":
        return tf.raw_ops.ScatterNdNonAliasingAdd(input=tfc(var, dtype), indices=idx,
                                                  updates=tfc(upd, dtype)).numpy()
    if name.startswith("Resource"):
        v = tf.Variable(tfc(var, dtype))
        key = "ref" if "Nd" in name else "resource"
        getattr(tf.raw_ops, name)(**{key: v.handle}, indices=idx, updates=tfc(upd, dtype))
        return v.numpy()
    g = tf.Graph()
    with g.as_default():
        v = tf.compat.v1.Variable(tfc(var, dtype), use_resource=False)
        op = getattr(tf.raw_ops, name)(ref=v._ref(), indices=idx, updates=tfc(upd, dtype))
        with tf.compat.v1.Session(graph=g) as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            sess.run(op)
            return sess.run(v)


def forked(fn: Any) -> Any:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            res: Any = {"ok": enc(fn())}
        except tf.errors.OpError as e:
            # Graph errors wrap the kernel's message in a report of where the
            # node was defined; keep the kernel's line.
            lines = [ln for ln in e.message.split("\n")
                     if ln.strip() and not ln.startswith((" ", "\t"))
                     and "Graph execution error" not in ln
                     and not ln.startswith("Detected at node")]
            first = lines[-1] if lines else e.message.split("\n")[0]
            msg = re.sub(r"^\{\{function_node [^}]*\}\} ", "", first)
            res = {"code": e.error_code, "message": re.sub(r" \[Op:\w+\]( name: )?$", "", msg)}
        except Exception as e:  # recorded as a Python-side refusal
            res = {"python": type(e).__name__, "message": str(e)[:200]}
        os.write(w, json.dumps(res).encode())
        os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 65536):
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    return json.loads(data) if data else {"crash": True}


def dtypes_for(name: str) -> list[str]:
    kind = name.replace("Resource", "").replace("ScatterNd", "").replace("Scatter", "")
    base = ["float32", "float64", "int32", "half"]
    if kind not in ("Max", "Min"):
        base.append("complex64")
    # The reference ScatterNdAdd/Sub definitions do not allow bool.
    if "Nd" in name and (kind in ("Update", "NonAliasingAdd")
                         or (kind in ("Add", "Sub") and name.startswith("Resource"))):
        base.append("bool")
    if kind == "Update":
        base.append("string")
    return base


def main() -> None:
    rng = np.random.default_rng(11)
    cases: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    for name in op_names():
        nd = "Nd" in name
        div = name.endswith("Div")
        for dtype in dtypes_for(name):
            layouts: list[tuple[str, tuple[int, ...], np.ndarray, tuple[int, ...]]]
            if nd:
                layouts = [("elements", (4, 3), np.array([[1, 0], [3, 2], [1, 0]]), (3,)),
                           ("slices", (4, 3), np.array([[2], [0], [2]]), (3, 3))]
            else:
                layouts = [("rows", (5, 3), np.array([3, 0, 3]), (3, 3)),
                           ("matrix_indices", (5, 2), np.array([[1, 2], [4, 4]]), (2, 2, 2)),
                           ("scalar_update", (4, 2), np.array([2, 0]), ())]
            for label, vshape, idx, ushape in layouts:
                if dtype in ("bool", "string") and label == "scalar_update":
                    continue
                var = values(dtype, vshape, rng)
                upd = values(dtype, ushape, rng, 1 if div else -3, 3)
                for idx_dt in (("int32", "int64") if label != "scalar_update" else ("int32",)):
                    ix = idx.astype(idx_dt)
                    res = forked(lambda n=name, v=var, i=ix, u=upd, d=dtype: run(n, v, i, u, d))
                    cases.append({"op": name, "dtype": dtype, "label": label,
                                  "var": enc(var), "var_shape": list(vshape),
                                  "indices": ix.tolist(), "index_dtype": idx_dt,
                                  "updates": enc(upd), "updates_shape": list(ushape),
                                  "result": res})
        # errors (float32)
        if nd:
            bad = [("index_out_of_range", (4, 3), np.array([[1, 0], [4, 2]]), (2,)),
                   ("negative_index", (4, 3), np.array([[-1, 0]]), (1,)),
                   ("updates_shape", (4, 3), np.array([[1], [2]]), (2, 2)),
                   ("indices_too_deep", (4, 3), np.array([[1, 0, 0]]), (1,))]
        else:
            bad = [("index_out_of_range", (5, 3), np.array([1, 5]), (2, 3)),
                   ("negative_index", (5, 3), np.array([-1]), (1, 3)),
                   ("updates_shape", (5, 3), np.array([1, 2]), (2, 2)),
                   ("scalar_var", (), np.array([0]), (1,))]
        for label, vshape, idx, ushape in bad:
            var = values("float32", vshape, rng)
            upd = values("float32", ushape, rng, 1, 3)
            res = forked(lambda n=name, v=var, i=idx, u=upd: run(n, v, i.astype(np.int32), u,
                                                                  "float32"))
            errors.append({"op": name, "label": label, "var": enc(var), "var_shape": list(vshape),
                           "indices": idx.tolist(), "updates": enc(upd),
                           "updates_shape": list(ushape), "result": res})
        if div:
            var = np.array([[4, 6], [8, 9]], np.int32)
            upd = np.array([[2, 0]], np.int32)
            res = forked(lambda n=name, v=var, u=upd: run(n, v, np.array([1], np.int32), u,
                                                          "int32"))
            errors.append({"op": name, "label": "int_divide_by_zero", "var": enc(var),
                           "var_shape": [2, 2], "indices": [1], "updates": enc(upd),
                           "updates_shape": [1, 2], "dtype": "int32", "result": res})
    out = {"tf_version": tf.__version__, "ops": op_names(), "cases": cases, "errors": errors}
    dest = ROOT / "tests" / "data" / "scatter_vars_tf221.json"
    dest.write_text(json.dumps(out) + "\n")
    print(f"wrote {dest}: {len(cases)} cases, {len(errors)} error cases")


if __name__ == "__main__":
    main()
