"""``tf.custom_gradient`` and ``tf.recompute_grad`` on tfe's C tape.

A function decorated with :func:`custom_gradient` returns ``(y, grad_fn)``.
Called eagerly, it runs, then its outputs are replaced by new handles
sharing their values, and ``TFE_GradientTapeRecordCustom``
(include/tfe/gradients.h) records one entry from its (flattened) inputs to
those new outputs on every recording tape that tracks an input. When a
backward pass reaches the entry, the C tape calls ``tfe_py_custom_grad``
(a cffi ``extern "Python"`` callback), which calls ``grad_fn`` with the
upstream gradients (zeros for an output nothing depends on) and hands its
results back to C. The ops ``grad_fn`` runs are recorded by the other
recording tapes, so a ``grad_fn`` made of differentiable ops gives
higher-order gradients.

Variables: trainable variables read while the function runs (and not among
its inputs) are recorded as inputs too (their resource handles, which is
where a variable's gradient lives), and ``grad_fn`` is then called as
``grad_fn(*dy, variables=[...])`` and must return ``(input_grads,
variable_grads)``, as in TF.

An exception raised by ``grad_fn`` is stored for the thread and raised again
by the ``tape.gradient`` call that ran it (never crossing into C).

Inside a ``tfe_py.function`` trace (or any graph being built), ``f`` adds
its ops, ``grad_fn`` is traced at once into a library function of the
upstream gradients (tensors it uses from the graph become its extra
arguments), and the results pass through an ``IdentityN`` node whose
private ``_tfe_custom_grad_*`` attrs name that function: the graph
gradients (``TF_AddGradients``, the gradients of function calls, so tapes
outside the function and ``tfe_py.gradients`` inside it) call it there, as
TF's gradient override of its IdentityN does. ``recompute_grad`` traced
into a function recomputes ``f`` in that backward function.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import sys
import threading
import types
from collections.abc import Callable, Iterator
from typing import Any

from tfe_py._ffi import CData, ffi, lib
from tfe_py.errors import set_status_from_exception, status

__all__ = ["custom_gradient", "recompute_grad"]

# What keeps each backward closure alive while C holds it (until the
# deleter runs), by the address of its ffi handle.
_closures: dict[int, CData] = {}
_closures_lock = threading.Lock()


def _address(p: CData) -> int:
    return int(ffi.cast("uintptr_t", p))


def _flatten(structure: Any) -> list[Any]:
    from tfe_py import nest

    return list(nest.flatten(structure))


def _pack(structure: Any, flat: list[Any]) -> Any:
    from tfe_py import nest

    return nest.pack_sequence_as(structure, flat)


def _accepts_variables(fn: Callable[..., Any]) -> bool:
    try:
        spec = inspect.getfullargspec(fn)
    except TypeError:
        return True  # a builtin or odd callable: let the call decide
    return "variables" in spec.args or "variables" in spec.kwonlyargs or spec.varkw is not None


@contextlib.contextmanager
def _watch_variables() -> Iterator[list[Any]]:
    """Collects the trainable variables read in the block (TF's VariableWatcher)."""
    from tfe_py import gradient_tape

    seen: list[Any] = []
    watchers = gradient_tape._variable_watchers()
    watchers.append(seen)
    try:
        yield seen
    finally:
        watchers.remove(seen)


@contextlib.contextmanager
def _no_recording() -> Iterator[None]:
    """Pauses every tape recording in this thread (TF's stop_recording)."""
    from tfe_py import gradient_tape

    with contextlib.ExitStack() as stack:
        for tape in [t for t in gradient_tape._tapes.active if t._recording]:
            stack.enter_context(tape.stop_recording())
        yield


class _Backward:
    """What the C tape calls back: grad_fn with TF's calling convention."""

    def __init__(
        self,
        name: str,
        grad_fn: Callable[..., Any],
        structure: Any,
        outputs: list[Any],
        num_args: int,
        variables: list[Any],
        ctx: Any,
        device: str | None,
        input_dtypes: list[Any],
    ) -> None:
        self.name = name
        self.input_dtypes = input_dtypes  # for gradients given as Python values
        self.grad_fn = grad_fn
        self.structure = structure
        self.outputs = outputs  # the values f computed (for zeros)
        self.num_args = num_args
        self.variables = variables
        self.ctx = ctx
        self.device = device

    def __call__(self, dys: list[Any]) -> list[Any]:
        from tfe_py import ops
        from tfe_py.context import current_device

        scope: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
        if current_device() is None and self.device is not None:
            # The forward ran under a device scope (e.g. a parallel device,
            # which wants its ops placed): so do the gradient's ops.
            scope = self.ctx.device(self.device)
        with scope:
            filled = [
                dy if dy is not None else ops.ZerosLike(out)
                for dy, out in zip(dys, self.outputs, strict=True)
            ]
            result_grads = _pack(self.structure, filled)
            if not isinstance(result_grads, (list, tuple)):
                result_grads = [result_grads]
            if self.variables:
                input_grads, variable_grads = self.grad_fn(
                    *result_grads, variables=list(self.variables)
                )
                variable_grads = list(variable_grads)
                if len(variable_grads) != len(self.variables):
                    raise ValueError(
                        "Must return gradient for each variable from @custom_gradient grad_fn."
                    )
            else:
                input_grads = self.grad_fn(*result_grads)
                variable_grads = []
        flat = _flatten(input_grads)
        if len(flat) != self.num_args:
            raise ValueError(
                f"custom_gradient function expected to return {self.num_args} gradients, "
                f"but returned {len(flat)} instead."
            )
        return flat + variable_grads


@ffi.def_extern()
def tfe_py_custom_grad(
    data: CData,
    ctx: CData,
    num_outputs: int,
    output_gradients: CData,
    num_inputs: int,
    input_gradients: CData,
    st: CData,
) -> None:
    from tfe_py import gradient_tape
    from tfe_py.eager import EagerTensor
    from tfe_py.graph import convert_to_tensor

    try:
        backward: _Backward = ffi.from_handle(data)
        dys: list[Any] = []
        for i in range(num_outputs):
            h = output_gradients[i]
            if h == ffi.NULL:
                dys.append(None)
                continue
            # The same handle object (the tapes track it), one more reference.
            with status() as s:
                ref = lib.TFE_TensorHandleNewReference(h, s)
            dys.append(EagerTensor._wrap(ref, backward.ctx))
        grads = backward(dys)
        if len(grads) != num_inputs:
            raise ValueError(
                f"custom_gradient {backward.name!r}: {len(grads)} gradients for "
                f"{num_inputs} recorded inputs"
            )
        for j, g in enumerate(grads):
            if g is None:
                continue
            if not isinstance(g, EagerTensor):
                # A Python or numpy value: the dtype of the input it is for.
                g = convert_to_tensor(g, backward.input_dtypes[j])
            with status() as s:
                input_gradients[j] = lib.TFE_TensorHandleNewReference(g._h, s)
    except BaseException as exc:  # never let an exception reach C
        gradient_tape._set_pending_error(exc)
        set_status_from_exception(st, exc)


@ffi.def_extern()
def tfe_py_custom_grad_delete(data: CData) -> None:
    with contextlib.suppress(BaseException):  # interpreter shutdown: nothing to do
        with _closures_lock:
            _closures.pop(_address(data), None)


def _record(
    name: str,
    args: tuple[Any, ...],
    result: Any,
    grad_fn: Callable[..., Any],
    variables: list[Any],
) -> Any:
    """Records the custom entry on the C tape; returns result with new
    output handles (the ones the entry produced)."""
    from tfe_py.context import current_device
    from tfe_py.eager import EagerTensor
    from tfe_py.graph import convert_to_tensor

    flat_args = _flatten(args)
    inputs = [a if isinstance(a, EagerTensor) else convert_to_tensor(a) for a in flat_args]
    flat_result = _flatten(result)
    outputs: list[EagerTensor] = []
    for r in flat_result:
        t = r if isinstance(r, EagerTensor) else convert_to_tensor(r)
        if not isinstance(t, EagerTensor):
            raise TypeError(
                f"custom_gradient {name!r}: outputs must be tensors, got {type(r).__name__}"
            )
        outputs.append(t)
    ctx = outputs[0]._ctx if outputs else (inputs[0]._ctx if inputs else None)
    if ctx is None:
        return result
    new_outputs: list[EagerTensor] = []
    from tfe_py import autodiff

    if autodiff._recording_count[0] > 0:
        # Forward mode differentiates what f computed, as TF's does (the
        # custom gradient serves reverse mode only): Identity passes each
        # output's tangent on to the new handle; tapes are paused so that
        # they see the new handles only through the custom entry.
        from tfe_py import ops

        with _no_recording():
            new_outputs = [ops.Identity(t) for t in outputs]
    else:
        for t in outputs:
            with status() as s:
                h = lib.TFE_TensorHandleCopySharingTensor(t._h, s)
            new_outputs.append(EagerTensor._wrap(h, ctx))
    dtypes = [t.dtype for t in inputs] + [v.dtype for v in variables]
    backward = _Backward(
        name, grad_fn, result, outputs, len(flat_args), variables, ctx, current_device(), dtypes
    )
    handle = ffi.new_handle(backward)
    with _closures_lock:
        _closures[_address(handle)] = handle
    c_inputs = [t._h for t in inputs] + [v.handle._h for v in variables]
    ins = ffi.new("TFE_TensorHandle*[]", c_inputs or [ffi.NULL])
    outs = ffi.new("TFE_TensorHandle*[]", [t._h for t in new_outputs] or [ffi.NULL])
    with status() as s:
        # C owns `handle` from here: the deleter drops it from _closures,
        # at once when no tape records the entry.
        lib.TFE_GradientTapeRecordCustom(
            ctx.ptr,
            len(c_inputs),
            ins,
            len(new_outputs),
            outs,
            lib.tfe_py_custom_grad,
            handle,
            lib.tfe_py_custom_grad_delete,
            s,
        )
    return _pack(result, new_outputs)


def _eager_call(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    from tfe_py.variables import Variable

    with _watch_variables() as accessed:
        result, grad_fn = f(*args, **kwargs)
    flat_args = _flatten(args)
    variables: list[Any] = []
    for v in accessed:
        if any(v is a for a in flat_args) or any(v is w for w in variables):
            continue
        if isinstance(v, Variable):
            variables.append(v)
    if variables and not _accepts_variables(grad_fn):
        raise TypeError(
            "@tf.custom_gradient grad_fn must accept keyword argument 'variables', since "
            f"function uses variables: {variables}"
        )
    name = getattr(f, "__name__", "custom_gradient")
    return _record(name, args, result, grad_fn, variables)


_FLOATING = {1, 2, 8, 14, 18, 19}  # TF_FLOAT, DOUBLE, COMPLEX64, BFLOAT16, HALF, COMPLEX128


def _graph_call(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Inside a graph (a tfe_py.function trace, a tfe_py.Graph): ``f`` adds
    its ops, ``grad_fn`` is traced at once into a library function of the
    upstream gradients (the tensors it uses from outside become extra
    arguments), and the results pass through one IdentityN node
    ``IdentityN(results, sources, captures)`` whose private attrs name that
    function (see tfe_grad_custom_node in csrc/eager/grad_func.c): the graph
    gradients (TF_AddGradients, gradients of function calls) call it there
    instead of differentiating the ops of ``f``, as TF's gradient override
    of its IdentityN does."""
    from tfe_py import graph as graph_mod
    from tfe_py.eager import EagerTensor
    from tfe_py.graph import GraphTensor, convert_to_tensor
    from tfe_py.variables import Variable

    fn_mod = importlib.import_module("tfe_py.function")  # the package attr is the decorator
    g = graph_mod.get_default_graph()
    assert g is not None
    name = getattr(f, "__name__", "custom_gradient")
    with _watch_variables() as accessed:
        result, grad_fn = f(*args, **kwargs)
    flat_args = _flatten(args)
    variables: list[Any] = []
    for v in accessed:
        if any(v is a for a in flat_args) or any(v is w for w in variables):
            continue
        if isinstance(v, Variable):
            variables.append(v)
    if variables and not _accepts_variables(grad_fn):
        raise TypeError(
            "@tf.custom_gradient grad_fn must accept keyword argument 'variables', since "
            f"function uses variables: {variables}"
        )
    with g.as_default():
        flat_result = [convert_to_tensor(r) for r in _flatten(result)]
    # The backward function: (upstream gradients, captures) -> gradients.
    bgraph = fn_mod.FuncGraph(f"__custom_grad_{fn_mod._safe_name(name)}_{next(fn_mod._uid)}")
    dys = [
        fn_mod._new_placeholder(bgraph, int(t.dtype), fn_mod._dims(t.shape), f"dy_{i}")
        for i, t in enumerate(flat_result)
    ]
    with bgraph.as_default():
        result_grads = _pack(result, list(dys))
        if not isinstance(result_grads, (list, tuple)):
            result_grads = [result_grads]
        if variables:
            input_grads, variable_grads = grad_fn(*result_grads, variables=list(variables))
            variable_grads = list(variable_grads)
            if len(variable_grads) != len(variables):
                raise ValueError(
                    "Must return gradient for each variable from @custom_gradient grad_fn."
                )
        else:
            input_grads = grad_fn(*result_grads)
            variable_grads = []
        flat_in = _flatten(input_grads)
        if len(flat_in) != len(flat_args):
            raise ValueError(
                f"custom_gradient function expected to return {len(flat_args)} gradients, "
                f"but returned {len(flat_in)} instead."
            )
        # Sources: the tensor arguments and the variables' handles.
        sources: list[Any] = []
        outputs: list[Any] = []
        gmap: list[int] = []
        pairs = list(zip(flat_args, flat_in, strict=True))
        pairs += [(v.handle, gv) for v, gv in zip(variables, variable_grads, strict=True)]
        for src, grad in pairs:
            if not isinstance(src, (GraphTensor, EagerTensor)):
                continue  # a Python value: no gradient
            sources.append(src)
            dtype = int(src.dtype)
            if dtype == 20:  # a variable's handle: its value's dtype
                dtype = int(next(v.dtype for v in variables if v.handle is src))
            if grad is None or dtype not in _FLOATING:
                gmap.append(-1)
                continue
            gmap.append(len(outputs))
            outputs.append(convert_to_tensor(grad, dtype))
    cf = fn_mod._concrete(bgraph, list(dys), outputs)
    cf._add_to_graph(g)
    captures = list(cf.captured_inputs)
    outs = _identity_n(g, flat_result + sources + captures, cf.name, len(flat_result), gmap, name)
    return _pack(result, outs[: len(flat_result)])


def _identity_n(
    g: Any, values: list[Any], grad_name: str, nres: int, gmap: list[int], name: str
) -> list[Any]:
    """IdentityN(values) in graph g with the custom-gradient attrs."""
    from tfe_py import graph as graph_mod
    from tfe_py.graph import GraphTensor

    inputs = [graph_mod._to_graph_tensor(g, v, None, None) for v in values]
    node = g.unique_name(f"{name}/IdentityN")
    arr = graph_mod._outputs_array(inputs)
    desc = lib.TF_NewOperation(g.ptr, b"IdentityN", node.encode("utf-8"))
    if desc == ffi.NULL:
        from tfe_py import errors

        raise errors.out_of_memory("TF_NewOperation returned NULL")
    types_arr = ffi.new("TF_DataType[]", [int(t.dtype) for t in inputs] or [0])
    lib.TF_SetAttrTypeList(desc, b"T", types_arr, len(inputs))
    fname = grad_name.encode("utf-8")
    lib.TF_SetAttrFuncName(desc, b"_tfe_custom_grad_fn", fname, len(fname))
    lib.TF_SetAttrInt(desc, b"_tfe_custom_grad_nres", nres)
    lib.TF_SetAttrIntList(
        desc, b"_tfe_custom_grad_map", ffi.new("int64_t[]", gmap or [0]), len(gmap)
    )
    lib.TF_AddInputList(desc, arr, len(inputs))
    graph_mod._add_control_inputs(g, desc)
    s = lib.TF_NewStatus()
    try:
        oper = graph_mod._finish(desc, s)
    finally:
        lib.TF_DeleteStatus(s)
    operation = g._wrap_op(oper)
    g._after_finish(operation, None)  # IdentityN is stateless
    return [GraphTensor(operation, i) for i in range(len(inputs))]


class _CustomGradient:
    """The decorated function; binds like a function when used on methods."""

    def __init__(self, f: Callable[..., Any]) -> None:
        self._f = f
        functools.update_wrapper(self, f)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from tfe_py.framework import executing_eagerly

        if executing_eagerly():
            return _eager_call(self._f, args, kwargs)
        return _graph_call(self._f, args, kwargs)

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        return _CustomGradient(self._f.__get__(instance, owner))


def custom_gradient(f: Callable[..., Any] | None = None) -> Any:
    """Decorator giving a function its own gradient (``tf.custom_gradient``).

    ``f(*x)`` returns ``(y, grad_fn)``; ``grad_fn(*dy)`` returns the
    gradients of the inputs ``x`` (one per flattened input, None for none),
    or, when ``f`` reads trainable variables, ``grad_fn(*dy, variables=...)``
    returns ``(input_grads, variable_grads)``::

        @tfe_py.custom_gradient
        def clip_gradient(x):
            def grad(dy):
                return tfe_py.clip_by_value(dy, -1.0, 1.0)
            return tfe_py.identity(x), grad
    """
    if f is None:
        return custom_gradient
    return _CustomGradient(f)


def recompute_grad(f: Callable[..., Any]) -> Callable[..., Any]:
    """``tf.recompute_grad``: ``f`` runs without recording, and its ops run
    again (recorded on a tape of their own) when the gradient is asked,
    trading computation for the memory of the recorded forward pass."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from tfe_py.gradient_tape import GradientTape

        @custom_gradient
        def inner(*inputs: Any) -> Any:
            with _no_recording():
                result = f(*inputs, **kwargs)

            def grad_fn(*dresult: Any, variables: list[Any] | None = None) -> Any:
                watched = list(variables or [])
                if not _executing_eagerly():
                    return _recompute_in_graph(f, inputs, kwargs, dresult, variables)
                with GradientTape(watch_accessed_variables=False) as tape:
                    tape.watch([x for x in _flatten(inputs) if _is_tensor(x)])
                    if watched:
                        tape.watch(watched)
                    again = f(*inputs, **kwargs)
                flat_in = _flatten(inputs)
                sources = [x for x in flat_in if _is_tensor(x)] + watched
                grads = tape.gradient(
                    _flatten(again), sources, output_gradients=_flatten(list(dresult))
                )
                it = iter(grads)
                input_grads = [next(it) if _is_tensor(x) else None for x in flat_in]
                variable_grads = list(it)
                if variables is not None:
                    return input_grads, variable_grads
                return input_grads

            return result, grad_fn

        return inner(*args)

    return wrapper


def _executing_eagerly() -> bool:
    from tfe_py.framework import executing_eagerly

    return bool(executing_eagerly())


def _recompute_in_graph(
    f: Callable[..., Any],
    inputs: tuple[Any, ...],
    kwargs: dict[str, Any],
    dresult: tuple[Any, ...],
    variables: list[Any] | None,
) -> Any:
    """recompute_grad's grad_fn while it is traced (inside a function):
    f runs again in the backward function's graph, differentiated there
    symbolically (tfe_py.gradients)."""
    from tfe_py import graph as graph_mod
    from tfe_py.eager import EagerTensor
    from tfe_py.gradients_api import gradients
    from tfe_py.graph import GraphTensor

    g = graph_mod.get_default_graph()
    assert g is not None
    flat_in = _flatten(inputs)
    is_t = [isinstance(x, (GraphTensor, EagerTensor)) for x in flat_in]
    here = [graph_mod._to_graph_tensor(g, x, None, None) if t else x
            for x, t in zip(flat_in, is_t, strict=True)]
    handles = [graph_mod._to_graph_tensor(g, v.handle, None, None) for v in variables or []]
    again = f(*_pack(inputs, here), **kwargs)
    sources = [x for x, t in zip(here, is_t, strict=True) if t] + handles
    grads = gradients(_flatten(again), sources, grad_ys=_flatten(list(dresult)))
    it = iter(grads)
    input_grads = [next(it) if t else None for t in is_t]
    variable_grads = list(it)
    if variables is not None:
        return input_grads, variable_grads
    return input_grads


def _is_tensor(x: Any) -> bool:
    from tfe_py.eager import EagerTensor

    return isinstance(x, EagerTensor)


class _CallableModule(types.ModuleType):
    """``import tfe_py.custom_gradient`` binds this module to the package
    attribute ``tfe_py.custom_gradient`` (the decorator's name, as in TF):
    calling the module then does what the decorator does."""

    def __call__(self, f: Callable[..., Any] | None = None) -> Any:
        return custom_gradient(f)


sys.modules[__name__].__class__ = _CallableModule
