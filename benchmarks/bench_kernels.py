"""Kernel speed, side by side with numpy (and TensorFlow for Conv2D).

Each line times tfe (through ``tfe_py.ops``, eager dispatch included) and a
reference on the same inputs in the same process, takes the best of
several runs, and prints the ratio tfe / reference (below 1.0 means tfe is
faster):

    AddV2     4M float32           vs numpy.add
    Sum       4M float32           vs numpy.sum
    MatMul    1024x1024 float32    vs numpy.matmul
    Conv2D    1x224x224x64 * 3x3x64x64 SAME float32
              vs TensorFlow when importable; else vs the TensorFlow found by
              TFE_BENCH_TF_PYTHON (a Python with tensorflow, timed in a
              subprocess); else vs a numpy im2col + matmul reference (the
              line says which)
    Softmax   1024x1024 float32    vs a numpy softmax
    Conv2DBackpropFilter 1x224x224x64 -> 3x3x64x64 SAME float32
              vs TensorFlow (as Conv2D; numpy has no reference)
    Max/Prod/Sum-axis0/All/Select/SelectV2/ClipByValue on 4M elements
              vs numpy, and TensorFlow too when available (a third
              column; timed in one subprocess when TFE_BENCH_TF_PYTHON)

Usage:  python benchmarks/bench_kernels.py [--repeat N] [--only TEXT]
        (--only runs the lines whose name contains TEXT, e.g. --only conv2d)
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

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tfe_py import ops
from tfe_py.eager import constant


def best(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm up (kernel cache, BLAS load, page faults)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def line(name: str, tfe_s: float, ref_s: float, ref_name: str) -> None:
    print(
        f"{name:<34} tfe {tfe_s * 1e3:9.3f} ms   {ref_name:<22} {ref_s * 1e3:9.3f} ms"
        f"   ratio {tfe_s / ref_s:5.2f}"
    )


def line3(name: str, tfe_s: float, np_s: float, np_name: str, tf_s: float | None) -> None:
    """A line with numpy's time and, when measured, TensorFlow's."""
    tf_part = f"   TF {tf_s * 1e3:8.3f} ms ratio {tfe_s / tf_s:5.2f}" if tf_s else ""
    print(
        f"{name:<34} tfe {tfe_s * 1e3:9.3f} ms   {np_name:<14} {np_s * 1e3:8.3f} ms"
        f" ratio {tfe_s / np_s:5.2f}{tf_part}"
    )


# Inputs of the 4M-element rows, made the same way here and in the TF
# subprocess (fixed seeds), so both time the same data.
_INPUTS_SRC = """
import numpy as np
def make_inputs():
    r = np.random.default_rng(7)
    a = r.standard_normal(4 << 20).astype(np.float32)
    return {
        "a": a,
        "m": a.reshape(2048, 2048),
        "e": r.standard_normal(4 << 20).astype(np.float32),
        "p": r.uniform(0.9999, 1.0001, 4 << 20).astype(np.float32),
        "cond": r.random(4 << 20) < 0.5,
        "alltrue": np.ones(4 << 20, dtype=bool),
        "bx": r.standard_normal((1, 224, 224, 64)).astype(np.float32),
        "bdy": r.standard_normal((1, 224, 224, 64)).astype(np.float32),
    }
"""

# name -> (numpy reference name, numpy call, TF call) over the inputs d
_ROWS_4M = [
    "Max 4M float32",
    "Prod 4M float32",
    "Sum 2048x2048 axis0 float32",
    "All 4M bool (all true)",
    "Select 4M float32",
    "SelectV2 4M float32, scalar else",
    "ClipByValue 4M float32",
]

_TF_ROWS_SNIPPET = """
import json, sys, time
import numpy as np
import tensorflow as tf
exec(sys.argv[2])
d = make_inputs()
c = {k: tf.constant(v) for k, v in d.items()}
z0, lo, hi = tf.constant(np.float32(0)), tf.constant(np.float32(-0.5)), tf.constant(np.float32(0.5))
ax0 = tf.constant(np.int32(0))
fs = tf.constant(np.array([3, 3, 64, 64], np.int32))
R = tf.raw_ops
calls = {
    "Max 4M float32": lambda: R.Max(input=c["a"], axis=ax0),
    "Prod 4M float32": lambda: R.Prod(input=c["p"], axis=ax0),
    "Sum 2048x2048 axis0 float32": lambda: R.Sum(input=c["m"], axis=ax0),
    "All 4M bool (all true)": lambda: R.All(input=c["alltrue"], axis=ax0),
    "Select 4M float32": lambda: R.Select(condition=c["cond"], x=c["a"], y=c["e"]),
    "SelectV2 4M float32, scalar else": lambda: R.SelectV2(condition=c["cond"], t=c["a"], e=z0),
    "ClipByValue 4M float32": lambda: R.ClipByValue(t=c["a"], clip_value_min=lo, clip_value_max=hi),
    "Conv2DBackpropFilter 1x224x224x64": lambda: R.Conv2DBackpropFilter(
        input=c["bx"], filter_sizes=fs, out_backprop=c["bdy"], strides=[1, 1, 1, 1],
        padding="SAME"),
}
out = {"version": tf.__version__}
for name in json.loads(sys.argv[3]):
    f = lambda: calls[name]().numpy()
    f()
    ts = []
    for _ in range(int(sys.argv[1])):
        t0 = time.perf_counter(); f(); ts.append(time.perf_counter() - t0)
    out[name] = min(ts)
print(json.dumps(out))
"""


def tf_rows(names: list[str], repeat: int) -> tuple[dict[str, float], str]:
    """TensorFlow's best times for the named rows ({} without TensorFlow)."""
    if not names:
        return {}, ""
    tf_python = os.environ.get("TFE_BENCH_TF_PYTHON")
    cmd: list[str] | None = None
    try:
        import tensorflow  # type: ignore[import-not-found]  # noqa: F401

        cmd = [sys.executable]
    except ImportError:
        if tf_python:
            cmd = [tf_python]
    if cmd is None:
        return {}, ""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    env.pop("LD_PRELOAD", None)  # a preloaded libtfe would clash with TF's C API
    proc = subprocess.run(
        [*cmd, "-c", _TF_ROWS_SNIPPET, str(repeat), _INPUTS_SRC, json.dumps(names)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    version = str(data.pop("version"))
    return {k: float(v) for k, v in data.items()}, version


def np_softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def np_conv_im2col(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    n, h, wd, c = x.shape
    kh, kw, _, co = w.shape
    xp = np.pad(x, ((0, 0), (kh // 2, kh // 2), (kw // 2, kw // 2), (0, 0)))
    cols = np.empty((n, h, wd, kh, kw, c), dtype=x.dtype)
    for i in range(kh):
        for j in range(kw):
            cols[:, :, :, i, j, :] = xp[:, i : i + h, j : j + wd, :]
    return (cols.reshape(n * h * wd, kh * kw * c) @ w.reshape(kh * kw * c, co)).reshape(
        n, h, wd, co
    )


_TF_SNIPPET = """
import json, sys, time
import numpy as np
import tensorflow as tf
x = tf.constant(np.random.default_rng(0).standard_normal((1, 224, 224, 64)).astype(np.float32))
w = tf.constant(np.random.default_rng(1).standard_normal((3, 3, 64, 64)).astype(np.float32))
f = lambda: tf.raw_ops.Conv2D(input=x, filter=w, strides=[1, 1, 1, 1], padding="SAME").numpy()
f()
ts = []
for _ in range(int(sys.argv[1])):
    t0 = time.perf_counter(); f(); ts.append(time.perf_counter() - t0)
print(json.dumps({"best": min(ts), "version": tf.__version__}))
"""


def conv_reference(x: np.ndarray, w: np.ndarray, repeat: int) -> tuple[float, str]:
    try:
        import tensorflow as tf  # type: ignore[import-not-found]

        tx, tw = tf.constant(x), tf.constant(w)
        return best(
            lambda: tf.raw_ops.Conv2D(
                input=tx, filter=tw, strides=[1, 1, 1, 1], padding="SAME"
            ).numpy(),
            repeat,
        ), f"TensorFlow {tf.__version__}"
    except ImportError:
        pass
    tf_python = os.environ.get("TFE_BENCH_TF_PYTHON")
    if tf_python:
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
        env.pop("LD_PRELOAD", None)  # a preloaded libtfe would clash with TF's C API
        out = (
            subprocess.run(
                [tf_python, "-c", _TF_SNIPPET, str(repeat)],
                capture_output=True,
                text=True,
                env=env,
                check=True,
            )
            .stdout.strip()
            .splitlines()[-1]
        )
        data = json.loads(out)
        return float(data["best"]), f"TensorFlow {data['version']}*"
    return best(lambda: np_conv_im2col(x, w), repeat), "numpy im2col (no TF)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument(
        "--only", default="", help="run only the lines whose name contains this (any case)"
    )
    args = parser.parse_args()
    r = args.repeat
    rng = np.random.default_rng(0)
    only = args.only.lower()

    def want(name: str) -> bool:
        return only in name.lower()

    ref_name = ""

    a = rng.standard_normal(4 << 20).astype(np.float32)
    b = rng.standard_normal(4 << 20).astype(np.float32)
    ta, tb = constant(a), constant(b)
    if want("AddV2 4M float32"):
        line(
            "AddV2 4M float32",
            best(lambda: ops.AddV2(ta, tb), r),
            best(lambda: np.add(a, b), r),
            "numpy.add",
        )

    axis = constant(np.int32(0))
    if want("Sum 4M float32"):
        line(
            "Sum 4M float32",
            best(lambda: ops.Sum(ta, axis), r),
            best(lambda: np.sum(a), r),
            "numpy.sum",
        )

    m1 = rng.standard_normal((1024, 1024)).astype(np.float32)
    m2 = rng.standard_normal((1024, 1024)).astype(np.float32)
    t1, t2 = constant(m1), constant(m2)
    if want("MatMul 1024x1024 float32"):
        line(
            "MatMul 1024x1024 float32",
            best(lambda: ops.MatMul(t1, t2), r),
            best(lambda: m1 @ m2, r),
            "numpy.matmul",
        )

    x = rng.standard_normal((1, 224, 224, 64)).astype(np.float32)
    w = rng.standard_normal((3, 3, 64, 64)).astype(np.float32)
    tx, tw = constant(x), constant(w)
    if want("Conv2D 1x224x224x64*3x3x64x64"):
        got = ops.Conv2D(tx, tw, strides=[1, 1, 1, 1], padding="SAME").numpy()
        np.testing.assert_allclose(got, np_conv_im2col(x, w), rtol=2e-3, atol=2e-3)
        conv_s = best(lambda: ops.Conv2D(tx, tw, strides=[1, 1, 1, 1], padding="SAME"), r)
        ref_s, ref_name = conv_reference(x, w, r)
        line("Conv2D 1x224x224x64*3x3x64x64", conv_s, ref_s, ref_name)

    s = rng.standard_normal((1024, 1024)).astype(np.float32)
    ts = constant(s)
    if want("Softmax 1024x1024 float32"):
        line(
            "Softmax 1024x1024 float32",
            best(lambda: ops.Softmax(ts), r),
            best(lambda: np_softmax(s), r),
            "numpy softmax",
        )
    rows_4m = [n for n in _ROWS_4M if want(n)]
    bpf = "Conv2DBackpropFilter 1x224x224x64"
    want_bpf = want(bpf)
    if rows_4m or want_bpf:
        ns: dict[str, object] = {}
        exec(_INPUTS_SRC, ns)
        d = ns["make_inputs"]()  # type: ignore[operator]
        c = {k: constant(v) for k, v in d.items()}
        tf_s, tf_version = tf_rows(rows_4m + ([bpf] if want_bpf else []), r)
        if want_bpf:
            fs = constant(np.array([3, 3, 64, 64], np.int32))
            t_s = best(
                lambda: ops.Conv2DBackpropFilter(
                    c["bx"], fs, c["bdy"], strides=[1, 1, 1, 1], padding="SAME"
                ),
                r,
            )
            label = "Conv2DBackpropFilter 3x3x64x64"
            if bpf in tf_s:
                line(label, t_s, tf_s[bpf], f"TensorFlow {tf_version}")
            else:
                print(f"{label:<34} tfe {t_s * 1e3:9.3f} ms   (no TensorFlow to compare)")
        z0, lo, hi = constant(np.float32(0)), constant(np.float32(-0.5)), constant(np.float32(0.5))
        ax0 = constant(np.int32(0))
        a, m, e, p, cond, alltrue = (d[k] for k in ("a", "m", "e", "p", "cond", "alltrue"))
        calls: dict[str, tuple[Callable[[], object], Callable[[], object], str]] = {
            "Max 4M float32": (lambda: ops.Max(c["a"], ax0), lambda: np.max(a), "numpy.max"),
            "Prod 4M float32": (lambda: ops.Prod(c["p"], ax0), lambda: np.prod(p), "numpy.prod"),
            "Sum 2048x2048 axis0 float32": (
                lambda: ops.Sum(c["m"], ax0),
                lambda: np.sum(m, axis=0),
                "numpy.sum",
            ),
            "All 4M bool (all true)": (
                lambda: ops.All(c["alltrue"], ax0),
                lambda: np.all(alltrue),
                "numpy.all",
            ),
            "Select 4M float32": (
                lambda: ops.Select(c["cond"], c["a"], c["e"]),
                lambda: np.where(cond, a, e),
                "numpy.where",
            ),
            "SelectV2 4M float32, scalar else": (
                lambda: ops.SelectV2(c["cond"], c["a"], z0),
                lambda: np.where(cond, a, np.float32(0)),
                "numpy.where",
            ),
            "ClipByValue 4M float32": (
                lambda: ops.ClipByValue(c["a"], lo, hi),
                lambda: np.clip(a, np.float32(-0.5), np.float32(0.5)),
                "numpy.clip",
            ),
        }
        for name in rows_4m:
            tfe_fn, np_fn, np_name = calls[name]
            line3(name, best(tfe_fn, r), best(np_fn, r), np_name, tf_s.get(name))
        if tf_version:
            print(f"(TF column: TensorFlow {tf_version}, timed in a separate process)")
    if ref_name.endswith("*"):
        print("* TensorFlow timed in a subprocess (TFE_BENCH_TF_PYTHON)")
    print(f"BLAS: {os.environ.get('TFE_BLAS_LIBRARY', '(search)')}; numpy {np.__version__}")


if __name__ == "__main__":
    main()
