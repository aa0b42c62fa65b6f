"""Gradient checks of csrc/eager/grad_more4.c beyond the shared case table
(tests/python/test_grad_cases.py runs tools/grad_cases/more4.py), against
TF 2.21's values in tests/data/grad_more4_tf221.json (written by
tools/record_grad_more4.py):

- Eig's eigenvector gradient through losses that do not depend on the
  eigenvectors' phases (tfe's kernel need not pick TF's phases), against
  TF's gradients, float64/complex central differences, and TF_AddGradients
  in a graph;
- complex central differences for the complex-input cases of the table
  (TF's gradient of a real loss L of z is dL/dRe(z) + i dL/dIm(z));
- RefIdentity on a TF1 reference variable, eagerly (a tfe extension) and
  through TF_AddGradients, against TF 1-style graph gradients;
- the gradients TF registers only to fail: MatrixSolveLs with fast=False
  and QuantizeAndDequantizeV4Grad; MatrixSolveLs with unknown matrix
  dimensions while tracing.
"""

from __future__ import annotations

import gc
import json
import os
from typing import Any

import numpy as np
import pytest

import tfe_py as tf
from tfe_py import errors, ops
from tfe_py._ffi import ffi, lib
from tfe_py.errors import check, status
from tfe_py.graph import GraphTensor

_HERE = os.path.dirname(__file__)
with open(os.path.join(_HERE, "..", "data", "grad_more4_tf221.json")) as _f:
    D: dict[str, Any] = json.load(_f)
with open(os.path.join(_HERE, "..", "data", "grad_cases", "more4.json")) as _f:
    _TABLE: list[dict[str, Any]] = json.load(_f)["cases"]

_EIG = D["eig"]


def _dec(v: Any, dtype: str) -> np.ndarray:
    if isinstance(v, dict):
        return (np.array(v["re"]) + 1j * np.array(v["im"])).astype(dtype)
    return np.array(v, dtype)


def _all_axes(t: Any) -> Any:
    """Every axis of t, also when a graph does not know t's rank."""
    return ops.Range(start=tf.constant(0), limit=ops.Rank(input=t), delta=tf.constant(1))


def _eig_loss(cs: dict[str, Any], x: Any) -> Any:
    """Re(sum(e * we)) + sum(wv * |v|^2): phase-free (the recorder's loss)."""
    single = cs["Tout"] == "complex64"
    rdt = "float32" if single else "float64"
    e, v = ops.Eig(input=x, Tout=cs["Tout"])
    sq = ops.Real(input=ops.Mul(v, ops.Conj(v)), Tout=rdt)
    wv = tf.constant(np.asarray(cs["wv"]).astype(rdt))
    loss = ops.Sum(ops.Mul(sq, wv), _all_axes(sq))
    if cs["with_e"]:
        we = tf.constant(_dec(cs["we"], cs["Tout"]))
        se = ops.Real(input=ops.Sum(ops.Mul(e, we), _all_axes(e)), Tout=rdt)
        loss = ops.AddV2(loss, se)
    return loss


def _eig_grad(cs: dict[str, Any], a: np.ndarray) -> tuple[float, np.ndarray]:
    x = tf.constant(a)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = _eig_loss(cs, x)
    return float(loss.numpy()), np.asarray(tape.gradient(loss, x).numpy())


def _numeric(f: Any, a: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """dL/dRe + i dL/dIm by central differences (dL/da when real)."""
    g = np.zeros(a.shape, a.dtype)
    steps = (1.0, 1j) if np.iscomplexobj(a) else (1.0,)
    for idx in np.ndindex(a.shape):
        for st in steps:
            p, q = a.copy(), a.copy()
            p[idx] += eps * st
            q[idx] -= eps * st
            g[idx] += st * (f(p) - f(q)) / (2 * eps)
    return g


def _tol(cs: dict[str, Any]) -> float:
    return 2e-4 if cs["dtype"] in ("float32", "complex64") else 1e-9


@pytest.mark.parametrize("cs", _EIG, ids=[c["name"] for c in _EIG])
def test_eig_phase_free_loss_matches_tf(cs: dict[str, Any]) -> None:
    a = _dec(cs["input"], cs["dtype"])
    loss, g = _eig_grad(cs, a)
    tol = _tol(cs)
    assert loss == pytest.approx(cs["loss"], rel=tol, abs=tol)
    np.testing.assert_allclose(g, _dec(cs["grad"], cs["dtype"]), rtol=tol, atol=tol)


_EIG64 = [c for c in _EIG if c["dtype"] in ("float64", "complex128")]


@pytest.mark.parametrize("cs", _EIG64, ids=[c["name"] for c in _EIG64])
def test_eig_phase_free_loss_central_differences(cs: dict[str, Any]) -> None:
    a = _dec(cs["input"], cs["dtype"])
    _, g = _eig_grad(cs, a)
    num = _numeric(lambda m: float(_eig_loss(cs, tf.constant(m)).numpy()), a)
    np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-6)


def _graph_grad(build: Any, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    """TF_AddGradients of build(placeholders) with respect to the
    placeholders (of unknown shape), run in a session."""
    with tf.Graph() as g:
        ph = {n: tf.placeholder(str(a.dtype), shape=None) for n, a in feeds.items()}
        loss = build(**ph)
        ys = ffi.new("TF_Output[]", 1)
        ys[0].oper = loss.op._ptr
        ys[0].index = loss.value_index
        names = list(feeds)
        xs = ffi.new("TF_Output[]", len(names))
        for i, n in enumerate(names):
            xs[i].oper = ph[n].op._ptr
            xs[i].index = ph[n].value_index
        dys = ffi.new("TF_Output[]", len(names))
        with status() as s:
            lib.TF_AddGradients(g.ptr, ys, 1, xs, len(names), ffi.NULL, s, dys)
            check(s)
        fetch = [GraphTensor(g._wrap_op(dys[i].oper), dys[i].index) for i in range(len(names))]
    sess = tf.Session(graph=g)
    try:
        got = sess.run(fetch, feed_dict={ph[n]: feeds[n] for n in names})
    finally:
        sess.close()
    return [np.asarray(v) for v in got]


@pytest.mark.parametrize("name", ["eig_rot", "eig_c128_vectors_only", "eig_batch"])
def test_eig_phase_free_loss_in_a_graph(name: str) -> None:
    # the eigenvector path traced by TF_AddGradients, with Eig's output
    # rank unknown to the graph
    cs = next(c for c in _EIG if c["name"] == name)
    a = _dec(cs["input"], cs["dtype"])
    (g,) = _graph_grad(lambda input: _eig_loss(cs, input), {"input": a})
    np.testing.assert_allclose(g, _dec(cs["grad"], cs["dtype"]), rtol=1e-9, atol=1e-9)


def test_eig_gradients_release_what_they_build() -> None:
    cs = next(c for c in _EIG if c["name"] == "eig_c128")
    a = _dec(cs["input"], cs["dtype"])
    _eig_grad(cs, a)
    gc.collect()
    before = (lib.TFE_LiveObjectCount(6), lib.TFE_LiveObjectCount(1))
    _eig_grad(cs, a)
    gc.collect()
    assert (lib.TFE_LiveObjectCount(6), lib.TFE_LiveObjectCount(1)) == before


# ---- complex central differences of the table's complex128 cases ----

# Inputs of complex table cases whose TF gradient is not the derivative
# of the forward op, and why (tfe returns TF's values, which the table
# compares).
_NOT_DERIVATIVE: dict[tuple[str, str], str] = {
    # TF symmetrizes x z^H with a plain transpose where the derivative of
    # the complex normal equations needs the conjugate transpose
    ("solve_ls_c128_over", "matrix"): "TF's x z^H + (x z^H)^T is not conjugated",
}

_CPLX = [cs for cs in _TABLE
         if any(sp["diff"] and sp["dtype"] == "complex128" for sp in cs["inputs"].values())]


def _table_loss(cs: dict[str, Any], ts: dict[str, Any]) -> Any:
    out = getattr(ops, cs["op"])(**cs["attrs"], **ts)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    total = None
    for k, w in zip(cs["outputs"], cs["weights"], strict=True):
        dt = cs["forward"][k]["dtype"]
        o = outs[k]
        s = ops.Sum(ops.Mul(o, tf.constant(_dec(w, dt), dtype=dt)), _all_axes(o))
        total = s if total is None else ops.AddV2(total, s)
    return total


@pytest.mark.parametrize("cs", _CPLX, ids=[c["name"] for c in _CPLX])
def test_complex_central_differences(cs: dict[str, Any]) -> None:
    base = {n: _dec(sp["value"], sp["dtype"]) for n, sp in cs["inputs"].items()}
    watched = [n for n, sp in cs["inputs"].items() if sp["diff"]]
    ts = {n: tf.constant(base[n], dtype=sp["dtype"]) for n, sp in cs["inputs"].items()}
    with tf.GradientTape() as tape:
        tape.watch([ts[n] for n in watched])
        total = _table_loss(cs, ts)
    grads = tape.gradient(total, [ts[n] for n in watched])
    for name, g in zip(watched, grads, strict=True):
        if (cs["name"], name) in _NOT_DERIVATIVE:
            continue

        def f(v: np.ndarray, name: str = name) -> float:
            over = {n: tf.constant(base[n], dtype=sp["dtype"]) for n, sp in cs["inputs"].items()}
            over[name] = tf.constant(v, dtype=cs["inputs"][name]["dtype"])
            return float(np.real(_table_loss(cs, over).numpy()))

        num = _numeric(f, base[name])
        np.testing.assert_allclose(np.asarray(g.numpy()), num, rtol=1e-5, atol=1e-6,
                                   err_msg=name)


# ---- RefIdentity ----


def test_ref_identity_eager_tape() -> None:
    # tfe runs reference ops eagerly (TF's Python eager mode refuses them);
    # the tape passes the gradient through RefIdentity to the ref tensor
    ri = D["ref_identity"]
    v = ops.VariableV2(shape=[2, 3], dtype="float64")
    ref = ops.Assign(v, tf.constant(np.array(ri["init"])))
    with tf.GradientTape() as tape:
        tape.watch(ref)
        out = ops.RefIdentity(ref)
        loss = ops.Sum(ops.Mul(out, tf.constant(np.array(ri["w"]))), tf.constant([0, 1]))
    g = tape.gradient(loss, ref)
    assert float(loss.numpy()) == pytest.approx(ri["loss"], rel=1e-12)
    np.testing.assert_allclose(g.numpy(), ri["grad"], rtol=1e-12, atol=0)


def test_ref_identity_graph() -> None:
    # TF_AddGradients through RefIdentity of a VariableV2's ref output, as
    # TF 1's tf.gradients(loss, [variable ref])
    ri = D["ref_identity"]
    with tf.Graph() as g:
        var = ops.VariableV2(shape=[2, 3], dtype="float64")
        assigned = ops.Assign(var, tf.constant(np.array(ri["init"])))
        out = ops.RefIdentity(assigned)
        loss = ops.Sum(ops.Mul(out, tf.constant(np.array(ri["w"]))), tf.constant([0, 1]))
        ys = ffi.new("TF_Output[]", 1)
        ys[0].oper = loss.op._ptr
        ys[0].index = loss.value_index
        xs = ffi.new("TF_Output[]", 1)
        xs[0].oper = assigned.op._ptr
        xs[0].index = assigned.value_index
        dys = ffi.new("TF_Output[]", 1)
        with status() as s:
            lib.TF_AddGradients(g.ptr, ys, 1, xs, 1, ffi.NULL, s, dys)
            check(s)
        grad = GraphTensor(g._wrap_op(dys[0].oper), dys[0].index)
    sess = tf.Session(graph=g)
    try:
        lv, gv = sess.run([loss, grad])
    finally:
        sess.close()
    assert float(lv) == pytest.approx(ri["loss"], rel=1e-12)
    np.testing.assert_allclose(gv, ri["grad"], rtol=1e-12, atol=0)


# ---- gradients that fail, as TF's ----


def test_matrix_solve_ls_slow_path_has_no_gradient() -> None:
    want = D["errors"]["solve_ls_slow"]
    assert want["type"] == "ValueError"
    a = tf.constant(np.array([[1.0, 0.5], [0.2, 1.0], [0.3, -0.4]]))
    b = tf.constant(np.array([[1.0], [2.0], [0.5]]))
    with tf.GradientTape() as tape:
        tape.watch(a)
        x = ops.MatrixSolveLs(matrix=a, rhs=b, l2_regularizer=tf.constant(0.0, dtype="float64"),
                              fast=False)
    with pytest.raises(errors.InvalidArgumentError, match=want["message"]):
        tape.gradient(x, a)


def test_quantize_and_dequantize_v4_grad_has_no_usable_gradient() -> None:
    # TF registers a gradient function that cannot take the op's three
    # upstream gradients (a TypeError); tfe's fails with UNIMPLEMENTED
    assert D["errors"]["qdq_v4_grad"]["type"] == "TypeError"
    g = tf.constant(np.array([1.0, 2.0, 3.0]))
    with tf.GradientTape() as tape:
        tape.watch(g)
        outs = ops.QuantizeAndDequantizeV4Grad(
            gradients=g, input=tf.constant(np.array([0.3, -0.7, 1.2])),
            input_min=tf.constant(-1.0, dtype="float64"),
            input_max=tf.constant(1.0, dtype="float64"))
        loss = ops.Sum(outs[0], tf.constant([0]))
    with pytest.raises(errors.UnimplementedError, match="QuantizeAndDequantizeV4Grad"):
        tape.gradient(loss, g)


def test_matrix_solve_ls_unknown_shape_in_a_graph_is_unimplemented() -> None:
    # TF decides between its two formulas with a run-time cond there
    a = np.array([[1.0, 0.5], [0.2, 1.0], [0.3, -0.4]])

    def build(matrix: Any) -> Any:
        x = ops.MatrixSolveLs(matrix=matrix, rhs=tf.constant(np.ones((3, 1))),
                              l2_regularizer=tf.constant(0.0, dtype="float64"))
        return ops.Sum(x, _all_axes(x))

    with pytest.raises(errors.UnimplementedError, match="MatrixSolveLs"):
        _graph_grad(build, {"matrix": a})


# ---- forward mode through the same gradients ----


def test_forward_mode_through_fresnel_and_solve_ls() -> None:
    # jvps (forward.c builds them from two vector-Jacobian products for
    # these ops) equal directional central differences
    rng = np.random.default_rng(17)
    x = rng.uniform(-2, 2, (5,))
    dx = rng.uniform(-1, 1, (5,))
    for op in (ops.FresnelCos, ops.FresnelSin):
        xt = tf.constant(x)
        with tf.autodiff.ForwardAccumulator(xt, tf.constant(dx)) as acc:
            y = op(x=xt)
        eps = 1e-6
        num = (op(x=tf.constant(x + eps * dx)).numpy() - op(x=tf.constant(x - eps * dx)).numpy())
        np.testing.assert_allclose(acc.jvp(y).numpy(), num / (2 * eps), rtol=1e-6, atol=1e-8)
    l2 = tf.constant(0.3, dtype="float64")
    for shape in ((4, 2), (2, 4)):
        a = rng.uniform(-1, 1, shape)
        da = rng.uniform(-1, 1, shape)
        b = tf.constant(rng.uniform(-1, 1, (shape[0], 2)))
        at = tf.constant(a)
        with tf.autodiff.ForwardAccumulator(at, tf.constant(da)) as acc:
            sol = ops.MatrixSolveLs(matrix=at, rhs=b, l2_regularizer=l2)

        def f(m: np.ndarray, b: Any = b) -> np.ndarray:
            return np.asarray(ops.MatrixSolveLs(matrix=tf.constant(m), rhs=b,
                                                l2_regularizer=l2).numpy())

        eps = 1e-6
        num = (f(a + eps * da) - f(a - eps * da)) / (2 * eps)
        np.testing.assert_allclose(acc.jvp(sol).numpy(), num, rtol=1e-5, atol=1e-7)


def test_second_order_through_fresnel() -> None:
    # nested tapes: d2/dx2 FresnelCos = -pi x sin(pi x^2 / 2), FresnelSin: pi x cos(...)
    x0 = np.array([-1.3, -0.2, 0.4, 1.7])
    for op, want in ((ops.FresnelCos, -np.pi * x0 * np.sin(np.pi * x0 ** 2 / 2)),
                     (ops.FresnelSin, np.pi * x0 * np.cos(np.pi * x0 ** 2 / 2))):
        x = tf.constant(x0)
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = ops.Sum(op(x=x), tf.constant([0]))
            g = inner.gradient(y, x)
            gs = ops.Sum(g, tf.constant([0]))
        np.testing.assert_allclose(outer.gradient(gs, x).numpy(), want, rtol=1e-12, atol=1e-12)
