"""Records TF 2.21's values for tests/python/test_grad_more4.py (the
gradients of csrc/eager/grad_more4.c that the shared case table cannot
hold) into tests/data/grad_more4_tf221.json.

Usage (TF's python, outside the tests):

    /work/tfvenv/bin/python tools/record_grad_more4.py

- "eig": Eig under losses that do not depend on the eigenvectors' phases
  (which tfe's kernel need not choose as TF's does):
  L = Re(sum(e * we)) + sum(wv * |v|^2), TF's loss and input gradient;
- "ref_identity": the gradient of sum(RefIdentity(ref) * w) with respect
  to a TF1 reference variable's ref tensor, in a TF1 graph;
- "errors": the exceptions TF's registered gradients raise
  (MatrixSolveLs with fast=False, QuantizeAndDequantizeV4Grad).
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "data", "grad_more4_tf221.json")


def enc(a: Any) -> Any:
    a = np.asarray(a)
    if np.iscomplexobj(a):
        return {"re": a.real.tolist(), "im": a.imag.tolist()}
    return a.tolist()


def eig_inputs(rng: np.random.Generator) -> list[tuple[str, np.ndarray, str, str, bool]]:
    """(name, matrix, input dtype, Tout, with the eigenvalue term)."""

    def similar(e: np.ndarray, cplx: bool = False) -> np.ndarray:
        n = e.shape[-1]
        q = 1.5 * np.eye(n) + 0.4 * rng.uniform(-1.5, 1.5, (*e.shape, n))
        if cplx:
            q = q + 0.4j * rng.uniform(-1.5, 1.5, (*e.shape, n))
        return q @ (e[..., :, None] * np.linalg.inv(q))

    real3 = similar(np.linspace(-1.5, 2.0, 3))
    q = 1.5 * np.eye(3) + 0.4 * rng.uniform(-1.5, 1.5, (3, 3))
    rot = q @ np.array([[0.5, -1.2, 0.0], [1.2, 0.5, 0.0], [0.0, 0.0, -1.0]]) @ np.linalg.inv(q)
    cplx = similar(np.linspace(-1.5, 2.0, 3) + 1j * np.linspace(0.5, -0.8, 3), True)
    batch = similar(np.stack([np.linspace(-1.0, 1.5, 4), np.linspace(0.3, 3.0, 4)]))
    return [
        ("eig_real", real3, "float64", "complex128", True),
        ("eig_real_vectors_only", real3, "float64", "complex128", False),
        ("eig_rot", rot, "float64", "complex128", True),
        ("eig_rot_vectors_only", rot, "float64", "complex128", False),
        ("eig_c128", cplx, "complex128", "complex128", True),
        ("eig_c128_vectors_only", cplx, "complex128", "complex128", False),
        ("eig_batch", batch, "float64", "complex128", True),
        ("eig_f32", real3, "float32", "complex64", True),
        ("eig_c64", cplx, "complex64", "complex64", True),
    ]


def record_eig(tf: Any) -> list[dict[str, Any]]:
    rng = np.random.default_rng(1717)
    res = []
    for name, a, dt, tout, with_e in eig_inputs(rng):
        n = a.shape[-1]
        we = rng.uniform(-1, 1, a.shape[:-1]) + 1j * rng.uniform(-1, 1, a.shape[:-1])
        wv = rng.uniform(-1, 1, (*a.shape[:-2], n, n))
        x = tf.constant(a.astype(dt))
        rdt = tf.float32 if tout == "complex64" else tf.float64
        with tf.GradientTape() as tape:
            tape.watch(x)
            e, v = tf.raw_ops.Eig(input=x, Tout=getattr(tf, tout))
            loss = tf.reduce_sum(tf.cast(wv, rdt) * tf.math.real(v * tf.math.conj(v)))
            if with_e:
                loss += tf.math.real(tf.reduce_sum(e * tf.cast(we, e.dtype)))
        grad = tape.gradient(loss, x)
        res.append({"name": name, "dtype": dt, "Tout": tout, "with_e": with_e,
                    "input": enc(a.astype(dt)), "we": enc(we), "wv": enc(wv),
                    "loss": float(loss.numpy()), "grad": enc(grad.numpy())})
    return res


def record_ref_identity(tf: Any) -> dict[str, Any]:
    from tensorflow.python.ops import gen_array_ops

    init = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]])
    w = np.array([[0.5, -1.0, 2.0], [1.5, -0.75, 0.1]])
    g = tf.Graph()
    with g.as_default():
        var = tf.compat.v1.Variable(init, use_resource=False)
        ref = var._ref()  # the VariableV2 node's float64_ref output
        out = gen_array_ops.ref_identity(ref)
        loss = tf.reduce_sum(out * tf.constant(w))
        (grad,) = tf.gradients(loss, [ref])
        with tf.compat.v1.Session() as sess:
            sess.run(var.initializer)
            lv, gv = sess.run([loss, grad])
    return {"init": init.tolist(), "w": w.tolist(), "loss": float(lv), "grad": gv.tolist()}


def record_errors(tf: Any) -> dict[str, Any]:
    res: dict[str, Any] = {}
    a = tf.constant(np.array([[1.0, 0.5], [0.2, 1.0], [0.3, -0.4]]))
    b = tf.constant(np.array([[1.0], [2.0], [0.5]]))
    with tf.GradientTape() as tape:
        tape.watch(a)
        x = tf.raw_ops.MatrixSolveLs(matrix=a, rhs=b, l2_regularizer=tf.constant(0.0, tf.float64),
                                     fast=False)
    try:
        tape.gradient(x, a)
        res["solve_ls_slow"] = None
    except Exception as exc:
        res["solve_ls_slow"] = {"type": type(exc).__name__, "message": str(exc)}
    g = tf.constant(np.array([1.0, 2.0, 3.0]))
    xi = tf.constant(np.array([0.3, -0.7, 1.2]))
    with tf.GradientTape() as tape:
        tape.watch(g)
        outs = tf.raw_ops.QuantizeAndDequantizeV4Grad(
            gradients=g, input=xi, input_min=tf.constant(-1.0, tf.float64),
            input_max=tf.constant(1.0, tf.float64))
        loss = tf.reduce_sum(outs[0])
    try:
        tape.gradient(loss, g)
        res["qdq_v4_grad"] = None
    except Exception as exc:
        res["qdq_v4_grad"] = {"type": type(exc).__name__, "message": str(exc)}
    return res


def main() -> None:
    import tensorflow as tf

    data = {"tf_version": tf.__version__, "eig": record_eig(tf),
            "ref_identity": record_ref_identity(tf), "errors": record_errors(tf)}
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print(f"-> {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
