"""Case table of the nn_grad kernels (FusedBatchNormGrad*, Conv3DBackprop*,
MaxPool3DGrad, MaxPool3DGradGrad, AvgPool3DGrad, MaxPoolGradGrad(V2),
MaxPoolGradWithArgmax, Dilation2DBackpropInput/Filter), shared by
tools/record_nn_grad_kernels.py (runs them in TF 2.21) and
tests/python/test_nn_grad_kernels.py (runs them in tfe).

A case is (op, dtype, inputs, attrs); an input is a list (it takes the
case's dtype) or a (values, dtype) pair. Only numpy is needed here."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

Case = tuple[str, str, dict[str, Any], dict[str, Any]]

REAL = [
    "float32", "float64", "int32", "uint8", "int16", "int8", "int64",
    "bfloat16", "uint16", "float16", "uint32", "uint64",
]


def rnd(seed: int, shape: tuple[int, ...], lo: float = -3, hi: float = 3) -> np.ndarray:
    return np.random.default_rng(seed).uniform(lo, hi, shape)


def rint(seed: int, shape: tuple[int, ...], lo: int = 0, hi: int = 5) -> np.ndarray:
    return np.random.default_rng(seed).integers(lo, hi, shape).astype(np.float64)


def out_size(n: int, k: int, s: int, pad: str) -> int:
    return -(-n // s) if pad == "SAME" else (n - k) // s + 1


def pad_before(n: int, k: int, s: int, pad: str) -> int:
    if pad != "SAME":
        return 0
    o = -(-n // s)
    return max((o - 1) * s + k - n, 0) // 2


def max_pool(x: np.ndarray, ks: list[int], st: list[int], pad: str) -> np.ndarray:
    """Max pooling of a channels-last array over its spatial dims (padding
    never wins); also returns nothing else."""
    sp = x.shape[1:-1]
    osz = [out_size(n, k, s, pad) for n, k, s in zip(sp, ks[1:-1], st[1:-1], strict=True)]
    pb = [pad_before(n, k, s, pad) for n, k, s in zip(sp, ks[1:-1], st[1:-1], strict=True)]
    out = np.zeros((x.shape[0], *osz, x.shape[-1]))
    for pos in itertools.product(*[range(o) for o in osz]):
        sl = tuple(
            slice(max(p * s - b, 0), min(p * s - b + k, n))
            for p, s, b, k, n in zip(pos, st[1:-1], pb, ks[1:-1], sp, strict=True)
        )
        win = x[(slice(None), *sl, slice(None))]
        out[(slice(None), *pos, slice(None))] = win.reshape(x.shape[0], -1, x.shape[-1]).max(1)
    return out


def argmax_2d(x: np.ndarray, ks: list[int], st: list[int], pad: str, batch: bool) -> np.ndarray:
    """MaxPoolWithArgmax's indices for distinct values (NHWC)."""
    n, h, w, c = x.shape
    oh, ow = out_size(h, ks[1], st[1], pad), out_size(w, ks[2], st[2], pad)
    ph, pw = pad_before(h, ks[1], st[1], pad), pad_before(w, ks[2], st[2], pad)
    out = np.zeros((n, oh, ow, c), np.int64)
    for b, i, j, ch in itertools.product(range(n), range(oh), range(ow), range(c)):
        best, bi = -np.inf, -1
        for y in range(max(i * st[1] - ph, 0), min(i * st[1] - ph + ks[1], h)):
            for xx in range(max(j * st[2] - pw, 0), min(j * st[2] - pw + ks[2], w)):
                if x[b, y, xx, ch] > best:
                    best, bi = x[b, y, xx, ch], (y * w + xx) * c + ch
        out[b, i, j, ch] = bi + (b * h * w * c if batch else 0)
    return out


def bn_cases() -> list[Case]:
    out: list[Case] = []
    shapes = {"NHWC": (2, 3, 4, 3), "NCHW": (2, 3, 4, 3), "NDHWC": (2, 2, 3, 2, 3),
              "NCDHW": (2, 3, 2, 2, 3)}
    for op in ["FusedBatchNormGrad", "FusedBatchNormGradV2", "FusedBatchNormGradV3"]:
        dts = ["float32"] if op == "FusedBatchNormGrad" else ["float32", "float16", "bfloat16"]
        fmts = ["NHWC", "NCHW"] + (["NDHWC", "NCDHW"] if op.endswith("V3") else [])
        for dt, fmt, train in itertools.product(dts, fmts, [True, False]):
            shp = shapes[fmt]
            x = rnd(1, shp)
            dy = rnd(2, shp)
            caxis = 1 if fmt[1] == "C" else len(shp) - 1
            axes = tuple(i for i in range(len(shp)) if i != caxis)
            c = shp[caxis]
            if train:
                mean, var = x.mean(axis=axes), x.var(axis=axes)
            else:
                mean, var = rnd(3, (c,), -1, 1), rnd(4, (c,), 0.5, 2)
            u = "float32" if op != "FusedBatchNormGrad" else dt
            ins: dict[str, Any] = {
                "y_backprop": dy.tolist(), "x": x.tolist(),
                "scale": (rnd(5, (c,), 0.5, 2).tolist(), u),
                "reserve_space_1": (mean.tolist(), u), "reserve_space_2": (var.tolist(), u),
            }
            if op.endswith("V3"):
                ins["reserve_space_3"] = ([], "float32")
            out.append((op, dt, ins, {"data_format": fmt, "is_training": train,
                                      "epsilon": 0.001}))
    # empty input: zero scale/offset gradients
    e = np.zeros((0, 2, 2, 3)).tolist()
    z = ([0.0, 0.0, 0.0], "float32")
    out.append(("FusedBatchNormGradV3", "float16", {
        "y_backprop": e, "x": e, "scale": ([1.0, 1.0, 1.0], "float32"),
        "reserve_space_1": z, "reserve_space_2": z, "reserve_space_3": ([], "float32")}, {}))
    # errors
    x4 = rnd(1, (1, 2, 2, 3)).tolist()
    c3 = ([1.0, 1.0, 1.0], "float32")
    c2 = ([1.0, 1.0], "float32")
    base = {"y_backprop": x4, "x": x4, "scale": c3, "reserve_space_1": c3,
            "reserve_space_2": c3, "reserve_space_3": ([], "float32")}
    out.append(("FusedBatchNormGradV3", "float32", {**base, "x": [[1.0, 2.0, 3.0]]}, {}))
    out.append(("FusedBatchNormGradV3", "float32", {**base, "y_backprop": [[1.0, 2.0, 3.0]]}, {}))
    out.append(("FusedBatchNormGradV3", "float32", {**base, "scale": ([[1.0]], "float32")}, {}))
    out.append(("FusedBatchNormGradV3", "float32", {**base, "scale": c2}, {}))
    out.append(("FusedBatchNormGradV3", "float32", {**base, "reserve_space_1": c2}, {}))
    out.append(("FusedBatchNormGradV3", "float32", {**base, "reserve_space_2": c2}, {}))
    out.append(("FusedBatchNormGradV3", "float32",
                {**base, "reserve_space_1": ([[1.0, 1.0, 1.0]], "float32")}, {}))
    out.append(("FusedBatchNormGradV3", "float32",
                {**base, "y_backprop": rnd(1, (1, 2, 3, 3)).tolist()}, {}))
    # the same checks in the kernel for half
    h4 = {**base, "x": x4, "y_backprop": x4}
    out.append(("FusedBatchNormGradV3", "float16", {**h4, "x": [[1.0, 2.0, 3.0]]}, {}))
    out.append(("FusedBatchNormGradV3", "float16", {**h4, "scale": c2}, {}))
    out.append(("FusedBatchNormGradV3", "float16", {**h4, "y_backprop": x4[0]}, {}))
    return out


def conv3d_cases() -> list[Case]:
    out: list[Case] = []
    x_shape = (2, 4, 5, 3, 3)
    f_shape = (2, 3, 2, 3, 4)
    for st, pad in [([1, 1, 1, 1, 1], "VALID"), ([1, 2, 1, 2, 1], "SAME"),
                    ([1, 1, 2, 1, 1], "SAME")]:
        o = [out_size(n, k, s, pad) for n, k, s in zip(x_shape[1:4], f_shape[:3], st[1:4],
                                                       strict=True)]
        ob = rnd(7, (2, *o, 4))
        x = rnd(8, x_shape)
        f = rnd(9, f_shape)
        a = {"strides": st, "padding": pad}
        if pad == "VALID":
            # the V1 ops: TF refuses them (deprecated since GraphDef 10)
            v1 = {"input": x.tolist(), "filter": f.tolist(), "out_backprop": ob.tolist()}
            for dt in ["float32", "float64", "float16"]:
                out.append(("Conv3DBackpropInput", dt, v1, a))
                out.append(("Conv3DBackpropFilter", dt, v1, a))
        for dt in ["float32", "float64", "float16", "bfloat16"]:
            out.append(("Conv3DBackpropFilterV2", dt,
                        {"input": x.tolist(), "filter_sizes": (list(f_shape), "int32"),
                         "out_backprop": ob.tolist()}, a))
    # errors
    x = rnd(8, x_shape).tolist()
    f = rnd(9, f_shape).tolist()
    ob = rnd(7, (2, 3, 3, 2, 4)).tolist()
    a = {"strides": [1, 1, 1, 1, 1], "padding": "VALID"}
    # (TF's oneDNN kernel answers a wrong out_backprop size with an
    # AbortedError of its own: not recorded)
    out.append(("Conv3DBackpropFilterV2", "float32",
                {"input": x, "filter_sizes": ([2, 3, 2, 2, 4], "int32"),
                 "out_backprop": rnd(7, (2, 3, 3, 2, 4)).tolist()}, a))
    out.append(("Conv3DBackpropFilterV2", "float32",
                {"input": x, "filter_sizes": ([2, 3, 2, 3], "int32"), "out_backprop": ob}, a))
    out.append(("Conv3DBackpropInput", "float32",
                {"input": x, "filter": f, "out_backprop": rnd(7, (2, 3, 4, 2, 5)).tolist()}, a))
    out.append(("Conv3DBackpropInput", "float32",
                {"input": x, "filter": f, "out_backprop": rnd(7, (2, 3, 4, 2)).tolist()}, a))
    out.append(("Conv3DBackpropFilter", "float32",
                {"input": x, "filter": f, "out_backprop": rnd(7, (2, 3, 4, 2, 4)).tolist()},
                {"strides": [1, 1, 1, 1, 2], "padding": "VALID"}))
    out.append(("Conv3DBackpropFilter", "float32",
                {"input": x, "filter": f, "out_backprop": rnd(7, (2, 3, 4, 2, 4)).tolist()},
                {"strides": [1, 1, 1, 1, 1], "padding": "VALID", "dilations": [1, 2, 1, 1, 1]}))
    return out


def pool3d_cases() -> list[Case]:
    out: list[Case] = []
    x = rint(11, (2, 4, 5, 3, 2))
    for ks, st, pad in [([1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID"),
                        ([1, 2, 3, 2, 1], [1, 2, 2, 1, 1], "SAME"),
                        ([1, 3, 1, 2, 1], [1, 1, 2, 2, 1], "SAME")]:
        y = max_pool(x, ks, st, pad)
        a = {"ksize": ks, "strides": st, "padding": pad}
        g = rnd(12, y.shape)
        gg = rnd(13, x.shape)
        for dt in ["float32", "bfloat16"]:
            out.append(("MaxPool3DGrad", dt,
                        {"orig_input": x.tolist(), "orig_output": y.tolist(),
                         "grad": g.tolist()}, a))
            out.append(("MaxPool3DGradGrad", dt,
                        {"orig_input": x.tolist(), "orig_output": y.tolist(),
                         "grad": gg.tolist()}, a))
            out.append(("AvgPool3DGrad", dt,
                        {"orig_input_shape": (list(x.shape), "int32"), "grad": g.tolist()}, a))
    # errors
    y = max_pool(x, [1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID")
    a = {"ksize": [1, 2, 2, 2, 1], "strides": [1, 1, 1, 1, 1], "padding": "VALID"}
    e = {"orig_input": x.tolist(), "orig_output": y.tolist(), "grad": y.tolist()}
    out.append(("MaxPool3DGrad", "float32", e, {**a, "ksize": [1, 2, 2, 1]}))
    out.append(("MaxPool3DGrad", "float32", e, {**a, "ksize": [2, 2, 2, 2, 1]}))
    out.append(("MaxPool3DGrad", "float32", {**e, "grad": x.tolist()}, a))
    out.append(("MaxPool3DGrad", "float32", {**e, "orig_input": x[0].tolist()}, a))
    out.append(("MaxPool3DGradGrad", "float32", e, a))
    return out


def pool2d_cases() -> list[Case]:
    out: list[Case] = []
    x = rint(21, (2, 5, 6, 3))
    for ks, st, pad in [([1, 2, 2, 1], [1, 2, 2, 1], "SAME"), ([1, 3, 2, 1], [1, 1, 2, 1], "VALID"),
                        ([1, 3, 3, 1], [1, 2, 1, 1], "SAME")]:
        y = max_pool(x, ks, st, pad)
        g = rint(22, x.shape, 1, 50)
        for dt in REAL:
            out.append(("MaxPoolGradGrad", dt,
                        {"orig_input": x.tolist(), "orig_output": y.tolist(), "grad": g.tolist()},
                        {"ksize": ks, "strides": st, "padding": pad}))
        for dt in ["float32", "int64", "float16"]:
            out.append(("MaxPoolGradGradV2", dt,
                        {"orig_input": x.tolist(), "orig_output": y.tolist(), "grad": g.tolist(),
                         "ksize": (ks, "int32"), "strides": (st, "int32")}, {"padding": pad}))
    # orig_output that matches nothing: zeros
    out.append(("MaxPoolGradGrad", "float32",
                {"orig_input": x.tolist(), "orig_output": (np.zeros((2, 3, 3, 3)) + 9).tolist(),
                 "grad": x.tolist()}, {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1],
                                       "padding": "SAME"}))
    a = {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1], "padding": "SAME"}
    y = max_pool(x, a["ksize"], a["strides"], "SAME")
    e = {"orig_input": x.tolist(), "orig_output": y.tolist(), "grad": x.tolist()}
    out.append(("MaxPoolGradGrad", "float32", {**e, "grad": y.tolist()}, a))
    out.append(("MaxPoolGradGrad", "float32", {**e, "orig_output": x.tolist()}, a))
    out.append(("MaxPoolGradGrad", "float32", e, {**a, "ksize": [1, 2, 2]}))
    out.append(("MaxPoolGradGrad", "float32", e, {**a, "ksize": [2, 2, 2, 1]}))
    out.append(("MaxPoolGradGrad", "float32", {**e, "orig_input": x[0].tolist()}, a))
    out.append(("MaxPoolGradGradV2", "float32",
                {**e, "ksize": ([1, 2, 2], "int32"), "strides": ([1, 2, 2, 1], "int32")},
                {"padding": "SAME"}))
    # MaxPoolGradWithArgmax: distinct values
    xd = np.random.default_rng(23).permutation(2 * 5 * 6 * 3).reshape(2, 5, 6, 3).astype(float)
    for ks, st, pad in [
        ([1, 2, 2, 1], [1, 2, 2, 1], "SAME"),
        ([1, 3, 2, 1], [1, 1, 2, 1], "VALID"),
    ]:
        for batch in [False, True]:
            am = argmax_2d(xd, ks, st, pad, batch)
            g = rint(24, am.shape, 1, 50)
            for dt in REAL:
                xv = (xd % 100).tolist() if dt in ("int8", "uint8") else xd.tolist()
                out.append(("MaxPoolGradWithArgmax", dt,
                            {"input": xv, "grad": g.tolist(), "argmax": (am.tolist(), "int64")},
                            {"ksize": ks, "strides": st, "padding": pad,
                             "include_batch_in_index": batch}))
    am = argmax_2d(xd, [1, 2, 2, 1], [1, 2, 2, 1], "SAME", False)
    ea = {"input": xd.tolist(), "grad": am.astype(float).tolist(), "argmax": (am.tolist(), "int64")}
    aa = {"ksize": [1, 2, 2, 1], "strides": [1, 2, 2, 1], "padding": "SAME"}
    out.append(("MaxPoolGradWithArgmax", "float32", {**ea, "grad": xd.tolist()}, aa))
    out.append(("MaxPoolGradWithArgmax", "float32", ea, {**aa, "ksize": [1, 2, 2]}))
    return out


def dilation_cases() -> list[Case]:
    out: list[Case] = []
    x = rint(31, (2, 5, 6, 2), 0, 6)
    f = rint(32, (2, 3, 2), 0, 3)
    for st, rt, pad in [([1, 1, 1, 1], [1, 1, 1, 1], "VALID"), ([1, 2, 1, 1], [1, 1, 2, 1], "SAME"),
                        ([1, 1, 2, 1], [1, 2, 1, 1], "SAME")]:
        oh = out_size(5, 2 + (2 - 1) * (rt[1] - 1), st[1], pad)
        ow = out_size(6, 3 + (3 - 1) * (rt[2] - 1), st[2], pad)
        g = rint(33, (2, oh, ow, 2), 1, 9)
        a = {"strides": st, "rates": rt, "padding": pad}
        for dt in REAL:
            ins = {"input": x.tolist(), "filter": f.tolist(), "out_backprop": g.tolist()}
            out.append(("Dilation2DBackpropInput", dt, ins, a))
            out.append(("Dilation2DBackpropFilter", dt, ins, a))
    a = {"strides": [1, 1, 1, 1], "rates": [1, 1, 1, 1], "padding": "VALID"}
    ins = {"input": x.tolist(), "filter": f.tolist(), "out_backprop": x.tolist()}
    out.append(("Dilation2DBackpropInput", "float32", ins, a))
    out.append(("Dilation2DBackpropFilter", "float32", {**ins, "filter": x[0].tolist()}, a))
    out.append(("Dilation2DBackpropInput", "float32", ins, {**a, "strides": [1, 1, 1]}))
    out.append(("Dilation2DBackpropInput", "float32", ins, {**a, "rates": [2, 1, 1, 1]}))
    return out


def cases() -> list[Case]:
    return [*bn_cases(), *conv3d_cases(), *pool3d_cases(), *pool2d_cases(), *dilation_cases()]


CASES = cases()
