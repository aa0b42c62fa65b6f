"""Records TF 2.21's gradients and forward values for the gradient test
cases of tools/grad_cases/<group>.py into tests/data/grad_cases/<group>.json.

Usage (TF's python, outside the tests; the tests only read the JSON):

    /work/tfvenv/bin/python tools/record_grad_cases.py            # every group
    /work/tfvenv/bin/python tools/record_grad_cases.py math nn    # some groups

For each case: the op runs under a GradientTape that watches the inputs
marked diff; the loss is sum_k sum(output_k * weight_k) over the listed
outputs with random weights (seeded by group and case name); the JSON keeps
the inputs (under the op definition's input names), the attrs, the
weights, TF's gradient per watched input (None where TF gives none; a
list for list inputs) and TF's forward outputs (all of them, flattened).
A case TF rejects stops the recording with the case's name.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import os
import sys
import zlib
from typing import Any

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "grad_cases")
OUT_DIR = os.path.join(HERE, "..", "tests", "data", "grad_cases")
sys.path.insert(0, CASES_DIR)

from _common import decode, encode  # noqa: E402


def groups() -> list[str]:
    return sorted(f[:-3] for f in os.listdir(CASES_DIR)
                  if f.endswith(".py") and not f.startswith("_"))


def _names(tf: Any, op: str) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """The op definition's input names, raw-op argument name -> op-def input
    name (the generated wrappers keep the inputs' order), and op-def attr
    name -> raw-op argument name for the attrs the wrapper renames (e.g.
    Squeeze's squeeze_dims is `axis`: the unmatched ones, paired in order)."""
    from tensorflow.python.framework import op_def_registry

    op_def = op_def_registry.get(op)
    if op_def is None:
        raise KeyError(f"TF has no op {op}")
    defs = [a.name for a in op_def.input_arg]
    params = list(inspect.signature(getattr(tf.raw_ops, op)).parameters)
    inferred = {a.type_attr for a in op_def.input_arg} | {a.number_attr for a in op_def.input_arg}
    inferred |= {a.type_list_attr for a in op_def.input_arg}
    attrs = [a.name for a in op_def.attr if a.name not in inferred]
    rest = [p for p in params[len(defs):] if p != "name"]
    renamed = dict(zip([a for a in attrs if a not in rest], [p for p in rest if p not in attrs],
                       strict=False))
    return defs, dict(zip(params[: len(defs)], defs, strict=True)), renamed


def _tensor(tf: Any, value: Any, dtype: str) -> Any:
    a = decode(value, "float64" if dtype == "bfloat16" else dtype)
    return tf.constant(a, dtype=getattr(tf, dtype))


def _flatten(out: Any) -> list[Any]:
    if isinstance(out, (list, tuple)):
        res: list[Any] = []
        for o in out:
            res += _flatten(o)
        return res
    return [out]


def _np(tf: Any, t: Any) -> Any:
    t = tf.convert_to_tensor(t)
    if t.dtype in (tf.string, tf.variant, tf.resource):
        return None
    a = t.numpy()
    if t.dtype == tf.bfloat16:
        a = a.astype(np.float32)
    return encode(a)


def run_case(tf: Any, group: str, cs: dict[str, Any]) -> dict[str, Any]:
    op = cs["op"]
    defs, raw_to_def, attr_to_raw = _names(tf, op)
    def_to_raw = {v: k for k, v in raw_to_def.items()}
    raw_to_attr = {v: k for k, v in attr_to_raw.items()}
    # attrs under the op definition's names (tfe_py.ops uses those)
    attrs = {raw_to_attr.get(k, k): v for k, v in cs["attrs"].items()}
    inputs: dict[str, Any] = {}
    for name, spec in cs["inputs"].items():
        dname = raw_to_def.get(name, name)
        if dname not in defs:
            raise KeyError(f"{group}/{cs['name']}: {op} has no input {name}")
        inputs[dname] = spec
    missing = [n for n in defs if n not in inputs]
    if missing:
        raise KeyError(f"{group}/{cs['name']}: inputs {missing} of {op} not given")
    inputs = {n: inputs[n] for n in defs}  # the op definition's order
    kwargs: dict[str, Any] = {attr_to_raw.get(k, k): v for k, v in attrs.items()}
    watched: list[tuple[str, int | None, Any]] = []
    for name, spec in inputs.items():
        if spec.get("list"):
            vals = [_tensor(tf, v, spec["dtype"]) for v in spec["value"]]
            kwargs[def_to_raw[name]] = vals
            if spec["diff"]:
                watched += [(name, i, t) for i, t in enumerate(vals)]
        else:
            t = _tensor(tf, spec["value"], spec["dtype"])
            kwargs[def_to_raw[name]] = t
            if spec["diff"]:
                watched.append((name, None, t))
    rng = np.random.default_rng(zlib.crc32(f"{group}/{cs['name']}".encode()))
    with tf.GradientTape(persistent=False) as tape:
        tape.watch([w[2] for w in watched])
        outs = _flatten(getattr(tf.raw_ops, op)(**kwargs))
        weights = []
        loss = None
        for k in cs["outputs"]:
            o = outs[k]
            w = rng.uniform(-1.0, 1.0, tuple(o.shape))
            if o.dtype.is_complex:
                w = w + 1j * rng.uniform(-1.0, 1.0, tuple(o.shape))
            wt = tf.constant(w.astype(o.dtype.as_numpy_dtype) if o.dtype != tf.bfloat16 else w,
                             dtype=o.dtype)
            weights.append(encode(w))
            term = tf.reduce_sum(o * wt)
            loss = term if loss is None else loss + term
    mode = {"none": tf.UnconnectedGradients.NONE,
            "zero": tf.UnconnectedGradients.ZERO}[cs.get("unconnected", "none")]
    grads = tape.gradient(loss, [w[2] for w in watched], unconnected_gradients=mode)
    res: dict[str, Any] = {}
    for (name, i, _), gr in zip(watched, grads, strict=True):
        val = None if gr is None else _np(tf, gr)
        if i is None:
            res[name] = val
        else:
            res.setdefault(name, []).append(val)
    rec = dict(cs)
    rec["inputs"] = inputs
    rec["attrs"] = attrs
    rec["weights"] = weights
    rec["grads"] = res
    rec["forward"] = [{"dtype": o.dtype.name, "value": _np(tf, o)} for o in outs]
    return rec


def load(group: str) -> list[dict[str, Any]]:
    """The CASES of tools/grad_cases/<group>.py (loaded by path: group names
    such as "math" or "array" are also standard modules)."""
    spec = importlib.util.spec_from_file_location(f"grad_cases_{group}",
                                                  os.path.join(CASES_DIR, f"{group}.py"))
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.CASES


def record(tf: Any, group: str) -> str:
    cases = load(group)
    seen: set[str] = set()
    recorded = []
    for cs in cases:
        if cs["name"] in seen:
            raise ValueError(f"{group}: case name {cs['name']} used twice")
        seen.add(cs["name"])
        try:
            recorded.append(run_case(tf, group, cs))
        except Exception as exc:
            raise RuntimeError(f"{group}/{cs['name']} ({cs['op']}): {exc}") from exc
    os.makedirs(OUT_DIR, exist_ok=True)
    path = os.path.normpath(os.path.join(OUT_DIR, f"{group}.json"))
    with open(path, "w") as f:
        # one case a line: diffs of a re-recording stay readable
        head = json.dumps({"tf_version": tf.__version__, "group": group})[:-1]
        f.write(head + ', "cases": [\n')
        f.write(",\n".join(json.dumps(r, separators=(",", ":")) for r in recorded))
        f.write("\n]}\n")
    return path


def main(argv: list[str]) -> None:
    import tensorflow as tf

    names = argv or groups()
    for g in names:
        path = record(tf, g)
        print(f"{g}: {len(load(g))} cases -> {path}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
