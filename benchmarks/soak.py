"""Soak test: many threads use one tfe context for a fixed time.

Eight threads (``--threads``) share one context with two CPU devices and
loop over a random mix of work until ``--seconds`` have passed:

* ops: random elementwise, matmul, reduction, reshape/transpose, concat and
  cast programs on random inputs; every result is compared with numpy;
* copies: a tensor copied to ``CPU:1`` and back (TFE_TensorHandleCopyToDevice),
  compared with the original;
* files: a random payload written, stat'ed, listed, read back, renamed and
  removed, on ``ram://`` and in a temporary folder of the local disk;
* async: a chain of ops queued on an asynchronous executor (a fresh one
  per chain), its final value checked; every few chains one op is made to
  fail on purpose and the error must surface as InvalidArgumentError when
  the executor is waited for.

The main thread samples the resident set size (/proc/self/statm) and every
live-object count (TFE_LiveObjectCount) once per ``--sample-every`` seconds.
At the end it reports operations done, the slope of RSS (KiB/min) and of the
summed live-object count (objects/min) over the samples after the warm-up
(``--warmup`` fraction of the run, by least squares), and checks:

* no wrong result and no unexpected exception in any thread;
* after the threads joined and garbage was collected, every live-object
  count is back at its value before the run;
* the RSS slope is at most ``--max-rss-slope`` KiB/min, unless RSS grew by
  less than ``--rss-floor`` KiB in all after the warm-up (a run of a minute
  is too short to tell a slope from the allocator settling: there only the
  growth itself is bounded), and the live-object slope is at most
  ``--max-live-slope`` objects/min.

It exits 0 when every check passed, 1 otherwise. ``--json FILE`` also
writes the figures as JSON.

Usage: python benchmarks/soak.py --seconds 60 [--threads 8] [--seed 1]
       [--sample-every 2] [--warmup 0.25] [--json out.json]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if os.environ.get("TFE_SOAK_NO_CHECKOUT") != "1" and str(ROOT) not in sys.path:
    # Run from a checkout: use its in-place package (unless told otherwise,
    # e.g. to soak a private copy of the package put first on PYTHONPATH).
    sys.path.append(str(ROOT))

import tfe_py  # noqa: E402
from tfe_py import io as tio  # noqa: E402
from tfe_py import ops  # noqa: E402
from tfe_py._ffi import lib  # noqa: E402
from tfe_py.eager import EagerTensor  # noqa: E402
from tfe_py.errors import InvalidArgumentError, status  # noqa: E402

MAX_SECONDS = 4 * 3600
KINDS = ("STATUS", "TENSOR", "TENSOR_BUFFER", "BUFFER", "LIBRARY", "CONTEXT",
         "TENSOR_HANDLE", "OP", "REF_CELL")
CPU1 = "/job:localhost/replica:0/task:0/device:CPU:1"
PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024


def rss_kib() -> int:
    """Resident set size of this process in KiB."""
    with open("/proc/self/statm", encoding="ascii") as f:
        return int(f.read().split()[1]) * PAGE_KIB


def live_counts() -> dict[str, int]:
    return {k: int(lib.TFE_LiveObjectCount(getattr(lib, "TFE_OBJ_" + k))) for k in KINDS}


def slope_per_min(samples: list[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, value) samples, per minute."""
    if len(samples) < 2:
        return 0.0
    t = np.array([s[0] for s in samples], dtype=np.float64)
    v = np.array([s[1] for s in samples], dtype=np.float64)
    t -= t.mean()
    denom = float((t * t).sum())
    if denom == 0.0:
        return 0.0
    return float((t * (v - v.mean())).sum() / denom) * 60.0


class Failure(Exception):
    """A wrong result (as opposed to an exception raised by tfe_py)."""


def check_close(what: str, got: np.ndarray, want: np.ndarray) -> None:
    if got.shape != want.shape:
        raise Failure(f"{what}: shape {got.shape} != {want.shape}")
    if got.dtype.kind in "iub":
        if not np.array_equal(got, want):
            raise Failure(f"{what}: {got!r} != {want!r}")
    elif not np.allclose(got, want, rtol=1e-4, atol=1e-4):
        raise Failure(f"{what}: {got!r} !~ {want!r}")


class Worker:
    """One thread's loop; counts what it did and collects failures."""

    def __init__(self, idx: int, ctx: tfe_py.Context, seed: int, deadline: float,
                 tmp: Path, stop: threading.Event) -> None:
        self.idx = idx
        self.ctx = ctx
        self.rng = np.random.default_rng(seed)
        self.pyrng = random.Random(seed)
        self.deadline = deadline
        self.tmp = tmp
        self.stop = stop
        self.counts = {"ops": 0, "copies": 0, "files": 0, "async_chains": 0,
                       "async_errors_checked": 0}
        self.failures: list[str] = []

    # -- tasks -----------------------------------------------------------

    def rand(self, shape: tuple[int, ...], dtype: str) -> np.ndarray:
        if dtype == "int32":
            return self.rng.integers(-100, 100, size=shape, dtype=np.int32)
        return self.rng.standard_normal(shape).astype(dtype)

    def task_ops(self) -> None:
        dtype = self.pyrng.choice(["float32", "float64", "int32"])
        m, k, n = (self.pyrng.randint(1, 12) for _ in range(3))
        a = self.rand((m, k), dtype)
        b = self.rand((m, k), dtype)
        c = self.rand((k, n), dtype)
        ta, tb, tc = tfe_py.constant(a), tfe_py.constant(b), tfe_py.constant(c)
        which = self.pyrng.randrange(7)
        if which == 0:
            check_close("AddV2", ops.AddV2(x=ta, y=tb).numpy(), a + b)
        elif which == 1:
            check_close("Mul-Sub", ops.Sub(x=ops.Mul(x=ta, y=tb), y=ta).numpy(), a * b - a)
        elif which == 2:
            check_close("MatMul", ops.MatMul(a=ta, b=tc).numpy(), a @ c)
        elif which == 3:
            axis = self.pyrng.randrange(2)
            got = ops.Sum(input=ta, reduction_indices=np.int32(axis), keep_dims=False).numpy()
            check_close("Sum", got, a.sum(axis=axis, dtype=a.dtype))
        elif which == 4:
            got = ops.Transpose(x=ops.Reshape(tensor=ta, shape=np.array([k, m], np.int32)),
                                perm=np.array([1, 0], np.int32)).numpy()
            check_close("Reshape-Transpose", got, a.reshape(k, m).T)
        elif which == 5:
            got = ops.ConcatV2(values=[ta, tb], axis=np.int32(0)).numpy()
            check_close("ConcatV2", got, np.concatenate([a, b], axis=0))
        else:
            got = ops.Cast(x=ops.Maximum(x=ta, y=tb), DstT=tfe_py.int64).numpy()
            check_close("Maximum-Cast", got, np.maximum(a, b).astype(np.int64))
        self.counts["ops"] += 1

    def task_copy(self) -> None:
        a = self.rand((self.pyrng.randint(0, 64),), self.pyrng.choice(["float32", "int32"]))
        t = tfe_py.constant(a)
        with status() as s:
            h = lib.TFE_TensorHandleCopyToDevice(t.handle, self.ctx.ptr, CPU1.encode(), s)
        on1 = EagerTensor._wrap(h, self.ctx)
        if not on1.device.endswith("CPU:1"):
            raise Failure(f"copy landed on {on1.device}")
        back = on1.cpu()
        check_close("copy round trip", back.numpy(), a)
        self.counts["copies"] += 1

    def task_files(self) -> None:
        data = self.rng.bytes(self.pyrng.randint(0, 70_000))
        base = (f"ram://soak/t{self.idx}" if self.pyrng.random() < 0.5
                else str(self.tmp / f"t{self.idx}"))
        tio.makedirs(base)
        name = tio.join(base, f"f{self.pyrng.randrange(1 << 30)}")
        with tio.GFile(name, "wb") as f:
            f.write(data)
        if tio.stat(name).length != len(data):
            raise Failure(f"stat({name}) length != {len(data)}")
        if os.path.basename(name) not in tio.listdir(base):
            raise Failure(f"{name} not listed")
        moved = name + ".moved"
        tio.rename(name, moved, overwrite=True)
        with tio.GFile(moved, "rb") as f:
            got = f.read()
        if got != data:
            raise Failure(f"{moved}: read back {len(got)} bytes differing from {len(data)}")
        tio.remove(moved)
        if tio.exists(moved):
            raise Failure(f"{moved} still exists after remove")
        self.counts["files"] += 1

    def task_async(self) -> None:
        x0 = self.rand((8,), "float32")
        fail = self.pyrng.random() < 0.2
        want = x0.copy()
        try:
            with self.ctx.executor(async_=True, in_flight_limit=self.pyrng.choice([0, 2, 8])):
                t = tfe_py.constant(x0)
                for _ in range(self.pyrng.randint(2, 12)):
                    t = ops.AddV2(x=ops.Mul(x=t, y=np.float32(0.5)), y=np.float32(1.0))
                    want = want * np.float32(0.5) + np.float32(1.0)
                if fail:
                    # Shapes that cannot be multiplied: fails when it runs.
                    t = ops.MatMul(a=ops.Reshape(tensor=t, shape=np.array([2, 4], np.int32)),
                                   b=tfe_py.constant(np.ones((3, 1), np.float32)))
        except InvalidArgumentError:
            if not fail:
                raise
            self.counts["async_errors_checked"] += 1
            return
        if fail:
            raise Failure("async chain with a failing op raised nothing")
        check_close("async chain", t.numpy(), want)
        self.counts["async_chains"] += 1

    # -- loop ------------------------------------------------------------

    def run(self) -> None:
        tasks: list[Callable[[], None]] = [self.task_ops, self.task_ops, self.task_copy,
                                           self.task_files, self.task_async]
        try:
            with self.ctx.as_default():
                while time.monotonic() < self.deadline and not self.stop.is_set():
                    task = self.pyrng.choice(tasks)
                    try:
                        task()
                    except Failure as exc:
                        self.failures.append(f"thread {self.idx}: wrong result: {exc}")
                    except Exception:
                        self.failures.append(
                            f"thread {self.idx}: {task.__name__}: {traceback.format_exc()}")
                    if len(self.failures) >= 5:
                        self.stop.set()
        except Exception:
            self.failures.append(f"thread {self.idx}: {traceback.format_exc()}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, required=True,
                   help=f"how long to run (1 .. {MAX_SECONDS})")
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--sample-every", type=float, default=2.0)
    p.add_argument("--warmup", type=float, default=0.25,
                   help="fraction of the run left out of the slopes")
    p.add_argument("--max-rss-slope", type=float, default=2048.0, help="KiB/min")
    p.add_argument("--rss-floor", type=float, default=16384.0,
                   help="KiB of RSS growth after the warm-up below which the "
                   "RSS slope is not judged")
    p.add_argument("--max-live-slope", type=float, default=50.0, help="objects/min")
    p.add_argument("--json", type=Path, default=None)
    args = p.parse_args(argv)
    if not 1 <= args.seconds <= MAX_SECONDS:
        p.error(f"--seconds must be between 1 and {MAX_SECONDS}")
    if not 1 <= args.threads <= 64:
        p.error("--threads must be between 1 and 64")

    # Warm up the op wrappers and the filesystem registry before the baseline,
    # so caches filled on first use are not counted as growth.
    ctx = tfe_py.Context(num_cpu_devices=2)
    tmp = Path(tempfile.mkdtemp(prefix="tfe-soak-"))
    warm = Worker(-1, ctx, args.seed - 1, time.monotonic() + 1e9, tmp, threading.Event())
    with ctx.as_default():
        for task in (warm.task_ops, warm.task_copy, warm.task_files, warm.task_async):
            for _ in range(20):
                task()
    del warm
    gc.collect()
    base_counts = live_counts()
    base_rss = rss_kib()

    start = time.monotonic()
    deadline = start + args.seconds
    stop = threading.Event()
    workers = [Worker(i, ctx, args.seed * 1000 + i, deadline, tmp, stop)
               for i in range(args.threads)]
    threads = [threading.Thread(target=w.run, name=f"soak-{w.idx}") for w in workers]
    for t in threads:
        t.start()
    rss_samples: list[tuple[float, float]] = []
    live_samples: list[tuple[float, float]] = []
    while any(t.is_alive() for t in threads):
        time.sleep(min(args.sample_every, max(0.05, deadline - time.monotonic())))
        now = time.monotonic() - start
        rss_samples.append((now, float(rss_kib())))
        live_samples.append((now, float(sum(live_counts().values()))))
    for t in threads:
        t.join()
    elapsed = time.monotonic() - start

    gc.collect()
    try:
        tio.rmtree("ram://soak")
    except tfe_py.errors.NotFoundError:
        pass
    shutil.rmtree(tmp, ignore_errors=True)
    gc.collect()
    end_counts = live_counts()

    cut = args.warmup * elapsed
    rss_slope = slope_per_min([s for s in rss_samples if s[0] >= cut])
    live_slope = slope_per_min([s for s in live_samples if s[0] >= cut])
    totals: dict[str, int] = {}
    for w in workers:
        for k, v in w.counts.items():
            totals[k] = totals.get(k, 0) + v
    failures = [f for w in workers for f in w.failures]
    leaked = {k: end_counts[k] - base_counts[k] for k in KINDS if end_counts[k] != base_counts[k]}
    problems = list(failures)
    if leaked:
        problems.append(f"live objects not back at baseline: {leaked}")
    after = [v for t, v in rss_samples if t >= cut]
    rss_growth = (after[-1] - min(after)) if after else 0.0
    if rss_slope > args.max_rss_slope and rss_growth >= args.rss_floor:
        problems.append(
            f"RSS grows {rss_slope:.0f} KiB/min (> {args.max_rss_slope}), "
            f"{rss_growth:.0f} KiB after the warm-up (>= {args.rss_floor})"
        )
    if live_slope > args.max_live_slope:
        problems.append(f"live objects grow {live_slope:.1f}/min (> {args.max_live_slope})")

    report: dict[str, Any] = {
        "seconds": round(elapsed, 1),
        "threads": args.threads,
        "seed": args.seed,
        "totals": totals,
        "samples": len(rss_samples),
        "rss_kib_start": base_rss,
        "rss_kib_end": int(rss_samples[-1][1]) if rss_samples else base_rss,
        "rss_kib_max": int(max(s[1] for s in rss_samples)) if rss_samples else base_rss,
        "rss_slope_kib_per_min": round(rss_slope, 1),
        "rss_growth_after_warmup_kib": round(rss_growth, 1),
        "live_objects_slope_per_min": round(live_slope, 2),
        "live_objects_baseline": base_counts,
        "live_objects_end": end_counts,
        "failures": len(failures),
        "problems": problems,
    }
    print(f"soak: {elapsed:.0f} s, {args.threads} threads, seed {args.seed}")
    print("  done: " + ", ".join(f"{k} {v}" for k, v in totals.items()))
    print(f"  RSS: {base_rss} KiB at start, {report['rss_kib_end']} KiB at end, "
          f"max {report['rss_kib_max']} KiB; after warm-up: slope {rss_slope:+.1f} KiB/min, "
          f"growth {rss_growth:.0f} KiB")
    print(f"  live objects: slope after warm-up {live_slope:+.2f}/min; "
          f"back at baseline after the run: {'yes' if not leaked else 'NO ' + str(leaked)}")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    if problems:
        print("soak FAILED:")
        for prob in problems:
            print("  - " + prob.rstrip().replace("\n", "\n    "))
        return 1
    print("soak passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
