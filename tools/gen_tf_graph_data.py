#!/usr/bin/env python3
"""Regenerates the graph test data under tests/data/graphs/.

NEEDS TENSORFLOW 2.21 (the tensorflow-cpu wheel, installed in a virtualenv
OUTSIDE this repository); it is NOT run by CI, ctest or pytest. The files it
writes are committed, so the tests only need tfe:

    /path/to/venv-with-tensorflow/bin/python tools/gen_tf_graph_data.py

What it writes (all small):
  tests/data/graphs/<case>.pb           serialized GraphDef written by TF
  tests/data/graphs/<case>.fdef.pb      serialized FunctionDef written by TF
  tests/data/graphs/manifest.json       per file: what it is, the op types
                                        in it, and a list of session runs
                                        (feeds, fetches, targets) with the
                                        outputs TF produced, or the error
                                        code TF reported

Expected outputs are what TensorFlow itself computes from the written
bytes: every GraphDef is imported again into a fresh tf.Graph and run with
tf.compat.v1.Session, the runs of one case in order in ONE session (so
variables and queues carry state from run to run). Each output is also
checked here against an independent numpy/Python computation, so a wrong
expectation cannot slip in unnoticed. FunctionDef cases are run eagerly
through the concrete function they came from.

The runs are recorded through the Python Session but replayed by the tests
through the C API (TF_SessionRun), so they avoid what only the Python
client does (fetching a fed tensor, for one, which the C API refuses);
tests/python/test_tf_graph_data.py replays them against TensorFlow's own C
library too (TFE_GRAPH_DATA_LIB) to prove it.

Manifest format (version 1):
  {"version": 1, "tensorflow": "2.21.0", "cases": [CASE, ...]}
  CASE = {"name", "file", "kind": "graphdef" | "functiondef", "description",
          "ops": [op types in the graph, including function bodies],
          "node_ops": [op types of the graph's own nodes] (graphdef),
          "num_nodes": number of nodes of the graph (graphdef),
          "functions": [names of library functions] (graphdef),
          graphdef:    "runs": [RUN, ...]
          functiondef: "function_name", "inputs": [TENSOR], "expected": [EXPECTED]}
  RUN = {"feeds": [{"name": "op:index", **TENSOR}], "fetches": ["op:index"],
         "targets": ["op"], "expected": [EXPECTED] | "error": {"code", "name"},
         "repeat": N (optional: run it N times in a row; the last one is checked)}
  TENSOR = {"dtype": numpy dtype name or "string", "shape": [dims],
            "value": nested lists (strings as UTF-8 text)}
  EXPECTED = TENSOR + {"rtol", "atol"} (0 for exact dtypes)
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import tensorflow as tf
from tensorflow.python.framework.convert_to_constants import (
    convert_variables_to_constants_v2,
)

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "graphs"

v1 = tf.compat.v1

FLOAT_TOL = {"float32": (1e-5, 1e-6), "float64": (1e-12, 1e-12)}


# ------------------------------------------------------------ encoding
def tensor_json(value: Any) -> dict[str, Any]:
    arr = np.asarray(value)
    if arr.dtype.kind in "OSU":
        flat = [v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in arr.reshape(-1)]
        vals: Any = np.array(flat, dtype=object).reshape(arr.shape).tolist()
        return {"dtype": "string", "shape": list(arr.shape), "value": vals}
    return {"dtype": arr.dtype.name, "shape": list(arr.shape), "value": arr.tolist()}


def expected_json(value: Any) -> dict[str, Any]:
    d = tensor_json(value)
    rtol, atol = FLOAT_TOL.get(d["dtype"], (0.0, 0.0))
    d["rtol"], d["atol"] = rtol, atol
    return d


def op_types(gd: Any) -> list[str]:
    ops = {n.op for n in gd.node}
    for f in gd.library.function:
        ops |= {n.op for n in f.node_def}
    return sorted(ops)


# ------------------------------------------------------------- a case
class Run:
    """One session run: feeds by tensor name, fetches, targets, and the
    numpy reference the TF outputs must match (None for an error run)."""

    def __init__(
        self,
        feeds: dict[str, Any] | None = None,
        fetches: list[str] | None = None,
        targets: list[str] | None = None,
        reference: list[Any] | None = None,
        error: str | None = None,
        repeat: int = 1,
    ) -> None:
        self.feeds = feeds or {}
        self.fetches = fetches or []
        self.targets = targets or []
        self.reference = reference
        self.error = error
        self.repeat = repeat


CASES: list[dict[str, Any]] = []


def close_enough(got: Any, want: Any, name: str) -> None:
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        raise AssertionError(f"{name}: TF shape {got.shape} != reference {want.shape}")
    if got.dtype.kind in "fc":
        rtol, atol = FLOAT_TOL.get(got.dtype.name, (1e-5, 1e-6))
        if not np.allclose(got, want, rtol=rtol * 10, atol=atol * 10):
            raise AssertionError(f"{name}: TF {got} != reference {want}")
    elif not np.array_equal(got, want):
        raise AssertionError(f"{name}: TF {got!r} != reference {want!r}")


def add_graph_case(name: str, description: str, gd: Any, runs: list[Run]) -> None:
    """Writes the GraphDef, runs it in TF from the written bytes, records."""
    data = gd.SerializeToString(deterministic=True)
    path = OUT / f"{name}.pb"
    path.write_bytes(data)
    parsed = tf.compat.v1.GraphDef.FromString(path.read_bytes())
    graph = tf.Graph()
    with graph.as_default():
        tf.graph_util.import_graph_def(parsed, name="")
    run_json = []
    with v1.Session(graph=graph) as sess:
        for i, run in enumerate(runs):
            feed_dict = {graph.get_tensor_by_name(k): v for k, v in run.feeds.items()}
            fetch = [graph.get_tensor_by_name(f) for f in run.fetches]
            fetch += [graph.get_operation_by_name(t) for t in run.targets]
            entry: dict[str, Any] = {
                "feeds": [{"name": k, **tensor_json(v)} for k, v in run.feeds.items()],
                "fetches": run.fetches,
                "targets": run.targets,
            }
            if run.repeat != 1:
                entry["repeat"] = run.repeat
            try:
                for _ in range(run.repeat - 1):
                    sess.run(fetch, feed_dict=feed_dict)
                out = sess.run(fetch, feed_dict=feed_dict)[: len(run.fetches)]
            except tf.errors.OpError as e:
                if run.error != type(e).__name__:
                    raise AssertionError(f"{name} run {i}: unexpected {e!r}") from e
                entry["error"] = {"code": e.error_code, "name": type(e).__name__}
            else:
                if run.error is not None:
                    raise AssertionError(f"{name} run {i}: expected {run.error}")
                assert run.reference is not None and len(run.reference) == len(out)
                for j, (got, want) in enumerate(zip(out, run.reference, strict=True)):
                    close_enough(got, want, f"{name} run {i} fetch {j}")
                entry["expected"] = [expected_json(o) for o in out]
            run_json.append(entry)
    CASES.append(
        {
            "name": name,
            "file": path.name,
            "kind": "graphdef",
            "description": description,
            "ops": op_types(gd),
            "node_ops": sorted({n.op for n in gd.node}),
            "num_nodes": len(gd.node),
            "functions": sorted(f.signature.name for f in gd.library.function),
            "runs": run_json,
        }
    )


def add_function_case(
    name: str, description: str, fn: Any, inputs: list[Any], reference: list[Any]
) -> None:
    """Writes a concrete function's own FunctionDef and its eager outputs."""
    fdef = fn.function_def
    if fdef.signature.input_arg and len(fdef.signature.input_arg) != len(inputs):
        raise AssertionError(f"{name}: captured inputs are not supported")
    path = OUT / f"{name}.fdef.pb"
    path.write_bytes(fdef.SerializeToString(deterministic=True))
    out = fn(*[tf.constant(v) for v in inputs])
    out = list(out) if isinstance(out, (list, tuple)) else [out]
    out = [o.numpy() for o in out]
    for j, (got, want) in enumerate(zip(out, reference, strict=True)):
        close_enough(got, want, f"{name} output {j}")
    ops = sorted({n.op for n in fdef.node_def})
    CASES.append(
        {
            "name": name,
            "file": path.name,
            "kind": "functiondef",
            "description": description,
            "ops": ops,
            "function_name": fdef.signature.name,
            "inputs": [tensor_json(v) for v in inputs],
            "expected": [expected_json(o) for o in out],
        }
    )


def v1_graph(build: Callable[[], None], control_flow_v2: bool = False) -> Any:
    """Builds a tf.compat.v1 graph; v1 control flow unless asked otherwise."""
    if control_flow_v2:
        v1.enable_control_flow_v2()
    else:
        v1.disable_control_flow_v2()
    try:
        g = tf.Graph()
        with g.as_default():
            build()
        return g.as_graph_def()
    finally:
        v1.enable_control_flow_v2()


# --------------------------------------------------------------- cases
def mlp_frozen() -> None:
    rng = np.random.default_rng(14)
    w1 = tf.Variable(rng.normal(size=(4, 8)).astype(np.float32), name="w1")
    b1 = tf.Variable(rng.normal(size=(8,)).astype(np.float32), name="b1")
    w2 = tf.Variable(rng.normal(size=(8, 3)).astype(np.float32), name="w2")
    b2 = tf.Variable(rng.normal(size=(3,)).astype(np.float32), name="b2")

    @tf.function
    def model(x: tf.Tensor) -> tf.Tensor:
        h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w1), b1))
        return tf.nn.softmax(tf.nn.bias_add(tf.matmul(h, w2), b2))

    concrete = model.get_concrete_function(tf.TensorSpec([None, 4], tf.float32, name="x"))
    frozen = convert_variables_to_constants_v2(concrete)
    gd = frozen.graph.as_graph_def()
    out = frozen.outputs[0].name
    x = rng.normal(size=(3, 4)).astype(np.float32)
    x[1] = 0.0
    h = np.maximum(x @ w1.numpy() + b1.numpy(), 0)
    z = h @ w2.numpy() + b2.numpy()
    ref = np.exp(z - z.max(axis=1, keepdims=True))
    ref /= ref.sum(axis=1, keepdims=True)
    one = x[:1]
    add_graph_case(
        "mlp_frozen",
        "A 4-8-3 MLP frozen by convert_variables_to_constants_v2: Const weights, "
        "MatMul, BiasAdd, Relu, Softmax; the batch dimension is unknown (-1).",
        gd,
        [
            Run({"x:0": x}, [out], reference=[ref]),
            Run({"x:0": one}, [out], reference=[ref[:1]]),
        ],
    )


def while_v1_counts() -> None:
    def build() -> None:
        n = v1.placeholder(tf.int32, [], name="n")
        i0 = tf.constant(0, name="i0")
        acc0 = tf.constant(1.0, name="acc0")
        _, acc = v1.while_loop(
            lambda i, acc: i < n,
            lambda i, acc: (i + 1, acc * 0.5 + tf.cast(i, tf.float32)),
            [i0, acc0],
            name="loop",
        )
        tf.identity(acc, name="result")
        _, total = v1.while_loop(
            lambda i, s: i < n, lambda i, s: (i + 1, s + i), [i0, tf.constant(0)], name="sum"
        )
        tf.identity(total, name="total")

    def ref(n: int) -> list[Any]:
        acc = np.float32(1.0)
        for i in range(n):
            acc = np.float32(acc * np.float32(0.5) + np.float32(i))
        return [acc, np.int32(n * (n - 1) // 2)]

    add_graph_case(
        "while_v1",
        "tf.compat.v1.while_loop (Enter/Merge/Switch/LoopCond/NextIteration/Exit), "
        "two loops on one placeholder n, run with n = 0, 1, 7 and 1000 iterations.",
        v1_graph(build),
        [
            Run({"n:0": np.int32(k)}, ["result:0", "total:0"], reference=ref(k))
            for k in (0, 1, 7, 1000)
        ],
    )


def while_v1_nested() -> None:
    def build() -> None:
        n = v1.placeholder(tf.int32, [], name="n")
        m = v1.placeholder(tf.int32, [], name="m")

        def outer_body(i: tf.Tensor, s: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
            _, s2 = v1.while_loop(
                lambda j, t: j < m,
                lambda j, t: (j + 1, t + i * j + 1),
                [tf.constant(0), s],
                name="inner",
            )
            return i + 1, s2

        _, s = v1.while_loop(
            lambda i, s: i < n, outer_body, [tf.constant(0), tf.constant(0)], name="outer"
        )
        tf.identity(s, name="result")

    def ref(n: int, m: int) -> list[Any]:
        return [np.int32(sum(i * j + 1 for i in range(n) for j in range(m)))]

    add_graph_case(
        "while_v1_nested",
        "A v1 while_loop whose body runs another v1 while_loop (nested frames); "
        "(n, m) = (0, 3), (3, 0), (1, 1), (4, 5).",
        v1_graph(build),
        [
            Run({"n:0": np.int32(a), "m:0": np.int32(b)}, ["result:0"], reference=ref(a, b))
            for a, b in ((0, 3), (3, 0), (1, 1), (4, 5))
        ],
    )


def while_v1_tensorlist() -> None:
    def build() -> None:
        n = v1.placeholder(tf.int32, [], name="n")
        lst = tf.raw_ops.TensorListReserve(
            element_shape=tf.constant([2], tf.int32),
            num_elements=n,
            element_dtype=tf.float32,
            name="reserve",
        )

        def body(i: tf.Tensor, lst_: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
            f = tf.cast(i, tf.float32)
            item = tf.stack([f, f * f])
            return i + 1, tf.raw_ops.TensorListSetItem(input_handle=lst_, index=i, item=item)

        _, lst = v1.while_loop(lambda i, lst_: i < n, body, [tf.constant(0), lst], name="loop")
        tf.raw_ops.TensorListStack(
            input_handle=lst,
            element_shape=tf.constant([2], tf.int32),
            element_dtype=tf.float32,
            num_elements=-1,
            name="stacked",
        )

    def ref(n: int) -> list[Any]:
        i = np.arange(n, dtype=np.float32)
        return [np.stack([i, i * i], axis=1).reshape(n, 2)]

    add_graph_case(
        "while_v1_tensorlist",
        "A v1 while_loop carrying a TensorList variant: TensorListReserve before the "
        "loop, TensorListSetItem in the body, TensorListStack after; n = 0, 1, 6.",
        v1_graph(build),
        [Run({"n:0": np.int32(k)}, ["stacked:0"], reference=ref(k)) for k in (0, 1, 6)],
    )


def cond_v1() -> None:
    def build() -> None:
        x = v1.placeholder(tf.float32, [None], name="x")
        s = tf.reduce_sum(x, name="s")
        y = v1.cond(s > 0, lambda: x * 2.0, lambda: tf.abs(x) + 1.0, name="branch")
        tf.identity(y, name="result")
        # A v1 loop with a v1 cond in its body (Collatz steps of an int).
        k = v1.placeholder(tf.int32, [], name="k")

        def body(v: tf.Tensor, steps: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
            nv = v1.cond(tf.equal(v % 2, 0), lambda: v // 2, lambda: 3 * v + 1, name="step")
            return nv, steps + 1

        _, steps = v1.while_loop(lambda v, st: v > 1, body, [k, tf.constant(0)], name="collatz")
        tf.identity(steps, name="steps")

    def collatz(v: int) -> int:
        n = 0
        while v > 1:
            v = v // 2 if v % 2 == 0 else 3 * v + 1
            n += 1
        return n

    pos = np.array([1.5, -0.5, 2.0], np.float32)
    neg = np.array([-1.5, 0.5], np.float32)
    add_graph_case(
        "cond_v1",
        "tf.compat.v1.cond (Switch/Merge, dead branches) on a placeholder, and a v1 "
        "while_loop with a v1 cond in its body (Collatz steps: k = 1, 2, 27).",
        v1_graph(build),
        [
            Run({"x:0": pos}, ["result:0"], reference=[pos * 2]),
            Run({"x:0": neg}, ["result:0"], reference=[np.abs(neg) + 1]),
            Run({"k:0": np.int32(1)}, ["steps:0"], reference=[np.int32(0)]),
            Run({"k:0": np.int32(2)}, ["steps:0"], reference=[np.int32(1)]),
            Run({"k:0": np.int32(27)}, ["steps:0"], reference=[np.int32(collatz(27))]),
        ],
    )


def function_calls() -> None:
    @tf.function
    def square_plus_one(x: tf.Tensor) -> tf.Tensor:
        return x * x + 1.0

    @tf.function
    def bump(x: tf.Tensor) -> tf.Tensor:
        # Stateful (a resource variable of the function's own): called with
        # StatefulPartitionedCall.
        h = tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=[3], shared_name="bump_var")
        tf.raw_ops.AssignVariableOp(resource=h, value=x * 3.0)
        return tf.raw_ops.ReadVariableOp(resource=h, dtype=tf.float32) - 1.0

    @tf.function
    def outer(x: tf.Tensor, y: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        return square_plus_one(x) + 2.0 * square_plus_one(y), bump(x)

    concrete = outer.get_concrete_function(
        tf.TensorSpec([3], tf.float32, name="x"), tf.TensorSpec([3], tf.float32, name="y")
    )
    gd = concrete.graph.as_graph_def()
    assert {"PartitionedCall", "StatefulPartitionedCall"} <= {n.op for n in gd.node}
    outs = [t.name for t in concrete.outputs]
    x = np.array([1.0, -2.0, 0.5], np.float32)
    y = np.array([3.0, 0.0, -1.0], np.float32)
    add_graph_case(
        "function_calls",
        "concrete_function.graph.as_graph_def() of a tf.function calling two other "
        "tf.functions: a stateless one through PartitionedCall (twice) and one that "
        "writes and reads its own resource variable through StatefulPartitionedCall. "
        "The callees are in the GraphDef's function library.",
        gd,
        [
            Run({"x:0": x, "y:0": y}, outs, reference=[x * x + 1 + 2 * (y * y + 1), x * 3 - 1]),
            Run({"x:0": y, "y:0": x}, outs, reference=[y * y + 1 + 2 * (x * x + 1), y * 3 - 1]),
        ],
    )


def functional_control_flow() -> None:
    @tf.function
    def if_fn(x: tf.Tensor) -> tf.Tensor:
        if tf.reduce_sum(x) > 0:
            y = x * 2.0
        else:
            y = tf.abs(x) + 1.0
        return y

    c = if_fn.get_concrete_function(tf.TensorSpec([None], tf.float32, name="x"))
    gd = c.graph.as_graph_def()
    assert "StatelessIf" in {n.op for n in gd.node}
    pos = np.array([1.5, -0.5, 2.0], np.float32)
    neg = np.array([-1.5, 0.5], np.float32)
    add_graph_case(
        "if_functional",
        "A tf.function with a Python if on a tensor: functional StatelessIf with its "
        "then/else branches in the library (not lowered to Switch/Merge).",
        gd,
        [
            Run({"x:0": pos}, [c.outputs[0].name], reference=[pos * 2]),
            Run({"x:0": neg}, [c.outputs[0].name], reference=[np.abs(neg) + 1]),
        ],
    )

    @tf.function
    def while_fn(n: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        i = tf.constant(0)
        acc = tf.constant(1.0)
        total = tf.constant(0)
        while i < n:
            j = tf.constant(0)
            while j < i:  # nested functional While
                total += j
                j += 1
            acc = acc * 0.5 + tf.cast(i, tf.float32)
            i += 1
        return acc, total

    c = while_fn.get_concrete_function(tf.TensorSpec([], tf.int32, name="n"))
    gd = c.graph.as_graph_def()
    assert "StatelessWhile" in op_types(gd)

    def wref(n: int) -> list[Any]:
        acc = np.float32(1.0)
        for i in range(n):
            acc = np.float32(acc * np.float32(0.5) + np.float32(i))
        return [acc, np.int32(sum(j for i in range(n) for j in range(i)))]

    add_graph_case(
        "while_functional",
        "A tf.function with nested Python while loops on tensors: functional "
        "StatelessWhile (cond/body functions in the library, the inner loop inside "
        "the outer body); n = 0, 1, 2, 50.",
        gd,
        [
            Run({"n:0": np.int32(k)}, [t.name for t in c.outputs], reference=wref(k))
            for k in (0, 1, 2, 50)
        ],
    )

    @tf.function
    def list_fn(n: tf.Tensor) -> tf.Tensor:
        ta = tf.TensorArray(tf.float32, size=n, element_shape=[2])
        for i in tf.range(n):  # a While whose loop variables include a TensorList
            f = tf.cast(i, tf.float32)
            ta = ta.write(i, tf.stack([f, f * f]))
        return ta.stack()

    c = list_fn.get_concrete_function(tf.TensorSpec([], tf.int32, name="n"))
    gd = c.graph.as_graph_def()
    assert {"TensorListReserve", "TensorListSetItem", "TensorListStack"} <= set(op_types(gd))

    def lref(n: int) -> list[Any]:
        i = np.arange(n, dtype=np.float32)
        return [np.stack([i, i * i], axis=1).reshape(n, 2)]

    add_graph_case(
        "while_functional_tensorlist",
        "A tf.function filling a TensorArray in a loop over tf.range: a functional While "
        "carrying a TensorList (TensorListReserve outside, TensorListSetItem in the body "
        "function, TensorListStack after); n = 0, 1, 6.",
        gd,
        [Run({"n:0": np.int32(k)}, [c.outputs[0].name], reference=lref(k)) for k in (0, 1, 6)],
    )

    @tf.function
    def case_fn(b: tf.Tensor, x: tf.Tensor) -> tf.Tensor:
        return tf.switch_case(b, [lambda: x + 1.0, lambda: x * 3.0, lambda: x - 5.0])

    c = case_fn.get_concrete_function(
        tf.TensorSpec([], tf.int32, name="b"), tf.TensorSpec([2], tf.float32, name="x")
    )
    gd = c.graph.as_graph_def()
    assert "StatelessCase" in {n.op for n in gd.node}
    x = np.array([2.0, -1.0], np.float32)
    add_graph_case(
        "case_functional",
        "tf.switch_case in a tf.function: functional StatelessCase with three branch "
        "functions; an out-of-range index (7, -1) runs the last branch as TF does.",
        gd,
        [
            Run({"b:0": np.int32(0), "x:0": x}, [c.outputs[0].name], reference=[x + 1]),
            Run({"b:0": np.int32(1), "x:0": x}, [c.outputs[0].name], reference=[x * 3]),
            Run({"b:0": np.int32(2), "x:0": x}, [c.outputs[0].name], reference=[x - 5]),
            Run({"b:0": np.int32(7), "x:0": x}, [c.outputs[0].name], reference=[x - 5]),
            Run({"b:0": np.int32(-1), "x:0": x}, [c.outputs[0].name], reference=[x - 5]),
        ],
    )

    @tf.function
    def stateful_fn(x: tf.Tensor, n: tf.Tensor) -> tf.Tensor:
        # Resource ops inside the control flow make it stateful: If and While.
        h = tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=[], shared_name="flow_var")
        tf.raw_ops.AssignVariableOp(resource=h, value=x)
        i = tf.constant(0)
        while i < n:
            tf.raw_ops.AssignAddVariableOp(resource=h, value=tf.constant(1.0))
            i += 1
        if x > 0:
            tf.raw_ops.AssignAddVariableOp(resource=h, value=tf.constant(10.0))
        return tf.raw_ops.ReadVariableOp(resource=h, dtype=tf.float32)

    c = stateful_fn.get_concrete_function(
        tf.TensorSpec([], tf.float32, name="x"), tf.TensorSpec([], tf.int32, name="n")
    )
    gd = c.graph.as_graph_def()
    kinds = op_types(gd)
    assert "While" in kinds and "If" in kinds, kinds
    out = c.outputs[0].name
    add_graph_case(
        "stateful_functional",
        "Stateful functional control flow: a While and an If whose bodies update a "
        "resource variable (VarHandleOp/AssignVariableOp/AssignAddVariableOp).",
        gd,
        [
            Run({"x:0": np.float32(2.0), "n:0": np.int32(3)}, [out], reference=[np.float32(15.0)]),
            Run({"x:0": np.float32(-2.0), "n:0": np.int32(0)}, [out], reference=[np.float32(-2.0)]),
            Run({"x:0": np.float32(0.5), "n:0": np.int32(1)}, [out], reference=[np.float32(11.5)]),
        ],
    )


def function_defs() -> None:
    @tf.function
    def poly(x: tf.Tensor, y: tf.Tensor) -> tf.Tensor:
        return x * y + tf.sin(x) - 2.0

    c = poly.get_concrete_function(
        tf.TensorSpec([3], tf.float32, name="x"), tf.TensorSpec([3], tf.float32, name="y")
    )
    x = np.array([0.5, -1.0, 2.0], np.float32)
    y = np.array([4.0, 0.25, -3.0], np.float32)
    add_function_case(
        "fn_poly",
        "FunctionDef of a tf.function f(x, y) = x*y + sin(x) - 2 over float32[3].",
        c,
        [x, y],
        [x * y + np.sin(x) - 2],
    )

    @tf.function
    def int_ops(a: tf.Tensor, b: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor, tf.Tensor]:
        return a + b, a * b, tf.math.floordiv(a, b)

    c = int_ops.get_concrete_function(
        tf.TensorSpec([4], tf.int64, name="a"), tf.TensorSpec([4], tf.int64, name="b")
    )
    a = np.array([7, -7, 2**40, 0], np.int64)
    b = np.array([2, 2, -3, 5], np.int64)
    add_function_case(
        "fn_int_multi",
        "FunctionDef with three int64 outputs (a+b, a*b, floordiv(a, b)).",
        c,
        [a, b],
        [a + b, a * b, a // b],
    )

    @tf.function
    def strings(s: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        return tf.strings.join([s, tf.constant("!")], separator="-"), tf.strings.length(s)

    c = strings.get_concrete_function(tf.TensorSpec([2], tf.string, name="s"))
    s = np.array([b"hello", b"graph"], dtype=object)
    add_function_case(
        "fn_strings",
        "FunctionDef on a string vector: StringJoin with a constant, StringLength.",
        c,
        [s],
        [np.array([b"hello-!", b"graph-!"], dtype=object), np.array([5, 5], np.int32)],
    )


def queue_graph() -> None:
    def build() -> None:
        x = v1.placeholder(tf.float32, [2], name="x")
        i = v1.placeholder(tf.int32, [], name="i")
        xs = v1.placeholder(tf.float32, [None, 2], name="xs")
        is_ = v1.placeholder(tf.int32, [None], name="is")
        q = tf.queue.FIFOQueue(10, [tf.float32, tf.int32], shapes=[[2], []], name="q")
        q.enqueue([x, i], name="enqueue")
        q.enqueue_many([xs, is_], name="enqueue_many")
        a, b = q.dequeue(name="dequeue")
        tf.identity(a, name="deq_x")
        tf.identity(b, name="deq_i")
        q.dequeue_many(2, name="dequeue_many")
        q.size(name="size")
        q.close(name="close")

    def xv(a: float, b: float) -> Any:
        return np.array([a, b], np.float32)

    add_graph_case(
        "fifo_queue",
        "A FIFOQueueV2 of (float32[2], int32): enqueue, enqueue_many, size, dequeue, "
        "dequeue_many, close, then a dequeue on the closed empty queue (OUT_OF_RANGE). "
        "The runs share one session, in order.",
        v1_graph(build),
        [
            Run({"x:0": xv(1, 2), "i:0": np.int32(7)}, targets=["enqueue"], reference=[]),
            Run({"x:0": xv(3, 4), "i:0": np.int32(8)}, targets=["enqueue"], reference=[]),
            Run(fetches=["size:0"], reference=[np.int32(2)]),
            Run(fetches=["deq_x:0", "deq_i:0"], reference=[xv(1, 2), np.int32(7)]),
            Run(
                {
                    "xs:0": np.array([[5, 6], [7, 8]], np.float32),
                    "is:0": np.array([9, 10], np.int32),
                },
                targets=["enqueue_many"],
                reference=[],
            ),
            Run(fetches=["size:0"], reference=[np.int32(3)]),
            Run(
                fetches=["dequeue_many:0", "dequeue_many:1"],
                reference=[np.array([[3, 4], [5, 6]], np.float32), np.array([8, 9], np.int32)],
            ),
            Run(targets=["close"], reference=[]),
            Run(fetches=["deq_x:0", "deq_i:0"], reference=[xv(7, 8), np.int32(10)]),
            Run(fetches=["deq_x:0"], error="OutOfRangeError"),
        ],
    )


def variables_graph() -> None:
    def build() -> None:
        v = tf.Variable(np.array([1.0, 2.0], np.float32), name="v")
        w = v1.Variable(np.int32(5), name="w", use_resource=False)
        d = v1.placeholder(tf.float32, [2], name="delta")
        v.assign_add(d, read_value=False, name="add")
        tf.identity(v.read_value(), name="v_value")
        tf.identity(v.read_value() * 10.0, name="v_scaled")
        v1.assign_add(w, 3, name="w_add")
        tf.identity(w, name="w_value")
        v1.global_variables_initializer().name  # noqa: B018 - creates "init"
        v1.variables_initializer([v, w], name="init_all")

    gd = v1_graph(build)
    kinds = op_types(gd)
    assert {"VarHandleOp", "AssignVariableOp", "ReadVariableOp", "VariableV2"} <= set(kinds)
    add_graph_case(
        "variables",
        "A resource variable (VarHandleOp, AssignVariableOp, AssignAddVariableOp, "
        "ReadVariableOp) and a reference variable (VariableV2, Assign, AssignAdd), "
        "initialised, updated and read across runs of one session; reading before "
        "initialisation fails as in TF.",
        gd,
        [
            Run(fetches=["v_value:0"], error="FailedPreconditionError"),
            Run(targets=["init_all"], reference=[]),
            Run(
                fetches=["v_value:0", "w_value:0"],
                reference=[np.array([1, 2], np.float32), np.int32(5)],
            ),
            Run(
                {"delta:0": np.array([0.5, -4], np.float32)}, targets=["add", "w_add"], reference=[]
            ),
            Run(
                fetches=["v_value:0", "v_scaled:0", "w_value:0"],
                reference=[
                    np.array([1.5, -2], np.float32),
                    np.array([15, -20], np.float32),
                    np.int32(8),
                ],
            ),
        ],
    )


def devices_and_control() -> None:
    def build() -> None:
        with tf.device("/device:CPU:0"):
            x = v1.placeholder(tf.float32, [3], name="x")
            v = tf.Variable(np.zeros(3, np.float32), name="acc")
            assign = v.assign_add(x, read_value=False, name="accumulate")
            with tf.control_dependencies([assign]):
                tf.identity(v.read_value(), name="after")
            tf.identity_n([x, x * 2.0], name="pair")
            with v1.colocate_with(x.op):
                tf.square(x, name="sq")
            tf.group(assign, name="step")
            v1.variables_initializer([v], name="init")

    gd = v1_graph(build)
    assert sum(n.device == "/device:CPU:0" for n in gd.node) > len(gd.node) // 2
    assert any("_class" in n.attr for n in gd.node)
    one = np.array([1, 2, 3], np.float32)
    ones = np.ones(3, np.float32)
    add_graph_case(
        "devices_control",
        "Nodes placed with tf.device('/device:CPU:0'), a colocation constraint (_class), "
        "a read that has a control dependency on an AssignAddVariableOp, IdentityN, and a "
        "tf.group NoOp run as a target.",
        gd,
        [
            Run(targets=["init"], reference=[]),
            Run({"x:0": one}, ["after:0"], reference=[one]),
            Run({"x:0": ones}, ["after:0", "sq:0"], reference=[one + 1, ones]),
            Run({"x:0": one}, targets=["step"], reference=[]),
            Run({"x:0": one}, ["pair:0", "pair:1", "sq:0"], reference=[one, one * 2, one * one]),
            Run({"x:0": ones}, ["after:0"], reference=[one * 2 + 2]),
        ],
    )


def feeds_and_defaults() -> None:
    def build() -> None:
        x = v1.placeholder_with_default(np.array([1.0, 2.0], np.float32), [2], name="x")
        y = tf.multiply(x, 3.0, name="y")
        tf.add(y, 1.0, name="z")
        k = tf.constant(np.array([10, 20], np.int32), name="k")
        tf.add(k, 5, name="k5")
        p = v1.placeholder(tf.int64, [None], name="p")
        tf.reduce_sum(p, name="psum")

    f2 = np.array([1, 2], np.float32)
    y_fed = np.array([-1.5, 4.0], np.float32)
    add_graph_case(
        "feeds_and_defaults",
        "What TF lets a run feed and fetch: a placeholder_with_default used with and "
        "without a feed, an intermediate tensor and a Const fed in place of their "
        "values, the same tensor fetched twice, an int64 "
        "placeholder of unknown length (fed empty too), and a run that leaves a "
        "required placeholder unfed (INVALID_ARGUMENT).",
        v1_graph(build),
        [
            Run(fetches=["z:0"], reference=[f2 * 3 + 1]),
            Run(
                {"x:0": np.array([0.5, -1], np.float32)},
                ["y:0", "z:0"],
                reference=[np.array([1.5, -3], np.float32), np.array([2.5, -2], np.float32)],
            ),
            # (A tensor both fed and fetched is refused by the C API, which
            # these runs are for; tf.compat.v1.Session answers it in Python.)
            Run({"y:0": y_fed}, ["z:0"], reference=[y_fed + 1]),
            Run(
                {"k:0": np.array([1, 2], np.int32)},
                ["k5:0", "k5:0"],
                reference=[np.array([6, 7], np.int32)] * 2,
            ),
            Run(fetches=["k5:0"], reference=[np.array([15, 25], np.int32)]),
            Run(
                {"p:0": np.array([2**40, 3, -1], np.int64)},
                ["psum:0"],
                reference=[np.int64(2**40 + 2)],
            ),
            Run({"p:0": np.zeros(0, np.int64)}, ["psum:0"], reference=[np.int64(0)]),
            Run(fetches=["psum:0"], error="InvalidArgumentError"),
        ],
    )


def train_v1(manual: bool = False) -> None:
    rng = np.random.default_rng(7)
    xs = rng.normal(size=(8, 3)).astype(np.float32)
    ys = (xs @ np.array([[1.5], [-2.0], [0.5]], np.float32) + 0.25).astype(np.float32)

    def build() -> None:
        x = v1.placeholder(tf.float32, [None, 3], name="x")
        y = v1.placeholder(tf.float32, [None, 1], name="y")
        w = tf.Variable(np.full((3, 1), 0.1, np.float32), name="w")
        b = tf.Variable(np.zeros(1, np.float32), name="b")
        h = tf.nn.relu(tf.matmul(x, w) + b, name="h")  # Relu gradient too
        pred = tf.add(tf.matmul(x, w) + b, 0.1 * h, name="pred")
        loss = tf.reduce_mean(tf.square(pred - y), name="loss")
        if manual:  # tf.gradients and plain variable updates, no optimizer op
            gw, gb = tf.gradients(loss, [w, b])
            tf.group(w.assign_sub(0.05 * gw), b.assign_sub(0.05 * gb), name="train")
        else:
            v1.train.GradientDescentOptimizer(0.05).minimize(loss, name="train")
        v1.variables_initializer([w, b], name="init")

    def numpy_steps(n: int) -> tuple[np.ndarray, np.ndarray, np.float32]:
        w = np.full((3, 1), 0.1, np.float64)
        b = np.zeros(1, np.float64)
        for _ in range(n):
            lin = xs @ w + b
            pred = lin + 0.1 * np.maximum(lin, 0)
            d = 2 * (pred - ys) / len(xs)
            dlin = d * (1 + 0.1 * (lin > 0))
            w = w - 0.05 * xs.T @ dlin
            b = b - 0.05 * dlin.sum(axis=0)
        lin = xs @ w + b
        pred = lin + 0.1 * np.maximum(lin, 0)
        return w.astype(np.float32), b.astype(np.float32), np.float32(np.mean((pred - ys) ** 2))

    feeds = {"x:0": xs, "y:0": ys}
    runs = [Run(targets=["init"], reference=[])]
    l0 = numpy_steps(0)[2]
    runs.append(Run(feeds, ["loss:0"], reference=[l0]))
    runs.append(Run(feeds, targets=["train"], reference=[], repeat=30))
    w30, b30, l30 = numpy_steps(30)
    runs.append(
        Run(
            feeds,
            ["loss:0", "w/Read/ReadVariableOp:0", "b/Read/ReadVariableOp:0"],
            reference=[l30, w30, b30],
        )
    )
    gd = v1_graph(build)
    assert l30 < l0 / 4, (l0, l30)
    how = (
        "tf.gradients and AssignSubVariableOp updates"
        if manual
        else "GradientDescentOptimizer.minimize (ResourceApplyGradientDescent)"
    )
    add_graph_case(
        "train_v1_gradients" if manual else "train_v1",
        "A tf.compat.v1 training graph: linear model + 0.1*relu, mean squared error, "
        f"trained by {how}, with the gradient ops TF adds (MatMul/Relu/Mean/Square "
        "gradients, BroadcastGradientArgs, ...); 30 training runs in one session, then "
        "the loss and the variables.",
        gd,
        runs,
    )


def while_v1_tensorarray() -> None:
    def build() -> None:
        n = v1.placeholder(tf.int32, [], name="n")
        ta = tf.TensorArray(tf.float32, size=n, element_shape=[2], name="ta")

        def body(i: tf.Tensor, acc: Any) -> tuple[tf.Tensor, Any]:
            f = tf.cast(i, tf.float32)
            return i + 1, acc.write(i, tf.stack([f, 2.0 * f]))

        _, ta = v1.while_loop(lambda i, acc: i < n, body, [tf.constant(0), ta], name="loop")
        tf.identity(ta.stack(), name="stacked")

    gd = v1_graph(build)
    assert "TensorArrayV3" in op_types(gd)

    def ref(n: int) -> list[Any]:
        i = np.arange(n, dtype=np.float32)
        return [np.stack([i, 2 * i], axis=1).reshape(n, 2)]

    add_graph_case(
        "while_v1_tensorarray",
        "A v1 while_loop writing a v1 TensorArray (TensorArrayV3, TensorArrayWriteV3, "
        "TensorArrayGatherV3 via stack(), with its flow tensor carried through the loop), as "
        "tf.compat.v1 graphs made with TensorArray/map_fn contain; n = 0, 1, 5.",
        gd,
        [Run({"n:0": np.int32(k)}, ["stacked:0"], reference=ref(k)) for k in (0, 1, 5)],
    )


def main() -> int:
    if not tf.__version__.startswith("2.21"):
        print(f"warning: written for TensorFlow 2.21, running {tf.__version__}", file=sys.stderr)
    OUT.mkdir(parents=True, exist_ok=True)
    for stale in list(OUT.glob("*.pb")):
        stale.unlink()
    mlp_frozen()
    while_v1_counts()
    while_v1_nested()
    while_v1_tensorlist()
    cond_v1()
    function_calls()
    functional_control_flow()
    function_defs()
    queue_graph()
    variables_graph()
    devices_and_control()
    feeds_and_defaults()
    train_v1()
    train_v1(manual=True)
    while_v1_tensorarray()
    manifest = {"version": 1, "tensorflow": tf.__version__, "cases": CASES}
    (OUT / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    total = sum(p.stat().st_size for p in OUT.iterdir() if p.is_file())
    for c in CASES:
        print(f"{c['file']:32s} {c['kind']:11s} {', '.join(c['ops'])}")
    print(f"{len(CASES)} cases, {total} bytes in {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
