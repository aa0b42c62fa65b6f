"""The TensorFlow-style Python API (issue 16), tfe_py side by side with TF 2.21.

Prints the figures issue 16 names, measured in one run:

* ``import tfe_py``: wall time of the import statement alone, in fresh
  interpreters (``--import-runs`` of them, after one warm-up run that
  caches the compiled bytecode as Python does by default; min and median). numpy's own
  import is measured the same way, since it is most of tfe_py's, and
  ``import tensorflow`` too when a TensorFlow Python is available.
  Goal: tfe_py's median at most 150 ms.
* A scalar ``tf.add(a, b)`` through the public API (``tfe_py.add``) against
  the raw op call ``tfe_py.ops.AddV2(a, b)`` on the same two float32 scalar
  tensors. Goal: at most 2x the raw call.
* The same ``tf.add(a, b)`` in TensorFlow's eager mode. Goal: tfe_py at
  least 5x faster.

TensorFlow is found through --tf-python / $TFE_BENCH_TF_PYTHON / $TF_PYTHON
(a Python that can import tensorflow; its cases run in a subprocess) or an
importable ``tensorflow`` in this Python. Without it the TensorFlow columns
say "skipped"; TensorFlow is never needed by tfe, its tests or CI.

Usage: python benchmarks/bench_python_api.py [--tf-python PY] [--no-tf]
           [--import-runs N] [--tf-import-runs N] [--rounds N]
           [--min-round-ms MS] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

_IMPORT_SCRIPT = (
    "import time, sys\n"
    "t = time.perf_counter()\n"
    "__import__(sys.argv[1])\n"
    "print(time.perf_counter() - t)\n"
)

# Run by the TensorFlow Python: best µs per call of tf.add and
# tf.raw_ops.AddV2 on two float32 scalars, as JSON on the last line.
_TF_DISPATCH_SCRIPT = """
import json, os, sys, timeit
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf
rounds, min_round = int(sys.argv[1]), float(sys.argv[2])
a = tf.constant(1.5, dtype=tf.float32)
b = tf.constant(2.25, dtype=tf.float32)
def best(fn):
    fn()
    number = 1
    while timeit.timeit(fn, number=number) < min_round / 4:
        number *= 2
    number *= 4
    return min(timeit.repeat(fn, number=number, repeat=rounds)) / number * 1e6
add, raw = tf.add, tf.raw_ops.AddV2
out = {"add": best(lambda: add(a, b)), "raw": best(lambda: raw(x=a, y=b)),
       "value": float(add(a, b)), "version": tf.__version__}
print(json.dumps(out))
"""


def _tf_python(arg: str | None, disabled: bool) -> str | None:
    if disabled:
        return None
    for cand in (arg, os.environ.get("TFE_BENCH_TF_PYTHON"), os.environ.get("TF_PYTHON")):
        if cand:
            return cand
    try:
        import tensorflow  # type: ignore[import-not-found]  # noqa: F401
    except Exception:
        return None
    return sys.executable


def _best_per_call(fn: Callable[[], object], rounds: int, min_round_s: float) -> float:
    fn()
    number = 1
    while timeit.timeit(fn, number=number) < min_round_s / 4:
        number *= 2
    number *= 4
    return min(timeit.repeat(fn, number=number, repeat=rounds)) / number


def import_times(python: str, module: str, runs: int, cwd: Path | None = None) -> list[float]:
    """Seconds the statement ``import <module>`` takes in ``runs`` fresh
    interpreters (the interpreter's own start-up is not counted)."""
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    # Python's default: compiled bytecode is cached, so an import does not
    # recompile the package (a shell may set PYTHONDONTWRITEBYTECODE, which
    # would make every run compile every module). One warm-up run writes
    # the cache.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([python, "-c", _IMPORT_SCRIPT, module], capture_output=True, check=True,
                   env=env, cwd=cwd)
    out: list[float] = []
    for _ in range(runs):
        proc = subprocess.run(
            [python, "-c", _IMPORT_SCRIPT, module],
            capture_output=True,
            text=True,
            check=True,
            env=env,
            cwd=cwd,
        )
        out.append(float(proc.stdout.strip().splitlines()[-1]))
    return out


def bench_imports(args: argparse.Namespace, tf_python: str | None) -> dict[str, Any]:
    res: dict[str, Any] = {}
    # Alternate numpy and tfe_py so that a load change hits both alike.
    np_t: list[float] = []
    tfe_t: list[float] = []
    for _ in range(args.import_runs):
        np_t += import_times(sys.executable, "numpy", 1)
        tfe_t += import_times(sys.executable, "tfe_py", 1, cwd=ROOT)
    res["numpy"] = {"min": min(np_t), "median": statistics.median(np_t)}
    res["tfe_py"] = {"min": min(tfe_t), "median": statistics.median(tfe_t)}
    if tf_python and args.tf_import_runs > 0:
        try:
            tf_t = import_times(tf_python, "tensorflow", args.tf_import_runs)
            res["tensorflow"] = {"min": min(tf_t), "median": statistics.median(tf_t)}
        except subprocess.CalledProcessError as exc:
            res["tensorflow_error"] = (exc.stderr or "failed").strip().splitlines()[-1]
    return res


def bench_dispatch(args: argparse.Namespace, tf_python: str | None) -> dict[str, Any]:
    res: dict[str, Any] = {}
    sys.path.insert(0, str(ROOT))
    import numpy as np

    import tfe_py
    from tfe_py import ops

    a = tfe_py.constant(np.float32(1.5))
    b = tfe_py.constant(np.float32(2.25))
    raw = ops.AddV2
    min_round = args.min_round_ms / 1e3
    res["raw"] = _best_per_call(lambda: raw(a, b), args.rounds, min_round) * 1e6
    try:
        add = tfe_py.add
        res["value"] = float(add(a, b))
        res["add"] = _best_per_call(lambda: add(a, b), args.rounds, min_round) * 1e6
        # The raw call again, right after, so that the ratio does not
        # depend on a load change between the two.
        again = _best_per_call(lambda: raw(a, b), args.rounds, min_round) * 1e6
        res["raw"] = min(res["raw"], again)
    except AttributeError as exc:
        res["add_error"] = str(exc)
    if tf_python:
        proc = subprocess.run(
            [tf_python, "-c", _TF_DISPATCH_SCRIPT, str(args.rounds), str(min_round)],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode == 0:
            res["tf"] = json.loads(proc.stdout.strip().splitlines()[-1])
        else:
            res["tf_error"] = (proc.stderr.strip().splitlines() or ["failed"])[-1]
    return res


def _ms(d: dict[str, float]) -> str:
    return f"median {d['median'] * 1e3:7.1f} ms   min {d['min'] * 1e3:7.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tf-python", help="a Python that can import tensorflow")
    parser.add_argument("--no-tf", action="store_true", help="skip the TensorFlow cases")
    parser.add_argument("--import-runs", type=int, default=15, help="fresh interpreters each")
    parser.add_argument("--tf-import-runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--min-round-ms", type=float, default=100.0)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.import_runs < 1 or args.rounds < 1:
        parser.error("--import-runs and --rounds must be at least 1")
    tf_python = _tf_python(args.tf_python, args.no_tf)

    imports = bench_imports(args, tf_python)
    dispatch = bench_dispatch(args, tf_python)

    print("import time (fresh interpreter, the import statement only)")
    print(f"  numpy        {_ms(imports['numpy'])}")
    tfe_med = imports["tfe_py"]["median"] * 1e3
    verdict = "meets" if tfe_med <= 150 else "MISSES"
    print(f"  tfe_py       {_ms(imports['tfe_py'])}   ({verdict} the goal: <= 150 ms)")
    if "tensorflow" in imports:
        tf_med = imports["tensorflow"]["median"]
        print(
            f"  tensorflow   {_ms(imports['tensorflow'])}   "
            f"(tfe_py {tf_med / imports['tfe_py']['median']:.0f}x faster)"
        )
    elif tf_python:
        print(f"  tensorflow   failed: {imports.get('tensorflow_error')}")
    else:
        print("  tensorflow   skipped (no TensorFlow Python)")

    print("scalar add, float32 scalars (best per call)")
    print(f"  tfe_py.ops.AddV2(a, b)   {dispatch['raw']:7.3f} us")
    if "add" in dispatch:
        ratio = dispatch["add"] / dispatch["raw"]
        verdict = "meets" if ratio <= 2 else "MISSES"
        print(
            f"  tfe_py.add(a, b)         {dispatch['add']:7.3f} us   "
            f"{ratio:.2f}x the raw call ({verdict} the goal: <= 2x)"
        )
    else:
        print(f"  tfe_py.add(a, b)         failed: {dispatch.get('add_error')}")
    if "tf" in dispatch and "add" in dispatch:
        tf = dispatch["tf"]
        speedup = tf["add"] / dispatch["add"]
        verdict = "meets" if speedup >= 5 else "MISSES"
        print(
            f"  TF {tf['version']} tf.add(a, b)  {tf['add']:7.3f} us   "
            f"tfe_py {speedup:.1f}x faster ({verdict} the goal: >= 5x)"
        )
        print(f"  TF tf.raw_ops.AddV2       {tf['raw']:7.3f} us   (for information)")
        if abs(tf["value"] - dispatch["value"]) > 1e-6:
            print(f"  VALUES DIFFER: tfe {dispatch['value']} TF {tf['value']}")
            return 1
    elif "tf_error" in dispatch:
        print(f"  TF tf.add(a, b)          failed: {dispatch['tf_error']}")
    else:
        print("  TF tf.add(a, b)          skipped (no TensorFlow Python)")
    if args.json:
        Path(args.json).write_text(
            json.dumps({"imports": imports, "dispatch": dispatch}, indent=1) + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
