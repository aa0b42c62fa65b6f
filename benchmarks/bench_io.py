"""Sequential write and read throughput of tfe_py.io.GFile against Python's
built-in open().

For a file of ``--size-mb`` MB moved in ``--chunk-kb`` KB pieces it times,
in interleaved rounds (best round kept):

* write: ``open(path, "wb")`` vs ``GFile(path, "wb")`` on the local
  filesystem and ``GFile("ram://...", "wb")``; the time includes close();
* read: ``open(path, "rb").read(chunk)`` in a loop vs the same with GFile on
  both schemes, and a whole-file ``read()`` for each.

Reads come from the page cache for both sides (the file was just written),
so the figures compare the per-byte overhead of the two stacks. The ratio
column is GFile throughput / built-in throughput (goal of issue 6: at least
0.9 for large sequential transfers).

Usage: python benchmarks/bench_io.py [--size-mb 256] [--chunk-kb 1024]
                                     [--rounds 3] [--dir /tmp]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tfe_py import io as tio


def _write_builtin(path: str, chunk: bytes, count: int) -> None:
    with open(path, "wb") as f:
        for _ in range(count):
            f.write(chunk)


def _write_gfile(path: str, chunk: bytes, count: int) -> None:
    with tio.GFile(path, "wb") as f:
        for _ in range(count):
            f.write(chunk)


def _read_builtin(path: str, size: int) -> int:
    total = 0
    with open(path, "rb") as f:
        while data := f.read(size):
            total += len(data)
    return total


def _read_gfile(path: str, size: int) -> int:
    total = 0
    with tio.GFile(path, "rb") as f:
        while data := f.read(size):
            total += len(data)
    return total


def _readall_builtin(path: str) -> int:
    with open(path, "rb") as f:
        return len(f.read())


def _readall_gfile(path: str) -> int:
    with tio.GFile(path, "rb") as f:
        return len(f.read())


def _best(fn: Callable[[], object], rounds: list[float]) -> None:
    start = time.perf_counter()
    fn()
    rounds.append(time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=int, default=256)
    parser.add_argument("--chunk-kb", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dir", default=tempfile.gettempdir())
    args = parser.parse_args(argv)

    chunk_size = args.chunk_kb * 1024
    count = max(1, args.size_mb * 1024 * 1024 // chunk_size)
    size = chunk_size * count
    chunk = os.urandom(chunk_size)
    tag = uuid.uuid4().hex[:8]
    local_builtin = os.path.join(args.dir, f"tfe-bench-{tag}-builtin.bin")
    local_gfile = os.path.join(args.dir, f"tfe-bench-{tag}-gfile.bin")
    ram = f"ram://bench-{tag}/file.bin"

    cases: dict[str, tuple[str, Callable[[], object]]] = {
        "write builtin open, local": (
            "write",
            lambda: _write_builtin(local_builtin, chunk, count),
        ),
        "write GFile, local": ("write", lambda: _write_gfile(local_gfile, chunk, count)),
        "write GFile, ram://": ("write", lambda: _write_gfile(ram, chunk, count)),
        "read builtin open, local": ("read", lambda: _read_builtin(local_builtin, chunk_size)),
        "read GFile, local": ("read", lambda: _read_gfile(local_gfile, chunk_size)),
        "read GFile, ram://": ("read", lambda: _read_gfile(ram, chunk_size)),
        "read() whole, builtin open, local": ("readall", lambda: _readall_builtin(local_builtin)),
        "read() whole, GFile, local": ("readall", lambda: _readall_gfile(local_gfile)),
        "read() whole, GFile, ram://": ("readall", lambda: _readall_gfile(ram)),
    }
    times: dict[str, list[float]] = {name: [] for name in cases}
    try:
        # Each write starts from a missing file: truncating the previous
        # round's 256 MB costs the page cache as much as the write itself,
        # and would be charged to whichever case happens to run second.
        targets = {
            "write builtin open, local": local_builtin,
            "write GFile, local": local_gfile,
        }
        for _ in range(args.rounds):
            for name, (_kind, fn) in cases.items():
                target = targets.get(name)
                if target is not None and os.path.exists(target):
                    os.remove(target)
                _best(fn, times[name])
        assert os.path.getsize(local_gfile) == size
        assert tio.stat(ram).length == size
    finally:
        for p in (local_builtin, local_gfile):
            if os.path.exists(p):
                os.remove(p)
        if tio.exists(f"ram://bench-{tag}"):
            tio.rmtree(f"ram://bench-{tag}")

    mb = size / (1024 * 1024)
    baseline = {
        "write": min(times["write builtin open, local"]),
        "read": min(times["read builtin open, local"]),
        "readall": min(times["read() whole, builtin open, local"]),
    }
    print(
        f"{mb:.0f} MB in {chunk_size // 1024} KB chunks, best of {args.rounds} rounds "
        f"(Python {sys.version.split()[0]})"
    )
    print(f"{'case':40s} {'seconds':>9s} {'MB/s':>9s} {'vs open()':>10s}")
    worst = float("inf")
    for name, (kind, _fn) in cases.items():
        t = min(times[name])
        ratio = baseline[kind] / t
        if "GFile" in name:
            worst = min(worst, ratio)
        print(f"{name:40s} {t:9.3f} {mb / t:9.0f} {ratio:9.2f}x")
    print(f"lowest GFile/open() throughput ratio: {worst:.2f}x (goal >= 0.9x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
