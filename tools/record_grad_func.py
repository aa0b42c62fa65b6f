"""Records TF 2.21's TF_AddGradients results through function calls and
control flow, for tests/c/test_grad_func.c.

Run with the TF 2.21 python (outside the tests):

    /work/tfvenv/bin/python tools/record_grad_func.py

It drives TF's own C API (libtensorflow_cc.so.2 of the pip package) with
ctypes, building the same graphs as the C test: a function call (by the
function's name, PartitionedCall, StatefulPartitionedCall), StatelessIf,
StatelessWhile and TF_NewWhile loops, then TF_AddGradients and a session
run. It writes tests/data/grad_func_tf221.h: for each case the gradient
values, or TF's status code and message prefix when TF refuses.
"""

from __future__ import annotations

import ctypes as C
import json
import math
import os
import subprocess
import sys
from typing import Any

import tensorflow as tf

LIB = C.CDLL(os.path.join(os.path.dirname(tf.__file__), "libtensorflow_cc.so.2"))
P = C.c_void_p


class Output(C.Structure):
    _fields_ = [("oper", P), ("index", C.c_int)]


class WhileParams(C.Structure):
    _fields_ = [
        ("ninputs", C.c_int),
        ("cond_graph", P),
        ("cond_inputs", C.POINTER(Output)),
        ("cond_output", Output),
        ("body_graph", P),
        ("body_inputs", C.POINTER(Output)),
        ("body_outputs", C.POINTER(Output)),
        ("name", C.c_char_p),
    ]


def _sig(name: str, res: Any, *args: Any) -> None:
    f = getattr(LIB, name)
    f.restype = res
    f.argtypes = list(args)


_sig("TF_NewGraph", P)
_sig("TF_DeleteGraph", None, P)
_sig("TF_NewStatus", P)
_sig("TF_DeleteStatus", None, P)
_sig("TF_GetCode", C.c_int, P)
_sig("TF_Message", C.c_char_p, P)
_sig("TF_NewOperation", P, P, C.c_char_p, C.c_char_p)
_sig("TF_AddInput", None, P, Output)
_sig("TF_AddInputList", None, P, C.POINTER(Output), C.c_int)
_sig("TF_SetAttrType", None, P, C.c_char_p, C.c_int)
_sig("TF_SetAttrTypeList", None, P, C.c_char_p, C.POINTER(C.c_int), C.c_int)
_sig("TF_SetAttrFuncName", None, P, C.c_char_p, C.c_char_p, C.c_size_t)
_sig("TF_SetAttrTensor", None, P, C.c_char_p, P, P)
_sig("TF_FinishOperation", P, P, P)
_sig("TF_AllocateTensor", P, C.c_int, C.POINTER(C.c_int64), C.c_int, C.c_size_t)
_sig("TF_DeleteTensor", None, P)
_sig("TF_TensorData", P, P)
_sig("TF_TensorByteSize", C.c_size_t, P)
_sig(
    "TF_GraphToFunction",
    P,
    P,
    C.c_char_p,
    C.c_ubyte,
    C.c_int,
    P,
    C.c_int,
    C.POINTER(Output),
    C.c_int,
    C.POINTER(Output),
    P,
    P,
    C.c_char_p,
    P,
)
_sig("TF_GraphCopyFunction", None, P, P, P, P)
_sig("TF_DeleteFunction", None, P)
_sig(
    "TF_AddGradients",
    None,
    P,
    C.POINTER(Output),
    C.c_int,
    C.POINTER(Output),
    C.c_int,
    P,
    P,
    C.POINTER(Output),
)
_sig("TF_NewSessionOptions", P)
_sig("TF_DeleteSessionOptions", None, P)
_sig("TF_NewSession", P, P, P, P)
_sig("TF_CloseSession", None, P, P)
_sig("TF_DeleteSession", None, P, P)
_sig(
    "TF_SessionRun",
    None,
    P,
    P,
    C.POINTER(Output),
    C.POINTER(P),
    C.c_int,
    C.POINTER(Output),
    C.POINTER(P),
    C.c_int,
    P,
    C.c_int,
    P,
    P,
)
_sig("TF_NewWhile", WhileParams, P, C.POINTER(Output), C.c_int, P)
_sig("TF_FinishWhile", None, C.POINTER(WhileParams), P, C.POINTER(Output))

DOUBLE, INT32, BOOL = 2, 3, 10


class Status:
    def __init__(self) -> None:
        self.p = LIB.TF_NewStatus()

    def ok(self) -> bool:
        return LIB.TF_GetCode(self.p) == 0

    def check(self) -> None:
        if not self.ok():
            raise RuntimeError(LIB.TF_Message(self.p).decode())


def tensor(dtype: int, values: list[Any], dims: list[int]) -> Any:
    fmt = {DOUBLE: C.c_double, INT32: C.c_int32, BOOL: C.c_bool}[dtype]
    d = (C.c_int64 * len(dims))(*dims)
    t = LIB.TF_AllocateTensor(dtype, d, len(dims), C.sizeof(fmt) * len(values))
    arr = (fmt * len(values)).from_address(LIB.TF_TensorData(t))
    for i, v in enumerate(values):
        arr[i] = v
    return t


def read_doubles(t: Any) -> list[float]:
    n = LIB.TF_TensorByteSize(t) // 8
    return list((C.c_double * n).from_address(LIB.TF_TensorData(t)))


def op(g: Any, typ: str, name: str, inputs: list[Output], s: Status, **attrs: Any) -> Any:
    d = LIB.TF_NewOperation(g, typ.encode(), name.encode())
    for i in inputs:
        if isinstance(i, list):
            LIB.TF_AddInputList(d, (Output * len(i))(*i), len(i))
        else:
            LIB.TF_AddInput(d, i)
    for k, v in attrs.items():
        if k.startswith("type_"):
            LIB.TF_SetAttrType(d, k[5:].encode(), v)
        elif k.startswith("types_"):
            LIB.TF_SetAttrTypeList(d, k[6:].encode(), (C.c_int * len(v))(*v), len(v))
        elif k.startswith("func_"):
            LIB.TF_SetAttrFuncName(d, k[5:].encode(), v.encode(), len(v))
        elif k == "value":
            LIB.TF_SetAttrTensor(d, b"value", v, s.p)
    r = LIB.TF_FinishOperation(d, s.p)
    s.check()
    return r


def out(o: Any, i: int = 0) -> Output:
    return Output(o, i)


def ph(g: Any, name: str, dtype: int, s: Status) -> Any:
    return op(g, "Placeholder", name, [], s, type_dtype=dtype)


def const_i32(g: Any, name: str, v: int, s: Status) -> Any:
    t = tensor(INT32, [v], [])
    r = op(g, "Const", name, [], s, type_dtype=INT32, value=t)
    LIB.TF_DeleteTensor(t)
    return r


def const_d(g: Any, name: str, v: float, s: Status) -> Any:
    t = tensor(DOUBLE, [v], [])
    r = op(g, "Const", name, [], s, type_dtype=DOUBLE, value=t)
    LIB.TF_DeleteTensor(t)
    return r


def make_fn(name: str, build: Any, s: Status) -> Any:
    """A function from build(g, s) -> (inputs, outputs)."""
    g = LIB.TF_NewGraph()
    ins, outs = build(g, s)
    f = LIB.TF_GraphToFunction(
        g,
        name.encode(),
        0,
        -1,
        None,
        len(ins),
        (Output * len(ins))(*ins),
        len(outs),
        (Output * len(outs))(*outs),
        None,
        None,
        None,
        s.p,
    )
    s.check()
    LIB.TF_DeleteGraph(g)
    return f


def fn_sq_sin(g: Any, s: Status) -> Any:
    x = ph(g, "x", DOUBLE, s)
    m = op(g, "Mul", "m", [out(x), out(x)], s)
    si = op(g, "Sin", "si", [out(x)], s)
    return [out(x)], [out(op(g, "AddV2", "y", [out(m), out(si)], s))]


def fn_neg3(g: Any, s: Status) -> Any:
    x = ph(g, "x", DOUBLE, s)
    c = const_d(g, "c", -3.0, s)
    return [out(x)], [out(op(g, "Mul", "y", [out(x), out(c)], s))]


def fn_two_in(g: Any, s: Status) -> Any:
    """(x, y) -> (x * y, exp(x)); the second output unused by the loss."""
    x = ph(g, "x", DOUBLE, s)
    y = ph(g, "y", DOUBLE, s)
    return [out(x), out(y)], [
        out(op(g, "Mul", "xy", [out(x), out(y)], s)),
        out(op(g, "Exp", "ex", [out(x)], s)),
    ]


def fn_cond_lt3(g: Any, s: Status) -> Any:
    i = ph(g, "i", INT32, s)
    x = ph(g, "x", DOUBLE, s)
    c = const_i32(g, "three", 3, s)
    return [out(i), out(x)], [out(op(g, "Less", "lt", [out(i), out(c)], s))]


def fn_body_sq(g: Any, s: Status) -> Any:
    i = ph(g, "i", INT32, s)
    x = ph(g, "x", DOUBLE, s)
    one = const_i32(g, "one", 1, s)
    return [out(i), out(x)], [
        out(op(g, "AddV2", "i1", [out(i), out(one)], s)),
        out(op(g, "Mul", "xx", [out(x), out(x)], s)),
    ]


def run(g: Any, feeds: list[tuple[Output, Any]], fetch: list[Output]) -> list[list[float]]:
    s = Status()
    opts = LIB.TF_NewSessionOptions()
    sess = LIB.TF_NewSession(g, opts, s.p)
    s.check()
    LIB.TF_DeleteSessionOptions(opts)
    ins = (Output * len(feeds))(*[f[0] for f in feeds])
    vals = (P * len(feeds))(*[f[1] for f in feeds])
    outs = (Output * len(fetch))(*fetch)
    res = (P * len(fetch))()
    LIB.TF_SessionRun(sess, None, ins, vals, len(feeds), outs, res, len(fetch), None, 0, None, s.p)
    if not s.ok():
        raise RuntimeError(LIB.TF_Message(s.p).decode())
    r = [read_doubles(res[i]) for i in range(len(fetch))]
    for i in range(len(fetch)):
        LIB.TF_DeleteTensor(res[i])
    LIB.TF_CloseSession(sess, s.p)
    LIB.TF_DeleteSession(sess, s.p)
    return r


XV = [0.5, 1.0, 2.0]


def add_fns(g: Any, fns: list[Any], s: Status) -> None:
    for f in fns:
        LIB.TF_GraphCopyFunction(g, f, None, s.p)
        s.check()


def grads(g: Any, y: list[Output], x: list[Output]) -> tuple[int, str, list[Output]]:
    s = Status()
    dy = (Output * len(x))()
    LIB.TF_AddGradients(
        g, (Output * len(y))(*y), len(y), (Output * len(x))(*x), len(x), None, s.p, dy
    )
    return LIB.TF_GetCode(s.p), LIB.TF_Message(s.p).decode(), list(dy)


def case_call(kind: str, s: Status) -> dict[str, Any]:
    g = LIB.TF_NewGraph()
    f = make_fn("sq_sin", fn_sq_sin, s)
    add_fns(g, [f], s)
    x = ph(g, "x", DOUBLE, s)
    if kind == "name":
        c = op(g, "sq_sin", "call", [out(x)], s)
    else:
        c = op(
            g,
            kind,
            "call",
            [[out(x)]],
            s,
            types_Tin=[DOUBLE],
            types_Tout=[DOUBLE],
            func_f="sq_sin",
        )
    code, msg, dy = grads(g, [out(c)], [out(x)])
    r: dict[str, Any] = {"code": code, "msg": msg}
    if code == 0:
        r["values"] = run(g, [(out(x), tensor(DOUBLE, XV, [3]))], [dy[0]])[0]
    return r


def case_two_out(s: Status) -> dict[str, Any]:
    """A call with two inputs and two outputs; the loss uses output 0 only."""
    g = LIB.TF_NewGraph()
    add_fns(g, [make_fn("two_in", fn_two_in, s)], s)
    x = ph(g, "x", DOUBLE, s)
    y = ph(g, "y", DOUBLE, s)
    c = op(
        g,
        "PartitionedCall",
        "call",
        [[out(x), out(y)]],
        s,
        types_Tin=[DOUBLE, DOUBLE],
        types_Tout=[DOUBLE, DOUBLE],
        func_f="two_in",
    )
    code, msg, dy = grads(g, [out(c, 0)], [out(x), out(y)])
    r: dict[str, Any] = {"code": code, "msg": msg}
    if code == 0:
        r["values"] = run(
            g,
            [(out(x), tensor(DOUBLE, XV, [3])), (out(y), tensor(DOUBLE, [3.0, -1.0, 0.25], [3]))],
            dy,
        )
    return r


def case_if(pred: bool, s: Status) -> dict[str, Any]:
    g = LIB.TF_NewGraph()
    add_fns(g, [make_fn("sq_sin", fn_sq_sin, s), make_fn("neg3", fn_neg3, s)], s)
    x = ph(g, "x", DOUBLE, s)
    p = ph(g, "p", BOOL, s)
    c = op(
        g,
        "StatelessIf",
        "if",
        [out(p), [out(x)]],
        s,
        type_Tcond=BOOL,
        types_Tin=[DOUBLE],
        types_Tout=[DOUBLE],
        func_then_branch="sq_sin",
        func_else_branch="neg3",
    )
    code, msg, dy = grads(g, [out(c)], [out(x)])
    r: dict[str, Any] = {"code": code, "msg": msg}
    if code == 0:
        r["values"] = run(
            g, [(out(x), tensor(DOUBLE, XV, [3])), (out(p), tensor(BOOL, [pred], []))], [dy[0]]
        )[0]
    return r


def case_functional_while(s: Status) -> dict[str, Any]:
    g = LIB.TF_NewGraph()
    add_fns(g, [make_fn("cond_lt3", fn_cond_lt3, s), make_fn("body_sq", fn_body_sq, s)], s)
    x = ph(g, "x", DOUBLE, s)
    i0 = const_i32(g, "i0", 0, s)
    w = op(
        g,
        "StatelessWhile",
        "while",
        [[out(i0), out(x)]],
        s,
        types_T=[INT32, DOUBLE],
        func_cond="cond_lt3",
        func_body="body_sq",
    )
    code, msg, dy = grads(g, [out(w, 1)], [out(x)])
    r: dict[str, Any] = {"code": code, "msg": msg}
    if code == 0:
        r["values"] = run(g, [(out(x), tensor(DOUBLE, XV, [3]))], [dy[0]])[0]
    return r


def case_v1_while(square: bool, s: Status) -> dict[str, Any]:
    """TF_NewWhile over (i, x): while i < 3: i + 1, x * 2 (or x * x)."""
    g = LIB.TF_NewGraph()
    x = ph(g, "x", DOUBLE, s)
    i0 = const_i32(g, "i0", 0, s)
    ins = (Output * 2)(out(i0), out(x))
    params = LIB.TF_NewWhile(g, ins, 2, s.p)
    s.check()
    cg, bg = params.cond_graph, params.body_graph
    three = const_i32(cg, "three", 3, s)
    params.cond_output = out(op(cg, "Less", "lt", [params.cond_inputs[0], out(three)], s))
    one = const_i32(bg, "one", 1, s)
    params.body_outputs[0] = out(op(bg, "AddV2", "i1", [params.body_inputs[0], out(one)], s))
    if square:
        params.body_outputs[1] = out(
            op(bg, "Mul", "xx", [params.body_inputs[1], params.body_inputs[1]], s)
        )
    else:
        two = const_d(bg, "two", 2.0, s)
        params.body_outputs[1] = out(op(bg, "Mul", "x2", [params.body_inputs[1], out(two)], s))
    params.name = b"loop"
    outs = (Output * 2)()
    LIB.TF_FinishWhile(C.byref(params), s.p, outs)
    s.check()
    code, msg, dy = grads(g, [outs[1]], [out(x)])
    r: dict[str, Any] = {"code": code, "msg": msg}
    if code == 0:
        try:
            r["values"] = run(g, [(out(x), tensor(DOUBLE, XV, [3]))], [dy[0]])[0]
        except RuntimeError as e:
            r["run_error"] = str(e)
    return r


def python_values() -> dict[str, list[float]]:
    """The same If / While math differentiated by TF's Python gradients
    (cond_v2 / while_v2 in a tf.function), which TF's C API refuses."""
    x0 = tf.constant(XV, tf.float64)

    @tf.function
    def if_grad(x: Any, p: Any) -> Any:
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.cond(p, lambda: x * x + tf.sin(x), lambda: x * -3.0)
        return t.gradient(y, x)

    @tf.function
    def while_grad(x: Any) -> Any:
        with tf.GradientTape() as t:
            t.watch(x)
            _, y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * v), [0, x])
        return t.gradient(y, x)

    return {
        "if_true": if_grad(x0, tf.constant(True)).numpy().tolist(),
        "if_false": if_grad(x0, tf.constant(False)).numpy().tolist(),
        "functional_while": while_grad(x0).numpy().tolist(),
    }


def c_string(v: str) -> str:
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


CASES = {
    "call_by_name": lambda s: case_call("name", s),
    "partitioned_call": lambda s: case_call("PartitionedCall", s),
    "stateful_partitioned_call": lambda s: case_call("StatefulPartitionedCall", s),
    "call_two_outputs": case_two_out,
    "if_true": lambda s: case_if(True, s),
    "if_false": lambda s: case_if(False, s),
    "functional_while": case_functional_while,
    "v1_while_linear": lambda s: case_v1_while(False, s),
    "v1_while_square": lambda s: case_v1_while(True, s),
}


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--case":
        # One case in its own process: TF aborts (a CHECK failure) on some.
        print("RESULT " + json.dumps(CASES[sys.argv[2]](Status())))
        return
    lines = [
        "/* Generated by tools/record_grad_func.py from TF 2.21's C API: TF_AddGradients",
        " * through function calls and control flow (code, message, gradient values;",
        " * CRASH when TF's process dies in a CHECK failure). */",
        "#ifndef TFE_TEST_GRAD_FUNC_TF221_H_",
        "#define TFE_TEST_GRAD_FUNC_TF221_H_",
        "",
    ]
    for name in CASES:
        p = subprocess.run(
            [sys.executable, __file__, "--case", name], capture_output=True, text=True
        )
        res = [ln for ln in p.stdout.splitlines() if ln.startswith("RESULT ")]
        up = name.upper()
        if not res:
            crash = [ln for ln in p.stderr.splitlines() if "Check failed" in ln]
            print(name, "CRASH", crash, file=sys.stderr)
            lines.append(f"/* TF 2.21 aborts: {crash[0].split('] ')[-1] if crash else '?'} */")
            lines.append(f"#define TF_{up}_CRASH 1")
            lines.append("")
            continue
        r = json.loads(res[0][7:])
        print(name, r, file=sys.stderr)
        lines.append(f"#define TF_{up}_CODE {r['code']}")
        lines.append(f"#define TF_{up}_MSG {c_string(r['msg'][:200])}")
        if "values" in r:
            v = r["values"]
            flat = [x for row in v for x in row] if isinstance(v[0], list) else v
            vals = ", ".join(repr(float(x)) if math.isfinite(x) else "0.0" for x in flat)
            lines.append(f"static const double kTF_{up}[] = {{{vals}}};")
        if "run_error" in r:
            lines.append(f"#define TF_{up}_RUN_ERROR {c_string(r['run_error'][:200])}")
        lines.append("")
    for name, vals in python_values().items():
        print(name, "python", vals, file=sys.stderr)
        joined = ", ".join(repr(float(x)) for x in vals)
        lines.append(f"/* {name}: TF's Python gradient (tf.GradientTape in a tf.function) */")
        lines.append(f"static const double kTFPY_{name.upper()}[] = {{{joined}}};")
    lines.append("")
    lines.append("#endif")
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "grad_func_tf221.h")
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
