"""tfe_py dtypes as TensorFlow's: constants, DType attributes, as_dtype,
comparisons, printing, and the optional ml_dtypes path (expected values
recorded from TF 2.21)."""

from __future__ import annotations

import builtins
import sys
from typing import Any

import numpy as np
import pytest

import tfe_py
from tfe_py import dtypes


def test_constants_everywhere() -> None:
    for name in (
        "float16",
        "float32",
        "float64",
        "bfloat16",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "bool",
        "string",
        "complex64",
        "complex128",
        "qint8",
        "quint8",
        "qint16",
        "quint16",
        "qint32",
        "resource",
        "variant",
        "half",
        "double",
    ):
        assert getattr(tfe_py, name) is getattr(tfe_py.dtypes, name)
        assert isinstance(getattr(tfe_py, name), tfe_py.DType)
    assert tfe_py.half is tfe_py.float16
    assert tfe_py.double is tfe_py.float64
    # tf.complex is tf.math.complex (a function), not a dtype alias
    assert tfe_py.dtypes.complex is tfe_py.complex64
    assert callable(tfe_py.complex) and not isinstance(tfe_py.complex, tfe_py.DType)
    assert tfe_py.dtypes.DType is tfe_py.DType


def test_printing() -> None:
    assert repr(tfe_py.float32) == "tf.float32"
    assert str(tfe_py.float32) == "<dtype: 'float32'>"
    assert repr(tfe_py.dtypes.bool) == "tf.bool"


def test_comparisons() -> None:
    f = tfe_py.float32
    assert f == np.float32
    assert f == np.dtype("float32")
    assert f == "float32"
    assert f == "float"
    assert f == 1  # its TF_DataType number
    assert f != tfe_py.float64
    assert f != "int32"
    assert not (f == "no such dtype")
    assert not (f == None)  # noqa: E711
    assert f != object()
    assert hash(f) == hash(tfe_py.as_dtype("float32"))
    assert {tfe_py.float32: 1}[tfe_py.as_dtype(np.float32)] == 1


def test_as_dtype() -> None:
    assert tfe_py.as_dtype("float") is tfe_py.float32
    assert tfe_py.as_dtype(np.int64) is tfe_py.int64
    assert tfe_py.as_dtype(1) is tfe_py.float32
    assert tfe_py.as_dtype("DT_INT32") is tfe_py.int32
    assert tfe_py.dtypes.as_dtype(np.dtype("U")) is tfe_py.string
    assert tfe_py.as_dtype(tfe_py.qint8.as_numpy_dtype) is tfe_py.qint8
    for bad in ("foo", 12345, True, 1.5):
        with pytest.raises(TypeError, match="to a TensorFlow DType"):
            tfe_py.as_dtype(bad)
    assert str(_err(lambda: tfe_py.as_dtype("foo"))) == (
        "Cannot convert the argument `type_value`: 'foo' to a TensorFlow DType."
    )


def _err(fn: Any) -> BaseException:
    try:
        fn()
    except BaseException as exc:
        return exc
    raise AssertionError("no exception")


# (dtype, is_floating, is_integer, is_complex, is_bool, is_unsigned,
#  is_quantized, size, enum, real_dtype) as TF 2.21 reports them.
_ATTRS = [
    ("float32", True, False, False, False, False, False, 4, 1, "float32"),
    ("int8", False, True, False, False, False, False, 1, 6, "int8"),
    ("uint8", False, True, False, False, True, False, 1, 4, "uint8"),
    ("bool", False, False, False, True, False, False, 1, 10, "bool"),
    ("bfloat16", True, False, False, False, False, False, 2, 14, "bfloat16"),
    ("complex64", False, False, True, False, False, False, 8, 8, "float32"),
    ("complex128", False, False, True, False, False, False, 16, 18, "float64"),
    ("qint8", False, False, False, False, False, True, 1, 11, "qint8"),
    ("string", False, False, False, False, False, False, 0, 7, "string"),
    ("float8_e5m2", True, False, False, False, False, False, 1, 24, "float8_e5m2"),
    ("int4", False, True, False, False, False, False, 1, 29, "int4"),
]


@pytest.mark.parametrize("row", _ATTRS, ids=[r[0] for r in _ATTRS])
def test_attributes(row: tuple[Any, ...]) -> None:
    name, fl, it, cx, bo, un, qu, size, enum, real = row
    d = tfe_py.as_dtype(name)
    assert d.name == name
    assert (d.is_floating, d.is_integer, d.is_complex, d.is_bool) == (fl, it, cx, bo)
    assert (d.is_unsigned, d.is_quantized) == (un, qu)
    assert d.size == size
    assert d.as_datatype_enum == enum and type(d.as_datatype_enum) is int
    assert d.base_dtype is d
    assert d.real_dtype == real


def test_min_max() -> None:
    assert tfe_py.int8.min == -128 and tfe_py.int8.max == 127
    assert tfe_py.uint8.min == 0 and tfe_py.uint8.max == 255
    assert tfe_py.int4.min == -8 and tfe_py.int4.max == 7
    assert tfe_py.float32.max == np.float32(3.4028235e38)
    assert isinstance(tfe_py.float32.min, np.float32)
    for d in (tfe_py.bool, tfe_py.complex64, tfe_py.string):
        with pytest.raises(TypeError, match="Cannot find minimum value"):
            _ = d.min
    with pytest.raises(TypeError, match="quantized type"):
        _ = tfe_py.qint8.max


def test_as_numpy_dtype() -> None:
    assert tfe_py.float32.as_numpy_dtype is np.float32
    assert tfe_py.bool.as_numpy_dtype is np.bool_
    assert tfe_py.string.as_numpy_dtype is object
    assert tfe_py.qint8.as_numpy_dtype == np.dtype([("qint8", "i1")])


def _hide_ml_dtypes(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def fake_import(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "ml_dtypes" or name.startswith("ml_dtypes."):
            raise ImportError("No module named 'ml_dtypes' (hidden by the test)")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "ml_dtypes", raising=False)
    monkeypatch.setattr(builtins, "__import__", fake_import)


def test_bfloat16_without_ml_dtypes(monkeypatch: pytest.MonkeyPatch) -> None:
    t = tfe_py.ops.Cast(tfe_py.constant([1.5, 2.0]), DstT=tfe_py.bfloat16)
    _hide_ml_dtypes(monkeypatch)
    with pytest.raises(ImportError, match="ml_dtypes"):
        t.numpy()
    with pytest.raises(ImportError, match="ml_dtypes"):
        _ = tfe_py.bfloat16.as_numpy_dtype
    with pytest.raises(ImportError, match="ml_dtypes"):
        dtypes.to_numpy_dtype(int(tfe_py.float8_e5m2))
    assert "numpy=<unprintable>" in repr(t)
    # A round trip through float32 still works without it.
    back = tfe_py.ops.Cast(t, DstT=tfe_py.float32)
    assert back.numpy().tolist() == [1.5, 2.0]


def test_bfloat16_with_ml_dtypes() -> None:
    ml_dtypes = pytest.importorskip("ml_dtypes")
    t = tfe_py.ops.Cast(tfe_py.constant([1.5, 2.0]), DstT=tfe_py.bfloat16)
    arr = t.numpy()
    assert arr.dtype == np.dtype(ml_dtypes.bfloat16)
    assert arr.astype(np.float32).tolist() == [1.5, 2.0]
    assert tfe_py.bfloat16.as_numpy_dtype is ml_dtypes.bfloat16
    assert tfe_py.as_dtype(ml_dtypes.bfloat16) is tfe_py.bfloat16
    assert repr(t).startswith("<tf.Tensor: shape=(2,), dtype=bfloat16, numpy=array([1.5, 2")
    assert float(tfe_py.bfloat16.max) == pytest.approx(3.38953e38, rel=1e-5)
