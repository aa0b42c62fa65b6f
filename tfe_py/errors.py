"""TF_Status errors as Python exceptions.

Everything here is generated from one table, the C core's list of codes,
read through ``TFE_CodeName``: for every code it defines a module constant
(``OK``, ``CANCELLED``, ``INVALID_ARGUMENT``, ...) and, for every code but OK,
a subclass of :class:`OpError` named like its twin in ``tf.errors``
(``INVALID_ARGUMENT`` -> ``InvalidArgumentError``). C names, Python classes
and numbers therefore cannot drift apart.

Typical use::

    from tfe_py.errors import status

    with status() as s:
        lib.TF_Something(..., s)   # raises e.g. NotFoundError on failure

Unlike ``tf.errors``, the constructors take ``(message, error_code=None)``;
there is no node_def or op yet.
"""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, NoReturn

from tfe_py._ffi import CData, ffi, lib

# Codes are probed up to this bound; TF's table ends at 16.
_PROBE_LIMIT = 64
_UNKNOWN_NAME = b"UNKNOWN_CODE"


def _read_code_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for code in range(_PROBE_LIMIT):
        name = ffi.string(lib.TFE_CodeName(code))
        if name != _UNKNOWN_NAME:
            table[code] = name.decode("ascii")
    if table.get(0) != "OK" or "UNKNOWN" not in table.values():
        raise ImportError(f"tfe_py.errors: libtfe's code table looks wrong: {table}")
    return table


#: code -> canonical name ("OK", "INVALID_ARGUMENT", ...), from the C core.
CODE_NAMES: Mapping[int, str] = types.MappingProxyType(_read_code_table())
#: canonical name -> code.
CODES: Mapping[str, int] = types.MappingProxyType({v: k for k, v in CODE_NAMES.items()})

_OK = CODES["OK"]
_UNKNOWN = CODES["UNKNOWN"]


def class_name_for(code_name: str) -> str:
    """Exception class name for a canonical code name: NOT_FOUND -> NotFoundError."""
    return "".join(part.capitalize() for part in code_name.split("_")) + "Error"


class OpError(Exception):
    """Base of every error reported through a TF_Status.

    ``error_code`` is the numeric TF_Code and ``message`` the status
    message; ``str(err)`` is the message.
    """

    error_code: int = _UNKNOWN

    def __init__(self, message: str, error_code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if error_code is not None:
            self.error_code = int(error_code)

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, error_code={self.error_code})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.message, self.error_code))


def _make_classes() -> dict[int, type[OpError]]:
    classes: dict[int, type[OpError]] = {}
    for code, name in CODE_NAMES.items():
        if code == _OK:
            continue
        cls = type(
            class_name_for(name),
            (OpError,),
            {
                "error_code": code,
                "__doc__": f"Raised for TF_{name} (code {code}).",
                "__module__": __name__,
            },
        )
        cls.__qualname__ = cls.__name__
        classes[code] = cls
    return classes


_CLASSES: dict[int, type[OpError]] = _make_classes()

# Module-level names: one constant per code and one class per error code.
globals().update(CODES)
globals().update({cls.__name__: cls for cls in _CLASSES.values()})

__all__ = [
    "CODES",
    "CODE_NAMES",
    "OpError",
    "check",
    "class_name_for",
    "code_name",
    "error_for",
    "exception_for_code",
    "out_of_memory",
    "raise_for",
    "set_status_from_exception",
    "status",
    *CODES,
    *(cls.__name__ for cls in _CLASSES.values()),
]


def code_name(code: int) -> str:
    """Canonical name of a code, as the C core spells it ("UNKNOWN_CODE" if none)."""
    return ffi.string(lib.TFE_CodeName(int(code))).decode("ascii")


def exception_for_code(code: int) -> type[OpError]:
    """The OpError subclass for ``code``; UnknownError for codes outside the table.

    Raises ValueError for OK, which is not an error.
    """
    code = int(code)
    if code == _OK:
        raise ValueError("OK is not an error code")
    return _CLASSES.get(code, _CLASSES[_UNKNOWN])


def error_for(code: int, message: str) -> OpError:
    """An exception instance for ``code``. A code outside the table gives an
    UnknownError whose ``error_code`` keeps the original number."""
    return exception_for_code(code)(message, error_code=int(code))


def raise_for(code: int, message: str) -> NoReturn:
    """Raises the exception for ``code`` (ValueError for OK)."""
    raise error_for(code, message)


def out_of_memory(what: str) -> OpError:
    """The ResourceExhaustedError for an allocation by the C core that
    failed (``what`` says which), as TF reports running out of memory."""
    return error_for(CODES["RESOURCE_EXHAUSTED"], f"out of memory: {what}")


def check(status: CData) -> None:
    """Raises the matching OpError if ``status`` (a ``TF_Status*``) is not OK.

    A status without a message (the core ran out of memory storing it) gets
    one saying what its code means.
    """
    code = int(lib.TF_GetCode(status))
    if code == _OK:
        return
    message = ffi.string(lib.TF_Message(status)).decode("utf-8", "replace")
    if not message:
        message = (
            "out of memory (no message)"
            if code == CODES["RESOURCE_EXHAUSTED"]
            else f"{code_name(code)} (no message)"
        )
    raise error_for(code, message)


@contextmanager
def status() -> Iterator[CData]:
    """Yields a fresh ``TF_Status*``; checks it when the block ends and frees it.

    If the block itself raises, that exception propagates and the status is
    just freed. ResourceExhaustedError when no status can be allocated.
    """
    s = lib.TF_NewStatus()
    if s == ffi.NULL:
        # Out of memory before the call could even start: the error the
        # call itself would give for it.
        raise out_of_memory("TF_NewStatus returned NULL")
    try:
        yield s
        check(s)
    finally:
        lib.TF_DeleteStatus(s)


def set_status_from_exception(status: CData, exc: BaseException) -> None:
    """Stores ``exc`` in a ``TF_Status*`` (for callbacks that must not raise into C).

    An OpError keeps its code and message; anything else becomes UNKNOWN
    with the exception type and text.
    """
    if isinstance(exc, OpError):
        code, message = exc.error_code, exc.message
        if code not in CODE_NAMES or code == _OK:
            code = _UNKNOWN
    else:
        code, message = _UNKNOWN, f"{type(exc).__name__}: {exc}"
    lib.TF_SetStatus(status, code, message.encode("utf-8", "replace"))
