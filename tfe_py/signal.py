"""``tf.signal``: FFTs, windows, framing, spectrograms and DCTs.

Each function follows TensorFlow 2.21's ``tf.signal`` (argument names,
defaults, dtype rules, errors) and runs the ops TF's Python layer runs, so
results agree with TF's to the dtype's precision. The FFT ops (``FFT`` ...
``IRFFT3D``) are tfe's own mixed-radix/Bluestein kernels: any length, not
only powers of two, computed in double precision.

``fftnd``, ``ifftnd``, ``rfftnd`` and ``irfftnd`` (also top-level names)
work on CPU in tfe; TensorFlow registers their ops only for GPUs, so there
they fail with NotFoundError on a CPU-only machine.
"""

from __future__ import annotations

import math as _math
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from tfe_py import _api
from tfe_py import ops as _ops

__all__ = [
    "dct",
    "fft",
    "fft2d",
    "fft3d",
    "fftnd",
    "fftshift",
    "frame",
    "hamming_window",
    "hann_window",
    "idct",
    "ifft",
    "ifft2d",
    "ifft3d",
    "ifftnd",
    "ifftshift",
    "inverse_mdct",
    "inverse_stft",
    "inverse_stft_window_fn",
    "irfft",
    "irfft2d",
    "irfft3d",
    "irfftnd",
    "kaiser_bessel_derived_window",
    "kaiser_window",
    "linear_to_mel_weight_matrix",
    "mdct",
    "mfccs_from_log_mel_spectrograms",
    "overlap_and_add",
    "rfft",
    "rfft2d",
    "rfft3d",
    "rfftnd",
    "stft",
    "vorbis_window",
]

# Names TensorFlow also exports at the top level (tf.<name>).
TOPLEVEL: frozenset[str] = frozenset({"fftnd", "ifftnd", "rfftnd", "irfftnd"})


# ---- small helpers over the raw ops ----


def _t(value: Any, dtype: Any = None, dtype_hint: Any = None) -> Any:
    return _api.tensor(value, dtype=dtype, dtype_hint=dtype_hint)


def _tc(value: Any) -> Any:
    """``value`` as a complex tensor the way TF's FFT wrappers convert it:
    tensors keep their dtype, other values become complex64 when they can
    (numpy complex128 arrays too, as in TF)."""
    return _t(value, dtype_hint="complex64")


def _dtype(d: Any) -> Any:
    from tfe_py.dtypes import as_dtype

    return as_dtype(d)


def _shape(x: Any) -> tuple[int | None, ...] | None:
    """Static shape of ``x`` (None entries for unknown dims), or None when
    the rank is unknown."""
    s = x.shape
    if s is None or getattr(s, "rank", 0) is None:
        return None
    return tuple(s)


def _const(v: Any) -> Any:
    """The value of ``v`` when it is known now (a Python or numpy value, or
    an eager tensor), else None."""
    from tfe_py.eager import EagerTensor

    if isinstance(v, EagerTensor):
        return v.numpy()
    op = getattr(v, "op", None)
    if op is not None and getattr(op, "type", None) == "Const":
        # a constant of a graph being built (inside tf.function)
        try:
            return np.asarray(op.get_attr("value"))
        except (ValueError, TypeError):
            return None
    if isinstance(v, (numbers.Number, np.ndarray, np.generic, list, tuple)):
        try:
            return np.asarray(v)
        except (TypeError, ValueError):
            return None
    return None


def _const_int(v: Any) -> int | None:
    c = _const(v)
    if c is None or np.ndim(c) != 0:
        return None
    return int(c)


def _cast(x: Any, dtype: Any) -> Any:
    dtype = _dtype(dtype)
    if x.dtype == dtype:
        return x
    return _ops.Cast(x, DstT=dtype)


def _scalar(v: Any, dtype: Any) -> Any:
    return _t(np.asarray(v, dtype=_dtype(dtype).as_numpy_dtype))


def _check_rank_at_least(x: Any, n: int) -> None:
    s = _shape(x)
    if s is not None and len(s) < n:
        raise ValueError(f"Shape {_shape_str(s)} must have rank at least {n}")


def _check_scalar(x: Any) -> None:
    s = _shape(x)
    if s is not None and len(s) != 0:
        raise ValueError(f"Shape {_shape_str(s)} must have rank 0")


def _shape_str(s: tuple[int | None, ...]) -> str:
    return (
        "(" + ", ".join("None" if d is None else str(d) for d in s) + (",)" if len(s) == 1 else ")")
    )


def _real(x: Any) -> Any:
    return _ops.Real(x, Tout=x.dtype.real_dtype) if x.dtype.is_complex else x


def _complex(re: Any, im: Any) -> Any:
    tout = "complex64" if re.dtype == _dtype("float32") else "complex128"
    return _ops.Complex(re, im, Tout=tout)


# ---- FFTs ----


def fft(input: Any, name: str | None = None) -> Any:
    """Fast Fourier transform over the inner-most dimension of ``input``."""
    return _ops.FFT(_tc(input))


def ifft(input: Any, name: str | None = None) -> Any:
    """Inverse fast Fourier transform over the inner-most dimension."""
    return _ops.IFFT(_tc(input))


def fft2d(input: Any, name: str | None = None) -> Any:
    """2-D fast Fourier transform over the inner-most 2 dimensions."""
    return _ops.FFT2D(_tc(input))


def ifft2d(input: Any, name: str | None = None) -> Any:
    """Inverse 2-D fast Fourier transform over the inner-most 2 dimensions."""
    return _ops.IFFT2D(_tc(input))


def fft3d(input: Any, name: str | None = None) -> Any:
    """3-D fast Fourier transform over the inner-most 3 dimensions."""
    return _ops.FFT3D(_tc(input))


def ifft3d(input: Any, name: str | None = None) -> Any:
    """Inverse 3-D fast Fourier transform over the inner-most 3 dimensions."""
    return _ops.IFFT3D(_tc(input))


def _lengths(fft_length: Any) -> Any:
    """fft_length as an int32 value: a numpy vector when known now."""
    c = _const(fft_length)
    if c is not None:
        return np.asarray(c, dtype=np.int32)
    return _cast(_t(fft_length), "int32")


def _maybe_pad(x: Any, rank: int, lengths: Any, reverse: bool) -> Any:
    """Zero-pads the inner-most ``rank`` dims of ``x`` up to ``lengths``
    (the last one to lengths[-1]//2+1 when ``reverse``), as TF's wrappers
    do before calling the op (the op itself only crops)."""
    s = _shape(x)
    if s is not None and any(d == 0 for d in s):
        return x
    if not isinstance(lengths, np.ndarray) or s is None:
        if isinstance(lengths, np.ndarray):
            lengths = _t(lengths)
        shp = _ops.Shape(x, out_type="int32")
        rk = _ops.Rank(x)
        inner = _ops.StridedSlice(
            shp,
            np.array([-rank], np.int32),
            np.array([0], np.int32),
            np.array([1], np.int32),
            end_mask=1,
        )
        if reverse:
            head = _ops.StridedSlice(
                lengths, np.array([0], np.int32), np.array([-1], np.int32), np.array([1], np.int32)
            )
            tail = _ops.StridedSlice(
                lengths,
                np.array([-1], np.int32),
                np.array([0], np.int32),
                np.array([1], np.int32),
                end_mask=1,
            )
            tail = _ops.AddV2(_ops.FloorDiv(tail, np.int32(2)), np.int32(1))
            lengths = _ops.ConcatV2([head, tail], np.int32(0))
        pads = _ops.Maximum(np.int32(0), _ops.Sub(lengths, inner))
        outer = _ops.Fill(
            _ops.Reshape(
                _ops.Maximum(np.int32(0), _ops.Sub(rk, np.int32(rank))), np.array([1], np.int32)
            ),
            np.int32(0),
        )
        after = _ops.ConcatV2([outer, pads], np.int32(0))
        paddings = _ops.Pack([_ops.ZerosLike(after), after], axis=1)
        return _ops.Pad(x, paddings)
    if lengths.ndim != 1 or lengths.shape[0] != rank:
        return x  # the op reports the bad fft_length
    want = [int(v) for v in lengths]
    if reverse:
        want[-1] = want[-1] // 2 + 1
    inner_dims = s[len(s) - rank :]
    if any(d is None for d in inner_dims):
        return x
    pads = [[0, max(w - d, 0)] for w, d in zip(want, inner_dims, strict=False)]  # type: ignore[operator]
    if any(p[1] > 0 for p in pads):
        full = [[0, 0]] * max(len(s) - rank, 0) + pads
        return _ops.Pad(x, np.asarray(full, np.int32))
    return x


def _rfft_n(rank: int, input_tensor: Any, fft_length: Any) -> Any:
    x = _t(input_tensor, dtype_hint="float32")
    if x.dtype not in (_dtype("float32"), _dtype("float64")):
        raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {x}")
    cdt = "complex64" if x.dtype == _dtype("float32") else "complex128"
    _check_rank_at_least(x, rank)
    if fft_length is None:
        s = _shape(x)
        if s is None or any(d is None for d in s[len(s) - rank :]):
            lengths: Any = _ops.StridedSlice(
                _ops.Shape(x, out_type="int32"),
                np.array([-rank], np.int32),
                np.array([0], np.int32),
                np.array([1], np.int32),
                end_mask=1,
            )
        else:
            lengths = np.asarray(s[len(s) - rank :], np.int32)
    else:
        lengths = _lengths(fft_length)
    x = _maybe_pad(x, rank, lengths, False)
    op = {1: _ops.RFFT, 2: _ops.RFFT2D, 3: _ops.RFFT3D}[rank]
    return op(x, lengths, Tcomplex=cdt)


def _irfft_n(rank: int, input_tensor: Any, fft_length: Any) -> Any:
    x = _tc(input_tensor)
    _check_rank_at_least(x, rank)
    if x.dtype not in (_dtype("complex64"), _dtype("complex128")):
        raise ValueError(f"IRFFT requires tf.complex64 or tf.complex128 inputs, got: {x}")
    rdt = x.dtype.real_dtype
    if fft_length is None:
        s = _shape(x)
        if s is None or any(d is None for d in s[len(s) - rank :]):
            shp = _ops.Shape(x, out_type="int32")
            dims = [
                _ops.StridedSlice(
                    shp,
                    np.array([i - rank], np.int32),
                    np.array([i - rank + 1 if i - rank + 1 < 0 else 0], np.int32),
                    np.array([1], np.int32),
                    end_mask=0 if i - rank + 1 < 0 else 1,
                )
                for i in range(rank)
            ]
            dims[-1] = _ops.Maximum(
                np.int32(0), _ops.Mul(np.int32(2), _ops.Sub(dims[-1], np.int32(1)))
            )
            lengths: Any = _ops.ConcatV2(dims, np.int32(0))
        else:
            ls = list(s[len(s) - rank :])
            ls[-1] = max(0, 2 * (ls[-1] - 1))  # type: ignore[operator]
            lengths = np.asarray(ls, np.int32)
    else:
        lengths = _lengths(fft_length)
    x = _maybe_pad(x, rank, lengths, True)
    op = {1: _ops.IRFFT, 2: _ops.IRFFT2D, 3: _ops.IRFFT3D}[rank]
    return op(x, lengths, Treal=rdt)


def rfft(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> Any:
    """Real-valued FFT over the inner-most dimension (``fft_length//2+1``
    complex bins); the input is zero-padded or cropped to ``fft_length``."""
    return _rfft_n(1, input_tensor, fft_length)


def rfft2d(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> Any:
    """2-D real-valued FFT over the inner-most 2 dimensions."""
    return _rfft_n(2, input_tensor, fft_length)


def rfft3d(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> Any:
    """3-D real-valued FFT over the inner-most 3 dimensions."""
    return _rfft_n(3, input_tensor, fft_length)


def irfft(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> Any:
    """Inverse of :func:`rfft`: a real signal of ``fft_length`` samples
    (default ``2 * (n - 1)``) from ``n`` complex bins."""
    return _irfft_n(1, input_tensor, fft_length)


def irfft2d(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> Any:
    """Inverse of :func:`rfft2d`."""
    return _irfft_n(2, input_tensor, fft_length)


def irfft3d(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> Any:
    """Inverse of :func:`rfft3d`."""
    return _irfft_n(3, input_tensor, fft_length)


def _nd_common(
    input_tensor: Any, fft_length: Any, axes: Any, hint: str, irfft: bool
) -> tuple[Any, Any, Any, int]:
    if axes is None:
        r0 = len(
            _shape(_tc(input_tensor) if hint == "complex64" else _t(input_tensor, dtype_hint=hint))
            or ()
        )
        axes_v: Any = np.arange(r0, dtype=np.int32)
    else:
        axes_v = np.asarray(_const(axes) if _const(axes) is not None else axes, np.int32).reshape(
            -1
        )
    rank = int(axes_v.shape[0])
    x = _tc(input_tensor) if hint == "complex64" else _t(input_tensor, dtype_hint=hint)
    _check_rank_at_least(x, rank)
    if fft_length is None:
        s = _shape(x)
        if s is None or any(d is None for d in s):
            raise ValueError("fft_length is needed when the input's shape is not fully known")
        # the dims along the axes (TF passes the whole shape, which its GPU
        # kernels then reject unless axes covers every dimension)
        ls = [s[int(a)] for a in axes_v]
        if irfft and ls:
            ls[-1] = max(0, 2 * (ls[-1] - 1))  # type: ignore[operator]
        lengths = np.asarray(ls, np.int32)
    else:
        lengths = _lengths(fft_length)
    return x, lengths, axes_v, rank


def _pad_axes(x: Any, axes_v: Any, lengths: Any, reverse: bool) -> Any:
    """Zero-pads ``x`` along ``axes_v`` up to ``lengths`` (the last listed
    axis to lengths[-1]//2+1 when ``reverse``); the ND ops only crop."""
    s = _shape(x)
    if (
        s is None
        or not isinstance(lengths, np.ndarray)
        or lengths.shape != axes_v.shape
        or any(d == 0 for d in s)
    ):
        return x
    pads = np.zeros((len(s), 2), np.int32)
    for i, a in enumerate(axes_v):
        a = int(a) + (len(s) if a < 0 else 0)
        if not 0 <= a < len(s) or s[a] is None:
            return x
        want = int(lengths[i])
        if reverse and i == len(axes_v) - 1:
            want = want // 2 + 1
        pads[a, 1] = max(0, want - int(s[a]))  # type: ignore[arg-type]
    return _ops.Pad(x, pads) if pads.any() else x


def _norm_scale(lengths: Any, norm: str | None, forward: bool) -> float | None:
    if norm is None or norm == "backward":
        return None
    n = 1
    for v in np.asarray(lengths).reshape(-1):
        n *= int(v)
    if norm == "forward":
        return 1.0 / n if forward else float(n)
    if norm == "ortho":
        return 1.0 / float(np.sqrt(n)) if forward else float(np.sqrt(n))
    return None


def _scaled(x: Any, scale: float | None) -> Any:
    if scale is None:
        return x
    return _ops.Mul(x, _scalar(scale, x.dtype))


def fftnd(
    input_tensor: Any,
    fft_length: Any = None,
    axes: Any = None,
    norm: str | None = None,
    name: str | None = None,
) -> Any:
    """N-D fast Fourier transform over ``axes`` (default: all)."""
    x, lengths, axes_v, _rank = _nd_common(input_tensor, fft_length, axes, "complex64", False)
    x = _pad_axes(x, axes_v, lengths, False)
    x = _scaled(x, _norm_scale(lengths, norm, True))
    return _ops.FFTND(x, lengths, axes_v)


def ifftnd(
    input_tensor: Any,
    fft_length: Any = None,
    axes: Any = None,
    norm: str | None = None,
    name: str | None = None,
) -> Any:
    """N-D inverse fast Fourier transform over ``axes`` (default: all)."""
    x, lengths, axes_v, _rank = _nd_common(input_tensor, fft_length, axes, "complex64", False)
    x = _pad_axes(x, axes_v, lengths, False)
    x = _scaled(x, _norm_scale(lengths, norm, False))
    return _ops.IFFTND(x, lengths, axes_v)


def rfftnd(
    input_tensor: Any,
    fft_length: Any = None,
    axes: Any = None,
    norm: str | None = None,
    name: str | None = None,
) -> Any:
    """N-D real-valued FFT over ``axes``; the last axis keeps
    ``fft_length[-1]//2+1`` bins."""
    x, lengths, axes_v, _rank = _nd_common(input_tensor, fft_length, axes, "float32", False)
    if x.dtype not in (_dtype("float32"), _dtype("float64")):
        raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {x}")
    cdt = "complex64" if x.dtype == _dtype("float32") else "complex128"
    x = _pad_axes(x, axes_v, lengths, False)
    x = _scaled(x, _norm_scale(lengths, norm, True))
    return _ops.RFFTND(x, lengths, axes_v, Tcomplex=cdt)


def irfftnd(
    input_tensor: Any,
    fft_length: Any = None,
    axes: Any = None,
    norm: str | None = None,
    name: str | None = None,
) -> Any:
    """Inverse of :func:`rfftnd`."""
    x, lengths, axes_v, _rank = _nd_common(input_tensor, fft_length, axes, "complex64", True)
    if x.dtype not in (_dtype("complex64"), _dtype("complex128")):
        raise ValueError(f"IRFFT requires tf.complex64 or tf.complex128 inputs, got: {x}")
    x = _pad_axes(x, axes_v, lengths, True)
    x = _scaled(x, _norm_scale(lengths, norm, False))
    return _ops.IRFFTND(x, lengths, axes_v, Treal=x.dtype.real_dtype)


def _shift(x: Any, axes: Any, inverse: bool) -> Any:
    x = _t(x)
    s = _shape(x)
    if s is None:
        raise ValueError("fftshift needs a tensor of known rank")
    if axes is None:
        ax = list(range(len(s)))
    elif isinstance(axes, numbers.Integral):
        ax = [int(axes)]
    else:
        ax = [
            int(a)
            for a in np.asarray(_const(axes) if _const(axes) is not None else axes).reshape(-1)
        ]
    ax = [a + len(s) if a < 0 else a for a in ax]
    if all(s[a] is not None for a in ax):
        shift = np.asarray(
            [(-(s[a] // 2) if inverse else s[a] // 2) for a in ax],  # type: ignore[operator]
            np.int32,
        )
    else:
        half = _ops.FloorDiv(
            _ops.GatherV2(_ops.Shape(x, out_type="int32"), np.asarray(ax, np.int32), np.int32(0)),
            np.int32(2),
        )
        shift = _ops.Neg(half) if inverse else half
    if isinstance(axes, numbers.Integral):
        return _ops.Roll(
            x, shift.reshape(()) if isinstance(shift, np.ndarray) else shift[0], np.int32(ax[0])
        )
    return _ops.Roll(x, shift, np.asarray(ax, np.int32))


def fftshift(x: Any, axes: Any = None, name: str | None = None) -> Any:
    """Moves the zero-frequency bin to the centre (numpy.fft.fftshift)."""
    return _shift(x, axes, False)


def ifftshift(x: Any, axes: Any = None, name: str | None = None) -> Any:
    """The inverse of :func:`fftshift`."""
    return _shift(x, axes, True)


# ---- windows ----


def _window_len(window_length: Any, dtype: Any) -> Any:
    if not _dtype(dtype).is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {_dtype(dtype)!r}")
    w = _t(window_length, dtype="int32")
    _check_scalar(w)
    return w


def _raised_cosine(window_length: Any, periodic: Any, dtype: Any, a: float, b: float) -> Any:
    dtype = _dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype!r}")
    w = _t(window_length, dtype="int32")
    _check_scalar(w)
    n_const = _const_int(w)
    if n_const == 1:
        return _ops.Fill(np.array([1], np.int32), _scalar(1, dtype))
    per = _cast(_t(periodic, dtype="bool"), "int32")
    even = _ops.Sub(np.int32(1), _ops.FloorMod(w, np.int32(2)))
    n = _cast(_ops.Sub(_ops.AddV2(w, _ops.Mul(per, even)), np.int32(1)), dtype)
    count = _cast(_ops.Range(np.int32(0), w, np.int32(1)), dtype)
    cos_arg = _ops.RealDiv(_ops.Mul(_scalar(2 * np.pi, dtype), count), n)
    win = _ops.Sub(_scalar(a, dtype), _ops.Mul(_scalar(b, dtype), _ops.Cos(cos_arg)))
    if n_const is not None:
        return win
    ones = _ops.Fill(_ops.Reshape(w, np.array([1], np.int32)), _scalar(1, dtype))
    return _ops.SelectV2(_ops.Equal(w, np.int32(1)), ones, win)


def hann_window(
    window_length: Any, periodic: Any = True, dtype: Any = "float32", name: str | None = None
) -> Any:
    """Hann window: ``0.5 - 0.5 cos(2 pi n / N)``."""
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(
    window_length: Any, periodic: Any = True, dtype: Any = "float32", name: str | None = None
) -> Any:
    """Hamming window: ``0.54 - 0.46 cos(2 pi n / N)``."""
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46)


def kaiser_window(
    window_length: Any, beta: Any = 12.0, dtype: Any = "float32", name: str | None = None
) -> Any:
    """Kaiser window with shape parameter ``beta``."""
    dtype = _dtype(dtype)
    w = _window_len(window_length, dtype)
    if _const_int(w) == 1:
        return _ops.Fill(np.array([1], np.int32), _scalar(1, dtype))
    half = _ops.RealDiv(_ops.Sub(_cast(w, "float32"), np.float32(1.0)), np.float32(2.0))
    arg = _ops.Range(_ops.Neg(half), _ops.AddV2(half, np.float32(0.1)), np.float32(1.0))
    arg = _cast(arg, dtype)
    beta_t = _cast(_t(beta, dtype_hint=dtype), dtype)
    one = _scalar(1.0, dtype)
    half_d = _cast(half, dtype)
    num = _ops.Mul(
        beta_t, _ops.Sqrt(_ops.Relu(_ops.Sub(one, _ops.Square(_ops.RealDiv(arg, half_d)))))
    )
    return _ops.Mul(
        _ops.Exp(_ops.Sub(num, beta_t)), _ops.RealDiv(_ops.BesselI0e(num), _ops.BesselI0e(beta_t))
    )


def kaiser_bessel_derived_window(
    window_length: Any, beta: Any = 12.0, dtype: Any = "float32", name: str | None = None
) -> Any:
    """Kaiser-Bessel-derived window (used by the MDCT)."""
    dtype = _dtype(dtype)
    w = _window_len(window_length, dtype)
    halflen = _ops.FloorDiv(w, np.int32(2))
    kw = kaiser_window(
        _ops.AddV2(halflen, np.int32(1))
        if _const_int(w) is None
        else int(_const_int(w) or 0) // 2 + 1,
        beta,
        dtype=dtype,
    )
    csum = _ops.Cumsum(kw, np.int32(0))
    halfw = _ops.Sqrt(_ops.RealDiv(csum[:-1], csum[-1]))
    return _ops.ConcatV2([halfw, halfw[::-1]], np.int32(0))


def vorbis_window(window_length: Any, dtype: Any = "float32", name: str | None = None) -> Any:
    """Vorbis power-complementary window."""
    dtype = _dtype(dtype)
    w = _window_len(window_length, dtype)
    arg = _cast(_ops.Range(np.int32(0), w, np.int32(1)), dtype)
    inner = _ops.Sin(
        _ops.Mul(
            _ops.RealDiv(_scalar(np.pi, dtype), _cast(w, dtype)),
            _ops.AddV2(arg, _scalar(0.5, dtype)),
        )
    )
    return _ops.Sin(_ops.Mul(_scalar(np.pi / 2.0, dtype), _ops.Pow(inner, _scalar(2.0, dtype))))


# ---- framing ----


def frame(
    signal: Any,
    frame_length: Any,
    frame_step: Any,
    pad_end: bool = False,
    pad_value: Any = 0,
    axis: Any = -1,
    name: str | None = None,
) -> Any:
    """Splits ``signal``'s ``axis`` into frames of ``frame_length`` samples
    ``frame_step`` apart (padding the end with ``pad_value`` when
    ``pad_end``)."""
    x = _t(signal)
    _check_rank_at_least(x, 1)
    fl_t = _t(frame_length)
    fs_t = _t(frame_step)
    for v in (fl_t, fs_t, _t(axis)):
        _check_scalar(v)
    fl = _const_int(fl_t)
    fs = _const_int(fs_t)
    ax = _const_int(axis)
    s = _shape(x)
    if ax is None or s is None:
        raise NotImplementedError("tfe's tf.signal.frame needs a constant axis and a known rank")
    if fl is None or fs is None or s[range(len(s))[ax]] is None:
        return _frame_dynamic(x, fl_t, fs_t, pad_end, pad_value, range(len(s))[ax], len(s))
    rank = len(s)
    ax = range(rank)[ax]
    n = int(s[ax])  # type: ignore[arg-type]
    if pad_end:
        pv = _t(pad_value, dtype=x.dtype)
        _check_scalar(pv)
        num_frames = -(-n // fs)
        pad = max(0, fl + fs * (num_frames - 1) - n)
        if pad > 0:
            paddings = np.zeros((rank, 2), np.int32)
            paddings[ax, 1] = pad
            x = _ops.PadV2(x, paddings, pv)
            n += pad
    else:
        num_frames = max(0, 1 + (n - fl) // fs)
    idx = (
        np.arange(num_frames, dtype=np.int32)[:, None] * fs + np.arange(fl, dtype=np.int32)[None, :]
    )
    return _ops.GatherV2(x, idx.reshape(num_frames, fl), np.int32(ax), batch_dims=0)


def overlap_and_add(signal: Any, frame_step: Any, name: str | None = None) -> Any:
    """Adds overlapping frames (``[..., frames, frame_length]``) back into
    a signal, frames ``frame_step`` samples apart."""
    x = _t(signal)
    _check_rank_at_least(x, 2)
    fs_t = _t(frame_step)
    _check_scalar(fs_t)
    if not fs_t.dtype.is_integer:
        raise ValueError(f"frame_step must be an integer. Got {fs_t.dtype!r}")
    step = _const_int(fs_t)
    s = _shape(x)
    if s is None:
        raise NotImplementedError("tfe's tf.signal.overlap_and_add needs a signal of known rank")
    if step is None or any(d is None for d in s):
        return _overlap_and_add_dynamic(x, fs_t, len(s))
    outer = [int(d) for d in s[:-2]]  # type: ignore[arg-type]
    frames, frame_length = int(s[-2]), int(s[-1])  # type: ignore[arg-type]
    output_length = frame_length + step * (frames - 1)
    if step == frame_length:
        return _ops.Reshape(x, np.asarray([*outer, output_length], np.int64))
    segments = -(-frame_length // step)
    paddings = np.zeros((len(outer) + 2, 2), np.int32)
    paddings[-2, 1] = segments
    paddings[-1, 1] = segments * step - frame_length
    y = _ops.Pad(x, paddings)
    y = _ops.Reshape(y, np.asarray([*outer, frames + segments, segments, step], np.int64))
    r = len(outer)
    perm = np.asarray([*list(range(r)), r + 1, r, r + 2], np.int32)
    y = _ops.Transpose(y, perm)
    y = _ops.Reshape(y, np.asarray([*outer, (frames + segments) * segments, step], np.int64))
    y = y[..., : (frames + segments - 1) * segments, :]
    y = _ops.Reshape(y, np.asarray([*outer, segments, frames + segments - 1, step], np.int64))
    y = _ops.Sum(y, np.int32(-3))
    y = _ops.Reshape(y, np.asarray([*outer, (frames + segments - 1) * step], np.int64))
    return y[..., :output_length]


# ---- framing with shapes known only when the graph runs ----


def _i(v: int) -> Any:
    return np.int32(v)


def _pack(items: list[Any]) -> Any:
    return _ops.Pack([_cast(_t(v, dtype_hint="int32"), "int32") for v in items], axis=0)


def _frame_dynamic(
    x: Any, fl_t: Any, fs_t: Any, pad_end: bool, pad_value: Any, ax: int, rank: int
) -> Any:
    """:func:`frame` with the lengths or the framed dim known only at run
    time: the same gather, sizes computed by ops."""
    fl = _cast(fl_t, "int32")
    fs = _cast(fs_t, "int32")
    n = _ops.Shape(x, out_type="int32")[ax]
    if pad_end:
        pv = _t(pad_value, dtype=x.dtype)
        _check_scalar(pv)
        num_frames = _ops.Neg(_ops.FloorDiv(_ops.Neg(n), fs))
        pad = _ops.Maximum(
            _i(0), _ops.Sub(_ops.AddV2(fl, _ops.Mul(fs, _ops.Sub(num_frames, _i(1)))), n)
        )
        rows = [_pack([0, pad]) if i == ax else _pack([0, 0]) for i in range(rank)]
        x = _ops.PadV2(x, _ops.Pack(rows, axis=0), pv)
    else:
        num_frames = _ops.Maximum(_i(0), _ops.AddV2(_i(1), _ops.FloorDiv(_ops.Sub(n, fl), fs)))
    starts = _ops.Mul(_ops.ExpandDims(_ops.Range(_i(0), num_frames, _i(1)), _i(1)), fs)
    idx = _ops.AddV2(starts, _ops.ExpandDims(_ops.Range(_i(0), fl, _i(1)), _i(0)))
    return _ops.GatherV2(x, idx, _i(ax), batch_dims=0)


def _overlap_and_add_dynamic(x: Any, fs_t: Any, rank: int) -> Any:
    """:func:`overlap_and_add` with sizes known only at run time (TF's
    pad / reshape / transpose / sum, sizes computed by ops)."""
    step = _cast(fs_t, "int32")
    shp = _ops.Shape(x, out_type="int32")
    outer = _ops.StridedSlice(shp, _i32v([0]), _i32v([-2]), _i32v([1]))
    frames = shp[-2]
    flen = shp[-1]
    r = rank - 2
    output_length = _ops.AddV2(flen, _ops.Mul(step, _ops.Sub(frames, _i(1))))
    segments = _ops.Neg(_ops.FloorDiv(_ops.Neg(flen), step))
    rows = [_pack([0, 0]) for _ in range(r)]
    rows += [_pack([0, segments]), _pack([0, _ops.Sub(_ops.Mul(segments, step), flen)])]
    y = _ops.Pad(x, _ops.Pack(rows, axis=0))

    def full(tail: list[Any]) -> Any:
        return _ops.ConcatV2([outer, _pack(tail)], _i(0))

    fps = _ops.AddV2(frames, segments)
    y = _ops.Reshape(y, full([fps, segments, step]))
    y = _ops.Transpose(y, np.asarray([*range(r), r + 1, r, r + 2], np.int32))
    y = _ops.Reshape(y, full([_ops.Mul(fps, segments), step]))
    keep = _ops.Mul(_ops.Sub(fps, _i(1)), segments)
    minus = [_i(-1)] * r
    y = _ops.Slice(y, np.zeros(r + 2, np.int32), _pack([*minus, keep, -1]))
    y = _ops.Reshape(y, full([segments, _ops.Sub(fps, _i(1)), step]))
    y = _ops.Sum(y, _i(-3))
    y = _ops.Reshape(y, full([_ops.Mul(_ops.Sub(fps, _i(1)), step)]))
    return _ops.Slice(y, np.zeros(r + 1, np.int32), _pack([*minus, output_length]))


def _i32v(v: list[int]) -> Any:
    return np.asarray(v, np.int32)


# ---- spectrograms ----


def _enclosing_power_of_two(value: Any) -> Any:
    v = _const_int(value)
    if v is not None:
        return int(2 ** np.ceil(np.log(v) / np.log(2.0)))
    f = _cast(value, "float32")
    p = _ops.Pow(np.float32(2.0), _ops.Ceil(_ops.RealDiv(_ops.Log(f), _ops.Log(np.float32(2.0)))))
    return _cast(p, value.dtype)


def stft(
    signals: Any,
    frame_length: Any,
    frame_step: Any,
    fft_length: Any = None,
    window_fn: Callable[..., Any] | None = hann_window,
    pad_end: bool = False,
    name: str | None = None,
) -> Any:
    """Short-time Fourier transform: ``rfft`` of windowed frames."""
    x = _t(signals)
    _check_rank_at_least(x, 1)
    fl = _t(frame_length)
    _check_scalar(fl)
    _check_scalar(_t(frame_step))
    if fft_length is None:
        fft_length = _enclosing_power_of_two(fl)
    framed = frame(x, frame_length, frame_step, pad_end=pad_end)
    if window_fn is not None:
        window = window_fn(frame_length, dtype=framed.dtype)
        framed = _ops.Mul(framed, window)
    return rfft(framed, _fft_len_vec(fft_length))


def _fft_len_vec(fft_length: Any) -> Any:
    c = _const(fft_length)
    if c is not None:
        return np.asarray(c, np.int32).reshape(1)
    return _ops.Reshape(_cast(_t(fft_length), "int32"), np.array([1], np.int32))


def inverse_stft_window_fn(
    frame_step: Any, forward_window_fn: Callable[..., Any] = hann_window, name: str | None = None
) -> Callable[..., Any]:
    """A window function for :func:`inverse_stft` that undoes
    ``forward_window_fn`` given the STFT's ``frame_step``."""

    def inverse_stft_window_fn_inner(frame_length: Any, dtype: Any) -> Any:
        step = _const_int(frame_step)
        fl = _const_int(frame_length)
        if step is None or fl is None:
            raise NotImplementedError("tfe's inverse_stft_window_fn needs constant lengths")
        fw = forward_window_fn(frame_length, dtype=dtype)
        denom = _ops.Square(fw)
        overlaps = -(-fl // step)
        denom = _ops.Pad(denom, np.array([[0, overlaps * step - fl]], np.int32))
        denom = _ops.Reshape(denom, np.array([overlaps, step], np.int32))
        denom = _ops.Sum(denom, np.int32(0), keep_dims=True)
        denom = _ops.Tile(denom, np.array([overlaps, 1], np.int32))
        denom = _ops.Reshape(denom, np.array([overlaps * step], np.int32))
        denom = denom[:fl]
        return _ops.SelectV2(
            _ops.Equal(denom, _scalar(0.0, denom.dtype)),
            _ops.ZerosLike(fw),
            _ops.RealDiv(fw, denom),
        )

    return inverse_stft_window_fn_inner


def inverse_stft(
    stfts: Any,
    frame_length: Any,
    frame_step: Any,
    fft_length: Any = None,
    window_fn: Callable[..., Any] | None = hann_window,
    name: str | None = None,
) -> Any:
    """Inverse of :func:`stft` (with a matching ``window_fn``, e.g.
    :func:`inverse_stft_window_fn`)."""
    x = _t(stfts)
    _check_rank_at_least(x, 2)
    fl_t = _t(frame_length)
    _check_scalar(fl_t)
    _check_scalar(_t(frame_step))
    if fft_length is None:
        fft_length = _enclosing_power_of_two(fl_t)
    else:
        _check_scalar(_t(fft_length))
    frames = irfft(x, _fft_len_vec(fft_length))
    fl = _const_int(fl_t)
    s = _shape(frames)
    if fl is None or s is None or s[-1] is None:
        raise NotImplementedError("tfe's inverse_stft needs a constant frame_length")
    if s[-1] > fl:
        frames = frames[..., :fl]
    elif s[-1] < fl:
        pads = np.zeros((len(s), 2), np.int32)
        pads[-1, 1] = fl - s[-1]
        frames = _ops.Pad(frames, pads)
    if window_fn is not None:
        window = window_fn(frame_length, dtype=x.dtype.real_dtype)
        frames = _ops.Mul(frames, window)
    return overlap_and_add(frames, frame_step)


# ---- DCT and MDCT ----


def _validate_dct(x: Any, dct_type: int, n: Any, axis: int, norm: str | None) -> None:
    if axis != -1:
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if dct_type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if dct_type == 1:
        if norm == "ortho":
            raise ValueError("Normalization is not supported for the Type-I DCT.")
        s = _shape(x)
        if s is not None and s and s[-1] is not None and s[-1] < 2:
            raise ValueError("Type-I DCT requires the dimension to be greater than one.")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")


def _dct_internal(x: Any, dct_type: int, n: Any, norm: str | None) -> Any:
    s = _shape(x)
    if s is None or not s or s[-1] is None:
        raise NotImplementedError("tfe's tf.signal.dct needs a known inner dimension")
    seq_len = int(s[-1])
    if n is not None:
        if n <= seq_len:
            x = x[..., 0:n]
        else:
            pads = np.zeros((len(s), 2), np.int32)
            pads[-1, 1] = n - seq_len
            x = _ops.Pad(x, pads)
    dim = int(_shape(x)[-1])  # type: ignore[index]
    dt = x.dtype
    dimf = _scalar(dim, dt)
    _scalar(0.0, dt)
    rng = _cast(_ops.Range(np.int32(0), np.int32(dim), np.int32(1)), dt)
    if dct_type == 1:
        rev = x[..., -2:0:-1]
        return _real(rfft(_ops.ConcatV2([x, rev], np.int32(-1))))
    if dct_type == 2:
        ang = _ops.RealDiv(
            _ops.Mul(_ops.Mul(_ops.Neg(rng), _scalar(np.pi, dt)), _scalar(0.5, dt)), dimf
        )
        scale = _ops.Mul(
            _t(np.asarray(2.0, _cplx_np(dt))), _ops.Exp(_complex(_ops.ZerosLike(ang), ang))
        )
        y = rfft(x, np.array([2 * dim], np.int32))[..., :dim]
        out = _real(_ops.Mul(y, scale))
        if norm == "ortho":
            n1 = _ops.Mul(_scalar(0.5, dt), _ops.Rsqrt(dimf))
            n2 = _ops.Mul(n1, _scalar(_math.sqrt(2.0), dt))
            weights = _ops.PadV2(
                _ops.ExpandDims(n1, np.int32(0)), np.array([[0, dim - 1]], np.int32), n2
            )
            out = _ops.Mul(out, weights)
        return out
    if dct_type == 3:
        if norm == "ortho":
            n1 = _ops.Sqrt(dimf)
            n2 = _ops.Mul(n1, _scalar(_math.sqrt(0.5), dt))
            weights = _ops.PadV2(
                _ops.ExpandDims(n1, np.int32(0)), np.array([[0, dim - 1]], np.int32), n2
            )
            x = _ops.Mul(x, weights)
        else:
            x = _ops.Mul(x, dimf)
        ang = _ops.RealDiv(_ops.Mul(_ops.Mul(rng, _scalar(np.pi, dt)), _scalar(0.5, dt)), dimf)
        scale = _ops.Mul(
            _t(np.asarray(2.0, _cplx_np(dt))), _ops.Exp(_complex(_ops.ZerosLike(ang), ang))
        )
        y = irfft(_ops.Mul(scale, _complex(x, _ops.ZerosLike(x))), np.array([2 * dim], np.int32))
        return _real(y)[..., :dim]
    y = _dct_internal(x, 2, 2 * dim, None)
    out = y[..., 1::2]
    if norm == "ortho":
        out = _ops.Mul(out, _ops.Mul(_scalar(_math.sqrt(0.5), dt), _ops.Rsqrt(dimf)))
    return out


def _cplx_np(dt: Any) -> Any:
    return np.complex64 if dt == _dtype("float32") else np.complex128


def dct(
    input: Any,
    type: int = 2,
    n: Any = None,
    axis: int = -1,
    norm: str | None = None,
    name: str | None = None,
) -> Any:
    """Discrete cosine transform (types I-IV) over the last axis."""
    x = _t(input)
    _validate_dct(x, type, n, axis, norm)
    return _dct_internal(x, type, n, norm)


def idct(
    input: Any,
    type: int = 2,
    n: Any = None,
    axis: int = -1,
    norm: str | None = None,
    name: str | None = None,
) -> Any:
    """Inverse DCT: a DCT of the inverse type (up to scaling, see TF's
    documentation)."""
    x = _t(input)
    _validate_dct(x, type, n, axis, norm)
    return _dct_internal(x, {1: 1, 2: 3, 3: 2, 4: 4}[type], n, norm)


def mdct(
    signals: Any,
    frame_length: Any,
    window_fn: Callable[..., Any] | None = vorbis_window,
    pad_end: bool = False,
    norm: str | None = None,
    name: str | None = None,
) -> Any:
    """Modified discrete cosine transform of frames ``frame_length`` long
    and half overlapping."""
    x = _t(signals)
    _check_rank_at_least(x, 1)
    fl = _const_int(frame_length)
    if fl is None:
        raise NotImplementedError("tfe's tf.signal.mdct needs a constant frame_length")
    if fl % 4 != 0:
        raise ValueError("The frame length must be a multiple of 4.")
    framed = frame(x, fl, fl // 2, pad_end=pad_end)
    if window_fn is not None:
        framed = _ops.Mul(framed, window_fn(fl, dtype=framed.dtype))
    else:
        framed = _ops.Mul(framed, _scalar(1.0 / np.sqrt(2), framed.dtype))
    q = fl // 4
    p0, p1, p2, p3 = (framed[..., i * q : (i + 1) * q] for i in range(4))
    first = _ops.Sub(_ops.Neg(p2[..., ::-1]), p3)
    second = _ops.Sub(p0, p1[..., ::-1])
    return dct(_ops.ConcatV2([first, second], np.int32(-1)), type=4, norm=norm)


def inverse_mdct(
    mdcts: Any,
    window_fn: Callable[..., Any] | None = vorbis_window,
    norm: str | None = None,
    name: str | None = None,
) -> Any:
    """Inverse of :func:`mdct`."""
    x = _t(mdcts)
    _check_rank_at_least(x, 2)
    half = int(_shape(x)[-1])  # type: ignore[index, arg-type]
    if norm is None:
        r = _ops.Mul(_ops.RealDiv(_scalar(0.5, x.dtype), _scalar(half, x.dtype)), dct(x, type=4))
    elif norm == "ortho":
        r = dct(x, type=4, norm="ortho")
    else:
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
    h = half // 2
    s0, s1 = r[..., :h], r[..., h:]
    frames = _ops.ConcatV2(
        [s1, _ops.Neg(s1[..., ::-1]), _ops.Neg(s0[..., ::-1]), _ops.Neg(s0)], np.int32(-1)
    )
    if window_fn is not None:
        frames = _ops.Mul(frames, window_fn(2 * half, dtype=x.dtype))
    else:
        frames = _ops.Mul(frames, _scalar(1.0 / np.sqrt(2), x.dtype))
    return overlap_and_add(frames, half)


# ---- mel scale ----

_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(f: Any) -> Any:
    dt = f.dtype
    return _ops.Mul(
        _scalar(_MEL_HIGH_FREQUENCY_Q, dt),
        _ops.Log(
            _ops.AddV2(_scalar(1.0, dt), _ops.RealDiv(f, _scalar(_MEL_BREAK_FREQUENCY_HERTZ, dt)))
        ),
    )


def linear_to_mel_weight_matrix(
    num_mel_bins: int = 20,
    num_spectrogram_bins: int = 129,
    sample_rate: Any = 8000,
    lower_edge_hertz: Any = 125.0,
    upper_edge_hertz: Any = 3800.0,
    dtype: Any = "float32",
    name: str | None = None,
) -> Any:
    """A ``[num_spectrogram_bins, num_mel_bins]`` matrix mapping linear
    spectrogram bins to mel bands (HTK mel scale, triangular filters)."""
    dtype = _dtype(dtype)
    sr_c = _const(sample_rate)
    if sr_c is not None:
        sample_rate = sr_c.item() if isinstance(sr_c, np.ndarray) else sr_c
    if num_mel_bins <= 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
    if lower_edge_hertz < 0.0:
        raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}")
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(
            f"lower_edge_hertz {lower_edge_hertz:.1f} >= upper_edge_hertz {upper_edge_hertz:.1f}"
        )
    if sr_c is not None:
        if sample_rate <= 0.0:
            raise ValueError(f"sample_rate must be positive. Got: {sample_rate}")
        if upper_edge_hertz > sample_rate / 2:
            raise ValueError(
                "upper_edge_hertz must not be larger than the Nyquist frequency "
                f"(sample_rate / 2). Got {upper_edge_hertz} for sample_rate: "
                f"{sample_rate}"
            )
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Got: {dtype!r}")
    sr = _cast(_t(sample_rate), dtype)
    lo = _t(lower_edge_hertz, dtype=dtype)
    hi = _t(upper_edge_hertz, dtype=dtype)
    zero = _scalar(0.0, dtype)
    nyquist = _ops.RealDiv(sr, _scalar(2.0, dtype))
    lin = _ops.LinSpace(zero, nyquist, np.int32(num_spectrogram_bins))[1:]
    spec_mel = _ops.ExpandDims(_hertz_to_mel(lin), np.int32(1))
    edges = _ops.LinSpace(_hertz_to_mel(lo), _hertz_to_mel(hi), np.int32(num_mel_bins + 2))
    lower = _ops.Reshape(edges[0:num_mel_bins], np.array([1, num_mel_bins], np.int32))
    center = _ops.Reshape(edges[1 : num_mel_bins + 1], np.array([1, num_mel_bins], np.int32))
    upper = _ops.Reshape(edges[2 : num_mel_bins + 2], np.array([1, num_mel_bins], np.int32))
    lower_slopes = _ops.RealDiv(_ops.Sub(spec_mel, lower), _ops.Sub(center, lower))
    upper_slopes = _ops.RealDiv(_ops.Sub(upper, spec_mel), _ops.Sub(upper, center))
    w = _ops.Maximum(zero, _ops.Minimum(lower_slopes, upper_slopes))
    return _ops.Pad(w, np.array([[1, 0], [0, 0]], np.int32))


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms: Any, name: str | None = None) -> Any:
    """MFCCs: an orthonormal-scaled DCT-II of log-mel spectrograms."""
    x = _t(log_mel_spectrograms)
    s = _shape(x)
    if s and s[-1] is not None:
        num = int(s[-1])
        if num == 0:
            raise ValueError(f"num_mel_bins must be positive. Got: {x}")
        numt: Any = _scalar(num, x.dtype)
    else:
        numt = _cast(_ops.Shape(x, out_type="int32")[-1], x.dtype)
    d2 = dct(x, type=2)
    return _ops.Mul(d2, _ops.Rsqrt(_ops.Mul(numt, _scalar(2.0, x.dtype))))
