"""SavedModel serving (issue 15), tfe side by side with TensorFlow 2.21.

Figures, each measured for both runtimes in one run:

* cold start: a fresh process loads the Keras MLP SavedModel
  (tests/data/saved_models/keras_mlp) and runs one batch. Wall time of the
  whole process (goal: TF/tfe >= 20x) and its peak RSS (goal: >= 10x
  smaller: VmHWM, which the program reads from /proc/self/status as it
  exits; getrusage would also count the forked Python before exec).
* steady state: ``TF_SessionRun`` latency after loading, the MLP with
  batch 1 and the Keras CNN with batch normalization
  (tests/data/saved_models/keras_cnn_bn) with batch 8. Goal: tfe no slower.
* load time of a ~100 MB SavedModel (one 100 MB variable and a small
  signature), reported as MB/s of the model's files, next to the rate at
  which Python reads the same files (both from the page cache, as the
  model was just written: an upper bound for what a loader can do). The
  model is written with TensorFlow, so this case needs it; without TF it
  says "skipped".

The C figures come from ONE source, benchmarks/c/bench_saved_model.c,
compiled against libtfe and against TensorFlow's own C library
(libtensorflow_cc.so.2 from the tensorflow-cpu wheel). Both print the sum
of their outputs and the driver checks they agree.

TensorFlow is found as in bench_graphs.py: --tf-python /
$TFE_BENCH_TF_PYTHON / $TF_PYTHON / an importable tensorflow, or
$TF_LIB_DIR. TensorFlow is never needed by tfe, its tests or CI.

Usage: python benchmarks/bench_saved_model.py [--build DIR] [--tf-python PY]
           [--rounds N] [--min-round-ms MS] [--repeat N] [--no-tf] [--json FILE]
           [--only cold,steady_mlp,steady_cnn,load100mb]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_graphs import _compile, _tf_lib_dir, _tf_python, _tfe_library  # noqa: E402

C_SOURCE = ROOT / "benchmarks" / "c" / "bench_saved_model.c"
MODELS = ROOT / "tests" / "data" / "saved_models"
MLP = (MODELS / "keras_mlp", "serving_default_x:0", "StatefulPartitionedCall_1:0", "1,16")
CNN = (MODELS / "keras_cnn_bn", "serving_default_image:0", "StatefulPartitionedCall_1:0", "8,8,8,3")
CASES = ("cold", "steady_mlp", "steady_cnn", "load100mb")
QUIET = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}

BIG_MODEL_SCRIPT = textwrap.dedent(
    """
    import sys
    import numpy as np
    import tensorflow as tf

    class Big(tf.Module):
        def __init__(self):
            super().__init__()
            rng = np.random.default_rng(0)
            self.w = tf.Variable(rng.standard_normal(25_000_000, dtype=np.float32))

        @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
        def pick(self, i):
            return {"value": tf.gather(self.w, i)}

    m = Big()
    tf.saved_model.save(m, sys.argv[1], signatures={"serving_default": m.pick})
    """
)


def _parse(stdout: str, key: str) -> tuple[float | None, str | None]:
    value = check = None
    for line in stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] == "RESULT" and parts[2] == key:
            value = float(parts[3])
        elif len(parts) == 3 and parts[0] == "CHECK":
            check = parts[2]
    return value, check


def _run(exe: Path, *args: str) -> str:
    proc = subprocess.run(
        [str(exe), *args], capture_output=True, text=True, check=False, env=QUIET
    )  # fmt: skip
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip()[-2000:])
    return proc.stdout


def cold_start(exe: Path) -> dict[str, Any]:
    """Wall time (ms) and peak RSS (MB) of one fresh process."""
    model, inp, out, dims = MLP
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [str(exe), "once", str(model), inp, out, dims],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=QUIET,
    )  # fmt: skip
    stdout_b, stderr_b = proc.communicate()
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(stderr_b.decode().strip()[-2000:])
    stdout = stdout_b.decode()
    rss_kb, check = _parse(stdout, "rss_kb")
    if rss_kb is None or rss_kb < 0:
        raise RuntimeError("the program could not read its peak RSS (/proc/self/status)")
    return {"wall_ms": wall * 1e3, "rss_mb": rss_kb / 1024.0, "check": check}


def _dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _read_rate(path: Path) -> float:
    """MB/s at which Python reads every file of ``path`` (best of 3)."""
    files = [p for p in path.rglob("*") if p.is_file()]
    total = sum(p.stat().st_size for p in files)
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for p in files:
            with open(p, "rb") as f:
                while f.read(1 << 22):
                    pass
        best = min(best, time.perf_counter() - t0)
    return total / 1e6 / best


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", help="tfe build directory with libtfe.so (default: tfe_py's)")
    p.add_argument("--tf-python", help="a Python that can import tensorflow")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--min-round-ms", type=float, default=200.0)
    p.add_argument("--repeat", type=int, default=3, help="cold starts per runtime (best counts)")
    p.add_argument("--only", default="", help="comma-separated cases")
    p.add_argument("--no-tf", action="store_true", help="measure tfe only")
    p.add_argument("--json", help="also write the figures to this file")
    args = p.parse_args(argv)
    only = set(filter(None, args.only.split(",")))
    cases = [c for c in CASES if not only or c in only]
    tf_python = None if args.no_tf else _tf_python(args.tf_python)
    tf_dir = None if args.no_tf else _tf_lib_dir(tf_python)
    res: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="tfe-bench-sm-") as tmp:
        exes = {"tfe": Path(tmp) / "bench_sm_tfe"}
        lib = _tfe_library(args.build)
        _compile(exes["tfe"], "tfe", [str(lib), f"-Wl,-rpath,{lib.parent}"], C_SOURCE)
        if tf_dir:
            exes["tf"] = Path(tmp) / "bench_sm_tf"
            _compile(exes["tf"], "tensorflow", [
                str(tf_dir / "libtensorflow_cc.so.2"),
                str(tf_dir / "libtensorflow_framework.so.2"), f"-Wl,-rpath,{tf_dir}",
            ], C_SOURCE)  # fmt: skip
        if "cold" in cases:
            r: dict[str, Any] = {}
            for _ in range(args.repeat):  # alternate the runtimes
                for key, exe in exes.items():
                    got = cold_start(exe)
                    best = r.get(key)
                    if best is None or got["wall_ms"] < best["wall_ms"]:
                        r[key] = got
            res["cold"] = r
            for key, v in r.items():
                print(f"{key}: cold start, load keras_mlp + 1 batch: "
                      f"{v['wall_ms']:.1f} ms wall, peak RSS {v['rss_mb']:.1f} MB")  # fmt: skip
        for case, spec in (("steady_mlp", MLP), ("steady_cnn", CNN)):
            if case not in cases:
                continue
            model, inp, out, dims = spec
            r = {}
            for key, exe in exes.items():
                stdout = _run(
                    exe, "steady", str(model), inp, out, dims, str(args.rounds),
                    str(args.min_round_ms),
                )  # fmt: skip
                value, check = _parse(stdout, "steady")
                r[key] = {"us": value, "check": check}
                print(f"{key}: {case} ({dims}): {value:.1f} us per TF_SessionRun")
            res[case] = r
        if "load100mb" in cases:
            r = {}
            if not tf_python:
                print("load100mb: skipped (writing the 100 MB model needs TensorFlow)")
            else:
                big = Path(tmp) / "big_model"
                subprocess.run(
                    [tf_python, "-c", BIG_MODEL_SCRIPT, str(big)], check=True, env=QUIET,
                    capture_output=True,
                )  # fmt: skip
                size_mb = _dir_bytes(big) / 1e6
                r["size_mb"] = size_mb
                r["read_mb_s"] = _read_rate(big)
                for key, exe in exes.items():
                    value, _ = _parse(_run(exe, "load", str(big), "3"), "load")
                    assert value is not None
                    r[key] = {"ms": value, "mb_s": size_mb / (value / 1e3)}
                    print(f"{key}: load of a {size_mb:.0f} MB SavedModel: {value:.1f} ms "
                          f"= {r[key]['mb_s']:.0f} MB/s")  # fmt: skip
                print(f"python: reading the same files: {r['read_mb_s']:.0f} MB/s")
            res["load100mb"] = r

    print()
    print(f"{'benchmark':<58} {'tfe':>10} {'TF 2.21':>10} {'TF/tfe':>8} {'goal':>7}")
    rows: list[tuple[str, str, float | None, float | None, str]] = []
    if "cold" in res:
        c = res["cold"]
        rows.append(("cold start: load keras_mlp + 1 batch, wall ms", "wall_ms",
                     c["tfe"]["wall_ms"], c.get("tf", {}).get("wall_ms"), ">=20x"))  # fmt: skip
        rows.append(("cold start: peak RSS MB", "rss_mb", c["tfe"]["rss_mb"],
                     c.get("tf", {}).get("rss_mb"), ">=10x"))  # fmt: skip
    for case, title in (("steady_mlp", "steady TF_SessionRun, MLP batch 1, us"),
                        ("steady_cnn", "steady TF_SessionRun, CNN batch 8, us")):  # fmt: skip
        if case in res:
            rows.append((title, "us", res[case]["tfe"]["us"],
                         res[case].get("tf", {}).get("us"), ">=1x"))  # fmt: skip
    if res.get("load100mb", {}).get("tfe"):
        r = res["load100mb"]
        rows.append((f"load a {r['size_mb']:.0f} MB SavedModel, ms", "ms", r["tfe"]["ms"],
                     r.get("tf", {}).get("ms"), "disk"))  # fmt: skip
    ok = True
    for title, _, tfe_v, tf_v, goal in rows:
        ratio = tf_v / tfe_v if tfe_v and tf_v else None
        verdict = ""
        if ratio is not None and goal.startswith(">="):
            met = ratio >= float(goal[2:].rstrip("x"))
            verdict = "met" if met else "NOT met"
        tf_text = f"{tf_v:.1f}" if tf_v is not None else "skipped"
        ratio_text = f"{ratio:.1f}x" if ratio is not None else "—"
        print(f"{title:<58} {tfe_v:>10.1f} {tf_text:>10} {ratio_text:>8} {goal:>7} {verdict}")
    for case in ("steady_mlp", "steady_cnn"):
        r = res.get(case, {})
        if "tf" in r and r["tf"]["check"] != r["tfe"]["check"]:
            print(f"{case}: the runtimes disagree: {r['tfe']['check']} vs {r['tf']['check']}")
            ok = False
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
