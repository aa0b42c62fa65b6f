"""Records ops_special_scan_tf221.json for test_ops_special_scan.py: TF 2.21's
CumulativeLogsumexp outputs (or error class and first message line, without
TF's node-name prefix) for the cases listed in CASES. Needs TensorFlow."""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any

import numpy as np
import tensorflow as tf

nan, inf = float("nan"), float("inf")


def cases() -> list[dict[str, Any]]:
    rng = np.random.default_rng(11)
    out: list[dict[str, Any]] = []
    edge = [1.0, nan, 2.0, -inf, inf, 3.0]
    for dt in ["float32", "float64", "float16", "bfloat16"]:
        for excl in (False, True):
            for rev in (False, True):
                out.append({"x": edge, "dt": dt, "axis": 0, "exclusive": excl, "reverse": rev})
        x = rng.uniform(-20, 20, (3, 4, 5)).round(3).tolist()
        for axis in (0, 1, 2, -1, -3):
            out.append({"x": x, "dt": dt, "axis": axis, "exclusive": False, "reverse": False})
        out.append({"x": x, "dt": dt, "axis": 1, "exclusive": True, "reverse": True})
    out.append({"x": [nan, 1.0, 2.0], "dt": "float64", "axis": 0})
    out.append({"x": [1.0, inf, nan, 2.0], "dt": "float64", "axis": 0})
    out.append({"x": [-inf, -inf, 1.0, inf, -inf], "dt": "float32", "axis": 0, "exclusive": True})
    out.append({"x": [-800.0, -800.0, 700.0, 700.0], "dt": "float64", "axis": 0})
    out.append({"x": [], "zeros": [0, 2], "dt": "float32", "axis": 1})
    out.append({"x": [], "dt": "float32", "axis": 0})
    out.append({"x": [[1.0, 2.0]], "dt": "float32", "axis": 1, "axis_dt": "int64"})
    # errors
    out.append({"x": [[1.0, 2.0]], "dt": "float32", "axis": 2})
    out.append({"x": [[1.0, 2.0]], "dt": "float32", "axis": -3})
    out.append({"x": [[1.0, 2.0]], "dt": "float32", "axis": [0]})
    out.append({"x": 1.0, "dt": "float32", "axis": 0})
    return out


def main() -> None:
    res = []
    for c in cases():
        xa = np.array(c["x"], dtype=np.float64).reshape(c.get("zeros", np.shape(c["x"])))
        x = tf.constant(xa, dtype=tf.as_dtype(c["dt"]))
        ax = tf.constant(c["axis"], dtype=tf.as_dtype(c.get("axis_dt", "int32")))
        try:
            y = tf.raw_ops.CumulativeLogsumexp(
                x=x, axis=ax, exclusive=c.get("exclusive", False), reverse=c.get("reverse", False)
            )
            v = tf.cast(y, tf.float64).numpy()
            res.append({**c, "ok": v.ravel().tolist(), "shape": list(v.shape)})
        except tf.errors.OpError as e:
            msg = re.sub(r"^\{\{function_node [^}]*\}\} ", "", e.message.split("\n")[0])
            msg = re.sub(r" \[Op:[^]]*\].*$", "", msg)
            res.append({**c, "err": type(e).__name__, "msg": msg})
    path = pathlib.Path(__file__).parent / "ops_special_scan_tf221.json"
    path.write_text(json.dumps(res, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
