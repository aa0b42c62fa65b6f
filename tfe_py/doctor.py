"""``python -m tfe_py doctor [PLUGIN.so ...]``: checks plugins for tfe.

Each plugin is loaded in a child process of its own (a plugin that crashes
cannot take the checker down; the report says in which stage it died).
The child loads the library as a PluggableDevice plugin, a filesystem
plugin or an op library, whichever entry point it has, and reports:

* what it registered: platform name and type, devices with their memory
  and attributes, optional StreamExecutor functions, kernels by op and
  dtype, ops, graph optimizer, profiler, filesystem schemes;
* contract checks, each violation naming the struct and field concerned
  (the loader's own checks, fill functions TensorFlow 2.21 requires,
  kernels for unknown ops or other device types, shape functions that
  disagree with their kernels, memory not returned to the plugin);
* smoke tests: tfe's stream-executor self-test per device (allocation and
  copy round trips, event and stream-dependency ordering, fills, host
  callbacks, timers), copies through the runtime, and every registered
  kernel run on random inputs and compared with tfe's CPU kernel.

The exit status is 0 when every plugin passed, 1 otherwise (2 for usage
errors). Without arguments the example plugins shipped in
``tfe_py/examples`` are built (once, into a cache directory) and checked.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

STAGE_PREFIX = "@@tfe-doctor-stage "
REPORT_PREFIX = "@@tfe-doctor-report "
EXAMPLES = ("example_device", "example_op_library")

# ----------------------------------------------------------------------------
# Example plugins


def _include_dir() -> Path | None:
    env = os.environ.get("TFE_INCLUDE_DIR")
    candidates = [Path(env)] if env else []
    here = Path(__file__).resolve().parent
    candidates += [here / "include", here.parent / "include"]
    for c in candidates:
        if (c / "tensorflow" / "c" / "kernels.h").is_file():
            return c
    return None


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
    their contents is kept next to each build). Raises RuntimeError when
    they cannot be built (no compiler, no headers)."""
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
    for name in EXAMPLES:
        src = src_dir / f"{name}.c"
        out = out_dir / f"lib{name}.so"
        stamp = out_dir / f"lib{name}.so.sha256"
        digest = _sources_digest([src, *headers])
        current = stamp.read_text().strip() if stamp.exists() else ""
        if not out.exists() or current != digest:
            tmp = out_dir / f".lib{name}.{os.getpid()}.so"
            cmd = [
                *shlex.split(os.environ.get("CC") or "cc"),
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
            proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
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
# The child: load one plugin and check it


class _Child:
    def __init__(self, path: str) -> None:
        self.path = path
        self.report: dict[str, Any] = {
            "path": path,
            "kind": None,
            "entry_points": [],
            "load_error": None,
            "platforms": [],
            "kernels": [],
            "ops": [],
            "schemes": [],
            "violations": [],
            "notes": [],
            "smoke": [],
        }

    # -- helpers ------------------------------------------------------------

    @staticmethod
    def stage(name: str) -> None:
        sys.stderr.write(f"{STAGE_PREFIX}{name}\n")
        sys.stderr.flush()

    def violation(self, where: str, message: str) -> None:
        first = message.strip().splitlines()[0] if message.strip() else message
        self.report["violations"].append({"where": where, "message": first})

    def smoke(self, name: str, status: str, detail: str = "") -> None:
        self.report["smoke"].append({"name": name, "status": status, "detail": detail})

    # -- loading ------------------------------------------------------------

    def load(self) -> bool:
        from tfe_py import _opgen, io, plugins
        from tfe_py.errors import NotFoundError, OpError

        ops_before = set(_opgen.list_op_names())
        kernels_before = {json.dumps(k, sort_keys=True) for k in plugins.describe_kernels()}
        schemes_before = set(io.get_registered_schemes())
        self.stage("load: SE_InitPlugin, TF_InitKernel, TF_InitGraph, TF_InitProfiler")
        try:
            try:
                plugins.load_pluggable_device(self.path)
                self.report["kind"] = "device"
            except NotFoundError as e:
                if "SE_InitPlugin" not in str(e):
                    raise
                self.stage("load: TF_InitPlugin (filesystem)")
                try:
                    io.register_filesystem_plugin(self.path)
                    self.report["kind"] = "filesystem"
                except NotFoundError as e2:
                    if "TF_InitPlugin" not in str(e2):
                        raise
                    self.stage("load: TF_LoadLibrary (ops and kernels)")
                    plugins.load_op_library(self.path)
                    self.report["kind"] = "ops"
        except OpError as e:
            self.report["load_error"] = f"{type(e).__name__}: {e}"
            self.violation("load", str(e))
            return False
        self.report["ops"] = sorted(set(_opgen.list_op_names()) - ops_before)
        self.report["kernels"] = [
            k
            for k in plugins.describe_kernels()
            if json.dumps(k, sort_keys=True) not in kernels_before
        ]
        self.report["schemes"] = sorted(set(io.get_registered_schemes()) - schemes_before)
        self.report["platforms"] = [
            p for p in plugins.describe_pluggable_devices() if p["path"] == self.path
        ]
        return True

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
            self.report["entry_points"] = entry
            for w in p["warnings"]:
                self.violation("loader", w)
            for struct, size in p["struct_sizes"].items():
                want = p["expected_struct_sizes"][struct]
                if size < want:
                    self.report["notes"].append(
                        f"{struct}.struct_size is {size}, TensorFlow 2.21's is {want}: an "
                        "older plugin; fields past its end count as NULL"
                    )
                elif size > want:
                    self.report["notes"].append(
                        f"{struct}.struct_size is {size}, TensorFlow 2.21's is {want}: a "
                        "newer plugin; the extra fields are ignored"
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
        for k in self.report["kernels"]:
            if k["op"] not in _opgen.list_op_names():
                self.violation(
                    "TF_RegisterKernelBuilder",
                    f"kernel for op {k['op']} ({k['device']}), which is not registered",
                )

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
                        self.violation("SP_StreamExecutor", f"{name}: {c['detail']}")
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
        for k in platform["kernels"]:
            if k["label"]:
                continue
            op_name = k["op"]
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

    def run(self) -> dict[str, Any]:
        if self.load():
            self.stage("contract checks")
            self.contracts()
            if self.report["kind"] == "device":
                self.device_smoke()
            if self.report["ops"]:
                self.op_smoke()
        self.stage("done")
        return self.report


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


def _child_main(path: str) -> int:
    report = _Child(path).run()
    sys.stdout.write(REPORT_PREFIX + json.dumps(report) + "\n")
    sys.stdout.flush()
    return 0


# ----------------------------------------------------------------------------
# The parent: run children, print reports


def check_plugin(path: str | os.PathLike[str], timeout: float = 300.0) -> dict[str, Any]:
    """Checks one plugin in a child process; returns its report (with
    "crash" set when the child died: the signal and the last stage)."""
    path = os.path.abspath(os.fspath(path))
    env = dict(os.environ)
    env["TFE_PLUGIN_AUTOLOAD"] = "0"
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    cmd = [sys.executable, "-m", "tfe_py.doctor", "--child", path]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
        stdout, stderr, code = proc.stdout, proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as e:
        stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        stderr = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        code = None
    stages = [ln[len(STAGE_PREFIX) :] for ln in stderr.splitlines() if ln.startswith(STAGE_PREFIX)]
    log = [ln for ln in stderr.splitlines() if not ln.startswith(STAGE_PREFIX)]
    for line in stdout.splitlines():
        if line.startswith(REPORT_PREFIX):
            report: dict[str, Any] = json.loads(line[len(REPORT_PREFIX) :])
            report["log"] = log
            return report
    report = {
        "path": path,
        "kind": None,
        "violations": [],
        "smoke": [],
        "notes": [],
        "log": log,
        "platforms": [],
        "kernels": [],
        "ops": [],
        "schemes": [],
    }
    last = stages[-1] if stages else "start-up"
    if code is None:
        why = f"timed out after {timeout:g} s"
    elif code < 0:
        try:
            why = f"crashed with {signal.Signals(-code).name}"
        except ValueError:
            why = f"crashed with signal {-code}"
    else:
        # Under AddressSanitizer a fault ends the child with an exit status
        # and a report instead of a signal.
        asan = re.search(r"ERROR: AddressSanitizer: (\w+)", stderr)
        if asan is not None and asan.group(1) == "SEGV":
            why = "crashed with SIGSEGV"
        elif asan is not None:
            why = f"crashed (AddressSanitizer: {asan.group(1)})"
        else:
            why = f"exited with status {code} without a report"
    report["crash"] = f"the plugin {why} during: {last}"
    report["violations"].append({"where": last.split(":")[0], "message": f"the plugin {why}"})
    return report


def _mib(n: int) -> str:
    return f"{n / (1 << 20):.1f} MiB" if n >= 0 else "unknown"


def format_report(r: dict[str, Any], verbose: bool = False) -> str:
    lines = [f"== {r['path']}"]
    kinds = {
        "device": "PluggableDevice plugin",
        "ops": "op and kernel library",
        "filesystem": "filesystem plugin",
    }
    if r.get("crash"):
        lines.append(f"  CRASH: {r['crash']}")
    elif r.get("load_error"):
        lines.append(f"  load failed: {r['load_error']}")
    else:
        entry = ", ".join(r.get("entry_points") or [])
        kind = kinds.get(r["kind"], r["kind"])
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
            lines.append(
                f"  graph optimizer for {g['device_type']}"
                + (f" ({cfg})" if cfg else "")
                + ": recorded, not run (tfe executes no graphs)"
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
    if r.get("ops"):
        lines.append(f"  ops defined: {', '.join(r['ops'])}")
    if r.get("schemes"):
        lines.append(f"  filesystem schemes: {', '.join(s or '(local)' for s in r['schemes'])}")
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
    violations = r.get("violations", [])
    if violations:
        lines.append(f"  contract violations: {len(violations)}")
        for v in violations:
            lines.append(f"    {v['where']}: {v['message']}")
    else:
        lines.append("  contract violations: none")
    lines.append(f"  result: {'PASS' if passed(r) else 'FAIL'}")
    return "\n".join(lines)


def passed(report: dict[str, Any]) -> bool:
    return not report.get("violations") and not report.get("crash")


def cmd_doctor(args: argparse.Namespace) -> int:
    import tfe_py
    from tfe_py._ffi import ffi, lib

    plugins = list(args.plugins)
    if not plugins:
        try:
            plugins = [str(p) for p in example_plugins()]
        except RuntimeError as e:
            sys.stderr.write(f"tfe doctor: {e}\n")
            return 2
    reports = [check_plugin(p, timeout=args.timeout) for p in plugins]
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
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) == 2 and argv[0] == "--child":
        return _child_main(argv[1])
    parser = argparse.ArgumentParser(prog="python -m tfe_py doctor")
    sub = parser.add_subparsers(dest="command")
    add_parser(sub)
    args = parser.parse_args(["doctor", *argv])
    return cmd_doctor(args)


if __name__ == "__main__":
    sys.exit(main())
