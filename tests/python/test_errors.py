"""tfe_py.errors: one table from the C core drives codes, names and classes."""

from __future__ import annotations

import pickle

import pytest

from tfe_py import errors
from tfe_py._ffi import ffi, lib

# TensorFlow's error codes (error_codes.proto) and the matching tf.errors
# class names, written out by hand so the generated ones are checked.
EXPECTED = [
    (0, "OK", None),
    (1, "CANCELLED", "CancelledError"),
    (2, "UNKNOWN", "UnknownError"),
    (3, "INVALID_ARGUMENT", "InvalidArgumentError"),
    (4, "DEADLINE_EXCEEDED", "DeadlineExceededError"),
    (5, "NOT_FOUND", "NotFoundError"),
    (6, "ALREADY_EXISTS", "AlreadyExistsError"),
    (7, "PERMISSION_DENIED", "PermissionDeniedError"),
    (8, "RESOURCE_EXHAUSTED", "ResourceExhaustedError"),
    (9, "FAILED_PRECONDITION", "FailedPreconditionError"),
    (10, "ABORTED", "AbortedError"),
    (11, "OUT_OF_RANGE", "OutOfRangeError"),
    (12, "UNIMPLEMENTED", "UnimplementedError"),
    (13, "INTERNAL", "InternalError"),
    (14, "UNAVAILABLE", "UnavailableError"),
    (15, "DATA_LOSS", "DataLossError"),
    (16, "UNAUTHENTICATED", "UnauthenticatedError"),
]
ERROR_CASES = [(code, cls_name) for code, _, cls_name in EXPECTED if cls_name]


def test_code_table_matches_tensorflow():
    assert dict(errors.CODE_NAMES) == {code: name for code, name, _ in EXPECTED}
    for code, name, _ in EXPECTED:
        assert getattr(errors, name) == code
        assert errors.CODES[name] == code
        # The C header's TF_* constants agree with the table.
        assert getattr(lib, "TF_" + name) == code
        assert errors.code_name(code) == name


def test_class_names_equal_tf_errors_names():
    generated = sorted(
        name
        for name in errors.__all__
        if name.endswith("Error") and name not in ("OpError", "OperatorNotAllowedInGraphError")
    )
    assert generated == sorted(cls_name for _, cls_name in ERROR_CASES)
    for code, cls_name in ERROR_CASES:
        cls = getattr(errors, cls_name)
        assert cls.__name__ == cls_name
        assert cls.__module__ == "tfe_py.errors"
        assert issubclass(cls, errors.OpError)
        assert cls.error_code == code
        assert errors.exception_for_code(code) is cls


def _status_with(code: int, message: bytes):
    s = lib.TF_NewStatus()
    lib.TF_SetStatus(s, code, message)
    return s


@pytest.mark.parametrize(("code", "cls_name"), ERROR_CASES)
def test_check_raises_the_class_of_each_code(code, cls_name):
    message = f"failure number {code}: caf\u00e9"
    s = _status_with(code, message.encode("utf-8"))
    try:
        with pytest.raises(errors.OpError) as info:
            errors.check(s)
    finally:
        lib.TF_DeleteStatus(s)
    err = info.value
    assert type(err) is getattr(errors, cls_name)
    assert err.error_code == code
    assert err.message == message
    assert str(err) == message


def test_check_on_ok_does_nothing():
    s = lib.TF_NewStatus()
    try:
        assert errors.check(s) is None
        lib.TF_SetStatus(s, errors.OK, b"ignored")
        assert errors.check(s) is None
    finally:
        lib.TF_DeleteStatus(s)


def test_status_context_checks_and_frees(live_count):
    before = live_count("STATUS")
    with errors.status() as s:
        assert live_count("STATUS") == before + 1
        assert lib.TF_GetCode(s) == errors.OK
    assert live_count("STATUS") == before

    with pytest.raises(errors.NotFoundError, match="no such thing"):
        with errors.status() as s:
            lib.TF_SetStatus(s, errors.NOT_FOUND, b"no such thing")
    assert live_count("STATUS") == before


def test_status_context_lets_body_exceptions_through(live_count):
    before = live_count("STATUS")
    with pytest.raises(KeyError):
        with errors.status() as s:
            lib.TF_SetStatus(s, errors.INTERNAL, b"not reported")
            raise KeyError("body")
    assert live_count("STATUS") == before


def test_unknown_code_becomes_unknown_error_keeping_the_number():
    with pytest.raises(errors.UnknownError) as info:
        errors.raise_for(42, "from the future")
    assert info.value.error_code == 42
    assert info.value.message == "from the future"
    assert errors.exception_for_code(-1) is errors.UnknownError
    assert errors.code_name(42) == "UNKNOWN_CODE"


def test_ok_is_not_an_error():
    with pytest.raises(ValueError):
        errors.exception_for_code(errors.OK)
    with pytest.raises(ValueError):
        errors.raise_for(errors.OK, "fine")


def test_direct_construction_and_pickling():
    err = errors.InvalidArgumentError("bad shape")
    assert err.error_code == errors.INVALID_ARGUMENT
    assert str(err) == "bad shape"
    base = errors.OpError("generic", errors.ABORTED)
    assert base.error_code == errors.ABORTED
    assert errors.OpError("no code").error_code == errors.UNKNOWN
    for original in (err, base, errors.error_for(99, "odd")):
        copy = pickle.loads(pickle.dumps(original))
        assert type(copy) is type(original)
        assert (copy.message, copy.error_code) == (original.message, original.error_code)


def test_set_status_from_exception_round_trips():
    s = lib.TF_NewStatus()
    try:
        errors.set_status_from_exception(s, errors.OutOfRangeError("end of sequence"))
        assert lib.TF_GetCode(s) == errors.OUT_OF_RANGE
        assert ffi.string(lib.TF_Message(s)) == b"end of sequence"
        with pytest.raises(errors.OutOfRangeError, match="end of sequence"):
            errors.check(s)

        errors.set_status_from_exception(s, ZeroDivisionError("division by zero"))
        assert lib.TF_GetCode(s) == errors.UNKNOWN
        assert ffi.string(lib.TF_Message(s)) == b"ZeroDivisionError: division by zero"
    finally:
        lib.TF_DeleteStatus(s)
