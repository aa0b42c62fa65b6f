"""Loading and serving SavedModels (``tfe_py.saved_model``).

``load(path)`` runs ``TF_LoadSessionFromSavedModel``: it imports the
MetaGraph that matches the tags into a new :class:`tfe_py.Graph`, makes a
:class:`tfe_py.Session` on it, restores the variables and runs the init op.
The returned :class:`SavedModel` owns both; its ``signatures`` call the
model by the tensor names the MetaGraph's SignatureDefs give::

    m = tfe_py.saved_model.load("/models/mlp")
    out = m.signatures["serving_default"](x=np.ones((1, 16), np.float32))
    out["output_0"]                      # a numpy array

A path may use any registered filesystem scheme (``ram://``, a plugin's).
Errors are the :mod:`tfe_py.errors` classes: NotFoundError for a missing
model or tag set, InvalidArgumentError for bad inputs, and so on.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, NamedTuple

from tfe_py import errors
from tfe_py._ffi import CData, ffi, lib
from tfe_py.eager import DType
from tfe_py.errors import status
from tfe_py.graph import Graph, GraphTensor
from tfe_py.session import Session

__all__ = [
    "INIT_OP_SIGNATURE_KEY",
    "SavedModel",
    "Signature",
    "TensorInfo",
    "load",
    "model_ops",
    "read_meta_graphs",
    "read_saved_model",
    "registered_kernel_ops",
]

# The pseudo-signature TF 2 exports use to name the init op; it is not a
# callable signature (the loader has run it already).
INIT_OP_SIGNATURE_KEY = "__saved_model_init_op"

# ---------------------------------------------------------------------------
# A minimal reader of protobuf's wire format: enough for SavedModel,
# MetaGraphDef, SignatureDef, TensorInfo, GraphDef and FunctionDefLibrary.


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise errors.DataLossError("malformed protobuf: truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7


def _fields(buf: bytes) -> Iterator[tuple[int, int, Any]]:
    """Yields (field number, wire type, value) for each field of a message:
    ints for varints and fixed fields, bytes for length-delimited ones."""
    pos, end = 0, len(buf)
    while pos < end:
        key, pos = _varint(buf, pos)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 1:
            if pos + 8 > end:
                raise errors.DataLossError("malformed protobuf: truncated fixed64")
            value, pos = int.from_bytes(buf[pos : pos + 8], "little"), pos + 8
        elif wire == 2:
            n, pos = _varint(buf, pos)
            if pos + n > end:
                raise errors.DataLossError("malformed protobuf: truncated field")
            value, pos = bytes(buf[pos : pos + n]), pos + n
        elif wire == 5:
            if pos + 4 > end:
                raise errors.DataLossError("malformed protobuf: truncated fixed32")
            value, pos = int.from_bytes(buf[pos : pos + 4], "little"), pos + 4
        else:
            raise errors.DataLossError(f"malformed protobuf: wire type {wire}")
        yield field, wire, value


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _map_entries(raw_entries: Sequence[bytes]) -> Iterator[tuple[str, bytes]]:
    for entry in raw_entries:
        key, value = "", b""
        for f, _, v in _fields(entry):
            if f == 1:
                key = _text(v)
            elif f == 2:
                value = v
        yield key, value


def _signed64(v: int) -> int:
    return v - (1 << 64) if v >= 1 << 63 else v


# ---------------------------------------------------------------------------
# Signatures


class TensorInfo(NamedTuple):
    """One input or output of a signature (a TensorInfo): the graph tensor's
    name (``"node:index"``), its dtype (None when the TensorInfo has none,
    as for the init op) and its shape (None for unknown rank; None for an
    unknown dimension)."""

    name: str
    dtype: DType | None
    shape: tuple[int | None, ...] | None


def _tensor_info(raw: bytes) -> TensorInfo:
    name, dtype_num, shape = "", 0, None
    for f, _, v in _fields(raw):
        if f == 1:
            name = _text(v)
        elif f == 2:
            dtype_num = v
        elif f == 3:
            dims: list[int | None] = []
            unknown = False
            for sf, _, sv in _fields(v):
                if sf == 2:
                    size = 0
                    for df, dw, dv in _fields(sv):
                        if df == 1 and dw == 0:
                            size = _signed64(dv)
                    dims.append(None if size < 0 else size)
                elif sf == 3 and sv:
                    unknown = True
            shape = None if unknown else tuple(dims)
    dtype: DType | None = None
    if dtype_num:
        try:
            dtype = DType(dtype_num)
        except (TypeError, ValueError):
            dtype = None
    return TensorInfo(name, dtype, shape)


class Signature:
    """A callable SignatureDef of a loaded model.

    ``inputs`` and ``outputs`` map each key to its :class:`TensorInfo`.
    Calling it with keyword arguments (one per input key; numpy arrays,
    Python values or anything ``Session.run`` accepts as a feed) runs the
    model's session and returns a dict from output key to numpy array.
    """

    def __init__(
        self,
        model: SavedModel,
        name: str,
        inputs: dict[str, TensorInfo],
        outputs: dict[str, TensorInfo],
        method_name: str,
    ) -> None:
        self._model = model
        self.name = name
        self.inputs = dict(sorted(inputs.items()))
        self.outputs = dict(sorted(outputs.items()))
        self.method_name = method_name
        self._tensors: tuple[dict[str, GraphTensor], dict[str, GraphTensor]] | None = None

    def _graph_tensors(self) -> tuple[dict[str, GraphTensor], dict[str, GraphTensor]]:
        if self._tensors is None:
            graph = self._model.graph
            ins = {k: graph.get_tensor_by_name(_with_index(s.name)) for k, s in self.inputs.items()}
            outs = {
                k: graph.get_tensor_by_name(_with_index(s.name)) for k, s in self.outputs.items()
            }
            self._tensors = (ins, outs)
        return self._tensors

    def __call__(self, **kwargs: Any) -> dict[str, Any]:
        missing = [k for k in self.inputs if k not in kwargs]
        extra = [k for k in kwargs if k not in self.inputs]
        if extra:
            raise TypeError(
                f"signature {self.name!r} got unexpected keyword argument(s) "
                f"{', '.join(sorted(extra))}; its inputs are {list(self.inputs)}"
            )
        if missing:
            raise TypeError(
                f"signature {self.name!r} is missing required argument(s) "
                f"{', '.join(missing)}"
            )
        if self._model.closed:
            raise RuntimeError("Attempted to use a closed SavedModel.")
        ins, outs = self._graph_tensors()
        feeds = {ins[k]: v for k, v in kwargs.items()}
        if not outs:
            return {}
        result: dict[str, Any] = self._model.session.run(outs, feeds)
        return result

    def __repr__(self) -> str:
        args = ", ".join(f"{k}: {_spec_text(s)}" for k, s in self.inputs.items())
        return f"<tfe_py.saved_model.Signature {self.name}({args})>"


def _with_index(name: str) -> str:
    return name if ":" in name else name + ":0"


def _spec_text(spec: TensorInfo) -> str:
    dtype = spec.dtype.name if spec.dtype is not None else "?"
    if spec.shape is None:
        return f"{dtype}[<unknown rank>]"
    dims = ", ".join("?" if d is None else str(d) for d in spec.shape)
    return f"{dtype}[{dims}]"


# ---------------------------------------------------------------------------
# MetaGraphDef reading


class _MetaGraph(NamedTuple):
    tags: tuple[str, ...]
    signatures: dict[str, tuple[dict[str, TensorInfo], dict[str, TensorInfo], str]]
    graph_def: bytes


def _parse_meta_graph(raw: bytes) -> _MetaGraph:
    tags: list[str] = []
    sig_entries: list[bytes] = []
    graph_def = b""
    for f, _, v in _fields(raw):
        if f == 1:
            for mf, _, mv in _fields(v):
                if mf == 4:
                    tags.append(_text(mv))
        elif f == 2:
            graph_def = v
        elif f == 5:
            sig_entries.append(v)
    signatures: dict[str, tuple[dict[str, TensorInfo], dict[str, TensorInfo], str]] = {}
    for key, value in _map_entries(sig_entries):  # a repeated key: last wins
        in_raw: list[bytes] = []
        out_raw: list[bytes] = []
        method = ""
        for sf, _, sv in _fields(value):
            if sf == 1:
                in_raw.append(sv)
            elif sf == 2:
                out_raw.append(sv)
            elif sf == 3:
                method = _text(sv)
        ins = {k: _tensor_info(v) for k, v in _map_entries(in_raw)}
        outs = {k: _tensor_info(v) for k, v in _map_entries(out_raw)}
        signatures[key] = (ins, outs, method)
    return _MetaGraph(tuple(tags), signatures, graph_def)


def read_saved_model(export_dir: str | os.PathLike[str]) -> bytes:
    """The serialized ``tensorflow.SavedModel`` of ``export_dir``, read as
    the loader reads it (``saved_model.pb``, else ``saved_model.pbtxt``
    converted; any registered filesystem) by tfe's ``TFE_ReadSavedModel``."""
    path = os.fspath(export_dir)
    if not isinstance(path, str):
        path = os.fsdecode(path)
    buf = lib.TF_NewBuffer()
    if buf == ffi.NULL:
        raise errors.out_of_memory("TF_NewBuffer returned NULL")
    try:
        with status() as s:
            lib.TFE_ReadSavedModel(path.encode("utf-8"), buf, s)
        return bytes(ffi.buffer(buf.data, buf.length)) if buf.length else b""
    finally:
        lib.TF_DeleteBuffer(buf)


def read_meta_graphs(export_dir: str | os.PathLike[str]) -> list[bytes]:
    """The serialized MetaGraphDefs of the SavedModel in ``export_dir``, in
    file order (see :func:`read_saved_model`)."""
    data = read_saved_model(export_dir)
    return [v for f, w, v in _fields(data) if f == 2 and w == 2]


def meta_graph_tags(meta_graph_def: bytes) -> tuple[str, ...]:
    """The tags of one serialized MetaGraphDef."""
    return _parse_meta_graph(meta_graph_def).tags


def model_ops(meta_graph_def: bytes) -> tuple[list[str], set[str]]:
    """The sorted op types a MetaGraphDef's graph and function library use,
    and the names of the library's functions (a node whose type is one of
    them calls the function; it needs no kernel)."""
    graph_def = _parse_meta_graph(meta_graph_def).graph_def
    ops: set[str] = set()
    functions: set[str] = set()

    def node_ops(node: bytes) -> None:
        for nf, _, nv in _fields(node):
            if nf == 2:
                ops.add(_text(nv))

    for f, _, v in _fields(graph_def):
        if f == 1:
            node_ops(v)
        elif f == 2:  # FunctionDefLibrary
            for lf, _, lv in _fields(v):
                if lf != 1:
                    continue
                for ff, _, fv in _fields(lv):
                    if ff == 1:  # signature: OpDef, name is field 1
                        for of, _, ov in _fields(fv):
                            if of == 1:
                                functions.add(_text(ov))
                    elif ff == 3:
                        node_ops(fv)
    return sorted(ops), functions


def registered_kernel_ops(device_type: str = "CPU") -> set[str]:
    """Op types with a kernel registered for ``device_type`` in this process
    (TF_GetAllRegisteredKernels)."""
    with status() as s:
        buf = lib.TF_GetAllRegisteredKernels(s)
    if buf == ffi.NULL:
        raise errors.out_of_memory("TF_GetAllRegisteredKernels returned NULL")
    try:
        raw = bytes(ffi.buffer(buf.data, buf.length)) if buf.length else b""
    finally:
        lib.TF_DeleteBuffer(buf)
    found: set[str] = set()
    for f, _, v in _fields(raw):
        if f != 1:
            continue
        op = dev = ""
        for kf, _, kv in _fields(v):
            if kf == 1:
                op = _text(kv)
            elif kf == 2:
                dev = _text(kv)
        if dev == device_type:
            found.add(op)
    return found


# ---------------------------------------------------------------------------
# The loaded model


class SavedModel:
    """A SavedModel loaded into a session (see :func:`load`).

    Attributes: ``graph`` (:class:`tfe_py.Graph`), ``session``
    (:class:`tfe_py.Session`), ``tags`` (the chosen MetaGraph's tags),
    ``signatures`` (name -> :class:`Signature`, without the init-op
    pseudo-signature) and ``meta_graph_def`` (the serialized MetaGraphDef
    the loader returned). ``close()`` (or leaving a ``with`` block) closes
    the session and deletes the graph; a finalizer does it otherwise.
    """

    def __init__(self, graph: Graph, session: Session, meta_graph_def: bytes) -> None:
        self._graph = graph
        self._session = session
        self.meta_graph_def = meta_graph_def
        meta = _parse_meta_graph(meta_graph_def)
        self.tags: tuple[str, ...] = meta.tags
        self._lock = threading.Lock()
        self.signatures: Mapping[str, Signature] = {
            name: Signature(self, name, ins, outs, method)
            for name, (ins, outs, method) in sorted(meta.signatures.items())
            if name != INIT_OP_SIGNATURE_KEY
        }

    @property
    def graph(self) -> Graph:
        return self._graph

    @property
    def session(self) -> Session:
        return self._session

    @property
    def closed(self) -> bool:
        return self._session.closed

    def close(self) -> None:
        """Closes the session and deletes the graph. Safe to repeat."""
        with self._lock:
            try:
                self._session.close()
            finally:
                self._graph.close()

    def __enter__(self) -> SavedModel:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return (
            f"<tfe_py.saved_model.SavedModel tags={list(self.tags)} "
            f"signatures={list(self.signatures)} {state}>"
        )


def _c_strings(items: Sequence[str]) -> tuple[CData, list[CData]]:
    keep = [ffi.new("char[]", t.encode("utf-8")) for t in items]
    arr = ffi.new("const char*[]", keep or [ffi.NULL])
    return arr, keep


def load(
    export_dir: str | os.PathLike[str],
    tags: Sequence[str] | str = ("serve",),
    *,
    config: Any = None,
    run_options: Any = None,
) -> SavedModel:
    """Loads the SavedModel in ``export_dir`` (TF_LoadSessionFromSavedModel)
    and returns a :class:`SavedModel` that owns its graph and session.

    ``tags`` picks the MetaGraph whose tag set equals them (a string is one
    tag). ``config`` is a serialized ConfigProto (bytes or a message) for
    the session; ``run_options`` a serialized RunOptions for the restore
    and init runs.
    """
    if isinstance(tags, str):
        tags = (tags,)
    tags = [str(t) for t in tags]
    path = os.fspath(export_dir)
    if not isinstance(path, str):
        path = os.fsdecode(path)
    graph = Graph()
    opts = lib.TF_NewSessionOptions()
    if opts == ffi.NULL:
        graph.close()
        raise errors.out_of_memory("TF_NewSessionOptions returned NULL")
    meta_buf = lib.TF_NewBuffer()
    run_buf = ffi.NULL
    try:
        if meta_buf == ffi.NULL:
            raise errors.out_of_memory("TF_NewBuffer returned NULL")
        if config is not None:
            if hasattr(config, "SerializeToString"):
                config = config.SerializeToString()
            raw = bytes(config)
            with status() as s:
                lib.TF_SetConfig(opts, raw, len(raw), s)
        if run_options is not None:
            if hasattr(run_options, "SerializeToString"):
                run_options = run_options.SerializeToString()
            raw_opts = bytes(run_options)
            run_buf = lib.TF_NewBufferFromString(raw_opts, len(raw_opts))
            if run_buf == ffi.NULL:
                raise errors.out_of_memory("TF_NewBufferFromString returned NULL")
        tag_arr, _keep = _c_strings(tags)
        with status() as s:
            ptr = lib.TF_LoadSessionFromSavedModel(
                opts, run_buf, path.encode("utf-8"), tag_arr, len(tags), graph.ptr, meta_buf, s
            )
        if ptr == ffi.NULL:
            raise errors.out_of_memory("TF_LoadSessionFromSavedModel returned NULL")
        meta = bytes(ffi.buffer(meta_buf.data, meta_buf.length)) if meta_buf.length else b""
    except BaseException:
        graph.close()
        raise
    finally:
        lib.TF_DeleteSessionOptions(opts)
        if meta_buf != ffi.NULL:
            lib.TF_DeleteBuffer(meta_buf)
        if run_buf != ffi.NULL:
            lib.TF_DeleteBuffer(run_buf)
    try:
        session = Session._adopt(graph, ptr)
    except BaseException:
        graph.close()
        raise
    try:
        return SavedModel(graph, session, meta)
    except BaseException:
        session.close()
        graph.close()
        raise
