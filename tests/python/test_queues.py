"""Queues from Python: the generated wrappers of FIFOQueueV2 and friends,
eagerly and in a tfe_py.Session, across threads."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import tfe_py
from tfe_py import errors, ops


def test_eager_fifo_queue_order_and_close() -> None:
    q = ops.FIFOQueueV2(
        component_types=[tfe_py.int32, tfe_py.float32],
        shapes=[(), (2,)],
        capacity=4,
        shared_name="py_eager_q",
    )
    for i in range(3):
        ops.QueueEnqueueV2(q, [np.int32(i), np.array([i, i + 0.5], np.float32)])
    assert int(ops.QueueSizeV2(q).numpy()) == 3
    first = ops.QueueDequeueV2(q, component_types=[tfe_py.int32, tfe_py.float32])
    assert int(first[0].numpy()) == 0
    np.testing.assert_array_equal(first[1].numpy(), [0.0, 0.5])
    many = ops.QueueDequeueManyV2(q, 2, component_types=[tfe_py.int32, tfe_py.float32])
    np.testing.assert_array_equal(many[0].numpy(), [1, 2])
    assert many[1].numpy().shape == (2, 2)
    ops.QueueCloseV2(q)
    assert bool(ops.QueueIsClosedV2(q).numpy())
    with pytest.raises(errors.OutOfRangeError, match=r"is closed and has insufficient elements"):
        ops.QueueDequeueV2(q, component_types=[tfe_py.int32, tfe_py.float32])


def test_eager_blocking_dequeue_across_threads() -> None:
    q = ops.FIFOQueueV2(
        component_types=[tfe_py.int32], shapes=[()], capacity=1, shared_name="py_thread_q"
    )
    got: list[int] = []

    def consume() -> None:
        for _ in range(20):
            (v,) = ops.QueueDequeueV2(q, component_types=[tfe_py.int32])
            got.append(int(v.numpy()))

    t = threading.Thread(target=consume)
    t.start()
    for i in range(20):
        ops.QueueEnqueueV2(q, [np.int32(i)])  # blocks while the queue is full
    t.join(timeout=30)
    assert not t.is_alive()
    assert got == list(range(20))


def test_session_dequeue_fed_by_another_run_and_close_cancels() -> None:
    with tfe_py.Graph() as g:
        q = ops.FIFOQueueV2(component_types=[tfe_py.int32], shapes=[()], name="q")
        x = tfe_py.placeholder(tfe_py.int32, shape=(), name="x")
        enq = ops.QueueEnqueueV2(q, [x], name="enq")
        (deq,) = ops.QueueDequeueV2(q, component_types=[tfe_py.int32], name="deq")
    sess = tfe_py.Session(g)
    result: list[object] = []

    def dequeue() -> None:
        try:
            result.append(int(sess.run(deq)))
        except errors.OpError as e:  # the session closed under the run
            result.append(e)

    t = threading.Thread(target=dequeue)
    t.start()
    time.sleep(0.05)
    sess.run(enq, feed_dict={x: 41})
    t.join(timeout=30)
    assert result == [41]
    # A dequeue left waiting when the session closes ends CANCELLED.
    t = threading.Thread(target=dequeue)
    t.start()
    time.sleep(0.1)
    sess.close()
    t.join(timeout=30)
    assert not t.is_alive()
    assert isinstance(result[1], errors.CancelledError)
