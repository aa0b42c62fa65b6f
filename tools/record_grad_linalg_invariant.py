"""Records TF 2.21's gradients of Svd and SelfAdjointEigV2 through losses
that do not depend on the sign (phase, for complex) of the singular or eigen
vectors, into tests/data/grad_linalg_invariant_tf221.json (run with
/work/tfvenv/bin/python; tests/python/test_grad_linalg.py only reads it).

Singular vectors are unique only up to a sign (a phase when complex), and
two correct implementations may pick different ones; so the plain
sum(output * weight) loss of tools/grad_cases cannot compare them. Here the
loss of a case is
  sum(ws * s) + sum(wu * |u|^2) + sum(wv * |v|^2) + Re sum(wa * (u_k diag(t) v_k^H))
(u_k, v_k: the first k = min(m, n) columns), and for SelfAdjointEigV2
  sum(we * e) + sum(wv * |v|^2) + Re sum(wa * (v diag(t) v^H)),
each term invariant under those choices. Terms whose output is not
computed (compute_uv / compute_v False) are left out.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import numpy as np

R = np.random.default_rng(1717)


def arr(shape: tuple[int, ...]) -> np.ndarray:
    return R.uniform(-1.5, 1.5, shape)


def carr(shape: tuple[int, ...]) -> np.ndarray:
    return arr(shape) + 1j * arr(shape)


def herm(n: int) -> np.ndarray:
    q, _ = np.linalg.qr(carr((n, n)))
    return q @ np.diag(np.linspace(-1.5, 2.0, n)) @ q.conj().T


def sym(n: int, batch: tuple[int, ...] = ()) -> np.ndarray:
    q, _ = np.linalg.qr(arr((*batch, n, n)))
    e = np.linspace(-2.0, 2.5, n)
    return q @ (e[..., :, None] * np.swapaxes(q, -1, -2))


def enc(a: np.ndarray) -> Any:
    a = np.asarray(a)
    if np.iscomplexobj(a):
        return {"re": a.real.tolist(), "im": a.imag.tolist()}
    return a.tolist()


CASES: list[dict[str, Any]] = [
    {"name": "svd_square", "op": "Svd", "input": arr((3, 3)), "attrs": {}},
    {"name": "svd_deep", "op": "Svd", "input": arr((4, 3)), "attrs": {}},
    {"name": "svd_wide_batch", "op": "Svd", "input": arr((2, 2, 4)), "attrs": {}},
    {"name": "svd_full_wide", "op": "Svd", "input": arr((3, 4)), "attrs": {"full_matrices": True}},
    {"name": "svd_full_deep", "op": "Svd", "input": arr((4, 3)), "attrs": {"full_matrices": True}},
    {"name": "svd_values_wide", "op": "Svd", "input": arr((2, 5)), "attrs": {"compute_uv": False}},
    {"name": "svd_c128", "op": "Svd", "input": carr((3, 3)), "attrs": {}},
    {"name": "svd_c128_deep", "op": "Svd", "input": carr((4, 2)), "attrs": {}},
    {"name": "eigh", "op": "SelfAdjointEigV2", "input": sym(3), "attrs": {}},
    {"name": "eigh_batch", "op": "SelfAdjointEigV2", "input": sym(3, (2,)), "attrs": {}},
    {"name": "eigh_no_vectors", "op": "SelfAdjointEigV2", "input": sym(4),
     "attrs": {"compute_v": False}},
    {"name": "eigh_c128", "op": "SelfAdjointEigV2", "input": herm(3), "attrs": {}},
]


def weights(cs: dict[str, Any]) -> dict[str, np.ndarray]:
    """The loss weights, drawn from the (known) output shapes."""
    a = cs["input"]
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    k = min(m, n)
    w: dict[str, np.ndarray] = {}
    if cs["op"] == "Svd":
        w["ws"] = arr((*batch, k))
        if cs["attrs"].get("compute_uv", True):
            full = cs["attrs"].get("full_matrices", False)
            w["wu"] = arr((*batch, m, m if full else k))
            w["wv"] = arr((*batch, n, n if full else k))
            w["t"] = arr((*batch, k))
            w["wa"] = arr((*batch, m, n))
    else:
        w["ws"] = arr((*batch, n))
        if cs["attrs"].get("compute_v", True):
            w["wv"] = arr((*batch, n, n))
            w["t"] = arr((*batch, n))
            w["wa"] = arr((*batch, n, n))
    return w


def tf_loss(tf: Any, cs: dict[str, Any], x: Any, w: dict[str, np.ndarray]) -> Any:
    a = cs["input"]
    m, n = a.shape[-2:]
    k = min(m, n)
    dt = x.dtype
    outs = getattr(tf.raw_ops, cs["op"])(input=x, **cs["attrs"])

    def sq(t: Any) -> Any:
        return tf.math.real(t * tf.math.conj(t)) if dt.is_complex else t * t

    first = tf.math.real(outs[0]) if dt.is_complex else outs[0]
    loss = tf.reduce_sum(first * w["ws"])
    if "wv" not in w:
        return loss
    if cs["op"] == "Svd":
        u, v = outs[1], outs[2]
        loss += tf.reduce_sum(sq(u) * w["wu"]) + tf.reduce_sum(sq(v) * w["wv"])
        uk, vk = u[..., :, :k], v[..., :, :k]
    else:
        uk = vk = outs[1]
        loss += tf.reduce_sum(sq(uk) * w["wv"])
    t = tf.cast(w["t"], dt)
    prod = tf.matmul(uk * t[..., None, :], vk, adjoint_b=True)
    return loss + tf.reduce_sum(tf.math.real(prod) * w["wa"])


def main() -> None:
    import tensorflow as tf

    rec = []
    for cs in CASES:
        w = weights(cs)
        x = tf.constant(cs["input"])
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf_loss(tf, cs, x, w)
        g = tape.gradient(loss, x)
        rec.append({"name": cs["name"], "op": cs["op"], "attrs": cs["attrs"],
                    "input": enc(cs["input"]), "dtype": x.dtype.name,
                    "weights": {kk: enc(vv) for kk, vv in w.items()},
                    "loss": float(loss.numpy()), "grad": enc(g.numpy())})
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data",
                        "grad_linalg_invariant_tf221.json")
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, "cases": rec}, f, indent=0)
        f.write("\n")
    print(f"{len(rec)} cases -> {os.path.normpath(path)}", file=sys.stderr)


if __name__ == "__main__":
    main()
