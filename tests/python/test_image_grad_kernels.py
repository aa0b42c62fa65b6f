"""The image_codec group's backprop kernels (ResizeBicubicGrad,
CropAndResizeGradImage, CropAndResizeGradBoxes, ScaleAndTranslateGrad,
RandomGammaGrad) against
TF 2.21's outputs and errors for the same inputs
(tests/data/image_grad_kernels_tf221.json, written by
tools/record_image_grad_kernels.py), and the gradients built on them
(ResizeBicubic, CropAndResize, RandomGamma, StatelessRandomGammaV2/V3)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from recorded_ops import assert_error, load_cases

import tfe_py as tf
from tfe_py import ops

_CASES = load_cases("image_grad_kernels_tf221.json")


def _run(cs: dict[str, Any]) -> Any:
    kwargs: dict[str, Any] = dict(cs["attrs"])
    for name, spec in cs["inputs"].items():
        a = np.array(spec["value"], spec["dtype"]).reshape(spec["shape"])
        kwargs[name] = tf.constant(a, dtype=spec["dtype"])
    return getattr(ops, cs["op"])(**kwargs)


def _tol(cs: dict[str, Any]) -> tuple[float, float]:
    dt = cs["output"]["dtype"]
    if dt == "float16":
        return 2e-3, 2e-3
    if dt == "float32":
        return 2e-6, 2e-6
    # RandomGammaGrad: a different (equally accurate) series evaluation
    return (1e-9, 1e-12) if cs["op"] == "RandomGammaGrad" else (1e-12, 1e-12)


_OK = [c for c in _CASES if "output" in c]
_ERR = [c for c in _CASES if "error" in c]


@pytest.mark.parametrize("cs", _OK, ids=[c["name"] for c in _OK])
def test_output_matches_tf(cs: dict[str, Any]) -> None:
    out = _run(cs)
    got = np.asarray(out.numpy())
    exp = np.array(cs["output"]["value"], np.float64).reshape(cs["output"]["shape"])
    assert out.dtype == getattr(tf, cs["output"]["dtype"])
    assert got.shape == exp.shape
    rtol, atol = _tol(cs)
    np.testing.assert_allclose(got.astype(np.float64), exp, rtol=rtol, atol=atol)
    # signed zeros and NaNs where TF has them
    np.testing.assert_array_equal(np.isnan(got), np.isnan(exp))
    zero = exp == 0
    np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(exp[zero]))


@pytest.mark.parametrize("cs", _ERR, ids=[c["name"] for c in _ERR])
def test_error_matches_tf(cs: dict[str, Any]) -> None:
    assert_error(cs, lambda: _run(cs))


def test_every_kernel_dtype_has_a_case() -> None:
    seen = {(c["op"], c["inputs"].get("original_image", c["inputs"].get("image", c["inputs"].get(
        "alpha", {})))["dtype"] if c["op"] != "CropAndResizeGradImage" else c["attrs"]["T"])
        for c in _OK}
    want = {("ResizeBicubicGrad", d) for d in ("float32", "float64")}
    want |= {("CropAndResizeGradImage", d) for d in ("float32", "float64", "float16")}
    want |= {("CropAndResizeGradBoxes", d) for d in
             ("uint8", "uint16", "int8", "int16", "int32", "int64", "float16", "float32",
              "float64")}
    want |= {("RandomGammaGrad", d) for d in ("float32", "float64")}
    want |= {("ScaleAndTranslateGrad", "float32")}
    assert want <= seen


def _num_grad(f: Any, a: np.ndarray, eps: float = 1e-3) -> np.ndarray:
    g = np.zeros_like(a)
    for idx in np.ndindex(a.shape):
        p, q = a.copy(), a.copy()
        p[idx] += eps
        q[idx] -= eps
        g[idx] = (f(p) - f(q)) / (2 * eps)
    return g


@pytest.mark.parametrize("attrs", [{}, {"half_pixel_centers": True}, {"align_corners": True}])
def test_resize_bicubic_gradient_is_the_adjoint(attrs: dict[str, Any]) -> None:
    # the forward op is linear in the image: <resize(x), w> = <x, grad(w)>
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, (2, 3, 4, 2))
    w = rng.uniform(-1, 1, (2, 5, 7, 2))
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = ops.ResizeBicubic(images=xt, size=tf.constant([5, 7]), **attrs)
        loss = ops.Sum(ops.Mul(y, tf.constant(w.astype(np.float32))),
                       tf.constant([0, 1, 2, 3]))
    g = tape.gradient(loss, xt).numpy()
    assert g.dtype == np.float64
    fwd = ops.ResizeBicubic(images=xt, size=tf.constant([5, 7]), **attrs).numpy()
    np.testing.assert_allclose((g * x).sum(), (fwd * w).sum(), rtol=1e-5)


def test_crop_and_resize_gradients_are_the_derivatives() -> None:
    rng = np.random.default_rng(2)
    image = rng.uniform(-1, 1, (2, 5, 6, 1)).astype(np.float32)
    # no sample lands exactly on a pixel (the bilinear weights have kinks there)
    boxes = np.array([[0.13, 0.21, 0.81, 0.93], [0.31, 0.17, 0.64, 0.72]], np.float32)
    w = rng.uniform(-1, 1, (2, 3, 4, 1)).astype(np.float32)

    def loss_of(img: np.ndarray, bx: np.ndarray) -> float:
        out = ops.CropAndResize(image=tf.constant(img), boxes=tf.constant(bx),
                                box_ind=tf.constant([0, 1]), crop_size=tf.constant([3, 4]))
        return float((out.numpy().astype(np.float64) * w).sum())

    it, bt = tf.constant(image), tf.constant(boxes)
    with tf.GradientTape() as tape:
        tape.watch([it, bt])
        out = ops.CropAndResize(image=it, boxes=bt, box_ind=tf.constant([0, 1]),
                                crop_size=tf.constant([3, 4]))
        loss = ops.Sum(ops.Mul(out, tf.constant(w)), tf.constant([0, 1, 2, 3]))
    gi, gb = tape.gradient(loss, [it, bt])
    # linear in the image: exact adjoint
    np.testing.assert_allclose((gi.numpy() * image).sum(), loss_of(image, boxes), rtol=1e-4)
    num = _num_grad(lambda b: loss_of(image, b.astype(np.float32)), boxes.astype(np.float64))
    np.testing.assert_allclose(gb.numpy(), num, rtol=2e-2, atol=2e-3)


def _gamma_alpha_grad(alpha: np.ndarray, op: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    at = tf.constant(alpha)
    with tf.GradientTape() as tape:
        tape.watch(at)
        s = op(at)
        loss = ops.Sum(s, tf.constant(np.arange(len(s.shape), dtype=np.int32)))
    g = tape.gradient(loss, at).numpy()
    return g, s.numpy(), at.numpy()


def _expected_gamma_grad(alpha: np.ndarray, sample: np.ndarray) -> np.ndarray:
    """sum over the sample dims of RandomGammaGrad(alpha, sample)."""
    lead = sample.ndim - alpha.ndim
    d = ops.RandomGammaGrad(alpha=tf.constant(np.broadcast_to(alpha, sample.shape).copy()),
                            sample=tf.constant(sample)).numpy()
    return d.sum(axis=tuple(range(lead)))


def test_random_gamma_gradient() -> None:
    alpha = np.array([0.7, 2.5])
    g, s, _ = _gamma_alpha_grad(alpha, lambda a: ops.RandomGamma(
        shape=tf.constant([4, 3]), alpha=a, seed=3, seed2=4))
    assert s.shape == (4, 3, 2)
    np.testing.assert_allclose(g, _expected_gamma_grad(alpha, s), rtol=1e-12)


def test_stateless_random_gamma_gradients() -> None:
    alpha = np.array([[0.4, 1.5, 6.0]])
    g2, s2, _ = _gamma_alpha_grad(alpha, lambda a: ops.StatelessRandomGammaV2(
        shape=tf.constant([5, 1, 3]), seed=tf.constant(np.array([7, 8], np.int64)), alpha=a))
    np.testing.assert_allclose(g2, _expected_gamma_grad(alpha, s2), rtol=1e-12)
    g3, s3, _ = _gamma_alpha_grad(alpha, lambda a: ops.StatelessRandomGammaV3(
        shape=tf.constant([2, 1, 3]), key=tf.constant(np.array([9], np.uint64)),
        counter=tf.constant(np.array([0, 0], np.uint64)), alg=tf.constant(np.int32(1)),
        alpha=a))
    np.testing.assert_allclose(g3, _expected_gamma_grad(alpha, s3), rtol=1e-12)


def test_random_gamma_grad_is_the_implicit_derivative() -> None:
    # d sample / d alpha at fixed CDF level: P(alpha + h, x + h * g) = P(alpha, x)
    from math import gamma

    def cdf(a: float, x: float, n: int = 4000) -> float:
        t = np.linspace(0.0, x, n + 1)[1:]
        f = t ** (a - 1) * np.exp(-t) / gamma(a)
        # exact integral of the t^(a-1) singularity on the first cell
        h = x / n
        first = h ** a / a / gamma(a)
        return float(first + np.trapezoid(f, t))

    for a, x in ((1.7, 2.2), (3.0, 0.9), (6.5, 7.5)):
        g = float(ops.RandomGammaGrad(alpha=tf.constant(a), sample=tf.constant(x)).numpy())
        h = 1e-4
        dp_da = (cdf(a + h, x) - cdf(a - h, x)) / (2 * h)
        pdf = x ** (a - 1) * np.exp(-x) / gamma(a)
        assert g == pytest.approx(-dp_da / pdf, rel=1e-3)


@pytest.mark.parametrize("kernel", ["lanczos3", "triangle", "keyscubic"])
@pytest.mark.parametrize("scale", [(2.0, 1.5), (0.45, 0.6)])
def test_scale_and_translate_gradient_is_the_adjoint(kernel: str,
                                                     scale: tuple[float, float]) -> None:
    # linear in the image: <op(x), w> = <x, grad(w)>
    rng = np.random.default_rng(4)
    x = rng.uniform(-1, 1, (1, 5, 6, 2)).astype(np.float32)
    size = [max(1, round(5 * scale[0])), max(1, round(6 * scale[1]))]
    w = rng.uniform(-1, 1, (1, size[0], size[1], 2)).astype(np.float32)
    args = {"size": tf.constant(size), "scale": tf.constant(np.array(scale, np.float32)),
            "translation": tf.constant(np.array([0.2, -0.1], np.float32)),
            "kernel_type": kernel}
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = ops.ScaleAndTranslate(images=xt, **args)
        loss = ops.Sum(ops.Mul(y, tf.constant(w)), tf.constant([0, 1, 2, 3]))
    g = tape.gradient(loss, xt).numpy()
    np.testing.assert_allclose(float((g.astype(np.float64) * x).sum()), float(loss.numpy()),
                               rtol=1e-4)
