# ruff: noqa: E501 - the cases are one-line expressions
"""Records TensorFlow 2.21's results for the tf.linalg / sort / clip /
bitwise cases of tests/python/test_api_linalg.py.

Each case is a Python expression over ``tf`` and ``np``; this script
evaluates it with real TensorFlow and writes the expression and its
encoded result (dtype, shape, values and printed form of every tensor, or
the exception class) to tests/data/api_linalg_tf221.json. The test
evaluates the same expressions with ``import tfe_py as tf`` and compares,
so TensorFlow is never needed to run the tests.

    /work/tfvenv/bin/python tools/record_api_linalg.py
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "api_linalg_tf221.json"

# Shared inputs, defined in both runs before the cases are evaluated.
PRELUDE = """
A = tf.constant([[4.0, 7.0], [2.0, 6.0]])
S = tf.constant([[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]])
S64 = tf.constant([[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]], dtype=tf.float64)
M = tf.reshape(tf.range(1.0, 13.0), [3, 4])
B = tf.reshape(tf.range(24.0), [2, 3, 4])
C = tf.constant([[1 + 2j, 3 - 1j], [0.5j, 2 + 0j]], dtype=tf.complex64)
G = tf.constant([[2.0, -1.0, 0.5], [1.0, 3.0, -2.0], [0.0, 1.5, 4.0]])
T = tf.constant([[2.0, 0.0, 0.0], [1.0, 3.0, 0.0], [-1.0, 0.5, 4.0]])
R = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]])
V = tf.constant([3.0, 1.0, 2.0, 5.0, 4.0])
"""

CASES: list[tuple[str, str]] = [
    # matmul and friends
    ("matmul_basic", "tf.linalg.matmul(M, tf.transpose(M))"),
    ("matmul_ta", "tf.matmul(M, M, transpose_a=True)"),
    ("matmul_tb", "tf.matmul(M, M, transpose_b=True)"),
    ("matmul_ta_tb", "tf.matmul(R, M[:, :3], transpose_a=True, transpose_b=True)"),
    ("matmul_batch", "tf.matmul(B, tf.transpose(B, [0, 2, 1]))"),
    ("matmul_batch_bcast", "tf.matmul(B, M[:, :4], transpose_b=True)"),
    ("matmul_batch_bcast2", "tf.matmul(tf.ones([2, 1, 2, 3]), tf.ones([3, 3, 2]))"),
    ("matmul_int", "tf.matmul(tf.constant([[1, 2], [3, 4]]), tf.constant([[5, 6], [7, 8]]))"),
    (
        "matmul_int64",
        "tf.matmul(tf.constant([[1, 2]], tf.int64), tf.constant([[3], [4]], tf.int64))",
    ),
    ("matmul_complex", "tf.matmul(C, C)"),
    ("matmul_adj_a", "tf.matmul(C, C, adjoint_a=True)"),
    ("matmul_adj_b", "tf.matmul(C, C, adjoint_b=True)"),
    ("matmul_batch_ta", "tf.matmul(B, B, transpose_a=True)"),
    ("matmul_list", "tf.matmul([[1.0, 2.0]], [[3.0], [4.0]])"),
    ("matmul_sparse_hint", "tf.matmul(A, A, a_is_sparse=True, b_is_sparse=True)"),
    ("matmul_err_shape", "tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))"),
    ("matmul_err_batch", "tf.matmul(tf.ones([2, 2, 3]), tf.ones([3, 3, 2]))"),
    ("matmul_err_both", "tf.matmul(A, A, transpose_a=True, adjoint_a=True)"),
    ("matmul_err_dtype", "tf.matmul(A, tf.constant([[1, 2], [3, 4]]))"),
    ("matvec", "tf.linalg.matvec(M, tf.constant([1.0, -1.0, 2.0, 0.5]))"),
    ("matvec_ta", "tf.linalg.matvec(M, tf.constant([1.0, -1.0, 2.0]), transpose_a=True)"),
    ("matvec_batch", "tf.linalg.matvec(B, tf.ones([2, 4]))"),
    (
        "cross",
        "tf.linalg.cross(tf.constant([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]]), tf.constant([[4.0, 5.0, 6.0], [0.0, 0.0, 1.0]]))",
    ),
    ("cross_int", "tf.linalg.cross(tf.constant([1, 0, 0]), tf.constant([0, 1, 0]))"),
    ("cross_err", "tf.linalg.cross(tf.ones([2]), tf.ones([2]))"),
    # tensordot / einsum
    ("tensordot_1", "tf.tensordot(M, tf.transpose(M), 1)"),
    ("tensordot_0", "tf.tensordot(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0, 5.0]), 0)"),
    ("tensordot_pairs", "tf.tensordot(B, M, [[2], [1]])"),
    ("tensordot_2", "tf.tensordot(B, tf.ones([3, 4]), axes=2)"),
    ("tensordot_int_pair", "tf.tensordot(B, tf.ones([2, 5]), axes=(0, 0))"),
    ("tensordot_neg", "tf.tensordot(B, tf.ones([4, 2]), [[-1], [0]])"),
    ("tensordot_err", "tf.tensordot(M, M, axes=[[0], [0, 1]])"),
    ("tensordot_err_neg", "tf.tensordot(M, M, axes=-1)"),
    ("einsum_matmul", "tf.einsum('ij,jk->ik', M, tf.transpose(M))"),
    ("einsum_implicit", "tf.einsum('ij,jk', M, tf.transpose(M))"),
    ("einsum_trace", "tf.einsum('ii', S)"),
    ("einsum_diag", "tf.einsum('ii->i', S)"),
    ("einsum_outer", "tf.einsum('i,j->ij', tf.constant([1, 2]), tf.constant([3, 4, 5]))"),
    ("einsum_batch", "tf.einsum('bij,bkj->bik', B, B)"),
    ("einsum_ellipsis", "tf.einsum('...ij,...jk->...ik', B, tf.ones([4, 2]))"),
    ("einsum_sum", "tf.einsum('ijk->', B)"),
    ("einsum_spaces", "tf.einsum('i j , j k -> i k', M, tf.transpose(M))"),
    ("einsum_three", "tf.einsum('ij,jk,kl->il', M, tf.transpose(M), S)"),
    (
        "einsum_three_int",
        "tf.einsum('i,i,i->', tf.constant([1, 2, 3]), tf.constant([4, 5, 6]), tf.constant([7, 8, 9]))",
    ),
    ("einsum_err_shape", "tf.einsum('ij,jk->ik', tf.ones([2, 3]), tf.ones([4, 2]))"),
    ("einsum_err_count", "tf.einsum('ij,jk->ik', M)"),
    ("einsum_err_label", "tf.einsum('ij->ik', M)"),
    ("einsum_err_format", "tf.einsum('ij->i.j', M)"),
    ("einsum_err_kw", "tf.einsum('ij->ji', M, foo=1)"),
    # transposes, diagonals
    ("matrix_transpose", "tf.linalg.matrix_transpose(B)"),
    ("matrix_transpose_conj", "tf.linalg.matrix_transpose(C, conjugate=True)"),
    ("matrix_transpose_err", "tf.linalg.matrix_transpose(tf.ones([3]))"),
    ("adjoint", "tf.linalg.adjoint(C)"),
    ("adjoint_real", "tf.linalg.adjoint(M)"),
    ("band_part", "tf.linalg.band_part(M, 1, 0)"),
    ("band_part_upper", "tf.linalg.band_part(M, 0, -1)"),
    ("band_part_batch", "tf.linalg.band_part(B, 1, 1)"),
    ("diag", "tf.linalg.diag(tf.constant([1.0, 2.0, 3.0]))"),
    ("diag_k", "tf.linalg.diag(tf.constant([1, 2]), k=1)"),
    (
        "diag_rows_cols",
        "tf.linalg.diag(tf.constant([1.0, 2.0]), num_rows=3, num_cols=4, padding_value=9)",
    ),
    ("diag_band", "tf.linalg.diag(tf.constant([[1, 2, 0], [3, 4, 5]]), k=(0, 1))"),
    (
        "diag_band_align",
        "tf.linalg.diag(tf.constant([[1, 2, 0], [3, 4, 5]]), k=(0, 1), align='LEFT_RIGHT')",
    ),
    ("diag_bool", "tf.linalg.diag(tf.constant([True, False]))"),
    ("diag_part", "tf.linalg.diag_part(M)"),
    ("diag_part_k", "tf.linalg.diag_part(M, k=1)"),
    ("diag_part_band", "tf.linalg.diag_part(M, k=(-1, 1), padding_value=-1)"),
    ("diag_part_band_align", "tf.linalg.diag_part(M, k=(-1, 1), align='LEFT_LEFT')"),
    ("set_diag", "tf.linalg.set_diag(tf.zeros([2, 3]), [5.0, 6.0])"),
    ("set_diag_k", "tf.linalg.set_diag(tf.zeros([3, 3]), [[1.0, 2.0], [3.0, 4.0]], k=(1, 2))"),
    ("set_diag_batch", "tf.linalg.set_diag(tf.zeros([2, 2, 2]), [[1.0, 2.0], [3.0, 4.0]])"),
    ("set_diag_err", "tf.linalg.set_diag(tf.zeros([2, 2]), [1.0, 2.0, 3.0])"),
    ("tensor_diag", "tf.linalg.tensor_diag(tf.constant([[1, 2], [3, 4]]))"),
    ("tensor_diag_part", "tf.linalg.tensor_diag_part(tf.reshape(tf.range(16), [2, 2, 2, 2]))"),
    ("tensor_diag_part_err", "tf.linalg.tensor_diag_part(tf.ones([2, 3]))"),
    ("trace", "tf.linalg.trace(B)"),
    ("trace_int", "tf.linalg.trace(tf.constant([[1, 2], [3, 4]]))"),
    ("trace_complex", "tf.linalg.trace(C)"),
    ("eye", "tf.eye(3)"),
    ("eye_rect", "tf.linalg.eye(2, 3, dtype=tf.int32)"),
    ("eye_batch", "tf.eye(2, batch_shape=[2, 1], dtype=tf.float64)"),
    ("eye_rect_batch", "tf.eye(3, 2, batch_shape=[2])"),
    ("eye_bool", "tf.eye(2, dtype=tf.bool)"),
    ("eye_complex", "tf.eye(2, dtype=tf.complex64)"),
    ("eye_err", "tf.eye(2.5)"),
    # determinants, inverses, solvers
    ("det", "tf.linalg.det(A)"),
    ("det_batch", "tf.linalg.det(tf.stack([A, 2.0 * A]))"),
    ("det_3", "tf.linalg.det(G)"),
    ("det_singular", "tf.linalg.det(tf.constant([[1.0, 2.0], [2.0, 4.0]]))"),
    ("det_complex", "tf.linalg.det(C)"),
    ("det_err", "tf.linalg.det(M)"),
    ("det_int_err", "tf.linalg.det(tf.constant([[1, 2], [3, 4]]))"),
    ("slogdet", "tf.linalg.slogdet(G)"),
    ("slogdet_neg", "tf.linalg.slogdet(tf.constant([[0.0, 1.0], [1.0, 0.0]]))"),
    ("logdet", "tf.linalg.logdet(S)"),
    ("logdet_64", "tf.linalg.logdet(S64)"),
    ("inv", "tf.linalg.inv(A)"),
    ("inv_3", "tf.linalg.inv(G)"),
    ("inv_adjoint", "tf.linalg.inv(G, adjoint=True)"),
    ("inv_64", "tf.linalg.inv(S64)"),
    ("inv_singular", "tf.linalg.inv(tf.constant([[1.0, 2.0], [2.0, 4.0]]))"),
    ("inv_err", "tf.linalg.inv(M)"),
    ("cholesky", "tf.linalg.cholesky(S)"),
    ("cholesky_64", "tf.linalg.cholesky(S64)"),
    (
        "cholesky_solve",
        "tf.linalg.cholesky_solve(tf.linalg.cholesky(S), tf.constant([[1.0], [2.0], [3.0]]))",
    ),
    ("solve", "tf.linalg.solve(G, tf.constant([[1.0, 0.0], [2.0, 1.0], [3.0, -1.0]]))"),
    ("solve_adjoint", "tf.linalg.solve(G, tf.constant([[1.0], [2.0], [3.0]]), adjoint=True)"),
    ("solve_64", "tf.linalg.solve(S64, tf.constant([[1.0], [2.0], [3.0]], tf.float64))"),
    ("solve_err", "tf.linalg.solve(G, tf.ones([2, 1]))"),
    ("solve_singular", "tf.linalg.solve(tf.constant([[1.0, 2.0], [2.0, 4.0]]), tf.ones([2, 1]))"),
    ("triangular_solve", "tf.linalg.triangular_solve(T, tf.constant([[2.0], [5.0], [3.0]]))"),
    (
        "triangular_solve_upper",
        "tf.linalg.triangular_solve(tf.transpose(T), tf.constant([[2.0], [5.0], [3.0]]), lower=False)",
    ),
    (
        "triangular_solve_adj",
        "tf.linalg.triangular_solve(T, tf.constant([[2.0], [5.0], [3.0]]), adjoint=True)",
    ),
    ("triangular_solve_bcast", "tf.linalg.triangular_solve(T, tf.ones([2, 3, 2]))"),
    ("lstsq_over", "tf.linalg.lstsq(R, tf.constant([[1.0], [2.0], [2.0]]))"),
    ("lstsq_under", "tf.linalg.lstsq(tf.transpose(R), tf.constant([[1.0], [2.0]]))"),
    ("lstsq_l2", "tf.linalg.lstsq(R, tf.constant([[1.0], [2.0], [2.0]]), l2_regularizer=0.5)"),
    (
        "lstsq_64",
        "tf.linalg.lstsq(tf.cast(R, tf.float64), tf.constant([[1.0], [2.0], [2.0]], tf.float64))",
    ),
    # factorizations
    ("qr", "tf.linalg.qr(G)"),
    ("qr_tall", "tf.linalg.qr(R)"),
    ("qr_full", "tf.linalg.qr(R, full_matrices=True)"),
    ("qr_wide", "tf.linalg.qr(tf.transpose(R))"),
    ("svd_s", "tf.linalg.svd(G, compute_uv=False)"),
    ("svd_s_rect", "tf.linalg.svd(M, compute_uv=False)"),
    ("svd_s_64", "tf.linalg.svd(S64, compute_uv=False)"),
    (
        "svd_recon",
        "(lambda s, u, v: tf.matmul(u * s[None, :], v, transpose_b=True))(*tf.linalg.svd(G))",
    ),
    ("svd_shapes", "[t.shape.as_list() for t in tf.linalg.svd(M, full_matrices=True)]"),
    ("svd_shapes_thin", "[t.shape.as_list() for t in tf.linalg.svd(M)]"),
    ("eigh_vals", "tf.linalg.eigh(S)[0]"),
    ("eigh_vecs", "tf.linalg.eigh(S)[1]"),
    ("eigh_64", "tf.linalg.eigh(S64)"),
    ("eigvalsh", "tf.linalg.eigvalsh(S)"),
    ("eigvalsh_2", "tf.linalg.eigvalsh(tf.constant([[2.0, 1.0], [1.0, 2.0]]))"),
    ("eigvalsh_batch", "tf.linalg.eigvalsh(tf.stack([S, 2.0 * S]))"),
    ("eigh_err", "tf.linalg.eigh(M)"),
    ("lu", "tf.linalg.lu(G)"),
    ("lu_64idx", "tf.linalg.lu(G, output_idx_type=tf.int64)"),
    ("lu_solve", "tf.linalg.lu_solve(*tf.linalg.lu(G), tf.constant([[1.0], [2.0], [3.0]]))"),
    ("lu_solve_batch", "tf.linalg.lu_solve(*tf.linalg.lu(tf.stack([G, T])), tf.ones([2, 3, 1]))"),
    ("lu_reconstruct", "tf.linalg.lu_reconstruct(*tf.linalg.lu(G))"),
    ("lu_reconstruct_batch", "tf.linalg.lu_reconstruct(*tf.linalg.lu(tf.stack([G, T])))"),
    ("lu_matrix_inverse", "tf.linalg.lu_matrix_inverse(*tf.linalg.lu(G))"),
    ("lu_err", "tf.linalg.lu_solve(tf.ones([2, 2]), tf.constant([0, 1]), tf.ones([2]))"),
    ("pinv", "tf.linalg.pinv(R)"),
    ("pinv_sq", "tf.linalg.pinv(G)"),
    ("pinv_err", "tf.linalg.pinv(tf.constant([[1, 2], [3, 4]]))"),
    ("matrix_rank", "tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]]))"),
    ("matrix_rank_full", "tf.linalg.matrix_rank(G)"),
    ("matrix_rank_tol", "tf.linalg.matrix_rank(tf.constant([[1.0, 0.0], [0.0, 1e-3]]), tol=1e-2)"),
    ("expm_zero", "tf.linalg.expm(tf.zeros([2, 2]))"),
    ("expm", "tf.linalg.expm(tf.constant([[0.0, 1.0], [-1.0, 0.0]]))"),
    ("expm_small", "tf.linalg.expm(tf.constant([[0.1, 0.2], [0.0, 0.1]]))"),
    ("expm_big", "tf.linalg.expm(tf.constant([[1.0, 2.0], [3.0, 4.0]]))"),
    ("expm_64", "tf.linalg.expm(tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64))"),
    ("expm_batch", "tf.linalg.expm(tf.stack([tf.eye(2), 2.0 * tf.eye(2)]))"),
    (
        "eigh_tridiagonal",
        "tf.linalg.eigh_tridiagonal(tf.constant([2.0, 2.0, 2.0]), tf.constant([1.0, 1.0]))",
    ),
    (
        "eigh_tridiagonal_64",
        "tf.linalg.eigh_tridiagonal(tf.constant([1.0, 3.0, -2.0, 4.0], tf.float64), tf.constant([0.5, 1.0, 2.0], tf.float64))",
    ),
    (
        "eigh_tridiagonal_i",
        "tf.linalg.eigh_tridiagonal(tf.constant([1.0, 3.0, -2.0, 4.0], tf.float64), tf.constant([0.5, 1.0, 2.0], tf.float64), select='i', select_range=[1, 2])",
    ),
    (
        "eigh_tridiagonal_vecs",
        "(lambda e, v: (e, tf.abs(v)))(*tf.linalg.eigh_tridiagonal(tf.constant([1.0, 3.0, -2.0, 4.0], tf.float64), tf.constant([0.5, 1.0, 2.0], tf.float64), eigvals_only=False))",
    ),
    (
        "eigh_tridiagonal_vecs_f32",
        "tf.linalg.eigh_tridiagonal(tf.constant([2.0, 2.0, 2.0]), tf.constant([1.0, 1.0]), eigvals_only=False)",
    ),
    (
        "eigh_tridiagonal_vecs_cluster",
        "tf.linalg.eigh_tridiagonal(tf.constant([1.0, 1.0, 1.0, 5.0], tf.float64), tf.constant([0.0, 1e-9, 0.5], tf.float64), eigvals_only=False)",
    ),
    (
        "eigh_tridiagonal_complex",
        "tf.linalg.eigh_tridiagonal(tf.constant([1.0 + 0j, 2.0 + 0j, 3.0 + 0j], tf.complex128), tf.constant([1j, 0.5 + 0.5j], tf.complex128), eigvals_only=False)",
    ),
    # norms
    ("norm", "tf.norm(tf.constant([[3.0, 4.0], [6.0, 8.0]]))"),
    ("norm_axis", "tf.norm(M, axis=1)"),
    ("norm_axis0_keep", "tf.norm(M, axis=0, keepdims=True)"),
    ("norm_ord1", "tf.norm(M, ord=1, axis=1)"),
    ("norm_ord1_all", "tf.norm(M, ord=1)"),
    ("norm_inf", "tf.linalg.norm(tf.constant([1.0, -2.0]), ord=np.inf)"),
    ("norm_p3", "tf.norm(tf.constant([1.0, 2.0, 3.0]), ord=3)"),
    ("norm_p05", "tf.norm(tf.constant([1.0, 4.0]), ord=0.5)"),
    ("norm_fro", "tf.norm(B, ord='fro', axis=[1, 2])"),
    ("norm_mat1", "tf.norm(G, ord=1, axis=(0, 1))"),
    ("norm_matinf", "tf.norm(G, ord=np.inf, axis=[0, 1])"),
    ("norm_mat2", "tf.norm(G, ord=2, axis=[0, 1])"),
    ("norm_mat2_batch", "tf.norm(B, ord=2, axis=[-2, -1], keepdims=True)"),
    ("norm_mat_rev", "tf.norm(M, ord=1, axis=[1, 0])"),
    ("norm_complex", "tf.norm(C)"),
    ("norm_64", "tf.norm(S64, axis=-1)"),
    ("norm_err_ord", "tf.norm(M, ord='fro')"),
    ("norm_err_ord0", "tf.norm(M, ord=0)"),
    ("norm_err_mat_ord", "tf.norm(M, ord=3, axis=[0, 1])"),
    ("norm_err_axis", "tf.norm(M, axis=[0, 0])"),
    ("norm_err_axis3", "tf.norm(B, axis=[0, 1, 2])"),
    ("normalize", "tf.linalg.normalize(tf.constant([3.0, 4.0]))"),
    ("normalize_axis", "tf.linalg.normalize(M, ord=1, axis=0)"),
    ("l2_normalize", "tf.linalg.l2_normalize(M, axis=1)"),
    ("l2_normalize_all", "tf.linalg.l2_normalize(tf.constant([3.0, 4.0]))"),
    ("l2_normalize_zero", "tf.linalg.l2_normalize(tf.zeros([2]))"),
    ("l2_normalize_complex", "tf.linalg.l2_normalize(tf.constant([3 + 4j, 0j]))"),
    ("global_norm", "tf.linalg.global_norm([M, A])"),
    ("global_norm_none", "tf.linalg.global_norm([tf.constant([3.0]), None, tf.constant([4.0])])"),
    ("global_norm_err", "tf.linalg.global_norm(M)"),
    # sort / argsort
    ("sort_int", "tf.sort(tf.constant([3, 1, 2, 5, 4]))"),
    ("sort_desc", "tf.sort(V, direction='DESCENDING')"),
    ("sort_axis0", "tf.sort(tf.constant([[3.0, 1.0], [0.5, 2.0]]), axis=0)"),
    ("sort_3d_axis1", "tf.sort(tf.constant([[[3, 1], [2, 5]], [[0, 7], [9, -1]]]), axis=1)"),
    ("sort_nan", "tf.sort(tf.constant([3.0, np.nan, 1.0, -np.inf, np.inf, 2.0]))"),
    ("sort_nan_desc", "tf.sort(tf.constant([3.0, np.nan, 1.0, 2.0]), direction='DESCENDING')"),
    ("sort_uint8", "tf.sort(tf.constant([200, 3, 255, 0], tf.uint8))"),
    ("sort_int64_min", "tf.sort(tf.constant([5, -9223372036854775807 - 1, 0], tf.int64))"),
    ("sort_int8", "tf.sort(tf.constant([5, -128, 127, 0], tf.int8))"),
    ("sort_f64", "tf.sort(tf.constant([0.5, -0.0, 0.0, -1.5], tf.float64))"),
    ("argsort", "tf.argsort(V)"),
    ("argsort_desc", "tf.argsort(V, direction='DESCENDING')"),
    ("argsort_ties", "tf.argsort(tf.constant([2, 1, 2, 1, 2]))"),
    ("argsort_ties_desc", "tf.argsort(tf.constant([2, 1, 2, 1, 2]), direction='DESCENDING')"),
    ("argsort_stable", "tf.argsort(tf.constant([[3.0, 1.0], [0.5, 2.0]]), axis=0, stable=True)"),
    ("argsort_nan", "tf.argsort(tf.constant([3.0, np.nan, 1.0]))"),
    ("argsort_tensor_axis", "tf.argsort(M, axis=tf.constant(0))"),
    ("sort_err_dir", "tf.sort(V, direction='UP')"),
    ("sort_err_axis", "tf.sort(V, axis=[0])"),
    ("sort_err_bool", "tf.sort(tf.constant([True, False]))"),
    ("sort_err_axis_range", "tf.sort(M, axis=2)"),
    # clip
    ("clip_value", "tf.clip_by_value(tf.constant([-2.0, 0.5, 3.0]), -1.0, 1.0)"),
    ("clip_value_int", "tf.clip_by_value(tf.constant([1, 5, 9]), 2, 6)"),
    ("clip_value_bcast", "tf.clip_by_value(M, tf.constant([2.0, 3.0, 4.0, 5.0]), 10.0)"),
    ("clip_value_err_shape", "tf.clip_by_value(tf.constant([1.0, 2.0]), tf.zeros([2, 2]), 5.0)"),
    ("clip_value_err_dtype", "tf.clip_by_value(tf.constant([1, 2]), 0.5, 1.5)"),
    ("clip_value_nan", "tf.clip_by_value(tf.constant([np.nan, 2.0]), 0.0, 1.0)"),
    ("clip_norm", "tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0)"),
    ("clip_norm_noop", "tf.clip_by_norm(tf.constant([3.0, 4.0]), 10.0)"),
    ("clip_norm_axes", "tf.clip_by_norm(tf.constant([[3.0, 4.0], [1.0, 0.0]]), 2.0, axes=[1])"),
    ("clip_norm_zero", "tf.clip_by_norm(tf.zeros([3]), 1.0)"),
    ("clip_norm_neg", "tf.clip_by_norm(tf.constant([3.0, 4.0]), -1.0)"),
    ("clip_norm_tensor", "tf.clip_by_norm(M, tf.constant(5.0), axes=0)"),
    (
        "clip_global",
        "tf.clip_by_global_norm([tf.constant([3.0, 0.0]), tf.constant([0.0, 4.0])], 2.5)",
    ),
    (
        "clip_global_noop",
        "tf.clip_by_global_norm([tf.constant([3.0, 0.0]), tf.constant([0.0, 4.0])], 10.0)",
    ),
    ("clip_global_none", "tf.clip_by_global_norm([tf.constant([3.0]), None], 1.0)"),
    (
        "clip_global_use_norm",
        "tf.clip_by_global_norm([tf.constant([3.0, 4.0])], 1.0, use_norm=tf.constant(10.0))",
    ),
    ("clip_global_inf", "tf.clip_by_global_norm([tf.constant([np.inf, 1.0])], 1.0)"),
    ("clip_global_err", "tf.clip_by_global_norm(tf.constant([1.0]), 1.0)"),
    # bitwise
    ("bit_and", "tf.bitwise.bitwise_and(tf.constant([12, 10, -1]), tf.constant([10, 6, 5]))"),
    (
        "bit_or",
        "tf.bitwise.bitwise_or(tf.constant([12, 10], tf.uint8), tf.constant([3, 5], tf.uint8))",
    ),
    (
        "bit_xor",
        "tf.bitwise.bitwise_xor(tf.constant([[12], [10]], tf.int64), tf.constant([1, 2], tf.int64))",
    ),
    ("bit_invert", "tf.bitwise.invert(tf.constant([0, 1, -5], tf.int8))"),
    ("bit_invert_u16", "tf.bitwise.invert(tf.constant([0, 1, 65535], tf.uint16))"),
    ("bit_lshift", "tf.bitwise.left_shift(tf.constant([1, 3, -2]), tf.constant([2, 4, 1]))"),
    ("bit_rshift", "tf.bitwise.right_shift(tf.constant([16, -16, 255]), 2)"),
    (
        "bit_rshift_u8",
        "tf.bitwise.right_shift(tf.constant([255, 128], tf.uint8), tf.constant([1, 7], tf.uint8))",
    ),
    ("bit_err_float", "tf.bitwise.bitwise_and(tf.constant([1.0]), tf.constant([2.0]))"),
    ("bit_err_dtype", "tf.bitwise.bitwise_or(tf.constant([1]), tf.constant([2], tf.int64))"),
    # ops tfe may lack (the test expects NotImplementedError where it does)
    ("eig", "tf.linalg.eig(tf.constant([[2.0, 0.0], [0.0, 1.0]]))"),
    ("eigvals", "tf.linalg.eigvals(tf.constant([[0.0, 1.0], [-2.0, -3.0]]))"),
    ("sqrtm", "tf.linalg.sqrtm(tf.constant([[4.0, 0.0], [0.0, 9.0]]))"),
    ("sqrtm_toplevel", "tf.matrix_square_root(tf.constant([[4.0, 1.0], [1.0, 3.0]], tf.float64))"),
    ("sqrtm_spd3", "tf.linalg.sqrtm(S64)"),
    ("sqrtm_spd3_f32", "tf.linalg.sqrtm(S)"),
    ("sqrtm_nonsym", "tf.linalg.sqrtm(tf.constant([[1.0, 2.0], [0.5, 3.0]], tf.float64))"),
    ("sqrtm_rotation", "tf.linalg.sqrtm(tf.constant([[0.0, -1.0], [1.0, 0.0]], tf.float64))"),
    (
        "sqrtm_complex",
        "tf.linalg.sqrtm(tf.constant([[1 + 1j, 2 + 0j], [0.5j, 3 - 1j]], tf.complex128))",
    ),
    ("sqrtm_complex64", "tf.linalg.sqrtm(C)"),
    ("sqrtm_batch", "tf.linalg.sqrtm(tf.stack([S64, 2.0 * S64]))"),
    (
        "sqrtm_4",
        "tf.linalg.sqrtm(tf.constant([[4.0, 1.0, 0.5, 0.0], [1.0, 3.0, 0.2, 0.1], [0.5, 0.2, 2.0, 0.3], [0.0, 0.1, 0.3, 1.5]], tf.float64))",
    ),
    ("sqrtm_negative", "tf.linalg.sqrtm(tf.constant([[-4.0, 0.0], [0.0, 9.0]], tf.float64))"),
    ("sqrtm_err_square", "tf.linalg.sqrtm(tf.ones([2, 3]))"),
    ("sqrtm_err_half", "tf.linalg.sqrtm(tf.ones([2, 2], tf.float16))"),
    ("sqrtm_empty", "tf.linalg.sqrtm(tf.zeros([0, 0]))"),
    ("logm", "tf.linalg.logm(tf.constant([[1.0, 0.0], [0.0, 2.0]], tf.complex64))"),
    (
        "tridiagonal_solve",
        "tf.linalg.tridiagonal_solve(tf.constant([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 1.0, 2.0]]), tf.constant([[1.0], [2.0], [3.0]]))",
    ),
    (
        "tridiagonal_solve_vec",
        "tf.linalg.tridiagonal_solve(tf.constant([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 1.0, 2.0]]), tf.constant([1.0, 2.0, 3.0]))",
    ),
    (
        "tridiagonal_solve_seq",
        "tf.linalg.tridiagonal_solve([tf.constant([1.0, 2.0]), tf.constant([4.0, 5.0, 6.0]), tf.constant([1.0, 2.0])], tf.constant([[1.0], [2.0], [3.0]]), diagonals_format='sequence')",
    ),
    (
        "tridiagonal_solve_matrix",
        "tf.linalg.tridiagonal_solve(tf.constant([[4.0, 1.0, 0.0], [1.0, 5.0, 2.0], [0.0, 2.0, 6.0]]), tf.constant([[1.0], [2.0], [3.0]]), diagonals_format='matrix')",
    ),
    (
        "tridiagonal_solve_nopivot",
        "tf.linalg.tridiagonal_solve(tf.constant([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 1.0, 2.0]]), tf.constant([[1.0], [2.0], [3.0]]), partial_pivoting=False)",
    ),
    (
        "tridiagonal_solve_64",
        "tf.linalg.tridiagonal_solve(tf.constant([[1.0, 2.0, 0.0], [0.5, 5.0, 6.0], [0.0, 1.0, 2.0]], tf.float64), tf.constant([[1.0, 0.0], [2.0, 1.0], [3.0, 1.0]], tf.float64))",
    ),
    (
        "tridiagonal_matmul",
        "tf.linalg.tridiagonal_matmul(tf.constant([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 1.0, 2.0]]), tf.constant([[1.0], [2.0], [3.0]]))",
    ),
    (
        "tridiagonal_matmul_seq",
        "tf.linalg.tridiagonal_matmul([tf.constant([1.0, 2.0, 0.0]), tf.constant([4.0, 5.0, 6.0]), tf.constant([0.0, 1.0, 2.0])], tf.constant([[1.0, 2.0], [2.0, 0.0], [3.0, 1.0]]), diagonals_format='sequence')",
    ),
    (
        "banded_triangular_solve",
        "tf.linalg.banded_triangular_solve(tf.constant([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), tf.constant([[1.0], [2.0], [3.0]]))",
    ),
    (
        "tridiagonal_solve_rand",
        "tf.linalg.tridiagonal_solve(tf.constant([[0.3, -1.2, 2.5, 0.0], [1.7, 0.4, -0.9, 2.2], [0.0, 1.3, 0.8, -0.6]]), tf.constant([[0.5, 1.0], [-1.5, 2.0], [0.25, -0.75], [1.1, 0.3]]))",
    ),
    (
        "tridiagonal_solve_rand_nopivot",
        "tf.linalg.tridiagonal_solve(tf.constant([[0.3, -1.2, 2.5, 0.0], [1.7, 0.4, -0.9, 2.2], [0.0, 1.3, 0.8, -0.6]]), tf.constant([[0.5, 1.0], [-1.5, 2.0], [0.25, -0.75], [1.1, 0.3]]), partial_pivoting=False)",
    ),
    (
        "tridiagonal_solve_singular",
        "tf.linalg.tridiagonal_solve(tf.constant([[1.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 1.0]], tf.float64), tf.constant([[1.0], [2.0], [3.0]], tf.float64))",
    ),
    (
        "tridiagonal_solve_singular_nopivot",
        "tf.linalg.tridiagonal_solve(tf.constant([[1.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 1.0]], tf.float64), tf.constant([[1.0], [2.0], [3.0]], tf.float64), partial_pivoting=False)",
    ),
    (
        "tridiagonal_solve_perturb",
        "tf.linalg.tridiagonal_solve(tf.constant([[2.0, 0.0], [0.0, 3.0], [0.0, 0.0]], tf.float64), tf.constant([[1.0], [1.0]], tf.float64), perturb_singular=True)",
    ),
    (
        "tridiagonal_solve_perturb_f32",
        "tf.linalg.tridiagonal_solve(tf.constant([[2.0, 0.0], [0.0, 3.0], [0.0, 0.0]]), tf.constant([[1.0], [1.0]]), perturb_singular=True)",
    ),
    (
        "tridiagonal_solve_zero_1x1",
        "tf.linalg.tridiagonal_solve(tf.zeros([3, 1], tf.float64), tf.ones([1, 1], tf.float64), perturb_singular=True)",
    ),
    (
        "tridiagonal_solve_zero_1x1_nan",
        "tf.linalg.tridiagonal_solve(tf.zeros([3, 1], tf.float64), tf.ones([1, 1], tf.float64))",
    ),
    (
        "tridiagonal_solve_complex",
        "tf.linalg.tridiagonal_solve(tf.constant([[1 + 1j, 2j, 0], [3 + 0j, 1 - 1j, 2 + 0j], [0, 0.5 + 0j, 1j]], tf.complex64), tf.constant([[1 + 0j], [1j], [2 + 0j]], tf.complex64))",
    ),
    (
        "tridiagonal_solve_batch",
        "tf.linalg.tridiagonal_solve(tf.stack([tf.constant([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 1.0, 2.0]]), tf.constant([[0.5, 1.0, 0.0], [3.0, -2.0, 1.0], [0.0, 2.0, 1.5]])]), tf.ones([2, 3, 2]))",
    ),
    (
        "tridiagonal_solve_transpose_rhs",
        "tf.linalg.tridiagonal_solve(tf.constant([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 1.0, 2.0]]), tf.constant([[1.0, 2.0, 3.0]]), transpose_rhs=True)",
    ),
    ("tridiagonal_solve_err_rows", "tf.linalg.tridiagonal_solve(tf.ones([2, 3]), tf.ones([3, 1]))"),
    ("tridiagonal_solve_err_lhs", "tf.linalg.tridiagonal_solve(tf.ones([3, 3]), tf.ones([2, 1]))"),
    (
        "tridiagonal_solve_err_perturb",
        "tf.linalg.tridiagonal_solve(tf.ones([3, 3]), tf.ones([3, 1]), partial_pivoting=False, perturb_singular=True)",
    ),
    (
        "tridiagonal_solve_raw_err_batch",
        "tf.raw_ops.TridiagonalSolve(diagonals=tf.ones([2, 3, 3]), rhs=tf.ones([3, 3, 1]))",
    ),
    (
        "tridiagonal_solve_raw_err_rows",
        "tf.raw_ops.TridiagonalSolve(diagonals=tf.ones([2, 3]), rhs=tf.ones([3, 1]))",
    ),
    (
        "tridiagonal_matmul_rand",
        "tf.linalg.tridiagonal_matmul(tf.constant([[0.3, -1.2, 2.5, 0.0], [1.7, 0.4, -0.9, 2.2], [0.0, 1.3, 0.8, -0.6]]), tf.constant([[0.5, 1.0], [-1.5, 2.0], [0.25, -0.75], [1.1, 0.3]]))",
    ),
    (
        "tridiagonal_matmul_matrix",
        "tf.linalg.tridiagonal_matmul(tf.constant([[4.0, 1.0, 0.0], [1.0, 5.0, 2.0], [0.0, 2.0, 6.0]]), tf.constant([[1.0], [2.0], [3.0]]), diagonals_format='matrix')",
    ),
    (
        "tridiagonal_matmul_complex",
        "tf.linalg.tridiagonal_matmul(tf.constant([[1 + 1j, 2j, 0], [3 + 0j, 1 - 1j, 2 + 0j], [0, 0.5 + 0j, 1j]], tf.complex128), tf.constant([[1 + 0j], [1j], [2 + 0j]], tf.complex128))",
    ),
    (
        "tridiagonal_matmul_raw_err",
        "tf.raw_ops.TridiagonalMatMul(superdiag=tf.ones([2, 3]), maindiag=tf.ones([1, 3]), subdiag=tf.ones([1, 3]), rhs=tf.ones([3, 1]))",
    ),
    (
        "tridiagonal_matmul_raw_err_rank",
        "tf.raw_ops.TridiagonalMatMul(superdiag=tf.ones([1, 3]), maindiag=tf.ones([1, 3]), subdiag=tf.ones([1, 3]), rhs=tf.ones([2, 3, 1]))",
    ),
    (
        "tridiagonal_matmul_1x1",
        "tf.raw_ops.TridiagonalMatMul(superdiag=tf.ones([1, 1]), maindiag=2 * tf.ones([1, 1]), subdiag=tf.ones([1, 1]), rhs=tf.ones([1, 2]))",
    ),
    (
        "banded_lower",
        "tf.linalg.banded_triangular_solve(tf.constant([[2.0, 3.0, 4.0], [0.0, 1.0, 1.5]]), tf.constant([[1.0], [2.0], [3.0]]))",
    ),
    (
        "banded_lower_adj",
        "tf.linalg.banded_triangular_solve(tf.constant([[2.0, 3.0, 4.0], [0.0, 1.0, 1.5]]), tf.constant([[1.0], [2.0], [3.0]]), adjoint=True)",
    ),
    (
        "banded_upper",
        "tf.linalg.banded_triangular_solve(tf.constant([[1.0, 1.5, 0.0], [2.0, 3.0, 4.0]]), tf.constant([[1.0], [2.0], [3.0]]), lower=False)",
    ),
    (
        "banded_upper_adj",
        "tf.linalg.banded_triangular_solve(tf.constant([[1.0, 1.5, 0.0], [2.0, 3.0, 4.0]]), tf.constant([[1.0], [2.0], [3.0]]), lower=False, adjoint=True)",
    ),
    (
        "banded_rand3",
        "tf.linalg.banded_triangular_solve(tf.constant([[1.3, -2.1, 0.7, 1.9], [0.0, 0.4, -1.1, 0.6], [0.0, 0.0, 0.35, -0.8]]), tf.constant([[0.5, 1.0], [-1.5, 2.0], [0.25, -0.75], [1.1, 0.3]]))",
    ),
    (
        "banded_rand3_upper_adj",
        "tf.linalg.banded_triangular_solve(tf.constant([[0.35, -0.8, 0.0, 0.0], [0.4, -1.1, 0.6, 0.0], [1.3, -2.1, 0.7, 1.9]]), tf.constant([[0.5, 1.0], [-1.5, 2.0], [0.25, -0.75], [1.1, 0.3]]), lower=False, adjoint=True)",
    ),
    (
        "banded_complex",
        "tf.linalg.banded_triangular_solve(tf.constant([[2 + 1j, 3 + 0j, 1j], [0, 1 - 1j, 2 + 0j]], tf.complex64), tf.constant([[1 + 0j], [1j], [2 + 0j]], tf.complex64), adjoint=True)",
    ),
    (
        "banded_bcast",
        "tf.linalg.banded_triangular_solve(tf.constant([[[2.0, 3.0, 4.0], [0.0, 1.0, 1.5]]]), tf.ones([2, 3, 1]))",
    ),
    (
        "banded_many_bands",
        "tf.linalg.banded_triangular_solve(tf.constant([[2.0, 3.0], [0.0, 1.0], [0.0, 0.0], [0.0, 0.0]]), tf.ones([2, 1]))",
    ),
    ("banded_err_singular", "tf.linalg.banded_triangular_solve(tf.zeros([2, 3]), tf.ones([3, 1]))"),
    ("banded_err_shape", "tf.linalg.banded_triangular_solve(tf.ones([2, 3]), tf.ones([2, 1]))"),
    (
        "banded_err_batch",
        "tf.linalg.banded_triangular_solve(tf.ones([2, 2, 3]), tf.ones([3, 3, 1]))",
    ),
    ("banded_err_rank", "tf.linalg.banded_triangular_solve(tf.ones([3]), tf.ones([3, 1]))"),
    (
        "logm_c128",
        "tf.linalg.logm(tf.constant([[2.0 + 1j, 1.0 + 0j], [0.5j, 3.0 - 0.5j]], tf.complex128))",
    ),
    (
        "logm_nonnormal",
        "tf.linalg.logm(tf.constant([[1.0, 4.0, 0.0], [0.0, 1.0, 2.0], [0.5, 0.0, 2.0]], tf.complex128))",
    ),
    ("logm_rotation", "tf.linalg.logm(tf.constant([[0.0, -1.0], [1.0, 0.0]], tf.complex128))"),
    ("logm_big", "tf.linalg.logm(tf.constant([[100.0, 3.0], [2.0, 50.0]], tf.complex64))"),
    ("logm_batch", "tf.linalg.logm(tf.cast(tf.stack([S64, 2.0 * S64]), tf.complex128))"),
    (
        "logm_exp_roundtrip",
        "tf.linalg.logm(tf.cast(tf.linalg.expm(tf.constant([[0.1, 0.2], [0.3, -0.4]], tf.float64)), tf.complex128))",
    ),
    ("logm_err_real", "tf.linalg.logm(tf.eye(2))"),
    ("logm_err_square", "tf.linalg.logm(tf.ones([2, 3], tf.complex64))"),
    ("lstsq_slow", "tf.linalg.lstsq(R, tf.constant([[1.0], [2.0], [2.0]]), fast=False)"),
]


def encode(value: Any, tf: Any) -> Any:
    """JSON form of a result: tensors as dtype/shape/values/str, sequences
    element by element, numbers and strings as they are."""
    if isinstance(value, tf.Tensor):
        arr = np.asarray(value.numpy())
        if np.iscomplexobj(arr):
            vals: Any = [[float(z.real), float(z.imag)] for z in arr.reshape(-1)]
        elif arr.dtype == np.bool_:
            vals = [bool(b) for b in arr.reshape(-1)]
        elif np.issubdtype(arr.dtype, np.integer):
            vals = [int(i) for i in arr.reshape(-1)]
        else:
            vals = [repr(float(f)) for f in arr.reshape(-1)]
        return {
            "dtype": value.dtype.name,
            "shape": [int(d) for d in value.shape],
            "values": vals,
            "str": str(value),
        }
    if isinstance(value, (list, tuple)):
        return {"seq": [encode(v, tf) for v in value]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"py": value}
    raise TypeError(f"cannot encode {type(value)}")


def run(tf: Any) -> dict[str, Any]:
    ns: dict[str, Any] = {"tf": tf, "np": np}
    exec(PRELUDE, ns)
    out: dict[str, Any] = {}
    for key, code in CASES:
        try:
            res = {"result": encode(eval(code, ns), tf)}
        except Exception as e:  # the class is the record
            res = {"error": type(e).__name__}
        out[key] = {"code": code, **res}
    return out


def main() -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
    import tensorflow as tf

    data = {
        "_about": "TensorFlow 2.21 results of the cases of tools/record_api_linalg.py",
        "prelude": PRELUDE,
        "cases": run(tf),
    }
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(data['cases'])} cases to {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
