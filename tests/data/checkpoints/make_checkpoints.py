#!/usr/bin/env python3
"""Regenerates the checkpoints under tests/data/checkpoints/.

NEEDS TENSORFLOW (written against 2.21); it is NOT run by CI or by ctest.
The generated files are committed, and tests/c/test_checkpoint_reader.c
hard-codes the values written here, so after changing this script rerun it,
then update the expected values in that test.

    /tmp/tfvenv/bin/python tests/data/checkpoints/make_checkpoints.py

Produces:
  objgraph/ckpt.*   tf.train.Checkpoint.write() of variables of several
                    dtypes (plus the object-graph string tensor TF adds).
  raw/ckpt.*        tf.raw_ops.SaveV2 with chosen tensor names, including
                    forty small "many/NN" tensors.
  sharded/ckpt.*    the raw tensors saved as two data shards (MergeV2
                    of two SaveV2 calls).
  multiblock/ckpt.* raw/ckpt's entries re-packed by this script into an
                    index with tiny blocks (TensorFlow itself uses 256 KiB
                    blocks, so its own indexes almost always have one data
                    block); the data file is raw/ckpt's.
  snappy/ckpt.*     the same, with every block snappy-compressed by the
                    small compressor below.
Every checkpoint is read back with tf.train.load_checkpoint to check that
TensorFlow accepts it.
"""
import os
import shutil
import struct
import sys
from typing import Any

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------- values
def raw_tensors() -> dict[str, Any]:
    t = {
        "a/weights": np.arange(6, dtype=np.float32).reshape(2, 3) * 0.5 - 1,
        "b": np.array([1.5, -2.25, 1e300], dtype=np.float64),
        "c_int32": np.array([-7, 0, 2147483647], dtype=np.int32),
        "d_int64": np.array([[-(2**40)], [2**62]], dtype=np.int64),
        "e_bool": np.array([True, False, True, True], dtype=np.bool_),
        "f_str": np.array([b"hello", b"", b"\xc3\xa9t\xc3\xa9", b"x" * 200],
                          dtype=object),
        "g_half": np.array([1.0, -0.5, 65504.0], dtype=np.float16),
        "h_scalar": np.array(42.0, dtype=np.float32),
        "i_3d": np.arange(24, dtype=np.int32).reshape(2, 3, 4),
        "j_empty": np.zeros((0, 3), dtype=np.float32),
        "k_uint8": np.array([0, 255, 7], dtype=np.uint8),
        "l_int16": np.array([-32768, 32767], dtype=np.int16),
        "m_int8": np.array([-128, 127], dtype=np.int8),
        "n_complex64": np.array([1 + 2j, -3.5j], dtype=np.complex64),
        "o_bfloat16": tf.constant([1.0, -2.0, 0.5], dtype=tf.bfloat16),
        "p_str_scalar": np.array(b"scalar string", dtype=object),
        "q_large": np.arange(1000, dtype=np.float32) * 0.25,
    }
    for i in range(40):
        t[f"many/{i:02d}"] = np.array([i, i * i], dtype=np.int64)
    return t


def save_raw(prefix: str, tensors: dict[str, Any]) -> None:
    names = sorted(tensors)
    tf.raw_ops.SaveV2(
        prefix=prefix, tensor_names=names, shape_and_slices=[""] * len(names),
        tensors=[tf.constant(tensors[n]) for n in names])


# ------------------------------------------------- table (index) writer
def varint(v: int) -> bytes:
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def crc32c(data: bytes, crc: int = 0) -> int:
    crc ^= 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def mask(crc: int) -> int:
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def build_block(entries: list[tuple[bytes, bytes]], restart_interval: int) -> bytes:
    out = bytearray()
    restarts = []
    prev = b""
    for i, (k, v) in enumerate(entries):
        if i % restart_interval == 0:
            restarts.append(len(out))
            shared = 0
        else:
            shared = 0
            while shared < min(len(prev), len(k)) and prev[shared] == k[shared]:
                shared += 1
        out += varint(shared) + varint(len(k) - shared) + varint(len(v))
        out += k[shared:] + v
        prev = k
    if not restarts:
        restarts = [0]
    for r in restarts:
        out += struct.pack("<I", r)
    out += struct.pack("<I", len(restarts))
    return bytes(out)


def snappy_compress(data: bytes) -> bytes:
    """A small greedy snappy compressor (literals plus 2-byte-offset copies)."""
    out = bytearray(varint(len(data)))
    table = {}
    i = lit = 0

    def emit_literal(a: int, b: int) -> None:
        while a < b:
            n = min(b - a, 65536)
            if n <= 60:
                out.append((n - 1) << 2)
            elif n <= 256:
                out.extend([60 << 2, n - 1])
            else:
                out.extend([61 << 2, (n - 1) & 0xFF, (n - 1) >> 8])
            out.extend(data[a:a + n])
            a += n

    while i + 4 <= len(data):
        key = bytes(data[i:i + 4])
        cand = table.get(key)
        table[key] = i
        if cand is not None and i - cand < 65536:
            n = 4
            while i + n < len(data) and data[cand + n] == data[i + n] and n < 64:
                n += 1
            emit_literal(lit, i)
            off = i - cand
            out.extend([((n - 1) << 2) | 2, off & 0xFF, off >> 8])
            i += n
            lit = i
        else:
            i += 1
    emit_literal(lit, len(data))
    return bytes(out)


def write_table(
    path: str, entries: list[tuple[bytes, bytes]], block_bytes: int, compress: bool
) -> int:
    f = bytearray()

    def put_block(raw: bytes) -> bytes:
        ctype = 0
        if compress:
            raw = snappy_compress(raw)
            ctype = 1
        handle = varint(len(f)) + varint(len(raw))
        trailer = bytes([ctype])
        f.extend(raw + trailer + struct.pack("<I", mask(crc32c(raw + trailer))))
        return handle

    index = []
    cur = []
    size = 0
    for k, v in entries:
        cur.append((k, v))
        size += len(k) + len(v) + 3
        if size >= block_bytes:
            index.append((k, put_block(build_block(cur, 4))))
            cur, size = [], 0
    if cur:
        index.append((cur[-1][0], put_block(build_block(cur, 4))))
    meta = put_block(build_block([], 16))
    idx = put_block(build_block(index, 1))
    footer = meta + idx
    footer += b"\0" * (40 - len(footer))
    footer += struct.pack("<Q", 0xDB4775248B80FB57)
    f.extend(footer)
    with open(path, "wb") as out:
        out.write(f)
    return len(index)


def read_entries(prefix: str) -> list[tuple[bytes, bytes]]:
    """Reads back the (key, value) pairs of an uncompressed one-level table."""
    data = open(prefix + ".index", "rb").read()

    def get_varint(buf: bytes, p: int) -> tuple[int, int]:
        v = s = 0
        while True:
            b = buf[p]
            p += 1
            v |= (b & 0x7F) << s
            s += 7
            if not b & 0x80:
                return v, p

    def block_entries(off: int, n: int) -> list[tuple[bytes, bytes]]:
        blk = data[off:off + n]
        nr = struct.unpack("<I", blk[-4:])[0]
        end = len(blk) - 4 - 4 * nr
        p, prev, out = 0, b"", []
        while p < end:
            sh, p = get_varint(blk, p)
            ns, p = get_varint(blk, p)
            vl, p = get_varint(blk, p)
            k = prev[:sh] + blk[p:p + ns]
            p += ns
            out.append((k, blk[p:p + vl]))
            p += vl
            prev = k
        return out

    foot = data[-48:]
    p = 0
    _, p = get_varint(foot, p)
    _, p = get_varint(foot, p)
    io, p = get_varint(foot, p)
    isz, p = get_varint(foot, p)
    out = []
    for _, h in block_entries(io, isz):
        bo, q = get_varint(h, 0)
        bs, q = get_varint(h, q)
        out.extend(block_entries(bo, bs))
    return out


# ------------------------------------------------------------- checking
def check(prefix: str, expect: dict[str, Any]) -> Any:
    r = tf.train.load_checkpoint(prefix)
    for name, val in expect.items():
        got = np.asarray(r.get_tensor(name))
        want = np.asarray(val.numpy() if hasattr(val, "numpy") else val)
        if want.dtype == object:
            assert list(got.reshape(-1)) == list(want.reshape(-1)), name
        else:
            assert got.shape == want.shape and np.array_equal(
                got.astype(np.complex128), want.astype(np.complex128)), name
    return r


def main() -> int:
    for sub in ("objgraph", "raw", "sharded", "multiblock", "snappy"):
        shutil.rmtree(os.path.join(HERE, sub), ignore_errors=True)
        os.makedirs(os.path.join(HERE, sub))

    # 1. Object-based checkpoint.
    ck = tf.train.Checkpoint(
        w=tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        d=tf.Variable([0.1, 0.2], dtype=tf.float64),
        n=tf.Variable(7, dtype=tf.int32),
        big=tf.Variable(np.array([1 << 40, -1], dtype=np.int64)),
        flag=tf.Variable([True, False]),
        s=tf.Variable([b"ab", b"cde"]),
        h=tf.Variable(np.array([0.25, 2.0], dtype=np.float16)),
        cube=tf.Variable(np.arange(8, dtype=np.float32).reshape(2, 2, 2)),
        none=tf.Variable(np.zeros((0,), dtype=np.int32)),
    )
    ck.write(os.path.join(HERE, "objgraph", "ckpt"))
    check(os.path.join(HERE, "objgraph", "ckpt"),
          {"w/.ATTRIBUTES/VARIABLE_VALUE": ck.w.numpy()})

    # 2. Raw SaveV2.
    t = raw_tensors()
    raw = os.path.join(HERE, "raw", "ckpt")
    save_raw(raw, t)
    check(raw, t)

    # 3. Two data shards, merged into one bundle.
    names = sorted(t)
    half = len(names) // 2
    tmp = os.path.join(HERE, "sharded", "tmp")
    save_raw(tmp + "_a", {n: t[n] for n in names[:half]})
    save_raw(tmp + "_b", {n: t[n] for n in names[half:]})
    tf.raw_ops.MergeV2Checkpoints(
        checkpoint_prefixes=[tmp + "_a", tmp + "_b"],
        destination_prefix=os.path.join(HERE, "sharded", "ckpt"))
    check(os.path.join(HERE, "sharded", "ckpt"), t)

    # 4/5. Re-blocked copies of raw/ckpt's index.
    entries = read_entries(raw)
    for sub, comp in (("multiblock", False), ("snappy", True)):
        pre = os.path.join(HERE, sub, "ckpt")
        n = write_table(pre + ".index", entries, 200, comp)
        shutil.copy(raw + ".data-00000-of-00001",
                    pre + ".data-00000-of-00001")
        check(pre, t)
        print(sub, "data blocks:", n)

    total = 0
    for root, _, files in os.walk(HERE):
        for fn in files:
            total += os.path.getsize(os.path.join(root, fn))
    print("total bytes under", HERE, total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
