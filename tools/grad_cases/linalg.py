"""Gradient cases of csrc/eager/grad_linalg.c: linear algebra, FFTs, random
sampling and image ops.

Decompositions get well-conditioned inputs (distinct eigenvalues and
singular values, SPD matrices for Cholesky, dominant diagonals for the
triangular and tridiagonal solves). Cholesky's gradient is TF's symmetrized
one, not the derivative of the lower-triangle-reading kernel, so its cases
skip the central differences, as do ResizeBilinear's (its output is float32
whatever the input, too coarse for float64 differences). The singular
vectors of non-square and complex matrices are defined up to sign/phase
only, so those Svd cases live in tests/python/test_grad_linalg.py, which
compares through invariant losses.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from _common import Rng, c, c64, c128, case, d, f32

R = Rng("linalg")
arr = R.arr
carr = R.carr


def well(n: int, batch: tuple[int, ...] = ()) -> np.ndarray:
    """Matrices 2I + a small random part (condition numbers near 1)."""
    return 2.0 * np.eye(n) + 0.4 * arr((*batch, n, n))


def spd(n: int, batch: tuple[int, ...] = ()) -> np.ndarray:
    b = arr((*batch, n, n))
    return b @ np.swapaxes(b, -1, -2) + n * np.eye(n)


def hpd(n: int) -> np.ndarray:
    b = carr((n, n))
    return b @ b.conj().T + n * np.eye(n)


def sym(n: int, batch: tuple[int, ...] = ()) -> np.ndarray:
    """Symmetric, eigenvalues well apart."""
    q, _ = np.linalg.qr(arr((*batch, n, n)))
    e = np.linspace(-2.0, 2.5, n)
    return q @ (e[..., :, None] * np.swapaxes(q, -1, -2))


def herm(n: int) -> np.ndarray:
    q, _ = np.linalg.qr(carr((n, n)))
    e = np.linspace(-1.5, 2.0, n)
    return q @ np.diag(e) @ q.conj().T


def lower(n: int, batch: tuple[int, ...] = ()) -> np.ndarray:
    return np.tril(arr((*batch, n, n), -0.5, 0.5)) + 2.0 * np.eye(n)


def upper(n: int) -> np.ndarray:
    return np.triu(arr((n, n), -0.5, 0.5)) + 2.0 * np.eye(n)


def tri_diags(m: int, batch: tuple[int, ...] = ()) -> np.ndarray:
    """[..., 3, m] diagonals of a diagonally dominant tridiagonal matrix."""
    dg = arr((*batch, 3, m), -0.5, 0.5)
    dg[..., 1, :] += 2.5
    return dg


SVD_SAME_SIGNS = np.random.default_rng(0).uniform(-1.0, 1.0, (3, 3))
C128 = {"Tcomplex": "complex128"}
F64 = {"Treal": "float64"}
RGB = R.gen.permutation(np.linspace(0.05, 0.95, 24)).reshape(2, 4, 3)

CASES: list[dict[str, Any]] = [
    # ---- linear algebra ----
    case("matrix_inverse", "MatrixInverse", {"input": d(well(3))}),
    case("matrix_inverse_batch_adjoint", "MatrixInverse", {"input": d(well(3, (2,)))},
         {"adjoint": True}),
    case("matrix_inverse_f32", "MatrixInverse", {"input": f32(well(2))}),
    case("matrix_inverse_c128", "MatrixInverse", {"input": c128(well(2) + 0.3j * arr((2, 2)))}),
    case("matrix_determinant", "MatrixDeterminant", {"input": d(well(3))}),
    case("matrix_determinant_batch", "MatrixDeterminant", {"input": d(well(2, (3,)))}),
    case("log_matrix_determinant", "LogMatrixDeterminant", {"input": d(well(3, (2,)))},
         outputs=[1]),
    case("log_matrix_determinant_neg", "LogMatrixDeterminant",
         {"input": d(np.diag([-1.0, 1.0, 1.0]) @ well(3))}, outputs=[0, 1]),
    case("cholesky", "Cholesky", {"input": d(spd(3))}, numeric=False),
    case("cholesky_batch", "Cholesky", {"input": d(spd(4, (2,)))}, numeric=False),
    case("cholesky_c128", "Cholesky", {"input": c128(hpd(3))}),
    case("matrix_solve", "MatrixSolve", {"matrix": d(well(3)), "rhs": d(arr((3, 2)))}),
    case("matrix_solve_adjoint_batch", "MatrixSolve",
         {"matrix": d(well(3, (2,))), "rhs": d(arr((2, 3, 1)))}, {"adjoint": True}),
    case("matrix_solve_c128", "MatrixSolve",
         {"matrix": c128(well(2) + 0.2j * arr((2, 2))), "rhs": c128(carr((2, 2)))}),
    case("triangular_solve_lower", "MatrixTriangularSolve",
         {"matrix": d(lower(3)), "rhs": d(arr((3, 2)))}),
    case("triangular_solve_upper_adjoint", "MatrixTriangularSolve",
         {"matrix": d(upper(3)), "rhs": d(arr((3, 2)))}, {"lower": False, "adjoint": True}),
    case("triangular_solve_broadcast", "MatrixTriangularSolve",
         {"matrix": d(lower(3)), "rhs": d(arr((2, 3, 2)))}),
    case("triangular_solve_broadcast_matrix", "MatrixTriangularSolve",
         {"matrix": d(lower(2, (2, 1))), "rhs": d(arr((3, 2, 1)))}, {"adjoint": True}),
    case("banded_solve_lower", "BandedTriangularSolve",
         {"matrix": d(np.vstack([2.0 + arr((1, 4), 0, 0.5), arr((1, 4), -0.5, 0.5)])),
          "rhs": d(arr((4, 2)))}),
    case("banded_solve_upper_adjoint", "BandedTriangularSolve",
         {"matrix": d(np.vstack([arr((2, 4), -0.5, 0.5), 2.0 + arr((1, 4), 0, 0.5)])),
          "rhs": d(arr((2, 4, 1)))}, {"lower": False, "adjoint": True}),
    case("matrix_square_root", "MatrixSquareRoot", {"input": d(well(3))}),
    case("matrix_square_root_batch", "MatrixSquareRoot", {"input": d(spd(2, (2,)))}),
    case("qr_square", "Qr", {"input": d(well(3))}, outputs=[0, 1]),
    case("qr_deep", "Qr", {"input": d(arr((4, 3)))}, outputs=[0, 1]),
    case("qr_wide_batch", "Qr", {"input": d(arr((2, 3, 5)))}, outputs=[0, 1]),
    case("qr_r_only", "Qr", {"input": d(arr((3, 3)))}, outputs=[1]),
    case("qr_c128", "Qr", {"input": c128(carr((3, 3)))}, outputs=[0, 1]),
    case("qr_full_square", "Qr", {"input": d(arr((3, 3)))}, {"full_matrices": True},
         outputs=[0, 1]),
    case("eigh", "SelfAdjointEigV2", {"input": d(sym(3))}, outputs=[0, 1]),
    case("eigh_batch_values", "SelfAdjointEigV2", {"input": d(sym(4, (2,)))}, outputs=[0]),
    case("eigh_c128", "SelfAdjointEigV2", {"input": c128(herm(3))}, outputs=[0, 1]),
    # a matrix whose singular vectors tfe and TF give with the same signs (the
    # others, and compute_uv=False whose u/v TF leaves uninitialized, are in
    # tests/python/test_grad_linalg.py)
    case("svd_square", "Svd", {"input": d(SVD_SAME_SIGNS)}, outputs=[0, 1, 2]),
    case("tridiagonal_matmul", "TridiagonalMatMul",
         {"superdiag": d(arr((1, 4))), "maindiag": d(arr((1, 4))), "subdiag": d(arr((1, 4))),
          "rhs": d(arr((4, 3)))}),
    case("tridiagonal_matmul_batch", "TridiagonalMatMul",
         {"superdiag": d(arr((2, 1, 3))), "maindiag": d(arr((2, 1, 3))),
          "subdiag": d(arr((2, 1, 3))), "rhs": d(arr((2, 3, 2)))}),
    case("tridiagonal_matmul_c128", "TridiagonalMatMul",
         {"superdiag": c128(carr((1, 3))), "maindiag": c128(carr((1, 3))),
          "subdiag": c128(carr((1, 3))), "rhs": c128(carr((3, 2)))}),
    case("tridiagonal_solve", "TridiagonalSolve",
         {"diagonals": d(tri_diags(4)), "rhs": d(arr((4, 2)))}),
    case("tridiagonal_solve_batch_nopivot", "TridiagonalSolve",
         {"diagonals": d(tri_diags(3, (2,))), "rhs": d(arr((2, 3, 1)))},
         {"partial_pivoting": False}),
    case("isotonic_regression", "IsotonicRegression",
         {"input": d(R.distinct((2, 6)))}, {"output_dtype": "float64"}),
    case("isotonic_regression_f32", "IsotonicRegression",
         {"input": f32(R.distinct((3, 4)))}),
    # single precision
    case("cholesky_f32", "Cholesky", {"input": f32(spd(3))}),
    case("matrix_solve_f32", "MatrixSolve", {"matrix": f32(well(3)), "rhs": f32(arr((3, 2)))}),
    case("triangular_solve_f32", "MatrixTriangularSolve",
         {"matrix": f32(lower(3)), "rhs": f32(arr((3, 1)))}),
    case("qr_f32", "Qr", {"input": f32(well(3))}, outputs=[0, 1]),
    case("eigh_f32_values", "SelfAdjointEigV2", {"input": f32(sym(3))}),
    case("matrix_determinant_f32", "MatrixDeterminant", {"input": f32(well(3))}),
    case("tridiagonal_solve_f32", "TridiagonalSolve",
         {"diagonals": f32(tri_diags(4)), "rhs": f32(arr((4, 1)))}),
    # complex
    case("matrix_determinant_c128", "MatrixDeterminant",
         {"input": c128(well(3) + 0.3j * arr((3, 3)))}),
    case("log_matrix_determinant_c128", "LogMatrixDeterminant",
         {"input": c128(well(2) + 0.3j * arr((2, 2)))}, outputs=[1]),
    case("triangular_solve_c128", "MatrixTriangularSolve",
         {"matrix": c128(lower(3) + 0.2j * np.tril(arr((3, 3)))), "rhs": c128(carr((3, 2)))}),
    case("banded_solve_c128", "BandedTriangularSolve",
         {"matrix": c128(np.vstack([2.0 + arr((1, 3), 0, 0.5), arr((1, 3), -0.5, 0.5)])
                         + 0.2j * arr((2, 3))), "rhs": c128(carr((3, 1)))}),
    case("matrix_square_root_c128", "MatrixSquareRoot",
         {"input": c128(well(2) + 0.2j * arr((2, 2)))}),
    case("tridiagonal_solve_c128", "TridiagonalSolve",
         {"diagonals": c128(tri_diags(3) + 0.2j * arr((3, 3))), "rhs": c128(carr((3, 2)))}),
    case("matrix_inverse_c64", "MatrixInverse", {"input": c64(well(2) + 0.3j * arr((2, 2)))}),
    # ---- FFT ----
    case("fft", "FFT", {"input": c128(carr((2, 4)))}),
    case("fft_c64", "FFT", {"input": c64(carr((5,)))}),
    case("ifft", "IFFT", {"input": c128(carr((2, 5)))}),
    case("fft2d", "FFT2D", {"input": c128(carr((2, 3, 4)))}),
    case("ifft2d", "IFFT2D", {"input": c128(carr((3, 4)))}),
    case("fft3d", "FFT3D", {"input": c128(carr((2, 2, 3, 2)))}),
    case("ifft3d", "IFFT3D", {"input": c128(carr((2, 3, 2)))}),
    case("ifft3d_c64", "IFFT3D", {"input": c64(carr((2, 2, 2)))}),
    case("rfft_even", "RFFT", {"input": d(arr((2, 6))), "fft_length": c([6])}, C128),
    case("rfft_odd", "RFFT", {"input": d(arr((5,))), "fft_length": c([5])}, C128),
    case("rfft_f32", "RFFT", {"input": f32(arr((2, 4))), "fft_length": c([4])}),
    case("rfft2d_even", "RFFT2D", {"input": d(arr((2, 4, 6))), "fft_length": c([4, 6])}, C128),
    case("rfft2d_odd", "RFFT2D", {"input": d(arr((3, 5))), "fft_length": c([3, 5])}, C128),
    case("irfft_even", "IRFFT", {"input": c128(carr((2, 4))), "fft_length": c([6])}, F64),
    case("irfft_odd", "IRFFT", {"input": c128(carr((4,))), "fft_length": c([7])}, F64),
    case("irfft2d_even", "IRFFT2D", {"input": c128(carr((2, 4, 4))), "fft_length": c([4, 6])},
         F64),
    case("irfft_c64", "IRFFT", {"input": c64(carr((3,))), "fft_length": c([4])}),
    case("irfft2d_odd", "IRFFT2D", {"input": c128(carr((3, 3))), "fft_length": c([3, 5])}, F64),
    # ---- random sampling (TF's implicit gradients; the sampler is not
    # differentiable pathwise, so no central differences) ----
    case("stateless_truncated_normal", "StatelessParameterizedTruncatedNormal",
         {"shape": c([3, 2]), "seed": c([1, 2], "int64"), "means": d([0.1, -0.2]),
          "stddevs": d([1.0, 0.5]), "minvals": d([-1.0, -0.5]), "maxvals": d([1.5, 0.7])},
         numeric=False),
    case("stateless_truncated_normal_broadcast", "StatelessParameterizedTruncatedNormal",
         {"shape": c([2, 2, 3], "int64"), "seed": c([5, 9], "int64"), "means": d(0.3),
          "stddevs": d([[0.8, 1.2, 1.0]]), "minvals": d([[-1.0], [-0.3]]), "maxvals": d(2.0)},
         numeric=False),
    # RandomGamma is stateful (each run draws new samples, so the table's
    # repeated runs cannot agree with TF's one): tests/python/
    # test_image_grad_kernels.py checks its gradient against RandomGammaGrad
    case("stateless_gamma_v2", "StatelessRandomGammaV2",
         {"shape": c([5, 1, 3]), "seed": c([7, 8], "int64"), "alpha": d([[0.4, 1.5, 6.0]])},
         numeric=False),
    case("stateless_gamma_v3", "StatelessRandomGammaV3",
         {"shape": c([2, 3], "int64"), "key": c([9], "uint64"), "counter": c([0, 0], "uint64"),
          "alg": c(1), "alpha": d([0.8, 2.0, 3.5])}, numeric=False),
    # ---- image ----
    case("resize_bilinear", "ResizeBilinear", {"images": d(arr((1, 3, 4, 2))), "size": c([5, 6])},
         numeric=False),
    case("resize_bilinear_align", "ResizeBilinear",
         {"images": d(arr((2, 3, 3, 1))), "size": c([4, 5])}, {"align_corners": True},
         numeric=False),
    case("resize_bilinear_half_pixel", "ResizeBilinear",
         {"images": d(arr((1, 4, 3, 1))), "size": c([2, 5])}, {"half_pixel_centers": True},
         numeric=False),
    case("resize_nearest", "ResizeNearestNeighbor",
         {"images": d(arr((1, 3, 4, 2))), "size": c([5, 7])}),
    case("resize_nearest_half_pixel_down", "ResizeNearestNeighbor",
         {"images": d(arr((2, 4, 4, 1))), "size": c([3, 2])}, {"half_pixel_centers": True}),
    case("resize_nearest_align", "ResizeNearestNeighbor",
         {"images": d(arr((1, 3, 3, 1))), "size": c([5, 4])}, {"align_corners": True}),
    # ResizeBicubic and CropAndResize give float32 whatever the image dtype:
    # too coarse for float64 differences
    case("resize_bicubic", "ResizeBicubic", {"images": d(arr((1, 3, 4, 2))), "size": c([5, 6])},
         numeric=False),
    case("resize_bicubic_half_pixel_down", "ResizeBicubic",
         {"images": d(arr((2, 5, 6, 1))), "size": c([3, 4])}, {"half_pixel_centers": True},
         numeric=False),
    case("resize_bicubic_align_f32", "ResizeBicubic",
         {"images": f32(arr((1, 3, 3, 1))), "size": c([4, 5])}, {"align_corners": True}),
    case("crop_and_resize", "CropAndResize",
         {"image": d(arr((2, 5, 6, 2))),
          "boxes": f32([[0.13, 0.21, 0.81, 0.93], [0.31, 0.17, 0.64, 0.72],
                        [0.5, -0.2, 0.2, 0.7]]),
          "box_ind": c([0, 1, 1]), "crop_size": c([3, 4])}, numeric=False),
    case("crop_and_resize_nearest_one_pixel", "CropAndResize",
         {"image": f32(arr((1, 4, 4, 1))), "boxes": f32([[0.1, 0.2, 0.7, 0.6]]),
          "box_ind": c([0]), "crop_size": c([1, 1])}, {"method": "nearest"}),
    case("crop_and_resize_int_image", "CropAndResize",
         {"image": d(R.ints((1, 4, 5, 1), 0, 50), "int32"), "boxes": f32([[0.1, 0.2, 0.7, 0.6]]),
          "box_ind": c([0]), "crop_size": c([2, 3])}),
    case("scale_and_translate_up", "ScaleAndTranslate",
         {"images": f32(arr((1, 3, 4, 2))), "size": c([6, 7]), "scale": c([2.0, 1.75], "float32"),
          "translation": c([0.0, 0.3], "float32")}),
    case("scale_and_translate_down_keyscubic", "ScaleAndTranslate",
         {"images": f32(arr((2, 7, 5, 1))), "size": c([3, 2]), "scale": c([0.4, 0.45], "float32"),
          "translation": c([-0.2, 0.1], "float32")}, {"kernel_type": "keyscubic"}),
    case("scale_and_translate_no_antialias", "ScaleAndTranslate",
         {"images": f32(arr((1, 8, 5, 1))), "size": c([3, 2]),
          "scale": c([0.35, 0.4], "float32"), "translation": c([0.5, -0.3], "float32")},
         {"kernel_type": "triangle", "antialias": False}),
    case("crop_and_resize_f16", "CropAndResize",
         {"image": d(arr((1, 4, 5, 1)), "float16"), "boxes": f32([[0.13, 0.21, 0.81, 0.93]]),
          "box_ind": c([0]), "crop_size": c([2, 3])}),
    case("resize_bicubic_f16_no_image_grad", "ResizeBicubic",
         {"images": d(arr((1, 3, 3, 1)), "float16"), "size": c([4, 4])}),
    case("rgb_to_hsv", "RGBToHSV", {"images": d(RGB)}),
    case("rgb_to_hsv_f32", "RGBToHSV", {"images": f32(RGB[0])}),
    case("extract_image_patches_valid", "ExtractImagePatches",
         {"images": d(arr((1, 4, 5, 2)))},
         {"ksizes": [1, 2, 2, 1], "strides": [1, 2, 1, 1], "rates": [1, 1, 1, 1],
          "padding": "VALID"}),
    case("extract_image_patches_same_rate", "ExtractImagePatches",
         {"images": d(arr((2, 5, 5, 1)))},
         {"ksizes": [1, 2, 3, 1], "strides": [1, 2, 2, 1], "rates": [1, 2, 1, 1],
          "padding": "SAME"}),
    case("extract_volume_patches_valid", "ExtractVolumePatches",
         {"input": d(arr((1, 3, 4, 4, 1)))},
         {"ksizes": [1, 2, 2, 2, 1], "strides": [1, 1, 2, 2, 1], "padding": "VALID"}),
    case("extract_volume_patches_same", "ExtractVolumePatches",
         {"input": d(arr((2, 2, 3, 3, 2)))},
         {"ksizes": [1, 1, 2, 2, 1], "strides": [1, 1, 2, 1, 1], "padding": "SAME"}),
]
