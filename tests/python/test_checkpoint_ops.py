"""Checkpoint and file ops from Python (the generated ops.* wrappers).

* Checkpoints TensorFlow 2.21 wrote: the V1 files of tests/data/checkpoints_v1
  (Save / SaveSlices) and the sliced V2 checkpoint of
  tests/data/checkpoints/sliced, restored with Restore / RestoreSlice /
  RestoreV2 and compared with the values and errors TF gave (expected.json in
  each folder).
* Round trips of SaveV2/RestoreV2, MergeV2Checkpoints and Save/Restore, in
  eager mode and in a tfe_py.Session, on local paths and ram://.
* The file ops ReadFile, WriteFile, MatchingFiles, ImmutableConst and the
  sharded names.
* When ``tensorflow`` is importable (it is not in CI), the TF cross-check
  tools/check_checkpoints_in_tf.py runs; otherwise that test skips.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tfe_py
from tfe_py import errors, ops

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
V1_DIR = DATA / "checkpoints_v1"
SLICED_DIR = DATA / "checkpoints" / "sliced"

DTYPES = {
    "bool": tfe_py.bool,
    "float16": tfe_py.float16,
    "float32": tfe_py.float32,
    "float64": tfe_py.float64,
    "int8": tfe_py.int8,
    "int16": tfe_py.int16,
    "int32": tfe_py.int32,
    "int64": tfe_py.int64,
    "uint8": tfe_py.uint8,
    "complex64": tfe_py.complex64,
    "complex128": tfe_py.complex128,
    "string": tfe_py.string,
}


def expected_array(e: dict[str, Any]) -> np.ndarray:
    """The numpy value of an expected.json tensor record."""
    shape = tuple(e["shape"])
    if e["dtype"] == "string":
        vals = e["value"] if isinstance(e["value"], list) else [e["value"]]
        enc = e.get("encoding", "utf-8")
        return np.array([v.encode(enc) for v in vals], dtype=object).reshape(shape)
    if e["dtype"].startswith("complex"):
        flat = np.array(e["value"], dtype=np.float64).reshape(-1, 2)
        return (flat[:, 0] + 1j * flat[:, 1]).astype(e["dtype"]).reshape(shape)
    return np.array(e["value"], dtype=e["dtype"]).reshape(shape)


def assert_same(got: Any, want: np.ndarray) -> None:
    g = np.asarray(got.numpy() if hasattr(got, "numpy") else got)
    assert g.shape == want.shape
    if want.dtype == object:
        assert [bytes(x) for x in g.ravel()] == [bytes(x) for x in want.ravel()]
    else:
        assert g.dtype == want.dtype
        # bit for bit (signed zeros and NaNs included)
        assert g.tobytes() == want.tobytes()


def v1_cases() -> list[dict[str, Any]]:
    return json.loads((V1_DIR / "expected.json").read_text())["restores"]


def v1_errors() -> list[dict[str, Any]]:
    return json.loads((V1_DIR / "expected.json").read_text())["errors"]


@pytest.mark.parametrize("case", v1_cases(),
                         ids=lambda c: f"{c['file_pattern']}:{c['tensor_name']}:"
                                       f"{c['shape_and_slice']}")
def test_restore_tf_written_v1(case: dict[str, Any]) -> None:
    pattern = str(V1_DIR / case["file_pattern"])
    want = expected_array(case["expected"])
    dt = DTYPES[case["expected"]["dtype"]]
    if case["shape_and_slice"]:
        got = ops.RestoreSlice(pattern, case["tensor_name"], case["shape_and_slice"], dt=dt)
    else:
        got = ops.Restore(pattern, case["tensor_name"], dt=dt)
    assert_same(got, want)
    # RestoreV2 reads a V1 checkpoint too (no .index: its V1 fallback).
    (got2,) = ops.RestoreV2(pattern, [case["tensor_name"]], [case["shape_and_slice"]],
                            dtypes=[dt])
    assert_same(got2, want)


@pytest.mark.parametrize("case", v1_errors(), ids=lambda c: c["message"][:40])
def test_restore_tf_written_v1_errors(case: dict[str, Any]) -> None:
    pattern = str(V1_DIR / case["file_pattern"])
    cls = getattr(errors, case["error"])
    with pytest.raises(cls) as info:
        if case["shape_and_slice"]:
            ops.RestoreSlice(pattern, case["tensor_name"], case["shape_and_slice"],
                             dt=DTYPES[case["dtype"]])
        else:
            ops.Restore(pattern, case["tensor_name"], dt=DTYPES[case["dtype"]])
    assert str(V1_DIR) + "/" in str(info.value) or "/" not in case["message"]
    assert case["message"] in str(info.value).replace(str(V1_DIR) + "/", "")


@pytest.mark.parametrize(
    "case", json.loads((SLICED_DIR / "expected.json").read_text())["restores"],
    ids=lambda c: f"{c['tensor_name']}:{c['shape_and_slice']}")
def test_restore_tf_written_sliced_v2(case: dict[str, Any]) -> None:
    want = expected_array(case["expected"])
    (got,) = ops.RestoreV2(str(SLICED_DIR / "ckpt"), [case["tensor_name"]],
                           [case["shape_and_slice"]],
                           dtypes=[DTYPES[case["expected"]["dtype"]]])
    assert_same(got, want)


def scalar_str(t: Any) -> str:
    return bytes(np.asarray(t.numpy()).item()).decode()


def sample_tensors() -> dict[str, np.ndarray]:
    return {
        "f32": np.arange(6, dtype=np.float32).reshape(2, 3),
        "f16": np.array([1.0, -0.5, 65504.0], dtype=np.float16),
        "i64": np.array([-(2**62), 2**62], dtype=np.int64),
        "u8": np.array([0, 255], dtype=np.uint8),
        "b": np.array([True, False]),
        "c128": np.array([1 - 2j], dtype=np.complex128),
        "s": np.array([b"", b"a\0b", "\u00e9".encode()], dtype=object),
        "scalar": np.array(3.5, dtype=np.float64),
    }


@pytest.mark.parametrize("base", ["local", "ram"])
def test_savev2_restorev2_round_trip(tmp_path: Path, base: str) -> None:
    prefix = (str(tmp_path / "ckpt") if base == "local"
              else f"ram://py_ckpt_ops/{tmp_path.name}/ckpt")
    t = sample_tensors()
    names = sorted(t)
    ops.SaveV2(prefix, names, [""] * len(names), [t[n] for n in names])
    got = ops.RestoreV2(prefix, names, [""] * len(names),
                        dtypes=[tfe_py.constant(t[n]).dtype for n in names])
    for n, g in zip(names, got, strict=True):
        assert_same(g, t[n])
    (part,) = ops.RestoreV2(prefix, ["f32"], ["2 3 -:1,2"], dtypes=[tfe_py.float32])
    assert_same(part, t["f32"][:, 1:])


def test_restorev2_errors(tmp_path: Path) -> None:
    prefix = str(tmp_path / "ckpt")
    ops.SaveV2(prefix, ["a"], [""], [np.float32(1)])
    with pytest.raises(errors.NotFoundError, match="Key b not found in checkpoint"):
        ops.RestoreV2(prefix, ["b"], [""], dtypes=[tfe_py.float32])
    with pytest.raises(errors.InvalidArgumentError,
                       match="expected dtype int32 does not equal original dtype float"):
        ops.RestoreV2(prefix, ["a"], [""], dtypes=[tfe_py.int32])
    with pytest.raises(errors.NotFoundError, match="Failed to find any matching files"):
        ops.RestoreV2(str(tmp_path / "none"), ["a"], [""], dtypes=[tfe_py.float32])


def test_sharded_save_and_merge(tmp_path: Path) -> None:
    """The TF 1 Saver's sharded save: per-shard SaveV2 under ShardedFilename
    names, then MergeV2Checkpoints."""
    tmp = str(tmp_path / "ckpt_temp" / "part")
    shards = [scalar_str(ops.ShardedFilename(tmp, np.int32(i), np.int32(2)))
              for i in range(2)]
    assert shards[1].endswith("part-00001-of-00002")
    ops.SaveV2(shards[0], ["w"], ["4 2 0,2:-"], [np.zeros((2, 2), np.float32)])
    ops.SaveV2(shards[1], ["w", "x"], ["4 2 2,2:-", ""],
               [np.ones((2, 2), np.float32), np.int32(7)])
    final = str(tmp_path / "model")
    ops.MergeV2Checkpoints(shards, final)
    w, x = ops.RestoreV2(final, ["w", "x"], ["", ""], dtypes=[tfe_py.float32, tfe_py.int32])
    assert_same(w, np.array([[0, 0], [0, 0], [1, 1], [1, 1]], np.float32))
    assert int(x.numpy()) == 7
    assert not (tmp_path / "ckpt_temp").exists()
    assert scalar_str(ops.ShardedFilespec("a/b", np.int32(3))) == "a/b-?????-of-00003"


def test_v1_save_restore_round_trip(tmp_path: Path) -> None:
    f = str(tmp_path / "v1")
    t = sample_tensors()
    names = sorted(t)
    ops.Save(f, names, [t[n] for n in names])
    for n in names:
        assert_same(ops.Restore(f, n, dt=tfe_py.constant(t[n]).dtype), t[n])
    ops.SaveSlices(f + "s", ["p", "p"], ["3 2 0,1:-", "3 2 1,2:-"],
                   [np.array([[1, 2]], np.int32), np.array([[3, 4], [5, 6]], np.int32)])
    assert_same(ops.Restore(f + "s", "p", dt=tfe_py.int32),
                np.array([[1, 2], [3, 4], [5, 6]], np.int32))
    with pytest.raises(errors.UnimplementedError,
                       match="Saving data type bfloat16 not yet supported"):
        ops.Save(f, ["x"], [ops.Cast(np.float32(1), DstT=tfe_py.bfloat16)])


def test_session_save_restore(tmp_path: Path) -> None:
    prefix = str(tmp_path / "sess")
    with tfe_py.Graph() as g:
        p = ops.Placeholder(dtype=tfe_py.string, name="prefix")
        save = ops.SaveV2(p, ["v"], [""], [np.array([1.5, 2.5], np.float32)], name="save")
        (restored,) = ops.RestoreV2(p, ["v"], [""], dtypes=[tfe_py.float32], name="restore")
    with tfe_py.Session(graph=g) as sess:
        sess.run(save, feed_dict={p: prefix})
        got = sess.run(restored, feed_dict={p: prefix})
    assert_same(got, np.array([1.5, 2.5], np.float32))


def test_file_ops(tmp_path: Path) -> None:
    path = str(tmp_path / "a" / "b" / "c.txt")
    ops.WriteFile(path, b"x\0y")  # creates the directories, as TF does
    assert np.asarray(ops.ReadFile(path).numpy()).item() == b"x\0y"
    ops.WriteFile("ram://py_file_ops/d/e.txt", b"ram")
    assert np.asarray(ops.ReadFile("ram://py_file_ops/d/e.txt").numpy()).item() == b"ram"
    with pytest.raises(errors.NotFoundError):
        ops.ReadFile(str(tmp_path / "nope"))
    with pytest.raises(errors.FailedPreconditionError):
        ops.ReadFile(str(tmp_path))
    got = ops.MatchingFiles([str(tmp_path / "a" / "*" / "*.txt"), str(tmp_path / "zz*")])
    assert list(got.numpy()) == [path.encode()]
    assert ops.MatchingFiles(str(tmp_path / "nodir" / "*")).numpy().shape == (0,)


def test_immutable_const(tmp_path: Path) -> None:
    f = tmp_path / "w.bin"
    vals = np.array([1.5, -2.0, 3.0], np.float32)
    f.write_bytes(vals.tobytes() + b"\0" * 4)
    got = ops.ImmutableConst(dtype=tfe_py.float32, shape=[3], memory_region_name=str(f))
    assert_same(got, vals)
    with pytest.raises(errors.InternalError, match="wrong length"):
        ops.ImmutableConst(dtype=tfe_py.float32, shape=[5], memory_region_name=str(f))
    with pytest.raises(errors.NotFoundError):
        ops.ImmutableConst(dtype=tfe_py.float32, shape=[1],
                           memory_region_name=str(tmp_path / "nope"))


@pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None,
                    reason="TensorFlow is not installed (the TF cross-check needs it)")
def test_tf_restores_tfe_written_checkpoints() -> None:
    """tools/check_checkpoints_in_tf.py: TF restores tests/data/checkpoints_tfe
    and writes the same bytes."""
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "check_checkpoints_in_tf.py")],
                       capture_output=True, text=True, timeout=600,
                       env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 failure(s)" in r.stdout
