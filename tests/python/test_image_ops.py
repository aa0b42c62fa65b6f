"""Image, ragged, linear-algebra and random ops of issue 15 (RaggedTensorToTensor,
NonMaxSuppressionV3/V4/V5, ResizeBicubic, ResizeArea, CropAndResize, Svd,
RandomUniformInt, Multinomial, StatelessRandomUniformIntV2,
StatelessRandomUniformFullIntV2, StatelessTruncatedNormalV2, the seed-based V1
stateless ops StatelessRandomUniform/Normal/UniformInt/UniformFullInt,
StatelessTruncatedNormal and StatelessMultinomial, DisableCopyOnRead)
against the results TensorFlow 2.21 gave (tests/data/image_cases.json, written
by tools/gen_image_cases.py), eagerly and in a graph run by a session."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest

import tfe_py
from tfe_py import errors, ops
from tfe_py.context import default_context
from tfe_py.eager import constant

DATA = pathlib.Path(__file__).resolve().parent.parent / "data" / "image_cases.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text())["cases"]
RTOL = 1e-5


@pytest.fixture(autouse=True)
def _default_exists() -> None:
    default_context()


def _array(spec: dict[str, Any]) -> np.ndarray:
    dt, shape, vals = spec["dtype"], spec["shape"], spec["values"]
    if dt == "string":
        return np.array([v.encode() for v in vals], dtype=object).reshape(shape)
    if dt in ("complex64", "complex128"):
        return np.array([complex(a, b) for a, b in vals], dtype=dt).reshape(shape)
    if dt == "bfloat16":
        return np.array([float(v) for v in vals], dtype=np.float32).reshape(shape)
    if dt in ("float16", "float32", "float64"):
        return np.array([float(v) for v in vals], dtype=dt).reshape(shape)
    return np.array(vals, dtype=dt).reshape(shape)


def _tensor(spec: dict[str, Any]) -> Any:
    t = constant(_array(spec))
    if spec["dtype"] == "bfloat16":
        t = ops.Cast(x=t, DstT="bfloat16")
    return t


def _inputs(c: dict[str, Any]) -> dict[str, Any]:
    return {
        k: ([_tensor(s) for s in v] if isinstance(v, list) else _tensor(v))
        for k, v in c["inputs"].items()
    }


def _numpy(t: Any, dt: str) -> np.ndarray:
    if dt == "bfloat16":
        t = ops.Cast(x=t, DstT="float32")
    return np.asarray(t.numpy())


def _same(got: np.ndarray, want: dict[str, Any], check: str) -> None:
    exp = _array(want)
    assert list(got.shape) == want["shape"]
    if want["dtype"] == "string":
        assert [bytes(x) for x in got.ravel()] == list(exp.ravel())
        return
    if want["dtype"] != "bfloat16":
        assert got.dtype == np.dtype(want["dtype"])
    if check == "close" and exp.dtype.kind in "fc":
        scale = max(float(np.max(np.abs(exp), initial=0.0)), 1e-30)
        tol = RTOL * scale if want["dtype"] not in ("float16", "bfloat16") else 4e-3 * scale
        np.testing.assert_allclose(got, exp, rtol=0, atol=tol)
    else:
        np.testing.assert_array_equal(got, exp)


def _check_svd(c: dict[str, Any], outs: list[Any]) -> None:
    a = _array(c["inputs"]["input"])
    dt = c["inputs"]["input"]["dtype"]
    tol = 1e-5 if dt in ("float32", "complex64") else 1e-10
    s, u, v = (np.asarray(o.numpy()) for o in outs)
    ws, wu, wv = (_array(w) for w in c["outputs"])
    assert list(s.shape) == list(ws.shape) and s.dtype == ws.dtype
    assert list(u.shape) == list(wu.shape) and list(v.shape) == list(wv.shape)
    scale = max(float(np.max(np.abs(a), initial=0.0)), 1.0)
    np.testing.assert_allclose(s, ws, rtol=0, atol=tol * scale * 4)
    if np.diff(s.real, axis=-1).size:
        assert (np.diff(s.real, axis=-1) <= 0).all()
    if c["attrs"].get("compute_uv") is False:
        return
    p = s.shape[-1]
    rec = (u[..., :, :p] * s[..., None, :]) @ np.conj(np.swapaxes(v[..., :, :p], -1, -2))
    np.testing.assert_allclose(rec, a, rtol=0, atol=tol * scale * 10)
    for q in (u, v):
        if q.shape[-1] == 0:
            continue
        g = np.conj(np.swapaxes(q, -1, -2)) @ q
        np.testing.assert_allclose(g, np.broadcast_to(np.eye(q.shape[-1]), g.shape), atol=tol * 10)


@pytest.mark.parametrize(
    "i", range(len(CASES)), ids=[f"{c['op']}-{j}" for j, c in enumerate(CASES)]
)
def test_against_tf(i: int) -> None:
    c = CASES[i]
    fn = getattr(ops, c["op"])
    if "error" in c:
        with pytest.raises(errors.OpError) as ei:
            fn(**_inputs(c), **c["attrs"])
        assert type(ei.value).__name__ == c["error"]["class"]
        assert str(ei.value).split("\n")[0] == c["error"]["msg"]
        return
    res = fn(**_inputs(c), **c["attrs"])
    outs = list(res) if isinstance(res, (list, tuple)) else [res]
    assert len(outs) == len(c["outputs"])
    if c["check"] == "svd":
        _check_svd(c, outs)
        return
    for got, want in zip(outs, c["outputs"], strict=True):
        _same(_numpy(got, want["dtype"]), want, c["check"])


def _first(op: str, pred: Any = None) -> dict[str, Any]:
    return next(c for c in CASES if c["op"] == op and "outputs" in c and (pred is None or pred(c)))


def test_in_a_graph_run_by_a_session() -> None:
    rc = _first("RaggedTensorToTensor", lambda c: len(c["inputs"]["row_partition_tensors"]) == 2)
    bc = _first("ResizeBicubic")
    with tfe_py.Graph() as g:
        vals = tfe_py.placeholder(tfe_py.int32, shape=(None,), name="vals")
        parts = [tfe_py.constant(_array(s)) for s in rc["inputs"]["row_partition_tensors"]]
        dense = ops.RaggedTensorToTensor(
            shape=tfe_py.constant(_array(rc["inputs"]["shape"])),
            values=vals,
            default_value=tfe_py.constant(_array(rc["inputs"]["default_value"])),
            row_partition_tensors=parts,
            **rc["attrs"],
        )
        img = tfe_py.placeholder(tfe_py.float32, shape=(None, None, None, 3), name="img")
        big = ops.ResizeBicubic(images=img, size=tfe_py.constant(_array(bc["inputs"]["size"])))
    assert dense.shape == tuple([None] * 3)
    assert big.shape[0] is None and big.shape[3] == 3
    with tfe_py.Session(g) as sess:
        d, b = sess.run(
            [dense, big],
            {vals: _array(rc["inputs"]["values"]), img: _array(bc["inputs"]["images"])},
        )
    _same(np.asarray(d), rc["outputs"][0], "exact")
    _same(np.asarray(b), bc["outputs"][0], "close")


def test_disable_copy_on_read_needs_an_initialized_variable() -> None:
    h = ops.VarHandleOp(dtype="float32", shape=[], shared_name="tfe_dcor_test")
    with pytest.raises(errors.FailedPreconditionError, match="Could not find variable"):
        ops.DisableCopyOnRead(resource=h)
    ops.AssignVariableOp(resource=h, value=constant(np.float32(2.5)))
    ops.DisableCopyOnRead(resource=h)
    assert float(ops.ReadVariableOp(resource=h, dtype="float32")) == 2.5
    ops.DestroyResourceOp(resource=h)


def test_ragged_partitions_that_need_more_values_than_given_fail_cleanly() -> None:
    # TF reads past the end of values here; tfe reports it.
    with pytest.raises(errors.InvalidArgumentError, match="describe 4 values"):
        ops.RaggedTensorToTensor(
            shape=constant(np.int64(-1)),
            values=constant(np.array([1.0, 2.0], np.float32)),
            default_value=constant(np.float32(0)),
            row_partition_tensors=[constant(np.array([0, 1, 4], np.int64))],
            row_partition_types=["ROW_SPLITS"],
        )


def test_stateful_random_ops_advance_between_calls() -> None:
    kw = {"seed": 424242, "seed2": 7}
    a = ops.RandomUniformInt(
        shape=constant(np.array([64], np.int32)),
        minval=constant(np.int64(0)),
        maxval=constant(np.int64(1000)),
        **kw,
    ).numpy()
    b = ops.RandomUniformInt(
        shape=constant(np.array([64], np.int32)),
        minval=constant(np.int64(0)),
        maxval=constant(np.int64(1000)),
        **kw,
    ).numpy()
    assert a.dtype == np.int64 and ((a >= 0) & (a < 1000)).all()
    assert not np.array_equal(a, b)
    m = ops.Multinomial(
        logits=constant(np.array([[np.log(0.1), -np.inf, np.log(0.9)]], np.float32)),
        num_samples=constant(np.int32(2000)),
        seed=99,
        seed2=3,
    ).numpy()
    assert set(np.unique(m)) <= {0, 2}
    assert 0.85 < float(np.mean(m == 2)) < 0.95


def test_svd_of_a_wide_complex_batch_reconstructs() -> None:
    g = np.random.default_rng(3)
    a = g.normal(size=(3, 4, 7)) + 1j * g.normal(size=(3, 4, 7))
    s, u, v = ops.Svd(input=constant(a), full_matrices=True)
    s, u, v = s.numpy(), u.numpy(), v.numpy()
    assert u.shape == (3, 4, 4) and v.shape == (3, 7, 7)
    np.testing.assert_allclose(s.real, np.linalg.svd(a, compute_uv=False), atol=1e-10)
    rec = (u * s[..., None, :]) @ np.conj(np.swapaxes(v[..., :, :4], -1, -2))
    np.testing.assert_allclose(rec, a, atol=1e-10)
    np.testing.assert_allclose(
        np.conj(np.swapaxes(v, -1, -2)) @ v, np.broadcast_to(np.eye(7), (3, 7, 7)), atol=1e-10
    )


def test_graph_shapes_and_build_errors_match_tf() -> None:
    # Shapes and messages TF 2.21's shape functions give for the same graph.
    p, c = tfe_py.placeholder, tfe_py.constant

    def f(v: float) -> Any:
        return c(np.float32(v))

    with tfe_py.Graph():
        x = p(tfe_py.float32, shape=(2, 5, 3))
        s, u, v = ops.Svd(input=x, full_matrices=True)
        assert (s.shape, u.shape, v.shape) == ((2, 3), (2, 5, 5), (2, 3, 3))
        s, u, v = ops.Svd(input=x)
        assert (s.shape, u.shape, v.shape) == ((2, 3), (2, 5, 3), (2, 3, 3))
        b = p(tfe_py.float32, shape=(None, 4))
        sc = p(tfe_py.float32, shape=(None,))
        nms = {"boxes": b, "scores": sc, "max_output_size": c(np.int32(7))}
        thr = {"iou_threshold": f(0.5), "score_threshold": f(0.0)}
        r4 = ops.NonMaxSuppressionV4(**nms, **thr, pad_to_max_output_size=True)
        assert [t.shape for t in r4] == [(7,), ()]
        r5 = ops.NonMaxSuppressionV5(**nms, **thr, soft_nms_sigma=f(0.0))
        assert [t.shape for t in r5] == [(None,), (None,), ()]
        logits = p(tfe_py.float32, shape=(3, None))
        assert ops.Multinomial(logits=logits, num_samples=c(np.int32(5))).shape == (3, 5)
        img = p(tfe_py.float32, shape=(None, 8, 8, 3))
        ind = p(tfe_py.int32, shape=(None,))
        size = c(np.array([2, 3], np.int32))
        crop = ops.CropAndResize(
            image=img, boxes=p(tfe_py.float32, shape=(6, 4)), box_ind=ind, crop_size=size
        )
        assert crop.shape == (6, 2, 3, 3)
        rt = ops.RaggedTensorToTensor(
            shape=c(np.array([-1, 4, -1], np.int32)),
            values=p(tfe_py.float32, shape=(None, 3)),
            default_value=f(0.0),
            row_partition_tensors=[c(np.array([0, 1], np.int64))],
            row_partition_types=["ROW_SPLITS"],
        )
        assert rt.shape == (None, 4, 3)
        with pytest.raises(errors.InvalidArgumentError, match=r"^Dimension must be 4 but is 3 for"):
            ops.CropAndResize(
                image=img, boxes=p(tfe_py.float32, shape=(6, 3)), box_ind=ind, crop_size=size
            )
        with pytest.raises(errors.InvalidArgumentError, match=r"^Shape must be at least rank 2"):
            ops.Svd(input=p(tfe_py.float32, shape=(3,)))
        with pytest.raises(errors.InvalidArgumentError, match=r"^VALUE_ROWIDS cannot be first for"):
            ops.RaggedTensorToTensor(
                shape=c(np.int32(-1)),
                values=p(tfe_py.float32, shape=(None,)),
                default_value=f(0.0),
                row_partition_tensors=[c(np.array([0, 1], np.int64))],
                row_partition_types=["VALUE_ROWIDS"],
            )
        with pytest.raises(errors.InvalidArgumentError, match=r"^Dimension must be 4 but is 5 for"):
            ops.NonMaxSuppressionV3(
                boxes=p(tfe_py.float32, shape=(3, 5)),
                scores=sc,
                max_output_size=c(np.int32(3)),
                **thr,
            )
