"""tfe_py.context: context lifetime, the default context, device scopes."""

from __future__ import annotations

import gc
import threading

import numpy as np
import pytest

from tfe_py import errors, ops
from tfe_py.context import (
    PLACEMENT_POLICIES,
    Context,
    current_context,
    current_device,
    default_context,
)
from tfe_py.eager import constant

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
CPU1 = "/job:localhost/replica:0/task:0/device:CPU:1"


@pytest.fixture(autouse=True)
def _default_exists():
    # Create the default context up front so that live counts taken in a
    # test do not see it appear.
    default_context()


def test_close_frees_the_c_context_and_is_idempotent(live_count):
    before = live_count("CONTEXT")
    ctx = Context()
    assert live_count("CONTEXT") == before + 1
    assert not ctx.closed
    ctx.close()
    assert ctx.closed
    assert live_count("CONTEXT") == before
    ctx.close()  # again: no-op
    assert live_count("CONTEXT") == before
    with pytest.raises(ValueError, match="closed"):
        ctx.devices()


def test_with_block_makes_current_then_closes(live_count):
    before = live_count("CONTEXT")
    with Context() as ctx:
        assert current_context() is ctx
        assert live_count("CONTEXT") == before + 1
    assert ctx.closed
    assert current_context() is default_context()
    assert live_count("CONTEXT") == before


def test_entering_a_closed_context_fails():
    ctx = Context()
    ctx.close()
    with pytest.raises(ValueError, match="closed"), ctx:
        pass


def test_del_without_close_frees_it(live_count):
    before = live_count("CONTEXT")
    ctx = Context()
    cycle = [ctx]
    cycle.append(cycle)  # only the cyclic GC can free it
    del ctx, cycle
    gc.collect()
    assert live_count("CONTEXT") == before


def test_default_context_is_lazy_shared_and_recreated_after_close():
    d = default_context()
    assert d is default_context()
    assert current_context() is d
    assert isinstance(d, Context) and not d.closed
    d.close()
    d2 = default_context()
    assert d2 is not d and not d2.closed


def test_nested_scopes_restore_the_outer_context():
    with Context() as outer:
        with Context() as inner:
            assert current_context() is inner
        assert current_context() is outer
        with outer.as_default():
            assert current_context() is outer
        assert not outer.closed  # as_default does not close


def test_devices_lists_full_names():
    with Context() as ctx:
        names = ctx.devices()
    assert CPU0 in names
    assert all(n.startswith("/job:localhost/replica:0/task:0/device:") for n in names)


def test_logical_cpu_devices():
    with Context(num_cpu_devices=3) as ctx:
        names = ctx.devices()
        assert [n for n in names if "/device:CPU:" in n] == [
            CPU0,
            CPU1,
            "/job:localhost/replica:0/task:0/device:CPU:2",
        ]
    with pytest.raises(ValueError):
        Context(num_cpu_devices=0)


def test_device_scope_places_constants_and_ops():
    with Context(num_cpu_devices=2) as ctx:
        a = constant(np.float32(1.5))
        assert a.device.endswith("CPU:0")
        assert current_device() is None
        with ctx.device("CPU:1") as name:
            assert name == "CPU:1"
            assert current_device() == "CPU:1"
            b = constant(np.float32(2.5))
            assert b.device == CPU1
            assert b.backing_device == CPU1
            c = ops.AddV2(b, b)
            assert c.device == CPU1
            assert float(c) == 5.0
            with ctx.device(None):
                assert current_device() is None
            with ctx.device("/device:CPU:0"):
                d = ops.Mul(b, b)
                assert d.device == CPU0
        assert current_device() is None
        e = ops.Neg(b)
        # No scope: as in TF, the op runs on the first device of the best
        # kind (CPU:0), not on its input's device; the input is copied.
        assert e.device == CPU0
        assert float(e) == -2.5


def test_device_scope_is_per_thread():
    seen: list[str | None] = []
    with Context(num_cpu_devices=2) as ctx, ctx.device("CPU:1"):
        t = threading.Thread(target=lambda: seen.append(current_device()))
        t.start()
        t.join()
        assert current_device() == "CPU:1"
    assert seen == [None]


def test_unknown_device_in_scope_raises_an_op_error():
    with Context() as ctx, ctx.device("CPU:7"), pytest.raises(errors.OpError):
        constant(np.float32(1.0))


def test_placement_policy_option():
    for name, value in PLACEMENT_POLICIES.items():
        with Context(device_placement_policy=name) as ctx:
            assert ctx.device_placement_policy == name
        with Context(device_placement_policy=value) as ctx:
            assert ctx.device_placement_policy == name
    with pytest.raises(ValueError, match="placement policy"):
        Context(device_placement_policy="sometimes")


def test_async_context_runs_ops():
    with Context(async_=True) as ctx:
        assert ctx.is_async
        x = constant(np.arange(4, dtype=np.float32))
        y = ops.Mul(x, x)
        np.testing.assert_array_equal(y.numpy(), np.arange(4, dtype=np.float32) ** 2)


def test_ops_in_a_closed_current_context_raise():
    ctx = Context()
    with ctx.as_default():
        x = constant(np.float32(1.0))
        ctx.close()
        with pytest.raises(ValueError, match="context is closed"):
            ops.AddV2(x, x)


def test_tensor_keeps_a_closed_context_alive_until_it_goes(live_count):
    before = live_count("CONTEXT")
    ctx = Context()
    with ctx.as_default():
        x = ops.AddV2(constant(np.float32(1.0)), constant(np.float32(2.0)))
    ctx.close()  # the C core keeps it while x's handle lives
    assert float(x) == 3.0
    x.close()
    assert live_count("CONTEXT") == before


def test_tensor_holds_its_context_object(live_count):
    before = live_count("CONTEXT")
    ctx = Context()
    with ctx.as_default():
        x = ops.AddV2(constant(np.float32(1.0)), constant(np.float32(2.0)))
    assert x.context is ctx
    del ctx
    gc.collect()
    assert live_count("CONTEXT") == before + 1  # x still refers to it
    assert float(x) == 3.0
    x.close()  # drops the last reference: the context goes too
    gc.collect()
    assert live_count("CONTEXT") == before


def test_clear_caches_and_repr():
    with Context() as ctx:
        ctx.clear_caches()
        assert "devices" in repr(ctx)
    assert "closed" in repr(ctx)
