"""cffi builder for ``tfe_py._tfe_cffi`` (API mode, out of line).

The cdef is generated from tfe's own public headers, never typed by hand:

1. ``tfe_py/cdef_headers.txt`` lists headers (relative to ``include/``) in a
   fixed order.
2. The C preprocessor expands them as one translation unit, with empty
   stand-ins for the system headers (cffi already knows ``size_t``,
   ``int64_t``, ``bool`` and friends), ``TF_CAPI_EXPORT`` defined empty and
   ``TFE_CFFI_CDEF`` defined so headers can hide inline function bodies.
3. What pycparser cannot digest is removed (``__attribute__`` and the like)
   and object-like macros of those headers become cffi constants whose values
   the C compiler fills in.

The extension source includes the same headers for real, so the compiler
checks every declaration against them. The runtime itself is NOT compiled in:
setup.py links the extension against the shipped ``libtfe.so.0``, so one
process has exactly one tfe runtime.

Run ``python build_ffi.py`` to print the generated cdef.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from cffi import FFI

ROOT = Path(__file__).resolve().parent
INCLUDE_DIR = ROOT / "include"
HEADER_LIST = ROOT / "tfe_py" / "cdef_headers.txt"
MODULE_NAME = "tfe_py._tfe_cffi"

# System headers our public headers may include. They are replaced by empty
# files while the cdef is generated: their types are built into cffi.
FAKE_SYSTEM_HEADERS = (
    "stdarg.h",
    "stdbool.h",
    "stddef.h",
    "stdint.h",
    "stdio.h",
    "stdlib.h",
    "string.h",
)

# Macros that configure the headers rather than describe the API.
_IGNORED_MACROS = frozenset({"TF_CAPI_EXPORT", "TFE_CFFI_CDEF"})

_FLOAT_RE = re.compile(r"[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?[fFlL]?")
_TYPE_ALIAS_RE = re.compile(r"(?:(?:unsigned|signed|char|short|int|long)\s*)+")
_DEFINE_RE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)", re.MULTILINE)
_DUMP_RE = re.compile(r"#define ([A-Za-z_]\w*)(\(?)(.*)")

# Declarations the binding adds to the ones from the headers.
_BINDING_CDEF = """
/* tfe_py: TFE_VERSION as seen by the compiler when this extension was built;
 * tfe_py._ffi compares it with the Python package's version. */
const char* tfe_py_extension_version(void);
/* tfe_py: the address of TFE_RuntimeVersion as this extension resolved it,
 * so that dladdr() can name the libtfe in use. */
void* tfe_py_runtime_symbol(void);
/* tfe_py: path of the shared object that defines TFE_RuntimeVersion as this
 * extension resolved it (dladdr), or NULL. Static storage owned by the C
 * library's loader; copy it before the library could be unloaded. */
const char* tfe_py_runtime_library_path(void);
"""

_BINDING_SOURCE = """
static const char* tfe_py_extension_version(void) { return TFE_VERSION; }
static void* tfe_py_runtime_symbol(void) {
  const char* (*fn)(void) = TFE_RuntimeVersion;
  void* p;
  memcpy(&p, &fn, sizeof p); /* function to object pointer, portably */
  return p;
}
static const char* tfe_py_runtime_library_path(void) {
  Dl_info info;
  if (dladdr(tfe_py_runtime_symbol(), &info) == 0) return NULL;
  return info.dli_fname;
}
"""


# Callbacks of tfe_py.custom_gradient (extern "Python", cdef only): a
# TFE_CustomGradientFunction and its deleter (include/tfe/gradients.h).
_CUSTOM_GRADIENT_CALLBACKS = """
extern "Python" void tfe_py_custom_grad(void* data, TFE_Context* ctx, int num_outputs,
                                        TFE_TensorHandle* const* output_gradients,
                                        int num_inputs, TFE_TensorHandle** input_gradients,
                                        TF_Status* status);
extern "Python" void tfe_py_custom_grad_delete(void* data);
"""


def read_header_list(path: Path = HEADER_LIST) -> list[str]:
    """Headers named in ``path`` (comments and blank lines skipped)."""
    headers: list[str] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line in headers:
            raise ValueError(f"{path}: {line} is listed twice")
        if not (INCLUDE_DIR / line).is_file():
            raise FileNotFoundError(f"{path}: include/{line} does not exist")
        headers.append(line)
    if not headers:
        raise ValueError(f"{path} lists no headers")
    return headers


def _compiler() -> list[str]:
    return shlex.split(os.environ.get("CC") or "cc")


def preprocess(headers: list[str], *, dump_macros: bool = False) -> str:
    """Runs the C preprocessor over ``headers`` as the cdef sees them."""
    unit = "".join(f'#include "{h}"\n' for h in headers)
    with tempfile.TemporaryDirectory(prefix="tfe-cdef-") as tmp:
        for name in FAKE_SYSTEM_HEADERS:
            Path(tmp, name).write_text("/* stand-in for the cffi cdef */\n", encoding="utf-8")
        cmd = [
            *_compiler(),
            "-E",
            "-dM" if dump_macros else "-P",
            "-nostdinc",
            "-std=c11",
            "-isystem",
            tmp,
            "-I",
            str(INCLUDE_DIR),
            "-DTF_CAPI_EXPORT=",
            "-DTFE_CFFI_CDEF",
            "-x",
            "c",
            "-",
        ]
        proc = subprocess.run(cmd, input=unit, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(
            "preprocessing the headers for the cffi cdef failed:\n"
            f"  {shlex.join(cmd)}\n{proc.stderr}"
        )
    return proc.stdout


def _strip_balanced(text: str, keyword: str) -> str:
    """Removes every ``keyword(...)`` (balanced parentheses) from text."""
    out: list[str] = []
    pos = 0
    pattern = re.compile(r"\b" + re.escape(keyword) + r"\s*\(")
    while True:
        m = pattern.search(text, pos)
        if m is None:
            out.append(text[pos:])
            return "".join(out)
        out.append(text[pos : m.start()])
        depth = 0
        i = m.end() - 1
        while i < len(text):
            if text[i] == "(":
                depth += 1
            elif text[i] == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        if depth != 0:
            raise RuntimeError(f"unbalanced {keyword}(...) in the preprocessed headers")
        pos = i + 1


def clean_declarations(text: str) -> str:
    """Turns preprocessor output into something cffi's parser accepts."""
    for keyword in ("__attribute__", "__declspec", "__asm__", "__asm"):
        text = _strip_balanced(text, keyword)
    text = re.sub(r"\b(__extension__|__inline__|__inline|__restrict__|__restrict)\b", "", text)
    # Function bodies cannot be bound in a cdef; headers hide them.
    m = re.search(r"\)\s*\{", text)
    if m is not None:
        snippet = text[max(0, m.start() - 200) : m.end()].strip()
        raise RuntimeError(
            "a header exposes a function body to the cffi cdef; wrap it in "
            f"#ifndef TFE_CFFI_CDEF:\n...{snippet}"
        )
    text = re.sub(r"^[ \t]+extern\b", "extern", text, flags=re.MULTILINE)
    lines = [line.rstrip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line) + "\n"


def _without_braces(text: str) -> str:
    """text with every ``{...}`` block (nested ones too) removed."""
    out: list[str] = []
    depth = 0
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def typedef_names(declarations: str) -> set[str]:
    """Names the preprocessed headers declare with typedef (struct, enum and
    function-pointer types alike; enumerators and fields are not included)."""
    names: set[str] = set()
    for stmt in _without_braces(declarations).split(";"):
        stmt = stmt.strip()
        if re.match(r"typedef\b", stmt):
            names.update(re.findall(r"[A-Za-z_]\w*", stmt))
    return names


def _macro_kind(
    value: str, defs: dict[str, str], depth: int = 0, types: frozenset[str] = frozenset()
) -> str | None:
    value = value.strip()
    if not value or value.startswith("{"):
        return None
    if value.startswith('"'):
        return "string"
    if _TYPE_ALIAS_RE.fullmatch(value):
        return None  # a type spelled as a macro (TF_Bool), not a constant
    if value in types:
        return None  # another name for a typedef (TF_PayloadVisitor), not a constant
    if _FLOAT_RE.fullmatch(value) and re.search(r"[.eE]", value) and not value.isdigit():
        return "float"
    if value in defs and depth < 16:
        return _macro_kind(defs[value], defs, depth + 1, types)
    return "int"


def _names_defined_in_include_dir() -> set[str]:
    names: set[str] = set()
    for header in INCLUDE_DIR.rglob("*.h"):
        names.update(_DEFINE_RE.findall(header.read_text(encoding="utf-8", errors="replace")))
    return names


def macro_constants(headers: list[str]) -> list[str]:
    """cffi constant declarations for the object-like macros of headers.

    Integer macros become ``#define NAME ...`` (the compiler supplies the
    value), string macros ``static const char *const NAME;``, floating ones
    ``static const double NAME;``. Empty macros (include guards), function-like
    macros and initialiser lists are skipped.
    """
    ours = _names_defined_in_include_dir()
    defs: dict[str, str] = {}
    for line in preprocess(headers, dump_macros=True).splitlines():
        m = _DUMP_RE.match(line)
        if m is None or m.group(2):  # not a define, or function-like
            continue
        name, value = m.group(1), m.group(3).strip()
        if name in ours and name not in _IGNORED_MACROS and not name.startswith("_"):
            defs[name] = value
    types = frozenset(typedef_names(preprocess(headers)))
    decls: list[str] = []
    for name in sorted(defs):
        kind = _macro_kind(defs[name], defs, types=types)
        if kind == "int":
            decls.append(f"#define {name} ...")
        elif kind == "string":
            decls.append(f"static const char *const {name};")
        elif kind == "float":
            decls.append(f"static const double {name};")
    return decls


def build_cdef(headers: list[str]) -> str:
    parts = [
        "/* Generated by build_ffi.py from: " + ", ".join(headers) + " */",
        clean_declarations(preprocess(headers)),
        "/* Object-like macros of those headers. */",
        *macro_constants(headers),
        _BINDING_CDEF,
        # tfe_py's dispatch glue (added by the Python-layer helper; see tfe_py/_fast.h).
        (ROOT / "tfe_py" / "_fast.h").read_text(encoding="utf-8"),
        # Callbacks written in Python (extern "Python", cdef only: cffi
        # generates their C side); see tfe_py/cdef_python_callbacks.h.
        (ROOT / "tfe_py" / "cdef_python_callbacks.h").read_text(encoding="utf-8"),
        _CUSTOM_GRADIENT_CALLBACKS,
    ]
    return "\n".join(parts)


def build_source(headers: list[str]) -> str:
    includes = "".join(f'#include "{h}"\n' for h in headers)
    return (
        includes
        + '#include <dlfcn.h>\n#include <string.h>\n#include "tfe/tfe.h"\n'
        + _BINDING_SOURCE
        # tfe_py's dispatch glue (added by the Python-layer helper; see tfe_py/_fast.c).
        + '#include "_fast.c"\n'
    )


HEADERS = read_header_list()
CDEF = build_cdef(HEADERS)

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
# setup.py's build_ext adds the link flags for libtfe once it has built it.
ffibuilder.set_source(
    MODULE_NAME,
    build_source(HEADERS),
    include_dirs=[str(INCLUDE_DIR), str(ROOT / "tfe_py")],  # tfe_py dir: for _fast.c
)


if __name__ == "__main__":
    sys.stdout.write(CDEF)
