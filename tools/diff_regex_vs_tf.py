#!/usr/bin/env python3
"""Differential test of tfe's regex engine against TensorFlow 2.21 (RE2) on
random patterns and texts. Two steps, because TF and tfe are not loaded in
one process:

    /work/tfvenv/bin/python tools/diff_regex_vs_tf.py record --n 3000 /tmp/rx_diff.json
    python tools/diff_regex_vs_tf.py check /tmp/rx_diff.json

`record` draws patterns from a small grammar (literals, classes, Perl and
Unicode classes, anchors, groups, alternation, greedy and lazy repetition,
flags) and texts over a matching alphabet (ASCII, a few multi-byte
characters, invalid bytes), and stores what TF's RegexFullMatch and
RegexReplace (global and first match, rewrite "<\\0|\\1>") give. `check`
runs the same through tfe_py and prints every difference. Not part of the
test suite (it needs TF); mismatches worth keeping go to
tools/gen_regex_cases.py."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

ATOMS = ["a", "b", "c", "ab", ".", "\\d", "\\w", "\\s", "\\W", "[ab]", "[^a]", "[a-c]",
         "\\pL", "\\p{Greek}", "\\PL", "[[:alpha:]]", "\\x{e9}", "\u00e9", "\u03b1", "\\.",
         "\\b", "\\B", "^", "$", "\\A", "\\z", "(?i:a)", "(?s:.)", "x", " "]
REPS = ["*", "+", "?", "*?", "+?", "??", "{2}", "{0,2}", "{1,}", "{2,3}?", ""]
FLAGS = ["", "", "", "(?i)", "(?m)", "(?s)", "(?U)", "(?im)"]
TEXT_CHARS = ["a", "b", "c", "x", " ", "\n", ".", "1", "\u00e9", "\u00c9", "\u03b1", "A", "_"]


def gen_re(r: random.Random, depth: int = 0) -> str:
    n = r.randint(1, 4)
    parts = []
    for _ in range(n):
        k = r.random()
        if k < 0.2 and depth < 3:
            inner = gen_re(r, depth + 1)
            if r.random() < 0.3:
                inner += "|" + gen_re(r, depth + 1)
            atom = r.choice(["(", "(?:", "(?P<g>"]) + inner + ")"
        else:
            atom = r.choice(ATOMS)
        rep = r.choice(REPS) if atom not in ("^", "$", "\\b", "\\B", "\\A", "\\z") else ""
        parts.append(atom + rep)
    return "".join(parts)


def gen_text(r: random.Random) -> bytes:
    s = "".join(r.choice(TEXT_CHARS) for _ in range(r.randint(0, 8))).encode()
    if r.random() < 0.1:
        i = r.randint(0, len(s))
        s = s[:i] + r.choice([b"\xff", b"\xc3", b"\xe2\x82", b"\x80"]) + s[i:]
    return s


def record(n: int, path: str, seed: int) -> None:
    import numpy as np
    import tensorflow as tf

    r = random.Random(seed)
    out: list[dict[str, Any]] = []
    for _ in range(n):
        pat = r.choice(FLAGS) + gen_re(r)
        texts = [gen_text(r) for _ in range(6)]
        x = np.array(texts, dtype=object)
        case: dict[str, Any] = {"pattern": pat, "texts": [t.decode("latin-1") for t in texts]}
        try:
            case["full"] = [bool(v) for v in
                            tf.raw_ops.RegexFullMatch(input=x, pattern=pat.encode()).numpy()]
            rw = "<\\0|\\1>" if "(" in pat and "(?:" not in pat else "<\\0>"
            case["rewrite"] = rw
            for g in (True, False):
                res = tf.raw_ops.RegexReplace(input=x, pattern=pat.encode(), rewrite=rw.encode(),
                                              replace_global=g).numpy()
                case["global" if g else "first"] = [v.decode("latin-1") for v in res]
        except tf.errors.OpError as e:
            case["error"] = str(e).split("\n")[0][:200]
        out.append(case)
    with open(path, "w") as f:
        json.dump(out, f)
    print(f"recorded {len(out)} patterns")


def check(path: str) -> int:
    import numpy as np

    from tfe_py import errors, ops
    from tfe_py.eager import constant

    cases = json.load(open(path))
    bad = 0
    for c in cases:
        texts = [t.encode("latin-1") for t in c["texts"]]
        a = np.empty(len(texts), dtype=object)
        a[:] = texts
        x = constant(a)
        pat = constant(np.array(c["pattern"].encode(), dtype=object))
        try:
            full = ops.RegexFullMatch(input=x, pattern=pat).numpy().tolist()
            got: dict[str, Any] = {"full": full}
            rw = constant(np.array(c.get("rewrite", "").encode(), dtype=object))
            for g in (True, False):
                res = ops.RegexReplace(input=x, pattern=pat, rewrite=rw, replace_global=g)
                got["global" if g else "first"] = [v.decode("latin-1") for v in res.numpy()]
        except errors.OpError as e:
            got = {"error": str(e).split("\n")[0][:200]}
        if "error" in c or "error" in got:
            if ("error" in c) != ("error" in got):
                bad += 1
                print("ERROR MISMATCH", repr(c["pattern"]), c.get("error"), got.get("error"))
            continue
        for k in ("full", "global", "first"):
            if got[k] != c[k]:
                bad += 1
                diffs = [(t, w, g) for t, w, g in zip(c["texts"], c[k], got[k], strict=True)
                         if w != g]
                print("MISMATCH", k, repr(c["pattern"]), diffs[:2])
                break
    print(f"{len(cases)} patterns, {bad} with differences")
    return 1 if bad else 0


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    rp = sub.add_parser("record")
    rp.add_argument("--n", type=int, default=2000)
    rp.add_argument("--seed", type=int, default=15)
    rp.add_argument("path")
    cp = sub.add_parser("check")
    cp.add_argument("path")
    a = ap.parse_args()
    if a.cmd == "record":
        record(a.n, a.path, a.seed)
    else:
        sys.exit(check(a.path))


if __name__ == "__main__":
    main()
