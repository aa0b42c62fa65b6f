"""Shared runner for the per-family kernel benchmarks (issue 18): times raw
ops in tfe and, in one run, the same ops in TensorFlow 2.21.

A benchmark script holds its cases as Python source (a string), so that the
very same code builds the inputs in this process and in the TensorFlow
subprocess. The source defines ``make_cases(small)`` returning a list whose
items are either

* ``(name, op, inputs, attrs)``: one raw op; ``inputs`` maps input names to
  numpy arrays (or lists of arrays for list inputs), ``attrs`` is passed as
  keyword arguments; or
* ``(name, setup)``: a program; ``setup(raw, const)`` receives the raw-op
  namespace (``tfe_py.ops`` or ``tf.raw_ops``) and a function that makes a
  tensor from a numpy array, does any one-time work (creating a resource,
  say), and returns the zero-argument callable to time.

Each case is timed as the best of ``--repeat`` calls after one warm-up call,
and the line prints tfe's time, TF's and the ratio tfe / TF (below 1.0:
tfe is faster). TensorFlow runs in a subprocess: the Python named by
TFE_BENCH_TF_PYTHON (one with tensorflow installed); without it only tfe's
times are printed.

Usage from a benchmark script::

    from raw_op_bench import main
    if __name__ == "__main__":
        main(_CASES_SRC, goal=1.5)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# Run in the TF subprocess after the cases' source: the same loop as
# time_cases() below, with TensorFlow's raw ops.
_TF_MAIN = '''
import json as _json, sys as _sys, time as _time
import tensorflow as _tf

def _const(v):
    if isinstance(v, (list, tuple)):
        return [_tf.constant(x) for x in v]
    return _tf.constant(v)

def _main():
    small, repeat, only = _sys.argv[1] == "1", int(_sys.argv[2]), _sys.argv[3]
    res = {}
    for case in make_cases(small):
        name = case[0]
        if only and only.lower() not in name.lower():
            continue
        if len(case) == 2:
            fn = case[1](_tf.raw_ops, _const)
        else:
            _, op, ins, attrs = case
            t = {k: _const(v) for k, v in ins.items()}
            fn = (lambda op=op, t=t, attrs=attrs: getattr(_tf.raw_ops, op)(**t, **attrs))
        fn()
        best = 1e9
        for _ in range(repeat):
            t0 = _time.perf_counter()
            fn()
            best = min(best, _time.perf_counter() - t0)
        res[name] = best
    print(_json.dumps(res))

_main()
'''


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """The shortest of `repeat` timed calls of fn, after one warm-up call."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def tf_times(cases_src: str, small: bool, repeat: int, only: str) -> dict[str, float] | None:
    """TF 2.21's best times per case name, or None without TFE_BENCH_TF_PYTHON."""
    py = os.environ.get("TFE_BENCH_TF_PYTHON")
    if not py:
        return None
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    out = subprocess.run(
        [py, "-c", cases_src + _TF_MAIN, "1" if small else "0", str(repeat), only],
        capture_output=True, text=True, env=env, check=True)
    res: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return res


def _tfe_const(v: Any) -> Any:
    from tfe_py.eager import constant

    if isinstance(v, (list, tuple)):
        return [constant(x) for x in v]
    return constant(v)


def time_cases(cases_src: str, small: bool, repeat: int, only: str) -> list[tuple[str, float]]:
    """tfe's best time per case, in the cases' order."""
    from tfe_py import ops

    ns: dict[str, Any] = {}
    exec(cases_src, ns)
    out = []
    for case in ns["make_cases"](small):
        name = case[0]
        if only and only.lower() not in name.lower():
            continue
        if len(case) == 2:
            fn = case[1](ops, _tfe_const)
        else:
            _, op, ins, attrs = case
            t = {k: _tfe_const(v) for k, v in ins.items()}

            def fn(op: str = op, t: dict[str, Any] = t, attrs: dict[str, Any] = attrs) -> object:
                return getattr(ops, op)(**t, **attrs)

        out.append((name, best_of(fn, repeat)))
    return out


def main(cases_src: str, goal: float | None = None, argv: list[str] | None = None) -> float:
    """Parses --repeat/--only/--small, prints one line per case and the
    worst ratio; returns the worst ratio (0.0 without TensorFlow)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--only", default="", help="run only cases whose name contains this")
    ap.add_argument("--small", action="store_true", help="smaller inputs (a quick check)")
    a = ap.parse_args(argv)
    mine = time_cases(cases_src, a.small, a.repeat, a.only)
    ref = tf_times(cases_src, a.small, a.repeat, a.only)
    worst = 0.0
    for name, s in mine:
        if ref is not None and name in ref:
            ratio = s / ref[name]
            worst = max(worst, ratio)
            print(f"{name:<52} tfe {s * 1e3:9.3f} ms   TF {ref[name] * 1e3:9.3f} ms"
                  f"   ratio {ratio:5.2f}")
        else:
            print(f"{name:<52} tfe {s * 1e3:9.3f} ms")
    if ref is not None:
        tail = f" (goal: at most {goal:.2f})" if goal is not None else ""
        print(f"worst ratio {worst:.2f}{tail}")
    return worst
