"""Graph mode of tfe_py: ``with tfe_py.Graph():`` makes the generated op
wrappers add nodes (tfe_py.graph), with the attrs, dtypes, names and shapes
TensorFlow gives them."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import tfe_py
from tfe_py import errors, ops
from tfe_py.graph import Graph, GraphTensor, Operation


def test_ops_add_nodes_inside_a_graph() -> None:
    with tfe_py.Graph() as g:
        x = tfe_py.placeholder(tfe_py.float32, shape=(2, None), name="x")
        y = ops.AddV2(x, x)
        z = ops.MatMul(x, x, transpose_b=True, name="mm")
    assert isinstance(y, GraphTensor)
    assert y.graph is g and y.op.graph is g
    assert x.name == "x:0" and y.name == "AddV2:0" and z.name == "mm:0"
    assert y.op.type == "AddV2" and z.op.type == "MatMul"
    assert y.dtype == tfe_py.float32
    assert x.shape == (2, None)
    assert z.op.get_attr("transpose_b") is True
    assert z.op.get_attr("transpose_a") is False  # default completed at finish
    assert z.op.get_attr("T") == tfe_py.float32
    assert [t.name for t in y.op.inputs] == ["x:0", "x:0"]
    assert [op.name for op in g.operations] == ["x", "AddV2", "mm"]


def test_outside_the_block_ops_run_eagerly_again() -> None:
    with tfe_py.Graph():
        pass
    out = ops.AddV2(tfe_py.constant(1.0), tfe_py.constant(2.0))
    assert isinstance(out, tfe_py.EagerTensor)
    assert float(out) == 3.0
    assert tfe_py.get_default_graph() is None


def test_names_are_made_unique_as_tf_does() -> None:
    with tfe_py.Graph() as g:
        a = tfe_py.constant(1.0)
        b = tfe_py.constant(2.0)
        c = tfe_py.constant(3.0, name="Const")
        d = ops.Identity(a, name="x")
        e = ops.Identity(a, name="x")
        with g.name_scope("layer"):
            f = ops.Identity(a)
        with g.name_scope("layer"):
            h = ops.Identity(a)
    assert [t.op.name for t in (a, b, c, d, e, f, h)] == [
        "Const",
        "Const_1",
        "Const_2",
        "x",
        "x_1",
        "layer/Identity",
        "layer_1/Identity",
    ]


def test_bad_node_name_is_value_error() -> None:
    with tfe_py.Graph(), pytest.raises(ValueError, match="not a valid node name"):
        ops.Identity(1.0, name="bad name!")


def test_python_values_become_const_nodes_with_eager_dtypes() -> None:
    with tfe_py.Graph() as g:
        x = tfe_py.placeholder(tfe_py.float64, shape=())
        y = ops.AddV2(x, 2)  # the int takes x's dtype, as eagerly
        z = ops.AddV2(np.arange(3, dtype=np.int64), 1)
        w = ops.Cast(1.5, DstT="int32")
    assert y.dtype == tfe_py.float64
    const = y.op.inputs[1].op
    assert const.type == "Const"
    assert const.get_attr("dtype") == tfe_py.float64
    assert float(const.get_attr("value")) == 2.0
    assert z.dtype == tfe_py.int64
    assert w.op.inputs[0].dtype == tfe_py.float32  # a Python float is float32
    assert sum(op.type == "Const" for op in g.operations) == 4


def test_eager_tensor_inside_a_graph_becomes_a_constant() -> None:
    e = tfe_py.constant([1, 2, 3])
    with tfe_py.Graph():
        y = ops.Neg(e)  # the short dispatch path of a one-input op
    assert isinstance(y, GraphTensor)
    src = y.op.inputs[0].op
    assert src.type == "Const"
    np.testing.assert_array_equal(src.get_attr("value"), [1, 2, 3])


def test_device_scope_sets_node_devices() -> None:
    with tfe_py.Graph():
        with tfe_py.default_context().device("/device:CPU:0"):
            a = ops.Identity(1.0)
        b = ops.Identity(1.0, device="/device:CPU:0")
        c = ops.Identity(1.0)
        with tfe_py.get_default_graph().device("/device:CPU:0"):
            d = ops.Identity(1.0)
            with tfe_py.get_default_graph().device(None):
                e = ops.Identity(1.0)
    assert d.op.device == "/device:CPU:0" and e.op.device == ""
    assert a.op.device == "/device:CPU:0"
    assert b.op.device == "/device:CPU:0"
    assert c.op.device == ""


def test_list_inputs_and_outputs() -> None:
    with tfe_py.Graph():
        x = tfe_py.placeholder("float32", shape=(2, 3))
        c = ops.ConcatV2([x, x, x], axis=0)
        parts = ops.Split(0, c, num_split=3)
        ident = ops.IdentityN([x, tfe_py.constant(1)])
        u = ops.Unique(np.array([3, 1, 3]))
    assert c.op.get_attr("N") == 3
    assert c.shape == (6, 3)
    assert isinstance(parts, list) and len(parts) == 3
    assert [p.name for p in parts] == ["Split:0", "Split:1", "Split:2"]
    assert [t.dtype for t in ident] == [tfe_py.float32, tfe_py.int32]
    assert u.y.name.endswith(":0") and u.idx.name.endswith(":1")


def test_op_without_outputs_returns_its_operation() -> None:
    with tfe_py.Graph():
        op = ops.NoOp(name="init")
    assert isinstance(op, Operation)
    assert op.name == "init" and op.type == "NoOp" and op.outputs == []


def test_control_dependencies() -> None:
    with tfe_py.Graph() as g:
        a = ops.NoOp(name="a")
        with g.control_dependencies([a]):
            b = ops.Identity(1.0)
            with g.control_dependencies(None):
                c = ops.Identity(1.0)
    assert b.op.control_inputs == [a]
    assert c.op.control_inputs == []


def test_registry_errors_at_finish_are_tf_errors() -> None:
    with tfe_py.Graph():
        x = tfe_py.placeholder(tfe_py.int32)
        y = tfe_py.placeholder(tfe_py.float32)
        with pytest.raises(errors.InvalidArgumentError):
            ops.AddV2(x, y)  # T is int32 from x, y is float32
        with pytest.raises(errors.InvalidArgumentError):
            ops.MatMul(x, x, T="float32")  # explicit attr wins, as eagerly


def test_static_shape_errors_at_finish() -> None:
    with tfe_py.Graph():
        a = tfe_py.placeholder(tfe_py.float32, shape=(2, 3))
        b = tfe_py.placeholder(tfe_py.float32, shape=(4, 5))
        with pytest.raises(errors.InvalidArgumentError):
            ops.MatMul(a, b)


def test_python_side_errors() -> None:
    with tfe_py.Graph():
        with pytest.raises(TypeError):
            ops.MatMul(1.0, 2.0, transpose_a="yes")
        with pytest.raises(TypeError):
            ops.ConcatV2(1.0, axis=0)  # a list input needs a list
        with pytest.raises(errors.InvalidArgumentError):
            ops.AddN([])


def test_tensors_of_another_graph_are_refused() -> None:
    with tfe_py.Graph():
        x = tfe_py.placeholder(tfe_py.float32)
    with tfe_py.Graph(), pytest.raises(ValueError, match="same graph"):
        ops.Neg(x)


def test_placeholder_needs_a_graph() -> None:
    with pytest.raises(RuntimeError, match="eager"):
        tfe_py.placeholder(tfe_py.float32)


def test_operators_on_graph_tensors() -> None:
    with tfe_py.Graph():
        x = tfe_py.placeholder(tfe_py.int32, shape=(3,))
    y = x + 1  # outside the block: still added to x's graph
    z = -(x * 2) // 3
    w = x / 2  # integers are cast to float first, as TF's /
    assert y.graph is x.graph and y.op.type == "AddV2"
    assert z.op.type == "FloorDiv"
    assert w.op.type == "RealDiv" and w.dtype == tfe_py.float64
    assert (x < 2).dtype == tfe_py.bool
    e = tfe_py.constant([1, 2, 3])
    mixed = e + x  # an EagerTensor on the left: the op still goes to x's graph
    assert isinstance(mixed, GraphTensor) and mixed.graph is x.graph
    assert mixed.op.inputs[0].op.type == "Const"
    assert isinstance(ops.ConcatV2([e, x], 0), GraphTensor)
    with pytest.raises(TypeError):
        bool(x)


def test_lookup_by_name() -> None:
    with tfe_py.Graph() as g:
        x = tfe_py.placeholder(tfe_py.float32, name="x")
        ops.Identity(x, name="y")
    assert g.get_operation_by_name("y").type == "Identity"
    assert g.get_tensor_by_name("x:0") == x
    assert g.get_tensor_by_name("y:0").op.inputs == [x]
    with pytest.raises(KeyError):
        g.get_operation_by_name("nope")
    with pytest.raises(KeyError):
        g.get_tensor_by_name("x:3")
    with pytest.raises(ValueError):
        g.get_tensor_by_name("x")
    assert g.get_operation_by_name("x") is x.op  # one Operation per node


def test_graph_tensors_hash_as_their_output() -> None:
    with tfe_py.Graph() as g:
        x = tfe_py.placeholder(tfe_py.float32, name="x")
    assert {x: 1}[g.get_tensor_by_name("x:0")] == 1
    assert x != g.get_operation_by_name("x")


def test_set_shape_and_consumers() -> None:
    with tfe_py.Graph():
        x = tfe_py.placeholder(tfe_py.float32)
        y = ops.Identity(x)
    assert x.shape.rank is None
    assert isinstance(x.shape, tfe_py.TensorShape)
    assert repr(x.shape) == "TensorShape(None)"
    x.set_shape((None, 4))
    assert x.shape == (None, 4)
    with pytest.raises(errors.InvalidArgumentError):
        x.set_shape((3, 5))
    assert x.consumers() == [y.op]


def test_graph_def_round_trip_and_import() -> None:
    with tfe_py.Graph() as g:
        x = tfe_py.placeholder(tfe_py.float32, shape=(2,), name="x")
        ops.Mul(x, 3.0, name="y")
    data = g.as_graph_def()
    assert isinstance(data, bytes) and b"Placeholder" in data
    with tfe_py.Graph() as g2:
        feed = tfe_py.constant([1.0, 2.0], name="feed")
        y, op = g2.import_graph_def(
            data, name="imp", input_map={"x:0": feed}, return_elements=["y:0", "x"]
        )
    assert y.name == "imp/y:0"
    assert op.name == "imp/x"
    assert y.op.inputs[0] == feed  # mapped
    assert g2.import_graph_def(data) is None  # prefix "import"
    assert g2.get_operation_by_name("import/y").type == "Mul"
    assert g2.import_graph_def(data, name="imp", return_elements=["y"])[0].name == "imp_1/y"
    with tfe_py.Session(g2) as sess:
        np.testing.assert_allclose(sess.run(y), [3.0, 6.0])


def test_import_of_garbage_is_an_error() -> None:
    g = Graph()
    with pytest.raises(errors.InvalidArgumentError):
        g.import_graph_def(b"\xff\xff\xff garbage")
    assert g.operations == []


def test_node_def_and_attr_kinds() -> None:
    with tfe_py.Graph():
        t = ops.Const(value=np.zeros((2,), np.float32), dtype=tfe_py.float32, name="c")
        s = ops.StringJoin([tfe_py.constant("a"), tfe_py.constant("b")], separator="-")
    assert b"Const" in t.op.node_def
    assert s.op.get_attr("separator") == b"-"
    with pytest.raises(ValueError):
        t.op.get_attr("no_such_attr")


def test_default_graph_is_per_thread() -> None:
    seen: list[object] = []
    with tfe_py.Graph() as g:
        assert tfe_py.get_default_graph() is g

        def worker() -> None:
            seen.append(tfe_py.get_default_graph())
            seen.append(ops.AddV2(1, 2))

        th = threading.Thread(target=worker)
        th.start()
        th.join()
    assert seen[0] is None
    assert isinstance(seen[1], tfe_py.EagerTensor) and int(seen[1]) == 3


def test_nested_graphs() -> None:
    with tfe_py.Graph() as g1:
        with tfe_py.Graph() as g2:
            b = ops.Identity(1.0)
        a = ops.Identity(1.0)
    assert a.graph is g1 and b.graph is g2


def test_closed_graph() -> None:
    with tfe_py.Graph() as g:
        x = tfe_py.placeholder(tfe_py.float32, name="x")
    g.close()
    with pytest.raises(ValueError, match="closed"):
        x.dtype  # noqa: B018
    with pytest.raises(ValueError, match="closed"):
        x.op.name  # noqa: B018
    assert "closed" in repr(x) and "closed" in repr(x.op)
    with pytest.raises(ValueError, match="closed"):
        x + 1
    g.close()
    with pytest.raises(ValueError, match="closed"), g:
        pass


def test_threads_build_one_graph() -> None:
    g = tfe_py.Graph()
    with g:
        x = tfe_py.placeholder(tfe_py.float32, shape=(), name="x")
    made: list[list[GraphTensor]] = []

    def worker() -> None:
        mine = []
        with g.as_default():  # the default graph is per thread
            for _ in range(50):
                mine.append(ops.AddV2(x, 1.0, name="add"))
        made.append(mine)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    names = {t.op.name for mine in made for t in mine}
    assert len(names) == 200  # every node got its own name
    assert len([op for op in g.operations if op.type == "AddV2"]) == 200
    with tfe_py.Session(g) as sess:
        assert sess.run(made[0][0], {x: 1.0}) == 2.0
