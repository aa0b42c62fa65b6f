"""TF_DataType values: their names and their numpy equivalents.

A dtype is represented by its plain TF_DataType number (``int``), as the C
API passes it. The numbers are read from the compiled headers (``lib.TF_FLOAT``
and so on), never typed here. Names follow ``tf.dtypes`` (``float32``,
``float16`` for TF_HALF, ...).
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
import numpy.typing as npt

from tfe_py import errors
from tfe_py._ffi import lib

__all__ = [
    "ALL_DTYPES",
    "NUMPY_DTYPES",
    "enum_name",
    "from_name",
    "from_numpy_dtype",
    "is_numpy_compatible",
    "name",
    "native_array",
    "size",
    "to_numpy_dtype",
]

# (C enum name, tf.dtypes name, numpy dtype or None), in the enum's order.
# TF_COMPLEX, an old alias of TF_COMPLEX64, is left out on purpose.
_TABLE: tuple[tuple[str, str, str | None], ...] = (
    ("TF_FLOAT", "float32", "float32"),
    ("TF_DOUBLE", "float64", "float64"),
    ("TF_INT32", "int32", "int32"),
    ("TF_UINT8", "uint8", "uint8"),
    ("TF_INT16", "int16", "int16"),
    ("TF_INT8", "int8", "int8"),
    ("TF_STRING", "string", None),
    ("TF_COMPLEX64", "complex64", "complex64"),
    ("TF_INT64", "int64", "int64"),
    ("TF_BOOL", "bool", "bool"),
    ("TF_QINT8", "qint8", None),
    ("TF_QUINT8", "quint8", None),
    ("TF_QINT32", "qint32", None),
    ("TF_BFLOAT16", "bfloat16", None),
    ("TF_QINT16", "qint16", None),
    ("TF_QUINT16", "quint16", None),
    ("TF_UINT16", "uint16", "uint16"),
    ("TF_COMPLEX128", "complex128", "complex128"),
    ("TF_HALF", "float16", "float16"),
    ("TF_RESOURCE", "resource", None),
    ("TF_VARIANT", "variant", None),
    ("TF_UINT32", "uint32", "uint32"),
    ("TF_UINT64", "uint64", "uint64"),
    ("TF_FLOAT8_E5M2", "float8_e5m2", None),
    ("TF_FLOAT8_E4M3FN", "float8_e4m3fn", None),
    ("TF_FLOAT8_E4M3FNUZ", "float8_e4m3fnuz", None),
    ("TF_FLOAT8_E4M3B11FNUZ", "float8_e4m3b11fnuz", None),
    ("TF_FLOAT8_E5M2FNUZ", "float8_e5m2fnuz", None),
    ("TF_INT4", "int4", None),
    ("TF_UINT4", "uint4", None),
    ("TF_INT2", "int2", None),
    ("TF_UINT2", "uint2", None),
    ("TF_FLOAT4_E2M1FN", "float4_e2m1fn", None),
)

_ENUM_NAMES: dict[int, str] = {int(getattr(lib, c)): c for c, _, _ in _TABLE}
_NAMES: dict[int, str] = {int(getattr(lib, c)): n for c, n, _ in _TABLE}
_BY_NAME: dict[str, int] = {n: v for v, n in _NAMES.items()}
_TO_NUMPY: dict[int, np.dtype] = {
    int(getattr(lib, c)): np.dtype(npname) for c, _, npname in _TABLE if npname is not None
}
_FROM_NUMPY: dict[np.dtype, int] = {dt: v for v, dt in _TO_NUMPY.items()}

#: Every TF_DataType value, in the enum's order.
ALL_DTYPES: tuple[int, ...] = tuple(_NAMES)
#: TF_DataType -> numpy dtype, for the types numpy can hold.
NUMPY_DTYPES: MappingProxyType[int, np.dtype] = MappingProxyType(_TO_NUMPY)


def _known(tf_dtype: int) -> int:
    value = int(tf_dtype)
    if value not in _NAMES:
        raise ValueError(f"unknown TF_DataType {tf_dtype!r}")
    return value


def name(tf_dtype: int) -> str:
    """tf.dtypes name of a TF_DataType, e.g. ``"float32"`` for TF_FLOAT."""
    return _NAMES[_known(tf_dtype)]


def enum_name(tf_dtype: int) -> str:
    """C enumerator name of a TF_DataType, e.g. ``"TF_FLOAT"``."""
    return _ENUM_NAMES[_known(tf_dtype)]


def from_name(dtype_name: str) -> int:
    """TF_DataType for a tf.dtypes name (``"float32"``) or enumerator (``"TF_FLOAT"``)."""
    if dtype_name in _BY_NAME:
        return _BY_NAME[dtype_name]
    for value, enum in _ENUM_NAMES.items():
        if enum == dtype_name:
            return value
    raise ValueError(f"unknown dtype name {dtype_name!r}")


def size(tf_dtype: int) -> int:
    """Bytes per element according to the C core (TF_DataTypeSize); 0 if variable."""
    return int(lib.TF_DataTypeSize(_known(tf_dtype)))


def is_numpy_compatible(tf_dtype: int) -> bool:
    """True when numpy has a dtype with the same element layout."""
    return int(tf_dtype) in _TO_NUMPY


def to_numpy_dtype(tf_dtype: int) -> np.dtype:
    """numpy dtype for a TF_DataType; TypeError when numpy has none."""
    value = _known(tf_dtype)
    try:
        return _TO_NUMPY[value]
    except KeyError:
        raise TypeError(f"{_NAMES[value]} has no numpy equivalent") from None


def check_numpy_convertible(tf_dtype: int) -> None:
    """Raises InvalidArgumentError for DT_VARIANT, whose elements are runtime
    objects (TensorLists, Optionals) with no array form; TensorFlow refuses
    the conversion with the same error."""
    if int(tf_dtype) == int(lib.TF_VARIANT):
        errors.raise_for(
            int(lib.TF_INVALID_ARGUMENT),
            "Cannot convert a Tensor of dtype variant to a NumPy array.",
        )


def from_numpy_dtype(np_dtype: npt.DTypeLike) -> int:
    """TF_DataType for a numpy dtype (any byte order); TypeError when none fits."""
    dt = np.dtype(np_dtype)
    if dt.byteorder not in ("=", "|"):
        dt = dt.newbyteorder("=")
    try:
        return _FROM_NUMPY[dt]
    except KeyError:
        raise TypeError(f"numpy dtype {dt} has no TF_DataType equivalent") from None


def native_array(arr: np.ndarray) -> np.ndarray:
    """``arr`` laid out as tensor memory: native byte order, C order, aligned.

    Every numpy array whose bytes become tensor data goes through here
    (constants, op arguments converted from numpy, Tensor.from_numpy, the
    DLPack fallback), so a byte-swapped array (``dtype('>f4')`` on a
    little-endian machine) is converted to the values it means, as
    TensorFlow does, instead of being copied raw; strided and misaligned
    arrays are compacted. Returns ``arr`` itself when it already fits
    (0-d arrays stay 0-d).
    """
    dt = arr.dtype
    if dt.byteorder in ("<", ">"):  # numpy spells the native order "="
        return np.array(arr, dtype=dt.newbyteorder("="), order="C", copy=True)
    flags = arr.flags
    if not (flags.c_contiguous and flags.aligned):
        return np.array(arr, order="C", copy=True)
    return arr
