"""Creation and shape-manipulation functions of ``tf.*`` (``zeros``, ``reshape``, ``gather``, ...).

Each function is a thin layer over tfe's ops (the generated wrappers of
:mod:`tfe_py.ops`, looked up through :func:`tfe_py._api.op`) with
TensorFlow 2.21's argument names, defaults, dtype inference and errors:
the same ValueError/TypeError where TF's Python layer raises them, the op's
own error (InvalidArgumentError, ...) where TF leaves the check to the
kernel. They run eagerly and, where the static shapes allow it, inside a
graph or ``tf.function`` too (shapes are taken from the static shape when
known, else from ``Shape`` ops).

``tf.constant`` and ``tf.convert_to_tensor`` live in :mod:`tfe_py.graph`
(they also make Const nodes in graph mode); ``tf.cast`` and
``tf.saturate_cast`` are here and also in :mod:`tfe_py.dtypes`.
"""

from __future__ import annotations

import builtins
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from tfe_py import _api
from tfe_py.dtypes import DType, as_dtype
from tfe_py.tensor import Tensor
from tfe_py.tensor_shape import TensorShape

__all__ = [
    "batch_to_space",
    "bitcast",
    "boolean_mask",
    "broadcast_dynamic_shape",
    "broadcast_static_shape",
    "broadcast_to",
    "cast",
    "concat",
    "dynamic_partition",
    "dynamic_stitch",
    "edit_distance",
    "ensure_shape",
    "expand_dims",
    "extract_volume_patches",
    "fill",
    "fingerprint",
    "gather",
    "gather_nd",
    "guarantee_const",
    "histogram_fixed_width",
    "histogram_fixed_width_bins",
    "identity",
    "identity_n",
    "linspace",
    "meshgrid",
    "one_hot",
    "ones",
    "ones_like",
    "pad",
    "parallel_stack",
    "range",
    "rank",
    "repeat",
    "required_space_to_batch_paddings",
    "reshape",
    "reverse",
    "reverse_sequence",
    "roll",
    "saturate_cast",
    "scatter_nd",
    "searchsorted",
    "sequence_mask",
    "setdiff1d",
    "shape",
    "shape_n",
    "size",
    "slice",
    "space_to_batch",
    "space_to_batch_nd",
    "split",
    "squeeze",
    "stack",
    "stop_gradient",
    "strided_slice",
    "tensor_scatter_nd_add",
    "tensor_scatter_nd_max",
    "tensor_scatter_nd_min",
    "tensor_scatter_nd_sub",
    "tensor_scatter_nd_update",
    "tile",
    "transpose",
    "unique",
    "unique_with_counts",
    "unravel_index",
    "unstack",
    "where",
    "zeros",
    "zeros_like",
]

# Names TensorFlow also exports at the top level (tf.<name>). ``constant``
# and ``convert_to_tensor`` are bound in tfe_py/__init__.py (tfe_py.graph);
# ``setdiff1d`` is only tf.compat.v1's, kept here for tf.sets-style code.
TOPLEVEL: frozenset[str] = frozenset(__all__) - {"setdiff1d"}

_op = _api.op
_INT32 = as_dtype("int32")
_INT64 = as_dtype("int64")
_BOOL = as_dtype("bool")
_STRING = as_dtype("string")
_FLOAT32 = as_dtype("float32")


# ---------------------------------------------------------------------------
# Helpers


def _t(value: Any, dtype: Any = None, dtype_hint: Any = None) -> Any:
    """``value`` as a tensor of the current mode (tf.convert_to_tensor)."""
    if isinstance(value, Tensor) and dtype is None:
        return value
    return _api.tensor(value, dtype, dtype_hint)


def _static(t: Any) -> TensorShape:
    """The static shape of tensor ``t`` (unknown rank when not known)."""
    s = t.shape
    return s if isinstance(s, TensorShape) else TensorShape(s)


def _dims(t: Any, out_type: Any = _INT32) -> list[Any]:
    """Per dimension of ``t``: the int when statically known, else a scalar
    tensor taken from a Shape op (``t`` must have a known rank)."""
    s = _static(t)
    if s.rank is None:
        raise ValueError("the rank of the tensor must be known here")
    dims: list[Any] = list(s)
    if any(d is None for d in dims):
        dyn = _op("Shape")(t, out_type=out_type)
        dims = [dyn[i] if d is None else d for i, d in enumerate(dims)]
    return dims


def _ints(value: Any) -> Any:
    """A shape/axis/index argument made ready for an op: an empty list or
    tuple as an int32 vector (TF converts it with the int32 default of the
    op's index type attr; tfe's generic conversion would make float32 of
    it), a list holding tensors (``[tf.shape(x)[0], -1]``) packed into one
    tensor as TF's autopacking does."""
    if isinstance(value, (list, tuple)) and not isinstance(value, TensorShape):
        if not value:
            return np.zeros([0], np.int32)
        if any(isinstance(v, (Tensor, list, tuple)) for v in value):
            return _t(value)
    return value


def _shape_arg(dims: Sequence[Any], dtype: Any = _INT32) -> Any:
    """A shape vector from ints and scalar tensors: the list itself when all
    are ints, else one Pack op."""
    if all(isinstance(d, (int, np.integer)) for d in dims):
        return [int(d) for d in dims]
    return _op("Pack")([_t(d, dtype) if not isinstance(d, Tensor) else d for d in dims])


def _is_eager_tensor(value: Any) -> bool:
    return isinstance(value, Tensor) and not hasattr(value, "op")


def _executing_eagerly() -> bool:
    from tfe_py.context import _state

    return _state.graph is None


# ---------------------------------------------------------------------------
# Creation


def fill(dims: Any, value: Any, name: str | None = None, layout: Any = None) -> Any:
    """A tensor of shape ``dims`` with every element ``value`` (tf.fill)."""
    del layout
    return _op("Fill")(_ints(dims), value, name=name)


def _shape_for_fill(shape: Any) -> Any:
    """``shape`` as tf.zeros/tf.ones read it: a TensorShape-like value
    becomes an int32 vector (int64 when a dimension needs it); a tensor is
    used as it is; a scalar becomes a vector of one."""
    if not isinstance(shape, Tensor):
        try:
            ts = TensorShape(shape)
            if not ts.is_fully_defined():
                raise ValueError("partially known shape")
            dims = [int(d) for d in ts]  # type: ignore[arg-type]
            big = any(d >= 2**31 for d in dims)
            shape = _t(np.array(dims, np.int64 if big else np.int32))
        except (TypeError, ValueError):
            shape = _t(shape, _INT32)
    s = _static(shape)
    if s.rank == 0:
        shape = _op("Reshape")(shape, [-1])
    return shape


def _zero_of(dtype: DType) -> Any:
    if dtype == _BOOL:
        return False
    if dtype == _STRING:
        return ""
    return 0


def zeros(shape: Any, dtype: Any = _FLOAT32, name: str | None = None, layout: Any = None) -> Any:
    """A tensor of ``shape`` filled with zeros (False, "" for bool, string)."""
    del layout
    dt = as_dtype(dtype).base_dtype
    shape_t = _shape_for_fill(shape)
    return _op("Fill")(shape_t, _t(_zero_of(dt), dt), name=name)


def ones(shape: Any, dtype: Any = _FLOAT32, name: str | None = None, layout: Any = None) -> Any:
    """A tensor of ``shape`` filled with ones (True for bool)."""
    del layout
    dt = as_dtype(dtype).base_dtype
    one = True if dt == _BOOL else 1
    shape_t = _shape_for_fill(shape)
    return _op("Fill")(shape_t, _t(one, dt), name=name)


def zeros_like(
    input: Any,
    dtype: Any = None,
    name: str | None = None,
    layout: Any = None,
) -> Any:
    """Zeros with the shape of ``input``, of its dtype or ``dtype``."""
    del layout
    x = _t(input)
    if dtype is not None and as_dtype(dtype) != x.dtype:
        return zeros(shape(x), dtype=dtype, name=name)
    return _op("ZerosLike")(x, name=name)


def ones_like(
    input: Any,
    dtype: Any = None,
    name: str | None = None,
    layout: Any = None,
) -> Any:
    """Ones with the shape of ``input``, of its dtype or ``dtype``."""
    del layout
    x = _t(input)
    if dtype is not None and as_dtype(dtype) != x.dtype:
        return ones(shape(x), dtype=dtype, name=name)
    return _op("OnesLike")(x, name=name)


_RANGE_ORDER = ("int32", "int64", "float16", "bfloat16", "float32", "float64")


def range(
    start: Any,
    limit: Any = None,
    delta: Any = 1,
    dtype: Any = None,
    name: str = "range",
) -> Any:
    """``[start, start + delta, ...)`` up to ``limit`` (tf.range); one
    argument is the limit. Without ``dtype`` the widest of the three
    arguments' dtypes wins (int32 < int64 < float16 < bfloat16 < float32 <
    float64)."""
    if limit is None:
        start, limit = 0, start
    args = [a if isinstance(a, Tensor) else _t(a, dtype) for a in (start, limit, delta)]
    if dtype is None:
        names = [a.dtype.name for a in args]
        if not all(n in _RANGE_ORDER for n in names):
            raise AssertionError(
                f"tf.range: argument dtypes {names} are not among {list(_RANGE_ORDER)}"
            )
        dt = as_dtype(builtins.max(names, key=_RANGE_ORDER.index))
    else:
        dt = as_dtype(dtype)
    args = [cast(a, dt) for a in args]
    return _op("Range")(*args, name=name)


def linspace(start: Any, stop: Any, num: Any, name: str | None = None, axis: int = 0) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop`` (both
    included) along ``axis``; ``start`` and ``stop`` may be tensors that
    broadcast (tf.linspace, TF's linspace_nd: the same ops, so the same
    rounding)."""
    del name
    start_t = _t(start)
    stop_t = _t(stop, start_t.dtype)
    num_int = _int_tensor(num, "num")
    bshape = _op("BroadcastArgs")(shape(start_t), shape(stop_t))
    start_b = _op("BroadcastTo")(start_t, bshape)
    stop_b = _op("BroadcastTo")(stop_t, bshape)
    ex_start = _op("ExpandDims")(start_b, axis)
    ex_stop = _op("ExpandDims")(stop_b, axis)
    ex_shape = shape(ex_start)
    ndims = _op("Shape")(ex_shape)[0]
    axis_t = _op("SelectV2")(_t(axis >= 0), _t(axis), ndims + axis)
    num_fill = _op("Maximum")(num_int - 2, 0)
    n_steps = _op("Maximum")(num_int - 1, 1)
    delta = (ex_stop - ex_start) / cast(n_steps, ex_stop.dtype)
    ex_start = cast(ex_start, delta.dtype)
    ex_stop = cast(ex_stop, delta.dtype)
    range_end = _op("SelectV2")(num_int >= 0, n_steps, -1)
    desired = cast(range(1, range_end, dtype=_INT64), delta.dtype)
    mask = _op("Equal")(axis_t, range(ndims))
    desired_shape = _op("SelectV2")(mask, num_fill, 1)
    desired = _op("Reshape")(desired, desired_shape)
    res = ex_start + delta * desired
    joined = _op("ConcatV2")([ex_start, res, ex_stop], axis_t)
    begin = _op("ZerosLike")(ex_shape)
    size_v = _op("ConcatV2")(
        [ex_shape[0:axis_t], _op("Reshape")(num_int, [1]), ex_shape[axis_t + 1 :]], 0
    )
    return _op("Slice")(joined, begin, size_v)


def _int_tensor(value: Any, name: str, dtype: Any = _INT32) -> Any:
    """TF's convert_to_int_tensor: an integer tensor cast to ``dtype``;
    TypeError for other dtypes."""
    t = _t(value, dtype_hint=dtype)
    if not t.dtype.is_integer:
        raise TypeError(
            f"Argument `tensor` (name: {name}) must be of type integer. "
            f"Received `tensor` = {t} of dtype: {t.dtype}"
        )
    return cast(t, dtype) if dtype is not None else t


def one_hot(
    indices: Any,
    depth: Any,
    on_value: Any = None,
    off_value: Any = None,
    axis: Any = None,
    dtype: Any = None,
    name: str | None = None,
) -> Any:
    """One-hot vectors for ``indices`` (tf.one_hot): ``on_value`` (1) at the
    index, ``off_value`` (0) elsewhere; out-of-range indices give all off.
    The dtype comes from ``dtype``, else the on/off values, else float32."""
    dt = None if dtype is None else as_dtype(dtype)
    on_t = None if on_value is None else _t(on_value, dtype_hint=dt)
    off_t = None if off_value is None else _t(off_value, dtype_hint=dt)
    if on_t is not None or off_t is not None:
        if dt is not None:
            if on_t is not None and on_t.dtype != dt:
                raise TypeError(
                    f"dtype {on_t.dtype!s} of on_value does not match dtype parameter {dt!s}"
                )
            if off_t is not None and off_t.dtype != dt:
                raise TypeError(
                    f"dtype {off_t.dtype!s} of off_value does not match dtype parameter {dt!s}"
                )
        else:
            dt = on_t.dtype if on_t is not None else off_t.dtype
    elif dt is None:
        dt = _FLOAT32
    if on_t is None:
        on_t = _t(1, dt)
    if off_t is None:
        off_t = _t(0, dt)
    if on_t.dtype != off_t.dtype:
        raise TypeError(
            f"dtype {on_t.dtype!s} of on_value does not match dtype {off_t.dtype!s} of off_value"
        )
    return _op("OneHot")(indices, depth, on_t, off_t, axis=axis, name=name)


def identity(input: Any, name: str | None = None) -> Any:
    """A tensor with the value of ``input`` (tf.identity)."""
    return _op("Identity")(_t(input), name=name)


def identity_n(input: Any, name: str | None = None) -> Any:
    """The tensors of the list ``input``, each as tf.identity gives it."""
    return list(_op("IdentityN")([_t(v) for v in input], name=name))


def stop_gradient(input: Any, name: str | None = None) -> Any:
    """``input`` unchanged (gradients do not flow through it)."""
    return _op("StopGradient")(input, name=name)


def guarantee_const(input: Any, name: str | None = None) -> Any:
    """``input`` unchanged (a hint that it is constant)."""
    return _op("GuaranteeConst")(input, name=name)


# ---------------------------------------------------------------------------
# Shapes


def shape(input: Any, out_type: Any = None, name: str | None = None) -> Any:
    """The shape of ``input`` as a 1-D int32 (or ``out_type``) tensor."""
    return _op("Shape")(_t(input), out_type=_INT32 if out_type is None else out_type, name=name)


def shape_n(input: Any, out_type: Any = _INT32, name: str | None = None) -> Any:
    """The shapes of the tensors of the list ``input``."""
    return list(_op("ShapeN")([_t(v) for v in input], out_type=out_type, name=name))


def size(input: Any, out_type: Any = None, name: str | None = None) -> Any:
    """The number of elements of ``input`` as a scalar int32 (or
    ``out_type``) tensor."""
    return _op("Size")(_t(input), out_type=_INT32 if out_type is None else out_type, name=name)


def rank(input: Any, name: str | None = None) -> Any:
    """The number of dimensions of ``input`` as a scalar int32 tensor."""
    return _op("Rank")(_t(input), name=name)


def reshape(tensor: Any, shape: Any, name: str | None = None) -> Any:
    """``tensor`` with the same elements in ``shape`` (one dimension may be
    -1: inferred)."""
    return _op("Reshape")(tensor, _ints(shape), name=name)


def broadcast_to(input: Any, shape: Any, name: str | None = None) -> Any:
    """``input`` broadcast to ``shape`` by numpy's rules."""
    return _op("BroadcastTo")(input, _ints(shape), name=name)


def broadcast_dynamic_shape(shape_x: Any, shape_y: Any) -> Any:
    """The broadcast of two shape vectors (BroadcastArgs)."""
    return _op("BroadcastArgs")(shape_x, shape_y)


def broadcast_static_shape(shape_x: Any, shape_y: Any) -> TensorShape:
    """The broadcast of two TensorShapes; unknown when either rank is, an
    unknown dimension where the result cannot be told, ValueError when they
    do not broadcast."""
    sx, sy = TensorShape(shape_x), TensorShape(shape_y)
    if sx.rank is None or sy.rank is None:
        return TensorShape(None)
    a, b = list(sx), list(sy)
    n = builtins.max(len(a), len(b))
    a = [1] * (n - len(a)) + a
    b = [1] * (n - len(b)) + b
    out: list[int | None] = []
    for x, y in zip(a, b, strict=True):
        if x is None or y is None:
            if x is not None and x > 1:
                out.append(x)
            elif y is not None and y > 1:
                out.append(y)
            else:
                out.append(None)
        elif x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            raise ValueError(
                "Incompatible shapes for broadcasting. Two shapes are compatible if for "
                "each dimension pair they are either equal or one of them is 1. "
                f"Received: {sx} and {sy}."
            )
    return TensorShape(out)


def ensure_shape(x: Any, shape: Any, name: str | None = None) -> Any:
    """``x`` itself, after checking that its shape is compatible with
    ``shape`` (InvalidArgumentError when not)."""
    ts = shape if isinstance(shape, TensorShape) else TensorShape(shape)
    return _op("EnsureShape")(x, shape=ts, name=name)


def expand_dims(input: Any, axis: Any, name: str | None = None) -> Any:
    """``input`` with a dimension of size 1 inserted at ``axis``."""
    return _op("ExpandDims")(input, _ints(axis), name=name)


def squeeze(input: Any, axis: Any = None, name: str | None = None) -> Any:
    """``input`` without its size-1 dimensions (or only those of ``axis``)."""
    if axis is not None and np.isscalar(axis):
        axis = [axis]
    return _op("Squeeze")(input, squeeze_dims=None if axis is None else list(axis), name=name)


def transpose(a: Any, perm: Any = None, conjugate: bool = False, name: str = "transpose") -> Any:
    """``a`` with its dimensions permuted by ``perm`` (reversed by default);
    ``conjugate=True`` also conjugates complex values."""
    x = _t(a)
    fn = _op("ConjugateTranspose") if conjugate and x.dtype.is_complex else _op("Transpose")
    if perm is None:
        r = _static(x).rank
        if r is None:
            perm = _op("Range")(_op("Rank")(x) - 1, -1, -1)
        else:
            perm = np.arange(r - 1, -1, -1, dtype=np.int32)
    return fn(x, _ints(perm), name=name)


# ---------------------------------------------------------------------------
# Joining and splitting


def concat(values: Any, axis: Any, name: str = "concat") -> Any:
    """The tensors of ``values`` joined along ``axis``."""
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) == 1:
        ax = _t(axis, _INT32)
        r = _static(ax).rank
        if r is not None and r != 0:
            raise ValueError(f"Shape {_static(ax)} must have rank 0")
        return identity(values[0])
    return _op("ConcatV2")(list(values), _ints(axis), name=name)


def stack(values: Any, axis: int = 0, name: str = "stack") -> Any:
    """The tensors of ``values`` (same shape) stacked along a new ``axis``."""
    if isinstance(values, Tensor) and axis == 0:
        return values
    if axis == 0 and not any(isinstance(v, Tensor) for v in _flat(values)):
        try:
            return _t(values)
        except (TypeError, ValueError, NotImplementedError):
            pass
    first = _t(values[0])
    s = _static(first)
    if s.rank is not None:
        n = s.rank + 1
        if axis < -n or axis >= n:
            raise ValueError(f"Argument `axis` = {axis} not in range [{-n}, {n})")
    return _op("Pack")(list(values), axis=axis, name=name)


def _flat(values: Any) -> list[Any]:
    out: list[Any] = []
    stack_: list[Any] = [values]
    while stack_:
        v = stack_.pop()
        if isinstance(v, (list, tuple)):
            stack_.extend(v)
        else:
            out.append(v)
    return out


def parallel_stack(values: Any, name: str = "parallel_stack") -> Any:
    """tf.parallel_stack: graph mode only, as in TF (RuntimeError eagerly).
    tfe builds it as a Pack (the same values; TF's ParallelConcat only
    differs in scheduling)."""
    if _executing_eagerly():
        raise RuntimeError("tf.parallel_stack() is not compatible with eager execution.")
    return _op("Pack")([_t(v) for v in values], axis=0)


def unstack(value: Any, num: int | None = None, axis: int = 0, name: str = "unstack") -> Any:
    """The slices of ``value`` along ``axis``, as a list."""
    x = _t(value)
    if num is None:
        s = _static(x)
        if s.rank is not None:
            if axis < -s.rank or axis >= s.rank:
                raise ValueError(f"Argument `axis` = {axis} not in range [{-s.rank}, {s.rank})")
            num = s[axis]
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {s}")
    return list(_op("Unpack")(x, num=num, axis=axis, name=name))


def split(
    value: Any, num_or_size_splits: Any, axis: Any = 0, num: int | None = None, name: str = "split"
) -> Any:
    """``value`` cut along ``axis`` into ``num_or_size_splits`` equal parts
    (an int) or parts of the given sizes (one may be -1)."""
    if isinstance(num_or_size_splits, numbers.Integral):
        return list(_op("Split")(axis, value, num_split=int(num_or_size_splits), name=name))
    sizes = _t(num_or_size_splits)
    s = _static(sizes)
    if s.rank == 0:
        raise ValueError(
            "Rank-0 tensors are not supported as the num_or_size_splits argument to split. "
            f"Argument provided: {num_or_size_splits!s}"
        )
    if num is None:
        if s.rank:
            num = s[0]
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {num_or_size_splits}")
    return list(_op("SplitV")(value, sizes, axis, num_split=num, name=name))


def tile(input: Any, multiples: Any, name: str | None = None) -> Any:
    """``input`` repeated ``multiples[i]`` times along dimension i."""
    return _op("Tile")(input, _ints(multiples), name=name)


def pad(
    tensor: Any,
    paddings: Any,
    mode: str = "CONSTANT",
    constant_values: Any = 0,
    name: str | None = None,
) -> Any:
    """``tensor`` padded by ``paddings`` ([[before, after], ...] per
    dimension): with ``constant_values`` (mode CONSTANT) or mirrored
    (REFLECT excludes the edge, SYMMETRIC includes it)."""
    mode = mode.upper()
    if mode == "CONSTANT":
        if (
            not isinstance(constant_values, Tensor)
            and np.ndim(constant_values) == 0
            and constant_values == np.zeros_like(constant_values)
        ):
            return _op("Pad")(tensor, _ints(paddings), name=name)
        return _op("PadV2")(tensor, _ints(paddings), constant_values, name=name)
    if mode in ("REFLECT", "SYMMETRIC"):
        return _op("MirrorPad")(tensor, _ints(paddings), mode=mode, name=name)
    raise ValueError(
        'Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or "SYMMETRIC". '
        f"Received `mode` = {mode}"
    )


def reverse(tensor: Any, axis: Any, name: str | None = None) -> Any:
    """``tensor`` with the dimensions of ``axis`` reversed."""
    return _op("ReverseV2")(tensor, _ints(axis), name=name)


def reverse_sequence(
    input: Any,
    seq_lengths: Any,
    seq_axis: int | None = None,
    batch_axis: int | None = None,
    name: str | None = None,
) -> Any:
    """For each batch entry b, the first ``seq_lengths[b]`` elements along
    ``seq_axis`` reversed."""
    if seq_axis is None:
        raise TypeError("Expected int for argument 'seq_dim' not None.")
    return _op("ReverseSequence")(
        input, seq_lengths, seq_dim=seq_axis, batch_dim=batch_axis, name=name
    )


def roll(input: Any, shift: Any, axis: Any, name: str | None = None) -> Any:
    """``input`` rotated by ``shift`` along ``axis`` (both may be lists)."""
    return _op("Roll")(input, _ints(shift), _ints(axis), name=name)


def slice(input_: Any, begin: Any, size: Any, name: str | None = None) -> Any:
    """The block of ``input_`` starting at ``begin`` of ``size`` (-1: to
    the end)."""
    return _op("Slice")(input_, _ints(begin), _ints(size), name=name)


def strided_slice(
    input_: Any,
    begin: Any,
    end: Any,
    strides: Any = None,
    begin_mask: int = 0,
    end_mask: int = 0,
    ellipsis_mask: int = 0,
    new_axis_mask: int = 0,
    shrink_axis_mask: int = 0,
    var: Any = None,
    name: str | None = None,
) -> Any:
    """TF's StridedSlice with its masks (``t[...]`` is this op)."""
    del var
    if strides is None:
        strides = ones_like(begin)
    return _op("StridedSlice")(
        input_,
        _ints(begin),
        _ints(end),
        _ints(strides),
        begin_mask=begin_mask,
        end_mask=end_mask,
        ellipsis_mask=ellipsis_mask,
        new_axis_mask=new_axis_mask,
        shrink_axis_mask=shrink_axis_mask,
        name=name,
    )


# ---------------------------------------------------------------------------
# Gather / scatter / masks


def gather(
    params: Any,
    indices: Any,
    validate_indices: Any = None,
    axis: Any = None,
    batch_dims: int = 0,
    name: str | None = None,
) -> Any:
    """The slices of ``params`` at ``indices`` along ``axis`` (default
    ``batch_dims``), with ``batch_dims`` leading batch dimensions."""
    del validate_indices
    if axis is None:
        axis = batch_dims
    if batch_dims == 0:  # the attr's default: the wrapper's fast path
        return _op("GatherV2")(params, _ints(indices), _ints(axis), name=name)
    return _op("GatherV2")(params, _ints(indices), _ints(axis), batch_dims=batch_dims, name=name)


def gather_nd(
    params: Any,
    indices: Any,
    batch_dims: Any = 0,
    name: str | None = None,
    bad_indices_policy: str = "",
) -> Any:
    """Slices of ``params`` addressed by the last dimension of ``indices``
    (index tuples), after ``batch_dims`` leading batch dimensions."""
    kw: dict[str, Any] = {}
    if bad_indices_policy:
        kw["bad_indices_policy"] = bad_indices_policy
    bd = int(batch_dims.numpy()) if _is_eager_tensor(batch_dims) else int(batch_dims)
    if bd == 0:
        return _op("GatherNd")(params, indices, name=name, **kw)
    return _batch_gather_nd(_t(params), _t(indices), bd, kw)


def _batch_gather_nd(params: Any, indices: Any, batch_dims: int, kw: dict[str, Any]) -> Any:
    """gather_nd with leading batch dimensions: the batch dimensions are
    merged into one, each index tuple gets its batch position prepended, and
    one GatherNd does the rest."""
    pdims = _dims(params)
    idims = _dims(indices)
    if batch_dims < 0 or batch_dims >= len(pdims) or batch_dims >= len(idims):
        raise ValueError(
            f"Argument `batch_dims` = {batch_dims} must be less than rank(`indices`) = "
            f"{len(idims)} and rank(`params`) = {len(pdims)}"
        )
    batch = idims[:batch_dims]
    nbatch: Any = 1
    for d in batch:
        nbatch = nbatch * d
    flat_params = reshape(params, _shape_arg([nbatch, *pdims[batch_dims:]]))
    mid = idims[batch_dims:-1]
    flat_idx = reshape(indices, _shape_arg([nbatch, *mid, idims[-1]]))
    pos = cast(range(nbatch), indices.dtype)
    pos = reshape(pos, _shape_arg([nbatch, *([1] * len(mid)), 1]))
    pos = _op("BroadcastTo")(pos, _shape_arg([nbatch, *mid, 1]))
    full_idx = _op("ConcatV2")([pos, flat_idx], -1)
    out = _op("GatherNd")(flat_params, full_idx, **kw)
    odims = _dims(out)
    return reshape(out, _shape_arg([*batch, *odims[1:]]))


def scatter_nd(indices: Any, updates: Any, shape: Any, name: str | None = None) -> Any:
    """A zero tensor of ``shape`` with ``updates`` added at ``indices``."""
    return _op("ScatterNd")(indices, updates, _ints(shape), name=name)


def tensor_scatter_nd_update(
    tensor: Any, indices: Any, updates: Any, name: str | None = None
) -> Any:
    """A copy of ``tensor`` with ``updates`` written at ``indices``."""
    return _op("TensorScatterUpdate")(tensor, indices, updates, name=name)


def tensor_scatter_nd_add(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Any:
    """A copy of ``tensor`` with ``updates`` added at ``indices``."""
    return _op("TensorScatterAdd")(tensor, indices, updates, name=name)


def tensor_scatter_nd_sub(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Any:
    """A copy of ``tensor`` with ``updates`` subtracted at ``indices``."""
    return _op("TensorScatterSub")(tensor, indices, updates, name=name)


def tensor_scatter_nd_min(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Any:
    """A copy of ``tensor`` with the minimum of it and ``updates`` at ``indices``."""
    return _op("TensorScatterMin")(tensor, indices, updates, name=name)


def tensor_scatter_nd_max(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Any:
    """A copy of ``tensor`` with the maximum of it and ``updates`` at ``indices``."""
    return _op("TensorScatterMax")(tensor, indices, updates, name=name)


def where(condition: Any, x: Any = None, y: Any = None, name: str | None = None) -> Any:
    """With one argument, the coordinates of the true (non-zero) elements
    of ``condition`` as an int64 [n, rank] tensor; with three, the elements
    of ``x`` where ``condition`` is true and of ``y`` elsewhere
    (broadcasting)."""
    if x is None and y is None:
        return _op("Where")(_t(condition, dtype_hint=_BOOL), name=name)
    if x is not None and y is not None:
        return _op("SelectV2")(condition, x, y, name=name)
    raise ValueError("x and y must both be non-None or both be None.")


def boolean_mask(tensor: Any, mask: Any, axis: Any = None, name: str = "boolean_mask") -> Any:
    """The elements (or slices) of ``tensor`` where the boolean ``mask``
    (matching dimensions ``axis...``) is true, flattened into one
    dimension."""
    x = _t(tensor)
    m = _t(mask)
    ms = _static(m)
    if ms.rank == 0:
        raise ValueError("mask cannot be scalar.")
    if ms.rank is None:
        raise ValueError(
            "Number of mask dimensions must be specified, even if some dimensions are None.  "
            "E.g. shape=[None] is ok, but shape=None is not."
        )
    nd = ms.rank
    ax = 0 if axis is None else axis
    if _is_eager_tensor(ax):
        ax = int(ax.numpy())
    xs = _static(x)
    if xs.rank is not None:
        xs[ax : ax + nd].assert_is_compatible_with(ms)
    dims = _dims(x)
    lead: Any = 1
    for d in dims[ax : ax + nd]:
        lead = lead * d
    x = reshape(x, _shape_arg([*dims[:ax], lead, *dims[ax + nd :]]))
    flat_mask = reshape(m, [-1])
    idx = _op("Squeeze")(_op("Where")(flat_mask), squeeze_dims=[1])
    return _op("GatherV2")(x, idx, ax)


def sequence_mask(
    lengths: Any, maxlen: Any = None, dtype: Any = _BOOL, name: str | None = None
) -> Any:
    """``mask[i..., j] = j < lengths[i...]`` for j in [0, maxlen) (maxlen:
    the largest length by default)."""
    lengths_t = _t(lengths)
    if maxlen is None:
        r = _static(lengths_t).rank
        axes = np.arange(r, dtype=np.int32) if r is not None else range(0, rank(lengths_t))
        maxlen_t = _op("Max")(lengths_t, axes)
        maxlen_t = _op("Maximum")(_t(0, maxlen_t.dtype), maxlen_t)
    else:
        maxlen_t = _t(maxlen)
    mr = _static(maxlen_t).rank
    if mr is not None and mr != 0:
        raise ValueError(
            "Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = "
            f"{maxlen_t} with shape '{_static(maxlen_t)}' instead"
        )
    row = _op("Range")(_t(0, maxlen_t.dtype), maxlen_t, _t(1, maxlen_t.dtype))
    matrix = _op("Cast")(_op("ExpandDims")(lengths_t, -1), DstT=maxlen_t.dtype)
    result = _op("Less")(row, matrix)
    if dtype is None or as_dtype(dtype) == _BOOL:
        return result
    return _op("Cast")(result, DstT=as_dtype(dtype))


def searchsorted(
    sorted_sequence: Any,
    values: Any,
    side: str = "left",
    out_type: Any = _INT32,
    name: str | None = None,
) -> Any:
    """For each row of ``values``, where its elements would go into the
    matching row of ``sorted_sequence`` (``side``: before or after equal
    elements)."""
    seq = _t(sorted_sequence)
    vals = _t(values)
    if _static(seq).rank == 0 or _static(vals).rank == 0:
        # TF reads shape[-1] with a StridedSlice, which fails for scalars.
        shape(seq if _static(seq).rank == 0 else vals)[-1]
    seq2 = reshape(seq, _shape_arg([-1, _dims(seq)[-1]]))
    vals2 = reshape(vals, _shape_arg([-1, _dims(vals)[-1]]))
    if side == "right":
        out = _op("UpperBound")(seq2, vals2, out_type=out_type)
    elif side == "left":
        out = _op("LowerBound")(seq2, vals2, out_type=out_type)
    else:
        raise ValueError(
            f"Argument `side` must be either 'right' or 'left'. Received: `side` = '{side}'."
        )
    return reshape(out, shape(vals))


def _positive_axis(axis: Any, ndims: int | None, ndims_name: str = "ndims") -> int:
    if not isinstance(axis, int):
        raise TypeError(f"axis must be an int; got {type(axis).__name__}")
    if ndims is not None:
        if 0 <= axis < ndims:
            return axis
        if -ndims <= axis < 0:
            return axis + ndims
        raise ValueError(f"axis={axis} out of bounds: expected {-ndims}<=axis<{ndims}")
    if axis < 0:
        raise ValueError(f"axis={axis} may only be negative if {ndims_name} is statically known.")
    return axis


def _tile_one(data: Any, axis: int, multiple: Any) -> Any:
    r = _static(data).rank
    assert r is not None
    mult: list[Any] = [1] * r
    mult[axis] = multiple
    return _op("Tile")(data, _shape_arg(mult))


def repeat(input: Any, repeats: Any, axis: Any = None, name: str | None = None) -> Any:
    """Each element (or slice along ``axis``) of ``input`` repeated
    ``repeats`` times (an int, or one count per slice); no axis: over the
    flattened input."""
    if axis is None:
        input = reshape(input, [-1])
        axis = 0
    if not isinstance(axis, int):
        raise TypeError(
            f"Argument `axis` must be an int. Received `axis` = {axis} of type "
            f"{type(axis).__name__}"
        )
    data = _t(input)
    reps = _int_tensor(repeats, "repeats")
    _static(reps).with_rank_at_most(1)
    if _static(data).rank == 0:
        data = _op("Pack")([data])
    ddims = _dims(data)
    ax = _positive_axis(axis, _static(data).rank, "rank(data)")
    rs = _static(reps)
    if rs.num_elements() == 1:
        r = reshape(reps, _ints([]))
        tiled = _tile_one(_op("ExpandDims")(data, ax + 1), ax + 1, r)
        return reshape(tiled, _shape_arg([*ddims[:ax], r * ddims[ax], *ddims[ax + 1 :]]))
    if rs.rank == 1:
        dim = _static(data)[ax]
        if dim is not None and rs[0] is not None and dim != rs[0]:
            raise ValueError(f"Dimensions {dim} and {rs[0]} are not compatible")
    reps = _op("BroadcastTo")(reps, _shape_arg([ddims[ax]]))
    reps_orig = reps
    if ax != 0:
        reps = _op("BroadcastTo")(reps, _shape_arg(ddims[: ax + 1]))
    axes = np.arange(_static(reps).rank, dtype=np.int32)
    max_rep = _op("Maximum")(_t(0, reps.dtype), _op("Max")(reps, axes))
    mask = sequence_mask(reps, max_rep)
    tiled = _tile_one(_op("ExpandDims")(data, ax + 1), ax + 1, max_rep)
    masked = boolean_mask(tiled, mask)
    if ax == 0:
        return masked
    total = _op("Sum")(reps_orig, np.arange(_static(reps_orig).rank, dtype=np.int32))
    return reshape(masked, _shape_arg([*ddims[:ax], total, *ddims[ax + 1 :]]))


def meshgrid(*args: Any, **kwargs: Any) -> list[Any]:
    """Coordinate grids from 1-D ``args``; ``indexing="xy"`` (Cartesian,
    the default: the first two outputs swap their roles) or ``"ij"``
    (matrix)."""
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        key = next(iter(kwargs))
        raise TypeError(f"'{key}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError(
            f"Argument `indexing` parameter must be either 'xy' or 'ij', got '{indexing}'"
        )
    ndim = len(args)
    if not ndim:
        return []
    ones_ = (1,) * ndim
    outs = []
    for i, x in enumerate(args):
        outs.append(reshape(stack(x), [*ones_[:i], -1, *ones_[i + 1 :]]))
    sizes: list[Any] = [size(x) for x in args]
    out_dtype = _t(args[0]).dtype
    if indexing == "xy" and ndim > 1:
        outs[0] = reshape(outs[0], [1, -1] + [1] * (ndim - 2))
        outs[1] = reshape(outs[1], [-1, 1] + [1] * (ndim - 2))
        sizes[0], sizes[1] = sizes[1], sizes[0]
    mult = ones(_op("Pack")(sizes), out_dtype)
    return [x * mult for x in outs]


# ---------------------------------------------------------------------------
# Casts


def cast(x: Any, dtype: Any, name: str | None = None) -> Any:
    """``x`` converted to ``dtype`` (a tensor of that dtype is returned as
    it is); floats to ints truncate toward zero, complex to real keeps the
    real part."""
    dt = as_dtype(dtype).base_dtype
    if isinstance(x, Tensor) and x.dtype == dt:
        return x
    t = _t(x)
    if t.dtype == dt:
        return t
    return _op("Cast")(t, DstT=dt, name=name)


def saturate_cast(value: Any, dtype: Any, name: str | None = None) -> Any:
    """``value`` cast to ``dtype`` after clamping it into that dtype's
    range (no wrap-around), as tf.saturate_cast."""
    v = _t(value)
    dt = as_dtype(dtype).base_dtype
    in_dt = v.dtype
    if in_dt.is_complex:
        if dt.is_complex:
            ri, ro = in_dt.real_dtype, dt.real_dtype
            if ri.min < ro.min or ri.max > ro.max:
                v = _op("ClipByValue")(
                    v,
                    _t(builtins.complex(ro.min, ro.min), in_dt),
                    _t(builtins.complex(ro.max, ro.max), in_dt),
                )
            return cast(v, dt)
        v = _op("Real")(v, Tout=in_dt.real_dtype)
        in_dt = in_dt.real_dtype
    out_real = dt.real_dtype
    np_in = in_dt.as_numpy_dtype
    try:
        promoted_type: Any = np.promote_types(np_in, out_real.as_numpy_dtype)
    except TypeError:
        promoted_type = float
    lo = np_in(np.maximum(in_dt.min, out_real.min))
    if (
        np.array([lo, out_real.min], dtype=promoted_type)[0]
        < np.array([lo, out_real.min], dtype=promoted_type)[1]
    ):
        lo = np.nextafter(lo, np_in(0), dtype=np_in)
    hi = np_in(np.minimum(float(in_dt.max), float(out_real.max)))
    if (
        np.array([hi, out_real.max], dtype=promoted_type)[0]
        > np.array([hi, out_real.max], dtype=promoted_type)[1]
    ):
        hi = np.nextafter(hi, np_in(0), dtype=np_in)
    v = _op("ClipByValue")(v, _t(lo, in_dt), _t(hi, in_dt))
    return cast(v, dt)


def bitcast(input: Any, type: Any, name: str | None = None) -> Any:
    """The bytes of ``input`` reinterpreted as ``type`` (the last dimension
    grows or shrinks by the size ratio)."""
    return _op("Bitcast")(input, type=as_dtype(type), name=name)


# ---------------------------------------------------------------------------
# Misc ops


def unique(x: Any, out_idx: Any = _INT32, name: str | None = None) -> Any:
    """``(y, idx)``: the distinct values of 1-D ``x`` in first-seen order
    and, per element, its position in ``y``."""
    return _op("Unique")(x, out_idx=out_idx, name=name)


def unique_with_counts(x: Any, out_idx: Any = _INT32, name: str | None = None) -> Any:
    """``(y, idx, count)``: as :func:`unique` plus how often each value occurs."""
    return _op("UniqueWithCounts")(x, out_idx=out_idx, name=name)


def setdiff1d(x: Any, y: Any, index_dtype: Any = _INT32, name: str | None = None) -> Any:
    """``(out, idx)``: the values of ``x`` not in ``y`` and their positions."""
    return _op("ListDiff")(x, y, out_idx=index_dtype, name=name)


def unravel_index(indices: Any, dims: Any, name: str | None = None) -> Any:
    """The coordinates of flat ``indices`` in an array of shape ``dims``."""
    return _op("UnravelIndex")(indices, _ints(dims), name=name)


def dynamic_partition(
    data: Any, partitions: Any, num_partitions: int, name: str | None = None
) -> Any:
    """``data`` split into ``num_partitions`` tensors by the partition
    number of each (leading) element."""
    return list(_op("DynamicPartition")(data, partitions, num_partitions=num_partitions, name=name))


def dynamic_stitch(indices: Any, data: Any, name: str | None = None) -> Any:
    """Interleaves the ``data`` tensors into one: ``out[indices[m][i]] =
    data[m][i]`` (later entries win)."""
    return _op("DynamicStitch")(list(indices), list(data), name=name)


def batch_to_space(input: Any, block_shape: Any, crops: Any, name: str | None = None) -> Any:
    """BatchToSpaceND: moves batch blocks back into the spatial dimensions
    and crops them (an int ``block_shape`` means [b, b])."""
    if isinstance(block_shape, int):
        block_shape = np.array([block_shape, block_shape], dtype=np.int64)
    return _op("BatchToSpaceND")(input, block_shape, crops, name=name)


def space_to_batch_nd(
    input: Any,
    block_shape: Any,
    paddings: Any,
    name: str | None = None,
) -> Any:
    """SpaceToBatchND: pads the spatial dimensions and moves blocks of them
    into the batch dimension."""
    return _op("SpaceToBatchND")(input, block_shape, paddings, name=name)


def space_to_batch(
    input: Any,
    block_shape: Any,
    paddings: Any,
    name: str | None = None,
) -> Any:
    """Same as :func:`space_to_batch_nd` (tf.space_to_batch in TF 2)."""
    return space_to_batch_nd(input, block_shape, paddings, name)


def required_space_to_batch_paddings(
    input_shape: Any, block_shape: Any, base_paddings: Any = None, name: str | None = None
) -> tuple[Any, Any]:
    """``(paddings, crops)`` that make ``input_shape`` (plus
    ``base_paddings``) divisible by ``block_shape``, for space_to_batch."""
    ishape = _t(input_shape, _INT32)
    block = _t(block_shape, _INT32)
    bs = _static(block)
    if not bs.is_fully_defined():
        raise ValueError(f"Shape {bs} is not fully defined")
    if bs.rank != 1:
        raise ValueError(f"Shape {bs} must have rank 1")
    n = bs[0]
    assert n is not None
    if n == 0:
        return zeros([0, 2], _INT32), zeros([0, 2], _INT32)
    _static(ishape).assert_is_compatible_with([n])
    if base_paddings is not None:
        base = _t(base_paddings, _INT32)
        _static(base).assert_is_compatible_with([n, 2])
    else:
        base = zeros([n, 2], _INT32)
    pad_start = base[:, 0]
    orig_end = base[:, 1]
    full = ishape + pad_start + orig_end
    extra = _op("FloorMod")(block - _op("FloorMod")(full, block), block)
    pad_end = orig_end + extra
    paddings = _op("Pack")([pad_start, pad_end], axis=1)
    crops = _op("Pack")([zeros_like(extra), extra], axis=1)
    return paddings, crops


def fingerprint(data: Any, method: str = "farmhash64", name: str | None = None) -> Any:
    """An 8-byte fingerprint (uint8 [n, 8]) of each leading slice of ``data``."""
    return _op("Fingerprint")(data, method, name=name)


def histogram_fixed_width(
    values: Any,
    value_range: Any,
    nbins: Any = 100,
    dtype: Any = _INT32,
    name: str | None = None,
) -> Any:
    """Counts of ``values`` in ``nbins`` equal bins over ``value_range``
    (values outside go to the first or last bin)."""
    return _op("HistogramFixedWidth")(values, value_range, nbins, dtype=as_dtype(dtype), name=name)


def histogram_fixed_width_bins(
    values: Any,
    value_range: Any,
    nbins: Any = 100,
    dtype: Any = _INT32,
    name: str | None = None,
) -> Any:
    """The bin index of each of ``values`` for ``nbins`` equal bins over
    ``value_range`` (clamped to the first and last bin)."""
    del dtype  # TF's result is int32 whatever dtype says
    vals = _t(values)
    vshape = shape(vals)
    vals = reshape(vals, [-1])
    vrange = _t(value_range)
    nb = _t(nbins, _INT32)
    if _is_eager_tensor(nb) and not int(nb.numpy()) > 0:
        from tfe_py import errors

        raise errors.InvalidArgumentError(
            "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
            f"Summarized data: b'nbins {nb!s} must > 0'"
        )
    nb_f = cast(nb, vals.dtype)
    scaled = (vals - vrange[0]) / (vrange[1] - vrange[0])
    idx = _op("Floor")(nb_f * scaled)
    idx = _op("Maximum")(_op("Minimum")(idx, nb_f - 1), _t(0, idx.dtype))
    idx = cast(idx, _INT32)
    return reshape(idx, vshape)


def edit_distance(
    hypothesis: Any, truth: Any, normalize: bool = True, name: str = "edit_distance"
) -> Any:
    """Levenshtein distances between the sequences of two SparseTensors
    (anything with ``indices``, ``values``, ``dense_shape``)."""

    def sparse(value: Any) -> bool:
        return all(hasattr(value, a) for a in ("indices", "values", "dense_shape"))

    if not sparse(hypothesis):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not sparse(truth):
        raise TypeError("Truth must be a SparseTensor.")
    return _op("EditDistance")(
        hypothesis.indices,
        hypothesis.values,
        hypothesis.dense_shape,
        truth.indices,
        truth.values,
        truth.dense_shape,
        normalize=normalize,
    )


def extract_volume_patches(
    input: Any,
    ksizes: Any,
    strides: Any,
    padding: str,
    name: str | None = None,
) -> Any:
    """Patches of a 5-D ``input`` laid out in the depth dimension."""
    return _op("ExtractVolumePatches")(
        input, ksizes=list(ksizes), strides=list(strides), padding=padding, name=name
    )
