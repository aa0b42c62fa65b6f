#!/usr/bin/env python3
"""Run the issue-16 corpus against tfe_py and compare with TensorFlow 2.21's output.

Every tests/tf_corpus/programs/<name>.py is copied to a temporary directory with
its `import tensorflow as tf` line rewritten to `import tfe_py as tf`, run with
this python (the checkout on PYTHONPATH) and its stdout and exit status compared
with tests/tf_corpus/expected/<name>.out (and <name>.status when TF exited
non-zero).  Exit status 0 only when every program matches.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "tf_corpus"
PROGRAMS = CORPUS / "programs"
EXPECTED = CORPUS / "expected"
TIMEOUT = 120.0
IMPORT_RE = re.compile(r"^import tensorflow as tf\s*$", re.MULTILINE)


@dataclass
class Result:
    """Outcome of one program."""

    name: str
    passed: bool
    stdout: str
    stderr: str
    status: int
    expected: str
    expected_status: int

    @property
    def area(self) -> str:
        return self.name.split("_", 1)[0]

    def failure_kind(self) -> str:
        """A one-line classification: the last line of the traceback, or 'wrong output'."""
        if self.passed:
            return ""
        if self.status != self.expected_status and self.stderr.strip():
            return self.stderr.strip().splitlines()[-1][:100]
        return "wrong output"


def generalise(kind: str) -> str:
    """The failure kind with quoted names removed (groups e.g. every missing attribute)."""
    return re.sub(r"'[^']*'", "'…'", kind)


def env_for_run() -> dict[str, str]:
    env = dict(os.environ)
    old = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + old if old else "")
    env.update({"PYTHONHASHSEED": "0", "PYTHONIOENCODING": "utf-8", "TF_CPP_MIN_LOG_LEVEL": "3",
                "LC_ALL": "C.UTF-8"})
    return env


def run_one(prog: Path) -> Result:
    name = prog.stem
    src = IMPORT_RE.sub("import tfe_py as tf", prog.read_text(encoding="utf-8"), count=1)
    exp_path = EXPECTED / f"{name}.out"
    expected = exp_path.read_text(encoding="utf-8") if exp_path.exists() else ""
    st_path = EXPECTED / f"{name}.status"
    expected_status = int(st_path.read_text().strip()) if st_path.exists() else 0
    with tempfile.TemporaryDirectory() as work:
        copy = Path(work) / prog.name
        copy.write_text(src, encoding="utf-8")
        try:
            p = subprocess.run(
                [sys.executable, str(copy)], cwd=work, env=env_for_run(), capture_output=True,
                text=True, encoding="utf-8", errors="replace", timeout=TIMEOUT,
            )
            out, err, status = p.stdout, p.stderr, p.returncode
        except subprocess.TimeoutExpired:
            out, err, status = "", f"TimeoutExpired: more than {TIMEOUT:.0f} s", -9
    passed = exp_path.exists() and out == expected and status == expected_status
    return Result(name, passed, out, err, status, expected, expected_status)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="program names (or prefixes) to run; default all")
    ap.add_argument("--verbose", "-v", action="store_true", help="show diffs of failures")
    ap.add_argument("--list-passing", metavar="FILE", help="write the names that pass to FILE")
    ap.add_argument("--jobs", "-j", type=int, default=2)
    args = ap.parse_args(argv)

    progs = sorted(PROGRAMS.glob("*.py"))
    if args.names:
        progs = [p for p in progs if any(p.stem.startswith(n) for n in args.names)]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(run_one, progs))

    per_area: dict[str, list[int]] = {}
    kinds: Counter[str] = Counter()
    general: Counter[str] = Counter()
    for r in results:
        counts = per_area.setdefault(r.area, [0, 0])
        counts[1] += 1
        if r.passed:
            counts[0] += 1
        else:
            kinds[r.failure_kind()] += 1
            general[generalise(r.failure_kind())] += 1
            if args.verbose:
                print(f"=== FAIL {r.name} (status {r.status}, expected {r.expected_status})")
                diff = difflib.unified_diff(
                    r.expected.splitlines(), r.stdout.splitlines(), "tf", "tfe_py", lineterm="")
                print("\n".join(diff))
                if r.stderr.strip():
                    print("--- stderr (last lines)")
                    print("\n".join(r.stderr.strip().splitlines()[-5:]))
    passed = sum(r.passed for r in results)
    print(f"passed {passed} / {len(results)}, failed {len(results) - passed}")
    for area, (ok, total) in sorted(per_area.items()):
        print(f"  {area:10s} {ok:4d} / {total}")
    if kinds:
        print("most common failure kinds:")
        for kind, n in general.most_common(10):
            print(f"  {n:4d}  {kind}")
        print("most common failures:")
        for kind, n in kinds.most_common(25):
            print(f"  {n:4d}  {kind}")
    if args.list_passing:
        Path(args.list_passing).write_text("".join(f"{r.name}\n" for r in results if r.passed))
    return 0 if results and passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
