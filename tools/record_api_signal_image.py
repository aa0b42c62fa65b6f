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


def _encode(v: Any) -> dict[str, Any]:
    if isinstance(v, (list, tuple)):
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
