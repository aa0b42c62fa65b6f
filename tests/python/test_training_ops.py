"""ResourceApplyGradientDescent (TF1 GradientDescentOptimizer's update op), eagerly."""

from __future__ import annotations

import numpy as np
import pytest

from tfe_py import dtypes, errors, ops


def _var(value: np.ndarray, name: str) -> object:
    h = ops.VarHandleOp(dtype=dtypes.from_numpy_dtype(value.dtype), shape=list(value.shape),
                        shared_name=name)
    ops.AssignVariableOp(h, value)
    return h


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_update_subtracts_alpha_times_delta(dtype: type) -> None:
    h = _var(np.array([1.0, 2.0, 4.0], dtype), f"gd_{np.dtype(dtype).name}")
    ops.ResourceApplyGradientDescent(h, np.array(0.5, dtype), np.array([2.0, -2.0, 8.0], dtype))
    got = ops.ReadVariableOp(h, dtype=dtypes.from_numpy_dtype(dtype)).numpy()
    np.testing.assert_array_equal(got, np.array([0.0, 3.0, 0.0], dtype))


def test_errors_use_tf_codes() -> None:
    h = _var(np.zeros(3, np.float32), "gd_errors")
    with pytest.raises(errors.InvalidArgumentError, match="alpha is not a scalar"):
        ops.ResourceApplyGradientDescent(h, np.ones(2, np.float32), np.ones(3, np.float32))
    with pytest.raises(errors.InvalidArgumentError, match="same shape"):
        ops.ResourceApplyGradientDescent(h, np.float32(1), np.ones(2, np.float32))
    f32 = dtypes.from_numpy_dtype(np.float32)
    empty = ops.VarHandleOp(dtype=f32, shape=[3], shared_name="gd_uninit")
    # A variable never assigned: the error AssignAddVariableOp gives too.
    with pytest.raises(errors.NotFoundError):
        ops.AssignAddVariableOp(empty, np.ones(3, np.float32))
    with pytest.raises(errors.NotFoundError):
        ops.ResourceApplyGradientDescent(empty, np.float32(1), np.ones(3, np.float32))
    with pytest.raises(errors.NotFoundError):  # no kernel for integers, as in TF
        ops.ResourceApplyGradientDescent(_var(np.zeros(2, np.int32), "gd_int"),
                                         np.int32(1), np.ones(2, np.int32))
