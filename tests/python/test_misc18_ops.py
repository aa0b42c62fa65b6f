"""The misc18 op group's CPU kernels (csrc/kernels/cpu/misc18_kernels.c)
against TF 2.21's outputs and errors for the same inputs
(tests/data/misc18_ops_tf221.json, written by tools/record_misc18_ops.py),
plus a check that every CPU dtype TF registers has a recorded case."""

from __future__ import annotations

from typing import Any

import pytest
from recorded_ops import load_cases, recorded_tests

import tfe_py as tf
from tfe_py import ops

_CASES = load_cases("misc18_ops_tf221.json")
test_output_matches_tf, test_error_matches_tf = recorded_tests(_CASES)


# TF's CPU kernel dtypes (tf_kernels.pb) per op: every one has a recorded case.
_REAL = ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
         "uint8", "uint16", "uint32", "uint64")
_KERNEL_DTYPES: dict[str, tuple[str, ...]] = {
    "TopK": _REAL,
    "NthElement": _REAL,
    "BiasAddV1": (*_REAL, "complex64", "complex128"),
    "DataFormatDimMap": ("int32", "int64"),
    "Spence": ("float32", "float64"),
    "MirrorPadGrad": (*_REAL, "complex64", "complex128"),
    "UniqueV2": (*_REAL, "bool", "string"),
    "ParallelConcat": (*_REAL, "complex64", "complex128", "bool", "string"),
    "UniqueWithCountsV2": (*_REAL, "bool", "string"),
    "InplaceUpdate": (*_REAL, "complex64", "complex128", "bool", "string"),
    "InplaceAdd": (*_REAL, "complex64", "complex128", "bool", "string"),
    "InplaceSub": (*_REAL, "complex64", "complex128", "bool", "string"),
    "DataFormatVecPermute": ("int32", "int64"),
}


@pytest.mark.parametrize("op", sorted(_KERNEL_DTYPES))
def test_every_tf_dtype_recorded(op: str) -> None:
    seen = set()
    for c in _CASES:
        if c["op"] == op:
            first = next(iter(c["inputs"].values()))
            seen.add((first[0] if isinstance(first, list) else first)["dtype"])
    missing = [d for d in _KERNEL_DTYPES[op] if d not in seen]
    assert not missing, missing


def test_shape_inference_nth_element() -> None:
    @tf.function
    def f(x: Any) -> Any:
        return ops.NthElement(input=x, n=tf.constant(1))

    cf = f.get_concrete_function(tf.TensorSpec([None, 4, 5], tf.float32))
    assert cf.outputs[0].shape == (None, 4)
