"""Records TF 2.21's jacobians, batch jacobians and forward-mode jvps into
tests/data/gradient_tape_extra_tf221.json (run with /work/tfvenv/bin/python;
tests/python/test_gradient_tape_extra.py only reads the JSON).

Each case is a Python expression over named inputs, written with the public
API both TF and tfe_py have (``tf`` is the module under test), so the test
evaluates the same text with tfe_py."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import numpy as np

R = np.random.default_rng(1717)


def inp(shape: tuple[int, ...], dtype: str = "float64") -> dict[str, Any]:
    return {"value": R.uniform(-1.5, 1.5, shape).tolist(), "dtype": dtype}


JACOBIAN = [
    # name, inputs, expression, sources
    ("square", {"x": inp((3,), "float32")}, "x * x", ["x"]),
    ("matmul", {"x": inp((2, 3)), "w": inp((3, 2))}, "tf.matmul(x, w)", ["x", "w"]),
    ("exp_rowsum", {"x": inp((2, 2))}, "tf.reduce_sum(tf.exp(x), axis=1)", ["x"]),
    ("sin_broadcast", {"x": inp((2, 3)), "b": inp((3,))}, "tf.sin(x * b)", ["x", "b"]),
    ("scalar_cube", {"x": inp((2, 2))}, "tf.reduce_sum(x * x * x)", ["x"]),
    ("reshape_transpose", {"x": inp((2, 3))},
     "tf.transpose(tf.reshape(x, [3, 2])) * 2.0", ["x"]),
    ("partly_connected", {"x": inp((3,)), "y": inp((2,))}, "x * 3.0", ["x", "y"]),
]

BATCH_JACOBIAN = [
    ("batch_matmul", {"x": inp((3, 2)), "w": inp((2, 4))}, "tf.matmul(x, w)", "x"),
    ("batch_cube", {"x": inp((4, 3), "float32")}, "x * x * x", "x"),
    ("batch_rank3", {"x": inp((2, 2, 3))}, "tf.exp(x) * 0.5", "x"),
    ("batch_rowsum", {"x": inp((3, 4))},
     "tf.reshape(tf.reduce_sum(x * x, axis=1), [3, 1])", "x"),
]

JVP = [
    # name, inputs, expression, primals, tangents (inputs of the same shapes)
    ("exp_scaled", {"x": inp((3,))}, "tf.exp(x) * 3.0", ["x"], {"tx": inp((3,))}),
    ("matmul", {"x": inp((2, 3)), "w": inp((3, 2))}, "tf.matmul(x, w)", ["x", "w"],
     {"tx": inp((2, 3)), "tw": inp((3, 2))}),
    ("sin_broadcast", {"x": inp((2, 3)), "b": inp((3,))}, "tf.sin(x * b)", ["x", "b"],
     {"tx": inp((2, 3)), "tb": inp((3,))}),
    ("reduce_mean", {"x": inp((2, 4), "float32")}, "tf.reduce_mean(x * x, axis=0)", ["x"],
     {"tx": inp((2, 4), "float32")}),
    ("reshape_div", {"x": inp((2, 3)), "y": inp((3, 2))},
     "tf.reshape(x, [3, 2]) / (y * y + 1.0)", ["x", "y"],
     {"tx": inp((2, 3)), "ty": inp((3, 2))}),
    ("one_primal_of_two", {"x": inp((3,)), "y": inp((3,))}, "x * y + y", ["x"],
     {"tx": inp((3,))}),
]


def _vals(tf: Any, inputs: dict[str, Any]) -> dict[str, Any]:
    return {k: tf.constant(np.asarray(v["value"], v["dtype"])) for k, v in inputs.items()}


def _np(t: Any) -> Any:
    return None if t is None else np.asarray(t).tolist()


def main() -> None:
    import tensorflow as tf

    out: dict[str, Any] = {"tf_version": tf.__version__, "jacobian": [],
                           "batch_jacobian": [], "jvp": []}
    for name, inputs, expr, sources in JACOBIAN:
        v = _vals(tf, inputs)
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(list(v.values()))
            y = eval(expr, {"tf": tf}, dict(v))
        res = tape.jacobian(y, [v[s] for s in sources])
        zero = tape.jacobian(y, [v[s] for s in sources], unconnected_gradients="zero")
        out["jacobian"].append({"name": name, "inputs": inputs, "expr": expr,
                                "sources": sources, "result": [_np(r) for r in res],
                                "shapes": [list(r.shape) for r in zero]})
    for name, inputs, expr, source in BATCH_JACOBIAN:
        v = _vals(tf, inputs)
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(list(v.values()))
            y = eval(expr, {"tf": tf}, dict(v))
        res = tape.batch_jacobian(y, v[source])
        out["batch_jacobian"].append({"name": name, "inputs": inputs, "expr": expr,
                                      "source": source, "result": _np(res),
                                      "shape": list(res.shape)})
    for name, inputs, expr, primals, tangents in JVP:
        v = _vals(tf, inputs)
        t = _vals(tf, tangents)
        with tf.autodiff.ForwardAccumulator([v[p] for p in primals], list(t.values())) as acc:
            y = eval(expr, {"tf": tf}, dict(v))
        out["jvp"].append({"name": name, "inputs": inputs, "expr": expr,
                           "primals": primals, "tangents": tangents,
                           "result": _np(acc.jvp(y))})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                        "gradient_tape_extra_tf221.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
