"""Records TF 2.21's results of nn, image and spectral kernels that no other
TF-recorded file named yet (InTopK/V2, LRNGrad, SoftsignGrad, Dilation2D
backprops, MaxPoolGradGradV2, MaxPoolGradWithArgmax, AdjustSaturation,
HSVToRGB, DrawBoundingBoxes, ResizeBilinearGrad, ResizeNearestNeighborGrad,
DecodeImage, SampleDistortedBoundingBoxV2, RFFT3D/IRFFT3D)
into tests/data/coverage_nn_image_tf221.json. Inputs that must come from a
forward op (LRN's output, MaxPool's argmax, encoded images) are computed
with TF here and recorded as plain inputs. Run with /work/tfvenv/bin/python;
tests/python/test_coverage_nn_image.py reads the JSON."""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(__file__))
from record_coverage_common import Cases, record, t, tf_dtypes

C = Cases("nn_image", 2120)
add = C.add
vals = C.vals
R = C.rng


def tb(items: list[bytes]) -> dict[str, Any]:
    """A string tensor of binary items (hex in the JSON)."""
    return {"hex": [x.hex() for x in items], "dtype": "string", "shape": [len(items)]}


def tb0(item: bytes) -> dict[str, Any]:
    return {"hex": [item.hex()], "dtype": "string", "shape": []}


def u(shape: tuple[int, ...], lo: float = -2.0, hi: float = 2.0) -> np.ndarray:
    return np.round(R.uniform(lo, hi, shape), 3)


# ---------------------------------------------------------------- InTopK / InTopKV2
pred = np.asarray([[0.1, 0.8, 0.1, 0.3], [0.5, 0.5, 0.2, 0.9], [0.3, 0.2, np.inf, 0.0],
                   [np.nan, 0.1, 0.2, 0.3]], np.float32)
for dt in tf_dtypes("InTopK"):
    for k in (1, 2, 4):
        add(f"intopk_{dt}_k{k}", "InTopK", {"predictions": t(pred, "float32"),
                                            "targets": t([1, 0, 2, 1], dt)}, {"k": k},
            T=dt if k == 1 else None)
    add(f"intopkv2_{dt}", "InTopKV2", {"predictions": t(pred, "float32"),
                                       "targets": t([1, 1, 2, 3], dt), "k": t(2, dt)}, T=dt)
add("intopk_target_oob", "InTopK", {"predictions": t(pred, "float32"),
                                    "targets": t([1, 7, -1, 1], "int32")}, {"k": 2})
add("intopk_k0", "InTopK", {"predictions": t(pred, "float32"),
                            "targets": t([1, 0, 2, 1], "int32")}, {"k": 0})
add("intopk_err_rank", "InTopK", {"predictions": t([0.1, 0.2], "float32"),
                                  "targets": t([1], "int32")}, {"k": 1})
add("intopk_err_batch", "InTopK", {"predictions": t(pred, "float32"),
                                   "targets": t([1, 0], "int32")}, {"k": 1})
add("intopkv2_err_k", "InTopKV2", {"predictions": t(pred, "float32"),
                                   "targets": t([1, 0, 2, 1], "int32"), "k": t([1], "int32")})

# ---------------------------------------------------------------- SoftsignGrad
for dt in tf_dtypes("SoftsignGrad"):
    add(f"softsigngrad_{dt}", "SoftsignGrad", {"gradients": t(u((2, 3)), dt),
                                               "features": t(u((2, 3), -5, 5), dt)}, T=dt)
add("softsigngrad_err", "SoftsignGrad", {"gradients": t(u((2, 3)), "float32"),
                                         "features": t(u((3, 2)), "float32")})

# ---------------------------------------------------------------- LRNGrad
img = u((1, 2, 2, 6), 0, 1)
for dt in tf_dtypes("LRNGrad"):
    for i, attrs in enumerate(({}, {"depth_radius": 2, "bias": 2.0, "alpha": 0.5, "beta": 0.75})):
        out = tf.raw_ops.LRN(input=tf.constant(img, tf.float32), **attrs).numpy()
        add(f"lrngrad_{dt}_{i}", "LRNGrad", {"input_grads": t(u(img.shape), dt),
                                             "input_image": t(img, dt),
                                             "output_image": t(out, dt)}, attrs,
            T=dt if i == 0 else None)
add("lrngrad_err_rank", "LRNGrad", {"input_grads": t(u((2, 2, 6)), "float32"),
                                    "input_image": t(u((2, 2, 6)), "float32"),
                                    "output_image": t(u((2, 2, 6)), "float32")})
add("lrngrad_err_shape", "LRNGrad", {"input_grads": t(u((1, 2, 2, 6)), "float32"),
                                     "input_image": t(u((1, 2, 2, 5)), "float32"),
                                     "output_image": t(u((1, 2, 2, 6)), "float32")})

# ---------------------------------------------------------------- Dilation2D backprops
for dt in tf_dtypes("Dilation2DBackpropInput"):
    lo, hi = (0, 9) if dt.startswith("u") else (-5, 9)
    x = vals((1, 4, 5, 2), dt, lo, hi)
    f = vals((2, 2, 2), dt, lo, 3)
    for pad in ("VALID", "SAME"):
        for op in ("Dilation2DBackpropInput", "Dilation2DBackpropFilter"):
            oshape = (1, 3, 4, 2) if pad == "VALID" else (1, 4, 5, 2)
            add(f"{op.lower()}_{dt}_{pad}", op,
                {"input": t(x, dt), "filter": t(f, dt), "out_backprop": t(vals(oshape, dt, 0, 4),
                                                                           dt)},
                {"strides": [1, 1, 1, 1], "rates": [1, 1, 1, 1], "padding": pad},
                T=dt if pad == "VALID" else None)
for op in ("Dilation2DBackpropInput", "Dilation2DBackpropFilter"):
    add(f"{op.lower()}_strides_rates", op,
        {"input": t(u((2, 6, 7, 3)), "float64"), "filter": t(u((2, 3, 3)), "float64"),
         "out_backprop": t(u((2, 2, 2, 3)), "float64")},
        {"strides": [1, 2, 3, 1], "rates": [1, 2, 1, 1], "padding": "VALID"})
    add(f"{op.lower()}_err_bp", op,
        {"input": t(u((1, 4, 5, 2)), "float32"), "filter": t(u((2, 2, 2)), "float32"),
         "out_backprop": t(u((1, 4, 4, 2)), "float32")},
        {"strides": [1, 1, 1, 1], "rates": [1, 1, 1, 1], "padding": "VALID"})
    add(f"{op.lower()}_err_depth", op,
        {"input": t(u((1, 4, 5, 2)), "float32"), "filter": t(u((2, 2, 3)), "float32"),
         "out_backprop": t(u((1, 3, 4, 2)), "float32")},
        {"strides": [1, 1, 1, 1], "rates": [1, 1, 1, 1], "padding": "VALID"})

# -------------------------------------------- MaxPoolGradGradV2, MaxPoolGradWithArgmax
for dt in tf_dtypes("MaxPoolGradGradV2"):
    x = R.permutation(2 * 4 * 4 * 2).reshape(2, 4, 4, 2) - 10
    if dt.startswith("u"):
        x = x + 10
    xt = tf.constant(x, tf.float64)
    for pad in ("VALID", "SAME"):
        y = tf.nn.max_pool2d(xt, 2, 2 if pad == "VALID" else 1, pad).numpy()
        add(f"mpgg2_{dt}_{pad}", "MaxPoolGradGradV2",
            {"orig_input": t(x, dt), "orig_output": t(y, dt), "grad": t(vals(x.shape, dt, 0, 5),
                                                                        dt),
             "ksize": t([1, 2, 2, 1], "int32"),
             "strides": t([1, 2, 2, 1] if pad == "VALID" else [1, 1, 1, 1], "int32")},
            {"padding": pad}, T=dt if pad == "VALID" else None)
        am = tf.raw_ops.MaxPoolWithArgmax(input=xt, ksize=[1, 2, 2, 1],
                                          strides=[1, 2, 2, 1] if pad == "VALID" else
                                          [1, 1, 1, 1], padding=pad)
        add(f"mpgwa_{dt}_{pad}", "MaxPoolGradWithArgmax",
            {"input": t(x, dt), "grad": t(vals(y.shape, dt, 0, 5), dt),
             "argmax": t(am.argmax.numpy(), "int64")},
            {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1] if pad == "VALID" else [1, 1, 1, 1],
             "padding": pad}, T=dt if pad == "VALID" else None)
x = R.permutation(2 * 4 * 4 * 2).reshape(2, 4, 4, 2).astype(np.float32)
am = tf.raw_ops.MaxPoolWithArgmax(input=x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                                  padding="VALID", include_batch_in_index=True)
add("mpgwa_batch_index", "MaxPoolGradWithArgmax",
    {"input": t(x, "float32"), "grad": t(u((2, 2, 2, 2)), "float32"),
     "argmax": t(am.argmax.numpy(), "int64")},
    {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1], "padding": "VALID",
     "include_batch_in_index": True})
# (an argmax out of range aborts TF's process: a CHECK, not a status; not recorded)
add("mpgwa_err_grad", "MaxPoolGradWithArgmax",
    {"input": t(x, "float32"), "grad": t(u((2, 3, 2, 2)), "float32"),
     "argmax": t(np.zeros((2, 2, 2, 2)), "int64")},
    {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1], "padding": "VALID"})
add("mpgg2_err_ksize", "MaxPoolGradGradV2",
    {"orig_input": t(x, "float32"), "orig_output": t(u((2, 2, 2, 2)), "float32"),
     "grad": t(x, "float32"), "ksize": t([2, 2, 2, 1], "int32"),
     "strides": t([1, 2, 2, 1], "int32")}, {"padding": "VALID"})
add("mpgg2_err_len", "MaxPoolGradGradV2",
    {"orig_input": t(x, "float32"), "orig_output": t(u((2, 2, 2, 2)), "float32"),
     "grad": t(x, "float32"), "ksize": t([1, 2, 2], "int32"),
     "strides": t([1, 2, 2, 1], "int32")}, {"padding": "VALID"})

# ---------------------------------------------------------------- color
rgb = np.round(R.uniform(0, 1, (2, 3, 3)), 3)
rgb[0, 0] = [0.5, 0.5, 0.5]
rgb[0, 1] = [1.0, 0.0, 0.0]
for sc in (0.0, 0.5, 1.7):
    add(f"adjustsat_{sc}", "AdjustSaturation", {"images": t(rgb, "float32"),
                                                "scale": t(sc, "float32")},
        T="float32" if sc == 0.5 else None)
add("adjustsat_err_ch", "AdjustSaturation", {"images": t(rgb[..., :2], "float32"),
                                             "scale": t(1.0, "float32")})
add("adjustsat_err_scale", "AdjustSaturation", {"images": t(rgb, "float32"),
                                                "scale": t([1.0], "float32")})
hsv = np.round(R.uniform(0, 1, (2, 4, 3)), 3)
hsv[0, 0] = [0.0, 0.0, 0.7]
hsv[0, 1] = [0.999, 1.0, 1.0]
for dt in tf_dtypes("HSVToRGB"):
    add(f"hsvtorgb_{dt}", "HSVToRGB", {"images": t(hsv, dt)}, T=dt)
add("hsvtorgb_err", "HSVToRGB", {"images": t(hsv[..., :2], "float32")})

# ---------------------------------------------------------------- DrawBoundingBoxes
for dt in tf_dtypes("DrawBoundingBoxes"):
    for ch in (1, 3, 4):
        add(f"drawbb_{dt}_{ch}", "DrawBoundingBoxes",
            {"images": t(np.zeros((2, 6, 7, ch)) + 0.25, dt),
             "boxes": t([[[0.1, 0.1, 0.6, 0.8], [0.0, 0.5, 1.0, 1.2]],
                         [[0.3, 0.2, 0.35, 0.25], [-0.5, -0.5, 0.5, 0.5]]], "float32")},
            T=dt if ch == 3 else None)
add("drawbb_err_rank", "DrawBoundingBoxes", {"images": t(np.zeros((6, 7, 3)), "float32"),
                                             "boxes": t(np.zeros((1, 1, 4)), "float32")})
add("drawbb_err_boxes", "DrawBoundingBoxes", {"images": t(np.zeros((1, 6, 7, 3)), "float32"),
                                              "boxes": t(np.zeros((1, 1, 3)), "float32")})

# ---------------------------------------------------------------- resize grads
for dt in tf_dtypes("ResizeBilinearGrad"):
    for ac, hp in ((False, False), (True, False), (False, True)):
        add(f"rbgrad_{dt}_{ac:d}{hp:d}", "ResizeBilinearGrad",
            {"grads": t(u((1, 5, 4, 2)), "float32"), "original_image": t(u((1, 3, 3, 2)), dt)},
            {"align_corners": ac, "half_pixel_centers": hp}, T=dt if not (ac or hp) else None)
add("rbgrad_err_both", "ResizeBilinearGrad",
    {"grads": t(u((1, 5, 4, 2)), "float32"), "original_image": t(u((1, 3, 3, 2)), "float32")},
    {"align_corners": True, "half_pixel_centers": True})
add("rbgrad_err_rank", "ResizeBilinearGrad",
    {"grads": t(u((5, 4, 2)), "float32"), "original_image": t(u((1, 3, 3, 2)), "float32")})
for dt in tf_dtypes("ResizeNearestNeighborGrad"):
    for ac, hp in ((False, False), (True, False), (False, True)):
        add(f"rnngrad_{dt}_{ac:d}{hp:d}", "ResizeNearestNeighborGrad",
            {"grads": t(vals((1, 5, 4, 2), dt), dt), "size": t([3, 3], "int32")},
            {"align_corners": ac, "half_pixel_centers": hp}, T=dt if not (ac or hp) else None)
add("rnngrad_err_size", "ResizeNearestNeighborGrad",
    {"grads": t(u((1, 5, 4, 2)), "float32"), "size": t([3], "int32")})
add("rnngrad_err_neg", "ResizeNearestNeighborGrad",
    {"grads": t(u((1, 5, 4, 2)), "float32"), "size": t([3, -1], "int32")})

# ---------------------------------------------------------------- DecodeImage
pix = R.integers(0, 256, (3, 4, 3)).astype(np.uint8)
png = tf.io.encode_png(pix).numpy()
png_gray = tf.io.encode_png(pix[..., :1]).numpy()
png16 = tf.io.encode_png(pix.astype(np.uint16) * 257).numpy()
bmp = (b"BM" + (54 + 4 * 2 * 2).to_bytes(4, "little") + b"\0\0\0\0" + (54).to_bytes(4, "little")
       + (40).to_bytes(4, "little") + (2).to_bytes(4, "little") + (2).to_bytes(4, "little")
       + (1).to_bytes(2, "little") + (32).to_bytes(2, "little") + b"\0" * 24
       + bytes(range(16)))
for name, data in (("png", png), ("png_gray", png_gray), ("png16", png16), ("bmp", bmp)):
    for ch in (0, 1, 3, 4):
        add(f"decodeimage_{name}_{ch}", "DecodeImage", {"contents": tb0(data)},
            {"channels": ch, "expand_animations": False})
add("decodeimage_png_u16", "DecodeImage", {"contents": tb0(png16)}, {"dtype": "uint16"})
add("decodeimage_png_float", "DecodeImage", {"contents": tb0(png)}, {"dtype": "float32"})
add("decodeimage_err_unknown", "DecodeImage", {"contents": tb0(b"not an image at all")})
add("decodeimage_err_rank", "DecodeImage", {"contents": tb([png, png])})
add("decodeimage_err_trunc", "DecodeImage", {"contents": tb0(png[:40])})

# ---------------------------------------------------------------- SampleDistortedBoundingBoxV2
for dt in tf_dtypes("SampleDistortedBoundingBoxV2"):
    add(f"sdbb2_{dt}", "SampleDistortedBoundingBoxV2",
        {"image_size": t([40, 60, 3], dt),
         "bounding_boxes": t([[[0.1, 0.2, 0.6, 0.7]]], "float32"),
         "min_object_covered": t(0.3, "float32")}, {"seed": 7, "seed2": 11}, T=dt)
add("sdbb2_ranges", "SampleDistortedBoundingBoxV2",
    {"image_size": t([100, 80, 1], "int32"),
     "bounding_boxes": t([[[0.1, 0.2, 0.6, 0.7], [0.5, 0.5, 0.9, 0.9]]], "float32"),
     "min_object_covered": t(0.1, "float32")},
    {"seed": 3, "seed2": 5, "aspect_ratio_range": [0.5, 2.0], "area_range": [0.1, 0.9],
     "max_attempts": 50})
add("sdbb2_whole", "SampleDistortedBoundingBoxV2",
    {"image_size": t([10, 10, 3], "int64"), "bounding_boxes": t(np.zeros((1, 0, 4)), "float32"),
     "min_object_covered": t(0.1, "float32")},
    {"seed": 1, "seed2": 2, "use_image_if_no_bounding_boxes": True})
add("sdbb2_err_nobox", "SampleDistortedBoundingBoxV2",
    {"image_size": t([10, 10, 3], "int32"), "bounding_boxes": t(np.zeros((1, 0, 4)), "float32"),
     "min_object_covered": t(0.1, "float32")}, {"seed": 1, "seed2": 2})
add("sdbb2_err_size", "SampleDistortedBoundingBoxV2",
    {"image_size": t([10, 10], "int32"), "bounding_boxes": t([[[0.1, 0.2, 0.6, 0.7]]], "float32"),
     "min_object_covered": t(0.1, "float32")}, {"seed": 1, "seed2": 2})

# ---------------------------------------------------------------- spectral
for rt, ct in (("float32", "complex64"), ("float64", "complex128")):
    x = u((2, 3, 4, 5))
    add(f"rfft3d_{rt}", "RFFT3D", {"input": t(x, rt), "fft_length": t([3, 4, 5], "int32")},
        {"Tcomplex": ct})
    add(f"rfft3d_pad_{rt}", "RFFT3D", {"input": t(x, rt), "fft_length": t([2, 3, 4], "int32")},
        {"Tcomplex": ct})
    z = np.fft.rfftn(x, axes=(1, 2, 3))
    add(f"irfft3d_{ct}", "IRFFT3D", {"input": t(z, ct), "fft_length": t([3, 4, 5], "int32")},
        {"Treal": rt})
    add(f"irfft3d_odd_{ct}", "IRFFT3D", {"input": t(z, ct), "fft_length": t([3, 4, 4], "int32")},
        {"Treal": rt})
add("rfft3d_err_rank", "RFFT3D", {"input": t(u((4, 5)), "float32"),
                                  "fft_length": t([3, 4, 5], "int32")})
add("rfft3d_err_len", "RFFT3D", {"input": t(u((3, 4, 5)), "float32"),
                                 "fft_length": t([4, 5], "int32")})
# FFTND, IFFTND, RFFTND, IRFFTND: TF 2.21 registers no CPU kernel (NotFoundError), so
# there is nothing of TF's to record.

if __name__ == "__main__":
    record(C)
