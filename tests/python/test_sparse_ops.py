"""The sparse op group's CPU kernels (csrc/kernels/cpu/sparse_*.c) against
TF 2.21's outputs and errors for the same inputs
(tests/data/sparse_ops_tf221.json, written by tools/record_sparse_ops.py),
plus checks that need no recorded data (shape inference, big random
inputs against numpy)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from recorded_ops import load_cases, recorded_tests

import tfe_py as tf
from tfe_py import ops

_CASES = load_cases("sparse_ops_tf221.json")
test_output_matches_tf, test_error_matches_tf = recorded_tests(_CASES)
_OK = [c for c in _CASES if "outputs" in c]


# TF's CPU kernel dtypes (tf_kernels.pb) per op: every one has a recorded case.
_KERNEL_DTYPES: dict[str, tuple[str, ...]] = {
    "SparseTensorDenseMatMul": ("float32", "float64", "float16", "bfloat16", "complex64",
                                "complex128", "int32"),
    "SparseToDense": ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32",
                      "int64", "uint8", "uint16", "uint32", "uint64", "bool", "complex64",
                      "complex128", "string"),
    "SparseReorder": ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32",
                      "int64", "uint8", "uint16", "uint32", "uint64", "bool", "complex64",
                      "complex128", "string"),
    "SparseFillEmptyRows": ("float32", "float64", "float16", "bfloat16", "int8", "int16",
                            "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool",
                            "complex64", "complex128", "string"),
    "SparseTensorDenseAdd": ("float32", "float64", "float16", "bfloat16", "int8", "int16",
                             "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                             "complex64", "complex128"),
    "SparseDenseCwiseAdd": ("float32", "float64", "float16", "bfloat16", "int8", "int16",
                            "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    "SparseSegmentSum": ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32",
                         "int64", "uint8", "uint16", "uint32", "uint64"),
    "SparseSegmentMean": ("float32", "float64", "float16", "bfloat16"),
    "SparseSegmentSqrtN": ("float32", "float64", "float16", "bfloat16"),
    "SparseReduceSum": ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32",
                        "int64", "uint8", "uint16", "uint32", "uint64", "complex64",
                        "complex128"),
    "SparseReduceMax": ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32",
                        "int64", "uint8", "uint16", "uint32", "uint64"),
    "SparseSoftmax": ("float32", "float64", "float16"),
    "SparseSparseMaximum": ("float32", "float64", "float16", "bfloat16", "int8", "int16",
                            "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    "SparseSparseMinimum": ("float32", "float64", "float16", "bfloat16", "int8", "int16",
                            "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    "SparseSegmentSumGrad": ("float32", "float64", "float16", "bfloat16"),
    "SparseSegmentMeanGrad": ("float32", "float64", "float16", "bfloat16"),
    "SparseSegmentSqrtNGrad": ("float32", "float64", "float16", "bfloat16"),
    "SparseAdd": ("float32", "float64", "int8", "int16", "int32", "int64", "complex64",
                  "complex128"),
    "SparseAddGrad": ("float32", "float64", "int8", "int16", "int32", "int64", "complex64",
                      "complex128"),
}

_VALUE_INPUT = {
    "SparseTensorDenseMatMul": "a_values", "SparseToDense": "sparse_values",
    "SparseReorder": "input_values", "SparseTensorDenseAdd": "a_values",
    "SparseDenseCwiseAdd": "sp_values", "SparseSegmentSum": "data",
    "SparseSegmentMean": "data", "SparseSegmentSqrtN": "data",
    "SparseReduceSum": "input_values", "SparseReduceMax": "input_values",
    "SparseSoftmax": "sp_values", "SparseSegmentSumGrad": "grad",
    "SparseSegmentMeanGrad": "grad", "SparseSegmentSqrtNGrad": "grad",
    "SparseSparseMaximum": "a_values", "SparseSparseMinimum": "a_values",
    "SparseFillEmptyRows": "values",
    "SparseAdd": "a_values", "SparseAddGrad": "backprop_val_grad",
}


def test_every_kernel_dtype_has_a_case() -> None:
    seen = {(c["op"], c["inputs"][_VALUE_INPUT[c["op"]]]["dtype"]) for c in _OK
            if c["op"] in _VALUE_INPUT}
    want = {(op, dt) for op, dts in _KERNEL_DTYPES.items() for dt in dts}
    assert want - seen == set()


def _random_sparse(rng: np.random.Generator, m: int, k: int, nnz: int) -> np.ndarray:
    flat = rng.choice(m * k, nnz, replace=False)
    flat.sort()
    return np.stack([flat // k, flat % k], 1).astype(np.int64)


@pytest.mark.parametrize("adj_a,adj_b", [(False, False), (True, False), (False, True),
                                         (True, True)])
def test_sparse_dense_matmul_large_matches_numpy(adj_a: bool, adj_b: bool) -> None:
    # big enough to take the multi-threaded column split
    rng = np.random.default_rng(7)
    m, k, n = 300, 200, 130
    idx = _random_sparse(rng, m, k, 3000)
    vals = rng.standard_normal(len(idx)).astype(np.float32)
    dense_a = np.zeros((m, k), np.float32)
    dense_a[idx[:, 0], idx[:, 1]] = vals
    b = rng.standard_normal((n, k) if adj_b else (k, n)).astype(np.float32)
    if adj_a:
        idx = idx[:, ::-1].copy()
        shape = [k, m]
    else:
        shape = [m, k]
    out = ops.SparseTensorDenseMatMul(a_indices=tf.constant(idx), a_values=tf.constant(vals),
                                      a_shape=tf.constant(np.array(shape, np.int64)),
                                      b=tf.constant(b), adjoint_a=adj_a, adjoint_b=adj_b)
    ref = dense_a @ (b.T if adj_b else b)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-4, atol=1e-4)


def test_sparse_reorder_large_random() -> None:
    rng = np.random.default_rng(8)
    idx = np.stack([rng.integers(0, 50, 5000), rng.integers(0, 70000, 5000),
                    rng.integers(0, 3, 5000)], 1).astype(np.int64)
    vals = np.arange(5000, dtype=np.float64)
    oi, ov = ops.SparseReorder(input_indices=tf.constant(idx), input_values=tf.constant(vals),
                               input_shape=tf.constant(np.array([50, 70000, 3], np.int64)))
    order = np.lexsort(idx.T[::-1])  # stable
    np.testing.assert_array_equal(oi.numpy(), idx[order])
    np.testing.assert_array_equal(ov.numpy(), vals[order])


def test_segment_sum_large_matches_numpy() -> None:
    rng = np.random.default_rng(9)
    data = rng.standard_normal((1000, 64)).astype(np.float32)
    idx = rng.integers(0, 1000, 5000).astype(np.int32)
    seg = np.sort(rng.integers(0, 300, 5000)).astype(np.int32)
    out = ops.SparseSegmentSum(data=tf.constant(data), indices=tf.constant(idx),
                               segment_ids=tf.constant(seg)).numpy()
    ref = np.zeros((seg[-1] + 1, 64), np.float64)
    np.add.at(ref, seg, data[idx].astype(np.float64))
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-4)


def test_shape_inference_in_functions() -> None:
    @tf.function
    def f(i: Any, v: Any, b: Any) -> Any:
        return ops.SparseTensorDenseMatMul(a_indices=i, a_values=v,
                                           a_shape=tf.constant(np.array([3, 4], np.int64)),
                                           b=b)

    out = f(tf.constant(np.array([[0, 1]], np.int64)), tf.constant([2.0]),
            tf.constant(np.ones((4, 5), np.float32)))
    assert out.shape == (3, 5)
    np.testing.assert_allclose(out.numpy()[0], 2.0)
