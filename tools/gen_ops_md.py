#!/usr/bin/env python3
"""Write docs/OPS.md: every TensorFlow 2.21 op and how far tfe supports it.

    python3 tools/gen_ops_md.py                          # (re)write docs/OPS.md
    python3 tools/gen_ops_md.py --check                  # exit 1 if it is stale
    python3 tools/gen_ops_md.py --lib build/libtfe.so    # another build

For each op of TF 2.21's registry (data/tf221_ops.txt, recorded by
tools/dump_tf_ops.py) the table says whether tfe defines it (TFE_ListOpNames),
the dtypes of tfe's CPU kernels (TF_GetAllRegisteredKernels) next to the
dtypes TF registers on CPU (data/tf221_cpu_kernels.txt), whether tfe's
gradient registry knows it (TFE_GradientRegistryLookup) next to TF's
(data/tf221_gradients.txt), and whether a TF-recorded test data file names it.

"Tested against TF" is computed, not claimed: an op counts when its name
appears as a whole word in a JSON file under tests/ whose values were
recorded from TF 2.21 (``*_tf221.json``, ``tests/data/grad_cases/*.json`` and
the ``*_cases.json`` files carrying a ``tf_version``). A name in such a file
means a test compares tfe with values TF produced for a call involving it;
it does not mean every dtype or error case is covered.

Families come from the TF Python wrapper module that calls the op
(data/tf221_op_modules.txt); families tfe does not plan to implement (TPU,
XLA, distributed collectives and rendezvous, tf.data, Mkl and quantized
internals) are grouped as such. Only the standard library is used (ctypes).
"""

from __future__ import annotations

import argparse
import ctypes
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
OUT = ROOT / "docs" / "OPS.md"
COMMAND = "python3 tools/gen_ops_md.py"

NOT_PLANNED = {
    "tpu": "TPU (not planned)",
    "xla": "XLA (not planned)",
    "dist": "Distributed collectives and rendezvous (not planned)",
    "data": "tf.data datasets and iterators (not planned)",
    "internal": "Mkl and quantized internals (not planned)",
}
DIST_MODULES = {"gen_collective_ops", "gen_nccl_ops", "gen_sendrecv_ops", "gen_rpc_ops",
                "gen_dtensor_ops", "gen_sync_ops", "gen_check_preemption_op"}
DATA_MODULES = {"gen_dataset_ops", "gen_experimental_dataset_ops", "gen_optional_ops"}
DIST_NAMES = {"_Send", "_Recv", "_HostSend", "_HostRecv", "Send", "Recv", "_RefSend"}


def family(name: str, module: str | None) -> tuple[int, str]:
    """(sort key, family title) of op ``name``; planned families sort first."""
    bare = name.lstrip("_")
    if bare.startswith(("Mkl", "Quantized", "_Quantized")) or "Mkl" in name:
        return 2, NOT_PLANNED["internal"]
    if "TPU" in name or "Tpu" in name or module in ("gen_tpu_ops", "gen_tpu_partition_ops"):
        return 2, NOT_PLANNED["tpu"]
    if bare.startswith("Xla") or module == "gen_xla_ops":
        return 2, NOT_PLANNED["xla"]
    if (module in DIST_MODULES or name in DIST_NAMES or bare.startswith(("Collective", "Nccl"))):
        return 2, NOT_PLANNED["dist"]
    if module in DATA_MODULES or "Dataset" in name or "Iterator" in name:
        return 2, NOT_PLANNED["data"]
    if module is None:
        return 1, "No Python wrapper (internal, test and helper ops)"
    title = module[4:]
    return 0, title.removesuffix("_ops").removesuffix("_op").replace("_", " ")


def read_ops() -> list[str]:
    text = (DATA / "tf221_ops.txt").read_text()
    return [line[4:] for line in text.splitlines() if line.startswith("op: ")]


def read_pairs(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            k, v = line.split(None, 1)
            out[k] = v
    return out


def short_dtype(t: str) -> str:
    return t.replace("float", "f").replace("complex", "c").replace("bfloat16", "bf16")


def dtype_union(cons: list[str]) -> str:
    """Dtypes of kernels given as 'A=x,y;B=z' constraint strings: the union of
    each kernel's first constraint, or 'any' when a kernel has none."""
    types: list[str] = []
    for c in cons:
        if not c:
            return "any"
        first = c.split(";")[0].split("=", 1)[1]
        for t in first.split(","):
            if t not in types:
                types.append(t)
    return ", ".join(short_dtype(t) for t in types)


def tf_cpu_kernels() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in (DATA / "tf221_cpu_kernels.txt").read_text().splitlines():
        if line:
            op, _, cons = line.partition("\t")
            out.setdefault(op, []).append(cons)
    return out


# ---- tfe's side, through ctypes -------------------------------------------


class _Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t),
                ("data_deallocator", ctypes.c_void_p)]


def _varint(b: bytes, i: int) -> tuple[int, int]:
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return v, i


def _fields(b: bytes) -> list[tuple[int, int, object]]:
    """(field, wire type, value) of a serialized message; bytes for wire type 2."""
    out: list[tuple[int, int, object]] = []
    i = 0
    while i < len(b):
        key, i = _varint(b, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _varint(b, i)
            out.append((f, wt, v))
        elif wt == 2:
            n, i = _varint(b, i)
            out.append((f, wt, b[i:i + n]))
            i += n
        elif wt == 1:
            i += 8
        elif wt == 5:
            i += 4
        else:
            raise ValueError("bad wire type")
    return out


DTYPE_NAMES = {1: "float", 2: "double", 3: "int32", 4: "uint8", 5: "int16", 6: "int8",
               7: "string", 8: "complex64", 9: "int64", 10: "bool", 11: "qint8", 12: "quint8",
               13: "qint32", 14: "bfloat16", 15: "qint16", 16: "quint16", 17: "uint16",
               18: "complex128", 19: "half", 20: "resource", 21: "variant", 22: "uint32",
               23: "uint64", 24: "float8_e5m2", 25: "float8_e4m3fn", 26: "float8_e4m3fnuz",
               27: "float8_e4m3b11fnuz", 28: "float8_e5m2fnuz", 29: "int4", 30: "uint4",
               31: "int2", 32: "uint2"}


def _dtype_list(attr_value: bytes) -> list[str]:
    types: list[str] = []
    for f, _, v in _fields(attr_value):
        if f != 1 or not isinstance(v, bytes):  # AttrValue.list
            continue
        for lf, wt, lv in _fields(v):
            if lf != 6:  # ListValue.type
                continue
            if wt == 2 and isinstance(lv, bytes):
                j = 0
                while j < len(lv):
                    t, j = _varint(lv, j)
                    types.append(DTYPE_NAMES.get(t, str(t)))
            elif isinstance(lv, int):
                types.append(DTYPE_NAMES.get(lv, str(lv)))
    return types


class Tfe:
    def __init__(self, lib_path: Path) -> None:
        self.lib = ctypes.CDLL(str(lib_path))
        lib = self.lib
        lib.TF_NewStatus.restype = ctypes.c_void_p
        lib.TF_DeleteStatus.argtypes = [ctypes.c_void_p]
        lib.TF_NewBuffer.restype = ctypes.POINTER(_Buffer)
        lib.TF_DeleteBuffer.argtypes = [ctypes.POINTER(_Buffer)]
        lib.TFE_ListOpNames.argtypes = [ctypes.POINTER(_Buffer)]
        lib.TF_GetAllRegisteredKernels.argtypes = [ctypes.c_void_p]
        lib.TF_GetAllRegisteredKernels.restype = ctypes.POINTER(_Buffer)
        lib.TFE_GradientRegistryLookup.argtypes = [ctypes.c_char_p]
        lib.TFE_GradientRegistryLookup.restype = ctypes.c_int

    @staticmethod
    def _bytes(buf: ctypes._Pointer) -> bytes:  # type: ignore[type-arg]
        b = buf.contents
        return ctypes.string_at(b.data, b.length) if b.length else b""

    def op_names(self) -> set[str]:
        buf = self.lib.TF_NewBuffer()
        try:
            self.lib.TFE_ListOpNames(buf)
            return {x for x in self._bytes(buf).decode().split("\n") if x}
        finally:
            self.lib.TF_DeleteBuffer(buf)

    def cpu_kernels(self) -> dict[str, list[str]]:
        s = self.lib.TF_NewStatus()
        buf = self.lib.TF_GetAllRegisteredKernels(s)
        self.lib.TF_DeleteStatus(s)
        if not buf:
            raise RuntimeError("TF_GetAllRegisteredKernels failed")
        try:
            raw = self._bytes(buf)
        finally:
            self.lib.TF_DeleteBuffer(buf)
        out: dict[str, list[str]] = {}
        for f, _, kv in _fields(raw):
            if f != 1 or not isinstance(kv, bytes):
                continue
            op = dev = ""
            cons: list[str] = []
            for kf, _, v in _fields(kv):
                if kf == 1 and isinstance(v, bytes):
                    op = v.decode()
                elif kf == 2 and isinstance(v, bytes):
                    dev = v.decode()
                elif kf == 3 and isinstance(v, bytes):
                    cname, types = "", []
                    for cf, _, cv in _fields(v):
                        if cf == 1 and isinstance(cv, bytes):
                            cname = cv.decode()
                        elif cf == 2 and isinstance(cv, bytes):
                            types = _dtype_list(cv)
                    if types:
                        cons.append(f"{cname}={','.join(types)}")
            if dev == "CPU":
                out.setdefault(op, []).append(";".join(cons))
        return out

    def gradient(self, op: str) -> int:
        return int(self.lib.TFE_GradientRegistryLookup(op.encode()))


# ---- "tested against TF" ---------------------------------------------------


def recorded_files() -> list[Path]:
    files = sorted((ROOT / "tests").rglob("*_tf221.json"))
    files += sorted((ROOT / "tests" / "data" / "grad_cases").glob("*.json"))
    for p in sorted((ROOT / "tests" / "data").glob("*_cases.json")):
        if '"tf_version"' in p.read_text(errors="replace")[:4096]:
            files.append(p)
    return files


def tested_ops(names: set[str]) -> set[str]:
    words: set[str] = set()
    for p in recorded_files():
        words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", p.read_text(errors="replace")))
    return names & words


# ---- the document ----------------------------------------------------------


def render(lib_path: Path) -> str:
    tfe = Tfe(lib_path)
    ops = read_ops()
    modules = read_pairs(DATA / "tf221_op_modules.txt")
    tf_grads = read_pairs(DATA / "tf221_gradients.txt")
    tf_cpu = tf_cpu_kernels()
    defined = tfe.op_names()
    kernels = tfe.cpu_kernels()
    tested = tested_ops(set(ops))

    groups: dict[tuple[int, str], list[str]] = {}
    for op in ops:
        groups.setdefault(family(op, modules.get(op)), []).append(op)

    n_def = sum(1 for o in ops if o in defined)
    n_tf_cpu = sum(1 for o in ops if o in tf_cpu)
    n_cpu = sum(1 for o in ops if o in kernels)
    n_grad = sum(1 for o in ops if tfe.gradient(o) == 1)
    n_tested = len(tested)
    lines = [
        "# TensorFlow 2.21 ops in tfe",
        "",
        f"Generated by `{COMMAND}` from TF 2.21's registry (`data/tf221_*.txt`, recorded by",
        "`tools/dump_tf_ops.py`) and this build of libtfe.so. Do not edit by hand; CI checks",
        f"that it is current (`{COMMAND} --check`).",
        "",
        "Columns: **defined**: tfe's registry has the op (its definition equals TF's:",
        "`tests/c/test_internal_op_defs_tf.c`); **tfe CPU**: dtypes of tfe's CPU kernels (the",
        "first dtype constraint of each kernel; `any` = unconstrained); **TF CPU**: the same for",
        "TF 2.21;",
        "**grad**: tfe's gradient registry (`TFE_GradientRegistryLookup`: `yes`, `stop` = not",
        "differentiable) / TF's Python gradient registry; **tested**: the op is named in a test",
        "data file recorded from TF 2.21 (see the generator's docstring for exactly what counts).",
        "",
        f"Totals: {len(ops)} TF ops; {n_def} defined; {n_cpu} with a tfe CPU kernel (TF: "
        f"{n_tf_cpu}); {n_grad} with a tfe gradient; {n_tested} named in TF-recorded test data.",
        "",
        "## Families",
        "",
        "| family | ops | defined | tfe CPU | TF CPU | tfe grad | tested |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    order = sorted(groups, key=lambda k: (k[0], k[1]))
    for key in order:
        g = groups[key]
        lines.append(
            f"| [{key[1]}](#{anchor(key[1])}) | {len(g)} | {sum(o in defined for o in g)} | "
            f"{sum(o in kernels for o in g)} | {sum(o in tf_cpu for o in g)} | "
            f"{sum(tfe.gradient(o) == 1 for o in g)} | {sum(o in tested for o in g)} |")
    for key in order:
        lines += ["", f"## {key[1]}", "",
                  "| op | defined | tfe CPU | TF CPU | grad (tfe / TF) | tested |",
                  "|---|---|---|---|---|---|"]
        for op in groups[key]:
            g = tfe.gradient(op)
            mine = {1: "yes", 2: "stop"}.get(g, "-")
            theirs = {"grad": "yes", "not_differentiable": "stop"}.get(tf_grads.get(op, ""), "-")
            lines.append(
                f"| {op} | {'yes' if op in defined else '**no**'} | "
                f"{dtype_union(kernels[op]) if op in kernels else '-'} | "
                f"{dtype_union(tf_cpu[op]) if op in tf_cpu else '-'} | {mine} / {theirs} | "
                f"{'yes' if op in tested else '-'} |")
    return "\n".join(lines) + "\n"


def anchor(title: str) -> str:
    a = re.sub(r"[^a-z0-9 _-]", "", title.lower())
    return a.replace(" ", "-")


def default_lib() -> Path:
    for p in (ROOT / "build" / "libtfe.so", ROOT / "tfe_py" / "libtfe.so.0"):
        if p.exists():
            return p
    return ROOT / "build" / "libtfe.so"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lib", type=Path, default=None, help="libtfe.so to ask (default: build/)")
    p.add_argument("--out", type=Path, default=OUT)
    p.add_argument("--check", action="store_true", help="exit 1 if the file is not current")
    args = p.parse_args()
    text = render(args.lib or default_lib())
    if args.check:
        if not args.out.exists() or args.out.read_text() != text:
            print(f"{args.out.relative_to(ROOT)} is stale: run {COMMAND}", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
