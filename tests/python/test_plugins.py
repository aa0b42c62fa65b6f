"""tfe_py.plugins: device plugins, op libraries and automatic loading.

A device plugin stays loaded for the life of its process and gives every
later context its devices, so the tests that load one run in a child
process of their own (``run_child``); op libraries load in this process.
The plugins are compiled from tests/plugins/*.c by the build_test_plugin
fixture.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tfe_py
from tfe_py import errors, plugins

REPO = Path(__file__).resolve().parents[2]


def run_child(code: str, env: dict[str, str] | None = None) -> Any:
    """Runs `code` in a fresh interpreter; it must print one JSON value as
    its last line, which is returned. Fails the test on a non-zero exit."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = str(REPO) + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.setdefault("TFE_PLUGIN_AUTOLOAD", "0")
    full_env.update(env or {})
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, f"child failed ({proc.returncode}):\n{proc.stderr}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def device_plugin(build_test_plugin: Callable[[str], Path]) -> Path:
    return build_test_plugin("pd_test_device")


def test_model_on_the_device_matches_cpu(device_plugin: Path) -> None:
    result = run_child(
        f"""
        import json
        import numpy as np
        import tfe_py
        from tfe_py import ops, plugins

        lib = tfe_py.load_pluggable_device({str(device_plugin)!r})
        rng = np.random.default_rng(0)
        x = rng.standard_normal((4, 8)).astype(np.float32)
        w = rng.standard_normal((8, 5)).astype(np.float32)
        b = rng.standard_normal(5).astype(np.float32)

        def model(device):
            ctx = tfe_py.default_context()
            with ctx.device(device):
                h = ops.MatMul(x, w)
                h = ops.BiasAdd(h, b)
                h = ops.Relu(h)
                out = ops.Sum(h, np.int32(1))
            return out

        base = plugins.device_memory_stats("MY_DEVICE:0")["plugin_bytes_in_use"]
        dev = model("MY_DEVICE:0")
        cpu = model("CPU:0")
        expected = np.maximum(x @ w + b, 0).sum(axis=1)
        result = dict(
            kind=lib.kind,
            platform=lib.platforms[0]["name"],
            device=dev.device,
            close_to_cpu=bool(np.allclose(dev.numpy(), cpu.numpy(), rtol=1e-5)),
            close_to_numpy=bool(np.allclose(dev.numpy(), expected, rtol=1e-4, atol=1e-5)),
            physical=[d.name for d in tfe_py.list_physical_devices("MY_DEVICE")],
        )
        dev.close()
        cpu.close()
        plugins.release_cached_memory("MY_DEVICE:0")
        stats = plugins.device_memory_stats("MY_DEVICE:0")
        result["plugin_bytes_back_to_baseline"] = stats["plugin_bytes_in_use"] == base
        result["tfe_bytes_in_use"] = stats["bytes_in_use"]
        print(json.dumps(result))
        """
    )
    assert result["kind"] == "device"
    assert result["platform"] == "TFE_TEST_PLATFORM"
    assert result["device"] == "/job:localhost/replica:0/task:0/device:MY_DEVICE:0"
    assert result["close_to_cpu"] and result["close_to_numpy"]
    assert result["physical"] == [
        "/physical_device:MY_DEVICE:0",
        "/physical_device:MY_DEVICE:1",
    ]
    assert result["plugin_bytes_back_to_baseline"]
    assert result["tfe_bytes_in_use"] == 0


def test_copies_and_errors(device_plugin: Path) -> None:
    result = run_child(
        f"""
        import ctypes
        import json
        import os
        import numpy as np
        import tfe_py
        from tfe_py import errors, ops

        first = tfe_py.load_pluggable_device({str(device_plugin)!r})
        out = {{}}
        # Loading the same library again is OK (as TF means it to be) and
        # does not run SE_InitPlugin a second time.
        second = tfe_py.load_pluggable_device({str(device_plugin)!r})
        out["same_ops"] = first.ops == second.ops
        counter = ctypes.CDLL({str(device_plugin)!r}, mode=os.RTLD_NOLOAD).pd_test_counter
        counter.restype = ctypes.c_long
        counter.argtypes = [ctypes.c_char_p]
        out["inits"] = counter(b"inits")
        ctx = tfe_py.Context()
        data = np.arange(10, dtype=np.float32)
        with ctx.as_default(), ctx.device("MY_DEVICE:1"):
            t = tfe_py.constant(data)
        out["on"] = t.device
        out["back"] = t.cpu().numpy().tolist()
        out["numpy"] = t.numpy().tolist()
        with ctx.as_default(), ctx.device("MY_DEVICE:0"):
            try:
                ops.MatMul(np.ones((2, 3), np.float32), np.ones((2, 3), np.float32))
            except errors.InvalidArgumentError as e:
                out["kernel_error"] = str(e)
            try:
                ops.Sub(data, data)
            except errors.InvalidArgumentError as e:
                out["no_kernel"] = str(e).splitlines()[0]
        print(json.dumps(out))
        """
    )
    assert result["same_ops"] and result["inits"] == 1
    assert result["on"].endswith("device:MY_DEVICE:1")
    assert result["back"] == list(range(10)) and result["numpy"] == list(range(10))
    assert "Matrix size-incompatible" in result["kernel_error"]
    # As in TF: the explicit request cannot be satisfied (no soft placement).
    assert result["no_kernel"].startswith(
        "Could not satisfy device specification '/device:MY_DEVICE:0'"
    )


def test_unplaced_ops_are_placed_like_tensorflow(device_plugin: Path) -> None:
    result = run_child(
        f"""
        import json
        import numpy as np
        import tfe_py
        from tfe_py import ops

        tfe_py.load_pluggable_device({str(device_plugin)!r})
        ctx = tfe_py.Context()
        x = np.arange(4, dtype=np.float32)
        out = {{}}
        with ctx.as_default():
            added = ops.AddV2(x, x)  # the device has a float kernel
            diff = ops.Sub(x, np.ones(4, np.float32))  # it has no Sub kernel
            small = ops.AddV2(np.arange(3, dtype=np.int32), np.int32(1))
            big = ops.AddV2(np.arange(100, dtype=np.int32), np.int32(1))
            with ctx.device("CPU:0"):
                host = ops.AddV2(x, x)
        for name, t in dict(added=added, diff=diff, small=small, big=big, host=host).items():
            out[name] = [t.device.rsplit("device:", 1)[1], t.numpy().tolist()]
        print(json.dumps(out))
        """
    )
    assert result["added"] == ["MY_DEVICE:0", [0.0, 2.0, 4.0, 6.0]]
    assert result["diff"] == ["CPU:0", [-1.0, 0.0, 1.0, 2.0]]
    assert result["small"] == ["CPU:0", [1, 2, 3]]
    assert result["big"] == ["MY_DEVICE:0", list(range(1, 101))]
    assert result["host"] == ["CPU:0", [0.0, 2.0, 4.0, 6.0]]


BROKEN = [
    (
        "se_broken_no_allocate",
        errors.FailedPreconditionError,
        "device plugin '{path}': 'allocate' field in SP_StreamExecutor must be set.",
    ),
    (
        "se_broken_platform_size_zero",
        errors.FailedPreconditionError,
        "device plugin '{path}': struct_size field in SP_Platform must be set to "
        "SP_PLATFORM_STRUCT_SIZE.",
    ),
    (
        "se_broken_bad_type",
        errors.FailedPreconditionError,
        "device plugin '{path}': Device name/type 'GPU:1' must match [A-Z][A-Z_]*. "
        "(SP_Platform.type)",
    ),
    (
        "se_broken_major_version",
        errors.FailedPreconditionError,
        "device plugin '{path}' cannot be loaded: it implements the StreamExecutor C API "
        "version 1.0.1 and tfe implements 0.0.1 (the major versions differ)",
    ),
    ("se_broken_init_fails", errors.InternalError, "the broken plugin refuses to start"),
    (
        "se_broken_no_entry",
        errors.NotFoundError,
        "device plugin '{path}' does not export the entry point SE_InitPlugin",
    ),
    (
        "se_broken_dup_type_cpu",
        errors.AlreadyExistsError,
        "device plugin '{path}': device type CPU is already registered by another device kind",
    ),
]


@pytest.mark.parametrize(("plugin", "error", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_device_plugins_are_rejected(
    build_test_plugin: Callable[[str], Path],
    plugin: str,
    error: type[errors.OpError],
    message: str,
) -> None:
    path = build_test_plugin(plugin)
    with pytest.raises(error) as info:
        plugins.load_pluggable_device(path)
    assert str(info.value) == message.format(path=path)
    # Nothing was registered.
    assert all(p["path"] != str(path) for p in plugins.describe_pluggable_devices())
    assert not [d for d in tfe_py.list_physical_devices() if d.device_type == "BROKEN_DEVICE"]


def test_missing_library_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(errors.NotFoundError, match=r"nope\.so"):
        plugins.load_pluggable_device(tmp_path / "nope.so")
    with pytest.raises(errors.NotFoundError, match=r"nope\.so"):
        plugins.load_op_library(tmp_path / "nope.so")
    with pytest.raises(ValueError):
        plugins.load_op_library("")


def test_op_library_ops_are_callable(build_test_plugin: Callable[[str], Path]) -> None:
    path = build_test_plugin("op_lib_test")
    lib = tfe_py.load_op_library(path)
    assert lib.kind == "ops"
    assert lib.ops == ("TfeTestScaleAdd", "TfeTestRowSums")
    assert tfe_py.load_op_library(path).ops == lib.ops
    from tfe_py import ops

    out = ops.TfeTestScaleAdd(np.array([1.0, 2.0], np.float32), np.float32(1), scale=3.0)
    np.testing.assert_array_equal(out.numpy(), [4.0, 7.0])
    sums = ops.TfeTestRowSums(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(sums.numpy(), [3.0, 12.0])
    assert "TfeTestRowSums" in ops.list_ops()
    kernels = plugins.describe_kernels("CPU")
    assert any(k["op"] == "TfeTestScaleAdd" for k in kernels)


def test_plugins_load_on_first_context(
    device_plugin: Path, build_test_plugin: Callable[[str], Path], tmp_path: Path
) -> None:
    plugin_dir = tmp_path / "plugins"
    plugin_dir.mkdir()
    (plugin_dir / "libmy_device.so").symlink_to(device_plugin)
    (plugin_dir / "libbroken.so").symlink_to(build_test_plugin("se_broken_no_allocate"))
    (plugin_dir / "libops.so").symlink_to(build_test_plugin("op_lib_test"))
    (plugin_dir / "README.txt").write_text("not a plugin")
    result = run_child(
        """
        import json, warnings
        import tfe_py
        from tfe_py import plugins
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            before = len(plugins.autoload_report())
            ctx = tfe_py.Context()
        report = {p.rsplit("/", 1)[-1]: (r.kind if isinstance(r, plugins.LoadedPlugin)
                                         else type(r).__name__)
                  for p, r in plugins.autoload_report()}
        print(json.dumps(dict(
            before=before,
            report=report,
            warnings=[str(w.message) for w in caught
                      if issubclass(w.category, plugins.PluginLoadWarning)],
            devices=[d for d in ctx.devices() if "MY_DEVICE" in d],
            dirs=[str(d) for d in plugins.plugin_directories()],
        )))
        """,
        env={"TFE_PLUGIN_AUTOLOAD": "1", "TFE_PLUGIN_PATH": str(plugin_dir)},
    )
    assert result["before"] == 0
    assert result["report"] == {
        "libbroken.so": "FailedPreconditionError",
        "libmy_device.so": "device",
        "libops.so": "ops",
    }
    assert len(result["warnings"]) == 1 and "'allocate' field" in result["warnings"][0]
    assert len(result["devices"]) == 2
    assert result["dirs"][0].endswith("tfe_py-plugins") and result["dirs"][1] == str(plugin_dir)


def test_autoload_can_be_switched_off(device_plugin: Path, tmp_path: Path) -> None:
    (tmp_path / "libmy_device.so").symlink_to(device_plugin)
    result = run_child(
        """
        import json
        import tfe_py
        from tfe_py import plugins
        ctx = tfe_py.Context()
        print(json.dumps([len(plugins.autoload_report()), len(ctx.devices())]))
        """,
        env={"TFE_PLUGIN_AUTOLOAD": "0", "TFE_PLUGIN_PATH": str(tmp_path)},
    )
    assert result == [0, 1]


def test_describe_and_memory_helpers_reject_unknown_devices() -> None:
    with pytest.raises(errors.InvalidArgumentError):
        plugins.device_memory_stats("CPU:0")
    with pytest.raises(errors.InvalidArgumentError):
        plugins.release_cached_memory("NOPE:0")
    assert isinstance(plugins.describe_pluggable_devices(), list)
