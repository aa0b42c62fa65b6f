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
from tfe_py.eager import EagerTensor, constant

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


# -- collectives, no-sharing variables and nesting (TF's parallel-device tests)

_MERGES = {"Add": np.sum, "Mul": np.prod, "Min": np.min, "Max": np.max}


@pytest.mark.parametrize("merge", sorted(_MERGES))
@pytest.mark.parametrize("final", ["Id", "Div"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_all_reduce_every_merge_and_final_op(merge: str, final: str, dtype: type) -> None:
    vals = [np.array([1, -4, 7], dtype), np.array([2, 8, -3], dtype), np.array([6, 3, 5], dtype)]
    with Context(num_cpu_devices=3):
        pd = tfe_py.parallel_device(["CPU:0", "CPU:1", "CPU:2"])
        out = pd.all_reduce(pd.pack(vals), merge, final)
        want = _MERGES[merge](np.stack(vals), axis=0)
        if final == "Div":
            want = want / 3 if dtype == np.float32 else np.trunc(want / 3).astype(dtype)
        for part in pd.unpack(out):
            np.testing.assert_allclose(part.numpy(), want, rtol=1e-6)
            assert part.dtype == dtype


def test_collective_reduce_v1_as_tfs_test():
    with Context(num_cpu_devices=2) as ctx:
        pd = tfe_py.parallel_device(["CPU:0", "CPU:1"])
        with ctx.device(pd.name):
            r = ops.CollectiveReduce(
                pd.pack([1.0, 2.0]),
                group_size=2,
                group_key=0,
                instance_key=0,
                merge_op="Add",
                final_op="Id",
                subdiv_offsets=[],
            )
        assert [float(t.numpy()) for t in pd.unpack(r)] == [3.0, 3.0]


def test_all_gather_in_device_name_order():
    with Context(num_cpu_devices=2):
        pd = tfe_py.parallel_device(["CPU:1", "CPU:0"])  # component 0 on CPU:1
        x = pd.pack([np.array([[1.0, 2.0]], np.float32), np.array([[3.0, 4.0]], np.float32)])
        for part in pd.unpack(pd.all_gather(x)):
            np.testing.assert_array_equal(part.numpy(), [[3.0, 4.0], [1.0, 2.0]])


def test_broadcast_between_threads():
    with Context(num_cpu_devices=3) as ctx:
        got: dict[str, np.ndarray] = {}
        failures: list[BaseException] = []

        def member(device: str, send: bool) -> None:
            try:
                with ctx.device(device):
                    if send:
                        out = ops.CollectiveBcastSendV2(
                            constant(np.array([5.0, 6.0], np.float32)), 3, 42, 1
                        )
                    else:
                        out = ops.CollectiveBcastRecvV2(3, 42, 1, [2], T="float32")
                got[device] = out.numpy()
            except BaseException as e:
                failures.append(e)

        threads = [
            threading.Thread(target=member, args=(f"CPU:{i}", i == 1)) for i in range(3)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not failures
        assert len(got) == 3
        for v in got.values():
            np.testing.assert_array_equal(v, [5.0, 6.0])


def test_collective_errors_do_not_hang():
    with Context(num_cpu_devices=2):
        pd = tfe_py.parallel_device(["CPU:0", "CPU:1"])
        x = pd.pack([np.ones(2, np.float32), np.ones(3, np.float32)])
        with pytest.raises(errors.InvalidArgumentError, match="Shape mismatch"):
            pd.all_reduce(x, timeout=5.0)
        with pytest.raises(errors.DeadlineExceededError, match="timed out"):
            with pd:
                ops.CollectiveReduceV2(
                    constant(1.0), 3, 99, 1, [], merge_op="Add", final_op="Id", timeout_seconds=0.2
                )
        with pytest.raises(errors.InvalidArgumentError, match="merge_op"):
            pd.all_reduce(pd.pack([1.0, 2.0]), "Sum")


@pytest.mark.parametrize("components", [["CPU:0", "CPU:1"], ["CPU:0", "CPU:0"]])
def test_no_sharing_variables_one_per_component(components: list[str]) -> None:
    with Context(num_cpu_devices=2):
        pd = tfe_py.parallel_device(components)
        var = pd.variable(20.0)
        with pd:
            ops.AssignAddVariableOp(var, pd.pack([3.0, -2.0]))
            read = ops.ReadVariableOp(var, dtype="float32")
        assert [float(t.numpy()) for t in pd.unpack(read)] == [23.0, 18.0]
        assert [t.device for t in pd.unpack(read)] == list(pd.components)


def test_nested_parallel_devices_with_copies_in_and_out():
    with Context(num_cpu_devices=3):
        inner = tfe_py.parallel_device(["CPU:0", "CPU:1"])
        outer = tfe_py.parallel_device([inner.name, "CPU:2"])
        x = outer.pack([inner.pack([1.0, 2.0]), 3.0])
        with outer:
            y = ops.Mul(x, constant(3.0))  # the constant is copied in, twice
        a, b = outer.unpack(y)
        assert a.device == inner.name and float(b.numpy()) == 9.0
        assert [float(t.numpy()) for t in inner.unpack(a)] == [3.0, 6.0]
        with pytest.raises(errors.UnimplementedError):
            y.numpy()  # copying out of the outer device is refused
        with pytest.raises(errors.UnimplementedError):
            a.numpy()  # and out of the inner one
        # A collective over all three leaves (the inner device's two and CPU:2).
        with outer:
            r = ops.CollectiveReduceV2(x, 3, 7, 1, [], merge_op="Add", final_op="Id")
        a, b = outer.unpack(r)
        assert float(b.numpy()) == 6.0
        assert [float(t.numpy()) for t in inner.unpack(a)] == [6.0, 6.0]


def test_data_parallel_training_step_matches_single_device():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 3)).astype(np.float32)
    y = rng.standard_normal((8, 1)).astype(np.float32)
    w0 = rng.standard_normal((3, 1)).astype(np.float32)
    lr = np.float32(0.1)

    def grad(xs: EagerTensor, ws: EagerTensor, ys: EagerTensor, n: int) -> EagerTensor:
        err = ops.Sub(ops.MatMul(xs, ws), ys)
        return ops.Mul(ops.MatMul(xs, err, transpose_a=True), constant(np.float32(2.0 / n)))

    with Context(num_cpu_devices=2) as ctx:
        pd = tfe_py.parallel_device(["CPU:0", "CPU:1"])
        w = pd.variable(w0)
        xs, ys = pd.pack([x[:4], x[4:]]), pd.pack([y[:4], y[4:]])
        for _ in range(3):
            with pd:
                g = grad(xs, ops.ReadVariableOp(w, dtype="float32"), ys, 4)
            g = pd.all_reduce(g, "Add", "Div")
            with pd:
                ops.AssignSubVariableOp(w, ops.Mul(g, constant(lr)))
        # The same three steps on one device with the whole batch.
        with ctx.device("CPU:0"):
            w_ref = constant(w0)
            for _ in range(3):
                step = ops.Mul(grad(constant(x), w_ref, constant(y), 8), constant(lr))
                w_ref = ops.Sub(w_ref, step)
        with pd:
            final = ops.ReadVariableOp(w, dtype="float32")
        for part in pd.unpack(final):
            np.testing.assert_allclose(part.numpy(), w_ref.numpy(), rtol=1e-5, atol=1e-6)
        assert not np.allclose(w_ref.numpy(), w0)


def test_reduce_scatter_and_all_to_all():
    with Context(num_cpu_devices=2) as ctx:
        pd = tfe_py.parallel_device(["CPU:0", "CPU:1"])
        x = pd.pack([np.arange(4, dtype=np.float32), 10 * np.arange(4, dtype=np.float32)])
        with ctx.device(pd.name):
            rs = ops.CollectiveReduceScatterV2(x, 2, 77, 1, [], merge_op="Max", final_op="Id")
            a2a = ops.CollectiveAllToAllV2(x, 2, 77, 2, [])
        assert [t.numpy().tolist() for t in pd.unpack(rs)] == [[0.0, 10.0], [20.0, 30.0]]
        assert [t.numpy().tolist() for t in pd.unpack(a2a)] == [
            [0.0, 1.0, 0.0, 10.0],
            [2.0, 3.0, 20.0, 30.0],
        ]


def test_collective_assign_group_v2():
    with Context():
        assignment = np.array([[0, 1], [2, 3]], np.int32)
        size, key = ops.CollectiveAssignGroupV2(assignment, 2, 10)
        assert int(size.numpy()) == 2 and int(key.numpy()) == 11
        with pytest.raises(errors.InvalidArgumentError, match="not found in group_assignment"):
            ops.CollectiveAssignGroupV2(assignment, 7, 10)
        with pytest.raises(errors.InvalidArgumentError, match="reserved group_key = 0"):
            ops.CollectiveAssignGroupV2(assignment, 0, 0)


def test_all_reduce_over_custom_devices_forwarding_to_one_cpu():
    """Both components run their kernels on CPU:0; the parallel device's
    component tags keep them distinct members of the collective."""
    with Context() as ctx:
        names = [ctx.register_custom_device(CustomDevice(), f"FWD:{i}") for i in range(2)]
        pd = tfe_py.parallel_device(names)
        r = pd.all_reduce(pd.pack([1.0, 2.0]), "Add", "Div", timeout=10.0)
        assert [float(t.numpy()) for t in pd.unpack(r)] == [1.5, 1.5]
