"""tfe_py.custom_device: custom devices written in Python (cffi extern
"Python" callbacks), including exceptions raised inside the callbacks."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import tfe_py
from tfe_py import errors, ops
from tfe_py._ffi import ffi, lib
from tfe_py.context import Context, default_context
from tfe_py.custom_device import (
    CustomDevice,
    full_device_name,
    register_custom_device,
    summarize,
)
from tfe_py.eager import constant

DEV = "/job:localhost/replica:0/task:0/device:CUSTOM:0"
DEV1 = "/job:localhost/replica:0/task:0/device:CUSTOM:1"
CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
CPU1 = "/job:localhost/replica:0/task:0/device:CPU:1"


@pytest.fixture(autouse=True)
def _default_exists():
    default_context()
    yield
    # Tensors kept by exception tracebacks keep their (closed) contexts as
    # zombies until the cyclic GC runs: leave nothing for the next test.
    gc.collect()


class Tracer(CustomDevice):
    """Records every callback, then does what the base class does."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[tuple] = []
        self.closes = 0

    def copy_to_device(self, tensor):
        self.log.append(("copy_to", tensor.device))
        return super().copy_to_device(tensor)

    def copy_from_device(self, tensor, target_device):
        self.log.append(("copy_from", target_device))
        return super().copy_from_device(tensor, target_device)

    def execute(self, op, inputs):
        where = ["here" if self.owns(t) else t.device for t in inputs]
        self.log.append(("execute", op.name, op.requested_device, where))
        return super().execute(op, inputs)

    def close(self) -> None:
        self.closes += 1


def test_full_device_name():
    assert full_device_name("CUSTOM:0") == DEV
    assert full_device_name("/device:CUSTOM:1") == DEV1
    assert full_device_name(DEV) == DEV
    assert full_device_name("garbage") == "garbage"


def test_tracer_sees_copies_and_ops(live_count):
    handles = live_count("TENSOR_HANDLE")
    ctx = Context(num_cpu_devices=2)
    tracer = Tracer()
    assert ctx.register_custom_device(tracer, "CUSTOM:0") == DEV
    assert tracer.registered and tracer.name == DEV and tracer.context is ctx
    assert bool(lib.TFE_IsCustomDevice(ctx.ptr, b"CUSTOM:0"))
    with ctx.as_default():
        x = constant(np.array([[1, 2], [3, 4]], np.float32))
        with ctx.device("CUSTOM:0"):
            xd = constant(np.array([[1, 2], [3, 4]], np.float32))  # copied here
            s = ops.AddV2(xd, xd)  # explicit placement (device scope)
            leaky = ops.LeakyRelu(-xd, alpha=0.25)  # attrs reach the device
        assert xd.device == DEV and s.device == DEV
        assert s.shape == (2, 2) and s.dtype == np.float32
        m = ops.Mul(s, x)  # implicit placement: an input is on the device
        assert m.device == DEV
        np.testing.assert_array_equal(m.numpy(), [[2, 8], [18, 32]])
        np.testing.assert_array_equal(leaky.numpy(), [[-0.25, -0.5], [-0.75, -1]])
        # An op placed on a physical device copies the input off first.
        with ctx.device("CPU:1"):
            n = ops.Neg(s)
        assert n.device == CPU1
        np.testing.assert_array_equal(n.numpy(), [[-2, -4], [-6, -8]])
    assert tracer.log == [
        ("copy_to", CPU0),
        # The op's device reads back in TF's canonical form.
        ("execute", "AddV2", "/device:CUSTOM:0", ["here", "here"]),
        ("execute", "Neg", "/device:CUSTOM:0", ["here"]),
        ("execute", "LeakyRelu", "/device:CUSTOM:0", ["here"]),
        ("execute", "Mul", "", ["here", CPU0]),
        ("copy_from", CPU0),
        ("copy_from", CPU0),
        ("copy_from", CPU1),
    ]
    for t in (x, xd, s, leaky, m, n):
        t.close()
    assert tracer.closes == 0
    ctx.close()
    assert tracer.closes == 1
    assert not tracer.registered
    gc.collect()
    assert live_count("TENSOR_HANDLE") == handles


def test_payloads_live_until_the_last_handle_goes():
    class Box:
        pass

    ctx = Context()
    dev = CustomDevice()
    register_custom_device(dev, "CUSTOM:0", ctx)
    box = Box()
    ref = weakref.ref(box)
    t = dev.wrap(box, dtype="int64", shape=(3, None), summary=lambda v: f"a {type(v).__name__}")
    del box
    assert t.device == DEV and t.dtype == np.int64
    assert t.shape == (3, None)  # an unknown dim (TFE_TensorHandleDim gives -1)
    assert summarize(t) == "a Box"
    assert dev.unwrap(t) is ref()
    # A shared copy keeps the payload; the last close releases it.
    h = lib.TFE_TensorHandleCopySharingTensor(t.handle, ffi.NULL)
    other = tfe_py.EagerTensor.from_handle(h, ctx)
    t.close()
    gc.collect()
    assert ref() is not None
    assert dev.unwrap(other) is ref()
    other.close()
    gc.collect()
    assert ref() is None
    # Wrapping needs a dtype and shape for non-tensors.
    with pytest.raises(ValueError, match="dtype and shape"):
        dev.wrap(object())
    with pytest.raises(ValueError, match="not on"):
        dev.unwrap(constant(1.0))
    ctx.close()


def test_registration_errors():
    ctx = Context(num_cpu_devices=2)
    first = Tracer()
    register_custom_device(first, "CUSTOM:0", ctx)
    with pytest.raises(ValueError, match="already registered"):
        register_custom_device(first, "CUSTOM:1", ctx)
    dup = Tracer()
    with pytest.raises(errors.AlreadyExistsError, match="custom device"):
        ctx.register_custom_device(dup, "CUSTOM:0")
    with pytest.raises(errors.AlreadyExistsError, match="physical device"):
        ctx.register_custom_device(dup, "CPU:1")
    with pytest.raises(errors.InvalidArgumentError, match="full"):
        ctx.register_custom_device(dup, "/job:localhost/device:CUSTOM:3")
    with pytest.raises(TypeError):
        register_custom_device(object(), "CUSTOM:5", ctx)  # type: ignore[arg-type]
    # A failed registration does not close the device, and it can try again.
    assert dup.closes == 0 and not dup.registered
    ctx.register_custom_device(dup, "CUSTOM:1")
    assert dup.registered
    ctx.close()
    assert first.closes == 1 and dup.closes == 1


class Failing(CustomDevice):
    """Raises whatever `exc` is set to from the chosen callback."""

    def __init__(self) -> None:
        super().__init__()
        self.exc: BaseException | None = None
        self.where = ""

    def _maybe_raise(self, where: str) -> None:
        if self.where == where and self.exc is not None:
            raise self.exc

    def copy_to_device(self, tensor):
        self._maybe_raise("copy_to")
        return super().copy_to_device(tensor)

    def copy_from_device(self, tensor, target_device):
        self._maybe_raise("copy_from")
        return super().copy_from_device(tensor, target_device)

    def execute(self, op, inputs):
        self._maybe_raise("execute")
        if self.where == "too_many":
            return super().execute(op, inputs) * 2
        if self.where == "not_a_tensor":
            return [np.zeros(2)]
        return super().execute(op, inputs)


@pytest.mark.parametrize(
    ("exc", "cls", "message"),
    [
        (ValueError("boom"), errors.UnknownError, "ValueError: boom"),
        (errors.InvalidArgumentError("bad input"), errors.InvalidArgumentError, "bad input"),
        (errors.DataLossError("lost"), errors.DataLossError, "lost"),
        (KeyboardInterrupt(), errors.UnknownError, "KeyboardInterrupt"),
    ],
)
@pytest.mark.parametrize("where", ["copy_to", "copy_from", "execute"])
def test_exceptions_in_callbacks_reach_the_caller(live_count, exc, cls, message, where):
    ctx = Context()
    dev = Failing()
    register_custom_device(dev, "CUSTOM:0", ctx)
    with ctx.as_default():
        with ctx.device("CUSTOM:0"):
            x = constant(np.arange(4, dtype=np.float32))
        handles = live_count("TENSOR_HANDLE")
        dev.exc, dev.where = exc, where
        with pytest.raises(cls, match=message):
            if where == "copy_to":
                with ctx.device("CUSTOM:0"):
                    constant(1.0)
            elif where == "copy_from":
                x.numpy()
            else:
                ops.Sqrt(x)
        gc.collect()
        assert live_count("TENSOR_HANDLE") == handles  # nothing leaked
        # The device still works afterwards.
        dev.exc = None
        np.testing.assert_allclose(ops.Sqrt(x).numpy(), np.sqrt(np.arange(4)))
        x.close()
    ctx.close()


@pytest.mark.parametrize(
    ("where", "cls", "message"),
    [
        ("too_many", errors.UnknownError, "room for 1"),
        ("not_a_tensor", errors.UnknownError, "TypeError: execute must return"),
    ],
)
def test_bad_execute_results(live_count, where, cls, message):
    ctx = Context()
    dev = Failing()
    register_custom_device(dev, "CUSTOM:0", ctx)
    with ctx.as_default():
        with ctx.device("CUSTOM:0"):
            x = constant(np.ones(2, np.float32))
        handles = live_count("TENSOR_HANDLE")
        dev.where = where
        with pytest.raises(cls, match=message):
            ops.Neg(x)
        gc.collect()
        assert live_count("TENSOR_HANDLE") == handles
        x.close()
    ctx.close()


def test_summarize_errors():
    ctx = Context()
    dev = CustomDevice()
    register_custom_device(dev, "CUSTOM:0", ctx)

    def broken(value):
        raise RuntimeError("cannot summarize")

    t = dev.wrap(1, dtype="int32", shape=(), summary=broken)
    with pytest.raises(errors.UnknownError, match="RuntimeError: cannot summarize"):
        summarize(t)
    plain = dev.wrap(2, dtype="int32", shape=())
    with pytest.raises(errors.UnimplementedError):
        summarize(plain)
    with pytest.raises(errors.InvalidArgumentError):
        summarize(constant(1))
    # Its value cannot be copied off: no EagerTensor inside.
    with pytest.raises(errors.UnimplementedError, match="override copy_from_device"):
        t.numpy()
    t.close()
    plain.close()
    ctx.close()


def test_shall_pin_to_this_device():
    class Pinner(Tracer):
        pin = False

        def shall_pin_to_this_device(self, op):
            self.log.append(("shall_pin", op.name))
            if self.pin == "raise":
                raise errors.FailedPreconditionError("undecided")
            return self.pin

    ctx = Context()
    dev = Pinner()
    register_custom_device(dev, "CUSTOM:0", ctx)
    with ctx.as_default():
        with ctx.device("CUSTOM:0"):
            x = constant(np.ones(2, np.float32))
        dev.log.clear()
        y = ops.Neg(x)  # "no": runs on the CPU after a copy off
        assert y.device == CPU0
        assert dev.log == [("shall_pin", "Neg"), ("copy_from", CPU0)]
        dev.pin = True
        dev.log.clear()
        with ctx.device("CPU:0"):
            z = ops.Neg(x)  # "yes" wins over the requested CPU
        assert z.device == DEV
        assert dev.log[0] == ("shall_pin", "Neg")
        assert dev.log[1][:3] == ("execute", "Neg", "/device:CPU:0")
        dev.pin = "raise"
        with pytest.raises(errors.FailedPreconditionError, match="undecided"):
            ops.Neg(x)
        for t in (x, y, z):
            t.close()
    ctx.close()


def test_pack_callback():
    class Packer(CustomDevice):
        def pack(self, tensors):
            self.packed = len(tensors)
            return tensors[0]

    ctx = Context()
    dev = Packer()
    register_custom_device(dev, "CUSTOM:0", ctx)
    with ctx.as_default():
        a = constant(1.0)
        with ctx.device("CUSTOM:0"):
            b = constant(2.0)
        handles = ffi.new("TFE_TensorHandle*[]", [a.handle, b.handle])
        n = ffi.new("int*", 2)
        s = lib.TF_NewStatus()
        h = lib.TFE_CreatePackedTensorHandle(ctx.ptr, handles, n, s)
        assert lib.TF_GetCode(s) == 0
        lib.TF_DeleteStatus(s)
        packed = tfe_py.EagerTensor.from_handle(h, ctx)
        assert dev.packed == 2 and packed.device == CPU0
        for t in (a, b, packed):
            t.close()
    ctx.close()


def test_device_object_outlives_nothing_it_should_not():
    ctx = Context()
    dev = Tracer()
    ref = weakref.ref(dev)
    register_custom_device(dev, "CUSTOM:0", ctx)
    del dev
    gc.collect()
    assert ref() is not None  # the C context holds it
    ctx.close()
    gc.collect()
    assert ref() is None
