"""A small ``tensorflow.TensorProto`` for ``tf.make_tensor_proto`` and
``tf.make_ndarray``, without a protobuf runtime.

:class:`TensorProto` holds the message's fields as Python values, writes
the protobuf wire format (``SerializeToString``), reads it back
(``FromString``/``ParseFromString``) and prints protobuf's text format
(``str()``), as TF's generated class does for the fields used here:
dtype (1), tensor_shape (2: dim (2: size 1, name 2), unknown_rank 3),
version_number (3), tensor_content (4) and the typed value lists
(half_val 13, float_val 5, double_val 6, int_val 7, string_val 8,
scomplex_val 9, int64_val 10, bool_val 11, dcomplex_val 12, uint32_val 16,
uint64_val 17). Which field holds the values follows TF's
``make_tensor_proto``: raw bytes in tensor_content for numeric types with
more than one element when the value has the full shape, else the typed
list (a single value then stands for all elements).
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

__all__ = ["TensorProto", "make_ndarray", "make_tensor_proto"]

# DataType enum numbers and names (TF's types.proto).
_ENUM_NAMES = {
    1: "DT_FLOAT", 2: "DT_DOUBLE", 3: "DT_INT32", 4: "DT_UINT8", 5: "DT_INT16",
    6: "DT_INT8", 7: "DT_STRING", 8: "DT_COMPLEX64", 9: "DT_INT64", 10: "DT_BOOL",
    11: "DT_QINT8", 12: "DT_QUINT8", 13: "DT_QINT32", 14: "DT_BFLOAT16",
    15: "DT_QINT16", 16: "DT_QUINT16", 17: "DT_UINT16", 18: "DT_COMPLEX128",
    19: "DT_HALF", 20: "DT_RESOURCE", 21: "DT_VARIANT", 22: "DT_UINT32", 23: "DT_UINT64",
}
# dtype enum -> (typed field, its number, wire encoding) for values that do
# not go to tensor_content.
_FIELDS: dict[int, tuple[str, int, str]] = {
    1: ("float_val", 5, "f"), 2: ("double_val", 6, "d"), 3: ("int_val", 7, "v"),
    4: ("int_val", 7, "v"), 5: ("int_val", 7, "v"), 6: ("int_val", 7, "v"),
    7: ("string_val", 8, "s"), 8: ("scomplex_val", 9, "f"), 9: ("int64_val", 10, "v"),
    10: ("bool_val", 11, "v"), 11: ("int_val", 7, "v"), 12: ("int_val", 7, "v"),
    13: ("int_val", 7, "v"), 14: ("half_val", 13, "v"), 15: ("int_val", 7, "v"),
    16: ("int_val", 7, "v"), 17: ("int_val", 7, "v"), 18: ("dcomplex_val", 12, "d"),
    19: ("half_val", 13, "v"), 22: ("uint32_val", 16, "v"), 23: ("uint64_val", 17, "v"),
}
# Types whose values go to tensor_content (TF's list).
_CONTENT_TYPES = frozenset({19, 1, 2, 3, 4, 5, 6, 9, 11, 12, 15, 16, 13, 22, 23})
_VALUE_FIELDS = (
    "half_val", "float_val", "double_val", "int_val", "string_val", "scomplex_val",
    "int64_val", "bool_val", "dcomplex_val", "uint32_val", "uint64_val",
)
_NUMBER_OF = {name: _FIELDS[k][1] for k in _FIELDS for name in [_FIELDS[k][0]]}
_KIND_OF = {_FIELDS[k][0]: _FIELDS[k][2] for k in _FIELDS}


class _Dim:
    """One ``TensorShapeProto.Dim``: ``size`` and ``name``."""

    __slots__ = ("name", "size")

    def __init__(self, size: int = 0, name: str = "") -> None:
        self.size = int(size)
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Dim) and (self.size, self.name) == (other.size, other.name)

    def __repr__(self) -> str:
        return f"size: {self.size}"


class _Shape:
    """``TensorShapeProto``: a list of ``dim`` and ``unknown_rank``."""

    __slots__ = ("dim", "unknown_rank")

    def __init__(self) -> None:
        self.dim: list[_Dim] = []
        self.unknown_rank = False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Shape) and (self.dim, self.unknown_rank) == (
            other.dim, other.unknown_rank,
        )


class TensorProto:
    """The fields of a ``tensorflow.TensorProto`` (see the module text)."""

    def __init__(self) -> None:
        self.dtype = 0
        self.tensor_shape = _Shape()
        self.version_number = 0
        self.tensor_content = b""
        for name in _VALUE_FIELDS:
            setattr(self, name, [])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorProto) and self.SerializeToString() == (
            other.SerializeToString()
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, as protobuf messages

    # -- wire format ---------------------------------------------------------

    def SerializeToString(self) -> bytes:
        """The message in protobuf's binary wire format (fields in number order)."""
        out = bytearray()
        if self.dtype:
            out += _key(1, 0) + _varint(self.dtype)
        shape = bytearray()
        for d in self.tensor_shape.dim:
            body = bytearray()
            if d.size:
                body += _key(1, 0) + _varint(d.size)
            if d.name:
                raw = d.name.encode("utf-8")
                body += _key(2, 2) + _varint(len(raw)) + raw
            shape += _key(2, 2) + _varint(len(body)) + body
        if self.tensor_shape.unknown_rank:
            shape += _key(3, 0) + b"\x01"
        out += _key(2, 2) + _varint(len(shape)) + shape
        if self.version_number:
            out += _key(3, 0) + _varint(self.version_number)
        if self.tensor_content:
            out += _key(4, 2) + _varint(len(self.tensor_content)) + self.tensor_content
        for name in sorted(_VALUE_FIELDS, key=lambda n: _NUMBER_OF[n]):
            values = getattr(self, name)
            if not values:
                continue
            number, kind = _NUMBER_OF[name], _KIND_OF[name]
            if kind == "s":
                for v in values:
                    out += _key(number, 2) + _varint(len(v)) + bytes(v)
                continue
            if kind == "f":
                body = struct.pack(f"<{len(values)}f", *values)
            elif kind == "d":
                body = struct.pack(f"<{len(values)}d", *values)
            else:
                body = b"".join(_varint(int(v)) for v in values)
            out += _key(number, 2) + _varint(len(body)) + body
        return bytes(out)

    @classmethod
    def FromString(cls, data: bytes) -> TensorProto:
        """Parses a serialized TensorProto (ValueError when malformed)."""
        proto = cls()
        proto.ParseFromString(data)
        return proto

    def ParseFromString(self, data: bytes) -> int:
        """Replaces the fields with those of ``data``; returns its length."""
        self.__init__()  # type: ignore[misc]
        by_number = {_NUMBER_OF[n]: n for n in _VALUE_FIELDS}
        for number, wire, value in _fields(bytes(data)):
            if number == 1 and wire == 0:
                self.dtype = int(value)
            elif number == 2 and wire == 2:
                for n2, w2, v2 in _fields(value):
                    if n2 == 2 and w2 == 2:
                        dim = _Dim()
                        for n3, w3, v3 in _fields(v2):
                            if n3 == 1 and w3 == 0:
                                dim.size = _signed64(v3)
                            elif n3 == 2 and w3 == 2:
                                dim.name = v3.decode("utf-8")
                        self.tensor_shape.dim.append(dim)
                    elif n2 == 3 and w2 == 0:
                        self.tensor_shape.unknown_rank = bool(v2)
            elif number == 3 and wire == 0:
                self.version_number = int(value)
            elif number == 4 and wire == 2:
                self.tensor_content = bytes(value)
            elif number in by_number:
                name = by_number[number]
                getattr(self, name).extend(_unpack(_KIND_OF[name], wire, value))
        return len(data)

    # -- text format -----------------------------------------------------------

    def __str__(self) -> str:
        lines = []
        if self.dtype:
            lines.append(f"dtype: {_ENUM_NAMES.get(self.dtype, self.dtype)}")
        lines.append("tensor_shape {")
        for d in self.tensor_shape.dim:
            lines.append("  dim {")
            if d.size:
                lines.append(f"    size: {d.size}")
            if d.name:
                lines.append(f'    name: "{_escape(d.name.encode("utf-8"))}"')
            lines.append("  }")
        if self.tensor_shape.unknown_rank:
            lines.append("  unknown_rank: true")
        lines.append("}")
        if self.version_number:
            lines.append(f"version_number: {self.version_number}")
        if self.tensor_content:
            lines.append(f'tensor_content: "{_escape(self.tensor_content)}"')
        for name in sorted(_VALUE_FIELDS, key=lambda n: _NUMBER_OF[n]):
            kind = _KIND_OF[name]
            for v in getattr(self, name):
                if kind == "s":
                    text = f'"{_escape(bytes(v))}"'
                elif name == "bool_val":
                    text = "true" if v else "false"
                elif kind == "f":
                    text = _float_text(v, single=True)
                elif kind == "d":
                    text = _float_text(v, single=False)
                else:
                    text = str(int(v))
                lines.append(f"{name}: {text}")
        return "\n".join(lines) + "\n"

    __repr__ = __str__


def _key(number: int, wire: int) -> bytes:
    return _varint((number << 3) | wire)


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _signed64(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise ValueError("malformed TensorProto: truncated varint")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, pos


def _fields(data: bytes) -> list[tuple[int, int, Any]]:
    out = []
    pos = 0
    while pos < len(data):
        key, pos = _read_varint(data, pos)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise ValueError("malformed TensorProto: field number 0")
        if wire == 0:
            value, pos = _read_varint(data, pos)
        elif wire == 2:
            length, pos = _read_varint(data, pos)
            if pos + length > len(data):
                raise ValueError("malformed TensorProto: truncated field")
            value, pos = data[pos : pos + length], pos + length
        elif wire == 5:
            value, pos = data[pos : pos + 4], pos + 4
        elif wire == 1:
            value, pos = data[pos : pos + 8], pos + 8
        else:
            raise ValueError(f"malformed TensorProto: wire type {wire}")
        if pos > len(data):
            raise ValueError("malformed TensorProto: truncated field")
        out.append((number, wire, value))
    return out


def _unpack(kind: str, wire: int, value: Any) -> list[Any]:
    if kind == "s":
        return [bytes(value)]
    if kind in "fd":
        size = 4 if kind == "f" else 8
        raw = bytes(value)
        if len(raw) % size:
            raise ValueError("malformed TensorProto: packed floats")
        return list(struct.unpack(f"<{len(raw) // size}{kind}", raw))
    if wire == 0:
        return [_signed64(value)]
    out, pos, raw = [], 0, bytes(value)
    while pos < len(raw):
        v, pos = _read_varint(raw, pos)
        out.append(_signed64(v))
    return out


def _escape(raw: bytes) -> str:
    # protobuf's text-format escaping of bytes: C escapes, octal for the rest
    special = {0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x22: '\\"', 0x27: "\\'", 0x5C: "\\\\"}
    parts = []
    for b in raw:
        if b in special:
            parts.append(special[b])
        elif 0x20 <= b < 0x7F:
            parts.append(chr(b))
        else:
            parts.append(f"\\{b:03o}")
    return "".join(parts)


def _float_text(v: float, single: bool) -> str:
    # protobuf prints the shortest of %.6g/%.9g (float) or %.15g/%.17g
    # (double) that reads back as the same value.
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    if single:
        text = f"{v:.6g}"
        if np.float32(float(text)) != np.float32(v):
            text = f"{v:.9g}"
    else:
        text = f"{v:.15g}"
        if float(text) != v:
            text = f"{v:.17g}"
    return text


# -- make_tensor_proto / make_ndarray --------------------------------------------


def _numpy_of(values: Any, dtype: Any) -> np.ndarray:
    from tfe_py.dtypes import as_dtype
    from tfe_py.tensor import Tensor

    if isinstance(values, Tensor):
        arr = np.asarray(values.numpy())
        if dtype is not None:
            arr = arr.astype(as_dtype(dtype).as_numpy_dtype)
        return arr
    if values is None:
        raise ValueError("None values not supported.")
    if dtype is None:
        from tfe_py.eager import _infer

        arr, _ = _infer(values)
        return np.asarray(arr)
    want = as_dtype(dtype)
    if want == "string":
        flat = values if isinstance(values, np.ndarray) else np.asarray(values, dtype=object)
        for v in np.asarray(flat, dtype=object).reshape(-1):
            if not isinstance(v, (str, bytes, np.str_, np.bytes_)):
                raise TypeError(f"Expected string, but got {v!r} of type '{type(v).__name__}'.")
        return np.asarray(values, dtype=object)
    if not isinstance(values, np.ndarray):
        for v in np.asarray(values, dtype=object).reshape(-1):
            if isinstance(v, float) and not (want.is_floating or want.is_complex):
                raise TypeError(
                    f"Expected {want.name}, but got {v!r} of type '{type(v).__name__}'."
                )
    return np.asarray(values).astype(want.as_numpy_dtype)


def make_tensor_proto(
    values: Any,
    dtype: Any = None,
    shape: Any = None,
    verify_shape: bool = False,
    allow_broadcast: bool = False,
) -> TensorProto:
    """``values`` (a Python value, numpy array or eager tensor) as a
    :class:`TensorProto`, with TF's dtype inference and its rules for
    ``shape`` (fewer values than the shape holds are allowed and stand for
    the rest; ``verify_shape``/``allow_broadcast`` require the exact shape)."""
    from tfe_py.dtypes import as_dtype

    if isinstance(values, TensorProto):
        return values
    arr = _numpy_of(values, dtype)
    if arr.dtype == object or arr.dtype.kind in "SU":
        enum = 7
    else:
        enum = int(as_dtype(arr.dtype))
    if shape is None:
        dims = list(arr.shape)
        same = True
    else:
        dims = [int(d) for d in shape]
        size = int(np.prod(dims, dtype=np.int64)) if dims else 1
        same = size == arr.size
        if (verify_shape or allow_broadcast) and tuple(arr.shape) != tuple(dims):
            if not (allow_broadcast and arr.size == 1):
                raise TypeError(
                    f"Expected Tensor's shape: {tuple(dims)}, but got {tuple(arr.shape)}."
                )
        if arr.size > size:
            raise ValueError(
                f"Too many elements provided. Takes at most {size}, but got {arr.size}."
            )
    proto = TensorProto()
    proto.dtype = enum
    proto.tensor_shape.dim = [_Dim(d) for d in dims]
    total = int(np.prod(dims, dtype=np.int64)) if dims else 1
    if same and enum in _CONTENT_TYPES and total > 1:
        proto.tensor_content = np.ascontiguousarray(arr).tobytes()
        return proto
    name, _, _ = _FIELDS[enum]
    flat = arr.reshape(-1)
    values_list: list[Any]
    if enum == 7:
        values_list = [v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in flat]
    elif enum in (8, 18):
        values_list = [x for c in flat for x in (float(c.real), float(c.imag))]
    elif enum in (14, 19):
        values_list = [int(v) for v in flat.view(np.uint16)]
    elif enum == 10:
        values_list = [bool(v) for v in flat]
    elif enum in (1, 2):
        values_list = [float(v) for v in flat]
    else:
        values_list = [int(v) for v in flat]
    setattr(proto, name, values_list)
    return proto


def make_ndarray(tensor: Any) -> np.ndarray:
    """The numpy array a :class:`TensorProto` holds (a copy). A typed value
    list shorter than the shape is padded with its last value, as in TF."""
    from tfe_py.dtypes import as_dtype

    shape = [d.size for d in tensor.tensor_shape.dim]
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    enum = int(tensor.dtype)
    if enum == 7:
        np_dtype: Any = object
    else:
        np_dtype = as_dtype(enum).as_numpy_dtype
    if tensor.tensor_content:
        return np.frombuffer(tensor.tensor_content, dtype=np_dtype).copy().reshape(shape)
    name = _FIELDS[enum][0]
    values = list(getattr(tensor, name))
    if enum in (8, 18):
        values = [complex(values[i], values[i + 1]) for i in range(0, len(values) - 1, 2)]
    if enum in (14, 19):
        arr = np.array(values, dtype=np.uint16).view(np_dtype)
    else:
        arr = np.array(values, dtype=np_dtype)
    if arr.size == 0:
        return np.zeros(shape, dtype=np_dtype) if enum != 7 else np.full(shape, b"", object)
    if arr.size < count:
        arr = np.concatenate([arr, np.repeat(arr[-1:], count - arr.size)])
    return arr[:count].reshape(shape)
