#!/usr/bin/env python3
# ruff: noqa: E501  (the cases are one-line snippets)
"""Records TensorFlow 2.21's results for tests/python/test_api_strings_io.py.

Each case is a short snippet run with ``tf`` (TensorFlow here, tfe_py in the
test), ``np`` and ``tmp`` (a fresh empty directory) that assigns ``out``; the
result (or the exception's class and message) is summarised as JSON and
written to tests/data/api_strings_io_tf221.json. TensorFlow is needed only
here, never by the tests. Run from the repository root:

    /work/tfvenv/bin/python tools/record_api_strings_io.py
"""

from __future__ import annotations

import json
import math
import os
import shutil
import struct
import sys
import tempfile
import zlib
from typing import Any

# (name, code, check_message): with check_message the test also compares
# the error message (without TF's "{{function_node ...}}" prefix and
# " [Op:...]" suffix).
CASES: list[tuple[str, str, bool]] = [
    # ---- tf.strings: element-wise
    ("length", "out = tf.strings.length(['hello', '', 'héllo'])", False),
    ("length_utf8", "out = tf.strings.length(['héllo', 'añb'], unit='UTF8_CHAR')", False),
    ("length_2d", "out = tf.strings.length([['a', 'bb'], ['ccc', '']])", False),
    ("length_bad_unit", "out = tf.strings.length('a', unit='CHAR')", False),
    ("upper", "out = tf.strings.upper(['hello', 'MiXeD 1!'])", False),
    ("lower", "out = tf.strings.lower('HeLLo')", False),
    ("upper_utf8", "out = tf.strings.upper('héllo', encoding='utf-8')", False),
    ("lower_ascii_only", "out = tf.strings.lower('ÀB')", False),
    ("strip", "out = tf.strings.strip(['  a b \\t', '\\nx\\n', ''])", False),
    ("substr", "out = tf.strings.substr('TensorFlow', 0, 6)", False),
    ("substr_neg", "out = tf.strings.substr('TensorFlow', -4, 4)", False),
    ("substr_vec", "out = tf.strings.substr(['abc', 'defg'], [0, 1], [2, 3])", False),
    (
        "substr_bcast",
        "out = tf.strings.substr([['abc', 'defg'], ['hi', 'jklm']], [1, 0], 2)",
        False,
    ),
    ("substr_utf8", "out = tf.strings.substr('héllo', 1, 3, unit='UTF8_CHAR')", False),
    ("substr_oob", "out = tf.strings.substr('abc', 5, 1)", True),
    ("substr_long_len", "out = tf.strings.substr('abc', 1, 10)", False),
    ("substr_int64", "out = tf.strings.substr('abcdef', tf.constant(1, tf.int64), 2)", False),
    ("to_number", "out = tf.strings.to_number(['1.5', '-2', '3e2'])", False),
    ("to_number_int", "out = tf.strings.to_number(['12', '-7'], out_type=tf.int32)", False),
    ("to_number_int64", "out = tf.strings.to_number('9999999999', tf.int64)", False),
    ("to_number_f64", "out = tf.strings.to_number(['0.1'], tf.float64)", False),
    ("to_number_bad", "out = tf.strings.to_number('abc')", True),
    ("to_number_int_bad", "out = tf.strings.to_number('1.5', out_type=tf.int32)", True),
    ("hash_fast", "out = tf.strings.to_hash_bucket_fast(['a', 'b', 'hello', ''], 10)", False),
    (
        "hash_strong",
        "out = tf.strings.to_hash_bucket_strong(['a', 'b', 'hello'], 10, [1, 2])",
        False,
    ),
    ("hash_legacy", "out = tf.strings.to_hash_bucket(['a', 'b', 'hello'], 5)", False),
    ("hash_2d", "out = tf.strings.to_hash_bucket_fast([['x'], ['y']], 1000)", False),
    ("as_string_int", "out = tf.strings.as_string([1, 22, -3])", False),
    ("as_string_prec", "out = tf.strings.as_string([3.14159, 2.5], precision=2)", False),
    ("as_string_bool", "out = tf.strings.as_string([True, False])", False),
    ("as_string_width", "out = tf.strings.as_string([7, 42], width=4, fill='0')", False),
    ("as_string_sci", "out = tf.strings.as_string([12345.678], scientific=True)", False),
    ("as_string_short", "out = tf.strings.as_string([0.1, 1e20], shortest=True)", False),
    ("as_string_top", "out = tf.as_string(tf.constant([1.5, 2.0]))", False),
    ("as_string_string", "out = tf.strings.as_string(['a'])", False),
    ("regex_replace", "out = tf.strings.regex_replace(['cat hat', 'dog'], '[ch]at', 'X')", False),
    (
        "regex_replace_first",
        "out = tf.strings.regex_replace('aaa', 'a', 'b', replace_global=False)",
        False,
    ),
    (
        "regex_replace_group",
        "out = tf.strings.regex_replace('john smith', r'(\\w+) (\\w+)', r'\\2 \\1')",
        False,
    ),
    (
        "regex_replace_tensor",
        "out = tf.strings.regex_replace(['ab'], tf.constant('b'), tf.constant('c'))",
        False,
    ),
    ("regex_full_match", "out = tf.strings.regex_full_match(['cat', 'dog', 'ca'], 'c.t')", False),
    (
        "regex_full_match_tensor",
        "out = tf.strings.regex_full_match(['cat', 'dog'], tf.constant('d.*'))",
        False,
    ),
    ("regex_bad", "out = tf.strings.regex_full_match('a', '(')", False),
    (
        "unicode_script",
        "out = tf.strings.unicode_script([0x41, 0x3b1, 0x4e00, 0x30, 0x627, 0x5d0, -1, 0x110000, 0x1F600])",
        False,
    ),
    ("unicode_script_2d", "out = tf.strings.unicode_script([[0x41], [0x430]])", False),
    (
        "unicode_transcode",
        "out = tf.strings.unicode_transcode(['añb', 'x'], 'UTF-8', 'UTF-16-BE')",
        False,
    ),
    (
        "unicode_transcode_bad",
        "out = tf.strings.unicode_transcode([b'a\\xffb'], 'UTF-8', 'UTF-8', replacement_char=63)",
        False,
    ),
    (
        "unicode_transcode_strict",
        "out = tf.strings.unicode_transcode([b'a\\xffb'], 'UTF-8', 'UTF-8', errors='strict')",
        False,
    ),
    # ---- tf.strings: joins and reductions
    ("join", "out = tf.strings.join(['a', 'b', 'c'], separator='-')", False),
    ("join_bcast", "out = tf.strings.join([['a', 'b'], '!'])", False),
    ("join_2d", "out = tf.strings.join([[['a'], ['b']], [['1'], ['2']]], separator=':')", False),
    ("join_mismatch", "out = tf.strings.join([['a', 'b'], ['c', 'd', 'e']])", False),
    ("reduce_join", "out = tf.strings.reduce_join(['x', 'y', 'z'], separator=',')", False),
    ("reduce_join_axis", "out = tf.strings.reduce_join([['a', 'b'], ['c', 'd']], axis=1)", False),
    (
        "reduce_join_axis0",
        "out = tf.strings.reduce_join([['a', 'b'], ['c', 'd']], axis=0, separator='+')",
        False,
    ),
    ("reduce_join_all", "out = tf.strings.reduce_join([['a', 'b'], ['c', 'd']])", False),
    (
        "reduce_join_keep",
        "out = tf.strings.reduce_join([['a', 'b'], ['c', 'd']], axis=-1, keepdims=True)",
        False,
    ),
    ("reduce_join_empty", "out = tf.strings.reduce_join(tf.constant([], tf.string))", False),
    (
        "segment_join",
        "out = tf.strings.unsorted_segment_join(['a', 'b', 'c', 'd'], [1, 0, 1, 1], 3, separator='.')",
        False,
    ),
    ("segment_join_bad", "out = tf.strings.unsorted_segment_join(['a', 'b'], [0, 5], 2)", False),
    (
        "format",
        "out = tf.strings.format('x={} y={}', (tf.constant(1), tf.constant([2, 3])))",
        False,
    ),
    ("format_single", "out = tf.strings.format('t: {}', tf.constant([[1.5, 2.0]]))", False),
    ("format_summarize", "out = tf.strings.format('{}', tf.range(10), summarize=2)", False),
    (
        "format_placeholder",
        "out = tf.strings.format('a=%s', [tf.constant('q')], placeholder='%s')",
        False,
    ),
    ("format_count", "out = tf.strings.format('{} {}', [tf.constant(1)])", False),
    # ---- tf.strings: splitting (RaggedTensor results)
    ("split_scalar", "out = tf.strings.split('a b  c')", False),
    ("split_vec", "out = tf.strings.split(['a,b', 'c'], sep=',')", False),
    ("split_vec_ws", "out = tf.strings.split(['hello world', ' x ', ''])", False),
    ("split_max", "out = tf.strings.split('a,b,c,d', sep=',', maxsplit=2)", False),
    ("split_keep_empty", "out = tf.strings.split(['a,,b'], sep=',')", False),
    ("split_2d", "out = tf.strings.split([['a b', 'c'], ['d e f', '']])", False),
    (
        "split_props",
        "r = tf.strings.split(['a b', 'c', 'd e f'])\nout = [r.row_splits, r.values, r.flat_values, r.ragged_rank, r.shape.as_list(), r.dtype.name, r.row_lengths(), r.value_rowids(), r.nrows()]",
        False,
    ),
    ("split_to_tensor", "out = tf.strings.split(['a b', 'c', 'd e f']).to_tensor()", False),
    (
        "split_to_tensor_default",
        "out = tf.strings.split(['a b', 'c']).to_tensor(default_value='-')",
        False,
    ),
    ("split_index", "r = tf.strings.split(['a b', 'c'])\nout = [r[0], r[1], r[-1], r[0:1]]", False),
    ("split_str", "out = str(tf.strings.split(['a b', 'c']))", False),
    ("split_numpy", "out = [list(x) for x in tf.strings.split(['a b', 'c']).numpy()]", False),
    ("bytes_split", "out = tf.strings.bytes_split('abc')", False),
    ("bytes_split_vec", "out = tf.strings.bytes_split(['ab', '', 'c'])", False),
    ("bytes_split_2d", "out = tf.strings.bytes_split([['ab'], ['c']])", False),
    ("unicode_decode", "out = tf.strings.unicode_decode('añb', 'UTF-8')", False),
    ("unicode_decode_vec", "out = tf.strings.unicode_decode(['añb', 'xy', ''], 'UTF-8')", False),
    ("unicode_decode_2d", "out = tf.strings.unicode_decode([['añ'], ['b']], 'UTF-8')", False),
    ("unicode_decode_bad", "out = tf.strings.unicode_decode(b'a\\xffb', 'UTF-8')", False),
    (
        "unicode_decode_strict",
        "out = tf.strings.unicode_decode(b'a\\xffb', 'UTF-8', errors='strict')",
        False,
    ),
    (
        "unicode_decode_ignore",
        "out = tf.strings.unicode_decode(b'a\\xffb', 'UTF-8', errors='ignore')",
        False,
    ),
    (
        "unicode_decode_offsets",
        "out = tf.strings.unicode_decode_with_offsets(['añb', 'z'], 'UTF-8')",
        False,
    ),
    (
        "unicode_decode_offsets_scalar",
        "out = tf.strings.unicode_decode_with_offsets('añb', 'UTF-8')",
        False,
    ),
    ("unicode_encode", "out = tf.strings.unicode_encode([97, 241, 98], 'UTF-8')", False),
    ("unicode_encode_2d", "out = tf.strings.unicode_encode([[97, 98], [99, 100]], 'UTF-8')", False),
    ("unicode_encode_3d", "out = tf.strings.unicode_encode([[[97], [98]]], 'UTF-8')", False),
    (
        "unicode_encode_ragged",
        "out = tf.strings.unicode_encode(tf.RaggedTensor.from_row_splits([104, 105, 241], [0, 2, 3]), 'UTF-8')",
        False,
    ),
    ("unicode_encode_utf16", "out = tf.strings.unicode_encode([97, 0x1F600], 'UTF-16-BE')", False),
    ("unicode_encode_bad", "out = tf.strings.unicode_encode([97, -5], 'UTF-8')", False),
    ("unicode_encode_scalar", "out = tf.strings.unicode_encode(97, 'UTF-8')", False),
    ("unicode_split", "out = tf.strings.unicode_split('añb', 'UTF-8')", False),
    ("unicode_split_vec", "out = tf.strings.unicode_split(['añ', 'b'], 'UTF-8')", False),
    ("unicode_split_bad", "out = tf.strings.unicode_split(b'a\\xff', 'UTF-8')", False),
    (
        "unicode_split_offsets",
        "out = tf.strings.unicode_split_with_offsets(['añb'], 'UTF-8')",
        False,
    ),
    ("ngrams", "out = tf.strings.ngrams(['a', 'b', 'c', 'd'], 2)", False),
    (
        "ngrams_2d",
        "out = tf.strings.ngrams([['a', 'b', 'c'], ['d', 'e', 'f']], 2, separator='_')",
        False,
    ),
    ("ngrams_multi", "out = tf.strings.ngrams(['a', 'b', 'c'], [1, 3])", False),
    ("ngrams_pad", "out = tf.strings.ngrams(['a', 'b'], 3, pad_values=('<', '>'))", False),
    (
        "ngrams_pad_width",
        "out = tf.strings.ngrams(['a', 'b', 'c'], 2, pad_values='#', padding_width=1)",
        False,
    ),
    ("ngrams_short", "out = tf.strings.ngrams(['a'], 3, preserve_short_sequences=True)", False),
    ("ngrams_ragged", "out = tf.strings.ngrams(tf.strings.split(['a b c', 'd']), 2)", False),
    ("ngrams_bad_width", "out = tf.strings.ngrams(['a'], 0)", False),
    ("ngrams_scalar", "out = tf.strings.ngrams('a', 2)", False),
    # ---- RaggedTensor basics
    (
        "ragged_from_row_splits",
        "out = tf.RaggedTensor.from_row_splits([1, 2, 3, 4], [0, 1, 1, 4])",
        False,
    ),
    (
        "ragged_from_lengths",
        "out = tf.RaggedTensor.from_row_lengths(['a', 'b', 'c'], [2, 0, 1])",
        False,
    ),
    (
        "ragged_from_rowids",
        "out = tf.RaggedTensor.from_value_rowids([1.5, 2.5, 3.5], [0, 2, 2], nrows=4)",
        False,
    ),
    (
        "ragged_nested",
        "out = tf.RaggedTensor.from_nested_row_splits([1, 2, 3], [[0, 2, 3], [0, 1, 2, 3]])",
        False,
    ),
    ("ragged_from_tensor", "out = tf.RaggedTensor.from_tensor([[1, 0], [2, 3]])", False),
    (
        "ragged_from_tensor_pad",
        "out = tf.RaggedTensor.from_tensor([[1, 0, 0], [2, 3, 0]], padding=0)",
        False,
    ),
    (
        "ragged_from_tensor_lengths",
        "out = tf.RaggedTensor.from_tensor([[1, 9], [2, 3]], lengths=[1, 2])",
        False,
    ),
    (
        "ragged_to_list",
        "out = tf.RaggedTensor.from_row_lengths([1, 2, 3], [1, 2]).to_list()",
        False,
    ),
    (
        "ragged_bounding",
        "out = tf.RaggedTensor.from_row_lengths([1, 2, 3], [1, 2]).bounding_shape()",
        False,
    ),
    (
        "ragged_to_tensor_shape",
        "out = tf.RaggedTensor.from_row_lengths([1, 2, 3], [1, 2]).to_tensor(shape=[3, 1])",
        False,
    ),
    ("ragged_bad_splits", "out = tf.RaggedTensor.from_row_splits([1, 2], [0, 3])", False),
    # ---- tf.io ops
    ("b64_encode", "out = tf.io.encode_base64('hello world')", False),
    ("b64_encode_pad", "out = tf.io.encode_base64([b'\\xff\\xfe', b'ab'], pad=True)", False),
    ("b64_decode", "out = tf.io.decode_base64(['aGVsbG8', 'YWI='])", False),
    ("b64_decode_bad", "out = tf.io.decode_base64('a')", True),
    ("b64_decode_std", "out = tf.io.decode_base64('a+b/')", True),
    ("serialize_int", "out = tf.io.serialize_tensor(tf.constant([1, 2, 3]))", False),
    ("serialize_scalar", "out = tf.io.serialize_tensor(tf.constant(1.5))", False),
    ("serialize_str", "out = tf.io.serialize_tensor(tf.constant(['a', 'bc']))", False),
    ("serialize_bool", "out = tf.io.serialize_tensor(tf.constant([[True]]))", False),
    ("serialize_empty", "out = tf.io.serialize_tensor(tf.zeros([0, 2]))", False),
    ("serialize_int64", "out = tf.io.serialize_tensor(tf.constant(7, tf.int64))", False),
    ("serialize_c64", "out = tf.io.serialize_tensor(tf.constant([1 + 2j], tf.complex64))", False),
    ("serialize_f16", "out = tf.io.serialize_tensor(tf.constant([1.5], tf.float16))", False),
    (
        "serialize_u8",
        "out = tf.io.serialize_tensor(tf.constant([[1, 2], [3, 4]], tf.uint8))",
        False,
    ),
    (
        "roundtrip_int",
        "out = tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([[1, 2], [3, 4]])), tf.int32)",
        False,
    ),
    (
        "roundtrip_str",
        "out = tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([['a'], ['']])), tf.string)",
        False,
    ),
    (
        "roundtrip_f64",
        "out = tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([0.1, -2.0], tf.float64)), tf.float64)",
        False,
    ),
    (
        "roundtrip_c128",
        "out = tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([1 - 1j], tf.complex128)), tf.complex128)",
        False,
    ),
    (
        "roundtrip_scalar_str",
        "out = tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant('x')), tf.string)",
        False,
    ),
    (
        "parse_mismatch",
        "out = tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([1])), tf.float32)",
        True,
    ),
    ("parse_junk", "out = tf.io.parse_tensor(b'\\xff\\xff', tf.float32)", True),
    ("parse_empty", "out = tf.io.parse_tensor(b'', tf.float32)", False),
    ("parse_vector", "out = tf.io.parse_tensor([b''], tf.float32)", True),
    (
        "parse_int_val",
        "out = tf.io.parse_tensor(b'\\x08\\x03\\x12\\x04\\x12\\x02\\x08\\x02\\x38\\x05', tf.int32)",
        False,
    ),
    (
        "parse_int_val_repeat",
        "out = tf.io.parse_tensor(b'\\x08\\x03\\x12\\x04\\x12\\x02\\x08\\x03\\x38\\x05\\x38\\x06', tf.int32)",
        False,
    ),
    (
        "parse_int_val_packed",
        "out = tf.io.parse_tensor(b'\\x08\\x03\\x12\\x04\\x12\\x02\\x08\\x03\\x3a\\x02\\x05\\x06', tf.int32)",
        False,
    ),
    (
        "parse_float_val",
        "out = tf.io.parse_tensor(b'\\x08\\x01\\x12\\x04\\x12\\x02\\x08\\x02\\x2d\\x00\\x00\\xc0\\x3f', tf.float32)",
        False,
    ),
    (
        "parse_no_values",
        "out = tf.io.parse_tensor(b'\\x08\\x01\\x12\\x04\\x12\\x02\\x08\\x02', tf.float32)",
        False,
    ),
    (
        "parse_too_many_values",
        "out = tf.io.parse_tensor(b'\\x08\\x03\\x12\\x04\\x12\\x02\\x08\\x01\\x38\\x05\\x38\\x06', tf.int32)",
        False,
    ),
    (
        "parse_bad_content",
        "out = tf.io.parse_tensor(b'\\x08\\x01\\x12\\x04\\x12\\x02\\x08\\x02\\x22\\x03abc', tf.float32)",
        False,
    ),
    # found by a differential run of mutated protos against TF
    (
        "parse_zero_elements_ignore_content",
        "out = tf.io.parse_tensor(bytes.fromhex('0803120412024003220c010000000200000003000000'), tf.int32)",
        False,
    ),
    (
        "parse_bad_packed_field",
        "out = tf.io.parse_tensor(bytes.fromhex('08071204120208024201614a026263'), tf.float32)",
        True,
    ),
    (
        "parse_bool_content_not_01",
        "out = tf.io.parse_tensor(bytes.fromhex('080a120812020801120208012201' + '8f'), tf.bool)",
        False,
    ),
    (
        "parse_resource_mismatch",
        "out = tf.io.parse_tensor(bytes.fromhex('0814120412020801'), tf.int32)",
        True,
    ),
    (
        "parse_bad_resource_handle",
        "out = tf.io.parse_tensor(bytes.fromhex('72021204120208023100000000f3000040'), tf.float32)",
        True,
    ),
    ("decode_raw_u8", "out = tf.io.decode_raw(b'\\x01\\x02\\x03\\x04', tf.uint8)", False),
    (
        "decode_raw_i16",
        "out = tf.io.decode_raw([b'\\x01\\x00\\x02\\x00', b'\\x03\\x00\\x04\\x00'], tf.int16)",
        False,
    ),
    (
        "decode_raw_be",
        "out = tf.io.decode_raw(b'\\x01\\x00\\x02\\x00', tf.int16, little_endian=False)",
        False,
    ),
    ("decode_raw_bad_len", "out = tf.io.decode_raw(b'\\x01\\x00\\x02', tf.int16)", True),
    (
        "decode_raw_diff_len",
        "out = tf.io.decode_raw([b'\\x01\\x00', b'\\x01\\x00\\x02\\x00'], tf.int16)",
        True,
    ),
    ("decode_raw_empty", "out = tf.io.decode_raw([b'', b''], tf.int16)", False),
    (
        "decode_raw_fixed",
        "out = tf.io.decode_raw([b'\\x01\\x00\\x02', b'\\x03'], tf.int16, fixed_length=4)",
        False,
    ),
    (
        "decode_raw_fixed_odd",
        "out = tf.io.decode_raw([b'\\x01\\x00\\x02'], tf.int16, fixed_length=3)",
        True,
    ),
    ("decode_raw_bool", "out = tf.io.decode_raw(b'\\x00\\x01', tf.bool)", False),
    ("decode_raw_f32", "out = tf.io.decode_raw(b'\\x00\\x00\\xc0\\x3f', tf.float32)", False),
    (
        "decode_raw_c64_be",
        "out = tf.io.decode_raw(b'\\x3f\\xc0\\x00\\x00\\x3f\\x80\\x00\\x00', tf.complex64, little_endian=False)",
        False,
    ),
    ("decode_raw_2d", "out = tf.io.decode_raw([[b'\\x01\\x02']], tf.uint8)", False),
    (
        "csv",
        "out = tf.io.decode_csv(['1,2.5,a', '3,,b'], record_defaults=[[0], [0.0], ['']])",
        False,
    ),
    (
        "csv_quote",
        "out = tf.io.decode_csv(['\"x,y\",2', '\"a\"\"b\",3'], record_defaults=[[''], [0]])",
        False,
    ),
    (
        "csv_required",
        "out = tf.io.decode_csv(['1,'], record_defaults=[[0], tf.constant([], tf.int32)])",
        True,
    ),
    ("csv_bad_int", "out = tf.io.decode_csv(['x,1'], record_defaults=[[0], [0]])", True),
    ("csv_too_many", "out = tf.io.decode_csv(['1,2,3'], record_defaults=[[0], [0]])", True),
    ("csv_too_few", "out = tf.io.decode_csv(['1'], record_defaults=[[0], [0]])", True),
    (
        "csv_na",
        "out = tf.io.decode_csv(['NA,2'], record_defaults=[[7], [0]], na_value='NA')",
        False,
    ),
    (
        "csv_select",
        "out = tf.io.decode_csv(['1,2,3'], record_defaults=[[0], [0]], select_cols=[0, 2])",
        False,
    ),
    (
        "csv_select_bad",
        "out = tf.io.decode_csv(['1,2,3'], record_defaults=[[0], [0]], select_cols=[2, 0])",
        True,
    ),
    (
        "csv_select_len",
        "out = tf.io.decode_csv(['1,2,3'], record_defaults=[[0]], select_cols=[0, 2])",
        True,
    ),
    (
        "csv_delim",
        "out = tf.io.decode_csv(['1;2'], record_defaults=[[0], [0.0]], field_delim=';')",
        False,
    ),
    (
        "csv_wide_types",
        "out = tf.io.decode_csv(['99999999999,1e300'], record_defaults=[tf.constant([0], tf.int64), tf.constant([0.0], tf.float64)])",
        False,
    ),
    (
        "csv_floats",
        "out = tf.io.decode_csv([' 1.5 , inf,nan,-0,1E3'], record_defaults=[[0.0]] * 5)",
        False,
    ),
    (
        "csv_float_words",
        "out = [tf.io.decode_csv([s], record_defaults=[[0.0]]) for s in ['Inf', '-INF', 'NaN', '.5', '5.', '+2']]",
        False,
    ),
    ("csv_float_infinity", "out = tf.io.decode_csv(['infinity'], record_defaults=[[0.0]])", True),
    ("csv_float_hex", "out = tf.io.decode_csv(['0x10'], record_defaults=[[0.0]])", True),
    ("csv_int_space", "out = tf.io.decode_csv([' 12 '], record_defaults=[[0]])", False),
    ("csv_int_plus", "out = tf.io.decode_csv(['+12'], record_defaults=[[0]])", True),
    ("csv_int_overflow", "out = tf.io.decode_csv(['99999999999'], record_defaults=[[0]])", True),
    ("csv_float_junk", "out = tf.io.decode_csv(['1.5x'], record_defaults=[[0.0]])", True),
    ("csv_empty_record", "out = tf.io.decode_csv([''], record_defaults=[[1]])", True),
    ("csv_default_size", "out = tf.io.decode_csv(['1'], record_defaults=[[1, 2]])", False),
    ("csv_default_str", "out = tf.io.decode_csv([',x'], record_defaults=[['d'], ['e']])", False),
    ("csv_scalar", "out = tf.io.decode_csv('1,2', record_defaults=[[0], [0]])", False),
    ("csv_2d", "out = tf.io.decode_csv([['1,2'], ['3,4']], record_defaults=[[0], [0]])", False),
    ("csv_bad_quote", "out = tf.io.decode_csv(['\"ab,1'], record_defaults=[[''], [0]])", True),
    ("csv_quote_inside", "out = tf.io.decode_csv(['a\"b\",1'], record_defaults=[[''], [0]])", True),
    (
        "csv_quote_unescaped",
        "out = tf.io.decode_csv(['\"a\"b\",1'], record_defaults=[[''], [0]])",
        True,
    ),
    (
        "csv_no_quote",
        "out = tf.io.decode_csv(['\"a\",1'], record_defaults=[[''], [0]], use_quote_delim=False)",
        False,
    ),
    ("csv_trailing_delim", "out = tf.io.decode_csv(['1,'], record_defaults=[[0], [5]])", False),
    ("csv_crlf", "out = tf.io.decode_csv(['1,2\\r\\n'], record_defaults=[[0], [0]])", False),
    (
        "csv_scalar_default",
        "out = tf.io.decode_csv(['', '4'], record_defaults=[tf.constant(3)])",
        False,
    ),
    ("is_jpeg", "out = [tf.io.is_jpeg(b'\\xff\\xd8\\xffxx'), tf.io.is_jpeg(b'\\x89PNG')]", False),
    (
        "feature_classes",
        "out = [repr(tf.io.FixedLenFeature([2], tf.int64)), repr(tf.io.VarLenFeature(tf.string)), repr(tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True))]",
        False,
    ),
    # ---- decode_compressed (zlib and gzip made by Python's zlib/gzip)
    ("comp_none", "out = tf.io.decode_compressed([b'abc', b''])", False),
    (
        "comp_zlib",
        "import zlib\nout = tf.io.decode_compressed(zlib.compress(b'hello hello hello'), 'ZLIB')",
        False,
    ),
    (
        "comp_gzip",
        "import gzip\nout = tf.io.decode_compressed(gzip.compress(b'hello'), 'GZIP')",
        False,
    ),
    (
        "comp_truncated",
        "import zlib\nz = zlib.compress(b'hello hello hello')\nout = [tf.io.decode_compressed(z[:-3], 'ZLIB'), tf.io.decode_compressed(z[:5], 'ZLIB'), tf.io.decode_compressed(z[:1], 'ZLIB')]",
        False,
    ),
    (
        "comp_bad_adler",
        "import zlib\nz = zlib.compress(b'hello')\nout = tf.io.decode_compressed(z[:-1] + bytes([z[-1] ^ 1]), 'ZLIB')",
        True,
    ),
    (
        "comp_gzip_as_zlib",
        "import gzip\nout = tf.io.decode_compressed(gzip.compress(b'x'), 'ZLIB')",
        True,
    ),
    (
        "comp_zlib_as_gzip",
        "import zlib\nout = tf.io.decode_compressed(zlib.compress(b'x'), 'GZIP')",
        True,
    ),
    (
        "comp_raw_deflate",
        "import zlib\nout = tf.io.decode_compressed(zlib.compress(b'abc')[2:-4], 'ZLIB')",
        True,
    ),
    (
        "comp_two_gzip",
        "import gzip\ng = gzip.compress(b'hello')\nout = tf.io.decode_compressed(g + g, 'GZIP')",
        False,
    ),
    (
        "comp_trailing_junk",
        "import zlib\nout = tf.io.decode_compressed(zlib.compress(b'ab') + b'xyz', 'ZLIB')",
        False,
    ),
    (
        "comp_empty",
        "out = [tf.io.decode_compressed(b'', 'ZLIB'), tf.io.decode_compressed(b'', 'GZIP')]",
        False,
    ),
    (
        "comp_vec",
        "import zlib\nout = tf.io.decode_compressed([[zlib.compress(b'a')], [zlib.compress(b'')]], 'ZLIB')",
        False,
    ),
    (
        "comp_stored",
        "import zlib\nout = tf.io.decode_compressed(zlib.compress(b'abc' * 100, 0), 'ZLIB')",
        False,
    ),
    (
        "comp_levels",
        "import zlib, gzip\nd = bytes((i * 7919) % 251 if i % 3 else 97 for i in range(50000))\nout = [tf.io.decode_compressed(zlib.compress(d, l), 'ZLIB').numpy() == d for l in (1, 6, 9)] + [tf.io.decode_compressed(gzip.compress(d), 'GZIP').numpy() == d]",
        False,
    ),
    (
        "comp_gzip_bad_crc",
        "import gzip\ng = gzip.compress(b'hello')\nout = tf.io.decode_compressed(g[:-8] + bytes([g[-8] ^ 1]) + g[-7:], 'GZIP')",
        True,
    ),
    (
        "comp_gzip_bad_len",
        "import gzip\ng = gzip.compress(b'hello')\nout = tf.io.decode_compressed(g[:-4] + bytes([g[-4] ^ 1]) + g[-3:], 'GZIP')",
        True,
    ),
    ("comp_bad_block", "out = tf.io.decode_compressed(b'\\x78\\x9c\\x07\\x00', 'ZLIB')", True),
    ("comp_bad_type", "out = tf.io.decode_compressed(b'x', 'LZ4')", True),
    # ---- TFRecord files (their bytes)
    (
        "tfrecord_plain",
        "p = os.path.join(tmp, 'a.tfrecord')\nwith tf.io.TFRecordWriter(p) as w:\n    w.write(b'hello')\n    w.write(b'')\n    w.write('strx')\nout = open(p, 'rb').read()",
        False,
    ),
    (
        "tfrecord_gzip",
        "p = os.path.join(tmp, 'b')\nw = tf.io.TFRecordWriter(p, 'GZIP')\nw.write(b'abc' * 50)\nw.close()\nout = open(p, 'rb').read()",
        False,
    ),
    (
        "tfrecord_zlib",
        "p = os.path.join(tmp, 'c')\nw = tf.io.TFRecordWriter(p, tf.io.TFRecordOptions(compression_type='ZLIB', compression_level=9))\nw.write(b'xyz')\nw.close()\nout = open(p, 'rb').read()",
        False,
    ),
    (
        "tfrecord_closed",
        "w = tf.io.TFRecordWriter(os.path.join(tmp, 'd'))\nw.close()\nout = w.write(b'x')",
        True,
    ),
    ("tfrecord_bad_dir", "out = tf.io.TFRecordWriter(os.path.join(tmp, 'nodir', 'x'))", False),
    (
        "tfrecord_options",
        "o = tf.io.TFRecordOptions('GZIP')\nout = [o.compression_type, o.compression_level, tf.io.TFRecordOptions.get_compression_type_string(o), tf.io.TFRecordOptions.get_compression_type_string(None), tf.io.TFRecordOptions.get_compression_type_string('ZLIB')]",
        False,
    ),
    ("tfrecord_options_bad", "out = tf.io.TFRecordOptions('xx')", True),
    # ---- files (paths are printed relative to tmp)
    (
        "write_read",
        "p = os.path.join(tmp, 'f.txt')\nr = tf.io.write_file(p, 'hello tf')\nout = [r, tf.io.read_file(p)]",
        False,
    ),
    (
        "write_makes_dirs",
        "p = os.path.join(tmp, 'a', 'b', 'f')\ntf.io.write_file(p, b'\\x00x')\nout = tf.io.read_file(p)",
        False,
    ),
    ("read_missing", "out = tf.io.read_file(os.path.join(tmp, 'nope'))", False),
    ("read_dir", "out = tf.io.read_file(tmp)", False),
    ("write_vector", "out = tf.io.write_file([os.path.join(tmp, 'x')], 'a')", False),
    (
        "matching_files",
        "[open(os.path.join(tmp, n), 'w').close() for n in ['a.csv', 'b.csv', 'c.txt']]\nout = sorted(os.path.basename(p) for p in tf.io.matching_files(os.path.join(tmp, '*.csv')).numpy().tolist())",
        False,
    ),
    ("matching_none", "out = tf.io.matching_files(os.path.join(tmp, 'q*'))", False),
    (
        "gfile_text",
        "p = os.path.join(tmp, 'a.txt')\nwith tf.io.gfile.GFile(p, 'w') as f:\n    f.write('line1\\nline2\\n')\nwith tf.io.gfile.GFile(p) as f:\n    out = [f.read(), tf.io.gfile.GFile(p).readlines(), list(tf.io.gfile.GFile(p, 'rb'))]",
        False,
    ),
    ("gfile_missing", "out = tf.io.gfile.GFile(os.path.join(tmp, 'nope')).read()", False),
    ("gfile_dir", "out = tf.io.gfile.GFile(tmp).read()", False),
    (
        "gfile_size",
        "p = os.path.join(tmp, 's')\nwith tf.io.gfile.GFile(p, 'wb') as f:\n    f.write(b'12345')\nout = [tf.io.gfile.GFile(p).size(), tf.io.gfile.stat(p).length, tf.io.gfile.stat(p).is_directory, tf.io.gfile.stat(tmp).is_directory, tf.io.gfile.stat(p).mtime_nsec > 0]",
        False,
    ),
    (
        "gfile_write_on_reader",
        "p = os.path.join(tmp, 'g')\nopen(p, 'w').close()\nout = tf.io.gfile.GFile(p).write('x')",
        False,
    ),
    ("gfile_read_on_writer", "out = tf.io.gfile.GFile(os.path.join(tmp, 'h'), 'w').read()", False),
    (
        "gfile_append",
        "p = os.path.join(tmp, 'ap')\nwith tf.io.gfile.GFile(p, 'w') as f:\n    f.write('a')\nwith tf.io.gfile.GFile(p, 'a') as f:\n    f.write('b')\nout = tf.io.gfile.GFile(p).read()",
        False,
    ),
    (
        "gfile_dirs",
        "tf.io.gfile.makedirs(os.path.join(tmp, 'x', 'y'))\nopen(os.path.join(tmp, 'b.txt'), 'w').close()\nout = [sorted(tf.io.gfile.listdir(tmp)), tf.io.gfile.isdir(os.path.join(tmp, 'x')), tf.io.gfile.isdir(os.path.join(tmp, 'b.txt')), tf.io.gfile.exists(os.path.join(tmp, 'x', 'y')), tf.io.gfile.exists(os.path.join(tmp, 'nope'))]",
        False,
    ),
    ("gfile_listdir_missing", "out = tf.io.gfile.listdir(os.path.join(tmp, 'nope'))", False),
    (
        "gfile_listdir_file",
        "p = os.path.join(tmp, 'f')\nopen(p, 'w').close()\nout = tf.io.gfile.listdir(p)",
        False,
    ),
    (
        "gfile_mkdir_exists",
        "tf.io.gfile.mkdir(os.path.join(tmp, 'd'))\nout = [tf.io.gfile.mkdir(os.path.join(tmp, 'd')), tf.io.gfile.makedirs(os.path.join(tmp, 'd'))]",
        False,
    ),
    ("gfile_mkdir_no_parent", "out = tf.io.gfile.mkdir(os.path.join(tmp, 'p', 'q'))", False),
    (
        "gfile_makedirs_on_file",
        "p = os.path.join(tmp, 'f')\nopen(p, 'w').close()\nout = tf.io.gfile.makedirs(p)",
        False,
    ),
    ("gfile_remove_missing", "out = tf.io.gfile.remove(os.path.join(tmp, 'nope'))", False),
    (
        "gfile_remove_dir",
        "os.mkdir(os.path.join(tmp, 'd'))\nout = tf.io.gfile.remove(os.path.join(tmp, 'd'))",
        False,
    ),
    (
        "gfile_rmtree",
        "tf.io.gfile.makedirs(os.path.join(tmp, 'r', 's'))\nopen(os.path.join(tmp, 'r', 's', 'f'), 'w').close()\ntf.io.gfile.rmtree(os.path.join(tmp, 'r'))\nout = tf.io.gfile.listdir(tmp)",
        False,
    ),
    ("gfile_rmtree_missing", "out = tf.io.gfile.rmtree(os.path.join(tmp, 'nope'))", False),
    (
        "gfile_copy_rename",
        "a, b = os.path.join(tmp, 'a'), os.path.join(tmp, 'b')\nopen(a, 'w').write('A')\ntf.io.gfile.copy(a, b)\ntf.io.gfile.rename(b, os.path.join(tmp, 'c'))\nout = [sorted(tf.io.gfile.listdir(tmp)), open(os.path.join(tmp, 'c')).read()]",
        False,
    ),
    (
        "gfile_copy_exists",
        "a, b = os.path.join(tmp, 'a'), os.path.join(tmp, 'b')\nopen(a, 'w').close()\nopen(b, 'w').close()\nout = tf.io.gfile.copy(a, b)",
        False,
    ),
    (
        "gfile_copy_overwrite",
        "a, b = os.path.join(tmp, 'a'), os.path.join(tmp, 'b')\nopen(a, 'w').write('new')\nopen(b, 'w').write('old')\ntf.io.gfile.copy(a, b, overwrite=True)\nout = open(b).read()",
        False,
    ),
    (
        "gfile_rename_exists",
        "a, b = os.path.join(tmp, 'a'), os.path.join(tmp, 'b')\nopen(a, 'w').close()\nopen(b, 'w').close()\nout = tf.io.gfile.rename(a, b)",
        False,
    ),
    (
        "gfile_rename_overwrite",
        "a, b = os.path.join(tmp, 'a'), os.path.join(tmp, 'b')\nopen(a, 'w').write('A')\nopen(b, 'w').close()\ntf.io.gfile.rename(a, b, overwrite=True)\nout = [sorted(os.listdir(tmp)), open(b).read()]",
        False,
    ),
    (
        "gfile_copy_missing",
        "out = tf.io.gfile.copy(os.path.join(tmp, 'zz'), os.path.join(tmp, 'h'))",
        False,
    ),
    ("gfile_stat_missing", "out = tf.io.gfile.stat(os.path.join(tmp, 'nope'))", False),
    (
        "gfile_glob",
        "[open(os.path.join(tmp, n), 'w').close() for n in ['a.csv', 'b.csv', 'c.txt']]\nout = sorted(os.path.basename(p) for p in tf.io.gfile.glob(os.path.join(tmp, '*.csv')))",
        False,
    ),
    ("gfile_glob_missing", "out = tf.io.gfile.glob(os.path.join(tmp, 'nope', '*'))", False),
    (
        "gfile_walk",
        "tf.io.gfile.makedirs(os.path.join(tmp, 'sub', 'deep'))\nopen(os.path.join(tmp, 'f'), 'w').close()\nout = [(os.path.relpath(a, tmp), sorted(b), sorted(c)) for a, b, c in tf.io.gfile.walk(tmp)]",
        False,
    ),
    (
        "gfile_walk_bottom_up",
        "tf.io.gfile.makedirs(os.path.join(tmp, 'sub'))\nout = [os.path.relpath(a, tmp) for a, _, _ in tf.io.gfile.walk(tmp, topdown=False)]",
        False,
    ),
    ("gfile_walk_missing", "out = list(tf.io.gfile.walk(os.path.join(tmp, 'nope')))", False),
    (
        "gfile_join",
        "out = [tf.io.gfile.join('a', 'b'), tf.io.gfile.join('a/', '/b'), tf.io.gfile.join('gs://x', 'y'), tf.io.gfile.join('a', '')]",
        False,
    ),
    (
        "gfile_schemes",
        "out = sorted(set(['', 'file', 'ram']) & set(tf.io.gfile.get_registered_schemes()))",
        False,
    ),
]


# ---- PNG files for the decode_png cases, written here with zlib (the
# test gets them as bytes literals inside the case code).


def _chunk(t: bytes, d: bytes) -> bytes:
    c = struct.pack(">I", len(d)) + t + d
    return c + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)


def mkpng(
    w: int,
    h: int,
    ct: int,
    bd: int,
    pixels: list[list[int]],
    interlace: int = 0,
    plte: list[int] | None = None,
    trns: list[int] | None = None,
    filters: list[int] | None = None,
) -> bytes:
    """A PNG of colour type ``ct`` and bit depth ``bd``; ``pixels`` are rows
    of samples (w * channels each); row y uses filter ``filters[y % n]``
    (default y % 5)."""
    ch = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ct]
    bpp = max(1, ch * bd // 8)

    def pack_row(row: list[int]) -> bytes:
        if bd >= 8:
            return struct.pack(">" + ("B" if bd == 8 else "H") * len(row), *row)
        out, acc, n = bytearray(), 0, 0
        for v in row:
            acc = (acc << bd) | v
            n += bd
            if n == 8:
                out.append(acc)
                acc = n = 0
        if n:
            out.append(acc << (8 - n))
        return bytes(out)

    def filt(raw: bytes, prev: bytes | None, ftype: int) -> bytes:
        out = bytearray()
        for i, x in enumerate(raw):
            a = raw[i - bpp] if i >= bpp else 0
            b = prev[i] if prev else 0
            c = prev[i - bpp] if prev and i >= bpp else 0
            if ftype == 0:
                p = 0
            elif ftype == 1:
                p = a
            elif ftype == 2:
                p = b
            elif ftype == 3:
                p = (a + b) // 2
            else:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            out.append((x - p) & 255)
        return bytes(out)

    def image_data(rows: list[list[int]]) -> bytes:
        data, prev = bytearray(), None
        for y, row in enumerate(rows):
            raw = pack_row(row)
            ft = filters[y % len(filters)] if filters else (y % 5)
            data += bytes([ft]) + filt(raw, prev, ft)
            prev = raw
        return bytes(data)

    if interlace:
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4)]
        passes += [(1, 0, 2, 2), (0, 1, 1, 2)]
        data = b""
        for x0, y0, dx, dy in passes:
            rows = []
            for y in range(y0, h, dy):
                row: list[int] = []
                for x in range(x0, w, dx):
                    row += pixels[y][x * ch : (x + 1) * ch]
                if row:
                    rows.append(row)
            if rows:
                data += image_data(rows)
    else:
        data = image_data(pixels)
    ihdr = struct.pack(">IIBBBBB", w, h, bd, ct, 0, 0, interlace)
    png = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr)
    if plte is not None:
        png += _chunk(b"PLTE", bytes(plte))
    if trns is not None:
        png += _chunk(b"tRNS", bytes(trns))
    return png + _chunk(b"IDAT", zlib.compress(data)) + _chunk(b"IEND", b"")


def _png_cases() -> list[tuple[str, str, bool]]:
    import random

    rng = random.Random(3)
    w, h = 11, 9
    pix = [[rng.randrange(256) for _ in range(w * 3)] for _ in range(h)]
    px16 = [[rng.randrange(65536) for _ in range(w * 3)] for _ in range(h)]
    rgba = [[rng.randrange(256) for _ in range(5 * 4)] for _ in range(3)]
    rgb = mkpng(3, 2, 2, 8, [[10, 200, 30, 255, 0, 0, 7, 8, 9], [0, 0, 0, 1, 2, 3, 250, 251, 252]])
    pngs = {
        "rgb": rgb,
        "rgb_interlaced": mkpng(w, h, 2, 8, pix, interlace=1),
        "rgb_big": mkpng(w, h, 2, 8, pix),
        "rgb16": mkpng(w, h, 2, 16, px16),
        "rgb16_interlaced": mkpng(w, h, 2, 16, px16, interlace=1),
        "gray16": mkpng(2, 1, 0, 16, [[0x1234, 0xFF80]]),
        "gray1": mkpng(10, 1, 0, 1, [[1, 0, 1, 1, 0, 0, 1, 0, 1, 1]]),
        "gray2": mkpng(3, 1, 0, 2, [[0, 1, 3]]),
        "gray4": mkpng(3, 2, 0, 4, [[0, 5, 15], [1, 2, 3]], interlace=1),
        "pal": mkpng(3, 1, 3, 8, [[0, 1, 2]], plte=[1, 2, 3, 4, 5, 6, 7, 8, 9]),
        "pal_trns": mkpng(3, 1, 3, 2, [[0, 1, 2]], plte=[1, 2, 3, 4, 5, 6, 7, 8, 9], trns=[0, 128]),
        "pal_4bit": mkpng(
            5, 2, 3, 4, [[0, 1, 2, 1, 0], [2, 2, 1, 0, 1]], plte=[9, 8, 7, 6, 5, 4, 3, 2, 1]
        ),
        "gray_alpha": mkpng(2, 1, 4, 8, [[10, 20, 30, 40]]),
        "gray_alpha16": mkpng(2, 1, 4, 16, [[1000, 2000, 65535, 0]]),
        "rgba": mkpng(5, 3, 6, 8, rgba),
        "gray_trns": mkpng(2, 1, 0, 8, [[10, 20]], trns=[0, 10]),
        "filters": mkpng(
            4,
            5,
            2,
            8,
            [[(x * 37 + y * 11) % 256 for x in range(12)] for y in range(5)],
            filters=[4, 3, 2, 1, 0],
        ),
    }
    cases: list[tuple[str, str, bool]] = []
    for key, data in pngs.items():
        cases.append((f"png_{key}", f"out = tf.io.decode_png({data!r})", False))
        for ch in (1, 3, 4):
            cases.append(
                (f"png_{key}_ch{ch}", f"out = tf.io.decode_png({data!r}, channels={ch})", False)
            )
        cases.append(
            (f"png_{key}_u16", f"out = tf.io.decode_png({data!r}, dtype=tf.uint16)", False)
        )
    bad_crc = bytearray(rgb)
    bad_crc[30] ^= 1  # inside IHDR's CRC
    idat_crc = bytearray(rgb)
    idat_crc[-14] ^= 1  # IDAT's CRC
    # a 2x1 gray image whose only row has filter type 7
    head = mkpng(2, 1, 0, 8, [[1, 2]])[:33]  # signature and IHDR
    bad_filter = head + _chunk(b"IDAT", zlib.compress(b"\x07\x01\x02")) + _chunk(b"IEND", b"")
    # a 1-bit palette image keeps 2 PLTE entries, so a 3-entry tRNS is ignored
    pal_long_trns = mkpng(4, 1, 3, 1, [[0, 1, 1, 0]], plte=list(range(18)), trns=[1, 2, 3])
    # the rows are all there but the zlib stream never ends
    co = zlib.compressobj()
    unterminated = co.compress(b"\x00\x01\x02") + co.flush(zlib.Z_SYNC_FLUSH)
    unterminated = head + _chunk(b"IDAT", unterminated) + _chunk(b"IEND", b"")
    cases += [
        ("png_pal_long_trns", f"out = tf.io.decode_png({pal_long_trns!r})", False),
        ("png_pal_long_trns_ch4", f"out = tf.io.decode_png({pal_long_trns!r}, channels=4)", False),
        ("png_unterminated_stream", f"out = tf.io.decode_png({unterminated!r})", True),
    ]
    anc = rgb[:33] + _chunk(b"tEXt", b"k\x00v")[:-1] + b"\x00" + rgb[33:]
    cases += [
        ("png_ch2", f"out = tf.io.decode_png({rgb!r}, channels=2)", True),
        ("png_ch5", f"out = tf.io.decode_png({rgb!r}, channels=5)", True),
        ("png_not_png", "out = tf.io.decode_png(b'hello')", True),
        ("png_bad_signature", "out = tf.io.decode_png(b'\\x89PNG\\r\\n\\x1a\\nxxxx')", True),
        ("png_bad_ihdr_crc", f"out = tf.io.decode_png({bytes(bad_crc)!r})", True),
        ("png_bad_idat_crc", f"out = tf.io.decode_png({bytes(idat_crc)!r})", True),
        ("png_truncated", f"out = tf.io.decode_png({rgb[:-20]!r})", True),
        ("png_bad_filter", f"out = tf.io.decode_png({bad_filter!r})", True),
        ("png_bad_ancillary_crc", f"out = tf.io.decode_png({anc!r})", False),
        ("png_vector", f"out = tf.io.decode_png([{rgb!r}])", True),
        ("png_image", f"out = tf.io.decode_image({rgb!r})", False),
        ("png_image_float", f"out = tf.io.decode_image({rgb!r}, dtype=tf.float32)", False),
        (
            "png_image_u16",
            f"out = tf.io.decode_image({pngs['rgb16']!r}, dtype=tf.uint16, channels=1)",
            False,
        ),
        (
            "png_image_shape",
            f"out = tf.io.decode_image({rgb!r}, channels=4, expand_animations=False).shape.as_list()",
            False,
        ),
    ]
    return cases


CASES += _png_cases()


def mkbmp(
    w: int, h: int, bpp: int, rows: list[list[int]], top_down: bool = False, header_size: int = 40
) -> bytes:
    """A BMP whose rows (top first) hold w * bpp / 8 bytes in file order."""
    bpr = w * bpp // 8
    pad = (4 - bpr % 4) % 4
    order = rows if top_down else rows[::-1]
    pixels = b"".join(bytes(r) + b"\0" * pad for r in order)
    dib = struct.pack(
        "<IiiHHIIiiII",
        header_size,
        w,
        -h if top_down else h,
        1,
        bpp,
        0,
        len(pixels),
        2835,
        2835,
        0,
        0,
    )
    dib += b"\0" * (header_size - 40)
    off = 14 + len(dib)
    return b"BM" + struct.pack("<IHHI", off + len(pixels), 0, 0, off) + dib + pixels


def _bmp_cases() -> list[tuple[str, str, bool]]:
    rows24 = [[1, 2, 3, 4, 5, 6, 7, 8, 9], [10, 11, 12, 13, 14, 15, 16, 17, 18]]
    bmps = {
        "24": mkbmp(3, 2, 24, rows24),
        "24_top_down": mkbmp(3, 2, 24, rows24, top_down=True),
        "32": mkbmp(2, 1, 32, [[1, 2, 3, 4, 5, 6, 7, 8]]),
        "8": mkbmp(3, 1, 8, [[1, 2, 3]]),
        "v5_header": mkbmp(1, 1, 24, [[1, 2, 3]], header_size=124),
    }
    cases: list[tuple[str, str, bool]] = []
    for key, data in bmps.items():
        cases.append((f"bmp_{key}", f"out = tf.io.decode_bmp({data!r})", False))
        for ch in (1, 3, 4):
            cases.append(
                (f"bmp_{key}_ch{ch}", f"out = tf.io.decode_bmp({data!r}, channels={ch})", ch == 1)
            )
        if key == "24_top_down":
            continue  # TF 2.21 itself crashes (SIGSEGV) on the two below
        cases.append(
            (f"bmp_{key}_image_u16", f"out = tf.io.decode_image({data!r}, dtype=tf.uint16)", False)
        )
        cases.append(
            (f"bmp_{key}_image_f32", f"out = tf.io.decode_image({data!r}, dtype=tf.float32)", False)
        )
    b24 = bmps["24"]
    bad_header = (
        b"BM"
        + b"\0" * 8
        + b"\xff\xff\xff\xff"
        + b"\0" * 4
        + b"\x01\0\0\0" * 2
        + b"\0\0\x18\0"
        + b"\0" * 4
    )
    big = (
        b"BM"
        + b"\0" * 8
        + b"\x36\0\0\0"
        + b"\0" * 4
        + b"\xff\xff\0\0" * 2
        + b"\0\0\x18\0"
        + b"\0" * 24
    )
    cases += [
        ("bmp_truncated", f"out = tf.io.decode_bmp({b24[:-5]!r})", True),
        ("bmp_short", "out = tf.io.decode_bmp(b'BM1234')", True),
        ("bmp_16bit", f"out = tf.io.decode_bmp({mkbmp(2, 1, 16, [[1, 2, 3, 4]])!r})", True),
        ("bmp_zero_width", f"out = tf.io.decode_bmp({mkbmp(0, 1, 24, [[]])!r})", True),
        ("bmp_bad_header", f"out = tf.io.decode_bmp({bad_header!r})", True),
        ("bmp_too_big", f"out = tf.io.decode_bmp({big!r})", True),
        ("bmp_with_png_op", f"out = tf.io.decode_png({b24!r})", True),
        (
            "bmp_op_reads_png",
            f"out = tf.io.decode_bmp({mkpng(2, 1, 2, 8, [[1, 2, 3, 4, 5, 6]])!r})",
            False,
        ),
    ]
    return cases


CASES += _bmp_cases()


def jsonable(x: Any) -> Any:
    if isinstance(x, bytes):
        return {"b": x.hex()}
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return x
    if isinstance(x, int):
        return x
    if isinstance(x, float):
        if math.isnan(x):
            return {"f": "nan"}
        if math.isinf(x):
            return {"f": "inf" if x > 0 else "-inf"}
        return x
    if isinstance(x, complex):
        return {"c": [jsonable(x.real), jsonable(x.imag)]}
    if isinstance(x, list | tuple):
        return [jsonable(v) for v in x]
    if hasattr(x, "item") and hasattr(x, "dtype") and getattr(x, "shape", None) == ():
        return jsonable(x.item())
    if hasattr(x, "tolist"):
        return jsonable(x.tolist())
    return {"repr": repr(x)}


def summarize(x: Any) -> Any:
    """A JSON form of a result: tensors by dtype, shape and values, ragged
    tensors by their lists and repr, sequences element by element."""
    name = type(x).__name__
    if name == "RaggedTensor":
        return {
            "ragged": jsonable(x.to_list()),
            "dtype": x.dtype.name,
            "ragged_rank": x.ragged_rank,
            "repr": repr(x),
        }
    if hasattr(x, "numpy") and hasattr(x, "dtype") and hasattr(x, "shape"):
        v = x.numpy()
        return {
            "tensor": jsonable(v.tolist() if hasattr(v, "tolist") else v),
            "dtype": x.dtype.name,
            "shape": [int(d) for d in x.shape],
        }
    if isinstance(x, list | tuple):
        return {"seq": [summarize(v) for v in x]}
    return {"py": jsonable(x)}


def run_case(tf: Any, np: Any, code: str) -> Any:
    tmp = tempfile.mkdtemp(prefix="tfe_strio_")
    env = {"tf": tf, "np": np, "os": os, "tmp": tmp}
    try:
        exec(code, env)
        return summarize(env["out"])
    except Exception as e:  # the error is the result
        return {"error": type(e).__name__, "message": str(e)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf

    out = []
    for name, code, check_message in CASES:
        out.append(
            {
                "name": name,
                "code": code,
                "check_message": check_message,
                "tf": run_case(tf, np, code),
            }
        )
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.path.join(root, "tests", "data", "api_strings_io_tf221.json")
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, "cases": out}, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(out)} cases to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
