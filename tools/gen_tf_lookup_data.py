#!/usr/bin/env python3
"""Regenerates the lookup-table test data under tests/data/lookup/.

NEEDS TENSORFLOW 2.21 (installed OUTSIDE this repository); it is NOT run by
CI, ctest or pytest. The files it writes are committed, so the tests only
need tfe:

    /path/to/venv-with-tensorflow/bin/python tools/gen_tf_lookup_data.py

What it writes:
  tests/data/lookup/vocab.txt        a vocabulary (one token a line)
  tests/data/lookup/labels.tsv       "<token>\\t<id>\\t<score>" lines
  tests/data/lookup/<case>.pb        GraphDefs written by TF's tf.compat.v1
                                     graph building (the TF 1 patterns:
                                     tables_initializer, raw v1 HashTable ops,
                                     MutableHashTable insert/remove/export)
  tests/data/lookup/manifest.json    per GraphDef: session runs in order, in
                                     ONE session (feeds, fetches, targets),
                                     with the outputs TF gave or its error

File names are fed through the placeholder "vocab_path" / "labels_path"
(the test feeds the checked-out path). A fetch whose name ends with
"!sorted" is an export: TF's order is its hash map's, so the expected
keys/values are stored sorted by key and the test sorts tfe's the same way.
Each expected output is also checked here against a plain-Python
computation of the same lookup.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import tensorflow as tf

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "lookup"
V1 = tf.compat.v1
R = tf.raw_ops

VOCAB = ["the", "quick", "brown", "fox", "jumps", "über", "lazy", "dog"]
LABELS = [("cat", 3, 0.5), ("dog", 7, 1.25), ("emu", -2, 2.0), ("yak", 11, -0.75)]


def tensor_json(v: Any) -> dict[str, Any]:
    a = np.asarray(v)
    if a.dtype.kind in ("O", "S", "U"):
        flat = [x.decode("utf-8") if isinstance(x, bytes) else str(x) for x in a.reshape(-1)]
        return {"dtype": "string", "shape": list(a.shape), "value": flat}
    return {"dtype": a.dtype.name, "shape": list(a.shape), "value": a.reshape(-1).tolist()}


def sorted_export(keys: Any, values: Any) -> list[dict[str, Any]]:
    k = np.asarray(keys)
    v = np.asarray(values)
    order = sorted(range(len(k)), key=lambda i: k[i])
    return [tensor_json(k[order]), tensor_json(v[order])]


def case_tables_initializer() -> tuple[bytes, list[dict[str, Any]]]:
    """StaticHashTable (KeyValueTensorInitializer -> LookupTableImportV2) and
    a TextFileInitializer (InitializeTableFromTextFileV2), run through
    tf.compat.v1.tables_initializer()."""
    g = tf.Graph()
    with g.as_default():
        path = V1.placeholder(tf.string, (), name="vocab_path")
        words = V1.placeholder(tf.string, (None,), name="words")
        kv = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(
                tf.constant(["cat", "dog", "emu"]), tf.constant([1, 2, 3], tf.int64)
            ),
            default_value=-1,
            name="animals",
        )
        vocab = tf.lookup.StaticHashTable(
            tf.lookup.TextFileInitializer(
                path, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
                tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER,
            ),
            default_value=-1,
            name="vocab",
        )
        rev = tf.lookup.StaticHashTable(
            tf.lookup.TextFileInitializer(
                path, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER,
                tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, value_index_offset=100,
            ),
            default_value="<unk>",
            name="reverse",
        )
        ids = tf.identity(vocab.lookup(words), name="ids")
        tf.identity(kv.lookup(words), name="animal_ids")
        tf.identity(rev.lookup(ids + 100), name="roundtrip")
        tf.identity(vocab.size(), name="n_vocab")
        tf.identity(kv.size(), name="n_animals")
        V1.tables_initializer(name="init_all_tables")
    gd = g.as_graph_def().SerializeToString()
    words_in = ["fox", "cat", "über", "nope", "dog", "the"]
    runs = [
        {"feeds": {"words:0": words_in}, "fetches": ["ids:0"], "targets": []},
        {"feeds": {"vocab_path:0": "@vocab"}, "fetches": [], "targets": ["init_all_tables"]},
        {"feeds": {"words:0": words_in},
         "fetches": ["ids:0", "animal_ids:0", "roundtrip:0", "n_vocab:0", "n_animals:0"],
         "targets": []},
        # Running the initializers again (same data) is fine.
        {"feeds": {"vocab_path:0": "@vocab"}, "fetches": [], "targets": ["init_all_tables"]},
        {"feeds": {"words:0": []}, "fetches": ["ids:0"], "targets": []},
    ]
    ids = [VOCAB.index(w) if w in VOCAB else -1 for w in words_in]
    checks = {
        2: [ids, [{"cat": 1, "dog": 2, "emu": 3}.get(w, -1) for w in words_in],
            [VOCAB[i] if i >= 0 else "<unk>" for i in ids], len(VOCAB), 3],
        4: [[]],
    }
    return gd, run_all(gd, runs, checks)


def case_v1_ops() -> tuple[bytes, list[dict[str, Any]]]:
    """The TF 1 ops with Ref(string) handles: HashTable, InitializeTable,
    InitializeTableFromTextFile, LookupTableFind/Size/Export."""
    g = tf.Graph()
    with g.as_default():
        path = V1.placeholder(tf.string, (), name="labels_path")
        q = V1.placeholder(tf.string, (None,), name="q")
        t = R.HashTable(key_dtype=tf.string, value_dtype=tf.float32, name="scores")
        init = R.InitializeTable(
            table_handle=t, keys=tf.constant(["a", "b"]),
            values=tf.constant([0.5, 1.5]), name="init_scores",
        )
        f = R.HashTable(key_dtype=tf.string, value_dtype=tf.int32, name="labels")
        finit = R.InitializeTableFromTextFile(
            table_handle=f, filename=path, key_index=0, value_index=1, name="init_labels"
        )
        tf.identity(R.LookupTableFind(table_handle=t, keys=q,
                                      default_value=tf.constant(-1.0)), name="score")
        tf.identity(R.LookupTableFind(table_handle=f, keys=q,
                                      default_value=tf.constant(0, tf.int32)), name="label")
        tf.identity(R.LookupTableSize(table_handle=f), name="labels_size")
        ek, ev = R.LookupTableExport(table_handle=f, Tkeys=tf.string, Tvalues=tf.int32)
        tf.identity(ek, name="export_keys")
        tf.identity(ev, name="export_values")
        tf.group(init, finit, name="init")
    gd = g.as_graph_def().SerializeToString()
    qs = ["a", "dog", "yak", "zz", "b"]
    runs = [
        {"feeds": {"q:0": qs}, "fetches": ["score:0"], "targets": []},
        {"feeds": {"labels_path:0": "@labels"}, "fetches": [], "targets": ["init"]},
        {"feeds": {"q:0": qs}, "fetches": ["score:0", "label:0", "labels_size:0"], "targets": []},
        {"feeds": {}, "fetches": ["export_keys:0", "export_values:0!sorted"], "targets": []},
    ]
    lab = {k: v for k, v, _ in LABELS}
    checks = {
        2: [[{"a": 0.5, "b": 1.5}.get(x, -1.0) for x in qs], [lab.get(x, 0) for x in qs],
            len(LABELS)],
        3: [sorted(lab), [lab[k] for k in sorted(lab)]],
    }
    return gd, run_all(gd, runs, checks)


def case_mutable() -> tuple[bytes, list[dict[str, Any]]]:
    """tf.lookup.experimental.MutableHashTable and DenseHashTable-free
    MutableHashTableOfTensorsV2 in a graph: insert, find, remove, export,
    size across runs of one session."""
    g = tf.Graph()
    with g.as_default():
        k = V1.placeholder(tf.int64, (None,), name="k")
        v = V1.placeholder(tf.float32, (None,), name="v")
        m = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, -1.0, name="m")
        tf.group(m.insert(k, v), name="insert")
        tf.group(m.remove(k), name="remove")
        tf.identity(m.lookup(k), name="find")
        tf.identity(m.size(), name="size")
        ek, ev = m.export()
        tf.identity(ek, name="export_keys")
        tf.identity(ev, name="export_values")
        mt = R.MutableHashTableOfTensorsV2(key_dtype=tf.int64, value_dtype=tf.float32,
                                          value_shape=[2], shared_name="mt", name="mt")
        vv = V1.placeholder(tf.float32, (None, 2), name="vv")
        R.LookupTableInsertV2(table_handle=mt, keys=k, values=vv, name="mt_insert")
        tf.identity(R.LookupTableFindV2(table_handle=mt, keys=k,
                                        default_value=tf.constant([0.0, -1.0])), name="mt_find")
    gd = g.as_graph_def().SerializeToString()
    runs = [
        {"feeds": {"k:0": [1, 2, 3], "v:0": [0.5, 1.5, 2.5]}, "fetches": [],
         "targets": ["insert"]},
        {"feeds": {"k:0": [3, 4], "v:0": [9.0, 4.0]}, "fetches": [], "targets": ["insert"]},
        {"feeds": {"k:0": [1, 2, 3, 4, 5]}, "fetches": ["find:0", "size:0"], "targets": []},
        {"feeds": {"k:0": [2, 7]}, "fetches": [], "targets": ["remove"]},
        {"feeds": {"k:0": [1, 2, 3, 4, 5]}, "fetches": ["find:0", "size:0"], "targets": []},
        {"feeds": {}, "fetches": ["export_keys:0", "export_values:0!sorted"], "targets": []},
        {"feeds": {"k:0": [5, 6], "vv:0": [[1, 2], [3, 4]]}, "fetches": [],
         "targets": ["mt_insert"]},
        {"feeds": {"k:0": [6, 1]}, "fetches": ["mt_find:0"], "targets": []},
        {"feeds": {"k:0": [1, 2], "v:0": [1.0]}, "fetches": [], "targets": ["insert"]},
    ]
    checks = {
        2: [[0.5, 1.5, 9.0, 4.0, -1.0], 4],
        4: [[0.5, -1.0, 9.0, 4.0, -1.0], 3],
        5: [[1, 3, 4], [0.5, 9.0, 4.0]],
        7: [[[3.0, 4.0], [0.0, -1.0]]],
    }
    return gd, run_all(gd, runs, checks)


def core_message(msg: str) -> str:
    """The kernel's own message out of the Python client's decorated one
    (the line before TF's "\t [[{{node ...}}]]" suffix)."""
    lines = msg.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("\t [[") and i > 0:
            return lines[i - 1]
    return lines[0]


def case_dense() -> tuple[bytes, list[dict[str, Any]]]:
    """tf.lookup.experimental.DenseHashTable (MutableDenseHashTableV2):
    insert with growth, remove, find and export. The exported bucket arrays
    are compared as they are (TF's layout), not sorted."""
    g = tf.Graph()
    with g.as_default():
        k = V1.placeholder(tf.int64, (None,), name="k")
        v = V1.placeholder(tf.float32, (None,), name="v")
        d = tf.lookup.experimental.DenseHashTable(
            tf.int64, tf.float32, default_value=-1.0, empty_key=-1, deleted_key=-2,
            initial_num_buckets=8, name="d")
        tf.group(d.insert(k, v), name="insert")
        tf.group(d.remove(k), name="remove")
        tf.identity(d.lookup(k), name="find")
        tf.identity(d.size(), name="size")
        ek, ev = d.export()
        tf.identity(ek, name="export_keys")
        tf.identity(ev, name="export_values")
        sk = V1.placeholder(tf.string, (None,), name="sk")
        sv = V1.placeholder(tf.int32, (None,), name="sv")
        ds = tf.lookup.experimental.DenseHashTable(
            tf.string, tf.int32, default_value=0, empty_key="", deleted_key="$",
            initial_num_buckets=4, name="ds")
        tf.group(ds.insert(sk, sv), name="s_insert")
        sek, sev = ds.export()
        tf.identity(sek, name="s_export_keys")
        tf.identity(sev, name="s_export_values")
        tf.identity(ds.lookup(sk), name="s_find")
    gd = g.as_graph_def().SerializeToString()
    words = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"]
    runs = [
        {"feeds": {"k:0": [3, 11, 19, 5, -7], "v:0": [1, 2, 3, 4, 5]}, "fetches": [],
         "targets": ["insert"]},
        {"feeds": {}, "fetches": ["export_keys:0", "export_values:0"], "targets": []},
        {"feeds": {"k:0": [11]}, "fetches": [], "targets": ["remove"]},
        {"feeds": {"k:0": [27, 35, 43, 51], "v:0": [6, 7, 8, 9]}, "fetches": [],
         "targets": ["insert"]},
        {"feeds": {}, "fetches": ["export_keys:0", "export_values:0", "size:0"],
         "targets": []},
        {"feeds": {"k:0": [3, 11, 51, 0]}, "fetches": ["find:0"], "targets": []},
        {"feeds": {"k:0": [-1]}, "fetches": ["find:0"], "targets": []},
        {"feeds": {"sk:0": words, "sv:0": list(range(8))}, "fetches": [],
         "targets": ["s_insert"]},
        {"feeds": {"sk:0": ["gamma", "nope"]},
         "fetches": ["s_export_keys:0", "s_export_values:0", "s_find:0"], "targets": []},
    ]
    checks = {
        5: [[1.0, -1.0, 9.0, -1.0]],
        8: [None, None, [2, 0]],
    }
    return gd, run_all(gd, runs, checks)


def resolve(v: Any, data: Path) -> Any:
    if v == "@vocab":
        return str(data / "vocab.txt")
    if v == "@labels":
        return str(data / "labels.tsv")
    return v


def run_all(gd: bytes, runs: list[dict[str, Any]],
            checks: dict[int, list[Any]]) -> list[dict[str, Any]]:
    g = tf.Graph()
    with g.as_default():
        gdef = tf.compat.v1.GraphDef()
        gdef.ParseFromString(gd)
        tf.import_graph_def(gdef, name="")
    out = []
    with V1.Session(graph=g) as sess:
        for i, run in enumerate(runs):
            feeds = {g.get_tensor_by_name(n): resolve(v, OUT) for n, v in run["feeds"].items()}
            fetch_names = [f.replace("!sorted", "") for f in run["fetches"]]
            fetches = [g.get_tensor_by_name(n) for n in fetch_names]
            targets = [g.get_operation_by_name(n) for n in run["targets"]]
            rec = dict(run)
            try:
                vals = sess.run(fetches + targets, feed_dict=feeds)[: len(fetches)]
            except tf.errors.OpError as e:
                rec["error"] = {"code": e.error_code, "name": type(e).__name__,
                                "message": core_message(e.message)}
                out.append(rec)
                continue
            if any(f.endswith("!sorted") for f in run["fetches"]):
                rec["expected"] = sorted_export(vals[0], vals[1])
            else:
                rec["expected"] = [tensor_json(v) for v in vals]
            if i in checks:
                for got, want in zip(rec["expected"], checks[i], strict=True):
                    if want is None:
                        continue
                    gv = got["value"]
                    w = np.asarray(want).reshape(-1).tolist()
                    assert gv == w, (i, gv, w)
            out.append(rec)
    return out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "vocab.txt").write_text("".join(w + "\n" for w in VOCAB), encoding="utf-8")
    (OUT / "labels.tsv").write_text(
        "".join(f"{k}\t{v}\t{s}\n" for k, v, s in LABELS), encoding="utf-8"
    )
    cases = []
    for name, fn in [("tables_initializer", case_tables_initializer),
                     ("v1_ops", case_v1_ops), ("mutable", case_mutable),
                     ("dense", case_dense)]:
        gd, runs = fn()
        (OUT / f"{name}.pb").write_bytes(gd)
        g = tf.compat.v1.GraphDef()
        g.ParseFromString(gd)
        cases.append({"name": name, "file": f"{name}.pb",
                      "ops": sorted({n.op for n in g.node}), "runs": runs})
    manifest = {"version": 1, "tensorflow": tf.__version__, "cases": cases}
    (OUT / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
