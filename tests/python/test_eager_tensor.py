"""tfe_py.eager: EagerTensor, constants, numpy interop, operators, freeing."""

from __future__ import annotations

import gc
import operator

import numpy as np
import pytest

from tfe_py import dtypes, errors, ops
from tfe_py._ffi import ffi, lib
from tfe_py.context import Context, default_context
from tfe_py.eager import DType, EagerTensor, as_dtype, constant, convert_to_tensor

NUMERIC = [
    np.float16,
    np.float32,
    np.float64,
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    np.complex64,
    np.complex128,
]


@pytest.fixture(autouse=True)
def _default_exists():
    default_context()


# ------------------------------------------------------------- constants


@pytest.mark.parametrize("np_type", [*NUMERIC, np.bool_])
def test_constant_round_trips_every_numpy_dtype(np_type):
    rng = np.random.default_rng(0)
    if np_type is np.bool_:
        value = rng.integers(0, 2, (3, 4)).astype(np.bool_)
    elif np.issubdtype(np_type, np.complexfloating):
        value = (rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))).astype(np_type)
    else:
        value = rng.integers(0, 100, (3, 4)).astype(np_type)
    t = constant(value)
    assert t.dtype == dtypes.from_numpy_dtype(value.dtype)
    assert t.dtype == np_type
    assert t.shape == (3, 4)
    out = t.numpy()
    assert out.dtype == value.dtype
    np.testing.assert_array_equal(out, value)
    # and a scalar of the same dtype
    s = constant(value.reshape(-1)[0])
    assert s.shape == ()
    assert s.numpy() == value.reshape(-1)[0]


def test_python_values_get_tf_default_dtypes():
    assert constant(1.5).dtype == "float32"
    assert constant(3).dtype == "int32"
    assert constant(2**40).dtype == "int64"
    assert constant(True).dtype == "bool"
    assert constant(1 + 2j).dtype == "complex128"
    assert constant([[1, 2], [3, 4]]).dtype == "int32"
    assert constant([1.0, 2.0]).dtype == "float32"
    assert constant(np.float64(1.0)).dtype == "float64"  # numpy keeps its dtype
    assert constant(np.arange(3)).dtype == "int64"


def test_explicit_dtype_converts_like_tf():
    assert constant(3, dtype="float32").numpy() == np.float32(3)
    assert constant([1, 2], dtype=np.float64).dtype == np.float64
    assert constant(2.5, dtype=lib.TF_DOUBLE).dtype == "float64"
    assert constant(1.5, dtype="DT_HALF").dtype == np.float16
    with pytest.raises(TypeError, match=r"Cannot convert 1\.5 to EagerTensor of dtype int32"):
        constant(1.5, dtype="int32")
    # as TF: Python ints wrap into a narrower integer dtype, bools are 0/1
    # for numbers, numpy values are cast
    assert constant(300, dtype=np.uint8).numpy() == 44
    assert constant(-1, dtype=np.uint8).numpy() == 255
    assert constant(True, dtype="int32").numpy() == 1
    assert constant(np.array([1.7, -1.7]), dtype="int32").numpy().tolist() == [1, -1]
    with pytest.raises(TypeError):
        constant(True, dtype="complex64")
    with pytest.raises(TypeError):
        constant(1, dtype="bool")
    with pytest.raises(TypeError, match="to a TensorFlow DType"):
        constant(1, dtype="float31")


def test_empty_and_high_rank_tensors():
    t = constant(np.zeros((0, 3), np.float32))
    assert t.shape == (0, 3) and t.size == 0
    assert t.numpy().shape == (0, 3)
    big = np.arange(2 * 3 * 4 * 5, dtype=np.int32).reshape(2, 3, 4, 5)
    np.testing.assert_array_equal(constant(big).numpy(), big)


def test_non_contiguous_input_is_copied_correctly():
    base = np.arange(20, dtype=np.float64).reshape(4, 5)
    view = base[:, ::2].T
    np.testing.assert_array_equal(constant(view).numpy(), view)


def test_string_tensors_round_trip_as_bytes():
    t = constant([[b"a", "b\u00e9"], [b"", b"x" * 100]])
    assert t.dtype == "string"
    assert t.shape == (2, 2)
    out = t.numpy()
    assert out.dtype == object
    assert out.tolist() == [[b"a", "b\u00e9".encode()], [b"", b"x" * 100]]
    s = constant("hello")
    assert s.shape == () and s.numpy() == b"hello"
    u = constant(np.array(["p", "qq"]))
    assert u.numpy().tolist() == [b"p", b"qq"]
    with pytest.raises(TypeError):
        constant(["a", 1])


def test_dtype_helpers():
    assert as_dtype("float") == lib.TF_FLOAT
    assert as_dtype(np.int64) == lib.TF_INT64
    assert as_dtype("TF_BOOL") == lib.TF_BOOL
    d = DType(lib.TF_FLOAT)
    assert d is DType(int(lib.TF_FLOAT))
    assert d == np.float32 and d == "float32" and d == lib.TF_FLOAT and d != "int32"
    assert repr(d) == "tf.float32"  # as TensorFlow prints it
    assert d.as_numpy_dtype == np.float32
    with pytest.raises(ValueError):
        DType(999)


# ---------------------------------------------------------------- numpy


def test_numpy_is_a_zero_copy_view_of_the_resolved_tensor():
    t = constant(np.arange(12, dtype=np.float32).reshape(3, 4))
    a = t.numpy()
    b = np.asarray(t)
    assert np.shares_memory(a, b)
    assert not a.flags.writeable
    with pytest.raises(ValueError):
        a[0, 0] = 5
    # The view points at the handle's own buffer: resolving again (a new
    # TF_Tensor sharing that buffer) gives the same data pointer.
    s = lib.TF_NewStatus()
    try:
        resolved = lib.TFE_TensorHandleResolve(t.handle, s)
        assert lib.TF_GetCode(s) == lib.TF_OK
        addr = int(ffi.cast("uintptr_t", lib.TF_TensorData(resolved)))
        lib.TF_DeleteTensor(resolved)
    finally:
        lib.TF_DeleteStatus(s)
    assert a.__array_interface__["data"][0] == addr


def test_numpy_view_outlives_the_tensor(live_count):
    before = live_count("TENSOR")
    t = constant(np.arange(5, dtype=np.int64))
    arr = t.numpy()
    t.close()
    assert t.closed
    np.testing.assert_array_equal(arr, np.arange(5))
    assert live_count("TENSOR") == before + 1  # the view's TF_Tensor
    del arr
    gc.collect()
    assert live_count("TENSOR") == before


def test_array_protocol_dtype_and_copy():
    t = constant(np.arange(3, dtype=np.int32))
    f = np.asarray(t, dtype=np.float64)
    assert f.dtype == np.float64
    c = np.array(t, copy=True)
    assert c.flags.writeable and not np.shares_memory(c, t.numpy())
    with pytest.raises(ValueError):
        t.__array__(np.float64, copy=False)


def test_metadata_and_repr():
    t = constant(np.ones((2, 3), np.float32))
    assert t.shape == (2, 3) and t.ndim == 2 and t.size == 6 and len(t) == 2
    assert t.device.endswith("/device:CPU:0")
    assert t.backing_device.endswith("/device:CPU:0")
    assert isinstance(t.dtype, DType)
    r = repr(t)
    assert r.startswith("<tf.Tensor: shape=(2, 3), dtype=float32, numpy=")
    assert "float32" in str(t)
    with pytest.raises(TypeError, match="len"):
        len(constant(1.0))
    t.close()
    assert "closed" in repr(t)
    with pytest.raises(ValueError, match="closed"):
        t.numpy()
    with pytest.raises(ValueError, match="closed"):
        _ = t.shape


def test_scalar_conversions():
    assert float(constant(2.5)) == 2.5
    assert int(constant(7)) == 7
    assert bool(constant(True)) is True and bool(constant(0.0)) is False
    assert [10, 20, 30][constant(1)] == 20
    assert complex(constant(1 + 2j)) == 1 + 2j
    with pytest.raises(ValueError):
        bool(constant([1, 2]))
    with pytest.raises(TypeError):
        float(constant([1.0, 2.0]))
    with pytest.raises(TypeError):
        [1][constant(0.0)]


def test_eager_tensor_constructor_and_convert():
    t = EagerTensor([1.0, 2.0])
    assert t.dtype == "float32"
    assert convert_to_tensor(t) is t
    assert convert_to_tensor(3).dtype == "int32"
    s = lib.TF_NewStatus()
    try:
        h = lib.TFE_TensorHandleCopySharingTensor(t.handle, s)
        assert lib.TF_GetCode(s) == lib.TF_OK
    finally:
        lib.TF_DeleteStatus(s)
    shared = EagerTensor.from_handle(h)
    assert shared.numpy().tolist() == [1.0, 2.0]
    assert np.shares_memory(shared.numpy(), t.numpy())


def test_tensors_are_unhashable():
    with pytest.raises(TypeError):
        hash(constant(1.0))


# ------------------------------------------------------------- operators

BINARY = [
    (operator.add, np.add),
    (operator.sub, np.subtract),
    (operator.mul, np.multiply),
    (operator.truediv, np.true_divide),
    (operator.floordiv, np.floor_divide),
    (operator.mod, np.mod),
    (operator.pow, np.power),
    (operator.lt, np.less),
    (operator.le, np.less_equal),
    (operator.gt, np.greater),
    (operator.ge, np.greater_equal),
    (operator.eq, np.equal),
    (operator.ne, np.not_equal),
]


@pytest.mark.parametrize(("op", "ref"), BINARY, ids=lambda f: getattr(f, "__name__", "?"))
def test_binary_operators_match_numpy(op, ref):
    rng = np.random.default_rng(1)
    x = rng.uniform(1, 4, (3, 4)).astype(np.float32)
    y = rng.uniform(1, 4, (4,)).astype(np.float32)  # broadcasts
    y[0] = x[0, 0]  # so == has a true element
    tx, ty = constant(x), constant(y)
    got = op(tx, ty)
    assert isinstance(got, EagerTensor)
    np.testing.assert_allclose(got.numpy(), ref(x, y), rtol=1e-5)
    # python scalar on either side, converted to the tensor's dtype
    np.testing.assert_allclose(op(tx, 2.0).numpy(), ref(x, np.float32(2.0)), rtol=1e-5)
    np.testing.assert_allclose(op(2.0, tx).numpy(), ref(np.float32(2.0), x), rtol=1e-5)
    # numpy array on the left defers to the tensor's reflected operator
    assert isinstance(op(y, tx), EagerTensor)
    np.testing.assert_allclose(op(y, tx).numpy(), ref(y, x), rtol=1e-5)


def test_integer_operators():
    x = np.array([7, -7, 9, 1], np.int32)
    y = np.array([2, 2, -4, 3], np.int32)
    tx, ty = constant(x), constant(y)
    np.testing.assert_array_equal((tx // ty).numpy(), x // y)
    np.testing.assert_array_equal((tx % ty).numpy(), x % y)
    q = tx / ty  # true division of integers gives float64, as in TF
    assert q.dtype == "float64"
    np.testing.assert_allclose(q.numpy(), x / y)
    assert (tx + 1).dtype == "int32"
    # as in TF: 1.5 has no int32 form, so it converts on its own and AddV2
    # refuses the float32 operand
    with pytest.raises(errors.InvalidArgumentError, match="expected to be a int32"):
        _ = tx + 1.5
    small = constant(np.array([1, 2], np.int8))
    assert (small / small).dtype == "float32"


def test_unary_operators_and_matmul():
    x = np.array([[1.0, -2.0], [3.0, -4.0]], np.float32)
    t = constant(x)
    np.testing.assert_array_equal((-t).numpy(), -x)
    np.testing.assert_array_equal(abs(t).numpy(), np.abs(x))
    assert (+t) is t
    np.testing.assert_allclose((t @ t).numpy(), x @ x)
    np.testing.assert_allclose((x @ t).numpy(), x @ x)


def test_logical_operators_on_bool_tensors():
    a = constant(np.array([True, True, False]))
    b = constant(np.array([True, False, False]))
    np.testing.assert_array_equal((a & b).numpy(), [True, False, False])
    np.testing.assert_array_equal((a | b).numpy(), [True, True, False])
    np.testing.assert_array_equal((~a).numpy(), [False, False, True])
    with pytest.raises(errors.InvalidArgumentError):  # Invert has no float kernel (TF)
        _ = ~constant(1.0)


def test_equality_edge_cases():
    t = constant(np.array([1.0, 2.0], np.float32))
    assert (t == None) is False  # noqa: E711 - testing the operator itself
    assert (t != None) is True  # noqa: E711
    # shapes that do not broadcast compare unequal instead of failing (TF)
    r = t == constant(np.array([1.0, 2.0, 3.0], np.float32))
    assert r.shape == () and not bool(r)
    with pytest.raises(TypeError):  # no float32 form of "abc", as in TF
        _ = t == "abc"


def test_mismatched_dtypes_raise_invalid_argument():
    with pytest.raises(errors.InvalidArgumentError):
        _ = constant(np.float32(1)) + constant(np.int32(1))


# -------------------------------------------------------------- freeing


def _counts(live_count):
    return {k: live_count(k) for k in ("TENSOR_HANDLE", "OP", "CONTEXT", "TENSOR")}


def test_with_blocks_free_every_handle(live_count):
    before = _counts(live_count)
    with Context() as ctx:
        with constant(np.ones(3, np.float32)) as a, constant(np.float32(2)) as b:
            with a * b + 1.0 as c:
                np.testing.assert_array_equal(c.numpy(), [3, 3, 3])
                assert live_count("TENSOR_HANDLE") >= before["TENSOR_HANDLE"] + 3
            assert c.closed
        assert a.closed and b.closed
        assert ctx.devices()
    del c  # drop the numpy view's owner too
    assert _counts(live_count) == before


def test_close_frees_at_once(live_count):
    before = live_count("TENSOR_HANDLE")
    t = constant(np.float32(1.0))
    u = ops.AddV2(t, t)
    assert live_count("TENSOR_HANDLE") == before + 2
    u.close()
    t.close()
    t.close()
    assert live_count("TENSOR_HANDLE") == before
    assert live_count("OP") == 0


def test_refcount_drop_frees_without_gc(live_count):
    before = live_count("TENSOR_HANDLE")
    gc.disable()
    try:
        for _ in range(50):
            x = constant(np.float32(2.0))
            y = x * x + x
            del x, y
        assert live_count("TENSOR_HANDLE") == before
    finally:
        gc.enable()


def test_gc_fallback_frees_cyclic_garbage(live_count):
    before = live_count("TENSOR_HANDLE")
    t = constant(np.arange(4, dtype=np.float32))
    holder = [t, t + t]
    holder.append(holder)  # a cycle: only the collector can free it
    del t, holder
    gc.collect()
    assert live_count("TENSOR_HANDLE") == before


def test_tensor_owned_context_freed_last(live_count):
    before = _counts(live_count)
    ctx = Context()
    with ctx.as_default():
        x = constant(np.float32(3.0)) * 2.0
    cycle = [ctx, x]
    cycle.append(cycle)
    del ctx, x, cycle
    gc.collect()
    assert _counts(live_count) == before
