"""Container ops of csrc/kernels/cpu/containers_kernels.c and TF 1's stack
ops (tensor_array_kernels.c) against TF 2.21's recorded behaviour
(tools/record_containers_ops.py -> tests/data/containers_ops_tf221.json)."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import numpy as np
import pytest

import tfe_py
from tfe_py import errors, ops

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "containers_ops_tf221.json")
with open(DATA) as _f:
    REC: dict[str, Any] = json.load(_f)

F32 = tfe_py.float32


def _c(v: Any, dtype: Any = F32) -> Any:
    return tfe_py.constant(v, dtype=dtype)


# The inputs of each removed TensorArray op after its handle, by base name
# (v1 ops take a Ref(string) handle: a TF 1 Stack's, which the kernel never
# looks at; v2 ops and both Grads a string [container, name]).
def _removed_args(base: str) -> tuple[list[Any], dict[str, Any]]:
    i0 = _c(0, tfe_py.int32)
    fl = _c(0.0)
    table: dict[str, tuple[list[Any], dict[str, Any]]] = {
        "Read": ([i0, fl], {"dtype": F32}),
        "Write": ([i0, _c([1.0]), fl], {}),
        "Gather": ([_c([0], tfe_py.int32), fl], {"dtype": F32}),
        "Scatter": ([_c([0], tfe_py.int32), _c([[1.0]]), fl], {}),
        "Split": ([_c([1.0]), _c([1], tfe_py.int64), fl], {}),
        "Size": ([fl], {}),
        "Close": ([], {}),
        "Grad": ([fl], {"source": "g"}),
        "Concat": ([fl], {"dtype": F32}),
        "Pack": ([fl], {"dtype": F32}),
        "Unpack": ([_c([[1.0]]), fl], {}),
    }
    return table[base]


def _call_removed(name: str, ref: Any, s: Any) -> Any:
    if name in ("TensorArray", "TensorArrayV2"):
        return getattr(ops, name)(_c(0, tfe_py.int32), dtype=F32)
    base = name[len("TensorArray"):].removesuffix("V2")
    handle = ref if not name.endswith("V2") and base != "Grad" else s
    args, attrs = _removed_args(base)
    return getattr(ops, name)(handle, *args, **attrs)


REMOVED = {k: v for k, v in REC["deprecated"].items() if v}


@pytest.mark.parametrize("name", sorted(REMOVED))
def test_removed_tensor_array_op_fails_as_in_tf(name: str) -> None:
    # As TF's node builder: a graph at the current GraphDef version refuses
    # the node itself
    with tfe_py.Graph():
        ref = ops.Stack(elem_type=F32)
        s = _c(["_tensor_arrays", "x"], tfe_py.string)
        with pytest.raises(errors.UnimplementedError) as ei:
            _call_removed(name, ref, s)
    assert REMOVED[name] in str(ei.value)


def test_removed_v2_ops_fail_eagerly_as_in_tf() -> None:
    with pytest.raises(errors.UnimplementedError) as ei:
        ops.TensorArrayV2(_c(3, tfe_py.int32), dtype=F32)
    assert REMOVED["TensorArrayV2"] in str(ei.value)
    with pytest.raises(errors.UnimplementedError) as ei:
        ops.TensorArraySizeV2(_c(["a", "b"], tfe_py.string), _c(0.0))
    assert REMOVED["TensorArraySizeV2"] in str(ei.value)


@pytest.mark.parametrize("case", REC["concat_v2_errors"], ids=lambda c: repr(c["handle"]))
def test_tensor_array_concat_v2_handle_errors(case: dict[str, Any]) -> None:
    h = np.array(case["handle"], dtype=object).astype(bytes) if case["handle"] != [] else np.zeros(
        (0,), dtype=bytes
    )
    with pytest.raises(errors.OpError) as ei:
        ops.TensorArrayConcatV2(tfe_py.constant(h, dtype=tfe_py.string), _c(0.0), dtype=F32)
    assert ei.value.error_code == case["code"]
    assert case["message"] in str(ei.value)


_NP = {"float32": np.float32, "float64": np.float64, "int32": np.int32, "int64": np.int64,
       "bool": np.bool_, "string": object}


@pytest.mark.parametrize("case", REC["stack_sequences"], ids=lambda c: c["dtype"])
def test_stack_v1_push_pop_sequence(case: dict[str, Any]) -> None:
    dt = getattr(tfe_py, case["dtype"])
    with tfe_py.Graph() as g:
        s = ops.Stack(elem_type=dt, stack_name="st")
        deps: list[Any] = []
        pushed, popped = [], []
        for v in case["values"]:
            with tfe_py.control_dependencies(deps):
                p = ops.StackPush(s, tfe_py.constant(v, dtype=dt))
            deps = [p]
            pushed.append(p)
        for _ in case["values"]:
            with tfe_py.control_dependencies(deps):
                q = ops.StackPop(s, elem_type=dt)
            deps = [q]
            popped.append(q)
        with tfe_py.control_dependencies(deps):
            close = ops.StackClose(s)
    sess = tfe_py.Session(g)
    try:
        res = sess.run(pushed + popped)
        sess.run(close)
    finally:
        sess.close()

    def enc(a: Any) -> Any:
        a = np.asarray(a)
        if case["dtype"] == "string":
            return [x.decode() if isinstance(x, bytes) else str(x) for x in a.ravel()]
        return a.tolist()

    n = len(case["values"])
    assert [enc(r) for r in res[:n]] == case["pushed"]
    assert [enc(r) for r in res[n:]] == case["popped"]
    for r, v in zip(res[n:], reversed(case["values"]), strict=True):
        if case["dtype"] != "string":
            assert np.asarray(r).dtype == _NP[case["dtype"]]
            assert np.asarray(r).shape == np.asarray(v).shape


def _stack_error_graph(kind: str) -> tuple[Any, Any]:
    with tfe_py.Graph() as g:
        s = ops.Stack(elem_type=F32, stack_name="st")
        if kind == "pop_empty":
            t = ops.StackPop(s, elem_type=F32)
        elif kind == "push_wrong_dtype":
            t = ops.StackPush(s, _c([1], tfe_py.int32))
        elif kind == "push_after_close":
            c = ops.StackClose(s)
            with tfe_py.control_dependencies([c]):
                t = ops.StackPush(s, _c(1.0))
        elif kind == "pop_after_close":
            p = ops.StackPush(s, _c(1.0))
            with tfe_py.control_dependencies([p]):
                c = ops.StackClose(s)
            with tfe_py.control_dependencies([c]):
                t = ops.StackPop(s, elem_type=F32)
        else:
            assert kind == "pop_wrong_dtype"
            p = ops.StackPush(s, _c(1.0))
            with tfe_py.control_dependencies([p]):
                t = ops.StackPop(s, elem_type=tfe_py.int32, name="StackPop")
    return g, t


def _norm(msg: str) -> str:
    # Stack names carry a process-wide counter (st_6 in TF's run).
    return re.sub(r"Stack\[st_\d+\]", "Stack[st_N]", msg)


@pytest.mark.parametrize(
    "case", [c for c in REC["stack_errors"] if c["kind"] != "push_after_close"],
    ids=lambda c: c["kind"],
)
def test_stack_v1_errors(case: dict[str, Any]) -> None:
    g, t = _stack_error_graph(case["kind"])
    sess = tfe_py.Session(g)
    try:
        with pytest.raises(errors.OpError) as ei:
            sess.run(t)
    finally:
        sess.close()
    assert ei.value.error_code == case["code"]
    assert _norm(case["message"]) in _norm(str(ei.value))


_STAGE_D = [F32, tfe_py.int32]


def test_stage_sequence_matches_tf() -> None:
    rec = REC["stage_sequence"]
    sn = "stage_seq"
    with tfe_py.Graph() as g:
        a = ops.Stage([_c([1.0, 2.0]), _c(3, tfe_py.int32)], shared_name=sn)
        with tfe_py.control_dependencies([a]):
            b = ops.Stage([_c([4.0]), _c(5, tfe_py.int32)], shared_name=sn)
        with tfe_py.control_dependencies([b]):
            n = ops.StageSize(dtypes=_STAGE_D, shared_name=sn)
            p = ops.StagePeek(_c(1, tfe_py.int32), dtypes=_STAGE_D, shared_name=sn)
        with tfe_py.control_dependencies([n, *p]):
            u = ops.Unstage(dtypes=_STAGE_D, shared_name=sn)
        with tfe_py.control_dependencies(list(u)):
            n2 = ops.StageSize(dtypes=_STAGE_D, shared_name=sn)
        with tfe_py.control_dependencies([n2]):
            c = ops.StageClear(dtypes=_STAGE_D, shared_name=sn)
        with tfe_py.control_dependencies([c]):
            n3 = ops.StageSize(dtypes=_STAGE_D, shared_name=sn)
    sess = tfe_py.Session(g)
    try:
        r = sess.run([n, list(p), list(u), n2, n3])
    finally:
        sess.close()
    assert int(r[0]) == rec["size1"]
    assert [np.asarray(r[1][0]).tolist(), int(r[1][1])] == rec["peek1"]
    assert [np.asarray(r[2][0]).tolist(), int(r[2][1])] == rec["unstaged"]
    assert np.asarray(r[2][0]).dtype == np.float32
    assert int(r[3]) == rec["size2"]
    assert int(r[4]) == rec["size3"]


def _stage_error_graph(kind: str) -> tuple[Any, Any]:
    sn = "stage_err_" + kind
    with tfe_py.Graph() as g:
        if kind == "unstage_count_mismatch":
            a = ops.Stage([_c([1.0, 2.0]), _c(3, tfe_py.int32)], shared_name=sn)
            with tfe_py.control_dependencies([a]):
                t = ops.Unstage(dtypes=[F32], shared_name=sn)
        elif kind == "over_memory_limit":
            t = ops.Stage([_c([1.0, 2.0, 3.0])], shared_name=sn, memory_limit=8)
        elif kind == "peek_index_not_scalar":
            t = ops.StagePeek(_c([0], tfe_py.int32), dtypes=[F32], shared_name=sn)
        else:
            assert kind == "unstage_wrong_dtype"
            a = ops.Stage([_c([1.0, 2.0])], shared_name=sn)
            with tfe_py.control_dependencies([a]):
                t = ops.Unstage(dtypes=[tfe_py.int32], shared_name=sn, name="Unstage")
    return g, t


@pytest.mark.parametrize("case", REC["stage_errors"], ids=lambda c: c["kind"])
def test_stage_errors(case: dict[str, Any]) -> None:
    g, t = _stage_error_graph(case["kind"])
    sess = tfe_py.Session(g)
    try:
        with pytest.raises(errors.OpError) as ei:
            sess.run(t)
    finally:
        sess.close()
    assert ei.value.error_code == case["code"]
    assert case["message"] in str(ei.value)


def test_unstage_wait_ends_when_the_session_closes() -> None:
    import threading

    with tfe_py.Graph() as g:
        u = ops.Unstage(dtypes=[F32], shared_name="stage_wait")
        st = ops.Stage([_c([7.0])], shared_name="stage_wait")
    sess = tfe_py.Session(g)
    got: list[Any] = []

    def take() -> None:
        try:
            got.append(sess.run(u))
        except errors.OpError as e:
            got.append(e)

    th = threading.Thread(target=take)
    th.start()
    sess.run(st)  # wakes the waiting Unstage
    th.join(timeout=30)
    assert not th.is_alive()
    assert np.asarray(got[0][0] if isinstance(got[0], list) else got[0]).tolist() == [7.0]
    th = threading.Thread(target=take)
    th.start()
    th.join(timeout=0.2)
    sess.close()  # cancels the second, empty-area wait
    th.join(timeout=30)
    assert not th.is_alive()
    assert isinstance(got[1], errors.CancelledError)


def test_stage_waits_at_capacity_until_an_unstage() -> None:
    import threading

    sn = "stage_cap"
    with tfe_py.Graph() as g:
        x = tfe_py.placeholder(F32, shape=(), name="x")
        st = ops.Stage([x], shared_name=sn, capacity=1)
        size = ops.StageSize(dtypes=[F32], shared_name=sn, capacity=1)
        u = ops.Unstage(dtypes=[F32], shared_name=sn, capacity=1)
    sess = tfe_py.Session(g)
    done: list[Any] = []

    def put(v: float) -> None:
        try:
            sess.run(st, feed_dict={x: v})
            done.append(v)
        except errors.OpError as e:
            done.append(e)

    try:
        put(1.0)
        th = threading.Thread(target=put, args=(2.0,))
        th.start()
        th.join(timeout=0.2)
        assert th.is_alive()  # the area is full: the second Stage waits
        assert int(sess.run(size)) == 1
        first = sess.run(u)
        th.join(timeout=30)
        assert not th.is_alive()
        assert done == [1.0, 2.0]
        assert float(np.asarray(first[0] if isinstance(first, list) else first)) == 1.0
        # A Stage waiting on a full area ends CANCELLED when the session closes.
        th = threading.Thread(target=put, args=(3.0,))
        th.start()
        th.join(timeout=0.2)
        assert th.is_alive()
    finally:
        sess.close()
    th.join(timeout=30)
    assert not th.is_alive()
    assert isinstance(done[2], errors.CancelledError)
