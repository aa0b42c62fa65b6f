"""Tests for tools/api_coverage.py: parsing and classification on small
fixture trees, and a consistency check of the real tree against its build.

The fixtures use made-up names (TF_Fixture*) so that they never count as
tests of real TensorFlow functions; only the TFE_UNIMPLEMENTED test really
calls a few TF_Status functions."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "api_coverage.py"


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("api_coverage", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["api_coverage"] = module
    spec.loader.exec_module(module)
    return module


cov = _load_tool()

FIXTURE_LIST = """\
# a comment line
[tensorflow/c/alpha.h]
TF_FixtureDone
TF_FixtureUntested
TF_FixtureStub
TF_FixtureQuiet  # declared, not exported

[tensorflow/c/beta.h]
TF_FixtureAbsent
TF_FixtureNoLib
TF_FixtureHidden
TF_FixtureEntry  # a plugin's entry point: plugins define it
"""

ALPHA_H = """\
#include "tensorflow/c/c_api_macros.h"
/* TF_CAPI_EXPORT extern void TF_FixtureInComment(void); */
// TF_CAPI_EXPORT extern void TF_FixtureInLineComment(void);
#define TF_FIXTURE_ALIAS(x) TF_CAPI_EXPORT extern void TF_FixtureInMacro(x)
TF_CAPI_EXPORT extern void TF_FixtureDone(int a,
                                          void (*cb)(void* p));
TF_CAPI_EXPORT
extern const char*
TF_FixtureUntested(void);
TF_CAPI_EXPORT void TF_FixtureStub(TF_Status* s);
TF_CAPI_EXPORT __attribute__((deprecated)) extern int TF_FixtureQuiet(void);
TF_CAPI_EXPORT extern void TFE_FixtureExtension(void);
"""

BETA_H = """\
TF_CAPI_EXPORT extern struct TF_Thing* TF_FixtureNoLib(
    const int64_t* dims, int n);
"""

STUB_C = """\
#include "core/unimplemented.h"
void TF_FixtureStub(TF_Status* s) { TFE_UNIMPLEMENTED(s, "TF_FixtureStub"); }
void TF_FixtureQuiet(void) { /* TFE_UNIMPLEMENTED: TF_FixtureOther */ }
/* TFE_UNIMPLEMENTED(s, "TF_FixtureCommentedOut"); */
void f(TF_Status* s, const char* n) { TFE_UNIMPLEMENTED(s, n); }
"""

TEST_C = """\
/* TF_FixtureUntested is only mentioned in this comment. */
int main(void) { TF_FixtureDone(0, 0); TF_FixtureStub(0); return 0; }
"""

TEST_PY = """\
# TF_FixtureNoLib in a comment does not count
def test_it(lib) -> None:
    lib.TF_FixtureQuiet()
"""

CONFORMANCE_C = "int main(void) { TF_FixtureAbsent(); return TF_FixtureDone(); }\n"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    _write(root / "tools" / "tf_c_api_functions.txt", FIXTURE_LIST)
    _write(root / "include" / "tensorflow" / "c" / "alpha.h", ALPHA_H)
    _write(root / "include" / "tensorflow" / "c" / "other" / "beta2.h", BETA_H)
    _write(root / "csrc" / "area" / "stub.c", STUB_C)
    _write(root / "tests" / "c" / "test_fixture.c", TEST_C)
    _write(root / "tests" / "python" / "test_fixture.py", TEST_PY)
    _write(tmp_path / "shared" / "conformance" / "src" / "prog.c", CONFORMANCE_C)
    return root


# ------------------------------------------------------------- parsing ---


def test_function_list_format() -> None:
    fns = cov.parse_function_list(FIXTURE_LIST)
    assert [f.name for f in fns] == [
        "TF_FixtureDone",
        "TF_FixtureUntested",
        "TF_FixtureStub",
        "TF_FixtureQuiet",
        "TF_FixtureAbsent",
        "TF_FixtureNoLib",
        "TF_FixtureHidden",
        "TF_FixtureEntry",
    ]
    assert fns[0].header == "tensorflow/c/alpha.h"
    assert fns[4].header == "tensorflow/c/beta.h"
    quiet = fns[3]
    assert not quiet.tf_exports and not quiet.plugin_entry
    assert fns[0].tf_exports
    assert fns[7].plugin_entry


def test_function_list_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="twice"):
        cov.parse_function_list("[h.h]\nTF_A\nTF_A\n")
    with pytest.raises(ValueError, match="line 1"):
        cov.parse_function_list("TF_NoHeader\n")
    with pytest.raises(ValueError, match="line 2"):
        cov.parse_function_list("[h.h]\nnot a name\n")


def test_real_function_list_parses() -> None:
    # No real function names here: they would make this file count as a test
    # of those functions.
    fns = cov.parse_function_list((ROOT / "tools" / "tf_c_api_functions.txt").read_text())
    assert len(fns) > 500
    assert all(f.name.startswith(("TF_", "TFE_")) for f in fns)
    assert all(f.header.startswith("tensorflow/c/") for f in fns)
    assert "tensorflow/c/tf_status.h" in {f.header for f in fns}
    assert any(not f.tf_exports for f in fns)
    assert sum(f.plugin_entry for f in fns) == 1


def test_source_tree_sections_are_reported_apart(tree: Path) -> None:
    listing = FIXTURE_LIST + "\n[tensorflow/c/gamma.h]  # source tree\nTF_FixtureLog\n"
    fns = cov.parse_function_list(listing)
    assert [f.name for f in fns if f.source_tree] == ["TF_FixtureLog"]
    assert not any(f.source_tree for f in fns if f.name != "TF_FixtureLog")
    _, facts = _facts(tree, set())
    rows = [cov.classify(f, facts) for f in fns]
    text = cov.render(rows, facts, {f.name for f in fns})
    # The total counts the wheel's 8 functions, not the source-tree one.
    assert "| **total** | 8 |" in text
    assert "| `tensorflow/c/gamma.h` (TF source tree) | 1 |" in text


def test_cxx_alias_names() -> None:
    assert cov.cxx_alias_of("_ZN10tensorflow8TF_Fixt1EPv") == "TF_Fixt1"
    assert cov.cxx_alias_of("_ZN10tensorflow8TF_FixtEPv") is None
    assert cov.cxx_alias_of("TF_FixtureDone") is None
    assert cov.cxx_alias_of("_ZN3tsl8TF_Fixt1EPv") is None


def test_declarations_parsed_across_lines_and_attributes() -> None:
    names = cov.parse_declared_names(ALPHA_H)
    assert names == [
        "TF_FixtureDone",
        "TF_FixtureUntested",
        "TF_FixtureStub",
        "TF_FixtureQuiet",
        "TFE_FixtureExtension",
    ]
    assert cov.parse_declared_names(BETA_H) == ["TF_FixtureNoLib"]


def test_comment_stripping_keeps_strings() -> None:
    text = 'a /* x */ b // y\nc "/* not a comment */" \'"\' d'
    out = cov.strip_c_comments(text)
    assert "x" not in out and "y" not in out
    assert '"/* not a comment */"' in out
    assert out.count("\n") == 1


def test_stub_markers() -> None:
    assert cov.parse_stub_markers(STUB_C) == {"TF_FixtureStub", "TF_FixtureOther"}
    call = 'TFE_UNIMPLEMENTED(ctx->status,\n                  "TF_FixtureSplit");'
    assert cov.parse_stub_markers(call) == {"TF_FixtureSplit"}
    assert cov.parse_stub_markers("// TFE_UNIMPLEMENTED: TF_FixtureLine\n") == {"TF_FixtureLine"}


def test_convention_header_marks_nothing() -> None:
    # The header that defines the convention must not itself count as a stub.
    text = (ROOT / "csrc" / "core" / "unimplemented.h").read_text()
    assert "#define TFE_UNIMPLEMENTED(" in text
    assert cov.parse_stub_markers(text) == set()


def test_mentions_ignore_comments(tree: Path) -> None:
    names = {
        "TF_FixtureDone",
        "TF_FixtureUntested",
        "TF_FixtureStub",
        "TF_FixtureQuiet",
        "TF_FixtureNoLib",
    }
    assert cov.find_mentions([tree / "tests"], names) == {
        "TF_FixtureDone",
        "TF_FixtureStub",
        "TF_FixtureQuiet",
    }


# ------------------------------------------------------ classification ---


def _facts(tree: Path, exported: set[str] | None) -> tuple[list[Any], Any]:
    fns = cov.parse_function_list(FIXTURE_LIST)
    names = {f.name for f in fns}
    facts = cov.gather(tree, names, None, tree.parent / "shared" / "conformance" / "src")
    facts.exported = exported
    return fns, facts


def test_classification_with_exports(tree: Path) -> None:
    exported = {
        "TF_FixtureDone",
        "TF_FixtureUntested",
        "TF_FixtureStub",
        "TF_FixtureQuiet",
        "TF_FixtureHidden",
        "TFE_FixtureExtension",
    }
    fns, facts = _facts(tree, exported)
    rows = {r.fn.name: r for r in (cov.classify(f, facts) for f in fns)}
    assert rows["TF_FixtureDone"].status == cov.IMPLEMENTED_TESTED
    assert rows["TF_FixtureUntested"].status == cov.IMPLEMENTED_UNTESTED
    assert rows["TF_FixtureStub"].status == cov.STUB
    assert rows["TF_FixtureQuiet"].status == cov.IMPLEMENTED_TESTED
    assert rows["TF_FixtureAbsent"].status == cov.MISSING
    assert rows["TF_FixtureNoLib"].status == cov.DECLARED_NOT_EXPORTED
    assert rows["TF_FixtureHidden"].status == cov.EXPORTED_NOT_DECLARED
    assert rows["TF_FixtureEntry"].status == cov.PLUGIN_ENTRY
    # Declared in another header than TF's: still declared, and recorded.
    assert rows["TF_FixtureNoLib"].declared_in == ("tensorflow/c/other/beta2.h",)
    assert rows["TF_FixtureDone"].conformance and rows["TF_FixtureAbsent"].conformance
    assert not rows["TF_FixtureStub"].conformance
    assert {r.fn.name for r in cov.problems(rows.values())} == {
        "TF_FixtureNoLib",
        "TF_FixtureHidden",
    }


def test_classification_without_library(tree: Path) -> None:
    fns, facts = _facts(tree, None)
    rows = {r.fn.name: r for r in (cov.classify(f, facts) for f in fns)}
    assert rows["TF_FixtureNoLib"].status == cov.IMPLEMENTED_UNTESTED
    assert rows["TF_FixtureHidden"].status == cov.MISSING
    assert rows["TF_FixtureStub"].status == cov.STUB


def test_exported_plugin_entry_is_a_problem(tree: Path) -> None:
    fns, facts = _facts(tree, {"TF_FixtureEntry"})
    entry = cov.classify(fns[-1], facts)
    assert entry.status == cov.PLUGIN_ENTRY_EXPORTED
    assert cov.problems([entry]) == [entry]


def test_report_contents(tree: Path) -> None:
    fns, facts = _facts(tree, {"TF_FixtureDone", "TFE_FixtureExtension", "TF_FixtureStub"})
    rows = [cov.classify(f, facts) for f in fns]
    text = cov.render(rows, facts, {f.name for f in fns})
    assert text == cov.render(rows, facts, {f.name for f in fns})
    assert "Generated by `python3 tools/api_coverage.py`" in text.splitlines()[2]
    # Summary row: 4 listed, 4 declared, 1 implemented, 1 stub, 0 missing,
    # 3 used by tests, 1 by conformance.
    assert "| `tensorflow/c/alpha.h` | 4 | 4 | 1 | 1 | 0 | 3 | 1 |" in text
    assert "| `TF_FixtureStub` | stub (UNIMPLEMENTED) | tests |" in text
    assert "`csrc/area/stub.c`" in text
    assert "| `TF_FixtureAbsent` | missing | conformance |" in text
    assert "TF declares it but does not export it" in text
    assert "- `TFE_FixtureExtension` (`tensorflow/c/alpha.h`)" in text
    assert "`TF_FixtureOther` in `csrc/area/stub.c`" in text
    # The deliberate ABI differences are listed with their reasons.
    assert "## ABI exceptions" in text
    assert "- none (abi-check reports 0 differences)" in text
    # Sections follow the list's order, not alphabetical order.
    assert text.index("### `tensorflow/c/alpha.h`") < text.index("### `tensorflow/c/beta.h`")


def test_main_writes_and_checks(tree: Path) -> None:
    out = tree / "docs" / "COVERAGE.md"
    args = ["--root", str(tree), "--out", str(out)]
    assert cov.main(args) == 0
    first = out.read_text()
    assert "Exports unknown" in first
    assert cov.main([*args, "--check"]) == 0
    out.write_text(first + "stale\n")
    assert cov.main([*args, "--check"]) == 1
    out.unlink()
    assert cov.main([*args, "--check"]) == 1
    assert cov.main([*args, "--lib", str(tree / "nope.so")]) == 2


def test_exports_read_from_a_real_library(tree: Path, tmp_path: Path) -> None:
    gcc = shutil.which("gcc")
    if gcc is None or shutil.which("nm") is None:
        pytest.skip("needs gcc and nm")
    src = tmp_path / "lib.c"
    src.write_text(
        '__attribute__((visibility("default"))) void TF_FixtureDone(void) {}\n'
        '__attribute__((visibility("default"))) int TF_FixtureData = 1;\n'
        "static void TF_FixtureHiddenStatic(void) {}\n"
        "void (*keep)(void) = TF_FixtureHiddenStatic;\n"
    )
    lib = tmp_path / "libfixture.so"
    subprocess.run(
        [gcc, "-shared", "-fPIC", "-fvisibility=hidden", "-o", str(lib), str(src)], check=True
    )
    exports = cov.find_exports(lib)
    assert {"TF_FixtureDone", "TF_FixtureData"} <= exports
    assert "TF_FixtureHiddenStatic" not in exports and "keep" not in exports
    text, rows, _ = cov.build_report(tree, tree / "tools" / "tf_c_api_functions.txt", lib, None)
    assert "Exports were read from a built `libtfe.so`" in text
    by_name = {r.fn.name: r.status for r in rows}
    assert by_name["TF_FixtureDone"] == cov.IMPLEMENTED_TESTED
    assert by_name["TF_FixtureUntested"] == cov.DECLARED_NOT_EXPORTED


def _static_core() -> Path | None:
    """build/libtfe.a if built, else the newest build*/libtfe.a."""
    preferred = ROOT / "build" / "libtfe.a"
    if preferred.is_file():
        return preferred
    found = sorted(ROOT.glob("build*/libtfe.a"), key=lambda p: p.stat().st_mtime)
    return found[-1] if found else None


def _sanitizer_flags(static: Path) -> list[str]:
    """The sanitizer flags a static core was built with (none, or ASan+UBSan)."""
    nm = shutil.which("nm")
    if nm is None:
        return []
    undefined = subprocess.run(
        [nm, "-u", str(static)], capture_output=True, text=True, check=False
    ).stdout
    return ["-fsanitize=address,undefined"] if "__asan_" in undefined else []


def test_unimplemented_macro_sets_the_code(tmp_path: Path) -> None:
    """Compiles a program that uses TFE_UNIMPLEMENTED against the static
    core and checks the code and message it produces."""
    gcc = shutil.which("gcc")
    static = _static_core()
    if gcc is None or static is None:
        pytest.skip("needs gcc and a built libtfe.a")
    prog = tmp_path / "stub.c"
    prog.write_text(
        textwrap.dedent("""\
        #include <stdio.h>
        #include "core/unimplemented.h"
        int main(void) {
          TF_Status* s = TF_NewStatus();
          TFE_UNIMPLEMENTED(s, "TF_FixtureMacro");
          printf("%d|%s\\n", (int)TF_GetCode(s), TF_Message(s));
          TFE_UNIMPLEMENTED(NULL, "TF_FixtureMacro");
          TF_DeleteStatus(s);
          return 0;
        }
        """)
    )
    exe = tmp_path / "stub"
    inc = ["-I", str(ROOT / "include"), "-I", str(ROOT / "csrc")]
    subprocess.run(
        [
            gcc,
            *_sanitizer_flags(static),
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            *inc,
            "-o",
            str(exe),
            str(prog),
            str(static),
            "-lpthread",
            "-ldl",
            "-lm",
        ],
        check=True,
    )
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    code, msg = out.strip().split("|", 1)
    assert int(code) == 12  # TF_UNIMPLEMENTED
    assert "TF_FixtureMacro" in msg

    # A name that is not a string literal does not compile.
    bad = tmp_path / "bad.c"
    bad.write_text(
        '#include "core/unimplemented.h"\n'
        "void f(TF_Status* s, const char* n) { TFE_UNIMPLEMENTED(s, n); }\n"
    )
    res = subprocess.run(
        [gcc, "-std=c11", "-fsyntax-only", *inc, str(bad)], capture_output=True, text=True
    )
    assert res.returncode != 0


# ----------------------------------------------------------- real tree ---


def test_real_tree_declared_functions_are_exported_or_stubs() -> None:
    lists = ROOT / "tools" / "tf_c_api_functions.txt"
    # Always runs without a library (exports unknown).
    text, rows, _ = cov.build_report(ROOT, lists, None, None)
    assert "## Summary" in text
    assert any(r.declared for r in rows)
    lib = cov.default_lib(ROOT)
    if lib is None:
        pytest.skip("no libtfe.so built")
    _, rows, facts = cov.build_report(ROOT, lists, lib, None)
    assert facts.exported
    broken = [
        r.fn.name
        for r in rows
        if r.declared
        and not r.fn.plugin_entry
        and r.fn.name not in facts.exported
        and r.fn.name not in facts.stubs
    ]
    assert broken == [], f"declared by tfe, not exported by {lib}, not stubs: {broken}"
    assert cov.problems(rows) == []


def test_conformance_marks_read_back_from_a_report() -> None:
    report = (
        "| function | status | tests | notes |\n"
        "|---|---|---|---|\n"
        "| conformance |\n"
        "| `TF_NewStatus` | implemented, tested | tests + conformance |  |\n"
        "| `TF_GetCode` | implemented, tested | tests |  |\n"
    )
    assert cov.conformance_from_report(report) == {"TF_NewStatus"}
    assert cov.conformance_from_report("| function | status |\n") is None
