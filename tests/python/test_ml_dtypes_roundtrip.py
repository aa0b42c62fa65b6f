"""ml_dtypes arrays (bfloat16 and the float8 types) convert to tensors and
back through every path: constants, eager .numpy(), RawTensor views and
Session.run. float8_e5m2 is the one numpy reports with kind 'f' and an
array-interface string numpy cannot read back ("<f1")."""

from __future__ import annotations

import numpy as np
import pytest

import tfe_py as tf
from tfe_py.tensor import RawTensor

ml_dtypes = pytest.importorskip("ml_dtypes")
NAMES = ["bfloat16", "float8_e4m3fn", "float8_e5m2"]


@pytest.mark.parametrize("name", NAMES)
def test_eager_round_trip(name: str) -> None:
    a = np.array([1.5, -2.0, 0.25], dtype=getattr(ml_dtypes, name))
    t = tf.constant(a)
    assert t.dtype.name == name
    got = t.numpy()
    assert got.dtype == a.dtype
    np.testing.assert_array_equal(got.astype(np.float32), [1.5, -2.0, 0.25])


@pytest.mark.parametrize("name", NAMES)
def test_raw_tensor_view(name: str) -> None:
    a = np.array([1.5, -2.0], dtype=getattr(ml_dtypes, name))
    got = RawTensor.from_numpy(a).numpy()
    assert got.dtype == a.dtype
    np.testing.assert_array_equal(got.astype(np.float32), [1.5, -2.0])


@pytest.mark.parametrize("name", NAMES)
def test_session_run(name: str) -> None:
    a = np.array([[1.5], [-2.0]], dtype=getattr(ml_dtypes, name))
    with tf.Graph() as g:
        x = tf.constant(a)
    s = tf.Session(graph=g)
    try:
        got = s.run(x)
    finally:
        s.close()
    assert got.dtype == a.dtype and got.shape == (2, 1)
    np.testing.assert_array_equal(got.astype(np.float32), a.astype(np.float32))
