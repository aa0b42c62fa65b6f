"""``@tfe_py.function``: Python functions traced into TF functions.

A :class:`Function` wraps a Python function. The first call with a given
input signature *traces* it: the Python code runs once with symbolic
placeholders in a :class:`FuncGraph` (the op wrappers add nodes there, as
in ``with tfe_py.Graph():``), the graph becomes a TF function
(``TF_GraphToFunction``), and the function is registered with the eager
context (``TFE_ContextAddFunction``). That call and every later call with
the same signature run the function by name (``TFE_Execute`` through the
same one-call C glue as the op wrappers) and return EagerTensors in the
structure the Python function returned.

The signature of a call, as ``tf.function`` forms it:

* a tensor argument (an EagerTensor or a numpy array) counts by dtype and
  shape: a new dtype, rank or dimension traces again;
* any other argument (Python numbers, strings, None, ...) counts by value:
  ``f(x, 2)`` and ``f(x, 3)`` are two traces, and the value is a constant
  of the traced graph;
* lists, tuples, namedtuples and dicts of those count by structure.

``input_signature=[TensorSpec(shape, dtype), ...]`` fixes the signature
instead: the function is traced once, for those specs (None dimensions or
``shape=None`` accept any size or rank), Python values are converted to the
spec's dtype, and a call that does not fit is a TypeError.

EagerTensors the Python function uses without getting them as arguments
(closures, globals) are *captured*: they become extra inputs of the TF
function, fed with their current handle on every call. Stateful ops run in
program order (each depends on the one before, as TF's automatic control
dependencies) and run even when no output depends on them.

Calling a Function while a graph is being built (inside ``with
tfe_py.Graph():`` or inside another Function's trace) runs the Python code
right there, adding its ops to that graph.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import re
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from tfe_py import _opgen, dtypes, errors, gradient_tape, variables
from tfe_py._ffi import CData, ffi, lib
from tfe_py.context import Context, _state, default_context
from tfe_py.eager import DType, EagerTensor, _raise_pending, as_dtype, constant
from tfe_py.errors import status
from tfe_py.graph import (
    _VALID_NAME,
    Graph,
    GraphTensor,
    Operation,
    _outputs_array,
)
from tfe_py.tensor_shape import TensorShape

__all__ = [
    "ConcreteFunction",
    "FuncGraph",
    "Function",
    "TensorSpec",
    "case",
    "cond",
    "function",
    "switch_case",
    "while_loop",
]

_new_object = object.__new__
_new_arr = ffi.new
_execute = lib.tfe_py_fast_execute
_NULL = ffi.NULL


def _no_context() -> None:
    return None


def _fast_key(args: Sequence[EagerTensor]) -> tuple[Any, ...]:
    """The key of the fast path: each tensor's (dtype, shape)."""
    return tuple([(a.dtype, a.shape) for a in args])


_uid = itertools.count(1)


def _dims(shape: Any) -> tuple[int | None, ...] | None:
    """A tensor's shape as this module works with it: a tuple of dims, or
    None for an unknown rank (TensorShape(None))."""
    if shape is None or getattr(shape, "rank", 0) is None:
        return None
    return tuple(shape)
_FAST_CACHE_LIMIT = 1024


# ---------------------------------------------------------------------------
# TensorSpec


class TensorSpec:
    """The dtype and (possibly partial) shape of a tensor argument.

    ``shape`` None means any rank; a None dimension any size.
    """

    __slots__ = ("dtype", "name", "shape")

    def __init__(
        self,
        shape: Sequence[int | None] | None = None,
        dtype: Any = "float32",
        name: str | None = None,
    ) -> None:
        shape = _dims(shape) if isinstance(shape, TensorShape) else shape
        if shape is not None:
            dims: list[int | None] = []
            for d in shape:
                if d is None:
                    dims.append(None)
                elif isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d >= 0:
                    dims.append(int(d))
                elif isinstance(d, (int, np.integer)) and d == -1:
                    dims.append(None)
                else:
                    raise ValueError(f"TensorSpec: bad dimension {d!r} in shape {shape!r}")
            self.shape: tuple[int | None, ...] | None = tuple(dims)
        else:
            self.shape = None
        self.dtype = DType(as_dtype(dtype))
        self.name = name

    @classmethod
    def from_tensor(cls, tensor: Any, name: str | None = None) -> TensorSpec:
        return cls(tensor.shape, tensor.dtype, name)

    def is_compatible_with(self, other: Any) -> bool:
        """True when ``other`` (a tensor or TensorSpec) has this dtype and a
        shape this spec accepts."""
        if int(other.dtype) != int(self.dtype):
            return False
        return _shape_fits(self.shape, _dims(other.shape))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TensorSpec)
            and self.shape == other.shape
            and int(self.dtype) == int(other.dtype)
            and self.name == other.name
        )

    def __hash__(self) -> int:
        return hash((self.shape, int(self.dtype), self.name))

    def __repr__(self) -> str:
        return f"TensorSpec(shape={self.shape}, dtype=tfe_py.{self.dtype.name}, name={self.name!r})"


def _shape_fits(spec: tuple[int | None, ...] | None, shape: Any) -> bool:
    if spec is None:
        return True
    if shape is None or len(spec) != len(shape):
        return False
    return all(a is None or b is None or a == b for a, b in zip(spec, shape, strict=True))


# ---------------------------------------------------------------------------
# FuncGraph


class FuncGraph(Graph):
    """The graph a Function is traced into.

    Tensors from outside (EagerTensors, tensors of an enclosing graph) are
    captured as extra placeholders; stateful ops get a control dependency
    on the stateful op made before them.
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.inputs: list[GraphTensor] = []  # argument placeholders, then captures
        self.captures: list[tuple[Any, GraphTensor]] = []
        self._capture_index: dict[Any, GraphTensor] = {}
        self.stateful_ops: list[Operation] = []
        # ConcreteFunctions named by func attrs of this graph's ops.
        self.functions: list[ConcreteFunction] = []

    def _capture(self, value: Any) -> GraphTensor:
        if isinstance(value, GraphTensor):
            key: Any = ("g", value)
        else:
            key = ("e", id(value))
        hit = self._capture_index.get(key)
        if hit is not None:
            return hit
        shape = _dims(value.shape)
        ph = _new_placeholder(self, int(value.dtype), shape, f"capture_{len(self.captures)}")
        self.captures.append((value, ph))
        self._capture_index[key] = ph
        return ph

    def _before_finish(self, desc: CData, op_def: _opgen.OpDef) -> None:
        if op_def.is_stateful and self.stateful_ops:
            lib.TF_AddControlInput(desc, self.stateful_ops[-1]._ptr)

    def _after_finish(self, op: Operation, op_def: _opgen.OpDef | None) -> None:
        if op_def is not None and op_def.is_stateful:
            self.stateful_ops.append(op)


def _new_placeholder(
    g: Graph, tf_dtype: int, shape: Sequence[int | None] | None, name: str
) -> GraphTensor:
    """A Placeholder without the control dependencies or device of the
    current scope (function arguments and captures)."""
    node = g.unique_name(name)
    desc = lib.TF_NewOperation(g.ptr, b"Placeholder", node.encode("utf-8"))
    if desc == ffi.NULL:
        raise errors.out_of_memory("TF_NewOperation returned NULL")
    lib.TF_SetAttrType(desc, b"dtype", tf_dtype)
    if shape is not None:
        dims = [-1 if d is None else int(d) for d in shape]
        lib.TF_SetAttrShape(
            desc, b"shape", ffi.new("int64_t[]", dims) if dims else ffi.NULL, len(dims)
        )
    with status() as s:
        oper = lib.TF_FinishOperation(desc, s)
    return GraphTensor(g._wrap_op(oper), 0)


# ---------------------------------------------------------------------------
# Structures


def _is_namedtuple(x: Any) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


def _key_order(mapping: Mapping[Any, Any]) -> list[Any]:
    """Dict keys in the order structures are flattened: sorted when they
    can be, else as inserted."""
    keys = list(mapping.keys())
    try:
        return sorted(keys)
    except TypeError:
        return keys


def _flatten(structure: Any, leaves: list[Any]) -> Any:
    """Appends the leaves of ``structure`` to ``leaves``; returns a spec to
    rebuild it with :func:`_rebuild`."""
    if isinstance(structure, Mapping):
        keys = _key_order(structure)
        return ("dict", type(structure), [(k, _flatten(structure[k], leaves)) for k in keys])
    if _is_namedtuple(structure):
        return ("nt", type(structure), [_flatten(v, leaves) for v in structure])
    if isinstance(structure, (list, tuple)):
        return ("seq", type(structure), [_flatten(v, leaves) for v in structure])
    leaves.append(structure)
    return ("leaf", len(leaves) - 1)


def _rebuild(spec: Any, leaves: Sequence[Any]) -> Any:
    kind = spec[0]
    if kind == "leaf":
        return leaves[spec[1]]
    if kind == "dict":
        pairs = [(k, _rebuild(v, leaves)) for k, v in spec[2]]
        try:
            return spec[1](pairs)
        except TypeError:
            return dict(pairs)
    if kind == "nt":
        return spec[1](*(_rebuild(v, leaves) for v in spec[2]))
    items = [_rebuild(v, leaves) for v in spec[2]]
    return items if spec[1] is list else spec[1](items)


def _freeze_spec(spec: Any) -> Any:
    """A hashable form of a structure spec."""
    kind = spec[0]
    if kind == "leaf":
        return spec
    if kind == "dict":
        return (kind, spec[1], tuple((k, _freeze_spec(v)) for k, v in spec[2]))
    return (kind, spec[1], tuple(_freeze_spec(v) for v in spec[2]))


def _leaf_key(value: Any) -> Any:
    """What a leaf argument contributes to the signature."""
    if isinstance(value, EagerTensor):
        return ("T", int(value.dtype), value.shape)
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "SUO":
            return ("T", int(lib.TF_STRING), value.shape)
        return ("T", int(dtypes.from_numpy_dtype(value.dtype)), value.shape)
    if isinstance(value, (GraphTensor, Operation)):
        raise TypeError(
            "a symbolic GraphTensor cannot be passed to a tfe_py.function called eagerly"
        )
    try:
        hash(value)
    except TypeError:
        return ("O", id(value))
    return ("P", type(value), value)


# ---------------------------------------------------------------------------
# ConcreteFunction


class ConcreteFunction:
    """One trace of a :class:`Function`: a TF function for one signature.

    ``name`` is the name it is registered under; ``graph`` the FuncGraph it
    was traced in (``graph.inputs``: argument placeholders then captures);
    ``captured_inputs`` the EagerTensors fed to the captures;
    ``structured_outputs`` what the Python function returned, with graph
    tensors. Calling it takes the flat tensor arguments of its signature.
    """

    def __init__(
        self,
        graph: FuncGraph,
        arg_placeholders: list[GraphTensor],
        out_spec: Any,
        out_leaves: list[Any],
        structured_outputs: Any,
        arg_specs: list[TensorSpec],
    ) -> None:
        self._ptr: CData = ffi.NULL
        self.graph = graph
        self.name = graph.name
        self._name_bytes = graph.name.encode("utf-8")
        self.structured_outputs = structured_outputs
        self.arg_specs = arg_specs
        self._out_spec = out_spec
        # Leaves of the output: an index into the flat outputs, or None.
        self._out_map: list[int | None] = []
        outputs: list[GraphTensor] = []
        with graph.as_default(), graph.control_dependencies(None):
            identity = _opgen.wrapper("Identity")
            for leaf in out_leaves:
                if leaf is None:
                    self._out_map.append(None)
                    continue
                self._out_map.append(len(outputs))
                outputs.append(identity(leaf, name="output"))
        self.outputs = outputs
        for _, ph in graph.captures:
            graph.inputs.append(ph)
        self.inputs = list(graph.inputs)
        self.captured_inputs = [c for c, _ in graph.captures]
        # Captured tensors of an enclosing graph (control-flow branches): such
        # a function is only ever called by an op of that graph.
        self._graph_captures = [c for c in self.captured_inputs if not isinstance(c, EagerTensor)]
        self._n_out = len(outputs)
        self._single = out_spec[0] == "leaf" and self._n_out == 1
        self._contexts: weakref.WeakSet[Context] = weakref.WeakSet()
        self._last_ctx: Callable[[], Context | None] = _no_context
        self._lock = threading.Lock()
        in_arr = _outputs_array(self.inputs)
        out_arr = _outputs_array(outputs)
        stateful = [op for op in graph.stateful_ops]
        ctl = ffi.new("TF_Operation*[]", [op._ptr for op in stateful] or [ffi.NULL])
        ctl_names_keep = [ffi.new("char[]", op.name.encode("utf-8")) for op in stateful]
        ctl_names = ffi.new("char*[]", ctl_names_keep or [ffi.NULL])
        with status() as s:
            if stateful:
                ptr = lib.TF_GraphToFunctionWithControlOutputs(
                    graph.ptr,
                    self._name_bytes,
                    0,
                    -1,
                    ffi.NULL,
                    len(self.inputs),
                    in_arr,
                    len(outputs),
                    out_arr,
                    ffi.NULL,
                    len(stateful),
                    ctl,
                    ctl_names,
                    ffi.NULL,
                    ffi.NULL,
                    s,
                )
            else:
                ptr = lib.TF_GraphToFunction(
                    graph.ptr,
                    self._name_bytes,
                    0,
                    -1,
                    ffi.NULL,
                    len(self.inputs),
                    in_arr,
                    len(outputs),
                    out_arr,
                    ffi.NULL,
                    ffi.NULL,
                    ffi.NULL,
                    s,
                )
        self._ptr = ptr

    def __del__(self) -> None:
        ptr, self._ptr = getattr(self, "_ptr", ffi.NULL), ffi.NULL
        if ptr:
            try:
                lib.TF_DeleteFunction(ptr)
            except Exception:  # interpreter shutdown
                pass

    @property
    def function_def(self) -> bytes:
        """The serialized FunctionDef (TF_FunctionToFunctionDef)."""
        buf = lib.TF_NewBuffer()
        if buf == ffi.NULL:
            raise errors.out_of_memory("TF_NewBuffer returned NULL")
        try:
            with status() as s:
                lib.TF_FunctionToFunctionDef(self._ptr, buf, s)
            return _opgen._buffer_bytes(buf)
        finally:
            lib.TF_DeleteBuffer(buf)

    def _tfe_func_attr(self) -> str:
        """Makes this function known where the current op goes (the eager
        context, or the graph being built) and returns its name: a func
        attr given a ConcreteFunction (tfe_py._opgen)."""
        scope = _state.scope[0]
        if scope is None:
            scope = default_context()
        if scope.__class__ is Context:
            self._register(scope)
        else:
            self._add_to_graph(scope.graph)
        return self.name

    def _library(self) -> list[CData]:
        """Every function of the library of the graph this function was
        traced in (owned copies), its own excepted: besides the traced
        functions it calls, that holds what the C runtime added while
        tracing (TF_AddGradients' backward and forward-variant functions
        of If/Case/While/call nodes), which a caller needs too."""
        g = self.graph.ptr
        if not g:
            return []
        n = lib.TF_GraphNumFunctions(g)
        if n <= 0:
            return []
        arr = ffi.new("TF_Function*[]", n)
        with status() as s:
            got = lib.TF_GraphGetFunctions(g, arr, n, s)
        own = self.name.encode("utf-8")
        out: list[CData] = []
        for i in range(got):
            fn = ffi.gc(arr[i], lib.TF_DeleteFunction)
            if ffi.string(lib.TF_FunctionName(fn)) != own:
                out.append(fn)
        return out

    def _add_to_graph(self, graph: Graph) -> None:
        for dep in self.graph.functions:
            dep._add_to_graph(graph)
        for fn in [*self._library(), self._ptr]:
            with status() as s:
                lib.TF_GraphCopyFunction(graph.ptr, fn, ffi.NULL, s)
        if isinstance(graph, FuncGraph) and self not in graph.functions:
            graph.functions.append(self)

    def _register(self, ctx: Context) -> None:
        if ctx.__class__ is not Context:
            raise RuntimeError(
                f"{self.name}: a ConcreteFunction runs eagerly; while a graph is being "
                "built, call the tfe_py.function itself (its Python code then adds ops)"
            )
        with self._lock:
            if ctx not in self._contexts:
                for dep in self.graph.functions:
                    dep._register(ctx)
                for fn in [*self._library(), self._ptr]:
                    with status() as s:
                        lib.TFE_ContextAddFunction(ctx.ptr, fn, s)
                self._contexts.add(ctx)
            self._last_ctx = weakref.ref(ctx)

    def _call_flat(self, tensors: Sequence[EagerTensor]) -> Any:
        """Runs the function on the flat argument tensors (already checked)
        and returns the structured outputs."""
        ctx, dev = _state.scope
        if ctx is None:
            ctx = default_context()
        if ctx is not self._last_ctx():
            self._register(ctx)
        handles = [t._h for t in tensors]
        if self.captured_inputs:
            if self._graph_captures:
                raise TypeError(
                    f"{self.name}: captures a tensor of another graph "
                    f"({self._graph_captures[0].name}); it cannot be called eagerly"
                )
            handles += [c._h for c in self.captured_inputs]
            if gradient_tape._tapes.active:
                # The body reads captured variables: tapes that watch
                # accessed variables watch them, as an eager read would.
                for c in self.captured_inputs:
                    var = variables._by_handle.get(id(c))
                    if var is not None and var.handle is c:
                        gradient_tape._variable_accessed(var)
        if not all(handles):
            raise ValueError(f"{self.name}: an input is a closed tensor")
        n_out = self._n_out
        fname, n_extra = self._name_bytes, 0
        if gradient_tape._tapes.active:
            # A tape may record the call: run the forward variant that also
            # returns the values the gradient needs (the tape keeps them).
            fname, n_extra = self._forward_variant(ctx)
        in_arr = _new_arr("TFE_TensorHandle*[]", handles or 1)
        out_arr = _new_arr("TFE_TensorHandle*[]", (n_out + n_extra) or 1)
        n = _execute(
            ctx._ptr, fname, dev, b"", 0, in_arr, _NULL, len(handles), out_arr, n_out + n_extra
        )
        if n < 0:
            _raise_pending(f"function {self.name}")
        if n_extra:
            for i in range(n_out, n):
                lib.TFE_DeleteTensorHandle(out_arr[i])
            n = min(n, n_out)
        if self._single:
            t = _new_object(EagerTensor)
            t._h = out_arr[0]
            t._ctx = ctx
            return t
        outs = []
        for i in range(n):
            t = _new_object(EagerTensor)
            t._h = out_arr[i]
            t._ctx = ctx
            outs.append(t)
        leaves = [None if k is None else outs[k] for k in self._out_map]
        return _rebuild(self._out_spec, leaves)

    def _forward_variant(self, ctx: Context) -> tuple[bytes, int]:
        """The name and extra output count of this function's forward
        variant in ctx (TFE_ContextAddForwardFunction): its gradient uses
        the forward pass's own values. This function itself (0 extra) when
        the variant cannot be built."""
        variants = self.__dict__.setdefault("_variants", weakref.WeakKeyDictionary())
        hit = variants.get(ctx)
        if hit is None:
            buf = ffi.new("char[]", 1024)
            s = lib.TF_NewStatus()
            try:
                n = int(lib.TFE_ContextAddForwardFunction(ctx._ptr, self._name_bytes, buf, 1024, s))
            finally:
                lib.TF_DeleteStatus(s)
            hit = (ffi.string(buf), n) if n >= 0 else (self._name_bytes, 0)
            variants[ctx] = hit
        return hit

    def __call__(self, *args: Any) -> Any:
        """Calls the function with its flat tensor arguments (as many as
        ``graph.inputs`` minus the captures), checked against the specs."""
        if len(args) != len(self.arg_specs):
            raise TypeError(
                f"{self.name} takes {len(self.arg_specs)} tensor arguments, got {len(args)}"
            )
        tensors = [
            _check_against(spec, a, i)
            for i, (spec, a) in enumerate(zip(self.arg_specs, args, strict=True))
        ]
        return self._call_flat(tensors)

    def __repr__(self) -> str:
        return f"<tfe_py.ConcreteFunction {self.name} {self.arg_specs}>"


def _check_against(spec: TensorSpec, value: Any, pos: int) -> EagerTensor:
    if not isinstance(value, EagerTensor):
        try:
            value = constant(value, spec.dtype)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"argument #{pos}: cannot convert {value!r} to {spec}: {exc}") from None
    if not spec.is_compatible_with(value):
        raise TypeError(
            f"argument #{pos}: a tensor of dtype {value.dtype.name} and shape {value.shape} "
            f"does not match {spec}"
        )
    return value


# ---------------------------------------------------------------------------
# Function


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", name) or "fn"


class Function:
    """A Python function traced into TF functions; see the module docstring."""

    def __init__(
        self,
        python_function: Callable[..., Any],
        input_signature: Sequence[Any] | None = None,
        name: str | None = None,
    ) -> None:
        if not callable(python_function):
            raise TypeError(f"tfe_py.function needs a callable, got {python_function!r}")
        self._python_function = python_function
        self._name = name or getattr(python_function, "__name__", "function")
        self._lock = threading.RLock()
        self._cache: dict[Any, ConcreteFunction] = {}
        self._fast: dict[Any, ConcreteFunction] = {}
        self._trace_count = 0
        self._descriptor_cache: weakref.WeakKeyDictionary[Any, Function] = (
            weakref.WeakKeyDictionary()
        )
        try:
            self._signature: inspect.Signature | None = inspect.signature(python_function)
        except (TypeError, ValueError):
            self._signature = None
        # Positional-only calls with exactly this many EagerTensors skip
        # argument binding (None: the function has *args, **kwargs or
        # keyword-only parameters).
        self._arity: int | None = None
        if self._signature is not None:
            params = list(self._signature.parameters.values())
            if all(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params):
                self._arity = len(params)
        self._input_signature: list[Any] | None = None
        self._sig_spec: Any = None
        self._sig_specs: list[TensorSpec] = []
        if input_signature is not None:
            if not isinstance(input_signature, (list, tuple)):
                raise TypeError(
                    f"input_signature must be a list or tuple of TensorSpec, got "
                    f"{type(input_signature).__name__}"
                )
            leaves: list[Any] = []
            self._sig_spec = _flatten(list(input_signature), leaves)
            for leaf in leaves:
                if not isinstance(leaf, TensorSpec):
                    raise TypeError(f"input_signature holds {leaf!r}, not a TensorSpec")
            self._input_signature = list(input_signature)
            self._sig_specs = leaves
            if self._signature is not None:
                params = [
                    p
                    for p in self._signature.parameters.values()
                    if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                ]
                if len(input_signature) > len(params) and not any(
                    p.kind == p.VAR_POSITIONAL for p in self._signature.parameters.values()
                ):
                    raise TypeError(
                        f"input_signature has {len(input_signature)} entries but "
                        f"{self._name} takes {len(params)} positional arguments"
                    )
        functools.update_wrapper(self, python_function)  # type: ignore[arg-type]

    # -- introspection ------------------------------------------------------

    @property
    def python_function(self) -> Callable[..., Any]:
        return self._python_function

    @property
    def input_signature(self) -> list[Any] | None:
        return self._input_signature

    @property
    def trace_count(self) -> int:
        """How many times the Python function was traced."""
        return self._trace_count

    def experimental_get_tracing_count(self) -> int:
        """As ``tf.function``: how many times the function was traced."""
        return self._trace_count

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        """Methods: each instance gets its own Function (and traces)."""
        if instance is None:
            return self
        try:
            return self._descriptor_cache[instance]
        except KeyError:
            pass
        except TypeError:  # unhashable or not weak-referenceable instance
            slot = f"_tfe_py_function_{id(self)}"
            found = getattr(instance, "__dict__", {}).get(slot)
            if found is not None:
                return found
        bound = Function(
            self._python_function.__get__(instance, owner),
            self._input_signature,
            self._name,
        )
        try:
            self._descriptor_cache[instance] = bound
        except TypeError:
            try:  # keep it on the instance itself
                instance.__dict__[f"_tfe_py_function_{id(self)}"] = bound
            except (AttributeError, TypeError):
                pass  # no place to keep it: each access traces anew
        return bound

    def _tfe_func_attr(self) -> str:
        """A Function as a func attr (``then_branch=f``): its one trace,
        which needs an input_signature."""
        if self._input_signature is None:
            raise TypeError(
                f"{self._name}: a tfe_py.function given as a func attr needs an "
                "input_signature (or pass f.get_concrete_function(...))"
            )
        return self._trace_signature()._tfe_func_attr()

    # -- calling ----------------------------------------------------------

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _state.graph is not None:
            # Building a graph (or tracing another function): inline.
            return self._python_function(*args, **kwargs)
        if not kwargs and len(args) == self._arity:
            for a in args:
                if a.__class__ is not EagerTensor:
                    break
            else:
                try:  # the tensors' cached dtype and shape (set on first use)
                    key = tuple([(a._dtype, a._shape) for a in args])
                except AttributeError:
                    key = _fast_key(args)
                cf = self._fast.get(key)
                if cf is not None:
                    return cf._call_flat(args)
        cf, tensors = self._lookup(args, kwargs)
        return cf._call_flat(tensors)

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> ConcreteFunction:
        """The trace for these arguments (traced now if needed). Tensors may
        be given as TensorSpecs. With an input_signature, no arguments are
        needed."""
        if self._input_signature is not None:
            if args or kwargs:
                specs = [
                    a if isinstance(a, TensorSpec) else None for a in (*args, *kwargs.values())
                ]
                if None in specs:
                    self._lookup_signature(args, dict(kwargs))  # checks the values
                elif len(specs) != len(self._sig_specs) or not all(
                    _spec_within(a, b) for a, b in zip(specs, self._sig_specs, strict=True)
                ):
                    raise TypeError(
                        f"{self._name}: {specs} do not match the input_signature "
                        f"{self._input_signature!r}"
                    )
            return self._trace_signature()
        cf, _ = self._lookup(args, kwargs, spec_args=True)
        return cf

    def _bind(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[tuple[str, Any]]:
        if self._signature is None:
            if kwargs:
                raise TypeError(f"{self._name}: keyword arguments need an inspectable function")
            return [(f"arg{i}", a) for i, a in enumerate(args)]
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"{self._name}(): {exc}") from None
        bound.apply_defaults()
        return list(bound.arguments.items())

    def _lookup(
        self, args: tuple[Any, ...], kwargs: dict[str, Any], spec_args: bool = False
    ) -> tuple[ConcreteFunction, list[EagerTensor]]:
        if self._input_signature is not None:
            return self._lookup_signature(args, kwargs)
        named = self._bind(args, kwargs)
        leaves: list[Any] = []
        spec = _flatten([v for _, v in named], leaves)
        leaf_keys = tuple(
            ("T", int(x.dtype), x.shape)
            if spec_args and isinstance(x, TensorSpec)
            else _leaf_key(x)
            for x in leaves
        )
        key = (tuple(n for n, _ in named), _freeze_spec(spec), leaf_keys)
        with self._lock:
            cf = self._cache.get(key)
            if cf is None:
                cf = self._trace(named, spec, leaves, leaf_keys)
                self._cache[key] = cf
            # Remember pure-tensor positional calls for the fast path.
            if (
                not spec_args
                and self._arity is not None
                and len(named) == self._arity
                and len(args) == self._arity
                and not kwargs
                and all(a.__class__ is EagerTensor for a in args)
            ):
                if len(self._fast) >= _FAST_CACHE_LIMIT:
                    self._fast.clear()
                self._fast[_fast_key(args)] = cf
        if spec_args:
            return cf, []
        tensors = [
            x if isinstance(x, EagerTensor) else constant(x)
            for x, k in zip(leaves, leaf_keys, strict=True)
            if k[0] == "T"
        ]
        return cf, tensors

    def _trace(
        self, named: list[tuple[str, Any]], spec: Any, leaves: list[Any], leaf_keys: tuple[Any, ...]
    ) -> ConcreteFunction:
        fname = f"__inference_{_safe_name(self._name)}_{next(_uid)}"
        graph = FuncGraph(fname)
        placeholders: list[GraphTensor] = []
        arg_specs: list[TensorSpec] = []
        traced: list[Any] = []
        arg_names = _leaf_names(named, leaves)
        for x, k, nm in zip(leaves, leaf_keys, arg_names, strict=True):
            if k[0] == "T":
                ph = _new_placeholder(graph, k[1], k[2], nm)
                placeholders.append(ph)
                arg_specs.append(TensorSpec(k[2], k[1]))
                traced.append(ph)
            else:
                traced.append(x)
        graph.inputs = list(placeholders)
        return self._finish_trace(graph, named, spec, traced, placeholders, arg_specs)

    def _finish_trace(
        self,
        graph: FuncGraph,
        named: list[tuple[str, Any]] | None,
        spec: Any,
        traced: list[Any],
        placeholders: list[GraphTensor],
        arg_specs: list[TensorSpec],
    ) -> ConcreteFunction:
        values = _rebuild(spec, traced)
        if named is None:  # input_signature: the values are the positional arguments
            call_args, call_kwargs = list(values), {}
        else:
            call_args, call_kwargs = self._unbind(named, values)
        with graph.as_default():
            result = self._python_function(*call_args, **call_kwargs)
            out_leaves: list[Any] = []
            out_spec = _flatten(result, out_leaves)
            converted: list[Any] = []
            for leaf in out_leaves:
                if leaf is None or isinstance(leaf, Operation):
                    converted.append(None)
                elif isinstance(leaf, GraphTensor):
                    converted.append(leaf)
                else:
                    from tfe_py.graph import convert_to_tensor

                    converted.append(convert_to_tensor(leaf))
        structured = _rebuild(out_spec, converted)
        cf = ConcreteFunction(graph, placeholders, out_spec, converted, structured, arg_specs)
        self._trace_count += 1
        return cf

    def _unbind(
        self, named: list[tuple[str, Any]], values: list[Any]
    ) -> tuple[list[Any], dict[str, Any]]:
        if self._signature is None:
            return list(values), {}
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        params = self._signature.parameters
        for (n, _), v in zip(named, values, strict=True):
            kind = params[n].kind
            if kind == inspect.Parameter.VAR_POSITIONAL:
                args.extend(v)
            elif kind == inspect.Parameter.VAR_KEYWORD:
                kwargs.update(v)
            elif kind == inspect.Parameter.KEYWORD_ONLY:
                kwargs[n] = v
            else:
                args.append(v)
        return args, kwargs

    # -- input_signature ----------------------------------------------------

    def _trace_signature(self) -> ConcreteFunction:
        with self._lock:
            cf = self._cache.get("signature")
            if cf is not None:
                return cf
            fname = f"__inference_{_safe_name(self._name)}_{next(_uid)}"
            graph = FuncGraph(fname)
            placeholders = [
                _new_placeholder(graph, int(s.dtype), s.shape, s.name or f"arg{i}")
                for i, s in enumerate(self._sig_specs)
            ]
            graph.inputs = list(placeholders)
            assert self._input_signature is not None
            n = len(self._input_signature)
            spec = ("seq", list, [self._sig_spec_entry(i) for i in range(n)])
            cf = self._finish_trace(graph, None, spec, placeholders, placeholders, self._sig_specs)
            self._cache["signature"] = cf
            return cf

    def _sig_spec_entry(self, i: int) -> Any:
        return self._sig_spec[2][i]

    def _param_names(self, n: int) -> list[str]:
        if self._signature is None:
            return [f"arg{i}" for i in range(n)]
        names = []
        for p in self._signature.parameters.values():
            if p.kind == p.VAR_POSITIONAL:
                names += [f"{p.name}_{i}" for i in range(n - len(names))]
                break
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                names.append(p.name)
            if len(names) == n:
                break
        return names

    def _lookup_signature(
        self, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[ConcreteFunction, list[EagerTensor]]:
        assert self._input_signature is not None
        n = len(self._input_signature)
        values = list(args)
        if kwargs:
            names = self._param_names(n)
            for nm in names[len(values) :]:
                if nm in kwargs:
                    values.append(kwargs.pop(nm))
                else:
                    break
            if kwargs:
                raise TypeError(
                    f"{self._name}(): unexpected arguments {sorted(kwargs)} for its input_signature"
                )
        if len(values) != n:
            raise TypeError(
                f"{self._name}() takes {n} arguments as its input_signature says, got {len(values)}"
            )
        leaves: list[Any] = []
        if not _match_signature(self._input_signature, values, leaves):
            raise TypeError(
                f"{self._name}(): the arguments {values!r} do not have the structure of "
                f"the input_signature {self._input_signature!r}"
            )
        tensors = [
            _check_against(s, v, i)
            for i, (s, v) in enumerate(zip(self._sig_specs, leaves, strict=True))
        ]
        cf = self._trace_signature()
        if self._arity is not None and self._arity == n and not kwargs and len(args) == n:
            if all(a.__class__ is EagerTensor for a in args):
                if len(self._fast) >= _FAST_CACHE_LIMIT:
                    self._fast.clear()
                self._fast[_fast_key(args)] = cf
        return cf, tensors

    def __repr__(self) -> str:
        return f"<tfe_py.Function {self._name} traces={self._trace_count}>"


def _match_signature(sig: Any, value: Any, out: list[Any]) -> bool:
    """Appends to ``out`` the values standing where ``sig`` has a
    TensorSpec; False when ``value`` does not have ``sig``'s structure."""
    if isinstance(sig, TensorSpec):
        out.append(value)
        return True
    if isinstance(sig, Mapping):
        if not isinstance(value, Mapping) or set(value) != set(sig):
            return False
        return all(_match_signature(sig[k], value[k], out) for k in _key_order(sig))
    if isinstance(sig, (list, tuple)):
        if not isinstance(value, (list, tuple)) or len(value) != len(sig):
            return False
        return all(_match_signature(s, v, out) for s, v in zip(sig, value, strict=True))
    return False


def _spec_within(a: TensorSpec, b: TensorSpec) -> bool:
    """True when every tensor ``a`` accepts, ``b`` accepts too."""
    if int(a.dtype) != int(b.dtype):
        return False
    if b.shape is None:
        return True
    if a.shape is None or len(a.shape) != len(b.shape):
        return False
    return all(y is None or x == y for x, y in zip(a.shape, b.shape, strict=True))


def _leaf_names(named: list[tuple[str, Any]], leaves: list[Any]) -> list[str]:
    """Placeholder names for the leaves, from the parameter names."""
    out: list[str] = []
    for n, v in named:
        sub: list[Any] = []
        _flatten(v, sub)
        if len(sub) == 1:
            out.append(n)
        else:
            out += [f"{n}_{i}" for i in range(len(sub))]
    if len(out) != len(leaves):  # pragma: no cover - defensive
        out = [f"arg{i}" for i in range(len(leaves))]
    return [x if _VALID_NAME.match(x) else f"arg{i}" for i, x in enumerate(out)]


def function(
    func: Callable[..., Any] | None = None,
    input_signature: Sequence[Any] | None = None,
    *,
    name: str | None = None,
) -> Any:
    """``tf.function``: ``@tfe_py.function``, ``@tfe_py.function(input_signature=...)``
    or ``tfe_py.function(fn, input_signature=[TensorSpec(...)])``."""
    if func is None:
        return lambda f: Function(f, input_signature, name)
    return Function(func, input_signature, name)


# ---------------------------------------------------------------------------
# Control flow: tf.cond and tf.while_loop


def _branch_graph(label: str) -> FuncGraph:
    return FuncGraph(f"__{label}_{next(_uid)}")


def _tensors_of(graph: FuncGraph, result: Any, what: str) -> tuple[Any, list[GraphTensor]]:
    """The structure spec and the flat graph tensors of a branch's result
    (Python values become constants of the branch)."""
    from tfe_py.graph import convert_to_tensor

    leaves: list[Any] = []
    spec = _flatten(result, leaves)
    out: list[GraphTensor] = []
    with graph.as_default():
        for leaf in leaves:
            if leaf is None or isinstance(leaf, Operation):
                raise TypeError(f"{what} returned {leaf!r}; it must return tensors")
            out.append(convert_to_tensor(leaf))
    return spec, out


def _external_key(value: Any) -> Any:
    return ("g", value) if isinstance(value, GraphTensor) else ("e", id(value))


def _union_captures(graphs: Sequence[FuncGraph]) -> list[Any]:
    """Every value captured by any of ``graphs``; afterwards each graph
    captures all of them, in the same order."""
    union: list[Any] = []
    seen: set[Any] = set()
    for g in graphs:
        for value, _ in g.captures:
            key = _external_key(value)
            if key not in seen:
                seen.add(key)
                union.append(value)
    for g in graphs:
        placeholders = [g._capture(v) for v in union]
        g.captures = list(zip(union, placeholders, strict=True))
    return union


def _is_stateful(graphs: Sequence[FuncGraph]) -> bool:
    return any(g.stateful_ops or any(f.graph.stateful_ops for f in g.functions) for g in graphs)


def _concrete(
    graph: FuncGraph, args: list[GraphTensor], outputs: list[GraphTensor]
) -> ConcreteFunction:
    graph.inputs = list(args)
    leaves: list[Any] = []
    spec = _flatten(list(outputs), leaves)
    specs = [TensorSpec(a.shape, a.dtype) for a in args]
    return ConcreteFunction(graph, list(args), spec, leaves, list(outputs), specs)


def _loop_shapes(
    init: Sequence[GraphTensor], invariants: Sequence[Any] | None
) -> list[tuple[int | None, ...] | None]:
    """The shape each loop variable is traced with: its initial shape, or
    its shape invariant (checked to hold the initial value)."""
    if invariants is None:
        return [_dims(t.shape) for t in init]
    if not isinstance(invariants, (list, tuple)) or len(invariants) != len(init):
        raise ValueError(
            f"shape_invariants needs one shape per loop variable ({len(init)}), got {invariants!r}"
        )
    out: list[tuple[int | None, ...] | None] = []
    for t, inv in zip(init, invariants, strict=True):
        if isinstance(inv, TensorSpec):
            inv = inv.shape
        shape = None if inv is None else TensorSpec(inv, t.dtype).shape
        t_shape = _dims(t.shape)
        if not _shape_fits(shape, t_shape) or (
            shape is not None and t_shape is not None and len(shape) != len(t_shape)
        ):
            raise ValueError(
                f"The shape invariant {shape} is not compatible with the initial shape "
                f"{t.shape} of loop variable {t.name}"
            )
        out.append(shape)
    return out


def _common_shape(a: Any, b: Any) -> tuple[int | None, ...] | None:
    """The most specific shape both ``a`` and ``b`` have (TF's rule for the
    outputs of a cond)."""
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b, strict=True))


def _shapes_attr(shapes: Sequence[Any]) -> list[tuple[int | None, ...]] | None:
    """An ``output_shapes`` attr value, or None (the op's default, all
    unknown) when some rank is unknown: a Python shape cannot say that."""
    if any(sh is None for sh in shapes):
        return None
    return [tuple(sh) for sh in shapes]


def _same_sequence(like: Sequence[Any], values: Sequence[Any]) -> Any:
    """``values`` as the kind of sequence ``like`` is (list, tuple, namedtuple)."""
    if _is_namedtuple(like):
        return type(like)(*values)
    if isinstance(like, tuple):
        return type(like)(values)
    return list(values)


def cond(
    pred: Any, true_fn: Callable[[], Any], false_fn: Callable[[], Any], name: str | None = None
) -> Any:
    """``tf.cond``: ``true_fn()`` if ``pred`` else ``false_fn()``.

    Eagerly (no graph being built) it simply calls the branch ``pred``
    selects, as TF does. While a graph is built (inside ``with
    tfe_py.Graph():`` or a ``tfe_py.function``), both branches are traced
    into functions and one ``If`` (``StatelessIf`` when neither branch has
    stateful ops) is added: the tensors the branches use from outside are
    its inputs. Both branches must return the same structure of tensors
    with the same dtypes (TypeError/ValueError otherwise).
    """
    if _state.graph is None:
        return true_fn() if bool(pred) else false_fn()
    t_graph, f_graph = _branch_graph("cond_true"), _branch_graph("cond_false")
    with t_graph.as_default():
        t_res = true_fn()
    with f_graph.as_default():
        f_res = false_fn()
    t_spec, t_out = _tensors_of(t_graph, t_res, "true_fn")
    f_spec, f_out = _tensors_of(f_graph, f_res, "false_fn")
    if _freeze_spec(t_spec) != _freeze_spec(f_spec):
        raise ValueError(
            f"true_fn and false_fn must return the same structure; got {t_res!r} and {f_res!r}"
        )
    for a, b in zip(t_out, f_out, strict=True):
        if int(a.dtype) != int(b.dtype):
            raise TypeError(
                f"true_fn and false_fn return different dtypes: {a.dtype.name} and {b.dtype.name}"
            )
    union = _union_captures([t_graph, f_graph])
    stateful = _is_stateful([t_graph, f_graph])
    t_cf = _concrete(t_graph, [], t_out)
    f_cf = _concrete(f_graph, [], f_out)
    op = _opgen.wrapper("If" if stateful else "StatelessIf")
    outs = op(
        pred,
        list(union),
        Tout=[int(t.dtype) for t in t_out],
        then_branch=t_cf,
        else_branch=f_cf,
        output_shapes=_shapes_attr(
            [
                _common_shape(_dims(a.shape), _dims(b.shape))
                for a, b in zip(t_out, f_out, strict=True)
            ]
        ),
        name=name,
    )
    return _rebuild(t_spec, list(outs))


def _case_actions(branch_index: Any, branch_fns: Any, default: Any) -> list[Callable[[], Any]]:
    """The branch functions of ``switch_case`` in index order, ``default``
    (when given) last; TF's argument checks and messages."""
    from tfe_py.tensor import Tensor

    if not isinstance(branch_index, Tensor):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    if not branch_index.dtype.is_integer:
        raise TypeError(f"'branch_index' must be an integer Tensor, got {branch_index.dtype}")
    if not branch_fns:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError("'branch_fns' must be a list, tuple, or dict")
    pairs: Any = list(branch_fns.items()) if isinstance(branch_fns, dict) else list(branch_fns)
    if all(callable(fn) for fn in pairs):
        pairs = list(enumerate(pairs))
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'branch_fns' must be a 2-tuple. Received {pair}.")
        key, fn = pair
        if not isinstance(key, int):
            raise TypeError(f"key must be a Python `int`, got {type(key)}")
        if not callable(fn):
            raise TypeError(f"fn for key {key} must be callable.")
    keys = [p[0] for p in pairs]
    if min(keys) < 0 or max(keys) >= len(keys) or len(set(keys)) != len(keys):
        found = ",".join(map(str, sorted(keys)))
        raise ValueError(
            f"branch indices (keys) must form contiguous range of [0 to {len(keys)}) but "
            f"found {{{found}}}"
        )
    actions = [fn for _, fn in sorted(pairs, key=lambda p: p[0])]
    if default is not None:
        actions.append(default)
    return actions


def switch_case(
    branch_index: Any,
    branch_fns: Any,
    default: Callable[[], Any] | None = None,
    name: str = "switch_case",
) -> Any:
    """``tf.switch_case``: runs ``branch_fns[branch_index]()``.

    ``branch_fns`` is a list/tuple of callables, of ``(int, callable)``
    pairs, or a dict from int to callable (the keys must be 0..n-1). An
    index out of range runs ``default``, or the last branch without one.
    ``branch_index`` must be an integer tensor. Eagerly the selected branch
    is simply called, as in TF; while a graph is built every branch is
    traced into a function and one ``Case`` (``StatelessCase`` when no
    branch has stateful ops) is added, like :func:`cond` adds an ``If``.
    All branches must return the same structure and dtypes.
    """
    actions = _case_actions(branch_index, branch_fns, default)
    n = len(actions)
    if _state.graph is None and not isinstance(branch_index, GraphTensor):
        index = int(np.asarray(branch_index))
        return actions[index if 0 <= index < n else n - 1]()
    graphs = [_branch_graph(f"switch_case_branch{i}") for i in range(n)]
    results: list[tuple[Any, list[GraphTensor]]] = []
    for i, (g, fn) in enumerate(zip(graphs, actions, strict=True)):
        with g.as_default():
            res = fn()
        results.append((res, _tensors_of(g, res, f"branch {i}")[1]))
    specs = [_flatten(res, []) for res, _ in results]
    first_res, first_out = results[0]
    for i in range(1, n):
        res, out = results[i]
        detail = ""
        if _freeze_spec(specs[i]) != _freeze_spec(specs[0]):
            detail = "The two structures don't have the same nested structure."
        else:
            for a, b in zip(first_out, out, strict=True):
                if int(a.dtype) != int(b.dtype):
                    detail = f"{a.dtype.name} and {b.dtype.name} are not the same dtype."
                    break
        if detail:
            # TF's message (TF itself raises an AssertionError for some
            # structure mismatches before reaching this check)
            raise TypeError(
                f"branches[0] and branches[{i}] arguments to tf.switch_case must have the "
                "same number, type, and overall structure of return values.\n\n"
                f"branches[0] output: {first_res}\nbranches[{i}] output: {res}\n\n"
                f"Error details:\n{detail}"
            )
    union = _union_captures(graphs)
    stateful = _is_stateful(graphs)
    fns = [_concrete(g, [], out) for g, (_, out) in zip(graphs, results, strict=True)]
    shapes: list[Any] = []
    for k in range(len(first_out)):
        shape = _dims(first_out[k].shape)
        for _, out in results[1:]:
            shape = _common_shape(shape, _dims(out[k].shape))
        shapes.append(shape)
    op = _opgen.wrapper("Case" if stateful else "StatelessCase")
    outs = op(
        branch_index,
        list(union),
        Tout=[int(t.dtype) for t in first_out],
        branches=fns,
        output_shapes=_shapes_attr(shapes),
        name=name,
    )
    return _rebuild(specs[0], list(outs))


def _assert_at_most_n_true(predicates: Sequence[Any], n: int, msg: str) -> Any:
    """An Assert that at most ``n`` of ``predicates`` hold (TF's message)."""
    from tfe_py import array_ops, math
    from tfe_py.framework import Assert

    preds = array_ops.stack(list(predicates), name="preds_c")
    count = math.reduce_sum(array_ops.cast(preds, dtypes.int32))
    names = ", ".join(_pred_name(p) for p in predicates)
    return Assert(
        count <= n,
        [f"{msg}: more than {n} conditions ({names}) evaluated as True:", preds],
        summarize=len(predicates),
    )


def _pred_name(pred: Any) -> str:
    if isinstance(pred, GraphTensor):
        return pred.name
    return "?"  # an eager tensor has no name in TF


def case(
    pred_fn_pairs: Any,
    default: Callable[[], Any] | None = None,
    exclusive: bool = False,
    strict: bool = False,
    name: str = "case",
) -> Any:
    """``tf.case``: the result of the first ``fn`` whose ``pred`` holds, as
    nested :func:`cond` calls (TF's construction).

    ``pred_fn_pairs`` is a list/tuple of ``(bool scalar tensor, callable)``
    (a dict only with ``exclusive=True`` eagerly; in a graph sorted by the
    predicates' names). Without ``default`` the last pair acts as the
    default and an Assert fails when no predicate holds; ``exclusive=True``
    adds an Assert that at most one holds. ``strict`` is accepted and
    ignored, as by TF 2's cond.
    """
    from tfe_py.framework import Assert, control_dependencies
    from tfe_py.tensor import Tensor

    del strict
    if not isinstance(pred_fn_pairs, (list, tuple, dict)):
        raise TypeError(
            f"'pred_fn_pairs' must be a list, tuple, or dict. Received: {type(pred_fn_pairs)}"
        )
    pairs: Any = pred_fn_pairs
    if isinstance(pred_fn_pairs, dict):
        if _state.graph is None:
            if not exclusive:
                raise ValueError(
                    "Unordered dictionaries are not supported for the 'pred_fn_pairs' "
                    "argument when `exclusive=False` and eager mode is enabled."
                )
            pairs = list(pred_fn_pairs.items())
        else:
            pairs = sorted(pred_fn_pairs.items(), key=lambda item: item[0].name)
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {pair}.")
        pred, fn = pair
        if not isinstance(pred, Tensor):
            raise TypeError(f"pred must be a Tensor, got: {pred}")
        if pred.dtype != dtypes.bool:
            raise TypeError(f"pred must be Tensor of type bool: {_pred_name(pred)}")
        if not callable(fn):
            raise TypeError(f"fn for pred {_pred_name(pred)} must be callable.")
    if not pairs:
        raise ValueError("not enough values to unpack (expected 2, got 0)")  # TF's
    all_predicates = [p for p, _ in pairs]
    predicates = list(all_predicates)
    actions = [f for _, f in pairs]
    if default is None:
        # the last pair is the default, checked to hold (and the others not)
        k = len(predicates) - 1
        last_pred, last_action = predicates[k], actions[k]
        others = predicates[:k]

        def default_action() -> Any:
            checks = []
            if others:
                checks.append(_assert_at_most_n_true(
                    others, 0,
                    f"Implementation error: selected default action #{k} was called, but "
                    "some of other predicates are True: ",
                ))
            from tfe_py import array_ops

            checks.append(Assert(
                last_pred,
                ["Input error: None of conditions evaluated as True:",
                 array_ops.stack(all_predicates, name="preds_c")],
            ))
            with control_dependencies([c for c in checks if c is not None]):
                return last_action()

        default = default_action
        predicates, actions = others, actions[:k]
    fn: Callable[[], Any] = default
    for pred, action in reversed(list(zip(predicates, actions, strict=True))):
        fn = functools.partial(cond, pred, action, fn)
    if exclusive:
        check = _assert_at_most_n_true(all_predicates, 1, "Input error: exclusive=True")
        with control_dependencies([check] if check is not None else None):
            return fn()
    return fn()


def while_loop(
    cond: Callable[..., Any],
    body: Callable[..., Any],
    loop_vars: Sequence[Any],
    shape_invariants: Sequence[Any] | None = None,
    parallel_iterations: int = 10,
    back_prop: bool = True,
    swap_memory: bool = False,
    maximum_iterations: Any = None,
    name: str | None = None,
) -> Any:
    """``tf.while_loop``: ``while cond(*vars): vars = body(*vars)``.

    ``loop_vars`` is a list or tuple (of tensors or nested structures of
    them). Eagerly it runs as a Python loop, as TF does. While a graph is
    built, ``cond`` and ``body`` are traced into functions and one
    ``While`` (``StatelessWhile`` without stateful ops) is added; the
    tensors the functions use from outside are extra loop inputs. A loop
    variable keeps the dtype and the shape of its initial value, unless
    ``shape_invariants`` (one shape per flattened loop variable: a tuple
    with None for a dimension that may vary, None for any shape, or a
    TensorSpec) relaxes it; a body result whose shape leaves that is a
    ValueError, as in TF. Returns the final values in the structure of
    ``loop_vars``.

    ``maximum_iterations`` stops the loop after that many iterations, as
    TF does it: a counter runs beside the loop variables and the condition
    becomes ``counter < maximum_iterations and cond(...)``.
    ``parallel_iterations`` (a positive int) becomes the ``While`` op's attr;
    tfe runs iterations one after another, so draws of a seeded random op
    come in iteration order (TF's order with ``parallel_iterations=1``).
    ``back_prop`` and ``swap_memory`` are accepted and ignored, as in TF 2.
    """
    del back_prop, swap_memory
    if not isinstance(loop_vars, (list, tuple)):
        raise TypeError(f"loop_vars must be a list or tuple, got {type(loop_vars).__name__}")
    if not isinstance(parallel_iterations, int) or parallel_iterations <= 0:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    if maximum_iterations is not None:
        from tfe_py import math as _math

        user_cond, user_body, limit = cond, body, maximum_iterations

        def cond(i: Any, *vs: Any) -> Any:
            return _math.logical_and(_math.less(i, limit), user_cond(*vs))

        def body(i: Any, *vs: Any) -> Any:
            out = user_body(*vs)
            out = list(out) if isinstance(out, (list, tuple)) else [out]
            return [_math.add(i, 1), *out]

        start = constant(0, dtype=dtypes.int32)
        invariants = None if shape_invariants is None else [(), *shape_invariants]
        res = while_loop(cond, body, [start, *loop_vars], invariants, parallel_iterations,
                         name=name)
        return _same_sequence(loop_vars, list(res)[1:])
    if _state.graph is None:
        values = list(loop_vars)
        while bool(cond(*values)):
            out = body(*values)
            values = list(out) if isinstance(out, (list, tuple)) else [out]
            if len(values) != len(loop_vars):
                raise ValueError(
                    f"body returned {len(values)} values for {len(loop_vars)} loop variables"
                )
        return _same_sequence(loop_vars, values)
    from tfe_py.graph import convert_to_tensor

    init_leaves: list[Any] = []
    spec = _flatten(list(loop_vars), init_leaves)
    init = [convert_to_tensor(v) for v in init_leaves]
    shapes = _loop_shapes(init, shape_invariants)
    c_graph, b_graph = _branch_graph("while_cond"), _branch_graph("while_body")
    c_args = [
        _new_placeholder(c_graph, int(t.dtype), shp, f"loop_var_{i}")
        for i, (t, shp) in enumerate(zip(init, shapes, strict=True))
    ]
    b_args = [
        _new_placeholder(b_graph, int(t.dtype), shp, f"loop_var_{i}")
        for i, (t, shp) in enumerate(zip(init, shapes, strict=True))
    ]
    with c_graph.as_default():
        c_res = cond(*_rebuild(spec, c_args))
    with b_graph.as_default():
        b_res = body(*_rebuild(spec, b_args))
    if not isinstance(b_res, (list, tuple)):
        b_res = [b_res]
    _, c_out = _tensors_of(c_graph, c_res, "cond")
    if len(c_out) != 1 or int(c_out[0].dtype) != int(lib.TF_BOOL):
        raise TypeError(f"cond must return one bool tensor, got {c_res!r}")
    b_spec, b_out = _tensors_of(b_graph, list(b_res), "body")
    if _freeze_spec(b_spec) != _freeze_spec(spec):
        raise ValueError(
            f"body must return the structure of loop_vars; got {b_res!r} for {loop_vars!r}"
        )
    for a, b, shp in zip(init, b_out, shapes, strict=True):
        if int(a.dtype) != int(b.dtype):
            raise TypeError(
                f"body changes the dtype of a loop variable: {a.dtype.name} to {b.dtype.name}"
            )
        after = _dims(b.shape)
        if shp is not None and (
            after is None
            or len(after) != len(shp)
            or any(d is not None and (e is None or e != d) for d, e in zip(shp, after, strict=True))
        ):
            raise ValueError(
                f"Input tensor '{a.name}' enters the loop with shape {shp}, but has shape "
                f"{after} after one iteration. To allow the shape to vary across iterations, "
                "use the `shape_invariants` argument of tfe_py.while_loop."
            )
    union = _union_captures([c_graph, b_graph])
    stateful = _is_stateful([c_graph, b_graph])
    b_passthrough = [ph for _, ph in b_graph.captures]
    c_cf = _concrete(c_graph, c_args, c_out)
    b_cf = _concrete(b_graph, b_args, b_out + b_passthrough)
    op = _opgen.wrapper("While" if stateful else "StatelessWhile")
    all_shapes = shapes + [_dims(v.shape) for v in union]
    outs = op(
        [*init, *union], cond=c_cf, body=b_cf, output_shapes=_shapes_attr(all_shapes),
        parallel_iterations=parallel_iterations, name=name
    )
    return _same_sequence(loop_vars, _rebuild(spec, list(outs)[: len(init)]))
