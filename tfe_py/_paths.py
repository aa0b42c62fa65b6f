"""Where tfe's headers and library are, for building against the installed tfe.

An installed package (``pip install .`` or a wheel) carries the public
headers in ``tfe_py/include`` (copied there by setup.py at build time) and
the runtime as ``tfe_py/libtfe.so.0``. An editable install (``pip install
-e .``) uses the checkout's ``include/`` and the ``libtfe.so.0`` shipped
into the source package. Both layouts are looked for here, the packaged one
first. This module imports nothing that loads the C runtime.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
#: The file name programs link against (libtfe's SONAME; the package ships
#: no unversioned ``libtfe.so``, so it is linked as ``-l:libtfe.so.0``).
LIBTFE_NAME = "libtfe.so.0"
# A header every complete include directory has.
_MARKER = Path("tensorflow") / "c" / "c_api.h"


def get_include() -> str:
    """The directory to pass as ``-I`` to compile against tfe's C headers.

    It holds ``tensorflow/c/...``, ``tsl/...``, ``xla/...`` and ``tfe/...``.
    Raises FileNotFoundError when the package has no headers (a broken
    install).
    """
    for cand in (PACKAGE_DIR / "include", PACKAGE_DIR.parent / "include"):
        if (cand / _MARKER).is_file():
            return str(cand)
    raise FileNotFoundError(
        f"tfe's C headers are missing: neither {PACKAGE_DIR / 'include'} nor "
        f"{PACKAGE_DIR.parent / 'include'} holds {_MARKER}; reinstall tfe_py"
    )


def get_library_dir() -> str:
    """The directory that holds ``libtfe.so.0`` (pass it as ``-L`` and rpath).

    Raises FileNotFoundError when the library is not next to the package
    (a package that was never built).
    """
    if (PACKAGE_DIR / LIBTFE_NAME).exists():
        return str(PACKAGE_DIR)
    raise FileNotFoundError(
        f"{PACKAGE_DIR / LIBTFE_NAME} does not exist: build the package first "
        "(pip install .)"
    )


def cflags() -> list[str]:
    """Compiler flags for a program or plugin that includes tfe's headers."""
    return [f"-I{get_include()}"]


def libs() -> list[str]:
    """Linker flags for a program that calls tfe (not for plugins: a plugin
    is not linked against the runtime, its TF_* symbols resolve to the
    runtime that loads it)."""
    d = get_library_dir()
    return [f"-L{d}", f"-l:{LIBTFE_NAME}", f"-Wl,-rpath,{d}", "-lpthread", "-ldl", "-lm"]
