"""Speed of the tf.train.Example parser (ParseExampleV2, ParseSingleExample)
and of the container ops (Stage/Unstage, TF1 stacks) (issue 18), side by
side with TensorFlow 2.21. The serialized Examples are encoded by hand
here (a few lines of protobuf wire format), so both processes parse the
same bytes. See raw_op_bench.py for the method.

Goal (issue 18): no ratio above 1.5.

Usage:  TFE_BENCH_TF_PYTHON=/path/to/python python benchmarks/bench_parse_containers.py
            [--repeat N] [--only TEXT] [--small]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raw_op_bench import main

# The cases, as source run in both processes (see raw_op_bench.py).
_CASES_SRC = '''
import struct
import numpy as np

def _varint(n):
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)

def _len(field, payload):
    return _varint(field << 3 | 2) + _varint(len(payload)) + payload

def _feature(kind, values):
    if kind == "float":
        body = _len(1, struct.pack("<%df" % len(values), *values))
        return _len(2, body)
    if kind == "int64":
        body = _len(1, b"".join(_varint(int(v)) for v in values))
        return _len(3, body)
    return _len(1, b"".join(_len(1, v) for v in values))

def example(feats):
    entries = b"".join(_len(1, _len(1, k.encode()) + _len(2, _feature(kind, v)))
                       for k, (kind, v) in feats.items())
    return _len(1, entries)

def make_examples(n, r):
    out = []
    for i in range(n):
        out.append(example({
            "label": ("int64", [int(r.integers(0, 10))]),
            "dense": ("float", [float(x) for x in r.standard_normal(16)]),
            "ids": ("int64", [int(x) for x in r.integers(0, 1000, int(r.integers(1, 8)))]),
            "name": ("bytes", [b"item-%d" % i]),
        }))
    return out

def parse_v2(n):
    def setup(raw, const):
        r = np.random.default_rng(5)
        ser = const(np.array(make_examples(n, r), dtype=object))
        s = lambda xs: const(np.array(xs, dtype=object))
        i64 = const(np.int64(0)).dtype
        args = dict(serialized=ser, names=const(np.zeros([0], dtype=object)),
                    sparse_keys=s([b"ids"]), dense_keys=s([b"label", b"dense", b"name"]),
                    ragged_keys=const(np.zeros([0], dtype=object)),
                    dense_defaults=[const(np.zeros([1], np.int64)),
                                    const(np.zeros([16], np.float32)),
                                    const(np.array([b""], dtype=object))],
                    num_sparse=1, sparse_types=[i64], ragged_value_types=[],
                    ragged_split_types=[], dense_shapes=[[1], [16], [1]])
        return lambda: raw.ParseExampleV2(**args)
    return ("ParseExampleV2 %d Examples (4 features)" % n, setup)

def stage_unstage(n):
    def setup(raw, const):
        x = const(np.ones((256, 256), np.float32))
        y = const(np.arange(1000, dtype=np.int64))
        f32, i64 = x.dtype, y.dtype
        def step():
            for _ in range(n):
                raw.Stage(values=[x, y], shared_name="bench_stage")
            for _ in range(n):
                raw.Unstage(dtypes=[f32, i64], shared_name="bench_stage")
        return step
    return ("Stage then Unstage x%d (256x256 f32 + 1000 i64)" % n, setup)

def stack_push_pop(n):
    def setup(raw, const):
        x = const(np.ones((64, 64), np.float32))
        h = raw.StackV2(max_size=const(np.int32(-1)), elem_type=x.dtype,
                        stack_name="bench_stack")
        def step():
            for _ in range(n):
                raw.StackPushV2(handle=h, elem=x)
            for _ in range(n):
                raw.StackPopV2(handle=h, elem_type=x.dtype)
        return step
    return ("StackPushV2 then StackPopV2 x%d (64x64 f32)" % n, setup)

def make_cases(small):
    s = 4 if small else 1
    return [parse_v2(10000 // s), parse_v2(100), stage_unstage(100 // s),
            stack_push_pop(100 // s)]
'''


if __name__ == "__main__":
    main(_CASES_SRC, goal=1.5)
