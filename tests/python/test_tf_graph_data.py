"""GraphDefs and FunctionDefs written by TensorFlow 2.21, run through tfe.

The data under tests/data/graphs/ was generated OUTSIDE this repository by
tools/gen_tf_graph_data.py with the TF 2.21 pip package; manifest.json
gives, for every file, the session runs (feeds, fetches, targets) and the
outputs or error code TF produced. These tests drive the raw C API through
cffi (TF_GraphImportGraphDef, TF_NewSession, TF_SessionRun,
TF_FunctionImportFunctionDef, TFE_ContextAddFunction ...), so they depend
on nothing but libtfe.

The last group goes the other way: GraphDefs and FunctionDefs EXPORTED by
tfe are imported and run by TensorFlow. It needs a Python with tensorflow:
this interpreter if it can import it, else the one named by $TFE_TF_PYTHON
or $TF_PYTHON; without one those tests are skipped.

To check the tests themselves, the same file runs against TensorFlow's own
C library instead of libtfe:

    TFE_GRAPH_DATA_LIB=<venv>/lib/python3.11/site-packages/tensorflow/libtensorflow_cc.so.2 \
        python -m pytest tests/python/test_tf_graph_data.py

That loads the library with cffi in ABI mode from the cdef of tfe's
headers (which are TF's interface) and never loads libtfe. (TF's library
may then crash while the process exits, after the results are printed.)
The same variable runs the tests against a libtfe build without touching
the in-place package (TFE_GRAPH_DATA_LIB=build/libtfe.so; the live tensor
count check is then skipped).
"""

from __future__ import annotations

import gc
import json
import math
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

CData = Any
OTHER_LIB = os.environ.get("TFE_GRAPH_DATA_LIB")
if OTHER_LIB:
    import ctypes

    import cffi

    import build_ffi

    _tf_dir = Path(OTHER_LIB).parent
    for _dep in sorted(_tf_dir.glob("libtensorflow_framework.so*")):
        ctypes.CDLL(str(_dep), mode=ctypes.RTLD_GLOBAL)
        break
    ffi = cffi.FFI()
    ffi.cdef(
        build_ffi.clean_declarations(
            build_ffi.preprocess([h for h in build_ffi.HEADERS if h.startswith("tensorflow/")])
        )
    )
    lib = ffi.dlopen(OTHER_LIB)
else:
    from tfe_py._ffi import ffi, lib

# numpy dtype name <-> TF_DataType for the dtypes in the manifest (kept
# here so that the TFE_GRAPH_DATA_LIB mode needs nothing from tfe_py).
_TF_DTYPES = {
    "float32": 1,
    "float64": 2,
    "int32": 3,
    "uint8": 4,
    "int16": 5,
    "int8": 6,
    "int64": 9,
    "bool": 10,
    "uint16": 17,
    "uint32": 22,
    "uint64": 23,
}
_NP_DTYPES = {v: k for k, v in _TF_DTYPES.items()}

DATA = Path(__file__).resolve().parents[1] / "data" / "graphs"
MANIFEST: dict[str, Any] = json.loads((DATA / "manifest.json").read_text())
GRAPH_CASES = [c for c in MANIFEST["cases"] if c["kind"] == "graphdef"]
FUNCTION_CASES = [c for c in MANIFEST["cases"] if c["kind"] == "functiondef"]

TF_OK, TF_FLOAT, TF_STRING = 0, 1, 7  # TF_Code / TF_DataType values

# Cases that tfe does not run yet (name -> reason), reported as such; see
# the issue. PENDING marks only the tests that run a session, PENDING_ALL
# every test of the case (tfe cannot even import it).
PENDING: dict[str, str] = {}
PENDING_ALL: dict[str, str] = {}


def _pending(name: str, session: bool) -> list[Any]:
    reason = PENDING_ALL.get(name) or (PENDING.get(name) if session else None)
    return [pytest.mark.xfail(strict=False, reason=reason)] if reason else []


def _params(cases: list[dict[str, Any]], session: bool = False) -> list[Any]:
    """Test parameters, with the xfail marks of PENDING / PENDING_ALL."""
    return [pytest.param(c, id=c["name"], marks=_pending(c["name"], session)) for c in cases]


# ------------------------------------------------------------- helpers
@contextmanager
def _status() -> Iterator[CData]:
    s = lib.TF_NewStatus()
    try:
        yield s
    finally:
        lib.TF_DeleteStatus(s)


def _check(s: CData, what: str) -> None:
    code = int(lib.TF_GetCode(s))
    if code != TF_OK:
        msg = ffi.string(lib.TF_Message(s)).decode("utf-8", "replace")
        raise AssertionError(f"{what} failed with code {code}: {msg}")


def _np_dtype(name: str) -> Any:
    return object if name == "string" else np.dtype(name)


def _tensor_from_json(spec: dict[str, Any]) -> CData:
    """A new TF_Tensor* (caller deletes) from a manifest TENSOR."""
    shape = [int(d) for d in spec["shape"]]
    dims = ffi.new("int64_t[]", shape) if shape else ffi.NULL
    if spec["dtype"] == "string":
        flat = np.array(spec["value"], dtype=object).reshape(-1) if shape else [spec["value"]]
        items = [str(v).encode("utf-8") for v in flat]
        t = lib.TF_AllocateTensor(
            TF_STRING, dims, len(shape), ffi.sizeof("TF_TString") * len(items)
        )
        assert t != ffi.NULL
        base = ffi.cast("TF_TString*", lib.TF_TensorData(t))
        for i, item in enumerate(items):
            lib.TF_StringInit(base + i)  # TF_AllocateTensor leaves the bytes as they are
            lib.TF_StringCopy(base + i, item, len(item))
        return t
    arr = np.array(spec["value"], dtype=_np_dtype(spec["dtype"]), order="C")
    assert list(arr.shape) == shape
    t = lib.TF_AllocateTensor(_TF_DTYPES[arr.dtype.name], dims, len(shape), arr.nbytes)
    assert t != ffi.NULL
    if arr.nbytes:
        ffi.memmove(lib.TF_TensorData(t), ffi.from_buffer(arr), arr.nbytes)
    return t


def _tensor_to_numpy(t: CData) -> np.ndarray:
    """A copy of a TF_Tensor's value (strings: object array of bytes)."""
    shape = tuple(int(lib.TF_Dim(t, i)) for i in range(lib.TF_NumDims(t)))
    tf_dtype = int(lib.TF_TensorType(t))
    count = math.prod(shape)
    if tf_dtype == TF_STRING:
        out = np.empty(count, dtype=object)
        base = ffi.cast("TF_TString*", lib.TF_TensorData(t))
        for i in range(count):
            item = base + i
            out[i] = ffi.buffer(lib.TF_StringGetDataPointer(item), lib.TF_StringGetSize(item))[:]
        return out.reshape(shape)
    np_dtype = np.dtype(_NP_DTYPES[tf_dtype])
    if count == 0:
        return np.empty(shape, np_dtype)
    raw = ffi.buffer(lib.TF_TensorData(t), count * np_dtype.itemsize)[:]
    return np.frombuffer(raw, dtype=np_dtype).reshape(shape).copy()


def _assert_matches(got: np.ndarray, want: dict[str, Any], what: str) -> None:
    if want["dtype"] == "string":
        assert got.dtype == object, f"{what}: dtype {got.dtype}, TF gave string"
        expect = np.array(want["value"], dtype=object).reshape(want["shape"])
        assert list(got.shape) == want["shape"], f"{what}: shape {got.shape}"
        assert [bytes(v) for v in got.reshape(-1)] == [
            str(v).encode("utf-8") for v in expect.reshape(-1)
        ], f"{what}: {got!r} != {expect!r}"
        return
    assert got.dtype == np.dtype(want["dtype"]), f"{what}: dtype {got.dtype} != {want['dtype']}"
    assert list(got.shape) == want["shape"], f"{what}: shape {got.shape} != {want['shape']}"
    expect = np.array(want["value"], dtype=got.dtype).reshape(want["shape"])
    if got.dtype.kind in "fc":
        np.testing.assert_allclose(got, expect, rtol=want["rtol"], atol=want["atol"], err_msg=what)
    else:
        np.testing.assert_array_equal(got, expect, err_msg=what)


def _output(g: CData, name: str) -> CData:
    op_name, _, index = name.rpartition(":")
    op = lib.TF_GraphOperationByName(g, op_name.encode())
    assert op != ffi.NULL, f"no operation {op_name!r} in the imported graph"
    out = ffi.new("TF_Output*")
    out.oper = op
    out.index = int(index)
    return out[0]


def _import_graph(data: bytes) -> CData:
    g = lib.TF_NewGraph()
    buf = lib.TF_NewBufferFromString(data, len(data))
    opts = lib.TF_NewImportGraphDefOptions()
    try:
        with _status() as s:
            lib.TF_GraphImportGraphDef(g, buf, opts, s)
            _check(s, "TF_GraphImportGraphDef")
    except BaseException:
        lib.TF_DeleteGraph(g)
        raise
    finally:
        lib.TF_DeleteImportGraphDefOptions(opts)
        lib.TF_DeleteBuffer(buf)
    return g


@contextmanager
def _session(g: CData) -> Iterator[CData]:
    opts = lib.TF_NewSessionOptions()
    with _status() as s:
        sess = lib.TF_NewSession(g, opts, s)
        lib.TF_DeleteSessionOptions(opts)
        _check(s, "TF_NewSession")
    try:
        yield sess
    finally:
        with _status() as s:
            lib.TF_CloseSession(sess, s)
            _check(s, "TF_CloseSession")
            lib.TF_DeleteSession(sess, s)
            _check(s, "TF_DeleteSession")


def _session_run(
    sess: CData, g: CData, feeds: list[tuple[str, CData]], fetches: list[str], targets: list[str]
) -> tuple[int, str, list[np.ndarray]]:
    """Runs once; returns (code, message, fetched values)."""
    n_in, n_out, n_tg = len(feeds), len(fetches), len(targets)
    inputs = ffi.new("TF_Output[]", [_output(g, name) for name, _ in feeds] or 1)
    values = ffi.new("TF_Tensor*[]", [t for _, t in feeds] or 1)
    outputs = ffi.new("TF_Output[]", [_output(g, f) for f in fetches] or 1)
    results = ffi.new("TF_Tensor*[]", max(n_out, 1))
    ops = []
    for t in targets:
        op = lib.TF_GraphOperationByName(g, t.encode())
        assert op != ffi.NULL, f"no target operation {t!r}"
        ops.append(op)
    target_ops = ffi.new("TF_Operation*[]", ops or 1)
    with _status() as s:
        lib.TF_SessionRun(
            sess,
            ffi.NULL,
            inputs,
            values,
            n_in,
            outputs,
            results,
            n_out,
            target_ops,
            n_tg,
            ffi.NULL,
            s,
        )
        code = int(lib.TF_GetCode(s))
        msg = ffi.string(lib.TF_Message(s)).decode("utf-8", "replace")
    got = []
    try:
        if code == TF_OK:
            for i in range(n_out):
                assert results[i] != ffi.NULL, f"fetch {fetches[i]} returned NULL"
                got.append(_tensor_to_numpy(results[i]))
    finally:
        for i in range(n_out):
            if results[i] != ffi.NULL:
                lib.TF_DeleteTensor(results[i])
    return code, msg, got


def _run_case_in_tfe(g: CData, case: dict[str, Any]) -> None:
    """Runs every manifest run of `case` in one session of `g`, checking each."""
    with _session(g) as sess:
        for i, run in enumerate(case["runs"]):
            what = f"{case['name']} run {i}"
            feeds = [(f["name"], _tensor_from_json(f)) for f in run["feeds"]]
            try:
                for _ in range(run.get("repeat", 1)):
                    code, msg, got = _session_run(sess, g, feeds, run["fetches"], run["targets"])
                    if code != TF_OK:
                        break
            finally:
                for _, t in feeds:
                    lib.TF_DeleteTensor(t)
            if "error" in run:
                assert code == run["error"]["code"], (
                    f"{what}: code {code} ({msg}), TF gave {run['error']['name']}"
                )
                continue
            assert code == TF_OK, f"{what}: TF_SessionRun failed ({code}): {msg}"
            assert len(got) == len(run["expected"])
            for j, (value, want) in enumerate(zip(got, run["expected"], strict=True)):
                _assert_matches(value, want, f"{what} fetch {run['fetches'][j]}")


def _graph_op_types(g: CData) -> set[str]:
    pos = ffi.new("size_t*", 0)
    kinds = set()
    while True:
        op = lib.TF_GraphNextOperation(g, pos)
        if op == ffi.NULL:
            return kinds
        kinds.add(ffi.string(lib.TF_OperationOpType(op)).decode())


def _graph_to_graphdef(g: CData) -> bytes:
    buf = lib.TF_NewBuffer()
    try:
        with _status() as s:
            lib.TF_GraphToGraphDef(g, buf, s)
            _check(s, "TF_GraphToGraphDef")
        return bytes(ffi.buffer(buf.data, buf.length))
    finally:
        lib.TF_DeleteBuffer(buf)


def _import_function(data: bytes) -> CData:
    with _status() as s:
        fn = lib.TF_FunctionImportFunctionDef(data, len(data), s)
        _check(s, "TF_FunctionImportFunctionDef")
    assert fn != ffi.NULL
    return fn


# ------------------------------------------------------------- the data
def test_manifest_lists_every_file_and_stays_small() -> None:
    files = {p.name for p in DATA.iterdir() if p.suffix == ".pb"}
    assert files == {c["file"] for c in MANIFEST["cases"]}
    assert MANIFEST["tensorflow"].startswith("2.21")
    total = sum(p.stat().st_size for p in DATA.iterdir())
    assert total < 400_000, f"graph test data grew to {total} bytes"
    kinds = {c["name"]: set(c["ops"]) for c in MANIFEST["cases"]}
    # The constructs the issue asks for are really in the data.
    assert {"Enter", "Exit", "NextIteration", "LoopCond", "Switch", "Merge"} <= kinds["while_v1"]
    assert {"TensorListReserve", "TensorListSetItem", "TensorListStack"} <= kinds[
        "while_v1_tensorlist"
    ]
    assert {"PartitionedCall", "StatefulPartitionedCall"} <= kinds["function_calls"]
    assert "StatelessIf" in kinds["if_functional"]
    assert "StatelessWhile" in kinds["while_functional"]
    assert {"StatelessWhile", "TensorListSetItem"} <= kinds["while_functional_tensorlist"]
    assert "StatelessCase" in kinds["case_functional"]
    assert {"If", "While"} <= kinds["stateful_functional"]
    assert {"FIFOQueueV2", "QueueEnqueueV2", "QueueDequeueV2"} <= kinds["fifo_queue"]
    assert {"VarHandleOp", "AssignVariableOp", "ReadVariableOp"} <= kinds["variables"]


@pytest.mark.parametrize("case", _params(GRAPH_CASES))
def test_tf_graphdef_imports(case: dict[str, Any]) -> None:
    g = _import_graph((DATA / case["file"]).read_bytes())
    try:
        assert _graph_op_types(g) == set(case["node_ops"])
        pos = ffi.new("size_t*", 0)
        count = 0
        while lib.TF_GraphNextOperation(g, pos) != ffi.NULL:
            count += 1
        assert count == case["num_nodes"]
        assert int(lib.TF_GraphNumFunctions(g)) == len(case["functions"])
    finally:
        lib.TF_DeleteGraph(g)


@pytest.mark.parametrize("case", _params(GRAPH_CASES, session=True))
def test_tf_graphdef_runs_like_tf(case: dict[str, Any], request: Any) -> None:
    live_count = None if OTHER_LIB else request.getfixturevalue("live_count")
    # Tensors of earlier tests that only the garbage collector frees must
    # not be counted (or freed) inside the window.
    gc.collect()
    before = live_count("TENSOR") if live_count else 0
    g = _import_graph((DATA / case["file"]).read_bytes())
    try:
        _run_case_in_tfe(g, case)
    finally:
        lib.TF_DeleteGraph(g)
    gc.collect()
    if live_count:
        assert live_count("TENSOR") == before, "tensors leaked by the session runs"


@pytest.mark.parametrize("case", _params(GRAPH_CASES, session=True))
def test_tf_graphdef_reimported_from_tfe_export_runs(case: dict[str, Any]) -> None:
    """Import, export with TF_GraphToGraphDef, import the export, run it."""
    g = _import_graph((DATA / case["file"]).read_bytes())
    try:
        exported = _graph_to_graphdef(g)
    finally:
        lib.TF_DeleteGraph(g)
    g2 = _import_graph(exported)
    try:
        _run_case_in_tfe(g2, case)
    finally:
        lib.TF_DeleteGraph(g2)


def _function_call_graph(fn: CData, case: dict[str, Any]) -> tuple[CData, list[str], list[str]]:
    """A graph: one Placeholder per input and one call of `fn` on them."""
    name = case["function_name"]
    g = lib.TF_NewGraph()
    with _status() as s:
        lib.TF_GraphCopyFunction(g, fn, ffi.NULL, s)
        _check(s, "TF_GraphCopyFunction")
        feeds = []
        ins = []
        for i, spec in enumerate(case["inputs"]):
            d = lib.TF_NewOperation(g, b"Placeholder", f"in{i}".encode())
            dt = _TF_DTYPES.get(spec["dtype"], TF_STRING)
            lib.TF_SetAttrType(d, b"dtype", dt)
            op = lib.TF_FinishOperation(d, s)
            _check(s, f"Placeholder in{i}")
            out = ffi.new("TF_Output*")
            out.oper, out.index = op, 0
            ins.append(out[0])
            feeds.append(f"in{i}:0")
        d = lib.TF_NewOperation(g, name.encode(), b"call")
        for x in ins:
            lib.TF_AddInput(d, x)
        call = lib.TF_FinishOperation(d, s)
        _check(s, f"TF_FinishOperation({name})")
    fetches = [f"call:{i}" for i in range(int(lib.TF_OperationNumOutputs(call)))]
    assert len(fetches) == len(case["expected"])
    return g, feeds, fetches


@pytest.mark.parametrize("case", _params(FUNCTION_CASES))
def test_tf_functiondef_imports_and_round_trips(case: dict[str, Any]) -> None:
    data = (DATA / case["file"]).read_bytes()
    fn = _import_function(data)
    try:
        assert ffi.string(lib.TF_FunctionName(fn)).decode() == case["function_name"]
        buf = lib.TF_NewBuffer()
        try:
            with _status() as s:
                lib.TF_FunctionToFunctionDef(fn, buf, s)
                _check(s, "TF_FunctionToFunctionDef")
            again = bytes(ffi.buffer(buf.data, buf.length))
        finally:
            lib.TF_DeleteBuffer(buf)
        fn2 = _import_function(again)
        assert ffi.string(lib.TF_FunctionName(fn2)).decode() == case["function_name"]
        lib.TF_DeleteFunction(fn2)
    finally:
        lib.TF_DeleteFunction(fn)


@pytest.mark.parametrize("case", _params(FUNCTION_CASES, session=True))
def test_tf_functiondef_runs_in_a_graph(case: dict[str, Any]) -> None:
    fn = _import_function((DATA / case["file"]).read_bytes())
    try:
        g, feeds, fetches = _function_call_graph(fn, case)
    finally:
        lib.TF_DeleteFunction(fn)
    try:
        run = {
            "feeds": [{"name": n, **spec} for n, spec in zip(feeds, case["inputs"], strict=True)],
            "fetches": fetches,
            "targets": [],
            "expected": case["expected"],
        }
        _run_case_in_tfe(g, {"name": case["name"], "runs": [run]})
    finally:
        lib.TF_DeleteGraph(g)


@pytest.mark.parametrize("case", _params(FUNCTION_CASES))
def test_tf_functiondef_runs_eagerly(case: dict[str, Any]) -> None:
    fn = _import_function((DATA / case["file"]).read_bytes())
    handles: list[CData] = []
    with _status() as s:
        opts = lib.TFE_NewContextOptions()
        ctx = lib.TFE_NewContext(opts, s)
        lib.TFE_DeleteContextOptions(opts)
        _check(s, "TFE_NewContext")
        op = ffi.NULL
        try:
            lib.TFE_ContextAddFunction(ctx, fn, s)
            _check(s, "TFE_ContextAddFunction")
            name = case["function_name"].encode()
            assert lib.TFE_ContextHasFunction(ctx, name)
            op = lib.TFE_NewOp(ctx, name, s)
            _check(s, "TFE_NewOp(function)")
            for spec in case["inputs"]:
                t = _tensor_from_json(spec)
                h = lib.TFE_NewTensorHandle(t, s)
                lib.TF_DeleteTensor(t)
                _check(s, "TFE_NewTensorHandle")
                handles.append(h)
                lib.TFE_OpAddInput(op, h, s)
                _check(s, "TFE_OpAddInput")
            n = len(case["expected"])
            outs = ffi.new("TFE_TensorHandle*[]", n)
            num = ffi.new("int*", n)
            lib.TFE_Execute(op, outs, num, s)
            _check(s, "TFE_Execute(function)")
            assert num[0] == n
            for i in range(n):
                t = lib.TFE_TensorHandleResolve(outs[i], s)
                _check(s, "TFE_TensorHandleResolve")
                _assert_matches(_tensor_to_numpy(t), case["expected"][i], f"output {i}")
                lib.TF_DeleteTensor(t)
                lib.TFE_DeleteTensorHandle(outs[i])
            lib.TFE_ContextRemoveFunction(ctx, name, s)
            _check(s, "TFE_ContextRemoveFunction")
            assert not lib.TFE_ContextHasFunction(ctx, name)
        finally:
            lib.TFE_DeleteOp(op)
            for h in handles:
                lib.TFE_DeleteTensorHandle(h)
            lib.TF_DeleteFunction(fn)
            lib.TFE_DeleteContext(ctx)


# ------------------------------------------- tfe's exports, run by TF
def _tf_python() -> list[str] | None:
    """A command running a Python that can import tensorflow, or None."""
    try:
        import tensorflow  # type: ignore[import-not-found]  # noqa: F401
    except Exception:
        pass
    else:
        return [sys.executable]
    for var in ("TFE_TF_PYTHON", "TF_PYTHON"):
        exe = os.environ.get(var)
        if exe and Path(exe).exists():
            return [exe]
    return None


# Runs GraphDefs in TensorFlow: reads a JSON job from stdin
# ({"graphs": [{"path", "runs"}]}, runs in the manifest format) and prints,
# per graph, per run, either the fetched values or the error code.
_TF_RUNNER = textwrap.dedent(
    """
    import json, os, sys
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf
    v1 = tf.compat.v1

    def value(spec):
        if spec["dtype"] == "string":
            return np.array(spec["value"], dtype=object).astype(bytes)
        return np.array(spec["value"], dtype=spec["dtype"])

    def out(a):
        a = np.asarray(a)
        if a.dtype.kind in "OS":
            flat = [bytes(v).decode("utf-8") for v in a.reshape(-1)]
            return {"dtype": "string", "shape": list(a.shape),
                    "value": np.array(flat, dtype=object).reshape(a.shape).tolist()}
        return {"dtype": a.dtype.name, "shape": list(a.shape), "value": a.tolist()}

    job = json.load(sys.stdin)
    results = []
    for item in job["graphs"]:
        gd = v1.GraphDef.FromString(open(item["path"], "rb").read())
        g = tf.Graph()
        with g.as_default():
            tf.graph_util.import_graph_def(gd, name="")
        runs = []
        with v1.Session(graph=g) as sess:
            for run in item["runs"]:
                feeds = {g.get_tensor_by_name(f["name"]): value(f) for f in run["feeds"]}
                fetch = [g.get_tensor_by_name(f) for f in run["fetches"]]
                fetch += [g.get_operation_by_name(t) for t in run["targets"]]
                try:
                    for _ in range(run.get("repeat", 1) - 1):
                        sess.run(fetch, feed_dict=feeds)
                    got = sess.run(fetch, feed_dict=feeds)[: len(run["fetches"])]
                except tf.errors.OpError as e:
                    runs.append({"error": e.error_code, "message": str(e)[:300]})
                else:
                    runs.append({"values": [out(v) for v in got]})
        results.append(runs)
    print(json.dumps(results))
    """
)


def _run_in_tf(tf_cmd: list[str], graphs: list[tuple[Path, list[dict[str, Any]]]]) -> list[Any]:
    job = {"graphs": [{"path": str(p), "runs": runs} for p, runs in graphs]}
    proc = subprocess.run(
        [*tf_cmd, "-c", _TF_RUNNER],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert proc.returncode == 0, f"TensorFlow failed on tfe's GraphDef:\n{proc.stderr[-3000:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _check_tf_results(case: dict[str, Any], runs: list[dict[str, Any]], got: list[Any]) -> None:
    for i, (run, res) in enumerate(zip(runs, got, strict=True)):
        what = f"{case['name']} run {i} in TensorFlow"
        if "error" in run:
            assert res.get("error") == run["error"]["code"], f"{what}: {res}"
            continue
        assert "values" in res, f"{what}: {res}"
        for j, (v, want) in enumerate(zip(res["values"], run["expected"], strict=True)):
            if v["dtype"] == "string":
                flat = np.array(v["value"], dtype=object).reshape(-1)
                arr = np.array([str(x).encode("utf-8") for x in flat] + [None], dtype=object)
                arr = arr[:-1].reshape(v["shape"])
            else:
                arr = np.array(v["value"], dtype=v["dtype"]).reshape(v["shape"])
            _assert_matches(arr, want, f"{what} fetch {j}")


@pytest.fixture(scope="module")
def tf_python() -> list[str]:
    cmd = _tf_python()
    if cmd is None:
        pytest.skip("TensorFlow is not importable (set TFE_TF_PYTHON to a Python that has it)")
    return cmd


def test_tfe_exports_of_tf_graphs_run_in_tf(tf_python: list[str], tmp_path: Path) -> None:
    jobs = []
    for case in GRAPH_CASES:
        if case["name"] in PENDING_ALL:
            continue
        g = _import_graph((DATA / case["file"]).read_bytes())
        try:
            path = tmp_path / case["file"]
            path.write_bytes(_graph_to_graphdef(g))
        finally:
            lib.TF_DeleteGraph(g)
        jobs.append((case, path))
    results = _run_in_tf(tf_python, [(p, c["runs"]) for c, p in jobs])
    for (case, _), got in zip(jobs, results, strict=True):
        _check_tf_results(case, case["runs"], got)


def _finish(d: CData, what: str) -> CData:
    with _status() as s:
        op = lib.TF_FinishOperation(d, s)
        _check(s, what)
    return op


def _out(op: CData, index: int = 0) -> CData:
    o = ffi.new("TF_Output*")
    o.oper, o.index = op, index
    return o[0]


def test_graph_built_in_tfe_runs_in_tf(tf_python: list[str], tmp_path: Path) -> None:
    """A graph made with TF_NewOperation (placeholder, const, AddV2, MatMul,
    a call of a function made by TF_GraphToFunction) exported by tfe."""
    g = lib.TF_NewGraph()
    fn_graph = lib.TF_NewGraph()
    fn = ffi.NULL
    try:
        # The function: f(a) = a * a, built in its own graph.
        d = lib.TF_NewOperation(fn_graph, b"Placeholder", b"a")
        lib.TF_SetAttrType(d, b"dtype", TF_FLOAT)
        a = _finish(d, "a")
        d = lib.TF_NewOperation(fn_graph, b"Mul", b"sq")
        lib.TF_AddInput(d, _out(a))
        lib.TF_AddInput(d, _out(a))
        sq = _finish(d, "sq")
        fin = ffi.new("TF_Output[]", [_out(a)])
        fout = ffi.new("TF_Output[]", [_out(sq)])
        with _status() as s:
            fn = lib.TF_GraphToFunction(
                fn_graph,
                b"tfe_square",
                0,
                -1,
                ffi.NULL,
                1,
                fin,
                1,
                fout,
                ffi.NULL,
                ffi.NULL,
                ffi.NULL,
                s,
            )
            _check(s, "TF_GraphToFunction")
            lib.TF_GraphCopyFunction(g, fn, ffi.NULL, s)
            _check(s, "TF_GraphCopyFunction")

        d = lib.TF_NewOperation(g, b"Placeholder", b"x")
        lib.TF_SetAttrType(d, b"dtype", TF_FLOAT)
        dims = ffi.new("int64_t[]", [2, 2])
        lib.TF_SetAttrShape(d, b"shape", dims, 2)
        x = _finish(d, "x")
        c = _tensor_from_json({"dtype": "float32", "shape": [2, 2], "value": [[1, 2], [3, 4]]})
        d = lib.TF_NewOperation(g, b"Const", b"c")
        with _status() as s:
            lib.TF_SetAttrTensor(d, b"value", c, s)
            _check(s, "TF_SetAttrTensor")
        lib.TF_DeleteTensor(c)
        lib.TF_SetAttrType(d, b"dtype", TF_FLOAT)
        cop = _finish(d, "c")
        d = lib.TF_NewOperation(g, b"AddV2", b"sum")
        lib.TF_AddInput(d, _out(x))
        lib.TF_AddInput(d, _out(cop))
        s_op = _finish(d, "sum")
        d = lib.TF_NewOperation(g, b"MatMul", b"prod")
        lib.TF_AddInput(d, _out(s_op))
        lib.TF_AddInput(d, _out(cop))
        lib.TF_SetAttrBool(d, b"transpose_b", 1)
        p = _finish(d, "prod")
        d = lib.TF_NewOperation(g, b"tfe_square", b"call")
        lib.TF_AddInput(d, _out(p))
        _finish(d, "call")
        path = tmp_path / "built.pb"
        path.write_bytes(_graph_to_graphdef(g))
    finally:
        lib.TF_DeleteFunction(fn)
        lib.TF_DeleteGraph(fn_graph)
        lib.TF_DeleteGraph(g)
    xv = np.array([[0.5, -1], [2, 0]], np.float32)
    cv = np.array([[1, 2], [3, 4]], np.float32)
    want_sum = xv + cv
    want = (want_sum @ cv.T) ** 2
    run = {
        "feeds": [{"name": "x:0", "dtype": "float32", "shape": [2, 2], "value": xv.tolist()}],
        "fetches": ["sum:0", "prod:0", "call:0"],
        "targets": [],
        "expected": [
            {"dtype": "float32", "shape": [2, 2], "value": v.tolist(), "rtol": 1e-6, "atol": 0}
            for v in (want_sum, want_sum @ cv.T, want)
        ],
    }
    got = _run_in_tf(tf_python, [(path, [run])])
    _check_tf_results({"name": "built"}, [run], got[0])


def test_tfe_functiondef_exports_run_in_tf(tf_python: list[str], tmp_path: Path) -> None:
    """TF's FunctionDefs imported into tfe, copied into a graph with a call
    node, exported with TF_GraphToGraphDef (library included): TF runs it."""
    jobs = []
    for case in FUNCTION_CASES:
        fn = _import_function((DATA / case["file"]).read_bytes())
        g, feeds, fetches = _function_call_graph(fn, case)
        lib.TF_DeleteFunction(fn)
        try:
            path = tmp_path / f"{case['name']}.pb"
            path.write_bytes(_graph_to_graphdef(g))
        finally:
            lib.TF_DeleteGraph(g)
        run = {
            "feeds": [{"name": n, **spec} for n, spec in zip(feeds, case["inputs"], strict=True)],
            "fetches": fetches,
            "targets": [],
            "expected": case["expected"],
        }
        jobs.append((case, path, run))
    results = _run_in_tf(tf_python, [(p, [r]) for _, p, r in jobs])
    for (case, _, run), got in zip(jobs, results, strict=True):
        _check_tf_results(case, [run], got)
