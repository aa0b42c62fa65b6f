"""Automatic differentiation (issue 17): tfe's figures, TF 2.21's side by side.

Prints the three figures issue 17 names, measured in one run:

* (a) C: the cost a gradient tape adds to ``TFE_Execute`` per recorded op
  (AddV2 on float scalars, a tape watching an input), from
  benchmarks/c/bench_tape.c. Goal: under 0.3 us. Two figures are printed:
  the tape's own work (records, tracked set, references, releasing them),
  measured against a loop that keeps its outputs alive as long as the tape
  does, which is the goal's figure; and, for information, the whole
  difference to a loop that deletes each output at once (it also counts
  the memory of the outputs the tape keeps alive).
* (b) Python: one training step of a 3-layer MLP (batch 32, 256 inputs, two
  hidden layers of 256 units with ReLU, one output, MSE loss, SGD by
  ``assign_sub``) with ``tfe_py.GradientTape`` + ``tfe_py.Variable`` vs the
  same step in TF 2.21 eager (``tf.GradientTape`` + ``tf.Variable``): ms per
  step, from the same initial weights, with the losses compared. Goal: tfe
  >= 3x faster. Both runtimes use --threads intra-op threads (1 by default:
  on a busy 2-core machine a thread pool per runtime oversubscribes).
* (c) tfe: the backward pass (``tape.gradient``) of a 1,000-op elementwise
  chain vs its forward pass (run while the tape records). Goal: backward
  <= 2x forward. TF's two figures are printed for information.
* (d) for information (no goal): the same chain run under a
  ``ForwardAccumulator`` (forward mode computes each op's tangent right
  after it), against the chain alone, in both runtimes.

TensorFlow is found through --tf-python / $TFE_BENCH_TF_PYTHON / $TF_PYTHON
and runs in a subprocess; without it (or with --no-tf) its columns say
"skipped". TensorFlow is never needed by tfe, its tests or CI.

Usage: python benchmarks/bench_gradients.py [--build DIR] [--tf-python PY]
           [--no-tf] [--rounds N] [--tape-ops N] [--mlp-steps N] [--units N]
           [--chain-ops N] [--chain-size N] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_graphs import _compile, _tf_python, _tfe_library  # noqa: E402

C_SOURCE = ROOT / "benchmarks" / "c" / "bench_tape.c"
TAPE_GOAL_NS = 300.0
MLP_GOAL = 3.0
CHAIN_GOAL = 2.0

# The Python cases, run by tfe_py here and by TensorFlow in a subprocess:
# the same source with `tf` bound to either module.
_CASES = r'''
import time
import numpy as np


def set_threads(tf, n):
    """Intra-op threads (0: the runtime's default), before any op runs."""
    if n > 0:
        tf.config.threading.set_intra_op_parallelism_threads(n)


def _best(fn, rounds, reps):
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter() - t0) / reps)
    return best


def mlp_case(tf, rounds, steps, units):
    """ms per training step and the loss after the timed steps' warm-up."""
    rng = np.random.default_rng(0)
    x = tf.constant(rng.uniform(-1, 1, (32, units)).astype(np.float32))
    y = tf.constant(rng.uniform(-1, 1, (32, 1)).astype(np.float32))
    shapes = [(units, units), (units,), (units, units), (units,), (units, 1), (1,)]
    params = []
    for s in shapes:
        scale = np.sqrt(2.0 / s[0]) if len(s) == 2 else 0.0
        params.append(tf.Variable((rng.standard_normal(s) * scale).astype(np.float32)))
    w1, b1, w2, b2, w3, b3 = params
    lr = tf.constant(np.float32(0.01))

    def step():
        with tf.GradientTape() as tape:
            h1 = tf.nn.relu(tf.matmul(x, w1) + b1)
            h2 = tf.nn.relu(tf.matmul(h1, w2) + b2)
            pred = tf.matmul(h2, w3) + b3
            loss = tf.reduce_mean(tf.square(pred - y))
        grads = tape.gradient(loss, params)
        for g, v in zip(grads, params):
            v.assign_sub(lr * g)
        return loss

    first = float(step())
    for _ in range(3):
        step()
    # Each step timed alone, the best counts: on a shared machine a round
    # of several steps rarely escapes another process's time slice.
    ms = _best(step, rounds * steps, 1) * 1e3
    return {"ms": ms, "first_loss": first}


def chain_case(tf, rounds, ops, size):
    """us of the forward pass (recorded), of tape.gradient, and untaped."""
    x = tf.constant(np.linspace(-1.0, 1.0, size).astype(np.float32))
    half = tf.constant(np.float32(0.5))
    tenth = tf.constant(np.float32(0.1))

    def chain(y):
        for k in range(ops):
            m = k % 4
            if m == 0:
                y = y * half
            elif m == 1:
                y = y + tenth
            elif m == 2:
                y = tf.math.tanh(y)
            else:
                y = tf.math.sin(y)
        return y

    def once():
        with tf.GradientTape() as tape:
            tape.watch(x)
            t0 = time.perf_counter()
            y = chain(x)
            t1 = time.perf_counter()
        g = tape.gradient(y, x)
        g.numpy()
        t2 = time.perf_counter()
        return t1 - t0, t2 - t1, g

    once()
    fwd = bwd = float("inf")
    g = None
    for _ in range(rounds):
        f, b, g = once()
        fwd, bwd = min(fwd, f), min(bwd, b)
    plain = _best(lambda: chain(x), rounds, 1)
    return {"fwd_us": fwd * 1e6, "bwd_us": bwd * 1e6, "plain_us": plain * 1e6,
            "grad_sum": float(np.sum(g.numpy().astype(np.float64)))}


def jvp_case(tf, rounds, ops, size):
    """us of the same chain run under a ForwardAccumulator (tangents computed
    op by op), and untaped."""
    x = tf.constant(np.linspace(-1.0, 1.0, size).astype(np.float32))
    v = tf.constant(np.ones(size, np.float32))
    half = tf.constant(np.float32(0.5))
    tenth = tf.constant(np.float32(0.1))

    def chain(y):
        for k in range(ops):
            m = k % 4
            if m == 0:
                y = y * half
            elif m == 1:
                y = y + tenth
            elif m == 2:
                y = tf.math.tanh(y)
            else:
                y = tf.math.sin(y)
        return y

    def once():
        with tf.autodiff.ForwardAccumulator(x, v) as acc:
            y = chain(x)
        return acc.jvp(y)

    once()
    best = _best(once, rounds, 1)
    plain = _best(lambda: chain(x), rounds, 1)
    j = once()
    return {"jvp_us": best * 1e6, "plain_us": plain * 1e6,
            "jvp_sum": float(np.sum(j.numpy().astype(np.float64)))}
'''

_TF_SCRIPT = r"""
import json, os, sys
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf
ns = {}
exec(sys.argv[1], ns)
rounds, steps, units, ops, size, threads = (int(a) for a in sys.argv[2:8])
ns["set_threads"](tf, threads)
out = {"mlp": ns["mlp_case"](tf, rounds, steps, units),
       "chain": ns["chain_case"](tf, rounds, ops, size),
       "jvp": ns["jvp_case"](tf, rounds, ops, size)}
print(json.dumps(out))
"""


def bench_tape_c(args: argparse.Namespace) -> dict[str, float]:
    lib = _tfe_library(args.build)
    with tempfile.TemporaryDirectory(prefix="tfe-bench-tape-") as tmp:
        exe = Path(tmp) / "bench_tape"
        _compile(exe, "tfe", [str(lib), f"-Wl,-rpath,{lib.parent}"], source=C_SOURCE)
        # A C round is short (2,000 ops, well under a time slice): many of
        # them make the best one robust to other processes' load.
        proc = subprocess.run(
            [str(exe), "--rounds", str(args.rounds * 10), "--ops", str(args.tape_ops)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
    if proc.returncode != 0:
        raise SystemExit(f"bench_tape failed: {proc.stdout}{proc.stderr}")
    res: dict[str, float] = {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        if line.startswith("RESULT "):
            res[parts[2]] = float(parts[3])
    return res


def run_tfe_cases(args: argparse.Namespace) -> dict[str, Any]:
    import tfe_py

    ns: dict[str, Any] = {}
    exec(_CASES, ns)  # our own source, shared with the TF run
    ns["set_threads"](tfe_py, args.threads)
    return {
        "mlp": ns["mlp_case"](tfe_py, args.rounds, args.mlp_steps, args.units),
        "chain": ns["chain_case"](tfe_py, args.rounds, args.chain_ops, args.chain_size),
        "jvp": ns["jvp_case"](tfe_py, args.rounds, args.chain_ops, args.chain_size),
    }


def run_tf_cases(args: argparse.Namespace, tf_python: str) -> dict[str, Any]:
    cmd = [
        tf_python, "-c", _TF_SCRIPT, _CASES, str(args.rounds), str(args.mlp_steps),
        str(args.units), str(args.chain_ops), str(args.chain_size), str(args.threads),
    ]  # fmt: skip
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["failed"])[-1]}
    out: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def _verdict(ok: bool | None) -> str:
    return "skipped" if ok is None else ("MEETS" if ok else "MISSES")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", help="tfe build directory with libtfe.so (default: tfe_py's)")
    p.add_argument("--tf-python", help="a Python that can import tensorflow")
    p.add_argument("--no-tf", action="store_true", help="measure tfe only")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--tape-ops", type=int, default=2000, help="C: ops per round")
    p.add_argument("--mlp-steps", type=int, default=20, help="MLP: steps per round")
    p.add_argument("--units", type=int, default=256, help="MLP: inputs and hidden units")
    p.add_argument("--chain-ops", type=int, default=1000)
    p.add_argument("--chain-size", type=int, default=1024, help="floats in the chain")
    p.add_argument(
        "--threads", type=int, default=1,
        help="intra-op threads of both runtimes (0: their default; 1 by default, as on a "
        "loaded 2-core machine a thread pool oversubscribes)",
    )  # fmt: skip
    p.add_argument("--json", help="also write the figures to this file (for tests)")
    args = p.parse_args(argv)
    tf_python = None if args.no_tf else _tf_python(args.tf_python)

    t_start = time.time()
    load = os.getloadavg()[0]
    tape = bench_tape_c(args)
    tfe = run_tfe_cases(args)
    tf: dict[str, Any] = run_tf_cases(args, tf_python) if tf_python else {"error": "skipped"}
    if "error" in tf and tf["error"] != "skipped":
        print(f"TensorFlow run failed: {tf['error']}")

    threads = args.threads if args.threads > 0 else "default"
    print(f"Gradients (issue 17), load average {load:.2f} at the start, "
          f"{time.time() - t_start:.0f} s, intra-op threads: {threads}")  # fmt: skip
    # (a)
    own, total = tape["tape_ns"], tape["tape_total_ns"]
    print(
        f"(a) C tape cost per recorded op (AddV2 on scalars): {own / 1e3:.3f} us "
        f"(goal < {TAPE_GOAL_NS / 1e3:.1f} us: {_verdict(own < TAPE_GOAL_NS)}); "
        f"{total / 1e3:.3f} us counting that it keeps the outputs alive "
        f"({_verdict(total < TAPE_GOAL_NS)}); op alone {tape['plain_ns'] / 1e3:.3f} us"
    )
    # (b)
    mt = tfe["mlp"]
    mtf = tf.get("mlp")
    ratio = mtf["ms"] / mt["ms"] if mtf else None
    tf_ms = f"{mtf['ms']:.3f} ms" if mtf else "skipped"
    same = ""
    if mtf:
        diff = abs(mtf["first_loss"] - mt["first_loss"])
        same = f", first loss tfe {mt['first_loss']:.6f} TF {mtf['first_loss']:.6f}"
        same += " (equal)" if diff <= 1e-4 * max(1.0, abs(mtf["first_loss"])) else " (DIFFER)"
    ratio_s = f"{ratio:.2f}x" if ratio else "skipped"
    print(
        f"(b) Python MLP training step (batch 32, {args.units} units, 3 layers, SGD): "
        f"tfe {mt['ms']:.3f} ms, TF 2.21 {tf_ms}, TF/tfe {ratio_s} "
        f"(goal >= {MLP_GOAL:.0f}x: {_verdict(None if ratio is None else ratio >= MLP_GOAL)})"
        f"{same}"
    )
    # (c)
    ct = tfe["chain"]
    cr = ct["bwd_us"] / ct["fwd_us"]
    ctf = tf.get("chain")
    tf_c = (
        f"; TF 2.21 forward {ctf['fwd_us'] / 1e3:.2f} ms, backward {ctf['bwd_us'] / 1e3:.2f} ms "
        f"({ctf['bwd_us'] / ctf['fwd_us']:.2f}x)"
        if ctf else ""
    )  # fmt: skip
    print(
        f"(c) {args.chain_ops}-op elementwise chain ({args.chain_size} floats): tfe forward "
        f"{ct['fwd_us'] / 1e3:.2f} ms (recorded; {ct['plain_us'] / 1e3:.2f} ms untaped), "
        f"backward {ct['bwd_us'] / 1e3:.2f} ms, backward/forward {cr:.2f}x "
        f"(goal <= {CHAIN_GOAL:.0f}x: {_verdict(cr <= CHAIN_GOAL)}){tf_c}"
    )
    # (d), for information: forward mode over the same chain
    jt = tfe["jvp"]
    jtf = tf.get("jvp")
    tf_j = (
        f"; TF 2.21 {jtf['jvp_us'] / 1e3:.2f} ms ({jtf['jvp_us'] / jtf['plain_us']:.2f}x its "
        f"untaped {jtf['plain_us'] / 1e3:.2f} ms), TF/tfe {jtf['jvp_us'] / jt['jvp_us']:.2f}x"
        if jtf else "; TF 2.21 skipped"
    )  # fmt: skip
    print(
        f"(d) forward mode, the same chain under a ForwardAccumulator: tfe "
        f"{jt['jvp_us'] / 1e3:.2f} ms ({jt['jvp_us'] / jt['plain_us']:.2f}x its untaped "
        f"{jt['plain_us'] / 1e3:.2f} ms){tf_j}"
    )
    if args.json:
        Path(args.json).write_text(
            json.dumps({"tape": tape, "tfe": tfe, "tf": tf, "load": load}, indent=1)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
