"""Graph mode: building a ``TF_Graph`` with the same op wrappers eager uses.

``with tfe_py.Graph() as g:`` makes ``g`` the calling thread's default graph
(a per-thread stack, as TF1's ``g.as_default()``). Inside the block every
``tfe_py.ops.<Name>(...)`` call adds an operation to ``g``
(``TF_NewOperation`` ... ``TF_FinishOperation``) instead of running it, and
returns :class:`GraphTensor` objects (symbolic outputs: ``.op``, ``.name``
like ``"x:0"``, ``.dtype``, ``.shape``, ``.graph``); an op without outputs
returns its :class:`Operation`. Attributes are converted exactly as eager
converts them (the same code packs them), Python values and numpy arrays
given as inputs become ``Const`` nodes with the dtype eager would give them,
and an EagerTensor becomes a ``Const`` holding its value (inside a
``tfe_py.function`` trace it is captured instead, see tfe_py.function).

Graphs are run by :class:`tfe_py.Session` (tfe_py.session). The C graph
belongs to the Graph object: it is deleted by ``close()`` or when the last
reference goes (sessions keep their graph alive).
"""

from __future__ import annotations

import contextlib
import re
import struct
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any

import numpy as np

from tfe_py import _opgen, dtypes, errors
from tfe_py._ffi import CData, ffi, lib
from tfe_py.context import (
    GraphScope,
    _device_bytes,
    _pop,
    _pop_graph,
    _push,
    _push_graph,
    _state,
)
from tfe_py.eager import (
    DType,
    EagerTensor,
    _array_for,
    _infer,
    _strings_to_numpy,
    _tensor_shape,
    as_dtype,
)
from tfe_py.eager import constant as _eager_constant
from tfe_py.errors import status
from tfe_py.tensor import Tensor
from tfe_py.tensor_shape import TensorShape

__all__ = [
    "Graph",
    "GraphTensor",
    "Operation",
    "Output",
    "constant",
    "convert_to_tensor",
    "get_default_graph",
    "placeholder",
]

_TF_STRING = int(lib.TF_STRING)
# TF numbers a reference type as its element type plus this (DT_FLOAT_REF 101).
_REF_OFFSET = 100
_TF_RESOURCE = int(lib.TF_RESOURCE)
_TF_VARIANT = int(lib.TF_VARIANT)
# TF's rule for node names (and, without the first-character rule, scopes).
_VALID_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_VALID_SCOPE = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")


# ---------------------------------------------------------------------------
# TF_Tensor <-> numpy


def tensor_from_value(value: Any, dtype: Any = None) -> CData:
    """A new ``TF_Tensor*`` (owned by the caller) holding ``value`` converted
    as eager converts it (``tfe_py.constant`` rules; ``dtype`` None infers)."""
    if isinstance(value, EagerTensor):
        if dtype is not None and as_dtype(dtype) != value.dtype:
            raise TypeError(
                f"Cannot convert a {value.dtype.name} tensor to dtype "
                f"{dtypes.name(as_dtype(dtype))}"
            )
        with status() as s:
            return lib.TFE_TensorHandleResolve(value.handle, s)
    if dtype is None:
        arr, tf_dtype = _infer(value)
    else:
        tf_dtype = as_dtype(dtype)
        arr = _array_for(value, tf_dtype)
    return tensor_from_array(arr, tf_dtype)


def tensor_from_array(arr: np.ndarray, tf_dtype: int) -> CData:
    """A new ``TF_Tensor*`` with a copy of ``arr`` (already of ``tf_dtype``)."""
    shape = tuple(int(d) for d in arr.shape)
    dims = ffi.new("int64_t[]", list(shape)) if shape else ffi.NULL
    if tf_dtype == _TF_STRING:
        items = [v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in arr.flat]
        size = ffi.sizeof("TF_TString") * len(items)
        t = lib.TF_AllocateTensor(tf_dtype, dims, len(shape), size)
        if t == ffi.NULL:
            raise errors.out_of_memory(f"TF_AllocateTensor for a string tensor of shape {shape}")
        base = ffi.cast("TF_TString*", lib.TF_TensorData(t))
        for i, item in enumerate(items):
            lib.TF_StringCopy(base + i, item, len(item))
        return t
    arr = dtypes.native_array(arr)
    t = lib.TF_AllocateTensor(tf_dtype, dims, len(shape), arr.nbytes)
    if t == ffi.NULL:
        raise errors.out_of_memory(f"TF_AllocateTensor for a tensor of shape {shape}")
    if arr.nbytes:
        ffi.memmove(lib.TF_TensorData(t), ffi.from_buffer(arr), arr.nbytes)
    return t


class _OwnedTensor:
    """Keeps a ``TF_Tensor*`` alive as the base of a numpy array."""

    def __init__(self, tensor: CData, shape: tuple[int, ...], np_dtype: np.dtype) -> None:
        self._tensor: CData | None = tensor
        self.__array_interface__ = {
            "version": 3,
            "shape": shape,
            "typestr": dtypes.array_typestr(np_dtype),
            "data": (int(ffi.cast("uintptr_t", lib.TF_TensorData(tensor))), False),
        }

    def __del__(self) -> None:
        t, self._tensor = self._tensor, None
        if t is not None:
            lib.TF_DeleteTensor(t)


def tensor_to_numpy(tensor: CData) -> Any:
    """Takes ownership of ``tensor`` and returns its value as numpy, as a
    TF1 session returns values: an array (writable, sharing the tensor's
    buffer), a numpy scalar for a 0-d tensor, ``bytes`` for a scalar string."""
    owned = True
    try:
        tf_dtype = int(lib.TF_TensorType(tensor))
        dtypes.check_numpy_convertible(tf_dtype)
        shape = _tensor_shape(tensor)
        if tf_dtype == _TF_STRING:
            arr = _strings_to_numpy(tensor, shape)
            return arr[()] if not shape else arr
        np_dtype = dtypes.to_numpy_dtype(tf_dtype)
        if not shape:
            raw = ffi.buffer(lib.TF_TensorData(tensor), np_dtype.itemsize)
            return np.frombuffer(raw, dtype=np_dtype)[0]
        if 0 in shape:
            return np.empty(shape, dtype=np_dtype)
        addr = int(ffi.cast("uintptr_t", lib.TF_TensorData(tensor)))
        if addr % np_dtype.alignment:
            raw = ffi.buffer(lib.TF_TensorData(tensor), lib.TF_TensorByteSize(tensor))
            return np.frombuffer(raw, dtype=np_dtype).reshape(shape).copy()
        holder = _OwnedTensor(tensor, shape, np_dtype)
        owned = False
        arr = np.asarray(holder)
        if arr.dtype != np_dtype:
            # The array interface names ml_dtypes types (bfloat16, float8,
            # ...) as raw bytes ("V2"): view them as the real type.
            arr = arr.view(np_dtype)
        return arr
    finally:
        if owned:
            lib.TF_DeleteTensor(tensor)


# ---------------------------------------------------------------------------
# Operations and tensors


def _output(oper: CData, index: int) -> CData:
    """A new ``TF_Output*`` (owning its memory): pass ``p[0]`` for a
    ``TF_Output`` argument while ``p`` is referenced."""
    p = ffi.new("TF_Output*")
    p.oper = oper
    p.index = index
    return p


def _outputs_array(items: Sequence[GraphTensor]) -> CData:
    arr = ffi.new("TF_Output[]", max(len(items), 1))
    for i, t in enumerate(items):
        arr[i].oper = t._op._ptr
        arr[i].index = t._index
    return arr


class Operation:
    """One node of a :class:`Graph` (a ``TF_Operation*`` the graph owns)."""

    __slots__ = ("__weakref__", "_graph", "_raw")

    def __init__(self, ptr: CData, graph: Graph) -> None:
        self._raw = ptr
        self._graph = graph

    @property
    def _ptr(self) -> CData:
        """The ``TF_Operation*``; ValueError once its graph was closed."""
        if not self._graph._ptr:
            raise ValueError("the graph of this operation is closed")
        return self._raw

    @property
    def graph(self) -> Graph:
        return self._graph

    @property
    def name(self) -> str:
        return ffi.string(lib.TF_OperationName(self._ptr)).decode("utf-8")

    @property
    def type(self) -> str:
        return ffi.string(lib.TF_OperationOpType(self._ptr)).decode("utf-8")

    @property
    def device(self) -> str:
        return ffi.string(lib.TF_OperationDevice(self._ptr)).decode("utf-8")

    @property
    def num_outputs(self) -> int:
        return int(lib.TF_OperationNumOutputs(self._ptr))

    @property
    def outputs(self) -> list[GraphTensor]:
        return [GraphTensor(self, i) for i in range(self.num_outputs)]

    @property
    def inputs(self) -> list[GraphTensor]:
        out: list[GraphTensor] = []
        p = ffi.new("TF_Input*")
        p.oper = self._ptr
        for i in range(int(lib.TF_OperationNumInputs(self._ptr))):
            p.index = i
            src = lib.TF_OperationInput(p[0])
            out.append(GraphTensor(self._graph._wrap_op(src.oper), int(src.index)))
        return out

    @property
    def control_inputs(self) -> list[Operation]:
        n = int(lib.TF_OperationNumControlInputs(self._ptr))
        if n == 0:
            return []
        arr = ffi.new("TF_Operation*[]", n)
        got = int(lib.TF_OperationGetControlInputs(self._ptr, arr, n))
        return [self._graph._wrap_op(arr[i]) for i in range(min(got, n))]

    @property
    def node_def(self) -> bytes:
        """The serialized NodeDef (TF_OperationToNodeDef)."""
        buf = lib.TF_NewBuffer()
        if buf == ffi.NULL:
            raise errors.out_of_memory("TF_NewBuffer returned NULL")
        try:
            with status() as s:
                lib.TF_OperationToNodeDef(self._ptr, buf, s)
            return _opgen._buffer_bytes(buf)
        finally:
            lib.TF_DeleteBuffer(buf)

    def run(self, feed_dict: Any = None, session: Any = None) -> None:
        """Runs this operation in ``session`` (default: the thread's default
        session, see tfe_py.session); ``Session.run(op)``."""
        from tfe_py.session import _session_for  # import cycle

        _session_for("execute operation using `run()`", self._graph, session).run(self, feed_dict)

    def get_attr(self, name: str) -> Any:
        """The value of attr ``name``: a Python value for int, float, bool,
        string (bytes, as TF), type (DType), shape (tuple, None for an
        unknown rank) and lists of those, numpy for a tensor; the
        serialized AttrValue for other kinds. ValueError if the node has no
        such attr (as TF)."""
        key = name.encode("utf-8")
        p = self._ptr
        s = lib.TF_NewStatus()
        try:
            meta = lib.TF_OperationGetAttrMetadata(p, key, s)
            if lib.TF_GetCode(s) != errors.OK:
                msg = ffi.string(lib.TF_Message(s)).decode("utf-8", "replace")
                if lib.TF_GetCode(s) in (errors.INVALID_ARGUMENT, errors.NOT_FOUND):
                    raise ValueError(msg)
                errors.check(s)
        finally:
            lib.TF_DeleteStatus(s)
        return _read_attr(p, key, meta)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Operation) and other._raw == self._raw

    def __hash__(self) -> int:
        return hash(int(ffi.cast("uintptr_t", self._raw)))

    def __repr__(self) -> str:
        if not self._graph._ptr:
            return "<tfe_py.Operation (graph closed)>"
        return f"<tfe_py.Operation '{self.name}' type={self.type}>"


def _shape_from_dims(dims: Sequence[int]) -> tuple[int | None, ...]:
    return tuple(None if d < 0 else int(d) for d in dims)


def _read_attr(p: CData, key: bytes, meta: CData) -> Any:
    kind = int(meta.type)
    is_list = bool(meta.is_list)
    n = int(meta.list_size)
    total = int(meta.total_size)
    with status() as s:
        if kind == lib.TF_ATTR_INT:
            if is_list:
                arr = ffi.new("int64_t[]", max(n, 1))
                lib.TF_OperationGetAttrIntList(p, key, arr, n, s)
                return [int(arr[i]) for i in range(n)]
            v = ffi.new("int64_t*")
            lib.TF_OperationGetAttrInt(p, key, v, s)
            return int(v[0])
        if kind == lib.TF_ATTR_FLOAT:
            if is_list:
                arr = ffi.new("float[]", max(n, 1))
                lib.TF_OperationGetAttrFloatList(p, key, arr, n, s)
                return [float(arr[i]) for i in range(n)]
            f = ffi.new("float*")
            lib.TF_OperationGetAttrFloat(p, key, f, s)
            return float(f[0])
        if kind == lib.TF_ATTR_BOOL:
            if is_list:
                arr = ffi.new("unsigned char[]", max(n, 1))
                lib.TF_OperationGetAttrBoolList(p, key, arr, n, s)
                return [bool(arr[i]) for i in range(n)]
            b = ffi.new("unsigned char*")
            lib.TF_OperationGetAttrBool(p, key, b, s)
            return bool(b[0])
        if kind == lib.TF_ATTR_TYPE:
            if is_list:
                arr = ffi.new("TF_DataType[]", max(n, 1))
                lib.TF_OperationGetAttrTypeList(p, key, arr, n, s)
                return [DType(int(arr[i])) for i in range(n)]
            t = ffi.new("TF_DataType*")
            lib.TF_OperationGetAttrType(p, key, t, s)
            return DType(int(t[0]))
        if kind == lib.TF_ATTR_STRING:
            if is_list:
                ptrs = ffi.new("void*[]", max(n, 1))
                lens = ffi.new("size_t[]", max(n, 1))
                storage = ffi.new("char[]", max(total, 1))
                lib.TF_OperationGetAttrStringList(p, key, ptrs, lens, n, storage, total, s)
                return [ffi.buffer(ptrs[i], lens[i])[:] for i in range(n)]
            storage = ffi.new("char[]", max(total, 1))
            lib.TF_OperationGetAttrString(p, key, storage, total, s)
            return ffi.buffer(storage, total)[:]
        if kind == lib.TF_ATTR_SHAPE and not is_list:
            if total < 0:
                return None
            dims = ffi.new("int64_t[]", max(total, 1))
            lib.TF_OperationGetAttrShape(p, key, dims, total, s)
            return _shape_from_dims([int(dims[i]) for i in range(total)])
        if kind == lib.TF_ATTR_TENSOR and not is_list:
            tp = ffi.new("TF_Tensor**")
            lib.TF_OperationGetAttrTensor(p, key, tp, s)
    if kind == lib.TF_ATTR_TENSOR and not is_list:
        value = tensor_to_numpy(tp[0])
        return value
    buf = lib.TF_NewBuffer()
    if buf == ffi.NULL:
        raise errors.out_of_memory("TF_NewBuffer returned NULL")
    try:
        with status() as s:
            lib.TF_OperationGetAttrValueProto(p, key, buf, s)
        return _opgen._buffer_bytes(buf)
    finally:
        lib.TF_DeleteBuffer(buf)


class GraphTensor(Tensor):
    """A symbolic output of an :class:`Operation` (TF's graph ``Tensor``).

    ``.name`` is ``"<op name>:<index>"``; ``.shape`` is what shape inference
    knows: a tuple with None for unknown dimensions, or None when even the
    rank is unknown. Two GraphTensor objects for the same output are equal
    and hash alike, so they can be ``feed_dict`` keys.
    """

    __slots__ = ("_index", "_op")

    # Make numpy defer to our reflected operators (ndarray + tensor).
    __array_priority__ = 100

    def __init__(self, op: Operation, index: int) -> None:
        self._op = op
        self._index = index

    @property
    def op(self) -> Operation:
        return self._op

    @property
    def value_index(self) -> int:
        return self._index

    @property
    def graph(self) -> Graph:
        return self._op._graph

    @property
    def device(self) -> str:
        """The device its operation requested ("" when none)."""
        return self._op.device

    @property
    def name(self) -> str:
        return f"{self._op.name}:{self._index}"

    @property
    def dtype(self) -> DType:
        """The element dtype (for a reference output such as VariableV2's,
        the type it refers to; see ``is_ref``)."""
        dt = self._raw_dtype()
        return DType(dt - _REF_OFFSET if dt > _REF_OFFSET else dt)

    @property
    def is_ref(self) -> bool:
        """True for a reference output (TF's ``float32_ref`` and friends)."""
        return self._raw_dtype() > _REF_OFFSET

    def _raw_dtype(self) -> int:
        out = self._as_output()
        return int(lib.TF_OperationOutputType(out[0]))

    def _as_output(self) -> CData:
        """A new ``TF_Output*``; keep it referenced while ``[0]`` is used."""
        return _output(self._op._ptr, self._index)

    @property
    def shape(self) -> TensorShape:
        """The static shape the graph knows: a TensorShape, with None for
        unknown dimensions, or ``TensorShape(None)`` for an unknown rank."""
        g = self._op._graph
        out = self._as_output()
        with status() as s:
            n = int(lib.TF_GraphGetTensorNumDims(g.ptr, out[0], s))
        if n < 0:
            return TensorShape(None)
        dims = ffi.new("int64_t[]", max(n, 1))
        with status() as s:
            lib.TF_GraphGetTensorShape(g.ptr, out[0], dims, n, s)
        return TensorShape(_shape_from_dims([int(dims[i]) for i in range(n)]))

    def eval(self, feed_dict: Any = None, session: Any = None) -> Any:
        """This tensor's value computed by ``session`` (default: the thread's
        default session, see tfe_py.session); ``Session.run(tensor)``."""
        from tfe_py.session import _session_for  # import cycle

        sess = _session_for("evaluate tensor using `eval()`", self._op._graph, session)
        return sess.run(self, feed_dict)

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def ndim(self) -> int | None:
        return self.shape.rank

    def set_shape(self, shape: Sequence[int | None]) -> None:
        """Refines the static shape (TF_GraphSetTensorShape);
        InvalidArgumentError if it contradicts what is known."""
        dims = [-1 if d is None else int(d) for d in shape]
        arr = ffi.new("int64_t[]", dims) if dims else ffi.NULL
        g = self._op._graph
        with status() as s:
            out = self._as_output()
            lib.TF_GraphSetTensorShape(g.ptr, out[0], arr, len(dims), s)
        g._feed_cache.clear()

    def consumers(self) -> list[Operation]:
        out = self._as_output()
        n = int(lib.TF_OperationOutputNumConsumers(out[0]))
        if n == 0:
            return []
        arr = ffi.new("TF_Input[]", n)
        got = int(lib.TF_OperationOutputConsumers(out[0], arr, n))
        g = self._op._graph
        return [g._wrap_op(arr[i].oper) for i in range(min(got, n))]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, GraphTensor)
            and other._op._raw == self._op._raw
            and other._index == self._index
        )

    def __hash__(self) -> int:
        return hash((int(ffi.cast("uintptr_t", self._op._raw)), self._index))

    def __bool__(self) -> bool:
        raise TypeError(
            "Using a symbolic tfe_py.GraphTensor as a Python bool is not allowed: "
            "its value is only known when a Session runs it"
        )

    def __iter__(self) -> Iterator[Any]:
        raise TypeError("a symbolic tfe_py.GraphTensor is not iterable")

    def __repr__(self) -> str:
        if not self._op._graph._ptr:
            return "<tfe_py.GraphTensor (graph closed)>"
        try:
            dt = self.dtype.name
        except Exception:  # a dtype the table does not name
            dt = "?"
        return f"<tfe_py.GraphTensor '{self.name}' shape={self.shape} dtype={dt}>"


#: TF's name for a graph tensor is ``Output`` in the C API.
Output = GraphTensor


def _operator_graph(own: Graph) -> Graph:
    """The graph an operator on a tensor of ``own`` adds its node to: the
    default graph when that one captures outside tensors (a function or
    cond/while branch being traced inside ``own``, as in TF, where ops go to
    the default graph), else ``own`` (e.g. ``eager + graph_tensor`` outside
    the graph's block)."""
    g = _state.graph
    if g is None or g is own or type(g)._capture is Graph._capture:
        return own
    return g


def _graph_operator(op_name: str, *, reflected: bool = False) -> Any:
    def method(self: GraphTensor, other: Any = None) -> Any:
        name = op_name
        if name == "AddV2" and int(self.dtype) == int(lib.TF_STRING):
            name = "Add"  # TF's + concatenates strings with Add
        fn = _opgen.wrapper(name)
        with _operator_graph(self._op._graph).as_default():
            if other is None and op_name in ("Neg", "Abs", "LogicalNot"):
                return fn(self)
            return fn(other, self) if reflected else fn(self, other)

    method.__name__ = op_name
    return method


def _graph_truediv(x: Any, y: Any) -> Any:
    from tfe_py.eager import _float_for_int

    g = _operator_graph(x.graph if isinstance(x, GraphTensor) else y.graph)
    with g.as_default():
        x = convert_to_tensor(x, y.dtype if isinstance(y, GraphTensor) else None)
        y = convert_to_tensor(y, x.dtype)
        if x.dtype.is_integer:
            cast = _opgen.wrapper("Cast")
            target = _float_for_int(int(x.dtype))
            x = cast(x, DstT=target)
            y = cast(y, DstT=target)
        return _opgen.wrapper("RealDiv")(x, y)


for _dunder, _name, _refl in (
    ("__add__", "AddV2", False),
    ("__radd__", "AddV2", True),
    ("__sub__", "Sub", False),
    ("__rsub__", "Sub", True),
    ("__mul__", "Mul", False),
    ("__rmul__", "Mul", True),
    ("__floordiv__", "FloorDiv", False),
    ("__rfloordiv__", "FloorDiv", True),
    ("__mod__", "FloorMod", False),
    ("__rmod__", "FloorMod", True),
    ("__pow__", "Pow", False),
    ("__rpow__", "Pow", True),
    ("__matmul__", "MatMul", False),
    ("__rmatmul__", "MatMul", True),
    ("__lt__", "Less", False),
    ("__le__", "LessEqual", False),
    ("__gt__", "Greater", False),
    ("__ge__", "GreaterEqual", False),
    ("__and__", "LogicalAnd", False),
    ("__rand__", "LogicalAnd", True),
    ("__or__", "LogicalOr", False),
    ("__ror__", "LogicalOr", True),
):
    setattr(GraphTensor, _dunder, _graph_operator(_name, reflected=_refl))
GraphTensor.__neg__ = _graph_operator("Neg")  # type: ignore[attr-defined]
GraphTensor.__abs__ = _graph_operator("Abs")  # type: ignore[attr-defined]
GraphTensor.__invert__ = _graph_operator("LogicalNot")  # type: ignore[attr-defined]
GraphTensor.__truediv__ = lambda self, other: _graph_truediv(self, other)  # type: ignore[attr-defined]
GraphTensor.__rtruediv__ = lambda self, other: _graph_truediv(other, self)  # type: ignore[attr-defined]
del _dunder, _name, _refl


# ---------------------------------------------------------------------------
# Graph


class Graph:
    """Owns a ``TF_Graph*``; ``with Graph() as g:`` makes it the default."""

    def __init__(self) -> None:
        self._ptr: CData = ffi.NULL
        ptr = lib.TF_NewGraph()
        if ptr == ffi.NULL:
            raise errors.out_of_memory("TF_NewGraph returned NULL")
        self._ptr = ptr
        self._lock = threading.RLock()
        self._ops: dict[int, Operation] = {}
        self._names: dict[str, int] = {}  # lower-cased names and scopes in use
        self._scope = ""  # current name scope, "" or "a/b/"
        self._control: list[Operation] = []  # control_dependencies() in force
        # GraphTensor -> (dtype, numpy dtype, static shape) of fed tensors
        # (tfe_py.session); cleared when set_shape changes a shape.
        self._feed_cache: dict[Any, Any] = {}

    # -- lifetime ---------------------------------------------------------

    @property
    def ptr(self) -> CData:
        """The ``TF_Graph*`` (borrowed). ValueError once closed."""
        if not self._ptr:
            raise ValueError("the graph is closed")
        return self._ptr

    def close(self) -> None:
        """Deletes the C graph (a session still holding it keeps it alive in
        C). Operations and tensors of this graph must not be used after."""
        ptr, self._ptr = self._ptr, ffi.NULL
        if ptr:
            self._ops.clear()
            lib.TF_DeleteGraph(ptr)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    @contextlib.contextmanager
    def as_default(self) -> Iterator[Graph]:
        """Makes this the calling thread's default graph for the block."""
        self.ptr  # noqa: B018 - raises ValueError on a closed graph
        _push_graph(self)
        try:
            yield self
        finally:
            _pop_graph()

    def __enter__(self) -> Graph:
        self.ptr  # noqa: B018
        _push_graph(self)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        _pop_graph()

    def __repr__(self) -> str:
        return "<tfe_py.Graph (closed)>" if not self._ptr else f"<tfe_py.Graph {id(self):#x}>"

    # -- names ------------------------------------------------------------

    def unique_name(self, name: str, mark_as_used: bool = True) -> str:
        """``name`` under the current name scope, made unique as TF does
        (``x``, ``x_1``, ``x_2`` ...)."""
        if self._scope:
            name = self._scope + name
        key = name.lower()
        with self._lock:
            i = self._names.get(key, 0)
            if mark_as_used:
                self._names[key] = i + 1
            if i > 0 or self._exists(name):
                base = name
                if i == 0:
                    i = 1
                while True:
                    name = f"{base}_{i}"
                    if name.lower() not in self._names and not self._exists(name):
                        break
                    i += 1
                if mark_as_used:
                    self._names[key] = i + 1
                    self._names[name.lower()] = 1
        return name

    def _exists(self, name: str) -> bool:
        return lib.TF_GraphOperationByName(self.ptr, name.encode("utf-8")) != ffi.NULL

    @contextlib.contextmanager
    def name_scope(self, name: str | None) -> Iterator[str]:
        """Prefixes the names of the ops made in the block with ``name/``
        (made unique; a name ending in "/" is used as is; None or "" clears
        the scope)."""
        old = self._scope
        if not name:
            new = ""
        elif name.endswith("/"):
            if not _VALID_SCOPE.match(name):
                raise ValueError(f"'{name}' is not a valid scope name")
            new = name
        else:
            if not _VALID_SCOPE.match(name):
                raise ValueError(f"'{name}' is not a valid scope name")
            new = self.unique_name(name) + "/"
        self._scope = new
        try:
            yield new
        finally:
            self._scope = old

    @contextlib.contextmanager
    def device(self, name: str | bytes | None) -> Iterator[None]:
        """Ops made in the block request device ``name`` (None clears an
        enclosing request); the same as ``with ctx.device(name):``."""
        raw = _device_bytes(name)
        _push(_state.ctx, raw)  # type: ignore[arg-type]
        try:
            yield
        finally:
            _pop()

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs: Iterable[Any] | None) -> Iterator[None]:
        """Ops made in the block run after ``control_inputs`` (operations or
        tensors); None clears the enclosing dependencies."""
        old = self._control
        if control_inputs is None:
            new: list[Operation] = []
        else:
            new = list(old)
            for c in control_inputs:
                op = c.op if isinstance(c, GraphTensor) else c
                if not isinstance(op, Operation):
                    raise TypeError(
                        f"Can not convert a {type(c).__name__} into an Operation or a Tensor"
                    )
                if op._graph is not self:
                    raise ValueError(f"{op.name} is not an element of this graph")
                if op not in new:
                    new.append(op)
        self._control = new
        try:
            yield
        finally:
            self._control = old

    # -- lookup -----------------------------------------------------------

    def _wrap_op(self, ptr: CData) -> Operation:
        key = int(ffi.cast("uintptr_t", ptr))
        op = self._ops.get(key)
        if op is None:
            op = Operation(ptr, self)
            self._ops[key] = op
        return op

    @property
    def operations(self) -> list[Operation]:
        """Every operation, in the order they were added."""
        return self.get_operations()

    def get_operations(self) -> list[Operation]:
        out: list[Operation] = []
        pos = ffi.new("size_t*", 0)
        g = self.ptr
        while True:
            p = lib.TF_GraphNextOperation(g, pos)
            if p == ffi.NULL:
                return out
            out.append(self._wrap_op(p))

    def get_operation_by_name(self, name: str) -> Operation:
        """The operation ``name``; KeyError if there is none (TF's message)."""
        if not isinstance(name, str):
            raise TypeError(f"Operation names are strings (or similar), not {type(name).__name__}")
        if ":" in name:
            raise ValueError(f"Name '{name}' appears to refer to a Tensor, not a Operation.")
        p = lib.TF_GraphOperationByName(self.ptr, name.encode("utf-8"))
        if p == ffi.NULL:
            raise KeyError(f"The name '{name}' refers to an Operation not in the graph.")
        return self._wrap_op(p)

    def get_tensor_by_name(self, name: str) -> GraphTensor:
        """The tensor ``"op:index"``; ValueError for a name without an
        index, KeyError for a missing op or output (TF's messages)."""
        if not isinstance(name, str):
            raise TypeError(f"Tensor names are strings (or similar), not {type(name).__name__}")
        op_name, sep, index = name.rpartition(":")
        if not sep or not index.isdigit():
            raise ValueError(
                f"The name '{name}' looks a like an Operation name, not a Tensor. "
                'Tensor names must be of the form "<op_name>:<output_index>".'
            )
        p = lib.TF_GraphOperationByName(self.ptr, op_name.encode("utf-8"))
        if p == ffi.NULL:
            raise KeyError(
                f"The name '{name}' refers to a Tensor which does not exist. "
                f"The operation, '{op_name}', does not exist in the graph."
            )
        op = self._wrap_op(p)
        i = int(index)
        if i >= op.num_outputs:
            raise KeyError(
                f"The name '{name}' refers to a Tensor which does not exist. The operation, "
                f"'{op_name}', exists but only has {op.num_outputs} outputs."
            )
        return GraphTensor(op, i)

    def as_graph_element(
        self, obj: Any, allow_tensor: bool = True, allow_operation: bool = True
    ) -> Any:
        """A GraphTensor or Operation of this graph for ``obj`` (one of them
        or a name), as TF's ``Graph.as_graph_element``."""
        if isinstance(obj, GraphTensor):
            if obj.graph is not self:
                raise ValueError(f"Tensor {obj.name} is not an element of this graph.")
            if not allow_tensor:
                raise TypeError(f"Can not convert a Tensor into a Operation: {obj.name}")
            return obj
        if isinstance(obj, Operation):
            if obj.graph is not self:
                raise ValueError(f"Operation {obj.name} is not an element of this graph.")
            if not allow_operation:
                raise TypeError(f"Can not convert a Operation into a Tensor: {obj.name}")
            return obj
        if isinstance(obj, str):
            if ":" in obj and allow_tensor:
                return self.get_tensor_by_name(obj)
            if ":" not in obj and allow_operation:
                return self.get_operation_by_name(obj)
            if ":" not in obj:
                if lib.TF_GraphOperationByName(self.ptr, obj.encode("utf-8")) != ffi.NULL:
                    raise ValueError(
                        f"The name '{obj}' refers to an Operation, not a Tensor. Tensor names "
                        'must be of the form "<op_name>:<output_index>".'
                    )
                raise KeyError(f"The name '{obj}' refers to an Operation not in the graph.")
            raise ValueError(f"The name '{obj}' appears to refer to a Tensor, not a Operation.")
        raise TypeError(f"Can not convert a {type(obj).__name__} into a Tensor or Operation.")

    # -- serialization ----------------------------------------------------

    def as_graph_def(self) -> bytes:
        """The serialized GraphDef (TF_GraphToGraphDef)."""
        buf = lib.TF_NewBuffer()
        if buf == ffi.NULL:
            raise errors.out_of_memory("TF_NewBuffer returned NULL")
        try:
            with status() as s:
                lib.TF_GraphToGraphDef(self.ptr, buf, s)
            return _opgen._buffer_bytes(buf)
        finally:
            lib.TF_DeleteBuffer(buf)

    def import_graph_def(
        self,
        graph_def: bytes,
        name: str | None = "import",
        input_map: Mapping[str, Any] | None = None,
        return_elements: Sequence[str] | None = None,
    ) -> list[Any] | None:
        """Imports a serialized GraphDef into this graph.

        ``name`` prefixes the imported names (made unique as a name scope;
        "" or None: no prefix), ``input_map`` maps ``"name:index"`` tensors
        of ``graph_def`` to tensors of this graph, and ``return_elements``
        names tensors ("x:0") and operations ("x") to return, in order.
        Returns None without ``return_elements``, as ``tf.import_graph_def``.
        """
        if isinstance(graph_def, (bytearray, memoryview)):
            graph_def = bytes(graph_def)
        if not isinstance(graph_def, bytes):
            if hasattr(graph_def, "SerializeToString"):
                graph_def = graph_def.SerializeToString()
            else:
                raise TypeError(
                    "graph_def must be the serialized GraphDef (bytes), got "
                    f"{type(graph_def).__name__}"
                )
        prefix = ""
        if name:
            if not _VALID_SCOPE.match(name):
                raise ValueError(f"'{name}' is not a valid scope name")
            prefix = self.unique_name(name.rstrip("/"))
        opts = lib.TF_NewImportGraphDefOptions()
        if opts == ffi.NULL:
            raise errors.out_of_memory("TF_NewImportGraphDefOptions returned NULL")
        keep: list[Any] = []
        wanted: list[tuple[str, str, int]] = []  # ("t"/"o", name, index)
        try:
            lib.TF_ImportGraphDefOptionsSetPrefix(opts, prefix.encode("utf-8"))
            for key, value in (input_map or {}).items():
                if not isinstance(key, str):
                    raise TypeError(f"input_map keys must be tensor names, got {key!r}")
                src, sep, idx = key.rpartition(":")
                if not sep or not idx.isdigit():
                    src, idx = key, "0"
                dst = self._as_tensor_here(value)
                raw = src.encode("utf-8")
                keep.append(raw)
                dst_out = dst._as_output()
                keep.append(dst_out)
                lib.TF_ImportGraphDefOptionsAddInputMapping(opts, raw, int(idx), dst_out[0])
            for el in return_elements or ():
                if not isinstance(el, str):
                    raise TypeError(f"return_elements must be names, got {el!r}")
                raw = el.rpartition(":")[0] if ":" in el else el
                if ":" in el:
                    idx_text = el.rpartition(":")[2]
                    if not idx_text.isdigit():
                        raise ValueError(f"bad tensor name in return_elements: {el!r}")
                    b = raw.encode("utf-8")
                    keep.append(b)
                    lib.TF_ImportGraphDefOptionsAddReturnOutput(opts, b, int(idx_text))
                    wanted.append(("t", raw, int(idx_text)))
                else:
                    b = raw.encode("utf-8")
                    keep.append(b)
                    lib.TF_ImportGraphDefOptionsAddReturnOperation(opts, b)
                    wanted.append(("o", raw, 0))
            buf = lib.TF_NewBufferFromString(graph_def, len(graph_def))
            if buf == ffi.NULL:
                raise errors.out_of_memory("TF_NewBufferFromString returned NULL")
            try:
                with status() as s:
                    results = lib.TF_GraphImportGraphDefWithResults(self.ptr, buf, opts, s)
            finally:
                lib.TF_DeleteBuffer(buf)
        finally:
            lib.TF_DeleteImportGraphDefOptions(opts)
        try:
            if return_elements is None:
                return None
            n_out = ffi.new("int*")
            outs = ffi.new("TF_Output**")
            lib.TF_ImportGraphDefResultsReturnOutputs(results, n_out, outs)
            n_op = ffi.new("int*")
            opers = ffi.new("TF_Operation***")
            lib.TF_ImportGraphDefResultsReturnOperations(results, n_op, opers)
            tensors = [
                GraphTensor(self._wrap_op(outs[0][i].oper), int(outs[0][i].index))
                for i in range(n_out[0])
            ]
            operations = [self._wrap_op(opers[0][i]) for i in range(n_op[0])]
            found: list[Any] = []
            ti = oi = 0
            for kind, _, _ in wanted:
                if kind == "t":
                    found.append(tensors[ti])
                    ti += 1
                else:
                    found.append(operations[oi])
                    oi += 1
            return found
        finally:
            lib.TF_DeleteImportGraphDefResults(results)

    def _as_tensor_here(self, value: Any) -> GraphTensor:
        if isinstance(value, GraphTensor):
            if value.graph is not self:
                raise ValueError(f"Tensor {value.name} is not an element of this graph.")
            return value
        if isinstance(value, str):
            return self.get_tensor_by_name(value)
        with self.as_default():
            t = convert_to_tensor(value)
        assert isinstance(t, GraphTensor)
        return t

    # -- building ---------------------------------------------------------

    def _capture(self, value: Any) -> GraphTensor:
        """What an input from outside this graph becomes here: a Const for
        an EagerTensor; tensors of other graphs are refused (TF's rule).
        tfe_py.function's FuncGraph captures instead."""
        if isinstance(value, GraphTensor):
            raise ValueError(
                f"Tensor {value.name} must be from the same graph as the op that uses it"
            )
        assert isinstance(value, EagerTensor)
        dt = int(value.dtype)
        if dt in (_TF_RESOURCE, _TF_VARIANT):
            raise TypeError(
                f"an EagerTensor of dtype {value.dtype.name} cannot become a constant of a "
                "graph; use it inside a tfe_py.function, which captures it"
            )
        return _make_const(self, tensor_from_value(value), dt, "Const", None)

    def _before_finish(self, desc: CData, op_def: _opgen.OpDef) -> None:
        """Hook for FuncGraph (automatic control dependencies)."""

    def _after_finish(self, op: Operation, op_def: _opgen.OpDef | None) -> None:
        """Hook for FuncGraph (automatic control dependencies)."""


# ---------------------------------------------------------------------------
# Adding operations


def get_default_graph() -> Graph | None:
    """The calling thread's default graph, or None when ops run eagerly."""
    return _state.graph


def _scope_device(device: Any, scope: GraphScope) -> bytes | None:
    if device is not None:
        return _device_bytes(device)
    return scope.device


def _make_const(
    g: Graph, tensor: CData, tf_dtype: int, name: str | None, device: bytes | None
) -> GraphTensor:
    """A Const node holding ``tensor`` (consumed)."""
    try:
        node = g.unique_name(name or "Const")
        s = lib.TF_NewStatus()
        if s == ffi.NULL:
            raise errors.out_of_memory("TF_NewStatus returned NULL")
        try:
            desc = lib.TF_NewOperation(g.ptr, b"Const", node.encode("utf-8"))
            if desc == ffi.NULL:
                raise errors.out_of_memory("TF_NewOperation returned NULL")
            if device:
                lib.TF_SetDevice(desc, device)
            lib.TF_SetAttrTensor(desc, b"value", tensor, s)
            lib.TF_SetAttrType(desc, b"dtype", tf_dtype)
            _add_control_inputs(g, desc)
            oper = _finish(desc, s)
        finally:
            lib.TF_DeleteStatus(s)
    finally:
        lib.TF_DeleteTensor(tensor)
    op = g._wrap_op(oper)
    g._after_finish(op, None)
    return GraphTensor(op, 0)


def _finish(desc: CData, s: CData) -> CData:
    """TF_FinishOperation, raising its error. A setter that failed before
    left ``s`` set: the description is still finished (that frees it) and
    the first error is the one raised."""
    if lib.TF_GetCode(s) == errors.OK:
        oper = lib.TF_FinishOperation(desc, s)
    else:
        s2 = lib.TF_NewStatus()
        lib.TF_FinishOperation(desc, s2 if s2 != ffi.NULL else s)
        if s2 != ffi.NULL:
            lib.TF_DeleteStatus(s2)
        oper = ffi.NULL
    errors.check(s)
    return oper


def _add_control_inputs(g: Graph, desc: CData) -> None:
    for c in g._control:
        lib.TF_AddControlInput(desc, c._ptr)


def _input_dtype_of(item: Any) -> int | None:
    if isinstance(item, GraphTensor):
        return int(item.dtype)
    if isinstance(item, EagerTensor) and item._h:
        return int(item.dtype)
    return None


def _group_dtype(
    op: _opgen.OpDef, type_attr: str, values: Sequence[Any], explicit: dict[str, Any]
) -> int | None:
    """As eager's rule: the attr's explicit value, else the dtype of the
    first tensor among the inputs that use it, else None (infer)."""
    if type_attr in explicit:
        v = explicit[type_attr]
        try:
            return as_dtype(v)
        except (TypeError, ValueError):
            _opgen._need(False, op, op.attr_map[type_attr], v, "a dtype")
    for idx in op.type_attr_inputs.get(type_attr, ()):
        v = values[idx]
        items = v if op.inputs[idx].is_list and isinstance(v, (list, tuple)) else (v,)
        for item in items:
            dt = _input_dtype_of(item)
            if dt is not None:
                return dt
    return None


def _to_graph_tensor(g: Graph, value: Any, want: int | None, device: bytes | None) -> GraphTensor:
    if isinstance(value, GraphTensor):
        if value.graph is g:
            return value
        return g._capture(value)
    if isinstance(value, EagerTensor):
        if not value._h:
            raise ValueError("the tensor is closed")
        return g._capture(value)
    if isinstance(value, Operation):
        raise TypeError(f"an Operation ({value.name}) cannot be an op input; use its outputs")
    dense = getattr(type(value), "_tfe_dense_tensor_", None)
    if dense is not None:  # a Variable: read it in this graph
        with g.as_default():
            return _to_graph_tensor(g, dense(value), want, device)
    tensor = tensor_from_value(value, want)
    dt = int(lib.TF_TensorType(tensor))
    return _make_const(g, tensor, dt, "Const", device)


def _gather(
    g: Graph,
    op: _opgen.OpDef,
    values: Sequence[Any],
    explicit: dict[str, Any],
    device: bytes | None,
) -> list[GraphTensor | list[GraphTensor]]:
    out: list[GraphTensor | list[GraphTensor]] = []
    group: dict[str, int] = {}
    for idx, arg in enumerate(op.inputs):
        v = values[idx]
        if arg.is_list:
            if not isinstance(v, (list, tuple)):
                raise TypeError(
                    f"{op.name}: input '{arg.py_name}' expects a list of tensors, "
                    f"got {type(v).__name__}"
                )
            items = list(v)
        else:
            items = [v]
        got: list[GraphTensor] = []
        for k, item in enumerate(items):
            want: int | None = None
            if not isinstance(item, (GraphTensor, EagerTensor)):
                if arg.fixed_type is not None:
                    want = arg.fixed_type
                elif arg.type_attr is not None:
                    if arg.type_attr not in group:
                        dt = _group_dtype(op, arg.type_attr, values, explicit)
                        if dt is not None:
                            group[arg.type_attr] = dt
                    want = group.get(arg.type_attr)
                elif arg.type_list_attr is not None and arg.type_list_attr in explicit:
                    types = explicit[arg.type_list_attr]
                    if not isinstance(types, (list, tuple)):
                        _opgen._need(
                            False, op, op.attr_map[arg.type_list_attr], types, "a list of dtypes"
                        )
                    want = as_dtype(types[k]) if k < len(types) else None
            try:
                t = _to_graph_tensor(g, item, want, device)
            except (TypeError, ValueError) as exc:
                where = f"input '{arg.py_name}'" + (f"[{k}]" if arg.is_list else "")
                raise type(exc)(f"{op.name}: {where} (#{idx}): {exc}") from exc
            if arg.type_attr is not None and arg.type_attr not in group:
                group[arg.type_attr] = int(t.dtype)
            got.append(t)
        out.append(got if arg.is_list else got[0])
    return out


def _proto_varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _proto_field(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field."""
    return _proto_varint(number << 3 | 2) + _proto_varint(len(payload)) + payload


def _func_list_attr_proto(names: Sequence[bytes]) -> bytes:
    """A serialized AttrValue holding a list of functions by name
    (AttrValue.list = 1, ListValue.func = 9, NameAttrList.name = 1): the C
    API has no setter for a list(func) attr but TF_SetAttrValueProto."""
    funcs = b"".join(_proto_field(9, _proto_field(1, n)) for n in names)
    return _proto_field(1, funcs)


def _apply_blob(desc: CData, blob: bytes, s: CData) -> None:
    """Sets the attrs packed by tfe_py._opgen (format of _fast.h) on a
    graph operation description: the same values eager would set."""
    pos = 0
    n = len(blob)
    while pos < n:
        kind = chr(blob[pos])
        (nlen,) = struct.unpack_from("=H", blob, pos + 1)
        pos += 3
        name = blob[pos : pos + nlen]
        pos += nlen
        if kind == "b":
            lib.TF_SetAttrBool(desc, name, blob[pos])
            pos += 1
        elif kind == "i":
            (v,) = struct.unpack_from("=q", blob, pos)
            lib.TF_SetAttrInt(desc, name, v)
            pos += 8
        elif kind == "f":
            (f,) = struct.unpack_from("=d", blob, pos)
            lib.TF_SetAttrFloat(desc, name, f)
            pos += 8
        elif kind in "sn":
            (ln,) = struct.unpack_from("=I", blob, pos)
            pos += 4
            raw = blob[pos : pos + ln]
            pos += ln
            if kind == "s":
                lib.TF_SetAttrString(desc, name, raw, ln)
            else:
                lib.TF_SetAttrFuncName(desc, name, raw, ln)
        elif kind == "t":
            (t,) = struct.unpack_from("=i", blob, pos)
            lib.TF_SetAttrType(desc, name, t)
            pos += 4
        elif kind == "S":
            (nd,) = struct.unpack_from("=i", blob, pos)
            dims = struct.unpack_from(f"={nd}q", blob, pos + 4)
            pos += 4 + 8 * nd
            lib.TF_SetAttrShape(
                desc, name, ffi.new("int64_t[]", list(dims)) if nd else ffi.NULL, nd
            )
        elif kind == "X":
            (addr,) = struct.unpack_from("=Q", blob, pos)
            pos += 8
            lib.TF_SetAttrTensor(desc, name, ffi.cast("TF_Tensor*", addr), s)
        else:  # lists
            (cnt,) = struct.unpack_from("=I", blob, pos)
            pos += 4
            if kind == "B":
                vals = list(blob[pos : pos + cnt])
                pos += cnt
                lib.TF_SetAttrBoolList(desc, name, ffi.new("unsigned char[]", vals or [0]), cnt)
            elif kind == "I":
                ints = struct.unpack_from(f"={cnt}q", blob, pos)
                pos += 8 * cnt
                lib.TF_SetAttrIntList(desc, name, ffi.new("int64_t[]", list(ints) or [0]), cnt)
            elif kind == "F":
                fl = struct.unpack_from(f"={cnt}d", blob, pos)
                pos += 8 * cnt
                lib.TF_SetAttrFloatList(desc, name, ffi.new("float[]", list(fl) or [0]), cnt)
            elif kind == "T":
                ts = struct.unpack_from(f"={cnt}i", blob, pos)
                pos += 4 * cnt
                lib.TF_SetAttrTypeList(desc, name, ffi.new("TF_DataType[]", list(ts) or [0]), cnt)
            elif kind == "L":
                items: list[bytes] = []
                for _ in range(cnt):
                    (ln,) = struct.unpack_from("=I", blob, pos)
                    pos += 4
                    items.append(blob[pos : pos + ln])
                    pos += ln
                keep = [ffi.new("char[]", x) for x in items]
                ptrs = ffi.new("void*[]", [ffi.cast("void*", k) for k in keep] or [ffi.NULL])
                lens = ffi.new("size_t[]", [len(x) for x in items] or [0])
                lib.TF_SetAttrStringList(desc, name, ptrs, lens, cnt)
            elif kind == "N":
                names: list[bytes] = []
                for _ in range(cnt):
                    (ln,) = struct.unpack_from("=I", blob, pos)
                    pos += 4
                    names.append(blob[pos : pos + ln])
                    pos += ln
                proto = _func_list_attr_proto(names)
                lib.TF_SetAttrValueProto(desc, name, proto, len(proto), s)
            elif kind == "P":
                shapes: list[tuple[int, ...]] = []
                for _ in range(cnt):
                    (nd,) = struct.unpack_from("=i", blob, pos)
                    shapes.append(struct.unpack_from(f"={nd}q", blob, pos + 4))
                    pos += 4 + 8 * nd
                keep_arrs = [ffi.new("int64_t[]", list(d) or [0]) for d in shapes]
                dims_arr = ffi.new("int64_t*[]", keep_arrs or [ffi.NULL])
                nds = ffi.new("int[]", [len(d) for d in shapes] or [0])
                lib.TF_SetAttrShapeList(desc, name, dims_arr, nds, cnt)
            else:  # pragma: no cover - _opgen writes only the kinds above
                raise ValueError(f"unknown attr kind {kind!r} in the attr blob")


def add_op(
    op: _opgen.OpDef,
    inputs: Sequence[Any],
    attrs: tuple[Any, ...],
    device: Any,
    name: Any,
    scope: GraphScope,
) -> Any:
    """Adds op ``op`` to ``scope.graph`` (called by the generated wrappers
    while a graph is the default) and returns its outputs shaped as eager
    returns them (a GraphTensor, a list, a namedtuple), or the Operation
    for an op without outputs."""
    g: Graph = scope.graph
    dev = _scope_device(device, scope)
    explicit: dict[str, Any] = {
        a.name: x for a, x in zip(op.attrs, attrs, strict=True) if x is not None
    }
    if name is not None and not isinstance(name, str):
        raise TypeError(f"{op.name}: name must be a str, got {type(name).__name__}")
    if name and not _VALID_NAME.match(name):
        raise ValueError(f"'{name}' is not a valid node name")
    short = _opgen._short_list_error(op, inputs)
    if short is not None:
        raise short
    # Everything that can fail in Python happens before TF_NewOperation: a
    # description cannot be abandoned, only finished.
    # Attrs before inputs: a bad attr then leaves no Const behind.
    keep: list[Any] = []
    blob = _opgen._attr_blob(op, attrs, keep) if explicit else b""
    gathered = _gather(g, op, inputs, explicit, dev)
    node = g.unique_name(name or op.name)
    arrays: list[CData] = []
    for item in gathered:
        if isinstance(item, list):
            arrays.append(_outputs_array(item))
    s = lib.TF_NewStatus()
    if s == ffi.NULL:
        raise errors.out_of_memory("TF_NewStatus returned NULL")
    desc = lib.TF_NewOperation(g.ptr, op.name_bytes, node.encode("utf-8"))
    if desc == ffi.NULL:
        lib.TF_DeleteStatus(s)
        raise errors.out_of_memory("TF_NewOperation returned NULL")
    try:
        if dev:
            lib.TF_SetDevice(desc, dev)
        # Attrs first, as eager: an attr keeps the first value it gets.
        _apply_blob(desc, blob, s)
        k = 0
        for item in gathered:
            if isinstance(item, list):
                lib.TF_AddInputList(desc, arrays[k], len(item))
                k += 1
            else:
                out = item._as_output()
                lib.TF_AddInput(desc, out[0])
        _add_control_inputs(g, desc)
        g._before_finish(desc, op)
        oper = _finish(desc, s)
    finally:
        lib.TF_DeleteStatus(s)
        del keep
    operation = g._wrap_op(oper)
    g._after_finish(operation, op)
    n = int(lib.TF_OperationNumOutputs(oper))
    if not op.outputs:
        return operation
    tensors = [GraphTensor(operation, i) for i in range(n)]
    lengths: list[int | None] = []
    for arg in op.outputs:
        if arg.is_list:
            with status() as st:
                lengths.append(
                    int(lib.TF_OperationOutputListLength(oper, arg.name.encode("utf-8"), st))
                )
        else:
            lengths.append(1)
    return _opgen._pack(op, tensors, lengths)


# ---------------------------------------------------------------------------
# Public helpers


def constant(value: Any, dtype: Any = None, shape: Any = None, name: str | None = "Const") -> Any:
    """``tf.constant``: an EagerTensor when ops run eagerly; inside a graph,
    a Const node (a GraphTensor) named ``name`` with the same dtype rules.

    ``shape`` reshapes the value to that shape when the element counts
    agree and fills the shape with a single value (scalar or one element);
    anything else is TF's TypeError.
    """
    st = _state
    if st.graph is None:
        if isinstance(value, EagerTensor) and dtype is not None and as_dtype(dtype) != value.dtype:
            raise TypeError(
                f"Expected tensor {value} with dtype {as_dtype(dtype)!r}, "
                f"but got dtype {value.dtype!r}."
            )
        t = _eager_constant(value, dtype)
        return t if shape is None else _eager_shaped(t, value, shape)
    g: Graph = st.graph
    if isinstance(value, GraphTensor):
        raise TypeError("tfe_py.constant needs a value, not a symbolic GraphTensor")
    if name is not None and not _VALID_NAME.match(name):
        raise ValueError(f"'{name}' is not a valid node name")
    if shape is not None:
        value, dtype = _graph_shaped(value, dtype, shape)
    tensor = tensor_from_value(value, dtype)
    dt = int(lib.TF_TensorType(tensor))
    return _make_const(g, tensor, dt, name, st.device)


def _eager_shaped(t: EagerTensor, value: Any, shape: Any) -> EagerTensor:
    """tf.constant's ``shape`` in eager mode, by TF's rules: same count ->
    Reshape; one element -> Fill; else TypeError."""
    ts = TensorShape(shape)
    if ts == t.shape:
        return t
    if not ts.is_fully_defined():
        raise ValueError(
            "Attempt to convert a value (None) with an unsupported type "
            "(<class 'NoneType'>) to a Tensor."
        )
    num_t = t.shape.num_elements()
    want = ts.num_elements()
    dims = [int(d) for d in ts]  # type: ignore[arg-type]
    if num_t == want:
        out = _opgen.wrapper("Reshape")(t, dims)
    elif num_t == 1:
        out = _opgen.wrapper("Fill")(dims, t)
    else:
        raise TypeError(
            "Eager execution of tf.constant with unsupported shape. Tensor "
            f"{t} (converted from {value}) has {num_t:d} elements, but got `shape` "
            f"{ts} with {want} elements)."
        )
    assert isinstance(out, EagerTensor)
    return out


def _graph_shaped(value: Any, dtype: Any, shape: Any) -> tuple[np.ndarray, int]:
    """(array, dtype) of tf.constant's value reshaped (same count) or
    broadcast (a scalar or one element) to ``shape`` for a Const node."""
    if isinstance(value, EagerTensor):
        if dtype is not None and as_dtype(dtype) != value.dtype:
            raise TypeError(
                f"Expected tensor {value} with dtype {as_dtype(dtype)!r}, "
                f"but got dtype {value.dtype!r}."
            )
        arr, tf_dtype = np.asarray(value.numpy()), int(value.dtype)
    elif dtype is None:
        arr, tf_dtype = _infer(value)
    else:
        tf_dtype = as_dtype(dtype)
        arr = _array_for(value, tf_dtype)
    dims = [int(d) for d in shape]
    count = int(np.prod(dims, dtype=np.int64))
    if arr.shape in ((1,), ()):
        arr = np.broadcast_to(arr.reshape(()), dims)
    elif arr.size != count:
        raise TypeError(f"Expected Tensor's shape: {tuple(dims)}, but got {arr.shape}.")
    else:
        arr = arr.reshape(dims)
    return np.ascontiguousarray(arr), tf_dtype


def convert_to_tensor(
    value: Any, dtype: Any = None, dtype_hint: Any = None, name: str | None = None
) -> Any:
    """``value`` if it already is a tensor of the current mode (EagerTensor
    eagerly, a GraphTensor of the default graph inside one), else
    ``constant(value, dtype)``. A tensor of another dtype than ``dtype`` is
    TF's ValueError. ``dtype_hint`` is the dtype to try first for a Python
    value when ``dtype`` is None (the value's own is used when it does not
    convert)."""
    dense = getattr(type(value), "_tfe_dense_tensor_", None)
    if dense is not None:  # a Variable: its value, read now (recorded on tapes)
        value = dense(value)
    if dtype is None and dtype_hint is not None and not isinstance(value, Tensor):
        try:
            return convert_to_tensor(value, dtype_hint, name=name)
        except (TypeError, ValueError):
            pass
    st = _state
    if isinstance(value, GraphTensor) and (st.graph is None or value.graph is st.graph):
        if dtype is not None and as_dtype(dtype) != value.dtype:
            raise ValueError(
                f"Tensor conversion requested dtype {dtypes.name(as_dtype(dtype))} for "
                f"Tensor with dtype {value.dtype.name}: {value!r}"
            )
        return value
    if st.graph is None:
        if isinstance(value, EagerTensor):
            if dtype is not None and as_dtype(dtype) != value.dtype:
                raise ValueError(
                    f"Tensor conversion requested dtype {dtypes.name(as_dtype(dtype))} for "
                    f"Tensor with dtype {value.dtype.name}: {value!r}"
                )
            return value
        if isinstance(value, (list, tuple)) and _has_tensor(value):
            return _eager_autopack(value, dtype)
        return _eager_constant(value, dtype)
    g: Graph = st.graph
    if isinstance(value, (list, tuple)) and _has_tensor(value):
        return _graph_autopack(value, dtype, name)
    if isinstance(value, (EagerTensor, GraphTensor)):
        t = _to_graph_tensor(g, value, None, st.device)
        if dtype is not None and as_dtype(dtype) != t.dtype:
            raise ValueError(
                f"Tensor conversion requested dtype {dtypes.name(as_dtype(dtype))} for "
                f"Tensor with dtype {t.dtype.name}: {t!r}"
            )
        return t
    return constant(value, dtype, name=name or "Const")


def _has_tensor(value: list[Any] | tuple[Any, ...]) -> bool:
    """Whether a (nested) list holds a tensor anywhere."""
    for v in value:
        if isinstance(v, Tensor):
            return True
        if isinstance(v, (list, tuple)) and _has_tensor(v):
            return True
    return False


def _first_tensor(value: Any) -> Any:
    for v in value:
        if isinstance(v, Tensor):
            return v
        if isinstance(v, (list, tuple)):
            t = _first_tensor(v)
            if t is not None:
                return t
    return None


def _numpy_leaves(value: Any) -> Any:
    """The nested list with every eager tensor replaced by its value."""
    if isinstance(value, (list, tuple)):
        return [_numpy_leaves(v) for v in value]
    if isinstance(value, EagerTensor):
        return np.asarray(value.numpy())
    return value


def _eager_autopack(value: list[Any] | tuple[Any, ...], dtype: Any) -> EagerTensor:
    """A list mixing eager tensors and Python values, as TF converts it:
    of ``dtype``, else of the first tensor's dtype (not numpy's promotion)."""
    want = as_dtype(dtype) if dtype is not None else _first_tensor(value).dtype
    return _eager_constant(_numpy_leaves(value), want)


def _graph_autopack(value: list[Any] | tuple[Any, ...], dtype: Any, name: str | None) -> Any:
    """A list holding graph tensors becomes one Pack of its elements (nested
    lists packed the same way), all of ``dtype`` or the first tensor's: TF's
    autopacking (``tf.reshape(x, [tf.shape(x)[0], -1])``)."""
    first = _first_tensor(value).dtype
    want = as_dtype(dtype) if dtype is not None else first
    items = []
    for v in value:
        if isinstance(v, Tensor):
            t = convert_to_tensor(v)
            if want != first and t.dtype != want:
                # An explicit dtype other than the tensors' casts them (TF).
                t = _opgen.wrapper("Cast")(t, DstT=want)
            if t.dtype != want:
                raise TypeError(
                    f"Cannot convert a list containing a tensor of dtype {t.dtype.name} to "
                    f"{want.name} (Tensor is: {t!r})"
                )
            items.append(t)
        else:
            items.append(convert_to_tensor(v, want))
    return _opgen.wrapper("Pack")(items, axis=0, name=name)


def placeholder(
    dtype: Any, shape: Sequence[int | None] | None = None, name: str | None = None
) -> GraphTensor:
    """A ``Placeholder`` of the default graph, fed through ``Session.run``'s
    ``feed_dict``. ``shape`` None means any shape; a dimension None any
    size. RuntimeError when no graph is the default (as TF in eager mode)."""
    if _state.graph is None:
        raise RuntimeError(
            "tfe_py.placeholder() is not compatible with eager execution: "
            "call it inside `with tfe_py.Graph():`"
        )
    fn = _opgen.wrapper("Placeholder")
    dt = as_dtype(dtype)
    if shape is None:
        out = fn(dtype=dt, name=name)
    else:
        out = fn(dtype=dt, shape=tuple(shape), name=name)
    assert isinstance(out, GraphTensor)
    return out
