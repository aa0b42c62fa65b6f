"""Framework functions of ``tf.*``: ``device``, ``executing_eagerly``, ``is_tensor``, ``print``, ...

* :func:`device` / :class:`DeviceSpec`: TF's device strings. ``with
  tf.device("GPU:0"):`` parses the name as TF does (ValueError for an
  unknown part, a type named twice or a bad index), merges it into the
  enclosing scope's device (or the context's first device,
  ``/job:localhost/replica:0/task:0/device:CPU:0``) and makes ops and
  constants of the calling thread request the result. With soft device
  placement (on in the default context, as in TF) a device the context
  lacks falls back to the CPU; without it the op fails with TF's
  InvalidArgumentError.
* :func:`print`: ``tf.print`` with TF's formatting of tensors (the
  StringFormat op) and of Python structures (``pprint``); eagerly the text
  is written through Python's ``sys.stdout``/``sys.stderr``, so redirected
  streams see it; inside a graph it is a PrintV2 op.
* :func:`name_scope`, :func:`control_dependencies`, :func:`init_scope`,
  :func:`group`, :func:`tuple`, :func:`no_op`: no-ops or bookkeeping
  eagerly, as in TF; inside a ``tfe_py.Graph`` (or a function trace) they
  act on the graph.
* :func:`Assert` raises TF's InvalidArgumentError eagerly; inside a graph
  it needs the Assert op, which tfe lacks (NotImplementedError).
"""

from __future__ import annotations

import contextlib
import logging
import os
import pprint
import sys
from collections.abc import Callable, Iterator
from typing import Any

from tfe_py import _api, errors
from tfe_py.context import _state

__all__ = [
    "Assert",
    "DeviceSpec",
    "control_dependencies",
    "device",
    "executing_eagerly",
    "get_current_name_scope",
    "get_logger",
    "get_static_value",
    "group",
    "init_scope",
    "inside_function",
    "is_symbolic_tensor",
    "is_tensor",
    "make_ndarray",
    "make_tensor_proto",
    "name_scope",
    "no_op",
    "print",
    "register_tensor_conversion_function",
    "timestamp",
    "tuple",
]

# Names TensorFlow also exports at the top level (tf.<name>).
TOPLEVEL: frozenset[str] = frozenset(__all__)

# Device types every DeviceSpec accepts in its short form ("GPU:0"), as
# TF's fixed list; types of loaded PluggableDevices are added.
_KNOWN_DEVICE_TYPES = frozenset({"CPU", "GPU", "TPU", "CUSTOM", "EPU"})

# The first device of every tfe context: unset parts of a device scope
# come from it, as TF fills them from its context's first device.
_FIRST_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


def _valid_device_types() -> frozenset[str]:
    try:
        from tfe_py import plugins

        extra = {
            d.device_type for d in plugins.list_physical_devices() if d.device_type != "CPU"
        }
    except Exception:  # no context can be made: the fixed list still holds
        extra = set()
    return _KNOWN_DEVICE_TYPES | extra


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def _device_type_or_none(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value)
    return text.upper() if text in ("cpu", "gpu") else text


class DeviceSpec:
    """A (partial) device name, as ``tf.DeviceSpec``: job, replica, task,
    device type and index, any of them unset (None).

    ``DeviceSpec.from_string("/job:w/device:GPU:1")``, ``to_string()``,
    ``make_merged_spec(other)`` (other's set parts win), ``replace(...)``;
    equal and hashing alike when their strings are equal.
    """

    __slots__ = ("_device_index", "_device_type", "_job", "_replica", "_string", "_task")

    def __init__(
        self,
        job: str | None = None,
        replica: int | None = None,
        task: int | None = None,
        device_type: str | None = None,
        device_index: int | None = None,
    ) -> None:
        self._job = None if job is None else str(job)
        self._replica = _int_or_none(replica)
        self._task = _int_or_none(task)
        self._device_type = _device_type_or_none(device_type)
        self._device_index = _int_or_none(device_index)
        parts = []
        if self._job is not None:
            parts.append(f"/job:{self._job}")
        if self._replica is not None:
            parts.append(f"/replica:{self._replica}")
        if self._task is not None:
            parts.append(f"/task:{self._task}")
        if self._device_type is not None:
            index = "*" if self._device_index is None else str(self._device_index)
            parts.append(f"/device:{self._device_type}:{index}")
        self._string = "".join(parts)

    @classmethod
    def from_string(cls, spec: str) -> DeviceSpec:
        """Parses a device name such as ``/job:w/replica:0/task:1/device:GPU:0``,
        ``/cpu:0`` or ``GPU`` (ValueError for anything else)."""
        return cls(**_parse_device(spec))

    def parse_from_string(self, spec: str) -> DeviceSpec:
        """The same as :meth:`from_string` (a new spec; this one is unchanged)."""
        return self.from_string(spec)

    def make_merged_spec(self, dev: DeviceSpec) -> DeviceSpec:
        """This spec with every part that ``dev`` sets replaced by ``dev``'s."""
        return DeviceSpec(**{k: v if v is not None else getattr(self, k)
                             for k, v in dev._fields().items()})

    def replace(self, **kwargs: Any) -> DeviceSpec:
        """A copy with the given parts (job=, replica=, ...) changed."""
        fields = self._fields()
        for key in kwargs:
            if key not in fields:
                raise TypeError(f"replace() got an unexpected keyword argument {key!r}")
        fields.update(kwargs)
        return DeviceSpec(**fields)

    def _fields(self) -> dict[str, Any]:
        return {
            "job": self._job,
            "replica": self._replica,
            "task": self._task,
            "device_type": self._device_type,
            "device_index": self._device_index,
        }

    def to_string(self) -> str:
        """The spec as a device name (``""`` when nothing is set)."""
        return self._string

    @property
    def job(self) -> str | None:
        return self._job

    @property
    def replica(self) -> int | None:
        return self._replica

    @property
    def task(self) -> int | None:
        return self._task

    @property
    def device_type(self) -> str | None:
        return self._device_type

    @property
    def device_index(self) -> int | None:
        return self._device_index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DeviceSpec) and self._string == other._string

    def __hash__(self) -> int:
        return hash(self._string)

    def __repr__(self) -> str:
        return (
            f"<DeviceSpec(job={self._job}, replica={self._replica}, task={self._task}, "
            f"device_type={self._device_type}, device_index={self._device_index})>"
        )

    __str__ = __repr__


def _parse_device(spec: str) -> dict[str, Any]:
    """The parts of device name ``spec``, by TF's rules."""
    out: dict[str, Any] = {}
    valid: frozenset[str] | None = None
    for part in spec.split("/"):
        fields = part.split(":")
        n = len(fields)
        head = fields[0]
        if n == 2 and head in ("job", "replica", "task"):
            out[head] = fields[1]
            continue
        if n in (1, 2) and head:
            if valid is None:
                valid = (
                    _KNOWN_DEVICE_TYPES
                    if head.upper() in _KNOWN_DEVICE_TYPES
                    else _valid_device_types()
                )
            if head.upper() in valid:
                if "device_type" in out:
                    raise ValueError(
                        "Multiple device types are not allowed while parsing the device "
                        f"spec: {spec}."
                    )
                out["device_type"] = head.upper()
                if n == 2 and fields[1] != "*":
                    out["device_index"] = int(fields[1])
                continue
        if n == 3 and head == "device":
            if "device_type" in out:
                raise ValueError(
                    f"Multiple device types are not allowed while parsing the device spec: {spec}."
                )
            out["device_type"] = fields[1]
            if fields[2] != "*":
                out["device_index"] = int(fields[2])
            continue
        if head:
            raise ValueError(
                f"Unknown attribute '{head}' is encountered while parsing the device spec: "
                f"'{spec}'."
            )
    return out


_device_cache: dict[tuple[str | None, str], bytes] = {}


def _merged_device(device_name: str) -> bytes:
    """``device_name`` parsed and merged into the calling thread's device
    scope (or the first device), as the full name ops will request."""
    old = _state.device
    old_text = None if old is None else old.decode("utf-8")
    key = (old_text, device_name)
    raw = _device_cache.get(key)
    if raw is None:
        new = DeviceSpec.from_string(device_name)
        base = DeviceSpec.from_string(old_text or _FIRST_DEVICE)
        merged = base.make_merged_spec(new)
        if (merged.job, merged.replica, merged.task) != ("localhost", 0, 0):
            # tfe runs one local task: TF's error for any op placed on a
            # remote one (raised here, on entering the scope).
            raise errors.InvalidArgumentError(None, None, f"{merged.to_string()} unknown device.")
        raw = merged.to_string().encode("utf-8")
        if len(_device_cache) < 1024:
            _device_cache[key] = raw
    return raw


class _DeviceScope:
    """What :func:`device` returns: the name is checked and merged when the
    block is entered (as TF's device context does)."""

    __slots__ = ("_name",)

    def __init__(self, name: str | None) -> None:
        self._name = name

    def __enter__(self) -> None:
        from tfe_py.context import _push

        name = self._name
        if name is not None and not isinstance(name, str):
            raise ValueError(f"Expecting a string device name. Got {type(name)}({name})")
        raw = None if name is None else _merged_device(name)
        _push(_state.ctx, raw)  # type: ignore[arg-type]  # None: the default context
        return None

    def __exit__(self, *exc: object) -> None:
        from tfe_py.context import _pop

        _pop()


def device(device_name: str | DeviceSpec | None) -> _DeviceScope:
    """``with tf.device(name):``: the calling thread's ops and constants
    request device ``name`` in the block, merged into the enclosing
    device scope as TF merges them. None clears the enclosing scope.

    The name is parsed when the block is entered (ValueError for a
    malformed one; InvalidArgumentError for a job, replica or task other
    than tfe's one local task); whether the device exists is decided when an
    op runs (with soft placement, which the default context has as TF's, an
    unknown device means the CPU).
    """
    if callable(device_name):
        raise RuntimeError("tf.device does not support functions.")
    if isinstance(device_name, DeviceSpec):
        device_name = device_name.to_string()
    return _DeviceScope(device_name)


# -- modes ------------------------------------------------------------------


def executing_eagerly() -> bool:
    """True unless a graph is being built (``with tfe_py.Graph():`` or a
    ``tfe_py.function`` trace) on the calling thread."""
    return _state.graph is None


def inside_function() -> bool:
    """Whether the calling thread is tracing a ``tfe_py.function``."""
    graph = _state.graph
    if graph is None:
        return False
    from tfe_py.function import FuncGraph

    return isinstance(graph, FuncGraph)


def is_tensor(x: Any) -> bool:
    """Whether ``x`` is a tensor (eager or graph), as ``tf.is_tensor``."""
    from tfe_py.tensor import Tensor

    return isinstance(x, Tensor)


def is_symbolic_tensor(tensor: Any) -> bool:
    """Whether ``tensor`` is a graph tensor (no value until it runs)."""
    from tfe_py.graph import GraphTensor

    return isinstance(tensor, GraphTensor)


def get_static_value(tensor: Any, partial: bool = False) -> Any:
    """The value of ``tensor`` as numpy when it is known without running
    anything: an eager tensor's value, a graph constant's value; None when
    unknown. Values that are not tensors are returned as they are."""
    del partial
    from tfe_py.eager import EagerTensor
    from tfe_py.graph import GraphTensor

    if isinstance(tensor, EagerTensor):
        return tensor.numpy()
    if isinstance(tensor, GraphTensor):
        op = tensor.op
        if op.type == "Const":
            try:
                value = op.get_attr("value")
            except Exception:
                return None
            return getattr(value, "numpy", lambda: value)()
        return None
    return tensor


# -- control flow bookkeeping ------------------------------------------------


def no_op(name: str | None = None) -> Any:
    """Does nothing: runs a NoOp op (None eagerly, the Operation in a graph)."""
    return _api.op("NoOp")(name=name)


def group(*inputs: Any, **kwargs: Any) -> Any:
    """An op that runs after all ``inputs``: None eagerly (everything has
    already run, as in TF); in a graph a NoOp with them as control inputs."""
    if executing_eagerly():
        return None
    from tfe_py import nest

    name = kwargs.pop("name", None)
    if kwargs:
        raise ValueError(f"Unknown keyword arguments: {list(kwargs)}")
    flat = [x for x in nest.flatten(list(inputs)) if x is not None]
    with control_dependencies(flat):
        return no_op(name=name)


def tuple(tensors: Any, control_inputs: Any = None, name: str | None = None) -> Any:
    """``tensors`` grouped so each is ready only when all are (and the
    ``control_inputs`` ran). Eagerly they already are: returned as given."""
    if executing_eagerly():
        return tensors
    deps = [t for t in tensors if t is not None]
    if control_inputs:
        deps += list(control_inputs)
    identity = _api.op("Identity")
    with control_dependencies(deps):
        return [None if t is None else identity(t) for t in tensors]


class _NullContext:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def control_dependencies(control_inputs: Any) -> Any:
    """Ops made in the block run after ``control_inputs``. Eagerly ops run
    in order anyway: callables among the inputs are called and the block is
    a no-op, as in TF. In a graph: the graph's control dependencies."""
    graph = _state.graph
    if graph is None:
        if control_inputs is not None:
            for control in control_inputs:
                if callable(control):
                    control()
        return _NullContext()
    return graph.control_dependencies(control_inputs)


class name_scope:
    """``with tf.name_scope("block") as scope:``: names ops made in the
    block ``block/...``. Eagerly only the scope text is tracked (what
    :func:`get_current_name_scope` returns), as in TF; in a graph it is the
    graph's name scope. A name ending in "/" is used as is."""

    def __init__(self, name: str) -> None:
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._exits: list[Any] = []

    @property
    def name(self) -> str:
        return self._name

    def __enter__(self) -> str:
        graph = _state.graph
        if graph is not None:
            cm = graph.name_scope(self._name)
            scope = cm.__enter__()
            self._exits.append(cm.__exit__)
            return scope
        old = getattr(_state, "name_scope", "")
        if not self._name:
            new = ""
        elif self._name.endswith("/"):
            new = self._name
        else:
            new = old + self._name + "/"
        _state.name_scope = new
        self._exits.append(lambda *exc: setattr(_state, "name_scope", old))
        return new

    def __exit__(self, *exc: Any) -> None:
        self._exits.pop()(*exc)


def get_current_name_scope() -> str:
    """The name scope in force, without its trailing "/" ("" for none)."""
    graph = _state.graph
    scope = getattr(graph, "_scope", "") if graph is not None else getattr(_state, "name_scope", "")
    return scope[:-1] if scope.endswith("/") else scope


@contextlib.contextmanager
def init_scope() -> Iterator[None]:
    """Lifts the block out of function traces, as ``tf.init_scope``: ops
    made in it run eagerly when every enclosing graph is a function trace
    (else in the outermost plain graph), without control dependencies."""
    from tfe_py.context import _scope_of

    st = _state
    graph = st.graph
    if graph is None:
        yield None
        return
    from tfe_py.function import FuncGraph

    target = None
    for g in [*st.graph_stack, graph]:
        if g is not None and not isinstance(g, FuncGraph):
            target = g
            break
    saved = (st.graph, list(st.graph_stack), st.scope)
    st.graph_stack.append(st.graph)
    st.graph = target
    st.scope = _scope_of(st)
    try:
        if target is not None:
            with target.control_dependencies(None):
                yield None
        else:
            yield None
    finally:
        st.graph, st.graph_stack[:], st.scope = saved


# -- Assert and print ----------------------------------------------------------


def _summarize(value: Any, summarize: int | None) -> str:
    import numpy as np

    from tfe_py.tensor import Tensor

    arr = np.asarray(value.numpy() if isinstance(value, Tensor) else value)
    n = 3 if summarize is None else int(summarize)
    if n < 0:
        n = arr.size
    if arr.ndim:
        flat = arr.reshape(-1)
        items = [str(x) for x in flat[:n]]
        if len(items) < flat.size:
            items.append("...")
        return ", ".join(items)
    return str(arr[()]) if n != 0 else ""


def Assert(
    condition: Any, data: Any, summarize: int | None = None, name: str | None = None
) -> Any:
    """Raises InvalidArgumentError when ``condition`` is false, with the
    first ``summarize`` (3) entries of each item of ``data`` in the message
    (TF's "Expected '<condition>' to be true. Summarized data: ...").
    Returns None eagerly. Inside a graph (or a function) it is an Assert op,
    returned, which fails with "assertion failed: [data0] [data1] ..." when
    it runs with a false condition."""
    if not executing_eagerly():
        from tfe_py.graph import convert_to_tensor

        cond = convert_to_tensor(condition, "bool")
        items = [convert_to_tensor(x) for x in data]
        return _api.op("Assert")(
            cond, items, summarize=3 if summarize is None else int(summarize), name=name
        )
    if not condition:
        from tfe_py.graph import convert_to_tensor

        parts = [_summarize(convert_to_tensor(x), summarize) for x in data]
        raise errors.InvalidArgumentError(
            None,
            None,
            f"Expected '{condition!s}' to be true. Summarized data: {chr(10).join(parts)}",
        )
    return None


def _stream_name(stream: Any) -> str | None:
    if isinstance(stream, str) and stream.startswith("file://"):
        return stream
    if stream is sys.stdout:
        return "stdout"
    if stream is sys.stderr:
        return "stderr"
    levels = {
        logging.INFO: "log(info)",
        logging.WARNING: "log(warning)",
        logging.ERROR: "log(error)",
    }
    if isinstance(stream, int) and not isinstance(stream, bool):
        return levels.get(stream)
    funcs = {
        logging.info: "log(info)",
        logging.warning: "log(warning)",
        logging.warn: "log(warning)",
        logging.error: "log(error)",
    }
    return funcs.get(stream)


def _placeholder(template: str) -> str:
    # A marker no input's text contains.
    mark = "{}"
    i = 0
    while mark in template:
        i += 1
        mark = f"{{{i}}}"
    return mark


def print(*inputs: Any, **kwargs: Any) -> Any:
    """``tf.print``: prints ``inputs`` (tensors, Python values and nested
    structures of them) separated by ``sep`` and followed by ``end``, with
    TF's formatting: tensors as the StringFormat op writes them (at most
    ``summarize`` (3) entries at each end of every dimension; -1: all),
    other values as ``pprint`` and strings as they are.

    ``output_stream``: ``sys.stderr`` (default), ``sys.stdout``,
    ``"file://<path>"`` (appended to) or a logging level/function
    (``logging.INFO``, ``logging.info``, ...). Returns None eagerly and the
    PrintV2 operation in a graph.
    """
    from tfe_py import nest
    from tfe_py.tensor import Tensor

    output_stream = kwargs.pop("output_stream", sys.stderr)
    name = kwargs.pop("name", None)
    summarize = kwargs.pop("summarize", 3)
    sep = kwargs.pop("sep", " ")
    end = kwargs.pop("end", os.linesep)
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments for tf.print: {kwargs}")
    stream = _stream_name(output_stream)
    if stream is None:
        raise ValueError(
            "Unsupported output stream, logging level, or file."
            f"{output_stream}. Supported streams are sys.stdout, sys.stderr, "
            "tf.logging.info, tf.logging.warning, tf.logging.error. File needs to be in "
            "the form of 'file://<filepath>'."
        )
    string_format = _api.op("StringFormat")
    if (
        len(inputs) == 1
        and isinstance(inputs[0], Tensor)
        and inputs[0].shape.rank == 0
        and inputs[0].dtype == "string"
    ):
        text = inputs[0]
    else:
        # Text of every input with its tensors replaced by a marker, then
        # one StringFormat op fills the markers in.
        def sort_ordered(x: Any) -> Any:
            import collections

            if isinstance(x, collections.OrderedDict):
                return collections.OrderedDict(sorted(x.items()))
            return x

        free = nest.map_structure(
            lambda x: "" if isinstance(x, Tensor) else x, [sort_ordered(x) for x in inputs]
        )
        mark = _placeholder(" ".join(pprint.pformat(x) for x in free))
        tensors: list[Any] = []
        templates = []
        for value in inputs:
            leaves = []
            for leaf in nest.flatten(value):
                if isinstance(leaf, Tensor):
                    tensors.append(leaf)
                    leaves.append(mark)
                else:
                    leaves.append(leaf)
            if isinstance(value, str):
                templates.append(value)
            else:
                templates.append(pprint.pformat(nest.pack_sequence_as(value, leaves)))
        template = sep.join(templates).replace(f"'{mark}'", mark)
        text = string_format(
            tensors, template=template, placeholder=mark, summarize=int(summarize)
        )
    if executing_eagerly() and stream in ("stdout", "stderr"):
        # Through Python's stream object, so that its buffering and any
        # redirection (pytest, contextlib.redirect_stdout) see the text.
        out = sys.stdout if stream == "stdout" else sys.stderr
        raw = (text.numpy() if isinstance(text, Tensor) else text) + end.encode("utf-8")
        buffer = getattr(out, "buffer", None)
        if buffer is not None:
            # The bytes as they are (TF writes strings unchanged, UTF-8 or not).
            out.flush()
            buffer.write(raw)
            buffer.flush()
        else:
            out.write(raw.decode("utf-8", "replace"))
            out.flush()
        return None
    return _api.op("PrintV2")(text, output_stream=stream, end=end, name=name)


# -- odds and ends -----------------------------------------------------------


def timestamp(name: str | None = None) -> Any:
    """Seconds since the epoch as a float64 scalar (the Timestamp op)."""
    return _api.op("Timestamp")(name=name)


def get_logger() -> logging.Logger:
    """The logger of tfe_py (TF returns its "tensorflow" logger)."""
    return logging.getLogger("tfe_py")


def make_tensor_proto(
    values: Any,
    dtype: Any = None,
    shape: Any = None,
    verify_shape: bool = False,
    allow_broadcast: bool = False,
) -> Any:
    """``values`` as a TensorProto (tfe's own small class: protobuf wire
    format via ``SerializeToString``, text format via ``str``), with TF's
    rules for dtype, shape and the field the values go to."""
    from tfe_py import _tensor_proto

    return _tensor_proto.make_tensor_proto(values, dtype, shape, verify_shape, allow_broadcast)


def make_ndarray(tensor: Any) -> Any:
    """The numpy array of a TensorProto (from :func:`make_tensor_proto` or
    ``TensorProto.FromString``)."""
    from tfe_py import _tensor_proto

    return _tensor_proto.make_ndarray(tensor)


def register_tensor_conversion_function(
    base_type: Any, conversion_func: Callable[..., Any], priority: int = 100
) -> None:
    """Not supported: tfe_py's convert_to_tensor has no conversion registry."""
    raise NotImplementedError(
        "tf.register_tensor_conversion_function: tfe_py's convert_to_tensor has no "
        "registry of conversion functions"
    )
