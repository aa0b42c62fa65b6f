"""Reference (Ref(T)) ops through tfe_py.ops: TemporaryVariable, Assign,
AssignAdd, AssignSub, RefIdentity, VariableV2, IsVariableInitialized and
DestroyTemporaryVariable run eagerly (a tfe extension: TensorFlow's Python
eager mode refuses them), with TensorFlow's errors."""

from __future__ import annotations

import numpy as np
import pytest

from tfe_py import errors, ops
from tfe_py.context import default_context
from tfe_py.eager import EagerTensor, constant


@pytest.fixture(autouse=True)
def _default_exists() -> None:
    default_context()


def f32(x: object) -> EagerTensor:
    return constant(np.asarray(x, dtype=np.float32))


def test_temporary_variable_sequence_matches_numpy() -> None:
    v = ops.TemporaryVariable(shape=[2, 2], dtype="float32", var_name="py_seq")
    assert v.dtype.name == "float32"
    assert v.shape == (2, 2)
    a = np.array([[1, 2], [3, 4]], np.float32)
    b = np.array([[10, 20], [30, 40]], np.float32)
    r = ops.Assign(v, f32(a))
    r = ops.AssignAdd(r, f32(b))
    r = ops.AssignSub(r, f32(a))
    r = ops.RefIdentity(r)
    # Every handle sees the one variable; a plain op reads its value.
    np.testing.assert_array_equal(v.numpy(), b)
    np.testing.assert_array_equal(ops.AddV2(r, f32(a)).numpy(), a + b)
    snapshot = v.numpy()
    final = ops.DestroyTemporaryVariable(r, var_name="py_seq")
    np.testing.assert_array_equal(final.numpy(), b)
    # numpy() made a copy: later updates do not show through.
    np.testing.assert_array_equal(snapshot, b)


def test_assign_shape_rules() -> None:
    v = ops.TemporaryVariable(shape=[2], dtype="float32", var_name="py_shape")
    ops.Assign(v, f32([1, 2]))
    with pytest.raises(errors.InvalidArgumentError, match=r"lhs shape= \[2\] rhs shape= \[3\]"):
        ops.Assign(v, f32([1, 2, 3]))
    ops.Assign(v, f32([1, 2, 3]), validate_shape=False)
    np.testing.assert_array_equal(v.numpy(), [1, 2, 3])
    with pytest.raises(errors.InvalidArgumentError, match="same size"):
        ops.AssignAdd(v, f32([1, 2]))
    ops.DestroyTemporaryVariable(v, var_name="py_shape")


def test_errors_match_tensorflow() -> None:
    with pytest.raises(errors.InvalidArgumentError, match="expected to be a float_ref tensor"):
        ops.RefIdentity(f32([1.0]))
    v = ops.VariableV2(shape=[1], dtype="float32")
    with pytest.raises(errors.FailedPreconditionError, match="uninitialized value"):
        v.numpy()
    assert not bool(ops.IsVariableInitialized(v).numpy())
    ops.Assign(v, f32([5.0]))
    assert bool(ops.IsVariableInitialized(v).numpy())
    np.testing.assert_array_equal(v.numpy(), [5.0])
    t = ops.TemporaryVariable(shape=[1], dtype="float32", var_name="py_err")
    with pytest.raises(errors.AlreadyExistsError):
        ops.TemporaryVariable(shape=[1], dtype="float32", var_name="py_err")
    with pytest.raises(errors.NotFoundError, match="py_other"):
        ops.DestroyTemporaryVariable(t, var_name="py_other")
    ops.DestroyTemporaryVariable(t, var_name="py_err")
