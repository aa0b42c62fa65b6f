"""Records TF 2.21's ParseExampleV2 / ParseExample / ParseSingleExample
outputs and errors for tests/python/test_parse_example.py.

Run: /work/tfvenv/bin/python tools/record_parse_example.py
Writes tests/data/parse_example_tf221.json. Serialized protos are stored as
base64; expected tensors as {dtype, shape, value} (strings as latin-1)."""

from __future__ import annotations

import base64
import json
import os
from typing import Any

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "parse_example_tf221.json")


def ex(**feats: Any) -> bytes:
    f: dict[str, tf.train.Feature] = {}
    for k, v in feats.items():
        kind, vals = v
        if kind == "f":
            f[k] = tf.train.Feature(float_list=tf.train.FloatList(value=vals))
        elif kind == "i":
            f[k] = tf.train.Feature(int64_list=tf.train.Int64List(value=vals))
        elif kind == "b":
            f[k] = tf.train.Feature(bytes_list=tf.train.BytesList(value=vals))
        else:
            f[k] = tf.train.Feature()
    return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()


def enc_t(t: Any) -> dict[str, Any]:
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    dt = t.dtype.name if hasattr(t, "dtype") and hasattr(t.dtype, "name") else str(a.dtype)
    if dt == "string":
        val = [x.decode("latin-1") for x in a.reshape(-1).tolist()]
    else:
        val = a.reshape(-1).tolist()
    return {"dtype": dt, "shape": list(a.shape), "value": val}


CASES: list[dict[str, Any]] = []


def v2(name: str, serialized: list[bytes] | bytes, *, names: list[str] | None = None,
       sparse: list[tuple[str, str]] = (), dense: list[tuple[str, Any, list[int]]] = (),
       ragged: list[tuple[str, str, str]] = ()) -> None:
    scalar = isinstance(serialized, bytes)
    ser = tf.constant(serialized, tf.string)
    nm = tf.constant(names if names is not None else [], tf.string)
    defaults = [tf.constant(d) if not isinstance(d, tf.Tensor) else d for _, d, _ in dense]
    kw = dict(serialized=ser, names=nm,
              sparse_keys=tf.constant([k for k, _ in sparse], tf.string),
              dense_keys=tf.constant([k for k, _, _ in dense], tf.string),
              ragged_keys=tf.constant([k for k, _, _ in ragged], tf.string),
              dense_defaults=defaults, num_sparse=len(sparse),
              sparse_types=[tf.as_dtype(t) for _, t in sparse],
              ragged_value_types=[tf.as_dtype(t) for _, t, _ in ragged],
              ragged_split_types=[tf.as_dtype(t) for _, _, t in ragged],
              dense_shapes=[s for _, _, s in dense])
    cs: dict[str, Any] = {
        "name": name, "op": "ParseExampleV2",
        "serialized": [base64.b64encode(s).decode()
                       for s in ([serialized] if scalar else serialized)],
        "scalar": scalar, "names": names or [],
        "sparse": [list(s) for s in sparse], "ragged": [list(r) for r in ragged],
        "dense": [[k, enc_t(d), s] for (k, _, s), d in zip(dense, defaults, strict=True)],
    }
    try:
        out = tf.raw_ops.ParseExampleV2(**kw)
        flat = []
        for grp in out:
            flat.extend(grp if isinstance(grp, (list, tuple)) else [grp])
        cs["outputs"] = [enc_t(t) for t in flat]
    except tf.errors.OpError as e:
        cs["error"] = {"code": e.error_code, "message": e.message}
    CASES.append(cs)


e1 = ex(a=("f", [1.0, 2.0]), b=("i", [7]), s=("b", [b"x"]), sp=("f", [0.5, 1.5, 2.5]),
        r=("i", [1, 2, 3]), rs=("b", [b"p", b"q"]))
e2 = ex(a=("f", [3.0, 4.0]), sp=("f", []), r=("i", [9]), rs=("b", []))
e3 = ex(b=("i", [5]), s=("b", [b"yy"]), sp=("f", [9.0]))
DENSE = [("a", np.array([-1.0, -2.0], np.float32), [2]), ("b", np.array(0, np.int64), []),
         ("s", np.array(b"dflt", object), [])]
v2("basic", [e1, e2, e3], dense=DENSE, sparse=[("sp", "float32")],
   ragged=[("r", "int64", "int64"), ("rs", "string", "int32")])
v2("scalar", e1, dense=DENSE, sparse=[("sp", "float32")],
   ragged=[("r", "int64", "int64"), ("rs", "string", "int32")])
v2("empty_batch", [], dense=DENSE, sparse=[("sp", "float32")],
   ragged=[("r", "int64", "int64")])
v2("sparse_int_str", [e1, e3, ex(q=("i", [4, 5, 6]), t=("b", [b"a", b"bb"]))],
   sparse=[("q", "int64"), ("t", "string"), ("missing", "float32")])
v2("dense_2d", [ex(m=("i", [1, 2, 3, 4, 5, 6])), ex(m=("i", [6, 5, 4, 3, 2, 1]))],
   dense=[("m", np.zeros([2, 3], np.int64), [2, 3])])
v2("dense_varlen", [ex(v=("f", [1, 2, 3, 4])), ex(v=("f", [5, 6])), ex()],
   dense=[("v", np.array(-1.0, np.float32), [-1, 2])])
v2("dense_varlen_str", [ex(v=("b", [b"a"])), ex(v=("b", [b"b", b"c", b"d"]))],
   dense=[("v", np.array(b"", object), [-1])])


def entry(key: bytes, feature: bytes) -> bytes:
    """A Features map entry, hand-encoded (tf.train writes packed lists)."""
    body = b"\x0a" + bytes([len(key)]) + key + b"\x12" + bytes([len(feature)]) + feature
    return b"\x0a" + bytes([len(body)]) + body


def example(*entries: bytes) -> bytes:
    feats = b"".join(entries)
    return b"\x0a" + bytes([len(feats)]) + feats


# unpacked int64s (wire type 0) and floats (wire type 5), mixed with packed
UNPACKED_I = b"\x1a\x06" + b"\x08\x01\x08\x02\x08\x03"
UNPACKED_F = b"\x12\x0a" + b"\x0d\x00\x00\x80\x3f" + b"\x0d\x00\x00\x00\x40"
MIXED_I = b"\x1a\x08" + b"\x08\x01\x08\x02" + b"\x0a\x02\x03\x04"
MIXED_F = b"\x12\x0b" + b"\x0d\x00\x00\x80\x3f" + b"\x0a\x04\x00\x00\x00\x40"
v2("packed_unpacked", [example(entry(b"i", UNPACKED_I), entry(b"f", UNPACKED_F)), e1],
   sparse=[("i", "int64"), ("f", "float32")])
v2("mixed_int64", [example(entry(b"i", MIXED_I))], sparse=[("i", "int64")])
v2("mixed_float", [example(entry(b"f", MIXED_F))], sparse=[("f", "float32")])
v2("mixed_unrequested", [example(entry(b"f", MIXED_F))], sparse=[("g", "float32")])
v2("duplicate_key_last_wins", [ex(k=("i", [1])) + ex(k=("i", [2, 3]))], sparse=[("k", "int64")])
v2("empty_feature", [ex(k=("n", None))], sparse=[("k", "int64")],
   ragged=[("k", "float32", "int64")],
   dense=[("k", np.array(0.0, np.float32), [-1])])
v2("empty_proto", [b""], dense=[("a", np.array([1.0, 2.0], np.float32), [2])])
# errors
v2("err_missing_required", [e1, e2], dense=[("zz", np.zeros([0], np.float32), [1])])
v2("err_missing_required_names", [e1, e2], names=["first", "second"],
   dense=[("zz", np.zeros([0], np.float32), [1])])
v2("err_dense_wrong_len", [e1, e3], dense=[("a", np.zeros([3], np.float32), [3])])
v2("err_dense_wrong_len_names", [e1], names=["nm"], dense=[("a", np.zeros([3], np.float32), [3])])
v2("err_dense_type", [e1], dense=[("a", np.zeros([2], np.int64), [2])])
v2("err_sparse_type", [e1, e2], sparse=[("a", "string")])
v2("err_ragged_type", [e1], ragged=[("s", "float32", "int64")])
v2("err_ragged_type_names", [e1], names=["ex0"], ragged=[("s", "float32", "int64")])
v2("err_malformed", [e1, b"\x0a\x05abc"], dense=[("a", np.zeros([2], np.float32), [2])])
v2("err_malformed_names", [b"\x0a\x7fzz"], names=["bad"], sparse=[("a", "float32")])
v2("err_varlen_not_multiple", [ex(v=("f", [1, 2, 3]))],
   dense=[("v", np.array(-1.0, np.float32), [-1, 2])])
v2("err_default_shape", [e1], dense=[("a", np.zeros([3], np.float32), [2])])

def v1(name: str, op: str, serialized: list[bytes] | bytes, *, names: list[str] | None = None,
       sparse: list[tuple[str, str]] = (), dense: list[tuple[str, Any, list[int]]] = ()) -> None:
    """ParseExample (keys are scalar inputs) or ParseSingleExample (keys are attrs)."""
    scalar = isinstance(serialized, bytes)
    defaults = [tf.constant(d) for _, d, _ in dense]
    common = dict(dense_defaults=defaults, sparse_types=[tf.as_dtype(t) for _, t in sparse],
                  dense_shapes=[s for _, _, s in dense])
    cs: dict[str, Any] = {
        "name": name, "op": op,
        "serialized": [base64.b64encode(s).decode()
                       for s in ([serialized] if scalar else serialized)],
        "scalar": scalar, "names": names or [], "sparse": [list(s) for s in sparse],
        "ragged": [], "dense": [[k, enc_t(d), s] for (k, _, s), d in zip(dense, defaults,
                                                                          strict=True)],
    }
    try:
        if op == "ParseExample":
            out = tf.raw_ops.ParseExample(
                serialized=tf.constant(serialized, tf.string),
                names=tf.constant(names or [], tf.string),
                sparse_keys=[tf.constant(k) for k, _ in sparse],
                dense_keys=[tf.constant(k) for k, _, _ in dense], **common)
        else:
            out = tf.raw_ops.ParseSingleExample(
                serialized=tf.constant(serialized, tf.string), num_sparse=len(sparse),
                sparse_keys=[k for k, _ in sparse], dense_keys=[k for k, _, _ in dense],
                **common)
        flat = []
        for grp in out:
            flat.extend(grp if isinstance(grp, (list, tuple)) else [grp])
        cs["outputs"] = [enc_t(t) for t in flat]
    except tf.errors.OpError as e:
        cs["error"] = {"code": e.error_code, "message": e.message}
    CASES.append(cs)


v1("v1_basic", "ParseExample", [e1, e2, e3], dense=DENSE, sparse=[("sp", "float32"),
                                                                   ("r", "int64")])
v1("v1_names_err", "ParseExample", [e1, e2], names=["one", "two"],
   dense=[("zz", np.zeros([0], np.int64), [1])])
v1("v1_varlen", "ParseExample", [ex(v=("f", [1, 2, 3, 4])), ex(v=("f", [5, 6]))],
   dense=[("v", np.array(-1.0, np.float32), [-1, 2])])
v1("v1_empty", "ParseExample", [], dense=DENSE, sparse=[("sp", "float32")])
v1("single_basic", "ParseSingleExample", e1, dense=DENSE, sparse=[("sp", "float32"),
                                                                  ("rs", "string")])
v1("single_missing_default", "ParseSingleExample", e3, dense=DENSE)
v1("single_type_err", "ParseSingleExample", e1, dense=[("s", np.zeros([1], np.float32), [1])])
v1("single_malformed", "ParseSingleExample", b"\x0a\x09zz", sparse=[("a", "int64")])


with open(OUT, "w") as f:
    json.dump({"cases": CASES}, f, indent=1)
print(len(CASES), "cases")
for c in CASES:
    print(c["name"], c.get("error", {}).get("message", "")[:300],
          [o["shape"] for o in c.get("outputs", [])])
