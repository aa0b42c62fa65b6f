"""Gradient cases: NN ops: convolutions, pooling, activations and their *Grad ops, losses
(csrc/eager/grad_nn.c, grad_math.c).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from _common import Rng, c, case, d, f32

R = Rng("nn")
arr = R.arr
POS = arr((2, 3), 0.3, 1.4)
TIES = np.array([[1.0, 3.0, 3.0, 0.5], [2.0, 2.0, -1.0, 2.0], [0.0, 0.1, 0.2, 0.3]])

CASES: list[dict[str, Any]] = [
    case("conv2d_same_stride2", "Conv2D",
         {"input": d(arr((1, 5, 5, 2))), "filter": d(arr((3, 3, 2, 3)))},
         {"strides": [1, 2, 2, 1], "padding": "SAME"}),
    case("conv2d_valid_stride", "Conv2D",
         {"input": d(arr((2, 6, 5, 1))), "filter": d(arr((2, 2, 1, 2)))},
         {"strides": [1, 2, 1, 1], "padding": "VALID"}),
    case("conv2d_explicit", "Conv2D",
         {"input": d(arr((1, 4, 4, 2))), "filter": d(arr((2, 3, 2, 2)))},
         {"strides": [1, 1, 2, 1], "padding": "EXPLICIT",
          "explicit_paddings": [0, 0, 1, 0, 2, 1, 0, 0]}),
    case("conv2d_f32", "Conv2D",
         {"input": f32(arr((1, 4, 4, 1))), "filter": f32(arr((2, 2, 1, 2)))},
         {"strides": [1, 1, 1, 1], "padding": "SAME"}, numeric=False),
    case("depthwise_valid", "DepthwiseConv2dNative",
         {"input": d(arr((1, 5, 5, 2))), "filter": d(arr((3, 3, 2, 2)))},
         {"strides": [1, 1, 1, 1], "padding": "VALID"}),
    case("depthwise_same_stride2", "DepthwiseConv2dNative",
         {"input": d(arr((2, 4, 4, 1))), "filter": d(arr((2, 2, 1, 3)))},
         {"strides": [1, 2, 2, 1], "padding": "SAME"}),
    case("max_pool_valid", "MaxPool", {"input": d(arr((1, 4, 4, 2)))},
         {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1], "padding": "VALID"}),
    case("max_pool_same", "MaxPool", {"input": d(arr((2, 5, 5, 1)))},
         {"ksize": [1, 3, 3, 1], "strides": [1, 1, 1, 1], "padding": "SAME"}),
    case("max_pool_f32", "MaxPool", {"input": f32(arr((1, 3, 3, 1)))},
         {"ksize": [1, 2, 2, 1], "strides": [1, 1, 1, 1], "padding": "VALID"}, numeric=False),
    case("avg_pool_same", "AvgPool", {"value": d(arr((1, 5, 5, 2)))},
         {"ksize": [1, 3, 3, 1], "strides": [1, 2, 2, 1], "padding": "SAME"}),
    case("avg_pool_valid", "AvgPool", {"value": d(arr((2, 4, 4, 1)))},
         {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1], "padding": "VALID"}),
    case("l2_loss", "L2Loss", {"t": d(arr((3, 4)))}),
    case("lrn", "LRN", {"input": f32(arr((1, 2, 2, 5)))},
         {"depth_radius": 2, "bias": 1.0, "alpha": 0.5, "beta": 0.75}),
    case("max_pool_v2", "MaxPoolV2", {"input": d(arr((1, 4, 4, 1))), "ksize": c([1, 2, 2, 1]),
                                      "strides": c([1, 2, 2, 1])}, {"padding": "VALID"}),
    case("conv2d_backprop_input", "Conv2DBackpropInput",
         {"input_sizes": c([1, 5, 5, 2]), "filter": d(arr((3, 3, 2, 3))),
          "out_backprop": d(arr((1, 3, 3, 3)))},
         {"strides": [1, 2, 2, 1], "padding": "SAME"}),
    case("sigmoid_grad", "SigmoidGrad", {"y": d(arr((2, 3), 0.1, 0.9)), "dy": d(arr((2, 3)))}),
    case("relu_grad", "ReluGrad", {"gradients": d(arr((2, 3))),
                                   "features": d([[0.5, -0.3, 1.2], [-1.0, 0.7, -0.2]])}),
    case("relu6_grad", "Relu6Grad", {"gradients": d(arr((2, 3))),
                                     "features": d([[0.5, -0.3, 6.2], [-1.0, 5.7, 3.0]])}),
    case("leaky_relu_grad", "LeakyReluGrad",
         {"gradients": d(arr((2, 3))), "features": d([[0.5, -0.3, 1.2], [-1.0, 0.7, -0.2]])},
         {"alpha": 0.3}),
    case("elu_grad", "EluGrad", {"gradients": d(arr((2, 3))),
                                 "outputs": d([[0.5, -0.3, 1.2], [-0.6, 0.7, -0.2]])}),]
