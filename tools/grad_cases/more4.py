"""Gradient cases of csrc/eager/grad_more4.c: Eig, MatrixSolveLs,
FresnelCos/FresnelSin, QuantizeAndDequantizeV2/V3/V4 and (in
tests/python/test_grad_more4.py) RefIdentity and QuantizeAndDequantizeV4Grad.

Eig's matrices have well separated eigenvalues. Its outputs are complex, so
the loss is complex; the central differences take its real part. Its
eigenvectors are defined up to a phase (a sign when real) only, which
tfe's kernel need not pick as TF's does: the cases here put only the
eigenvalues in the loss and compare only them with TF's forward values
(without compute_v TF's second output is uninitialized memory).
tests/python/test_grad_more4.py checks the eigenvector gradient through
phase-invariant losses, and the complex inputs through complex central
differences.

The quantize-dequantize gradients are TF's straight-through estimates,
not derivatives of the (piecewise constant) forward op: no central
differences.
"""

from __future__ import annotations

import numpy as np
from _common import Rng, c, c64, c128, case, d, f32

R = Rng("more4")
arr = R.arr
carr = R.carr


def real_spectrum(n: int, batch: tuple[int, ...] = ()) -> np.ndarray:
    """A non-symmetric real matrix with real eigenvalues well apart."""
    q = 1.5 * np.eye(n) + 0.4 * arr((*batch, n, n))
    e = np.linspace(-1.5, 2.0, n)
    return q @ (e[..., :, None] * np.linalg.inv(q))


def rotation_spectrum() -> np.ndarray:
    """A real 3x3 matrix with a complex-conjugate eigenvalue pair."""
    q = 1.5 * np.eye(3) + 0.4 * arr((3, 3))
    blk = np.array([[0.5, -1.2, 0.0], [1.2, 0.5, 0.0], [0.0, 0.0, -1.0]])
    return q @ blk @ np.linalg.inv(q)


def cplx_spectrum(n: int) -> np.ndarray:
    q = 1.5 * np.eye(n) + 0.4 * carr((n, n))
    e = np.linspace(-1.5, 2.0, n) + 1j * np.linspace(0.5, -0.8, n)
    return q @ np.diag(e) @ np.linalg.inv(q)


EIG_REAL = real_spectrum(3)
EIG_ROT = rotation_spectrum()
EIG_C = cplx_spectrum(3)
C128 = {"Tout": "complex128"}
C64 = {"Tout": "complex64"}

CASES = [
    # ---- Eig (eigenvalues in the loss; the eigenvectors: test_grad_more4.py) ----
    case("eig_real_values", "Eig", {"input": d(EIG_REAL)}, C128, outputs=[0], forward=[0]),
    case("eig_real_no_v", "Eig", {"input": d(EIG_REAL)}, {**C128, "compute_v": False},
         forward=[0]),
    case("eig_batch_values", "Eig", {"input": d(real_spectrum(4, (2,)))}, C128, outputs=[0],
         forward=[0]),
    case("eig_rot_values", "Eig", {"input": d(EIG_ROT)}, C128, outputs=[0], forward=[0]),
    case("eig_rot_no_v", "Eig", {"input": d(EIG_ROT)}, {**C128, "compute_v": False},
         forward=[0]),
    case("eig_c128_values", "Eig", {"input": c128(EIG_C)}, C128, outputs=[0], forward=[0]),
    case("eig_c128_no_v", "Eig", {"input": c128(EIG_C)}, {**C128, "compute_v": False},
         forward=[0]),
    case("eig_f32_values", "Eig", {"input": f32(EIG_REAL)}, C64, outputs=[0], forward=[0],
         rtol=2e-4, atol=2e-4),
    case("eig_c64_values", "Eig", {"input": c64(EIG_C)}, C64, outputs=[0], forward=[0],
         rtol=2e-4, atol=2e-4),
    # ---- MatrixSolveLs (fast path) ----
    case("solve_ls_over", "MatrixSolveLs",
         {"matrix": d(arr((4, 2))), "rhs": d(arr((4, 3))), "l2_regularizer": c(0.0, "float64")}),
    case("solve_ls_over_l2", "MatrixSolveLs",
         {"matrix": d(arr((4, 2))), "rhs": d(arr((4, 3))), "l2_regularizer": c(0.5, "float64")}),
    case("solve_ls_square", "MatrixSolveLs",
         {"matrix": d(2.0 * np.eye(3) + 0.4 * arr((3, 3))), "rhs": d(arr((3, 2))),
          "l2_regularizer": c(0.1, "float64")}),
    case("solve_ls_under", "MatrixSolveLs",
         {"matrix": d(arr((2, 4))), "rhs": d(arr((2, 3))), "l2_regularizer": c(0.0, "float64")}),
    case("solve_ls_under_l2", "MatrixSolveLs",
         {"matrix": d(arr((2, 4))), "rhs": d(arr((2, 1))), "l2_regularizer": c(0.7, "float64")}),
    case("solve_ls_batch_over", "MatrixSolveLs",
         {"matrix": d(arr((2, 5, 3))), "rhs": d(arr((2, 5, 2))),
          "l2_regularizer": c(0.2, "float64")}),
    case("solve_ls_batch_under", "MatrixSolveLs",
         {"matrix": d(arr((2, 2, 3))), "rhs": d(arr((2, 2, 2))),
          "l2_regularizer": c(0.0, "float64")}),
    case("solve_ls_f32", "MatrixSolveLs",
         {"matrix": f32(arr((4, 3))), "rhs": f32(arr((4, 2))),
          "l2_regularizer": c(0.3, "float64")}, rtol=1e-4, atol=1e-4),
    case("solve_ls_c128_over", "MatrixSolveLs",
         {"matrix": c128(carr((4, 2))), "rhs": c128(carr((4, 2))),
          "l2_regularizer": c(0.4, "float64")}),
    case("solve_ls_c128_under", "MatrixSolveLs",
         {"matrix": c128(carr((2, 3))), "rhs": c128(carr((2, 2))),
          "l2_regularizer": c(0.0, "float64")}),
    case("solve_ls_c64", "MatrixSolveLs",
         {"matrix": c64(carr((3, 2))), "rhs": c64(carr((3, 1))),
          "l2_regularizer": c(0.1, "float64")}, rtol=1e-4, atol=1e-4),
    # ---- Fresnel integrals ----
    case("fresnel_cos", "FresnelCos", {"x": d(arr((2, 3), -2.5, 2.5))}),
    case("fresnel_sin", "FresnelSin", {"x": d(arr((2, 3), -2.5, 2.5))}),
    case("fresnel_cos_large", "FresnelCos", {"x": d([0.0, 3.7, -5.2, 9.1])}),
    case("fresnel_sin_large", "FresnelSin", {"x": d([0.0, 3.7, -5.2, 9.1])}),
    case("fresnel_cos_f32", "FresnelCos", {"x": f32(arr((4,)))}),
    case("fresnel_sin_f32", "FresnelSin", {"x": f32(arr((4,)))}),
    # ---- quantize-dequantize (straight-through) ----
    case("qdq_v2", "QuantizeAndDequantizeV2",
         {"input": d(arr((2, 3))), "input_min": d(-1.0), "input_max": d(1.0)},
         {"range_given": True}, numeric=False),
    case("qdq_v2_computed_range", "QuantizeAndDequantizeV2",
         {"input": d(arr((2, 3))), "input_min": d(0.0), "input_max": d(0.0)},
         {"num_bits": 4, "round_mode": "HALF_UP"}, numeric=False),
    case("qdq_v2_narrow_f32", "QuantizeAndDequantizeV2",
         {"input": f32(arr((2, 3))), "input_min": f32(-1.0), "input_max": f32(0.5)},
         {"range_given": True, "narrow_range": True}, numeric=False),
    case("qdq_v3", "QuantizeAndDequantizeV3",
         {"input": d(arr((2, 3))), "input_min": d(-1.0), "input_max": d(1.0),
          "num_bits": c(6)}, {"range_given": True}, numeric=False),
    case("qdq_v3_unsigned", "QuantizeAndDequantizeV3",
         {"input": d(arr((4,), 0.0, 2.0)), "input_min": d(0.0), "input_max": d(1.5),
          "num_bits": c(8)}, {"range_given": True, "signed_input": False}, numeric=False),
    case("qdq_v4", "QuantizeAndDequantizeV4",
         {"input": d(arr((2, 3))), "input_min": d(-1.0), "input_max": d(1.0)},
         {"range_given": True}, numeric=False),
    case("qdq_v4_computed_range", "QuantizeAndDequantizeV4",
         {"input": d(arr((3, 2))), "input_min": d(-0.5), "input_max": d(0.5)},
         {"num_bits": 5}, numeric=False),
    case("qdq_v4_f32", "QuantizeAndDequantizeV4",
         {"input": f32(arr((5,))), "input_min": f32(-0.8), "input_max": f32(0.9)},
         {"range_given": True, "num_bits": 4}, numeric=False),
]
