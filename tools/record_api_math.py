#!/usr/bin/env python3
"""Record TensorFlow 2.21's results for the tf.math cases of
tests/python/test_api_math.py into tests/data/api_math_tf221.json.

Each case is a Python expression over ``tf`` and ``np``; the recorder
evaluates it with TensorFlow (run it with /work/tfvenv/bin/python or another
interpreter that has TF 2.21) and stores the result (nested lists of
values, dtype name and shape; a tuple result stores each part) or the error
class. The test evaluates the same expressions with ``import tfe_py as tf``
and compares. TensorFlow is never needed to run the tests.

    /work/tfvenv/bin/python tools/record_api_math.py
"""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "api_math_tf221.json"

_A = "[0.0, -1.0, 0.5, 1.0, 2.0, 10.0, np.inf, np.nan, 1e-3, 100.0]"
_X = "[0.0, -1.0, 0.5, 1.0, 3.0, 20.0, np.inf, np.nan, 1e-3, 99.0]"
_B = "[0.0, -1.0, 0.5, 1.0, 2.0, 10.0, 55.0, np.inf, np.nan]"
_XB = "[0.0, -0.1, 0.05, 0.3, 0.5, 0.9, 1.0, 1.5, np.nan]"


def _grid2(fn: str, dt: str) -> str:
    return (
        f"tf.math.{fn}(tf.constant(np.array({_A})[None, :].repeat(10, 0), tf.{dt}), "
        f"tf.constant(np.array({_X})[:, None].repeat(10, 1), tf.{dt}))"
    )


def _grid3(dt: str) -> str:
    return (
        f"(lambda g: tf.math.betainc(tf.constant(g[0], tf.{dt}), tf.constant(g[1], tf.{dt}), "
        f"tf.constant(g[2], tf.{dt})))(np.meshgrid({_B}, {_B}, {_XB}, indexing='ij'))"
    )


CASES: list[str] = [
    # arithmetic and dtype rules
    "tf.add(tf.constant([1, 2]), 3)",
    "tf.add(tf.constant([1.5, 2.0]), tf.constant([[1.0], [2.0]]))",
    "tf.add(tf.constant('a'), tf.constant('b'))",
    "tf.add(tf.constant([1, 2]), tf.constant([1.0, 2.0]))",
    "tf.add(1, tf.constant(1.5))",
    "tf.add(tf.constant([1, 2]), 1.5)",
    "tf.add(tf.constant('a'), 1)",
    "tf.add([1, 2], [3, 4])",
    "tf.multiply(2, tf.constant([1.5]))",
    "tf.subtract(5, tf.constant([1, 2]))",
    "tf.multiply(tf.constant([1.5]), 2)",
    "tf.divide(tf.constant([1, 2]), 2)",
    "tf.divide(7, tf.constant([2, 4]))",
    "tf.math.truediv(tf.constant([1, 2], tf.int16), tf.constant([4, 4], tf.int16))",
    "tf.math.truediv(tf.constant([1, 2], tf.uint8), tf.constant([4, 4], tf.uint8))",
    "tf.math.truediv(tf.constant([1, 2], tf.int64), tf.constant([4, 4], tf.int64))",
    "tf.math.truediv(tf.constant([1.0]), tf.constant([1], tf.int32))",
    "tf.math.truediv(tf.constant([True]), tf.constant([True]))",
    "tf.realdiv(tf.constant([1.0, 2.0]), tf.constant([4.0, 0.0]))",
    "tf.truncatediv(tf.constant([7, -7]), tf.constant([2, 2]))",
    "tf.truncatemod(tf.constant([7, -7]), tf.constant([2, 2]))",
    "tf.math.floordiv(tf.constant([7, -7]), tf.constant([2, 2]))",
    "tf.math.floormod(tf.constant([7.5, -7.5]), 2.0)",
    "tf.math.mod(tf.constant([7, -7]), tf.constant([3, 3]))",
    "tf.math.floordiv(tf.constant([1]), tf.constant([0]))",
    "tf.math.divide_no_nan(tf.constant([1.0, 2.0]), tf.constant([0.0, 4.0]))",
    "tf.math.divide_no_nan(tf.constant([3, 2]), tf.constant([0, 4]))",
    "tf.math.divide_no_nan(3.0, tf.constant([0.0, 2.0]))",
    "tf.math.multiply_no_nan(tf.constant([np.inf, np.nan, 2.0]), tf.constant([0.0, 0.0, 3.0]))",
    "tf.math.reciprocal_no_nan(tf.constant([2.0, 0.0, -4.0]))",
    "tf.math.reciprocal(tf.constant([2.0, 0.5]))",
    "tf.pow(tf.constant([2, 3]), 3)",
    "tf.pow(tf.constant(2.0), tf.constant([0.5, -1.0]))",
    "tf.math.squared_difference(tf.constant([1, 5]), tf.constant([4, 2]))",
    "tf.maximum(tf.constant([1.0, np.nan]), tf.constant([2.0, 0.0]))",
    "tf.minimum(tf.constant([1, 5, 3]), 2)",
    "tf.math.xlogy(tf.constant([0.0, 2.0]), tf.constant([0.0, 3.0]))",
    "tf.math.xlog1py(tf.constant([0.0, 2.0]), tf.constant([-1.0, 3.0]))",
    "tf.math.xdivy(tf.constant([0.0, 2.0]), tf.constant([0.0, 4.0]))",
    "tf.math.nextafter(tf.constant([1.0, 0.0]), tf.constant([2.0, -1.0]))",
    "tf.scalar_mul(3, tf.constant([[1, 2], [3, 4]]))",
    "tf.scalar_mul(tf.constant([2.0]), tf.constant([1.0]))",
    "tf.add_n([tf.constant([1, 2]), tf.constant([3, 4]), [5, 6]])",
    "tf.add_n([tf.constant([1.5])])",
    "tf.add_n([])",
    "tf.add_n([tf.constant([1]), tf.constant([1, 2])])",
    "tf.math.accumulate_n([tf.constant([1, 2]), tf.constant([3, 4])])",
    "tf.math.accumulate_n([tf.constant([1, 2]), tf.constant([3.0, 4.0])])",
    # comparisons and logic
    "tf.equal(tf.constant([1, 2, 3]), 2)",
    "tf.not_equal(tf.constant(['a', 'b']), 'a')",
    "tf.less(tf.constant([1.0, 2.0]), 1.5)",
    "tf.less_equal(tf.constant([1, 2]), tf.constant([[1], [2]]))",
    "tf.greater(tf.constant([1, 2]), 1)",
    "tf.greater_equal(tf.constant([1, 2]), 2)",
    "tf.equal(tf.ones([2]), tf.ones([3]))",
    "tf.logical_and(tf.constant([True, False]), True)",
    "tf.logical_or(tf.constant([True, False]), tf.constant([False, False]))",
    "tf.logical_not(tf.constant([True, False]))",
    "tf.math.logical_xor(tf.constant([True, False, True]), tf.constant([True, True, False]))",
    "tf.logical_and(tf.constant([1]), tf.constant([1]))",
    # unary
    "tf.abs(tf.constant([-3, 2]))",
    "tf.abs(tf.constant([3 + 4j], tf.complex64))",
    "tf.negative(tf.constant([1.0, -2.0]))",
    "tf.sign(tf.constant([-2.0, 0.0, 3.0, np.nan]))",
    "tf.sign(tf.constant([-2, 0, 3]))",
    "tf.sign(tf.constant([3 + 4j, 0j]))",
    "tf.round(tf.constant([-1.5, -0.5, 0.5, 1.5, 2.5]))",
    "tf.round(tf.constant([1, 2]))",
    "tf.math.rint(tf.constant([-1.5, 0.5, 2.5]))",
    "tf.floor(tf.constant([-1.5, 1.5]))",
    "tf.math.ceil(tf.constant([-1.5, 1.5]))",
    "tf.exp(tf.constant([0.0, 1.0]))",
    "tf.math.expm1(tf.constant([1e-10, 1.0]))",
    "tf.math.log(tf.constant([0.0, -1.0, 1.0, np.e]))",
    "tf.math.log1p(tf.constant([0.0, 1e-10, 1.0]))",
    "tf.sqrt(tf.constant([4.0, -1.0]))",
    "tf.math.rsqrt(tf.constant([4.0, 0.0]))",
    "tf.square(tf.constant([3, -2]))",
    "tf.sin(tf.constant([0.0, 1.0]))",
    "tf.cos(tf.constant([0.0, 1.0]))",
    "tf.tan(tf.constant([0.0, 1.0]))",
    "tf.asin(tf.constant([0.5, 2.0]))",
    "tf.acos(tf.constant([0.5]))",
    "tf.atan(tf.constant([1.0]))",
    "tf.atan2(tf.constant([1.0, -1.0]), tf.constant([1.0, 1.0]))",
    "tf.sinh(tf.constant([1.0]))",
    "tf.cosh(tf.constant([1.0]))",
    "tf.tanh(tf.constant([1.0]))",
    "tf.asinh(tf.constant([1.0]))",
    "tf.acosh(tf.constant([2.0]))",
    "tf.atanh(tf.constant([0.5]))",
    "tf.sigmoid(tf.constant([-2.0, 0.0, 2.0]))",
    "tf.math.log_sigmoid(tf.constant([-2.0, 0.0, 2.0, -100.0]))",
    "tf.math.softplus(tf.constant([-2.0, 0.0, 2.0]))",
    "tf.math.softsign(tf.constant([-2.0, 0.0, 2.0]))",
    "tf.math.softmax(tf.constant([[1.0, 2.0], [3.0, 5.0]]))",
    "tf.math.softmax(tf.constant([[1.0, 2.0], [3.0, 5.0]]), axis=0)",
    "tf.math.log_softmax(tf.constant([[1.0, 2.0], [3.0, 5.0]]), axis=0)",
    "tf.math.softmax(tf.constant([1.0, 2.0]), axis=2)",
    "tf.math.erf(tf.constant([0.5, 1.0, 2.0]))",
    "tf.math.erfc(tf.constant([0.5, 1.0, 2.0]))",
    "tf.math.erfinv(tf.constant([0.0, 0.5, -0.9]))",
    "tf.math.erfcinv(tf.constant([0.0, 0.2, 1.0, 1.5, 2.0]))",
    "tf.math.ndtri(tf.constant([0.1, 0.5, 0.975]))",
    "tf.math.lgamma(tf.constant([0.5, 1.0, 2.0, -0.5]))",
    "tf.math.digamma(tf.constant([0.5, 1.0, 2.0, -0.5, 0.0, 30.0]))",
    "tf.math.digamma(tf.constant([0.5, 1.0, 2.0, -0.5, 0.0, 30.0], tf.float64))",
    "tf.math.lbeta(tf.constant([[1.0, 2.0], [0.5, 0.5]]))",
    "tf.math.bessel_i0(tf.constant([0.5, 1.0, 2.0]))",
    "tf.math.bessel_i0e(tf.constant([0.5, 1.0]))",
    "tf.math.bessel_i1(tf.constant([0.5, 1.0]))",
    "tf.math.bessel_i1e(tf.constant([0.5, 1.0]))",
    "tf.math.special.bessel_j0(tf.constant([1.0]))",
    "tf.math.is_nan(tf.constant([1.0, np.nan, np.inf]))",
    "tf.math.is_inf(tf.constant([1.0, np.nan, -np.inf]))",
    "tf.math.is_finite(tf.constant([1.0, np.nan, np.inf]))",
    "tf.math.is_nan(tf.constant([1]))",
    "tf.math.invert_permutation(tf.constant([3, 4, 0, 2, 1]))",
    # complex helpers
    "tf.math.real(tf.constant([1 + 2j]))",
    "tf.math.real(tf.constant([1.5]))",
    "tf.math.imag(tf.constant([1 + 2j], tf.complex64))",
    "tf.math.imag(tf.constant([1.5]))",
    "tf.math.conj(tf.constant([1 + 1j]))",
    "tf.math.conj(tf.constant([1, 2]))",
    "tf.math.conj(tf.constant(['a']))",
    "tf.math.angle(tf.constant([1j, -1 + 0j]))",
    "tf.math.angle(tf.constant([-2.0, 0.0, 3.0]))",
    "tf.complex(tf.constant([1.0]), tf.constant([2.0]))",
    "tf.complex(tf.constant([1.0], tf.float64), tf.constant([2.0], tf.float64))",
    "tf.complex(tf.constant([1.0]), tf.constant([2.0], tf.float64))",
    # reductions
    "tf.reduce_sum(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))",
    "tf.reduce_sum(tf.constant([[1, 2, 3], [4, 5, 6]]), axis=0)",
    "tf.reduce_sum(tf.constant([[1, 2, 3], [4, 5, 6]]), axis=[0, 1], keepdims=True)",
    "tf.reduce_sum(tf.constant([[1, 2, 3], [4, 5, 6]]), axis=-1, keepdims=True)",
    "tf.reduce_sum(tf.ones([2, 2]), axis=3)",
    "tf.reduce_sum([[1, 2], [3, 4]], 1)",
    "tf.reduce_sum(tf.constant([True, False]))",
    "tf.reduce_sum(tf.zeros([0, 3]), axis=0)",
    "tf.reduce_mean(tf.constant([1, 2]))",
    "tf.reduce_mean(tf.constant([[1.0, 2.0], [3.0, 5.0]]), axis=1)",
    "tf.reduce_mean(tf.zeros([0]))",
    "tf.reduce_max(tf.constant([[1, 9], [8, 2]]), 1)",
    "tf.reduce_min(tf.constant([[1.0, 9.0], [8.0, np.nan]]), 0)",
    "tf.reduce_prod(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), -1)",
    "tf.reduce_all(tf.constant([[True, False], [True, True]]), axis=1)",
    "tf.reduce_any(tf.constant([[True, False], [False, False]]))",
    "tf.reduce_all(tf.constant([1, 0]))",
    "tf.math.reduce_std(tf.constant([1.0, 2.0, 3.0, 4.0]))",
    "tf.math.reduce_std(tf.constant([[1.0, 2.0], [3.0, 5.0]]), axis=0, keepdims=True)",
    "tf.math.reduce_variance(tf.constant([1.0, 2.0, 3.0, 4.0], tf.float64))",
    "tf.math.reduce_variance(tf.constant([1 + 1j, 2 - 1j]))",
    "tf.math.reduce_variance(tf.constant([1, 2]))",
    "tf.reduce_logsumexp(tf.constant([[0.0, 1.0], [2.0, 3.0]]))",
    "tf.reduce_logsumexp(tf.constant([[0.0, 1.0], [2.0, 3.0]]), axis=1, keepdims=True)",
    "tf.reduce_logsumexp(tf.constant([-np.inf, -np.inf]))",
    "tf.reduce_logsumexp(tf.constant([1000.0, 1000.0]))",
    "tf.math.reduce_euclidean_norm(tf.constant([3.0, 4.0]))",
    "tf.math.reduce_euclidean_norm(tf.constant([[1, 2], [3, 4]]))",
    "tf.math.reduce_euclidean_norm(tf.constant([[1, 2], [3, 4]]), 0)",
    "tf.math.reduce_euclidean_norm(tf.constant([[1.0, 2.0], [3.0, 4.0]]), 1, keepdims=True)",
    "tf.math.reduce_euclidean_norm(tf.constant([3 + 4j, 1j]))",
    "tf.math.reduce_euclidean_norm(tf.constant([[1, 2], [3, 4]], tf.uint8), [0, 1])",
    "tf.math.reduce_euclidean_norm(tf.zeros([2, 0]), 1)",
    "tf.math.reduce_euclidean_norm(tf.ones([2, 2]), 2)",
    "tf.math.reduce_euclidean_norm(tf.constant([100, 100], tf.int8))",
    "tf.math.reduce_euclidean_norm(tf.constant([1.5, 2.5], tf.float16))",
    "tf.math.reduce_euclidean_norm(tf.reshape(tf.range(24.0), [2, 3, 4]), [0, 2])",
    "tf.math.count_nonzero(tf.constant([0, 3, 0, 4]))",
    "tf.math.count_nonzero(tf.constant([[0.0, 1.0], [2.0, 0.0]]), axis=1, keepdims=True)",
    "tf.math.count_nonzero(tf.constant(['', 'a']))",
    "tf.math.count_nonzero(tf.constant([True, False]), dtype=tf.int32)",
    "tf.math.zero_fraction(tf.constant([0, 1, 0, 0]))",
    "tf.argmax(tf.constant([[3, 9, 1], [8, 2, 8]]))",
    "tf.argmax(tf.constant([[3, 9, 1], [8, 2, 8]]), axis=1)",
    "tf.argmin(tf.constant([[3, 9, 1], [8, 2, 8]]), 1, output_type=tf.int32)",
    "tf.math.argmax(tf.constant([1.0, 5.0, 5.0]))",
    "tf.argmax(tf.constant([1.0, 5.0]), axis=1.5)",
    "tf.argmax(tf.constant([[1.0, 5.0]]), axis=tf.constant(1, tf.int16))",
    # cumulative
    "tf.cumsum(tf.constant([1, 2, 3, 4]))",
    "tf.cumsum(tf.constant([1, 2, 3, 4]), exclusive=True)",
    "tf.cumsum(tf.constant([1, 2, 3, 4]), reverse=True)",
    "tf.cumsum(tf.reshape(tf.range(6), [2, 3]), axis=0, exclusive=True, reverse=True)",
    "tf.math.cumprod(tf.constant([1, 2, 3, 4]))",
    "tf.math.cumprod(tf.constant([[1.0, 2.0], [3.0, 4.0]]), axis=1, exclusive=True)",
    "tf.math.cumulative_logsumexp(tf.constant([0.0, 0.0, 1.0]))",
    "tf.math.cumulative_logsumexp(tf.constant([0.0, 0.0, 1.0]), reverse=True)",
    "tf.cumsum(tf.constant([1, 2]), axis=2)",
    # segments
    "tf.math.segment_sum(tf.constant([1, 2, 3, 4, 5]), tf.constant([0, 0, 1, 1, 1]))",
    "tf.math.segment_max(tf.constant([1, 2, 3, 4, 5]), tf.constant([0, 0, 1, 1, 1]))",
    "tf.math.segment_min(tf.constant([1, 2, 3, 4, 5]), tf.constant([0, 0, 2, 2, 2]))",
    "tf.math.segment_prod(tf.constant([1, 2, 3, 4, 5]), tf.constant([0, 0, 1, 1, 1]))",
    "tf.math.segment_mean(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]), tf.constant([0, 0, 1, 1, 1]))",
    "tf.math.segment_sum(tf.constant([1, 2]), tf.constant([1, 0]))",
    "tf.math.unsorted_segment_sum(tf.constant([1, 2, 3, 4, 5]), [2, 0, 2, 1, 0], 3)",
    "tf.math.unsorted_segment_min(tf.constant([1, 2, 3, 4, 5]), [1, 1, 0, 0, 1], 2)",
    "tf.math.unsorted_segment_max(tf.constant([1.0, 2.0, 3.0]), [1, 1, 1], 3)",
    "tf.math.unsorted_segment_prod(tf.constant([1, 2, 3]), [0, 0, 1], 2)",
    "tf.math.unsorted_segment_mean(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), "
    "[0, 0, 2], 3)",
    "tf.math.unsorted_segment_sqrt_n(tf.constant([1.0, 2.0, 3.0]), [0, 0, 1], 3)",
    "tf.math.unsorted_segment_mean(tf.constant([1, 2, 3]), [0, 0, 1], 2)",
    "tf.math.unsorted_segment_sum(tf.constant([1, 2]), [0, 5], 2)",
    # top-k and friends
    "tf.math.top_k(tf.constant([1, 9, 3, 9, 5]), k=3)",
    "tf.math.top_k(tf.constant([[0.1, 0.5], [0.7, 0.2]]))",
    "tf.math.top_k(tf.constant([1.0, 2.0]), k=3)",
    "tf.math.top_k(tf.constant([3.0, 1.0, 2.0]), 2, sorted=True, index_type=tf.int64)",
    "tf.math.in_top_k(tf.constant([1, 0]), tf.constant([[0.1, 0.9], [0.8, 0.2]]), 1)",
    "tf.math.in_top_k(tf.constant([0, 1]), tf.constant([[0.1, 0.9], [0.8, 0.2]]), 2)",
    "tf.math.approx_max_k(tf.constant([1.0, 4.0, 2.0]), 1)",
    "tf.math.approx_max_k(tf.constant([[1.0, 4.0, 2.0], [3.0, 3.0, 1.0]]), 2)",
    "tf.math.approx_max_k(tf.constant([1.0, 4.0, 2.0]), 5)",
    "tf.math.approx_max_k(tf.constant(1.0), 1)",
    "tf.math.approx_max_k(tf.constant([1.0, 2.0]), 0)",
    "tf.math.approx_max_k(tf.constant([1.0, 4.0, 2.0], tf.float16), 2)",
    "tf.math.approx_max_k(tf.range(100.0), 3, aggregate_to_topk=False)",
    "tf.math.approx_min_k(tf.constant([1.0, 4.0, 2.0]), 2)",
    "tf.math.bincount(tf.constant([1, 1, 3]))",
    "tf.math.bincount(tf.constant([1, 1, 3]), minlength=6)",
    "tf.math.bincount(tf.constant([1, 1, 3]), maxlength=2)",
    "tf.math.bincount(tf.constant([1, 1, 3]), weights=tf.constant([0.5, 1.0, 2.0]))",
    "tf.math.bincount(tf.constant([1, 1, 3]), binary_output=True)",
    "tf.math.bincount(tf.constant([], tf.int32))",
    "tf.math.bincount(tf.constant([[1, 2], [2, 2]]), axis=-1)",
    "tf.math.bincount(tf.constant([1, 2]), axis=1)",
    "tf.math.bincount(tf.constant([1, 2]), dtype=tf.float32)",
    "tf.math.confusion_matrix([0, 1, 1], [0, 0, 1])",
    "tf.math.confusion_matrix([0, 1, 1], [0, 0, 1], num_classes=3)",
    "tf.math.confusion_matrix([0, 1], [1, 1], weights=[0.5, 2.0], dtype=tf.float32)",
    "tf.math.confusion_matrix([0, -1], [0, 0])",
    "tf.math.confusion_matrix([0, 5], [0, 0], num_classes=2)",
    "tf.math.polyval([1.0, 2.0, 3.0], tf.constant(2.0))",
    "tf.math.polyval([2, 1, 0], 3)",
    "tf.math.polyval([], tf.constant([1.0, 2.0]))",
    "tf.math.polyval((1.0, 2.0), 3.0)",
    "tf.math.l2_normalize(tf.constant([3.0, 4.0]))",
    "tf.math.l2_normalize(tf.constant([[1.0, 0.0], [1.0, 1.0]]), axis=1)",
    "tf.math.l2_normalize(tf.constant([0.0, 0.0]))",
    "tf.math.l2_normalize(tf.constant([3 + 4j, 0j], tf.complex64))",
    "tf.math.is_non_decreasing(tf.constant([1, 2, 2]))",
    "tf.math.is_non_decreasing(tf.constant([[1, 2], [1, 3]]))",
    "tf.math.is_strictly_increasing(tf.constant([1, 2, 2]))",
    "tf.math.is_strictly_increasing(tf.constant([5]))",
    "tf.math.is_strictly_increasing(tf.constant(['a']))",
    # special functions
    "tf.math.igamma(tf.constant([1.0, 2.0]), tf.constant([1.0, 3.0]))",
    "tf.math.betainc(tf.constant(2.0), tf.constant(3.0), tf.constant(0.4))",
    "tf.math.zeta(tf.constant(2.0), tf.constant(1.0))",
    "tf.math.igamma(tf.constant([1.0], tf.float16), tf.constant([1.0], tf.float16))",
    "tf.math.betainc(tf.constant(2.0), tf.constant([3.0, 4.0]), tf.constant([0.4, 0.5]))",
    "tf.math.betainc(tf.constant([2.0, 1.0, 1.0]), tf.constant([3.0, 4.0]), "
    "tf.constant([0.4, 0.5]))",
    "tf.math.betainc(tf.constant([2.0, 1.0]), tf.constant([3.0, 4.0]), "
    "tf.constant([0.4, 0.5, 0.6]))",
    "tf.math.betainc(tf.constant([[2.0, 1.0]]), tf.constant([3.0, 4.0]), tf.constant(0.4))",
    "tf.math.betainc(tf.constant([50.0, 500.0, 0.01, 1e-5, 3.0]), tf.constant([40.0, 300.0, 0.02, "
    "3.0, 12.0]), tf.constant([0.55, 0.6, 0.5, 0.9, 0.01]))",
    "tf.math.betainc(tf.constant([50.0, 500.0, 0.01, 1e-5, 3.0], tf.float64), tf.constant([40.0, "
    "300.0, 0.02, 3.0, 12.0], tf.float64), tf.constant([0.55, 0.6, 0.5, 0.9, 0.01], tf.float64))",
    "tf.math.polygamma(tf.constant([0.0, 1.0, 2.0, 3.0]), tf.constant([0.5, 0.5, 3.0, 7.5]))",
    "tf.math.zeta(tf.constant([2.0, 3.0, 4.5]), tf.constant([-1.0, -2.0, 0.25]))",
    _grid2("igamma", "float32"),
    _grid2("igamma", "float64"),
    _grid2("igammac", "float32"),
    _grid2("igammac", "float64"),
    _grid2("zeta", "float32"),
    _grid2("zeta", "float64"),
    _grid2("polygamma", "float32"),
    _grid2("polygamma", "float64"),
    _grid3("float32"),
    _grid3("float64"),
]


def _jsonable(v: Any) -> Any:
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v
    if isinstance(v, complex):
        return [_jsonable(v.real), _jsonable(v.imag)]
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    return v


def encode(t: Any) -> dict[str, Any]:
    """A tensor's value, dtype and shape as JSON."""
    import numpy as np

    arr = np.asarray(t.numpy())
    return {
        "dtype": t.dtype.name,
        "shape": list(arr.shape),
        "value": _jsonable(arr.tolist()),
    }


def main() -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf

    results: dict[str, Any] = {}
    for case in CASES:
        try:
            r = eval(case, {"tf": tf, "np": np})  # the cases are the fixed strings above
            if isinstance(r, tuple):
                results[case] = {"parts": [encode(x) for x in r]}
            else:
                results[case] = encode(r)
        except Exception as e:
            results[case] = {"error": type(e).__name__, "message": str(e)[:300]}
    import inspect

    names = json.loads((ROOT / "tests" / "data" / "tf_api_names.json").read_text())
    signatures: dict[str, Any] = {}
    for name, kind in sorted(names["namespaces"]["math"].items()):
        if kind.startswith("function"):
            params = inspect.signature(getattr(tf.math, name)).parameters.values()
            signatures[name] = [
                [p.name, None if p.default is inspect.Parameter.empty else repr(p.default)]
                for p in params
            ]
    doc = {
        "_about": "TensorFlow 2.21 results of tf.math cases; recorded by tools/record_api_math.py",
        "tensorflow": tf.__version__,
        "cases": results,
        "signatures": signatures,
    }
    OUT.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(results)} cases to {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
