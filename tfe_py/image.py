"""``tf.image``: resizing, cropping, flips, colour conversions and
adjustments, quality metrics, non-max suppression.

Each function follows TensorFlow 2.21's ``tf.image`` (argument names,
defaults, dtype rules, errors) and runs the ops TF's Python layer runs, so
results agree with TF's to the dtype's precision. Image decoding and
encoding (``decode_*``, ``encode_*``, ``adjust_jpeg_quality``, ...) and the
functions whose op tfe lacks raise NotImplementedError naming the op.

Shapes: functions that need an image's static rank (3 or 4) read it from
the tensor, as TF does; sizes, offsets and fractions may be Python values
or eager tensors.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from tfe_py import _api
from tfe_py import ops as _ops

__all__ = [
    "ResizeMethod",
    "adjust_brightness",
    "adjust_contrast",
    "adjust_gamma",
    "adjust_hue",
    "adjust_jpeg_quality",
    "adjust_saturation",
    "central_crop",
    "combined_non_max_suppression",
    "convert_image_dtype",
    "crop_and_resize",
    "crop_to_bounding_box",
    "draw_bounding_boxes",
    "extract_glimpse",
    "extract_patches",
    "flip_left_right",
    "flip_up_down",
    "generate_bounding_box_proposals",
    "grayscale_to_rgb",
    "hsv_to_rgb",
    "image_gradients",
    "non_max_suppression",
    "non_max_suppression_overlaps",
    "non_max_suppression_padded",
    "non_max_suppression_with_scores",
    "pad_to_bounding_box",
    "per_image_standardization",
    "psnr",
    "random_brightness",
    "random_contrast",
    "random_crop",
    "random_flip_left_right",
    "random_flip_up_down",
    "random_hue",
    "random_jpeg_quality",
    "random_saturation",
    "resize",
    "resize_with_crop_or_pad",
    "resize_with_pad",
    "rgb_to_grayscale",
    "rgb_to_hsv",
    "rgb_to_yiq",
    "rgb_to_yuv",
    "rot90",
    "sample_distorted_bounding_box",
    "sobel_edges",
    "ssim",
    "ssim_multiscale",
    "stateless_random_brightness",
    "stateless_random_contrast",
    "stateless_random_crop",
    "stateless_random_flip_left_right",
    "stateless_random_flip_up_down",
    "stateless_random_hue",
    "stateless_random_jpeg_quality",
    "stateless_random_saturation",
    "stateless_sample_distorted_bounding_box",
    "total_variation",
    "transpose",
    "yiq_to_rgb",
    "yuv_to_rgb",
]

# Names TensorFlow also exports at the top level (tf.<name>).
TOPLEVEL: frozenset[str] = frozenset()


class ResizeMethod:
    """The ``method`` values of :func:`resize`."""

    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


# ---- small helpers ----


def _t(value: Any, dtype: Any = None, dtype_hint: Any = None) -> Any:
    return _api.tensor(value, dtype=dtype, dtype_hint=dtype_hint)


def _dt(d: Any) -> Any:
    from tfe_py.dtypes import as_dtype

    return as_dtype(d)


def _shape(x: Any) -> tuple[int | None, ...] | None:
    s = x.shape
    if s is None or getattr(s, "rank", 0) is None:
        return None
    return tuple(s)


def _shape_repr(x: Any) -> str:
    s = _shape(x)
    if s is None:
        return "<unknown>"
    return (
        "(" + ", ".join("None" if d is None else str(d) for d in s) + (",)" if len(s) == 1 else ")")
    )


def _const(v: Any) -> Any:
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


def _num(v: Any) -> Any:
    """A Python number from a number or an eager scalar; None when unknown."""
    c = _const(v)
    if c is None or np.ndim(c) != 0:
        return None
    return c.item()


def _cast(x: Any, dtype: Any) -> Any:
    dtype = _dt(dtype)
    return x if x.dtype == dtype else _ops.Cast(x, DstT=dtype)


def _scalar(v: Any, dtype: Any) -> Any:
    return _t(np.asarray(v, dtype=_dt(dtype).as_numpy_dtype))


def _i32(v: Any) -> Any:
    return np.asarray(v, dtype=np.int32)


def _dims(x: Any) -> list[Any]:
    """Static dims, with int32 scalar tensors for the unknown ones."""
    s = _shape(x)
    if s is not None and all(d is not None for d in s):
        return [int(d) for d in s]  # type: ignore[arg-type]
    shp = _ops.Shape(x, out_type="int32")
    if s is None:
        raise ValueError("the image's rank must be known")
    return [int(d) if d is not None else shp[i] for i, d in enumerate(s)]


def _is_tensor(x: Any) -> bool:
    from tfe_py.tensor import Tensor

    return isinstance(x, Tensor)


def _saturate_cast(value: Any, dtype: Any) -> Any:
    """``tf.dtypes.saturate_cast`` for real dtypes: clamps to the output
    range (nudged inward when the limit is not representable) then casts."""
    dtype = _dt(dtype)
    in_dt = value.dtype
    np_in = in_dt.as_numpy_dtype
    try:
        promoted = np.promote_types(np_in, dtype.as_numpy_dtype)
    except TypeError:
        promoted = np.float64
    lo = np_in(np.maximum(in_dt.min, dtype.min))
    if np.array([lo, dtype.min], dtype=promoted)[0] < np.array([lo, dtype.min], dtype=promoted)[1]:
        lo = np.nextafter(lo, np_in(0), dtype=np_in)
    hi = np_in(np.minimum(float(in_dt.max), float(dtype.max)))
    if np.array([hi, dtype.max], dtype=promoted)[0] > np.array([hi, dtype.max], dtype=promoted)[1]:
        hi = np.nextafter(hi, np_in(0), dtype=np_in)
    value = _ops.ClipByValue(value, _t(np.asarray(lo, np_in)), _t(np.asarray(hi, np_in)))
    return _cast(value, dtype)


def _check_at_least_3d(image: Any) -> None:
    s = _shape(image)
    if s is not None and len(s) < 3:
        raise ValueError(
            f"'image' (shape {_shape_repr(image)}) must be at least three-dimensional."
        )
    if s is not None and any(d == 0 for d in s[-3:]):
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: {_shape_repr(image)}")


def _rank34(image: Any, msg_space: bool = True) -> int:
    s = _shape(image)
    if s is None:
        raise ValueError("tfe's tf.image functions need an image of known rank")
    if len(s) not in (3, 4):
        sep = " " if msg_space else ""
        raise ValueError(
            f"'image' (shape {_shape_repr(image)}){sep}must have either 3 or 4 dimensions."
        )
    return len(s)


# ---- dtype conversion ----


def convert_image_dtype(
    image: Any, dtype: Any, saturate: bool = False, name: str | None = None
) -> Any:
    """Converts between image dtypes, rescaling: floats are in [0, 1),
    integers span [0, MAX]."""
    image = _t(image)
    dtype = _dt(dtype)
    if not dtype.is_floating and not dtype.is_integer:
        raise AttributeError("dtype must be either floating point or integer")
    if not image.dtype.is_floating and not image.dtype.is_integer:
        raise AttributeError("image dtype must be either floating point or integer")
    if dtype == image.dtype:
        return _ops.Identity(image)
    if image.dtype.is_integer and dtype.is_integer:
        scale_in = int(image.dtype.max)
        scale_out = int(dtype.max)
        if scale_in > scale_out:
            scale = (scale_in + 1) // (scale_out + 1)
            scaled = _ops.FloorDiv(image, _scalar(scale, image.dtype))
            return _saturate_cast(scaled, dtype) if saturate else _cast(scaled, dtype)
        cast = _saturate_cast(image, dtype) if saturate else _cast(image, dtype)
        scale = (scale_out + 1) // (scale_in + 1)
        return _ops.Mul(cast, _scalar(scale, dtype))
    if image.dtype.is_floating and dtype.is_floating:
        return _cast(image, dtype)
    if image.dtype.is_integer:
        cast = _cast(image, dtype)
        return _ops.Mul(cast, _scalar(1.0 / image.dtype.max, dtype))
    scaled = _ops.Mul(image, _scalar(dtype.max + 0.5, image.dtype))
    return _saturate_cast(scaled, dtype) if saturate else _cast(scaled, dtype)


# ---- flips, rotations, crops ----


def _flip(image: Any, index: int) -> Any:
    image = _t(image)
    _check_at_least_3d(image)
    r = _rank34(image, msg_space=index == 0)
    return _ops.ReverseV2(image, _i32([index + (r - 3)]))


def flip_left_right(image: Any) -> Any:
    """Mirrors images horizontally (the width dimension)."""
    return _flip(image, 1)


def flip_up_down(image: Any) -> Any:
    """Mirrors images vertically (the height dimension)."""
    return _flip(image, 0)


def rot90(image: Any, k: Any = 1, name: str | None = None) -> Any:
    """Rotates images by 90 degrees counter-clockwise ``k`` times."""
    image = _t(image)
    _check_at_least_3d(image)
    kt = _t(k, dtype="int32")
    if _shape(kt) not in (None, ()):
        raise ValueError(f"Shape {_shape_repr(kt)} must have rank 0")
    r = _rank34(image)
    kv = _num(kt)
    if kv is None:
        raise NotImplementedError("tfe's tf.image.rot90 needs a constant k")
    kv = int(kv) % 4
    h, w = (0, 1) if r == 3 else (1, 2)
    perm = _i32([1, 0, 2] if r == 3 else [0, 2, 1, 3])
    if kv == 0:
        return image
    if kv == 1:
        return _ops.Transpose(_ops.ReverseV2(image, _i32([w])), perm)
    if kv == 2:
        return _ops.ReverseV2(image, _i32([h, w]))
    return _ops.ReverseV2(_ops.Transpose(image, perm), _i32([w]))


def transpose(image: Any, name: str | None = None) -> Any:
    """Swaps the height and width dimensions."""
    image = _t(image)
    _check_at_least_3d(image)
    r = _rank34(image)
    return _ops.Transpose(image, _i32([1, 0, 2] if r == 3 else [0, 2, 1, 3]))


def central_crop(image: Any, central_fraction: Any) -> Any:
    """Crops the central ``central_fraction`` of each image."""
    image = _t(image)
    frac = _num(central_fraction)
    if frac is None:
        raise NotImplementedError("tfe's tf.image.central_crop needs a constant central_fraction")
    if frac <= 0.0 or frac > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    if frac == 1.0:
        return image
    _check_at_least_3d(image)
    s = _shape(image)
    rank = None if s is None else len(s)
    if rank not in (3, 4):
        raise ValueError(
            f"`image` should either be a Tensor with rank = 3 or rank = 4. Had rank = {rank}."
        )
    d = _dims(image)
    hi, wi = (0, 1) if rank == 3 else (1, 2)
    img_h, img_w = d[hi], d[wi]
    if _is_tensor(img_h) or _is_tensor(img_w):
        # sizes known when the graph runs (TF's float64 arithmetic)
        def start(d: Any) -> Any:
            df = _cast(_d32(d), "float64")
            return _cast(
                _ops.RealDiv(_ops.Sub(df, _ops.Mul(df, np.float64(frac))), np.float64(2)), "int32"
            )

        hs, ws = start(img_h), start(img_w)
        hsz = _ops.Sub(_d32(img_h), _ops.Mul(hs, np.int32(2)))
        wsz = _ops.Sub(_d32(img_w), _ops.Mul(ws, np.int32(2)))
        if rank == 3:
            return _ops.Slice(image, _pack_dims([hs, ws, 0]), _pack_dims([hsz, wsz, -1]))
        return _ops.Slice(image, _pack_dims([0, hs, ws, 0]), _pack_dims([-1, hsz, wsz, -1]))
    h0 = int((float(img_h) - float(img_h) * frac) / 2)
    w0 = int((float(img_w) - float(img_w) * frac) / 2)
    if rank == 3:
        begin, size = [h0, w0, 0], [img_h - 2 * h0, img_w - 2 * w0, -1]
    else:
        begin, size = [0, h0, w0, 0], [-1, img_h - 2 * h0, img_w - 2 * w0, -1]
    return _ops.Slice(image, _i32(begin), _i32(size))


def _batched(image: Any) -> tuple[Any, bool]:
    s = _shape(image)
    if s is None:
        raise ValueError("tfe's tf.image functions need an image of known rank")
    if len(s) == 3:
        return _ops.ExpandDims(image, np.int32(0)), False
    if len(s) != 4:
        raise ValueError(
            f"'image' (shape {_shape_repr(image)}) must have either 3 or 4 dimensions."
        )
    return image, True


def _check_batched_3d(image: Any) -> None:
    s = _shape(image)
    if s is not None and any(d == 0 for d in s[-3:]):
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: {_shape_repr(image)}")


def _val(v: Any, what: str) -> int:
    n = _num(v)
    if n is None:
        raise NotImplementedError(f"tfe's tf.image functions need a constant {what}")
    return int(n)


def _d32(v: Any) -> Any:
    """An int or an int32 scalar tensor as an int32 tensor."""
    return _cast(_t(v, dtype_hint="int32"), "int32")


def _pack_dims(items: list[Any]) -> Any:
    return _ops.Pack([_d32(v) for v in items], axis=0)


def _pad_dyn(img: Any, oh: Any, ow: Any, th: Any, tw: Any, height: Any, width: Any) -> Any:
    after_h = _ops.Sub(_ops.Sub(_d32(th), _d32(oh)), _d32(height))
    after_w = _ops.Sub(_ops.Sub(_d32(tw), _d32(ow)), _d32(width))
    rows = [
        _pack_dims([0, 0]),
        _pack_dims([oh, after_h]),
        _pack_dims([ow, after_w]),
        _pack_dims([0, 0]),
    ]
    return _ops.Pad(img, _ops.Pack(rows, axis=0))


def _crop_or_pad_dyn(img: Any, th: int, tw: int, height: Any, width: Any) -> Any:
    """resize_with_crop_or_pad with the image size known only at run time."""
    zero = np.int32(0)
    two = np.int32(2)
    wd = _ops.Sub(_d32(tw), _d32(width))
    hd = _ops.Sub(_d32(th), _d32(height))
    crop_w = _ops.Maximum(_ops.FloorDiv(_ops.Neg(wd), two), zero)
    pad_w = _ops.Maximum(_ops.FloorDiv(wd, two), zero)
    crop_h = _ops.Maximum(_ops.FloorDiv(_ops.Neg(hd), two), zero)
    pad_h = _ops.Maximum(_ops.FloorDiv(hd, two), zero)
    ch = _ops.Minimum(_d32(th), _d32(height))
    cw = _ops.Minimum(_d32(tw), _d32(width))
    cropped = _ops.Slice(img, _pack_dims([0, crop_h, crop_w, 0]), _pack_dims([-1, ch, cw, -1]))
    return _pad_dyn(cropped, pad_h, pad_w, th, tw, ch, cw)


def pad_to_bounding_box(
    image: Any, offset_height: Any, offset_width: Any, target_height: Any, target_width: Any
) -> Any:
    """Zero-pads images to ``target_height`` x ``target_width`` with the
    image at the given offset."""
    image = _t(image)
    img, is_batch = _batched(image)
    _, height, width, _ = _dims(img)
    oh, ow = _val(offset_height, "offset_height"), _val(offset_width, "offset_width")
    th, tw = _val(target_height, "target_height"), _val(target_width, "target_width")
    _check_batched_3d(img)
    if oh < 0:
        raise ValueError("offset_height must be >= 0")
    if ow < 0:
        raise ValueError("offset_width must be >= 0")
    if _is_tensor(height) or _is_tensor(width):
        # sizes known when the graph runs: a negative padding fails there
        padded = _pad_dyn(img, oh, ow, th, tw, height, width)
        return padded if is_batch else _ops.Squeeze(padded, squeeze_dims=[0])
    after_w = tw - ow - width
    after_h = th - oh - height
    if after_w < 0:
        raise ValueError("width must be <= target - offset")
    if after_h < 0:
        raise ValueError("height must be <= target - offset")
    padded = _ops.Pad(img, _i32([[0, 0], [oh, after_h], [ow, after_w], [0, 0]]))
    return padded if is_batch else _ops.Squeeze(padded, squeeze_dims=[0])


def crop_to_bounding_box(
    image: Any, offset_height: Any, offset_width: Any, target_height: Any, target_width: Any
) -> Any:
    """Crops a ``target_height`` x ``target_width`` box at the given offset."""
    image = _t(image)
    img, is_batch = _batched(image)
    _check_batched_3d(img)
    _, height, width, _ = _dims(img)
    oh, ow = _val(offset_height, "offset_height"), _val(offset_width, "offset_width")
    th, tw = _val(target_height, "target_height"), _val(target_width, "target_width")
    if ow < 0:
        raise ValueError("offset_width must be >= 0.")
    if oh < 0:
        raise ValueError("offset_height must be >= 0.")
    if tw <= 0:
        raise ValueError("target_width must be > 0.")
    if th <= 0:
        raise ValueError("target_height must be > 0.")
    if _is_tensor(height) or _is_tensor(width):
        # sizes known when the graph runs: Slice refuses a box outside
        cropped = _ops.Slice(img, _i32([0, oh, ow, 0]), _i32([-1, th, tw, -1]))
        return cropped if is_batch else _ops.Squeeze(cropped, squeeze_dims=[0])
    if width < tw + ow:
        raise ValueError("width must be >= target + offset.")
    if height < th + oh:
        raise ValueError("height must be >= target + offset.")
    cropped = _ops.Slice(img, _i32([0, oh, ow, 0]), _i32([-1, th, tw, -1]))
    return cropped if is_batch else _ops.Squeeze(cropped, squeeze_dims=[0])


def resize_with_crop_or_pad(image: Any, target_height: Any, target_width: Any) -> Any:
    """Centrally crops or zero-pads images to the target size."""
    image = _t(image)
    img, is_batch = _batched(image)
    _check_batched_3d(img)
    th, tw = _val(target_height, "target_height"), _val(target_width, "target_width")
    if tw <= 0:
        raise ValueError("target_width must be > 0.")
    if th <= 0:
        raise ValueError("target_height must be > 0.")
    _, height, width, _ = _dims(img)
    if _is_tensor(height) or _is_tensor(width):
        resized = _crop_or_pad_dyn(img, th, tw, height, width)
        return resized if is_batch else _ops.Squeeze(resized, squeeze_dims=[0])
    wd = tw - width
    hd = th - height
    cropped = crop_to_bounding_box(
        img, max(-hd // 2, 0), max(-wd // 2, 0), min(th, height), min(tw, width)
    )
    resized = pad_to_bounding_box(cropped, max(hd // 2, 0), max(wd // 2, 0), th, tw)
    return resized if is_batch else _ops.Squeeze(resized, squeeze_dims=[0])


# ---- resizing ----

_SCALE_AND_TRANSLATE = ("lanczos3", "lanczos5", "gaussian", "mitchellcubic")


def resize(
    images: Any,
    size: Any,
    method: str = ResizeMethod.BILINEAR,
    preserve_aspect_ratio: bool = False,
    antialias: bool = False,
    name: str | None = None,
) -> Any:
    """Resizes images to ``size`` ([new_height, new_width]) with ``method``."""
    images = _t(images)
    s = _shape(images)
    if s is None:
        raise ValueError("'images' contains no shape.")
    is_batch = True
    if len(s) == 3:
        is_batch = False
        images = _ops.ExpandDims(images, np.int32(0))
    elif len(s) != 4:
        raise ValueError("'images' must have either 3 or 4 dimensions.")
    try:
        size_t = _t(size, dtype="int32")
    except (TypeError, ValueError) as e:
        raise ValueError("'size' must be a 1-D int32 Tensor") from e
    ss = _shape(size_t)
    if ss is not None and (len(ss) != 1 or ss[0] not in (None, 2)):
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    if preserve_aspect_ratio:
        _, ch, cw, _ = _dims(images)
        sv = _const(size_t)
        if sv is None or _is_tensor(ch) or _is_tensor(cw):
            raise NotImplementedError(
                "tfe's preserve_aspect_ratio needs a constant size and known dims"
            )
        f32 = np.float32
        sh = f32(sv[0]) / f32(ch)
        sw = f32(sv[1]) / f32(cw)
        sf = min(sh, sw)
        size_t = _t(
            np.asarray([int(np.round(sf * f32(ch))), int(np.round(sf * f32(cw)))], np.int32)
        )
    out = _resize_fn(images, size_t, method, antialias)
    return out if is_batch else _ops.Squeeze(out, squeeze_dims=[0])


def _resize_fn(images: Any, size: Any, method: str, antialias: bool) -> Any:
    def scale_and_translate(kernel: str) -> Any:
        hw = _ops.StridedSlice(
            _ops.Shape(images, out_type="int32"), _i32([1]), _i32([3]), _i32([1])
        )
        scale = _ops.RealDiv(_cast(size, "float32"), _cast(hw, "float32"))
        return _api.op("ScaleAndTranslate")(
            images,
            size,
            scale,
            np.zeros([2], np.float32),
            kernel_type=kernel,
            antialias=bool(antialias),
        )

    if method == ResizeMethod.BILINEAR:
        if antialias:
            return scale_and_translate("triangle")
        return _ops.ResizeBilinear(images, size, half_pixel_centers=True)
    if method == ResizeMethod.NEAREST_NEIGHBOR:
        return _ops.ResizeNearestNeighbor(images, size, half_pixel_centers=True)
    if method == ResizeMethod.BICUBIC:
        if antialias:
            return scale_and_translate("keyscubic")
        return _ops.ResizeBicubic(images, size, half_pixel_centers=True)
    if method == ResizeMethod.AREA:
        return _ops.ResizeArea(images, size)
    if method in _SCALE_AND_TRANSLATE:
        return scale_and_translate(method)
    raise ValueError(f"Resize method is not implemented: {method}")


def resize_with_pad(
    image: Any,
    target_height: Any,
    target_width: Any,
    method: str = ResizeMethod.BILINEAR,
    antialias: bool = False,
) -> Any:
    """Resizes keeping the aspect ratio, then zero-pads to the target size."""
    image = _t(image)
    img, is_batch = _batched(image)
    _check_batched_3d(img)
    th, tw = _val(target_height, "target_height"), _val(target_width, "target_width")
    if tw <= 0:
        raise ValueError("target_width must be > 0.")
    if th <= 0:
        raise ValueError("target_height must be > 0.")
    _, height, width, _ = _dims(img)
    if _is_tensor(height) or _is_tensor(width):
        fh, fw = _cast(_d32(height), "float32"), _cast(_d32(width), "float32")
        fth, ftw = np.float32(th), np.float32(tw)
        ratio = _ops.Maximum(_ops.RealDiv(fw, ftw), _ops.RealDiv(fh, fth))
        rh_f, rw_f = _ops.RealDiv(fh, ratio), _ops.RealDiv(fw, ratio)
        rh = _cast(_ops.Floor(rh_f), "int32")
        rw = _cast(_ops.Floor(rw_f), "int32")
        ph = _ops.Maximum(
            np.int32(0),
            _cast(_ops.Floor(_ops.RealDiv(_ops.Sub(fth, rh_f), np.float32(2))), "int32"),
        )
        pw = _ops.Maximum(
            np.int32(0),
            _cast(_ops.Floor(_ops.RealDiv(_ops.Sub(ftw, rw_f), np.float32(2))), "int32"),
        )
        resized = _resize_fn(img, _pack_dims([rh, rw]), method, antialias)
        padded = _pad_dyn(resized, ph, pw, th, tw, rh, rw)
        return padded if is_batch else _ops.Squeeze(padded, squeeze_dims=[0])
    f32 = np.float32
    fh, fw, fth, ftw = f32(height), f32(width), f32(th), f32(tw)
    ratio = max(fw / ftw, fh / fth)
    rh_f = fh / ratio
    rw_f = fw / ratio
    rh = int(np.floor(rh_f))
    rw = int(np.floor(rw_f))
    ph = max(0, int(np.floor((fth - rh_f) / f32(2))))
    pw = max(0, int(np.floor((ftw - rw_f) / f32(2))))
    resized = resize(img, [rh, rw], method, antialias=antialias)
    padded = pad_to_bounding_box(resized, ph, pw, th, tw)
    return padded if is_batch else _ops.Squeeze(padded, squeeze_dims=[0])


def crop_and_resize(
    image: Any,
    boxes: Any,
    box_indices: Any,
    crop_size: Any,
    method: str = "bilinear",
    extrapolation_value: float = 0.0,
    name: str | None = None,
) -> Any:
    """Crops boxes out of a batch of images and resizes them to
    ``crop_size`` (the CropAndResize op)."""
    return _ops.CropAndResize(
        _t(image),
        _t(boxes, dtype_hint="float32"),
        _t(box_indices, dtype_hint="int32"),
        _t(crop_size, dtype_hint="int32"),
        method=method,
        extrapolation_value=float(extrapolation_value),
    )


def extract_patches(
    images: Any, sizes: Any, strides: Any, rates: Any, padding: str, name: str | None = None
) -> Any:
    """Patches of ``sizes`` every ``strides`` (with ``rates`` dilation),
    flattened into the depth dimension (the ExtractImagePatches op)."""
    return _api.op("ExtractImagePatches")(
        _t(images), ksizes=list(sizes), strides=list(strides), rates=list(rates), padding=padding
    )


# ---- colour ----


def _tensordot_last(images: Any, kernel: Any) -> Any:
    """tensordot(images, kernel, [[-1], [0]]) for a [c, k] kernel."""
    s = _dims(images)
    k = _t(np.asarray(kernel), dtype=images.dtype)
    flat = _ops.Reshape(images, _i32([-1, s[-1] if not _is_tensor(s[-1]) else -1]))
    out = _ops.MatMul(flat, k)
    kk = int(np.asarray(kernel).shape[1])
    lead = [d if not _is_tensor(d) else -1 for d in s[:-1]]
    if sum(1 for d in lead if d == -1) > 1:
        shp = _ops.ConcatV2(
            [
                _ops.StridedSlice(
                    _ops.Shape(images, out_type="int32"), _i32([0]), _i32([-1]), _i32([1])
                ),
                _i32([kk]),
            ],
            np.int32(0),
        )
        return _ops.Reshape(out, shp)
    return _ops.Reshape(out, _i32([*lead, kk]))


def rgb_to_grayscale(images: Any, name: str | None = None) -> Any:
    """Luma of RGB images (weights 0.2989, 0.5870, 0.1140), last dim 1."""
    images = _t(images)
    orig = images.dtype
    flt = convert_image_dtype(images, "float32")
    gray = _tensordot_last(flt, np.array([[0.2989], [0.5870], [0.1140]], np.float32))
    return convert_image_dtype(gray, orig)


def grayscale_to_rgb(images: Any, name: str | None = None) -> Any:
    """Repeats a one-channel image into three channels."""
    images = _t(images)
    s = _shape(images)
    if s is not None:
        if len(s) < 2:
            raise ValueError(
                f"A grayscale image (shape {_shape_repr(images)}) must be at least two-dimensional."
            )
        if all(d is not None for d in s) and s[-1] != 1:
            raise ValueError("Last dimension of a grayscale image should be size 1.")
    r = len(s) if s is not None else None
    if r is None:
        raise ValueError("tfe's grayscale_to_rgb needs an image of known rank")
    return _ops.Tile(images, _i32([1] * (r - 1) + [3]))


def rgb_to_hsv(images: Any, name: str | None = None) -> Any:
    """RGB to HSV, all in [0, 1] (the RGBToHSV op)."""
    return _ops.RGBToHSV(_t(images))


def hsv_to_rgb(images: Any, name: str | None = None) -> Any:
    """HSV to RGB (the HSVToRGB op)."""
    return _ops.HSVToRGB(_t(images))


_RGB_TO_YIQ = [
    [0.299, 0.59590059, 0.2115],
    [0.587, -0.27455667, -0.52273617],
    [0.114, -0.32134392, 0.31119955],
]
_YIQ_TO_RGB = [
    [1, 1, 1],
    [0.95598634, -0.27201283, -1.10674021],
    [0.6208248, -0.64720424, 1.70423049],
]
_RGB_TO_YUV = [
    [0.299, -0.14714119, 0.61497538],
    [0.587, -0.28886916, -0.51496512],
    [0.114, 0.43601035, -0.10001026],
]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _colour_matrix(images: Any, kernel: list[list[float]]) -> Any:
    images = _t(images)
    return _tensordot_last(images, np.asarray(kernel, images.dtype.as_numpy_dtype))


def rgb_to_yiq(images: Any) -> Any:
    """RGB to YIQ."""
    return _colour_matrix(images, _RGB_TO_YIQ)


def yiq_to_rgb(images: Any) -> Any:
    """YIQ to RGB."""
    return _colour_matrix(images, _YIQ_TO_RGB)


def rgb_to_yuv(images: Any) -> Any:
    """RGB to YUV."""
    return _colour_matrix(images, _RGB_TO_YUV)


def yuv_to_rgb(images: Any) -> Any:
    """YUV to RGB."""
    return _colour_matrix(images, _YUV_TO_RGB)


def _float_image(image: Any) -> tuple[Any, Any]:
    image = _t(image)
    orig = image.dtype
    if orig in (_dt("float16"), _dt("float32")):
        return image, orig
    return convert_image_dtype(image, "float32"), orig


def adjust_brightness(image: Any, delta: Any) -> Any:
    """Adds ``delta`` to every pixel (in float), saturating back."""
    flt, orig = _float_image(image)
    adjusted = _ops.AddV2(flt, _cast(_t(delta, dtype_hint=flt.dtype), flt.dtype))
    return convert_image_dtype(adjusted, orig, saturate=True)


def adjust_contrast(images: Any, contrast_factor: Any) -> Any:
    """``(x - mean) * contrast_factor + mean`` per channel of each image."""
    flt, orig = _float_image(images)
    adjusted = _ops.AdjustContrastv2(flt, _t(contrast_factor, dtype="float32"))
    return convert_image_dtype(adjusted, orig, saturate=True)


def adjust_gamma(image: Any, gamma: Any = 1, gain: Any = 1) -> Any:
    """``gain * image ** gamma`` (in float)."""
    flt, orig = _float_image(image)
    g = _num(gamma)
    if g is not None and g < 0:
        raise ValueError("Gamma should be a non-negative real number.")
    adjusted = _ops.Mul(
        _cast(_t(gain, dtype_hint=flt.dtype), flt.dtype),
        _ops.Pow(flt, _cast(_t(gamma, dtype_hint=flt.dtype), flt.dtype)),
    )
    return convert_image_dtype(adjusted, orig, saturate=True)


def adjust_hue(image: Any, delta: Any, name: str | None = None) -> Any:
    """Rotates the hue of RGB images by ``delta`` (in [-1, 1])."""
    d = _num(delta)
    if d is not None and (d < -1 or d > 1):
        raise ValueError("delta must be in the interval [-1, 1]")
    flt, orig = _float_image(image)
    return convert_image_dtype(_ops.AdjustHue(flt, _t(delta, dtype="float32")), orig)


def adjust_saturation(image: Any, saturation_factor: Any, name: str | None = None) -> Any:
    """Scales the saturation of RGB images by ``saturation_factor``."""
    flt, orig = _float_image(image)
    return convert_image_dtype(
        _ops.AdjustSaturation(flt, _t(saturation_factor, dtype="float32")), orig
    )


def per_image_standardization(image: Any) -> Any:
    """``(x - mean) / max(stddev, 1/sqrt(N))`` over each image's pixels."""
    image = _t(image)
    _check_at_least_3d(image)
    image = _cast(image, "float32")
    shp = _ops.Shape(image, out_type="int32")
    num_pixels = _ops.Prod(
        _ops.StridedSlice(shp, _i32([-3]), _i32([0]), _i32([1]), end_mask=1), np.int32(0)
    )
    axes = _i32([-1, -2, -3])
    mean = _ops.Mean(image, axes, keep_dims=True)
    # reduce_std: sqrt(reduce_mean(square(x - mean)))
    var = _ops.Mean(_ops.Square(_ops.Sub(image, mean)), axes, keep_dims=True)
    stddev = _ops.Sqrt(var)
    min_stddev = _ops.Rsqrt(_cast(num_pixels, "float32"))
    adjusted = _ops.Maximum(stddev, min_stddev)
    return _ops.RealDiv(_ops.Sub(image, mean), adjusted)


# ---- random adjustments ----


def _random_uniform(shape: Any, minval: Any, maxval: Any, seed: Any, dtype: Any = "float32") -> Any:
    from tfe_py import random as _random

    return _random.uniform(shape, minval=minval, maxval=maxval, dtype=dtype, seed=seed)


def _stateless_uniform(
    shape: Any, minval: Any, maxval: Any, seed: Any, dtype: Any = "float32"
) -> Any:
    from tfe_py import random as _random

    return _random.stateless_uniform(shape, seed, minval=minval, maxval=maxval, dtype=dtype)


def _random_flip(image: Any, index: int, rand: Any) -> Any:
    image = _t(image)
    _check_at_least_3d(image)
    s = _shape(image)
    if s is None:
        raise ValueError("tfe's random flips need an image of known rank")
    if len(s) == 3:
        u = rand([])
        if float(_const(u) if _const(u) is not None else 1.0) < 0.5:
            return _ops.ReverseV2(image, _i32([index]))
        return image
    if len(s) == 4:
        batch = _dims(image)[0]
        u = rand([batch] if not _is_tensor(batch) else _ops.Reshape(batch, _i32([1])))
        flips = _cast(_ops.Round(_ops.Reshape(u, _i32([-1, 1, 1, 1]))), image.dtype)
        flipped = _ops.ReverseV2(image, _i32([index + 1]))
        one = _scalar(1, image.dtype)
        return _ops.AddV2(_ops.Mul(flips, flipped), _ops.Mul(_ops.Sub(one, flips), image))
    raise ValueError(f"'image' (shape {_shape_repr(image)}) must have either 3 or 4 dimensions.")


def random_flip_left_right(image: Any, seed: Any = None) -> Any:
    """Flips each image horizontally with probability 1/2."""
    return _random_flip(image, 1, lambda shape: _random_uniform(shape, 0, 1.0, seed))


def random_flip_up_down(image: Any, seed: Any = None) -> Any:
    """Flips each image vertically with probability 1/2."""
    return _random_flip(image, 0, lambda shape: _random_uniform(shape, 0, 1.0, seed))


def stateless_random_flip_left_right(image: Any, seed: Any) -> Any:
    """Deterministic (given ``seed``) :func:`random_flip_left_right`."""
    return _random_flip(image, 1, lambda shape: _stateless_uniform(shape, 0, 1.0, seed))


def stateless_random_flip_up_down(image: Any, seed: Any) -> Any:
    """Deterministic (given ``seed``) :func:`random_flip_up_down`."""
    return _random_flip(image, 0, lambda shape: _stateless_uniform(shape, 0, 1.0, seed))


def random_brightness(image: Any, max_delta: Any, seed: Any = None) -> Any:
    """:func:`adjust_brightness` by a delta uniform in [-max_delta, max_delta)."""
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, _random_uniform([], -max_delta, max_delta, seed))


def stateless_random_brightness(image: Any, max_delta: Any, seed: Any) -> Any:
    """Deterministic (given ``seed``) :func:`random_brightness`."""
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, _stateless_uniform([], -max_delta, max_delta, seed))


def _check_lower_upper(lower: Any, upper: Any) -> None:
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


def random_contrast(image: Any, lower: Any, upper: Any, seed: Any = None) -> Any:
    """:func:`adjust_contrast` by a factor uniform in [lower, upper)."""
    _check_lower_upper(lower, upper)
    return adjust_contrast(image, _random_uniform([], lower, upper, seed))


def stateless_random_contrast(image: Any, lower: Any, upper: Any, seed: Any) -> Any:
    """Deterministic (given ``seed``) :func:`random_contrast`."""
    _check_lower_upper(lower, upper)
    return adjust_contrast(image, _stateless_uniform([], lower, upper, seed))


def random_saturation(image: Any, lower: Any, upper: Any, seed: Any = None) -> Any:
    """:func:`adjust_saturation` by a factor uniform in [lower, upper)."""
    _check_lower_upper(lower, upper)
    return adjust_saturation(image, _random_uniform([], lower, upper, seed))


def stateless_random_saturation(image: Any, lower: Any, upper: Any, seed: Any = None) -> Any:
    """Deterministic (given ``seed``) :func:`random_saturation`."""
    _check_lower_upper(lower, upper)
    return adjust_saturation(image, _stateless_uniform([], lower, upper, seed))


def _check_hue_delta(max_delta: Any) -> None:
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")


def random_hue(image: Any, max_delta: Any, seed: Any = None) -> Any:
    """:func:`adjust_hue` by a delta uniform in [-max_delta, max_delta)."""
    _check_hue_delta(max_delta)
    return adjust_hue(image, _random_uniform([], -max_delta, max_delta, seed))


def stateless_random_hue(image: Any, max_delta: Any, seed: Any) -> Any:
    """Deterministic (given ``seed``) :func:`random_hue`."""
    _check_hue_delta(max_delta)
    return adjust_hue(image, _stateless_uniform([], -max_delta, max_delta, seed))


def _crop_offset(value: Any, size: Any, draw: Any) -> Any:
    value = _t(value)
    size = _t(size, dtype_hint="int32")
    shape = _ops.Shape(value, out_type=size.dtype)
    sv, zv = _const(shape), _const(size)
    if sv is not None and zv is not None and not np.all(sv >= zv):
        from tfe_py import errors

        raise errors.InvalidArgumentError(
            None,
            None,
            "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
            "b'Need value.shape >= size, got '\n"
            + ", ".join(str(int(v)) for v in sv)
            + "\n"
            + ", ".join(str(int(v)) for v in np.ravel(zv)),
        )
    limit = _ops.AddV2(_ops.Sub(shape, size), _scalar(1, size.dtype))
    n = _ops.Shape(shape, out_type="int32")
    offset = _ops.FloorMod(draw(n, size.dtype), limit)
    return _ops.Slice(value, offset, size)


def random_crop(value: Any, size: Any, seed: Any = None, name: str | None = None) -> Any:
    """A ``size`` slice of ``value`` at a uniformly random offset."""
    return _crop_offset(
        value, size, lambda n, dt: _random_uniform(n, 0, _dt(dt).max, seed, dtype=dt)
    )


def stateless_random_crop(value: Any, size: Any, seed: Any, name: str | None = None) -> Any:
    """Deterministic (given ``seed``) :func:`random_crop`."""
    return _crop_offset(
        value, size, lambda n, dt: _stateless_uniform(n, 0, _dt(dt).max, seed, dtype=dt)
    )


def _jpeg(*_args: Any, **_kwargs: Any) -> Any:
    _api.unimplemented("EncodeJpegVariableQuality", "tf.image.adjust_jpeg_quality")


def adjust_jpeg_quality(
    image: Any, jpeg_quality: Any, dct_method: str = "", name: str | None = None
) -> Any:
    """Needs JPEG encoding, which tfe lacks: raises NotImplementedError."""
    _api.unimplemented("EncodeJpegVariableQuality", "tf.image.adjust_jpeg_quality")


def random_jpeg_quality(
    image: Any, min_jpeg_quality: Any, max_jpeg_quality: Any, seed: Any = None
) -> Any:
    """Needs JPEG encoding, which tfe lacks: raises NotImplementedError."""
    _api.unimplemented("EncodeJpegVariableQuality", "tf.image.random_jpeg_quality")


def stateless_random_jpeg_quality(
    image: Any, min_jpeg_quality: Any, max_jpeg_quality: Any, seed: Any
) -> Any:
    """Needs JPEG encoding, which tfe lacks: raises NotImplementedError."""
    _api.unimplemented("EncodeJpegVariableQuality", "tf.image.stateless_random_jpeg_quality")


# ---- metrics and gradients ----


def total_variation(images: Any, name: str | None = None) -> Any:
    """Sum of absolute differences between neighbouring pixels."""
    images = _t(images)
    s = _shape(images)
    nd = None if s is None else len(s)
    if nd == 3:
        d1 = _ops.Sub(images[1:, :, :], images[:-1, :, :])
        d2 = _ops.Sub(images[:, 1:, :], images[:, :-1, :])
        axes = _i32([0, 1, 2])
    elif nd == 4:
        d1 = _ops.Sub(images[:, 1:, :, :], images[:, :-1, :, :])
        d2 = _ops.Sub(images[:, :, 1:, :], images[:, :, :-1, :])
        axes = _i32([1, 2, 3])
    else:
        raise ValueError("'images' must be either 3 or 4-dimensional.")
    return _ops.AddV2(_ops.Sum(_ops.Abs(d1), axes), _ops.Sum(_ops.Abs(d2), axes))


def image_gradients(image: Any) -> tuple[Any, Any]:
    """Forward differences ``(dy, dx)`` of ``[batch, h, w, d]`` images, zero
    in the last row/column."""
    image = _t(image)
    s = _shape(image)
    if s is None or len(s) != 4:
        shape_txt = "<unknown>" if s is None else _shape_repr(image)
        raise ValueError(
            f"image_gradients expects a 4D tensor [batch_size, h, w, d], not {shape_txt}."
        )
    dy = _ops.Sub(image[:, 1:, :, :], image[:, :-1, :, :])
    dx = _ops.Sub(image[:, :, 1:, :], image[:, :, :-1, :])
    dy = _ops.Pad(dy, _i32([[0, 0], [0, 1], [0, 0], [0, 0]]))
    dx = _ops.Pad(dx, _i32([[0, 0], [0, 0], [0, 1], [0, 0]]))
    return dy, dx


def sobel_edges(image: Any) -> Any:
    """Sobel edge maps ``[batch, h, w, d, 2]`` (dy, dx) with reflect padding."""
    image = _t(image)
    kernels = np.asarray(
        [[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]]
    )
    kernels = np.expand_dims(np.transpose(kernels, (1, 2, 0)), -2)
    d = _dims(image)
    k = _ops.Tile(
        _t(kernels.astype(image.dtype.as_numpy_dtype)),
        _ops.Pack([np.int32(1), np.int32(1), _t(d[-1], dtype="int32"), np.int32(1)]),
    )
    padded = _ops.MirrorPad(image, _i32([[0, 0], [1, 1], [1, 1], [0, 0]]), mode="REFLECT")
    out = _ops.DepthwiseConv2dNative(padded, k, strides=[1, 1, 1, 1], padding="VALID")
    shape = _ops.ConcatV2([_ops.Shape(image, out_type="int32"), _i32([2])], np.int32(0))
    return _ops.Reshape(out, shape)


def _verify_compatible(a: Any, b: Any) -> None:
    sa, sb = _shape(a), _shape(b)
    for s, x in ((sa, a), (sb, b)):
        if s is not None and len(s) < 3:
            raise ValueError(f"Shape {_shape_repr(x)} must have rank at least 3")
    if sa is not None and sb is not None:
        for d1, d2 in zip(sa[-3:], sb[-3:], strict=True):
            if d1 is not None and d2 is not None and d1 != d2:
                raise ValueError(f"Shapes {_shape_repr(a)} and {_shape_repr(b)} are incompatible")
        for d1, d2 in zip(reversed(sa[:-3]), reversed(sb[:-3]), strict=False):
            if not (d1 == 1 or d2 == 1 or d1 is None or d2 is None or d1 == d2):
                raise ValueError(
                    f"Two images are not compatible: {_shape_repr(a)} and {_shape_repr(b)}"
                )


def psnr(a: Any, b: Any, max_val: Any, name: str | None = None) -> Any:
    """Peak signal-to-noise ratio between images ``a`` and ``b``."""
    a = _t(a)
    b = _t(b)
    mv = _cast(_t(max_val, dtype_hint=a.dtype), a.dtype)
    mv = convert_image_dtype(mv, "float32")
    a = convert_image_dtype(a, "float32")
    b = convert_image_dtype(b, "float32")
    _verify_compatible(a, b)
    mse = _ops.Mean(_ops.SquaredDifference(a, b), _i32([-3, -2, -1]))
    lhs = _ops.RealDiv(_ops.Mul(np.float32(20), _ops.Log(mv)), _ops.Log(np.float32(10.0)))
    return _ops.Sub(lhs, _ops.Mul(np.float32(10 / np.log(10)), _ops.Log(mse)))


def _fspecial_gauss(size: int, sigma: Any, dtype: Any) -> Any:
    coords = _cast(_ops.Range(np.int32(0), np.int32(size), np.int32(1)), dtype)
    coords = _ops.Sub(coords, _ops.RealDiv(_scalar(size - 1, dtype), _scalar(2.0, dtype)))
    g = _ops.Square(coords)
    g = _ops.Mul(g, _ops.RealDiv(_scalar(-0.5, dtype), _ops.Square(sigma)))
    g = _ops.AddV2(_ops.Reshape(g, _i32([1, -1])), _ops.Reshape(g, _i32([-1, 1])))
    g = _ops.Softmax(_ops.Reshape(g, _i32([1, -1])))
    return _ops.Reshape(g, _i32([size, size, 1, 1]))


def _ssim_per_channel(
    img1: Any,
    img2: Any,
    max_val: Any,
    filter_size: int,
    filter_sigma: float,
    k1: float,
    k2: float,
    return_index_map: bool,
) -> tuple[Any, Any]:
    dt = img1.dtype
    s1 = _dims(img1)
    for s in (s1, _dims(img2)):
        h, w = s[-3], s[-2]
        if not _is_tensor(h) and not _is_tensor(w) and (h < filter_size or w < filter_size):
            from tfe_py import errors

            raise errors.InvalidArgumentError(
                None, None, f"assertion failed: [{list(s)}] [{filter_size}]"
            )
    sigma = _scalar(filter_sigma, dt)
    kernel = _fspecial_gauss(filter_size, sigma, dt)
    kernel = _ops.Tile(
        kernel, _ops.Pack([np.int32(1), np.int32(1), _t(s1[-1], dtype="int32"), np.int32(1)])
    )

    def reducer(x: Any) -> Any:
        shape = _ops.Shape(x, out_type="int32")
        tail = _ops.StridedSlice(shape, _i32([-3]), _i32([0]), _i32([1]), end_mask=1)
        head = _ops.StridedSlice(shape, _i32([0]), _i32([-3]), _i32([1]))
        x4 = _ops.Reshape(x, _ops.ConcatV2([_i32([-1]), tail], np.int32(0)))
        y = _ops.DepthwiseConv2dNative(x4, kernel, strides=[1, 1, 1, 1], padding="VALID")
        ytail = _ops.StridedSlice(
            _ops.Shape(y, out_type="int32"), _i32([1]), _i32([0]), _i32([1]), end_mask=1
        )
        return _ops.Reshape(y, _ops.ConcatV2([head, ytail], np.int32(0)))

    c1 = _ops.Square(_ops.Mul(_scalar(k1, dt), max_val))
    c2 = _ops.Square(_ops.Mul(_scalar(k2, dt), max_val))
    mean0 = reducer(img1)
    mean1 = reducer(img2)
    num0 = _ops.Mul(_ops.Mul(mean0, mean1), _scalar(2.0, dt))
    den0 = _ops.AddV2(_ops.Square(mean0), _ops.Square(mean1))
    luminance = _ops.RealDiv(_ops.AddV2(num0, c1), _ops.AddV2(den0, c1))
    num1 = _ops.Mul(reducer(_ops.Mul(img1, img2)), _scalar(2.0, dt))
    den1 = reducer(_ops.AddV2(_ops.Square(img1), _ops.Square(img2)))
    c2 = _ops.Mul(c2, _scalar(1.0, dt))
    cs = _ops.RealDiv(_ops.AddV2(_ops.Sub(num1, num0), c2), _ops.AddV2(_ops.Sub(den1, den0), c2))
    if return_index_map:
        return _ops.Mul(luminance, cs), cs
    axes = _i32([-3, -2])
    return _ops.Mean(_ops.Mul(luminance, cs), axes), _ops.Mean(cs, axes)


def ssim(
    img1: Any,
    img2: Any,
    max_val: Any,
    filter_size: int = 11,
    filter_sigma: float = 1.5,
    k1: float = 0.01,
    k2: float = 0.03,
    return_index_map: bool = False,
) -> Any:
    """Structural similarity index between images (Gaussian window)."""
    img1 = _t(img1)
    img2 = _t(img2)
    _verify_compatible(img1, img2)
    mv = _cast(_t(max_val, dtype_hint=img1.dtype), img1.dtype)
    mv = convert_image_dtype(mv, "float32")
    img1 = convert_image_dtype(img1, "float32")
    img2 = convert_image_dtype(img2, "float32")
    per_channel, _ = _ssim_per_channel(
        img1, img2, mv, filter_size, filter_sigma, k1, k2, return_index_map
    )
    return _ops.Mean(per_channel, _i32([-1]))


_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def ssim_multiscale(
    img1: Any,
    img2: Any,
    max_val: Any,
    power_factors: Any = _MSSSIM_WEIGHTS,
    filter_size: int = 11,
    filter_sigma: float = 1.5,
    k1: float = 0.01,
    k2: float = 0.03,
) -> Any:
    """Multi-scale SSIM (images downscaled by 2 per scale)."""
    img1 = _t(img1)
    img2 = _t(img2)
    _verify_compatible(img1, img2)
    mv = _cast(_t(max_val, dtype_hint=img1.dtype), img1.dtype)
    mv = convert_image_dtype(mv, "float32")
    imgs = [convert_image_dtype(img1, "float32"), convert_image_dtype(img2, "float32")]
    heads = [_dims(x)[:-3] for x in imgs]
    mcs = []
    per_channel = None
    for k in range(len(power_factors)):
        if k > 0:
            flat = [_ops.Reshape(x, _i32([-1, *_dims(x)[-3:]])) for x in imgs]
            tail = _dims(flat[0])[1:]
            rem = [tail[0] % 2, tail[1] % 2]
            if any(rem):
                pads = _i32([[0, 0], [0, rem[0]], [0, rem[1]], [0, 0]])
                flat = [_ops.MirrorPad(x, pads, mode="SYMMETRIC") for x in flat]
            down = [
                _ops.AvgPool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
                for x in flat
            ]
            imgs = [
                _ops.Reshape(x, _i32([*h, *_dims(x)[1:]])) for x, h in zip(down, heads, strict=True)
            ]
        per_channel, cs = _ssim_per_channel(
            imgs[0], imgs[1], mv, filter_size, filter_sigma, k1, k2, False
        )
        mcs.append(_ops.Relu(cs))
    mcs.pop()
    stacked = _ops.Pack([*mcs, _ops.Relu(per_channel)], axis=-1)
    ms = _ops.Prod(_ops.Pow(stacked, _t(np.asarray(power_factors, np.float32))), _i32([-1]))
    return _ops.Mean(ms, _i32([-1]))


# ---- non-max suppression, boxes ----


def non_max_suppression(
    boxes: Any,
    scores: Any,
    max_output_size: Any,
    iou_threshold: Any = 0.5,
    score_threshold: Any = float("-inf"),
    name: str | None = None,
) -> Any:
    """Indices of the boxes greedy non-max suppression keeps (by score)."""
    boxes = _t(boxes, dtype_hint="float32")
    scores = _t(scores, dtype_hint="float32")
    iou = _t(iou_threshold, dtype_hint="float32")
    st = _t(score_threshold, dtype_hint="float32")
    return _ops.NonMaxSuppressionV3(boxes, scores, _t(max_output_size, dtype="int32"), iou, st)


def non_max_suppression_with_scores(
    boxes: Any,
    scores: Any,
    max_output_size: Any,
    iou_threshold: Any = 0.5,
    score_threshold: Any = float("-inf"),
    soft_nms_sigma: Any = 0.0,
    name: str | None = None,
) -> tuple[Any, Any]:
    """Non-max suppression (Soft-NMS when ``soft_nms_sigma`` > 0) returning
    the selected indices and their (possibly reduced) scores."""
    boxes = _t(boxes, dtype_hint="float32")
    scores = _t(scores, dtype_hint="float32")
    dt = boxes.dtype
    out = _ops.NonMaxSuppressionV5(
        boxes,
        scores,
        _t(max_output_size, dtype="int32"),
        _cast(_t(iou_threshold, dtype_hint=dt), dt),
        _cast(_t(score_threshold, dtype_hint=dt), dt),
        _cast(_t(soft_nms_sigma, dtype_hint=dt), dt),
        pad_to_max_output_size=False,
    )
    return out[0], out[1]


def non_max_suppression_overlaps(
    overlaps: Any,
    scores: Any,
    max_output_size: Any,
    overlap_threshold: Any = 0.5,
    score_threshold: Any = float("-inf"),
    name: str | None = None,
) -> Any:
    """Non-max suppression from a precomputed overlap matrix."""
    return _api.op("NonMaxSuppressionWithOverlaps")(
        _t(overlaps, dtype="float32"),
        _t(scores, dtype="float32"),
        _t(max_output_size, dtype="int32"),
        _t(overlap_threshold, dtype="float32"),
        _t(score_threshold, dtype="float32"),
    )


def non_max_suppression_padded(
    boxes: Any,
    scores: Any,
    max_output_size: Any,
    iou_threshold: Any = 0.5,
    score_threshold: Any = float("-inf"),
    pad_to_max_output_size: bool = False,
    name: str | None = None,
    sorted_input: bool = False,
    canonicalized_coordinates: bool = False,
    tile_size: int = 512,
) -> Any:
    """Non-max suppression with the result padded to ``max_output_size``;
    returns ``(selected_indices, num_valid)``. tfe runs NonMaxSuppressionV4
    per batch entry (same selection as TF's tiled algorithm for boxes that
    are not exact score ties)."""
    boxes = _t(boxes, dtype_hint="float32")
    scores = _t(scores, dtype_hint="float32")
    bs = _shape(boxes)
    if not pad_to_max_output_size and bs is not None and len(bs) > 2:
        raise ValueError(
            f"'pad_to_max_output_size' (value {pad_to_max_output_size}) must be True for "
            "batched input"
        )
    mos = _val(max_output_size, "max_output_size")
    if bs is None or any(d is None for d in bs):
        raise NotImplementedError("tfe's non_max_suppression_padded needs boxes of known shape")
    n = int(bs[-2])  # type: ignore[arg-type]
    flat_b = _ops.Reshape(_cast(boxes, "float32"), _i32([-1, n, 4]))
    flat_s = _ops.Reshape(_cast(scores, "float32"), _i32([-1, n]))
    batch = int(np.prod(bs[:-2])) if len(bs) > 2 else 1
    iou = _t(iou_threshold, dtype="float32")
    st = _t(score_threshold, dtype="float32")
    idxs, valids = [], []
    for i in range(batch):
        b = flat_b[i]
        if not canonicalized_coordinates:
            b = _canonical_boxes(b)
        sel, num = _ops.NonMaxSuppressionV4(
            b, flat_s[i], np.int32(mos), iou, st, pad_to_max_output_size=True
        )
        idxs.append(sel)
        valids.append(num)
    idx = _ops.Pack(idxs, axis=0)
    num_valid = _ops.Pack(valids, axis=0)
    if not pad_to_max_output_size:
        nv = int(_const(num_valid)[0])  # type: ignore[index]
        return idx[0, :nv], _ops.Reshape(num_valid, _i32(list(bs[:-2])))
    return (_ops.Reshape(idx, _i32([*bs[:-2], mos])), _ops.Reshape(num_valid, _i32(list(bs[:-2]))))


def _canonical_boxes(b: Any) -> Any:
    y1, x1, y2, x2 = b[:, 0:1], b[:, 1:2], b[:, 2:3], b[:, 3:4]
    return _ops.ConcatV2(
        [_ops.Minimum(y1, y2), _ops.Minimum(x1, x2), _ops.Maximum(y1, y2), _ops.Maximum(x1, x2)],
        np.int32(1),
    )


def combined_non_max_suppression(
    boxes: Any,
    scores: Any,
    max_output_size_per_class: Any,
    max_total_size: Any,
    iou_threshold: Any = 0.5,
    score_threshold: Any = float("-inf"),
    pad_per_class: bool = False,
    clip_boxes: bool = True,
    name: str | None = None,
) -> Any:
    """Per-class non-max suppression over a batch (CombinedNonMaxSuppression)."""
    return _api.op("CombinedNonMaxSuppression")(
        _t(boxes, dtype="float32"),
        _t(scores, dtype="float32"),
        _t(max_output_size_per_class, dtype="int32"),
        _t(max_total_size, dtype="int32"),
        _t(iou_threshold, dtype="float32"),
        _t(score_threshold, dtype="float32"),
        pad_per_class=pad_per_class,
        clip_boxes=clip_boxes,
    )


def draw_bounding_boxes(images: Any, boxes: Any, colors: Any, name: str | None = None) -> Any:
    """Draws box outlines onto a batch of images."""
    images = _t(images, dtype_hint="float32")
    if colors is None:
        return _api.op("DrawBoundingBoxes")(images, _t(boxes, dtype="float32"))
    return _api.op("DrawBoundingBoxesV2")(
        images, _t(boxes, dtype="float32"), _t(colors, dtype="float32")
    )


# ---- ops tfe does not have ----


def _missing(op_name: str, api: str) -> Any:
    def fn(*_args: Any, **_kwargs: Any) -> Any:
        _api.unimplemented(op_name, f"tf.image.{api}")

    fn.__name__ = api
    fn.__doc__ = f"Needs the TensorFlow op {op_name}, which tfe lacks: raises NotImplementedError."
    return fn


generate_bounding_box_proposals = _missing(
    "GenerateBoundingBoxProposals", "generate_bounding_box_proposals"
)

# The codecs are tf.io's functions (TF exports the same objects under both
# names): looked up in tfe_py.io on first use.
_FROM_IO = frozenset(
    {
        "decode_and_crop_jpeg",
        "decode_bmp",
        "decode_gif",
        "decode_image",
        "decode_jpeg",
        "decode_jxl",
        "decode_png",
        "decode_webp",
        "encode_jpeg",
        "encode_png",
        "extract_jpeg_shape",
        "is_jpeg",
    }
)


__all__ += sorted(_FROM_IO)


def __getattr__(name: str) -> Any:
    if name in _FROM_IO:
        from tfe_py import io as _io

        fn = getattr(_io, name)
        globals()[name] = fn
        return fn
    raise AttributeError(f"module 'tfe_py.image' has no attribute {name!r}")


def extract_glimpse(
    input: Any,
    size: Any,
    offsets: Any,
    centered: bool = True,
    normalized: bool = True,
    noise: str = "uniform",
    name: str | None = None,
) -> Any:
    """Windows of ``size`` at ``offsets`` (y, x) of each image; parts
    outside the image are filled with ``noise`` ("uniform", "gaussian" or
    "zero"; the random fills are not TF's numbers)."""
    return _api.op("ExtractGlimpseV2")(
        _t(input, dtype="float32"),
        _t(size, dtype="int32"),
        _t(offsets, dtype="float32"),
        centered=centered,
        normalized=normalized,
        noise=noise,
        uniform_noise=False,
    )


def _sdbb_attrs(
    aspect_ratio_range: Any, area_range: Any, max_attempts: Any, use_image_if_no_bounding_boxes: Any
) -> dict[str, Any]:
    attrs: dict[str, Any] = {}
    if aspect_ratio_range is not None:
        attrs["aspect_ratio_range"] = [float(v) for v in aspect_ratio_range]
    if area_range is not None:
        attrs["area_range"] = [float(v) for v in area_range]
    if max_attempts is not None:
        attrs["max_attempts"] = int(max_attempts)
    if use_image_if_no_bounding_boxes is not None:
        attrs["use_image_if_no_bounding_boxes"] = bool(use_image_if_no_bounding_boxes)
    return attrs


def sample_distorted_bounding_box(
    image_size: Any,
    bounding_boxes: Any,
    seed: Any = 0,
    min_object_covered: Any = 0.1,
    aspect_ratio_range: Any = None,
    area_range: Any = None,
    max_attempts: Any = None,
    use_image_if_no_bounding_boxes: Any = None,
    name: str | None = None,
) -> Any:
    """A random crop ``(begin, size, bboxes)`` covering part of the boxes
    (SampleDistortedBoundingBoxV2; seeded as TF: a seed of 0 is
    non-deterministic)."""
    if seed:
        from tfe_py import random as _random

        s1, s2 = _random.get_seed(seed)
        seed1, seed2 = s1 or 0, s2 or 0
    else:
        seed1, seed2 = 0, 0
    return _api.op("SampleDistortedBoundingBoxV2")(
        _t(image_size),
        _t(bounding_boxes, dtype="float32"),
        _t(min_object_covered, dtype="float32"),
        seed=seed1,
        seed2=seed2,
        **_sdbb_attrs(aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes),
    )


def stateless_sample_distorted_bounding_box(
    image_size: Any,
    bounding_boxes: Any,
    seed: Any,
    min_object_covered: Any = 0.1,
    aspect_ratio_range: Any = None,
    area_range: Any = None,
    max_attempts: Any = None,
    use_image_if_no_bounding_boxes: Any = None,
    name: str | None = None,
) -> Any:
    """Deterministic (given ``seed``, shape [2]) :func:`sample_distorted_bounding_box`."""
    return _api.op("StatelessSampleDistortedBoundingBox")(
        _t(image_size),
        _t(bounding_boxes, dtype="float32"),
        _t(min_object_covered, dtype="float32"),
        _t(seed),
        **_sdbb_attrs(aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes),
    )
