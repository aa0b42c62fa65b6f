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

The constructors take TensorFlow's arguments: ``OpError(node_def, op,
message, error_code)`` and ``InvalidArgumentError(node_def, op, message)``
(``node_def`` and ``op`` are None in eager code, as in TF; an optional last
argument is a dict of payloads, ``experimental_payloads``). tfe's older
short forms ``InvalidArgumentError(message)`` and ``OpError(message, code)``
are still accepted.
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


class _CodeAttribute:
    """``error_code``: the instance's code, or on the class itself the code
    its instances get (``InvalidArgumentError.error_code == 3``)."""

    def __get__(self, obj: OpError | None, cls: type[OpError] | None = None) -> int:
        if obj is None:
            assert cls is not None
            return cls._default_code
        return obj._error_code


class OpError(Exception):
    """Base of every error reported through a TF_Status (``tf.errors.OpError``).

    ``OpError(node_def, op, message, error_code)`` as in TensorFlow;
    ``message``, ``op``, ``node_def``, ``error_code`` and
    ``experimental_payloads`` are read-only properties and ``str(err)`` is
    the message. ``OpError(message)`` and ``OpError(message, error_code)``
    (tfe's earlier form) also work: a str first argument with no message
    is taken as the message.
    """

    _default_code: int = _UNKNOWN

    def __init__(
        self,
        node_def: Any = None,
        op: Any = None,
        message: str | None = None,
        error_code: int | None = None,
        *args: Any,
    ) -> None:
        super().__init__()
        if message is None and isinstance(node_def, str):
            # tfe's short form: (message) or (message, error_code)
            node_def, message, error_code, op = None, node_def, op, None
        self._node_def = node_def
        self._op = op
        self._message = "" if message is None else message
        self._error_code = self._default_code if error_code is None else int(error_code)
        self._experimental_payloads: dict[Any, Any] = dict(args[0]) if args and args[0] else {}

    @property
    def message(self) -> str:
        """The text describing the failure."""
        return self._message

    @property
    def op(self) -> Any:
        """The operation that failed: always None for eager ops, as in TF."""
        return self._op

    @property
    def node_def(self) -> Any:
        """The NodeDef of the failed op, when known (None in eager code)."""
        return self._node_def

    error_code = _CodeAttribute()

    @property
    def experimental_payloads(self) -> dict[Any, Any]:
        """Details attached to the error (a dict, usually empty)."""
        return self._experimental_payloads

    def __str__(self) -> str:
        return self._message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._message!r}, error_code={self._error_code})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _rebuild,
            (type(self), self._node_def, self._op, self._message, self._error_code,
             self._experimental_payloads),
        )


def _rebuild(
    cls: type[OpError], node_def: Any, op: Any, message: str, code: int, payloads: dict[Any, Any]
) -> OpError:
    # Unpickling: rebuilds the error without going through a subclass's
    # three-argument constructor, so an UnknownError keeps a foreign code.
    err = cls.__new__(cls)
    OpError.__init__(err, node_def, op, message, code, payloads)
    return err


def _subclass_init(
    self: OpError, node_def: Any = None, op: Any = None, message: str | None = None, *args: Any
) -> None:
    # The constructor of every OpError subclass: TF's (node_def, op,
    # message, payloads?) with the class's own code; tfe's (message) works.
    if message is None and isinstance(node_def, str):
        node_def, message, op = None, node_def, None
    OpError.__init__(self, node_def, op, message, self._default_code, *args)


class OperatorNotAllowedInGraphError(TypeError):
    """Raised for a Python operation a graph tensor cannot do (as TF's
    ``tf.errors.OperatorNotAllowedInGraphError``, a TypeError)."""


def _make_classes() -> dict[int, type[OpError]]:
    classes: dict[int, type[OpError]] = {}
    for code, name in CODE_NAMES.items():
        if code == _OK:
            continue
        cls = type(
            class_name_for(name),
            (OpError,),
            {
                "_default_code": code,
                "__init__": _subclass_init,
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
    "OperatorNotAllowedInGraphError",
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
    err = exception_for_code(code)(None, None, message)
    err._error_code = int(code)
    return err


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
