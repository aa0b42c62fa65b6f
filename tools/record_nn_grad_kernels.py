"""Records TF 2.21's results of the nn_grad kernel cases
(tests/python/nn_grad_kernel_cases.py) for tests/python/test_nn_grad_kernels.py
(needs TensorFlow; the tests never do).

    /work/tfvenv/bin/python tools/record_nn_grad_kernels.py

Each case becomes {"ok": [[values, dtype, shape], ...]} or
{"err": class name, "msg": first line of TF's message}, in case order, in
tests/data/nn_grad_kernels_tf221.json.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import tensorflow as tf  # type: ignore[import-not-found]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "python"))
from nn_grad_kernel_cases import CASES  # noqa: E402

OUT = ROOT / "tests" / "data" / "nn_grad_kernels_tf221.json"


def make(v: Any, dt: str) -> Any:
    if isinstance(v, tuple):
        v, dt = v
    if dt == "bfloat16":
        return tf.cast(tf.constant(np.array(v, np.float32)), tf.bfloat16)
    return tf.constant(np.array(v, dtype=dt))


def enc(t: Any) -> list[Any]:
    dt = t.dtype.name
    a = t.numpy()
    if dt == "bfloat16":
        a = a.astype(np.float32)
    return [a.astype(np.float64).ravel().tolist(), dt, list(a.shape)]


def clean(msg: str) -> str:
    """TF's message without the eager wrapper's function-node prefix and
    op suffix (first line only)."""
    msg = msg.split("\n")[0]
    msg = re.sub(r"^\{\{function_node [^}]*\}\} ", "", msg)
    return re.sub(r" \[Op:[^\]]*\]( name: .*)?$", "", msg)


def main() -> None:
    out: list[dict[str, Any]] = []
    for i, (op, dt, ins, attrs) in enumerate(CASES):
        print(i, op, dt, file=sys.stderr, flush=True)
        try:
            with tf.device("/CPU:0"):
                res = getattr(tf.raw_ops, op)(**{k: make(v, dt) for k, v in ins.items()}, **attrs)
            outs = list(res) if isinstance(res, (list, tuple)) else [res]
            out.append({"ok": [enc(t) for t in outs]})
        except (tf.errors.OpError, ValueError, TypeError) as e:
            if isinstance(e, tf.errors.OpError):
                out.append({"err": type(e).__name__, "msg": clean(e.message)})
            else:
                out.append({"err": type(e).__name__, "msg": str(e).split("\n")[0]})
    OUT.write_text(json.dumps(out) + "\n")
    print(f"wrote {len(out)} cases to {OUT}")


if __name__ == "__main__":
    main()
