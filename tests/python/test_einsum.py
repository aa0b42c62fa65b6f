"""Einsum through tfe_py.ops, compared with numpy.einsum."""

from __future__ import annotations

import numpy as np
import pytest

from tfe_py import errors, ops
from tfe_py.context import default_context
from tfe_py.eager import constant


@pytest.fixture(autouse=True)
def _default_exists() -> None:
    default_context()


CASES: list[tuple[str, list[tuple[int, ...]]]] = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bij,bkj->kbi", [(2, 3, 4), (2, 5, 4)]),
    ("ij->ji", [(3, 4)]),
    ("ij->i", [(3, 4)]),
    ("ij->", [(3, 4)]),
    ("i,j->ij", [(3,), (4,)]),
    ("i,i->", [(6,)] * 2),
    ("ii->i", [(4, 4)]),
    ("ij,jk->k", [(3, 4), (4, 2)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (3, 4, 2)]),
    ("i...,i->...", [(3, 2, 2), (3,)]),
]


@pytest.mark.parametrize(("equation", "shapes"), CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.complex128])
def test_einsum_matches_numpy(equation: str, shapes: list[tuple[int, ...]], dtype: type) -> None:
    rng = np.random.default_rng(7)
    arrays = [rng.integers(-4, 5, size=s).astype(dtype) for s in shapes]
    if np.issubdtype(dtype, np.complexfloating):
        arrays = [a + 1j * rng.integers(-4, 5, size=a.shape) for a in arrays]
        arrays = [a.astype(dtype) for a in arrays]
    got = ops.Einsum(inputs=[constant(a) for a in arrays], equation=equation).numpy()
    want = np.einsum(equation, *arrays)
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_einsum_half_rounds_like_float_then_narrows() -> None:
    a = np.array([[1.5, 2.0], [3.0, -1.0]], dtype=np.float16)
    b = np.array([[2.0, 0.5], [1.0, 4.0]], dtype=np.float16)
    got = ops.Einsum(inputs=[constant(a), constant(b)], equation="ij,jk->ik").numpy()
    assert got.dtype == np.float16
    want = (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(got, want)


def test_einsum_errors() -> None:
    a = constant(np.ones((2, 3), np.float32))
    b = constant(np.ones((4, 2), np.float32))
    with pytest.raises(errors.InvalidArgumentError, match="Expected dimension 3 at axis 0"):
        ops.Einsum(inputs=[a, b], equation="ij,jk->ik")
    with pytest.raises(errors.InvalidArgumentError, match="exactly one '->'"):
        ops.Einsum(inputs=[a, a], equation="ij,jk")
