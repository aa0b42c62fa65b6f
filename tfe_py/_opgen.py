"""Op wrappers generated from the C op registry.

For every op the registry knows (TFE_ListOpNames), :func:`wrapper` builds a
Python function from the op's definition (TFE_GetOpDefSpecs, TensorFlow's
op-definition grammar): inputs are positional-or-keyword arguments named as
in TF, attributes are keyword-only arguments, and ``name``/``device`` are
optional keywords. Attributes left at ``None`` take the op's default, and
attributes the runtime infers from the inputs (``T``, ``N``, list(type)
attrs of inputs) never need to be given.

Dispatch is one C call (``tfe_py_fast_execute*`` in ``_fast.c``): the
wrapper hands over the input handles and, when attributes were given, one
pre-packed byte string with all of them (cached per distinct set of values).
For single-output ops with one or two tensor inputs and no attributes, the
generated function goes straight from its arguments to that call.
"""

from __future__ import annotations

import collections
import keyword
import numbers
import re
import struct
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tfe_py import errors
from tfe_py._ffi import CData, ffi, lib
from tfe_py.context import Context, GraphScope, _device_bytes, _state, default_context
from tfe_py.eager import (
    EagerTensor,
    _array_for,
    _infer,
    _new_handle,
    _pending_error,
    _place,
    _scalar_handle,
    as_dtype,
    constant,
)
from tfe_py.errors import status

__all__ = ["ArgDef", "AttrDef", "OpDef", "list_op_names", "op_def", "op_specs", "wrapper"]

# Version of the attribute-blob format this module writes (see _fast.h).
_FAST_ABI = 1
if int(lib.tfe_py_fast_abi()) != _FAST_ABI:  # pragma: no cover - stale build
    raise ImportError("tfe_py: the compiled _fast glue does not match tfe_py._opgen; rebuild")

# Output capacity used when the number of outputs cannot be worked out
# beforehand (the runtime reports the real count).
_FALLBACK_OUTPUTS = 1024
# Counts from attrs above this are not trusted for sizing the output array.
_MAX_KNOWN_OUTPUTS = 1 << 20
# Cached attribute blobs per op.
_BLOB_CACHE_LIMIT = 256
# Type classes of the grammar ("T: numbertype" and friends).
_TYPE_CLASSES = frozenset(
    {
        "numbertype",
        "realnumbertype",
        "quantizedtype",
        "floatingtype",
        "integertype",
        "complextype",
        "realtype",
        "anytype",
    }
)
_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_RESERVED = frozenset({"name", "device"})
_new_object = object.__new__


class _NoValue:
    """Marks a default the parser could not turn into a Python value."""

    def __repr__(self) -> str:
        return "<unparsed>"


NO_VALUE = _NoValue()


# ---------------------------------------------------------------------------
# Definitions


@dataclass
class AttrDef:
    """One ``attr:`` line of a definition."""

    name: str
    py_name: str
    spec: str
    base: str  # "type", "int", "float", "bool", "string", "shape", "tensor", "func"
    is_list: bool
    has_default: bool = False
    default: Any = None
    default_text: str = ""
    allowed: tuple[Any, ...] | None = None
    minimum: int | None = None
    inferred: bool = False


@dataclass
class ArgDef:
    """One ``in:`` or ``out:`` line of a definition."""

    name: str
    py_name: str
    spec: str
    fixed_type: int | None = None
    type_attr: str | None = None
    number_attr: str | None = None
    type_list_attr: str | None = None
    is_ref: bool = False
    is_list: bool = False  # "N * T" or a list(type) attr: set by parse_op_def


@dataclass
class OpDef:
    """A parsed op definition plus what the wrapper precomputes from it."""

    name: str
    lines: list[str]
    inputs: list[ArgDef]
    outputs: list[ArgDef]
    attrs: list[AttrDef]
    is_stateful: bool = False
    is_commutative: bool = False
    name_bytes: bytes = b""
    blob_cache: dict[Any, bytes] = field(default_factory=dict)
    result_type: Any = None
    # Precomputed by parse_op_def for the dispatch path:
    attr_map: dict[str, AttrDef] = field(default_factory=dict)
    # type attr -> indices of the inputs whose dtype it gives
    type_attr_inputs: dict[str, list[int]] = field(default_factory=dict)
    has_list_inputs: bool = False
    # Output lengths when no output is a list (else None: worked out per call).
    static_out_lengths: list[int | None] | None = None
    # One non-list output and one or two non-list inputs: tfe_py_fast_execute1/2.
    short_dispatch: bool = False


def _split_top(text: str, sep: str) -> list[str]:
    """Splits on ``sep`` outside brackets and quotes."""
    parts: list[str] = []
    depth = 0
    quote = ""
    start = 0
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i + len(sep)
    parts.append(text[start:])
    return [p.strip() for p in parts]


def _find_default(text: str) -> int:
    """Index of the ``=`` starting a default (outside brackets/quotes), or -1."""
    depth = 0
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "=" and depth == 0:
            prev = text[i - 1] if i else ""
            nxt = text[i + 1] if i + 1 < len(text) else ""
            if prev not in "<>!=" and nxt != "=":
                return i
    return -1


def _grammar_dtype(token: str) -> int | None:
    try:
        return as_dtype(token.strip())
    except (TypeError, ValueError):
        return None


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    raise ValueError(f"not a quoted string: {text}")


def _parse_scalar(text: str, base: str) -> Any:
    text = text.strip()
    if base == "bool":
        if text in ("true", "false"):
            return text == "true"
        raise ValueError(text)
    if base == "int":
        return int(text)
    if base == "float":
        return float(text)
    if base in ("string", "func"):
        return _unquote(text)
    if base == "type":
        dt = _grammar_dtype(text)
        if dt is None:
            raise ValueError(text)
        return dt
    if base == "shape":
        if text.startswith("[") and text.endswith("]"):
            inner = text[1:-1].strip()
            return tuple(int(x) for x in _split_top(inner, ",")) if inner else ()
        raise ValueError(text)
    raise ValueError(text)


def _parse_default(text: str, base: str, is_list: bool) -> Any:
    try:
        if is_list:
            text = text.strip()
            if not (text.startswith("[") and text.endswith("]")):
                raise ValueError(text)
            inner = text[1:-1].strip()
            return [_parse_scalar(x, base) for x in _split_top(inner, ",")] if inner else []
        return _parse_scalar(text, base)
    except (ValueError, TypeError):
        return NO_VALUE


def _py_name(name: str, taken: set[str]) -> str:
    py = name
    while keyword.iskeyword(py) or py in _RESERVED or py in taken or not _NAME_RE.match(py):
        py = re.sub(r"\W", "_", py) + "_"
    taken.add(py)
    return py


def _parse_attr(line: str, taken: set[str]) -> AttrDef:
    name, sep, rest = line.partition(":")
    name = name.strip()
    if not sep or not name:
        raise ValueError(f"bad attr spec {line!r}")
    pos = _find_default(rest)
    default_text = ""
    if pos >= 0:
        default_text = rest[pos + 1 :].strip()
        rest = rest[:pos]
    type_part = rest.strip()
    minimum: int | None = None
    m = re.search(r">=\s*(-?\d+)\s*$", type_part)
    if m:
        minimum = int(m.group(1))
        type_part = type_part[: m.start()].strip()
    is_list = type_part.startswith("list(") and type_part.endswith(")")
    inner = type_part[5:-1].strip() if is_list else type_part
    allowed: tuple[Any, ...] | None = None
    if inner.startswith("{") and inner.endswith("}"):
        items = [x for x in _split_top(inner[1:-1], ",") if x]
        if items and items[0][:1] in "'\"":
            base = "string"
            allowed = tuple(_unquote(x) for x in items)
        else:
            base = "type"
            allowed = tuple(x for x in items)
    elif inner in _TYPE_CLASSES:
        base = "type"
    else:
        base = inner
    attr = AttrDef(
        name=name,
        py_name=_py_name(name, taken),
        spec=line.strip(),
        base=base,
        is_list=is_list,
        allowed=allowed,
        minimum=minimum,
    )
    if pos >= 0:
        attr.has_default = True
        attr.default_text = default_text
        attr.default = _parse_default(default_text, base, is_list)
    return attr


def _parse_arg(line: str, attrs: dict[str, AttrDef], taken: set[str]) -> ArgDef:
    name, sep, rest = line.partition(":")
    name = name.strip()
    if not sep or not name:
        raise ValueError(f"bad argument spec {line!r}")
    arg = ArgDef(name=name, py_name="", spec=line.strip())
    text = rest.strip()
    if text.startswith("Ref(") and text.endswith(")"):
        arg.is_ref = True
        text = text[4:-1].strip()
    if "*" in text:
        number, _, text = (x.strip() for x in text.partition("*"))
        arg.number_attr = number
    attr = attrs.get(text)
    if attr is not None and attr.base == "type":
        if attr.is_list:
            arg.type_list_attr = text
        else:
            arg.type_attr = text
    else:
        arg.fixed_type = _grammar_dtype(text)
        if arg.fixed_type is None:
            raise ValueError(f"bad argument type in {line!r}")
    arg.py_name = _py_name(name, taken) if taken is not None else name
    return arg


def parse_op_def(name: str, lines: Sequence[str]) -> OpDef:
    """Parses the grammar lines TFE_GetOpDefSpecs gives for op ``name``."""
    taken: set[str] = set()
    attr_lines, in_lines, out_lines = [], [], []
    stateful = commutative = False
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if line.startswith("attr:"):
            attr_lines.append(line[5:].strip())
        elif line.startswith("in:"):
            in_lines.append(line[3:].strip())
        elif line.startswith("out:"):
            out_lines.append(line[4:].strip())
        elif line == "stateful":
            stateful = True
        elif line == "commutative":
            commutative = True
    # Inputs get their Python names first: they are the positional ones.
    in_taken: set[str] = set()
    attrs_by_name: dict[str, AttrDef] = {}
    pending_attrs = [_parse_attr(x, set()) for x in attr_lines]
    for a in pending_attrs:
        attrs_by_name[a.name] = a
    inputs = [_parse_arg(x, attrs_by_name, in_taken) for x in in_lines]
    taken |= in_taken
    for a in pending_attrs:
        a.py_name = _py_name(a.name, taken)
    outputs = [_parse_arg(x, attrs_by_name, set()) for x in out_lines]
    for arg in (*inputs, *outputs):
        arg.is_list = arg.number_attr is not None or arg.type_list_attr is not None
    for arg in inputs:
        for ref in (arg.type_attr, arg.number_attr, arg.type_list_attr):
            if ref is not None and ref in attrs_by_name:
                attrs_by_name[ref].inferred = True
    op = OpDef(
        name=name,
        lines=[x.strip() for x in lines if x.strip()],
        inputs=inputs,
        outputs=outputs,
        attrs=pending_attrs,
        is_stateful=stateful,
        is_commutative=commutative,
        name_bytes=name.encode("utf-8"),
        attr_map=attrs_by_name,
        has_list_inputs=any(a.is_list for a in inputs),
    )
    for idx, arg in enumerate(inputs):
        if arg.type_attr is not None:
            op.type_attr_inputs.setdefault(arg.type_attr, []).append(idx)
    if not any(a.is_list for a in outputs):
        op.static_out_lengths = [1] * len(outputs)
    op.short_dispatch = (
        len(outputs) == 1
        and not outputs[0].is_list
        and len(inputs) in (1, 2)
        and not op.has_list_inputs
    )
    if len(outputs) > 1:
        fields = [_py_name(o.name, set()) for o in outputs]
        # TF allows namespaced op names ("Namespace>Name"); a type name may
        # not hold the '>'.
        type_name = re.sub(r"\W", "_", name)
        op.result_type = collections.namedtuple(type_name, fields)  # type: ignore[misc]
    return op


# ---------------------------------------------------------------------------
# Registry access


def _buffer_bytes(buf: CData) -> bytes:
    if buf.data == ffi.NULL or buf.length == 0:
        return b""
    return ffi.buffer(buf.data, buf.length)[:]


def _new_buffer() -> CData:
    buf = lib.TF_NewBuffer()
    if buf == ffi.NULL:
        raise errors.error_for(
            errors.RESOURCE_EXHAUSTED, "out of memory (TF_NewBuffer returned NULL)"
        )
    return buf


def list_op_names() -> list[str]:
    """Names of every registered op, in registration order (TFE_ListOpNames)."""
    buf = _new_buffer()
    try:
        lib.TFE_ListOpNames(buf)
        text = _buffer_bytes(buf).decode("utf-8")
    finally:
        lib.TF_DeleteBuffer(buf)
    return [x for x in text.split("\n") if x]


def op_specs(name: str) -> list[str]:
    """The grammar lines of op ``name`` (TFE_GetOpDefSpecs). NotFoundError if unknown."""
    buf = _new_buffer()
    try:
        with status() as s:
            lib.TFE_GetOpDefSpecs(name.encode("utf-8"), buf, s)
        text = _buffer_bytes(buf).decode("utf-8")
    finally:
        lib.TF_DeleteBuffer(buf)
    return [x for x in text.split("\n") if x.strip()]


_lock = threading.RLock()
_defs: dict[str, OpDef] = {}
_wrappers: dict[str, Callable[..., Any]] = {}
_known_names: set[str] | None = None


def _registered(name: str) -> bool:
    # One lookup, not a listing: a listing registers every op of the
    # generated TF table (csrc/ops/op_generated.c), a lookup only this one.
    global _known_names
    if _known_names is not None and name in _known_names:
        return True
    try:
        op_specs(name)
    except errors.OpError as e:
        if e.error_code == errors.CODES["NOT_FOUND"]:
            return False
        raise
    if _known_names is None:
        _known_names = set()
    _known_names.add(name)
    return True


def op_def(name: str) -> OpDef:
    """Parsed definition of op ``name`` (cached). KeyError if not registered."""
    d = _defs.get(name)
    if d is not None:
        return d
    with _lock:
        d = _defs.get(name)
        if d is None:
            if not _registered(name):
                raise KeyError(name)
            d = parse_op_def(name, op_specs(name))
            _defs[name] = d
        return d


def wrapper(name: str) -> Callable[..., Any]:
    """The generated Python function for op ``name`` (cached).

    AttributeError if no op of that name is registered.
    """
    fn = _wrappers.get(name)
    if fn is not None:
        return fn
    with _lock:
        fn = _wrappers.get(name)
        if fn is None:
            try:
                d = op_def(name)
            except KeyError:
                raise AttributeError(f"tfe_py.ops has no op named {name!r}") from None
            fn = _generate(d)
            _wrappers[name] = fn
        return fn


# ---------------------------------------------------------------------------
# Attribute values -> blob (format documented in _fast.h)


def _need(cond: bool, op: OpDef, attr: AttrDef, value: Any, what: str) -> None:
    if not cond:
        raise TypeError(
            f"{op.name}: attr '{attr.py_name}' expects {what}, got {type(value).__name__} {value!r}"
        )


def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))


_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1


def _attr_range_error(op: OpDef, attr: AttrDef, value: Any, what: str) -> errors.OpError:
    text = repr(value)
    if len(text) > 80:
        text = text[:77] + "..."
    return errors.error_for(
        errors.INVALID_ARGUMENT,
        f"{op.name}: attr '{attr.py_name}': value {text} is out of range ({what})",
    )


def _int64(op: OpDef, attr: AttrDef, v: Any) -> int:
    """``v`` as an int attr value; InvalidArgumentError beyond int64, which
    is what an int attr holds."""
    i = int(v)
    if not _INT64_MIN <= i <= _INT64_MAX:
        raise _attr_range_error(op, attr, v, "it does not fit int64")
    return i


def _is_float(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))


def _str_bytes(v: Any) -> bytes | None:
    if isinstance(v, str):
        return v.encode("utf-8")
    if isinstance(v, bytes):
        return v
    return None


def _shape_payload(op: OpDef, attr: AttrDef, v: Any) -> bytes:
    _need(
        isinstance(v, (tuple, list)) and all(d is None or _is_int(d) for d in v),
        op,
        attr,
        v,
        "a shape (a tuple of ints or None)",
    )
    dims = [-1 if d is None else _int64(op, attr, d) for d in v]
    if any(d < -1 for d in dims):
        # TF's shape parsing refuses these; libtfe would read them as -1
        # (unknown) and accept any input.
        text = ",".join("?" if d == -1 else str(d) for d in dims)
        raise errors.error_for(
            errors.INVALID_ARGUMENT,
            f"{op.name}: attr '{attr.py_name}': Shape [{text}] has dimensions "
            "with values below -1 (where -1 means unknown)",
        )
    return struct.pack(f"=i{len(dims)}q", len(dims), *dims)


def _scalar_payload(op: OpDef, attr: AttrDef, v: Any, keep: list[Any]) -> tuple[str, bytes]:
    base = attr.base
    if base == "bool":
        _need(isinstance(v, (bool, np.bool_)), op, attr, v, "a bool")
        return "b", struct.pack("=B", 1 if v else 0)
    if base == "int":
        _need(_is_int(v), op, attr, v, "an int")
        return "i", struct.pack("=q", _int64(op, attr, v))
    if base == "float":
        _need(_is_float(v), op, attr, v, "a float")
        return "f", struct.pack("=d", float(v))
    if base in ("string", "func"):
        if base == "func" and hasattr(v, "_tfe_func_attr"):
            # A tfe_py.function (tfe_py.function): it registers itself where
            # the op runs (the context, or the graph being built) and names
            # itself. Kept in `keep`, so the blob is never cached.
            keep.append(v)
            v = v._tfe_func_attr()
        raw = _str_bytes(v)
        _need(raw is not None, op, attr, v, "a str")
        assert raw is not None
        return ("s" if base == "string" else "n"), struct.pack(f"=I{len(raw)}s", len(raw), raw)
    if base == "type":
        try:
            dt = as_dtype(v)
        except (TypeError, ValueError):
            _need(False, op, attr, v, "a dtype")
            raise  # unreachable
        return "t", struct.pack("=i", dt)
    if base == "shape":
        return "S", _shape_payload(op, attr, v)
    if base == "tensor":
        try:
            src = v if isinstance(v, EagerTensor) else constant(v)
        except (TypeError, ValueError) as exc:  # same class, naming op and attr
            raise type(exc)(f"{op.name}: attr '{attr.py_name}': {exc}") from exc
        t = _ResolvedAttrTensor(src)
        keep.append(t)
        return "X", struct.pack("=Q", int(ffi.cast("uintptr_t", t.ptr)))
    raise TypeError(f"{op.name}: attr '{attr.py_name}' of kind {base} cannot be set from Python")


class _ResolvedAttrTensor:
    """Owns the TF_Tensor a tensor attr points at while the op is built."""

    def __init__(self, src: EagerTensor) -> None:
        self.ptr: CData = ffi.NULL
        with status() as s:
            self.ptr = lib.TFE_TensorHandleResolve(src.handle, s)

    def __del__(self) -> None:
        ptr, self.ptr = self.ptr, ffi.NULL
        if ptr:
            lib.TF_DeleteTensor(ptr)


# "N": a list of function names (list(func) attrs: Case's branches), set
# by graph._apply_blob in graphs and by _fast.c's set_func_list_attr eagerly.
_LIST_KINDS = {
    "bool": "B", "int": "I", "float": "F", "type": "T", "string": "L", "shape": "P", "func": "N",
}


def _list_payload(op: OpDef, attr: AttrDef, v: Any, keep: list[Any]) -> tuple[str, bytes]:
    _need(isinstance(v, (list, tuple)), op, attr, v, f"a list of {attr.base}")
    kind = _LIST_KINDS.get(attr.base)
    if kind is None:
        raise TypeError(
            f"{op.name}: attr '{attr.py_name}' of kind list({attr.base}) is unsupported"
        )
    n = len(v)
    if kind == "B":
        _need(all(isinstance(x, (bool, np.bool_)) for x in v), op, attr, v, "a list of bools")
        return kind, struct.pack(f"=I{n}B", n, *(1 if x else 0 for x in v))
    if kind == "I":
        _need(all(_is_int(x) for x in v), op, attr, v, "a list of ints")
        return kind, struct.pack(f"=I{n}q", n, *(_int64(op, attr, x) for x in v))
    if kind == "F":
        _need(all(_is_float(x) for x in v), op, attr, v, "a list of floats")
        return kind, struct.pack(f"=I{n}d", n, *(float(x) for x in v))
    if kind == "T":
        try:
            values = [as_dtype(x) for x in v]
        except (TypeError, ValueError):
            _need(False, op, attr, v, "a list of dtypes")
            raise
        return kind, struct.pack(f"=I{n}i", n, *values)
    parts = [struct.pack("=I", n)]
    if kind == "N":
        for x in v:
            if hasattr(x, "_tfe_func_attr"):  # a tfe_py function: as for a func attr
                keep.append(x)
                x = x._tfe_func_attr()
            raw = _str_bytes(x)
            _need(raw is not None, op, attr, v, "a list of functions or function names")
            assert raw is not None
            parts.append(struct.pack("=I", len(raw)) + raw)
    elif kind == "L":
        for x in v:
            raw = _str_bytes(x)
            _need(raw is not None, op, attr, v, "a list of str")
            assert raw is not None
            parts.append(struct.pack("=I", len(raw)) + raw)
    else:
        for x in v:
            parts.append(_shape_payload(op, attr, x))
    return kind, b"".join(parts)


def _encode_attrs(op: OpDef, values: Sequence[Any], keep: list[Any]) -> bytes:
    out: list[bytes] = []
    for attr, v in zip(op.attrs, values, strict=True):
        if v is None:
            continue
        try:
            if attr.is_list:
                kind, payload = _list_payload(op, attr, v, keep)
            else:
                kind, payload = _scalar_payload(op, attr, v, keep)
        except (struct.error, OverflowError) as exc:
            # A value the blob's fixed-size fields cannot hold (a float beyond
            # a double, a string or list longer than 2**32, ...).
            raise _attr_range_error(op, attr, v, str(exc)) from None
        name = attr.name.encode("utf-8")
        out.append(struct.pack("=cH", kind.encode("ascii"), len(name)) + name + payload)
    return b"".join(out)


def _freeze(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return (type(v), tuple(_freeze(x) for x in v))
    if isinstance(v, np.ndarray):
        raise TypeError("arrays are not cached")
    return (type(v), v)


def _attr_blob(op: OpDef, values: tuple[Any, ...], keep: list[Any]) -> bytes:
    """The blob for ``values`` (one per attr, None = not given), cached."""
    try:
        key: Any = values + tuple(map(type, values))
        hit = op.blob_cache.get(key)
    except TypeError:
        try:
            key = _freeze(values)
            hit = op.blob_cache.get(key)
        except TypeError:
            key, hit = None, None
    if hit is not None:
        return hit
    blob = _encode_attrs(op, values, keep)
    if keep:  # holds pointers to temporaries: never cache
        return blob
    if key is not None and len(op.blob_cache) < _BLOB_CACHE_LIMIT:
        op.blob_cache[key] = blob
    return blob


# ---------------------------------------------------------------------------
# Inputs


def _convert(value: Any, tf_dtype: int | None, ctx: Context, device: bytes | None) -> EagerTensor:
    """A new tensor for a non-tensor input (in the current device scope)."""
    fast = _scalar_handle(value, tf_dtype)
    if fast is not None:
        handle = fast[0]
    else:
        if tf_dtype is None:
            arr, tf_dtype = _infer(value)
        else:
            arr = _array_for(value, tf_dtype)
        handle = _new_handle(arr, tf_dtype)
    if device is not None:
        handle = _place(handle, ctx, device)
    t = _new_object(EagerTensor)
    t._h = handle
    t._ctx = ctx
    return t


def _check_open(op: OpDef, arg: ArgDef, t: EagerTensor) -> None:
    if not t._h:
        raise ValueError(f"{op.name}: input '{arg.py_name}' is a closed tensor")


def _group_dtype(
    op: OpDef, type_attr: str, values: Sequence[Any], explicit: dict[str, Any]
) -> int | None:
    """dtype for Python values given to inputs of type attr ``type_attr``:
    the attr's explicit value, else the dtype of the first open tensor among
    the inputs that use it, else None (infer from the value)."""
    if type_attr in explicit:
        v = explicit[type_attr]
        try:
            return as_dtype(v)
        except (TypeError, ValueError):
            _need(False, op, op.attr_map[type_attr], v, "a dtype")
    inputs = op.inputs
    for idx in op.type_attr_inputs.get(type_attr, ()):
        v = values[idx]
        items = v if inputs[idx].is_list and isinstance(v, (list, tuple)) else (v,)
        for item in items:
            if isinstance(item, EagerTensor) and item._h:
                return int(item.dtype)
            if hasattr(type(item), "_tfe_dense_tensor_"):  # a Variable
                return int(item.dtype)
    return None


def _gather_inputs(
    op: OpDef,
    values: Sequence[Any],
    explicit: dict[str, Any],
    ctx: Context,
    scope_device: bytes | None,
) -> tuple[list[CData], list[int], list[EagerTensor]]:
    """Flat input handles, per-argument lengths (-1 = single) and the
    tensors converted here, which must stay alive until the op ran."""
    handles: list[CData] = []
    lengths: list[int] = []
    made: list[EagerTensor] = []
    group: dict[str, int] | None = None
    for idx, arg in enumerate(op.inputs):
        v = values[idx]
        if arg.is_list:
            if not isinstance(v, (list, tuple)):
                raise TypeError(
                    f"{op.name}: input '{arg.py_name}' expects a list of tensors, "
                    f"got {type(v).__name__}"
                )
            items = v
            lengths.append(len(items))
        else:
            if isinstance(v, EagerTensor):  # the common case, kept short
                h = v._h
                if not h:
                    _check_open(op, arg, v)
                handles.append(h)
                lengths.append(-1)
                continue
            items = (v,)
            lengths.append(-1)
        for k, item in enumerate(items):
            if isinstance(item, EagerTensor):
                _check_open(op, arg, item)
                handles.append(item._h)
                continue
            dense = getattr(type(item), "_tfe_dense_tensor_", None)
            if dense is not None:  # a Variable: its current value, read now
                t = dense(item)
                made.append(t)
                handles.append(t._h)
                continue
            want: int | None
            if arg.fixed_type is not None:
                want = arg.fixed_type
            elif arg.type_attr is not None:
                if group is None:
                    group = {}
                if arg.type_attr in group:
                    want = group[arg.type_attr]
                else:
                    want = _group_dtype(op, arg.type_attr, values, explicit)
                    if want is not None:
                        group[arg.type_attr] = want
            elif arg.type_list_attr is not None and arg.type_list_attr in explicit:
                types = explicit[arg.type_list_attr]
                if not isinstance(types, (list, tuple)):
                    _need(False, op, op.attr_map[arg.type_list_attr], types, "a list of dtypes")
                want = as_dtype(types[k]) if k < len(types) else None
            else:
                want = None
            try:
                t = _convert(item, want, ctx, scope_device)
            except (TypeError, ValueError) as exc:
                where = f"input '{arg.py_name}'" + (f"[{k}]" if arg.is_list else "")
                raise type(exc)(f"{op.name}: {where} (#{idx}): {exc}") from exc
            except errors.OpError as exc:  # e.g. out of memory copying it
                where = f"input '{arg.py_name}'" + (f"[{k}]" if arg.is_list else "")
                raise errors.error_for(
                    exc.error_code, f"{op.name}: {where} (#{idx}): {exc.message}"
                ) from exc
            if arg.type_attr is not None and group is not None and arg.type_attr not in group:
                group[arg.type_attr] = int(t.dtype)
            made.append(t)
            handles.append(t._h)
    return handles, lengths, made


def _output_lengths(op: OpDef, explicit: dict[str, Any], values: Sequence[Any]) -> list[int | None]:
    """Tensors each output argument produces, None where unknown."""
    if op.static_out_lengths is not None:
        return op.static_out_lengths
    by_attr: dict[str, int] = {}
    for arg, v in zip(op.inputs, values, strict=True):
        if arg.is_list and isinstance(v, (list, tuple)):
            for ref in (arg.number_attr, arg.type_list_attr):
                if ref is not None:
                    by_attr.setdefault(ref, len(v))
    amap = op.attr_map
    out: list[int | None] = []
    for arg in op.outputs:
        ref = arg.number_attr or arg.type_list_attr
        if ref is None:
            out.append(1)
            continue
        n: int | None = None
        v = explicit.get(ref)
        if v is not None:
            n = len(v) if arg.type_list_attr is not None else int(v)
            if not 0 <= n <= _MAX_KNOWN_OUTPUTS:
                n = None  # nonsense (e.g. num_split=-1): the runtime says why
        elif ref in by_attr:
            n = by_attr[ref]
        else:
            a = amap.get(ref)
            if a is not None and a.has_default and a.default is not NO_VALUE:
                d = a.default
                n = len(d) if isinstance(d, list) else int(d)
        out.append(n)
    return out


def _pack(op: OpDef, tensors: list[EagerTensor], lengths: list[int | None]) -> Any:
    """Shapes the flat outputs like TF: a tensor, a list, or a namedtuple."""
    if not op.outputs:
        return None
    unknown = [i for i, n in enumerate(lengths) if n is None]
    if len(unknown) == 1:
        known = sum(n for n in lengths if n is not None)
        lengths = list(lengths)
        lengths[unknown[0]] = len(tensors) - known
    elif unknown or sum(n for n in lengths if n is not None) != len(tensors):
        return tensors  # cannot tell the arguments apart: give them flat
    parts: list[Any] = []
    pos = 0
    for arg, n in zip(op.outputs, lengths, strict=True):
        assert n is not None
        if arg.is_list:
            parts.append(tensors[pos : pos + n])
        else:
            parts.append(tensors[pos])
        pos += n
    if len(parts) == 1:
        return parts[0]
    return op.result_type(*parts)


def _short_list_error(op: OpDef, inputs: Iterable[Any]) -> errors.OpError | None:
    """InvalidArgumentError for a list input shorter than its attr's minimum
    (``AddN([])``), else None. The runtime may trip over something else
    first (no element to infer ``T`` from); this names the real mistake."""
    for arg, v in zip(op.inputs, inputs, strict=False):
        if not arg.is_list or not isinstance(v, (list, tuple)):
            continue
        ref = arg.number_attr or arg.type_list_attr
        a = op.attr_map.get(ref) if ref is not None else None
        if a is None or a.minimum is None or len(v) >= a.minimum:
            continue
        what = "Value" if arg.number_attr else "Length"
        return errors.error_for(
            errors.INVALID_ARGUMENT,
            f"{op.name}: input '{arg.py_name}' is a list of {len(v)} tensors: "
            f"{what} for attr '{ref}' of {len(v)} must be at least minimum {a.minimum}",
        )
    return None


def _graph_op(
    op: OpDef, inputs: Sequence[Any], attrs: tuple[Any, ...], device: Any, name: Any, scope: Any
) -> Any:
    """Adds ``op`` to the default graph instead of running it (tfe_py.graph)."""
    from tfe_py import graph  # import cycle: graph builds on this module

    return graph.add_op(op, inputs, attrs, device, name, scope)


def _graph_of(inputs: Sequence[Any]) -> Any:
    """The graph of the first graph tensor among ``inputs`` (lists
    included), or None."""
    from tfe_py.graph import GraphTensor  # import cycle

    for v in inputs:
        for item in v if isinstance(v, (list, tuple)) else (v,):
            if isinstance(item, GraphTensor):
                return item.graph
    return None


def _fail(op: OpDef, ctx: Any, inputs: Sequence[Any], name: Any = None) -> Any:
    """Raises the error of a failed dispatch (kept by the C glue).

    Runs only after a failure, so the checks here cost the successful
    calls nothing. The short path of a wrapper also lands here when a
    graph is the thread's default (its GraphScope has no C context): the
    call then adds a node to that graph and returns its outputs.
    """
    s = lib.tfe_py_take_error()
    if ctx.__class__ is GraphScope:
        if s != ffi.NULL:
            lib.TF_DeleteStatus(s)
        return _graph_op(op, inputs, (None,) * len(op.attrs), None, name, ctx)
    try:
        if not ctx._ptr:
            raise ValueError(f"{op.name}: the context is closed")
        for arg, v in zip(op.inputs, inputs, strict=False):
            items = v if isinstance(v, (list, tuple)) else (v,)
            for item in items:
                if isinstance(item, EagerTensor):
                    _check_open(op, arg, item)
        short = _short_list_error(op, inputs)
        if short is not None:
            raise short
        raise _pending_error(op.name, s)
    finally:
        if s != ffi.NULL:
            lib.TF_DeleteStatus(s)


_NO_ATTRS: dict[str, Any] = {}


def _call(
    op: OpDef, inputs: tuple[Any, ...], attrs: tuple[Any, ...], device: Any, name: Any = None
) -> Any:
    """The general dispatch path of every generated wrapper."""
    ctx, dev = _state.scope
    if ctx is None:
        ctx = default_context()
    elif ctx.__class__ is GraphScope:
        return _graph_op(op, inputs, attrs, device, name, ctx)
    scope_device = dev if dev.__class__ is bytes else None
    if device is not None:
        dev = _device_bytes(device) or ffi.NULL
    explicit = _NO_ATTRS
    for v in attrs:
        if v is not None:
            explicit = {a.name: x for a, x in zip(op.attrs, attrs, strict=True) if x is not None}
            break
    try:
        handles, arg_lengths, made = _gather_inputs(op, inputs, explicit, ctx, scope_device)
    except TypeError:
        # A graph tensor among the inputs (``eager + graph_tensor`` outside
        # the graph's block): the op goes to that tensor's graph, as in TF.
        graph = _graph_of(inputs)
        if graph is None:
            raise
        return _graph_op(op, inputs, attrs, device, name, GraphScope(graph, None))
    keep_attrs: list[Any] = []
    blob = _attr_blob(op, attrs, keep_attrs) if explicit else b""
    if op.short_dispatch:
        if len(handles) == 1:
            h = lib.tfe_py_fast_execute1(ctx._ptr, op.name_bytes, dev, blob, len(blob), handles[0])
        else:
            h = lib.tfe_py_fast_execute2(
                ctx._ptr, op.name_bytes, dev, blob, len(blob), handles[0], handles[1]
            )
        if not h:
            _fail(op, ctx, inputs)
        del made, keep_attrs  # converted inputs can go now
        t = _new_object(EagerTensor)
        t._h = h
        t._ctx = ctx
        return t
    out_lengths = _output_lengths(op, explicit, inputs)
    if None in out_lengths:
        capacity = _FALLBACK_OUTPUTS
    else:
        capacity = sum(out_lengths)  # type: ignore[arg-type]
    # Never NULL, even for an empty list input such as AddN([]): the
    # runtime, not the glue, then reports what is wrong with it.
    in_arr = ffi.new("TFE_TensorHandle*[]", handles or 1)
    len_arr = ffi.new("int[]", arg_lengths) if arg_lengths else ffi.NULL
    out_arr = ffi.new("TFE_TensorHandle*[]", max(capacity, 1))
    n = lib.tfe_py_fast_execute(
        ctx._ptr,
        op.name_bytes,
        dev,
        blob,
        len(blob),
        in_arr,
        len_arr,
        len(arg_lengths),
        out_arr,
        capacity,
    )
    if n < 0:
        _fail(op, ctx, inputs)
    del made, keep_attrs
    tensors = [EagerTensor._wrap(out_arr[i], ctx) for i in range(n)]
    return _pack(op, tensors, out_lengths)


# ---------------------------------------------------------------------------
# Code generation


def _describe_arg(arg: ArgDef) -> str:
    return arg.spec.split(":", 1)[1].strip() if ":" in arg.spec else arg.spec


def _docstring(op: OpDef, signature: str) -> str:
    lines = [
        f"{op.name}({signature})",
        "",
        f"Runs the op {op.name} eagerly.",
        "Inside ``with tfe_py.Graph():`` it adds the op to that graph instead.",
    ]
    flags = [
        f for f, on in (("stateful", op.is_stateful), ("commutative", op.is_commutative)) if on
    ]
    if flags:
        lines.append("Flags: " + ", ".join(flags) + ".")
    lines += ["", "Inputs:"]
    if not op.inputs:
        lines.append("  (none)")
    for arg in op.inputs:
        kind = " (a list of tensors)" if arg.is_list else ""
        lines.append(f"  {arg.py_name}: {_describe_arg(arg)}{kind}")
    lines += ["", "Outputs:"]
    if not op.outputs:
        lines.append("  (none)")
    for arg in op.outputs:
        kind = " (a list of tensors)" if arg.is_list else ""
        lines.append(f"  {arg.name}: {_describe_arg(arg)}{kind}")
    lines += ["", "Attrs (keyword-only; None means the op's default):"]
    if not op.attrs:
        lines.append("  (none)")
    for a in op.attrs:
        spec = a.spec.split(":", 1)[1].strip()
        if a.inferred:
            note = " (inferred from the inputs)"
        elif a.has_default:
            note = ""  # the spec shows "= default"
        else:
            note = " (required)"
        lines.append(f"  {a.py_name}: {spec}{note}")
    lines += [
        "",
        "  name: the node's name in a graph (ignored eagerly); device: run on this device.",
        "",
    ]
    if len(op.outputs) == 1:
        ret = "a list of EagerTensors" if op.outputs[0].is_list else "an EagerTensor"
    elif not op.outputs:
        ret = "None"
    else:
        fields = ", ".join(op.result_type._fields)
        ret = f"a namedtuple ({fields}); list outputs are lists"
    lines.append(f"Returns {ret}.")
    return "\n".join(lines)


def _generate(op: OpDef) -> Callable[..., Any]:
    ins = [a.py_name for a in op.inputs]
    attrs = op.attrs
    params = list(ins)
    params.append("*")
    for a in attrs:
        required = not a.has_default and not a.inferred
        params.append(a.py_name if required else f"{a.py_name}=None")
    params += ["name=None", "device=None"]
    signature = ", ".join(params)
    attr_tuple = "(" + "".join(f"{a.py_name}, " for a in attrs) + ")"
    in_tuple = "(" + "".join(f"{x}, " for x in ins) + ")"
    body: list[str] = []
    fast = (
        len(op.outputs) == 1
        and not op.outputs[0].is_list
        and len(op.inputs) in (1, 2)
        and not any(a.is_list for a in op.inputs)
    )
    if fast:
        conds = [f"{a.py_name} is None" for a in attrs]
        conds.append("device is None")
        conds += [f"{x}.__class__ is _ET" for x in ins]
        handles = ", ".join(f"{x}._h" for x in ins)
        fn = "_exec1" if len(ins) == 1 else "_exec2"
        body += [
            f"    if {' and '.join(conds)}:",
            "        _c, _d = _st.scope",
            "        if _c is None:",
            "            _c = _dctx()",
            f"        _h = {fn}(_c._ptr, _N, _d, b'', 0, {handles})",
            "        if _h:",
            "            _t = _new(_ET)",
            "            _t._h = _h",
            "            _t._ctx = _c",
            "            return _t",
            f"        return _fail(_S, _c, {in_tuple}, name)",
        ]
    body.append(f"    return _call(_S, {in_tuple}, {attr_tuple}, device, name)")
    src = f"def _op_fn({signature}):\n" + "\n".join(body) + "\n"
    namespace: dict[str, Any] = {
        "_S": op,
        "_N": op.name_bytes,
        "_ET": EagerTensor,
        "_st": _state,
        "_dctx": default_context,
        "_exec1": lib.tfe_py_fast_execute1,
        "_exec2": lib.tfe_py_fast_execute2,
        "_new": object.__new__,
        "_fail": _fail,
        "_call": _call,
    }
    code = compile(src, f"<tfe_py.ops.{op.name}>", "exec")
    exec(code, namespace)  # the source is built above from parsed names
    fn = namespace["_op_fn"]
    fn.__name__ = op.name
    fn.__module__ = "tfe_py.ops"
    fn.__qualname__ = op.name
    fn.__doc__ = _docstring(op, signature)
    fn.op_def = op  # type: ignore[attr-defined]
    return fn
