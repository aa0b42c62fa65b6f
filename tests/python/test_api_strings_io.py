"""tf.strings, tf.io and tf.io.gfile through ``import tfe_py as tf``.

Most cases are snippets recorded with TensorFlow 2.21 by
tools/record_api_strings_io.py (tests/data/api_strings_io_tf221.json): each
is run here with tfe_py and its result (dtype, shape and values of tensors,
the lists and repr of ragged tensors, the class of an exception and, where
the case says so, its message) must equal TF's. The tests below the
parametrized one check what a recording cannot (NotImplementedError
naming the op, graph mode, the RaggedTensor container).
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tfe_py as tf

DATA = Path(__file__).resolve().parents[1] / "data" / "api_strings_io_tf221.json"
CASES = json.loads(DATA.read_text())["cases"]


def _jsonable(x: Any) -> Any:
    if isinstance(x, bytes):
        return {"b": x.hex()}
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return x
    if isinstance(x, int):
        return x
    if isinstance(x, float):
        if math.isnan(x):
            return {"f": "nan"}
        if math.isinf(x):
            return {"f": "inf" if x > 0 else "-inf"}
        return x
    if isinstance(x, complex):
        return {"c": [_jsonable(x.real), _jsonable(x.imag)]}
    if isinstance(x, list | tuple):
        return [_jsonable(v) for v in x]
    if hasattr(x, "item") and hasattr(x, "dtype") and getattr(x, "shape", None) == ():
        return _jsonable(x.item())
    if hasattr(x, "tolist"):
        return _jsonable(x.tolist())
    return {"repr": repr(x)}


def _summarize(x: Any) -> Any:
    if type(x).__name__ == "RaggedTensor":
        return {
            "ragged": _jsonable(x.to_list()),
            "dtype": x.dtype.name,
            "ragged_rank": x.ragged_rank,
            "repr": repr(x),
        }
    if hasattr(x, "numpy") and hasattr(x, "dtype") and hasattr(x, "shape"):
        v = x.numpy()
        return {
            "tensor": _jsonable(v.tolist() if hasattr(v, "tolist") else v),
            "dtype": x.dtype.name,
            "shape": [int(d) for d in x.shape],
        }
    if isinstance(x, list | tuple):
        return {"seq": [_summarize(v) for v in x]}
    return {"py": _jsonable(x)}


def _run(code: str) -> Any:
    tmp = tempfile.mkdtemp(prefix="tfe_strio_")
    env: dict[str, Any] = {"tf": tf, "np": np, "os": os, "tmp": tmp}
    try:
        exec(code, env)
        return _summarize(env["out"])
    except Exception as e:
        return {"error": type(e).__name__, "message": str(e)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _core_message(msg: str) -> str:
    """An error message without TF's eager decorations."""
    msg = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", msg)
    msg = re.sub(r"\s*\[Op:[^\]]*\](\s*name:.*)?$", "", msg, flags=re.S)
    return msg.strip()


def _same(a: Any, b: Any, path: str = "") -> None:
    if isinstance(a, float) and isinstance(b, float | int):
        assert b == pytest.approx(a, rel=1e-6, abs=1e-7), path
        return
    if isinstance(a, dict) and isinstance(b, dict):
        assert sorted(a) == sorted(b), f"{path}: keys {sorted(b)} != {sorted(a)}"
        for k in a:
            _same(a[k], b[k], f"{path}.{k}")
        return
    if isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b), f"{path}: length {len(b)} != {len(a)}: {b!r} vs {a!r}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{path}[{i}]")
        return
    assert a == b, f"{path}: {b!r} != TF's {a!r}"


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_tensorflow(case: dict[str, Any]) -> None:
    want = case["tf"]
    got = _run(case["code"])
    if "error" in want:
        assert got.get("error") == want["error"], f"got {got!r}, TF raised {want!r}"
        if case["check_message"]:
            assert _core_message(got["message"]) == _core_message(want["message"])
        return
    assert "error" not in got, f"raised {got!r}; TF gave {want!r}"
    _same(want, got)


# ------------------------------------------------------------ beyond TF data


def test_toplevel_names() -> None:
    assert tf.as_string is tf.strings.as_string
    assert tf.RaggedTensor is tf.strings.RaggedTensor
    import tfe_py.io.gfile as gfile_module

    assert tf.io.gfile is gfile_module
    for name in (
        "GFile",
        "exists",
        "glob",
        "isdir",
        "listdir",
        "makedirs",
        "mkdir",
        "remove",
        "rename",
        "rmtree",
        "stat",
        "walk",
        "copy",
        "join",
        "get_registered_schemes",
    ):
        assert callable(getattr(tf.io.gfile, name)), name


def test_every_tf_name_exists() -> None:
    names = json.loads((DATA.parent / "tf_api_names.json").read_text())["namespaces"]
    for ns, module in (("strings", tf.strings), ("io", tf.io), ("io.gfile", tf.io.gfile)):
        missing = [n for n in names[ns] if not hasattr(module, n)]
        assert not missing, f"tf.{ns} lacks {missing}"


@pytest.mark.parametrize(
    ("call", "op"),
    [
        (lambda: tf.io.decode_gif(b""), "DecodeGif"),
        (lambda: tf.io.decode_jpeg(b""), "DecodeJpeg"),
        (lambda: tf.io.parse_example(b"", {}), "ParseExampleV2"),
        (lambda: tf.io.serialize_sparse(None), "SerializeSparse"),
        (lambda: tf.io.decode_proto(b"", "m", [], []), "DecodeProtoV2"),
    ],
)
def test_missing_ops_raise_not_implemented(call: Any, op: str) -> None:
    with pytest.raises(NotImplementedError, match=op):
        call()


def test_match_filenames_once() -> None:
    d = tempfile.mkdtemp()
    try:
        for n in ("a.txt", "b.txt", "c.bin"):
            open(os.path.join(d, n), "w").close()
        v = tf.io.match_filenames_once(os.path.join(d, "*.txt"))
        assert v.dtype == tf.string and not v.trainable
        got = sorted(os.path.basename(p) for p in v.numpy().tolist())
        assert got == [b"a.txt", b"b.txt"]
        assert tf.io.match_filenames_once(os.path.join(d, "*.zz")).shape.as_list() == [0]
    finally:
        shutil.rmtree(d)


def test_string_add_operator() -> None:
    a = tf.constant(["a", "b"])
    assert (a + tf.constant(["1", "2"])).numpy().tolist() == [b"a1", b"b2"]
    assert ("x" + a).numpy().tolist() == [b"xa", b"xb"]
    assert (a + "y").numpy().tolist() == [b"ay", b"by"]
    with pytest.raises((TypeError, tf.errors.InvalidArgumentError)):
        tf.constant(1) + 1.5


def test_graph_mode_functions() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.string, shape=[2])
        n = tf.strings.length(x)
        u = tf.strings.upper(tf.strings.join([x, "!"]))
        s = tf.io.serialize_tensor(x)
        cat = x + "z"
        assert tuple(n.shape) == (2,)
        assert tuple(s.shape) == ()
    with tf.Session(graph=g) as sess:
        out = sess.run([n, u, cat], feed_dict={x: np.array([b"ab", b"c"], dtype=object)})
    assert out[0].tolist() == [2, 1]
    assert out[1].tolist() == [b"AB!", b"C!"]
    assert out[2].tolist() == [b"abz", b"cz"]


def test_ragged_container() -> None:
    rt = tf.RaggedTensor.from_row_splits(tf.constant([1, 2, 3, 4, 5]), [0, 2, 2, 5])
    assert repr(rt) == "<tf.RaggedTensor [[1, 2], [], [3, 4, 5]]>"
    assert rt.shape.as_list() == [3, None]
    assert rt.ragged_rank == 1
    assert rt.row_lengths().numpy().tolist() == [2, 0, 3]
    assert rt.value_rowids().numpy().tolist() == [0, 0, 2, 2, 2]
    assert rt.to_tensor().numpy().tolist() == [[1, 2, 0], [0, 0, 0], [3, 4, 5]]
    assert rt[2].numpy().tolist() == [3, 4, 5]
    assert rt[1:].to_list() == [[], [3, 4, 5]]
    nested = tf.RaggedTensor.from_row_lengths(rt, [2, 1])
    assert nested.ragged_rank == 2
    assert nested.to_list() == [[[1, 2], []], [[3, 4, 5]]]
    assert [s.numpy().tolist() for s in nested.nested_row_splits] == [[0, 2, 3], [0, 2, 2, 5]]
    with pytest.raises(ValueError, match="factory methods"):
        tf.RaggedTensor(tf.constant([1]), tf.constant([0, 1]))
    with pytest.raises(TypeError):
        bool(rt)


def test_unicode_script_every_range_boundary() -> None:
    # Spot checks across planes (ICU codes: Common 0, Latin 25, Greek 14,
    # Han 17, Arabic 2, Unknown 103, invalid -1).
    cps = [0x20, 0x61, 0x3B1, 0x4E00, 0x627, 0x378, 0x10FFFF, 0x110000, -7]
    out = tf.strings.unicode_script(cps).numpy().tolist()
    assert out == [0, 25, 14, 17, 2, 103, 103, -1, -1]


def test_io_module_api_kept() -> None:
    # tfe's own gfile-style functions stay on tfe_py.io itself.
    from tfe_py import io

    d = tempfile.mkdtemp()
    try:
        p = io.join(d, "x")
        with io.GFile(p, "w") as f:
            f.write("v")
        assert io.exists(p) and io.listdir(d) == ["x"]
        with pytest.raises(tf.errors.AlreadyExistsError):
            io.mkdir(io.join(d, "x"))  # tfe's io.mkdir keeps its own rule
        tf.io.gfile.mkdir(io.join(d, "sub"))
        tf.io.gfile.mkdir(io.join(d, "sub"))  # TF's: no error
    finally:
        shutil.rmtree(d)
