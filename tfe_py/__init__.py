"""tfe_py: Python binding for tfe, a standalone implementation of TensorFlow's C API.

The compiled cffi extension and the libtfe runtime it links against are
loaded (and their versions checked) by :mod:`tfe_py._ffi`; the rest of the
package builds on that.

Data types are module attributes as in TensorFlow (``tfe_py.float32``,
``tfe_py.int64``, ... one per ``tfe_py.dtypes.ALL_DTYPES``, plus the aliases
``half`` and ``double``): :class:`DType` values, which are also ints.
Graph mode (``with tfe_py.Graph():``, :class:`Session`, :func:`placeholder`)
and :func:`function` are in :mod:`tfe_py.graph`, :mod:`tfe_py.session` and
:mod:`tfe_py.function`; :func:`constant` makes a Const node inside a graph.
:func:`get_include` and :func:`get_library_dir` say where the C headers and
``libtfe.so.0`` are, for building plugins and programs against this package
(``python -m tfe_py config --cflags --libs`` prints the flags).
"""

from tfe_py import context, dtypes, eager, errors, ops, saved_model
from tfe_py._ffi import RUNTIME_VERSION, runtime_library_path
from tfe_py._paths import get_include, get_library_dir
from tfe_py._version import __version__
from tfe_py.context import Context, default_context
from tfe_py.custom_device import CustomDevice
from tfe_py.eager import DType, EagerTensor
from tfe_py.errors import OpError
from tfe_py.function import (
    ConcreteFunction,
    Function,
    TensorSpec,
    cond,
    function,
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
from tfe_py.parallel import ParallelDevice, parallel_device
from tfe_py.plugins import list_physical_devices, load_op_library, load_pluggable_device
from tfe_py.session import Session, get_default_session
from tfe_py.tensor import Tensor

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
    "TensorSpec",
    "__version__",
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
    "ops",
    "parallel_device",
    "placeholder",
    "runtime_library_path",
    "saved_model",
    "while_loop",
]


def _dtype_constants() -> dict[str, DType]:
    """``float32`` -> DType(TF_FLOAT), ... for every dtype tfe knows."""
    found = {dtypes.name(v): DType(v) for v in dtypes.ALL_DTYPES}
    found["half"] = found["float16"]
    found["double"] = found["float64"]
    return found


_DTYPES = _dtype_constants()
globals().update(_DTYPES)
__all__ += sorted(_DTYPES)
