"""tfe_py: Python binding for tfe, a standalone implementation of TensorFlow's C API.

The compiled cffi extension and the libtfe runtime it links against are
loaded (and their versions checked) by :mod:`tfe_py._ffi`; the rest of the
package builds on that.
"""

from tfe_py import dtypes, errors
from tfe_py._ffi import RUNTIME_VERSION, runtime_library_path
from tfe_py._version import __version__
from tfe_py.errors import OpError
from tfe_py.tensor import Tensor

__all__ = [
    "RUNTIME_VERSION",
    "OpError",
    "Tensor",
    "__version__",
    "dtypes",
    "errors",
    "runtime_library_path",
]
