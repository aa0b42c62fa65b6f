# ruff: noqa: E501 - the case table keeps one expression per line
"""Records TensorFlow 2.21's results for the tf.* array functions (tfe_py/array_ops.py).

Each case is a Python expression using ``tf`` and ``np``; its value (tensors
with dtype, shape and values; lists; TensorShapes; Python values) or the
exception it raises (class name and message) is written to
tests/data/api_array_tf221.json. tests/python/test_api_array.py evaluates
the same expressions with ``import tfe_py as tf`` and compares; TensorFlow is
never needed to run the test.

    /work/tfvenv/bin/python tools/record_api_array.py   # rewrites the JSON

A case is (id, expression) or (id, expression, flags); flags: "msg" (the
test also checks that tfe's message contains TF's, without TF's
"{{function_node ...}}" prefix and " [Op:...]" suffix), "close" (floats
compared with a relative tolerance of 1e-6 instead of exactly).
"""

from __future__ import annotations

import json
import os
import pathlib
import sys
from typing import Any

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "api_array_tf221.json"

Case = tuple[str, str] | tuple[str, str, str]

CASES: list[Case] = [
    # ---- constant / convert_to_tensor
    ("constant_list", "tf.constant([[1, 2], [3, 4]])"),
    ("constant_dtype", "tf.constant([1, 2], dtype=tf.float64)"),
    ("constant_name", "tf.constant(3.5, name='c')"),
    ("constant_shape_fill", "tf.constant(7, shape=[2, 3])"),
    ("constant_shape_reshape", "tf.constant([1, 2, 3, 4, 5, 6], shape=(3, 2))"),
    ("constant_shape_flatten", "tf.constant([[1, 2], [3, 4]], shape=[4])"),
    ("constant_shape_one_elem", "tf.constant([5.5], shape=[2, 2])"),
    ("constant_shape_bool", "tf.constant(True, shape=[2])"),
    ("constant_shape_string", "tf.constant('a', shape=[2])"),
    ("constant_shape_empty", "tf.constant(1, shape=[0, 3])"),
    ("constant_shape_f16", "tf.constant(0.5, dtype=tf.float16, shape=[2])"),
    ("constant_shape_same", "tf.constant([1, 2], shape=[2])"),
    ("constant_shape_bad", "tf.constant([1, 2, 3], shape=[2])", "msg"),
    ("constant_shape_bad2", "tf.constant([1, 2], shape=[2, 2])", "msg"),
    ("constant_shape_empty_bad", "tf.constant([], shape=[2])", "msg"),
    ("constant_shape_neg", "tf.constant(1, shape=[-1])", "msg"),
    ("constant_shape_none", "tf.constant(1, shape=None)"),
    ("constant_empty_bool", "tf.constant([], dtype=tf.bool)"),
    ("constant_empty_int", "tf.constant([[]], dtype=tf.int64)"),
    ("constant_np_empty_bool", "tf.constant(np.array([]), dtype=tf.bool)"),
    ("constant_tensor_same", "tf.constant(tf.constant([1, 2]))"),
    ("constant_tensor_dtype", "tf.constant(tf.constant(1), dtype=tf.float32)", "msg"),
    ("constant_tensor_shape", "tf.constant(tf.constant([1, 2, 3, 4]), shape=[2, 2])"),
    ("constant_ragged", "tf.constant([[1, 2], [3]])"),
    ("convert_list", "tf.convert_to_tensor([1, 2, 3])"),
    ("convert_dtype", "tf.convert_to_tensor(4, dtype=tf.float32)"),
    ("convert_hint_int_to_float", "tf.convert_to_tensor(1, dtype_hint=tf.float32)"),
    ("convert_hint_fails", "tf.convert_to_tensor(1.5, dtype_hint=tf.int32)"),
    ("convert_hint_list", "tf.convert_to_tensor([1, 2.5], dtype_hint=tf.int64)"),
    ("convert_hint_tensor", "tf.convert_to_tensor(tf.constant(1), dtype_hint=tf.float32)"),
    ("convert_hint_string", "tf.convert_to_tensor('a', dtype_hint=tf.float32)"),
    ("convert_hint_and_dtype", "tf.convert_to_tensor(2, dtype=tf.int64, dtype_hint=tf.float32)"),
    ("convert_tensor_dtype_bad", "tf.convert_to_tensor(tf.constant(1), dtype=tf.float32)", "msg"),
    ("convert_tensor_dtype_ok", "tf.convert_to_tensor(tf.constant(1), dtype=tf.int32)"),
    ("convert_float_to_int", "tf.convert_to_tensor(1.5, dtype=tf.int32)", "msg"),
    ("convert_name", "tf.convert_to_tensor([1.0], name='x')"),
    # ---- zeros / ones / fill
    ("zeros", "tf.zeros([2, 3])"),
    ("zeros_int_shape", "tf.zeros(3)"),
    ("zeros_scalar", "tf.zeros([])"),
    ("zeros_dtype_str", "tf.zeros((2,), dtype='int64')"),
    ("zeros_string", "tf.zeros([2], tf.string)"),
    ("zeros_bool", "tf.zeros([1, 2], tf.bool)"),
    ("zeros_complex", "tf.zeros([2], tf.complex64)"),
    ("zeros_tensor_shape", "tf.zeros(tf.constant([2, 1]))"),
    ("zeros_tensorshape", "tf.zeros(tf.TensorShape([1, 2]))"),
    ("zeros_empty", "tf.zeros([0, 4])"),
    ("zeros_neg", "tf.zeros([2, -1])", "msg"),
    ("ones", "tf.ones((2,), dtype=tf.int32)"),
    ("ones_bool", "tf.ones([2, 2], tf.bool)"),
    ("ones_f16", "tf.ones([3], tf.float16)"),
    ("ones_string", "tf.ones([2], tf.string)"),
    ("ones_tensor_shape", "tf.ones(tf.constant([2, 1], tf.int64))"),
    ("zeros_like", "tf.zeros_like(tf.constant([[1, 2], [3, 4]]))"),
    ("zeros_like_list", "tf.zeros_like([1.5, 2])"),
    ("zeros_like_string", "tf.zeros_like(tf.constant(['a']))"),
    ("zeros_like_dtype", "tf.zeros_like(tf.constant([1, 2]), dtype=tf.float64)"),
    ("zeros_like_to_string", "tf.zeros_like(tf.constant([1, 2]), dtype=tf.string)"),
    ("ones_like", "tf.ones_like(tf.constant([True, False]))"),
    ("ones_like_dtype", "tf.ones_like(tf.constant([[1, 2]]), dtype=tf.float32)"),
    ("ones_like_string", "tf.ones_like(tf.constant(['a']))"),
    ("fill", "tf.fill([2, 2], 9)"),
    ("fill_float", "tf.fill([3], 1.5)"),
    ("fill_string", "tf.fill([1, 2], 's')"),
    ("fill_bool", "tf.fill([2], True)"),
    ("fill_tensor_value", "tf.fill([2], tf.constant(1.5, tf.float64))"),
    ("fill_scalar_dims", "tf.fill(2, 1)"),
    ("fill_empty_dims", "tf.fill([], 3)"),
    ("fill_neg", "tf.fill([-1], 1)", "msg"),
    ("fill_nonscalar", "tf.fill([2], [1, 2])"),
    # ---- range / linspace
    ("range_limit", "tf.range(5)"),
    ("range_start_limit_delta", "tf.range(1, 10, 3)"),
    ("range_negative_delta", "tf.range(5, 0, -2)"),
    ("range_float", "tf.range(0.0, 1.0, 0.25)"),
    ("range_dtype", "tf.range(3, dtype=tf.float32)"),
    ("range_mixed", "tf.range(2, 5.5)"),
    ("range_int64_tensor", "tf.range(tf.constant(5, tf.int64))"),
    ("range_float64", "tf.range(1, 2, 0.5, dtype=tf.float64)"),
    ("range_empty", "tf.range(3, 1)"),
    ("range_delta_zero", "tf.range(5, delta=0)", "msg"),
    ("range_wrong_sign", "tf.range(0, 5, -1)", "msg"),
    ("range_uint8", "tf.range(5, dtype=tf.uint8)"),
    ("linspace", "tf.linspace(0.0, 1.0, 5)"),
    ("linspace_neg", "tf.linspace(-1.0, 1.0, 3)"),
    ("linspace_int", "tf.linspace(0, 10, 5)"),
    ("linspace_thirds", "tf.linspace(5.0, 1.0, 4)"),
    ("linspace_axis_neg", "tf.linspace(5.0, 1.0, 4, axis=-1)"),
    ("linspace_nd", "tf.linspace([0.0, 1.0], [1.0, 3.0], 3)"),
    ("linspace_nd_axis1", "tf.linspace([0.0, 1.0], [1.0, 3.0], 3, axis=1)"),
    ("linspace_broadcast", "tf.linspace(0.0, [[1.0], [2.0]], 3, axis=1)"),
    ("linspace_one", "tf.linspace(0.0, 1.0, 1)"),
    ("linspace_zero", "tf.linspace(0.0, 1.0, 0)"),
    ("linspace_f64", "tf.linspace(tf.constant(0.0, tf.float64), 1.0, 7)"),
    ("linspace_num_tensor", "tf.linspace(2.0, 3.0, tf.constant(4))"),
    ("linspace_num_float", "tf.linspace(0.0, 1.0, 2.0)"),
    # ---- one_hot / identity
    ("one_hot", "tf.one_hot([0, 2, 1], 3)"),
    ("one_hot_on_off", "tf.one_hot([1, -1], 3, on_value=5, off_value=0)"),
    ("one_hot_axis0", "tf.one_hot([[0], [1]], 2, axis=0)"),
    ("one_hot_dtype", "tf.one_hot([0, 1], 3, dtype=tf.int32)"),
    ("one_hot_bool", "tf.one_hot([0, 5], 3, on_value=True, off_value=False)"),
    ("one_hot_on_only", "tf.one_hot([1], 2, on_value=2.5)"),
    ("one_hot_mismatch_dtype", "tf.one_hot([0, 1], 3, on_value=1.0, dtype=tf.int32)", "msg"),
    ("one_hot_mismatch_on_off", "tf.one_hot([0, 1], 3, on_value=1, off_value=0.0)", "msg"),
    ("one_hot_float_indices", "tf.one_hot([0.0, 1.0], 3)"),
    ("one_hot_int64", "tf.one_hot(tf.constant([2, 0], tf.int64), 3, dtype=tf.float64)"),
    ("identity", "tf.identity([1, 2])"),
    ("identity_tensor", "tf.identity(tf.constant('x'))"),
    ("identity_n", "tf.identity_n([[1, 2], 3.0])"),
    ("stop_gradient", "tf.stop_gradient([1.0, 2.0])"),
    ("guarantee_const", "tf.guarantee_const(tf.constant([3]))"),
    # ---- shape functions
    ("shape", "tf.shape(tf.zeros([2, 5]))"),
    ("shape_int64", "tf.shape(tf.zeros([2, 5]), out_type=tf.int64)"),
    ("shape_scalar", "tf.shape(1.0)"),
    ("shape_list", "tf.shape([[1, 2, 3]])"),
    ("shape_n", "tf.shape_n([tf.zeros([2]), tf.zeros([3, 1])])"),
    ("shape_n_int64", "tf.shape_n([[1], [[2]]], out_type=tf.int64)"),
    ("size", "tf.size(tf.zeros([2, 5]))"),
    ("size_int64", "tf.size([[1, 2]], out_type=tf.int64)"),
    ("rank", "tf.rank(tf.zeros([2, 5, 1]))"),
    ("rank_scalar", "tf.rank(3)"),
    ("reshape", "tf.reshape(tf.range(12), [3, 4])"),
    ("reshape_infer", "tf.reshape(tf.range(12), [2, -1])"),
    ("reshape_scalar", "tf.reshape([5], [])"),
    ("reshape_tensor_shape", "tf.reshape(tf.range(6), tf.constant([3, 2], tf.int64))"),
    ("reshape_bad", "tf.reshape(tf.range(6), [4, 2])", "msg"),
    ("reshape_bad_infer", "tf.reshape([1, 2, 3], [2, -1])", "msg"),
    ("reshape_two_infer", "tf.reshape(tf.range(6), [-1, -1])", "msg"),
    ("broadcast_to", "tf.broadcast_to([1, 2, 3], [2, 3])"),
    ("broadcast_to_scalar", "tf.broadcast_to(7, [2])"),
    ("broadcast_to_bad", "tf.broadcast_to([1, 2, 3], [2, 2])"),
    ("broadcast_dynamic_shape", "tf.broadcast_dynamic_shape([2, 1, 3], [4, 1])"),
    ("broadcast_dynamic_shape_bad", "tf.broadcast_dynamic_shape([2, 3], [4])"),
    (
        "broadcast_static_shape",
        "tf.broadcast_static_shape(tf.TensorShape([2, 1, 3]), tf.TensorShape([4, 1]))",
    ),
    (
        "broadcast_static_shape_unknown",
        "tf.broadcast_static_shape(tf.TensorShape([None, 1]), tf.TensorShape([3, 5]))",
    ),
    (
        "broadcast_static_shape_unknown_rank",
        "tf.broadcast_static_shape(tf.TensorShape(None), tf.TensorShape([3]))",
    ),
    (
        "broadcast_static_shape_bad",
        "tf.broadcast_static_shape(tf.TensorShape([2]), tf.TensorShape([3]))",
        "msg",
    ),
    ("ensure_shape", "tf.ensure_shape(tf.constant([1, 2]), [2])"),
    ("ensure_shape_none", "tf.ensure_shape(tf.zeros([2, 3]), [None, 3]).shape"),
    ("ensure_shape_bad", "tf.ensure_shape(tf.constant([1, 2]), [3])"),
    ("expand_dims", "tf.expand_dims([[1], [2]], 0)"),
    ("expand_dims_neg", "tf.expand_dims([[1], [2]], -1).shape"),
    ("expand_dims_bad", "tf.expand_dims([1, 2], 3)", "msg"),
    ("squeeze", "tf.squeeze([[1], [2]])"),
    ("squeeze_axis", "tf.squeeze(tf.zeros([1, 2, 1, 3]), axis=[0]).shape"),
    ("squeeze_axis_int", "tf.squeeze(tf.zeros([1, 2, 1]), -1).shape"),
    ("squeeze_bad", "tf.squeeze([[1, 2]], axis=1)", "msg"),
    ("transpose", "tf.transpose(tf.reshape(tf.range(6), [2, 3]))"),
    ("transpose_perm", "tf.transpose(tf.zeros([2, 3, 4]), perm=[2, 0, 1]).shape"),
    ("transpose_conj", "tf.transpose([[1 + 2j, 3j]], conjugate=True)"),
    ("transpose_conj_real", "tf.transpose([[1.0, 2.0]], conjugate=True)"),
    ("transpose_scalar", "tf.transpose(5)"),
    ("transpose_bad_perm", "tf.transpose(tf.zeros([2, 3]), perm=[0, 0])", "msg"),
    # ---- concat / stack / split
    ("concat", "tf.concat([[[1, 2]], [[3, 4]]], 0)"),
    ("concat_axis1", "tf.concat([tf.constant([[1, 2]]), tf.constant([[3, 4]])], axis=1)"),
    ("concat_neg_axis", "tf.concat([tf.zeros([2, 1]), tf.zeros([2, 3])], -1).shape"),
    ("concat_single", "tf.concat([tf.constant([1])], 0)"),
    ("concat_not_list", "tf.concat(tf.constant([1]), 0)"),
    ("concat_mixed_python", "tf.concat([tf.constant([1.0]), [2]], 0)"),
    ("concat_dtype_mismatch", "tf.concat([tf.constant([1]), tf.constant([1.0])], 0)"),
    ("concat_bad_shapes", "tf.concat([tf.zeros([2, 2]), tf.zeros([3, 3])], 0)"),
    ("concat_strings", "tf.concat([['a'], ['b', 'c']], 0)"),
    ("stack", "tf.stack([tf.constant([1, 2]), tf.constant([3, 4])])"),
    ("stack_axis1", "tf.stack([tf.constant([1, 2]), tf.constant([3, 4])], axis=1)"),
    ("stack_python", "tf.stack([[1, 2], [3.5, 4]])"),
    ("stack_tensor_first", "tf.stack([tf.constant([1.5]), [2]])"),
    ("stack_tensor_first_bad", "tf.stack([tf.constant([1]), [2.5]])"),
    ("stack_bad_axis", "tf.stack([1, 2], axis=2)", "msg"),
    ("stack_bad_shapes", "tf.stack([[1, 2], [3]])"),
    ("stack_neg_axis", "tf.stack([tf.zeros([2, 3])] * 4, axis=-1).shape"),
    ("unstack", "tf.unstack(tf.constant([[1, 2], [3, 4]]))"),
    ("unstack_axis1", "tf.unstack(tf.constant([[1, 2], [3, 4]]), axis=1)"),
    ("unstack_num", "tf.unstack(tf.zeros([3, 2]), num=3)"),
    ("unstack_scalar", "tf.unstack(tf.constant(1))", "msg"),
    ("unstack_bad_axis", "tf.unstack(tf.zeros([2, 3]), axis=2)", "msg"),
    ("split_even", "tf.split(tf.reshape(tf.range(12), [2, 6]), 3, axis=1)"),
    ("split_sizes", "[t.shape for t in tf.split(tf.reshape(tf.range(12), [2, 6]), [2, 4], 1)]"),
    ("split_infer", "tf.split(tf.range(6), [2, -1])"),
    ("split_uneven", "tf.split(tf.range(5), 3)", "msg"),
    ("split_sizes_bad", "tf.split(tf.range(5), [2, 2])", "msg"),
    ("split_float_num", "tf.split(tf.range(5), 2.0)", "msg"),
    ("split_tensor_scalar", "tf.split(tf.range(5), tf.constant(5))", "msg"),
    ("split_tensor_sizes", "tf.split(tf.range(5), tf.constant([1, 4]))"),
    ("split_num", "tf.split(tf.range(4), [1, 3], num=2)"),
    ("tile", "tf.tile([[1, 2]], [2, 3])"),
    ("tile_1d", "tf.tile(tf.constant([7]), [4])"),
    ("tile_bad", "tf.tile([1, 2], [2, 2])", "msg"),
    ("tile_scalar", "tf.tile(5, [])"),
    ("pad", "tf.pad([[1, 2], [3, 4]], [[1, 0], [0, 2]])"),
    ("pad_constant", "tf.pad([[1, 2], [3, 4]], [[1, 1], [1, 1]], constant_values=9)"),
    ("pad_reflect", "tf.pad([[1, 2], [3, 4]], [[1, 1], [1, 1]], mode='REFLECT')"),
    ("pad_symmetric", "tf.pad([[1, 2], [3, 4]], [[1, 1], [1, 1]], mode='SYMMETRIC')"),
    ("pad_lower_mode", "tf.pad([[1, 2]], [[0, 0], [1, 1]], mode='reflect')"),
    ("pad_reflect_bad", "tf.pad([[1, 2]], [[0, 0], [2, 2]], mode='REFLECT')", "msg"),
    ("pad_bad_mode", "tf.pad([[1, 2]], [[0, 0], [1, 1]], mode='foo')", "msg"),
    ("pad_float_int_value", "tf.pad([[1.5, 2]], [[0, 0], [1, 1]], constant_values=2)"),
    ("pad_int_float_value", "tf.pad([[1, 2]], [[0, 0], [1, 1]], constant_values=2.5)"),
    ("pad_string", "tf.pad(['a'], [[1, 1]], constant_values='z')"),
    ("pad_tensor_value", "tf.pad([1.0], [[1, 0]], constant_values=tf.constant(0.0))"),
    # ---- gather / scatter
    ("gather", "tf.gather([10, 20, 30, 40], [3, 0, 0])"),
    ("gather_axis1", "tf.gather(tf.reshape(tf.range(6), [2, 3]), [2, 0], axis=1)"),
    ("gather_2d_indices", "tf.gather(tf.reshape(tf.range(6), [2, 3]), [[0, 1], [1, 0]])"),
    ("gather_batch", "tf.gather([[1, 2, 3], [4, 5, 6]], [[0, 2], [1, 1]], axis=1, batch_dims=1)"),
    ("gather_batch_default_axis", "tf.gather([[1, 2, 3], [4, 5, 6]], [[2], [0]], batch_dims=1)"),
    ("gather_neg_axis", "tf.gather(tf.reshape(tf.range(6), [2, 3]), [1], axis=-1)"),
    ("gather_bad_index", "tf.gather([1, 2, 3], [5])", "msg"),
    ("gather_strings", "tf.gather(['a', 'b', 'c'], [2, 2, 0])"),
    ("gather_nd", "tf.gather_nd(tf.reshape(tf.range(8), [2, 2, 2]), [[0, 1], [1, 0]])"),
    ("gather_nd_full", "tf.gather_nd(tf.reshape(tf.range(8), [2, 2, 2]), [[1, 1, 1]])"),
    (
        "gather_nd_batch",
        "tf.gather_nd(tf.reshape(tf.range(12), [2, 3, 2]), [[[1], [0]], [[2], [2]]], batch_dims=1)",
    ),
    (
        "gather_nd_batch_scalar_idx",
        "tf.gather_nd(tf.reshape(tf.range(12), [2, 3, 2]), [[1, 0], [2, 1]], batch_dims=1)",
    ),
    (
        "gather_nd_batch2",
        "tf.gather_nd(tf.reshape(tf.range(24), [2, 3, 4]), tf.zeros([2, 3, 1], tf.int32) + 3, batch_dims=2)",
    ),
    ("gather_nd_bad", "tf.gather_nd([1, 2], [[3]])", "msg"),
    ("scatter_nd", "tf.scatter_nd([[1], [3]], [5, 7], [5])"),
    ("scatter_nd_2d", "tf.scatter_nd([[0, 0], [1, 1]], [1.0, 2.0], [2, 2])"),
    ("scatter_nd_dup", "tf.scatter_nd([[1], [1]], [5, 7], [3])"),
    ("scatter_nd_bad", "tf.scatter_nd([[5]], [1], [3])", "msg"),
    (
        "tensor_scatter_nd_update",
        "tf.tensor_scatter_nd_update(tf.zeros([3], tf.int32), [[2]], [4])",
    ),
    (
        "tensor_scatter_nd_add",
        "tf.tensor_scatter_nd_add(tf.ones([3], tf.int32), [[0], [0]], [4, 5])",
    ),
    ("tensor_scatter_nd_sub", "tf.tensor_scatter_nd_sub([1.0, 2.0], [[1]], [0.5])"),
    ("tensor_scatter_nd_min", "tf.tensor_scatter_nd_min([5, 5, 5], [[0], [2]], [1, 9])"),
    ("tensor_scatter_nd_max", "tf.tensor_scatter_nd_max([5, 5, 5], [[0], [2]], [1, 9])"),
    ("tensor_scatter_nd_rows", "tf.tensor_scatter_nd_update([[1, 2], [3, 4]], [[1]], [[9, 9]])"),
    # ---- where / boolean_mask / reverse / roll / slices
    ("where_3", "tf.where([True, False, True], [1, 2, 3], [9, 9, 9])"),
    ("where_1", "tf.where([True, False, True])"),
    ("where_1_2d", "tf.where(tf.constant([[0, 1], [1, 0]]) > 0)"),
    ("where_1_int", "tf.where([1, 0, 2])"),
    ("where_1_float", "tf.where([0.0, 1.5])"),
    ("where_3_python", "tf.where(tf.constant([1.0, -1.0]) > 0, 1.0, 0.0)"),
    ("where_3_broadcast", "tf.where([[True], [False]], [1, 2], 0)"),
    ("where_x_only", "tf.where([True], x=[1])", "msg"),
    ("boolean_mask", "tf.boolean_mask([1, 2, 3, 4], [True, False, True, False])"),
    ("boolean_mask_rows", "tf.boolean_mask([[1, 2], [3, 4]], [False, True])"),
    (
        "boolean_mask_2d",
        "tf.boolean_mask(tf.constant([[1, 2], [3, 4]]), tf.constant([[1, 2], [3, 4]]) > 1)",
    ),
    ("boolean_mask_axis", "tf.boolean_mask([[1, 2, 3], [4, 5, 6]], [True, False, True], axis=1)"),
    (
        "boolean_mask_3d",
        "tf.boolean_mask(tf.reshape(tf.range(12), [2, 2, 3]), [[True, False], [False, True]])",
    ),
    ("boolean_mask_scalar", "tf.boolean_mask([1, 2], True)", "msg"),
    ("boolean_mask_bad_shape", "tf.boolean_mask([1, 2, 3], [True, False])", "msg"),
    ("reverse", "tf.reverse(tf.reshape(tf.range(6), [2, 3]), [0])"),
    ("reverse_axis1", "tf.reverse(tf.reshape(tf.range(6), [2, 3]), axis=[1])"),
    ("reverse_both", "tf.reverse(tf.reshape(tf.range(6), [2, 3]), [0, -1])"),
    ("reverse_none", "tf.reverse([1, 2], [])"),
    (
        "reverse_sequence",
        "tf.reverse_sequence([[1, 2, 3], [4, 5, 6]], [2, 3], seq_axis=1, batch_axis=0)",
    ),
    (
        "reverse_sequence_bad",
        "tf.reverse_sequence([[1, 2, 3]], [4], seq_axis=1, batch_axis=0)",
        "msg",
    ),
    ("roll", "tf.roll(tf.range(5), 2, 0)"),
    ("roll_neg", "tf.roll(tf.range(5), -1, axis=0)"),
    ("roll_2d", "tf.roll(tf.reshape(tf.range(6), [2, 3]), shift=[1, 1], axis=[0, 1])"),
    ("slice", "tf.slice(tf.reshape(tf.range(12), [3, 4]), [1, 1], [2, 2])"),
    ("slice_to_end", "tf.slice(tf.reshape(tf.range(12), [3, 4]), [0, 2], [-1, 1])"),
    ("slice_bad", "tf.slice([1, 2, 3], [2], [5])", "msg"),
    ("strided_slice", "tf.strided_slice(tf.reshape(tf.range(12), [3, 4]), [0, 0], [3, 4], [2, 3])"),
    ("strided_slice_default_strides", "tf.strided_slice(tf.range(6), [1], [4])"),
    (
        "strided_slice_masks",
        "tf.strided_slice(tf.reshape(tf.range(12), [3, 4]), [1, 0], [0, 4], [1, 1], begin_mask=2, end_mask=1, shrink_axis_mask=0)",
    ),
    (
        "strided_slice_shrink",
        "tf.strided_slice(tf.reshape(tf.range(12), [3, 4]), [1], [2], shrink_axis_mask=1)",
    ),
    # ---- masks, searches, repeat, meshgrid
    ("sequence_mask", "tf.sequence_mask([1, 3, 2], 4)"),
    ("sequence_mask_default_maxlen", "tf.sequence_mask([2, 0], dtype=tf.int32)"),
    ("sequence_mask_2d", "tf.sequence_mask([[1, 2], [0, 3]])"),
    ("sequence_mask_float", "tf.sequence_mask([1, 2], 3, dtype=tf.float32)"),
    ("sequence_mask_bad_maxlen", "tf.sequence_mask([1, 2], [3])", "msg"),
    ("searchsorted", "tf.searchsorted([[1, 3, 5, 7]], [[0, 3, 8]])"),
    ("searchsorted_right", "tf.searchsorted([[1, 3, 5, 7]], [[3, 6]], side='right')"),
    ("searchsorted_1d", "tf.searchsorted([1.0, 2.0, 3.0], [2.5, 0.0])"),
    ("searchsorted_int64", "tf.searchsorted([1, 2], [2], out_type=tf.int64)"),
    ("searchsorted_bad_side", "tf.searchsorted([1], [1], side='middle')", "msg"),
    ("repeat", "tf.repeat([1, 2, 3], 2)"),
    ("repeat_axis0", "tf.repeat([[1, 2], [3, 4]], [1, 2], axis=0)"),
    ("repeat_axis1", "tf.repeat([[1, 2], [3, 4]], [3, 0], axis=1)"),
    ("repeat_flat_list", "tf.repeat([[1, 2], [3, 4]], [1, 0, 2, 1])"),
    ("repeat_scalar", "tf.repeat(3, 2)"),
    ("repeat_axis_neg", "tf.repeat([[1, 2]], 2, axis=-1)"),
    ("repeat_zero", "tf.repeat([1, 2], 0)"),
    ("repeat_float_repeats", "tf.repeat([1, 2], 2.0)", "msg"),
    ("repeat_bad_axis", "tf.repeat([1, 2], 2, axis=3)", "msg"),
    ("meshgrid_xy", "tf.meshgrid([1, 2, 3], [4, 5])"),
    ("meshgrid_ij", "tf.meshgrid([1, 2, 3], [4, 5], indexing='ij')"),
    ("meshgrid_3", "[t.shape for t in tf.meshgrid([1, 2], [3, 4, 5], [6.0, 7.0, 8.0, 9.0])]"),
    ("meshgrid_one", "tf.meshgrid([1.5, 2.5])"),
    ("meshgrid_none", "tf.meshgrid()"),
    ("meshgrid_bad_indexing", "tf.meshgrid([1], indexing='xx')", "msg"),
    ("meshgrid_bad_kwarg", "tf.meshgrid([1], foo=1)", "msg"),
    # ---- casts
    ("cast_float_to_int", "tf.cast([1.7, -1.7, 2.5], tf.int32)"),
    ("cast_same", "tf.cast(tf.constant([1, 2]), tf.int32)"),
    ("cast_bool", "tf.cast([0, 2, -1], tf.bool)"),
    ("cast_to_complex", "tf.cast([1.5], tf.complex64)"),
    ("cast_complex_to_float", "tf.cast([1.5 + 2j], tf.float32)"),
    ("cast_int_overflow", "tf.cast([300, -1], tf.uint8)"),
    ("cast_string", "tf.cast(['1'], tf.int32)"),
    ("cast_dtypes_ns", "tf.dtypes.cast([1, 2], tf.float16)"),
    ("saturate_cast", "tf.saturate_cast([300, -5, 20], tf.uint8)"),
    ("saturate_cast_float", "tf.saturate_cast([1e10, -1e10, 1.5], tf.int32)"),
    (
        "saturate_cast_f64_f32",
        "tf.saturate_cast(tf.constant([1e300, -1e300], tf.float64), tf.float32)",
    ),
    ("saturate_cast_int8", "tf.saturate_cast(tf.constant([-200, 200], tf.int64), tf.int8)"),
    (
        "saturate_cast_complex",
        "tf.saturate_cast(tf.constant([3e38 + 1j], tf.complex128), tf.complex64)",
    ),
    ("saturate_cast_complex_real", "tf.saturate_cast([1e10 + 1j], tf.int32)"),
    ("saturate_cast_dtypes_ns", "tf.dtypes.saturate_cast([-1.0, 256.0], tf.uint8)"),
    ("bitcast", "tf.bitcast(tf.constant([1.0], tf.float32), tf.int32)"),
    ("bitcast_wide", "tf.bitcast(tf.constant([1, 2], tf.int32), tf.int64)"),
    ("bitcast_narrow", "tf.bitcast(tf.constant(1, tf.int32), tf.uint8)"),
    ("bitcast_bad", "tf.bitcast(tf.constant([1, 2, 3], tf.int8), tf.int16)", "msg"),
    # ---- misc ops
    ("unique", "tf.unique([4, 1, 4, 2, 1])"),
    ("unique_int64", "tf.unique(['b', 'a', 'b'], out_idx=tf.int64)"),
    ("unique_with_counts", "tf.unique_with_counts([3, 3, 5])"),
    ("unique_bad_rank", "tf.unique([[1]])", "msg"),
    ("unravel_index", "tf.unravel_index([2, 5, 7], [3, 3])"),
    ("unravel_index_scalar", "tf.unravel_index(1621, [6, 7, 8, 9])"),
    ("unravel_index_bad", "tf.unravel_index([10], [3, 3])", "msg"),
    ("dynamic_partition", "tf.dynamic_partition([10, 20, 30, 40], [0, 1, 0, 1], 2)"),
    ("dynamic_partition_2d", "tf.dynamic_partition([[1, 2], [3, 4]], [[0, 1], [1, 1]], 3)"),
    ("dynamic_partition_rows", "tf.dynamic_partition([[1, 2], [3, 4], [5, 6]], [1, 0, 1], 2)"),
    ("dynamic_partition_scalar", "tf.dynamic_partition(5, 0, 2)"),
    ("dynamic_partition_strings", "tf.dynamic_partition(['a', 'b'], [1, 0], 2)"),
    ("dynamic_partition_bad", "tf.dynamic_partition([1, 2, 3], [0, 2, 1], 2)", "msg"),
    ("dynamic_partition_bad_shape", "tf.dynamic_partition([1, 2, 3], [0, 1], 2)", "msg"),
    ("dynamic_stitch", "tf.dynamic_stitch([[0, 2], [1, 3]], [[1, 2], [3, 4]])"),
    ("dynamic_stitch_gap", "tf.dynamic_stitch([[0, 5]], [[1, 2]])"),
    ("dynamic_stitch_overwrite", "tf.dynamic_stitch([[0, 1], [1]], [[1, 2], [9]])"),
    ("dynamic_stitch_rows", "tf.dynamic_stitch([[0, 1]], [[[1, 2], [3, 4]]])"),
    ("dynamic_stitch_scalar_index", "tf.dynamic_stitch([1, [0]], [[7.0, 8.0], [[5.0, 6.0]]])"),
    ("dynamic_stitch_empty", "tf.dynamic_stitch([[]], [np.zeros([0, 3], np.float32)])"),
    ("dynamic_stitch_bad_index", "tf.dynamic_stitch([[0, -1]], [[1, 2]])", "msg"),
    ("dynamic_stitch_bad_shape", "tf.dynamic_stitch([[0, 1]], [[1, 2, 3]])", "msg"),
    ("dynamic_stitch_bad_extra", "tf.dynamic_stitch([[0, 1], [2]], [[1, 2], [[3]]])", "msg"),
    (
        "batch_to_space",
        "tf.batch_to_space(tf.reshape(tf.range(4), [4, 1, 1, 1]), [2, 2], [[0, 0], [0, 0]])",
    ),
    (
        "batch_to_space_int_block",
        "tf.batch_to_space(tf.reshape(tf.range(8), [4, 1, 2, 1]), 2, [[0, 0], [0, 1]])",
    ),
    (
        "space_to_batch_nd",
        "tf.space_to_batch_nd(tf.reshape(tf.range(4), [1, 2, 2, 1]), [2, 2], [[0, 0], [0, 0]])",
    ),
    (
        "space_to_batch",
        "tf.space_to_batch(tf.reshape(tf.range(6), [1, 2, 3, 1]), [2, 2], [[0, 0], [0, 1]]).shape",
    ),
    (
        "space_to_batch_bad",
        "tf.space_to_batch_nd(tf.zeros([1, 3, 3, 1]), [2, 2], [[0, 0], [0, 0]])",
        "msg",
    ),
    ("required_paddings", "tf.required_space_to_batch_paddings([5, 7], [2, 3])"),
    (
        "required_paddings_base",
        "tf.required_space_to_batch_paddings([4, 4], [3, 2], base_paddings=[[1, 0], [0, 1]])",
    ),
    ("fingerprint", "tf.fingerprint(tf.constant(['abc', 'x']))"),
    ("fingerprint_ints", "tf.fingerprint(tf.constant([[1, 2], [3, 4]]))"),
    (
        "histogram_fixed_width",
        "tf.histogram_fixed_width([-1.0, 0.0, 1.5, 2.0, 5.0, 15], [0.0, 5.0], nbins=5)",
    ),
    (
        "histogram_fixed_width_int64",
        "tf.histogram_fixed_width([1, 2, 3, 9], [0, 10], nbins=3, dtype=tf.int64)",
    ),
    (
        "histogram_fixed_width_2d",
        "tf.histogram_fixed_width([[1.0, 2], [3, 4]], [0.0, 5.0], nbins=2)",
    ),
    (
        "histogram_fixed_width_edges",
        "tf.histogram_fixed_width([0.1, 0.2999999, 0.3, 0.7, 1e30, -1e30], [0.0, 1.0], nbins=10)",
    ),
    (
        "histogram_fixed_width_f64",
        "tf.histogram_fixed_width(tf.constant([0.3, 0.6, 0.9], tf.float64), [0.0, 0.9], nbins=3)",
    ),
    (
        "histogram_fixed_width_i64",
        "tf.histogram_fixed_width(tf.constant([1, 4, 6], tf.int64), tf.constant([0, 10], tf.int64), nbins=3)",
    ),
    (
        "histogram_fixed_width_overflow",
        "tf.histogram_fixed_width([-2147483648, 2147483647], [-2147483648, 2147483647], nbins=4)",
    ),
    ("histogram_fixed_width_empty", "tf.histogram_fixed_width(tf.zeros([0]), [0.0, 5.0], nbins=2)"),
    (
        "histogram_fixed_width_nan",
        "tf.histogram_fixed_width([1.0, float('nan')], [0.0, 5.0], nbins=5)",
        "msg",
    ),
    (
        "histogram_fixed_width_bad_range",
        "tf.histogram_fixed_width([1.0], [5.0, 5.0], nbins=5)",
        "msg",
    ),
    (
        "histogram_fixed_width_bad_range2",
        "tf.histogram_fixed_width([1.0], [6.5, 5.0], nbins=5)",
        "msg",
    ),
    (
        "histogram_fixed_width_bad_nbins",
        "tf.histogram_fixed_width([1.0], [0.0, 5.0], nbins=0)",
        "msg",
    ),
    (
        "histogram_fixed_width_range3",
        "tf.histogram_fixed_width([1.0], [0.0, 5.0, 3.0], nbins=2)",
        "msg",
    ),
    (
        "histogram_fixed_width_nbins_vec",
        "tf.histogram_fixed_width([1.0], [0.0, 5.0], nbins=[2])",
        "msg",
    ),
    (
        "histogram_fixed_width_bins",
        "tf.histogram_fixed_width_bins([-1.0, 0.0, 1.5, 2.0, 5.0, 15], [0.0, 5.0], nbins=5)",
    ),
    (
        "histogram_fixed_width_bins_2d",
        "tf.histogram_fixed_width_bins([[1.0, 2], [3, 4]], [0.0, 5.0], nbins=2)",
    ),
    (
        "histogram_fixed_width_bins_zero",
        "tf.histogram_fixed_width_bins([1.0], [0.0, 5.0], nbins=0)",
        "msg",
    ),
    ("parallel_stack_eager", "tf.parallel_stack([[1], [2]])", "msg"),
    ("edit_distance_not_sparse", "tf.edit_distance([1], [1])", "msg"),
    # ---- common argument forms
    ("form_reshape_tuple", "tf.reshape(np.arange(6), (-1,))"),
    ("form_reshape_np_shape", "tf.reshape(tf.range(6), np.array([2, 3], np.int64))"),
    ("form_concat_axis_int64", "tf.concat([[1], [2]], tf.constant(0, tf.int64))"),
    ("form_split_neg_axis", "tf.split(tf.reshape(tf.range(6), [3, 2]), 2, axis=-1)"),
    ("form_stack_numpy", "tf.stack([np.ones(2), np.zeros(2)])"),
    (
        "form_stack_numpy_axis1",
        "tf.stack([np.ones(2, np.float32), np.zeros(2, np.float32)], axis=1)",
    ),
    ("form_unstack_list", "tf.unstack([[1, 2], [3, 4]])"),
    ("form_gather_int64", "tf.gather(['a', 'b'], tf.constant([1, 0], tf.int64))"),
    ("form_where_float_cond", "tf.where(tf.constant([0.0, 2.0, -1.0]))"),
    ("form_pad_np", "tf.pad([1, 2], np.array([[1, 2]], np.int64))"),
    ("form_one_hot_depth_tensor", "tf.one_hot([0, 1], tf.constant(2))"),
    ("form_shape_strings", "tf.shape([['a', 'b']])"),
    ("form_transpose_np", "tf.transpose(np.arange(6.0).reshape(2, 3), perm=(1, 0))"),
    ("form_cast_bool_list", "tf.cast([True, False], tf.float32)"),
    ("form_tile_int64", "tf.tile([1, 2], tf.constant([2], tf.int64))"),
    ("form_identity_np64", "tf.identity(np.array([1.5]))"),
    ("form_zeros_f16_tuple", "tf.zeros((2,), tf.float16)"),
    ("form_ones_like_bools", "tf.ones_like([True, False])"),
    ("form_fill_np_dims", "tf.fill(np.array([2], np.int64), 0.5)"),
    ("form_squeeze_tuple", "tf.squeeze(tf.zeros([1, 2, 1]), axis=(0, -1)).shape"),
    ("form_expand_scalar", "tf.expand_dims(3.0, 0)"),
    ("form_boolean_mask_int_mask", "tf.boolean_mask([1, 2, 3], tf.constant([True, True, False]))"),
    ("form_range_neg_float", "tf.range(1.0, 0.0, -0.25)"),
    ("form_range_tensors", "tf.range(tf.constant(1), tf.constant(7), tf.constant(2))"),
    ("form_size_scalar", "tf.size(3.0)"),
    ("form_rank_list", "tf.rank([[1, 2]])"),
    ("form_reverse_tensor_axis", "tf.reverse([[1, 2], [3, 4]], tf.constant([1]))"),
    ("form_broadcast_to_shape_tensor", "tf.broadcast_to([1, 2], tf.shape(tf.zeros([3, 2])))"),
    (
        "form_scatter_nd_int64_idx",
        "tf.scatter_nd(tf.constant([[0]], tf.int64), [1.5], tf.constant([2], tf.int64))",
    ),
    ("form_constant_np_f64", "tf.constant(np.float64(2.5))"),
    ("form_constant_np_int64_shape", "tf.constant(np.int64(3), shape=(2,))"),
    ("form_convert_list_of_tensors", "tf.convert_to_tensor([tf.constant(1.0), 2.0])"),
    ("form_linspace_tensors", "tf.linspace(tf.constant([0.0, 10.0]), tf.constant([1.0, 20.0]), 3)"),
    ("form_meshgrid_tensors", "tf.meshgrid(tf.range(2), tf.range(3))"),
    (
        "form_sequence_mask_tensor_maxlen",
        "tf.sequence_mask(tf.constant([1, 2], tf.int64), tf.constant(3, tf.int64))",
    ),
    (
        "form_repeat_tensor_repeats",
        "tf.repeat(tf.constant([[1], [2]]), tf.constant([2, 1]), axis=0)",
    ),
    ("form_unique_float", "tf.unique(tf.constant([1.5, -0.0, 0.0, 1.5]))"),
    ("form_constant_np_first_f64", "tf.constant([np.float64(1.0), 2.0])"),
    ("form_constant_py_first", "tf.constant([1.0, np.float64(2.0)])"),
    ("form_constant_np_int_first", "tf.constant([np.int64(1), 2])"),
    ("form_constant_np_f16_rows", "tf.constant([np.ones(2, np.float16), [1.0, 2.0]])"),
    ("form_constant_np_0d_first", "tf.constant([np.array(1.5), 2])"),
    ("autopack_f64_first", "tf.convert_to_tensor([tf.constant(1.5, tf.float64), 2.0])"),
    ("autopack_f64_second", "tf.convert_to_tensor([2.0, tf.constant(1.5, tf.float64)])"),
    ("autopack_rows", "tf.convert_to_tensor([tf.constant([1, 2]), [3, 4]])"),
    ("autopack_bad_value", "tf.convert_to_tensor([tf.constant(1), 2.5])"),
    ("autopack_dtype_cast", "tf.convert_to_tensor([tf.constant(1)], dtype=tf.float32)"),
    ("autopack_int64", "tf.convert_to_tensor([tf.constant(1, tf.int64), 2**40])"),
    ("autopack_nested", "tf.convert_to_tensor([[tf.constant(1.0)], [2]])"),
    ("autopack_reshape", "tf.reshape(tf.ones([2, 3]), [tf.constant(3, tf.int64), -1])"),
    ("autopack_zeros", "tf.zeros([tf.shape(tf.ones([2, 3]))[0], 3])"),
    (
        "fn_autopack_reshape",
        "tf.function(lambda x: tf.reshape(x, [tf.shape(x)[0], -1]))(tf.ones([2, 3]))",
    ),
    ("fn_autopack_zeros", "tf.function(lambda x: tf.zeros([tf.shape(x)[0], 3]))(tf.ones([2, 3]))"),
    ("fn_autopack_fill", "tf.function(lambda x: tf.fill([tf.shape(x)[1]], 2.0))(tf.ones([2, 3]))"),
    ("fn_autopack_tile", "tf.function(lambda x: tf.tile(x, [tf.shape(x)[0], 1]))(tf.ones([2, 3]))"),
    (
        "fn_autopack_pad",
        "tf.function(lambda x: tf.pad(x, [[0, tf.shape(x)[0]], [0, 0]]))(tf.ones([2, 3]))",
    ),
    (
        "fn_autopack_nested",
        "tf.function(lambda x: tf.convert_to_tensor([[tf.shape(x)[0]], [2]]))(tf.ones([2, 3]))",
    ),
    (
        "fn_autopack_float",
        "tf.function(lambda x: tf.convert_to_tensor([tf.reduce_sum(x), 2]))(tf.ones([2, 3]))",
    ),
    (
        "fn_autopack_bad",
        "tf.function(lambda x: tf.convert_to_tensor([tf.shape(x)[0]], dtype=tf.int64))(tf.ones([2, 3]))",
    ),
    ("edge_stack_empty", "tf.stack([])"),
    ("edge_concat_empty", "tf.concat([], 0)"),
    ("edge_split_zero", "tf.split(tf.range(4), 0)"),
    ("edge_split_bool_num", "tf.split(tf.range(4), True)"),
    ("edge_unstack_empty_dim", "tf.unstack(tf.zeros([0, 2]))"),
    ("edge_meshgrid_scalar", "tf.meshgrid(1, 2)"),
    ("edge_tile_neg", "tf.tile([1], [-1])"),
    ("edge_zeros_big", "tf.zeros([2**31, 0]).shape"),
    ("edge_ones_like_scalar", "tf.ones_like(3)"),
    ("edge_range_big_delta", "tf.range(0, 10, 20)"),
    ("edge_linspace_int_axis_out", "tf.linspace(0.0, 1.0, 3, axis=2)"),
    ("edge_one_hot_negative_depth", "tf.one_hot([0], -1)"),
    ("edge_where_scalar", "tf.where(True)"),
    ("edge_boolean_mask_empty", "tf.boolean_mask(tf.zeros([0, 2]), tf.zeros([0], tf.bool))"),
    ("edge_gather_axis_out", "tf.gather([1, 2], [0], axis=1)"),
    ("edge_repeat_empty", "tf.repeat(tf.zeros([0]), 3)"),
    ("edge_sequence_mask_empty", "tf.sequence_mask(tf.zeros([0], tf.int32))"),
    ("edge_searchsorted_scalar", "tf.searchsorted(1, 1)"),
    ("edge_squeeze_scalar", "tf.squeeze(5)"),
    ("edge_reshape_none", "tf.reshape([1], [None])"),
    ("edge_identity_n_empty", "tf.identity_n([])"),
    ("edge_shape_n_empty", "tf.shape_n([])"),
    ("edge_cast_none", "tf.cast(None, tf.int32)"),
    ("edge_fill_none", "tf.fill([2], None)"),
    ("edge_constant_none", "tf.constant(None)"),
    ("edge_convert_none", "tf.convert_to_tensor(None)"),
    ("edge_constant_dict", "tf.constant({'a': 1})"),
    ("edge_saturate_cast_bool", "tf.saturate_cast([True], tf.int32)"),
    ("edge_bitcast_same", "tf.bitcast(tf.constant([1.5]), tf.float32)"),
    (
        "edge_dynamic_partition_empty",
        "tf.dynamic_partition(tf.zeros([0]), tf.zeros([0], tf.int32), 2)",
    ),
    (
        "extract_volume_patches_valid",
        "tf.extract_volume_patches(tf.reshape(tf.range(2 * 3 * 4 * 4 * 2, dtype=tf.float32), [2, 3, 4, 4, 2]), [1, 2, 2, 3, 1], [1, 1, 2, 1, 1], 'VALID')",
    ),
    (
        "extract_volume_patches_same",
        "tf.extract_volume_patches(tf.reshape(tf.range(3 * 5 * 4, dtype=tf.int32), [1, 3, 5, 4, 1]), [1, 2, 3, 2, 1], [1, 2, 2, 3, 1], 'SAME')",
    ),
    (
        "extract_volume_patches_same_big_stride",
        "tf.extract_volume_patches(tf.reshape(tf.range(4 * 4 * 4, dtype=tf.float64), [1, 4, 4, 4, 1]), [1, 1, 1, 2, 1], [1, 4, 3, 4, 1], 'SAME')",
    ),
    (
        "extract_volume_patches_empty",
        "tf.extract_volume_patches(tf.zeros([1, 2, 2, 2, 1]), [1, 3, 1, 1, 1], [1, 1, 1, 1, 1], 'VALID')",
    ),
    (
        "extract_volume_patches_negative",
        "tf.extract_volume_patches(tf.zeros([1, 2, 2, 2, 1]), [1, 5, 1, 1, 1], [1, 1, 1, 1, 1], 'VALID')",
        "msg",
    ),
    (
        "extract_volume_patches_rank",
        "tf.extract_volume_patches(tf.zeros([1, 2, 2, 1]), [1, 1, 1, 1, 1], [1, 1, 1, 1, 1], 'VALID')",
        "msg",
    ),
    (
        "extract_volume_patches_batch_ksize",
        "tf.extract_volume_patches(tf.zeros([1, 2, 2, 2, 1]), [2, 1, 1, 1, 1], [1, 1, 1, 1, 1], 'VALID')",
        "msg",
    ),
    (
        "extract_volume_patches_zero_stride",
        "tf.extract_volume_patches(tf.zeros([1, 2, 2, 2, 1]), [1, 1, 1, 1, 1], [1, 0, 1, 1, 1], 'VALID')",
        "msg",
    ),
    (
        "fn_extract_volume_patches",
        "tf.function(lambda x: tf.extract_volume_patches(x, [1, 1, 2, 2, 1], [1, 1, 1, 1, 1], 'SAME'))(tf.ones([1, 2, 3, 3, 2])).shape",
    ),
    # ---- inside tf.function (graph mode)
    ("fn_reshape_zeros", "tf.function(lambda: tf.reshape(tf.zeros([2, 3]) + 1.0, [3, 2]))()"),
    ("fn_constant_shape", "tf.function(lambda: tf.constant(2, shape=[2, 2], name='k'))()"),
    ("fn_constant_shape_bad", "tf.function(lambda: tf.constant([1, 2, 3], shape=[2]))()", "msg"),
    (
        "fn_stack_split",
        "tf.function(lambda: tf.split(tf.stack([tf.range(4), tf.range(4)]), 2, axis=1))()",
    ),
    ("fn_boolean_mask", "tf.function(lambda: tf.boolean_mask(tf.range(5), tf.range(5) > 2))()"),
    ("fn_one_hot_where", "tf.function(lambda: tf.where(tf.one_hot([1, 0], 2) > 0, 7, 8))()"),
    ("fn_linspace", "tf.function(lambda: tf.linspace(0.0, 2.0, 5))()"),
    ("fn_repeat", "tf.function(lambda: tf.repeat([[1, 2], [3, 4]], [2, 1], axis=0))()"),
    ("fn_sequence_mask", "tf.function(lambda: tf.sequence_mask([1, 2]))()"),
    ("fn_transpose_pad", "tf.function(lambda: tf.pad(tf.transpose([[1, 2]]), [[1, 0], [0, 1]]))()"),
    (
        "fn_convert",
        "tf.function(lambda: tf.convert_to_tensor(1, dtype_hint=tf.float32) + tf.cast(2, tf.float32))()",
    ),
    (
        "fn_gather_nd_batch",
        "tf.function(lambda: tf.gather_nd([[1, 2], [3, 4]], [[1], [0]], batch_dims=1))()",
    ),
    ("fn_dynamic_stitch", "tf.function(lambda: tf.dynamic_stitch([[1], [0]], [[5], [6]]))()"),
    (
        "fn_histogram",
        "tf.function(lambda: tf.histogram_fixed_width([1.0, 2.0], [0.0, 4.0], nbins=2))()",
    ),
]


def encode(value: Any) -> Any:
    """A JSON form of a result: tensors, lists, shapes, dtypes, Python values."""
    import numpy as np

    kind = type(value).__name__
    if hasattr(value, "numpy") and hasattr(value, "dtype") and hasattr(value, "shape"):
        arr = np.asarray(value.numpy())
        return {
            "t": "tensor",
            "dtype": value.dtype.name,
            "shape": [int(d) for d in arr.shape],
            "value": encode_array(arr),
        }
    if kind == "TensorShape":
        return {"t": "shape", "dims": None if value.rank is None else list(value.as_list())}
    if kind == "DType":
        return {"t": "dtype", "name": value.name}
    if isinstance(value, (list, tuple)):
        return {"t": "list", "items": [encode(v) for v in value]}
    if isinstance(value, np.ndarray):
        return {"t": "array", "value": encode_array(value)}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"t": "py", "value": value}
    return {"t": "other", "repr": repr(value)}


def encode_array(arr: Any) -> Any:
    import numpy as np

    if arr.dtype.kind == "c":
        return {"re": arr.real.tolist(), "im": arr.imag.tolist()}
    if arr.dtype.kind in "OS":
        flat = [v.decode("latin-1") if isinstance(v, bytes) else v for v in arr.flat]
        return {"strings": flat}
    if arr.dtype.kind == "V" or arr.dtype.name == "bfloat16":
        return arr.astype(np.float32).tolist()
    return arr.tolist()


def run_case(expr: str, env: dict[str, Any]) -> dict[str, Any]:
    try:
        value = eval(expr, env)
    except Exception as exc:
        return {"error": type(exc).__name__, "message": str(exc)}
    return {"result": encode(value)}


def main() -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf

    env = {"tf": tf, "np": np}
    records = []
    ids = set()
    for case in CASES:
        cid, expr = case[0], case[1]
        flags = case[2] if len(case) > 2 else ""  # type: ignore[misc]
        if cid in ids:
            raise SystemExit(f"duplicate case id {cid}")
        ids.add(cid)
        rec = {"id": cid, "expr": expr, "flags": flags, **run_case(expr, env)}
        records.append(rec)
    data = {
        "about": "tf.* array functions: TF 2.21 results recorded by tools/record_api_array.py",
        "tf_version": tf.__version__,
        "cases": records,
    }
    OUT.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    print(f"wrote {len(records)} cases to {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
