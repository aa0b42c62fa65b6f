"""Asynchronous execution from Python: async contexts, ctx.sync(),
ctx.executor(...), errors at the synchronization point, and the GIL being
released while C computes or waits."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from tfe_py import Context, constant, errors, ops
from tfe_py.executor import DEFAULT_IN_FLIGHT_LIMIT, Executor

# ConfigProto{intra_op_parallelism_threads: 1}: one thread per kernel, so
# each Python thread's MatMul keeps exactly one core busy.
ONE_THREAD_PER_OP = b"\x10\x01"


def bad_reshape(x):  # type: ignore[no-untyped-def]
    """A Reshape that is valid to queue and fails in its kernel."""
    return ops.Reshape(x, constant(np.array([4], dtype=np.int32)))


def test_async_context_chain_matches_sync() -> None:
    results = []
    for async_ in (False, True):
        with Context(async_=async_) as ctx:
            assert ctx.is_async == async_
            x = constant(np.array([0.0, 0.5, -3.0], dtype=np.float32))
            one = constant(np.ones(3, dtype=np.float32))
            for _ in range(2000):
                x = ops.AddV2(x, one)
            ctx.sync()
            results.append(x.numpy())
    np.testing.assert_array_equal(results[0], results[1])
    np.testing.assert_array_equal(results[1], [2000.0, 2000.5, 1997.0])


def test_async_error_surfaces_at_value_and_sync_then_clears() -> None:
    with Context(async_=True) as ctx:
        x = constant(np.arange(6, dtype=np.float32))
        bad = bad_reshape(x)  # queued: no error yet
        assert bad.dtype == "float32"
        with pytest.raises(errors.InvalidArgumentError):
            bad.numpy()
        with pytest.raises(errors.InvalidArgumentError, match="EagerExecutor"):
            ctx.sync()
        ctx.sync()  # cleared by the previous sync
        y = ops.AddV2(x, x)
        np.testing.assert_array_equal(y.numpy(), np.arange(6, dtype=np.float32) * 2)


def test_sync_context_raises_at_the_call() -> None:
    with Context() as ctx:
        x = constant(np.arange(6, dtype=np.float32))
        with pytest.raises(errors.InvalidArgumentError):
            bad_reshape(x)
        ctx.sync()  # nothing pending, no error


def test_executor_block_queues_and_raises_at_exit() -> None:
    with Context() as ctx:
        x = constant(np.arange(4, dtype=np.float32))
        with ctx.executor(async_=True, in_flight_limit=3) as ex:
            assert isinstance(ex, Executor)
            assert ex.is_async
            y = x
            for _ in range(100):
                y = ops.AddV2(y, x)
        np.testing.assert_array_equal(y.numpy(), np.arange(4, dtype=np.float32) * 101)
        # The failure of an op in the block is raised when the block ends.
        with pytest.raises(errors.InvalidArgumentError):
            with ctx.executor(async_=True):
                bad = bad_reshape(constant(np.arange(6, dtype=np.float32)))
        with pytest.raises(errors.InvalidArgumentError):
            bad.numpy()
        # Back on the synchronous default executor: errors at the call.
        with pytest.raises(errors.InvalidArgumentError):
            bad_reshape(constant(np.arange(6, dtype=np.float32)))


def test_executor_object_wait_clear_and_stats() -> None:
    with Context() as ctx:
        ex = Executor(async_=True, in_flight_limit=2)
        assert ex.stats()["in_flight_limit"] == 2
        x = constant(np.float32(1.0))
        with ctx.executor(async_=False) as sync_ex:
            assert not sync_ex.is_async
            assert sync_ex.stats()["is_async"] == 0
        ex.wait()
        ex.clear_error()
        st = ex.stats()
        assert st["nodes_enqueued"] == 0 and st["in_flight"] == 0
        ex.close()
        ex.close()
        assert ex.closed
        with pytest.raises(ValueError, match="closed"):
            ex.wait()
        assert float(ops.AddV2(x, x)) == 2.0
    with pytest.raises(ValueError):
        Executor(in_flight_limit=-1)
    assert DEFAULT_IN_FLIGHT_LIMIT == Executor().stats()["in_flight_limit"]


def test_queue_ahead_is_bounded() -> None:
    with Context() as ctx:
        m = constant(np.eye(64, dtype=np.float32))
        with ctx.executor(async_=True, in_flight_limit=4) as ex:
            y = m
            for _ in range(200):
                y = ops.MatMul(y, m)
            st = ex.stats()
            assert 1 <= st["in_flight_high_water"] <= 4
            assert st["nodes_enqueued"] == 200
        np.testing.assert_array_equal(y.numpy(), np.eye(64, dtype=np.float32))


def test_gil_is_released_while_c_computes() -> None:
    """A Python thread keeps running while another thread is inside a long
    C call (a big MatMul in a synchronous context), which is only possible
    when the call released the GIL."""
    n = 1024
    with Context(config=ONE_THREAD_PER_OP) as ctx, ctx.as_default():
        a = constant(np.full((n, n), 1.0 / n, dtype=np.float32))
        ops.MatMul(a, a).numpy()  # warm up (kernel cache)
        counter = [0]
        stop = threading.Event()

        def count() -> None:
            while not stop.is_set():
                counter[0] += 1

        t = threading.Thread(target=count)
        t.start()
        try:
            best = 0
            for _ in range(5):
                before = counter[0]
                t0 = time.perf_counter()
                ops.MatMul(a, a)  # computes inside this call
                elapsed = time.perf_counter() - t0
                best = max(best, counter[0] - before)
                if elapsed > 0.02 and best > 1000:
                    break
        finally:
            stop.set()
            t.join()
        # Held GIL: the counter could only move in the few switches around
        # the call; released: it runs for the whole call.
        assert best > 1000, f"the counter advanced {best} times during the C call"


def test_gil_is_released_while_c_waits() -> None:
    with Context(async_=True, config=ONE_THREAD_PER_OP) as ctx, ctx.as_default():
        n = 512
        a = constant(np.full((n, n), 1.0 / n, dtype=np.float32))
        y = a
        for _ in range(30):
            y = ops.MatMul(y, a)
        counter = [0]
        stop = threading.Event()

        def count() -> None:
            while not stop.is_set():
                counter[0] += 1

        t = threading.Thread(target=count)
        t.start()
        try:
            before = counter[0]
            ctx.sync()  # waits for ~30 MatMuls with the GIL released
            during = counter[0] - before
        finally:
            stop.set()
            t.join()
        assert during > 100, f"the counter advanced {during} times during sync()"
        assert np.isfinite(y.numpy()).all()


def test_two_python_threads_compute_concurrently() -> None:
    """Two threads each run Tanh over 1M floats; their C calls overlap.

    (Not MatMul: with a BLAS loaded the work moves to the BLAS's own
    threads, which the callers' CPU clocks do not see.)

    Each call's interval is measured in its thread, and the threads' CPU
    time is compared with the wall time: both can only exceed what one
    core gives if the calls ran at the same time. A busy machine may not
    offer a second core at a given moment, so the measurement is retried a
    few times; the GIL-release tests above are the deterministic part."""
    import os

    n = 1 << 20
    with Context(config=ONE_THREAD_PER_OP) as ctx:
        a = constant(np.linspace(-3.0, 3.0, n, dtype=np.float32))
        with ctx.as_default():
            ops.Tanh(a).numpy()

        def work(intervals: list[tuple[float, float]], cpu: list[float]) -> None:
            with ctx.as_default():
                c0 = time.thread_time()
                for _ in range(12):
                    t0 = time.perf_counter()
                    ops.Tanh(a)
                    intervals.append((t0, time.perf_counter()))
                cpu.append(time.thread_time() - c0)

        best_ratio = 0.0
        best_overlap = 0.0
        for _ in range(6):
            iv: list[list[tuple[float, float]]] = [[], []]
            cpu: list[list[float]] = [[], []]
            threads = [threading.Thread(target=work, args=(iv[i], cpu[i])) for i in range(2)]
            w0 = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.perf_counter() - w0
            overlap = sum(
                max(0.0, min(e1, e2) - max(s1, s2)) for s1, e1 in iv[0] for s2, e2 in iv[1]
            )
            ratio = (cpu[0][0] + cpu[1][0]) / wall
            best_ratio = max(best_ratio, ratio)
            best_overlap = max(best_overlap, overlap / wall)
            if ratio > 1.25 and overlap / wall > 0.25:
                return
        if (os.cpu_count() or 1) < 2:
            pytest.skip("one CPU: threads cannot compute at the same time")
        load = os.getloadavg()[0]
        if load > (os.cpu_count() or 1) - 0.5:
            pytest.skip(f"machine too busy to show concurrency (load {load:.1f})")
        raise AssertionError(
            f"no concurrent computation seen: best CPU/wall {best_ratio:.2f}, "
            f"best overlap {best_overlap:.2f} of the wall time"
        )
