"""Records TF 2.21's behaviour for ops whose tfe CPU kernels had no
TF-recorded data yet: the collectives (run eagerly in a group of one),
ImmutableConst, PlaceholderV2, v1 loop control flow (LoopCond,
NextIteration, RefNextIteration), the functional ops (Case, StatelessCase,
StatelessIf, While, StatelessWhile, PartitionedCall,
StatefulPartitionedCall), the TF1 reader ops with queues, the N-D FFTs,
StatefulStandardNormal, CreateSummaryDbWriter and Abort.

Run: /work/tfvenv/bin/python tools/record_rec3_ops.py
Writes tests/data/coverage_rec3_tf221.json, read by
tests/python/test_coverage_rec3.py. Case kinds (key "kind"):

* none: an eager or graph case of tools/record_coverage_common.py;
* "seq": eager op steps run in one fresh context (the collectives: TF's
  collective executor stays aborted after an error, so every sequence gets
  its own context). Inputs may be ``{"ref": [step, output]}``; resource
  outputs are kept as their dtype and shape only. Each step keeps its
  outputs or its error;
* "fn": one functional op whose function attrs name functions of ``FUNCS``
  (the test defines the same functions for tfe);
* "graphdef": a TF1 GraphDef built here (base64), imported and run in one
  session once per entry of ``runs`` ({"feed": {name: tensor},
  "fetch": [tensor or op names]}), keeping each run's outputs or error.
  "{tmp}" in fed strings is a scratch directory;
* "immconst": ImmutableConst reading a file whose bytes are ``file_hex``
  (written to {tmp}/region.bin first);
* "fftnd": an N-D FFT op that TF has no CPU kernel for; ``ref`` is the same
  transform computed by TF with its 1-D FFT ops along each axis;
* "abort": the Abort op run in a child process: its exit status and whether
  its log line appeared.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record_coverage_common as cc
from record_coverage_common import Cases, ref, t

C = Cases("rec3", 2026_1218)
I32, I64, F32, F64, STR = "int32", "int64", "float32", "float64", "string"


def allowed(op: str, attr: str = "T") -> list[str]:
    got = cc._op_def_allowed(op, attr)
    order = ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
             "uint8", "uint16", "uint32", "uint64", "complex64", "complex128", "bool", "string")
    return [d for d in order if got is None or d in got]


def seq(name: str, steps: list[dict[str, Any]]) -> None:
    C.cases.append({"name": name, "kind": "seq", "steps": steps})


def st(op: str, inputs: dict[str, Any] | None = None,
       attrs: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"op": op, "inputs": inputs or {}, "attrs": attrs or {}}


def i32(v: Any) -> dict[str, Any]:
    return t(v, I32)


# ---------------------------------------------------------------- collectives
def collectives() -> None:
    v1 = {"group_size": 1, "group_key": 1}
    v2 = {"group_size": i32(1), "group_key": i32(1)}
    key = [100]

    def ik() -> int:
        key[0] += 1
        return key[0]

    for dt in allowed("CollectiveReduce"):
        x = t(C.vals((2, 3), dt), dt)
        fin = "Id" if dt.startswith("int") else "Div"
        seq(f"reduce_{dt}", [st("CollectiveReduce", {"input": x},
                                {**v1, "instance_key": ik(), "merge_op": "Add",
                                 "final_op": fin, "subdiv_offsets": [0]})])
    for dt in allowed("CollectiveReduceV2"):
        x = t(C.vals((3,), dt), dt)
        for merge in ("Min", "Max", "Mul", "Add"):
            seq(f"reduce_v2_{dt}_{merge}", [st(
                "CollectiveReduceV2", {"input": x, **v2, "instance_key": i32(ik()),
                                       "ordering_token": []},
                {"merge_op": merge, "final_op": "Id"})])
    for dt in allowed("CollectiveGather"):
        x = t(C.vals((2, 2), dt), dt)
        seq(f"gather_{dt}", [st("CollectiveGather", {"input": x},
                                {**v1, "instance_key": ik(), "shape": [2, 2]})])
    for dt in allowed("CollectiveGatherV2"):
        x = t(C.vals((3, 1), dt), dt)
        seq(f"gather_v2_{dt}", [st("CollectiveGatherV2", {"input": x, **v2,
                                                          "instance_key": i32(ik()),
                                                          "ordering_token": []})])
    for dt in allowed("CollectiveBcastSend"):
        x = t(C.vals((2,), dt), dt)
        seq(f"bcast_send_{dt}", [st("CollectiveBcastSend", {"input": x},
                                    {**v1, "instance_key": ik(), "shape": [2]})])
    for dt in allowed("CollectiveBcastSendV2"):
        x = t(C.vals((2, 2), dt), dt)
        seq(f"bcast_send_v2_{dt}", [st("CollectiveBcastSendV2", {"input": x, **v2,
                                                                "instance_key": i32(ik())})])
    for dt in allowed("CollectiveAllToAllV2"):
        x = t(C.vals((1, 3), dt), dt)
        seq(f"all_to_all_v2_{dt}", [st("CollectiveAllToAllV2", {
            "input": x, **v2, "instance_key": i32(ik()), "ordering_token": []})])
    f2 = t([1.0, 2.0], F32)
    # a receive with no sender in a group of one
    seq("bcast_recv_no_sender", [st("CollectiveBcastRecv", {},
                                    {"T": F32, **v1, "instance_key": 8, "shape": [2],
                                     "timeout_seconds": 0.5})])
    seq("bcast_recv_v2_no_sender", [st("CollectiveBcastRecvV2", {
        **v2, "instance_key": i32(9), "shape": i32([2])}, {"T": F32, "timeout_seconds": 0.5})])
    seq("bcast_send_err_shape", [st("CollectiveBcastSend", {"input": f2},
                                    {**v1, "instance_key": 6, "shape": [3]})])
    seq("all_to_all_v2_err_dim0", [st("CollectiveAllToAllV2", {
        "input": t([1.0, 2.0, 3.0], F32), **v2, "instance_key": i32(10),
        "ordering_token": []})])
    # TF has no CPU implementation of reduce-scatter (tfe has one)
    seq("reduce_scatter_v2", [st("CollectiveReduceScatterV2", {
        "input": t([[1.0, 2.0]], F32), **v2, "instance_key": i32(11), "ordering_token": []},
        {"merge_op": "Add", "final_op": "Id"})])
    seq("reduce_err_group_size0", [st("CollectiveReduce", {"input": f2},
                                      {"group_size": 0, "group_key": 1, "instance_key": 1,
                                       "merge_op": "Add", "final_op": "Id",
                                       "subdiv_offsets": [0]})])
    seq("reduce_v2_err_group_size0", [st("CollectiveReduceV2", {
        "input": f2, "group_size": i32(0), "group_key": i32(1), "instance_key": i32(1),
        "ordering_token": []}, {"merge_op": "Add", "final_op": "Id"})])
    seq("reduce_v2_err_group_key_vec", [st("CollectiveReduceV2", {
        "input": f2, "group_size": i32(1), "group_key": i32([1]), "instance_key": i32(1),
        "ordering_token": []}, {"merge_op": "Add", "final_op": "Id"})])
    seq("reduce_v2_timeout", [st("CollectiveReduceV2", {
        "input": f2, "group_size": i32(2), "group_key": i32(1), "instance_key": i32(1),
        "ordering_token": []}, {"merge_op": "Add", "final_op": "Id", "timeout_seconds": 0.5})])
    seq("reduce_timeout", [st("CollectiveReduce", {"input": f2},
                              {"group_size": 2, "group_key": 1, "instance_key": 1,
                               "merge_op": "Add", "final_op": "Id", "subdiv_offsets": [0],
                               "timeout_seconds": 0.5})])
    seq("gather_timeout", [st("CollectiveGather", {"input": f2},
                              {"group_size": 2, "group_key": 3, "instance_key": 1,
                               "shape": [2], "timeout_seconds": 0.5})])
    seq("gather_v2_timeout", [st("CollectiveGatherV2", {
        "input": f2, "group_size": i32(2), "group_key": i32(3), "instance_key": i32(1),
        "ordering_token": []}, {"timeout_seconds": 0.5})])
    # the same group key with another group size
    seq("reduce_v2_err_group_mismatch", [
        st("CollectiveReduceV2", {"input": f2, **v2, "instance_key": i32(1),
                                  "ordering_token": []}, {"merge_op": "Add", "final_op": "Id"}),
        st("CollectiveReduceV2", {"input": f2, "group_size": i32(2), "group_key": i32(1),
                                  "instance_key": i32(2), "ordering_token": []},
           {"merge_op": "Add", "final_op": "Id", "timeout_seconds": 0.5}),
    ])
    seq("assign_group", [
        st("CollectiveAssignGroupV2", {"group_assignment": i32([[0, 1], [2, 3]]),
                                       "device_index": i32(2), "base_key": i32(100)}),
        st("CollectiveAssignGroupV2", {"group_assignment": i32([[0]]),
                                       "device_index": i32(0), "base_key": i32(1)}),
        st("CollectiveAssignGroupV2", {"group_assignment": i32([[3, 1, 0], [2, 5, 4]]),
                                       "device_index": i32(5), "base_key": i32(7)}),
    ])
    seq("assign_group_err_device", [st("CollectiveAssignGroupV2", {
        "group_assignment": i32([[0]]), "device_index": i32(5), "base_key": i32(1)})])
    seq("assign_group_err_rank", [st("CollectiveAssignGroupV2", {
        "group_assignment": i32([0]), "device_index": i32(0), "base_key": i32(1)})])
    comm = st("CollectiveInitializeCommunicator", {"group_key": i32(21), "rank": i32(0),
                                                   "group_size": i32(1)})
    seq("init_communicator", [comm])
    seq("init_communicator_err_rank", [st("CollectiveInitializeCommunicator", {
        "group_key": i32(20), "rank": i32(1), "group_size": i32(1)})])
    seq("init_communicator_err_group_size", [st("CollectiveInitializeCommunicator", {
        "group_key": i32(20), "rank": i32(0), "group_size": i32(0)})])
    for dt in allowed("CollectiveReduceV3"):
        seq(f"reduce_v3_{dt}", [comm, st("CollectiveReduceV3", {
            "input": t(C.vals((2,), dt), dt), "communicator": ref(0),
            "group_assignment": i32([[0]])}, {"reduction": "Add"})])
    for dt in allowed("CollectiveAllToAllV3"):
        seq(f"all_to_all_v3_{dt}", [comm, st("CollectiveAllToAllV3", {
            "input": t(C.vals((1, 2), dt), dt), "communicator": ref(0),
            "group_assignment": i32([[0]])})])


# ---------------------------------------------------------------- functional ops
# name -> (input dtypes, body); the test defines the same functions for tfe
FUNCS: dict[str, tuple[list[str], Callable[..., Any]]] = {
    "dbl": ([F32], lambda x: x * 2.0),
    "minus1": ([F32], lambda x: x - 1.0),
    "sq": ([F32], lambda x: x * x),
    "dbl_i": ([I32], lambda x: x * 2),
    "pair": ([I32, F32], lambda i, a: (i * 3, a + 0.5)),
    "lt5": ([I32, F32], lambda i, a: i < 5),
    "step": ([I32, F32], lambda i, a: (i + 1, a * 2.0)),
}


def fn(name: str, op: str, inputs: dict[str, Any], attrs: dict[str, Any]) -> None:
    C.cases.append({"name": name, "kind": "fn", "op": op, "inputs": inputs, "attrs": attrs})


def F(name: str) -> dict[str, str]:
    return {"func": name}


def functional() -> None:
    x = [t(3.0, F32)]
    br = {"Tout": [F32], "then_branch": F("dbl"), "else_branch": F("minus1")}
    for op in ("StatelessIf", "If"):
        for nm, c in (("true", t(True, "bool")), ("false", t(False, "bool")),
                      ("int0", i32(0)), ("int7", i32(7)), ("float", t(0.5, F32)),
                      ("vec", t([True, False], "bool")), ("empty", t(np.zeros(0), F32)),
                      ("str", t("a", STR)), ("str_empty", t("", STR))):
            fn(f"{op.lower()}_{nm}", op, {"cond": c, "input": x}, br)
    fn("statelessif_int", "StatelessIf", {"cond": t(True, "bool"), "input": [i32(4)]},
       {"Tout": [I32], "then_branch": F("dbl_i"), "else_branch": F("dbl_i")})
    fn("statelessif_err_type", "StatelessIf", {"cond": t(True, "bool"), "input": [i32(4)]},
       {"Tout": [I32], "then_branch": F("dbl"), "else_branch": F("dbl")})
    cs = {"Tout": [F32], "branches": [F("dbl"), F("minus1"), F("sq")]}
    for op in ("Case", "StatelessCase"):
        for i in (0, 1, 2, 3, 9, -1):
            fn(f"{op.lower()}_{i}".replace("-", "m"), op, {"branch_index": i32(i), "input": x}, cs)
        fn(f"{op.lower()}_err_vec", op, {"branch_index": i32([0]), "input": x}, cs)
        fn(f"{op.lower()}_one_branch", op, {"branch_index": i32(5), "input": x},
           {"Tout": [F32], "branches": [F("sq")]})
    for op in ("While", "StatelessWhile"):
        wl = {"cond": F("lt5"), "body": F("step")}
        fn(f"{op.lower()}_loop", op, {"input": [i32(0), t(1.0, F32)]}, wl)
        fn(f"{op.lower()}_no_trip", op, {"input": [i32(9), t(1.5, F32)]}, wl)
        fn(f"{op.lower()}_err_cond", op, {"input": [i32(0), t(1.0, F32)]},
           {"cond": F("step"), "body": F("step")})
        fn(f"{op.lower()}_parallel", op, {"input": [i32(2), t(1.0, F32)]},
           {**wl, "parallel_iterations": 1})
    for op in ("PartitionedCall", "StatefulPartitionedCall"):
        fn(f"{op.lower()}_f32", op, {"args": x}, {"Tout": [F32], "f": F("sq")})
        fn(f"{op.lower()}_pair", op, {"args": [i32(2), t(1.0, F32)]},
           {"Tout": [I32, F32], "f": F("pair")})
        fn(f"{op.lower()}_err_type", op, {"args": [i32(3)]}, {"Tout": [I32], "f": F("dbl")})


# ---------------------------------------------------------------- graphdef cases
def gd(name: str, build: Callable[[Any], None], runs: list[dict[str, Any]]) -> None:
    C.cases.append({"name": name, "kind": "graphdef", "build": build, "runs": runs})


def run_(fetch: list[str], feed: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"fetch": fetch, "feed": feed or {}}


def _loop(tf: Any) -> None:
    """A v1 while loop: i from start to 5, a ref variable incremented once per
    trip through RefNextIteration."""
    R = tf.raw_ops
    start = tf.compat.v1.placeholder(tf.int32, [], name="start")
    var = R.VariableV2(shape=[], dtype=tf.int32, name="var")
    R.Assign(ref=var, value=tf.constant(10), name="init")
    enter = R.Enter(data=start, frame_name="L", name="enter")
    rent = R.RefEnter(data=var, frame_name="L", name="renter")
    merge = R.Merge(inputs=[enter, enter], name="merge")
    rmerge = R.RefMerge(inputs=[rent, rent], name="rmerge")
    five = R.Enter(data=tf.constant(5), frame_name="L", is_constant=True, name="five")
    one = R.Enter(data=tf.constant(1), frame_name="L", is_constant=True, name="one")
    lc = R.LoopCond(input=R.Less(x=merge.output, y=five), name="loopcond")
    sw = R.Switch(data=merge.output, pred=lc, name="switch")
    rsw = R.RefSwitch(data=rmerge.output, pred=lc, name="rswitch")
    body = R.AddV2(x=R.Identity(input=sw.output_true), y=one, name="body")
    inc = R.AssignAdd(ref=rsw.output_true, value=one, name="inc")
    nxt = R.NextIteration(data=body, name="next")
    rnxt = R.RefNextIteration(data=inc, name="rnext")
    merge.output.op._update_input(1, nxt)
    rmerge.output.op._update_input(1, rnxt)
    R.Exit(data=sw.output_false, name="exit")
    R.Identity(input=R.RefExit(data=rsw.output_false), name="rexit")
    R.Identity(input=lc, name="lc_out")


def _nextiter_alone(tf: Any) -> None:
    R = tf.raw_ops
    R.NextIteration(data=tf.constant([1.0, 2.0]), name="n")
    var = R.VariableV2(shape=[2], dtype=tf.float32, name="var")
    R.Assign(ref=var, value=tf.constant([3.0, 4.0]), name="init")
    R.Identity(input=R.RefNextIteration(data=var), name="rn")
    R.LoopCond(input=tf.constant(False), name="lc")


def _placeholder_v2(tf: Any) -> Any:
    R = tf.raw_ops
    p = tf.compat.v1.placeholder(tf.float32, [2], name="p")
    R.Identity(input=p, name="out")
    # TF's Python refuses to add the op (removed at GraphDef version 23): the
    # graph is written as an old GraphDef
    gdef = tf.compat.v1.get_default_graph().as_graph_def()
    for n in gdef.node:
        if n.name == "p":
            n.op = "PlaceholderV2"
    gdef.versions.producer = 22
    gdef.versions.min_consumer = 0
    return gdef


# TF1 readers: each graph writes its input files into the fed directory,
# fills a v1 queue with their names and reads them.
TEXT = "header\nline one\nline two\n\nlast line without newline"
FIXED = "HHrec1rec2rec3FFF"


def _queue(tf: Any, names: list[str], name: str = "q") -> Any:
    R = tf.raw_ops
    d = tf.compat.v1.placeholder(tf.string, [], name="dir")
    files = [tf.strings.join([d, "/" + n]) for n in names]
    q = R.FIFOQueueV2(component_types=[tf.string], capacity=10, name=name)
    R.QueueEnqueueManyV2(handle=q, components=[tf.stack(files)], name="enqueue")
    R.QueueCloseV2(handle=q, name="close")
    return q, d, files


def _reader_ops(tf: Any, r: Any, q: Any) -> None:
    R = tf.raw_ops
    R.ReaderReadV2(reader_handle=r, queue_handle=q, name="read")
    R.ReaderReadUpToV2(reader_handle=r, queue_handle=q,
                     num_records=tf.constant(2, tf.int64), name="read2")
    R.ReaderNumRecordsProducedV2(reader_handle=r, name="nrec")
    R.ReaderNumWorkUnitsCompletedV2(reader_handle=r, name="nwork")
    R.ReaderSerializeStateV2(reader_handle=r, name="state")
    R.ReaderResetV2(reader_handle=r, name="reset")
    st_in = tf.compat.v1.placeholder(tf.string, [], name="state_in")
    R.ReaderRestoreStateV2(reader_handle=r, state=st_in, name="restore")


def _text_reader(tf: Any) -> None:
    R = tf.raw_ops
    q, _d, files = _queue(tf, ["a.txt", "b.txt"])
    R.WriteFile(filename=files[0], contents=TEXT, name="w0")
    R.WriteFile(filename=files[1], contents="hdr\nx\ny\n", name="w1")
    _reader_ops(tf, R.TextLineReaderV2(skip_header_lines=1, name="reader"), q)


def _fixed_reader(tf: Any) -> None:
    R = tf.raw_ops
    q, _d, files = _queue(tf, ["a.bin", "b.bin"])
    R.WriteFile(filename=files[0], contents=FIXED, name="w0")
    R.WriteFile(filename=files[1], contents="HHxyzwFFF", name="w1")
    _reader_ops(tf, R.FixedLengthRecordReaderV2(header_bytes=2, record_bytes=4, footer_bytes=3,
                                              name="reader"), q)


def _fixed_reader_hop(tf: Any) -> None:
    R = tf.raw_ops
    q, _d, files = _queue(tf, ["a.bin"])
    R.WriteFile(filename=files[0], contents="abcdefghij", name="w0")
    _reader_ops(tf, R.FixedLengthRecordReaderV2(record_bytes=4, hop_bytes=3, name="reader"), q)


def _identity_reader(tf: Any) -> None:
    R = tf.raw_ops
    q = R.FIFOQueueV2(component_types=[tf.string], capacity=10, name="q")
    R.QueueEnqueueManyV2(handle=q, components=[tf.constant(["w1", "w2", "w3", "w4"])],
                         name="enqueue")
    R.QueueCloseV2(handle=q, name="close")
    tf.compat.v1.placeholder(tf.string, [], name="dir")
    R.NoOp(name="w0")
    _reader_ops(tf, R.IdentityReaderV2(name="reader"), q)


def _tfrecord_reader(tf: Any) -> None:
    R = tf.raw_ops
    q, _d, files = _queue(tf, ["a.tfr"])
    content = tf.compat.v1.placeholder(tf.string, [], name="content")
    R.WriteFile(filename=files[0], contents=content, name="w0")
    _reader_ops(tf, R.TFRecordReaderV2(name="reader"), q)


def _lmdb_reader(tf: Any) -> None:
    R = tf.raw_ops
    q, _d, files = _queue(tf, ["not.mdb"])
    R.WriteFile(filename=files[0], contents="this is not an LMDB file", name="w0")
    r = R.IdentityReaderV2(name="reader")  # made an LMDBReader by v1_graph
    R.ReaderNumRecordsProducedV2(reader_handle=r, name="nrec")
    R.ReaderReadV2(reader_handle=r, queue_handle=q, name="read")


_V1 = ("FIFOQueue", "QueueEnqueueMany", "QueueClose", "ReaderRead", "ReaderReadUpTo",
       "ReaderNumRecordsProduced", "ReaderNumWorkUnitsCompleted", "ReaderSerializeState",
       "ReaderReset", "ReaderRestoreState", "TextLineReader", "FixedLengthRecordReader",
       "IdentityReader", "TFRecordReader")


def v1_graph(build: Callable[[Any], None], lmdb: bool = False) -> Callable[[Any], Any]:
    """``build``'s graph with its V2 queue and reader ops turned into the v1
    (reference-handle) ops, which TF's Python no longer adds to a graph:
    written as a GraphDef of version 21, before they were removed."""
    def make(tf: Any) -> Any:
        build(tf)
        gdef = tf.compat.v1.get_default_graph().as_graph_def()
        for n in gdef.node:
            if n.op.endswith("V2") and n.op[:-2] in _V1:
                n.op = n.op[:-2]
            if lmdb and n.op == "IdentityReader":
                n.op = "LMDBReader"
        gdef.versions.producer = 21
        gdef.versions.min_consumer = 0
        return gdef
    return make


def _tfrecords_bytes(tf: Any) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        p = os.path.join(tmp, "r.tfr")
        with tf.io.TFRecordWriter(p) as w:
            for rec in (b"first", b"", b"third record", b"4"):
                w.write(rec)
        with open(p, "rb") as f:
            return f.read().hex()


D = {"dir:0": t("{tmp}", STR)}
READ_RUNS = [
    run_(["w0"]), run_(["enqueue"]), run_(["close"]),
    run_(["nrec:0", "nwork:0"]),
    run_(["read:0", "read:1"]),
    run_(["nrec:0", "nwork:0"]),
    run_(["state:0"]),
    run_(["read2:0", "read2:1"]),
    run_(["read:0", "read:1"]),
    run_(["read2:0", "read2:1"]),
    run_(["read:0", "read:1"]),
    run_(["nrec:0", "nwork:0"]),
    run_(["reset"]),
    run_(["nrec:0", "nwork:0"]),
    run_(["restore"], {"state_in:0": t("\x08\x02\x10\x01", STR)}),
    run_(["restore"], {"state_in:0": t("garbage\xff", STR)}),
    run_(["nrec:0", "nwork:0"]),
]


def graphs() -> None:
    gd("v1_loop", _loop, [run_(["init"]), run_(["exit:0", "rexit:0"], {"start:0": i32(0)}),
                          run_(["exit:0", "rexit:0"], {"start:0": i32(7)}),
                          run_(["exit:0"], {"start:0": i32(3)}),
                          run_(["rexit:0"], {"start:0": i32(4)})])
    gd("next_iteration_alone", _nextiter_alone, [run_(["n:0"]), run_(["init"]),
                                                 run_(["rn:0"]), run_(["lc:0"])])
    gd("placeholder_v2", _placeholder_v2, [run_(["out:0"]),
                                           run_(["out:0"], {"p:0": t([1.0, 2.0], F32)})])
    for nm, b in (("text_line_reader", _text_reader), ("fixed_length_reader", _fixed_reader),
                  ("fixed_length_reader_hop", _fixed_reader_hop),
                  ("identity_reader", _identity_reader)):
        runs = [dict(r, feed={**D, **r["feed"]}) for r in READ_RUNS]
        gd(nm, v1_graph(b), runs)
    gd("tfrecord_reader", v1_graph(_tfrecord_reader), [
        dict(r, feed={**D, **r["feed"], "content:0": {"tfrecords": True}}) for r in READ_RUNS])
    gd("lmdb_reader", v1_graph(_lmdb_reader, lmdb=True), [run_(["w0"], D), run_(["enqueue"], D),
                                     run_(["nrec:0"], D), run_(["read:0", "read:1"], D)])


# ---------------------------------------------------------------- ImmutableConst
def immconst() -> None:
    def add(name: str, data: bytes, dtype: str, shape: list[int]) -> None:
        C.cases.append({"name": name, "kind": "immconst", "op": "ImmutableConst",
                        "file_hex": data.hex(),
                        "attrs": {"dtype": dtype, "shape": shape,
                                  "memory_region_name": "{tmp}/region.bin"}})

    np_names = {"bfloat16": None, "bool": np.bool_}
    for dt in ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
               "uint8", "uint16", "uint32", "uint64", "complex64", "complex128", "bool"):
        n = 6
        if dt == "bfloat16":
            data = (np.arange(n, dtype=np.float32) * 0.5 - 1).view(np.uint32) >> 16
            raw = data.astype(np.uint16).tobytes()
        elif dt == "bool":
            raw = np.asarray([1, 0, 1, 1, 0, 0], np.uint8).tobytes()
        else:
            a = np.arange(n) - (0 if dt.startswith("u") else 2)
            if dt.startswith("complex"):
                a = a + 1j * (a[::-1])
            raw = np.asarray(a * (0.5 if dt.startswith(("float", "complex")) else 1),
                             dtype=np_names.get(dt, dt)).tobytes()
        add(f"immutable_const_{dt}", raw, dt, [2, 3])
    add("immutable_const_prefix", np.arange(8, dtype=np.float32).tobytes(), F32, [2, 2])
    add("immutable_const_scalar", np.asarray([7], np.int32).tobytes(), I32, [])
    add("immutable_const_empty", b"", F32, [0, 3])
    add("immutable_const_err_short", np.arange(4, dtype=np.float32).tobytes(), F32, [3, 2])
    add("immutable_const_err_string", b"abcd", STR, [1])
    C.cases.append({"name": "immutable_const_err_missing", "kind": "immconst",
                    "op": "ImmutableConst",
                    "file_hex": "", "attrs": {"dtype": F32, "shape": [2],
                                              "memory_region_name": "{tmp}/missing.bin"}})


# ---------------------------------------------------------------- N-D FFTs
def fftnd() -> None:
    def add(name: str, op: str, x: Any, dt: str, fl: list[int], axes: list[int]) -> None:
        single = dt in ("float32", "complex64")
        attrs = {"RFFTND": {"Tcomplex": "complex64" if single else "complex128"},
                 "IRFFTND": {"Treal": "float32" if single else "float64"}}.get(op, {})
        C.cases.append({"name": name, "kind": "fftnd", "op": op, "attrs": attrs,
                        "inputs": {"input": t(x, dt), "fft_length": i32(fl), "axes": i32(axes)}})

    r = C.rng
    for cdt, rdt in (("complex64", F32), ("complex128", F64)):
        c = r.normal(size=(2, 3, 4)) + 1j * r.normal(size=(2, 3, 4))
        re = np.round(r.normal(size=(2, 3, 6)), 3)
        for op in ("FFTND", "IFFTND"):
            add(f"{op.lower()}_{cdt}_last2", op, c, cdt, [3, 4], [1, 2])
            add(f"{op.lower()}_{cdt}_all", op, c, cdt, [2, 3, 4], [0, 1, 2])
            add(f"{op.lower()}_{cdt}_crop", op, c, cdt, [2, 1], [-2, 0])
            add(f"{op.lower()}_{cdt}_axis0", op, c, cdt, [2], [0])
        add(f"rfftnd_{rdt}_last2", "RFFTND", re, rdt, [3, 6], [1, 2])
        add(f"rfftnd_{rdt}_crop", "RFFTND", re, rdt, [1, 4], [0, 2])
        add(f"rfftnd_{rdt}_crop_odd", "RFFTND", re, rdt, [5], [-1])
        h = r.normal(size=(2, 3, 4)) + 1j * r.normal(size=(2, 3, 4))
        add(f"irfftnd_{cdt}_last2", "IRFFTND", h, cdt, [3, 6], [1, 2])
        add(f"irfftnd_{cdt}_odd", "IRFFTND", h, cdt, [2, 7], [0, 2])
        add(f"irfftnd_{cdt}_axis1", "IRFFTND", h, cdt, [4], [1])


def _fit(tf: Any, x: Any, axis: int, n: int) -> Any:
    """x cropped or zero-padded to length n along axis."""
    cur = x.shape[axis]
    if n <= cur:
        return tf.gather(x, tf.range(n), axis=axis)
    pad = [[0, 0]] * len(x.shape)
    pad[axis] = [0, n - cur]
    return tf.pad(x, pad)


def _along(tf: Any, f: Callable[[Any], Any], x: Any, axis: int) -> Any:
    rank = len(x.shape)
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return tf.transpose(f(tf.transpose(x, perm)), perm)


def fft_reference(tf: Any, cs: dict[str, Any]) -> Any:
    """The op's result computed by TF with FFT/IFFT/RFFT/IRFFT per axis."""
    x = cc._tensor(tf, cs["inputs"]["input"])
    fl = cs["inputs"]["fft_length"]["value"]
    rank = len(x.shape)
    axes = [a % rank for a in cs["inputs"]["axes"]["value"]]
    op = cs["op"]
    if op in ("FFTND", "IFFTND"):
        f = tf.signal.fft if op == "FFTND" else tf.signal.ifft
        for a, n in zip(axes, fl, strict=True):
            x = _along(tf, f, _fit(tf, x, a, n), a)
        return x
    last, n_last = axes[-1], fl[-1]
    if op == "RFFTND":
        x = _along(tf, lambda v: tf.signal.rfft(v, [n_last]), x, last)
        for a, n in zip(axes[:-1], fl[:-1], strict=True):
            x = _along(tf, tf.signal.fft, _fit(tf, x, a, n), a)
        return x
    for a, n in zip(axes[:-1], fl[:-1], strict=True):
        x = _along(tf, tf.signal.ifft, _fit(tf, x, a, n), a)
    return _along(tf, lambda v: tf.signal.irfft(v, [n_last]), x, last)


# ---------------------------------------------------------------- the rest
def misc() -> None:
    for dt in cc.tf_dtypes("StatefulStandardNormal", "dtype"):
        C.cases.append({"name": f"stateful_standard_normal_{dt}", "kind": "seq", "steps": [
            st("VarHandleOp", {}, {"dtype": I64, "shape": []}),
            st("StatefulStandardNormal", {"resource": ref(0), "shape": i32([2])},
               {"dtype": dt})]})
    C.cases.append({"name": "create_summary_db_writer", "kind": "seq", "steps": [
        st("SummaryWriter"),
        st("CreateSummaryDbWriter", {"writer": ref(0), "db_uri": t("{tmp}/s.db", STR),
                                     "experiment_name": t("e", STR), "run_name": t("r", STR),
                                     "user_name": t("u", STR)})]})
    for dt in ("float32", "int32", "string", "bool", "complex64", "float64", "int64",
               "uint8", "float16", "bfloat16"):
        C.add(f"loop_cond_eager_{dt}" if dt == "bool" else f"next_iteration_eager_{dt}",
              "LoopCond" if dt == "bool" else "NextIteration",
              {"input": t(C.vals((2,), dt), dt)} if dt == "bool"
              else {"data": t(C.vals((2, 2), dt), dt)}, T=dt)
    C.add("loop_cond_eager_scalar", "LoopCond", {"input": t(True, "bool")})
    C.add("placeholder_v2_eager", "PlaceholderV2", {}, {"dtype": F32, "shape": [2]})
    for quiet in (False, True):
        C.cases.append({"name": f"abort_{'quiet' if quiet else 'signal'}", "kind": "abort",
                        "op": "Abort",
                        "attrs": {"error_msg": "rec3 stop", "exit_without_error": quiet}})


# ================================================================ TF runners
def _input(tf: Any, spec: Any, outs: list[list[Any]]) -> Any:
    if isinstance(spec, list):
        return [_input(tf, x, outs) for x in spec]
    if "ref" in spec:
        i, k = spec["ref"]
        return outs[i][k]
    return cc._tensor(tf, spec)


def _enc(o: Any) -> dict[str, Any]:
    if o.dtype.name in ("resource", "variant"):
        return {"dtype": o.dtype.name, "shape": list(o.shape)}
    return cc._enc_value(o.numpy(), o.dtype.name)


def run_seq(tf: Any, cs: dict[str, Any]) -> None:
    from tensorflow.python.eager import context

    context._reset_context()
    outs: list[list[Any]] = []
    results: list[dict[str, Any]] = []
    with tf.device("/CPU:0"):
        for s in cs["steps"]:
            kw = cc._attrs(tf, s["attrs"])
            for k, v in s["inputs"].items():
                kw[k] = _input(tf, v, outs)
            try:
                o = getattr(tf.raw_ops, s["op"])(**kw)
            except (tf.errors.OpError, ValueError, TypeError) as e:
                results.append({"error": cc._err(tf, e)})
                outs.append([])
                continue
            flat = [x for x in tf.nest.flatten(o) if hasattr(x, "dtype")] if o is not None else []
            outs.append(flat)
            results.append({"outputs": [_enc(x) for x in flat]})
    for r in results:
        if "error" in r:
            r["error"]["message"] = r["error"]["message"].replace(cc._TMP[0], "{tmp}")
    cs["results"] = results


def make_funcs(tf: Any) -> dict[str, Any]:
    out = {}
    for name, (dts, body) in FUNCS.items():
        sig = [tf.TensorSpec([], getattr(tf, d)) for d in dts]
        out[name] = tf.function(body, input_signature=sig).get_concrete_function()
    return out


def run_fn(tf: Any, cs: dict[str, Any]) -> None:
    funcs = make_funcs(tf)  # in the current context (run_seq resets it)
    kw: dict[str, Any] = {}
    for k, v in cs["attrs"].items():
        if isinstance(v, dict) and "func" in v:
            kw[k] = funcs[v["func"]]
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            kw[k] = [funcs[x["func"]] for x in v]
        elif k in ("Tout", "T"):
            kw[k] = [getattr(tf, x) for x in v]
        else:
            kw[k] = v
    for k, v in cs["inputs"].items():
        kw[k] = _input(tf, v, [])
    with tf.device("/CPU:0"):
        try:
            o = getattr(tf.raw_ops, cs["op"])(**kw)
        except (tf.errors.OpError, ValueError, TypeError) as e:
            cs["error"] = cc._err(tf, e)
            return
    cs["outputs"] = [_enc(x) for x in tf.nest.flatten(o)]


def _feed_value(spec: dict[str, Any]) -> Any:
    """A fed value as numpy (feeds are int32, float32 or string)."""
    if "hex" in spec:
        return np.asarray(bytes.fromhex(spec["hex"][0]), dtype=object)
    if spec["dtype"] == STR:
        return np.asarray(str(spec["value"]).replace("{tmp}", cc._TMP[0]).encode("latin-1"),
                          dtype=object)
    return np.asarray(spec["value"], dtype=spec["dtype"])


def run_graphdef(tf: Any, cs: dict[str, Any], tfrec_hex: str) -> None:
    g = tf.Graph()
    with g.as_default(), tf.device("/CPU:0"):
        gdef = cs.pop("build")(tf) or g.as_graph_def()
    for n in gdef.node:  # the graph as the test will import it: no device pins
        n.device = ""
    cs["graph_def"] = base64.b64encode(gdef.SerializeToString()).decode()
    cs["ops"] = sorted({n.op for n in gdef.node})  # the op types it holds
    extra = [n for n in gdef.node if n.op == "FixedLengthRecordReader"]
    if extra:
        # TF's v1 FixedLengthRecordReader kernel reads the attr "encoding",
        # which only the V2 op defines: the graph above keeps it (so TF runs);
        # a valid v1 NodeDef without it fails in TF 2.21 as recorded here
        v1 = type(gdef)()
        v1.CopyFrom(gdef)
        for n in v1.node:
            if n.op == "FixedLengthRecordReader":
                del n.attr["encoding"]
        cs["graph_def_v1"] = base64.b64encode(v1.SerializeToString()).decode()
        g3 = tf.Graph()
        with g3.as_default():
            tf.graph_util.import_graph_def(v1, name="")
        with tf.compat.v1.Session(graph=g3) as sess:
            try:
                sess.run(g3.get_tensor_by_name("nrec:0"))
            except tf.errors.OpError as e:
                cs["tf_v1_error"] = {"type": type(e).__name__,
                                     "message": cc.node_message(e.message)}
    g2 = tf.Graph()
    with g2.as_default():
        tf.graph_util.import_graph_def(gdef, name="")
    cfg = tf.compat.v1.ConfigProto()
    cfg.graph_options.rewrite_options.disable_meta_optimizer = True
    cfg.graph_options.optimizer_options.opt_level = -1
    results: list[dict[str, Any]] = []
    with tf.compat.v1.Session(graph=g2, config=cfg) as sess:
        for r in cs["runs"]:
            for k, v in r["feed"].items():
                if v.get("tfrecords"):
                    r["feed"][k] = {"hex": [tfrec_hex], "dtype": STR, "shape": []}
            feed = {g2.get_tensor_by_name(k): _feed_value(v) for k, v in r["feed"].items()}
            fl = [g2.get_tensor_by_name(f) if ":" in f else g2.get_operation_by_name(f)
                  for f in r["fetch"]]
            try:
                vals = sess.run(fl, feed)
            except tf.errors.OpError as e:
                msg = cc.node_message(e.message).replace(cc._TMP[0], "{tmp}")
                results.append({"error": {"type": type(e).__name__, "message": msg}})
                continue
            outs: list[Any] = []
            for f, v in zip(fl, vals, strict=True):
                outs.append(None if not hasattr(f, "dtype")
                            else cc._enc_value(v, f.dtype.base_dtype.name))
            results.append({"outputs": outs})
    cs["results"] = results


def run_immconst(tf: Any, cs: dict[str, Any]) -> None:
    if "missing" not in cs["attrs"]["memory_region_name"]:
        with open(os.path.join(cc._TMP[0], "region.bin"), "wb") as f:
            f.write(bytes.fromhex(cs["file_hex"]))
    attrs = dict(cs["attrs"])
    attrs["memory_region_name"] = attrs["memory_region_name"].replace("{tmp}", cc._TMP[0])
    attrs["dtype"] = getattr(tf, attrs["dtype"])
    with tf.device("/CPU:0"):
        try:
            o = tf.raw_ops.ImmutableConst(**attrs)
        except tf.errors.OpError as e:
            err = cc._err(tf, e)
            err["message"] = err["message"].replace(cc._TMP[0], "{tmp}")
            cs["error"] = err
            return
    cs["outputs"] = [_enc(o)]


def run_fftnd(tf: Any, cs: dict[str, Any]) -> None:
    kw: dict[str, Any] = {k: cc._tensor(tf, v) for k, v in cs["inputs"].items()}
    kw.update({k: getattr(tf, v) for k, v in cs["attrs"].items()})
    with tf.device("/CPU:0"):
        try:
            getattr(tf.raw_ops, cs["op"])(**kw)
            cs["tf_error"] = None
        except tf.errors.OpError as e:
            cs["tf_error"] = cc._err(tf, e)
        cs["ref"] = _enc(fft_reference(tf, cs))


ABORT_LINES = ("Abort_op intentional failure; ", "Exiting the process: ")


def run_abort(cs: dict[str, Any]) -> None:
    """Abort in a TF1 session in a child process (eagerly TF runs it late, at
    interpreter exit)."""
    a = cs["attrs"]
    code = ("import tensorflow as tf\ng = tf.Graph()\nwith g.as_default():\n"
            f"    op = tf.raw_ops.Abort(error_msg={a['error_msg']!r}, "
            f"exit_without_error={a['exit_without_error']})\n"
            "with tf.compat.v1.Session(graph=g) as s:\n    s.run(op)\nprint('still alive')\n")
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300, env=env)
    cs["returncode"] = p.returncode
    cs["logged"] = [ln + a["error_msg"] for ln in ABORT_LINES
                    if ln + a["error_msg"] in p.stderr]
    cs["printed"] = p.stdout.strip()


def main() -> None:
    import tensorflow as tf

    assert tf.__version__.startswith("2.21"), tf.__version__
    collectives()
    functional()
    graphs()
    immconst()
    fftnd()
    misc()
    tfrec = _tfrecords_bytes(tf)
    only = sys.argv[1:]
    for cs in C.cases:
        if only and not any(o in cs["name"] for o in only):
            continue
        print(cs["name"], file=sys.stderr, flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            cc._TMP[:] = [tmp]
            kind = cs.get("kind")
            if kind == "seq":
                steps = json.loads(json.dumps(cs["steps"]).replace("{tmp}", tmp))
                done = {"steps": steps}
                run_seq(tf, done)
                cs["results"] = json.loads(json.dumps(done["results"]).replace(tmp, "{tmp}"))
            elif kind == "fn":
                run_fn(tf, cs)
            elif kind == "graphdef":
                run_graphdef(tf, cs, tfrec)
            elif kind == "immconst":
                run_immconst(tf, cs)
            elif kind == "fftnd":
                run_fftnd(tf, cs)
            elif kind == "abort":
                run_abort(cs)
            else:
                cs.update(cc.run_graph(tf, cs) if "graph" in cs else cc.run_eager(tf, cs))
        cc._TMP.clear()
    if only:
        print(json.dumps([c for c in C.cases if any(o in c["name"] for o in only)],
                         default=str))
        return
    names = [c["name"] for c in C.cases]
    assert len(set(names)) == len(names), "duplicate case names"
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                        "coverage_rec3_tf221.json")
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, "funcs": {k: v[0] for k, v in FUNCS.items()},
                   "cases": C.cases}, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(C.cases)} cases to {os.path.normpath(path)}", file=sys.stderr)


if __name__ == "__main__":
    main()
