"""``tf.strings``: string functions over string tensors.

Each function is a thin layer over TensorFlow's string ops (StringLength,
Substr, StringSplitV2, StringJoin, ReduceJoin, the regex ops, AsString,
StringFormat, the Unicode ops, StringNGrams, ...), with TF 2.21's argument
names and defaults. Results TF gives as ``tf.RaggedTensor`` (``split`` of a
vector, ``unicode_decode`` of a vector, ``bytes_split``, ``ngrams`` of
ragged data) are :class:`tfe_py.ragged.RaggedTensor` values; a scalar input
gives a plain vector, as in TF.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tfe_py import _api, dtypes
from tfe_py.ragged import RaggedTensor

__all__ = [
    "as_string",
    "bytes_split",
    "format",
    "join",
    "length",
    "lower",
    "ngrams",
    "reduce_join",
    "regex_full_match",
    "regex_replace",
    "split",
    "strip",
    "substr",
    "to_hash_bucket",
    "to_hash_bucket_fast",
    "to_hash_bucket_strong",
    "to_number",
    "unicode_decode",
    "unicode_decode_with_offsets",
    "unicode_encode",
    "unicode_script",
    "unicode_split",
    "unicode_split_with_offsets",
    "unicode_transcode",
    "unsorted_segment_join",
    "upper",
]

# Names TensorFlow also exports at the top level (tf.<name>).
TOPLEVEL: frozenset[str] = frozenset({"as_string", "RaggedTensor"})


def _ops() -> Any:
    from tfe_py import ops

    return ops


def _str(value: Any) -> Any:
    """``value`` as a string tensor (TypeError for a tensor of another dtype)."""
    return _api.tensor(value, dtype=dtypes.string)


def _rank(t: Any) -> int | None:
    shape = t.shape
    return None if shape is None else len(shape)


def _known_rank(t: Any, what: str = "input") -> int:
    r = _rank(t)
    if r is None:
        raise ValueError(f"Rank of `{what}` must be statically known.")
    return r


def _str_or_ragged(value: Any) -> Any:
    return value if isinstance(value, RaggedTensor) else _str(value)


def _stack1(t: Any) -> Any:
    return _ops().ExpandDims(t, np.int32(0))


def _flat(t: Any) -> Any:
    return _ops().Reshape(t, np.array([-1], np.int32))


# ------------------------------------------------------------ elementwise


def _same_int_type(a: Any, b: Any) -> tuple[Any, Any]:
    """Two values as tensors of one integer dtype, as TF's op helper
    converts inputs sharing a type attr: a tensor's dtype wins, else int32."""
    from tfe_py.tensor import Tensor

    if isinstance(a, Tensor):
        return a, _api.tensor(b, dtype=None if isinstance(b, Tensor) else a.dtype)
    if isinstance(b, Tensor):
        return _api.tensor(a, dtype=b.dtype), b
    at = _api.tensor(a, dtype_hint=dtypes.int32)
    return at, _api.tensor(b, dtype=at.dtype)


def length(input: Any, unit: str = "BYTE", name: str | None = None) -> Any:
    """Length of each string in bytes (``unit="BYTE"``) or in UTF-8
    characters (``unit="UTF8_CHAR"``), as int32."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(length(input.flat_values, unit))
    return _ops().StringLength(_str(input), unit=unit)


def substr(
    input: Any,
    pos: Any,
    len: Any,
    unit: str = "BYTE",
    name: str | None = None,
) -> Any:
    """Substrings starting at ``pos`` (negative counts from the end) of at
    most ``len`` bytes or UTF-8 characters; ``pos`` and ``len`` broadcast
    against ``input``."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(substr(input.flat_values, pos, len, unit))
    pos_t, len_t = _same_int_type(pos, len)
    return _ops().Substr(_str(input), pos_t, len_t, unit=unit)


def strip(input: Any, name: str | None = None) -> Any:
    """Strips leading and trailing ASCII whitespace."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(strip(input.flat_values))
    return _ops().StringStrip(_str(input))


def lower(input: Any, encoding: str = "", name: str | None = None) -> Any:
    """Lower-cases ASCII letters (all of Unicode with ``encoding="utf-8"``)."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(lower(input.flat_values, encoding))
    return _ops().StringLower(_str(input), encoding=encoding)


def upper(input: Any, encoding: str = "", name: str | None = None) -> Any:
    """Upper-cases ASCII letters (all of Unicode with ``encoding="utf-8"``)."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(upper(input.flat_values, encoding))
    return _ops().StringUpper(_str(input), encoding=encoding)


def to_number(input: Any, out_type: Any = dtypes.float32, name: str | None = None) -> Any:
    """Parses each string as a number of ``out_type`` (float32, float64,
    int32 or int64); InvalidArgumentError when one does not parse."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(to_number(input.flat_values, out_type))
    return _ops().StringToNumber(_str(input), out_type=dtypes.as_dtype(out_type))


def to_hash_bucket(input: Any, num_buckets: int, name: str | None = None) -> Any:
    """Hash bucket of each string (TF's legacy Fingerprint64-based hash)."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(to_hash_bucket(input.flat_values, num_buckets))
    return _ops().StringToHashBucket(_str(input), num_buckets=num_buckets)


def to_hash_bucket_fast(input: Any, num_buckets: int, name: str | None = None) -> Any:
    """Hash bucket of each string (FarmHash Fingerprint64)."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(to_hash_bucket_fast(input.flat_values, num_buckets))
    return _ops().StringToHashBucketFast(_str(input), num_buckets=num_buckets)


def to_hash_bucket_strong(input: Any, num_buckets: int, key: Any, name: str | None = None) -> Any:
    """Hash bucket of each string with the keyed SipHash; ``key`` is a
    list of two ints."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(to_hash_bucket_strong(input.flat_values, num_buckets, key))
    return _ops().StringToHashBucketStrong(_str(input), num_buckets=num_buckets, key=list(key))


def as_string(
    input: Any,
    precision: int = -1,
    scientific: bool = False,
    shortest: bool = False,
    width: int = -1,
    fill: str = "",
    name: str | None = None,
) -> Any:
    """Each element formatted as a string (``tf.as_string``)."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(
            as_string(input.flat_values, precision, scientific, shortest, width, fill)
        )
    return _ops().AsString(
        _api.tensor(input),
        precision=precision,
        scientific=scientific,
        shortest=shortest,
        width=width,
        fill=fill,
    )


def regex_full_match(input: Any, pattern: Any, name: str | None = None) -> Any:
    """Whether each whole string matches ``pattern`` (RE2 syntax)."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(regex_full_match(input.flat_values, pattern))
    if isinstance(pattern, str | bytes):
        return _ops().StaticRegexFullMatch(_str(input), pattern=pattern)
    return _ops().RegexFullMatch(_str(input), _str(pattern))


def regex_replace(
    input: Any,
    pattern: Any,
    rewrite: Any,
    replace_global: bool = True,
    name: str | None = None,
) -> Any:
    """Replaces the matches of ``pattern`` (all of them, or the first with
    ``replace_global=False``) by ``rewrite`` (``\\1`` refers to groups)."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(
            regex_replace(input.flat_values, pattern, rewrite, replace_global)
        )
    if isinstance(pattern, str | bytes) and isinstance(rewrite, str | bytes):
        return _ops().StaticRegexReplace(
            _str(input), pattern=pattern, rewrite=rewrite, replace_global=replace_global
        )
    return _ops().RegexReplace(
        _str(input), _str(pattern), _str(rewrite), replace_global=replace_global
    )


def unicode_script(input: Any, name: str | None = None) -> Any:
    """ICU script code (UScriptCode) of each int32 code point; -1 for an
    invalid code point."""
    return _ops().UnicodeScript(_api.tensor(input, dtype=dtypes.int32))


def unicode_transcode(
    input: Any,
    input_encoding: str,
    output_encoding: str,
    errors: str = "replace",
    replacement_char: int = 65533,
    replace_control_characters: bool = False,
    name: str | None = None,
) -> Any:
    """Re-encodes each string (UTF-8, UTF-16-BE, UTF-32-BE)."""
    return _ops().UnicodeTranscode(
        _str(input),
        input_encoding=input_encoding,
        output_encoding=output_encoding,
        errors=errors,
        replacement_char=replacement_char,
        replace_control_characters=replace_control_characters,
    )


# ------------------------------------------------------------- reductions


def join(inputs: Any, separator: str = "", name: str | None = None) -> Any:
    """Element-wise concatenation of a list of string tensors (broadcast
    against each other), with ``separator`` between them."""
    if isinstance(inputs, str | bytes) or hasattr(inputs, "dtype"):
        raise TypeError(f"inputs must be a list of tensors, got {type(inputs).__name__}")
    return _ops().StringJoin([_str(x) for x in inputs], separator=separator)


def reduce_join(
    inputs: Any,
    axis: Any = None,
    keepdims: bool = False,
    separator: str = "",
    name: str | None = None,
) -> Any:
    """Joins the strings along ``axis`` (all axes when None)."""
    t = _str(inputs)
    if axis is None:
        r = _rank(t)
        if r is None:
            ops = _ops()
            rank = ops.Rank(t)
            axis = ops.Range(ops.Sub(rank, np.int32(1)), np.int32(-1), np.int32(-1))
        else:
            axis = np.arange(r - 1, -1, -1, dtype=np.int32)
    axis_t = _api.tensor(axis, dtype_hint=dtypes.int32)
    return _ops().ReduceJoin(t, axis_t, keep_dims=bool(keepdims), separator=separator)


def unsorted_segment_join(
    inputs: Any,
    segment_ids: Any,
    num_segments: Any,
    separator: str = "",
    name: str | None = None,
) -> Any:
    """Joins the strings of each segment (``segment_ids`` may be unsorted;
    empty segments give b"")."""
    ids = _api.tensor(segment_ids, dtype_hint=dtypes.int32)
    return _ops().UnsortedSegmentJoin(
        _str(inputs), ids, _api.tensor(num_segments, dtype_hint=dtypes.int32), separator=separator
    )


def format(
    template: str,
    inputs: Any,
    placeholder: str = "{}",
    summarize: int = 3,
    name: str | None = None,
) -> Any:
    """``template`` with each ``placeholder`` replaced by the next input
    tensor, printed as TF prints tensors (``summarize`` elements per end
    of each dimension)."""
    from tfe_py.tensor import Tensor

    if isinstance(inputs, Tensor):
        inputs = [inputs]
    elif not isinstance(inputs, list | tuple):
        inputs = [inputs]
    count = len(template.split(placeholder)) - 1
    if len(inputs) != count:
        raise ValueError(
            f"The template expects {count} tensors, but the inputs only has "
            f"{len(inputs)}. Please ensure the number of placeholders in "
            "template matches inputs length."
        )
    return _ops().StringFormat(
        [_api.tensor(x) for x in inputs],
        template=template,
        placeholder=placeholder,
        summarize=summarize,
    )


# ------------------------------------------------------------- splitting


def _from_sparse_rows(indices: Any, values: Any, shape: Any) -> RaggedTensor:
    """A RaggedTensor from the (indices, values, dense_shape) triple of a
    sparse split result, rows by ``indices[:, 0]``."""
    ops = _ops()
    rowids = ops.StridedSlice(
        indices,
        np.array([0, 0], np.int64),
        np.array([0, 1], np.int64),
        np.array([1, 1], np.int64),
        begin_mask=1,
        end_mask=1,
        shrink_axis_mask=2,
    )
    nrows = ops.StridedSlice(
        shape,
        np.array([0], np.int64),
        np.array([1], np.int64),
        np.array([1], np.int64),
        shrink_axis_mask=1,
    )
    return RaggedTensor.from_value_rowids(values, rowids, nrows, validate=False)


def split(
    input: Any,
    sep: Any = None,
    maxsplit: int = -1,
    name: str | None = None,
) -> Any:
    """Splits each string at ``sep`` (at runs of whitespace when None), at
    most ``maxsplit`` times. A scalar gives a vector; a tensor of rank N a
    RaggedTensor of rank N + 1."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(split(input.flat_values, sep, maxsplit))
    t = _str(input)
    rank = _rank(t)
    if rank == 0:
        return split(_stack1(t), sep, maxsplit)[0]
    if rank is not None and rank > 1:
        return split(RaggedTensor.from_tensor(t, ragged_rank=rank - 1), sep, maxsplit)
    sep_t = _str("" if sep is None else sep)
    r = _ops().StringSplitV2(t, sep_t, maxsplit=maxsplit)
    return _from_sparse_rows(r.indices, r.values, r.shape)


def bytes_split(input: Any, name: str | None = None) -> Any:
    """Splits each string into its bytes."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(bytes_split(input.flat_values))
    t = _str(input)
    rank = _known_rank(t)
    if rank == 0:
        return bytes_split(_stack1(t))[0]
    if rank > 1:
        return bytes_split(RaggedTensor.from_tensor(t, ragged_rank=rank - 1))
    r = _ops().StringSplit(t, _str(""), skip_empty=False)
    return _from_sparse_rows(r.indices, r.values, r.shape)


def _unicode_decode(
    input: Any,
    input_encoding: str,
    errors: str,
    replacement_char: int,
    replace_control_characters: bool,
    with_offsets: bool,
) -> Any:
    value = _str_or_ragged(input)
    ndims = len(value.shape) if isinstance(value, RaggedTensor) else _known_rank(value)
    if ndims > 1:
        if not isinstance(value, RaggedTensor):
            value = RaggedTensor.from_tensor(value, ragged_rank=ndims - 1)
        elif value.ragged_rank < ndims - 1:
            value = value.with_flat_values(
                RaggedTensor.from_tensor(
                    value.flat_values, ragged_rank=ndims - value.ragged_rank - 1
                )
            )
    flat = _flat(value.flat_values if isinstance(value, RaggedTensor) else value)
    ops = _ops()
    kwargs = dict(
        input_encoding=input_encoding,
        errors=errors,
        replacement_char=replacement_char,
        replace_control_characters=replace_control_characters,
    )
    if with_offsets:
        r = ops.UnicodeDecodeWithOffsets(flat, **kwargs)
        chars, offsets = r.char_values, r.char_to_byte_starts
    else:
        r = ops.UnicodeDecode(flat, **kwargs)
        chars, offsets = r.char_values, None
    if ndims == 0:
        return (chars, offsets) if with_offsets else chars
    codepoints: Any = RaggedTensor.from_row_splits(chars, r.row_splits, validate=False)
    offs: Any = None
    if with_offsets:
        offs = RaggedTensor.from_row_splits(offsets, r.row_splits, validate=False)
    if ndims > 1:
        codepoints = value.with_flat_values(codepoints)
        if with_offsets:
            offs = value.with_flat_values(offs)
    return (codepoints, offs) if with_offsets else codepoints


def unicode_decode(
    input: Any,
    input_encoding: str,
    errors: str = "replace",
    replacement_char: int = 65533,
    replace_control_characters: bool = False,
    name: str | None = None,
) -> Any:
    """Code points (int32) of each string: a vector for a scalar, else a
    RaggedTensor with one more dimension."""
    return _unicode_decode(
        input, input_encoding, errors, replacement_char, replace_control_characters, False
    )


def unicode_decode_with_offsets(
    input: Any,
    input_encoding: str,
    errors: str = "replace",
    replacement_char: int = 65533,
    replace_control_characters: bool = False,
    name: str | None = None,
) -> tuple[Any, Any]:
    """``unicode_decode`` plus the byte offset (int64) where each
    character starts."""
    return _unicode_decode(
        input, input_encoding, errors, replacement_char, replace_control_characters, True
    )


def unicode_encode(
    input: Any,
    output_encoding: str,
    errors: str = "replace",
    replacement_char: int = 65533,
    name: str | None = None,
) -> Any:
    """Encodes rows of int32 code points (the innermost dimension) as
    strings: a rank-1 input gives a scalar."""
    if isinstance(input, RaggedTensor):
        flat = input.flat_values
        if len(flat.shape) > 1:
            return input.with_flat_values(
                unicode_encode(flat, output_encoding, errors, replacement_char)
            )
        if input.ragged_rank > 1:
            return input.with_values(
                unicode_encode(input.values, output_encoding, errors, replacement_char)
            )
        return _ops().UnicodeEncode(
            _api.tensor(input.values, dtype=dtypes.int32),
            input.row_splits,
            output_encoding=output_encoding,
            errors=errors,
            replacement_char=replacement_char,
        )
    t = _api.tensor(input, dtype_hint=dtypes.int32)
    rank = _known_rank(t, "input_tensor")
    ops = _ops()
    if rank == 0:
        raise ValueError("input_tensor's rank must be at least 1.")
    if rank == 1:
        n = int(t.shape[0]) if t.shape[0] is not None else None
        if n is None:
            splits = ops.Pack([np.int32(0), ops.Size(t)])
        else:
            splits = np.array([0, n], np.int32)
        out = ops.UnicodeEncode(
            t,
            splits,
            output_encoding=output_encoding,
            errors=errors,
            replacement_char=replacement_char,
        )
        return ops.Reshape(out, np.zeros(0, np.int32))
    if rank == 2:
        return unicode_encode(
            RaggedTensor.from_tensor(t), output_encoding, errors, replacement_char
        )
    dims = [int(d) for d in t.shape]
    flat = ops.Reshape(t, np.array([-1, dims[-1]], np.int64))
    out = unicode_encode(flat, output_encoding, errors, replacement_char)
    return ops.Reshape(out, np.array(dims[:-1], np.int64))


def unicode_split_with_offsets(
    input: Any,
    input_encoding: str,
    errors: str = "replace",
    replacement_char: int = 65533,
    name: str | None = None,
) -> tuple[Any, Any]:
    """``unicode_split`` plus the byte offset (int64) of each character."""
    codepoints, offsets = _unicode_decode(
        input, input_encoding, errors, replacement_char, False, True
    )
    return _encode_each(codepoints, input_encoding, errors, replacement_char), offsets


def unicode_split(
    input: Any,
    input_encoding: str,
    errors: str = "replace",
    replacement_char: int = 65533,
    name: str | None = None,
) -> Any:
    """Splits each string into its characters (each re-encoded, so an
    invalid sequence becomes the replacement character)."""
    codepoints = _unicode_decode(input, input_encoding, errors, replacement_char, False, False)
    return _encode_each(codepoints, input_encoding, errors, replacement_char)


def _encode_each(codepoints: Any, encoding: str, errors: str, replacement_char: int) -> Any:
    """Each code point encoded on its own (same structure as the input)."""
    if isinstance(codepoints, RaggedTensor):
        return codepoints.with_flat_values(
            _encode_each(codepoints.flat_values, encoding, errors, replacement_char)
        )
    ops = _ops()
    n = ops.Size(codepoints, out_type=dtypes.int64)
    splits = ops.Range(np.int64(0), ops.AddV2(n, np.int64(1)), np.int64(1))
    return ops.UnicodeEncode(
        codepoints,
        splits,
        output_encoding=encoding,
        errors=errors,
        replacement_char=replacement_char,
    )


def ngrams(
    data: Any,
    ngram_width: Any,
    separator: str = " ",
    pad_values: Any = None,
    padding_width: int | None = None,
    preserve_short_sequences: bool = False,
    name: str | None = None,
) -> Any:
    """The n-grams of each row (innermost dimension) of ``data``, joined
    with ``separator``; ``pad_values`` (one value or a (left, right) pair)
    pads each row by ``padding_width`` (default ``width - 1``)."""
    if pad_values is None:
        left_pad = right_pad = ""
    elif isinstance(pad_values, list | tuple):
        if len(pad_values) != 2 or not all(isinstance(p, str | bytes) for p in pad_values):
            raise ValueError("pad_values must be a string, tuple of strings, or None.")
        left_pad, right_pad = pad_values
    elif isinstance(pad_values, str | bytes):
        left_pad = right_pad = pad_values
    else:
        raise ValueError("pad_values must be a string, tuple of strings, or None.")
    if padding_width is not None and padding_width < 1:
        raise ValueError("padding_width must be greater than 0.")
    if padding_width is not None and pad_values is None:
        raise ValueError("pad_values must be provided if padding_width is set.")

    value = _str_or_ragged(data)
    ops = _ops()
    dense_shape = None
    if not isinstance(value, RaggedTensor):
        rank = _rank(value)
        if rank is None:
            raise ValueError("Rank of data must be known.")
        if rank == 0:
            raise ValueError("Data must have rank>0")
        dims = [int(d) for d in value.shape]
        dense_shape = np.array([*dims[:-1], -1], np.int64)
        if rank == 1:
            rt = RaggedTensor.from_row_splits(
                value, np.array([0, dims[0]], np.int64), validate=False
            )
            return ngrams(
                rt, ngram_width, separator, pad_values, padding_width, preserve_short_sequences
            )[0]
        value = RaggedTensor.from_tensor(value, ragged_rank=rank - 1)
    if value.ragged_rank > 1:
        inner = ngrams(
            value.values,
            ngram_width,
            separator,
            pad_values,
            padding_width,
            preserve_short_sequences,
        )
        output = value.with_values(inner)
        return ops.Reshape(output.flat_values, dense_shape) if dense_shape is not None else output
    if pad_values is None:
        padding_width = 0
    if pad_values is not None and padding_width is None:
        padding_width = -1
    widths = list(ngram_width) if isinstance(ngram_width, list | tuple) else [ngram_width]
    for w in widths:
        if w < 1:
            raise ValueError(f"All ngram_widths must be greater than 0. Got {ngram_width}")
    r = ops.StringNGrams(
        value.flat_values,
        value.row_splits,
        separator=separator,
        ngram_widths=[int(w) for w in widths],
        left_pad=left_pad,
        right_pad=right_pad,
        pad_width=int(padding_width or 0) if padding_width != -1 else -1,
        preserve_short_sequences=bool(preserve_short_sequences),
    )
    output = RaggedTensor.from_row_splits(r.ngrams, r.ngrams_splits, validate=False)
    return ops.Reshape(output.flat_values, dense_shape) if dense_shape is not None else output
