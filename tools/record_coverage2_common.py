"""Shared pieces of the tools/record_coverage2_<area>.py recorders: op
SEQUENCES on one piece of state (a table, a list, a queue, a checkpoint),
recorded from TF 2.21 with the step runner of tools/record_dataflow2_ops.py
(same JSON format, replayed by tests/python/coverage2_seq_common.py).

Strings may hold the placeholder "@TMP@": it becomes a fresh temporary
directory while TF runs the sequence, and is put back into every recorded
output and message, so that the test can substitute its own directory."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import record_dataflow2_ops as d

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data")

T, REF, DT, DTS, SH, SHS, S, vals = d.T, d.REF, d.DT, d.DTS, d.SH, d.SHS, d.S, d.vals

_TYPE_NAMES = {1: "float32", 2: "float64", 3: "int32", 4: "uint8", 5: "int16", 6: "int8",
               7: "string", 8: "complex64", 9: "int64", 10: "bool", 14: "bfloat16",
               17: "uint16", 18: "complex128", 19: "float16", 20: "resource", 21: "variant",
               22: "uint32", 23: "uint64"}


def cpu_kernel_types(op: str) -> list[dict[str, str]]:
    """Every (attr -> dtype) combination TF 2.21 registers a CPU kernel for."""
    from tensorflow.core.framework import kernel_def_pb2

    kl = kernel_def_pb2.KernelList()
    with open("/work/tfdata/tf_kernels.pb", "rb") as f:
        kl.ParseFromString(f.read())
    out: list[dict[str, str]] = []
    for k in kl.kernel:
        if k.op != op or k.device_type != "CPU":
            continue
        combo = {c.name: _TYPE_NAMES.get(c.allowed_values.list.type[0], "?")
                 for c in k.constraint if len(c.allowed_values.list.type) == 1}
        if combo not in out:
            out.append(combo)
    return out


# takes whose order TF leaves to its hash map or random generator
UNORDERED = ("LookupTableExport",)


class Recorder:
    """Collects sequences (name, mode "eager" or "graph", steps)."""

    def __init__(self) -> None:
        self.seqs: list[dict[str, Any]] = []

    def seq(self, name: str, mode: str, steps: list[dict[str, Any]]) -> None:
        assert all(s["name"] != name for s in self.seqs), name
        for st in steps:
            if st["op"].startswith(UNORDERED) and st.get("unordered", True):
                st["unordered"] = True
        self.seqs.append({"name": name, "mode": mode, "steps": steps})

    def write(self, out_name: str) -> None:
        done: list[dict[str, Any]] = []
        for s in self.seqs:
            print(s["name"], file=sys.stderr, flush=True)
            with tempfile.TemporaryDirectory() as tmp:
                run = json.loads(json.dumps(s).replace("@TMP@", tmp))
                (d.run_eager if run["mode"] == "eager" else d.run_graph)(run)
                done.append(json.loads(json.dumps(run).replace(tmp, "@TMP@")))
        with open(os.path.join(DATA, out_name), "w") as f:
            json.dump({"sequences": done}, f, indent=1)
            f.write("\n")
