"""TF's graph-mode gradient functions: ``tf.gradients``, ``tf.hessians``,
``tf.grad_pass_through`` and ``tf.no_gradient``.

``gradients`` adds the gradient subgraph to the default graph (a
``tfe_py.Graph`` or the graph ``@tfe_py.function`` is tracing) with the C
library's ``TF_AddGradientsWithPrefix``, which uses the same gradient
registry as ``GradientTape``. In eager mode it raises TF's RuntimeError.

``RegisterGradient`` (a gradient written in Python for an op type) is not
provided: tfe's registry holds C gradient functions, which serve both the
tape and graphs. Register a gradient from C with ``TFE_RegisterGradient``
(``tfe/gradients.h``) or wrap the computation in ``tfe_py.custom_gradient``.
"""

from __future__ import annotations

import collections.abc as abc
from typing import Any

from tfe_py import errors
from tfe_py._ffi import ffi, lib

__all__ = ["RegisterGradient", "grad_pass_through", "gradients", "hessians", "no_gradient"]


def _as_list(x: Any) -> tuple[list[Any], bool]:
    if isinstance(x, (list, tuple)):
        return list(x), True
    return [x], False


def _unconnected_mode(value: Any) -> str:
    mode = getattr(value, "value", value)
    if mode not in ("none", "zero"):
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}")
    return str(mode)


def gradients(
    ys: Any,
    xs: Any,
    grad_ys: Any = None,
    name: str = "gradients",
    gate_gradients: bool = False,
    aggregation_method: Any = None,
    stop_gradients: Any = None,
    unconnected_gradients: Any = "none",
) -> list[Any]:
    """The symbolic gradients of ``sum(ys)`` with respect to each of ``xs``
    (``tf.gradients``), as new nodes of the default graph.

    ``grad_ys`` gives the initial gradient of each y (None entries mean
    ones). A source the ys do not depend on gets None, or zeros with
    ``unconnected_gradients="zero"``. ``gate_gradients`` and
    ``aggregation_method`` are accepted and ignored (they tune TF's graph
    scheduling, not the values); ``stop_gradients`` is not supported
    (NotImplementedError) since TF_AddGradients has no such input."""
    from tfe_py import graph as _graph

    del gate_gradients, aggregation_method
    g = _graph.get_default_graph()
    if g is None:
        raise RuntimeError(
            "tf.gradients is not supported when eager execution is enabled. "
            "Use tf.GradientTape instead."
        )
    if stop_gradients is not None:
        raise NotImplementedError("tfe_py.gradients: stop_gradients is not supported")
    mode = _unconnected_mode(unconnected_gradients)
    y_list, _ = _as_list(ys)
    x_list, _ = _as_list(xs)
    y_t = [g._as_tensor_here(y) for y in y_list]
    x_t = [g._as_tensor_here(x) for x in x_list]
    dx_list: list[Any] | None = None
    if grad_ys is not None:
        gy, _ = _as_list(grad_ys)
        if len(gy) != len(y_t):
            raise ValueError(
                f"Passed {len(gy)} grad_ys for {len(y_t)} ys"
            )
        from tfe_py import ops

        with g.as_default():
            dx_list = [
                ops.OnesLike(x=y) if d is None else g._as_tensor_here(d)
                for y, d in zip(y_t, gy, strict=True)
            ]
    # TF_AddGradients refuses sources the ys do not reach (as TF's C++
    # does); tf.gradients gives them None, so they are left out here.
    reached = _reachable(y_t)
    connected = [i for i, x in enumerate(x_t) if (x.op.name, x.value_index) in reached]
    result: list[Any] = [None] * len(x_t)
    if connected:
        grads = _add_gradients(g, name, y_t, [x_t[i] for i in connected], dx_list)
        for i, gr in zip(connected, grads, strict=True):
            result[i] = gr
    if mode == "zero":
        from tfe_py import ops

        with g.as_default():
            result = [ops.ZerosLike(x=x) if r is None else r
                      for x, r in zip(x_t, result, strict=True)]
    return result


def _reachable(ys: list[Any]) -> set[tuple[str, int]]:
    """(op name, output index) of every tensor the ys depend on, the ys
    included."""
    seen_ops: set[str] = set()
    reached = {(y.op.name, y.value_index) for y in ys}
    stack = [y.op for y in ys]
    while stack:
        op = stack.pop()
        if op.name in seen_ops:
            continue
        seen_ops.add(op.name)
        for inp in op.inputs:
            reached.add((inp.op.name, inp.value_index))
            stack.append(inp.op)
    return reached


def _add_gradients(g: Any, name: str, y_t: list[Any], x_t: list[Any],
                   dx_list: list[Any] | None) -> list[Any]:
    prefix = g.unique_name(name)
    ny, nx = len(y_t), len(x_t)
    y_arr = ffi.new("TF_Output[]", max(ny, 1))
    x_arr = ffi.new("TF_Output[]", max(nx, 1))
    out = ffi.new("TF_Output[]", max(nx, 1))
    for i, t in enumerate(y_t):
        y_arr[i] = t._as_output()[0]
    for i, t in enumerate(x_t):
        x_arr[i] = t._as_output()[0]
    dx_arr = ffi.NULL
    if dx_list is not None:
        dx_arr = ffi.new("TF_Output[]", ny)
        for i, t in enumerate(dx_list):
            dx_arr[i] = t._as_output()[0]
    with errors.status() as s:
        lib.TF_AddGradientsWithPrefix(
            g.ptr, prefix.encode(), y_arr, ny, x_arr, nx, dx_arr, s, out
        )
    result: list[Any] = []
    for i in range(nx):
        if out[i].oper == ffi.NULL:
            result.append(None)
        else:
            op = g._wrap_op(out[i].oper)
            result.append(op.outputs[out[i].index])
    return result


def hessians(
    ys: Any,
    xs: Any,
    name: str = "hessians",
    colocate_gradients_with_ops: bool = False,
    gate_gradients: bool = False,
    aggregation_method: Any = None,
) -> list[Any]:
    """The Hessian of ``sum(ys)`` with respect to each x (``tf.hessians``),
    shaped ``x.shape + x.shape``. Graph mode only, like ``gradients``; the
    x shapes must be fully known (tfe builds one gradient per element
    instead of TF's while loop)."""
    from tfe_py import graph as _graph
    from tfe_py import ops

    del colocate_gradients_with_ops, gate_gradients, aggregation_method
    g = _graph.get_default_graph()
    if g is None:
        raise RuntimeError(
            "tf.gradients is not supported when eager execution is enabled. "
            "Use tf.GradientTape instead."
        )
    x_list, _ = _as_list(xs)
    out: list[Any] = []
    with g.as_default():
        for x in x_list:
            xt = g._as_tensor_here(x)
            dims = xt.shape.as_list() if xt.shape.rank is not None else None
            if dims is None or any(d is None for d in dims):
                raise ValueError(
                    f"tfe_py.hessians needs a fully known shape for {xt.name}, got {xt.shape}"
                )
            n = 1
            for d in dims:
                n *= d
            (grad,) = gradients(ys, [xt], name=f"{name}_grad")
            if grad is None:
                out.append(None)
                continue
            flat = ops.Reshape(tensor=grad, shape=ops.Const(value=[-1], dtype="int32"))
            rows = []
            for i in range(n):
                yi = ops.Slice(input=flat, begin=ops.Const(value=[i], dtype="int32"),
                               size=ops.Const(value=[1], dtype="int32"))
                (row,) = gradients(yi, [xt], name=f"{name}_row",
                                   unconnected_gradients="zero")
                rows.append(row)
            stacked = ops.Pack(values=rows, axis=0)
            out.append(ops.Reshape(tensor=stacked,
                                   shape=ops.Const(value=dims + dims, dtype="int32")))
    return out


def grad_pass_through(f: abc.Callable[..., Any]) -> abc.Callable[..., Any]:
    """``f`` whose gradient is the identity (``tf.grad_pass_through``): the
    forward pass computes ``f(*args)``, the backward pass hands each
    output's gradient to the matching argument."""
    from tfe_py.custom_gradient import custom_gradient

    @custom_gradient
    def _pass_through(*args: Any, **kwargs: Any) -> Any:
        def grad(*dys: Any, **grad_kwargs: Any) -> Any:
            variables = grad_kwargs.get("variables")
            if variables is not None:
                return dys, [None] * len(variables)
            return dys

        return f(*args, **kwargs), grad

    return _pass_through


def no_gradient(op_type: str) -> None:
    """Marks ``op_type`` as not differentiable (``tf.no_gradient``):
    gradients stop at its outputs, for the tape and for graphs.
    TypeError for a non-string; KeyError when the op type already has a
    gradient or was marked (TF's duplicate-registration error)."""
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    s = lib.TF_NewStatus()
    try:
        lib.TFE_RegisterNotDifferentiable(op_type.encode(), s)
        code = lib.TF_GetCode(s)
        if code == 6:  # TF_ALREADY_EXISTS
            raise KeyError(f"Registering two gradient with name '{op_type}'!")
        if code != 0:
            msg = ffi.string(lib.TF_Message(s)).decode("utf-8", "replace")
            raise ValueError(msg)
    finally:
        lib.TF_DeleteStatus(s)


class RegisterGradient:
    """``tf.RegisterGradient`` is not available in tfe: gradients live in
    the C registry (``TFE_RegisterGradient`` in ``tfe/gradients.h``), which
    serves the tape and ``TF_AddGradients`` alike. Use
    ``tfe_py.custom_gradient`` for a Python-defined gradient."""

    def __init__(self, op_type: str) -> None:
        raise NotImplementedError(
            "tfe_py.RegisterGradient: Python gradient functions for op types are not "
            "supported; register a C gradient with TFE_RegisterGradient (tfe/gradients.h) "
            f"or use tfe_py.custom_gradient (op type {op_type!r})"
        )
