"""tf.signal and tf.image against TensorFlow 2.21's recorded results.

tests/data/api_signal_image_tf221.json (written by
tools/record_api_signal_image.py with TensorFlow 2.21) holds, per case, a
Python expression and TF's value or error. Each case evaluates the same
expression with ``import tfe_py as tf`` and compares: values to the dtype's
precision (float32/complex64 to ~1e-5 of the largest magnitude), errors by
class and message.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import numpy as np
import pytest

import tfe_py as tf

_DATA = os.path.join(os.path.dirname(__file__), "..", "data", "api_signal_image_tf221.json")
with open(_DATA) as _f:
    _REC = json.load(_f)
_CASES = _REC["cases"]

# Error classes: TF's and tfe's are matched by name.
_ERRORS_SAME = {
    "ValueError",
    "TypeError",
    "NotImplementedError",
    "InvalidArgumentError",
    "FailedPreconditionError",
    "NotFoundError",
    "UnimplementedError",
}

# Cases where tfe knowingly differs (see docs/PYTHON.md): name -> reason.
_KNOWN: dict[str, str] = {}


def _ns() -> dict[str, Any]:
    ns: dict[str, Any] = {"tf": tf, "np": np}
    exec(_REC["prelude"], ns)
    return ns


_NS = _ns()


def _tol(dtype: str) -> tuple[float, float]:
    if dtype in ("float64", "complex128"):
        return 1e-9, 1e-9
    if dtype in ("float16", "bfloat16"):
        return 2e-3, 2e-3
    return 2e-5, 2e-5


def _check_value(got: Any, want: dict[str, Any], name: str) -> None:
    if "list" in want:
        assert isinstance(got, (list, tuple)), name
        assert len(got) == len(want["list"]), name
        for g, w in zip(got, want["list"], strict=False):
            _check_value(g, w, name)
        return
    a = np.asarray(got.numpy() if hasattr(got, "numpy") else got)
    assert list(a.shape) == want["shape"], f"{name}: shape {a.shape} != {want['shape']}"
    wd = want["dtype"]
    if wd == "string":
        vals = [x.decode("latin-1") if isinstance(x, bytes) else str(x) for x in a.ravel()]
        assert vals == want["value"], name
        return
    assert str(a.dtype) == wd, f"{name}: dtype {a.dtype} != {wd}"
    if "re" in want:
        ref = (np.asarray(want["re"]) + 1j * np.asarray(want["im"])).reshape(want["shape"])
    else:
        ref = np.asarray(want["value"], dtype=np.float64).reshape(want["shape"])
    if wd in ("bool",) or wd.startswith("int") or wd.startswith("uint"):
        np.testing.assert_array_equal(a.astype(np.float64), ref, err_msg=name)
        return
    rtol, atol = _tol(wd)
    scale = (
        float(np.max(np.abs(ref[np.isfinite(ref)]))) if ref.size and np.isfinite(ref).any() else 1.0
    )
    np.testing.assert_allclose(
        a.astype(ref.dtype),
        ref,
        rtol=rtol,
        atol=atol * max(scale, 1.0),
        err_msg=name,
        equal_nan=True,
    )


def _norm_msg(m: str) -> str:
    # TF's eager errors carry a "{{function_node ...}}" prefix and an
    # " [Op:X]" suffix; tfe's messages are the kernel's text alone.
    m = re.sub(r"\{\{function_node [^}]*\}\}\s*", "", m)
    m = re.sub(r"\s*\[Op:[^\]]*\].*$", "", m)
    return m.strip()


@pytest.mark.parametrize("name", sorted(_CASES))
def test_case(name: str) -> None:
    want = _CASES[name]
    if name in _KNOWN:
        pytest.skip(_KNOWN[name])
    expr = want["expr"]
    if "error" in want:
        with pytest.raises(Exception) as ei:
            v = eval(expr, _NS)
            if hasattr(v, "numpy"):
                v.numpy()
        err = ei.value
        assert type(err).__name__ == want["error"] or (
            want["error"] not in _ERRORS_SAME and isinstance(err, Exception)
        ), f"{name}: {type(err).__name__}: {err} (TF: {want['error']}: {want['message']})"
        tf_msg = _norm_msg(want["message"])
        got = _norm_msg(str(err))
        if want["error"] in ("InvalidArgumentError", "FailedPreconditionError"):
            assert tf_msg.split(" got")[0][:40] in got, f"{name}: {got!r} vs TF {tf_msg!r}"
        elif want["error"] == "ValueError":
            # Python-level checks: the text up to the first value must agree
            assert tf_msg[:25] in got, f"{name}: {got!r} vs TF {tf_msg!r}"
        return
    got = eval(expr, _NS)
    _check_value(got, want, name)


# ---- beyond the recorded cases ----


def test_fft_large_prime_matches_numpy() -> None:
    rs = np.random.RandomState(1)
    for n in (1009, 4099, 65537):
        x = (rs.standard_normal(n) + 1j * rs.standard_normal(n)).astype(np.complex128)
        y = tf.signal.fft(tf.constant(x)).numpy()
        ref = np.fft.fft(x)
        assert np.max(np.abs(y - ref)) <= 1e-12 * np.max(np.abs(ref))
        back = tf.signal.ifft(tf.constant(y)).numpy()
        assert np.max(np.abs(back - x)) <= 1e-12


def test_fftnd_axes_and_norm() -> None:
    rs = np.random.RandomState(2)
    xn = (rs.standard_normal((3, 4, 5)) + 1j * rs.standard_normal((3, 4, 5))).astype(np.complex128)
    x = tf.constant(xn)
    np.testing.assert_allclose(tf.signal.fftnd(x).numpy(), np.fft.fftn(xn), atol=1e-12)
    np.testing.assert_allclose(
        tf.fftnd(x, axes=[0, 2]).numpy(), np.fft.fftn(xn, axes=[0, 2]), atol=1e-12
    )
    np.testing.assert_allclose(
        tf.signal.ifftnd(x, fft_length=[6], axes=[-1]).numpy(),
        np.fft.ifftn(xn, s=[6], axes=[-1]),
        atol=1e-12,
    )
    np.testing.assert_allclose(
        tf.signal.fftnd(x, norm="ortho").numpy(), np.fft.fftn(xn, norm="ortho"), atol=1e-12
    )
    r = xn.real.copy()
    np.testing.assert_allclose(
        tf.signal.rfftnd(tf.constant(r), fft_length=[4, 6], axes=[0, 2]).numpy(),
        np.fft.rfftn(r, s=[4, 6], axes=[0, 2]),
        atol=1e-12,
    )
    c = np.fft.rfftn(r, axes=[1, 2])
    np.testing.assert_allclose(
        tf.irfftnd(tf.constant(c), fft_length=[4, 5], axes=[1, 2]).numpy(), r, atol=1e-12
    )
    with pytest.raises(tf.errors.InvalidArgumentError, match="distinct"):
        tf.raw_ops.FFTND(input=x, fft_length=[2, 2], axes=[1, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
        tf.raw_ops.FFTND(input=x, fft_length=[2], axes=[3])


def test_fft_in_tf_function() -> None:
    @tf.function
    def f(x: Any) -> Any:
        return tf.signal.rfft(x, [8])

    x = np.arange(8, dtype=np.float32)
    np.testing.assert_allclose(f(x).numpy(), np.fft.rfft(x), atol=1e-5)


def test_signal_and_image_in_tf_function_match_eager() -> None:
    rs = np.random.RandomState(3)
    x = rs.standard_normal((2, 300)).astype(np.float32)
    img = rs.uniform(0, 1, (2, 8, 8, 3)).astype(np.float32)

    def sig(a: Any) -> list[Any]:
        return [
            tf.signal.stft(a, 64, 16),
            tf.signal.inverse_stft(tf.signal.stft(a, 64, 16), 64, 16),
            tf.signal.dct(a, type=2, norm="ortho"),
            tf.signal.frame(a, 10, 5, pad_end=True),
            tf.signal.fftshift(a),
        ]

    def im(i: Any) -> list[Any]:
        return [
            tf.image.resize(i, [4, 5], method="lanczos3"),
            tf.image.adjust_hue(i, 0.2),
            tf.image.rgb_to_grayscale(i),
            tf.image.ssim(i, i[::-1], 1.0, filter_size=3),
            tf.image.resize_with_crop_or_pad(i, 5, 10),
            tf.image.central_crop(i, 0.5),
            tf.image.convert_image_dtype(i, tf.uint8),
            tf.image.sobel_edges(i),
        ]

    for fn, arg in ((sig, x), (im, img)):
        eager = fn(arg)
        graph = tf.function(fn)(arg)
        assert len(eager) == len(graph)
        for e, g in zip(eager, graph, strict=True):
            assert e.shape == g.shape
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-6, atol=1e-6)


def test_missing_ops_raise_not_implemented_naming_the_op() -> None:
    for fn, op in (
        (
            lambda: tf.image.adjust_jpeg_quality(np.zeros((2, 2, 3), np.uint8), 50),
            "EncodeJpegVariableQuality",
        ),
        (
            lambda: tf.image.generate_bounding_box_proposals(
                np.zeros((1, 2, 2, 1), np.float32),
                np.zeros((1, 2, 2, 4), np.float32),
                np.zeros((1, 5), np.float32),
                np.zeros((1, 4), np.float32),
            ),
            "GenerateBoundingBoxProposals",
        ),
    ):
        with pytest.raises(NotImplementedError, match=op):
            fn()
    # the codecs are tf.io's functions, as in TF
    assert tf.image.decode_png is tf.io.decode_png
    assert tf.image.encode_jpeg is tf.io.encode_jpeg


def test_extract_glimpse_noise_stays_in_the_image_range() -> None:
    rs = np.random.RandomState(4)
    img = rs.uniform(0.25, 0.75, (1, 4, 5, 2)).astype(np.float32)
    for noise in ("uniform", "gaussian"):
        g = tf.image.extract_glimpse(img, [6, 7], [[0.0, 0.0]], noise=noise).numpy()
        assert g.shape == (1, 6, 7, 2)
        # the window is centred: the image sits at rows 1..4, cols 1..5
        np.testing.assert_array_equal(g[0, 1:5, 1:6], img[0])
        border = np.concatenate([g[0, 0].ravel(), g[0, 5].ravel(), g[0, :, 0].ravel()])
        assert border.min() >= 0.25 - 1e-6 and border.max() <= 0.75 + 1e-6


def test_stft_and_overlap_add_with_lengths_known_at_run_time() -> None:
    rs = np.random.RandomState(5)
    x = rs.standard_normal((2, 403)).astype(np.float32)
    f = tf.function(
        lambda a: tf.signal.stft(a, 50, 16, pad_end=True),
        input_signature=[tf.TensorSpec([None, None], tf.float32)],
    )
    np.testing.assert_allclose(
        f(x).numpy(), tf.signal.stft(x, 50, 16, pad_end=True).numpy(), atol=1e-6
    )
    s = tf.signal.stft(x, 64, 16)
    g = tf.function(
        lambda a: tf.signal.inverse_stft(a, 64, 16),
        input_signature=[tf.TensorSpec([2, None, 33], tf.complex64)],
    )
    np.testing.assert_allclose(g(s).numpy(), tf.signal.inverse_stft(s, 64, 16).numpy(), atol=1e-6)
    fr = rs.standard_normal((3, 7, 10)).astype(np.float32)
    h = tf.function(
        lambda a: tf.signal.overlap_and_add(a, 3),
        input_signature=[tf.TensorSpec([None, None, None], tf.float32)],
    )
    np.testing.assert_allclose(h(fr).numpy(), tf.signal.overlap_and_add(fr, 3).numpy(), atol=1e-6)


def test_crops_and_pads_with_image_size_known_at_run_time() -> None:
    img = np.random.RandomState(6).uniform(0, 1, (2, 7, 5, 3)).astype(np.float32)
    fns = [
        lambda i: tf.image.resize_with_crop_or_pad(i, 4, 9),
        lambda i: tf.image.crop_to_bounding_box(i, 1, 2, 3, 2),
        lambda i: tf.image.pad_to_bounding_box(i, 1, 2, 10, 9),
        lambda i: tf.image.central_crop(i, 0.5),
        lambda i: tf.image.resize_with_pad(i, 8, 8),
        lambda i: tf.image.resize_with_crop_or_pad(i[0], 8, 3),
    ]
    for fn in fns:
        g = tf.function(fn, input_signature=[tf.TensorSpec([None, None, None, 3], tf.float32)])
        np.testing.assert_array_equal(g(img).numpy(), fn(img).numpy())
