"""Speed of the io_summary op group's kernels (issue 18), side by side with
TensorFlow: HistogramSummary, EncodePng, EncodeWav / DecodeWav,
AudioSpectrogram, Mfcc and TFRecordReader reads (benchmarks/raw_op_bench.py
runs both and prints the ratio tfe / TF; below 1.0 tfe is faster).

Usage:  TFE_BENCH_TF_PYTHON=/path/to/python python benchmarks/bench_iosum.py
            [--repeat N] [--only TEXT] [--small]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raw_op_bench import main

# The cases, as source run in both processes (see raw_op_bench.py).
_CASES_SRC = '''
import os, struct, tempfile
import numpy as np

_T = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ (0x82F63B78 if _c & 1 else 0)
    _T.append(_c)

def _crc32c(b):
    c = 0xFFFFFFFF
    for x in b:
        c = _T[(c ^ x) & 0xFF] ^ (c >> 8)
    c ^= 0xFFFFFFFF
    return struct.pack("<I", (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF)

def _tfrecord_file(n, size):
    r = np.random.default_rng(3)
    path = os.path.join(tempfile.mkdtemp(prefix="iosum_bench_"), "data.tfrecord")
    with open(path, "wb") as f:
        for i in range(n):
            rec = r.integers(0, 256, size).astype(np.uint8).tobytes()
            ln = struct.pack("<Q", len(rec))
            f.write(ln + _crc32c(ln) + rec + _crc32c(rec))
    return path

def _wav(samples):
    data = np.clip(np.round(samples * 32768), -32768, 32767).astype("<i2").tobytes()
    ch = samples.shape[1]
    fmt = struct.pack("<HHIIHH", 1, ch, 16000, 16000 * 2 * ch, 2 * ch, 16)
    body = (b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt + b"data"
            + struct.pack("<I", len(data)) + data)
    return b"RIFF" + struct.pack("<I", len(body)) + body

def make_cases(small):
    r = np.random.default_rng(18)
    s = 4 if small else 1
    out = []
    vals = r.standard_normal(1000000 // s).astype(np.float32)
    out.append(("HistogramSummary %d float32" % len(vals), "HistogramSummary",
                {"tag": np.array(b"h", dtype=object), "values": vals}, {}))
    h = 512 // s
    yy, xx = np.mgrid[0:h, 0:h]
    img = np.stack([(xx + yy) % 256, (xx * 2) % 256, (yy * 3 + r.integers(0, 8, (h, h))) % 256],
                   -1).astype(np.uint8)
    out.append(("EncodePng %dx%dx3 uint8 (gradients + noise)" % (h, h), "EncodePng",
                {"image": img}, {}))
    out.append(("EncodePng %dx%dx3 uint8 random" % (h, h), "EncodePng",
                {"image": r.integers(0, 256, (h, h, 3)).astype(np.uint8)}, {}))
    audio = np.clip(r.standard_normal((160000 // s, 2)) * 0.3, -1, 1).astype(np.float32)
    out.append(("EncodeWav %dx2" % len(audio), "EncodeWav",
                {"audio": audio, "sample_rate": np.int32(16000)}, {}))
    out.append(("DecodeWav %dx2" % len(audio), "DecodeWav",
                {"contents": np.array(_wav(audio), dtype=object)}, {}))
    mono = audio[:, :1].copy()
    out.append(("AudioSpectrogram %dx1 window 480 stride 160" % len(mono), "AudioSpectrogram",
                {"input": mono}, {"window_size": 480, "stride": 160, "magnitude_squared": True}))
    spec = np.abs(r.standard_normal((1, 1000 // s, 257))).astype(np.float32) ** 2
    out.append(("Mfcc [1,%d,257] 40 filters 13 coefficients" % spec.shape[1], "Mfcc",
                {"spectrogram": spec, "sample_rate": np.int32(16000)}, {}))
    nrec = 2000 // s
    path = _tfrecord_file(nrec, 1024)

    def reader_setup(raw, const):
        import itertools
        uid = itertools.count()
        rd = raw.TFRecordReaderV2(shared_name="iosum_bench_reader")
        def run():
            q = raw.FIFOQueueV2(component_types=["string"], capacity=4,
                                shared_name="iosum_bench_q%d" % next(uid))
            raw.QueueEnqueueV2(handle=q, components=[const(np.array(path.encode(), dtype=object))])
            return raw.ReaderReadUpToV2(reader_handle=rd, queue_handle=q,
                                        num_records=const(np.int64(nrec)))
        return run
    out.append(("TFRecordReader ReadUpTo %d x 1 KiB records" % nrec, reader_setup))
    return out
'''


if __name__ == "__main__":
    main(_CASES_SRC, goal=1.5)
