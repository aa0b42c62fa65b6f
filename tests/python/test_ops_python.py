"""tfe_py.ops: wrappers generated from the op registry."""

from __future__ import annotations

import inspect
import struct
import threading

import numpy as np
import pytest

from tfe_py import _opgen, errors, ops
from tfe_py._ffi import ffi, lib
from tfe_py.context import Context, default_context
from tfe_py.eager import EagerTensor, constant

CORE_OPS = [
    "AddV2", "Sub", "Mul", "RealDiv", "Div", "FloorDiv", "FloorMod", "Neg", "Abs", "Square",
    "Sqrt", "Rsqrt", "Exp", "Log", "Tanh", "Sigmoid", "Relu", "Maximum", "Minimum", "Pow",
    "SquaredDifference", "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual",
    "LogicalAnd", "LogicalOr", "LogicalNot", "Select", "SelectV2", "Cast", "Identity",
    "IdentityN", "Reshape", "Shape", "Size", "Rank", "ExpandDims", "Squeeze", "Fill",
    "ZerosLike", "OnesLike", "Range", "ConcatV2", "Pack", "Transpose", "Sum", "Mean", "Max",
    "Min", "Prod", "MatMul",
]  # fmt: skip


@pytest.fixture(autouse=True)
def _default_exists():
    default_context()


def f32(x):
    return constant(np.asarray(x, dtype=np.float32))


# ------------------------------------------------------------ generation


def test_every_registered_op_has_a_wrapper_with_a_docstring():
    names = ops.list_ops()
    assert set(CORE_OPS) <= set(names)
    assert set(CORE_OPS) <= set(dir(ops))
    for name in names:
        fn = getattr(ops, name)
        assert fn.__name__ == name
        assert fn.__doc__.startswith(f"{name}(")
        assert f"Runs the op {name} eagerly." in fn.__doc__
    assert ops.get_op("AddV2") is ops.AddV2  # cached


def test_unknown_op_is_an_attribute_error():
    with pytest.raises(AttributeError, match="NoSuchOp"):
        _ = ops.NoSuchOp
    assert not hasattr(ops, "NoSuchOp")
    with pytest.raises(AttributeError):
        ops.get_op("AlsoMissing")


def test_signature_follows_the_definition():
    sig = inspect.signature(ops.MatMul)
    params = sig.parameters
    assert list(params)[:2] == ["a", "b"]
    assert params["a"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    for attr in ("transpose_a", "transpose_b", "T", "name", "device"):
        assert params[attr].kind is inspect.Parameter.KEYWORD_ONLY
        assert params[attr].default is None
    # Cast's DstT has no default and cannot be inferred: required.
    dst = inspect.signature(ops.Cast).parameters["DstT"]
    assert dst.kind is inspect.Parameter.KEYWORD_ONLY and dst.default is inspect.Parameter.empty


def test_docstring_lists_inputs_outputs_and_attrs():
    doc = ops.MatMul.__doc__
    assert "Inputs:" in doc and "  a: T" in doc and "  b: T" in doc
    assert "Outputs:" in doc and "product: T" in doc
    assert "  transpose_a: bool = false\n" in doc
    assert "(inferred from the inputs)" in doc
    concat = ops.ConcatV2.__doc__
    assert "values: N * T (a list of tensors)" in concat
    assert "N: int >= 2" in concat
    assert "(required)" in ops.Cast.__doc__


# -------------------------------------------------------------- calling


def test_positional_and_keyword_inputs():
    x = np.array([[1, 2], [3, 4]], np.float32)
    y = np.array([[5, 6], [7, 8]], np.float32)
    r1 = ops.MatMul(f32(x), f32(y))
    r2 = ops.MatMul(a=f32(x), b=f32(y))
    r3 = ops.MatMul(f32(x), b=f32(y), transpose_b=True)
    r4 = ops.MatMul(b=f32(y), a=f32(x), transpose_a=True, transpose_b=False)
    np.testing.assert_allclose(r1.numpy(), x @ y)
    np.testing.assert_allclose(r2.numpy(), x @ y)
    np.testing.assert_allclose(r3.numpy(), x @ y.T)
    np.testing.assert_allclose(r4.numpy(), x.T @ y)
    with pytest.raises(TypeError):
        ops.MatMul(f32(x), f32(y), True)  # attrs are keyword-only
    with pytest.raises(TypeError):
        ops.MatMul(f32(x))


def test_python_values_are_converted_with_the_inputs_dtype():
    r = ops.AddV2(1.5, 2.0)
    assert r.dtype == "float32" and float(r) == 3.5
    d = ops.AddV2(constant(np.float64(1.0)), 2)
    assert d.dtype == "float64" and float(d) == 3.0
    r2 = ops.Mul(np.array([1, 2], np.int64), constant(np.int64(3)))
    np.testing.assert_array_equal(r2.numpy(), [3, 6])
    with pytest.raises(TypeError, match="AddV2: input 'y'"):
        ops.AddV2(constant(np.int32(1)), 2.5)


def test_list_inputs_and_inferred_number_attrs():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.ones((1, 3), np.float32)
    c = ops.ConcatV2([f32(a), f32(b)], axis=0)
    np.testing.assert_array_equal(c.numpy(), np.concatenate([a, b]))
    c2 = ops.ConcatV2(values=(f32(a), b, a), axis=constant(np.int32(0)))
    np.testing.assert_array_equal(c2.numpy(), np.concatenate([a, b, a]))
    p = ops.Pack([f32([1, 2]), f32([3, 4]), f32([5, 6])], axis=1)
    np.testing.assert_array_equal(p.numpy(), np.array([[1, 3, 5], [2, 4, 6]], np.float32))
    with pytest.raises(TypeError, match="list of tensors"):
        ops.ConcatV2(f32(a), axis=0)


def test_list_outputs_come_back_as_lists():
    out = ops.IdentityN([f32(1.0), constant(np.int64(7)), constant("s")])
    assert isinstance(out, list) and len(out) == 3
    assert [t.dtype.name for t in out] == ["float32", "int64", "string"]
    assert out[1].numpy() == 7 and out[2].numpy() == b"s"


def test_attr_kinds():
    x = f32([[1.5, -2.5], [3.0, 4.0]])
    # type attr given as a name, a numpy type or a TF_DataType number
    for dst in ("int32", np.int32, 3):
        c = ops.Cast(x, DstT=dst)
        assert c.dtype == "int32"
        np.testing.assert_array_equal(c.numpy(), [[1, -2], [3, 4]])
    s = ops.Sum(x, constant(np.int32(1)), keep_dims=True)
    assert s.shape == (2, 1)
    np.testing.assert_allclose(s.numpy(), [[-1.0], [7.0]])
    e = ops.ExpandDims(x, np.int32(0))
    assert e.shape == (1, 2, 2)
    q = ops.Squeeze(e, squeeze_dims=[0])  # list(int) attr
    assert q.shape == (2, 2)
    r = ops.Range(np.int32(0), np.int32(10), np.int32(3))
    np.testing.assert_array_equal(r.numpy(), [0, 3, 6, 9])
    f = ops.Fill(np.array([2, 3], np.int32), 7.0)
    assert f.shape == (2, 3) and f.dtype == "float32"
    t = ops.Transpose(x, np.array([1, 0], np.int32))
    np.testing.assert_array_equal(t.numpy(), x.numpy().T)
    sh = ops.Shape(x, out_type=np.int64)
    assert sh.dtype == "int64" and sh.numpy().tolist() == [2, 2]


def test_explicit_inferable_attrs_win_over_inputs():
    # An explicit T converts Python values...
    r = ops.AddV2(1, 2, T="float64")
    assert r.dtype == "float64" and float(r) == 3.0
    # ...and a tensor input that disagrees with it is an error, not ignored.
    with pytest.raises(errors.InvalidArgumentError):
        ops.AddV2(f32(1.0), f32(2.0), T="float64")
    with pytest.raises(errors.InvalidArgumentError):
        ops.ConcatV2([f32([1.0]), f32([2.0])], axis=0, N=3)
    c = ops.ConcatV2([f32([1.0]), f32([2.0])], axis=0, N=2, T=np.float32)
    assert c.numpy().tolist() == [1.0, 2.0]


def test_attr_values_are_type_checked():
    x = f32([[1.0]])
    with pytest.raises(TypeError, match="transpose_a' expects a bool"):
        ops.MatMul(x, x, transpose_a=1)
    with pytest.raises(TypeError, match="DstT' expects a dtype"):
        ops.Cast(x, DstT="nonsense")
    with pytest.raises(TypeError, match="squeeze_dims' expects a list of ints"):
        ops.Squeeze(x, squeeze_dims=[0.5])


def test_attr_blobs_are_cached_per_distinct_values():
    x = f32([[1.0, 2.0], [3.0, 4.0]])
    d = ops.MatMul.op_def
    d.blob_cache.clear()
    ops.MatMul(x, x, transpose_b=True)
    ops.MatMul(x, x, transpose_b=True)
    assert len(d.blob_cache) == 1
    ops.MatMul(x, x, transpose_b=False)
    assert len(d.blob_cache) == 2


def test_more_attr_kinds():
    x = f32([[1.0, -2.0], [3.0, 4.0]])
    # tensor attr
    c = ops.Const(value=np.arange(3, dtype=np.int32), dtype=np.int32)
    assert c.numpy().tolist() == [0, 1, 2]
    assert ops.Const(value=np.float32(2.5), dtype="float32").shape == ()
    s = ops.Const(value=[b"ab", b"c"], dtype="string")
    assert s.numpy().tolist() == [b"ab", b"c"]
    # shape attr, with an unknown dimension
    assert ops.EnsureShape(x, shape=(2, None)).shape == (2, 2)
    with pytest.raises(errors.InvalidArgumentError):
        ops.EnsureShape(x, shape=(3, 2))
    with pytest.raises(TypeError, match="expects a shape"):
        ops.EnsureShape(x, shape=2)
    # float attr, string attr, list(float) attr
    np.testing.assert_allclose(ops.LeakyRelu(x, alpha=0.5).numpy(), [[1.0, -1.0], [3.0, 4.0]])
    m = ops.MirrorPad(x, np.array([[1, 1], [0, 0]], np.int32), mode="REFLECT")
    np.testing.assert_array_equal(m.numpy(), np.pad(x.numpy(), ((1, 1), (0, 0)), "reflect"))
    with pytest.raises(errors.InvalidArgumentError):
        ops.MirrorPad(x, np.array([[1, 1], [0, 0]], np.int32), mode="WRAP")
    b = ops.Bucketize(x, boundaries=[0.0, 2.0])
    assert b.numpy().tolist() == [[1, 0], [2, 2]]


def test_multiple_and_list_outputs():
    r = ops.BroadcastGradientArgs(np.array([2, 1], np.int32), np.array([3], np.int32))
    assert type(r).__name__ == "BroadcastGradientArgs"
    assert r._fields == ("r0", "r1")
    assert r.r0.numpy().tolist() == [1] and r.r1.numpy().tolist() == [0]
    x = f32([[1.0, 2.0], [3.0, 4.0]])
    parts = ops.Split(np.int32(0), x, num_split=2)
    assert isinstance(parts, list) and [p.shape for p in parts] == [(1, 2), (1, 2)]
    rows = ops.Unpack(x, num=2)
    assert [p.numpy().tolist() for p in rows] == [[1.0, 2.0], [3.0, 4.0]]
    total = ops.AddN([x, x, x])
    np.testing.assert_array_equal(total.numpy(), 3 * x.numpy())


def test_bad_dtype_raises_invalid_argument():
    with pytest.raises(errors.InvalidArgumentError):
        ops.AddV2(constant(True), constant(False))  # bool is not allowed
    with pytest.raises(errors.InvalidArgumentError):
        ops.AddV2(f32(1.0), constant(np.int32(1)))  # T mismatch
    with pytest.raises(errors.InvalidArgumentError):
        ops.MatMul(f32([1.0, 2.0]), f32([1.0, 2.0]))  # rank 1
    with pytest.raises(errors.OpError):
        ops.Cast(f32(1.0), DstT="string")


def test_device_keyword():
    with Context(num_cpu_devices=2):
        a, b = f32(1.0), f32(2.0)
        r = ops.AddV2(a, b, device="CPU:1")
        assert r.device.endswith("/device:CPU:1")
        assert float(r) == 3.0
        assert ops.AddV2(a, b, device="/cpu:0").device.endswith("/device:CPU:0")
        with pytest.raises(errors.OpError):
            ops.AddV2(a, b, device="CPU:9")
    with Context(), pytest.raises(errors.OpError):
        ops.AddV2(f32(1.0), f32(1.0), device="GPU:0")
    # The default context has TF's soft placement: the op falls back to the CPU.
    assert ops.AddV2(f32(1.0), f32(1.0), device="GPU:0").device.endswith("/device:CPU:0")
    assert float(ops.AddV2(f32(1.0), f32(1.0), name="ignored")) == 2.0


def test_closed_input_is_a_value_error():
    x = f32(1.0)
    y = f32(2.0)
    y.close()
    with pytest.raises(ValueError, match="closed"):
        ops.AddV2(x, y)
    with pytest.raises(ValueError, match="closed"):
        ops.ConcatV2([x, y], axis=0)


def test_results_are_eager_tensors_in_the_current_context():
    with Context() as ctx:
        r = ops.Mul(f32(2.0), f32(4.0))
        assert isinstance(r, EagerTensor)
        assert r.context is ctx
        assert float(r) == 8.0


def test_ops_from_several_threads():
    errors_seen: list[BaseException] = []

    def work(seed: int) -> None:
        try:
            x = f32(np.full((4,), seed))
            for _ in range(200):
                x = ops.AddV2(x, 1.0)
            assert x.numpy().tolist() == [seed + 200.0] * 4
        except BaseException as exc:  # pragma: no cover - reported below
            errors_seen.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors_seen


def test_all_core_unary_math_ops_match_numpy():
    x = np.array([0.25, 1.0, 2.5], np.float32)
    refs = {
        "Neg": np.negative,
        "Abs": np.abs,
        "Square": np.square,
        "Sqrt": np.sqrt,
        "Rsqrt": lambda v: 1 / np.sqrt(v),
        "Exp": np.exp,
        "Log": np.log,
        "Tanh": np.tanh,
        "Sigmoid": lambda v: 1 / (1 + np.exp(-v)),
        "Relu": lambda v: np.maximum(v, 0),
    }
    for name, ref in refs.items():
        np.testing.assert_allclose(getattr(ops, name)(f32(x)).numpy(), ref(x), rtol=1e-5)


# ------------------------------------------------------------- C glue


def _run_blob(blob: bytes) -> tuple[int, int, str]:
    """Runs Identity with an attribute blob; (outputs, code, message)."""
    x = f32(1.0)
    outs = ffi.new("TFE_TensorHandle*[]", 1)
    ins = ffi.new("TFE_TensorHandle*[]", [x.handle])
    n = lib.tfe_py_fast_execute(
        default_context().ptr, b"Identity", ffi.NULL, blob, len(blob), ins, ffi.NULL, 1, outs, 1
    )
    if n >= 0:
        for i in range(n):
            lib.TFE_DeleteTensorHandle(outs[i])
        return n, 0, ""
    s = lib.tfe_py_take_error()
    try:
        return n, lib.TF_GetCode(s), ffi.string(lib.TF_Message(s)).decode()
    finally:
        lib.TF_DeleteStatus(s)


def _record(kind: bytes, name: bytes, payload: bytes) -> bytes:
    return kind + struct.pack("=H", len(name)) + name + payload


GOOD_PAYLOADS = {
    b"b": struct.pack("=B", 1),
    b"i": struct.pack("=q", 5),
    b"f": struct.pack("=d", 0.5),
    b"t": struct.pack("=i", 1),
    b"s": struct.pack("=I", 3) + b"abc",
    b"n": struct.pack("=I", 2) + b"fn",
    b"S": struct.pack("=i2q", 2, 3, -1),
    b"B": struct.pack("=I2B", 2, 1, 0),
    b"I": struct.pack("=I2q", 2, 1, 2),
    b"F": struct.pack("=I2d", 2, 1.0, 2.0),
    b"T": struct.pack("=I2i", 2, 1, 3),
    b"L": struct.pack("=I", 2) + struct.pack("=I", 1) + b"a" + struct.pack("=I", 0),
    b"P": struct.pack("=I", 2) + struct.pack("=i", -1) + struct.pack("=iq", 1, 4),
}


def test_glue_accepts_well_formed_blobs_for_unknown_attrs():
    # Unknown attrs are ignored by eager execution (as TF does).
    blob = b"".join(_record(k, b"extra_" + k, p) for k, p in GOOD_PAYLOADS.items())
    assert _run_blob(blob)[:2] == (1, 0)


def test_glue_rejects_malformed_blobs_without_crashing():
    code = int(lib.TF_INVALID_ARGUMENT)
    cases = [b"\x00", b"b", b"b\x00\x00", b"b\x05\x00ab", b"?\x01\x00a\x00"]
    for kind, payload in GOOD_PAYLOADS.items():
        for cut in range(len(payload)):  # every truncation of every kind
            cases.append(_record(kind, b"a", payload[:cut]))
    cases.append(_record(b"I", b"a", struct.pack("=I", 0xFFFFFFFF)))  # absurd count
    cases.append(_record(b"L", b"a", struct.pack("=II", 1, 0x7FFFFFFF)))
    cases.append(_record(b"S", b"a", struct.pack("=i", -5)))
    cases.append(_record(b"X", b"a", struct.pack("=Q", 0)))  # NULL tensor
    for blob in cases:
        n, got, msg = _run_blob(blob)
        assert (n, got) == (-1, code), (blob, msg)
        assert "Identity" in msg


def test_glue_survives_random_well_framed_blobs():
    rng = np.random.default_rng(7)
    kinds = list(GOOD_PAYLOADS)
    for _ in range(300):
        parts = []
        for _ in range(int(rng.integers(1, 4))):
            k = kinds[int(rng.integers(len(kinds)))]
            parts.append(_record(k, b"a", GOOD_PAYLOADS[k]))
        blob = b"".join(parts)
        cut = int(rng.integers(0, len(blob) + 1))
        n, code, _ = _run_blob(blob[:cut])
        assert n == 1 or code == lib.TF_INVALID_ARGUMENT


# ---------------------------------------------------------------- parser


def test_parser_handles_the_grammar():
    d = _opgen.parse_op_def(
        "Fake",
        [
            "in: x: T",
            "in: values: N * T",
            "in: flags: Tlist",
            "in: ref: Ref(int32)",
            "out: y: T",
            "out: parts: num_split * float",
            "attr: T: {float, double} = DT_FLOAT",
            "attr: N: int >= 1",
            "attr: Tlist: list(type) >= 0",
            "attr: num_split: int = 2",
            "attr: mode: {'REFLECT', 'SYMMETRIC'} = 'REFLECT'",
            "attr: lambda: float = 1e-05",
            "attr: dims: list(int) = [1, -2]",
            "attr: shape: shape = [2, 3]",
            'attr: name: string = "a=b"',
            "stateful",
        ],
    )
    assert [a.py_name for a in d.inputs] == ["x", "values", "flags", "ref"]
    x, values, flags, ref = d.inputs
    assert x.type_attr == "T" and not x.is_list
    assert values.number_attr == "N" and values.type_attr == "T" and values.is_list
    assert flags.type_list_attr == "Tlist" and flags.is_list
    assert ref.is_ref and ref.fixed_type == 3
    a = d.attr_map
    assert a["T"].base == "type" and a["T"].allowed == ("float", "double")
    assert a["T"].default == 1 and a["T"].inferred
    assert a["N"].minimum == 1 and a["N"].inferred and not a["N"].has_default
    assert a["Tlist"].is_list and a["Tlist"].inferred
    assert a["mode"].base == "string" and a["mode"].allowed == ("REFLECT", "SYMMETRIC")
    assert a["mode"].default == "REFLECT"
    assert a["lambda"].py_name == "lambda_" and a["lambda"].default == 1e-05
    assert a["dims"].default == [1, -2]
    assert a["shape"].default == (2, 3)
    assert a["name"].py_name == "name_" and a["name"].default == "a=b"
    assert d.is_stateful and not d.is_commutative
    # two outputs: a namedtuple, the list output grouped
    out = _opgen._pack(d, ["y", "p0", "p1"], _opgen._output_lengths(d, {}, [0, [], [], 0]))
    assert out == ("y", ["p0", "p1"]) and out.y == "y" and out.parts == ["p0", "p1"]
    fn = _opgen._generate(d)
    params = inspect.signature(fn).parameters
    assert list(params) == [
        "x", "values", "flags", "ref", "T", "N", "Tlist", "num_split", "mode", "lambda_",
        "dims", "shape", "name_", "name", "device",
    ]  # fmt: skip
    assert "namedtuple (y, parts)" in fn.__doc__
