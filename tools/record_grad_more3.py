"""Records the TF 2.21 values of the gradient checks of
tests/python/test_grad_more3.py (the ones the table of
tools/grad_cases/more3.py cannot hold) into
tests/data/grad_more3_tf221.json.

Usage (TF's python, outside the tests):

    /work/tfvenv/bin/python tools/record_grad_more3.py

- "lstm": BlockLSTM / BlockLSTMV2 cases in the table's format
  (tools/record_grad_cases.py's run_case). For BlockLSTMV2 the expected
  gradients are those of TF's BlockLSTMGradV2 kernel (the kernel for its
  gate layout) fed with the loss's upstream gradients, because TF 2.21's
  registered gradient runs BlockLSTMGrad (the other layout) and is not the
  derivative; the recorder checks here that BlockLSTMGradV2's values ARE
  the derivative (float32 central differences in TF) and that TF's
  registered gradient is not. "valid_steps" is the number of time steps
  whose outputs TF defines (seq_len_max: TF leaves the rest uninitialized).
- "sparse_slice_empty": a SparseSlice that keeps no value (table format).
- "ctc_second_derivative": TF's error message for the gradient of
  CTCLoss's gradient.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "grad_cases"))

import record_grad_cases as rgc  # noqa: E402
from _common import Rng, c, case, d, decode, encode  # noqa: E402

OUT = os.path.join(HERE, "..", "tests", "data", "grad_more3_tf221.json")
R = Rng("more3_extra")
LSTM_INPUTS = ("x", "cs_prev", "h_prev", "w", "wci", "wcf", "wco", "b")


def lstm(name: str, op: str, t: int = 3, b: int = 2, i: int = 2, h: int = 3,
         seq: int | None = None, attrs: dict[str, Any] | None = None,
         outputs: list[int] | None = None) -> dict[str, Any]:
    def w(*shape: int) -> dict[str, Any]:
        return d(R.arr(shape, -0.8, 0.8), "float32")
    cs = case(name, op, {"seq_len_max": c(t if seq is None else seq, "int64"), "x": w(t, b, i),
                         "cs_prev": w(b, h), "h_prev": w(b, h), "w": w(i + h, 4 * h),
                         "wci": w(h), "wcf": w(h), "wco": w(h), "b": w(4 * h)},
              attrs or {}, outputs if outputs is not None else [1, 6], numeric=True)
    cs["valid_steps"] = min(t, t if seq is None else seq)
    return cs


LSTM_CASES = [
    lstm("v2_peephole", "BlockLSTMV2", attrs={"use_peephole": True, "cell_clip": -1.0}),
    lstm("v2_no_peephole", "BlockLSTMV2", attrs={"use_peephole": False}),
    lstm("v2_default_attrs", "BlockLSTMV2"),
    lstm("v2_h_only", "BlockLSTMV2", t=2, b=3, i=3, h=2, outputs=[6],
         attrs={"use_peephole": True}),
    lstm("v2_cs_only", "BlockLSTMV2", outputs=[1], attrs={"use_peephole": True}),
    lstm("v2_short_seq", "BlockLSTMV2", t=4, seq=2, attrs={"use_peephole": True}),
    lstm("v1_short_seq", "BlockLSTM", t=4, seq=2, attrs={"use_peephole": True}),
    lstm("v1_short_seq_no_peephole", "BlockLSTM", t=3, seq=1, b=3, h=2),
]


def _lstm_args(tf: Any, rec: dict[str, Any], over: dict[str, np.ndarray] | None = None
               ) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for name, spec in rec["inputs"].items():
        v = (over or {}).get(name)
        a = v if v is not None else decode(spec["value"], spec["dtype"])
        args[name] = tf.constant(a, dtype=getattr(tf, spec["dtype"]))
    return args


def _kernel_grads(tf: Any, rec: dict[str, Any]) -> dict[str, Any]:
    """The gradients of the gradient kernel of the op's gate layout, fed
    with the loss's upstream gradients of cs and h (zeros when unused)."""
    args = _lstm_args(tf, rec)
    attrs = dict(rec["attrs"])
    outs = getattr(tf.raw_ops, rec["op"])(**args, **attrs)
    ups = {}
    for k, w in zip(rec["outputs"], rec["weights"], strict=True):
        ups[k] = tf.constant(np.asarray(w), tf.float32)
    cs_grad = ups.get(1, tf.zeros_like(outs[1]))
    h_grad = ups.get(6, tf.zeros_like(outs[6]))
    kernel = tf.raw_ops.BlockLSTMGradV2 if rec["op"] == "BlockLSTMV2" else tf.raw_ops.BlockLSTMGrad
    res = kernel(**args, i=outs[0], cs=outs[1], f=outs[2], o=outs[3], ci=outs[4], co=outs[5],
                 h=outs[6], cs_grad=cs_grad, h_grad=h_grad,
                 use_peephole=attrs.get("use_peephole", False))
    return {n: g.numpy() for n, g in zip(LSTM_INPUTS, res, strict=True)}


def _numeric(tf: Any, rec: dict[str, Any], name: str) -> np.ndarray:
    """float32 central differences of the loss along input `name` (only the
    valid time steps enter the loss: TF leaves the others undefined)."""
    base = decode(rec["inputs"][name]["value"], "float32").astype(np.float64)
    steps = rec["valid_steps"]

    def loss(a: np.ndarray) -> float:
        outs = getattr(tf.raw_ops, rec["op"])(**_lstm_args(tf, rec, {name: a.astype(np.float32)}),
                                              **rec["attrs"])
        total = 0.0
        for k, w in zip(rec["outputs"], rec["weights"], strict=True):
            total += float(np.sum(outs[k].numpy()[:steps] * np.asarray(w)[:steps]))
        return total

    num = np.zeros_like(base)
    for idx in np.ndindex(base.shape):
        p, m = base.copy(), base.copy()
        p[idx] += 1e-2
        m[idx] -= 1e-2
        num[idx] = (loss(p) - loss(m)) / 2e-2
    return num


def record_lstm(tf: Any, cs: dict[str, Any]) -> dict[str, Any]:
    rec = rgc.run_case(tf, "more3_extra", cs)
    steps = cs["valid_steps"]
    # the weights past seq_len_max multiply undefined outputs in TF: zero
    # them, so the loss is defined (the gradients do not depend on them)
    rec["weights"] = [encode(np.where(np.arange(len(w))[:, None, None] < steps, np.asarray(w), 0.0))
                      for w in rec["weights"]]
    kern = _kernel_grads(tf, rec)
    tape = {n: decode(rec["grads"][n], "float32") for n in LSTM_INPUTS}
    worst_tape = 0.0
    for n in LSTM_INPUTS:
        num = _numeric(tf, rec, n)
        err = np.abs(kern[n] - num).max()
        assert err <= 2e-3 + 2e-2 * np.abs(num).max(), (cs["name"], n, err)
        worst_tape = max(worst_tape, float(np.abs(tape[n] - num).max()))
    if cs["op"] == "BlockLSTMV2":
        # TF's registered gradient: the other layout's kernel, not the derivative
        assert worst_tape > 1e-2, (cs["name"], worst_tape)
    else:
        for n in LSTM_INPUTS:
            np.testing.assert_allclose(tape[n], kern[n], rtol=1e-5, atol=1e-6)
    rec["grads"] = {n: encode(kern[n]) for n in LSTM_INPUTS}
    return rec


def record_ctc_second(tf: Any) -> str:
    x = tf.constant(R.arr((4, 2, 3), -1.0, 1.0))
    kw = {"labels_indices": tf.constant([[0, 0], [1, 0], [1, 1]], tf.int64),
          "labels_values": tf.constant([0, 1, 0], tf.int32),
          "sequence_length": tf.constant([4, 3], tf.int32)}
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            loss = tf.reduce_sum(tf.raw_ops.CTCLoss(inputs=x, **kw)[0])
        g = inner.gradient(loss, x)
        s = tf.reduce_sum(g * g)
    try:
        outer.gradient(s, x)
    except LookupError as exc:
        return str(exc)
    raise AssertionError("TF took CTCLoss's second derivative")


def main() -> None:
    import tensorflow as tf

    data: dict[str, Any] = {"tf_version": tf.__version__}
    data["lstm"] = [record_lstm(tf, cs) for cs in LSTM_CASES]
    empty = case("sparse_slice_empty", "SparseSlice",
                 {"indices": c([[0, 1], [0, 3], [2, 2]], "int64"),
                  "values": d(R.arr((3,))), "shape": c([3, 4], "int64"),
                  "start": c([1, 0], "int64"), "size": c([1, 4], "int64")}, outputs=[1])
    data["sparse_slice_empty"] = rgc.run_case(tf, "more3_extra", empty)
    data["ctc_second_derivative"] = record_ctc_second(tf)
    with open(OUT, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print(f"-> {os.path.normpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
