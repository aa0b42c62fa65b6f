"""Records TF 2.21's results of the optimizer update ops for
tests/python/test_optimizers.py (needs TensorFlow; tests never do).

    /work/tfvenv/bin/python tools/record_training_ops.py

Three steps of ResourceApplyMomentum, ResourceApplyKerasMomentum and
ResourceApplyAdam (with and without Nesterov) on fixed random float32 and
float64 vectors, written to tests/data/training_ops_tf221.json.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import tensorflow as tf  # type: ignore[import-not-found]

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "training_ops_tf221.json"


def main() -> None:
    out: dict[str, dict[str, list[float]]] = {}
    rng = np.random.default_rng(0)
    for dt in ("float32", "float64"):
        var0 = rng.standard_normal(5).astype(dt)
        acc0 = rng.standard_normal(5).astype(dt)
        g = rng.standard_normal(5).astype(dt)
        for op in ("ResourceApplyMomentum", "ResourceApplyKerasMomentum"):
            for nest in (False, True):
                v, a = tf.Variable(var0), tf.Variable(acc0)
                for _ in range(3):
                    getattr(tf.raw_ops, op)(
                        var=v.handle, accum=a.handle, lr=tf.constant(0.1, dt),
                        grad=tf.constant(g), momentum=tf.constant(0.9, dt), use_nesterov=nest,
                    )
                out[f"{op}/{dt}/{nest}"] = {
                    "var": var0.tolist(), "accum": acc0.tolist(), "grad": g.tolist(),
                    "out_var": v.numpy().tolist(), "out_accum": a.numpy().tolist(),
                }
        for nest in (False, True):
            v, m, s = tf.Variable(var0), tf.Variable(acc0), tf.Variable(np.abs(acc0))
            for step in range(1, 4):
                tf.raw_ops.ResourceApplyAdam(
                    var=v.handle, m=m.handle, v=s.handle,
                    beta1_power=tf.constant(0.9**step, dt),
                    beta2_power=tf.constant(0.999**step, dt),
                    lr=tf.constant(0.01, dt), beta1=tf.constant(0.9, dt),
                    beta2=tf.constant(0.999, dt), epsilon=tf.constant(1e-7, dt),
                    grad=tf.constant(g), use_nesterov=nest,
                )
            out[f"ResourceApplyAdam/{dt}/{nest}"] = {
                "var": var0.tolist(), "m": acc0.tolist(), "v": np.abs(acc0).tolist(),
                "grad": g.tolist(), "out_var": v.numpy().tolist(), "out_m": m.numpy().tolist(),
                "out_v": s.numpy().tolist(),
            }
    OUT.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {len(out)} cases to {OUT}")


if __name__ == "__main__":
    main()
