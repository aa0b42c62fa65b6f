"""Gradient cases of csrc/eager/grad_more5.c: TensorStridedSliceUpdate and
ImageProjectiveTransformV2/V3.

ImageProjectiveTransform's TF gradient is not the derivative of the
sampling: it transforms dy back with the inverse transforms (no central
differences). The images are float64 (a CPU kernel dtype) and the
transforms float32, as the op requires; only the images are watched.

ResourceGatherNd's gradient flows to a resource variable, which this
table's raw-tensor inputs cannot express: tests/python/test_more18_ops.py
checks it on a variable.
"""

from __future__ import annotations

import numpy as np
from _common import Rng, c, case, d

R = Rng("more5")
arr = R.arr


def tssu(name: str, x: tuple[int, ...], v: tuple[int, ...], b: list[int], e: list[int],
         st: list[int], **masks: int) -> dict:
    return case(name, "TensorStridedSliceUpdate",
                {"input": d(arr(x)), "begin": c(b), "end": c(e), "strides": c(st),
                 "value": d(arr(v))}, dict(masks))


def rot(theta: float, h: int, w: int, zoom: float) -> list[float]:
    cs, sn = np.cos(theta) / zoom, np.sin(theta) / zoom
    x0 = (w - 1) / 2 - (cs * (w - 1) / 2 - sn * (h - 1) / 2)
    y0 = (h - 1) / 2 - (sn * (w - 1) / 2 + cs * (h - 1) / 2)
    return [cs, -sn, x0, sn, cs, y0, 0.0, 0.0]


TR = [rot(0.5, 4, 5, 0.9), [1.05, 0.1, -0.4, -0.05, 0.95, 0.3, 0.01, -0.02]]


def ipt(name: str, ver: str, interp: str, fill_mode: str, out_hw: list[int],
        ntr: int = 2) -> dict:
    ins = {"images": d(arr((2, 4, 5, 2))), "transforms": c(np.asarray(TR[:ntr]), "float32"),
           "output_shape": c(out_hw)}
    if ver == "V3":
        ins["fill_value"] = c(0.5, "float32")
    return case(name, f"ImageProjectiveTransform{ver}", ins,
                {"interpolation": interp, "fill_mode": fill_mode}, numeric=False)


CASES = [
    tssu("tssu_basic", (4, 5), (2, 3), [1, 0], [4, 5], [2, 2]),
    tssu("tssu_broadcast", (3, 4), (1, 4), [0, 0], [2, 4], [1, 1]),
    tssu("tssu_broadcast_scalar", (3, 4), (), [1], [3], [1]),
    tssu("tssu_neg_stride", (3, 4, 2), (2, 2, 2), [-1, 3], [0, 0], [-1, -2]),
    tssu("tssu_shrink_newaxis", (3, 4), (1, 4), [1, 0], [2, 0], [1, 1],
         shrink_axis_mask=1, new_axis_mask=2),
    tssu("tssu_ellipsis", (2, 3, 4), (2, 3, 2), [0, 1], [0, 4], [1, 2], ellipsis_mask=1),
    ipt("iptv2_bilinear_constant", "V2", "BILINEAR", "CONSTANT", [4, 5]),
    ipt("iptv2_nearest_reflect", "V2", "NEAREST", "REFLECT", [4, 5]),
    ipt("iptv3_bilinear_wrap", "V3", "BILINEAR", "WRAP", [4, 5], ntr=1),
    ipt("iptv3_nearest_nearest", "V3", "NEAREST", "NEAREST", [3, 6]),
    ipt("iptv3_bilinear_constant", "V3", "BILINEAR", "CONSTANT", [4, 5]),
]
