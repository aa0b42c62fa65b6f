"""``tf.bitwise``: bitwise operations on integer tensors.

Each function is one op (``BitwiseAnd``, ``BitwiseOr``, ``BitwiseXor``,
``Invert``, ``LeftShift``, ``RightShift``) with broadcasting; Python values
take the dtype of the tensor argument, as in TF. Shifts by a negative
amount or by at least the bit width are implementation-defined in TF; tfe
gives what TF's CPU kernel gives (the shift amount is clamped).
"""

from __future__ import annotations

from typing import Any

from tfe_py import ops as _ops

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"]

# Names TensorFlow also exports at the top level (tf.<name>).
TOPLEVEL: frozenset[str] = frozenset()


def bitwise_and(x: Any, y: Any, name: str | None = None) -> Any:
    """Elementwise ``x & y``."""
    return _ops.BitwiseAnd(x, y)


def bitwise_or(x: Any, y: Any, name: str | None = None) -> Any:
    """Elementwise ``x | y``."""
    return _ops.BitwiseOr(x, y)


def bitwise_xor(x: Any, y: Any, name: str | None = None) -> Any:
    """Elementwise ``x ^ y``."""
    return _ops.BitwiseXor(x, y)


def invert(x: Any, name: str | None = None) -> Any:
    """Elementwise ``~x`` (flips every bit)."""
    return _ops.Invert(x)


def left_shift(x: Any, y: Any, name: str | None = None) -> Any:
    """Elementwise ``x << y``."""
    return _ops.LeftShift(x, y)


def right_shift(x: Any, y: Any, name: str | None = None) -> Any:
    """Elementwise ``x >> y`` (arithmetic for signed types)."""
    return _ops.RightShift(x, y)
