"""Speed of the quant2 op group's kernels (QuantizeV2, Dequantize,
QuantizeAndDequantizeV4, QuantizedMatMul, UniformQuantize, ...; issue 18),
side by side with TensorFlow 2.21. See raw_op_bench.py for the method.

Goal (issue 18): no ratio above 1.5.

Usage:  TFE_BENCH_TF_PYTHON=/path/to/python python benchmarks/bench_quant.py
            [--repeat N] [--only TEXT] [--small]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raw_op_bench import main

# The cases, as source run in both processes (see raw_op_bench.py).
# Quantized inputs are made once in setup by bitcasting integer tensors.
_CASES_SRC = '''
import numpy as np

def _q(raw, const, a, qtype):
    return raw.Bitcast(input=const(a), type=qtype)

def make_cases(small):
    r = np.random.default_rng(18)
    s = 4 if small else 1
    n = 1_000_000 // s
    x = r.uniform(-3.0, 3.0, n).astype(np.float32)
    x2 = x.reshape(-1, 1000)
    u8 = r.integers(0, 256, n).astype(np.uint8)
    i8 = r.integers(-128, 128, n).astype(np.int8)
    mm = 512 // (2 if small else 1)
    a8 = r.integers(0, 256, (mm, mm)).astype(np.uint8)
    b8 = r.integers(0, 256, (mm, mm)).astype(np.uint8)
    lo, hi = np.float32(-3.0), np.float32(3.0)

    def deq(qtype, arr, mode):
        def setup(raw, const):
            t = _q(raw, const, arr, qtype)
            a, b = const(lo), const(hi)
            return lambda: raw.Dequantize(input=t, min_range=a, max_range=b, mode=mode)
        return setup

    sc1000 = r.uniform(0.01, 0.1, 1000).astype(np.float32)
    zp1000 = r.integers(-5, 5, 1000).astype(np.int32)
    i32 = r.integers(-2**31, 2**31 - 1, n).astype(np.int32)

    def udq(arr, sc, zp, axis):
        def setup(raw, const):
            t = _q(raw, const, arr, "qint8")
            s_, z_ = const(sc), const(zp)
            return lambda: raw.UniformDequantize(
                input=t, scales=s_, zero_points=z_, Tout="float32",
                quantization_min_val=-128, quantization_max_val=127,
                quantization_axis=axis)
        return setup

    def ureq(arr, axis):
        def setup(raw, const):
            t = _q(raw, const, arr, "qint8")
            if axis < 0:
                isc, izp = const(np.float32(0.05)), const(np.int32(3))
            else:
                isc, izp = const(sc1000), const(zp1000)
            osc, ozp = const(np.float32(0.07)), const(np.int32(-2))
            return lambda: raw.UniformRequantize(
                input=t, input_scales=isc, input_zero_points=izp, output_scales=osc,
                output_zero_points=ozp, Tout="qint8", input_quantization_min_val=-128,
                input_quantization_max_val=127, output_quantization_min_val=-128,
                output_quantization_max_val=127, input_quantization_axis=axis)
        return setup

    def rq(out_type):
        def setup(raw, const):
            t = _q(raw, const, i32, "qint32")
            a, b = const(np.float32(-20.0)), const(np.float32(20.0))
            c, d = const(np.float32(-3.0)), const(np.float32(4.0))
            return lambda: raw.Requantize(input=t, input_min=a, input_max=b,
                                          requested_output_min=c,
                                          requested_output_max=d, out_type=out_type)
        return setup

    def deqax(qtype, arr, mode, axis):
        def setup(raw, const):
            t = _q(raw, const, arr, qtype)
            m = arr.shape[axis]
            a, b = const(np.full(m, lo)), const(np.full(m, hi))
            return lambda: raw.Dequantize(input=t, min_range=a, max_range=b, mode=mode,
                                          axis=axis)
        return setup

    def qmm(raw, const):
        a, b = _q(raw, const, a8, "quint8"), _q(raw, const, b8, "quint8")
        r0, r1, r2, r3 = const(lo), const(hi), const(np.float32(-1)), const(np.float32(2))
        return lambda: raw.QuantizedMatMul(a=a, b=b, min_a=r0, max_a=r1, min_b=r2,
                                           max_b=r3, Toutput="qint32")

    return [
        ("QuantizeV2 %d quint8 MIN_COMBINED" % n, "QuantizeV2",
         {"input": x, "min_range": lo, "max_range": hi}, {"T": "quint8"}),
        ("QuantizeV2 %d qint8 SCALED" % n, "QuantizeV2",
         {"input": x, "min_range": lo, "max_range": hi}, {"T": "qint8", "mode": "SCALED"}),
        ("QuantizeV2 %d quint8 MIN_FIRST" % n, "QuantizeV2",
         {"input": x, "min_range": lo, "max_range": hi}, {"T": "quint8", "mode": "MIN_FIRST"}),
        ("QuantizeV2 %dx1000 qint8 SCALED axis=1" % (n // 1000), "QuantizeV2",
         {"input": x2, "min_range": np.full(1000, lo), "max_range": np.full(1000, hi)},
         {"T": "qint8", "mode": "SCALED", "axis": 1}),
        ("Dequantize %d quint8 MIN_COMBINED" % n, deq("quint8", u8, "MIN_COMBINED")),
        ("Dequantize %d qint8 SCALED" % n, deq("qint8", i8, "SCALED")),
        ("Dequantize %d quint8 MIN_FIRST" % n, deq("quint8", u8, "MIN_FIRST")),
        ("Dequantize %dx1000 qint8 SCALED axis=1" % (n // 1000),
         deqax("qint8", i8.reshape(-1, 1000), "SCALED", 1)),
        ("Dequantize %dx1000 quint8 MIN_COMBINED axis=0" % (n // 1000),
         deqax("quint8", u8.reshape(-1, 1000), "MIN_COMBINED", 0)),
        ("QuantizeAndDequantizeV4 %d f32 8 bits" % n, "QuantizeAndDequantizeV4",
         {"input": x, "input_min": lo, "input_max": hi}, {}),
        ("QuantizeAndDequantizeV4 %d f32 range given" % n, "QuantizeAndDequantizeV4",
         {"input": x, "input_min": lo, "input_max": hi}, {"range_given": True}),
        ("QuantizedMatMul %dx%d quint8" % (mm, mm), qmm),
        ("UniformQuantize %d f32->qint8" % n, "UniformQuantize",
         {"input": x, "scales": np.float32(0.05), "zero_points": np.int32(3)},
         {"Tout": "qint8", "quantization_min_val": -128, "quantization_max_val": 127}),
        ("UniformQuantize %dx1000 f32->qint8 axis=1" % (n // 1000), "UniformQuantize",
         {"input": x2, "scales": sc1000, "zero_points": zp1000},
         {"Tout": "qint8", "quantization_min_val": -128, "quantization_max_val": 127,
          "quantization_axis": 1}),
        ("UniformDequantize %d qint8" % n, udq(i8, np.float32(0.05), np.int32(3), -1)),
        ("UniformDequantize %dx1000 qint8 axis=1" % (n // 1000),
         udq(i8.reshape(-1, 1000), sc1000, zp1000, 1)),
        ("UniformRequantize %d qint8->qint8" % n, ureq(i8, -1)),
        ("UniformRequantize %dx1000 qint8->qint8 axis=1" % (n // 1000),
         ureq(i8.reshape(-1, 1000), 1)),
        ("Requantize %d qint32->quint8" % n, rq("quint8")),
        ("Requantize %d qint32->qint8" % n, rq("qint8")),
    ]
'''

if __name__ == "__main__":
    main(_CASES_SRC, goal=1.5)
