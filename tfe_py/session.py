"""Running graphs: :class:`Session`, TF1's ``tf.compat.v1.Session``.

``Session(graph).run(fetches, feed_dict)`` runs the parts of a
:class:`tfe_py.Graph` that ``fetches`` need (``TF_SessionRun``) and returns
numpy values in the structure of ``fetches``, as TF1 does:

* a fetch is a GraphTensor, an Operation, or a name (``"x:0"`` for a
  tensor, ``"x"`` for an operation); operations are run as targets and
  give None;
* fetches nest in lists, tuples, namedtuples and dicts (any Mapping), and
  the result has the same structure;
* ``feed_dict`` keys are tensors or tensor names, values anything numpy
  turns into an array of the tensor's dtype (a fed value of an
  incompatible static shape is a ValueError, as TF);
* tensors come back as numpy arrays, 0-d ones as numpy scalars, a scalar
  string as ``bytes``.

Errors from the runtime raise the :mod:`tfe_py.errors` classes
(``InvalidArgumentError`` for a placeholder that was not fed, ...).
``close()`` (or the end of a ``with`` block, or the finalizer) closes and
deletes the C session; a closed session raises RuntimeError, as TF.
"""

from __future__ import annotations

import collections.abc
import contextlib
import threading
from collections.abc import Iterator, Sequence
from types import TracebackType
from typing import Any, NamedTuple

import numpy as np

from tfe_py import dtypes, errors
from tfe_py._ffi import CData, ffi, lib
from tfe_py.context import _state
from tfe_py.eager import EagerTensor
from tfe_py.errors import status
from tfe_py.graph import (
    Graph,
    GraphTensor,
    Operation,
    _outputs_array,
    tensor_from_array,
    tensor_to_numpy,
)

__all__ = ["DeviceAttributes", "Session", "get_default_session"]

_TF_STRING = int(lib.TF_STRING)


class _SessionStack(threading.local):
    def __init__(self) -> None:
        self.stack: list[Session] = []


_sessions = _SessionStack()


def get_default_session() -> Session | None:
    """The innermost ``with Session(...)`` (or ``sess.as_default()``) of
    the calling thread, or None."""
    stack = _sessions.stack
    return stack[-1] if stack else None


def _session_for(what: str, graph: Graph, session: Session | None) -> Session:
    if session is None:
        session = get_default_session()
        if session is None:
            raise ValueError(
                f"Cannot {what}: No default session is registered. Use `with "
                "tfe_py.Session(graph):` or pass session= explicitly"
            )
    if session.graph is not graph:
        raise ValueError(
            f"Cannot {what}: the session's graph is not the graph of this tensor or operation"
        )
    return session


def _delete_session(ptr: CData) -> None:
    s = lib.TF_NewStatus()
    if s == ffi.NULL:
        raise errors.out_of_memory("TF_NewStatus returned NULL")
    try:
        lib.TF_DeleteSession(ptr, s)
        errors.check(s)
    finally:
        lib.TF_DeleteStatus(s)


class DeviceAttributes(NamedTuple):
    """One device of a session (TF_SessionListDevices)."""

    name: str
    device_type: str
    memory_limit_bytes: int
    incarnation: int


# ---------------------------------------------------------------------------
# Fetch structures


class _Fetches:
    """Flattens a fetch structure into unique tensors and targets, and
    rebuilds the structure from the values."""

    def __init__(self, graph: Graph, fetches: Any) -> None:
        self.graph = graph
        self.tensors: list[GraphTensor] = []
        self.targets: list[Operation] = []
        self._tensor_pos: dict[GraphTensor, int] = {}
        self._target_set: set[Operation] = set()
        self.spec = self._flatten(fetches)

    def _leaf(self, fetch: Any) -> tuple[str, int]:
        try:
            el = self.graph.as_graph_element(fetch, allow_tensor=True, allow_operation=True)
        except TypeError as exc:
            raise TypeError(
                f"Fetch argument {fetch!r} has invalid type {type(fetch)!r}, must be a "
                f"string or Tensor. ({exc})"
            ) from None
        except ValueError as exc:
            raise ValueError(
                f"Fetch argument {fetch!r} cannot be interpreted as a Tensor. ({exc})"
            ) from None
        except KeyError as exc:
            raise ValueError(
                f"Fetch argument {fetch!r} cannot be interpreted as a Tensor. ({exc.args[0]})"
            ) from None
        if isinstance(el, Operation):
            if el not in self._target_set:
                self._target_set.add(el)
                self.targets.append(el)
            return ("op", 0)
        pos = self._tensor_pos.get(el)
        if pos is None:
            pos = len(self.tensors)
            self._tensor_pos[el] = pos
            self.tensors.append(el)
        return ("t", pos)

    def _flatten(self, fetch: Any) -> Any:
        if fetch is None:
            raise TypeError(f"Fetch argument None has invalid type {type(None)}")
        if isinstance(fetch, (GraphTensor, Operation, str)):
            return self._leaf(fetch)
        if isinstance(fetch, collections.abc.Mapping):
            return ("dict", type(fetch), [(k, self._flatten(v)) for k, v in fetch.items()])
        if isinstance(fetch, tuple) and hasattr(fetch, "_fields"):
            return ("namedtuple", type(fetch), [self._flatten(v) for v in fetch])
        if isinstance(fetch, (list, tuple)):
            return ("seq", type(fetch), [self._flatten(v) for v in fetch])
        if isinstance(fetch, EagerTensor):
            raise TypeError(
                f"Fetch argument {fetch!r} has invalid type {type(fetch)!r}: an EagerTensor "
                "has its value already; fetch graph tensors"
            )
        raise TypeError(
            f"Fetch argument {fetch!r} has invalid type {type(fetch)!r}, must be a string "
            "or Tensor. (Can not convert a "
            f"{type(fetch).__name__} into a Tensor or Operation.)"
        )

    def build(self, values: Sequence[Any]) -> Any:
        return self._build(self.spec, values)

    def _build(self, spec: Any, values: Sequence[Any]) -> Any:
        kind = spec[0]
        if kind == "t":
            return values[spec[1]]
        if kind == "op":
            return None
        if kind == "dict":
            cls, items = spec[1], spec[2]
            pairs = [(k, self._build(v, values)) for k, v in items]
            try:
                return cls(pairs)
            except TypeError:  # a Mapping type without a pairs constructor
                return dict(pairs)
        if kind == "namedtuple":
            return spec[1](*(self._build(v, values) for v in spec[2]))
        built = [self._build(v, values) for v in spec[2]]
        return built if spec[1] is list else spec[1](built)


# ---------------------------------------------------------------------------
# Feeds


def _np_dtype_for(tensor: GraphTensor) -> Any:
    dt = int(tensor.dtype)
    if dt == _TF_STRING:
        return object
    dtypes.check_numpy_convertible(dt)
    return dtypes.to_numpy_dtype(dt)


def _shape_compatible(static: tuple[int | None, ...] | None, shape: tuple[int, ...]) -> bool:
    if static is None:
        return True
    if len(static) != len(shape):
        return False
    return all(d is None or d == s for d, s in zip(static, shape, strict=True))


def _feed_value(tensor: GraphTensor, value: Any) -> CData:
    """A new TF_Tensor holding ``value`` for ``tensor`` (TF1's feed rules)."""
    if isinstance(value, (GraphTensor, Operation)):
        raise TypeError(
            "The value of a feed cannot be a tfe_py.GraphTensor object. Acceptable feed "
            "values include Python scalars, strings, lists, numpy ndarrays, or EagerTensors."
        )
    if isinstance(value, EagerTensor):
        value = value.numpy()
    cache = tensor.graph._feed_cache
    info = cache.get(tensor)
    if info is None:
        # dtype and static shape, kept until GraphTensor.set_shape changes one
        shape = tensor.shape
        dims = None if shape.rank is None else tuple(shape)
        info = (int(tensor.dtype), _np_dtype_for(tensor), dims)
        cache[tensor] = info
    tf_dtype, np_dtype, static = info
    if isinstance(value, int) and not isinstance(value, bool) and np_dtype is not object:
        try:
            fits = np.array(value).astype(np_dtype).item() == value
        except (OverflowError, ValueError):
            fits = False
        if not fits:
            raise TypeError(
                f"Type of feed value {value} with type {type(value)} is not compatible "
                f"with Tensor type {np.dtype(np_dtype)}."
            )
    try:
        arr = np.asarray(value, dtype=np_dtype)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"Cannot feed {value!r} to Tensor {tensor.name}: {exc}") from None
    if np_dtype is object:
        for item in arr.flat:
            if not isinstance(item, (bytes, str)):
                raise TypeError(
                    f"Cannot feed {value!r} to string Tensor {tensor.name}: "
                    f"{type(item).__name__} is not bytes or str"
                )
    if not _shape_compatible(static, arr.shape):
        shown = "<unknown>" if static is None else str(static)
        raise ValueError(
            f"Cannot feed value of shape {arr.shape!r} for Tensor {tensor.name}, "
            f"which has shape {shown}"
        )
    return tensor_from_array(arr, tf_dtype)


class _Feeds:
    """The feed tensors of one run, owned until ``close()``."""

    def __init__(self, graph: Graph, feed_dict: Any) -> None:
        self.keys: list[GraphTensor] = []
        self.values: list[CData] = []
        if feed_dict is None:
            return
        if not isinstance(feed_dict, collections.abc.Mapping):
            raise TypeError(f"feed_dict must be a dict, got {type(feed_dict).__name__}")
        try:
            for key, value in feed_dict.items():
                t = _feed_key(graph, key)
                self.keys.append(t)
                self.values.append(_feed_value(t, value))
        except BaseException:
            self.close()
            raise

    @classmethod
    def of(cls, keys: Sequence[GraphTensor], values: Sequence[Any]) -> _Feeds:
        """Feeds for already resolved keys (Session.make_callable)."""
        feeds = cls.__new__(cls)
        feeds.keys = list(keys)
        feeds.values = []
        try:
            for k, v in zip(keys, values, strict=True):
                feeds.values.append(_feed_value(k, v))
        except BaseException:
            feeds.close()
            raise
        return feeds

    def close(self) -> None:
        values, self.values = self.values, []
        for v in values:
            lib.TF_DeleteTensor(v)


def _feed_key(graph: Graph, key: Any) -> GraphTensor:
    try:
        el = graph.as_graph_element(key, allow_tensor=True, allow_operation=False)
    except (TypeError, ValueError, KeyError) as exc:
        msg = exc.args[0] if exc.args else str(exc)
        raise TypeError(f"Cannot interpret feed_dict key as Tensor: {msg}") from None
    assert isinstance(el, GraphTensor)
    return el


# ---------------------------------------------------------------------------
# Session


def _buffer_for(options: Any) -> CData:
    if options is None:
        return ffi.NULL
    if hasattr(options, "SerializeToString"):
        options = options.SerializeToString()
    raw = bytes(options)
    buf = lib.TF_NewBufferFromString(raw, len(raw))
    if buf == ffi.NULL:
        raise errors.out_of_memory("TF_NewBufferFromString returned NULL")
    return buf


def _store_metadata(run_metadata: Any, buf: CData) -> None:
    data = b"" if buf.data == ffi.NULL else ffi.buffer(buf.data, buf.length)[:]
    if hasattr(run_metadata, "ParseFromString"):
        run_metadata.ParseFromString(data)
    elif isinstance(run_metadata, bytearray):
        run_metadata[:] = data
    else:
        raise TypeError("run_metadata must be a bytearray or a protobuf message")


class Session:
    """A session running a :class:`tfe_py.Graph` (``TF_NewSession``).

    Args:
        graph: the graph to run; None takes the thread's default graph
            (the innermost ``with tfe_py.Graph():``), or a new empty graph
            when there is none.
        config: a serialized ``tensorflow.ConfigProto`` (bytes, or a
            message with ``SerializeToString``), applied with TF_SetConfig.
    """

    def __init__(self, graph: Graph | None = None, config: Any = None) -> None:
        if graph is None:
            graph = _state.graph if _state.graph is not None else Graph()
        self._init_state(graph)
        opts = lib.TF_NewSessionOptions()
        if opts == ffi.NULL:
            raise errors.out_of_memory("TF_NewSessionOptions returned NULL")
        try:
            if config is not None:
                if hasattr(config, "SerializeToString"):
                    config = config.SerializeToString()
                raw = bytes(config)
                with status() as s:
                    lib.TF_SetConfig(opts, raw, len(raw), s)
            with status() as s:
                ptr = lib.TF_NewSession(graph.ptr, opts, s)
        finally:
            lib.TF_DeleteSessionOptions(opts)
        if ptr == ffi.NULL:
            raise errors.out_of_memory("TF_NewSession returned NULL")
        self._ptr = ptr

    def _init_state(self, graph: Graph) -> None:
        self._ptr: CData = ffi.NULL
        self._handles: dict[str, CData] = {}
        self._lock = threading.Lock()
        # Calls into the C session in progress, and a closed session whose
        # deletion waits for them (close() from another thread).
        self._inflight = 0
        self._doomed: CData = ffi.NULL
        self._doomed_handles: list[CData] = []
        if not isinstance(graph, Graph):
            raise TypeError(f"graph must be a tfe_py.Graph, got {type(graph).__name__}")
        self._graph = graph
        self._graph_scopes: list[Any] = []
        # The status close() uses, made now: a finalizer that runs while
        # memory is short must still be able to delete the C session.
        self._close_status: CData = lib.TF_NewStatus()
        if self._close_status == ffi.NULL:
            raise errors.out_of_memory("TF_NewStatus returned NULL")

    @classmethod
    def _adopt(cls, graph: Graph, ptr: CData) -> Session:
        """Wraps a C session made elsewhere (TF_LoadSessionFromSavedModel)
        on ``graph``. The new object owns ``ptr`` from then on; when the
        wrapper cannot be made, the C session is deleted before raising."""
        self = cls.__new__(cls)
        try:
            self._init_state(graph)
        except BaseException:
            _delete_session(ptr)
            raise
        self._ptr = ptr
        return self

    # -- lifetime ---------------------------------------------------------

    @property
    def graph(self) -> Graph:
        return self._graph

    @property
    def closed(self) -> bool:
        return not self._ptr

    def _session(self) -> CData:
        if not self._ptr:
            raise RuntimeError("Attempted to use a closed Session.")
        return self._ptr

    @contextlib.contextmanager
    def _in_use(self) -> Iterator[CData]:
        """The C session for one call into it; a close() meanwhile defers
        the deletion (and that of the partial-run handles) until the last
        call in progress returned."""
        with self._lock:
            ptr = self._ptr
            if not ptr:
                raise RuntimeError("Attempted to use a closed Session.")
            self._inflight += 1
        try:
            yield ptr
        finally:
            doomed, handles = ffi.NULL, []
            with self._lock:
                self._inflight -= 1
                if self._inflight == 0 and self._doomed:
                    doomed, self._doomed = self._doomed, ffi.NULL
                    handles, self._doomed_handles = self._doomed_handles, []
            if doomed:
                for h in handles:
                    lib.TF_DeletePRunHandle(h)
                _delete_session(doomed)

    def close(self) -> None:
        """Closes the C session (TF_CloseSession: runs in progress in other
        threads are cancelled) and deletes it (TF_DeleteSession, once no
        call is using it any more). Safe to call more than once."""
        with self._lock:
            ptr, self._ptr = self._ptr, ffi.NULL
            handles, self._handles = list(self._handles.values()), {}
            s = getattr(self, "_close_status", ffi.NULL)
            self._close_status = ffi.NULL
        if not ptr:
            if s != ffi.NULL:
                lib.TF_DeleteStatus(s)
            return
        if s == ffi.NULL:
            s = lib.TF_NewStatus()
            if s == ffi.NULL:
                with self._lock:  # keep the session: a later close() retries
                    self._ptr = ptr
                raise errors.out_of_memory("TF_NewStatus returned NULL")
        try:
            lib.TF_CloseSession(ptr, s)
            close_error: Exception | None = None
            try:
                errors.check(s)
            except Exception as exc:  # raised once the session is deleted
                close_error = exc
            with self._lock:
                if self._inflight:  # the last call in progress deletes it
                    self._doomed, self._doomed_handles = ptr, handles
                    ptr, handles = ffi.NULL, []
            for h in handles:
                lib.TF_DeletePRunHandle(h)
            if ptr:
                lib.TF_DeleteSession(ptr, s)
                errors.check(s)
            if close_error is not None:
                raise close_error
        finally:
            lib.TF_DeleteStatus(s)

    def __enter__(self) -> Session:
        """Makes the session the default one (for ``GraphTensor.eval`` and
        ``Operation.run``) and its graph the default graph for the block,
        as TF does; the session is closed at its end."""
        self._session()
        cm = self._graph.as_default()
        cm.__enter__()
        self._graph_scopes.append(cm)
        _sessions.stack.append(self)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if _sessions.stack and _sessions.stack[-1] is self:
            _sessions.stack.pop()
        if self._graph_scopes:
            self._graph_scopes.pop().__exit__(exc_type, exc, tb)
        self.close()

    @contextlib.contextmanager
    def as_default(self) -> Iterator[Session]:
        """Makes this the default session of the calling thread for the
        block, without closing it (nor changing the default graph)."""
        self._session()
        _sessions.stack.append(self)
        try:
            yield self
        finally:
            _sessions.stack.pop()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def __repr__(self) -> str:
        state = "closed" if not self._ptr else "open"
        return f"<tfe_py.Session {state}>"

    # -- running ----------------------------------------------------------

    def run(
        self,
        fetches: Any,
        feed_dict: Any = None,
        options: Any = None,
        run_metadata: Any = None,
    ) -> Any:
        """Runs what ``fetches`` need and returns their values in the
        structure of ``fetches`` (see the module docstring).

        ``options`` is a serialized RunOptions (or a message);
        ``run_metadata`` a bytearray (or a message with ParseFromString)
        that receives the serialized RunMetadata.
        """
        self._session()
        plan = _Fetches(self._graph, fetches)
        feeds = _Feeds(self._graph, feed_dict)
        if not plan.tensors and not plan.targets:
            feeds.close()  # nothing to run (an empty structure), as TF
            return plan.build([])
        try:
            with self._in_use() as sess:
                values = self._run(sess, plan, feeds, options, run_metadata)
        finally:
            feeds.close()
        return plan.build(values)

    def _run(
        self, sess: CData, plan: _Fetches, feeds: _Feeds, options: Any, run_metadata: Any
    ) -> list[Any]:
        n_in, n_out, n_tgt = len(feeds.keys), len(plan.tensors), len(plan.targets)
        in_arr = _outputs_array(feeds.keys)
        in_vals = ffi.new("TF_Tensor*[]", feeds.values or [ffi.NULL])
        out_arr = _outputs_array(plan.tensors)
        out_vals = ffi.new("TF_Tensor*[]", max(n_out, 1))
        tgt = ffi.new("TF_Operation*[]", [op._ptr for op in plan.targets] or [ffi.NULL])
        opts_buf = _buffer_for(options)
        meta_buf = ffi.NULL
        try:
            if run_metadata is not None:
                meta_buf = lib.TF_NewBuffer()
                if meta_buf == ffi.NULL:
                    raise errors.out_of_memory("TF_NewBuffer returned NULL")
            s = lib.TF_NewStatus()
            if s == ffi.NULL:
                raise errors.out_of_memory("TF_NewStatus returned NULL")
            try:
                lib.TF_SessionRun(
                    sess,
                    opts_buf,
                    in_arr,
                    in_vals,
                    n_in,
                    out_arr,
                    out_vals,
                    n_out,
                    tgt,
                    n_tgt,
                    meta_buf,
                    s,
                )
                ok = lib.TF_GetCode(s) == errors.OK
                results = [out_vals[i] for i in range(n_out)]
                if not ok:
                    for r in results:
                        if r != ffi.NULL:
                            lib.TF_DeleteTensor(r)
                    errors.check(s)
            finally:
                lib.TF_DeleteStatus(s)
            if run_metadata is not None:
                _store_metadata(run_metadata, meta_buf)
        finally:
            if opts_buf != ffi.NULL:
                lib.TF_DeleteBuffer(opts_buf)
            if meta_buf != ffi.NULL:
                lib.TF_DeleteBuffer(meta_buf)
        return self._to_numpy(results)

    @staticmethod
    def _to_numpy(results: list[CData]) -> list[Any]:
        values: list[Any] = []
        try:
            while results:
                t = results.pop(0)
                if t == ffi.NULL:
                    values.append(None)
                else:
                    values.append(tensor_to_numpy(t))
        finally:
            for t in results:  # conversion failed midway: free the rest
                if t != ffi.NULL:
                    lib.TF_DeleteTensor(t)
        return values

    def make_callable(
        self, fetches: Any, feed_list: Sequence[Any] | None = None, accept_options: bool = False
    ) -> Any:
        """A function running ``fetches`` with the values of ``feed_list``
        (tensors or names) given positionally, as TF1's ``make_callable``:
        the fetch structure and the feeds are resolved once, not per call.
        With ``accept_options`` it also takes ``options=`` and
        ``run_metadata=`` keywords."""
        self._session()
        plan = _Fetches(self._graph, fetches)
        keys = [_feed_key(self._graph, k) for k in (feed_list or ())]

        def call(*values: Any, **kwargs: Any) -> Any:
            if kwargs and (not accept_options or set(kwargs) - {"options", "run_metadata"}):
                raise TypeError(f"unexpected keyword arguments {sorted(kwargs)}")
            if len(values) != len(keys):
                raise TypeError(f"expected {len(keys)} feed values, got {len(values)}")
            self._session()
            if not plan.tensors and not plan.targets:
                return plan.build([])
            feeds = _Feeds.of(keys, values)
            try:
                with self._in_use() as sess:
                    out = self._run(
                        sess, plan, feeds, kwargs.get("options"), kwargs.get("run_metadata")
                    )
            finally:
                feeds.close()
            return plan.build(out)

        return call

    # -- partial runs -----------------------------------------------------

    def partial_run_setup(self, fetches: Any, feeds: Sequence[Any] | None = None) -> str:
        """Declares the fetches and feeds of a partial run
        (TF_SessionPRunSetup); returns its handle for :meth:`partial_run`."""
        self._session()
        plan = _Fetches(self._graph, fetches)
        feed_keys = [_feed_key(self._graph, k) for k in (feeds or ())]
        in_arr = _outputs_array(feed_keys)
        out_arr = _outputs_array(plan.tensors)
        tgt = ffi.new("TF_Operation*[]", [op._ptr for op in plan.targets] or [ffi.NULL])
        handle = ffi.new("const char**")
        with self._in_use() as sess, status() as s:
            lib.TF_SessionPRunSetup(
                sess,
                in_arr,
                len(feed_keys),
                out_arr,
                len(plan.tensors),
                tgt,
                len(plan.targets),
                handle,
                s,
            )
        name = ffi.string(handle[0]).decode("utf-8")
        with self._lock:
            if not self._ptr:  # closed meanwhile
                lib.TF_DeletePRunHandle(handle[0])
                raise RuntimeError("Attempted to use a closed Session.")
            old = self._handles.pop(name, None)
            self._handles[name] = handle[0]
        if old is not None:
            lib.TF_DeletePRunHandle(old)
        return name

    def partial_run(self, handle: str, fetches: Any, feed_dict: Any = None) -> Any:
        """Continues the partial run ``handle`` (TF_SessionPRun): feeds
        ``feed_dict``, returns ``fetches`` as :meth:`run` does."""
        self._session()
        with self._lock:
            h = self._handles.get(handle)
        if h is None:
            raise errors.error_for(
                errors.INVALID_ARGUMENT,
                f"Must run 'setup' before performing partial runs! ({handle})",
            )
        plan = _Fetches(self._graph, fetches)
        feeds = _Feeds(self._graph, feed_dict)
        try:
            n_out = len(plan.tensors)
            in_arr = _outputs_array(feeds.keys)
            in_vals = ffi.new("TF_Tensor*[]", feeds.values or [ffi.NULL])
            out_arr = _outputs_array(plan.tensors)
            out_vals = ffi.new("TF_Tensor*[]", max(n_out, 1))
            tgt = ffi.new("TF_Operation*[]", [op._ptr for op in plan.targets] or [ffi.NULL])
            s = lib.TF_NewStatus()
            if s == ffi.NULL:
                raise errors.out_of_memory("TF_NewStatus returned NULL")
            try:
                with self._in_use() as sess:
                    lib.TF_SessionPRun(
                        sess,
                        h,
                        in_arr,
                        in_vals,
                        len(feeds.keys),
                        out_arr,
                        out_vals,
                        n_out,
                        tgt,
                        len(plan.targets),
                        s,
                    )
                results = [out_vals[i] for i in range(n_out)]
                if lib.TF_GetCode(s) != errors.OK:
                    for r in results:
                        if r != ffi.NULL:
                            lib.TF_DeleteTensor(r)
                    errors.check(s)
            finally:
                lib.TF_DeleteStatus(s)
        finally:
            feeds.close()
        return plan.build(self._to_numpy(results))

    # -- devices ----------------------------------------------------------

    def list_devices(self) -> list[DeviceAttributes]:
        """The session's devices (TF_SessionListDevices)."""
        with self._in_use() as sess, status() as s:
            lst = lib.TF_SessionListDevices(sess, s)
        try:
            out: list[DeviceAttributes] = []
            for i in range(lib.TF_DeviceListCount(lst)):
                with status() as s:
                    name = ffi.string(lib.TF_DeviceListName(lst, i, s)).decode("utf-8")
                with status() as s:
                    kind = ffi.string(lib.TF_DeviceListType(lst, i, s)).decode("utf-8")
                with status() as s:
                    mem = int(lib.TF_DeviceListMemoryBytes(lst, i, s))
                with status() as s:
                    inc = int(lib.TF_DeviceListIncarnation(lst, i, s))
                out.append(DeviceAttributes(name, kind, mem, inc))
            return out
        finally:
            lib.TF_DeleteDeviceList(lst)
