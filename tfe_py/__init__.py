"""tfe_py: Python binding for tfe, a standalone implementation of TensorFlow's C API.

The compiled cffi extension and the libtfe runtime it links against are
loaded (and their versions checked) by :mod:`tfe_py._ffi`; the rest of the
package builds on that.

Data types are module attributes as in TensorFlow (``tfe_py.float32``,
``tfe_py.int64``, ... one per ``tfe_py.dtypes.ALL_DTYPES``, plus the aliases
``half``, ``double``, ``complex``): :class:`DType` values, which are also ints.
Every tensor is a :class:`Tensor`; shapes are :class:`TensorShape` values.
Graph mode (``with tfe_py.Graph():``, :class:`Session`, :func:`placeholder`)
and :func:`function` are in :mod:`tfe_py.graph`, :mod:`tfe_py.session` and
:mod:`tfe_py.function`; :func:`constant` makes a Const node inside a graph.
:func:`get_include` and :func:`get_library_dir` say where the C headers and
``libtfe.so.0`` are, for building plugins and programs against this package
(``python -m tfe_py config --cflags --libs`` prints the flags).
"""

from typing import Any

from tfe_py import context, dtypes, eager, errors
from tfe_py._ffi import RUNTIME_VERSION, runtime_library_path
from tfe_py._paths import get_include, get_library_dir
from tfe_py._version import __version__
from tfe_py.context import Context, default_context
from tfe_py.dtypes import DType, as_dtype
from tfe_py.eager import EagerTensor
from tfe_py.errors import OpError
from tfe_py.function import (
    ConcreteFunction,
    Function,
    TensorSpec,
    case,
    cond,
    function,
    switch_case,
    while_loop,
)
from tfe_py.graph import (
    Graph,
    GraphTensor,
    Operation,
    Output,
    constant,
    convert_to_tensor,
    get_default_graph,
    placeholder,
)
from tfe_py.tensor import Tensor, newaxis
from tfe_py.tensor_shape import TensorShape

__all__ = [
    "RUNTIME_VERSION",
    "ConcreteFunction",
    "Context",
    "CustomDevice",
    "DType",
    "EagerTensor",
    "Function",
    "Graph",
    "GraphTensor",
    "OpError",
    "Operation",
    "Output",
    "ParallelDevice",
    "Session",
    "Tensor",
    "TensorShape",
    "TensorSpec",
    "__version__",
    "as_dtype",
    "case",
    "cond",
    "constant",
    "context",
    "convert_to_tensor",
    "default_context",
    "dtypes",
    "eager",
    "errors",
    "function",
    "get_default_graph",
    "get_default_session",
    "get_include",
    "get_library_dir",
    "list_physical_devices",
    "load_op_library",
    "load_pluggable_device",
    "newaxis",
    "ops",
    "parallel_device",
    "placeholder",
    "runtime_library_path",
    "saved_model",
    "switch_case",
    "while_loop",
]


_DTYPES = dict(dtypes.DTYPE_CONSTANTS)
# tf.complex is the function tf.math.complex (found below through TOPLEVEL),
# not the dtype alias that tf.dtypes keeps.
del _DTYPES["complex"]
globals().update(_DTYPES)
__all__ += sorted(_DTYPES)


class _Experimental:
    """``tfe_py.experimental``: ``experimental.dlpack`` (from_dlpack,
    to_dlpack) as in TensorFlow, imported on first use."""

    @property
    def dlpack(self) -> Any:
        from tfe_py import dlpack

        return dlpack


experimental = _Experimental()


# The TensorFlow-style function modules load on first use, so that
# ``import tfe_py`` stays cheap: ``tfe_py.math`` imports tfe_py/math.py, and
# a top-level function such as ``tfe_py.reshape`` is found in the TOPLEVEL
# list of one of the modules below (first match wins) and then cached in
# this module's namespace.
_SUBMODULES = {
    "array_ops": "tfe_py.array_ops",
    "custom_device": "tfe_py.custom_device",
    "ops": "tfe_py.ops",
    "parallel": "tfe_py.parallel",
    "plugins": "tfe_py.plugins",
    "saved_model": "tfe_py.saved_model",
    "session": "tfe_py.session",
    "bitwise": "tfe_py.bitwise",
    "config": "tfe_py.config",
    "debugging": "tfe_py.debugging",
    "framework": "tfe_py.framework",
    "image": "tfe_py.image",
    "io": "tfe_py.io",
    "linalg": "tfe_py.linalg",
    "math": "tfe_py.math",
    "nest": "tfe_py.nest",
    "nn": "tfe_py.nn",
    "random": "tfe_py.random",
    "raw_ops": "tfe_py.ops",
    "signal": "tfe_py.signal",
    "sort_ops": "tfe_py.sort_ops",
    "strings": "tfe_py.strings",
}
# Classes and functions of the package's own modules that load on first use.
_LAZY_NAMES = {
    "CustomDevice": "tfe_py.custom_device",
    "ParallelDevice": "tfe_py.parallel",
    "parallel_device": "tfe_py.parallel",
    "list_physical_devices": "tfe_py.plugins",
    "load_op_library": "tfe_py.plugins",
    "load_pluggable_device": "tfe_py.plugins",
    "Session": "tfe_py.session",
    "GradientTape": "tfe_py.gradient_tape",
    "custom_gradient": "tfe_py.custom_gradient",
    "recompute_grad": "tfe_py.custom_gradient",
    "UnconnectedGradients": "tfe_py.gradient_tape",
    "gradients": "tfe_py.gradients_api",
    "hessians": "tfe_py.gradients_api",
    "grad_pass_through": "tfe_py.gradients_api",
    "no_gradient": "tfe_py.gradients_api",
    "RegisterGradient": "tfe_py.gradients_api",
    "Variable": "tfe_py.variables",
    "get_default_session": "tfe_py.session",
}
_TOPLEVEL_MODULES = (
    "tfe_py.array_ops",
    "tfe_py.math",
    "tfe_py.linalg",
    "tfe_py.sort_ops",
    "tfe_py.framework",
    "tfe_py.nn",
    "tfe_py.strings",
    "tfe_py.random",
    "tfe_py.debugging",
    "tfe_py.config",
    "tfe_py.io",
    "tfe_py.nest",
    "tfe_py.bitwise",
    "tfe_py.signal",
    "tfe_py.image",
)


def __getattr__(name: str) -> Any:
    import importlib
    import importlib.util

    target = _SUBMODULES.get(name)
    if target is not None:
        module = importlib.import_module(target)
        globals()[name] = module
        return module
    target = _LAZY_NAMES.get(name)
    if target is not None:
        value = getattr(importlib.import_module(target), name)
        globals()[name] = value
        return value
    if not name.startswith("_"):  # "_api" etc. are private modules, never tf.* names
        for modname in _TOPLEVEL_MODULES:
            module = importlib.import_module(modname)
            if name in getattr(module, "TOPLEVEL", ()):
                value = getattr(module, name)
                globals()[name] = value
                return value
        # Any other module of the package (tfe_py.executor, tfe_py.doctor,
        # ...), as if it had been imported.
        if not name.startswith("_") and importlib.util.find_spec(f"tfe_py.{name}") is not None:
            module = importlib.import_module(f"tfe_py.{name}")
            globals()[name] = module
            return module
    raise AttributeError(f"module 'tfe_py' has no attribute {name!r}")


def __dir__() -> list[str]:
    import importlib

    names = set(globals()) | set(_SUBMODULES) | set(_LAZY_NAMES)
    for modname in _TOPLEVEL_MODULES:
        names.update(getattr(importlib.import_module(modname), "TOPLEVEL", ()))
    return sorted(names)
