"""nn, image and spectral kernels against TF 2.21's outputs and errors
(tests/data/coverage_nn_image_tf221.json, written by
tools/record_coverage_nn_image.py), and every CPU dtype TF registers for
them has a recorded case."""

from __future__ import annotations

from typing import Any

import pytest
from coverage_common import check_case, check_dtype_coverage, ids, load

_CASES = load("nn_image")
_DTYPE_OPS = [
    ("InTopK", "T"), ("InTopKV2", "T"), ("SoftsignGrad", "T"), ("LRNGrad", "T"),
    ("Dilation2DBackpropInput", "T"), ("Dilation2DBackpropFilter", "T"),
    ("MaxPoolGradGradV2", "T"), ("MaxPoolGradWithArgmax", "T"), ("AdjustSaturation", "T"),
    ("HSVToRGB", "T"), ("DrawBoundingBoxes", "T"), ("ResizeBilinearGrad", "T"),
    ("ResizeNearestNeighborGrad", "T"), ("SampleDistortedBoundingBoxV2", "T"),
]


@pytest.mark.parametrize("cs", _CASES, ids=ids(_CASES))
def test_matches_tf(cs: dict[str, Any]) -> None:
    check_case(cs)


@pytest.mark.parametrize("op,attr", _DTYPE_OPS)
def test_every_tf_dtype_recorded(op: str, attr: str) -> None:
    check_dtype_coverage(_CASES, op, attr)
