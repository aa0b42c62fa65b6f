"""Header hygiene: every public header under include/ compiles on its own.

Each header is compiled in a translation unit that includes only it, once
as C99 and once as C++11, with warnings as errors and -pedantic. One more
test includes every header together in a single translation unit. This
needs only gcc and g++, not the Python extension.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INCLUDE = REPO / "include"
FLAGS = ["-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only"]
LANGUAGES = {
    "c": ("gcc", ["-x", "c", "-std=c99"]),
    "c++": ("g++", ["-x", "c++", "-std=c++11"]),
}


def public_headers() -> list[str]:
    """Every *.h under include/, as include paths, in a stable order."""
    return sorted(p.relative_to(INCLUDE).as_posix() for p in INCLUDE.rglob("*.h"))


HEADERS = public_headers()


# ISO C forbids an empty translation unit, and a header may declare nothing
# (macros only), so every generated unit ends with one harmless declaration.
ANCHOR = "extern int tfe_header_check_anchor;\n"


def unit(*headers: str) -> str:
    """Source of a translation unit that includes headers in order."""
    return "".join(f'#include "{h}"\n' for h in headers) + ANCHOR


def compile_source(language: str, source: str) -> subprocess.CompletedProcess[str]:
    """Compiles source (read from stdin) with the flags for language."""
    compiler, lang_flags = LANGUAGES[language]
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed")
    cmd = [compiler, *lang_flags, *FLAGS, "-I", str(INCLUDE), "-"]
    return subprocess.run(
        cmd, input=source, capture_output=True, text=True, check=False, timeout=120
    )


def assert_compiles(language: str, source: str) -> None:
    result = compile_source(language, source)
    assert result.returncode == 0, (
        f"{language} compile failed:\n{source}--- diagnostics ---\n{result.stderr}"
    )


def test_headers_were_found() -> None:
    assert "tensorflow/c/c_api.h" in HEADERS
    assert "tensorflow/c/tf_tensor.h" in HEADERS
    assert "tfe/tfe.h" in HEADERS
    assert "tsl/platform/ctstring_internal.h" in HEADERS


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("header", HEADERS)
def test_header_compiles_alone(header: str, language: str) -> None:
    assert_compiles(language, unit(header))


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("header", HEADERS)
def test_header_is_idempotent(header: str, language: str) -> None:
    """Including a header twice must be harmless (include guards)."""
    assert_compiles(language, unit(header, header))


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_all_headers_together(language: str) -> None:
    assert_compiles(language, unit(*HEADERS))


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_all_headers_together_reversed(language: str) -> None:
    """Order of inclusion must not matter."""
    assert_compiles(language, unit(*reversed(HEADERS)))


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_harness_notices_failures(language: str) -> None:
    """A pass means something: a broken unit and a warning both fail."""
    assert compile_source(language, "int broken(void) { return }\n").returncode != 0
    # Unused parameter: only an error because of -Wextra -Werror.
    assert compile_source(language, "int f(int unused) { return 0; }\n").returncode != 0
    # An empty unit is rejected by -pedantic in C; the anchor avoids that.
    assert compile_source(language, ANCHOR).returncode == 0
