"""tfe_py.parallel: the parallel device over logical CPUs, from Python."""

from __future__ import annotations

import gc
import threading

import numpy as np
import pytest

import tfe_py
from tfe_py import errors, ops
from tfe_py.context import Context, default_context
from tfe_py.custom_device import CustomDevice
from tfe_py.eager import constant

LOCAL = "/job:localhost/replica:0/task:0"


@pytest.fixture(autouse=True)
def _default_exists():
    default_context()
    yield
    # Tensors kept by exception tracebacks keep their (closed) contexts as
    # zombies until the cyclic GC runs: leave nothing for the next test.
    gc.collect()


def _model(x, w, b):
    return ops.Sum(ops.Relu(ops.BiasAdd(ops.MatMul(x, w), b)), 1)


@pytest.mark.parametrize("n", [2, 4])
def test_model_matches_cpu_per_component(n):
    rng = np.random.default_rng(n)
    w_v = rng.standard_normal((3, 4)).astype(np.float32)
    b_v = rng.standard_normal(4).astype(np.float32)
    xs = [rng.standard_normal((5, 3)).astype(np.float32) for _ in range(n)]
    components = [f"CPU:{i}" for i in range(n)]
    with Context(num_cpu_devices=n) as ctx:
        with tfe_py.parallel_device(components) as pd:
            assert pd.name == f"{LOCAL}/device:CUSTOM:0"
            assert pd.components == tuple(f"{LOCAL}/device:CPU:{i}" for i in range(n))
            x = pd.pack(xs)
            w = constant(w_v)  # inside the scope: broadcast to every component
            b = constant(b_v)
            assert x.device == pd.name and w.device == pd.name
            y = _model(x, w, b)
            assert y.device == pd.name and y.shape == (5,)
        parts = pd.unpack(y)
        assert [p.device for p in parts] == list(pd.components)
        for i, part in enumerate(parts):
            with ctx.device(f"CPU:{i}"):
                want = _model(constant(xs[i]), constant(w_v), constant(b_v))
            np.testing.assert_array_equal(part.numpy(), want.numpy())
        # And close to a numpy reference.
        for i, part in enumerate(parts):
            ref = np.maximum(xs[i] @ w_v + b_v, 0).sum(axis=1)
            np.testing.assert_allclose(part.numpy(), ref, rtol=1e-5, atol=1e-5)


def test_pack_unpack_device_ids_and_errors():
    with (
        Context(num_cpu_devices=3) as ctx,
        tfe_py.parallel_device(["CPU:0", "CPU:1", "CPU:2"]) as pd,
    ):
        p = pd.pack([1.0, 2.0, 3.0])
        assert p.dtype == np.float32 and p.shape == ()
        assert [t.numpy() for t in pd.unpack(p)] == [1.0, 2.0, 3.0]
        ids = pd.device_ids()
        assert ids.dtype == np.int64
        assert [int(t.numpy()) for t in pd.unpack(ids)] == [0, 1, 2]
        shifted = ops.AddV2(p, ops.Cast(ids, DstT="float32"))
        assert [float(t.numpy()) for t in pd.unpack(shifted)] == [1.0, 3.0, 5.0]
        # Reading a parallel tensor directly is refused (as in TF).
        with pytest.raises(errors.UnimplementedError, match="unpacked explicitly"):
            p.numpy()
        with pytest.raises(errors.InvalidArgumentError, match="expected 3 inputs"):
            pd.pack([1.0, 2.0])
        with pytest.raises(errors.InvalidArgumentError, match="parallel tensor"):
            with ctx.device(None):  # a plain host tensor
                pd.unpack(constant(1.0))
        # Inside the scope, constants are broadcast: unpacking them works.
        assert [float(t.numpy()) for t in pd.unpack(constant(4.0))] == [4.0] * 3
    assert ctx.closed


def test_unplaced_op_is_rejected_with_tfs_message():
    with Context(num_cpu_devices=2) as ctx:
        pd = tfe_py.parallel_device(["CPU:0", "CPU:1"])
        p = pd.pack([1.0, 2.0])
        with pytest.raises(errors.InternalError, match="Ops must be placed on the parallel device"):
            ops.Neg(p)
        with ctx.device(pd.name):
            q = ops.Neg(p)
        assert [float(t.numpy()) for t in pd.unpack(q)] == [-1.0, -2.0]


def test_failing_component_fails_the_op():
    with Context(num_cpu_devices=2) as ctx:
        pd = tfe_py.parallel_device(["CPU:0", "CPU:1"])
        good = np.ones((2, 3), np.float32)
        bad = np.ones((2, 2), np.float32)
        w = np.ones((3, 4), np.float32)
        with pytest.raises(errors.InvalidArgumentError) as direct:
            ops.MatMul(constant(bad), constant(w))
        x = pd.pack([good, bad])
        with pd, pytest.raises(errors.InvalidArgumentError) as parallel:
            ops.MatMul(x, constant(w))
        assert str(parallel.value) == str(direct.value)
        assert not ctx.closed


def test_python_custom_devices_as_components():
    """Each component is a Python device; the parallel device calls them
    from its worker threads (cffi takes the GIL for the callbacks)."""

    class Recorder(CustomDevice):
        def __init__(self) -> None:
            super().__init__()
            self.threads: set[int] = set()

        def execute(self, op, inputs):
            self.threads.add(threading.get_ident())
            return super().execute(op, inputs)

    with Context() as ctx:
        devs = [Recorder() for _ in range(3)]
        names = [ctx.register_custom_device(d, f"REC:{i}") for i, d in enumerate(devs)]
        pd = tfe_py.parallel_device(names)
        assert pd.name == f"{LOCAL}/device:CUSTOM:0"
        x = pd.pack([1.0, 2.0, 3.0])
        with pd:
            y = ops.Mul(x, x)
        parts = pd.unpack(y)
        assert [p.device for p in parts] == names
        assert [float(p.numpy()) for p in parts] == [1.0, 4.0, 9.0]
        main = threading.get_ident()
        workers = set()
        for d in devs:
            assert d.threads and main not in d.threads
            workers |= d.threads
        assert len(workers) == 3


def test_parallel_device_names_and_errors():
    with Context(num_cpu_devices=2) as ctx:
        first = tfe_py.ParallelDevice(["CPU:0", "CPU:1"])
        second = tfe_py.ParallelDevice(["CPU:1", "CPU:0"])
        assert first.name.endswith("CUSTOM:0") and second.name.endswith("CUSTOM:1")
        assert len(second) == 2 and list(second) == list(reversed(first.components))
        with pytest.raises(errors.AlreadyExistsError):
            tfe_py.ParallelDevice(["CPU:0"], name="CUSTOM:0")
        with pytest.raises(errors.InvalidArgumentError, match="at least one component"):
            tfe_py.ParallelDevice([])
        with pytest.raises(TypeError):
            tfe_py.ParallelDevice("CPU:0")
        assert "ParallelDevice" in repr(first)
        assert ctx.devices() == [f"{LOCAL}/device:CPU:0", f"{LOCAL}/device:CPU:1"]


def test_exception_in_a_python_component_fails_the_parallel_op(live_count):
    class Refuser(CustomDevice):
        def __init__(self, refuse: bool) -> None:
            super().__init__()
            self.refuse = refuse

        def execute(self, op, inputs):
            if self.refuse:
                raise ValueError(f"{self.name} refuses {op.name}")
            return super().execute(op, inputs)

    with Context() as ctx:
        devs = [Refuser(False), Refuser(True), Refuser(True)]
        names = [ctx.register_custom_device(d, f"REF:{i}") for i, d in enumerate(devs)]
        pd = tfe_py.parallel_device(names)
        x = pd.pack([1.0, 2.0, 3.0])
        handles = live_count("TENSOR_HANDLE")
        # Components 1 and 2 fail; the op fails with component 1's error.
        with pd, pytest.raises(errors.UnknownError, match=r"ValueError: .*REF:1 refuses Neg"):
            ops.Neg(x)
        assert live_count("TENSOR_HANDLE") == handles
        devs[1].refuse = devs[2].refuse = False
        with pd:
            y = ops.Neg(x)
        assert [float(t.numpy()) for t in pd.unpack(y)] == [-1.0, -2.0, -3.0]
