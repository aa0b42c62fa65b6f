"""Lookup tables from Python: GraphDefs written by TensorFlow 2.21 with the
TF 1 patterns (tf.compat.v1.tables_initializer over a StaticHashTable with
a KeyValueTensorInitializer and a TextFileInitializer, the raw v1
HashTable ops, a MutableHashTable, a DenseHashTable whose exported buckets
must be TF's, position for position) replayed in a tfe_py.Session with the
outputs TF gave (tests/data/lookup/, made by tools/gen_tf_lookup_data.py),
and the generated op wrappers run eagerly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tfe_py
from tfe_py import errors, ops

DATA = Path(__file__).resolve().parent.parent / "data" / "lookup"
MANIFEST = json.loads((DATA / "manifest.json").read_text())
CASES = {c["name"]: c for c in MANIFEST["cases"]}


def _feed_value(v: Any) -> Any:
    if v == "@vocab":
        return str(DATA / "vocab.txt")
    if v == "@labels":
        return str(DATA / "labels.tsv")
    return v


def _as_list(v: Any) -> list[Any]:
    a = np.asarray(v)
    flat = a.reshape(-1).tolist()
    return [x.decode("utf-8") if isinstance(x, bytes) else x for x in flat]


@pytest.mark.parametrize("name", sorted(CASES))
def test_tf_graphdef_runs(name: str) -> None:
    case = CASES[name]
    g = tfe_py.Graph()
    g.import_graph_def((DATA / case["file"]).read_bytes(), name="")
    sess = tfe_py.Session(g)
    try:
        for i, run in enumerate(case["runs"]):
            feeds = {g.get_tensor_by_name(n): _feed_value(v) for n, v in run["feeds"].items()}
            fetch_names = [f.replace("!sorted", "") for f in run["fetches"]]
            fetches: list[Any] = [g.get_tensor_by_name(n) for n in fetch_names]
            fetches += [g.get_operation_by_name(n) for n in run["targets"]]
            if "error" in run:
                with pytest.raises(errors.OpError) as ei:
                    sess.run(fetches, feed_dict=feeds)
                assert ei.value.error_code == run["error"]["code"], (name, i)
                assert run["error"]["message"] in str(ei.value), (name, i, str(ei.value))
                continue
            vals = sess.run(fetches, feed_dict=feeds)[: len(fetch_names)]
            if any(f.endswith("!sorted") for f in run["fetches"]):
                keys, values = _as_list(vals[0]), _as_list(vals[1])
                order = sorted(range(len(keys)), key=lambda j: keys[j])
                vals = [[keys[j] for j in order], [values[j] for j in order]]
            assert len(vals) == len(run["expected"])
            for got, want in zip(vals, run["expected"], strict=True):
                assert list(np.asarray(got).shape) == want["shape"] or isinstance(got, list)
                g_list = _as_list(got)
                if want["dtype"].startswith("float"):
                    np.testing.assert_allclose(g_list, want["value"], rtol=1e-6)
                else:
                    assert g_list == want["value"], (name, i)
    finally:
        sess.close()


def test_eager_static_table_and_errors() -> None:
    t = ops.HashTableV2(key_dtype=tfe_py.string, value_dtype=tfe_py.int64,
                        shared_name="py_lookup_static")
    with pytest.raises(errors.FailedPreconditionError, match=r"Table not initialized\."):
        ops.LookupTableFindV2(t, np.array(["a"], object), np.int64(-1))
    ops.LookupTableImportV2(t, np.array(["a", "b"], object), np.array([1, 2], np.int64))
    got = ops.LookupTableFindV2(t, np.array([["a", "x"], ["b", "a"]], object), np.int64(-1))
    np.testing.assert_array_equal(got.numpy(), [[1, -1], [2, 1]])
    assert int(ops.LookupTableSizeV2(t).numpy()) == 2
    with pytest.raises(errors.FailedPreconditionError,
                       match=r"Table was already initialized with different data\."):
        ops.InitializeTableV2(t, np.array(["z"], object), np.array([9], np.int64))
    with pytest.raises(errors.UnimplementedError, match="Insert not supported"):
        ops.LookupTableInsertV2(t, np.array(["c"], object), np.array([3], np.int64))
    with pytest.raises(errors.InvalidArgumentError, match="Signature mismatch"):
        ops.LookupTableFindV2(t, np.array([1], np.int32), np.int64(-1))
    keys, values = ops.LookupTableExportV2(t, Tkeys=tfe_py.string, Tvalues=tfe_py.int64)
    pairs = zip(_as_list(keys.numpy()), _as_list(values.numpy()), strict=True)
    assert sorted(pairs) == [("a", 1), ("b", 2)]


def test_eager_mutable_table() -> None:
    m = ops.MutableHashTableV2(key_dtype=tfe_py.int64, value_dtype=tfe_py.string,
                               shared_name="py_lookup_mutable")
    ops.LookupTableInsertV2(m, np.array([1, 2, 3], np.int64), np.array(["x", "y", "z"], object))
    ops.LookupTableRemoveV2(m, np.array([2], np.int64))
    got = ops.LookupTableFindV2(m, np.array([1, 2, 3], np.int64), np.array("?", object))
    assert _as_list(got.numpy()) == ["x", "?", "z"]
    with pytest.raises(errors.InvalidArgumentError, match="is not initializable"):
        ops.InitializeTableV2(m, np.array([5], np.int64), np.array(["q"], object))


def test_eager_text_file_vocabulary(tmp_path: Path) -> None:
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("alpha\nbeta\ngamma\n", encoding="utf-8")
    t = ops.HashTableV2(key_dtype=tfe_py.string, value_dtype=tfe_py.int64,
                        shared_name="py_lookup_vocab")
    ops.InitializeTableFromTextFileV2(t, str(vocab), key_index=-2, value_index=-1)
    got = ops.LookupTableFindV2(t, np.array(["gamma", "delta", "alpha"], object), np.int64(-1))
    np.testing.assert_array_equal(got.numpy(), [2, -1, 0])
    bad = tmp_path / "bad.txt"
    bad.write_text("a\n\nb\n", encoding="utf-8")
    t2 = ops.HashTableV2(key_dtype=tfe_py.string, value_dtype=tfe_py.int64,
                         shared_name="py_lookup_bad")
    with pytest.raises(errors.InvalidArgumentError, match="empty line found at position 3"):
        ops.InitializeTableFromTextFileV2(t2, str(bad), key_index=-2, value_index=-1)
    with pytest.raises(errors.NotFoundError):
        ops.InitializeTableFromTextFileV2(t2, str(tmp_path / "missing.txt"), key_index=-2,
                                          value_index=-1)
