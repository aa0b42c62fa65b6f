"""Records TF 2.21's values of tests/python/custom_grad_function_programs.py
(custom gradients traced into tf.function, gradients through stateful
function bodies) into tests/data/custom_grad_function_tf221.json.

Run outside the tests: /work/tfvenv/bin/python tools/record_custom_grad_function.py"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "python"))

import tensorflow as tf  # noqa: E402
from custom_grad_function_programs import PROGRAMS  # noqa: E402


def main() -> None:
    out: dict[str, Any] = {"tf_version": tf.__version__, "programs": {}}
    for name, prog in PROGRAMS.items():
        try:
            values = prog(tf)
            out["programs"][name] = {k: v.tolist() for k, v in values.items()}
        except Exception as exc:  # recorded: tfe must fail the same way
            out["programs"][name] = {"error": type(exc).__name__, "message": str(exc)[:300]}
        print(name, out["programs"][name])
    path = ROOT / "tests" / "data" / "custom_grad_function_tf221.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
