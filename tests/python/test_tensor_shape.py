"""tfe_py.TensorShape against TensorFlow 2.21's behaviour (values recorded
from TF)."""

from __future__ import annotations

import numpy as np
import pytest

import tfe_py
from tfe_py import TensorShape


def test_basics() -> None:
    s = TensorShape([2, None, 3])
    assert s.rank == 3 and s.ndims == 3 and len(s) == 3
    assert s.as_list() == [2, None, 3]
    assert s.num_elements() is None
    assert not s.is_fully_defined()
    assert s[1] is None and s[0] == 2
    assert s[1:] == TensorShape([None, 3]) and isinstance(s[1:], TensorShape)
    assert list(s) == [2, None, 3]
    assert repr(s) == "TensorShape([2, None, 3])"
    assert str(s) == "(2, None, 3)"
    assert str(TensorShape([4])) == "(4,)"
    assert str(TensorShape([])) == "()"
    assert TensorShape([2, 3]).num_elements() == 6
    assert TensorShape([]).num_elements() == 1


def test_equality() -> None:
    s = TensorShape([2, None, 3])
    assert s == (2, None, 3) and s == [2, None, 3]
    assert not (s != (2, None, 3))
    assert TensorShape([2]) != TensorShape(None)
    assert TensorShape(None) == TensorShape(None)
    assert TensorShape([2, 3]) != "a"
    assert TensorShape([2, 3]) != (2, 3.5)
    assert hash(TensorShape([2, 3])) == hash(TensorShape((2, 3))) == hash((2, 3))
    assert {(2, 3): "a"}[TensorShape([2, 3])] == "a"
    assert hash(TensorShape(None)) == hash(TensorShape(None))


def test_methods() -> None:
    s = TensorShape([2, None, 3])
    assert s.merge_with([2, 5, 3]) == [2, 5, 3]
    msg = r"Shapes \(2, None, 3\) and \(3, 5, 3\) are not compatible"
    with pytest.raises(ValueError, match=msg):
        s.merge_with([3, 5, 3])
    with pytest.raises(ValueError, match="not compatible"):
        TensorShape([2, 3]).merge_with([4])
    assert s.concatenate([4]) == TensorShape([2, None, 3, 4])
    assert TensorShape([2, 3]).__add__([4]) == [2, 3, 4]
    assert TensorShape([2, 3]).__radd__([4]) == [4, 2, 3]
    assert s.is_compatible_with([2, 1, 3])
    assert not s.is_compatible_with([2, 1])
    assert TensorShape([1, None]).is_compatible_with(TensorShape(None))
    assert TensorShape([1, 2]).with_rank(2) == [1, 2]
    with pytest.raises(ValueError, match=r"Shape \(1, 2\) must have rank 3"):
        TensorShape([1, 2]).with_rank(3)
    assert TensorShape([2, None]).most_specific_compatible_shape([2, 3]) == [2, None]


def test_unknown_rank() -> None:
    u = TensorShape(None)
    assert u.rank is None and u.dims is None
    assert repr(u) == "TensorShape(None)" and str(u) == "<unknown>"
    with pytest.raises(ValueError, match=r"as_list\(\) is not defined on an unknown TensorShape\."):
        u.as_list()
    with pytest.raises(ValueError, match=r"Cannot take the length of shape with unknown rank\."):
        len(u)
    assert u[0] is None and u[1:] == TensorShape(None)
    assert bool(u) and not bool(TensorShape([]))
    assert u.merge_with([1, 2]) == [1, 2]


def test_errors() -> None:
    with pytest.raises(ValueError, match="Dimension -1 must be >= 0"):
        TensorShape([-1])
    with pytest.raises(TypeError):
        TensorShape([1.5])
    with pytest.raises(IndexError):
        TensorShape([2])[5]


def test_tensor_shape_attribute() -> None:
    t = tfe_py.constant(np.zeros((2, 3), np.float32))
    assert isinstance(t.shape, TensorShape) and isinstance(t.get_shape(), TensorShape)
    assert t.shape == (2, 3) and t.shape.as_list() == [2, 3] and t.shape.rank == 2
    assert np.zeros(t.shape).shape == (2, 3)
    assert tfe_py.constant(1.0).shape == ()
