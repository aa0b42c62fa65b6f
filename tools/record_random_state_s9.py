"""Record TF 2.21's draws for tests/python/random_state_s9_programs.py.

Run OUTSIDE the tests with the TF 2.21 python:
    /work/tfvenv/bin/python tools/record_random_state_s9.py
writes tests/data/random_state_s9_tf221.json. Every program runs twice in
fresh processes to check that the recorded values are deterministic."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "random_state_s9_tf221.json"


def run_all() -> dict[str, list[list[float]]]:
    import tensorflow as tf

    sys.path.insert(0, str(ROOT / "tests" / "python"))
    from random_state_s9_programs import programs

    progs = programs(tf, {"parallel_iterations": 1})
    return {name: [a.astype(float).tolist() for a in fn()] for name, fn in progs.items()}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        print(json.dumps(run_all()))
        return
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    runs = [
        json.loads(
            subprocess.run(
                [sys.executable, __file__, "--child"], capture_output=True, text=True,
                check=True, env=env,
            ).stdout.strip().splitlines()[-1]
        )
        for _ in range(2)
    ]
    if runs[0] != runs[1]:
        raise SystemExit("TF's draws differ between two runs")
    OUT.write_text(json.dumps({"tf_version": "2.21", "programs": runs[0]}, indent=1) + "\n")
    print(f"wrote {OUT} ({len(runs[0])} programs)")


if __name__ == "__main__":
    main()
