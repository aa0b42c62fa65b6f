"""tf.nest, tf.debugging, tf.config, tf.errors and the framework functions
(tf.device, DeviceSpec, tf.print, name_scope, Assert, ...) against TF 2.21.

The expected values were recorded with TensorFlow by
tools/record_api_framework.py into tests/data/api_framework_tf221.json:
every case is a Python expression evaluated with ``tf`` bound to tfe_py
(its repr, or its exception type and message, must be TF's), every script
a small program run in a fresh interpreter whose stdout must be TF's.
TensorFlow is not needed to run these tests.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import errors
from tfe_py.context import Context, config_proto

ROOT = Path(__file__).resolve().parents[2]
DATA = json.loads((ROOT / "tests" / "data" / "api_framework_tf221.json").read_text())

# The names the recorded expressions use (the recorder's PRELUDE, stored
# with the data).
PRELUDE = DATA["prelude"]

def _namespace() -> dict[str, Any]:
    ns: dict[str, Any] = {"tf": tf}
    exec(PRELUDE, ns)  # the recorder's own helper definitions
    return ns


@pytest.mark.parametrize("name", sorted(DATA["cases"]))
def test_case_matches_tensorflow(name: str) -> None:
    case = DATA["cases"][name]
    ns = _namespace()
    if "error" in case:
        kind, message = case["error"]
        with pytest.raises(Exception) as info:
            eval(case["expr"], ns)
        assert type(info.value).__name__ == kind, str(info.value)
        if case["exact"]:
            assert str(info.value) == message
    else:
        assert repr(eval(case["expr"], ns)) == case["result"]


def _run_script(code: str) -> str:
    code = code.replace("import tensorflow as tf", "import tfe_py as tf")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("name", sorted(DATA["scripts"]))
def test_script_matches_tensorflow(name: str) -> None:
    script = DATA["scripts"][name]
    assert _run_script(script["code"]) == script["stdout"]


# -- behaviour that needs no recording --------------------------------------------


def test_print_goes_through_python_streams(capsys: pytest.CaptureFixture[str]) -> None:
    tf.print("x", tf.constant([1, 2]))
    tf.print("y", output_stream=sys.stdout, end="|")
    out, err = capsys.readouterr()
    assert err == "x [1 2]\n" and out == "y|"


def test_print_to_file_and_log(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    tf.print("a", tf.constant(1.5), output_stream=f"file://{path}")
    tf.print("b", output_stream=f"file://{path}")
    assert path.read_text() == "a 1.5\nb\n"
    import logging

    assert tf.print("to the log", output_stream=logging.INFO) is None


def test_device_scope_is_per_thread_and_restored() -> None:
    import threading

    from tfe_py.context import current_device

    seen: list[Any] = []
    with tf.device("CPU:0"):
        assert current_device() == "/job:localhost/replica:0/task:0/device:CPU:0"
        t = threading.Thread(target=lambda: seen.append(current_device()))
        t.start()
        t.join()
        with tf.device("/device:GPU:1"):
            assert current_device() == "/job:localhost/replica:0/task:0/device:GPU:1"
        with tf.device("job:localhost"):
            assert current_device() == "/job:localhost/replica:0/task:0/device:CPU:0"
    assert current_device() is None and seen == [None]


def test_device_in_a_context_with_two_cpus() -> None:
    with Context(num_cpu_devices=2), tf.device("CPU:1"):
        x = tf.constant([1.0]) * 2
        assert x.device.endswith("/device:CPU:1")
        with tf.device("/device:CPU:0"):
            assert (x + 1).device.endswith("/device:CPU:0")


def test_device_spec_parts_and_errors() -> None:
    spec = tf.DeviceSpec(job="w", replica="1", task=2, device_type="cpu", device_index="3")
    assert (spec.job, spec.replica, spec.task, spec.device_type, spec.device_index) == (
        "w", 1, 2, "CPU", 3,
    )
    assert spec.to_string() == "/job:w/replica:1/task:2/device:CPU:3"
    assert hash(spec) == hash(tf.DeviceSpec.from_string(spec.to_string()))
    assert spec.parse_from_string("GPU").to_string() == "/device:GPU:*"
    with pytest.raises(TypeError):
        spec.replace(colour="red")
    with pytest.raises(ValueError, match="Multiple device types"):
        tf.DeviceSpec.from_string("/device:CPU:0/GPU:1")


def test_name_scope_and_control_dependencies_in_a_graph() -> None:
    g = tf.Graph()
    with g.as_default():
        assert not tf.executing_eagerly()
        with tf.name_scope("outer") as scope:
            assert scope == "outer/"
            assert tf.get_current_name_scope() == "outer"
            c = tf.constant(1.0, name="c")
        assert c.name == "outer/c:0"
        with tf.control_dependencies([c]):
            op = tf.no_op(name="after")
        assert op.type == "NoOp"
        grouped = tf.group(c, c)
        assert grouped.type == "NoOp"
        ident = tf.tuple([c, None])
        assert ident[1] is None and ident[0].dtype == tf.float32
        assert tf.get_static_value(c) == 1.0
        assert tf.is_symbolic_tensor(c) and tf.is_tensor(c)
        with tf.init_scope():
            assert not tf.executing_eagerly()  # a plain graph stays the target
        check = tf.Assert(c > 0, ["x"])
        assert check.type == "Assert"
        assert tf.debugging.assert_less(c, 2.0).type == "Assert"
    assert tf.executing_eagerly()


def test_init_scope_leaves_a_function_trace() -> None:
    seen: dict[str, bool] = {}

    @tf.function
    def f(x: Any) -> Any:
        seen["inside"] = tf.inside_function()
        with tf.init_scope():
            seen["eager"] = tf.executing_eagerly()
            seen["inside_init"] = tf.inside_function()
        return x + 1

    assert float(f(tf.constant(1.0))) == 2.0
    assert seen == {"inside": True, "eager": True, "inside_init": False}


def test_errors_constructors_and_compat_forms() -> None:
    e = errors.InvalidArgumentError(None, None, "m", {"k": b"v"})
    assert (e.message, e.error_code) == ("m", errors.INVALID_ARGUMENT)
    assert e.experimental_payloads == {"k": b"v"}
    assert errors.InvalidArgumentError("short").message == "short"
    assert errors.OpError("legacy", errors.ABORTED).error_code == errors.ABORTED
    assert errors.OpError(None, None, "plain").error_code == errors.UNKNOWN
    assert errors.NotFoundError.error_code == errors.NOT_FOUND
    import pickle

    copy = pickle.loads(pickle.dumps(errors.error_for(77, "odd")))
    assert type(copy) is errors.UnknownError and copy.error_code == 77


def test_nest_attrs_classes() -> None:
    attr = pytest.importorskip("attr")

    @attr.s
    class Pair:
        b = attr.ib()
        a = attr.ib()

    p = Pair(1, [2, 3])
    assert tf.nest.flatten(p) == [1, 2, 3]
    doubled = tf.nest.map_structure(lambda v: v * 2, p)
    assert isinstance(doubled, Pair) and (doubled.b, doubled.a) == (2, [4, 6])


def test_debugging_flags_and_log_placement() -> None:
    tf.debugging.enable_check_numerics()
    tf.debugging.disable_check_numerics()
    tf.debugging.disable_traceback_filtering()
    assert not tf.debugging.is_traceback_filtering_enabled()
    tf.debugging.enable_traceback_filtering()
    assert tf.debugging.is_traceback_filtering_enabled()
    assert tf.debugging.Assert is tf.Assert
    assert tf.assert_equal is tf.debugging.assert_equal


def test_run_functions_eagerly_is_refused() -> None:
    tf.config.run_functions_eagerly(False)
    with pytest.raises(NotImplementedError, match="always traces"):
        tf.config.run_functions_eagerly(True)


def test_missing_pieces_say_so() -> None:
    with pytest.raises(NotImplementedError, match="registry"):
        tf.register_tensor_conversion_function(int, lambda v, dtype=None, name=None: v)
    assert tf.get_logger().name == "tfe_py"


def test_raw_ops_keywords_and_dlpack() -> None:
    r = tf.raw_ops.AddV2(x=tf.constant(1.0), y=tf.constant(2.0))
    assert float(r) == 3.0
    assert tf.raw_ops.MatMul(a=[[1.0, 2.0]], b=[[3.0], [4.0]]).numpy().tolist() == [[11.0]]
    t = tf.experimental.dlpack.from_dlpack(np.arange(3.0))
    assert t.dtype == tf.float64 and t.numpy().tolist() == [0.0, 1.0, 2.0]
    back = tf.experimental.dlpack.from_dlpack(tf.experimental.dlpack.to_dlpack(tf.constant([1.5])))
    assert back.numpy().tolist() == [1.5]


# -- Context options (§4) ----------------------------------------------------------


def test_config_proto_encoding() -> None:
    assert config_proto() == b""
    assert config_proto(soft_device_placement=True) == b"\x38\x01"
    assert config_proto(log_device_placement=False) == b"\x40\x00"
    assert config_proto(intra_op_parallelism_threads=2, inter_op_parallelism_threads=300) == (
        b"\x10\x02\x28\xac\x02"
    )
    assert config_proto(cpu_device_count=3) == b"\x0a\x07\x0a\x03CPU\x10\x03"
    # negative int32 values take ten bytes, as protobuf writes them
    assert config_proto(inter_op_parallelism_threads=-1) == b"\x28" + b"\xff" * 9 + b"\x01"


def test_context_keyword_options() -> None:
    ctx = Context(
        soft_device_placement=True,
        log_device_placement=False,
        intra_op_parallelism_threads=2,
        inter_op_parallelism_threads=1,
        execution_mode="sync",
        device_placement_policy="explicit",
    )
    try:
        assert ctx.soft_device_placement and not ctx.log_device_placement
        assert (ctx.intra_op_parallelism_threads, ctx.inter_op_parallelism_threads) == (2, 1)
        assert ctx.execution_mode == "sync" and not ctx.is_async
        assert ctx.device_placement_policy == "explicit"
        with ctx.device("GPU:0"):
            assert (tf.constant(1.0) + 1).device.endswith("/device:CPU:0")
        ctx.soft_device_placement = False
        with ctx.device("GPU:0"), pytest.raises(errors.InvalidArgumentError):
            tf.constant(1.0) + 1
        ctx.log_device_placement = True
        assert ctx.log_device_placement
    finally:
        ctx.close()


def test_context_async_and_config_bytes() -> None:
    with Context(execution_mode="async") as ctx:
        assert ctx.is_async and ctx.execution_mode == "async"
        assert float(tf.constant(2.0) * 2) == 4.0
    with Context(async_=True, execution_mode=1) as ctx:
        assert ctx.is_async
    # a serialized ConfigProto: the keyword given as well wins
    with Context(config=config_proto(soft_device_placement=True)) as ctx:
        assert ctx.soft_device_placement
    soft = config_proto(soft_device_placement=True)
    with Context(config=soft, soft_device_placement=False) as ctx:
        assert not ctx.soft_device_placement
    with Context(config=config_proto(cpu_device_count=2)) as ctx:
        assert len(ctx.devices()) == 2 and ctx.num_cpu_devices == 2
    threads = config_proto(
        intra_op_parallelism_threads=3, inter_op_parallelism_threads=-1, log_device_placement=True
    )
    with Context(config=threads) as ctx:
        assert (ctx.intra_op_parallelism_threads, ctx.inter_op_parallelism_threads) == (3, -1)
        assert ctx.log_device_placement and not ctx.soft_device_placement
    with Context(num_cpu_devices=3) as ctx:
        assert ctx.num_cpu_devices == 3

    class Message:  # what a protobuf ConfigProto offers
        def SerializeToString(self) -> bytes:
            return config_proto(soft_device_placement=True, cpu_device_count=2)

    with Context(config=Message()) as ctx:
        assert ctx.soft_device_placement and ctx.num_cpu_devices == 2
    # TF's own Context spells the placement policy device_policy
    with Context(device_policy="explicit") as ctx:
        assert ctx.device_placement_policy == "explicit"
    with Context(device_policy=2, device_placement_policy="silent") as ctx:
        assert ctx.device_placement_policy == "silent"


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"execution_mode": "fast"}, ValueError),
        ({"execution_mode": 2}, ValueError),
        ({"async_": True, "execution_mode": "sync"}, ValueError),
        ({"intra_op_parallelism_threads": 1.5}, TypeError),
        ({"inter_op_parallelism_threads": True}, TypeError),
        ({"config": "not bytes"}, TypeError),
        ({"config": b"\xff"}, errors.InvalidArgumentError),
        ({"num_cpu_devices": 0}, ValueError),
        ({"device_placement_policy": "sometimes"}, ValueError),
        ({"soft_placement": True}, TypeError),
        ({"device_policy": "explicit", "device_placement_policy": "silent"}, ValueError),
        ({"device_policy": "never"}, ValueError),
    ],
)
def test_context_option_errors(kwargs: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        Context(**kwargs)


def test_default_context_uses_default_options() -> None:
    code = """
import tfe_py as tf
from tfe_py import context
print(context.default_context_exists(), tf.config.get_soft_device_placement())
tf.config.threading.set_intra_op_parallelism_threads(3)
ctx = context.default_context()
print(context.default_context_exists(), ctx.soft_device_placement, ctx.intra_op_parallelism_threads)
ctx.close()
print(context.default_context_exists(), context.default_context().intra_op_parallelism_threads)
"""
    assert _run_script(code) == "False True\nTrue True 3\nFalse 3\n"


def test_log_device_placement_logs_each_op() -> None:
    code = """
import tfe_py as tf
from tfe_py.context import Context
with Context(log_device_placement=True):
    tf.constant([1.0]) + 1
tf.debugging.set_log_device_placement(True)
tf.constant([1.0]) * 2
tf.debugging.set_log_device_placement(False)
tf.constant([1.0]) - 2
"""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    device = "/job:localhost/replica:0/task:0/device:CPU:0"
    assert f"Executing op AddV2 in device {device}" in proc.stderr
    assert f"Executing op Mul in device {device}" in proc.stderr
    assert "Executing op Sub" not in proc.stderr


def test_unsupported_cluster_and_dump_functions() -> None:
    with pytest.raises(NotImplementedError, match="distributed"):
        tf.config.experimental_connect_to_cluster(None)
    with pytest.raises(NotImplementedError, match="distributed"):
        tf.config.experimental_connect_to_host("localhost:1234")
    with pytest.raises(NotImplementedError, match="distributed"):
        tf.config.experimental.ClusterDeviceFilters()
    with pytest.raises(NotImplementedError, match="tfdbg2"):
        tf.debugging.experimental.enable_dump_debug_info("/tmp/x")
    tf.debugging.experimental.disable_dump_debug_info()
    tf.config.experimental.enable_mlir_bridge()
    tf.config.experimental.disable_mlir_bridge()
    with pytest.raises(ValueError, match="Allocator stats"):
        tf.config.experimental.get_memory_usage("CPU:0")
    with pytest.raises(ValueError, match="Allocator stats"):
        tf.config.experimental.reset_memory_stats("CPU:0")


def test_print_raw_bytes_and_structures(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    # Strings are written as their bytes, UTF-8 or not, as TF writes them.
    tf.print(tf.constant([b"\xff"]), {"k": (tf.constant(1), "v")}, output_stream=sys.stdout)
    assert capfdbinary.readouterr().out == b'["\xff"] {\'k\': (1, \'v\')}\n'


def test_tensor_proto_round_trips_through_the_wire_format() -> None:
    from tfe_py._tensor_proto import TensorProto

    for value in ([1.5, -2.0], [[1, 2], [3, 4]], 7, ["a", "bc"], [True, False], [1 + 2j],
                  np.array([1, 2], np.uint64), np.array([-5], np.int64)):
        proto = tf.make_tensor_proto(value)
        back = TensorProto.FromString(proto.SerializeToString())
        assert back == proto and str(back) == str(proto)
        np.testing.assert_array_equal(tf.make_ndarray(back), tf.make_ndarray(proto))
    assert tf.make_tensor_proto(proto) is proto
    with pytest.raises(ValueError, match="malformed"):
        TensorProto.FromString(b"\x08")
    with pytest.raises(ValueError, match="malformed"):
        TensorProto.FromString(b"\x12\x05\x00")


def test_config_with_a_pluggable_device(build_test_plugin: Any) -> None:
    plugin = build_test_plugin("pd_test_device")
    code = f"""
import tfe_py as tf
tf.load_pluggable_device({str(plugin)!r})
print(sorted(d.device_type for d in tf.config.list_physical_devices()))
print(tf.config.list_physical_devices("MY_DEVICE")[0])
print(tf.DeviceSpec.from_string("MY_DEVICE:1").to_string())
try:
    tf.config.set_visible_devices(tf.config.list_physical_devices("CPU"))
except NotImplementedError as e:
    print("NotImplementedError")
try:
    tf.config.experimental.get_memory_growth(tf.config.list_physical_devices("CPU")[0])
except KeyError:
    print("KeyError")
with tf.device("MY_DEVICE:1"):
    x = tf.constant([1.0, 2.0])
print(x.device)
print([d.name for d in tf.config.list_logical_devices("MY_DEVICE")])
"""
    env = dict(os.environ, TFE_PLUGIN_AUTOLOAD="0")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "['CPU', 'MY_DEVICE', 'MY_DEVICE']",
        "PhysicalDevice(name='/physical_device:MY_DEVICE:0', device_type='MY_DEVICE')",
        "/device:MY_DEVICE:1",
        "NotImplementedError",
        "KeyError",
        "/job:localhost/replica:0/task:0/device:MY_DEVICE:1",
        "['/device:MY_DEVICE:0', '/device:MY_DEVICE:1']",
    ]


def test_signatures_match_tensorflow() -> None:
    spec = importlib.util.spec_from_file_location(
        "record_api_framework", ROOT / "tools" / "record_api_framework.py"
    )
    assert spec is not None and spec.loader is not None
    recorder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(recorder)
    ours = recorder.signatures(tf)
    theirs = DATA["signatures"]
    assert len(theirs) > 90
    for name, params in theirs.items():
        assert ours.get(name) == params, name
