"""tf.* array functions (tfe_py/array_ops.py) against TensorFlow 2.21.

Every case of tests/data/api_array_tf221.json (recorded with TF by
tools/record_api_array.py) is evaluated with ``import tfe_py as tf``: the
result must have TF's dtypes, shapes and values, or the call must raise
TF's exception class (and, for cases flagged "msg", contain TF's message).
Further tests cover what a recorded expression cannot: graph-mode Const
nodes, names, laziness of the top-level names.
"""

from __future__ import annotations

import builtins
import gc
import json
import math
import pathlib
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import errors

DATA = pathlib.Path(__file__).resolve().parent.parent / "data" / "api_array_tf221.json"
CASES = json.loads(DATA.read_text())["cases"]


@pytest.fixture(autouse=True, scope="module")
def _collect_garbage() -> Iterator[None]:
    """Frees the reference cycles the failed calls leave (tracebacks hold
    frames that hold tensors), so later modules counting live objects do
    not see them go away in the middle of their own tests."""
    yield
    gc.collect()


def _core_message(message: str) -> str:
    """TF's message without the eager wrappers around it: the
    "{{function_node ...}} " prefix, the " [Op:X] name: ..." suffix and
    the "\\n\\t; NodeDef: ..." tail of attr errors."""
    message = re.sub(r"^\{\{function_node [^}]*\}\} ", "", message)
    message = re.sub(r" \[Op:[^\]]*\].*$", "", message, flags=re.S)
    return message.split("\n\t; NodeDef")[0]


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and "strings" in value:
        return [s.encode("latin-1") if isinstance(s, str) else s for s in value["strings"]]
    return value


def _same_numbers(got: Any, want: Any, close: bool) -> bool:
    g = np.asarray(got, dtype=np.float64)
    w = np.asarray(want, dtype=np.float64)
    if g.size == 0 and w.size == 0:
        return True  # tolist() of an empty array loses its shape
    if g.shape != w.shape:
        return False
    if close:
        return bool(np.allclose(g, w, rtol=1e-6, atol=0, equal_nan=True))
    return bool(np.array_equal(g, w, equal_nan=True))


def _check(got: Any, want: dict[str, Any], close: bool, where: str) -> None:
    kind = want["t"]
    if kind == "tensor":
        assert isinstance(got, tf.Tensor), f"{where}: expected a tensor, got {got!r}"
        assert got.dtype.name == want["dtype"], f"{where}: dtype {got.dtype.name}"
        arr = np.asarray(got.numpy())
        assert list(arr.shape) == want["shape"], f"{where}: shape {arr.shape}"
        value = want["value"]
        if isinstance(value, dict) and "re" in value:
            assert _same_numbers(arr.real, value["re"], close), f"{where}: {arr}"
            assert _same_numbers(arr.imag, value["im"], close), f"{where}: {arr}"
        elif isinstance(value, dict) and "strings" in value:
            flat = [bytes(v) for v in np.asarray(arr, dtype=object).reshape(-1)]
            assert flat == _decode(value), f"{where}: {arr}"
        elif arr.dtype == np.bool_:
            assert arr.tolist() == value, f"{where}: {arr}"
        else:
            assert _same_numbers(arr, value, close), f"{where}: {arr} != {value}"
    elif kind == "list":
        assert isinstance(got, (list, tuple)), f"{where}: expected a list, got {got!r}"
        assert len(got) == len(want["items"]), f"{where}: {len(got)} items"
        for i, (g, w) in enumerate(zip(got, want["items"], strict=True)):
            _check(g, w, close, f"{where}[{i}]")
    elif kind == "shape":
        assert isinstance(got, tf.TensorShape), f"{where}: expected a TensorShape, got {got!r}"
        dims = None if got.rank is None else got.as_list()
        assert dims == want["dims"], f"{where}: {got}"
    elif kind == "dtype":
        assert got.name == want["name"], where
    elif kind == "py":
        v = want["value"]
        if isinstance(v, float) and math.isnan(v):
            assert math.isnan(got), where
        else:
            assert got == v and type(got) is type(v), f"{where}: {got!r}"
    else:  # pragma: no cover - the recorder writes only the kinds above
        raise AssertionError(f"{where}: unknown kind {kind}")


def _expected_class(name: str) -> type[BaseException]:
    cls = getattr(errors, name, None) or getattr(builtins, name, None)
    assert isinstance(cls, type), f"unknown exception class {name}"
    return cls


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_matches_tf(case: dict[str, Any]) -> None:
    env = {"tf": tf, "np": np}
    if "error" in case:
        cls = _expected_class(case["error"])
        with pytest.raises(cls) as info:
            eval(case["expr"], env)
        if "msg" in case["flags"]:
            want = _core_message(case["message"])
            assert want in str(info.value), f"{str(info.value)!r} lacks {want!r}"
        return
    got = eval(case["expr"], env)
    _check(got, case["result"], "close" in case["flags"], case["id"])


def test_recorded_cases_cover_the_toplevel_functions() -> None:
    from tfe_py import array_ops

    names = set(array_ops.TOPLEVEL)
    text = " ".join(c["expr"] for c in CASES)
    missing = {n for n in names if f"tf.{n}(" not in text}
    assert not missing


def test_toplevel_names_resolve_to_array_ops() -> None:
    from tfe_py import array_ops

    for name in sorted(array_ops.TOPLEVEL):
        assert getattr(tf, name) is getattr(array_ops, name), name
    assert tf.dtypes.cast is tf.cast
    assert tf.dtypes.saturate_cast is tf.saturate_cast
    assert tf.constant is tf.graph.constant if hasattr(tf, "graph") else True


def test_edit_distance_needs_sparse_tensors() -> None:
    with pytest.raises(TypeError, match="Truth must be a SparseTensor"):

        class Sparse:
            indices = values = dense_shape = None

        tf.edit_distance(Sparse(), [1])


def test_constant_in_a_graph_is_a_named_const_node() -> None:
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(7, shape=[2, 2], name="seven")
        d = tf.constant([1.0], shape=[3])
        e = tf.convert_to_tensor(2, dtype_hint=tf.float32, name="two")
        with pytest.raises(
            TypeError, match=re.escape("Expected Tensor's shape: (2,), but got (3,).")
        ):
            tf.constant([1, 2, 3], shape=[2])
        with pytest.raises(ValueError, match="Tensor conversion requested dtype"):
            tf.convert_to_tensor(c, dtype=tf.float32)
    assert c.op.type == "Const" and c.op.name == "seven"
    assert e.op.name == "two" and e.dtype == tf.float32
    with tf.Session(graph=g) as sess:
        cv, dv = sess.run([c, d])
    np.testing.assert_array_equal(cv, [[7, 7], [7, 7]])
    np.testing.assert_array_equal(dv, [1.0, 1.0, 1.0])


def test_functions_build_graph_ops_with_static_shapes() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, shape=[None, 3])
        m = tf.boolean_mask(x, [True, False, True], axis=1)
        r = tf.repeat(x, 2, axis=0)
        s = tf.searchsorted(tf.constant([[1.0, 2.0, 3.0]]), x[:1])
        h = tf.histogram_fixed_width(x, [0.0, 1.0], nbins=4)
        parts = tf.dynamic_partition(x, [0, 1], 2)
        st = tf.dynamic_stitch([[1], [0]], [[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]])
        ps = tf.parallel_stack([tf.constant([1]), tf.constant([2])])
    assert m.shape.as_list() == [None, None]  # as TF: Where's count is unknown
    assert h.shape.as_list() == [4]
    assert parts[0].shape.as_list() == [None, 3]
    assert st.shape.as_list() == [2, 3]
    feed = np.array([[0.1, 0.5, 0.9], [0.2, 0.3, 0.4]], np.float32)
    with tf.Session(graph=g) as sess:
        mv, rv, sv, hv, p0, stv, psv = sess.run([m, r, s, h, parts[0], st, ps], feed_dict={x: feed})
    np.testing.assert_array_equal(mv, feed[:, [0, 2]])
    np.testing.assert_array_equal(rv, np.repeat(feed, 2, axis=0))
    np.testing.assert_array_equal(sv, [[0, 0, 0]])
    np.testing.assert_array_equal(hv, [2, 2, 1, 1])
    np.testing.assert_array_equal(p0, feed[:1])
    np.testing.assert_array_equal(stv, [[4, 5, 6], [1, 2, 3]])
    np.testing.assert_array_equal(psv, [[1], [2]])


def test_histogram_shape_error_in_graph() -> None:
    g = tf.Graph()
    with g.as_default(), pytest.raises(errors.InvalidArgumentError, match="Requires nbins > 0: 0"):
        tf.histogram_fixed_width([1.0], [0.0, 1.0], nbins=0)


def test_parallel_dynamic_stitch_raw_op() -> None:
    out = tf.raw_ops.ParallelDynamicStitch(indices=[[0, 1], [1]], data=[[1, 2], [9]])
    assert out.numpy().tolist() == [1, 9]


def test_graph_nodes_get_tf_default_names() -> None:
    g = tf.Graph()
    with g.as_default():
        a = tf.concat([tf.constant([1]), tf.constant([2])], 0)
        b = tf.transpose(tf.constant([[1]]))
        c = tf.range(3)
        d = tf.stack([tf.constant(1), tf.constant(2)])
        e = tf.split(tf.constant([1, 2]), 2)
        f = tf.reshape(c, [3, 1], name="col")
    names = [t.op.name for t in (a, b, c, d, e[0], f)]
    assert names == ["concat", "transpose", "range", "stack", "split", "col"]
