"""Kernels that had no TF-recorded data yet, against TF 2.21
(tests/data/coverage_rec3_tf221.json, tools/record_rec3_ops.py; the case
kinds are described there): the collectives in a group of one (values and
errors, each sequence in a fresh context), ImmutableConst, PlaceholderV2,
v1 loops with LoopCond/NextIteration/RefNextIteration, the functional ops,
the TF1 readers with v1 queues, the N-D FFTs, StatefulStandardNormal,
CreateSummaryDbWriter and Abort (in a child process).

Where tfe deliberately differs from TF the case is in ``DIVERGES`` with the
reason, and the test checks tfe's own behaviour instead."""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from coverage_common import _TMP, _cls, _const, check_case, compare, decode, ids

import tfe_py as tf
from tfe_py import errors, ops
from tfe_py._ffi import ffi, lib
from tfe_py.eager import EagerTensor
from tfe_py.errors import status
from tfe_py.function import TensorSpec

_DATA = Path(__file__).parent.parent / "data" / "coverage_rec3_tf221.json"
_ALL = json.loads(_DATA.read_text())
CASES: list[dict[str, Any]] = _ALL["cases"]

# the functions the "fn" cases name (the recorder's FUNCS)
_BODIES: dict[str, Any] = {
    "dbl": lambda x: x * 2.0,
    "minus1": lambda x: x - 1.0,
    "sq": lambda x: x * x,
    "dbl_i": lambda x: x * 2,
    "pair": lambda i, a: (i * 3, a + 0.5),
    "lt5": lambda i, a: i < 5,
    "step": lambda i, a: (i + 1, a * 2.0),
}

# case -> why tfe differs from TF there (the test checks tfe's behaviour)
DIVERGES: dict[str, str] = {
    "reduce_scatter_v2": "TF 2.21 has no CPU implementation of reduce-scatter (its resolver "
    "names none: 'undef'); tfe's reduces and splits dimension 0 (the parallel device uses it)",
    "all_to_all_v2_err_dim0": "tfe's all-to-all splits dimension 0 into group_size blocks of "
    "any size (the parallel device and its tests rely on it); TF's CPU all-to-all wants "
    "exactly group_size rows",
    "create_summary_db_writer": "tfe has no SQLite: CreateSummaryDbWriter fails with "
    "UNIMPLEMENTED (use CreateSummaryFileWriter); TF writes a TensorBoard SQLite database",
}

# cases whose TF message ends in text tfe leaves out: compared up to this
_MSG_CUT = {"assign_group_err_device": " Tensor<"}


def _core(msg: str) -> str:
    """The kernel's message: without TF's eager wrappers, the collective
    executor's abort wrapper and the node annotations."""
    msg = re.sub(r"\{\{function_node [^}]*\}\}\s*", "", msg)
    msg = msg.split("\n\t [[", 1)[0]
    msg = re.sub(r"\s*\[Op:[^\]]*\].*$", "", msg, flags=re.S)
    msg = msg.replace("Collective ops is aborted by: ", "")
    msg = msg.split("\nThe error could be from a previous operation", 1)[0]
    msg = re.sub(r"'_\d+_", "'_N_", msg)
    return msg.strip()


def _check_error(name: str, exp: dict[str, Any], exc: BaseException) -> None:
    want = _core(exp["message"])
    if name in _MSG_CUT:
        want = want.split(_MSG_CUT[name], 1)[0]
    got = _core(str(exc))
    if _TMP:
        got = got.replace(_TMP[0], "{tmp}")
    assert want in got, (name, want, got)


def _cls_of(exp: dict[str, Any]) -> Any:
    return _cls(exp["type"])


def _flat(out: Any) -> list[Any]:
    if out is None:
        return []
    if isinstance(out, (list, tuple)):
        flat: list[Any] = []
        for o in out:
            flat.extend(_flat(o))
        return flat
    return [out] if hasattr(out, "dtype") else []


def _compare_outputs(got: list[Any], exp: list[dict[str, Any]], what: str) -> None:
    assert len(got) == len(exp), (what, len(got), len(exp))
    for k, (g, e) in enumerate(zip(got, exp, strict=True)):
        if e["dtype"] in ("resource", "variant"):
            assert g.dtype.name == e["dtype"], (what, k)
            continue
        compare(g, e, "value", f"{what} output {k}")


def _input(spec: Any, outs: list[list[Any]]) -> Any:
    if isinstance(spec, list):
        return [_input(x, outs) for x in spec]
    if "ref" in spec:
        i, k = spec["ref"]
        return outs[i][k]
    return _const(spec)


# ---------------------------------------------------------------- eager sequences
def _run_seq(cs: dict[str, Any]) -> None:
    with tf.Context():
        outs: list[list[Any]] = []
        for i, (st, exp) in enumerate(zip(cs["steps"], cs["results"], strict=True)):
            kw = dict(st["attrs"])
            for k, v in st["inputs"].items():
                kw[k] = _input(v, outs)
            what = f"{cs['name']} step {i}"
            if "error" in exp:
                with pytest.raises(_cls_of(exp["error"])) as info:
                    getattr(ops, st["op"])(**kw)
                _check_error(cs["name"], exp["error"], info.value)
                outs.append([])
                continue
            flat = _flat(getattr(ops, st["op"])(**kw))
            _compare_outputs(flat, exp["outputs"], what)
            outs.append(flat)


def _run_divergent_seq(cs: dict[str, Any]) -> None:
    name = cs["name"]
    with tf.Context():
        if name in ("reduce_scatter_v2", "all_to_all_v2_err_dim0"):
            st = cs["steps"][0]
            assert "error" in cs["results"][0]  # TF's error is recorded
            kw = {**st["attrs"], **{k: _const(v) for k, v in st["inputs"].items()
                                    if k != "ordering_token"}}
            out = getattr(ops, st["op"])(ordering_token=[], **kw)
            np.testing.assert_array_equal(out.numpy(), decode(st["inputs"]["input"]))
        elif name == "create_summary_db_writer":
            assert cs["results"][1] == {"outputs": []}  # TF: done
            w = ops.SummaryWriter()
            with pytest.raises(errors.UnimplementedError, match="no SQLite"):
                ops.CreateSummaryDbWriter(w, "/nonexistent/s.db", "e", "r", "u")
        else:
            raise AssertionError(name)


# ---------------------------------------------------------------- functional ops
def _funcs() -> dict[str, Any]:
    out = {}
    for name, dts in _ALL["funcs"].items():
        sig = [TensorSpec([], d) for d in dts]
        out[name] = tf.function(_BODIES[name], input_signature=sig)
    return out


def _case_op(op: str, branch_index: Any, input: list[Any], Tout: list[str],
             branches: list[Any]) -> list[Any]:
    """Case/StatelessCase through the C API: tfe_py's op wrappers take no
    list(func) attr yet."""
    ctx = tf.default_context()
    names = [f._tfe_func_attr() for f in branches]  # registers each branch
    keep: list[Any] = []
    with status() as s:
        o = lib.TFE_NewOp(ctx.ptr, op.encode(), s)
    try:
        with status() as s:
            lib.TFE_OpAddInput(o, branch_index.handle, s)
        arr = ffi.new("TFE_TensorHandle*[]", [x.handle for x in input])
        with status() as s:
            lib.TFE_OpAddInputList(o, arr, len(input), s)
        tin = ffi.new("TF_DataType[]", [x.dtype.as_datatype_enum for x in input])
        lib.TFE_OpSetAttrTypeList(o, b"Tin", tin, len(input))
        tout = ffi.new("TF_DataType[]", [tf.as_dtype(d).as_datatype_enum for d in Tout])
        lib.TFE_OpSetAttrTypeList(o, b"Tout", tout, len(Tout))
        for n in names:
            with status() as s:
                keep.append(lib.TFE_NewOp(ctx.ptr, n.encode(), s))
        fl = ffi.new("TFE_Op*[]", keep)
        lib.TFE_OpSetAttrFunctionList(o, b"branches", fl, len(keep))
        rets = ffi.new("TFE_TensorHandle*[]", len(Tout))
        nret = ffi.new("int*", len(Tout))
        with status() as s:
            lib.TFE_Execute(o, rets, nret, s)
        return [EagerTensor.from_handle(rets[i]) for i in range(nret[0])]
    finally:
        for x in keep:
            lib.TFE_DeleteOp(x)
        lib.TFE_DeleteOp(o)


def _call(op: str, kw: dict[str, Any]) -> Any:
    if op in ("Case", "StatelessCase"):
        return _case_op(op, **kw)
    return getattr(ops, op)(**kw)


def _run_fn(cs: dict[str, Any]) -> None:
    funcs = _funcs()
    kw: dict[str, Any] = {}
    for k, v in cs["attrs"].items():
        if isinstance(v, dict) and "func" in v:
            kw[k] = funcs[v["func"]]
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            kw[k] = [funcs[x["func"]] for x in v]
        else:
            kw[k] = v
    for k, v in cs["inputs"].items():
        kw[k] = _input(v, [])
    if "error" in cs:
        with pytest.raises(_cls_of(cs["error"])) as info:
            _call(cs["op"], kw)
        _check_error(cs["name"], cs["error"], info.value)
        return
    _compare_outputs(_flat(_call(cs["op"], kw)), cs["outputs"], cs["name"])


# ---------------------------------------------------------------- graphs
def _feed(spec: dict[str, Any]) -> Any:
    if "hex" in spec:
        return np.asarray(bytes.fromhex(spec["hex"][0]), dtype=object)
    if spec["dtype"] == "string":
        return np.asarray(str(spec["value"]).replace("{tmp}", _TMP[0]).encode("latin-1"),
                          dtype=object)
    return np.asarray(spec["value"], dtype=spec["dtype"])


def _run_graphdef(cs: dict[str, Any]) -> None:
    gd = cs["graph_def"]
    if "graph_def_v1" in cs:
        # TF's v1 FixedLengthRecordReader kernel needs the V2-only attr
        # "encoding" (a valid v1 NodeDef fails in TF, recorded); tfe
        # validates NodeDefs against the v1 op, so it runs the valid v1
        # graph, which must give what TF gives with the extra attr
        assert "No attr named 'encoding'" in cs["tf_v1_error"]["message"]
        gd = cs["graph_def_v1"]
    with tf.Graph() as g:
        g.import_graph_def(base64.b64decode(gd), name="")
    with tf.Session(g) as sess:
        for i, (r, exp) in enumerate(zip(cs["runs"], cs["results"], strict=True)):
            fl = [g.get_tensor_by_name(f) if ":" in f else g.get_operation_by_name(f)
                  for f in r["fetch"]]
            feed = {g.get_tensor_by_name(k): _feed(v) for k, v in r["feed"].items()}
            what = f"{cs['name']} run {i}"
            if "error" in exp:
                with pytest.raises(_cls_of(exp["error"])) as info:
                    sess.run(fl, feed)
                _check_error(cs["name"], exp["error"], info.value)
                continue
            got = sess.run(fl, feed)
            for k, (v, e) in enumerate(zip(got, exp["outputs"], strict=True)):
                if e is not None:
                    compare(np.asarray(v), e, "value", f"{what} fetch {k}")


# ---------------------------------------------------------------- the rest
def _run_immconst(cs: dict[str, Any]) -> None:
    attrs = dict(cs["attrs"])
    if "missing" not in attrs["memory_region_name"]:
        Path(_TMP[0], "region.bin").write_bytes(bytes.fromhex(cs["file_hex"]))
    attrs["memory_region_name"] = attrs["memory_region_name"].replace("{tmp}", _TMP[0])
    if "error" in cs:
        with pytest.raises(_cls_of(cs["error"])) as info:
            ops.ImmutableConst(**attrs)
        _check_error(cs["name"], cs["error"], info.value)
        return
    _compare_outputs([ops.ImmutableConst(**attrs)], cs["outputs"], cs["name"])


def _run_fftnd(cs: dict[str, Any]) -> None:
    # TF 2.21 registers no CPU kernel for the N-D FFTs (recorded); tfe has
    # one, checked against the same transform computed by TF axis by axis
    assert cs["tf_error"]["type"] == "NotFoundError"
    assert "no registered kernels" in cs["tf_error"]["message"]
    kw = {k: _const(v) for k, v in cs["inputs"].items()}
    out = getattr(ops, cs["op"])(**kw, **cs["attrs"])
    exp = cs["ref"]
    assert out.dtype.name == exp["dtype"]
    got = out.numpy()
    want = decode(exp)
    assert got.shape == want.shape
    tol = 2e-5 if exp["dtype"] in ("float32", "complex64") else 1e-10
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * 10)


_ABORT_LINES = ("Abort_op intentional failure; ", "Exiting the process: ")


def _run_abort(cs: dict[str, Any]) -> None:
    """Abort ends the process, as TF's kernel does (SIGABRT after logging
    the message, or a normal exit with exit_without_error): a child process
    runs it."""
    a = cs["attrs"]
    code = ("import tfe_py as tf\nfrom tfe_py import ops\nwith tf.Graph() as g:\n"
            f"    op = ops.Abort(error_msg={a['error_msg']!r}, "
            f"exit_without_error={a['exit_without_error']})\n"
            "with tf.Session(g) as s:\n    s.run(op)\nprint('still alive')\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120, cwd=str(Path(__file__).parent.parent.parent))
    assert p.returncode == cs["returncode"], (p.returncode, p.stderr[-2000:])
    logged = [ln + a["error_msg"] for ln in _ABORT_LINES if ln + a["error_msg"] in p.stderr]
    assert logged == cs["logged"], p.stderr[-2000:]
    assert p.stdout.strip() == cs["printed"]


_RUNNERS = {"seq": _run_seq, "fn": _run_fn, "graphdef": _run_graphdef,
            "immconst": _run_immconst, "fftnd": _run_fftnd, "abort": _run_abort}


@pytest.mark.parametrize("cs", CASES, ids=ids(CASES))
def test_matches_tf(cs: dict[str, Any], tmp_path: Path) -> None:
    kind = cs.get("kind")
    if kind is None:
        check_case(cs, tmp=str(tmp_path))
        return
    _TMP[:] = [str(tmp_path)]
    try:
        if cs["name"] in DIVERGES:
            _run_divergent_seq(cs)
        else:
            _RUNNERS[kind](cs)
    finally:
        _TMP.clear()


def test_every_op_of_the_group_is_recorded() -> None:
    """The 40 ops this file covers are all named in the recorded data."""
    named = set()
    for cs in CASES:
        named.update(re.findall(r'"op": "(\w+)"', json.dumps(cs)))
        named.update(cs.get("ops", []))
    want = {
        "CollectiveAllToAllV2", "CollectiveAllToAllV3", "CollectiveAssignGroupV2",
        "CollectiveBcastRecv", "CollectiveBcastRecvV2", "CollectiveBcastSend",
        "CollectiveBcastSendV2", "CollectiveGather", "CollectiveGatherV2",
        "CollectiveInitializeCommunicator", "CollectiveReduce", "CollectiveReduceScatterV2",
        "CollectiveReduceV2", "CollectiveReduceV3", "ImmutableConst", "PlaceholderV2",
        "Abort", "LoopCond", "NextIteration", "RefNextIteration", "Case", "PartitionedCall",
        "StatefulPartitionedCall", "StatelessCase", "StatelessIf", "StatelessWhile", "While",
        "FixedLengthRecordReader", "IdentityReader", "LMDBReader", "ReaderNumRecordsProduced",
        "ReaderNumWorkUnitsCompleted", "ReaderRead", "ReaderReadUpTo", "ReaderReset",
        "ReaderRestoreState", "ReaderSerializeState", "TFRecordReader", "TextLineReader",
        "FFTND", "IFFTND", "RFFTND", "IRFFTND", "StatefulStandardNormal",
        "CreateSummaryDbWriter",
    }
    assert not want - named, sorted(want - named)
    assert os.path.exists(_DATA)
