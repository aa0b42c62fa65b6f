#!/usr/bin/env python3
"""Checks in TensorFlow that checkpoints tfe wrote restore with the right values.

NEEDS TENSORFLOW (2.21); the project never needs it to build or to pass its
tests. Run it with a TensorFlow python:

    /work/tfvenv/bin/python tools/check_checkpoints_in_tf.py [DIR] [--savers COPIES]

DIR (default tests/data/checkpoints_tfe) holds what tfe wrote from the
"golden" tensors of tests/c/test_checkpoint_ops.c:

* ``ckpt.index`` + ``ckpt.data-00000-of-00001``: tfe's SaveV2 (V2 format), every
  dtype a checkpoint holds plus a tensor saved as two slices;
* ``v1_ckpt``: tfe's SaveSlices (V1 format), the dtypes V1 holds.

Checks, each printed as PASS/FAIL:

1. TF's RestoreV2 (eager) gives back every golden tensor bit for bit, and a
   slice of the partitioned one; ``tf.train.load_checkpoint`` lists them;
2. TF's SaveV2 of the same tensors writes byte-identical files;
3. TF's Restore / RestoreSlice read every tensor of the V1 file;
4. TF's SaveSlices of the same tensors writes a byte-identical V1 file.

With ``--savers COPIES`` (a folder made by
``TFE_CKPT_SAVER_COPY=COPIES build/tests/test_checkpoint_ops
savedmodel_savers_tf1_and_keras``, holding ``<model>/ckpt.*`` that tfe wrote by
running the save tensors of tests/data/saved_models/<model>):

5. TF running the same save tensor of the same SavedModel writes
   byte-identical files.

Exit status 0 when every check passes. The golden list here must match
the C test's (kGoldNames / gold_tensor there).
"""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def golden(tf: Any) -> list[tuple[str, str, Any]]:
    """(name, shape_and_slice, value) in the order tfe's test saves them."""
    strs = np.array([b"hello", b"", "\u00e9t\u00e9".encode(), b"x" * 200, b"nul\0byte"],
                    dtype=object)
    part = np.arange(12, dtype=np.float32).reshape(4, 3)
    return [
        ("a/float", "", np.arange(6, dtype=np.float32).reshape(2, 3) * 0.5 - 1),
        ("b/double", "", np.array([1.5, -2.25, 1e300], dtype=np.float64)),
        ("c/int32", "", np.array([-7, 0, 2147483647], dtype=np.int32)),
        ("d/int64", "", np.array([[-(2**40)], [2**62]], dtype=np.int64)),
        ("e/bool", "", np.array([True, False, True, True])),
        ("f/string", "", strs),
        ("g/half", "", np.array([1.0, -0.5, 65504.0], dtype=np.float16)),
        ("h/bfloat16", "", tf.constant([1.0, -2.0, 0.5], dtype=tf.bfloat16)),
        ("i/complex64", "", np.array([1 + 2j, complex(0.0, -3.5)], dtype=np.complex64)),
        ("j/complex128", "", np.array([1e-300 - 1e300j], dtype=np.complex128)),
        ("k/uint8", "", np.array([0, 255, 7], dtype=np.uint8)),
        ("l/int16", "", np.array([-32768, 32767], dtype=np.int16)),
        ("m/int8", "", np.array([-128, 127], dtype=np.int8)),
        ("n/uint16", "", np.array([0, 65535], dtype=np.uint16)),
        ("o/uint32", "", np.array([0, 2**32 - 1], dtype=np.uint32)),
        ("p/uint64", "", np.array([0, 2**64 - 1], dtype=np.uint64)),
        ("q/scalar", "", np.array(42.0, dtype=np.float32)),
        ("r/empty", "", np.zeros((0, 3), dtype=np.float32)),
        ("s/str_scalar", "", np.array(b"scalar string", dtype=object)),
        ("part/w", "4 3 0,2:-", part[:2]),
        ("part/w", "4 3 2,2:-", part[2:]),
    ]


V1_SKIP = {"h/bfloat16", "o/uint32", "p/uint64"}  # V1 cannot hold these


def same(tf: Any, got: Any, want: Any) -> bool:
    g = np.asarray(got.numpy() if hasattr(got, "numpy") else got)
    w = np.asarray(want.numpy() if hasattr(want, "numpy") else want)
    if g.dtype.kind == "S":
        g = g.astype(object)
    if w.dtype.kind == "S":
        w = w.astype(object)
    if g.shape != w.shape or g.dtype != w.dtype:
        return False
    if g.dtype == object:
        return [bytes(x) for x in g.ravel()] == [bytes(x) for x in w.ravel()]
    return g.tobytes() == w.tobytes()


SAVERS = {"tf1_simple_save": ("save/Const:0", "save/Identity:0"),
          "keras_mlp": ("saver_filename:0", "StatefulPartitionedCall_2:0")}


def saver_checks(tf: Any, copies: str, report: Any) -> int:
    """TF runs each model's save tensor; compares with tfe's copy."""
    done = 0
    for model, (fname, save) in SAVERS.items():
        mine = os.path.join(copies, model, "ckpt")
        if not os.path.exists(mine + ".index"):
            continue
        with tempfile.TemporaryDirectory() as tmp, \
                tf.compat.v1.Session(graph=tf.Graph()) as sess:
            tf.compat.v1.saved_model.loader.load(
                sess, ["serve"], os.path.join(ROOT, "tests/data/saved_models", model))
            sess.run(save, feed_dict={fname: os.path.join(tmp, "ckpt")})
            for suffix in (".index", ".data-00000-of-00001"):
                with open(os.path.join(tmp, "ckpt") + suffix, "rb") as a, \
                        open(mine + suffix, "rb") as b:
                    report(a.read() == b.read(),
                           f"{model}: TF's run of {save} writes tfe's {suffix} bytes")
        done += 1
    return done


def main() -> int:
    import tensorflow as tf

    args = sys.argv[1:]
    savers = None
    if "--savers" in args:
        i = args.index("--savers")
        savers = args[i + 1]
        del args[i:i + 2]
    d = args[0] if args else os.path.join(ROOT, "tests/data/checkpoints_tfe")
    prefix = os.path.join(d, "ckpt")
    gold = golden(tf)
    full = {n: v for n, s, v in gold if not s}
    full["part/w"] = np.arange(12, dtype=np.float32).reshape(4, 3)
    failures = 0

    def report(ok: bool, what: str) -> None:
        nonlocal failures
        print(("PASS " if ok else "FAIL ") + what)
        failures += 0 if ok else 1

    # 1. V2 restore in TF.
    names = list(full)
    out = tf.raw_ops.RestoreV2(
        prefix=prefix, tensor_names=names, shape_and_slices=[""] * len(names),
        dtypes=[tf.constant(full[n]).dtype for n in names])
    for n, got in zip(names, out, strict=True):
        report(same(tf, got, tf.constant(full[n])), f"TF RestoreV2 {n}")
    (sl,) = tf.raw_ops.RestoreV2(prefix=prefix, tensor_names=["part/w"],
                                 shape_and_slices=["4 3 1,2:1,2"], dtypes=[tf.float32])
    report(same(tf, sl, full["part/w"][1:3, 1:3]), "TF RestoreV2 part/w slice 1,2:1,2")
    reader = tf.train.load_checkpoint(prefix)
    listed = reader.get_variable_to_dtype_map()
    report(set(listed) == set(names), "tf.train.load_checkpoint lists every tensor")

    # 2. TF writes the same bytes.
    with tempfile.TemporaryDirectory() as tmp:
        tp = os.path.join(tmp, "ckpt")
        tf.raw_ops.SaveV2(prefix=tp, tensor_names=[n for n, _, _ in gold],
                          shape_and_slices=[s for _, s, _ in gold],
                          tensors=[tf.constant(v) for _, _, v in gold])
        for suffix in (".index", ".data-00000-of-00001"):
            with open(tp + suffix, "rb") as a, open(prefix + suffix, "rb") as b:
                report(a.read() == b.read(), f"TF SaveV2 writes the same {suffix} bytes")

        # 3. V1 restore in TF.
        v1 = os.path.join(d, "v1_ckpt")
        for n in names:
            if n in V1_SKIP:
                continue
            got = tf.raw_ops.Restore(file_pattern=v1, tensor_name=n,
                                     dt=tf.constant(full[n]).dtype)
            report(same(tf, got, tf.constant(full[n])), f"TF Restore (V1) {n}")
        got = tf.raw_ops.RestoreSlice(file_pattern=v1, tensor_name="part/w",
                                      shape_and_slice="4 3 1,2:2,1", dt=tf.float32)
        report(same(tf, got, full["part/w"][1:3, 2:3]), "TF RestoreSlice (V1) part/w")

        # 4. TF writes the same V1 file.
        v1g = [(n, s, v) for n, s, v in gold if n not in V1_SKIP]
        tv1 = os.path.join(tmp, "v1_ckpt")
        tf.raw_ops.SaveSlices(filename=tv1, tensor_names=[n for n, _, _ in v1g],
                              shapes_and_slices=[s for _, s, _ in v1g],
                              data=[tf.constant(v) for _, _, v in v1g])
        with open(tv1, "rb") as a, open(v1, "rb") as b:
            report(a.read() == b.read(), "TF SaveSlices writes the same V1 bytes")

    # 5. The SavedModel savers tfe ran.
    if savers is not None:
        report(bool(saver_checks(tf, savers, report)), "saver copies found")

    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
