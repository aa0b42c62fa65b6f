"""TF_DataType values: their names and their numpy equivalents.

A dtype is represented by its plain TF_DataType number (``int``), as the C
API passes it. The numbers are read from the compiled headers (``lib.TF_FLOAT``
and so on), never typed here. Names follow ``tf.dtypes`` (``float32``,
``float16`` for TF_HALF, ...).
"""

from __future__ import annotations

import builtins
import numbers
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from tfe_py import errors
from tfe_py._ffi import lib

__all__ = [
    "ALL_DTYPES",
    "NUMPY_DTYPES",
    "QUANTIZED_DTYPES",
    "DType",
    "MlDtypesMissingError",
    "as_dtype",
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
    """numpy dtype for a TF_DataType; TypeError when numpy has none.

    bfloat16, float8, float4 and int4/int2 types come from ``ml_dtypes``
    (as in TensorFlow); without it they raise ImportError saying so."""
    value = _known(tf_dtype)
    try:
        return _TO_NUMPY[value]
    except KeyError:
        pass
    n = _NAMES[value]
    if n in _ML_DTYPES_NAMES:  # ImportError when ml_dtypes is not installed
        return np.dtype(getattr(ml_dtypes_module(), n))
    raise TypeError(f"{n} has no numpy equivalent")


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
        # an ml_dtypes type: most report kind 'V', float8_e5m2 reports 'f'
        if dt.kind in ("V", "f") and dt.name in _ML_DTYPES_NAMES:
            return _BY_NAME[dt.name]
        raise TypeError(f"numpy dtype {dt} has no TF_DataType equivalent") from None


def array_typestr(dt: np.dtype) -> str:
    """The ``__array_interface__`` typestr for tensor memory of numpy dtype
    ``dt``: ml_dtypes types as raw bytes ("|V<n>", viewed as the real type
    afterwards), since numpy cannot read some of their own strings back
    (float8_e5m2's is "<f1")."""
    if dt.name in _ML_DTYPES_NAMES:
        return f"|V{dt.itemsize}"
    return dt.str


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


# ---------------------------------------------------------------------------
# DType: TensorFlow's dtype objects

_TF_STRING = int(lib.TF_STRING)
_TF_BOOL = int(lib.TF_BOOL)
# Spellings of the op-definition grammar that differ from tf.dtypes names.
_GRAMMAR_NAMES = {"float": "float32", "double": "float64", "half": "float16"}
# Names numpy does not know: ml_dtypes (TensorFlow's own dependency) does.
_ML_DTYPES_NAMES = frozenset(
    (
        "bfloat16",
        "float8_e5m2",
        "float8_e4m3fn",
        "float8_e4m3fnuz",
        "float8_e4m3b11fnuz",
        "float8_e5m2fnuz",
        "float4_e2m1fn",
        "int4",
        "uint4",
        "int2",
        "uint2",
    )
)
_QUANTIZED_NAMES = frozenset(("qint8", "quint8", "qint16", "quint16", "qint32"))
# Layout of the quantized types as TF gives them to numpy: one named field.
_QUANTIZED_FIELDS = {"qint8": "i1", "quint8": "u1", "qint16": "i2", "quint16": "u2", "qint32": "i4"}
# Ranges of the sub-byte integers (ml_dtypes knows them too, but it is optional).
_SMALL_INT_RANGES = {"int4": (-8, 7), "uint4": (0, 15), "int2": (-2, 1), "uint2": (0, 3)}


class MlDtypesMissingError(ImportError, TypeError):
    """A bfloat16/float8/int4 value needs numpy, and ``ml_dtypes`` is not
    installed. Both an ImportError (what is missing) and a TypeError (the
    dtype has no numpy form here), so either kind of handler sees it."""


def ml_dtypes_module() -> Any:
    """The ``ml_dtypes`` module, or MlDtypesMissingError saying what needs
    it. Looked up at each call (it is optional and the tests hide it)."""
    try:
        import ml_dtypes  # type: ignore[import-not-found]
    except ImportError as exc:
        raise MlDtypesMissingError(
            "bfloat16, float8, float4 and sub-byte integer tensors need the "
            "'ml_dtypes' package to convert to numpy (pip install ml_dtypes)"
        ) from exc
    return ml_dtypes


class DType(int):
    """A TensorFlow dtype (``tfe_py.float32``, ...), also its TF_DataType number.

    It is an ``int``, so it goes anywhere the C API wants a TF_DataType. As
    TensorFlow's ``tf.dtypes.DType`` it compares equal to anything
    :func:`as_dtype` maps to it: its number, its name (``"float32"``), the
    numpy dtype (``np.float32``); ``repr`` is ``tf.float32``, ``str``
    ``<dtype: 'float32'>``.
    """

    __slots__ = ()
    _cache: dict[int, DType] = {}  # noqa: RUF012 - class-level intern table

    def __new__(cls, value: int) -> DType:
        cached = cls._cache.get(value)
        if cached is not None:
            return cached
        value = int(value)
        name(value)  # ValueError for an unknown TF_DataType
        obj = super().__new__(cls, value)
        cls._cache[value] = obj
        return obj

    @property
    def name(self) -> str:
        """tf.dtypes name, e.g. ``"float32"``."""
        return _NAMES[int(self)]

    @property
    def as_datatype_enum(self) -> int:
        """The TF_DataType number (a plain int)."""
        return int(self)

    @property
    def base_dtype(self) -> DType:
        """Itself (tfe has no reference dtypes here)."""
        return self

    @property
    def real_dtype(self) -> DType:
        """float32 for complex64, float64 for complex128, else itself."""
        n = self.name
        if n == "complex64":
            return DType(_BY_NAME["float32"])
        if n == "complex128":
            return DType(_BY_NAME["float64"])
        return self

    @property
    def as_numpy_dtype(self) -> Any:
        """The numpy scalar type (``np.float32``), as in TensorFlow: ``object``
        for strings, a one-field structured dtype for quantized types, the
        ``ml_dtypes`` type for bfloat16/float8/int4 (ImportError without it)."""
        value = int(self)
        if value == _TF_STRING:
            return object
        dt = _TO_NUMPY.get(value)
        if dt is not None:
            return dt.type
        n = self.name
        if n in _QUANTIZED_NAMES:
            return np.dtype([(n, _QUANTIZED_FIELDS[n])])
        if n in _ML_DTYPES_NAMES:
            return getattr(ml_dtypes_module(), n)
        raise TypeError(f"{n} has no numpy equivalent")

    @property
    def is_numpy_compatible(self) -> builtins.bool:
        return self.name not in ("resource", "variant")

    @property
    def is_bool(self) -> builtins.bool:
        return int(self) == _TF_BOOL

    @property
    def is_floating(self) -> builtins.bool:
        n = self.name
        return n.startswith("float") or n == "bfloat16"

    @property
    def is_integer(self) -> builtins.bool:
        n = self.name
        return n.startswith(("int", "uint"))

    @property
    def is_unsigned(self) -> builtins.bool:
        return self.name.startswith("uint")

    @property
    def is_complex(self) -> builtins.bool:
        return self.name.startswith("complex")

    @property
    def is_quantized(self) -> builtins.bool:
        return self.name in _QUANTIZED_NAMES

    @property
    def size(self) -> builtins.int:
        """Bytes per element (0 for strings, resources and variants)."""
        return size(int(self))

    def _limit(self, which: str) -> Any:
        n = self.name
        if n in _SMALL_INT_RANGES:
            return _SMALL_INT_RANGES[n][0 if which == "min" else 1]
        if self.is_integer or self.is_floating:
            np_type = self.as_numpy_dtype
            if self.is_integer:
                return getattr(np.iinfo(np_type), which)
            finfo = ml_dtypes_module().finfo if n in _ML_DTYPES_NAMES else np.finfo
            return getattr(finfo(np_type), which)
        kind = "quantized type" if self.is_quantized else "type"
        word = "minimum" if which == "min" else "maximum"
        raise TypeError(f"Cannot find {word} value of {self} with {kind} {self}.")

    @property
    def min(self) -> Any:
        """Smallest finite value (a numpy scalar for floats, int for integers)."""
        return self._limit("min")

    @property
    def max(self) -> Any:
        """Largest finite value (a numpy scalar for floats, int for integers)."""
        return self._limit("max")

    def is_compatible_with(self, other: Any) -> builtins.bool:
        """True when ``other`` names the same dtype."""
        try:
            return int(self) == int(as_dtype(other))
        except TypeError:
            return False

    def __eq__(self, other: object) -> builtins.bool:
        if other is None:
            return False
        if isinstance(other, int):
            return int(self) == int(other)
        try:
            return int(self) == int(as_dtype(other))
        except (TypeError, ValueError):
            return False

    def __ne__(self, other: object) -> builtins.bool:
        return not self.__eq__(other)

    __hash__ = int.__hash__

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: '{self.name}'>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (DType, (int(self),))


def _dtype_error(value: Any) -> TypeError:
    return TypeError(f"Cannot convert the argument `type_value`: {value!r} to a TensorFlow DType.")


def as_dtype(value: Any) -> DType:
    """The :class:`DType` of a dtype-like value, as ``tf.as_dtype``.

    Accepts a DType or TF_DataType number, a name (``"float32"``,
    ``"float"``, ``"TF_FLOAT"``, ``"DT_FLOAT"``), or anything numpy accepts as
    a dtype (``np.float32``, ``np.dtype("int64")``; strings and objects give
    ``string``; ml_dtypes types their dtype). TypeError otherwise.
    """
    if value.__class__ is DType:
        return value  # type: ignore[no-any-return]
    if isinstance(value, builtins.bool):
        raise _dtype_error(value)
    if isinstance(value, numbers.Integral):
        try:
            return DType(int(value))
        except ValueError:
            raise _dtype_error(value) from None
    if isinstance(value, (str, bytes)):
        text = value.decode("ascii", "replace") if isinstance(value, bytes) else value
        key = _GRAMMAR_NAMES.get(text, text)
        if key.startswith("DT_"):
            key = "TF_" + key[3:]
        found = _BY_NAME.get(key)
        if found is None:
            for v, enum in _ENUM_NAMES.items():
                if enum in (key, "TF_" + key.upper()):
                    found = v
                    break
        if found is None:
            raise _dtype_error(value)
        return DType(found)
    try:
        np_dtype = np.dtype(value)
    except TypeError:
        raise _dtype_error(value) from None
    if np_dtype.kind in "OSU":
        return DType(_TF_STRING)
    if np_dtype.names and len(np_dtype.names) == 1 and np_dtype.names[0] in _QUANTIZED_NAMES:
        return DType(_BY_NAME[np_dtype.names[0]])
    if np_dtype.kind == "V" and np_dtype.name in _ML_DTYPES_NAMES:
        return DType(_BY_NAME[np_dtype.name])
    try:
        return DType(from_numpy_dtype(np_dtype))
    except TypeError:
        raise _dtype_error(value) from None


#: The quantized dtypes, as ``tf.dtypes.QUANTIZED_DTYPES``.
QUANTIZED_DTYPES: frozenset[DType] = frozenset(DType(_BY_NAME[n]) for n in _QUANTIZED_NAMES)


def _constants() -> dict[str, DType]:
    """``float32`` -> DType(TF_FLOAT), ... for every dtype, plus TF's aliases."""
    found = {n: DType(v) for v, n in _NAMES.items()}
    found["half"] = found["float16"]
    found["double"] = found["float64"]
    found["complex"] = found["complex64"]
    return found


#: Every dtype constant by name (the module attributes ``float32``, ...).
DTYPE_CONSTANTS: MappingProxyType[str, DType] = MappingProxyType(_constants())
# Module attributes as in tf.dtypes. They shadow builtins (``bool``) in this
# module's namespace from here on: code above uses ``builtins.bool``.
globals().update(DTYPE_CONSTANTS)
__all__ += sorted(DTYPE_CONSTANTS)

# tf.dtypes.cast and tf.dtypes.saturate_cast are the same functions as
# tf.cast and tf.saturate_cast, which live in tfe_py.array_ops (loaded on
# first use, so that importing this module stays cheap).
_ARRAY_OPS_FUNCTIONS = ("cast", "saturate_cast")
__all__ += list(_ARRAY_OPS_FUNCTIONS)


def __getattr__(attr: str) -> Any:
    if attr in _ARRAY_OPS_FUNCTIONS:
        from tfe_py import array_ops

        value = getattr(array_ops, attr)
        globals()[attr] = value
        return value
    raise AttributeError(f"module 'tfe_py.dtypes' has no attribute {attr!r}")
