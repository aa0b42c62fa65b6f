"""Speed of the nn_linalg2 kernel group (issue 18), side by side with
TensorFlow: Eig, SparseMatMul, the fused LSTM/GRU cells, BlockLSTM and
CTCLoss/CTCGreedyDecoder.

Each line times one op in tfe (through ``tfe_py.ops``, eager dispatch
included) and the same op in TensorFlow 2.21 on the same inputs (made from
fixed seeds in both processes), best of ``--repeat`` runs, and prints the
ratio tfe / TF (below 1.0: tfe is faster); see raw_op_bench.py.

Goal (issue 18): at most 1.5.

Usage:  TFE_BENCH_TF_PYTHON=/path/to/python python benchmarks/bench_nnlin.py
            [--repeat N] [--only TEXT] [--small]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raw_op_bench import main

# The cases, as source run in both processes (see raw_op_bench.py).
_CASES_SRC = '''
import numpy as np

def make_cases(small):
    r = np.random.default_rng(18)
    s = 2 if small else 1
    out = []
    for n in (16, 64 // s):
        a = r.standard_normal((8, n, n))
        out.append(("Eig float64 8x%dx%d" % (n, n), "Eig", {"input": a},
                    {"Tout": "complex128"}))
        out.append(("Eig float32 8x%dx%d no vectors" % (n, n), "Eig",
                    {"input": a.astype(np.float32)},
                    {"Tout": "complex64", "compute_v": False}))
    a = r.standard_normal((512 // s, 512)).astype(np.float32)
    a[r.uniform(size=a.shape) < 0.8] = 0
    b = r.standard_normal((512, 512)).astype(np.float32)
    out.append(("SparseMatMul %dx512 80%% zeros x 512x512" % (512 // s), "SparseMatMul",
                {"a": a, "b": b}, {"a_is_sparse": True}))
    B, I, C = 32, 128, 256 // s
    x = r.standard_normal((B, I)).astype(np.float32)
    cs = r.standard_normal((B, C)).astype(np.float32)
    h = r.standard_normal((B, C)).astype(np.float32)
    w = (r.standard_normal((I + C, 4 * C)) * 0.1).astype(np.float32)
    v = r.standard_normal(C).astype(np.float32)
    bias = r.standard_normal(4 * C).astype(np.float32)
    cell = {"x": x, "cs_prev": cs, "h_prev": h, "w": w, "wci": v, "wcf": v, "wco": v,
            "b": bias}
    out.append(("LSTMBlockCell B%d I%d C%d" % (B, I, C), "LSTMBlockCell", cell, {}))
    out.append(("LSTMBlockCell peephole", "LSTMBlockCell", cell, {"use_peephole": True}))
    T = 20
    xs = r.standard_normal((T, B, I)).astype(np.float32)
    blk = dict(cell, x=xs, seq_len_max=np.int64(T))
    out.append(("BlockLSTM T%d B%d I%d C%d" % (T, B, I, C), "BlockLSTM", blk, {}))
    out.append(("BlockLSTMV2 same", "BlockLSTMV2", blk, {}))
    gcs = r.standard_normal((T, B, C)).astype(np.float32)
    ghs = r.standard_normal((T, B, C)).astype(np.float32)

    def lstm_grad(raw, const):
        t = {k: const(v) for k, v in blk.items()}
        fwd = list(raw.BlockLSTM(**t))
        names = ("i", "cs", "f", "o", "ci", "co", "h")
        g = dict(t, cs_grad=const(gcs), h_grad=const(ghs), use_peephole=False,
                 **dict(zip(names, fwd)))
        return lambda: raw.BlockLSTMGrad(**g)
    out.append(("BlockLSTMGrad T%d B%d I%d C%d" % (T, B, I, C), lstm_grad))
    wru = (r.standard_normal((I + C, 2 * C)) * 0.1).astype(np.float32)
    wc = (r.standard_normal((I + C, C)) * 0.1).astype(np.float32)
    gru = {"x": x, "h_prev": h, "w_ru": wru, "w_c": wc,
           "b_ru": r.standard_normal(2 * C).astype(np.float32),
           "b_c": r.standard_normal(C).astype(np.float32)}
    out.append(("GRUBlockCell B%d I%d C%d" % (B, I, C), "GRUBlockCell", gru, {}))
    Tc, Bc, K, L = 100 // s, 16, 40, 20
    logits = r.standard_normal((Tc, Bc, K)).astype(np.float32)
    idx = np.array([[b, j] for b in range(Bc) for j in range(L)], np.int64)
    vals = r.integers(0, K - 1, Bc * L).astype(np.int32)
    seq = np.full(Bc, Tc, np.int32)
    out.append(("CTCLoss T%d B%d K%d L%d" % (Tc, Bc, K, L), "CTCLoss",
                {"inputs": logits, "labels_indices": idx, "labels_values": vals,
                 "sequence_length": seq}, {}))
    out.append(("CTCGreedyDecoder same", "CTCGreedyDecoder",
                {"inputs": logits, "sequence_length": seq}, {"merge_repeated": True}))
    return out
'''


if __name__ == "__main__":
    main(_CASES_SRC, goal=1.5)
