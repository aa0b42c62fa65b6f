#!/usr/bin/env python3
"""Record TensorFlow 2.21's output for every program of the issue-16 corpus.

Each program in tests/tf_corpus/programs/*.py is run with TF's own python
(/work/tfvenv/bin/python by default; never needed by the tests themselves) and
its stdout is written to tests/tf_corpus/expected/<name>.out.  A non-zero exit
status goes into a sidecar <name>.status.  Every program runs twice; one whose
two outputs differ is refused (reported, nothing written).

Importing TensorFlow takes many seconds on a loaded machine, so by default
the recorder runs a small fork server inside TF's python: TensorFlow is
imported once (before any eager context exists) and every program runs in a
freshly forked child with its own stdout, temporary working directory and
eager context.  `--fresh` runs every program in a new process instead.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "tf_corpus"
PROGRAMS = CORPUS / "programs"
EXPECTED = CORPUS / "expected"
TF_PYTHON = "/work/tfvenv/bin/python"
TIMEOUT = 300.0


def fixed_env() -> dict[str, str]:
    """The environment every recording runs in (no GPU, quiet logs, fixed hash seed)."""
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": tempfile.gettempdir(),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "TF_CPP_MIN_LOG_LEVEL": "3",
        "TF_ENABLE_ONEDNN_OPTS": "0",
        "CUDA_VISIBLE_DEVICES": "",
        "OMP_NUM_THREADS": "1",
    }


# Runs inside TF's python: reads a JSON list of program paths on argv[1], writes a
# JSON list of {"name", "runs": [[stdout, stderr, status], ...]} to argv[2].
SERVER = r'''
import json, os, sys, tempfile, traceback, runpy, signal
import tensorflow  # noqa: imported once, before any eager context exists
progs = json.loads(open(sys.argv[1]).read())
repeat = int(sys.argv[3]); timeout = int(sys.argv[4])
results = []
for path in progs:
    runs = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as work:
            out_path = os.path.join(work, ".stdout"); err_path = os.path.join(work, ".stderr")
            pid = os.fork()
            if pid == 0:
                try:
                    fo = os.open(out_path, os.O_WRONLY | os.O_CREAT, 0o600)
                    fe = os.open(err_path, os.O_WRONLY | os.O_CREAT, 0o600)
                    os.dup2(fo, 1); os.dup2(fe, 2)
                    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
                    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
                    os.chdir(work); sys.argv = [path]
                    signal.alarm(timeout)
                    code = 0
                    try:
                        runpy.run_path(path, run_name="__main__")
                    except SystemExit as e:
                        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
                    except BaseException:
                        traceback.print_exc(); code = 1
                    sys.stdout.flush(); sys.stderr.flush()
                finally:
                    pass
                os._exit(code)
            _, st = os.waitpid(pid, 0)
            status = os.waitstatus_to_exitcode(st)
            with open(out_path, encoding="utf-8", errors="replace") as f: out = f.read()
            with open(err_path, encoding="utf-8", errors="replace") as f: err = f.read()
            runs.append([out, err, status])
    results.append({"name": path, "runs": runs})
    sys.__stderr__.write("."); sys.__stderr__.flush()
open(sys.argv[2], "w").write(json.dumps(results))
'''


def run_fresh(python: str, prog: Path, repeat: int) -> list[tuple[str, str, int]]:
    """Run one program `repeat` times, each in a new interpreter, in a temp directory."""
    runs: list[tuple[str, str, int]] = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as work:
            p = subprocess.run(
                [python, str(prog)], cwd=work, env=fixed_env(), capture_output=True,
                text=True, encoding="utf-8", errors="replace", timeout=TIMEOUT,
            )
            runs.append((p.stdout, p.stderr, p.returncode))
    return runs


Runs = list[tuple[str, str, int]]


def run_forked(python: str, progs: list[Path], repeat: int) -> dict[str, Runs]:
    """Run every program `repeat` times through the fork server inside TF's python."""
    with tempfile.TemporaryDirectory() as work:
        plist = Path(work) / "progs.json"
        res = Path(work) / "results.json"
        script = Path(work) / "server.py"
        plist.write_text(json.dumps([str(p) for p in progs]))
        script.write_text(SERVER)
        subprocess.run(
            [python, str(script), str(plist), str(res), str(repeat), str(int(TIMEOUT))],
            cwd=work, env=fixed_env(), check=True,
        )
        data = json.loads(res.read_text())
    return {
        Path(d["name"]).stem: [(r[0], r[1], int(r[2])) for r in d["runs"]] for d in data
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="program names (stems) to record; default all")
    ap.add_argument("--python", default=TF_PYTHON, help="TensorFlow 2.21 python")
    ap.add_argument("--fresh", action="store_true", help="one new process per run")
    ap.add_argument("--missing", action="store_true", help="only programs with no .out yet")
    args = ap.parse_args(argv)

    progs = sorted(PROGRAMS.glob("*.py"))
    if args.names:
        wanted = set(args.names)
        progs = [p for p in progs if p.stem in wanted]
    if args.missing:
        progs = [p for p in progs if not (EXPECTED / f"{p.stem}.out").exists()]
    EXPECTED.mkdir(parents=True, exist_ok=True)

    if args.fresh:
        results = {p.stem: run_fresh(args.python, p, 2) for p in progs}
    else:
        results = run_forked(args.python, progs, 2)
    print(file=sys.stderr)

    refused = 0
    for name, runs in sorted(results.items()):
        (out1, err1, st1), (out2, _, st2) = runs
        if out1 != out2 or st1 != st2:
            refused += 1
            print(f"REFUSED {name}: output differs between two runs", file=sys.stderr)
            continue
        (EXPECTED / f"{name}.out").write_text(out1, encoding="utf-8")
        sidecar = EXPECTED / f"{name}.status"
        if st1 != 0:
            sidecar.write_text(f"{st1}\n", encoding="utf-8")
            last = err1.strip().splitlines()[-1:] or [""]
            print(f"note {name}: exit status {st1}: {last[0]}", file=sys.stderr)
        elif sidecar.exists():
            sidecar.unlink()
    print(f"recorded {len(results) - refused}, refused {refused}", file=sys.stderr)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
