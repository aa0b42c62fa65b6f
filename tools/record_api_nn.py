#!/usr/bin/env python3
# ruff: noqa: E501  (the case expressions are data)
"""Record TensorFlow 2.21's results for the tf.nn cases of
tests/python/test_api_nn.py into tests/data/api_nn_tf221.json.

Each case is a Python expression over ``tf`` and ``np`` (inputs are numpy
arrays or ``tf.constant`` so that the cases need nothing but ``tf.nn``); the
recorder evaluates it with TensorFlow and stores the result (values, dtype
name and shape; tuple results store each part) or the error class. The
test evaluates the same expressions with ``import tfe_py as tf`` and
compares them exactly. TensorFlow is never needed to run the tests.

    /work/tfvenv/bin/python tools/record_api_nn.py
"""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "api_nn_tf221.json"

_V = "np.array([-2.0, -0.5, 0.0, 0.5, 2.0, 7.0], np.float32)"
_IMG = "np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2) / 4"
_IMG5 = "np.arange(50, dtype=np.float32).reshape(1, 5, 5, 2) / 7"
_K = "np.linspace(-1, 1, 36).astype(np.float32).reshape(3, 3, 2, 2)"
_K2 = "np.linspace(-1, 1, 16).astype(np.float32).reshape(2, 2, 2, 2)"
_SEQ = "np.arange(16, dtype=np.float32).reshape(2, 8, 1) / 3"
_VOL = "np.sin(np.arange(120, dtype=np.float32)).reshape(1, 4, 5, 3, 2)"
_K3 = "np.cos(np.arange(48, dtype=np.float32)).reshape(2, 2, 2, 2, 3)"
_DF = "np.array([[[0.5, -1.0], [0.0, 0.25]], [[-0.5, 1.0], [2.0, 0.0]]], np.float32)"
_W = "np.cos(np.arange(18, dtype=np.float32)).reshape(6, 3)"
_B = "np.linspace(-0.5, 0.5, 6).astype(np.float32)"
_IN = "np.sin(np.arange(6, dtype=np.float32)).reshape(2, 3)"
_SV = "(np.array([0, 4, 5], np.int64), np.array([[0.4], [0.2]], np.float32), np.array([0.5, 0.2, 0.1], np.float32))"
_CTC = "(np.sin(np.arange(60, dtype=np.float32) * 0.7).reshape(6, 2, 5) * 2)"
_L = "np.linspace(-3, 3, 24).astype(np.float32).reshape(4, 6)"
_LAB = "np.abs(np.sin(np.arange(24, dtype=np.float32))).reshape(4, 6)"

CASES: list[str] = [
    # activations
    f"tf.nn.relu({_V})",
    "tf.nn.relu(np.array([-3, 4], np.int32))",
    f"tf.nn.relu6({_V} * 2)",
    f"tf.nn.leaky_relu({_V})",
    f"tf.nn.leaky_relu({_V}, alpha=0.01)",
    "tf.nn.leaky_relu(np.array([-3, 4], np.int32))",
    f"tf.nn.elu({_V})",
    f"tf.nn.selu({_V})",
    f"tf.nn.gelu({_V})",
    f"tf.nn.gelu({_V}, approximate=True)",
    "tf.nn.gelu(np.array([-1.0, 0.25, 3.0]))",
    "tf.nn.gelu(np.array([1, 2], np.int32))",
    f"tf.nn.silu({_V})",
    f"tf.nn.silu({_V}, beta=0.5)",
    f"tf.nn.swish({_V})",
    f"tf.nn.softsign({_V})",
    f"tf.nn.softplus({_V})",
    f"tf.nn.crelu({_V}.reshape(2, 3))",
    f"tf.nn.crelu({_V}.reshape(2, 3), axis=0)",
    f"tf.nn.sigmoid({_V})",
    f"tf.nn.tanh({_V})",
    # softmax
    f"tf.nn.softmax({_L})",
    f"tf.nn.softmax({_L}, axis=0)",
    f"tf.nn.log_softmax({_L})",
    f"tf.nn.log_softmax({_L}, axis=-2)",
    "tf.nn.softmax(np.linspace(-4, 4, 60).astype(np.float32).reshape(3, 4, 5), axis=1)",
    "tf.nn.softmax(np.linspace(-9, 9, 300).astype(np.float32).reshape(3, 100))",
    "tf.nn.log_softmax(np.linspace(-9, 9, 340).astype(np.float32).reshape(10, 34))",
    "tf.nn.softmax(np.array([[1.0, 2.0], [3.0, 5.0]]))",
    "tf.nn.softmax(np.linspace(-150, 150, 111).astype(np.float32).reshape(3, 37) * np.array([1, 0.6, 0.3], np.float32)[:, None])",
    "tf.nn.log_softmax(np.linspace(-150, 150, 111).astype(np.float32).reshape(3, 37) * np.array([1, 0.6, 0.3], np.float32)[:, None])",
    "tf.nn.softmax(np.array([[np.inf, 1.0, 2.0], [-np.inf, 0.0, 1.0], [np.nan, 0.0, 1.0]], np.float32))",
    "tf.nn.log_softmax(np.array([[-np.inf, 0.0, 1.0], [88.0, -88.0, 0.0]], np.float32))",
    f"tf.nn.softmax({_L}, axis=2)",
    # convolution
    f"tf.nn.conv2d({_IMG}, {_K}, strides=1, padding='VALID')",
    f"tf.nn.conv2d({_IMG}, {_K}, strides=2, padding='SAME')",
    f"tf.nn.conv2d({_IMG}, {_K}, strides=[1, 1], padding=[[0, 0], [1, 0], [0, 1], [0, 0]])",
    f"tf.nn.conv2d({_IMG5}, {_K2}, strides=1, padding='VALID', dilations=2)",
    f"tf.nn.conv2d({_IMG}, {_K}, strides=[1, 1, 1], padding='SAME')",
    f"tf.nn.conv2d({_IMG}, {_K}, strides=1, padding='EXPLICIT')",
    f"tf.nn.conv2d({_IMG}, {_K}, strides=1, padding=[[0, 0], [1, 1]])",
    f"tf.nn.conv2d(np.stack([{_IMG}, {_IMG} + 1]), {_K}, strides=1, padding='SAME')",
    f"tf.nn.conv2d({_IMG}, np.ones([3, 3, 3, 1], np.float32), 1, 'VALID')",
    f"tf.nn.conv1d({_SEQ}, np.array([[[1.0]], [[-2.0]], [[0.5]]], np.float32), stride=2, padding='SAME')",
    f"tf.nn.conv1d({_SEQ}, np.array([[[1.0]], [[-2.0]]], np.float32), stride=1, padding='VALID', dilations=3)",
    f"tf.nn.conv1d({_SEQ}, np.array([[[1.0]], [[-2.0]]], np.float32), stride=1, padding='SAME', data_format='NCW')",
    f"tf.nn.convolution({_IMG5}, {_K2}, padding='SAME', dilations=2)",
    f"tf.nn.convolution({_IMG5}, {_K2}, padding='VALID', dilations=[2, 1])",
    f"tf.nn.convolution({_SEQ}, np.array([[[1.0]], [[-2.0]]], np.float32), padding='SAME', dilations=[2])",
    f"tf.nn.convolution({_IMG}, {_K}, strides=2, padding='SAME')",
    f"tf.nn.convolution({_IMG5}, {_K2}, strides=2, padding='SAME', dilations=2)",
    f"tf.nn.atrous_conv2d({_IMG5}, {_K2}, rate=2, padding='SAME')",
    f"tf.nn.atrous_conv2d({_IMG5}, {_K2}, rate=2, padding='VALID')",
    f"tf.nn.conv2d_transpose({_IMG}, {_K}, output_shape=[1, 8, 8, 2], strides=2, padding='SAME')",
    f"tf.nn.conv2d_transpose({_IMG}, {_K}, output_shape=[1, 6, 6, 2], strides=1, padding='VALID')",
    f"tf.nn.conv_transpose({_IMG}, {_K}, output_shape=[1, 8, 8, 2], strides=2)",
    f"tf.nn.conv1d_transpose({_SEQ}, np.ones([3, 2, 1], np.float32), output_shape=[2, 16, 2], strides=2)",
    f"tf.nn.atrous_conv2d_transpose({_IMG}, {_K2}, output_shape=[1, 4, 4, 2], rate=2, padding='SAME')",
    f"tf.nn.atrous_conv2d_transpose({_IMG}, {_K2}, output_shape=[1, 6, 6, 2], rate=2, padding='VALID')",
    f"tf.nn.depthwise_conv2d({_IMG}, {_K}, strides=[1, 1, 1, 1], padding='SAME')",
    f"tf.nn.depthwise_conv2d({_IMG5}, {_K2}, strides=[1, 1, 1, 1], padding='VALID', dilations=[2, 2])",
    f"tf.nn.depthwise_conv2d({_IMG5}, {_K2}, strides=[1, 2, 2, 1], padding='SAME')",
    f"tf.nn.separable_conv2d({_IMG}, {_K}, np.ones([1, 1, 4, 3], np.float32) / 2, strides=[1, 1, 1, 1], padding='SAME')",
    f"tf.nn.separable_conv2d({_IMG}, {_K}, np.ones([2, 1, 4, 3], np.float32), strides=[1, 1, 1, 1], padding='SAME')",
    # pooling
    f"tf.nn.max_pool2d({_IMG}, 2, 2, 'VALID')",
    f"tf.nn.max_pool2d({_IMG5}, 3, 2, 'SAME')",
    f"tf.nn.max_pool2d({_IMG}, 2, 1, [[0, 0], [1, 0], [0, 1], [0, 0]])",
    f"tf.nn.avg_pool2d({_IMG5}, 3, 2, 'SAME')",
    f"tf.nn.avg_pool2d({_IMG}, [2, 1], [1, 2], 'VALID')",
    f"tf.nn.max_pool({_IMG5}, ksize=3, strides=1, padding='SAME')",
    f"tf.nn.avg_pool({_IMG5}, ksize=[2, 2], strides=2, padding='VALID')",
    f"tf.nn.max_pool({_SEQ}, ksize=3, strides=2, padding='SAME')",
    f"tf.nn.avg_pool({_SEQ}, ksize=2, strides=1, padding='VALID')",
    f"tf.nn.max_pool1d({_SEQ}, 3, 1, 'SAME')",
    f"tf.nn.max_pool1d({_SEQ}, 2, 1, [[0, 0], [1, 1], [0, 0]])",
    f"tf.nn.avg_pool1d({_SEQ}, 3, 2, 'SAME')",
    f"tf.nn.pool({_IMG5}, [2, 2], 'MAX', padding='VALID', dilations=[2, 2])",
    f"tf.nn.pool({_IMG5}, [2, 2], 'AVG', strides=[2, 2], padding='SAME')",
    f"tf.nn.pool({_SEQ}, [2], 'AVG', padding='VALID', dilations=[3])",
    f"tf.nn.pool({_IMG5}, [2, 2], 'MAX', padding='SAME', dilations=[2, 2])",
    f"tf.nn.pool({_IMG5}, [2, 2], 'MAX', strides=[3, 3])",
    f"tf.nn.max_pool_with_argmax({_IMG}, 2, 2, 'VALID')",
    f"tf.nn.max_pool_with_argmax({_IMG5}, 2, 2, 'SAME', include_batch_in_index=True)",
    f"tf.nn.max_pool_with_argmax({_IMG}, 2, 2, 'VALID', data_format='NCHW')",
    "tf.nn.max_pool(np.ones([1, 1, 1, 1, 1, 1], np.float32), 1, 1, 'VALID')",
    f"tf.nn.max_pool2d({_IMG}, [2, 2, 2], 1, 'VALID')",
    # normalization and moments
    f"tf.nn.moments({_L}, axes=[0])",
    f"tf.nn.moments({_L}, axes=[0, 1], keepdims=True)",
    f"tf.nn.moments({_L}, axes=[-1])",
    f"tf.nn.moments({_IMG5}, axes=[0, 1, 2])",
    f"tf.nn.weighted_moments({_L}, axes=[1], frequency_weights=np.arange(6, dtype=np.float32))",
    f"tf.nn.weighted_moments({_L}, axes=[0], frequency_weights=np.zeros([4, 1], np.float32), keepdims=True)",
    f"tf.nn.sufficient_statistics({_L}, axes=[1])[:3]",
    f"tf.nn.sufficient_statistics({_L}, axes=[0], shift=1.0, keepdims=True)",
    "tf.nn.normalize_moments(tf.constant(4.0), tf.constant([8.0, 2.0]), tf.constant([20.0, 6.0]), None)",
    "tf.nn.normalize_moments(tf.constant(4.0), tf.constant([8.0, 2.0]), tf.constant([20.0, 6.0]), tf.constant(1.0))",
    f"tf.nn.batch_normalization({_L}, tf.constant(0.5), tf.constant(2.0), None, None, 1e-3)",
    f"tf.nn.batch_normalization({_L}, np.full([6], 0.25, np.float32), np.full([6], 3.0, np.float32), np.ones([6], np.float32), np.full([6], 0.5, np.float32), 1e-5)",
    f"tf.nn.batch_norm_with_global_normalization({_IMG}, np.array([1.0, 2.0], np.float32), np.array([4.0, 9.0], np.float32), np.array([0.5, 0.0], np.float32), np.array([2.0, 3.0], np.float32), 0.001, True)",
    f"tf.nn.batch_norm_with_global_normalization({_IMG}, np.array([1.0, 2.0], np.float32), np.array([4.0, 9.0], np.float32), np.array([0.5, 0.0], np.float32), np.array([2.0, 3.0], np.float32), 0.001, False)",
    f"tf.nn.l2_normalize({_L})",
    f"tf.nn.l2_normalize({_L}, axis=0)",
    f"tf.nn.l2_normalize({_L}, axis=[0, 1], epsilon=100.0)",
    "tf.nn.l2_normalize(np.array([3 + 4j, 1j], np.complex64))",
    f"tf.nn.local_response_normalization({_IMG}, depth_radius=1)",
    f"tf.nn.lrn({_IMG}, depth_radius=1, bias=2.0, alpha=0.5, beta=0.75)",
    "tf.nn.zero_fraction(np.array([0, 1, 0, 2], np.int32))",
    "tf.nn.zero_fraction(np.array([[0.0, 1.5], [0.0, 0.0]], np.float32))",
    "tf.nn.zero_fraction(np.array([True, False, False]))",
    # losses
    f"tf.nn.sigmoid_cross_entropy_with_logits(labels={_LAB}, logits={_L})",
    f"tf.nn.sigmoid_cross_entropy_with_logits(labels={_LAB}, logits={_L}[:, :3])",
    f"tf.nn.sigmoid_cross_entropy_with_logits(logits={_L})",
    f"tf.nn.weighted_cross_entropy_with_logits({_LAB}, {_L}, pos_weight=3.0)",
    f"tf.nn.weighted_cross_entropy_with_logits({_LAB}, {_L}, pos_weight=0.5)",
    f"tf.nn.log_poisson_loss({_LAB}, {_L})",
    f"tf.nn.log_poisson_loss({_LAB} * 3, {_L}, compute_full_loss=True)",
    f"tf.nn.l2_loss({_L})",
    "tf.nn.l2_loss(np.array([1.0, 2.0]))",
    f"tf.nn.softmax_cross_entropy_with_logits({_LAB}, {_L})",
    f"tf.nn.softmax_cross_entropy_with_logits({_LAB}, {_L}, axis=0)",
    f"tf.nn.softmax_cross_entropy_with_logits({_LAB}.reshape(2, 2, 6), {_L}.reshape(2, 2, 6))",
    "tf.nn.softmax_cross_entropy_with_logits(np.eye(40, dtype=np.float32)[:5], np.linspace(-5, 5, 200).astype(np.float32).reshape(5, 40))",
    f"tf.nn.softmax_cross_entropy_with_logits({_LAB}.astype(np.float64), {_L}.astype(np.float64))",
    f"tf.nn.softmax_cross_entropy_with_logits({_LAB}.astype(np.float16), {_L}.astype(np.float16))",
    f"tf.nn.sparse_softmax_cross_entropy_with_logits(np.array([0, 5, 2, 3]), {_L})",
    f"tf.nn.sparse_softmax_cross_entropy_with_logits(np.array([[0, 5], [2, 3]]), {_L}.reshape(2, 2, 6))",
    f"tf.nn.sparse_softmax_cross_entropy_with_logits(np.array([0, 6, 2, 3]), {_L})",
    f"tf.nn.sparse_softmax_cross_entropy_with_logits(np.array([0, 1]), {_L})",
    f"tf.nn.sparse_softmax_cross_entropy_with_logits(np.array(1), {_L})",
    f"tf.nn.sparse_softmax_cross_entropy_with_logits(np.array([1, 2, 0, 0], np.int64), {_L}.astype(np.float16))",
    "tf.nn.compute_average_loss(np.array([1.0, 2.0, 3.0], np.float32))",
    "tf.nn.compute_average_loss(np.array([1.0, 2.0, 3.0], np.float32), sample_weight=np.array([1.0, 0.0, 2.0], np.float32))",
    "tf.nn.compute_average_loss(np.array([1.0, 2.0, 3.0], np.float32), global_batch_size=4)",
    "tf.nn.compute_average_loss(np.array([1.0, 2.0], np.float32), global_batch_size=0)",
    "tf.nn.compute_average_loss(np.array(1.0, np.float32))",
    "tf.nn.scale_regularization_loss(np.array([1.5, 2.0], np.float32))",
    # dropout (rate 0 and argument errors: the random masks are tested elsewhere)
    f"tf.nn.dropout({_L}, rate=0.0)",
    f"tf.nn.dropout({_L}, rate=1.0)",
    f"tf.nn.dropout({_L}, rate=-0.1)",
    "tf.nn.dropout(np.array([1, 2], np.int32), rate=0.5)",
    f"tf.nn.dropout({_L}, rate='x')",
    # array helpers
    f"tf.nn.bias_add({_L}, np.arange(6, dtype=np.float32))",
    f"tf.nn.bias_add({_IMG}, np.array([1.0, -1.0], np.float32), data_format='NCHW')",
    f"tf.nn.bias_add({_IMG}, np.array([10.0, 20.0], np.float32), data_format='NWC')",
    f"tf.nn.bias_add({_IMG}, np.array([10.0, 20.0], np.float32), data_format='HWCN')",
    f"tf.nn.bias_add({_L}, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])",
    f"tf.nn.space_to_batch({_IMG}, [2, 2], [[0, 0], [0, 0]])",
    f"tf.nn.space_to_batch({_IMG5}, [2, 2], [[0, 1], [1, 0]])",
    f"tf.nn.space_to_depth({_IMG}, 2)",
    "tf.nn.depth_to_space(np.arange(16, dtype=np.float32).reshape(1, 2, 2, 4), 2)",
    "tf.nn.embedding_lookup(np.arange(12, dtype=np.float32).reshape(4, 3), [3, 0, 0])",
    "tf.nn.embedding_lookup(np.arange(12, dtype=np.float32).reshape(4, 3), [[1], [2]])",
    "tf.nn.embedding_lookup([np.arange(6, dtype=np.float32).reshape(3, 2), np.arange(6, 10, dtype=np.float32).reshape(2, 2)], [0, 1, 2, 3, 4])",
    "tf.nn.embedding_lookup(np.arange(12, dtype=np.float32).reshape(4, 3), [3, 1], max_norm=2.0)",
    "tf.nn.embedding_lookup(np.arange(12, dtype=np.float32).reshape(4, 3), [5])",
    "tf.nn.collapse_repeated(np.array([[1, 1, 2, 2, 3], [4, 4, 4, 5, 5]], np.int32), np.array([5, 3], np.int32))",
    "tf.nn.ctc_unique_labels(np.array([[3, 4, 4, 3], [1, 1, 1, 0]], np.int32))",
    # 3-D pooling and convolution, dilation2d / erosion2d (ops of the nn_extra group)
    f"tf.nn.max_pool3d({_VOL}, 2, 2, 'VALID')",
    f"tf.nn.max_pool3d({_VOL}, 3, [1, 2, 1], 'SAME')",
    f"tf.nn.avg_pool3d({_VOL}, 2, 1, 'VALID')",
    f"tf.nn.avg_pool3d({_VOL}, [2, 3, 2], 2, 'SAME')",
    f"tf.nn.avg_pool3d({_VOL}.astype(np.float64), 2, 2, 'SAME')",
    f"tf.nn.max_pool({_VOL}, ksize=2, strides=2, padding='SAME')",
    f"tf.nn.avg_pool({_VOL}, ksize=2, strides=2, padding='VALID')",
    f"tf.nn.pool({_VOL}, [2, 2, 2], 'MAX', padding='VALID', dilations=[1, 2, 1])",
    f"tf.nn.max_pool3d({_VOL}, [1, 2, 2, 2, 2], 1, 'VALID')",
    f"tf.nn.max_pool3d({_VOL}, 2, 1, 'VALID', data_format='NCDHW')",
    f"tf.nn.conv3d({_VOL}, {_K3}, [1, 1, 1, 1, 1], 'VALID')",
    f"tf.nn.conv3d({_VOL}, {_K3}, [1, 2, 1, 2, 1], 'SAME')",
    f"tf.nn.conv3d({_VOL}.astype(np.float64), {_K3}.astype(np.float64), [1, 1, 1, 1, 1], 'SAME')",
    f"tf.nn.conv3d({_VOL}, {_K3}, [1, 1, 1, 1, 1], 'VALID', dilations=[1, 2, 1, 1, 1])",
    f"tf.nn.conv3d({_VOL}, {_K3}[:, :, :, :1], [1, 1, 1, 1, 1], 'VALID')",
    f"tf.nn.conv3d({_VOL}, {_K3}, [1, 1, 1, 1], 'VALID')",
    f"tf.nn.convolution({_VOL}, {_K3}, padding='SAME')",
    f"tf.nn.convolution({_VOL}, {_K3}, padding='VALID', dilations=2)",
    f"tf.nn.conv3d(np.stack([{_VOL}, {_VOL}]), {_K3}, [1, 1, 1, 1, 1], 'VALID')",
    f"tf.nn.conv3d_transpose({_VOL}, {_K3}[..., :2].transpose(0, 1, 2, 4, 3), [1, 8, 10, 6, 2], 2)",
    f"tf.nn.conv3d_transpose({_VOL}, {_K3}[..., :2].transpose(0, 1, 2, 4, 3), [1, 5, 6, 4, 2], 1, padding='VALID')",
    f"tf.nn.conv_transpose({_VOL}, {_K3}[..., :2].transpose(0, 1, 2, 4, 3), [1, 4, 5, 3, 2], 1)",
    f"tf.nn.conv3d_transpose({_VOL}, {_K3}[..., :2].transpose(0, 1, 2, 4, 3), [1, 4, 5, 3, 2], 1, dilations=2)",
    f"tf.nn.conv3d_transpose({_VOL}, {_K3}[..., :2].transpose(0, 1, 2, 4, 3), [1, 9, 10, 6, 2], 2)",
    f"tf.nn.dilation2d({_IMG}, {_DF}, [1, 1, 1, 1], 'SAME', 'NHWC', [1, 1, 1, 1])",
    f"tf.nn.dilation2d({_IMG5}, {_DF}, [1, 2, 1, 1], 'VALID', 'NHWC', [1, 2, 2, 1])",
    f"tf.nn.dilation2d({_IMG}, {_DF}, [1, 1, 1, 1], 'SAME', 'NCHW', [1, 1, 1, 1])",
    f"tf.nn.dilation2d(({_IMG} * 4).astype(np.int32), ({_DF} * 4).astype(np.int32), [1, 1, 1, 1], 'VALID', 'NHWC', [1, 1, 1, 1])",
    f"tf.nn.dilation2d(({_IMG} * 4).astype(np.uint8), np.full([2, 2, 2], 250, np.uint8), [1, 1, 1, 1], 'SAME', 'NHWC', [1, 1, 1, 1])",
    f"tf.nn.dilation2d({_IMG}, {_DF}[:, :, :1], [1, 1, 1, 1], 'SAME', 'NHWC', [1, 1, 1, 1])",
    f"tf.nn.erosion2d({_IMG}, {_DF}, [1, 1, 1, 1], 'SAME', 'NHWC', [1, 1, 1, 1])",
    f"tf.nn.erosion2d({_IMG5}, {_DF}, [1, 1, 1, 1], 'VALID', 'NHWC', [1, 2, 1, 1])",
    # gradients of the depthwise convolution
    f"tf.nn.depthwise_conv2d_backprop_input([1, 4, 4, 2], {_K}, np.ones([1, 4, 4, 4], np.float32), [1, 1, 1, 1], 'SAME')",
    f"tf.nn.depthwise_conv2d_backprop_input([1, 5, 5, 2], {_K2}, np.cos(np.arange(36, dtype=np.float32)).reshape(1, 3, 3, 4), [1, 2, 2, 1], 'SAME')",
    f"tf.nn.depthwise_conv2d_backprop_input([1, 5, 5, 2], {_K2}, np.ones([1, 4, 4, 4], np.float32), [1, 1, 1, 1], 'VALID')",
    f"tf.nn.depthwise_conv2d_backprop_input([1, 4, 4, 2], {_K2}, np.ones([1, 5, 3, 4], np.float32), [1, 1, 1, 1], [[0, 0], [1, 1], [0, 0], [0, 0]])",
    f"tf.nn.depthwise_conv2d_backprop_input([1, 5, 5, 2], {_K2}, np.ones([1, 3, 3, 4], np.float32), [1, 1, 1, 1], 'VALID', dilations=[1, 2, 2, 1])",
    f"tf.nn.depthwise_conv2d_backprop_input([1, 4, 4, 2], {_K2}, np.ones([1, 2, 2, 4], np.float32), [1, 1, 1, 1], 'VALID')",
    f"tf.nn.depthwise_conv2d_backprop_filter({_IMG}, [3, 3, 2, 2], np.ones([1, 4, 4, 4], np.float32), [1, 1, 1, 1], 'SAME')",
    f"tf.nn.depthwise_conv2d_backprop_filter({_IMG5}, [2, 2, 2, 2], np.cos(np.arange(36, dtype=np.float32)).reshape(1, 3, 3, 4), [1, 2, 2, 1], 'SAME')",
    f"tf.nn.depthwise_conv2d_backprop_filter({_IMG5}, [2, 2, 2, 1], np.ones([1, 4, 4, 2], np.float32), [1, 1, 1, 1], 'VALID')",
    f"tf.nn.depthwise_conv2d_backprop_filter({_IMG5}, [2, 2, 2, 1], np.ones([1, 4, 4, 3], np.float32), [1, 1, 1, 1], 'VALID')",
    # isotonic regression
    "tf.nn.isotonic_regression(np.array([[1.0, 3.0, 2.0], [4.0, 1.0, 3.0]], np.float32))",
    "tf.nn.isotonic_regression(np.array([[1.0, 3.0, 2.0], [4.0, 1.0, 3.0]], np.float32), decreasing=False)",
    "tf.nn.isotonic_regression(np.sin(np.arange(60, dtype=np.float32)).reshape(3, 20))",
    "tf.nn.isotonic_regression(np.sin(np.arange(60, dtype=np.float32)).reshape(3, 20), axis=0)",
    "tf.nn.isotonic_regression(np.array([[3, 1, 2, 2, 7]], np.int32))",
    "tf.nn.isotonic_regression(np.array([[3, 1, 2, 2, 7]], np.int8))",
    "tf.nn.isotonic_regression(np.cos(np.arange(12)).reshape(3, 4))",
    "tf.nn.isotonic_regression(np.cos(np.arange(12)).reshape(3, 4).astype(np.float16))",
    "tf.nn.isotonic_regression(np.array([[np.nan, 1.0, 2.0, 1.0, 1.0]], np.float32))",
    # CTC loss with dense labels
    f"tf.nn.ctc_loss(np.array([[1, 2, 2], [3, 1, 0]], np.int32), {_CTC}, [3, 2], [6, 5])",
    f"tf.nn.ctc_loss(np.array([[1, 2, 2], [3, 1, 0]], np.int32), {_CTC}.transpose(1, 0, 2), [3, 2], [6, 5], logits_time_major=False)",
    f"tf.nn.ctc_loss(np.array([[0, 2, 2], [3, 1, 0]], np.int32), {_CTC}, [3, 2], [6, 6], blank_index=-1)",
    f"tf.nn.ctc_loss(np.array([[1], [3]], np.int32), {_CTC}, [1, 1], [6, 3], blank_index=2)",
    f"tf.nn.ctc_loss(np.array([[1, 1, 1, 1], [3, 3, 0, 0]], np.int32), {_CTC}[:3], [4, 2], [3, 3])",
    # candidate sampling and sampled losses
    "tf.nn.all_candidate_sampler(np.array([[1], [3]], np.int64), 1, 5, True)",
    "(tf.random.set_seed(3), tf.nn.fixed_unigram_candidate_sampler(np.array([[1], [3]], np.int64), 1, 4, True, 5, unigrams=[1.0, 2.0, 3.0, 4.0, 5.0]))[1]",
    "(tf.random.set_seed(3), tf.nn.learned_unigram_candidate_sampler(np.array([[1], [3]], np.int64), 1, 3, False, 6, seed=7))[1]",
    "tf.nn.compute_accidental_hits(np.array([[1, 2], [0, 3]], np.int64), np.array([2, 0, 5], np.int64), 2)",
    f"tf.nn.nce_loss({_W}, {_B}, np.array([[1], [4]]), {_IN}, 3, 6, sampled_values={_SV})",
    f"tf.nn.nce_loss({_W}, {_B}, np.array([[1], [4]]), {_IN}, 3, 6, sampled_values={_SV}, remove_accidental_hits=True)",
    f"tf.nn.nce_loss({_W}, {_B}, np.array([[1, 2], [4, 0]]), {_IN}, 3, 6, num_true=2, sampled_values={_SV})",
    f"tf.nn.sampled_softmax_loss({_W}, {_B}, np.array([[1], [4]]), {_IN}, 3, 6, sampled_values={_SV})",
    f"tf.nn.sampled_softmax_loss({_W}, {_B}, np.array([[1], [4]]), {_IN}, 3, 6, sampled_values={_SV}, remove_accidental_hits=False)",
    f"tf.nn.sampled_softmax_loss([{_W}[:4], {_W}[4:]], {_B}, np.array([[1], [5]]), {_IN}, 3, 6, sampled_values={_SV})",
    f"(tf.random.set_seed(5), tf.nn.nce_loss({_W}, {_B}, np.array([[1], [4]]), {_IN}, 3, 6))[1]",
    f"(tf.random.set_seed(5), tf.nn.sampled_softmax_loss({_W}, {_B}, np.array([[1], [4]]), {_IN}, 3, 6, seed=2))[1]",
    # tf.math functions re-exported by tf.nn
    "tf.nn.top_k(np.array([3, 1, 2, 5], np.int32), 2)",
    "tf.nn.in_top_k(np.array([1, 0]), np.array([[0.1, 0.9], [0.8, 0.2]], np.float32), 1)",
]


def _encode_value(v: Any) -> Any:
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v
    if isinstance(v, complex):
        return {"re": _encode_value(v.real), "im": _encode_value(v.imag)}
    if isinstance(v, bytes):
        return {"bytes": v.decode("latin-1")}
    if isinstance(v, list):
        return [_encode_value(x) for x in v]
    return v


def _encode_tensor(t: Any) -> dict[str, Any]:
    arr = t.numpy()
    import numpy as np

    arr = np.asarray(arr)
    if arr.dtype == np.float16:
        values = arr.astype(np.float32).tolist()
    else:
        values = arr.tolist()
    return {"dtype": t.dtype.name, "shape": list(arr.shape), "values": _encode_value(values)}


def _encode(result: Any) -> dict[str, Any]:
    if isinstance(result, (tuple, list)):
        return {"tuple": [_encode(r) for r in result]}
    if hasattr(result, "numpy"):
        return _encode_tensor(result)
    raise TypeError(f"unexpected result {result!r}")


def main() -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
    import numpy as np
    import tensorflow as tf

    out: dict[str, Any] = {}
    for case in CASES:
        try:
            out[case] = _encode(eval(case, {"tf": tf, "np": np}))
        except Exception as e:
            out[case] = {"error": type(e).__name__}
    OUT.write_text(json.dumps({"tf_version": tf.__version__, "cases": out}, indent=1) + "\n")
    print(f"wrote {len(out)} cases to {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
