"""Records TF 2.21's results for the image-gradient and gamma-gradient
kernels of the image_codec op group (ResizeBicubicGrad,
CropAndResizeGradImage, CropAndResizeGradBoxes, ScaleAndTranslateGrad,
RandomGammaGrad) into
tests/data/image_grad_kernels_tf221.json. Run with /work/tfvenv/bin/python;
tests/python/test_image_grad_kernels.py only reads the JSON.

Each case runs one raw op eagerly on CPU and keeps either its output or
the error (TF's exception class name and message).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import numpy as np

R = np.random.default_rng(2118)


def t(v: Any, dtype: str) -> dict[str, Any]:
    a = np.asarray(v).astype(dtype)
    return {"value": a.tolist(), "dtype": dtype, "shape": list(a.shape)}


def u(shape: tuple[int, ...], lo: float = -1.0, hi: float = 1.0) -> np.ndarray:
    return R.uniform(lo, hi, shape)


BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [0.5, -0.2, 0.2, 0.7], [0.0, 0.0, 1.0, 1.0]])

CASES: list[dict[str, Any]] = []


def add(name: str, op: str, inputs: dict[str, Any], attrs: dict[str, Any] | None = None) -> None:
    CASES.append({"name": name, "op": op, "inputs": inputs, "attrs": attrs or {}})


# ---- ResizeBicubicGrad ----
for dt in ("float32", "float64"):
    add(f"bicubic_up_{dt}", "ResizeBicubicGrad",
        {"grads": t(u((2, 5, 7, 2)), "float32"), "original_image": t(u((2, 3, 4, 2)), dt)})
    add(f"bicubic_down_half_pixel_{dt}", "ResizeBicubicGrad",
        {"grads": t(u((1, 2, 3, 1)), "float32"), "original_image": t(u((1, 5, 6, 1)), dt)},
        {"half_pixel_centers": True})
    add(f"bicubic_align_{dt}", "ResizeBicubicGrad",
        {"grads": t(u((1, 4, 5, 3)), "float32"), "original_image": t(u((1, 3, 3, 3)), dt)},
        {"align_corners": True})
add("bicubic_half_pixel_up", "ResizeBicubicGrad",
    {"grads": t(u((1, 6, 5, 1)), "float32"), "original_image": t(u((1, 2, 3, 1)), "float32")},
    {"half_pixel_centers": True})
add("bicubic_one_pixel", "ResizeBicubicGrad",
    {"grads": t(u((1, 3, 2, 1)), "float32"), "original_image": t(u((1, 1, 1, 1)), "float64")})
add("bicubic_err_grads_rank", "ResizeBicubicGrad",
    {"grads": t(u((5, 7, 2)), "float32"), "original_image": t(u((2, 3, 4, 2)), "float32")})
add("bicubic_err_image_rank", "ResizeBicubicGrad",
    {"grads": t(u((1, 5, 7, 2)), "float32"), "original_image": t(u((3, 4, 2)), "float32")})
add("bicubic_err_batch", "ResizeBicubicGrad",
    {"grads": t(u((2, 5, 7, 2)), "float32"), "original_image": t(u((1, 3, 4, 2)), "float32")})
add("bicubic_err_depth", "ResizeBicubicGrad",
    {"grads": t(u((1, 5, 7, 2)), "float32"), "original_image": t(u((1, 3, 4, 1)), "float32")})
add("bicubic_err_half_align", "ResizeBicubicGrad",
    {"grads": t(u((1, 5, 7, 2)), "float32"), "original_image": t(u((1, 3, 4, 2)), "float32")},
    {"half_pixel_centers": True, "align_corners": True})
add("bicubic_err_empty_image", "ResizeBicubicGrad",
    {"grads": t(u((1, 5, 7, 2)), "float32"), "original_image": t(u((1, 0, 4, 2)), "float32")})

# ---- CropAndResizeGradImage ----
for dt in ("float32", "float64", "float16"):
    add(f"crop_grad_image_bilinear_{dt}", "CropAndResizeGradImage",
        {"grads": t(u((3, 3, 4, 2)), "float32"), "boxes": t(BOXES, "float32"),
         "box_ind": t([0, 1, 1], "int32"), "image_size": t([2, 5, 6, 2], "int32")}, {"T": dt})
add("crop_grad_image_nearest", "CropAndResizeGradImage",
    {"grads": t(u((3, 3, 4, 2)), "float32"), "boxes": t(BOXES, "float32"),
     "box_ind": t([1, 0, 1], "int32"), "image_size": t([2, 5, 6, 2], "int32")},
    {"T": "float32", "method": "nearest"})
add("crop_grad_image_one_pixel_crop", "CropAndResizeGradImage",
    {"grads": t(u((3, 1, 1, 1)), "float32"), "boxes": t(BOXES, "float32"),
     "box_ind": t([0, 0, 0], "int32"), "image_size": t([1, 4, 4, 1], "int32")},
    {"T": "float64"})
add("crop_grad_image_err_box_ind", "CropAndResizeGradImage",
    {"grads": t(u((3, 2, 2, 1)), "float32"), "boxes": t(BOXES, "float32"),
     "box_ind": t([0, 2, 0], "int32"), "image_size": t([2, 4, 4, 1], "int32")},
    {"T": "float32"})
add("crop_grad_image_err_grads_rank", "CropAndResizeGradImage",
    {"grads": t(u((3, 2, 2)), "float32"), "boxes": t(BOXES, "float32"),
     "box_ind": t([0, 0, 0], "int32"), "image_size": t([1, 4, 4, 1], "int32")},
    {"T": "float32"})
add("crop_grad_image_err_image_size", "CropAndResizeGradImage",
    {"grads": t(u((3, 2, 2, 1)), "float32"), "boxes": t(BOXES, "float32"),
     "box_ind": t([0, 0, 0], "int32"), "image_size": t([1, 4, 4], "int32")},
    {"T": "float32"})
add("crop_grad_image_err_depth", "CropAndResizeGradImage",
    {"grads": t(u((3, 2, 2, 1)), "float32"), "boxes": t(BOXES, "float32"),
     "box_ind": t([0, 0, 0], "int32"), "image_size": t([1, 4, 4, 3], "int32")},
    {"T": "float32"})
add("crop_grad_image_err_nonpositive", "CropAndResizeGradImage",
    {"grads": t(u((3, 2, 2, 1)), "float32"), "boxes": t(BOXES, "float32"),
     "box_ind": t([0, 0, 0], "int32"), "image_size": t([1, 0, 4, 1], "int32")},
    {"T": "float32"})
add("crop_grad_image_err_boxes_shape", "CropAndResizeGradImage",
    {"grads": t(u((3, 2, 2, 1)), "float32"), "boxes": t(BOXES[:, :3], "float32"),
     "box_ind": t([0, 0, 0], "int32"), "image_size": t([1, 4, 4, 1], "int32")},
    {"T": "float32"})
add("crop_grad_image_err_box_ind_len", "CropAndResizeGradImage",
    {"grads": t(u((3, 2, 2, 1)), "float32"), "boxes": t(BOXES, "float32"),
     "box_ind": t([0, 0], "int32"), "image_size": t([1, 4, 4, 1], "int32")},
    {"T": "float32"})

# ---- CropAndResizeGradBoxes ----
for dt in ("float32", "float64", "uint8", "int32", "float16", "int64", "int16", "int8",
           "uint16"):
    img = R.integers(0, 100, (2, 5, 6, 2)) if dt[0] in "ui" else u((2, 5, 6, 2))
    add(f"crop_grad_boxes_{dt}", "CropAndResizeGradBoxes",
        {"grads": t(u((3, 3, 4, 2)), "float32"), "image": t(img, dt),
         "boxes": t(BOXES, "float32"), "box_ind": t([0, 1, 1], "int32")})
add("crop_grad_boxes_one_pixel_crop", "CropAndResizeGradBoxes",
    {"grads": t(u((3, 1, 1, 1)), "float32"), "image": t(u((1, 4, 4, 1)), "float32"),
     "boxes": t(BOXES, "float32"), "box_ind": t([0, 0, 0], "int32")})
add("crop_grad_boxes_err_box_ind", "CropAndResizeGradBoxes",
    {"grads": t(u((3, 2, 2, 1)), "float32"), "image": t(u((1, 4, 4, 1)), "float32"),
     "boxes": t(BOXES, "float32"), "box_ind": t([0, -1, 0], "int32")})
add("crop_grad_boxes_err_depth", "CropAndResizeGradBoxes",
    {"grads": t(u((3, 2, 2, 2)), "float32"), "image": t(u((1, 4, 4, 1)), "float32"),
     "boxes": t(BOXES, "float32"), "box_ind": t([0, 0, 0], "int32")})
add("crop_grad_boxes_err_image_rank", "CropAndResizeGradBoxes",
    {"grads": t(u((3, 2, 2, 1)), "float32"), "image": t(u((4, 4, 1)), "float32"),
     "boxes": t(BOXES, "float32"), "box_ind": t([0, 0, 0], "int32")})
add("crop_grad_boxes_err_grads_rank", "CropAndResizeGradBoxes",
    {"grads": t(u((3, 2, 2)), "float32"), "image": t(u((1, 4, 4, 1)), "float32"),
     "boxes": t(BOXES, "float32"), "box_ind": t([0, 0, 0], "int32")})
add("crop_grad_boxes_err_num_boxes", "CropAndResizeGradBoxes",
    {"grads": t(u((2, 2, 2, 1)), "float32"), "image": t(u((1, 4, 4, 1)), "float32"),
     "boxes": t(BOXES, "float32"), "box_ind": t([0, 0, 0], "int32")})

# ---- ScaleAndTranslateGrad ----
for kt in ("lanczos1", "lanczos3", "lanczos5", "gaussian", "box", "triangle", "keyscubic",
           "mitchellcubic"):
    add(f"scale_translate_grad_up_{kt}", "ScaleAndTranslateGrad",
        {"grads": t(u((2, 6, 7, 2)), "float32"), "original_image": t(u((2, 3, 4, 2)), "float32"),
         "scale": t([2.0, 1.75], "float32"), "translation": t([0.0, 0.3], "float32")},
        {"kernel_type": kt})
    add(f"scale_translate_grad_down_{kt}", "ScaleAndTranslateGrad",
        {"grads": t(u((1, 3, 2, 1)), "float32"), "original_image": t(u((1, 7, 5, 1)), "float32"),
         "scale": t([0.4, 0.45], "float32"), "translation": t([-0.2, 0.1], "float32")},
        {"kernel_type": kt})
add("scale_translate_grad_down_no_antialias", "ScaleAndTranslateGrad",
    {"grads": t(u((1, 3, 2, 2)), "float32"), "original_image": t(u((1, 8, 5, 2)), "float32"),
     "scale": t([0.35, 0.4], "float32"), "translation": t([0.5, -0.3], "float32")},
    {"kernel_type": "triangle", "antialias": False})
add("scale_translate_grad_shifted_out", "ScaleAndTranslateGrad",
    {"grads": t(u((1, 4, 4, 1)), "float32"), "original_image": t(u((1, 4, 4, 1)), "float32"),
     "scale": t([1.0, 1.0], "float32"), "translation": t([2.5, -3.0], "float32")},
    {"kernel_type": "lanczos3"})
for name, inputs, attrs in (
    ("grads_rank", {"grads": u((6, 7, 2)), "original_image": u((1, 3, 4, 2))}, {}),
    ("image_rank", {"grads": u((1, 6, 7, 2)), "original_image": u((3, 4, 2))}, {}),
    ("kernel", {"grads": u((1, 6, 7, 2)), "original_image": u((1, 3, 4, 2))},
     {"kernel_type": "cubic"}),
):
    add(f"scale_translate_grad_err_{name}", "ScaleAndTranslateGrad",
        {"grads": t(inputs["grads"], "float32"),
         "original_image": t(inputs["original_image"], "float32"),
         "scale": t([2.0, 1.75], "float32"), "translation": t([0.0, 0.0], "float32")}, attrs)
add("scale_translate_grad_err_scale_shape", "ScaleAndTranslateGrad",
    {"grads": t(u((1, 6, 7, 1)), "float32"), "original_image": t(u((1, 3, 4, 1)), "float32"),
     "scale": t([2.0, 1.75, 1.0], "float32"), "translation": t([0.0, 0.0], "float32")})
add("scale_translate_grad_err_scale_zero", "ScaleAndTranslateGrad",
    {"grads": t(u((1, 6, 7, 1)), "float32"), "original_image": t(u((1, 3, 4, 1)), "float32"),
     "scale": t([0.0, 1.75], "float32"), "translation": t([0.0, 0.0], "float32")})
add("scale_translate_grad_err_translation_shape", "ScaleAndTranslateGrad",
    {"grads": t(u((1, 6, 7, 1)), "float32"), "original_image": t(u((1, 3, 4, 1)), "float32"),
     "scale": t([2.0, 1.75], "float32"), "translation": t([0.0], "float32")})

# ---- RandomGammaGrad ----
ALPHA = np.array([0.3, 0.5, 1.0, 1.7, 3.0, 8.5, 25.0, 0.05])
SAMPLE = np.array([0.02, 0.7, 1.3, 2.2, 0.4, 9.0, 31.0, 1e-4])
for dt in ("float32", "float64"):
    add(f"gamma_grad_{dt}", "RandomGammaGrad",
        {"alpha": t(ALPHA, dt), "sample": t(SAMPLE, dt)})
    add(f"gamma_grad_broadcast_{dt}", "RandomGammaGrad",
        {"alpha": t(ALPHA[:4].reshape(4, 1), dt), "sample": t(SAMPLE[1:4], dt)})
add("gamma_grad_grid", "RandomGammaGrad",
    {"alpha": t(np.repeat([0.2, 0.9, 2.5, 6.0, 15.0], 6), "float64"),
     "sample": t(np.tile([0.01, 0.3, 1.0, 2.5, 7.0, 20.0], 5), "float64")})
add("gamma_grad_edges", "RandomGammaGrad",
    {"alpha": t([1.0, 0.0, -1.0, 2.0, 2.0, np.nan, 2.0, np.inf], "float64"),
     "sample": t([0.0, 1.0, 1.0, -1.0, np.nan, 1.0, np.inf, 1.0], "float64")})
add("gamma_grad_err_shapes", "RandomGammaGrad",
    {"alpha": t([1.0, 2.0], "float64"), "sample": t([1.0, 2.0, 3.0], "float64")})


def run(tf: Any, cs: dict[str, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = dict(cs["attrs"])
    for name, spec in cs["inputs"].items():
        a = np.array(spec["value"], spec["dtype"]).reshape(spec["shape"])
        kwargs[name] = tf.constant(a, dtype=spec["dtype"])
    rec = dict(cs)
    try:
        with tf.device("/CPU:0"):
            out = getattr(tf.raw_ops, cs["op"])(**kwargs)
        a = out.numpy()
        rec["output"] = {"dtype": out.dtype.name, "shape": list(a.shape),
                         "value": np.asarray(a, np.float64).tolist()}
    except Exception as exc:  # every TF error is data here
        rec["error"] = {"type": type(exc).__name__, "message": getattr(exc, "message", str(exc))}
    return rec


def main() -> None:
    import tensorflow as tf

    recs = [run(tf, cs) for cs in CASES]
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data",
                        "image_grad_kernels_tf221.json")
    with open(path, "w") as f:
        f.write(json.dumps({"tf_version": tf.__version__})[:-1] + ', "cases": [\n')
        f.write(",\n".join(json.dumps(r) for r in recs))
        f.write("\n]}\n")
    print(f"{len(recs)} cases -> {os.path.normpath(path)}", file=sys.stderr)


if __name__ == "__main__":
    main()
