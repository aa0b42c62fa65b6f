"""The nn_linalg2 kernel group (csrc/kernels/cpu/nn_linalg2_*.c: removed
Batch* linalg ops, SparseMatMul, SparseSegment*GradV2, Eig, Fresnel
integrals, the fused LSTM/GRU cells, CTCLoss and CTCGreedyDecoder) against
TF 2.21's outputs and errors for the same inputs
(tests/data/nnlin_ops_tf221.json, written by tools/record_nnlin_ops.py),
plus a check that every CPU dtype TF registers has a recorded case."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from recorded_ops import assert_error, check_outputs, decode, load_cases, run_case, split

import tfe_py as tf

_CASES = load_cases("nnlin_ops_tf221.json")
_OK, _ERR = split(_CASES)
_TYPE_ATTRS = ("Tout", "dtype")


def _tol(dt: str) -> tuple[float, float]:
    if dt in ("float16", "bfloat16"):
        return 1e-2, 1e-2
    if dt in ("float32", "complex64"):
        return 2e-5, 2e-5
    return 1e-10, 1e-10


def _check_eig(cs: dict[str, Any], outs: list[Any]) -> None:
    """Eigenvalues as a multiset; each eigenvector (unit norm) equal to TF's
    for the same eigenvalue up to a phase, and A v = lambda v."""
    dt = cs["outputs"][0]["dtype"]
    tol = 2e-4 if dt == "complex64" else 1e-9
    a = decode(cs["inputs"]["input"]).astype(np.complex128)
    e_tf = decode(cs["outputs"][0]).astype(np.complex128)
    e = np.asarray(outs[0].numpy()).astype(np.complex128)
    assert e.shape == e_tf.shape
    n = a.shape[-1]
    fa, fe, fetf = a.reshape(-1, n, n), e.reshape(-1, n), e_tf.reshape(-1, n)
    for b in range(fa.shape[0]):
        scale = 1 + np.abs(fa[b]).max()
        for lam in fetf[b]:
            assert np.min(np.abs(fe[b] - lam)) < tol * scale * 10, (fe[b], fetf[b])
    if 1 in cs.get("skip", []):
        return
    v = np.asarray(outs[1].numpy()).astype(np.complex128).reshape(-1, n, n)
    v_tf = decode(cs["outputs"][1]).astype(np.complex128).reshape(-1, n, n)
    for b in range(fa.shape[0]):
        scale = 1 + np.abs(fa[b]).max()
        np.testing.assert_allclose(np.linalg.norm(v[b], axis=0), 1, atol=tol * 10)
        np.testing.assert_allclose(fa[b] @ v[b], v[b] * fe[b][None, :], atol=tol * scale * 10)
        for j in range(n):
            # a simple eigenvalue: the vectors agree up to phase
            k = int(np.argmin(np.abs(fe[b] - fetf[b][j])))
            if np.sum(np.abs(fetf[b] - fetf[b][j]) < 1e-3 * scale) == 1:
                inner = abs(np.vdot(v[b][:, k], v_tf[b][:, j]))
                assert inner > 1 - tol * 1e3, (j, inner)


@pytest.mark.parametrize("cs", _OK, ids=[c["name"] for c in _OK])
def test_output_matches_tf(cs: dict[str, Any]) -> None:
    outs = run_case(cs, _TYPE_ATTRS)
    if cs.get("eig"):
        assert len(outs) == len(cs["outputs"])
        for got_t, exp_spec in zip(outs, cs["outputs"], strict=True):
            assert got_t.dtype == getattr(tf, exp_spec["dtype"])
        _check_eig(cs, outs)
        return
    check_outputs(outs, cs["outputs"], tol=_tol, skip=cs.get("skip", []),
                  min_tol=cs.get("rtol", 0.0))


@pytest.mark.parametrize("cs", _ERR, ids=[c["name"] for c in _ERR])
def test_error_matches_tf(cs: dict[str, Any]) -> None:
    # the op definition's type check: compare its first clause only
    assert_error(cs, lambda: run_case(cs, _TYPE_ATTRS),
                 lambda w: w.split("\t")[0].strip() if w.startswith("Value for attr") else w)


# TF's CPU kernel dtypes (tf_kernels.pb) per op, as far as the op
# definition admits them: every one has a recorded case.
_KERNEL_DTYPES: dict[str, tuple[str, ...]] = {
    "BatchCholesky": ("float32", "float64"),
    "BatchMatrixDeterminant": ("float32", "float64", "complex64", "complex128"),
    "BatchSvd": ("float32", "float64", "complex64", "complex128"),
    "MatrixExponential": ("float32", "float64", "complex64", "complex128"),
    "SparseSegmentSumGradV2": ("float32", "float64", "float16", "bfloat16"),
    "SparseSegmentMeanGradV2": ("float32", "float64", "float16", "bfloat16"),
    "SparseSegmentSqrtNGradV2": ("float32", "float64", "float16", "bfloat16"),
    "SparseMatMul": ("float32", "bfloat16"),
    "MatrixSolveLs": ("float32", "float64", "complex64", "complex128"),
    "CholeskyGrad": ("float32", "float64"),
    "SparseBincount": ("int32", "int64", "float32", "float64"),
    "RaggedBincount": ("int32", "int64", "float32", "float64"),
    "FusedPadConv2D": ("float32", "float64", "float16", "bfloat16"),
    "FusedResizeAndPadConv2D": ("float32", "float64", "float16"),
    "Eig": ("float32", "float64", "complex64", "complex128"),
    "FresnelCos": ("float32", "float64"),
    "FresnelSin": ("float32", "float64"),
    "LSTMBlockCell": ("float32", "float16"),
    "LSTMBlockCellGrad": ("float32", "float16"),
    "BlockLSTM": ("float32", "float16"),
    "BlockLSTMV2": ("float32", "float16"),
    "BlockLSTMGrad": ("float32", "float16"),
    "BlockLSTMGradV2": ("float32", "float16"),
    "GRUBlockCell": ("float32",),
    "GRUBlockCellGrad": ("float32",),
    "CTCLoss": ("float32", "float64"),
    "CTCGreedyDecoder": ("float32", "float64"),
}


@pytest.mark.parametrize("op", sorted(_KERNEL_DTYPES))
def test_every_tf_dtype_recorded(op: str) -> None:
    seen = set()
    for c in _CASES:
        if c["op"] == op and ("outputs" in c or "removed in version" in str(c)):
            if "weights" in c["inputs"]:
                seen.add(c["inputs"]["weights"]["dtype"])
                continue
            specs = [s for s in c["inputs"].values() if s["dtype"] not in ("int32", "int64")]
            seen.add((specs or list(c["inputs"].values()))[0]["dtype"])
    missing = [d for d in _KERNEL_DTYPES[op] if d not in seen]
    assert not missing, missing
