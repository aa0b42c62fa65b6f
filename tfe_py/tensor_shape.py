"""TensorShape: the shape of a tensor as TensorFlow describes it.

A :class:`TensorShape` is a tuple of dimensions, each an ``int`` or None
(unknown), or of unknown rank altogether (``TensorShape(None)``). It is a
``tuple`` subclass, so code written for tfe's earlier plain-tuple shapes
(``t.shape == (2, 3)``, ``np.zeros(t.shape)``, ``t.shape[0]``) keeps
working; on top of that it has TensorFlow's methods (``as_list()``,
``rank``, ``num_elements()``, ``merge_with()``, ...) and compares equal to
lists too, as TensorFlow's does.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, SupportsIndex, overload

__all__ = ["TensorShape", "as_shape"]


def _dim(value: Any) -> int | None:
    """One dimension: None, or a non-negative int (TF's messages)."""
    if value is None:
        return None
    v = getattr(value, "value", value)  # TF's Dimension objects
    if v is None:
        return None
    try:
        d = int(v.__index__())
    except (AttributeError, TypeError):
        raise TypeError(
            f"Dimension value must be integer or None or have an __index__ method, "
            f"got value '{value!r}' with type '{type(value)!r}'"
        ) from None
    if d < 0:
        raise ValueError(f"Dimension {d} must be >= 0")
    return d


class TensorShape(tuple):  # type: ignore[type-arg]
    """Dimensions of a tensor (ints, None for unknown), or unknown rank."""

    # A class default: only shapes of unknown rank set it on the instance
    # (tuple subclasses cannot have slots; known shapes never get a __dict__).
    _unknown_rank: bool = False

    def __new__(cls, dims: Any = None) -> TensorShape:
        if isinstance(dims, TensorShape):
            return dims
        if dims is None:
            obj = super().__new__(cls, ())
            obj._unknown_rank = True
            return obj
        if isinstance(dims, (str, bytes)) or not isinstance(dims, Iterable):
            dims = (dims,)  # TensorShape(3) is the shape [3], as in TF
        return super().__new__(cls, tuple(_dim(d) for d in dims))

    @classmethod
    def _known(cls, dims: tuple[int, ...]) -> TensorShape:
        """Fast path for dims already checked (ints >= 0)."""
        return tuple.__new__(cls, dims)

    # -- TF's properties and methods -------------------------------------

    @property
    def rank(self) -> int | None:
        """Number of dimensions, or None when unknown."""
        return None if self._unknown_rank else tuple.__len__(self)

    ndims = rank

    @property
    def dims(self) -> list[int | None] | None:
        """The dimensions as a list (None when the rank is unknown)."""
        return None if self._unknown_rank else list(tuple.__iter__(self))

    def as_list(self) -> list[int | None]:
        if self._unknown_rank:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(tuple.__iter__(self))

    def num_elements(self) -> int | None:
        """Product of the dimensions; None unless fully defined."""
        if not self.is_fully_defined():
            return None
        return math.prod(tuple.__iter__(self))

    def is_fully_defined(self) -> bool:
        return not self._unknown_rank and None not in tuple.__iter__(self)

    def assert_is_fully_defined(self) -> None:
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def is_compatible_with(self, other: Any) -> bool:
        """True when some fully defined shape matches both."""
        other = as_shape(other)
        if self._unknown_rank or other._unknown_rank:
            return True
        if tuple.__len__(self) != tuple.__len__(other):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self, other, strict=True))

    def assert_is_compatible_with(self, other: Any) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {as_shape(other)} are incompatible")

    def merge_with(self, other: Any) -> TensorShape:
        """The most specific shape compatible with both; ValueError if none."""
        other = as_shape(other)
        if self._unknown_rank:
            return other
        if other._unknown_rank:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape._known(
            tuple(a if a is not None else b for a, b in zip(self, other, strict=True))  # type: ignore[misc]
        )

    def most_specific_compatible_shape(self, other: Any) -> TensorShape:
        """The most specific shape both are compatible with."""
        other = as_shape(other)
        if self._unknown_rank or other._unknown_rank or len(self) != len(other):
            return TensorShape(None)
        return TensorShape([a if a == b else None for a, b in zip(self, other, strict=True)])

    def concatenate(self, other: Any) -> TensorShape:
        other = as_shape(other)
        if self._unknown_rank or other._unknown_rank:
            return TensorShape(None)
        return TensorShape._known(tuple.__add__(self, other))

    def with_rank(self, rank: int) -> TensorShape:
        try:
            return self.merge_with(TensorShape([None] * rank))
        except ValueError:
            raise ValueError(f"Shape {self} must have rank {rank}") from None

    def with_rank_at_least(self, rank: int) -> TensorShape:
        if self.rank is not None and self.rank < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank: int) -> TensorShape:
        if self.rank is not None and self.rank > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    # -- sequence behaviour ----------------------------------------------

    def __len__(self) -> int:
        if self._unknown_rank:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return tuple.__len__(self)

    def __bool__(self) -> bool:
        return self._unknown_rank or tuple.__len__(self) > 0

    @overload
    def __getitem__(self, key: SupportsIndex) -> int | None: ...
    @overload
    def __getitem__(self, key: slice) -> TensorShape: ...
    def __getitem__(self, key: Any) -> Any:
        if self._unknown_rank:
            if isinstance(key, slice):
                return TensorShape(None)
            return None
        if isinstance(key, slice):
            return TensorShape._known(tuple.__getitem__(self, key))
        return tuple.__getitem__(self, key)

    def __add__(self, other: Any) -> TensorShape:  # type: ignore[override]
        return self.concatenate(other)

    def __radd__(self, other: Any) -> TensorShape:
        return as_shape(other).concatenate(self)

    def __eq__(self, other: object) -> bool:
        try:
            other_shape = as_shape(other)
        except (TypeError, ValueError):
            return False
        if self._unknown_rank or other_shape._unknown_rank:
            return self._unknown_rank and other_shape._unknown_rank
        return tuple.__eq__(self, other_shape)  # type: ignore[no-any-return]

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        # Equal to the tuple's hash, as the shapes compare equal to tuples
        # (dict keys such as tf.function's trace cache mix both).
        if self._unknown_rank:
            return hash(("TensorShape", None))
        return tuple.__hash__(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (TensorShape, (None if self._unknown_rank else tuple(self),))

    # -- printing ---------------------------------------------------------

    def __repr__(self) -> str:
        if self._unknown_rank:
            return "TensorShape(None)"
        return f"TensorShape({list(tuple.__iter__(self))})"

    def __str__(self) -> str:
        if self._unknown_rank:
            return "<unknown>"
        dims = tuple(tuple.__iter__(self))
        if len(dims) == 1:
            return f"({dims[0]},)"
        return "(" + ", ".join(str(d) for d in dims) + ")"


def as_shape(shape: Any) -> TensorShape:
    """``shape`` as a TensorShape (a TensorShape, list, tuple, int or None)."""
    if isinstance(shape, TensorShape):
        return shape
    return TensorShape(shape)
