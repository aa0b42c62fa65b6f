"""The sparse2 op group's CPU kernels (csrc/kernels/cpu/sparse2_*.c) against
TF 2.21's outputs and errors for the same inputs
(tests/data/sparse2_ops_tf221.json, written by tools/record_sparse2_ops.py),
plus a check that every CPU dtype TF registers (that tfe moves) has a
recorded case."""

from __future__ import annotations

import pytest
from recorded_ops import load_cases, recorded_tests

_CASES = load_cases("sparse2_ops_tf221.json")
test_output_matches_tf, test_error_matches_tf = recorded_tests(_CASES)


# TF's CPU kernel dtypes (tf_kernels.pb) per op that tfe implements (TF's
# resource and variant values are not moved through tfe's sparse tensors).
_REAL = ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
         "uint8", "uint16", "uint32", "uint64")
_NUM = (*_REAL, "complex64", "complex128")
_ALL = (*_NUM, "bool", "string")
_SET = ("int8", "int16", "int32", "int64", "uint8", "uint16", "string")
_CNT_W = ("int32", "int64", "float32", "float64")  # T is int32 and int64 for each
_KERNEL_DTYPES: dict[str, tuple[str, tuple[str, ...]]] = {
    # op: (input holding T, dtypes)
    "SparseConcat": ("values", _ALL),
    "SparseSlice": ("values", _ALL),
    "SparseSliceGrad": ("backprop_val_grad", _NUM),
    "SparseSplit": ("values", _ALL),
    "SparseReduceSumSparse": ("input_values", _NUM),
    "SparseReduceMaxSparse": ("input_values", _REAL),
    "DenseToDenseSetOperation": ("set1", _SET),
    "DenseToSparseSetOperation": ("set1", _SET),
    "SparseToSparseSetOperation": ("set1_values", _SET),
    "SetSize": ("set_values", _SET),
    "SparseCross": ("dense_inputs", ("int64", "string")),
    "DenseCountSparseOutput": ("weights", _CNT_W),
    "SparseCountSparseOutput": ("weights", _CNT_W),
    "RaggedCountSparseOutput": ("weights", _CNT_W),
    "EditDistance": ("hypothesis_values", _ALL),
    "NonMaxSuppression": ("boxes", ("float32",)),
    "NonMaxSuppressionV2": ("boxes", ("float32", "float16")),
    "Copy": ("input", _ALL),
    "CopyHost": ("input", _ALL),
    "DebugIdentity": ("input", _ALL),
    "DebugNanCount": ("input", _REAL),
}


@pytest.mark.parametrize("op", sorted(_KERNEL_DTYPES))
def test_every_tf_dtype_recorded(op: str) -> None:
    arg, dts = _KERNEL_DTYPES[op]
    seen = set()
    for c in _CASES:
        if c["op"] == op and "outputs" in c:
            spec = c["inputs"][arg]
            seen.add((spec[0] if isinstance(spec, list) else spec)["dtype"])
    missing = [d for d in dts if d not in seen]
    assert not missing, missing
