"""``tf.nn``: activations, convolution and pooling, normalization, losses.

Each function follows TensorFlow 2.21's ``tf.nn.<name>``: the same argument
names and defaults, the same handling of ``data_format`` (``"NHWC"`` and
friends, ``"NC..."`` for channels first), of ``strides``/``ksize``/
``dilations`` given as one int, one per spatial dimension or one per
dimension, and of ``padding`` as ``"SAME"``, ``"VALID"`` or an explicit list
of ``[before, after]`` pairs. The work is done by the C ops (Conv2D,
MaxPool, FusedBatchNormV3, SoftmaxCrossEntropyWithLogits, ...) composed as
TensorFlow composes them, so the printed numbers are TensorFlow's. Argument
errors found in Python raise ValueError (as TF); errors found by a kernel
raise the matching :class:`tfe_py.errors.OpError` subclass.

A function whose op tfe does not register raises NotImplementedError naming
that op when called. ``top_k``, ``in_top_k``, ``approx_max_k``,
``approx_min_k``, ``sigmoid`` and ``tanh`` belong to :mod:`tfe_py.math` and
are looked up there on first use.
"""

from __future__ import annotations

import math as _pymath
import numbers
import types
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tfe_py import _api
from tfe_py import dtypes as _dtypes

__all__: list[str] = [
    "RNNCellDeviceWrapper",
    "RNNCellDropoutWrapper",
    "RNNCellResidualWrapper",
    "all_candidate_sampler",
    "atrous_conv2d",
    "atrous_conv2d_transpose",
    "avg_pool",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "batch_norm_with_global_normalization",
    "batch_normalization",
    "bias_add",
    "collapse_repeated",
    "compute_accidental_hits",
    "compute_average_loss",
    "conv1d",
    "conv1d_transpose",
    "conv2d",
    "conv2d_transpose",
    "conv3d",
    "conv3d_transpose",
    "conv_transpose",
    "convolution",
    "crelu",
    "ctc_beam_search_decoder",
    "ctc_greedy_decoder",
    "ctc_loss",
    "ctc_unique_labels",
    "depth_to_space",
    "depthwise_conv2d",
    "depthwise_conv2d_backprop_filter",
    "depthwise_conv2d_backprop_input",
    "dilation2d",
    "dropout",
    "elu",
    "embedding_lookup",
    "embedding_lookup_sparse",
    "erosion2d",
    "experimental",
    "fixed_unigram_candidate_sampler",
    "fractional_avg_pool",
    "fractional_max_pool",
    "gelu",
    "isotonic_regression",
    "l2_loss",
    "l2_normalize",
    "leaky_relu",
    "learned_unigram_candidate_sampler",
    "local_response_normalization",
    "log_poisson_loss",
    "log_softmax",
    "lrn",
    "max_pool",
    "max_pool1d",
    "max_pool2d",
    "max_pool3d",
    "max_pool_with_argmax",
    "moments",
    "nce_loss",
    "normalize_moments",
    "pool",
    "relu",
    "relu6",
    "safe_embedding_lookup_sparse",
    "sampled_softmax_loss",
    "scale_regularization_loss",
    "selu",
    "separable_conv2d",
    "sigmoid_cross_entropy_with_logits",
    "silu",
    "softmax",
    "softmax_cross_entropy_with_logits",
    "softplus",
    "softsign",
    "space_to_batch",
    "space_to_depth",
    "sparse_softmax_cross_entropy_with_logits",
    "sufficient_statistics",
    "swish",
    "weighted_cross_entropy_with_logits",
    "weighted_moments",
    "with_space_to_batch",
    "zero_fraction",
]

# Names TensorFlow also exports at the top level (tf.<name>).
TOPLEVEL: frozenset[str] = frozenset({"space_to_batch"})

# tf.nn names that are the same objects as functions of another module.
_ELSEWHERE = {
    "top_k": "tfe_py.math",
    "in_top_k": "tfe_py.math",
    "approx_max_k": "tfe_py.math",
    "approx_min_k": "tfe_py.math",
    "sigmoid": "tfe_py.math",
    "tanh": "tfe_py.math",
}

_CHANNELS_LAST = frozenset({"NWC", "NHC", "NHWC", "NDHWC"})


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_ELSEWHERE))


def __getattr__(name: str) -> Any:
    target = _ELSEWHERE.get(name)
    if target is None:
        raise AttributeError(f"module 'tfe_py.nn' has no attribute {name!r}")
    import importlib

    module = importlib.import_module(target)
    try:
        value = getattr(module, name)
    except AttributeError:
        value = _fallback(name)
    globals()[name] = value
    return value


# ---------------------------------------------------------------------------
# Small helpers over the raw ops


def _op(name: str) -> Callable[..., Any]:
    return _api.op(name)


def _t(value: Any, dtype: Any = None, dtype_hint: Any = None) -> Any:
    return _api.tensor(value, dtype=dtype, dtype_hint=dtype_hint)


def _is_tensor(value: Any) -> bool:
    from tfe_py.tensor import Tensor

    return isinstance(value, Tensor)


def _dims(x: Any) -> list[int | None] | None:
    """Static shape of tensor ``x`` as a list (None for an unknown rank)."""
    shape = x.shape
    if shape is None or getattr(shape, "rank", 0) is None:
        return None
    return [None if d is None else int(d) for d in shape]


def _rank(x: Any) -> int | None:
    dims = _dims(x)
    return None if dims is None else len(dims)


def _shape_of(x: Any) -> Any:
    """Shape of ``x`` as a Python list when fully known, else a Shape op."""
    dims = _dims(x)
    if dims is not None and None not in dims:
        return dims
    return _op("Shape")(x)


def _dtype(x: Any) -> Any:
    return _dtypes.as_dtype(x.dtype)


def _cast(x: Any, dtype: Any) -> Any:
    """``tf.cast``: no op when ``x`` already has ``dtype``."""
    dtype = _dtypes.as_dtype(dtype)
    x = _t(x)
    if _dtype(x) == dtype:
        return x
    return _op("Cast")(x, DstT=dtype)


def _const(value: Any, dtype: Any) -> Any:
    return _t(value, dtype=dtype)


def _axes(axis: Any) -> Any:
    """An axis argument as a tensor (int32 unless already a tensor)."""
    if _is_tensor(axis):
        return axis
    if isinstance(axis, (set, frozenset)):
        axis = sorted(axis)
    return _const(axis, _dtypes.int32)


def _all_axes(x: Any) -> Any:
    rank = _rank(x)
    if rank is not None:
        return _const(list(range(rank)), _dtypes.int32)
    return _op("Range")(0, _op("Rank")(x), 1)


def _reduce(op_name: str, x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    x = _t(x)
    axes = _all_axes(x) if axis is None else _axes(axis)
    return _op(op_name)(x, axes, keep_dims=bool(keepdims))


def _squeeze(x: Any, axes: Any) -> Any:
    if isinstance(axes, int):
        axes = [axes]
    return _op("Squeeze")(x, squeeze_dims=[int(a) for a in axes])


def _expand(x: Any, axis: int) -> Any:
    return _op("ExpandDims")(x, _const(axis, _dtypes.int32))


def _reshape(x: Any, shape: Any) -> Any:
    if not _is_tensor(shape):
        shape = _const(shape, _dtypes.int32)
    return _op("Reshape")(x, shape)


def _transpose(x: Any, perm: Sequence[int]) -> Any:
    return _op("Transpose")(x, _const(list(perm), _dtypes.int32))


def _concat(values: Sequence[Any], axis: int) -> Any:
    return _op("ConcatV2")(list(values), _const(axis, _dtypes.int32))


def _where(cond: Any, x: Any, y: Any) -> Any:
    return _op("SelectV2")(cond, x, y)


def _fallback(name: str) -> Callable[..., Any]:
    """Versions of the tf.math functions tf.nn re-exports, used while
    :mod:`tfe_py.math` does not define them (TF's definitions)."""

    def top_k(
        input: Any,
        k: Any = 1,
        sorted: bool = True,
        index_type: Any = _dtypes.int32,
        name: str | None = None,
    ) -> Any:
        return _op("TopKV2")(
            _t(input),
            _const(k, _dtypes.int32),
            sorted=sorted,
            index_type=_dtypes.as_dtype(index_type),
            name=name,
        )

    def in_top_k(targets: Any, predictions: Any, k: Any, name: str | None = None) -> Any:
        return _op("InTopKV2")(
            _t(predictions), _t(targets), _t(k, dtype_hint=_dtypes.int32), name=name
        )

    def _approx(is_max: bool) -> Callable[..., Any]:
        def approx(
            operand: Any,
            k: int,
            reduction_dimension: int = -1,
            recall_target: float = 0.95,
            reduction_input_size_override: int = -1,
            aggregate_to_topk: bool = True,
            name: str | None = None,
        ) -> Any:
            return _op("ApproxTopK")(
                _t(operand),
                k=k,
                reduction_dimension=reduction_dimension,
                recall_target=recall_target,
                is_max_k=is_max,
                reduction_input_size_override=reduction_input_size_override,
                aggregate_to_topk=aggregate_to_topk,
                name=name,
            )

        approx.__name__ = "approx_max_k" if is_max else "approx_min_k"
        return approx

    def sigmoid(x: Any, name: str | None = None) -> Any:
        return _op("Sigmoid")(_t(x), name=name)

    def tanh(x: Any, name: str | None = None) -> Any:
        return _op("Tanh")(_t(x), name=name)

    table: dict[str, Callable[..., Any]] = {
        "top_k": top_k,
        "in_top_k": in_top_k,
        "approx_max_k": _approx(True),
        "approx_min_k": _approx(False),
        "sigmoid": sigmoid,
        "tanh": tanh,
    }
    return table[name]


def _get_sequence(value: Any, n: int, channel_index: int, name: str) -> list[Any]:
    """A strides/ksize/dilations argument as one value per dimension
    (batch and channel dimensions get 1), as TensorFlow formats it."""
    if value is None:
        return [1] * (n + 2)
    if isinstance(value, list):
        pass
    elif isinstance(value, tuple):
        value = list(value)
    elif isinstance(value, int):
        value = [value]
    elif not hasattr(value, "__len__"):
        value = [value]
    else:
        value = list(value)
    length = len(value)
    if length == n + 2:
        return value
    if length == 1:
        value = value * n
    elif length != n:
        raise ValueError(
            f"{name} should be of length 1, {n} or {n + 2}. "
            f"Received: {name}={value} of length {length}"
        )
    if channel_index == 1:
        return [1, 1, *value]
    return [1, *value, 1]


def _ints(values: Sequence[Any]) -> list[int]:
    return [int(v) for v in values]


def _convert_padding(padding: Any, expected_length: int = 4) -> tuple[Any, list[int]]:
    """``padding`` as (padding string, explicit paddings), as TensorFlow."""
    explicit: list[int] = []
    if padding == "EXPLICIT":
        raise ValueError(
            "'EXPLICIT' is not a valid value for `padding`. To use explicit padding, "
            "`padding` must be a list."
        )
    if isinstance(padding, (list, tuple)):
        for i, pair in enumerate(padding):
            if not isinstance(pair, (list, tuple)):
                raise ValueError(
                    "When `padding` is a list, each element of `padding` must be a "
                    f"list/tuple of size 2. Received: padding={padding} with element at "
                    f"index {i} of type {type(pair)}"
                )
            if len(pair) != 2:
                raise ValueError(
                    "When `padding` is a list, each element of `padding` must be a "
                    f"list/tuple of size 2. Received: padding={padding} with element at "
                    f"index {i} of size {len(pair)}"
                )
            explicit.extend(int(p) for p in pair)
        if len(padding) != expected_length:
            raise ValueError(
                f"When padding is a list, it must be of size {expected_length}. "
                f"Received: padding={padding} of size {len(padding)}"
            )
        padding = "EXPLICIT"
    return padding, explicit


# ---------------------------------------------------------------------------
# Activations


def relu(features: Any, name: str | None = None) -> Any:
    """max(features, 0)."""
    return _op("Relu")(_t(features), name=name)


def relu6(features: Any, name: str | None = None) -> Any:
    """min(max(features, 0), 6)."""
    return _op("Relu6")(_t(features), name=name)


def leaky_relu(features: Any, alpha: Any = 0.2, name: str | None = None) -> Any:
    """features where positive, alpha * features elsewhere; integer input
    is cast to float32 first."""
    features = _t(features)
    if _dtype(features).is_integer:
        features = _cast(features, _dtypes.float32)
    if isinstance(alpha, np.ndarray):
        alpha = alpha.item()
    return _op("LeakyRelu")(features, alpha=float(alpha), name=name)


def elu(features: Any, name: str | None = None) -> Any:
    """Exponential linear unit: exp(x) - 1 for x < 0, x elsewhere."""
    return _op("Elu")(_t(features), name=name)


def selu(features: Any, name: str | None = None) -> Any:
    """Scaled exponential linear unit."""
    return _op("Selu")(_t(features), name=name)


def softsign(features: Any, name: str | None = None) -> Any:
    """features / (abs(features) + 1)."""
    return _op("Softsign")(_t(features), name=name)


def softplus(features: Any, name: str | None = None) -> Any:
    """log(exp(features) + 1)."""
    return _op("Softplus")(_t(features), name=name)


def gelu(features: Any, approximate: bool = False, name: str | None = None) -> Any:
    """Gaussian error linear unit, exact (erfc form) or with TF's tanh
    approximation."""
    features = _t(features)
    dtype = _dtype(features)
    if not dtype.is_floating:
        raise ValueError(
            f"`features.dtype` must be a floating point tensor.Received:features.dtype={dtype}"
        )
    if approximate:
        coeff = _const(0.044715, dtype)
        cube = _op("Pow")(features, _const(3, dtype))
        inner = 0.7978845608028654 * (features + coeff * cube)
        return 0.5 * features * (1.0 + _op("Tanh")(inner))
    scaled = -features * _const(0.7071067811865476, dtype)
    return 0.5 * features * _op("Erfc")(scaled)


def silu(features: Any, beta: Any = 1.0) -> Any:
    """features * sigmoid(beta * features) (also called swish)."""
    features = _t(features)
    beta = _cast(_t(beta), _dtype(features))
    return features * _op("Sigmoid")(beta * features)


swish = silu


def crelu(features: Any, axis: int = -1, name: str | None = None) -> Any:
    """relu of ``features`` concatenated with ``-features`` along ``axis``."""
    features = _t(features)
    return _op("Relu")(_concat([features, -features], axis), name=name)


def _wrap_2d(
    inputs: Any, compute: Callable[..., Any], dim: Any = -1, name: str | None = None
) -> Any:
    """Applies an op working on the last axis to axis ``dim`` of ``inputs``
    (moving that axis last and back, as TensorFlow)."""
    from tfe_py import errors

    inputs = _t(inputs)
    rank = _rank(inputs)
    if _is_tensor(dim):
        dim = int(dim)
    if dim == -1 or (rank is not None and dim == rank - 1):
        return compute(inputs, name=name)
    if rank is None:
        raise ValueError("softmax over an axis other than the last needs a known rank")
    if not -rank <= dim < rank:
        raise errors.InvalidArgumentError(
            f"`dim` must be in the range [{-rank}, {rank}) where {rank} is the number of "
            f"dimensions in the input. Received: dim={dim}"
        )
    axis = dim % rank
    perm = list(range(rank))
    perm[axis], perm[rank - 1] = perm[rank - 1], perm[axis]
    outputs = compute(_transpose(inputs, perm))
    if isinstance(outputs, tuple):
        return tuple(_transpose(o, perm) for o in outputs)
    return _transpose(outputs, perm)


def softmax(logits: Any, axis: Any = None, name: str | None = None) -> Any:
    """exp(logits) / sum(exp(logits), axis), along ``axis`` (last by default)."""
    return _wrap_2d(logits, _op("Softmax"), -1 if axis is None else axis, name)


def log_softmax(logits: Any, axis: Any = None, name: str | None = None) -> Any:
    """logits - log(sum(exp(logits), axis)), along ``axis`` (last by default)."""
    return _wrap_2d(logits, _op("LogSoftmax"), -1 if axis is None else axis, name)


# ---------------------------------------------------------------------------
# Convolution


def _conv_channel_index(data_format: str | None, num_batch_dims: int, n: int) -> int:
    if data_format is None or data_format in _CHANNELS_LAST:
        return num_batch_dims + n
    return num_batch_dims


def _squeeze_batch_dims(inp: Any, op: Callable[[Any], Any], inner_rank: int) -> Any:
    """Runs ``op`` on ``inp`` with all leading batch dimensions folded into one."""
    dims = _dims(inp)
    assert dims is not None
    inner = dims[-inner_rank:]
    batch = dims[:-inner_rank]
    if None in inner or None in batch:
        shape = _op("Shape")(inp)
        flat = _reshape(inp, _concat([_const([-1], _dtypes.int32), shape[-inner_rank:]], 0))
        out = op(flat)
        out_shape = _op("Shape")(out)[-inner_rank:]
        return _reshape(out, _concat([shape[:-inner_rank], out_shape], 0))
    out = op(_reshape(inp, [-1, *inner]))
    out_inner = _dims(out)[-inner_rank:]  # type: ignore[index]
    return _reshape(out, batch + out_inner)


def conv2d(
    input: Any,
    filters: Any,
    strides: Any,
    padding: Any,
    data_format: str = "NHWC",
    dilations: Any = None,
    name: str | None = None,
) -> Any:
    """2-D convolution (Conv2D); inputs of rank > 4 have their extra leading
    dimensions treated as batch dimensions."""
    input = _t(input)
    filters = _t(filters)
    padding, explicit = _convert_padding(padding)
    if data_format is None:
        data_format = "NHWC"
    channel_index = 1 if data_format.startswith("NC") else 3
    strides = _ints(_get_sequence(strides, 2, channel_index, "strides"))
    dilations = _ints(_get_sequence(dilations, 2, channel_index, "dilations"))

    def run(x: Any) -> Any:
        return _op("Conv2D")(
            x,
            filters,
            strides=strides,
            padding=padding,
            explicit_paddings=explicit,
            data_format=data_format,
            dilations=dilations,
            name=name,
        )

    rank = _rank(input)
    if rank is None or rank <= 4:
        return run(input)
    return _squeeze_batch_dims(input, run, 3)


def conv1d(
    input: Any,
    filters: Any,
    stride: Any,
    padding: Any,
    data_format: str = "NWC",
    dilations: Any = None,
    name: str | None = None,
) -> Any:
    """1-D convolution, run as a 2-D convolution over a height of 1."""
    if data_format is None or data_format in ("NHWC", "NWC"):
        data_format = "NHWC"
        spatial_start_dim = -3
        channel_index = 2
    elif data_format in ("NCHW", "NCW"):
        data_format = "NCHW"
        spatial_start_dim = -2
        channel_index = 1
    else:
        raise ValueError(
            f"`data_format` must be 'NWC' or 'NCW'. Received: data_format={data_format}"
        )
    strides = [1, *_ints(_get_sequence(stride, 1, channel_index, "stride"))]
    dil = [1, *_ints(_get_sequence(dilations, 1, channel_index, "dilations"))]
    padding, explicit = _convert_padding(padding, 3)
    if padding == "EXPLICIT":
        explicit = [0, 0, *explicit]
    value = _expand(_t(input), spatial_start_dim)
    filt = _expand(_t(filters), 0)

    def run(x: Any) -> Any:
        return _op("Conv2D")(
            x,
            filt,
            strides=strides,
            padding=padding,
            explicit_paddings=explicit,
            data_format=data_format,
            dilations=dil,
        )

    rank = _rank(value)
    result = run(value) if rank is None or rank <= 4 else _squeeze_batch_dims(value, run, 3)
    return _squeeze(result, [spatial_start_dim])


def conv3d(
    input: Any,
    filters: Any,
    strides: Any,
    padding: Any,
    data_format: str = "NDHWC",
    dilations: Any = None,
    name: str | None = None,
) -> Any:
    """3-D convolution (Conv3D); ``strides`` and ``dilations`` have 5 entries."""
    input = _t(input)
    filters = _t(filters)
    if dilations is None:
        dilations = [1, 1, 1, 1, 1]

    def run(x: Any) -> Any:
        return _op("Conv3D")(
            x,
            filters,
            strides=_ints(strides),
            padding=padding,
            data_format=data_format,
            dilations=_ints(dilations),
            name=name,
        )

    rank = _rank(input)
    if rank is None or rank <= 5:
        return run(input)
    return _squeeze_batch_dims(input, run, 4)


def convolution(
    input: Any,
    filters: Any,
    strides: Any = None,
    padding: str = "VALID",
    data_format: str | None = None,
    dilations: Any = None,
    name: str | None = None,
) -> Any:
    """N-D convolution (N = 1, 2 or 3, from the filter's rank). Dilated
    convolutions run as TensorFlow runs them on CPU: space_to_batch, an
    undilated convolution, batch_to_space."""
    input = _t(input)
    filters = _t(filters)
    filters_rank = _rank(filters)
    inputs_rank = _rank(input)
    if filters_rank:
        n = filters_rank - 2
    elif inputs_rank:
        n = inputs_rank - 2
    else:
        raise ValueError(
            "When `num_spatial_dims` is not set, one of `input.shape.rank` or "
            "`filters.shape.rank` must be known."
        )
    num_batch_dims = inputs_rank - n - 1 if inputs_rank else 1
    if n not in (1, 2, 3):
        raise ValueError(f"`num_spatial_dims` must be 1, 2, or 3. Received: num_spatial_dims={n}.")
    channel_index = _conv_channel_index(data_format, num_batch_dims, n)
    dilated = dilations is not None
    dil = _get_sequence(dilations, n, channel_index, "dilations")
    dilated = dilated and any(int(d) != 1 for d in dil)
    strides = _get_sequence(strides, n, channel_index, "strides")
    if not dilated:
        if n == 2:
            return conv2d(input, filters, strides, padding, data_format or "NHWC", dil, name)
        if n == 3:
            return conv3d(input, filters, strides, padding, data_format or "NDHWC", dil, name)
        fmt = "NWC" if data_format is None or data_format in _CHANNELS_LAST else "NCW"
        return conv1d(input, filters, strides, padding, fmt, dil, name)
    if channel_index == 1:
        sp_strides, sp_dil = strides[2:], dil[2:]
    else:
        sp_strides, sp_dil = strides[1:-1], dil[1:-1]
    _check_strides_and_dilation(n, sp_strides, sp_dil)
    filter_shape = _dims(filters)
    fmt2 = data_format

    def op(converted: Any, _n: int, pad: Any) -> Any:
        if n == 2:
            return conv2d(converted, filters, strides, pad, fmt2 or "NHWC", None, name)
        if n == 3:
            return conv3d(converted, filters, strides, pad, fmt2 or "NDHWC", None, name)
        fmt = "NWC" if fmt2 is None or fmt2 in _CHANNELS_LAST else "NCW"
        return conv1d(converted, filters, strides, pad, fmt, None, name)

    spatial_dims = None
    if num_batch_dims != 1:
        start = num_batch_dims + (
            1 if data_format is not None and data_format.startswith("NC") else 0
        )
        spatial_dims = list(range(start, start + n))
    return with_space_to_batch(
        input,
        sp_dil,
        padding,
        op,
        filter_shape=None if filter_shape is None else filter_shape[:n],
        spatial_dims=spatial_dims,
        data_format=data_format,
    )


def _check_strides_and_dilation(
    n: int, strides: Sequence[Any], dilation_rate: Sequence[Any]
) -> None:
    if len(dilation_rate) != n:
        raise ValueError(
            f"`len(dilation_rate)` should be {n}. Received: dilation_rate={list(dilation_rate)} "
            f"of length {len(dilation_rate)}"
        )
    rate = np.array(dilation_rate, dtype=np.int32)
    if np.any(rate < 1):
        raise ValueError(
            f"all values of `dilation_rate` must be positive. Received: dilation_rate={rate}"
        )
    st = np.array(strides, dtype=np.int32)
    if np.any(st < 1):
        raise ValueError(f"all values of `strides` must be positive. Received: strides={st}")
    if np.any(st > 1) and np.any(rate > 1):
        raise ValueError(
            "`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
            f"Received: strides={st} and dilation_rate={rate}"
        )


def with_space_to_batch(
    input: Any,
    dilation_rate: Any,
    padding: Any,
    op: Callable[..., Any],
    filter_shape: Any = None,
    spatial_dims: Any = None,
    data_format: str | None = None,
) -> Any:
    """Runs ``op(converted_input, num_spatial_dims, padding)`` on the
    space_to_batch form of ``input`` for an atrous (dilated) operation, and
    maps the result back with batch_to_space (TF's algorithm)."""
    input = _t(input)
    rate = np.asarray(
        dilation_rate.numpy() if _is_tensor(dilation_rate) else dilation_rate, dtype=np.int32
    )
    if rate.ndim != 1:
        raise ValueError(
            f"`dilation_rate.shape.rank` must be 1. Received: dilation_rate={dilation_rate} "
            f"of rank {rate.ndim}"
        )
    n = int(rate.shape[0])
    channels_first = data_format is not None and data_format.startswith("NC")
    start = 2 if channels_first else 1
    if spatial_dims is None:
        spatial_dims = list(range(start, start + n))
    orig = [int(d) for d in spatial_dims]
    spatial = sorted(set(orig))
    if spatial != orig or any(d < 1 for d in spatial):
        raise ValueError(
            "`spatial_dims` must be a monotonically increasing sequence of positive "
            f"integers. Received: spatial_dims={orig}"
        )
    expected_rank = spatial[-1] if channels_first else spatial[-1] + 1
    dims = _dims(input)
    if dims is not None and len(dims) < expected_rank:
        raise ValueError(
            f"`input.shape.rank` must be at least {expected_rank}. Received: "
            f"input.shape={input.shape} with rank {len(dims)}"
        )
    if np.any(rate < 1):
        raise ValueError(f"`dilation_rate` must be positive. Received: dilation_rate={rate}")
    if np.all(rate == 1):
        return op(input, n, padding)
    padding, explicit = _convert_padding(padding)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError(
                "`filter_shape` must be specified for `padding='SAME'`. "
                f"Received: filter_shape={filter_shape} and padding={padding}"
            )
        fs = np.asarray(
            filter_shape.numpy() if _is_tensor(filter_shape) else filter_shape, dtype=np.int64
        )[:n]
        extra = (fs - 1) * rate
        base = np.stack([extra // 2, extra - extra // 2], axis=1)
    elif padding == "VALID":
        base = np.zeros([n, 2], np.int64)
    elif padding == "EXPLICIT":
        all_pads = np.array(explicit).reshape([n + 2, 2])
        base = all_pads[2:] if channels_first else all_pads[1:-1]
    else:
        raise ValueError(f"`padding` must be one of 'SAME' or 'VALID'. Received: padding={padding}")
    if dims is None or any(dims[d] is None for d in spatial):
        raise ValueError("with_space_to_batch needs the spatial dimensions of `input` to be known")
    in_spatial = np.array([dims[d] for d in spatial], dtype=np.int64)
    full = in_spatial + base[:, 0] + base[:, 1]
    pad_extra = (rate - full % rate) % rate
    paddings = np.stack([base[:, 0], base[:, 1] + pad_extra], axis=1)
    crops = np.stack([np.zeros_like(pad_extra), pad_extra], axis=1)
    # Dimensions between the spatial ones get block 1 and no padding.
    block = _adjust(rate, 1, spatial)
    paddings = _adjust(paddings, 0, spatial)
    crops = _adjust(crops, 0, spatial)
    converted = _op("SpaceToBatchND")(
        input, _const(block.tolist(), _dtypes.int32), _const(paddings.tolist(), _dtypes.int32)
    )
    result = op(converted, n, "VALID")
    return _op("BatchToSpaceND")(
        result, _const(block.tolist(), _dtypes.int32), _const(crops.tolist(), _dtypes.int32)
    )


def _adjust(orig: np.ndarray, fill: int, spatial_dims: Sequence[int]) -> np.ndarray:
    """Spreads the rows of ``orig`` (one per spatial dimension) over the
    dimensions 1..spatial_dims[-1], filling the gaps with ``fill``."""
    rows: list[Any] = []
    prev = 0
    for i, d in enumerate(spatial_dims):
        for _ in range(d - 1 - prev):
            rows.append(np.full(orig.shape[1:], fill, dtype=orig.dtype))
        rows.append(orig[i])
        prev = d
    return np.array(rows, dtype=orig.dtype)


def atrous_conv2d(
    value: Any, filters: Any, rate: Any, padding: Any, name: str | None = None
) -> Any:
    """2-D convolution with holes: ``convolution`` with ``dilations=rate``."""
    return convolution(
        value, filters, padding=padding, dilations=np.broadcast_to(rate, (2,)).tolist(), name=name
    )


def conv2d_transpose(
    input: Any,
    filters: Any,
    output_shape: Any,
    strides: Any,
    padding: Any = "SAME",
    data_format: str = "NHWC",
    dilations: Any = None,
    name: str | None = None,
) -> Any:
    """Transpose of conv2d (the gradient of conv2d with respect to its input)."""
    if data_format is None:
        data_format = "NHWC"
    channel_index = 1 if data_format.startswith("NC") else 3
    strides = _ints(_get_sequence(strides, 2, channel_index, "strides"))
    dil = _ints(_get_sequence(dilations, 2, channel_index, "dilations"))
    padding, explicit = _convert_padding(padding)
    return _op("Conv2DBackpropInput")(
        _sizes(output_shape),
        _t(filters),
        _t(input),
        strides=strides,
        padding=padding,
        explicit_paddings=explicit,
        data_format=data_format,
        dilations=dil,
        name=name,
    )


def _sizes(shape: Any) -> Any:
    if _is_tensor(shape):
        return shape
    return _const([int(s) for s in shape], _dtypes.int32)


def conv1d_transpose(
    input: Any,
    filters: Any,
    output_shape: Any,
    strides: Any,
    padding: str = "SAME",
    data_format: str = "NWC",
    dilations: Any = None,
    name: str | None = None,
) -> Any:
    """Transpose of conv1d, run as a 2-D transposed convolution."""
    if data_format is None or data_format == "NWC":
        data_format = "NHWC"
        spatial_start_dim = 1
        channel_index = 2
    elif data_format == "NCW":
        data_format = "NCHW"
        spatial_start_dim = 2
        channel_index = 1
    else:
        raise ValueError(
            f"`data_format` must be 'NWC' or 'NCW'. Received: data_format={data_format}"
        )
    strides = [1, *_ints(_get_sequence(strides, 1, channel_index, "stride"))]
    dil = [1, *_ints(_get_sequence(dilations, 1, channel_index, "dilations"))]
    value = _expand(_t(input), spatial_start_dim)
    filt = _expand(_t(filters), 0)
    if _is_tensor(output_shape):
        sizes = _concat(
            [
                output_shape[:spatial_start_dim],
                _const([1], output_shape.dtype),
                output_shape[spatial_start_dim:],
            ],
            0,
        )
    else:
        shape = [int(s) for s in output_shape]
        sizes = _const([*shape[:spatial_start_dim], 1, *shape[spatial_start_dim:]], _dtypes.int32)
    result = _op("Conv2DBackpropInput")(
        sizes,
        filt,
        value,
        strides=strides,
        padding=padding,
        data_format=data_format,
        dilations=dil,
        name=name,
    )
    return _squeeze(result, [spatial_start_dim])


def conv3d_transpose(
    input: Any,
    filters: Any,
    output_shape: Any,
    strides: Any,
    padding: str = "SAME",
    data_format: str = "NDHWC",
    dilations: Any = None,
    name: str | None = None,
) -> Any:
    """Transpose of conv3d (Conv3DBackpropInputV2)."""
    if data_format is None:
        data_format = "NDHWC"
    channel_index = 1 if data_format.startswith("NC") else 4
    strides = _ints(_get_sequence(strides, 3, channel_index, "strides"))
    dil = _ints(_get_sequence(dilations, 3, channel_index, "dilations"))
    return _op("Conv3DBackpropInputV2")(
        _sizes(output_shape),
        _t(filters),
        _t(input),
        strides=strides,
        padding=padding,
        data_format=data_format,
        dilations=dil,
        name=name,
    )


def conv_transpose(
    input: Any,
    filters: Any,
    output_shape: Any,
    strides: Any,
    padding: str = "SAME",
    data_format: str | None = None,
    dilations: Any = None,
    name: str | None = None,
) -> Any:
    """conv1d_transpose, conv2d_transpose or conv3d_transpose, picked from
    the length of ``output_shape``."""
    if _is_tensor(output_shape):
        n = int(_dims(output_shape)[0]) - 2  # type: ignore[index]
    elif hasattr(output_shape, "__len__"):
        n = len(output_shape) - 2
    else:
        raise ValueError(
            "`output_shape` must be a tensor or sized collection. "
            f"Received: output_shape={output_shape}"
        )
    if not 1 <= n <= 3:
        raise ValueError(
            f"`output_shape` must be of length 3, 4 or 5. Received: output_shape={output_shape} "
            f"of length {n + 2}."
        )
    fn = (conv1d_transpose, conv2d_transpose, conv3d_transpose)[n - 1]
    return fn(
        input,
        filters,
        output_shape,
        strides,
        padding=padding,
        data_format=data_format,
        dilations=dilations,
        name=name,
    )  # type: ignore[arg-type]


def atrous_conv2d_transpose(
    value: Any, filters: Any, output_shape: Any, rate: int, padding: str, name: str | None = None
) -> Any:
    """Transpose of atrous_conv2d (TF's space_to_batch formulation)."""
    value = _t(value)
    filters = _t(filters)
    vdims = _dims(value)
    fdims = _dims(filters)
    if vdims and fdims and vdims[3] is not None and fdims[3] is not None and vdims[3] != fdims[3]:
        raise ValueError(
            "`value` channel count must be compatible with `filters` input channel count. "
            f"Received: value.shape={value.shape} with channel count {vdims[3]} and "
            f"filters.shape={filters.shape} with input channel count {fdims[3]}."
        )
    if rate < 1:
        raise ValueError(f"`rate` cannot be less than one. Received: rate={rate}")
    if rate == 1:
        return conv2d_transpose(
            value, filters, output_shape, strides=[1, 1, 1, 1], padding=padding, data_format="NHWC"
        )
    out = [int(s) for s in (output_shape.numpy() if _is_tensor(output_shape) else output_shape)]
    if len(out) != 4:
        raise ValueError(
            f"`output_shape` must have shape (4,). Received: output_shape=({len(out)},)"
        )
    if fdims and fdims[2] is not None and fdims[2] != out[3]:
        raise ValueError(
            "`output_shape` channel count must be compatible with `filters` output channel "
            f"count. Received: output_shape={out} with channel count {out[3]} and "
            f"filters.shape={filters.shape} with output channel count {fdims[3]}."
        )
    if padding == "SAME":
        assert fdims is not None
        fh, fw = int(fdims[0]), int(fdims[1])  # type: ignore[arg-type]
        ph = fh + (fh - 1) * (rate - 1) - 1
        pw = fw + (fw - 1) * (rate - 1) - 1
        pad_top, pad_left = ph // 2, pw // 2
        pad_bottom, pad_right = ph - pad_top, pw - pad_left
    elif padding == "VALID":
        pad_top = pad_bottom = pad_left = pad_right = 0
    else:
        raise ValueError(f"`padding` must be either 'VALID' or 'SAME'. Received: padding={padding}")
    in_h = out[1] + pad_top + pad_bottom
    in_w = out[2] + pad_left + pad_right
    extra_b = (rate - in_h % rate) % rate
    extra_r = (rate - in_w % rate) % rate
    value = _op("SpaceToBatch")(
        value, _const([[0, extra_b], [0, extra_r]], _dtypes.int32), block_size=rate
    )
    sizes = [rate * rate * out[0], (in_h + extra_b) // rate, (in_w + extra_r) // rate, out[3]]
    value = _op("Conv2DBackpropInput")(
        _const(sizes, _dtypes.int32),
        filters,
        value,
        strides=[1, 1, 1, 1],
        padding="VALID",
        data_format="NHWC",
    )
    crops = [[pad_top, pad_bottom + extra_b], [pad_left, pad_right + extra_r]]
    return _op("BatchToSpace")(value, _const(crops, _dtypes.int32), block_size=rate, name=name)


def depthwise_conv2d(
    input: Any,
    filter: Any,
    strides: Any,
    padding: Any,
    data_format: str | None = None,
    dilations: Any = None,
    name: str | None = None,
) -> Any:
    """Depthwise 2-D convolution: each input channel convolved with its own
    ``channel_multiplier`` filters (DepthwiseConv2dNative; dilations via
    space_to_batch as in TF)."""
    input = _t(input)
    filter = _t(filter)
    rate = [1, 1] if dilations is None else list(dilations)
    pad, explicit = _convert_padding(padding)

    def op(converted: Any, _n: int, conv_padding: Any) -> Any:
        p, e = _convert_padding(conv_padding)
        return _op("DepthwiseConv2dNative")(
            converted,
            filter,
            strides=_ints(strides),
            padding=p,
            explicit_paddings=e,
            data_format=data_format or "NHWC",
            name=name,
        )

    del pad, explicit
    return with_space_to_batch(
        input, rate, padding, op, filter_shape=_dims(filter), data_format=data_format
    )


def depthwise_conv2d_backprop_input(
    input_sizes: Any,
    filter: Any,
    out_backprop: Any,
    strides: Any,
    padding: Any,
    data_format: str = "NHWC",
    dilations: Any = (1, 1, 1, 1),
    name: str | None = None,
) -> Any:
    """Gradient of depthwise_conv2d with respect to its input."""
    padding, explicit = _convert_padding(padding)
    return _op("DepthwiseConv2dNativeBackpropInput")(
        _sizes(input_sizes),
        _t(filter),
        _t(out_backprop),
        strides=_ints(strides),
        padding=padding,
        explicit_paddings=explicit,
        data_format=data_format,
        dilations=_ints(dilations),
        name=name,
    )


def depthwise_conv2d_backprop_filter(
    input: Any,
    filter_sizes: Any,
    out_backprop: Any,
    strides: Any,
    padding: Any,
    data_format: str = "NHWC",
    dilations: Any = (1, 1, 1, 1),
    name: str | None = None,
) -> Any:
    """Gradient of depthwise_conv2d with respect to its filter."""
    padding, explicit = _convert_padding(padding)
    return _op("DepthwiseConv2dNativeBackpropFilter")(
        _t(input),
        _sizes(filter_sizes),
        _t(out_backprop),
        strides=_ints(strides),
        padding=padding,
        explicit_paddings=explicit,
        data_format=data_format,
        dilations=_ints(dilations),
        name=name,
    )


def separable_conv2d(
    input: Any,
    depthwise_filter: Any,
    pointwise_filter: Any,
    strides: Any,
    padding: Any,
    data_format: str | None = None,
    dilations: Any = None,
    name: str | None = None,
) -> Any:
    """A depthwise convolution followed by a 1x1 (pointwise) convolution."""
    input = _t(input)
    depthwise_filter = _t(depthwise_filter)
    pointwise_filter = _t(pointwise_filter)
    pdims = _dims(pointwise_filter)
    if pdims is not None:
        if len(pdims) != 4:
            raise ValueError(f"Shape {pointwise_filter.shape} must have rank 4")
        for i in (0, 1):
            if pdims[i] is not None and pdims[i] != 1:
                raise ValueError(f"Dimensions {pdims[i]} and 1 are not compatible")
    rate = [1, 1] if dilations is None else list(dilations)

    def op(converted: Any, _n: int, conv_padding: Any) -> Any:
        return _op("DepthwiseConv2dNative")(
            converted,
            depthwise_filter,
            strides=_ints(strides),
            padding=conv_padding,
            data_format=data_format or "NHWC",
        )

    depthwise = with_space_to_batch(
        input, rate, padding, op, filter_shape=_dims(depthwise_filter), data_format=data_format
    )
    return _op("Conv2D")(
        depthwise,
        pointwise_filter,
        strides=[1, 1, 1, 1],
        padding="VALID",
        data_format=data_format or "NHWC",
        name=name,
    )


def dilation2d(
    input: Any,
    filters: Any,
    strides: Any,
    padding: str,
    data_format: str,
    dilations: Any,
    name: str | None = None,
) -> Any:
    """Grayscale morphological dilation (Dilation2D); NHWC only, as TF."""
    if data_format != "NHWC":
        raise ValueError(
            "`data_format` values other  than 'NHWC' are not supported. "
            f"Received: data_format={data_format}"
        )
    return _op("Dilation2D")(
        _t(input),
        _t(filters),
        strides=_ints(strides),
        rates=_ints(dilations),
        padding=padding,
        name=name,
    )


def erosion2d(
    value: Any,
    filters: Any,
    strides: Any,
    padding: str,
    data_format: str,
    dilations: Any,
    name: str | None = None,
) -> Any:
    """Grayscale morphological erosion: -dilation2d(-value, reversed filters)."""
    if data_format != "NHWC":
        raise ValueError(
            "`data_format` values other  than 'NHWC' are not supported. "
            f"Received: data_format={data_format}"
        )
    value = _t(value)
    filters = _t(filters)
    flipped = _op("ReverseV2")(filters, _const([0, 1], _dtypes.int32))
    dil = _op("Dilation2D")(
        -value, flipped, strides=_ints(strides), rates=_ints(dilations), padding=padding
    )
    return _op("Neg")(dil, name=name)


# ---------------------------------------------------------------------------
# Pooling


def _pool_rank(input: Any, data_format: str | None) -> int:
    rank = _rank(input)
    if rank is not None:
        n = rank - 2
    elif data_format is not None:
        n = len(data_format) - 2
    else:
        raise ValueError(
            "`input` must have a static shape or `data_format` must be given. "
            f"Received: input.shape={input.shape} and data_format={data_format}"
        )
    if not 1 <= n <= 3:
        raise ValueError(
            f"`input.shape.rank` must be 3, 4 or 5. Received: input.shape={input.shape} "
            f"of rank {n + 2}."
        )
    return n


def avg_pool(
    input: Any,
    ksize: Any,
    strides: Any,
    padding: Any,
    data_format: str | None = None,
    name: str | None = None,
) -> Any:
    """Average pooling over 1, 2 or 3 spatial dimensions (from input's rank)."""
    input = _t(input)
    n = _pool_rank(input, data_format)
    channel_index = n + 1 if data_format is None or not data_format.startswith("NC") else 1
    ksize = _get_sequence(ksize, n, channel_index, "ksize")
    strides = _get_sequence(strides, n, channel_index, "strides")
    if n == 1:
        return avg_pool1d(input, ksize, strides, padding, data_format or "NWC", name)
    if n == 2:
        return _op("AvgPool")(
            input,
            ksize=_ints(ksize),
            strides=_ints(strides),
            padding=padding,
            data_format=data_format or "NHWC",
            name=name,
        )
    return _op("AvgPool3D")(
        input,
        ksize=_ints(ksize),
        strides=_ints(strides),
        padding=padding,
        data_format=data_format or "NDHWC",
        name=name,
    )


def avg_pool1d(
    input: Any,
    ksize: Any,
    strides: Any,
    padding: Any,
    data_format: str = "NWC",
    name: str | None = None,
) -> Any:
    """1-D average pooling, run as AvgPool over a height of 1."""
    if data_format is None:
        data_format = "NWC"
    channel_index = 1 if data_format.startswith("NC") else 2
    ks = [1, *_ints(_get_sequence(ksize, 1, channel_index, "ksize"))]
    st = [1, *_ints(_get_sequence(strides, 1, channel_index, "strides"))]
    expanding = 1 if data_format == "NWC" else 2
    fmt = "NHWC" if data_format == "NWC" else "NCHW"
    x = _expand(_t(input), expanding)
    result = _op("AvgPool")(x, ksize=ks, strides=st, padding=padding, data_format=fmt, name=name)
    return _squeeze(result, [expanding])


def avg_pool2d(
    input: Any,
    ksize: Any,
    strides: Any,
    padding: Any,
    data_format: str = "NHWC",
    name: str | None = None,
) -> Any:
    """2-D average pooling (AvgPool)."""
    if data_format is None:
        data_format = "NHWC"
    channel_index = 1 if data_format.startswith("NC") else 3
    ks = _ints(_get_sequence(ksize, 2, channel_index, "ksize"))
    st = _ints(_get_sequence(strides, 2, channel_index, "strides"))
    return _op("AvgPool")(
        _t(input), ksize=ks, strides=st, padding=padding, data_format=data_format, name=name
    )


def avg_pool3d(
    input: Any,
    ksize: Any,
    strides: Any,
    padding: Any,
    data_format: str = "NDHWC",
    name: str | None = None,
) -> Any:
    """3-D average pooling (AvgPool3D)."""
    if data_format is None:
        data_format = "NDHWC"
    channel_index = 1 if data_format.startswith("NC") else 3
    ks = _ints(_get_sequence(ksize, 3, channel_index, "ksize"))
    st = _ints(_get_sequence(strides, 3, channel_index, "strides"))
    return _op("AvgPool3D")(
        _t(input), ksize=ks, strides=st, padding=padding, data_format=data_format, name=name
    )


def max_pool(
    input: Any,
    ksize: Any,
    strides: Any,
    padding: Any,
    data_format: str | None = None,
    name: str | None = None,
) -> Any:
    """Max pooling over 1, 2 or 3 spatial dimensions (from input's rank)."""
    input = _t(input)
    n = _pool_rank(input, data_format)
    channel_index = n + 1 if data_format is None or not data_format.startswith("NC") else 1
    if isinstance(padding, (list, tuple)) and data_format == "NCHW_VECT_C":
        raise ValueError(
            "`data_format='NCHW_VECT_C'` is not supported with explicit padding. "
            f"Received: padding={padding}"
        )
    ksize = _get_sequence(ksize, n, channel_index, "ksize")
    strides = _get_sequence(strides, n, channel_index, "strides")
    if isinstance(padding, (list, tuple)) and n == 3:
        raise ValueError(
            "Explicit padding is not supported with an input tensor of rank 5. "
            f"Received: padding={padding}"
        )
    if n == 1:
        return max_pool1d(input, ksize, strides, padding, data_format or "NWC", name)
    if n == 2:
        return max_pool2d(input, ksize, strides, padding, data_format or "NHWC", name)
    return _op("MaxPool3D")(
        input,
        ksize=_ints(ksize),
        strides=_ints(strides),
        padding=padding,
        data_format=data_format or "NDHWC",
        name=name,
    )


def max_pool1d(
    input: Any,
    ksize: Any,
    strides: Any,
    padding: Any,
    data_format: str = "NWC",
    name: str | None = None,
) -> Any:
    """1-D max pooling, run as MaxPool over a height of 1."""
    if isinstance(padding, (list, tuple)) and data_format == "NCHW_VECT_C":
        raise ValueError(
            "`data_format='NCHW_VECT_C'` is not supported with explicit padding. "
            f"Received: padding={padding}"
        )
    if data_format is None:
        data_format = "NWC"
    channel_index = 1 if data_format.startswith("NC") else 2
    ks = [1, *_ints(_get_sequence(ksize, 1, channel_index, "ksize"))]
    st = [1, *_ints(_get_sequence(strides, 1, channel_index, "strides"))]
    padding, explicit = _convert_padding(padding, 3)
    if padding == "EXPLICIT":
        explicit = [0, 0, *explicit]
    expanding = 1 if data_format == "NWC" else 2
    fmt = "NHWC" if data_format == "NWC" else "NCHW"
    x = _expand(_t(input), expanding)
    result = _op("MaxPool")(
        x,
        ksize=ks,
        strides=st,
        padding=padding,
        explicit_paddings=explicit,
        data_format=fmt,
        name=name,
    )
    return _squeeze(result, [expanding])


def max_pool2d(
    input: Any,
    ksize: Any,
    strides: Any,
    padding: Any,
    data_format: str = "NHWC",
    name: str | None = None,
) -> Any:
    """2-D max pooling (MaxPool), with SAME, VALID or explicit padding."""
    if data_format is None:
        data_format = "NHWC"
    channel_index = 1 if data_format.startswith("NC") else 3
    ks = _ints(_get_sequence(ksize, 2, channel_index, "ksize"))
    st = _ints(_get_sequence(strides, 2, channel_index, "strides"))
    if isinstance(padding, (list, tuple)) and data_format == "NCHW_VECT_C":
        raise ValueError(
            "`data_format='NCHW_VECT_C'` is not supported with explicit padding. "
            f"Received: padding={padding}"
        )
    padding, explicit = _convert_padding(padding)
    return _op("MaxPool")(
        _t(input),
        ksize=ks,
        strides=st,
        padding=padding,
        explicit_paddings=explicit,
        data_format=data_format,
        name=name,
    )


def max_pool3d(
    input: Any,
    ksize: Any,
    strides: Any,
    padding: Any,
    data_format: str = "NDHWC",
    name: str | None = None,
) -> Any:
    """3-D max pooling (MaxPool3D)."""
    if data_format is None:
        data_format = "NDHWC"
    channel_index = 1 if data_format.startswith("NC") else 4
    ks = _ints(_get_sequence(ksize, 3, channel_index, "ksize"))
    st = _ints(_get_sequence(strides, 3, channel_index, "strides"))
    return _op("MaxPool3D")(
        _t(input), ksize=ks, strides=st, padding=padding, data_format=data_format, name=name
    )


def max_pool_with_argmax(
    input: Any,
    ksize: Any,
    strides: Any,
    padding: str,
    data_format: str = "NHWC",
    output_dtype: Any = _dtypes.int64,
    include_batch_in_index: bool = False,
    name: str | None = None,
) -> Any:
    """2-D max pooling that also returns the flat index of each maximum."""
    if data_format != "NHWC":
        raise ValueError(
            "`data_format` values other  than 'NHWC' are not supported. "
            f"Received: data_format={data_format}"
        )
    ks = _ints(_get_sequence(ksize, 2, 3, "ksize"))
    st = _ints(_get_sequence(strides, 2, 3, "strides"))
    return _op("MaxPoolWithArgmax")(
        _t(input),
        ksize=ks,
        strides=st,
        padding=padding,
        Targmax=_dtypes.as_dtype(output_dtype),
        include_batch_in_index=include_batch_in_index,
        name=name,
    )


def pool(
    input: Any,
    window_shape: Any,
    pooling_type: str,
    strides: Any = None,
    padding: str = "VALID",
    data_format: str | None = None,
    dilations: Any = None,
    name: str | None = None,
) -> Any:
    """N-D max or average pooling ("MAX"/"AVG"), with optional dilations."""
    input = _t(input)
    window_shape = [int(w) for w in window_shape]
    n = len(window_shape)
    if n < 1 or n > 3:
        raise ValueError(
            f"`len(window_shape)` must be 1, 2, or 3. Received: window_shape={window_shape} "
            f"of length {n}"
        )
    rank = _rank(input)
    if rank is not None and rank != n + 2:
        raise ValueError(f"Shape {input.shape} must have rank {n + 2}")
    rate = [1] * n if dilations is None else [int(d) for d in dilations]
    st = [1] * n if strides is None else [int(s) for s in strides]
    if len(rate) != n:
        raise ValueError(
            f"`len(dilation_rate)` should be {n}. Received: dilation_rate={rate} "
            f"of length {len(rate)}"
        )
    if len(st) != n:
        raise ValueError(
            f"`len(strides)` should be {n}. Received: strides={st} of length {len(st)}"
        )
    _check_strides_and_dilation(n, st, rate)
    if padding == "SAME" and any(r > 1 for r in rate):
        raise ValueError(
            "pooling with 'SAME' padding is not implemented for `dilation_rate` > 1. "
            f"Received: padding={padding} and dilation_rate={np.array(rate, np.int32)}"
        )
    if any(s > w for s, w in zip(st, window_shape, strict=False)):
        raise ValueError(
            "`strides` > `window_shape` not supported due to inconsistency between CPU and "
            f"GPU implementations. Received: strides={np.array(st, np.int32)} and "
            f"window_shape={window_shape}"
        )
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"{n}-D {pooling_type} pooling is not supported.")
    channels_first = data_format is not None and data_format.startswith("NC")
    if channels_first:
        win = [1, 1, *window_shape]
        strd = [1, 1, *st]
        spatial = list(range(2, n + 2))
    else:
        win = [1, *window_shape, 1]
        strd = [1, *st, 1]
        spatial = list(range(1, n + 1))
    if n == 1:
        if data_format is None or data_format == "NWC":
            fmt = "NHWC"
        elif data_format == "NCW":
            fmt = "NCHW"
        else:
            raise ValueError(
                f"data_format must be either 'NWC' or 'NCW'. Received: data_format={data_format}"
            )
        win = [1, *win]
        strd = [1, *strd]
    else:
        fmt = data_format or ("NHWC" if n == 2 else "NDHWC")

    def op(converted: Any, _n: int, conv_padding: Any) -> Any:
        if n == 1:
            converted = _expand(converted, spatial[0])
        if n == 3:
            name3 = "MaxPool3D" if pooling_type == "MAX" else "AvgPool3D"
            result = _op(name3)(
                converted, ksize=win, strides=strd, padding=conv_padding, data_format=fmt
            )
        elif pooling_type == "MAX":
            p, e = _convert_padding(conv_padding)
            result = _op("MaxPool")(
                converted, ksize=win, strides=strd, padding=p, explicit_paddings=e, data_format=fmt
            )
        else:
            result = _op("AvgPool")(
                converted, ksize=win, strides=strd, padding=conv_padding, data_format=fmt
            )
        if n == 1:
            result = _squeeze(result, [spatial[0]])
        return result

    return with_space_to_batch(
        input, rate, padding, op, filter_shape=window_shape, spatial_dims=spatial
    )


def fractional_max_pool(
    value: Any,
    pooling_ratio: Any,
    pseudo_random: bool = False,
    overlapping: bool = False,
    seed: int = 0,
    name: str | None = None,
) -> Any:
    """Fractional max pooling (FractionalMaxPool)."""
    if isinstance(pooling_ratio, (list, tuple)):
        if pooling_ratio[0] != 1.0 or pooling_ratio[-1] != 1.0:
            raise ValueError(
                "`pooling_ratio` should have first and last elements with value 1.0. "
                f"Received: pooling_ratio={pooling_ratio}"
            )
        for element in pooling_ratio:
            if element < 1.0:
                raise ValueError(
                    "`pooling_ratio` elements should be >= 1.0. "
                    f"Received: pooling_ratio={pooling_ratio}"
                )
    elif isinstance(pooling_ratio, (int, float)):
        if pooling_ratio < 1.0:
            raise ValueError(
                f"`pooling_ratio` should be >= 1.0. Received: pooling_ratio={pooling_ratio}"
            )
    else:
        raise ValueError(
            "`pooling_ratio` should be an int or a list of ints. "
            f"Received: pooling_ratio={pooling_ratio}"
        )
    ratio = [float(r) for r in _get_sequence(pooling_ratio, 2, 3, "pooling_ratio")]
    return _fractional("FractionalMaxPool", value, ratio, pseudo_random, overlapping, seed, name)


def fractional_avg_pool(
    value: Any,
    pooling_ratio: Any,
    pseudo_random: bool = False,
    overlapping: bool = False,
    seed: int = 0,
    name: str | None = None,
) -> Any:
    """Fractional average pooling (FractionalAvgPool)."""
    ratio = [float(r) for r in pooling_ratio]
    return _fractional("FractionalAvgPool", value, ratio, pseudo_random, overlapping, seed, name)


def _fractional(
    op_name: str,
    value: Any,
    ratio: list[float],
    pseudo_random: bool,
    overlapping: bool,
    seed: int,
    name: str | None,
) -> Any:
    fn = _op(op_name)
    if seed == 0:
        return fn(
            _t(value),
            pooling_ratio=ratio,
            pseudo_random=pseudo_random,
            overlapping=overlapping,
            deterministic=False,
            seed=0,
            seed2=0,
            name=name,
        )
    seed1, seed2 = _get_seed(seed)
    return fn(
        _t(value),
        pooling_ratio=ratio,
        pseudo_random=pseudo_random,
        overlapping=overlapping,
        deterministic=True,
        seed=seed1,
        seed2=seed2,
        name=name,
    )


# ---------------------------------------------------------------------------
# Normalization and moments


def sufficient_statistics(
    x: Any, axes: Any, shift: Any = None, keepdims: bool = False, name: str | None = None
) -> Any:
    """(count, sum of x - shift, sum of (x - shift)**2, shift) over ``axes``."""
    axes = sorted(set(int(a) for a in axes))
    x = _t(x)
    dims = _dims(x)
    if dims is not None and all(dims[d] is not None for d in axes):
        count = 1
        for d in axes:
            count *= dims[d]  # type: ignore[operator]
        counts = _const(count, _dtype(x))
    else:
        shape = _cast(_op("Shape")(x), _dtype(x))
        pos = [a + len(dims) if dims is not None and a < 0 else a for a in axes]
        counts = _reduce(
            "Prod", _op("GatherV2")(shape, _const(pos, _dtypes.int32), _const(0, _dtypes.int32))
        )
    if shift is not None:
        shift = _t(shift)
        m_ss = _op("Sub")(x, shift)
        v_ss = _op("SquaredDifference")(x, shift)
    else:
        m_ss = x
        v_ss = _op("Square")(x)
    m_ss = _reduce("Sum", m_ss, axes, keepdims)
    v_ss = _reduce("Sum", v_ss, axes, keepdims)
    return counts, m_ss, v_ss, shift


def normalize_moments(
    counts: Any, mean_ss: Any, variance_ss: Any, shift: Any, name: str | None = None
) -> Any:
    """Mean and variance from sufficient statistics."""
    mean_ss = _t(mean_ss)
    divisor = _op("Reciprocal")(_t(counts, dtype_hint=_dtype(mean_ss)))
    shifted_mean = _op("Mul")(mean_ss, divisor)
    mean = _op("AddV2")(shifted_mean, shift) if shift is not None else shifted_mean
    variance = _op("Sub")(_op("Mul")(_t(variance_ss), divisor), _op("Square")(shifted_mean))
    return mean, variance


def moments(
    x: Any, axes: Any, shift: Any = None, keepdims: bool = False, name: str | None = None
) -> Any:
    """Mean and variance of ``x`` over ``axes``; float16 is computed in float32."""
    x = _t(x)
    half = _dtype(x) == _dtypes.float16
    y = _cast(x, _dtypes.float32) if half else x
    ax = _axes(axes)
    mean = _op("Mean")(y, ax, keep_dims=True)
    variance = _op("Mean")(
        _op("SquaredDifference")(y, _op("StopGradient")(mean)), ax, keep_dims=True
    )
    if not keepdims:
        squeeze_axes = [
            int(a) for a in (axes.numpy().reshape(-1) if _is_tensor(axes) else np.reshape(axes, -1))
        ]
        mean = _squeeze(mean, squeeze_axes)
        variance = _squeeze(variance, squeeze_axes)
    if half:
        return _cast(mean, _dtypes.float16), _cast(variance, _dtypes.float16)
    return mean, variance


def weighted_moments(
    x: Any, axes: Any, frequency_weights: Any, keepdims: bool = False, name: str | None = None
) -> Any:
    """Frequency-weighted mean and variance of ``x`` over ``axes``."""
    x = _t(x)
    w = _t(frequency_weights)
    half = _dtype(x) == _dtypes.float16
    if half:
        x = _cast(x, _dtypes.float32)
    if _dtype(w) != _dtype(x):
        w = _cast(w, _dtype(x))
    ax = _axes(axes)
    weighted_sum = _op("Sum")(w * x, ax, keep_dims=True)
    broadcast_w = w + _op("ZerosLike")(x)
    sum_w = _op("Sum")(broadcast_w, ax, keep_dims=True)
    mean = _op("DivNoNan")(weighted_sum, sum_w)
    distsq = _op("Sum")(w * _op("SquaredDifference")(x, mean), ax, keep_dims=True)
    variance = _op("DivNoNan")(distsq, sum_w)
    if not keepdims:
        squeeze_axes = [int(a) for a in np.reshape(axes.numpy() if _is_tensor(axes) else axes, -1)]
        mean = _squeeze(mean, squeeze_axes)
        variance = _squeeze(variance, squeeze_axes)
    if half:
        return _cast(mean, _dtypes.float16), _cast(variance, _dtypes.float16)
    return mean, variance


def batch_normalization(
    x: Any,
    mean: Any,
    variance: Any,
    offset: Any,
    scale: Any,
    variance_epsilon: Any,
    name: str | None = None,
) -> Any:
    """(x - mean) * scale / sqrt(variance + epsilon) + offset, computed as TF
    does (x * inv + (offset - mean * inv))."""
    x = _t(x)
    mean = mean if _is_tensor(mean) else _t(mean, dtype_hint=_dtype(x))
    variance = variance if _is_tensor(variance) else _t(variance, dtype_hint=_dtype(x))
    inv = _op("Rsqrt")(variance + variance_epsilon)
    if scale is not None:
        inv = inv * scale
    shift = offset - mean * inv if offset is not None else -mean * inv
    return x * _cast(inv, _dtype(x)) + _cast(shift, _dtype(x))


def fused_batch_norm(
    x: Any,
    scale: Any,
    offset: Any,
    mean: Any = None,
    variance: Any = None,
    epsilon: float = 0.001,
    data_format: str = "NHWC",
    is_training: bool = True,
    name: str | None = None,
    exponential_avg_factor: float = 1.0,
) -> Any:
    """Batch normalization of a 4-D (or 5-D) tensor in one op (FusedBatchNormV3);
    returns (y, running mean, running variance). (tf.compat.v1.nn only in TF 2.21.)"""
    if (not is_training or exponential_avg_factor != 1.0) and (mean is None or variance is None):
        raise ValueError(
            "Both `mean` and `variance` must be a 1D tensor when `is_training` is False or "
            f"`exponential_avg_factor` != 1.0. Received: `mean` {mean!r} and "
            f"`variance` {variance!r}"
        )
    x = _t(x)
    scale = _t(scale)
    offset = _t(offset)
    mean = _const([], _dtypes.float32) if mean is None else _t(mean)
    variance = _const([], _dtypes.float32) if variance is None else _t(variance)
    out = _op("FusedBatchNormV3")(
        x,
        scale,
        offset,
        mean,
        variance,
        epsilon=float(epsilon),
        exponential_avg_factor=float(exponential_avg_factor),
        data_format=data_format,
        is_training=is_training,
        name=name,
    )
    return out[0], out[1], out[2]


def batch_norm_with_global_normalization(
    input: Any,
    mean: Any,
    variance: Any,
    beta: Any,
    gamma: Any,
    variance_epsilon: Any,
    scale_after_normalization: bool,
    name: str | None = None,
) -> Any:
    """batch_normalization with ``gamma`` used only when
    ``scale_after_normalization``."""
    return batch_normalization(
        input,
        mean,
        variance,
        beta,
        gamma if scale_after_normalization else None,
        variance_epsilon,
        name,
    )


def l2_normalize(
    x: Any, axis: Any = None, epsilon: float = 1e-12, name: str | None = None, dim: Any = None
) -> Any:
    """x / sqrt(max(sum(x**2, axis), epsilon)); complex x normalizes by |x|."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    x = _t(x)
    if _dtype(x).is_complex:
        re = _op("Real")(x)
        im = _op("Imag")(x)
        sq = _op("Square")(re) + _op("Square")(im)
        square_sum = (
            _op("Real")(_reduce("Sum", sq, axis, True))
            if _dtype(sq).is_complex
            else _reduce("Sum", sq, axis, True)
        )
        inv = _op("Rsqrt")(_op("Maximum")(square_sum, _const(epsilon, _dtype(square_sum))))
        return _op("Complex")(_op("Mul")(re, inv), _op("Mul")(im, inv), name=name)
    square_sum = _reduce("Sum", _op("Square")(x), axis, True)
    inv = _op("Rsqrt")(_op("Maximum")(square_sum, _const(epsilon, _dtype(square_sum))))
    return _op("Mul")(x, inv, name=name)


def local_response_normalization(
    input: Any,
    depth_radius: int = 5,
    bias: float = 1,
    alpha: float = 1,
    beta: float = 0.5,
    name: str | None = None,
) -> Any:
    """Local response normalization across channels (LRN)."""
    return _op("LRN")(
        _t(input),
        depth_radius=int(depth_radius),
        bias=float(bias),
        alpha=float(alpha),
        beta=float(beta),
        name=name,
    )


lrn = local_response_normalization


def zero_fraction(value: Any, name: str | None = None) -> Any:
    """Fraction of the elements of ``value`` that are zero, as float32."""
    value = _t(value)
    size = _op("Size")(value, out_type=_dtypes.int64)
    zero = (
        _const(np.zeros([], dtype=np.dtype(_dtype(value).as_numpy_dtype)), _dtype(value))
        if _dtype(value) != _dtypes.string
        else _const("", _dtypes.string)
    )
    nonzero_mask = _op("NotEqual")(value, zero)
    count_type = _dtypes.int32 if _size_static(value) <= 2**31 - 1 else _dtypes.int64
    num_nonzero = _cast(_reduce("Sum", _cast(nonzero_mask, count_type)), _dtypes.int64)
    num_zero = _op("Sub")(size, num_nonzero)
    return _op("RealDiv")(_cast(num_zero, _dtypes.float32), _cast(size, _dtypes.float32))


def _size_static(x: Any) -> int:
    dims = _dims(x)
    if dims is None or None in dims:
        return 0
    return int(np.prod(dims, dtype=np.int64))


# ---------------------------------------------------------------------------
# Losses


def _check_same_shape(logits: Any, labels: Any, a: str, b: str) -> None:
    from tfe_py.tensor_shape import TensorShape

    ls, gs = labels.shape, logits.shape
    compatible = TensorShape(ls).is_compatible_with(TensorShape(gs))
    if not compatible:
        raise ValueError(
            f"`{a}` and `{b}` must have the same shape, received "
            f"({TensorShape(gs)} vs {TensorShape(ls)})."
        )


def sigmoid_cross_entropy_with_logits(
    labels: Any = None, logits: Any = None, name: str | None = None
) -> Any:
    """Elementwise logistic loss max(x, 0) - x * z + log(1 + exp(-|x|))."""
    if labels is None or logits is None:
        raise ValueError(
            "Both `labels` and `logits` must be provided for sigmoid_cross_entropy_with_logits"
            f"Received: labels={labels} and logits={logits}"
        )
    logits = _t(logits)
    labels = _t(labels)
    _check_same_shape(logits, labels, "logits", "labels")
    zeros = _op("ZerosLike")(logits)
    cond = _op("GreaterEqual")(logits, zeros)
    relu_logits = _where(cond, logits, zeros)
    neg_abs = _where(cond, -logits, logits)
    return _op("AddV2")(relu_logits - logits * labels, _op("Log1p")(_op("Exp")(neg_abs)), name=name)


def weighted_cross_entropy_with_logits(
    labels: Any, logits: Any, pos_weight: Any, name: str | None = None
) -> Any:
    """Logistic loss with the positive term weighted by ``pos_weight``."""
    logits = _t(logits)
    labels = _t(labels)
    _check_same_shape(logits, labels, "logits", "labels")
    log_weight = 1 + (pos_weight - 1) * labels
    soft = _op("Log1p")(_op("Exp")(-_op("Abs")(logits))) + _op("Relu")(-logits)
    return _op("AddV2")((1 - labels) * logits, log_weight * soft, name=name)


def log_poisson_loss(
    targets: Any, log_input: Any, compute_full_loss: bool = False, name: str | None = None
) -> Any:
    """exp(log_input) - log_input * targets (+ Stirling's term when
    ``compute_full_loss``)."""
    log_input = _t(log_input)
    targets = _t(targets)
    from tfe_py.tensor_shape import TensorShape

    if not TensorShape(targets.shape).is_compatible_with(TensorShape(log_input.shape)):
        raise ValueError(
            "`log_input` and `targets` must have the same shape, received "
            f"({TensorShape(log_input.shape)} vs {TensorShape(targets.shape)})."
        )
    result = _op("Exp")(log_input) - log_input * targets
    if compute_full_loss:
        dt = _dtype(targets)
        point_five = _const(0.5, dt)
        two_pi = _const(2 * _pymath.pi, dt)
        stirling = (
            targets * _op("Log")(targets) - targets + point_five * _op("Log")(two_pi * targets)
        )
        zeros = _op("ZerosLike")(targets)
        ones = _op("OnesLike")(targets)
        cond = _op("LogicalAnd")(
            _op("GreaterEqual")(targets, zeros), _op("LessEqual")(targets, ones)
        )
        result = result + _where(cond, zeros, stirling)
    return result


def l2_loss(t: Any, name: str | None = None) -> Any:
    """sum(t ** 2) / 2."""
    return _op("L2Loss")(_t(t), name=name)


def softmax_cross_entropy_with_logits(
    labels: Any, logits: Any, axis: int = -1, name: str | None = None
) -> Any:
    """Cross entropy between ``labels`` (a distribution per row) and
    softmax(``logits``) along ``axis``; half/bfloat16 logits are computed
    in float32."""
    if axis is None:
        axis = -1
    logits = _t(logits)
    labels = _t(labels)
    low = _dtype(logits) in (_dtypes.float16, _dtypes.bfloat16)
    precise = _cast(logits, _dtypes.float32) if low else logits
    labels = _cast(labels, _dtype(precise))
    rank = _rank(precise)
    if axis != -1:
        if rank is None:
            raise ValueError("softmax_cross_entropy_with_logits with an axis needs a known rank")
        a = axis + rank if axis < 0 else axis
        perm = [i for i in range(rank) if i != a] + [a]
        precise = _transpose(precise, perm)
        labels = _transpose(labels, perm)
    in_dims = _dims(precise)
    if in_dims is not None and None not in in_dims:
        out_shape: Any = in_dims[:-1]
        flat_logits = _reshape(precise, [-1, in_dims[-1]] if in_dims else [-1, 1])
    else:
        shape = _op("Shape")(precise)
        out_shape = shape[:-1]
        flat_logits = _reshape(precise, _concat([_const([-1], _dtypes.int32), shape[-1:]], 0))
    ldims = _dims(labels)
    if ldims is not None and None not in ldims and ldims:
        flat_labels = _reshape(labels, [-1, ldims[-1]])
    else:
        lshape = _op("Shape")(labels)
        flat_labels = _reshape(labels, _concat([_const([-1], _dtypes.int32), lshape[-1:]], 0))
    cost = _op("SoftmaxCrossEntropyWithLogits")(flat_logits, flat_labels)[0]
    cost = _reshape(cost, out_shape)
    return _cast(cost, _dtype(logits)) if low else cost


def sparse_softmax_cross_entropy_with_logits(
    labels: Any, logits: Any, name: str | None = None
) -> Any:
    """Cross entropy between integer class ``labels`` and softmax(``logits``)
    over the last axis."""
    if labels is None or logits is None:
        raise ValueError(
            "Both `labels` and `logits` must be provided for "
            f"sparse_softmax_cross_entropy_with_logitsReceived: labels={labels} and logits={logits}"
        )
    labels = _t(labels)
    logits = _t(logits)
    half = _dtype(logits) == _dtypes.float16
    precise = _cast(logits, _dtypes.float32) if half else logits
    ldims = _dims(labels)
    gdims = _dims(logits)
    if gdims is not None and len(gdims) == 0:
        raise ValueError(f"`logits` cannot be a scalar. Received logits={logits}`")
    if gdims is not None and ldims is not None and len(ldims) != len(gdims) - 1:
        raise ValueError(
            "`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
            f"labels.shape={labels.shape} of rank {len(ldims)} and logits.shape={logits.shape} "
            f"of rank {len(gdims)}"
        )
    if (
        gdims is not None
        and ldims is not None
        and None not in ldims
        and None not in gdims[:-1]
        and ldims != gdims[:-1]
    ):
        raise ValueError(
            "`labels.shape` must equal `logits.shape` except for the last dimension. "
            f"Received: labels.shape={labels.shape} and logits.shape={logits.shape}"
        )
    op = _op("SparseSoftmaxCrossEntropyWithLogits")
    if gdims is not None and len(gdims) == 2:
        cost = op(precise, labels)[0]
    else:
        num_classes = gdims[-1] if gdims is not None and gdims[-1] is not None else None
        if num_classes is None:
            num_classes = _op("Shape")(logits)[-1]
            flat = _reshape(precise, _op("Pack")([_const(-1, _dtypes.int32), num_classes]))
        else:
            flat = _reshape(precise, [-1, num_classes])
        cost = op(flat, _reshape(labels, [-1]))[0]
        cost = _reshape(cost, _shape_of(labels))
    return _cast(cost, _dtypes.float16) if half else cost


def compute_average_loss(
    per_example_loss: Any, sample_weight: Any = None, global_batch_size: Any = None
) -> Any:
    """sum(per_example_loss * sample_weight) / global_batch_size (the batch
    size of this single replica when not given)."""
    loss = _t(per_example_loss)
    input_dtype = _dtype(loss)
    rank = _rank(loss)
    if rank == 0:
        raise ValueError(
            "Invalid value passed for `per_example_loss`. Expected a tensor with at least "
            f"rank 1. Received per_example_loss={loss} with rank 0"
        )
    if sample_weight is not None:
        weight = _cast(_t(sample_weight), input_dtype)
        loss = _op("Mul")(loss, weight)
    loss = _cast(loss, input_dtype)
    if global_batch_size is None:
        dims = _dims(loss)
        if dims is not None and dims and dims[0] is not None:
            global_batch_size = _const(dims[0], _dtypes.int32)
        else:
            global_batch_size = _op("Shape")(loss)[0]
    gbs = _t(global_batch_size)
    if _rank(gbs) not in (0, None):
        raise ValueError("global_batch_size must be scalar.")
    if not _dtype(gbs).is_integer:
        raise TypeError("global_batch_size must be an integer.")
    if not _is_tensor(global_batch_size) and int(global_batch_size) < 0:
        from tfe_py import errors

        raise errors.InvalidArgumentError("global_batch_size must be non-negative.")
    total = _reduce("Sum", loss)
    return _op("DivNoNan")(total, _cast(gbs, input_dtype))


def scale_regularization_loss(regularization_loss: Any) -> Any:
    """sum(regularization_loss) divided by the number of replicas (1)."""
    total = _reduce("Sum", _t(regularization_loss))
    return total / 1


# ---------------------------------------------------------------------------
# Dropout


def _get_seed(op_seed: Any) -> tuple[int, int]:
    """TensorFlow's random_seed.get_seed, from tfe_py.random when it has it."""
    from tfe_py import random as _random

    for attr in ("get_seed", "_get_seed"):
        fn = getattr(_random, attr, None)
        if fn is not None:
            s1, s2 = fn(op_seed)
            return int(s1 if s1 is not None else 0), int(s2 if s2 is not None else 0)
    raise NotImplementedError("tf.nn needs tfe_py.random.get_seed (TF's op seeding)")


def _noise_shape(x: Any, noise_shape: Any) -> Any:
    if noise_shape is None:
        return _shape_of(x)
    if _is_tensor(noise_shape):
        return noise_shape
    dims = _dims(x)
    ns = list(noise_shape)
    if dims is not None and len(dims) == len(ns):
        return [d if n is None and d is not None else n for n, d in zip(ns, dims, strict=False)]
    return ns


def _dropout(
    x: Any, rate: Any, noise_shape: Any, sampler: Callable[..., Any], dummy_step: Callable[[], None]
) -> Any:
    is_number = isinstance(rate, numbers.Real) and not _is_tensor(rate)
    if is_number and (rate < 0 or rate >= 1):
        raise ValueError(
            f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}"
        )
    x = _t(x)
    dtype = _dtype(x)
    if not dtype.is_floating:
        raise ValueError(
            "`x.dtype` must be a floating point tensor as `x` will be scaled. "
            f"Received: x_dtype={dtype}"
        )
    if is_number and rate == 0:
        dummy_step()
        return x
    if not _is_tensor(rate):
        if not is_number:
            raise ValueError(f"`rate` must be a scalar or scalar tensor. Received: rate={rate}")
        scale = _const(1 / (1 - rate), dtype)
        ret = _op("Mul")(x, scale)
    else:
        if _rank(rate) not in (0, None):
            raise ValueError(f"Shape {rate.shape} must have rank 0")
        if _dtype(rate) != dtype:
            if not _dtype(rate).is_floating:
                raise ValueError(
                    "`x.dtype` must be compatible with `rate.dtype`. "
                    f"Received: x.dtype={dtype} and rate.dtype={_dtype(rate)}"
                )
            rate = _cast(rate, dtype)
        ret = _op("RealDiv")(x, _op("Sub")(_const(1, dtype), rate))
    random = sampler(shape=_noise_shape(x, noise_shape), dtype=dtype)
    keep = _op("GreaterEqual")(random, _t(rate, dtype=dtype))
    return _where(keep, ret, _const(0, dtype))


def dropout(
    x: Any, rate: Any, noise_shape: Any = None, seed: Any = None, name: str | None = None
) -> Any:
    """Zeroes elements of ``x`` with probability ``rate`` and scales the rest
    by 1 / (1 - rate); the mask is ``tf.random.uniform(..., seed=seed)``, so
    seeds give TensorFlow's masks."""

    def sampler(shape: Any, dtype: Any) -> Any:
        from tfe_py import random as _random

        return _random.uniform(shape, dtype=dtype, seed=seed)

    def dummy_step() -> None:
        _get_seed(seed)

    return _dropout(x, rate, noise_shape, sampler, dummy_step)


def _stateless_dropout(
    x: Any,
    rate: Any,
    seed: Any,
    rng_alg: Any = None,
    noise_shape: Any = None,
    name: str | None = None,
) -> Any:
    """Dropout whose mask is ``tf.random.stateless_uniform(..., seed, alg)``."""

    def sampler(shape: Any, dtype: Any) -> Any:
        from tfe_py import random as _random

        return _random.stateless_uniform(shape, seed=seed, dtype=dtype, alg=rng_alg)

    return _dropout(x, rate, noise_shape, sampler, lambda: None)


def _general_dropout(
    x: Any,
    rate: Any,
    uniform_sampler: Callable[..., Any],
    noise_shape: Any = None,
    name: str | None = None,
) -> Any:
    """Dropout with a caller-given ``uniform_sampler(shape=, dtype=)``."""
    return _dropout(x, rate, noise_shape, uniform_sampler, lambda: None)


_stateless_dropout.__name__ = "stateless_dropout"
_general_dropout.__name__ = "general_dropout"
experimental = types.ModuleType(
    "tfe_py.nn.experimental", "``tf.nn.experimental``: stateless_dropout, general_dropout."
)
experimental.stateless_dropout = _stateless_dropout  # type: ignore[attr-defined]
experimental.general_dropout = _general_dropout  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------
# Array-like helpers


def bias_add(value: Any, bias: Any, data_format: str | None = None, name: str | None = None) -> Any:
    """Adds the 1-D ``bias`` along the channel dimension of ``value``."""
    if data_format is not None:
        if data_format.startswith("NC"):
            data_format = "NCHW"
        elif data_format.startswith("N") and data_format.endswith("C"):
            data_format = "NHWC"
        else:
            raise ValueError(
                "`data_format` must be of the form `N...C` or `NC...`. "
                f"Received: data_format={data_format}"
            )
    value = _t(value)
    bias = bias if _is_tensor(bias) else _t(bias, dtype=_dtype(value))
    return _op("BiasAdd")(value, bias, data_format=data_format, name=name)


def space_to_batch(input: Any, block_shape: Any, paddings: Any, name: str | None = None) -> Any:
    """SpaceToBatchND: blocks of the spatial dimensions moved into the batch."""
    input = _t(input)
    block = block_shape if _is_tensor(block_shape) else _t(block_shape, dtype_hint=_dtypes.int32)
    pads = paddings if _is_tensor(paddings) else _t(paddings, dtype_hint=_dtypes.int32)
    return _op("SpaceToBatchND")(input, block, pads, name=name)


def space_to_depth(
    input: Any, block_size: int, data_format: str = "NHWC", name: str | None = None
) -> Any:
    """Blocks of block_size x block_size pixels moved into the channels."""
    return _op("SpaceToDepth")(
        _t(input), block_size=int(block_size), data_format=data_format, name=name
    )


def depth_to_space(
    input: Any, block_size: int, data_format: str = "NHWC", name: str | None = None
) -> Any:
    """Inverse of space_to_depth."""
    return _op("DepthToSpace")(
        _t(input), block_size=int(block_size), data_format=data_format, name=name
    )


def _clip_rows(params: Any, ids: Any, max_norm: Any) -> Any:
    """Rows of gathered embeddings rescaled to an L2 norm of at most max_norm
    (tf.clip_by_norm over the embedding axes)."""
    if max_norm is None:
        return params
    ids_rank = _rank(_t(ids))
    p_rank = _rank(params)
    assert ids_rank is not None and p_rank is not None
    axes = list(range(ids_rank, p_rank))
    l2sum = _reduce("Sum", params * params, axes, True)
    pred = _op("Greater")(l2sum, _const(0, _dtype(l2sum)))
    safe = _where(pred, l2sum, _op("OnesLike")(l2sum))
    norm = _where(pred, _op("Sqrt")(safe), l2sum)
    clip = _t(max_norm, dtype=_dtype(params))
    intermediate = params * clip
    return _op("RealDiv")(intermediate, _op("Maximum")(norm, clip))


def embedding_lookup(params: Any, ids: Any, max_norm: Any = None, name: str | None = None) -> Any:
    """Rows of ``params`` selected by ``ids`` (a gather along axis 0); a list
    of tensors is one table split in consecutive blocks of ids (TF's "div"
    partitioning)."""
    if params is None:
        raise ValueError("params must be specified")
    if isinstance(params, (list, tuple)) and not params:
        raise ValueError("Length of params is currently 0. Need at least one param.")
    parts = list(params) if isinstance(params, (list, tuple)) else [params]
    parts = [_t(p) for p in parts]
    ids = _t(ids)
    gather = _op("GatherV2")
    axis0 = _const(0, _dtypes.int32)
    if len(parts) == 1:
        result = _clip_rows(gather(parts[0], ids, axis0), ids, max_norm)
        return _op("Identity")(result)
    # A sharded table is split as TF 2's embedding_lookup splits it ("div"):
    # with T ids over n shards, the first T % n shards hold T // n + 1 ids
    # and the others T // n. Concatenating the shards and gathering with
    # the ids remapped to rows of the concatenation gives the same rows.
    n = len(parts)
    sizes = []
    for p in parts:
        d = _dims(p)
        if d is None or not d or d[0] is None:
            raise ValueError("embedding_lookup over several tables needs their first dimensions")
        sizes.append(int(d[0]))
    total = int(sum(sizes))
    per, extras = divmod(total, n)
    rows = np.arange(total, dtype=np.int64)
    if per > 0:
        shard = np.maximum(rows // (per + 1), (rows - extras) // per)
        in_shard = np.where(shard < extras, rows % (per + 1), (rows - extras) % per)
    else:
        shard = rows // (per + 1)
        in_shard = rows % (per + 1)
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    valid = in_shard < np.array(sizes)[shard]
    mapping = np.where(valid, offsets[shard] + in_shard, total)  # past a shard: out of range
    table = _concat(parts, 0)
    new_ids = gather(_const(mapping, _dtypes.int64), _cast(ids, _dtypes.int64), axis0)
    result = gather(table, new_ids, axis0)
    return _clip_rows(result, ids, max_norm)


def embedding_lookup_sparse(
    params: Any,
    sp_ids: Any,
    sp_weights: Any,
    combiner: Any = None,
    max_norm: Any = None,
    name: str | None = None,
    allow_fast_lookup: bool = False,
) -> Any:
    """Needs tf.SparseTensor, which tfe_py does not provide."""
    raise NotImplementedError(
        "tf.nn.embedding_lookup_sparse needs tf.sparse.SparseTensor, which tfe_py does not "
        "implement"
    )


def safe_embedding_lookup_sparse(
    embedding_weights: Any,
    sparse_ids: Any,
    sparse_weights: Any = None,
    combiner: str = "mean",
    default_id: Any = None,
    max_norm: Any = None,
    name: str | None = None,
    allow_fast_lookup: bool = False,
) -> Any:
    """Needs tf.SparseTensor, which tfe_py does not provide."""
    raise NotImplementedError(
        "tf.nn.safe_embedding_lookup_sparse needs tf.sparse.SparseTensor, which tfe_py does not "
        "implement"
    )


def isotonic_regression(inputs: Any, decreasing: bool = True, axis: int = -1) -> Any:
    """Isotonic regression of each row along ``axis`` (IsotonicRegression):
    returns (fitted values, segment ids)."""
    inputs = _t(inputs)
    promote = {
        _dtypes.float32: _dtypes.float32,
        _dtypes.float16: _dtypes.float16,
        _dtypes.bfloat16: _dtypes.bfloat16,
        _dtypes.int8: _dtypes.float32,
        _dtypes.int16: _dtypes.float32,
    }
    out_dtype = promote.get(_dtype(inputs), _dtypes.float64)

    def compute(matrix: Any, name: str | None = None) -> Any:
        fn = _op("IsotonicRegression")
        if decreasing:
            out = fn(matrix, output_dtype=out_dtype)
            return out[0], out[1]
        out = fn(-matrix, output_dtype=out_dtype)
        return -out[0], out[1]

    return _wrap_2d(inputs, compute, axis)


def collapse_repeated(labels: Any, seq_length: Any, name: str | None = None) -> Any:
    """Merges repeated labels of each row into one; returns (labels, new lengths)."""
    labels = _t(labels)
    seq_length = _t(seq_length)
    dims = _dims(labels)
    if dims is None or len(dims) != 2 or None in dims:
        raise ValueError("collapse_repeated needs a 2-D `labels` of known shape")
    batch, maxlen = int(dims[0]), int(dims[1])  # type: ignore[arg-type]
    first = _op("OnesLike")(_cast(labels[:, :1], _dtypes.bool))
    label_mask = _concat([first, _op("NotEqual")(labels[:, 1:], labels[:, :-1])], 1)
    positions = _const(np.arange(maxlen, dtype=np.int64), _dtypes.int64)
    seq_mask = _op("Less")(positions, _expand(_cast(seq_length, _dtypes.int64), 1))
    label_mask = _op("LogicalAnd")(label_mask, seq_mask)
    new_len = _reduce("Sum", _cast(label_mask, _dtypes.int32), 1)
    new_maxlen = _reduce("Max", new_len)
    # Compact the kept labels of each row to its front: the kept label's
    # destination is its rank among the kept labels of the row.
    dest = _op("Cumsum")(_cast(label_mask, _dtypes.int32), _const(1, _dtypes.int32), exclusive=True)
    rows = _op("Tile")(
        _const(np.arange(batch, dtype=np.int32)[:, None], _dtypes.int32),
        _const([1, maxlen], _dtypes.int32),
    )
    idx = _op("Pack")([rows, dest], axis=2)
    keep_idx = _op("Where")(label_mask)
    sel_idx = _op("GatherNd")(idx, keep_idx)
    sel_lab = _op("GatherNd")(labels, keep_idx)
    out_shape = _op("Pack")([_const(batch, _dtypes.int32), new_maxlen])
    flat = _op("ScatterNd")(sel_idx, sel_lab, out_shape)
    return flat, _cast(new_len, _dtype(seq_length))


def ctc_unique_labels(labels: Any, name: str | None = None) -> Any:
    """Per row: its unique labels (padded with 0 to the row length, int64)
    and the index of each label among them (int32)."""
    labels = _t(labels)
    dims = _dims(labels)
    if dims is None or len(dims) != 2 or None in dims:
        raise ValueError("ctc_unique_labels needs a 2-D `labels` of known shape")
    ys, idxs = [], []
    for i in range(int(dims[0])):  # type: ignore[arg-type]
        out = _op("Unique")(labels[i])
        y, idx = out[0], out[1]
        ylen = _dims(y)[0]  # type: ignore[index]
        y = _op("Pad")(y, _const([[0, int(dims[1]) - int(ylen)]], _dtypes.int32))  # type: ignore[arg-type]
        ys.append(_cast(y, _dtypes.int64))
        idxs.append(idx)
    if not ys:
        return (
            _const(np.zeros([0, int(dims[1])], np.int64), _dtypes.int64),  # type: ignore[arg-type]
            _const(np.zeros([0, int(dims[1])], np.int32), _dtypes.int32),
        )  # type: ignore[arg-type]
    return _op("Pack")(ys, axis=0), _op("Pack")(idxs, axis=0)


def compute_accidental_hits(
    true_classes: Any,
    sampled_candidates: Any,
    num_true: int,
    seed: Any = None,
    name: str | None = None,
) -> Any:
    """Positions where a sampled candidate equals one of the true classes."""
    seed1, seed2 = _get_seed(seed)
    out = _op("ComputeAccidentalHits")(
        _t(true_classes, dtype_hint=_dtypes.int64),
        _t(sampled_candidates, dtype_hint=_dtypes.int64),
        num_true=num_true,
        seed=seed1,
        seed2=seed2,
        name=name,
    )
    return out[0], out[1], out[2]


# ---------------------------------------------------------------------------
# Functions whose ops tfe does not implement


def _needs(op_name: str, api: str) -> Callable[..., Any]:
    def fn(*args: Any, **kwargs: Any) -> Any:
        if _api.has_op(op_name):
            raise NotImplementedError(f"{api} is not implemented by tfe_py yet")
        _api.unimplemented(op_name, api)

    fn.__name__ = api.rsplit(".", 1)[-1]
    fn.__doc__ = f"Needs the TensorFlow op {op_name}."
    return fn


def all_candidate_sampler(
    true_classes: Any,
    num_true: int,
    num_sampled: int,
    unique: bool,
    seed: Any = None,
    name: str | None = None,
) -> Any:
    """The classes 0..num_sampled-1 as (sampled_candidates,
    true_expected_count, sampled_expected_count) (AllCandidateSampler)."""
    seed1, seed2 = _get_seed(seed)
    out = _op("AllCandidateSampler")(
        _t(true_classes, dtype_hint=_dtypes.int64),
        num_true=num_true,
        num_sampled=num_sampled,
        unique=unique,
        seed=seed1,
        seed2=seed2,
        name=name,
    )
    return out[0], out[1], out[2]


def fixed_unigram_candidate_sampler(
    true_classes: Any,
    num_true: int,
    num_sampled: int,
    unique: bool,
    range_max: int,
    vocab_file: str = "",
    distortion: float = 1.0,
    num_reserved_ids: int = 0,
    num_shards: int = 1,
    shard: int = 0,
    unigrams: Any = (),
    seed: Any = None,
    name: str | None = None,
) -> Any:
    """Classes sampled from a fixed unigram distribution (``unigrams`` or
    ``vocab_file``) (FixedUnigramCandidateSampler)."""
    seed1, seed2 = _get_seed(seed)
    out = _op("FixedUnigramCandidateSampler")(
        _t(true_classes, dtype_hint=_dtypes.int64),
        num_true=num_true,
        num_sampled=num_sampled,
        unique=unique,
        range_max=range_max,
        vocab_file=vocab_file,
        distortion=float(distortion),
        num_reserved_ids=num_reserved_ids,
        num_shards=num_shards,
        shard=shard,
        unigrams=[float(u) for u in unigrams],
        seed=seed1,
        seed2=seed2,
        name=name,
    )
    return out[0], out[1], out[2]


def learned_unigram_candidate_sampler(
    true_classes: Any,
    num_true: int,
    num_sampled: int,
    unique: bool,
    range_max: int,
    seed: Any = None,
    name: str | None = None,
) -> Any:
    """Classes sampled from the unigram distribution learned from the true
    classes seen so far (LearnedUnigramCandidateSampler)."""
    seed1, seed2 = _get_seed(seed)
    out = _op("LearnedUnigramCandidateSampler")(
        _t(true_classes, dtype_hint=_dtypes.int64),
        num_true=num_true,
        num_sampled=num_sampled,
        unique=unique,
        range_max=range_max,
        seed=seed1,
        seed2=seed2,
        name=name,
    )
    return out[0], out[1], out[2]


def _log_uniform_sampler(
    true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int, seed: Any
) -> Any:
    seed1, seed2 = _get_seed(seed)
    out = _op("LogUniformCandidateSampler")(
        true_classes,
        num_true=num_true,
        num_sampled=num_sampled,
        unique=unique,
        range_max=range_max,
        seed=seed1,
        seed2=seed2,
    )
    return out[0], out[1], out[2]


def _sum_rows(x: Any) -> Any:
    """Row sums as TF computes them in these losses (a product with ones)."""
    cols = _dims(x)[1]  # type: ignore[index]
    ones = _op("Fill")(_const([cols, 1], _dtypes.int32), _const(1, _dtype(x)))
    return _reshape(_op("MatMul")(x, ones), [-1])


def _compute_sampled_logits(
    weights: Any,
    biases: Any,
    labels: Any,
    inputs: Any,
    num_sampled: int,
    num_classes: int,
    num_true: int,
    sampled_values: Any,
    subtract_log_q: bool,
    remove_accidental_hits: bool,
    seed: Any = None,
) -> Any:
    """Logits and labels of the true and the sampled classes (TF's helper
    of nce_loss and sampled_softmax_loss, with "div" sharding)."""
    inputs = _t(inputs)
    labels = _cast(_t(labels, dtype_hint=_dtypes.int64), _dtypes.int64)
    labels_flat = _reshape(labels, [-1])
    if sampled_values is None:
        sampled_values = _log_uniform_sampler(
            labels, num_true, num_sampled, True, num_classes, seed
        )
    sampled, true_expected, sampled_expected = (_op("StopGradient")(_t(v)) for v in sampled_values)
    sampled = _cast(sampled, _dtypes.int64)
    n_true = int(_dims(labels_flat)[0])  # type: ignore[index]
    all_ids = _concat([labels_flat, sampled], 0)
    all_w = _cast(embedding_lookup(weights, all_ids), _dtype(inputs))
    true_w = all_w[:n_true]
    sampled_w = all_w[n_true:]
    sampled_logits = _op("MatMul")(inputs, sampled_w, transpose_b=True)
    all_b = _cast(embedding_lookup(biases, all_ids), _dtype(inputs))
    true_b = all_b[:n_true]
    sampled_b = all_b[n_true:]
    dim = int(_dims(true_w)[1])  # type: ignore[index]
    row_dots = _op("Mul")(_expand(inputs, 1), _reshape(true_w, [-1, num_true, dim]))
    true_logits = _reshape(_sum_rows(_reshape(row_dots, [-1, dim])), [-1, num_true])
    true_logits = true_logits + _reshape(true_b, [-1, num_true])
    sampled_logits = sampled_logits + sampled_b
    if remove_accidental_hits:
        idx, ids, wts = compute_accidental_hits(labels, sampled, num_true=num_true)
        pairs = _concat([_reshape(idx, [-1, 1]), _reshape(_cast(ids, _dtypes.int32), [-1, 1])], 1)
        batch = int(_dims(labels)[0])  # type: ignore[index]
        dense = _op("ScatterNd")(
            pairs, _cast(wts, _dtype(sampled_logits)), _const([batch, num_sampled], _dtypes.int32)
        )
        sampled_logits = sampled_logits + dense
    if subtract_log_q:
        true_logits = true_logits - _op("Log")(true_expected)
        sampled_logits = sampled_logits - _op("Log")(sampled_expected)
    out_logits = _concat([true_logits, sampled_logits], 1)
    out_labels = _concat(
        [_op("OnesLike")(true_logits) / num_true, _op("ZerosLike")(sampled_logits)], 1
    )
    return out_logits, out_labels


def nce_loss(
    weights: Any,
    biases: Any,
    labels: Any,
    inputs: Any,
    num_sampled: int,
    num_classes: int,
    num_true: int = 1,
    sampled_values: Any = None,
    remove_accidental_hits: bool = False,
    name: str = "nce_loss",
) -> Any:
    """Noise-contrastive estimation loss per example (classes sampled
    log-uniformly unless ``sampled_values`` is given)."""
    logits, lab = _compute_sampled_logits(
        weights,
        biases,
        labels,
        inputs,
        num_sampled,
        num_classes,
        num_true,
        sampled_values,
        True,
        remove_accidental_hits,
    )
    losses = sigmoid_cross_entropy_with_logits(labels=lab, logits=logits)
    return _sum_rows(losses)


def sampled_softmax_loss(
    weights: Any,
    biases: Any,
    labels: Any,
    inputs: Any,
    num_sampled: int,
    num_classes: int,
    num_true: int = 1,
    sampled_values: Any = None,
    remove_accidental_hits: bool = True,
    seed: Any = None,
    name: str = "sampled_softmax_loss",
) -> Any:
    """Softmax cross entropy over the true and the sampled classes."""
    logits, lab = _compute_sampled_logits(
        weights,
        biases,
        labels,
        inputs,
        num_sampled,
        num_classes,
        num_true,
        sampled_values,
        True,
        remove_accidental_hits,
        seed,
    )
    return softmax_cross_entropy_with_logits(labels=_op("StopGradient")(lab), logits=logits)


ctc_greedy_decoder = _needs("CTCGreedyDecoder", "tf.nn.ctc_greedy_decoder")
ctc_beam_search_decoder = _needs("CTCBeamSearchDecoder", "tf.nn.ctc_beam_search_decoder")


def _logsumexp(x: Any, axis: int, keepdims: bool = False) -> Any:
    """tf.math.reduce_logsumexp's formula: the finite max is taken out."""
    raw_max = _reduce("Max", x, [axis], True)
    my_max = _op("StopGradient")(
        _where(_op("IsFinite")(raw_max), raw_max, _op("ZerosLike")(raw_max))
    )
    result = _op("Log")(_reduce("Sum", _op("Exp")(_op("Sub")(x, my_max)), [axis], keepdims))
    if not keepdims:
        my_max = _squeeze(my_max, [axis])
    return _op("AddV2")(result, my_max)


def _sequence_mask(lengths: Any, maxlen: int) -> Any:
    """[len(lengths), maxlen] float32 mask of positions below each length."""
    pos = _const(np.arange(maxlen, dtype=np.int32), _dtypes.int32)
    below = _op("Less")(pos, _expand(_cast(lengths, _dtypes.int32), 1))
    return _cast(below, _dtypes.float32)


def ctc_loss(
    labels: Any,
    logits: Any,
    label_length: Any,
    logit_length: Any,
    logits_time_major: bool = True,
    unique: Any = None,
    blank_index: Any = None,
    name: str | None = None,
) -> Any:
    """CTC loss per batch element for dense ``labels`` [batch, max_label_len]
    (TF's ctc_loss_dense: a backward pass over the CTC states in log space;
    ``unique`` only affects TF's gradient and is accepted). SparseTensor
    labels need the CTCLossV2 op and tf.SparseTensor, which tfe lacks."""
    if hasattr(labels, "indices") and hasattr(labels, "dense_shape"):
        _api.unimplemented("CTCLossV2", "tf.nn.ctc_loss with SparseTensor labels")
    del unique
    if blank_index is None:
        blank_index = 0
    logits = _t(logits)
    labels = _t(labels)
    label_length = _t(label_length)
    logit_length = _t(logit_length)
    orig = _dtype(logits)
    if orig in (_dtypes.float16, _dtypes.bfloat16):
        logits = _cast(logits, _dtypes.float32)
    if not logits_time_major:
        logits = _transpose(logits, [1, 0, 2])
    ldims = _dims(logits)
    bdims = _dims(labels)
    if ldims is None or bdims is None or None in ldims or None in bdims:
        raise ValueError("tf.nn.ctc_loss needs logits and labels of known shapes")
    T, B, C = ldims
    L = int(bdims[1])
    if blank_index != 0:
        if blank_index < 0:
            blank_index += C
        logits = _concat(
            [
                logits[:, :, blank_index : blank_index + 1],
                logits[:, :, :blank_index],
                logits[:, :, blank_index + 1 :],
            ],
            2,
        )
        labels = _where(
            _op("Less")(labels, _t(blank_index, dtype=_dtype(labels))), labels + 1, labels
        )
    f32 = _dtypes.float32
    ilp = log_softmax(logits)  # [T, B, C]
    # log probability of each CTC state (label states, then blank states,
    # after a leading start state) at each time step
    one_hot = _op("OneHot")(labels, C, _const(1.0, f32), _const(0.0, f32))
    prod = _op("Mul")(_expand(ilp, 2), _expand(one_hot, 0))
    label_lp = _reduce("Sum", prod, [3])
    blank = _op("Tile")(ilp[:, :, :1], _const([1, 1, L + 1], _dtypes.int32))
    obs = _op("PadV2")(
        _concat([label_lp, blank], 2),
        _const([[0, 0], [0, 0], [1, 0]], _dtypes.int32),
        _op("Log")(_const(0.0, f32)),
    )
    # transitions between states: self loops, start -> first label,
    # label -> blank, blank -> next label, label -> next label unless repeated
    S = 2 * (L + 1)
    trans = np.eye(S, dtype=np.float32)
    trans[1, 0] += 1.0
    for i in range(1, L + 1):
        trans[i, L + 1 + i - 1] += 1.0  # blank_states[:-1] -> label_states[1:]
    for i in range(L + 1):
        trans[L + 1 + i, i] += 1.0  # label -> blank
    if L >= 2:
        idx = np.array(
            [[[b, k + 2, k + 1] for k in range(L - 1)] for b in range(B)], dtype=np.int32
        )
        repeats = _op("Equal")(labels[:, :-1], labels[:, 1:])
        values = _op("Sub")(_const(1.0, f32), _cast(repeats, f32))
        l2l = _op("ScatterNd")(_const(idx, _dtypes.int32), values, _const([B, S, S], _dtypes.int32))
        state_trans = _op("AddV2")(_expand(_const(trans, f32), 0), l2l)
    else:
        state_trans = _op("Tile")(_expand(_const(trans, f32), 0), _const([B, 1, 1], _dtypes.int32))
    bwd_trans = _transpose(_op("Log")(state_trans), [0, 2, 1])
    # final states: the last label state or the last blank state of each sequence
    log_0 = np.float32(np.log(np.float64(0.0) + 1e-307))
    label_final = _op("OneHot")(
        _cast(label_length, _dtypes.int32), L + 1, _const(1.0, f32), _const(0.0, f32), axis=0
    )
    final_mask = _op("Mul")(
        _op("Fill")(_const([2, 1, B], _dtypes.int32), _const(1.0, f32)), label_final
    )
    final_lp = _op("Mul")(_op("Sub")(_const(1.0, f32), final_mask), _const(log_0, f32))
    final_lp = _transpose(_reshape(final_lp, [S, B]), [1, 0])
    mask = _transpose(_sequence_mask(logit_length, T), [1, 0])  # [T, B]
    state = final_lp
    cum = _op("Fill")(_const([B], _dtypes.int32), _const(0.0, f32))
    for t in range(T - 1, -1, -1):
        st = _op("AddV2")(state, obs[t])
        st = _logsumexp(_op("AddV2")(_expand(st, 1), bwd_trans), -1)
        lps = _logsumexp(st, -1, keepdims=True)
        st = _op("Sub")(st, lps)
        cum = _op("AddV2")(cum, _op("Mul")(_squeeze(lps, [-1]), mask[t]))
        bm = _expand(mask[t], 1)
        out = _op("Mul")(st, bm)
        state = _op("AddV2")(out, _op("Mul")(final_lp, _op("Sub")(_const(1.0, f32), bm)))
    loss = _op("Neg")(_op("AddV2")(state[:, 0], cum))
    if orig in (_dtypes.float16, _dtypes.bfloat16):
        loss = _cast(loss, orig)
    return loss


class _KerasRNNWrapper:
    """The RNN cell wrappers of tf.nn are Keras layers; tfe has no Keras."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(
            f"tf.nn.{type(self).__name__} is a Keras RNN cell wrapper; tfe_py has no Keras"
        )


class RNNCellDeviceWrapper(_KerasRNNWrapper):
    """Not supported (Keras)."""


class RNNCellDropoutWrapper(_KerasRNNWrapper):
    """Not supported (Keras)."""


class RNNCellResidualWrapper(_KerasRNNWrapper):
    """Not supported (Keras)."""
