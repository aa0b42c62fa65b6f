"""Records TensorFlow 2.21's results for tests/python/test_api_signal_image.py.

Run with a TensorFlow 2.21 Python (never needed by the tests themselves):

    /work/tfvenv/bin/python tools/record_api_signal_image.py

Each case is a Python expression over ``tf`` and ``np`` (and the inputs
defined in PRELUDE); the recorder evaluates it with TensorFlow and stores
the value (dtype, shape, numbers) or the error (class name and message) in
tests/data/api_signal_image_tf221.json, together with the expression, so
the test evaluates exactly the same code with ``import tfe_py as tf``.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "api_signal_image_tf221.json")

# Inputs shared by the cases (deterministic; numpy only).
PRELUDE = """
rs = np.random.RandomState(7)
def cplx(*shape, dt=np.complex64):
    return (rs.standard_normal(shape) + 1j * rs.standard_normal(shape)).astype(dt)
def real(*shape, dt=np.float32):
    return rs.standard_normal(shape).astype(dt)
N1 = (1, 2, 3, 5, 7, 8, 12, 13, 16, 31, 64, 97, 100, 127, 128, 243, 257, 1000)
c1 = {n: cplx(2, n) for n in N1}
c1d = {n: cplx(3, n, dt=np.complex128) for n in (6, 17, 128, 211)}
r1 = {n: real(3, n) for n in (1, 2, 5, 8, 9, 16, 17, 30, 101)}
r1d = real(2, 21, dt=np.float64)
c2 = cplx(2, 6, 5)
c3 = cplx(3, 4, 5, 7)
r2 = real(2, 5, 7)
r3 = real(3, 4, 6)
audio = real(2, 1000)
img = rs.uniform(0, 1, (2, 5, 6, 3)).astype(np.float32)
img1 = rs.uniform(0, 1, (5, 6, 3)).astype(np.float32)
img_u8 = rs.randint(0, 256, (2, 5, 6, 3)).astype(np.uint8)
gray = rs.uniform(0, 1, (2, 7, 9, 1)).astype(np.float32)
hsv = np.stack([rs.uniform(-0.5, 1.5, (4, 5)), rs.uniform(0, 1, (4, 5)),
                rs.uniform(0, 1, (4, 5))], -1).astype(np.float32)
boxes = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                  [0, 10.1, 1, 11.1], [0, 100, 1, 101]], np.float32)
scores = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3], np.float32)
overlaps = rs.uniform(0, 1, (6, 6)).astype(np.float32)
"""

CASES: list[tuple[str, str]] = []


def case(name: str, expr: str) -> None:
    CASES.append((name, expr))


# ---- FFTs: sizes incl. odd and prime lengths ----
for n in (1, 2, 3, 5, 7, 8, 12, 13, 16, 31, 64, 97, 100, 127, 128, 243, 257, 1000):
    case(f"fft_{n}", f"tf.signal.fft(c1[{n}])")
    case(f"ifft_{n}", f"tf.signal.ifft(c1[{n}])")
for n in (6, 17, 128, 211):
    case(f"fft_c128_{n}", f"tf.signal.fft(c1d[{n}])")
    case(f"ifft_c128_{n}", f"tf.signal.ifft(c1d[{n}])")
case("fft2d", "tf.signal.fft2d(c2)")
case("ifft2d", "tf.signal.ifft2d(c2)")
case("fft3d", "tf.signal.fft3d(c3)")
case("ifft3d", "tf.signal.ifft3d(c3)")
for n in (1, 2, 5, 8, 9, 16, 17, 30, 101):
    case(f"rfft_{n}", f"tf.signal.rfft(r1[{n}])")
    case(f"irfft_rt_{n}", f"tf.signal.irfft(tf.signal.rfft(r1[{n}]), [{n}])")
case("rfft_pad", "tf.signal.rfft(r1[9], [16])")
case("rfft_crop", "tf.signal.rfft(r1[17], [10])")
case("rfft_f64", "tf.signal.rfft(r1d)")
case("irfft_f64", "tf.signal.irfft(tf.signal.rfft(r1d))")
case("irfft_default", "tf.signal.irfft(c1[7])")
case("irfft_odd_len", "tf.signal.irfft(c1[7], [11])")
case("irfft_pad", "tf.signal.irfft(c1[3], [16])")
case("irfft_crop", "tf.signal.irfft(c1[13], [9])")
case("irfft_dc_imag", "tf.signal.irfft(tf.constant([1+2j, 2+1j, 3+5j], tf.complex64))")
case("rfft2d", "tf.signal.rfft2d(r2)")
case("rfft2d_len", "tf.signal.rfft2d(r2, [4, 9])")
case("irfft2d", "tf.signal.irfft2d(tf.signal.rfft2d(r2), [5, 7])")
case("irfft2d_raw", "tf.signal.irfft2d(c2)")
case("rfft3d", "tf.signal.rfft3d(r3)")
case("irfft3d", "tf.signal.irfft3d(tf.signal.rfft3d(r3), [3, 4, 6])")
case("irfft3d_raw", "tf.signal.irfft3d(c3, [3, 4, 9])")
case("fft_empty", "tf.signal.fft(tf.zeros([2, 0], tf.complex64))")
case("fftshift", "tf.signal.fftshift(np.arange(10.0, dtype=np.float32))")
case("fftshift_2d", "tf.signal.fftshift(r2)")
case("fftshift_axes", "tf.signal.fftshift(r2, axes=1)")
case("fftshift_axes_tuple", "tf.signal.fftshift(r2, axes=(0, -1))")
case("ifftshift", "tf.signal.ifftshift(np.arange(9.0, dtype=np.float32))")
case("ifftshift_2d", "tf.signal.ifftshift(r2, axes=[-1])")
# errors
case("fft_numpy_float", "tf.signal.fft(r1[5])")
case("err_fft_float", "tf.signal.fft(tf.constant(r1[5]))")
case("err_fft_scalar", "tf.signal.fft(tf.constant(1 + 1j, tf.complex64))")
case("err_fft2d_rank1", "tf.signal.fft2d(c1[5][0])")
case("err_rfft_int", "tf.signal.rfft(tf.constant([1, 2, 3]))")
case("err_irfft_float", "tf.signal.irfft(tf.constant([1.0, 2.0]))")
case("err_raw_rfft_short", "tf.raw_ops.RFFT(input=r1[5], fft_length=[8])")
case("err_raw_irfft_short", "tf.raw_ops.IRFFT(input=c1[2], fft_length=[8])")
case("err_raw_rfft_neg", "tf.raw_ops.RFFT(input=r1[5], fft_length=[-2])")
case("err_raw_rfft_len_shape", "tf.raw_ops.RFFT(input=r1[5], fft_length=[2, 3])")
case("err_raw_rfft_types", "tf.raw_ops.RFFT(input=r1[5], fft_length=[5], Tcomplex=tf.complex128)")

# ---- windows ----
for fn in ("hann_window", "hamming_window"):
    for n in (1, 2, 5, 8, 17):
        case(f"{fn}_{n}", f"tf.signal.{fn}({n})")
        case(f"{fn}_{n}_sym", f"tf.signal.{fn}({n}, periodic=False)")
    case(f"{fn}_f64", f"tf.signal.{fn}(10, dtype=tf.float64)")
    case(f"err_{fn}_int", f"tf.signal.{fn}(10, dtype=tf.int32)")
for n in (1, 2, 7, 16):
    case(f"kaiser_{n}", f"tf.signal.kaiser_window({n})")
    case(f"kbd_{n}", f"tf.signal.kaiser_bessel_derived_window({n})")
    case(f"vorbis_{n}", f"tf.signal.vorbis_window({n})")
case("kaiser_beta", "tf.signal.kaiser_window(11, beta=4.0, dtype=tf.float64)")

# ---- framing, reconstruction, STFT ----
case("frame", "tf.signal.frame(audio[0, :20], 6, 4)")
case("frame_batch", "tf.signal.frame(audio[:, :50], 8, 3)")
case("frame_pad_end", "tf.signal.frame(audio[0, :20], 6, 4, pad_end=True, pad_value=-1.0)")
case("frame_axis0", "tf.signal.frame(r2, 2, 1, axis=0)")
case("frame_axis1", "tf.signal.frame(r2, 3, 2, axis=1)")
case("frame_too_long", "tf.signal.frame(audio[0, :5], 8, 2)")
case("frame_int", "tf.signal.frame(np.arange(10), 3, 3)")
case("overlap_add", "tf.signal.overlap_and_add(tf.reshape(tf.range(24.0), [2, 3, 4]), 2)")
case("overlap_add_step3", "tf.signal.overlap_and_add(r2, 3)")
case("overlap_add_fast", "tf.signal.overlap_and_add(r2, 7)")
case("err_overlap_add_float", "tf.signal.overlap_and_add(r2, 2.0)")
case("stft", "tf.signal.stft(audio, 64, 32)")
case("stft_len", "tf.signal.stft(audio, 50, 25, fft_length=60)")
case("stft_pad_end", "tf.signal.stft(audio, 48, 20, pad_end=True)")
case("stft_no_window", "tf.signal.stft(audio[0], 16, 8, window_fn=None)")
case("istft", "tf.signal.inverse_stft(tf.signal.stft(audio, 64, 16), 64, 16)")
case(
    "istft_window_fn",
    "tf.signal.inverse_stft(tf.signal.stft(audio, 64, 16), 64, 16, "
    "window_fn=tf.signal.inverse_stft_window_fn(16))",
)
case(
    "istft_fft_len",
    "tf.signal.inverse_stft(tf.signal.stft(audio[0], 40, 10, fft_length=32), 40, 10, "
    "fft_length=32)",
)
case("mel_default", "tf.signal.linear_to_mel_weight_matrix()")
case("mel_custom", "tf.signal.linear_to_mel_weight_matrix(10, 33, 16000, 20.0, 7000.0)")
case("mel_f64", "tf.signal.linear_to_mel_weight_matrix(8, 17, 8000, 0.0, 4000.0, dtype=tf.float64)")
case("err_mel_bins", "tf.signal.linear_to_mel_weight_matrix(0)")
case("err_mel_edges", "tf.signal.linear_to_mel_weight_matrix(10, 33, 16000, 500.0, 400.0)")
case("err_mel_nyquist", "tf.signal.linear_to_mel_weight_matrix(10, 33, 8000, 20.0, 7000.0)")
case("mfcc", "tf.signal.mfccs_from_log_mel_spectrograms(r2)")
for t in (1, 2, 3, 4):
    case(f"dct{t}", f"tf.signal.dct(r2, type={t})")
    case(f"idct{t}", f"tf.signal.idct(r2, type={t})")
    if t != 1:
        case(f"dct{t}_ortho", f"tf.signal.dct(r2, type={t}, norm='ortho')")
        case(
            f"idct{t}_ortho",
            f"tf.signal.idct(tf.signal.dct(r2, type={t}, norm='ortho'), type={t}, norm='ortho')",
        )
case("dct2_n_pad", "tf.signal.dct(r2, n=10)")
case("dct2_n_crop", "tf.signal.dct(r2, n=4)")
case("dct2_f64", "tf.signal.dct(r1d)")
case("err_dct_type", "tf.signal.dct(r2, type=5)")
case("err_dct1_ortho", "tf.signal.dct(r2, type=1, norm='ortho')")
case("err_dct_axis", "tf.signal.dct(r2, axis=0)")
case("err_dct_norm", "tf.signal.dct(r2, norm='forward')")
case("mdct", "tf.signal.mdct(audio[:, :64], 16)")
case("mdct_ortho", "tf.signal.mdct(audio[:, :64], 16, norm='ortho')")
case("imdct", "tf.signal.inverse_mdct(tf.signal.mdct(audio[:, :64], 16))")
case("err_mdct_len", "tf.signal.mdct(audio, 10)")


# ---- tf.image ----
for dt in ("tf.uint8", "tf.int16", "tf.int32", "tf.float16", "tf.float64"):
    case(f"img_convert_f32_to_{dt[3:]}", f"tf.image.convert_image_dtype(img, {dt})")
    case(
        f"img_convert_f32_to_{dt[3:]}_sat",
        f"tf.image.convert_image_dtype(img * 1.5 - 0.2, {dt}, saturate=True)",
    )
case("img_convert_u8_to_f32", "tf.image.convert_image_dtype(img_u8, tf.float32)")
case("img_convert_u8_to_i32", "tf.image.convert_image_dtype(img_u8, tf.int32)")
case(
    "img_convert_i32_to_u8",
    "tf.image.convert_image_dtype("
    "tf.constant([[[0, 2**31 - 1, 2**24, 12345678]]], tf.int32), tf.uint8)",
)
case("img_convert_u8_to_i8_sat", "tf.image.convert_image_dtype(img_u8, tf.int8, saturate=True)")
case("img_convert_u8_to_i8", "tf.image.convert_image_dtype(img_u8, tf.int8)")
case("img_convert_same", "tf.image.convert_image_dtype(img_u8, tf.uint8)")
case("img_err_convert_bool", "tf.image.convert_image_dtype(img, tf.bool)")
for m in ("bilinear", "nearest", "bicubic", "area"):
    case(f"img_resize_{m}_up", f"tf.image.resize(img, [7, 11], method='{m}')")
    case(f"img_resize_{m}_down", f"tf.image.resize(img, [3, 4], method='{m}')")
case("img_resize_3d", "tf.image.resize(img1, [4, 4])")
case("img_resize_u8", "tf.image.resize(img_u8, [8, 9])")
case("img_resize_u8_nearest", "tf.image.resize(img_u8, [8, 9], method='nearest')")
case("img_resize_aspect", "tf.image.resize(img, [10, 10], preserve_aspect_ratio=True)")
case(
    "img_resize_aspect2",
    "tf.image.resize(img1, [3, 20], preserve_aspect_ratio=True, method='nearest')",
)
for m in ("lanczos3", "lanczos5", "gaussian", "mitchellcubic"):
    case(f"img_resize_{m}", f"tf.image.resize(img, [8, 9], method='{m}')")
    case(f"img_resize_{m}_down", f"tf.image.resize(img, [3, 4], method='{m}', antialias=True)")
case("img_resize_bilinear_aa", "tf.image.resize(img, [3, 4], antialias=True)")
case("img_resize_bicubic_aa", "tf.image.resize(img, [3, 2], method='bicubic', antialias=True)")
case("img_err_resize_method", "tf.image.resize(img, [3, 4], method='foo')")
case("img_err_resize_rank", "tf.image.resize(img[0, 0], [3, 4])")
case("img_err_resize_size", "tf.image.resize(img, [3, 4, 5])")
case("img_resize_with_pad", "tf.image.resize_with_pad(img, 8, 8)")
case("img_resize_with_pad_3d", "tf.image.resize_with_pad(img1, 4, 10, method='nearest')")
case("img_resize_with_crop_or_pad", "tf.image.resize_with_crop_or_pad(img, 3, 9)")
case("img_resize_with_crop_or_pad_3d", "tf.image.resize_with_crop_or_pad(img1, 8, 4)")
case("img_err_resize_with_crop_or_pad", "tf.image.resize_with_crop_or_pad(img1, 0, 4)")
case("img_crop_to_bb", "tf.image.crop_to_bounding_box(img, 1, 2, 3, 4)")
case("img_crop_to_bb_3d", "tf.image.crop_to_bounding_box(img1, 0, 0, 5, 6)")
case("img_err_crop_to_bb", "tf.image.crop_to_bounding_box(img1, 3, 0, 3, 6)")
case("img_err_crop_to_bb_neg", "tf.image.crop_to_bounding_box(img1, -1, 0, 3, 6)")
case("img_err_crop_to_bb_rank", "tf.image.crop_to_bounding_box(img[0, 0], 0, 0, 1, 1)")
case("img_pad_to_bb", "tf.image.pad_to_bounding_box(img, 1, 2, 7, 9)")
case("img_pad_to_bb_3d", "tf.image.pad_to_bounding_box(img_u8[0], 0, 1, 5, 8)")
case("img_err_pad_to_bb", "tf.image.pad_to_bounding_box(img1, 1, 2, 5, 9)")
case("img_central_crop", "tf.image.central_crop(img, 0.5)")
case("img_central_crop_3d", "tf.image.central_crop(img1, 0.33)")
case("img_central_crop_1", "tf.image.central_crop(img1, 1.0)")
case("img_err_central_crop", "tf.image.central_crop(img1, 1.5)")
case("img_flip_lr", "tf.image.flip_left_right(img)")
case("img_flip_ud", "tf.image.flip_up_down(img1)")
case("img_err_flip_rank", "tf.image.flip_left_right(img[0, 0])")
for k in (0, 1, 2, 3, -1, 5):
    case(f"img_rot90_{k}", f"tf.image.rot90(img, {k})")
case("img_rot90_3d", "tf.image.rot90(img1)")
case("img_transpose", "tf.image.transpose(img)")
case("img_transpose_3d", "tf.image.transpose(img1)")
case("img_gray", "tf.image.rgb_to_grayscale(img)")
case("img_gray_u8", "tf.image.rgb_to_grayscale(img_u8)")
case("img_gray_to_rgb", "tf.image.grayscale_to_rgb(tf.constant(gray))")
case("img_err_gray_to_rgb", "tf.image.grayscale_to_rgb(tf.constant(img))")
case("img_rgb_to_hsv", "tf.image.rgb_to_hsv(img)")
case("img_rgb_to_hsv_f64", "tf.image.rgb_to_hsv(tf.cast(img, tf.float64))")
case("img_rgb_to_hsv_f16", "tf.image.rgb_to_hsv(tf.cast(img, tf.float16))")
case(
    "img_rgb_to_hsv_gray",
    "tf.image.rgb_to_hsv(tf.constant([[0.5, 0.5, 0.5], [0.0, 0.0, 0.0], "
    "[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 1.0]]))",
)
case("img_hsv_to_rgb", "tf.image.hsv_to_rgb(hsv)")
case("img_hsv_to_rgb_f64", "tf.image.hsv_to_rgb(tf.cast(hsv, tf.float64))")
case("img_hsv_roundtrip", "tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(img))")
case("img_err_rgb_to_hsv", "tf.image.rgb_to_hsv(gray)")
for f in ("rgb_to_yiq", "yiq_to_rgb", "rgb_to_yuv", "yuv_to_rgb"):
    case(f"img_{f}", f"tf.image.{f}(img)")
case("img_rgb_to_yuv_f64", "tf.image.rgb_to_yuv(tf.cast(img1, tf.float64))")
case("img_brightness", "tf.image.adjust_brightness(img, 0.2)")
case("img_brightness_u8", "tf.image.adjust_brightness(img_u8, 0.3)")
case("img_brightness_neg_u8", "tf.image.adjust_brightness(img_u8, -0.3)")
case("img_contrast", "tf.image.adjust_contrast(img, 1.7)")
case("img_contrast_u8", "tf.image.adjust_contrast(img_u8, 0.5)")
case("img_contrast_3d", "tf.image.adjust_contrast(img1, 2.0)")
case("img_err_contrast_rank", "tf.image.adjust_contrast(img[0, 0], 2.0)")
case("img_gamma", "tf.image.adjust_gamma(img, 2.2, 0.9)")
case("img_gamma_u8", "tf.image.adjust_gamma(img_u8, 0.5)")
case("img_err_gamma", "tf.image.adjust_gamma(img, -1.0)")
for d in (0.1, -0.4, 0.9, 1.0):
    case(f"img_hue_{d}", f"tf.image.adjust_hue(img, {d})")
case("img_hue_u8", "tf.image.adjust_hue(img_u8, 0.25)")
case("img_err_hue", "tf.image.adjust_hue(img, 1.5)")
case("img_err_hue_channels", "tf.image.adjust_hue(gray, 0.1)")
for f in (0.0, 0.5, 2.0):
    case(f"img_saturation_{f}", f"tf.image.adjust_saturation(img, {f})")
case("img_saturation_u8", "tf.image.adjust_saturation(img_u8, 1.5)")
case("img_standardize", "tf.image.per_image_standardization(img)")
case("img_standardize_u8", "tf.image.per_image_standardization(img_u8)")
case("img_standardize_const", "tf.image.per_image_standardization(tf.ones([2, 3, 1]))")
case("img_total_variation", "tf.image.total_variation(tf.constant(img))")
case("img_total_variation_3d", "tf.image.total_variation(tf.constant(img1))")
case("img_err_total_variation", "tf.image.total_variation(tf.constant(img[0, 0]))")
case("img_gradients", "tf.image.image_gradients(tf.constant(img))")
case("img_err_gradients", "tf.image.image_gradients(tf.constant(img1))")
case("img_sobel", "tf.image.sobel_edges(tf.constant(img))")
case("img_psnr", "tf.image.psnr(img, tf.clip_by_value(img + 0.05, 0.0, 1.0), 1.0)")
case("img_psnr_u8", "tf.image.psnr(img_u8, tf.image.flip_left_right(img_u8), 255)")
case(
    "img_ssim",
    "tf.image.ssim(tf.image.resize(img, [16, 16]), "
    "tf.image.resize(img[::-1], [16, 16]), 1.0, filter_size=5)",
)
case(
    "img_ssim_map",
    "tf.image.ssim(tf.image.resize(img, [12, 12]), "
    "tf.image.resize(img[::-1], [12, 12]), 1.0, filter_size=7, return_index_map=True)",
)
case("img_ssim_u8", "tf.image.ssim(img_u8, img_u8[::-1], 255, filter_size=3)")
case(
    "img_ssim_multiscale",
    "tf.image.ssim_multiscale(tf.image.resize(img, [40, 40]), "
    "tf.image.resize(img[::-1], [40, 40]), 1.0, power_factors=(0.5, 0.3, 0.2), filter_size=3)",
)
case("img_nms", "tf.image.non_max_suppression(boxes, scores, 3)")
case(
    "img_nms_thr",
    "tf.image.non_max_suppression(boxes, scores, 6, iou_threshold=0.3, score_threshold=0.55)",
)
case("img_nms_with_scores", "tf.image.non_max_suppression_with_scores(boxes, scores, 6)")
case(
    "img_nms_soft", "tf.image.non_max_suppression_with_scores(boxes, scores, 6, soft_nms_sigma=0.5)"
)
case("img_nms_overlaps", "tf.image.non_max_suppression_overlaps(overlaps, scores, 4, 0.5)")
case(
    "img_nms_overlaps_thr", "tf.image.non_max_suppression_overlaps(overlaps, scores, 6, 0.7, 0.55)"
)
case("img_nms_padded", "tf.image.non_max_suppression_padded(tf.constant(boxes), scores, 5)")
case(
    "img_nms_padded_pad",
    "tf.image.non_max_suppression_padded(tf.constant(boxes), scores, 5, "
    "pad_to_max_output_size=True)",
)
case(
    "img_nms_padded_batch",
    "tf.image.non_max_suppression_padded(tf.constant(np.stack([boxes, boxes[::-1]])), "
    "np.stack([scores, scores]), 4, pad_to_max_output_size=True)",
)
case(
    "img_combined_nms",
    "tf.image.combined_non_max_suppression("
    "np.stack([boxes[:, None, :], boxes[::-1, None, :]]), "
    "np.stack([np.stack([scores, scores[::-1]], 1), np.stack([scores[::-1], scores], 1)]), 3, 4)",
)
case(
    "img_combined_nms_noclip",
    "tf.image.combined_non_max_suppression("
    "np.stack([boxes[:, None, :]]), np.stack([np.stack([scores, scores[::-1]], 1)]), 2, 5, "
    "score_threshold=0.4, clip_boxes=False, pad_per_class=True)",
)
case(
    "img_crop_and_resize",
    "tf.image.crop_and_resize(img, [[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 1.0, 1.0]], [1, 0], [3, 4])",
)
case(
    "img_crop_and_resize_nearest",
    "tf.image.crop_and_resize(img, [[0.1, 0.2, 1.3, 0.9]], [0], [4, 4], "
    "method='nearest', extrapolation_value=-1.0)",
)
case(
    "img_extract_patches",
    "tf.image.extract_patches(img, [1, 2, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], 'VALID')",
)
case(
    "img_extract_patches_same",
    "tf.image.extract_patches(img, [1, 3, 2, 1], [1, 2, 3, 1], [1, 1, 2, 1], 'SAME')",
)
case(
    "img_extract_patches_u8",
    "tf.image.extract_patches(img_u8, [1, 2, 2, 1], [1, 1, 1, 1], [1, 2, 2, 1], 'VALID')",
)
case(
    "img_draw_boxes",
    "tf.image.draw_bounding_boxes(tf.zeros([2, 8, 9, 3]), "
    "[[[0.1, 0.2, 0.6, 0.7]], [[0.0, 0.0, 1.0, 1.0]]], [[1.0, 0.5, 0.25], [0.0, 1.0, 0.0]])",
)
case(
    "img_draw_boxes_default",
    "tf.image.draw_bounding_boxes(tf.zeros([1, 6, 7, 4]), "
    "[[[0.2, 0.1, 0.8, 0.9], [0.5, 0.5, 0.6, 0.6]]], None)",
)
case("img_random_flip_shape", "tf.image.random_flip_left_right(img).shape")
case("img_stateless_flip_lr", "tf.image.stateless_random_flip_left_right(img, seed=(1, 2))")
case("img_stateless_flip_ud_3d", "tf.image.stateless_random_flip_up_down(img1, seed=(3, 4))")
case("img_stateless_brightness", "tf.image.stateless_random_brightness(img, 0.3, seed=(1, 2))")
case("img_stateless_contrast", "tf.image.stateless_random_contrast(img, 0.2, 0.8, seed=(5, 6))")
case("img_stateless_hue", "tf.image.stateless_random_hue(img, 0.2, seed=(7, 8))")
case("img_stateless_saturation", "tf.image.stateless_random_saturation(img, 0.2, 0.8, seed=(1, 9))")
case("img_stateless_crop", "tf.image.stateless_random_crop(img, [2, 3, 4, 3], seed=(1, 2))")
case("img_random_crop_shape", "tf.image.random_crop(img, [1, 3, 4, 3]).shape")
case("img_err_random_crop", "tf.image.random_crop(img, [3, 3, 4, 3])")
case("img_err_random_hue", "tf.image.random_hue(img, 0.7)")
case("img_err_random_contrast", "tf.image.random_contrast(img, 0.8, 0.2)")
case("img_err_random_brightness", "tf.image.random_brightness(img, -0.1)")

case(
    "img_hue_special",
    "tf.image.adjust_hue(tf.constant([[[0.5, 0.5, 0.5], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], "
    "[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 0.0], [0.2, 0.2, 0.9], [0.9, 0.2, 0.2]]]), 0.3)",
)
case(
    "img_saturation_special",
    "tf.image.adjust_saturation(tf.constant([[[0.5, 0.5, 0.5], [0.0, 0.0, 0.0], "
    "[1.0, 0.0, 0.0], [0.0, 1.0, 0.5], [0.3, 0.2, 0.9]]]), 3.0)",
)
case("img_hue_f16", "tf.image.adjust_hue(tf.cast(img, tf.float16), 0.2)")
case("img_contrast_f16", "tf.image.adjust_contrast(tf.cast(img, tf.float16), 1.5)")
case(
    "img_resize_lanczos3_u8_up",
    "tf.image.resize(img_u8, [9, 13], method='lanczos3', antialias=True)",
)
case(
    "img_resize_gaussian_aa_up", "tf.image.resize(img, [11, 7], method='gaussian', antialias=True)"
)
case("img_resize_area_u8", "tf.image.resize(img_u8, [4, 4], method='area')")
case(
    "img_resize_bicubic_f64", "tf.image.resize(tf.cast(img, tf.float64), [7, 3], method='bicubic')"
)
case(
    "img_extract_patches_c64",
    "tf.image.extract_patches(tf.complex(img, -img), [1, 2, 2, 1], [1, 3, 2, 1], "
    "[1, 1, 1, 1], 'SAME')",
)
case(
    "img_draw_boxes_f16",
    "tf.image.draw_bounding_boxes(tf.zeros([1, 5, 6, 3], tf.float16), "
    "[[[0.1, 0.2, 0.6, 0.7]]], [[0.3, 0.2, 0.1]])",
)
case(
    "img_draw_boxes_gray_default",
    "tf.image.draw_bounding_boxes(tf.zeros([1, 5, 5, 1]), "
    "[[[0, 0, 0.5, 0.5], [0.5, 0.5, 1, 1], [-0.5, 0.2, 1.5, 0.6], [0.9, 0.9, 0.2, 0.1]]], None)",
)
case(
    "img_err_draw_boxes_depth",
    "tf.image.draw_bounding_boxes(tf.zeros([1, 4, 4, 2]), [[[0., 0., 1., 1.]]], [[1.0, 1.0]])",
)
case(
    "img_err_extract_patches",
    "tf.image.extract_patches(img, [2, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], 'VALID')",
)
case(
    "img_err_extract_patches_big",
    "tf.image.extract_patches(img, [1, 9, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], 'VALID')",
)
case("img_err_nms_overlaps", "tf.image.non_max_suppression_overlaps(overlaps[:3], scores, 4)")
case(
    "img_err_combined_nms_q",
    "tf.image.combined_non_max_suppression(np.zeros((1, 6, 2, 4), np.float32), "
    "np.zeros((1, 6, 3), np.float32), 2, 3)",
)
for n in (6, 10, 15, 16, 25, 49, 210, 512):
    case(f"stft_len_{n}", f"tf.signal.stft(audio, {n}, {max(1, n // 3)}, fft_length={n})")

case(
    "img_glimpse", "tf.image.extract_glimpse(img, [3, 3], [[0.0, 0.0], [0.2, -0.3]], noise='zero')"
)
case(
    "img_glimpse_edge",
    "tf.image.extract_glimpse(img, [3, 4], [[0.9, -0.95], [-1.0, 1.0]], noise='zero')",
)
case(
    "img_glimpse_big",
    "tf.image.extract_glimpse(img, [7, 8], [[0.0, 0.0], [0.3, -0.6]], noise='zero')",
)
case(
    "img_glimpse_pixels",
    "tf.image.extract_glimpse(img, [3, 4], [[1.0, 2.0], [-0.3, -0.1]], centered=False, "
    "normalized=False, noise='zero')",
)
case(
    "img_glimpse_pixels_centered",
    "tf.image.extract_glimpse(img, [3, 4], [[-1.0, 2.0], [0.5, 0.5]], "
    "normalized=False, noise='zero')",
)
case(
    "img_glimpse_norm_uncentered",
    "tf.image.extract_glimpse(img, [2, 2], [[0.5, 0.25], [0.1, 0.9]], "
    "centered=False, noise='zero')",
)
case(
    "img_glimpse_inside_uniform", "tf.image.extract_glimpse(img, [2, 2], [[0.0, 0.0], [0.1, 0.1]])"
)
case(
    "img_err_glimpse_noise",
    "tf.image.extract_glimpse(img, [2, 2], [[0.0, 0.0], [0.1, 0.1]], noise='foo')",
)
case("img_err_glimpse_offsets", "tf.image.extract_glimpse(img, [2, 2], [[0.0, 0.0]], noise='zero')")

bbx = "[[[0.1, 0.2, 0.5, 0.9], [0.3, 0.3, 0.7, 0.6]]]"
for i, seed in enumerate([(1, 2), (3, 4), (0, 0), (123, 456)]):
    case(
        f"img_sdbb_stateless_{i}",
        f"tf.image.stateless_sample_distorted_bounding_box([40, 60, 3], {bbx}, "
        f"{seed}, min_object_covered=0.1)",
    )
case(
    "img_sdbb_stateless_ranges",
    f"tf.image.stateless_sample_distorted_bounding_box(np.array([40, 60, 3], "
    f"np.int64), {bbx}, tf.constant([7, 8], tf.int64), 0.5, aspect_ratio_range=[0.5, 2.0], "
    f"area_range=[0.1, 0.9], max_attempts=50)",
)
case(
    "img_sdbb_stateless_u8",
    f"tf.image.stateless_sample_distorted_bounding_box(np.array([40, 60, 3], "
    f"np.uint8), {bbx}, [5, 6], 0.9)",
)
case(
    "img_sdbb_stateless_no_boxes",
    "tf.image.stateless_sample_distorted_bounding_box([40, 60, 3], "
    "tf.zeros([1, 0, 4]), [1, 2], use_image_if_no_bounding_boxes=True)",
)
case(
    "img_sdbb_stateless_small",
    f"tf.image.stateless_sample_distorted_bounding_box([3, 2, 1], {bbx}, [9, 9])",
)
for i in range(5):
    case(
        f"img_sdbb_stateless_whole_{i}",
        "tf.image.stateless_sample_distorted_bounding_box([100, 80, 3], "
        f"[[[0.0, 0.0, 1.0, 1.0]]], [{i}, {2 * i + 1}], 0.0, area_range=[0.05, 1.0])",
    )
case("img_sdbb_seeded", f"tf.image.sample_distorted_bounding_box([40, 60, 3], {bbx}, seed=77)")
case(
    "img_sdbb_seeded_twice",
    f"[tf.image.sample_distorted_bounding_box([50, 30, 3], {bbx}, seed=78) for _ in range(3)][2]",
)
case(
    "img_err_sdbb_no_boxes",
    "tf.image.stateless_sample_distorted_bounding_box([40, 60, 3], tf.zeros([1, 0, 4]), [1, 2])",
)
case(
    "img_err_sdbb_coords",
    "tf.image.stateless_sample_distorted_bounding_box([40, 60, 3], "
    "[[[0.1, 0.2, 1.5, 0.9]]], [1, 2])",
)
case(
    "img_err_sdbb_size",
    f"tf.image.stateless_sample_distorted_bounding_box([40, 60], {bbx}, [1, 2])",
)
case(
    "img_err_sdbb_seed",
    f"tf.image.stateless_sample_distorted_bounding_box([40, 60, 3], {bbx}, [1, 2, 3])",
)
case(
    "img_err_sdbb_cover",
    f"tf.image.stateless_sample_distorted_bounding_box([40, 60, 3], {bbx}, [1, 2], -0.1)",
)
case(
    "img_err_sdbb_attempts",
    f"tf.image.stateless_sample_distorted_bounding_box([40, 60, 3], {bbx}, [1, 2], max_attempts=0)",
)


def _encode(v: Any) -> dict[str, Any]:
    if type(v).__name__ == "TensorShape":
        v = np.asarray([-1 if d is None else d for d in v], np.int64)
    elif isinstance(v, (list, tuple)):
        return {"list": [_encode(x) for x in v]}
    a = np.asarray(v.numpy() if hasattr(v, "numpy") else v)
    out: dict[str, Any] = {
        "dtype": str(a.dtype) if a.dtype != object else "string",
        "shape": list(a.shape),
    }
    single = a.dtype in (np.float32, np.complex64, np.float16)

    def nums(x: Any) -> list[float]:
        vals = x.astype(np.float64).ravel().tolist()
        # 9 significant digits hold a float32 exactly; keeps the file small
        return [float(f"{v:.9g}") for v in vals] if single else vals

    if np.iscomplexobj(a):
        out["re"] = nums(a.real)
        out["im"] = nums(a.imag)
    elif a.dtype == object:
        out["value"] = [x.decode("latin-1") if isinstance(x, bytes) else str(x) for x in a.ravel()]
    else:
        out["value"] = nums(a)
    return out


def main() -> None:
    import tensorflow as tf

    from_image = os.environ.get("SIG_ONLY")
    ns: dict[str, Any] = {"tf": tf, "np": np}
    exec(PRELUDE, ns)
    results: dict[str, Any] = {}
    for name, expr in CASES:
        if from_image and not name.startswith(from_image):
            continue
        try:
            v = eval(expr, ns)
            results[name] = {"expr": expr, **_encode(v)}
        except Exception as e:
            results[name] = {
                "expr": expr,
                "error": type(e).__name__,
                "message": str(e).split("\n")[0][:300],
            }
    data = {
        "_about": "TensorFlow 2.21 results for tests/python/test_api_signal_image.py "
        "(tools/record_api_signal_image.py)",
        "prelude": PRELUDE,
        "cases": results,
    }
    if from_image and os.path.exists(OUT):
        with open(OUT) as f:
            old = json.load(f)["cases"]
        old.update(results)
        data["cases"] = results = old
    with open(OUT, "w") as f:
        # one line per case
        f.write("{\n")
        f.write(f'"_about": {json.dumps(data["_about"])},\n')
        f.write(f'"prelude": {json.dumps(PRELUDE)},\n')
        f.write('"cases": {\n')
        names = sorted(results)
        for i, k in enumerate(names):
            sep = "," if i + 1 < len(names) else ""
            f.write(f"{json.dumps(k)}: {json.dumps(results[k], sort_keys=True)}{sep}\n")
        f.write("}}\n")
    print(f"{len(results)} cases -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
