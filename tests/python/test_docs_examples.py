"""Every fenced ```python and ```c example of README.md and docs/*.md runs.

Each example is one test, named <file>:<line of the opening fence>:

* Python: written to a temporary folder and run there in a subprocess (the
  checkout on PYTHONPATH, so the in-place tfe_py is used), with a timeout.
* C: compiled with ``cc -std=c11 -Wall -Wextra -Werror`` against include/,
  linked with the libtfe of the Python package (``tfe_py.get_library_dir()``,
  with an rpath), and run.

An example that is a fragment, not meant to run, carries the marker
``<!-- no-run: reason -->`` on the line right before its fence; it is
reported as skipped with that reason. Markers are meant to be rare:
``test_no_run_markers`` lists them and fails when a marker is not followed
by an example. ``<!-- run-args: ARG ... -->`` in the same place gives a C
program its command-line arguments (``{root}`` is the checkout, e.g. a test
data file). Examples run in a temporary folder in which ``tests/data`` is a
link to the checkout's test data. Shell and other fences are not run.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RUN_LANGUAGES = ("python", "c")
NO_RUN = re.compile(r"^<!--\s*no-run:\s*(.+?)\s*-->\s*$")
RUN_ARGS = re.compile(r"^<!--\s*run-args:\s*(.+?)\s*-->\s*$")
FENCE = re.compile(r"^(`{3,})\s*([\w+-]*)\s*$")
TIMEOUT = 180


@dataclass(frozen=True)
class Example:
    path: Path
    line: int  # 1-based line of the opening fence
    language: str
    code: str
    no_run: str | None  # the marker's reason, if any
    args: tuple[str, ...] = ()  # a C program's arguments (run-args marker)

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def extract(path: Path) -> tuple[list[Example], list[int]]:
    """The fenced examples of one Markdown file, and the lines of markers
    that are not directly followed by a python or c fence."""
    lines = path.read_text(encoding="utf-8").splitlines()
    examples: list[Example] = []
    dangling: list[int] = []
    i = 0
    # Markers seen since the last fence: (line, no-run reason, run args).
    pending: list[tuple[int, str | None, tuple[str, ...]]] = []
    while i < len(lines):
        text = lines[i].strip()
        no_run, run_args = NO_RUN.match(text), RUN_ARGS.match(text)
        if no_run or run_args:
            args = tuple(shlex.split(run_args.group(1))) if run_args else ()
            pending.append((i + 1, no_run.group(1) if no_run else None, args))
            i += 1
            continue
        m = FENCE.match(text)
        if m is None:
            if text:
                dangling += [n for n, _, _ in pending]
                pending = []
            i += 1
            continue
        ticks, language = m.group(1), m.group(2).lower()
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and lines[i].strip() != ticks:
            body.append(lines[i])
            i += 1
        i += 1  # the closing fence
        if language in RUN_LANGUAGES:
            reason = next((r for _, r, _ in pending if r is not None), None)
            args = tuple(a for _, _, more in pending for a in more)
            code = "\n".join(body) + "\n"
            examples.append(Example(path, start + 1, language, code, reason, args))
        else:
            dangling += [n for n, _, _ in pending]
        pending = []
    dangling += [n for n, _, _ in pending]
    return examples, dangling


def _all_examples() -> list[Example]:
    found: list[Example] = []
    for path in DOC_FILES:
        found += extract(path)[0]
    return found


EXAMPLES = _all_examples()


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    try:
        proc = subprocess.run(
            cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"timed out after {TIMEOUT} s: {shlex.join(cmd)}")
    if proc.returncode != 0:
        pytest.fail(
            f"exit status {proc.returncode}: {shlex.join(cmd)}\n"
            f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
        )
    return proc.stdout


def _python_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["TFE_DOCTOR_CACHE"] = env.get("TFE_DOCTOR_CACHE", "")  # keep the user's choice
    if not env["TFE_DOCTOR_CACHE"]:
        del env["TFE_DOCTOR_CACHE"]
    return env


def _link_test_data(tmp_path: Path) -> None:
    """Examples run in a temporary folder; ``tests/data/...`` there reaches
    the checkout's test data (the SavedModels the docs load)."""
    (tmp_path / "tests").mkdir(exist_ok=True)
    link = tmp_path / "tests" / "data"
    if not link.exists():
        link.symlink_to(ROOT / "tests" / "data")


def _run_python(example: Example, tmp_path: Path) -> None:
    _link_test_data(tmp_path)
    src = tmp_path / "example.py"
    src.write_text(example.code, encoding="utf-8")
    _run([sys.executable, str(src)], tmp_path, _python_env())


def _run_c(example: Example, tmp_path: Path) -> None:
    import tfe_py

    libdir = tfe_py.get_library_dir()
    _link_test_data(tmp_path)
    src = tmp_path / "example.c"
    src.write_text(example.code, encoding="utf-8")
    exe = tmp_path / "example"
    cc = shlex.split(os.environ.get("CC") or "cc")
    _run(
        [
            *cc,
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-I",
            str(ROOT / "include"),
            str(src),
            "-o",
            str(exe),
            f"-L{libdir}",
            "-l:libtfe.so.0",
            f"-Wl,-rpath,{libdir}",
            "-lpthread",
            "-lm",
        ],
        tmp_path,
    )
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    args = [a.replace("{root}", str(ROOT)) for a in example.args]
    _run([str(exe), *args], tmp_path, env)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_example_runs(example: Example, tmp_path: Path) -> None:
    if example.no_run is not None:
        pytest.skip(f"no-run: {example.no_run}")
    if example.language == "python":
        _run_python(example, tmp_path)
    else:
        _run_c(example, tmp_path)


def test_no_run_markers() -> None:
    """Every marker annotates an example; the list is printed (pytest -s)."""
    dangling = []
    for path in DOC_FILES:
        dangling += [f"{path.relative_to(ROOT)}:{n}" for n in extract(path)[1]]
    assert not dangling, f"no-run markers not right before a python/c fence: {dangling}"
    skipped = [e for e in EXAMPLES if e.no_run is not None]
    print(f"\n{len(EXAMPLES)} examples, {len(skipped)} marked no-run:")
    for e in skipped:
        print(f"  {e.id}: {e.no_run}")
    # Fragments are the exception: most examples must really run.
    assert len(skipped) * 4 <= len(EXAMPLES), [e.id for e in skipped]


def test_extractor_finds_examples(tmp_path: Path) -> None:
    doc = tmp_path / "x.md"
    doc.write_text(
        "text\n```python\nprint(1)\n```\n\n<!-- no-run: a fragment -->\n```c\nint x;\n```\n"
        "```sh\nls\n```\n<!-- no-run: dangling -->\nprose\n"
        "<!-- run-args: {root}/x 'a b' -->\n```c\nint main(void) { return 0; }\n```\n"
    )
    examples, dangling = extract(doc)
    assert [(e.line, e.language, e.no_run, e.args) for e in examples] == [
        (2, "python", None, ()),
        (7, "c", "a fragment", ()),
        (16, "c", None, ("{root}/x", "a b")),
    ]
    assert examples[0].code == "print(1)\n"
    assert dangling == [13]
    assert len(EXAMPLES) >= 20  # README.md and docs/ have that many
