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
         {"depth_radius": 2, "bias": 1.0, "alpha": 0.5, "beta": 0.75},
         numeric=True),
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


# ---- activations: float64 away from their kinks, float32, float16 for a few
_SMOOTH = [-1.4, -0.9, -0.35, 0.2, 0.65, 1.3]  # no value near 0
_ACT: dict[str, dict[str, Any]] = {
    "Relu": {},
    "Relu6": {},
    "Elu": {},
    "Selu": {},
    "LeakyRelu": {"alpha": 0.25},
    "Softplus": {},
    "Softsign": {},
}


def _activations() -> list[dict[str, Any]]:
    out = []
    for op, attrs in _ACT.items():
        low = op.lower()
        x = np.array(_SMOOTH).reshape(2, 3) * (1.0 + 0.1 * R.gen.uniform(size=(2, 3)))
        out.append(case(f"{low}_f64", op, {"features": d(x)}, attrs))
        out.append(case(f"{low}_f32", op, {"features": f32(R.gen.permutation(_SMOOTH))}, attrs))
        if op in ("Relu", "Elu", "Softplus"):
            out.append(case(f"{low}_f16", op, {"features": d(_SMOOTH[:4], "float16")}, attrs))
    out += [
        case("relu6_above_six", "Relu6", {"features": d([[-0.5, 2.0, 6.5], [7.0, 5.5, 0.3]])}),
        case("relu_at_zero", "Relu", {"features": d([0.0, -1.0, 1.0])}, numeric=False),
        case("leaky_relu_default_alpha", "LeakyRelu", {"features": d(arr((2, 3)))},
             numeric=False),
        case("elu_large", "Elu", {"features": d([[-4.0, -2.5], [3.0, 0.4]])}),
        case("selu_large", "Selu", {"features": d([[-4.0, -2.5], [3.0, 0.4]])}),
        case("softplus_wide", "Softplus", {"features": d([-30.0, -5.0, 5.0, 30.0])}),
    ]
    return out


# ---- softmax family, BiasAdd, cross entropies
def _softmax_bias_xent() -> list[dict[str, Any]]:
    labels = R.gen.dirichlet(np.ones(4), size=3)
    return [
        case("softmax_2d", "Softmax", {"logits": d(arr((3, 4)))}),
        case("softmax_3d", "Softmax", {"logits": d(arr((2, 2, 3)))}),
        case("softmax_1d_f32", "Softmax", {"logits": f32(arr((5,)))}),
        case("log_softmax_2d", "LogSoftmax", {"logits": d(arr((3, 4)))}),
        case("log_softmax_3d", "LogSoftmax", {"logits": d(arr((2, 1, 3)))}),
        case("log_softmax_f32", "LogSoftmax", {"logits": f32(arr((2, 3)))}),
        case("bias_add_nhwc", "BiasAdd", {"value": d(arr((2, 3, 4))), "bias": d(arr((4,)))}),
        case("bias_add_nchw", "BiasAdd", {"value": d(arr((2, 3, 2, 2))), "bias": d(arr((3,)))},
             {"data_format": "NCHW"}),
        case("bias_add_2d_f32", "BiasAdd", {"value": f32(arr((3, 2))), "bias": f32(arr((2,)))}),
        case("bias_add_c128", "BiasAdd", {"value": d(R.carr((2, 3)), "complex128"),
                                          "bias": d(R.carr((3,)), "complex128")}),
        case("xent_loss", "SoftmaxCrossEntropyWithLogits",
             {"features": d(arr((3, 4))), "labels": d(labels)}),
        # through the backprop output TF sends labels nothing (zeros when
        # only backprop is used): labels are constants where checked numerically
        case("xent_loss_and_backprop", "SoftmaxCrossEntropyWithLogits",
             {"features": d(arr((3, 4))), "labels": c(labels, "float64")}, outputs=[0, 1]),
        case("xent_backprop_only", "SoftmaxCrossEntropyWithLogits",
             {"features": d(arr((2, 3))), "labels": c(R.gen.dirichlet(np.ones(3), size=2),
                                                      "float64")}, outputs=[1]),
        case("xent_backprop_only_labels_watched", "SoftmaxCrossEntropyWithLogits",
             {"features": d(arr((2, 3))), "labels": d(R.gen.dirichlet(np.ones(3), size=2))},
             outputs=[1], numeric=False),
        # TF gives (1, 4) labels a (3, 4) gradient (not reduced): not the
        # derivative, but tfe gives the same
        case("xent_broadcast_labels", "SoftmaxCrossEntropyWithLogits",
             {"features": d(arr((3, 4))), "labels": d(labels[:1])}, numeric=False),
        case("xent_f32", "SoftmaxCrossEntropyWithLogits",
             {"features": f32(arr((2, 3))), "labels": f32(R.gen.dirichlet(np.ones(3), size=2))}),
        case("sparse_xent_loss", "SparseSoftmaxCrossEntropyWithLogits",
             {"features": d(arr((3, 4))), "labels": c([0, 3, 1])}),
        case("sparse_xent_loss_and_backprop", "SparseSoftmaxCrossEntropyWithLogits",
             {"features": d(arr((3, 4))), "labels": c([2, 2, 0], "int64")}, outputs=[0, 1]),
        case("sparse_xent_f32", "SparseSoftmaxCrossEntropyWithLogits",
             {"features": f32(arr((2, 5))), "labels": c([4, 0])}),
    ]


# ---- convolutions and pools in float32; *Grad ops with smooth inputs
def _more_nn() -> list[dict[str, Any]]:
    return [
        case("depthwise_f32", "DepthwiseConv2dNative",
             {"input": f32(arr((1, 4, 4, 2))), "filter": f32(arr((2, 2, 2, 1)))},
             {"strides": [1, 1, 1, 1], "padding": "SAME"}),
        case("avg_pool_f32", "AvgPool", {"value": f32(arr((1, 4, 4, 1)))},
             {"ksize": [1, 2, 2, 1], "strides": [1, 1, 1, 1], "padding": "VALID"}),
        case("max_pool_distinct_stride1", "MaxPool", {"input": d(R.distinct((1, 4, 4, 1)))},
             {"ksize": [1, 2, 2, 1], "strides": [1, 1, 1, 1], "padding": "SAME"}),
        case("l2_loss_f32", "L2Loss", {"t": f32(arr((5,)))}),
        case("lrn_radius1", "LRN", {"input": f32(arr((1, 1, 2, 4)))},
             {"depth_radius": 1, "bias": 2.0, "alpha": 0.3, "beta": 0.5},
             numeric=True),  # float32 central differences: LRN has no float64 kernel
        case("conv2d_backprop_input_valid", "Conv2DBackpropInput",
             {"input_sizes": c([1, 4, 4, 1]), "filter": d(arr((2, 2, 1, 2))),
              "out_backprop": d(arr((1, 3, 3, 2)))},
             {"strides": [1, 1, 1, 1], "padding": "VALID"}),
        case("sigmoid_grad_f32", "SigmoidGrad", {"y": f32(arr((3,), 0.1, 0.9)),
                                                 "dy": f32(arr((3,)))}),
        case("elu_grad_positive", "EluGrad", {"gradients": d(arr((2, 2))),
                                              "outputs": d([[0.5, 1.2], [2.0, 0.1]])}),
    ]


CASES += _activations() + _softmax_bias_xent() + _more_nn()
