#!/usr/bin/env python3
"""Report how much of TensorFlow 2.21's public C API tfe covers.

For every function listed in tools/tf_c_api_functions.txt the tool finds out
whether tfe's headers declare it, whether the built libtfe.so exports it,
whether tfe marks it as a deliberate TF_UNIMPLEMENTED stub (see
csrc/core/unimplemented.h) and whether tests mention it. The result is
written to docs/COVERAGE.md, together with the list of deliberate
differences from the binary interface of TF's headers (ABI_EXCEPTIONS,
checked by ../shared/tools/abi-check and tests/c/test_abi_layout.c).

    python3 tools/api_coverage.py                 # (re)write docs/COVERAGE.md
    python3 tools/api_coverage.py --check         # exit 1 if it is stale
    python3 tools/api_coverage.py --lib build/libtfe.so --out /tmp/cov.md

Only the standard library and binutils' `nm` are used.
"""

from __future__ import annotations

import argparse
import io
import re
import shutil
import subprocess
import sys
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = "python3 tools/api_coverage.py"

NOT_EXPORTED_NOTE = "declared, not exported"
# A section note marking a header of TF's source tree that the wheel does
# not ship (reported apart from the wheel's API).
SOURCE_TREE_NOTE = "source tree"

# Where tfe's headers deliberately differ from the binary interface of the
# headers in the tensorflow-cpu 2.21.0 wheel: (what, header, reason). These
# are the only differences ../shared/tools/abi-check may report.
ABI_EXCEPTIONS: tuple[tuple[str, str, str], ...] = ()

# Statuses shown per function.
IMPLEMENTED_TESTED = "implemented, tested"
IMPLEMENTED_UNTESTED = "implemented, untested"
STUB = "stub (UNIMPLEMENTED)"
MISSING = "missing"
DECLARED_NOT_EXPORTED = "declared but not exported (broken)"
EXPORTED_NOT_DECLARED = "exported but not declared (broken)"
PLUGIN_ENTRY = "plugin entry point (not the core's)"
PLUGIN_ENTRY_EXPORTED = "plugin entry point, wrongly exported by libtfe"

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Identifiers that take a parenthesised argument list without being the
# declared function: attribute syntax and all-caps attribute macros.
ATTRIBUTE_WORDS = {"__attribute__", "__declspec", "_Alignas", "alignas"}
ALL_CAPS_MACRO = re.compile(r"^[A-Z][A-Z0-9_]*$")

STUB_CALL = re.compile(r"\bTFE_UNIMPLEMENTED\s*\([^;\"]*?,\s*\"([A-Za-z_][A-Za-z0-9_]*)\"\s*\)")
STUB_COMMENT = re.compile(r"(?:/\*|//)\s*TFE_UNIMPLEMENTED:\s*([A-Za-z_][A-Za-z0-9_]*)")

C_SUFFIXES = (".c", ".h", ".cc", ".cpp", ".cxx", ".hpp")
PY_SUFFIXES = (".py",)


@dataclass(frozen=True)
class TFFunction:
    """One function of TF's list."""

    name: str
    header: str
    note: str = ""
    source_tree: bool = False

    @property
    def tf_exports(self) -> bool:
        return not self.note.startswith(NOT_EXPORTED_NOTE)

    @property
    def plugin_entry(self) -> bool:
        return "entry point" in self.note


@dataclass
class Facts:
    """What the tool learned about tfe's tree."""

    declared: dict[str, list[str]] = field(default_factory=dict)
    exported: set[str] | None = None
    stubs: dict[str, list[str]] = field(default_factory=dict)
    tested: set[str] = field(default_factory=set)
    conformance: set[str] | None = None
    # Op names with a registered gradient / registered as not differentiable
    # (read from the library's gradient registry; None without a library).
    gradients: tuple[list[str], list[str]] | None = None


@dataclass(frozen=True)
class Row:
    """The classification of one TF function."""

    fn: TFFunction
    status: str
    declared_in: tuple[str, ...]
    tested: bool
    conformance: bool

    @property
    def declared(self) -> bool:
        return bool(self.declared_in)


# ---------------------------------------------------------------- inputs ---


def parse_function_list(text: str) -> list[TFFunction]:
    """Parses the `[header]` / one-name-per-line format."""
    out: list[TFFunction] = []
    header = ""
    source_tree = False
    seen: set[str] = set()
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, _, note = line.partition("#")
        name = name.strip()
        if name.startswith("[") and name.endswith("]"):
            header = name[1:-1].strip()
            source_tree = note.strip() == SOURCE_TREE_NOTE
            continue
        if not header or not IDENT.fullmatch(name):
            raise ValueError(f"line {lineno}: cannot parse {raw!r}")
        if name in seen:
            raise ValueError(f"line {lineno}: {name} listed twice")
        seen.add(name)
        out.append(TFFunction(name, header, note.strip(), source_tree))
    return out


def strip_c_comments(text: str) -> str:
    """Replaces C and C++ comments with spaces, leaving string and character
    literals intact. Newlines are kept."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "*":
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("".join("\n" if ch == "\n" else " " for ch in text[i:end]))
            i = end
        elif c == "/" and nxt == "/":
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_preprocessor(text: str) -> str:
    """Blanks out preprocessor directives, continuation lines included."""
    lines = text.split("\n")
    out: list[str] = []
    continuing = False
    for line in lines:
        directive = continuing or line.lstrip().startswith("#")
        continuing = directive and line.rstrip().endswith("\\")
        out.append("" if directive else line)
    return "\n".join(out)


def _skip_parens(text: str, i: int) -> int:
    """Index just after the parenthesised group that starts at text[i]."""
    depth = 0
    while i < len(text):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def parse_declared_names(text: str) -> list[str]:
    """Names of the functions a header declares with TF_CAPI_EXPORT.

    Comments and preprocessor lines are ignored; a declaration may span
    lines. The declared name is the last identifier before the first `(`
    that does not open an attribute."""
    code = strip_preprocessor(strip_c_comments(text))
    names: list[str] = []
    for m in re.finditer(r"\bTF_CAPI_EXPORT\b", code):
        i = m.end()
        last: str | None = None
        while i < len(code):
            ch = code[i]
            if ch in ";{}":
                break
            if ch == "(":
                if last is None:
                    break
                if last in ATTRIBUTE_WORDS or ALL_CAPS_MACRO.match(last):
                    i = _skip_parens(code, i)
                    last = None
                    continue
                names.append(last)
                break
            word = IDENT.match(code, i)
            if word:
                last = word.group(0)
                i = word.end()
            else:
                i += 1
    return names


def _files(base: Path, suffixes: Sequence[str]) -> list[Path]:
    if not base.is_dir():
        return []
    return sorted(p for p in base.rglob("*") if p.is_file() and p.suffix in suffixes)


def find_declarations(include_dir: Path) -> dict[str, list[str]]:
    """Maps each declared name to the headers (relative to include_dir)
    declaring it."""
    found: dict[str, list[str]] = {}
    for path in _files(include_dir, (".h",)):
        rel = path.relative_to(include_dir).as_posix()
        for name in parse_declared_names(path.read_text(errors="replace")):
            headers = found.setdefault(name, [])
            if rel not in headers:
                headers.append(rel)
    return found


def parse_stub_markers(text: str) -> set[str]:
    """Names marked as deliberate stubs in one C source text."""
    names = set(STUB_CALL.findall(strip_c_comments(text)))
    names.update(STUB_COMMENT.findall(text))
    return names


def find_stubs(csrc_dir: Path) -> dict[str, list[str]]:
    """Maps each stub-marked name to the csrc files (relative) marking it."""
    found: dict[str, list[str]] = {}
    for path in _files(csrc_dir, C_SUFFIXES):
        rel = path.relative_to(csrc_dir).as_posix()
        for name in sorted(parse_stub_markers(path.read_text(errors="replace"))):
            found.setdefault(name, []).append(rel)
    return found


def _python_identifiers(text: str) -> set[str]:
    """Identifiers in Python code and strings, comments excluded."""
    words: set[str] = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type != tokenize.COMMENT:
                words.update(IDENT.findall(tok.string))
    except (tokenize.TokenError, SyntaxError):
        words.update(IDENT.findall(text))
    return words


def find_mentions(dirs: Iterable[Path], names: set[str]) -> set[str]:
    """The subset of names used in C or Python files under dirs (comments do
    not count)."""
    seen: set[str] = set()
    for base in dirs:
        for path in _files(base, C_SUFFIXES + PY_SUFFIXES):
            text = path.read_text(errors="replace")
            if path.suffix in PY_SUFFIXES:
                words = _python_identifiers(text)
            else:
                words = set(IDENT.findall(strip_c_comments(text)))
            seen |= words & names
    return seen


_CXX_NAME = re.compile(r"^_ZN10tensorflow(\d+)(\w+)$")
# A function at global namespace scope: _Z<length><name><parameters>.
_CXX_OVERLOAD = re.compile(r"^_Z(\d+)(\w+)$")


def cxx_alias_of(symbol: str) -> str | None:
    """The function name inside a `tensorflow::NAME(...)` mangled symbol
    (e.g. `TFE_HandleToDLPack`), or None for any other symbol."""
    m = _CXX_NAME.match(symbol)
    if m is None:
        return None
    n = int(m.group(1))
    rest = m.group(2)
    if len(rest) <= n or rest[n] != "E":
        return None
    return rest[:n]


def find_exports(lib: Path) -> set[str]:
    """Dynamic symbols libtfe defines (nm -D --defined-only)."""
    nm = shutil.which("nm")
    if nm is None:
        raise RuntimeError("nm (binutils) is not installed")
    proc = subprocess.run(
        [nm, "-D", "--defined-only", "-P", str(lib)],
        check=True,
        capture_output=True,
        text=True,
    )
    out: set[str] = set()
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            out.add(parts[0].split("@", 1)[0])
    return out


def find_gradients(lib: Path) -> tuple[list[str], list[str]] | None:
    """The ops of lib's registry that have a gradient and those registered as
    not differentiable (TFE_ListOpNames and TFE_GradientRegistryLookup, called
    through cffi's ABI mode), or None when the library cannot be loaded."""
    try:
        import cffi
    except ImportError:
        return None
    ffi = cffi.FFI()
    ffi.cdef(
        """
        typedef struct TF_Buffer { const void* data; size_t length;
                                   void (*data_deallocator)(void*, size_t); } TF_Buffer;
        TF_Buffer* TF_NewBuffer(void);
        void TF_DeleteBuffer(TF_Buffer*);
        void TFE_ListOpNames(TF_Buffer*);
        int TFE_GradientRegistryLookup(const char*);
        """
    )
    try:
        so = ffi.dlopen(str(lib))
        buf = so.TF_NewBuffer()
    except (OSError, AttributeError):
        return None
    try:
        so.TFE_ListOpNames(buf)
        text = bytes(ffi.buffer(ffi.cast("const char*", buf.data), buf.length)).decode()
    finally:
        so.TF_DeleteBuffer(buf)
    with_grad: list[str] = []
    stop: list[str] = []
    for name in sorted(n for n in text.split("\n") if n):
        kind = so.TFE_GradientRegistryLookup(name.encode())
        if kind == 1:
            with_grad.append(name)
        elif kind == 2:
            stop.append(name)
    return with_grad, stop


def default_lib(root: Path) -> Path | None:
    """The newest of build*/libtfe.so and tfe_py/libtfe.so*, or None."""
    candidates = [p for p in root.glob("build*/libtfe.so") if p.is_file()]
    candidates += [p for p in root.glob("tfe_py/libtfe.so*") if p.is_file()]
    if not candidates:
        return None
    return max(candidates, key=lambda p: (p.stat().st_mtime, str(p)))


def gather(
    root: Path,
    names: set[str],
    lib: Path | None,
    conformance_dir: Path | None,
    conformance_fallback: set[str] | None = None,
) -> Facts:
    """Collects every fact the report needs from the tree at root.

    Without the conformance sources (a checkout with no ../shared next to
    it), ``conformance_fallback`` supplies the names instead."""
    facts = Facts()
    facts.declared = find_declarations(root / "include")
    facts.stubs = find_stubs(root / "csrc")
    facts.exported = find_exports(lib) if lib is not None else None
    facts.gradients = find_gradients(lib) if lib is not None else None
    facts.tested = find_mentions([root / "tests"], names)
    if conformance_dir is not None and conformance_dir.is_dir():
        facts.conformance = find_mentions([conformance_dir], names)
    elif conformance_fallback is not None:
        facts.conformance = conformance_fallback & names
    return facts


_CONFORMANCE_ROW = re.compile(r"^\| `(\w+)` \| [^|]* \| [^|]*\bconformance\b[^|]* \|", re.MULTILINE)


def conformance_from_report(text: str) -> set[str] | None:
    """The functions an existing COVERAGE.md marks as used by conformance
    programs, or None when it has no conformance column."""
    if "| conformance |" not in text:
        return None
    return set(_CONFORMANCE_ROW.findall(text))


# -------------------------------------------------------- classification ---


def classify(fn: TFFunction, facts: Facts) -> Row:
    """Decides the status of one TF function from the facts."""
    declared_in = tuple(facts.declared.get(fn.name, ()))
    exported = None if facts.exported is None else fn.name in facts.exported
    stub = fn.name in facts.stubs
    if fn.plugin_entry:
        status = PLUGIN_ENTRY_EXPORTED if exported else PLUGIN_ENTRY
    elif stub:
        status = STUB
    elif not declared_in and not exported:
        status = MISSING
    elif not declared_in:
        status = EXPORTED_NOT_DECLARED
    elif exported is False:
        status = DECLARED_NOT_EXPORTED
    else:
        status = IMPLEMENTED_TESTED if fn.name in facts.tested else IMPLEMENTED_UNTESTED
    return Row(
        fn=fn,
        status=status,
        declared_in=declared_in,
        tested=fn.name in facts.tested,
        conformance=facts.conformance is not None and fn.name in facts.conformance,
    )


def problems(rows: Iterable[Row]) -> list[Row]:
    """Rows whose status shows an inconsistency in tfe's tree."""
    bad = {DECLARED_NOT_EXPORTED, EXPORTED_NOT_DECLARED, PLUGIN_ENTRY_EXPORTED}
    return [r for r in rows if r.status in bad]


# --------------------------------------------------------------- report ---


def _headers_in_order(rows: Sequence[Row]) -> list[str]:
    order: list[str] = []
    for r in rows:
        if r.fn.header not in order:
            order.append(r.fn.header)
    return order


def _summary_line(label: str, rows: Sequence[Row], conformance: bool) -> str:
    cells = [
        label,
        str(len(rows)),
        str(sum(r.declared for r in rows)),
        str(sum(r.status in (IMPLEMENTED_TESTED, IMPLEMENTED_UNTESTED) for r in rows)),
        str(sum(r.status == STUB for r in rows)),
        str(sum(r.status == MISSING for r in rows)),
        str(sum(r.tested for r in rows)),
    ]
    if conformance:
        cells.append(str(sum(r.conformance for r in rows)))
    return "| " + " | ".join(cells) + " |"


def render(
    rows: Sequence[Row],
    facts: Facts,
    known: set[str],
) -> str:
    """The whole of docs/COVERAGE.md. Depends only on its arguments, so the
    same tree and build always give the same bytes."""
    has_conf = facts.conformance is not None
    out: list[str] = []
    add = out.append
    add("# TensorFlow C API coverage")
    add("")
    add(
        f"Generated by `{COMMAND}`; do not edit by hand. "
        f"`{COMMAND} --check` fails when this file is out of date."
    )
    add("")
    add(
        "Compares the functions TensorFlow 2.21 declares in its public C headers "
        "(`tools/tf_c_api_functions.txt`) with what tfe declares in `include/`, "
        "exports from `libtfe.so`, marks as deliberate stubs in `csrc/` "
        "(`TFE_UNIMPLEMENTED`, see `csrc/core/unimplemented.h`) and uses in "
        "`tests/`."
    )
    add("")
    if facts.exported is None:
        add(
            "**Exports unknown:** no built `libtfe.so` was found, so a declared "
            "function counts as implemented without checking the library."
        )
    else:
        add("Exports were read from a built `libtfe.so` with `nm -D --defined-only`.")
    if has_conf:
        add(
            "The *conformance* column counts functions used by the programs in "
            "`../shared/conformance/src`."
        )
    add("")
    add("Statuses:")
    add("")
    add(f"- **{IMPLEMENTED_TESTED}**: declared, exported, and used by a test in `tests/`.")
    add(f"- **{IMPLEMENTED_UNTESTED}**: declared and exported, no test uses it yet.")
    add(f"- **{STUB}**: present, but fails with `TF_UNIMPLEMENTED` on purpose.")
    add(f"- **{MISSING}**: not declared by tfe.")
    add(
        "- *declared but not exported* / *exported but not declared*: the header "
        "and the library disagree; this is a bug."
    )
    add(f"- *{PLUGIN_ENTRY}*: defined by plugins, never by the core.")
    add("")
    add("## Summary")
    add("")
    cols = ["header", "TF declares", "tfe declares", "implemented", "stubs", "missing", "tested"]
    if has_conf:
        cols.append("conformance")
    add("| " + " | ".join(cols) + " |")
    add("|" + "|".join(["---"] + ["--:"] * (len(cols) - 1)) + "|")
    headers = _headers_in_order(rows)
    wheel_rows = [r for r in rows if not r.fn.source_tree]
    for h in _headers_in_order(wheel_rows):
        add(_summary_line(f"`{h}`", [r for r in rows if r.fn.header == h], has_conf))
    add(_summary_line("**total**", wheel_rows, has_conf))
    tree_rows = [r for r in rows if r.fn.source_tree]
    if tree_rows:
        for h in _headers_in_order(tree_rows):
            add(
                _summary_line(
                    f"`{h}` (TF source tree)", [r for r in rows if r.fn.header == h], has_conf
                )
            )
        add("")
        add(
            "Headers marked *TF source tree* are part of TensorFlow's C API in its "
            "repository but are not shipped in the tensorflow-cpu 2.21.0 wheel "
            "(so they are not in the wheel's function list and not in the total). "
            "Plugins include them (e.g. `tensorflow/c/logging.h` for `TF_Log`); "
            "tfe keeps them and exports their functions."
        )
    add("")

    bad = problems(rows)
    if bad:
        add("## Inconsistencies")
        add("")
        for r in bad:
            add(f"- `{r.fn.name}` ({r.fn.header}): {r.status}")
        add("")

    add("## Functions by header")
    for h in headers:
        add("")
        add(f"### `{h}`")
        add("")
        add("| function | status | tests | notes |")
        add("|---|---|---|---|")
        for r in rows:
            if r.fn.header != h:
                continue
            where = []
            if r.tested:
                where.append("tests")
            if r.conformance:
                where.append("conformance")
            notes = []
            if not r.fn.tf_exports:
                exported = facts.exported is not None and r.fn.name in facts.exported
                notes.append(
                    "TF declares it but does not export it"
                    + ("; tfe exports it" if exported else "")
                )
                extra = r.fn.note[len(NOT_EXPORTED_NOTE) :].strip(" ;")
                if extra:
                    notes.append(extra)
            elif r.fn.note and not r.fn.plugin_entry:
                notes.append(r.fn.note)
            if r.declared and h not in r.declared_in:
                notes.append("declared in " + ", ".join(f"`{d}`" for d in r.declared_in))
            if r.status == STUB:
                notes.append(
                    "marked in " + ", ".join(f"`csrc/{s}`" for s in facts.stubs.get(r.fn.name, []))
                )
            add(
                f"| `{r.fn.name}` | {r.status} | {' + '.join(where) or '-'} "
                f"| {'; '.join(notes) or ''} |"
            )

    add("")
    add("## tfe's own exported symbols")
    add("")
    if facts.exported is None:
        extras = sorted(set(facts.declared) - known)
        add(
            "No library was found; these are the functions tfe's headers declare "
            "that are not in TF's list:"
        )
    else:
        extras = sorted(facts.exported - known)
        add(
            "Exported by `libtfe.so` but not in TF's list (tfe extensions, TSL_* twins, "
            "C++ names, and functions TF's headers declare without TF_CAPI_EXPORT):"
        )
    add("")
    if extras:
        for name in extras:
            where = facts.declared.get(name)
            cxx = cxx_alias_of(name)
            overload = _CXX_OVERLOAD.match(name)
            if cxx is not None:
                tail = f" (C++ name of `{cxx}`: `tensorflow::{cxx}`, as TF's header declares it)"
            elif overload is not None:
                fn = overload.group(2)[: int(overload.group(1))]
                tail = f" (C++-only overload of `{fn}`, as TF's header declares it)"
            else:
                tail = f" (`{where[0]}`)" if where else " (not declared in `include/`)"
            add(f"- `{name}`{tail}")
    else:
        add("- none")

    add("")
    add("## ABI exceptions")
    add("")
    add(
        "`../shared/tools/abi-check TF_INCLUDE include` compares every struct "
        "layout, enumerator value and function type of tfe's public headers "
        "with the headers of the tensorflow-cpu 2.21.0 wheel (TF_INCLUDE: its "
        "`tensorflow/include`); `tests/c/test_abi_layout.c` records the same "
        "layouts as compile-time assertions, so CI needs no TensorFlow. "
        "Differences it reports on purpose:"
    )
    add("")
    for what, header, reason in ABI_EXCEPTIONS:
        add(f"- {what} (`{header}`): {reason}")
    if not ABI_EXCEPTIONS:
        add("- none (abi-check reports 0 differences)")

    add("")
    add("## Gradients")
    add("")
    if facts.gradients is None:
        add("Unknown: no built `libtfe.so` was read.")
    else:
        with_grad, stop = facts.gradients
        add(
            "Ops of tfe's registry with a gradient in the one gradient registry "
            "(`TFE_GradientRegistryLookup` = 1; they serve the C tape, `tfe_py.GradientTape` "
            "and `TF_AddGradients`; docs/GRADIENTS.md), and ops registered as not "
            "differentiable (= 2: gradients stop there, as at TF's `NotDifferentiable` ops). "
            "An op in neither list has no gradient: differentiating through it is "
            "`TF_UNIMPLEMENTED` naming it (TF's LookupError)."
        )
        add("")
        add(f"**With a gradient ({len(with_grad)}):** " + ", ".join(f"`{n}`" for n in with_grad))
        add("")
        add(f"**Not differentiable ({len(stop)}):** " + ", ".join(f"`{n}`" for n in stop))

    unknown_stubs = sorted(set(facts.stubs) - known)
    if unknown_stubs:
        add("")
        add("## Stub markers naming no TF function")
        add("")
        for name in unknown_stubs:
            files = ", ".join(f"`csrc/{s}`" for s in facts.stubs[name])
            add(f"- `{name}` in {files}")
    add("")
    return "\n".join(out)


# ----------------------------------------------------------------- main ---


def build_report(
    root: Path,
    list_path: Path,
    lib: Path | None,
    conformance_dir: Path | None,
    conformance_fallback: set[str] | None = None,
) -> tuple[str, list[Row], Facts]:
    """Runs the whole pipeline; returns the Markdown text, rows and facts."""
    functions = parse_function_list(list_path.read_text())
    known = {f.name for f in functions}
    facts = gather(root, known, lib, conformance_dir, conformance_fallback)
    rows = [classify(f, facts) for f in functions]
    return render(rows, facts, known), rows, facts


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=ROOT, help="tfe checkout")
    ap.add_argument(
        "--list",
        type=Path,
        default=None,
        help="TF function list (default: tools/tf_c_api_functions.txt)",
    )
    ap.add_argument(
        "--lib",
        type=Path,
        default=None,
        help="libtfe.so to read exports from "
        "(default: newest build*/libtfe.so or tfe_py/libtfe.so*)",
    )
    ap.add_argument(
        "--conformance",
        type=Path,
        default=None,
        help="conformance sources (default: ../shared/conformance/src)",
    )
    ap.add_argument(
        "--out", type=Path, default=None, help="output file (default: docs/COVERAGE.md)"
    )
    ap.add_argument(
        "--check",
        action="store_true",
        help="do not write; exit 1 if the output file is out of date",
    )
    args = ap.parse_args(argv)

    root: Path = args.root.resolve()
    list_path: Path = args.list or root / "tools" / "tf_c_api_functions.txt"
    out_path: Path = args.out or root / "docs" / "COVERAGE.md"
    conf: Path = args.conformance or root.parent / "shared" / "conformance" / "src"

    lib: Path | None = args.lib
    if lib is not None and not lib.is_file():
        print(f"api_coverage: {lib}: no such library", file=sys.stderr)
        return 2
    if lib is None:
        lib = default_lib(root)
        if lib is None:
            print(
                "api_coverage: no libtfe.so found (build*/libtfe.so, "
                "tfe_py/libtfe.so*); exports are unknown",
                file=sys.stderr,
            )
    if lib is not None:
        print(f"api_coverage: reading exports from {lib}", file=sys.stderr)

    # A checkout without ../shared cannot see the conformance programs; it
    # keeps the conformance marks of the report it would rewrite.
    fallback = None
    if not conf.is_dir() and out_path.is_file():
        fallback = conformance_from_report(out_path.read_text())
        if fallback is not None:
            print(
                f"api_coverage: {conf} not found; conformance marks kept from {out_path}",
                file=sys.stderr,
            )

    try:
        text, rows, _ = build_report(root, list_path, lib, conf, fallback)
    except (OSError, ValueError, RuntimeError, subprocess.CalledProcessError) as e:
        print(f"api_coverage: {e}", file=sys.stderr)
        return 2

    for r in problems(rows):
        print(f"api_coverage: warning: {r.fn.name}: {r.status}", file=sys.stderr)

    if args.check:
        current = out_path.read_text() if out_path.is_file() else None
        if current != text:
            print(f"api_coverage: {out_path} is out of date; run `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(text)
    print(f"api_coverage: wrote {out_path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
