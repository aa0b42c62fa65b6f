"""@tfe_py.function: tracing, retracing rules, input_signature, captures
and calls through the function runtime (tfe_py.function)."""

from __future__ import annotations

import collections
import threading
from typing import Any

import numpy as np
import pytest

import tfe_py
from tfe_py import errors, ops
from tfe_py.function import ConcreteFunction, TensorSpec


def test_traces_once_per_signature_and_runs() -> None:
    calls = []

    @tfe_py.function
    def f(x, y):  # type: ignore[no-untyped-def]
        calls.append(1)
        return x * y + 1.0

    a = tfe_py.constant([1.0, 2.0])
    b = tfe_py.constant([3.0, 4.0])
    out = f(a, b)
    assert isinstance(out, tfe_py.EagerTensor)
    np.testing.assert_allclose(out.numpy(), [4.0, 9.0])
    np.testing.assert_allclose(f(b, a).numpy(), [4.0, 9.0])
    np.testing.assert_allclose(f(a, a).numpy(), [2.0, 5.0])
    assert f.experimental_get_tracing_count() == 1
    assert len(calls) == 1  # the Python body ran only while tracing
    assert f.trace_count == 1


def test_retrace_on_new_dtype_shape_or_rank() -> None:
    @tfe_py.function
    def f(x):  # type: ignore[no-untyped-def]
        return x + x

    f(tfe_py.constant(1.0))
    f(tfe_py.constant(2.0))
    assert f.experimental_get_tracing_count() == 1
    f(tfe_py.constant(1))  # int32
    assert f.experimental_get_tracing_count() == 2
    f(tfe_py.constant([1.0]))  # rank 1
    assert f.experimental_get_tracing_count() == 3
    f(tfe_py.constant([1.0, 2.0]))  # new size
    assert f.experimental_get_tracing_count() == 4
    f(tfe_py.constant([5.0, 6.0]))
    assert f.experimental_get_tracing_count() == 4
    np.testing.assert_array_equal(f(tfe_py.constant([5, 6])).numpy(), [10, 12])


def test_python_arguments_count_by_value() -> None:
    @tfe_py.function
    def f(x, n, scale=2):  # type: ignore[no-untyped-def]
        for _ in range(n):
            x = x * scale
        return x

    x = tfe_py.constant(1.0)
    assert float(f(x, 3)) == 8.0
    assert float(f(x, 3)) == 8.0
    assert f.experimental_get_tracing_count() == 1
    assert float(f(x, 2)) == 4.0
    assert f.experimental_get_tracing_count() == 2
    assert float(f(x, n=2)) == 4.0  # the same call spelled with a keyword
    assert f.experimental_get_tracing_count() == 2
    assert float(f(x, 1, scale=3)) == 3.0
    assert f.experimental_get_tracing_count() == 3


def test_numpy_arguments_are_tensors() -> None:
    @tfe_py.function
    def f(x):  # type: ignore[no-untyped-def]
        return ops.Sum(x, 0)

    assert float(f(np.array([1.0, 2.0], np.float32))) == 3.0
    assert float(f(np.array([5.0, 2.0], np.float32))) == 7.0
    assert f.experimental_get_tracing_count() == 1


def test_nested_output_structures() -> None:
    point = collections.namedtuple("point", ["x", "y"])

    @tfe_py.function
    def f(a):  # type: ignore[no-untyped-def]
        return {"sum": a + a, "parts": [a, (a * 3.0, None)], "p": point(a, 1.0)}

    out = f(tfe_py.constant(2.0))
    assert set(out) == {"sum", "parts", "p"}
    assert float(out["sum"]) == 4.0
    assert float(out["parts"][0]) == 2.0  # an input returned as is
    assert float(out["parts"][1][0]) == 6.0 and out["parts"][1][1] is None
    assert isinstance(out["p"], point) and float(out["p"].y) == 1.0
    assert all(isinstance(v, tfe_py.EagerTensor) for v in (out["sum"], out["p"].x))


def test_nested_input_structures() -> None:
    @tfe_py.function
    def f(pair, d):  # type: ignore[no-untyped-def]
        return pair[0] * pair[1] + d["k"]

    one = tfe_py.constant(1.0)
    out = f((tfe_py.constant(2.0), tfe_py.constant(3.0)), {"k": one})
    assert float(out) == 7.0
    assert f.experimental_get_tracing_count() == 1
    f([tfe_py.constant(2.0), tfe_py.constant(3.0)], {"k": one})  # list, not tuple
    assert f.experimental_get_tracing_count() == 2


def test_input_signature_relaxes_shapes_and_rejects_misfits() -> None:
    @tfe_py.function(input_signature=[TensorSpec([None], tfe_py.float32)])
    def f(x):  # type: ignore[no-untyped-def]
        return ops.Sum(x * 2.0, 0)

    assert float(f(tfe_py.constant([1.0, 2.0]))) == 6.0
    assert float(f(tfe_py.constant([1.0, 2.0, 3.0]))) == 12.0
    assert float(f([1.0, 1.0])) == 4.0  # Python values take the spec's dtype
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError):
        f(tfe_py.constant([1, 2]))  # int32
    with pytest.raises(TypeError):
        f(tfe_py.constant([[1.0]]))  # rank 2
    with pytest.raises(TypeError):
        f(tfe_py.constant([1.0]), tfe_py.constant([1.0]))  # too many
    with pytest.raises(TypeError):
        f(["a"])  # cannot become float32
    assert f.experimental_get_tracing_count() == 1


def test_input_signature_as_function_argument() -> None:
    def g(x, y):  # type: ignore[no-untyped-def]
        return x - y

    f = tfe_py.function(
        g, input_signature=[TensorSpec(None, "int32"), TensorSpec((), "int32", name="y")]
    )
    np.testing.assert_array_equal(f(tfe_py.constant([[5, 6]]), 1).numpy(), [[4, 5]])
    assert int(f(tfe_py.constant(5), y=tfe_py.constant(2))) == 3
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError):
        f(tfe_py.constant(1), tfe_py.constant([1]))  # y must be a scalar
    with pytest.raises(TypeError):
        tfe_py.function(g, input_signature=[1])


def test_nested_input_signature() -> None:
    sig = [{"b": TensorSpec([], "float32"), "a": TensorSpec([None], "float32")}]

    @tfe_py.function(input_signature=sig)
    def f(d):  # type: ignore[no-untyped-def]
        return d["a"] * d["b"]

    np.testing.assert_allclose(f({"a": [1.0, 2.0], "b": 3.0}).numpy(), [3.0, 6.0])
    np.testing.assert_allclose(f({"b": 2.0, "a": [1.0]}).numpy(), [2.0])
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError):
        f({"a": [1.0]})  # "b" missing
    with pytest.raises(TypeError):
        f([[1.0], 2.0])  # not a dict


def test_get_concrete_function() -> None:
    @tfe_py.function
    def f(x):  # type: ignore[no-untyped-def]
        return x * 2

    cf = f.get_concrete_function(TensorSpec([None], tfe_py.int32))
    assert isinstance(cf, ConcreteFunction)
    assert cf.inputs[0].shape == (None,)
    assert cf.outputs[0].dtype == tfe_py.int32
    np.testing.assert_array_equal(cf(tfe_py.constant([1, 2, 3])).numpy(), [2, 4, 6])
    assert f.get_concrete_function(tfe_py.constant(1)) is f.get_concrete_function(
        tfe_py.constant(7)
    )
    with pytest.raises(TypeError):
        cf(tfe_py.constant([1.0]))
    assert cf.function_def  # serialized FunctionDef
    assert cf.name.startswith("__inference_f_")


def test_captured_eager_tensors_are_inputs() -> None:
    w = tfe_py.constant(10.0)

    @tfe_py.function
    def f(x):  # type: ignore[no-untyped-def]
        return x * w

    assert float(f(tfe_py.constant(2.0))) == 20.0
    cf = f.get_concrete_function(tfe_py.constant(1.0))
    assert len(cf.captured_inputs) == 1 and cf.captured_inputs[0] is w
    assert len(cf.inputs) == 2


def test_errors_at_run_time_are_tf_errors() -> None:
    @tfe_py.function
    def f(x):  # type: ignore[no-untyped-def]
        return ops.Reshape(x, [-1, 3])

    with pytest.raises(errors.InvalidArgumentError):
        f(tfe_py.constant([1, 2, 3, 4]))
    np.testing.assert_array_equal(f(tfe_py.constant([1, 2, 3])).numpy(), [[1, 2, 3]])


def test_errors_while_tracing() -> None:
    @tfe_py.function
    def f(x):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        f(tfe_py.constant(1.0))
    assert f.experimental_get_tracing_count() == 0

    @tfe_py.function
    def g(x):  # type: ignore[no-untyped-def]
        return ops.MatMul(x, x)  # a scalar cannot be multiplied as a matrix

    with pytest.raises(errors.InvalidArgumentError):
        g(tfe_py.constant(1.0))


def _variable(value: float) -> tfe_py.EagerTensor:
    handle = ops.VarHandleOp(dtype=tfe_py.float32, shape=(), shared_name="")
    ops.AssignVariableOp(handle, tfe_py.constant(value))
    return handle


def test_stateful_ops_run_in_order_without_outputs_depending_on_them() -> None:
    v = _variable(1.0)

    @tfe_py.function
    def step(x):  # type: ignore[no-untyped-def]
        ops.AssignAddVariableOp(v, x)  # nothing returned depends on it
        ops.AssignAddVariableOp(v, x)
        return ops.ReadVariableOp(v, dtype=tfe_py.float32)  # sees both updates

    assert float(step(tfe_py.constant(2.0))) == 5.0
    assert float(step(tfe_py.constant(1.0))) == 7.0
    assert float(ops.ReadVariableOp(v, dtype=tfe_py.float32)) == 7.0

    @tfe_py.function
    def reset():  # type: ignore[no-untyped-def]
        ops.AssignVariableOp(v, tfe_py.constant(0.0))

    assert reset() is None
    assert float(ops.ReadVariableOp(v, dtype=tfe_py.float32)) == 0.0


def test_calls_inside_a_function_and_a_graph_inline() -> None:
    @tfe_py.function
    def inner(x):  # type: ignore[no-untyped-def]
        return x * 3.0

    @tfe_py.function
    def outer(x):  # type: ignore[no-untyped-def]
        return inner(x) + 1.0

    assert float(outer(tfe_py.constant(2.0))) == 7.0
    with tfe_py.Graph() as g:
        y = inner(tfe_py.constant(2.0))
    assert isinstance(y, tfe_py.GraphTensor)
    with tfe_py.Session(g) as sess:
        assert float(sess.run(y)) == 6.0


def test_methods_trace_per_instance() -> None:
    class Model:
        def __init__(self, k: float) -> None:
            self.k = k

        @tfe_py.function
        def __call__(self, x):  # type: ignore[no-untyped-def]
            return x * self.k

    a, b = Model(2.0), Model(3.0)
    x = tfe_py.constant(1.0)
    assert float(a(x)) == 2.0
    assert float(b(x)) == 3.0
    assert float(a(x)) == 2.0


def test_functions_in_several_contexts() -> None:
    @tfe_py.function
    def f(x):  # type: ignore[no-untyped-def]
        return x + 1

    assert int(f(tfe_py.constant(1))) == 2
    with tfe_py.Context():
        assert int(f(tfe_py.constant(1))) == 2  # registered there too
    assert f.experimental_get_tracing_count() == 1


def test_python_values_returned_become_tensors() -> None:
    @tfe_py.function
    def f(x):  # type: ignore[no-untyped-def]
        return x, 3

    a, b = f(tfe_py.constant(1.0))
    assert float(a) == 1.0
    assert isinstance(b, tfe_py.EagerTensor) and int(b) == 3


def test_concurrent_calls() -> None:
    @tfe_py.function
    def f(x):  # type: ignore[no-untyped-def]
        return x * x

    results: dict[int, float] = {}

    def worker(i: int) -> None:
        for _ in range(20):
            results[i] = float(f(tfe_py.constant(float(i))))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {i: float(i * i) for i in range(4)}
    assert f.experimental_get_tracing_count() == 1


def test_many_op_scalar_function() -> None:
    @tfe_py.function
    def f(x):  # type: ignore[no-untyped-def]
        for _ in range(25):
            x = x * 1.0001 + 0.5
        return x

    x = tfe_py.constant(1.0)
    want = 1.0
    for _ in range(25):
        want = want * 1.0001 + 0.5
    for _ in range(5):
        assert abs(float(f(x)) - want) < 1e-3
    assert f.experimental_get_tracing_count() == 1


def test_tensor_spec() -> None:
    s = TensorSpec([2, None], "float32", name="x")
    assert s.shape == (2, None) and s.dtype == tfe_py.float32
    assert s.is_compatible_with(tfe_py.constant(np.zeros((2, 5), np.float32)))
    assert not s.is_compatible_with(tfe_py.constant(np.zeros((3, 5), np.float32)))
    assert not s.is_compatible_with(tfe_py.constant(np.zeros((2, 5), np.int32)))
    assert s == TensorSpec((2, None), tfe_py.float32, "x")
    assert TensorSpec(None, "int32").is_compatible_with(tfe_py.constant([[1]]))
    with pytest.raises(ValueError):
        TensorSpec([-2])


def test_functions_as_func_attrs_of_control_flow_ops() -> None:
    f32, i32 = tfe_py.float32, tfe_py.int32
    scalar = [TensorSpec([], f32)]
    then = tfe_py.function(lambda x: x * 2.0, input_signature=scalar)
    other = tfe_py.function(lambda x: x - 1.0, input_signature=scalar)
    three = tfe_py.constant(3.0)
    (r,) = ops.StatelessIf(True, [three], Tout=[f32], then_branch=then, else_branch=other)
    assert float(r) == 6.0
    (r,) = ops.StatelessIf(False, [three], Tout=[f32], then_branch=then, else_branch=other)
    assert float(r) == 2.0

    @tfe_py.function
    def outer(c, x):  # type: ignore[no-untyped-def]
        (y,) = ops.StatelessIf(c, [x], Tout=[f32], then_branch=then, else_branch=other)
        return y + 100.0

    assert float(outer(tfe_py.constant(True), tfe_py.constant(5.0))) == 110.0
    assert float(outer(tfe_py.constant(False), tfe_py.constant(5.0))) == 104.0
    with tfe_py.Context():  # the branches are registered along with outer
        assert float(outer(tfe_py.constant(True), tfe_py.constant(5.0))) == 110.0

    loop_sig = [TensorSpec([], i32), TensorSpec([], f32)]
    cond = tfe_py.function(lambda i, acc: i < 5, input_signature=loop_sig)
    body = tfe_py.function(lambda i, acc: (i + 1, acc * 2.0), input_signature=loop_sig)
    i, acc = ops.StatelessWhile([tfe_py.constant(0), tfe_py.constant(1.0)], cond=cond, body=body)
    assert int(i) == 5 and float(acc) == 32.0
    cf = body.get_concrete_function()
    i, acc = ops.While([tfe_py.constant(3), tfe_py.constant(1.0)], cond=cond, body=cf)
    assert int(i) == 5 and float(acc) == 4.0

    untyped = tfe_py.function(lambda x: x)
    with pytest.raises(TypeError, match="input_signature"):
        ops.StatelessIf(True, [three], Tout=[f32], then_branch=untyped, else_branch=other)


def test_var_positional_and_keyword_arguments() -> None:
    @tfe_py.function
    def f(*xs, scale=1.0, **kw):  # type: ignore[no-untyped-def]
        out = xs[0]
        for x in xs[1:]:
            out = out + x
        return out * scale + kw.get("bias", 0.0)

    c = tfe_py.constant
    assert float(f(c(1.0), c(2.0))) == 3.0
    assert float(f(c(1.0), c(2.0), c(3.0), scale=2.0)) == 12.0
    assert float(f(c(1.0), bias=c(5.0))) == 6.0
    assert float(f(c(4.0), c(2.0))) == 6.0
    assert f.experimental_get_tracing_count() == 3

    g = tfe_py.function(lambda *xs: xs[0] * 2.0, input_signature=[TensorSpec([], "float32")])
    assert float(g(3.0)) == 6.0


def test_fast_path_after_a_keyword_call() -> None:
    @tfe_py.function
    def f(x, y):  # type: ignore[no-untyped-def]
        return x - y

    a, b = tfe_py.constant(5.0), tfe_py.constant(2.0)
    assert float(f(x=a, y=b)) == 3.0
    assert not f._fast  # a keyword call does not feed the positional fast path
    assert float(f(a, b)) == 3.0
    assert len(f._fast) == 1 and f.experimental_get_tracing_count() == 1
    assert float(f(b, a)) == -3.0


def test_repeated_calls_do_not_leak(live_count) -> None:  # type: ignore[no-untyped-def]
    @tfe_py.function
    def f(x):  # type: ignore[no-untyped-def]
        return {"a": x * 2.0, "b": [x + 1.0, x]}

    x = tfe_py.constant(1.0)
    f(x)
    base = (live_count("TENSOR_HANDLE"), live_count("OP"), live_count("STATUS"))
    for _ in range(200):
        out = f(x)
        assert float(out["b"][0]) == 2.0
    del out
    assert (live_count("TENSOR_HANDLE"), live_count("OP"), live_count("STATUS")) == base


def test_cond_and_while_loop() -> None:
    c = tfe_py.constant
    # Eagerly they are Python control flow.
    assert float(tfe_py.cond(c(True), lambda: c(1.0), lambda: c(2.0))) == 1.0
    i, acc = tfe_py.while_loop(lambda i, a: i < 5, lambda i, a: (i + 1, a * 2.0), (c(0), c(1.0)))
    assert int(i) == 5 and float(acc) == 32.0

    w = c(3.0)

    @tfe_py.function
    def f(x, n):  # type: ignore[no-untyped-def]
        y = tfe_py.cond(x > 0.0, lambda: x * w, lambda: -x)  # w is captured
        _, total = tfe_py.while_loop(
            lambda i, acc: i < n, lambda i, acc: (i + 1, acc + y), [c(0), c(0.0)]
        )
        return total

    assert float(f(c(2.0), c(4))) == 24.0
    assert float(f(c(-2.0), c(3))) == 6.0
    assert float(f(c(5.0), c(0))) == 0.0  # zero iterations
    assert f.experimental_get_tracing_count() == 1
    ops_in_f = {op.type for op in f.get_concrete_function(c(1.0), c(1)).graph.operations}
    assert {"StatelessIf", "StatelessWhile"} <= ops_in_f

    with tfe_py.Graph() as g:
        x = tfe_py.placeholder(tfe_py.float32, shape=())
        pair = tfe_py.cond(x > 1.0, lambda: (x, x * 2.0), lambda: (x + 1.0, x))
        _, s = tfe_py.while_loop(lambda i, s: i < 10, lambda i, s: (i + 1, s + x), (c(0), c(0.0)))
        vec = tfe_py.cond(x > 1.0, lambda: c([1.0, 2.0]), lambda: c([3.0, 4.0, 5.0]))
    # Static shapes: the branches' common shape, the loop variables' shapes.
    assert pair[0].shape == () and s.shape == () and vec.shape == (None,)
    with tfe_py.Session(g) as sess:
        assert sess.run([pair, s], {x: 3.0}) == [(3.0, 6.0), 30.0]
        assert sess.run(pair, {x: 0.0}) == (1.0, 0.0)


def test_nested_and_stateful_control_flow() -> None:
    c = tfe_py.constant
    v = _variable(0.0)

    @tfe_py.function
    def count_odd(n):  # type: ignore[no-untyped-def]
        def body(i):  # type: ignore[no-untyped-def]
            def bump():  # type: ignore[no-untyped-def]
                ops.AssignAddVariableOp(v, c(1.0))
                return c(1)

            tfe_py.cond(ops.FloorMod(i, 2) > 0, bump, lambda: c(0))
            return [i + 1]

        tfe_py.while_loop(lambda i: i < n, body, [c(0)])
        return ops.ReadVariableOp(v, dtype=tfe_py.float32)

    assert float(count_odd(c(7))) == 3.0  # 1, 3, 5
    assert float(count_odd(c(2))) == 4.0  # and 1 more
    types = {op.type for op in count_odd.get_concrete_function(c(1)).graph.operations}
    assert "While" in types  # stateful: not StatelessWhile


def test_control_flow_errors() -> None:
    c = tfe_py.constant

    @tfe_py.function
    def bad_structure(x):  # type: ignore[no-untyped-def]
        return tfe_py.cond(x > 0, lambda: (x, x), lambda: x)

    with pytest.raises(ValueError, match="structure"):
        bad_structure(c(1))

    @tfe_py.function
    def bad_dtype(x):  # type: ignore[no-untyped-def]
        return tfe_py.cond(x > 0, lambda: x, lambda: c(1.0))

    with pytest.raises(TypeError, match="dtypes"):
        bad_dtype(c(1))

    @tfe_py.function
    def bad_body(x):  # type: ignore[no-untyped-def]
        return tfe_py.while_loop(lambda i: i < 3, lambda i: [ops.Cast(i, DstT="float32")], [x])

    with pytest.raises(TypeError, match="dtype"):
        bad_body(c(0))
    with pytest.raises(TypeError):
        tfe_py.while_loop(lambda i: i < 3, lambda i: i + 1, c(0))  # loop_vars not a list


def test_methods_of_unhashable_instances_keep_their_traces() -> None:
    class Scaler:
        __hash__ = None  # type: ignore[assignment]

        def __init__(self, k: float) -> None:
            self.k = k

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Scaler) and other.k == self.k

        @tfe_py.function
        def scale(self, x):  # type: ignore[no-untyped-def]
            return x * self.k

    s = Scaler(2.0)
    x = tfe_py.constant(1.0)
    assert float(s.scale(x)) == 2.0
    assert float(s.scale(x)) == 2.0
    assert s.scale.experimental_get_tracing_count() == 1
    assert float(Scaler(3.0).scale(x)) == 3.0


_A = np.arange(6, dtype=np.float32).reshape(2, 3)
_CASES = [
    ("MatMul", (_A, _A), {"transpose_b": True}),
    ("Split", (1, _A), {"num_split": 3}),
    ("Unique", (np.array([3, 1, 3, 2], np.int32),), {}),
    ("TopKV2", (_A, 2), {}),
    ("StringJoin", ([np.array([b"a", b"b"]), "x"],), {"separator": "-"}),
    ("Cast", (_A,), {"DstT": "int64"}),
]


@pytest.mark.parametrize(("op_name", "args", "attrs"), _CASES, ids=[c[0] for c in _CASES])
def test_function_results_equal_eager_results(
    op_name: str, args: tuple[Any, ...], attrs: dict[str, Any]
) -> None:
    fn = getattr(ops, op_name)
    eager = fn(*args, **attrs)
    traced = tfe_py.function(lambda: fn(*args, **attrs))()
    assert type(traced) is type(eager)
    want = eager if isinstance(eager, (list, tuple)) else [eager]
    got = traced if isinstance(traced, (list, tuple)) else [traced]
    assert len(want) == len(got)
    for w, r in zip(want, got, strict=True):
        assert isinstance(r, tfe_py.EagerTensor)
        assert w.dtype == r.dtype and w.shape == r.shape
        np.testing.assert_array_equal(w.numpy(), r.numpy())


def test_while_loop_shape_invariants() -> None:
    c = tfe_py.constant

    def grow(i, v):  # type: ignore[no-untyped-def]
        return i + 1, ops.ConcatV2([v, ops.Reshape(ops.Cast(i, DstT="float32"), [1])], 0)

    @tfe_py.function
    def f(n):  # type: ignore[no-untyped-def]
        _, v = tfe_py.while_loop(
            lambda i, v: i < n,
            grow,
            (c(0), c(np.zeros((0,), np.float32))),
            shape_invariants=[(), (None,)],
        )
        return v

    np.testing.assert_array_equal(f(c(4)).numpy(), [0.0, 1.0, 2.0, 3.0])

    @tfe_py.function
    def g(n):  # type: ignore[no-untyped-def]
        return tfe_py.while_loop(lambda i, v: i < n, grow, (c(0), c(np.zeros((0,), np.float32))))

    with pytest.raises(ValueError, match="shape_invariants"):
        g(c(4))

    @tfe_py.function
    def h(n):  # type: ignore[no-untyped-def]
        return tfe_py.while_loop(
            lambda i: i < n, lambda i: [i + 1], [c([1, 2])], shape_invariants=[(3,)]
        )

    with pytest.raises(ValueError, match="not compatible"):
        h(c(1))


def test_allocation_failures_tracing_and_calling(live_count) -> None:  # type: ignore[no-untyped-def]
    from tfe_py._ffi import lib

    def sweep(fn: Any) -> int:
        for n in range(5000):
            lib.TFE_TestFailAllocationsAfter(n)
            try:
                fn()
            except errors.ResourceExhaustedError:
                continue
            finally:
                lib.TFE_TestFailAllocationsAfter(-1)
            return n
        raise AssertionError("still failing after 5000 allocations")

    a = tfe_py.constant(2.0)
    for name in ("Mul", "AddV2", "Sub", "Greater", "Identity", "Placeholder", "StatelessIf"):
        ops.get_op(name)

    @tfe_py.function
    def f(u, v):  # type: ignore[no-untyped-def]
        return {"s": u * v + 1.0, "l": [u - v]}

    f(a, a)
    before = (live_count("TENSOR_HANDLE"), live_count("OP"), live_count("STATUS"))
    assert sweep(lambda: f(a, a)) > 0
    assert (live_count("TENSOR_HANDLE"), live_count("OP"), live_count("STATUS")) == before
    assert sweep(lambda: tfe_py.function(lambda u, v: (u * v + 1.0, u - v))(a, a)) > 10
    cond_fn = tfe_py.function(lambda u: tfe_py.cond(u > 0.0, lambda: u * 2.0, lambda: u))
    assert sweep(lambda: cond_fn(a)) > 10
    assert float(cond_fn(a)) == 4.0
