"""tfe_py.Session: TF1's fetch and feed structures over TF_SessionRun."""

from __future__ import annotations

import collections
import gc
import threading
import weakref
from typing import Any

import numpy as np
import pytest

import tfe_py
from tfe_py import errors, ops


@pytest.fixture
def graph() -> tfe_py.Graph:
    with tfe_py.Graph() as g:
        x = tfe_py.placeholder(tfe_py.float32, shape=(None,), name="x")
        y = ops.Mul(x, 2.0, name="y")
        ops.AddV2(y, 1.0, name="z")
        ops.NoOp(name="noop")
    return g


def test_single_fetch_and_feed(graph: tfe_py.Graph) -> None:
    x = graph.get_tensor_by_name("x:0")
    z = graph.get_tensor_by_name("z:0")
    with tfe_py.Session(graph) as sess:
        out = sess.run(z, feed_dict={x: [1.0, 2.0, 3.0]})
    assert isinstance(out, np.ndarray) and out.dtype == np.float32
    np.testing.assert_array_equal(out, [3.0, 5.0, 7.0])
    assert out.flags.writeable  # results belong to the caller
    out[0] = 0.0


def test_fetch_structures(graph: tfe_py.Graph) -> None:
    x = graph.get_tensor_by_name("x:0")
    y = graph.get_tensor_by_name("y:0")
    z = graph.get_tensor_by_name("z:0")
    noop = graph.get_operation_by_name("noop")
    pair = collections.namedtuple("pair", ["a", "b"])
    feed = {x: np.array([1.0], np.float32)}
    with tfe_py.Session(graph) as sess:
        as_list = sess.run([y, z], feed)
        as_tuple = sess.run((y, noop), feed)
        as_dict = sess.run({"y": y, "nested": [z, (y,)]}, feed)
        as_nt = sess.run(pair(a=y, b="z:0"), feed)
        op_only = sess.run(noop)
        by_name = sess.run("z:0", {"x:0": [2.0]})
    assert isinstance(as_list, list) and [float(v[0]) for v in as_list] == [2.0, 3.0]
    assert isinstance(as_tuple, tuple) and as_tuple[1] is None
    assert float(as_dict["y"][0]) == 2.0
    assert float(as_dict["nested"][0][0]) == 3.0
    assert isinstance(as_dict["nested"][1], tuple)
    assert isinstance(as_nt, pair) and float(as_nt.b[0]) == 3.0
    assert op_only is None
    np.testing.assert_array_equal(by_name, [5.0])


def test_same_tensor_fetched_twice(graph: tfe_py.Graph) -> None:
    y = graph.get_tensor_by_name("y:0")
    with tfe_py.Session(graph) as sess:
        a, b = sess.run([y, y], {"x:0": [1.0]})
    np.testing.assert_array_equal(a, b)


def test_scalars_come_back_as_numpy_scalars() -> None:
    with tfe_py.Graph() as g:
        a = tfe_py.constant(3)
        s = tfe_py.constant(b"hi")
        v = tfe_py.constant(["a", "bc"])
    with tfe_py.Session(g) as sess:
        ra, rs, rv = sess.run([a, s, v])
    assert isinstance(ra, np.int32) and ra == 3
    assert rs == b"hi"
    assert rv.dtype == object and list(rv) == [b"a", b"bc"]


def test_feeding_any_tensor_not_only_placeholders(graph: tfe_py.Graph) -> None:
    with tfe_py.Session(graph) as sess:
        out = sess.run("z:0", feed_dict={"y:0": [10.0]})
    np.testing.assert_array_equal(out, [11.0])


def test_missing_feed_is_invalid_argument(graph: tfe_py.Graph) -> None:
    with tfe_py.Session(graph) as sess, pytest.raises(errors.InvalidArgumentError):
        sess.run("z:0")


def test_feed_errors(graph: tfe_py.Graph) -> None:
    x = graph.get_tensor_by_name("x:0")
    with tfe_py.Session(graph) as sess:
        with pytest.raises(ValueError, match="Cannot feed value of shape"):
            sess.run("z:0", {x: [[1.0]]})
        with pytest.raises(TypeError, match="feed_dict key"):
            sess.run("z:0", {"x": [1.0]})  # an operation name, not a tensor
        with pytest.raises(TypeError):
            sess.run("z:0", {x: graph.get_tensor_by_name("y:0")})
        with pytest.raises(TypeError):
            sess.run("z:0", {x: 2**40 + 1})  # does not fit float32 exactly


def test_fetch_errors(graph: tfe_py.Graph) -> None:
    with tfe_py.Session(graph) as sess:
        with pytest.raises(TypeError):
            sess.run(None)
        with pytest.raises(TypeError):
            sess.run(3)
        with pytest.raises(ValueError):
            sess.run("nope:0")
        with tfe_py.Graph():
            other = tfe_py.placeholder(tfe_py.float32)
        with pytest.raises(ValueError):
            sess.run(other)


def test_kernel_error_is_tf_error() -> None:
    with tfe_py.Graph() as g:
        a = tfe_py.placeholder(tfe_py.int32)
        b = ops.Reshape(a, [5])
    with tfe_py.Session(g) as sess:
        with pytest.raises(errors.InvalidArgumentError):
            sess.run(b, {a: [1, 2, 3]})
        # the session is still usable after a failed run
        np.testing.assert_array_equal(sess.run(b, {a: [1, 2, 3, 4, 5]}), [1, 2, 3, 4, 5])


def test_closed_session() -> None:
    with tfe_py.Graph() as g:
        c = tfe_py.constant(1.0)
    sess = tfe_py.Session(g)
    sess.close()
    sess.close()
    assert sess.closed
    with pytest.raises(RuntimeError, match="closed Session"):
        sess.run(c)


def test_context_manager_makes_graph_default_and_closes() -> None:
    g = tfe_py.Graph()
    with tfe_py.Session(g) as sess:
        c = tfe_py.constant(2.0)
        assert c.graph is g
        assert float(sess.run(c)) == 2.0
    assert sess.closed
    assert tfe_py.get_default_graph() is None


def test_finalizer_frees_the_session(live_count) -> None:  # type: ignore[no-untyped-def]
    with tfe_py.Graph() as g:
        c = tfe_py.constant(1.0)
    sess = tfe_py.Session(g)
    sess.run(c)
    del sess
    gc.collect()
    before = (live_count("STATUS"), live_count("TENSOR"), live_count("BUFFER"))
    for _ in range(3):
        sess = tfe_py.Session(g)
        value = sess.run(c)
        assert float(value) == 1.0
        ref = weakref.ref(sess)
        del sess, value
        gc.collect()
        assert ref() is None
    assert (live_count("STATUS"), live_count("TENSOR"), live_count("BUFFER")) == before


def test_default_graph_session() -> None:
    with tfe_py.Graph() as g:
        c = tfe_py.constant(4)
        sess = tfe_py.Session()
    assert sess.graph is g
    assert sess.run(c) == 4
    sess.close()


def test_graph_grows_between_runs() -> None:
    with tfe_py.Graph() as g:
        a = tfe_py.constant(1.0)
    with tfe_py.Session(g) as sess:
        assert float(sess.run(a)) == 1.0
        with g:
            b = a + 1.0
        assert float(sess.run(b)) == 2.0


def test_run_options_and_metadata(graph: tfe_py.Graph) -> None:
    meta = bytearray(b"old")
    with tfe_py.Session(graph) as sess:
        out = sess.run("y:0", {"x:0": [1.0]}, options=b"", run_metadata=meta)
    np.testing.assert_array_equal(out, [2.0])
    assert meta != bytearray(b"old")


def test_list_devices(graph: tfe_py.Graph) -> None:
    with tfe_py.Session(graph) as sess:
        devices = sess.list_devices()
    assert any(d.device_type == "CPU" for d in devices)
    assert devices[0].name.startswith("/job:localhost/replica:0/task:0/device:")


def test_config_bytes(graph: tfe_py.Graph) -> None:
    # ConfigProto with inter_op_parallelism_threads (field 5) = 2
    with tfe_py.Session(graph, config=b"\x28\x02") as sess:
        np.testing.assert_array_equal(sess.run("y:0", {"x:0": [1.0]}), [2.0])
    with pytest.raises(errors.InvalidArgumentError):
        tfe_py.Session(graph, config=b"\xff\xff")


def test_partial_run() -> None:
    with tfe_py.Graph() as g:
        a = tfe_py.placeholder(tfe_py.float32, shape=(), name="a")
        b = tfe_py.placeholder(tfe_py.float32, shape=(), name="b")
        c = tfe_py.placeholder(tfe_py.float32, shape=(), name="c")
        r1 = ops.AddV2(a, b)
        r2 = ops.Mul(r1, c)
    with tfe_py.Session(g) as sess:
        h = sess.partial_run_setup([r1, r2], [a, b, c])
        res = sess.partial_run(h, r1, feed_dict={a: 1.0, b: 2.0})
        assert float(res) == 3.0
        res = sess.partial_run(h, r2, feed_dict={c: res})
        assert float(res) == 9.0
        with pytest.raises(errors.InvalidArgumentError):
            sess.partial_run("no-such-handle", r1)


def test_concurrent_runs_from_threads(graph: tfe_py.Graph) -> None:
    z = graph.get_tensor_by_name("z:0")
    x = graph.get_tensor_by_name("x:0")
    results: dict[int, float] = {}
    with tfe_py.Session(graph) as sess:

        def worker(i: int) -> None:
            results[i] = float(sess.run(z, {x: [float(i)]})[0])

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert results == {i: 2.0 * i + 1.0 for i in range(8)}


def test_resource_variables_persist_across_runs() -> None:
    with tfe_py.Graph() as g:
        v = ops.VarHandleOp(dtype=tfe_py.float32, shape=(), shared_name="v", name="v")
        init = ops.AssignVariableOp(v, 1.0, name="init")
        inc = ops.AssignAddVariableOp(v, 2.0)
        read = ops.ReadVariableOp(v, dtype=tfe_py.float32)
    with tfe_py.Session(g) as sess:
        assert sess.run(init) is None
        sess.run([inc, inc.name])  # one run: the op runs once
        sess.run(inc)
        assert float(sess.run(read)) == 5.0
    with tfe_py.Session(g) as other:  # a new session has its own variables
        with pytest.raises(errors.FailedPreconditionError):
            other.run(read)


def test_string_feeds_and_empty_fetches() -> None:
    with tfe_py.Graph() as g:
        s = tfe_py.placeholder(tfe_py.string, shape=(None,))
        joined = ops.StringJoin([s, s], separator="-")
    with tfe_py.Session(g) as sess:
        out = sess.run(joined, {s: ["a", b"bc"]})
        assert list(out) == [b"a-a", b"bc-bc"]
        with pytest.raises(TypeError):
            sess.run(joined, {s: [1, 2]})
        assert sess.run([]) == [] and sess.run({}) == {} and sess.run(()) == ()
        assert sess.run([[], {"k": ()}]) == [[], {"k": ()}]


def test_attr_errors_leave_no_nodes_behind() -> None:
    with tfe_py.Graph() as g:
        with pytest.raises(TypeError):
            ops.MatMul(1.0, 2.0, transpose_a="yes")
    assert g.operations == []


def test_default_session_eval_and_run() -> None:
    with tfe_py.Graph() as g:
        x = tfe_py.placeholder(tfe_py.float32, shape=())
        y = x * 3.0
        v = ops.VarHandleOp(dtype=tfe_py.float32, shape=(), shared_name="w")
        init = ops.AssignVariableOp(v, 7.0)
        read = ops.ReadVariableOp(v, dtype=tfe_py.float32)
    with pytest.raises(ValueError, match="No default session"):
        y.eval({x: 1.0})
    with tfe_py.Session(g) as sess:
        assert tfe_py.session.get_default_session() is sess
        assert float(y.eval({x: 2.0})) == 6.0
        init.run()
        assert float(read.eval()) == 7.0
    assert tfe_py.session.get_default_session() is None
    sess = tfe_py.Session(g)
    with sess.as_default():
        assert float(y.eval(feed_dict={x: 1.0})) == 3.0
    assert float(y.eval({x: 4.0}, session=sess)) == 12.0
    sess.close()
    with tfe_py.Graph() as other, tfe_py.Session(other), pytest.raises(ValueError):
        y.eval({x: 1.0})  # the default session runs another graph


def test_functions_in_session_graphs() -> None:
    from tfe_py.function import TensorSpec

    f32 = tfe_py.float32
    scalar = [TensorSpec([], f32)]
    double = tfe_py.function(lambda x: x * 2.0, input_signature=scalar)
    minus_one = tfe_py.function(lambda x: x - 1.0, input_signature=scalar)

    def pick(c, x):  # type: ignore[no-untyped-def]
        (y,) = ops.StatelessIf(c, [x], Tout=[f32], then_branch=double, else_branch=minus_one)
        return y

    picker = tfe_py.function(pick, input_signature=[TensorSpec([], tfe_py.bool), *scalar])
    with tfe_py.Graph() as g:
        c = tfe_py.placeholder(tfe_py.bool, shape=())
        (out,) = ops.StatelessIf(c, [3.0], Tout=[f32], then_branch=double, else_branch=minus_one)
        (call,) = ops.PartitionedCall([4.0], Tout=[f32], f=double)
        # picker's body names double and minus_one: they are copied along
        (nested,) = ops.StatefulPartitionedCall([c, 10.0], Tout=[f32], f=picker)
    with tfe_py.Session(g) as sess:
        assert sess.run([out, call, nested], {c: True}) == [6.0, 8.0, 20.0]
        assert sess.run([out, nested], {c: False}) == [2.0, 9.0]


def test_graph_def_with_functions_round_trip() -> None:
    with tfe_py.Graph() as g:
        x = tfe_py.placeholder(tfe_py.float32, shape=(), name="x")
        y = tfe_py.cond(x > 1.0, lambda: x * 2.0, lambda: x + 1.0, name="y")
    assert y.name == "y:0"
    g2 = tfe_py.Graph()
    (out,) = g2.import_graph_def(g.as_graph_def(), name="", return_elements=["y:0"])
    with tfe_py.Session(g2) as sess:
        assert sess.run(out, {"x:0": 3.0}) == 6.0
        assert sess.run(out, {"x:0": 0.0}) == 1.0


def test_feed_shape_check_follows_set_shape() -> None:
    with tfe_py.Graph() as g:
        x = tfe_py.placeholder(tfe_py.float32)
        y = ops.Identity(x)
    with tfe_py.Session(g) as sess:
        np.testing.assert_array_equal(sess.run(y, {x: [1.0, 2.0]}), [1.0, 2.0])
        x.set_shape((3,))
        with pytest.raises(ValueError, match="Cannot feed value of shape"):
            sess.run(y, {x: [1.0, 2.0]})
        np.testing.assert_array_equal(sess.run(y, {x: [1.0, 2.0, 3.0]}), [1.0, 2.0, 3.0])


_A = np.arange(6, dtype=np.float32).reshape(2, 3)
_EQUIVALENCE_CASES = [
    ("AddV2", (_A, 1.5), {}),
    ("MatMul", (_A, _A), {"transpose_b": True}),
    ("ConcatV2", ([_A, _A], 1), {}),
    ("Split", (1, _A), {"num_split": 3}),
    ("Unique", (np.array([3, 1, 3, 2], np.int32),), {}),
    ("Cast", (_A,), {"DstT": "int64"}),
    ("Reshape", (_A, [3, -1]), {}),
    ("Transpose", (_A, [1, 0]), {}),
    ("Sum", (_A, 1), {"keep_dims": True}),
    ("ArgMax", (_A, 0), {}),
    ("Pack", ([_A, _A],), {"axis": 1}),
    ("StringJoin", ([np.array([b"a", b"b"]), "x"],), {"separator": "-"}),
    ("Softmax", (_A,), {}),
    ("TopKV2", (_A, 2), {}),
    ("Fill", ([2, 2], 7), {}),
]


@pytest.mark.parametrize(
    ("op_name", "args", "attrs"), _EQUIVALENCE_CASES, ids=[c[0] for c in _EQUIVALENCE_CASES]
)
def test_graph_results_equal_eager_results(
    op_name: str, args: tuple[Any, ...], attrs: dict[str, Any]
) -> None:
    """The same wrapper call, eagerly and as a graph run by a session, gives
    the same values, dtypes, shapes and result structure."""
    fn = getattr(ops, op_name)
    eager = fn(*args, **attrs)
    with tfe_py.Graph() as g:
        symbolic = fn(*args, **attrs)
    with tfe_py.Session(g) as sess:
        got = sess.run(symbolic)

    def flat(v):  # type: ignore[no-untyped-def]
        if isinstance(v, (list, tuple)):
            return [x for item in v for x in flat(item)]
        return [np.asarray(v)]

    want_flat, got_flat = flat(eager), flat(got)
    assert type(got) is type(eager) or isinstance(eager, tfe_py.EagerTensor)
    assert len(want_flat) == len(got_flat)
    for w, r in zip(want_flat, got_flat, strict=True):
        assert w.dtype == r.dtype and w.shape == r.shape
        np.testing.assert_array_equal(w, r)


def test_reference_variables() -> None:
    with tfe_py.Graph() as g:
        v = ops.VariableV2(shape=(), dtype=tfe_py.float32, name="v")
        assign = ops.Assign(v, 3.0)  # 3.0 takes v's element type
        add = ops.AssignAdd(v, 1.0)
        read = ops.Identity(v)
    assert v.is_ref and v.dtype == tfe_py.float32 and not read.is_ref
    assert "dtype=float32" in repr(v)
    with tfe_py.Session(g) as sess:
        with pytest.raises(errors.FailedPreconditionError):
            sess.run(read)  # not initialized yet
        assert sess.run(assign) == 3.0
        assert sess.run(add) == 4.0
        assert sess.run([read, v]) == [4.0, 4.0]


def test_queue_across_threads() -> None:
    with tfe_py.Graph() as g:
        q = ops.FIFOQueueV2(component_types=[tfe_py.float32], shapes=[()], capacity=10)
        x = tfe_py.placeholder(tfe_py.float32, shape=())
        enqueue = ops.QueueEnqueueV2(q, [x])
        dequeue = ops.QueueDequeueV2(q, component_types=[tfe_py.float32])
        close = ops.QueueCloseV2(q)
    got: list[object] = []
    with tfe_py.Session(g) as sess:
        # The dequeue blocks inside TF_SessionRun (without the GIL) until
        # the main thread enqueues.
        waiter = threading.Thread(target=lambda: got.append(sess.run(dequeue)))
        waiter.start()
        sess.run(enqueue, {x: 5.0})
        waiter.join(30)
        assert got == [[5.0]]
        sess.run(close)
        with pytest.raises(errors.OutOfRangeError):
            sess.run(dequeue)


def test_close_from_another_thread_cancels_a_blocked_run() -> None:
    with tfe_py.Graph() as g:
        q = ops.FIFOQueueV2(component_types=[tfe_py.float32], shapes=[()])
        dequeue = ops.QueueDequeueV2(q, component_types=[tfe_py.float32])
    sess = tfe_py.Session(g)
    caught: list[BaseException] = []

    def wait() -> None:
        try:
            sess.run(dequeue)
        except BaseException as exc:  # recorded for the assertion
            caught.append(exc)

    waiter = threading.Thread(target=wait)
    waiter.start()
    for _ in range(200):  # until the run is inside TF_SessionRun
        if sess._inflight:
            break
        threading.Event().wait(0.01)
    sess.close()  # cancels the blocked dequeue; deletion waits for it
    waiter.join(30)
    assert not waiter.is_alive()
    assert len(caught) == 1 and isinstance(caught[0], errors.CancelledError), caught
    with pytest.raises(RuntimeError, match="closed Session"):
        sess.run(dequeue)


def _oom_sweep(fn: Any, limit: int = 5000) -> int:
    """Runs fn with allocation n failing, n = 0, 1, ... until it succeeds;
    every failure must be a ResourceExhaustedError (never another error, a
    crash or a leak). Returns how many runs failed."""
    from tfe_py._ffi import lib

    for n in range(limit):
        lib.TFE_TestFailAllocationsAfter(n)
        try:
            fn()
        except errors.ResourceExhaustedError:
            continue
        finally:
            lib.TFE_TestFailAllocationsAfter(-1)
        return n
    raise AssertionError(f"still failing after {limit} allocations")


def test_allocation_failures_building_and_running_graphs(live_count) -> None:  # type: ignore[no-untyped-def]
    x = tfe_py.constant(np.array([1.0, 2.0], np.float32))
    for name in ("Placeholder", "AddV2", "Mul", "Split", "Sum", "NoOp"):
        ops.get_op(name)  # definitions loaded outside the sweep

    def build() -> tuple[tfe_py.Graph, Any, Any, Any]:
        with tfe_py.Graph() as g:
            p = tfe_py.placeholder(tfe_py.float32, shape=(2,))
            y = ops.Mul(ops.AddV2(p, 1.0), x)
            parts = ops.Split(0, y, num_split=2)
            total = ops.Sum(y, 0)
            g.as_graph_def()
        return g, p, total, parts

    assert _oom_sweep(build) > 10
    g, p, total, parts = build()
    # Importing the graph's GraphDef: every allocation failure is
    # RESOURCE_EXHAUSTED (checks that could not finish are not reported as
    # INVALID_ARGUMENT).
    graph_def = g.as_graph_def()
    assert _oom_sweep(lambda: tfe_py.Graph().import_graph_def(graph_def)) > 10
    sess = tfe_py.Session(g)
    sess.run([total, parts], {p: [1.0, 2.0]})  # warm: the plan exists
    gc.collect()
    before = (live_count("TENSOR"), live_count("STATUS"), live_count("BUFFER"))
    assert _oom_sweep(lambda: sess.run([total, parts], {p: [1.0, 2.0]})) > 5
    gc.collect()
    assert (live_count("TENSOR"), live_count("STATUS"), live_count("BUFFER")) == before
    # A new session's first run (plan building) under the same sweep; the
    # sessions are left to the finalizer, which may run while allocations
    # fail and must still delete them.
    before = (live_count("TENSOR"), live_count("STATUS"), live_count("BUFFER"))
    assert _oom_sweep(lambda: tfe_py.Session(g).run(total, {p: [1.0, 2.0]})) > 10
    gc.collect()
    assert (live_count("TENSOR"), live_count("STATUS"), live_count("BUFFER")) == before
    assert sess.run(total, {p: [1.0, 2.0]}) == 8.0  # sum((p + 1) * x)
    sess.close()


def test_make_callable(graph: tfe_py.Graph) -> None:
    x = graph.get_tensor_by_name("x:0")
    with tfe_py.Session(graph) as sess:
        run = sess.make_callable(["y:0", graph.get_tensor_by_name("z:0")], [x])
        for v in (1.0, 2.0):
            y, z = run([v])
            assert float(y[0]) == 2 * v and float(z[0]) == 2 * v + 1
        target = sess.make_callable("noop")
        assert target() is None
        with pytest.raises(TypeError):
            run()  # one feed value needed
        with pytest.raises(TypeError):
            run([1.0], options=b"")  # accept_options was not given
        meta = bytearray()
        with_opts = sess.make_callable("z:0", ["x:0"], accept_options=True)
        np.testing.assert_array_equal(with_opts([1.0], options=b"", run_metadata=meta), [3.0])
    with pytest.raises(RuntimeError, match="closed Session"):
        run([1.0])
