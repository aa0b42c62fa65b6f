# ruff: noqa: E501 - the case table and scripts are data, one case per line
"""Records TensorFlow 2.21's behaviour for tests/python/test_api_framework.py.

Run with a Python that has TensorFlow (never needed by the tests):

    /work/tfvenv/bin/python tools/record_api_framework.py

Two kinds of records go to tests/data/api_framework_tf221.json:

* ``cases``: one Python expression each, evaluated with ``tf`` (and ``np``,
  ``collections``, ``sys``, the namedtuples ``P``/``Q``/``P2``) bound; the
  record is ``repr()`` of the result or the exception's type name and
  message. ``exact: false`` marks cases whose message is TF's op error
  text, where only the exception type is compared.
* ``scripts``: small programs run in a fresh interpreter (device and
  config settings that only work before the eager context exists,
  ``tf.print`` to stdout); the record is their stdout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "api_framework_tf221.json"

PRELUDE = r"""
import collections, sys
import numpy as np
P = collections.namedtuple("P", ["x", "y"])
Q = collections.namedtuple("Q", ["x", "y"])
P2 = collections.namedtuple("P", ["x", "y"])


def kernel_error(f):
    # The exception type and the kernel's own text: without TF's
    # "{{function_node ...}} " prefix and " [Op:...]" suffix, and for a
    # function call only the "assertion failed: ..." line.
    import re
    try:
        f()
    except Exception as e:
        m = str(e)
        found = re.search(r"assertion failed: [^\n]*", m)
        if found:
            return type(e).__name__, found.group(0).split(" [Op:")[0]
        return type(e).__name__, m.split("}} ", 1)[-1].split(" [Op:")[0]
    return None


def traced(check, *args):
    # Runs ``check(*args)`` inside a tf.function and returns 1 (named
    # parameters: placeholder names of *args differ between TF and tfe).
    def one(x):
        check(x)
        return tf.constant(1)

    def two(c, x):
        check(c, x)
        return tf.constant(1)

    return tf.function(one if len(args) == 1 else two)(*args)
"""

# (name, expression, exact): exact=False compares the exception type only.
CASES: list[tuple[str, str, bool]] = [
    # tf.nest
    ("nest_flatten_dict", 'tf.nest.flatten({"b": 1, "a": 2, "c": {"z": 3, "y": [4, 5]}})', True),
    ("nest_flatten_namedtuple", "tf.nest.flatten(P(1, (2, 3)))", True),
    ("nest_flatten_str", 'tf.nest.flatten("abc")', True),
    ("nest_flatten_none", "tf.nest.flatten(None)", True),
    ("nest_flatten_unsortable", 'tf.nest.flatten({1: "a", "b": 2})', True),
    ("nest_flatten_ordered", 'tf.nest.flatten(collections.OrderedDict([("b", 1), ("a", 2)]))', True),
    ("nest_flatten_ndarray", "tf.nest.flatten(np.array([1, 2]))", True),
    ("nest_flatten_keys", 'tf.nest.flatten({"a": 1}.keys())', True),
    ("nest_flatten_items", 'tf.nest.flatten({"a": 1, "b": 2}.items())', True),
    ("nest_flatten_set", "tf.nest.flatten({1, 2})", True),
    ("nest_flatten_range", "tf.nest.flatten(range(3))", True),
    ("nest_flatten_empty", "tf.nest.flatten([(1,), [], {}, ()])", True),
    ("nest_flatten_tuple_keys", 'tf.nest.flatten({(1, 2): "t", (0, 5): "s"})', True),
    ("nest_flatten_shape", "tf.nest.flatten(tf.TensorShape([1, 2]))", True),
    ("nest_flatten_tensors", 'tf.nest.flatten({"w": tf.constant([1, 2]), "b": tf.constant(3)})', True),
    ("nest_flatten_composites", 'tf.nest.flatten({"a": 1}, expand_composites=True)', True),
    (
        "nest_is_nested",
        '[tf.nest.is_nested(x) for x in [[], (), {}, "s", 1, None, P(1, 2), np.array([1]), {1},'
        ' range(2), {"a": 1}.keys(), tf.constant([1])]]',
        True,
    ),
    ("nest_map_namedtuple", 'tf.nest.map_structure(lambda a: a + 1, P(1, [2, {"k": 3}]))', True),
    ("nest_map_list_tuple", "tf.nest.map_structure(lambda a, b: a + b, [1, 2], (1, 2))", True),
    (
        "nest_map_no_check",
        "tf.nest.map_structure(lambda a, b: a + b, [1, 2], (1, 2), check_types=False)",
        True,
    ),
    ("nest_map_length", "tf.nest.map_structure(lambda a, b: a + b, [1, 2], [1, 2, 3])", True),
    ("nest_map_keys", 'tf.nest.map_structure(lambda a, b: a + b, {"a": 1}, {"b": 1})', True),
    ("nest_map_none", "tf.nest.map_structure(lambda a: a)", True),
    ("nest_map_not_callable", "tf.nest.map_structure(1, [1])", True),
    ("nest_map_bad_kw", "tf.nest.map_structure(lambda a: a, [1], foo=2)", True),
    ("nest_map_other_namedtuple", "tf.nest.map_structure(lambda a, b: (a, b), P(1, 2), Q(3, 4))", True),
    ("nest_map_same_namedtuple", "tf.nest.map_structure(lambda a, b: (a, b), P(1, 2), P2(3, 4))", True),
    (
        "nest_map_dict_ordered",
        'tf.nest.map_structure(lambda a, b: (a, b), {"a": 1}, collections.OrderedDict(a=2))',
        True,
    ),
    (
        "nest_map_keeps_order",
        'tf.nest.map_structure(lambda a: a * 2, collections.OrderedDict([("b", 1), ("a", 2)]))',
        True,
    ),
    ("nest_map_dict_order", 'tf.nest.map_structure(lambda a: a * 2, {"b": 1, "a": 2})', True),
    ("nest_map_leaf_vs_seq", "tf.nest.map_structure(lambda a, b: a, 1, [1])", True),
    (
        "nest_map_defaultdict",
        'tf.nest.map_structure(lambda a: a * 2, collections.defaultdict(int, {"b": 1, "a": 2}))',
        True,
    ),
    ("nest_map_values", 'tf.nest.map_structure(lambda a: a * 2, {"a": 1}.values())', True),
    ("nest_map_tensors", 'tf.nest.map_structure(lambda t: t.shape.as_list(), {"w": tf.constant([1, 2]), "b": tf.constant(3)})', True),
    ("nest_pack_dict", 'tf.nest.pack_sequence_as({"b": 0, "a": [0, 0]}, [7, 8, 9])', True),
    ("nest_pack_leaf_many", "tf.nest.pack_sequence_as(5, [1, 2])", True),
    ("nest_pack_short", "tf.nest.pack_sequence_as([0, 0], [1])", True),
    ("nest_pack_long", "tf.nest.pack_sequence_as([0, 0], [1, 2, 3])", True),
    ("nest_pack_not_seq", "tf.nest.pack_sequence_as([0, 0], 5)", True),
    ("nest_pack_leaf", "tf.nest.pack_sequence_as(5, [9])", True),
    ("nest_pack_namedtuple", "tf.nest.pack_sequence_as(P(0, 0), (1, 2))", True),
    ("nest_pack_empty", "tf.nest.pack_sequence_as([], [])", True),
    ("nest_pack_str", 'tf.nest.pack_sequence_as([0], "ab")', True),
    ("nest_pack_ndarray", "tf.nest.pack_sequence_as([0, 0], np.array([1, 2]))", True),
    ("nest_same_nested", "tf.nest.assert_same_structure([1, 2], [1, [2]])", True),
    ("nest_same_types", "tf.nest.assert_same_structure([1, 2], (1, 2))", True),
    ("nest_same_no_types", "tf.nest.assert_same_structure([1, 2], (1, 2), check_types=False)", True),
    ("nest_same_dict_keys", 'tf.nest.assert_same_structure({"a": 1}, {"a": 1, "b": 2})', True),
    ("nest_same_inner_length", "tf.nest.assert_same_structure([[1]], [[1, 2]])", True),
    ("nest_same_strings", 'tf.nest.assert_same_structure("ab", "c")', True),
    ("nest_same_dict_value", 'tf.nest.assert_same_structure({"a": [1]}, {"a": 1})', True),
    ("nest_ragged_flatten", "tf.nest.flatten(tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 1]), expand_composites=True)", True),
    ("nest_ragged_flatten_2", "tf.nest.flatten(tf.RaggedTensor.from_row_lengths(tf.RaggedTensor.from_row_lengths([1, 2, 3, 4], [1, 2, 1]), [2, 1]), expand_composites=True)", True),
    ("nest_ragged_leaf", "len(tf.nest.flatten([tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 1])]))", True),
    ("nest_ragged_map", 'tf.nest.map_structure(lambda t: t, {"r": tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 1])}, expand_composites=True)["r"].to_list()', True),
    ("nest_ragged_pack", "tf.nest.pack_sequence_as(tf.RaggedTensor.from_row_lengths([0, 0, 0], [2, 1]), [tf.constant([4, 5, 6]), tf.constant([0, 1, 3], tf.int64)], expand_composites=True).to_list()", True),
    ("nest_ragged_same", "tf.nest.assert_same_structure(tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 1]), tf.RaggedTensor.from_row_lengths([1.0], [1]), expand_composites=True)", False),
    # tf.debugging
    ("dbg_equal_ok", "tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 2]))", True),
    ("dbg_equal", "tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]))", True),
    (
        "dbg_equal_message",
        'tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]), message="custom",'
        " summarize=1)",
        True,
    ),
    ("dbg_equal_bcast_ok", "tf.debugging.assert_equal(tf.constant([[1, 1]]), tf.constant(1))", True),
    ("dbg_equal_bcast", "tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 2, 3]))", False),
    ("dbg_equal_dtype", "tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1.0, 2.0]))", False),
    ("dbg_equal_python", "tf.debugging.assert_equal(1, 2)", True),
    ("dbg_equal_many", "tf.debugging.assert_equal(tf.range(10), tf.range(10) * 0)", True),
    ("dbg_equal_2d", "tf.debugging.assert_equal(tf.constant([[1, 2], [3, 4]]), tf.constant([[1, 2], [3, 5]]))", True),
    ("dbg_equal_empty", "tf.debugging.assert_equal(tf.constant([], tf.int32), tf.constant([], tf.int32))", True),
    ("dbg_none_equal", "tf.debugging.assert_none_equal(tf.constant([1, 2]), tf.constant([1, 3]))", True),
    ("dbg_less", "tf.debugging.assert_less(tf.constant([3]), tf.constant([2]))", True),
    ("dbg_less_ok", "tf.debugging.assert_less(tf.constant(1), tf.constant(2))", True),
    ("dbg_less_equal", "tf.debugging.assert_less_equal(tf.constant([3, 1]), tf.constant([2, 1]))", True),
    ("dbg_greater", "tf.debugging.assert_greater(tf.constant([1]), tf.constant([2]))", True),
    ("dbg_greater_equal", "tf.debugging.assert_greater_equal(tf.constant([1]), tf.constant([2]))", True),
    ("dbg_positive", 'tf.debugging.assert_positive(tf.constant([1, -1]), message="need positive")', True),
    ("dbg_negative", "tf.debugging.assert_negative(tf.constant([1, -1]))", True),
    ("dbg_non_positive", "tf.debugging.assert_non_positive(tf.constant([1, -1]))", True),
    ("dbg_non_negative", "tf.debugging.assert_non_negative(tf.constant([1, -1]))", True),
    ("dbg_non_negative_ok", "tf.debugging.assert_non_negative(tf.constant([0, 1]))", True),
    ("dbg_positive_uint8", "tf.debugging.assert_positive(tf.constant([0], tf.uint8))", True),
    ("dbg_positive_long", "tf.debugging.assert_positive(tf.constant([-1, -2, -3, -4, -5]))", True),
    ("dbg_near", "tf.debugging.assert_near(tf.constant([1.0]), tf.constant([2.0]))", True),
    ("dbg_near_ok", "tf.debugging.assert_near(tf.constant([1.0]), tf.constant([1.0 + 1e-7]))", True),
    ("dbg_near_rtol", "tf.debugging.assert_near(tf.constant([1.0]), tf.constant([1.1]), rtol=0.2)", True),
    ("dbg_near_int", "tf.debugging.assert_near(tf.constant([1]), tf.constant([1]))", True),
    (
        "dbg_near_f64",
        "tf.debugging.assert_near(tf.constant([1.0], tf.float64), tf.constant([1.0 + 1e-9], tf.float64))",
        True,
    ),
    ("dbg_rank", "tf.debugging.assert_rank(tf.zeros([2, 2]), 3)", True),
    ("dbg_rank_message", 'tf.debugging.assert_rank(tf.zeros([2, 2]), 3, message="mm")', True),
    ("dbg_rank_ok", "tf.debugging.assert_rank(tf.zeros([2, 2]), 2)", True),
    ("dbg_rank_tensor", "tf.debugging.assert_rank(tf.zeros([2, 2]), tf.constant(3))", True),
    ("dbg_rank_not_scalar", "tf.debugging.assert_rank(tf.zeros([2, 2]), tf.constant([3]))", True),
    ("dbg_rank_at_least", "tf.debugging.assert_rank_at_least(tf.zeros([2]), 2)", True),
    ("dbg_rank_in", "tf.debugging.assert_rank_in(tf.zeros([2]), [0, 2])", True),
    ("dbg_rank_in_ok", "tf.debugging.assert_rank_in(tf.zeros([2]), (0, 1))", True),
    (
        "dbg_shapes",
        'tf.debugging.assert_shapes([(tf.zeros([2, 3]), ("N", "D")), (tf.zeros([3]), ("N",))])',
        True,
    ),
    (
        "dbg_shapes_ok",
        'tf.debugging.assert_shapes([(tf.zeros([2, 3]), ("N", "D")), (tf.zeros([2]), ("N",))])',
        True,
    ),
    ("dbg_shapes_rank", 'tf.debugging.assert_shapes([(tf.zeros([2, 3]), ("N",))])', True),
    ("dbg_shapes_int", "tf.debugging.assert_shapes([(tf.zeros([2, 3]), (2, 4))])", True),
    ("dbg_shapes_str_dots", 'tf.debugging.assert_shapes([(tf.zeros([5, 2, 3]), ("...", "D"))])', True),
    (
        "dbg_shapes_ellipsis",
        'tf.debugging.assert_shapes([(tf.zeros([5, 2, 3]), (..., "D")), (tf.zeros([3]), ("D",))])',
        True,
    ),
    (
        "dbg_shapes_ellipsis_bad",
        'tf.debugging.assert_shapes([(tf.zeros([5, 2, 3]), (..., "D")), (tf.zeros([4]), ("D",))])',
        True,
    ),
    ("dbg_shapes_ellipsis_late", 'tf.debugging.assert_shapes([(tf.zeros([5, 2]), ("N", ...))])', True),
    ("dbg_shapes_scalar", "tf.debugging.assert_shapes([(tf.zeros([]), ())])", True),
    ("dbg_shapes_scalar_one", "tf.debugging.assert_shapes([(tf.zeros([1]), [])])", True),
    ("dbg_shapes_any", "tf.debugging.assert_shapes([(tf.zeros([2, 3]), (None, 3))])", True),
    ("dbg_shapes_dot", 'tf.debugging.assert_shapes([(tf.zeros([2, 3]), (".", 3))])', True),
    ("dbg_shapes_not_iterable", "tf.debugging.assert_shapes([(tf.zeros([2]), 5)])", True),
    ("dbg_type", "tf.debugging.assert_type(tf.constant(1), tf.float32)", True),
    ("dbg_type_message", 'tf.debugging.assert_type(tf.constant(1), tf.float32, message="mm")', True),
    ("dbg_type_ok", "tf.debugging.assert_type(tf.constant(1.0), tf.float32)", True),
    ("dbg_integer", "tf.debugging.assert_integer(tf.constant(1.0))", True),
    ("dbg_integer_ok", "tf.debugging.assert_integer(tf.constant(1))", True),
    ("dbg_scalar", "tf.debugging.assert_scalar(tf.constant([1]))", True),
    ("dbg_scalar_ok", "tf.debugging.assert_scalar(tf.constant(1))", True),
    ("dbg_scalar_message", 'tf.debugging.assert_scalar(tf.constant([1]), message="mm")', True),
    ("dbg_iterable_str", 'tf.debugging.assert_proper_iterable("abc")', True),
    ("dbg_iterable_ndarray", "tf.debugging.assert_proper_iterable(np.array([1]))", True),
    ("dbg_iterable_int", "tf.debugging.assert_proper_iterable(5)", True),
    ("dbg_iterable_ok", "tf.debugging.assert_proper_iterable([1])", True),
    ("dbg_all_finite", 'tf.debugging.assert_all_finite(tf.constant([float("inf")]), "inf here")', False),
    ("dbg_all_finite_ok", 'tf.debugging.assert_all_finite(tf.constant([1.0, 2.0]), "finite")', True),
    ("dbg_check_numerics_nan", 'tf.debugging.check_numerics(tf.constant([float("nan")]), "bad value")', False),
    ("dbg_check_numerics_ok", 'tf.debugging.check_numerics(tf.constant([1.0]), "fine")', True),
    ("dbg_check_numerics_int", 'tf.debugging.check_numerics(tf.constant([1]), "x")', False),
    (
        "dbg_is_numeric",
        "[tf.debugging.is_numeric_tensor(x) for x in [tf.constant('a'), tf.constant(1),"
        " tf.constant(True), tf.constant(1.0), 1, tf.constant(1 + 1j)]]",
        True,
    ),
    ("dbg_same_float", "tf.debugging.assert_same_float_dtype([tf.constant(1.0), tf.constant(2.0)])", True),
    (
        "dbg_same_float_mixed",
        "tf.debugging.assert_same_float_dtype([tf.constant(1.0), tf.constant(2.0, tf.float64)])",
        True,
    ),
    ("dbg_same_float_int", "tf.debugging.assert_same_float_dtype([tf.constant(1)])", True),
    ("dbg_same_float_dtype", "tf.debugging.assert_same_float_dtype(None, tf.float64)", True),
    ("dbg_same_float_none", "tf.debugging.assert_same_float_dtype()", True),
    ("dbg_toplevel_equal", "tf.assert_equal(1, 2)", True),
    ("dbg_toplevel_rank", "tf.assert_rank(tf.constant(1), 1)", True),
    # framework
    ("fw_assert_ok", 'tf.Assert(tf.constant(True), ["x"])', True),
    ("fw_assert", 'tf.Assert(tf.constant(False), ["msg", tf.constant([1, 2])])', True),
    ("fw_assert_summarize", 'tf.Assert(False, ["msg", tf.constant([1, 2, 3, 4, 5])], summarize=2)', True),
    ("fw_assert_vector", 'tf.Assert(tf.constant([True, False]), ["x"])', True),
    ("fw_assert_chars", 'tf.Assert(tf.constant(False), "not list")', True),
    ("fw_raw_assert", 'kernel_error(lambda: tf.raw_ops.Assert(condition=tf.constant(False), data=[tf.constant(["a", "b"]), tf.constant(1.0, tf.float64)], summarize=1))', True),
    ("fw_raw_assert_vector", "kernel_error(lambda: tf.raw_ops.Assert(condition=tf.constant([False, True]), data=[tf.constant(1)]))", True),
    ("fw_raw_assert_one", "kernel_error(lambda: tf.raw_ops.Assert(condition=tf.constant([False]), data=[tf.constant(1)]))", True),
    ("fw_raw_assert_all", "kernel_error(lambda: tf.raw_ops.Assert(condition=False, data=[tf.range(5)], summarize=-1))", True),
    ("fw_raw_assert_zero", "kernel_error(lambda: tf.raw_ops.Assert(condition=False, data=[tf.range(5), tf.zeros([0])], summarize=0))", True),
    ("fw_raw_assert_types", "kernel_error(lambda: tf.raw_ops.Assert(condition=False, data=[tf.constant([1 + 2j]), tf.constant(3, tf.uint64), tf.constant([[[1]]], tf.int8), tf.constant([-0.5, 1e-7]), tf.constant(2.5, tf.float64)]))", True),
    ("fw_raw_assert_true", "tf.raw_ops.Assert(condition=True, data=[tf.constant(1)])", True),
    ("fw_fn_assert", 'kernel_error(lambda: traced(lambda c, x: tf.Assert(c, ["msg", x, tf.constant([[1.5, 2.0], [3.0, 4.0]]), tf.constant(True)]), tf.constant(False), tf.range(10)))', True),
    ("fw_fn_assert_ok", 'traced(lambda c, x: tf.Assert(c, ["msg", x]), tf.constant(True), tf.range(10))', True),
    ("fw_fn_positive", 'kernel_error(lambda: traced(lambda x: tf.debugging.assert_positive(x, message="mm"), tf.constant([1, -2])))', True),
    ("fw_fn_positive_ok", "traced(lambda x: tf.debugging.assert_positive(x), tf.constant([1, 2]))", True),
    ("fw_fn_rank", "kernel_error(lambda: traced(lambda x: tf.debugging.assert_rank(x, 2), tf.constant([1, 2])))", True),
    ("fw_timestamp", "(tf.timestamp().dtype, tf.timestamp().shape, abs(float(tf.timestamp()) - __import__('time').time()) < 60)", True),
    ("fw_executing_eagerly", "tf.executing_eagerly()", True),
    ("fw_inside_function", "tf.inside_function()", True),
    ("fw_is_tensor", "(tf.is_tensor(tf.constant(1)), tf.is_tensor(1), tf.is_tensor(np.ones(2)))", True),
    ("fw_is_symbolic", "(tf.is_symbolic_tensor(tf.constant(1)), tf.is_symbolic_tensor(1))", True),
    ("fw_static_tensor", "tf.get_static_value(tf.constant([1, 2]))", True),
    ("fw_static_int", "tf.get_static_value(3)", True),
    ("fw_static_list", "tf.get_static_value([1, 2])", True),
    ("fw_static_scalar", "tf.get_static_value(tf.constant(3.5))", True),
    ("fw_no_op", "tf.no_op()", True),
    ("fw_group", "tf.group(tf.constant(1), tf.constant(2))", True),
    ("fw_tuple", "tf.tuple([tf.constant(1), None])", True),
    ("fw_name_scope_empty", "tf.get_current_name_scope()", True),
    ("fw_name_scope_name", 'tf.name_scope("foo").name', True),
    ("fw_name_scope_not_str", "tf.name_scope(1)", True),
    ("fw_control_deps_not_iterable", "tf.control_dependencies(1)", True),
    ("fw_device_int", "tf.device(1).__enter__()", True),
    ("fw_device_function", 'tf.device(lambda op: "/cpu:0")', True),
    ("fw_device_lazy", 'type(tf.device("XYZ:0")).__name__ != "DeviceSpec"', True),
    ("fw_device_unknown", 'tf.device("XYZ:0").__enter__()', True),
    ("fw_device_two_types", 'tf.device("/CPU:0/GPU:0").__enter__()', True),
    ("fw_device_bad_index", 'tf.device("/device:CPU:x").__enter__()', True),
    ("fw_spec_repr", 'tf.DeviceSpec.from_string("/job:localhost/replica:0/task:0/device:CPU:0")', True),
    (
        "fw_spec_strings",
        '[tf.DeviceSpec.from_string(s).to_string() for s in ["cpu:0", "/CPU:*", "GPU", "/job:a/job:b",'
        ' "/device:cpu:1", "/task:3", "//CPU:0", "/cpu:0/", "", "CUSTOM:2", "TPU"]]',
        True,
    ),
    (
        "fw_spec_merge",
        'tf.DeviceSpec(job="w", device_type="gpu", device_index=1)'
        ".make_merged_spec(tf.DeviceSpec(task=3)).to_string()",
        True,
    ),
    ("fw_spec_replace", 'tf.DeviceSpec(job="w", device_type="GPU").replace(job="x").to_string()', True),
    ("fw_spec_eq", 'tf.DeviceSpec.from_string("/cpu:0") == tf.DeviceSpec(device_type="CPU", device_index=0)', True),
    (
        "fw_spec_fields",
        'tuple(getattr(tf.DeviceSpec.from_string("/job:w/replica:1/task:2/device:GPU:3"), k)'
        ' for k in ("job", "replica", "task", "device_type", "device_index"))',
        True,
    ),
    ("fw_spec_bad", 'tf.DeviceSpec.from_string("foo")', True),
    ("fw_print_bad_stream", 'tf.print("x", output_stream="bogus")', True),
    ("fw_print_bad_keyword", 'tf.print("x", foo=1)', True),
    # tf.errors
    ("err_construct", '(lambda e: (e.message, str(e), e.error_code, e.op, e.node_def))(tf.errors.InvalidArgumentError(None, None, "custom message"))', True),
    ("err_unknown_code", 'tf.errors.UnknownError(None, None, "u").error_code', True),
    ("err_op_error", '(lambda e: (type(e).__name__, e.error_code))(tf.errors.OpError(None, None, "m", tf.errors.ABORTED))', True),
    ("err_payloads", 'tf.errors.NotFoundError(None, None, "nf", {"a": b"x"}).experimental_payloads', True),
    (
        "err_codes",
        "[getattr(tf.errors, n) for n in ('OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT',"
        " 'DEADLINE_EXCEEDED', 'NOT_FOUND', 'ALREADY_EXISTS', 'PERMISSION_DENIED',"
        " 'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE', 'UNIMPLEMENTED',"
        " 'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS', 'UNAUTHENTICATED')]",
        True,
    ),
    (
        "err_classes",
        "[(n, issubclass(getattr(tf.errors, n), tf.errors.OpError)) for n in ('CancelledError',"
        " 'UnknownError', 'InvalidArgumentError', 'DeadlineExceededError', 'NotFoundError',"
        " 'AlreadyExistsError', 'PermissionDeniedError', 'ResourceExhaustedError',"
        " 'FailedPreconditionError', 'AbortedError', 'OutOfRangeError', 'UnimplementedError',"
        " 'InternalError', 'UnavailableError', 'DataLossError', 'UnauthenticatedError')]",
        True,
    ),
    ("err_not_allowed", "issubclass(tf.errors.OperatorNotAllowedInGraphError, TypeError)", True),
    # tf.config (state that does not depend on initialization)
    ("cfg_physical", "tf.config.list_physical_devices()", True),
    ("cfg_physical_lower", 'tf.config.list_physical_devices("cpu")', True),
    ("cfg_physical_none", 'tf.config.list_physical_devices("NOSUCHDEVICE")', True),
    ("cfg_logical_config", "tf.config.LogicalDeviceConfiguration(memory_limit=10)", True),
    ("cfg_memory_growth", "tf.config.experimental.get_memory_growth(tf.config.list_physical_devices()[0])", True),
    ("cfg_set_memory_growth", "tf.config.experimental.set_memory_growth(tf.config.list_physical_devices()[0], True)", True),
    ("cfg_memory_growth_gpu", 'tf.config.experimental.set_memory_growth(tf.config.PhysicalDevice("/physical_device:GPU:0", "GPU"), True)', True),
    ("cfg_memory_growth_str", 'tf.config.experimental.get_memory_growth("CPU")', True),
    ("cfg_device_details", "tf.config.experimental.get_device_details(tf.config.list_physical_devices()[0])", True),
    ("cfg_memory_info", 'tf.config.experimental.get_memory_info("CPU:0")', True),
    ("cfg_bad_policy", 'tf.config.experimental.set_device_policy("foo")', True),
    ("cfg_functions_eagerly", "tf.config.functions_run_eagerly()", True),
]

# tf.make_tensor_proto: text format, wire format and make_ndarray of each.
_PROTO_VALUES = [
    "5", "5.5", "[1, 2, 3]", "[1.5, 2.5]", "np.array([1, 2], np.int64)", "True", "[True, False]",
    "'ab'", "[b'a', b'\\xff']", "np.float16(1.5)", "np.array([1.5, 2], np.float16)", "1+2j",
    "[1+2j, 3j]", "np.array([1.5], np.float64)", "np.array([1.5, 2.0], np.float64)",
    "5, dtype=tf.int64, shape=[2]", "[1, 2], shape=[2, 1]", "[1, 2, 3], shape=[2]",
    "[1, 2], shape=[3]", "[1, 2], shape=[4], allow_broadcast=True",
    "[1, 2], shape=[3], verify_shape=True", "np.zeros([0, 2], np.float32)",
    "np.array(7, np.uint8)", "np.array([7, 8], np.uint8)", "np.array([7], np.uint32)",
    "np.array([7], np.uint64)", "np.array([-1, 1], np.int8)", "np.array([-3], np.int32)",
    "tf.constant([1, 2])", "None", "1.5, dtype=tf.int32",
    "np.array([1.0, 2.0], np.float32), dtype=tf.float64", "np.array(['a', 'b'])",
    "300, dtype=tf.int8", "[1, 2], dtype=tf.string", "[0.1, 1e-10, 3.4e38]",
    "np.array([0.1, 1e300], np.float64)[:1]", "np.array([[1, 2]], np.uint16)",
]
for _i, _v in enumerate(_PROTO_VALUES):
    CASES.append((f"proto_{_i:02d}_text", f"str(tf.make_tensor_proto({_v}))", True))
    CASES.append((f"proto_{_i:02d}_wire", f"tf.make_tensor_proto({_v}).SerializeToString()", True))
    CASES.append((f"proto_{_i:02d}_ndarray", f"tf.make_ndarray(tf.make_tensor_proto({_v}))", True))
CASES.append(("proto_ndarray_bad", "tf.make_ndarray(5)", True))

SCRIPTS: dict[str, str] = {
    "device_scopes": """
import tensorflow as tf
for s in ["/CPU:0", "cpu:0", "CPU", "/device:CPU:0", "GPU:0", "/GPU:0", "/CPU:5", "/device:CPU:*",
          "TPU:0", "/device:XYZ:0", "/device:cpu:0", "job:localhost", "//CPU:0", "/cpu:0/", "", "/job:localhost"]:
    with tf.device(s) as d:
        x = tf.constant([1.0])
        y = x * 2
        print(repr(s), d, x.device, y.device)
with tf.device(tf.DeviceSpec(device_type="CPU", device_index=0)):
    print(tf.ones([1]).device)
with tf.device("/cpu:0"):
    with tf.device(None):
        y = tf.ones([2])
    z = y + 1
print(z, z.device)
for s in ["/job:foo", "/task:1", "/replica:1/device:CPU:0"]:
    try:
        with tf.device(s):
            tf.constant(1.0) * 2
    except tf.errors.InvalidArgumentError as e:
        print(type(e).__name__, e.message)
""",
    "no_soft_placement": """
import tensorflow as tf
tf.config.set_soft_device_placement(False)
print(tf.config.get_soft_device_placement())
for s in ["/GPU:0", "/CPU:1"]:
    try:
        with tf.device(s):
            print(tf.add(tf.constant(1.0), 1.0).device)
    except tf.errors.InvalidArgumentError as e:
        print(type(e).__name__)
tf.config.set_soft_device_placement(True)
with tf.device("/GPU:0"):
    print(tf.add(tf.constant(1.0), 1.0).device)
""",
    "print": """
import sys
import collections
import numpy as np
import tensorflow as tf
o = sys.stdout
tf.print("hello", tf.constant([1, 2, 3]), 4.5, [1, 2], {"a": tf.constant(1.0)}, output_stream=o)
tf.print(tf.constant([[1.5, 2.25], [3., 4.]]), output_stream=o)
tf.print(tf.range(20), summarize=3, output_stream=o)
tf.print(tf.range(2000), output_stream=o)
tf.print(tf.range(30), summarize=-1, output_stream=o)
tf.print("a", "b", sep="--", end="!\\n", output_stream=o)
tf.print(tf.constant(["x", "yy"]), tf.constant(True), tf.constant([True, False]), output_stream=o)
tf.print(tf.constant(3.14159265), tf.constant(1e-10), tf.constant(1e10), tf.constant([0.1, 100000.0]), output_stream=o)
tf.print(tf.constant(2.0, tf.float64), tf.constant(1/3, tf.float64), tf.constant([1/3], tf.float16), output_stream=o)
tf.print(tf.zeros([0]), output_stream=o)
tf.print(tf.reshape(tf.range(24), [2, 3, 4]), output_stream=o)
tf.print(tf.reshape(tf.range(24), [2, 3, 4]), summarize=1, output_stream=o)
tf.print(np.array([1.5, 2.5]), np.float32(3), None, "s", b"bytes", True, (1, 2), output_stream=o)
tf.print(output_stream=o)
tf.print(tf.constant([1, 2], tf.uint8), tf.constant(-5, tf.int64), tf.constant([1.0, float("nan"), float("inf")]), output_stream=o)
tf.print(tf.constant([[1.0] * 12]), output_stream=o)
tf.print(tf.constant([[1.23456789, 123456.789]]), output_stream=o)
tf.print({"b": 1, "a": tf.constant([1, 2])}, [tf.constant(1), "q"], output_stream=o)
tf.print(collections.OrderedDict([("b", 1), ("a", tf.constant(2))]), output_stream=o)
tf.print(tf.constant(["a b", "c\\nd"]), output_stream=o)
tf.print("%d %s", 1, output_stream=o)
tf.print(tf.constant("scalar string"), output_stream=o)
tf.print("to stderr")
print("after")
""",
    "config_before_init": """
import tensorflow as tf
c = tf.config
print(c.get_soft_device_placement(), tf.debugging.get_log_device_placement())
print(c.threading.get_intra_op_parallelism_threads(), c.threading.get_inter_op_parallelism_threads())
c.threading.set_intra_op_parallelism_threads(2)
c.threading.set_inter_op_parallelism_threads(3)
print(c.threading.get_intra_op_parallelism_threads(), c.threading.get_inter_op_parallelism_threads())
cpu = c.list_physical_devices("CPU")[0]
print(cpu, c.get_visible_devices(), c.get_visible_devices("GPU"))
print(c.get_logical_device_configuration(cpu))
c.set_logical_device_configuration(cpu, [c.LogicalDeviceConfiguration(), c.LogicalDeviceConfiguration()])
print(c.get_logical_device_configuration(cpu))
try:
    c.set_logical_device_configuration(cpu, [c.LogicalDeviceConfiguration(memory_limit=5)])
except ValueError as e:
    print("ValueError", e)
c.set_visible_devices([cpu])
c.set_visible_devices([], "GPU")
print(c.experimental.get_device_policy(), c.experimental.get_synchronous_execution())
print(c.list_logical_devices())
print(c.list_logical_devices("CPU")[1], c.list_logical_devices("GPU"))
with tf.device("CPU:1"):
    print(tf.constant(1.0).device, (tf.constant(1.0) + 1).device)
for f, v in [(c.threading.set_intra_op_parallelism_threads, 4), (c.threading.set_inter_op_parallelism_threads, 4)]:
    try:
        f(v)
    except RuntimeError as e:
        print("RuntimeError", e)
c.threading.set_intra_op_parallelism_threads(2)
try:
    c.set_logical_device_configuration(cpu, [c.LogicalDeviceConfiguration()])
except RuntimeError as e:
    print("RuntimeError", e)
c.set_visible_devices([cpu])
c.set_soft_device_placement(0)
print(c.get_soft_device_placement())
tf.debugging.set_log_device_placement(True)
print(tf.debugging.get_log_device_placement())
tf.debugging.set_log_device_placement(False)
try:
    c.experimental.set_memory_growth(cpu, True)
except ValueError as e:
    print("ValueError", e)
c.experimental.set_device_policy("explicit")
print(c.experimental.get_device_policy())
c.experimental.set_device_policy(None)
print(c.experimental.get_device_policy())
print(c.experimental.tensor_float_32_execution_enabled())
c.experimental.enable_op_determinism()
print(tf.executing_eagerly(), c.functions_run_eagerly())
""",
    "name_scopes": """
import tensorflow as tf
with tf.name_scope("a") as s:
    with tf.name_scope("b") as s2:
        print(repr(s), repr(s2), repr(tf.get_current_name_scope()))
    with tf.name_scope("a") as s3:
        print(repr(s3), repr(tf.get_current_name_scope()))
    with tf.name_scope("") as s4:
        print(repr(s4), repr(tf.get_current_name_scope()))
    with tf.name_scope("/x/") as s5:
        print(repr(s5), repr(tf.get_current_name_scope()))
with tf.name_scope("a/") as s:
    print(repr(s), repr(tf.get_current_name_scope()))
print(repr(tf.get_current_name_scope()))
with tf.init_scope() as s:
    print(s, tf.executing_eagerly())
with tf.control_dependencies([tf.constant(1)]) as s:
    print(s)
with tf.control_dependencies(None) as s:
    print(s)
calls = []
with tf.control_dependencies([lambda: calls.append(1)]):
    pass
print(calls)
""",
}


# Namespaces whose function signatures are recorded (names as in TF).
SIGNATURE_NAMESPACES = {
    "": "device executing_eagerly is_tensor is_symbolic_tensor get_static_value no_op group tuple "
    "print init_scope control_dependencies get_current_name_scope make_ndarray make_tensor_proto "
    "Assert inside_function register_tensor_conversion_function timestamp get_logger "
    "assert_equal assert_greater assert_less assert_rank".split(),
    "nest": "assert_same_structure flatten is_nested map_structure pack_sequence_as".split(),
    "debugging": None,
    "config": None,
    "config.experimental": None,
    "config.threading": None,
}


def signatures(tf: Any) -> dict[str, list[list[Any]]]:
    """Parameter (name, kind, default repr) lists of the functions of
    SIGNATURE_NAMESPACES (None: every public function of the namespace)."""
    import inspect

    out: dict[str, list[list[Any]]] = {}
    for ns, names in SIGNATURE_NAMESPACES.items():
        mod = tf
        for part in filter(None, ns.split(".")):
            mod = getattr(mod, part)
        if names is None:
            names = [
                n for n in dir(mod)
                if not n.startswith("_") and inspect.isfunction(getattr(mod, n))
            ]
        for n in names:
            try:
                sig = inspect.signature(getattr(mod, n))
            except (TypeError, ValueError):
                continue
            out[f"{ns}.{n}"] = [
                [p.name, str(p.kind), None if p.default is p.empty else repr(p.default)]
                for p in sig.parameters.values()
            ]
    return out


def _run_case(ns: dict[str, Any], expr: str) -> dict[str, Any]:
    try:
        value = eval(expr, ns)
    except Exception as e:
        return {"error": [type(e).__name__, str(e)]}
    return {"result": repr(value)}


def main() -> None:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="", TF_ENABLE_ONEDNN_OPTS="0")
    os.environ.update(env)
    import tensorflow as tf

    ns: dict[str, Any] = {"tf": tf}
    exec(PRELUDE, ns)
    cases = {}
    for name, expr, exact in CASES:
        rec = _run_case(ns, expr)
        cases[name] = {"expr": expr, "exact": exact, **rec}
    scripts = {}
    for name, code in SCRIPTS.items():
        proc = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
        )
        scripts[name] = {"code": code, "stdout": proc.stdout}
    data = {
        "_about": "TF 2.21 results for tests/python/test_api_framework.py, written by "
        "tools/record_api_framework.py",
        "prelude": PRELUDE,
        "signatures": signatures(tf),
        "cases": cases,
        "scripts": scripts,
    }
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(cases)} cases, {len(scripts)} scripts)")


if __name__ == "__main__":
    main()
