"""Graphs and sessions (issue 14), tfe side by side with TensorFlow 2.21.

Prints each figure issue 14 names, measured in one run for both runtimes:

* C, ``TF_SessionRun`` of a one-node graph (two scalar float placeholders
  fed, their AddV2 fetched): ns per run. Goal: tfe >= 10x faster.
* C, one run of a 1,000-node elementwise graph on 1,024 floats: us per
  run. Goal: >= 3x faster. numpy running the same 1,000 operations one
  by one on the same array is printed too (a floor with no runtime). The
  same graph on 16 floats is printed as well: there the kernels cost
  little and the figure is the executor's per-node overhead.
* C, ``TF_GraphImportGraphDef`` of a 10,000-node GraphDef: ms. Goal: >= 5x.
* Python, ``@tfe_py.function`` of a 50-op scalar function called
  repeatedly vs ``tf.function`` on the same function: us per call.
  Goal: >= 5x.
* Python, for information: ``tfe_py.Session.run`` of the one-node graph
  with two Python float feeds vs ``tf.compat.v1.Session.run``.

The C figures come from ONE source, benchmarks/c/bench_graph.c, compiled
twice: against libtfe and against TensorFlow's own C API library
(libtensorflow_cc.so.2 + libtensorflow_framework.so.2 from the
tensorflow-cpu wheel; tfe's headers are TF's interface). The two programs
run case by case, alternating, and check that they computed the same
thing. The GraphDefs are encoded byte for byte by that program, so both
runtimes import the same bytes.

TensorFlow is found through --tf-python / $TFE_BENCH_TF_PYTHON /
$TF_PYTHON (a Python that can import tensorflow; the Python function
benchmark runs there in a subprocess) or $TF_LIB_DIR (the directory of
libtensorflow_cc.so.2, C figures only). Without it, the TensorFlow columns
say "skipped". TensorFlow is never needed by tfe, its tests or CI.

Usage: python benchmarks/bench_graphs.py [--build DIR] [--tf-python PY]
           [--rounds N] [--min-round-ms MS] [--repeat N] [--only CASE[,CASE]] [--no-tf]
           [--json FILE]
       cases: session_run, graph1000, import10k, function, py_session_run
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import textwrap
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

C_SOURCE = ROOT / "benchmarks" / "c" / "bench_graph.c"
C_CASES = ("session_run", "graph1000", "graph1000_16", "import10k")
GOALS: dict[str, float | None] = {
    "session_run": 10.0, "graph1000": 3.0, "graph1000_16": 3.0, "import10k": 5.0, "function": 5.0,
    "py_session_run": None,
}  # fmt: skip
UNITS = {
    "session_run": "ns/run", "graph1000": "us/run", "graph1000_16": "us/run", "import10k": "ms",
    "function": "us/call",
    "py_session_run": "us/run",
}  # fmt: skip
TITLES = {
    "session_run": "TF_SessionRun, one AddV2 node, 2 scalar feeds + 1 fetch (C)",
    "graph1000": "1,000-node elementwise graph, 1,024 floats, one run (C)",
    "graph1000_16": "same graph on 16 floats (executor overhead) (C)",
    "import10k": "TF_GraphImportGraphDef, 10,000-node GraphDef (C)",
    "function": "50-op scalar function called repeatedly (Python)",
    "py_session_run": "Session.run, one AddV2 node, 2 scalar feeds (Python)",
}
ELEMENTS = 1024


# ------------------------------------------------------------- helpers
def _tf_python(arg: str | None) -> str | None:
    for cand in (arg, os.environ.get("TFE_BENCH_TF_PYTHON"), os.environ.get("TF_PYTHON")):
        if cand:
            return cand
    try:
        import tensorflow  # type: ignore[import-not-found]  # noqa: F401
    except Exception:
        return None
    return sys.executable


def _tf_lib_dir(tf_python: str | None) -> Path | None:
    env = os.environ.get("TF_LIB_DIR")
    if env:
        return Path(env)
    if not tf_python:
        return None
    proc = subprocess.run(
        [tf_python, "-c", "import os, tensorflow as tf; print(os.path.dirname(tf.__file__))"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
    )
    if proc.returncode != 0:
        return None
    path = Path(proc.stdout.strip().splitlines()[-1])
    return path if (path / "libtensorflow_cc.so.2").exists() else None


def _tfe_library(build: str | None) -> Path:
    """libtfe to link: the build directory's, else the one tfe_py loads."""
    if build:
        lib = Path(build) / "libtfe.so"
        if not lib.exists():
            raise SystemExit(f"{lib} not found (build tfe there first)")
        return lib
    from tfe_py import runtime_library_path

    return Path(runtime_library_path())


def _compile(out: Path, runtime: str, link: list[str], source: Path = C_SOURCE) -> None:
    cc = shlex.split(os.environ.get("CC") or "cc")
    cmd = [
        *cc, "-std=c11", "-O2", "-Wall", "-Wextra", f"-I{ROOT / 'include'}",
        f"-DBENCH_RUNTIME=\"{runtime}\"", str(source), "-o", str(out), *link,
    ]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"compiling {source} failed:\n{shlex.join(cmd)}\n{proc.stderr}")


def _run_c(exe: Path, case: str, args: argparse.Namespace) -> tuple[float, str, str]:
    """(value, checksum, human line) of one case of one C program."""
    c_case, elements = ("graph1000", 16) if case == "graph1000_16" else (case, ELEMENTS)
    cmd = [
        str(exe), "--rounds", str(args.rounds), "--min-round-ms", str(args.min_round_ms),
        "--elements", str(elements), c_case,
    ]  # fmt: skip
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    if proc.returncode != 0:
        lines = [ln for ln in (proc.stdout + proc.stderr).splitlines() if ln.strip()]
        raise RuntimeError(f"{case} exited with {proc.returncode}: {(lines or [''])[-1]}")
    value, check, human = float("nan"), "", ""
    for line in proc.stdout.splitlines():
        parts = line.split()
        if line.startswith("RESULT ") and parts[2] == c_case:
            value = float(parts[3])
        elif line.startswith("CHECK ") and parts[2] == c_case:
            check = parts[3]
        elif line.strip():
            human = line
    return value, check, human


# ------------------------------------------- numpy: the 1,000-node graph
def elementwise_chain(x: np.ndarray, nodes: int) -> Callable[[], np.ndarray]:
    """The graph of bench_graph.c as numpy calls (same structure)."""
    half = np.float32(0.5)
    plan = []
    for k in range(1, nodes + 1):
        other = max(0, k - 2 - (k % 7))
        plan.append((k % 5, other))

    def run() -> np.ndarray:
        vals: list[Any] = [x]
        for k, (m, other) in enumerate(plan, start=1):
            a = vals[-1]
            if k > 9:
                vals[k - 10] = None  # no later node reads it (as an executor frees it)
            if m == 0:
                r = np.multiply(a, half)
            elif m == 1:
                r = np.add(a, vals[other])
            elif m == 2:
                r = np.maximum(a, vals[other])
            elif m == 3:
                r = np.minimum(a, vals[other])
            else:
                r = np.subtract(a, half)
            vals.append(r)
        return vals[-1]

    return run


def bench_input(elements: int = ELEMENTS) -> np.ndarray:
    j = np.arange(elements)
    return (((j * 37) % 101).astype(np.float32) / np.float32(50.0) - np.float32(1)).astype(
        np.float32
    )


def _best_per_call(fn: Callable[[], object], rounds: int, min_round_s: float) -> float:
    fn()
    number = 1
    while timeit.timeit(fn, number=number) < min_round_s / 4:
        number *= 2
    number *= 4
    return min(timeit.repeat(fn, number=number, repeat=rounds)) / number


# ---------------------------------------- the 50-op function (Python)
def fifty_ops(add: Any, mul: Any, sub: Any, maximum: Any, minimum: Any) -> Callable[..., Any]:
    """f(x, y, h): 50 scalar ops in a chain (Mul, AddV2, Maximum, Minimum, Sub)."""

    def f(x: Any, y: Any, h: Any) -> Any:
        v = x
        for i in range(50):
            m = i % 5
            if m == 0:
                v = mul(v, h)
            elif m == 1:
                v = add(v, y)
            elif m == 2:
                v = maximum(v, y)
            elif m == 3:
                v = minimum(v, x)
            else:
                v = sub(v, h)
        return v

    return f


_TF_FUNCTION_SCRIPT = textwrap.dedent(
    """
    import json, os, sys, timeit
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    sys.path.insert(0, sys.argv[1])
    import tensorflow as tf
    from benchmarks.bench_graphs import fifty_ops
    rounds, min_round_s = int(sys.argv[2]), float(sys.argv[3])
    f = tf.function(fifty_ops(tf.math.add, tf.math.multiply, tf.math.subtract,
                              tf.math.maximum, tf.math.minimum))
    x, y, h = tf.constant(1.25), tf.constant(-0.5), tf.constant(0.5)
    value = float(f(x, y, h))
    call = lambda: f(x, y, h)
    number = 1
    while timeit.timeit(call, number=number) < min_round_s / 4:
        number *= 2
    number *= 4
    best = min(timeit.repeat(call, number=number, repeat=rounds)) / number
    ops = len(f.get_concrete_function(x, y, h).graph.get_operations())
    print(json.dumps({"us": best * 1e6, "value": value, "graph_ops": ops,
                      "version": tf.__version__}))
    """
)


_TF_SESSION_SCRIPT = textwrap.dedent(
    """
    import json, os, sys, timeit
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    v1 = tf.compat.v1
    rounds, min_round_s = int(sys.argv[1]), float(sys.argv[2])
    g = tf.Graph()
    with g.as_default():
        a = v1.placeholder(tf.float32, [], name="a")
        b = v1.placeholder(tf.float32, [], name="b")
        s = tf.raw_ops.AddV2(x=a, y=b, name="sum")
    sess = v1.Session(graph=g)
    feed = {a: 1.5, b: 2.25}
    value = float(sess.run(s, feed))
    call = lambda: sess.run(s, feed)
    number = 1
    while timeit.timeit(call, number=number) < min_round_s / 4:
        number *= 2
    number *= 4
    best = min(timeit.repeat(call, number=number, repeat=rounds)) / number
    print(json.dumps({"us": best * 1e6, "value": value}))
    """
)


def _run_tf_script(tf_python: str, script: str, extra: list[str], res: dict[str, Any]) -> None:
    proc = subprocess.run(
        [tf_python, "-c", script, *extra], capture_output=True, text=True, check=False
    )
    if proc.returncode == 0:
        out = json.loads(proc.stdout.strip().splitlines()[-1])
        res["tf"], res["tf_value"] = out["us"], out["value"]
    else:
        res["tf_error"] = (proc.stderr.strip().splitlines() or ["failed"])[-1]


def bench_py_session(args: argparse.Namespace, tf_python: str | None) -> dict[str, Any]:
    res: dict[str, Any] = {}
    try:
        import tfe_py
        from tfe_py import ops

        with tfe_py.Graph() as g:
            a = tfe_py.placeholder("float32", [], name="a")
            b = tfe_py.placeholder("float32", [], name="b")
            s = ops.AddV2(a, b, name="sum")
        sess = tfe_py.Session(g)
        feed = {a: 1.5, b: 2.25}
        res["tfe_value"] = float(sess.run(s, feed))
        call = lambda: sess.run(s, feed)  # noqa: E731
        res["tfe"] = _best_per_call(call, args.rounds, args.min_round_ms / 1e3) * 1e6
    except Exception as exc:  # the Python graph layer not available or failing
        res["tfe_error"] = f"{type(exc).__name__}: {exc}"
    if tf_python:
        _run_tf_script(
            tf_python, _TF_SESSION_SCRIPT, [str(args.rounds), str(args.min_round_ms / 1e3)], res
        )
    return res


def bench_function(args: argparse.Namespace, tf_python: str | None) -> dict[str, Any]:
    res: dict[str, Any] = {}
    try:
        import tfe_py
        from tfe_py import ops
        from tfe_py.eager import constant

        fn = tfe_py.function(fifty_ops(ops.AddV2, ops.Mul, ops.Sub, ops.Maximum, ops.Minimum))
        x, y, h = (constant(np.float32(v)) for v in (1.25, -0.5, 0.5))
        value = float(fn(x, y, h))
        res["tfe"] = _best_per_call(lambda: fn(x, y, h), args.rounds, args.min_round_ms / 1e3) * 1e6
        res["tfe_value"] = value
    except Exception as exc:  # tfe_py.function not available or failing
        res["tfe_error"] = f"{type(exc).__name__}: {exc}"
    ref = fifty_ops(np.add, np.multiply, np.subtract, np.maximum, np.minimum)
    nx, ny, nh = np.float32(1.25), np.float32(-0.5), np.float32(0.5)
    res["numpy"] = _best_per_call(lambda: ref(nx, ny, nh), args.rounds, args.min_round_ms / 1e3)
    res["numpy"] *= 1e6
    res["numpy_value"] = float(ref(nx, ny, nh))
    if tf_python:
        _run_tf_script(
            tf_python,
            _TF_FUNCTION_SCRIPT,
            [str(ROOT), str(args.rounds), str(args.min_round_ms / 1e3)],
            res,
        )
    return res


# ---------------------------------------------------------------- main
def _fmt(v: float | None) -> str:
    if v is None or v != v:
        return "—"
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", help="tfe build directory with libtfe.so (default: tfe_py's)")
    p.add_argument("--tf-python", help="a Python that can import tensorflow")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--min-round-ms", type=float, default=200.0)
    p.add_argument("--only", default="", help="comma-separated cases")
    p.add_argument("--repeat", type=int, default=1, help="C programs: alternate N times, keep best")
    p.add_argument("--no-tf", action="store_true", help="measure tfe (and numpy) only")
    p.add_argument("--json", help="also write the figures to this file (for tests)")
    args = p.parse_args(argv)
    only = set(filter(None, args.only.split(",")))
    cases = [c for c in (*C_CASES, "function", "py_session_run") if not only or c in only]

    tf_python = None if args.no_tf else _tf_python(args.tf_python)
    tf_dir = None if args.no_tf else _tf_lib_dir(tf_python)
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="tfe-bench-graph-") as tmp:
        exe_tfe = Path(tmp) / "bench_graph_tfe"
        exe_tf = Path(tmp) / "bench_graph_tf"
        c_cases = [c for c in cases if c in C_CASES]
        if c_cases:
            lib = _tfe_library(args.build)
            _compile(exe_tfe, "tfe", [str(lib), f"-Wl,-rpath,{lib.parent}"])
            if tf_dir:
                _compile(exe_tf, "tensorflow", [
                    str(tf_dir / "libtensorflow_cc.so.2"),
                    str(tf_dir / "libtensorflow_framework.so.2"), f"-Wl,-rpath,{tf_dir}",
                ])  # fmt: skip
        for case in c_cases:
            r: dict[str, Any] = {}
            # --repeat N: the two programs alternate N times; the best counts.
            for _ in range(args.repeat):
                runners = [("tfe", exe_tfe)] + ([("tf", exe_tf)] if tf_dir else [])
                for key, exe in runners:
                    if f"{key}_error" in r:
                        continue
                    try:
                        value, check, line = _run_c(exe, case, args)
                    except RuntimeError as exc:
                        r[f"{key}_error"] = str(exc)
                        print(f"{key}: {case} failed: {exc}")
                        continue
                    print(line)
                    r[key] = min(value, r.get(key, float("inf")))
                    r[f"{key}_check"] = check
            results[case] = r
    for case, elements in (("graph1000", ELEMENTS), ("graph1000_16", 16)):
        if case not in results:
            continue
        run = elementwise_chain(bench_input(elements), 1000)
        r = results[case]
        r["numpy"] = _best_per_call(run, args.rounds, args.min_round_ms / 1e3) * 1e6
        r["numpy_check"] = f"{float(run().astype(np.float64).sum()):.6g}"
        print(
            f"numpy: the same 1,000 operations one by one, {elements} floats: {r['numpy']:.1f} us"
        )
    if "function" in cases:
        results["function"] = bench_function(args, tf_python)
    if "py_session_run" in cases:
        results["py_session_run"] = bench_py_session(args, tf_python)

    print()
    print(f"{'benchmark':<62} {'tfe':>9} {'TF 2.21':>9} {'TF/tfe':>8} {'goal':>6}")
    for case, r in results.items():
        tfe_v, tf_v = r.get("tfe"), r.get("tf")
        ratio = tf_v / tfe_v if tfe_v and tf_v else None
        goal = GOALS[case]
        verdict = ""
        if ratio is not None and goal is not None:
            verdict = "  ok" if ratio >= goal else "  BELOW GOAL"
        goal_s = f">={goal:g}x" if goal is not None else "—"
        print(
            f"{TITLES[case] + ', ' + UNITS[case]:<62} {_fmt(tfe_v):>9} {_fmt(tf_v):>9} "
            f"{(f'{ratio:.1f}x' if ratio else '—'):>8} {goal_s:>6}{verdict}"
        )
        if "numpy" in r and tfe_v:
            print(
                f"{'  numpy, same operations (' + UNITS[case] + ')':<62} {'':>9} "
                f"{_fmt(r['numpy']):>9}  tfe/numpy = {tfe_v / r['numpy']:.2f}"
            )
        for key in ("tfe_error", "tf_error"):
            if key in r:
                print(f"  {key}: {r[key]}")
        checks = {k: r[k] for k in ("tfe_check", "tf_check", "numpy_check") if r.get(k)}
        values = {k: r[k] for k in ("tfe_value", "tf_value", "numpy_value") if k in r}
        for label, got in (("checksums", checks), ("values", values)):
            nums = [float(v) for v in got.values()]
            if len(nums) > 1 and max(nums) - min(nums) > 1e-3 * max(1.0, abs(nums[0])):
                print(f"  WARNING: the runtimes disagree: {label} {got}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    if tf_dir is None:
        print(
            "TensorFlow: skipped (no --tf-python, $TFE_BENCH_TF_PYTHON, $TF_PYTHON or $TF_LIB_DIR)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
