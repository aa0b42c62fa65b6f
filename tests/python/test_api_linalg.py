"""tf.linalg, tf.sort/argsort, tf.clip_by_* and tf.bitwise against
TensorFlow 2.21's recorded results (tests/data/api_linalg_tf221.json,
written by tools/record_api_linalg.py).

Every recorded case is an expression over ``tf`` and ``np``; here it runs
with ``import tfe_py as tf`` and must give TF's dtype, shape and values
(float32 to float32 precision, float64 to 1e-12 relative) or raise the
exception class TF raised. Cases whose op tfe does not implement must
raise NotImplementedError naming the op.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import _api

DATA = json.loads(
    (Path(__file__).resolve().parent.parent / "data" / "api_linalg_tf221.json").read_text()
)
CASES: dict[str, Any] = DATA["cases"]

# case -> op tfe lacks; the case must raise NotImplementedError naming it
MISSING_OPS = {
    "eig": "Eig",
    "eigvals": "Eig",
    "lstsq_slow": "MatrixSolveLs",
}

# Cases whose printed form differs from TF's in the last digit (values
# still agree to the dtype's precision): the SVD is computed in double by
# another algorithm than Eigen's (and pinv, matrix 2-norms build on it),
# sqrtm and logm in double (with rounding noise in zero parts), a product
# order in lstsq, complex division, tiny entries of eigh_tridiagonal's
# inverse iteration, the Eig kernel's Hessenberg-QR (not Eigen's
# ComplexEigenSolver) in eigvals, MatrixSolveLs's complete orthogonal
# decomposition in lstsq_slow (TF's float32 answer is the less accurate).
PRINT_MAY_DIFFER = {
    "logm_big",
    "logm_nonnormal",
    "logm_rotation",
    "eigh_tridiagonal_vecs_cluster",
    "eigh_tridiagonal_vecs_f32",
    "sqrtm_spd3_f32",
    "sqrtm_complex64",
    "lstsq_under",
    "norm_mat2",
    "norm_mat2_batch",
    "pinv",
    "pinv_sq",
    "svd_recon",
    "svd_s",
    "svd_s_rect",
    "tridiagonal_solve_complex",
    "eigvals",
    "lstsq_slow",
}


def _present(op: str) -> bool:
    return _api.has_op(op)


def _ns() -> dict[str, Any]:
    ns: dict[str, Any] = {"tf": tf, "np": np}
    exec(DATA["prelude"], ns)
    return ns


def _check(key: str, want: Any, got: Any) -> None:
    if "seq" in want:
        assert isinstance(got, (list, tuple)), f"{key}: expected a sequence, got {type(got)}"
        assert len(got) == len(want["seq"]), key
        for w, g in zip(want["seq"], got, strict=True):
            _check(key, w, g)
        return
    if "py" in want:
        assert got == want["py"], key
        return
    assert isinstance(got, tf.Tensor), f"{key}: expected a tensor, got {type(got)}"
    assert got.dtype.name == want["dtype"], f"{key}: dtype {got.dtype.name} != {want['dtype']}"
    assert list(got.shape) == want["shape"], f"{key}: shape {list(got.shape)} != {want['shape']}"
    arr = np.asarray(got.numpy()).reshape(-1)
    vals = want["values"]
    if want["dtype"] in ("float32", "float64", "float16", "complex64", "complex128"):
        single = want["dtype"] in ("float32", "complex64", "float16")
        rtol = 4e-6 if single else 1e-12
        if want["dtype"].startswith("complex"):
            exp = np.asarray([complex(re, im) for re, im in vals], np.complex128)
        else:
            exp = np.asarray([float(v) for v in vals], np.float64)
        scale = float(np.nanmax(np.abs(exp[np.isfinite(exp)]))) if np.isfinite(exp).any() else 1.0
        np.testing.assert_allclose(
            arr.astype(exp.dtype), exp, rtol=rtol, atol=rtol * max(scale, 1e-30), err_msg=key
        )
        if key not in PRINT_MAY_DIFFER:
            assert str(got) == want["str"], f"{key}:\n{got}\n!=\n{want['str']}"
    else:
        assert arr.tolist() == vals, key
        assert str(got) == want["str"], key


@pytest.mark.parametrize("key", sorted(CASES))
def test_case_matches_tf(key: str) -> None:
    case = CASES[key]
    ns = _ns()
    op = MISSING_OPS.get(key)
    if op is not None and not _present(op):
        with pytest.raises(NotImplementedError, match=op):
            eval(case["code"], ns)
        return
    if "error" in case:
        with pytest.raises(Exception) as info:  # the class is checked below
            eval(case["code"], ns)
        assert type(info.value).__name__ == case["error"], (
            f"{key}: {type(info.value).__name__}: {info.value}"
        )
        return
    got = eval(case["code"], ns)
    _check(key, case["result"], got)


def test_toplevel_aliases() -> None:
    for name in ("matmul", "norm", "einsum", "tensordot", "eye", "eig", "eigvals"):
        assert getattr(tf, name) is getattr(tf.linalg, name)
    assert tf.matrix_square_root is tf.linalg.sqrtm
    for name in ("sort", "argsort", "clip_by_value", "clip_by_norm", "clip_by_global_norm"):
        assert callable(getattr(tf, name))
    assert tf.bitwise.left_shift is not None


def test_qr_and_lu_are_namedtuples() -> None:
    res = tf.linalg.qr(tf.eye(2))
    assert res.q.shape == (2, 2) and res.r.shape == (2, 2)
    lu = tf.linalg.lu(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    assert lu.p.numpy().tolist() == [1, 0]
    sl = tf.linalg.slogdet(tf.constant([[2.0, 0.0], [0.0, 3.0]]))
    assert math.isclose(float(sl.log_abs_determinant), math.log(6.0), rel_tol=1e-6)
    assert float(sl.sign) == 1.0


def test_sort_large_and_descending_agree_with_numpy() -> None:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((4, 50)).astype(np.float32)
    np.testing.assert_array_equal(tf.sort(tf.constant(x)).numpy(), np.sort(x, axis=-1))
    np.testing.assert_array_equal(
        tf.sort(tf.constant(x), axis=0, direction="DESCENDING").numpy(), -np.sort(-x, axis=0)
    )
    ints = rng.integers(-5, 5, size=40).astype(np.int32)
    np.testing.assert_array_equal(
        tf.argsort(tf.constant(ints)).numpy(), np.argsort(ints, kind="stable")
    )


def test_functions_work_inside_tf_function() -> None:
    @tf.function
    def f(x: Any) -> Any:
        return tf.linalg.trace(tf.matmul(x, x, transpose_b=True)), tf.sort(tf.reshape(x, [-1]))

    tr, s = f(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    assert float(tr) == 30.0
    assert s.numpy().tolist() == [1.0, 2.0, 3.0, 4.0]
