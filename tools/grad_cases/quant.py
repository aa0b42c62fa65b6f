"""Gradient cases of csrc/eager/grad_quant.c (fake quantization).

The ops are float32 only and their gradient is the straight-through
estimator (not the true derivative), so there is no numeric check: tfe's
tape and graph gradients are compared with TF 2.21's."""

from __future__ import annotations

from typing import Any

import numpy as np
from _common import Rng, case, f32

R = Rng("quant")
arr = R.arr


def _x(shape: tuple[int, ...], lo: float, hi: float) -> Any:
    # values inside and outside the range, none exactly on its edges
    return np.asarray(arr(shape, lo, hi), np.float32)


CASES: list[dict[str, Any]] = [
    case("args_default", "FakeQuantWithMinMaxArgs", {"inputs": f32(_x((2, 5), -8, 8))}),
    case("args_narrow", "FakeQuantWithMinMaxArgs", {"inputs": f32(_x((7,), -1.5, 1.5))},
         {"min": -1.0, "max": 0.5, "num_bits": 4, "narrow_range": True}),
    case("vars_basic", "FakeQuantWithMinMaxVars",
         {"inputs": f32(_x((3, 4), -2, 2)), "min": f32(-1.0), "max": f32(1.25)}),
    case("vars_bits", "FakeQuantWithMinMaxVars",
         {"inputs": f32(_x((9,), -1, 3)), "min": f32(-0.3), "max": f32(2.1)},
         {"num_bits": 5, "narrow_range": True}),
    case("vars_zero_range", "FakeQuantWithMinMaxVars",
         {"inputs": f32(_x((4,), -1, 1)), "min": f32(0.0), "max": f32(0.0)}),
    case("per_channel", "FakeQuantWithMinMaxVarsPerChannel",
         {"inputs": f32(_x((4, 3), -2, 2)), "min": f32([-1.0, -0.5, 0.0]),
          "max": f32([1.0, 0.25, 0.0])}),
    case("per_channel_rank3", "FakeQuantWithMinMaxVarsPerChannel",
         {"inputs": f32(_x((2, 3, 2), -3, 3)), "min": f32([-1.0, -2.5]),
          "max": f32([1.5, 0.5])}, {"num_bits": 3}),
]
