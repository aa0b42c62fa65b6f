#!/usr/bin/env python3
"""Regenerates the SavedModel and v1-checkpoint test data.

NEEDS TENSORFLOW 2.21 WITH KERAS 3 (a virtualenv OUTSIDE this repository);
it is NOT run by CI, ctest or pytest. The files it writes are committed, so
the tests only need tfe:

    /path/to/venv-with-tensorflow/bin/python tools/gen_saved_model_data.py

What it writes:
  tests/data/saved_models/<name>/        one directory per model: the
      SavedModel TF wrote (saved_model.pb, variables/, assets/), or for
      frozen_graph a frozen GraphDef (model.pb);
      io/<input key>.npy                 the inputs of the first run
      io/out_<output key>.npy            what TF returned for them
      io/runN_*.npy                      further runs (stateful models)
      manifest.json                      see MANIFEST below
  tests/data/checkpoints_v1/             V1 (tensor-slice table)
      checkpoints written by the Save and SaveSlices ops, with
      expected.json: the tensors and the results of Restore/RestoreSlice.
  tests/data/checkpoints/sliced/         a V2 checkpoint holding
      partitioned tensors (SaveV2 with slice specs), with expected.json.

Outputs are recorded the way a C program will see them: each SavedModel is
loaded by TF's v1 loader (tf.compat.v1.saved_model.loader.load, the Python
face of the C++ loader behind TF_LoadSessionFromSavedModel) into a fresh
graph and session, and the signature's tensors are fed and fetched by name.
For TF2 exports the result is also checked against calling the signature
through tf.saved_model.load, so the two loaders agree.

MANIFEST (version 1), per model:
  {"version": 1, "tensorflow": "2.21.0", "keras": "3.x", "name", "kind",
   "description", "files": {"saved_model.pb": bytes, ...},
   "tags": [[tag, ...] per MetaGraph], "default_tags": [...],
   "signatures": {sig: {"method_name", "inputs": [TI], "outputs": [TI]}},
   "runs": [{"signature", "inputs": {key: file}, "outputs": {key: file}}],
   "rtol", "atol" (float outputs), "ops": [sorted op types of the graph and
   of every library function], "graph_ops": [...of the graph nodes only],
   "saver": {filename_tensor_name, save_tensor_name, restore_op_name,
   version} or null, "init_op": name of the main/legacy init op or null,
   "init_op_collection": which collection or signature named it,
   "assets": [{"tensor_name", "filename"}], "collections": [keys],
   "notes": free text}
  TI = {"key", "name" (tensor name), "dtype" (numpy name or "string"),
        "shape" (list, -1 unknown; null for unknown rank)}
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

# TF and Keras walk Python sets of names when they export, so the node order
# in saved_model.pb partly follows string hashing: fixing the hash seed (by
# starting again with it set) makes the TF1 and tf.Module models repeatable
# byte for byte. Keras exports still vary in node and checkpoint-key order
# from run to run (object identities); their values and outputs do not.
if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, *sys.argv])
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import keras
import numpy as np
import tensorflow as tf
from tensorflow.core.protobuf import meta_graph_pb2, saved_model_pb2
from tensorflow.python.framework.convert_to_constants import (
    convert_variables_to_constants_v2,
)

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "saved_models"
CKPT_V1 = ROOT / "tests" / "data" / "checkpoints_v1"
CKPT_SLICED = ROOT / "tests" / "data" / "checkpoints" / "sliced"

v1 = tf.compat.v1
RTOL, ATOL = 1e-5, 1e-6

def dtype_name(enum: int) -> str:
    """numpy-style name of a DataType enum; "string" for DT_STRING and
    "invalid" for DT_INVALID (the init-op signature's output is an op)."""
    if enum == 0:
        return "invalid"
    dt = tf.dtypes.as_dtype(enum)
    if dt == tf.string:
        return "string"
    return dt.name


def shape_list(shape_proto: Any) -> list[int] | None:
    if shape_proto.unknown_rank:
        return None
    return [d.size for d in shape_proto.dim]


def tensor_info_json(key: str, info: Any) -> dict[str, Any]:
    return {
        "key": key,
        "name": info.name,
        "dtype": dtype_name(info.dtype),
        "shape": shape_list(info.tensor_shape),
    }


def graph_op_types(gd: Any) -> tuple[list[str], list[str]]:
    """(all op types including library functions, graph node op types)."""
    own = {n.op for n in gd.node}
    every = set(own)
    for f in gd.library.function:
        every |= {n.op for n in f.node_def}
    return sorted(every), sorted(own)


def save_npy(path: Path, value: Any) -> None:
    arr = np.asarray(value)
    if arr.dtype.kind in "OSU":
        # Strings are stored as an object array of bytes (np.load needs
        # allow_pickle=True); a fixed-width 'S' array would drop trailing NULs.
        flat = [v if isinstance(v, bytes) else str(v).encode() for v in arr.reshape(-1)]
        arr = np.empty(len(flat), dtype=object)
        arr[:] = flat
        arr = arr.reshape(np.asarray(value).shape)
        np.save(path, arr, allow_pickle=True)
    else:
        np.save(path, arr, allow_pickle=False)


def dir_sizes(path: Path) -> dict[str, int]:
    sizes = {}
    for p in sorted(path.rglob("*")):
        if p.is_file() and p.name != "manifest.json" and "io" not in p.relative_to(path).parts:
            sizes[str(p.relative_to(path))] = p.stat().st_size
    return sizes


def fresh_dir(path: Path) -> Path:
    if path.exists():
        shutil.rmtree(path)
    return path


def compare(got: Any, want: Any, what: str) -> None:
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        raise AssertionError(f"{what}: shape {got.shape} != {want.shape}")
    if got.dtype.kind in "fc":
        if not np.allclose(got, want, rtol=RTOL, atol=ATOL):
            raise AssertionError(f"{what}: {got} != {want}")
    elif not np.array_equal(got, want):
        raise AssertionError(f"{what}: {got!r} != {want!r}")


# --------------------------------------------------- SavedModel record
class RunSpec:
    """One signature call: inputs by signature key."""

    def __init__(self, signature: str, inputs: dict[str, Any]) -> None:
        self.signature = signature
        self.inputs = inputs


def run_v1_loader(path: Path, tags: list[str], runs: list[RunSpec]) -> list[dict[str, Any]]:
    """Loads the SavedModel with TF's v1 loader in one fresh session and
    runs each RunSpec in order, by the signature's tensor names."""
    results = []
    graph = tf.Graph()
    with graph.as_default(), v1.Session(graph=graph) as sess:
        meta = v1.saved_model.loader.load(sess, tags, str(path))
        for run in runs:
            sig = meta.signature_def[run.signature]
            feed = {sig.inputs[k].name: v for k, v in run.inputs.items()}
            keys = sorted(sig.outputs)
            out = sess.run([sig.outputs[k].name for k in keys], feed_dict=feed)
            results.append(dict(zip(keys, out, strict=True)))
    return results


def check_tf2(path: Path, runs: list[RunSpec], recorded: list[dict[str, Any]]) -> None:
    """Calls the signatures through tf.saved_model.load and compares."""
    loaded = tf.saved_model.load(str(path))
    for i, (run, want) in enumerate(zip(runs, recorded, strict=True)):
        fn = loaded.signatures[run.signature]
        got = fn(**{k: tf.constant(v) for k, v in run.inputs.items()})
        for k, w in want.items():
            compare(got[k].numpy(), w, f"{path.name} run {i} output {k} (tf.saved_model.load)")


def describe_saved_model(path: Path) -> dict[str, Any]:
    sm = saved_model_pb2.SavedModel.FromString((path / "saved_model.pb").read_bytes())
    info: dict[str, Any] = {"tags": [list(m.meta_info_def.tags) for m in sm.meta_graphs]}
    mg = sm.meta_graphs[0]
    info["ops"], info["graph_ops"] = graph_op_types(mg.graph_def)
    info["num_graph_nodes"] = len(mg.graph_def.node)
    info["num_functions"] = len(mg.graph_def.library.function)
    info["signatures"] = {
        name: {
            "method_name": sig.method_name,
            "inputs": [tensor_info_json(k, sig.inputs[k]) for k in sorted(sig.inputs)],
            "outputs": [tensor_info_json(k, sig.outputs[k]) for k in sorted(sig.outputs)],
        }
        for name, sig in sorted(mg.signature_def.items())
    }
    if mg.HasField("saver_def"):
        sd = mg.saver_def
        info["saver"] = {
            "filename_tensor_name": sd.filename_tensor_name,
            "save_tensor_name": sd.save_tensor_name,
            "restore_op_name": sd.restore_op_name,
            "sharded": sd.sharded,
            "version": "V2" if sd.version == 2 else "V1",
        }
    else:
        info["saver"] = None
    info["collections"] = sorted(mg.collection_def)
    init_op = None
    where = None
    if "__saved_model_init_op" in mg.signature_def:
        init_op = mg.signature_def["__saved_model_init_op"].outputs["__saved_model_init_op"].name
        where = "signature_def __saved_model_init_op"
    for coll in ("saved_model_main_op", "legacy_init_op"):
        if init_op is None and coll in mg.collection_def:
            init_op = mg.collection_def[coll].node_list.value[0]
            where = f"collection {coll}"
    info["init_op"] = init_op
    info["init_op_collection"] = where
    assets = [(a, "asset_file_def") for a in mg.asset_file_def]
    if "saved_model_assets" in mg.collection_def:
        # TF1 builders keep AssetFileDefs in a collection of Any protos.
        for packed in mg.collection_def["saved_model_assets"].any_list.value:
            a = meta_graph_pb2.AssetFileDef()
            packed.Unpack(a)
            assets.append((a, "collection saved_model_assets"))
    info["assets"] = [
        {"tensor_name": a.tensor_info.name, "filename": a.filename, "where": where}
        for a, where in assets
    ]
    info["meta_graphs"] = [
        {
            "tags": list(m.meta_info_def.tags),
            "signatures": sorted(m.signature_def),
            "has_saver_def": m.HasField("saver_def"),
            "collections": sorted(m.collection_def),
            "num_graph_nodes": len(m.graph_def.node),
        }
        for m in sm.meta_graphs
    ]
    return info


def record_saved_model(
    name: str,
    kind: str,
    description: str,
    runs: list[RunSpec],
    tags: list[str] | None = None,
    tf2: bool = True,
    notes: str = "",
) -> None:
    path = OUT / name
    tags = tags or ["serve"]
    recorded = run_v1_loader(path, tags, runs)
    if tf2:
        check_tf2(path, runs, recorded)
    io = path / "io"
    io.mkdir(exist_ok=True)
    run_json = []
    for i, (run, out) in enumerate(zip(runs, recorded, strict=True)):
        prefix = "" if i == 0 else f"run{i + 1}_"
        ins = {}
        for k, v in run.inputs.items():
            save_npy(io / f"{prefix}{k}.npy", v)
            ins[k] = f"io/{prefix}{k}.npy"
        outs = {}
        for k, v in out.items():
            save_npy(io / f"{prefix}out_{k}.npy", v)
            outs[k] = f"io/{prefix}out_{k}.npy"
        run_json.append({"signature": run.signature, "inputs": ins, "outputs": outs})
    info = describe_saved_model(path)
    manifest: dict[str, Any] = {
        "version": 1,
        "tensorflow": tf.__version__,
        "keras": keras.__version__,
        "name": name,
        "kind": kind,
        "format": "saved_model",
        "description": description,
        "default_tags": tags,
        **info,
        "runs": run_json,
        "rtol": RTOL,
        "atol": ATOL,
        "files": dir_sizes(path),
        "notes": notes,
    }
    (path / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"{name}: {sum(manifest['files'].values())} bytes, {len(info['ops'])} op types")


# --------------------------------------------------------------- models
@contextlib.contextmanager
def asset_dir() -> Iterator[Path]:
    """A scratch directory with a fixed name for asset source files: their
    original path ends up in the saved graph (a TF1 asset is a Const holding
    it), so a random temporary name would change the bytes on every run."""
    path = Path(tempfile.gettempdir()) / "tfe_gen_saved_model_assets"
    if path.exists():
        shutil.rmtree(path)
    path.mkdir()
    try:
        yield path
    finally:
        shutil.rmtree(path)


def seed(n: int) -> np.random.Generator:
    keras.utils.set_random_seed(n)
    tf.random.set_seed(n)
    return np.random.default_rng(n)


def randomize_weights(model: keras.Model, rng: np.random.Generator) -> None:
    """Replaces every weight with seeded values (moving variances positive),
    so that no layer is an identity (a fresh BatchNormalization is one)."""
    for w in model.weights:
        shape = tuple(w.shape)
        if "variance" in w.path:
            val = rng.uniform(0.5, 2.0, size=shape)
        elif "gamma" in w.path:
            val = rng.uniform(0.5, 1.5, size=shape)
        else:
            val = rng.normal(scale=0.4, size=shape)
        w.assign(val.astype(w.dtype))


def keras_mlp() -> None:
    rng = seed(1501)
    inp = keras.Input(shape=(16,), name="x")
    h = keras.layers.Dense(32, activation="relu", name="hidden1")(inp)
    h = keras.layers.Dense(16, activation="relu", name="hidden2")(h)
    out = keras.layers.Dense(4, activation="softmax", name="probs")(h)
    model = keras.Model(inp, out, name="mlp")
    randomize_weights(model, rng)
    path = fresh_dir(OUT / "keras_mlp")
    model.export(str(path), verbose=False)
    x = rng.normal(size=(3, 16)).astype(np.float32)
    got = run_v1_loader(path, ["serve"], [RunSpec("serving_default", {"x": x})])[0]
    compare(run_keras(model, x), got["output_0"], "keras_mlp vs keras")
    record_saved_model(
        "keras_mlp", "keras_export",
        "Keras 3 functional MLP 16-32-16-4 (Dense+relu, softmax) exported with model.export().",
        [RunSpec("serving_default", {"x": x}), RunSpec("serve", {"x": x[:1]})],
    )


def run_keras(model: keras.Model, *xs: Any) -> Any:
    return np.asarray(model(*[tf.constant(x) for x in xs], training=False))


def keras_cnn_bn() -> None:
    rng = seed(1502)
    inp = keras.Input(shape=(8, 8, 3), name="image")
    h = keras.layers.Conv2D(8, 3, padding="same", name="conv1")(inp)
    h = keras.layers.BatchNormalization(name="bn1")(h)
    h = keras.layers.ReLU()(h)
    h = keras.layers.MaxPooling2D(2, name="maxpool")(h)
    h = keras.layers.Conv2D(12, 3, padding="valid", use_bias=False, name="conv2")(h)
    h = keras.layers.BatchNormalization(name="bn2")(h)
    h = keras.layers.Activation("relu")(h)
    h = keras.layers.AveragePooling2D(2, name="avgpool")(h)
    h = keras.layers.Flatten()(h)
    out = keras.layers.Dense(5, name="logits")(h)
    model = keras.Model(inp, out, name="cnn")
    randomize_weights(model, rng)
    path = fresh_dir(OUT / "keras_cnn_bn")
    model.export(str(path), verbose=False)
    x = rng.normal(size=(8, 8, 8, 3)).astype(np.float32)
    got = run_v1_loader(path, ["serve"], [RunSpec("serving_default", {"image": x})])[0]
    compare(run_keras(model, x), got["output_0"], "keras_cnn_bn vs keras")
    record_saved_model(
        "keras_cnn_bn", "keras_export",
        "Keras 3 CNN on 8x8x3 images: Conv2D(same)+BatchNormalization+ReLU, MaxPooling2D, "
        "Conv2D(valid, no bias)+BatchNormalization+relu, AveragePooling2D, Flatten, Dense(5). "
        "BatchNormalization moving statistics are random (not identity). Batch of 8.",
        [RunSpec("serving_default", {"image": x}), RunSpec("serving_default", {"image": x[:1]})],
    )


def keras_lstm() -> None:
    rng = seed(1503)
    inp = keras.Input(shape=(5, 4), name="seq")
    h = keras.layers.LSTM(6, return_sequences=True, name="lstm1")(inp)
    h = keras.layers.LSTM(6, name="lstm2")(h)
    out = keras.layers.Dense(3, name="head")(h)
    model = keras.Model(inp, out, name="lstm")
    randomize_weights(model, rng)
    path = fresh_dir(OUT / "keras_lstm")
    model.export(str(path), verbose=False)
    x = rng.normal(size=(2, 5, 4)).astype(np.float32)
    got = run_v1_loader(path, ["serve"], [RunSpec("serving_default", {"seq": x})])[0]
    compare(run_keras(model, x), got["output_0"], "keras_lstm vs keras")
    record_saved_model(
        "keras_lstm", "keras_export",
        "Keras 3 two stacked LSTM(6) layers (the first returns sequences) over 5 steps of 4 "
        "features, then Dense(3). Each LSTM is a While loop over TensorLists.",
        [RunSpec("serving_default", {"seq": x})],
    )


def keras_transformer() -> None:
    rng = seed(1504)
    dim, heads, seq_len, vocab = 16, 2, 6, 40
    tokens = keras.Input(shape=(seq_len,), dtype="int32", name="tokens")
    emb = keras.layers.Embedding(vocab, dim, name="embed")(tokens)
    attn = keras.layers.MultiHeadAttention(heads, dim // heads, dropout=0.1, name="mha")(emb, emb)
    attn = keras.layers.Dropout(0.1)(attn)
    h = keras.layers.LayerNormalization(epsilon=1e-6, name="ln1")(keras.layers.Add()([emb, attn]))
    ff = keras.layers.Dense(32, activation="relu", name="ff1")(h)
    ff = keras.layers.Dense(dim, name="ff2")(ff)
    ff = keras.layers.Dropout(0.1)(ff)
    h = keras.layers.LayerNormalization(epsilon=1e-6, name="ln2")(keras.layers.Add()([h, ff]))
    pooled = keras.layers.GlobalAveragePooling1D()(h)
    out = keras.layers.Dense(2, name="cls")(pooled)
    model = keras.Model(tokens, out, name="encoder")
    randomize_weights(model, rng)
    path = fresh_dir(OUT / "keras_transformer")
    model.export(str(path), verbose=False)
    x = rng.integers(0, vocab, size=(3, seq_len)).astype(np.int32)
    got = run_v1_loader(path, ["serve"], [RunSpec("serving_default", {"tokens": x})])[0]
    compare(run_keras(model, x), got["output_0"], "keras_transformer vs keras")
    record_saved_model(
        "keras_transformer", "keras_export",
        "One Keras 3 transformer encoder block: Embedding(40,16) of int32 tokens, "
        "MultiHeadAttention(2 heads, key_dim 8, dropout 0.1), Dropout, residual Add, "
        "LayerNormalization, Dense(32, relu)+Dense(16) feed-forward, Dropout, residual, "
        "LayerNormalization, GlobalAveragePooling1D, Dense(2). Dropout is off at serving.",
        [RunSpec("serving_default", {"tokens": x})],
    )


class CondWhile(tf.Module):
    """A variable, a counter, tf.cond and tf.while_loop in one signature."""

    def __init__(self) -> None:
        super().__init__()
        self.scale = tf.Variable([1.5, -0.5, 2.0, 0.25], name="scale")
        self.calls = tf.Variable(0, dtype=tf.int64, name="calls")

    @tf.function(input_signature=[
        tf.TensorSpec([None, 4], tf.float32, name="x"),
        tf.TensorSpec([], tf.int32, name="n"),
    ])
    def run(self, x: tf.Tensor, n: tf.Tensor) -> dict[str, tf.Tensor]:
        self.calls.assign_add(1)
        scaled = x * self.scale
        total = tf.reduce_sum(scaled)
        picked = tf.cond(total > 0.0, lambda: tf.nn.relu(scaled), lambda: tf.abs(scaled) * 0.5)

        def body(i: tf.Tensor, acc: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
            return i + 1, acc * 0.5 + picked * tf.cast(i, tf.float32)

        _, acc = tf.while_loop(lambda i, acc: i < n, body, [tf.constant(0), tf.zeros_like(picked)])
        return {"y": acc, "calls": self.calls.read_value(), "total": total}

    @tf.function(input_signature=[])
    def read(self) -> dict[str, tf.Tensor]:
        return {"scale": self.scale.read_value(), "calls": self.calls.read_value()}


def module_cond_while() -> None:
    rng = seed(1505)
    mod = CondWhile()
    path = fresh_dir(OUT / "module_cond_while")
    tf.saved_model.save(
        mod, str(path), signatures={"serving_default": mod.run, "read": mod.read}
    )
    # Every product x*scale is positive in the first run (the cond's true
    # branch) and negative in the second (its false branch).
    x = (np.abs(rng.normal(size=(2, 4))) * np.sign(mod.scale.numpy())).astype(np.float32)
    neg = -x
    record_saved_model(
        "module_cond_while", "tf_module",
        "tf.Module with two variables (float32 scale[4], int64 call counter) and two "
        "signatures: serving_default(x[?,4] float32, n int32) increments the counter "
        "(AssignAddVariableOp), takes tf.cond on the sign of sum(x*scale) and runs a "
        "tf.while_loop n times; read() returns both variables. Stateful: the runs must be "
        "replayed in order in one session.",
        [
            RunSpec("serving_default", {"x": x, "n": np.int32(5)}),
            RunSpec("serving_default", {"x": neg, "n": np.int32(3)}),
            RunSpec("serving_default", {"x": x, "n": np.int32(0)}),
            RunSpec("read", {}),
        ],
        tf2=False,
        notes="The 'calls' output counts the calls in the session: 1, 2, 3, then read() "
        "returns 3. Checked against tf.saved_model.load separately (same order).",
    )
    # The same run order through the TF2 loader.
    loaded = tf.saved_model.load(str(path))
    f = loaded.signatures["serving_default"]
    first = f(x=tf.constant(x), n=tf.constant(5))
    want = np.load(path / "io" / "out_y.npy")
    compare(first["y"].numpy(), want, "module_cond_while tf2 loader")


class Strings(tf.Module):
    """String processing and two lookup tables (one from a vocabulary asset)."""

    def __init__(self, vocab_file: str) -> None:
        super().__init__()
        keys = tf.constant(["the", "quick", "brown", "fox", "dog", "lazy"])
        vals = tf.constant([0, 1, 2, 3, 4, 5], dtype=tf.int64)
        self.word_ids = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(keys, vals), default_value=-1
        )
        self.vocab = tf.lookup.StaticHashTable(
            tf.lookup.TextFileInitializer(
                vocab_file,
                tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
                tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER,
            ),
            default_value=-1,
        )
        self.id_to_word = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(vals, keys), default_value="<unk>"
        )

    @tf.function(input_signature=[
        tf.TensorSpec([None], tf.string, name="text"),
        tf.TensorSpec([None], tf.string, name="numbers"),
    ])
    def process(self, text: tf.Tensor, numbers: tf.Tensor) -> dict[str, tf.Tensor]:
        lower = tf.strings.lower(text)
        upper = tf.strings.upper(text)
        cleaned = tf.strings.regex_replace(lower, r"[^a-z0-9 ]+", "")
        squeezed = tf.strings.regex_replace(cleaned, tf.constant(r" +"), tf.constant(" "))
        tokens = tf.strings.split(squeezed)
        lengths = tokens.row_lengths()
        word_ids = self.word_ids.lookup(tokens)
        vocab_ids = self.vocab.lookup(tokens)
        back = self.id_to_word.lookup(word_ids.flat_values)
        fast = tf.strings.to_hash_bucket_fast(tokens, 100)
        strong = tf.strings.to_hash_bucket_strong(squeezed, 1000, key=[7, 11])
        legacy = tf.strings.to_hash_bucket(squeezed, 50)
        starts_the = tf.strings.regex_full_match(lower, r"the\b.*")
        has_digit = tf.strings.regex_full_match(text, tf.constant(r".*[0-9].*"))
        joined_tokens = tf.strings.reduce_join(tokens, axis=-1, separator="|")
        dense_join = tf.strings.reduce_join(
            tf.reshape(tf.strings.substr(squeezed, 0, 2), [-1, 1]), axis=1, separator="")
        joined = tf.strings.join([squeezed, tf.strings.as_string(lengths)], separator="#")
        prefix = tf.strings.substr(text, 0, 4)
        utf8_prefix = tf.strings.substr(text, 0, 3, unit="UTF8_CHAR")
        values = tf.strings.to_number(numbers, out_type=tf.float32)
        ints = tf.cast(values, tf.int64)
        as_str = tf.strings.as_string(values, precision=2)
        fmt = tf.strings.format("n={} first={}", (tf.size(text), values[0]))
        codepoints = tf.strings.unicode_decode(text, "UTF-8")
        cps, offsets = tf.strings.unicode_decode_with_offsets(text, "UTF-8")
        reencoded = tf.strings.unicode_encode(codepoints, "UTF-8")
        str_len = tf.strings.length(text, unit="UTF8_CHAR")
        return {
            "lower": lower,
            "upper": upper,
            "cleaned": squeezed,
            "tokens": tokens.to_tensor(default_value=""),
            "token_counts": lengths,
            "word_ids": word_ids.to_tensor(default_value=-2),
            "vocab_ids": vocab_ids.to_tensor(default_value=-2),
            "id_words": back,
            "table_size": self.word_ids.size() + self.vocab.size(),
            "hash_fast": fast.to_tensor(default_value=-1),
            "hash_strong": strong,
            "hash_legacy": legacy,
            "starts_the": starts_the,
            "has_digit": has_digit,
            "joined_tokens": joined_tokens,
            "dense_join": dense_join,
            "joined": joined,
            "prefix": prefix,
            "utf8_prefix": utf8_prefix,
            "values": values,
            "ints": ints,
            "as_string": as_str,
            "formatted": fmt,
            "codepoints": codepoints.to_tensor(default_value=-1),
            "offsets": offsets.to_tensor(default_value=-1),
            "cps_total": tf.reduce_sum(cps.flat_values),
            "reencoded": reencoded,
            "char_lengths": str_len,
        }


def strings() -> None:
    seed(1506)
    path = fresh_dir(OUT / "strings")
    with asset_dir() as tmp:
        vocab = tmp / "vocab.txt"
        vocab.write_text("".join(w + "\n" for w in
                                 ["<pad>", "the", "over", "jumps", "fox", "quick", "a", "dog"]))
        mod = Strings(str(vocab))
        tf.saved_model.save(mod, str(path), signatures={"serving_default": mod.process})
    text = np.array([
        b"The quick brown fox!!",
        b"jumps   over the LAZY dog 42",
        b"",
        "Caf\u00e9 \u00fcber  na\u00efve".encode(),
        b"a",
    ], dtype=object)
    numbers = np.array([b"3.25", b"-7", b"1e3", b"0.5", b"12"], dtype=object)
    record_saved_model(
        "strings", "tf_module",
        "tf.Module signature doing string processing on text[?] and numbers[?] (strings): "
        "lower/upper, static and dynamic regex replace and full match, split (ragged, "
        "returned densified), three StaticHashTables (KeyValueTensorInitializer string->int64 "
        "and int64->string, TextFileInitializer over the vocabulary asset assets/vocab.txt), "
        "hash buckets (fast, strong, legacy), reduce_join over ragged and dense, join, "
        "substr (bytes and UTF8_CHAR), to_number, as_string, format, unicode decode/encode, "
        "length. All outputs are dense.",
        [RunSpec("serving_default", {"text": text, "numbers": numbers})],
        notes="The TextFileInitializer's file is an asset: the graph reads its path from the "
        "asset_file_def tensor; the TF2 loader initializes tables in the "
        "__saved_model_init_op.",
    )


def tf1_graph_linear(rng: np.random.Generator) -> tuple[Any, Any, Any, Any]:
    """x[?,3] -> relu(x @ W + b) and its row sums, with ref (non-resource)
    variables; returns (x, y, row sums, (W, b))."""
    x = v1.placeholder(tf.float32, [None, 3], name="x")
    w = v1.Variable(rng.normal(size=(3, 2)).astype(np.float32), name="W", use_resource=False)
    b = v1.Variable(rng.normal(size=(2,)).astype(np.float32), name="b", use_resource=False)
    y = tf.nn.relu(tf.matmul(x, w) + b, name="y")
    s = tf.reduce_sum(y, axis=1, name="row_sum")
    return x, y, s, (w, b)


def tf1_simple_save() -> None:
    rng = seed(1507)
    path = fresh_dir(OUT / "tf1_simple_save")
    graph = tf.Graph()
    with graph.as_default(), v1.Session(graph=graph) as sess:
        x, y, s, _ = tf1_graph_linear(rng)
        sess.run(v1.global_variables_initializer())
        v1.saved_model.simple_save(sess, str(path), inputs={"x": x}, outputs={"y": y, "sum": s})
    xv = rng.normal(size=(4, 3)).astype(np.float32)
    record_saved_model(
        "tf1_simple_save", "tf1_simple_save",
        "TF1 graph (tf.compat.v1) x[?,3] -> relu(x @ W + b) and its row sums, with ref "
        "variables (VariableV2, Assign), saved with tf.compat.v1.saved_model.simple_save.",
        [RunSpec("serving_default", {"x": xv})],
        tf2=False,
        notes="The Saver's restore op save/restore_all runs RestoreV2 and Assign on the ref "
        "variables; the checkpoint prefix is fed into save/Const:0. No init op.",
    )


def tf1_builder() -> None:
    rng = seed(1508)
    path = fresh_dir(OUT / "tf1_builder")
    with asset_dir() as tmp:
        vocab = tmp / "labels.txt"
        vocab.write_text("cat\ndog\nbird\nfish\n")
        graph = tf.Graph()
        with graph.as_default(), v1.Session(graph=graph) as sess:
            x, y, _, _ = tf1_graph_linear(rng)
            step = v1.Variable(0, dtype=tf.int64, name="global_step", use_resource=False,
                               trainable=False)
            hits = v1.Variable(10, dtype=tf.int32, name="hits",
                               collections=[v1.GraphKeys.LOCAL_VARIABLES], use_resource=False)
            # TextFileInitializer puts a Const filename into the
            # ASSET_FILEPATHS collection itself; the builder turns it into
            # an AssetFileDef (in the saved_model_assets collection).
            asset = tf.constant(str(vocab), name="labels_path")
            table = v1.lookup.StaticHashTable(
                tf.lookup.TextFileInitializer(
                    asset, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
                    tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER),
                default_value=-1, name="labels")
            words = v1.placeholder(tf.string, [None], name="words")
            ids = tf.identity(table.lookup(words), name="ids")
            best = tf.argmax(y, axis=1, name="best")
            hits_now = tf.identity(hits, name="hits_now")
            sess.run(v1.global_variables_initializer())
            sess.run(step.assign(42))
            sess.run(v1.tables_initializer())
            sess.run(v1.local_variables_initializer())
            legacy = tf.group(v1.tables_initializer(), v1.local_variables_initializer(),
                              name="legacy_init_op")
            builder = v1.saved_model.builder.SavedModelBuilder(str(path))
            sig = v1.saved_model.signature_def_utils.predict_signature_def(
                inputs={"x": x, "words": words},
                outputs={"y": y, "best": best, "ids": ids, "step": tf.identity(step),
                         "hits": hits_now})
            cls = v1.saved_model.signature_def_utils.build_signature_def(
                inputs={"inputs": v1.saved_model.utils.build_tensor_info(words)},
                outputs={"ids": v1.saved_model.utils.build_tensor_info(ids)},
                method_name="tensorflow/serving/classify")
            builder.add_meta_graph_and_variables(
                sess, ["serve"],
                signature_def_map={"serving_default": sig, "lookup": cls},
                assets_collection=v1.get_collection(v1.GraphKeys.ASSET_FILEPATHS),
                legacy_init_op=legacy,
                clear_devices=True,
            )
            builder.add_meta_graph(["train"], signature_def_map={"lookup": cls},
                                   clear_devices=True)
            builder.save()
    xv = rng.normal(size=(3, 3)).astype(np.float32)
    words_v = np.array([b"dog", b"fish", b"cow", b"cat"], dtype=object)
    record_saved_model(
        "tf1_builder", "tf1_builder",
        "TF1 graph saved with tf.compat.v1.saved_model.builder.SavedModelBuilder: the "
        "linear+relu of tf1_simple_save (ref variables), an int64 global_step ref variable "
        "saved as 42, a LOCAL int32 variable 'hits' (not in the checkpoint; set to 10 by the "
        "init op), and a HashTableV2 initialized from the asset assets/labels.txt by the "
        "legacy init op (stored by the builder as saved_model_main_op). Two MetaGraphs: "
        "tags ['serve'] (signatures serving_default and lookup, classify method) and "
        "['train'] (lookup only, no variables of its own).",
        [RunSpec("serving_default", {"x": xv, "words": words_v}),
         RunSpec("lookup", {"inputs": words_v[::-1].copy()})],
        tf2=False,
        notes="asset_file_def maps the Const labels_path:0 to labels.txt: the loader feeds "
        "<export_dir>/assets/labels.txt into that tensor when it runs the init op.",
    )


def frozen_graph() -> None:
    rng = seed(1509)
    inp = keras.Input(shape=(6, 6, 2), name="pixels")
    h = keras.layers.Conv2D(4, 3, activation="relu", name="conv")(inp)
    h = keras.layers.GlobalMaxPooling2D()(h)
    out = keras.layers.Dense(3, activation="softmax", name="probs")(h)
    model = keras.Model(inp, out)
    randomize_weights(model, rng)
    fn = tf.function(lambda p: model(p, training=False))
    concrete = fn.get_concrete_function(tf.TensorSpec([None, 6, 6, 2], tf.float32, name="pixels"))
    frozen = convert_variables_to_constants_v2(concrete)
    gd = frozen.graph.as_graph_def()
    path = fresh_dir(OUT / "frozen_graph")
    path.mkdir(parents=True)
    (path / "model.pb").write_bytes(gd.SerializeToString(deterministic=True))
    in_name = frozen.inputs[0].name
    out_name = frozen.outputs[0].name
    x = rng.normal(size=(4, 6, 6, 2)).astype(np.float32)
    graph = tf.Graph()
    with graph.as_default():
        tf.graph_util.import_graph_def(
            tf.compat.v1.GraphDef.FromString((path / "model.pb").read_bytes()), name="")
    with v1.Session(graph=graph) as sess:
        y = sess.run(out_name, {in_name: x})
    compare(run_keras(model, x), y, "frozen_graph vs keras")
    io = path / "io"
    io.mkdir()
    save_npy(io / "pixels.npy", x)
    save_npy(io / "out_output_0.npy", y)
    ops, own = graph_op_types(gd)
    manifest = {
        "version": 1,
        "tensorflow": tf.__version__,
        "keras": keras.__version__,
        "name": "frozen_graph",
        "kind": "frozen_graph",
        "format": "graphdef",
        "graph_file": "model.pb",
        "description": "Keras 3 Conv2D(4, relu) + GlobalMaxPooling2D + Dense(3, softmax) on "
        "6x6x2 inputs, its concrete function frozen by convert_variables_to_constants_v2 "
        "(weights are Const nodes, no variables, no function library).",
        "tags": [],
        "default_tags": [],
        "signatures": {
            "serving_default": {
                "method_name": "",
                "inputs": [{"key": "pixels", "name": in_name, "dtype": "float32",
                            "shape": [-1, 6, 6, 2]}],
                "outputs": [{"key": "output_0", "name": out_name, "dtype": "float32",
                             "shape": [-1, 3]}],
            }
        },
        "runs": [{"signature": "serving_default", "inputs": {"pixels": "io/pixels.npy"},
                  "outputs": {"output_0": "io/out_output_0.npy"}}],
        "rtol": RTOL,
        "atol": ATOL,
        "ops": ops,
        "graph_ops": own,
        "num_graph_nodes": len(gd.node),
        "num_functions": len(gd.library.function),
        "saver": None,
        "init_op": None,
        "init_op_collection": None,
        "assets": [],
        "collections": [],
        "files": dir_sizes(path),
        "notes": "Import with TF_GraphImportGraphDef (empty prefix) and run by tensor name.",
    }
    (path / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"frozen_graph: {(path / 'model.pb').stat().st_size} bytes, {len(ops)} op types")


# ----------------------------------------------------------- checkpoints
def tensor_json(value: Any) -> dict[str, Any]:
    arr = np.asarray(value)
    if arr.dtype.kind in "OSU":
        flat = [v.decode("latin-1") if isinstance(v, bytes) else str(v) for v in arr.reshape(-1)]
        return {"dtype": "string", "shape": list(arr.shape),
                "value": np.array(flat, dtype=object).reshape(arr.shape).tolist(),
                "encoding": "latin-1"}
    if arr.dtype.kind == "c":
        return {"dtype": arr.dtype.name, "shape": list(arr.shape),
                "value": [[float(z.real), float(z.imag)] for z in arr.reshape(-1)],
                "layout": "flat [re, im] pairs"}
    if arr.dtype.name == "bfloat16":
        return {"dtype": "bfloat16", "shape": list(arr.shape),
                "value": arr.astype(np.float32).tolist()}
    return {"dtype": arr.dtype.name, "shape": list(arr.shape), "value": arr.tolist()}


def v1_tensors() -> dict[str, Any]:
    return {
        "f32": np.arange(6, dtype=np.float32).reshape(2, 3) * 0.5 - 1.25,
        "f64": np.array([1.5, -2.25, 1e300, 0.0], dtype=np.float64),
        "i32": np.array([-7, 0, 2147483647, -2147483648], dtype=np.int32),
        "i64": np.array([[-(2**40)], [2**62]], dtype=np.int64),
        "i16": np.array([-32768, 32767, 5], dtype=np.int16),
        "i8": np.array([-128, 127], dtype=np.int8),
        "u8": np.array([0, 255, 7], dtype=np.uint8),
        "b": np.array([True, False, True], dtype=np.bool_),
        "s": np.array([b"hello", b"", b"\xc3\xa9t\xc3\xa9", b"x" * 100], dtype=object),
        "c64": np.array([1 + 2j, -3.5j], dtype=np.complex64),
        "c128": np.array([0.5 - 1j], dtype=np.complex128),
        "h": np.array([1.0, -0.5, 65504.0], dtype=np.float16),
        "scalar": np.array(42.0, dtype=np.float32),
        "empty": np.zeros((0, 2), dtype=np.float32),
        "big": (np.arange(1000, dtype=np.float32) * 0.125).reshape(20, 50),
    }


def restore_case(pattern: str, name: str, spec: str, dtype: Any) -> dict[str, Any]:
    if spec:
        val = tf.raw_ops.RestoreSlice(file_pattern=pattern, tensor_name=name,
                                      shape_and_slice=spec, dt=dtype)
    else:
        val = tf.raw_ops.Restore(file_pattern=pattern, tensor_name=name, dt=dtype)
    return val.numpy()


def core_message(message: str, directory: Path) -> str:
    """An eager op error's text without the wrapper-function prefix, the
    trailing ' [Op:Name]' and the output directory."""
    message = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", message)
    message = re.sub(r"\s*\[Op:\w+\]$", "", message)
    return message.replace(str(directory) + "/", "")


def checkpoints_v1() -> None:
    out = fresh_dir(CKPT_V1)
    out.mkdir(parents=True)
    tensors = v1_tensors()
    names = sorted(tensors)
    # 1. Save: every tensor whole, one file.
    whole = out / "whole.ckpt"
    tf.raw_ops.Save(filename=str(whole), tensor_names=names,
                    data=[tf.constant(tensors[n]) for n in names])
    # 2. SaveSlices: a 4x6 float tensor "part" written as two row blocks into two
    # files, plus a column block of "cols" and a whole "full" int64 in the first.
    part = (np.arange(24, dtype=np.float32) - 10).reshape(4, 6)
    cols = np.arange(15, dtype=np.int32).reshape(3, 5)
    full = np.array([5, -5, 2**50], dtype=np.int64)
    tf.raw_ops.SaveSlices(
        filename=str(out / "sliced-00000-of-00002"),
        tensor_names=["part", "cols", "full"],
        shapes_and_slices=["4 6 0,2:-", "3 5 -:1,3", ""],
        data=[tf.constant(part[0:2]), tf.constant(cols[:, 1:4]), tf.constant(full)],
    )
    tf.raw_ops.SaveSlices(
        filename=str(out / "sliced-00001-of-00002"),
        tensor_names=["part"],
        shapes_and_slices=["4 6 2,2:-"],
        data=[tf.constant(part[2:4])],
    )
    cases: list[dict[str, Any]] = []
    for n in names:
        t = tensors[n]
        dt = tf.constant(t).dtype
        got = restore_case(str(whole), n, "", dt)
        compare(got, t, f"v1 restore {n}")
        cases.append({"file_pattern": "whole.ckpt", "tensor_name": n, "shape_and_slice": "",
                      "expected": tensor_json(got)})
    sliced_reads = [
        ("sliced-*", "part", "", tf.float32, part),
        ("sliced-*", "part", "4 6 1,2:2,3", tf.float32, part[1:3, 2:5]),
        ("sliced-00000-of-00002", "part", "4 6 0,2:-", tf.float32, part[0:2]),
        ("sliced-*", "cols", "3 5 -:1,3", tf.int32, cols[:, 1:4]),
        ("sliced-*", "cols", "3 5 1,1:2,1", tf.int32, cols[1:2, 2:3]),
        ("sliced-*", "full", "", tf.int64, full),
        ("sliced-*", "full", "3 1,2", tf.int64, full[1:3]),
        ("whole.ckpt", "big", "20 50 10,5:40,10", tf.float32, tensors["big"][10:15, 40:50]),
    ]
    for pattern, n, spec, dt, want in sliced_reads:
        got = restore_case(str(out / pattern), n, spec, dt)
        compare(got, want, f"v1 restore {pattern} {n} {spec}")
        cases.append({"file_pattern": pattern, "tensor_name": n, "shape_and_slice": spec,
                      "expected": tensor_json(got)})
    errors = []
    for pattern, n, spec, dt in [
        ("sliced-00000-of-00002", "part", "", tf.float32),  # half of it is in the other file
        ("whole.ckpt", "nope", "", tf.float32),
        ("whole.ckpt", "f32", "", tf.int32),
        ("missing-*", "f32", "", tf.float32),
    ]:
        try:
            restore_case(str(out / pattern), n, spec, dt)
        except tf.errors.OpError as e:
            errors.append({"file_pattern": pattern, "tensor_name": n, "shape_and_slice": spec,
                           "dtype": dt.name, "code": e.error_code, "error": type(e).__name__,
                           "message": core_message(e.message, out)})
        else:
            raise AssertionError(f"v1 restore {pattern} {n} should fail")
    expected = {
        "version": 1,
        "tensorflow": tf.__version__,
        "description": "TF1 (V1, tensor-slice table) checkpoints: whole.ckpt from the Save op "
        "with every tensor in 'tensors'; sliced-0000{0,1}-of-00002 from two SaveSlices calls "
        "('part' 4x6 float32 split by rows over the two files, 'cols' 3x5 int32 with only "
        "columns 1..3 saved, 'full' int64 whole). 'restores' are Restore (empty spec) or "
        "RestoreSlice results TF gave; 'errors' are calls TF refused (messages with the "
        "directory removed).",
        "tensors": {n: tensor_json(tensors[n]) for n in names},
        "restores": cases,
        "errors": errors,
        "files": {p.name: p.stat().st_size for p in sorted(out.iterdir())
                  if p.name != "expected.json"},
    }
    (out / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(f"checkpoints_v1: {sum(expected['files'].values())} bytes")


def checkpoints_sliced() -> None:
    out = fresh_dir(CKPT_SLICED)
    out.mkdir(parents=True)
    w = (np.arange(20, dtype=np.float32) * 0.5).reshape(5, 4)
    e = np.arange(12, dtype=np.int64).reshape(6, 2) - 3
    prefix = str(out / "ckpt")
    # One SaveV2 call holds every slice (as tf.compat.v1 Saver does for a
    # partitioned variable on one device): 'w' in rows 0..1 / 2..4, 'e' in
    # three row blocks, plus a plain tensor.
    tf.raw_ops.SaveV2(
        prefix=prefix,
        tensor_names=["w", "w", "e", "e", "e", "plain"],
        shape_and_slices=["5 4 0,2:-", "5 4 2,3:-", "6 2 0,2:-", "6 2 2,2:-", "6 2 4,2:-", ""],
        tensors=[tf.constant(w[0:2]), tf.constant(w[2:5]), tf.constant(e[0:2]),
                 tf.constant(e[2:4]), tf.constant(e[4:6]), tf.constant([1.0, 2.0])],
    )
    reads = [
        ("w", "", tf.float32, w),
        ("w", "5 4 0,2:-", tf.float32, w[0:2]),
        ("w", "5 4 1,3:1,2", tf.float32, w[1:4, 1:3]),
        ("e", "", tf.int64, e),
        ("e", "6 2 3,2:-", tf.int64, e[3:5]),
        ("e", "6 2 -:1,1", tf.int64, e[:, 1:2]),
        ("plain", "", tf.float32, np.array([1.0, 2.0], np.float32)),
    ]
    cases = []
    for n, spec, dt, want in reads:
        got = tf.raw_ops.RestoreV2(prefix=prefix, tensor_names=[n], shape_and_slices=[spec],
                                   dtypes=[dt])[0].numpy()
        compare(got, want, f"sliced {n} {spec}")
        cases.append({"tensor_name": n, "shape_and_slice": spec, "expected": tensor_json(got)})
    reader = tf.train.load_checkpoint(prefix)
    expected = {
        "version": 1,
        "tensorflow": tf.__version__,
        "description": "V2 checkpoint from one SaveV2 call with slice specs: 'w' (5x4 float32) "
        "saved as row blocks 0..1 and 2..4, 'e' (6x2 int64) as three row blocks, 'plain' "
        "whole. 'restores' are RestoreV2 results (one tensor per call) TF gave.",
        "shapes": {k: list(v) for k, v in sorted(reader.get_variable_to_shape_map().items())},
        "restores": cases,
        "files": {p.name: p.stat().st_size for p in sorted(out.iterdir())
                  if p.name != "expected.json"},
    }
    (out / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(f"checkpoints/sliced: {sum(expected['files'].values())} bytes")


MODELS: list[Callable[[], None]] = [
    keras_mlp, keras_cnn_bn, keras_lstm, keras_transformer, module_cond_while, strings,
    tf1_simple_save, tf1_builder, frozen_graph,
]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for make in MODELS:
        keras.backend.clear_session()
        make()
    checkpoints_v1()
    checkpoints_sliced()


if __name__ == "__main__":
    main()
