#!/usr/bin/env python3
"""Write tests/c/test_abi_layout.c: TensorFlow 2.21's struct layouts and
enumerator values, as facts the C compiler checks against tfe's headers.

A one-time developer tool; the generated file is committed, so CI needs no
TensorFlow. Run it again only when the ABI facts themselves must change
(a new TensorFlow release, a header tfe starts shipping):

    pip download --no-deps tensorflow-cpu==2.21.0 -d /tmp/tfwheel
    (cd /tmp/tfwheel && unzip -q tensorflow_cpu-2.21.0-*.whl 'tensorflow/include/*')
    python3 tools/gen_abi_asserts.py /tmp/tfwheel/tensorflow/include
    cmake --build build && ctest --test-dir build -R test_abi_layout

Needs clang++ (like ../shared/tools/abi-check, which it complements: that
tool compares tfe with TF when TF's headers are at hand; this one freezes
what it compared). For every header tfe ships under include/tensorflow,
include/tsl and include/xla that TF's include/ also has, the generated file
holds, read from TF's copy compiled as C++ by clang:

  - `_Static_assert(offsetof(S, f) == N, ...)` for every field of every
    named struct and union defined in those headers (members of anonymous
    nested structs and unions too, as `u.smll`), and one for `sizeof(S)`;
  - `_Static_assert(E == V, ...)` for every enumerator they define;

and one TEST() that checks the same numbers again at run time, so ctest
lists it. Records and enumerators from headers tfe does not ship (e.g.
PJRT's, which TF's next_pluggable_device header includes) are left out.
Functions are not covered here (abi-check compares their types).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "c" / "test_abi_layout.c"
CLANG = os.environ.get("CLANGXX", "clang++")


@dataclass
class Record:
    tag: str  # "struct" or "union"
    name: str
    header: str
    fields: list[tuple[str, int]] = field(default_factory=list)
    size: int = -1


def shipped_headers(tf_inc: Path) -> list[str]:
    """tfe's public headers (relative paths) that TF's include/ also has."""
    out = []
    for top in ("tensorflow", "tsl", "xla"):
        for p in sorted((ROOT / "include" / top).rglob("*.h")):
            rel = p.relative_to(ROOT / "include").as_posix()
            if (tf_inc / rel).is_file():
                out.append(rel)
    return out


def clang(tf_inc: Path, header: str, *flags: str) -> subprocess.CompletedProcess[str]:
    with tempfile.NamedTemporaryFile("w", suffix=".cc", delete=False) as f:
        f.write(f'#include <stddef.h>\n#include <stdint.h>\n#include "{header}"\n')
        src = f.name
    try:
        return subprocess.run(
            [CLANG, "-std=c++17", "-fsyntax-only", "-w", f"-I{tf_inc}", *flags, src],
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        os.unlink(src)


class Walker:
    """Finds the records and enumerators a translation unit defines, with
    the file each comes from. Clang's JSON names a location's file only
    when it differs from the previous location printed, so the current file
    is tracked in document order."""

    def __init__(self, tf_inc: Path, wanted: set[str]) -> None:
        self.tf_inc = str(tf_inc.resolve())
        self.wanted = wanted
        self.file = ""
        self.records: list[tuple[str, str, str]] = []  # (tag, name, header)
        self.enums: list[tuple[str, str]] = []  # (name, header)

    def _track(self, loc: object) -> None:
        if isinstance(loc, dict):
            if "spellingLoc" in loc:
                self._track(loc["spellingLoc"])
            if "expansionLoc" in loc:
                self._track(loc["expansionLoc"])
            if "file" in loc:
                self.file = str(loc["file"])

    def _header(self) -> str | None:
        path = os.path.realpath(self.file)
        if not path.startswith(self.tf_inc + os.sep):
            return None
        rel = os.path.relpath(path, self.tf_inc)
        return rel if rel in self.wanted else None

    def walk(self, node: dict, top: bool = True) -> None:
        rng = node.get("range", {})
        self._track(rng.get("begin"))
        self._track(node.get("loc"))
        here = self._header()
        kind = node.get("kind")
        if (
            kind in ("RecordDecl", "CXXRecordDecl")
            and top
            and node.get("completeDefinition")
            and node.get("name")
            and node.get("tagUsed") in ("struct", "union")
            and here is not None
        ):
            self.records.append((node["tagUsed"], node["name"], here))
        if kind == "EnumConstantDecl" and here is not None:
            self.enums.append((node["name"], here))
        descend = kind in ("TranslationUnitDecl", "LinkageSpecDecl", "EnumDecl")
        for child in node.get("inner", []) or []:
            if descend:
                self.walk(child, top=kind != "EnumDecl")
            else:
                self._skim(child)
        self._track(rng.get("end"))

    def _skim(self, node: object) -> None:
        """Follows the locations inside a node without collecting from it."""
        if isinstance(node, dict):
            rng = node.get("range", {})
            self._track(rng.get("begin"))
            self._track(node.get("loc"))
            for child in node.get("inner", []) or []:
                self._skim(child)
            self._track(rng.get("end"))


def layouts(tf_inc: Path, header: str) -> dict[str, tuple[list[tuple[str, int]], int]]:
    """name -> (top-level fields with offsets, sizeof), from clang's dump."""
    r = clang(tf_inc, header, "-Xclang", "-fdump-record-layouts-complete")
    if r.returncode != 0:
        r = clang(tf_inc, header, "-Xclang", "-fdump-record-layouts")
    out: dict[str, tuple[list[tuple[str, int]], int]] = {}
    for block in r.stdout.split("*** Dumping AST Record Layout")[1:]:
        lines = [ln for ln in block.splitlines() if "|" in ln]
        m = lines and re.match(r"\s*0 \| (?:struct|union|class) (\S+)", lines[0])
        if not m:
            continue
        fields: list[tuple[str, int]] = []
        size = -1
        # (indent, path, anonymous type) of the fields enclosing this line
        stack: list[tuple[int, str, bool]] = []
        for ln in lines[1:]:
            mm = re.match(r"\s*(\d+)(?::\d+-\d+)? \|( +)(.*)$", ln)
            if not mm:
                sm = re.search(r"sizeof=(\d+)", ln)
                if sm:
                    size = int(sm.group(1))
                continue
            indent, text = len(mm.group(2)), mm.group(3)
            while stack and stack[-1][0] >= indent:
                stack.pop()
            name = text.split()[-1]
            anonymous = "(unnamed" in text or "(anonymous" in text
            path = f"{stack[-1][1]}.{name}" if stack else name
            # Members of a named nested type are covered by its own record;
            # members of an anonymous one only here (as u.smll, ...).
            if all(anon for _, _, anon in stack):
                fields.append((path, int(mm.group(1))))
            stack.append((indent, path, anonymous))
        out[m.group(1)] = (fields, size)
    return out


def enum_values(tf_inc: Path, header: str, names: list[str]) -> dict[str, int]:
    body = "".join(f'  std::printf("%s %lld\\n", "{n}", (long long){n});\n' for n in names)
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "e.cc"
        src.write_text(
            f'#include <cstdio>\n#include "{header}"\nint main() {{\n{body}  return 0;\n}}\n'
        )
        exe = Path(d) / "e"
        r = subprocess.run(
            [CLANG, "-std=c++17", "-w", f"-I{tf_inc}", str(src), "-o", str(exe)],
            capture_output=True,
            text=True,
            check=False,
        )
        if r.returncode != 0:
            raise RuntimeError(f"cannot compile the enumerators of {header}:\n{r.stderr}")
        run = subprocess.run([str(exe)], capture_output=True, text=True, check=True)
    return {k: int(v) for k, v in (ln.split() for ln in run.stdout.splitlines())}


def collect(tf_inc: Path) -> tuple[list[str], list[Record], list[tuple[str, str, int]]]:
    headers = shipped_headers(tf_inc)
    wanted = set(headers)
    records: dict[str, Record] = {}
    enums: dict[str, tuple[str, int]] = {}
    compiled: list[str] = []
    for h in headers:
        r = clang(tf_inc, h, "-Xclang", "-ast-dump=json")
        if r.returncode != 0:
            print(f"gen_abi_asserts: skip {h}: TF's copy does not compile as C++", file=sys.stderr)
            continue
        compiled.append(h)
        w = Walker(tf_inc, wanted)
        w.walk(json.loads(r.stdout))
        new_records = [(t, n, hh) for t, n, hh in w.records if n not in records]
        if new_records:
            lay = layouts(tf_inc, h)
            for tag, name, where in new_records:
                if name not in lay:
                    raise RuntimeError(f"no layout for {tag} {name} ({where})")
                fields, size = lay[name]
                records[name] = Record(tag, name, where, fields, size)
        new_enums = sorted({n for n, _ in w.enums if n not in enums})
        if new_enums:
            values = enum_values(tf_inc, h, new_enums)
            where_of = dict(w.enums)
            for n in new_enums:
                enums[n] = (where_of[n], values[n])
    recs = sorted(records.values(), key=lambda r: (r.header, r.name))
    ens = sorted(((h, n, v) for n, (h, v) in enums.items()), key=lambda e: (e[0], e[2], e[1]))
    return compiled, recs, ens


def render(headers: list[str], records: list[Record], enums: list[tuple[str, str, int]]) -> str:
    out: list[str] = []
    add = out.append
    add("/* GENERATED by tools/gen_abi_asserts.py from the headers of the")
    add(" * tensorflow-cpu 2.21.0 wheel; do not edit (see the tool for how to")
    add(" * regenerate). TensorFlow 2.21's layouts of every named struct and union")
    add(" * and the value of every enumerator of the public headers tfe ships, as")
    add(" * compile-time assertions against tfe's headers (a layout change fails the")
    add(" * build), and checked once more at run time by the test below. */")
    add("#include <stddef.h>")
    add("#include <stdint.h>")
    add("")
    for h in headers:
        add(f'#include "{h}"')
    add('#include "tfe_test.h"')
    add("")
    add("/* ---- struct and union layouts ---------------------------------------- */")
    checks: list[tuple[str, str, int]] = []
    for r in records:
        ctype = f"{r.tag} {r.name}"
        add("")
        add(f"/* {ctype} ({r.header}) */")
        for fname, off in r.fields:
            add(f'_Static_assert(offsetof({ctype}, {fname}) == {off}, "{r.name}.{fname}");')
            checks.append((f"{r.name}.{fname}", f"offsetof({ctype}, {fname})", off))
        add(f'_Static_assert(sizeof({ctype}) == {r.size}, "sizeof {r.name}");')
        checks.append((f"sizeof {r.name}", f"sizeof({ctype})", r.size))
    add("")
    add("/* ---- enumerators ----------------------------------------------------- */")
    last = None
    for h, n, v in enums:
        if h != last:
            add("")
            add(f"/* {h} */")
            last = h
        add(f'_Static_assert({n} == {v}, "{n}");')
        checks.append((n, f"(long long){n}", v))
    add("")
    add("/* The same facts, as data for the run-time check. */")
    add("static const struct {")
    add("  const char* what;")
    add("  long long got, want;")
    add("} kFacts[] = {")
    for what, expr, want in checks:
        add(f'    {{"{what}", (long long)({expr}), {want}LL}},')
    add("};")
    add("")
    add("TEST(tensorflow_2_21_layouts_and_enumerator_values) {")
    add("  size_t i;")
    add("  for (i = 0; i < sizeof kFacts / sizeof kFacts[0]; i++) {")
    add("    if (kFacts[i].got != kFacts[i].want) {")
    add('      TFE_FAIL("%s is %lld, TensorFlow 2.21 has %lld", kFacts[i].what,')
    add("               kFacts[i].got, kFacts[i].want);")
    add("    }")
    add("  }")
    add(f"  CHECK_EQ_SIZE(sizeof kFacts / sizeof kFacts[0], {len(checks)});")
    add("}")
    add("")
    add("TFE_TEST_MAIN")
    add("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tf_include", type=Path, help="the wheel's tensorflow/include")
    ap.add_argument("--out", type=Path, default=OUT, help=f"default: {OUT.relative_to(ROOT)}")
    args = ap.parse_args(argv)
    if not (args.tf_include / "tensorflow" / "c" / "c_api.h").is_file():
        print(f"gen_abi_asserts: {args.tf_include} is not TF's include/ folder", file=sys.stderr)
        return 2
    try:
        headers, records, enums = collect(args.tf_include)
    except (OSError, RuntimeError, subprocess.CalledProcessError, json.JSONDecodeError) as e:
        print(f"gen_abi_asserts: {e}", file=sys.stderr)
        return 2
    args.out.write_text(render(headers, records, enums))
    print(
        f"gen_abi_asserts: wrote {args.out} ({len(records)} records, "
        f"{sum(len(r.fields) for r in records)} fields, {len(enums)} enumerators)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
