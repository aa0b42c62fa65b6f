"""Record TensorFlow 2.21's op registry as interface data for tfe.

Run with the TF 2.21 python (never needed to build or test tfe):

    /work/tfvenv/bin/python tools/dump_tf_ops.py            # from the live TF
    /work/tfvenv/bin/python tools/dump_tf_ops.py --oplist /work/tfdata/tf_oplist.pb \
        --kernels /work/tfdata/tf_kernels.pb                 # from recorded protos

Writes two text files under data/ (paths relative to the repository):

* ``data/tf221_ops.txt``: every op definition, documentation stripped. One
  block per op, sorted by name, blocks separated by an empty line. The first
  line is ``op: <Name>``; the others are the spec lines tfe's op grammar reads
  (``in: x: T``, ``out: y: T``, ``attr: T: {float, double} = DT_FLOAT``) and the
  flags ``stateful``, ``commutative``, ``aggregate``,
  ``allows_uninitialized_input``; plus informational lines tfe's grammar does
  not take, prefixed ``#``: ``# deprecated: <version> <explanation>``,
  ``# distributed_communication``, ``# control_output: <name>``.
* ``data/tf221_shape_families.txt`` (with ``--probe-shapes``): the ops whose
  TF shape function behaves as one simple family on probe shapes, as
  ``<Op> <family>`` lines: ``unchanged`` (one output shaped as input 0, for
  ranks 0, 2, 4, partly known and unknown), ``broadcast`` (two inputs, one
  output of their broadcast shape), ``scalar`` (every output a scalar for any
  input shape). Ops not listed get tfe's ``unknown`` rule.
* ``data/tf221_op_modules.txt``: ``<Op> <module>`` for every op one of TF's
  generated Python wrapper modules (``gen_*_ops.py`` in the TF package, e.g.
  ``gen_math_ops``) calls; the module names the op's family (its op library).
* ``data/tf221_gradients.txt``: ``<Op> grad`` or ``<Op> not_differentiable``
  for every op in TF's Python gradient registry.
* ``data/tf221_cpu_kernels.txt``: one line per distinct CPU kernel
  registration, ``<Op>\\t<attr>=<dtype>,<dtype>;<attr>=...`` (the dtype
  constraints of the KernelDef; empty after the tab when unconstrained),
  sorted.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OPS_OUT = ROOT / "data" / "tf221_ops.txt"
KERNELS_OUT = ROOT / "data" / "tf221_cpu_kernels.txt"


def dtype_name(types_pb2: Any, t: int) -> str:
    """Short dtype name as the op grammar spells it (float, int32, resource)."""
    name = types_pb2.DataType.Name(t)
    assert name.startswith("DT_"), name
    return name[3:].lower()


def enum_name(types_pb2: Any, t: int) -> str:
    return str(types_pb2.DataType.Name(t))


def quote(s: bytes) -> str:
    out = ["'"]
    for b in s:
        c = chr(b)
        if c == "'":
            out.append("\\'")
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif 32 <= b < 127:
            out.append(c)
        else:
            out.append(f"\\{b:03o}")
    out.append("'")
    return "".join(out)


def float_text(np: Any, f: float) -> str:
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    # numpy prints the shortest text that reads back as the same float32
    return str(np.float32(f))


def shape_text(shp: Any) -> str:
    if shp.unknown_rank:
        return "{ unknown_rank: true }"
    dims = " ".join(f"dim {{ size: {d.size} }}" for d in shp.dim)
    return f"{{ {dims} }}" if dims else "{ }"


def value_text(np: Any, types_pb2: Any, text_format: Any, kind: str, v: Any) -> str:
    """Default value text in the grammar's (TF's REGISTER_OP) syntax."""
    if kind.startswith("list("):
        inner = kind[5:-1]
        lv = v.list
        if inner == "int":
            items = [str(x) for x in lv.i]
        elif inner == "float":
            items = [float_text(np, x) for x in lv.f]
        elif inner == "bool":
            items = ["true" if x else "false" for x in lv.b]
        elif inner == "string":
            items = [quote(x) for x in lv.s]
        elif inner == "type":
            items = [enum_name(types_pb2, x) for x in lv.type]
        elif inner == "shape":
            items = [shape_text(x) for x in lv.shape]
        elif inner == "tensor":
            items = [f"{{ {text_format.MessageToString(x, as_one_line=True)} }}" for x in lv.tensor]
        elif inner == "func":
            items = [x.name for x in lv.func]
        else:
            raise ValueError(kind)
        return "[" + ", ".join(items) + "]"
    if kind == "int":
        return str(v.i)
    if kind == "float":
        return float_text(np, v.f)
    if kind == "bool":
        return "true" if v.b else "false"
    if kind == "string":
        return quote(v.s)
    if kind == "type":
        return enum_name(types_pb2, v.type)
    if kind == "shape":
        return shape_text(v.shape)
    if kind == "tensor":
        return f"{{ {text_format.MessageToString(v.tensor, as_one_line=True)} }}"
    raise ValueError(kind)


def arg_text(types_pb2: Any, a: Any) -> str:
    if a.type_list_attr:
        t = a.type_list_attr
    elif a.number_attr:
        t = f"{a.number_attr} * {a.type_attr or dtype_name(types_pb2, a.type)}"
    elif a.type_attr:
        t = a.type_attr
    else:
        t = dtype_name(types_pb2, a.type)
    if a.is_ref:
        t = f"Ref({t})"
    return f"{a.name}: {t}"


def attr_text(np: Any, types_pb2: Any, text_format: Any, a: Any) -> str:
    kind = a.type
    allowed = a.allowed_values.list if a.HasField("allowed_values") else None
    base = kind
    if allowed is not None and (len(allowed.type) or len(allowed.s)):
        if len(allowed.type):
            vals = ", ".join(dtype_name(types_pb2, t) for t in allowed.type)
        else:
            vals = ", ".join(quote(s) for s in allowed.s)
        base = f"list({{{vals}}})" if kind.startswith("list(") else f"{{{vals}}}"
    text = f"{a.name}: {base}"
    if a.has_minimum:
        text += f" >= {a.minimum}"
    if a.HasField("default_value"):
        text += " = " + value_text(np, types_pb2, text_format, kind, a.default_value)
    return text


def op_block(np: Any, types_pb2: Any, text_format: Any, o: Any) -> list[str]:
    lines = ["op: " + o.name]
    lines += ["in: " + arg_text(types_pb2, a) for a in o.input_arg]
    lines += ["out: " + arg_text(types_pb2, a) for a in o.output_arg]
    lines += ["attr: " + attr_text(np, types_pb2, text_format, a) for a in o.attr]
    if o.is_stateful:
        lines.append("stateful")
    if o.is_commutative:
        lines.append("commutative")
    if o.is_aggregate:
        lines.append("aggregate")
    if o.allows_uninitialized_input:
        lines.append("allows_uninitialized_input")
    if o.deprecation.version:
        lines.append(f"# deprecated: {o.deprecation.version} {o.deprecation.explanation}")
    if o.is_distributed_communication:
        lines.append("# distributed_communication")
    for c in o.control_output:
        lines.append("# control_output: " + c)
    return lines


FAMILIES_OUT = ROOT / "data" / "tf221_shape_families.txt"
MODULES_OUT = ROOT / "data" / "tf221_op_modules.txt"
GRADS_OUT = ROOT / "data" / "tf221_gradients.txt"


def op_modules() -> dict[str, str]:
    """Op name -> the generated wrapper module (gen_*.py) of TF that calls it."""
    import re

    import tensorflow as tf

    base = Path(tf.__file__).resolve().parent
    found: dict[str, str] = {}
    pat = re.compile(r'_apply_op_helper\(\s*"([A-Za-z0-9_]+)"')
    for path in sorted(base.rglob("gen_*.py")):
        if "lite" in path.parts or path.name == "gen_html.py":
            continue
        for name in pat.findall(path.read_text(errors="replace")):
            found.setdefault(name, path.stem)
    return found


def probe_family(tf: Any, o: Any) -> str | None:
    """The shape family TF's shape function shows for op ``o``, or None.

    Builds the op in a graph with placeholders of chosen shapes and reads the
    static output shapes; only ops whose every arg is a single tensor and
    whose attrs all have defaults (type attrs are inferred) are probed.
    """
    from tensorflow.python.framework import op_def_library

    if not o.output_arg or not o.input_arg or len(o.input_arg) > 2:
        return None
    for a in list(o.input_arg) + list(o.output_arg):
        if a.number_attr or a.type_list_attr or a.is_ref:
            return None
    type_attrs = {a.name: a for a in o.attr if a.type == "type"}
    for a in o.attr:
        if a.type != "type" and not a.HasField("default_value"):
            return None

    def pick(attr: Any) -> Any:
        allowed = list(attr.allowed_values.list.type) if attr.HasField("allowed_values") else []
        if not allowed:
            return tf.float32
        for want in (tf.float32, tf.int32, tf.bool, tf.string):
            if want.as_datatype_enum in allowed:
                return want
        return tf.dtypes.as_dtype(allowed[0])

    dtypes = []
    for a in o.input_arg:
        if a.type_attr:
            dtypes.append(pick(type_attrs[a.type_attr]))
        else:
            dtypes.append(tf.dtypes.as_dtype(a.type))
    if any(d in (tf.resource, tf.variant) for d in dtypes):
        return None

    def run(shapes: list[Any]) -> list[Any] | None:
        g = tf.Graph()
        with g.as_default():
            kwargs = {}
            for a, d, shp in zip(o.input_arg, dtypes, shapes, strict=False):
                kwargs[a.name] = tf.compat.v1.placeholder(d, shape=shp)
            try:
                op = op_def_library._apply_op_helper(o.name, **kwargs)[2]
            except Exception:
                return None
            if op is None:
                return None
            return [t.shape for t in op.outputs]

    def same(a: Any, b: Any) -> bool:
        return a.rank == b.rank and (a.rank is None or a.as_list() == b.as_list())

    unary_probes = [[], [2, 3], [None, 5], None, [2, 1, 4, 3]]
    if len(o.input_arg) == 1:
        outs = [run([p]) for p in unary_probes]
        if any(x is None for x in outs):
            return None
        if len(o.output_arg) == 1 and all(
            same(x[0], tf.TensorShape(p)) for x, p in zip(outs, unary_probes, strict=False)
        ):
            return "unchanged"
        if all(all(t.rank == 0 for t in x) for x in outs):
            return "scalar"
        return None
    pairs = [([2, 1, 3], [4, 1], [2, 4, 3]), ([2, 3], [3], [2, 3]), ([], [5], [5]),
             ([None, 3], [1, 3], [None, 3]), (None, [2], None)]
    outs = [run([a, b]) for a, b, _ in pairs]
    if any(x is None for x in outs):
        return None
    if len(o.output_arg) == 1 and all(
        same(x[0], tf.TensorShape(c)) for x, (_, _, c) in zip(outs, pairs, strict=False)
    ):
        return "broadcast"
    if all(all(t.rank == 0 for t in x) for x in outs):
        return "scalar"
    return None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--oplist", help="serialized OpList (default: the running TF's TF_GetAllOpList)")
    p.add_argument("--kernels", help="serialized KernelList (default: the running TF's kernels)")
    p.add_argument("--grads", help="recorded gradient registry JSON {grad: [...], "
                   "not_differentiable: [...]} (default: the running TF's)")
    p.add_argument("--probe-shapes", action="store_true",
                   help="also probe TF's shape functions (needs the live TF)")
    args = p.parse_args()

    import numpy as np
    from google.protobuf import text_format
    from tensorflow.core.framework import kernel_def_pb2, op_def_pb2, types_pb2

    ol = op_def_pb2.OpList()
    if args.oplist:
        ol.ParseFromString(Path(args.oplist).read_bytes())
    else:
        from tensorflow.python.client import pywrap_tf_session as c

        buf = c.TF_GetAllOpList()
        ol.ParseFromString(c.TF_GetBuffer(buf))
    kl = kernel_def_pb2.KernelList()
    if args.kernels:
        kl.ParseFromString(Path(args.kernels).read_bytes())
    else:
        from tensorflow.python.framework import kernels

        kl = kernels.get_all_registered_kernels()

    blocks = []
    for o in sorted(ol.op, key=lambda o: o.name):
        o.ClearField("summary")
        o.ClearField("description")
        blocks.append("\n".join(op_block(np, types_pb2, text_format, o)))
    OPS_OUT.parent.mkdir(parents=True, exist_ok=True)
    OPS_OUT.write_text("\n\n".join(blocks) + "\n")

    lines = set()
    for k in kl.kernel:
        if k.device_type != "CPU":
            continue
        cons = []
        for c in k.constraint:
            ts = c.allowed_values.list.type
            if ts:
                cons.append("{}={}".format(c.name, ",".join(dtype_name(types_pb2, t) for t in ts)))
        lines.add("{}\t{}".format(k.op, ";".join(cons)))
    KERNELS_OUT.write_text("\n".join(sorted(lines)) + "\n")
    if args.probe_shapes:
        import tensorflow as tf

        fam_lines = []
        for o in sorted(ol.op, key=lambda o: o.name):
            f = probe_family(tf, o)
            if f is not None:
                fam_lines.append(f"{o.name} {f}")
        FAMILIES_OUT.write_text(
            "# Shape-function family of TF 2.21 ops, probed by tools/dump_tf_ops.py\n"
            + "\n".join(fam_lines) + "\n")
        print(f"{len(fam_lines)} ops in a simple shape family", file=sys.stderr)
    if args.grads:
        import json

        gj = json.loads(Path(args.grads).read_text())
        grads, nodiff = gj["grad"], gj["not_differentiable"]
    else:
        from tensorflow.python.framework import ops as tf_ops

        reg = tf_ops._gradient_registry._registry
        grads = sorted(k for k, v in reg.items() if v["type"] is not None)
        nodiff = sorted(k for k, v in reg.items() if v["type"] is None)
    GRADS_OUT.write_text("\n".join(sorted([f"{g} grad" for g in grads]
                                          + [f"{g} not_differentiable" for g in nodiff])) + "\n")
    mods = op_modules()
    MODULES_OUT.write_text(
        "\n".join(f"{o.name} {mods[o.name]}"
                  for o in sorted(ol.op, key=lambda o: o.name) if o.name in mods) + "\n")
    n_ops = len({x.split("\t")[0] for x in lines})
    print(f"{len(ol.op)} ops, {len(lines)} CPU kernel registrations for {n_ops} ops",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
