"""``tf.sort``, ``tf.argsort`` and the ``tf.clip_by_*`` functions.

Sorting runs op ``TopKV2`` over the whole axis, as TensorFlow does:
descending order directly, ascending order on negated values (``-x`` for
floats, ``-x - 1`` for signed integers, ``max - x`` for unsigned ones), so
ties keep their original order and NaNs land where TF puts them. The clip
functions are the same op sequences as TF's ``clip_ops``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tfe_py import _api
from tfe_py import ops as _ops

__all__ = [
    "argsort",
    "clip_by_global_norm",
    "clip_by_norm",
    "clip_by_value",
    "sort",
]

# Names TensorFlow also exports at the top level (tf.<name>).
TOPLEVEL: frozenset[str] = frozenset(
    {"argsort", "clip_by_global_norm", "clip_by_norm", "clip_by_value", "sort"}
)

_DIRECTIONS = ("ASCENDING", "DESCENDING")


def _shape(x: Any) -> tuple[Any, ...] | None:
    s = x.shape
    if s is None or getattr(s, "rank", 0) is None:
        return None
    return tuple(s)


def _static_axis(axis: Any) -> int:
    from tfe_py.tensor import Tensor

    value = axis
    if isinstance(axis, Tensor):
        try:
            value = axis.numpy()
        except Exception:  # graph tensor: not a constant we can read
            value = None
    arr = None if value is None else np.asarray(value)
    if arr is None or arr.ndim != 0 or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"Argument `axis` must be a constant scalar. Received: axis={axis}.")
    return int(arr)


def _descending(values: Any, axis: int, return_argsort: bool) -> Any:
    s = _shape(values)
    rank = None if s is None else len(s)
    if axis == -1 or (rank is not None and axis + 1 == rank):
        perm = None
        x = values
    else:
        if rank is None:
            raise NotImplementedError("tf.sort along an inner axis needs a known rank in tfe")
        if axis < 0:
            axis += rank
        perm = np.r_[np.arange(axis), [rank - 1], np.arange(axis + 1, rank - 1), [axis]]
        perm = perm.astype(np.int32)
        x = _ops.Transpose(values, perm)
    sx = _shape(x)
    if sx is not None and sx and sx[-1] is not None:
        k: Any = np.int32(sx[-1])
    else:
        k = _ops.StridedSlice(
            _ops.Shape(x, out_type="int32"), [-1], [0], [1], end_mask=1, shrink_axis_mask=1
        )
    top = _ops.TopKV2(x, k)
    out = top.indices if return_argsort else top.values
    if perm is not None:
        out = _ops.Transpose(out, perm)
    return out


def _sort_or_argsort(values: Any, axis: Any, direction: Any, return_argsort: bool) -> Any:
    if direction not in _DIRECTIONS:
        raise ValueError(
            "Argument `direction` should be one of ASCENDING, DESCENDING. "
            f"Received: direction={direction}"
        )
    ax = _static_axis(axis)
    values = _api.tensor(values)
    if direction == "DESCENDING":
        return _descending(values, ax, return_argsort)
    dt = values.dtype
    if dt.is_unsigned:
        off = _api.tensor(np.asarray(dt.max, dt.as_numpy_dtype))
        out = _descending(_ops.Sub(off, values), ax, return_argsort)
        return out if return_argsort else _ops.Sub(off, out)
    if dt.is_integer:
        one = _api.tensor(np.asarray(1, dt.as_numpy_dtype))
        out = _descending(_ops.Sub(_ops.Neg(values), one), ax, return_argsort)
        return out if return_argsort else _ops.Sub(_ops.Neg(out), one)
    out = _descending(_ops.Neg(values), ax, return_argsort)
    return out if return_argsort else _ops.Neg(out)


def sort(values: Any, axis: Any = -1, direction: str = "ASCENDING", name: str | None = None) -> Any:
    """``values`` sorted along ``axis`` (a constant int) in ``direction``
    ('ASCENDING' or 'DESCENDING')."""
    return _sort_or_argsort(values, axis, direction, False)


def argsort(
    values: Any,
    axis: Any = -1,
    direction: str = "ASCENDING",
    stable: bool = False,
    name: str | None = None,
) -> Any:
    """int32 indices that sort ``values`` along ``axis``. The sort is
    always stable (equal values keep their order), as TF's."""
    del stable
    return _sort_or_argsort(values, axis, direction, True)


def _check_compatible(a: Any, b: Any) -> None:
    sa, sb = _shape(a), _shape(b)
    if sa is None or sb is None:
        return
    if len(sa) != len(sb) or any(
        x is not None and y is not None and x != y for x, y in zip(sa, sb, strict=False)
    ):
        raise ValueError(f"Shapes {_fmt(sa)} and {_fmt(sb)} are incompatible")


def _fmt(s: tuple[Any, ...]) -> str:
    if len(s) == 1:
        return f"({s[0]},)"
    return "(" + ", ".join("None" if d is None else str(d) for d in s) + ")"


def clip_by_value(t: Any, clip_value_min: Any, clip_value_max: Any, name: str | None = None) -> Any:
    """Elementwise ``min(max(t, clip_value_min), clip_value_max)``; the bounds
    may broadcast into ``t`` but must not make it bigger (ValueError)."""
    values = _api.tensor(t)
    t_min = _ops.Minimum(values, clip_value_max)
    _check_compatible(values, t_min)
    t_max = _ops.Maximum(t_min, clip_value_min)
    _check_compatible(values, t_max)
    return t_max


def clip_by_norm(t: Any, clip_norm: Any, axes: Any = None, name: str | None = None) -> Any:
    """Rescales ``t`` so that its L2 norm over ``axes`` (all by default) is
    at most ``clip_norm``."""
    values = _api.tensor(t)
    if np.isscalar(clip_norm):
        if clip_norm < 0:
            clip_norm = 0
    else:
        cn = _ops.Maximum(_api.tensor(clip_norm), 0)
        clip_norm = cn if cn.dtype == values.dtype else _ops.Cast(cn, DstT=values.dtype)
    sq = _ops.Mul(values, values)
    if axes is None:
        s = _shape(sq)
        if s is not None:
            red: Any = np.arange(len(s), dtype=np.int32)
        else:
            red = _ops.Range(np.int32(0), _ops.Rank(sq), np.int32(1))
    else:
        red = np.asarray(axes, dtype=np.int32) if not hasattr(axes, "dtype") else axes
    l2sum = _ops.Sum(sq, red, keep_dims=True)
    pred = _ops.Greater(l2sum, 0)
    l2sum_safe = _ops.SelectV2(pred, l2sum, _ops.OnesLike(l2sum))
    l2norm = _ops.SelectV2(pred, _ops.Sqrt(l2sum_safe), l2sum)
    inter = _ops.Mul(values, clip_norm)
    _check_compatible(values, inter)
    return _ops.RealDiv(inter, _ops.Maximum(l2norm, clip_norm))


def _global_norm(t_list: list[Any]) -> Any:
    from tfe_py.linalg import global_norm

    return global_norm(t_list)


def clip_by_global_norm(
    t_list: Any, clip_norm: Any, use_norm: Any = None, name: str | None = None
) -> Any:
    """Scales every tensor of ``t_list`` by ``clip_norm / max(global_norm,
    clip_norm)``; returns ``(list_clipped, global_norm)``. An infinite or
    NaN norm makes every value NaN, as in TF."""
    if not isinstance(t_list, Sequence) or isinstance(t_list, (str, bytes)):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    t_list = list(t_list)
    if use_norm is None:
        use_norm = _global_norm(t_list)
    use_norm = _api.tensor(use_norm)
    dt = use_norm.dtype
    cn = _api.tensor(clip_norm, dtype=dt) if not hasattr(clip_norm, "dtype") else clip_norm
    one = _api.tensor(1.0, dtype=dt)
    scale_finite = _ops.Mul(cn, _ops.Minimum(_ops.RealDiv(one, use_norm), _ops.RealDiv(one, cn)))
    scale = _ops.AddV2(scale_finite, _ops.Sub(use_norm, use_norm))
    out = []
    for v in t_list:
        if v is None:
            out.append(None)
            continue
        v = _api.tensor(v)
        sc = scale if scale.dtype == v.dtype else _ops.Cast(scale, DstT=v.dtype)
        out.append(_ops.Mul(v, sc))
    return out, use_norm
