"""tfe_py.saved_model and ``python -m tfe_py saved-model`` on the SavedModels
TF 2.21 exported (tests/data/saved_models, made by
tools/gen_saved_model_data.py): every recorded run is replayed in one
loaded model, in order, and compared with the outputs TF gave."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tfe_py
from tfe_py import errors, saved_model
from tfe_py import io as tio

DATA = Path(__file__).resolve().parents[1] / "data" / "saved_models"
MODELS = sorted(
    p.name for p in DATA.iterdir() if (p / "manifest.json").is_file()
)  # fmt: skip
SAVED_MODELS = [
    m for m in MODELS if json.loads((DATA / m / "manifest.json").read_text())["format"]
    == "saved_model"
]  # fmt: skip


def manifest(name: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads((DATA / name / "manifest.json").read_text())
    return result


def load_npy(name: str, rel: str) -> Any:
    return np.load(DATA / name / rel, allow_pickle=True)


def assert_matches(m: dict[str, Any], got: Any, want: Any, what: str) -> None:
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(
            got, want, rtol=m.get("rtol", 1e-5), atol=m.get("atol", 1e-6), err_msg=what
        )
    elif want.dtype.kind == "O" or got.dtype.kind == "O":
        assert [bytes(x) if not isinstance(x, bytes) else x for x in got.ravel()] == [
            x if isinstance(x, bytes) else str(x).encode() for x in want.ravel()
        ], what
    else:
        assert got.dtype == want.dtype, f"{what}: dtype {got.dtype} != {want.dtype}"
        np.testing.assert_array_equal(got, want, err_msg=what)


@pytest.mark.parametrize("name", SAVED_MODELS)
def test_model_replays_tf_outputs(name: str) -> None:
    m = manifest(name)
    with saved_model.load(DATA / name, m["default_tags"]) as model:
        assert sorted(model.tags) == sorted(m["default_tags"])
        for i, run in enumerate(m["runs"]):
            sig = model.signatures[run["signature"]]
            feeds = {k: load_npy(name, f) for k, f in run["inputs"].items()}
            out = sig(**feeds)
            assert set(out) == set(run["outputs"]), f"run {i}"
            for key, rel in run["outputs"].items():
                assert_matches(m, out[key], load_npy(name, rel), f"{name} run {i} {key}")


@pytest.mark.parametrize("name", SAVED_MODELS)
def test_signature_metadata_matches_manifest(name: str) -> None:
    m = manifest(name)
    with saved_model.load(DATA / name, m["default_tags"]) as model:
        want = {k for k in m["signatures"] if k != saved_model.INIT_OP_SIGNATURE_KEY}
        assert set(model.signatures) == want
        for sig_name, sig in model.signatures.items():
            spec = m["signatures"][sig_name]
            assert sig.method_name == spec["method_name"]
            for title, got in (("inputs", sig.inputs), ("outputs", sig.outputs)):
                assert set(got) == {e["key"] for e in spec[title]}
                for e in spec[title]:
                    info = got[e["key"]]
                    assert info.name == e["name"]
                    assert info.dtype == e["dtype"]
                    want_shape = (
                        None if e["shape"] is None
                        else tuple(None if d < 0 else d for d in e["shape"])
                    )  # fmt: skip
                    assert info.shape == want_shape
        assert "SavedModel" in repr(model)


def test_frozen_graph_through_graph_import() -> None:
    m = manifest("frozen_graph")
    g = tfe_py.Graph()
    g.import_graph_def((DATA / "frozen_graph" / m["graph_file"]).read_bytes(), name="")
    run = m["runs"][0]
    sig = m["signatures"][run["signature"]]
    feeds = {
        g.get_tensor_by_name(e["name"]): load_npy("frozen_graph", run["inputs"][e["key"]])
        for e in sig["inputs"]
    }
    fetches = {e["key"]: g.get_tensor_by_name(e["name"]) for e in sig["outputs"]}
    with tfe_py.Session(g) as sess:
        out = sess.run(fetches, feeds)
    for key, rel in run["outputs"].items():
        assert_matches(m, out[key], load_npy("frozen_graph", rel), key)


def test_errors_are_tf_error_classes(tmp_path: Path) -> None:
    with pytest.raises(errors.NotFoundError):
        saved_model.load(tmp_path / "nothing-here")
    with pytest.raises(errors.NotFoundError, match="gpu"):
        saved_model.load(DATA / "keras_mlp", ["serve", "gpu"])
    (tmp_path / "saved_model.pb").write_bytes(b"\xff\xff\xff")
    with pytest.raises(errors.OpError):
        saved_model.load(tmp_path)


def test_bad_signature_arguments() -> None:
    with saved_model.load(DATA / "keras_mlp") as model:
        sig = model.signatures["serving_default"]
        x = np.ones((2, 16), np.float32)
        with pytest.raises(TypeError, match="unexpected"):
            sig(x=x, y=x)
        with pytest.raises(TypeError, match="missing"):
            sig()
        with pytest.raises(ValueError, match="shape"):  # as tf.compat.v1.Session
            sig(x=np.ones((2, 5), np.float32))  # wrong inner dimension
        assert sig(x=x)["output_0"].shape == (2, 4)


def test_close_and_context_manager() -> None:
    model = saved_model.load(DATA / "keras_mlp", "serve")
    assert not model.closed
    model.close()
    model.close()
    assert model.closed
    with pytest.raises(RuntimeError):
        model.signatures["serving_default"](x=np.ones((1, 16), np.float32))


def test_load_from_ram_filesystem() -> None:
    src = DATA / "keras_mlp"
    dst = "ram://saved_model_py/keras_mlp"
    try:
        for path in src.rglob("*"):
            if path.is_file():
                rel = path.relative_to(src).as_posix()
                with tio.GFile(f"{dst}/{rel}", "wb") as f:
                    f.write(path.read_bytes())
        m = manifest("keras_mlp")
        run = m["runs"][0]
        with saved_model.load(dst) as model:
            out = model.signatures[run["signature"]](x=load_npy("keras_mlp", run["inputs"]["x"]))
        assert_matches(m, out["output_0"], load_npy("keras_mlp", run["outputs"]["output_0"]), "ram")
    finally:
        tio.rmtree("ram://saved_model_py")


def test_read_meta_graphs_lists_every_tag_set() -> None:
    metas = saved_model.read_meta_graphs(DATA / "tf1_builder")
    assert sorted(saved_model.meta_graph_tags(m) for m in metas) == [("serve",), ("train",)]
    ops, functions = saved_model.model_ops(metas[0])
    assert "RestoreV2" in ops and "Placeholder" in ops
    assert isinstance(functions, set)
    assert "MatMul" in saved_model.registered_kernel_ops("CPU")


# ---------------------------------------------------------------- the CLI


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    return subprocess.run(
        [sys.executable, "-m", "tfe_py", "saved-model", *args],
        capture_output=True, text=True, check=False, timeout=300, env=env,
    )  # fmt: skip


@pytest.mark.parametrize("name", SAVED_MODELS)
def test_cli_show(name: str) -> None:
    m = manifest(name)
    tag_set = ",".join(m["default_tags"])
    proc = cli("show", str(DATA / name), "--tag-set", tag_set)
    assert proc.returncode == 0, proc.stderr
    for tags in m["tags"]:
        assert f"tag-set: {','.join(tags)}" in proc.stdout
    for sig_name, spec in m["signatures"].items():
        assert f"signature {sig_name!r}" in proc.stdout
        if sig_name != saved_model.INIT_OP_SIGNATURE_KEY:
            for e in spec["inputs"] + spec["outputs"]:
                assert f"tensor {e['name']}" in proc.stdout
    assert "tfe has CPU kernels for every op the model uses" in proc.stdout


def test_cli_show_several_tag_sets_and_bad_tag_set() -> None:
    proc = cli("show", str(DATA / "tf1_builder"))
    assert proc.returncode == 0, proc.stderr
    assert "--tag-set" in proc.stdout
    proc = cli("show", str(DATA / "tf1_builder"), "--tag-set", "nope")
    assert proc.returncode == 1
    assert "nope" in proc.stderr


@pytest.mark.parametrize("name", SAVED_MODELS)
def test_cli_run_saves_tf_outputs(name: str, tmp_path: Path) -> None:
    m = manifest(name)
    run = m["runs"][0]
    args = ["run", str(DATA / name), "--tag-set", ",".join(m["default_tags"])]
    args += ["--signature", run["signature"], "--output-dir", str(tmp_path)]
    for key, rel in run["inputs"].items():
        arr = load_npy(name, rel)
        if arr.dtype.kind == "O":  # string inputs: .npy without pickles
            arr = arr.astype(bytes)
        path = tmp_path / f"in_{key}.npy"
        np.save(path, arr, allow_pickle=False)
        args += ["--input", f"{key}={path}"]
    proc = cli(*args)
    assert proc.returncode == 0, proc.stderr
    for key, rel in run["outputs"].items():
        got = np.load(tmp_path / f"{key}.npy", allow_pickle=False)
        assert_matches(m, got, load_npy(name, rel), f"cli {name} {key}")


def test_cli_run_prints_and_reports_errors(tmp_path: Path) -> None:
    x = tmp_path / "x.npy"
    np.save(x, np.ones((1, 16), np.float32))
    proc = cli("run", str(DATA / "keras_mlp"), "--input", f"x={x}")
    assert proc.returncode == 0, proc.stderr
    assert "output_0: float32[1, 4]" in proc.stdout
    proc = cli("run", str(DATA / "keras_mlp"), "--signature", "nope", "--input", f"x={x}")
    assert proc.returncode == 1 and "serving_default" in proc.stderr
    proc = cli("run", str(DATA / "keras_mlp"), "--input", "x")
    assert proc.returncode == 1 and "KEY=FILE.npy" in proc.stderr
    proc = cli("run", str(tmp_path / "missing"))
    assert proc.returncode == 1 and "NotFoundError" in proc.stderr
