"""``python -m tfe_py doctor [PLUGIN.so ...]``: checks plugins for tfe.

Each plugin is loaded in a child process of its own (a plugin that crashes
cannot take the checker down). The child streams what it learns to the
parent as it goes, so when the plugin crashes the report still holds
everything found before the crash, plus the full name of the stage it died
in. The report comes on a pipe of its own, each line behind a per-run nonce,
so nothing the plugin prints or writes can pass for it; a plugin passes only
when the child exits with status 0 after a well-formed final report. The
child's whole process group is killed when it has exited or at the timeout
(helpers the plugin forked included), and the text report shows the end of
the child's stderr when it ended without a report. The child loads the
library as a PluggableDevice plugin, a filesystem plugin or an op library,
whichever entry point it has, and reports:

* what it registered: platform name and type, devices with their memory
  and attributes, optional StreamExecutor functions, kernels by op and
  dtype, ops, graph optimizer, profiler, filesystem schemes;
* why it could not be loaded: every symbol it needs that nothing provides
  (read from its ELF dynamic symbol table), each classified as a TF C API
  function tfe does not have, a TensorFlow C++ internal no C-API runtime
  can provide, or a symbol of another library, with advice;
* contract checks, each violation naming the struct and field concerned
  (the loader's own checks, fill functions TensorFlow 2.21 requires,
  handles the plugin's callbacks leave NULL, kernels for ops nobody
  defines or for other device types, shape functions that disagree with
  their kernels, memory not returned to the plugin), and warnings for what
  TensorFlow itself does not check (they do not fail the plugin);
* kernels for standard TensorFlow ops tfe does not define yet ("op not
  known to tfe", informational);
* smoke tests: tfe's stream-executor self-test per device (allocation and
  copy round trips, event and stream-dependency ordering, fills, host
  callbacks, timers), copies through the runtime, every registered kernel
  run on random inputs and compared with tfe's CPU kernel, and for
  filesystem plugins write/read/append/stat/list/rename/delete/recursive
  delete in a scratch folder made under ``--fs-root`` (only that folder is
  ever written or deleted).

A library that exports no plugin entry point and registers nothing is
reported as "not a TensorFlow plugin" and fails.

The exit status is 0 when every plugin passed, 1 otherwise, 2 when the
doctor could not run (usage error; without arguments: no C compiler or no
headers to build the example plugins, reported in one line). Without
arguments the example plugins shipped in ``tfe_py/examples`` are built
(once, into a cache directory) and checked.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import re
import secrets
import select
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

EXAMPLES = ("example_device", "example_op_library")
#: Exit status when the doctor itself cannot run.
EXIT_CANNOT_RUN = 2

# ----------------------------------------------------------------------------
# Example plugins


class MissingToolError(RuntimeError):
    """A program the doctor needs (the C compiler) is missing; the message
    is one line saying what and how to get it."""


def _include_dir() -> Path | None:
    env = os.environ.get("TFE_INCLUDE_DIR")
    candidates = [Path(env)] if env else []
    here = Path(__file__).resolve().parent
    candidates += [here / "include", here.parent / "include"]
    for c in candidates:
        if (c / "tensorflow" / "c" / "kernels.h").is_file():
            return c
    return None


_INSTALL_CC = (
    "install a C compiler (e.g. `apt-get install gcc`, `dnf install gcc` or "
    "`apk add gcc musl-dev`) or set CC to one, or name the plugins to check: "
    "python -m tfe_py doctor PLUGIN.so"
)


def find_c_compiler() -> list[str]:
    """The command that compiles C: ``$CC`` (split like a shell word list)
    when set, else the first of cc, gcc, clang on PATH. Raises
    MissingToolError with a one-line message when there is none."""
    cc = os.environ.get("CC", "").strip()
    if cc:
        argv = shlex.split(cc)
        if argv and shutil.which(argv[0]) is not None:
            return argv
        raise MissingToolError(
            f"CC is set to {cc!r}, which is not an executable program, so the example "
            f"plugins cannot be built; {_INSTALL_CC}"
        )
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found is not None:
            return [found]
    raise MissingToolError(
        "no C compiler found (looked for $CC, cc, gcc and clang on PATH) to build the "
        f"example plugins; {_INSTALL_CC}"
    )


def _cache_dir() -> Path:
    from tfe_py._version import __version__

    env = os.environ.get("TFE_DOCTOR_CACHE")
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "tfe_py" / __version__ / "examples"


def _sources_digest(files: list[Path]) -> str:
    """A digest of the files' names and contents (what a build depends on)."""
    h = hashlib.sha256()
    for f in sorted(files):
        h.update(f.name.encode())
        h.update(b"\0")
        h.update(f.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def example_plugins() -> list[Path]:
    """The example plugins, built from ``tfe_py/examples/*.c`` at first use
    and rebuilt whenever their sources or tfe's headers change (a digest of
    their contents is kept next to each build). Raises MissingToolError when
    no C compiler is found, RuntimeError when they cannot be built
    otherwise (no headers, a compiler error)."""
    src_dir = Path(__file__).resolve().parent / "examples"
    include = _include_dir()
    if include is None:
        raise RuntimeError(
            "cannot find tfe's C headers to build the example plugins; set "
            "TFE_INCLUDE_DIR to the include/ directory of tfe"
        )
    out_dir = _cache_dir()
    out_dir.mkdir(parents=True, exist_ok=True)
    headers = [*src_dir.glob("*.h"), *Path(include).rglob("*.h")]
    built = []
    compiler: list[str] | None = None
    for name in EXAMPLES:
        src = src_dir / f"{name}.c"
        out = out_dir / f"lib{name}.so"
        stamp = out_dir / f"lib{name}.so.sha256"
        digest = _sources_digest([src, *headers])
        current = stamp.read_text().strip() if stamp.exists() else ""
        if not out.exists() or current != digest:
            if compiler is None:
                compiler = find_c_compiler()
            tmp = out_dir / f".lib{name}.{os.getpid()}.so"
            cmd = [
                *compiler,
                "-shared",
                "-fPIC",
                "-O1",
                "-I",
                str(include),
                str(src),
                "-o",
                str(tmp),
                "-lpthread",
            ]
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
            except OSError as e:
                raise MissingToolError(
                    f"cannot run the C compiler {compiler[0]!r} ({e.strerror or e}); {_INSTALL_CC}"
                ) from None
            if proc.returncode != 0:
                tmp.unlink(missing_ok=True)
                raise RuntimeError(f"building {src} failed:\n{shlex.join(cmd)}\n{proc.stderr}")
            # Renames are atomic: a concurrent doctor sees the old or the new
            # library, never a half-written one.
            os.replace(tmp, out)
            stamp.write_text(digest + "\n")
        built.append(out)
    return built


# ----------------------------------------------------------------------------
# Reading a shared library's dynamic symbols (ELF), without external tools

#: Entry points of TensorFlow plugins, looked for among a library's exports.
ENTRY_POINTS = (
    "SE_InitPlugin",
    "TF_InitPlugin",
    "TF_InitKernel",
    "TF_InitGraph",
    "TF_InitProfiler",
)

_SHT_DYNAMIC = 6
_SHT_DYNSYM = 11
_DT_NEEDED = 1
_DT_RPATH = 15
_DT_RUNPATH = 29
_STB_GLOBAL = 1
_STB_WEAK = 2
_STB_GNU_UNIQUE = 10
_STV_DEFAULT = 0
_STV_PROTECTED = 3


@dataclass
class ElfDynamic:
    """What the dynamic linker sees of a shared library."""

    #: Symbols it exports (defined, global or weak, default or protected
    #: visibility).
    defined: set[str] = field(default_factory=set)
    #: Symbols it needs from elsewhere (undefined and not weak: a weak
    #: reference may stay unresolved), in table order.
    undefined: list[str] = field(default_factory=list)
    #: Its DT_NEEDED libraries.
    needed: list[str] = field(default_factory=list)
    #: Its DT_RUNPATH (or DT_RPATH) directories, as written.
    runpath: list[str] = field(default_factory=list)


def read_elf_dynamic(path: str | os.PathLike[str]) -> ElfDynamic:
    """Reads the dynamic symbol table (.dynsym) and dynamic section of an
    ELF shared library (32 or 64 bit, either byte order). Raises ValueError
    when the file is not ELF or has no section headers to find them by."""
    with open(path, "rb") as f:
        ident = f.read(16)
        if len(ident) < 16 or ident[:4] != b"\x7fELF":
            raise ValueError(f"{os.fspath(path)} is not an ELF file")
        is64 = ident[4] == 2
        end = "<" if ident[5] == 1 else ">"
        if is64:
            hdr_fmt, sh_fmt, sym_fmt, dyn_fmt = "HHIQQQIHHHHHH", "IIQQQQIIQQ", "IBBHQQ", "qQ"
        else:
            hdr_fmt, sh_fmt, sym_fmt, dyn_fmt = "HHIIIIIHHHHHH", "IIIIIIIIII", "IIIBBH", "iI"
        hdr = struct.unpack(end + hdr_fmt, f.read(struct.calcsize(end + hdr_fmt)))
        shoff, shentsize, shnum = hdr[5], hdr[10], hdr[11]
        if shoff == 0 or shnum == 0:
            raise ValueError(f"{os.fspath(path)} has no section headers")
        f.seek(shoff)
        raw = f.read(shentsize * shnum)
        sections = [struct.unpack_from(end + sh_fmt, raw, i * shentsize) for i in range(shnum)]

        def contents(index: int) -> bytes:
            sec = sections[index]
            f.seek(sec[4])
            return f.read(sec[5])

        out = ElfDynamic()
        sym_size = struct.calcsize(end + sym_fmt)
        dyn_size = struct.calcsize(end + dyn_fmt)
        for i, sec in enumerate(sections):
            if sec[1] == _SHT_DYNSYM:
                strtab = contents(sec[6])
                data = contents(i)
                for off in range(sym_size, len(data) - sym_size + 1, sym_size):
                    ent = struct.unpack_from(end + sym_fmt, data, off)
                    if is64:
                        name_off, info, other, shndx = ent[0], ent[1], ent[2], ent[3]
                    else:
                        name_off, info, other, shndx = ent[0], ent[3], ent[4], ent[5]
                    name = strtab[name_off : strtab.index(b"\0", name_off)].decode(
                        "utf-8", "replace"
                    )
                    bind = info >> 4
                    if not name:
                        continue
                    if shndx == 0:
                        if bind == _STB_GLOBAL:
                            out.undefined.append(name)
                    elif bind in (_STB_GLOBAL, _STB_WEAK, _STB_GNU_UNIQUE) and (
                        (other & 3) in (_STV_DEFAULT, _STV_PROTECTED)
                    ):
                        out.defined.add(name)
            elif sec[1] == _SHT_DYNAMIC:
                strtab = contents(sec[6])
                data = contents(i)
                for off in range(0, len(data) - dyn_size + 1, dyn_size):
                    tag, val = struct.unpack_from(end + dyn_fmt, data, off)
                    if tag == 0:
                        break
                    if tag in (_DT_NEEDED, _DT_RPATH, _DT_RUNPATH):
                        text = strtab[val : strtab.index(b"\0", val)].decode("utf-8", "replace")
                        if tag == _DT_NEEDED:
                            out.needed.append(text)
                        elif tag == _DT_RUNPATH or not out.runpath:
                            out.runpath = [d for d in text.split(":") if d]
        return out


_TF_CXX = re.compile(
    r"^_Z.*?(?<![0-9])(10tensorflow|3tsl|4absl|3xla|15stream_executor|6google8protobuf)"
)
_TF_C_PREFIXES = ("TF_", "TFE_", "TSL_", "SE_", "TP_")


def classify_symbol(name: str) -> str:
    """ "tf_c_api" for a TensorFlow C API name (TF_, TFE_, TSL_, SE_, TP_),
    "tf_cxx" for a C++ internal of TensorFlow or the libraries it bundles
    (tensorflow::, tsl::, absl::, xla::, stream_executor::, protobuf),
    "other" for anything else."""
    if name.startswith(_TF_C_PREFIXES):
        return "tf_c_api"
    if _TF_CXX.match(name):
        return "tf_cxx"
    return "other"


UNRESOLVED_KINDS: dict[str, tuple[str, str]] = {
    "tf_c_api": (
        "TensorFlow C API functions tfe does not have",
        "tfe implements TensorFlow 2.21's C API except what docs/COVERAGE.md lists: a function "
        "of TF 2.21 missing here is a gap in tfe worth reporting; a name TF 2.21 does not "
        "declare means the plugin was built for another TensorFlow version",
    ),
    "tf_cxx": (
        "TensorFlow C++ internals",
        "the plugin was linked against TensorFlow's C++ libraries (libtensorflow_framework, "
        "libtensorflow_cc); no C-API runtime, tfe included, can provide their internals, so "
        "it only runs inside a full TensorFlow. Rebuild it against the C API headers "
        "(tensorflow/c/...) only",
    ),
    "other": (
        "symbols of other libraries",
        "nothing loaded provides them: install the library that does, or add its folder to "
        "LD_LIBRARY_PATH (or the plugin's RUNPATH)",
    ),
}


def _demangle(names: list[str]) -> dict[str, str]:
    """Readable forms of C++ names, through c++filt when it is installed
    (the raw names otherwise)."""
    mangled = [n for n in names if n.startswith("_Z")]
    tool = shutil.which("c++filt")
    if not mangled or tool is None:
        return {}
    try:
        proc = subprocess.run(
            [tool], input="\n".join(mangled) + "\n", capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return {}
    out = proc.stdout.splitlines()
    if proc.returncode != 0 or len(out) != len(mangled):
        return {}
    return {m: d for m, d in zip(mangled, out, strict=True) if d != m}


# ----------------------------------------------------------------------------
# The child: load one plugin and check it

#: Loader warnings about what TensorFlow 2.21 itself does not check: they
#: are reported as warnings and do not fail the plugin (why, after the
#: pattern). Every other loader warning is a contract violation.
_TF_DOES_NOT_CHECK: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"create_device for ordinal -?\d+ set SP_Device\.ordinal to -?\d+"),
        "TensorFlow checks only SP_Device.struct_size after create_device and keeps the "
        "ordinal it asked for, as tfe does",
    ),
    (
        re.compile(r"built for the \S+ C API version .*loading it anyway"),
        "TensorFlow does not compare the minor and patch versions a plugin declares",
    ),
]


def _tf_op_names() -> frozenset[str]:
    """Every op TensorFlow 2.21 registers (tfe_py/tf_op_names.txt)."""
    path = Path(__file__).resolve().parent / "tf_op_names.txt"
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return frozenset()
    return frozenset(ln.strip() for ln in lines if ln.strip() and not ln.startswith("#"))


def _empty_report(path: str) -> dict[str, Any]:
    return {
        "path": path,
        "kind": None,
        "entry_points": [],
        "exports": [],
        "load_error": None,
        "unresolved": [],
        "missing_libraries": [],
        "platforms": [],
        "kernels": [],
        "ops": [],
        "ops_not_in_tfe": [],
        "schemes": [],
        "fs_unsupported": [],
        "violations": [],
        "warnings": [],
        "notes": [],
        "smoke": [],
    }


def _uri_scheme(uri: str) -> str:
    return uri.split("://", 1)[0] if "://" in uri else ""


class _Child:
    """Checks one plugin in this process. Everything it learns goes into
    ``report`` and, as it is learned, to the parent through ``writer`` (the
    report channel) as events ({"stage": name}, {"set": key, "value": v},
    {"add": key, "value": item}, finally {"final": report}), from which the
    parent rebuilds the report when the plugin kills this process."""

    def __init__(
        self, path: str, writer: _ReportWriter | None, fs_roots: Sequence[str] = ()
    ) -> None:
        self.path = path
        self.writer = writer
        self.fs_roots = list(fs_roots)
        self.report: dict[str, Any] = _empty_report(path)

    # -- the event stream ---------------------------------------------------

    def _emit(self, event: dict[str, Any]) -> None:
        if self.writer is not None:
            self.writer.write(event)

    def stage(self, name: str) -> None:
        self._emit({"stage": name})

    def set(self, key: str, value: Any) -> None:
        self.report[key] = value
        self._emit({"set": key, "value": value})

    def add(self, key: str, item: Any) -> None:
        self.report[key].append(item)
        self._emit({"add": key, "value": item})

    def violation(self, where: str, message: str) -> None:
        first = message.strip().splitlines()[0] if message.strip() else message
        self.add("violations", {"where": where, "message": first})

    def warning(self, where: str, message: str) -> None:
        self.add("warnings", {"where": where, "message": message})

    def smoke(self, name: str, status: str, detail: str = "") -> None:
        self.add("smoke", {"name": name, "status": status, "detail": detail})

    # -- loading ------------------------------------------------------------

    def _exports(self, elf: ElfDynamic | None) -> list[str]:
        """The plugin entry points the library exports: from its ELF table,
        else (a file that could be loaded but not parsed) through dlsym."""
        if elf is not None:
            return [e for e in ENTRY_POINTS if e in elf.defined]
        import ctypes

        try:
            handle = ctypes.CDLL(self.path)
        except OSError:
            return []
        found = []
        for e in ENTRY_POINTS:
            try:
                handle[e]
            except AttributeError:
                continue
            found.append(e)
        return found

    def load(self) -> bool:
        from tfe_py import _opgen, io, plugins
        from tfe_py.errors import NotFoundError, OpError

        elf: ElfDynamic | None
        try:
            elf = read_elf_dynamic(self.path)
        except (OSError, ValueError, struct.error, IndexError):
            elf = None
        ops_before = set(_opgen.list_op_names())
        kernels_before = {json.dumps(k, sort_keys=True) for k in plugins.describe_kernels()}
        schemes_before = set(io.get_registered_schemes())
        self.stage("load: SE_InitPlugin, TF_InitKernel, TF_InitGraph, TF_InitProfiler")
        try:
            try:
                plugins.load_pluggable_device(self.path)
                self.set("kind", "device")
            except NotFoundError as e:
                if "SE_InitPlugin" not in str(e):
                    raise
                self.stage("load: TF_InitPlugin (filesystem)")
                try:
                    io.register_filesystem_plugin(self.path)
                    self.set("kind", "filesystem")
                    self.set("entry_points", ["TF_InitPlugin"])
                except NotFoundError as e2:
                    if "TF_InitPlugin" not in str(e2):
                        raise
                    self.stage("load: TF_LoadLibrary (ops and kernels)")
                    plugins.load_op_library(self.path)
                    self.set("kind", "ops")
        except OpError as e:
            self.set("load_error", f"{type(e).__name__}: {e}")
            self.violation("load", str(e))
            text = str(e)
            if elf is not None and (
                "undefined symbol" in text
                or "symbol lookup error" in text
                or "cannot open shared object file" in text
            ):
                self.stage("unresolved symbols")
                self._unresolved(elf)
            return False
        self.set("exports", self._exports(elf))
        self.set("ops", sorted(set(_opgen.list_op_names()) - ops_before))
        self.set(
            "kernels",
            [
                k
                for k in plugins.describe_kernels()
                if json.dumps(k, sort_keys=True) not in kernels_before
            ],
        )
        self.set("schemes", sorted(set(io.get_registered_schemes()) - schemes_before))
        self.set(
            "platforms",
            [p for p in plugins.describe_pluggable_devices() if p["path"] == self.path],
        )
        if (
            self.report["kind"] == "ops"
            and not self.report["ops"]
            and not self.report["kernels"]
            and not self.report["exports"]
        ):
            # Any shared library loads with TF_LoadLibrary; one that brings
            # nothing and has no entry point is not a plugin (a wrong path?).
            self.set("kind", "none")
            self.violation(
                "load",
                "not a TensorFlow plugin: the library exports no plugin entry point ("
                + ", ".join(ENTRY_POINTS)
                + ") and registered no op or kernel when it was loaded",
            )
            return False
        if (
            self.report["kind"] == "ops"
            and "TF_InitKernel" in self.report["exports"]
            and not self.report["kernels"]
        ):
            self.add(
                "notes",
                "the library exports TF_InitKernel but no SE_InitPlugin: tfe calls "
                "TF_InitKernel only for PluggableDevice plugins (after SE_InitPlugin), so "
                "loaded as an op library it registered no kernel",
            )
        return True

    def _unresolved(self, elf: ElfDynamic) -> None:
        """Every symbol the library needs that nothing provides (dlopen
        names only the first), and the DT_NEEDED libraries that do not
        load. A symbol counts as provided when libtfe, the process's
        global scope or one of the library's own dependencies has it."""
        import ctypes

        from tfe_py import _paths

        handles: list[Any] = [ctypes.CDLL(None)]
        try:
            handles.append(ctypes.CDLL(str(Path(_paths.get_library_dir()) / _paths.LIBTFE_NAME)))
        except (OSError, FileNotFoundError):
            pass
        origin = str(Path(self.path).resolve().parent)
        for name in elf.needed:
            dirs = [d.replace("${ORIGIN}", origin).replace("$ORIGIN", origin) for d in elf.runpath]
            candidates = [f"{d}/{name}" for d in dirs if os.path.exists(f"{d}/{name}")] + [name]
            error = ""
            for cand in candidates:
                try:
                    handles.append(ctypes.CDLL(cand))
                    error = ""
                    break
                except OSError as e:
                    error = str(e)
            if error:
                self.add("missing_libraries", {"name": name, "error": error})

        def provided(sym: str) -> bool:
            for h in handles:
                try:
                    h[sym]
                except AttributeError:
                    continue
                return True
            return False

        missing = sorted(s for s in set(elf.undefined) if not provided(s))
        readable = _demangle(missing)
        self.set(
            "unresolved",
            [
                {"name": s, "kind": classify_symbol(s), "demangled": readable.get(s, "")}
                for s in missing
            ],
        )

    # -- contract checks ----------------------------------------------------

    def contracts(self) -> None:
        from tfe_py import _opgen

        for p in self.report["platforms"]:
            entry = ["SE_InitPlugin"]
            if p["has_init_kernel"]:
                entry.append("TF_InitKernel")
            if p["graph_optimizer"] is not None:
                entry.append("TF_InitGraph")
            if p["profiler"] is not None:
                entry.append("TF_InitProfiler")
            self.set("entry_points", entry)
            for w in p["warnings"]:
                why = next((why for pat, why in _TF_DOES_NOT_CHECK if pat.search(w)), None)
                if why is None:
                    self.violation("loader", w)
                else:
                    self.warning("loader", f"{w} ({why})")
            for struct_name, size in p["struct_sizes"].items():
                want = p["expected_struct_sizes"][struct_name]
                if size < want:
                    self.add(
                        "notes",
                        f"{struct_name}.struct_size is {size}, TensorFlow 2.21's is {want}: an "
                        "older plugin; fields past its end count as NULL",
                    )
                elif size > want:
                    self.add(
                        "notes",
                        f"{struct_name}.struct_size is {size}, TensorFlow 2.21's is {want}: a "
                        "newer plugin; the extra fields are ignored",
                    )
            if not p["devices"]:
                self.violation("SP_PlatformFns.get_device_count", "the platform has no devices")
            for d in p["devices"]:
                if d["memory_total"] <= 0:
                    self.violation(
                        "SP_StreamExecutor.device_memory_usage",
                        f"{d['name']}: no total memory reported",
                    )
            for k in p["kernels"]:
                if k["device"] != p["type"]:
                    self.violation(
                        "TF_InitKernel",
                        f"kernel for {k['op']} is registered for device type "
                        f"{k['device']}, not the platform's {p['type']}",
                    )
        known = set(_opgen.list_op_names())
        tf_ops = _tf_op_names()
        not_in_tfe: set[str] = set()
        for k in self.report["kernels"]:
            if k["op"] in known:
                continue
            if k["op"] in tf_ops:
                # A standard op tfe does not define yet: its kernel cannot
                # run here, but the plugin is not at fault.
                not_in_tfe.add(k["op"])
            else:
                self.violation(
                    "TF_RegisterKernelBuilder",
                    f"kernel for op {k['op']} ({k['device']}), which is not registered "
                    "(neither by the plugin, nor by tfe, nor by TensorFlow 2.21)",
                )
        if not_in_tfe:
            self.set("ops_not_in_tfe", sorted(not_in_tfe))

    # -- smoke tests --------------------------------------------------------

    def device_smoke(self) -> None:
        import numpy as np

        from tfe_py import plugins
        from tfe_py._ffi import ffi, lib
        from tfe_py.context import Context
        from tfe_py.errors import status

        for p in self.report["platforms"]:
            devices = [d["name"] for d in p["devices"]]
            for dev in devices:
                self.stage(f"self-test {dev}")
                with status() as s:
                    buf = lib.TFE_PluggableDeviceSelfTest(dev.encode(), s)
                try:
                    result = json.loads(bytes(ffi.buffer(buf.data, buf.length)).decode())
                finally:
                    lib.TF_DeleteBuffer(buf)
                for c in result["checks"]:
                    name = f"{dev.rsplit('/', 1)[-1]}: {c['name']}"
                    if c["ok"]:
                        self.smoke(name, "pass", c["detail"])
                    elif c["name"] in ("mem_zero", "memset", "memset32"):
                        # The loader's warning already counts as the violation.
                        if c["name"] not in p["emulated"]:
                            self.violation(f"SP_StreamExecutor.{c['name']}", c["detail"])
                        self.smoke(name, "fail", c["detail"])
                    else:
                        # A detail that starts "SP_X.field ..." names the
                        # struct and field at fault.
                        at_fault = re.match(r"(SP_\w+\.\w+)\s", c["detail"])
                        where = at_fault.group(1) if at_fault else "SP_StreamExecutor"
                        self.violation(where, f"{name}: {c['detail']}")
                        self.smoke(name, "fail", c["detail"])
            if not devices:
                continue
            dev0 = devices[0]
            baseline = plugins.device_memory_stats(dev0).get("plugin_bytes_in_use")
            ctx = Context()
            try:
                self.stage("copies through the runtime")
                rng = np.random.default_rng(0)
                for n in (1, 17, 4096, 1 << 18):
                    data = rng.standard_normal(n).astype(np.float32)
                    problem = _copy_round_trip(ctx, data, devices)
                    self.smoke(
                        f"copy round trip of {n} floats",
                        "fail" if problem else "pass",
                        problem or f"{' -> '.join(d.rsplit('/', 1)[-1] for d in devices)} -> CPU",
                    )
                    if problem:
                        self.violation("SP_StreamExecutor.memcpy_*", problem)
                self._kernels_vs_cpu(ctx, p)
                self._ref_sequence_vs_cpu(ctx, p)
            finally:
                ctx.close()
            self.stage("memory returns to the plugin")
            plugins.release_cached_memory(dev0)
            after = plugins.device_memory_stats(dev0).get("plugin_bytes_in_use")
            if baseline is None:
                self.smoke("memory returns to the plugin", "skip", "no allocator statistics")
            elif after == baseline:
                self.smoke("memory returns to the plugin", "pass", f"{after} bytes in use")
            else:
                self.smoke(
                    "memory returns to the plugin",
                    "fail",
                    f"{after} bytes in use after every tensor was freed, {baseline} before",
                )
                self.violation(
                    "SP_StreamExecutor.get_allocator_stats",
                    f"bytes_in_use is {after} after every tensor was freed, {baseline} before",
                )

    def _kernels_vs_cpu(self, ctx: Any, platform: dict[str, Any]) -> None:
        import numpy as np

        from tfe_py import _opgen, ops
        from tfe_py.errors import OpError

        done: set[tuple[str, str]] = set()
        dev0 = platform["devices"][0]["name"]
        known = set(_opgen.list_op_names())
        for k in platform["kernels"]:
            if k["label"]:
                continue
            op_name = k["op"]
            if op_name not in known:
                if (op_name, "") not in done:
                    done.add((op_name, ""))
                    short = dev0.rsplit("/", 1)[-1]
                    self.smoke(f"{op_name} on {short}", "skip", "op not known to tfe")
                continue
            primary = next(iter(k["constraints"]), None)
            dtypes = k["constraints"][primary] if primary else ["DT_FLOAT"]
            for dt in dtypes:
                if (op_name, dt) in done:
                    continue
                done.add((op_name, dt))
                name = f"{op_name}[{dt[3:].lower()}] on {dev0.rsplit('/', 1)[-1]} vs CPU"
                try:
                    inputs = _random_inputs(_opgen.op_def(op_name), dt, primary)
                except _Skip as why:
                    self.smoke(name, "skip", str(why))
                    continue
                self.stage(f"kernel {name}")
                fn = getattr(ops, op_name)
                try:
                    with ctx.as_default(), ctx.device("CPU:0"):
                        want = fn(*inputs)
                except OpError as e:
                    self.smoke(name, "skip", f"no CPU result to compare with: {e}")
                    continue
                try:
                    with ctx.as_default(), ctx.device(dev0):
                        got = fn(*inputs)
                except OpError as e:
                    self.smoke(name, "fail", str(e))
                    self.violation(f"kernel {op_name}", f"{dt}: {e}")
                    continue
                w = np.array(want.numpy())
                g = np.array(got.numpy())
                tol = 1e-2 if w.dtype == np.float16 else 1e-4
                same = w.shape == g.shape and (
                    np.allclose(g, w, rtol=tol, atol=tol)
                    if w.dtype.kind in "fc"
                    else np.array_equal(g, w)
                )
                if same:
                    self.smoke(name, "pass", f"shape {list(g.shape)}")
                else:
                    detail = (
                        f"shape {list(g.shape)} vs {list(w.shape)}"
                        if w.shape != g.shape
                        else f"max difference {float(np.max(np.abs(g - w.astype(g.dtype))))}"
                    )
                    self.smoke(name, "fail", detail)
                    self.violation(f"kernel {op_name}", f"{dt}: result differs from CPU: {detail}")
                want.close()
                got.close()

    def _ref_sequence_vs_cpu(self, ctx: Any, platform: dict[str, Any]) -> None:
        """Reference kernels need a variable, not random inputs: when the
        device has float TemporaryVariable and Assign kernels, runs
        TemporaryVariable -> Assign (-> RefIdentity) -> read
        (-> DestroyTemporaryVariable) on the device, each step the device
        has a kernel for, and compares the values with the CPU's."""
        import numpy as np

        from tfe_py import constant, ops
        from tfe_py.errors import OpError

        have = {k["op"] for k in platform["kernels"] if not k["label"]}
        if not {"TemporaryVariable", "Assign"} <= have:
            return
        dev0 = platform["devices"][0]["name"]
        name = f"reference ops on {dev0.rsplit('/', 1)[-1]} vs CPU"
        self.stage(f"kernel {name}")
        value = np.random.default_rng(2).standard_normal((2, 3)).astype(np.float32)
        steps = ["TemporaryVariable", "Assign"]
        steps += [op for op in ("RefIdentity", "DestroyTemporaryVariable") if op in have]

        def sequence(device: str, var_name: str) -> Any:
            with ctx.as_default(), ctx.device(device):
                v = ops.TemporaryVariable(shape=[2, 3], dtype="float32", var_name=var_name)
                v = ops.Assign(v, constant(value))
                if "RefIdentity" in have:
                    v = ops.RefIdentity(v)
                out = v.numpy()
                if "DestroyTemporaryVariable" in have:
                    out = ops.DestroyTemporaryVariable(v, var_name=var_name).numpy()
                return out

        try:
            want = sequence("CPU:0", "_tfe_doctor_cpu")
            got = sequence(dev0, "_tfe_doctor_dev")
        except OpError as e:
            self.smoke(name, "fail", str(e))
            self.violation("reference kernels", str(e))
            return
        if np.array_equal(got, want) and np.array_equal(got, value):
            self.smoke(name, "pass", ", ".join(steps))
        else:
            self.smoke(name, "fail", "the variable does not hold the assigned value")
            self.violation("reference kernels", "the variable does not hold the assigned value")

    def op_smoke(self) -> None:
        import numpy as np

        from tfe_py import _opgen, ops
        from tfe_py.context import Context
        from tfe_py.errors import OpError

        ctx = Context()
        try:
            for op_name in self.report["ops"]:
                name = f"op {op_name}"
                od = _opgen.op_def(op_name)
                dt = _first_allowed_dtype(od)
                try:
                    inputs = _random_inputs(od, dt)
                except _Skip as why:
                    self.smoke(name, "skip", str(why))
                    continue
                self.stage(f"op {op_name}")
                try:
                    with ctx.as_default(), ctx.device("CPU:0"):
                        out = getattr(ops, op_name)(*inputs)
                except OpError as e:
                    self.smoke(name, "skip", f"does not run on CPU with guessed inputs: {e}")
                    continue
                outs = out if isinstance(out, (list, tuple)) else [out]
                shape = _infer_shape(ctx, op_name, inputs)
                actual = list(np.array(outs[0].numpy()).shape)
                if shape is None:
                    self.smoke(name, "pass", f"ran on CPU, output {actual}; no shape function")
                elif shape == actual:
                    self.smoke(name, "pass", f"ran on CPU; shape function agrees ({actual})")
                else:
                    self.smoke(name, "fail", f"shape function says {shape}, kernel gave {actual}")
                    self.violation(
                        f"TF_OpDefinitionBuilderSetShapeInferenceFunction({op_name})",
                        f"the shape function says {shape}, the kernel produced {actual}",
                    )
                for o in outs:
                    o.close()
        finally:
            ctx.close()

    def fs_smoke(self) -> None:
        """Filesystem smoke tests for each scheme the plugin registered, in
        a scratch folder under each --fs-root of that scheme; skipped (with
        a note saying how to run them) for a scheme without one."""
        schemes = [s for s in self.report["schemes"] if s]
        for scheme in schemes:
            roots = [r for r in self.fs_roots if _uri_scheme(r) == scheme]
            if not roots:
                self.smoke(
                    f"{scheme}:// filesystem operations",
                    "skip",
                    f"no scratch folder named (--fs-root {scheme}://...)",
                )
                self.add(
                    "notes",
                    f"filesystem smoke tests for {scheme}:// skipped: name a folder they may "
                    f"use with --fs-root {scheme}://BUCKET/PATH (the doctor creates one uniquely "
                    "named folder in it and deletes only that)",
                )
                continue
            for root in roots:
                _FsSmoke(self, scheme, root).run()
        for root in self.fs_roots:
            if _uri_scheme(root) not in schemes:
                self.add(
                    "notes",
                    f"--fs-root {root} ignored: the plugin did not register the scheme "
                    f"'{_uri_scheme(root)}' (it registered: {', '.join(schemes) or 'none'})",
                )

    def run(self) -> dict[str, Any]:
        if self.load():
            self.stage("contract checks")
            self.contracts()
            if self.report["kind"] == "device":
                self.device_smoke()
            if self.report["kind"] == "filesystem":
                self.fs_smoke()
            if self.report["ops"]:
                self.op_smoke()
        self.stage("done")
        self._emit({"final": self.report})
        return self.report


class _FsSmoke:
    """Write, read, append, stat, list, rename, delete and recursive delete
    through the runtime's filesystem functions, all inside one new folder
    ``<root>/tfe-doctor-<pid>-<random>``: nothing outside it is written,
    renamed or deleted, and it is removed at the end. An operation the
    plugin leaves out (UNIMPLEMENTED) is reported as not supported."""

    def __init__(self, child: _Child, scheme: str, root: str) -> None:
        self.child = child
        self.scheme = scheme
        self.root = root.rstrip("/")
        self.scratch = f"{self.root}/tfe-doctor-{os.getpid()}-{secrets.token_hex(6)}"
        self.unsupported: list[str] = []
        self.files: list[str] = []
        self.dirs: list[str] = []

    def attempt(
        self,
        label: str,
        op_field: str,
        fn: Callable[[], Any],
        check: Callable[[Any], str | None] | None = None,
        passed_detail: str = "",
    ) -> bool:
        """Runs one operation and records one smoke test for it: pass, skip
        (UNIMPLEMENTED: not supported), or fail (any other error, or
        `check` returning what is wrong with the result), a failure also
        being a violation of TF_FilesystemOps.<op_field>."""
        from tfe_py.errors import CODES, OpError

        c = self.child
        name = f"{self.scheme}:// {label} ({op_field})"
        c.stage(f"filesystem {label} in {self.scratch}")
        try:
            result = fn()
            problem = check(result) if check is not None else None
        except OpError as e:
            message = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            if e.error_code == CODES["UNIMPLEMENTED"]:
                self.unsupported.append(f"{label} ({op_field})")
                c.smoke(name, "skip", f"not supported by the plugin: {message}")
            else:
                c.smoke(name, "fail", message)
                c.violation(f"TF_FilesystemOps.{op_field}", f"{label}: {message}")
            return False
        if problem is not None:
            c.smoke(name, "fail", problem)
            c.violation(f"TF_FilesystemOps.{op_field}", f"{label}: {problem}")
            return False
        c.smoke(name, "pass", passed_detail)
        return True

    def skip(self, label: str, why: str) -> None:
        self.child.smoke(f"{self.scheme}:// {label}", "skip", why)

    def run(self) -> None:
        from tfe_py import io
        from tfe_py.errors import NotFoundError, OpError

        sc = self.scratch
        self.child.stage(f"filesystem smoke tests in {sc}")
        try:
            taken = io.exists(sc)
        except OpError:
            taken = False
        if taken:  # a 48-bit random name: practically never
            self.child.add("notes", f"{sc} exists already; filesystem smoke tests skipped")
            return
        try:
            self._run(io)
        except NotFoundError as e:
            if not self.dirs and not self.files:
                self.child.add(
                    "notes",
                    f"filesystem smoke tests for {self.scheme}:// skipped: cannot create a "
                    f"folder in --fs-root {self.root} ({str(e).splitlines()[0]}); name an "
                    "existing folder",
                )
            else:
                raise
        finally:
            self._clean_up(io)
        if self.unsupported:
            self.child.add(
                "fs_unsupported",
                {"scheme": self.scheme, "root": self.root, "operations": self.unsupported},
            )

    def _run(self, io: Any) -> None:
        from tfe_py.errors import NotFoundError, OpError

        sc = self.scratch
        # The scratch folder. A missing --fs-root (NOT_FOUND) ends the tests
        # (see run); a plugin without folders (an object store may leave
        # create_dir out) still gets the file tests, under the same unique
        # prefix; any other failure ends them before anything is written.
        try:
            io.mkdir(sc)
        except NotFoundError:
            raise
        except OpError:
            pass
        else:
            self.dirs.append(sc)
        made = bool(self.dirs)
        if made:
            self.child.smoke(f"{self.scheme}:// create folder (create_dir)", "pass", sc)
        elif not self.attempt("create folder", "create_dir", lambda: io.mkdir(sc)):
            if not self.unsupported:
                return
        else:  # the second try worked: a flaky create_dir, but the folder exists
            self.dirs.append(sc)
            made = True
        a = f"{sc}/a.bin"
        data = secrets.token_bytes(70_000)
        more = secrets.token_bytes(1_000)

        def write(path: str, payload: bytes, mode: str) -> None:
            with io.GFile(path, mode) as f:
                f.write(payload)

        def read(path: str) -> bytes:
            with io.GFile(path, "rb") as f:
                return bytes(f.read())

        def same(want: bytes) -> Callable[[Any], str | None]:
            return lambda got: (
                None
                if got == want
                else (f"read back {len(got)} bytes that differ from the {len(want)} written")
            )

        self.files.append(a)
        if not self.attempt(
            "write", "new_writable_file", lambda: write(a, data, "wb"), None, f"{len(data)} bytes"
        ):
            self.files.remove(a)
            for label in ("read", "append", "stat", "list", "rename", "delete"):
                self.skip(label, "needs the file that could not be written")
        else:
            self.attempt("read", "new_random_access_file", lambda: read(a), same(data))
            expected = data
            if self.attempt(
                "append",
                "new_appendable_file",
                lambda: write(a, more, "ab"),
                None,
                f"{len(more)} bytes",
            ):
                expected = data + more
                self.attempt(
                    "read after append", "new_appendable_file", lambda: read(a), same(expected)
                )

            def stat_check(st: Any) -> str | None:
                if st.is_directory:
                    return "a file is reported as a directory"
                if st.length != len(expected):
                    return f"length {st.length}, {len(expected)} bytes were written"
                return None

            self.attempt("stat", "stat", lambda: io.stat(a), stat_check, f"{len(expected)} bytes")
            if made:
                self.attempt(
                    "stat of a folder",
                    "stat",
                    lambda: io.stat(sc),
                    lambda st: None if st.is_directory else "a folder is reported as a file",
                )
            # A subfolder with a file in it, so that the listing and the
            # recursive delete meet both kinds of entry.
            sub = f"{sc}/sub"
            want = ["a.bin"]
            if made and self.attempt("create subfolder", "create_dir", lambda: io.mkdir(sub)):
                self.dirs.append(sub)
                want.append("sub")
                self.files.append(f"{sub}/c.bin")
                try:
                    write(f"{sub}/c.bin", more, "wb")
                except OpError:
                    self.files.pop()
            self.attempt(
                "list",
                "get_children",
                lambda: sorted(n.rstrip("/") for n in io.listdir(sc)),
                lambda got: None if got == want else f"listed {got}, expected {want}",
                ", ".join(want),
            )
            b = f"{sc}/b.bin"
            target = a

            def renamed(_: Any) -> str | None:
                if io.exists(a):
                    return "the source still exists after the rename"
                if read(b) != expected:
                    return "the renamed file does not hold the data"
                return None

            # Cleaned up whatever happens (a half-done rename may leave both).
            self.files.append(b)
            if self.attempt("rename", "rename_file", lambda: io.rename(a, b), renamed):
                target = b
            self.attempt(
                "delete",
                "delete_file",
                lambda: io.remove(target),
                lambda _: "the file still exists" if io.exists(target) else None,
            )
            try:
                if not io.exists(target):
                    self.files.remove(target)
            except OpError:
                pass
        if made:
            self.attempt(
                "recursive delete",
                "delete_recursively",
                lambda: io.rmtree(sc),
                lambda _: "the folder still exists" if io.exists(sc) else None,
            )

    def _clean_up(self, io: Any) -> None:
        """Removes what the tests left in the scratch folder (only what they
        created) and the folder itself."""
        from tfe_py._ffi import lib
        from tfe_py.errors import OpError, status

        try:
            if self.dirs and not io.exists(self.scratch):
                return
        except OpError:
            pass
        for path in self.files:
            try:
                if io.exists(path):
                    io.remove(path)
            except OpError:
                pass
        for path in reversed(self.dirs):
            try:
                with status() as s:
                    lib.TF_DeleteDir(path.encode(), s)
            except OpError:
                pass
        try:
            left = io.exists(self.scratch)
        except OpError:
            left = False
        if left:
            self.child.add(
                "notes",
                f"the scratch folder {self.scratch} could not be removed; remove it by hand",
            )


class _Skip(Exception):
    pass


def _copy_round_trip(ctx: Any, data: Any, devices: list[str]) -> str | None:
    """Host -> each device in turn -> host through the runtime's copies;
    None when the values survive, else what went wrong."""
    import numpy as np

    from tfe_py._ffi import lib
    from tfe_py.eager import EagerTensor, constant
    from tfe_py.errors import OpError, status

    held: list[Any] = []
    try:
        with ctx.as_default():
            t = constant(data)
        held.append(t)
        for dev in [*devices, "CPU:0"]:
            with status() as s:
                h = lib.TFE_TensorHandleCopyToDevice(t.handle, ctx.ptr, dev.encode(), s)
            t = EagerTensor.from_handle(h, ctx)
            held.append(t)
        if not np.array_equal(np.array(t.numpy()), data):
            return "values differ after the copies"
        return None
    except OpError as e:
        return str(e).splitlines()[0]
    finally:
        for x in held:
            x.close()


_NP_OF = {
    "DT_FLOAT": "float32",
    "DT_DOUBLE": "float64",
    "DT_HALF": "float16",
    "DT_INT32": "int32",
    "DT_INT64": "int64",
    "DT_INT8": "int8",
    "DT_UINT8": "uint8",
    "DT_INT16": "int16",
    "DT_BOOL": "bool",
}

# Shapes for ops whose inputs must fit together (everything else gets
# same-shaped [2, 3] inputs).
_SHAPES: dict[str, list[tuple[int, ...]]] = {
    "MatMul": [(3, 4), (4, 5)],
    "BiasAdd": [(2, 3), (3,)],
    "BatchMatMulV2": [(2, 3, 4), (2, 4, 5)],
    "TfeTestRowSums": [(3, 4)],
}


_SHORT_TO_ENUM = {
    "float": "DT_FLOAT",
    "double": "DT_DOUBLE",
    "half": "DT_HALF",
    "int32": "DT_INT32",
    "int64": "DT_INT64",
    "int8": "DT_INT8",
    "uint8": "DT_UINT8",
    "int16": "DT_INT16",
    "bool": "DT_BOOL",
}


def _attr_dtype(attr: Any) -> str | None:
    """A dtype (DT_ name) for a type attr: its default, else its first
    allowed type the doctor can make data for."""
    from tfe_py import dtypes

    if attr.has_default and isinstance(attr.default, int):
        enum = "DT_" + dtypes.name(attr.default).upper().replace("FLOAT32", "FLOAT")
        enum = enum.replace("FLOAT64", "DOUBLE").replace("FLOAT16", "HALF")
        if enum in _NP_OF:
            return enum
    for x in attr.allowed or ():
        enum = _SHORT_TO_ENUM.get(str(x).strip())
        if enum is not None:
            return enum
    return None


def _first_allowed_dtype(od: Any) -> str:
    for a in od.attrs:
        if a.base == "type" and not a.is_list:
            enum = _attr_dtype(a)
            if enum is not None:
                return enum
    return "DT_FLOAT"


def _random_inputs(od: Any, dt: str, primary: str | None = None) -> list[Any]:
    """Random inputs for op definition `od`, giving dtype `dt` to inputs
    typed by attr `primary` (default: the first type attr); raises _Skip
    when the signature is not one the doctor can guess."""
    import numpy as np

    from tfe_py import dtypes

    if dt not in _NP_OF:
        raise _Skip(f"no random data for {dt}")
    if any(a.is_ref for a in [*od.inputs, *od.outputs]):
        # A reference (Ref) op needs a variable made by an earlier op, not
        # random data (docs/REF_VARIABLES.md).
        raise _Skip("reference (Ref) args: run in the reference ops sequence instead")
    if primary is None:
        primary = next((a.name for a in od.attrs if a.base == "type" and not a.is_list), None)
    attrs = {a.name: a for a in od.attrs}
    for a in od.attrs:
        if not a.has_default and a.base not in ("type",):
            raise _Skip(f"attr {a.name} has no default")
    rng = np.random.default_rng(1)
    shapes = _SHAPES.get(od.name)
    out: list[Any] = []
    for i, arg in enumerate(od.inputs):
        if arg.number_attr or arg.type_list_attr or arg.is_list:
            raise _Skip(f"input {arg.name} is a list")
        if arg.type_attr is not None and arg.type_attr != primary:
            enum = _attr_dtype(attrs[arg.type_attr]) if arg.type_attr in attrs else None
            if enum not in ("DT_INT32", "DT_INT64"):
                raise _Skip(f"input {arg.name} needs a {arg.type_attr} the doctor cannot guess")
            out.append(np.array([1], dtype=_NP_OF[enum]))
            continue
        if arg.type_attr is None:
            name = dtypes.name(arg.fixed_type) if arg.fixed_type else "?"
            if name in ("int32", "int64"):
                out.append(np.array([1], dtype=name))
                continue
            if name not in ("float32", "float64"):
                raise _Skip(f"input {arg.name} has dtype {name}")
            np_dt = name
        else:
            np_dt = _NP_OF[dt]
        shape = shapes[i] if shapes is not None and i < len(shapes) else (2, 3)
        if np_dt == "bool":
            out.append(rng.integers(0, 2, shape).astype(bool))
        elif np_dt.startswith(("int", "uint")):
            low = -20 if np_dt.startswith("int") else 0
            out.append(rng.integers(low, 20, shape).astype(np_dt))
        else:
            out.append(rng.standard_normal(shape).astype(np_dt))
    return out


def _infer_shape(ctx: Any, op_name: str, inputs: list[Any]) -> list[int] | None:
    """The op's shape function's answer for output 0, or None when it has
    none."""
    from tfe_py._ffi import ffi, lib
    from tfe_py.eager import constant
    from tfe_py.errors import check

    s = lib.TF_NewStatus()
    tensors = []
    try:
        op = lib.TFE_NewOp(ctx.ptr, op_name.encode(), s)
        check(s)
        try:
            for x in inputs:
                with ctx.as_default():
                    t = constant(x)
                tensors.append(t)
                lib.TFE_OpAddInput(op, t.handle, s)
                check(s)
            dims = ffi.new("int64_t[16]")
            rank = lib.TFE_OpInferOutputShape(op, 0, dims, 16, s)
            if lib.TF_GetCode(s) == lib.TF_FAILED_PRECONDITION:
                return None
            check(s)
            return [int(dims[i]) for i in range(rank)] if rank >= 0 else None
        finally:
            lib.TFE_DeleteOp(op)
    finally:
        for t in tensors:
            t.close()
        lib.TF_DeleteStatus(s)


def _read_nonce() -> str:
    """The per-run nonce the parent writes on the child's stdin (one line),
    read before any plugin is loaded; stdin is /dev/null afterwards, so the
    plugin never sees it there."""
    data = b""
    while not data.endswith(b"\n") and len(data) < 256:
        chunk = os.read(0, 256 - len(data))
        if not chunk:
            break
        data += chunk
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    return data.decode("ascii", "replace").strip()


class _ReportWriter:
    """The child's end of the report channel: a pipe only the doctor's
    child writes to. Each event is one line, ``<nonce> <json>``, written
    after a newline of its own (so that anything a plugin left unfinished
    on the pipe ends before it) with as few write() calls as the pipe
    allows."""

    def __init__(self, fd: int, nonce: str) -> None:
        # Out of the way of the low descriptor numbers a plugin might write
        # to by mistake, and not inherited by programs the plugin runs.
        try:
            moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 200)
        except OSError:
            moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
        os.close(fd)
        self.fd = moved
        self.prefix = f"\n{nonce} "

    def write(self, event: dict[str, Any]) -> None:
        data = memoryview((self.prefix + json.dumps(event) + "\n").encode())
        while data:
            n = os.write(self.fd, data)
            data = data[n:]


def _child_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="tfe_py.doctor --child")
    parser.add_argument("--child", required=True)
    parser.add_argument(
        "--report-fd",
        type=int,
        help="the write end of the report pipe; the nonce comes on stdin (without it the "
        "report is printed as JSON)",
    )
    parser.add_argument("--fs-root", action="append", default=[])
    args = parser.parse_args(argv)
    writer: _ReportWriter | None = None
    if args.report_fd is not None:
        nonce = _read_nonce()
        if not nonce:
            sys.stderr.write("tfe_py.doctor --child: no nonce on stdin\n")
            return EXIT_CANNOT_RUN
        writer = _ReportWriter(args.report_fd, nonce)
    report = _Child(args.child, writer, args.fs_root).run()
    if writer is None:
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
    return 0


# ----------------------------------------------------------------------------
# The parent: run children, print reports

#: Lines of the child's output shown in the text report when it ends
#: without a (valid) report.
OUTPUT_TAIL_LINES = 20
#: How much of the child's output (stderr and stdout) the report keeps.
_OUTPUT_KEEP = 1 << 20
#: The most the parent reads from a report channel (a plugin flooding it
#: makes the report malformed instead of exhausting memory).
_CHANNEL_LIMIT = 256 << 20
#: Where the violation about a malformed report is filed.
REPORT_CHANNEL = "doctor report channel"


@dataclass
class Replay:
    """What a child's report channel says."""

    #: The final report, else the one rebuilt from the events before it.
    report: dict[str, Any]
    #: The stages the child entered, in order.
    stages: list[str]
    #: Whether the child sent its final report.
    finished: bool
    #: What is wrong with lines that carry the nonce (empty: nothing).
    malformed: list[str]
    #: Lines without the nonce: written by someone else (the plugin).
    foreign: int


_LIST_KEYS = tuple(k for k, v in _empty_report("").items() if isinstance(v, list))


def _report_problem(report: Any, path: str) -> str | None:
    """What makes `report` unusable as the report on plugin `path` (None
    when it is fine): not an object, another plugin's, fields of the wrong
    type, or anything the report printer trips over."""
    if not isinstance(report, dict):
        return f"the report is a JSON {type(report).__name__}, not an object"
    if report.get("path") != path:
        return f"the report is about {report.get('path')!r}, not {path!r}"
    for key in ("kind", "load_error"):
        if report.get(key) is not None and not isinstance(report[key], str):
            return f"'{key}' is not a string"
    for key in _LIST_KEYS:
        if not isinstance(report.get(key, []), list):
            return f"'{key}' is not a list"
    for key, fields in (
        ("violations", ("where", "message")),
        ("warnings", ("where", "message")),
        ("smoke", ("name", "status", "detail")),
    ):
        for item in report.get(key, []):
            if not isinstance(item, dict) or not all(isinstance(item.get(f), str) for f in fields):
                return f"an entry of '{key}' is not an object with {', '.join(fields)}"
    try:
        format_report(report, verbose=True)
        json.dumps(report)
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as e:
        return f"the report cannot be read ({type(e).__name__}: {e})"
    return None


def replay_events(path: str, data: bytes | str, nonce: str) -> Replay:
    """Reads a child's report channel: the lines carrying `nonce` are the
    child's events ({"stage": name}, {"set": key, "value": v}, {"add": key,
    "value": item}, finally {"final": report}); anything else on the channel
    was written by someone else and is only counted. A line the child was
    writing when it died (the text after the last newline) is ignored."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    report = _empty_report(path)
    out = Replay(report, [], False, [], 0)
    lines = text.split("\n")
    lines.pop()  # after the last newline: nothing, or a line cut short
    prefix = f"{nonce} "
    for number, line in enumerate(lines, 1):
        if not line:
            continue
        if not line.startswith(prefix):
            if nonce in line:
                out.malformed.append(f"line {number}: the child's event is mixed with other text")
            else:
                out.foreign += 1
            continue
        try:
            ev = json.loads(line[len(prefix) :])
        except ValueError as e:
            out.malformed.append(f"line {number} is not JSON ({e})")
            continue
        if out.finished:
            out.malformed.append(f"line {number}: an event after the final report")
        elif not isinstance(ev, dict) or len(ev) not in (1, 2):
            out.malformed.append(f"line {number}: not an event")
        elif "final" in ev:
            problem = _report_problem(ev["final"], path)
            if problem is not None:
                out.malformed.append(f"line {number}: the final report is malformed: {problem}")
            else:
                out.report, out.finished = ev["final"], True
        elif "stage" in ev and isinstance(ev["stage"], str):
            out.stages.append(ev["stage"])
        elif "set" in ev and isinstance(ev["set"], str) and "value" in ev:
            report[ev["set"]] = ev["value"]
        elif (
            "add" in ev
            and isinstance(ev["add"], str)
            and "value" in ev
            and isinstance(report.setdefault(ev["add"], []), list)
        ):
            report[ev["add"]].append(ev["value"])
        else:
            out.malformed.append(f"line {number}: not an event")
    if not out.finished:
        problem = _report_problem(report, path)
        if problem is not None:
            out.malformed.append(f"the events make no report: {problem}")
            out.report = _empty_report(path)
    return out


@dataclass
class ChildRun:
    """How a child process ended and what it left behind."""

    #: Its exit status (negative: the signal that ended it).
    status: int
    #: Whether the doctor killed it at the timeout.
    timed_out: bool
    #: Everything read from the report channel.
    channel: bytes
    #: The end of its stderr and stdout (one stream).
    output: str
    #: Whether more than _CHANNEL_LIMIT bytes came on the report channel.
    overflow: bool = False


def _exited(pid: int) -> bool:
    """Whether child `pid` has ended, without reaping it: until it is
    reaped its pid stays its process group's id, so the group can be
    killed safely afterwards."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _kill_group(pid: int) -> None:
    """Kills child `pid` and everything left in its process group (helpers
    the plugin forked)."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _read_available(fd: int, chunks: list[bytes], deadline: float | None = None) -> bool:
    """Reads what the non-blocking `fd` has now into `chunks` (beyond
    _CHANNEL_LIMIT bytes in all, it is read and dropped, with one empty
    chunk marking the overflow), until it has nothing more or `deadline`
    passes; True at end of file."""
    size = sum(len(c) for c in chunks)
    while deadline is None or time.monotonic() < deadline:
        try:
            data = os.read(fd, 1 << 16)
        except BlockingIOError:
            return False
        if not data:
            return True
        if size < _CHANNEL_LIMIT:
            chunks.append(data)
            size += len(data)
            if size >= _CHANNEL_LIMIT:
                chunks.append(b"")
    return False


def _tail(path: Path, limit: int) -> str:
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        f.seek(max(0, size - limit))
        data = f.read()
    if size > limit:
        data = data.split(b"\n", 1)[-1]  # from the first whole line
    return data.decode("utf-8", "replace")


def _run_child(
    cmd: list[str], env: dict[str, str], timeout: float, workdir: Path, nonce: str
) -> ChildRun:
    """Runs the doctor's child: its report comes on a pipe of its own
    (write end passed as --report-fd), a line at a time, each line carrying
    a nonce the parent sends on the child's stdin; its stderr and stdout go
    to a file. It runs in a new session: when it has exited (or at the
    timeout) its whole process group is killed, so a helper the plugin
    forked neither outlives the check nor keeps the doctor waiting (nothing
    waits for the end of a pipe a helper may hold)."""
    output = workdir / "output"
    nonce_r, nonce_w = os.pipe()
    report_r, report_w = os.pipe()
    proc: subprocess.Popen[bytes] | None = None
    try:
        os.write(nonce_w, nonce.encode() + b"\n")
        os.close(nonce_w)
        nonce_w = -1
        with open(output, "wb") as out:
            proc = subprocess.Popen(
                [*cmd, "--report-fd", str(report_w)],
                stdin=nonce_r,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                pass_fds=(report_w,),
                start_new_session=True,
            )
    finally:
        for fd in (nonce_r, nonce_w, report_w):
            if fd >= 0:
                os.close(fd)
        if proc is None:
            os.close(report_r)
    assert proc is not None  # Popen either started the child or raised
    chunks: list[bytes] = []
    timed_out = False
    pidfd = -1
    try:
        os.set_blocking(report_r, False)
        poller = select.poll()
        poller.register(report_r, select.POLLIN)
        try:
            pidfd = os.pidfd_open(proc.pid)
            poller.register(pidfd, select.POLLIN)
        except (AttributeError, OSError):
            pidfd = -1  # no pidfds: notice the exit by polling
        deadline = time.monotonic() + timeout
        eof = False
        while not _exited(proc.pid):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = True
                break
            wait = min(remaining, 1.0 if pidfd >= 0 else 0.05)
            if eof:
                # The pipe is closed (the child closed it): only the exit
                # remains to be seen.
                time.sleep(min(wait, 0.05))
            elif poller.poll(int(wait * 1000) + 1):
                eof = _read_available(report_r, chunks)
                if eof:
                    poller.unregister(report_r)
    finally:
        _kill_group(proc.pid)
        status = proc.wait()
        if pidfd >= 0:
            os.close(pidfd)
        # What the child wrote before it ended is in the pipe now; anything
        # later comes from others (a helper that left the group), so the
        # read stops as soon as the pipe is empty.
        _read_available(report_r, chunks, deadline=time.monotonic() + 2.0)
        os.close(report_r)
    overflow = bool(chunks) and chunks[-1] == b""
    return ChildRun(status, timed_out, b"".join(chunks), _tail(output, _OUTPUT_KEEP), overflow)


def judge(path: str, run: ChildRun, nonce: str, timeout: float) -> dict[str, Any]:
    """The report on plugin `path` from how its child ran: the child's own
    report only when it exited with status 0 after sending a well-formed
    final report carrying the nonce; otherwise what its events say, with
    "crash" set (the signal, the timeout, or "without a report", and the
    full name of the last stage it entered)."""
    replay = replay_events(path, run.channel, nonce)
    report = replay.report
    report["log"] = run.output.splitlines()
    if replay.foreign:
        report.setdefault("warnings", []).append(
            {
                "where": REPORT_CHANNEL,
                "message": f"{replay.foreign} line(s) on the doctor's report channel did not "
                "come from the doctor (the plugin wrote to a file descriptor it does not own); "
                "ignored",
            }
        )
    malformed = list(replay.malformed)
    if run.overflow:
        malformed.append(f"more than {_CHANNEL_LIMIT >> 20} MiB on the report channel")
    if malformed:
        more = f" (and {len(malformed) - 1} more)" if len(malformed) > 1 else ""
        report.setdefault("violations", []).append(
            {"where": REPORT_CHANNEL, "message": f"malformed report: {malformed[0]}{more}"}
        )
    if run.status == 0 and replay.finished and not run.timed_out:
        return report
    last = replay.stages[-1] if replay.stages else "start-up"
    if replay.finished:
        last = "process exit, after every check (destructors, atexit handlers)"
    code = run.status
    if run.timed_out:
        why = f"timed out after {timeout:g} s"
    elif code < 0:
        try:
            why = f"crashed with {signal.Signals(-code).name}"
        except ValueError:
            why = f"crashed with signal {-code}"
    else:
        # Under AddressSanitizer a fault ends the child with an exit status
        # and a report instead of a signal.
        asan = re.search(r"ERROR: AddressSanitizer: (\w+)", run.output)
        if asan is not None and asan.group(1) == "SEGV":
            why = "crashed with SIGSEGV"
        elif asan is not None:
            why = f"crashed (AddressSanitizer: {asan.group(1)})"
        elif code == 0:
            why = "exited without a report"
        else:
            why = f"exited with status {code} without a report"
    report["crash"] = f"the plugin {why} during: {last}"
    report.setdefault("violations", []).append({"where": last, "message": f"the plugin {why}"})
    return report


def check_plugin(
    path: str | os.PathLike[str], timeout: float = 300.0, fs_roots: Sequence[str] = ()
) -> dict[str, Any]:
    """Checks one plugin in a child process; returns its report (with
    "crash" set when the child died, timed out or exited without a report:
    the reason and the full name of the last stage; everything learned
    before is kept, and "log" holds the end of the child's output)."""
    path = os.path.abspath(os.fspath(path))
    env = dict(os.environ)
    env["TFE_PLUGIN_AUTOLOAD"] = "0"
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    cmd = [sys.executable, "-m", "tfe_py.doctor", "--child", path]
    for root in fs_roots:
        cmd += ["--fs-root", root]
    nonce = secrets.token_hex(16)
    with tempfile.TemporaryDirectory(prefix="tfe-doctor-") as tmp:
        try:
            run = _run_child(cmd, env, timeout, Path(tmp), nonce)
        except OSError as e:
            report = _empty_report(path)
            report["crash"] = f"the doctor could not start its child process: {e}"
            report["violations"].append({"where": "start-up", "message": report["crash"]})
            report["log"] = []
            return report
    return judge(path, run, nonce, timeout)


def _mib(n: int) -> str:
    return f"{n / (1 << 20):.1f} MiB" if n >= 0 else "unknown"


KINDS = {
    "device": "PluggableDevice plugin",
    "ops": "op and kernel library",
    "filesystem": "filesystem plugin",
    "none": "not a TensorFlow plugin",
}


def _format_unresolved(r: dict[str, Any], lines: list[str]) -> None:
    for lib in r.get("missing_libraries") or []:
        lines.append(f"  needs {lib['name']}, which does not load: {lib['error']}")
    unresolved = r.get("unresolved") or []
    if not unresolved:
        return
    lines.append(f"  unresolved symbols ({len(unresolved)}):")
    for kind, (title, advice) in UNRESOLVED_KINDS.items():
        names = [u for u in unresolved if u["kind"] == kind]
        if not names:
            continue
        lines.append(f"    {title} ({len(names)}):")
        for u in names:
            lines.append(f"      {u['name']}" + (f"  ({u['demangled']})" if u["demangled"] else ""))
        lines.append(f"    -> {advice}")


def format_report(r: dict[str, Any], verbose: bool = False) -> str:
    lines = [f"== {r['path']}"]
    if r.get("crash"):
        lines.append(f"  CRASH: {r['crash']}")
    if r.get("load_error"):
        lines.append(f"  load failed: {r['load_error']}")
        _format_unresolved(r, lines)
    elif r.get("kind"):
        entry = ", ".join(r.get("entry_points") or [])
        kind = KINDS.get(r["kind"], r["kind"])
        lines.append(f"  kind: {kind}" + (f" ({entry})" if entry else ""))
    for p in r.get("platforms", []):
        lines.append(
            f"  platform {p['name']}, device type {p['type']}, StreamExecutor C API {p['version']}"
        )
        opt = p["optional_functions"]
        lines.append(
            "  streams, events, timers: yes; "
            f"block_host_until_done: {'yes' if opt['block_host_until_done'] else 'no (emulated)'}; "
            f"memcpy_dtod: {'yes' if opt['memcpy_dtod'] else 'no'}; "
            f"unified memory: {'yes' if p['supports_unified_memory'] else 'no'}"
        )
        lines.append(f"  devices: {len(p['devices'])}")
        for d in p["devices"]:
            lines.append(
                f"    {d['name']}: {d['hardware_name'] or '?'} ({d['device_vendor'] or '?'}), "
                f"{_mib(d['memory_total'])}, PCI {d['pci_bus_id'] or '?'}, NUMA {d['numa_node']}, "
                f"{d['gflops']} GFLOPS"
            )
        if p["graph_optimizer"]:
            g = p["graph_optimizer"]
            cfg = ", ".join(f"{k}={v}" for k, v in g["configs"].items() if v != "default")
            # The self-test ran the optimizer on a small graph (one entry
            # per device; the first says it all).
            ran = next(
                (x for x in r.get("smoke", []) if x["name"].endswith(": graph optimizer")),
                None,
            )
            lines.append(
                f"  graph optimizer for {g['device_type']}"
                + (f" ({cfg})" if cfg else "")
                + f": runs on the graphs sessions execute with {g['device_type']} devices"
                + (f"; self-test {ran['status']}: {ran['detail']}" if ran else "")
            )
        if p["profiler"]:
            lines.append(f"  profiler for {p['profiler']['type']}: recorded")
    if r.get("kernels"):
        by_op: dict[str, list[str]] = {}
        for k in r["kernels"]:
            cons = " ".join(
                f"{attr}=" + "/".join(t[3:].lower() for t in types)
                for attr, types in k["constraints"].items()
            )
            tag = k["device"] + (f" {cons}" if cons else "")
            if k["host_memory"]:
                tag += " host:" + ",".join(k["host_memory"])
            if k["label"]:
                tag += f" label={k['label']}"
            by_op.setdefault(k["op"], []).append(tag)
        lines.append(f"  kernels ({len(r['kernels'])}):")
        for op in sorted(by_op):
            lines.append(f"    {op}: {'; '.join(by_op[op])}")
    if r.get("ops_not_in_tfe"):
        names = r["ops_not_in_tfe"]
        lines.append(
            f"  op not known to tfe ({len(names)}): {', '.join(names)} (standard TensorFlow "
            "ops tfe does not define yet: their kernels are listed but cannot run here; not "
            "a fault of the plugin)"
        )
    if r.get("ops"):
        lines.append(f"  ops defined: {', '.join(r['ops'])}")
    if r.get("schemes"):
        lines.append(f"  filesystem schemes: {', '.join(s or '(local)' for s in r['schemes'])}")
    for u in r.get("fs_unsupported") or []:
        lines.append(
            f"  not supported by the plugin ({u['scheme']}://): {', '.join(u['operations'])}"
        )
    for n in r.get("notes", []):
        lines.append(f"  note: {n}")
    smoke = r.get("smoke", [])
    counts = {s: sum(1 for x in smoke if x["status"] == s) for s in ("pass", "fail", "skip")}
    if smoke:
        lines.append(
            f"  smoke tests: {counts['pass']} passed, {counts['fail']} failed, "
            f"{counts['skip']} skipped"
        )
        for x in smoke:
            if verbose or x["status"] == "fail":
                detail = f" ({x['detail']})" if x["detail"] else ""
                lines.append(f"    [{x['status']}] {x['name']}{detail}")
    warnings = r.get("warnings") or []
    if warnings:
        lines.append(f"  warnings: {len(warnings)}")
        for w in warnings:
            lines.append(f"    {w['where']}: {w['message']}")
    violations = r.get("violations", [])
    if violations:
        lines.append(f"  contract violations: {len(violations)}")
        for v in violations:
            lines.append(f"    {v['where']}: {v['message']}")
    else:
        lines.append("  contract violations: none")
    if r.get("crash") or any(v.get("where") == REPORT_CHANNEL for v in violations):
        # The child did not end with a report of its own: what it wrote
        # last usually says why.
        log = r.get("log") or []
        tail = log[-OUTPUT_TAIL_LINES:]
        if tail:
            shown = f"last {len(tail)} of {len(log)} lines" if len(tail) < len(log) else "all"
            lines.append(f"  the child's stderr and stdout ({shown}):")
            lines.extend(f"    | {ln[:500]}" for ln in tail)
        else:
            lines.append("  the child wrote nothing on stderr or stdout")
    lines.append(f"  result: {'PASS' if passed(r) else 'FAIL'}")
    return "\n".join(lines)


def passed(report: dict[str, Any]) -> bool:
    return not report.get("violations") and not report.get("crash")


def _check_all(plugins: list[str], timeout: float, fs_roots: Sequence[str]) -> list[dict[str, Any]]:
    """check_plugin on each plugin. SIGTERM and SIGHUP end the doctor as an
    exception would, so the running child's process group is still killed
    on the way out (in the main thread; elsewhere they keep their
    handlers)."""

    def stop(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    saved: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGHUP):
            saved[sig] = signal.signal(sig, stop)
    try:
        return [check_plugin(p, timeout=timeout, fs_roots=fs_roots) for p in plugins]
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def cmd_doctor(args: argparse.Namespace) -> int:
    plugins = list(args.plugins)
    if not plugins:
        try:
            plugins = [str(p) for p in example_plugins()]
        except MissingToolError as e:
            sys.stderr.write(f"tfe doctor: {e}\n")
            return EXIT_CANNOT_RUN
        except RuntimeError as e:
            sys.stderr.write(f"tfe doctor: {e}\n")
            return EXIT_CANNOT_RUN
    import tfe_py
    from tfe_py._ffi import ffi, lib

    reports = _check_all(plugins, args.timeout, args.fs_root or ())
    if args.json:
        json.dump(reports, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        out = sys.stdout
        out.write(
            f"tfe doctor {tfe_py.__version__} (tfe runtime {tfe_py.RUNTIME_VERSION}, "
            f"TensorFlow C API {ffi.string(lib.TF_Version()).decode()})\n\n"
        )
        for r in reports:
            out.write(format_report(r, args.verbose) + "\n\n")
        ok = sum(passed(r) for r in reports)
        out.write(f"{ok} of {len(reports)} plugin(s) passed\n")
    return 0 if all(passed(r) for r in reports) else 1


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "doctor",
        help="load plugins in child processes, report what they register, check their "
        "contracts and run smoke tests",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    p.add_argument("plugins", nargs="*", metavar="PLUGIN.so", help="default: the example plugins")
    p.add_argument("--json", action="store_true", help="print the reports as JSON")
    p.add_argument("-v", "--verbose", action="store_true", help="list every smoke test")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per plugin (default 300)")
    p.add_argument(
        "--fs-root",
        action="append",
        metavar="SCHEME://PATH",
        help="an existing folder where filesystem plugins of that scheme are smoke-tested: the "
        "doctor creates one uniquely named folder in it and deletes only that (repeatable; "
        "without it the filesystem smoke tests are skipped)",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "--child":
        return _child_main(argv)
    parser = argparse.ArgumentParser(prog="python -m tfe_py doctor")
    sub = parser.add_subparsers(dest="command")
    add_parser(sub)
    args = parser.parse_args(["doctor", *argv])
    return cmd_doctor(args)


if __name__ == "__main__":
    sys.exit(main())
