"""Gradient cases of csrc/eager/grad_nn_extra.c: 3-D convolution and pooling,
the 2-D convolution backprops, the pooling gradient ops (second order),
MaxPoolWithArgmax, Dilation2D, FusedBatchNorm*, BiasAddGrad and the
activation-gradient ops (SeluGrad, SoftplusGrad, TanhGrad, SqrtGrad,
RsqrtGrad, ReciprocalGrad, InvGrad).

Ops whose CPU kernels exist only for float32 (MaxPool3D, AvgPool3D, the
3-D pooling gradients, FusedBatchNorm*) are checked against TF only. The
max-pool gradient-of-gradient ops compare elements with orig_output, so a
perturbed orig_output changes which element is picked: no central
differences for them either.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from _common import Rng, c, c128, case, d, f32

R = Rng("nn_extra")
arr = R.arr
dist = R.distinct


def _pool(x: np.ndarray, ks: list[int], st: list[int], pad: str) -> np.ndarray:
    """Max pooling of a channels-last array (padding never wins)."""
    import itertools

    sp = x.shape[1:-1]
    osz, pb = [], []
    for n, k, s in zip(sp, ks[1:-1], st[1:-1], strict=True):
        o = -(-n // s) if pad == "SAME" else (n - k) // s + 1
        osz.append(o)
        pb.append(max((o - 1) * s + k - n, 0) // 2 if pad == "SAME" else 0)
    out = np.zeros((x.shape[0], *osz, x.shape[-1]))
    for pos in itertools.product(*[range(o) for o in osz]):
        sl = tuple(slice(max(p * s - b, 0), min(p * s - b + k, n))
                   for p, s, b, k, n in zip(pos, st[1:-1], pb, ks[1:-1], sp, strict=True))
        win = x[(slice(None), *sl, slice(None))]
        out[(slice(None), *pos, slice(None))] = win.reshape(x.shape[0], -1, x.shape[-1]).max(1)
    return out


X2 = dist((1, 4, 5, 2))
P2 = {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1], "padding": "SAME"}
Y2 = _pool(X2, P2["ksize"], P2["strides"], "SAME")
X3 = dist((1, 3, 4, 4, 2))
P3 = {"ksize": [1, 2, 2, 2, 1], "strides": [1, 1, 2, 2, 1], "padding": "SAME"}
Y3 = _pool(X3, P3["ksize"], P3["strides"], "SAME")

BN_X = arr((2, 3, 3, 4))
BN_C = (4,)


def _bn(name: str, op: str, train: bool, fmt: str = "NHWC") -> dict[str, Any]:
    x = BN_X if fmt == "NHWC" else np.transpose(BN_X, (0, 3, 1, 2))
    ins: dict[str, Any] = {
        "x": f32(x), "scale": f32(arr(BN_C, 0.5, 1.5)), "offset": f32(arr(BN_C)),
        "mean": f32(arr(BN_C) if not train else np.zeros(BN_C)),
        "variance": f32(arr(BN_C, 0.5, 1.5) if not train else np.ones(BN_C)),
    }
    if train:
        # training ignores the mean/variance inputs (they must be empty or
        # of C values): not watched
        ins["mean"] = c(np.zeros(BN_C), "float32")
        ins["variance"] = c(np.ones(BN_C), "float32")
    return case(name, op, ins, {"is_training": train, "epsilon": 0.001, "data_format": fmt},
                rtol=1e-4, atol=1e-5)


def _bn_grad(name: str, op: str, train: bool, fmt: str = "NHWC") -> dict[str, Any]:
    """FusedBatchNormGrad*: second order (gradients of the three outputs)."""
    x = BN_X if fmt == "NHWC" else np.transpose(BN_X, (0, 3, 1, 2))
    axes = (0, 1, 2) if fmt == "NHWC" else (0, 2, 3)
    if train:
        m, v = x.mean(axis=axes), x.var(axis=axes)
    else:
        m, v = arr(BN_C), arr(BN_C, 0.5, 1.5)
    ins: dict[str, Any] = {
        "y_backprop": f32(arr(x.shape)), "x": f32(x), "scale": f32(arr(BN_C, 0.5, 1.5)),
        "reserve_space_1": c(m, "float32"), "reserve_space_2": c(v, "float32"),
    }
    if op.endswith("V3"):
        ins["reserve_space_3"] = c(np.zeros(0), "float32")
    return case(name, op, ins, {"is_training": train, "epsilon": 0.001, "data_format": fmt},
                outputs=[0, 1, 2], rtol=1e-4, atol=1e-4)


CASES: list[dict[str, Any]] = [
    # ---- 3-D convolution ----
    case("conv3d_same", "Conv3D",
         {"input": d(arr((1, 3, 4, 4, 2))), "filter": d(arr((2, 2, 3, 2, 3)))},
         {"strides": [1, 1, 2, 1, 1], "padding": "SAME"}),
    case("conv3d_valid", "Conv3D",
         {"input": d(arr((2, 3, 3, 4, 1))), "filter": d(arr((2, 2, 2, 1, 2)))},
         {"strides": [1, 1, 1, 2, 1], "padding": "VALID"}),
    case("conv3d_bp_input", "Conv3DBackpropInputV2",
         {"input_sizes": c([1, 3, 4, 4, 2]), "filter": d(arr((2, 2, 3, 2, 3))),
          "out_backprop": d(arr((1, 3, 2, 4, 3)))},
         {"strides": [1, 1, 2, 1, 1], "padding": "SAME"}),
    case("conv3d_bp_filter", "Conv3DBackpropFilterV2",
         {"input": d(arr((1, 3, 4, 4, 2))), "filter_sizes": c([2, 2, 3, 2, 3]),
          "out_backprop": d(arr((1, 3, 2, 4, 3)))},
         {"strides": [1, 1, 2, 1, 1], "padding": "SAME"}),
    # ---- 2-D convolution backprops ----
    case("conv2d_bp_filter", "Conv2DBackpropFilter",
         {"input": d(arr((1, 5, 5, 2))), "filter_sizes": c([3, 3, 2, 3]),
          "out_backprop": d(arr((1, 3, 3, 3)))},
         {"strides": [1, 2, 2, 1], "padding": "SAME"}),
    case("conv2d_bp_filter_valid", "Conv2DBackpropFilter",
         {"input": d(arr((2, 4, 5, 1))), "filter_sizes": c([2, 2, 1, 2]),
          "out_backprop": d(arr((2, 3, 2, 2)))},
         {"strides": [1, 1, 2, 1], "padding": "VALID"}),
    case("depthwise_bp_input", "DepthwiseConv2dNativeBackpropInput",
         {"input_sizes": c([1, 5, 5, 2]), "filter": d(arr((3, 3, 2, 2))),
          "out_backprop": d(arr((1, 3, 3, 4)))},
         {"strides": [1, 1, 1, 1], "padding": "VALID"}),
    case("depthwise_bp_filter", "DepthwiseConv2dNativeBackpropFilter",
         {"input": d(arr((2, 4, 4, 1))), "filter_sizes": c([2, 2, 1, 3]),
          "out_backprop": d(arr((2, 2, 2, 3)))},
         {"strides": [1, 2, 2, 1], "padding": "SAME"}),
    # ---- pooling ----
    case("max_pool3d", "MaxPool3D", {"input": f32(X3)}, P3),
    case("max_pool3d_valid", "MaxPool3D", {"input": f32(dist((2, 3, 3, 2, 1)))},
         {"ksize": [1, 2, 2, 1, 1], "strides": [1, 1, 1, 1, 1], "padding": "VALID"}),
    case("avg_pool3d", "AvgPool3D", {"input": f32(arr((1, 3, 4, 4, 2)))}, P3),
    case("avg_pool3d_valid", "AvgPool3D", {"input": f32(arr((2, 3, 3, 2, 1)))},
         {"ksize": [1, 2, 2, 1, 1], "strides": [1, 1, 1, 1, 1], "padding": "VALID"}),
    case("max_pool_grad", "MaxPoolGrad",
         {"orig_input": d(X2), "orig_output": d(Y2), "grad": d(arr(Y2.shape))}, P2),
    case("max_pool_grad_v2", "MaxPoolGradV2",
         {"orig_input": d(X2), "orig_output": d(Y2), "grad": d(arr(Y2.shape)),
          "ksize": c(P2["ksize"]), "strides": c(P2["strides"])}, {"padding": "SAME"}),
    case("max_pool_grad_grad", "MaxPoolGradGrad",
         {"orig_input": d(X2), "orig_output": d(Y2), "grad": d(arr(X2.shape))}, P2,
         numeric=False),
    case("max_pool3d_grad", "MaxPool3DGrad",
         {"orig_input": f32(X3), "orig_output": f32(Y3), "grad": f32(arr(Y3.shape))}, P3),
    case("max_pool3d_grad_grad", "MaxPool3DGradGrad",
         {"orig_input": f32(X3), "orig_output": f32(Y3), "grad": f32(arr(X3.shape))}, P3),
    case("avg_pool_grad", "AvgPoolGrad",
         {"orig_input_shape": c([1, 4, 5, 2]), "grad": d(arr(Y2.shape))}, P2),
    case("avg_pool3d_grad", "AvgPool3DGrad",
         {"orig_input_shape": c([1, 3, 4, 4, 2]), "grad": f32(arr(Y3.shape))}, P3),
    case("max_pool_with_argmax", "MaxPoolWithArgmax", {"input": d(dist((2, 4, 5, 2)))},
         {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1], "padding": "SAME"}),
    case("max_pool_with_argmax_batch", "MaxPoolWithArgmax", {"input": d(dist((2, 4, 4, 1)))},
         {"ksize": [1, 3, 2, 1], "strides": [1, 1, 2, 1], "padding": "VALID",
          "include_batch_in_index": True}),
    # ---- dilation ----
    case("dilation2d_valid", "Dilation2D",
         {"input": d(dist((1, 5, 5, 2))), "filter": d(dist((2, 3, 2), -0.1, 0.1))},
         {"strides": [1, 1, 1, 1], "rates": [1, 1, 1, 1], "padding": "VALID"}),
    case("dilation2d_same_rate", "Dilation2D",
         {"input": d(dist((2, 5, 4, 1))), "filter": d(dist((2, 2, 1), -0.1, 0.1))},
         {"strides": [1, 2, 1, 1], "rates": [1, 1, 2, 1], "padding": "SAME"}),
    # ---- batch normalization ----
    _bn("fused_bn_train", "FusedBatchNorm", True),
    _bn("fused_bn_infer", "FusedBatchNorm", False),
    _bn("fused_bn_v2_train", "FusedBatchNormV2", True),
    _bn("fused_bn_v2_infer", "FusedBatchNormV2", False),
    _bn("fused_bn_v3_train", "FusedBatchNormV3", True),
    _bn("fused_bn_v3_infer", "FusedBatchNormV3", False),
    _bn("fused_bn_v3_train_nchw", "FusedBatchNormV3", True, "NCHW"),
    _bn("fused_bn_v3_infer_nchw", "FusedBatchNormV3", False, "NCHW"),
    _bn_grad("fused_bn_grad_train", "FusedBatchNormGrad", True),
    _bn_grad("fused_bn_grad_infer", "FusedBatchNormGrad", False),
    _bn_grad("fused_bn_grad_v2_train", "FusedBatchNormGradV2", True),
    _bn_grad("fused_bn_grad_v2_infer", "FusedBatchNormGradV2", False),
    _bn_grad("fused_bn_grad_v3_train_nchw", "FusedBatchNormGradV3", True, "NCHW"),
    _bn_grad("fused_bn_grad_v3_infer", "FusedBatchNormGradV3", False),
    # ---- BiasAddGrad ----
    case("bias_add_grad_nhwc", "BiasAddGrad", {"out_backprop": d(arr((2, 3, 4)))}),
    case("bias_add_grad_nchw", "BiasAddGrad", {"out_backprop": d(arr((2, 3, 2, 2)))},
         {"data_format": "NCHW"}),
    # ---- activation gradients (second order) ----
    case("selu_grad", "SeluGrad",
         {"gradients": d(arr((2, 3))), "outputs": d([[0.5, -0.3, 1.2], [-1.0, 0.7, -0.2]])}),
    case("softplus_grad", "SoftplusGrad",
         {"gradients": d(arr((2, 3))), "features": d(arr((2, 3)))}),
    case("tanh_grad", "TanhGrad", {"y": d(arr((2, 3), -0.9, 0.9)), "dy": d(arr((2, 3)))}),
    case("tanh_grad_c128", "TanhGrad", {"y": c128(R.carr((3,), -0.5, 0.5)),
                                        "dy": c128(R.carr((3,)))}),
    case("sqrt_grad", "SqrtGrad", {"y": d(arr((2, 3), 0.5, 2.0)), "dy": d(arr((2, 3)))}),
    case("rsqrt_grad", "RsqrtGrad", {"y": d(arr((2, 3), 0.5, 2.0)), "dy": d(arr((2, 3)))}),
    case("rsqrt_grad_c128", "RsqrtGrad", {"y": c128(R.carr((3,), 0.5, 1.0)),
                                          "dy": c128(R.carr((3,)))}),
    case("reciprocal_grad", "ReciprocalGrad",
         {"y": d(arr((2, 3), 0.5, 2.0)), "dy": d(arr((2, 3)))}),
    case("reciprocal_grad_c128", "ReciprocalGrad", {"y": c128(R.carr((3,))),
                                                    "dy": c128(R.carr((3,)))}),
    case("inv_grad", "InvGrad", {"y": d(arr((2, 3), 0.5, 2.0)), "dy": d(arr((2, 3)))}),
]
