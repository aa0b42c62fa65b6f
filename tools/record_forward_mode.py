"""Records TF 2.21's forward-mode jvps of single raw ops into a C header,
tests/c/forward_mode_tf221.h, read by tests/c/test_forward_mode.c.

Each case calls one raw op with float64 inputs (int32 for shapes, axes,
indices) under ``tf.autodiff.ForwardAccumulator``; the inputs marked as
primals get random tangents, and the header keeps the inputs, the tangents,
the attrs and TF's jvp of every output.

Run with TF's python (outside the tests): /work/tfvenv/bin/python
tools/record_forward_mode.py
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import op_def_registry

RNG = np.random.default_rng(17)
OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "c", "forward_mode_tf221.h")


def d(*shape: int, lo: float = -1.5, hi: float = 1.5) -> np.ndarray:
    return RNG.uniform(lo, hi, shape).astype(np.float64)


def i32(v: Any) -> np.ndarray:
    return np.asarray(v, np.int32)


# (name, op, {input_arg: array | [arrays]}, primals (arg names, or "arg:k"
# for element k of a list arg), attrs {name: bool | int | float})
CASES: list[tuple[str, str, dict[str, Any], list[str], dict[str, Any]]] = [
    ("exp", "Exp", {"x": d(2, 3)}, ["x"], {}),
    ("log", "Log", {"x": d(2, 3, lo=0.3, hi=2.0)}, ["x"], {}),
    ("log1p", "Log1p", {"x": d(5, lo=0.1, hi=2.0)}, ["x"], {}),
    ("tanh", "Tanh", {"x": d(2, 3)}, ["x"], {}),
    ("sigmoid", "Sigmoid", {"x": d(2, 3)}, ["x"], {}),
    ("sqrt", "Sqrt", {"x": d(4, lo=0.3, hi=2.0)}, ["x"], {}),
    ("rsqrt", "Rsqrt", {"x": d(4, lo=0.3, hi=2.0)}, ["x"], {}),
    ("reciprocal", "Reciprocal", {"x": d(4, lo=0.3, hi=2.0)}, ["x"], {}),
    ("relu", "Relu", {"features": d(2, 3)}, ["features"], {}),
    ("relu6", "Relu6", {"features": d(6, lo=-3, hi=8)}, ["features"], {}),
    ("elu", "Elu", {"features": d(2, 3)}, ["features"], {}),
    ("selu", "Selu", {"features": d(2, 3)}, ["features"], {}),
    ("softplus", "Softplus", {"features": d(2, 3)}, ["features"], {}),
    ("leaky_relu", "LeakyRelu", {"features": d(2, 3)}, ["features"], {"alpha": 0.3}),
    ("square", "Square", {"x": d(2, 3)}, ["x"], {}),
    ("sin", "Sin", {"x": d(3)}, ["x"], {}),
    ("cos", "Cos", {"x": d(3)}, ["x"], {}),
    ("abs", "Abs", {"x": d(5)}, ["x"], {}),
    ("neg", "Neg", {"x": d(5)}, ["x"], {}),
    ("add_broadcast", "AddV2", {"x": d(2, 3), "y": d(3)}, ["x", "y"], {}),
    ("add_only_small", "AddV2", {"x": d(3), "y": d(2, 3)}, ["x"], {}),
    ("add_only_big", "AddV2", {"x": d(2, 3), "y": d(3)}, ["x"], {}),
    ("sub_only_y", "Sub", {"x": d(2, 3), "y": d(2, 3)}, ["y"], {}),
    ("sub_broadcast_y", "Sub", {"x": d(2, 3), "y": d(3)}, ["y"], {}),
    ("mul_broadcast", "Mul", {"x": d(2, 3), "y": d(2, 1)}, ["x", "y"], {}),
    ("realdiv", "RealDiv", {"x": d(2, 3), "y": d(3, lo=0.5, hi=2.0)}, ["x", "y"], {}),
    ("realdiv_y", "RealDiv", {"x": d(2, 3), "y": d(3, lo=0.5, hi=2.0)}, ["y"], {}),
    ("maximum", "Maximum", {"x": d(2, 3), "y": d(3)}, ["x", "y"], {}),
    ("minimum", "Minimum", {"x": d(2, 3), "y": d(2, 3)}, ["x"], {}),
    ("pow", "Pow", {"x": d(4, lo=0.5, hi=2.0), "y": d(4)}, ["x", "y"], {}),
    ("squared_difference", "SquaredDifference", {"x": d(2, 3), "y": d(3)}, ["x", "y"],
     {}),
    ("matmul", "MatMul", {"a": d(2, 3), "b": d(3, 4)}, ["a", "b"], {}),
    ("matmul_ta", "MatMul", {"a": d(3, 2), "b": d(3, 4)}, ["a", "b"],
     {"transpose_a": True}),
    ("matmul_b_only_tb", "MatMul", {"a": d(2, 3), "b": d(4, 3)}, ["b"],
     {"transpose_b": True}),
    ("batch_matmul", "BatchMatMulV2", {"x": d(2, 2, 3), "y": d(3, 2)}, ["x", "y"], {}),
    ("sum_axis", "Sum", {"input": d(2, 3), "axis": i32([1])}, ["input"], {}),
    ("sum_keep", "Sum", {"input": d(2, 3, 2), "axis": i32([0, 2])}, ["input"],
     {"keep_dims": True}),
    ("mean", "Mean", {"input": d(2, 3), "axis": i32(0)}, ["input"], {}),
    ("max", "Max", {"input": d(2, 3), "axis": i32(1)}, ["input"], {}),
    ("prod", "Prod", {"input": d(2, 3), "axis": i32(0)}, ["input"], {}),
    ("reshape", "Reshape", {"tensor": d(2, 3), "shape": i32([3, 2])}, ["tensor"], {}),
    ("transpose", "Transpose", {"x": d(2, 3, 2), "perm": i32([2, 0, 1])}, ["x"], {}),
    ("expand_dims", "ExpandDims", {"input": d(2, 3), "axis": i32(1)}, ["input"], {}),
    ("squeeze", "Squeeze", {"input": d(2, 1, 3)}, ["input"], {}),
    ("concat", "ConcatV2", {"values": [d(2, 3), d(2, 2)], "axis": i32(1)},
     ["values:0"], {}),
    ("pack", "Pack", {"values": [d(3), d(3), d(3)]}, ["values:0", "values:2"],
     {"axis": 1}),
    ("unpack", "Unpack", {"value": d(3, 2)}, ["value"], {"num": 3}),
    ("split", "Split", {"axis": i32(1), "value": d(2, 4)}, ["value"], {"num_split": 2}),
    ("tile", "Tile", {"input": d(2, 3), "multiples": i32([2, 1])}, ["input"], {}),
    ("slice", "Slice", {"input": d(3, 4), "begin": i32([1, 0]), "size": i32([2, 3])},
     ["input"], {}),
    ("gather", "GatherV2", {"params": d(4, 2), "indices": i32([3, 0, 3]),
                            "axis": i32(0)}, ["params"], {}),
    ("pad", "Pad", {"input": d(2, 2), "paddings": i32([[1, 0], [0, 2]])}, ["input"], {}),
    ("bias_add", "BiasAdd", {"value": d(2, 3), "bias": d(3)}, ["value", "bias"], {}),
    ("bias_add_bias", "BiasAdd", {"value": d(2, 3), "bias": d(3)}, ["bias"], {}),
    ("cumsum", "Cumsum", {"x": d(2, 3), "axis": i32(1)}, ["x"], {}),
    ("add_n", "AddN", {"inputs": [d(2, 2), d(2, 2), d(2, 2)]}, ["inputs:1", "inputs:2"],
     {}),
    ("select_v2", "SelectV2", {"condition": np.array([True, False, True]),
                               "t": d(2, 3), "e": d(3)}, ["t", "e"], {}),
    ("softmax", "Softmax", {"logits": d(2, 3)}, ["logits"], {}),
    ("log_softmax", "LogSoftmax", {"logits": d(2, 3)}, ["logits"], {}),
    ("atan2", "Atan2", {"y": d(3), "x": d(3)}, ["y", "x"], {}),
    ("erf", "Erf", {"x": d(4)}, ["x"], {}),
]


def arg_names(op: str) -> list[tuple[str, bool]]:
    od = op_def_registry.get(op)
    return [(a.name, bool(a.number_attr or a.type_list_attr)) for a in od.input_arg]


def c_num(x: float) -> str:
    return repr(float(x))


def main() -> None:
    lines = [
        "/* Generated by tools/record_forward_mode.py from TF 2.21: jvps of single",
        " * raw ops under tf.autodiff.ForwardAccumulator (float64). Do not edit. */",
        "#ifndef TFE_TESTS_FORWARD_MODE_TF221_H_",
        "#define TFE_TESTS_FORWARD_MODE_TF221_H_",
        "#include <stdint.h>",
        "",
    ]
    specs = []
    for ci, (name, op, inputs, primals, attrs) in enumerate(CASES):
        # op-def args by position, named by raw_ops' keywords (the order of
        # the inputs dict)
        args = [(kw, is_list) for kw, (_, is_list) in zip(inputs, arg_names(op), strict=True)]
        consts: dict[str, Any] = {}
        kwargs: dict[str, Any] = {}
        watched: list[tuple[Any, Any]] = []
        tensors = []  # (argi, is_list, arr, tangent or None)
        for argi, (an, is_list) in enumerate(args):
            vals = inputs[an]
            for k, arr in enumerate(vals if is_list else [vals]):
                key = f"{an}:{k}" if is_list else an
                tan = d(*arr.shape) if key in primals else None
                tensors.append((argi, is_list, arr, tan))
            consts[an] = vals
        for an, is_list in args:
            vals = consts[an]
            kwargs[an] = [tf.constant(v) for v in vals] if is_list else tf.constant(vals)
        for t_i, (argi, is_list, _arr, tan) in enumerate(tensors):
            if tan is None:
                continue
            an = args[argi][0]
            if is_list:
                k = sum(1 for x in tensors[:t_i] if x[0] == argi)
                watched.append((kwargs[an][k], tf.constant(tan)))
            else:
                watched.append((kwargs[an], tf.constant(tan)))
        with tf.autodiff.ForwardAccumulator([w[0] for w in watched],
                                            [w[1] for w in watched]) as acc:
            out = getattr(tf.raw_ops, op)(**kwargs, **attrs)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        jvps = [acc.jvp(o) for o in outs]
        for j, o in enumerate(jvps):
            if o is None:
                raise SystemExit(f"{name}: output {j} has no jvp in TF")
        # emit arrays
        tdefs = []
        for t_i, (argi, is_list, arr, tan) in enumerate(tensors):
            a = np.asarray(arr)
            dt = "FM_F64" if a.dtype == np.float64 else ("FM_BOOL" if a.dtype == bool
                                                          else "FM_I32")
            flat = a.reshape(-1).astype(np.float64)
            vname = f"c{ci}_in{t_i}"
            lines.append(f"static const double {vname}[] = {{"
                         + ", ".join(c_num(v) for v in flat) + (", 0" if flat.size == 0 else "")
                         + "};")
            tname = "NULL"
            if tan is not None:
                tname = f"c{ci}_tan{t_i}"
                lines.append(f"static const double {tname}[] = {{"
                             + ", ".join(c_num(v) for v in tan.reshape(-1)) + "};")
            dims = list(a.shape)
            tdefs.append(f"{{{argi}, {1 if is_list else 0}, {dt}, {len(dims)}, {{"
                         + ", ".join(str(x) for x in dims + [0] * (4 - len(dims)))
                         + f"}}, {vname}, {tname}}}")
        odefs = []
        for j, o in enumerate(jvps):
            a = o.numpy()
            oname = f"c{ci}_out{j}"
            lines.append(f"static const double {oname}[] = {{"
                         + ", ".join(c_num(v) for v in a.reshape(-1)) + "};")
            odefs.append(f"{{{a.size}, {oname}}}")
        adefs = []
        for an, v in attrs.items():
            if isinstance(v, bool):
                adefs.append(f'{{"{an}", \'b\', {int(v)}, 0}}')
            elif isinstance(v, int):
                adefs.append(f'{{"{an}", \'i\', {v}, 0}}')
            else:
                adefs.append(f'{{"{an}", \'f\', 0, {c_num(v)}}}')
        lines.append(f"static const fm_tensor c{ci}_ins[] = {{" + ", ".join(tdefs) + "};")
        lines.append(f"static const fm_output c{ci}_outs[] = {{" + ", ".join(odefs) + "};")
        if adefs:
            lines.append(f"static const fm_attr c{ci}_attrs[] = {{" + ", ".join(adefs) + "};")
        specs.append(
            f'  {{"{name}", "{op}", {len(tensors)}, c{ci}_ins, {len(jvps)}, c{ci}_outs, '
            f'{len(adefs)}, {f"c{ci}_attrs" if adefs else "NULL"}}},'
        )
        lines.append("")
    header = [
        "typedef enum { FM_F64, FM_I32, FM_BOOL } fm_dtype;",
        "/* One input tensor: its op-def arg index, whether that arg is a list,",
        " * dtype, dims, values, and the tangent (NULL: not a primal). */",
        "typedef struct { int arg; int is_list; fm_dtype dtype; int nd; int64_t dims[4];",
        "                 const double* vals; const double* tangent; } fm_tensor;",
        "typedef struct { int n; const double* jvp; } fm_output;",
        "typedef struct { const char* name; char kind; int64_t i; double f; } fm_attr;",
        "typedef struct { const char* name; const char* op; int num_inputs;",
        "                 const fm_tensor* inputs; int num_outputs; const fm_output* outputs;",
        "                 int num_attrs; const fm_attr* attrs; } fm_case;",
        "",
    ]
    lines[6:6] = header
    lines.append("static const fm_case k_fm_cases[] = {")
    lines.extend(specs)
    lines.append("};")
    lines.append("")
    lines.append("#endif /* TFE_TESTS_FORWARD_MODE_TF221_H_ */")
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(CASES)} cases to {OUT}")


if __name__ == "__main__":
    main()
