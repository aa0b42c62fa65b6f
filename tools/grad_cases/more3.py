"""Gradient cases of csrc/eager/grad_more3.c: BlockLSTM (through
BlockLSTMGrad), CTCLoss, SparseMatMul and SparseSlice (through
SparseSliceGrad).

BlockLSTM and SparseMatMul have no float64 kernel (in TF as in tfe): their
central differences are taken in float32 (``numeric=True``, coarser).
Where TF's gradient is not the derivative of the loss, the case says
``numeric=False``: BlockLSTM drops what flows into its gate outputs (i, f,
o, ci, co) and CTCLoss what flows into its second output (the gradient it
computes), as TF's gradient functions do.

Not here (tests/python/test_grad_more3.py): BlockLSTMV2, whose TF 2.21
gradient runs the gradient kernel of the other gate layout (tfe runs
BlockLSTMGradV2; checked against TF's BlockLSTMGradV2 and central
differences); BlockLSTM with seq_len_max < time steps (TF leaves the
outputs past seq_len_max uninitialized, so no forward values to compare);
a SparseSlice that keeps nothing (its empty [0, 2] indices do not survive
the JSON encoding); and CTCLoss's second derivative (an error, as in TF).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from _common import Rng, c, case, d

R = Rng("more3")
arr = R.arr


def lstm(name: str, t: int = 3, b: int = 2, i: int = 2, h: int = 3, seq: int | None = None,
         attrs: dict[str, Any] | None = None, outputs: list[int] | None = None,
         dtype: str = "float32", numeric: bool | None = True, **kw: Any) -> dict[str, Any]:
    """A BlockLSTM case with small random values (cs stays well inside the
    default cell_clip of 3)."""
    def w(*shape: int) -> dict[str, Any]:
        return d(arr(shape, -0.8, 0.8), dtype)
    return case(name, "BlockLSTM",
                {"seq_len_max": c(t if seq is None else seq, "int64"), "x": w(t, b, i),
                 "cs_prev": w(b, h), "h_prev": w(b, h), "w": w(i + h, 4 * h), "wci": w(h),
                 "wcf": w(h), "wco": w(h), "b": w(4 * h)},
                attrs or {}, outputs if outputs is not None else [1, 6], numeric=numeric, **kw)


# CTC: 3 batch entries, 4 classes (blank = 3), up to 6 steps
CTC_IND = [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [2, 0]]
CTC_VAL = [1, 2, 0, 0, 1, 2]  # entry 1 repeats label 0


def ctc(name: str, attrs: dict[str, Any] | None = None, seq: list[int] | None = None,
        ind: list[list[int]] | None = None, val: list[int] | None = None,
        dtype: str = "float64", outputs: list[int] | None = None, **kw: Any) -> dict[str, Any]:
    """A CTCLoss case. TF's float64 kernel loses precision somewhere (its
    losses are ~5e-9 relative off exact values, which tfe's match to
    ~1e-15), so float64 comparisons with TF are looser."""
    if dtype == "float64":
        kw.setdefault("rtol", 1e-5)
        kw.setdefault("atol", 1e-7)
    return case(name, "CTCLoss",
                {"inputs": d(arr((6, 3, 4), -2.0, 2.0), dtype),
                 "labels_indices": c(CTC_IND if ind is None else ind, "int64"),
                 "labels_values": c(CTC_VAL if val is None else val),
                 "sequence_length": c([6, 5, 4] if seq is None else seq)},
                attrs, outputs, **kw)


def smm(name: str, ta: bool, tb: bool, m: int = 3, k: int = 4, n: int = 2,
        da: str = "float32", db: str = "float32", a_sp: bool = False,
        b_sp: bool = False) -> dict[str, Any]:
    a = arr((k, m) if ta else (m, k))
    b = arr((n, k) if tb else (k, n))
    if a_sp:
        a = np.where(R.gen.uniform(size=a.shape) < 0.5, 0.0, a)
    if b_sp:
        b = np.where(R.gen.uniform(size=b.shape) < 0.5, 0.0, b)
    both_f32 = da == db == "float32"
    # graph only for float32: tfe_py's Session.run returns bfloat16 values as
    # raw 2-byte records (numpy dtype V2), which the harness cannot compare
    return case(name, "SparseMatMul", {"a": d(a, da), "b": d(b, db)},
                {"transpose_a": ta, "transpose_b": tb, "a_is_sparse": a_sp, "b_is_sparse": b_sp},
                numeric=both_f32, graph=both_f32)


IDX = [[0, 1], [0, 3], [1, 0], [1, 2], [2, 2], [2, 3]]
IDX3 = [[0, 0, 1], [0, 1, 0], [0, 1, 2], [1, 0, 2], [1, 1, 1], [1, 1, 2]]


def sslice(name: str, start: list[int], size: list[int], ind: list[list[int]] = IDX,
           shape: list[int] | None = None, dtype: str = "float64") -> dict[str, Any]:
    return case(name, "SparseSlice",
                {"indices": c(ind, "int64"), "values": d(arr((len(ind),)), dtype),
                 "shape": c(shape or [3, 4], "int64"), "start": c(start, "int64"),
                 "size": c(size, "int64")}, outputs=[1])


CASES: list[dict[str, Any]] = [
    # ---- BlockLSTM (gradients of cs and h; BlockLSTMGrad) ----
    lstm("block_lstm_peephole", attrs={"use_peephole": True, "cell_clip": -1.0}),
    lstm("block_lstm_no_peephole", attrs={"use_peephole": False}),
    lstm("block_lstm_default_attrs"),
    lstm("block_lstm_forget_bias", attrs={"forget_bias": 0.3, "use_peephole": True}),
    lstm("block_lstm_h_only", t=2, b=3, i=3, h=2, outputs=[6], attrs={"use_peephole": True}),
    lstm("block_lstm_cs_only", outputs=[1]),
    lstm("block_lstm_one_step", t=1, b=1, i=4, h=2, attrs={"use_peephole": True}),
    # what flows into the gate outputs is dropped, as TF's gradient does
    lstm("block_lstm_gate_outputs", outputs=[0, 1, 2, 3, 4, 5, 6],
         attrs={"use_peephole": True}, numeric=False),
    lstm("block_lstm_f16", t=2, b=2, i=2, h=2, dtype="float16", numeric=False,
         attrs={"use_peephole": True}, rtol=3e-2, atol=3e-2),
    # ---- CTCLoss (loss gradient = the op's second output x upstream) ----
    ctc("ctc_loss"),
    ctc("ctc_loss_no_merge", {"ctc_merge_repeated": False}),
    ctc("ctc_loss_collapse", {"preprocess_collapse_repeated": True}),
    # entry 0's 2 labels cannot fit in 1 step: its loss and gradient are 0
    ctc("ctc_loss_ignore_longer", {"ignore_longer_outputs_than_inputs": True}, seq=[1, 5, 4]),
    ctc("ctc_loss_f32", dtype="float32"),
    # what flows into the second output is dropped: TF's gradient is zero here
    ctc("ctc_loss_grad_output_only", outputs=[1], numeric=False),
    ctc("ctc_loss_both_outputs", outputs=[0, 1], numeric=False),
    # ---- SparseMatMul (float32 / bfloat16 in, float32 out) ----
    smm("smm", False, False),
    smm("smm_ta", True, False),
    smm("smm_tb", False, True),
    smm("smm_ta_tb", True, True),
    smm("smm_a_sparse", False, False, a_sp=True),
    smm("smm_b_sparse_tb", False, True, b_sp=True),
    smm("smm_both_sparse_ta", True, False, a_sp=True, b_sp=True),
    smm("smm_bf16_a", False, False, da="bfloat16"),
    smm("smm_bf16_b_tb", False, True, db="bfloat16", b_sp=True),
    smm("smm_bf16_both_ta_tb", True, True, da="bfloat16", db="bfloat16", a_sp=True),
    # ---- SparseSlice (values; SparseSliceGrad) ----
    sslice("sparse_slice", [0, 1], [2, 3]),
    sslice("sparse_slice_all", [0, 0], [3, 4]),
    sslice("sparse_slice_past_end", [1, 2], [5, 9]),
    sslice("sparse_slice_3d", [0, 1, 1], [2, 1, 2], IDX3, [2, 2, 3]),
    sslice("sparse_slice_f32", [1, 0], [2, 4], dtype="float32"),
]
