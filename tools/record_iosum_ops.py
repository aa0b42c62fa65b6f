"""Records TF 2.21's results for the io_summary kernel group
(csrc/kernels/cpu/io_summary_*.c) into tests/data/iosum_ops_tf221.json.
Run with /work/tfvenv/bin/python; tests/python/test_iosum_ops.py only reads
the JSON.

Two kinds of cases:
- "op" cases run one raw op eagerly on CPU and keep its outputs (strings as
  base64, since summaries and WAV files are binary) or its error (TF's
  exception class and message). Outputs holding PNG images also keep the
  pixels TF decodes from them, because tfe's deflate stream differs from
  zlib's (the pixels must match, not the bytes).
- "script" cases run a sequence of raw ops (summary writers, TF 1 readers)
  whose inputs may refer to earlier results; they keep what each step
  returned, and for summary writers the Event records of the events file
  (without wall_time) read back afterwards.
"""

from __future__ import annotations

import base64
import json
import os
import struct
import sys
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np

R = np.random.default_rng(2118)
REAL = ("float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
        "uint8", "uint16", "uint32", "uint64")
ALL = (*REAL, "complex64", "complex128", "bool", "string")

CASES: list[dict[str, Any]] = []


def enc(a: Any, dtype: str) -> dict[str, Any]:
    """A JSON-able tensor: strings as base64, complex as [re, im] pairs."""
    a = np.asarray(a, dtype=object if dtype == "string" else None)
    shape = list(a.shape)
    flat = a.reshape(-1)
    if dtype == "string":
        v: Any = [base64.b64encode(x if isinstance(x, bytes) else str(x).encode()).decode()
                  for x in flat]
    elif dtype.startswith("complex"):
        c = np.asarray(flat, np.complex128)
        v = np.stack([c.real, c.imag], -1).tolist()
    elif dtype in ("float16", "bfloat16", "float32", "float64"):
        v = [float(x) for x in np.asarray(flat, np.float64)]
        v = [x if np.isfinite(x) else str(x) for x in v]
    elif dtype == "bool":
        v = [bool(x) for x in flat]
    else:
        v = [int(x) for x in flat]
    return {"dtype": dtype, "shape": shape, "value": v}


def t(v: Any, dtype: str) -> dict[str, Any]:
    return enc(v, dtype)


def add(name: str, op: str, inputs: dict[str, Any], attrs: dict[str, Any] | None = None,
        cmp: str = "exact") -> None:
    CASES.append({"name": name, "kind": "op", "op": op, "inputs": inputs,
                  "attrs": attrs or {}, "cmp": cmp})


def vals(shape: tuple[int, ...], dtype: str) -> Any:
    n = int(np.prod(shape))
    if dtype.startswith("complex"):
        v = R.integers(-4, 5, n) + 1j * R.integers(-4, 5, n)
    elif dtype == "string":
        v = np.asarray([f"s{i % 5}" for i in range(n)], dtype=object)
    elif dtype == "bool":
        v = R.integers(0, 2, n).astype(bool)
    elif dtype.startswith("u"):
        v = R.integers(0, 200, n)
    elif dtype.startswith("int"):
        v = R.integers(-100, 100, n)
    else:
        v = np.round(R.normal(0, 3, n), 3)
    return np.asarray(v).reshape(shape)


# ------------------------------------------------------------ summaries
for dt in REAL:
    add(f"scalar_{dt}", "ScalarSummary", {"tags": t(["a", "b/c", ""], "string"),
                                          "values": t(vals((3,), dt), dt)})
    add(f"histo_{dt}", "HistogramSummary", {"tag": t("h", "string"),
                                            "values": t(vals((4, 5), dt), dt)})
add("scalar_scalar", "ScalarSummary", {"tags": t("x", "string"), "values": t(2.5, "float32")})
add("scalar_2d", "ScalarSummary", {"tags": t([["a", "b"], ["c", "d"]], "string"),
                                   "values": t([[1, 0], [-1, 1e30]], "float64")})
add("scalar_empty", "ScalarSummary", {"tags": t(np.zeros((0,), object), "string"),
                                      "values": t(np.zeros((0,)), "float32")})
add("scalar_err_shape", "ScalarSummary", {"tags": t(["a", "b"], "string"),
                                          "values": t([1.0], "float32")})
add("scalar_err_single", "ScalarSummary", {"tags": t("a", "string"),
                                           "values": t([1.0, 2.0], "float32")})
add("scalar_err_1v", "ScalarSummary", {"tags": t(["a"], "string"), "values": t(1.0, "float32")})
add("scalar_nan_inf", "ScalarSummary", {"tags": t(["n", "i"], "string"),
                                        "values": t([float("nan"), float("-inf")], "float32")})
add("histo_empty", "HistogramSummary", {"tag": t("e", "string"),
                                        "values": t(np.zeros((0, 3)), "float32")})
add("histo_zeros", "HistogramSummary", {"tag": t("z", "string"),
                                        "values": t([0.0, 0.0, -0.0, 1e-13], "float64")})
add("histo_wide", "HistogramSummary",
    {"tag": t("w", "string"),
     "values": t(np.concatenate([R.normal(0, 1e6, 50), R.normal(0, 1e-6, 50),
                                 [1e19, -1e25, 1e300]]), "float64")})
add("histo_big_int", "HistogramSummary", {"tag": t("b", "string"),
                                          "values": t([2**62, -(2**62), 7], "int64")})
add("histo_err_nan", "HistogramSummary", {"tag": t("n", "string"),
                                          "values": t([1.0, float("nan")], "float32")})
add("histo_err_inf", "HistogramSummary", {"tag": t("n", "string"),
                                          "values": t([1.0, float("inf")], "float64")})
add("histo_err_tag", "HistogramSummary", {"tag": t(["a"], "string"),
                                          "values": t([1.0], "float32")})
for dt in ALL:
    add(f"tsum2_{dt}", "TensorSummaryV2", {"tag": t("tg", "string"),
                                           "tensor": t(vals((2, 3), dt), dt),
                                           "serialized_summary_metadata": t(b"", "string")})
    add(f"tsum_{dt}", "TensorSummary", {"tensor": t(vals((3,), dt), dt)})
add("tsum2_meta", "TensorSummaryV2",
    {"tag": t("m", "string"), "tensor": t(1.5, "float32"),
     "serialized_summary_metadata": t(b"\n\x0b\n\x07scalars\x12\x00\x12\x03dsp", "string")})
for i, meta in enumerate([b"\x22\x02\x08\x01", b"\x20\x02\x10\x03",
                          b"\x0a\x02\x0a\x00\x0a\x03\x12\x01z",
                          b"\x12\x01a\x12\x01b\x18\x05", b"\xff", b"\x12\x02\xc3\x28",
                          b"\x20\xff\xff\xff\xff\x0f", b"\x0a\x03\x0a\x01x\x2a\x01q"]):
    add(f"tsum2_meta_{i}", "TensorSummaryV2",
        {"tag": t("m", "string"), "tensor": t(1.5, "float32"),
         "serialized_summary_metadata": t(meta, "string")})
add("tsum2_scalar_str", "TensorSummaryV2",
    {"tag": t("", "string"), "tensor": t(b"\x00\xffbin", "string"),
     "serialized_summary_metadata": t(b"", "string")})
add("tsum2_empty", "TensorSummaryV2",
    {"tag": t("e", "string"), "tensor": t(np.zeros((0, 4)), "float32"),
     "serialized_summary_metadata": t(b"", "string")})
add("tsum2_err_tag", "TensorSummaryV2",
    {"tag": t(["a", "b"], "string"), "tensor": t(1.0, "float32"),
     "serialized_summary_metadata": t(b"", "string")})
add("tsum2_err_meta", "TensorSummaryV2",
    {"tag": t("a", "string"), "tensor": t(1.0, "float32"),
     "serialized_summary_metadata": t([b""], "string")})
add("tsum_attrs", "TensorSummary", {"tensor": t([[1, 2]], "int32")},
    {"description": "d", "labels": ["x", "y"], "display_name": "n"})


def _summary_bytes(op: str, **kw: Any) -> bytes:
    import tensorflow as tf

    return bytes(getattr(tf.raw_ops, op)(**kw).numpy())


# MergeSummary inputs are TF-made summaries; computed in main() (needs tf).
MERGE_SPECS: list[tuple[str, list[list[tuple[str, dict[str, Any]]]]]] = [
    ("merge_basic", [[("ScalarSummary", {"tags": ["a", "b"], "values": [1.0, 2.0]})],
                     [("HistogramSummary", {"tag": "h", "values": [1.0, 5.0]}),
                      ("TensorSummaryV2", {"tag": "", "tensor": [1.0],
                                           "serialized_summary_metadata": b""})]]),
    ("merge_dup", [[("ScalarSummary", {"tags": ["a"], "values": [1.0]})],
                   [("ScalarSummary", {"tags": ["a"], "values": [2.0]})]]),
    ("merge_empty_tags", [[("TensorSummaryV2", {"tag": "", "tensor": [1.0],
                                                "serialized_summary_metadata": b""}),
                           ("TensorSummaryV2", {"tag": "", "tensor": [2.0],
                                                "serialized_summary_metadata": b""})]]),
]
add("merge_err_parse", "MergeSummary", {"inputs": [t([b"\x0a\x05ab", b""], "string")]})
add("merge_none", "MergeSummary", {"inputs": [t(np.zeros((0,), object), "string")]})
add("merge_garbage_field", "MergeSummary", {"inputs": [t([b"\x10\x05"], "string")]})

# ImageSummary: uint8 passes through; float/half/double are rescaled.
for dt in ("uint8", "float32", "float16", "float64"):
    if dt == "uint8":
        img = R.integers(0, 256, (2, 5, 4, 3))
    else:
        img = np.round(R.normal(0, 1, (2, 5, 4, 3)), 3)
    add(f"image_{dt}", "ImageSummary", {"tag": t("img", "string"), "tensor": t(img, dt)},
        cmp="summary")
add("image_pos_float", "ImageSummary",
    {"tag": t("p", "string"), "tensor": t(np.abs(np.round(R.normal(0, 2, (1, 3, 3, 1)), 3)),
                                          "float32")}, {"max_images": 1}, cmp="summary")
add("image_nonfinite", "ImageSummary",
    {"tag": t("nf", "string"),
     "tensor": t([[[[1.0, float("nan"), 0.5, 1.0], [0.2, 0.1, 0.0, 1.0]],
                   [[float("inf"), 0, 0, 0], [0.9, 0.8, 0.7, 0.6]]]], "float32")},
    {"bad_color": {"__tensor__": t([10, 20, 30, 40], "uint8")}}, cmp="summary")
add("image_zero_float", "ImageSummary",
    {"tag": t("z", "string"), "tensor": t(np.zeros((1, 2, 2, 1)), "float32")}, cmp="summary")
add("image_max1", "ImageSummary",
    {"tag": t("m", "string"), "tensor": t(R.integers(0, 256, (3, 2, 2, 4)), "uint8")},
    {"max_images": 1}, cmp="summary")
add("image_big", "ImageSummary",
    {"tag": t("big", "string"), "tensor": t(R.integers(0, 256, (1, 40, 33, 1)), "uint8")},
    cmp="summary")
add("image_err_rank", "ImageSummary",
    {"tag": t("x", "string"), "tensor": t(np.zeros((2, 2, 3)), "float32")})
add("image_err_depth", "ImageSummary",
    {"tag": t("x", "string"), "tensor": t(np.zeros((1, 2, 2, 2)), "float32")})
add("image_err_tag", "ImageSummary",
    {"tag": t(["x", "y"], "string"), "tensor": t(np.zeros((1, 2, 2, 1)), "float32")})
add("image_err_badcolor", "ImageSummary",
    {"tag": t("x", "string"), "tensor": t(np.zeros((1, 2, 2, 3)), "float32")},
    {"bad_color": {"__tensor__": t([1, 2], "uint8")}})
add("image_legacy_tag", "ImageSummary",
    {"tag": t(["v"], "string"), "tensor": t(R.integers(0, 256, (1, 2, 2, 1)), "uint8")},
    cmp="summary")

# Audio summaries.
aud = np.round(R.uniform(-1.2, 1.2, (2, 7, 2)), 4)
add("audio_v2_3d", "AudioSummaryV2", {"tag": t("au", "string"), "tensor": t(aud, "float32"),
                                      "sample_rate": t(16000.0, "float32")})
add("audio_v2_2d", "AudioSummaryV2", {"tag": t("au", "string"),
                                      "tensor": t(aud[:, :, 0], "float32"),
                                      "sample_rate": t(8000.4, "float32")}, {"max_outputs": 1})
add("audio_v1", "AudioSummary", {"tag": t("a1", "string"), "tensor": t(aud, "float32")},
    {"sample_rate": 22050.0, "max_outputs": 5})
# TF 2.21 refuses AudioSummary (removed at GraphDef version 15) in eager
# mode; tfe's eager runtime does not apply op deprecations, so the test
# checks tfe's AudioSummary against TF's AudioSummaryV2 output instead.
add("audio_v1_as_v2", "AudioSummaryV2", {"tag": t("a1", "string"), "tensor": t(aud, "float32"),
                                         "sample_rate": t(22050.0, "float32")},
    {"max_outputs": 5})
add("audio_small_rate", "AudioSummaryV2", {"tag": t("s", "string"),
                                           "tensor": t(aud[:1], "float32"),
                                           "sample_rate": t(0.25, "float32")})
add("audio_err_rate", "AudioSummaryV2", {"tag": t("s", "string"), "tensor": t(aud, "float32"),
                                         "sample_rate": t(0.0, "float32")})
add("audio_err_rank", "AudioSummaryV2", {"tag": t("s", "string"),
                                         "tensor": t([1.0, 2.0], "float32"),
                                         "sample_rate": t(1.0, "float32")})
add("audio_err_tag", "AudioSummaryV2", {"tag": t(["s", "t"], "string"),
                                        "tensor": t(aud, "float32"),
                                        "sample_rate": t(1.0, "float32")})
add("audio_empty_frames", "AudioSummaryV2", {"tag": t("e", "string"),
                                             "tensor": t(np.zeros((1, 0)), "float32"),
                                             "sample_rate": t(100.0, "float32")})

# ------------------------------------------------------------ PNG
for dt in ("uint8", "uint16"):
    hi = 256 if dt == "uint8" else 65536
    for c in (1, 2, 3, 4):
        add(f"png_{dt}_c{c}", "EncodePng", {"image": t(R.integers(0, hi, (6, 7, c)), dt)},
            cmp="png")
smooth = (np.add.outer(np.arange(30), np.arange(40))[..., None] * [1, 2, 3] % 256)
for lvl in (-1, 0, 1, 9):
    add(f"png_level_{lvl}", "EncodePng", {"image": t(smooth, "uint8")}, {"compression": lvl},
        cmp="png")
add("png_batch", "EncodePng", {"image": t(R.integers(0, 256, (2, 3, 4, 5, 1)), "uint8")},
    cmp="png")
add("png_err_level", "EncodePng", {"image": t(np.zeros((2, 2, 1)), "uint8")},
    {"compression": 10})
add("png_err_rank", "EncodePng", {"image": t(np.zeros((2, 2)), "uint8")})
add("png_err_channels", "EncodePng", {"image": t(np.zeros((2, 2, 5)), "uint8")})

# ------------------------------------------------------------ WAV
wav_audio = np.round(R.uniform(-1.1, 1.1, (9, 2)), 4)
add("encwav_2ch", "EncodeWav", {"audio": t(wav_audio, "float32"),
                                "sample_rate": t(44100, "int32")})
add("encwav_1ch", "EncodeWav", {"audio": t(wav_audio[:, :1], "float32"),
                                "sample_rate": t(1, "int32")})
add("encwav_empty", "EncodeWav", {"audio": t(np.zeros((0, 3)), "float32"),
                                  "sample_rate": t(8000, "int32")})
add("encwav_err_rank", "EncodeWav", {"audio": t([1.0], "float32"),
                                     "sample_rate": t(8000, "int32")})
add("encwav_err_rate_shape", "EncodeWav", {"audio": t(wav_audio, "float32"),
                                           "sample_rate": t([8000], "int32")})
add("encwav_err_rate0", "EncodeWav", {"audio": t(wav_audio, "float32"),
                                      "sample_rate": t(0, "int32")})
add("encwav_err_rate_neg", "EncodeWav", {"audio": t(wav_audio, "float32"),
                                         "sample_rate": t(-5, "int32")})
add("encwav_err_ch0", "EncodeWav", {"audio": t(np.zeros((3, 0)), "float32"),
                                    "sample_rate": t(8000, "int32")})


def wav_bytes(samples: np.ndarray, rate: int, channels: int, bits: int = 16,
              fmt: int = 1, fmt_size: int = 16, pre: bytes = b"", post: bytes = b"",
              bps: int | None = None, bpsec: int | None = None) -> bytes:
    data = np.asarray(samples, "<i2").tobytes()
    bps = bps if bps is not None else channels * bits // 8
    bpsec = bpsec if bpsec is not None else bps * rate
    fmtc = struct.pack("<HHIIHH", fmt, channels, rate, bpsec, bps, bits)
    if fmt_size == 18:
        fmtc += b"\x00\x00"
    body = b"WAVE" + pre + b"fmt " + struct.pack("<I", fmt_size) + fmtc
    body += b"data" + struct.pack("<I", len(data)) + data + post
    return b"RIFF" + struct.pack("<I", len(body)) + body


pcm = R.integers(-32768, 32768, (5, 2))
good = wav_bytes(pcm, 16000, 2)
add("decwav_basic", "DecodeWav", {"contents": t(good, "string")})
add("decwav_more_ch", "DecodeWav", {"contents": t(good, "string")}, {"desired_channels": 3})
add("decwav_less_ch", "DecodeWav", {"contents": t(good, "string")}, {"desired_channels": 1})
add("decwav_more_samples", "DecodeWav", {"contents": t(good, "string")},
    {"desired_samples": 8})
add("decwav_less_samples", "DecodeWav", {"contents": t(good, "string")},
    {"desired_samples": 2, "desired_channels": 0})
add("decwav_junk", "DecodeWav",
    {"contents": t(wav_bytes(pcm, 8000, 2, pre=b"JUNK\x04\x00\x00\x00abcd"), "string")})
add("decwav_fmt18", "DecodeWav",
    {"contents": t(wav_bytes(pcm, 8000, 2, fmt_size=18), "string")})
add("decwav_trailing_chunk", "DecodeWav",
    {"contents": t(wav_bytes(pcm, 8000, 2, post=b"LIST\x02\x00\x00\x00hi"), "string")})
add("decwav_roundtrip", "DecodeWav", {"contents": t(good[:44] + good[44:], "string")})
add("decwav_err_riff", "DecodeWav", {"contents": t(b"RIFX" + good[4:], "string")})
add("decwav_err_short", "DecodeWav", {"contents": t(good[:20], "string")})
add("decwav_err_empty", "DecodeWav", {"contents": t(b"", "string")})
add("decwav_err_field", "DecodeWav",
    {"contents": t(wav_bytes(pcm, 8000, 2, pre=b"ABCD\x00\x00\x00\x00"), "string")})
add("decwav_err_fmtsize", "DecodeWav",
    {"contents": t(good[:16] + b"\x14" + good[17:], "string")})
add("decwav_err_format", "DecodeWav",
    {"contents": t(wav_bytes(pcm, 8000, 2, fmt=3), "string")})
add("decwav_err_bits", "DecodeWav",
    {"contents": t(wav_bytes(pcm, 8000, 2, bits=8), "string")})
add("decwav_err_bps", "DecodeWav",
    {"contents": t(wav_bytes(pcm, 8000, 2, bps=2), "string")})
add("decwav_err_bpsec", "DecodeWav",
    {"contents": t(wav_bytes(pcm, 8000, 2, bpsec=5), "string")})
add("decwav_err_channels0", "DecodeWav",
    {"contents": t(wav_bytes(np.zeros((0,)), 8000, 0, bps=0, bpsec=0), "string")})
add("decwav_err_nodata", "DecodeWav", {"contents": t(good[:36], "string")})
add("decwav_err_truncated", "DecodeWav", {"contents": t(good[:-3], "string")})
add("decwav_err_two_data", "DecodeWav",
    {"contents": t(wav_bytes(pcm, 8000, 2, post=good[36:]), "string")})
add("decwav_err_scalar", "DecodeWav", {"contents": t([good], "string")})
add("decwav_err_desired", "DecodeWav", {"contents": t(good, "string")},
    {"desired_channels": -2})
add("decwav_err_desired_n", "DecodeWav", {"contents": t(good, "string")},
    {"desired_samples": -3})

# ------------------------------------------------------------ spectrogram / MFCC
sig = np.round(np.sin(np.arange(300) * 0.3)[:, None] * [1.0, 0.5]
               + R.normal(0, 0.1, (300, 2)), 4)
for ws, st, ms in ((64, 32, False), (50, 20, True), (7, 3, False), (256, 100, True)):
    add(f"spec_w{ws}_s{st}_{int(ms)}", "AudioSpectrogram", {"input": t(sig, "float32")},
        {"window_size": ws, "stride": st, "magnitude_squared": ms}, cmp="float")
add("spec_short", "AudioSpectrogram", {"input": t(sig[:10], "float32")},
    {"window_size": 16, "stride": 4}, cmp="float")
add("spec_err_window", "AudioSpectrogram", {"input": t(sig, "float32")},
    {"window_size": 1, "stride": 4})
add("spec_err_stride", "AudioSpectrogram", {"input": t(sig, "float32")},
    {"window_size": 8, "stride": 0})
add("spec_err_rank", "AudioSpectrogram", {"input": t(sig[:, 0], "float32")},
    {"window_size": 8, "stride": 4})

spec = np.abs(np.round(R.normal(0, 3, (2, 3, 129)), 3)) ** 2
add("mfcc_default", "Mfcc", {"spectrogram": t(spec, "float32"),
                             "sample_rate": t(16000, "int32")}, cmp="float")
add("mfcc_attrs", "Mfcc", {"spectrogram": t(spec, "float32"), "sample_rate": t(8000, "int32")},
    {"upper_frequency_limit": 3000.0, "lower_frequency_limit": 100.0,
     "filterbank_channel_count": 20, "dct_coefficient_count": 20}, cmp="float")
add("mfcc_high_upper", "Mfcc", {"spectrogram": t(spec, "float32"),
                                "sample_rate": t(4000, "int32")}, cmp="float")
add("mfcc_err_rank", "Mfcc", {"spectrogram": t(spec[0], "float32"),
                              "sample_rate": t(16000, "int32")})
add("mfcc_err_rate_shape", "Mfcc", {"spectrogram": t(spec, "float32"),
                                    "sample_rate": t([16000], "int32")})
add("mfcc_err_rate", "Mfcc", {"spectrogram": t(spec, "float32"),
                              "sample_rate": t(0, "int32")})
add("mfcc_err_dct", "Mfcc", {"spectrogram": t(spec, "float32"),
                             "sample_rate": t(16000, "int32")},
    {"dct_coefficient_count": 41})
add("mfcc_err_limits", "Mfcc", {"spectrogram": t(spec, "float32"),
                                "sample_rate": t(16000, "int32")},
    {"upper_frequency_limit": 10.0})


# ------------------------------------------------------------ scripts
# A script's step inputs are tensor specs or {"ref": name} (an earlier
# step's saved output), {"logdir": sub} (a directory under the script's
# temporary directory) or {"path": name} (a file the script writes first,
# from "files"). {"read_events": true} records the events written so far.


def step(op: str, inputs: dict[str, Any] | None = None, attrs: dict[str, Any] | None = None,
         save: str | None = None) -> dict[str, Any]:
    st: dict[str, Any] = {"op": op, "inputs": inputs or {}, "attrs": attrs or {}}
    if save:
        st["save"] = save
    return st


def script(name: str, steps: list[dict[str, Any]], files: dict[str, bytes] | None = None) -> None:
    # Eager TF caches a maker op's kernel per attrs, so an unnamed queue or
    # reader would be shared by every script: name each one.
    for i, st in enumerate(steps):
        if st.get("op", "").endswith(("QueueV2", "ReaderV2")):
            st["attrs"].setdefault("shared_name", f"{name}_{i}")
    CASES.append({"name": name, "kind": "script", "steps": steps,
                  "files": {k: base64.b64encode(v).decode() for k, v in (files or {}).items()}})


W = {"ref": "w"}


def wstep(op: str, **inputs: Any) -> dict[str, Any]:
    attrs = inputs.pop("attrs", None)
    return step(op, {"writer": W, **inputs}, attrs)


def i64(v: int) -> dict[str, Any]:
    return t(v, "int64")


def s_(v: Any) -> dict[str, Any]:
    return t(v, "string")


_steps = [step("SummaryWriter", {}, {"shared_name": "wbasic"}, save="w"),
          wstep("CreateSummaryFileWriter", logdir={"logdir": "a"}, max_queue=t(100, "int32"),
                flush_millis=t(1000000, "int32"), filename_suffix=s_(".v2"))]
for i, dt in enumerate(REAL):
    _steps.append(wstep("WriteScalarSummary", step=i64(i - 3), tag=s_(f"sc_{dt}"),
                        value=t(vals((), dt), dt)))
    _steps.append(wstep("WriteHistogramSummary", step=i64(i), tag=s_(f"h_{dt}"),
                        values=t(vals((3, 4), dt), dt)))
_steps += [
    wstep("WriteScalarSummary", step=i64(5), tag=s_("vec"), value=t([2.5, 1.0], "float32")),
    wstep("WriteHistogramSummary", step=i64(5), tag=s_("hb"),
          values=t([True, False, True], "bool")),
    wstep("WriteHistogramSummary", step=i64(5), tag=s_("hempty"),
          values=t(np.zeros((0,)), "bfloat16")),
    wstep("WriteHistogramSummary", step=i64(5), tag=s_("hnan"),
          values=t([1.0, float("nan")], "float32")),
    wstep("WriteHistogramSummary", step=i64(5), tag=s_("hinf"),
          values=t([1.0, float("-inf")], "float64")),
]
for dt in ALL:
    _steps.append(wstep("WriteSummary", step=i64(7), tensor=t(vals((2, 2), dt), dt),
                        tag=s_(f"t_{dt}"), summary_metadata=s_(b"")))
_steps += [
    wstep("WriteSummary", step=i64(8), tensor=t(1.0, "float32"), tag=s_("meta"),
          summary_metadata=s_(b"\n\x0b\n\x07scalars\x12\x00\x12\x03dsp")),
    wstep("WriteSummary", step=i64(8), tensor=t(1.0, "float32"), tag=s_("badmeta"),
          summary_metadata=s_(b"\xff")),
    wstep("WriteImageSummary", step=i64(9), tag=s_("img"),
          tensor=t(R.integers(0, 256, (2, 3, 4, 3)), "uint8"),
          bad_color=t([255, 0, 0, 255], "uint8")),
    wstep("WriteImageSummary", step=i64(9), tag=s_("imgf"),
          tensor=t(np.round(R.normal(0, 1, (1, 3, 2, 1)), 3), "float32"),
          bad_color=t([255, 0, 0, 255], "uint8"), attrs={"max_images": 1}),
    wstep("WriteImageSummary", step=i64(9), tag=s_("imgh"),
          tensor=t([[[[1.0], [float("nan")]], [[0.5], [2.0]]]], "float16"),
          bad_color=t([7, 0, 0, 255], "uint8")),
    wstep("WriteImageSummary", step=i64(9), tag=s_("imgd"),
          tensor=t(np.round(R.normal(0, 1, (1, 2, 2, 4)), 3), "float64"),
          bad_color=t([7, 0, 0, 255], "uint8")),
    wstep("WriteImageSummary", step=i64(9), tag=s_("imgerr"),
          tensor=t(np.zeros((1, 2, 2, 3)), "float32"), bad_color=t([[1]], "uint8")),
    wstep("WriteImageSummary", step=i64(9), tag=s_("imgerr2"),
          tensor=t(np.zeros((1, 2, 2, 3)), "float32"), bad_color=t([1], "uint8")),
    wstep("WriteAudioSummary", step=i64(10), tag=s_("aud"),
          tensor=t(np.round(R.uniform(-1, 1, (2, 5, 2)), 3), "float32"),
          sample_rate=t(8000.0, "float32")),
    wstep("WriteAudioSummary", step=i64(10), tag=s_("auderr"),
          tensor=t(np.zeros((1, 5)), "float32"), sample_rate=t(-1.0, "float32")),
    wstep("WriteRawProtoSummary", step=i64(11), tensor={"summaries": True}),
    wstep("WriteRawProtoSummary", step=i64(11), tensor=s_([b"\xff"])),
    wstep("ImportEvent", event={"event": True}),
    wstep("ImportEvent", event=s_(b"\xff")),
    wstep("WriteGraphSummary", step=i64(12), tensor={"graph": True}),
    wstep("WriteGraphSummary", step=i64(12), tensor=s_(b"\xff")),
    {"read_events": True},
    wstep("FlushSummaryWriter"),
    {"read_events": True},
    wstep("CloseSummaryWriter"),
    {"read_events": True},
    wstep("FlushSummaryWriter"),
    wstep("WriteScalarSummary", step=i64(1), tag=s_("x"), value=t(1.0, "float32")),
    wstep("CloseSummaryWriter"),
]
script("writer_basic", _steps)
script("writer_queue", [
    step("SummaryWriter", {}, {"shared_name": "wqueue"}, save="w"),
    wstep("CreateSummaryFileWriter", logdir={"logdir": "q/sub/"}, max_queue=t(1, "int32"),
          flush_millis=t(1000000, "int32"), filename_suffix=s_("")),
    {"read_events": True},
    wstep("WriteScalarSummary", step=i64(1), tag=s_("a"), value=t(1.0, "float32")),
    {"read_events": True},
    wstep("WriteScalarSummary", step=i64(2), tag=s_("b"), value=t(2.0, "float32")),
    {"read_events": True},
    wstep("CreateSummaryFileWriter", logdir={"logdir": "q2"}, max_queue=t(1, "int32"),
          flush_millis=t(1000000, "int32"), filename_suffix=s_("")),
    wstep("WriteScalarSummary", step=i64(3), tag=s_("c"), value=t(3.0, "float32")),
    wstep("CloseSummaryWriter"),
    {"read_events": True},
])
script("writer_errors", [
    step("SummaryWriter", {}, {"shared_name": "wnone"}, save="w"),
    wstep("FlushSummaryWriter"),
    wstep("WriteScalarSummary", step=i64(1), tag=s_("a"), value=t(1.0, "float32")),
    wstep("CloseSummaryWriter"),
    wstep("CreateSummaryFileWriter", logdir={"path": "plainfile"}, max_queue=t(1, "int32"),
          flush_millis=t(1000000, "int32"), filename_suffix=s_("")),
    wstep("CreateSummaryFileWriter", logdir={"path": "plainfile/sub"}, max_queue=t(1, "int32"),
          flush_millis=t(1000000, "int32"), filename_suffix=s_("")),
], files={"plainfile": b"x"})


# ------------------------------------------------------------ reader scripts


def _crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def _masked(data: bytes) -> bytes:
    c = _crc32c(data)
    return struct.pack("<I", (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF)


def tfrecords(records: list[bytes]) -> bytes:
    out = b""
    for r in records:
        n = struct.pack("<Q", len(r))
        out += n + _masked(n) + r + _masked(r)
    return out


def queue_steps(paths: list[str], close: bool = True) -> list[dict[str, Any]]:
    st = [step("FIFOQueueV2", {}, {"component_types": ["string"], "capacity": 10}, save="q")]
    if paths:
        st.append(step("QueueEnqueueManyV2", {"handle": {"ref": "q"},
                                              "components": [{"paths": paths}]}))
    if close:
        st.append(step("QueueCloseV2", {"handle": {"ref": "q"}}))
    return st


R_ = {"ref": "r"}
Q_ = {"ref": "q"}


def rstep(op: str, **inputs: Any) -> dict[str, Any]:
    return step(op, {"reader_handle": R_, **inputs})


import gzip as _gzip  # noqa: E402
import zlib as _zlib  # noqa: E402

_recs = [b"first", b"", b"\x00\xffthird record"]
script("reader_whole", [
    step("WholeFileReaderV2", {}, {}, save="r"), *queue_steps(["f1", "f2"]),
    rstep("ReaderNumRecordsProducedV2"),
    rstep("ReaderReadV2", queue_handle=Q_),
    rstep("ReaderNumWorkUnitsCompletedV2"),
    rstep("ReaderReadV2", queue_handle=Q_),
    rstep("ReaderNumRecordsProducedV2"),
    rstep("ReaderNumWorkUnitsCompletedV2"),
    rstep("ReaderSerializeStateV2"),
    rstep("ReaderReadV2", queue_handle=Q_),
    rstep("ReaderResetV2"),
    rstep("ReaderNumRecordsProducedV2"),
    rstep("ReaderRestoreStateV2", state=s_(b"\x08\x02\x10\x02\x18\x05\"\x03abc")),
    rstep("ReaderSerializeStateV2"),
    rstep("ReaderNumWorkUnitsCompletedV2"),
    rstep("ReaderRestoreStateV2", state=s_([b""])),
    rstep("ReaderRestoreStateV2", state=s_(b"\x08\x03\x10\x01")),
    rstep("ReaderNumRecordsProducedV2"),
    rstep("ReaderRestoreStateV2", state=s_(b"\xff")),
], files={"f1": b"hello\nworld", "f2": b""})
script("reader_text", [
    step("TextLineReaderV2", {}, {"skip_header_lines": 1}, save="r"),
    *queue_steps(["a.txt", "b.txt", "c.txt"]),
    rstep("ReaderReadUpToV2", queue_handle=Q_, num_records=i64(2)),
    rstep("ReaderReadUpToV2", queue_handle=Q_, num_records=i64(10)),
    rstep("ReaderReadV2", queue_handle=Q_),
    rstep("ReaderNumRecordsProducedV2"),
    rstep("ReaderNumWorkUnitsCompletedV2"),
    rstep("ReaderReadUpToV2", queue_handle=Q_, num_records=i64(0)),
    rstep("ReaderSerializeStateV2"),
    rstep("ReaderReadV2", queue_handle=Q_),
], files={"a.txt": b"header\nl1\r\nl2\n\nl4", "b.txt": b"", "c.txt": b"h\nonly\n"})
for comp, data in (("", tfrecords(_recs)), ("ZLIB", _zlib.compress(tfrecords(_recs))),
                   ("GZIP", _gzip.compress(tfrecords(_recs)))):
    script(f"reader_tfrecord_{comp or 'none'}", [
        step("TFRecordReaderV2", {}, {"compression_type": comp}, save="r"),
        *queue_steps(["rec", "rec"]),
        rstep("ReaderReadUpToV2", queue_handle=Q_, num_records=i64(2)),
        rstep("ReaderReadV2", queue_handle=Q_),
        rstep("ReaderReadUpToV2", queue_handle=Q_, num_records=i64(5)),
        rstep("ReaderNumRecordsProducedV2"),
        rstep("ReaderSerializeStateV2"),
        rstep("ReaderReadV2", queue_handle=Q_),
    ], files={"rec": data})
for name, attrs in (("plain", {"header_bytes": 2, "record_bytes": 3, "footer_bytes": 1}),
                    ("hop", {"header_bytes": 1, "record_bytes": 4, "hop_bytes": 2}),
                    ("zlib", {"record_bytes": 5, "encoding": "ZLIB"})):
    data = bytes(range(17))
    if attrs.get("encoding") == "ZLIB":
        data = _zlib.compress(data)
    script(f"reader_fixed_{name}", [
        step("FixedLengthRecordReaderV2", {}, attrs, save="r"), *queue_steps(["fx"]),
        rstep("ReaderReadUpToV2", queue_handle=Q_, num_records=i64(20)),
        rstep("ReaderNumRecordsProducedV2"),
        rstep("ReaderReadV2", queue_handle=Q_),
    ], files={"fx": data})
script("reader_identity", [
    step("IdentityReaderV2", {}, {}, save="r"),
    step("FIFOQueueV2", {}, {"component_types": ["string"], "capacity": 10}, save="q"),
    step("QueueEnqueueManyV2", {"handle": Q_, "components": [s_(["w1", "w2", "w3"])]}),
    step("QueueCloseV2", {"handle": Q_}),
    rstep("ReaderReadV2", queue_handle=Q_),
    rstep("ReaderReadUpToV2", queue_handle=Q_, num_records=i64(5)),
    rstep("ReaderSerializeStateV2"),
    rstep("ReaderNumWorkUnitsCompletedV2"),
])
script("reader_errors", [
    step("WholeFileReaderV2", {}, {}, save="r"),
    step("FIFOQueueV2", {}, {"component_types": ["int32"], "capacity": 10}, save="q"),
    step("QueueEnqueueV2", {"handle": Q_, "components": [t(3, "int32")]}),
    rstep("ReaderReadV2", queue_handle=Q_),
    step("FIFOQueueV2", {}, {"component_types": ["string", "string"], "capacity": 10},
         save="q"),
    step("QueueEnqueueV2", {"handle": Q_, "components": [s_("a"), s_("b")]}),
    rstep("ReaderReadV2", queue_handle=Q_),
    step("FIFOQueueV2", {}, {"component_types": ["string"], "capacity": 10}, save="q"),
    step("QueueEnqueueV2", {"handle": Q_, "components": [{"paths": ["missing"]}]}),
    rstep("ReaderReadV2", queue_handle=Q_),
    rstep("ReaderNumWorkUnitsCompletedV2"),
    rstep("ReaderRestoreStateV2", state=s_(["a", "b"])),
])


# ------------------------------------------------------------ runner


def _dec(tf: Any, spec: dict[str, Any]) -> Any:
    dt = spec["dtype"]
    v = spec["value"]
    if dt == "string":
        arr = np.asarray([base64.b64decode(x) for x in v], dtype=object).reshape(spec["shape"])
        return tf.constant(arr, dtype=tf.string)
    if dt.startswith("complex"):
        a = np.asarray(v, np.float64).reshape([*spec["shape"], 2])
        return tf.constant(a[..., 0] + 1j * a[..., 1], dtype=getattr(tf, dt))
    a = np.asarray([float(x) if isinstance(x, str) else x for x in v])
    return tf.constant(a.reshape(spec["shape"]), dtype=getattr(tf, dt))


def _attrs(tf: Any, attrs: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in attrs.items():
        if isinstance(v, dict) and "__tensor__" in v:
            out[k] = tf.make_tensor_proto(_dec(tf, v["__tensor__"]).numpy())
        else:
            out[k] = v
    return out


def _pixels(tf: Any, png: bytes) -> dict[str, Any]:
    depth = tf.uint16 if png[24] == 16 else tf.uint8
    img = tf.io.decode_png(png, dtype=depth).numpy()
    return enc(img, img.dtype.name)


def _summary_info(tf: Any, data: bytes) -> dict[str, Any]:
    """Images inside a Summary: their pixels, and the Summary with the PNG
    bytes removed (what must match byte for byte)."""
    from tensorflow.core.framework import summary_pb2

    s = summary_pb2.Summary.FromString(data)
    pix = []
    for v in s.value:
        if v.HasField("image"):
            pix.append(_pixels(tf, v.image.encoded_image_string))
            v.image.encoded_image_string = b""
    return {"stripped": base64.b64encode(s.SerializeToString()).decode(), "pixels": pix}


def run_case(tf: Any, cs: dict[str, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = _attrs(tf, cs["attrs"])
    for name, spec in cs["inputs"].items():
        kwargs[name] = [_dec(tf, x) for x in spec] if isinstance(spec, list) else _dec(tf, spec)
    fn = getattr(tf.raw_ops, cs["op"])
    if cs["op"] == "ImageSummary":
        # TF's eager fast path cannot set a tensor attr (bad_color): run the
        # op in a graph function.
        raw = fn
        fn = lambda **kw: tf.function(lambda: raw(**kw))()  # noqa: E731
    with tf.device("/CPU:0"):
        try:
            out = fn(**kwargs)
        except (tf.errors.OpError, ValueError, TypeError) as e:
            msg = e.message if hasattr(e, "message") else str(e)
            return {"error": {"type": type(e).__name__, "message": msg}}
    if not isinstance(out, (list, tuple)):
        out = [out]
    res: dict[str, Any] = {"outputs": [enc(o.numpy(), o.dtype.name) for o in out]}
    if cs["cmp"] == "png":
        flat = np.asarray(out[0].numpy(), dtype=object).reshape(-1)
        res["pixels"] = [_pixels(tf, x) for x in flat]
    if cs["cmp"] == "summary":
        res["summary"] = _summary_info(tf, out[0].numpy())
    return res


def read_records(path: str) -> list[bytes]:
    out = []
    with open(path, "rb") as f:
        data = f.read()
    i = 0
    while i + 12 <= len(data):
        (n,) = struct.unpack("<Q", data[i:i + 8])
        out.append(data[i + 12:i + 12 + n])
        i += 12 + n + 4
    return out


def read_events(tf: Any, logdir: str) -> list[dict[str, Any]]:
    """Every event of the events files under logdir (sorted by path),
    without wall_time; image PNGs emptied and kept as decoded pixels."""
    from tensorflow.core.util import event_pb2

    out = []
    paths = []
    for root, _, names in os.walk(logdir):
        paths += [os.path.join(root, n) for n in names if n.startswith("events.out.tfevents.")]
    for p in sorted(paths):
        for rec in read_records(p):
            e = event_pb2.Event.FromString(rec)
            e.ClearField("wall_time")
            pix = []
            for v in e.summary.value:
                if v.HasField("image"):
                    pix.append(_pixels(tf, v.image.encoded_image_string))
                    v.image.encoded_image_string = b""
            out.append({"file": os.path.relpath(p, logdir),
                        "event": base64.b64encode(e.SerializeToString()).decode(),
                        "pixels": pix})
    return out


def script_special(tf: Any, name: str) -> Any:
    if name == "summaries":
        a = tf.raw_ops.ScalarSummary(tags=["ra", "rb"], values=[1.0, 2.0])
        b = tf.raw_ops.HistogramSummary(tag="rh", values=[1.0, 3.0])
        return tf.stack([a, b])
    if name == "event":
        from tensorflow.core.util import event_pb2

        e = event_pb2.Event(wall_time=12.5, step=99)
        e.summary.value.add(tag="imported", simple_value=4.0)
        return tf.constant(e.SerializeToString())
    if name == "graph":
        g = tf.Graph()
        with g.as_default():
            x = tf.constant(1.0, name="x")
            tf.identity(x, name="y")
        return tf.constant(g.as_graph_def().SerializeToString())
    raise KeyError(name)


def _rooted(spec: dict[str, Any], root: str) -> dict[str, Any]:
    """String outputs with the script's directory written as <ROOT>."""
    if spec["dtype"] == "string":
        spec["value"] = [base64.b64encode(base64.b64decode(x).replace(root.encode(), b"<ROOT>"))
                         .decode() for x in spec["value"]]
    return spec


def run_script(tf: Any, cs: dict[str, Any]) -> dict[str, Any]:
    import tempfile

    root = tempfile.mkdtemp(prefix="iosum_rec_")
    for fname, b64 in cs["files"].items():
        with open(os.path.join(root, fname), "wb") as f:
            f.write(base64.b64decode(b64))
    saved: dict[str, Any] = {}
    results: list[dict[str, Any]] = []
    for st in cs["steps"]:
        if st.get("read_events"):
            results.append({"events": read_events(tf, root)})
            continue
        kwargs = _attrs(tf, st["attrs"])
        for k, v in st["inputs"].items():
            if isinstance(v, list):
                kwargs[k] = [tf.constant([os.path.join(root, p) for p in x["paths"]])
                             if "paths" in x else _dec(tf, x) for x in v]
                continue
            if "ref" in v:
                kwargs[k] = saved[v["ref"]]
            elif "logdir" in v:
                kwargs[k] = tf.constant(os.path.join(root, v["logdir"]))
            elif "path" in v:
                kwargs[k] = tf.constant(os.path.join(root, v["path"]))
            elif "dtype" in v:
                kwargs[k] = _dec(tf, v)
            else:
                # A TF-made input (summaries, an Event, a GraphDef): kept as
                # its bytes so the test passes the very same input.
                val = script_special(tf, next(iter(v)))
                st["inputs"][k] = enc(val.numpy(), "string")
                kwargs[k] = val
        with tf.device("/CPU:0"):
            try:
                out = getattr(tf.raw_ops, st["op"])(**kwargs)
            except (tf.errors.OpError, ValueError, TypeError) as e:
                msg = e.message if hasattr(e, "message") else str(e)
                results.append({"error": {"type": type(e).__name__,
                                          "message": msg.replace(root, "<ROOT>")}})
                continue
        res: dict[str, Any] = {"ok": True}
        if "save" in st:
            saved[st["save"]] = out
        elif out is not None and not isinstance(out, tf.Operation):
            outs = list(out) if isinstance(out, (list, tuple)) else [out]
            res["outputs"] = [_rooted(enc(o.numpy(), o.dtype.name), root) for o in outs]
        results.append(res)
    return {"results": results}


def build_merge_cases(tf: Any) -> None:
    for name, groups in MERGE_SPECS:
        inputs = []
        for group in groups:
            items = []
            for op, kw in group:
                kw2 = {k: tf.constant(v) for k, v in kw.items()}
                items.append(_summary_bytes(op, **kw2))
            inputs.append(t(np.asarray(items, dtype=object), "string"))
        add(name, "MergeSummary", {"inputs": inputs})


def main() -> None:
    import tensorflow as tf

    assert tf.__version__.startswith("2.21"), tf.__version__
    build_merge_cases(tf)
    for cs in CASES:
        if cs["kind"] == "op":
            cs.update(run_case(tf, cs))
        else:
            cs.update(run_script(tf, cs))
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "iosum_ops_tf221.json")
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, "cases": CASES}, f, separators=(",", ":"))
        f.write("\n")
    nerr = sum("error" in c for c in CASES)
    print(f"wrote {len(CASES)} cases ({nerr} errors) to {os.path.normpath(path)}",
          file=sys.stderr)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(__file__))
    main()
