"""Every registered op, callable under its TensorFlow name.

``tfe_py.ops.MatMul(a, b, transpose_b=True)`` runs MatMul eagerly in the
current context. The functions are not written by hand: on first access,
``tfe_py.ops.<Name>`` is generated from the op's definition in the C
registry (see :mod:`tfe_py._opgen` for the calling convention) and cached in
this module. ``help(tfe_py.ops.MatMul)`` shows the generated docstring.

Unknown names raise AttributeError. :func:`list_ops` lists the names and
:func:`get_op` looks one up by string.

Every other name in this module starts with an underscore, so that no
import can hide an op (TensorFlow has ops called ``Any`` and ``All``).
"""

from __future__ import annotations

import collections.abc as _abc
import typing as _typing

from tfe_py import _opgen

__all__ = ["get_op", "list_ops"]


def list_ops() -> list[str]:
    """Names of every registered op, sorted."""
    return sorted(_opgen.list_op_names())


def get_op(name: str) -> _abc.Callable[..., _typing.Any]:
    """The wrapper for op ``name``; AttributeError if it is not registered."""
    fn = _opgen.wrapper(name)
    globals()[name] = fn  # later plain attribute lookups skip __getattr__
    return fn


def __getattr__(name: str) -> _abc.Callable[..., _typing.Any]:
    # Python's own dunder probes; TF has ops named "__Mkl..." (not dunders).
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(f"module 'tfe_py.ops' has no attribute {name!r}")
    return get_op(name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_opgen.list_op_names()))
