"""Plumbing shared by the TensorFlow-style function modules.

``tfe_py.math``, ``tfe_py.nn``, ``tfe_py.random``, ``tfe_py.array_ops`` and
the other modules behind ``import tfe_py as tf`` are thin layers over the
generated op wrappers of :mod:`tfe_py.ops`. This module holds what they all
need:

* :func:`op` looks an op wrapper up by name; for an op the runtime does not
  register, or registers without any kernel, it returns a function raising
  NotImplementedError that names the op (the rule of the Python API: no
  numpy fallback hides a missing kernel);
* :func:`tensor` converts a value as ``tf.convert_to_tensor`` does, with
  ``dtype_hint``;
* :func:`unimplemented` raises that NotImplementedError directly.

Each function module lists, in ``TOPLEVEL``, the names TensorFlow also
exports at the top of ``tf`` (``tf.add`` next to ``tf.math.add``);
``tfe_py/__init__.py`` resolves ``tfe_py.<name>`` from those lists on first
use, so importing ``tfe_py`` stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from tfe_py import _opgen

__all__ = ["has_op", "op", "tensor", "unimplemented"]

_missing: dict[str, Callable[..., Any]] = {}


def unimplemented(op_name: str, api_name: str | None = None) -> NoReturn:
    """Raises NotImplementedError saying that ``api_name`` (a TF function
    name such as ``tf.math.zeta``) needs op ``op_name``, which tfe lacks."""
    who = f"{api_name} needs" if api_name else "needs"
    raise NotImplementedError(
        f"{who} the TensorFlow op {op_name}, which tfe does not implement yet"
    )


def _has_kernel(name: str) -> bool:
    """Whether some device has a kernel for op ``name``. The registry defines
    every TF 2.21 op (most without a kernel in tfe); an op without any kernel
    counts as missing here, so the Python API keeps naming it."""
    from tfe_py._ffi import ffi, lib
    from tfe_py.errors import status

    with status() as s:
        buf = lib.TF_GetRegisteredKernelsForOp(name.encode("utf-8"), s)
    if buf == ffi.NULL:
        return False
    try:
        return bool(buf.length > 0)
    finally:
        lib.TF_DeleteBuffer(buf)


def has_op(name: str) -> bool:
    """Whether op ``name`` can run: registered (built in or loaded from a
    library) and with a kernel on some device."""
    try:
        _opgen.wrapper(name)
    except AttributeError:
        return False
    return _has_kernel(name)


def op(name: str) -> Callable[..., Any]:
    """The generated wrapper of op ``name`` (see :mod:`tfe_py.ops`).

    An op that is not registered, or has no kernel on any device, gives a
    function that raises NotImplementedError naming it when called, so a
    module can bind its ops once and still import when one is missing. A
    later ``load_op_library`` that registers the op is seen on the next
    lookup.
    """
    try:
        wrapper = _opgen.wrapper(name)
    except AttributeError:
        wrapper = None
    if wrapper is not None and _has_kernel(name):
        return wrapper
    fn = _missing.get(name)
    if fn is None:

        def fn(*_args: Any, **_kwargs: Any) -> NoReturn:
            unimplemented(name)

        fn.__name__ = name
        _missing[name] = fn
    return fn


def tensor(value: Any, dtype: Any = None, dtype_hint: Any = None, name: str | None = None) -> Any:
    """``value`` as a tensor of the current mode, as ``tf.convert_to_tensor``.

    A tensor is returned as it is (ValueError when ``dtype`` disagrees, as TF);
    other values become constants of ``dtype``, else of ``dtype_hint`` when
    they convert to it, else of the dtype inferred from the value.
    """
    from tfe_py.graph import convert_to_tensor
    from tfe_py.tensor import Tensor

    if isinstance(value, Tensor) or dtype is not None or dtype_hint is None:
        return convert_to_tensor(value, dtype)
    try:
        return convert_to_tensor(value, dtype_hint)
    except (TypeError, ValueError):
        return convert_to_tensor(value, None)
