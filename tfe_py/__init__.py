"""tfe_py: Python binding for tfe, a standalone implementation of TensorFlow's C API.

The compiled cffi extension and the libtfe runtime it links against are
loaded (and their versions checked) by :mod:`tfe_py._ffi`; the rest of the
package builds on that.
"""

from tfe_py import context, dtypes, eager, errors, ops
from tfe_py._ffi import RUNTIME_VERSION, runtime_library_path
from tfe_py._version import __version__
from tfe_py.context import Context, default_context
from tfe_py.custom_device import CustomDevice
from tfe_py.eager import DType, EagerTensor, constant, convert_to_tensor
from tfe_py.errors import OpError
from tfe_py.parallel import ParallelDevice, parallel_device
from tfe_py.plugins import list_physical_devices, load_op_library, load_pluggable_device
from tfe_py.tensor import Tensor

__all__ = [
    "RUNTIME_VERSION",
    "Context",
    "CustomDevice",
    "DType",
    "EagerTensor",
    "OpError",
    "ParallelDevice",
    "Tensor",
    "__version__",
    "constant",
    "context",
    "convert_to_tensor",
    "default_context",
    "dtypes",
    "eager",
    "errors",
    "list_physical_devices",
    "load_op_library",
    "load_pluggable_device",
    "ops",
    "parallel_device",
    "runtime_library_path",
]
