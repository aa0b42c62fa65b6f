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
    if ref_name.endswith("*"):
        print("* TensorFlow timed in a subprocess (TFE_BENCH_TF_PYTHON)")
    print(f"BLAS: {os.environ.get('TFE_BLAS_LIBRARY', '(search)')}; numpy {np.__version__}")


if __name__ == "__main__":
    main()
