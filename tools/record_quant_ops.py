"""Records TF 2.21's outputs and errors of the quant op group's kernels
(FakeQuantWithMinMax* and their gradients) into
tests/data/quant_ops_tf221.json, read by tests/python/test_quant_ops.py.

Run with the TF 2.21 python: /work/tfvenv/bin/python tools/record_quant_ops.py
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "quant_ops_tf221.json")
rng = np.random.default_rng(1818)
CASES: list[dict[str, Any]] = []


def _spec(a: np.ndarray) -> dict[str, Any]:
    return {"dtype": str(a.dtype), "shape": list(a.shape), "value": a.ravel().tolist()}


def add(
    name: str, op: str, inputs: dict[str, np.ndarray], attrs: dict[str, Any] | None = None
) -> None:
    attrs = attrs or {}
    cs: dict[str, Any] = {
        "name": name,
        "op": op,
        "attrs": attrs,
        "inputs": {k: _spec(np.asarray(v)) for k, v in inputs.items()},
    }
    try:
        res = getattr(tf.raw_ops, op)(**{k: tf.constant(v) for k, v in inputs.items()}, **attrs)
        outs = list(res) if isinstance(res, (list, tuple)) else [res]
        cs["outputs"] = [_spec(o.numpy()) for o in outs]
    except tf.errors.OpError as e:
        cs["error"] = {"type": type(e).__name__, "message": e.message}
    CASES.append(cs)


def f32(*shape: int, lo: float = -8.0, hi: float = 8.0) -> np.ndarray:
    return rng.uniform(lo, hi, shape).astype(np.float32)


# values on and near the quantization grid, the clamp edges and specials
EDGE = np.array(
    [
        -7.0,
        -6.0,
        -6.0000005,
        -5.9999995,
        -0.0235,
        0.0,
        -0.0,
        0.0234375,
        0.02352941,
        0.5,
        1.0,
        2.99,
        5.9999995,
        6.0,
        6.0000005,
        7.5,
        np.inf,
        -np.inf,
        np.nan,
    ],
    np.float32,
)
RANGES = [
    (-6.0, 6.0),
    (0.0, 1.0),
    (-1.0, 0.0),
    (-0.1, 0.5),
    (-2.5, 7.25),
    (0.3, 1.7),
    (-1.7, -0.2),
    (-1e-6, 1e-6),
    (-100.0, 3.0),
    (-0.0, 0.0),
]
BITS = [
    (8, False),
    (8, True),
    (2, False),
    (2, True),
    (4, True),
    (16, False),
    (16, True),
    (7, False),
]

# ---- FakeQuantWithMinMaxArgs / Gradient
for i, (lo, hi) in enumerate(RANGES):
    for nb, nr in BITS[: 3 if i > 2 else len(BITS)]:
        a = {"min": lo, "max": hi, "num_bits": nb, "narrow_range": nr}
        x = np.concatenate([EDGE, f32(13, lo=lo * 1.2 - 0.1, hi=hi * 1.2 + 0.1)])
        add(f"args_{i}_{nb}_{nr}", "FakeQuantWithMinMaxArgs", {"inputs": x}, a)
        add(
            f"argsgrad_{i}_{nb}_{nr}",
            "FakeQuantWithMinMaxArgsGradient",
            {"gradients": f32(x.size, lo=-1, hi=1), "inputs": x},
            a,
        )
add("args_2d", "FakeQuantWithMinMaxArgs", {"inputs": f32(3, 4)})
add("args_empty", "FakeQuantWithMinMaxArgs", {"inputs": f32(0, 3)})
add("args_scalar", "FakeQuantWithMinMaxArgs", {"inputs": np.float32(1.3)})
for nm, a in [
    ("min_eq_max", {"min": 1.0, "max": 1.0}),
    ("min_gt_max", {"min": 2.0, "max": -1.5}),
    ("bits_1", {"num_bits": 1}),
    ("bits_17", {"num_bits": 17}),
    ("min_nan", {"min": float("nan")}),
    ("bits_neg", {"num_bits": -3}),
]:
    add(f"args_err_{nm}", "FakeQuantWithMinMaxArgs", {"inputs": f32(3)}, a)
    add(
        f"argsgrad_err_{nm}",
        "FakeQuantWithMinMaxArgsGradient",
        {"gradients": f32(3), "inputs": f32(3)},
        a,
    )
add(
    "argsgrad_err_shape", "FakeQuantWithMinMaxArgsGradient", {"gradients": f32(3), "inputs": f32(4)}
)
add(
    "argsgrad_err_shape2",
    "FakeQuantWithMinMaxArgsGradient",
    {"gradients": f32(2, 3), "inputs": f32(3, 2)},
)

# ---- FakeQuantWithMinMaxVars / Gradient
for i, (lo, hi) in enumerate([*RANGES, (1.0, -1.0), (0.0, 0.0), (2.0, 2.0)]):
    for nb, nr in BITS[:3]:
        a = {"num_bits": nb, "narrow_range": nr}
        x = np.concatenate([EDGE, f32(9, lo=min(lo, hi) * 1.2 - 0.1, hi=max(lo, hi) * 1.2 + 0.1)])
        mn, mx = np.float32(lo), np.float32(hi)
        add(
            f"vars_{i}_{nb}_{nr}", "FakeQuantWithMinMaxVars", {"inputs": x, "min": mn, "max": mx}, a
        )
        add(
            f"varsgrad_{i}_{nb}_{nr}",
            "FakeQuantWithMinMaxVarsGradient",
            {"gradients": f32(x.size, lo=-1, hi=1), "inputs": x, "min": mn, "max": mx},
            a,
        )
add(
    "vars_2d",
    "FakeQuantWithMinMaxVars",
    {"inputs": f32(2, 5), "min": np.float32(-3), "max": np.float32(2)},
)
add(
    "varsgrad_2d",
    "FakeQuantWithMinMaxVarsGradient",
    {"gradients": f32(2, 5), "inputs": f32(2, 5), "min": np.float32(-3), "max": np.float32(2)},
)
add(
    "vars_empty",
    "FakeQuantWithMinMaxVars",
    {"inputs": f32(0), "min": np.float32(-3), "max": np.float32(2)},
)
add(
    "varsgrad_empty",
    "FakeQuantWithMinMaxVarsGradient",
    {"gradients": f32(0), "inputs": f32(0), "min": np.float32(-3), "max": np.float32(2)},
)
for nm, a in [("bits_1", {"num_bits": 1}), ("bits_17", {"num_bits": 17})]:
    add(
        f"vars_err_{nm}",
        "FakeQuantWithMinMaxVars",
        {"inputs": f32(3), "min": np.float32(-1), "max": np.float32(1)},
        a,
    )
    add(
        f"varsgrad_err_{nm}",
        "FakeQuantWithMinMaxVarsGradient",
        {"gradients": f32(3), "inputs": f32(3), "min": np.float32(-1), "max": np.float32(1)},
        a,
    )
add(
    "vars_err_min_vec",
    "FakeQuantWithMinMaxVars",
    {"inputs": f32(3), "min": f32(1), "max": np.float32(1)},
)
add(
    "vars_err_max_vec",
    "FakeQuantWithMinMaxVars",
    {"inputs": f32(3), "min": np.float32(-1), "max": f32(2)},
)
add(
    "varsgrad_err_min_vec",
    "FakeQuantWithMinMaxVarsGradient",
    {"gradients": f32(3), "inputs": f32(3), "min": f32(1), "max": np.float32(1)},
)
add(
    "varsgrad_err_max_vec",
    "FakeQuantWithMinMaxVarsGradient",
    {"gradients": f32(3), "inputs": f32(3), "min": np.float32(-1), "max": f32(1, 1)},
)
add(
    "varsgrad_err_shape",
    "FakeQuantWithMinMaxVarsGradient",
    {"gradients": f32(3), "inputs": f32(4), "min": np.float32(-1), "max": np.float32(1)},
)

# ---- PerChannel / Gradient
for nb, nr in BITS[:4]:
    a = {"num_bits": nb, "narrow_range": nr}
    mins = np.array([-6, 0, -1, -0.1, -2.5, 0.3, -1.7, 0, 1, 2], np.float32)
    maxs = np.array([6, 1, 0, 0.5, 7.25, 1.7, -0.2, 0, -1, 2], np.float32)
    x = f32(4, 10, lo=-8, hi=8)
    x[0, :] = 0.0
    x[1, :] = np.nan
    add(
        f"pc_{nb}_{nr}",
        "FakeQuantWithMinMaxVarsPerChannel",
        {"inputs": x, "min": mins, "max": maxs},
        a,
    )
    add(
        f"pcgrad_{nb}_{nr}",
        "FakeQuantWithMinMaxVarsPerChannelGradient",
        {"gradients": f32(4, 10, lo=-1, hi=1), "inputs": x, "min": mins, "max": maxs},
        a,
    )
for shp in [(3,), (2, 2, 3), (1, 2, 1, 3)]:
    x = f32(*shp, lo=-3, hi=3)
    mn, mx = np.array([-1, -2, 0], np.float32), np.array([1, 0.5, 2], np.float32)
    add(
        f"pc_rank{len(shp)}",
        "FakeQuantWithMinMaxVarsPerChannel",
        {"inputs": x, "min": mn, "max": mx},
    )
    add(
        f"pcgrad_rank{len(shp)}",
        "FakeQuantWithMinMaxVarsPerChannelGradient",
        {"gradients": f32(*shp), "inputs": x, "min": mn, "max": mx},
    )
add(
    "pc_empty",
    "FakeQuantWithMinMaxVarsPerChannel",
    {"inputs": f32(0, 2), "min": np.float32([-1, -1]), "max": np.float32([1, 1])},
)
add(
    "pcgrad_empty",
    "FakeQuantWithMinMaxVarsPerChannelGradient",
    {
        "gradients": f32(0, 2),
        "inputs": f32(0, 2),
        "min": np.float32([-1, -1]),
        "max": np.float32([1, 1]),
    },
)
m2 = np.float32([-1, -1])
for nm, inp in [
    ("depth", {"inputs": f32(2, 3), "min": m2, "max": m2 + 2}),
    ("min_depth", {"inputs": f32(2, 2), "min": f32(3), "max": m2 + 2}),
    ("max_depth", {"inputs": f32(2, 2), "min": m2, "max": f32(3)}),
    ("min_rank2", {"inputs": f32(2, 2), "min": f32(1, 2), "max": m2 + 2}),
    ("bits_1", {"inputs": f32(2, 2), "min": m2, "max": m2 + 2}),
]:
    a = {"num_bits": 1} if nm == "bits_1" else {}
    add(f"pc_err_{nm}", "FakeQuantWithMinMaxVarsPerChannel", inp, a)
    g = dict(inp)
    g["gradients"] = np.zeros_like(inp["inputs"])
    add(f"pcgrad_err_{nm}", "FakeQuantWithMinMaxVarsPerChannelGradient", g, a)
add(
    "pcgrad_err_shape",
    "FakeQuantWithMinMaxVarsPerChannelGradient",
    {"gradients": f32(3, 2), "inputs": f32(2, 2), "min": m2, "max": m2 + 2},
)

os.makedirs(os.path.dirname(OUT), exist_ok=True)
with open(OUT, "w") as f:
    json.dump({"tf_version": tf.__version__, "cases": CASES}, f, allow_nan=True)
print(len(CASES), "cases,", sum("error" in c for c in CASES), "errors")
